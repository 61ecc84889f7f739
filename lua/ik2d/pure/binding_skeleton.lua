--- ik2d.pure.binding_skeleton: ik2d.skeleton and chains over its paths for
-- Lua (src/lua/luaik_skeleton.c): the same arguments, checks, errors and
-- results.  Bones have names here: a skeleton's anchor is its info, the
-- names (info[i]), their indices (info.index[name]) and the constraints
-- of its bones (info.constraints[i]).
local api = require "ik2d.api"
local defs = require "ik2d.pure.defs"
local option_rows = require "ik2d.pure.options"
local B = require "ik2d.pure.binding"
local O = require "ik2d.pure.objects"
local skeleton = require "ik2d.pure.skeleton"
local skeleton_solve = require "ik2d.pure.skeleton_solve"
local binding_chain = require "ik2d.pure.binding_chain"
local check_base = require("ik2d.pure.chain").check_base

local type, select, rawget, rawset, rawequal, tostring = type, select, rawget, rawset,
  rawequal, tostring
local format = string.format
local rawlen = rawget(_G, "rawlen") or function(t) return #t end
local arg_error, type_error, check_status, index_error = B.arg_error, B.type_error,
  B.check_status, B.index_error
local number_at, whole_at, boolean_at, choice_at = B.number_at, B.whole_at, B.boolean_at,
  B.choice_at
local is_table, typename, status_message, c_string = B.is_table, B.typename,
  B.status_message, B.c_string
local number_field, read_limits, push_constraint = binding_chain.number_field,
  binding_chain.read_limits, binding_chain.push_constraint

local skeletons, new_skeleton = O.objects.Skeleton, O.new.Skeleton
local Skeleton = O.methods.Skeleton

local M = {}

--- the live skeleton that argument arg (of n) is, or an error; as read
-- (placed after a base set later)
local function live_skeleton(v, arg, n)
  local sk = skeletons[v]
  if not sk then type_error(arg, "ik2d.Skeleton", v, n) end
  if sk.collected then arg_error(arg, "skeleton was collected") end
  return sk
end
local function check_skeleton(v, arg, n)
  local sk = live_skeleton(v, arg, n)
  skeleton.ready(sk)
  return sk
end

-- The bone at argument arg (v; present: passed at all): its name or its
-- index.
local function bone_arg(sk, v, present, arg)
  if type(v) == "number" then
    local i = whole_at(v, present, arg, "bone index")
    if i < 1 or i > sk.count then index_error(arg, "bone", i, sk.count) end
    return i
  end
  if type(v) ~= "string" then
    arg_error(arg, "bone name or index expected, got " .. (present and typename(v) or "no value"))
  end
  local i = rawget(sk.anchor.index, v)
  if i == nil then arg_error(arg, format('unknown bone "%s"', c_string(v))) end
  return i
end

local function bone_name(sk, i) return c_string(sk.anchor[i]) end

M.check_skeleton, M.bone_arg = check_skeleton, bone_arg

-- "solver <i> (chain "<from>".."<to>")": the solver's place in sk:solvers()
-- and its chain's ends
local function solver_label(sk, sv)
  local list, k = sk.solvers, 1
  while k <= #list and list[k] ~= sv do k = k + 1 end
  local link = sv.chain.link
  return format('solver %d (chain "%s".."%s")', k, bone_name(sk, link.from), bone_name(sk, link.to))
end

--- TARGET_CYCLE as an error on argument arg (0: the call itself) naming
-- solvers a and b of sk
function M.cycle_error(sk, arg, a, b)
  local message = format("%s and %s: %s", solver_label(sk, a), solver_label(sk, b),
                         status_message("TARGET_CYCLE"))
  if arg == 0 then B.call_error(message) end
  arg_error(arg, message)
end

-- ------------------------------------------------------------------
-- ik2d.skeleton{ ... }
-- ------------------------------------------------------------------

