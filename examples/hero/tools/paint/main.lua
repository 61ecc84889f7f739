-- The hero's atlas painter: draws every image of hero_art.lua with
-- love.graphics, packs them as hero_atlas.lua says (the same layout the
-- generator writes into hero.atlas) and saves the page as a PNG with
-- straight (not premultiplied) alpha.
--
--   xvfb-run -a -s "-screen 0 640x480x24" love examples/hero/tools/paint [out.png]
--
-- (out.png: examples/hero/assets/hero.png by default.)  Refuses an image
-- that paints outside the box its region keeps; says which images touch
-- their own edge.  Prints the page's size and exits.

local here = love.filesystem.getSource()
package.path = here .. "/../?.lua;" .. package.path
io.stdout:setvbuf("no")

local art = require "hero_art"
local hero_atlas = require "hero_atlas"

local g = love.graphics
local sqrt = math.sqrt
local OUTLINE = 2           -- outline width (pixels) unless a shape says

function love.errorhandler(message)
  io.stderr:write("paint: ", debug.traceback(tostring(message), 2), "\n")
  os.exit(1)
end

-- the band between a capsule's two circles
local function capsule_band(x1, y1, r1, x2, y2, r2)
  local dx, dy = x2 - x1, y2 - y1
  local len = sqrt(dx * dx + dy * dy)
  local nx, ny = -dy / len, dx / len
  return { x1 + nx * r1, y1 + ny * r1, x2 + nx * r2, y2 + ny * r2, x2 - nx * r2, y2 - ny * r2,
           x1 - nx * r1, y1 - ny * r1 }
end

-- a shape filled, grown by `grow` pixels on every side (its outline)
local function fill(shape, grow)
  local kind = shape[1]
  if kind == "circle" then
    g.circle("fill", shape[2], shape[3], shape[4] + grow, 64)
  elseif kind == "ellipse" then
    g.ellipse("fill", shape[2], shape[3], shape[4] + grow, shape[5] + grow, 64)
  elseif kind == "rect" then
    g.rectangle("fill", shape[2] - grow, shape[3] - grow, shape[4] + 2 * grow, shape[5] + 2 * grow,
                shape[6] + grow, shape[6] + grow, 16)
  elseif kind == "poly" then
    g.polygon("fill", shape[2])
    if grow > 0 then
      g.setLineWidth(2 * grow)
      g.polygon("line", shape[2])
    end
  elseif kind == "capsule" then
    local x1, y1, r1, x2, y2, r2 = shape[2], shape[3], shape[4], shape[5], shape[6], shape[7]
    g.circle("fill", x1, y1, r1 + grow, 48)
    g.circle("fill", x2, y2, r2 + grow, 48)
    g.polygon("fill", capsule_band(x1, y1, r1 + grow, x2, y2, r2 + grow))
  else
    error("unknown shape " .. tostring(kind))
  end
end

-- where each kind of shape keeps its colour
local COLOR_AT = { circle = 5, ellipse = 6, rect = 7, poly = 3, capsule = 8 }

local function color_of(shape)
  return assert(shape[COLOR_AT[shape[1]]], "a shape without a colour")
end

