--- ik2d.pure.binding_transform_constraint: ik2d.transform_constraint and a
-- skeleton's order for Lua: the same arguments, checks, errors and
-- results as the C binding's.  A constraint keeps its skeleton alive (its
-- anchor) and the skeleton its constraints (its info's
-- transform_constraints).  Above ik2d.pure.binding_solver: an order's
-- steps are solvers and constraints, so the skeleton's order methods are
-- here.
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
local check_skeleton = binding_skeleton.check_skeleton

local constraints_of, new_constraint = O.objects.TransformConstraint, O.new.TransformConstraint
local solvers_of = O.objects.Solver
local TransformConstraint, Skeleton = O.methods.TransformConstraint, O.methods.Skeleton
local proxies = O.constraint_proxies

local M = {}

--- the live constraint that argument arg (of n) is, its skeleton alive,
-- or an error; its skeleton as read (placed after a base set later)
local function check_constraint(v, arg, n)
  local tc = constraints_of[v]
  if not tc then type_error(arg, "ik2d.TransformConstraint", v, n) end
  if tc.collected then arg_error(arg, "transform constraint was collected") end
  if not tc.skeleton then arg_error(arg, "skeleton was collected") end
  skeleton.ready(tc.skeleton)
  return tc
end

-- ------------------------------------------------------------------
-- options
-- ------------------------------------------------------------------

