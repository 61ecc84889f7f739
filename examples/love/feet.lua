-- The character's feet (legs: thigh, shin, foot): where each foot goes
-- and which way it points; the leg's solver puts the toe (the chain's
-- tip) there with the foot along that direction (a tip angle) and the
-- knee toward a pole in front of the leg.
-- Walking, ik2d.gait plans the steps: each foot stays planted flat on the
-- ground under it (tip weight 1, along the slope) until it falls a stride
-- behind its spot under the hip, then steps, one foot at a time, and
-- lands ahead by the hip's velocity; standing, a foot left off its spot
-- steps back to it.  This layer turns the gait's foot (the middle of the
-- sole, on the ground) into the toe and the foot's angle, with a step's
-- shape: toes up first, the tip weight blended down (the foot only partly
-- follows its angle), flat again and weight 1 before it lands.  While
-- climbing the feet follow scripted spots on the wall and the ledge,
-- smoothed with ik2d.smooth so a change of spot never jumps.

local smooth = require "ik2d.smooth"
local gait = require "ik2d.gait"

local pi, sin, cos = math.pi, math.sin, math.cos
local abs, min, max = math.abs, math.min, math.max

local feet = {}
local Feet = {}
Feet.__index = Feet

local ANKLE = 5          -- the foot bone above the ground (the sole is below it)
local FOOT = 15          -- the foot bone: heel (the ankle joint) to toe
local STRIDE = 17        -- how far a foot may fall behind its spot before it steps
local STEP_TIME = 0.18   -- seconds per step
local LIFT = 11          -- step height
local STAND = 76         -- the hip above the ground, standing (character.HIP_HEIGHT)
local TOE_UP = 0.45      -- how far a step turns the toes up (rad)
-- The tip weight at mid-swing.  Below 1 the foot takes that share of the
-- turn from the free solve's direction (the leg solved from its pose) to
-- the angle: a swinging foot half follows the planner, half hangs.
local SWING_WEIGHT = 0.35
local FLAT_AT = 0.75     -- from this share of a step on the foot is flat, weight 1
local WALL_TOES = 0.4    -- climbing, the toes push up against the wall (rad)
local TOES_DOWN = 0.45   -- falling, the toes hang down (rad)
local POLE_OUT = 60      -- the knee pole: this far in front of the leg's middle
local REACH = 75         -- hip to heel at most (thigh and shin reach 78): knees stay bent

-- What the gait drives for each leg: a solver's place, keeping the target
-- the gait gives (the middle of the sole, on the ground); this layer
-- reads the feet from the gait and sets the real solvers' targets itself.
local Spot = {}
Spot.__index = Spot
function Spot:set_target(x, y) self.x, self.y = x, y end
function Spot:target() return self.x, self.y end

function feet.new(char, world)
  local self = setmetatable({ char = char, world = world, climbing = false,
                              standing = false, standing_x = 0 }, Feet)
  -- offset: the middle of each foot from the hip, toward the facing side;
  -- leg: the foot's leg in the gait (1, the back foot, steps first when
  -- setting off: see walk)
  self.front = { name = "front", offset = 16, leg = 2 }
  self.back = { name = "back", offset = 2, leg = 1 }
  self.both = { self.back, self.front }     -- iterated every frame: made once
  self.by_leg = { leg_front = self.front, leg_back = self.back }
  local legs = {}
  for i, f in ipairs(self.both) do
    f.track = smooth.new{ rate = math.huge }  -- the heel, climbing or falling
    f.turn = smooth.new{ rate = math.huge }   -- its x: the foot's angle, likewise
    f.stepping, f.t = false, 0
    f.cx = 0
    f.x, f.y, f.authored, f.angle, f.weight = 0, 0, 0, 0, 1
    f.status = "planted"
    -- the heel within REACH of the hip: the hip is the body, so hip {0, 0}
    legs[i] = { solver = setmetatable({ x = 0, y = 0 }, Spot), home = { f.offset, STAND },
                hip = { 0, 0 }, reach = REACH }
  end
  -- the ground of the level the hip is on: past the ledge's wall the feet
  -- see their own level go on (the planned x below keeps them off it)
  local wall = world.LEDGE_X
  local function ground(x)
    if char.x < wall then
      if x >= wall then return world.GROUND, 0 end
    elseif x < wall then
      return world.LEDGE_TOP, 0
    end
    return world.ground_at(x), world.slope_at(x)
  end
  self.gait = gait.new{ legs = legs, ground = ground, pattern = "alternate",
    step = { trigger = STRIDE, height = LIFT, duration = STEP_TIME } }
  return self
end

