-- ik2d.rig.file_read: an ik2d rig file (decoded) to the rig description,
-- checked whole before anything is returned (docs/ik2d-rig-file.md).
--
--   local desc = file_read.read(decoded, "hero.ik2d.json")
--
-- Reads the skeleton, solvers, constraints, order, springs and gaits
-- here; slots, skins and clips in ik2d.rig.file_clips; the checks of one
-- value are ik2d.rig.file_values'.  Every number is the file's double to
-- the bit (-0 kept; "inf" and "-inf" where a setting may be infinite).  A
-- malformed file raises one error "<file>: <where>: <problem>", naming the
-- first problem found (objects in sorted key order, so the same file
-- gives the same message).

local check = require "ik2d.rig.check"
local clips_reader = require "ik2d.rig.file_clips"

local M = {}

local fail, item, show, kind, key_of = check.fail, check.item, check.show, check.kind, check.key
local is_absent, is_object, is_array = check.is_absent, check.is_object, check.is_array
local type, pairs, ipairs, format, tostring = type, pairs, ipairs, string.format, tostring
local V = require "ik2d.rig.file_values"
local number, at_least, boolean, text = V.number, V.at_least, V.boolean, V.text
local choice, numbers, objects, known_keys, set, name_of = V.choice, V.numbers, V.objects, V.known_keys,
  V.set, V.name_of
local INHERIT, INHERIT_ORDER = V.INHERIT, V.INHERIT_ORDER
local read_slot, read_skin, read_clip = clips_reader.read_slot, clips_reader.read_skin,
  clips_reader.read_clip

local VERSION = 1
local PLACEMENTS = set{ "dragonbones" }

-- ------------------------------------------------------------------
-- the skeleton
-- ------------------------------------------------------------------

local BONE_KEYS = set{ "name", "parent", "length", "angle", "x", "y", "scale_x", "scale_y", "shear_x",
  "shear_y", "inherit", "min", "max", "invert", "skin", "color", "inherit_translation" }

local function nonzero(t, key, where)
  local v = number(t, key, 1.0, where)
  if v == 0 then fail(where, key .. " must not be 0") end
  return v
end

local function read_bone(R, map, i)
  local where = item("bones", i)
  local name = text(map, "name", where, true)
  where = item("bones", i, name)
  known_keys(map, BONE_KEYS, where)
  local parent = text(map, "parent", where)
  if parent and not R.bones[parent] then fail(where, format("parent %s is not defined earlier", show(parent))) end
  check.unique(R.bones, name, i, where, "bones")
  local b = { name = name, parent = parent, length = at_least(map, "length", nil, where, 0),
    angle = number(map, "angle", 0.0, where),
    scale_x = nonzero(map, "scale_x", where), scale_y = nonzero(map, "scale_y", where),
    shear_x = number(map, "shear_x", 0.0, where), shear_y = number(map, "shear_y", 0.0, where),
    inherit = choice(map, "inherit", where, INHERIT, INHERIT_ORDER) or "all",
    invert = boolean(map, "invert", where), skin = boolean(map, "skin", where),
    inherit_translation = boolean(map, "inherit_translation", where),
    color = numbers(map, "color", where, 4) }
  if is_absent(map.x) ~= is_absent(map.y) then
    fail(where, "x and y must be given together (neither: the bone starts at its parent's tip)")
  end
  if not is_absent(map.x) then b.x, b.y = number(map, "x", nil, where), number(map, "y", nil, where) end
  if not is_absent(map.min) or not is_absent(map.max) then
    b.min, b.max = number(map, "min", nil, where), number(map, "max", nil, where)
    if b.min > b.max then fail(where, format("min %s > max %s", show(b.min), show(b.max))) end
  end
  return b
end

local BASE_KEYS = set{ "x", "y", "angle", "flip" }

