-- The headband's tails: a chain of their own on an ik2d.spring, tied at
-- the back of the head.  The game poses them (hanging back, lifted by the
-- walk, fluttering while it lasts); the spring makes them lag behind what
-- the head does, swing and settle, with gravity and inside their limits.
-- Pure logic but draw(): the game updates it after the character.

local ik2d = require "ik2d"

local pi, sin, cos, exp = math.pi, math.sin, math.cos, math.exp

local headband = {}
local Headband = {}
Headband.__index = Headband

headband.LENGTHS = { 9, 8, 7, 6 }
headband.LIMIT = 0.8            -- each tail joint bends at most this far
headband.GRAVITY = 500          -- px/s^2, down

-- Where the knot sits on the character and which way "back" points: the
-- head's centre is 21 px up the neck from the torso's tip; the knot is on
-- its back, a little above the centre.  Returns x, y and the base angle
-- in the right-facing frame the chain is authored in (flip mirrors it).
local function knot(hero)
  local torso = hero.torso
  local x, y = torso:tip()
  local up = torso:world_angle(2)          -- on screen, mirrored when flipped
  local hx, hy = x + cos(up) * 21, y + sin(up) * 21
  local f = hero.facing
  -- "up" in the right-facing frame, then "back" is a quarter turn
  -- counterclockwise from it (y points down)
  local authored_up = f > 0 and up or pi - up
  return hx - f * 12, hy - 5, authored_up - pi / 2
end

function headband.new(hero)
  local self = setmetatable({ hero = hero, speed = 0 }, Headband)
  local x, y, angle = knot(hero)
  local bones = { x = x, y = y, angle = angle, flip = hero.facing < 0 }
  for i, length in ipairs(headband.LENGTHS) do
    bones[i] = { length = length, angle = 0 }
    if i > 1 then bones[i].min, bones[i].max = -headband.LIMIT, headband.LIMIT end
  end
  self.chain = ik2d.chain(bones)
  self.spring = ik2d.spring(self.chain, { stiffness = 60, damping = 3,
                                          gravity = { 0, headband.GRAVITY } })
  self:pose(0)
  self.spring:reset()
  return self
end

-- The pose the spring pulls toward: drooping back, lifted and fluttering
-- with the walking speed (0..1, smoothed).
function Headband:pose(time)
  local lift, flutter = self.speed, self.speed * sin(time * 11)
  local chain = self.chain
  -- negative turns counterclockwise on screen: from "back" toward down
  chain:set_pose(1, -0.55 + 0.45 * lift + 0.1 * flutter)
  for i = 2, #chain do chain:set_pose(i, -0.18 + 0.12 * lift + 0.2 * flutter) end
end

-- After the character's update: the knot goes where the head is, the
-- pose follows the walk, the spring swings.
function Headband:update(dt)
  local hero = self.hero
  local walking = (hero.walking ~= 0 or hero.feet:stepping()) and 1 or 0
  self.speed = self.speed + (walking - self.speed) * (1 - exp(-6 * dt))
  local x, y, angle = knot(hero)
  local flip = hero.facing < 0
  if self.chain:flip() ~= flip then
    -- turning round puts the knot on the head's other side at once: a
    -- jump, which an update of no time takes as one (the tails swing on,
    -- not jolted by it)
    self.chain:set_flip(flip)
    self.chain:set_base(x, y, angle)
    self.spring:update(0)
  end
  self.chain:set_base(x, y, angle)
  self:pose(hero.time)
  self.spring:update(dt)
end

-- Two ribbons, the back one darker and shorter, narrowing to the ends.
function Headband:draw()
  local g = love.graphics
  local joints = self.chain:joints(self.joints)
  self.joints = joints
  for pass = 1, 2 do
    local width = pass == 1 and 6 or 4.5
    g.setColor(pass == 1 and 0.55 or 0.85, pass == 1 and 0.1 or 0.2, pass == 1 and 0.12 or 0.2)
    for k = 1, #joints - 2, 2 do
      g.setLineWidth(width * (1 - 0.15 * (k - 1) / 2))
      g.line(joints[k], joints[k + 1], joints[k + 2], joints[k + 3])
    end
  end
  g.setLineWidth(1)
end

return headband
