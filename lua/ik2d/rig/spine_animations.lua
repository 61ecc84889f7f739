-- ik2d.rig.spine_animations: a Spine 4.2 file's animations as the rig
-- description's clips (docs/rig-format.md), for ik2d.rig.spine.
--
-- What the runtimes round is rounded here (../shared/FORMATS.md): key
-- times and values are 32-bit floats, and so are a Bézier's control
-- points and its nine samples (ik2d.rig.curves), the polyline the
-- description keeps.  Angles (rotate and shear keys) are rounded in
-- degrees, as the runtime stores them, then converted with units.DEG; a
-- Bézier of an angle is sampled in degrees and its samples converted.
--
-- A key's `curve`: absent, linear; "stepped"; or 4 numbers a value the
-- timeline keys (cx1, cy1, cx2, cy2 in absolute time and value units),
-- so 8 for translate, 16 for rgba.  The last key's curve leads nowhere:
-- it is checked and written "linear".

local check = require "ik2d.rig.check"
local units = require "ik2d.rig.spine_units"
local float32 = require "ik2d.rig.float32"
local curves = require "ik2d.rig.curves"

local animations = {}

local fail, show, kind, key_of = check.fail, check.show, check.kind, check.key
local number, whole, boolean = check.number, check.whole, check.boolean
local is_absent, is_object = check.is_absent, check.is_object
local round, bezier = float32.round, curves.bezier
local DEG = units.DEG
local huge, format, type = math.huge, string.format, type

-- ------------------------------------------------------------------
-- keys
-- ------------------------------------------------------------------

-- a number as the runtime stores it: a 32-bit float (finite)
local function f32(v, place, name)
  local r = round(v)
  if r == huge or r == -huge then fail(place, format("%s %s is beyond a 32-bit float", name, show(v))) end
  return r
end

-- The key at list[k] (an object) and its time: absent is 0; >= 0; after
-- the previous key's (or at it, where keys may share a time).
local function key_at(list, k, place, state, may_share)
  place.index = k
  local key = list[k]
  if not is_object(key) then fail(place, "must be an object, got " .. kind(key)) end
  local given = number(key, "time", 0, place)
  if given < 0 then fail(place, "time must be >= 0, got " .. show(given)) end
  local time = f32(given, place, "time")
  local previous = state.time
  if previous and (time < previous or (time == previous and not may_share)) then
    fail(place, format("time %s is not after the previous key's %s", show(given), show(state.given)))
  end
  state.time, state.given = time, given
  if time > state.clip.duration then state.clip.duration = time end
  return key, time
end

-- The keys of one timeline: a non-empty array.
local function key_list(map, name, where)
  local list = map[name]
  if not check.is_array(list) then
    fail(where, format("%s must be an array of keys, got %s", name, kind(list)))
  end
  if #list == 0 then fail(where, name .. " has no keys") end
  return list
end

-- A key's curve over `channels` values: "linear", "stepped", or its 4
-- control numbers a channel rounded to 32-bit floats.
local function key_curve(key, place, channels)
  local curve = key.curve
  if is_absent(curve) then return "linear" end
  if curve == "stepped" then return "stepped" end
  local wanted = 4 * channels
  if not check.is_array(curve) or #curve ~= wanted then
    fail(place, format("curve must be \"stepped\" or %d numbers (4 for each of %d values), got %s", wanted,
                       channels, check.is_array(curve) and #curve .. " numbers" or
                         (type(curve) == "string" and show(curve) or kind(curve))))
  end
  local out = {}
  for j = 1, wanted do
    local v = curve[j]
    if type(v) ~= "number" or v ~= v or v == huge or v == -huge then
      fail(place, format("curve[%d] must be a finite number, got %s", j, type(v) == "number" and show(v) or kind(v)))
    end
    local r = round(v)
    if r == huge or r == -huge then fail(place, format("curve[%d] %s is beyond a 32-bit float", j, show(v))) end
    out[j] = r
  end
  return out
end

