--- ik2d.pure.binding_solver: ik2d.solver, its options and setters for Lua
-- (src/lua/luaik_solver.c).  Options are table-driven: a setter and an
-- option convert a value with the same code and hand the whole def to the
-- same check, so they take the same values and word the same errors.
local B = require "ik2d.pure.binding"
local O = require "ik2d.pure.objects"
local solvers = require "ik2d.pure.solver"
local binding_chain = require "ik2d.pure.binding_chain"

local type, select, tostring, rawget, rawset = type, select, tostring, rawget, rawset
local format = string.format
local arg_error, type_error, check_status = B.arg_error, B.type_error, B.check_status
local number_at, whole_at, boolean_at, choice_at = B.number_at, B.whole_at, B.boolean_at,
  B.choice_at
local is_table, typename = B.is_table, B.typename
local check_chain = binding_chain.check_chain
local copy_def, set_def, solve = solvers.copy_def, solvers.set_def, solvers.solve

local solvers_of, new_solver = O.objects.Solver, O.new.Solver
local Solver = O.methods.Solver

local M = {}

--- the live solver that argument arg (of n) is, its chain alive, or an error
local function check_solver(v, arg, n)
  local sv = solvers_of[v]
  if not sv then type_error(arg, "ik2d.Solver", v, n) end
  if sv.collected then arg_error(arg, "solver was collected") end
  if sv.chain.collected then arg_error(arg, "chain was collected") end
  return sv
end
M.check_solver = check_solver

-- ------------------------------------------------------------------
-- options
-- ------------------------------------------------------------------

local METHOD_NAMES = { "ccd", "fabrik", "two_bone", "follow" }
local SWEEP_NAMES = { "root", "tip" }
local CURVE_NAMES = { "smooth", "spine" }

local OPTIONS = {
  { name = "method", kind = "choice", choices = METHOD_NAMES },
  { name = "iterations", kind = "whole" },
  { name = "tolerance", kind = "number" },
  { name = "weight", kind = "number" },
  { name = "damping", kind = "number" },
  { name = "warm_start", kind = "boolean" },
  { name = "exact", kind = "boolean" },
  { name = "sweep", kind = "choice", choices = SWEEP_NAMES },
  { name = "bend", kind = "whole" },
  { name = "softness", kind = "number" },
  { name = "softness_curve", kind = "choice", choices = CURVE_NAMES },
  { name = "stretch", kind = "number" },
  { name = "compress", kind = "number" },
  { name = "uniform", kind = "boolean" },
  { name = "tip_angle", kind = "angle" },
  { name = "tip_weight", kind = "number" },
  { name = "pole", kind = "point" },
  { name = "priority", kind = "number" },
  { name = "together", kind = "boolean" },
}
local BY_NAME = {}
for _, o in ipairs(OPTIONS) do BY_NAME[o.name] = o end

-- {x, y} or {x =, y =} into the def's pole
local function read_point(p, arg, what, def)
  local x = rawget(p, 1)
  if x == nil then x = rawget(p, "x") end
  local y = rawget(p, 2)
  if y == nil then y = rawget(p, "y") end
  def.pole_x = number_at(x, true, arg, what .. " x")
  def.pole_y = number_at(y, true, arg, what .. " y")
end

-- converts v (present: passed at all) into option o's field of def
local function read_option(v, present, arg, o, def)
  local kind, name = o.kind, o.name
  if kind == "number" then
    def[name] = number_at(v, present, arg, name)
  elseif kind == "whole" then
    def[name] = whole_at(v, present, arg, name)
  elseif kind == "boolean" then
    def[name] = boolean_at(v, present, arg, name)
  elseif kind == "choice" then
    def[name] = choice_at(v, arg, name, o.choices)
  elseif kind == "angle" then
    def.tip = v ~= false
    if def.tip then def.tip_angle = number_at(v, present, arg, name) end
  else
    def.pole = v ~= false
    if def.pole then
      if not is_table(v) then
        arg_error(arg, format("%s: {x, y} or false expected, got %s", name,
                              present and typename(v) or "no value"))
      end
      read_point(v, arg, name, def)
    end
  end
