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
local per_chain = mode:match("chain") ~= nil
local tables = mode:match("tables") ~= nil
local loops = dofile(((arg[0] or ""):match("^(.*[/\\])") or "") .. "frame_loops.lua")

-- targets: a table of points walked through, the same on every runtime
-- (Park-Miller: exact in doubles)
local POINTS = 4099
local tx, ty = {}, {}
local seed = 20240611
local function draw()
  seed = (seed * 16807) % 2147483647
  return seed / 2147483647
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
local scene = { count = count, bones = bones, spec = spec, arrays = not per_chain and not tables,
                targets = { tx = tx, ty = ty, a = kind == "random" and 7 or 1, b = 37, m = POINTS } }
local state = loops.build(scene, options, ik2d)
local frames_of = per_chain and loops.chain_frames or tables and loops.tables_frames
  or loops.arrays_frames
frames_of(scene, state, 1, 30 + frames)
io.write(string.format("sink %.17g\n", state.sink))
