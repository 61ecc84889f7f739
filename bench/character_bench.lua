--- bench/character_bench.lua <runtime label> [goals file | only mode key]
-- The character scene: crowds of 20-bone characters, a 3-bone
-- torso, two 3-bone arms, two 3-bone legs whose feet lie along the ground
-- (a tip angle) with a pole in front of each knee, every target moving
-- every frame and every bone's transform read every frame.  ik2d runs it
-- as a game would: one ik2d.skeleton a character with a solver on each
-- limb, sk:solve() a character, the transforms read in one call.  Against
-- it a plain-Lua peer written here by hand, doing less: trig-free CCD on
-- each limb without limits or poles, one limb after another, the foot set
-- along the ground directly, the other bones placed with cos and sin.
--
-- Rows: the peer; ik2d one skeleton at a time (under LuaJIT the FFI path,
-- reading sk:transform_array() or sk:transforms(t), and the classic path);
-- the pure-Lua core (ik2d.pure.core, what IK2D_PURE=1 loads, required in
-- this same process so that it is measured in the same rounds).  At 100
-- and 1,000 characters (BENCH_COUNTS="100,1000").
--
-- Measuring, as bench/frame_bench.lua: a calibration run of every row (the
-- JIT warm-up too) sets one frame count for all rows of a count, so that
-- they see the same targets; then BENCH_REPEATS rounds (default 5) of
-- every row in turn, each on a fresh crowd after untimed frames (3 under
-- LuaJIT, to compile again what another row's traces flushed), the GC
-- stopped, os.clock (CPU time).  A row reports the median of its rounds
-- and its speed against the peer as the median of the rounds' ratios
-- (peer's time / row's time in the same round: a slow spell of the shared
-- machine hits both).  KB grown: collectgarbage("count") after the timed
-- frames less before, the largest of the rounds (under LuaJIT, traces
-- compiled meanwhile count too).  BENCH_TIME (default 0.2 s) is how long
-- the fastest row runs a round; the slowest at most 20 times that (the
-- pure core under LuaJIT is that slow).
--
-- Prints a markdown table on stdout, progress on stderr, and each row
-- against its goal speed (LuaJIT: ik2d at 4x the peer, Lua 5.4:
-- 12x, the pure core 1x), held or missed, to the goals file (or stdout).
-- A second argument naming a row (its key) runs that row alone a few
-- seconds, for a profiler:
--   luajit -jp=Fl bench/character_bench.lua luajit ffi_array
local label = arg and arg[1] or (rawget(_G, "jit") and "luajit" or _VERSION)
-- BENCH_MAXMCODE (KB, LuaJIT): the machine code area a game may raise
-- (docs/api.md, "The module"), named in the runtime column
local maxmcode = rawget(_G, "jit") and tonumber(os.getenv("BENCH_MAXMCODE"))
if maxmcode then
  require("jit.opt").start("maxmcode=" .. maxmcode)
  label = label .. ", maxmcode " .. maxmcode
end
local only, goals_path = nil, nil
if arg and arg[2] then
  if arg[2]:match("^[%w_]+$") then only = arg[2] else goals_path = arg[2] end
end

local ik2d = require "ik2d"
local pure = require "ik2d.pure.core"

local clock, floor, sqrt, cos, sin = os.clock, math.floor, math.sqrt, math.cos, math.sin
local atan2 = math.atan2 or math.atan -- luacheck: ignore 143
local max = math.max
local format = string.format
local is_jit = rawget(_G, "jit") ~= nil
local target_time = tonumber(os.getenv("BENCH_TIME")) or 0.2
local slowest_time = 20 * target_time
local calibrate_time = math.min(0.05, target_time / 4)
local repeats = math.max(1, floor(tonumber(os.getenv("BENCH_REPEATS")) or 5))

local timing = dofile(((arg and arg[0] or ""):match("^(.*[/\\])") or "") .. "timing.lua")
local progress, full_gc = timing.progress, timing.full_gc

-- ------------------------------------------------------------------
-- the character (y down, facing right)
-- ------------------------------------------------------------------

-- name, parent, length, rest angle, min, max (limits: from the rest
-- angle, as ik2d reads them): 20 bones, parents first, each
-- starting at its parent's tip.  Torso 2-4, arms 8-10 and 12-14, legs
-- 15-17 and 18-20 (thigh, shin, foot).
local BONES = {
  { "hip", nil, 0, 0 },
  { "spine1", "hip", 18, -1.57, -0.5, 0.5 },
  { "spine2", "spine1", 16, 0, -0.5, 0.5 },
  { "chest", "spine2", 16, 0, -0.5, 0.5 },
  { "neck", "chest", 6, 0 },
  { "head", "neck", 12, 0 },
  { "shoulder_l", "chest", 8, 1.6 },
  { "upper_l", "shoulder_l", 22, 0.3, -2.5, 2.5 },
  { "fore_l", "upper_l", 20, -0.4, -2.4, 0.4 },
  { "hand_l", "fore_l", 6, 0, -1, 1 },
  { "shoulder_r", "chest", 8, -1.6 },
  { "upper_r", "shoulder_r", 22, -0.3, -2.5, 2.5 },
  { "fore_r", "upper_r", 20, 0.4, -0.4, 2.4 },
  { "hand_r", "fore_r", 6, 0, -1, 1 },
  { "thigh_l", "hip", 30, 1.3, -1.2, 1.2 },
  { "shin_l", "thigh_l", 28, 0.4, -0.4, 2 },
  { "foot_l", "shin_l", 10, -1.7, -0.9, 1.3 },
  { "thigh_r", "hip", 30, 1.5, -1.2, 1.2 },
  { "shin_r", "thigh_r", 28, 0.4, -0.4, 2 },
  { "foot_r", "shin_r", 10, -1.7, -0.9, 1.3 },
}
local NBONES = #BONES
local LIMBS = { { 2, 4 }, { 8, 10 }, { 12, 14 }, { 15, 17 }, { 18, 20 } } -- first, last bone
local ITERATIONS, TOLERANCE = 10, 0.1
local SPACING = 40 -- between the characters' bases

-- The targets of character i at frame f, the same for every row: the
-- base bobbing, the chest swaying, the hands circling, the toes stepping
-- on a ground whose slope changes, the poles ahead of the knees.
-- Returns bx, by, torso x, y, hands (lx, ly, rx, ry), toes with their
-- ground angles (lx, ly, la, rx, ry, ra), the pole x, y (both knees).
local function targets(i, f)
  local x, ph = SPACING * i, 0.05 * f + 0.37 * i
  local s, c = sin(ph), cos(ph)
  local bx, by = x + 3 * s, 300 + 1.5 * sin(2 * ph)
  local lift_l, lift_r = max(0, c), max(0, -c)
  return bx, by,
    bx + 5 * sin(0.7 * ph), by - 48.5 + c,
    bx + 30 + 10 * c, by - 38 + 12 * s,
    bx - 28 + 10 * cos(1.1 * ph), by - 35 + 12 * sin(1.3 * ph),
    x + 12 + 14 * s, 352 - 5 * lift_l, 0.15 * sin(0.5 * ph),
    x + 12 - 14 * s, 352 - 5 * lift_r, 0.15 * sin(0.5 * ph + 1),
    bx + 40, by + 28
end

-- ------------------------------------------------------------------
-- ik2d: one skeleton a character, a solver a limb
-- ------------------------------------------------------------------

local function ik2d_character(lib, i)
  local t = { x = SPACING * i, y = 300 }
  for k, b in ipairs(BONES) do
    t[k] = { name = b[1], parent = b[2], length = b[3], angle = b[4], min = b[5], max = b[6] }
  end
  local sk = lib.skeleton(t)
  local options = { iterations = ITERATIONS, tolerance = TOLERANCE }
  local s = {}
  for k, limb in ipairs(LIMBS) do
    s[k] = lib.solver(sk:chain(limb[1], limb[2]), options)
  end
  return { sk = sk, torso = s[1], arm_l = s[2], arm_r = s[3], leg_l = s[4], leg_r = s[5],
           t = {} }
end

local function ik2d_build(lib, count)
  local chars = {}
  for i = 1, count do chars[i] = ik2d_character(lib, i) end
  return { chars = chars, sink = 0, reached = 0 }
end

-- One frame's targets into character c (the solvers keep them).
local function ik2d_targets(c, i, f)
  local bx, by, tx, ty, hlx, hly, hrx, hry, flx, fly, fla, frx, fry, fra, px, py = targets(i, f)
  c.sk:set_base(bx, by)
  c.torso:set_target(tx, ty)
  c.arm_l:set_target(hlx, hly)
  c.arm_r:set_target(hrx, hry)
  local leg_l, leg_r = c.leg_l, c.leg_r
  leg_l:set_target(flx, fly)
  leg_l:set_tip_angle(fla)
  leg_l:set_pole(px, py)
  leg_r:set_target(frx, fry)
  leg_r:set_tip_angle(fra)
  leg_r:set_pole(px, py)
end

-- every bone's transform through sk:transforms(t), one reused table
local function ik2d_frames_table(state, count, first, last)
  local chars, sink, reached = state.chars, state.sink, state.reached
  local n = 5 * NBONES
  for f = first, last do
    for i = 1, count do
      local c = chars[i]
      ik2d_targets(c, i, f)
      reached = reached + c.sk:solve()
      local t = c.sk:transforms(c.t)
      for k = 1, n do sink = sink + t[k] end
    end
  end
  state.sink, state.reached = sink, reached
end

-- every bone's transform from sk:transform_array() (LuaJIT's FFI): the
-- skeleton's own memory, read in place
local function ik2d_frames_array(state, count, first, last)
  local chars, sink, reached = state.chars, state.sink, state.reached
  local n = 5 * NBONES
  for f = first, last do
    for i = 1, count do
      local c = chars[i]
      ik2d_targets(c, i, f)
      reached = reached + c.sk:solve()
      local a = c.a
      for k = 0, n - 1 do sink = sink + a[k] end
    end
  end
  state.sink, state.reached = sink, reached
