--- ik2d.pure.solver: solver settings and the solve driver (src/ik2d_solver.c):
-- the start pose, the method and CCD's FABRIK fallback, the tip angle, the
-- pole, one-bone scale, the weight blend and the result.  It solves a chain
-- toward its point target and knows nothing of skeletons: a target on a
-- bone is read into target_x, target_y, and a skeleton chain's result
-- written back, by ik2d.pure.skeleton_solve (its solve_one), above it.
--
-- Settings are a def table with the C def's fields; method, sweep and
-- softness_curve hold their Lua names ("ccd", "root", "smooth").  Every
-- setter and set_def check as the C core does, with the same statuses.
local api = require "ik2d.api"
local defs = require "ik2d.pure.defs"
local checks = require "ik2d.pure.checks"
local N = require "ik2d.pure.numbers"
local m = require "ik2d.pure.math"
local limits = require "ik2d.pure.constraint"
local chains = require "ik2d.pure.chain"
local pose = require "ik2d.pure.pose"
local ccd = require "ik2d.pure.ccd"
local fabrik = require "ik2d.pure.fabrik"
local two_bone = require "ik2d.pure.two_bone"
local follow = require "ik2d.pure.follow"
local aim = require "ik2d.pure.aim"
local kernel = require "ik2d.pure.kernel"

local sqrt, rot = math.sqrt, m.rot
local PI, wrap, atan2, hypot = m.PI, m.wrap, m.atan2, m.hypot
local limit_clamp = limits.clamp
local update_joints = chains.update_joints

local forward, clamp = pose.forward, pose.clamp

local M = {}

local function finite(x) return x - x == 0 end

-- ------------------------------------------------------------------
-- settings: the checks and setters lua/ik2d/api.lua describes
-- ------------------------------------------------------------------

-- the settings lua/ik2d/api.lua describes: their keys and defaults
M.FIELDS, M.default_def = defs.of(api.solver)

--- copies every setting of from into to
function M.copy_def(from, to)
  local fields = M.FIELDS
  for k = 1, #fields do
    local key = fields[k]
    to[key] = from[key]
  end
  return to
end

-- The rules of lua/ik2d/api.lua's solver, named as in src/ik2d_solver.c:
-- each true when the def passes.
local RULES = {}

-- two_bone needs a chain of 2 bones of length > 0: a skeleton chain's
-- pivot leaves the triangle a side of 0
function RULES.two_bone_fits_chain(def, ch)
  return def.method ~= "two_bone" or (ch.count == 2 and ch.length[1] > 0.0 and ch.length[2] > 0.0)
end

-- follow moves the chain's base, which a skeleton owns
function RULES.follow_off_skeleton(def, ch)
  return def.method ~= "follow" or not ch.link
end

-- An aim puts a point of its ray on the target, as the methods with a
-- fixed base put a tip (follow moves the base instead), and it turns the
-- last bone, which a tip angle would too.
function RULES.aim_with_fixed_base(def)
  return def.method ~= "follow"
end

function RULES.aim_without_tip(def)
  return not def.tip
end

-- every setting, in the description's order (ik2d.pure.checks)
local check_def = checks.def(api.solver, RULES)

local clamp_weight = m.clamp_weight

-- The kernel that solves sv while its settings stay (sv.kernel; false:
-- none): for plain CCD without the exact step (no tip angle, pole, aim or
-- one-bone scale) of weight above 0 on a chain of no skeleton, the loop
-- kernel of its sweep (LuaJIT) or the unrolled kernel made for its bone
-- count and sweep (PUC Lua, up to kernel.MAX_BONES bones).  And an aimed solve's settings (settings.aimed:
-- no stretch, compress or softness, as solve_aimed in src/ik2d_solver.c
-- makes them).  Made again whenever a setting changes.
local function refresh(sv)
  local settings, n = sv.settings, sv.chain.count
  -- every change of the settings ends here: a keeper of a def (a rig's
  -- set-up) knows by the revision whether they still are what it kept
  sv.revision = sv.revision + 1
  if settings.aim then
    local aimed = M.copy_def(settings, settings.aimed or {})
    aimed.damping_c, aimed.damping_s = settings.damping_c, settings.damping_s
    aimed.stretch, aimed.compress, aimed.softness = 1.0, 1.0, 0.0
    settings.aimed = aimed
  end
  -- (a chain's link is there from its making, before any solver; weight
  -- 0 solves nothing)
  local plain = settings.method == "ccd" and not settings.tip and not settings.pole and
    not settings.aim and not settings.exact and
    not (n == 1 and (settings.stretch > 1.0 or settings.compress < 1.0)) and
    not sv.chain.link and settings.weight > 0.0
  if not plain then
    sv.kernel = false
  elseif kernel.LOOPS then
    sv.kernel = kernel.loop(settings.sweep)
  elseif n <= kernel.MAX_BONES then
    sv.kernel = kernel.get(n, settings.sweep, false)
  else
    sv.kernel = false
  end
