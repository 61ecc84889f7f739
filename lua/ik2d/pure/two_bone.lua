--- ik2d.pure.two_bone: the analytic two-bone solver (src/ik2d_two_bone.c):
-- law of cosines, bend side, softness and stretch; under limits, the
-- allowed pose nearest the goal from a handful of closed-form candidates.
local m = require "ik2d.pure.math"
local pose = require "ik2d.pure.pose"
local limits = require "ik2d.pure.constraint"

local sqrt, abs = math.sqrt, math.abs
local rot, exp, acos = m.rot, m.exp, m.acos
local PI, wrap, fmin, hypot, atan2 = m.PI, m.wrap, m.fmin, m.hypot, m.atan2
local huge = math.huge
local limit_clamp = limits.clamp

local M = {}

-- Distance the limb actually reaches toward a target at distance d.
local function soft_reach(d, reach, softness, curve)
  local start = reach - softness
  if softness <= 0.0 or d <= start then return d end
  if curve == "smooth" then return start + softness * (1.0 - exp(-(d - start) / softness)) end
  local p = fmin(1.0, (d - start) / (softness * 2.0)) - 1.0
  return d - ((d - start) - softness * (1.0 - p * p))
end

-- The candidate search keeps in the pose P the softened goal (goal_x,
-- goal_y, chain space), the best local angles so far (best_shoulder,
-- best_elbow), their distance (best_distance) and the tie margin (tie); ch is the
-- pose's chain, a and b its bone lengths.

-- the allowed local angle of bone i nearest to angle
local function allowed(ch, i, angle)
  local limit = ch.constraint[i]
  if not limit or limit.full then return angle end
  return ch.rest[i] + limit_clamp(limit, angle - ch.rest[i])
end

local function inside(ch, i, angle)
  return abs(wrap(allowed(ch, i, angle) - angle)) <= 1e-12
end

-- keeps (shoulder, elbow) when its tip is nearer the goal than the best
local function consider(P, ch, a, b, shoulder, elbow)
  local w1 = ch.base_angle + shoulder
  local w2 = w1 + elbow
  local c1, s1 = rot(w1)
  local c2, s2 = rot(w2)
  local x = ch.base_x + a * c1 + b * c2
  local y = ch.base_y + a * s1 + b * s2
  -- hypot: squares of 1e200 bones overflow
  local distance = hypot(P.goal_x - x, P.goal_y - y)
  if distance < P.best_distance - P.tie then
    P.best_distance, P.best_shoulder, P.best_elbow = distance, shoulder, elbow
  end
end

-- local shoulder angle that points the limb, bent by elbow, at the goal
local function shoulder_for(ch, a, b, bearing, elbow)
  local bent_c, bent_s = rot(elbow)
  return bearing - ch.base_angle - atan2(b * bent_s, a + b * bent_c)
end

-- best allowed elbow with the shoulder fixed
local function from_shoulder(P, ch, a, b, shoulder)
  local w1 = ch.base_angle + shoulder
  local c1, s1 = rot(w1)
  local x = ch.base_x + a * c1
  local y = ch.base_y + a * s1
  local dx, dy = P.goal_x - x, P.goal_y - y
  local elbow = 0.0
  if dx ~= 0.0 or dy ~= 0.0 then elbow = atan2(dy, dx) - w1 end
  consider(P, ch, a, b, shoulder, allowed(ch, 2, elbow))
end

-- best allowed shoulder with the elbow fixed
local function from_elbow(P, ch, a, b, bearing, elbow)
  consider(P, ch, a, b, allowed(ch, 1, shoulder_for(ch, a, b, bearing, elbow)), elbow)
end

-- the bend side: the one facing the pole when there is one, else bend
local function bend_side(P, ch, bend)
  if not P.pole then return bend end
  local side = (P.target_x - ch.base_x) * (P.pole_y - ch.base_y) -
               (P.target_y - ch.base_y) * (P.pole_x - ch.base_x)
  if side > 0.0 then return -1 end
  if side < 0.0 then return 1 end
  return bend
end

