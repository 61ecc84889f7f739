-- A plain-Lua player of the rig description, for the specs: it poses a
-- description's bones at a clip's time so that a reader's output can be
-- held against the tool's own runtime (spec/dragonbones/reference.lua)
-- before ik2d's builder and player exist. It reads timelines as the
-- description says (straight lines between a curve's points), composes
-- world matrices with the five inherit modes, and runs each IK solver as
-- DragonBones' runtime solves (one bone: its x axis turned to the
-- target; two: the elbow where two circles meet), in the description's
-- order, when the solver's first bone is posed.
--
--   local pose = require("spec.dragonbones.pose")
--   local world = pose.world(rig, "walk", 0.25)   -- name -> { a, b, c, d, x, y }
--
-- Matrices in ik2d's convention: x axis (a, c), y axis (b, d), origin
-- (x, y).

local pose = {}

local atan2 = math.atan2 or math.atan
local cos, sin, sqrt, abs, pi, fmod = math.cos, math.sin, math.sqrt, math.abs, math.pi, math.fmod

local function normalize(v)   -- DragonBonesJS's normalizeRadian
  v = fmod(v + pi, pi * 2.0)
  if v > 0 then return v - pi end
  return v + pi
end

--- A timeline's channel c at time t (held before the first key and
-- after the last).
function pose.sample(tl, t, c)
  c = c or 1
  local n, times, channels = #tl.times, tl.times, tl.channels or 1
  local function value(k) return tl.values[(k - 1) * channels + c] end
  if t < times[1] then return value(1) end
  local k = n
  for i = 1, n - 1 do
    if t < times[i + 1] then k = i break end
  end
  local curve = tl.curves and tl.curves[k]
  if k == n or curve == nil or curve == "stepped" then return value(k) end
  local t0, v0 = times[k], value(k)
  if curve ~= "linear" then
    local points = curve[c]
    for j = 1, #points, 2 do
      if t < points[j] then
        return v0 + (points[j + 1] - v0) * (t - t0) / (points[j] - t0)
      end
      t0, v0 = points[j], points[j + 1]
    end
  end
  local t1, v1 = times[k + 1], value(k + 1)
  return v0 + (v1 - v0) * (t - t0) / (t1 - t0)
end

local function local_pose(bone, timelines, t)
  local function add(key, base)
    local tl = timelines and timelines[key]
    if tl == nil then return base end
    return base + pose.sample(tl, t)
  end
  local function mul(key, base)
    local tl = timelines and timelines[key]
    if tl == nil then return base end
    return base * pose.sample(tl, t)
  end
  return add("x", bone.x), add("y", bone.y), add("rotate", bone.angle),
    mul("scale_x", bone.scale_x), mul("scale_y", bone.scale_y),
    add("shear_x", bone.shear_x), add("shear_y", bone.shear_y)
end

--- The local matrix of the description's model.
local function local_matrix(x, y, r, sx, sy, shx, shy)
  return { cos(r + shx) * sx, cos(r + pi / 2 + shy) * sy, sin(r + shx) * sx, sin(r + pi / 2 + shy) * sy, x, y }
end

local function multiply(p, l)   -- linear parts: p l
  return p[1] * l[1] + p[2] * l[3], p[1] * l[2] + p[2] * l[4],
         p[3] * l[1] + p[4] * l[3], p[3] * l[2] + p[4] * l[4]
end

--- World = parent with the bone's inherit mode.
local function compose(mode, p, l)
  local w = {}
  w[5] = p[1] * l[5] + p[2] * l[6] + p[5]
  w[6] = p[3] * l[5] + p[4] * l[6] + p[6]
  if mode == "all" then
    w[1], w[2], w[3], w[4] = multiply(p, l)
  elseif mode == "position" then
    w[1], w[2], w[3], w[4] = l[1], l[2], l[3], l[4]
  elseif mode == "no_rotation_or_reflection" then
    -- the parent's scale along its own axes, its shear, rotation and
    -- reflection taken out: P' = R(p) diag(|x axis|, |det| / |x axis|)
    local pa, pc = p[1], p[3]
    local len2 = pa * pa + pc * pc
    local s = abs(p[1] * p[4] - p[2] * p[3]) / len2
    local q = { pa, -pc * s, pc, pa * s }
    local angle = atan2(pc, pa)
    local r = { cos(-angle), -sin(-angle), sin(-angle), cos(-angle) }
    local a, b, c, d = multiply(r, l)
    w[1], w[2], w[3], w[4] = multiply(q, { a, b, c, d })
  else
    -- the parent's rotation (and for no_scale its reflection) only
    local len = sqrt(p[1] * p[1] + p[3] * p[3])
    local ux, uy = p[1] / len, p[3] / len
    local vx, vy = -uy, ux
    if mode == "no_scale" and p[1] * p[4] - p[2] * p[3] < 0 then vx, vy = -vx, -vy end
    w[1], w[2], w[3], w[4] = multiply({ ux, vx, uy, vy }, l)
  end
  return w
