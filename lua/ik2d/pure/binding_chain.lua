--- ik2d.pure.binding_chain: ik2d.constraint and ik2d.chain for Lua
-- (src/lua/luaik_chain.c): the same arguments, checks, errors and results.
local api = require "ik2d.api"
local defs = require "ik2d.pure.defs"
local option_rows = require "ik2d.pure.options"
local B = require "ik2d.pure.binding"
local O = require "ik2d.pure.objects"
local limits = require "ik2d.pure.constraint"
local chains = require "ik2d.pure.chain"
local skeleton = require "ik2d.pure.skeleton"

local type, select, rawget, rawset, tostring = type, select, rawget, rawset, tostring
local floor, format = math.floor, string.format
local rawlen = rawget(_G, "rawlen") or function(t) return #t end
local arg_error, type_error, check_status, index_error = B.arg_error, B.type_error,
  B.check_status, B.index_error
local number_at, whole_at, boolean_at, choice_at = B.number_at, B.whole_at, B.boolean_at,
  B.choice_at
local is_table, typename, status_message = B.is_table, B.typename, B.status_message

local constraints, new_constraint = O.objects.Constraint, O.new.Constraint
local chains_of, new_chain = O.objects.Chain, O.new.Chain
local Constraint, Chain = O.methods.Constraint, O.methods.Chain

local M = {}

--- the live constraint that argument arg (of n) is, or an error
local function check_constraint(v, arg, n)
  local c = constraints[v]
  if not c then type_error(arg, "ik2d.Constraint", v, n) end
  if c.collected then arg_error(arg, "constraint was collected") end
  return c
end
M.check_constraint = check_constraint

-- a skeleton chain's skeleton placed after a base set later (a chain's
-- state is read: every path to it, the fast ones too, calls this)
local function ready(ch)
  local link = ch.link
  if link and link.skeleton then skeleton.ready(link.skeleton) end
end

--- the live chain that argument arg (of n) is, or an error
local function check_chain(v, arg, n)
  local ch = chains_of[v]
  if not ch then type_error(arg, "ik2d.Chain", v, n) end
  if ch.collected then arg_error(arg, "chain was collected") end
  ready(ch)
  return ch
end
M.check_chain = check_chain

-- ------------------------------------------------------------------
-- constraints
-- ------------------------------------------------------------------

local LIMIT_FIELDS = defs.field_set(api.constraint)
local SPACE_NAMES = defs.choices("space")

