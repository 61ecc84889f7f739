-- hero_json: JSON text with the keys in the order they were given, as
-- Spine's editor writes its export (name first, then parent, ...), laid
-- out for reading: what fits on a line stays on one, long lists of
-- numbers wrap.  For the hero's generator (make_hero.lua); no decoder.
--
--   local J = require "hero_json"
--   local bone = J.object("name", "hip", "parent", "root", "x", nil, "y", 96)   -- nil: left out
--   J.text(J.object("bones", J.array(bone)))

local J = {}

local format, concat, floor = string.format, table.concat, math.floor
local WIDTH = 118          -- a line's most characters

local ORDERED = {}         -- object -> its keys in order (weak: objects die with the tree)
setmetatable(ORDERED, { __mode = "k" })
local ARRAY = {}
setmetatable(ARRAY, { __mode = "k" })

--- J.object(key1, value1, key2, value2, ...) -> an object keeping that
-- order; a nil value leaves its key out.
function J.object(...)
  local n = select("#", ...)
  local t, keys = {}, {}
  for i = 1, n, 2 do
    local k, v = select(i, ...)
    if v ~= nil then
      keys[#keys + 1] = k
      t[k] = v
    end
  end
  ORDERED[t] = keys
  return t
end

--- J.set(object, key, value): adds a key at the end (or replaces its
-- value); a nil value changes nothing.
function J.set(t, k, v)
  if v == nil then return end
  local keys = ORDERED[t]
  if t[k] == nil then keys[#keys + 1] = k end
  t[k] = v
end

--- J.array(list) -> the list marked as a JSON array (even when empty).
function J.array(list)
  list = list or {}
  ARRAY[list] = true
  return list
end

local GROUPS = {}
setmetatable(GROUPS, { __mode = "k" })

--- J.grouped(groups) -> one array of the groups' numbers, written a
-- group a line when it does not fit on one (a weighted mesh's vertices).
function J.grouped(groups)
  local list, sizes = {}, {}
  for i, group in ipairs(groups) do
    for _, v in ipairs(group) do list[#list + 1] = v end
    sizes[i] = #group
  end
  GROUPS[list] = sizes
  return J.array(list)
end

--- J.num(v) -> v as the editor writes numbers: at most 4 decimals, no
-- trailing zeros, never "-0".
function J.num(v)
  if v == floor(v) and v > -1e15 and v < 1e15 then
    if v == 0 then return "0" end
    return format("%d", v)
  end
  local text = format("%.4f", v):gsub("0+$", ""):gsub("%.$", "")
  if text == "-0" then return "0" end
  return text
end

--- J.round(v [, decimals]) -> v rounded as J.num writes it (4 decimals
-- unless told), so that numbers computed from it match the file.
function J.round(v, decimals)
  local scale = 10 ^ (decimals or 4)
  local r = floor(v * scale + 0.5) / scale
  if r == 0 then return 0 end
  return r
end

local encode

local function quote(s)
  return '"' .. s:gsub('[%c"\\]', function(c)
    if c == '"' then return '\\"' elseif c == "\\" then return "\\\\" end
    return format("\\u%04x", c:byte())
  end) .. '"'
end

local function is_number_list(t)
  if #t == 0 then return false end
  for _, v in ipairs(t) do if type(v) ~= "number" then return false end end
  return true
end

-- the value on one line
local function inline(v)
  local kind = type(v)
  if kind == "number" then return J.num(v) end
  if kind == "string" then return quote(v) end
  if kind == "boolean" then return tostring(v) end
  if ARRAY[v] then
    if #v == 0 then return "[]" end
    local parts = {}
    for i, x in ipairs(v) do parts[i] = inline(x) end
    return "[ " .. concat(parts, ", ") .. " ]"
  end
  local keys = assert(ORDERED[v], "a table that is neither J.object nor J.array")
  if #keys == 0 then return "{}" end
  local parts = {}
  for i, k in ipairs(keys) do parts[i] = quote(k) .. ": " .. inline(v[k]) end
  return "{ " .. concat(parts, ", ") .. " }"
end

-- a long list of numbers, wrapped (a group a line when grouped)
local function number_block(v, indent)
  local lines, line = {}, {}
  local width = #indent + 2
  local sizes, group, left = GROUPS[v], 1, GROUPS[v] and GROUPS[v][1]
  for _, x in ipairs(v) do
    local s = J.num(x)
    local group_ends = sizes and left == 0
    if group_ends then group, left = group + 1, sizes[group + 1] end
    if (group_ends or width + #s + 2 > WIDTH) and #line > 0 then
      lines[#lines + 1] = indent .. "  " .. concat(line, ", ") .. ","
      line, width = {}, #indent + 2
    end
    line[#line + 1] = s
    width = width + #s + 2
    if sizes then left = left - 1 end
  end
  lines[#lines + 1] = indent .. "  " .. concat(line, ", ")
  return "[\n" .. concat(lines, "\n") .. "\n" .. indent .. "]"
end

-- an object of plain values (is_plain_object), its pairs wrapped: "{ a, b,\n  c }"
local function pair_block(v, indent, used)
  local lines, line, width = {}, {}, used + 2
  for _, k in ipairs(ORDERED[v]) do
    local pair = quote(k) .. ": " .. inline(v[k])
    if width + #pair + 2 > WIDTH and #line > 0 then
      lines[#lines + 1] = concat(line, ", ") .. ","
      line, width = {}, #indent + 2
    end
    line[#line + 1] = pair
    width = width + #pair + 2
  end
  lines[#lines + 1] = concat(line, ", ")
  return "{ " .. concat(lines, "\n" .. indent .. "  ") .. " }"
end

-- an object of numbers, words and short lists (a constraint's bones)
local function is_plain_object(v)
  if ARRAY[v] then return false end
  for _, k in ipairs(ORDERED[v]) do
    local x = v[k]
    if type(x) == "table" and (not ARRAY[x] or #inline(x) > 48) then return false end
  end
  return true
end

-- v at `indent`, its first line after `used` characters
encode = function(v, indent, used)
  local one = inline(v)
  if type(v) ~= "table" or used + #one <= WIDTH then return one end
  local inner = indent .. "  "
  if is_plain_object(v) then return pair_block(v, indent, used) end
  if ARRAY[v] then
    if is_number_list(v) then return number_block(v, indent) end
    local parts = {}
    for i, x in ipairs(v) do parts[i] = inner .. encode(x, inner, #inner) end
    return "[\n" .. concat(parts, ",\n") .. "\n" .. indent .. "]"
  end
  local parts = {}
  for i, k in ipairs(ORDERED[v]) do
    local head = inner .. quote(k) .. ": "
    parts[i] = head .. encode(v[k], inner, #head)
  end
  return "{\n" .. concat(parts, ",\n") .. "\n" .. indent .. "}"
end

--- J.text(value) -> the JSON text, ending with a newline.
function J.text(value)
  return encode(value, "", 0) .. "\n"
end

return J