local SKELETON_FIELDS = defs.field_set(api.skeleton)
local BONE_FIELDS = defs.field_set(api.skeleton_bone)
-- the plain fields of a bone table, read by rows
local BONE_ROWS = option_rows.rows(api.skeleton_bone)
local INHERIT_NAMES = defs.choices("inherit")
-- an inherit mode's number (ik2d.pure.bone's, the C enum's) by its name
local INHERIT_NUMBER = {}
for k, name in ipairs(INHERIT_NAMES) do INHERIT_NUMBER[name] = k - 1 end

-- Reads bone i of the table t into a def; info gets its name, limits its
-- constraint (proxy).
local function read_bone(t, info, i, bones, limits)
  local bone = rawget(t, i)
  if not is_table(bone) then
    arg_error(1, format("bone %d: table expected, got %s", i, typename(bone)))
  end
  local name = rawget(bone, "name")
  if type(name) ~= "string" then
    arg_error(1, format("bone %d: name must be a string, got %s", i, typename(name)))
  end
  local owner = format('bone "%s": ', c_string(name))
  B.check_keys(bone, 1, owner, "field", BONE_FIELDS, 0)
  local index = info.index
  local other = rawget(index, name)
  if other ~= nil then
    arg_error(1, format('bone %d: duplicate name "%s" (bone %d has it)', i, c_string(name), other))
  end
  local def = { parent = 0, length = 0.0, rest = 0.0, at_tip = true, x = 0.0, y = 0.0,
    scale_x = 1.0, scale_y = 1.0, shear_x = 0.0, shear_y = 0.0, inherit = 0, constraint = false }
  local parent = rawget(bone, "parent")
  if parent ~= nil then
    if type(parent) ~= "string" then
      arg_error(1, format("%sparent must be a bone name, got %s", owner, typename(parent)))
    end
    local p = rawget(index, parent)
    if p == nil then
      -- not yet: a name given later, or none
      local k = i + 1
      while k <= rawlen(t) do
        local later = rawget(t, k)
        if is_table(later) and rawequal(rawget(later, "name"), parent) then
          arg_error(1, format('%sparent "%s" is not defined earlier (it is bone %d: parents '
                              .. "come first)", owner, c_string(parent), k))
        end
        k = k + 1
      end
      arg_error(1, format('%sparent "%s" is not defined earlier', owner, c_string(parent)))
    end
    def.parent = p
  end
  option_rows.read_fields(bone, 1, owner, BONE_ROWS, def)
  -- an origin given: at (x, y), x defaulting to the parent's tip
  local x, y = rawget(bone, "x"), rawget(bone, "y")
  if x ~= nil or y ~= nil then
    def.at_tip = false
    if def.parent > 0 then def.x = bones[def.parent].length end
    if x ~= nil then def.x = number_at(x, true, 1, owner .. "x") end
    if y ~= nil then def.y = number_at(y, true, 1, owner .. "y") end
  end
  local inherit = rawget(bone, "inherit")
  if inherit ~= nil then
    def.inherit = INHERIT_NUMBER[choice_at(inherit, 1, owner .. "inherit", INHERIT_NAMES)]
  end
  local limit_def = {}
  if read_limits(bone, 1, owner, limit_def) then
    def.constraint, limits[i] = push_constraint(1, owner, limit_def)
  end
  info[i] = name
  index[name] = i
  return def
end

