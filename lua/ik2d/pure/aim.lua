--- ik2d.pure.aim: aiming a held object (src/ik2d_aim.c, where the maths
-- is derived): a ray fixed to the last bone, its origin and direction in
-- the bone's space, turned through the target.  The methods solve for a
-- virtual last bone that ends at the point of the ray the solve puts on
-- the target; where a limit held them off it, aim turns (each joint
-- turned so that the ray from it passes through the target) finish.
local m = require "ik2d.pure.math"
local pose = require "ik2d.pure.pose"

local abs, sqrt = math.abs, math.sqrt
local rot, wrap, atan2, hypot = m.rot, m.wrap, m.atan2, m.hypot

local forward, world, clamp, settle_world = pose.forward, pose.world, pose.clamp,
  pose.settle_world

local M = {}

local function finite(x) return x - x == 0 end

--- the target's distance from the ray from (ox, oy) along (uc, us): from
-- its line for a target ahead of the origin, else from the origin
local function distance(ox, oy, uc, us, tx, ty)
  local dx, dy = tx - ox, ty - oy
  -- an origin beyond the doubles (an offset of 1e308 turned) is no ray
  if not finite(ox) or not finite(oy) then return math.huge end
  if not (dx * uc + dy * us > 0.0) then return hypot(dx, dy) end
  local cross = abs(uc * dy - us * dx)
  -- the products overflow only near the largest doubles
  if finite(cross) then return cross end
  return hypot(dx, dy)
end
M.distance = distance

--- the target's distance from the aim's ray (settings.aim_x, aim_y,
-- aim_angle) on the chain's result, as drawn; the target in world space
function M.chain_distance(ch, settings, tx, ty)
  local n, angle = ch.count, ch.angle
  local w = ch.base_angle
  -- the last bone's direction as update_joints draws it, chain space
  for i = 1, n do w = wrap(w + angle[i]) end
  local wc, ws = rot(w)
  local joints = ch.joints
  local x, y = joints[2 * n - 1], joints[2 * n]
  if ch.flip then
    x = 2.0 * ch.base_x - x
    tx = 2.0 * ch.base_x - tx
  end
  local ax, ay = settings.aim_x, settings.aim_y
  local ox, oy = x + wc * ax - ws * ay, y + ws * ax + wc * ay
  local c, s = rot(settings.aim_angle)
  return distance(ox, oy, wc * c - ws * s, wc * s + ws * c, tx, ty)
end

-- The virtual last bone for the pose as it starts: its length, its turn
-- from the bone (an angle and a rotation) and the reach of the bones
-- before it; nil when beyond the doubles.
local function virtual_bone(P, settings)
  local jx, jy = P.jx, P.jy
  local ch = P.chain
  local n = P.count
  local length = ch.length
  local uc, us = rot(settings.aim_angle)
  local ax, ay = settings.aim_x, settings.aim_y
  local sum, longest = 0.0, 0.0
  for i = 1, n - 1 do
    local l = length[i]
    sum = sum + l
    if l > longest then longest = l end
  end
  local low = 0.0
  if 2.0 * longest - sum > 0.0 then low = 2.0 * longest - sum end
  forward(P)
  local wc, ws = world(P, n)
  local px, py = P.target_x, P.target_y
  local d = hypot(px - ch.base_x, py - ch.base_y)
  local dx, dy = px - jx[n], py - jy[n]
  local r = hypot(dx, dy)
  -- the target from the last joint, in the bone's space
  local tx, ty = wc * dx + ws * dy, wc * dy - ws * dx
  local along = -(ax * uc + ay * us)
  local h = abs(uc * ay - us * ax)
  local m_min = h
  if not (along >= 0.0) then m_min = hypot(ax, ay) end
  local lower, upper = m_min, d + sum
  if low - d > lower then lower = low - d end
  if d - sum > lower then lower = d - sum end
  local len = r
  if r < lower then len = lower elseif r > upper then len = upper end
  if lower > upper then len = lower end
  local width = 0.0
  if len > h then width = sqrt((len - h) * (len + h)) end
  local vx, vy = ax + (along + width) * uc, ay + (along + width) * us
  if width > 0.0 and along - width >= 0.0 then
    local v2x, v2y = ax + (along - width) * uc, ay + (along - width) * us
    if v2x * tx + v2y * ty > vx * tx + vy * ty then vx, vy = v2x, v2y end
  end
  local bone = hypot(vx, vy)
  if not finite(bone) or not finite(sum + bone) then return nil end
  local turn_c, turn_s = 1.0, 0.0
  if bone > 0.0 then turn_c, turn_s = vx / bone, vy / bone end
  return bone, atan2(vy, vx), turn_c, turn_s, sum
