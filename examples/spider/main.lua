-- ik2d.gait example: a six-legged walker on uneven ground.
--
--   love examples/spider                 play (arrows walk; idle, it walks by itself)
--   love examples/spider --screenshot    a few seconds of walking, then a screenshot
--   love examples/spider --test          40 s of walking with checks, a screenshot,
--                                        `spider: N passed, N failed`
--
-- Run from the repository, it uses the in-tree module: lua/ for the Lua
-- files and build/luajit/ for ik2d/core.so (`make LUA=luajit`), else the
-- pure-Lua core.

local function use_repo_module()
  local root = love.filesystem.getSource() .. "/../.."
  package.path = root .. "/lua/?.lua;" .. root .. "/lua/?/init.lua;" .. package.path
  package.cpath = root .. "/build/luajit/?.so;" .. package.cpath
end
use_repo_module()
io.stdout:setvbuf("no")

local ik2d = require "ik2d"
local spider = require "spider"
local terrain = require "terrain"

local g = love.graphics
local DT = 1 / 60
local SCREENSHOT = "ik2d-spider.png"

local mode = "play"               -- play | screenshot | test
local walker, ground_mesh
local autopilot = { target = 800, wait = 0 }
local idle = math.huge            -- seconds since an arrow was last down
local run = { time = 0, state = "running", passed = 0, failed = 0 }

-- ------------------------------------------------------------------
-- Walking by itself: to one side, a pause (the feet settle), back
-- ------------------------------------------------------------------

local function autopilot_move(dt)
  if autopilot.wait > 0 then
    autopilot.wait = autopilot.wait - dt
    return 0
  end
  local dx = autopilot.target - walker.x
  if math.abs(dx) < 2 then
    autopilot.target = autopilot.target > 480 and 160 or 800
    autopilot.wait = 1.5
    return 0
  end
  return dx > 0 and 1 or -1
end

-- ------------------------------------------------------------------
-- The checks of --test, every frame
-- ------------------------------------------------------------------

local watch = { moved = 0, off_ground = 0, reach = 0, both = 0, planted = 0, paused_planted = 0, pauses = 0,
                prev = {} }
local TRIPOD = { 1, 2, 1, 2, 1, 2 }

local function check_frame()
  local gt = walker.gait
  local air = { false, false }
  for i = 1, #spider.LEGS do
    local x, y, state = gt:foot(i)
    local p = watch.prev[i] or {}
    watch.prev[i] = p
    if state == "planted" then
      watch.planted = watch.planted + 1
      if p.state == "planted" and (p.x ~= x or p.y ~= y) then watch.moved = watch.moved + 1 end
      watch.off_ground = math.max(watch.off_ground, math.abs(y - terrain.height(x)))
      local tx, ty = walker.chains[i]:tip()
      watch.reach = math.max(watch.reach, math.sqrt((tx - x) ^ 2 + (ty - y) ^ 2))
    else
      air[TRIPOD[i]] = true
    end
    p.x, p.y, p.state = x, y, state
  end
  if air[1] and air[2] then watch.both = watch.both + 1 end
  -- at the end of each pause every foot is planted
  if autopilot.wait > 0 and autopilot.wait <= DT then
    watch.pauses = watch.pauses + 1
    if not (air[1] or air[2]) then watch.paused_planted = watch.paused_planted + 1 end
  end
end

local function check(name, ok, detail)
  if ok then run.passed = run.passed + 1 else run.failed = run.failed + 1 end
  print(("%s %s%s"):format(ok and "ok  " or "FAIL", name, detail and ("  (" .. detail .. ")") or ""))
end

