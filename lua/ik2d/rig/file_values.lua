-- ik2d.rig.file_values: the checks of ik2d's rig file's reader
-- (ik2d.rig.file_read, ik2d.rig.file_clips) for one value of a decoded
-- table: each reads t[key], takes a JSON null as absent, and refuses a
-- wrong value through check.fail, naming the key and what it must be.

local check = require "ik2d.rig.check"

local V = {}

local fail, show, kind, key_of = check.fail, check.show, check.kind, check.key
local is_absent = check.is_absent
local type, ipairs, format, huge = type, ipairs, string.format, math.huge

--- the inherit modes' names, and their order in a message
V.INHERIT = { all = true, position = true, no_rotation_or_reflection = true, no_scale = true,
  no_scale_or_reflection = true }
V.INHERIT_ORDER = { "all", "position", "no_rotation_or_reflection", "no_scale",
  "no_scale_or_reflection" }


-- A JSON number as a double: * 1.0 keeps -0 (+ 0.0 would not), and makes
-- Lua 5.4's integers (dkjson) doubles.
local function double(v) return v * 1.0 end

-- t[key] as a finite number (infinite: also "inf", "-inf"); default when
-- absent (nil default: required).
-- (label: what the message calls it, default key)
local function number(t, key, default, where, infinite, label)
  local v = t[key]
  label = label or key
  if is_absent(v) then
    if default == nil then fail(where, label .. " is missing") end
    return default
  end
  if infinite and (v == "inf" or v == "-inf") then return v == "inf" and huge or -huge end
  if type(v) ~= "number" then
    fail(where, format("%s must be a number%s, got %s", label, infinite and ' (or "inf")' or "", kind(v)))
  end
  if v ~= v or v == huge or v == -huge then fail(where, label .. " must be finite, got " .. show(v)) end
  return double(v)
end

local function at_least(t, key, default, where, least, above)
  local v = number(t, key, default, where)
  if type(v) == "number" and (v < least or (above and v == least)) then
    fail(where, format("%s must be %s %s, got %s", key, above and ">" or ">=", show(least), show(v)))
  end
  return v
end

local function boolean(t, key, where)
  local v = t[key]
  if is_absent(v) then return nil end
  if type(v) ~= "boolean" then fail(where, key .. " must be true or false, got " .. kind(v)) end
  return v
end

local function text(t, key, where, required)
  local v = t[key]
  if is_absent(v) then
    if required then fail(where, key .. " is missing") end
    return nil
  end
  if type(v) ~= "string" then fail(where, key .. " must be a string, got " .. kind(v)) end
  return v
end

local function choice(t, key, where, choices, order)
  local v = text(t, key, where)
  if v ~= nil and not choices[v] then
    local names = {}
    for i, name in ipairs(order) do names[i] = format("%q", name) end
    fail(where, format("%s must be %s, got %s", key, table.concat(names, ", "), show(v)))
  end
  return v
end

-- n finite numbers (n nil: any count), or nil when absent
local function numbers(t, key, where, n, required, infinite)
  local list = check.array(t, key, where, required)
  if not list then return nil end
  if n and #list ~= n then fail(where, format("%s must hold %d numbers, got %d", key, n, #list)) end
  local out = {}
  for i = 1, #list do out[i] = number(list, i, nil, where, infinite, format("%s[%d]", key, i)) end
  return out
end

-- A list at t[key] of objects, each read by fn(map, i, where).
local function objects(t, key, where, fn, required)
  local list = check.array(t, key, where, required)
  if not list then return nil end
  local out = {}
  for i = 1, #list do out[i] = fn(check.entry(list, i, key_of(where, key)), i) end
  return out
end

-- Refuses a key of t not in known (a mistyped setting).
local function known_keys(t, known, where)
  for _, key in ipairs(check.sorted_keys(t, where)) do
    if not known[key] then fail(where, format("unknown field %s", show(key))) end
  end
end

local function set(list)
  local out = {}
  for _, k in ipairs(list) do out[k] = true end
  return out
end

-- A name of R's names[kind], else the problem: `what "x" is not a <kind>`.
local function name_of(R, kind_name, t, key, where, required)
  local v = text(t, key, where, required)
  if v ~= nil and not R[kind_name][v] then
    fail(where, format("%s %s is not one of the rig's %s", key, show(v), kind_name))
  end
  return v
end

V.double = double
V.number = number
V.at_least = at_least
V.boolean = boolean
V.text = text
V.choice = choice
V.numbers = numbers
V.objects = objects
V.known_keys = known_keys
V.set = set
V.name_of = name_of

return V
