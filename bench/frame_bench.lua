--- bench/frame_bench.lua <runtime label> [ratios file] [pure file]
-- The frame loop a game runs, on one Lua runtime: for every chain set the
-- target, solve, read every joint position.  Compares the plain-Lua CCD peer
-- (bench/plain_ccd.lua) with ik2d one chain at a time and with ik2d.group,
-- and under LuaJIT the FFI path and the classic C API path; at 1,000 and
-- 10,000 chains also ik2d's pure-Lua core (ik2d.pure.core, required in this
-- same process beside the C core, so that its rows are measured in the
-- same rounds as the peer's and the C core's).
--
-- Prints a markdown table (header and rows) on stdout; the headline ratios
-- against the peer at 1,000 chains go to the ratios file (or stdout), and
-- the pure-Lua core's comparison to the pure file (or
-- stdout).  Progress goes to stderr.  BENCH_TIME (seconds, default 0.2)
-- sets how long the measurements run; BENCH_COUNTS (say "1000,10000")
-- runs only those chain counts (the headline ratios need 1000).
--
-- Scenes: 1, 100, 1000, 10000 chains of 3 or 10 bones of length 1, base at
-- the origin, tolerance 0.001 per bone, 10 iterations, warm start, weight 1,
-- CCD with sweep = "tip" and exact = false (the peer's algorithm; one more
-- row per scene shows ik2d.group with ik2d's default CCD);
-- targets that move along a closed path (warm start: small steps) or random
-- reachable targets.  Every frame loop sees the same target sequence: the
-- target of chain i at frame f is entry (f * A + i * B) % M of a table of
-- points along the path, or of random points from a deterministic LCG (the
-- same on every runtime).
--
-- One scene: a calibration run of every frame loop (also the JIT warm-up)
-- sets one frame count F for all of them, so that they solve the same
-- targets from the same states: the fastest loop runs about BENCH_TIME
-- (default 0.2 s), the slowest at most 8 times that.  Then BENCH_REPEATS
-- rounds (default 3) of every loop in turn, each keeping its fastest
-- round (the machine is shared: a slow spell hits the loops of a round
-- alike, and the fastest round is the one least disturbed).  A measured
-- run: a fresh scene, one untimed frame 0 to settle (and fill the reused
-- tables), full GC, the GC stopped, frames 1..F timed with os.clock (CPU
-- time), the GC restarted.  Memory is the growth of collectgarbage("count")
-- over those F frames: what they allocated (the largest of the rounds).
-- Joint updates = used iterations x bones, from the third return of solve;
-- ik2d.group returns no iterations, so they come from solver:result() in an
-- untimed replay of the same frames on a fresh scene.
local label = arg and arg[1] or (rawget(_G, "jit") and "luajit" or _VERSION)
local ratios_path = arg and arg[2]
local pure_path = arg and arg[3]

local dir = (arg and arg[0] or ""):match("^(.*[/\\])") or ""
local plain = dofile(dir .. "plain_ccd.lua")
local ik2d = require "ik2d"
-- the pure-Lua core, the same API (what IK2D_PURE=1 makes ik2d load)
local pure = require "ik2d.pure.core"

local clock, floor, sqrt, cos, sin = os.clock, math.floor, math.sqrt, math.cos, math.sin
local format = string.format
local is_jit = rawget(_G, "jit") ~= nil
local target_time = tonumber(os.getenv("BENCH_TIME")) or 0.2
local slowest_time = 8 * target_time
local calibrate_time = math.min(0.05, target_time / 4)
local repeats = math.max(1, floor(tonumber(os.getenv("BENCH_REPEATS")) or 3))

local timing = dofile(dir .. "timing.lua")
local progress, full_gc = timing.progress, timing.full_gc

-- ------------------------------------------------------------------
-- targets
-- ------------------------------------------------------------------

local PATH_POINTS = 360 -- one lap of the path; chain i starts 37 * i points in
local POOL_SIZE = 4099  -- random targets, a prime so chains do not line up

-- Park-Miller LCG: exact in doubles and in integers, so every runtime
-- draws the same numbers.
local lcg_state = 20240611
local function lcg()
  lcg_state = (lcg_state * 16807) % 2147483647
  return lcg_state / 2147483647
end

local function make_targets(kind, count, reach)
  local tx, ty = {}, {}
  if kind == "path" then
    -- a circle with a wobble, 0.4 .. 0.8 of the reach: about 1 degree a frame
    for j = 0, PATH_POINTS - 1 do
      local t = 2 * math.pi * j / PATH_POINTS
      local r = reach * (0.6 + 0.2 * sin(3 * t))
      tx[j + 1], ty[j + 1] = r * cos(t), r * sin(t)
    end
    return { tx = tx, ty = ty, a = 1, b = 37, m = PATH_POINTS }
  end
  lcg_state = 20240611
  for j = 1, POOL_SIZE do
    -- uniform in the disc of 0.95 of the reach: always reachable
    local r = 0.95 * reach * sqrt(lcg())
    local a = 2 * math.pi * lcg()
    tx[j], ty[j] = r * cos(a), r * sin(a)
  end
  return { tx = tx, ty = ty, a = count, b = 1, m = POOL_SIZE }
end

-- ------------------------------------------------------------------
-- the frame loops
-- ------------------------------------------------------------------

local function chain_spec(bones)
  local spec = { x = 0, y = 0, angle = 0 }
  for k = 1, bones do spec[k] = { length = 1 } end
  return spec
end

-- The peer implements ik2d's CCD with the textbook sweep (tip to root) and
-- no exact two-joint step: ik2d runs with the same settings, so that both
-- do the same work.  ik2d's defaults (root-to-tip sweep and the exact step,
-- fewer iterations) get one informative row per scene: "default CCD".
local function solver_options(bones, defaults)
  if defaults then return { iterations = 10, tolerance = 1e-3 * bones } end
  return { iterations = 10, tolerance = 1e-3 * bones, sweep = "tip", exact = false }