local function gradient(spec)
  local x, y, r, inner, outer = spec[1], spec[2], spec[3], spec[4], spec[5]
  local vertices = { { x, y, 0, 0, inner[1], inner[2], inner[3], inner[4] } }
  local n = 96
  for i = 0, n do
    local a = 2 * math.pi * i / n
    vertices[#vertices + 1] = { x + r * math.cos(a), y + r * math.sin(a), 0, 0, outer[1], outer[2], outer[3], outer[4] }
  end
  g.setColor(1, 1, 1, 1)
  g.draw(g.newMesh(vertices, "fan", "static"))
end

-- One image on a canvas of its size, premultiplied (what drawing with
-- alpha blending into a canvas gives).  The silhouette first: the
-- outlines of every shape that is not flat, so shapes that touch share
-- one outline; then the fills in order, a shape marked `seam` outlined
-- again just before its fill, over what is under it.
local function paint(image, msaa)
  local canvas = g.newCanvas(image.w, image.h, { msaa = msaa })
  g.setCanvas(canvas)
  g.clear(0, 0, 0, 0)
  g.setBlendMode("alpha", "alphamultiply")
  g.setLineStyle("smooth")
  g.setLineJoin("bevel")
  local outline = art.colors.outline
  for _, shape in ipairs(image.shapes) do
    if not shape.flat then
      g.setColor(outline[1], outline[2], outline[3], 1)
      fill(shape, shape.width or OUTLINE)
    end
  end
  for _, shape in ipairs(image.shapes) do
    if shape.seam then
      g.setColor(outline[1], outline[2], outline[3], 1)
      fill(shape, shape.width or OUTLINE)
    end
    local c = color_of(shape)
    g.setColor(c[1], c[2], c[3], 1)
    fill(shape, 0)
  end
  if image.gradient then gradient(image.gradient) end
  for _, d in ipairs(image.details) do
    if d[1] == "line" then
      g.setColor(d[3][1], d[3][2], d[3][3], 1)
      g.setLineWidth(d[4])
      g.line(d[2])
    elseif d[1] == "dot" then
      g.setColor(d[5][1], d[5][2], d[5][3], 1)
      g.circle("fill", d[2], d[3], d[4], 24)
    end
  end
  g.setCanvas()
  -- an MSAA canvas is resolved when drawn: copy it to a plain one
  local resolved = g.newCanvas(image.w, image.h)
  g.setCanvas(resolved)
  g.clear(0, 0, 0, 0)
  g.setBlendMode("replace", "premultiplied")
  g.setColor(1, 1, 1, 1)
  g.draw(canvas)
  g.setCanvas()
  g.setBlendMode("alpha", "alphamultiply")
  return resolved
end

-- every painted pixel inside the kept box; which images reach their edge
local function check(image, canvas)
  local data = canvas:newImageData()
  local left, top, right, bottom = 0, 0, image.w, image.h
  if image.keep then left, top, right, bottom = image.keep[1], image.keep[2], image.keep[3], image.keep[4] end
  local touches = false
  for y = 0, image.h - 1 do
    for x = 0, image.w - 1 do
      local _, _, _, a = data:getPixel(x, y)
      if a > 0 then
        if x < left or x >= right or y < top or y >= bottom then
          error(("image %s paints pixel (%d, %d), outside the box its region keeps"):format(image.name, x, y))
        end
        if x == 0 or y == 0 or x == image.w - 1 or y == image.h - 1 then touches = true end
      end
    end
  end
  if touches then print(("paint: image %s reaches its edge"):format(image.name)) end
end

local function unpremultiply(_, _, r, gr, b, a)
  if a == 0 then return 0, 0, 0, 0 end
  return r / a, gr / a, b / a, a
end

function love.load(args)
  local out = args[1] or (here .. "/../../assets/hero.png")
  local msaa = math.min(8, g.getSystemLimits().canvasmsaa or 0)
  local packed = hero_atlas.pack(art.images)
  local page = g.newCanvas(packed.width, packed.height)
  g.setCanvas(page)
  g.clear(0, 0, 0, 0)
  g.setCanvas()
  for _, image in ipairs(art.images) do
    local canvas = paint(image, msaa)
    check(image, canvas)
    local r = packed.regions[image.name]
    local quad = g.newQuad(r.left, r.top, r.w, r.h, image.w, image.h)
    g.setCanvas(page)
    g.setBlendMode("alpha", "premultiplied")
    g.setColor(1, 1, 1, 1)
    if r.rotate then
      -- turned 90 degrees counter-clockwise: kept pixel (u, v) to (x + v, y + w - u)
      g.draw(canvas, quad, r.x, r.y + r.w, -math.pi / 2)
    else
      g.draw(canvas, quad, r.x, r.y)
    end
    g.setCanvas()
  end
  g.setBlendMode("alpha", "alphamultiply")
  local data = page:newImageData()
  data:mapPixel(unpremultiply)
  local file = assert(io.open(out, "wb"))
  file:write(data:encode("png"):getString())
  file:close()
  print(("paint: %s, %d x %d, %d images, msaa %d"):format(out, packed.width, packed.height, #art.images, msaa))
  love.event.quit(0)
end
