--- ik2d.pure.binding_solver: ik2d.solver, its options and setters for Lua
-- (src/lua/luaik_solver.c).  Options are the rows lua/ik2d/api.lua
-- describes: a setter and an option convert a value with the same code
-- (ik2d.pure.options) and hand the whole def to the same check, so they
-- take the same values and word the same errors.
local api = require "ik2d.api"
local B = require "ik2d.pure.binding"
local checks = require "ik2d.pure.checks"
local option_rows = require "ik2d.pure.options"
local O = require "ik2d.pure.objects"
local solvers = require "ik2d.pure.solver"
local pose = require "ik2d.pure.pose"
local chains = require "ik2d.pure.chain"
local binding_chain = require "ik2d.pure.binding_chain"
local binding_skeleton = require "ik2d.pure.binding_skeleton"
local skeleton = require "ik2d.pure.skeleton"
local skeleton_solve = require "ik2d.pure.skeleton_solve"

local type, select, tostring = type, select, tostring
local format = string.format
local arg_error, type_error, check_status = B.arg_error, B.type_error, B.check_status
local number_at, is_table = B.number_at, B.is_table
local check_chain = binding_chain.check_chain
local copy_def, set_def, solve = solvers.copy_def, solvers.set_def, skeleton_solve.solve_one

local solvers_of, new_solver = O.objects.Solver, O.new.Solver
-- the pose this binding's solves work on, the backend's as the C stack is
-- the C core's (a pose per solver would double a solver's heap): a solve
-- runs to its end without calling the caller's code or yielding
local P = pose.new(chains.MAX_BONES)
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

-- the rows of lua/ik2d/api.lua, read by ik2d.pure.options
local OPTIONS, BY_NAME = option_rows.rows(api.solver)
local read_option, push_option = option_rows.read, option_rows.push

