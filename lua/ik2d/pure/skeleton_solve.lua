--- ik2d.pure.skeleton_solve: every solve that knows skeletons
-- (src/ik2d_skeleton_solve.c), term for term: one solver's (its target on
-- a bone read, its chain solved, a skeleton chain's result written back),
-- a whole skeleton in one call, and effectors that share bones solved
-- together: the plan (units of solvers in order), the coupled solve (damped
-- least squares over the group's bones, each effector's private part
-- solved alone with its own solver's method, the starts tried in turn
-- (warm, warm with the private parts first, cold; or warm and scattered
-- when the group has stalled), the best pose kept) and the blend into the
-- skeleton.  The C file says why each step
-- is what it is.
--
-- Bones are 1-based (0: the base), solvers numbered in the skeleton's
-- list from 1; rotations are pairs of arrays (c, s).  Each skeleton owns
-- the working state of its solves (sk.work, made at its first: the plan,
-- the pose its chains' solves work on and, from its first coupled solve,
-- the coupled solve's arrays), as each C solve has its own on the stack: no
-- state is shared between skeletons, and a steady frame loop allocates
-- nothing.
local N = require "ik2d.pure.numbers"
local m = require "ik2d.pure.math"
local limits = require "ik2d.pure.constraint"
local skeleton = require "ik2d.pure.skeleton"
local bone_model = require "ik2d.pure.bone"
local solvers = require "ik2d.pure.solver"
local pose = require "ik2d.pure.pose"
local bone_ik = require "ik2d.pure.bone_ik"
local transform_constraint = require "ik2d.pure.transform_constraint"

local sqrt, rot, abs, floor, min = math.sqrt, m.rot, math.abs, math.floor, math.min
local atan2, hypot, wrap = m.atan2, m.hypot, m.wrap
local clamp_rot = limits.clamp_rot

local M = {}

-- An attempt has stalled after this many iterations that do not lower
-- its objective by a tenth.
local COUPLED_STALL = N.COUPLED_STALL

-- A solver's count of coupled solves in a row that ended unreached goes
-- round from here to 1 (it seeds the scattered start: another each
-- frame, never the 0 of a group that reached).
local COUPLED_STALLS_MAX = N.COUPLED_STALLS_MAX

-- Park and Miller's minimal standard generator, for the scattered start:
-- its products stay below 2^53, exact in doubles (LuaJIT) as in integers.
local SCATTER_MODULUS, SCATTER_SEED, SCATTER_STEP = N.SCATTER_MODULUS, N.SCATTER_SEED,
  N.SCATTER_STEP

-- a % SCATTER_MODULUS for 0 <= a < 2^53, exact on both runtimes
local function scatter_mod(a)
  return a - floor(a / SCATTER_MODULUS) * SCATTER_MODULUS
end

local function finite(x) return x - x == 0 end

-- ------------------------------------------------------------------
-- one solver
-- ------------------------------------------------------------------

-- A target on a bone read where the bone is now, into target_x, target_y
-- (where the chain's solve reads its target).
local point = skeleton.point
local function read_target(sv)
  sv.target_x, sv.target_y = point(sv.target_skeleton, sv.target_bone, sv.target_dx,
                                   sv.target_dy)
  sv.has_target = true
end

--- the target; until the first set_target, the chain's result tip; on a
-- bone, the bone's point now
function M.target(sv)
  if sv.target_skeleton then read_target(sv) end
  if sv.has_target then return sv.target_x, sv.target_y end
  local ch = sv.chain
  if ch.link and ch.link.skeleton then skeleton.ready(ch.link.skeleton) end
  local joints, n = ch.joints, ch.count
  return joints[2 * n + 1], joints[2 * n + 2]
end

--- back to a world target: where the bone's point is now
function M.clear_target_bone(sv)
  if not sv.target_skeleton then return end
  read_target(sv)
  sv.target_skeleton = false
  -- the point beyond the doubles (its skeleton is): the chain's tip, as
  -- before a first target (ik2d_solver_clear_target_bone)
  local x, y = sv.target_x, sv.target_y
  if not (x - x == 0.0 and y - y == 0.0) then
    sv.has_target = false
  end
end

-- The outcome measured where the target is now; returns reached.
local function measure(sv)
  if sv.target_skeleton then read_target(sv) end
  return solvers.measure(sv)
end

-- A skeleton chain's solver that scales its bones (stretch or compress)
-- needs the general bone model.
local function scales_bones(sv)
  local settings = sv.settings
  return settings.stretch > 1.0 or settings.compress < 1.0
end

-- Does a bone IK solve a general skeleton's solver, as Spine's IK
-- constraint does?  A chain of one bone, or of two with two_bone, with no
-- pole, tip angle, aim or limits (the chain solve takes those).
local function bone_ik_takes(sv)
  local ch, settings = sv.chain, sv.settings
  local n = ch.count
  if n > 2 or settings.pole or settings.tip or settings.aim then return false end
  if n == 2 and settings.method ~= "two_bone" then return false end
  local constraint = ch.constraint
  for k = 1, n do
    local c = constraint[k]
    if c and not c.full then return false end
  end
  return true
end

-- The skeleton's bone IK state, made at its first: the def a solver's
-- settings make (bone_ik_def_of) and two local transform records.
local function bone_ik_state(sk)
  local state = sk.bone_ik
  if not state then
    state = { def = {}, a = skeleton.new_local(), b = skeleton.new_local(), start = {} }
    sk.bone_ik = state
  end
  return state
end

-- A solver's settings as a bone IK takes them.
local function bone_ik_def_of(sv, def)
  local settings = sv.settings
  def.mix, def.softness = settings.weight, settings.softness
  def.smooth = settings.softness_curve == "smooth"
  def.bend, def.stretch, def.compress = settings.bend, settings.stretch, settings.compress
  def.uniform = settings.uniform
  return def
end

-- every part of a local transform record finite
local function local_finite(l)
  return l.x - l.x == 0 and l.y - l.y == 0 and l.angle - l.angle == 0 and
    l.scale_x - l.scale_x == 0 and l.scale_y - l.scale_y == 0 and l.shear_x - l.shear_x == 0 and
    l.shear_y - l.shear_y == 0
end

-- A bone IK on the solver's bones, toward (x, y) (world, as drawn); the
-- bones below follow, and the chains ending there.  A target beyond the
-- doubles in the skeleton's space (a base near them, mirrored), or a
-- solution that is not finite, leaves the bones as they were.
local function bone_ik_solve(sv, sk, x, y)
  local state = bone_ik_state(sk)
  local bones = sv.chain.link.bones
  local def = bone_ik_def_of(sv, state.def)
  local first = bones[1]
  local p = sk.parent[first]
  if p > 0 then skeleton.bone_ready(sk, p) end
  local a = skeleton.local_of(sk, first, state.a)
  x, y = skeleton.unplace(sk, x, y)
  if not (x - x == 0 and y - y == 0) then return end
  local sx, sy = sk.scale_x, sk.scale_y
  local wa, wb, wc, wd, wx, wy
  if p > 0 then wa, wb, wc, wd, wx, wy = sk.wa[p], sk.wb[p], sk.wc[p], sk.wd[p], sk.wx[p], sk.wy[p] end
  local second, b = false, state.b
  if sv.chain.count == 1 then
    bone_ik.one(wa, wb, wc, wd, wx, wy, sk.inherit[first], sx, sy, a, sk.length[first], x, y, def)
  else
    skeleton.local_of(sk, bones[2], b)
    if bone_ik.two(wa, wb, wc, wd, wx, wy, sk.inherit[first], sk.inherit[bones[2]], sx, sy, a, b,
                   sk.length[first], sk.length[bones[2]], x, y, def) then
      second = bones[2]
    end
  end
  if not local_finite(a) or (second and not local_finite(b)) then return end
  if second then skeleton.set_local(sk, second, b) end
  skeleton.set_local(sk, first, a)
  skeleton.moved(sk, first)
end

-- Does every bone of sv's chain map its space conformally (a rotation and
-- a uniform scale, maybe a reflection)?  Then a chain turn is the bone's
-- turn as drawn; a non-uniform scale or a shear bends it.
local function chain_conformal(sv, sk)
  local bones = sv.chain.link.bones
  local wa, wb, wc, wd = sk.wa, sk.wb, sk.wc, sk.wd
  for k = 1, sv.chain.count do
    local b = bones[k]
    local a, bb, c, d = wa[b], wb[b], wc[b], wd[b]
    local x2, y2 = a * a + c * c, bb * bb + d * d
    local tolerance = N.CONFORMAL_TOLERANCE * (x2 + y2)
    if abs(a * bb + c * d) > tolerance or abs(x2 - y2) > tolerance then return false end
  end
  return true
end

-- Can sv's chain be solved bone by bone in each bone's parent's space?
-- Every bone inheriting all, free of limits, not scaled by the solve, and
-- no pole, tip angle or aim (src/ik2d_skeleton_solve.c's bone_ccd_takes).
local function bone_ccd_takes(sv, sk)
  local settings = sv.settings
  if settings.pole or settings.tip or settings.aim or scales_bones(sv) then return false end
  local bones, constraint = sv.chain.link.bones, sk.constraint
  for k = 1, sv.chain.count do
    local b = bones[k]
    if sk.inherit[b] ~= bone_model.ALL then return false end
    local c = constraint[b]
    if c and not c.full then return false end
  end
  return true
end

-- The turn of bone b that puts the tip (tx, ty) on the ray from b's origin
-- to (gx, gy), in the skeleton's space: the angle between P^-1 (t - o) and
-- P^-1 (g - o), P the parent's linear map (the skeleton's scale for a
-- root), its adjugate standing for its inverse (bone_ccd_turn derives it).
local function bone_ccd_turn(sk, b, tx, ty, gx, gy)
  local p = sk.parent[b]
  local pa, pb, pc, pd = sk.scale_x, 0.0, 0.0, sk.scale_y
  if p > 0 then pa, pb, pc, pd = sk.wa[p], sk.wb[p], sk.wc[p], sk.wd[p] end
  local ox, oy = sk.wx[b], sk.wy[b]
  local ux = pd * (tx - ox) - pb * (ty - oy)
  local uy = pa * (ty - oy) - pc * (tx - ox)
  local vx = pd * (gx - ox) - pb * (gy - oy)
  local vy = pa * (gy - oy) - pc * (gx - ox)
  return atan2(ux * vy - uy * vx, ux * vx + uy * vy)
end

-- the chain's tip in the skeleton's space: its last bone's length along
-- its x axis
local function bone_ccd_tip(sk, last)
  local length = sk.length[last]
  return sk.wx[last] + length * sk.wa[last], sk.wy[last] + length * sk.wc[last]
end

-- CCD on the bone model (bone_ccd_solve): sweeps from the tip's bone to
-- the first, each turned in its parent's space to put the tip on the
-- target's ray; at most the iterations, until within the tolerance; the
-- weight blends from where the bones were.
local function bone_ccd_solve(sv, sk, x, y)
  local link, settings, n = sv.chain.link, sv.settings, sv.chain.count
  local bones, angle, last = link.bones, sk.angle, link.to
  x, y = skeleton.unplace(sk, x, y)
  if not (x - x == 0 and y - y == 0) then return end
  local start = bone_ik_state(sk).start
  for k = 1, n do start[k] = angle[bones[k]] end
  local sweep = 0
  while sweep < settings.iterations do
    local tx, ty = bone_ccd_tip(sk, last)
    if not (hypot(x - tx, y - ty) > settings.tolerance) then break end
    for k = n, 1, -1 do
      local b = bones[k]
      local turn = bone_ccd_turn(sk, b, tx, ty, x, y)
      if turn - turn == 0 then
        angle[b] = wrap(angle[b] + turn)
        skeleton.place_below(sk, b)
        tx, ty = bone_ccd_tip(sk, last)
      end
    end
    sweep = sweep + 1
  end
  sv.iterations, sv.limited = sweep, false
  local weight = settings.weight
  if weight ~= 1.0 then
    for k = 1, n do
      local b = bones[k]
      angle[b] = start[k] + weight * wrap(angle[b] - start[k])
    end
  end
  skeleton.moved(sk, bones[1])
end

-- A chain on bones that do not map conformally, solved as drawn, leaves
-- its bones short of where its turns said: the chain is taken again from
-- where they ended and solved again, while that brings the tip nearer (at
-- full weight: a blend would compound).  Returns reached.
local function solve_again(sv, sk, P)
  if sv.settings.weight ~= 1.0 or chain_conformal(sv, sk) then return false end
  local reached, pass = false, 1
  while pass < N.GENERAL_PASSES and not reached do
    local before = sv.distance
    if sv.target_skeleton then read_target(sv) end
    solvers.solve_chain(sv, P)
    measure(sv)
    skeleton.push(sv.chain, true)
    reached = measure(sv)
    if not (sv.distance < before) then return reached end
    pass = pass + 1
  end
  return reached
end

--- Solves sv and writes its chain's result (ik2d_solver_solve): a
-- skeleton chain's into its skeleton (its bones, the bones below, the
-- other chains), as without a base set later; returns reached, distance,
-- iterations, limited.  On pose P.  A general skeleton's solver that a
-- bone IK takes is solved by it (its iterations and limited left as they
-- were, as the C core leaves them).
function M.solve_one(sv, P)
  local ch = sv.chain
  local link = ch.link
  if not link then
    if sv.target_skeleton then read_target(sv) end
    return solvers.solve(sv, P)
  end
  local sk = link.skeleton
  if sk then
    skeleton.ready(sk)
    if not sk.general and scales_bones(sv) then skeleton.make_general(sk) end
  end
  if sv.target_skeleton then read_target(sv) end
  -- the target, as the C core's solver_target reads it: until the first
  -- set_target, the chain's result tip
  local x, y = sv.target_x, sv.target_y
  if not sv.has_target then
    local joints, n = ch.joints, ch.count
    x, y = joints[2 * n + 1], joints[2 * n + 2]
  end
  if sk and sk.general and bone_ik_takes(sv) then
    -- (the weight 0 leaves the bones as they are, as a chain's solve does)
    if sv.settings.weight > 0.0 then bone_ik_solve(sv, sk, x, y) end
    return measure(sv), sv.distance, sv.iterations, sv.limited
  end
  if sk and sk.general and bone_ccd_takes(sv, sk) then
    skeleton.bone_ready(sk, link.to)
    if not chain_conformal(sv, sk) then
      bone_ccd_solve(sv, sk, x, y)
      return measure(sv), sv.distance, sv.iterations, sv.limited
    end
  end
  solvers.solve_chain(sv, P)
  -- (measured before the push, which may move the chain's angles by an
  -- ulp, where an aim's distance reads them)
  local reached = measure(sv)
  skeleton.push(ch, true)
  -- a target on a bone of its own skeleton may have moved with it, and a
  -- general skeleton places the bones by its model, not the chain's
  -- joints: the result describes where the tip (and that bone) ended
  if sk and (sv.target_skeleton == sk or sk.general) then reached = measure(sv) end
  if not reached and sk and sk.general and not sk.deferring then reached = solve_again(sv, sk, P) end
  return reached, sv.distance, sv.iterations, sv.limited
end

-- ------------------------------------------------------------------
-- paths
-- ------------------------------------------------------------------

-- Is bone x on the path of a chain from..to?
local function on_path(sk, from, to, x)
  if x < from or x > to then return false end
  local parent, y = sk.parent, to
  while y > x do y = parent[y] end
  return y == x
end

local function shares(sk, a, b)
  return on_path(sk, a.from, a.to, b.from) or on_path(sk, b.from, b.to, a.from)
end

-- The deepest common ancestor-or-self of x and y, 0 for none.
local function common_ancestor(sk, x, y)
  local parent = sk.parent
  while x ~= y and x > 0 and y > 0 do
    if x > y then x = parent[x] else y = parent[y] end
  end
  if x == y then return x end
  return 0
end

-- Does chain b hang below a bone of chain a (sharing none)?
local function below(sk, a, b)
  local p = sk.parent[b.from]
  if p <= 0 or shares(sk, a, b) then return false end
  return common_ancestor(sk, p, a.to) >= a.from
end

-- Does the solve of mover's chain move the bone target's target is on
-- (a bone of this skeleton at or below the chain's first bone)?
local function moves_target(sk, mover, target)
  if target.target_skeleton ~= sk then return false end
  local from, parent, b = mover.chain.link.from, sk.parent, target.target_bone
  -- parents come first: up from the bone until at or above from
  while b > from do b = parent[b] end
  return b == from
end

-- ------------------------------------------------------------------
-- the plan: units in order
-- ------------------------------------------------------------------

-- a skeleton's plan (its arrays grow to its count of solvers)
local function new_plan()
  return {
    solvers = 0, units = 0,
    solver = {},      -- on the skeleton, in the order made
    unit_of = {},     -- union-find, then the unit's index
    unit_first = {},  -- the unit's first solver
    unit_group = {},  -- solvers with together
    unit_alone = {},  -- one solver, solved alone (M.solve)
    order = {},       -- units in solving order
    before = {},      -- before[u][v]: unit u runs before unit v
    -- the working arrays of plan_units, plan_reaches and plan_make
    roots = {}, number = {}, seen = {}, stack = {}, done = {},
    -- what the last plan made was made from (plan_current), and whether
    -- it holds: per solver, the solver (weak: a released one may go),
    -- whether it solves together, and its target on this skeleton's bone
    -- (0: elsewhere)
    made = false,
    made_solver = setmetatable({}, { __mode = "v" }), made_together = {}, made_bone = {},
  }
end

local function link_of(p, i) return p.solver[i].chain.link end

-- Is solver i solved together with those it shares bones with?  An aimed
-- one is not: the coupled step moves tips onto targets, and an aim puts a
-- point of its ray there, which its own solve does (as together = false).
local function together(p, i)
  local settings = p.solver[i].settings
  return settings.together and not settings.aim
end

local function find(p, i)
  local unit_of = p.unit_of
  while unit_of[i] ~= i do
    local up = unit_of[unit_of[i]]
    unit_of[i] = up
    i = up
  end
  return i
end

-- Must solver i's unit run before solver j's unit (they differ)?
local function precedes(sk, p, i, j)
  local a, b = link_of(p, i), link_of(p, j)
  local u, v = p.unit_of[i], p.unit_of[j]
  -- j's target is where i's solve puts it
  if moves_target(sk, p.solver[i], p.solver[j]) then return true end
  if below(sk, a, b) then return true end
  if not shares(sk, a, b) then return false end
  -- sharing across units: a together = false solver wins, after the
  -- group; two of them in the order made
  if p.unit_group[u] ~= p.unit_group[v] then return p.unit_group[u] end
  return i < j
end

-- Does unit u run before unit v, through other units maybe?
local function plan_reaches(p, u, v)
  local before, units, seen, stack = p.before, p.units, p.seen, p.stack
  for x = 1, units do seen[x] = false end
  seen[u] = true
  stack[1] = u
  local top = 1
  while top > 0 do
    local x = stack[top]
    top = top - 1
    if x == v then return true end
    local row = before[x]
    for y = 1, units do
      if not seen[y] and row[y] then
        seen[y] = true
        top = top + 1
        stack[top] = y
      end
    end
  end
  return false
end

-- A cycle through a target: the first solver j (in the order made; only
-- it when only is given) whose target is on a bone that the first solver
-- i of another unit moves, while j's unit must run before i's.  Returns
-- j and i, or nil.
local function plan_cycle(sk, p, only)
  local solver, unit_of = p.solver, p.unit_of
  for j = 1, p.solvers do
    local sj = solver[j]
    if sj.target_skeleton == sk and (not only or sj == only) then
      for i = 1, p.solvers do
        if unit_of[i] ~= unit_of[j] and moves_target(sk, solver[i], sj) and
           plan_reaches(p, unit_of[j], unit_of[i]) then
          return j, i
        end
      end
    end
  end
  return nil
end

-- The units and which runs before which.
local function plan_units(sk, p)
  local list, solver, unit_of, roots, number = sk.solvers, p.solver, p.unit_of, p.roots,
    p.number
  local n = #list
  for i = 1, n do solver[i] = list[i] end
  p.solvers = n
  -- groups: together solvers sharing bones
  for i = 1, n do unit_of[i] = i end
  for i = 1, n do
    if together(p, i) then
      for j = 1, i - 1 do
        if together(p, j) and shares(sk, link_of(p, i), link_of(p, j)) then
          -- the root is the group's earliest solver
          local a, b = find(p, i), find(p, j)
          if a > b then unit_of[a] = b else unit_of[b] = a end
        end
      end
    end
  end
  -- units numbered in the order of their first solver
  for i = 1, n do roots[i] = find(p, i) end
  local units = 0
  for i = 1, n do
    if roots[i] == i then
      units = units + 1
      p.unit_first[units] = i
      p.unit_group[units] = together(p, i)
      number[i] = units
    end
    unit_of[i] = number[roots[i]]
  end
  p.units = units
  local before = p.before
  for u = 1, units do
    local row = before[u]
    if not row then
      row = {}
      before[u] = row
    end
    for v = 1, units do row[v] = false end
  end
  for i = 1, n do
    for j = 1, n do
      if unit_of[i] ~= unit_of[j] and precedes(sk, p, i, j) then
        before[unit_of[i]][unit_of[j]] = true
      end
    end
  end
end

-- A solver's target bone on skeleton sk, 0 for a target elsewhere.
local function own_bone(sk, sv)
  if sv.target_skeleton == sk then return sv.target_bone end
  return 0
end

-- Does the last plan made hold still?  A plan is made from the list of
-- solvers, whether each solves together and where its target is (the
-- chains' paths and the bones' parents never change): with these the
-- same, the plan would be made again the same, so a frame loop makes it
-- once.
local function plan_current(sk, p)
  if not p.made then return false end
  local list = sk.solvers
  local n = #list
  if n ~= p.solvers then return false end
  local made_solver, made_together, made_bone = p.made_solver, p.made_together, p.made_bone
  for i = 1, n do
    local sv = list[i]
    local settings = sv.settings
    if made_solver[i] ~= sv or made_bone[i] ~= own_bone(sk, sv) or
       made_together[i] ~= (settings.together and not settings.aim) then
      return false
    end
  end
  -- the plan holds no solver past a solve: back in
  local solver = p.solver
  for i = 1, n do solver[i] = list[i] end
  return true
end

-- The plan's inputs, as plan_current compares them.
local function plan_keep(sk, p)
  local made_solver, made_together, made_bone = p.made_solver, p.made_together, p.made_bone
  for i = 1, p.solvers do
    local sv = p.solver[i]
    local settings = sv.settings
    made_solver[i], made_bone[i] = sv, own_bone(sk, sv)
    made_together[i] = settings.together and not settings.aim
  end
  p.made = true
end

-- The plan; false, for a cycle through a target (plan_cycle), when there
-- is none.
local function plan_make(sk, p)
  if plan_current(sk, p) then return true end
  p.made = false
  plan_units(sk, p)
  local units, before, done = p.units, p.before, p.done
  local broken = false
  -- Kahn: the first unit (in the order made) whose predecessors have all
  -- run; a cycle is broken at its first unit, unless it runs through a
  -- target (refused)
  for i = 1, units do done[i] = false end
  for k = 1, units do
    local pick = 0
    for i = 1, units do
      local ready = not done[i]
      for j = 1, units do
        if not ready then break end
        ready = done[j] or j == i or not before[j][i]
      end
      if ready then
        pick = i
        break
      end
    end
    if pick == 0 and not broken then
      if plan_cycle(sk, p, nil) then return false end
      broken = true
    end
    if pick == 0 then
      for i = 1, units do
        if not done[i] then
          pick = i
          break
        end
      end
    end
    done[pick] = true
    p.order[k] = pick
  end
  -- a unit of one solver is solved alone, unless its solve moves its own
  -- target: then the coupled solve, which moves the target with it
  local solver, unit_of, unit_alone = p.solver, p.unit_of, p.unit_alone
  for u = 1, units do
    local members = 0
    for i = 1, p.solvers do
      if unit_of[i] == u then members = members + 1 end
    end
    local first = solver[p.unit_first[u]]
    unit_alone[u] = members == 1 and not moves_target(sk, first, first)
  end
  plan_keep(sk, p)
  return true
end

-- ------------------------------------------------------------------
-- the coupled solve's state
-- ------------------------------------------------------------------

local function array(n, v)
  local t = {}
  for i = 1, n do t[i] = v end
  return t
end

local DLS_ROWS, DLS_COLUMNS, DLS_TRIES = N.DLS_ROWS, N.DLS_COLUMNS, N.DLS_TRIES
local DLS_MAX_TURN, DLS_LAMBDA = N.DLS_MAX_TURN, N.DLS_LAMBDA

-- The starts a coupled solve tries, and how many at most.
local START_WARM, START_WARM_PRIVATES, START_COLD, START_SCATTERED = 1, 2, 3, 4
local COUPLED_STARTS = 8

-- A chain over a private part's bones (at most part: a private part is a
-- tail of a chain on the skeleton): its arrays copied from the chain's,
-- its own pose (the result too: one array, as the C core's view shares
-- one) and joints; and a solver for it.
local function private_of(w, part)
  local view = {
    count = part, flip = false, reach = 0.0, scale = 1.0, uniform = false,
    base_x = 0.0, base_y = 0.0, base_angle = 0.0, base_c = 1.0, base_s = 0.0,
    length = array(part, 0.0), rest = array(part, 0.0),
    rest_c = array(part, 1.0), rest_s = array(part, 0.0),
    constraint = array(part, false), joints = array(2 * part + 2, 0.0),
  }
  view.pose = array(part, 0.0)
  view.angle = view.pose
  w.view = view
  w.private = solvers.new(view, w.private_def)
end

-- A skeleton's coupled state (the C core's struct coupled, and the arrays of
-- its dense step and private solves), for its bones and chains of up to
-- part bones.  Its effectors and the dense step's rows grow with the
-- groups it solves (coupled_room).
local function new_coupled(sk, part)
  local n = sk.count
  local w = {
    sk = sk, count = 0, first = 0,
    warm = false,   -- the start is not the cold one
    stalls = 0,     -- coupled solves in a row that ended unreached
    moving = 0,     -- effectors whose targets move
    effectors = {}, -- records made as needed, filled per solve
    within = array(n, 0),     -- in the group: 1, or 2 when shared
    -- not in the group, between a group bone and a moving target's bone:
    -- its working frame is kept too (its local rotation, its result, in
    -- rc, rs)
    carried = array(n, false),
    moves = array(n, 0),      -- effectors a bone moves, tip or target
    blend = array(n, 0.0),    -- its largest weight
    -- the working pose (local rotations), the best, trial and start poses
    rc = array(n, 1.0), rs = array(n, 0.0),
    best_c = array(n, 1.0), best_s = array(n, 0.0),
    trial_c = array(n, 1.0), trial_s = array(n, 0.0),
    start_c = array(n, 1.0), start_s = array(n, 0.0),
    -- the start as after forget(): the pose
    cold_c = array(n, 1.0), cold_s = array(n, 0.0),
    -- its frames, no trig
    fx = array(n, 0.0), fy = array(n, 0.0), fc = array(n, 1.0), fs = array(n, 0.0),
    ftx = array(n, 0.0), fty = array(n, 0.0),
    starts = array(COUPLED_STARTS, 0),
    -- the bones coupled_finish moved
    mask = array(n, false),
    -- the dense step: rows (two an effector) as coupled_room makes them,
    -- a column a bone
    rows = 0, jacobian = {}, a = {}, err = {}, y = {},
    step = array(min(n, DLS_COLUMNS), 0.0), column_of = array(n, 0),
    bone_of = array(min(n, DLS_COLUMNS), 0),
    view = false, private = false, private_def = solvers.default_def(),
  }
  private_of(w, part)
  return w
end

-- Room in w for a group of count effectors: their records and the dense
-- step's rows (made once for the most the skeleton has had).
local function coupled_room(w, count)
  local effectors = w.effectors
  for k = #effectors + 1, count do
    effectors[k] = {
      solver = false, chain = false, link = false, target_x = 0.0, target_y = 0.0,
      -- 0; or the target moves with the group: the point (dx, dy) of this
      -- bone's working frame
      target_bone = 0, dx = 0.0, dy = 0.0,
      weight = 0.0, pull = 0.0, tolerance = 0.0, private_first = 0, ring_low = 0.0,
      ring_high = 0.0, distance_sq = 0.0,
    }
  end
  local rows = min(2 * count, DLS_ROWS)
  if rows > w.rows then
    local jacobian, a, columns = w.jacobian, w.a, #w.step
    for i = 1, w.rows do
      local ai = a[i]
      for j = w.rows + 1, rows do ai[j] = 0.0 end
    end
    for i = w.rows + 1, rows do
      jacobian[i] = array(columns, 0.0)
      a[i] = array(rows, 0.0)
      w.err[i], w.y[i] = 0.0, 0.0
    end
    w.rows = rows
  end
end

-- The point (dx, dy) of bone b's space in its working frame; the bone's
-- origin where that point is beyond the doubles (ik2d_frame_point).
local function frame_point(w, b, dx, dy)
  local ox, oy, c, s = w.fx[b], w.fy[b], w.fc[b], w.fs[b]
  local x, y = ox + (c * dx - s * dy), oy + (s * dx + c * dy)
  if x - x == 0 and y - y == 0 then return x, y end
  return ox, oy
end

-- Working frames of the group's bones, from their rotations; the bones
-- above the group keep the skeleton's frames.
local function coupled_forward(w)
  local sk = w.sk
  local parent, at_tip, position_only, ox, oy, length = sk.parent, sk.at_tip,
    sk.position_only, sk.ox, sk.oy, sk.length
  local bc, bs = sk.base_c, sk.base_s
  local within, carried, rc, rs = w.within, w.carried, w.rc, w.rs
  local fx, fy, fc, fs, ftx, fty = w.fx, w.fy, w.fc, w.fs, w.ftx, w.fty
  for b = w.first, sk.count do
    if within[b] ~= 0 or carried[b] then
      local p = parent[b]
      local pc, ps, px, py, ptx, pty
      if p <= 0 then
        pc, ps, px, py = bc, bs, sk.base_x, sk.base_y
      elseif within[p] ~= 0 or carried[p] then
        pc, ps, px, py, ptx, pty = fc[p], fs[p], fx[p], fy[p], ftx[p], fty[p]
      else
        pc, ps, px, py, ptx, pty = sk.fc[p], sk.fs[p], sk.fx[p], sk.fy[p], sk.ftx[p], sk.fty[p]
      end
      local x, y
      if at_tip[b] then
        if p > 0 then x, y = ptx, pty else x, y = px, py end
      else
        local oxb, oyb = ox[b], oy[b]
        x = px + (pc * oxb - ps * oyb)
        y = py + (ps * oxb + pc * oyb)
      end
      fx[b], fy[b] = x, y
      if position_only[b] then pc, ps = bc, bs end
      local c, s = rc[b], rs[b]
      c, s = pc * c - ps * s, pc * s + ps * c
      fc[b], fs[b] = c, s
      local l = length[b]
      ftx[b], fty[b] = x + l * c, y + l * s
    end
  end
  -- the targets that move with the group, where it puts them
  if w.moving > 0 then
    local effectors = w.effectors
    for k = 1, w.count do
      local e = effectors[k]
      local tb = e.target_bone
      if tb > 0 then e.target_x, e.target_y = frame_point(w, tb, e.dx, e.dy) end
    end
  end
end

local function effector_distance_sq(w, e)
  local to = e.link.to
  local dx, dy = e.target_x - w.ftx[to], e.target_y - w.fty[to]
  return dx * dx + dy * dy
end

-- The weighted objective, and whether every effector with weight is
-- within its tolerance.
local function coupled_measure(w)
  local sum, reached = 0.0, true
  local effectors = w.effectors
  for k = 1, w.count do
    local e = effectors[k]
    local d = effector_distance_sq(w, e)
    e.distance_sq = d
    if e.weight > 0.0 then
      sum = sum + e.pull * d
      reached = reached and d <= e.tolerance * e.tolerance
    end
  end
  return sum, reached
end

-- Rotation (c, s) of bone b turned into its limits (in the skeleton's
-- angles); returns it.
local function coupled_clamp_rot(w, b, c, s)
  local sk = w.sk
  local limit = sk.constraint[b]
  if limit and not limit.full then
    local rc_, rs_, lc, ls = sk.rest_c[b], sk.rest_s[b], limit.mid_c, limit.mid_s
    local _
    _, c, s = clamp_rot(limit, rc_ * lc - rs_ * ls, rc_ * ls + rs_ * lc, c, s)
  end
  return c, s
end

-- Bone b of the working pose turned into its limits.
local function coupled_clamp(w, b)
  local rc, rs = w.rc, w.rs
  rc[b], rs[b] = coupled_clamp_rot(w, b, rc[b], rs[b])
end

-- Whether bone b of the working pose ends on an edge of its limits, and
-- its angle from the middle of the allowed arc.
local function coupled_on_limit(w, b)
  local sk = w.sk
  local limit = sk.constraint[b]
  if not limit or limit.full then return false, 0.0 end
  local c, s, lc, ls = sk.rest_c[b], sk.rest_s[b], limit.mid_c, limit.mid_s
  local mc, ms = c * lc - s * ls, c * ls + s * lc
  local rc, rs = w.rc[b], w.rs[b]
  local side = atan2(mc * rs - ms * rc, mc * rc + ms * rs)
  return abs(side) >= limit.half - N.ON_LIMIT, side
end

-- For groups too big for the dense step: effector e's pull on the shared
-- bone at (ox, oy), weighted, added to dot and cross.
local function coupled_pull(w, e, ox, oy, dot, cross)
  local to = e.link.to
  local ftx, fty = w.ftx, w.fty
  local px, py = ftx[to], fty[to]
  if e.private_first <= e.chain.count then
    local r = e.link.bones[e.private_first]
    px, py = w.fx[r], w.fy[r]
  end
  local gx, gy = px + (e.target_x - ftx[to]), py + (e.target_y - fty[to])
  local ax, ay, cx, cy = gx - ox, gy - oy, px - ox, py - oy
  return dot + e.pull * (cx * ax + cy * ay), cross + e.pull * (cx * ay - cy * ax)
end

-- Each shared bone, root to tip, turned by weighted least squares.
local function coupled_sweep(w)
  local sk = w.sk
  local within, effectors, rc, rs, fx, fy = w.within, w.effectors, w.rc, w.rs, w.fx, w.fy
  for b = w.first, sk.count do
    if within[b] == 2 then
      local dot, cross = 0.0, 0.0
      for k = 1, w.count do
        local e = effectors[k]
        if e.pull > 0.0 and common_ancestor(sk, b, e.link.to) == b then
          dot, cross = coupled_pull(w, e, fx[b], fy[b], dot, cross)
        end
      end
      local norm = sqrt(dot * dot + cross * cross)
      if not (norm > N.TURN_NORM_MIN and norm < N.TURN_NORM_MAX) then norm = hypot(dot, cross) end
      if norm > 0.0 and finite(norm) then
        local tc, ts = dot / norm, cross / norm
        local c, s = rc[b], rs[b]
        rc[b], rs[b] = c * tc - s * ts, c * ts + s * tc
        coupled_clamp(w, b)
        coupled_forward(w)
        for k = 1, w.count do
          local e = effectors[k]
          e.distance_sq = effector_distance_sq(w, e)
        end
      end
    end
  end
end

local function coupled_save(w, to_c, to_s)
  local within, rc, rs = w.within, w.rc, w.rs
  for b = w.first, w.sk.count do
    if within[b] ~= 0 then to_c[b], to_s[b] = rc[b], rs[b] end
  end
end

local function coupled_load(w, from_c, from_s)
  local within, rc, rs = w.within, w.rc, w.rs
  for b = w.first, w.sk.count do
    if within[b] ~= 0 then rc[b], rs[b] = from_c[b], from_s[b] end
  end
  coupled_forward(w)
end

-- The start of a group that has stalled for w.stalls > 0 frames: every
-- bone of the group at a point of its allowed arc (a free bone: of the
-- circle around its pose) drawn from a fixed sequence seeded by the
-- count (seed), so that each stalled frame tries another basin.
local function coupled_scatter(w, seed)
  local sk = w.sk
  local within, rc, rs = w.within, w.rc, w.rs
  local state = scatter_mod((seed % (SCATTER_MODULUS - 1) + 1) * SCATTER_SEED)
  for b = w.first, sk.count do
    if within[b] ~= 0 then
      local limit = sk.constraint[b]
      state = scatter_mod(state * SCATTER_STEP)
      local v = 2.0 * (state / SCATTER_MODULUS) - 1.0 -- in (-1, 1)
      if limit and not limit.full then
        local c, s, lc, ls = sk.rest_c[b], sk.rest_s[b], limit.mid_c, limit.mid_s
        local mc, ms = c * lc - s * ls, c * ls + s * lc
        local tc, ts = rot(v * limit.half)
        rc[b], rs[b] = mc * tc - ms * ts, mc * ts + ms * tc
      else
        rc[b], rs[b] = rot(sk.pose[b] + m.PI * v)
      end
    end
  end
  coupled_forward(w)
end

-- ------------------------------------------------------------------
-- damped least squares (Levenberg-Marquardt)
-- ------------------------------------------------------------------

-- Solves the m x m symmetric positive definite system a y = b in place
-- (Cholesky); false when it is not positive definite.
local function cholesky(a, b, rows)
  for j = 1, rows do
    local aj = a[j]
    local d = aj[j]
    for k = 1, j - 1 do d = d - aj[k] * aj[k] end
    if not (d > 0.0) then return false end
    aj[j] = sqrt(d)
    for i = j + 1, rows do
      local ai = a[i]
      local v = ai[j]
      for k = 1, j - 1 do v = v - ai[k] * aj[k] end
      ai[j] = v / aj[j]
    end
  end
  for i = 1, rows do
    local ai = a[i]
    for k = 1, i - 1 do b[i] = b[i] - ai[k] * b[k] end
    b[i] = b[i] / ai[i]
  end
  for i = rows, 1, -1 do
    for k = i + 1, rows do b[i] = b[i] - a[k][i] * b[k] end
    b[i] = b[i] / a[i][i]
  end
  return true
end

-- The dense step's columns (the group's bones: column_of, bone_of), its
-- rows' count (two a pulling effector) and the group's size; fits false
-- when the group is too big for it.  Returns fits, rows, columns, scale.
local function dls_size(w)
  local sk = w.sk
  local within, column_of, bone_of, effectors = w.within, w.column_of, w.bone_of, w.effectors
  local rows, columns, scale = 0, 0, 0.0
  for b = w.first, sk.count do
    if within[b] ~= 0 then
      if columns == DLS_COLUMNS then return false end
      columns = columns + 1
      column_of[b] = columns
      bone_of[columns] = b
      scale = scale + (sk.length[b] + abs(sk.ox[b]) + abs(sk.oy[b]))
    end
  end
  for k = 1, w.count do
    if effectors[k].pull > 0.0 then rows = rows + 2 end
  end
  return rows <= DLS_ROWS, rows, columns, scale
