--- ik2d.pure.spring: secondary motion (src/ik2d_spring.c, whose header
-- comment derives the model): the bones of a chain as a torsional spring
-- chain driven by gravity, the base's motion and the wind, integrated
-- substep by substep (each bone's damped oscillator solved in closed form
-- with its neighbours held, or the chain at once by backward Euler where
-- that would not be stable), pushed out of the colliders, inside the
-- limits; result = neutral + weight * turn(neutral -> spring), as a solve
-- blends.
local api = require "ik2d.api"
local defs = require "ik2d.pure.defs"
local checks = require "ik2d.pure.checks"
local N = require "ik2d.pure.numbers"
local m = require "ik2d.pure.math"
local limits = require "ik2d.pure.constraint"
local chains = require "ik2d.pure.chain"
local skeleton = require "ik2d.pure.skeleton"

local sqrt, exp, rot, ceil, abs = math.sqrt, m.exp, m.rot, math.ceil, math.abs
local atan2, acos, hypot = m.atan2, m.acos, m.hypot
-- the oscillator's angles w h and w h / 2 are >= 0 and the same every
-- substep of a spring's settings and dt: rot_branches' branches go one
-- way there (no side traces under LuaJIT), and below pi/4 it skips the
-- range reduction the flat rot always makes
local rot_steady = m.rot_branches
local PI, TWO_PI, wrap = m.PI, m.TWO_PI, m.wrap
local limit_clamp, update_joints = limits.clamp, chains.update_joints

local M = {}

local function finite(x) return x - x == 0 end

-- The thresholds, as src/ik2d_numbers.h defines them (why each is what
-- it is: there): substeps at least SUBSTEP_RATE a second, at most
-- MAX_SUBSTEPS an update, none longer than MAX_SUBSTEP seconds; below FREE
-- (K h^2) a substep is free motion, by its series below SERIES (gamma h);
-- above STIFF (Lambda h^2) the chain goes by backward Euler; the base's
-- speed is taken as at most MAX_BASE_SPEED.  No bone turns faster than
-- MAX_SPEED, half a turn a substep at the rate.
local SUBSTEP_RATE, MAX_SUBSTEPS, MAX_SUBSTEP = N.SPRING_SUBSTEP_RATE, N.SPRING_MAX_SUBSTEPS,
  N.SPRING_MAX_SUBSTEP
local SUBSTEP_SLACK = N.SPRING_SUBSTEP_SLACK
local MAX_SPEED = SUBSTEP_RATE * PI
local FREE, SERIES, STIFF = N.SPRING_FREE, N.SPRING_SERIES, N.SPRING_STIFF
local MAX_BASE_SPEED = N.SPRING_MAX_BASE_SPEED
local ON_LINE = N.SPRING_ON_LINE

local MAX_COLLIDERS = defs.constant("MAX_COLLIDERS")
M.MAX_COLLIDERS = MAX_COLLIDERS

-- the settings lua/ik2d/api.lua describes: their keys and defaults
local FIELDS
FIELDS, M.default_def = defs.of(api.spring)

function M.copy_def(from, to)
  for k = 1, #FIELDS do to[FIELDS[k]] = from[FIELDS[k]] end
  return to
end

-- bone i's value of a setting: its entry of the per-bone array, or the number
local function of_bone(def, key, array, i)
  local a = def[array]
  if a then return a[i] end
  return def[key]
end

-- The rule of lua/ik2d/api.lua's spring, named as in src/ik2d_spring.c:
-- the motion depends on stiffness / mass and damping / mass, a bone's and
-- its child's stiffness over its mass, and its damping over it.
local RULES = {}
function RULES.mass_ratios_finite(def, n)
  for i = 1, n do
    local mass = of_bone(def, "mass", "mass_per_bone", i)
    local s = of_bone(def, "stiffness", "stiffness_per_bone", i)
    local c = of_bone(def, "damping", "damping_per_bone", i)
    if not finite(s / mass) or not finite(c / mass) then return false end
    if i < n and not finite(of_bone(def, "stiffness", "stiffness_per_bone", i + 1) / mass) then
      return false
    end
  end
  return true
end

-- a def for a chain of n bones, in the description's order
local check_def = checks.def(api.spring, RULES)

local clamp_weight = m.clamp_weight

