-- ik2d.follow: target following with frame-rate independent smoothing.
--
--   local follow = require "ik2d.follow"
--   local f = follow.new{ x = 0, y = 0, rate = 12 }
--   f:set_goal(love.mouse.getPosition())
--   solver:set_target(f:update(dt))
--
-- Each update moves the position by a fraction of what is left:
--   position += (goal - position) * (1 - exp(-rate * dt))
-- so after T seconds the distance left is exp(-rate * T) of the start,
-- whatever the frame rate (lerp(a, b, dt * speed) is not: it depends on
-- the frame rate and overshoots when dt * speed > 1).  rate is per second:
-- after 1 / rate seconds 63% of the way is done, after 3 / rate 95%.
-- Pure Lua, no LOVE dependency.

local follow = {
  _VERSION = "0.1.0",
  _DESCRIPTION = "ik2d.follow: frame-rate independent target smoothing",
}

local exp = math.exp

local Follow = {}
Follow.__index = Follow

local function check_number(v, fname, argn, what)
  if type(v) ~= "number" or v ~= v then
    error(("bad argument #%d to '%s' (%s expected, got %s)")
      :format(argn, fname, what or "number", v ~= v and "nan" or type(v)), 3)
  end
  return v
end

local function check_rate(rate, fname, argn)
  check_number(rate, fname, argn, "rate")
  if rate < 0 then
    error(("bad argument #%d to '%s' (rate must be >= 0)"):format(argn, fname), 3)
  end
  return rate
end

-- follow.new{ x =, y =, rate = }: starts at (x, y) (default 0, 0) with the
-- goal at the same place; rate per second (default 10; 0 = never moves,
-- math.huge = jumps to the goal on every update).
function follow.new(opts)
  opts = opts or {}
  if type(opts) ~= "table" then
    error("bad argument #1 to 'new' (table expected, got " .. type(opts) .. ")", 2)
  end
  local x = check_number(opts.x or 0, "new", 1, "x")
  local y = check_number(opts.y or 0, "new", 1, "y")
  local rate = check_rate(opts.rate or 10, "new", 1)
  return setmetatable({ x = x, y = y, gx = x, gy = y, k = rate }, Follow)
end

-- :set_goal(x, y): where to go; the position moves there on updates.
function Follow:set_goal(x, y)
  self.gx = check_number(x, "set_goal", 1)
  self.gy = check_number(y, "set_goal", 2)
  return self
end

-- :goal() --> x, y
function Follow:goal()
  return self.gx, self.gy
end

-- :update(dt) --> x, y: moves toward the goal by 1 - exp(-rate * dt) of
-- the distance left (dt <= 0 changes nothing).
function Follow:update(dt)
  if dt > 0 then
    local k = 1 - exp(-self.k * dt)
    self.x = self.x + (self.gx - self.x) * k
    self.y = self.y + (self.gy - self.y) * k
  end
  return self.x, self.y
end

-- :position() --> x, y
function Follow:position()
  return self.x, self.y
end

-- :set_position(x, y): teleport (the goal stays).
function Follow:set_position(x, y)
  self.x = check_number(x, "set_position", 1)
  self.y = check_number(y, "set_position", 2)
  return self
end

-- :snap(): jump to the goal.
function Follow:snap()
  self.x, self.y = self.gx, self.gy
  return self
end

-- :distance() --> distance left to the goal
function Follow:distance()
  local dx, dy = self.gx - self.x, self.gy - self.y
  return (dx * dx + dy * dy) ^ 0.5
end

-- :set_rate(rate), :rate(): smoothing rate per second.
function Follow:set_rate(rate)
  self.k = check_rate(rate, "set_rate", 1)
  return self
end

function Follow:rate()
  return self.k
end

return setmetatable(follow, {
  -- follow{...} is follow.new{...}
  __call = function(_, ...) return follow.new(...) end,
})