end

-- Rows i, i + 1: pulling effector e's error, weighted by root, and its
-- tip's derivatives; with a target moving with the group, the target's
-- come off them (the error is the target less the tip).
local function dls_rows_of(w, e, i, root, columns)
  local sk = w.sk
  local parent, position_only = sk.parent, sk.position_only
  local within, carried, column_of = w.within, w.carried, w.column_of
  local fx, fy, first = w.fx, w.fy, w.first
  local to = e.link.to
  local qx, qy = w.ftx[to], w.fty[to]
  local row, next_row = w.jacobian[i], w.jacobian[i + 1]
  w.err[i] = root * (e.target_x - qx)
  w.err[i + 1] = root * (e.target_y - qy)
  for j = 1, columns do
    row[j] = 0.0
    next_row[j] = 0.0
  end
  local b = to
  while b >= first do
    if within[b] ~= 0 then
      local column = column_of[b]
      row[column] = -root * (qy - fy[b])
      next_row[column] = root * (qx - fx[b])
      if position_only[b] then qx, qy = fx[b], fy[b] end
    end
    b = parent[b]
  end
  if e.target_bone == 0 then return end
  qx, qy = e.target_x, e.target_y
  b = e.target_bone
  while b >= first do
    if within[b] ~= 0 or carried[b] then
      if within[b] ~= 0 then
        local column = column_of[b]
        row[column] = row[column] + root * (qy - fy[b])
        next_row[column] = next_row[column] - root * (qx - fx[b])
      end
      if position_only[b] then qx, qy = fx[b], fy[b] end
    end
    b = parent[b]
  end
