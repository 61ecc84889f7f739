-- LuaJIT and Lua 5.4 read a Spine rig to the same description, bit for
-- bit (LuaJIT rounds to 32-bit floats through the FFI, Lua 5.4 by
-- arithmetic): this runtime's description of each spec rig and of the
-- generated 67-bone rig against the other runtime's, run as a child.

local helpers = require "spec.helpers"

-- The program both runtimes run: every description as canonical text,
-- keys sorted, a number as its sign, 53-bit integer significand and
-- exponent (decimal text is no judge: LuaJIT rounds a decimal tie of
-- %.17g up where C rounds it to even), -0 told from 0.
local DUMP = [==[
local source = require "ik2d.rig.source"
local spine = require "ik2d.rig.spine"
local json = require "ik2d.rig.json"
local folder, repo = ...

-- v = sign x m x 2^e, m a whole number below 2^53 (exact: powers of two)
local function bits(v)
  if v ~= v then return "nan" end
  if v == math.huge or v == -math.huge then return tostring(v) end
  if v == 0 then return (1 / v < 0) and "-0" or "0" end
  local sign, a = v < 0 and "-" or "", math.abs(v)
  local e = math.floor(math.log(a) / math.log(2))
  if 2 ^ e > a then e = e - 1 elseif 2 ^ (e + 1) <= a then e = e + 1 end
  local m = a / 2 ^ (e - 52)
  return ("%s%.0f*2^%d"):format(sign, m, e - 52)
end

local out = {}
local function dump(v, path)
  local t = type(v)
  if t == "table" then
    local keys = {}
    for k in pairs(v) do keys[#keys + 1] = k end
    table.sort(keys, function(a, b) return tostring(a) < tostring(b) end)
    for _, k in ipairs(keys) do dump(v[k], path .. "." .. tostring(k)) end
  elseif t == "number" then
    out[#out + 1] = path .. " " .. bits(v)
  else
    out[#out + 1] = path .. " " .. string.format("%q", tostring(v))
  end
end

for _, name in ipairs({ "bones", "constraints", "timelines", "meshes", "events" }) do
  dump(assert(source.describe(folder .. "/" .. name .. ".json")), name)
end
local gen = dofile(repo .. "/bench/spine_rig_gen.lua")
dump(spine.read(assert(json.decode(gen.text({ animations = 2 }))), "generated.json"), "generated")
io.write(table.concat(out, "\n"), "\n")
]==]

local here = debug.getinfo(1, "S").source:match("^@(.*)[/\\][^/\\]*$") or "spec"

local function descriptions(interpreter)
  local file = os.tmpname()
  local f = assert(io.open(file, "w"))
  f:write(("package.path = %q\n"):format(package.path))
  f:write(DUMP)
  f:close()
  local ok, out = helpers.run(("%s %s %s %s"):format(interpreter, helpers.shell_quote(file),
                                                     helpers.shell_quote(here .. "/rigs"),
                                                     helpers.shell_quote(here .. "/..")))
  os.remove(file)
  assert(ok, interpreter .. " failed:\n" .. out)
  return out
end

describe("the rig description on LuaJIT and Lua 5.4", function()
  if helpers.pure_pass then
    pending("IK2D_PURE=1: the readers use no core; the pass with the C core compares the runtimes")
    return
  end
  it("is the same bit for bit for every spec rig and the generated rig", function()
    local other = helpers.is_luajit and "lua5.4" or "luajit"
    if not helpers.run("command -v " .. other) then
      pending(other .. " is not installed")
      return
    end
    local mine, theirs = descriptions(helpers.interpreter), descriptions(other)
    assert.is_true(#mine > 10000)
    if mine ~= theirs then
      local a, b = {}, {}
      for line in mine:gmatch("[^\n]+") do a[#a + 1] = line end
      for line in theirs:gmatch("[^\n]+") do b[#b + 1] = line end
      for i = 1, math.max(#a, #b) do
        assert.are.equal(a[i], b[i], ("line %d: %s against %s"):format(i, helpers.interpreter, other))
      end
    end
  end)
end)
