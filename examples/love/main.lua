-- ik2d demo: a character who picks up a blaster, climbs a ledge and aims.
--
--   love examples/love                 play
--   love examples/love --test          scripted headless test (see autotest.lua)
--   love examples/love --screenshot    a few scripted seconds, then a screenshot
--
-- Run from the repository, the demo uses the in-tree module: lua/ for the
-- Lua files and build/luajit/ for ik2d/core.so (`make LUA=luajit`).
-- Elsewhere it falls back to an installed ik2d.

local function use_repo_module()
  local source = love.filesystem.getSource()
  local root = source .. "/../.."
  package.path = root .. "/lua/?.lua;" .. root .. "/lua/?/init.lua;" .. package.path
  package.cpath = root .. "/build/luajit/?.so;" .. package.cpath
end
use_repo_module()
io.stdout:setvbuf("no")

local loaded, ik2d = pcall(require, "ik2d")

local mode = "play"              -- play | test | screenshot
local game, runner
local modules = {}

-- In the scripted modes an error must end the process with a failure,
-- not wait on LOVE's error screen.
local function exit_on_error(msg)
  print("love: error: " .. tostring(msg))
  print(debug.traceback())
  local passed, failed = 0, 1
  if runner and runner.passed then passed, failed = runner.passed, runner.failed + 1 end
  print(("love: %d passed, %d failed"):format(passed, failed))
  return function() return 1 end
end

local function has_flag(args, flag)
  for _, a in ipairs(args or {}) do
    if a == flag then return true end
  end
  return false
end

function love.load(args)
  if has_flag(args, "--test") then mode = "test"
  elseif has_flag(args, "--screenshot") then mode = "screenshot" end
  if mode ~= "play" then love.errorhandler = exit_on_error end
  if not loaded then
    if mode ~= "play" then error("cannot load ik2d: " .. tostring(ik2d)) end
    return
  end
  modules.game = require "game"
  modules.render = require "render"
  modules.hud = require "hud"
  modules.render.load(require "world")
  modules.hud.load()
  game = modules.game.new()
  if mode == "test" then
    game.debug = true
    runner = require("autotest").new(game, ik2d)
  elseif mode == "screenshot" then
    runner = require("showcase").new(game)
  else
    game.debug = false
  end
end

function love.update(dt)
  if not game then return end
  if runner then
    runner:update()
    return
  end
  dt = math.min(dt, 1 / 20)      -- a hitch must not teleport the character
  if love.window.hasMouseFocus() then game:set_mouse(love.mouse.getPosition()) end
  local move = 0
  if love.keyboard.isDown("right") then move = move + 1 end
  if love.keyboard.isDown("left") then move = move - 1 end
  game:update(dt, { move = move })
end

function love.draw()
  if not game then
    love.graphics.setColor(1, 0.6, 0.5)
    love.graphics.printf("ik2d is not available:\n" .. tostring(ik2d) ..
      "\n\nBuild it from the repository with `make LUA=luajit`,\n" ..
      "or install it with luarocks for LuaJIT.", 40, 40, 880)
    return
  end
  modules.render.draw(game)
  modules.hud.draw(game, {
    ms = love.timer.getAverageDelta() * 1000,
    fps = love.timer.getFPS(),
    fixed = runner ~= nil,
  })
  if runner and runner.draw then runner:draw() end
end

function love.keypressed(key)
  if key == "escape" then return love.event.quit() end
  if not game or runner then return end
  if key == "r" then
    local debug_view = game.debug
    game = modules.game.new()
    game.debug = debug_view
    return
  end
  game:key(key)
end

function love.mousepressed(_, _, button)
  if game and not runner and button == 1 then game:key("space") end
end