end

-- Keeps a checked def, and the largest turn as a rotation (damping_c,
-- damping_s: 0 or a half turn or more is none, cos -1).
local function keep_def(sv, def)
  local settings = sv.settings
  if def ~= settings then M.copy_def(def, settings) end
  settings.weight = clamp_weight(def.weight)
  local damping = def.damping
  if damping == 0.0 or damping >= PI then
    settings.damping_c, settings.damping_s = -1.0, 0.0
  else
    settings.damping_c, settings.damping_s = rot(damping)
  end
  refresh(sv)
end

--- a solver for the core chain ch from def, or nil and the status (not
-- in its skeleton's solvers: ik2d.pure.skeleton's new_solver adds it)
function M.new(ch, def)
  local status = check_def(def, ch)
  if status then return nil, status end
  local n = ch.count
  local sv = {
    chain = ch, settings = {},
    target_x = 0.0, target_y = 0.0, has_target = false, have_solution = false,
    -- false: the target is a world point; else it is on bone target_bone
    -- of this skeleton, the point (target_dx, target_dy) of its space,
    -- read into target_x, target_y whenever the skeleton layer reads the
    -- target (ik2d.pure.skeleton_solve)
    target_skeleton = false, target_bone = 0, target_dx = 0.0, target_dy = 0.0,
    coupled_stalls = 0, -- coupled solves in a row that ended unreached
    reached = false, limited = false, iterations = 0, distance = 0.0,
    solution_c = pose.array(n), solution_s = pose.array(n), solution_angle = pose.array(n),
    kernel = false, revision = 0,
  }
  keep_def(sv, def)
  return sv
end

--- nil, or the status of a tip angle and weight, of a pole (the group's
-- arrays)
M.check_tip = checks.values(api.solver, { "tip_angle", "tip_weight" })
M.check_pole = checks.values(api.solver, { "pole_x", "pole_y" })

--- every setting at once, all checked before any is kept
function M.set_def(sv, def)
  local status = check_def(def, sv.chain)
  if status == nil then keep_def(sv, def) end
  return status
end

-- the setters of a group: its values, its switch on, checked as set_def
-- checks them with the rules that read them (ik2d.pure.checks)
local function keep(sv) keep_def(sv, sv.settings) end
local function chain_of(sv) return sv.chain end
M.set_tip_angle = checks.setter(api.solver, "tip_angle", RULES, keep, chain_of)
M.set_pole = checks.setter(api.solver, "pole", RULES, keep, chain_of)
M.set_aim = checks.setter(api.solver, "aim", RULES, keep, chain_of)

-- each setting's own check, as its C setter's (ik2d_solver_set_weight ...)
local ONE_CHECKS = {}
for _, key in ipairs({ "weight", "softness", "bend", "compress", "stretch" }) do
  ONE_CHECKS[key] = checks.values(api.solver, { key })
end

--- One of the settings a clip keys (weight, softness, bend, compress,
-- stretch) set alone, checked alone as its C setter checks it: nil, or
-- the status (nothing kept).
function M.set_one(sv, key, v)
  local status = ONE_CHECKS[key](v)
  if status then return status end
  sv.settings[key] = v
  keep(sv)
  return nil
end

--- the last bone free again
function M.clear_tip_angle(sv)
  sv.settings.tip = false
  refresh(sv)
end

function M.clear_pole(sv)
  sv.settings.pole = false
  refresh(sv)
end