end

-- Every frame loop reads every joint of every chain each frame (summed
-- into state.sink), as a game that draws them would.

-- (a) the plain-Lua peer: the joints are left in Lua arrays (c.jx, c.jy)
-- that the game reads directly.
local function peer_build(scene)
  local chains = {}
  for i = 1, scene.count do chains[i] = plain.new(scene.spec, scene.options) end
  return { chains = chains, sink = 0 }
end

local function peer_frames(scene, state, first, last)
  local chains, count, joints = state.chains, scene.count, scene.bones + 1
  local targets = scene.targets
  local tx, ty, a, b, m = targets.tx, targets.ty, targets.a, targets.b, targets.m
  local solve = plain.solve
  local used, sink = 0, state.sink
  for f = first, last do
    local fa = f * a
    for i = 1, count do
      local j = (fa + i * b) % m + 1
      local c = chains[i]
      local _, _, iterations = solve(c, tx[j], ty[j])
      used = used + iterations
      local jx, jy = c.jx, c.jy
      for k = 1, joints do sink = sink + jx[k] + jy[k] end
    end
  end
  state.sink = sink
  return used
end

local loops = dofile(dir .. "frame_loops.lua")
local ik2d_build, chain_frames = loops.build, loops.chain_frames
local tables_frames, arrays_frames = loops.tables_frames, loops.arrays_frames

-- the same frames as a group's, counting iterations (never timed)
local function group_counter(frames)
  return function(scene, state, first, last)
    local solvers, used = state.solvers, 0
    for f = first, last do
      frames(scene, state, f, f)
      for i = 1, scene.count do
        local _, _, iterations = solvers[i]:result()
        used = used + iterations
      end
    end
    return used
  end
end

local function builder(defaults, arrays, lib)
  return function(scene)
    scene.arrays = arrays
    return ik2d_build(scene, defaults and scene.default_options or scene.options, lib or ik2d)
  end
end

local function switches(ffi, isa)
  return function()
    if ffi ~= nil then ik2d.use_ffi(ffi) end
    if isa then ik2d.use_isa(isa) end
  end, function()
    ik2d.use_ffi(true)
    ik2d.use_isa("auto")
  end
end

-- A mode: key, name, algorithm ("textbook": the peer's; "default": ik2d's
-- defaults), build, frames, [count], [before, after], [only_at: the set of
-- chain counts it runs at; nil: every one].
local function make_mode(key, name, algorithm, build, frames, ffi, isa, only_at)
  local before, after = switches(ffi, isa)
  return { key = key, name = name, algorithm = algorithm, build = build, frames = frames,
           count = frames ~= chain_frames and group_counter(frames) or nil,
           before = before, after = after, only_at = only_at, pure = false }
end