-- A curve timeline read whole: times, `channels` values a key (32-bit
-- floats, in the file's units) and each key's curve.  `spec.read(key,
-- place, values, at)` writes a key's values at values[at + 1 ..].
local function read_curve_keys(list, place, spec, clip)
  local channels = spec.channels
  local times, values, key_curves = {}, {}, {}
  local state = { clip = clip }
  for k = 1, #list do
    local key, time = key_at(list, k, place, state)
    times[k] = time
    spec.read(key, place, values, (k - 1) * channels)
    key_curves[k] = key_curve(key, place, channels)
    if spec.extra then spec.extra(key, place, k) end
  end
  return { channels = channels, times = times, values = values, curves = key_curves }
end

-- The description's timeline of `count` channels from `first` of a read
-- curve timeline, values times `factor`; a Bézier becomes its nine
-- samples a channel (sampled in the file's units, then times factor).
-- A timeline taking every channel takes the read lists themselves (read
-- for it alone); one of several channels, copies.
local function timeline(parsed, first, count, factor)
  local from, channels, n = parsed.values, parsed.channels, #parsed.times
  local times, values, out_curves = parsed.times, from, {}
  if count ~= channels then
    times = {}
    for k = 1, n do times[k] = parsed.times[k] end
  end
  if count ~= channels or factor ~= 1 then
    values = {}
    for k = 1, n do
      for c = 0, count - 1 do values[(k - 1) * count + c + 1] = from[(k - 1) * channels + first + c] * factor end
    end
  end
  for k = 1, n do
    local curve = parsed.curves[k]
    if k == n then
      out_curves[k] = "linear"
    elseif type(curve) == "string" then
      out_curves[k] = curve
    else
      local per_channel = count == 1 and { false } or {}
      for c = 0, count - 1 do
        local ch = first + c
        local at = (ch - 1) * 4
        local points = bezier(times[k], from[(k - 1) * channels + ch], curve[at + 1], curve[at + 2],
                              curve[at + 3], curve[at + 4], times[k + 1], from[k * channels + ch])
        if factor ~= 1 then
          for j = 2, 18, 2 do points[j] = points[j] * factor end
        end
        per_channel[c + 1] = points
      end
      out_curves[k] = per_channel
    end
  end
  return { channels = count, times = times, values = values, curves = out_curves }
end

-- Number fields of a key as a curve timeline's channels:
-- fields = { { name, default [, from = j] [, min = m] }, ... }; `from`
-- makes an absent field take field j's value (mixY: mixX).
local function number_fields(fields)
  return {
    channels = #fields,
    read = function(key, place, values, at)
      for j, field in ipairs(fields) do
        local name = field[1]
        if field.from and is_absent(key[name]) then
          values[at + j] = values[at + field.from]
        else
          local v = number(key, name, field[2], place)
          if field.min and v < field.min then
            fail(place, format("%s must be >= %s, got %s", name, show(field.min), show(v)))
          end
          values[at + j] = f32(v, place, name)
        end
      end
    end,
  }
end

-- Colour fields of a key: { { name, digits }, ... }, each "RRGGBBAA"
-- (4 channels) or "RRGGBB" (3), each byte / 255 as a 32-bit float.
local function color_fields(fields)
  local channels = 0
  for _, field in ipairs(fields) do channels = channels + (field[2] == 8 and 4 or 3) end
  return {
    channels = channels,
    read = function(key, place, values, at)
      local j = at
      for _, field in ipairs(fields) do
        local text = key[field[1]]
        if is_absent(text) then fail(place, field[1] .. " is missing") end
        local r, g, b, a = units.color(text, field[2], place, field[1])
        values[j + 1], values[j + 2], values[j + 3] = round(r), round(g), round(b)
        j = j + 3
        if field[2] == 8 then values[j + 1] = round(a) j = j + 1 end
      end
    end,
  }
end

-- A stepped timeline: times and one value a key (read_value(key, place)).
local function read_stepped(list, place, clip, read_value)
  local times, values = {}, {}
  local state = { clip = clip }
  for k = 1, #list do
    local key, time = key_at(list, k, place, state)
    times[k] = time
    values[k] = read_value(key, place)
  end
  return { channels = 1, times = times, values = values }
end

-- ------------------------------------------------------------------
-- timelines of bones, slots and constraints
-- ------------------------------------------------------------------

-- A kind of timeline: its channels (spec), the description's timelines it
-- makes ({ field, first channel, channels, factor }) and what it keys, so
-- that two timelines keying the same thing are refused (a Lua table does
-- not keep the file's order, which would decide between them).
local function kind_of(spec, outputs, keys)
  return { spec = spec, outputs = outputs, keys = keys or outputs }
end

local BONE = {
  rotate = kind_of(number_fields { { "value", 0 } }, { { "rotate", 1, 1, DEG } }),
  translate = kind_of(number_fields { { "x", 0 }, { "y", 0 } }, { { "x", 1, 1, 1 }, { "y", 2, 1, 1 } }),
  translatex = kind_of(number_fields { { "value", 0 } }, { { "x", 1, 1, 1 } }),
  translatey = kind_of(number_fields { { "value", 0 } }, { { "y", 1, 1, 1 } }),
  scale = kind_of(number_fields { { "x", 1 }, { "y", 1 } }, { { "scale_x", 1, 1, 1 }, { "scale_y", 2, 1, 1 } }),
  scalex = kind_of(number_fields { { "value", 1 } }, { { "scale_x", 1, 1, 1 } }),
  scaley = kind_of(number_fields { { "value", 1 } }, { { "scale_y", 1, 1, 1 } }),
  shear = kind_of(number_fields { { "x", 0 }, { "y", 0 } }, { { "shear_x", 1, 1, DEG }, { "shear_y", 2, 1, DEG } }),
  shearx = kind_of(number_fields { { "value", 0 } }, { { "shear_x", 1, 1, DEG } }),
  sheary = kind_of(number_fields { { "value", 0 } }, { { "shear_y", 1, 1, DEG } }),
}
local BONE_NAMES = "rotate, translate, translatex, translatey, scale, scalex, scaley, shear, shearx, sheary, inherit"

-- Slot colours: rgba keys the colour, rgb its red, green and blue, alpha
-- its alpha; the two-colour kinds the dark colour too.  The description
-- keeps color (4 channels), rgb (3), alpha (1) and dark (3).
local SLOT = {
  rgba = kind_of(color_fields { { "color", 8 } }, { { "color", 1, 4, 1 } }, { { "rgb" }, { "alpha" } }),
  rgb = kind_of(color_fields { { "color", 6 } }, { { "rgb", 1, 3, 1 } }, { { "rgb" } }),
  alpha = kind_of(number_fields { { "value", 0 } }, { { "alpha", 1, 1, 1 } }, { { "alpha" } }),
  rgba2 = kind_of(color_fields { { "light", 8 }, { "dark", 6 } }, { { "color", 1, 4, 1 }, { "dark", 5, 3, 1 } },
                  { { "rgb" }, { "alpha" }, { "dark" } }),
  rgb2 = kind_of(color_fields { { "light", 6 }, { "dark", 6 } }, { { "rgb", 1, 3, 1 }, { "dark", 4, 3, 1 } },
                 { { "rgb" }, { "dark" } }),
}
local SLOT_NAMES = "attachment, rgba, rgb, alpha, rgba2, rgb2"

-- One curve timeline of a bone or slot into `out`, refusing a second
-- timeline that keys what an earlier one keyed (`keyed`: what -> name).
local function add_curve_timeline(out, keyed, kind_def, name, list, where, clip)
  for _, what in ipairs(kind_def.keys) do
    local earlier = keyed[what[1]]
    if earlier then
      fail(where, format("%s and %s both key %s", earlier, name, what[1]))
    end
  end
  for _, what in ipairs(kind_def.keys) do keyed[what[1]] = name end
  local parsed = read_curve_keys(list, check.place(where, name), kind_def.spec, clip)
  for _, o in ipairs(kind_def.outputs) do out[o[1]] = timeline(parsed, o[2], o[3], o[4]) end
end

local function read_bone_timelines(R, bones_map, where, clip)
  local out = {}
  for _, bone in ipairs(check.sorted_keys(bones_map, where)) do
    local bone_where = key_of(where, bone)
    if not R.bone_index[bone] then fail(where, format("%s is not a bone", show(bone))) end
    local map = bones_map[bone]
    if not is_object(map) then fail(bone_where, "must be an object, got " .. kind(map)) end
    local timelines, keyed = {}, {}
    for _, name in ipairs(check.sorted_keys(map, bone_where)) do
      local list = key_list(map, name, bone_where)
      if name == "inherit" then
        timelines.inherit = read_stepped(list, check.place(bone_where, name), clip, function(key, place)
          return check.choice(key, "inherit", "normal", units.INHERIT, units.INHERIT_ORDER, place)
        end)
      elseif BONE[name] then
        add_curve_timeline(timelines, keyed, BONE[name], name, list, bone_where, clip)
      else
        fail(bone_where, format("%s is not a bone timeline (%s)", show(name), BONE_NAMES))
      end
    end
    out[bone] = timelines
  end
  return out
end

local function attachment_name(key, place)
  return check.optional_string(key, "name", place) or false
end

local function read_slot_timelines(R, slots_map, where, clip)
  local out = {}
  for _, slot in ipairs(check.sorted_keys(slots_map, where)) do
    local slot_where = key_of(where, slot)
    if not R.slot_index[slot] then fail(where, format("%s is not a slot", show(slot))) end
    local map = slots_map[slot]
    if not is_object(map) then fail(slot_where, "must be an object, got " .. kind(map)) end
    local timelines, keyed = {}, {}
    for _, name in ipairs(check.sorted_keys(map, slot_where)) do
      local list = key_list(map, name, slot_where)
      if name == "attachment" then
        timelines.attachment = read_stepped(list, check.place(slot_where, name), clip, attachment_name)
      elseif SLOT[name] then
        add_curve_timeline(timelines, keyed, SLOT[name], name, list, slot_where, clip)
      else
        fail(slot_where, format("%s is not a slot timeline (%s)", show(name), SLOT_NAMES))
      end
    end
    out[slot] = timelines
  end
  return out
end

-- Each constraint named in `map` (one array of keys each), checked
-- against `index` and read by read_one(list, place, clip).
local function read_constraint_timelines(map, where, index, what, clip, read_one)
  local out = {}
  for _, name in ipairs(check.sorted_keys(map, where)) do
    if not index[name] then fail(where, format("%s is not %s", show(name), what)) end
    local list = key_list(map, name, where)
    out[name] = read_one(list, check.place(where, name), clip)
  end
  return out
end

-- IK keys: mix and softness are curves (2 channels); bendPositive,
-- compress and stretch hold from their key to the next, as the
-- constraint's setup fields become solver settings (spine.lua).  Every
-- key sets all five: what a key does not say is the default.
local IK_SPEC = number_fields { { "mix", 1 }, { "softness", 0, min = 0 } }

local function read_ik_keys(list, place, clip)
  local bend, compress, stretch = {}, {}, {}
  local spec = {
    channels = 2, read = IK_SPEC.read,
    extra = function(key, key_place, k)
      bend[k] = boolean(key, "bendPositive", true, key_place) and 1 or -1
      compress[k] = boolean(key, "compress", false, key_place) and 0.0 or 1.0
      stretch[k] = boolean(key, "stretch", false, key_place) and huge or 1.0
    end,
  }
  local parsed = read_curve_keys(list, place, spec, clip)
  local function stepped(values)
    local times = {}
    for k = 1, #parsed.times do times[k] = parsed.times[k] end
    return { channels = 1, times = times, values = values }
  end
  return {
    weight = timeline(parsed, 1, 1, 1), softness = timeline(parsed, 2, 1, 1),
    bend = stepped(bend), compress = stepped(compress), stretch = stepped(stretch),
  }
end

-- mixY's default is the key's mixX, mixScaleY's its mixScaleX
local TRANSFORM_SPEC = number_fields {
  { "mixRotate", 1 }, { "mixX", 1 }, { "mixY", from = 2 }, { "mixScaleX", 1 }, { "mixScaleY", from = 4 },
  { "mixShearY", 1 },
}
local TRANSFORM_FIELDS = { "mix_rotate", "mix_x", "mix_y", "mix_scale_x", "mix_scale_y", "mix_shear_y" }

local function read_transform_keys(list, place, clip)
  local parsed = read_curve_keys(list, place, TRANSFORM_SPEC, clip)
  local out = {}
  for c, field in ipairs(TRANSFORM_FIELDS) do out[field] = timeline(parsed, c, 1, 1) end
  return out
end


-- ------------------------------------------------------------------
-- deform, draw order, events
-- ------------------------------------------------------------------

-- Deform keys of an attachment whose keys have `length` numbers (2 a
-- vertex, or 2 a bone of a vertex when weighted): each key's `vertices`
-- from its `offset` (a number's index from 0) on, zeros elsewhere, as
-- offsets from the setup vertices.  A key's curve gives the share of the
-- way to the next key's offsets (0 to 1), its Bézier sampled as any.
local function read_deform_keys(list, place, clip, length)
  local times, offsets, key_curves = {}, {}, {}
  local state = { clip = clip }
  for k = 1, #list do
    local key, time = key_at(list, k, place, state)
    times[k] = time
    local full = {}
    for j = 1, length do full[j] = 0.0 end
    local vertices = check.numbers(key, "vertices", place)
    if vertices then
      local offset = whole(key, "offset", 0, place, 0)
      if offset + #vertices > length then
        fail(place, format("offset %d and %d vertices numbers pass the %d numbers the attachment deforms",
                           offset, #vertices, length))
      end
      for j = 1, #vertices do full[offset + j] = f32(vertices[j], place, "vertices") end
    end
    offsets[k] = full
    key_curves[k] = key_curve(key, place, 1)
  end
  local n = #times
  for k = 1, n do
    local curve = key_curves[k]
    if k == n then
      key_curves[k] = "linear"
    elseif type(curve) == "table" then
      key_curves[k] = { bezier(times[k], 0, curve[1], curve[2], curve[3], curve[4], times[k + 1], 1) }
    end
  end
  return { times = times, curves = key_curves, offsets = offsets }
end

-- The attachment a deform timeline names, and its deform length.
local function deformed(R, skin_name, slot, name, where)
  local skin = R.skin_index[skin_name]
  if not skin then fail(where, format("%s is not a skin", show(skin_name))) end
  if not R.slot_index[slot] then fail(key_of(where, skin_name), format("%s is not a slot", show(slot))) end
  local att = skin.attachments[slot] and skin.attachments[slot][name]
  local at = key_of(key_of(where, skin_name), slot)
  if not att then
    fail(at, format("%s is not an attachment of slot %s in skin %s", show(name), show(slot), show(skin_name)))
  end
  local length = R.deform_length[att]
  if not length then
    fail(at, format("attachment %s is a %s: meshes, bounding boxes, paths and clippings deform", show(name),
                    att.type))
  end
  return length
end

-- Every skin -> slot -> attachment of `map`, calling each(skin, slot,
-- attachment, value, where) with where naming the attachment.
local function each_attachment(map, where, each)
  for _, skin in ipairs(check.sorted_keys(map, where)) do
    local skin_where = key_of(where, skin)
    local slots = map[skin]
    if not is_object(slots) then fail(skin_where, "must be an object, got " .. kind(slots)) end
    for _, slot in ipairs(check.sorted_keys(slots, skin_where)) do
      local slot_where = key_of(skin_where, slot)
      local atts = slots[slot]
      if not is_object(atts) then fail(slot_where, "must be an object, got " .. kind(atts)) end
      for _, name in ipairs(check.sorted_keys(atts, slot_where)) do
        each(skin, slot, name, atts[name], key_of(slot_where, name))
      end
    end
  end
end

local function store_deform(clip, skin, slot, name, tl)
  local by_skin = clip.deform[skin] or {}
  clip.deform[skin] = by_skin
  local by_slot = by_skin[slot] or {}
  by_skin[slot] = by_slot
  by_slot[name] = tl
end

-- Spine 4.2's attachment timelines: skin -> slot -> attachment ->
-- { deform = keys, sequence = keys }.
local function read_attachment_timelines(R, map, where, clip, animation)
  each_attachment(map, where, function(skin, slot, name, timelines, at)
    if not is_object(timelines) then fail(at, "must be an object, got " .. kind(timelines)) end
    local length = deformed(R, skin, slot, name, where)
    for _, kind_name in ipairs(check.sorted_keys(timelines, at)) do
      local list = key_list(timelines, kind_name, at)
      if kind_name == "deform" then
        store_deform(clip, skin, slot, name, read_deform_keys(list, check.place(at, "deform"), clip, length))
      elseif kind_name == "sequence" then
        R:note_unsupported(format("animation %s: sequence keys of attachment %s (skin %s, slot %s): not played",
                                     show(animation), show(name), show(skin), show(slot)))
      else
        fail(at, format("%s is not an attachment timeline (deform, sequence)", show(kind_name)))
      end
    end
  end)
end

-- The older layout, skin -> slot -> attachment -> deform keys.
local function read_deform_timelines(R, map, where, clip)
  each_attachment(map, where, function(skin, slot, name, list, at)
    local length = deformed(R, skin, slot, name, where)
    if not check.is_array(list) or #list == 0 then fail(at, "must be an array of keys, got " .. kind(list)) end
    store_deform(clip, skin, slot, name, read_deform_keys(list, check.place(at), clip, length))
  end)
end

-- Draw order keys: `offsets` moves slots from their setup place by
-- `offset` places; the slots not moved fill the places left, in their
-- setup order.  A key without offsets is the setup order (order nil).
local function draw_order_of(R, offsets, where)
  local n = #R.slots
  local order, moved = {}, {}
  for j = 1, #offsets do
    local at = format("%s.offsets[%d]", where, j)
    local entry = check.entry(offsets, j, where .. ".offsets")
    local slot = check.string(entry, "slot", nil, at)
    local index = R.slot_index[slot]
    if not index then fail(at, format("slot %s is not a slot", show(slot))) end
    if moved[index] then fail(at, format("slot %s is moved twice", show(slot))) end
    local offset = whole(entry, "offset", 0, at)
    local place = index + offset
    if place < 1 or place > n then
      fail(at, format("offset %d moves slot %s from %d to %d, outside the %d slots", offset, show(slot), index,
                      place, n))
    end
    if order[place] then
      fail(at, format("slot %s goes to place %d, where slot %s goes", show(slot), place,
                      show(R.slots[order[place]].name)))
    end
    order[place], moved[index] = index, true
  end
  local place = 1
  for index = 1, n do
    if not moved[index] then
      while order[place] do place = place + 1 end
      order[place] = index
    end
  end
  return order
end

local function read_draw_order(R, list, place, clip)
  local out = {}
  local state = { clip = clip }
  for k = 1, #list do
    local key, time = key_at(list, k, place, state)
    local offsets = check.array(key, "offsets", place)
    out[k] = { time = time, order = offsets and draw_order_of(R, offsets, place:text()) or nil }
  end
  return out
end

-- Event keys: a defined event, its int, float, string, volume and
-- balance where the key gives them, the definition's elsewhere.  Keys may
-- share a time.
local function read_event_keys(R, list, place, clip)
  local out = {}
  local state = { clip = clip }
  for k = 1, #list do
    local key, time = key_at(list, k, place, state, true)
    local name = check.string(key, "name", nil, place)
    local def = R.events[name]
    if not def then fail(place, format("event %s is not defined in events", show(name))) end
    out[k] = {
      time = time, name = name,
      int = whole(key, "int", def.int, place), float = number(key, "float", def.float, place),
      string = check.string(key, "string", def.string, place),
      volume = number(key, "volume", def.volume, place), balance = number(key, "balance", def.balance, place),
    }
  end
  return out
end

-- ------------------------------------------------------------------
-- an animation
-- ------------------------------------------------------------------

local function read_animation(R, name, anim, where)
  local clip = {
    name = name, duration = 0.0, bones = {}, slots = {}, solvers = {}, constraints = {}, deform = {},
    draw_order = {}, events = {},
  }
  local map = check.object(anim, "bones", where)
  if map then clip.bones = read_bone_timelines(R, map, key_of(where, "bones"), clip) end
  map = check.object(anim, "slots", where)
  if map then clip.slots = read_slot_timelines(R, map, key_of(where, "slots"), clip) end
  map = check.object(anim, "ik", where)
  if map then
    clip.solvers = read_constraint_timelines(map, key_of(where, "ik"), R.solver_index, "an IK constraint", clip,
                                             read_ik_keys)
  end
  map = check.object(anim, "transform", where)
  if map then
    clip.constraints = read_constraint_timelines(map, key_of(where, "transform"), R.constraint_index,
                                                 "a transform constraint", clip, read_transform_keys)
  end
  map = check.object(anim, "attachments", where)
  if map then read_attachment_timelines(R, map, key_of(where, "attachments"), clip, name) end
  map = check.object(anim, "deform", where)
  if map then read_deform_timelines(R, map, key_of(where, "deform"), clip) end
  local list = check.array(anim, "drawOrder", where)
  if list then clip.draw_order = read_draw_order(R, list, check.place(where, "drawOrder"), clip) end
  list = check.array(anim, "events", where)
  if list then clip.events = read_event_keys(R, list, check.place(where, "events"), clip) end
  map = check.object(anim, "path", where)
  if map then
    for _, constraint in ipairs(check.sorted_keys(map, key_of(where, "path"))) do
      if not R.path_index[constraint] then
        fail(key_of(where, "path"), format("%s is not a path constraint", show(constraint)))
      end
      R:note_unsupported(format("animation %s: keys of path constraint %s: not played", show(name),
                                   show(constraint)))
    end
  end
  if not is_absent(anim.physics) then
    R:note_unsupported(format("animation %s: physics constraint keys: not played", show(name)))
  end
  return clip
end

--- animations.read(R, file) -> the description's clips (name -> clip).
-- R: the reader's state (bones, slots, skins, constraints, events).
function animations.read(R, file)
  local clips = {}
  local map = check.object(file, "animations", "")
  if not map then return clips end
  for _, name in ipairs(check.sorted_keys(map, "animations")) do
    local where = key_of("animations", name)
    local anim = map[name]
    if not is_object(anim) then fail(where, "must be an object, got " .. kind(anim)) end
    clips[name] = read_animation(R, name, anim, where)
  end
  return clips
end

return animations
