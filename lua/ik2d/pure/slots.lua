--- ik2d.pure.slots: what a rig draws, slot by slot, and where, as
-- src/ik2d_slots.c (whose header derives the skinning), operation for
-- operation.  Indices are 1-based here: a slot's bone, an attachment (0:
-- none), a weight entry's bone, a linked mesh's deform (0: none); the
-- triangles stay as the C core keeps them (0-based).
--
-- A def: { skeleton =, slot_count =, slots = { { bone =, attachment =,
-- color = {4}, dark = {3}, has_dark =, blend = } }, attachment_count =,
-- attachments = { { kind = "region" | "mesh" | "hidden", vertex_count =,
-- vertices =, weights =, weight_count =, uvs =, triangle_count =,
-- triangles =, color = {4}, deform = } } }; a number missing from an array
-- reads as NaN (and is refused).
local skeleton = require "ik2d.pure.skeleton"

local floor = math.floor

local M = {}

local MAX_VERTICES = 65536
M.MAX_SLOTS = 1024

local NAN = 0.0 / 0.0

local function finite(x) return x ~= nil and x - x == 0 end

-- ------------------------------------------------------------------
-- checks
-- ------------------------------------------------------------------

local function all_finite(v, n)
  if not v then return n == 0 end
  for i = 1, n do
    if not finite(v[i]) then return false end
  end
  return true
end

-- A weighted mesh's bone entries (each deformed by 2 offsets).
local function weight_entries(a)
  local entries, at = 0, 0
  local w = a.weights
  for _ = 1, a.vertex_count do
    if at >= a.weight_count then break end
    local n = w[at + 1] or 0.0
    -- a count beyond what is left is no count (the check refuses it)
    if not (n >= 0.0 and n <= a.weight_count - at) then break end
    n = floor(n)
    entries = entries + n
    at = at + 1 + 4 * n
  end
  return entries
end

local function own_deform(a, index)
  if a.kind ~= "mesh" or a.deform ~= index then return 0 end
  return a.weights and 2 * weight_entries(a) or 2 * a.vertex_count
end

-- Weights: per vertex a count >= 1, then that many bones of the skeleton
-- with finite positions and weights, every double used.
local function weights_valid(a, bones)
  local w, count = a.weights, a.weight_count
  if not all_finite(w, count) then return false end
  local at = 0
  for _ = 1, a.vertex_count do
    local n = at < count and w[at + 1] or 0.0
    if not (n >= 1.0 and n <= bones and n == floor(n)) then return false end
    at = at + 1
    for _ = 1, n do
      local b = at + 3 < count and w[at + 1] or 0.0
      if not (b >= 1.0 and b <= bones and b == floor(b)) then return false end
      at = at + 4
    end
  end
  return at == count
end

local function triangles_valid(a)
  local n = a.triangle_count
  if n < 0 or n > MAX_VERTICES then return false end
  local t = a.triangles
  for i = 1, 3 * n do
    local v = t[i]
    if not (v >= 0 and v < a.vertex_count) then return false end
  end
  return true
end

-- Attachment i's geometry: a region's 4 vertices, a mesh's on one bone or
-- weighted, uvs for each, triangles within them, a deform that is its own
-- or another mesh's of as many offsets.
local function attachment_valid(def, i, bones)
  local a = def.attachments[i]
  if a.kind == "hidden" then return true end
  if not all_finite(a.color, 4) then return false end
  local n = a.vertex_count
  if n < 1 or n > MAX_VERTICES then return false end
  if a.kind == "region" and (n ~= 4 or a.weights) then return false end
  if a.weights then
    if not weights_valid(a, bones) then return false end
  elseif not all_finite(a.vertices, 2 * n) then
    return false
  end
  if not a.vertices and not a.weights then return false end
  if not a.uvs or not all_finite(a.uvs, 2 * n) or not triangles_valid(a) then return false end
  local d = a.deform
  if d == 0 or d == i then return true end
  if d < 0 or d > def.attachment_count then return false end
  return own_deform(def.attachments[d], d) == (a.weights and 2 * weight_entries(a) or 2 * n)
end

