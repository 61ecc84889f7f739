-- A small foot planner for the character's legs: feet stay planted and
-- step (one at a time, on an arc) when the hip walks away from them;
-- while climbing they follow scripted spots on the wall and the ledge,
-- smoothed with ik2d.follow so a change of spot never jumps.

local follow = require "ik2d.follow"

local pi, sin = math.pi, math.sin
local abs, min = math.abs, math.min

local feet = {}
local Feet = {}
Feet.__index = Feet

local ANKLE = 5          -- ankle above the ground (the shoe is below it)
local STRIDE = 17        -- how far the hip may leave a foot before it steps
local STEP_TIME = 0.18   -- seconds per step
local LEAD = 14          -- a step lands this far ahead of its home spot
local LIFT = 11          -- step height

function feet.new(char, world)
  local self = setmetatable({ char = char, world = world, climbing = false }, Feet)
  self.front = { name = "front", offset = 9 }
  self.back = { name = "back", offset = -8 }
  for _, f in ipairs{ self.front, self.back } do
    f.track = follow.new{ rate = math.huge }
    f.stepping, f.t = false, 0
    f.x, f.y = 0, 0
  end
  return self
end

local function plant(f, x, y)
  f.x, f.y, f.stepping = x, y, false
  f.track:set_goal(x, y)
  f.track:snap()
end

-- Keep a foot on the level the hip is on: never past the ledge's wall.
function Feet:clamp(x)
  local wall = self.world.LEDGE_X
  if self.char.x < wall then return min(x, wall - 4) end
  return math.max(x, wall + 2)
end

function Feet:home(f)
  return self:clamp(self.char.x + self.char.facing * f.offset)
end

-- Plant both feet at their home spots on the ground (start, landing).
function Feet:reset()
  for _, f in ipairs{ self.front, self.back } do
    local x = self:home(f)
    plant(f, x, self.world.ground_at(x) - ANKLE)
  end
end

function Feet:stepping()
  return self.front.stepping or self.back.stepping
end

-- Hip bob while a foot is in the air: up at mid-step.
function Feet:bob()
  for _, f in ipairs{ self.front, self.back } do
    if f.stepping then return -2.5 * sin(pi * f.t) end
  end
  return 0
end

-- Climbing on: scripted spots, smoothed; off: plant where the feet are.
function Feet:climb(on)
  self.climbing = on
  for _, f in ipairs{ self.front, self.back } do
    if on then
      f.track:set_position(f.x, f.y)
      f.track:set_rate(13)
      f.stepping = false
    else
      f.track:set_rate(math.huge)
      local x = f.track:position()
      plant(f, x, self.world.ground_at(x) - ANKLE)
    end
  end
end

local function start_step(self, f, lead)
  local to = self:clamp(self:home(f) + lead)
  f.stepping, f.t = true, 0
  f.from_x, f.from_y = f.x, f.y
  f.to_x, f.to_y = to, self.world.ground_at(to) - ANKLE
end

-- Where the feet go while climbing, by phase.
local function climb_spots(self)
  local c, w = self.char, self.world
  local wall, top = w.LEDGE_X, w.LEDGE_TOP
  local phase, t = c.phase, c.phase_time
  local fx, fy, bx, by
  if phase == "pull" or phase == "grab" or phase == "approach" then
    if phase ~= "pull" then return nil end
    fx, fy = wall - 4, min(c.y + 60, w.GROUND - ANKLE)
    bx, by = wall - 5, min(c.y + 42, w.GROUND - ANKLE)
  elseif phase == "mantle" then
    if t > 0.3 then fx, fy = wall + 12, top - ANKLE
    else fx, fy = wall - 4, min(c.y + 60, w.GROUND - ANKLE) end
    if t > 0.55 then bx, by = wall + 30, top - ANKLE
    else bx, by = wall - 5, min(c.y + 46, w.GROUND - ANKLE) end
  else -- stand
    fx, fy = c.x + 9, top - ANKLE
    bx, by = c.x - 8, top - ANKLE
  end
  return fx, fy, bx, by
end

function Feet:update(dt)
  local c = self.char
  if c.mode == "fall" then
    self.front.track:set_rate(18)
    self.back.track:set_rate(18)
    self.front.track:set_goal(c.x + c.facing * 10, c.y + 66)
    self.back.track:set_goal(c.x - c.facing * 6, c.y + 60)
    for _, f in ipairs{ self.front, self.back } do
      f.x, f.y = f.track:update(dt)
      f.stepping = false
    end
    return
  end
  if self.climbing then
    local fx, fy, bx, by = climb_spots(self)
    if fx then
      self.front.track:set_goal(fx, fy)
      self.back.track:set_goal(bx, by)
    end
    for _, f in ipairs{ self.front, self.back } do
      f.x, f.y = f.track:update(dt)
    end
    return
  end
  -- walking: step the foot that is farthest from home, one at a time
  for _, f in ipairs{ self.front, self.back } do
    if f.stepping then
      if c.walking ~= 0 then
        -- keep landing a little ahead of the moving hip
        f.to_x = self:clamp(self:home(f) + c.walking * LEAD)
        f.to_y = self.world.ground_at(f.to_x) - ANKLE
      end
      f.t = min(1, f.t + dt / STEP_TIME)
      local u = f.t
      f.x = f.from_x + (f.to_x - f.from_x) * u
      f.y = f.from_y + (f.to_y - f.from_y) * u - LIFT * sin(pi * u)
      if f.t >= 1 then plant(f, f.to_x, f.to_y) end
    end
  end
  if not self:stepping() then
    local worst, far = STRIDE, nil
    for _, f in ipairs{ self.front, self.back } do
      local d = abs(f.x - self:home(f))
      if d > worst then worst, far = d, f end
    end
    if far then start_step(self, far, c.walking * LEAD) end
  end
  -- landed on another level without stepping (after a fall): replant
  for _, f in ipairs{ self.front, self.back } do
    if not f.stepping and abs(f.y - (self.world.ground_at(f.x) - ANKLE)) > 0.5
        and not self.climbing then
      plant(f, f.x, self.world.ground_at(f.x) - ANKLE)
    end
  end
end

-- Give the leg solvers their targets (the ankles).
function Feet:aim_legs()
  local s = self.char.solvers
  s.leg_front:set_target(self.front.x, self.front.y)
  s.leg_back:set_target(self.back.x, self.back.y)
end

feet.ANKLE = ANKLE

return feet
