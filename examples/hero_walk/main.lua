-- ik2d example: the hero (examples/hero, a Spine 4.2 rig made by the
-- project) walks his own walk clip through ik2d.player over uneven
-- ground; ik2d.gait plants his feet (the rig's leg IK, its targets set by
-- the gait) and an aiming solver on his near arm points his hand at the
-- mouse.  Drawn from the atlas by ik2d.love.draw_rig when this ik2d has
-- it, else as bones.
--
--   love examples/hero_walk                 play (the mouse aims)
--   love examples/hero_walk --screenshot    a few seconds scripted, then a screenshot
--   love examples/hero_walk --test          12 s scripted with checks, a screenshot,
--                                           `hero_walk: N passed, N failed`
--
-- Run from the repository, it uses the in-tree module: lua/ for the Lua
-- files and build/luajit/ for ik2d/core.so (`make LUA=luajit`).

local ROOT = love.filesystem.getSource() .. "/../.."
package.path = ROOT .. "/lua/?.lua;" .. ROOT .. "/lua/?/init.lua;" .. package.path
package.cpath = ROOT .. "/build/luajit/?.so;" .. package.cpath
io.stdout:setvbuf("no")

local ik2d = require "ik2d"
local ikdraw = require "ik2d.love"
local walker = require "walker"

local g = love.graphics
local DT = 1 / 60
local SCREENSHOT = "ik2d-hero-walk.png"
local HERO = ROOT .. "/examples/hero/assets/hero"

local mode = "play"               -- play | screenshot | test
local hero
local run = { time = 0, state = "running", passed = 0, failed = 0 }
local draw_rig = ikdraw.draw_rig

-- the scripted target: once round the hero's shoulder (about 150 px above
-- the root) at 100 to 160 px from it, out of the arm's own reach (66 px)
local function scripted_target(t)
  local angle, r = -0.5 * t, 130 + 30 * math.sin(1.3 * t)
  return hero.x + r * math.cos(angle), hero.y - 150 + r * math.sin(angle)
end

-- ------------------------------------------------------------------
-- The checks of --test, every frame
-- ------------------------------------------------------------------

local watch = { frames = 0, planted = 0, foot = 0, ground = 0, aimed = 0, aim = 0, finite = true,
                turns = 0, facing = 1 }
local LEGS = { "shin_front", "shin_back" }

local function check_frame(tx, ty)
  local sk, w = hero.sk, watch
  w.frames = w.frames + 1
  -- a planted foot (the leg chain's tip: the ankle) on its spot, and its
  -- spot the ankle's height above the ground
  for i, shin in ipairs(LEGS) do
    local fx, fy, state = hero.gait:foot(i)
    if state == "planted" then
      local ax, ay = sk:tip(shin)
      w.planted = w.planted + 1
      w.foot = math.max(w.foot, math.sqrt((ax - fx) ^ 2 + (ay - fy) ^ 2))
      w.ground = math.max(w.ground, math.abs(ay - walker.ankle_ground(ax)))
    end
  end
  -- the hand's direction (its bone's x axis) toward the target
  local a, _, c, _, hx, hy = sk:matrix("hand_front")
  local off = math.atan2(ty - hy, tx - hx) - math.atan2(c, a)
  off = math.abs((off + math.pi) % (2 * math.pi) - math.pi)
  w.aimed = w.aimed + 1
  w.aim = math.max(w.aim, off)
  for b = 1, #sk do
    for _, v in ipairs({ sk:matrix(b) }) do
      if v ~= v or v == math.huge or v == -math.huge then w.finite = false end
    end
  end
  if hero.facing ~= w.facing then w.turns, w.facing = w.turns + 1, hero.facing end
end

local function check(name, ok, detail)
  if ok then run.passed = run.passed + 1 else run.failed = run.failed + 1 end
  print(("%s %s%s"):format(ok and "ok  " or "FAIL", name, detail and ("  (" .. detail .. ")") or ""))
end

local function report()
  local w = watch
  check("planted ankles on their spots (1 px)", w.planted > 0 and w.foot <= 1,
    ("worst %.3g px over %d foot-frames"):format(w.foot, w.planted))
  check("planted ankles at the ankle's height above the uneven ground (1 px)", w.ground <= 1,
    ("worst %.3g px"):format(w.ground))
  check("the hand points at the target (0.5 degree)", w.aim <= math.rad(0.5),
    ("worst %.3g degrees over %d frames"):format(math.deg(w.aim), w.aimed))
  check("every bone's matrix finite", w.finite)
  local want = 2 * run.time
  check("the walk clip's footstep events, two a loop, front and back in turn",
    math.abs(hero.steps - want) <= 1 and hero.step_order, ("%d in %.1f s"):format(hero.steps, run.time))
  check("he turns round and back", w.turns == 2, ("%d turns"):format(w.turns))
  print(("hero_walk: %d passed, %d failed"):format(run.passed, run.failed))
