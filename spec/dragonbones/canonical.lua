-- A rig description as one canonical text (keys sorted, numbers in
-- hexadecimal, %a: exact, where %.17g rounds ties differently on Lua 5.4
-- and LuaJIT), so that two readings can be compared to the bit: the same text
-- from Lua 5.4 and LuaJIT means the same description.
--
--   lua -e 'print(require("spec.dragonbones.canonical").file("spec/rigs/dragonbones/body_ske.json"))'

local canonical = {}

local function write(v, out)
  local t = type(v)
  if t == "table" then
    local keys = {}
    for k in pairs(v) do keys[#keys + 1] = k end
    table.sort(keys, function(a, b)
      if type(a) == type(b) then return a < b end
      return type(a) == "number"
    end)
    out[#out + 1] = "{"
    for _, k in ipairs(keys) do
      write(k, out)
      out[#out + 1] = "="
      write(v[k], out)
      out[#out + 1] = ","
    end
    out[#out + 1] = "}"
  elseif t == "number" then
    out[#out + 1] = string.format("%a", v)
  elseif t == "string" then
    out[#out + 1] = string.format("%q", v)
  else
    out[#out + 1] = tostring(v)
  end
end

function canonical.text(v)
  local out = {}
  write(v, out)
  return table.concat(out)
end

--- The canonical text of the description of a _ske.json file (decoded
-- with dkjson, which every interpreter here has).
function canonical.file(path, armature)
  local f = assert(io.open(path, "r"))
  local text = f:read("*a")
  f:close()
  local rig = require("ik2d.rig.dragonbones").read(require("dkjson").decode(text), path, armature)
  return canonical.text(rig)
end

return canonical