end

local function rotate_world(w, angle)   -- the linear part turned by angle
  local c, s = cos(angle), sin(angle)
  w[1], w[3] = c * w[1] - s * w[3], s * w[1] + c * w[3]
  w[2], w[4] = c * w[2] - s * w[4], s * w[2] + c * w[4]
end

local function x_angle(w) return atan2(w[3], w[1]) end

--- DragonBones' IKConstraint._computeA on world matrices.
local function solve_one(w, target, weight)
  local angle = atan2(target[6] - w[6], target[5] - w[5])
  rotate_world(w, normalize(angle - x_angle(w)) * weight)
end

--- DragonBones' IKConstraint._computeB: bend 1 is bendPositive.
local function solve_two(parent_parent, pw, cw, length, target, weight, bend)
  local lx, ly = cw[1] * length, cw[3] * length
  local l_ll = lx * lx + ly * ly
  local l_l = sqrt(l_ll)
  local dx, dy = cw[5] - pw[5], cw[6] - pw[6]
  local l_pp = dx * dx + dy * dy
  local l_p = sqrt(l_pp)
  local raw, raw_parent, raw_a = x_angle(cw), x_angle(pw), atan2(dy, dx)
  dx, dy = target[5] - pw[5], target[6] - pw[6]
  local l_tt = dx * dx + dy * dy
  local l_t = sqrt(l_tt)
  local radian_a
  if l_l + l_p <= l_t or l_t + l_l <= l_p or l_t + l_p <= l_l then
    radian_a = atan2(dy, dx)
    if l_l + l_p > l_t and l_p < l_l then radian_a = radian_a + pi end
  else
    local h = (l_pp - l_ll + l_tt) / (2.0 * l_tt)
    local r = sqrt(l_pp - h * h * l_tt) / l_t
    local hx, hy, rx, ry = pw[5] + dx * h, pw[6] + dy * h, -dy * r, dx * r
    local g = parent_parent
    local mirrored = g ~= nil and g[1] * g[4] - g[2] * g[3] < 0
    local ex, ey = hx + rx, hy + ry
    if mirrored ~= (bend == 1) then ex, ey = hx - rx, hy - ry end
    radian_a = atan2(ey - pw[6], ex - pw[5])
  end
  local d_r = normalize(radian_a - raw_a)
  rotate_world(pw, d_r * weight)
  local current = raw_a + d_r * weight
  cw[5], cw[6] = pw[5] + cos(current) * l_p, pw[6] + sin(current) * l_p
  local radian_b = atan2(target[6] - cw[6], target[5] - cw[5])
  local rotation = raw_parent + d_r * weight + raw - raw_parent + normalize(radian_b - d_r - raw) * weight
  rotate_world(cw, rotation - raw)
end