-- The elbow that puts the tip at distance reach from the base, bent to
-- side bend (straight and folded exactly: two_bone_elbow).
local function elbow_for(a, b, reach, bend)
  if reach >= a + b then return 0.0 end
  if reach <= abs(a - b) then return bend * PI end
  local cos_elbow = (reach * reach - a * a - b * b) / (2.0 * a * b)
  if cos_elbow > 1.0 then cos_elbow = 1.0 elseif cos_elbow < -1.0 then cos_elbow = -1.0 end
  return bend * acos(cos_elbow)
end

-- A limit forbids (shoulder, elbow), pointed along bearing: the nearest allowed
-- pose instead (two_bone_nearest); returns it.
local function nearest(P, ch, a, b, bearing, shoulder, elbow)
  P.best_shoulder = allowed(ch, 1, shoulder)
  P.best_elbow = allowed(ch, 2, elbow)
  P.best_distance = huge
  P.tie = 1e-12 * (a + b)
  -- the other bend, when it is allowed
  if inside(ch, 1, shoulder_for(ch, a, b, bearing, -elbow)) and inside(ch, 2, -elbow) then
    consider(P, ch, a, b, shoulder_for(ch, a, b, bearing, -elbow), -elbow)
  end
  -- the elbow at the allowed angle nearest the answer, straight, folded
  -- and at its limits; the shoulder at its limits
  from_elbow(P, ch, a, b, bearing, allowed(ch, 2, elbow))
  from_elbow(P, ch, a, b, bearing, allowed(ch, 2, 0.0))
  from_elbow(P, ch, a, b, bearing, allowed(ch, 2, PI))
  local constraint, rest = ch.constraint, ch.rest
  for side = 0, 1 do
    local limit = constraint[2]
    if limit and not limit.full then
      from_elbow(P, ch, a, b, bearing, rest[2] + limit.mid + (side == 1 and limit.half or -limit.half))
    end
    limit = constraint[1]
    if limit and not limit.full then
      from_shoulder(P, ch, a, b, rest[1] + limit.mid + (side == 1 and limit.half or -limit.half))
    end
  end
  return P.best_shoulder, P.best_elbow
end

--- Solves pose P's 2 bones; returns the iterations used (0 when the tip
-- already was within tolerance, else 1).
function M.run(P)
  local rc, rs, jx, jy = P.rc, P.rs, P.jx, P.jy
  local ch = P.chain
  local settings = P.settings
  local a, b = ch.length[1], ch.length[2]
  local bx, by = ch.base_x, ch.base_y
  local dx, dy = P.target_x - bx, P.target_y - by
  local d = sqrt(dx * dx + dy * dy)
  local reach = soft_reach(d, a + b, settings.softness, settings.softness_curve)
  pose.forward(P)
  local used = 1
  if pose.tip_distance_sq(P) <= P.tolerance_sq then used = 0 end
  if settings.stretch > 1.0 and reach > a + b and pose.straighten(P) then
    P.scale = fmin(reach / (a + b), settings.stretch)
    return used
  end
  local bearing -- the target's direction from the base
  if d > 0.0 then
    bearing = atan2(dy, dx)
  else
    -- target on the base: keep the upper bone where it points
    bearing = atan2(jy[2] - by, jx[2] - bx)
  end
  local bearing_c, bearing_s = rot(bearing)
  P.goal_x = bx + reach * bearing_c
  P.goal_y = by + reach * bearing_s
  local elbow = elbow_for(a, b, reach, bend_side(P, ch, settings.bend))
  -- on the base the limb folds and any shoulder does as well: keep it
  local shoulder
  if d > 0.0 then shoulder = shoulder_for(ch, a, b, bearing, elbow) else shoulder = atan2(rs[1], rc[1]) end
  if not inside(ch, 1, shoulder) or not inside(ch, 2, elbow) then
    P.limited = true
    shoulder, elbow = nearest(P, ch, a, b, bearing, shoulder, elbow)
  end
  rc[1], rs[1] = rot(shoulder)
  rc[2], rs[2] = rot(elbow)
  -- the limits decided in rotation space, as every method ends
  pose.clamp(P, 1)
  pose.clamp(P, 2)
  return used
end

return M