function M.skeleton(...)
  local t, n = ..., select("#", ...)
  if not is_table(t) then type_error(1, "table", t, n) end
  local count = rawlen(t)
  if count < 1 or count > skeleton.MAX_BONES then check_status(1, "SKELETON_BONES") end
  B.check_keys(t, 1, "", "field", SKELETON_FIELDS, count)
  local info, bones, limits = { index = {} }, {}, {}
  for i = 1, count do bones[i] = read_bone(t, info, i, bones, limits) end
  local def = { count = count, bones = bones }
  def.x = number_field(t, "x", "x", 0.0)
  def.y = number_field(t, "y", "y", 0.0)
  def.angle = number_field(t, "angle", "angle", 0.0)
  def.scale_x = number_field(t, "scale_x", "scale_x", 1.0)
  def.scale_y = number_field(t, "scale_y", "scale_y", 1.0)
  local flip = rawget(t, "flip")
  def.flip = flip ~= nil and boolean_at(flip, true, 1, "flip")
  local sk, status, bad = skeleton.new(def)
  if not sk and bad then
    arg_error(1, format('bone "%s": %s', c_string(info[bad]), status_message(status)))
  end
  check_status(1, status)
  info.constraints = limits
  sk.anchor = info
  return new_skeleton(sk)
end

-- ------------------------------------------------------------------
-- methods
-- ------------------------------------------------------------------

function Skeleton.bone(...)
  local self, name = ...
  local n = select("#", ...)
  local sk = check_skeleton(self, 1, n)
  if type(name) ~= "string" then type_error(2, "string", name, n) end
  return (rawget(sk.anchor.index, name))
end

function Skeleton.name(...)
  local self, bone = ...
  local n = select("#", ...)
  local sk = check_skeleton(self, 1, n)
  return sk.anchor[bone_arg(sk, bone, n >= 2, 2)]
end

--- the parent's index; nothing for a root
function Skeleton.parent(...)
  local self, bone = ...
  local n = select("#", ...)
  local sk = check_skeleton(self, 1, n)
  local p = sk.parent[bone_arg(sk, bone, n >= 2, 2)]
  if p == 0 then return end
  return p
end

function Skeleton.set_base(...)
  local self, x, y, angle = ...
  local n = select("#", ...)
  local sk = check_skeleton(self, 1, n)
  x = number_at(x, n >= 2, 2)
  y = number_at(y, n >= 3, 3)
  if angle == nil then angle = sk.base_angle else angle = number_at(angle, true, 4) end
  -- the bones placed by the solve that follows, or the first reader
  local status = check_base(x, y, angle)
  if not status then skeleton.set_base_later(sk, x, y, angle) end
  check_status(status == "BASE_X" and 2 or status == "BASE_Y" and 3 or 4, status)
end

function Skeleton.base(...)
  local sk = check_skeleton(..., 1, select("#", ...))
  return sk.base_x, sk.base_y, sk.base_angle
end

function Skeleton.set_flip(...)
  local self, flip = ...
  local n = select("#", ...)
  local sk = check_skeleton(self, 1, n)
  skeleton.set_flip(sk, boolean_at(flip, n >= 2, 2, "flip"))
end

function Skeleton.flip(...)
  return check_skeleton(..., 1, select("#", ...)).flip
end

-- sk:f(bone, value) for a per-bone edit: the core's status on the value,
-- naming the bone
local function bone_setter(write)
  return function(...)
    local self, bone, value = ...
    local n = select("#", ...)
    local sk = check_skeleton(self, 1, n)
    local i = bone_arg(sk, bone, n >= 2, 2)
    value = number_at(value, n >= 3, 3)
    local status = write(sk, i, value)
    if status then arg_error(3, format('bone "%s": %s', bone_name(sk, i), status_message(status))) end
  end
end

-- each call's own local transform record (a finaliser or a hook may call
-- set_pose inside another)
local take_local, give_local = B.pool()

-- The argument sk:set_pose's parts come from (angle #3 with self #1), and
-- the one a status of the local transform's check blames (src/lua/
-- luaik_skeleton.c's pose_arg_of).
local POSE_ARG = { ORIGIN_X = 4, ORIGIN_Y = 5, SCALE_X = 6, SCALE_Y = 7, SHEAR_X = 8, SHEAR_Y = 9 }
local POSE_PARTS = { "x", "y", "scale_x", "scale_y", "shear_x", "shear_y" }