-- The toe (the leg's target) and the tip angle of a foot with its heel at
-- (hx, hy) and `angle` its direction in the right-facing frame the rig is
-- authored in: 0 points forward, negative turns the toes up.  Sets f.x,
-- f.y, f.authored (that angle) and f.angle, the direction on screen
-- (mirrored when facing left): what the tip angle takes, as world_angle.
local function from_heel(self, f, hx, hy, angle)
  local w = self.char.facing > 0 and angle or pi - angle
  f.x, f.y, f.authored, f.angle = hx + FOOT * cos(w), hy + FOOT * sin(w), angle, w
end

-- A foot along the ground, its middle above ground x `cx`, `lift` px up
-- and turned `pitch` rad toes up about its heel: pitch 0 and lift 0 is
-- planted flat, the bone ANKLE above the ground along its normal.
local function on_ground(self, f, cx, lift, pitch)
  local world, facing = self.world, self.char.facing
  local a = world.slope_at(cx)
  local c, s = cos(a), sin(a)
  local mx, my = cx + ANKLE * s, world.ground_at(cx) - ANKLE * c - lift
  f.cx = cx
  from_heel(self, f, mx - facing * FOOT / 2 * c, my - facing * FOOT / 2 * s,
    (facing > 0 and a or -a) - pitch)
end

-- Each foot where the gait has it: planted flat on the ground, or on its
-- step's arc (x kept off the ledge's wall), the toes up early in the step.
local function from_gait(self)
  local g = self.gait
  for _, f in ipairs(self.both) do
    local cx, _, state, u = g:foot(f.leg)
    if state == "planted" then
      f.stepping, f.t, f.weight, f.status = false, 0, 1, "planted"
      on_ground(self, f, cx, 0, 0)
    else
      f.stepping, f.t, f.status = true, u, "step"
      -- the toes come up first (the swing peaks before the lift does) and
      -- are down again, the tip weight back to 1, from FLAT_AT on
      local swing = u < FLAT_AT and sin(pi * u / FLAT_AT) or 0
      f.weight = 1 - (1 - SWING_WEIGHT) * swing
      on_ground(self, f, self:clamp(cx), LIFT * sin(pi * u), TOE_UP * swing)
    end
  end
end

-- Keep a foot on the level the hip is on: never past the ledge's wall.
function Feet:clamp(cx)
  local wall, half = self.world.LEDGE_X, FOOT / 2
  if self.char.x < wall then return min(cx, wall - 2 - half) end
  return max(cx, wall + 2 + half)
end

-- How far toward dir (1: +x, -1: -x) the feet's spots may reach from the
-- gait's hip: the farthest home spot that way, and a step's lead when the
-- hip may walk that way (facing it, or aiming: walking backward too).
local LEAD_MAX = gait.LEAD_CAP * STRIDE
local function reach_toward(self, dir)
  local c = self.char
  local far = max(dir * c.facing * self.front.offset, dir * c.facing * self.back.offset)
  if c.aiming or c.facing == dir then far = far + LEAD_MAX end
  return far
end

-- The hip's x as the gait sees it: kept far enough from the ledge's wall
-- (below) or edge (on top) that no foot's spot comes closer than 2 px to
-- the wall.  At the wall the hip goes on alone: to the gait the body
-- stands, and the feet stay back.
function Feet:planned_x()
  local x, wall, margin = self.char.x, self.world.LEDGE_X, 2 + FOOT / 2
  if x < wall then return min(x, wall - margin - reach_toward(self, 1)) end
  return max(x, wall + margin + reach_toward(self, -1))
end

-- Is every foot planted on its home spot for the body at x?
local function at_home(self, x)
  local flip = self.char.facing < 0
  for _, f in ipairs(self.both) do
    local cx, _, state = self.gait:foot(f.leg)
    if state ~= "planted" or cx ~= (flip and x - f.offset or x + f.offset) then return false end
  end
  return true
end

