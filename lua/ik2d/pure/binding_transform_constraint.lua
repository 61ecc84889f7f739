--- ik2d.pure.binding_transform_constraint: ik2d.transform_constraint and a
-- skeleton's order for Lua (src/lua/luaik_transform_constraint.c and the
-- order's part of luaik_skeleton.c): the same arguments, checks, errors
-- and results.  A constraint and its skeleton keep each other alive, in
-- their proxies' own tables (B.keep), so that the collector takes the
-- two together.  The core checks every value; when it refuses a mix or
-- an offset (a status several options share), the option is found by
-- handing the core each given one alone.  Above ik2d.pure.binding_solver:
-- an order's steps are solvers and constraints.
local api = require "ik2d.api"
local defs = require "ik2d.pure.defs"
local option_rows = require "ik2d.pure.options"
local B = require "ik2d.pure.binding"
local O = require "ik2d.pure.objects"
local skeleton = require "ik2d.pure.skeleton"
local transform_constraint = require "ik2d.pure.transform_constraint"
local binding_skeleton = require "ik2d.pure.binding_skeleton"

local type, select, rawget, rawset, next = type, select, rawget, rawset, next
local format = string.format
local rawlen = rawget(_G, "rawlen") or function(t) return #t end
local arg_error, type_error, check_status = B.arg_error, B.type_error, B.check_status
local is_table, typename, status_message, c_string = B.is_table, B.typename,
  B.status_message, B.c_string
local check_skeleton, keep, kept_of = binding_skeleton.check_skeleton, B.keep, B.kept
local copy_def, set_def = transform_constraint.copy_def, transform_constraint.set_def

local constraints_of, new_constraint = O.objects.TransformConstraint, O.new.TransformConstraint
local solvers_of = O.objects.Solver
local TransformConstraint, Skeleton = O.methods.TransformConstraint, O.methods.Skeleton

local M = {}

local MAX_BONES = skeleton.MAX_BONES

-- the live constraint that argument arg (of n) is, or an error
local function check_constraint(v, arg, n)
  local tc = constraints_of[v]
  if not tc then type_error(arg, "ik2d.TransformConstraint", v, n) end
  if tc.collected then arg_error(arg, "transform constraint was collected") end
  return tc
end

-- the same, its skeleton not finalised (which lets it go); the skeleton
-- as read (placed after a base set later)
local function check_live(v, arg, n)
  local tc = check_constraint(v, arg, n)
  if not tc.skeleton then arg_error(arg, "skeleton was collected") end
  skeleton.ready(tc.skeleton)
  return tc
end

local function bone_name(sk, i) return c_string(sk.anchor[i]) end

-- ------------------------------------------------------------------
-- options
-- ------------------------------------------------------------------

local NAMES = defs.field_set(api.transform_constraint)
local ROWS = option_rows.rows(api.transform_constraint)

-- each call's own copies of the settings
local take_def, give_def = B.pool()

-- a key of t that is no option raises
local function check_option_names(t)
  for key in next, t do
    if type(key) ~= "string" then
      arg_error(2, format("option names are strings, got %s", typename(key)))
    end
    -- a name with a zero byte is no option's, though the message cuts it
    if not NAMES[key] then arg_error(2, format("unknown option '%s'", c_string(key))) end
  end
end

-- The bone v (an item of the options, named what in the errors) of the
-- skeleton sk: its name or its 1-based index (luaik_bone_at).
local function bone_at(sk, v, what)
  if type(v) == "number" then
    local i = B.whole_at(v, true, 2, what .. ": bone index")
    if i < 1 or i > sk.count then
      arg_error(2, format("%s: bone index %d out of range (1..%d)", what, i, sk.count))
    end
    return i
  end
  if type(v) ~= "string" then
    arg_error(2, format("%s: bone name or index expected, got %s", what, typename(v)))
  end
  local i = rawget(sk.anchor.index, v)
  if i == nil then arg_error(2, format('%s: unknown bone "%s"', what, c_string(v))) end
  return i
end

-- The bones of the options t into list: how many; want, when not 0, is
-- the count they must have.
local function read_bones(sk, t, want, list)
  local bones = rawget(t, "bones")
  if not is_table(bones) then
    arg_error(2, format("bones: table of bone names or indices expected, got %s", typename(bones)))
  end
  local count = rawlen(bones)
  if want > 0 and count ~= want then
    arg_error(2, format("bones: %d bones expected (as many as the constraint has), got %d", want,
                        count))
  end
  if count < 1 or count > MAX_BONES then
    arg_error(2, "bones: " .. status_message("CONSTRAINT_BONES"))
  end
  for i = 1, count do list[i] = bone_at(sk, rawget(bones, i), format("bones[%d]", i)) end
  for i = #list, count + 1, -1 do list[i] = nil end
  return count
