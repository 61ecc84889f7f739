-- hero_atlas: where each of the hero's images goes on the atlas page, and
-- the page's description as Spine's .atlas 4.x text.  The generator
-- writes the text (make_hero.lua); the painter (paint/main.lua) puts the
-- pixels where the text says.
--
-- A region: `bounds: x, y, w, h`, the kept pixels' top-left corner on
-- the page (y down) and their size as the image stands (w across, before
-- any rotation); `offsets: left, bottom, width, height`, the transparent
-- pixels stripped off the image's left and bottom edges and the image's
-- whole size (written only for stripped images); `rotate: 90`, the kept
-- pixels stored turned 90 degrees counter-clockwise, so they cover h
-- across and w down on the page: the image's top edge runs down the
-- region's left side, its left edge along the region's bottom, and image
-- pixel (u, v) (from the kept box's top-left) is page pixel
-- (x + v, y + w - u).

local hero_atlas = {}

local PAD = 2             -- transparent pixels around each region
local WIDTH = 256         -- the page's width

-- the kept box of an image: left, top, right, bottom
local function kept(image)
  local keep = image.keep
  if keep then return keep[1], keep[2], keep[3], keep[4] end
  return 0, 0, image.w, image.h
end

--- hero_atlas.pack(images) -> { width =, height =, regions = { [name] = region }, names = { sorted } }
-- Each region: x, y (page), w, h (kept size as the image stands), rotate,
-- left, bottom (stripped pixels), original_w, original_h.  Shelves from
-- the tallest footprint down, left to right; the page as tall as needed,
-- a power of two.
function hero_atlas.pack(images)
  local items = {}
  for _, image in ipairs(images) do
    local left, top, right, bottom = kept(image)
    local w, h = right - left, bottom - top
    local region = {
      name = image.name, w = w, h = h, rotate = image.rotate or false,
      left = left, bottom = image.h - bottom, top = top, original_w = image.w, original_h = image.h,
      stripped = image.stripped,
    }
    region.page_w, region.page_h = w, h
    if region.rotate then region.page_w, region.page_h = h, w end
    items[#items + 1] = region
  end
  table.sort(items, function(a, b)
    if a.page_h ~= b.page_h then return a.page_h > b.page_h end
    return a.name < b.name
  end)
  local x, y, shelf = PAD, PAD, 0
  local regions, names = {}, {}
  for _, r in ipairs(items) do
    if x + r.page_w + PAD > WIDTH then
      x, y, shelf = PAD, y + shelf + PAD, 0
    end
    r.x, r.y = x, y
    x = x + r.page_w + PAD
    if r.page_h > shelf then shelf = r.page_h end
    regions[r.name] = r
    names[#names + 1] = r.name
  end
  table.sort(names)
  local height = 1
  while height < y + shelf + PAD do height = height * 2 end
  return { width = WIDTH, height = height, regions = regions, names = names }
end

--- hero_atlas.text(packed, page_name) -> the .atlas text: the page line,
-- its size and filter, then each region (by name) with its bounds, its
-- offsets when stripped, rotate when turned.
function hero_atlas.text(packed, page_name)
  local lines = {
    page_name,
    ("\tsize: %d, %d"):format(packed.width, packed.height),
    "\tfilter: Linear, Linear",
  }
  for _, name in ipairs(packed.names) do
    local r = packed.regions[name]
    lines[#lines + 1] = name
    lines[#lines + 1] = ("\tbounds: %d, %d, %d, %d"):format(r.x, r.y, r.w, r.h)
    if r.stripped then
      lines[#lines + 1] = ("\toffsets: %d, %d, %d, %d"):format(r.left, r.bottom, r.original_w, r.original_h)
    end
    if r.rotate then lines[#lines + 1] = "\trotate: 90" end
  end
  return table.concat(lines, "\n") .. "\n"
end

return hero_atlas
