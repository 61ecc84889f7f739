-- A whole authored character a frame: the hero (examples/hero: 32 bones,
-- 3 IK solvers, 5 transform constraints, 26 drawn slots, two weighted
-- meshes, one of them deformed) playing its walk clip, through ik2d
-- (rig:apply: the set-up, the clip, the constraints, the world matrices;
-- rig:attachments: every drawn attachment's world vertices, tint and uvs
-- into reused tables) against the same playback in plain Lua
-- (bench/plain_rig.lua), for 1 and 100 characters, measured in
-- alternating rounds in one run.
--
--   luajit bench/rig_frame.lua [rounds]     (make bench-rig: LuaJIT, LuaJIT
--   lua5.4 bench/rig_frame.lua [rounds]      without the FFI, Lua 5.4, the
--                                            pure core)
--
-- Prints, before the timings, how far the plain runtime's vertices are
-- from ik2d's over every clip (the two play the same rig the same way;
-- trigonometry and the IK solvers' own ways differ in the last digits,
-- more where a solver's softness bends a leg), then per crowd the median
-- microseconds a character a frame of each and their ratio, and the
-- garbage a frame of each.

package.path = "lua/?.lua;lua/?/init.lua;bench/?.lua;" .. package.path
local jit_on = rawget(_G, "jit")
package.cpath = (jit_on and "build/luajit/?.so;" or "build/lua5.4/?.so;") .. package.cpath

local ik2d = require "ik2d"
local plain = dofile("bench/plain_rig.lua")
local timing = dofile("bench/timing.lua")

local ROUNDS = tonumber(arg and arg[1]) or 7
local HERO = "examples/hero/assets/hero.json"
local ATLAS = "examples/hero/assets/hero.atlas"
local CLIP = "walk"
local clock = os.clock

local runtime = (jit_on and jit.version or _VERSION) .. ", ik2d backend " .. ik2d.backend

-- ------------------------------------------------------------------
-- the characters
-- ------------------------------------------------------------------

local function crowd(n)
  local list = {}
  for k = 1, n do
    local rig = ik2d.rig.load(HERO, { atlas = ATLAS })
    local data = list[1] and list[1].data or plain.load(rig.description, rig.atlas)
    list[k] = { rig = rig, entries = {}, data = data, plain = plain.character(data), out = {},
      offset = (k - 1) * 0.013 }
  end
  return list
end

local duration

local function ik2d_frames(list)
  return function(first, last)
    for f = first, last do
      for k = 1, #list do
        local c = list[k]
        c.rig:apply(CLIP, (f / 60 + c.offset) % duration)
        c.rig:attachments(c.entries)
      end
    end
  end
end

local function plain_frames(list)
  return function(first, last)
    for f = first, last do
      for k = 1, #list do
        local c = list[k]
        c.plain:apply(CLIP, (f / 60 + c.offset) % duration)
        c.plain:attachments(c.out)
      end
    end
  end
end

-- The core's own part (under LuaJIT's FFI): rig:apply, and every drawn
-- attachment's world vertices into one buffer by ik2d_slots_all_vertices,
-- no Lua table written.
local core_frames
if ik2d.ffi then
  local ffi = require "ffi"
  local view = require("ik2d.ffi").rig_view
  core_frames = function(list)
    local out, drawn = ffi.new("double[?]", 4096), ffi.new("int[?]", 256)
    return function(first, last)
      for f = first, last do
        for k = 1, #list do
          local c = list[k]
          c.rig:apply(CLIP, (f / 60 + c.offset) % duration)
          local C, slots, sk = view(c.rig._core_slots, c.rig.skeleton)
          C.ik2d_slots_all_vertices(slots, sk, out, 4096, drawn)
        end
      end
    end
  end
end

-- ------------------------------------------------------------------
-- the same playback: how far apart the two runtimes' vertices are
-- ------------------------------------------------------------------

local function farthest(c)
  local worst, where = 0, ""
  for name, clip in pairs(c.rig.clips) do
    for step = 0, 30 do
      local time = clip.duration * step / 30
      c.rig:apply(name, time)
      local entries = c.rig:attachments(c.entries)
      c.plain:apply(name, time)
      local n = c.plain:attachments(c.out)
      if n ~= #entries then return math.huge, name .. ": drawn slots differ" end
      for k = 1, n do
        local a, b = entries[k].vertices, c.out[k].vertices
        if entries[k].slot_index ~= c.out[k].slot then return math.huge, name .. ": draw order differs" end
        for v = 1, #a do
          local d = math.abs(a[v] - b[v])
          if d > worst then worst, where = d, ("%s at %.2f s, slot %s"):format(name, time, entries[k].slot) end
        end
      end
    end
  end
  return worst, where
end

-- ------------------------------------------------------------------
-- timing
-- ------------------------------------------------------------------

local function median(t)
  table.sort(t)
  return t[math.floor((#t + 1) / 2)]
end

local function garbage(run)
  run(0, 30)
  timing.full_gc()
  collectgarbage("stop")
  local before = collectgarbage("count")
  run(31, 130)
  local after = collectgarbage("count")
  collectgarbage("restart")
  return (after - before) * 1024 / 100
end

local function measure(n)
  local list = crowd(n)
  local ours, theirs = ik2d_frames(list), plain_frames(list)
  local a, b = {}, {}
  local calibrate = n == 1 and 0.05 or 0.2
  for r = 1, ROUNDS do
    timing.full_gc()
    a[r] = timing.per_frame(ours, calibrate) / n
    timing.full_gc()
    b[r] = timing.per_frame(theirs, calibrate) / n
    timing.progress(".")
  end
  local us_ik2d, us_plain = median(a) * 1e6, median(b) * 1e6
  local us_core
  if core_frames then
    local c = {}
    for r = 1, ROUNDS do
      timing.full_gc()
      c[r] = timing.per_frame(core_frames(list), calibrate) / n
    end
    us_core = median(c) * 1e6
  end
  return us_ik2d, us_plain, garbage(ours) / n, garbage(theirs) / n, us_core
end

local first = crowd(1)[1]
duration = first.rig.clips[CLIP].duration
local worst, where = farthest(first)
print(("%s; the hero (%d bones, %d slots), clip %s"):format(runtime, #first.rig.skeleton,
  #first.rig.slots, CLIP))
print(("plain runtime vs ik2d: vertices at most %.3g apart over every clip (%s)"):format(worst, where))
print("characters   ik2d us/char   plain us/char   ratio   garbage B/char (ik2d, plain)   core alone us/char")
for _, n in ipairs({ 1, 100 }) do
  local t0 = clock()
  local ours, theirs, g_ours, g_theirs, core = measure(n)
  timing.progress(" %.1f s\n", clock() - t0)
  print(("%10d   %12.1f   %13.1f   %5.1fx   %14.0f, %.0f   %18s"):format(n, ours, theirs, theirs / ours,
    g_ours, g_theirs, core and ("%.1f"):format(core) or "-"))
end
