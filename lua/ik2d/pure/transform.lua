--- ik2d.pure.transform: a transform constraint's maths, as
-- src/ik2d_transform.c (whose header derives it), operation for
-- operation.  mix and offset are tables { rotate, x, y, scale_x, scale_y,
-- shear_y }; a world map is a table { a, b, c, d, x, y } and a local
-- transform { x, y, angle, scale_x, scale_y, shear_x, shear_y }, both
-- changed in place (the skeleton's own records).
local pmath = require "ik2d.pure.math"

local atan2, wrap, rot = pmath.atan2, pmath.wrap, pmath.rot
local sqrt = math.sqrt
local PI = pmath.PI

local M = {}

local function turn_axes(m, rc, rs)
  local a, b, c, d = m.a, m.b, m.c, m.d
  m.a = rc * a - rs * c
  m.b = rc * b - rs * d
  m.c = rs * a + rc * c
  m.d = rs * b + rc * d
end

local function y_axis_at(m, angle)
  local length = sqrt(m.b * m.b + m.d * m.d)
  local rc, rs = rot(angle)
  m.b = rc * length
  m.d = rs * length
end

local function x_length(m) return sqrt(m.a * m.a + m.c * m.c) end
local function y_length(m) return sqrt(m.b * m.b + m.d * m.d) end

local function axis_factor(s, t, offset, mix, relative)
  if relative then return (t - 1.0 + offset) * mix + 1.0 end
  if s ~= 0.0 then return (s + (t - s + offset) * mix) / s end
  return 1.0
end

local function world_rotate(t, offset, mix, relative, m)
  local turn = atan2(t.c, t.a) + offset
  if not relative then turn = turn - atan2(m.c, m.a) end
  turn_axes(m, rot(wrap(turn) * mix))
end

local function world_shear(t, offset, mix, relative, m)
  local y_angle = atan2(m.d, m.b)
  local target = atan2(t.d, t.b) - atan2(t.c, t.a)
  if relative then
    y_axis_at(m, y_angle + (wrap(target) - 0.5 * PI + offset) * mix)
  else
    local own = y_angle - atan2(m.c, m.a)
    y_axis_at(m, y_angle + (wrap(target - own) + offset) * mix)
  end
end

--- world space: bone's map toward (absolute) or by (relative) target's
function M.world(mix, offset, relative, target, m)
  local reflect = target.a * target.d - target.b * target.c > 0.0 and 1.0 or -1.0
  if mix.rotate ~= 0.0 then world_rotate(target, offset.rotate * reflect, mix.rotate, relative, m) end
  if mix.x ~= 0.0 or mix.y ~= 0.0 then
    local x = target.a * offset.x + target.b * offset.y + target.x
    local y = target.c * offset.x + target.d * offset.y + target.y
    if not relative then x, y = x - m.x, y - m.y end
    m.x = m.x + x * mix.x
    m.y = m.y + y * mix.y
  end
  if mix.scale_x ~= 0.0 then
    local f = axis_factor(x_length(m), x_length(target), offset.scale_x, mix.scale_x, relative)
    m.a, m.c = m.a * f, m.c * f
  end
  if mix.scale_y ~= 0.0 then
    local f = axis_factor(y_length(m), y_length(target), offset.scale_y, mix.scale_y, relative)
    m.b, m.d = m.b * f, m.d * f
  end
  if mix.shear_y ~= 0.0 then world_shear(target, offset.shear_y * reflect, mix.shear_y, relative, m) end
end

--- local space: bone's local transform toward (absolute) or by
-- (relative) the target's
function M.localwise(mix, offset, relative, t, l)
  if relative then
    l.angle = l.angle + (t.angle + offset.rotate) * mix.rotate
    l.x = l.x + (t.x + offset.x) * mix.x
    l.y = l.y + (t.y + offset.y) * mix.y
    l.scale_x = l.scale_x * ((t.scale_x - 1.0 + offset.scale_x) * mix.scale_x + 1.0)
    l.scale_y = l.scale_y * ((t.scale_y - 1.0 + offset.scale_y) * mix.scale_y + 1.0)
    l.shear_y = l.shear_y + (t.shear_y + offset.shear_y) * mix.shear_y
    return
  end
  if mix.rotate ~= 0.0 then
    l.angle = l.angle + wrap(t.angle - l.angle + offset.rotate) * mix.rotate
  end
  l.x = l.x + (t.x - l.x + offset.x) * mix.x
  l.y = l.y + (t.y - l.y + offset.y) * mix.y
  l.scale_x = l.scale_x + (t.scale_x - l.scale_x + offset.scale_x) * mix.scale_x
  l.scale_y = l.scale_y + (t.scale_y - l.scale_y + offset.scale_y) * mix.scale_y
  if mix.shear_y ~= 0.0 then
    l.shear_y = l.shear_y + wrap(t.shear_y - l.shear_y + offset.shear_y) * mix.shear_y
  end
end

return M
