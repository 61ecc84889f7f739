--- ik2d.pure.bone_ik: one- and two-bone IK on the artist's bone model, as
-- src/ik2d_bone_ik.c (whose header derives it), operation for operation.
-- A bone's local transform is a table { x, y, angle, scale_x, scale_y,
-- shear_x, shear_y } (the skeleton's own record of it, changed in place);
-- matrices are six values, as in ik2d.pure.bone.
local pmath = require "ik2d.pure.math"
local bone = require "ik2d.pure.bone"

local atan2, wrap, acos, rot, exp = pmath.atan2, pmath.wrap, pmath.acos, pmath.rot, pmath.exp
local sqrt, abs, min, max = math.sqrt, math.abs, math.min, math.max
local turn_frame, place, solve = bone.turn_frame, bone.place, bone.solve
local PI = pmath.PI
local ALL = bone.ALL

local M = {}

local SHORT, UNIFORM = 1e-4, 1e-4

-- ik2d_bone_ik.c's soft_shortfall
local function soft_shortfall(d, reach, softness, smooth)
  local over = d - (reach - softness)
  if softness <= 0.0 then return 0.0 end
  if smooth then
    if over <= 0.0 then return 0.0 end
    return over - softness * (1.0 - exp(-over / softness))
  end
  -- Spine's curve without a branch on the distance, which moves in and
  -- out of the soft range frame to frame (LuaJIT gives up compiling the
  -- way out): where over <= 0 this is the C core's 0.0, +0 whatever over's
  -- sign (p = -1, and -0 + 0.0 is +0)
  if over ~= over then return over end
  local o = max(over, 0.0) + 0.0
  local p = min(1.0, o / (softness * 2.0)) - 1.0
  return o - softness * (1.0 - p * p)
end

-- fmin and fmax as C's, for numbers that are not NaN
local function reach_scale(distance, reach, low, high, mix)
  local ratio = distance / reach
  if not (ratio > 1.0 and high > 1.0) and not (ratio < 1.0 and low < 1.0) then return 1.0 end
  ratio = max(low, min(high, ratio))
  return (ratio - 1.0) * mix + 1.0
end

local function one_bone(pa, pb, pc, pd, px, py, inherit, sx, sy, l, length, tx, ty, mix,
                        compress, stretch, uniform)
  local fa, fb, fc, fd, fx, fy, offset = turn_frame(pa, pb, pc, pd, px, py, l.x, l.y, inherit,
    sx, sy)
  local u, v = solve(fa, fb, fc, fd, fx, fy, tx, ty)
  local aim = atan2(v, u) + offset - l.shear_x
  if l.scale_x < 0.0 then aim = aim + PI end
  l.angle = l.angle + wrap(aim - l.angle) * mix
  local reach = length * l.scale_x
  if not (reach > SHORT) then return end
  local scale = reach_scale(sqrt(u * u + v * v), reach, compress, stretch, mix)
  l.scale_x = l.scale_x * scale
  if uniform then l.scale_y = l.scale_y * scale end
end

--- one bone (l, its local transform) under parent pa .. py (pa nil: a
-- root) turned toward (tx, ty); def: { mix, softness, smooth, bend,
-- stretch, compress, uniform }
function M.one(pa, pb, pc, pd, px, py, inherit, sx, sy, l, length, tx, ty, def)
  one_bone(pa, pb, pc, pd, px, py, inherit, sx, sy, l, length, tx, ty, def.mix, def.compress,
    def.stretch, def.uniform)
end

-- ik2d_bone_ik.c's ellipse_angles: a1, a2
local function ellipse_angles(l1, ax, ay, psx, psy, gx, gy, dd, bend)
  local aa, bb, toward = ax * ax, ay * ay, atan2(gy, gx)
  local c0, c1, c2 = bb * l1 * l1 + aa * dd - aa * bb, -2.0 * bb * l1, bb - aa
  local disc = c1 * c1 - 4.0 * c2 * c0
  local near_t, near_x, near_y = PI, l1 - ax, 0.0
  local near_d = near_x * near_x
  local far_t, far_x, far_y = 0.0, l1 + ax, 0.0
  local far_d = far_x * far_x
  if disc >= 0.0 and c2 ~= 0.0 then
    local q = sqrt(disc)
    if c1 < 0.0 then q = -q end
    q = -(c1 + q) * 0.5
    local r0 = q / c2
    local r1 = q ~= 0.0 and c0 / q or r0
    local x = abs(r0) < abs(r1) and r0 or r1
    if x * x <= dd then
      local y = sqrt(dd - x * x) * bend
      return toward - atan2(y, x), atan2(y / psy, (x - l1) / psx)
    end
  end
  local c = c2 ~= 0.0 and -ax * l1 / (aa - bb) or 2.0
  if c >= -1.0 and c <= 1.0 then
    local t = acos(c)
    local tc, ts = rot(t)
    local x, y = ax * tc + l1, ay * ts
    local d = x * x + y * y
    if d < near_d then near_t, near_x, near_y, near_d = t, x, y, d end
    if d > far_d then far_t, far_x, far_y, far_d = t, x, y, d end
  end
  if dd <= (near_d + far_d) * 0.5 then return toward - atan2(near_y * bend, near_x), near_t * bend end
  return toward - atan2(far_y * bend, far_x), far_t * bend
end

-- ik2d_bone_ik.c's triangle_angles: a1, a2, stretch
local function triangle_angles(l1, l2, gx, gy, dd, def)
  local cosine = (dd - l1 * l1 - l2 * l2) / (2.0 * l1 * l2)
  local a2
  local stretch = 1.0
  if cosine < -1.0 then
    cosine = -1.0
    a2 = PI * def.bend
  elseif cosine > 1.0 then
    cosine = 1.0
    a2 = 0.0
    stretch = reach_scale(sqrt(dd), l1 + l2, 1.0, def.stretch, def.mix)
  else
    a2 = acos(cosine) * def.bend
  end
  local a = l1 + l2 * cosine
  local _, s = rot(a2)
  local b = l2 * s
  return atan2(gy * a - gx * b, gx * a + gy * b), a2, stretch
end

--- a parent bone p and its child c (local transform tables), both
-- inheriting all, under grandparent ga .. gy (ga nil: p is a root);
-- false when one inherits less
function M.two(ga, gb, gc, gd, gx0, gy0, parent_inherit, child_inherit, sx, sy, p, c,
               parent_length, child_length, tx, ty, def)
  if parent_inherit ~= ALL or child_inherit ~= ALL then return false end
  local psx, psy, csx = p.scale_x, p.scale_y, c.scale_x
  local o1, o2, s2, cx, cy = 0.0, 0.0, 1.0, c.x, c.y
  if psx < 0.0 then psx, o1, s2 = -psx, PI, -1.0 end
  if psy < 0.0 then psy, s2 = -psy, -s2 end
  if csx < 0.0 then csx, o2 = -csx, PI end
  local uniform = abs(psx - psy) <= UNIFORM
  if not uniform or def.stretch > 1.0 then cy = 0.0 end
  local wa, wb, wc, wd, wx0, wy0 = place(ga, gb, gc, gd, gx0, gy0, p.x, p.y, p.angle, p.scale_x,
    p.scale_y, p.shear_x, p.shear_y, ALL, sx, sy)
  local fa, fb, fc, fd, fx, fy = turn_frame(ga, gb, gc, gd, gx0, gy0, p.x, p.y, ALL, sx, sy)
  local wx, wy = wa * cx + wb * cy + wx0, wc * cx + wd * cy + wy0
  local dx, dy = solve(fa, fb, fc, fd, fx, fy, wx, wy)
  local l1, l2 = sqrt(dx * dx + dy * dy), child_length * csx
  if l1 < SHORT then
    one_bone(ga, gb, gc, gd, gx0, gy0, ALL, sx, sy, p, parent_length, tx, ty, def.mix, 1.0,
      def.stretch, false)
    c.angle, c.y = 0.0, cy
    return true
  end
  local gx, gy = solve(fa, fb, fc, fd, fx, fy, tx, ty)
  local dd = gx * gx + gy * gy
  if def.softness ~= 0.0 then
    local d = sqrt(dd)
    local softness = def.softness * psx * (csx + 1.0) * 0.5
    local k = soft_shortfall(d, l1 + l2 * psx, softness, def.smooth) / d
    gx, gy = gx - k * gx, gy - k * gy
    dd = gx * gx + gy * gy
  end
  local a1, a2, stretch
  if uniform then
    a1, a2, stretch = triangle_angles(l1, l2 * psx, gx, gy, dd, def)
  else
    a1, a2 = ellipse_angles(l1, psx * l2, psy * l2, psx, psy, gx, gy, dd, def.bend)
    stretch = 1.0
  end
  local q = atan2(cy, cx)
  p.angle = p.angle + wrap(a1 - s2 * q - o1 - p.angle) * def.mix
  p.scale_x = p.scale_x * stretch
  if def.uniform then p.scale_y = p.scale_y * stretch end
  p.shear_x, p.shear_y = 0.0, 0.0
  c.angle = c.angle + wrap(s2 * a2 + q - c.shear_x - o2 - c.angle) * def.mix
  c.y = cy
  return true
end

return M
