-- Skeleton frame bench: 100 characters of 20 bones with
-- 5 solvers each (a torso, two arms, two legs), targets moving as a game
-- moves them; the time of sk:solve() for all of them a frame, and of the
-- whole frame loop (targets set, solve, transforms read).  Also the same
-- characters with the arms starting at the spine, so that they share the
-- torso's bones with it and are solved together.
--
--   luajit bench/skeleton_bench.lua [frames]     (after make LUA=luajit)
--   lua5.4 bench/skeleton_bench.lua [frames]
package.path = "lua/?.lua;lua/?/init.lua;" .. package.path
package.cpath = (rawget(_G, "jit") and "build/luajit/?.so;" or "build/lua5.4/?.so;") .. package.cpath

local ik2d = require "ik2d"

local frames = tonumber(arg and arg[1]) or 600
local clock = os.clock
local sin, cos = math.sin, math.cos

-- 20 bones: a pivot, a 3-bone spine, neck, head, two 3-bone arms from the
-- shoulders, two 3-bone legs from the hip, a 2-bone tail
local function character(x, shared)
  local sk = ik2d.skeleton{ x = x, y = 300,
    { name = "hip", length = 0 },
    { name = "spine1", parent = "hip", length = 18, angle = -1.57, min = -0.5, max = 0.5 },
    { name = "spine2", parent = "spine1", length = 16, min = -0.4, max = 0.4 },
    { name = "chest", parent = "spine2", length = 16, min = -0.4, max = 0.4 },
    { name = "neck", parent = "chest", length = 6 },
    { name = "head", parent = "neck", length = 12, inherit = "position" },
    { name = "shoulder_l", parent = "chest", length = 8, angle = 1.6 },
    { name = "arm_l", parent = "shoulder_l", length = 22, angle = 0.3, min = -2.5, max = 2.5 },
    { name = "fore_l", parent = "arm_l", length = 20, angle = -0.4, min = -2.4, max = 0.4 },
    { name = "hand_l", parent = "fore_l", length = 6 },
    { name = "shoulder_r", parent = "chest", length = 8, angle = -1.6 },
    { name = "arm_r", parent = "shoulder_r", length = 22, angle = -0.3, min = -2.5, max = 2.5 },
    { name = "fore_r", parent = "arm_r", length = 20, angle = 0.4, min = -0.4, max = 2.4 },
    { name = "hand_r", parent = "fore_r", length = 6 },
    { name = "thigh_l", parent = "hip", length = 30, angle = 1.4, min = -1, max = 1 },
    { name = "shin_l", parent = "thigh_l", length = 28, angle = 0.2, min = 0, max = 2.2 },
    { name = "thigh_r", parent = "hip", length = 30, angle = 1.7, min = -1, max = 1 },
    { name = "shin_r", parent = "thigh_r", length = 28, angle = 0.2, min = 0, max = 2.2 },
    { name = "tail1", parent = "hip", length = 10, angle = 3 },
    { name = "tail2", parent = "tail1", length = 10 },
  }
  local arm_from = shared and "spine2" or "arm_l"
  local solvers = {
    ik2d.solver(sk:chain("spine1", "chest"), { iterations = 8, tolerance = 0.5 }),
    ik2d.solver(sk:chain(arm_from, "fore_l"), { iterations = 10, tolerance = 0.5 }),
    ik2d.solver(sk:chain(shared and "spine2" or "arm_r", "fore_r"), { iterations = 10, tolerance = 0.5 }),
    ik2d.solver(sk:chain("thigh_l", "shin_l"), { method = "two_bone", bend = 1, tolerance = 0.5 }),
    ik2d.solver(sk:chain("thigh_r", "shin_r"), { method = "two_bone", bend = 1, tolerance = 0.5 }),
  }
  return { sk = sk, solvers = solvers, x = x, t = {} }
end

local function run(shared)
  local chars = {}
  for i = 1, 100 do chars[i] = character(8 * i, shared) end
  local solve_time, loop_time, reached = 0, 0, 0
  for frame = 1, frames do
    local f0 = clock()
    local solve = 0
    for i = 1, 100 do
      local c, ph = chars[i], frame * 0.03 + i
      local s, x = c.solvers, c.x
      c.sk:set_base(x + 3 * sin(ph), 300 + 0.5 * sin(2 * ph))
      s[1]:set_target(x + 10 * sin(ph), 251)
      s[2]:set_target(x + 30 + 10 * cos(ph), 260 + 10 * sin(ph))
      s[3]:set_target(x - 30 + 10 * cos(ph), 262 + 10 * sin(1.3 * ph))
      s[4]:set_target(x + 10 + 12 * sin(ph), 352)
      s[5]:set_target(x - 10 - 12 * sin(ph), 352)
      local t0 = clock()
      reached = reached + c.sk:solve()
      solve = solve + clock() - t0
      c.sk:transforms(c.t)
    end
    if frame > frames / 5 then                           -- warmed up
      solve_time = solve_time + solve
      loop_time = loop_time + clock() - f0
    end
  end
  local n = frames - math.floor(frames / 5)
  return 1000 * solve_time / n, 1000 * loop_time / n, reached / (frames * 500)
end

local runtime = rawget(_G, "jit") and (jit.version .. (ik2d.ffi and ", FFI" or ", classic")) or _VERSION
for _, shared in ipairs{ false, true } do
  local solve, loop, share = run(shared)
  print(("%s: 100 characters x 20 bones x 5 solvers%s: sk:solve() %.3f ms a frame, "
         .. "whole loop %.3f ms a frame, %.1f%% of solves reached")
        :format(runtime, shared and " (arms share the spine: coupled solves)" or "",
                solve, loop, 100 * share))
end
