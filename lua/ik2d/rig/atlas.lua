-- ik2d.rig.atlas: texture atlases, and where an attachment's image lies
-- in one.
--
--   local atlas = require("ik2d.rig.atlas").read(text, "hero.atlas")    -- Spine .atlas
--   local atlas = require("ik2d.rig.atlas").read_tex(decoded, "hero_tex.json") -- DragonBones
--
-- An atlas is { pages = { { name =, width =, height =, min_filter =,
-- mag_filter =, wrap_u =, wrap_v =, pma = } }, regions = { [name] = region } },
-- a region { name =, page = index, x =, y =, width =, height =,
-- offset_x =, offset_y =, original_width =, original_height =, degrees =
-- 0 | 90 | 180 | 270, u =, v =, u2 =, v2 = }: its rectangle in the page
-- (pixels from the page's top left, width and height the image's own,
-- before any turn), the whitespace the packer cut (offset_x, offset_y:
-- where the kept rectangle sits in the original image, from its bottom
-- left), the quarter turns it was packed with (clockwise), and its
-- texture coordinates (u, v the packed rectangle's top left, u2, v2 its
-- bottom right).  A malformed atlas raises "<file>: line <n>: <problem>".

-- ik2d's own trig, the same bits on every platform (libm's differ)
local rot = require("ik2d.pure.math").rot

local atlas = { _VERSION = require("ik2d.api").version }

local type, tonumber, format = type, tonumber, string.format

local function fail(file, line, problem)
  error(format("%s: line %d: %s", file, line, problem), 0)
end

-- ------------------------------------------------------------------
-- Spine's .atlas text
-- ------------------------------------------------------------------