function M.clear_aim(sv)
  sv.settings.aim = false
  refresh(sv)
end

--- the next solve starts from the chain's pose, as a new solver's
function M.forget(sv)
  sv.have_solution = false
  sv.coupled_stalls = 0
end

--- nil, or the status of a target
-- (finite written out: a call per frame and target counts here)
function M.check_target(x, y)
  if not (x - x == 0) then return "TARGET_X" end
  if not (y - y == 0) then return "TARGET_Y" end
  return nil
end

function M.set_target(sv, x, y)
  if not (x - x == 0) then return "TARGET_X" end
  if not (y - y == 0) then return "TARGET_Y" end
  sv.target_x, sv.target_y, sv.has_target = x, y, true
  sv.target_skeleton = false
  return nil
end

-- ------------------------------------------------------------------
-- the solve
-- ------------------------------------------------------------------

-- The pose's scalars for a solve: the chain, settings, target, pole,
-- tolerance, damping and base.
local function prepare_scalars(sv, P)
  local ch, settings = sv.chain, sv.settings
  local n = ch.count
  local target_x, target_y = sv.target_x, sv.target_y
  if not sv.has_target then
    local joints = ch.joints
    target_x, target_y = joints[2 * n + 1], joints[2 * n + 2]
  end
  P.chain, P.settings, P.count = ch, settings, n
  P.iterations, P.reach = settings.iterations, ch.reach
  if ch.flip then target_x = 2.0 * ch.base_x - target_x end
  P.target_x, P.target_y = target_x, target_y
  P.pole = settings.pole
  if ch.flip then
    P.pole_x = 2.0 * ch.base_x - settings.pole_x
  else
    P.pole_x = settings.pole_x
  end
  P.pole_y = settings.pole_y
  P.limited, P.world_limits = false, 0
  P.tolerance_sq = settings.tolerance * settings.tolerance
  P.damping_c, P.damping_s = settings.damping_c, settings.damping_s
  P.scale, P.fresh = 1.0, false
  P.base_c, P.base_s = ch.base_c, ch.base_s
  P.base_x, P.base_y = ch.base_x, ch.base_y
end

-- Each limited bone's rotation into its limits, root to tip (a
-- world-space limit's middle comes from the bones above, already in
-- theirs); returns whether a bone has a limit.
local function limit_start(P, ch, n)
  local mid_c, mid_s = P.mid_c, P.mid_s
  local constraint = ch.constraint
  local limited = false
  for i = 1, n do
    local limit = constraint[i]
    if limit and not limit.full then
      limited = true
      -- rest rotation times the range's middle: no trig per solve
      local c, s, lc, ls = ch.rest_c[i], ch.rest_s[i], limit.mid_c, limit.mid_s
      mid_c[i], mid_s[i] = c * lc - s * ls, c * ls + s * lc
      if limit.world then P.world_limits = i end
      clamp(P, i)
    end
  end
  return limited
end

-- The pose P for a solve, from the solver's warm start or the chain's
-- pose, into the limits; the start rotations kept in P.start_c, start_s.
-- In steps of their own, each with few locals: under LuaJIT a side trace
-- from an exit in the limits inherits every slot of the frames it returns
-- through, and one function's (about 25) were more than the registers
-- could coalesce ("NYI: register coalescing too complex").
local function prepare(sv, P)
  prepare_scalars(sv, P)
  local rc, rs = P.rc, P.rs
  local ch = sv.chain
  local n = ch.count
  if sv.settings.warm_start and sv.have_solution then
    local solution_c, solution_s = sv.solution_c, sv.solution_s
    for i = 1, n do rc[i], rs[i] = solution_c[i], solution_s[i] end
  else
    local chain_pose = ch.pose
    for i = 1, n do rc[i], rs[i] = rot(chain_pose[i]) end
  end
  P.limited_bones = limit_start(P, ch, n)
  pose.save(P, P.start_c, P.start_s)
end