end

-- Every pulling effector's rows; then the bones held at a limit that the
-- error pushes against out of the step.
local function dls_rows(w, rows, columns, scale)
  local effectors, jacobian, err, bone_of = w.effectors, w.jacobian, w.err, w.bone_of
  local i = 1
  for k = 1, w.count do
    local e = effectors[k]
    local root = sqrt(e.pull) / scale
    if e.pull > 0.0 then
      dls_rows_of(w, e, i, root, columns)
      i = i + 2
    end
  end
  for j = 1, columns do
    local on, side = coupled_on_limit(w, bone_of[j])
    if on then
      local gradient = 0.0
      for r = 1, rows do gradient = gradient + jacobian[r][j] * err[r] end
      if gradient * side > 0.0 then
        for r = 1, rows do jacobian[r][j] = 0.0 end
      end
    end
  end
end

-- The step d = J^T (J J^T + lambda I)^-1 e, its largest turn at most
-- DLS_MAX_TURN, each bone turned by it into its limits; false when there
-- is none (dls_turn).
local function dls_turn(w, rows, columns, lambda)
  local jacobian, a, err, y, step = w.jacobian, w.a, w.err, w.y, w.step
  local bone_of, rc, rs = w.bone_of, w.rc, w.rs
  local largest = 0.0
  for r = 1, rows do
    local ar, jr = a[r], jacobian[r]
    for q = 1, r do
      local jq = jacobian[q]
      local v = 0.0
      for k = 1, columns do v = v + jr[k] * jq[k] end
      ar[q] = v
      a[q][r] = v
    end
    ar[r] = ar[r] + lambda
    y[r] = err[r]
  end
  if not cholesky(a, y, rows) then return false end
  for j = 1, columns do
    local v = 0.0
    for r = 1, rows do v = v + jacobian[r][j] * y[r] end
    step[j] = v
    if abs(v) > largest then largest = abs(v) end
  end
  if not (largest < 1e300) then return false end
  for j = 1, columns do
    local t = step[j]
    if largest > DLS_MAX_TURN then t = step[j] * (DLS_MAX_TURN / largest) end
    local b = bone_of[j]
    local tc, ts = rot(t)
    local c, s = rc[b], rs[b]
    rc[b], rs[b] = c * tc - s * ts, c * ts + s * tc
    coupled_clamp(w, b)
  end
  return true
