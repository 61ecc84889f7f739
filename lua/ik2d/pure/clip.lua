--- ik2d.pure.clip: clips, keyed timelines played on a rig, as
-- src/ik2d_clip.c (whose header derives it), operation for operation,
-- through ik2d.pure.timeline.
--
-- Targets: { skeleton =, solver_count =, solvers = {...}, constraint_count
-- =, constraints = {...}, slots = (ik2d.pure.slots' or false) }, the core
-- records.  A def: { duration =, timeline_count =, timelines = { { channel
-- = (0-based, as ik2d_channel), target = (1-based: a bone, solver,
-- constraint, slot or attachment), key_count =, times =, values =, curves
-- = (nil: all linear), point_counts =, points = } } } with the C def's
-- arrays 1-based; attachment values 1-based (0: none), draw order values
-- 1-based slots.  A number missing from an array reads as NaN.
local timeline = require "ik2d.pure.timeline"
local skeleton = require "ik2d.pure.skeleton"
local solver = require "ik2d.pure.solver"
local transform_constraint = require "ik2d.pure.transform_constraint"
local bone_model = require "ik2d.pure.bone"
local m = require "ik2d.pure.math"

local floor = math.floor
local wrap = m.wrap
local timeline_key, timeline_value, timeline_share = timeline.key, timeline.value, timeline.share
local copy_def, set_def = transform_constraint.copy_def, transform_constraint.set_def

local M = {}

-- the channels, as ik2d_channel numbers them
local ROTATE, X, Y, SCALE_X, SCALE_Y, SHEAR_X, SHEAR_Y, INHERIT = 0, 1, 2, 3, 4, 5, 6, 7
local WEIGHT, SOFTNESS, BEND, COMPRESS, STRETCH = 8, 9, 10, 11, 12
local MIX_ROTATE, MIX_SHEAR_Y = 13, 18
local ATTACHMENT, COLOR, RGB, ALPHA, DARK, DRAW_ORDER, DEFORM = 19, 20, 21, 22, 23, 24, 25

local MIX_KEYS = { "mix_rotate", "mix_x", "mix_y", "mix_scale_x", "mix_scale_y", "mix_shear_y" }

local ON_BONE, ON_SOLVER, ON_CONSTRAINT, ON_SLOT, ON_ORDER, ON_DEFORM = 1, 2, 3, 4, 5, 6

local function kind_of(channel)
  if channel <= INHERIT then return ON_BONE end
  if channel <= STRETCH then return ON_SOLVER end
  if channel <= MIX_SHEAR_Y then return ON_CONSTRAINT end
  if channel <= DARK then return ON_SLOT end
  return channel == DRAW_ORDER and ON_ORDER or ON_DEFORM
end

-- Switched whole, not blended: the key's value holds to the next key.
local function switched(channel)
  return channel == INHERIT or channel == BEND or channel == COMPRESS or channel == STRETCH or
    channel == ATTACHMENT or channel == DRAW_ORDER
end

local function slot_count(slots) return slots and slots.count or 0 end

--- A key's values for a timeline (channel, target) on targets, 0 for a
-- bad channel or target.
local function values_of(channel, target, targets)
  local slots = targets.slots
  local n
  if not (channel >= ROTATE and channel <= DEFORM) then return 0 end
  local kind = kind_of(channel)
  if kind == ON_BONE then
    n = targets.skeleton.count
  elseif kind == ON_SOLVER then
    n = targets.solver_count
  elseif kind == ON_CONSTRAINT then
    n = targets.constraint_count
  elseif kind == ON_SLOT then
    n = slot_count(slots)
  elseif kind == ON_ORDER then
    return slot_count(slots)
  else
    if slots and target >= 1 and target <= slots.attachment_count then
      return slots.attachments[target].deform_count
    end
    return 0
  end
  if target < 1 or target > n then return 0 end
  if channel == COLOR then return 4 end
  return (channel == RGB or channel == DARK) and 3 or 1
end
M.values_of = values_of

local function curve_values_of(channel, values)
  if channel == DEFORM then return 1 end
  return switched(channel) and 0 or values
end

-- ------------------------------------------------------------------
-- checks
-- ------------------------------------------------------------------

local function finite(v) return v ~= nil and v - v == 0 end

local function whole_in(v, low, high)
  return v == floor(v) and v >= low and v <= high
end

-- A draw order key (values from at + 1 on): every slot once.
local function is_order(values, at, n, seen)
  for i = 1, n do seen[i] = false end
  for i = 1, n do
    local v = values[at + i]
    if not finite(v) or not whole_in(v, 1, n) or seen[v] then return false end
    seen[v] = true
  end
  return true
end

-- Is v a value the channel takes?
local function value_valid(channel, v, targets)
  if not finite(v) then return false end
  if channel == INHERIT then return whole_in(v, 0, bone_model.NO_SCALE_OR_REFLECTION) end
  if channel == BEND then return v == 1.0 or v == -1.0 end
  if channel == SOFTNESS then return v >= 0.0 end
  if channel == COMPRESS then return v >= 0.0 and v <= 1.0 end
  if channel == STRETCH then return v >= 1.0 end
  if channel == ATTACHMENT then return whole_in(v, 0, targets.slots.attachment_count) end
  return true
end

-- The keys' times increasing and their values valid.
local function keys_check(t, values, targets)
  if t.key_count < 1 then return "KEY_COUNT" end
  local times, vals, channel = t.times, t.values, t.channel
  local seen = channel == DRAW_ORDER and {} or nil
  for k = 1, t.key_count do
    local at = (k - 1) * values
    local time = times[k]
    if not finite(time) or (k > 1 and not (time > times[k - 1])) then return "KEY_TIME" end
    if seen then
      if not is_order(vals, at, values, seen) then return "KEY_VALUE" end
    else
      for c = 1, values do
        if not value_valid(channel, vals[at + c], targets) then return "KEY_VALUE" end
      end
    end
  end
  return nil
end

-- Each curve one of the kinds, its points finite and in time between its
-- keys; nil or the status.
local function curves_check(t, curve_values)
  local curves = t.curves
  if not curves then return nil end
  local p, times, points, counts = 1, t.times, t.points, t.point_counts
  for k = 1, t.key_count do
    local kind = curves[k]
    if kind > 2 then return "CURVE" end
    if kind == 2 and curve_values ~= 0 then
      if not counts or not points or k == t.key_count then return "CURVE" end
      for c = 1, curve_values do
        local n = counts[(k - 1) * curve_values + c]
        if n < 0 or n > 1024 then return "CURVE" end
        for _ = 1, n do
          local px, py = points[p], points[p + 1]
          if not finite(px) or not finite(py) or px < times[k] or px > times[k + 1] then
            return "CURVE"
          end
          p = p + 2
        end
      end
    end
  end
  return nil
end

local function timeline_check(t, targets)
  local values = values_of(t.channel, t.target, targets)
  if values == 0 then return "TIMELINE_TARGET" end
  local status = keys_check(t, values, targets)
  if status then return status end
  return curves_check(t, curve_values_of(t.channel, values))
end

--- nil, or the status refusing def on targets and the index of the
-- timeline it names (nil for the duration)
function M.check(def, targets)
  local d = def.duration
  if not finite(d) or d < 0.0 then return "DURATION" end
  for i = 1, def.timeline_count do
    local status = timeline_check(def.timelines[i], targets)
    if status then return status, i end
  end
  return nil
end

-- ------------------------------------------------------------------
-- the copy
-- ------------------------------------------------------------------

local function copy(from, n, to)
  for i = 1, n do to[i] = from[i] end
  return to
end

-- Timeline t's own copy: its arrays and points, the start of each curve's
-- points.
local function timeline_copy(t, values)
  local channel, keys = t.channel, t.key_count
  local cv = curve_values_of(channel, values)
  local curves, first, count, points = {}, {}, {}, {}
  local at_point = 0
  for k = 1, keys do
    local kind = t.curves and t.curves[k] or 0
    curves[k] = switched(channel) and 1 or kind
    for c = 1, cv do
      local e = (k - 1) * cv + c
      local n = kind == 2 and t.point_counts and t.point_counts[e] or 0
      first[e] = 2 * at_point + 1
      count[e] = n
      for i = 2 * at_point + 1, 2 * (at_point + n) do points[i] = t.points[i] end
      at_point = at_point + n
    end
  end
  return { channel = channel, target = t.target, values = values, curve_values = cv,
    line = { key_count = keys, channels = cv > 0 and cv or 1, times = copy(t.times, keys, {}),
      values = copy(t.values, keys * values, {}), curves = curves, first = first,
      count = count, points = points } }
end

--- the clip of a checked def on targets
function M.new(def, targets)
  local clip = { duration = def.duration, timelines = {},
                 -- a constraint's settings while a mix is keyed
                 constraint_def = { bones = {} } }
  for i = 1, def.timeline_count do
    local t = def.timelines[i]
    clip.timelines[i] = timeline_copy(t, values_of(t.channel, t.target, targets))
  end
  return clip
end

-- ------------------------------------------------------------------
-- playing
-- ------------------------------------------------------------------

-- From current toward target by alpha (alpha 1: target, not a rounding
-- off it); an angle the short way.
local function blend(current, target, alpha)
  if alpha == 1.0 then return target end
  return current + (target - current) * alpha
end

local function blend_angle(current, target, alpha)
  if alpha == 1.0 then return target end
  return current + wrap(target - current) * alpha
end

-- Channel c's value at time (key k): a switched one's is its key's.
local function value_at(tl, k, c, time)
  if tl.curve_values == 0 then return tl.line.values[(k - 1) * tl.values + c] end
  return timeline_value(tl.line, k, c, time)
end

-- A bone's pose part toward the set-up combined with the key.
local function bone_apply(sk, tl, v, alpha)
  local b, channel = tl.target, tl.channel
  local pose, setup = sk.pose_shape[b], sk.setup[b]
  if channel == ROTATE then
    local angle = blend_angle(sk.pose[b], sk.rest[b] + v, alpha)
    sk.pose[b], sk.angle[b] = angle, angle
    return
  end
  if channel == X then
    pose.x = blend(pose.x, setup.x + v, alpha)
  elseif channel == Y then
    pose.y = blend(pose.y, setup.y + v, alpha)
  elseif channel == SCALE_X then
    pose.scale_x = blend(pose.scale_x, setup.scale_x * v, alpha)
  elseif channel == SCALE_Y then
    pose.scale_y = blend(pose.scale_y, setup.scale_y * v, alpha)
  elseif channel == SHEAR_X then
    pose.shear_x = blend(pose.shear_x, setup.shear_x + v, alpha)
  elseif channel == SHEAR_Y then
    pose.shear_y = blend(pose.shear_y, setup.shear_y + v, alpha)
  elseif alpha >= 0.5 then
    local inherit = floor(v)
    sk.inherit[b] = inherit
    sk.position_only[b] = inherit == bone_model.POSITION
  end
  local shape = sk.shape[b]
  shape.x, shape.y, shape.scale_x, shape.scale_y = pose.x, pose.y, pose.scale_x, pose.scale_y
  shape.shear_x, shape.shear_y = pose.shear_x, pose.shear_y
end

local function solver_apply(sv, channel, v, alpha)
  local settings = sv.settings
  if channel == WEIGHT then
    solver.set_one(sv, "weight", blend(settings.weight, v, alpha))
  elseif channel == SOFTNESS then
    solver.set_one(sv, "softness", blend(settings.softness, v, alpha))
  elseif alpha >= 0.5 then
    if channel == BEND then
      solver.set_one(sv, "bend", v < 0 and -1 or 1)
    else
      solver.set_one(sv, channel == COMPRESS and "compress" or "stretch", v)
    end
  end
end

local function constraint_apply(clip, tc, channel, v, alpha)
  local d = copy_def(tc.settings, clip.constraint_def)
  local key = MIX_KEYS[channel - MIX_ROTATE + 1]
  d[key] = blend(d[key], v, alpha)
  set_def(tc, d)
end

-- A slot's attachment, colours: the key's values from channel 1 on.
local function slot_apply(slots, tl, k, time, alpha)
  local state, channel = slots.state[tl.target], tl.channel
  if channel == ATTACHMENT then
    if alpha >= 0.5 then state.attachment = floor(value_at(tl, k, 1, time)) end
    return
  end
  local parts, first = state.color, 0
  if channel == DARK then parts = state.dark end
  if channel == ALPHA then first = 3 end
  for c = 1, tl.values do
    parts[first + c] = blend(parts[first + c], value_at(tl, k, c, time), alpha)
  end
end

local function order_apply(slots, tl, k, alpha)
  if alpha < 0.5 then return end
  local values, n = tl.line.values, tl.values
  local at, order = (k - 1) * n, slots.order
  for i = 1, n do order[i] = floor(values[at + i]) end
end

-- An attachment's offsets toward the keys' (key k's to the next's by the
-- curve's share).
local function deform_apply(slots, tl, k, time, alpha)
  local out, base = slots.deform, slots.attachments[tl.target].deform_at
  local n, line = tl.values, tl.line
  local values, from = line.values, (k - 1) * n
  local share = timeline_share(line, k, time)
  if k >= line.key_count then share = 0.0 end
  for i = 1, n do
    local v = values[from + i]
    if share ~= 0.0 then v = v + (values[from + n + i] - v) * share end
    out[base + i] = blend(out[base + i], v, alpha)
  end
end

-- Do the targets still take every timeline of the clip (as at making)?
local function targets_fit(clip, targets)
  local list = clip.timelines
  for i = 1, #list do
    local tl = list[i]
    if values_of(tl.channel, tl.target, targets) ~= tl.values then return false end
  end
  return true
end

-- One timeline at time on targets; true when it keyed a bone.
local function timeline_apply(clip, tl, targets, time, alpha)
  local k = timeline_key(tl.line, time)
  if k < 1 then return false end
  local kind = kind_of(tl.channel)
  if kind == ON_BONE then
    bone_apply(targets.skeleton, tl, value_at(tl, k, 1, time), alpha)
    return true
  elseif kind == ON_SOLVER then
    solver_apply(targets.solvers[tl.target], tl.channel, value_at(tl, k, 1, time), alpha)
  elseif kind == ON_CONSTRAINT then
    constraint_apply(clip, targets.constraints[tl.target], tl.channel, value_at(tl, k, 1, time),
      alpha)
  elseif kind == ON_SLOT then
    slot_apply(targets.slots, tl, k, time, alpha)
  elseif kind == ON_ORDER then
    order_apply(targets.slots, tl, k, alpha)
  else
    deform_apply(targets.slots, tl, k, time, alpha)
  end
  return false
end

-- A bone timeline the rigid way cannot place (all but rotations)?
local function needs_general(clip)
  local list = clip.timelines
  for i = 1, #list do
    local channel = list[i].channel
    if kind_of(channel) == ON_BONE and channel ~= ROTATE then return true end
  end
  return false
end

--- The clip at time on targets by alpha: nil, or the status (nothing
-- changed).
function M.apply(clip, targets, time, alpha)
  if not finite(time) then return "TIME" end
  if not (alpha >= 0.0 and alpha <= 1.0) then return "ALPHA" end
  if not targets_fit(clip, targets) then return "TIMELINE_TARGET" end
  local sk = targets.skeleton
  -- as read: a base set later placed first, as the C core placed it
  skeleton.ready(sk)
  if needs_general(clip) then skeleton.make_general(sk) end
  local posed = false
  local list = clip.timelines
  for i = 1, #list do
    posed = timeline_apply(clip, list[i], targets, time, alpha) or posed
  end
  if posed then skeleton.posed(sk) end
  return nil
end

return M