-- the settings, each per-bone array into the spring's own (a def that
-- came from the spring holds those: copied onto themselves)
local function keep_def(sp, def)
  local n = sp.chain.count
  local stiffness, damping, mass = sp.stiffness, sp.damping, sp.mass
  for i = 1, n do
    stiffness[i] = of_bone(def, "stiffness", "stiffness_per_bone", i)
    damping[i] = of_bone(def, "damping", "damping_per_bone", i)
    mass[i] = of_bone(def, "mass", "mass_per_bone", i)
  end
  M.copy_def(def, sp.settings)
  local settings = sp.settings
  settings.weight = clamp_weight(def.weight)
  settings.stiffness_per_bone = def.stiffness_per_bone and stiffness or nil
  settings.damping_per_bone = def.damping_per_bone and damping or nil
  settings.mass_per_bone = def.mass_per_bone and mass or nil
end

-- ------------------------------------------------------------------
-- the result
-- ------------------------------------------------------------------

-- a result angle that is not what the spring wrote is the bone's new
-- neutral angle
local function take_neutral(sp)
  local angle, written, neutral = sp.chain.angle, sp.written, sp.neutral
  for i = 1, sp.chain.count do
    if angle[i] ~= written[i] then neutral[i] = angle[i] end
  end
end

-- Bone i into its limits: relative to where its parent is, or for a
-- world-space limit its direction itself; a bone held by a limit stops
-- turning away from it.
local function limit_bone(sp, i, parent, parent_v)
  local ch = sp.chain
  local limit = ch.constraint[i]
  if not limit or limit.full then return end
  local frame, frame_v = parent, parent_v
  if limit.world then frame, frame_v = 0.0, 0.0 end
  local world, rest = sp.world, ch.rest[i]
  local delta = wrap(world[i] - frame) - rest
  local allowed = limit_clamp(limit, delta)
  local centred = limit.mid + wrap(delta - limit.mid)
  if allowed ~= centred then
    local relative = sp.velocity[i] - frame_v
    world[i] = wrap(frame + rest + allowed)
    if (allowed > limit.mid and relative > 0.0) or (allowed < limit.mid and relative < 0.0) or
       limit.half == 0.0 then
      sp.velocity[i] = frame_v
    end
  end
end

-- every bone into its limits, root to tip
local function limit_all(sp)
  local parent, parent_v = sp.chain.base_angle, 0.0
  for i = 1, sp.chain.count do
    limit_bone(sp, i, parent, parent_v)
    parent, parent_v = sp.world[i], sp.velocity[i]
  end
end

-- result = neutral + weight * turn(neutral -> spring's local angle); joints
local function write(sp)
  local ch = sp.chain
  local weight, parent = sp.settings.weight, ch.base_angle
  local angle, constraint, rest = ch.angle, ch.constraint, ch.rest
  for i = 1, ch.count do
    local neutral = sp.neutral[i]
    local world_i = sp.world[i]
    local turn = limits.turn(constraint[i], rest[i], neutral, wrap(world_i - parent))
    if weight == 1.0 then angle[i] = neutral + turn else angle[i] = neutral + weight * turn end
    sp.written[i] = angle[i]
    parent = world_i
  end
  update_joints(ch)
  -- a skeleton chain's bones are the skeleton's: it follows
  if ch.link then skeleton.push(ch, true) end
end

-- every bone at rest at its neutral angle, the neutral angles and the
-- base still
local function rest_all(sp)
  local ch = sp.chain
  local world = ch.base_angle
  for i = 1, ch.count do
    world = wrap(world + sp.neutral[i])
    sp.world[i], sp.velocity[i], sp.moving[i] = world, 0.0, false
  end
  sp.base, sp.base_moving = ch.base_angle, false
  sp.base_x, sp.base_y, sp.base_vx, sp.base_vy = ch.base_x, ch.base_y, 0.0, 0.0
end

--- a spring on the core chain ch from def, or nil and the status
function M.new(ch, def)
  local n = ch.count
  local status = check_def(def, n)
  if status then return nil, status end
  local sp = {
    chain = ch, settings = {}, base = 0.0, base_moving = false,
    base_x = 0.0, base_y = 0.0, base_vx = 0.0, base_vy = 0.0,
    world = {}, velocity = {}, neutral = {}, written = {}, moving = {},
    stiffness = {}, damping = {}, mass = {},
    colliders = {}, collider_count = 0,
    -- an update's inputs and scratch (its own: a finaliser or hook may
    -- update another spring inside an update)
    input = { gx = 0.0, gy = 0.0, base_from = 0.0, base_turn = 0.0, x0 = 0.0, y0 = 0.0,
              dx = 0.0, dy = 0.0, air_x = 0.0, air_y = 0.0, kick_x = 0.0, kick_y = 0.0 },
    from = {}, turn = {}, w2 = {}, w2_child = {}, gamma = {}, gx = {}, gy = {},
    error = {}, sub = {}, diag = {}, sup = {}, rhs = {}, side = {},
    start = {}, start_v = {}, held = {}, put = {},
  }
  for i = 1, n do
    sp.neutral[i], sp.written[i] = ch.angle[i], ch.angle[i]
  end
  keep_def(sp, def)
  rest_all(sp)
  return sp