end

-- One step over every bone of the group at once; returns false when the
-- group is too big for it, and the damping and objective.
local function coupled_dls(w, lambda, objective)
  local fits, rows, columns, scale = dls_size(w)
  if not fits then return false, lambda, objective end
  if not (scale > 1e-150 and scale < 1e150) or rows == 0 then return true, lambda, objective end
  dls_rows(w, rows, columns, scale)
  local trial_c, trial_s = w.trial_c, w.trial_s
  coupled_save(w, trial_c, trial_s)
  for _ = 1, DLS_TRIES do
    if not dls_turn(w, rows, columns, lambda) then return true, lambda, objective end
    coupled_forward(w)
    local measured = coupled_measure(w)
    if measured < objective then
      objective = measured
      if lambda * 0.3 > 1e-12 then lambda = lambda * 0.3 else lambda = 1e-12 end
      return true, lambda, objective
    end
    coupled_load(w, trial_c, trial_s)
    coupled_measure(w)
    lambda = lambda * 8.0
  end
  return true, lambda, objective
end

-- ------------------------------------------------------------------
-- private parts
-- ------------------------------------------------------------------

-- w's view as effector e's private part, its n bones from chain bone
-- first on, based where the working pose puts the part's root
-- (private_view).
local function private_view(w, e, first, n)
  local ch, link, view = e.chain, e.link, w.view
  local bones, phi = link.bones, link.phi
  local before = bones[first - 1]
  local base_c, base_s = w.fc[before], w.fs[before]
  -- the chain's direction before its private part: the bone's, turned
  -- by the segment's phi
  local turn = phi[first - 1]
  if turn ~= 0.0 then
    local tc, ts = rot(turn)
    base_c, base_s = base_c * tc - base_s * ts, base_c * ts + base_s * tc
  end
  local root = bones[first]
  view.count = n
  view.base_x, view.base_y = w.fx[root], w.fy[root]
  view.base_c, view.base_s = base_c, base_s
  view.base_angle = atan2(base_s, base_c)
  local length, rest, rest_c, rest_s, constraint = ch.length, ch.rest, ch.rest_c, ch.rest_s,
    ch.constraint
  local reach, angles = 0.0, view.pose
  for i = 1, n do
    local k = first + i - 1
    view.length[i], view.rest[i] = length[k], rest[k]
    view.rest_c[i], view.rest_s[i], view.constraint[i] = rest_c[k], rest_s[k], constraint[k]
    reach = reach + length[k]
    angles[i] = 0.0
  end
  view.reach = reach