local function report()
  check("planted feet never move (bit for bit)", watch.moved == 0, ("%d foot-frames planted"):format(watch.planted))
  check("planted feet lie on the ground (1e-9 px)", watch.off_ground <= 1e-9,
    ("worst %.3g px"):format(watch.off_ground))
  check("the legs reach their planted feet (0.05 px)", watch.reach <= 0.05, ("worst %.4f px"):format(watch.reach))
  check("one tripod in the air at a time", watch.both == 0)
  check("it walks: more than 150 steps", walker.gait and walker.steps > 150, walker.steps .. " steps")
  check("every pause ends with all six feet planted", watch.pauses >= 3 and watch.paused_planted == watch.pauses,
    ("%d of %d pauses"):format(watch.paused_planted, watch.pauses))
  print(("spider: %d passed, %d failed"):format(run.passed, run.failed))
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
      print("spider: error: " .. tostring(msg) .. "\n" .. debug.traceback())
      print("spider: 0 passed, 1 failed")
      return function() return 1 end
    end
  end
  walker = spider.new(480)
  -- the ground: a strip from the polyline down to the bottom of the screen
  local verts = {}
  for _, p in ipairs(terrain.points) do
    verts[#verts + 1] = { p[1], p[2] }
    verts[#verts + 1] = { p[1], 540 }
  end
  ground_mesh = g.newMesh(verts, "strip", "static")
end

local function step(dt, move)
  walker:update(dt, move)
  if mode == "test" then check_frame() end
end

local function capture()
  run.state = "waiting"
  g.captureScreenshot(function(image)
    image:encode("png", SCREENSHOT)
    print("screenshot: " .. love.filesystem.getSaveDirectory() .. "/" .. SCREENSHOT)
    run.state = "done"
  end)
end

function love.update(dt)
  if mode == "play" then
    dt = math.min(dt, 1 / 20)
    local move = 0
    if love.keyboard.isDown("right") then move = move + 1 end
    if love.keyboard.isDown("left") then move = move - 1 end
    idle = move ~= 0 and 0 or idle + dt
    if idle > 2 then move = autopilot_move(dt) end
    return step(dt, move)
  end
  -- scripted: a fixed dt, a few steps per drawn frame
  if run.state == "running" then
    for _ = 1, 4 do
      step(DT, autopilot_move(DT))
      run.time = run.time + DT
      local stop = mode == "test" and 40 or 1.8
      if run.time >= stop then
        if mode == "test" then report() end
        return capture()
      end
    end
  elseif run.state == "done" then
    run.state = "quit"
    love.event.quit(run.failed == 0 and 0 or 1)
  end
end

-- ------------------------------------------------------------------
-- Drawing
-- ------------------------------------------------------------------

local function draw_leg(i, near)
  local c = walker.chains[i]
  local hx, hy = c:joint(1)
  local kx, ky = c:joint(2)
  local fx, fy = c:joint(3)
  local shade = near and 1 or 0.62
  g.setLineWidth(near and 6 or 5)
  g.setColor(0.20 * shade, 0.16 * shade, 0.13 * shade)
  g.line(hx, hy, kx, ky, fx, fy)
  g.setColor(0.55 * shade, 0.42 * shade, 0.30 * shade)
  g.circle("fill", kx, ky, near and 4 or 3)
  local _, _, state = walker.gait:foot(i)
  if state == "planted" then g.setColor(0.35 * shade, 0.75 * shade, 0.35 * shade)
  else g.setColor(0.95 * shade, 0.6 * shade, 0.2 * shade) end
  g.circle("fill", fx, fy, near and 3.5 or 3)
end

local function draw_body()
  local facing = walker.facing
  g.push()
  g.translate(walker.x, walker.y)
  g.rotate(walker.angle)
  g.scale(facing, 1)
  g.setColor(0.30, 0.22, 0.18)
  g.ellipse("fill", -6, 0, 34, 15)
  g.setColor(0.42, 0.31, 0.24)
  g.ellipse("fill", 30, -2, 13, 11)
  g.setColor(0.95, 0.85, 0.4)
  g.circle("fill", 37, -5, 3)
  g.circle("fill", 33, -7, 2.5)
  g.setColor(0.22, 0.16, 0.13)
  for k = -2, 1 do g.ellipse("fill", -6 + k * 12, -9, 4, 2.5) end
  g.pop()
end

function love.draw()
  g.clear(0.55, 0.72, 0.88)
  g.setColor(0.45, 0.62, 0.80)
  g.rectangle("fill", 0, 300, 960, 240)
  g.setColor(0.42, 0.33, 0.24)
  g.draw(ground_mesh)
  g.setColor(0.38, 0.55, 0.26)
  g.setLineWidth(4)
  local line = {}
  for _, p in ipairs(terrain.points) do
    line[#line + 1], line[#line + 2] = p[1], p[2]
  end
  g.line(line)
  for i, def in ipairs(spider.LEGS) do
    if not def.near then draw_leg(i, false) end
  end
  draw_body()
  for i, def in ipairs(spider.LEGS) do
    if def.near then draw_leg(i, true) end
  end
  g.setColor(1, 1, 1)
  g.print(("ik2d.gait, tripod (legs 1 3 5 | 2 4 6), %d steps; backend %s"):format(walker.steps, ik2d.backend),
    12, 10)
  g.print("arrows walk; left alone, it walks by itself. Green feet are planted, orange ones stepping.", 12, 28)
end

function love.keypressed(key)
  if key == "escape" then love.event.quit() end
end
