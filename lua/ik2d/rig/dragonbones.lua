-- ik2d.rig.dragonbones: reads a DragonBones 5.x armature (`*_ske.json`,
-- already decoded) into the rig description (docs: the rig description),
-- the format-neutral table every ik2d reader produces and one builder
-- turns into core objects. It checks all of the file and makes no core
-- object: a malformed file raises one error `file: where: problem`.
--
--   local rig = require("ik2d.rig.dragonbones").read(decoded, "hero_ske.json" [, "hero"])
--
-- How DragonBones maps onto the description (derived from DragonBonesJS's
-- Bone, IKConstraint and timeline code, MIT):
-- - Axes: y down, angles clockwise on screen: the description's own, no
--   y flip (y_up = false).
-- - A bone's transform (x, y, skX, skY, scX, scY): the runtime's matrix
--   has x axis (cos r, sin r) sx and y axis (-sin(r + k), cos(r + k)) sy
--   with r = skY and skew k = skX - skY, both in radians after
--   normalisation to (-pi, pi]. That is the description's model with
--   angle = r, shear_x = 0, shear_y = k.
-- - The inherit flags become the inherit mode of the same name
--   (inherit_mode below) and inherit_translation = false; ik2d.rig.load
--   composes them by the runtime's rules (ik2d.rig.dragonbones_pose).
-- - IK: chain 0 turns one bone, chain 1 bends two (the named bone and its
--   parent); the runtime's elbow for bendPositive lies on the side of the
--   root-to-target line the negative angles turn to (anticlockwise on a
--   y-down screen: above the line for a target to the right), so the
--   child turns the positive way: bend = 1, the sign of the elbow's local
--   angle (and -1 for bendPositive false).
-- - Animations: ik2d.rig.dragonbones_clip.

local data = require "ik2d.rig.dragonbones_data"
local clip = require "ik2d.rig.dragonbones_clip"

local dragonbones = {
  _VERSION = require("ik2d.api").version,
  _DESCRIPTION = "ik2d.rig.dragonbones: DragonBones 5.x armatures read into the rig description",
}

local at, fail, show, f32 = data.at, data.fail, data.show, data.f32
local read_transform, transform_matrix = data.read_transform, data.transform_matrix
local number, string_of, boolean, object, array = data.number, data.string, data.boolean, data.object, data.array
local whole, numbers, is_null, float = data.whole, data.numbers, data.is_null, data.float
local format = string.format