end

-- ------------------------------------------------------------------
-- ik2d in bulk: the crowd as one ik2d.group of skeletons
-- ------------------------------------------------------------------

-- Each character's solvers in the group's flat order: torso, arms, legs
-- (the order made); only the legs have a tip angle and a pole, the other
-- entries are not read.
local function group_build(lib, count)
  local state = ik2d_build(lib, count)
  local skeletons = {}
  for i, c in ipairs(state.chars) do skeletons[i] = c.sk end
  state.group = lib.group(skeletons)
  state.bases, state.targets, state.tips, state.poles, state.out = {}, {}, {}, {}, {}
  for k = 1, 5 * count do state.tips[k], state.poles[2 * k - 1], state.poles[2 * k] = 0, 0, 0 end
  for k = 1, 3 * count do state.bases[k] = 0 end
  return state
end

-- One frame's inputs of every character into the group's tables (first
-- index 1) or arrays (first index 0).
local function group_inputs(state, count, f, first)
  local B, T, A, P = state.bases, state.targets, state.tips, state.poles
  for i = 1, count do
    local bx, by, tx, ty, hlx, hly, hrx, hry, flx, fly, fla, frx, fry, fra, px, py = targets(i, f)
    local b, t, s = 3 * i - 4 + first, 10 * i - 11 + first, 5 * i - 6 + first
    B[b + 1], B[b + 2] = bx, by
    T[t + 1], T[t + 2], T[t + 3], T[t + 4], T[t + 5] = tx, ty, hlx, hly, hrx
    T[t + 6], T[t + 7], T[t + 8], T[t + 9], T[t + 10] = hry, flx, fly, frx, fry
    A[s + 4], A[s + 5] = fla, fra
    P[t + 7], P[t + 8], P[t + 9], P[t + 10] = px, py, px, py
  end