-- Follow moves the base: the chain's base goes weight of the way to where
-- the solution put it (mirrored back into world space when flipped; the
-- base angle stays).  Returns whether it moved.
local function move_base(P, ch, weight)
  local bx, by = ch.base_x, ch.base_y
  if P.base_x == bx and P.base_y == by then return false end
  local x, y = P.base_x, P.base_y
  if ch.flip then x = 2.0 * bx - P.base_x end
  if weight ~= 1.0 then
    local dx, dy = x - bx, y - by
    -- on halves where the way overflows
    if finite(dx) then x = bx + weight * dx else x = 2.0 * (0.5 * bx + weight * (0.5 * x - 0.5 * bx)) end
    if finite(dy) then y = by + weight * dy else y = 2.0 * (0.5 * by + weight * (0.5 * y - 0.5 * by)) end
  end
  if not finite(x) or not finite(y) then return false end
  ch.base_x, ch.base_y = x, y
  return true
end

-- The run's rotations made sane: a run that met numbers doubles cannot
-- hold (a rotation NaN, zero or far from unit) is dropped for the start,
-- unstretched; rotations merely off unit length by more than 1e-14 are
-- put back on it, and into their limits once more (solve_sane).
local function sane(P)
  local rc, rs = P.rc, P.rs
  local limited = P.limited_bones
  for i = 1, P.count do
    local c, s = rc[i], rs[i]
    local norm = c * c + s * s
    if not (norm > N.ROT_NORM_MIN and norm < N.ROT_NORM_MAX) then -- NaN fails too
      pose.load(P, P.start_c, P.start_s)
      P.scale = 1.0
      return
    end
    local off = norm - 1.0
    if off > N.ROT_DRIFT or off < -N.ROT_DRIFT then
      norm = sqrt(norm)
      P.fresh = false
      rc[i], rs[i] = c / norm, s / norm
    end
    if limited and clamp(P, i) then P.fresh = false end
  end
end

-- Each bone: the solution, its angle (always derived from the rotation:
-- no drift over frames), and result = pose + weight * delta, where delta
-- runs inside the limits.
local function commit(sv, P, weight)
  local rc, rs = P.rc, P.rs
  local ch = sv.chain
  local solution_angle, solution_c, solution_s = sv.solution_angle, sv.solution_c,
    sv.solution_s
  local constraint, chain_pose, angle, rest = ch.constraint, ch.pose, ch.angle, ch.rest
  for i = 1, P.count do
    local c, s = rc[i], rs[i]
    solution_c[i], solution_s[i] = c, s
    local ik = atan2(s, c)
    solution_angle[i] = ik
    local limit, p = constraint[i], chain_pose[i]
    local delta
    if limit and not limit.full and not limit.world then
      local r, mid = rest[i], limit.mid
      -- (wrap's in-range case inline: a call a bone a solve)
      local from = p - r - mid
      if not (from >= -PI and from < PI) then from = wrap(from) end
      delta = limit_clamp(limit, ik - r) - (mid + from)
    else
      delta = ik - p
      if not (delta >= -PI and delta < PI) then delta = wrap(delta) end
    end
    if weight == 1.0 then angle[i] = p + delta else angle[i] = p + weight * delta end
  end
end

-- The result's joints: the IK solution's own where the result is it (no
-- trig), from the last forward pass or (stale) a new one; else from the
-- result angles, the base moved first for follow.
local function result_joints(P, ch, weight)
  local n = P.count
  if move_base(P, ch, weight) or not (weight == 1.0 and ch.scale == 1.0) then
    update_joints(ch)
    return
  end
  local joints, flip, bx2 = ch.joints, ch.flip, 2.0 * ch.base_x
  if P.fresh then
    local jx, jy = P.jx, P.jy
    for i = 1, n + 1 do
      local x = jx[i]
      if flip then x = bx2 - x end
      joints[2 * i - 1], joints[2 * i] = x, jy[i]
    end
    return
  end
  local rc, rs, length = P.rc, P.rs, ch.length
  local x, y, wc, ws = P.base_x, P.base_y, P.base_c, P.base_s
  for i = 1, n do
    local c, s = rc[i], rs[i]
    wc, ws = wc * c - ws * s, wc * s + ws * c
    if flip then joints[2 * i - 1] = bx2 - x else joints[2 * i - 1] = x end
    joints[2 * i] = y
    local l = length[i]
    x = x + l * wc
    y = y + l * ws
  end
  if flip then joints[2 * n + 1] = bx2 - x else joints[2 * n + 1] = x end
  joints[2 * n + 2] = y
end

-- The end of a solve that ran (ik2d__solver_solve_finish): the rotations made
-- sane, follow's base placed, the solution and the result blended with
-- the pose, and the joints.
local function finish_run(sv, P, weight)
  local ch = sv.chain
  sane(P)
  -- follow: the base one chain behind the target, placed last, on the
  -- rotations as they are now (after a tip angle or a pole, and after
  -- they were put back on unit length above), as ik2d__solver_solve_finish does
  if sv.settings.method == "follow" then follow.place(P) end
  sv.limited = P.limited or (P.limited_bones and pose.on_limit(P))
  sv.have_solution = true
  commit(sv, P, weight)
  ch.uniform = sv.settings.uniform
  -- the stretch blends as the angles do
  if weight == 1.0 then ch.scale = P.scale else ch.scale = 1.0 + weight * (P.scale - 1.0) end
  result_joints(P, ch, weight)
end

-- After a CCD run that stopped short of a target the chain can reach,
-- FABRIK from where CCD stopped for the rest of the iterations.
local function ccd_fallback(P, used)
  if not P.settings.exact then return used end
  local ch = P.chain
  local dx, dy = P.target_x - ch.base_x, P.target_y - ch.base_y
  if not P.fresh then forward(P) end
  if not (pose.tip_distance_sq(P) > P.tolerance_sq) then return used end
  -- only a target the chain can reach
  if not (sqrt(dx * dx + dy * dy) < P.reach) then return used end
  P.fresh = false
  P.iterations = P.iterations - used
  if P.iterations < 1 then return used end
  return used + fabrik.run(P)
end

-- the method on the pose's bones: two_bone needs 2 (a tip angle leaves
-- one: CCD turns it), and no world-space limit
local function method_run(P)
  local method = P.settings.method
  if method == "fabrik" then return fabrik.run(P) end
  if method == "follow" then return follow.run(P) end
  -- two_bone also needs no world-space limit (CCD solves the limb then),
  -- and no pivot (a skeleton bone set to length 0 after it was chosen)
  local length = P.chain.length
  if method == "two_bone" and P.count == 2 and P.world_limits == 0 and length[1] > 0.0 and
     length[2] > 0.0 then
    return two_bone.run(P)
  end
  return ccd_fallback(P, ccd.run(P))
