-- ik2d.rig.spine_units: what Spine 4.2's numbers and words mean in the
-- rig description's units (radians, the description's choice names), in
-- one place for the Spine reader's modules.

local check = require "ik2d.rig.check"

local units = {}

local fail, show, kind = check.fail, check.show, check.kind
local tonumber, type = tonumber, type

--- units.DEG: radians a degree, as Spine's runtimes convert: degRad =
-- PI / 180 with PI written 3.1415927 (../shared/FORMATS.md).  That PI is
-- 4.6e-8 above pi (the 32-bit float nearest pi, 3.14159274..., would be
-- 8.7e-8 above), so 90 degrees come out 2.3e-8 rad past a right angle, the
-- offset FORMATS.md measured on the runtimes' y axes.  Every angle of the
-- description (bone angles, shears, attachment rotations, constraint
-- offsets, rotate and shear keys) is degrees times DEG.
units.DEG = 3.1415927 / 180

--- units.Y_AXIS: what the description's shear_y adds to Spine's shearY.
-- Spine's bone y axis points at (rotation + 90 + shearY) degrees, each
-- converted with DEG:  b = cos((r + 90 + hy) DEG) sy, d = sin(...) sy.
-- ik2d's skeleton model writes the y axis at angle + pi/2 + shear_y with
-- angle = r DEG and pi/2 the double nearest a right angle, so matching
-- the two needs  shear_y = hy DEG + (90 DEG - pi/2):  the y axis keeps
-- Spine's 2.3e-8 rad, which is what a setup shear of 0 then carries.
-- Shear keys are added to the setup value in radians (hy DEG), the offset
-- being in the setup value already; the x axis (r + hx) needs none.
units.Y_AXIS = 90 * units.DEG - math.pi / 2

--- units.INHERIT: Spine's bone inherit words to the description's.
units.INHERIT = {
  normal = "all", onlyTranslation = "position", noRotationOrReflection = "no_rotation_or_reflection",
  noScale = "no_scale", noScaleOrReflection = "no_scale_or_reflection",
}
units.INHERIT_ORDER = { "normal", "onlyTranslation", "noRotationOrReflection", "noScale", "noScaleOrReflection" }

--- units.BLEND: a slot's blend modes (the same words).
units.BLEND = { normal = "normal", additive = "additive", multiply = "multiply", screen = "screen" }
units.BLEND_ORDER = { "normal", "additive", "multiply", "screen" }

--- units.color(text, digits, where, key) -> r, g, b[, a]: a Spine
-- colour, "RRGGBBAA" (digits 8) or "RRGGBB" (digits 6), each byte / 255.
function units.color(text, digits, where, key)
  if type(text) ~= "string" then
    fail(where, ("%s must be a colour \"%s\", got %s"):format(key, digits == 8 and "RRGGBBAA" or "RRGGBB",
                                                            kind(text)))
  end
  if #text ~= digits or not text:match("^%x+$") then
    fail(where, ("%s must be %d hexadecimal digits (%s), got %s"):format(key, digits,
         digits == 8 and "RRGGBBAA" or "RRGGBB", show(text)))
  end
  local r = tonumber(text:sub(1, 2), 16) / 255
  local g = tonumber(text:sub(3, 4), 16) / 255
  local b = tonumber(text:sub(5, 6), 16) / 255
  if digits == 6 then return r, g, b end
  return r, g, b, tonumber(text:sub(7, 8), 16) / 255
end

--- units.rgba(t, key, where) -> { r, g, b, a } from t[key] "RRGGBBAA",
-- white when absent.
function units.rgba(t, key, where)
  local text = t[key]
  if check.is_absent(text) then return { 1.0, 1.0, 1.0, 1.0 } end
  local r, g, b, a = units.color(text, 8, where, key)
  return { r, g, b, a }
end

--- units.rgb(t, key, where) -> { r, g, b } from t[key] "RRGGBB", or nil
-- when absent.
function units.rgb(t, key, where)
  local text = t[key]
  if check.is_absent(text) then return nil end
  local r, g, b = units.color(text, 6, where, key)
  return { r, g, b }
end

return units
