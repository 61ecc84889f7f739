-- hero_art: the hero's images, as simple shapes with outlines.  Plain
-- data, read by the rig generator (sizes, the point each image hangs from)
-- and by the LÖVE painter (paint/main.lua), which draws the shapes.
--
-- Each image is given as `shapes` (filled, each outlined unless `flat`,
-- the outlines drawn first so that touching shapes share one; `seam`:
-- outlined again over what is under it), `details` (lines and dots drawn
-- last, no outline) or a `gradient` (a radial fill: centre, radius, inner
-- and outer colours), in pixels, which are rig units (the hero is drawn at
-- scale 1), y down; `anchor`, the point that sits on the bone's origin
-- (for the upright torso and cape, the world origin: their pixels stand
-- as the world does, y flipped); `strip`, transparent pixels around the
-- picture that the atlas strips ({ left, top, right, bottom }); `rotate`,
-- packed turned 90 degrees counter-clockwise.  Limbs are drawn along +x
-- from their joint, as their bones point.
--
-- Each image's size comes from its shapes: their bounds, outlines
-- included, and two clear pixels, then the strip.  After loading, every
-- image has `w`, `h`, `anchor` and `keep` (the kept box { left, top,
-- right, bottom }) in its own pixels, its shapes moved to match.

local art = {}

local function hex(text)
  local n = tonumber(text, 16)
  return { math.floor(n / 65536) / 255, math.floor(n / 256) % 256 / 255, n % 256 / 255 }
end

local C = {
  outline = hex "2a2035",
  skin = hex "f1c19a", skin_shade = hex "d99f7a",
  hair = hex "6a3b22", hair_light = hex "8f5832",
  tunic = hex "2f8f83", tunic_shade = hex "226b63", tunic_light = hex "4fb3a5",
  belt = hex "5b3a22", gold = hex "f2c14e", gold_shade = hex "c28a2a",
  pants = hex "3b4a7d", pants_shade = hex "2c385f",
  boot = hex "7a4a2a", boot_shade = hex "55321c", sole = hex "33200f",
  cape = hex "b8433a", cape_shade = hex "8a2f2a",
  hat = hex "7e6d3c", hat_band = hex "4a3a20", hat_light = hex "9c8a52",
  steel = hex "aab3bd", steel_shade = hex "78838e", steel_light = hex "e2e7ec",
  scarf = hex "e3b341", scarf_shade = hex "b98a28",
  brass = hex "c89b3c", glass = hex "fff1b8",
  plume = hex "d44a4a", plume_shade = hex "a33232",
  white = hex "ffffff",
}
art.colors = C

local images = {}
art.images = images
local by_name = {}
art.by_name = by_name