end

function M.set_def(sp, def)
  local status = check_def(def, sp.chain.count)
  if status == nil then keep_def(sp, def) end
  return status
end

-- the setters: their values checked as set_def checks them
local function keep(sp) keep_def(sp, sp.settings) end
local function bone_count(sp) return sp.chain.count end
M.set_weight = checks.setter(api.spring, "weight", RULES, keep, bone_count)
M.set_gravity = checks.setter(api.spring, "gravity", RULES, keep, bone_count)
M.set_wind = checks.setter(api.spring, "wind", RULES, keep, bone_count)

--- bone i's angular velocity, in the sense of the chain's world angles
function M.velocity(sp, i)
  -- mirroring maps a direction phi to pi - phi: the turn reverses
  if sp.chain.flip then return -sp.velocity[i] end
  return sp.velocity[i]
end

function M.reset(sp)
  take_neutral(sp)
  rest_all(sp)
  limit_all(sp)
  write(sp)
end

-- ------------------------------------------------------------------
-- colliders
-- ------------------------------------------------------------------

--- nil, or the status naming what is wrong with collider c ({ shape =
-- "circle" or "segment", x, y, radius, x1, y1, x2, y2 })
M.check_collider = checks.def(api.collider)

local COLLIDER_KEYS = { "shape", "x", "y", "radius", "x1", "y1", "x2", "y2" }

--- colliders list[1..count] (records as check_collider takes), all checked
-- before any is kept; nil or the status
function M.set_colliders(sp, list, count)
  if count > MAX_COLLIDERS then return "COLLIDERS" end
  for k = 1, count do
    local status = M.check_collider(list[k])
    if status then return status end
  end
  local own = sp.colliders
  for k = 1, count do
    local to = own[k]
    if not to then
      to = {}
      own[k] = to
    end
    local c = list[k]
    for j = 1, #COLLIDER_KEYS do
      local key = COLLIDER_KEYS[j]
      local v = c[key]
      if v == nil and key ~= "shape" then v = 0.0 end
      to[key] = v
    end
  end
  sp.collider_count = count
  return nil
end

--- the spring's colliders (its own records: read them, do not keep them)
-- and their count
function M.colliders(sp)
  return sp.colliders, sp.collider_count
end

