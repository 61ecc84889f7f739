-- ik2d.rig.spine: a Spine 4.2 JSON file (decoded) to the rig description
-- (docs/rig-format.md), checked whole before anything is returned.
--
--   local desc = spine.read(decoded, "hero.json")
--
-- Reads the skeleton (bones with every inherit mode, scale and shear),
-- slots, events and constraints here; skins and attachments in
-- ik2d.rig.spine_skins; animations in ik2d.rig.spine_animations; what
-- Spine's numbers mean in the description's units in
-- ik2d.rig.spine_units.  Path and physics constraints (and clipping
-- attachments, path and physics timelines, sequences) are read, checked
-- and listed in desc.unsupported as sentences; the rest of the rig loads.
-- Creates no core object.  A malformed file raises one error
-- "<file>: <where>: <problem>".

local check = require "ik2d.rig.check"
local units = require "ik2d.rig.spine_units"
local spine_skins = require "ik2d.rig.spine_skins"
local spine_animations = require "ik2d.rig.spine_animations"

local spine = { _VERSION = require("ik2d.api").version }

local fail, item, show, kind = check.fail, check.item, check.show, check.kind
local number, nonnegative, whole, boolean = check.number, check.nonnegative, check.whole, check.boolean
local is_absent = check.is_absent
local DEG, Y_AXIS = units.DEG, units.Y_AXIS
local huge, format, type = math.huge, string.format, type

--- spine.supports(version) -> true for the versions read here: "4.2" and
-- "4.2.<anything>" (4.1 and 4.3 name and place fields differently).
function spine.supports(version)
  return type(version) == "string" and (version == "4.2" or version:sub(1, 4) == "4.2." or
                                        version:sub(1, 4) == "4.2-")
end

local function read_version(file)
  local skeleton = file.skeleton
  if is_absent(skeleton) then fail("", "skeleton is missing (a Spine file has skeleton.spine)") end
  if not check.is_object(skeleton) then fail("skeleton", "must be an object, got " .. kind(skeleton)) end
  local version = skeleton.spine
  if is_absent(version) then fail("skeleton", "spine is missing (the editor's version, 4.2.x)") end
  if type(version) ~= "string" then fail("skeleton.spine", "must be a version text, got " .. kind(version)) end
  if not spine.supports(version) then
    fail("skeleton.spine", format("version %s is not supported (ik2d reads Spine 4.2)", show(version)))
  end
  return version
end

-- ------------------------------------------------------------------
-- bones and slots
-- ------------------------------------------------------------------

local function read_bone(R, map, i)
  local where = item("bones", i)
  local name = check.string(map, "name", nil, where)
  where = item("bones", i, name)
  local parent = check.optional_string(map, "parent", where)
  if parent and not R.bone_index[parent] then
    fail(where, format("parent %s is not defined earlier", show(parent)))
  end
  check.unique(R.bone_index, name, i, where, "bones")
  local color
  if not is_absent(map.color) then color = units.rgba(map, "color", where) end
  return {
    name = name, parent = parent,
    length = nonnegative(map, "length", 0, where),
    x = number(map, "x", 0, where), y = number(map, "y", 0, where),
    angle = number(map, "rotation", 0, where) * DEG,
    scale_x = number(map, "scaleX", 1, where), scale_y = number(map, "scaleY", 1, where),
    shear_x = number(map, "shearX", 0, where) * DEG,
    shear_y = number(map, "shearY", 0, where) * DEG + Y_AXIS,
    inherit = check.choice(map, "inherit", "normal", units.INHERIT, units.INHERIT_ORDER, where),
    skin = boolean(map, "skin", false, where) or nil,
    color = color,
  }
end

local function read_bones(R, file)
  local list = check.array(file, "bones", "", true)
  if #list == 0 then fail("bones", "a skeleton needs at least one bone") end
  local bones = {}
  for i = 1, #list do bones[i] = read_bone(R, check.entry(list, i, "bones"), i) end
  return bones
end

local function read_slot(R, map, i)
  local where = item("slots", i)
  local name = check.string(map, "name", nil, where)
  where = item("slots", i, name)
  local bone = check.string(map, "bone", nil, where)
  if not R.bone_index[bone] then fail(where, format("bone %s is not a bone", show(bone))) end
  check.unique(R.slot_index, name, i, where, "slots")
  return {
    name = name, bone = bone,
    attachment = check.optional_string(map, "attachment", where),
    color = units.rgba(map, "color", where),
    dark = units.rgb(map, "dark", where),
    blend = check.choice(map, "blend", "normal", units.BLEND, units.BLEND_ORDER, where),
  }
end

local function read_slots(R, file)
  local list = check.array(file, "slots", "") or {}
  local slots = {}
  for i = 1, #list do slots[i] = read_slot(R, check.entry(list, i, "slots"), i) end
  R.slots = slots
  return slots