local function read_skeleton(R, file, desc)
  desc.bones = objects(file, "bones", "", function(map, i) return read_bone(R, map, i) end, true)
  if #desc.bones == 0 then fail("bones", "a skeleton needs at least one bone") end
  local base = check.object(file, "base", "")
  if base then
    known_keys(base, BASE_KEYS, "base")
    desc.base = { x = number(base, "x", 0.0, "base"), y = number(base, "y", 0.0, "base"),
      angle = number(base, "angle", 0.0, "base"), flip = boolean(base, "flip", "base") }
  end
  desc.scale = numbers(file, "scale", "", 2) or { 1.0, 1.0 }
  if desc.scale[1] == 0 or desc.scale[2] == 0 then fail("scale", "must not be 0") end
  desc.y_up = boolean(file, "y_up", "")
end

-- ------------------------------------------------------------------
-- solvers, constraints, order
-- ------------------------------------------------------------------

local METHODS = set{ "ccd", "fabrik", "two_bone", "follow" }
local SOLVER_KEYS = set{ "name", "bones", "target", "method", "iterations", "tolerance", "weight",
  "warm_start", "damping", "exact", "sweep", "bend", "softness", "softness_curve", "stretch",
  "compress", "uniform", "tip_angle", "tip_weight", "pole", "aim", "priority", "together", "skin" }

-- A chain's ends on the skeleton: { from } or { from, to }.
local function read_ends(R, map, where)
  local list = check.array(map, "bones", where, true)
  if #list < 1 or #list > 2 then fail(where, "bones must name the chain's first and last bones (1 or 2 names)") end
  local out = {}
  for k = 1, #list do
    local name = list[k]
    if type(name) ~= "string" then fail(where, format("bones[%d] must be a bone's name, got %s", k, kind(name))) end
    if not R.bones[name] then fail(where, format("bones[%d] %s is not one of the rig's bones", k, show(name))) end
    out[k] = name
  end
  return out
end

local function read_target(R, map, where)
  local t = check.object(map, "target", where)
  if not t then return nil end
  where = key_of(where, "target")
  known_keys(t, set{ "bone", "x", "y" }, where)
  return { bone = name_of(R, "bones", t, "bone", where), x = number(t, "x", 0.0, where),
    y = number(t, "y", 0.0, where) }
end

local function read_solver(R, map, i)
  local where = item("solvers", i)
  local name = text(map, "name", where, true)
  where = item("solvers", i, name)
  known_keys(map, SOLVER_KEYS, where)
  check.unique(R.solvers, name, i, where, "solvers")
  local s = { name = name, bones = read_ends(R, map, where), target = read_target(R, map, where),
    method = choice(map, "method", where, METHODS, { "ccd", "fabrik", "two_bone", "follow" }),
    iterations = not is_absent(map.iterations) and check.whole(map, "iterations", nil, where, 1) or nil,
    tolerance = at_least(map, "tolerance", false, where, 0) or nil,
    weight = number(map, "weight", false, where) or nil,
    warm_start = boolean(map, "warm_start", where),
    damping = at_least(map, "damping", false, where, 0) or nil,
    exact = boolean(map, "exact", where),
    sweep = choice(map, "sweep", where, set{ "root", "tip" }, { "root", "tip" }),
    softness = at_least(map, "softness", false, where, 0) or nil,
    softness_curve = choice(map, "softness_curve", where, set{ "smooth", "spine" }, { "smooth", "spine" }),
    stretch = number(map, "stretch", false, where, true) or nil,
    compress = number(map, "compress", false, where) or nil,
    uniform = boolean(map, "uniform", where),
    tip_angle = number(map, "tip_angle", false, where) or nil,
    tip_weight = number(map, "tip_weight", false, where) or nil,
    pole = numbers(map, "pole", where, 2), aim = numbers(map, "aim", where, 3),
    priority = at_least(map, "priority", false, where, 0) or nil,
    together = boolean(map, "together", where), skin = boolean(map, "skin", where) }
  if not is_absent(map.bend) then s.bend = check.whole(map, "bend", nil, where, -1, 1) end
  if s.bend == 0 then fail(where, "bend must be 1 or -1, got 0") end
  if s.stretch and s.stretch < 1 then fail(where, "stretch must be >= 1, got " .. show(s.stretch)) end
  if s.compress and (s.compress < 0 or s.compress > 1) then
    fail(where, "compress must be within [0, 1], got " .. show(s.compress))
  end
  if s.tip_weight and (s.tip_weight < 0 or s.tip_weight > 1) then
    fail(where, "tip_weight must be within [0, 1], got " .. show(s.tip_weight))
  end
  return s
