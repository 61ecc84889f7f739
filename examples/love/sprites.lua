-- Bone sprites for the character, painted once into canvases at load:
-- rounded limbs with an outline and a highlight.  Drawn per bone with
-- ik2d.love's draw_sprites, which is how a game would skin a chain with
-- its own images (a sprite sheet and Quads work the same way).

local feet = require "feet"

local sprites = {}

local OUTLINE = { 0.13, 0.11, 0.16, 1 }

-- A capsule `length` long between its two round ends' centres, `width`
-- thick, so the origin (ox = r, oy = r) sits on the joint and the other
-- end's centre on the next joint.
local function capsule(length, width, color, stripe)
  local r = width / 2
  local w, h = math.ceil(length + width) + 2, math.ceil(width) + 2
  local canvas = love.graphics.newCanvas(w, h)
  love.graphics.push("all")
  love.graphics.setCanvas(canvas)
  love.graphics.clear(0, 0, 0, 0)
  love.graphics.setColor(OUTLINE)
  love.graphics.rectangle("fill", 1, 1, length + width, width, r, r)
  love.graphics.setColor(color)
  love.graphics.rectangle("fill", 2.5, 2.5, length + width - 3, width - 3, r - 1.5, r - 1.5)
  -- a soft highlight along the top edge
  love.graphics.setColor(1, 1, 1, 0.22)
  love.graphics.rectangle("fill", r, 3.5, length * 0.8, width * 0.22, 2, 2)
  if stripe then
    love.graphics.setColor(stripe)
    love.graphics.rectangle("fill", length * 0.55, 2.5, 5, width - 3)
  end
  love.graphics.pop()
  return { image = canvas, ox = r + 1, oy = r + 1 }
end

local SHIRT = { 0.16, 0.62, 0.66, 1 }
local SKIN = { 0.96, 0.76, 0.6, 1 }
local PANTS = { 0.22, 0.27, 0.48, 1 }
local BOOTS = { 0.36, 0.22, 0.15, 1 }
local FOOT_BOOTS = { 0.3, 0.18, 0.12, 1 }

sprites.SKIN, sprites.BOOTS, sprites.OUTLINE = SKIN, BOOTS, OUTLINE
sprites.SHIRT, sprites.PANTS = SHIRT, PANTS

-- Builds the sprite lists for a character's chains (lengths from them).
function sprites.build(hero)
  local set = {}
  set.torso = {
    capsule(hero.torso:length(1), 30, PANTS, { 0.55, 0.4, 0.2, 1 }),   -- hips and belt
    capsule(hero.torso:length(2), 32, SHIRT),
  }
  set.arm = {
    capsule(hero.arm_front:length(1), 13, SHIRT),
    capsule(hero.arm_front:length(2), 11, SKIN),
  }
  -- the foot's capsule is as thick as the bone is high above the ground
  -- twice (feet.ANKLE), so a planted boot's sole rests on the ground
  set.leg = {
    capsule(hero.leg_front:length(1), 16, PANTS),
    capsule(hero.leg_front:length(2), 13, BOOTS),
    capsule(hero.leg_front:length(3), 2 * feet.ANKLE, FOOT_BOOTS),
  }
  return set
end

return sprites