end

-- the method, then the bend toward the pole (two_bone chooses its side)
local function bent(P)
  local used = method_run(P)
  if P.pole and not (P.settings.method == "two_bone" and P.count == 2 and
                     P.world_limits == 0) then
    pose.toward_pole(P)
  end
  return used
end

-- How many times the others solve again for a last bone whose limit
-- forbade the direction asked for.
local ORIENT_ROUNDS = N.ORIENT_ROUNDS

-- The last bone along (dir_c, dir_s) (chain space), the others solving
-- for the joint that puts the tip on the target.
local function oriented(P, dir_c, dir_s)
  local rc, rs = P.rc, P.rs
  local ch = P.chain
  local n, used, budget = P.count, 0, P.iterations
  local length = ch.length[n]
  local target_x, target_y, reach = P.target_x, P.target_y, P.reach
  local round = 1
  while true do
    local parent_c, parent_s = P.base_c, P.base_s
    if n > 1 then
      P.count = n - 1
      P.reach = reach - length
      P.target_x = target_x - length * dir_c
      P.target_y = target_y - length * dir_s
      P.iterations = budget - used
      P.fresh = false
      used = used + bent(P)
      P.count, P.reach, P.target_x, P.target_y = n, reach, target_x, target_y
      parent_c, parent_s = pose.world(P, n - 1)
    end
    rc[n], rs[n] = parent_c * dir_c + parent_s * dir_s, parent_c * dir_s - parent_s * dir_c
    local clamped = clamp(P, n)
    P.limited = P.limited or clamped
    P.fresh = false
    if not clamped or n == 1 or used >= budget or round == ORIENT_ROUNDS then
      if used > 0 then return used end
      return 1
    end
    local c, s = rc[n], rs[n]
    dir_c, dir_s = parent_c * c - parent_s * s, parent_c * s + parent_s * c
    round = round + 1
  end
end