end

-- every input through one call each (set_bases, set_targets,
-- set_tip_angles, set_poles), one g:solve(), every transform through
-- g:transforms(t), reused tables
local function group_frames_table(state, count, first, last)
  local g, sink, reached, out = state.group, state.sink, state.reached, state.out
  local n = 5 * NBONES * count
  for f = first, last do
    group_inputs(state, count, f, 1)
    g:set_bases(state.bases)
    g:set_targets(state.targets)
    g:set_tip_angles(state.tips)
    g:set_poles(state.poles)
    reached = reached + g:solve()
    local t = g:transforms(out)
    for k = 1, n do sink = sink + t[k] end
  end
  state.sink, state.reached = sink, reached
end

-- LuaJIT's FFI: the group's arrays, written and read in place
local function group_build_arrays(lib, count)
  local state = group_build(lib, count)
  local g = state.group
  state.bases, state.targets = g:base_array(), g:target_array()
  state.tips, state.poles, state.out = g:tip_angle_array(), g:pole_array(), g:transform_array()
  return state
end

local function group_frames_array(state, count, first, last)
  local g, sink, reached, out = state.group, state.sink, state.reached, state.out
  local n = 5 * NBONES * count
  for f = first, last do
    group_inputs(state, count, f, 0)
    reached = reached + g:solve()
    for k = 0, n - 1 do sink = sink + out[k] end
  end
  state.sink, state.reached = sink, reached
