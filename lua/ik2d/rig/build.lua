-- ik2d.rig.build: the core objects of a rig description (docs/rig-format.md):
-- the skeleton, its solvers, transform constraints and their order, the
-- slots and the attachments the active skins give them, and the clips.
-- The description was checked whole by its reader; what the core refuses
-- still (a rule the reader does not know) raises, naming the part.
--
--   local parts = build.rig(description, { skin =, y_down = }, core)
--
-- core: the ik2d module (its constructors).  Returns the parts
-- ik2d.rig puts in a rig.

local atlas_lib = require "ik2d.rig.atlas"
-- ik2d's own trig, the same bits on every platform
local rot = require("ik2d.pure.math").rot

local build = {}

local pairs, ipairs, format = pairs, ipairs, string.format
local sort = table.sort

local INHERIT = { all = 0, position = 1, no_rotation_or_reflection = 2, no_scale = 3,
  no_scale_or_reflection = 4 }

local BONE_FIELDS = { "name", "parent", "length", "x", "y", "angle", "scale_x", "scale_y",
  "shear_x", "shear_y", "inherit", "min", "max", "invert" }

local SOLVER_OPTIONS = { "method", "iterations", "tolerance", "weight", "warm_start", "damping",
  "exact", "sweep", "bend", "softness", "softness_curve", "stretch", "compress", "uniform",
  "tip_angle", "tip_weight", "pole", "aim", "priority", "together" }

local CONSTRAINT_OPTIONS = { "mix_rotate", "mix_x", "mix_y", "mix_scale_x", "mix_scale_y",
  "mix_shear_y", "offset_rotation", "offset_x", "offset_y", "offset_scale_x", "offset_scale_y",
  "offset_shear_y", "local", "relative" }

local BONE_CHANNELS = { "rotate", "x", "y", "scale_x", "scale_y", "shear_x", "shear_y", "inherit" }
local SOLVER_CHANNELS = { "weight", "softness", "bend", "compress", "stretch" }
local CONSTRAINT_CHANNELS = { "mix_rotate", "mix_x", "mix_y", "mix_scale_x", "mix_scale_y",
  "mix_shear_y" }
local SLOT_CHANNELS = { "attachment", "color", "rgb", "alpha", "dark" }

-- (the same build from any table)
local sorted_keys = require("ik2d.common").sorted_keys

-- ------------------------------------------------------------------
-- skins and attachments
-- ------------------------------------------------------------------