end

-- w's private solver with effector e's settings for its part of n bones:
-- warm-started (from the working rotations), unblended, unstretched, CCD
-- where two_bone has not two bones of length (private_def), and no
-- target or result yet; false when they are refused.
local function private_settings(w, e, n)
  local view, private = w.view, w.private
  local def = solvers.copy_def(e.solver.settings, w.private_def)
  def.weight, def.warm_start, def.stretch = 1.0, true, 1.0
  if def.method == "two_bone" and
     (n ~= 2 or not (view.length[1] > 0.0 and view.length[2] > 0.0)) then
    def.method = "ccd"
  end
  if solvers.set_def(private, def) then return false end
  -- a solver as made: no target, no result
  private.has_target, private.reached, private.limited = false, false, false
  private.iterations, private.distance = 0, 0.0
  return true
end

-- Effector e's private part solved alone from where its root is, with its
-- solver's method and settings (on w's view and solver), warm-started
-- from the working rotations, which take its solution (on pose P, the
-- skeleton's).
local function coupled_private(w, e, P)
  local first = e.private_first -- chain index of the part's first bone
  local n = e.chain.count - first + 1
  -- (every member of a group has a shared bone: first > 1)
  if n <= 0 or first == 1 or not (e.weight > 0.0) then return end
  private_view(w, e, first, n)
  if not private_settings(w, e, n) then return end
  local rc, rs, private = w.rc, w.rs, w.private
  local bones, shift = e.link.bones, e.link.shift
  local solution_c, solution_s = private.solution_c, private.solution_s
  for i = 1, n do
    local k = first + i - 1
    local b = bones[k]
    local c, s = rc[b], rs[b]
    local sh = shift[k]
    if sh ~= 0.0 then
      local tc, ts = rot(sh)
      c, s = c * tc - s * ts, c * ts + s * tc
    end
    solution_c[i], solution_s[i] = c, s
  end
  private.have_solution = true
  solvers.set_target(private, e.target_x, e.target_y)
  solvers.solve(private, P)
  for i = 1, n do
    local k = first + i - 1
    local b = bones[k]
    local c, s = solution_c[i], solution_s[i]
    local sh = shift[k]
    if sh ~= 0.0 then
      local tc, ts = rot(sh)
      c, s = tc * c + ts * s, tc * s - ts * c
    end
    rc[b], rs[b] = c, s
  end
  coupled_forward(w)
  e.distance_sq = effector_distance_sq(w, e)
end

local function coupled_privates(w, P)
  local effectors = w.effectors
  if w.moving == 0 then
    for k = 1, w.count do coupled_private(w, effectors[k], P) end
    return
  end
  -- a private part may move another effector's target: the effectors
  -- whose targets move go after the others, to where these put them
  for k = 1, w.count do
    local e = effectors[k]
    if e.target_bone == 0 then coupled_private(w, e, P) end
  end
  for k = 1, w.count do
    local e = effectors[k]
    if e.target_bone > 0 then coupled_private(w, e, P) end
  end
end

local function coupled_sane(w)
  local within, rc, rs = w.within, w.rc, w.rs
  for b = w.first, w.sk.count do
    if within[b] ~= 0 then
      local c, s = rc[b], rs[b]
      local norm = c * c + s * s
      if not (norm > N.ROT_NORM_MIN and norm < N.ROT_NORM_MAX) then return false end
    end
  end
  return true
end

-- ------------------------------------------------------------------
-- a group: begin, solve, finish
-- ------------------------------------------------------------------

-- Effector e for solver s: its target (unflipped: the skeleton's space),
-- weight, pull and tolerance.
local function effector_init(e, s, sk)
  local settings = s.settings
  e.solver, e.chain, e.link = s, s.chain, s.chain.link
  local tx, ty = M.target(s)
  if sk.flip then tx = 2.0 * sk.base_x - tx end
  e.target_x, e.target_y = tx, ty
  e.weight = settings.weight
  e.pull = settings.weight * settings.priority
  e.tolerance = settings.tolerance
end

-- The group's effectors, the solvers of plan p's unit u, and its bones
-- (within) down from its lowest; returns the iterations, the largest of
-- its solvers'.
local function coupled_effectors(w, sk, p, u)
  local members = 0
  for i = 1, p.solvers do
    if p.unit_of[i] == u then members = members + 1 end
  end
  coupled_room(w, members)
  local effectors, within, carried = w.effectors, w.within, w.carried
  w.sk, w.count, w.first, w.moving = sk, 0, sk.count + 1, 0
  for b = 1, sk.count do
    within[b] = 0
    carried[b] = false
  end
  local iterations = 1
  for i = 1, p.solvers do
    if p.unit_of[i] == u then
      local s = p.solver[i]
      local count = w.count + 1
      w.count = count
      local e = effectors[count]
      effector_init(e, s, sk)
      if s.settings.iterations > iterations then iterations = s.settings.iterations end
      if e.link.from < w.first then w.first = e.link.from end
      local bones = e.link.bones
      for k = 1, e.chain.count do within[bones[k]] = 1 end
    end
  end
  -- one effector alone pulls by its weight (priority weighs effectors
  -- against each other)
  if w.count == 1 then effectors[1].pull = effectors[1].weight end
  return iterations
end

-- Targets on bones the group moves move with it (target_bone): the bones
-- between such a bone and the group's topmost bone above it are carried,
-- their working rotations their results.
local function coupled_moving_targets(w)
  local sk = w.sk
  local effectors, within, carried, parent = w.effectors, w.within, w.carried, sk.parent
  for k = 1, w.count do
    local e = effectors[k]
    local s = e.solver
    e.target_bone = 0
    if s.target_skeleton == sk then
      local top, b = 0, s.target_bone
      while b > 0 do
        if within[b] ~= 0 then top = b end
        b = parent[b]
      end
      if top > 0 then
        e.target_bone, e.dx, e.dy = s.target_bone, s.target_dx, s.target_dy
        w.moving = w.moving + 1
        b = s.target_bone
        while b > top do
          if within[b] == 0 then carried[b] = true end
          b = parent[b]
        end
      end
    end
  end
  local rc, rs, sk_angle = w.rc, w.rs, sk.angle
  for b = w.first, sk.count do
    if carried[b] then rc[b], rs[b] = rot(sk_angle[b]) end
  end
end

-- The effectors each bone moves, and each bone's blend weight (the
-- largest of the effectors whose chains hold it): a bone moving both the
-- tip and the target of one effector counts twice (a private part's solve
-- holds its target still).  The bones moving several are shared ones.
local function coupled_shares(w)
  local sk = w.sk
  local effectors, within, moves, blend = w.effectors, w.within, w.moves, w.blend
  local first, parent = w.first, sk.parent
  for b = first, sk.count do
    moves[b] = 0
    blend[b] = 0.0
  end
  for k = 1, w.count do
    local e = effectors[k]
    local to = e.link.to
    local b = to
    while b >= first do
      if within[b] ~= 0 then moves[b] = moves[b] + 1 end
      b = parent[b]
    end
    b = e.target_bone
    while b >= first do
      if within[b] ~= 0 and common_ancestor(sk, b, to) == b then moves[b] = moves[b] + 1 end
      b = parent[b]
    end
    local bones = e.link.bones
    for i = 1, e.chain.count do
      b = bones[i]
      if e.weight > blend[b] then blend[b] = e.weight end
    end
  end
  for b = first, sk.count do
    if within[b] ~= 0 and moves[b] > 1 then within[b] = 2 end
  end
end

-- Each effector's private part: its chain's tail of bones that move it
-- alone, and the ring its bones reach.
local function coupled_private_parts(w)
  local effectors, within = w.effectors, w.within
  for k = 1, w.count do
    local e = effectors[k]
    local ch, bones = e.chain, e.link.bones
    local sum, longest, at = 0.0, 0.0, ch.count + 1
    while at > 1 and within[bones[at - 1]] == 1 do at = at - 1 end
    e.private_first = at
    for i = at, ch.count do
      sum = sum + ch.length[i]
      if ch.length[i] > longest then longest = ch.length[i] end
    end
    e.ring_high = sum
    if 2.0 * longest - sum > 0.0 then e.ring_low = 2.0 * longest - sum else e.ring_low = 0.0 end
  end
end

-- The start: each bone's warm start from a solver holding it (the first,
-- in the order made, that has one), else its pose; and the cold start,
-- the pose; both within the limits, w.warm when they differ.
local function coupled_start(w)
  local sk = w.sk
  local effectors, within, rc, rs, cold_c, cold_s = w.effectors, w.within, w.rc, w.rs,
    w.cold_c, w.cold_s
  local first, sk_pose = w.first, sk.pose
  for b = first, sk.count do
    if within[b] ~= 0 then
      local c, s = rot(sk_pose[b])
      rc[b], rs[b], cold_c[b], cold_s[b] = c, s, c, s
    end
  end
  for k = w.count, 1, -1 do
    local e = effectors[k]
    local s = e.solver
    if s.settings.warm_start and s.have_solution then
      local bones, shift = e.link.bones, e.link.shift
      local solution_c, solution_s, solution_angle = s.solution_c, s.solution_s,
        s.solution_angle
      for i = 1, e.chain.count do
        local b = bones[i]
        if shift[i] == 0.0 then
          rc[b], rs[b] = solution_c[i], solution_s[i]
        else
          local angle = solution_angle[i] - shift[i]
          rc[b], rs[b] = rot(angle)
        end
      end
    end
  end
  local warm = false
  for b = first, sk.count do
    if within[b] ~= 0 then
      local same = rc[b] == cold_c[b] and rs[b] == cold_s[b]
      coupled_clamp(w, b)
      if same then
        cold_c[b], cold_s[b] = rc[b], rs[b]
      else
        cold_c[b], cold_s[b] = coupled_clamp_rot(w, b, cold_c[b], cold_s[b])
        warm = true
      end
    end
  end
  w.warm = warm