local function read_options(t, arg, def)
  option_rows.read_all(t, arg, OPTIONS, BY_NAME, def)
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
  local sv, status = skeleton.new_solver(ch, def)
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
  -- the common case, finite numbers on a world target, with no more checks
  -- (solvers.set_target's stores written out: a call per chain a frame)
  if sv and type(x) == "number" and type(y) == "number" and x - x == 0 and y - y == 0 and
     not sv.collected and not sv.chain.collected and not sv.target_skeleton then
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
  -- the bone's skeleton is no longer held
  sv.target_anchor, sv.target_names = nil, nil
end

function Solver.target(...)
  return skeleton_solve.target(check_solver(..., 1, select("#", ...)))
end

--- s:set_target_bone(sk, bone [, dx, dy])
function Solver.set_target_bone(...)
  local self, skv, bone, dx, dy = ...
  local n = select("#", ...)
  local sv = check_solver(self, 1, n)
  local sk = binding_skeleton.check_skeleton(skv, 2, n)
  local b = binding_skeleton.bone_arg(sk, bone, n >= 3, 3)
  if dx == nil then dx = 0.0 else dx = number_at(dx, true, 4) end
  if dy == nil then dy = 0.0 else dy = number_at(dy, true, 5) end
  local status, other = skeleton_solve.set_target_bone(sv, sk, b, dx * 1.0, dy * 1.0)
  if status == "TARGET_CYCLE" then binding_skeleton.cycle_error(sk, 3, sv, other) end
  check_status(status == "TARGET_Y" and 5 or 4, status)
  -- the solver holds the skeleton while its target is there, and its
  -- bones' names (a skeleton finalised meanwhile keeps them, as in C)
  sv.target_anchor, sv.target_names = skv, sk.anchor
end

--- sk, bone name, dx, dy; nothing for a world target
function Solver.target_bone(...)
  local sv = check_solver(..., 1, select("#", ...))
  local sk = sv.target_skeleton
  if not sk then return end
  return sv.target_anchor, sv.target_names[sv.target_bone], sv.target_dx, sv.target_dy
end

function Solver.clear_target_bone(...)
  local sv = check_solver(..., 1, select("#", ...))
  skeleton_solve.clear_target_bone(sv)
  sv.target_anchor, sv.target_names = nil, nil
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
  return option_rows.push_all(t, OPTIONS, sv.settings)
end

-- the argument each status of a setter blames, as lua/ik2d/api.lua says:
-- the value that is off, or the solver for a rule (its method or tip
-- angle forbids an aim)
local TIP_ANGLE_ARG = checks.blame(api.solver, "tip_angle")
local POLE_ARG = checks.blame(api.solver, "pole")
local AIM_ARG = checks.blame(api.solver, "aim")

function Solver.set_tip_angle(...)
  local self, angle, weight = ...
  local n = select("#", ...)
  local sv = check_solver(self, 1, n)
  angle = number_at(angle, n >= 2, 2)
  if weight == nil then weight = 1.0 else weight = number_at(weight, true, 3) end
  local status = solvers.set_tip_angle(sv, angle, weight)
  -- an aim set already: the solver
  check_status(TIP_ANGLE_ARG[status] or 1, status)
end

--- a, weight; nothing when the last bone is free
function Solver.tip_angle(...)
  local settings = check_solver(..., 1, select("#", ...)).settings
  if not settings.tip then return end
  return settings.tip_angle, settings.tip_weight
end

function Solver.clear_tip_angle(...)
  local sv = check_solver(..., 1, select("#", ...))
  solvers.clear_tip_angle(sv)
end

function Solver.set_pole(...)
  local self, x, y = ...
  local n = select("#", ...)
  local sv = check_solver(self, 1, n)
  x = number_at(x, n >= 2, 2)
  y = number_at(y, n >= 3, 3)
  local status = solvers.set_pole(sv, x, y)
  check_status(POLE_ARG[status] or 1, status)
end

--- x, y; nothing when there is none
function Solver.pole(...)
  local settings = check_solver(..., 1, select("#", ...)).settings
  if not settings.pole then return end
  return settings.pole_x, settings.pole_y
end

function Solver.clear_pole(...)
  local sv = check_solver(..., 1, select("#", ...))
  solvers.clear_pole(sv)
end


function Solver.set_aim(...)
  local self, x, y, angle = ...
  local n = select("#", ...)
  local sv = check_solver(self, 1, n)
  x = number_at(x, n >= 2, 2)
  y = number_at(y, n >= 3, 3)
  angle = number_at(angle, n >= 4, 4)
  local status = solvers.set_aim(sv, x, y, angle)
  check_status(AIM_ARG[status] or 1, status)
end

--- x, y, angle; nothing when there is none
function Solver.aim(...)
  local settings = check_solver(..., 1, select("#", ...)).settings
  if not settings.aim then return end
  return settings.aim_x, settings.aim_y, settings.aim_angle
end

function Solver.clear_aim(...)
  local sv = check_solver(..., 1, select("#", ...))
  solvers.clear_aim(sv)
end

function Solver.forget(...)
  local sv = check_solver(..., 1, select("#", ...))
  solvers.forget(sv)
end

-- The solve and its results (ik2d.pure.solver's M.solve returns them),
-- reached by a tail call: LuaJIT records no return of a vararg function
-- to a frame below a trace's start, so the traces that begin in a
-- kernel's loops stopped at Solver.solve's return and the rest of the
-- caller's frame ran in the interpreter; from the fixed-argument solve
-- they return into the caller and go on there.
function Solver.solve(...)
  local sv = solvers_of[...]
  if not sv or sv.collected or sv.chain.collected then sv = check_solver(..., 1, select("#", ...)) end
  return solve(sv, P)
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
  local x, y = skeleton_solve.target(sv)
  return format("ik2d.Solver(%s, target %s, %s, weight %s)", sv.settings.method, tostring(x),
                tostring(y), tostring(sv.settings.weight))
end

for name, f in pairs(meta) do O.mt.Solver[name] = f end
B.register(Solver, true)
B.register(meta, false)
B.register({ solver = M.solver }, false)

return M