-- Bone i, its direction x (x0 at the substep's start) and velocity v,
-- pivot (px, py) and length l, against the forbidden directions psi + (lo,
-- hi): a bone found inside goes back to the end it came in by (the nearer
-- end if it started inside: its pivot moved), and one that passed right
-- through stops at the end it met; turning into the collider stops.  With
-- a way (+1 or -1, not 0), a bone found inside goes on that way, to the end
-- there (another collider pushed it in: collide).
local function push_out(sp, i, x0, psi, lo, hi, way)
  local world, velocity = sp.world, sp.velocity
  local x = world[i]
  local delta, delta0 = wrap(x - psi), wrap(x0 - psi)
  local start_inside = lo < delta0 and delta0 < hi
  local edge
  if way ~= 0 then
    if not (lo < delta and delta < hi) then return end
    if way > 0 then edge = hi else edge = lo end
  elseif lo < delta and delta < hi then
    if start_inside then
      if delta - lo <= hi - delta then edge = lo else edge = hi end
    elseif wrap(x - x0) > 0.0 then
      edge = lo
    else
      edge = hi
    end
  elseif not start_inside then
    -- through it within the substep: the arc from delta0 crosses an end
    local turned = wrap(x - x0)
    local to = delta0 + turned
    if turned > 0.0 and ((lo > delta0 and lo < to) or (lo + TWO_PI > delta0 and lo + TWO_PI < to)) then
      edge = lo
    elseif turned < 0.0 and ((hi < delta0 and hi > to) or (hi - TWO_PI < delta0 and hi - TWO_PI > to)) then
      edge = hi
    end
  end
  if edge == nil then return end
  world[i] = wrap(psi + edge)
  local v = velocity[i]
  if (edge == lo and v > 0.0) or (edge == hi and v < 0.0) then velocity[i] = 0.0 end
end

-- The directions in which bone i (pivot px, py, length l) would put its
-- tip inside circle c (centre cx, cy in chain space): psi +- beta, from
-- |tip - centre|^2 = l^2 + D^2 - 2 l D cos(x - psi) < R^2.
local function circle(sp, i, x0, px, py, l, cx, cy, radius, way)
  local dx, dy = cx - px, cy - py
  -- out of reach on either axis: no need of D
  if abs(dx) - radius >= l or abs(dy) - radius >= l then return end
  local d = hypot(dx, dy)
  -- the tip's distance from the centre ranges over [|l - D|, l + D]
  if not (abs(l - d) < radius) then return end
  local beta = PI
  if l + d > radius then
    local kappa = 0.5 * (l / d + d / l - (radius / l) * (radius / d))
    if not (kappa < 1.0) then return end
    if kappa > -1.0 then beta = acos(kappa) end
  end
  push_out(sp, i, x0, atan2(dy, dx), -beta, beta, way)
end

-- The line of segment (ax, ay)-(bx, by) seen from (px, py): the signed
-- distance (positive to the left of a to b, chain space) and the unit
-- normal to the left; nil for a segment of no length.  The side of k-th
-- collider kept in sp.side: the point's, or while the point lies on the
-- line (rounding moves a joint off it by far less than the tolerance)
-- the last one's along the chain.
local function line_side(sp, k, px, py, ax, ay, bx, by)
  local sx, sy = bx - ax, by - ay
  local length = hypot(sx, sy)
  if not (length > 0.0 and length - length == 0) then return nil end
  local nx, ny = -sy / length, sx / length
  local signed = (px - ax) * nx + (py - ay) * ny
  local tolerance = ON_LINE * (abs(px) + abs(py) + abs(ax) + abs(ay) + length)
  if signed > tolerance then
    sp.side[k] = 1.0
  elseif signed < -tolerance then
    sp.side[k] = -1.0
  end
  return signed, nx, ny
end

-- The directions in which bone i would cross segment (ax, ay)-(bx, by):
-- from the pivot's side, those whose ray meets the segment within l:
-- toward the line (n, at distance d), |x - psi| < acos(d / l), and
-- between the directions of the two ends.
local function segment(sp, i, x0, px, py, l, ax, ay, bx, by, k, way)
  -- out of reach of the segment's box: no side needed either (a pivot on
  -- the line has its parent within reach)
  local x_lo, x_hi, y_lo, y_hi = ax, bx, ay, by
  if bx < ax then x_lo, x_hi = bx, ax end
  if by < ay then y_lo, y_hi = by, ay end
  if px + l < x_lo or px - l > x_hi or py + l < y_lo or py - l > y_hi then return end
  local signed, nx, ny = line_side(sp, k, px, py, ax, ay, bx, by)
  local side = sp.side[k]
  if signed == nil or side == 0.0 then return end
  local d = side * signed
  if d < 0.0 then d = 0.0 end
  if not (d < l) then return end
  -- n toward the line; each end's direction from it
  nx, ny = -side * nx, -side * ny
  local a1x, a1y, a2x, a2y = ax - px, ay - py, bx - px, by - py
  local a1 = atan2(a1y * nx - a1x * ny, a1x * nx + a1y * ny)
  local a2 = atan2(a2y * nx - a2x * ny, a2x * nx + a2y * ny)
  local beta = acos(d / l)
  local lo, hi = a1, a2
  if a2 < a1 then lo, hi = a2, a1 end
  if lo < -beta then lo = -beta end
  if hi > beta then hi = beta end
  if lo < hi then push_out(sp, i, x0, atan2(ny, nx), lo, hi, way) end
end

-- Every collider on bone i whose pivot is (px, py), colliders in chain
-- space (mirrored about the base's x, mirror / 2, when the chain is
-- flipped), once, pushing out as push_out does with way.
local function collide_once(sp, i, x0, px, py, mirror, way)
  local ch = sp.chain
  local l = ch.length[i] * ch.scale
  local flip = ch.flip
  local colliders = sp.colliders
  for k = 1, sp.collider_count do
    local c = colliders[k]
    if c.shape == "circle" then
      local cx = c.x
      if flip then cx = mirror - cx end
      circle(sp, i, x0, px, py, l, cx, c.y, c.radius, way)
    else
      local ax, bx = c.x1, c.x2
      if flip then ax, bx = mirror - ax, mirror - bx end
      segment(sp, i, x0, px, py, l, ax, c.y1, bx, c.y2, k, way)
    end
  end
end