end

-- ------------------------------------------------------------------
-- the plain-Lua peer, as a user would write it by hand
-- ------------------------------------------------------------------

-- A character: local angles (the rig) and every bone's world transform
-- in one flat array as sk:transforms gives it (x, y, angle, tip x, tip y),
-- its world direction's cos and sin, and the joints of the limb being
-- solved.
local PARENT, LENGTH = {}, {}
do
  local index = {}
  for k, b in ipairs(BONES) do
    index[b[1]] = k
    PARENT[k], LENGTH[k] = b[2] and index[b[2]] or 0, b[3]
  end
end

local function peer_character()
  local c = { angle = {}, t = {}, wc = {}, ws = {}, px = {}, py = {} }
  for k, b in ipairs(BONES) do c.angle[k] = b[4] end
  for k = 1, 5 * NBONES do c.t[k] = 0 end
  for k = 1, NBONES do c.wc[k], c.ws[k] = 1, 0 end
  return c
end

-- Bone k from its parent (or the base at bx, by) with cos and sin.
local function place(c, k, bx, by)
  local t, wc, ws = c.t, c.wc, c.ws
  local p = PARENT[k]
  local o, x, y, a = 5 * (k - 1), bx, by, c.angle[k]
  if p > 0 then
    local q = 5 * (p - 1)
    x, y, a = t[q + 4], t[q + 5], t[q + 3] + a
  end
  local ca, sa = cos(a), sin(a)
  local l = LENGTH[k]
  t[o + 1], t[o + 2], t[o + 3], t[o + 4], t[o + 5] = x, y, a, x + l * ca, y + l * sa
  wc[k], ws[k] = ca, sa
end