--- Every bone's world matrix at time t of the clip (nil: the setup pose).
function pose.world(rig, clip_name, t)
  local clip = clip_name and rig.clips[clip_name]
  local by_name, world = {}, {}
  for _, bone in ipairs(rig.bones) do by_name[bone.name] = bone end
  local solvers_of = {}
  for _, entry in ipairs(rig.order or {}) do
    for _, solver in ipairs(rig.solvers) do
      if entry[1] == "solver" and solver.name == entry[2] then
        local first = solver.bones[1]
        solvers_of[first] = solvers_of[first] or {}
        table.insert(solvers_of[first], solver)
      end
    end
  end
  local ensure
  local function compute(bone)
    local m = local_matrix(local_pose(bone, clip and clip.bones[bone.name], t))
    if bone.parent == nil then return m end
    return compose(bone.inherit, ensure(by_name[bone.parent]), m)
  end
  function ensure(bone)
    if world[bone.name] then return world[bone.name] end
    local solvers = solvers_of[bone.name]
    if solvers then
      for _, solver in ipairs(solvers) do ensure(by_name[solver.target.bone]) end
    end
    world[bone.name] = compute(bone)
    for _, solver in ipairs(solvers or {}) do
      local target, weight = world[solver.target.bone], solver.weight
      local bend = solver.bend
      local keys = clip and clip.solvers[solver.name]
      if keys and keys.weight then weight = pose.sample(keys.weight, t) end
      if keys and keys.bend then bend = pose.sample(keys.bend, t) end
      if #solver.bones == 1 then
        solve_one(world[bone.name], target, weight)
      else
        local child = by_name[solver.bones[2]]
        world[child.name] = world[child.name] or compute(child)
        local grand = bone.parent and world[bone.parent]
        solve_two(grand, world[bone.name], world[child.name], child.length, target, weight, bend)
      end
    end
    return world[bone.name]
  end
  for _, bone in ipairs(rig.bones) do ensure(bone) end
  return world
end

--- A deform timeline's offsets at time t (its curves: lists of
-- (time, progress) points).
local function deform_at(tl, t)
  local n = #tl.times
  if t < tl.times[1] then return tl.offsets[1] end
  local k = n
  for i = 1, n - 1 do
    if t < tl.times[i + 1] then k = i break end
  end
  local curve = tl.curves[k]
  if k == n or curve == "stepped" then return tl.offsets[k] end
  local t0, t1 = tl.times[k], tl.times[k + 1]
  local progress
  if curve == "linear" then
    progress = (t - t0) / (t1 - t0)
  else
    local pt, pp = t0, 0.0
    for _, points in ipairs(curve) do
      for j = 1, #points, 2 do
        if progress == nil and t < points[j] then
          progress = pp + (points[j + 1] - pp) * (t - pt) / (points[j] - pt)
        end
        if progress == nil then pt, pp = points[j], points[j + 1] end
      end
    end
    progress = progress or pp + (1.0 - pp) * (t - pt) / (t1 - pt)
  end
  local a, b, out = tl.offsets[k], tl.offsets[k + 1], {}
  for i = 1, #a do out[i] = a[i] + (b[i] - a[i]) * progress end
  return out
end

--- The vertices (armature space) of the mesh a slot shows at time t of
-- the clip, world: pose.world's; nil when the slot shows no mesh.
function pose.mesh(rig, clip_name, t, world, slot_name)
  local clip = clip_name and rig.clips[clip_name]
  local slot
  for _, s in ipairs(rig.slots) do
    if s.name == slot_name then slot = s end
  end
  local name = slot.attachment
  local timelines = clip and clip.slots[slot_name]
  if timelines and timelines.attachment then name = pose.sample(timelines.attachment, t) or nil end
  local skin = rig.skins[1]
  local mesh = name and skin.attachments[slot_name] and skin.attachments[slot_name][name]
  if mesh == nil or mesh.type ~= "mesh" then return nil end
  local deform = clip and clip.deform[skin.name] and clip.deform[skin.name][slot_name]
  deform = deform and deform[name]
  local offsets = deform and deform_at(deform, t)
  local out, by_index = {}, {}
  for i, bone in ipairs(rig.bones) do by_index[i] = world[bone.name] end
  if mesh.weights then
    local w, e = mesh.weights, 0
    local i = 1
    while i <= #w do
      local x, y = 0.0, 0.0
      for _ = 1, w[i] do
        local m = by_index[w[i + 1]]
        local bx, by = w[i + 2], w[i + 3]
        if offsets then bx, by = bx + offsets[e * 2 + 1], by + offsets[e * 2 + 2] end
        x = x + (m[1] * bx + m[2] * by + m[5]) * w[i + 4]
        y = y + (m[3] * bx + m[4] * by + m[6]) * w[i + 4]
        i, e = i + 4, e + 1
      end
      out[#out + 1], out[#out + 2] = x, y
      i = i + 1
    end
  else
    local m = world[slot.bone]
    for j = 1, #mesh.vertices, 2 do
      local x, y = mesh.vertices[j], mesh.vertices[j + 1]
      if offsets then x, y = x + offsets[j], y + offsets[j + 1] end
      out[j], out[j + 1] = m[1] * x + m[2] * y + m[5], m[3] * x + m[4] * y + m[6]
    end
  end
  return out
end

return pose