-- The colliders together (spring_collide): taken once, then each collider
-- the bone is found in pushes it on the way it went, until none holds it.
local function collide(sp, i, x0, px, py, mirror)
  local world = sp.world
  local start = world[i]
  collide_once(sp, i, x0, px, py, mirror, 0)
  local turned = wrap(world[i] - start)
  if turned == 0.0 then return end
  local way = turned > 0.0 and 1 or -1
  for _ = 1, sp.collider_count do
    local before = world[i]
    collide_once(sp, i, x0, px, py, mirror, way)
    if world[i] == before then return end
  end
end

-- The side of each segment the chain's base (px, py) is on, 0 on its line.
local function base_sides(sp, px, py, mirror)
  local colliders, flip = sp.colliders, sp.chain.flip
  for k = 1, sp.collider_count do
    local c = colliders[k]
    sp.side[k] = 0.0
    if c.shape == "segment" then
      local ax, bx = c.x1, c.x2
      if flip then ax, bx = mirror - ax, mirror - bx end
      line_side(sp, k, px, py, ax, c.y1, bx, c.y2)
    end
  end
end

-- ------------------------------------------------------------------
-- the motion
-- ------------------------------------------------------------------

-- u'' + gamma u' + k u = f for h seconds from u = 0, u' = v, solved
-- exactly: returns u(h) and u'(h) (E the response to a unit start
-- velocity, P its velocity, I its integral).
local function step(k, gamma, f, h, v0)
  local expm1 = m.expm1
  local a = 0.5 * gamma
  local e, p, integral
  if k * h * h > FREE then
    local q = k - a * a
    local c, one_minus_c
    if q > 0.0 then
      local w = sqrt(q)
      local decay = exp(-a * h)
      local _, half = rot_steady(0.5 * w * h)
      local turn_c, turn_s = rot_steady(w * h)
      c = decay * turn_c
      e = decay * turn_s / w
      one_minus_c = -expm1(-a * h) + decay * 2.0 * half * half
    elseif q < 0.0 then
      -- the roots -a +- r, the small one without cancellation
      local r = sqrt(-q)
      local slow, fast = -k / (a + r), -(a + r)
      local e_slow, e_fast = exp(slow * h), exp(fast * h)
      c = 0.5 * (e_slow + e_fast)
      if 2.0 * r * h < 1.0 then
        e = e_fast * expm1(2.0 * r * h) / (2.0 * r)
      else
        e = (e_slow - e_fast) / (2.0 * r)
      end
      one_minus_c = -0.5 * (expm1(slow * h) + expm1(fast * h))
    else
      c = exp(-a * h)
      e = c * h
      one_minus_c = -expm1(-a * h)
    end
    p = c - a * e
    integral = (one_minus_c - a * e) / k
  elseif gamma * h > SERIES then
    e = -expm1(-gamma * h) / gamma
    p = exp(-gamma * h)
    integral = (h - e) / gamma
  else
    -- free and all but undamped: the series, to (gamma h)^2
    local g = gamma * h
    e = h * (1.0 - g * (0.5 - g / 6.0))
    p = 1.0 - g * (1.0 - 0.5 * g)
    integral = h * h * (0.5 - g * (1.0 / 6.0 - g / 24.0))
  end
  return v0 * e + f * integral, v0 * p + f * e
end

-- the speed of a base that moved by d in dt seconds, bounded
local function speed(d, dt)
  if dt == math.huge then return 0.0 end
  local v = d / dt
  if v > MAX_BASE_SPEED then return MAX_BASE_SPEED end
  if v < -MAX_BASE_SPEED then return -MAX_BASE_SPEED end
  return v
end