-- CCD on bones first..last toward (gx, gy), tip to root, no limits: each
-- joint turns by the rotation (cos, sin) that points joint->tip along
-- joint->target, built from their dot and cross and one sqrt, applied to
-- the joints after it.  Then the bones' transforms and local angles from
-- the joints (one atan2 a bone).  Returns whether the tip reached.
local function peer_limb(c, first, last, gx, gy)
  local t, px, py, wc, ws, angle = c.t, c.px, c.py, c.wc, c.ws, c.angle
  local n = last - first + 1
  for k = 1, n do -- the joints where the bones are now
    local o = 5 * (first + k - 2)
    px[k], py[k] = t[o + 1], t[o + 2]
  end
  local o = 5 * (last - 1)
  px[n + 1], py[n + 1] = t[o + 4], t[o + 5]
  local tol2 = TOLERANCE * TOLERANCE
  local ex, ey = px[n + 1] - gx, py[n + 1] - gy
  local reached = ex * ex + ey * ey <= tol2
  for _ = 1, ITERATIONS do
    if reached then break end
    for j = n, 1, -1 do
      local jx, jy = px[j], py[j]
      local ax, ay = px[n + 1] - jx, py[n + 1] - jy
      local bx, by = gx - jx, gy - jy
      local d = sqrt((ax * ax + ay * ay) * (bx * bx + by * by))
      if d > 1e-12 then
        local rc, rs = (ax * bx + ay * by) / d, (ax * by - ay * bx) / d
        for k = j + 1, n + 1 do
          local dx, dy = px[k] - jx, py[k] - jy
          px[k], py[k] = jx + rc * dx - rs * dy, jy + rs * dx + rc * dy
        end
      end
    end
    ex, ey = px[n + 1] - gx, py[n + 1] - gy
    reached = ex * ex + ey * ey <= tol2
  end
  local p = PARENT[first]
  local parent_angle = t[5 * (p - 1) + 3]
  for k = 1, n do
    local b = first + k - 1
    local dx, dy = px[k + 1] - px[k], py[k + 1] - py[k]
    local a = atan2(dy, dx)
    local l = LENGTH[b]
    o = 5 * (b - 1)
    t[o + 1], t[o + 2], t[o + 3], t[o + 4], t[o + 5] = px[k], py[k], a, px[k + 1], py[k + 1]
    wc[b], ws[b] = dx / l, dy / l
    angle[b] = a - parent_angle
    parent_angle = a
  end
  return reached
end

-- A leg: CCD on thigh and shin toward the ankle (the toe less the foot
-- along the ground), then the foot along the ground.
local function peer_leg(c, thigh, toe_x, toe_y, ground)
  local foot = thigh + 2
  local gc, gs = cos(ground), sin(ground)
  local l = LENGTH[foot]
  local reached = peer_limb(c, thigh, thigh + 1, toe_x - l * gc, toe_y - l * gs)
  local t = c.t
  local o, q = 5 * (foot - 1), 5 * (foot - 2)
  local x, y = t[q + 4], t[q + 5]
  t[o + 1], t[o + 2], t[o + 3], t[o + 4], t[o + 5] = x, y, ground, x + l * gc, y + l * gs
  c.wc[foot], c.ws[foot] = gc, gs
  c.angle[foot] = ground - t[q + 3]
  return reached
end

local function peer_frame(c, i, f)
  local bx, by, tx, ty, hlx, hly, hrx, hry, flx, fly, fla, frx, fry, fra = targets(i, f)
  local reached = 0
  for k = 1, 4 do place(c, k, bx, by) end -- hip, and the torso where it stands
  if peer_limb(c, 2, 4, tx, ty) then reached = reached + 1 end
  for k = 5, 10 do place(c, k, bx, by) end -- neck, head, left shoulder and arm
  if peer_limb(c, 8, 10, hlx, hly) then reached = reached + 1 end
  for k = 11, 14 do place(c, k, bx, by) end
  if peer_limb(c, 12, 14, hrx, hry) then reached = reached + 1 end
  for k = 15, 16 do place(c, k, bx, by) end -- thigh and shin: the foot is set
  if peer_leg(c, 15, flx, fly, fla) then reached = reached + 1 end
  for k = 18, 19 do place(c, k, bx, by) end
  if peer_leg(c, 18, frx, fry, fra) then reached = reached + 1 end
  return reached
end

local function peer_build(_, count)
  local chars = {}
  for i = 1, count do chars[i] = peer_character() end
  return { chars = chars, sink = 0, reached = 0 }
end

