-- The character: one ik2d skeleton (a torso, two arms and two legs) with
-- a solver on each limb's chain, solved in one call, driven by
-- ik2d.behaviour (arms, torso) and a small foot planner (legs: the feet
-- flat on the ground by a tip angle, the knees forward by a pole).
-- Pure logic (no love.* calls): the game, the test and the showcase
-- all step it with their own dt.

local ik2d = require "ik2d"
local behaviour = require "ik2d.behaviour"
local blend = require "ik2d.blend"
local feet = require "feet"

local pi, sin, cos, exp = math.pi, math.sin, math.cos, math.exp
local abs, max, min = math.abs, math.max, math.min

local character = {}
local Character = {}
Character.__index = Character

character.HIP_HEIGHT = 76     -- hip above the ground, standing
character.CROUCH = 38         -- how far the hip drops to pick something up
character.WALK_SPEED = 150    -- px per second
character.ELBOW_REST = -0.35  -- forearm rest angle (bent forward)

local function smooth(u)
  if u <= 0 then return 0 elseif u >= 1 then return 1 end
  return u * u * (3 - 2 * u)
end

local function lerp(a, b, u) return a + (b - a) * u end

local function dist(x1, y1, x2, y2)
  return ((x2 - x1) ^ 2 + (y2 - y1) ^ 2) ^ 0.5
end

-- ------------------------------------------------------------------
-- Rig
-- ------------------------------------------------------------------

local LEG_OPTIONS = { method = "ccd", iterations = 16, tolerance = 0.05, weight = 1 }

local function new_rig(self, x, y)
  -- angles: y points down, so -pi/2 is up; positive turns clockwise on
  -- screen.  Facing right, "forward" is +x.  The base is the hip, the
  -- torso goes up from it; the shoulders and the pelvis are pivots turned
  -- half round, so that an arm's or a leg's angles are "down the limb".
  -- A foot rests a quarter turn from its shin, pointing forward.  The
  -- knees' limits allow bending either way: their poles bend them forward.
  local elbow = character.ELBOW_REST
  self.skeleton = ik2d.skeleton{ x = x, y = y, angle = -pi / 2,
    { name = "belly", length = 30, angle = 0.04, min = -0.3, max = 0.95 },
    { name = "chest", parent = "belly", length = 28, angle = 0, min = -0.25, max = 0.6 },
    { name = "shoulder_back", parent = "chest", length = 0, angle = pi },
    { name = "arm_back", parent = "shoulder_back", length = 34, min = -3.0, max = 1.2 },
    { name = "forearm_back", parent = "arm_back", length = 32, angle = elbow, min = -2.1, max = 0.35 },
    { name = "shoulder_front", parent = "chest", length = 0, angle = pi },
    { name = "arm_front", parent = "shoulder_front", length = 34, min = -3.0, max = 1.2 },
    { name = "forearm_front", parent = "arm_front", length = 32, angle = elbow, min = -2.1, max = 0.35 },
    { name = "pelvis", length = 0, angle = pi },
    { name = "thigh_back", parent = "pelvis", length = 40, angle = -0.2, min = -1.7, max = 0.9 },
    { name = "shin_back", parent = "thigh_back", length = 38, angle = 0.45, min = -2.2, max = 2.1 },
    { name = "foot_back", parent = "shin_back", length = feet.FOOT, angle = -pi / 2, min = -1.6, max = 1.0 },
    { name = "thigh_front", parent = "pelvis", length = 40, angle = -0.2, min = -1.7, max = 0.9 },
    { name = "shin_front", parent = "thigh_front", length = 38, angle = 0.45, min = -2.2, max = 2.1 },
    { name = "foot_front", parent = "shin_front", length = feet.FOOT, angle = -pi / 2, min = -1.6, max = 1.0 },
  }
  -- each limb a chain over its bones
  local sk = self.skeleton
  self.torso = sk:chain("belly", "chest")
  self.arm_back, self.arm_front = sk:chain("arm_back", "forearm_back"), sk:chain("arm_front", "forearm_front")
  self.leg_back, self.leg_front = sk:chain("thigh_back", "foot_back"), sk:chain("thigh_front", "foot_front")

  self.solvers = {
    torso = ik2d.solver(self.torso, { iterations = 8, tolerance = 1, weight = 0 }),
    -- arms: analytic two-bone, elbows bending -1, limits kept
    arm_back = ik2d.solver(self.arm_back, { method = "two_bone", bend = -1,
      iterations = 16, tolerance = 0.5, weight = 0 }),
    arm_front = ik2d.solver(self.arm_front, { method = "two_bone", bend = -1,
      iterations = 16, tolerance = 0.5, weight = 0 }),
    -- legs (3 bones): CCD, whose exact two-joint step solves the thigh
    -- and shin for the ankle that the foot's tip angle leaves; the feet
    -- give the targets, tip angles and poles every frame (feet.lua).  A
    -- small tolerance: a planted foot is solved again whenever the hip
    -- moves it 0.05 px off its spot, not left to creep up to half a pixel.
    leg_back = ik2d.solver(self.leg_back, LEG_OPTIONS),
    leg_front = ik2d.solver(self.leg_front, LEG_OPTIONS),
  }
  -- (the skeleton solves the torso first, the limbs hanging from it after)
  self.order = { "torso", "arm_back", "arm_front", "leg_back", "leg_front" }
  -- the methods set above, for reset_methods; the limb that M switches
  self.default_methods = {}
  for _, name in ipairs(self.order) do
    self.default_methods[name] = self.solvers[name]:method()
  end
  self.selected = "arm_front"
  self.stats = {}
  for _, name in ipairs(self.order) do
    self.stats[name] = { reached = false, distance = 0, iterations = 0 }
  end