-- What drives an update: gravity and the wind in chain space, each
-- neutral angle and the base angle over the frame (from + s * turn), the
-- base's position over it (x0 + s * dx), the air's velocity past the base
-- and the jump of the base's velocity at the frame's start.  The base's position is a
-- sample of its motion only when the frame has time (dt > 0): an update of
-- no time takes it as a jump (a teleport, the base's speed kept), as it
-- takes a neutral angle's change.
local function inputs_of(sp, dt)
  local ch = sp.chain
  local input = sp.input
  local base = ch.base_angle
  local settings = sp.settings
  if ch.flip then input.gx = -settings.gravity_x else input.gx = settings.gravity_x end
  input.gy = settings.gravity_y
  local from, turn = sp.from, sp.turn
  local neutral, written, moving, angle = sp.neutral, sp.written, sp.moving, ch.angle
  for i = 1, ch.count do
    local before = neutral[i]
    from[i], turn[i] = before, 0.0
    if angle[i] ~= written[i] then neutral[i] = angle[i] end
    if moving[i] then
      turn[i] = wrap(neutral[i] - before)
    else
      from[i] = neutral[i]
    end
    moving[i] = neutral[i] ~= before
  end
  if sp.base_moving then
    input.base_from, input.base_turn = sp.base, wrap(base - sp.base)
  else
    input.base_from, input.base_turn = base, 0.0
  end
  sp.base_moving = base ~= sp.base
  sp.base = base
  input.x0, input.y0, input.dx, input.dy = sp.base_x, sp.base_y, 0.0, 0.0
  input.kick_x, input.kick_y = 0.0, 0.0
  if dt > 0.0 then
    local x, y = ch.base_x, ch.base_y
    local vx, vy = speed(x - sp.base_x, dt), speed(y - sp.base_y, dt)
    input.dx, input.dy = x - sp.base_x, y - sp.base_y
    input.kick_x, input.kick_y = vx - sp.base_vx, vy - sp.base_vy
    sp.base_vx, sp.base_vy = vx, vy
  end
  sp.base_x, sp.base_y = ch.base_x, ch.base_y
  -- the air's velocity past the base, world then chain space
  local air_x, air_y = settings.wind_x - sp.base_vx, settings.wind_y - sp.base_vy
  if ch.flip then
    input.air_x, input.kick_x = -air_x, -input.kick_x
  else
    input.air_x = air_x
  end
  input.air_y = air_y
end

-- Each bone's coefficients for an update: its spring and its child's over
-- its mass, its damping over its mass, the field it feels (gravity and
-- the air's drag); returns Lambda, a bound on the chain's fastest rate
-- squared (Gershgorin's, over every joint and the field's pull).
local function coefficients(sp)
  local ch = sp.chain
  local n = ch.count
  local input = sp.input
  local stiffness, damping, mass = sp.stiffness, sp.damping, sp.mass
  local w2, w2_child, gamma, gxs, gys = sp.w2, sp.w2_child, sp.gamma, sp.gx, sp.gy
  local gx, gy, air_x, air_y = input.gx, input.gy, input.air_x, input.air_y
  local air = air_x ~= 0.0 or air_y ~= 0.0
  local length = ch.length
  local lambda = 0.0
  for i = 1, n do
    w2[i] = stiffness[i] / mass[i]
    w2_child[i] = 0.0
    if i < n then w2_child[i] = stiffness[i + 1] / mass[i] end
    gamma[i] = damping[i] / mass[i]
    local bx, by = gx, gy
    if air then bx, by = gx + gamma[i] * air_x, gy + gamma[i] * air_y end
    gxs[i], gys[i] = bx, by
    local carried = n - i + 1.0
    local k, k_child = w2[i] * carried, w2_child[i] * (carried - 1.0)
    local row = k + k_child + k_child
    if i > 1 then row = row + k end
    if bx ~= 0.0 or by ~= 0.0 then row = row + hypot(bx, by) / length[i] end
    if not (row <= lambda) then lambda = row end
  end
  return lambda
end

-- the jump of the base's velocity: each bone's tip keeps its world
-- velocity while its pivot's jumps, -(d x dV) / L rad/s
local function kick(sp)
  local input = sp.input
  local kx, ky = input.kick_x, input.kick_y
  if kx == 0.0 and ky == 0.0 then return end
  local world, velocity, length = sp.world, sp.velocity, sp.chain.length
  for i = 1, sp.chain.count do
    local c, s = rot(world[i])
    local v = velocity[i] - (c * ky - s * kx) / length[i]
    if v > MAX_SPEED then v = MAX_SPEED end
    if v < -MAX_SPEED then v = -MAX_SPEED end
    if v ~= v then v = 0.0 end
    velocity[i] = v
  end
end

-- the base's position at s of the frame (chain space: the mirror's axis)
local function base_at(input, s)
  return input.x0 + s * input.dx, input.y0 + s * input.dy
end

-- A bone's new direction x and velocity v (from x0, toward phi should
-- doubles not hold them): bounded, kept, pushed out of the colliders and
-- into its limits; returns whether those moved it.
local function settle(sp, i, x0, x, v, phi, parent_to, parent_v, px, py, mirror)
  if v > MAX_SPEED then v = MAX_SPEED end
  if v < -MAX_SPEED then v = -MAX_SPEED end
  if not finite(x) or not finite(v) then
    -- a step doubles cannot hold (a denormal bone under gravity, a
    -- stiffness near the largest double): the bone rests at its neutral angle
    x = wrap(phi)
    v = 0.0
  end
  sp.world[i], sp.velocity[i] = x, v
  if sp.collider_count > 0 then collide(sp, i, x0, px, py, mirror) end
  limit_bone(sp, i, parent_to, parent_v)
  return sp.world[i] ~= x