--- sk:set_pose(bone, angle [, x, y, scale_x, scale_y, shear_x, shear_y]):
-- with only the angle, the pose's angle; else the whole animated local
-- transform, a nil part keeping the pose's
function Skeleton.set_pose(...)
  local self, bone, angle = ...
  local n = select("#", ...)
  local sk = check_skeleton(self, 1, n)
  local i = bone_arg(sk, bone, n >= 2, 2)
  local status
  if n <= 3 then
    status = skeleton.set_pose(sk, i, number_at(angle, n >= 3, 3))
  else
    local l = take_local()
    l.angle = number_at(angle, true, 3)
    local s = sk.pose_shape[i]
    for k = 1, 6 do
      local key, v = POSE_PARTS[k], select(k + 3, ...)
      if v == nil then l[key] = s[key] else l[key] = number_at(v, true, k + 3) end
    end
    status = skeleton.set_pose_local(sk, i, l)
    give_local(l)
  end
  if status then
    arg_error(POSE_ARG[status] or 3, format('bone "%s": %s', bone_name(sk, i), status_message(status)))
  end
end

Skeleton.set_length = bone_setter(skeleton.set_length)
Skeleton.set_rest = bone_setter(skeleton.set_rest)

-- sk:f(bone) for a per-bone array of the skeleton
local function bone_value(field)
  return function(...)
    local self, bone = ...
    local n = select("#", ...)
    local sk = check_skeleton(self, 1, n)
    return sk[field][bone_arg(sk, bone, n >= 2, 2)]
  end
end

-- sk:f(bone) -> angle, x, y, scale_x, scale_y, shear_x, shear_y: a local
-- transform of the angles and shapes the skeleton keeps under these keys
local function bone_local(angles, shapes)
  local local_values = skeleton.local_values
  return function(...)
    local self, bone = ...
    local n = select("#", ...)
    local sk = check_skeleton(self, 1, n)
    return local_values(sk[angles], sk[shapes], bone_arg(sk, bone, n >= 2, 2))
  end
end

Skeleton.pose = bone_local("pose", "pose_shape")
Skeleton.result = bone_local("angle", "shape")
Skeleton.setup = bone_local("rest", "setup")
Skeleton.angle = bone_value("angle")
Skeleton.length = bone_value("length")
Skeleton.rest = bone_value("rest")

--- x, y, angle of a bone as drawn
function Skeleton.world(...)
  local self, bone = ...
  local n = select("#", ...)
  local sk = check_skeleton(self, 1, n)
  local t = 5 * bone_arg(sk, bone, n >= 2, 2)
  local T = sk.T
  return T[t - 4], T[t - 3], T[t - 2]
end

function Skeleton.tip(...)
  local self, bone = ...
  local n = select("#", ...)
  local sk = check_skeleton(self, 1, n)
  local t = 5 * bone_arg(sk, bone, n >= 2, 2)
  return sk.T[t - 1], sk.T[t]
end

--- the world point of (x, y) in bone's space, as the bone is drawn
function Skeleton.point(...)
  local self, bone, x, y = ...
  local n = select("#", ...)
  local sk = check_skeleton(self, 1, n)
  local b = bone_arg(sk, bone, n >= 2, 2)
  x = number_at(x, n >= 3, 3)
  y = number_at(y, n >= 4, 4)
  return skeleton.point(sk, b, x, y)
end

function Skeleton.origin(...)
  local self, bone = ...
  local n = select("#", ...)
  local sk = check_skeleton(self, 1, n)
  local i = bone_arg(sk, bone, n >= 2, 2)
  return sk.ox[i], sk.oy[i]
end

function Skeleton.at_tip(...)
  local self, bone = ...
  local n = select("#", ...)
  local sk = check_skeleton(self, 1, n)
  return sk.at_tip[bone_arg(sk, bone, n >= 2, 2)] and true or false
end