-- One bone stretched or compressed toward the target along its direction.
local function one_bone_scale(P)
  local ch, settings = P.chain, P.settings
  local c, s = P.rc[1], P.rs[1]
  local bc, bs = P.base_c, P.base_s
  local wc, ws = bc * c - bs * s, bc * s + bs * c
  local along = (P.target_x - ch.base_x) * wc + (P.target_y - ch.base_y) * ws
  local scale = along / ch.length[1]
  if scale ~= scale then return end
  -- compared, as the C core compares them (not fmin and fmax: 0 and -0)
  if not (scale < settings.stretch) then scale = settings.stretch end
  if scale > settings.compress then P.scale = scale else P.scale = settings.compress end
  if P.scale ~= 1.0 then P.fresh = false end
end

-- An aimed run (ik2d.pure.aim): the method and the pole on the chain
-- whose last bone ends at the point of the ray that goes onto the target,
-- with the settings that keep lengths (settings.aimed).
local function aimed(P, settings)
  P.settings = settings.aimed
  local used = aim.run(P, settings, bent)
  P.settings = settings
  return used
end

-- A tip angle of weight below 1: the last bone's direction in a free
-- solve turned toward (dir_c, dir_s) by the weight.  The free solve starts
-- from the pose, not the warm start (which the last blend turned
-- already).  The oriented solve starts from the warm start when that
-- reaches the target, else from the free solution (from a start short of
-- the target the other bones could settle on another way to reach) (the
-- warm start kept in P.warm_c, warm_s).  Returns the direction.
local function tip_blended(P, settings, dir_c, dir_s)
  local rc, rs, warm_c, warm_s = P.rc, P.rs, P.warm_c, P.warm_s
  local chain_pose = P.chain.pose
  pose.save(P, warm_c, warm_s)
  pose.forward(P)
  local warm_reaches = pose.tip_distance_sq(P) <= P.tolerance_sq
  for i = 1, P.count do
    local a = chain_pose[i]
    rc[i], rs[i] = rot(a)
    clamp(P, i)
  end
  -- the free solve without the pole, which bends the bones the oriented
  -- solve leaves free, not the last
  local pole = P.pole
  P.fresh, P.pole = false, false
  method_run(P)
  local fc, fs = pose.world(P, P.count)
  if warm_reaches then pose.load(P, warm_c, warm_s) end
  P.pole = pole
  P.fresh, P.limited = false, false
  local turn = atan2(fc * dir_s - fs * dir_c, fc * dir_c + fs * dir_s)
  turn = turn * settings.tip_weight
  local tc, ts = rot(turn)
  P.iterations = settings.iterations
  return fc * tc - fs * ts, fc * ts + fs * tc
end

-- A run with a tip angle: the last bone along it (blended: toward it),
-- the others solving for the joint that puts the tip on the target.
local function tipped(P, settings)
  -- the tip angle in chain space: mirrored when flipped
  local angle = settings.tip_angle
  if P.chain.flip then angle = PI - settings.tip_angle end
  local dir_c, dir_s = rot(angle)
  if settings.tip_weight < 1.0 then dir_c, dir_s = tip_blended(P, settings, dir_c, dir_s) end
  return oriented(P, dir_c, dir_s)
end

-- The whole run: the method, a tip angle and a pole when set, and for
-- one bone its scale; or an aimed run.
local function run(P)
  local settings = P.settings
  local used
  if settings.aim then return aimed(P, settings) end
  -- weight 0: the free solve itself, as with no tip angle
  if not settings.tip or settings.tip_weight == 0.0 then
    used = bent(P)
  else
    used = tipped(P, settings)
  end
  -- follow reaches every target by moving the base, never the length
  -- (finish_run places it, on the rotations it keeps)
  if settings.method ~= "follow" and P.count == 1 and
     (settings.stretch > 1.0 or settings.compress < 1.0) then
    one_bone_scale(P)
  end
  return used
end

local get_kernel, KERNEL_BONES = kernel.get, kernel.MAX_BONES
local LOOPS, get_loop = kernel.LOOPS, kernel.loop

