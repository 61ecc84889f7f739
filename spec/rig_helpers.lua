-- What the rig specs share: the spec rigs' folder, reading one to its
-- description, and comparing two descriptions bit for bit.

local source = require "ik2d.rig.source"

local rig_helpers = {}

-- spec/rigs/, from wherever busted runs
local here = debug.getinfo(1, "S").source:match("^@(.*)[/\\][^/\\]*$") or "spec"
rig_helpers.folder = here .. "/rigs"

--- rig_helpers.path(name) -> the path of spec/rigs/<name>.json
function rig_helpers.path(name)
  return rig_helpers.folder .. "/" .. name .. ".json"
end

--- rig_helpers.describe(name) -> the description of spec/rigs/<name>.json
function rig_helpers.describe(name)
  return assert(source.describe(rig_helpers.path(name)))
end

--- rig_helpers.text(name) -> the text of spec/rigs/<name>.json
function rig_helpers.text(name)
  local f = assert(io.open(rig_helpers.path(name), "rb"))
  local text = f:read("*a")
  f:close()
  return text
end

local math_type = math.type or function() return nil end

-- the same number to the bit: -0 told from 0, an integer from a float on 5.4
local function same_number(a, b)
  if a ~= a then return b ~= b end
  if a ~= b then return false end
  if a == 0 and 1 / a ~= 1 / b then return false end
  return math_type(a) == math_type(b)
end

--- rig_helpers.difference(a, b) -> nil when the two trees are the same
-- (numbers to the bit), else the path of the first difference found
-- (keys visited in sorted order) and what differs.
function rig_helpers.difference(a, b, path)
  path = path or "desc"
  if type(a) ~= type(b) then return ("%s: %s against %s"):format(path, type(a), type(b)) end
  if type(a) == "number" then
    if same_number(a, b) then return nil end
    return ("%s: %.17g (%s) against %.17g (%s)"):format(path, a, tostring(math_type(a)), b, tostring(math_type(b)))
  end
  if type(a) ~= "table" then
    if a == b then return nil end
    return ("%s: %s against %s"):format(path, tostring(a), tostring(b))
  end
  local keys, seen = {}, {}
  for k in pairs(a) do keys[#keys + 1] = k seen[k] = true end
  for k in pairs(b) do if not seen[k] then keys[#keys + 1] = k end end
  table.sort(keys, function(x, y) return tostring(x) < tostring(y) end)
  for _, k in ipairs(keys) do
    local d = rig_helpers.difference(a[k], b[k], ("%s.%s"):format(path, tostring(k)))
    if d then return d end
  end
  return nil
end

return rig_helpers