end

-- the plain options of t, in the rows' order, into def
local function read_rows(t, def)
  for k = 1, #ROWS do
    local o = ROWS[k]
    local v = rawget(t, o.name)
    if v ~= nil then option_rows.read(v, true, 2, o, def) end
  end
end

-- Why the core refuses the bones or the target of def (status), naming
-- the bone.
local function bones_refusal(sk, def, status)
  if status == "CONSTRAINT_TARGET" then
    return format('target: bone "%s" is one of the constrained bones', bone_name(sk, def.target))
  end
  if status == "CONSTRAINT_TWICE" then
    local bones = def.bones
    for i = 2, def.bone_count do
      for j = 1, i - 1 do
        if bones[i] == bones[j] then
          return format('bones[%d]: bone "%s" is listed twice', i, bone_name(sk, bones[i]))
        end
      end
    end
  end
  return status_message(status)
end

-- The option of t that the core refuses alone, from kept (the
-- constraint's settings, which it takes): its name, the constraint left
-- with kept.
local function refused_option(tc, t, kept)
  local one = take_def()
  for k = 1, #ROWS do
    local o = ROWS[k]
    copy_def(kept, one)
    local v = rawget(t, o.name)
    if v ~= nil then option_rows.read(v, true, 2, o, one) end
    local status = set_def(tc, one)
    set_def(tc, kept)
    if status then
      give_def(one)
      return o.name
    end
  end
  give_def(one)
  return nil
end

-- def (read from the options t) kept by the constraint, whose settings
-- are kept: nil; or, refused, why, the constraint as it was.
local function keep_def(tc, sk, t, def, kept)
  local status = set_def(tc, def)
  if not status then return nil end
  if status ~= "MIX" and status ~= "OFFSET" then return bones_refusal(sk, def, status) end
  local name = refused_option(tc, t, kept)
  if name then return format("%s: %s", name, status_message(status)) end
  return status_message(status)
end

-- ------------------------------------------------------------------
-- ik2d.transform_constraint(sk, options)
-- ------------------------------------------------------------------

--- ik2d.transform_constraint(sk, { bones =, target =, mix_rotate =, ... })
function M.transform_constraint(...)
  local skv, t = ...
  local n = select("#", ...)
  local sk = check_skeleton(skv, 1, n)
  if not is_table(t) then type_error(2, "table", t, n) end
  check_option_names(t)
  local def = transform_constraint.default_def()
  def.bone_count = read_bones(sk, t, 0, def.bones)
  def.target = bone_at(sk, rawget(t, "target"), "target")
  read_rows(t, def)
  -- made from its bones and target first (its mixes and offsets the
  -- defaults), then given the rest
  local first = transform_constraint.default_def()
  first.bones, first.bone_count, first.target = def.bones, def.bone_count, def.target
  local tc, status = transform_constraint.new(sk, first)
  if status == "SKELETON_CONSTRAINTS" then check_status(1, status) end
  if status then arg_error(2, bones_refusal(sk, def, status)) end
  local refused = keep_def(tc, sk, t, def, copy_def(tc.settings, {}))
  if refused then
    -- the skeleton as it was: without it
    transform_constraint.release(tc)
    arg_error(2, refused)
  end
  local proxy = new_constraint(tc)
  -- each keeps the other alive, the skeleton finding it again by its core
  keep(proxy, "skeleton", skv)
  keep(skv, tc, proxy)
  return proxy
end

-- ------------------------------------------------------------------
-- methods
-- ------------------------------------------------------------------

--- tc:set_options(t): the options t gives (bones and target by name or
-- index, as many bones as it has); a refused one changes nothing
function TransformConstraint.set_options(...)
  local self, t = ...
  local n = select("#", ...)
  local tc = check_live(self, 1, n)
  if not is_table(t) then type_error(2, "table", t, n) end
  local sk = tc.skeleton
  check_option_names(t)
  local def, kept = copy_def(tc.settings, take_def()), copy_def(tc.settings, take_def())
  if rawget(t, "bones") ~= nil then read_bones(sk, t, def.bone_count, def.bones) end
  if rawget(t, "target") ~= nil then def.target = bone_at(sk, rawget(t, "target"), "target") end
  read_rows(t, def)
  local refused = keep_def(tc, sk, t, def, kept)
  give_def(def)
  give_def(kept)
  if refused then arg_error(2, refused) end
end

--- tc:options([t]) -> t: every option, bones and target as names
function TransformConstraint.options(...)
  local self, t = ...
  local n = select("#", ...)
  local tc = check_live(self, 1, n)
  t = B.table_arg(t, 2, n)
  local settings, sk = tc.settings, tc.skeleton
  local bones = rawget(t, "bones")
  if not is_table(bones) then
    bones = {}
    rawset(t, "bones", bones)
  end
  local count = settings.bone_count
  for i = 1, count do rawset(bones, i, sk.anchor[settings.bones[i]]) end
  B.trim(bones, count + 1)
  rawset(t, "target", sk.anchor[settings.target])
  option_rows.push_all(t, ROWS, settings, 0)
  return t
end

function TransformConstraint.skeleton(...)
  local self = ...
  check_live(self, 1, select("#", ...))
  return kept_of(self, "skeleton")
end

--- tc:apply(): now, as the skeleton's solve applies it in its order
function TransformConstraint.apply(...)
  transform_constraint.apply(check_live(..., 1, select("#", ...)))
end

local meta = {}
function meta.__tostring(self)
  local tc = constraints_of[self]
  if not tc or tc.collected then return "ik2d.TransformConstraint(collected)" end
  return format("ik2d.TransformConstraint(%d bones%s)", tc.settings.bone_count,
                tc.skeleton and "" or ", skeleton collected")
end

-- ------------------------------------------------------------------
-- a skeleton's constraints and order
-- ------------------------------------------------------------------

-- each call's own list of steps
local take_list, give_list = B.pool()

local MAX_STEPS = 2 * skeleton.MAX_SOLVERS

--- sk:set_order(steps): the solvers (of its chains) and transform
-- constraints its solve runs first, in that order; nil or {} clears it
function Skeleton.set_order(...)
  local self, t = ...
  local n = select("#", ...)
  local sk = check_skeleton(self, 1, n)
  local list, count = take_list(), 0
  if t ~= nil then
    if not is_table(t) then type_error(2, "table", t, n) end
    count = rawlen(t)
    if count > MAX_STEPS then
      arg_error(2, format("%d steps, more than the %d solvers and constraints a skeleton has",
                          count, MAX_STEPS))
    end
    for i = 1, count do
      local v = rawget(t, i)
      local step = solvers_of[v]
      local what = "solver"
      if not step then step, what = constraints_of[v], "transform constraint" end
      if not step then
        arg_error(2, format("step %d: ik2d.Solver or ik2d.TransformConstraint expected, got %s", i,
                            typename(v)))
      end
      if step.collected then arg_error(2, format("step %d: %s was collected", i, what)) end
      list[i] = step
    end
  end
  local status, bad = skeleton.set_order(sk, list, count)
  for i = 1, count do list[i] = nil end
  give_list(list)
  if status then arg_error(2, format("step %d: %s", bad, status_message(status))) end
end

-- the proxies of steps (solvers and constraints of the skeleton sk, its
-- proxy self) into t, in order (one being collected, or one without its
-- own, left out)
local function push_proxies(self, steps, t)
  local solver_proxies, next_index = O.solver_proxies, 1
  for k = 1, #steps do
    local step = steps[k]
    local proxy
    if step.is_transform_constraint then proxy = kept_of(self, step) else proxy = solver_proxies[step] end
    if proxy ~= nil then
      rawset(t, next_index, proxy)
      next_index = next_index + 1
    end
  end
  if rawget(t, next_index) ~= nil then B.trim(t, next_index) end
  return t
end

--- sk:order([t]) -> t: the order's steps
function Skeleton.order(...)
  local self, t = ...
  local n = select("#", ...)
  local sk = check_skeleton(self, 1, n)
  return push_proxies(self, sk.steps, B.table_arg(t, 2, n))
end

--- sk:constraints([t]) -> t: its transform constraints, in the order made
function Skeleton.constraints(...)
  local self, t = ...
  local n = select("#", ...)
  local sk = check_skeleton(self, 1, n)
  return push_proxies(self, sk.constraints, B.table_arg(t, 2, n))
end

M.check_constraint = check_constraint

for name, f in pairs(meta) do O.mt.TransformConstraint[name] = f end
B.register(TransformConstraint, true)
B.register({ set_order = Skeleton.set_order, order = Skeleton.order,
             constraints = Skeleton.constraints }, true)
B.register(meta, false)
B.register({ transform_constraint = M.transform_constraint }, false)

return M