end

-- option o's field of def as a Lua value
local function push_option(o, def)
  local kind = o.kind
  if kind == "angle" then
    if def.tip then return def.tip_angle end
    return false
  elseif kind == "point" then
    if not def.pole then return false end
    return { def.pole_x, def.pole_y }
  end
  return def[o.name]
end

-- every option of table t into def; unknown names raise
local function read_options(t, arg, def)
  for key, v in next, t do
    local o
    if type(key) == "string" then
      local name = B.c_string(key)
      o = BY_NAME[name]
      if not o then arg_error(arg, format("unknown option '%s'", name)) end
    else
      arg_error(arg, format("option names are strings, got %s", typename(key)))
    end
    read_option(v, true, arg, o, def)
  end
end

-- each call's own copy of the settings it changes
local take_def, give_def = B.pool()

-- s:set_<option>(value): one option, as set_options would take it
local function setter(o)
  return function(...)
    local self, v = ...
    local n = select("#", ...)
    local sv = check_solver(self, 1, n)
    local def = copy_def(sv.settings, take_def())
    read_option(v, n >= 2, 2, o, def)
    local status = set_def(sv, def)
    give_def(def)
    check_status(2, status)
  end
end

local function getter(o)
  return function(...)
    return push_option(o, check_solver(..., 1, select("#", ...)).settings)
  end
end

-- ------------------------------------------------------------------
-- solvers
-- ------------------------------------------------------------------

function M.solver(...)
  local chain, options = ...
  local n = select("#", ...)
  local ch = check_chain(chain, 1, n)
  local def = solvers.default_def()
  if options ~= nil then
    if not is_table(options) then type_error(2, "table", options, n) end
    read_options(options, 2, def)
    -- still alive after the reading (nothing in it can run Lua)
    ch = check_chain(chain, 1, n)
  end
  local sv, status = solvers.new(ch, def)
  -- a full skeleton is the chain's doing, not the options'
  check_status(status == "SKELETON_SOLVERS" and 1 or 2, status)
  -- the solver keeps its chain alive
  sv.anchor = chain
  local proxy = new_solver(sv)
  -- a skeleton's: sk:solvers() finds it
  if ch.link and ch.link.skeleton then O.solver_proxies[sv] = proxy end
  return proxy
end

function Solver.chain(...)
  return check_solver(..., 1, select("#", ...)).anchor
end

function Solver.set_target(...)
  local self, x, y = ...
  local sv = solvers_of[self]
  -- the common case, finite numbers, kept here without another call
  if sv and type(x) == "number" and type(y) == "number" and x - x == 0 and y - y == 0 and
     not sv.collected and not sv.chain.collected then
    sv.target_x, sv.target_y, sv.has_target = x * 1.0, y * 1.0, true
    return
  end
  if not sv or sv.collected or sv.chain.collected or type(x) ~= "number" or
     type(y) ~= "number" then
    local n = select("#", ...)
    sv = check_solver(self, 1, n)
    x = number_at(x, n >= 2, 2)
    y = number_at(y, n >= 3, 3)
  end
  local status = solvers.set_target(sv, x * 1.0, y * 1.0)
  if status then check_status(status == "TARGET_Y" and 3 or 2, status) end
end

function Solver.target(...)
  return solvers.target(check_solver(..., 1, select("#", ...)))
end

Solver.set_weight = setter(BY_NAME.weight)
Solver.weight = getter(BY_NAME.weight)
Solver.set_iterations = setter(BY_NAME.iterations)
Solver.iterations = getter(BY_NAME.iterations)
Solver.set_tolerance = setter(BY_NAME.tolerance)
Solver.tolerance = getter(BY_NAME.tolerance)
Solver.method = getter(BY_NAME.method)

