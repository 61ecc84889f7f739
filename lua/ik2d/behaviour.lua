-- ik2d.behaviour: a small state-driven controller for one solver.
--
--   local behaviour = require "ik2d.behaviour"
--   local hand = behaviour.new(solver, {
--     idle   = { weight = 0,   blend = 0.4 },
--     pickup = { weight = 1,   blend = 0.3, target = item },              -- {x, y} or {x =, y =}
--     aim    = { weight = 0.7, blend = 0.2, target = love.mouse.getPosition },
--     climb  = { weight = 1,   blend = 0.3, target = { chain = ledge, joint = 2 } },
--   }, { initial = "idle", rate = 12 })
--   hand:set_state("pickup")
--   function love.update(dt) hand:update(dt); solver:solve() end
--
-- Each state has a weight (0..1, default 1), a blend time in seconds
-- (default 0.25) and optionally a target source:
--   * a point table {x, y} or {x = , y = }, read on every update (move it
--     and the target follows);
--   * a function returning x, y (called with the behaviour);
--   * { chain = c, joint = i, dx = , dy = }: joint i of chain c as it
--     stands when :update runs (default joint: the tip), plus an optional
--     offset.  chain:set_pose shows the bare pose until the next solve,
--     so update the behaviour before setting that chain's poses for the
--     frame (or after solving it), not in between;
--   * a state without a target keeps the last goal.
-- and optionally its own smoothing rate (per second).
--
-- Switching state blends the solver weight (ik2d.blend) and retargets
-- without a jump: the solver target moves from where it is toward the new
-- source with exponential smoothing (ik2d.follow).  Pure Lua, no LOVE.

local blend = require "ik2d.blend"
local follow = require "ik2d.follow"

local behaviour = {
  _VERSION = "0.1.0",
  _DESCRIPTION = "ik2d.behaviour: state-driven weight and target control",
}

local Behaviour = {}
Behaviour.__index = Behaviour

local DEFAULT_BLEND = 0.25
local DEFAULT_RATE = 12

local function check_source(name, src)
  if src == nil or type(src) == "function" then return end
  if type(src) ~= "table" then
    error(("state '%s': target must be a table or a function, got %s")
      :format(name, type(src)), 4)
  end
  if src.chain ~= nil then
    if src.joint ~= nil and type(src.joint) ~= "number" then
      error(("state '%s': target joint must be a number"):format(name), 4)
    end
  elseif type(src[1] or src.x) ~= "number" or type(src[2] or src.y) ~= "number" then
    error(("state '%s': target point needs numbers {x, y} or {x =, y =}")
      :format(name), 4)
  end
end

local function check_states(states)
  if type(states) ~= "table" then
    error("bad argument #2 to 'new' (table of states expected, got " ..
      type(states) .. ")", 3)
  end
  local out = {}
  for name, st in pairs(states) do
    if type(name) ~= "string" or type(st) ~= "table" then
      error("bad argument #2 to 'new' (states must map names to tables)", 3)
    end
    local w = st.weight == nil and 1 or st.weight
    if type(w) ~= "number" or w ~= w or w < 0 or w > 1 then
      error(("state '%s': weight must be a number in [0, 1]"):format(name), 3)
    end
    local b = st.blend == nil and DEFAULT_BLEND or st.blend
    if type(b) ~= "number" or b ~= b or b < 0 then
      error(("state '%s': blend must be seconds >= 0"):format(name), 3)
    end
    if st.rate ~= nil and (type(st.rate) ~= "number" or st.rate ~= st.rate
        or st.rate < 0) then
      error(("state '%s': rate must be a number >= 0"):format(name), 3)
    end
    check_source(name, st.target)
    out[name] = st
  end
  return out
end