end

local MIXES = { "mix_rotate", "mix_x", "mix_y", "mix_scale_x", "mix_scale_y", "mix_shear_y",
  "offset_rotation", "offset_x", "offset_y", "offset_scale_x", "offset_scale_y", "offset_shear_y" }
local CONSTRAINT_KEYS = set{ "name", "bones", "target", "local", "relative", "skin" }
for _, key in ipairs(MIXES) do CONSTRAINT_KEYS[key] = true end

local function read_constraint(R, map, i)
  local where = item("constraints", i)
  local name = text(map, "name", where, true)
  where = item("constraints", i, name)
  known_keys(map, CONSTRAINT_KEYS, where)
  check.unique(R.constraints, name, i, where, "constraints")
  local c = { name = name, target = name_of(R, "bones", map, "target", where, true), bones = {},
    ["local"] = boolean(map, "local", where), relative = boolean(map, "relative", where),
    skin = boolean(map, "skin", where) }
  local list = check.array(map, "bones", where, true)
  if #list == 0 then fail(where, "bones must name at least one bone") end
  for k = 1, #list do
    c.bones[k] = list[k]
    if type(list[k]) ~= "string" or not R.bones[list[k]] then
      fail(where, format("bones[%d] must be one of the rig's bones, got %s", k, show(list[k])))
    end
  end
  for _, key in ipairs(MIXES) do c[key] = number(map, key, false, where) or nil end
  return c
end

local function read_order(R, file)
  local list = check.array(file, "order", "")
  if not list then return nil end
  local out, seen = {}, {}
  for k = 1, #list do
    local where = item("order", k)
    local step = list[k]
    if not is_array(step) or #step ~= 2 then
      fail(where, 'must be ["solver", name] or ["constraint", name], got ' .. kind(step))
    end
    local what, name = step[1], step[2]
    local names = what == "solver" and R.solvers or what == "constraint" and R.constraints
    if not names then fail(where, 'the step\'s kind must be "solver" or "constraint", got ' .. show(what)) end
    if not names[name] then fail(where, format("%s %s is not one of the rig's", what, show(name))) end
    if seen[what .. ":" .. name] then fail(where, format("%s %s is in the order twice", what, show(name))) end
    seen[what .. ":" .. name] = true
    out[k] = { what, name }
  end
  return out
end

-- ------------------------------------------------------------------
-- springs and gaits
-- ------------------------------------------------------------------

local SPRING_KEYS = set{ "name", "bones", "chain", "stiffness", "damping", "mass", "weight", "gravity",
  "wind", "colliders" }

-- a number or a list of numbers (one per bone)
local function number_or_list(t, key, where)
  if is_array(t[key]) and not is_absent(t[key]) then return numbers(t, key, where) end
  return number(t, key, false, where) or nil
end

local function read_chain(map, where)
  known_keys(map, set{ "x", "y", "angle", "flip", "bones" }, where)
  return { x = number(map, "x", 0.0, where), y = number(map, "y", 0.0, where),
    angle = number(map, "angle", 0.0, where), flip = boolean(map, "flip", where),
    bones = objects(map, "bones", where, function(b, k)
      local at = item(key_of(where, "bones"), k)
      known_keys(b, set{ "length", "angle", "min", "max", "invert", "space" }, at)
      return { length = at_least(b, "length", nil, at, 0, true), angle = number(b, "angle", 0.0, at),
        min = number(b, "min", false, at) or nil, max = number(b, "max", false, at) or nil,
        invert = boolean(b, "invert", at),
        space = choice(b, "space", at, set{ "parent", "world" }, { "parent", "world" }) }
    end, true) }
