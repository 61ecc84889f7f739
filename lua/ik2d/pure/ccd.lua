--- ik2d.pure.ccd: cyclic coordinate descent with the exact two-joint step
-- (src/ik2d_ccd.c, one chain at a time: the C core's lockstep batches give
-- every chain the bits of this run).
--
-- A sweep turns each joint so that joint->tip points at joint->target,
-- inside its limits; root to tip it rebuilds the next joint from the
-- turned one, tip to root (textbook CCD) only the tip moves.  Each
-- iteration first tries the exact step; a run that ends short of the
-- target finishes with the limited pair step; a run never ends farther
-- than it began.  The turn is written out in both sweeps: it is the inner loop.
local N = require "ik2d.pure.numbers"
local m = require "ik2d.pure.math"
local pose = require "ik2d.pure.pose"

local sqrt, hypot = math.sqrt, m.hypot

local forward, clamp = pose.forward, pose.clamp
local save, tip_distance_sq = pose.save, pose.tip_distance_sq
local settle_world = pose.settle_world
local limited_step = pose.limited_step

-- A sweep that gains less than this fraction of the distance has stalled.
local STALL_GAIN = N.CCD_STALL_GAIN
-- With the exact step on, an iteration taking off less than this fraction
-- of the squared distance while still farther than sqrt(FAR) tolerances
-- crawls: the solver hands the rest of the iterations to FABRIK.
local SLOW_GAIN, FAR = N.CCD_SLOW_GAIN, N.CCD_FAR

local M = {}

-- the norms a turn takes from its squares: outside, they underflow into
-- denormals (or overflow), and a norm from them would give a turn off
-- unit length (hypot then)
local TINY, HUGE = N.TURN_NORM_MIN, N.TURN_NORM_MAX

-- After joint i turned from (oc, os) and moved the tip to (tip_x, tip_y)
-- around (px, py): the turn actually made when its limit clamped it, and
-- a world-space limit below back into its arc; returns the tip.
local function limit_turn(P, i, oc, os, px, py, to_tip_x, to_tip_y, tip_x, tip_y)
  local rc, rs = P.rc, P.rs
  if P.chain.constraint[i] and clamp(P, i) then
    -- the clamped rotation from the old one
    local nc, ns = rc[i], rs[i]
    local tc, ts = oc * nc + os * ns, oc * ns - os * nc
    tip_x = px + tc * to_tip_x - ts * to_tip_y
    tip_y = py + ts * to_tip_x + tc * to_tip_y
  end
  -- a world-space limit below turned with this joint
  if P.world_limits > i and settle_world(P, i + 1) then
    forward(P)
    local n1 = P.count + 1
    tip_x, tip_y = P.jx[n1], P.jy[n1]
  end
  return tip_x, tip_y
end

-- The forward pass after a sweep; returns the squared tip distance.
local function sweep_forward(P)
  forward(P)
  return tip_distance_sq(P)
end

-- The forward pass that starts a run, the start kept for keep-best on
-- the way; returns the squared tip distance.
local function start_forward(P)
  save(P, P.run_c, P.run_s)
  return sweep_forward(P)
end

