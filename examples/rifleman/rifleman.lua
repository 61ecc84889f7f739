-- The rifleman: one ik2d.skeleton.  The front arm's solver aims the
-- rifle's barrel (solver option `aim`), the back hand holds the rifle's
-- grip (a target on the rifle bone), the head looks where the barrel
-- points, and a ponytail swings on an ik2d.spring as the body walks and
-- bobs, in the wind, off a circle round the shoulders.  ik2d.behaviour
-- drives the gun and the head together ("aim", "lowered").  Pure logic (no
-- love.* calls): main.lua steps and draws it.

local ik2d = require "ik2d"

local rifleman = {}
local Rifleman = {}
Rifleman.__index = Rifleman

rifleman.GROUND = 230
local HIP_HEIGHT = 50            -- the hip above the ground, standing
local SPEED, ACCEL = 80, 400     -- walking: px/s, px/s^2
local STRIDE = 26                -- px walked per radian of the stride's phase

-- In the rifle's space (x along the barrel from the front hand, y across,
-- + below the barrel when it points right).
rifleman.AIM = { x = 30, y = -1, angle = 0 }    -- the muzzle and the barrel's direction
rifleman.GRIP = { x = -18, y = 6 }              -- where the back hand holds it
-- In the head's space (x up the head from the neck, y across, + forward).
local EYES = { x = 9, y = 5, angle = math.pi / 2 }

-- The near arm; the far one is its copy (a side view: both arms reach
-- forward the same way; ik2d.mirror_bones makes the other side of a front
-- view, whose limits would forbid that reach).
local FRONT_ARM = {
  { name = "upper_f", parent = "chest", x = 24, y = 0, length = 24, angle = 2.1 },
  { name = "fore_f", parent = "upper_f", length = 22, angle = -0.7, min = -2.6, max = 0 },
}

-- Bone definitions copied, names and parents renamed by gsub(pattern, to).
local function copy(list, pattern, to)
  local out = {}
  for i, bone in ipairs(list) do
    local b = {}
    for k, v in pairs(bone) do b[k] = v end
    b.name = bone.name:gsub(pattern, to)
    if bone.parent then b.parent = bone.parent:gsub(pattern, to) end
    out[i] = b
  end
  return out
end