end

-- How long the group has stalled: the longest of its solvers' counts (a
-- solver that joined it since, or forgot, has 0).
local function coupled_stalls_of(w)
  local effectors, stalls = w.effectors, 0
  for k = 1, w.count do
    local n = effectors[k].solver.coupled_stalls
    if n > stalls then stalls = n end
  end
  return stalls
end

-- The group of plan p's unit u, ready to solve: its effectors, bones and
-- start pose with its frames; returns its iterations.
local function coupled_begin(w, sk, p, u)
  local iterations = coupled_effectors(w, sk, p, u)
  coupled_moving_targets(w)
  coupled_shares(w)
  coupled_private_parts(w)
  coupled_start(w)
  coupled_forward(w)
  w.stalls = coupled_stalls_of(w)
  return iterations
end

-- The working pose into the skeleton's angles: each bone back on unit
-- length and into its limits, as a chain's solve does, then blended with
-- its pose by its weight.
local function coupled_blend(w)
  local sk = w.sk
  local within, blend, rc, rs = w.within, w.blend, w.rc, w.rs
  local sk_pose, sk_angle, sk_rest = sk.pose, sk.angle, sk.rest
  for b = w.first, sk.count do
    if within[b] ~= 0 then
      local limit, p, weight = sk.constraint[b], sk_pose[b], blend[b]
      local c, s = rc[b], rs[b]
      local norm = c * c + s * s
      if abs(norm - 1.0) > N.ROT_DRIFT then
        norm = sqrt(norm)
        rc[b], rs[b] = c / norm, s / norm
        coupled_clamp(w, b)
      end
      local ik = atan2(rs[b], rc[b])
      local delta
      if limit and not limit.full then
        local rest, mid = sk_rest[b], limit.mid
        delta = limits.clamp(limit, ik - rest) - (mid + wrap(p - rest - mid))
      else
        delta = wrap(ik - p)
      end
      if weight == 1.0 then sk_angle[b] = p + delta else sk_angle[b] = p + weight * delta end
    end
  end
