-- A small foot planner for the character's legs (thigh, shin, foot): it
-- chooses where each foot goes and which way it points; the leg's solver
-- puts the toe (the chain's tip) there with the foot along that direction
-- (a tip angle) and the knee toward a pole in front of the leg.
-- Walking, a foot stays planted flat on the ground under it (tip weight 1,
-- along the slope) and steps, one at a time, on an arc: toes up first,
-- the tip weight blended down (the foot only partly follows its angle),
-- flat again and weight 1 before it lands.  While climbing the feet follow scripted spots
-- on the wall and the ledge, smoothed with ik2d.follow so a change of spot
-- never jumps.

local follow = require "ik2d.follow"

local pi, sin, cos = math.pi, math.sin, math.cos
local abs, min, max = math.abs, math.min, math.max

local feet = {}
local Feet = {}
Feet.__index = Feet

local ANKLE = 5          -- the foot bone above the ground (the sole is below it)
local FOOT = 15          -- the foot bone: heel (the ankle joint) to toe
local STRIDE = 17        -- how far the hip may leave a foot before it steps
local STEP_TIME = 0.18   -- seconds per step
local LEAD = 14          -- a step lands this far ahead of its home spot
local LIFT = 11          -- step height
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

function feet.new(char, world)
  local self = setmetatable({ char = char, world = world, climbing = false }, Feet)
  -- offsets: the middle of each foot from the hip, toward the facing side
  self.front = { name = "front", offset = 16 }
  self.back = { name = "back", offset = 2 }
  self.both = { self.front, self.back }     -- iterated every frame: made once
  self.by_leg = { leg_front = self.front, leg_back = self.back }
  for _, f in ipairs(self.both) do
    f.track = follow.new{ rate = math.huge }  -- the heel, climbing or falling
    f.turn = follow.new{ rate = math.huge }   -- its x: the foot's angle, likewise
    f.stepping, f.t = false, 0
    f.cx, f.from_cx, f.to_cx = 0, 0, 0
    f.x, f.y, f.authored, f.angle, f.weight = 0, 0, 0, 0, 1
    f.status = "planted"
  end
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

local function plant(self, f, cx)
  f.stepping, f.weight, f.status = false, 1, "planted"
  on_ground(self, f, cx, 0, 0)
end

-- Keep a foot on the level the hip is on: never past the ledge's wall.
function Feet:clamp(cx)
  local wall, half = self.world.LEDGE_X, FOOT / 2
  if self.char.x < wall then return min(cx, wall - 2 - half) end
  return max(cx, wall + 2 + half)
end

function Feet:home(f)
  return self:clamp(self.char.x + self.char.facing * f.offset)
end

-- Plant both feet at their home spots on the ground (start, landing).
function Feet:reset()
  for _, f in ipairs(self.both) do plant(self, f, self:home(f)) end
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
      plant(self, f, self:clamp(f.track:position() + self.char.facing * FOOT / 2))
    end
  end
end

local function start_step(self, f, lead)
  f.stepping, f.t, f.status = true, 0, "step"
  f.from_cx, f.to_cx = f.cx, self:clamp(self:home(f) + lead)
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
  -- walking: step the foot that is farthest from home, one at a time
  for _, f in ipairs(self.both) do
    if f.stepping then
      if c.walking ~= 0 then
        -- keep landing a little ahead of the moving hip
        f.to_cx = self:clamp(self:home(f) + c.walking * LEAD)
      end
      f.t = min(1, f.t + dt / STEP_TIME)
      local u = f.t
      -- the toes come up first (the swing peaks before the lift does) and
      -- are down again, the tip weight back to 1, from FLAT_AT on
      local swing = u < FLAT_AT and sin(pi * u / FLAT_AT) or 0
      f.weight = 1 - (1 - SWING_WEIGHT) * swing
      on_ground(self, f, f.from_cx + (f.to_cx - f.from_cx) * u, LIFT * sin(pi * u), TOE_UP * swing)
      if f.t >= 1 then plant(self, f, f.to_cx) end
    else
      -- planted: again for the hip's facing (turning pivots the foot)
      on_ground(self, f, f.cx, 0, 0)
    end
  end
  -- turning back mid-step can leave a planted foot far from home: it goes
  -- at once (both feet in the air, a hop) rather than out of reach
  for _, f in ipairs(self.both) do
    if not f.stepping and abs(f.cx - self:home(f)) > 2 * STRIDE then
      start_step(self, f, c.walking * LEAD)
    end
  end
  if self:stepping() then return end
  local dir = c.walking
  if dir == 0 then
    -- standing: a foot far from home steps back under the hip
    local worst, far = STRIDE, nil
    for _, f in ipairs(self.both) do
      local d = abs(f.cx - self:home(f))
      if d > worst then worst, far = d, f end
    end
    if far then start_step(self, far, 0) end
    return
  end
  -- walking: the foot lagging most behind its home steps (on a tie, the
  -- trailing one).  The other stays planted while the hip walks a step's
  -- time on, so a walk from standing (both feet home) starts with a short
  -- step: a full stride first would leave the other foot out of reach.
  local a, b = front, back
  local la, lb = (self:home(a) - a.cx) * dir, (self:home(b) - b.cx) * dir
  if lb > la + 1 or (lb > la - 1 and b.cx * dir < a.cx * dir) then
    a, la, lb = b, lb, la
  end
  if la > (lb < 0 and STRIDE or STRIDE / 3) then start_step(self, a, dir * LEAD) end
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
local function aim(solver, f, hx, hy, facing)
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
function Feet:aim_legs()
  local c = self.char
  aim(c.solvers.leg_front, self.front, c.x, c.y, c.facing)
  aim(c.solvers.leg_back, self.back, c.x, c.y, c.facing)
end

feet.ANKLE, feet.FOOT = ANKLE, FOOT

return feet
