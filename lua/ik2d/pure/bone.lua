--- ik2d.pure.bone: the artist's bone model, as src/ik2d_bone.c (whose
-- header derives it), operation for operation so that both give the same
-- bits.  Matrices are six numbers a, b, c, d, x, y (x axis (a, c), y axis
-- (b, d), origin (x, y)), passed and returned as plain values, never
-- tables: placing a skeleton allocates nothing.  A local transform is x,
-- y, angle, scale_x, scale_y, shear_x, shear_y.  Inherit modes are the C
-- enum's numbers (ik2d.api's order): 0 all, 1 position, 2 no rotation or
-- reflection, 3 no scale, 4 no scale or reflection.
local pmath = require "ik2d.pure.math"

local rot, atan2, sqrt, abs = pmath.rot, pmath.atan2, math.sqrt, math.abs
local PI = pmath.PI

local M = {}

local ALL, POSITION, NO_ROTATION, NO_SCALE, NO_SCALE_OR_REFLECTION = 0, 1, 2, 3, 4
M.ALL, M.POSITION, M.NO_ROTATION_OR_REFLECTION, M.NO_SCALE, M.NO_SCALE_OR_REFLECTION =
  ALL, POSITION, NO_ROTATION, NO_SCALE, NO_SCALE_OR_REFLECTION

local AXIS_VANISHED, DIRECTION_VANISHED = 1e-4, 1e-5
-- the smallest normal double: C's isnormal(x) is MIN_NORMAL <= |x| < inf
local MIN_NORMAL, HUGE = 2.2250738585072014e-308, math.huge

--- the local linear map of rotation angle, scale and shear: a, b, c, d
local function local_linear(angle, sx, sy, hx, hy)
  local xc, xs = rot(angle + hx)
  local yc, ys = xc, xs
  if hy ~= hx then yc, ys = rot(angle + hy) end
  return xc * sx, -ys * sy, xs * sx, yc * sy
end
M.local_linear = local_linear

--- m q of two linear maps (a, b, c, d each)
local function mul(ma, mb, mc, md, qa, qb, qc, qd)
  return ma * qa + mb * qc, ma * qb + mb * qd, mc * qa + md * qc, mc * qb + md * qd
end
M.mul = mul

--- (u, v) that m maps to (x, y), and true; 0, 0 and false when singular
local function solve(a, b, c, d, mx, my, x, y)
  local det = a * d - b * c
  local dx, dy = x - mx, y - my
  if det == 0.0 or not (det - det == 0.0) then return 0.0, 0.0, false end
  return (dx * d - dy * b) / det, (dy * a - dx * c) / det, true
end
M.solve = solve

-- Q of no rotation or reflection, in the unscaled space, and its
-- direction t
local function no_rotation_frame(pa, pb, pc, pd, sx, sy)
  local xa, xc = pa / sx, pc / sy
  local length2 = xa * xa + xc * xc
  if length2 > AXIS_VANISHED then
    -- det P' = det P / (sx sy), divided one scale at a time where that
    -- product is beyond a normal double (tiny or huge skeleton scales)
    local ss, det = sx * sy, pa * pd - pb * pc
    local size = abs(ss)
    local k
    if size >= MIN_NORMAL and size < HUGE then k = abs(det / ss) / length2 else k = abs(det / sx / sy) / length2 end
    return xa, -xc * k, xc, xa * k, atan2(xc, xa)
  end
  local qb, qd = pb / sx, pd / sy
  return 0.0, qb, 0.0, qd, atan2(qd, qb) - 0.5 * PI
end

-- F of the no-scale modes for rotation angle, in the unscaled space
local function no_scale_frame(pa, pb, pc, pd, inherit, angle, sx, sy)
  local rc, rs = rot(angle)
  local ux = (pa * rc + pb * rs) / sx
  local uy = (pc * rc + pd * rs) / sy
  local length, side = sqrt(ux * ux + uy * uy), 1.0
  if length > DIRECTION_VANISHED then
    ux = ux / length
    uy = uy / length
  end
  if inherit == NO_SCALE and (pa * pd - pb * pc < 0.0) ~= ((sx < 0.0) ~= (sy < 0.0)) then
    side = -1.0
  end
  return ux, -side * uy, uy, side * ux
end

--- the world transform of a bone that inherits all under parent pa .. py:
-- P L, its origin the parent's point (x, y); a, b, c, d, x, y
local function place_all(pa, pb, pc, pd, px, py, x, y, angle, lsx, lsy, hx, hy)
  local la, lb, lc, ld = local_linear(angle, lsx, lsy, hx, hy)
  local a, b, c, d = mul(pa, pb, pc, pd, la, lb, lc, ld)
  return a, b, c, d, pa * x + pb * y + px, pc * x + pd * y + py
end
M.place_all = place_all

--- position: S L at the parent's point (x, y); a, b, c, d, x, y
local function place_position(pa, pb, pc, pd, px, py, x, y, angle, lsx, lsy, hx, hy, sx, sy)
  local a, b, c, d = local_linear(angle, lsx, lsy, hx, hy)
  return sx * a, sx * b, sy * c, sy * d, pa * x + pb * y + px, pc * x + pd * y + py
end
M.place_position = place_position

