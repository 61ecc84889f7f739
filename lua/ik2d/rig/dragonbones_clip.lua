-- ik2d.rig.dragonbones_clip: a DragonBones armature's animations as the
-- rig description's clips, keyed so that the description's player (which
-- reads straight lines between points) shows what the DragonBones runtime
-- (DragonBonesJS 5.x, MIT) shows. What the runtime does, and so this:
-- - Keys: a timeline's keys sit at whole frames, each `duration` frames
--   after the one before (a key of duration 0 still takes a frame); the
--   last one lasts to the end of the animation (its own duration is not
--   read). Times here are seconds: frames / frameRate, times the
--   animation's `scale`.
-- - Values: bone keys are stored as 32-bit floats (translation, rotation
--   and skew in radians, scale), colours as whole percents; a bone's
--   animated rotation, skew and translation are added to its setup ones,
--   its scale multiplied (the description's rule).
-- - Rotations: each key's angle is unwrapped against the one before when
--   the file is read: the shortest way round, or with `clockwise` n the
--   way of its sign, n - 1 extra turns once passed; then played linearly.
-- - Tweens: `curve` [x1, y1, x2, y2] is a Bezier easing the runtime
--   samples at frames + 1 evenly spaced times (bisection to 1e-4 in its
--   parameter), stores as whole numbers (value x 10000, in 16 bits) and
--   reads by straight lines: the points here are those samples.
--   `tweenEasing` absent or null: the key holds (stepped); 0: linear;
--   below 0: quad in, up to 1: quad out, above 1: quad in-out, by an
--   amount stored in hundredths. Those eases are curves the runtime
--   evaluates exactly: here they are lines through enough points to stay
--   within EASE_TOLERANCE of the curve.
-- - Looping: while an animation loops (playTimes 0, or before its last
--   play), its last key eases to the first one (angles the short way) at
--   the end; on its last play it holds. A clip that loops gets that
--   last segment (a key at the end); loop_count = playTimes.

local data = require "ik2d.rig.dragonbones_data"

local clip = {}

local at, fail, show, f32 = data.at, data.fail, data.show, data.f32
local number, string_of, boolean, object, array = data.number, data.string, data.boolean, data.object, data.array
local whole, numbers, is_null, float = data.whole, data.numbers, data.is_null, data.float
local normalize, round, int16 = data.normalize_radian, data.round, data.int16
local abs, ceil, sqrt, pi = math.abs, math.ceil, math.sqrt, math.pi
-- the core's own cosine: the same bits on every platform
local cos = require("ik2d.pure.math").cos
local format = string.format

--- How far (in the value's own units: radians, world units, colour
-- fractions) the lines drawn through an ease's points may stray from it.
clip.EASE_TOLERANCE = 1e-5
--- At most this many lines a key for an ease.
clip.EASE_SEGMENTS = 256

-- ------------------------------------------------------------------
-- Keys and tweens
-- ------------------------------------------------------------------

--- The keys of a timeline placed as ObjectDataParser._parseTimeline
-- places them: { start (frame), count (frames to the next), raw }.
local function place_keys(ctx, place, key, frames, n, length)
  if n == 1 then return { { start = 0, count = 0, raw = frames[1], place = at(place, key, 1) } } end
  local keys, k, start, count = {}, 1, 0, 0
  for i = 0, length do
    if start + count <= i and k <= n then
      local where = at(place, key, k)
      if type(frames[k]) ~= "table" then fail(ctx, where, "must be an object, not %s", show(frames[k])) end
      local duration = whole(ctx, where, frames[k], "duration", 1, 0)
      start = i
      count = k == n and length - start or duration
      keys[k] = { start = start, count = count, raw = frames[k], place = where }
      k = k + 1
    end
  end
  if k <= n then
    fail(ctx, at(place, key, k), "starts after the animation's last frame (%d)", length)
  end
  return keys
end

--- ObjectDataParser._getCurvePoint.
local function curve_point(x1, y1, x2, y2, x3, y3, x4, y4, t)
  local l_t = 1.0 - t
  local pow_a, pow_b = l_t * l_t, t * t
  local k_a, k_b, k_c, k_d = l_t * pow_a, 3.0 * t * pow_a, 3.0 * l_t * pow_b, t * pow_b
  return k_a * x1 + k_b * x2 + k_c * x3 + k_d * x4, k_a * y1 + k_b * y2 + k_c * y3 + k_d * y4
end

--- ObjectDataParser._samplingEasingCurve for a curve of 3k + 1 numbers
-- (the ends (0, 0) and (1, 1) left out), count samples, each stored as
-- the runtime stores it (round(y x 10000), 16 bits).
local function sample_curve(curve, n, count)
  local function c(i) return curve[i + 1] end   -- the runtime's 0-based reads
  local samples, step = {}, -2
  for i = 0, count - 1 do
    local t = (i + 1) / (count + 1)
    while (step + 6 < n and c(step + 6) or 1) < t do step = step + 6 end
    local inside = step >= 0 and step + 6 < n
    local x1, y1 = inside and c(step) or 0.0, inside and c(step + 1) or 0.0
    local x4, y4 = inside and c(step + 6) or 1.0, inside and c(step + 7) or 1.0
    local x2, y2, x3, y3 = c(step + 2), c(step + 3), c(step + 4), c(step + 5)
    local lower, higher, y = 0.0, 1.0, 0.0
    while higher - lower > 0.0001 do
      local percentage = (higher + lower) * 0.5
      local x
      x, y = curve_point(x1, y1, x2, y2, x3, y3, x4, y4, percentage)
      if t - x > 0.0 then lower = percentage else higher = percentage end
    end
    samples[i + 1] = int16(round(y * 10000.0))
  end
  return samples
end

--- A key's tween as the runtime stores it: nil (the key holds), or
-- { kind = "linear" | "curve" (samples) | "quad_in" | "quad_out" |
-- "quad_in_out" (easing) }.
local function read_tween(ctx, key)
  if key.count <= 0 then return nil end
  local raw, place = key.raw, key.place
  if not is_null(raw.curve) then
    local curve, n = numbers(ctx, place, raw, "curve", false)
    if n < 4 or n % 3 ~= 1 then
      fail(ctx, place, "curve has %d numbers: its runtime plays curves of 3k + 1 (x1, y1, x2, y2, ...)", n)
    end
    return { kind = "curve", samples = sample_curve(curve, n, key.count + 1) }
  end
  local easing = number(ctx, place, raw, "tweenEasing", nil)
  if easing == nil then return nil end
  if easing == 0 then return { kind = "linear" } end
  if easing < 0 then return { kind = "quad_in", easing = round(-easing * 100.0) * 0.01 } end
  if easing <= 1 then return { kind = "quad_out", easing = round(easing * 100.0) * 0.01 } end
  return { kind = "quad_in_out", easing = round(easing * 100.0 - 100.0) * 0.01 }
end

--- TweenTimelineState._getEasingValue.
local function ease(kind, progress, easing)
  local value
  if kind == "quad_in" then
    value = progress * progress
  elseif kind == "quad_out" then
    value = 1.0 - (1.0 - progress) * (1.0 - progress)
  else
    value = 0.5 * (1.0 - cos(progress * pi))
  end
  return (value - progress) * easing + progress
end

--- The interior points of a tween's progress: { u1, p1, u2, p2, ... }
-- (u and p in [0, 1]), nil for a straight line. span: the largest change
-- of value the tween drives (an ease gets the points it needs there).
local function progress_points(tween, span)
  local points = {}
  if tween.kind == "curve" then
    local count = #tween.samples
    for j = 1, count do
      points[#points + 1] = j / (count + 1)
      points[#points + 1] = tween.samples[j] * 0.0001
    end
    return points
  end
  if tween.kind == "linear" or tween.easing == 0 or span == 0 then return nil end
  -- a line through points h apart strays from a curve by at most
  -- bend h^2 / 8, bend the largest |p''| (2 e for quad in and out,
  -- e pi^2 / 2 for quad in-out) times the change of value
  local bend = tween.kind == "quad_in_out" and abs(tween.easing) * pi * pi * 0.5 or 2.0 * abs(tween.easing)
  local segments = ceil(sqrt(bend * span / (8.0 * clip.EASE_TOLERANCE)))
  if segments > clip.EASE_SEGMENTS then segments = clip.EASE_SEGMENTS end
  for j = 1, segments - 1 do
    local u = j / segments
    points[#points + 1] = u
    points[#points + 1] = ease(tween.kind, u, tween.easing)
  end
  if #points == 0 then return nil end
  return points
end

-- ------------------------------------------------------------------
-- Timelines
-- ------------------------------------------------------------------

--- The times of the keys (seconds) and of the animation's end.
local function key_time(anim, start)
  return float(start * (1.0 / anim.fps) * anim.scale)
end

--- Whether key k tweens at run time: not on the last key unless the
-- animation loops (TweenTimelineState._onArriveAtFrame).
local function tweens(anim, keys, k)
  return keys[k].tween ~= nil and #keys > 1 and (k < #keys or anim.loops)
end

--- A timeline of the given channels of keys[k].values: channels,
-- times, values, curves. wrap_turns[c]: channel c is an angle (the loop
-- back to the first key takes the short way).
local function make_timeline(anim, keys, channels, wrap_turns)
  local tl = { channels = #channels, times = {}, values = {}, curves = {} }
  local n = #keys
  local function value(k, c)
    if k <= n then return keys[k].values[c] end
    local first, last = keys[1].values[c], keys[n].values[c]
    if wrap_turns and wrap_turns[c] then return last + normalize(first - last) end
    return first
  end
  local last = n
  if n > 1 and anim.loops and keys[n].tween ~= nil then last = n + 1 end
  for k = 1, last do
    local t = k <= n and key_time(anim, keys[k].start) or anim.duration
    tl.times[k] = t
    for i, c in ipairs(channels) do tl.values[(k - 1) * #channels + i] = value(k, c) end
    if k > n or not tweens(anim, keys, k) then
      tl.curves[k] = "stepped"
    else
      local t2 = k < n and key_time(anim, keys[k + 1].start) or anim.duration
      local span = 0.0
      for _, c in ipairs(channels) do span = math.max(span, abs(value(k + 1, c) - value(k, c))) end
      local points = progress_points(keys[k].tween, span)
      if points == nil then
        tl.curves[k] = "linear"
      else
        local lists = {}
        for i, c in ipairs(channels) do
          local v, dv, list = value(k, c), value(k + 1, c) - value(k, c), {}
          for j = 1, #points, 2 do
            list[j], list[j + 1] = t + points[j] * (t2 - t), v + dv * points[j + 1]
          end
          lists[i] = list
        end
        tl.curves[k] = lists
      end
    end
  end
  return tl
end

--- Reads a timeline's keys: placement, tween, and values (read_values
-- fills key.values).
local function read_keys(ctx, anim, place, raw, key, read_values, tweened)
  local frames, n = array(ctx, place, raw, key, nil)
  if frames == nil or n == 0 then return nil end
  local keys = place_keys(ctx, place, key, frames, n, anim.frames)
  for _, k in ipairs(keys) do
    if tweened then k.tween = read_tween(ctx, k) end
    read_values(k)
  end
  return keys
end

-- ------------------------------------------------------------------
-- Bones
-- ------------------------------------------------------------------

--- ObjectDataParser._parseBoneRotateFrame's unwrapping: the angle
-- against the previous key's, `clockwise` turns from it.
local function unwrap(turning, rotation, start)
  if start ~= 0 then
    if turning.clockwise == 0 then
      rotation = turning.previous + normalize(rotation - turning.previous)
    else
      if (turning.clockwise > 0 and rotation >= turning.previous) or
         (turning.clockwise < 0 and rotation <= turning.previous) then
        turning.clockwise = turning.clockwise > 0 and turning.clockwise - 1 or turning.clockwise + 1
      end
      rotation = turning.previous + rotation - turning.previous + data.PI_D * turning.clockwise
    end
  end
  turning.previous = rotation
  return rotation
end

--- Whether any key has a value other than 0 in channel c.
local function keys_use(keys, c)
  for _, k in ipairs(keys) do
    if k.values[c] ~= 0 then return true end
  end
  return false
end

--- DragonBones 5.0's `frame` (every channel in one key: x, y, rotation
-- unwrapped by `tweenRotate`, skew, scale).
local function read_bone_all(ctx, anim, place, raw, out)
  local turning = { clockwise = 0, previous = 0.0 }
  local keys = read_keys(ctx, anim, place, raw, "frame", function(k)
    local x, y, rotation, skew, scale_x, scale_y = data.read_transform(ctx, k.place, k.raw)
    rotation = unwrap(turning, rotation, k.start)
    turning.clockwise = whole(ctx, k.place, k.raw, "tweenRotate", 0, -math.huge)
    k.values = { f32(x), f32(y), f32(rotation), f32(skew), f32(scale_x), f32(scale_y) }
  end, true)
  if keys == nil then return end
  if not is_null(raw.translateFrame) or not is_null(raw.rotateFrame) or not is_null(raw.scaleFrame) then
    fail(ctx, place, "has both frame and translateFrame, rotateFrame or scaleFrame")
  end
  local turns = { [3] = true, [4] = true }
  out.x, out.y = make_timeline(anim, keys, { 1 }), make_timeline(anim, keys, { 2 })
  out.rotate = make_timeline(anim, keys, { 3 }, turns)
  if keys_use(keys, 4) then out.shear_y = make_timeline(anim, keys, { 4 }, turns) end
  out.scale_x, out.scale_y = make_timeline(anim, keys, { 5 }), make_timeline(anim, keys, { 6 })
end

local function read_bone_timelines(ctx, anim, place, raw)
  local out = {}
  read_bone_all(ctx, anim, place, raw, out)
  local keys = read_keys(ctx, anim, place, raw, "translateFrame", function(k)
    k.values = { f32(number(ctx, k.place, k.raw, "x", 0.0)), f32(number(ctx, k.place, k.raw, "y", 0.0)) }
  end, true)
  if keys then out.x, out.y = make_timeline(anim, keys, { 1 }), make_timeline(anim, keys, { 2 }) end
  local turning = { clockwise = 0, previous = 0.0 }
  keys = read_keys(ctx, anim, place, raw, "rotateFrame", function(k)
    local rotation = unwrap(turning, number(ctx, k.place, k.raw, "rotate", 0.0) * data.DEG_RAD, k.start)
    turning.clockwise = whole(ctx, k.place, k.raw, "clockwise", 0, -math.huge)
    k.values = { f32(rotation), f32(number(ctx, k.place, k.raw, "skew", 0.0) * data.DEG_RAD) }
  end, true)
  if keys then
    out.rotate = make_timeline(anim, keys, { 1 }, { true })
    if keys_use(keys, 2) then out.shear_y = make_timeline(anim, keys, { 2 }, { true }) end
  end
  keys = read_keys(ctx, anim, place, raw, "scaleFrame", function(k)
    k.values = { f32(number(ctx, k.place, k.raw, "x", 1.0)), f32(number(ctx, k.place, k.raw, "y", 1.0)) }
  end, true)
  if keys then out.scale_x, out.scale_y = make_timeline(anim, keys, { 1 }), make_timeline(anim, keys, { 2 }) end
  return out
end

-- ------------------------------------------------------------------
-- Slots
-- ------------------------------------------------------------------

--- A colour key's multipliers as the runtime stores them (whole
-- percents) and plays them (over 100): r, g, b, a.
local function color_values(ctx, k, owner)
  local raw = k.raw
  local c = object(ctx, k.place, raw, "value", nil) or object(ctx, k.place, raw, "color", nil) or {}
  local where = at(k.place, "value")
  for _, key in ipairs({ "aO", "rO", "gO", "bO" }) do
    if number(ctx, where, c, key, 0) ~= 0 then
      ctx.unsupported[#ctx.unsupported + 1] = format("%s: colour offsets (%s) are not played", owner, key)
      break
    end
  end
  local function percent(key) return round(number(ctx, where, c, key, 100) * 0.01 * 100.0) * 0.01 end
  k.values = { percent("rM"), percent("gM"), percent("bM"), percent("aM") }
end

--- A stepped timeline: { channels = 1, times, values }.
local function stepped(anim, keys, value_of)
  local tl = { channels = 1, times = {}, values = {} }
  for i, k in ipairs(keys) do
    tl.times[i] = key_time(anim, k.start)
    tl.values[i] = value_of(k)
  end
  return tl
end

local function read_slot_timelines(ctx, anim, place, raw, slot)
  local out = {}
  local display_key = is_null(raw.displayFrame) and "frame" or "displayFrame"
  local keys = read_keys(ctx, anim, place, raw, display_key, function(k)
    local index = number(ctx, k.place, k.raw, "value", nil)
    if index == nil then index = whole(ctx, k.place, k.raw, "displayIndex", 0, -1) end
    if index ~= math.floor(index) or index < -1 then
      fail(ctx, k.place, "value must be a display index (-1: none), not %s", show(index))
    end
    k.values = { ctx.display_name(ctx, slot, index) or false }
  end, false)
  if keys then out.attachment = stepped(anim, keys, function(k) return k.values[1] end) end
  local color_key = is_null(raw.colorFrame) and "frame" or "colorFrame"
  keys = read_keys(ctx, anim, place, raw, color_key, function(k)
    color_values(ctx, k, format("slot %q in animation %q", slot, anim.name))
  end, true)
  if keys then out.color = make_timeline(anim, keys, { 1, 2, 3, 4 }) end
  return out
end

-- ------------------------------------------------------------------
-- Deform
-- ------------------------------------------------------------------

--- A deform key's offsets: the file's (x, y) a vertex from `offset` on,
-- zeros elsewhere, as 32-bit floats; a weighted mesh's moved into each
-- weight's bone space (slotPose, then the inverse bone pose, as the
-- runtime does), an unweighted one's by its display transform.
local function deform_offsets(ctx, k, info)
  local raw, place = k.raw, k.place
  local offset = whole(ctx, place, raw, "offset", 0, 0)
  local vertices, nv = numbers(ctx, place, raw, "vertices", false)
  nv = vertices and nv or 0
  if offset + nv > info.count * 2 then
    fail(ctx, place, "offset %d and %d vertices run past the mesh's %d vertices", offset, nv, info.count)
  end
  local out = {}
  for i = 0, info.count * 2 - 1, 2 do
    local x, y = 0.0, 0.0
    if i >= offset and i - offset < nv then x = vertices[i - offset + 1] end
    if i + 1 >= offset and i + 1 - offset < nv then y = vertices[i + 2 - offset] end
    if info.inverse then
      local px, py = data.transform_point(info.slot_pose, x, y, true)
      for _, m in ipairs(info.inverse[i / 2 + 1]) do
        local bx, by = data.transform_point(m, px, py, true)
        out[#out + 1], out[#out + 2] = f32(bx), f32(by)
      end
    else
      x, y = f32(x), f32(y)
      if info.matrix then x, y = data.transform_point(info.matrix, x, y, true) end
      out[#out + 1], out[#out + 2] = x, y
    end
  end
  k.offsets = out
end

--- A deform timeline: times, offsets (one array a key) and curves, whose
-- point lists hold the progress between two keys' offsets:
-- { { t, p, t, p, ... } }.
local function make_deform(anim, keys)
  local tl = { times = {}, offsets = {}, curves = {} }
  local n = #keys
  local last = (n > 1 and anim.loops and keys[n].tween ~= nil) and n + 1 or n
  for k = 1, last do
    local t = k <= n and key_time(anim, keys[k].start) or anim.duration
    tl.times[k], tl.offsets[k] = t, k <= n and keys[k].offsets or keys[1].offsets
    if k > n or not tweens(anim, keys, k) then
      tl.curves[k] = "stepped"
    else
      local t2 = k < n and key_time(anim, keys[k + 1].start) or anim.duration
      local span = 0.0
      local from, to = tl.offsets[k], k < n and keys[k + 1].offsets or keys[1].offsets
      for i = 1, #from do span = math.max(span, abs(to[i] - from[i])) end
      local points = progress_points(keys[k].tween, span)
      if points == nil then
        tl.curves[k] = "linear"
      else
        local list = {}
        for j = 1, #points, 2 do list[j], list[j + 1] = t + points[j] * (t2 - t), points[j + 1] end
        tl.curves[k] = { list }
      end
    end
  end
  return tl
end

local function read_deform(ctx, anim, place, raw, deform)
  if type(raw) ~= "table" then fail(ctx, place, "must be an object, not %s", show(raw)) end
  local skin = string_of(ctx, place, raw, "skin", "default")
  if skin == "" then skin = "default" end
  local slot = string_of(ctx, place, raw, "slot", "")
  local name = string_of(ctx, place, raw, "name", "")
  place.name = name
  local s = ctx.skins[skin]
  if s == nil then fail(ctx, place, "skin %q is not a skin of this armature", skin) end
  local info = s.meshes[slot] and s.meshes[slot][name]
  if info == nil then fail(ctx, place, "skin %q has no mesh %q in slot %q", skin, name, slot) end
  local keys = read_keys(ctx, anim, place, raw, "frame", function(k) deform_offsets(ctx, k, info) end, true)
  if keys == nil then return end
  deform[skin] = deform[skin] or {}
  deform[skin][slot] = deform[skin][slot] or {}
  if deform[skin][slot][name] then fail(ctx, place, "a second deform timeline for this mesh") end
  deform[skin][slot][name] = make_deform(anim, keys)
end

-- ------------------------------------------------------------------
-- IK, draw order, events
-- ------------------------------------------------------------------

--- IK keys: the runtime takes a tweened key's own bendPositive and
-- weight (in hundredths), never a blend of two keys; a key that does
-- not tween leaves what the last tweened key set (at first: bendPositive
-- false, weight 0). So: stepped timelines of those values.
local function read_ik_timeline(ctx, anim, place, raw)
  local keys = read_keys(ctx, anim, place, raw, "frame", function(k)
    k.values = { boolean(ctx, k.place, k.raw, "bendPositive", true),
                 round(number(ctx, k.place, k.raw, "weight", 1.0) * 100.0) * 0.01 }
  end, true)
  if keys == nil then return nil end
  local bend, weight = false, 0.0
  for i, k in ipairs(keys) do
    if tweens(anim, keys, i) then bend, weight = k.values[1], k.values[2] end
    k.played = { bend and 1 or -1, weight }
  end
  return { bend = stepped(anim, keys, function(k) return k.played[1] end),
           weight = stepped(anim, keys, function(k) return float(k.played[2]) end) }
end

--- A draw order key (ObjectDataParser._parseZOrderFrame): slot index
-- and offset pairs; the description's order lists the slots (1-based)
-- from back to front, nil for the setup order.
local function draw_order(ctx, place, raw, count)
  local pairs_list, n = numbers(ctx, place, raw, "zOrder", true)
  if pairs_list == nil or n == 0 then return nil end
  if n % 2 ~= 0 then fail(ctx, place, "zOrder must hold slot index and offset pairs") end
  local order, unchanged, original = {}, {}, 0
  for i = 1, n, 2 do
    local slot, offset = pairs_list[i], pairs_list[i + 1]
    if slot < original or slot >= count then
      fail(ctx, place, "zOrder[%d]: slot %s is out of order or not a slot (%d slots)", i, show(slot), count)
    end
    while original ~= slot do unchanged[#unchanged + 1] = original; original = original + 1 end
    local index = original + offset
    if index < 0 or index >= count or order[index + 1] ~= nil then
      fail(ctx, place, "zOrder[%d]: slot %d moved by %d lands outside or on another", i + 1, slot, offset)
    end
    order[index + 1] = original + 1
    original = original + 1
  end
  while original < count do unchanged[#unchanged + 1] = original; original = original + 1 end
  local u = #unchanged
  for i = count, 1, -1 do
    if order[i] == nil then order[i] = unchanged[u] + 1; u = u - 1 end
  end
  return order
end

local function read_draw_order(ctx, anim, place, raw)
  local z = object(ctx, place, raw, "zOrder", nil)
  if z == nil then return {} end
  local where = at(place, "zOrder")
  local keys = read_keys(ctx, anim, where, z, "frame", function(k)
    k.values = { draw_order(ctx, k.place, k.raw, #ctx.slots) }
  end, false)
  local out = {}
  for i, k in ipairs(keys or {}) do out[i] = { time = key_time(anim, k.start), order = k.values[1] } end
  return out
end

--- Events of a key (event, events, sound): appended to the clip's list,
-- their names to the rig's definitions; actions are not played.
local function read_events(ctx, anim, place, raw, start, events)
  local t = key_time(anim, start)
  local function add(name, int, float_value, text, audio)
    events[#events + 1] = { time = t, name = name, int = int or 0, float = float_value or 0.0,
                            string = text or "", audio = audio }
    ctx.events[name] = ctx.events[name] or { int = 0, float = 0.0, string = "", volume = 1.0, balance = 0.0 }
  end
  local name = string_of(ctx, place, raw, "event", nil)
  if name then add(name) end
  local sound = string_of(ctx, place, raw, "sound", nil)
  if sound then add(sound, nil, nil, nil, sound) end
  local list, n = array(ctx, place, raw, "events", {})
  for i = 1, n do
    local where, e = at(place, "events", i), list[i]
    if type(e) ~= "table" then fail(ctx, where, "must be an object, not %s", show(e)) end
    local ints, floats, strings = numbers(ctx, where, e, "ints", true), numbers(ctx, where, e, "floats", false),
      array(ctx, where, e, "strings", nil)
    add(string_of(ctx, where, e, "name", ""), ints and ints[1], floats and floats[1], strings and strings[1])
  end
  if not is_null(raw.action) or not is_null(raw.actions) then
    ctx.unsupported[#ctx.unsupported + 1] = format("animation %q: actions in frames are not played", anim.name)
  end
end

local function read_action_frames(ctx, anim, place, raw)
  local frames, n = array(ctx, place, raw, "frame", {})
  local events, start = {}, 0
  for i = 1, n do
    local where = at(place, "frame", i)
    if type(frames[i]) ~= "table" then fail(ctx, where, "must be an object, not %s", show(frames[i])) end
    read_events(ctx, anim, where, frames[i], start, events)
    start = start + whole(ctx, where, frames[i], "duration", 1, 0)
  end
  return events
end

-- ------------------------------------------------------------------
-- Animations
-- ------------------------------------------------------------------

--- Reads the entries of list key of an animation, each naming a thing
-- in known (a set), into out[name] = read(entry).
local function read_named(ctx, anim, place, raw, key, known, what, read, out)
  local list, n = array(ctx, place, raw, key, {})
  for i = 1, n do
    local where, entry = at(place, key, i), list[i]
    if type(entry) ~= "table" then fail(ctx, where, "must be an object, not %s", show(entry)) end
    local name = string_of(ctx, where, entry, "name", nil)
    where.name = name
    if name == nil or not known[name] then fail(ctx, where, "name %s is not %s of this armature", show(name), what) end
    if out[name] then fail(ctx, where, "a second %s timeline for %q", key, name) end
    if number(ctx, where, entry, "scale", 1) ~= 1 or number(ctx, where, entry, "offset", 0) ~= 0 then
      ctx.unsupported[#ctx.unsupported + 1] = format("animation %q %s %q: timeline scale and offset are not played",
        anim.name, key, name)
    end
    out[name] = read(ctx, anim, where, entry, name)
  end
end

local function read_animation(ctx, place, raw)
  local name = string_of(ctx, place, raw, "name", "default")
  if name == "" then name = "default" end
  place.name = name
  local frames = whole(ctx, place, raw, "duration", 0, 0)
  local play_times = whole(ctx, place, raw, "playTimes", 1, 0)
  local scale = number(ctx, place, raw, "scale", 1.0)
  if scale <= 0 then fail(ctx, place, "scale %s must be above 0", show(scale)) end
  local anim = { name = name, fps = ctx.fps, frames = frames, scale = scale, loops = play_times ~= 1 }
  anim.duration = float(frames / ctx.fps * scale)
  local out = { name = name, duration = anim.duration, loop_count = play_times,
                bones = {}, slots = {}, solvers = {}, deform = {} }
  read_named(ctx, anim, place, raw, "bone", ctx.bone_index, "a bone", read_bone_timelines, out.bones)
  read_named(ctx, anim, place, raw, "slot", ctx.slot_index, "a slot", read_slot_timelines, out.slots)
  read_named(ctx, anim, place, raw, "ik", ctx.solver_names, "an IK constraint", read_ik_timeline, out.solvers)
  local deform, n = array(ctx, place, raw, "ffd", {})
  for i = 1, n do read_deform(ctx, anim, at(place, "ffd", i), deform[i], out.deform) end
  out.draw_order = read_draw_order(ctx, anim, place, raw)
  out.events = read_action_frames(ctx, anim, place, raw)
  if not is_null(raw.timeline) then
    ctx.unsupported[#ctx.unsupported + 1] = format("animation %q: timeline (5.6 timelines) is not played", name)
  end
  return out
end

--- Every animation of the armature: clips by name, and the events'
-- definitions.
function clip.read_all(ctx, place, raw, slots)
  ctx.events, ctx.slots = {}, slots
  local list, n = array(ctx, place, raw, "animation", {})
  local clips = {}
  for i = 1, n do
    local where, entry = at(place, "animation", i), list[i]
    if type(entry) ~= "table" then fail(ctx, where, "must be an object, not %s", show(entry)) end
    local c = read_animation(ctx, where, entry)
    if clips[c.name] then fail(ctx, where, "a second animation of this name") end
    clips[c.name] = c
  end
  return clips, ctx.events
end

return clip