end

-- Effector e's solver keeps the coupled solution of its bones as its warm
-- start, and its outcome but the measure.
local function coupled_keep(w, e, used, stalled)
  local rc, rs = w.rc, w.rs
  local s, bones, shift = e.solver, e.link.bones, e.link.shift
  local solution_c, solution_s, solution_angle = s.solution_c, s.solution_s, s.solution_angle
  local limited = false
  for i = 1, e.chain.count do
    local b = bones[i]
    local c, sn = rc[b], rs[b]
    limited = limited or coupled_on_limit(w, b)
    local sh = shift[i]
    if sh ~= 0.0 then
      local tc, ts = rot(sh)
      c, sn = c * tc - sn * ts, c * ts + sn * tc
    end
    solution_c[i], solution_s[i] = c, sn
    solution_angle[i] = atan2(sn, c)
  end
  s.have_solution = true
  s.iterations = used
  -- limited as a chain's solve says it: a joint of its chain ends on a
  -- limit (weight 0: the pose, no limit changed it)
  s.limited = e.weight > 0.0 and limited
  if not stalled then
    s.coupled_stalls = 0
  elseif w.stalls < COUPLED_STALLS_MAX then
    s.coupled_stalls = w.stalls + 1
  else
    s.coupled_stalls = 1
  end
end

-- The IK solution into the skeleton (its bones and those below them, the
-- chains ending there), the solvers' warm starts and outcomes; returns
-- how many reached.
local function coupled_finish(w, used, stalled)
  local sk = w.sk
  local effectors = w.effectors
  local mask = skeleton.cleared(w.mask, sk)
  coupled_blend(w)
  for k = 1, w.count do
    local from = effectors[k].link.from
    if not mask[from] then skeleton.subtree(sk, from, mask) end
  end
  skeleton.forward(sk, w.first, mask)
  for k = 1, w.count do coupled_keep(w, effectors[k], used, stalled) end
  -- the chains ending below the group take the new state
  skeleton.pull_marked(sk, mask, nil)
  local reached = 0
  for k = 1, w.count do
    local e = effectors[k]
    if measure(e.solver) then reached = reached + 1 end
    -- the state holds no solver past the solve
    e.solver, e.chain, e.link = false, false, false
  end
  return reached
end

-- The starts (the iterations shared): the warm start; then, after a solve
-- that reached, the warm start with the private parts solved first, and
-- the cold start when it is another; after one that did not, a scattered
-- start, another each frame the group stays stalled.  Into w.starts;
-- returns how many.
local function coupled_starts(w)
  local start = w.starts
  start[1] = START_WARM
  if w.stalls > 0 then
    start[2] = START_SCATTERED
    return 2
  end
  if w.moving > 0 then
    -- a target moving with the group: the warm start, then scattered
    -- starts while the iterations last (the C file says why)
    for k = 2, COUPLED_STARTS do start[k] = START_SCATTERED end
    return COUPLED_STARTS
  end
  start[2] = START_WARM_PRIVATES
  if not w.warm then return 2 end
  start[3] = START_COLD
  return 3
end

