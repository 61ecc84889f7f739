-- The rig viewer: a Spine or DragonBones character drawn from its atlas,
-- its clips played, its bones, limits and constraints shown.
--
--   love examples/viewer rig.json [atlas]   open a rig (the atlas beside it when not given)
--   love examples/viewer                    the hero; drop a .json (then its .atlas) on the window
--   love examples/viewer --test             headless checks on the hero, a screenshot,
--                                           `viewer: N passed, N failed`
--   love examples/viewer --screenshot [--gait]  2 s of the hero with the debug view
--                                           (and gait), a screenshot
--
-- Keys: up/down pick a clip, return plays it (crossfading from the one
-- playing), space pauses, +/- speed, l loop, m/n crossfade longer/shorter,
-- d debug view, a the head looks at the mouse (ik2d's aim), g the legs
-- walk by ik2d.gait, r back to the set-up, wheel zooms.  Drag a solver's
-- target (a circle in the debug view) to move it; let go to give it back.
--
-- Run from the repository, it uses the in-tree module: lua/ and
-- build/luajit/ik2d/core.so (`make LUA=luajit`), else the pure-Lua core.

local function use_repo_module()
  local root = love.filesystem.getSource() .. "/../.."
  package.path = root .. "/lua/?.lua;" .. root .. "/lua/?/init.lua;" .. package.path
  package.cpath = root .. "/build/luajit/?.so;" .. package.cpath
  return root
end
local ROOT = use_repo_module()
io.stdout:setvbuf("no")

local ik2d = require "ik2d"
local ikdraw = require "ik2d.love"
local debug_view = require "debug_view"
local walker = require "walker"

local g = love.graphics
local HERO = ROOT .. "/examples/hero/assets/hero.json"

local view = { x = 480, y = 470, zoom = 1.8, debug = false, speed = 1, loop = true, mix = 0.25,
  paused = false, selected = 1, aim = false, gait = false }
local rig, player, clips, message, walk
local dragging             -- the solver being dragged, and its target bone's name

-- ------------------------------------------------------------------
-- loading
-- ------------------------------------------------------------------

local function atlas_beside(path)
  local guess = path:gsub("%.json$", ".atlas")
  if guess ~= path and io.open(guess, "rb") then return guess end
  guess = path:gsub("_ske%.json$", "_tex.json")
  if guess ~= path and io.open(guess, "rb") then return guess end
  return nil
end

local function open(path, atlas)
  local ok, loaded = pcall(ik2d.rig.load, path, { atlas = atlas or atlas_beside(path) })
  if not ok then
    message = tostring(loaded)
    return false
  end
  rig, message = loaded, nil
  player = ik2d.player(rig)
  clips = {}
  for name in pairs(rig.clips) do clips[#clips + 1] = name end
  table.sort(clips)
  view.selected = 1
  view.aim, view.gait, dragging = false, false, nil
  walk = walker.new(rig)
  if clips[1] then player:set(1, clips[1], view.loop) end
  return true
end

-- ------------------------------------------------------------------
-- playing
-- ------------------------------------------------------------------

local function to_world(sx, sy)
  return (sx - view.x) / view.zoom, (sy - view.y) / view.zoom
end

local function play_selected()
  local name = clips[view.selected]
  if not name then return end
  player.default_mix = view.mix
  player:set(1, name, view.loop)
end

local function update(dt)
  if not rig then return end
  if not view.paused then player:update(dt * view.speed) end
  local mx, my = to_world(love.mouse.getPosition())
  if view.gait then walk:update(dt * view.speed) end
  if dragging then dragging.solver:set_target(mx, my) end
  if view.aim then walk:aim(mx, my) end
  player:apply()
end

-- ------------------------------------------------------------------
-- drawing
-- ------------------------------------------------------------------

local function hud()
  g.setColor(1, 1, 1, 0.9)
  if message then
    g.printf(message, 12, 12, 936)
    return
  end
  local name, time = player:current(1)
  local lines = {
    ("%s   %s %.2f s   speed %.2f   loop %s   crossfade %.2f s"):format(ik2d.backend,
      name and name.name or "-", time or 0, view.speed, view.loop and "on" or "off", view.mix),
    ("debug %s (d)   aim %s (a)   gait %s (g)   up/down return: clip   drop a .json or .atlas"):format(
      view.debug and "on" or "off", view.aim and "on" or "off", view.gait and "on" or "off"),
  }
  for k, clip in ipairs(clips) do
    lines[#lines + 1] = (k == view.selected and "> " or "  ") .. clip
  end
  g.print(table.concat(lines, "\n"), 12, 12)
end

local function draw_scene()
  g.clear(0.16, 0.17, 0.2)
  g.setColor(0.3, 0.32, 0.36)
  g.rectangle("fill", 0, view.y, g.getWidth(), g.getHeight() - view.y)
  if not rig then return end
  g.push()
  g.translate(view.x, view.y)
  g.scale(view.zoom)
  g.setColor(1, 1, 1, 1)
  ikdraw.draw_rig(rig)
  if view.debug then debug_view.draw(rig, view.zoom) end
  if view.gait then walk:draw() end
  g.pop()
end

-- ------------------------------------------------------------------
-- LOVE callbacks
-- ------------------------------------------------------------------

local test_mode, shot = false, nil
for _, a in ipairs(arg) do
  test_mode = test_mode or a == "--test"
  if a == "--screenshot" then shot = { time = 0, gait = false } end
  if a == "--gait" and shot then shot.gait = true end
end

-- --screenshot: fixed steps, the debug view on, the head aimed at a
-- point, then a screenshot and quit
local function scripted(dt)
  if shot.state == "done" then return love.event.quit(0) end
  if shot.state then return end
  update(1 / 60)
  shot.time = shot.time + dt
  if shot.time >= 2 then
    shot.state = "waiting"
    g.captureScreenshot(function(image)
      image:encode("png", "ik2d-viewer-debug.png")
      print("screenshot: " .. love.filesystem.getSaveDirectory() .. "/ik2d-viewer-debug.png")
      shot.state = "done"
    end)
  end
end

local function aim_and_walk(opts)
  if opts.gait then
    view.gait = true
    walk:start()
  end
  view.aim = true
  love.mouse.setPosition(view.x + 140, view.y - 330)
end

function love.load(args)
  if test_mode then
    local autotest = require "autotest"
    autotest.start(HERO, draw_scene, open, function() return rig end,
      { view = view, update = update, hud = hud })
    love.update, love.draw = autotest.update, autotest.draw
    return
  end
  local files = {}
  for _, a in ipairs(args) do
    if not a:match("^%-%-") then files[#files + 1] = a end
  end
  open(files[1] or HERO, files[2])
  if shot then
    view.debug = true
    aim_and_walk(shot)
  end
end

function love.update(dt)
  if shot then return scripted(dt) end
  update(math.min(dt, 1 / 20))
end

function love.draw()
  draw_scene()
  hud()
end

function love.filedropped(file)
  local path = file:getFilename()
  if path:match("%.atlas$") or path:match("_tex%.json$") then
    if rig and rig.description and view.last then open(view.last, path) end
  elseif open(path) then
    view.last = path
  end
end

local KEYS = {
  up = function() view.selected = math.max(1, view.selected - 1) end,
  down = function() view.selected = math.min(#clips, view.selected + 1) end,
  ["return"] = play_selected,
  space = function() view.paused = not view.paused end,
  ["+"] = function() view.speed = view.speed * 1.25 end,
  ["="] = function() view.speed = view.speed * 1.25 end,
  ["-"] = function() view.speed = view.speed / 1.25 end,
  l = function() view.loop = not view.loop; play_selected() end,
  m = function() view.mix = view.mix + 0.05 end,
  n = function() view.mix = math.max(0, view.mix - 0.05) end,
  d = function() view.debug = not view.debug end,
  a = function()
    view.aim = not view.aim
    if not view.aim then walk:stop_aim() end
  end,
  g = function()
    view.gait = not view.gait
    if view.gait then walk:start() else walk:stop() end
  end,
  r = function() if rig then open(view.last or HERO) end end,
  escape = function() love.event.quit() end,
}

function love.keypressed(key)
  if KEYS[key] and (rig or key == "escape") then KEYS[key]() end
end

function love.wheelmoved(_, dy)
  view.zoom = math.max(0.2, math.min(8, view.zoom * (dy > 0 and 1.1 or 1 / 1.1)))
end

function love.mousepressed(sx, sy, button)
  if button ~= 1 or not rig then return end
  local found = debug_view.solver_at(rig, to_world(sx, sy))
  if found then
    dragging = found
    found.solver:clear_target_bone()
  end
end

function love.mousereleased(_, _, button)
  if button == 1 and dragging then
    debug_view.give_back(rig, dragging)
    dragging = nil
  end
end

function love.resize(w, h)
  view.x, view.y = w / 2, h * 0.87
end
