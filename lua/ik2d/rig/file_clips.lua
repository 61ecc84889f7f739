-- ik2d.rig.file_clips: the slots, skins (attachments) and clips of an
-- ik2d rig file, read for ik2d.rig.file_read: checked, and copied with
-- every number the file's double to the bit.  R holds the names read so
-- far (R.bones[name], R.solvers, R.constraints, R.slots, R.skins,
-- R.attachments[skin][slot][entry], R.slot_count).

local check = require "ik2d.rig.check"

local M = {}

local fail, item, show, kind, key_of = check.fail, check.item, check.show, check.kind, check.key
local is_absent, is_object, is_array = check.is_absent, check.is_object, check.is_array
local type, ipairs, format = type, ipairs, string.format
local V = require "ik2d.rig.file_values"
local number, at_least, text = V.number, V.at_least, V.text
local choice, numbers, objects, known_keys, set, name_of = V.choice, V.numbers, V.objects, V.known_keys,
  V.set, V.name_of
local INHERIT = V.INHERIT

-- ------------------------------------------------------------------
-- slots, skins, attachments
-- ------------------------------------------------------------------

local BLENDS = set{ "normal", "additive", "multiply", "screen" }

local function read_slot(R, map, i)
  local where = item("slots", i)
  local name = text(map, "name", where, true)
  where = item("slots", i, name)
  known_keys(map, set{ "name", "bone", "attachment", "color", "dark", "blend" }, where)
  check.unique(R.slots, name, i, where, "slots")
  return { name = name, bone = name_of(R, "bones", map, "bone", where, true),
    attachment = text(map, "attachment", where), color = numbers(map, "color", where, 4),
    dark = numbers(map, "dark", where, 3),
    blend = choice(map, "blend", where, BLENDS, { "normal", "additive", "multiply", "screen" }) }
end

local ATTACHMENT_TYPES = set{ "region", "mesh", "linkedmesh", "boundingbox", "path", "point", "clipping" }
local ATTACHMENT_ORDER = { "region", "mesh", "linkedmesh", "boundingbox", "path", "point", "clipping" }

-- An attachment: its numbers and lists checked, copied whole.
local function read_attachment(a, where)
  local out = { type = choice(a, "type", where, ATTACHMENT_TYPES, ATTACHMENT_ORDER) }
  if not out.type then fail(where, "type is missing") end
  for _, key in ipairs(check.sorted_keys(a, where)) do
    local v = a[key]
    if type(v) == "number" then
      out[key] = number(a, key, nil, where)
    elseif is_array(v) and not is_absent(v) then
      out[key] = numbers(a, key, where)
    elseif key ~= "type" and not is_absent(v) then
      if type(v) ~= "string" and type(v) ~= "boolean" then
        fail(where, format("%s must be a number, a list of numbers, a string or true or false, got %s", key, kind(v)))
      end
      out[key] = v
    end
  end
  if out.uvs and out.triangles then
    local count = #out.uvs / 2
    for k, t in ipairs(out.triangles) do
      if t % 1 ~= 0 or t < 1 or t > count then
        fail(where, format("triangles[%d] is %s, and the mesh has %d vertices (1 to %d)", k, show(t), count, count))
      end
    end
  end
  return out
end

local function read_skin(R, map, i)
  local where = item("skins", i)
  local name = text(map, "name", where, true)
  where = item("skins", i, name)
  known_keys(map, set{ "name", "bones", "solvers", "constraints", "attachments" }, where)
  check.unique(R.skins, name, i, where, "skins")
  local s = { name = name, attachments = {} }
  for _, kind_name in ipairs({ "bones", "solvers", "constraints" }) do
    local list = check.array(map, kind_name, where)
    if list then
      s[kind_name] = {}
      for k = 1, #list do
        if not R[kind_name][list[k]] then
          fail(where, format("%s[%d] %s is not one of the rig's %s", kind_name, k, show(list[k]), kind_name))
        end
        s[kind_name][k] = list[k]
      end
    end
  end
  local attachments = check.object(map, "attachments", where) or {}
  local at = key_of(where, "attachments")
  R.attachments[name] = {}
  for _, slot in ipairs(check.sorted_keys(attachments, at)) do
    local slot_where = key_of(at, slot)
    if not R.slots[slot] then fail(slot_where, "is not one of the rig's slots") end
    local entries = check.object(attachments, slot, at, true)
    s.attachments[slot], R.attachments[name][slot] = {}, {}
    for _, entry in ipairs(check.sorted_keys(entries, slot_where)) do
      local entry_where = key_of(slot_where, entry)
      s.attachments[slot][entry] = read_attachment(check.object(entries, entry, slot_where, true), entry_where)
      R.attachments[name][slot][entry] = true
    end
  end
  return s
