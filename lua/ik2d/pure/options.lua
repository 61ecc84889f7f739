--- ik2d.pure.options: option tables (ik2d.solver's, ik2d.spring's) read
-- into a def and pushed back, from the rows lua/ik2d/api.lua describes
-- (src/lua/luaik_options.c does the same from the C rows generated from
-- it).  A constructor, set_options and a setter all convert a value here
-- and hand the whole def to the core's check.  Every key is checked
-- first, then the options are read in the description's order, so the
-- first error does not depend on the order a table iterates in.  A
-- number_or_array option's table goes into a slot of the caller's arrays
-- ({ count =, used =, [k] = slot }), which the def then holds.
local B = require "ik2d.pure.binding"
local defs = require "ik2d.pure.defs"

local type, next, rawget, rawset = type, next, rawget, rawset
local rawlen = rawget(_G, "rawlen") or function(t) return #t end
local format = string.format
local arg_error, typename, is_table, check_keys = B.arg_error, B.typename, B.is_table, B.check_keys
local number_at, whole_at, boolean_at, choice_at = B.number_at, B.whole_at, B.boolean_at,
  B.choice_at

local M = {}

--- the option rows of a def described in api: { name, kind, field,
-- choices, x, y, angle, on, array }, fields named as the pure core's flat defs
-- name them; and the rows by name
function M.rows(def)
  local rows, by_name = {}, {}
  for _, f in ipairs(defs.fields(def)) do
    if f.kind then
      local pair = f.point or f.vector or f.ray
      local row = {
        name = f.option or f.lua or f.name, kind = f.kind, field = f.name, required = f.required,
        choices = f.enum and defs.choices(f.enum),
        x = pair and pair[1], y = pair and pair[2], angle = f.ray and f.ray[3], on = f.switch,
        array = f.array,
      }
      rows[#rows + 1] = row
      by_name[row.name] = row
    end
  end
  return rows, by_name
end

-- the keys a point's, a vector's and a ray's table may have (and 1..n):
-- no other, as a collider's table has none but its fields
local POINT_KEYS, NO_KEYS, RAY_NAMES = { x = true, y = true }, {}, { x = true, y = true, angle = true }

-- {x, y} or {x =, y =} (point) or {x, y} (vector) into def
local function read_pair(p, present, arg, o, def, name)
  local point = o.kind == "point"
  if not is_table(p) then
    local got = present and typename(p) or "no value"
    if point then arg_error(arg, format("%s: {x, y} or false expected, got %s", name, got)) end
    arg_error(arg, format("%s: table {x, y} expected, got %s", name, got))
  end
  check_keys(p, arg, name .. ": ", "field", point and POINT_KEYS or NO_KEYS, 2)
  local x, y = rawget(p, 1), rawget(p, 2)
  if point and x == nil then x = rawget(p, "x") end
  if point and y == nil then y = rawget(p, "y") end
  def[o.x] = number_at(x, true, arg, name .. (point and " x" or "[1]"))
  def[o.y] = number_at(y, true, arg, name .. (point and " y" or "[2]"))
end

-- the table p, arrays.count numbers, into a slot of arrays that row o's
-- array field of def then holds
local function read_array(p, arg, o, def, name, arrays)
  if not arrays then
    arg_error(arg, format("%s: number expected, got table", name))
  end
  local count = arrays.count
  if rawlen(p) ~= count then
    arg_error(arg, format("%s: %d numbers expected (one per bone), got %d", name, count, rawlen(p)))
  end
  arrays.used = arrays.used + 1
  local slot = arrays[arrays.used]
  if not slot then
    slot = {}
    arrays[arrays.used] = slot
  end
  for i = 1, count do slot[i] = number_at(rawget(p, i), true, arg, format("%s[%d]", name, i)) end
  def[o.array] = slot
end

-- {x =, y =, angle =} or {x, y, angle} (a ray) into def: a named field
-- first, its position where that is nil
local RAY_KEYS = { "x", "y", "angle" }
local function read_ray(p, present, arg, o, def, name)
  if not is_table(p) then
    local got = present and typename(p) or "no value"
    arg_error(arg, format("%s: {x =, y =, angle =} or false expected, got %s", name, got))
  end
  check_keys(p, arg, name .. ": ", "field", RAY_NAMES, 3)
  for k = 1, 3 do
    local key = RAY_KEYS[k]
    local v = rawget(p, key)
    if v == nil then v = rawget(p, k) end
    def[o[key]] = number_at(v, true, arg, name .. " " .. key)
  end
end

--- converts v (present: passed at all) into row o's field of def, named
-- what (the option's name unless given) in errors; arrays as read_all's
function M.read(v, present, arg, o, def, what, arrays)
  local kind, name = o.kind, what or o.name
  if kind == "number" then
    def[o.field] = number_at(v, present, arg, name)
  elseif kind == "whole" then
    def[o.field] = whole_at(v, present, arg, name)
  elseif kind == "boolean" then
    def[o.field] = boolean_at(v, present, arg, name)
  elseif kind == "choice" then
    def[o.field] = choice_at(v, arg, name, o.choices)
  elseif kind == "angle" then
    def[o.on] = v ~= false
    if v ~= false then def[o.field] = number_at(v, present, arg, name) end
  elseif kind == "point" then
    def[o.field] = v ~= false
    if v ~= false then read_pair(v, present, arg, o, def, name) end
  elseif kind == "number_or_array" then
    if is_table(v) then
      read_array(v, arg, o, def, name, arrays)
    else
      def[o.field] = number_at(v, present, arg, name)
      def[o.array] = nil
    end
  elseif kind == "ray" then
    def[o.field] = v ~= false
    if v ~= false then read_ray(v, present, arg, o, def, name) end
  else
    read_pair(v, present, arg, o, def, name)
  end
end

--- row o's field of def as a Lua value (count: a per-bone array's numbers)
function M.push(o, def, count)
  local kind = o.kind
  if kind == "number_or_array" then
    local values = def[o.array]
    if not values then return def[o.field] end
    local t = {}
    for i = 1, count do t[i] = values[i] end
    return t
  elseif kind == "angle" then
    if def[o.on] then return def[o.field] end
    return false
  elseif kind == "point" or kind == "vector" then
    if kind == "point" and not def[o.field] then return false end
    return { def[o.x], def[o.y] }
  elseif kind == "ray" then
    if not def[o.field] then return false end
    return { x = def[o.x], y = def[o.y], angle = def[o.angle] }
  end
  return def[o.field]
end

--- every option of table t into def (rows and by_name from M.rows);
-- unknown names raise; arrays: where per-bone arrays go (nil: none may)
function M.read_all(t, arg, rows, by_name, def, arrays)
  for key in next, t do
    if type(key) ~= "string" then
      arg_error(arg, format("option names are strings, got %s", typename(key)))
    end
    -- the message shows the name as C's %s does, cut at a NUL
    if not by_name[key] then arg_error(arg, format("unknown option '%s'", B.c_string(key))) end
  end
  for k = 1, #rows do
    local o = rows[k]
    local v = rawget(t, o.name)
    if v ~= nil then M.read(v, true, arg, o, def, nil, arrays) end
  end
end

--- the plain fields of a bone table t (rows from M.rows) into def, each
-- named "<owner><field>" in errors; a required row is read even when nil
function M.read_fields(t, arg, owner, rows, def)
  for k = 1, #rows do
    local o = rows[k]
    local v = rawget(t, o.name)
    if v ~= nil or o.required then M.read(v, true, arg, o, def, owner .. o.name) end
  end
end

--- every option's value into t; a point, vector, ray or per-bone array
-- into the table t holds under its name already, when there is one (no
-- garbage for a reused t); count: a per-bone array's numbers
function M.push_all(t, rows, def, count)
  for k = 1, #rows do
    local o = rows[k]
    local pair = o.kind == "vector" or (o.kind == "point" and def[o.field])
    local ray = o.kind == "ray" and def[o.field]
    local array = o.kind == "number_or_array" and def[o.array]
    local old = (pair or ray or array) and rawget(t, o.name)
    if array and is_table(old) then
      for i = 1, count do rawset(old, i, array[i]) end
      B.trim(old, count + 1)
    elseif ray and is_table(old) then
      rawset(old, "x", def[o.x])
      rawset(old, "y", def[o.y])
      rawset(old, "angle", def[o.angle])
    elseif pair and is_table(old) then
      rawset(old, 1, def[o.x])
      rawset(old, 2, def[o.y])
    else
      rawset(t, o.name, M.push(o, def, count))
    end
  end
  return t
end

return M