end

-- the next pivot: bone i's tip
local function tip_of(sp, i, px, py)
  local ch = sp.chain
  local c, s = rot(sp.world[i])
  local l = ch.length[i] * ch.scale
  return px + l * c, py + l * s
end

-- One substep of h seconds, from s0 to s1 of the frame, every bone root
-- to tip, each solved exactly with its neighbours held.
local function substep(sp, h, s0, s1)
  local ch = sp.chain
  local n = ch.count
  local input = sp.input
  local from, turn = sp.from, sp.turn
  local w2, w2_child, gamma, gxs, gys = sp.w2, sp.w2_child, sp.gamma, sp.gx, sp.gy
  local s = 0.5 * s0 + 0.5 * s1
  local parent_mid = input.base_from + s * input.base_turn
  local parent_to, parent_v = input.base_from + s1 * input.base_turn, 0.0
  local world, velocity, length = sp.world, sp.velocity, ch.length
  local colliding = sp.collider_count > 0
  local px, py = base_at(input, s1)
  if colliding then base_sides(sp, px, py, 2.0 * px) end
  local mirror = 2.0 * px
  for i = 1, n do
    local x0, v = world[i], velocity[i]
    local phi = parent_mid + from[i] + s * turn[i]
    -- joint i carries the bones from i to the tip: its spring is w2 times
    -- their count, so every joint bends alike under a load on every bone
    local carried = n - i + 1.0
    local k = w2[i] * carried
    local f = -k * wrap(x0 - phi)
    if i + 1 <= n then
      -- the child's joint pulls back, the child held at the substep's middle
      local child = world[i + 1] + 0.5 * h * velocity[i + 1]
      local k_child = w2_child[i] * (carried - 1.0)
      k = k + k_child
      f = f + k_child * wrap(child - x0 - (from[i + 1] + s * turn[i + 1]))
    end
    local gx, gy = gxs[i], gys[i]
    if gx ~= 0.0 or gy ~= 0.0 then
      local c, sn = rot(x0)
      local l = length[i]
      local along, across = (gx * c + gy * sn) / l, (gy * c - gx * sn) / l
      f = f + across
      if along > 0.0 then k = k + along end
    end
    local u
    u, v = step(k, gamma[i], f, h, v)
    settle(sp, i, x0, wrap(x0 + u), v, phi, parent_to, parent_v, px, py, mirror)
    local x = world[i]
    parent_mid = x0 + 0.5 * wrap(x - x0)
    parent_to, parent_v = x, velocity[i]
    if colliding then px, py = tip_of(sp, i, px, py) end
  end
end

