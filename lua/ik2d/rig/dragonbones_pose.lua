-- ik2d.rig.dragonbones_pose: a DragonBones armature's bones and IK
-- constraints placed as its runtime places them (DragonBonesJS's Bone and
-- IKConstraint, MIT), on the skeleton a rig built.
--
--   local plain = dragonbones_pose.plain(description)  -- what build makes the skeleton of
--   local db = dragonbones_pose.new(description)
--   db:play(clip, time, alpha)     -- a clip's IK keys, after the core clip
--   db:place(sk)                   -- then sk:solve() shows the runtime's pose
--
-- Why not the skeleton's own rules: the runtime turns an IK bone's world
-- matrix as a whole (both axes about its origin, whatever its parent's
-- skew or scale), where ik2d's bone IK turns the local angle inside the
-- parent's frame (Spine's rule), and it bends children that do not
-- inherit scale, which ik2d's two-bone chains refuse; and a bone that
-- does not inherit scale takes only its parent's x axis direction (R(p)
-- L), where the skeleton's no_scale (Spine's) takes the parent's map of
-- the bone's own direction. So the skeleton is built with two of its
-- modes only: "all" for the bones the runtime composes so, "position"
-- (the world's axes are the local ones) for the others. Each frame this
-- composes every bone's world matrix by the runtime's rule from the
-- skeleton's poses (a clip applied), runs the IK in the runtime's order,
-- and gives each "position" bone and each bone an IK turned the local
-- axes under which the skeleton composes that matrix: the skeleton then
-- places every bone as the runtime does. It works in the armature's
-- space: the skeleton's base and scale move the whole.
--
-- Angles go through ik2d's own trig (ik2d.pure.math), so every backend
-- gives the same bits; a frame makes no garbage.

local pmath = require "ik2d.pure.math"
local value_at = require("ik2d.rig.curves").value_at

local dbpose = {}

local atan2, rot, wrap = pmath.atan2, pmath.rot, pmath.wrap
local sqrt, pi, fmod = math.sqrt, math.pi, math.fmod
local cos, sin = pmath.cos, pmath.sin
local format, setmetatable = string.format, setmetatable

-- the scale a pose gets for a world axis of length 0: its products with
-- lengths and scales stay normal doubles
local TINY = 2.0 ^ -500

local function finite(v) return v == v and v ~= math.huge and v ~= -math.huge end

--- DragonBonesJS's normalizeRadian: an angle in (-pi, pi].
local function normalize(v)
  v = fmod(v + pi, pi * 2.0)
  if v > 0 then return v - pi end
  return v + pi
end

-- ------------------------------------------------------------------
-- matrices: W[6 (i - 1) + 1 .. 6]: a, b, c, d, x, y (x axis (a, c),
-- y axis (b, d), origin (x, y))
-- ------------------------------------------------------------------

-- Transform.fromMatrix's angle of a world matrix's x axis (ik2d's a
-- and c) and whether it reads the scale x as negative: atan(c / a) (0
-- when that is not a number), half a turn more, the scale x positive,
-- when the bone's own scale x (backup) is not negative.
local function from_matrix(a, c, backup)
  local q = c / a
  local rotation = q == q and atan2(q, 1.0) or 0.0
  local scale_x
  if rotation > -pi * 0.25 and rotation < pi * 0.25 then
    scale_x = a / cos(rotation)
  else
    scale_x = c / sin(rotation)
  end
  if backup >= 0 and scale_x < 0 then return rotation - pi, false end
  return rotation, scale_x < 0
end

-- Composes bone i's world (at: its offset in W) from its parent's (o:
-- the parent's offset, nil for a root) and its local transform (r the
-- x axis's angle, k the y axis's past a right angle from it) by
-- Bone._updateGlobalTransformMatrix's rules (the armature not flipped),
-- and keeps the global angle and scale x sign the runtime keeps (G, N).
local function compose(self, i, at, o, r, k, sx, sy, lx, ly)
  local W, mode = self.W, self.mode[i]
  local keep_x = sx   -- the scale x Transform.fromMatrix starts from
  if o ~= nil and (mode == "no_scale" or mode == "no_scale_or_reflection") then
    -- the local angle on the parent's global one (half a turn more
    -- when that reads a negative scale); mirrored by a mirrored parent,
    -- whose reflection no_scale takes (the y axis turned over)
    local p = self.parent[i]
    local m = r + self.G[p]
    if self.N[p] then m = m + pi end
    if W[o + 1] * W[o + 4] - W[o + 2] * W[o + 3] < 0 then
      m = m - 2.0 * r
      if mode == "no_scale" then k = k + pi end
    end
    r = m
  elseif o ~= nil and mode == "no_rotation_or_reflection" then
    r = r - self.G[self.parent[i]]
  end
  local cx, sn = rot(r)
  local cy, syn = rot(r + k + pi * 0.5)
  local la, lb, lc, ld = cx * sx, cy * sy, sn * sx, syn * sy
  if o == nil then
    W[at + 1], W[at + 2], W[at + 3], W[at + 4], W[at + 5], W[at + 6] = la, lb, lc, ld, lx, ly
    self.G[i], self.N[i] = r, sx < 0
    return
  end
  local pa, pb, pc, pd = W[o + 1], W[o + 2], W[o + 3], W[o + 4]
  if self.translation[i] then
    lx, ly = pa * lx + pb * ly + W[o + 5], pc * lx + pd * ly + W[o + 6]
  end
  W[at + 5], W[at + 6] = lx, ly
  if mode == "all" or mode == "no_rotation_or_reflection" then
    W[at + 1], W[at + 2] = pa * la + pb * lc, pa * lb + pb * ld
    W[at + 3], W[at + 4] = pc * la + pd * lc, pc * lb + pd * ld
    self.G[i], self.N[i] = from_matrix(W[at + 1], W[at + 3], keep_x)
  else
    W[at + 1], W[at + 2], W[at + 3], W[at + 4] = la, lb, lc, ld
    self.G[i], self.N[i] = r, sx < 0
  end