-- the option names (bones and target, then the rows' options)
local NAMES = defs.field_set(api.transform_constraint)
local ROWS = option_rows.rows(api.transform_constraint)

-- each call's own copy of the settings it reads
local take_def, give_def = B.pool()

-- The bone at v, an entry of an option named what (nil: "bones[i]"):
-- its index (a name's, or a whole number, which the core checks).
local function bone_of(sk, v, arg, what, i)
  if type(v) == "string" then
    local b = rawget(sk.anchor.index, v)
    if b == nil then
      arg_error(arg, format('%s: unknown bone "%s"', what or format("bones[%d]", i), c_string(v)))
    end
    return b
  end
  if type(v) ~= "number" then
    arg_error(arg, format("%s: bone name or index expected, got %s", what or format("bones[%d]", i),
                          typename(v)))
  end
  return B.whole_at(v, true, arg, what or format("bones[%d]", i))
end

-- The options of table t (argument arg) into def, the constraint's on
-- skeleton sk: every key checked first, then each option in the
-- description's order; with required, bones and target must be there.
local function read_options(t, arg, sk, def, required)
  for key in next, t do
    if type(key) ~= "string" then
      arg_error(arg, format("option names are strings, got %s", typename(key)))
    end
    if not NAMES[key] then arg_error(arg, format("unknown option '%s'", c_string(key))) end
  end
  local bones = rawget(t, "bones")
  if bones ~= nil or required then
    if not is_table(bones) then arg_error(arg, format("bones: table expected, got %s", typename(bones))) end
    local count, list = rawlen(bones), def.bones
    for i = 1, count do list[i] = bone_of(sk, rawget(bones, i), arg, nil, i) end
    for i = #list, count + 1, -1 do list[i] = nil end
    def.bone_count = count
  end
  local target = rawget(t, "target")
  if target ~= nil or required then def.target = bone_of(sk, target, arg, "target") end
  for k = 1, #ROWS do
    local o = ROWS[k]
    local v = rawget(t, o.name)
    if v ~= nil then option_rows.read(v, true, arg, o, def) end
  end
end

-- ------------------------------------------------------------------
-- constraints
-- ------------------------------------------------------------------

--- ik2d.transform_constraint(sk, { bones =, target =, mix_rotate =, ... })
function M.transform_constraint(...)
  local skv, t = ...
  local n = select("#", ...)
  local sk = check_skeleton(skv, 1, n)
  if not is_table(t) then type_error(2, "table", t, n) end
  local def = transform_constraint.default_def()
  read_options(t, 2, sk, def, true)
  local tc, status = transform_constraint.new(sk, def)
  -- a full skeleton is the skeleton's doing, not the options'
  check_status(status == "SKELETON_CONSTRAINTS" and 1 or 2, status)
  -- the constraint keeps its skeleton alive, and the skeleton it
  tc.anchor = skv
  local proxy = new_constraint(tc)
  proxies[tc] = proxy
  local info = sk.anchor
  local kept = info.transform_constraints
  if not kept then
    kept = {}
    info.transform_constraints = kept
  end
  kept[#kept + 1] = proxy
  return proxy
end

function TransformConstraint.set_options(...)
  local self, t = ...
  local n = select("#", ...)
  local tc = check_constraint(self, 1, n)
  if not is_table(t) then type_error(2, "table", t, n) end
  local def = transform_constraint.copy_def(tc.settings, take_def())
  read_options(t, 2, tc.skeleton, def, false)
  local count = tc.settings.bone_count
  if def.bone_count ~= count then
    give_def(def)
    arg_error(2, format("bones: %d expected (a constraint keeps its count), got %d", count,
                        def.bone_count))
  end
  local status = transform_constraint.set_def(tc, def)
  give_def(def)
  check_status(2, status)
end

--- every option into t (a new table without one): bones and target as
-- names
function TransformConstraint.options(...)
  local self, t = ...
  local n = select("#", ...)
  local tc = check_constraint(self, 1, n)
  t = B.table_arg(t, 2, n)
  local settings, names = tc.settings, tc.skeleton.anchor
  local bones = rawget(t, "bones")
  if not is_table(bones) then bones = {} end
  for i = 1, settings.bone_count do rawset(bones, i, names[settings.bones[i]]) end
  B.trim(bones, settings.bone_count + 1)
  rawset(t, "bones", bones)
  rawset(t, "target", names[settings.target])
  option_rows.push_all(t, ROWS, settings, 0)
  return t
end

function TransformConstraint.skeleton(...)
  return check_constraint(..., 1, select("#", ...)).anchor
end

--- applied now, as the skeleton's solve applies it in its order
function TransformConstraint.apply(...)
  transform_constraint.apply(check_constraint(..., 1, select("#", ...)))
end

local meta = {}
function meta.__tostring(self)
  local tc = constraints_of[self]
  if not tc or tc.collected then return "ik2d.TransformConstraint(collected)" end
  return format("ik2d.TransformConstraint(%d bones)", tc.settings.bone_count)
end

-- ------------------------------------------------------------------
-- a skeleton's order and constraints
-- ------------------------------------------------------------------

-- each call's own list of steps
local take_list, give_list = B.pool()

--- sk:set_order({ solver or constraint, ... }): the order its solve runs
-- them in; {} or nil clears it
function Skeleton.set_order(...)
  local self, t = ...
  local n = select("#", ...)
  local sk = check_skeleton(self, 1, n)
  local list, count = take_list(), 0
  if t ~= nil then
    if not is_table(t) then type_error(2, "table", t, n) end
    count = rawlen(t)
    for i = 1, count do
      local v = rawget(t, i)
      list[i] = solvers_of[v] or constraints_of[v] or false
    end
  end
  local status, bad = skeleton.set_order(sk, list, count)
  for i = 1, count do list[i] = nil end
  give_list(list)
  if status and bad then arg_error(2, format("item %d: %s", bad, status_message(status))) end
  check_status(2, status)
end

-- the proxies of list's solvers and constraints into t, in order (one
-- being collected left out)
local function push_proxies(list, t)
  local solver_proxies, next_index = O.solver_proxies, 1
  for k = 1, #list do
    local step = list[k]
    local proxy
    if step.is_transform_constraint then proxy = proxies[step] else proxy = solver_proxies[step] end
    if proxy ~= nil then
      rawset(t, next_index, proxy)
      next_index = next_index + 1
    end
  end
  if rawget(t, next_index) ~= nil then B.trim(t, next_index) end
  return t
end

--- the steps of the order set, in order
function Skeleton.order(...)
  local self, t = ...
  local n = select("#", ...)
  local sk = check_skeleton(self, 1, n)
  return push_proxies(sk.steps, B.table_arg(t, 2, n))
end

--- its transform constraints, in the order made
function Skeleton.constraints(...)
  local self, t = ...
  local n = select("#", ...)
  local sk = check_skeleton(self, 1, n)
  return push_proxies(sk.constraints, B.table_arg(t, 2, n))
end

M.check_constraint = check_constraint

for name, f in pairs(meta) do O.mt.TransformConstraint[name] = f end
B.register(TransformConstraint, true)
B.register({ set_order = Skeleton.set_order, order = Skeleton.order,
             constraints = Skeleton.constraints }, true)
B.register(meta, false)
B.register({ transform_constraint = M.transform_constraint }, false)

return M