end

-- ------------------------------------------------------------------
-- constraints
-- ------------------------------------------------------------------

-- The bone names of a constraint's `bones`, each a bone, none twice.
local function bone_names(R, map, where, most)
  local list = check.array(map, "bones", where, true)
  if #list == 0 or (most and #list > most) then
    fail(where, format("bones must name %s, got %d", most == 2 and "1 or 2 bones" or "at least 1 bone", #list))
  end
  local names, seen = {}, {}
  for j = 1, #list do
    local name = list[j]
    if type(name) ~= "string" then fail(where, format("bones[%d] must be a bone's name, got %s", j, kind(name))) end
    if not R.bone_index[name] then fail(where, format("bones[%d] %s is not a bone", j, show(name))) end
    if seen[name] then fail(where, format("bones[%d] %s is listed twice", j, show(name))) end
    seen[name] = true
    names[j] = name
  end
  return names
end

-- A constraint's target bone: a bone, not one it constrains.
local function target_bone(R, map, where, bones)
  local target = check.string(map, "target", nil, where)
  if not R.bone_index[target] then fail(where, format("target %s is not a bone", show(target))) end
  for _, name in ipairs(bones) do
    if name == target then fail(where, format("target %s is one of its bones", show(target))) end
  end
  return target
end

-- The name and `order` every kind of constraint has, checked and noted
-- for the order across kinds.
local function constraint_head(R, list_name, map, i, seen)
  local where = item(list_name, i)
  local name = check.string(map, "name", nil, where)
  where = item(list_name, i, name)
  check.unique(seen, name, i, where, list_name)
  local order = whole(map, "order", 0, where, 0)
  local skin = boolean(map, "skin", false, where) or boolean(map, "skinRequired", false, where)
  R.ordered[#R.ordered + 1] = { order = order, kind = list_name, index = i, name = name }
  return name, where, skin or nil
end

-- Spine's IK constraint as an ik2d solver: mix is the weight,
-- bendPositive the sign of the child's local angle (bend 1: positive),
-- softness Spine's own ease ("spine"); stretch lets the bones grow
-- without bound toward a far target (math.huge), compress (one bone)
-- shrink without bound toward a near one (0); false keeps them at 1.
local function read_ik(R, map, i)
  local name, where, skin = constraint_head(R, "ik", map, i, R.solver_index)
  local bones = bone_names(R, map, where, 2)
  if #bones == 2 and R.bones[R.bone_index[bones[2]]].parent ~= bones[1] then
    fail(where, format("bones[2] %s is not a child of bones[1] %s", show(bones[2]), show(bones[1])))
  end
  local target = target_bone(R, map, where, bones)
  return {
    name = name, bones = bones, target = { bone = target, x = 0.0, y = 0.0 },
    method = #bones == 2 and "two_bone" or "ccd",
    weight = number(map, "mix", 1, where),
    bend = boolean(map, "bendPositive", true, where) and 1 or -1,
    softness = nonnegative(map, "softness", 0, where),
    softness_curve = "spine",
    stretch = boolean(map, "stretch", false, where) and huge or 1.0,
    compress = boolean(map, "compress", false, where) and 0.0 or 1.0,
    uniform = boolean(map, "uniform", false, where),
    skin = skin,
  }
end

-- A transform constraint: its mixes (mixY defaults to mixX, mixScaleY to
-- mixScaleX), its offsets (degrees to radians for rotation and shearY,
-- which is an offset added to the y axis' shear, not an axis: no Y_AXIS),
-- local and relative.
local function read_transform(R, map, i)
  local name, where, skin = constraint_head(R, "transform", map, i, R.constraint_index)
  local bones = bone_names(R, map, where)
  local target = target_bone(R, map, where, bones)
  local mix_x = number(map, "mixX", 1, where)
  local mix_scale_x = number(map, "mixScaleX", 1, where)
  return {
    name = name, bones = bones, target = target,
    mix_rotate = number(map, "mixRotate", 1, where),
    mix_x = mix_x, mix_y = number(map, "mixY", mix_x, where),
    mix_scale_x = mix_scale_x, mix_scale_y = number(map, "mixScaleY", mix_scale_x, where),
    mix_shear_y = number(map, "mixShearY", 1, where),
    offset_rotation = number(map, "rotation", 0, where) * DEG,
    offset_x = number(map, "x", 0, where), offset_y = number(map, "y", 0, where),
    offset_scale_x = number(map, "scaleX", 0, where), offset_scale_y = number(map, "scaleY", 0, where),
    offset_shear_y = number(map, "shearY", 0, where) * DEG,
    relative = boolean(map, "relative", false, where),
    ["local"] = boolean(map, "local", false, where),
    skin = skin,
  }
end

local function unsupported(R, sentence)
  if not R.unsupported_seen[sentence] then
    R.unsupported_seen[sentence] = true
    R.unsupported[#R.unsupported + 1] = sentence
  end
end

-- Path constraints: checked (bones, a target slot) and listed.
local function read_path(R, map, i)
  local name, where = constraint_head(R, "path", map, i, R.path_index)
  bone_names(R, map, where)
  local target = check.string(map, "target", nil, where)
  if not R.slot_index[target] then fail(where, format("target %s is not a slot", show(target))) end
  unsupported(R, format("path constraint %s: not played", show(name)))
end

-- Physics constraints: checked (a bone) and listed.
local function read_physics(R, map, i)
  local name, where = constraint_head(R, "physics", map, i, R.physics_index)
  local bone = check.string(map, "bone", nil, where)
  if not R.bone_index[bone] then fail(where, format("bone %s is not a bone", show(bone))) end
  unsupported(R, format("physics constraint %s: not played", show(name)))
end

local function read_list(R, file, key, reader)
  local list = check.array(file, key, "") or {}
  local out = {}
  for i = 1, #list do out[#out + 1] = reader(R, check.entry(list, i, key), i) end
  return out
end

-- Spine applies constraints by `order` across the kinds; equal orders
-- (hand-written files) keep the kinds in this order, then the file's.
local KIND_RANK = { ik = 1, transform = 2, path = 3, physics = 4 }
local KIND_NAME = { ik = "solver", transform = "constraint" }

local function constraint_order(R)
  local ordered = R.ordered
  table.sort(ordered, function(a, b)
    if a.order ~= b.order then return a.order < b.order end
    if a.kind ~= b.kind then return KIND_RANK[a.kind] < KIND_RANK[b.kind] end
    return a.index < b.index
  end)
  local order = {}
  for _, c in ipairs(ordered) do
    if KIND_NAME[c.kind] then order[#order + 1] = { KIND_NAME[c.kind], c.name } end
  end
  return order
end

-- ------------------------------------------------------------------
-- events
-- ------------------------------------------------------------------

local function read_events(R, file)
  local events = {}
  local map = check.object(file, "events", "")
  if not map then return events end
  for _, name in ipairs(check.sorted_keys(map, "events")) do
    local where = check.key("events", name)
    local e = map[name]
    if not check.is_object(e) then fail(where, "must be an object, got " .. kind(e)) end
    events[name] = {
      int = whole(e, "int", 0, where), float = number(e, "float", 0, where),
      string = check.string(e, "string", "", where), audio = check.optional_string(e, "audio", where),
      volume = number(e, "volume", 1, where), balance = number(e, "balance", 0, where),
    }
  end
  R.events = events
  return events
end

-- ------------------------------------------------------------------
-- the whole file
-- ------------------------------------------------------------------

local function read_all(file, filename)
  if not check.is_object(file) then fail("", "must be a JSON object, got " .. kind(file)) end
  local version = read_version(file)
  -- the reader's state, which the other Spine modules read too: each
  -- list's names to their 1-based places, the bones and slots read, the
  -- constraints as met (for `order`), and R:note_unsupported(sentence)
  local R = {
    bone_index = {}, slot_index = {}, solver_index = {}, constraint_index = {}, path_index = {},
    physics_index = {}, ordered = {}, unsupported = {}, unsupported_seen = {},
  }
  R.note_unsupported = unsupported
  local desc = { ik2d = 1, source = { format = "spine", version = version }, y_up = true, scale = { 1.0, 1.0 } }
  desc.name = type(filename) == "string" and filename:match("([^/\\]+)%.[jJ][sS][oO][nN]$") or nil
  desc.bones = read_bones(R, file)
  R.bones = desc.bones
  desc.slots = read_slots(R, file)
  desc.solvers = read_list(R, file, "ik", read_ik)
  desc.constraints = read_list(R, file, "transform", read_transform)
  read_list(R, file, "path", read_path)
  read_list(R, file, "physics", read_physics)
  desc.order = constraint_order(R)
  desc.events = read_events(R, file)
  desc.skins = spine_skins.read(R, file)
  desc.clips = spine_animations.read(R, file)
  desc.unsupported = R.unsupported
  return desc
end

--- spine.try_read(decoded, filename) -> description, or nil and the
-- message "<filename>: <where>: <problem>".  filename names the file in
-- messages ("<table>" when nil).
function spine.try_read(decoded, filename)
  local ok, result = check.run(filename or "<table>", read_all, decoded, filename)
  if ok then return result end
  return nil, result
end

--- spine.read(decoded, filename) -> description; raises the message at
-- the caller's line when the file is malformed.
function spine.read(decoded, filename)
  local desc, message = spine.try_read(decoded, filename)
  if not desc then error(message, 2) end
  return desc
end

return spine
