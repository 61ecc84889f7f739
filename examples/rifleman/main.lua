-- ik2d example: a rifleman.  The front arm aims the rifle's barrel at the
-- mouse (solver option `aim`), the back hand holds the rifle's grip
-- (`set_target_bone`), the far arm a copy of the near one (a side view),
-- the head looks along, ik2d.behaviour drives gun and head together, and a
-- ponytail (`ik2d.spring`) swings as he walks, in the wind, off his shoulders.
--
--   love examples/rifleman                 play (the mouse aims, space lowers or raises the rifle)
--   love examples/rifleman --screenshot    a few seconds of scripted aiming, then a screenshot
--   love examples/rifleman --test          10 s of scripted aiming and walking with checks,
--                                          a screenshot, `rifleman: N passed, N failed`
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
local rifleman = require "rifleman"

local g = love.graphics
local DT = 1 / 60
local SCREENSHOT = "ik2d-rifleman.png"
local ZOOM = 2                    -- the world is drawn twice its size: 480 x 270

local mode = "play"               -- play | screenshot | test
local man
local run = { time = 0, frame = 0, state = "running", passed = 0, failed = 0 }
local LOWER, RAISE = 230, 280     -- scripted frames where the rifle is lowered and raised again

-- ------------------------------------------------------------------
-- The scripted target: round the shoulder, ahead and up or down, once
-- over the head to the other side and back (he turns round)
-- ------------------------------------------------------------------

local function smoothstep(a, b, t)
  local u = math.max(0, math.min(1, (t - a) / (b - a)))
  return u * u * (3 - 2 * u)
end

local function scripted_target(t)
  local turn = smoothstep(5.5, 6.5, t) - smoothstep(8, 9, t)
  local angle = -0.3 + 0.5 * math.sin(0.9 * t) - (math.pi - 0.6) * turn
  local r = 100 + 25 * math.sin(1.3 * t)
  return man.x + r * math.cos(angle), man.y - 58 + r * math.sin(angle)
end

-- ------------------------------------------------------------------
-- The checks of --test, every frame
-- ------------------------------------------------------------------

local watch = { frames = 0, full = 0, reached = 0, ray = 0, distance = 0, grip_ok = 0, grip = 0,
                finite = true, inside = 0, touch = 0, length = 0, swing = 0, flips = 0, flip = false }

-- The target's distance from the barrel's ray, from the rifle bone's
-- transform: from its line ahead of the muzzle, from the muzzle behind it.
local function ray_distance(tx, ty)
  local ox, oy, a = man:ray()
  local ux, uy = math.cos(a), math.sin(a)
  local dx, dy = tx - ox, ty - oy
  if dx * ux + dy * uy > 0 then return math.abs(ux * dy - uy * dx) end
  return math.sqrt(dx * dx + dy * dy)
end

