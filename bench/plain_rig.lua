-- A plain-Lua runtime for a rig description (docs/rig-format.md), what a
-- game or an old Lua runtime does each frame: the set-up pose, a clip
-- sampled (Bézier points, stepped, linear), forward kinematics with the
-- same bone model as ik2d's skeleton (inherit modes, scale, shear, the
-- skeleton's scale), two-bone and one-bone IK with mix, softness and
-- bend, transform constraints (world or local, absolute or relative),
-- slot colours and attachments, draw order and deform, then every drawn
-- attachment's world vertices (weighted meshes summed over their bones)
-- into Lua tables made once.  Bones are tables of fields; math.sin,
-- math.cos and math.atan2 do the trigonometry.  The benchmark
-- (bench/rig_frame.lua) times it against ik2d on the same rig.
--
--   local data = plain.load(description, atlas)       -- once a rig
--   local ch = plain.character(data)                  -- a character
--   ch:apply("walk", t)                               -- a frame
--   local n = ch:attachments(out)                     -- out[k] = { vertices =, color =, ... }

local atlas_lib = require "ik2d.rig.atlas"

local plain = {}

local sin, cos, atan2, sqrt, acos = math.sin, math.cos, math.atan2 or math.atan, math.sqrt, math.acos
local pi, floor = math.pi, math.floor

local ALL, POSITION, NO_ROTATION, NO_SCALE, NO_SCALE_OR_REFLECTION = 0, 1, 2, 3, 4
local INHERIT = { all = ALL, position = POSITION, no_rotation_or_reflection = NO_ROTATION,
  no_scale = NO_SCALE, no_scale_or_reflection = NO_SCALE_OR_REFLECTION }
local BONE_CHANNELS = { "rotate", "x", "y", "scale_x", "scale_y", "shear_x", "shear_y" }
local FIELD = { rotate = "angle", x = "x", y = "y", scale_x = "scale_x", scale_y = "scale_y",
  shear_x = "shear_x", shear_y = "shear_y" }
local QUAD = { 1, 2, 3, 3, 4, 1 }

local function wrap(a)
  return a - 2 * pi * floor((a + pi) / (2 * pi))
end

-- ------------------------------------------------------------------
-- sampling
-- ------------------------------------------------------------------

-- the key at or before time (0 before the first)
local function key_at(times, time)
  if time < times[1] then return 0 end
  local lo, hi = 1, #times
  while lo < hi do
    local mid = floor((lo + hi + 1) / 2)
    if times[mid] <= time then lo = mid else hi = mid - 1 end
  end
  return lo
end

-- channel ch of timeline tl at time (v1, v2 the keys' values, 0 and 1 for a deform's share)
local function sample(tl, k, time, ch, v1, v2)
  local curve = tl.curves and tl.curves[k]
  if k == #tl.times or curve == nil or curve == "stepped" then return v1 end
  local t1, t2 = tl.times[k], tl.times[k + 1]
  if curve == "linear" then return v1 + (v2 - v1) * (time - t1) / (t2 - t1) end
  local points = curve[ch]
  local ta, va = t1, v1
  for i = 1, #points, 2 do
    local tb, vb = points[i], points[i + 1]
    if time <= tb then
      if tb == ta then return vb end
      return va + (vb - va) * (time - ta) / (tb - ta)
    end
    ta, va = tb, vb
  end
  if t2 == ta then return v2 end
  return va + (v2 - va) * (time - ta) / (t2 - ta)
end

local function value(tl, time, ch)
  local k = key_at(tl.times, time)
  if k == 0 then return nil end
  local n, values = tl.channels or 1, tl.values
  return sample(tl, k, time, ch, values[(k - 1) * n + ch], values[k * n + ch] or values[(k - 1) * n + ch])
end

-- ------------------------------------------------------------------
-- loading (not timed)
-- ------------------------------------------------------------------