-- bones in index order: each placed with cos and sin (from its parent,
-- which a limb solved before has moved), a limb solved once its bones are
local function peer_frames(state, count, first, last)
  local chars, sink, reached = state.chars, state.sink, state.reached
  local n = 5 * NBONES
  for f = first, last do
    for i = 1, count do
      local c = chars[i]
      reached = reached + peer_frame(c, i, f)
      local t = c.t
      for k = 1, n do sink = sink + t[k] end
    end
  end
  state.sink, state.reached = sink, reached
end

-- ------------------------------------------------------------------
-- the rows
-- ------------------------------------------------------------------

local function with_arrays(build)
  return function(lib, count)
    local state = build(lib, count)
    for _, c in ipairs(state.chars) do c.a = c.sk:transform_array() end
    return state
  end
end

local modes = {
  { key = "peer", name = "plain-Lua peer", build = peer_build, frames = peer_frames },
}
-- goal: the speed against the peer a row should reach
local IK2D_GOAL = is_jit and 4 or 12
local function add(key, name, lib, frames, ffi, build, goal)
  modes[#modes + 1] = { key = key, name = name, lib = lib, frames = frames, ffi = ffi,
                        build = build or ik2d_build, goal = goal or IK2D_GOAL }
end
if is_jit and ik2d.ffi then
  add("ffi_array", "ik2d FFI, transform_array", ik2d, ik2d_frames_array, true,
      with_arrays(ik2d_build))
  add("ffi_table", "ik2d FFI, transforms(t)", ik2d, ik2d_frames_table, true)
  add("classic", "ik2d classic, transforms(t)", ik2d, ik2d_frames_table, false)
  add("group_array", "ik2d group of skeletons, arrays", ik2d, group_frames_array, true,
      group_build_arrays)
  add("group_table", "ik2d group of skeletons, tables", ik2d, group_frames_table, true,
      group_build)
else
  add("c", "ik2d, transforms(t)", ik2d, ik2d_frames_table)
  add("group_table", "ik2d group of skeletons, tables", ik2d, group_frames_table, nil, group_build)
end
add("pure", "pure-Lua core, transforms(t)", pure, ik2d_frames_table, nil, nil, 1)
add("pure_group", "pure-Lua core, group of skeletons, tables", pure, group_frames_table, nil,
    group_build, 1)