--- the modes that take a frame of the parent's (no rotation or
-- reflection, no scale, no scale or reflection): S F L'; a, b, c, d, x, y
local function place_framed(pa, pb, pc, pd, px, py, x, y, angle, lsx, lsy, hx, hy, inherit, sx,
                            sy)
  local fa, fb, fc, fd, la, lb, lc, ld
  if inherit == NO_ROTATION then
    local t
    fa, fb, fc, fd, t = no_rotation_frame(pa, pb, pc, pd, sx, sy)
    la, lb, lc, ld = local_linear(angle - t, lsx, lsy, hx, hy)
  else
    fa, fb, fc, fd = no_scale_frame(pa, pb, pc, pd, inherit, angle, sx, sy)
    la, lb, lc, ld = local_linear(0.0, lsx, lsy, hx, hy)
  end
  local a, b, c, d = mul(fa, fb, fc, fd, la, lb, lc, ld)
  return sx * a, sx * b, sy * c, sy * d, pa * x + pb * y + px, pc * x + pd * y + py
end
M.place_framed = place_framed

--- the world transform of a bone: its local x, y, angle, scale, shear
-- under parent pa .. py (pa nil: a root, under the skeleton scale sx, sy
-- alone), composed as inherit says; a, b, c, d, x, y
function M.place(pa, pb, pc, pd, px, py, x, y, angle, lsx, lsy, hx, hy, inherit, sx, sy)
  if pa == nil then
    local a, b, c, d = local_linear(angle, lsx, lsy, hx, hy)
    return sx * a, sx * b, sy * c, sy * d, sx * x, sy * y
  end
  if inherit == POSITION then
    return place_position(pa, pb, pc, pd, px, py, x, y, angle, lsx, lsy, hx, hy, sx, sy)
  end
  if inherit == NO_ROTATION or inherit == NO_SCALE or inherit == NO_SCALE_OR_REFLECTION then
    return place_framed(pa, pb, pc, pd, px, py, x, y, angle, lsx, lsy, hx, hy, inherit, sx, sy)
  end
  return place_all(pa, pb, pc, pd, px, py, x, y, angle, lsx, lsy, hx, hy)
end

--- the space a bone turns in (ik2d_bone_turn_frame): a, b, c, d, x, y
-- and the offset the frame's x axis adds
local function turn_frame(pa, pb, pc, pd, px, py, x, y, inherit, sx, sy)
  local ox, oy
  if pa == nil then
    ox, oy = sx * x, sy * y
  else
    ox, oy = pa * x + pb * y + px, pc * x + pd * y + py
  end
  if pa == nil or inherit == POSITION then return sx, 0.0, 0.0, sy, ox, oy, 0.0 end
  if inherit == NO_ROTATION then
    local qa, qb, qc, qd, t = no_rotation_frame(pa, pb, pc, pd, sx, sy)
    return sx * qa, sx * qb, sy * qc, sy * qd, ox, oy, t
  end
  return pa, pb, pc, pd, ox, oy, 0.0
end
M.turn_frame = turn_frame

-- m's rotation, scale x and y, shear y (shear x 0), as ik2d_bone.c's
-- decompose derives
local function decompose(a, b, c, d)
  local sx = sqrt(a * a + c * c)
  local det = a * d - b * c
  local sign = det < 0.0 and -1.0 or 1.0
  local sy = sqrt(b * b + d * d)
  if sx > 0.0 then
    return atan2(c, a), sx, sign * sy, atan2(-(a * b + c * d) * sign, abs(det))
  end
  return atan2(d, b) - 0.5 * PI, 0.0, sy, 0.0
end

-- j^-1 w of linear parts (j singular: w)
local function linear_solve(ja, jb, jc, jd, wa, wb, wc, wd)
  local det = ja * jd - jb * jc
  if det == 0.0 or not (det - det == 0.0) then return wa, wb, wc, wd end
  return (jd * wa - jb * wc) / det, (jd * wb - jb * wd) / det,
    (ja * wc - jc * wa) / det, (ja * wd - jc * wb) / det
end

-- the no-scale modes' local angle, scale and shear of world (a, b, c, d)
local function no_scale_local(pa, pb, pc, pd, a, b, c, d, inherit, sx, sy)
  local u, v, ok = solve(pa, pb, pc, pd, 0.0, 0.0, a, c)
  local angle = ok and atan2(v, u) or 0.0
  local fa, fb, fc, fd = no_scale_frame(pa, pb, pc, pd, inherit, angle, sx, sy)
  local ma, mb, mc, md = linear_solve(fa, fb, fc, fd, a / sx, b / sx, c / sy, d / sy)
  local shear_x, lsx, lsy, rel = decompose(ma, mb, mc, md)
  return angle, lsx, lsy, shear_x, rel + shear_x
end

--- the local transform that places the bone at world a .. y under parent
-- pa .. py (nil: a root), shear x 0 (the no-scale modes: what remains);
-- current_x .. current_angle the bone's local before.  x, y, angle,
-- scale_x, scale_y, shear_x, shear_y
function M.local_from_world(pa, pb, pc, pd, px, py, a, b, c, d, x, y, inherit, sx, sy,
                            current_x, current_y)
  local lx, ly
  if pa == nil then
    lx, ly = x / sx, y / sy
  else
    lx, ly = solve(pa, pb, pc, pd, px, py, x, y)
  end
  if pa ~= nil and (inherit == NO_SCALE or inherit == NO_SCALE_OR_REFLECTION) then
    local angle, lsx, lsy, hx, hy = no_scale_local(pa, pb, pc, pd, a, b, c, d, inherit, sx, sy)
    return lx, ly, angle, lsx, lsy, hx, hy
  end
  local fa, fb, fc, fd, _, _, offset = turn_frame(pa, pb, pc, pd, px, py, current_x, current_y,
    pa == nil and POSITION or inherit, sx, sy)
  local ma, mb, mc, md = linear_solve(fa, fb, fc, fd, a, b, c, d)
  local angle, lsx, lsy, hy = decompose(ma, mb, mc, md)
  return lx, ly, angle + offset, lsx, lsy, 0.0, hy
end

return M
