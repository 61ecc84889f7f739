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

-- The source of the kernel for n bones; tip: the tip-to-root sweep;
-- limited: some bone has a limit (code for limits only where one can be).
local function source(n, tip, limited)
  local out = {}
  local function emit(...) out[#out + 1] = format(...) end
  -- "c1, s1, c2, s2, ..." from a pattern with %d twice
  local function list(pattern, first, last)
    local parts = {}
    for i = first or 1, last or n do parts[#parts + 1] = format(pattern, i, i) end
    return concat(parts, ", ")
  end
  -- the forward pass: joints x1..x(n+1) from the rotations
  local function forward()
    emit("wc, ws = bc, bs")
    for i = 1, n do
      emit("wc, ws = wc * c%d - ws * s%d, wc * s%d + ws * c%d", i, i, i, i)
      emit("x%d = x%d + l%d * wc", i + 1, i, i)
      emit("y%d = y%d + l%d * ws", i + 1, i, i)
    end
  end
  -- joint i turned so that joint->tip points at the target, its limit
  -- and the tip with it; then the distance, and within the tolerance the
  -- run ends (break: out of the iterations).  The turn is written twice:
  -- for a norm its squares hold, and after hypot for one they do not.
  local function turn_body(i)
    emit("local tc, ts = dot / norm, cross / norm")
    emit("if tc < damping_c then")
    emit("tc = damping_c")
    emit("if ts < 0.0 then ts = -damping_s else ts = damping_s end")
    emit("end")
    if limited then emit("local oc, os = c%d, s%d", i, i) end
    emit("c%d, s%d = c%d * tc - s%d * ts, c%d * ts + s%d * tc", i, i, i, i, i, i)
    emit("tip_x = x%d + tc * ax - ts * ay", i)
    emit("tip_y = y%d + ts * ax + tc * ay", i)
    if limited then
      emit("local limit = constraint[%d]", i)
      emit("if limit and not limit.full then")
      emit("local moved, nc, ns = clamp_rot(limit, mid_c[%d], mid_s[%d], c%d, s%d)", i, i, i, i)
      emit("if moved then")
      emit("c%d, s%d = nc, ns", i, i)
      emit("tc, ts = oc * nc + os * ns, oc * ns - os * nc")
      emit("tip_x = x%d + tc * ax - ts * ay", i)
      emit("tip_y = y%d + ts * ax + tc * ay", i)
      emit("end")
      emit("end")
    end
  end
  local function turn(i)
    emit("do")
    emit("local ax, ay = tip_x - x%d, tip_y - y%d", i, i)
    emit("local gx, gy = tx - x%d, ty - y%d", i, i)
    emit("local dot = ax * gx + ay * gy")
    emit("local cross = ax * gy - ay * gx")
    emit("local norm = sqrt(dot * dot + cross * cross)")
    emit("if norm > tiny and norm < huge then")
    turn_body(i)
    emit("else")
    emit("norm = hypot(dot, cross)")
    emit("if norm > 0.0 then")
    turn_body(i)
    emit("end")
    emit("end")
    emit("local dx, dy = tx - tip_x, ty - tip_y")
    emit("distance_sq = dx * dx + dy * dy")
    emit("if distance_sq <= tol_sq then")
    emit("used = iteration")
    emit("break")
    emit("end")
    if not tip then
      emit("wc, ws = wc * c%d - ws * s%d, wc * s%d + ws * c%d", i, i, i, i)
      emit("x%d = x%d + l%d * wc", i + 1, i, i)
      emit("y%d = y%d + l%d * ws", i + 1, i, i)
    end
    emit("end")
  end
  -- ik = atan2(s, c) of the solution's rotation, M.atan2 written out
  -- (PUC Lua: no call, its constants as literals; a zero part goes to
  -- the function)
  local function atan2_inline()
    local A = m.ATAN2
    local function lit(x) return format("%.17g", x) end
    emit("do")
    emit("local ax, ay = c, s")
    emit("if c < 0.0 then ax = -c end")
    emit("if s < 0.0 then ay = -s end")
    -- (after the sanity pass both parts are finite: |c|, |s| < 2)
    emit("if ax > 0.0 and ay > 0.0 then")
    emit("local t")
    emit("local steep = ay > ax")
    emit("if steep then t = ax / ay else t = ay / ax end")
    emit("local k = 8.0 * t")
    emit("k = k - k %% 1.0")
    emit("local e = 0.125 * k")
    emit("local u = (t - e) / (1.0 + t * e)")
    emit("local u2 = u * u")
    emit("ik = atan_eighths[k + 1] + u * (1.0 + u2 * (%s + u2 * (%s + u2 * (%s + u2 * (%s"
         .. " + u2 * (%s + u2 * (%s + u2 * (%s + u2 * (%s + u2 * %s)))))))))", lit(A.A3),
         lit(A.A5), lit(A.A7), lit(A.A9), lit(A.A11), lit(A.A13), lit(A.A15), lit(A.A17),
         lit(A.A19))
    emit("if steep then ik = (%s - ik) + %s end", lit(A.HALF_PI_HI), lit(A.HALF_PI_LO))
    emit("if c < 0.0 then ik = (%s - ik) + %s end", lit(A.PI_HI), lit(A.PI_LO))
    emit("if s < 0.0 then ik = -ik end")
    emit("else")
    emit("ik = atan2(s, c)")
    emit("end")
    emit("end")
  end
  -- bone i into its limit (the start, and the sanity pass)
  local function clamp(i)
    if not limited then return end
    emit("do")
    emit("local limit = constraint[%d]", i)
    emit("if limit and not limit.full then")
    emit("local _, nc, ns = clamp_rot(limit, mid_c[%d], mid_s[%d], c%d, s%d)", i, i, i, i)
    emit("c%d, s%d = nc, ns", i, i)
    emit("end")
    emit("end")
  end

  emit("local sqrt, hypot, rot, abs, atan2, wrap, clamp_rot, limit_clamp, update_joints, PI,"
       .. " atan_eighths, measured = ...")
  emit("return function(sv, ch, settings, weight, P)")
  emit("local length, constraint = ch.length, ch.constraint")
  if limited then emit("local mid_c, mid_s = P.mid_c, P.mid_s") end
  -- the limits: a kernel without them hands a limited chain to its twin
  -- (false), one with them a world-space limit to the general path (nil)
  for i = 1, n do
    emit("do")
    emit("local limit = constraint[%d]", i)
    emit("if limit and not limit.full then")
    if limited then
      emit("if limit.world then return nil end")
    else
      emit("return false")
    end
    emit("end")
    emit("end")
  end
  emit("local %s = %s", list("l%d"), list("length[%d]"))
  emit("local %s", list("c%d, s%d"))
  -- the start: the warm start or the pose; each limit's middle, and the
  -- start into it
  emit("if settings.warm_start and sv.have_solution then")
  emit("local solution_c, solution_s = sv.solution_c, sv.solution_s")
  emit("%s = %s", list("c%d, s%d"), list("solution_c[%d], solution_s[%d]"))
  emit("else")
  emit("local pose = ch.pose")
  for i = 1, n do emit("c%d, s%d = rot(pose[%d])", i, i, i, i) end
  emit("end")
  if limited then
    emit("local rest_c, rest_s = ch.rest_c, ch.rest_s")
    for i = 1, n do
      emit("do")
      emit("local limit = constraint[%d]", i)
      emit("if limit and not limit.full then")
      emit("local c, s, lc, ls = rest_c[%d], rest_s[%d], limit.mid_c, limit.mid_s", i, i)
      emit("mid_c[%d], mid_s[%d] = c * lc - s * ls, c * ls + s * lc", i, i)
      emit("end")
      emit("end")
    end
  end
  for i = 1, n do clamp(i) end
  emit("local %s = %s", list("start_c%d, start_s%d"), list("c%d, s%d"))
  -- the pose fields: base, target (chain space), tolerance, damping
  emit("local bx, by, bc, bs = ch.base_x, ch.base_y, ch.base_c, ch.base_s")
  emit("local tx, ty = sv.target_x, sv.target_y")
  emit("if not sv.has_target then")
  emit("local joints = ch.joints")
  emit("tx, ty = joints[%d], joints[%d]", 2 * n + 1, 2 * n + 2)
  emit("end")
  emit("if ch.flip then tx = 2.0 * bx - tx end")
  emit("local tol_sq = settings.tolerance * settings.tolerance")
  -- the norms a turn takes from its squares (outside: hypot), in registers
  emit("local tiny, huge = %s, %s", number(N.TURN_NORM_MIN), number(N.TURN_NORM_MAX))
  emit("local damping_c, damping_s = settings.damping_c, settings.damping_s")
  -- the first forward pass; within the tolerance already: no run
  emit("local x1, y1 = bx, by")
  emit("local %s", list("x%d, y%d", 2, n + 1))
  emit("local wc, ws")
  forward()
  emit("local dx, dy = tx - x%d, ty - y%d", n + 1, n + 1)
  emit("local distance_sq = dx * dx + dy * dy")
  emit("local used = 0")
  emit("if not (distance_sq <= tol_sq) then")
  -- the straight pose toward a target out of reach: the general path's
  emit("local ux, uy = tx - bx, ty - by")
  emit("local distance = sqrt(ux * ux + uy * uy)")
  emit("if distance >= ch.reach and distance ~= 0.0 then return nil end")
  emit("local iterations = settings.iterations")
  emit("local iteration, start_sq = 1, distance_sq")
  emit("used = iterations")
  emit("while true do")
  emit("local before_sq = distance_sq")
  emit("local tip_x, tip_y = x%d, y%d", n + 1, n + 1)
  if tip then
    for i = n, 1, -1 do turn(i) end
  else
    emit("wc, ws = bc, bs")
    for i = 1, n do turn(i) end
  end
  forward()
  emit("dx, dy = tx - x%d, ty - y%d", n + 1, n + 1)
  emit("distance_sq = dx * dx + dy * dy")
  -- a stalled run or the last iteration ends it; keep best
  emit("local ended")
  emit("if before_sq - distance_sq <= %s * before_sq then", number(N.CCD_STALL_GAIN))
  emit("used = iteration")
  emit("ended = true")
  emit("else")
  emit("iteration = iteration + 1")
  emit("ended = iteration > iterations")
  emit("end")
  emit("if ended then")
  emit("if distance_sq >= start_sq then")
  emit("%s = %s", list("c%d, s%d"), list("start_c%d, start_s%d"))
  emit("end")
  emit("break")
  emit("end")
  emit("end")
  emit("end")
  -- the sanity pass: a rotation NaN, zero or far from unit drops the run
  -- for the start; off unit length, it goes back on it and into its limit
  emit("repeat")
  for i = 1, n do
    emit("do")
    emit("local norm = c%d * c%d + s%d * s%d", i, i, i, i)
    emit("if not (norm > %s and norm < %s) then", number(N.ROT_NORM_MIN), number(N.ROT_NORM_MAX))
    emit("%s = %s", list("c%d, s%d"), list("start_c%d, start_s%d"))
    emit("break")
    emit("end")
    emit("local off = norm - 1.0")
    emit("if off > %s or off < -%s then", number(N.ROT_DRIFT), number(N.ROT_DRIFT))
    emit("norm = sqrt(norm)")
    emit("c%d, s%d = c%d / norm, s%d / norm", i, i, i, i)
    emit("end")
    emit("end")
    clamp(i)
  end
  emit("until true")
  -- limited: a bone on the edge of its arc
  emit("local on_limit = false")
  if limited then
    for i = 1, n do
      emit("do")
      emit("local limit = constraint[%d]", i)
      emit("if not on_limit and limit and not limit.full then")
      emit("local mc, ms = mid_c[%d], mid_s[%d]", i, i)
      emit("local rel_c, rel_s = mc * c%d + ms * s%d, mc * s%d - ms * c%d", i, i, i, i)
      emit("on_limit = abs(atan2(rel_s, rel_c)) >= limit.half - %s", number(N.ON_LIMIT))
      emit("end")
      emit("end")
    end
  end
  emit("sv.limited = on_limit")
  emit("sv.have_solution = true")
  -- the solution, its angles and the result: pose + weight * delta,
  -- delta inside the limits
  emit("local solution_c, solution_s, solution_angle = sv.solution_c, sv.solution_s,"
       .. " sv.solution_angle")
  emit("local chain_pose, angle, rest = ch.pose, ch.angle, ch.rest")
  for i = 1, n do
    emit("do")
    emit("local c, s = c%d, s%d", i, i)
    -- the rotation of the last solution again (both parts nonzero: equal
    -- numbers, equal bits): its angle, atan2 of the same numbers
    emit("local ik")
    emit("if c == solution_c[%d] and s == solution_s[%d] and c * s ~= 0.0 then", i, i)
    emit("ik = solution_angle[%d]", i)
    emit("else")
    emit("solution_c[%d], solution_s[%d] = c, s", i, i)
    atan2_inline()
    emit("solution_angle[%d] = ik", i)
    emit("end")
    -- (a kernel without limits met none: no bone's limit to look at)
    local pi = format("%.17g", m.PI)
    emit("local p = chain_pose[%d]", i)
    emit("local delta")
    if limited then
      emit("local limit = constraint[%d]", i)
      emit("if limit and not limit.full then")
      emit("local r, mid = rest[%d], limit.mid", i)
      emit("delta = limit_clamp(limit, ik - r) - (mid + wrap(p - r - mid))")
      emit("else")
    end
    emit("delta = ik - p")
    emit("if not (delta >= -%s and delta < %s) then delta = wrap(delta) end", pi, pi)
    if limited then emit("end") end
    emit("if weight == 1.0 then angle[%d] = p + delta else angle[%d] = p + weight * delta end",
         i, i)
    emit("end")
  end
  emit("ch.uniform = settings.uniform")
  emit("ch.scale = 1.0")
  -- the joints: the solution's (no trig), or the blend's
  emit("local ex, ey")
  emit("if weight == 1.0 then")
  forward()
  emit("local joints = ch.joints")
  emit("if ch.flip then")
  emit("local bx2 = 2.0 * bx")
  for i = 1, n + 1 do emit("joints[%d], joints[%d] = bx2 - x%d, y%d", 2 * i - 1, 2 * i, i, i) end
  emit("ex = bx2 - x%d", n + 1)
  emit("else")
  for i = 1, n + 1 do emit("joints[%d], joints[%d] = x%d, y%d", 2 * i - 1, 2 * i, i, i) end
  emit("ex = x%d", n + 1)
  emit("end")
  emit("ey = y%d", n + 1)
  emit("else")
  emit("update_joints(ch)")
  emit("local joints = ch.joints")
  emit("ex, ey = joints[%d], joints[%d]", 2 * n + 1, 2 * n + 2)
  emit("end")
  emit("return measured(sv, settings, used, ex, ey, on_limit)")
  emit("end")
  return concat(out, "\n")
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
