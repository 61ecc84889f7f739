-- ik2d.behaviour: a small state-driven controller for one solver.
--
--   local behaviour = require "ik2d.behaviour"
--   local hand = behaviour.new(solver, {
--     idle   = { weight = 0,   blend = 0.4 },
--     pickup = { weight = 1,   blend = 0.3, target = item,                -- {x, y} or {x =, y =}
--                on_reached = function(h) item.held = true end },
--     aim    = { weight = 0.7, blend = 0.2, target = love.mouse.getPosition },
--     climb  = { weight = 1,   blend = 0.3, target = { chain = ledge, joint = 2 } },
--   }, { initial = "idle", rate = 12 })
--   hand:set_state("pickup")
--   function love.update(dt) hand:update(dt); solver:solve() end
--
-- Each state has a weight (0..1, default 1), a blend time in seconds
-- (default 0.25), optionally its own smoothing rate (per second) and
-- optionally a target source:
--   * a point table {x, y} or {x = , y = }, read on every update (move it
--     and the target follows);
--   * a function returning x, y (called with the behaviour);
--   * { chain = c, joint = i, dx = , dy = }: joint i of chain c as it
--     stands when :update runs (default joint: the tip), plus an optional
--     offset.  chain:set_pose shows the bare pose until the next solve,
--     so update the behaviour before setting that chain's poses for the
--     frame (or after solving it), not in between;
-- A state without a target holds the solver's chain tip as it was when
-- the state began (h:set_target moves that point).
--
-- Callbacks (state fields): on_enter(h, previous), on_exit(h, next),
-- on_reached(h); see :set_state and :update for when they run.
--
-- Switching state blends the solver weight (ik2d.blend, from the weight
-- the solver has then) and retargets without a jump: the solver target
-- moves from where it is toward the new source with exponential smoothing
-- (ik2d.follow).  Every call is all or nothing: when a source, the solver
-- or a callback raises, the behaviour and the solver's target and weight
-- are as they were before the call, and the error goes on to the caller
-- (with solve = true, a solve that ran stays in the chain's result: a
-- solve cannot be undone).  Pure Lua, no LOVE.

local blend = require "ik2d.blend"
local follow = require "ik2d.follow"
local common = require "ik2d.common"

local behaviour = {
  _VERSION = "0.1.0",
  _DESCRIPTION = "ik2d.behaviour: state-driven weight and target control",
}

local fail, is_finite, copy_fields = common.fail, common.is_finite, common.copy_fields
local MAX = 1.7976931348623157e308

local Behaviour = {}
Behaviour.__index = Behaviour

local DEFAULT_BLEND = 0.25
local DEFAULT_RATE = 12

local STATE_FIELDS = { weight = true, blend = true, rate = true, target = true,
                       on_enter = true, on_exit = true, on_reached = true }
local OPTIONS = { initial = true, rate = true, solve = true }
local SOLVER_METHODS = { "target", "set_target", "weight", "set_weight", "result",
                         "tolerance", "chain" }
local SOLVING_METHODS = { "solve" }           -- with opts.solve
for i, m in ipairs(SOLVER_METHODS) do SOLVING_METHODS[i + 1] = m end
local SOLVER_KIND = "an ik2d solver (" .. table.concat(SOLVER_METHODS, ", ") .. ")"
local SOLVING_KIND = "an ik2d solver (" .. table.concat(SOLVER_METHODS, ", ") .. ", solve)"
local CHAIN_METHODS = { "joint" }

local function check_self(self, who)
  common.self(self, Behaviour, 3, who, "a behaviour")
end