-- A slot def's status: its bone the skeleton's, its attachment one of the
-- rig's or none, its colours finite.
local function slot_check(slot, bones, attachments)
  if slot.bone < 1 or slot.bone > bones then return "SLOT_BONE" end
  if slot.attachment < 0 or slot.attachment > attachments then return "ATTACHMENT" end
  if not all_finite(slot.color, 4) or (slot.has_dark and not all_finite(slot.dark, 3)) then
    return "COLOR"
  end
  return nil
end

--- nil, or the status refusing def and the index of the slot or the
-- attachment it names (GEOMETRY: an attachment)
function M.check(def)
  local n = def.slot_count
  if n < 1 or n > M.MAX_SLOTS then return "SLOT_COUNT" end
  local count = def.attachment_count
  if count < 0 or count > MAX_VERTICES then return "ATTACHMENT" end
  local bones = def.skeleton.count
  for i = 1, n do
    local status = slot_check(def.slots[i], bones, count)
    if status then return status, i end
  end
  for i = 1, count do
    if not attachment_valid(def, i, bones) then return "GEOMETRY", i end
  end
  return nil
end

-- ------------------------------------------------------------------
-- making
-- ------------------------------------------------------------------

local function copy(from, n, to)
  for i = 1, n do to[i] = from[i] end
  return to
end

local function state_of(d)
  local dark = d.has_dark and copy(d.dark, 3, {}) or { 0.0, 0.0, 0.0 }
  return { bone = d.bone, attachment = d.attachment, color = copy(d.color, 4, {}), dark = dark,
           has_dark = d.has_dark, blend = d.blend }
end

-- attachment i of def, its arrays its own; its deform offsets from at on
local function attachment_copy(def, i, at)
  local d = def.attachments[i]
  local a = { kind = d.kind, vertex_count = 0, weight_count = 0, triangle_count = 0,
              vertices = false, weights = false, uvs = false, triangles = false,
              color = { 0.0, 0.0, 0.0, 0.0 }, deform = 0, deform_at = at, deform_count = 0 }
  if d.kind == "hidden" then return a end
  local n = d.vertex_count
  copy(d.color, 4, a.color)
  a.vertex_count, a.triangle_count = n, d.triangle_count
  if d.weights then
    a.weight_count = d.weight_count
    a.weights = copy(d.weights, d.weight_count, {})
  else
    a.vertices = copy(d.vertices, 2 * n, {})
  end
  a.uvs = copy(d.uvs, 2 * n, {})
  a.triangles = copy(d.triangles, 3 * d.triangle_count, {})
  a.deform = d.deform
  a.deform_count = own_deform(d, i)
  return a
end

--- slots of a checked def
function M.new(def)
  local n, count = def.slot_count, def.attachment_count
  local s = { count = n, attachment_count = count, skeleton = def.skeleton, setup = {},
              state = {}, order = {}, setup_order = {}, attachments = {}, deform = {},
              deform_total = 0, maps = {} }
  local at = 0
  for i = 1, count do
    local a = attachment_copy(def, i, at)
    s.attachments[i] = a
    at = at + a.deform_count
  end
  s.deform_total = at
  for i = 1, n do
    s.setup[i] = state_of(def.slots[i])
    s.state[i] = state_of(def.slots[i])
    s.setup_order[i] = i
  end
  M.to_setup(s)
  return s
end

--- back to the set-up: attachments, colours, drawing order, no deform
function M.to_setup(s)
  local setup, state, order = s.setup, s.state, s.setup_order
  for i = 1, s.count do
    local from, to = setup[i], state[i]
    to.bone, to.attachment, to.has_dark, to.blend = from.bone, from.attachment, from.has_dark,
      from.blend
    copy(from.color, 4, to.color)
    copy(from.dark, 3, to.dark)
    s.order[i] = order[i]
  end
  local deform = s.deform
  for k = 1, s.deform_total do deform[k] = 0.0 end
end

-- ------------------------------------------------------------------
-- state
-- ------------------------------------------------------------------

--- slot i's attachment (0: none) set: nil, or the status
function M.set_attachment(s, i, a)
  if a < 0 or a > s.attachment_count then return "ATTACHMENT" end
  s.state[i].attachment = a
  return nil
end

function M.set_color(s, i, r, g, b, alpha)
  if not (finite(r) and finite(g) and finite(b) and finite(alpha)) then return "COLOR" end
  local c = s.state[i].color
  c[1], c[2], c[3], c[4] = r, g, b, alpha
  return nil