end

-- ------------------------------------------------------------------
-- LOVE
-- ------------------------------------------------------------------

function love.load(args)
  for _, a in ipairs(args or {}) do
    if a == "--test" then mode = "test" elseif a == "--screenshot" then mode = "screenshot" end
  end
  if mode ~= "play" then
    love.errorhandler = function(msg)
      print("hero_walk: error: " .. tostring(msg) .. "\n" .. debug.traceback())
      print("hero_walk: 0 passed, 1 failed")
      return function() return 1 end
    end
  end
  local options = draw_rig and { atlas = HERO .. ".atlas" } or nil
  hero = walker.new(ik2d, HERO .. ".json", 300, options)
  if mode == "test" then hero.left, hero.right = 240, 620 end
  print(("hero_walk: drawn %s"):format(draw_rig and "from the atlas (ik2d.love.draw_rig)" or "as bones"))
end

local function capture()
  run.state = "waiting"
  g.captureScreenshot(function(image)
    image:encode("png", SCREENSHOT)
    print("screenshot: " .. love.filesystem.getSaveDirectory() .. "/" .. SCREENSHOT)
    run.state = "done"
  end)
end

local target = { 0, 0 }

function love.update(dt)
  if mode == "play" then
    target[1], target[2] = love.mouse.getPosition()
    return hero:update(math.min(dt, 1 / 20), target[1], target[2])
  end
  -- scripted: a fixed dt, a few steps per drawn frame
  if run.state == "running" then
    for _ = 1, 4 do
      target[1], target[2] = scripted_target(run.time)
      hero:update(DT, target[1], target[2])
      if mode == "test" then check_frame(target[1], target[2]) end
      run.time = run.time + DT
      local stop = mode == "test" and 12 or 3
      if run.time >= stop - 1e-9 then
        if mode == "test" then report() end
        return capture()
      end
    end
  elseif run.state == "done" then
    run.state = "quit"
    love.event.quit(run.failed == 0 and 0 or 1)
  end
end

function love.keypressed(key)
  if key == "escape" then love.event.quit() end
end

-- ------------------------------------------------------------------
-- Drawing
-- ------------------------------------------------------------------

local function draw_ground()
  local points = {}
  for x = 0, 960, 8 do
    points[#points + 1] = x
    points[#points + 1] = (walker.ground(x))
  end
  g.setColor(0.33, 0.45, 0.3)
  for k = 1, #points - 2, 2 do
    local x1, y1, x2, y2 = points[k], points[k + 1], points[k + 2], points[k + 3]
    g.polygon("fill", x1, y1, x2, y2, x2, 540, x1, 540)
  end
  g.setColor(0.2, 0.3, 0.18)
  g.setLineWidth(2)
  g.line(points)
end

local function draw_hero()
  if draw_rig then
    g.setColor(1, 1, 1)
    draw_rig(hero.rig)
    return
  end
  ikdraw.draw_skeleton(hero.sk, { line_width = 4, bone_color = { 0.25, 0.22, 0.3 },
    joint_color = { 0.9, 0.7, 0.3 }, joint_radius = 3, tip_color = { 0.9, 0.7, 0.3 }, tip_radius = 2 })
end

local function draw_feet()
  for i = 1, 2 do
    local fx, fy, state = hero.gait:foot(i)
    g.setColor(state == "planted" and { 0.2, 0.6, 1 } or { 1, 0.5, 0.2 })
    g.circle("line", fx, fy, 5)
  end
end

local function draw_target()
  local tx, ty = target[1], target[2]
  g.setColor(0.9, 0.2, 0.2)
  g.setLineWidth(2)
  g.circle("line", tx, ty, 8)
  g.line(tx - 12, ty, tx + 12, ty)
  g.line(tx, ty - 12, tx, ty + 12)
  -- the hand's ray
  local a, _, c, _, hx, hy = hero.sk:matrix("hand_front")
  local len = math.sqrt(a * a + c * c)
  g.setColor(0.9, 0.2, 0.2, 0.5)
  g.setLineWidth(1)
  g.line(hx, hy, hx + 400 * a / len, hy + 400 * c / len)
end

function love.draw()
  g.clear(0.80, 0.86, 0.92)
  draw_ground()
  draw_hero()
  draw_feet()
  draw_target()
  g.setColor(0.1, 0.1, 0.1)
  g.print(("walk clip through ik2d.player; ik2d.gait plants the feet; the near arm aims at the %s;"
    .. " footsteps %d"):format(mode == "play" and "mouse" or "target", hero.steps), 10, 10)
end