local function sorted_names(states)
  local names = {}
  for name in pairs(states) do names[#names + 1] = name end
  table.sort(names)
  return table.concat(names, ", ")
end

-- ------------------------------------------------------------------
-- Target sources
-- ------------------------------------------------------------------

-- `level` in these functions counts from the function itself: 1 is the
-- function, 2 its caller...  They never tail-call a raiser.

-- Checks a chain source (joint in 1..#chain + 1, whole; finite offsets).
local function check_chain_source(name, src, level, who)
  local c = src.chain
  if not common.has_methods(c, CHAIN_METHODS) then
    fail(level, who, ("state '%s': target chain must be an ik2d chain"):format(name), c)
  end
  local n = #c + 1
  local j = src.joint
  if j ~= nil and (type(j) ~= "number" or j % 1 ~= 0 or j < 1 or j > n) then
    fail(level, who, ("state '%s': target joint must be a whole number in 1..%d"):format(name, n), j)
  end
  local dx, dy = src.dx, src.dy    -- no loop over a table: update runs this
  if dx ~= nil and not is_finite(dx) then
    fail(level, who, ("state '%s': target dx must be a finite number"):format(name), dx)
  elseif dy ~= nil and not is_finite(dy) then
    fail(level, who, ("state '%s': target dy must be a finite number"):format(name), dy)
  end
end

-- Where source `src` of state `name` points now: finite x, y, or an error
-- naming the behaviour and the state.  A function source may raise: its
-- error goes on unchanged.
local function resolve(self, name, src, level, who)
  local x, y
  if type(src) == "function" then
    x, y = src(self)
  elseif src.chain ~= nil then
    check_chain_source(name, src, level + 1, who)
    local c = src.chain
    x, y = c:joint(src.joint or #c + 1)
    if is_finite(x) and is_finite(y) then x, y = x + (src.dx or 0), y + (src.dy or 0) end
  else
    x, y = src[1], src[2]
    if x == nil then x, y = src.x, src.y end
  end
  if not is_finite(x) then
    fail(level, who, ("state '%s': target must give finite numbers x, y"):format(name), x)
  elseif not is_finite(y) then
    fail(level, who, ("state '%s': target must give finite numbers x, y"):format(name), y)
  end
  return x, y
end

-- The solver's chain tip now (where a state without a target holds).
local function tip(self, level, who)
  local x, y = self.solver:chain():tip()
  if not (is_finite(x) and is_finite(y)) then
    fail(level, who, "the solver's chain tip must be finite", is_finite(x) and y or x)
  end
  return x, y
end

-- ------------------------------------------------------------------
-- Construction
-- ------------------------------------------------------------------

-- A state's checked copy: every field filled in.
local function check_state(name, st, level, who)
  if type(name) ~= "string" or type(st) ~= "table" then
    fail(level, who, "states must map names to tables", type(name) ~= "string" and name or st)
  end
  common.options(st, STATE_FIELDS, level, who, ("state '%s'"):format(name))
  local w = st.weight
  if w == nil then w = 1 end
  if not is_finite(w) or w < 0 or w > 1 then
    fail(level, who, ("state '%s': weight must be a number in [0, 1]"):format(name), w)
  end
  local secs = st.blend
  if secs == nil then secs = DEFAULT_BLEND end
  common.nonnegative(secs, level, who, ("state '%s': blend"):format(name))
  if st.rate ~= nil then common.rate(st.rate, level, who, ("state '%s': rate"):format(name)) end
  local src = st.target
  if src ~= nil and type(src) ~= "function" then
    if type(src) ~= "table" then
      fail(level, who, ("state '%s': target must be a point table, a function or { chain = c }")
        :format(name), src)
    end
    -- point tables and chain sources are read here once to check them
    resolve(nil, name, src, level + 1, who)
  end
  for _, cb in ipairs{ "on_enter", "on_exit", "on_reached" } do
    common.callback(st[cb], level, who, ("state '%s': %s"):format(name, cb))
  end
  return { weight = w, blend = secs, rate = st.rate or false, target = src or false,
           on_enter = st.on_enter or false, on_exit = st.on_exit or false,
           on_reached = st.on_reached or false }
end

-- ------------------------------------------------------------------
-- All or nothing
-- ------------------------------------------------------------------

-- A snapshot of everything a call may change: the behaviour's fields,
-- its blend's and its follower's, and the solver's target and weight.
-- One is kept for reuse, so a steady update allocates nothing; a call
-- nested in a callback takes a fresh one.
local function take(self)
  local snap = self.spare
  if snap then
    self.spare = false
  else
    snap = { own = {}, weights = {}, tracker = {}, tx = 0, ty = 0, w = 0 }
  end
  copy_fields(self, snap.own)
  copy_fields(self.weights, snap.weights)
  copy_fields(self.tracker, snap.tracker)
  snap.tx, snap.ty = self.solver:target()
  snap.w = self.solver:weight()
  return snap
end

local function put_back_solver(s, snap)
  local tx, ty = s:target()
  if tx ~= snap.tx or ty ~= snap.ty then s:set_target(snap.tx, snap.ty) end
  if s:weight() ~= snap.w then s:set_weight(snap.w) end
end

-- Ends a call run as pcall(f, ...) -> ok, err: keeps its changes, or
-- puts the snapshot back and raises the error again, unchanged.
local function finish(self, snap, ok, err)
  if not ok then
    copy_fields(snap.own, self)
    copy_fields(snap.weights, self.weights)
    copy_fields(snap.tracker, self.tracker)
    -- put the solver's target and weight back where they changed (if
    -- the solver raises again, nothing more can be done)
    pcall(put_back_solver, self.solver, snap)
  end
  self.spare = snap
  if not ok then error(err, 0) end
end

-- ------------------------------------------------------------------
-- Switching state
-- ------------------------------------------------------------------

-- The switch itself, inside the snapshot: weight blend, smoothing, then
-- on_exit of the state left (if it was entered) and on_enter of the new
-- one (if a callback has not switched elsewhere meanwhile).
local function enter(self, name, gx, gy, sx, sy, instant, jump_target)
  local st = self.states[name]
  local old, was_entered = self.current, self.entered
  self.weights:to(st.weight, instant and 0 or st.blend)
  self.tracker:set_rate(st.rate or self.default_rate)
  if sx then self.tracker:set_position(sx, sy) end
  self.tracker:set_goal(gx, gy)
  if jump_target then
    self.tracker:snap()
    self.solver:set_target(gx, gy)
  end
  self.last, self.current, self.elapsed = old, name, 0
  self.entered, self.reached, self.primed = false, false, false
  if old and was_entered then
    local on_exit = self.states[old].on_exit
    if on_exit then on_exit(self, name) end
  end
  if self.current == name then
    self.entered = true
    if st.on_enter then st.on_enter(self, old or nil) end
  end
end

-- Where the smoothed target leaves from at a switch: the chain's tip (the
-- hand as drawn) while the solver's weight is 0, for the target then
-- moves nothing and may be stale (the chain moved since, by set_base or
-- ik2d.attach); the solver's target when no state has driven it yet;
-- else nil: the target the behaviour gave, which the solve follows, so
-- that the IK solution does not jump.
local function start(self, level, who)
  local s = self.solver
  if s:weight() == 0 then return tip(self, level + 1, who) end
  if self.current then return nil end
  local x, y = s:target()
  if not (is_finite(x) and is_finite(y)) then
    fail(level, who, "the solver's target must be finite", is_finite(x) and y or x)
  end
  return x, y
end

-- set_state's work for set_state and new (which also jumps the target
-- to the state's; `level` counts from here).
local function switch(self, name, instant, jump_target, level, who)
  local st = self.states[name]
  local gx, gy
  if st.target then
    gx, gy = resolve(self, name, st.target, level + 1, who)
  else
    gx, gy = tip(self, level + 1, who)
  end
  local sx, sy
  if not jump_target then sx, sy = start(self, level + 1, who) end
  local saved = take(self)
  finish(self, saved, pcall(enter, self, name, gx, gy, sx, sy, instant, jump_target))
end

-- behaviour.new(solver, states [, opts]): opts.initial names the first
-- state (default "idle" when there is one; otherwise no state until
-- :set_state); opts.rate is the default smoothing rate (12 per second);
-- opts.solve = true makes :update also call solver:solve().  The initial
-- state's weight and target apply at once, with no blend, and its
-- on_enter(h, nil) runs.
function behaviour.new(solver, states, opts)
  local who = "ik2d.behaviour: new"
  opts = common.options(opts, OPTIONS, 2, who, "opts")
  if opts.solve ~= nil and type(opts.solve) ~= "boolean" then
    fail(2, who, "opts.solve must be a boolean or nil", opts.solve)
  end
  if opts.solve then
    common.object(solver, SOLVING_METHODS, 2, who, "solver", SOLVING_KIND)
  else
    common.object(solver, SOLVER_METHODS, 2, who, "solver", SOLVER_KIND)
  end
  if type(states) ~= "table" then fail(2, who, "states must be a table of named states", states) end
  local checked = {}
  for name, st in pairs(states) do checked[name] = check_state(name, st, 3, who) end
  local rate = DEFAULT_RATE
  if opts.rate ~= nil then rate = common.rate(opts.rate, 2, who, "opts.rate") end
  local initial = opts.initial
  if initial == nil and checked.idle then initial = "idle" end
  if initial ~= nil and not checked[initial] then
    fail(2, who, "opts.initial must be one of the states (" .. sorted_names(checked) .. ")", initial)
  end
  local tx, ty = solver:target()
  if not (is_finite(tx) and is_finite(ty)) then
    fail(2, who, "the solver's target must be finite", is_finite(tx) and ty or tx)
  end
  local self = setmetatable({
    solver = solver,
    states = checked,
    default_rate = rate,
    solve = opts.solve or false,
    weights = blend.new(solver),
    tracker = follow.new{ x = tx, y = ty, rate = rate },
    current = false,    -- state name
    last = false,       -- the state before it
    elapsed = 0,        -- seconds in the current state
    entered = false,    -- the current state's on_enter has been called
    reached = false,    -- the last on_reached check found the state arrived
    primed = false,     -- an update has run in this state (solve = false)
    spare = false,      -- a snapshot table for reuse
  }, Behaviour)
  if initial ~= nil then switch(self, initial, true, true, 3, who) end
  return self
end

-- :set_state(name [, instant]): blend the weight from the solver's weight
-- to the state's weight over its blend time (instant: jump) and start
-- following its target (a state without one holds the chain's tip from
-- now).  Setting the current state again does nothing.  Returns true if
-- changed.  Callbacks: the switch is made first, then the old state's
-- on_exit(h, next) runs, then the new state's on_enter(h, previous); both
-- see h:state() == next.  A callback may call set_state: that switch
-- runs its own callbacks at once, nested, and an on_enter still to come
-- is skipped (on_exit runs only for a state whose on_enter has run).
function Behaviour:set_state(name, instant)
  local who = "ik2d.behaviour: set_state"
  check_self(self, who)
  if type(name) ~= "string" or not self.states[name] then
    fail(2, who, "name must be one of the states (" .. sorted_names(self.states) .. ")", name)
  end
  if instant ~= nil and type(instant) ~= "boolean" then
    fail(2, who, "instant must be a boolean or nil", instant)
  end
  if name == self.current then return false end
  switch(self, name, instant, false, 3, who)
  return true
end

-- ------------------------------------------------------------------
-- Reading
-- ------------------------------------------------------------------

-- :state() --> name of the current state (nil before the first one)
function Behaviour:state()
  check_self(self, "ik2d.behaviour: state")
  return self.current or nil
end

-- :previous() --> name of the state before the current one
function Behaviour:previous()
  check_self(self, "ik2d.behaviour: previous")
  return self.last or nil
end

-- :time() --> seconds spent in the current state
function Behaviour:time()
  check_self(self, "ik2d.behaviour: time")
  return self.elapsed
end

-- :weight() --> the blended weight (the solver's)
function Behaviour:weight()
  check_self(self, "ik2d.behaviour: weight")
  return self.weights:value()
end

-- :blending() --> true while the weight is still moving
function Behaviour:blending()
  check_self(self, "ik2d.behaviour: blending")
  return not self.weights:done()
end

-- :target() --> the smoothed target given to the solver
function Behaviour:target()
  check_self(self, "ik2d.behaviour: target")
  return self.tracker:position()
end

-- :rate() --> the smoothing rate in use (the state's, or the default)
function Behaviour:rate()
  check_self(self, "ik2d.behaviour: rate")
  return self.tracker:rate()
end

-- :goal() --> where the smoothed target is heading
function Behaviour:goal()
  check_self(self, "ik2d.behaviour: goal")
  return self.tracker:goal()
end

-- :set_target(x, y): put the smoothed target and its goal at (x, y) at
-- once and give it to the solver (e.g. after placing a character).  A
-- state without a target then holds (x, y); a state with one reads its
-- source again at the next update and smooths from (x, y).
function Behaviour:set_target(x, y)
  local who = "ik2d.behaviour: set_target"
  check_self(self, who)
  common.finite(x, 2, who, "x")
  common.finite(y, 2, who, "y")
  self.solver:set_target(x, y)   -- may raise: nothing changed yet
  self.tracker:set_position(x, y)
  self.tracker:set_goal(x, y)
  return self
end

-- ------------------------------------------------------------------
-- Update
-- ------------------------------------------------------------------

-- Has the current state arrived?  Its weight blend is done, the target
-- the solver has is within the solver's tolerance of the goal, and the
-- solver's last solve reports reached.
local function arrived(self)
  local s = self.solver
  if not s:result() or not self.weights:done() then return false end
  local tx, ty = s:target()
  local gx, gy = self.tracker:goal()
  local dx, dy, tol = tx - gx, ty - gy, s:tolerance()
  return dx * dx + dy * dy <= tol * tol
end

-- update's work, inside the snapshot.
local function step(self, st, gx, gy, dt)
  local s, tracker = self.solver, self.tracker
  local now
  -- solve = false: the result of your solve after the previous update in
  -- this state (never one made for the state before)
  if not self.solve and self.primed then now = arrived(self) end
  tracker:set_goal(gx, gy)
  s:set_target(tracker:update(dt))
  self.weights:update(dt)
  if self.solve then
    s:solve()
    now = arrived(self)
  end
  local t = self.elapsed + dt
  self.elapsed = t < MAX and t or MAX
  self.primed = true
  if now ~= nil then
    local fire = now and not self.reached
    self.reached = now
    if fire and st.on_reached then st.on_reached(self) end
  end
end

-- :update(dt): read the state's source, move the smoothed target toward
-- it and give it to the solver, blend the weight, and with solve = true
-- solve.  Call it before solving (solve = false, the default: call
-- solver:solve() after it).  Returns the weight.
-- on_reached(h) runs from here once per arrival of the state: when its
-- weight blend is done, the solver's target is within the solver's
-- tolerance of the goal, and the solver reports reached, and the check
-- before in this state did not find all that.  With solve = true the
-- check reads the solve just made; otherwise it runs first, on your solve
-- after the previous update (so never on the first update in a state).
function Behaviour:update(dt)
  local who = "ik2d.behaviour: update"
  check_self(self, who)
  common.nonnegative(dt, 2, who, "dt")
  local name = self.current
  if name then
    local st = self.states[name]
    local gx, gy
    if st.target then
      gx, gy = resolve(self, name, st.target, 3, who)
    else
      gx, gy = self.tracker:goal()
    end
    local snap = take(self)
    finish(self, snap, pcall(step, self, st, gx, gy, dt))
  end
  return self.weights:value()
end

return setmetatable(behaviour, {
  __call = function(_, ...) return behaviour.new(...) end,
})