end

-- ------------------------------------------------------------------
-- clips
-- ------------------------------------------------------------------

local BONE_CHANNELS = set{ "rotate", "x", "y", "scale_x", "scale_y", "shear_x", "shear_y", "inherit" }
local SOLVER_CHANNELS = set{ "weight", "softness", "bend", "compress", "stretch" }
local CONSTRAINT_CHANNELS = set{ "mix_rotate", "mix_x", "mix_y", "mix_scale_x", "mix_scale_y", "mix_shear_y" }
local SLOT_CHANNELS = { attachment = 1, color = 4, rgb = 3, alpha = 1, dark = 3 }

-- a key's curve: "linear", "stepped" or one list of points a channel
local function read_curves(tl, where, channels, keys)
  local curves = check.array(tl, "curves", where)
  if not curves then return nil end
  if #curves ~= keys then fail(where, format("curves must hold one curve a key (%d), got %d", keys, #curves)) end
  local out = {}
  for k = 1, #curves do
    local c = curves[k]
    if c == "linear" or c == "stepped" then
      out[k] = c
    elseif is_array(c) and not is_absent(c) and #c == channels then
      out[k] = {}
      for ch = 1, channels do out[k][ch] = numbers(c, ch, item(key_of(where, "curves"), k)) end
    else
      fail(item(key_of(where, "curves"), k),
        format('must be "linear", "stepped" or a list of points for each of %d channels', channels))
    end
  end
  return out
end

