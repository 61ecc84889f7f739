--- bench/frame_rows.lua MODE BONES KIND FRAMES: one frame loop of
-- bench/frame_bench.lua, a fixed number of frames, for counting
-- instructions (bench/compare_rows.sh runs it under callgrind twice, with
-- two frame counts, and takes the difference: start-up cancels).
-- MODE: chain, chain_default, chain_classic (LuaJIT: the FFI path off),
-- tables, tables_default, arrays, arrays_default (LuaJIT's FFI arrays),
-- and pure_ before any of chain, chain_default, tables, tables_default
-- (the pure-Lua core).  "default": ik2d's default CCD, else the peer's
-- algorithm (textbook CCD).  KIND: moving (a closed path, small steps) or
-- random (reachable points).  COUNT in the environment: chains (1000).
-- 30 untimed frames first (LuaJIT's traces), then FRAMES frames.
local mode, bones, kind, frames = arg[1], tonumber(arg[2]), arg[3], tonumber(arg[4])
assert(mode and bones and (kind == "moving" or kind == "random") and frames,
       "usage: frame_rows.lua MODE BONES moving|random FRAMES")
local count = tonumber(os.getenv("COUNT")) or 1000
local pure = mode:match("^pure_") ~= nil
local ik2d = pure and require "ik2d.pure.core" or require "ik2d"
if not pure then ik2d.use_ffi(not mode:match("classic")) end
local defaults = mode:match("default") ~= nil
local options = defaults and { iterations = 10, tolerance = 1e-3 * bones }
  or { iterations = 10, tolerance = 1e-3 * bones, sweep = "tip", exact = false }
local spec = { x = 0, y = 0, angle = 0 }
for k = 1, bones do spec[k] = { length = 1 } end
local chains, solvers = {}, {}
for i = 1, count do
  chains[i] = ik2d.chain(spec)
  solvers[i] = ik2d.solver(chains[i], options)
end
local group = ik2d.group(solvers)
local per_chain = mode:match("chain") ~= nil
local tables = mode:match("tables") ~= nil
local target_array, joint_array
if not per_chain and not tables then
  target_array, joint_array = group:target_array(), group:joint_array()
end

-- targets: a table of points walked through, the same on every runtime
-- (Park-Miller: exact in doubles)
local POINTS = 4099
local tx, ty = {}, {}
local state = 20240611
local function draw()
  state = (state * 16807) % 2147483647
  return state / 2147483647
end
for j = 1, POINTS do
  local r, a
  if kind == "random" then
    r = bones * (0.1 + 0.85 * draw())
    a = 2 * math.pi * draw()
  else
    a = (j - 1) * 2 * math.pi / 360
    r = bones * (0.6 + 0.2 * math.sin(3 * a))
  end
  tx[j], ty[j] = r * math.cos(a), r * math.sin(a)
end
local STEP, SPREAD = kind == "random" and 7 or 1, 37

local all, flat, sink = {}, {}, 0
local joints = bones + 1
local numbers = 2 * joints * count
local function frame(f)
  local fa = f * STEP
  if per_chain then
    for i = 1, count do
      local j = (fa + i * SPREAD) % POINTS + 1
      local solver = solvers[i]
      solver:set_target(tx[j], ty[j])
      solver:solve()
      local chain = chains[i]
      for k = 1, joints do
        local x, y = chain:joint(k)
        sink = sink + x + y
      end
    end
  elseif tables then
    for i = 1, count do
      local j = (fa + i * SPREAD) % POINTS + 1
      flat[2 * i - 1], flat[2 * i] = tx[j], ty[j]
    end
    group:set_targets(flat)
    group:solve()
    group:joints(all)
    for k = 1, numbers do sink = sink + all[k] end
  else
    for i = 1, count do
      local j = (fa + i * SPREAD) % POINTS + 1
      target_array[2 * i - 2], target_array[2 * i - 1] = tx[j], ty[j]
    end
    group:solve()
    for k = 0, numbers - 1 do sink = sink + joint_array[k] end
  end
end
for f = 1, 30 + frames do frame(f) end
io.write(string.format("sink %.17g\n", sink))