-- The working pose of an attempt's start (how).
local function coupled_load_start(w, how, attempt, P)
  if how == START_WARM_PRIVATES then
    coupled_load(w, w.start_c, w.start_s)
    coupled_privates(w, P)
  elseif how == START_COLD then
    coupled_load(w, w.cold_c, w.cold_s)
  elseif how == START_SCATTERED then
    -- (the ones in one solve seeded past any count of stalled frames;
    -- attempt - 1: the C core's 0-based attempt)
    if w.stalls > 0 then
      coupled_scatter(w, w.stalls)
    else
      coupled_scatter(w, COUPLED_STALLS_MAX + attempt - 1)
    end
  else
    coupled_load(w, w.start_c, w.start_s)
  end
end

-- One attempt from the working pose: each iteration turns every bone of
-- the group at once (coupled_dls; too big for it, coupled_sweep), then solves
-- the private parts; until every effector is reached, the iterations run
-- out, the pose breaks or the attempt stalls.  Returns the iterations
-- used so far, the lowest objective met (its pose in w.best_c, best_s)
-- and whether the working pose reaches.
local function coupled_attempt(w, P, used, iterations, best)
  local objective, reached = coupled_measure(w)
  local attempt_best, lambda, stalled = objective, DLS_LAMBDA, 0
  while not reached and used < iterations do
    used = used + 1
    -- (the step's objective is measured again below, after the privates)
    local dense
    dense, lambda = coupled_dls(w, lambda, objective)
    if not dense then coupled_sweep(w) end
    coupled_privates(w, P)
    objective, reached = coupled_measure(w)
    if not coupled_sane(w) then break end
    if objective < best then
      best = objective
      coupled_save(w, w.best_c, w.best_s)
    end
    if objective < 0.9 * attempt_best then stalled = 0 else stalled = stalled + 1 end
    if objective < attempt_best then attempt_best = objective end
    if stalled >= COUPLED_STALL then break end
  end
  return used, best, reached
end

-- Whether an effector of the group has weight (else the solve is the
-- pose).
local function coupled_weighted(w)
  local effectors = w.effectors
  for k = 1, w.count do
    if effectors[k].weight > 0.0 then return true end
  end
  return false
end

-- Unit u of plan p, a group of two solvers or more, solved together in w
-- (its chain solves on pose P): the attempts from each start in turn
-- until one reaches; the best pose seen kept.
local function coupled_solve(sk, p, u, w, P)
  local iterations = coupled_begin(w, sk, p, u)
  if not coupled_weighted(w) then return coupled_finish(w, 0, false) end -- weight 0: the pose
  local best, reached = coupled_measure(w)
  if reached then return coupled_finish(w, 0, false) end
  coupled_save(w, w.best_c, w.best_s)
  coupled_save(w, w.start_c, w.start_s)
  local attempts, start, used, attempt = coupled_starts(w), w.starts, 0, 1
  while attempt <= attempts and not reached and used < iterations do
    coupled_load_start(w, start[attempt], attempt, P)
    used, best, reached = coupled_attempt(w, P, used, iterations, best)
    attempt = attempt + 1
  end
  if not reached or not coupled_sane(w) then coupled_load(w, w.best_c, w.best_s) end
  return coupled_finish(w, used, not reached)
end

-- ------------------------------------------------------------------
-- the whole skeleton
-- ------------------------------------------------------------------

-- The skeleton's working state, made at its first call here: its plan;
-- the pose its chains' solves work on, for chains of up to bones bones
-- (false before its first solve); and the coupled state (new_coupled, at its
-- first coupled solve).
local function work_of(sk)
  local work = sk.work
  if not work then
    work = { plan = new_plan(), pose = false, bones = 0, coupled = false }
    sk.work = work
  end
  return work
end

-- The pose of work, made again (with the coupled state's private solver)
-- for the longest chain of plan p's solvers when it is longer than any
-- before.
local function fit_pose(work, p)
  local bones, solver = work.bones, p.solver
  for k = 1, p.solvers do
    local n = solver[k].chain.count
    if n > bones then bones = n end
  end
  if bones > work.bones then
    work.pose, work.bones = pose.new(bones), bones
    if work.coupled then private_of(work.coupled, bones) end
  end
end

-- A lone solve within a deferring solve of sk: what it reads placed
-- first, its target's bone (not below its chain: that is a coupled solve)
-- and its chain, all of it when its target is its tip.
local function lone_solve(sk, sv, P)
  if sv.target_skeleton == sk then skeleton.bone_ready(sk, sv.target_bone) end
  skeleton.chain_ready(sv.chain, not sv.target_skeleton and not sv.has_target)
  if sv.target_skeleton then read_target(sv) end
  solvers.solve_chain(sv, P)
  -- (measured by M.solve at its end, once every solve is placed)
  skeleton.push(sv.chain, true)
end

-- Unit u of plan p: one solver alone, or the coupled solve (on the
-- skeleton as without deferring) in the skeleton's coupled state.
local function unit_solve(sk, p, u, work)
  local P = work.pose
  if p.unit_alone[u] then
    lone_solve(sk, p.solver[p.unit_first[u]], P)
    return
  end
  skeleton.settle(sk)
  local w = work.coupled
  if not w then
    w = new_coupled(sk, work.bones)
    work.coupled = w
  end
  coupled_solve(sk, p, u, w, P)
  skeleton.defer(sk)
end

-- The end of a deferring solve of sk: the bones placed, every solver
-- measured where its tip and target are now (a later unit may have moved
-- a tip); how many reached.
local function solve_end(sk, p)
  skeleton.settle(sk)
  local reached = 0
  for k = 1, p.solvers do
    if measure(p.solver[k]) then reached = reached + 1 end
  end
  return reached
end

-- The plan holds no solver past a solve.
local function plan_clear(p)
  for k = 1, p.solvers do p.solver[k] = false end
end

-- How many of sk's solvers reach their targets where they are now.
local function measure_all(sk)
  local list, reached = sk.solvers, 0
  for k = 1, #list do
    if measure(list[k]) then reached = reached + 1 end
  end
  return reached
end

-- A general skeleton's solve (the bone model): every bone's result back
-- to its pose first, as an animation runtime starts each frame from the
-- animated pose, then its units in the plan's order, each solver alone
-- (src/ik2d_skeleton_solve.c's general_solve says why).
local function general_solve(sk, work, p)
  skeleton.make_general(sk)
  skeleton.to_pose(sk)
  local P, solver, unit_of, order = work.pose, p.solver, p.unit_of, p.order
  for k = 1, p.units do
    for i = 1, p.solvers do
      if unit_of[i] == order[k] then M.solve_one(solver[i], P) end
    end
  end
  return measure_all(sk)
end

-- Is sv a step of sk's order?
local function in_order(sk, sv)
  local steps = sk.steps
  for k = 1, #steps do
    if steps[k] == sv then return true end
  end
  return false
end

-- Does a solver of sk need the general bone model (and sk is rigid)?
-- (scales_bones written out: a call a solver a solve)
local function needs_general(sk)
  if sk.general then return false end
  local list = sk.solvers
  for k = 1, #list do
    local settings = list[k].settings
    if settings.stretch > 1.0 or settings.compress < 1.0 then return true end
  end
  return false
end

-- Has sk's order a transform constraint?
local function order_constrains(sk)
  local steps = sk.steps
  for k = 1, #steps do
    if steps[k].is_transform_constraint then return true end
  end
  return false
end

-- A skeleton's solve in the order its rig sets: each step reads what the
-- ones before it left (a transform constraint needs the general bone
-- model); then the solvers not in it, by the plan, each alone.
local function ordered_solve(sk, work, p)
  if order_constrains(sk) or needs_general(sk) then skeleton.make_general(sk) end
  -- to_pose places every bone: what a deferring solve left stale too
  if sk.general then skeleton.to_pose(sk) else skeleton.settle(sk) end
  local P, steps = work.pose, sk.steps
  for k = 1, #steps do
    local step = steps[k]
    if step.is_transform_constraint then
      transform_constraint.apply(step)
    else
      M.solve_one(step, P)
    end
  end
  local solver, unit_of, order = p.solver, p.unit_of, p.order
  for k = 1, p.units do
    for i = 1, p.solvers do
      if unit_of[i] == order[k] and not in_order(sk, solver[i]) then M.solve_one(solver[i], P) end
    end
  end
  return measure_all(sk)
end


--- Every solver on the skeleton's chains, units in order; returns how
-- many reached their targets (measured after all: a later unit may have
-- moved a tip).  A general skeleton or one with an order solves each
-- solver alone (general_solve, ordered_solve; a skeleton turns general,
-- if a solver needs it, once the plan is made: a refused solve changes
-- nothing).
-- Or -1, nothing solved, for a cycle through a target (M.cycle).
function M.solve(sk)
  local work = work_of(sk)
  if #sk.steps > 0 or sk.general or needs_general(sk) then
    local p = work.plan
    if not plan_make(sk, p) then
      plan_clear(p)
      return -1
    end
    fit_pose(work, p)
    local reached
    if #sk.steps > 0 then reached = ordered_solve(sk, work, p) else reached = general_solve(sk, work, p) end
    plan_clear(p)
    return reached
  end
  local p = work.plan
  if not plan_make(sk, p) then
    plan_clear(p)
    return -1
  end
  fit_pose(work, p)
  -- (a base set later: stale bones placed as this solve reads them)
  sk.pending = false
  skeleton.defer(sk)
  for k = 1, p.units do unit_solve(sk, p, p.order[k], work) end
  local reached = solve_end(sk, p)
  plan_clear(p)
  return reached
end

--- The two solvers of a cycle through a target that M.solve refuses: a
-- solver whose target is on a bone the second's solve moves, while the
-- first's unit must run before the second's; nil when there is none.
function M.cycle(sk)
  local p = work_of(sk).plan
  p.made = false
  plan_units(sk, p)
  local j, i = plan_cycle(sk, p, nil)
  local first, second = j and p.solver[j], i and p.solver[i]
  plan_clear(p)
  return first, second
end

--- The target of sv on bone of sk (ik2d_solver_set_target_bone): nil, or
-- the status and, for a cycle, the other solver.
function M.set_target_bone(sv, sk, bone, dx, dy)
  if bone < 1 or bone > sk.count then return "INDEX" end
  if not finite(dx) then return "TARGET_X" end
  if not finite(dy) then return "TARGET_Y" end
  local kept_skeleton, kept_bone = sv.target_skeleton, sv.target_bone
  local kept_dx, kept_dy = sv.target_dx, sv.target_dy
  sv.target_skeleton, sv.target_bone, sv.target_dx, sv.target_dy = sk, bone, dx, dy
  -- on the skeleton's own chains: refused now if it makes a cycle that
  -- every solve would refuse
  if sv.skeleton == sk then
    local p = work_of(sk).plan
    p.made = false
    plan_units(sk, p)
    local _, i = plan_cycle(sk, p, sv)
    local other = i and p.solver[i]
    plan_clear(p)
    if other then
      sv.target_skeleton, sv.target_bone = kept_skeleton, kept_bone
      sv.target_dx, sv.target_dy = kept_dx, kept_dy
      return "TARGET_CYCLE", other
    end
  end
  return nil
end

return M