end

-- the fields of the chain the methods see (the pose's view): the aimed
-- chain's, its last bone virtual
local VIEW_FIELDS = { "count", "base_x", "base_y", "base_angle", "base_c", "base_s", "constraint",
  "rest_c", "rest_s", "flip", "link" }

-- The method (run(P)) on the chain whose last bone is the virtual one;
-- the last bone's rotation back after it.  Returns what run returns (0
-- when the virtual bone is beyond the doubles: nothing moves).
local function method(P, settings, run)
  local bone, angle, turn_c, turn_s, first_reach = virtual_bone(P, settings)
  if not bone then return 0 end
  local rc, rs, mid_c, mid_s, view = P.rc, P.rs, P.mid_c, P.mid_s, P.view
  local ch = P.chain
  local n, reach = P.count, P.reach
  for k = 1, #VIEW_FIELDS do
    local key = VIEW_FIELDS[k]
    view[key] = ch[key]
  end
  local length, rest = view.length, view.rest
  local ch_length, ch_rest = ch.length, ch.rest
  for i = 1, n - 1 do length[i], rest[i] = ch_length[i], ch_rest[i] end
  length[n] = bone
  rest[n] = ch_rest[n] + angle
  view.reach = first_reach + bone
  local limit = ch.constraint[n]
  local limited = limit and not limit.full
  local mc, ms = 1.0, 0.0
  if limited then
    mc, ms = mid_c[n], mid_s[n]
    mid_c[n], mid_s[n] = mc * turn_c - ms * turn_s, mc * turn_s + ms * turn_c
  end
  P.chain, P.reach = view, view.reach
  local c, s = rc[n], rs[n]
  rc[n], rs[n] = c * turn_c - s * turn_s, c * turn_s + s * turn_c
  P.fresh = false
  local used = run(P)
  c, s = rc[n], rs[n]
  rc[n], rs[n] = turn_c * c + turn_s * s, turn_c * s - turn_s * c
  if limited then mid_c[n], mid_s[n] = mc, ms end
  P.chain, P.reach = ch, reach
  P.fresh = false
  view.constraint, view.link = false, false
  return used
end

-- The ray on the pose, chain space: its origin and direction (a forward
-- pass).
local function ray(P, settings)
  local jx, jy = P.jx, P.jy
  local n = P.count
  local wc, ws = world(P, n)
  forward(P)
  local ax, ay = settings.aim_x, settings.aim_y
  local ox, oy = jx[n] + wc * ax - ws * ay, jy[n] + ws * ax + wc * ay
  local c, s = rot(settings.aim_angle)
  return ox, oy, wc * c - ws * s, wc * s + ws * c
end

local function pose_distance(P, settings)
  local ox, oy, uc, us = ray(P, settings)
  return distance(ox, oy, uc, us, P.target_x, P.target_y)
end

-- The turn of the joint at (x, y) that passes the ray through the target
-- (aim_joint_turn in src/ik2d_aim.c); nil when there is none.
local function joint_turn(x, y, ox, oy, uc, us, tx, ty)
  local px, py, wx, wy = ox - x, oy - y, tx - x, ty - y
  local along, h = -(px * uc + py * us), abs(uc * py - us * px)
  local r = hypot(wx, wy)
  local m_min = h
  if not (along >= 0.0) then m_min = hypot(px, py) end
  local s = 0.0
  if along > 0.0 then s = along end
  if r >= m_min then
    local width = 0.0
    if r > h then width = sqrt((r - h) * (r + h)) end
    s = along + width
    if width > 0.0 and along - width >= 0.0 then
      local near_x, near_y = px + (along - width) * uc, py + (along - width) * us
      local far_x, far_y = px + s * uc, py + s * us
      if near_x * wx + near_y * wy > far_x * wx + far_y * wy then s = along - width end
    end
  end
  local qx, qy = px + s * uc, py + s * us
  local dot, cross = qx * wx + qy * wy, qx * wy - qy * wx
  local norm = hypot(dot, cross)
  if not (norm > 0.0) or not finite(norm) then return nil end
  return dot / norm, cross / norm
