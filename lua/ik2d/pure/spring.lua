--- ik2d.pure.spring: secondary motion (src/ik2d_spring.c): the bones of a
-- chain as a torsional spring chain, integrated exactly substep by
-- substep (each bone's damped oscillator solved in closed form with its
-- neighbours and gravity held over the substep), inside the limits;
-- result = target + weight * turn(target -> spring), as a solve blends.
local api = require "ik2d.api"
local defs = require "ik2d.pure.defs"
local m = require "ik2d.pure.math"
local limits = require "ik2d.pure.constraint"
local chains = require "ik2d.pure.chain"
local skeleton = require "ik2d.pure.skeleton"

local sqrt, exp, rot, ceil = math.sqrt, m.exp, m.rot, math.ceil
-- the oscillator's angles w h and w h / 2 are >= 0 and the same every
-- substep of a spring's settings and dt: rot_branches' branches go one
-- way there (no side traces under LuaJIT), and below pi/4 it skips the
-- range reduction the flat rot always makes
local rot_steady = m.rot_branches
local PI, wrap = m.PI, m.wrap
local limit_clamp, update_joints = limits.clamp, chains.update_joints

local M = {}

local function finite(x) return x - x == 0 end

-- Substeps: at least SUBSTEP_RATE a second, at most MAX_SUBSTEPS an
-- update, none longer than MAX_SUBSTEP seconds; no bone turns faster than
-- MAX_SPEED; below FREE (K h^2) a substep is free motion.
local SUBSTEP_RATE, MAX_SUBSTEPS, MAX_SUBSTEP = 720.0, 64, 1.0
local MAX_SPEED = SUBSTEP_RATE * PI
local FREE = 1e-8

-- the settings lua/ik2d/api.lua describes: their keys and defaults
local FIELDS
FIELDS, M.default_def = defs.of(api.spring)

function M.copy_def(from, to)
  for k = 1, #FIELDS do to[FIELDS[k]] = from[FIELDS[k]] end
  return to
end

local function check_gravity(x, y)
  if not finite(x) then return "GRAVITY_X" end
  if not finite(y) then return "GRAVITY_Y" end
  return nil
end

local function check_def(def)
  if not finite(def.stiffness) or def.stiffness < 0.0 then return "SPRING_STIFFNESS" end
  if not finite(def.damping) or def.damping < 0.0 then return "SPRING_DAMPING" end
  -- the motion depends on stiffness / mass and damping / mass
  if not finite(def.mass) or not (def.mass > 0.0) or not finite(def.stiffness / def.mass) or
     not finite(def.damping / def.mass) then
    return "SPRING_MASS"
  end
  if def.weight ~= def.weight then return "WEIGHT" end
  return check_gravity(def.gravity_x, def.gravity_y)
end

local clamp_weight = m.clamp_weight

local function keep_def(sp, def)
  M.copy_def(def, sp.settings)
  sp.settings.weight = clamp_weight(def.weight)
end

-- ------------------------------------------------------------------
-- the result
-- ------------------------------------------------------------------

-- a result angle that is not what the spring wrote is the bone's new target
local function take_targets(sp)
  local angle, written, target = sp.chain.angle, sp.written, sp.target
  for i = 1, sp.chain.count do
    if angle[i] ~= written[i] then target[i] = angle[i] end
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