function Skeleton.inherit(...)
  local self, bone = ...
  local n = select("#", ...)
  local sk = check_skeleton(self, 1, n)
  return INHERIT_NAMES[sk.inherit[bone_arg(sk, bone, n >= 2, 2)] + 1]
end

function Skeleton.set_scale(...)
  local self, sx, sy = ...
  local n = select("#", ...)
  local sk = check_skeleton(self, 1, n)
  sx = number_at(sx, n >= 2, 2)
  sy = number_at(sy, n >= 3, 3)
  local status = skeleton.set_scale(sk, sx, sy)
  check_status(status == "SCALE_Y" and 3 or 2, status)
end

function Skeleton.scale(...)
  local sk = check_skeleton(..., 1, select("#", ...))
  return sk.scale_x, sk.scale_y
end

--- a, b, c, d, x, y: bone's map as drawn (x axis (a, c), y axis (b, d),
-- origin (x, y))
function Skeleton.matrix(...)
  local self, bone = ...
  local n = select("#", ...)
  local sk = check_skeleton(self, 1, n)
  return skeleton.matrix(sk, bone_arg(sk, bone, n >= 2, 2))
end

--- every bone's map as drawn, 6 numbers a bone, bone after bone
function Skeleton.matrices(...)
  local self, t = ...
  local n = select("#", ...)
  local sk = check_skeleton(self, 1, n)
  t = B.table_arg(t, 2, n)
  local last = 6 * sk.count
  -- a table without a metatable takes plain stores, rawset's without
  -- the call a number
  if getmetatable(t) == nil then
    skeleton.matrices(sk, t, 1)
  else
    for b = 1, sk.count do
      local k = 6 * b - 6
      local a, bb, c, d, x, y = skeleton.matrix(sk, b)
      rawset(t, k + 1, a)
      rawset(t, k + 2, bb)
      rawset(t, k + 3, c)
      rawset(t, k + 4, d)
      rawset(t, k + 5, x)
      rawset(t, k + 6, y)
    end
  end
  if rawget(t, last + 1) ~= nil then B.trim(t, last + 1) end
  return t
end

--- LuaJIT: a const double * to every bone's map as drawn, made again by
-- each call (call it after each change), valid while the skeleton lives
-- (the pointer keeps it alive)
function Skeleton.matrix_array(...)
  local self = ...
  local sk = check_skeleton(self, 1, select("#", ...))
  if not B.ffi then
    arg_error(1, "matrix_array needs LuaJIT's FFI (the ik2d.ffi fast path is off or not "
              .. "available: use matrices)")
  end
  if not sk.matrix_array then skeleton.set_matrix_array(sk, B.ffi.new("double[?]", 6 * sk.count)) end
  skeleton.matrices(sk, sk.matrix_array, 0)
  return B.pointer(self, sk, "matrix_array", "const double *")
end

function Skeleton.constraint(...)
  local self, bone = ...
  local n = select("#", ...)
  local sk = check_skeleton(self, 1, n)
  return sk.anchor.constraints[bone_arg(sk, bone, n >= 2, 2)]
end

function Skeleton.set_constraint(...)
  local self, bone, c = ...
  local n = select("#", ...)
  local sk = check_skeleton(self, 1, n)
  local i = bone_arg(sk, bone, n >= 2, 2)
  local limit = false
  if c ~= nil then limit = binding_chain.check_constraint(c, 3, n) end
  check_status(3, skeleton.set_constraint(sk, i, limit))
  -- the info keeps it alive for as long as the skeleton holds it
  sk.anchor.constraints[i] = c
end

function Skeleton.reset(...)
  skeleton.reset(check_skeleton(..., 1, select("#", ...)))
end