end

-- ------------------------------------------------------------------
-- Behaviours: the states each solver can be in
-- ------------------------------------------------------------------

local function new_behaviours(self, world, item)
  local mouse = function() return self.mouse_x, self.mouse_y end
  -- the back hand supports the blaster just behind the front hand
  local support = function()
    local x, y = self.arm_front:tip()
    local a = self.arm_front:world_angle(2)
    return x - cos(a) * 13, y - sin(a) * 13 + 3
  end
  -- the torso leans toward what the front hand reaches for
  local lean_item = function() return item.grip[1], item.grip[2] - 20 end

  -- idle (weight 0) keeps each target on its own animated hand, so the
  -- next state's target leaves from the hand, wherever the body went
  self.states = {
    arm_front = {
      idle = { weight = 0, blend = 0.4, target = { chain = self.arm_front } },
      reach = { weight = 1, blend = 0.25, target = mouse, rate = 14 },
      -- the hand is on the item, weight 1: take it
      pickup = { weight = 1, blend = 0.3, target = item.grip, rate = 16,
                 on_reached = function() self:grab() end },
      climb = { weight = 1, blend = 0.3, target = world.grips.front, rate = 16 },
      aim = { weight = 0.7, blend = 0.25, target = mouse, rate = 18 },
    },
    arm_back = {
      idle = { weight = 0, blend = 0.4, target = { chain = self.arm_back } },
      climb = { weight = 1, blend = 0.3, target = world.grips.back, rate = 16 },
      aim = { weight = 0.7, blend = 0.25, target = support, rate = 30 },
    },
    torso = {
      idle = { weight = 0, blend = 0.4, target = { chain = self.torso } },
      bend = { weight = 0.8, blend = 0.35, target = lean_item, rate = 10 },
      aim = { weight = 0.25, blend = 0.3, target = mouse, rate = 8 },
    },
  }
  self.behaviours = {}
  for name, states in pairs(self.states) do
    self.behaviours[name] = behaviour.new(self.solvers[name], states)
  end
end

-- ------------------------------------------------------------------
-- Construction
-- ------------------------------------------------------------------

