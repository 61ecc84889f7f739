-- ik2d.rig.spine_skins: a Spine 4.2 file's skins and their attachments
-- as the rig description's (docs/rig-format.md), for ik2d.rig.spine.
--
-- Skins are an array; each maps slot names to entry names to attachments
-- and names the bones and constraints it turns on.  Attachments: region,
-- mesh (unweighted when `vertices` has two numbers a vertex, else a list
-- of `n, (bone, x, y, weight) x n` a vertex), linkedmesh (resolved once
-- every skin is read), boundingbox, path, point and clipping (read,
-- listed as not drawn).  Every index becomes 1-based.

local check = require "ik2d.rig.check"
local units = require "ik2d.rig.spine_units"

local skins = {}

local fail, show, kind, key_of = check.fail, check.show, check.kind, check.key
local number, nonnegative, whole, boolean = check.number, check.nonnegative, check.whole, check.boolean
local is_absent = check.is_absent
local DEG = units.DEG
local floor, format, type = math.floor, string.format, type
local tointeger = math.tointeger or function(v) return v end

-- ------------------------------------------------------------------
-- vertices
-- ------------------------------------------------------------------

-- `vertices` of an attachment of `count` vertices: 2 numbers a vertex
-- (x, y in the slot bone's space) or weighted, each vertex
-- n, (bone index from 0, x, y, weight) x n.  Returns vertices or weights
-- (bone indices from 1) and how many numbers a deform key of it has
-- (2 a vertex, or 2 a bone of a vertex when weighted).
local function read_vertices(R, map, count, where, counted)
  local list = check.numbers(map, "vertices", where, true)
  if #list == 2 * count then return list, nil, 2 * count end
  -- a weighted vertex has at least 5 numbers
  if #list < 2 * count then
    fail(where, format("vertices has %d numbers: %d vertices (%s) need %d, or a weighted list", #list, count,
                       counted, 2 * count))
  end
  local bone_count = #R.bones
  local weights, pos, influences = {}, 1, 0
  for v = 1, count do
    local n = list[pos]
    if n == nil then
      fail(where, format("vertices has %d numbers: %d weighted vertices (%s) need more", #list, count, counted))
    end
    if n ~= floor(n) or n < 1 then
      fail(where, format("vertices: vertex %d's bone count must be a whole number >= 1, got %s", v, show(n)))
    end
    if pos + 4 * n > #list then
      fail(where, format("vertices: vertex %d's %d bones run past the end of the %d numbers", v, n, #list))
    end
    weights[#weights + 1] = tointeger(n)
    for b = 1, n do
      local at = pos + 4 * b - 3
      local bone = list[at]
      if bone ~= floor(bone) or bone < 0 or bone >= bone_count then
        fail(where, format("vertices: vertex %d names bone %s, and the skeleton has %d bones (0 to %d)",
                           v, show(bone), bone_count, bone_count - 1))
      end
      weights[#weights + 1] = tointeger(bone + 1)
      weights[#weights + 1] = list[at + 1]
      weights[#weights + 1] = list[at + 2]
      weights[#weights + 1] = list[at + 3]
    end
    influences = influences + n
    pos = pos + 1 + 4 * n
  end
  if pos <= #list then
    fail(where, format("vertices has %d numbers more than its %d weighted vertices (%s)", #list - pos + 1,
                       count, counted))
  end
  return nil, weights, 2 * influences
end

-- an attachment that counts its vertices in `vertexCount`
local function counted_vertices(R, map, where, att)
  local count = whole(map, "vertexCount", nil, where, 0)
  local vertices, weights, deform_length = read_vertices(R, map, count, where, "vertexCount")
  att.vertices, att.weights = vertices, weights
  return deform_length
end

-- ------------------------------------------------------------------
-- one attachment of each type
-- ------------------------------------------------------------------

-- path: the image's name, `path` or the attachment's `name` or its key
local function image_path(map, entry, where)
  return check.optional_string(map, "path", where) or check.optional_string(map, "name", where) or entry
end

local function note_sequence(R, map, place)
  if not is_absent(map.sequence) then R:note_unsupported(format("sequence of %s: not played", place)) end
end

local read = {}

function read.region(R, map, where, entry, place)
  note_sequence(R, map, place)
  return {
    type = "region", path = image_path(map, entry, where),
    x = number(map, "x", 0, where), y = number(map, "y", 0, where),
    angle = number(map, "rotation", 0, where) * DEG,
    scale_x = number(map, "scaleX", 1, where), scale_y = number(map, "scaleY", 1, where),
    width = nonnegative(map, "width", 32, where), height = nonnegative(map, "height", 32, where),
    color = units.rgba(map, "color", where),
  }
end

function read.mesh(R, map, where, entry, place)
  note_sequence(R, map, place)
  local uvs = check.numbers(map, "uvs", where, true)
  if #uvs % 2 ~= 0 then fail(where, format("uvs must have 2 numbers a vertex, got %d numbers", #uvs)) end
  local count = #uvs / 2
  local att = {
    type = "mesh", path = image_path(map, entry, where), color = units.rgba(map, "color", where),
    width = nonnegative(map, "width", 0, where), height = nonnegative(map, "height", 0, where),
    uvs = uvs, hull = whole(map, "hull", 0, where, 0, count),
  }
  local deform_length
  att.vertices, att.weights, deform_length = read_vertices(R, map, count, where, format("uvs: %d", count))
  local triangles = check.array(map, "triangles", where, true)
  if #triangles % 3 ~= 0 then
    fail(where, format("triangles must have 3 vertex indices a triangle, got %d", #triangles))
  end
  local out = {}
  for j = 1, #triangles do
    local v = triangles[j]
    if type(v) ~= "number" or v ~= floor(v) then
      fail(where, format("triangles[%d] must be a whole number, got %s", j, type(v) == "number" and show(v) or kind(v)))
    end
    if v < 0 or v >= count then
      fail(where, format("triangles[%d] is %s, and the mesh has %d vertices (0 to %d)", j, show(v), count, count - 1))
    end
    out[j] = tointeger(v + 1)
  end
  att.triangles = out
  R.deform_length[att] = deform_length
  return att
end

function read.linkedmesh(R, map, where, entry, place)
  note_sequence(R, map, place)
  local att = {
    type = "linkedmesh", path = image_path(map, entry, where),
    parent = check.string(map, "parent", nil, where),
    skin = check.optional_string(map, "skin", where),
    deform = boolean(map, "timelines", true, where),
    color = units.rgba(map, "color", where),
    width = nonnegative(map, "width", 0, where), height = nonnegative(map, "height", 0, where),
  }
  return att
end

function read.boundingbox(R, map, where)
  local att = { type = "boundingbox" }
  R.deform_length[att] = counted_vertices(R, map, where, att)
  return att
end

function read.path(R, map, where)
  local att = {
    type = "path", closed = boolean(map, "closed", false, where),
    constant_speed = boolean(map, "constantSpeed", true, where),
    lengths = check.numbers(map, "lengths", where) or {},
  }
  R.deform_length[att] = counted_vertices(R, map, where, att)
  return att
end

function read.point(_, map, where)
  return {
    type = "point", x = number(map, "x", 0, where), y = number(map, "y", 0, where),
    angle = number(map, "rotation", 0, where) * DEG,
  }
end

function read.clipping(R, map, where, _, place)
  local att = { type = "clipping", ["end"] = check.optional_string(map, "end", where) }
  if att["end"] and not R.slot_index[att["end"]] then
    fail(where, format("end %s is not a slot", show(att["end"])))
  end
  R.deform_length[att] = counted_vertices(R, map, where, att)
  R:note_unsupported(format("clipping %s: not drawn", place))
  return att
end

local TYPES = { "region", "mesh", "linkedmesh", "boundingbox", "path", "point", "clipping" }

local function read_attachment(R, map, where, entry, place)
  local type_name = check.string(map, "type", "region", where)
  local reader = read[type_name]
  if not reader then
    fail(where, format("type %s is not an attachment type (%s)", show(type_name), table.concat(TYPES, ", ")))
  end
  return reader(R, map, where, entry, place)
end

-- ------------------------------------------------------------------
-- skins
-- ------------------------------------------------------------------

-- A skin's list of names (bones, ik, ...), each in `index`.
local function names_in(skin, key, where, index, what)
  local list = check.array(skin, key, where)
  if not list or #list == 0 then return nil end
  local names = {}
  for j = 1, #list do
    local name = list[j]
    if type(name) ~= "string" then fail(where, format("%s[%d] must be a name, got %s", key, j, kind(name))) end
    if not index[name] then fail(where, format("%s[%d] %s is not %s", key, j, show(name), what)) end
    names[j] = name
  end
  return names
end

local function read_attachments(R, map, where, skin_name)
  local out = {}
  local by_slot = check.object(map, "attachments", where)
  if not by_slot then return out end
  where = where .. ".attachments"
  for _, slot in ipairs(check.sorted_keys(by_slot, where)) do
    local slot_where = key_of(where, slot)
    if not R.slot_index[slot] then fail(where, format("slot %s is not a slot", show(slot))) end
    local entries = by_slot[slot]
    if not check.is_object(entries) then fail(slot_where, "must be an object, got " .. kind(entries)) end
    local atts = {}
    for _, entry in ipairs(check.sorted_keys(entries, slot_where)) do
      local entry_where = key_of(slot_where, entry)
      local att_map = entries[entry]
      if not check.is_object(att_map) then fail(entry_where, "must be an object, got " .. kind(att_map)) end
      local place = format("attachment %s (skin %s, slot %s)", show(entry), show(skin_name), show(slot))
      local att = read_attachment(R, att_map, entry_where, entry, place)
      if att.type == "linkedmesh" then R.linked[#R.linked + 1] = { att = att, where = entry_where, slot = slot } end
      atts[entry] = att
    end
    out[slot] = atts
  end
  return out
end

local function read_skin(R, map, i, seen)
  local where = check.item("skins", i)
  local name = check.string(map, "name", nil, where)
  where = check.item("skins", i, name)
  check.unique(seen, name, i, where, "skins")
  names_in(map, "path", where, R.path_index, "a path constraint")
  names_in(map, "physics", where, R.physics_index, "a physics constraint")
  return {
    name = name,
    bones = names_in(map, "bones", where, R.bone_index, "a bone"),
    solvers = names_in(map, "ik", where, R.solver_index, "an IK constraint"),
    constraints = names_in(map, "transform", where, R.constraint_index, "a transform constraint"),
    attachments = read_attachments(R, map, where, name),
  }
end

-- A linked mesh takes its parent's vertices: the parent is a mesh of the
-- same slot in the skin named (the default skin when none is).
local function resolve_linked(R, by_name)
  for _, link in ipairs(R.linked) do
    local att, where = link.att, link.where
    local skin_name = att.skin or "default"
    local skin = by_name[skin_name]
    if not skin then fail(where, format("skin %s is not a skin", show(skin_name))) end
    att.skin = skin_name
    local parent = skin.attachments[link.slot] and skin.attachments[link.slot][att.parent]
    if not parent or parent.type ~= "mesh" then
      fail(where, format("parent %s is not a mesh of the same slot in skin %s%s", show(att.parent),
                         show(skin_name), parent and " (it is a " .. parent.type .. ")" or ""))
    end
    R.deform_length[att] = R.deform_length[parent]
  end
end

--- skins.read(R, file) -> the description's skins ("default" first);
-- R.skin_index maps names to them.  R: the reader's state (bones, slots,
-- constraint names, note_unsupported).
function skins.read(R, file)
  R.linked, R.deform_length, R.skin_index = {}, {}, {}
  local list = file.skins
  if is_absent(list) then return {} end
  if not check.is_array(list) then fail("skins", "must be an array of skins (Spine 4's form), got " .. kind(list)) end
  local out, seen = {}, {}
  for i = 1, #list do
    local skin = read_skin(R, check.entry(list, i, "skins"), i, seen)
    out[#out + 1] = skin
    R.skin_index[skin.name] = skin
  end
  resolve_linked(R, R.skin_index)
  -- "default" first: every other skin falls back to it
  for i, skin in ipairs(out) do
    if skin.name == "default" and i > 1 then
      table.remove(out, i)
      table.insert(out, 1, skin)
      break
    end
  end
  return out
end

return skins