-- The sweeps, each with the forward pass after it: each joint turned so
-- that joint->tip points at the target, tip to root (textbook CCD: only
-- the tip moves) or root to tip (the next joint rebuilt from the turned
-- one and the bone's world direction, a running product).  The two share
-- the turn, written out in each: it is the solve's inner loop.  Returns
-- the squared tip distance and true when the tip came within tolerance
-- (the joints are then left stale).  Functions of their own, apart from
-- the iteration loop: under LuaJIT a side trace inherits every value
-- live in the frames it returns through, and the iteration loop's own
-- (with the sweeps' written in, about 40) were more than the registers
-- ("NYI: register coalescing too complex" at every exit).
local function sweep_tip(P)
  local rc, rs, jx, jy = P.rc, P.rs, P.jx, P.jy
  local n = P.count
  local n1 = n + 1
  local tx, ty, tol_sq = P.target_x, P.target_y, P.tolerance_sq
  local damping_c, damping_s, limited = P.damping_c, P.damping_s, P.limited_bones
  local tiny, huge = TINY, HUGE -- in registers, not reloaded per turn
  local tip_x, tip_y = jx[n1], jy[n1]
  local dx, dy, distance_sq
  for i = n, 1, -1 do
    local px, py = jx[i], jy[i]
    local to_tip_x, to_tip_y = tip_x - px, tip_y - py
    local to_target_x, to_target_y = tx - px, ty - py
    local dot = to_tip_x * to_target_x + to_tip_y * to_target_y
    local cross = to_tip_x * to_target_y - to_tip_y * to_target_x
    local norm = sqrt(dot * dot + cross * cross)
    if not (norm > tiny and norm < huge) then norm = hypot(dot, cross) end
    if norm > 0.0 then
      local tc, ts = dot / norm, cross / norm
      if tc < damping_c then
        tc = damping_c
        if ts < 0.0 then ts = -damping_s else ts = damping_s end
      end
      local oc, os = rc[i], rs[i]
      rc[i], rs[i] = oc * tc - os * ts, oc * ts + os * tc
      tip_x = px + tc * to_tip_x - ts * to_tip_y
      tip_y = py + ts * to_tip_x + tc * to_tip_y
      if limited then tip_x, tip_y = limit_turn(P, i, oc, os, px, py, to_tip_x, to_tip_y, tip_x, tip_y) end
    end
    dx, dy = tx - tip_x, ty - tip_y
    distance_sq = dx * dx + dy * dy
    if distance_sq <= tol_sq then return distance_sq, true end
  end
  return sweep_forward(P), false
end

local function sweep_root(P)
  local rc, rs, jx, jy = P.rc, P.rs, P.jx, P.jy
  local n, length = P.count, P.chain.length
  local n1 = n + 1
  local tx, ty, tol_sq = P.target_x, P.target_y, P.tolerance_sq
  local damping_c, damping_s, limited = P.damping_c, P.damping_s, P.limited_bones
  local tiny, huge = TINY, HUGE
  local tip_x, tip_y = jx[n1], jy[n1]
  local wc, ws = P.base_c, P.base_s
  local dx, dy, distance_sq
  for i = 1, n do
    local px, py = jx[i], jy[i]
    local to_tip_x, to_tip_y = tip_x - px, tip_y - py
    local to_target_x, to_target_y = tx - px, ty - py
    local dot = to_tip_x * to_target_x + to_tip_y * to_target_y
    local cross = to_tip_x * to_target_y - to_tip_y * to_target_x
    local norm = sqrt(dot * dot + cross * cross)
    if not (norm > tiny and norm < huge) then norm = hypot(dot, cross) end
    if norm > 0.0 then
      local tc, ts = dot / norm, cross / norm
      if tc < damping_c then
        tc = damping_c
        if ts < 0.0 then ts = -damping_s else ts = damping_s end
      end
      local oc, os = rc[i], rs[i]
      rc[i], rs[i] = oc * tc - os * ts, oc * ts + os * tc
      tip_x = px + tc * to_tip_x - ts * to_tip_y
      tip_y = py + ts * to_tip_x + tc * to_tip_y
      if limited then tip_x, tip_y = limit_turn(P, i, oc, os, px, py, to_tip_x, to_tip_y, tip_x, tip_y) end
    end
    dx, dy = tx - tip_x, ty - tip_y
    distance_sq = dx * dx + dy * dy
    if distance_sq <= tol_sq then return distance_sq, true end
    local c, s = rc[i], rs[i]
    wc, ws = wc * c - ws * s, wc * s + ws * c
    local l = length[i]
    jx[i + 1] = jx[i] + l * wc
    jy[i + 1] = jy[i] + l * ws
  end
  return sweep_forward(P), false
end

-- The end of a run short of the target, distance_sq from it (ccd_run_end).
local function run_end(P, exact, distance_sq, start_sq)
  -- short of the target: a limit may forbid what sweeps and the exact
  -- step look for (the pose they stall in need not be the nearest)
  if exact and distance_sq > P.tolerance_sq then
    local _
    _, distance_sq = limited_step(P, distance_sq)
  end
  -- keep best: a run that gains nothing changes nothing
  if distance_sq >= start_sq then
    pose.load(P, P.run_c, P.run_s)
    forward(P)
  end
  P.fresh = true
end

--- Turns pose P's start rotations into an IK solution; returns the
-- iterations used.  The start is kept in P.run_c, run_s for keep-best.
function M.run(P)
  local tol_sq = P.tolerance_sq
  -- the forward pass, the start kept for keep-best on the way (a failed
  -- straighten puts these very rotations back)
  local distance_sq = start_forward(P)
  P.fresh = true
  if distance_sq <= tol_sq then return 0 end
  P.fresh = false
  -- out of reach: the straight pose is the answer, in one step (its own
  -- first test, made here: reachable targets skip the call)
  local ch = P.chain
  local ux, uy = P.target_x - ch.base_x, P.target_y - ch.base_y
  local distance = sqrt(ux * ux + uy * uy)
  if distance >= P.reach and distance ~= 0.0 and pose.straighten(P) then return 1 end
  local settings = P.settings
  local exact = settings.exact
  local sweep = settings.sweep == "tip" and sweep_tip or sweep_root
  local iterations = P.iterations
  local iteration, used = 1, iterations
  local start_sq = distance_sq
  while true do
    -- an iteration is an exact step or, when none gains, a sweep
    local before_sq = distance_sq
    local stepped = false
    -- (pose.exact_step read here: the spec swaps in each pair search)
    if exact then stepped, distance_sq = pose.exact_step(P, distance_sq) end
    if stepped then
      if distance_sq <= tol_sq then
        P.fresh = true -- the step ends with a forward pass
        return iteration
      end
    else
      local done
      distance_sq, done = sweep(P)
      if done then return iteration end
    end
    -- a stalled run or the last iteration ends the run; so does, with the
    -- exact step on, a run that crawls while still far
    local gain = before_sq - distance_sq
    local ended
    if gain <= STALL_GAIN * before_sq or
       (exact and gain < SLOW_GAIN * before_sq and distance_sq > FAR * tol_sq) then
      used = iteration
      ended = true
    else
      iteration = iteration + 1
      ended = iteration > iterations
    end
    if ended then
      run_end(P, exact, distance_sq, start_sq)
      return used
    end
  end
end

return M