function character.new(world, item, x)
  local self = setmetatable({}, Character)
  self.world, self.item = world, item
  self.x = x
  self.y = world.ground_at(x) - character.HIP_HEIGHT
  self.vy = 0
  self.facing = 1              -- 1 right, -1 left
  self.mode = "free"           -- free | pickup | climb | drop | fall
  self.phase, self.phase_time = nil, 0
  self.aiming = false
  self.time = 0
  self.mouse_x, self.mouse_y = x + 80, self.y - 40
  self.mouse_idle = math.huge  -- seconds since the mouse last moved
  self.recoil = 0              -- shot animation, decays
  self.crouch = blend.new(0)   -- 0..1 of CROUCH, eased
  self.walking = 0             -- -1, 0, 1 this frame
  self.events = {}             -- "grab", "climbed", ... for the HUD and the test
  new_rig(self, self.x, self.y)
  self.feet = feet.new(self, world)
  self.feet:reset()
  self:solve()                 -- limbs onto the torso: the behaviours start at the hands
  new_behaviours(self, world, item)
  return self
end

function Character:event(name)
  self.events[#self.events + 1] = { name = name, time = self.time }
end

function Character:set_mouse(x, y)
  if abs(x - self.mouse_x) + abs(y - self.mouse_y) > 0.5 then
    self.mouse_idle = 0
  end
  self.mouse_x, self.mouse_y = x, y
end

function Character:set_phase(mode, phase)
  self.mode, self.phase, self.phase_time = mode, phase, 0
end

-- The state the arms are in when nothing special happens.
function Character:free_arm_state()
  if self.aiming then return "aim" end
  if self.mouse_idle < 3 then return "reach" end
  return "idle"
end

function Character:set_arm_states(front, back, torso)
  self.behaviours.arm_front:set_state(front)
  self.behaviours.arm_back:set_state(back)
  self.behaviours.torso:set_state(torso)
end

-- ------------------------------------------------------------------
-- Actions (keys)
-- ------------------------------------------------------------------

function Character:busy()
  return self.mode ~= "free"
end

-- P: pick the item up, or drop it when holding it.
function Character:pickup()
  local item = self.item
  if self:busy() then return false end
  if item.held then
    item.held = false
    item.vy, item.spin = -160, 6 * self.facing
    self:event("drop")
    return true
  end
  if self.world.level(item.x) ~= self.world.level(self.x) then
    return false               -- not on our level
  end
  self.aiming = false
  self:set_phase("pickup", "approach")
  self:event("pickup")
  return true
end

-- C: climb the ledge (or hop down from it).
function Character:climb()
  if self:busy() then return false end
  self.aiming = false
  if self.x >= self.world.LEDGE_X then
    self:set_phase("drop", "walk")
  else
    self:set_phase("climb", "approach")
  end
  self:event("climb")
  return true
end

-- A: toggle aiming.
function Character:aim()
  if self:busy() then return false end
  self.aiming = not self.aiming
  self:event(self.aiming and "aim" or "aim off")
  return true
end

-- Space / click: shoot (only while aiming with the blaster in hand).
function Character:shoot(sparks)
  if not (self.aiming and self.item.held) then return false end
  self.recoil = 1
  local x, y = self.arm_front:tip()
  local a = self.arm_front:world_angle(2)
  self.world.spawn_spark(sparks, x + cos(a) * 22, y + sin(a) * 22, a)
  self:event("shoot")
  return true
end

-- ------------------------------------------------------------------
-- Solver methods (1-5 / Tab select a limb, M cycles its method)
-- ------------------------------------------------------------------

character.METHODS = { "ccd", "fabrik", "two_bone" }

-- The method after `method` in METHODS for a chain of `bones` bones,
-- skipping two_bone unless the chain has exactly 2 bones.
function character.next_method(method, bones)
  local methods, at = character.METHODS, 0
  for i, m in ipairs(methods) do
    if m == method then at = i end
  end
  for k = 1, #methods do
    local m = methods[(at + k - 1) % #methods + 1]
    if m ~= "two_bone" or bones == 2 then return m end
  end
  return method
end

-- The methods a chain of `bones` bones can use, in cycling order.
function character.methods_for(bones)
  local out = {}
  for _, m in ipairs(character.METHODS) do
    if m ~= "two_bone" or bones == 2 then out[#out + 1] = m end
  end
  return out
end

-- Selects a limb by name or by its index in self.order; returns true if known.
function Character:select(which)
  local name = self.order[which] or which
  if not self.solvers[name] then return false end
  self.selected = name
  return true
end

-- Selects the next limb in solve order (Tab).
function Character:select_next()
  for i, name in ipairs(self.order) do
    if name == self.selected then
      return self:select(i % #self.order + 1)
    end
  end
  return self:select(1)
end

-- Switches limb `name`'s solver to `method` in place and drops its warm
-- start (the next solve starts from the pose).  Raises like set_options
-- (two_bone on a chain that is not 2 bones) and then changes nothing.
function Character:set_method(name, method)
  local s = self.solvers[name]
  if s:method() == method then return end
  s:set_options{ method = method }
  s:forget()
end

-- M: the selected limb (or `name`) to its next method; returns the method.
function Character:cycle_method(name)
  name = name or self.selected
  local s = self.solvers[name]
  local method = character.next_method(s:method(), #s:chain())
  self:set_method(name, method)
  self:event("method " .. name .. " " .. method)
  return method
end

-- Every limb back to the method it was created with.
function Character:reset_methods()
  for _, name in ipairs(self.order) do
    self:set_method(name, self.default_methods[name])
  end
end

-- ------------------------------------------------------------------
-- Movement
-- ------------------------------------------------------------------

-- Walks toward x at walking speed; returns true once there.
function Character:walk_to(x, dt)
  local dx = x - self.x
  if abs(dx) < 1 then
    self.x = x
    self.walking = 0
    return true
  end
  local dir = dx > 0 and 1 or -1
  self.facing = dir
  self.walking = dir
  self.x = self.x + dir * min(abs(dx), character.WALK_SPEED * dt)
  return false
end

-- Free walking from input (-1, 0, 1); the ledge's wall blocks.
function Character:walk(move, dt)
  self.walking = move
  if move == 0 then return end
  local world = self.world
  local nx = self.x + move * character.WALK_SPEED * dt
  -- below the ledge, no closer to its wall than 18 px (away from it is fine)
  if move > 0 and self.x < world.LEDGE_X and nx > world.LEDGE_X - 18 then
    nx = max(self.x, world.LEDGE_X - 18)
  end
  nx = min(max(nx, 30), world.WIDTH - 30)
  self.x = nx
  if not self.aiming then self.facing = move end
end

-- The hip height for standing on the ground under x, with the crouch
-- and a small bob while stepping.
function Character:stand_y()
  return self.world.ground_at(self.x) - character.HIP_HEIGHT
    + character.CROUCH * self.crouch:value() + self.feet:bob()
end

-- ------------------------------------------------------------------
-- Modes
-- ------------------------------------------------------------------

local modes = {}

function modes.free(self, dt, input)
  self:walk(input.move or 0, dt)
  if self.aiming then self.facing = self.mouse_x >= self.x and 1 or -1 end
  local arm = self:free_arm_state()
  self:set_arm_states(arm, self.aiming and "aim" or "idle", self.aiming and "aim" or "idle")
  -- walked off the ledge: fall (more than a step's bob above the ground)
  local ground = self.world.ground_at(self.x) - character.HIP_HEIGHT
  if self.y < ground - 8 then
    self.vy = 0
    self:set_phase("fall", "air")
  else
    self.y = self:stand_y()
  end
end

function modes.fall(self, dt)
  self.vy = self.vy + self.world.GRAVITY * dt
  self.y = self.y + self.vy * dt
  local ground = self.world.ground_at(self.x) - character.HIP_HEIGHT
  if self.y >= ground then
    self.y, self.vy = ground, 0
    self.feet:reset()
    self:event("landed")
    self:set_phase("free")
  end
end

function modes.drop(self, dt)
  -- walk left off the ledge, and fall from where the hip is
  self:walk_to(self.world.LEDGE_X - 30, dt)
  if self.x < self.world.LEDGE_X then
    self.vy = 0
    self:set_phase("fall", "air")
  else
    self.y = self:stand_y()
  end
end

function modes.pickup(self, dt)
  local item = self.item
  local t = self.phase_time
  if self.phase == "approach" then
    local side = self.x <= item.x and -1 or 1
    local spot = item.x + side * 24
    if self:walk_to(spot, dt) then
      self.facing = item.x >= self.x and 1 or -1
      self:set_arm_states("pickup", "idle", "bend")
      self.crouch:to(1, 0.45)
      self.phase, self.phase_time = "reach", 0
    end
  elseif self.phase == "reach" and t > 3 then
    -- the pickup state's on_reached (Character:grab) never came
    self:event("missed")
    self:lift()
  end
  self.y = self:stand_y()
end

-- Stand up from the pickup and free the arms; the crouch blend's end
-- ends the pickup.
function Character:lift()
  self.phase, self.phase_time = "lift", 0
  self.crouch:to(0, 0.4):on_done(function() self:set_phase("free") end)
  self:set_arm_states(self:free_arm_state(), "idle", "idle")
end

-- The front hand has arrived at the item (the pickup state's on_reached:
-- weight 1, the hand within the solver's tolerance of a target within
-- that of the grip): take it.
function Character:grab()
  local item = self.item
  local x, y = self.arm_front:tip()
  item.held = true
  self.grab_distance = dist(x, y, item.grip[1], item.grip[2])
  self.grab_weight = self.solvers.arm_front:weight()
  self:event("grab")
  self:lift()
end

-- Climbing: walk to the wall, grab the edge, pull up, mantle, stand.
local PULL, MANTLE, STAND = 0.9, 0.8, 0.45

function modes.climb(self, dt)
  local w = self.world
  local t = self.phase_time
  local wall, top = w.LEDGE_X, w.LEDGE_TOP
  if self.phase == "approach" then
    self.y = self:stand_y()
    if self:walk_to(wall - 20, dt) then
      self.facing = 1
      self:set_arm_states("climb", "climb", "idle")
      self.feet:climb(true)
      self.phase, self.phase_time = "grab", 0
    end
  elseif self.phase == "grab" then
    self.y = self:stand_y()
    local b = self.behaviours
    local fx, fy = self.arm_front:tip()
    local bx, by = self.arm_back:tip()
    local held = dist(fx, fy, w.grips.front[1], w.grips.front[2]) <= 0.5
      and dist(bx, by, w.grips.back[1], w.grips.back[2]) <= 0.5
    if (held and b.arm_front:weight() == 1 and b.arm_back:weight() == 1) or t > 1.5 then
      self.hang_from_x, self.hang_from_y = self.x, self.y
      self:event("hang")
      self.phase, self.phase_time = "pull", 0
    end
  elseif self.phase == "pull" then
    local u = smooth(t / PULL)
    self.x = lerp(self.hang_from_x, wall - 12, u)
    self.y = lerp(self.hang_from_y, top + 10, u)
    if t >= PULL then self.phase, self.phase_time = "mantle", 0 end
  elseif self.phase == "mantle" then
    local u = smooth(t / MANTLE)
    -- up first, then over the edge: a quarter-circle-ish path
    self.x = lerp(wall - 12, wall + 26, smooth(t / MANTLE * 1.2 - 0.2))
    self.y = lerp(top + 10, top - character.HIP_HEIGHT + 14, u)
    if t >= MANTLE * 0.4 and self.behaviours.arm_front:state() == "climb" then
      self:set_arm_states("idle", "idle", "idle")
      self:event("release")
    end
    if t >= MANTLE then self.phase, self.phase_time = "stand", 0 end
  elseif self.phase == "stand" then
    local u = smooth(t / STAND)
    self.x = lerp(wall + 26, wall + 40, u)
    self.y = lerp(top - character.HIP_HEIGHT + 14, top - character.HIP_HEIGHT, u)
    if t >= STAND then
      self.feet:climb(false)
      self:event("climbed")
      self:set_phase("free")
    end
  end
end

-- ------------------------------------------------------------------
-- Animation (the pose the IK blends with) and solving
-- ------------------------------------------------------------------

function Character:animate(dt)
  local t = self.time
  self.recoil = self.recoil * exp(-9 * dt)
  local walking = self.walking ~= 0 or self.feet:stepping()
  local swing = walking and 0.45 * sin(t * 9) or 0.05 * sin(t * 1.7)
  local rest = character.ELBOW_REST
  -- arms swing opposite each other; the shot kicks the front arm up
  -- (negative is "up and forward" for a right-facing character)
  local sk = self.skeleton
  sk:set_pose("arm_front", swing - 0.9 * self.recoil)
  sk:set_pose("forearm_front", rest - 0.15 - 0.6 * self.recoil)
  sk:set_pose("arm_back", -swing)
  sk:set_pose("forearm_back", rest - 0.2)
  -- breathing
  sk:set_pose("belly", 0.04 + 0.025 * sin(t * 1.7))
  sk:set_pose("chest", 0.015 * sin(t * 1.7 + 0.6))
end

function Character:solve()
  local sk, flip = self.skeleton, self.facing < 0
  if sk:flip() ~= flip then sk:set_flip(flip) end
  sk:set_base(self.x, self.y, -pi / 2)
  self.feet:target_legs()
  -- every solver, the torso before the limbs hanging from it
  sk:solve()
  for _, name in ipairs(self.order) do
    local st = self.stats[name]
    st.reached, st.distance, st.iterations = self.solvers[name]:result()
  end
end

local NO_INPUT = { move = 0 }
-- the behaviours, in the order they update (made once: no garbage a frame)
local BEHAVIOUR_ORDER = { "torso", "arm_back", "arm_front" }

-- One frame.  input = { move = -1 | 0 | 1 }.
function Character:update(dt, input)
  self.time = self.time + dt
  self.phase_time = self.phase_time + dt
  self.mouse_idle = self.mouse_idle + dt
  self.crouch:update(dt)
  self.walking = 0
  modes[self.mode](self, dt, input or NO_INPUT)
  self.feet:update(dt)
  -- standing or walking, the hip no higher than both feet reach (a foot
  -- downhill or left behind lowers it): the legs never straighten
  if self.mode ~= "fall" and not self.feet.climbing then
    self.y = max(self.y, self.feet:highest_hip())
  end
  -- behaviours first: their sources read chains (the back hand follows
  -- the front hand), and set_pose shows the bare pose until the next
  -- solve, so they must read before animate() sets this frame's poses
  for _, name in ipairs(BEHAVIOUR_ORDER) do
    self.behaviours[name]:update(dt)
  end
  self:animate(dt)
  self:solve()
  -- the item rides in the front hand, along the forearm
  local item = self.item
  if item.held then
    local x, y = self.arm_front:tip()
    local a = self.arm_front:world_angle(2)
    item.x, item.y, item.angle = x + cos(a) * 6, y + sin(a) * 6, a
    item.grip[1], item.grip[2] = x, y
  end
end

-- A short description of what the character is doing.
function Character:describe()
  local s = self.mode
  if self.phase then s = s .. ": " .. self.phase end
  if self.aiming then s = s .. " (aiming)" end
  if self.item.held then s = s .. ", holding the blaster" end
  return s
end

return character