-- the most bones and slots the core takes (lua/ik2d/api.lua's constants)
local MAX_BONES, MAX_SLOTS
for _, c in ipairs(require("ik2d.api").constants) do
  if c.name == "MAX_SKELETON_BONES" then MAX_BONES = c.value end
  if c.name == "MAX_SLOTS" then MAX_SLOTS = c.value end
end

-- ------------------------------------------------------------------
-- Bones
-- ------------------------------------------------------------------

--- The inherit mode for a bone's flags (rotation, scale, reflection),
-- from Bone._updateGlobalTransformMatrix, P the parent's world matrix,
-- L the bone's local one, R(a) a rotation, p the angle of P's x axis
-- (exactly: docs/rig-format.md, DragonBones):
-- - scale inherited: rotation too: W = P L ("all"); rotation not:
--   W = P R(-p) L ("no_rotation_or_reflection").
-- - scale not inherited: rotation not either: the local axes
--   ("position"); rotation inherited: W = R(p) L while det P > 0
--   ("no_scale"; "no_scale_or_reflection" when reflection is off, which
--   differs under a mirrored parent).
-- Translation not inherited (the origin at the local x, y in armature
-- space, whatever the parent) is the bone's inherit_translation = false.
local function inherit_mode(has_parent, rotation, scale, reflection)
  if not has_parent then return "all" end
  if scale then
    if rotation then return "all" end
    return "no_rotation_or_reflection"
  end
  if not rotation then return "position" end
  if reflection then return "no_scale" end
  return "no_scale_or_reflection"
end

local function read_bone(ctx, place, raw)
  if type(raw) ~= "table" then fail(ctx, place, "must be an object, not %s", show(raw)) end
  local name = string_of(ctx, place, raw, "name", nil)
  if name == nil or name == "" then fail(ctx, place, "name is missing") end
  place.name = name
  local kind = raw.type
  if not is_null(kind) and kind ~= "bone" and kind ~= 0 then
    fail(ctx, place, "type %s is not read (ik2d reads plain bones, not surfaces)", show(kind))
  end
  local alpha = number(ctx, place, raw, "alpha", 1.0)
  if alpha ~= 1 then
    ctx.unsupported[#ctx.unsupported + 1] = format("bone %q: alpha %s (bone alpha is not played)", name, show(alpha))
  end
  local x, y, rotation, skew, scale_x, scale_y = read_transform(ctx, place, raw)
  if scale_x == 0 or scale_y == 0 then
    fail(ctx, at(place, "transform"), "%s is 0: ik2d's skeleton sets up no bone at scale 0 (key it in an "
      .. "animation instead)", scale_x == 0 and "scX" or "scY")
  end
  local length = number(ctx, place, raw, "length", 0.0)
  if length < 0 then fail(ctx, place, "length %s is negative", show(length)) end
  return {
    name = name, parent = string_of(ctx, place, raw, "parent", nil),
    length = float(length),
    x = x, y = y, angle = rotation, scale_x = scale_x, scale_y = scale_y,
    shear_x = 0.0, shear_y = skew,
    flags = { boolean(ctx, place, raw, "inheritTranslation", true), boolean(ctx, place, raw, "inheritRotation", true),
              boolean(ctx, place, raw, "inheritScale", true), boolean(ctx, place, raw, "inheritReflection", true) },
    place = place,
  }
end

--- Bones put parents first, otherwise in the file's order (DragonBones
-- allows a parent later in the file).
local function order_bones(ctx, raw_bones, by_name)
  local ordered, state = {}, {}
  local function visit(bone)
    if state[bone] == "done" then return end
    if state[bone] == "visiting" then
      fail(ctx, bone.place, "its parents lead back to itself")
    end
    state[bone] = "visiting"
    if bone.parent ~= nil then
      local parent = by_name[bone.parent]
      if parent == nil then fail(ctx, bone.place, "parent %q is not a bone of this armature", bone.parent) end
      visit(parent)
    end
    state[bone] = "done"
    ordered[#ordered + 1] = bone
  end
  for _, bone in ipairs(raw_bones) do visit(bone) end
  return ordered
end

local function read_bones(ctx, armature_place, raw)
  local list, n = array(ctx, armature_place, raw, "bone", {})
  if n > MAX_BONES then
    fail(ctx, at(armature_place, "bone"), "%d bones: ik2d's skeleton takes at most %d", n, MAX_BONES)
  end
  local raw_bones, by_name = {}, {}
  for i = 1, n do
    local bone = read_bone(ctx, at(armature_place, "bone", i), list[i])
    if by_name[bone.name] then fail(ctx, bone.place, "a second bone of this name") end
    by_name[bone.name] = bone
    raw_bones[i] = bone
  end
  local bones = order_bones(ctx, raw_bones, by_name)
  ctx.bone_index, ctx.raw_bones = {}, raw_bones
  for i, bone in ipairs(bones) do
    ctx.bone_index[bone.name] = i
    local f = bone.flags
    bone.inherit = inherit_mode(bone.parent ~= nil, f[2], f[3], f[4])
    if bone.parent ~= nil and not f[1] then bone.inherit_translation = false end
    bone.flags, bone.place = nil, nil
  end
  return bones
end

-- ------------------------------------------------------------------
-- Slots
-- ------------------------------------------------------------------

local BLEND = { normal = "normal", add = "additive", multiply = "multiply", screen = "screen" }
local BLEND_NUMBER = { [0] = "normal", [1] = "add", [10] = "multiply", [12] = "screen" }

--- A colour transform: multipliers (percent) as r, g, b, a in [0, 1];
-- offsets are not played.
local function read_color(ctx, place, raw, owner)
  local c = object(ctx, place, raw, "color", nil)
  if c == nil then return { 1.0, 1.0, 1.0, 1.0 } end
  local where = at(place, "color")
  for _, key in ipairs({ "aO", "rO", "gO", "bO" }) do
    if number(ctx, where, c, key, 0) ~= 0 then
      ctx.unsupported[#ctx.unsupported + 1] = format("%s: colour offsets (%s) are not played", owner, key)
      break
    end
  end
  return { number(ctx, where, c, "rM", 100) * 0.01, number(ctx, where, c, "gM", 100) * 0.01,
           number(ctx, where, c, "bM", 100) * 0.01, number(ctx, where, c, "aM", 100) * 0.01 }
end

local function read_blend(ctx, place, raw, name)
  local mode = raw.blendMode
  if is_null(mode) then return "normal" end
  if type(mode) == "number" then mode = BLEND_NUMBER[mode] or tostring(mode) end
  if type(mode) ~= "string" then fail(ctx, place, "blendMode must be a string, not %s", show(mode)) end
  local blend = BLEND[mode:lower()]
  if blend == nil then
    ctx.unsupported[#ctx.unsupported + 1] = format("slot %q: blend mode %q is drawn as normal", name, mode)
    blend = "normal"
  end
  return blend
end

local function read_slots(ctx, armature_place, raw)
  local list, n = array(ctx, armature_place, raw, "slot", {})
  if n > MAX_SLOTS then
    fail(ctx, at(armature_place, "slot"), "%d slots: ik2d's rig takes at most %d", n, MAX_SLOTS)
  end
  local slots = {}
  ctx.slot_index = {}
  for i = 1, n do
    local place, s = at(armature_place, "slot", i), list[i]
    if type(s) ~= "table" then fail(ctx, place, "must be an object, not %s", show(s)) end
    local name = string_of(ctx, place, s, "name", nil)
    if name == nil or name == "" then fail(ctx, place, "name is missing") end
    place.name = name
    if ctx.slot_index[name] then fail(ctx, place, "a second slot of this name") end
    local bone = string_of(ctx, place, s, "parent", nil)
    if bone == nil then fail(ctx, place, "parent (its bone) is missing") end
    if ctx.bone_index[bone] == nil then fail(ctx, place, "parent %q is not a bone of this armature", bone) end
    local display_index = whole(ctx, place, s, "displayIndex", 0, -1)
    local alpha = number(ctx, place, s, "alpha", 1.0)
    if alpha ~= 1 then ctx.unsupported[#ctx.unsupported + 1] = format("slot %q: alpha is not played", name) end
    if number(ctx, place, s, "zIndex", 0) ~= 0 then
      ctx.unsupported[#ctx.unsupported + 1] = format("slot %q: zIndex is not played", name)
    end
    slots[i] = { name = name, bone = bone, display_index = display_index,
                 color = read_color(ctx, place, s, format("slot %q", name)), blend = read_blend(ctx, place, s, name) }
    ctx.slot_index[name] = i
  end
  return slots
end

-- ------------------------------------------------------------------
-- Displays
-- ------------------------------------------------------------------

local invert, transform_point = data.invert, data.transform_point

local function is_identity(m)
  return m[1] == 1 and m[2] == 0 and m[3] == 0 and m[4] == 1 and m[5] == 0 and m[6] == 0
end

-- the 6 numbers a, b, c, d, tx, ty after offset (their count checked)
local function matrix_at(list, offset)
  return { list[offset + 1], list[offset + 2], list[offset + 3], list[offset + 4], list[offset + 5], list[offset + 6] }
end

--- An image display: a region at the display transform, its skew as
-- shear_y (the bone model's), its size left to the atlas (_tex.json).
local function read_region(ctx, place, d, path)
  local x, y, rotation, skew, scale_x, scale_y = read_transform(ctx, place, d)
  local region = { type = "region", path = path, x = x, y = y, angle = rotation,
                   scale_x = scale_x, scale_y = scale_y, shear_x = 0.0, shear_y = skew,
                   color = { 1.0, 1.0, 1.0, 1.0 } }
  local pivot = object(ctx, place, d, "pivot", nil)
  if pivot ~= nil then
    local where = at(place, "pivot")
    region.pivot = { float(number(ctx, where, pivot, "x", 0.0)), float(number(ctx, where, pivot, "y", 0.0)) }
  end
  return region
end

--- Weighted vertices: each (bone, weight) of a vertex gets the vertex in
-- that bone's setup space: bonePose^-1 slotPose v, rounded to 32-bit
-- floats as the runtime stores it (its floatArray).
local function read_weights(ctx, place, d, mesh, info, vertices, count)
  local weights, nw = numbers(ctx, place, d, "weights", false)
  local slot_pose, ns = numbers(ctx, place, d, "slotPose", false)
  local bone_pose, nb = numbers(ctx, place, d, "bonePose", false)
  if slot_pose == nil or ns ~= 6 then fail(ctx, place, "slotPose must hold 6 numbers (a, b, c, d, tx, ty)") end
  if bone_pose == nil or nb % 7 ~= 0 or nb == 0 then
    fail(ctx, place, "bonePose must hold 7 numbers a bone (its index, a, b, c, d, tx, ty)")
  end
  local slot_matrix, inverse = matrix_at(slot_pose, 0), {}
  for k = 0, nb / 7 - 1 do
    local raw_index = bone_pose[k * 7 + 1]
    if ctx.raw_bones[raw_index + 1] == nil or raw_index ~= math.floor(raw_index) then
      fail(ctx, place, "bonePose names bone %s, which the armature does not have", show(raw_index))
    end
    inverse[raw_index] = invert(matrix_at(bone_pose, k * 7 + 1))
  end
  local out, per_vertex, w = {}, {}, 1
  for v = 0, count - 1 do
    local n = weights[w]
    if n == nil or n < 1 or n ~= math.floor(n) or w + 2 * n > nw then
      fail(ctx, place, "weights: vertex %d's entry is cut short or has no bone", v + 1)
    end
    local px, py = transform_point(slot_matrix, vertices[v * 2 + 1], vertices[v * 2 + 2], false)
    out[#out + 1] = n
    local entries = {}
    for j = 1, n do
      local raw_index, weight = weights[w + 2 * j - 1], weights[w + 2 * j]
      local m = inverse[raw_index]
      if m == nil then
        fail(ctx, place, "weights: vertex %d names bone %s, which bonePose does not list", v + 1, show(raw_index))
      end
      local bx, by = transform_point(m, px, py, false)
      out[#out + 1] = ctx.bone_index[ctx.raw_bones[raw_index + 1].name]
      out[#out + 1], out[#out + 2], out[#out + 3] = f32(bx), f32(by), f32(weight)
      entries[j] = m
    end
    per_vertex[v + 1] = entries
    w = w + 2 * n + 1
  end
  if w - 1 ~= nw then fail(ctx, place, "weights has %d numbers more than its %d vertices use", nw - w + 1, count) end
  mesh.weights = out
  info.slot_pose, info.inverse = slot_matrix, per_vertex
end

local function read_mesh_shape(ctx, place, d, mesh, count)
  local uvs, nu = numbers(ctx, place, d, "uvs", false)
  if uvs == nil or nu ~= count * 2 then fail(ctx, place, "uvs must hold 2 numbers a vertex (%d)", count * 2) end
  local triangles, nt = numbers(ctx, place, d, "triangles", true)
  if triangles == nil or nt % 3 ~= 0 then fail(ctx, place, "triangles must hold 3 vertex indices a triangle") end
  mesh.uvs, mesh.triangles = {}, {}
  for i = 1, nu do mesh.uvs[i] = f32(uvs[i]) end
  for i = 1, nt do
    local v = triangles[i]
    if v < 0 or v >= count then fail(ctx, place, "triangles[%d] is vertex %s of %d", i, show(v), count) end
    mesh.triangles[i] = v + 1
  end
  local edges, ne = numbers(ctx, place, d, "edges", true)
  if edges ~= nil then
    mesh.edges = {}
    for i = 1, ne do
      if edges[i] < 0 or edges[i] >= count then
        fail(ctx, place, "edges[%d] is vertex %s of %d", i, show(edges[i]), count)
      end
      mesh.edges[i] = edges[i] + 1
    end
    mesh.hull = math.floor(ne / 2)
  else
    mesh.hull = 0
  end
end

--- A mesh display: the attachment, and what its deform keys need (the
-- vertex count; unweighted: the display transform its vertices are
-- moved by into the bone's space; weighted: the slot pose and each
-- weight's inverse bone pose).
local function read_mesh(ctx, place, d, name, path)
  local mesh = { type = "mesh", path = path, color = { 1.0, 1.0, 1.0, 1.0 },
                 width = float(number(ctx, place, d, "width", 0.0)),
                 height = float(number(ctx, place, d, "height", 0.0)) }
  local vertices, nv = numbers(ctx, place, d, "vertices", false)
  if vertices == nil or nv % 2 ~= 0 or nv == 0 then fail(ctx, place, "vertices must hold 2 numbers a vertex") end
  local count = nv / 2
  local info = { count = count }
  read_mesh_shape(ctx, place, d, mesh, count)
  if not is_null(d.weights) then
    read_weights(ctx, place, d, mesh, info, vertices, count)
  else
    local x, y, rotation, skew, scale_x, scale_y = read_transform(ctx, place, d)
    local m = transform_matrix(x, y, rotation, skew, scale_x, scale_y)
    mesh.vertices = {}
    for i = 1, nv, 2 do
      local vx, vy = f32(vertices[i]), f32(vertices[i + 1])
      if not is_identity(m) then vx, vy = transform_point(m, vx, vy, false) end
      mesh.vertices[i], mesh.vertices[i + 1] = vx, vy
    end
    if not is_identity(m) then info.matrix = m end
  end
  if ctx.mesh_info[name] == nil then ctx.mesh_info[name] = info end
  return mesh
end

--- A bounding box: a polygon's vertices, or a rectangle's corners, moved
-- by the display transform into the bone's space.
local function read_bounding_box(ctx, place, d, name, owner)
  local kind = string_of(ctx, place, d, "subType", "rectangle")
  local points
  if kind == "polygon" then
    local vertices, nv = numbers(ctx, place, d, "vertices", false)
    if vertices == nil or nv % 2 ~= 0 or nv < 6 then
      fail(ctx, place, "vertices must hold 2 numbers a vertex, 3 or more")
    end
    points = {}
    for i = 1, nv do points[i] = vertices[i] end
  elseif kind == "rectangle" then
    local hw, hh = number(ctx, place, d, "width", 0.0) * 0.5, number(ctx, place, d, "height", 0.0) * 0.5
    points = { -hw, -hh, hw, -hh, hw, hh, -hw, hh }
  else
    ctx.unsupported[#ctx.unsupported + 1] = format("%s bounding box %q: subType %q is not read", owner, name, kind)
    return nil
  end
  local m = transform_matrix(read_transform(ctx, place, d))
  for i = 1, #points, 2 do
    points[i], points[i + 1] = transform_point(m, points[i] + 0.0, points[i + 1] + 0.0, false)
  end
  return { type = "boundingbox", vertices = points }
end

--- One display of a slot as an attachment, or nil (listed unsupported).
local function read_display(ctx, place, d, owner)
  if type(d) ~= "table" then fail(ctx, place, "must be an object, not %s", show(d)) end
  local name = string_of(ctx, place, d, "name", "")
  place.name = name
  local path = string_of(ctx, place, d, "path", "")
  if path == "" then path = name end
  local kind = d.type
  if is_null(kind) then kind = "image" end
  if kind == "image" or kind == 0 then return read_region(ctx, place, d, path) end
  if kind == "mesh" or kind == 2 then
    if not is_null(d.share) then
      return { type = "linkedmesh", path = path, parent = string_of(ctx, place, d, "share", ""),
               skin = string_of(ctx, place, d, "skin", "default"),
               deform = boolean(ctx, place, d, "inheritDeform", true), color = { 1.0, 1.0, 1.0, 1.0 } }
    end
    return read_mesh(ctx, place, d, name, path)
  end
  if kind == "boundingBox" or kind == 3 then return read_bounding_box(ctx, place, d, name, owner) end
  if kind == "armature" or kind == 1 or kind == "path" or kind == 4 then
    ctx.unsupported[#ctx.unsupported + 1] = format("%s display %q: %s displays are not played", owner, name, show(kind))
    return nil
  end
  fail(ctx, place, "type %s is not a DragonBones display type", show(kind))
end

--- A slot's displays: attachment entries by name, and by display index
-- the entry name (false: no attachment there). A name used twice in a
-- slot gets "#index" after it.
local function read_slot_displays(ctx, place, raw, skin)
  local slot_name = string_of(ctx, place, raw, "name", nil)
  if slot_name == nil or ctx.slot_index[slot_name] == nil then
    fail(ctx, place, "name %s is not a slot of this armature", show(slot_name))
  end
  place.name = slot_name
  local list, n = array(ctx, place, raw, "display", {}, true)
  local entries, by_index, owner = {}, {}, format("slot %q", slot_name)
  ctx.mesh_info = {}
  for i = 1, n do
    by_index[i] = false
    if not is_null(list[i]) then
      local attachment = read_display(ctx, at(place, "display", i), list[i], owner)
      local name = list[i].name or ""
      if entries[name] ~= nil then name = format("%s#%d", name, i) end
      if attachment ~= nil then
        entries[name] = attachment
        by_index[i] = name
      end
    end
  end
  skin.meshes[slot_name] = ctx.mesh_info
  ctx.mesh_info = nil
  return slot_name, entries, by_index
end

--- Skins: "default" first (DragonBones' default skin: the one named
-- "default", else the first; a skin named "" is "default").
local function read_skins(ctx, armature_place, raw)
  local list, n = array(ctx, armature_place, raw, "skin", {})
  local skins, by_name, default = {}, {}, nil
  for i = 1, n do
    local place, s = at(armature_place, "skin", i), list[i]
    if type(s) ~= "table" then fail(ctx, place, "must be an object, not %s", show(s)) end
    local name = string_of(ctx, place, s, "name", "default")
    if name == "" then name = "default" end
    place.name = name
    if by_name[name] then fail(ctx, place, "a second skin of this name") end
    local skin = { name = name, attachments = {}, displays = {}, meshes = {} }
    local slots, ns = array(ctx, place, s, "slot", {})
    for k = 1, ns do
      local where = at(place, "slot", k)
      if type(slots[k]) ~= "table" then fail(ctx, where, "must be an object, not %s", show(slots[k])) end
      local slot_name, entries, by_index = read_slot_displays(ctx, where, slots[k], skin)
      if skin.displays[slot_name] then fail(ctx, where, "a second entry for this slot") end
      skin.attachments[slot_name], skin.displays[slot_name] = entries, by_index
    end
    by_name[name] = skin
    skins[#skins + 1] = skin
    if default == nil or name == "default" then default = skin end
  end
  ctx.skins, ctx.default_skin = by_name, default
  local out = {}
  if default ~= nil then out[1] = { name = default.name, attachments = default.attachments } end
  for _, skin in ipairs(skins) do
    if skin ~= default then out[#out + 1] = { name = skin.name, attachments = skin.attachments } end
  end
  return out
end

--- The entry name a slot shows at a display index (nil: none).
local function display_name(ctx, slot_name, index)
  local skin = ctx.default_skin
  if skin == nil or index < 0 then return nil end
  local by_index = skin.displays[slot_name]
  return by_index and by_index[index + 1] or nil
end

-- ------------------------------------------------------------------
-- IK
-- ------------------------------------------------------------------

local function is_below(bones_by_name, name, ancestor)
  local bone = bones_by_name[name]
  while bone ~= nil do
    if bone.name == ancestor then return true end
    bone = bone.parent and bones_by_name[bone.parent]
  end
  return false
end

--- An IK constraint as a solver. The runtime solves chain 0 by turning
-- the bone's x axis to the target (weighted), chain 1 by placing the
-- child's origin where circles about the parent's origin (its distance
-- to the child) and the target (the child's scaled length) meet, on the
-- bend side, and turning the child's x axis to the target; both turns
-- scaled by weight. The bend side flips when the chain's parent is
-- mirrored (det < 0): bend is the sign of the elbow's local angle.
local function read_ik(ctx, place, raw, by_name, names)
  if type(raw) ~= "table" then fail(ctx, place, "must be an object, not %s", show(raw)) end
  local name = string_of(ctx, place, raw, "name", nil)
  if name == nil or name == "" then fail(ctx, place, "name is missing") end
  place.name = name
  if names[name] then fail(ctx, place, "a second IK constraint of this name") end
  local bone = string_of(ctx, place, raw, "bone", nil)
  local target = string_of(ctx, place, raw, "target", nil)
  if bone == nil or by_name[bone] == nil then
    fail(ctx, place, "bone %s is not a bone of this armature", show(bone))
  end
  if target == nil or by_name[target] == nil then
    fail(ctx, place, "target %s is not a bone of this armature", show(target))
  end
  local chain = whole(ctx, place, raw, "chain", 0, 0)
  if chain > 1 then fail(ctx, place, "chain %s: DragonBones IK bends 1 bone (chain 0) or 2 (chain 1)", show(chain)) end
  local weight = number(ctx, place, raw, "weight", 1.0)
  if weight < 0 or weight > 1 then fail(ctx, place, "weight %s is not in [0, 1]", show(weight)) end
  local bones = { bone }
  local parent = by_name[bone].parent
  if chain == 1 and parent ~= nil then bones = { parent, bone } end
  if is_below(by_name, target, bones[1]) then
    fail(ctx, place, "target %q moves with the chain (it is below %q)", target, bones[1])
  end
  names[name] = #bones
  return { name = name, bones = bones, target = { bone = target, x = 0.0, y = 0.0 },
           method = #bones == 2 and "two_bone" or "ccd", weight = float(weight),
           bend = boolean(ctx, place, raw, "bendPositive", true) and 1 or -1,
           softness = 0.0, stretch = 1.0, compress = 1.0, uniform = false }
end

--- The order the runtime updates bones in (ArmatureData.sortBones): the
-- file's, a bone waiting for its parent and for the targets of the IK
-- chains it starts; each solver runs when its first bone updates.
local function solver_order(ctx, armature_place, raw_bones, solvers)
  local sorted, placed, count, index, total = {}, {}, 0, 0, #raw_bones
  local stalled = 0
  while count < total do
    local bone = raw_bones[index + 1]
    index = (index + 1) % total
    local wait = placed[bone.name] ~= nil or (bone.parent ~= nil and not placed[bone.parent])
    for _, solver in ipairs(solvers) do
      if solver.bones[1] == bone.name and not placed[solver.target.bone] then wait = true end
    end
    if wait then
      stalled = stalled + 1
      if stalled > total then fail(ctx, at(armature_place, "ik"), "the IK chains wait for each other's targets") end
    else
      stalled, count = 0, count + 1
      placed[bone.name] = true
      sorted[count] = bone.name
    end
  end
  local order = {}
  for _, name in ipairs(sorted) do
    for _, solver in ipairs(solvers) do
      if solver.bones[1] == name then order[#order + 1] = { "solver", solver.name } end
    end
  end
  return order
end

local function read_iks(ctx, armature_place, raw, bones)
  local list, n = array(ctx, armature_place, raw, "ik", {})
  local by_name, names, solvers = {}, {}, {}
  for _, bone in ipairs(bones) do by_name[bone.name] = bone end
  for i = 1, n do solvers[i] = read_ik(ctx, at(armature_place, "ik", i), list[i], by_name, names) end
  ctx.solver_names = names
  return solvers, solver_order(ctx, armature_place, ctx.raw_bones, solvers)
end

-- ------------------------------------------------------------------
-- The file
-- ------------------------------------------------------------------

local function check_version(ctx, raw)
  local version = raw.version
  if is_null(version) then
    fail(ctx, at(nil, "version"), "missing: a DragonBones file has \"version\": \"5.5\"")
  end
  if type(version) ~= "string" then fail(ctx, at(nil, "version"), "must be a string, not %s", show(version)) end
  if not version:match("^5%.%d+") then
    fail(ctx, at(nil, "version"), "DragonBones %s is not read (ik2d reads DragonBones 5.x)", show(version))
  end
  return version
end

local function pick_armature(ctx, raw, armature_name)
  local list, n = array(ctx, nil, raw, "armature", nil)
  if list == nil or n == 0 then fail(ctx, at(nil, "armature"), "missing: the file has no armature") end
  local names = {}
  for i = 1, n do
    local a = list[i]
    if type(a) ~= "table" then fail(ctx, at(nil, "armature", i), "must be an object, not %s", show(a)) end
    local name = string_of(ctx, at(nil, "armature", i), a, "name", "")
    if armature_name == nil or name == armature_name then return a, at(nil, "armature", i, name) end
    names[#names + 1] = format("%q", name)
  end
  fail(ctx, at(nil, "armature"), "no armature named %q (the file has %s)", armature_name, table.concat(names, ", "))
end

local function frame_rate(ctx, place, raw, default)
  local rate = number(ctx, place, raw, "frameRate", default)
  if rate < 0 then fail(ctx, place, "frameRate %s is negative", show(rate)) end
  if rate == 0 then rate = 24 end   -- as the runtime reads a 0
  return rate
end

local function default_clip(ctx, place, raw)
  local actions, n = array(ctx, place, raw, "defaultActions", {})
  for i = 1, n do
    local action = actions[i]
    if type(action) == "table" and type(action.gotoAndPlay) == "string" then return action.gotoAndPlay end
  end
  return nil
end

local function read_armature(ctx, raw, place, version, file_rate)
  ctx.fps = frame_rate(ctx, place, raw, file_rate)
  local bones = read_bones(ctx, place, raw)
  local slots = read_slots(ctx, place, raw)
  local skins = read_skins(ctx, place, raw)
  local solvers, order = read_iks(ctx, place, raw, bones)
  for _, slot in ipairs(slots) do
    slot.attachment = display_name(ctx, slot.name, slot.display_index)
    slot.display_index = nil
  end
  ctx.display_name = display_name
  local clips, events = clip.read_all(ctx, place, raw, slots)
  local name = string_of(ctx, place, raw, "name", "")
  return {
    ik2d = 1, name = name,
    source = { format = "dragonbones", version = version, armature = name, frame_rate = float(ctx.fps),
               default_skin = ctx.default_skin and ctx.default_skin.name,
               default_clip = default_clip(ctx, place, raw) },
    y_up = false, scale = { 1.0, 1.0 },
    bones = bones, slots = slots, skins = skins, solvers = solvers, constraints = {}, order = order,
    events = events, clips = clips, unsupported = ctx.unsupported,
  }
end

local function read_file(raw, filename, armature_name)
  local ctx = { file = filename or "<table>", unsupported = {} }
  if type(raw) ~= "table" then fail(ctx, nil, "a DragonBones file is a JSON object, not %s", show(raw)) end
  if armature_name ~= nil and type(armature_name) ~= "string" then
    error(format("ik2d.rig.dragonbones.read: armature_name must be a string, not %s", type(armature_name)), 0)
  end
  local version = check_version(ctx, raw)
  local file_rate = frame_rate(ctx, nil, raw, 24)
  local armature, place = pick_armature(ctx, raw, armature_name)
  return read_armature(ctx, armature, place, version, file_rate)
end

--- read(decoded, filename [, armature_name]) -> the rig description of
-- the armature named (else the file's first). A malformed file raises
-- one error `filename: where: problem` at the caller's line.
function dragonbones.read(decoded, filename, armature_name)
  local ok, result = pcall(read_file, decoded, filename, armature_name)
  if ok then return result end
  if type(result) == "table" and result.dragonbones_error then error(result.dragonbones_error, 2) end
  error(result, 0)
end

--- try_read(decoded, filename [, armature_name]) -> the description, or
-- nil and read's message.
function dragonbones.try_read(decoded, filename, armature_name)
  local ok, result = pcall(dragonbones.read, decoded, filename, armature_name)
  if ok then return result end
  return nil, result
end

return dragonbones