-- A timeline of channels numbers a key; value(v, where) reads a value
-- that is not a number (nil: numbers, infinite when infinite).
local function read_timeline(tl, where, channels, value, infinite)
  if not is_object(tl) then fail(where, "must be an object, got " .. kind(tl)) end
  known_keys(tl, set{ "channels", "times", "values", "curves" }, where)
  local times = numbers(tl, "times", where, nil, true)
  if #times == 0 then fail(where, "times must hold at least one key") end
  for k = 2, #times do
    if times[k] <= times[k - 1] then fail(where, format("times[%d] must be after times[%d]", k, k - 1)) end
  end
  if not is_absent(tl.channels) and tl.channels ~= channels then
    fail(where, format("channels must be %d, got %s", channels, show(tl.channels)))
  end
  local list = check.array(tl, "values", where, true)
  if #list ~= #times * channels then
    fail(where, format("values must hold %d numbers a key (%d), got %d", channels, #times * channels, #list))
  end
  local values = {}
  for k = 1, #list do
    if value then
      values[k] = value(list[k], item(key_of(where, "values"), k))
    else
      values[k] = number(list, k, nil, key_of(where, "values"), infinite)
    end
  end
  return { channels = channels, times = times, values = values, curves = read_curves(tl, where, channels, #times) }
end

-- clip[part] = { [name] = { [channel] = timeline } }, each name one of
-- R[kind_name] and channel in channels
local function read_keyed(R, clip, part, where, kind_name, channels, reader)
  local keyed = check.object(clip, part, where)
  if not keyed then return nil end
  local at = key_of(where, part)
  local out = {}
  for _, name in ipairs(check.sorted_keys(keyed, at)) do
    local name_where = key_of(at, name)
    if not R[kind_name][name] then fail(name_where, format("is not one of the rig's %s", kind_name)) end
    local tls = check.object(keyed, name, at, true)
    out[name] = {}
    for _, channel in ipairs(check.sorted_keys(tls, name_where)) do
      if not channels[channel] then fail(name_where, format("unknown channel %s", show(channel))) end
      out[name][channel] = reader(tls[channel], key_of(name_where, channel), channel, name)
    end
  end
  return out
end

local function inherit_value(v, where)
  if not INHERIT[v] then fail(where, "must be an inherit mode's name, got " .. show(v)) end
  return v
end

local function read_deform(R, clip, where)
  local deform = check.object(clip, "deform", where)
  if not deform then return nil end
  local out, at = {}, key_of(where, "deform")
  for _, skin in ipairs(check.sorted_keys(deform, at)) do
    local skin_at = key_of(at, skin)
    if not R.attachments[skin] then fail(skin_at, "is not one of the rig's skins") end
    out[skin] = {}
    local by_slot = check.object(deform, skin, at, true)
    for _, slot in ipairs(check.sorted_keys(by_slot, skin_at)) do
      local slot_at = key_of(skin_at, slot)
      out[skin][slot] = {}
      local entries = check.object(by_slot, slot, skin_at, true)
      for _, entry in ipairs(check.sorted_keys(entries, slot_at)) do
        local tl_at = key_of(slot_at, entry)
        if not (R.attachments[skin][slot] and R.attachments[skin][slot][entry]) then
          fail(tl_at, "is not an attachment of the skin")
        end
        local tl = check.object(entries, entry, slot_at, true)
        known_keys(tl, set{ "times", "curves", "offsets" }, tl_at)
        local times = numbers(tl, "times", tl_at, nil, true)
        local list, offsets = check.array(tl, "offsets", tl_at, true), {}
        for k = 1, #list do offsets[k] = numbers(list, k, key_of(tl_at, "offsets")) end
        if #offsets ~= #times then fail(tl_at, "offsets must hold one list a key") end
        out[skin][slot][entry] = { times = times, offsets = offsets, curves = read_curves(tl, tl_at, 1, #times) }
      end
    end
  end
  return out
end

local function read_clip(R, clip, name)
  local where = key_of("clips", name)
  if not is_object(clip) then fail(where, "must be an object, got " .. kind(clip)) end
  known_keys(clip, set{ "duration", "loop_count", "bones", "slots", "solvers", "constraints", "deform",
    "draw_order", "events" }, where)
  local c = { name = name, duration = at_least(clip, "duration", nil, where, 0) }
  if not is_absent(clip.loop_count) then c.loop_count = check.whole(clip, "loop_count", nil, where, 0) end
  c.bones = read_keyed(R, clip, "bones", where, "bones", BONE_CHANNELS, function(tl, at, channel)
    return read_timeline(tl, at, 1, channel == "inherit" and inherit_value or nil)
  end)
  c.solvers = read_keyed(R, clip, "solvers", where, "solvers", SOLVER_CHANNELS, function(tl, at, channel)
    return read_timeline(tl, at, 1, nil, channel == "stretch")
  end)
  c.constraints = read_keyed(R, clip, "constraints", where, "constraints", CONSTRAINT_CHANNELS,
    function(tl, at) return read_timeline(tl, at, 1) end)
  c.slots = read_keyed(R, clip, "slots", where, "slots", SLOT_CHANNELS, function(tl, at, channel)
    return read_timeline(tl, at, SLOT_CHANNELS[channel], channel == "attachment" and function(v, vw)
      if v ~= false and type(v) ~= "string" then fail(vw, "must be an attachment's name or false, got " .. kind(v)) end
      return v
    end or nil)
  end)
  c.deform = read_deform(R, clip, where)
  c.draw_order = objects(clip, "draw_order", where, function(key, k)
    local at = item(key_of(where, "draw_order"), k)
    local order = numbers(key, "order", at)
    for j, slot in ipairs(order or {}) do
      if slot % 1 ~= 0 or slot < 1 or slot > R.slot_count then
        fail(at, format("order[%d] must be a slot's index (1 to %d), got %s", j, R.slot_count, show(slot)))
      end
    end
    return { time = number(key, "time", nil, at), order = order }
  end)
  c.events = objects(clip, "events", where, function(e, k)
    local at = item(key_of(where, "events"), k)
    return { time = number(e, "time", nil, at), name = text(e, "name", at, true),
      int = number(e, "int", false, at) or nil, float = number(e, "float", false, at) or nil,
      string = text(e, "string", at), audio = text(e, "audio", at),
      volume = number(e, "volume", false, at) or nil,
      balance = number(e, "balance", false, at) or nil }
  end)
  return c
end

M.read_slot, M.read_skin, M.read_clip = read_slot, read_skin, read_clip

return M