--- every bone's x, y, angle, tip x, tip y as drawn, bone after bone
function Skeleton.transforms(...)
  local self, t = ...
  local n = select("#", ...)
  local sk = check_skeleton(self, 1, n)
  t = B.table_arg(t, 2, n)
  local T, last = sk.T, 5 * sk.count
  -- a table without a metatable takes plain stores, rawset's without
  -- the call a number
  if getmetatable(t) == nil then
    for k = 1, last do t[k] = T[k] end
  else
    for k = 1, last do rawset(t, k, T[k]) end
  end
  if rawget(t, last + 1) ~= nil then B.trim(t, last + 1) end
  return t
end

--- LuaJIT: a const double * to the transforms, kept up to date by every
-- call that changes them, valid while the skeleton lives (the pointer
-- keeps it alive)
function Skeleton.transform_array(...)
  local self = ...
  local sk = check_skeleton(self, 1, select("#", ...))
  if not B.ffi then
    arg_error(1, "transform_array needs LuaJIT's FFI (the ik2d.ffi fast path is off or not "
              .. "available: use transforms)")
  end
  if not sk.array then skeleton.set_array(sk, B.ffi.new("double[?]", 5 * sk.count)) end
  return B.pointer(self, sk, "array", "const double *")
end

function Skeleton.solve(...)
  -- (not placed first: the solve places what it reads)
  local sk = live_skeleton(..., 1, select("#", ...))
  local reached = skeleton_solve.solve(sk)
  if reached < 0 then M.cycle_error(sk, 0, skeleton_solve.cycle(sk)) end
  return reached
end

-- ------------------------------------------------------------------
-- chains over paths, and the solvers on them
-- ------------------------------------------------------------------

function Skeleton.chain(...)
  local self, from, to = ...
  local n = select("#", ...)
  local sk = check_skeleton(self, 1, n)
  from = bone_arg(sk, from, n >= 2, 2)
  to = bone_arg(sk, to, n >= 3, 3)
  local status, bad = skeleton.path(sk, from, to)
  if status == "PATH" then
    arg_error(3, format('bone "%s" does not descend from bone "%s"', bone_name(sk, to),
                        bone_name(sk, from)))
  elseif status == "PATH_INHERIT" then
    local inherit = INHERIT_NAMES[sk.inherit[bad] + 1]
    if inherit == "position" then inherit = "position only" end
    arg_error(3, format('bone "%s" inherits %s: it can only start a chain', bone_name(sk, bad),
                        inherit))
  elseif status == "BONE_COUNT" then
    arg_error(3, status_message(status) .. " (the path has more)")
  end
  check_status(3, status)
  local ch
  ch, status = skeleton.chain(sk, from, to)
  check_status(3, status)
  -- the chain keeps its skeleton alive (and not the other way)
  ch.anchor = { skeleton = self }
  return O.new.Chain(ch)
end

--- every solver on the skeleton's chains, in the order made (one being
-- collected is left out)
function Skeleton.solvers(...)
  local self, t = ...
  local n = select("#", ...)
  local sk = check_skeleton(self, 1, n)
  t = B.table_arg(t, 2, n)
  local list, proxies, next_index = sk.solvers, O.solver_proxies, 1
  for k = 1, #list do
    local proxy = proxies[list[k]]
    if proxy ~= nil then
      rawset(t, next_index, proxy)
      next_index = next_index + 1
    end
  end
  if rawget(t, next_index) ~= nil then B.trim(t, next_index) end
  return t
end

local meta = {}
function meta.__len(...)
  return check_skeleton(..., 1, select("#", ...)).count
end

function meta.__tostring(self)
  local sk = skeletons[self]
  if not sk or sk.collected then return "ik2d.Skeleton(collected)" end
  return format("ik2d.Skeleton(%d bones, base %s, %s)", sk.count, tostring(sk.base_x),
                tostring(sk.base_y))
end

for name, f in pairs(meta) do O.mt.Skeleton[name] = f end
B.register(Skeleton, true)
B.register(meta, false)
B.register({ skeleton = M.skeleton }, false)

return M
