-- ik2d.blend: frame-driven weight blending with smoothstep easing.
--
--   local blend = require "ik2d.blend"
--   local b = blend.new(solver)      -- anything with :weight() and :set_weight(w)
--   b:to(1, 0.3)                     -- blend to weight 1 over 0.3 s
--   function love.update(dt) b:update(dt); solver:solve() end
--
-- Pure Lua, no LOVE dependency.  The weight eases with smoothstep
-- (3u^2 - 2u^3), lands exactly on the end value, and a new :to() issued
-- mid-way starts from the current weight, so an interrupted blend never
-- jumps.  Weights are clamped to [0, 1], as the solver clamps them.

local blend = {
  _VERSION = "0.1.0",
  _DESCRIPTION = "ik2d.blend: frame-driven weight blending",
}

local Blend = {}
Blend.__index = Blend

local function smoothstep(u)
  return u * u * (3 - 2 * u)
end

local function check_weight(w, fname, argn)
  if type(w) ~= "number" or w ~= w then
    error(("bad argument #%d to '%s' (number expected, got %s)")
      :format(argn, fname, w ~= w and "nan" or type(w)), 3)
  end
  if w < 0 then return 0 elseif w > 1 then return 1 end
  return w
end

-- blend.new([target]): target is an object with :weight() and
-- :set_weight(w) (an ik2d solver, or your own table), a number (a
-- standalone value that starts there), or nil (standalone, starts at 0).
function blend.new(target)
  local value = 0
  local t = type(target)
  if t == "number" then
    value = check_weight(target, "new", 1)
    target = nil
  elseif target ~= nil then
    if (t ~= "table" and t ~= "userdata") or target.weight == nil
        or target.set_weight == nil then
      error("bad argument #1 to 'new' (object with weight/set_weight, " ..
        "number or nil expected, got " .. t .. ")", 2)
    end
    value = check_weight(target:weight(), "new", 1)
  end
  return setmetatable({
    subject = target,  -- receives the weight on every change
    from = value,      -- weight when the running blend started
    goal = value,      -- end weight
    duration = 0,      -- seconds of the running blend
    elapsed = 0,       -- seconds since it started
    current = value,
  }, Blend)
end

local function apply(self, w)
  self.current = w
  if self.subject then self.subject:set_weight(w) end
end

-- :to(weight, seconds): start a blend from the current weight.
-- seconds = 0 (or omitted) jumps at once, also applying the weight to
-- the target immediately.  A :to() with the same end value as the running
-- blend keeps that blend (so calling it every frame is harmless).
function Blend:to(weight, seconds)
  weight = check_weight(weight, "to", 1)
  seconds = seconds or 0
  if type(seconds) ~= "number" or seconds ~= seconds or seconds < 0 then
    error("bad argument #2 to 'to' (seconds must be a number >= 0)", 2)
  end
  if weight == self.goal and (seconds > 0 or self.current == weight) then
    return self
  end
  self.from, self.goal = self.current, weight
  self.elapsed, self.duration = 0, seconds
  if seconds == 0 or self.current == weight then
    self.duration = 0
    apply(self, weight)
  end
  return self
end

-- :update(dt): advance the blend by dt seconds; returns the weight.
function Blend:update(dt)
  if self.duration > 0 and dt > 0 then
    self.elapsed = self.elapsed + dt
    if self.elapsed >= self.duration then
      self.duration, self.elapsed = 0, 0
      apply(self, self.goal)
    else
      local s = smoothstep(self.elapsed / self.duration)
      apply(self, self.from + (self.goal - self.from) * s)
    end
  end
  return self.current
end

-- :value(): the current weight.
function Blend:value()
  return self.current
end

-- :target(): the end weight of the running (or last) blend.
function Blend:target()
  return self.goal
end

-- :done(): true once the end weight is reached (at once after a jump).
function Blend:done()
  return self.duration == 0
end

-- :progress(): 0..1 through the running blend (1 when done).
function Blend:progress()
  if self.duration == 0 then return 1 end
  return self.elapsed / self.duration
end

blend.smoothstep = smoothstep

return setmetatable(blend, {
  -- blend(target) is blend.new(target)
  __call = function(_, ...) return blend.new(...) end,
})
