-- ik2d.rig.dragonbones_data: what the DragonBones reader's parts share:
-- places in the file and the one error a malformed file raises
-- (`file: where: problem`), checked reads of the decoded JSON values, and
-- the runtime's own arithmetic (its rounding of key values to 32-bit
-- floats, JavaScript's Math.round and % and its angle normalisation), so
-- that a read rig plays to the bits the DragonBones runtime plays.
-- Pure Lua, no state between calls.

local data = {}

local floor, abs, huge, fmod, pi = math.floor, math.abs, math.huge, math.fmod, math.pi
local format, concat = string.format, table.concat
-- the core's own sine and cosine: the same bits on every platform
local core_math = require "ik2d.pure.math"
local sin, cos = core_math.sin, core_math.cos

-- DragonBonesJS's Transform.DEG_RAD and PI_D (doubles, as it computes them)
data.DEG_RAD = pi / 180.0
data.PI_D = pi * 2.0

-- ------------------------------------------------------------------
-- Places and errors
-- ------------------------------------------------------------------

--- A place in the file: `key[index] "name"` below parent (index 1-based,
-- index and name optional). Made as the reader walks; written out only
-- when an error names it.
function data.at(parent, key, index, name)
  return { parent = parent, key = key, index = index, name = name }
end

local function segment(place)
  local s = place.key
  if place.index then s = format("%s[%d]", s, place.index) end
  if place.name then s = format("%s %q", s, place.name) end
  return s
end

function data.describe(place)
  local parts = {}
  while place do
    table.insert(parts, 1, segment(place))
    place = place.parent
  end
  if #parts == 0 then return "the file" end
  return concat(parts, " / ")
end

--- Raise the reader's error: `file: where: problem`. The reader's entry
-- catches it and raises the text at its caller's line.
function data.fail(ctx, place, problem, ...)
  if select("#", ...) > 0 then problem = format(problem, ...) end
  error({ dragonbones_error = ctx.file .. ": " .. data.describe(place) .. ": " .. problem }, 0)
end

--- A value as an error message shows it.
function data.show(v)
  local t = type(v)
  if t == "string" then return format("%q", v) end
  if t == "number" then
    if v ~= v then return "nan" end
    return format("%.14g", v)
  end
  if t == "table" then return "a table" end
  if t == "userdata" then return "null" end
  return tostring(v)
end

-- ------------------------------------------------------------------
-- Checked reads
-- ------------------------------------------------------------------