-- result = target + weight * turn(target -> spring's local angle); joints
local function write(sp)
  local ch = sp.chain
  local weight, parent = sp.settings.weight, ch.base_angle
  local angle, constraint, rest = ch.angle, ch.constraint, ch.rest
  for i = 1, ch.count do
    local target = sp.target[i]
    local world_i = sp.world[i]
    local turn = limits.turn(constraint[i], rest[i], target, wrap(world_i - parent))
    if weight == 1.0 then angle[i] = target + turn else angle[i] = target + weight * turn end
    sp.written[i] = angle[i]
    parent = world_i
  end
  update_joints(ch)
  -- a skeleton chain's bones are the skeleton's: it follows
  if ch.link then skeleton.push(ch, true) end
end

-- every bone at rest on its target, the targets and the base still
local function rest_all(sp)
  local ch = sp.chain
  local world = ch.base_angle
  for i = 1, ch.count do
    world = wrap(world + sp.target[i])
    sp.world[i], sp.velocity[i], sp.moving[i] = world, 0.0, false
  end
  sp.base, sp.base_moving = ch.base_angle, false
end

--- a spring on the core chain ch from def, or nil and the status
function M.new(ch, def)
  local status = check_def(def)
  if status then return nil, status end
  local sp = { chain = ch, settings = {}, base = 0.0, base_moving = false, world = {},
               velocity = {}, target = {}, written = {}, moving = {} }
  keep_def(sp, def)
  for i = 1, ch.count do
    sp.target[i], sp.written[i] = ch.angle[i], ch.angle[i]
  end
  rest_all(sp)
  return sp
end

function M.set_def(sp, def)
  local status = check_def(def)
  if status == nil then keep_def(sp, def) end
  return status
end

function M.set_weight(sp, weight)
  if weight ~= weight then return "WEIGHT" end
  sp.settings.weight = clamp_weight(weight)
  return nil
end

function M.set_gravity(sp, x, y)
  local status = check_gravity(x, y)
  if status then return status end
  sp.settings.gravity_x, sp.settings.gravity_y = x, y
  return nil
end

--- bone i's angular velocity, in the sense of the chain's world angles
function M.velocity(sp, i)
  -- mirroring maps a direction phi to pi - phi: the turn reverses
  if sp.chain.flip then return -sp.velocity[i] end
  return sp.velocity[i]
end

function M.reset(sp)
  take_targets(sp)
  rest_all(sp)
  limit_all(sp)
  write(sp)
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
  elseif gamma * h > 1e-4 then
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

-- what drives an update: gravity in chain space, each target and the base
-- angle over the frame (from + s * turn), held in a scratch
local from, turn = {}, {}
local input = { gx = 0.0, gy = 0.0, base_from = 0.0, base_turn = 0.0 }

local function inputs_of(sp)
  local ch = sp.chain
  local base = ch.base_angle
  if ch.flip then input.gx = -sp.settings.gravity_x else input.gx = sp.settings.gravity_x end
  input.gy = sp.settings.gravity_y
  local target, written, moving, angle = sp.target, sp.written, sp.moving, ch.angle
  for i = 1, ch.count do
    local before = target[i]
    from[i], turn[i] = before, 0.0
    if angle[i] ~= written[i] then target[i] = angle[i] end
    if moving[i] then
      turn[i] = wrap(target[i] - before)
    else
      from[i] = target[i]
    end
    moving[i] = target[i] ~= before
  end
  if sp.base_moving then
    input.base_from, input.base_turn = sp.base, wrap(base - sp.base)
  else
    input.base_from, input.base_turn = base, 0.0
  end
  sp.base_moving = base ~= sp.base
  sp.base = base
end

-- one substep of h seconds, from s0 to s1 of the frame, root to tip
local function substep(sp, h, s0, s1)
  local ch = sp.chain
  local n = ch.count
  local settings = sp.settings
  local w2, gamma = settings.stiffness / settings.mass, settings.damping / settings.mass
  local gx, gy = input.gx, input.gy
  local gravity = gx ~= 0.0 or gy ~= 0.0
  local s = 0.5 * s0 + 0.5 * s1
  local parent_mid = input.base_from + s * input.base_turn
  local parent_to, parent_v = input.base_from + s1 * input.base_turn, 0.0
  local world, velocity, length = sp.world, sp.velocity, ch.length
  for i = 1, n do
    local x0, v = world[i], velocity[i]
    local phi = parent_mid + from[i] + s * turn[i]
    local carried = n - i + 1.0
    local k = w2 * carried
    local f = -k * wrap(x0 - phi)
    if i + 1 <= n then
      -- the child's joint pulls back, the child held at the substep's middle
      local child = world[i + 1] + 0.5 * h * velocity[i + 1]
      local k_child = w2 * (carried - 1.0)
      k = k + k_child
      f = f + k_child * wrap(child - x0 - (from[i + 1] + s * turn[i + 1]))
    end
    if gravity then
      local c, sn = rot(x0)
      local l = length[i]
      local along, across = (gx * c + gy * sn) / l, (gy * c - gx * sn) / l
      f = f + across
      if along > 0.0 then k = k + along end
    end
    local u
    u, v = step(k, gamma, f, h, v)
    local x = wrap(x0 + u)
    if v > MAX_SPEED then v = MAX_SPEED end
    if v < -MAX_SPEED then v = -MAX_SPEED end
    if not finite(x) or not finite(v) then
      -- a step doubles cannot hold: the bone rests on its target
      x = wrap(phi)
      v = 0.0
    end
    world[i], velocity[i] = x, v
    limit_bone(sp, i, parent_to, parent_v)
    x, v = world[i], velocity[i]
    parent_mid = x0 + 0.5 * wrap(x - x0)
    parent_to, parent_v = x, v
  end
end

--- advances the motion by dt seconds (>= 0) and writes the result; the
-- status DT for a negative or NaN dt, nothing changed
function M.update(sp, dt)
  if dt ~= dt or dt < 0.0 then return "DT" end
  inputs_of(sp)
  if dt > 0.0 then
    -- 1/60 s is 12 substeps, not 13 for the rounding of dt * 720
    local steps = dt * SUBSTEP_RATE
    local n
    if steps <= 1.0 then
      n = 1
    elseif steps >= MAX_SUBSTEPS then
      n = MAX_SUBSTEPS
    else
      n = ceil(steps - 1e-9)
    end
    local h = dt / n
    if h > MAX_SUBSTEP then h = MAX_SUBSTEP end
    for k = 0, n - 1 do substep(sp, h, k / n, (k + 1.0) / n) end
  end
  limit_all(sp)
  write(sp)
  return nil
end

return M