local function bones()
  local t = {
    { name = "hip", length = 0 },
    { name = "spine", parent = "hip", length = 34, angle = -math.pi / 2 },
    { name = "chest", parent = "spine", length = 26 },
    { name = "head", parent = "chest", length = 18, min = -0.6, max = 0.5 },
    -- the ponytail: from the back of the head, hanging back and down
    { name = "pony_1", parent = "head", x = 11, y = -7, length = 9, angle = -2.3 },
    { name = "pony_2", parent = "pony_1", length = 9, min = -0.8, max = 0.8 },
    { name = "pony_3", parent = "pony_2", length = 8, min = -0.8, max = 0.8 },
    { name = "pony_4", parent = "pony_3", length = 7, min = -0.8, max = 0.8 },
  }
  for _, b in ipairs(copy(FRONT_ARM, "_f$", "_b")) do t[#t + 1] = b end
  for _, b in ipairs(FRONT_ARM) do t[#t + 1] = b end
  t[#t + 1] = { name = "rifle", parent = "fore_f", length = 30, angle = 0.6, min = -1.2, max = 0.8 }
  return t
end

function rifleman.new(x)
  local self = setmetatable({ x = x, v = 0, phase = 0, goal = x + 110, wait = 0, time = 0 }, Rifleman)
  self.y = rifleman.GROUND - HIP_HEIGHT
  local sk = ik2d.skeleton(bones())
  self.sk = sk
  sk:set_base(self.x, self.y)
  self.gun = ik2d.solver(sk:chain("upper_f", "rifle"), { aim = rifleman.AIM, iterations = 20, tolerance = 1e-4 })
  self.look = ik2d.solver(sk:chain("head", "head"), { aim = EYES, tolerance = 0.01 })
  self.hold = ik2d.solver(sk:chain("upper_b", "fore_b"), { method = "two_bone", tolerance = 0.01 })
  self.hold:set_target_bone(sk, "rifle", rifleman.GRIP.x, rifleman.GRIP.y)
  -- stiff at the root, loose at the tip
  self.pony = ik2d.spring(sk:chain("pony_1", "pony_4"),
    { stiffness = { 90, 50, 25, 12 }, damping = 2.5, gravity = { 0, 500 }, wind = { -40, 0 } })
  self.shoulders = { x = 0, y = 0, radius = 12 }
  self.colliders = { self.shoulders }
  self.target = { x = x + 100, y = self.y - 60 }
  self.arms = ik2d.behaviour.new({ gun = self.gun, look = self.look }, {
    aim = { rate = 20, target = self.target },
    lowered = { blend = 0.4, target = self.target, gun = { weight = 0 }, look = { weight = 0.5 } },
  }, { initial = "aim" })
  sk:solve()
  self.pony:reset()
  return self
end

-- Walk toward the goal, pause, walk back: starts and stops the ponytail feels.
function Rifleman:walk(dt)
  local want = 0
  if self.wait > 0 then
    self.wait = self.wait - dt
  elseif math.abs(self.goal - self.x) < 12 then
    self.goal = self.goal > 240 and 120 or 360
    self.wait = 1.2
  else
    want = self.goal > self.x and SPEED or -SPEED
  end
  local dv = math.max(-ACCEL * dt, math.min(ACCEL * dt, want - self.v))
  self.v = self.v + dv
  self.x = self.x + self.v * dt
  self.phase = self.phase + math.abs(self.v) * dt / STRIDE
  self.y = rifleman.GROUND - HIP_HEIGHT - 3 * math.abs(math.sin(self.phase))
end

-- One frame: walk, face the target, drive the arms, solve, swing the ponytail.
function Rifleman:update(dt, tx, ty)
  self.time = self.time + dt
  self:walk(dt)
  local sk = self.sk
  sk:set_base(self.x, self.y)
  sk:set_pose("spine", -math.pi / 2 + 0.12 * self.v / SPEED)    -- lean into the walk
  local flip = tx < self.x - 10 or (sk:flip() and tx < self.x + 10)
  if flip ~= sk:flip() then
    sk:set_flip(flip)
    sk:solve()
    self.pony:update(0)    -- the knot jumped to the other side: a jump, not motion
  end
  self.target.x, self.target.y = tx, ty
  self.arms:update(dt)
  sk:solve()
  -- the shoulders: a circle round the top of the chest, where it is this frame
  self.shoulders.x, self.shoulders.y = sk:point("chest", 13, 0)
  self.pony:set_colliders(self.colliders)
  self.pony:set_wind(-40 + 30 * math.sin(self.time * 1.7), 0)      -- a gusty breeze from the right
  self.pony:update(dt)
end

function Rifleman:toggle()
  self.arms:set_state(self.arms:state() == "aim" and "lowered" or "aim")
end

-- Where the point (px, py) of bone b's space is in the world, mirrored
-- with a flipped skeleton as the bone is drawn.
function Rifleman:point(b, px, py)
  return self.sk:point(b, px, py)
end

-- The barrel's ray: its origin, a point of the rifle, and its direction,
-- the rifle's turned by the aim's angle (the other way when flipped).
function Rifleman:ray()
  local aim = rifleman.AIM
  local x, y = self:point("rifle", aim.x, aim.y)
  local _, _, a = self.sk:world("rifle")
  return x, y, a + (self.sk:flip() and -aim.angle or aim.angle)
end

function Rifleman:grip()
  return self:point("rifle", rifleman.GRIP.x, rifleman.GRIP.y)
end

return rifleman