end

-- Turns the linear part of W's matrix at `at` by angle.
local function turn(W, at, angle)
  local c, s = rot(angle)
  local a, b, cc, d = W[at + 1], W[at + 2], W[at + 3], W[at + 4]
  W[at + 1], W[at + 2] = c * a - s * cc, c * b - s * d
  W[at + 3], W[at + 4] = s * a + c * cc, s * b + c * d
end

local function x_angle(W, at) return atan2(W[at + 3], W[at + 1]) end

-- ------------------------------------------------------------------
-- IK
-- ------------------------------------------------------------------

--- IKConstraint._computeA: the bone's x axis turned toward the target,
-- by weight.
local function solve_one(W, first, target, weight)
  local angle = atan2(W[target + 6] - W[first + 6], W[target + 5] - W[first + 5])
  local by = normalize(angle - x_angle(W, first)) * weight
  turn(W, first, by)
  return by
end

--- IKConstraint._computeB: the child's origin where the circle about
-- the parent's origin (through the child's) meets the circle about the
-- target (the child's world length), on the bend side (flipped under a
-- mirrored grandparent), the parent turned there and the child's x axis
-- toward the target, both by weight; the child's origin moves with the
-- parent.
local function solve_two(W, p, c, g, length, target, weight, bend)
  local lx, ly = W[c + 1] * length, W[c + 3] * length
  local l_ll = lx * lx + ly * ly
  local l_l = sqrt(l_ll)
  local px, py = W[p + 5], W[p + 6]
  local dx, dy = W[c + 5] - px, W[c + 6] - py
  local l_pp = dx * dx + dy * dy
  local l_p = sqrt(l_pp)
  local raw, raw_a = x_angle(W, c), atan2(dy, dx)
  dx, dy = W[target + 5] - px, W[target + 6] - py
  local l_tt = dx * dx + dy * dy
  local l_t = sqrt(l_tt)
  local radian_a
  if l_l + l_p <= l_t or l_t + l_l <= l_p or l_t + l_p <= l_l then
    radian_a = atan2(dy, dx)
    if l_l + l_p > l_t and l_p < l_l then radian_a = radian_a + pi end
  else
    local h = (l_pp - l_ll + l_tt) / (2.0 * l_tt)
    local r = sqrt(l_pp - h * h * l_tt) / l_t
    local hx, hy, rx, ry = px + dx * h, py + dy * h, -dy * r, dx * r
    local mirrored = g ~= nil and W[g + 1] * W[g + 4] - W[g + 2] * W[g + 3] < 0
    local ex, ey = hx + rx, hy + ry
    if mirrored ~= (bend == 1) then ex, ey = hx - rx, hy - ry end
    radian_a = atan2(ey - py, ex - px)
  end
  local d_r = normalize(radian_a - raw_a)
  turn(W, p, d_r * weight)
  local cs, sn = rot(raw_a + d_r * weight)
  W[c + 5], W[c + 6] = px + cs * l_p, py + sn * l_p
  local radian_b = atan2(W[target + 6] - W[c + 6], W[target + 5] - W[c + 5])
  local child_by = d_r * weight + normalize(radian_b - d_r - raw) * weight
  turn(W, c, child_by)
  return d_r * weight, child_by