-- the instruction sets this machine runs, each with rows of its own
local supported_isas = {}
for _, isa in ipairs { "scalar", "sse2", "avx2", "avx512" } do
  if ik2d.use_isa(isa) == isa then supported_isas[#supported_isas + 1] = isa end
end
ik2d.use_isa("auto")
local modes = {
  { key = "peer", name = "plain-Lua peer", algorithm = "textbook", build = peer_build,
    frames = peer_frames },
}
local function add(m) modes[#modes + 1] = m end
if is_jit and ik2d.ffi then
  add(make_mode("chain", "ik2d per chain (FFI)", "textbook", builder(false), chain_frames))
  add(make_mode("chain_default", "ik2d per chain (FFI), default", "default", builder(true),
           chain_frames))
  add(make_mode("chain_classic", "ik2d per chain (classic)", "textbook", builder(false),
           chain_frames, false))
  add(make_mode("tables", "ik2d.group tables (FFI)", "textbook", builder(false), tables_frames))
  add(make_mode("tables_default", "ik2d.group tables (FFI), default", "default", builder(true),
           tables_frames))
  add(make_mode("arrays", "ik2d.group arrays", "textbook", builder(false, true), arrays_frames))
  add(make_mode("arrays_default", "ik2d.group arrays, default", "default", builder(true, true),
           arrays_frames))
  for _, isa in ipairs(supported_isas) do
    add(make_mode("arrays_" .. isa, "ik2d.group arrays, " .. isa, "textbook", builder(false, true),
             arrays_frames, nil, isa, { [1000] = true }))
  end
else
  add(make_mode("chain", "ik2d per chain", "textbook", builder(false), chain_frames))
  add(make_mode("chain_default", "ik2d per chain, default", "default", builder(true), chain_frames))
  add(make_mode("tables", "ik2d.group tables", "textbook", builder(false), tables_frames))
  add(make_mode("tables_default", "ik2d.group tables, default", "default", builder(true),
           tables_frames))
  for _, isa in ipairs(supported_isas) do
    add(make_mode("tables_" .. isa, "ik2d.group tables, " .. isa, "textbook", builder(false),
             tables_frames, nil, isa, { [1000] = true }))
  end
end

-- The pure-Lua core, at 1,000 and 10,000 chains: the peer's algorithm one
-- chain at a time and through ik2d.group (tables), and ik2d's defaults
-- (for information, against the C core's default rows).  The same frame
-- loops as the C core's rows, on the same scenes, in the same rounds.
local PURE_COUNTS = { [1000] = true, [10000] = true }
local function add_pure(key, name, algorithm, defaults, frames)
  local m = make_mode(key, name, algorithm, builder(defaults, false, pure), frames, nil, nil,
                      PURE_COUNTS)
  m.before, m.after, m.pure = nil, nil, true
  add(m)
end
add_pure("pure_chain", "pure-Lua core per chain", "textbook", false, chain_frames)
add_pure("pure_chain_default", "pure-Lua core per chain, default", "default", true, chain_frames)
add_pure("pure_tables", "pure-Lua core ik2d.group tables", "textbook", false, tables_frames)
add_pure("pure_tables_default", "pure-Lua core ik2d.group tables, default", "default", true,
         tables_frames)

-- ------------------------------------------------------------------
-- measuring
-- ------------------------------------------------------------------

-- Seconds per frame of mode on scene (timing.per_frame); also the JIT
-- warm-up.
local function calibrate(scene, mode)
  if mode.before then mode.before() end
  local state = mode.build(scene)
  local per_frame = timing.per_frame(function(first, last) mode.frames(scene, state, first, last) end,
                                     calibrate_time)
  if mode.after then mode.after() end
  return per_frame
end

-- Frames 1..F of mode on a fresh scene (after an untimed frame 0).
-- Joint updates are counted when count_updates is set (the first run).
local function measure(scene, mode, F, count_updates)
  if mode.before then mode.before() end
  full_gc()
  local state = mode.build(scene)
  mode.frames(scene, state, 0, 0)
  full_gc()
  collectgarbage("stop")
  local m0 = collectgarbage("count")
  local t0 = clock()
  local used = mode.frames(scene, state, 1, F)
  local seconds = clock() - t0
  local m1 = collectgarbage("count")
  collectgarbage("restart")

  if mode.count and count_updates then
    state = nil -- luacheck: ignore 311
    full_gc()
    state = mode.build(scene)
    mode.count(scene, state, 0, 0)
    used = mode.count(scene, state, 1, F)
  end
  if mode.after then mode.after() end
  state = nil -- luacheck: ignore 311
  full_gc()

  local solves = scene.count * F
  local updates = (used or 0) * scene.bones -- counted in round 1 only
  return {
    frames = F,
    seconds = seconds,
    us_per_solve = 1e6 * seconds / solves,
    ms_per_frame = 1e3 * seconds / F,
    updates_per_second = updates / seconds,
    updates_per_solve = updates / solves,
    kb = m1 - m0,
  }
end

-- One frame count for every mode of a scene, so that they all solve the
-- same targets from the same states: the fastest mode runs about
-- target_time, the slowest at most slowest_time.
local function common_frames(per_frame)
  local fastest, slowest = math.huge, 0
  for _, t in pairs(per_frame) do
    fastest, slowest = math.min(fastest, t), math.max(slowest, t)
  end
  local F = target_time / fastest
  if F * slowest > slowest_time then F = slowest_time / slowest end
  return math.max(1, floor(F + 0.5))
end

-- ------------------------------------------------------------------
-- the table
-- ------------------------------------------------------------------

-- BENCH_COUNTS ("1000,10000") runs some of the chain counts only
local counts = { 1, 100, 1000, 10000 }
if os.getenv("BENCH_COUNTS") then
  counts = {}
  for c in os.getenv("BENCH_COUNTS"):gmatch("%d+") do counts[#counts + 1] = tonumber(c) end
end
local bone_counts = { 3, 10 }
local kinds = { "path", "random" }
local kind_names = { path = "moving", random = "random" }

print("| runtime | chains | bones | targets | frame loop | us/solve | ms/frame | x peer "
  .. "| M joint upd/s | upd/solve | KB grown |")
print("|---|--:|--:|---|---|--:|--:|--:|--:|--:|--:|")

local results = {} -- results[count][bones][kind][mode key]
local started = clock()
for _, count in ipairs(counts) do
  results[count] = {}
  for _, bones in ipairs(bone_counts) do
    results[count][bones] = {}
    for _, kind in ipairs(kinds) do
      local scene = {
        count = count,
        bones = bones,
        spec = chain_spec(bones),
        options = solver_options(bones),
        default_options = solver_options(bones, true),
        targets = make_targets(kind, count, bones),
      }
      local row, per_frame, scene_modes = {}, {}, {}
      for _, m in ipairs(modes) do
        if not m.only_at or m.only_at[count] then scene_modes[#scene_modes + 1] = m end
      end
      results[count][bones][kind] = row
      progress("%s: %d x %d bones, %s targets:", label, count, bones, kind)
      for _, mode in ipairs(scene_modes) do per_frame[mode.key] = calibrate(scene, mode) end
      local F = common_frames(per_frame)
      progress(" %d frames, %d rounds\n", F, repeats)
      -- rounds of every mode in turn: a slow spell of the shared machine
      -- then hits every mode alike, and each keeps its fastest round
      for round = 1, repeats do
        for _, mode in ipairs(scene_modes) do
          local r = measure(scene, mode, F, round == 1)
          local best = row[mode.key]
          if not best then
            row[mode.key] = r
          else
            if r.seconds < best.seconds then
              r.updates_per_solve = best.updates_per_solve
              r.updates_per_second = best.updates_per_solve * scene.count * F / r.seconds
              r.kb = math.max(r.kb, best.kb)
              row[mode.key] = r
            else
              best.kb = math.max(best.kb, r.kb)
            end
          end
        end
      end
      for _, mode in ipairs(scene_modes) do
        local r, peer = row[mode.key], row.peer
        progress("  %-28s%8.3f us/solve %6.3f s\n", mode.name, r.us_per_solve, r.seconds)
        print(format("| %s | %d | %d | %s | %s | %.3f | %.3f | %.2f | %.1f | %.1f | %.1f |",
          label, count, bones, kind_names[kind], mode.name, r.us_per_solve, r.ms_per_frame,
          peer.us_per_solve / r.us_per_solve, r.updates_per_second / 1e6,
          r.updates_per_solve, r.kb))
        io.stdout:flush()
      end
    end
  end
end
progress("%s: done in %.1f s of CPU\n", label, clock() - started)

-- ------------------------------------------------------------------
-- headline ratios: ik2d against the peer at 1,000 chains, per mode
-- ------------------------------------------------------------------

local out = {}
local function say(...) out[#out + 1] = format(...) end

local mode_names = {}
for _, m in ipairs(modes) do mode_names[m.key] = m.name end

-- the mode's speed as a multiple of the peer's in the four 1000-chain scenes
local function ratios(title, key)
  if not results[1000] then return end
  local parts = {}
  for _, bones in ipairs(bone_counts) do
    for _, kind in ipairs(kinds) do
      local row = results[1000][bones][kind]
      parts[#parts + 1] = format("%d bones %s %.2fx", bones, kind_names[kind],
                                 row.peer.us_per_solve / row[key].us_per_solve)
    end
  end
  say("- %s (%s): %s", title, mode_names[key], table.concat(parts, ", "))
end

say("%s, 1,000 chains, speed as a multiple of the plain-Lua peer's (every joint read each frame):",
    is_jit and "LuaJIT" or label)
if is_jit then
  ratios("arrays, textbook CCD", "arrays")
  ratios("arrays, default solver", "arrays_default")
end
ratios("tables, textbook CCD", "tables")
ratios("tables, default solver", "tables_default")
ratios("per chain, default solver", "chain_default")
ratios("per chain, textbook CCD", "chain")
if is_jit then
  for _, kind in ipairs(results[10000] and kinds or {}) do
    local row = results[10000][3][kind]
    say("- 10,000 chains x 3 bones, %s targets, via the arrays: %.2f ms a frame textbook, "
      .. "%.2f ms default (the peer %.2f ms)", kind_names[kind],
      row.arrays.ms_per_frame, row.arrays_default.ms_per_frame, row.peer.ms_per_frame)
  end
end

if #out > 0 then
  local text = table.concat(out, "\n") .. "\n"
  if ratios_path then
    local file = assert(io.open(ratios_path, "w"))
    file:write(text)
    file:close()
  else
    io.write("\n", text)
  end
end

-- ------------------------------------------------------------------
-- the pure-Lua core against the peer and the C core
-- ------------------------------------------------------------------

-- Every figure from the same scene and rounds: ms a frame (the whole
-- frame loop: set the targets, solve, read every joint), pure / peer
-- (below 1: the pure core is faster) and C / pure (the C core's time as a
-- fraction of the pure core's).  The peer runs only the textbook
-- algorithm: the default rows compare with it for information only.
local pure_out = {}
local function put(...) pure_out[#pure_out + 1] = format(...) end
local PURE_ROWS = {
  { "per chain", "pure_chain", "chain", true },
  { "group tables", "pure_tables", "tables", true },
  { "per chain, default", "pure_chain_default", "chain_default", false },
  { "group tables, default", "pure_tables_default", "tables_default", false },
}
local low, high = math.huge, 0
put("| runtime | chains x bones | targets | frame loop | pure ms | peer ms | C ms | pure / peer "
  .. "| C / pure | algorithm |")
put("|---|---|---|---|--:|--:|--:|--:|--:|---|")
for _, count in ipairs(counts) do
  if PURE_COUNTS[count] then
    for _, bones in ipairs(bone_counts) do
      for _, kind in ipairs(kinds) do
        local row = results[count][bones][kind]
        for _, r in ipairs(PURE_ROWS) do
          local name, pure_key, c_key, same_algorithm = r[1], r[2], r[3], r[4]
          local p, c, peer = row[pure_key], row[c_key], row.peer
          local ratio = p.seconds / peer.seconds
          if same_algorithm then
            low, high = math.min(low, ratio), math.max(high, ratio)
          end
          put("| %s | %d x %d | %s | %s | %.3f | %.3f | %.3f | %.2f | %.2f | %s |", label, count,
              bones, kind_names[kind], name, p.ms_per_frame, peer.ms_per_frame, c.ms_per_frame,
              ratio, c.seconds / p.seconds, same_algorithm and "the peer's" or "ik2d's defaults")
        end
      end
    end
  end
end
put("")
put("- %s: the pure-Lua core's time over the plain-Lua peer's, same algorithm: %.2f to %.2f",
    label, low, high)

do
  local text = table.concat(pure_out, "\n") .. "\n"
  if pure_path then
    local file = assert(io.open(pure_path, "w"))
    file:write(text)
    file:close()
  else
    io.write("\n", text)
  end
end