--- all or nothing: the options go into a copy of the def, checked whole
function Solver.set_options(...)
  local self, t = ...
  local n = select("#", ...)
  local sv = check_solver(self, 1, n)
  if not is_table(t) then type_error(2, "table", t, n) end
  local def = copy_def(sv.settings, take_def())
  read_options(t, 2, def)
  -- a solver finalised meanwhile raises rather than change
  sv = check_solver(self, 1, n)
  local status = set_def(sv, def)
  give_def(def)
  check_status(2, status)
end

--- every option's value, in t (or a new table)
function Solver.options(...)
  local self, t = ...
  local n = select("#", ...)
  local sv = check_solver(self, 1, n)
  t = B.table_arg(t, 2, n)
  local settings = sv.settings
  for k = 1, #OPTIONS do
    local o = OPTIONS[k]
    rawset(t, o.name, push_option(o, settings))
  end
  return t
end

function Solver.set_tip_angle(...)
  local self, angle, weight = ...
  local n = select("#", ...)
  local sv = check_solver(self, 1, n)
  angle = number_at(angle, n >= 2, 2)
  if weight == nil then weight = 1.0 else weight = number_at(weight, true, 3) end
  local status = solvers.set_tip_angle(sv, angle, weight)
  check_status(status == "TIP_WEIGHT" and 3 or 2, status)
end

--- a, weight; nothing when the last bone is free
function Solver.tip_angle(...)
  local settings = check_solver(..., 1, select("#", ...)).settings
  if not settings.tip then return end
  return settings.tip_angle, settings.tip_weight
end

function Solver.clear_tip_angle(...)
  local sv = check_solver(..., 1, select("#", ...))
  sv.settings.tip = false
  solvers.refresh(sv)
end

function Solver.set_pole(...)
  local self, x, y = ...
  local n = select("#", ...)
  local sv = check_solver(self, 1, n)
  x = number_at(x, n >= 2, 2)
  y = number_at(y, n >= 3, 3)
  local status = solvers.set_pole(sv, x, y)
  check_status(status == "POLE_Y" and 3 or 2, status)
end

--- x, y; nothing when there is none
function Solver.pole(...)
  local settings = check_solver(..., 1, select("#", ...)).settings
  if not settings.pole then return end
  return settings.pole_x, settings.pole_y
end

function Solver.clear_pole(...)
  local sv = check_solver(..., 1, select("#", ...))
  sv.settings.pole = false
  solvers.refresh(sv)
end

function Solver.forget(...)
  local sv = check_solver(..., 1, select("#", ...))
  sv.have_solution = false
  sv.joint_stalls = 0
end

-- The solve and its results, reached from Solver.solve by a tail call:
-- LuaJIT records no return of a vararg function to a frame below a
-- trace's start, so the traces that begin in a kernel's loops stopped at
-- solve's return and the rest of the caller's frame ran in the
-- interpreter; from this fixed-argument function they return into the
-- caller and go on there.
local function solve_results(sv)
  solve(sv)
  return sv.reached, sv.distance, sv.iterations, sv.limited
end

function Solver.solve(...)
  local sv = solvers_of[...]
  if not sv or sv.collected or sv.chain.collected then sv = check_solver(..., 1, select("#", ...)) end
  return solve_results(sv)
end

function Solver.result(...)
  local sv = solvers_of[...]
  if not sv or sv.collected or sv.chain.collected then sv = check_solver(..., 1, select("#", ...)) end
  return sv.reached, sv.distance, sv.iterations, sv.limited
end

local meta = {}
function meta.__tostring(self)
  local sv = solvers_of[self]
  if not sv or sv.collected then return "ik2d.Solver(collected)" end
  local x, y = solvers.target(sv)
  return format("ik2d.Solver(%s, target %s, %s, weight %s)", sv.settings.method, tostring(x),
                tostring(y), tostring(sv.settings.weight))
end

for name, f in pairs(meta) do O.mt.Solver[name] = f end
B.register(Solver, true)
B.register(meta, false)
B.register({ solver = M.solver }, false)

return M