local function attachment_of(a, name, atlas)
  local r = atlas and atlas.regions[a.path or name]
  if a.type == "region" then
    r = r or atlas_lib.whole(a.width, a.height)
    return { kind = "region", vertices = atlas_lib.region_corners(a, r), uvs = atlas_lib.region_uvs(r),
      triangles = QUAD, color = a.color or { 1, 1, 1, 1 }, count = 4 }
  elseif a.type == "mesh" then
    return { kind = "mesh", vertices = a.vertices, weights = a.weights, source_uvs = a.uvs,
      uvs = r and atlas_lib.mesh_uvs(a.uvs, r, atlas.pages[r.page]) or a.uvs, triangles = a.triangles,
      color = a.color or { 1, 1, 1, 1 }, count = #a.uvs / 2 }
  end
  return nil
end

local function load_attachments(desc, data, atlas)
  data.attachments = {}         -- [slot index][entry] = attachment
  local linked = {}
  for i in ipairs(desc.slots) do data.attachments[i] = {} end
  for _, skin in ipairs(desc.skins) do
    if skin.name == "default" then
      for slot, entries in pairs(skin.attachments) do
        local i = data.slot_index[slot]
        for entry, a in pairs(entries) do
          if a.type == "linkedmesh" then
            linked[#linked + 1] = { i, entry, a }
          else
            data.attachments[i][entry] = attachment_of(a, entry, atlas)
          end
        end
      end
    end
  end
  for _, l in ipairs(linked) do
    local i, entry, a = l[1], l[2], l[3]
    local parent = data.attachments[i][a.parent]
    if parent and parent.kind == "mesh" then
      local r = atlas and atlas.regions[a.path or entry]
      data.attachments[i][entry] = { kind = "mesh", vertices = parent.vertices, weights = parent.weights,
        uvs = r and atlas_lib.mesh_uvs(parent.source_uvs, r, atlas.pages[r.page]) or parent.uvs,
        triangles = parent.triangles, color = a.color or { 1, 1, 1, 1 }, count = parent.count,
        deform_of = a.deform ~= false and parent or nil }
    end
  end
end

local function load_clip(data, clip)
  local c = { bones = {}, slots = {}, solvers = {}, constraints = {}, deform = {}, draw_order = nil,
    inherits = {} }
  for name, tls in pairs(clip.bones or {}) do
    local b = data.bone_index[name]
    for _, channel in ipairs(BONE_CHANNELS) do
      if tls[channel] then c.bones[#c.bones + 1] = { bone = b, field = FIELD[channel], tl = tls[channel],
        scale = channel == "scale_x" or channel == "scale_y" } end
    end
    if tls.inherit then
      local values = {}
      for k, v in ipairs(tls.inherit.values) do values[k] = INHERIT[v] end
      c.inherits[#c.inherits + 1] = { bone = b, times = tls.inherit.times, values = values }
    end
  end
  for name, tls in pairs(clip.slots or {}) do
    c.slots[#c.slots + 1] = { slot = data.slot_index[name], tls = tls }
  end
  for name, tls in pairs(clip.solvers or {}) do
    if data.solver_index[name] then c.solvers[#c.solvers + 1] = { solver = data.solver_index[name], tls = tls } end
  end
  for name, tls in pairs(clip.constraints or {}) do
    if data.constraint_index[name] then
      c.constraints[#c.constraints + 1] = { constraint = data.constraint_index[name], tls = tls }
    end
  end
  for skin, slots in pairs(clip.deform or {}) do
    if skin == "default" then
      for slot, entries in pairs(slots) do
        local i = data.slot_index[slot]
        for entry, tl in pairs(entries) do
          local a = data.attachments[i][entry]
          if a then c.deform[#c.deform + 1] = { attachment = a, tl = tl } end
        end
      end
    end
  end
  if clip.draw_order and #clip.draw_order > 0 then c.draw_order = clip.draw_order end
  return c
end

-- the bones a change of bone i moves: i (unless only its children) and
-- every descendant, in bone order
local function below(data, i, with_self)
  local list, moved = {}, { [i] = true }
  if with_self then list[1] = i end
  for k = i + 1, #data.bones do
    local p = data.bones[k].parent
    if p and moved[p] then
      moved[k] = true
      list[#list + 1] = k
    end
  end
  return list
end

--- the data characters of one rig share (not timed)
function plain.load(desc, atlas)
  local data = { bones = {}, bone_index = {}, slot_index = {}, solver_index = {}, constraint_index = {},
    solvers = {}, constraints = {}, order = {}, clips = {}, slots = {} }
  local scale = desc.scale or { 1, 1 }
  data.sx, data.sy = scale[1], desc.y_up and -scale[2] or scale[2]
  for i, b in ipairs(desc.bones) do
    data.bone_index[b.name] = i
    data.bones[i] = { parent = b.parent and data.bone_index[b.parent], x = b.x, y = b.y, angle = b.angle,
      scale_x = b.scale_x, scale_y = b.scale_y, shear_x = b.shear_x, shear_y = b.shear_y,
      inherit = INHERIT[b.inherit], length = b.length }
  end
  for i, s in ipairs(desc.slots) do data.slot_index[s.name] = i end
  for _, s in ipairs(desc.solvers or {}) do
    if not s.skin then
      local bones = {}
      for k, name in ipairs(s.bones) do bones[k] = data.bone_index[name] end
      local solver = { bones = bones, target = data.bone_index[s.target.bone], weight = s.weight,
        softness = s.softness or 0, bend = s.bend or 1, moved = below(data, bones[1], true) }
      data.solvers[#data.solvers + 1] = solver
      data.solver_index[s.name] = #data.solvers
    end
  end
  for _, c in ipairs(desc.constraints or {}) do
    if not c.skin then
      local t = {}
      for k, v in pairs(c) do t[k] = v end
      t.target = data.bone_index[c.target]
      t.bones, t.moved = {}, {}
      for k, name in ipairs(c.bones) do
        t.bones[k] = data.bone_index[name]
        t.moved[k] = below(data, t.bones[k], c["local"])
      end
      data.constraints[#data.constraints + 1] = t
      data.constraint_index[c.name] = #data.constraints
    end
  end
  for _, step in ipairs(desc.order or {}) do
    local at
    if step[1] == "solver" then
      at = data.solver_index[step[2]]
      if at then data.order[#data.order + 1] = { kind = "solver", object = data.solvers[at], index = at } end
    else
      at = data.constraint_index[step[2]]
      local c = at and data.constraints[at]
      if c then
        data.order[#data.order + 1] = { kind = c["local"] and "local" or "world", object = c, index = at }
      end
    end
  end
  load_attachments(desc, data, atlas)
  for i, s in ipairs(desc.slots) do
    data.slots[i] = { bone = data.bone_index[s.bone], attachment = s.attachment, color = s.color or { 1, 1, 1, 1 } }
  end
  for name, clip in pairs(desc.clips) do data.clips[name] = load_clip(data, clip) end
  return data
end

-- ------------------------------------------------------------------
-- a character
-- ------------------------------------------------------------------

local Character = {}
Character.__index = Character

function plain.character(data)
  local ch = setmetatable({ data = data, bones = {}, slots = {}, solvers = {}, constraints = {},
    order = {}, deform = {}, deform_tables = {} }, Character)
  for i, b in ipairs(data.bones) do
    ch.bones[i] = { parent = b.parent, inherit = b.inherit, x = 0, y = 0, angle = 0, scale_x = 1,
      scale_y = 1, shear_x = 0, shear_y = 0, a = 1, b = 0, c = 0, d = 1, wx = 0, wy = 0 }
  end
  for i in ipairs(data.slots) do ch.slots[i] = { attachment = false, color = { 1, 1, 1, 1 } } end
  for i in ipairs(data.solvers) do ch.solvers[i] = {} end
  for i in ipairs(data.constraints) do ch.constraints[i] = {} end
  return ch
end

local function setup(ch)
  local data = ch.data
  for i, s in ipairs(data.bones) do
    local b = ch.bones[i]
    b.x, b.y, b.angle, b.scale_x, b.scale_y, b.shear_x, b.shear_y =
      s.x, s.y, s.angle, s.scale_x, s.scale_y, s.shear_x, s.shear_y
    b.inherit = s.inherit
  end
  for i, s in ipairs(data.slots) do
    local slot = ch.slots[i]
    slot.attachment = s.attachment and data.attachments[i][s.attachment] or false
    local c = slot.color
    c[1], c[2], c[3], c[4] = s.color[1], s.color[2], s.color[3], s.color[4]
    ch.order[i] = i
  end
  for i, s in ipairs(data.solvers) do
    local now = ch.solvers[i]
    now.weight, now.softness, now.bend = s.weight, s.softness, s.bend
  end
  for i, c in ipairs(data.constraints) do
    local now = ch.constraints[i]
    now.mix_rotate, now.mix_x, now.mix_y = c.mix_rotate, c.mix_x, c.mix_y
    now.mix_scale_x, now.mix_scale_y, now.mix_shear_y = c.mix_scale_x, c.mix_scale_y, c.mix_shear_y
  end
  for a in pairs(ch.deform) do ch.deform[a] = false end
end

local function apply_slots(ch, clip, time)
  local data = ch.data
  for _, s in ipairs(clip.slots) do
    local slot, tls = ch.slots[s.slot], s.tls
    local c = slot.color
    if tls.attachment then
      local k = key_at(tls.attachment.times, time)
      if k > 0 then
        local name = tls.attachment.values[k]
        slot.attachment = name and data.attachments[s.slot][name] or false
      end
    end
    if tls.color then
      for ch_ = 1, 4 do c[ch_] = value(tls.color, time, ch_) or c[ch_] end
    end
    if tls.rgb then
      for ch_ = 1, 3 do c[ch_] = value(tls.rgb, time, ch_) or c[ch_] end
    end
    if tls.alpha then c[4] = value(tls.alpha, time, 1) or c[4] end
  end
  if clip.draw_order then
    local keys = clip.draw_order
    local k = 0
    for j = 1, #keys do if keys[j].time <= time then k = j end end
    local order = k > 0 and keys[k].order
    if order then for i = 1, #order do ch.order[i] = order[i] end end
  end
end

local function apply_deform(ch, clip, time)
  for _, d in ipairs(clip.deform) do
    local tl = d.tl
    local k = key_at(tl.times, time)
    if k > 0 then
      local from = tl.offsets[k]
      local to = tl.offsets[k + 1] or from
      local share = sample(tl, k, time, 1, 0, 1)
      local out = ch.deform_tables[d.attachment]
      if not out then
        out = {}
        ch.deform_tables[d.attachment] = out
      end
      for i = 1, #from do out[i] = from[i] + (to[i] - from[i]) * share end
      ch.deform[d.attachment] = out
    end
  end
end

local function apply_clip(ch, clip, time)
  local setup_bones = ch.data.bones
  for _, t in ipairs(clip.bones) do
    local v = value(t.tl, time, 1)
    if v then
      local b, field = ch.bones[t.bone], t.field
      if t.scale then b[field] = setup_bones[t.bone][field] * v else b[field] = setup_bones[t.bone][field] + v end
    end
  end
  for _, t in ipairs(clip.inherits) do
    local k = key_at(t.times, time)
    if k > 0 then ch.bones[t.bone].inherit = t.values[k] end
  end
  for _, s in ipairs(clip.solvers) do
    local now = ch.solvers[s.solver]
    local tls = s.tls
    if tls.weight then now.weight = value(tls.weight, time, 1) or now.weight end
    if tls.softness then now.softness = value(tls.softness, time, 1) or now.softness end
    if tls.bend then now.bend = value(tls.bend, time, 1) or now.bend end
  end
  for _, c in ipairs(clip.constraints) do
    local now = ch.constraints[c.constraint]
    for name, tl in pairs(c.tls) do now[name] = value(tl, time, 1) or now[name] end
  end
  apply_slots(ch, clip, time)
  apply_deform(ch, clip, time)
end

-- ------------------------------------------------------------------
-- forward kinematics: ik2d's bone model (docs/rig-format.md's matrix)
-- ------------------------------------------------------------------

local function place(ch, i)
  local b = ch.bones[i]
  local sx, sy = ch.data.sx, ch.data.sy
  local rx, ry = b.angle + b.shear_x, b.angle + b.shear_y + pi / 2
  local la, lb = cos(rx) * b.scale_x, cos(ry) * b.scale_y
  local lc, ld = sin(rx) * b.scale_x, sin(ry) * b.scale_y
  local p = b.parent and ch.bones[b.parent]
  if not p then
    b.a, b.b, b.c, b.d, b.wx, b.wy = sx * la, sx * lb, sy * lc, sy * ld, sx * b.x, sy * b.y
    return
  end
  local pa, pb, pc, pd = p.a, p.b, p.c, p.d
  b.wx, b.wy = pa * b.x + pb * b.y + p.wx, pc * b.x + pd * b.y + p.wy
  local inherit = b.inherit
  if inherit == ALL then
    b.a, b.b, b.c, b.d = pa * la + pb * lc, pa * lb + pb * ld, pc * la + pd * lc, pc * lb + pd * ld
    return
  elseif inherit == POSITION then
    b.a, b.b, b.c, b.d = sx * la, sx * lb, sy * lc, sy * ld
    return
  end
  local fa, fb, fc, fd
  if inherit == NO_ROTATION then
    local xa, xc = pa / sx, pc / sy
    local k = math.abs((pa * pd - pb * pc) / (sx * sy)) / (xa * xa + xc * xc)
    fa, fb, fc, fd = xa, -xc * k, xc, xa * k
    local t = atan2(xc, xa)
    rx, ry = rx - t, ry - t
    la, lb, lc, ld = cos(rx) * b.scale_x, cos(ry) * b.scale_y, sin(rx) * b.scale_x, sin(ry) * b.scale_y
  else
    local rc, rs = cos(b.angle), sin(b.angle)
    local ux, uy = (pa * rc + pb * rs) / sx, (pc * rc + pd * rs) / sy
    local length = sqrt(ux * ux + uy * uy)
    if length > 1e-5 then ux, uy = ux / length, uy / length end
    local side = 1
    if inherit == NO_SCALE and (pa * pd - pb * pc < 0) ~= ((sx < 0) ~= (sy < 0)) then side = -1 end
    fa, fb, fc, fd = ux, -side * uy, uy, side * ux
    rx, ry = b.shear_x, b.shear_y + pi / 2
    la, lb, lc, ld = cos(rx) * b.scale_x, cos(ry) * b.scale_y, sin(rx) * b.scale_x, sin(ry) * b.scale_y
  end
  b.a, b.b = sx * (fa * la + fb * lc), sx * (fa * lb + fb * ld)
  b.c, b.d = sy * (fc * la + fd * lc), sy * (fc * lb + fd * ld)
end

local function place_all(ch, list)
  for k = 1, #list do place(ch, list[k]) end
end

-- ------------------------------------------------------------------
-- constraints
-- ------------------------------------------------------------------

local function world_angle(b) return atan2(b.c, b.a) end

-- turns bone b's local angle so that its world x axis turns by delta
-- (the parent's reflection reverses the turn)
local function turn(ch, b, delta)
  local p = b.parent and ch.bones[b.parent]
  local det = p and (p.a * p.d - p.b * p.c) or ch.data.sx * ch.data.sy
  b.angle = b.angle + (det < 0 and -delta or delta)
end

local function soft(d, reach, softness)
  local start = reach - softness
  if softness <= 0 or d <= start then return d end
  local p = math.min(1, (d - start) / (softness * 2)) - 1
  return d - ((d - start) - softness * (1 - p * p))
end

local function solve_ik(ch, s, now)
  local mix = now.weight
  if mix <= 0 then return end
  local t = ch.bones[s.target]
  local first = ch.bones[s.bones[1]]
  if #s.bones == 1 then
    turn(ch, first, wrap(atan2(t.wy - first.wy, t.wx - first.wx) - world_angle(first)) * mix)
    place_all(ch, s.moved)
    return
  end
  local second = ch.bones[s.bones[2]]
  local l1 = sqrt((second.wx - first.wx) ^ 2 + (second.wy - first.wy) ^ 2)
  local l2 = ch.data.bones[s.bones[2]].length * sqrt(second.a * second.a + second.c * second.c)
  local dx, dy = t.wx - first.wx, t.wy - first.wy
  local d = soft(sqrt(dx * dx + dy * dy), l1 + l2, now.softness)
  local cosine = (d * d - l1 * l1 - l2 * l2) / (2 * l1 * l2)
  cosine = cosine < -1 and -1 or (cosine > 1 and 1 or cosine)
  local flip = (first.a * first.d - first.b * first.c) < 0 and -1 or 1
  local elbow = acos(cosine) * now.bend * flip
  local shoulder = atan2(dy, dx) - atan2(l2 * sin(elbow), l1 + l2 * cos(elbow))
  -- the second bone's origin off the first's x axis
  local offset = atan2(second.wy - first.wy, second.wx - first.wx) - world_angle(first)
  turn(ch, first, wrap(shoulder - offset - world_angle(first)) * mix)
  place_all(ch, s.moved)
  turn(ch, second, wrap(shoulder + elbow - world_angle(second)) * mix)
  place_all(ch, s.moved)
end

local function world_constraint(ch, c, now)
  local t = ch.bones[c.target]
  local ta, tb, tc, td = t.a, t.b, t.c, t.d
  -- offsets turn the other way in a reflected world
  local offset_rotation = (ta * td - tb * tc) < 0 and -c.offset_rotation or c.offset_rotation
  for k, i in ipairs(c.bones) do
    local b = ch.bones[i]
    if now.mix_rotate ~= 0 then
      local r = c.relative and atan2(tc, ta) + offset_rotation
        or wrap(atan2(tc, ta) - atan2(b.c, b.a) + offset_rotation)
      r = r * now.mix_rotate
      local co, si = cos(r), sin(r)
      b.a, b.b, b.c, b.d = co * b.a - si * b.c, co * b.b - si * b.d, si * b.a + co * b.c, si * b.b + co * b.d
    end
    if now.mix_x ~= 0 or now.mix_y ~= 0 then
      local x, y = ta * c.offset_x + tb * c.offset_y + t.wx, tc * c.offset_x + td * c.offset_y + t.wy
      if c.relative then x, y = x - t.wx + b.wx, y - t.wy + b.wy end
      b.wx, b.wy = b.wx + (x - b.wx) * now.mix_x, b.wy + (y - b.wy) * now.mix_y
    end
    if now.mix_scale_x ~= 0 then
      local s = sqrt(b.a * b.a + b.c * b.c)
      if s > 0 then
        s = (s + (sqrt(ta * ta + tc * tc) - s + c.offset_scale_x) * now.mix_scale_x) / s
        b.a, b.c = b.a * s, b.c * s
      end
    end
    if now.mix_scale_y ~= 0 then
      local s = sqrt(b.b * b.b + b.d * b.d)
      if s > 0 then
        s = (s + (sqrt(tb * tb + td * td) - s + c.offset_scale_y) * now.mix_scale_y) / s
        b.b, b.d = b.b * s, b.d * s
      end
    end
    place_all(ch, c.moved[k])
  end
end

local function local_constraint(ch, c, now)
  local t = ch.bones[c.target]
  for k, i in ipairs(c.bones) do
    local b = ch.bones[i]
    if c.relative then
      b.angle = b.angle + (t.angle + c.offset_rotation) * now.mix_rotate
      b.x = b.x + (t.x + c.offset_x) * now.mix_x
      b.y = b.y + (t.y + c.offset_y) * now.mix_y
      b.scale_x = b.scale_x * ((t.scale_x - 1 + c.offset_scale_x) * now.mix_scale_x + 1)
      b.scale_y = b.scale_y * ((t.scale_y - 1 + c.offset_scale_y) * now.mix_scale_y + 1)
      b.shear_y = b.shear_y + (t.shear_y + c.offset_shear_y) * now.mix_shear_y
    else
      b.angle = b.angle + wrap(t.angle + c.offset_rotation - b.angle) * now.mix_rotate
      b.x = b.x + (t.x + c.offset_x - b.x) * now.mix_x
      b.y = b.y + (t.y + c.offset_y - b.y) * now.mix_y
      b.scale_x = b.scale_x + (t.scale_x + c.offset_scale_x - b.scale_x) * now.mix_scale_x
      b.scale_y = b.scale_y + (t.scale_y + c.offset_scale_y - b.scale_y) * now.mix_scale_y
      b.shear_y = b.shear_y + (t.shear_y + c.offset_shear_y - b.shear_y) * now.mix_shear_y
    end
    place_all(ch, c.moved[k])
  end
end

--- ch:apply(clip_name, time): the set-up, the clip at time, the world
-- transforms, then the solvers and constraints in the rig's order
function Character:apply(name, time)
  local data = self.data
  setup(self)
  apply_clip(self, data.clips[name], time)
  for i = 1, #data.bones do place(self, i) end
  for _, step in ipairs(data.order) do
    local kind = step.kind
    if kind == "solver" then
      solve_ik(self, step.object, self.solvers[step.index])
    elseif kind == "local" then
      local_constraint(self, step.object, self.constraints[step.index])
    else
      world_constraint(self, step.object, self.constraints[step.index])
    end
  end
end

-- ------------------------------------------------------------------
-- skinning
-- ------------------------------------------------------------------

local function on_bone(b, v, deform, n, out)
  local a, bb, c, d, x0, y0 = b.a, b.b, b.c, b.d, b.wx, b.wy
  for i = 1, 2 * n, 2 do
    local x, y = v[i], v[i + 1]
    if deform then x, y = x + deform[i], y + deform[i + 1] end
    out[i], out[i + 1] = a * x + bb * y + x0, c * x + d * y + y0
  end
end

local function weighted(bones, w, deform, n, out)
  local at, di = 1, 1
  for i = 1, 2 * n, 2 do
    local count = w[at]
    at = at + 1
    local wx, wy = 0, 0
    for _ = 1, count do
      local b = bones[w[at]]
      local x, y, weight = w[at + 1], w[at + 2], w[at + 3]
      if deform then x, y = x + deform[di], y + deform[di + 1] end
      wx = wx + (b.a * x + b.b * y + b.wx) * weight
      wy = wy + (b.c * x + b.d * y + b.wy) * weight
      at, di = at + 4, di + 2
    end
    out[i], out[i + 1] = wx, wy
  end
end

--- ch:attachments(out) -> n: every drawn slot's attachment in drawing
-- order, out[k] = { slot = index, vertices = { world x, y, ... }, uvs =,
-- triangles =, color = { r, g, b, a } } (tables made once)
function Character:attachments(out)
  local n = 0
  for k = 1, #self.order do
    local i = self.order[k]
    local slot = self.slots[i]
    local a = slot.attachment
    if a then
      n = n + 1
      local e = out[n]
      if not e then
        e = { vertices = {}, color = {} }
        out[n] = e
      end
      local deform = self.deform[a.deform_of or a]
      if a.weights then
        weighted(self.bones, a.weights, deform, a.count, e.vertices)
      else
        on_bone(self.bones[self.data.slots[i].bone], a.vertices, deform, a.count, e.vertices)
      end
      local c, sc, ac = e.color, slot.color, a.color
      c[1], c[2], c[3], c[4] = sc[1] * ac[1], sc[2] * ac[2], sc[3] * ac[3], sc[4] * ac[4]
      e.slot, e.uvs, e.triangles = i, a.uvs, a.triangles
    end
  end
  return n
end

return plain
