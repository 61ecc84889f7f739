-- ik2d.rig.check: what the rig readers share to check a decoded file and
-- refuse it with ONE error "<file>: <where>: <problem>".
--
-- A reader raises check.fail(where, problem) anywhere inside
-- check.run(file, fn, ...), which turns it into that message; any other
-- error (a bug) passes through as it was.  `where` is the place in the
-- file as a path of keys and 1-based indices (`bones[12] "arm"`,
-- `animations.walk.bones.arm.rotate[3]`); readers build it only for the
-- level they are at and add the index of a key when they fail, so a large
-- file costs no string a key.  The field checks read `t[key]`, take a JSON
-- null as absent, and name the key and what it must be.

local json = require "ik2d.rig.json"

local check = {}

local type, floor, huge, format = type, math.floor, math.huge, string.format
local is_null = json.is_null
local tointeger = math.tointeger or function(v) return v end

--- check.is_absent(v): nil or a JSON null.
check.is_absent = is_null

local Problem = {}

-- A place whose text is made only when a check fails: a key of a long
-- timeline names itself by setting the index of its timeline's place.
local Place = {}
Place.__index = Place

--- check.place(where [, key]) -> a place; place.index = i names
-- `where.key[i]` (`where[i]` without key).
function check.place(where, key)
  return setmetatable({ where = where, key = key, index = 0 }, Place)
end

function Place:text()
  local prefix = self.where
  if self.key then prefix = check.key(prefix, self.key) end
  return format("%s[%d]", prefix, self.index)
end

-- where as text: a string, or a place
local function text_of(where)
  if type(where) == "table" then return where:text() end
  return where
end
check.text = text_of

--- check.fail(where, problem): refuse the file (raises); where is a
-- string or a place.
function check.fail(where, problem)
  error(setmetatable({ where = text_of(where), problem = problem }, Problem), 0)
end
local fail = check.fail

--- check.run(file, fn, ...) -> true, fn's first result; or false and
-- "<file>: <where>: <problem>" when fn refused the file.
function check.run(file, fn, ...)
  local ok, result = pcall(fn, ...)
  if ok then return true, result end
  if getmetatable(result) == Problem then
    if result.where == "" then return false, file .. ": " .. result.problem end
    return false, file .. ": " .. result.where .. ": " .. result.problem
  end
  error(result, 0)
end

--- check.show(v): a value as a message shows it: numbers by the shortest
-- text that reads back the same, strings quoted, others by kind.
function check.show(v)
  local t = type(v)
  if t == "number" then
    if v ~= v then return "nan" end
    if v == huge then return "inf" elseif v == -huge then return "-inf" end
    if v == floor(v) and v > -2 ^ 53 and v < 2 ^ 53 then return format("%d", v) end
    for digits = 15, 17 do
      local text = format("%." .. digits .. "g", v)
      if tonumber(text) == v then return text end
    end
  elseif t == "string" then
    if #v > 40 then v = v:sub(1, 37) .. "..." end
    return format("%q", v)
  end
  return check.kind(v)
end
local show = check.show

--- check.kind(v): what a decoded value is: "null", "number", "string",
-- "boolean", "array", "object" (an empty table is "empty").
function check.kind(v)
  if is_null(v) then return "null" end
  local t = type(v)
  if t ~= "table" then return t end
  if next(v) == nil then return "empty" end
  if v[1] ~= nil then return "array" end
  return "object"
end
local kind = check.kind

--- check.name(s): a name as a `where` shows it: plain when it is a word
-- that reads unambiguously after a dot, else quoted in brackets.
function check.name(s)
  if type(s) == "string" and s:match("^[%a_][%w_%-]*$") then return s end
  return "[" .. show(s) .. "]"
end

--- check.key(where, key): where .. "." .. key, or key alone at the top.
function check.key(where, key)
  local name = check.name(key)
  if where == "" then return name end
  if name:sub(1, 1) == "[" then return where .. name end
  return where .. "." .. name
end

--- check.item(where, i [, name]): `where[i]`, and ` "name"` when given.
function check.item(where, i, name)
  if type(name) == "string" then return format("%s[%d] %s", where, i, show(name)) end
  return format("%s[%d]", where, i)
end

local function wrong(where, key, what, v)
  fail(where, format("%s must be %s, got %s", key, what, kind(v)))
end

--- check.number(t, key, default, where) -> a finite number, or default
-- when absent (nil default: required).
function check.number(t, key, default, where)
  local v = t[key]
  if is_null(v) then
    if default == nil then fail(where, key .. " is missing") end
    return default + 0.0
  end
  if type(v) ~= "number" then wrong(where, key, "a number", v) end
  if v ~= v or v == huge or v == -huge then fail(where, key .. " must be finite, got " .. show(v)) end
  return v + 0.0
end
local number = check.number

--- check.nonnegative(t, key, default, where) -> a finite number >= 0.
function check.nonnegative(t, key, default, where)
  local v = number(t, key, default, where)
  if v < 0 then fail(where, key .. " must be >= 0, got " .. show(v)) end
  return v
