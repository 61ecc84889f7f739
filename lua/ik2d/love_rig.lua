-- ik2d.love_rig: a rig (ik2d.rig) drawn in LÖVE 11 from its atlas, for
-- ik2d.love.draw_rig.  Require it only inside LÖVE.
--
-- Each region and mesh attachment is a love.graphics.newMesh made once,
-- textured with its atlas page; each frame the core writes the world
-- vertices of every drawn slot in one call, and they go into the meshes:
-- under LuaJIT with the C core through the FFI into a ByteData a mesh
-- (ik2d_slots_all_vertices, then the positions copied as floats beside
-- the uvs), elsewhere through rig:attachments and Mesh:setVertices from
-- tables made once.  Slots draw in the rig's drawing order with the
-- attachment its clips keyed, tinted by the slot's colour times the
-- attachment's, with the slot's blend; nothing is allocated a frame.
--
-- What LÖVE's default shader draws: one colour a draw, so a slot's dark
-- colour (Spine's two-colour tint) is not drawn (rig:attachments gives
-- it).  Blends: normal is "alpha", additive "add", multiply "multiply"
-- and screen "screen", with the alpha mode "premultiplied" for a page
-- whose atlas says pma (the tint premultiplied too) and always for
-- multiply (LÖVE's rule), else "alphamultiply".

local source = require "ik2d.rig.source"
local common = require "ik2d.common"

local has_ffi, ffi = pcall(require, "ffi")

local M = {}

local rawget, type, error = rawget, type, error
local show = common.show

-- the vertices of every mesh: position and texture coordinates, 4 floats
local FORMAT = { { "VertexPosition", "float", 2 }, { "VertexTexCoord", "float", 2 } }
local FLOATS = 4

local LOVE_BLEND = { normal = "alpha", additive = "add", multiply = "multiply", screen = "screen" }

-- per rig, its drawer (made on the first draw)
local drawers = setmetatable({}, { __mode = "k" })

-- ------------------------------------------------------------------
-- making: page images and meshes, once
-- ------------------------------------------------------------------

local function folder_of(path)
  return path and path:match("^(.*[/\\])") or ""
end

-- The image of an atlas page: the file beside the atlas (through
-- love.filesystem when it has it, else read as a file anywhere), its
-- filter and wrap set as the atlas says.
local function page_image(atlas, page)
  local g = love.graphics
  local path = folder_of(atlas.file) .. page.name
  local image
  if love.filesystem.getInfo(path, "file") then
    image = g.newImage(path)
  else
    local bytes, message = source.read_file(path)
    if not bytes then error("ik2d.love: draw_rig: page " .. path .. ": " .. tostring(message), 0) end
    image = g.newImage(love.filesystem.newFileData(bytes, page.name))
  end
  image:setFilter(page.min_filter or "linear", page.mag_filter or "linear")
  image:setWrap(page.wrap_u or "clamp", page.wrap_v or "clamp")
  return image
end

-- The page attachment record shows (its image's region's), or nil.
local function page_of(rig, record)
  local atlas = rig.atlas
  local region = atlas and atlas.regions[record.data.path or record.name]
  return region and atlas.pages[region.page]
end

-- A mesh for attachment record: its triangles, texture and uvs set; the
-- positions are written each frame.
local function mesh_of(record, image, page, through_ffi)
  local uvs = record.uvs
  local count = #uvs / 2
  local mesh = love.graphics.newMesh(FORMAT, count, "triangles", "stream")
  local map = {}
  for k, v in ipairs(record.triangles) do map[k] = v end
  mesh:setVertexMap(map)
  if image then mesh:setTexture(image) end
  local m = { mesh = mesh, count = count, pma = page ~= nil and page.pma == true,
    attachment = record.index }
  if through_ffi then
    m.data = love.data.newByteData(count * FLOATS * 4)
    m.pointer = ffi.cast("float *", m.data:getFFIPointer())
    for v = 0, count - 1 do
      m.pointer[FLOATS * v + 2], m.pointer[FLOATS * v + 3] = uvs[2 * v + 1], uvs[2 * v + 2]
    end
    mesh:setVertices(m.data)
  else
    m.vertices = {}
    for v = 1, count do m.vertices[v] = { 0, 0, uvs[2 * v - 1], uvs[2 * v] } end
    mesh:setVertices(m.vertices)
  end
  return m
end

-- The FFI view of the rig's core objects: the library and pointers, or
-- nil (the pure core, LuaJIT's FFI off, or not LuaJIT).
local function ffi_view(rig)
  if not has_ffi then return nil end
  local ik2d = require "ik2d"
  if not ik2d.ffi then return nil end
  return require("ik2d.ffi").rig_view(rig._core_slots, rig.skeleton)
end

-- Room for the world vertices of every drawn slot: doubles and the drawn
-- slots' indices, as many as max doubles.
local function ffi_room(d, max)
  d.max = max
  d.out = ffi.new("double[?]", max)
  d.drawn_c = ffi.new("int[?]", #d.rig.slots)
end

local function drawer_of(rig)
  local d = { rig = rig, meshes = {}, n = 0, drawn = {}, drawn_meshes = {}, images = {},
    entries = {} }
  d.C = ffi_view(rig)
  d.mode = d.C and "ffi" or "tables"
  local total = 0
  for index, record in ipairs(rig.attachments) do
    if record.kind == "region" or record.kind == "mesh" then
      local page = page_of(rig, record)
      local image = page and d.images[page]
      if page and not image then
        image = page_image(rig.atlas, page)
        d.images[page] = image
      end
      d.meshes[index] = mesh_of(record, image, page, d.C ~= nil)
      total = total + 2 * d.meshes[index].count
    end
  end
  if d.C then
    ffi_room(d, total + 8)
    d.tint = ffi.new("double[4]")
  end
  return d
end

-- ------------------------------------------------------------------
-- each frame: the vertices into the meshes
-- ------------------------------------------------------------------

-- Through the FFI: one core call for every drawn slot's vertices, then
-- each one's positions as floats beside its uvs in its ByteData.
local function update_ffi(d)
  local C, slots, skeleton = require("ik2d.ffi").rig_view(d.rig._core_slots, d.rig.skeleton)
  if not C then return false end
  d.slots_pointer = slots
  local n = C.ik2d_slots_all_vertices(slots, skeleton, d.out, d.max, d.drawn_c)
  while n < 0 do
    ffi_room(d, 2 * d.max)
    n = C.ik2d_slots_all_vertices(slots, skeleton, d.out, d.max, d.drawn_c)
  end
  local out, drawn_c, meshes, at = d.out, d.drawn_c, d.meshes, 0
  for k = 0, n - 1 do
    local i = drawn_c[k]
    local m = meshes[C.ik2d_slots_attachment(slots, i) + 1]
    local p = m.pointer
    for v = 0, m.count - 1 do
      p[FLOATS * v], p[FLOATS * v + 1] = out[at + 2 * v], out[at + 2 * v + 1]
    end
    at = at + 2 * m.count
    m.mesh:setVertices(m.data)
    d.drawn[k + 1], d.drawn_meshes[k + 1] = i + 1, m
  end
  d.n = n
  return true
end

-- Elsewhere: rig:attachments into tables made once, then setVertices.
local function update_tables(d)
  local entries = d.rig:attachments(d.entries)
  local n = #entries
  for k = 1, n do
    local e = entries[k]
    local m = d.meshes[e.attachment_index]
    local vertices, list = e.vertices, m.vertices
    for v = 1, m.count do
      local vertex = list[v]
      vertex[1], vertex[2] = vertices[2 * v - 1], vertices[2 * v]
    end
    m.mesh:setVertices(list)
    d.drawn[k], d.drawn_meshes[k] = e.slot_index, m
  end
  d.n = n
end

-- ------------------------------------------------------------------
-- drawing
-- ------------------------------------------------------------------

local function tint(d, i)
  if d.slots_pointer then
    local t = d.tint
    d.C.ik2d_slots_tint(d.slots_pointer, i - 1, t)
    return t[0], t[1], t[2], t[3]
  end
  return d.rig._core_slots:tint(i)
end

local function draw_drawn(d, x, y)
  local g = love.graphics
  local slots = d.rig.slots
  for k = 1, d.n do
    local i, m = d.drawn[k], d.drawn_meshes[k]
    local r, gr, b, a = tint(d, i)
    local mode = LOVE_BLEND[slots[i].blend or "normal"] or "alpha"
    if m.pma or mode == "multiply" then
      g.setBlendMode(mode, "premultiplied")
      if m.pma then r, gr, b = r * a, gr * a, b * a end
    else
      g.setBlendMode(mode, "alphamultiply")
    end
    g.setColor(r, gr, b, a)
    g.draw(m.mesh, x, y)
  end
end

--- draw_rig(rig [, x, y]): every drawn slot of rig as its last apply left
-- it, moved by (x, y) (default 0, 0).  The colour and blend mode are put
-- back after.
function M.draw_rig(rig, x, y)
  if type(rig) ~= "table" or not rig.skeleton or type(rig.attachments) ~= "table" then
    error("ik2d.love: draw_rig: rig must be an ik2d rig, got " .. show(rig), 2)
  end
  x, y = x or 0, y or 0
  if type(x) ~= "number" or type(y) ~= "number" then
    error("ik2d.love: draw_rig: x and y must be numbers", 2)
  end
  if not rig._core_slots then return end
  local d = drawers[rig]
  if not d then
    d = drawer_of(rig)
    drawers[rig] = d
  end
  d.slots_pointer = nil
  if d.mode ~= "ffi" or not update_ffi(d) then update_tables(d) end
  local g = love.graphics
  local r, gr, b, a = g.getColor()
  local mode, alpha = g.getBlendMode()
  draw_drawn(d, x, y)
  g.setColor(r, gr, b, a)
  g.setBlendMode(mode, alpha)
end

--- rig_drawer(rig) -> what draw_rig made for rig and wrote at its last
-- call (nil before the first): { mode = "ffi" | "tables", n = how many
-- slots drew, drawn = { slot indices }, drawn_meshes = { { mesh =,
-- count =, attachment = index, pma = } } } (a test reads back what the
-- meshes hold)
function M.rig_drawer(rig)
  return drawers[rawget(rig, "skeleton") and rig]
end

return M
