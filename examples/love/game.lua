-- The game state: the level, the character, the item and the sparks.
-- Pure logic; main.lua feeds it input and draws it with render.lua.

local world = require "world"
local character = require "character"
local headband = require "headband"

local game = {}
local Game = {}
Game.__index = Game

game.START_X = 230
game.ITEM_X = 455

function game.new()
  local self = setmetatable({}, Game)
  self.world = world
  self.item = world.new_item(game.ITEM_X)
  self.hero = character.new(world, self.item, game.START_X)
  self.hero.headband = headband.new(self.hero)   -- tails on a spring
  self.sparks = {}
  self.time = 0
  self.debug = true          -- bones, limits and targets over the sprites
  self.update_ms = 0         -- smoothed CPU time of update (IK included)
  return self
end

function Game:set_mouse(x, y)
  self.hero:set_mouse(x, y)
end

-- A key press; returns true when the game used it.
function Game:key(key)
  local hero = self.hero
  if key == "p" then return hero:pickup()
  elseif key == "c" then return hero:climb()
  elseif key == "a" then return hero:aim()
  elseif key == "space" then return hero:shoot(self.sparks)
  elseif key == "d" then
    self.debug = not self.debug
    return true
  elseif key == "m" then
    hero:cycle_method()
    return true
  elseif key == "tab" then
    return hero:select_next()
  end
  -- 1-5 (or the keypad's): select a limb, in hero.order
  local digit = key:match("^kp(%d)$") or key:match("^(%d)$")
  if digit then return hero:select(tonumber(digit)) end
  return false
end

-- One frame of dt seconds; input = { move = -1 | 0 | 1 }.
function Game:update(dt, input)
  local t0 = os.clock()
  self.time = self.time + dt
  self.hero:update(dt, input)
  self.hero.headband:update(dt)
  world.update_item(self.item, dt)
  world.update_sparks(self.sparks, dt)
  local ms = (os.clock() - t0) * 1000
  self.update_ms = self.update_ms + (ms - self.update_ms) * 0.05
end

return game
