--- ik2d.pure.kernel: plain CCD solved by code made for one bone count.
--
-- A solve of plain CCD without the exact step (method "ccd", exact =
-- false: the textbook sweep and its root-to-tip twin, with damping and
-- parent-space limits; no tip angle, pole, one-bone stretch or skeleton)
-- is what a game runs most, many chains a frame.  For it, this module
-- writes the whole solve out for n bones, once per n and sweep (load),
-- with every rotation and joint in a local: the start (warm start or
-- pose, into the limits), the sweeps and forward passes, keep-best, the
-- sanity pass, the angles blended with the pose and the joints.  It is
-- the general path (ik2d.pure.solver with pose.lua and ccd.lua) term for
-- term, only unrolled: the same operations in the same order, so the
-- same bits (the diff spec compares both with the C core).  It needs no
-- table but the chain's and solver's own, so a solve allocates nothing.
--
-- A kernel returns the iterations used, whether the target is reached,
-- the distance and whether a bone ended on its limit (the solve's results,
-- measured as ik2d.pure.solver's M.measure and kept in the solver too: the
-- tip's numbers are at hand here), or before changing anything nil when
-- the solve needs what it leaves to the general path (a world-space
-- limit, or a target at or beyond the chain's reach: the straight pose),
-- false when a kernel made without limits meets one.
local m = require "ik2d.pure.math"
local limits = require "ik2d.pure.constraint"
local chains = require "ik2d.pure.chain"

local load = loadstring or load -- luacheck: ignore 113 143
local format, concat = string.format, table.concat
local N = require "ik2d.pure.numbers"
local TURN_MIN, TURN_MAX, STALL_GAIN = N.TURN_NORM_MIN, N.TURN_NORM_MAX, N.CCD_STALL_GAIN
local ROT_NORM_MIN, ROT_NORM_MAX, ROT_DRIFT = N.ROT_NORM_MIN, N.ROT_NORM_MAX, N.ROT_DRIFT

-- a number as source text that reads back as the same double
local function number(v)
  for digits = 15, 17 do
    local text = format("%." .. digits .. "g", v)
    if tonumber(text) == v then return text end
  end
end

local M = {}

--- the most bones a kernel is made for (a Lua function holds at most 200
-- locals: 4 per bone and joint, and the start kept)
M.MAX_BONES = 16

-- --- the source of an unrolled kernel ---------------------------------------
-- A writer (w) holds one kernel's making: its bone count n, tip (the
-- tip-to-root sweep), limited (some bone has a limit: code for limits
-- only where one can be) and the lines written so far, out.  Each stage
-- below writes one part of the solve, in the solve's order.

local function emit(w, ...)
  local out = w.out
  out[#out + 1] = format(...)
end

-- "c1, s1, c2, s2, ..." from a pattern with %d twice
local function list(w, pattern, first, last)
  local parts = {}
  for i = first or 1, last or w.n do parts[#parts + 1] = format(pattern, i, i) end
  return concat(parts, ", ")
end

-- the forward pass: joints x1..x(n+1) from the rotations
local function forward(w)
  emit(w, "wc, ws = bc, bs")
  for i = 1, w.n do
    emit(w, "wc, ws = wc * c%d - ws * s%d, wc * s%d + ws * c%d", i, i, i, i)
    emit(w, "x%d = x%d + l%d * wc", i + 1, i, i)
    emit(w, "y%d = y%d + l%d * ws", i + 1, i, i)
  end
end

-- joint i turned so that joint->tip points at the target, its limit and
-- the tip with it (written twice by turn: for a norm its squares hold,
-- and after hypot for one they do not)
local function turn_body(w, i)
  emit(w, "local tc, ts = dot / norm, cross / norm")
  emit(w, "if tc < damping_c then")
  emit(w, "tc = damping_c")
  emit(w, "if ts < 0.0 then ts = -damping_s else ts = damping_s end")
  emit(w, "end")
  if w.limited then emit(w, "local oc, os = c%d, s%d", i, i) end
  emit(w, "c%d, s%d = c%d * tc - s%d * ts, c%d * ts + s%d * tc", i, i, i, i, i, i)
  emit(w, "tip_x = x%d + tc * ax - ts * ay", i)
  emit(w, "tip_y = y%d + ts * ax + tc * ay", i)
  if w.limited then
    emit(w, "local limit = constraint[%d]", i)
    emit(w, "if limit and not limit.full then")
    emit(w, "local moved, nc, ns = clamp_rot(limit, mid_c[%d], mid_s[%d], c%d, s%d)", i, i, i, i)
    emit(w, "if moved then")
    emit(w, "c%d, s%d = nc, ns", i, i)
    emit(w, "tc, ts = oc * nc + os * ns, oc * ns - os * nc")
    emit(w, "tip_x = x%d + tc * ax - ts * ay", i)
    emit(w, "tip_y = y%d + ts * ax + tc * ay", i)
    emit(w, "end")
    emit(w, "end")
  end
end

-- joint i's turn; then the distance, and within the tolerance the run
-- ends (break: out of the iterations); root to tip, the joint after it
local function turn(w, i)
  emit(w, "do")
  emit(w, "local ax, ay = tip_x - x%d, tip_y - y%d", i, i)
  emit(w, "local gx, gy = tx - x%d, ty - y%d", i, i)
  emit(w, "local dot = ax * gx + ay * gy")
  emit(w, "local cross = ax * gy - ay * gx")
  emit(w, "local norm = sqrt(dot * dot + cross * cross)")
  emit(w, "if norm > tiny and norm < huge then")
  turn_body(w, i)
  emit(w, "else")
  emit(w, "norm = hypot(dot, cross)")
  emit(w, "if norm > 0.0 then")
  turn_body(w, i)
  emit(w, "end")
  emit(w, "end")
  emit(w, "local dx, dy = tx - tip_x, ty - tip_y")
  emit(w, "distance_sq = dx * dx + dy * dy")
  emit(w, "if distance_sq <= tol_sq then")
  emit(w, "used = iteration")
  emit(w, "break")
  emit(w, "end")
  if not w.tip then
    emit(w, "wc, ws = wc * c%d - ws * s%d, wc * s%d + ws * c%d", i, i, i, i)
    emit(w, "x%d = x%d + l%d * wc", i + 1, i, i)
    emit(w, "y%d = y%d + l%d * ws", i + 1, i, i)
  end
  emit(w, "end")
end

-- ik = atan2(s, c) of the solution's rotation, M.atan2 written out (PUC
-- Lua: no call, its constants as literals; a zero part goes to the
-- function)
local function atan2_inline(w)
  local A = m.ATAN2
  local function lit(x) return format("%.17g", x) end
  emit(w, "do")
  emit(w, "local ax, ay = c, s")
  emit(w, "if c < 0.0 then ax = -c end")
  emit(w, "if s < 0.0 then ay = -s end")
  -- (after the sanity pass both parts are finite: |c|, |s| < 2)
  emit(w, "if ax > 0.0 and ay > 0.0 then")
  emit(w, "local t")
  emit(w, "local steep = ay > ax")
  emit(w, "if steep then t = ax / ay else t = ay / ax end")
  emit(w, "local k = 8.0 * t")
  emit(w, "k = k - k %% 1.0")
  emit(w, "local e = 0.125 * k")
  emit(w, "local u = (t - e) / (1.0 + t * e)")
  emit(w, "local u2 = u * u")
  emit(w, "ik = atan_eighths[k + 1] + u * (1.0 + u2 * (%s + u2 * (%s + u2 * (%s + u2 * (%s"
       .. " + u2 * (%s + u2 * (%s + u2 * (%s + u2 * (%s + u2 * %s)))))))))", lit(A.A3),
       lit(A.A5), lit(A.A7), lit(A.A9), lit(A.A11), lit(A.A13), lit(A.A15), lit(A.A17),
       lit(A.A19))
  emit(w, "if steep then ik = (%s - ik) + %s end", lit(A.HALF_PI_HI), lit(A.HALF_PI_LO))
  emit(w, "if c < 0.0 then ik = (%s - ik) + %s end", lit(A.PI_HI), lit(A.PI_LO))
  emit(w, "if s < 0.0 then ik = -ik end")
  emit(w, "else")
  emit(w, "ik = atan2(s, c)")
  emit(w, "end")
  emit(w, "end")
end

-- bone i into its limit (the start, and the sanity pass)
local function clamp(w, i)
  if not w.limited then return end
  emit(w, "do")
  emit(w, "local limit = constraint[%d]", i)
  emit(w, "if limit and not limit.full then")
  emit(w, "local _, nc, ns = clamp_rot(limit, mid_c[%d], mid_s[%d], c%d, s%d)", i, i, i, i)
  emit(w, "c%d, s%d = nc, ns", i, i)
  emit(w, "end")
  emit(w, "end")
end

-- The chunk's head (what it takes, the kernel's parameters) and the
-- limits: a kernel without them hands a limited chain to its twin
-- (false), one with them a world-space limit to the general path (nil).
local function write_head(w)
  emit(w, "local sqrt, hypot, rot, abs, atan2, wrap, clamp_rot, limit_clamp, update_joints, PI,"
       .. " atan_eighths, measured = ...")
  emit(w, "return function(sv, ch, settings, weight, P)")
  emit(w, "local length, constraint = ch.length, ch.constraint")
  if w.limited then emit(w, "local mid_c, mid_s = P.mid_c, P.mid_s") end
  for i = 1, w.n do
    emit(w, "do")
    emit(w, "local limit = constraint[%d]", i)
    emit(w, "if limit and not limit.full then")
    if w.limited then
      emit(w, "if limit.world then return nil end")
    else
      emit(w, "return false")
    end
    emit(w, "end")
    emit(w, "end")
  end
end

-- The start: the warm start or the pose; each limit's middle, and the
-- start into it; the start kept for keep-best.
local function write_start(w)
  local n = w.n
  emit(w, "local %s = %s", list(w, "l%d"), list(w, "length[%d]"))
  emit(w, "local %s", list(w, "c%d, s%d"))
  emit(w, "if settings.warm_start and sv.have_solution then")
  emit(w, "local solution_c, solution_s = sv.solution_c, sv.solution_s")
  emit(w, "%s = %s", list(w, "c%d, s%d"), list(w, "solution_c[%d], solution_s[%d]"))
  emit(w, "else")
  emit(w, "local pose = ch.pose")
  for i = 1, n do emit(w, "c%d, s%d = rot(pose[%d])", i, i, i, i) end
  emit(w, "end")
  if w.limited then
    emit(w, "local rest_c, rest_s = ch.rest_c, ch.rest_s")
    for i = 1, n do
      emit(w, "do")
      emit(w, "local limit = constraint[%d]", i)
      emit(w, "if limit and not limit.full then")
      emit(w, "local c, s, lc, ls = rest_c[%d], rest_s[%d], limit.mid_c, limit.mid_s", i, i)
      emit(w, "mid_c[%d], mid_s[%d] = c * lc - s * ls, c * ls + s * lc", i, i)
      emit(w, "end")
      emit(w, "end")
    end
  end
  for i = 1, n do clamp(w, i) end
  emit(w, "local %s = %s", list(w, "start_c%d, start_s%d"), list(w, "c%d, s%d"))
end

-- The pose fields (base, target in chain space, tolerance, damping) and
-- the first forward pass, with its distance to the target.
local function write_fields(w)
  local n = w.n
  emit(w, "local bx, by, bc, bs = ch.base_x, ch.base_y, ch.base_c, ch.base_s")
  emit(w, "local tx, ty = sv.target_x, sv.target_y")
  emit(w, "if not sv.has_target then")
  emit(w, "local joints = ch.joints")
  emit(w, "tx, ty = joints[%d], joints[%d]", 2 * n + 1, 2 * n + 2)
  emit(w, "end")
  emit(w, "if ch.flip then tx = 2.0 * bx - tx end")
  emit(w, "local tol_sq = settings.tolerance * settings.tolerance")
  -- the norms a turn takes from its squares (outside: hypot), in registers
  emit(w, "local tiny, huge = %s, %s", number(N.TURN_NORM_MIN), number(N.TURN_NORM_MAX))
  emit(w, "local damping_c, damping_s = settings.damping_c, settings.damping_s")
  emit(w, "local x1, y1 = bx, by")
  emit(w, "local %s", list(w, "x%d, y%d", 2, n + 1))
  emit(w, "local wc, ws")
  forward(w)
  emit(w, "local dx, dy = tx - x%d, ty - y%d", n + 1, n + 1)
  emit(w, "local distance_sq = dx * dx + dy * dy")
  emit(w, "local used = 0")
end

-- The run, unless the first pass is within the tolerance already: a
-- target out of reach goes to the general path (its straight pose);
-- each iteration a sweep and a forward pass; a stalled run or the last
-- iteration ends it, keeping the best of the start and the end.
local function write_run(w)
  local n = w.n
  emit(w, "if not (distance_sq <= tol_sq) then")
  emit(w, "local ux, uy = tx - bx, ty - by")
  emit(w, "local distance = sqrt(ux * ux + uy * uy)")
  emit(w, "if distance >= ch.reach and distance ~= 0.0 then return nil end")
  emit(w, "local iterations = settings.iterations")
  emit(w, "local iteration, start_sq = 1, distance_sq")
  emit(w, "used = iterations")
  emit(w, "while true do")
  emit(w, "local before_sq = distance_sq")
  emit(w, "local tip_x, tip_y = x%d, y%d", n + 1, n + 1)
  if w.tip then
    for i = n, 1, -1 do turn(w, i) end
  else
    emit(w, "wc, ws = bc, bs")
    for i = 1, n do turn(w, i) end
  end
  forward(w)
  emit(w, "dx, dy = tx - x%d, ty - y%d", n + 1, n + 1)
  emit(w, "distance_sq = dx * dx + dy * dy")
  emit(w, "local ended")
  emit(w, "if before_sq - distance_sq <= %s * before_sq then", number(N.CCD_STALL_GAIN))
  emit(w, "used = iteration")
  emit(w, "ended = true")
  emit(w, "else")
  emit(w, "iteration = iteration + 1")
  emit(w, "ended = iteration > iterations")
  emit(w, "end")
  emit(w, "if ended then")
  emit(w, "if distance_sq >= start_sq then")
  emit(w, "%s = %s", list(w, "c%d, s%d"), list(w, "start_c%d, start_s%d"))
  emit(w, "end")
  emit(w, "break")
  emit(w, "end")
  emit(w, "end")
  emit(w, "end")
end

-- The sanity pass: a rotation NaN, zero or far from unit drops the run
-- for the start; off unit length, it goes back on it and into its limit.
local function write_sanity(w)
  emit(w, "repeat")
  for i = 1, w.n do
    emit(w, "do")
    emit(w, "local norm = c%d * c%d + s%d * s%d", i, i, i, i)
    emit(w, "if not (norm > %s and norm < %s) then", number(N.ROT_NORM_MIN), number(N.ROT_NORM_MAX))
    emit(w, "%s = %s", list(w, "c%d, s%d"), list(w, "start_c%d, start_s%d"))
    emit(w, "break")
    emit(w, "end")
    emit(w, "local off = norm - 1.0")
    emit(w, "if off > %s or off < -%s then", number(N.ROT_DRIFT), number(N.ROT_DRIFT))
    emit(w, "norm = sqrt(norm)")
    emit(w, "c%d, s%d = c%d / norm, s%d / norm", i, i, i, i)
    emit(w, "end")
    emit(w, "end")
    clamp(w, i)
  end
  emit(w, "until true")
end

-- limited: a bone on the edge of its arc
local function write_on_limit(w)
  emit(w, "local on_limit = false")
  if not w.limited then return end
  for i = 1, w.n do
    emit(w, "do")
    emit(w, "local limit = constraint[%d]", i)
    emit(w, "if not on_limit and limit and not limit.full then")
    emit(w, "local mc, ms = mid_c[%d], mid_s[%d]", i, i)
    emit(w, "local rel_c, rel_s = mc * c%d + ms * s%d, mc * s%d - ms * c%d", i, i, i, i)
    emit(w, "on_limit = abs(atan2(rel_s, rel_c)) >= limit.half - %s", number(N.ON_LIMIT))
    emit(w, "end")
    emit(w, "end")
  end
end

-- The solution, its angles and the result: pose + weight * delta, delta
-- inside the limits.
local function write_angles(w)
  local limited = w.limited
  local pi = format("%.17g", m.PI)
  emit(w, "sv.limited = on_limit")
  emit(w, "sv.have_solution = true")
  emit(w, "local solution_c, solution_s, solution_angle = sv.solution_c, sv.solution_s,"
       .. " sv.solution_angle")
  emit(w, "local chain_pose, angle, rest = ch.pose, ch.angle, ch.rest")
  for i = 1, w.n do
    emit(w, "do")
    emit(w, "local c, s = c%d, s%d", i, i)
    -- the rotation of the last solution again (both parts nonzero: equal
    -- numbers, equal bits): its angle, atan2 of the same numbers
    emit(w, "local ik")
    emit(w, "if c == solution_c[%d] and s == solution_s[%d] and c * s ~= 0.0 then", i, i)
    emit(w, "ik = solution_angle[%d]", i)
    emit(w, "else")
    emit(w, "solution_c[%d], solution_s[%d] = c, s", i, i)
    atan2_inline(w)
    emit(w, "solution_angle[%d] = ik", i)
    emit(w, "end")
    -- (a kernel without limits met none: no bone's limit to look at)
    emit(w, "local p = chain_pose[%d]", i)
    emit(w, "local delta")
    if limited then
      emit(w, "local limit = constraint[%d]", i)
      emit(w, "if limit and not limit.full then")
      emit(w, "local r, mid = rest[%d], limit.mid", i)
      emit(w, "delta = limit_clamp(limit, ik - r) - (mid + wrap(p - r - mid))")
      emit(w, "else")
    end
    emit(w, "delta = ik - p")
    emit(w, "if not (delta >= -%s and delta < %s) then delta = wrap(delta) end", pi, pi)
    if limited then emit(w, "end") end
    emit(w, "if weight == 1.0 then angle[%d] = p + delta else angle[%d] = p + weight * delta end",
         i, i)
    emit(w, "end")
  end
end

-- The joints, the solution's (no trig) or the blend's, and the kernel's
-- end: the measure of the tip.
local function write_joints(w)
  local n = w.n
  emit(w, "ch.uniform = settings.uniform")
  emit(w, "ch.scale = 1.0")
  emit(w, "local ex, ey")
  emit(w, "if weight == 1.0 then")
  forward(w)
  emit(w, "local joints = ch.joints")
  emit(w, "if ch.flip then")
  emit(w, "local bx2 = 2.0 * bx")
  for i = 1, n + 1 do emit(w, "joints[%d], joints[%d] = bx2 - x%d, y%d", 2 * i - 1, 2 * i, i, i) end
  emit(w, "ex = bx2 - x%d", n + 1)
  emit(w, "else")
  for i = 1, n + 1 do emit(w, "joints[%d], joints[%d] = x%d, y%d", 2 * i - 1, 2 * i, i, i) end
  emit(w, "ex = x%d", n + 1)
  emit(w, "end")
  emit(w, "ey = y%d", n + 1)
  emit(w, "else")
  emit(w, "update_joints(ch)")
  emit(w, "local joints = ch.joints")
  emit(w, "ex, ey = joints[%d], joints[%d]", 2 * n + 1, 2 * n + 2)
  emit(w, "end")
  emit(w, "return measured(sv, settings, used, ex, ey, on_limit)")
  emit(w, "end")
end

-- The source of the kernel for n bones; tip: the tip-to-root sweep;
-- limited: some bone has a limit (code for limits only where one can be).
local function source(n, tip, limited)
  local w = { n = n, tip = tip, limited = limited, out = {} }
  write_head(w)
  write_start(w)
  write_fields(w)
  write_run(w)
  write_sanity(w)
  write_on_limit(w)
  write_angles(w)
  write_joints(w)
  return concat(w.out, "\n")
end
M.source = source

-- ------------------------------------------------------------------
-- loops: the same solve written with loops over arrays
-- ------------------------------------------------------------------

-- LuaJIT compiles the unrolled kernels badly: each rotation and joint a
-- value carried around the iteration loop, a long chain has more of them
-- than registers and snapshot slots ("too many spill slots", "register
-- coalescing too complex", "trace too long"), and its traces abort or
-- blacklist (10 bones: 5 times the plain-Lua peer's time).  Its traces of
-- short loops over arrays are tight instead.  So under LuaJIT a free
-- chain (no limit but full ones) is solved by the loop kernel of its
-- sweep: the unrolled kernel's operations in the same order, the
-- rotations and joints in arrays instead of locals, so the same bits.
local sqrt, rot = math.sqrt, m.rot
local hypot, atan2, wrap, PI = m.hypot, m.atan2_flat, m.wrap, m.PI
local update_joints = chains.update_joints

-- A kernel's end: the measure (ik2d.pure.solver's M.measure: hypot only
-- where the squares overflow or underflow) of the tip (x, y) it just
-- wrote, kept in the solver; returns the kernel's results.
local function measured(sv, settings, used, x, y, limited)
  local tx, ty = x, y
  if sv.has_target then tx, ty = sv.target_x, sv.target_y end
  local dx, dy = tx - x, ty - y
  local squared = dx * dx + dy * dy
  local distance
  if squared < 1e300 and squared > 1e-300 then distance = sqrt(squared) else distance = hypot(dx, dy) end
  local reached = distance <= settings.tolerance
  sv.iterations, sv.distance, sv.reached = used, distance, reached
  return used, reached, distance, limited
end

-- One sweep's loop kernel: solve(sv, ch, settings, weight, P) -> the
-- iterations used, on the solver's pose P (its rotations, joints, and
-- the start kept for keep-best, taken into locals: LuaJIT checks a
-- local's bounds once before a loop, a table field's in every turn);
-- false: a bone has a limit; nil: the target is at or
-- beyond the reach (the general path's straight pose).  Nothing of sv or
-- ch changes before it answers false or nil.
--
-- Written for LuaJIT's traces: every loop in this one function (a trace
-- that leaves a called function's loop returns to the interpreter), the
-- unrolled kernel's passes merged where they run over the same bones
-- (the start with the first forward pass; the solution, its angles and
-- the joints), per bone the same operations in the same order, so the
-- same bits; constants as literals (LuaJIT keeps them out of registers);
-- the angles from m.atan2_flat (M.atan2's bits without its branches).
local function loop_kernel(tip_first)
  return function(sv, ch, settings, weight, P)
    local rc, rs, jx, jy, start_c, start_s = P.rc, P.rs, P.jx, P.jy, P.start_c, P.start_s
    local n, length = ch.count, ch.length
    local bx, by, bc, bs = ch.base_x, ch.base_y, ch.base_c, ch.base_s
    -- the start (warm start or pose) and the first forward pass; a bone
    -- with a limit (not full) goes to the caller
    local constraint = ch.constraint
    local warm = settings.warm_start and sv.have_solution
    local solution_c, solution_s, chain_pose = sv.solution_c, sv.solution_s, ch.pose
    local wc, ws, x, y = bc, bs, bx, by
    for i = 1, n do
      local limit = constraint[i]
      if limit and not limit.full then return false end
      local c, s
      if warm then
        c, s = solution_c[i], solution_s[i]
      else
        local p = chain_pose[i]
        c, s = rot(p)
      end
      rc[i], rs[i], start_c[i], start_s[i] = c, s, c, s
      wc, ws = wc * c - ws * s, wc * s + ws * c
      jx[i], jy[i] = x, y
      local l = length[i]
      x = x + l * wc
      y = y + l * ws
    end
    jx[n + 1], jy[n + 1] = x, y
    local tx, ty = sv.target_x, sv.target_y
    if not sv.has_target then
      local joints = ch.joints
      tx, ty = joints[2 * n + 1], joints[2 * n + 2]
    end
    if ch.flip then tx = 2.0 * bx - tx end
    local tol_sq = settings.tolerance * settings.tolerance
    local dx, dy = tx - x, ty - y
    local distance_sq = dx * dx + dy * dy
    local used = 0
    if not (distance_sq <= tol_sq) then
      local ux, uy = tx - bx, ty - by
      local distance = sqrt(ux * ux + uy * uy)
      if distance >= ch.reach and distance ~= 0.0 then return nil end
      local damping_c, damping_s = settings.damping_c, settings.damping_s
      local iterations = settings.iterations
      local start_sq = distance_sq
      used = iterations
      for iteration = 1, iterations do
        local before_sq = distance_sq
        local tip_x, tip_y = x, y
        local done = false
        if tip_first then
          for i = n, 1, -1 do
            local px, py = jx[i], jy[i]
            local ax, ay = tip_x - px, tip_y - py
            local gx, gy = tx - px, ty - py
            local dot = ax * gx + ay * gy
            local cross = ax * gy - ay * gx
            local norm = sqrt(dot * dot + cross * cross)
            if not (norm > TURN_MIN and norm < TURN_MAX) then norm = hypot(dot, cross) end
            if norm > 0.0 then
              local tc, ts = dot / norm, cross / norm
              if tc < damping_c then
                tc = damping_c
                if ts < 0.0 then ts = -damping_s else ts = damping_s end
              end
              local oc, os = rc[i], rs[i]
              rc[i], rs[i] = oc * tc - os * ts, oc * ts + os * tc
              tip_x = px + tc * ax - ts * ay
              tip_y = py + ts * ax + tc * ay
            end
            dx, dy = tx - tip_x, ty - tip_y
            distance_sq = dx * dx + dy * dy
            if distance_sq <= tol_sq then
              done = true
              break
            end
          end
        else
          wc, ws = bc, bs
          for i = 1, n do
            local px, py = jx[i], jy[i]
            local ax, ay = tip_x - px, tip_y - py
            local gx, gy = tx - px, ty - py
            local dot = ax * gx + ay * gy
            local cross = ax * gy - ay * gx
            local norm = sqrt(dot * dot + cross * cross)
            if not (norm > TURN_MIN and norm < TURN_MAX) then norm = hypot(dot, cross) end
            if norm > 0.0 then
              local tc, ts = dot / norm, cross / norm
              if tc < damping_c then
                tc = damping_c
                if ts < 0.0 then ts = -damping_s else ts = damping_s end
              end
              local oc, os = rc[i], rs[i]
              rc[i], rs[i] = oc * tc - os * ts, oc * ts + os * tc
              tip_x = px + tc * ax - ts * ay
              tip_y = py + ts * ax + tc * ay
            end
            dx, dy = tx - tip_x, ty - tip_y
            distance_sq = dx * dx + dy * dy
            if distance_sq <= tol_sq then
              done = true
              break
            end
            local c, s = rc[i], rs[i]
            wc, ws = wc * c - ws * s, wc * s + ws * c
            local l = length[i]
            jx[i + 1] = px + l * wc
            jy[i + 1] = py + l * ws
          end
        end
        if done then
          used = iteration
          break
        end
        -- the forward pass after a sweep
        wc, ws, x, y = bc, bs, bx, by
        for i = 1, n do
          local c, s = rc[i], rs[i]
          wc, ws = wc * c - ws * s, wc * s + ws * c
          jx[i], jy[i] = x, y
          local l = length[i]
          x = x + l * wc
          y = y + l * ws
        end
        jx[n + 1], jy[n + 1] = x, y
        dx, dy = tx - x, ty - y
        distance_sq = dx * dx + dy * dy
        -- a stalled run or the last iteration ends it; keep best
        local ended = iteration == iterations
        if before_sq - distance_sq <= STALL_GAIN * before_sq then
          used = iteration
          ended = true
        end
        if ended then
          if distance_sq >= start_sq then
            for k = 1, n do rc[k], rs[k] = start_c[k], start_s[k] end
          end
          break
        end
      end
    end
    -- the sanity pass: a rotation NaN, zero or far from unit drops the
    -- run for the start; one off unit length by more than 1e-14 goes
    -- back on it
    for i = 1, n do
      local c, s = rc[i], rs[i]
      local norm = c * c + s * s
      if not (norm > ROT_NORM_MIN and norm < ROT_NORM_MAX) then
        for k = 1, n do rc[k], rs[k] = start_c[k], start_s[k] end
        break
      end
      local off = norm - 1.0
      if off > ROT_DRIFT or off < -ROT_DRIFT then
        norm = sqrt(norm)
        rc[i], rs[i] = c / norm, s / norm
      end
    end
    sv.limited = false
    sv.have_solution = true
    local solution_angle, angle = sv.solution_angle, ch.angle
    ch.uniform = settings.uniform
    ch.scale = 1.0
    if weight == 1.0 then
      -- the solution, its angles, and the joints from the rotations (no
      -- trig), in one pass
      local joints = ch.joints
      local flip, bx2 = ch.flip, 2.0 * bx
      wc, ws, x, y = bc, bs, bx, by
      for i = 1, n do
        local c, s = rc[i], rs[i]
        -- the last solution's rotation again (both parts nonzero: equal
        -- numbers, equal bits): its angle, atan2 of the same numbers
        local ik
        if c == solution_c[i] and s == solution_s[i] and c * s ~= 0.0 then
          ik = solution_angle[i]
        else
          solution_c[i], solution_s[i] = c, s
          ik = atan2(s, c)
          solution_angle[i] = ik
        end
        local p = chain_pose[i]
        local delta = ik - p
        if not (delta >= -PI and delta < PI) then delta = wrap(delta) end
        angle[i] = p + delta
        wc, ws = wc * c - ws * s, wc * s + ws * c
        if flip then joints[2 * i - 1] = bx2 - x else joints[2 * i - 1] = x end
        joints[2 * i] = y
        local l = length[i]
        x = x + l * wc
        y = y + l * ws
      end
      if flip then x = bx2 - x end
      joints[2 * n + 1], joints[2 * n + 2] = x, y
    else
      for i = 1, n do
        local c, s = rc[i], rs[i]
        -- the last solution's rotation again (both parts nonzero: equal
        -- numbers, equal bits): its angle, atan2 of the same numbers
        local ik
        if c == solution_c[i] and s == solution_s[i] and c * s ~= 0.0 then
          ik = solution_angle[i]
        else
          solution_c[i], solution_s[i] = c, s
          ik = atan2(s, c)
          solution_angle[i] = ik
        end
        local p = chain_pose[i]
        local delta = ik - p
        if not (delta >= -PI and delta < PI) then delta = wrap(delta) end
        angle[i] = p + weight * delta
      end
      update_joints(ch)
      local joints = ch.joints
      x, y = joints[2 * n + 1], joints[2 * n + 2]
    end
    return measured(sv, settings, used, x, y, false)
  end
end
local loop_tip, loop_root = loop_kernel(true), loop_kernel(false)

--- The loop kernel for a sweep ("tip", "root"): solve(sv, ch, settings,
-- weight, P) -> the iterations used, reached, distance, limited; false (a
-- limit) or nil (as a kernel's).
function M.loop(sweep)
  if sweep == "tip" then return loop_tip end
  return loop_root
end

--- whether solves take the loop kernels (LuaJIT) or the unrolled ones
-- (PUC Lua's interpreter: locals are registers there, array slots are
-- not); IK2D_PURE_LOOPS=1 or 0 in the environment chooses (the tests run
-- both on every runtime)
do
  local forced = os.getenv("IK2D_PURE_LOOPS")
  if forced == "1" or forced == "0" then
    M.LOOPS = forced == "1"
  else
    M.LOOPS = rawget(_G, "jit") ~= nil
  end
end

local kernels = {}

--- The kernel for n bones (1 .. MAX_BONES), the sweep ("tip", "root")
-- and whether it handles limits.  A kernel: solve(sv, ch, settings,
-- weight, P) -> the iterations used, reached, distance, limited (P: the solver's pose, whose limit
-- middles mid_c, mid_s it fills); false: the chain has a
-- limit (the limited kernel's solve); nil: the general path's.
function M.get(n, sweep, limited)
  local key = n * 4 + (sweep == "tip" and 2 or 0) + (limited and 1 or 0)
  local kernel = kernels[key]
  if not kernel then
    local chunk = assert(load(source(n, sweep == "tip", limited), "=ik2d.pure.kernel"))
    kernel = chunk(math.sqrt, m.hypot, m.rot, math.abs, m.atan2, m.wrap,
                   limits.clamp_rot, limits.clamp, chains.update_joints, m.PI, m.ATAN2.eighths,
                   measured)
    kernels[key] = kernel
  end
  return kernel
end

return M
