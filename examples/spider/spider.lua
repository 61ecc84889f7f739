-- The walker: a body and six two-bone legs.  ik2d.gait plants the feet
-- on the terrain's segments and steps them, a tripod at a time; the body
-- rides at a height the planted feet allow (gait:body_height()),
-- smoothed with ik2d.smooth, tilted along the ground under it.  Pure
-- logic (no love.* calls): main.lua steps and draws it.

local ik2d = require "ik2d"
local terrain = require "terrain"

local spider = {}
local Spider = {}
Spider.__index = Spider

spider.SPEED = 70            -- px per second
spider.THIGH, spider.SHIN = 46, 56
local HEIGHT = 34            -- the body above the ground, standing
local HIP_Y = 4              -- the hips below the body's centre line
local SLACK = 3              -- the body at least this far below what the legs reach

-- Front to back.  The near side has legs 1, 4 and 5 and the far side 2, 3
-- and 6, so that each tripod (1, 3, 5 and 2, 4, 6) stands on both sides.
-- hip: along the body; home: where the foot rests, HEIGHT below the body.
spider.LEGS = {
  { hip = 24, home = 84, near = true },
  { hip = 20, home = 70, near = false },
  { hip = 2, home = 26, near = false },
  { hip = -2, home = 8, near = true },
  { hip = -20, home = -60, near = true },
  { hip = -24, home = -74, near = false },
}

function spider.new(x)
  local self = setmetatable({ x = x, facing = 1, moving = 0, time = 0, steps = 0 }, Spider)
  self.chains, self.solvers = {}, {}
  local legs = {}
  for i, def in ipairs(spider.LEGS) do
    local c = ik2d.chain{ x = x, y = 0, { length = spider.THIGH, angle = -0.8 }, { length = spider.SHIN, angle = 1.6 } }
    self.chains[i] = c
    self.solvers[i] = ik2d.solver(c, { method = "two_bone", tolerance = 0.01 })
    legs[i] = { solver = self.solvers[i], home = { def.home, HEIGHT }, hip = { def.hip, HIP_Y } }
  end
  self.gait = ik2d.gait.new{
    legs = legs, ground = terrain.segments, pattern = "tripod",
    step = { trigger = 22, height = 14, duration = 0.15 },
    on_step = function() self.steps = self.steps + 1 end,
  }
  self.y = terrain.height(x) - HEIGHT
  self.angle = 0
  -- the body's height and tilt ease toward where the ground puts them
  self.ride = ik2d.smooth.new{ x = self.y, y = 0, rate = 10 }
  self:place(0)
  return self
end

-- The ground's direction under the body: from 40 px behind to 40 ahead.
local function slope(x)
  return math.atan((terrain.height(x + 40) - terrain.height(x - 40)) / 80)
end

-- Where hip (hx, hy) of the body's frame is in the world.
function Spider:to_world(hx, hy)
  local c, s = math.cos(self.angle), math.sin(self.angle)
  return self.x + hx * c - hy * s, self.y + hx * s + hy * c
end

-- The body at its x: height and tilt, the legs' bases on the hips, the
-- feet given to the legs by the gait, and the legs solved.
function Spider:place(dt)
  local g = self.gait
  local a = slope(self.x)
  local want = (terrain.height(self.x - 30) + terrain.height(self.x + 30)) / 2 - HEIGHT
  self.ride:set_goal(want, a)
  local y, tilt = self.ride:update(dt)
  self.y, self.angle = y, tilt
  -- the legs are laid out nearly the same both ways: turning round, the
  -- body faces the other way and the feet stay where they are (a flip
  -- would send every foot to the other end of the body at once)
  g:update(dt, self.x, y, tilt)
  -- never higher than the planted feet allow (a foot may just have landed
  -- down a slope): body_height is for the body's x and angle of this
  -- update, whatever its y
  y = math.max(y, g:body_height() + SLACK)
  self.ride:set_position(y, tilt)
  self.y = y
  for i, def in ipairs(spider.LEGS) do
    self.chains[i]:set_base(self:to_world(def.hip, HIP_Y))
  end
  for i = 1, #spider.LEGS do
    -- the knee up: a pole above the hip, out toward the foot
    local bx, by = self.chains[i]:base()
    local fx = g:foot(i)
    self.solvers[i]:set_pole(bx + (fx - bx) * 0.5, by - 120)
    self.solvers[i]:solve()
  end
end

-- One frame: walk by `move` (-1, 0, 1) within the screen.
function Spider:update(dt, move)
  self.time = self.time + dt
  self.moving = move
  if move ~= 0 then
    self.facing = move
    self.x = math.min(math.max(self.x + move * spider.SPEED * dt, 90), 870)
  end
  self:place(dt)
end

return spider