end

-- A sweep of aim turns in the solver's sweep order, inside damping and
-- limits; stops within tolerance.  Returns the ray's distance after.
local function sweep(P, settings, tolerance)
  local rc, rs, jx, jy = P.rc, P.rs, P.jx, P.jy
  local n = P.count
  local tip_first = P.settings.sweep == "tip"
  local damping_c, damping_s = P.damping_c, P.damping_s
  local dist = math.huge
  for k = 1, n do
    local j = k
    if tip_first then j = n + 1 - k end
    local ox, oy, uc, us = ray(P, settings)
    local tc, ts = joint_turn(jx[j], jy[j], ox, oy, uc, us, P.target_x, P.target_y)
    if tc then
      if tc < damping_c then
        tc = damping_c
        if ts < 0.0 then ts = -damping_s else ts = damping_s end
      end
      local c, s = rc[j], rs[j]
      rc[j], rs[j] = c * tc - s * ts, c * ts + s * tc
      clamp(P, j)
      -- a world-space limit below turned with this joint
      if P.world_limits > j then settle_world(P, j + 1) end
    end
    dist = pose_distance(P, settings)
    if dist <= tolerance then break end
  end
  P.fresh = false
  return dist
end

-- How far the rotations (c, s) are turned from (from_c, from_s): the sum
-- over the bones of 1 - cos of each turn (aim_turned).
local function turned(from_c, from_s, c, s, n)
  local sum = 0.0
  for i = 1, n do sum = sum + (1.0 - (from_c[i] * c[i] + from_s[i] * s[i])) end
  return sum
end

-- FABRIK aimed from the pose in P.aim_from_c, aim_from_s, its result in P
-- after used iterations: aim turns from the start too, and the one of the
-- two aiming poses turned less from the start kept (aim_nearer).
local function nearer(P, settings, used)
  local from_c, from_s, found_c, found_s = P.aim_from_c, P.aim_from_s, P.aim_found_c, P.aim_found_s
  local budget, tolerance, k = P.iterations, settings.tolerance, used
  local dist, last = math.huge, math.huge
  pose.save(P, found_c, found_s)
  pose.load(P, from_c, from_s)
  while k < budget do
    dist = sweep(P, settings, tolerance)
    k = k + 1
    if dist <= tolerance or not (dist < last) then break end
    last = dist
  end
  local n = P.count
  if dist <= tolerance and
     turned(from_c, from_s, P.rc, P.rs, n) < turned(from_c, from_s, found_c, found_s, n) then
    return k
  end
  pose.load(P, found_c, found_s)
  return used
end

--- An aimed run on pose P: run(P) (the method and the bend toward a
-- pole) for the virtual bone, then, short of the target, aim turns while
-- they gain (the best pose of them kept in P.best_c, best_s); FABRIK's
-- aiming pose or the aim turns' from the start, the nearer.  settings
-- are the solver's (the aim's fields); returns the iterations.
function M.run(P, settings, run)
  local best_c, best_s = P.best_c, P.best_s
  local budget = P.iterations
  local fabrik = settings.method == "fabrik"
  if fabrik then pose.save(P, P.aim_from_c, P.aim_from_s) end
  local used = method(P, settings, run)
  local tolerance = settings.tolerance
  local best = pose_distance(P, settings)
  if not (best > tolerance) then
    if fabrik and used < budget then return nearer(P, settings, used) end
    return used
  end
  if used >= budget then return used end
  pose.save(P, best_c, best_s)
  while used < budget do
    local dist = sweep(P, settings, tolerance)
    used = used + 1
    if not (dist < best) then break end
    best = dist
    pose.save(P, best_c, best_s)
    if dist <= tolerance then break end
  end
  pose.load(P, best_c, best_s)
  return used
end

return M
