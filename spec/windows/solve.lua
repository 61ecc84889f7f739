-- The Windows check (make test-windows, spec/windows_run.sh): a Windows
-- LuaJIT runs it under wine with ik2d beside the executable (where a fused
-- LOVE game keeps it: LuaJIT's paths hold the executable's folder), and
-- this machine's LuaJIT runs it first for the reference.
--
--   luajit solve.lua OUT [REFERENCE]
--
-- Writes the instruction set in use and every tip of a mixed scene to OUT
-- (%.17g).  Checks that the C core loads with the FFI path on, that the
-- classic path and every instruction set give the FFI path's bits, and,
-- given a REFERENCE, that the set and the tips are those of the reference
-- to the last bit (the core computes its own sin, cos and the rest, so
-- msvcrt's maths and glibc's do not count).  Prints one line per check and `N passed, N failed`.
local out_file, reference_file = ...
local ik2d = require "ik2d"
-- the inputs from ik2d's own cos and sin, which every platform computes alike
local cos, sin = require("ik2d.pure.math").cos, require("ik2d.pure.math").sin

local passed, failed = 0, 0
local function check(name, ok, detail)
  if ok then passed = passed + 1 else failed = failed + 1 end
  print(("%s %s%s"):format(ok and "ok  " or "FAIL", name, detail and ("  (" .. detail .. ")") or ""))
end

check("the C core loads (" .. tostring(package.searchpath("ik2d.core", package.cpath)) .. ")",
      package.loaded["ik2d.core"] ~= nil)
check("the FFI path is on", ik2d.ffi == true)

-- 40 chains of 2 to 5 bones with limits, each method, 30 frames of moving
-- targets; every tip of every frame
local methods = { "ccd", "fabrik", "two_bone", "follow" }
local function scene()
  local tips = {}
  for k = 1, 40 do
    local bones = { x = k, y = -k, angle = 0.1 * k }
    local method = methods[k % #methods + 1]
    local count = method == "two_bone" and 2 or 2 + k % 4
    for i = 1, count do
      bones[i] = { length = 10 + (i * k) % 7, angle = 0.2 * i, min = -1.5 - 0.1 * i, max = 1 + 0.05 * k }
    end
    local chain = ik2d.chain(bones)
    local solver = ik2d.solver(chain, { method = method, iterations = 12 })
    for frame = 1, 30 do
      solver:set_target(k + 25 * cos(0.3 * frame + k), -k + 20 * sin(0.2 * frame * k))
      solver:solve()
      local x, y = chain:tip()
      tips[#tips + 1] = x
      tips[#tips + 1] = y
    end
  end
  return tips
end

-- 300 CCD chains in a group on one instruction set, 10 frames
local function crowd(isa)
  ik2d.use_isa(isa)
  local chains, solvers = {}, {}
  for k = 1, 300 do
    chains[k] = ik2d.chain { x = k % 17, y = k % 5, { length = 9 + k % 4, min = -2, max = 2 },
                             { length = 7 }, { length = 4 + k % 3 } }
    solvers[k] = ik2d.solver(chains[k], { exact = false, sweep = "tip" })
  end
  local group, tips = ik2d.group(solvers), {}
  for frame = 1, 10 do
    for k = 1, 300 do solvers[k]:set_target(k % 17 + 12 * cos(frame + k), 15 * sin(frame - k)) end
    group:solve()
  end
  for k = 1, 300 do
    local x, y = chains[k]:tip()
    tips[#tips + 1] = x
    tips[#tips + 1] = y
  end
  return tips
end

local function same_bits(a, b)
  if #a ~= #b then return false, "lengths " .. #a .. " and " .. #b end
  for i = 1, #a do
    if a[i] ~= b[i] then return false, ("entry %d: %.17g and %.17g"):format(i, a[i], b[i]) end
  end
  return true
end

local isa = ik2d.isa
local tips = scene()
ik2d.use_ffi(false)
check("the classic path gives the FFI path's bits", same_bits(scene(), tips))
ik2d.use_ffi(true)
local scalar = crowd("scalar")
for _, name in ipairs { "sse2", "avx2", "avx512" } do
  local used = ik2d.use_isa(name)
  check(("a group on %s (%s here) gives the scalar bits"):format(name, used), same_bits(crowd(name), scalar))
end
ik2d.use_isa("auto")

local out = assert(io.open(out_file, "w"))
out:write(isa, "\n")
for _, v in ipairs(tips) do out:write(("%.17g\n"):format(v)) end
out:close()

if reference_file then
  local lines = {}
  for line in io.lines(reference_file) do lines[#lines + 1] = line end
  check("picks the reference's instruction set, " .. lines[1], isa == lines[1], isa)
  local worst, at = 0, nil
  for i, v in ipairs(tips) do
    local off = math.abs(v - (tonumber(lines[i + 1]) or math.huge))
    if off > worst or off ~= off then worst, at = off, i end  -- a NaN is the worst
  end
  check(("every tip the reference's bits (%d values)"):format(#tips),
        #lines == #tips + 1 and worst == 0,
        ("%d reference values, largest difference %.3g at %s"):format(#lines - 1, worst, tostring(at)))
end

print(("%d passed, %d failed"):format(passed, failed))
os.exit(failed == 0 and 0 or 1)
