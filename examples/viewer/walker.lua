-- The viewer's use of ik2d on a rig's limbs: the two-bone solvers whose
-- targets hang below their first bone are legs that ik2d.gait walks on a
-- treadmill (the body stays, the ground passes under it), and a one-bone
-- solver aims at the mouse (its target set each frame).
local ik2d = require "ik2d"

local walker = {}
walker.__index = walker

local SPEED = 70       -- the treadmill's speed, units a second

local function origin(sk, bone)
  local _, _, _, _, x, y = sk:matrix(bone)
  return x, y
end

-- the description's solvers by what they may do
local function limbs(rig)
  local legs, aims = {}, {}
  local sk = rig.skeleton
  for _, s in ipairs(rig.description.solvers or {}) do
    local solver = rig.solvers[s.name]
    if solver and s.target and s.target.bone then
      local hx, hy = origin(sk, s.bones[1])
      local tx, ty = origin(sk, s.target.bone)
      if #s.bones == 2 and ty > hy then
        legs[#legs + 1] = { solver = solver, desc = s, hx = hx, hy = hy, fx = tx, fy = ty }
      elseif #s.bones == 1 then
        aims[#aims + 1] = { solver = solver, desc = s }
      end
    end
  end
  return legs, aims
end

function walker.new(rig)
  rig:apply(nil, 0)
  local legs, aims = limbs(rig)
  return setmetatable({ rig = rig, legs = legs, aims = aims, x = 0, on = false }, walker)
end

-- a leg as ik2d.gait sees it: its targets moved by the treadmill
local function treadmill_leg(self, leg)
  local proxy = {}
  function proxy.set_target(_, x, y) leg.solver:set_target(x - self.x, y) end
  function proxy.target() local x, y = leg.solver:target() return x + self.x, y end
  return proxy
end

function walker:start()
  if #self.legs < 2 then return false end
  local list, ground, hip_y = {}, -math.huge, math.huge
  for _, leg in ipairs(self.legs) do
    ground = math.max(ground, leg.fy)
    hip_y = math.min(hip_y, leg.hy)
  end
  self.hip_y = hip_y
  for _, leg in ipairs(self.legs) do
    leg.solver:clear_target_bone()
    local reach = 0
    for _, b in ipairs(leg.desc.bones) do reach = reach + self.rig.skeleton:length(b) end
    list[#list + 1] = { solver = treadmill_leg(self, leg), home = { leg.fx, ground - hip_y },
      hip = { leg.hx, leg.hy - hip_y }, reach = reach }
  end
  self.gait = ik2d.gait.new { legs = list, ground = { { -1e6, ground, 1e6, ground } },
    step = { trigger = 18, height = 8, duration = 0.22 } }
  self.ground, self.on = ground, true
  return true
end

function walker:stop()
  for _, leg in ipairs(self.legs) do
    local t = leg.desc.target
    leg.solver:set_target_bone(self.rig.skeleton, t.bone, t.x or 0, t.y or 0)
  end
  self.on = false
end

function walker:update(dt)
  if not self.on then return end
  self.x = self.x + SPEED * dt
  self.gait:update(dt, self.x, self.hip_y)
end

-- the treadmill's marks, in world units
function walker:draw()
  local g = love.graphics
  g.setColor(1, 1, 1, 0.35)
  for k = -8, 8 do
    local x = k * 40 - self.x % 40
    g.line(x, self.ground, x - 10, self.ground + 12)
  end
end

function walker:aim(x, y)
  for _, a in ipairs(self.aims) do
    a.solver:clear_target_bone()
    a.solver:set_target(x, y)
  end
end

function walker:stop_aim()
  for _, a in ipairs(self.aims) do
    local t = a.desc.target
    a.solver:set_target_bone(self.rig.skeleton, t.bone, t.x or 0, t.y or 0)
  end
end

return walker
