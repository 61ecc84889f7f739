-- Drawing: the scenery, the character (sprites on the IK result), the
-- item, the sparks and, on top, ik2d.love's debug view.

local ikdraw = require "ik2d.love"
local sprites = require "sprites"

local pi, sin, cos = math.pi, math.sin, math.cos
local g = love.graphics

local render = {}

local sky, hills_far, hills_near, clouds
local dirt, grass            -- the ground's profile (the hill in it), as meshes
local art

-- ------------------------------------------------------------------
-- Scenery, built once
-- ------------------------------------------------------------------

local function gradient(w, h, top, bottom)
  return g.newMesh({
    { 0, 0, 0, 0, top[1], top[2], top[3], 1 },
    { w, 0, 1, 0, top[1], top[2], top[3], 1 },
    { w, h, 1, 1, bottom[1], bottom[2], bottom[3], 1 },
    { 0, h, 0, 1, bottom[1], bottom[2], bottom[3], 1 },
  }, "fan", "static")
end

-- A ridge line as a polygon strip down to y = bottom.
local function ridge(w, base, bottom, seed, amp)
  local pts = {}
  for x = 0, w, 24 do
    local y = base - amp * (0.55 * sin(x * 0.011 + seed) + 0.3 * sin(x * 0.027 + seed * 2.1)
      + 0.15 * sin(x * 0.061 + seed * 0.7))
    pts[#pts + 1] = { x, y }
  end
  local verts = {}
  for _, p in ipairs(pts) do
    verts[#verts + 1] = { p[1], p[2] }
    verts[#verts + 1] = { p[1], bottom }
  end
  return g.newMesh(verts, "strip", "static")
end

-- A strip under the walkable ground from x0 to x1 (x1 itself left out),
-- from `top` px below the surface down to `depth` px below it (or to
-- y = bottom).
local function ground_strip(world, x0, x1, top, depth, bottom)
  local verts = {}
  local n = math.ceil((x1 - x0) / 5)
  for i = 0, n do
    local x = x0 + (x1 - x0) * i / n
    local y = world.ground_at(i < n and x or x - 1e-6)
    verts[#verts + 1] = { x, y + top }
    verts[#verts + 1] = { x, bottom or y + depth }
  end
  return g.newMesh(verts, "strip", "static")
end

function render.load(world)
  -- up to the ledge's wall; the ledge's block and the dirt under it are
  -- drawn over the rest
  dirt = ground_strip(world, 0, world.LEDGE_X, 0, 0, world.HEIGHT)
  grass = ground_strip(world, 0, world.LEDGE_X, 0, 9)
  sky = gradient(world.WIDTH, world.HEIGHT, { 0.27, 0.45, 0.78 }, { 0.99, 0.78, 0.58 })
  hills_far = ridge(world.WIDTH, 330, world.GROUND, 1.3, 60)
  hills_near = ridge(world.WIDTH, 400, world.GROUND, 4.1, 36)
  clouds = {}
  for i = 1, 6 do
    clouds[i] = { x = (i * 173) % world.WIDTH, y = 50 + (i * 37) % 110, s = 0.7 + (i % 3) * 0.25 }
  end
end

local function draw_sky(world, time)
  g.setColor(1, 1, 1)
  g.draw(sky)
  -- sun and glow
  for r = 90, 40, -10 do
    g.setColor(1, 0.93, 0.7, 0.07)
    g.circle("fill", 640, 170, r)
  end
  g.setColor(1, 0.95, 0.78)
  g.circle("fill", 640, 170, 34)
  -- clouds drift
  for _, c in ipairs(clouds) do
    local x = (c.x + time * 8 * c.s) % (world.WIDTH + 200) - 100
    g.setColor(1, 1, 1, 0.75)
    g.ellipse("fill", x, c.y, 42 * c.s, 13 * c.s)
    g.ellipse("fill", x + 22 * c.s, c.y - 8 * c.s, 28 * c.s, 13 * c.s)
    g.ellipse("fill", x - 24 * c.s, c.y - 3 * c.s, 22 * c.s, 10 * c.s)
  end
  g.setColor(0.5, 0.47, 0.68)
  g.draw(hills_far)
  g.setColor(0.33, 0.5, 0.5)
  g.draw(hills_near)
end

local LEAVES = { { 0, -120, 42 }, { -30, -100, 30 }, { 30, -98, 32 }, { 0, -150, 30 } }

local function draw_tree(x, ground)
  g.setColor(0.36, 0.24, 0.16)
  g.rectangle("fill", x - 7, ground - 95, 14, 95)
  for _, l in ipairs(LEAVES) do
    g.setColor(0.16, 0.42, 0.25)
    g.circle("fill", x + l[1], ground + l[2], l[3])
  end
  for _, l in ipairs(LEAVES) do
    g.setColor(0.24, 0.55, 0.3)
    g.circle("fill", x + l[1] - 6, ground + l[2] - 7, l[3] * 0.7)
  end
end

local VINES = { { 8, 40 }, { 60, 26 }, { 130, 52 } }   -- x from the wall, length
local FLOWERS = { { 160, 0.95, 0.4, 0.5 }, { 330, 1, 0.85, 0.3 }, { 612, 0.8, 0.5, 1 } }

local function draw_level(world, time)
  local W, G = world.WIDTH, world.GROUND
  local ground_at = world.ground_at
  draw_tree(95, G)
  -- ground: dirt with a grass top and tufts, over the hill too
  g.setColor(0.45, 0.31, 0.2)
  g.draw(dirt)
  g.rectangle("fill", world.LEDGE_X, G, W - world.LEDGE_X, world.HEIGHT - G)
  g.setColor(0.38, 0.26, 0.17)
  for x = 10, world.LEDGE_X, 53 do g.ellipse("fill", x, ground_at(x) + 38 + (x % 3) * 12, 9, 4) end
  g.setColor(0.33, 0.66, 0.3)
  g.draw(grass)
  g.setColor(0.42, 0.76, 0.36)
  for x = 4, world.LEDGE_X - 8, 13 do
    local h = 5 + (x * 7) % 6
    local y0, y1 = ground_at(x) + 1, ground_at(x + 8) + 1
    g.polygon("fill", x, y0, x + 4, (y0 + y1) / 2 - h + sin(time * 2 + x) * 0.8, x + 8, y1)
  end
  -- flowers
  for _, f in ipairs(FLOWERS) do
    local y = ground_at(f[1])
    g.setColor(0.3, 0.55, 0.25)
    g.line(f[1], y, f[1], y - 12)
    g.setColor(f[2], f[3], f[4])
    g.circle("fill", f[1], y - 13, 3.5)
  end
  -- the ledge: a stone block with bricks, grass and vines
  local x0, top = world.LEDGE_X, world.LEDGE_TOP
  g.setColor(0.47, 0.46, 0.53)
  g.rectangle("fill", x0, top, W - x0, G - top + 9)
  g.setColor(0.36, 0.35, 0.42)
  local row = 0
  for y = top + 14, G, 22 do
    g.line(x0, y, W, y)
    local shift = (row % 2) * 22
    for x = x0 + 30 + shift, W, 44 do g.line(x, y - 22, x, y) end
    row = row + 1
  end
  g.setColor(0.3, 0.29, 0.36)
  g.rectangle("fill", x0, top, 5, G - top + 9)
  g.setColor(0.33, 0.66, 0.3)
  g.rectangle("fill", x0 - 3, top - 4, W - x0 + 3, 9, 3, 3)
  g.setColor(0.25, 0.52, 0.26)
  for _, v in ipairs(VINES) do
    local x = x0 + v[1]
    g.setLineWidth(3)
    g.line(x, top + 4, x + 3 * sin(time + x), top + v[2])
    g.setLineWidth(1)
  end
end

-- ------------------------------------------------------------------
-- Item and sparks
-- ------------------------------------------------------------------

local function draw_item(item, facing, time)
  g.push()
  g.translate(item.x, item.y)
  g.rotate(item.angle)
  if item.held and facing < 0 then g.scale(1, -1) end
  if not item.held then
    -- a pulsing glow so the player spots it
    g.setColor(0.5, 1, 1, 0.18 + 0.1 * sin(time * 4))
    g.circle("fill", 0, 0, 20)
  end
  g.setColor(sprites.OUTLINE)
  g.rectangle("fill", -13, -7, 27, 13, 4, 4)
  g.setColor(0.95, 0.55, 0.2)
  g.rectangle("fill", -11.5, -5.5, 24, 10, 3, 3)
  g.setColor(0.3, 0.3, 0.36)
  g.rectangle("fill", 8, -3.5, 12, 6, 2, 2)
  g.setColor(0.4, 1, 1)
  g.circle("fill", 20, -0.5, 3)
  g.setColor(0.6, 0.3, 0.12)
  g.rectangle("fill", -7, 3, 6, 8, 2, 2)   -- handle
  g.pop()
end

local function draw_sparks(sparks)
  for _, s in ipairs(sparks) do
    local a = math.min(1, s.life * 2)
    g.setColor(0.4, 1, 1, 0.35 * a)
    g.setLineWidth(5)
    g.line(s.x - s.vx * 0.03, s.y - s.vy * 0.03, s.x, s.y)
    g.setLineWidth(1)
    g.setColor(0.85, 1, 1, a)
    g.circle("fill", s.x, s.y, 3.5)
  end
end

-- ------------------------------------------------------------------
-- Character
-- ------------------------------------------------------------------

local BACK_TINT = { 0.68, 0.68, 0.76, 1 }

local function draw_hand(chain, tint)
  local x, y = chain:tip()
  g.setColor(sprites.OUTLINE)
  g.circle("fill", x, y, 6.5)
  local s = sprites.SKIN
  g.setColor(s[1] * tint[1], s[2] * tint[2], s[3] * tint[3])
  g.circle("fill", x, y, 5)
end

local function draw_head(hero)
  local torso = hero.torso
  local x, y = torso:tip()
  local a = torso:world_angle(2)
  local hx, hy = x + cos(a) * 21, y + sin(a) * 21
  local f = hero.facing
  -- neck
  g.setColor(sprites.SKIN)
  g.setLineWidth(8)
  g.line(x, y, hx, hy)
  g.setLineWidth(1)
  -- the headband's tails, behind the head, on a spring (headband.lua)
  if hero.headband then hero.headband:draw() end
  g.setColor(sprites.OUTLINE)
  g.circle("fill", hx, hy, 16)
  g.setColor(sprites.SKIN)
  g.circle("fill", hx, hy, 14.5)
  -- hair and a red headband
  g.setColor(0.3, 0.18, 0.12)
  g.arc("fill", hx, hy, 14.5, pi + 0.15, 2 * pi - 0.15)
  g.setColor(0.85, 0.2, 0.2)
  g.rectangle("fill", hx - 14.5, hy - 6, 29, 4)
  -- eye and mouth look the way the character faces
  g.setColor(sprites.OUTLINE)
  g.circle("fill", hx + f * 6, hy + 1, 2.2)
  g.line(hx + f * 3, hy + 8, hx + f * 9, hy + 7)
end

function render.character(hero, item, time)
  local f = hero.facing
  -- shadow on the ground below, along its slope
  local world = hero.world
  g.push()
  g.translate(hero.x, world.ground_at(hero.x) + 2)
  g.rotate(world.slope_at(hero.x))
  g.setColor(0, 0, 0, 0.18)
  g.ellipse("fill", 0, 0, 30, 5)
  g.pop()

  art = art or sprites.build(hero)
  local back = { color = BACK_TINT }
  ikdraw.draw_sprites(hero.arm_back, art.arm, back)
  draw_hand(hero.arm_back, BACK_TINT)
  ikdraw.draw_sprites(hero.leg_back, art.leg, back)   -- thigh, shin, foot
  ikdraw.draw_sprites(hero.torso, art.torso)
  ikdraw.draw_sprites(hero.leg_front, art.leg)
  draw_head(hero)
  if item.held then draw_item(item, f, time) end
  ikdraw.draw_sprites(hero.arm_front, art.arm)
  draw_hand(hero.arm_front, { 1, 1, 1 })
end

-- ------------------------------------------------------------------
-- The frame
-- ------------------------------------------------------------------

local DEBUG_STYLE = {
  bone_color = { 1, 1, 1, 0.85 },
  line_width = 1.5,
  joint_radius = 3,
  limit_radius = 16,
  target_line = false,
}

function render.draw(game)
  local world, hero, item = game.world, game.hero, game.item
  g.push("all")
  draw_sky(world, game.time)
  draw_level(world, game.time)
  if not item.held then
    draw_item(item, 1, game.time)
    g.setColor(1, 1, 1, 0.8)
    g.print("P", item.x - 4, item.y - 42 + 3 * sin(game.time * 3))
  end
  render.character(hero, item, game.time)
  draw_sparks(game.sparks)
  if game.debug then
    -- every bone, limit arc and live target (a weight-0 solver's left out)
    ikdraw.draw_skeleton(hero.skeleton, DEBUG_STYLE)
  end
  g.pop()
end

return render