--- The distance of the chain's tip from its point target (the target
-- set, or read from a bone by the skeleton layer; else the tip), and
-- whether it is within the tolerance, into sv (ik2d__solver_measure);
-- returns reached.
function M.measure(sv)
  local ch = sv.chain
  local n, joints = ch.count, ch.joints
  local target_x, target_y = sv.target_x, sv.target_y
  if not sv.has_target then target_x, target_y = joints[2 * n + 1], joints[2 * n + 2] end
  local settings = sv.settings
  if settings.aim then
    local distance = aim.chain_distance(ch, settings, target_x, target_y)
    local reached = distance <= settings.tolerance
    sv.distance, sv.reached = distance, reached
    return reached
  end
  local dx, dy = target_x - joints[2 * n + 1], target_y - joints[2 * n + 2]
  -- hypot only where the squares overflow or underflow
  local squared = dx * dx + dy * dy
  local distance
  if squared < 1e300 and squared > 1e-300 then distance = sqrt(squared) else distance = hypot(dx, dy) end
  sv.distance = distance
  local reached = distance <= sv.settings.tolerance
  sv.reached = reached
  return reached
end

-- Weight 0: the pose exactly, and no solving work.
local function keep_pose(sv, ch)
  sv.limited = false
  local angle, chain_pose = ch.angle, ch.pose
  for i = 1, ch.count do angle[i] = chain_pose[i] end
  ch.scale = 1.0
  update_joints(ch)
end

-- The chain's solve on the general path (or, plain CCD without the exact
-- step on a chain of no skeleton, the kernels unless tried: M.solve tried
-- sv.kernel already), its result written (ik2d__solver_solve_chain), unmeasured.
local function solve_chain(sv, tried, P)
  local ch, settings = sv.chain, sv.settings
  local weight, used = settings.weight, nil
  if not (weight > 0.0) then
    keep_pose(sv, ch)
    sv.iterations = 0
    return
  end
  local n = ch.count
  local plain = settings.method == "ccd" and not settings.tip and not settings.pole and
    not settings.aim and not (n == 1 and (settings.stretch > 1.0 or settings.compress < 1.0))
  -- plain CCD without the exact step, the most common solve: the kernel
  -- made for n bones (nil: it leaves this solve to the path below)
  if plain and not settings.exact and not ch.link and not tried then
    local sweep = settings.sweep
    if LOOPS then
      -- under LuaJIT: loops over arrays (false: a limit, the path below)
      used = get_loop(sweep)(sv, ch, settings, weight, P) or nil
    elseif n <= KERNEL_BONES then
      used = get_kernel(n, sweep, false)(sv, ch, settings, weight, P)
      if used == false then
        used = get_kernel(n, sweep, true)(sv, ch, settings, weight, P)
      end
    end
  end
  if not used then
    prepare(sv, P)
    if plain then
      -- plain CCD (what the C core's batches run in lockstep): no tip
      -- angle, pole or one-bone scale
      used = ccd.run(P)
      if settings.exact then used = ccd_fallback(P, used) end
    else
      used = run(P)
    end
    finish_run(sv, P, weight)
  end
  sv.iterations = used
end

--- Solves and writes the chain's result toward its point target and
-- measures it; returns reached, distance, iterations, limited (kept in sv
-- too).  The common solve first, in few steps (a frame runs it for every
-- chain): the solver's kernel, which measures the result itself.
function M.solve(sv, P)
  local solve_kernel = sv.kernel
  if solve_kernel then
    local ch, settings = sv.chain, sv.settings
    local weight = settings.weight
    local used, reached, distance, limited = solve_kernel(sv, ch, settings, weight, P)
    if used == false and not LOOPS then
      -- a limit: the unrolled kernel made for limits
      used, reached, distance, limited =
        get_kernel(ch.count, settings.sweep, true)(sv, ch, settings, weight, P)
    end
    if used then return reached, distance, used, limited end
    solve_chain(sv, true, P)
  else
    solve_chain(sv, false, P)
  end
  local reached = M.measure(sv)
  return reached, sv.distance, sv.iterations, sv.limited
end

--- The chain's solve toward its point target, unmeasured: the caller
-- measures it where the target is once it has written the result back (a
-- skeleton chain's: ik2d.pure.skeleton_solve).
function M.solve_chain(sv, P)
  solve_chain(sv, false, P)
end

return M