end

local function read_collider(c, where)
  known_keys(c, set{ "x", "y", "radius", "x1", "y1", "x2", "y2" }, where)
  if not is_absent(c.radius) then
    return { x = number(c, "x", nil, where), y = number(c, "y", nil, where),
      radius = at_least(c, "radius", nil, where, 0) }
  end
  return { x1 = number(c, "x1", nil, where), y1 = number(c, "y1", nil, where),
    x2 = number(c, "x2", nil, where), y2 = number(c, "y2", nil, where) }
end

local function read_spring(R, map, i)
  local where = item("springs", i)
  local name = text(map, "name", where, true)
  where = item("springs", i, name)
  known_keys(map, SPRING_KEYS, where)
  check.unique(R.springs, name, i, where, "springs")
  local s = { name = name, stiffness = number_or_list(map, "stiffness", where),
    damping = number_or_list(map, "damping", where), mass = number_or_list(map, "mass", where),
    weight = number(map, "weight", false, where) or nil, gravity = numbers(map, "gravity", where, 2),
    wind = numbers(map, "wind", where, 2) }
  if is_absent(map.bones) == is_absent(map.chain) then
    fail(where, "give bones (a chain of the skeleton) or chain (a chain of its own), one of them")
  end
  if is_absent(map.bones) then
    s.chain = read_chain(check.object(map, "chain", where, true), key_of(where, "chain"))
  else
    s.bones = read_ends(R, map, where)
  end
  s.colliders = objects(map, "colliders", where, function(c, k)
    return read_collider(c, item(key_of(where, "colliders"), k))
  end)
  return s
end

local GAIT_KEYS = set{ "name", "legs", "ground", "pattern", "step", "tip" }

local function read_gait(R, map, i)
  local where = item("gaits", i)
  local name = text(map, "name", where, true)
  where = item("gaits", i, name)
  known_keys(map, GAIT_KEYS, where)
  check.unique(R.gaits, name, i, where, "gaits")
  local g = { name = name, tip = boolean(map, "tip", where) }
  g.legs = objects(map, "legs", where, function(leg, k)
    local at = item(key_of(where, "legs"), k)
    known_keys(leg, set{ "solver", "home", "hip", "reach", "foot" }, at)
    return { solver = name_of(R, "solvers", leg, "solver", at, true), home = numbers(leg, "home", at, 2, true),
      hip = numbers(leg, "hip", at, 2), reach = number(leg, "reach", false, at) or nil,
      foot = number(leg, "foot", false, at) or nil }
  end, true)
  local ground = check.array(map, "ground", where, true)
  g.ground = {}
  for k = 1, #ground do g.ground[k] = numbers(ground, k, key_of(where, "ground"), 4, true) end
  if type(map.pattern) == "string" then
    g.pattern = map.pattern
  elseif not is_absent(map.pattern) then
    local pattern = check.array(map, "pattern", where)
    g.pattern = {}
    for k = 1, #pattern do g.pattern[k] = numbers(pattern, k, key_of(where, "pattern"), nil, true) end
  end
  local step = check.object(map, "step", where)
  if step then
    local at = key_of(where, "step")
    known_keys(step, set{ "trigger", "height", "duration", "lead", "settle" }, at)
    g.step = {}
    for key in pairs(step) do g.step[key] = number(step, key, nil, at) end
  end
  return g
end

-- ------------------------------------------------------------------
-- the file
-- ------------------------------------------------------------------

local TOP_KEYS = set{ "ik2d", "name", "from", "placement", "skin", "y_up", "scale", "base", "bones", "solvers",
  "constraints", "order", "springs", "gaits", "slots", "skins", "clips", "events", "unsupported" }