local function image(t)
  images[#images + 1] = t
  by_name[t.name] = t
  t.shapes = t.shapes or {}
  t.details = t.details or {}
  return t
end

-- shapes: { kind, numbers..., color [, flat = true] [, width = outline] }
--   circle x y r | ellipse x y rx ry | rect x y w h radius | poly {points}
--   capsule x1 y1 r1 x2 y2 r2 (two circles and the band between them)
-- details: { "line", {points}, color, width } | { "dot", x, y, r, color }

-- the cape, upright: image x = world x + 28, y = 160 - world y
image {
  name = "cape", anchor = { 28, 160 }, rotate = true,
  shapes = {
    { "poly", { 15, 3, 26, 3, 27, 9, 25, 59, 4, 59, 2, 53 }, C.cape },
    { "poly", { 17, 8, 21, 8, 14, 57, 9, 57 }, C.cape_shade, flat = true },
    { "poly", { 23, 10, 25, 12, 23, 57, 20, 57 }, C.cape_shade, flat = true },
  },
  details = { { "line", { 15, 4, 26, 4 }, C.cape_shade, 2 } },
}

image {
  name = "hair", anchor = { 5, 9 },
  shapes = {
    { "capsule", 6, 9, 6, 23, 10, 2.5, C.hair },
  },
  details = { { "line", { 7, 7, 15, 7.5, 21, 9 }, C.hair_light, 1.5 } },
}

image {
  name = "upper_arm", anchor = { 6, 9 },
  shapes = {
    { "capsule", 6, 9, 7, 35, 9, 5.5, C.tunic },
    { "rect", 30, 3.5, 6, 11, 2, C.tunic_shade, flat = true },
  },
  details = { { "line", { 8, 5, 26, 5.5 }, C.tunic_light, 1.5 } },
}

image {
  name = "forearm", anchor = { 5, 7 },
  shapes = {
    { "capsule", 5, 7, 4.5, 30, 7, 4, C.skin },
    { "rect", 19, 2.5, 11, 9, 2, C.belt, seam = true, width = 1.5 },
  },
  details = { { "line", { 21, 4, 28, 4 }, C.gold, 1 } },
}

image {
  name = "hand", anchor = { 3, 7 },
  shapes = {
    { "ellipse", 9, 7.5, 5.5, 4.5, C.skin },
    { "circle", 8, 3.5, 2.2, C.skin },
  },
}

image {
  name = "hand_open", anchor = { 3, 11 },
  shapes = {
    { "capsule", 10, 11, 1.6, 19, 5, 1.6, C.skin },
    { "capsule", 10, 11, 1.6, 21, 9.5, 1.6, C.skin },
    { "capsule", 10, 11, 1.6, 20.5, 14, 1.6, C.skin },
    { "capsule", 10, 11, 1.6, 18, 17.5, 1.5, C.skin },
    { "capsule", 7, 10, 2, 10, 3.5, 1.8, C.skin },
    { "circle", 8, 11, 5, C.skin },
  },
}

image {
  name = "thigh", anchor = { 6, 11 }, rotate = true,
  shapes = {
    { "capsule", 6, 11, 8, 47, 11, 6, C.pants },
    { "capsule", 10, 14.5, 2.5, 44, 13.5, 1.8, C.pants_shade, flat = true },
  },
}

image {
  name = "shin", anchor = { 5, 9 },
  shapes = {
    { "capsule", 5, 9, 6.5, 40, 9, 5.5, C.pants },
    { "rect", 33, 2, 14, 14, 3, C.boot, seam = true },
  },
  details = { { "line", { 35, 4, 35, 14 }, C.boot_shade, 1.5 } },
}

-- level boot (the region's rotation cancels the foot bone's tilt): the
-- ankle at (9, 7), the sole along y = 19, the ball of the foot at (21, 14)
image {
  name = "foot", anchor = { 9, 7 },
  shapes = {
    { "poly", { 3, 3, 15, 3, 24, 12, 24, 18, 3, 18 }, C.boot },
    { "rect", 2, 15.5, 23, 3, 1, C.sole, flat = true },
  },
  details = { { "line", { 4, 5, 14, 5 }, C.boot_shade, 1.5 } },
}

-- the toe cap: the ball of the foot at (2, 6), the sole along y = 11
image {
  name = "toe", anchor = { 2, 6 },
  shapes = {
    { "poly", { 0, 1.5, 5, 1.5, 11, 6, 11, 10.5, 0, 10.5 }, C.boot },
    { "rect", 0, 8, 11.5, 2.5, 1, C.sole, flat = true },
  },
}

-- the torso, upright: image x = world x + 15, y = 164 - world y
local function tunic_shapes(armor)
  local shapes = {
    { "poly", { 6, 4, 24, 4, 28, 16, 27, 40, 25, 62, 6, 62, 4, 40, 3, 16 }, C.tunic },
    { "poly", { 4, 18, 8, 18, 8, 58, 6, 58 }, C.tunic_shade, flat = true },
    { "poly", { 5, 66, 26, 66, 27, 77, 4, 77 }, C.pants, seam = true },
    { "rect", 3.5, 59, 24, 8, 2, C.belt, seam = true },
    { "rect", 19, 58, 6, 10, 1.5, C.gold, seam = true, width = 1.5 },
  }
  if armor then
    table.insert(shapes, 4, { "poly", { 8, 10, 25, 10, 27, 22, 25, 48, 10, 52, 6, 32 }, C.steel, seam = true })
    table.insert(shapes, 5, { "poly", { 9, 14, 12, 13, 11, 48, 10, 48 }, C.steel_shade, flat = true })
  end
  return shapes
end

image {
  name = "torso", anchor = { 15, 164 },
  shapes = tunic_shapes(false),
  details = { { "line", { 10, 6, 15, 9, 20, 6 }, C.tunic_shade, 1.5 },
              { "line", { 20, 20, 24, 34 }, C.tunic_light, 1.5 } },
}

image {
  name = "torso_armor", anchor = { 15, 164 },
  shapes = tunic_shapes(true),
  details = { { "line", { 19, 14, 24, 24, 22, 42 }, C.steel_light, 2 },
              { "dot", 12, 16, 1.2, C.steel_shade }, { "dot", 23, 16, 1.2, C.steel_shade },
              { "dot", 14, 44, 1.2, C.steel_shade }, { "dot", 22, 42, 1.2, C.steel_shade } },
}

image {
  name = "scarf", anchor = { 6, 8 },
  shapes = {
    { "poly", { 7, 4, 27, 6.5, 30, 13, 7, 13 }, C.scarf },
    { "circle", 7, 8.5, 5.5, C.scarf },
  },
  details = { { "line", { 12, 11, 27, 11.5 }, C.scarf_shade, 1.5 } },
}

image {
  name = "badge", anchor = { 9, 9 }, strip = { 3, 2, 1, 4 },
  shapes = {
    { "circle", 9, 9, 4.5, C.gold },
    { "poly", { 9, 6, 12, 9, 9, 12, 6, 9 }, C.gold_shade, flat = true },
  },
}

image {
  name = "neck", anchor = { 1, 6 },
  shapes = { { "capsule", 3, 6, 4.5, 13, 6, 4.5, C.skin } },
}

-- facing right; the neck's tip at (17, 37)
image {
  name = "head", anchor = { 17, 37 },
  shapes = {
    { "circle", 20, 20, 16, C.hair },
    { "circle", 24, 23, 14, C.skin },
    { "ellipse", 26, 30.5, 10, 7, C.skin },
    { "circle", 37, 23.5, 2.4, C.skin },
    { "ellipse", 17.5, 24, 3, 4.2, C.skin, seam = true, width = 1.5 },
    { "poly", { 21, 5, 33, 9.5, 31, 13, 22, 10 }, C.hair, flat = true },
    { "poly", { 6, 12, 11, 8, 13, 30, 8, 28 }, C.hair_light, flat = true },
  },
  details = {
    { "line", { 31, 33.5, 35, 32.5 }, C.outline, 1.5 },
    { "line", { 27.5, 14.5, 33, 13.5 }, C.hair, 2 },
    { "line", { 18.5, 22, 17, 24, 18.5, 26 }, C.skin_shade, 1.2 },
  },
}

image {
  name = "eye", anchor = { 6, 6 }, strip = { 1, 2, 2, 1 },
  shapes = {
    { "ellipse", 6, 6, 2.6, 3.4, C.white, width = 1 },
    { "circle", 7, 6.3, 1.5, C.outline, flat = true },
  },
  details = { { "dot", 7.5, 5.6, 0.5, C.white } },
}

image {
  name = "eye_closed", anchor = { 6, 6 }, strip = { 2, 3, 1, 2 },
  details = { { "line", { 3.5, 6, 6, 7.5, 8.5, 6 }, C.outline, 1.5 } },
}

-- a soft hat, its crown's foot at (25, 24)
image {
  name = "hat", anchor = { 25, 24 }, strip = { 4, 3, 2, 5 },
  shapes = {
    { "ellipse", 26, 24, 22, 3.5, C.hat },
    { "poly", { 13, 23, 15, 11, 21, 5, 32, 5, 38, 11, 40, 23 }, C.hat },
    { "rect", 13.5, 16.5, 26, 5, 1, C.hat_band, flat = true },
  },
  details = { { "line", { 21, 8, 31, 8 }, C.hat_light, 1.5 } },
}

image {
  name = "helmet", anchor = { 23, 26 },
  shapes = {
    { "ellipse", 23, 19, 15, 12.5, C.steel },
    { "ellipse", 24, 26, 19, 3.5, C.steel_shade, seam = true },
    { "poly", { 33, 16, 39, 20, 38, 25, 33, 25 }, C.steel },
  },
  details = { { "line", { 14, 13, 20, 9, 27, 8.5 }, C.steel_light, 2 },
              { "line", { 23, 7, 23, 24 }, C.steel_shade, 1.5 } },
}

image {
  name = "plume", anchor = { 3, 8 }, rotate = true, strip = { 2, 4, 3, 1 },
  shapes = {
    { "capsule", 4, 8, 2, 18, 7, 4.5, C.plume },
  },
  details = { { "line", { 5, 8, 20, 7 }, C.plume_shade, 1 } },
}

image {
  name = "shoulder_pad", anchor = { 6, 9 },
  shapes = { { "ellipse", 11, 9, 8.5, 6.5, C.tunic_shade } },
  details = { { "line", { 5, 12, 11, 14.5, 18, 12 }, C.gold, 1.5 } },
}

image {
  name = "shoulder_pad_armor", anchor = { 6, 10 },
  shapes = { { "ellipse", 12, 10, 9.5, 7.5, C.steel } },
  details = { { "line", { 6, 7, 12, 4.5, 18, 7 }, C.steel_light, 1.5 },
              { "line", { 5, 13, 12, 16, 19, 13 }, C.steel_shade, 1.5 },
              { "dot", 12, 10, 1.2, C.steel_shade } },
}

-- hangs from its handle's top at (10, 1)
image {
  name = "lantern", anchor = { 10, 1 },
  shapes = {
    { "poly", { 5, 7, 15, 7, 16.5, 10.5, 3.5, 10.5 }, C.brass },
    { "rect", 4.5, 10.5, 11, 13, 1, C.glass, seam = true, width = 1.5 },
    { "rect", 3, 23.5, 14, 4, 1, C.brass, seam = true, width = 1.5 },
  },
  details = {
    { "line", { 7.5, 7, 7.5, 2.5, 12.5, 2.5, 12.5, 7 }, C.outline, 1.5 },
    { "line", { 8.5, 11, 8.5, 23 }, C.brass, 1.2 }, { "line", { 11.5, 11, 11.5, 23 }, C.brass, 1.2 },
    { "dot", 10, 17, 2, C.gold },
  },
}

image {
  name = "glow", anchor = { 32, 32 }, strip = { 4, 4, 4, 4 },
  gradient = { 32, 32, 27.5, { 1, 0.86, 0.45, 0.75 }, { 1, 0.6, 0.2, 0 } },
}

-- ------------------------------------------------------------------
-- sizes from shapes
-- ------------------------------------------------------------------

local OUTLINE = 2
local floor, ceil, max, min = math.floor, math.ceil, math.max, math.min

-- the coordinates of a shape or detail: where its points are (indices
-- into it, x then y), how far it reaches past them across and down, and
-- a rectangle's size
local function points_of(item)
  local kind = item[1]
  if kind == "circle" or kind == "dot" then return { { 2, 3 } }, item[4], item[4] end
  if kind == "ellipse" then return { { 2, 3 } }, item[4], item[5] end
  if kind == "rect" then return { { 2, 3 } }, 0, 0, item[4], item[5] end
  if kind == "capsule" then
    local r = max(item[4], item[7])
    return { { 2, 3 }, { 5, 6 } }, r, r
  end
  return nil, 0, 0
end

local function each_point(item, f)
  local kind = item[1]
  if kind == "poly" or kind == "line" then
    local pts = item[2]
    for i = 1, #pts, 2 do
      local x, y = f(pts[i], pts[i + 1])
      pts[i], pts[i + 1] = x, y
    end
    return
  end
  local places = points_of(item)
  for _, at in ipairs(places) do
    item[at[1]], item[at[2]] = f(item[at[1]], item[at[2]])
  end
end

-- how far past its points an item paints, across and down
local function reach(item)
  if item[1] == "line" then return item[4] / 2, item[4] / 2 end
  local grow = 0
  if not item.flat and item[1] ~= "dot" then grow = item.width or OUTLINE end
  local _, rx, ry = points_of(item)
  return rx + grow, ry + grow
end

local function finish(img)
  local x0, y0, x1, y1 = math.huge, math.huge, -math.huge, -math.huge
  local function cover(item)
    local rx, ry = reach(item)
    local _, _, _, w, h = points_of(item)
    each_point(item, function(x, y)
      x0, y0 = min(x0, x - rx), min(y0, y - ry)
      x1, y1 = max(x1, x + rx + (w or 0)), max(y1, y + ry + (h or 0))
      return x, y
    end)
  end
  for _, item in ipairs(img.shapes) do cover(item) end
  for _, item in ipairs(img.details) do cover(item) end
  local gr = img.gradient
  if gr then
    x0, y0, x1, y1 = min(x0, gr[1] - gr[3]), min(y0, gr[2] - gr[3]), max(x1, gr[1] + gr[3]), max(y1, gr[2] + gr[3])
  end
  local strip = img.strip or { 0, 0, 0, 0 }
  -- two clear pixels round the picture (its smoothed edges reach one
  -- past the shapes), then the strip
  local left, top = floor(x0) - 2, floor(y0) - 2
  local right, bottom = ceil(x1) + 2, ceil(y1) + 2
  local dx, dy = strip[1] - left, strip[2] - top
  local function move(x, y) return x + dx, y + dy end
  for _, item in ipairs(img.shapes) do each_point(item, move) end
  for _, item in ipairs(img.details) do each_point(item, move) end
  if gr then gr[1], gr[2] = gr[1] + dx, gr[2] + dy end
  img.anchor = { img.anchor[1] + dx, img.anchor[2] + dy }
  local kept_w, kept_h = right - left, bottom - top
  img.w, img.h = kept_w + strip[1] + strip[3], kept_h + strip[2] + strip[4]
  img.keep = { strip[1], strip[2], strip[1] + kept_w, strip[2] + kept_h }
  img.stripped = img.strip ~= nil
end

for _, img in ipairs(images) do finish(img) end

return art