-- JSON null: absent (dkjson's default) or cjson's null (a light userdata).
local function is_null(v)
  return v == nil or type(v) == "userdata"
end
data.is_null = is_null

local function kind(v)
  local t = type(v)
  if t == "table" then return "an object or array" end
  if t == "string" then return "a string" end
  if t == "boolean" then return "a boolean" end
  return t
end

--- obj[key] as a number (default when absent or null): finite. A string
-- that spells a number counts as it (the runtime reads +value; older
-- exporters wrote some numbers as strings).
function data.number(ctx, place, obj, key, default)
  local v = obj[key]
  if is_null(v) then return default end
  if type(v) == "string" and tonumber(v) then v = tonumber(v) end
  if type(v) ~= "number" then
    data.fail(ctx, place, "%s must be a number, not %s", key, kind(v))
  end
  if v ~= v or v == huge or v == -huge then
    data.fail(ctx, place, "%s must be finite, not %s", key, data.show(v))
  end
  return v
end

--- obj[key] as a whole number >= min (default when absent or null).
function data.whole(ctx, place, obj, key, default, min)
  local v = data.number(ctx, place, obj, key, default)
  if v ~= nil and (v ~= floor(v) or v < min) then
    if min == -huge then data.fail(ctx, place, "%s must be a whole number, not %s", key, data.show(v)) end
    data.fail(ctx, place, "%s must be a whole number >= %d, not %s", key, min, data.show(v))
  end
  return v
end

--- obj[key] as a string (default when absent or null).
function data.string(ctx, place, obj, key, default)
  local v = obj[key]
  if is_null(v) then return default end
  if type(v) ~= "string" then
    data.fail(ctx, place, "%s must be a string, not %s", key, kind(v))
  end
  return v
end

-- the strings the runtime's _getBoolean reads as false
local FALSE_STRINGS = { ["0"] = true, ["NaN"] = true, [""] = true, ["false"] = true,
                        ["null"] = true, ["undefined"] = true }

--- obj[key] as a boolean: true or false, or as the runtime reads older
-- exporters' strings ("false", "0", ... are false, other strings true)
-- and numbers (0 false).
function data.boolean(ctx, place, obj, key, default)
  local v = obj[key]
  if is_null(v) then return default end
  local t = type(v)
  if t == "string" then return not FALSE_STRINGS[v] end
  if t == "number" then return v ~= 0 end
  if t ~= "boolean" then
    data.fail(ctx, place, "%s must be true or false, not %s", key, data.show(v))
  end
  return v
end

--- obj[key] as an object (a table; default when absent or null).
function data.object(ctx, place, obj, key, default)
  local v = obj[key]
  if is_null(v) then return default end
  if type(v) ~= "table" then
    data.fail(ctx, place, "%s must be an object, not %s", key, kind(v))
  end
  return v
end

--- obj[key] as an array: a table whose keys are 1..n (default when absent
-- or null); returns it and n. With holes_allowed, null items are kept as
-- holes (n is then the last index present).
function data.array(ctx, place, obj, key, default, holes_allowed)
  local v = obj[key]
  if is_null(v) then return default, default and #default or 0 end
  if type(v) ~= "table" then
    data.fail(ctx, place, "%s must be an array, not %s", key, kind(v))
  end
  local n, count = 0, 0
  for k in pairs(v) do
    if type(k) ~= "number" or k < 1 or k ~= floor(k) then
      data.fail(ctx, place, "%s must be an array, not an object", key)
    end
    count = count + 1
    if k > n then n = k end
  end
  if n ~= count and not holes_allowed then
    for i = 1, n do
      if is_null(v[i]) then data.fail(ctx, place, "%s[%d] is null", key, i) end
    end
  end
  return v, n
end

--- Every item of an array of numbers checked finite (and whole when asked).
function data.numbers(ctx, place, obj, key, whole)
  local list, n = data.array(ctx, place, obj, key, nil)
  if list == nil then return nil, 0 end
  for i = 1, n do
    local v = list[i]
    if type(v) ~= "number" or v ~= v or v == huge or v == -huge or (whole and v ~= floor(v)) then
      data.fail(ctx, place, "%s[%d] must be a %s, not %s", key, i,
        whole and "whole number" or "finite number", data.show(v))
    end
  end
  return list, n
end

-- ------------------------------------------------------------------
-- The runtime's arithmetic
-- ------------------------------------------------------------------

-- 2^128 - 2^103: from here on a double rounds to infinity as a float
local FLOAT_OVERFLOW = 2.0 ^ 128 - 2.0 ^ 103

--- x rounded to the nearest 32-bit float (ties to even), as storing it
-- in a Float32Array does; the result is that float as a double. Exact
-- arithmetic only: scaling by powers of two and one floor.
function data.f32(x)
  if x ~= x or x == 0 or x == huge or x == -huge then return x end
  local a, sign = abs(x), 1.0
  if x < 0 then sign = -1.0 end
  if a >= FLOAT_OVERFLOW then return sign * huge end
  -- e with 2^e <= a < 2^(e+1), from a first guess corrected both ways
  local e = floor(math.log(a) / math.log(2.0))
  local p = 2.0 ^ e
  while p > a do e, p = e - 1, p * 0.5 end
  while p * 2.0 <= a do e, p = e + 1, p * 2.0 end
  if e < -126 then e = -126 end   -- subnormal floats: a fixed step
  local step = 2.0 ^ (e - 23)
  local q = a / step
  local r = floor(q)
  local rest = q - r
  if rest > 0.5 or (rest == 0.5 and r % 2 == 1) then r = r + 1 end
  return sign * (r * step)
end

--- JavaScript's Math.round: the nearest whole number, halves up.
function data.round(x)
  local f = floor(x)
  if x - f >= 0.5 then return f + 1 end
  return f
end

--- A whole number stored in an Int16Array: wrapped into [-32768, 32767].
function data.int16(v)
  v = v % 65536
  if v >= 32768 then v = v - 65536 end
  return v
end

--- DragonBonesJS's Transform.normalizeRadian: (v + pi) % 2pi, with
-- JavaScript's % (the sign of the dividend: C's fmod), moved into
-- (-pi, pi].
function data.normalize_radian(v)
  v = fmod(v + pi, pi * 2.0)
  if v > 0.0 then return v - pi end
  return v + pi