-- The rows of backward Euler for the chain from its state, the neutral angles
-- and the base where they are at s1:
--   (M + h C + h^2 K) v' = M v + h F(x),  x' = x + h v'
-- row i over m_i, tridiagonal and diagonally dominant (every row's
-- diagonal is 1 + h gamma_i + its off-diagonals' sum or more), so
-- solved without pivoting.
local function implicit_rows(sp, h, s1)
  local ch = sp.chain
  local n = ch.count
  local input = sp.input
  local from, turn = sp.from, sp.turn
  local w2, w2_child, gamma, gxs, gys = sp.w2, sp.w2_child, sp.gamma, sp.gx, sp.gy
  local world, velocity, length = sp.world, sp.velocity, ch.length
  local err, sub, diag, sup, rhs = sp.error, sp.sub, sp.diag, sp.sup, sp.rhs
  local h2 = h * h
  local parent = input.base_from + s1 * input.base_turn
  for i = 1, n do
    err[i] = wrap(world[i] - parent - (from[i] + s1 * turn[i]))
    parent = world[i]
  end
  for i = 1, n do
    local carried = n - i + 1.0
    local k = w2[i] * carried
    local k_child = w2_child[i] * (carried - 1.0)
    local f = -k * err[i]
    if i < n then f = f + k_child * err[i + 1] end
    local stiff = k + k_child
    local gx, gy = gxs[i], gys[i]
    if gx ~= 0.0 or gy ~= 0.0 then
      -- the field's pull, linearised: its slope where it restores, else
      -- its secant toward the field (sin(delta) / delta of it)
      local c, sn = rot(world[i])
      local l = length[i]
      local along, across = (gx * c + gy * sn) / l, (gy * c - gx * sn) / l
      f = f + across
      if along > 0.0 then
        stiff = stiff + along
      elseif across ~= 0.0 then
        stiff = stiff + across / atan2(across, along)
      end
    end
    sub[i] = -h2 * k
    sup[i] = -h2 * k_child
    diag[i] = 1.0 + h * gamma[i] + h2 * stiff
    rhs[i] = velocity[i] + h * f
  end
end

-- Thomas: forward elimination (sup and rhs scaled), back substitution;
-- leaves v' in rhs
local function implicit_solve(sp, n)
  local sub, diag, sup, rhs = sp.sub, sp.diag, sp.sup, sp.rhs
  for i = 1, n do
    local pivot = diag[i]
    if i > 1 then
      pivot = pivot - sub[i] * sup[i - 1]
      rhs[i] = rhs[i] - sub[i] * rhs[i - 1]
    end
    sup[i] = sup[i] / pivot
    rhs[i] = rhs[i] / pivot
  end
  for i = n - 1, 1, -1 do rhs[i] = rhs[i] - sup[i] * rhs[i + 1] end
end

-- Every bone from its start (start, start_v) by its solved velocity, root
-- to tip, settled; held[i] marks the bones a collider or limit moved;
-- returns whether any.
local function implicit_settle(sp, h, s1)
  local ch = sp.chain
  local input = sp.input
  local from, turn, rhs, start, held = sp.from, sp.turn, sp.rhs, sp.start, sp.held
  local colliding = sp.collider_count > 0
  local px, py = base_at(input, s1)
  if colliding then base_sides(sp, px, py, 2.0 * px) end
  local mirror = 2.0 * px
  local parent, parent_v = input.base_from + s1 * input.base_turn, 0.0
  local any = false
  for i = 1, ch.count do
    local x0, v = start[i], rhs[i]
    held[i] = settle(sp, i, x0, wrap(x0 + h * v), v, parent + from[i] + s1 * turn[i], parent,
                     parent_v, px, py, mirror)
    any = any or held[i]
    parent, parent_v = sp.world[i], sp.velocity[i]
    if colliding then px, py = tip_of(sp, i, px, py) end
  end
  return any
end

-- One substep of backward Euler for the chain at once (implicit_rows).
-- A bone a collider or limit then moves was solved as if free: the step
-- is solved again from the start with those bones held where they were
-- put, so the others move as their neighbours do (not into a two-step
-- swing about the contact).
local function substep_implicit(sp, h, s1)
  local n = sp.chain.count
  local world, velocity, start, start_v, held = sp.world, sp.velocity, sp.start, sp.start_v, sp.held
  local sub, diag, sup, rhs = sp.sub, sp.diag, sp.sup, sp.rhs
  for i = 1, n do start[i], start_v[i] = world[i], velocity[i] end
  implicit_rows(sp, h, s1)
  implicit_solve(sp, n)
  if not implicit_settle(sp, h, s1) then return end
  local put = sp.put
  for i = 1, n do
    put[i] = world[i]
    world[i], velocity[i] = start[i], start_v[i]
  end
  implicit_rows(sp, h, s1)
  for i = 1, n do
    if held[i] then
      sub[i], sup[i], diag[i] = 0.0, 0.0, 1.0
      rhs[i] = wrap(put[i] - start[i]) / h
    end
  end
  implicit_solve(sp, n)
  implicit_settle(sp, h, s1)
end

--- advances the motion by dt seconds (>= 0) and writes the result; the
-- status DT for a negative or NaN dt, nothing changed
function M.update(sp, dt)
  if dt ~= dt or dt < 0.0 then return "DT" end
  inputs_of(sp, dt)
  if dt > 0.0 then
    -- 1/60 s is 12 substeps, not 13 for the rounding of dt * 720
    local steps = dt * SUBSTEP_RATE
    local n
    if steps <= 1.0 then
      n = 1
    elseif steps >= MAX_SUBSTEPS then
      n = MAX_SUBSTEPS
    else
      n = ceil(steps - SUBSTEP_SLACK)
    end
    local h = dt / n
    if h > MAX_SUBSTEP then h = MAX_SUBSTEP end
    local lambda = coefficients(sp)
    kick(sp)
    if lambda * h * h <= STIFF then
      for k = 0, n - 1 do substep(sp, h, k / n, (k + 1.0) / n) end
    else
      for k = 0, n - 1 do substep_implicit(sp, h, (k + 1.0) / n) end
    end
  end
  limit_all(sp)
  write(sp)
  return nil
end

return M
