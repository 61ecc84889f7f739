-- ik2d.blend: frame-driven weight blending with easings and a callback.
--
--   local blend = require "ik2d.blend"
--   local b = blend.new(solver)      -- anything with :weight() and :set_weight(w)
--   b:to(1, 0.3):on_done(function() print("IK fully on") end)
--   function love.update(dt) b:update(dt); solver:solve() end
--
-- Pure Lua, no LOVE dependency.  The blend keeps no copy of the weight:
-- each :to() starts from the subject's weight as it is then (whoever set
-- it last), and :value() reads it back.  The weight eases with the chosen
-- easing (smoothstep, 3u^2 - 2u^3, by default), lands exactly on the end
-- value, and a new :to() issued mid-way starts from the current weight,
-- so an interrupted blend never jumps.  Weights are clamped to [0, 1], as
-- the solver clamps them.
--
-- All or nothing: when the subject's weight or set_weight, an easing or
-- the on_done callback raises, the blend and the subject's weight are as
-- they were before the call, and the error goes on to the caller.

local common = require "ik2d.common"

local blend = {
  _VERSION = require("ik2d.api").version,
  _DESCRIPTION = "ik2d.blend: frame-driven weight blending",
}

local is_finite = common.is_finite

local Blend = {}
Blend.__index = Blend

-- Easings: functions of t in [0, 1], 0 at 0 and 1 at 1.
local easings = {
  linear = function(t) return t end,
  smoothstep = function(t) return t * t * (3 - 2 * t) end,
  quadin = function(t) return t * t end,
  quadout = function(t) return t * (2 - t) end,
  quadinout = function(t)
    if t < 0.5 then return 2 * t * t end
    local u = 1 - t
    return 1 - 2 * u * u
  end,
  cubicin = function(t) return t * t * t end,
  cubicout = function(t)
    local u = 1 - t
    return 1 - u * u * u
  end,
  cubicinout = function(t)
    if t < 0.5 then return 4 * t * t * t end
    local u = 1 - t
    return 1 - 4 * u * u * u
  end,
}
blend.easings = easings
blend.smoothstep = easings.smoothstep