local function check_frame()
  local sk = man.sk
  watch.frames = watch.frames + 1
  -- the barrel: where the solve says it reached, the ray passes through the target
  local reached, distance = man.gun:result()
  local mine = ray_distance(man.gun:target())
  watch.distance = math.max(watch.distance, math.abs(mine - distance))
  if man.gun:weight() == 1 then
    watch.full = watch.full + 1
    if reached then watch.reached = watch.reached + 1 end
  end
  if reached then watch.ray = math.max(watch.ray, mine) end
  -- the back hand on the grip
  local gx, gy = man:grip()
  local hx, hy = sk:tip("fore_b")
  local off = math.sqrt((hx - gx) ^ 2 + (hy - gy) ^ 2)
  watch.grip = math.max(watch.grip, off)
  if off <= 0.5 then watch.grip_ok = watch.grip_ok + 1 end
  -- the ponytail: finite, outside the shoulders, swinging
  local c = man.pony:chain()
  local o = man.shoulders
  for i = 2, #c + 1 do
    local x, y = c:joint(i)
    if not (x == x and y == y and math.abs(x) < math.huge and math.abs(y) < math.huge) then watch.finite = false end
    local d2 = (x - o.x) ^ 2 + (y - o.y) ^ 2
    if d2 < (o.radius - 1e-6) ^ 2 then watch.inside = watch.inside + 1 end
    if d2 < (o.radius + 0.5) ^ 2 then watch.touch = watch.touch + 1 end
  end
  watch.swing = math.max(watch.swing, math.abs(man.pony:velocity(#c)))
  -- every bone keeps its length
  for b = 1, #sk do
    local x, y = sk:world(b)
    local tx, ty = sk:tip(b)
    watch.length = math.max(watch.length, math.abs(math.sqrt((tx - x) ^ 2 + (ty - y) ^ 2) - sk:length(b)))
  end
  if sk:flip() ~= watch.flip then watch.flips, watch.flip = watch.flips + 1, sk:flip() end
end

local function check(name, ok, detail)
  if ok then run.passed = run.passed + 1 else run.failed = run.failed + 1 end
  print(("%s %s%s"):format(ok and "ok  " or "FAIL", name, detail and ("  (" .. detail .. ")") or ""))
end

local function report()
  local w = watch
  check("where the aimed solve reached, the barrel's ray passes through the target (1e-3 px)", w.ray <= 1e-3,
    ("worst %.3g px over %d frames reached"):format(w.ray, w.reached))
  check("the aimed solve reaches in 95% of frames at full weight", w.reached >= 0.95 * w.full,
    ("%d of %d"):format(w.reached, w.full))
  check("the solver's distance is the ray's, computed from the rifle bone (1e-6 px)", w.distance <= 1e-6,
    ("worst %.3g px"):format(w.distance))
  check("the back hand holds the grip (0.5 px) in 99% of frames", w.grip_ok >= 0.99 * w.frames,
    ("%d of %d frames, worst %.3g px"):format(w.grip_ok, w.frames, w.grip))
  check("the ponytail's joints stay finite", w.finite)
  check("no ponytail joint inside the shoulders' circle", w.inside == 0,
    ("%d joint-frames inside, %d touching it"):format(w.inside, w.touch))
  check("the ponytail swings (tip over 1 rad/s)", w.swing > 1, ("fastest %.2f rad/s"):format(w.swing))
  check("every bone keeps its length (1e-9 px)", w.length <= 1e-9, ("worst %.3g px"):format(w.length))
  check("he turns round and back", w.flips == 2, ("%d turns"):format(w.flips))
  print(("rifleman: %d passed, %d failed"):format(run.passed, run.failed))
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
      print("rifleman: error: " .. tostring(msg) .. "\n" .. debug.traceback())
      print("rifleman: 0 passed, 1 failed")
      return function() return 1 end
    end
  end
  man = rifleman.new(240)
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
    local mx, my = love.mouse.getPosition()
    return man:update(math.min(dt, 1 / 20), mx / ZOOM, my / ZOOM)
  end
  -- scripted: a fixed dt, a few steps per drawn frame
  if run.state == "running" then
    for _ = 1, 4 do
      run.frame = run.frame + 1
      if run.frame == LOWER or run.frame == RAISE then man:toggle() end
      man:update(DT, scripted_target(run.time))
      if mode == "test" then check_frame() end
      run.time = run.time + DT
      local stop = mode == "test" and 10 or 3.3
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

-- ------------------------------------------------------------------
-- Drawing
-- ------------------------------------------------------------------

local function bone_line(b, width)
  local x, y = man.sk:world(b)
  local tx, ty = man.sk:tip(b)
  g.setLineWidth(width)
  g.line(x, y, tx, ty)
  g.circle("fill", x, y, width / 2)
  g.circle("fill", tx, ty, width / 2)
end

-- a quad of rifle-space corners
local function rifle_part(x1, y1, x2, y2)
  local ax, ay = man:point("rifle", x1, y1)
  local bx, by = man:point("rifle", x2, y1)
  local cx, cy = man:point("rifle", x2, y2)
  local dx, dy = man:point("rifle", x1, y2)
  g.polygon("fill", ax, ay, bx, by, cx, cy, dx, dy)
end

local function draw_legs()
  local sk = man.sk
  local hx, hy = sk:world("hip")
  g.setLineWidth(7)
  for k = 0, 1 do
    local s = math.sin(man.phase + k * math.pi)
    local side = sk:flip() and -1 or 1
    local fx = hx + side * 14 * s
    local kx, ky = hx + side * (6 + 8 * s), hy + 25
    g.setColor(k == 0 and 0.28 or 0.2, k == 0 and 0.3 or 0.22, k == 0 and 0.22 or 0.16)
    g.line(hx, hy, kx, ky, fx, rifleman.GROUND - 2 * math.max(0, -math.cos(man.phase + k * math.pi)))
  end
end

local function draw_man()
  -- the back arm behind the body, the ponytail behind the head
  g.setColor(0.55, 0.42, 0.33)
  bone_line("upper_b", 6)
  bone_line("fore_b", 5)
  g.setColor(0.45, 0.28, 0.12)
  for i = 1, 4 do bone_line("pony_" .. i, 6 - i) end
  draw_legs()
  g.setColor(0.33, 0.38, 0.26)
  bone_line("spine", 16)
  bone_line("chest", 18)
  local x, y = man:point("head", 10, 0)
  g.setColor(0.85, 0.68, 0.52)
  g.circle("fill", x, y, 10)
  x, y = man:point("head", 11, 6)
  g.setColor(0.1, 0.1, 0.1)
  g.circle("fill", x, y, 1.6)
  -- the rifle: stock, body, grip, barrel; then the front arm over it
  g.setColor(0.22, 0.2, 0.18)
  rifle_part(-34, -2, 20, 3)
  rifle_part(-20, 3, -16, 8)
  rifle_part(20, -2, 30, 0)
  g.setColor(0.85, 0.68, 0.52)
  bone_line("upper_f", 6)
  bone_line("fore_f", 5)
end

local function draw_overlay()
  -- the barrel's ray, thin, to well past the target
  local ox, oy, a = man:ray()
  g.setLineWidth(0.6)
  g.setColor(1, 0.3, 0.2, 0.8)
  g.line(ox, oy, ox + 700 * math.cos(a), oy + 700 * math.sin(a))
  -- the target as a crosshair
  local tx, ty = man.gun:target()
  g.setColor(1, 0.95, 0.3)
  g.circle("line", tx, ty, 9)
  g.line(tx - 14, ty, tx - 4, ty)
  g.line(tx + 4, ty, tx + 14, ty)
  g.line(tx, ty - 14, tx, ty - 4)
  g.line(tx, ty + 4, tx, ty + 14)
  -- the grip point and the shoulders' collider
  local gx, gy = man:grip()
  g.setColor(0.3, 0.9, 1)
  g.circle("line", gx, gy, 3)
  local o = man.shoulders
  g.circle("line", o.x, o.y, o.radius)
  -- the ponytail's joints
  local c = man.pony:chain()
  for i = 2, #c + 1 do
    local x, y = c:joint(i)
    g.circle("fill", x, y, 1.5)
  end
end

local function draw_hud()
  g.setColor(1, 1, 1)
  local wx = man.pony:wind()
  g.print(("ik2d rifleman; backend %s. Red: the barrel's ray (solver aim); yellow: the target; cyan: the grip the "
    .. "back hand holds (set_target_bone)"):format(ik2d.backend), 12, 10)
  g.print(("and the shoulders' circle the ponytail (ik2d.spring, wind %.0f px/s) stays out of. Far arm: "
    .. "the near one's copy. State: %s (ik2d.behaviour over gun and head)"):format(wx, man.arms:state()), 12, 28)
  g.print(mode == "play" and "the mouse aims; space lowers or raises the rifle"
    or ("scripted, %.1f s"):format(run.time), 12, 46)
end

function love.draw()
  g.clear(0.58, 0.70, 0.80)
  g.setColor(0.40, 0.46, 0.30)
  g.push()
  g.scale(ZOOM)
  g.rectangle("fill", 0, rifleman.GROUND, 480, 270 - rifleman.GROUND)
  draw_man()
  draw_overlay()
  g.pop()
  draw_hud()
end

function love.keypressed(key)
  if key == "escape" then love.event.quit() end
  if key == "space" then man:toggle() end
end