local function numbers(file, line, value, count)
  local list = {}
  for part in value:gmatch("[^,]+") do
    local n = tonumber((part:gsub("^%s+", ""):gsub("%s+$", "")))
    if n == nil then fail(file, line, format("%q is not a number", part)) end
    list[#list + 1] = n
  end
  if #list ~= count then
    fail(file, line, format("%d numbers expected, got %d", count, #list))
  end
  return list
end

local FILTERS = { Nearest = "nearest", Linear = "linear", MipMap = "linear",
  MipMapNearestNearest = "nearest", MipMapLinearNearest = "linear",
  MipMapNearestLinear = "nearest", MipMapLinearLinear = "linear" }

-- A page's property (key: value at line).
local function page_property(file, line, page, key, value)
  if key == "size" then
    local n = numbers(file, line, value, 2)
    page.width, page.height = n[1], n[2]
  elseif key == "filter" then
    local min, mag = value:match("^%s*(%w+)%s*,%s*(%w+)%s*$")
    if not (min and FILTERS[min] and FILTERS[mag]) then
      fail(file, line, format("unknown filter %q", value))
    end
    page.min_filter, page.mag_filter = FILTERS[min], FILTERS[mag]
  elseif key == "repeat" then
    page.wrap_u = (value:find("x") and "repeat") or "clamp"
    page.wrap_v = (value:find("y") and "repeat") or "clamp"
  elseif key == "pma" then
    page.pma = value:match("^%s*true%s*$") ~= nil
  end
end

-- A region's property (key: value at line).
local function region_property(file, line, r, key, value)
  if key == "bounds" then
    local n = numbers(file, line, value, 4)
    r.x, r.y, r.width, r.height = n[1], n[2], n[3], n[4]
  elseif key == "xy" then
    local n = numbers(file, line, value, 2)
    r.x, r.y = n[1], n[2]
  elseif key == "size" then
    local n = numbers(file, line, value, 2)
    r.width, r.height = n[1], n[2]
  elseif key == "offsets" then
    local n = numbers(file, line, value, 4)
    r.offset_x, r.offset_y, r.original_width, r.original_height = n[1], n[2], n[3], n[4]
  elseif key == "orig" then
    local n = numbers(file, line, value, 2)
    r.original_width, r.original_height = n[1], n[2]
  elseif key == "offset" then
    local n = numbers(file, line, value, 2)
    r.offset_x, r.offset_y = n[1], n[2]
  elseif key == "rotate" then
    local v = value:match("^%s*(.-)%s*$")
    r.degrees = v == "true" and 90 or v == "false" and 0 or tonumber(v)
    if r.degrees ~= 0 and r.degrees ~= 90 and r.degrees ~= 180 and r.degrees ~= 270 then
      fail(file, line, format("rotate must be true, false, 0, 90, 180 or 270, got %q", v))
    end
  elseif key == "index" then
    r.index = tonumber(value)
  end
end

-- A region's texture coordinates, and the sizes left out defaulted.
local function region_finish(file, r, page)
  if not (r.x and r.y and r.width and r.height) then
    fail(file, r.line, format("region %q has no bounds", r.name))
  end
  r.offset_x, r.offset_y = r.offset_x or 0, r.offset_y or 0
  r.original_width = r.original_width or r.width
  r.original_height = r.original_height or r.height
  r.degrees = r.degrees or 0
  -- packed turned a quarter, the rectangle in the page is height by width
  local pw, ph = r.width, r.height
  if r.degrees == 90 or r.degrees == 270 then pw, ph = r.height, r.width end
  r.u, r.v = r.x / page.width, r.y / page.height
  r.u2, r.v2 = (r.x + pw) / page.width, (r.y + ph) / page.height
  r.line = nil
end

--- atlas.read(text, file) -> atlas: Spine's .atlas text (4.x, and the older
-- xy / size / orig / offset keys)
function atlas.read(text, file)
  file = file or "<atlas>"
  if type(text) ~= "string" then error(file .. ": the atlas must be text", 0) end
  local pages, regions = {}, {}
  local page, region, fresh = nil, nil, true
  local n = 0
  for raw in (text .. "\n"):gmatch("([^\n]*)\n") do
    n = n + 1
    local line = raw:gsub("\r$", "")
    local key, value = line:match("^%s*([%w_]+)%s*:%s*(.*)$")
    if line:match("^%s*$") then
      if region then region_finish(file, region, page) end
      region, fresh = nil, true
    elseif key then
      if region then
        region_property(file, n, region, key, value)
      elseif page then
        page_property(file, n, page, key, value)
      else
        fail(file, n, "a property before any page")
      end
    elseif fresh or not page then
      if page and not page.width then fail(file, n, format("page %q has no size", page.name)) end
      page = { name = line:match("^%s*(.-)%s*$"), min_filter = "linear", mag_filter = "linear",
        wrap_u = "clamp", wrap_v = "clamp", pma = false }
      pages[#pages + 1] = page
      fresh = false
    else
      if region then region_finish(file, region, page) end
      if not page.width then fail(file, n, format("page %q has no size", page.name)) end
      local name = line:match("^%s*(.-)%s*$")
      region = { name = name, page = #pages, line = n }
      regions[name] = region
    end
  end
  if region then region_finish(file, region, page) end
  if #pages == 0 then fail(file, n, "no page") end
  return { pages = pages, regions = regions }
end

-- ------------------------------------------------------------------
-- DragonBones' _tex.json
-- ------------------------------------------------------------------

--- atlas.read_tex(decoded, file) -> atlas: a DragonBones texture atlas
-- (imagePath, width, height, SubTexture[] { name, x, y, width, height,
-- frameX, frameY, frameWidth, frameHeight, rotated })
-- a finite number
local function is_number(v)
  return type(v) == "number" and v == v and v ~= math.huge and v ~= -math.huge
end

function atlas.read_tex(t, file)
  file = file or "<tex.json>"
  if type(t) ~= "table" then error(file .. ": the atlas must be a decoded JSON object", 0) end
  local width, height = t.width, t.height
  if not is_number(width) or not is_number(height) or width <= 0 or height <= 0 then
    error(file .. ": width and height must be numbers > 0", 0)
  end
  local page = { name = t.imagePath or (t.name and t.name .. ".png") or "texture.png",
    width = width, height = height, min_filter = "linear", mag_filter = "linear",
    wrap_u = "clamp", wrap_v = "clamp", pma = false }
  local regions = {}
  for i, s in ipairs(t.SubTexture or {}) do
    if type(s.name) ~= "string" or not (is_number(s.x) and is_number(s.y)
        and is_number(s.width) and is_number(s.height)) then
      error(format("%s: SubTexture[%d]: name, x, y, width and height required", file, i), 0)
    end
    -- the frame: the original image, the kept rectangle at (-frameX,
    -- -frameY) in it from its top left; offsets count from its bottom left
    local fw, fh = s.frameWidth or s.width, s.frameHeight or s.height
    local r = { name = s.name, page = 1, x = s.x, y = s.y, width = s.width, height = s.height,
      original_width = fw, original_height = fh, offset_x = -(s.frameX or 0),
      offset_y = fh - s.height + (s.frameY or 0), degrees = s.rotated and 90 or 0 }
    if s.rotated then r.width, r.height = s.height, s.width end
    region_finish(file, r, page)
    regions[s.name] = r
  end
  return { pages = { page }, regions = regions }
end

-- ------------------------------------------------------------------
-- where an attachment's image lies
-- ------------------------------------------------------------------

--- the region an attachment of width by height shows when no atlas has
-- its image: the whole texture, nothing cut
function atlas.whole(width, height)
  return { width = width, height = height, offset_x = 0, offset_y = 0, original_width = width,
    original_height = height, degrees = 0, u = 0, v = 0, u2 = 1, v2 = 1 }
end

--- a region attachment's corners in its bone's space, bottom-left,
-- top-left, top-right, bottom-right (x, y pairs): the attachment's
-- rectangle (width by height, centred on its origin, scaled) keeps the
-- kept part of the image where the original had it, scaled by the
-- attachment's size over the original's, turned by its angle and moved
-- to (x, y)
function atlas.region_corners(a, r, out)
  out = out or {}
  local sx, sy = a.scale_x or 1, a.scale_y or 1
  local rsx = a.width / r.original_width * sx
  local rsy = a.height / r.original_height * sy
  local x1 = -a.width / 2 * sx + r.offset_x * rsx
  local y1 = -a.height / 2 * sy + r.offset_y * rsy
  local x2 = x1 + r.width * rsx
  local y2 = y1 + r.height * rsy
  local c, s = rot(a.angle or 0)
  local x, y = a.x or 0, a.y or 0
  local x1c, x1s, y1c, y1s = x1 * c + x, x1 * s, y1 * c + y, y1 * s
  local x2c, x2s, y2c, y2s = x2 * c + x, x2 * s, y2 * c + y, y2 * s
  out[1], out[2] = x1c - y1s, y1c + x1s
  out[3], out[4] = x1c - y2s, y2c + x1s
  out[5], out[6] = x2c - y2s, y2c + x2s
  out[7], out[8] = x2c - y1s, y1c + x2s
  return out
end

--- a region's corners' texture coordinates, in region_corners' order:
-- (u, v2), (u, v), (u2, v), (u2, v2), turned with the packing
function atlas.region_uvs(r, out)
  out = out or {}
  local u, v, u2, v2 = r.u, r.v, r.u2, r.v2
  if r.degrees == 90 then
    out[1], out[2], out[3], out[4], out[5], out[6], out[7], out[8] = u2, v2, u, v2, u, v, u2, v
  elseif r.degrees == 180 then
    out[1], out[2], out[3], out[4], out[5], out[6], out[7], out[8] = u2, v, u2, v2, u, v2, u, v
  elseif r.degrees == 270 then
    out[1], out[2], out[3], out[4], out[5], out[6], out[7], out[8] = u, v, u2, v, u2, v2, u, v2
  else
    out[1], out[2], out[3], out[4], out[5], out[6], out[7], out[8] = u, v2, u, v, u2, v, u2, v2
  end
  return out
end

--- a mesh's texture coordinates: its uvs (0 to 1 over the original
-- image, v down) into the page, through the kept rectangle's place and
-- turn
function atlas.mesh_uvs(uvs, r, page, out)
  out = out or {}
  local pw, ph = page and page.width or 1, page and page.height or 1
  local ow, oh = r.original_width, r.original_height
  -- the original image's top left in page pixels and its axes there: the
  -- kept part starts offset_x in and (oh - offset_y - height) down
  local left, top = r.offset_x, oh - r.offset_y - r.height
  for i = 1, #uvs, 2 do
    local px, py = uvs[i] * ow - left, uvs[i + 1] * oh - top
    local x, y
    if r.degrees == 90 then
      x, y = r.x + py, r.y + r.width - px
    elseif r.degrees == 180 then
      x, y = r.x + r.width - px, r.y + r.height - py
    elseif r.degrees == 270 then
      x, y = r.x + r.height - py, r.y + px
    else
      x, y = r.x + px, r.y + py
    end
    out[i], out[i + 1] = x / pw, y / ph
  end
  return out
end

return atlas