end

--- check.whole(t, key, default, where, min, max) -> an integer in
-- [min, max] (either bound may be nil).
function check.whole(t, key, default, where, min, max)
  local v = t[key]
  if is_null(v) then
    if default == nil then fail(where, key .. " is missing") end
    return default
  end
  if type(v) ~= "number" then wrong(where, key, "a whole number", v) end
  -- a double first: on Lua 5.4 dkjson keeps a large whole number an
  -- integer where cjson gives the double nearest it
  v = v + 0.0
  if v ~= floor(v) then fail(where, key .. " must be a whole number, got " .. show(v)) end
  if min and v < min then fail(where, format("%s must be >= %s, got %s", key, show(min), show(v))) end
  if max and v > max then fail(where, format("%s must be <= %s, got %s", key, show(max), show(v))) end
  return tointeger(v)
end

--- check.string(t, key, default, where) -> a string, or default when
-- absent (nil default: required).
function check.string(t, key, default, where)
  local v = t[key]
  if is_null(v) then
    if default == nil then fail(where, key .. " is missing") end
    return default
  end
  if type(v) ~= "string" then wrong(where, key, "a string", v) end
  return v
end

--- check.optional_string(t, key, where) -> a string or nil.
function check.optional_string(t, key, where)
  local v = t[key]
  if is_null(v) then return nil end
  if type(v) ~= "string" then wrong(where, key, "a string", v) end
  return v
end

--- check.boolean(t, key, default, where) -> true or false.
function check.boolean(t, key, default, where)
  local v = t[key]
  if is_null(v) then return default end
  if type(v) ~= "boolean" then wrong(where, key, "true or false", v) end
  return v
end

--- check.choice(t, key, default, choices, where) -> choices[value]: the
-- value must be one of choices' keys (listed in the message in `order`).
function check.choice(t, key, default, choices, order, where)
  local v = t[key]
  if is_null(v) then v = default end
  local mapped = choices[v]
  if mapped == nil then
    local names = {}
    for i, name in ipairs(order) do names[i] = format("%q", name) end
    fail(where, format("%s must be %s, got %s", key, table.concat(names, ", "),
                       type(v) == "string" and show(v) or kind(v)))
  end
  return mapped
end

--- check.is_object(v), check.is_array(v): a decoded JSON object or array
-- (an empty table is either).
function check.is_object(v)
  return type(v) == "table" and not is_null(v) and v[1] == nil
end
function check.is_array(v)
  return type(v) == "table" and not is_null(v) and (v[1] ~= nil or next(v) == nil)
end

--- check.object(t, key, where [, required]) -> the object at t[key], or
-- nil when absent and not required.
function check.object(t, key, where, required)
  local v = t[key]
  if is_null(v) then
    if required then fail(where, key .. " is missing") end
    return nil
  end
  if not check.is_object(v) then wrong(where, key, "an object", v) end
  return v
end

--- check.array(t, key, where [, required]) -> the array at t[key], or nil.
function check.array(t, key, where, required)
  local v = t[key]
  if is_null(v) then
    if required then fail(where, key .. " is missing") end
    return nil
  end
  if not check.is_array(v) then wrong(where, key, "an array", v) end
  return v
end

--- check.entry(list, i, where) -> list[i], which must be an object
-- (where names the list: the message names `where[i]`).
function check.entry(list, i, where)
  local v = list[i]
  if not check.is_object(v) then
    fail(format("%s[%d]", text_of(where), i), "must be an object, got " .. kind(v))
  end
  return v
end

--- check.numbers(t, key, where [, required]) -> an array of finite
-- numbers (a copy, doubles), or nil when absent and not required.
function check.numbers(t, key, where, required)
  local list = check.array(t, key, where, required)
  if not list then return nil end
  local out = {}
  for i = 1, #list do
    local v = list[i]
    if type(v) ~= "number" then
      fail(where, format("%s[%d] must be a number, got %s", key, i, kind(v)))
    end
    if v ~= v or v == huge or v == -huge then
      fail(where, format("%s[%d] must be finite, got %s", key, i, show(v)))
    end
    out[i] = v + 0.0
  end
  return out
end

--- check.sorted_keys(t, where) -> t's keys, sorted: an object's entries
-- are read in one order on every Lua, so the same file always gets the
-- same first error and the same lists.
function check.sorted_keys(t, where)
  local keys = {}
  for k in pairs(t) do
    if type(k) ~= "string" then fail(where, "keys must be names, got " .. kind(k) .. " " .. show(k)) end
    keys[#keys + 1] = k
  end
  table.sort(keys)
  return keys
end

--- check.unique(seen, name, where, list_name): refuse a name given twice
-- in one list; seen maps names to their 1-based index.
function check.unique(seen, name, index, where, list_name)
  local first = seen[name]
  if first then fail(where, format("name %s is already %s[%d]'s", show(name), list_name, first)) end
  seen[name] = index
end

return check