local function walk(self, dt)
  local c = self.char
  local x = self:planned_x()
  -- setting off with both feet home, the back foot (the gait's leg 1)
  -- steps first: the front one, waiting, is still under the hip, where
  -- the back one would fall far behind it, down the slope walking uphill
  if self.standing and x ~= self.standing_x and at_home(self, self.standing_x) then self.gait:reset() end
  self.gait:update(dt, x, c.y, 0, c.facing < 0)
  from_gait(self)
  self.standing, self.standing_x = x == self.standing_x, x
end

-- Plant both feet at their home spots on the ground (start, landing).
function Feet:reset()
  self.gait:reset()
  self.standing = false
  walk(self, 0)
end

function Feet:stepping()
  return self.front.stepping or self.back.stepping
end

-- Hip bob while a foot is in the air: up at mid-step.
function Feet:bob()
  for _, f in ipairs(self.both) do
    if f.stepping then return -2.5 * sin(pi * f.t) end
  end
  return 0
end

-- From here on the foot's heel and angle are smoothed toward goals at
-- `rate`, starting from where the foot is, and staying there until a goal
-- is given (climbing, falling).
local function follow_from_here(f, rate, status)
  local hx, hy = f.x - FOOT * cos(f.angle), f.y - FOOT * sin(f.angle)
  f.track:set_position(hx, hy):set_goal(hx, hy)
  f.turn:set_position(f.authored, 0):set_goal(f.authored, 0)
  f.track:set_rate(rate)
  f.turn:set_rate(rate)
  f.stepping, f.weight, f.status = false, 1, status
end

-- Climbing on: scripted spots, smoothed; off: plant where the feet are.
function Feet:climb(on)
  self.climbing = on
  for _, f in ipairs(self.both) do
    if on then
      follow_from_here(f, 13, "climb")
    else
      f.track:set_rate(math.huge)
      f.turn:set_rate(math.huge)
      self.gait:plant(f.leg, self:clamp(f.track:position() + self.char.facing * FOOT / 2))
    end
  end
  if not on then from_gait(self) end
end

-- Where the heels go while climbing, and the feet's angles, by phase:
-- toes against the wall, then flat on the ledge's top.
local function climb_spots(self)
  local c, w = self.char, self.world
  local wall, top, low = w.LEDGE_X, w.LEDGE_TOP, w.GROUND - ANKLE
  local phase, t = c.phase, c.phase_time
  local on_wall = wall - 2 - FOOT * cos(WALL_TOES)
  local fx, fy, fa, bx, by, ba
  if phase == "pull" or phase == "grab" or phase == "approach" then
    if phase ~= "pull" then return nil end
    fx, fy, fa = on_wall, min(c.y + 60, low), -WALL_TOES
    bx, by, ba = on_wall - 1, min(c.y + 42, low), -WALL_TOES
  elseif phase == "mantle" then
    if t > 0.3 then fx, fy, fa = wall + 5, top - ANKLE, 0
    else fx, fy, fa = on_wall, min(c.y + 60, low), -WALL_TOES end
    if t > 0.55 then bx, by, ba = wall + 23, top - ANKLE, 0
    else bx, by, ba = on_wall - 1, min(c.y + 46, low), -WALL_TOES end
  else -- stand
    fx, fy, fa = c.x + 2, top - ANKLE, 0
    bx, by, ba = c.x - 15, top - ANKLE, 0
  end
  return fx, fy, fa, bx, by, ba
end

-- Climbing or falling: each heel and angle smoothed toward its goal.
local function follow_goals(self, dt)
  for _, f in ipairs(self.both) do
    local hx, hy = f.track:update(dt)
    from_heel(self, f, hx, hy, (f.turn:update(dt)))
  end
end

function Feet:update(dt)
  local c = self.char
  local front, back = self.front, self.back
  if c.mode == "fall" then
    for _, f in ipairs(self.both) do
      if f.status ~= "air" then follow_from_here(f, 18, "air") end
      f.turn:set_goal(TOES_DOWN, 0)
    end
    front.track:set_goal(c.x + c.facing * 3, c.y + 66)
    back.track:set_goal(c.x - c.facing * 13, c.y + 60)
    return follow_goals(self, dt)
  end
  if self.climbing then
    local fx, fy, fa, bx, by, ba = climb_spots(self)
    if fx then
      front.track:set_goal(fx, fy)
      front.turn:set_goal(fa, 0)
      back.track:set_goal(bx, by)
      back.turn:set_goal(ba, 0)
    end
    return follow_goals(self, dt)
  end
  walk(self, dt)
end

-- The highest the hip (at the character's x) may be for both heels to be
-- within REACH of it.
function Feet:highest_hip()
  local x, y = self.char.x, -math.huge
  for _, f in ipairs(self.both) do
    local hx, hy = f.x - FOOT * cos(f.angle), f.y - FOOT * sin(f.angle)
    local dx = min(abs(hx - x), REACH)
    y = max(y, hy - (REACH * REACH - dx * dx) ^ 0.5)
  end
  return y
end

-- Give a leg's solver its foot: the toe as the target, the foot's angle
-- with its weight, and a pole in front of the hip-to-toe line's middle,
-- on the facing side, so that the knee bends forward facing either way.
local function give_foot(solver, f, hx, hy, facing)
  solver:set_target(f.x, f.y)
  solver:set_tip_angle(f.angle, f.weight)
  local dx, dy = f.x - hx, f.y - hy
  local d = (dx * dx + dy * dy) ^ 0.5
  if d > 0 then
    solver:set_pole(hx + dx / 2 + facing * dy / d * POLE_OUT, hy + dy / 2 - facing * dx / d * POLE_OUT)
  end
end

-- The leg solvers' targets, tip angles and poles, from the hip (the
-- skeleton's base, set before this).
function Feet:target_legs()
  local c = self.char
  give_foot(c.solvers.leg_front, self.front, c.x, c.y, c.facing)
  give_foot(c.solvers.leg_back, self.back, c.x, c.y, c.facing)
end

feet.ANKLE, feet.FOOT = ANKLE, FOOT

return feet