local function read_version(file)
  local v = file.ik2d
  if type(v) ~= "number" then fail("ik2d", "must be the format's version, a number, got " .. kind(v)) end
  if v ~= VERSION then
    fail("ik2d", format("version %s is not supported (ik2d reads rig files of version %d)", show(v), VERSION))
  end
end

local function read_events(file)
  local events = check.object(file, "events", "")
  local out = {}
  for _, name in ipairs(events and check.sorted_keys(events, "events") or {}) do
    local at = key_of("events", name)
    local e = check.object(events, name, "events", true)
    out[name] = { int = number(e, "int", false, at) or nil, float = number(e, "float", false, at) or nil,
      string = text(e, "string", at), audio = text(e, "audio", at),
      volume = number(e, "volume", false, at) or nil, balance = number(e, "balance", false, at) or nil }
  end
  return out
end

local function describe(file)
  if not is_object(file) then fail("", "an ik2d rig file is a JSON object, got " .. kind(file)) end
  read_version(file)
  known_keys(file, TOP_KEYS, "")
  local R = { bones = {}, solvers = {}, constraints = {}, springs = {}, gaits = {}, slots = {}, skins = {},
    attachments = {} }
  local desc = { ik2d = VERSION, name = text(file, "name", ""), skin = text(file, "skin", ""),
    source = { format = "ik2d", version = tostring(VERSION) } }
  local from = check.object(file, "from", "")
  if from then
    desc.from = {}
    for _, key in ipairs(check.sorted_keys(from, "from")) do
      local v = from[key]
      if type(v) ~= "string" and type(v) ~= "number" then
        fail("from", format("%s must be a string or a number, got %s", key, kind(v)))
      end
      desc.from[key] = type(v) == "number" and number(from, key, nil, "from") or v
    end
  end
  -- bones and IK placed by a tool's runtime rules (DragonBones): the rig
  -- is built as that format's rigs are
  desc.placement = choice(file, "placement", "", PLACEMENTS, { "dragonbones" })
  if desc.placement then
    desc.source = { format = desc.placement }
    for key, v in pairs(desc.from or {}) do if key ~= "format" then desc.source[key] = v end end
  end
  read_skeleton(R, file, desc)
  desc.solvers = objects(file, "solvers", "", function(m, i) return read_solver(R, m, i) end) or {}
  desc.constraints = objects(file, "constraints", "", function(m, i) return read_constraint(R, m, i) end) or {}
  desc.order = read_order(R, file)
  desc.springs = objects(file, "springs", "", function(m, i) return read_spring(R, m, i) end)
  desc.gaits = objects(file, "gaits", "", function(m, i) return read_gait(R, m, i) end)
  desc.slots = objects(file, "slots", "", function(m, i) return read_slot(R, m, i) end) or {}
  R.slot_count = #desc.slots
  desc.skins = objects(file, "skins", "", function(m, i) return read_skin(R, m, i) end) or {}
  if desc.skin and not R.skins[desc.skin] then fail("skin", show(desc.skin) .. " is not one of the rig's skins") end
  desc.events = read_events(file)
  desc.clips = {}
  local clips = check.object(file, "clips", "")
  for _, name in ipairs(clips and check.sorted_keys(clips, "clips") or {}) do
    desc.clips[name] = read_clip(R, clips[name], name)
  end
  local unsupported = check.array(file, "unsupported", "")
  desc.unsupported = {}
  for k = 1, unsupported and #unsupported or 0 do desc.unsupported[k] = text(unsupported, k, "unsupported") end
  return desc
end

--- read(decoded, name) -> the description; raises "<name>: <where>:
-- <problem>" at level 0 for a malformed file
function M.read(decoded, name)
  local ok, result = check.run(name, describe, decoded)
  if not ok then error(result, 0) end
  return result
end

return M