end

-- ------------------------------------------------------------------
-- the constraints as rig.solvers
-- ------------------------------------------------------------------

local Solver = {}
Solver.__index = Solver

--- solver:options() -> { method = "dragonbones", weight =, bend = }
function Solver:options()
  return { method = "dragonbones", weight = self.weight, bend = self.bend }
end

--- solver:set_options(t): its weight and bend (the others are the
-- runtime's)
function Solver:set_options(t)
  if t.weight ~= nil then self.weight = t.weight end
  if t.bend ~= nil then self.bend = t.bend end
end

function Solver:__tostring()
  return format("ik2d.rig.DragonBonesIK(%q, %d bones)", self.name, #self.bones)
end

-- ------------------------------------------------------------------
-- the pose
-- ------------------------------------------------------------------

local Pose = {}
Pose.__index = Pose

--- dbpose.plain(desc) -> the description build makes the skeleton of:
-- no solvers, and "position" for every bone the runtime does not
-- compose with its parent's whole map.
function dbpose.plain(desc)
  local plain = {}
  for key, value in pairs(desc) do plain[key] = value end
  plain.solvers, plain.order, plain.bones = {}, {}, {}
  for i, bone in ipairs(desc.bones) do
    local copy = {}
    for key, value in pairs(bone) do copy[key] = value end
    if copy.inherit ~= "all" then copy.inherit = "position" end
    plain.bones[i] = copy
  end
  return plain
end

--- dbpose.new(desc) -> the pose of a DragonBones description: .solvers
-- (name -> solver { name, bones, target, weight, bend }), .list (in the
-- runtime's order).
function dbpose.new(desc)
  local n = #desc.bones
  local self = setmetatable({ solvers = {}, list = {}, count = n, W = {}, G = {}, N = {}, done = {},
    parent = {}, mode = {}, translation = {}, length = {}, set = {}, starts = {} }, Pose)
  local index = {}
  for i, bone in ipairs(desc.bones) do index[bone.name] = i end
  for i, bone in ipairs(desc.bones) do
    self.parent[i] = bone.parent and index[bone.parent] or false
    self.mode[i] = bone.inherit or "all"
    self.length[i] = bone.length or 0
    self.translation[i] = bone.inherit_translation ~= false
    self.set[i] = self.mode[i] ~= "all" or not self.translation[i]
    self.done[i], self.G[i], self.N[i] = false, 0.0, false
    for k = 1, 6 do self.W[6 * (i - 1) + k] = 0.0 end
  end
  local by_name = {}
  for _, s in ipairs(desc.solvers or {}) do by_name[s.name] = s end
  for _, step in ipairs(desc.order or {}) do
    local s = step[1] == "solver" and by_name[step[2]]
    if s then
      local solver = setmetatable({ name = s.name, bones = s.bones, target = s.target.bone,
        weight = s.weight, bend = s.bend, first = index[s.bones[1]],
        second = s.bones[2] and index[s.bones[2]] or false, goal = index[s.target.bone] }, Solver)
      self.solvers[s.name] = solver
      self.list[#self.list + 1] = solver
      local first = solver.first
      self.starts[first] = self.starts[first] or {}
      local starts = self.starts[first]
      starts[#starts + 1] = solver
      self.set[first] = true
      if solver.second then self.set[solver.second] = true end
    end
  end
  return self
end

--- pose:play(clip, time, alpha): a description clip's IK keys at time,
-- by alpha over what the constraints hold (the weight blended, the bend
-- switched from alpha 0.5 on, as the core's clips do a solver's).
function Pose:play(clip, time, alpha)
  for name, keys in pairs(clip.solvers or {}) do
    local solver = self.solvers[name]
    local weight = solver and keys.weight and value_at(keys.weight, time)
    if weight and alpha ~= 1 then weight = solver.weight + (weight - solver.weight) * alpha end
    if weight then solver.weight = weight end
    local bend = solver and keys.bend and value_at(keys.bend, time)
    if bend and alpha >= 0.5 then solver.bend = bend end
  end
end

-- Bone i's world from its pose on sk and its parent's world.
local function compute(self, sk, i)
  local angle, x, y, sx, sy, shx, shy = sk:pose(i)
  local p = self.parent[i]
  compose(self, i, 6 * (i - 1), p and 6 * (p - 1) or nil, angle + shx, shy - shx, sx, sy, x, y)
end

-- Bone i placed (its parent first), then the IK chains it starts (their
-- targets placed first): Armature's update order.
local function ensure(self, sk, i)
  if self.done[i] then return end
  local p = self.parent[i]
  if p then ensure(self, sk, p) end
  local starts = self.starts[i]
  if starts then
    for k = 1, #starts do ensure(self, sk, starts[k].goal) end
  end
  compute(self, sk, i)
  self.done[i] = true
  if not starts then return end
  local W = self.W
  for k = 1, #starts do
    local s = starts[k]
    if s.second then
      local c = s.second
      if not self.done[c] then
        compute(self, sk, c)
        self.done[c] = true
      end
      local g = self.parent[i]
      local by, child_by = solve_two(W, 6 * (i - 1), 6 * (c - 1), g and 6 * (g - 1) or nil, self.length[c],
        6 * (s.goal - 1), s.weight, s.bend)
      self.G[i], self.G[c] = self.G[i] + by, self.G[c] + child_by
    else
      self.G[i] = self.G[i] + solve_one(W, 6 * (i - 1), 6 * (s.goal - 1), s.weight)
    end
  end
end

-- Gives bone i the pose under which the skeleton composes its world:
-- local axes frame^-1 x world, frame its parent's world ("all") or the
-- armature's axes ("position"); its translation, scales' signs and shear
-- x kept, its angle and shear y the nearest to the old ones.
local function set_local(self, sk, i)
  local W, at = self.W, 6 * (i - 1)
  local a, b, c, d = W[at + 1], W[at + 2], W[at + 3], W[at + 4]
  local p = self.parent[i]
  local angle, x, y, sx, sy, shx, shy = sk:pose(i)
  if p then
    local o = 6 * (p - 1)
    local fa, fb, fc, fd = W[o + 1], W[o + 2], W[o + 3], W[o + 4]
    local det = fa * fd - fb * fc
    if self.mode[i] == "all" then
      a, b, c, d = (fd * a - fb * c) / det, (fd * b - fb * d) / det,
        (fa * c - fc * a) / det, (fa * d - fc * b) / det
    end
    if not self.translation[i] then
      -- the skeleton places every origin by the parent's map
      local dx, dy = W[at + 5] - W[o + 5], W[at + 6] - W[o + 6]
      x, y = (fd * dx - fb * dy) / det, (fa * dy - fc * dx) / det
    end
  end
  local sign_x, sign_y = sx < 0 and -1.0 or 1.0, sy < 0 and -1.0 or 1.0
  local new_angle = atan2(c * sign_x, a * sign_x) - shx
  new_angle = angle + wrap(new_angle - angle)
  local new_shy = atan2(d * sign_y, b * sign_y) - new_angle - pi * 0.5
  new_shy = shy + wrap(new_shy - shy)
  local new_sx, new_sy = sqrt(a * a + c * c), sqrt(b * b + d * d)
  -- a pose takes no scale 0 (a clip may key one): the nearest it takes
  if new_sx == 0 then new_sx = TINY end
  if new_sy == 0 then new_sy = TINY end
  -- a singular frame (a parent at scale 0) or a world beyond the
  -- doubles: the pose as the clip left it
  if not (finite(new_angle) and finite(new_shy) and finite(new_sx) and finite(new_sy) and finite(x)
      and finite(y)) then
    return
  end
  sk:set_pose(i, new_angle, x, y, sign_x * new_sx, sign_y * new_sy, shx, new_shy)
end

--- pose:place(sk): every bone's world by the runtime's rule and its IK,
-- from sk's poses, and the poses of the bones the skeleton would
-- place otherwise set so that sk:solve() places them there.
function Pose:place(sk)
  local done = self.done
  for i = 1, self.count do done[i] = false end
  for i = 1, self.count do ensure(self, sk, i) end
  for i = 1, self.count do
    if self.set[i] then set_local(self, sk, i) end
  end
end

return dbpose
