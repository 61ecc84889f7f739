-- ik2d.rig.json: JSON text to Lua tables through a library made for it.
--
-- lua-cjson when it loads (C, the fastest), else the system's dkjson
-- (lua-dkjson, pure Lua), else the copy of dkjson shipped in
-- ik2d/vendor/ (a .love, a game without a package manager).  Every
-- decoder gives the same tables: objects and arrays as plain tables with
-- no metatable, numbers equal to the doubles strtod gives (on Lua 5.4
-- dkjson makes whole numbers integers, which the readers turn into
-- doubles: ik2d.rig.check), strings as they are, and JSON null as a value
-- json.is_null knows (cjson's own null, which cjson makes without a pass
-- over the tables, or json.null), which the readers take as an absent
-- field; a null in an array keeps its place, so the array keeps its length.

local json = { _VERSION = require("ik2d.api").version }

--- json.null: what a JSON null decodes to (a unique value).
json.null = setmetatable({}, { __tostring = function() return "null" end, __name = "ik2d.rig.json.null" })
local null = json.null

-- cjson's null: a light userdata (NULL), the same for every copy of cjson
local cjson_null
do
  local ok, cjson = pcall(require, "cjson")
  if ok and type(cjson) == "table" then cjson_null = cjson.null end
end

local function load_cjson()
  local ok, cjson = pcall(require, "cjson")
  if not ok or type(cjson) ~= "table" or type(cjson.new) ~= "function" then return nil end
  -- an instance of our own: its settings do not change the game's cjson
  local instance = cjson.new()
  -- JSON has no nan, inf or hexadecimal numbers: refuse them as dkjson does
  if instance.decode_invalid_numbers then instance.decode_invalid_numbers(false) end
  local decode = instance.decode
  return function(text)
    local ok_decode, value = pcall(decode, text)
    if not ok_decode then return nil, tostring(value) end
    return value
  end
end

local function dkjson_decoder(dkjson)
  local decode = dkjson.decode
  return function(text)
    -- nil, nil: no metatables on objects and arrays
    local value, position, message = decode(text, 1, null, nil, nil)
    if message then return nil, message end
    -- dkjson stops after the first value: anything after it but blanks is an error
    local rest = text:find("%S", position)
    if rest then return nil, ("text after the JSON value at character %d"):format(rest) end
    return value
  end
end

local function load_dkjson(module)
  local ok, dkjson = pcall(require, module)
  if not ok or type(dkjson) ~= "table" or type(dkjson.decode) ~= "function" then return nil end
  return dkjson_decoder(dkjson)
end

--- json.decoder(name) -> decode function, or nil when that library does
-- not load here.  name: "cjson", "dkjson" (the system's), "vendored"
-- (ik2d's copy of dkjson).  A decode function takes a JSON text and
-- returns the value, or nil and a message.
function json.decoder(name)
  if name == "cjson" then return load_cjson() end
  if name == "dkjson" then return load_dkjson("dkjson") end
  if name == "vendored" then return load_dkjson("ik2d.vendor.dkjson") end
  error("ik2d.rig.json: decoder: name must be \"cjson\", \"dkjson\" or \"vendored\", got " .. tostring(name), 2)
end

local chosen_name, chosen
for _, name in ipairs({ "cjson", "dkjson", "vendored" }) do
  chosen = json.decoder(name)
  if chosen then chosen_name = name break end
end

--- json.library: which decoder json.decode uses ("cjson", "dkjson" or
-- "vendored").
json.library = chosen_name

--- json.decode(text) -> value, or nil and a message saying what is wrong
-- and where in the text.
function json.decode(text)
  return chosen(text)
end

-- ------------------------------------------------------------------
-- writing
-- ------------------------------------------------------------------

local format, concat, sort, huge = string.format, table.concat, table.sort, math.huge

--- json.number(x) -> the shortest text that reads back to the same double
-- (%.15g to %.17g; -0 as "-0.0", which every decoder keeps negative);
-- nil for an infinity or nan, which JSON has no number for.
function json.number(x)
  if x ~= x or x == huge or x == -huge then return nil end
  if x == 0 then return 1 / x < 0 and "-0.0" or "0" end
  for digits = 15, 16 do
    local text = format("%." .. digits .. "g", x)
    if tonumber(text) == x then return text end
  end
  return format("%.17g", x)
end

local ESCAPES = { ['"'] = '\\"', ["\\"] = "\\\\", ["\b"] = "\\b", ["\f"] = "\\f",
  ["\n"] = "\\n", ["\r"] = "\\r", ["\t"] = "\\t" }

local function quote(s)
  return '"' .. s:gsub('[%c"\\]', function(c)
    return ESCAPES[c] or format("\\u%04x", c:byte())
  end) .. '"'
end

-- a table with the keys 1..n and no others (an empty one is an array)
local function is_list(t)
  local n = #t
  for k in pairs(t) do
    if type(k) ~= "number" or k < 1 or k > n or k % 1 ~= 0 then return false end
  end
  return true
end

-- whether a list holds no table (written on one line)
local function flat(t)
  for i = 1, #t do if type(t[i]) == "table" then return false end end
  return true
end

local function encode(v, indent, out, first_key)
  local kind = type(v)
  if kind == "string" then
    out[#out + 1] = quote(v)
  elseif kind == "number" then
    local text = json.number(v)
    if not text then error("ik2d.rig.json: encode: " .. tostring(v) .. " has no JSON number", 0) end
    out[#out + 1] = text
  elseif kind == "boolean" then
    out[#out + 1] = tostring(v)
  elseif kind ~= "table" then
    error("ik2d.rig.json: encode: a " .. kind .. " has no JSON value", 0)
  elseif is_list(v) then
    if #v == 0 then out[#out + 1] = "[]" return end
    local inner = indent .. " "
    local one_line = flat(v)
    out[#out + 1] = "["
    for i = 1, #v do
      if i > 1 then out[#out + 1] = "," end
      if not one_line then out[#out + 1] = "\n" .. inner end
      encode(v[i], inner, out)
    end
    out[#out + 1] = one_line and "]" or "\n" .. indent .. "]"
  else
    local keys = {}
    for k in pairs(v) do
      if type(k) ~= "string" then
        error("ik2d.rig.json: encode: an object's keys must be strings, got " .. type(k), 0)
      end
      if k ~= first_key then keys[#keys + 1] = k end
    end
    sort(keys)
    if first_key and v[first_key] ~= nil then table.insert(keys, 1, first_key) end
    local inner = indent .. " "
    out[#out + 1] = "{"
    for i, k in ipairs(keys) do
      out[#out + 1] = (i > 1 and ",\n" or "\n") .. inner .. quote(k) .. ": "
      encode(v[k], inner, out)
    end
    out[#out + 1] = "\n" .. indent .. "}"
  end
end

--- json.encode(value [, first_key]) -> JSON text: objects' keys sorted
-- (first_key, when given, first), so a value always gives the same text;
-- lists of numbers or strings on one line; numbers as json.number writes
-- them.  Raises for what JSON cannot hold (an infinity, a function).
function json.encode(value, first_key)
  local out = {}
  encode(value, "", out, first_key)
  out[#out + 1] = "\n"
  return concat(out)
end

--- json.is_null(v) -> true for an absent value: nil, json.null or cjson's
-- null (a table decoded by the game's own cjson too).
function json.is_null(v)
  return v == nil or v == null or (v == cjson_null and cjson_null ~= nil)
end

return json