end

-- ------------------------------------------------------------------
-- Transforms
-- ------------------------------------------------------------------

--- A transform object read as DragonBonesJS's _parseTransform reads it:
-- x, y, rotation, skew (radians), scale_x, scale_y.
function data.read_transform(ctx, place, raw)
  local t = data.object(ctx, place, raw, "transform", nil)
  if t == nil then return 0.0, 0.0, 0.0, 0.0, 1.0, 1.0 end
  local where, number = data.at(place, "transform"), data.number
  local x = number(ctx, where, t, "x", 0.0)
  local y = number(ctx, where, t, "y", 0.0)
  local rotation, skew = 0.0, 0.0
  if not is_null(t.rotate) or not is_null(t.skew) then
    rotation = data.normalize_radian(number(ctx, where, t, "rotate", 0.0) * data.DEG_RAD)
    skew = data.normalize_radian(number(ctx, where, t, "skew", 0.0) * data.DEG_RAD)
  elseif not is_null(t.skX) or not is_null(t.skY) then
    rotation = data.normalize_radian(number(ctx, where, t, "skY", 0.0) * data.DEG_RAD)
    skew = data.normalize_radian(number(ctx, where, t, "skX", 0.0) * data.DEG_RAD) - rotation
  end
  return x + 0.0, y + 0.0, rotation + 0.0, skew + 0.0,
    number(ctx, where, t, "scX", 1.0) + 0.0, number(ctx, where, t, "scY", 1.0) + 0.0
end

--- The runtime's Transform.toMatrix: { a, b (x axis), c, d (y axis),
-- tx, ty }, which maps (x, y) to (a x + c y + tx, b x + d y + ty).
-- With ik2d's sine and cosine (within a rounding of JavaScript's).
function data.transform_matrix(x, y, rotation, skew, scale_x, scale_y)
  local a, b = 1.0, 0.0
  if rotation ~= 0.0 then a, b = cos(rotation), sin(rotation) end
  local c, d = -b, a
  if skew ~= 0.0 then c, d = -sin(skew + rotation), cos(skew + rotation) end
  if scale_x ~= 1.0 then a, b = a * scale_x, b * scale_x end
  if scale_y ~= 1.0 then c, d = c * scale_y, d * scale_y end
  return { a, b, c, d, x, y }
end

--- The runtime's Matrix.invert (a singular matrix gives what it gives).
function data.invert(m)
  local a, b, c, d, tx, ty = m[1], m[2], m[3], m[4], m[5], m[6]
  if b == 0.0 and c == 0.0 then
    if a == 0.0 or d == 0.0 then return { 0.0, 0.0, 0.0, d, 0.0, 0.0 } end
    a, d = 1.0 / a, 1.0 / d
    return { a, 0.0, 0.0, d, -a * tx, -d * ty }
  end
  local det = a * d - b * c
  if det == 0.0 then return { 1.0, 0.0, 0.0, 1.0, 0.0, 0.0 } end
  det = 1.0 / det
  local k, nb, nc, nd = d * det, -b * det, -c * det, a * det
  return { k, nb, nc, nd, -(k * tx + nc * ty), -(nb * tx + nd * ty) }
end

--- m applied to (x, y): with its translation, or as a delta (without).
function data.transform_point(m, x, y, delta)
  local rx, ry = m[1] * x + m[3] * y, m[2] * x + m[4] * y
  if not delta then rx, ry = rx + m[5], ry + m[6] end
  return rx, ry
end

--- A number as a float (Lua 5.4 keeps JSON's whole numbers as integers;
-- the description holds doubles).
function data.float(v)
  return v + 0.0
end

return data