-- A def from the limit fields of table t, named by owner ("" or "bone
-- 2: ") in errors; false when t has neither min nor max.
local function read_limits(t, arg, owner, def)
  local min, max, invert, space = rawget(t, "min"), rawget(t, "max"), rawget(t, "invert"),
    rawget(t, "space")
  if min == nil and max == nil then
    if invert ~= nil then arg_error(arg, owner .. "invert needs min and max") end
    if space ~= nil then arg_error(arg, owner .. "space needs min and max") end
    return false
  end
  if min == nil or max == nil then arg_error(arg, owner .. "min and max go together") end
  def.min = number_at(min, true, arg, owner .. "min")
  def.max = number_at(max, true, arg, owner .. "max")
  def.invert = invert ~= nil and boolean_at(invert, true, arg, owner .. "invert")
  def.space = space == nil and "parent" or choice_at(space, arg, owner .. "space", SPACE_NAMES)
  return true
end
M.read_limits = read_limits

-- a new constraint from def, or an error naming owner
local function push_constraint(arg, owner, def)
  local c, status = limits.new(def)
  if not c then arg_error(arg, owner .. status_message(status)) end
  return c, new_constraint(c)
end
M.push_constraint = push_constraint

function M.constraint(...)
  local t, n = ..., select("#", ...)
  if not is_table(t) then type_error(1, "table", t, n) end
  B.check_keys(t, 1, "", "field", LIMIT_FIELDS, 0)
  local def = {}
  if not read_limits(t, 1, "", def) then arg_error(1, "min and max go together") end
  local _, proxy = push_constraint(1, "", def)
  return proxy
end

local take_def, give_def = B.pool()

function Constraint.set_limits(...)
  local self, min, max, invert = ...
  local n = select("#", ...)
  local c = check_constraint(self, 1, n)
  local def = limits.get(c, take_def())
  def.min = number_at(min, n >= 2, 2)
  def.max = number_at(max, n >= 3, 3)
  if invert ~= nil then def.invert = boolean_at(invert, true, 4, "invert") end
  local status = limits.set(c, def)
  give_def(def)
  check_status((status == "MAX" or status == "MAX_DEGREES") and 3 or 2, status)
end

function Constraint.limits(...)
  local c = check_constraint(..., 1, select("#", ...))
  return c.min, c.max, c.invert
end

function Constraint.invert(...)
  return check_constraint(..., 1, select("#", ...)).invert
end

function Constraint.space(...)
  return check_constraint(..., 1, select("#", ...)).space
end

--- from, to: the allowed deltas from the rest angle; nothing: no limit
function Constraint.arc(...)
  return limits.arc(check_constraint(..., 1, select("#", ...)))
end

local constraint_meta = {}
function constraint_meta.__tostring(self)
  local c = constraints[self]
  if not c or c.collected then return "ik2d.Constraint(collected)" end
  return format("ik2d.Constraint(%s, %s%s%s)", tostring(c.min), tostring(c.max),
                c.invert and ", inverted" or "", c.space == "world" and ", world space" or "")
end

-- ------------------------------------------------------------------
-- chains
-- ------------------------------------------------------------------

local CHAIN_FIELDS = defs.field_set(api.chain)
local BONE_FIELDS = defs.field_set(api.bone)
-- the plain fields of a bone table, read by rows
local BONE_ROWS = option_rows.rows(api.bone)
local _, default_bone = defs.of(api.bone)

-- the optional number field key of t (fallback if nil)
local function number_field(t, key, what, fallback)
  local v = rawget(t, key)
  if v == nil then return fallback end
  return number_at(v, true, 1, what)
end
M.number_field = number_field

-- Reads bone i of the chain table t into def; returns the constraint's
-- proxy (or nil).
local function read_bone(t, i, def)
  local bone = rawget(t, i)
  local owner = format("bone %d: ", i)
  if not is_table(bone) then
    arg_error(1, format("%stable expected, got %s", owner, typename(bone)))
  end
  B.check_keys(bone, 1, owner, "field", BONE_FIELDS, 0)
  local fields = default_bone()
  option_rows.read_fields(bone, 1, owner, BONE_ROWS, fields)
  for k = 1, #BONE_ROWS do
    local key = BONE_ROWS[k].field
    def[key][i] = fields[key]
  end
  def.constraint[i] = false
  local status = chains.check_bone(fields.length, fields.rest)
  if status then arg_error(1, owner .. status_message(status)) end
  local limit_def = {}
  if read_limits(bone, 1, owner, limit_def) then
    local c, proxy = push_constraint(1, owner, limit_def)
    def.constraint[i] = c
    return proxy
  end
  return nil
end

function M.chain(...)
  local t, n = ..., select("#", ...)
  if not is_table(t) then type_error(1, "table", t, n) end
  local count = rawlen(t)
  if count < 1 or count > chains.MAX_BONES then check_status(1, "BONE_COUNT") end
  B.check_keys(t, 1, "", "field", CHAIN_FIELDS, count)
  -- per bone field an array (length, rest, ...), and the constraints
  local def = { count = count, constraint = {} }
  for k = 1, #BONE_ROWS do def[BONE_ROWS[k].field] = {} end
  local proxies, limited = {}, false
  for i = 1, count do
    local proxy = read_bone(t, i, def)
    if proxy then
      proxies[i] = proxy
      limited = true
    end
  end
  def.x = number_field(t, "x", "x", 0.0)
  def.y = number_field(t, "y", "y", 0.0)
  def.angle = number_field(t, "angle", "angle", 0.0)
  local flip = rawget(t, "flip")
  def.flip = flip ~= nil and boolean_at(flip, true, 1, "flip")
  local ch, status = chains.new(def)
  check_status(1, status)
  -- the chain keeps its constraints alive
  if limited then ch.anchor = proxies end
  return new_chain(ch)
end

--- the live chain argument arg (of n) is, not a skeleton's path (whose
-- base, flip, pose and bones are the skeleton's: edits go there)
local function check_own_chain(v, arg, n)
  local ch = check_chain(v, arg, n)
  if ch.link and ch.link.skeleton then check_status(arg, "LINKED") end
  return ch
end

local function bone_arg(ch, v, present)
  local i = whole_at(v, present, 2, "bone index")
  if not (i >= 1 and i <= ch.count) then index_error(2, "bone", i, ch.count) end
  return i
end

function Chain.set_base(...)
  local self, x, y, angle = ...
  local n = select("#", ...)
  local ch = check_own_chain(self, 1, n)
  x = number_at(x, n >= 2, 2)
  y = number_at(y, n >= 3, 3)
  if angle == nil then angle = ch.base_angle else angle = number_at(angle, true, 4) end
  local status = chains.set_base(ch, x, y, angle)
  check_status(status == "BASE_X" and 2 or status == "BASE_Y" and 3 or 4, status)
end

function Chain.base(...)
  local ch = chains_of[...]
  if not ch or ch.collected then ch = check_chain(..., 1, select("#", ...)) else ready(ch) end
  return ch.base_x, ch.base_y, ch.base_angle
end

function Chain.set_flip(...)
  local self, flip = ...
  local n = select("#", ...)
  local ch = check_own_chain(self, 1, n)
  check_status(2, chains.set_flip(ch, boolean_at(flip, n >= 2, 2, "flip")))
end

function Chain.flip(...)
  return check_chain(..., 1, select("#", ...)).flip
end

function Chain.set_pose(...)
  local self, i, angle = ...
  local n = select("#", ...)
  local ch = check_own_chain(self, 1, n)
  i = whole_at(i, n >= 2, 2, "bone index")
  angle = number_at(angle, n >= 3, 3)
  local status = chains.set_pose(ch, i, angle)
  if status == "INDEX" then index_error(2, "bone", i, ch.count) end
  check_status(3, status)
end

-- chain:f(i) for a per-bone array of the chain
local function bone_value(field)
  return function(...)
    local self, i = ...
    local ch = chains_of[self]
    if ch and not ch.collected and type(i) == "number" and i >= 1 and i <= ch.count and
       i == floor(i) then
      ready(ch)
      return ch[field][i]
    end
    local n = select("#", ...)
    ch = check_chain(self, 1, n)
    return ch[field][bone_arg(ch, i, n >= 2)]
  end
end

Chain.pose = bone_value("pose")
Chain.angle = bone_value("angle")
Chain.length = bone_value("length")
Chain.rest = bone_value("rest")

function Chain.world_angle(...)
  local self, i = ...
  local n = select("#", ...)
  local ch = check_chain(self, 1, n)
  return chains.world_angle(ch, bone_arg(ch, i, n >= 2))
end

function Chain.reach(...)
  return check_chain(..., 1, select("#", ...)).reach
end

function Chain.scale(...)
  return check_chain(..., 1, select("#", ...)).scale
end

--- whether sprites take the scale on both axes (the solver's uniform)
function Chain.uniform(...)
  return check_chain(..., 1, select("#", ...)).uniform
end

-- joint's fast path checks its index with one lookup, no call (type and
-- floor cost a C call each on PUC Lua, several times a frame per chain):
-- ch.joint_at[i], where joint i's x is, is there for joints only
function Chain.joint(...)
  local self, i = ...
  local ch = chains_of[self]
  if ch then
    local at = ch.joint_at[i]
    if at and not ch.collected then
      -- (ready's test written out: a call per joint a frame)
      local link = ch.link
      if link and link.skeleton then skeleton.ready(link.skeleton) end
      local joints = ch.joints
      return joints[at], joints[at + 1]
    end
  end
  local n = select("#", ...)
  ch = check_chain(self, 1, n)
  i = whole_at(i, n >= 2, 2, "joint index")
  if not (i >= 1 and i <= ch.count + 1) then index_error(2, "joint", i, ch.count + 1) end
  local joints = ch.joints
  return joints[2 * i - 1], joints[2 * i]
end

function Chain.tip(...)
  local ch = chains_of[...]
  if not ch or ch.collected then ch = check_chain(..., 1, select("#", ...)) else ready(ch) end
  local joints, n = ch.joints, ch.count
  return joints[2 * n + 1], joints[2 * n + 2]
end

function Chain.joints(...)
  local self, t = ...
  local ch = chains_of[self]
  -- a plain table (no metatable): its sets are raw already
  if ch and not ch.collected and type(t) == "table" and getmetatable(t) == nil then
    ready(ch)
    local joints, last = ch.joints, 2 * ch.count + 2
    for k = 1, last do t[k] = joints[k] end
    if t[last + 1] ~= nil then B.trim(t, last + 1) end
    return t
  end
  local n = select("#", ...)
  ch = check_chain(self, 1, n)
  t = B.table_arg(t, 2, n)
  local joints, last = ch.joints, 2 * ch.count + 2
  for k = 1, last do rawset(t, k, joints[k]) end
  if rawget(t, last + 1) ~= nil then B.trim(t, last + 1) end
  return t
end

function Chain.reset(...)
  chains.reset(check_own_chain(..., 1, select("#", ...)))
end

-- chain:set_length(i, L), chain:set_rest(i, angle)
local function bone_setter(write)
  return function(...)
    local self, i, value = ...
    local n = select("#", ...)
    local ch = check_own_chain(self, 1, n)
    i = whole_at(i, n >= 2, 2, "bone index")
    value = number_at(value, n >= 3, 3)
    local status = write(ch, i, value)
    if status == "INDEX" then index_error(2, "bone", i, ch.count) end
    check_status(3, status)
  end
end

Chain.set_length = bone_setter(chains.set_length)
Chain.set_rest = bone_setter(chains.set_rest)

function Chain.set_constraint(...)
  local self, i, c = ...
  local n = select("#", ...)
  local ch = check_own_chain(self, 1, n)
  i = whole_at(i, n >= 2, 2, "bone index")
  local limit = false
  if c ~= nil then limit = check_constraint(c, 3, n) end
  if not (i >= 1 and i <= ch.count) then index_error(2, "bone", i, ch.count) end
  -- the chain keeps its constraints alive
  local anchor = ch.anchor
  if not anchor then
    anchor = {}
    ch.anchor = anchor
  end
  anchor[i] = c
  chains.set_constraint(ch, i, limit)
end

function Chain.constraint(...)
  local self, i = ...
  local n = select("#", ...)
  local ch = check_chain(self, 1, n)
  i = bone_arg(ch, i, n >= 2)
  if not ch.constraint[i] then return end
  local link = ch.link
  if link and link.skeleton then
    -- the skeleton's, which sk:set_constraint may have changed: in its
    -- anchor (false once the skeleton was finalised)
    local info = link.skeleton.anchor
    if not info then return nil end
    return info.constraints[link.bones[i]]
  end
  return ch.anchor[i]
end

--- chain:skeleton() -> sk, first bone's name, last bone's name; nothing
-- for a standalone chain
function Chain.skeleton(...)
  local ch = check_chain(..., 1, select("#", ...))
  local link = ch.link
  if not (link and link.skeleton) then return end
  local names = link.skeleton.anchor
  return ch.anchor.skeleton, names[link.from], names[link.to]
end

local chain_meta = {}
function chain_meta.__len(...)
  return check_chain(..., 1, select("#", ...)).count
end

function chain_meta.__tostring(self)
  local ch = chains_of[self]
  if not ch or ch.collected then return "ik2d.Chain(collected)" end
  ready(ch)
  local joints, n = ch.joints, ch.count
  return format("ik2d.Chain(%d bones, base %s, %s, tip %s, %s)", n, tostring(joints[1]),
                tostring(joints[2]), tostring(joints[2 * n + 1]), tostring(joints[2 * n + 2]))
end

for name, f in pairs(constraint_meta) do O.mt.Constraint[name] = f end
for name, f in pairs(chain_meta) do O.mt.Chain[name] = f end
B.register(Constraint, true)
B.register(Chain, true)
B.register(constraint_meta, false)
B.register(chain_meta, false)
B.register({ constraint = M.constraint, chain = M.chain }, false)
for _, gc in pairs(O.gc) do B.register({ __gc = gc }, false) end

return M
