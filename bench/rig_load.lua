-- Loading a Spine rig: the JSON decode with each decoder there is, and
-- the Spine reader's pass to the rig description, on the generated rig of
-- bench/spine_rig_gen.lua (67 bones, 11 animations, about 1 MB).
--
--   luajit bench/rig_load.lua [runs]      (make bench-rig: LuaJIT and Lua 5.4)
--
-- Prints, for each decoder, the median and the fastest of `runs` (9)
-- loads, each after a full garbage collection, in milliseconds.

package.path = "lua/?.lua;lua/?/init.lua;" .. package.path

local json = require "ik2d.rig.json"
local spine = require "ik2d.rig.spine"
local float32 = require "ik2d.rig.float32"
local gen = dofile("bench/spine_rig_gen.lua")

local runs = tonumber(arg and arg[1]) or 9
local text = gen.text()
local clock = os.clock

local function stats(samples)
  table.sort(samples)
  return samples[math.floor((#samples + 1) / 2)] * 1000, samples[1] * 1000
end

local runtime = rawget(_G, "jit") and jit.version or _VERSION
print(("%s, %.2f MB of JSON, float32 by %s"):format(runtime, #text / 1e6, float32.way))
print("decoder    decode median (min)   read median (min)   whole median")
for _, name in ipairs({ "cjson", "dkjson", "vendored" }) do
  local decode = json.decoder(name)
  if decode then
    local decodes, reads, wholes = {}, {}, {}
    for i = 1, runs do
      collectgarbage("collect")
      local t0 = clock()
      local decoded = assert(decode(text))
      local t1 = clock()
      spine.read(decoded, "generated.json")
      local t2 = clock()
      decodes[i], reads[i], wholes[i] = t1 - t0, t2 - t1, t2 - t0
    end
    local dm, dn = stats(decodes)
    local rm, rn = stats(reads)
    local wm = stats(wholes)
    print(("%-9s  %6.1f ms (%5.1f)       %6.1f ms (%5.1f)    %6.1f ms"):format(name, dm, dn, rm, rn, wm))
  else
    print(("%-9s  not here"):format(name))
  end
end