-- Where a source points now, or nil for "no source".
local function resolve(self, src)
  if src == nil then return nil end
  if type(src) == "function" then
    return src(self)
  end
  if src.chain ~= nil then
    local c = src.chain
    local x, y = c:joint(src.joint or #c + 1)
    return x + (src.dx or 0), y + (src.dy or 0)
  end
  return src[1] or src.x, src[2] or src.y
end

-- behaviour.new(solver, states [, opts]): opts.initial names the first
-- state (default "idle" when there is one; otherwise no state until
-- :set_state); opts.rate is the default smoothing rate (12 per second).
-- The initial state's weight and target apply at once, with no blend.
function behaviour.new(solver, states, opts)
  if solver == nil or solver.set_target == nil or solver.set_weight == nil then
    error("bad argument #1 to 'new' (solver expected, got " .. type(solver) .. ")", 2)
  end
  opts = opts or {}
  states = check_states(states)
  local rate = opts.rate or DEFAULT_RATE
  local tx, ty = solver:target()
  local self = setmetatable({
    solver = solver,
    states = states,
    rate = rate,
    weights = blend.new(solver),
    tracker = follow.new{ x = tx, y = ty, rate = rate },
    current = nil,
    last = nil,
    elapsed = 0,
  }, Behaviour)
  local initial = opts.initial
  if initial == nil and states.idle then initial = "idle" end
  if initial ~= nil then
    if not states[initial] then
      error(("bad argument #3 to 'new' (unknown initial state '%s')")
        :format(tostring(initial)), 2)
    end
    self:set_state(initial, true)
    self.tracker:snap()
    solver:set_target(self.tracker:position())
  end
  return self
end

-- :set_state(name [, instant]): blend the weight to the state's weight
-- over its blend time (instant: jump) and start following its target.
-- Setting the current state again does nothing.  Returns true if changed.
function Behaviour:set_state(name, instant)
  local st = self.states[name]
  if not st then
    error(("bad argument #1 to 'set_state' (unknown state '%s')")
      :format(tostring(name)), 2)
  end
  if name == self.current then return false end
  self.last, self.current, self.elapsed = self.current, name, 0
  local w = st.weight == nil and 1 or st.weight
  local secs = st.blend == nil and DEFAULT_BLEND or st.blend
  self.weights:to(w, instant and 0 or secs)
  self.tracker:set_rate(st.rate or self.rate)
  local x, y = resolve(self, st.target)
  if x ~= nil then self.tracker:set_goal(x, y) end
  return true
end

-- :state() --> name of the current state (nil before the first one)
function Behaviour:state()
  return self.current
end

-- :previous() --> name of the state before the current one
function Behaviour:previous()
  return self.last
end

-- :time() --> seconds spent in the current state
function Behaviour:time()
  return self.elapsed
end

-- :weight() --> the blended weight (also the solver's)
function Behaviour:weight()
  return self.weights:value()
end

-- :blending() --> true while the weight is still moving
function Behaviour:blending()
  return not self.weights:done()
end

-- :target() --> the smoothed target given to the solver
function Behaviour:target()
  return self.tracker:position()
end

-- :set_target(x, y): put the smoothed target at (x, y) at once and give
-- it to the solver (e.g. after placing a character); the goal stays.
function Behaviour:set_target(x, y)
  self.tracker:set_position(x, y)
  self.solver:set_target(x, y)
  return self
end

-- :goal() --> where the smoothed target is heading
function Behaviour:goal()
  return self.tracker:goal()
end

-- :update(dt): blend the weight, read the state's source, move the
-- smoothed target toward it and give it to the solver.  Call before
-- solving.  Returns the weight.
function Behaviour:update(dt)
  local st = self.current and self.states[self.current]
  if st then
    self.elapsed = self.elapsed + dt
    local x, y = resolve(self, st.target)
    if x ~= nil then self.tracker:set_goal(x, y) end
  end
  self.solver:set_target(self.tracker:update(dt))
  return self.weights:update(dt)
end

return setmetatable(behaviour, {
  __call = function(_, ...) return behaviour.new(...) end,
})