-- The active skins: the default one and the one asked for (by name).
local function active_skins(desc, skin)
  local list = {}
  for _, s in ipairs(desc.skins or {}) do
    if s.name == "default" or s.name == skin then list[#list + 1] = s end
  end
  if skin ~= nil and skin ~= "default" then
    local found = false
    for _, s in ipairs(list) do found = found or s.name == skin end
    if not found then error(format("skin %q is not in the rig", tostring(skin)), 0) end
  end
  return list
end

-- The doubles of an attachment's deform offsets: 2 a vertex, or 2 a bone
-- of a vertex when weighted (a mesh's; 0 for the others).
local function deform_size(a)
  if a.type ~= "mesh" then return 0 end
  if a.weights then
    local w, at, n = a.weights, 1, 0
    while at <= #w do
      n = n + w[at]
      at = at + 1 + 4 * w[at]
    end
    return 2 * n
  end
  return #(a.vertices or {})
end

-- Every attachment of the active skins, numbered, and per slot name the
-- entry names it may show (a named skin's over the default's).
local function attachments_of(desc, skins)
  local list, by_slot = {}, {}
  for _, slot in ipairs(desc.slots or {}) do by_slot[slot.name] = {} end
  for _, skin in ipairs(skins) do
    for _, slot_name in ipairs(sorted_keys(skin.attachments)) do
      local entries = skin.attachments[slot_name]
      for _, entry in ipairs(sorted_keys(entries)) do
        local a = entries[entry]
        local record = { index = #list + 1, name = entry, slot = slot_name, skin = skin.name,
          type = a.type, data = a }
        list[#list + 1] = record
        if by_slot[slot_name] then by_slot[slot_name][entry] = record.index end
      end
    end
  end
  return list, by_slot
end

-- ------------------------------------------------------------------
-- the skeleton and its solvers and constraints
-- ------------------------------------------------------------------

local function skeleton_of(desc, options, core)
  local t = {}
  for i, b in ipairs(desc.bones) do
    local bone = {}
    for _, field in ipairs(BONE_FIELDS) do bone[field] = b[field] end
    t[i] = bone
  end
  local scale = desc.scale or { 1, 1 }
  t.scale_x = scale[1]
  t.scale_y = scale[2]
  if desc.y_up and options.y_down ~= false then t.scale_y = -t.scale_y end
  local base = desc.base or {}
  t.x, t.y, t.angle, t.flip = base.x, base.y, base.angle, base.flip
  return core.skeleton(t)
end

-- a skin-required part (a skin = true one) no active skin turns on
local function inactive(part, kind, skins)
  if not part.skin then return false end
  for _, skin in ipairs(skins) do
    for _, name in ipairs(skin[kind] or {}) do
      if name == part.name then return false end
    end
  end
  return true
end

-- make(...), its error (a rule of the core's the reader does not know)
-- raised naming the part: 'IK "leg": <the core's problem>'
local function named(part, make, ...)
  local ok, result = pcall(make, ...)
  if ok then return result end
  error(format("%s: %s", part, tostring(result):gsub("^[^\n]-:%d+: ", "")), 0)
end

-- Two bones whose triangle has a side of 0 (the child at its parent's
-- origin, or of no length) take no two-bone solve: the parent alone turns
-- toward the target, as Spine turns it when the child sits on its origin.
local function solver_of(sk, s, core, unsupported)
  local bones = s.bones
  local options = {}
  for _, key in ipairs(SOLVER_OPTIONS) do options[key] = s[key] end
  local chain = sk:chain(bones[1], bones[#bones])
  local ok, solver = pcall(core.solver, chain, options)
  if not ok and options.method == "two_bone" and tostring(solver):find("two_bone needs", 1, true) then
    options.method = "ccd"
    solver = core.solver(sk:chain(bones[1], bones[1]), options)
    unsupported[#unsupported + 1] = format("IK %q: its child bone sits at its parent's origin or has "
      .. "no length: its parent alone turns toward the target", s.name)
  elseif not ok then
    error(solver, 0)
  end
  local target = s.target
  if target and target.bone then
    solver:set_target_bone(sk, target.bone, target.x or 0, target.y or 0)
  elseif target then
    solver:set_target(target.x, target.y)
  end
  return solver
end

local function constraint_of(sk, c, core)
  local options = { bones = c.bones, target = c.target }
  for _, key in ipairs(CONSTRAINT_OPTIONS) do options[key] = c[key] end
  return core.transform_constraint(sk, options)
end

-- ------------------------------------------------------------------
-- clips
-- ------------------------------------------------------------------

-- A core timeline of a description's: its values mapped by map (for names
-- and indices), its curves as they are.
local function timeline(channel, target, tl, map)
  local values = tl.values
  if map then
    values = {}
    for k, v in ipairs(tl.values) do values[k] = map(v) end
  end
  return { channel = channel, target = target, times = tl.times, values = values, curves = tl.curves }
end

local function bone_timelines(out, clip, index_of_bone)
  for _, bone in ipairs(sorted_keys(clip.bones)) do
    local tls = clip.bones[bone]
    for _, channel in ipairs(BONE_CHANNELS) do
      local tl = tls[channel]
      if tl then
        out[#out + 1] = timeline(channel, index_of_bone[bone], tl,
          channel == "inherit" and function(v) return INHERIT[v] end or nil)
      end
    end
  end
end

local function named_timelines(out, keyed, index_of, channels)
  for _, name in ipairs(sorted_keys(keyed)) do
    local at = index_of[name]
    if at then
      for _, channel in ipairs(channels) do
        local tl = keyed[name][channel]
        if tl then out[#out + 1] = timeline(channel, at, tl) end
      end
    end
  end
end

local function slot_timelines(out, clip, parts)
  for _, slot in ipairs(sorted_keys(clip.slots)) do
    local tls, at = clip.slots[slot], parts.slot_index[slot]
    local shows = parts.shows[slot]
    for _, channel in ipairs(SLOT_CHANNELS) do
      local tl = tls[channel]
      if tl and channel == "attachment" then
        out[#out + 1] = timeline(channel, at, tl, function(v) return v and shows[v] or 0 end)
      elseif tl then
        out[#out + 1] = timeline(channel, at, tl)
      end
    end
  end
end

-- The deform timelines of the active skins' attachments: the offsets of a
-- key flattened, the curves the share's.
local function deform_timelines(out, clip, parts)
  for _, skin in ipairs(sorted_keys(clip.deform)) do
    local by_slot = parts.by_skin[skin]
    for _, slot in ipairs(by_slot and sorted_keys(clip.deform[skin]) or {}) do
      for _, entry in ipairs(sorted_keys(clip.deform[skin][slot])) do
        local tl, at = clip.deform[skin][slot][entry], by_slot[slot] and by_slot[slot][entry]
        if at then
          local values = {}
          for _, offsets in ipairs(tl.offsets) do
            for _, v in ipairs(offsets) do values[#values + 1] = v end
          end
          out[#out + 1] = { channel = "deform", target = at, times = tl.times, values = values,
            curves = tl.curves }
        end
      end
    end
  end
end

local function order_timeline(out, clip, slot_count)
  if not clip.draw_order or #clip.draw_order == 0 then return end
  local times, values = {}, {}
  for k, key in ipairs(clip.draw_order) do
    times[k] = key.time
    for i = 1, slot_count do values[#values + 1] = key.order and key.order[i] or i end
  end
  out[#out + 1] = { channel = "draw_order", times = times, values = values }
end

-- A clip's events, each its key merged with its definition's defaults.
local function events_of(clip, definitions)
  local list = {}
  for k, e in ipairs(clip.events or {}) do
    local d = definitions[e.name] or {}
    list[k] = { time = e.time, name = e.name, int = e.int or d.int or 0,
      float = e.float or d.float or 0, string = e.string or d.string or "", audio = d.audio,
      volume = e.volume or d.volume or 1, balance = e.balance or d.balance or 0 }
  end
  sort(list, function(a, b) return a.time < b.time end)
  return list
end

local function clip_of(name, clip, parts, targets, core)
  local tls = {}
  bone_timelines(tls, clip, parts.bone_index)
  named_timelines(tls, clip.solvers, parts.solver_index, SOLVER_CHANNELS)
  named_timelines(tls, clip.constraints, parts.constraint_index, CONSTRAINT_CHANNELS)
  slot_timelines(tls, clip, parts)
  deform_timelines(tls, clip, parts)
  order_timeline(tls, clip, #parts.slot_list)
  return { name = name, duration = clip.duration, loop_count = clip.loop_count,
    events = events_of(clip, parts.event_definitions), timelines = tls,
    core = core.clip(targets, { duration = clip.duration, timelines = tls }) }
end

-- The clip that puts back the set-up inherit mode of every bone a clip
-- keys one of (the skeleton's reset keeps the modes keys set): one key
-- at time 0 a bone; nil when no clip keys an inherit mode.
local function setup_clip_of(desc, targets, core)
  local keyed = {}
  for _, clip in pairs(desc.clips or {}) do
    for bone, tls in pairs(clip.bones or {}) do
      if tls.inherit then keyed[bone] = true end
    end
  end
  local tls = {}
  for i, b in ipairs(desc.bones) do
    if keyed[b.name] then
      tls[#tls + 1] = { channel = "inherit", target = i, times = { 0 },
        values = { INHERIT[b.inherit or "all"] } }
    end
  end
  if #tls == 0 then return nil end
  return core.clip(targets, { duration = 0, timelines = tls })
end

-- ------------------------------------------------------------------
-- the whole rig
-- ------------------------------------------------------------------

-- ------------------------------------------------------------------
-- attachments' geometry
-- ------------------------------------------------------------------

local QUAD = { 1, 2, 3, 3, 4, 1 }

-- The atlas region of an attachment's image (its path, else its name),
-- and its page: the whole texture when the rig has no atlas or the atlas
-- not that image.
local function region_of(atlas, a, record)
  local name = a.path or record.name
  local r = atlas and atlas.regions[name]
  if r then return r, atlas.pages[r.page] end
  return atlas_lib.whole(a.width or 32, a.height or 32), nil
end

-- A region's corners in its bone's space (region_corners'). A size the
-- file leaves to the atlas (DragonBones') is its image's; in a y-down rig
-- the image's top is toward -y (its y scale turned over); a pivot (the
-- point of the image at the attachment's origin, as fractions of its
-- size from its top left) moves it; a shear (DragonBones' skew) puts
-- its y axis at angle + pi/2 + shear_y.
local function region_vertices(a, r, y_down)
  local shear = a.shear_y or 0
  if a.width and not y_down and not a.pivot and shear == 0 then return atlas_lib.region_corners(a, r) end
  local shape = {}
  for key, value in pairs(a) do shape[key] = value end
  shape.width, shape.height = a.width or r.original_width, a.height or r.original_height
  local sx, sy = a.scale_x or 1, a.scale_y or 1
  if y_down then shape.scale_y = -sy end
  shape.x, shape.y, shape.angle = 0, 0, 0
  local v = atlas_lib.region_corners(shape, r)
  local dx, dy = 0, 0
  if a.pivot then dx, dy = (0.5 - a.pivot[1]) * shape.width * sx, (0.5 - a.pivot[2]) * shape.height * sy end
  local xc, xs = rot(a.angle or 0)
  local yc, ys = rot((a.angle or 0) + 0.5 * math.pi + shear)
  local x, y = a.x or 0, a.y or 0
  for i = 1, 8, 2 do
    local u, w = v[i] + dx, v[i + 1] + dy
    v[i], v[i + 1] = x + u * xc + w * yc, y + u * xs + w * ys
  end
  return v
end

-- The mesh a linked mesh takes its geometry from: its parent entry, in
-- its skin, on the same slot.
local function linked_parent(parts, record)
  local by_slot = parts.by_skin[record.data.skin or record.skin]
  local index = by_slot and by_slot[record.slot] and by_slot[record.slot][record.data.parent]
  return index and parts.attachment_list[index]
end

-- Attachment record's core def and its final uvs and triangles.
local function geometry_of(parts, record, atlas)
  local a = record.data
  if a.type == "region" then
    local r = region_of(atlas, a, record)
    record.kind, record.uvs, record.triangles = "region", atlas_lib.region_uvs(r), QUAD
    return { kind = "region", vertices = region_vertices(a, r, parts.y_down), uvs = record.uvs,
      triangles = QUAD, color = a.color }
  end
  local mesh, deform = a, record.index
  if a.type == "linkedmesh" then
    local parent = linked_parent(parts, record)
    if not parent or parent.data.type ~= "mesh" then
      record.kind = "hidden"
      return { kind = "hidden" }
    end
    mesh = parent.data
    if a.deform ~= false then deform = parent.index end
  elseif a.type ~= "mesh" then
    record.kind = "hidden"
    return { kind = "hidden" }
  end
  local r, page = region_of(atlas, a, record)
  record.kind = "mesh"
  record.uvs = page and atlas_lib.mesh_uvs(mesh.uvs, r, page) or mesh.uvs
  record.triangles = mesh.triangles
  return { kind = "mesh", vertices = mesh.vertices, weights = mesh.weights, uvs = record.uvs,
    triangles = mesh.triangles, color = a.color, deform = deform }
end

local function slots_of(desc, sk, parts, core, atlas)
  local list, attachments = {}, {}
  for i, slot in ipairs(desc.slots or {}) do
    local shows = parts.shows[slot.name]
    list[i] = { bone = parts.bone_index[slot.bone],
      attachment = slot.attachment and shows[slot.attachment] or nil,
      color = slot.color or { 1, 1, 1, 1 }, dark = slot.dark, blend = slot.blend or "normal" }
  end
  for k, record in ipairs(parts.attachment_list) do attachments[k] = geometry_of(parts, record, atlas) end
  parts.slot_setup = list
  if #list == 0 then return nil end
  return core.slots(sk, { slots = list, attachments = attachments })
end

local function solvers_of(desc, sk, skins, core, parts)
  parts.solvers, parts.solver_list, parts.solver_index = {}, {}, {}
  for _, s in ipairs(desc.solvers or {}) do
    if not inactive(s, "solvers", skins) then
      local solver = named(format("IK %q", s.name), solver_of, sk, s, core, desc.unsupported)
      parts.solvers[s.name] = solver
      parts.solver_list[#parts.solver_list + 1] = solver
      parts.solver_index[s.name] = #parts.solver_list
    end
  end
  parts.constraints, parts.constraint_list, parts.constraint_index = {}, {}, {}
  for _, c in ipairs(desc.constraints or {}) do
    if not inactive(c, "constraints", skins) then
      local tc = named(format("transform constraint %q", c.name), constraint_of, sk, c, core)
      parts.constraints[c.name] = tc
      parts.constraint_list[#parts.constraint_list + 1] = tc
      parts.constraint_index[c.name] = #parts.constraint_list
    end
  end
end

local function order_of(desc, sk, parts)
  if not desc.order then return end
  local steps = {}
  for _, step in ipairs(desc.order) do
    local object = step[1] == "solver" and parts.solvers[step[2]] or parts.constraints[step[2]]
    if object then steps[#steps + 1] = object end
  end
  sk:set_order(steps)
end

local function indices(parts, desc, skins)
  parts.bone_index, parts.slot_index, parts.slot_list = {}, {}, {}
  for i, b in ipairs(desc.bones) do parts.bone_index[b.name] = i end
  for i, s in ipairs(desc.slots or {}) do
    parts.slot_index[s.name] = i
    parts.slot_list[i] = s
  end
  parts.attachment_list, parts.shows = attachments_of(desc, skins)
  parts.by_skin = {}
  for _, a in ipairs(parts.attachment_list) do
    local by_slot = parts.by_skin[a.skin] or {}
    parts.by_skin[a.skin] = by_slot
    by_slot[a.slot] = by_slot[a.slot] or {}
    by_slot[a.slot][a.name] = a.index
  end
  parts.event_definitions = desc.events or {}
  parts.y_down = desc.y_up == false
end

-- ------------------------------------------------------------------
-- springs and gaits (ik2d's own rig file)
-- ------------------------------------------------------------------

local SPRING_OPTIONS = { "stiffness", "damping", "mass", "weight", "gravity", "wind" }

-- A standalone chain of a description: { x =, y =, angle =, flip =,
-- bones = { { length =, angle =, min =, max =, invert =, space = } } }.
local function chain_of(c, core)
  local t = { x = c.x, y = c.y, angle = c.angle, flip = c.flip }
  for i, b in ipairs(c.bones) do
    t[i] = { length = b.length, angle = b.angle, min = b.min, max = b.max, invert = b.invert,
      space = b.space }
  end
  return core.chain(t)
end

local function springs_of(desc, sk, core, parts)
  parts.springs, parts.spring_list = {}, {}
  for _, sp in ipairs(desc.springs or {}) do
    local chain = sp.chain and chain_of(sp.chain, core) or sk:chain(sp.bones[1], sp.bones[#sp.bones])
    local options = {}
    for _, key in ipairs(SPRING_OPTIONS) do options[key] = sp[key] end
    local spring = core.spring(chain, options)
    if sp.colliders and #sp.colliders > 0 then spring:set_colliders(sp.colliders) end
    parts.springs[sp.name] = spring
    parts.spring_list[#parts.spring_list + 1] = spring
  end
end

-- A gait's options with its legs' solvers by name made the rig's solvers.
local function gait_options(g, solvers)
  local options = { ground = g.ground, pattern = g.pattern, step = g.step, tip = g.tip, legs = {} }
  for i, leg in ipairs(g.legs) do
    options.legs[i] = { solver = solvers[leg.solver], home = leg.home, hip = leg.hip,
      reach = leg.reach, foot = leg.foot }
  end
  return options
end

local function gaits_of(desc, parts)
  parts.gaits = {}
  if not desc.gaits or #desc.gaits == 0 then return end
  local gait = require "ik2d.gait"
  for _, g in ipairs(desc.gaits) do
    parts.gaits[g.name] = gait.new(gait_options(g, parts.solvers))
  end
end

build.gait_options = gait_options

-- The slots, the targets over the skeleton, solvers and constraints parts
-- holds, and a clip of each of desc's on them.
local function drawn_and_played(desc, parts, options, core)
  parts.slots = slots_of(desc, parts.skeleton, parts, core, options.atlas_data)
  parts.targets = core.rig_targets{ skeleton = parts.skeleton, solvers = parts.solver_list,
    constraints = parts.constraint_list, slots = parts.slots }
  parts.clips = {}
  for _, name in ipairs(sorted_keys(desc.clips)) do
    parts.clips[name] = clip_of(name, desc.clips[name], parts, parts.targets, core)
  end
end

--- the parts of desc around its skeleton, solvers and constraints, which
-- parts has already (rig.new: objects made in code): the slots,
-- attachments, targets and clips.
function build.around(desc, parts, options, core)
  local skins = active_skins(desc, options.skin)
  indices(parts, desc, skins)
  drawn_and_played(desc, parts, options, core)
  parts.skins = skins
  return parts
end

--- the core objects of desc (checked by its reader): { skeleton =,
-- solvers =, solver_list =, constraints =, constraint_list =, slots =,
-- attachment_list =, clips =, targets =, setup_clip =, springs =, gaits = }
function build.rig(desc, options, core)
  local skins = active_skins(desc, options.skin)
  local parts = {}
  indices(parts, desc, skins)
  local sk = skeleton_of(desc, options, core)
  parts.skeleton = sk
  solvers_of(desc, sk, skins, core, parts)
  order_of(desc, sk, parts)
  springs_of(desc, sk, core, parts)
  gaits_of(desc, parts)
  drawn_and_played(desc, parts, options, core)
  parts.setup_clip = setup_clip_of(desc, parts.targets, core)
  parts.skins = skins
  return parts
end

build.deform_size = deform_size
build.INHERIT = INHERIT

return build
