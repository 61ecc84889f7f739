-- ik2d.smooth: frame-rate independent smoothing (a target that eases
-- toward a goal).  Named ik2d.follow before 0.3.0 (kept one release as
-- an alias: ik2d.follow is this module).
--
--   local smooth = require "ik2d.smooth"
--   local f = smooth.new{ x = 0, y = 0, rate = 12 }
--   f:set_goal(love.mouse.getPosition())
--   solver:set_target(f:update(dt))
--
-- Each update moves the position by a fraction of what is left:
--   position += (goal - position) * (1 - exp(-rate * dt))
-- so after T seconds the distance left is exp(-rate * T) of the start,
-- whatever the frame rate (lerp(a, b, dt * speed) is not: it depends on
-- the frame rate and overshoots when dt * speed > 1).  rate is per second:
-- after 1 / rate seconds 63% of the way is done, after 3 / rate 95%.
--
-- Position and goal are always finite: non-finite arguments are refused,
-- and the step never forms a gap that overflows (goal 1e308, position
-- -1e308): it then works in halves, and it never leaves the span between
-- position and goal.  Pure Lua, no LOVE dependency.

local common = require "ik2d.common"

local smooth = {
  _VERSION = require("ik2d.api").version,
  _DESCRIPTION = "ik2d.smooth: frame-rate independent target smoothing",
}

local abs, sqrt = math.abs, math.sqrt
-- the core's own exp: the same bits on every platform
local exp = require("ik2d.pure.math").exp
local finite, rate_of, nonnegative = common.finite, common.rate, common.nonnegative

local Smooth = {}
Smooth.__index = Smooth

local function check_self(self, who)
  common.self(self, Smooth, 3, who, "a smoother")
end

-- p moved toward g by the fraction a in [0, 1], inside [p, g].
local function approach(p, g, a)
  if a >= 1 then return g end
  local d = g - p
  local r
  if d - d == 0 then
    r = p + d * a
  else
    -- the gap overflows: the same step on halves, which cannot
    r = 2 * (0.5 * p + (0.5 * g - 0.5 * p) * a)
  end
  -- rounding may land a hair outside the span (or on inf at its ends)
  if p <= g then
    if r < p then r = p elseif r > g then r = g end
  elseif r > p then r = p elseif r < g then r = g end
  return r
end

-- The fraction of the gap covered in dt seconds at rate.
local function fraction(rate, dt)
  if dt <= 0 then return 0 end
  return 1 - exp(-rate * dt)     -- rate * dt may be inf: exp(-inf) = 0
end

local KNOWN = { x = true, y = true, rate = true }

-- smooth.new{ x =, y =, rate = }: starts at (x, y) (default 0, 0) with the
-- goal at the same place; rate per second (default 10; 0 = never moves,
-- math.huge = jumps to the goal on every update).
function smooth.new(opts)
  opts = common.options(opts, KNOWN, 2, "ik2d.smooth: new", "opts")
  local x = finite(opts.x or 0, 2, "ik2d.smooth: new", "x")
  local y = finite(opts.y or 0, 2, "ik2d.smooth: new", "y")
  local rate = rate_of(opts.rate or 10, 2, "ik2d.smooth: new", "rate")
  return setmetatable({ x = x, y = y, gx = x, gy = y, k = rate }, Smooth)
end

-- :set_goal(x, y): where to go; the position moves there on updates.
function Smooth:set_goal(x, y)
  check_self(self, "ik2d.smooth: set_goal")
  finite(x, 2, "ik2d.smooth: set_goal", "x")
  finite(y, 2, "ik2d.smooth: set_goal", "y")
  self.gx, self.gy = x, y
  return self
end

-- :goal() --> x, y
function Smooth:goal()
  check_self(self, "ik2d.smooth: goal")
  return self.gx, self.gy
end

-- :update(dt) --> x, y: moves toward the goal by 1 - exp(-rate * dt) of
-- the distance left (dt = 0 changes nothing).
function Smooth:update(dt)
  check_self(self, "ik2d.smooth: update")
  nonnegative(dt, 2, "ik2d.smooth: update", "dt")
  local a = fraction(self.k, dt)
  if a > 0 then
    self.x, self.y = approach(self.x, self.gx, a), approach(self.y, self.gy, a)
  end
  return self.x, self.y
end

-- :position() --> x, y
function Smooth:position()
  check_self(self, "ik2d.smooth: position")
  return self.x, self.y
end

-- :set_position(x, y): teleport (the goal stays).
function Smooth:set_position(x, y)
  check_self(self, "ik2d.smooth: set_position")
  finite(x, 2, "ik2d.smooth: set_position", "x")
  finite(y, 2, "ik2d.smooth: set_position", "y")
  self.x, self.y = x, y
  return self
end

-- :snap(): jump to the goal.
function Smooth:snap()
  check_self(self, "ik2d.smooth: snap")
  self.x, self.y = self.gx, self.gy
  return self
end

-- :distance() --> distance left to the goal (scaled, so it neither
-- overflows nor underflows on the way; math.huge only when it is beyond
-- the largest double).
function Smooth:distance()
  check_self(self, "ik2d.smooth: distance")
  local dx, dy = self.gx - self.x, self.gy - self.y
  local scale = 1
  if dx - dx ~= 0 or dy - dy ~= 0 then
    dx, dy = 0.5 * self.gx - 0.5 * self.x, 0.5 * self.gy - 0.5 * self.y
    scale = 2
  end
  dx, dy = abs(dx), abs(dy)
  local m = dx > dy and dx or dy
  if m == 0 then return 0 end
  dx, dy = dx / m, dy / m
  return scale * m * sqrt(dx * dx + dy * dy)
end

-- :set_rate(rate), :rate(): smoothing rate per second.
function Smooth:set_rate(rate)
  check_self(self, "ik2d.smooth: set_rate")
  self.k = rate_of(rate, 2, "ik2d.smooth: set_rate", "rate")
  return self
end

function Smooth:rate()
  check_self(self, "ik2d.smooth: rate")
  return self.k
end

return setmetatable(smooth, {
  -- smooth{...} is smooth.new{...}
  __call = function(_, ...) return smooth.new(...) end,
})
