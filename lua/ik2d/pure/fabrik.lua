--- ik2d.pure.fabrik: FABRIK with CCD's limits (src/ik2d_fabrik.c): the
-- backward pass turns each bone's rotation into its allowed arc, the best
-- pose seen is kept, and the exact two-joint step finishes (or where a
-- limit forbids that, the limited pair step).
local pose = require "ik2d.pure.pose"

local sqrt = math.sqrt

local forward, tip_distance_sq, clamp = pose.forward, pose.tip_distance_sq, pose.clamp

local M = {}

local function sweep(P)
  local rc, rs, jx, jy = P.rc, P.rs, P.jx, P.jy
  local ch = P.chain
  local n, length = P.count, ch.length
  -- forward reaching: tip onto the target, then each joint toward it
  jx[n + 1], jy[n + 1] = P.target_x, P.target_y
  for i = n, 1, -1 do
    -- default: the bone's present direction, reversed
    local dir_x, dir_y = jx[i] - jx[i + 1], jy[i] - jy[i + 1]
    local norm = sqrt(dir_x * dir_x + dir_y * dir_y)
    if norm > 0.0 then
      dir_x, dir_y = dir_x / norm, dir_y / norm
    else
      dir_x, dir_y = -1.0, 0.0
    end
    jx[i] = jx[i + 1] + length[i] * dir_x
    jy[i] = jy[i + 1] + length[i] * dir_y
  end
  -- backward reaching: base back in place, bones turned into limits
  jx[1], jy[1] = ch.base_x, ch.base_y
  local wc, ws = P.base_c, P.base_s
  for i = 1, n do
    local dir_x, dir_y = wc, ws
    local dx, dy = jx[i + 1] - jx[i], jy[i + 1] - jy[i]
    local norm = sqrt(dx * dx + dy * dy)
    if norm > 0.0 then dir_x, dir_y = dx / norm, dy / norm end
    rc[i], rs[i] = wc * dir_x + ws * dir_y, wc * dir_y - ws * dir_x
    clamp(P, i)
    local c, s = rc[i], rs[i]
    wc, ws = wc * c - ws * s, wc * s + ws * c
    jx[i + 1] = jx[i] + length[i] * wc
    jy[i + 1] = jy[i] + length[i] * ws
  end
end

--- Turns pose P's start rotations into an IK solution; returns the
-- iterations used.  The best pose seen is kept in P.run_c, run_s.
function M.run(P)
  local best_c, best_s = P.run_c, P.run_s
  local iterations = P.iterations
  forward(P)
  local best_sq = tip_distance_sq(P)
  if best_sq <= P.tolerance_sq then return 0 end
  if pose.straighten(P) then return 1 end
  pose.save(P, best_c, best_s)
  local iteration = 1
  while iteration <= iterations do
    sweep(P)
    forward(P)
    local distance_sq = tip_distance_sq(P)
    if distance_sq < best_sq then
      best_sq = distance_sq
      pose.save(P, best_c, best_s)
      if best_sq <= P.tolerance_sq then return iteration end
    else
      break -- no gain: stalled
    end
    iteration = iteration + 1
  end
  pose.load(P, best_c, best_s)
  if P.settings.exact then
    -- not there after the budget (or a stall): one exact two-joint step
    -- finishes from the best pose when some pair of joints can
    forward(P)
    local _
    _, best_sq = pose.exact_step(P, best_sq)
    -- and where a limit forbids that, the nearest pose the limits allow
    if best_sq > P.tolerance_sq then pose.limited_step(P, best_sq) end
  end
  if iteration > iterations then return iterations end
  return iteration
end

return M