end

--- slot i's colour times its attachment's: r, g, b, a
function M.tint(s, i)
  local state = s.state[i]
  local c = state.color
  if state.attachment == 0 then return c[1], c[2], c[3], c[4] end
  local t = s.attachments[state.attachment].color
  return c[1] * t[1], c[2] * t[2], c[3] * t[3], c[4] * t[4]
end

-- ------------------------------------------------------------------
-- skinning
-- ------------------------------------------------------------------

-- The deform offsets' start (0-based) attachment a takes, or nil.
local function deform_of(s, a)
  if a.deform == 0 then return nil end
  local owner = s.attachments[a.deform]
  if owner.deform_count > 0 then return owner.deform_at end
  return nil
end

-- Vertices on one bone of map (m1 .. m6), into out from at + 1 on.
local function on_bone(v, deform, d, n, m1, m2, m3, m4, m5, m6, out, at)
  for i = 1, n do
    local x, y = v[2 * i - 1], v[2 * i]
    if d then
      x = x + deform[d + 2 * i - 1]
      y = y + deform[d + 2 * i]
    end
    out[at + 2 * i - 1] = m1 * x + m2 * y + m5
    out[at + 2 * i] = m3 * x + m4 * y + m6
  end
end

-- Weighted vertices on the maps of every bone (6 a bone), into out.
local function weighted(w, deform, d, n, maps, out, at)
  local k, dk = 1, 0
  for i = 1, n do
    local count = w[k]
    k = k + 1
    local wx, wy = 0.0, 0.0
    for _ = 1, count do
      local m = 6 * w[k] - 6
      local x, y, weight = w[k + 1], w[k + 2], w[k + 3]
      if d then
        x = x + deform[d + dk + 1]
        y = y + deform[d + dk + 2]
      end
      wx = wx + (maps[m + 1] * x + maps[m + 2] * y + maps[m + 5]) * weight
      wy = wy + (maps[m + 3] * x + maps[m + 4] * y + maps[m + 6]) * weight
      k = k + 4
      dk = dk + 2
    end
    out[at + 2 * i - 1] = wx
    out[at + 2 * i] = wy
  end
end

-- Slot i's attachment's vertices on maps (the skeleton's as drawn, 6 a
-- bone) into out from at + 1 on, or 0 when it draws nothing; out nil or
-- max doubles too few: their count alone.
local function slot_vertices(s, i, maps, out, at, max)
  local state = s.state[i]
  if state.attachment == 0 then return 0 end
  local a = s.attachments[state.attachment]
  if a.kind == "hidden" then return 0 end
  local n = a.vertex_count
  if not out or 2 * n > max then return n end
  local d = deform_of(s, a)
  if a.weights then
    weighted(a.weights, s.deform, d, n, maps, out, at)
  else
    local m = 6 * state.bone - 6
    on_bone(a.vertices, s.deform, d, n, maps[m + 1], maps[m + 2], maps[m + 3], maps[m + 4],
      maps[m + 5], maps[m + 6], out, at)
  end
  return n
end

-- the skeleton's maps as drawn (ik2d_skeleton_matrices), in s.maps
local function maps_of(s)
  local maps = s.maps
  skeleton.matrices(s.skeleton, maps, 1)
  return maps
end

--- The world vertices of what slot i shows (x, y pairs) into out from
-- out[1]: how many vertices (0: nothing drawn); out nil: the count alone.
function M.vertices(s, i, out)
  local state = s.state[i]
  if state.attachment == 0 or s.attachments[state.attachment].kind == "hidden" then return 0 end
  if not out then return slot_vertices(s, i, nil, nil, 0, 0) end
  return slot_vertices(s, i, maps_of(s), out, 0, 2 * MAX_VERTICES)
end

--- Every drawn slot's vertices in drawing order into out, one after
-- another, drawn[k] the k-th drawn slot: how many slots drew.
function M.all_vertices(s, out, drawn)
  local maps = maps_of(s)
  local at, count = 0, 0
  for k = 1, s.count do
    local i = s.order[k]
    local n = slot_vertices(s, i, maps, out, at, 2 * MAX_VERTICES)
    if n > 0 then
      count = count + 1
      drawn[count] = i
      at = at + 2 * n
    end
  end
  return count
end

M.NAN = NAN

return M