local EASING_NAMES
do
  local names = {}
  for name in pairs(easings) do names[#names + 1] = name end
  table.sort(names)
  EASING_NAMES = table.concat(names, ", ")
end

local function clamp(w)
  if w < 0 then return 0 elseif w > 1 then return 1 end
  return w
end

local function check_self(self, who)
  common.self(self, Blend, 3, who, "a blend")
end

local BAD_WEIGHT = "the subject's weight() must return a finite number"

-- The weight now: the subject's, or the blend's own when standalone; nil
-- and the answer when the subject's weight() is not a finite number.
local function try_weight(self)
  local subject = self.subject
  if not subject then return self.own end
  local w = subject:weight()
  if not is_finite(w) then return nil, w end
  return clamp(w)
end

-- The same, where a bad answer is an error at the level of the caller of
-- the function that asks (level 3 here).
local function weight_of(self, who)
  local w, bad = try_weight(self)
  if w == nil then common.fail(3, who, BAD_WEIGHT, bad) end
  return w
end

local function apply(self, w)
  if self.subject then self.subject:set_weight(w) else self.own = w end
end

local SUBJECT = "subject must be an object with weight and set_weight (an ik2d solver), a number or nil"

-- blend.new([subject]): subject is an object with :weight() and
-- :set_weight(w) (an ik2d solver, or your own table), a number (a
-- standalone value that starts there), or nil (standalone, starts at 0).
function blend.new(subject)
  local own = 0
  local t = type(subject)
  if t == "number" then
    if not is_finite(subject) then common.fail(2, "ik2d.blend: new", SUBJECT, subject) end
    own, subject = clamp(subject), false
  elseif subject == nil then
    subject = false
  elseif (t ~= "table" and t ~= "userdata") or subject.weight == nil
      or subject.set_weight == nil then
    common.fail(2, "ik2d.blend: new", SUBJECT, subject)
  end
  local self = setmetatable({
    subject = subject,   -- receives the weight on every change (or false)
    own = own,           -- the weight when standalone
    from = own,          -- weight when the running blend started
    goal = own,          -- end weight
    duration = 0,        -- seconds of the running blend
    elapsed = 0,         -- seconds since it started
    running = false,
    ease = easings.smoothstep,
    done_cb = false,     -- the running (or just ended) blend's on_done
  }, Blend)
  if subject then
    local w = weight_of(self, "ik2d.blend: new")
    self.from, self.goal = w, w
  end
  return self
end

-- :to(weight [, seconds [, easing]]): start a blend from the current
-- weight (the subject's, read now).  seconds = 0 (or omitted) jumps at
-- once, applying the weight to the subject immediately.  easing is the
-- name of one of blend.easings (default "smoothstep") or a function of t
-- in [0, 1].  A :to() with the same end value as the running blend keeps
-- that blend, its easing and its callback (so calling it every frame is
-- harmless).  Any other :to() drops the previous blend's callback.
function Blend:to(weight, seconds, easing)
  check_self(self, "ik2d.blend: to")
  weight = clamp(common.finite(weight, 2, "ik2d.blend: to", "weight"))
  if seconds == nil then seconds = 0 end
  common.nonnegative(seconds, 2, "ik2d.blend: to", "seconds")
  local ease = easing
  if ease == nil then
    ease = easings.smoothstep
  elseif type(ease) ~= "function" then
    ease = easings[ease]
    if not ease then
      common.fail(2, "ik2d.blend: to",
        "easing must be a function or one of " .. EASING_NAMES, easing)
    end
  end
  if self.running and weight == self.goal then return self end
  local start = weight_of(self, "ik2d.blend: to")
  local running = seconds > 0 and start ~= weight
  if not running and start ~= weight then apply(self, weight) end  -- may raise: nothing changed yet
  self.from, self.goal, self.ease, self.done_cb = start, weight, ease, false
  self.duration, self.elapsed, self.running = running and seconds or 0, 0, running
  return self
end

-- :on_done(f): f(blend) runs once when the blend started by the last
-- :to() has reached its end value: from the :update() that ends it, or
-- from the next :update() when it already has (a jump).  nil removes it.
function Blend:on_done(f)
  check_self(self, "ik2d.blend: on_done")
  self.done_cb = common.callback(f, 2, "ik2d.blend: on_done", "f") or false
  return self
end

-- :update(dt): advance the blend by dt seconds; returns the weight.
-- Everything that may raise after the weight is applied (the callback,
-- the last read of the weight) runs under pcall, so that a raise puts
-- the blend and the subject's weight back as they were.
function Blend:update(dt)
  check_self(self, "ik2d.blend: update")
  common.nonnegative(dt, 2, "ik2d.blend: update", "dt")
  -- what a raise puts back (the callback may start another blend)
  local from, goal, ease, duration = self.from, self.goal, self.ease, self.duration
  local elapsed, running, cb = self.elapsed, self.running, self.done_cb
  local before                    -- the weight before this update
  if cb or (running and dt > 0) then
    before = weight_of(self, "ik2d.blend: update")
  end
  if running and dt > 0 then
    local e, w, still = elapsed + dt, self.goal, false
    if e < self.duration then
      local u = self.ease(e / self.duration)
      if not is_finite(u) then
        common.fail(2, "ik2d.blend: update", "the easing must return a finite number", u)
      end
      w, still = clamp(self.from + (self.goal - self.from) * u), true
    else
      e = 0
    end
    apply(self, w)                -- may raise: nothing changed yet
    self.elapsed, self.running = e, still
  end
  local ok, w, bad = true, nil, nil
  if cb and not self.running then
    self.done_cb = false
    ok, w = pcall(cb, self)
  end
  if ok then ok, w, bad = pcall(try_weight, self) end
  if ok and w ~= nil then return w end
  self.from, self.goal, self.ease, self.duration = from, goal, ease, duration
  self.elapsed, self.running, self.done_cb = elapsed, running, cb
  if before ~= nil then pcall(apply, self, before) end
  if not ok then error(w, 0) end
  common.fail(2, "ik2d.blend: update", BAD_WEIGHT, bad)
end

-- :value(): the current weight (the subject's when there is one).
function Blend:value()
  check_self(self, "ik2d.blend: value")
  local w = weight_of(self, "ik2d.blend: value")
  return w
end

-- :target(): the end weight of the running (or last) blend.
function Blend:target()
  check_self(self, "ik2d.blend: target")
  return self.goal
end

-- :done(): true once the end weight is reached (at once after a jump).
function Blend:done()
  check_self(self, "ik2d.blend: done")
  return not self.running
end

-- :progress(): 0..1 through the running blend (1 when done).
function Blend:progress()
  check_self(self, "ik2d.blend: progress")
  if not self.running then return 1 end
  return self.elapsed / self.duration
end

return setmetatable(blend, {
  -- blend(subject) is blend.new(subject)
  __call = function(_, ...) return blend.new(...) end,
})