-- BENCH_ROWS="peer,pure" runs those rows alone (bench/character.sh runs
-- the pure core's rows under LuaJIT in a process of their own: its traces
-- fill LuaJIT's machine code area, and the flushes hit every row)
if os.getenv("BENCH_ROWS") then
  local keep, kept = {}, {}
  for key in os.getenv("BENCH_ROWS"):gmatch("[%w_]+") do keep[key] = true end
  for _, m in ipairs(modes) do if keep[m.key] then kept[#kept + 1] = m end end
  modes = kept
end

local function switch(mode)
  if mode.ffi ~= nil then ik2d.use_ffi(mode.ffi) end
end
local function restore(mode)
  if mode.ffi ~= nil then ik2d.use_ffi(true) end
end

-- Seconds a frame of mode (timing.per_frame); also the JIT's warm-up.
local function calibrate(mode, count)
  switch(mode)
  local state = mode.build(mode.lib, count)
  local per_frame = timing.per_frame(function(first, last) mode.frames(state, count, first, last) end,
                                     calibrate_time)
  restore(mode)
  return per_frame
end

-- Frames 1..F of mode on a fresh crowd, after WARM untimed frames (under
-- LuaJIT another row may have flushed every trace: the pure core's fill
-- the machine code area).
local WARM = is_jit and 3 or 1
local function measure(mode, count, F)
  switch(mode)
  full_gc()
  local state = mode.build(mode.lib, count)
  mode.frames(state, count, 1 - WARM, 0)
  full_gc()
  collectgarbage("stop")
  local m0 = collectgarbage("count")
  state.reached = 0
  local t0 = clock()
  mode.frames(state, count, 1, F)
  local seconds = clock() - t0
  local m1 = collectgarbage("count")
  collectgarbage("restart")
  restore(mode)
  local reached = state.reached / (5 * count * F)
  state = nil -- luacheck: ignore 311
  full_gc()
  return seconds, m1 - m0, reached
end

local function median(list)
  local s = {}
  for k, v in ipairs(list) do s[k] = v end
  table.sort(s)
  local n = #s
  if n % 2 == 1 then return s[(n + 1) / 2] end
  return (s[n / 2] + s[n / 2 + 1]) / 2
end

-- one row alone, for a profiler: about 5 s of its frames
if only then
  local mode
  for _, m in ipairs(modes) do if m.key == only then mode = m end end
  if not mode then error("no row " .. only) end
  local count = tonumber(os.getenv("BENCH_COUNTS")) or 100
  local F = math.max(1, floor(5 / calibrate(mode, count)))
  local seconds, kb = measure(mode, count, F)
  print(format("%s, %s, %d characters: %.3f us a character, %d frames, %.1f KB grown", label,
               mode.name, count, 1e6 * seconds / (count * F), F, kb))
  return
end

local counts = { 100, 1000 }
if os.getenv("BENCH_COUNTS") then
  counts = {}
  for c in os.getenv("BENCH_COUNTS"):gmatch("%d+") do counts[#counts + 1] = tonumber(c) end
end

local goals = {}
if os.getenv("BENCH_NO_HEADER") == nil then
  print("| runtime | characters | frame loop | us/character | ms/frame | x peer | x peer, rounds "
    .. "| limbs reached | KB grown |")
  print("|---|--:|---|--:|--:|--:|---|--:|--:|")
end
local started = clock()
for _, count in ipairs(counts) do
  progress("%s: %d characters:", label, count)
  local per_frame = {}
  for _, mode in ipairs(modes) do per_frame[mode.key] = calibrate(mode, count) end
  local fastest, slowest = math.huge, 0
  for _, t in pairs(per_frame) do
    fastest, slowest = math.min(fastest, t), math.max(slowest, t)
  end
  local F = target_time / fastest
  if F * slowest > slowest_time then F = slowest_time / slowest end
  F = math.max(1, floor(F + 0.5))
  progress(" %d frames, %d rounds\n", F, repeats)
  local times, kbs, reach = {}, {}, {}
  for _, mode in ipairs(modes) do times[mode.key], kbs[mode.key] = {}, 0 end
  -- every row in turn each round: a slow spell hits a round's rows alike
  for _ = 1, repeats do
    for _, mode in ipairs(modes) do
      local seconds, kb, reached = measure(mode, count, F)
      local list = times[mode.key]
      list[#list + 1] = seconds
      kbs[mode.key] = math.max(kbs[mode.key], kb)
      reach[mode.key] = reached
    end
  end
  for _, mode in ipairs(modes) do
    local list, ratios, shown = times[mode.key], {}, {}
    for r = 1, #list do
      ratios[r] = times.peer[r] / list[r]
      shown[r] = format("%.2f", ratios[r])
    end
    local seconds, ratio = median(list), median(ratios)
    if mode.goal then
      goals[#goals + 1] = format("- %s, %d characters, %s: %.2fx the peer, goal %gx: %s", label,
        count, mode.name, ratio, mode.goal, ratio >= mode.goal and "holds"
        or format("missed, %.1f times too slow", mode.goal / ratio))
    end
    progress("  %-32s%8.3f us a character\n", mode.name, 1e6 * seconds / (count * F))
    print(format("| %s | %d | %s | %.3f | %.3f | %.2f | %s | %.1f%% | %.1f |", label, count,
                 mode.name, 1e6 * seconds / (count * F), 1e3 * seconds / F, ratio,
                 table.concat(shown, " "), 100 * reach[mode.key], kbs[mode.key]))
    io.stdout:flush()
  end
end
progress("%s: done in %.1f s of CPU\n", label, clock() - started)

do
  local text = table.concat(goals, "\n") .. "\n"
  if goals_path then
    local file = assert(io.open(goals_path, "w"))
    file:write(text)
    file:close()
  else
    io.write("\n", text)
  end
end
