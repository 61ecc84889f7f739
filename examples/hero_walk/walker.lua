-- The hero walking: his rig (examples/hero, a Spine 4.2 file) loaded by
-- ik2d.rig, its walk clip played by ik2d.player, and ik2d on top of the
-- clip's pose: ik2d.gait sets the rig's own leg IK targets so the feet
-- plant on uneven ground, and an aiming solver added on the near arm
-- points the hand at a target.  Pure logic (no LOVE): main.lua draws it.
--
--   local w = walker.new(ik2d, "examples/hero/assets/hero.json", 300)
--   w:update(dt, target_x, target_y)     -- each frame, then draw w.rig

local walker = {}
walker.__index = walker

walker.SPEED = 60          -- px a second
walker.ANKLE = 12          -- the ankles above the soles, standing (the rig's design)
-- How far below the highest place the legs allow the body is kept: the
-- rig's leg IK is soft (softness 2: a leg near full stretch stops short)
-- and the walk clip bobs the hip; 6 px of slack let every planted foot
-- reach its spot.
walker.SLACK = 6

--- walker.ground(x) -> the ground's height under x (y down) and its angle
function walker.ground(x)
  local y = 440 - 14 * math.sin(x / 80) - 6 * math.sin(x / 23)
  local slope = -14 / 80 * math.cos(x / 80) - 6 / 23 * math.cos(x / 23)
  return y, math.atan(slope)
end

-- where the gait puts a foot (the leg chain's tip, the ankle): the ankle
-- height above the ground
local function ankle_ground(x)
  local y, angle = walker.ground(x)
  return y - walker.ANKLE, angle
end
walker.ankle_ground = ankle_ground

--- walker.new(ik2d, path, x [, options]) -> a hero standing at x, walking
-- right; options: rig.load's (an atlas to draw with)
function walker.new(ik2d, path, x, options)
  local rig = ik2d.rig.load(path, options)
  local sk = rig.skeleton
  local player = ik2d.player(rig)
  player:set(1, "walk", true)
  -- the rig's two-bone leg IK (thigh and shin, knees forward) gets its
  -- targets from the gait instead of the clip's foot target bones; each
  -- hip 92 px above the root, at the soles
  local gait = ik2d.gait.new{
    legs = { { solver = rig.solvers.leg_front, home = { 5, -walker.ANKLE }, hip = { 0, -92 } },
             { solver = rig.solvers.leg_back, home = { -8, -walker.ANKLE }, hip = { 0, -92 } } },
    ground = ankle_ground, step = { trigger = 16, duration = 0.3 } }
  -- an aim on the near arm: the hand's ray (along the hand bone) through
  -- the target; not in the rig's order, it runs after the rig's
  -- constraints, over the clip's arm swing
  local aim = ik2d.solver(sk:chain("upper_arm_front", "hand_front"),
    { aim = { x = 0, y = 0, angle = 0 }, iterations = 20 })
  -- the elbow and the wrist stay near their set-up bend: the shoulder
  -- turns the arm, held out as one points
  local near = ik2d.constraint{ min = -0.25, max = 0.25 }
  sk:set_constraint("forearm_front", near)
  sk:set_constraint("hand_front", near)
  local self = setmetatable({ ik2d = ik2d, rig = rig, sk = sk, player = player, gait = gait, aim = aim,
    x = x, y = walker.ground(x), facing = 1, left = 120, right = 840, steps = 0, last_step = 0,
    step_order = true }, walker)
  player.on_event = function(_, event)
    if event.name == "footstep" then
      -- the clip's footsteps alternate front (1) and back (2)
      if self.steps > 0 and event.int == self.last_step then self.step_order = false end
      self.steps, self.last_step = self.steps + 1, event.int
    end
  end
  return self
end

--- w:update(dt, tx, ty): the clip moves on, the hero walks (turning at
-- the ends of his path), the gait places the feet, the arm aims at (tx,
-- ty); then the pose: the clip's, the rig's constraints, the aim
function walker:update(dt, tx, ty)
  self.player:update(dt)
  local x = self.x + self.facing * walker.SPEED * dt
  if (self.facing > 0 and x > self.right) or (self.facing < 0 and x < self.left) then
    self.facing = -self.facing
    self.sk:set_flip(self.facing < 0)
  end
  self.x = x
  -- the root (between the soles) on the ground under the hips, no higher
  -- than the legs allow
  local y = (walker.ground(x + 6) + walker.ground(x - 6)) / 2
  self.gait:update(dt, x, y, 0, self.facing < 0)
  y = math.max(y, self.gait:body_height() + walker.SLACK)
  self.y = y
  self.sk:set_base(x, y)
  self.aim:set_target(tx, ty)
  self.player:apply()
end

return walker
