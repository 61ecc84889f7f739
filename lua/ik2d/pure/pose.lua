--- ik2d.pure.pose: the pose a solve works on (src/ik2d_pose.c): forward
-- passes, the straight pose toward a far target, world-space limits,
-- poles, the exact two-joint step and the limited pair step.
--
-- A pose is an object (M.new) that the caller of a solve owns (a group,
-- the binding), makes once and hands to every function here and to the
-- methods; no module keeps one, and its arrays, made once, let a solve
-- allocate nothing.
-- Rotations are pairs of arrays (rc[i], rs[i]); bone i of the C core is
-- i + 1 here, joint j (0 = base) is jx[j + 1], jy[j + 1].
local N = require "ik2d.pure.numbers"
local m = require "ik2d.pure.math"
local limits = require "ik2d.pure.constraint"

local sqrt, abs = math.sqrt, math.abs
local fmax, atan2 = m.fmax, m.atan2
local clamp_rot, arc_inside = limits.clamp_rot, limits.inside

-- LuaJIT with its compiler on (the exact step's pair search below)
local JIT = rawget(_G, "jit") ~= nil and rawget(_G, "jit").status()

local M = {}

local function array(n)
  local t = {}
  for i = 1, n do t[i] = 0.0 end
  return t
end
M.array = array

--- A pose for chains of up to n bones.  Scalars: chain, settings, count
-- (bones solved: a tip angle leaves the last one out), iterations (this
-- run's budget), reach (of the bones solved), target_x/y and pole_x/y
-- (chain space), pole, limited, world_limits (the last bone with a
-- world-space limit; 0: none), tolerance_sq, damping_c/s (the largest CCD
-- turn; cos -1 lets every turn pass), base_c/s, scale, fresh (the joints
-- are those of the rotations), limited_bones (a bone has a limit: loops
-- over free chains skip them), base_x/y (where the solution puts the
-- base, chain space: the chain's base, but for follow, which moves it).
-- Arrays: the rotations rc, rs, the limits' middles mid_c, mid_s, the
-- joints jx, jy, and the rotations kept aside: start (the solve's start,
-- for its sanity pass), run (a method's start or best), step (the straight
-- pose's and the pair steps' fallback), pole and world (the bend toward a
-- pole), warm (a blended tip angle's warm start), dir (follow's
-- directions), best (an aimed run's best); view: the chain an aimed run's
-- methods see.  The pair steps keep their best pair in best_*/near_*,
-- the exact step its triangle in pair_*, two_bone its candidate search
-- in goal_*, best_* and tie.
function M.new(n)
  return {
    chain = false, settings = false, count = 0, iterations = 0, reach = 0.0,
    target_x = 0.0, target_y = 0.0, pole = false, pole_x = 0.0, pole_y = 0.0,
    limited = false, world_limits = 0, tolerance_sq = 0.0, damping_c = -1.0,
    damping_s = 0.0, base_c = 1.0, base_s = 0.0, scale = 1.0, fresh = false,
    limited_bones = false, base_x = 0.0, base_y = 0.0,
    rc = array(n), rs = array(n), mid_c = array(n), mid_s = array(n),
    jx = array(n + 1), jy = array(n + 1),
    start_c = array(n), start_s = array(n), run_c = array(n), run_s = array(n),
    step_c = array(n), step_s = array(n), pole_c = array(n), pole_s = array(n),
    world_c = array(n), world_s = array(n), warm_c = array(n), warm_s = array(n),
    dir_c = array(n), dir_s = array(n), best_c = array(n), best_s = array(n),
    aim_from_c = array(n), aim_from_s = array(n), aim_found_c = array(n), aim_found_s = array(n),
    -- (every field aim.lua's method sets, present from the start: an
    -- aimed solve adds no key)
    view = { length = array(n), rest = array(n), count = 0, reach = 0.0, base_x = 0.0,
             base_y = 0.0, base_angle = 0.0, base_c = 1.0, base_s = 0.0, constraint = false,
             rest_c = false, rest_s = false, flip = false, link = false },
    best_i = 0, best_j = 0, best_cost = 5.0,
    best_ic = 1.0, best_is = 0.0, best_jc = 1.0, best_js = 0.0,
    pair_ux = 0.0, pair_uy = 0.0, pair_vx = 0.0, pair_vy = 0.0, pair_wx = 0.0, pair_wy = 0.0,
    near_i = 0, near_j = 0, near_sq = 0.0,
    near_ic = 1.0, near_is = 0.0, near_jc = 1.0, near_js = 0.0,
    goal_x = 0.0, goal_y = 0.0, best_shoulder = 0.0, best_elbow = 0.0, best_distance = 0.0,
    tie = 0.0,
  }
end

-- ------------------------------------------------------------------
-- rotations and joints
-- ------------------------------------------------------------------

--- copies the rotations out to (c, s), or back in (the joints are then
-- stale until the next forward pass)
local function save(P, c, s)
  local rc, rs = P.rc, P.rs
  for i = 1, P.count do c[i], s[i] = rc[i], rs[i] end
end
M.save = save

local function load(P, c, s)
  local rc, rs = P.rc, P.rs
  P.fresh = false
  for i = 1, P.count do rc[i], rs[i] = c[i], s[i] end
end
M.load = load

--- positions of every joint from the rotations, from the pose's base
local function forward(P)
  local rc, rs, jx, jy = P.rc, P.rs, P.jx, P.jy
  local length = P.chain.length
  local wc, ws = P.base_c, P.base_s
  local x, y = P.base_x, P.base_y
  local n = P.count
  for i = 1, n do
    local c, s = rc[i], rs[i]
    wc, ws = wc * c - ws * s, wc * s + ws * c
    jx[i], jy[i] = x, y
    local l = length[i]
    x = x + l * wc
    y = y + l * ws
  end
  jx[n + 1], jy[n + 1] = x, y
end
M.forward = forward

--- squared distance from the tip of the last forward pass to the target
local function tip_distance_sq(P)
  local jx, jy = P.jx, P.jy
  local n1 = P.count + 1
  local dx, dy = P.target_x - jx[n1], P.target_y - jy[n1]
  return dx * dx + dy * dy
end
M.tip_distance_sq = tip_distance_sq

--- the world rotation of bone i (the base's times every local one up to
-- i); i = 0 gives the base's
local function world(P, i)
  local rc, rs = P.rc, P.rs
  local wc, ws = P.base_c, P.base_s
  for k = 1, i do
    local c, s = rc[k], rs[k]
    wc, ws = wc * c - ws * s, wc * s + ws * c
  end
  return wc, ws
end
M.world = world

--- the middle of bone i's allowed arc as a local rotation: for a
-- world-space limit, the world middle seen from the parent's rotation,
-- put back on unit length
local function limit_mid(P, i)
  local mid_c, mid_s = P.mid_c, P.mid_s
  local limit = P.chain.constraint[i]
  if not limit or not limit.world then return mid_c[i], mid_s[i] end
  local pc, ps = world(P, i - 1)
  local c, s = pc * mid_c[i] + ps * mid_s[i], pc * mid_s[i] - ps * mid_c[i]
  local norm = sqrt(c * c + s * s)
  if norm > 0.0 then return c / norm, s / norm end
  return mid_c[i], mid_s[i]
end
M.limit_mid = limit_mid

--- moves rotation i into its limits; returns true if it had to
local function clamp(P, i)
  local limit = P.chain.constraint[i]
  if not limit or limit.full then return false end
  -- (limit_mid's parent-space case inline: the common one, a call saved)
  local mc, ms
  if limit.world then mc, ms = limit_mid(P, i) else mc, ms = P.mid_c[i], P.mid_s[i] end
  -- (limits.clamp_rot written out: a call a limited bone a turn)
  local rc, rs = P.rc, P.rs
  local c, s = rc[i], rs[i]
  local rel_c, rel_s = mc * c + ms * s, mc * s - ms * c
  local mode, half_s = limit.mode, limit.half_s
  local inside
  if mode == 1 then
    inside = rel_c >= limit.half_c
  elseif mode == 2 then
    inside = rel_c >= 0.0 and rel_s <= half_s and -rel_s <= half_s
  else
    inside = rel_c >= 0.0 or rel_s >= half_s or -rel_s >= half_s
  end
  if inside then return false end
  local hc, hs = limit.half_c, half_s
  if rel_s < 0.0 then hs = -hs end
  rc[i], rs[i] = mc * hc - ms * hs, mc * hs + ms * hc
  return true
end
M.clamp = clamp

--- each world-space limited bone from first on back into its limit;
-- true if one moved (the joints are then stale)
local function settle_world(P, first)
  local moved = false
  local last = P.world_limits
  if last > P.count then last = P.count end
  local constraint = P.chain.constraint
  for i = first, last do
    local limit = constraint[i]
    if limit and limit.world and clamp(P, i) then moved = true end
  end
  if moved then P.fresh = false end
  return moved
end
M.settle_world = settle_world

-- how far inside the edge's cosine on_limit needs no angle
local INSIDE = 1e-9

--- whether a limited bone ends on the edge of its allowed arc
function M.on_limit(P)
  local rc, rs = P.rc, P.rs
  local constraint = P.chain.constraint
  for i = 1, P.count do
    local limit = constraint[i]
    if limit and not limit.full then
      local mc, ms
      if limit.world then mc, ms = limit_mid(P, i) else mc, ms = P.mid_c[i], P.mid_s[i] end
      local c, s = rc[i], rs[i]
      local rel_c, rel_s = mc * c + ms * s, mc * s - ms * c
      local edge = limit.half - N.ON_LIMIT
      -- A rotation whose cosine from the middle clears the edge's by
      -- INSIDE has an angle at least INSIDE inside the edge, far beyond
      -- the rotations' drift from unit length (1e-14) and atan2's error:
      -- the angle's test below would say no, so it is not made.
      if not (edge > 0.0 and rel_c > limit.edge_c + INSIDE) then
        -- |angle| compared without the call (a NaN fails both ways, as there)
        local angle = atan2(rel_s, rel_c)
        if angle >= edge or -angle >= edge then return true end
      end
    end
  end
  return false
end

-- ------------------------------------------------------------------
-- the straight pose
-- ------------------------------------------------------------------

--- points the chain straight at an out-of-reach target when the limits
-- allow it; true if it did
function M.straighten(P)
  local rc, rs = P.rc, P.rs
  local ch = P.chain
  local tx, ty, bx, by = P.target_x, P.target_y, ch.base_x, ch.base_y
  local dx, dy = tx - bx, ty - by
  local distance = sqrt(dx * dx + dy * dy)
  if not (distance >= P.reach) or distance == 0.0 then return false end
  local saved_c, saved_s = P.step_c, P.step_s
  save(P, saved_c, saved_s)
  if not (distance - distance == 0) then
    -- a target beyond 1e154: the squares overflowed
    if not (dx - dx == 0 and dy - dy == 0) then
      dx = 0.5 * tx - 0.5 * bx
      dy = 0.5 * ty - 0.5 * by
    end
    distance = fmax(abs(dx), abs(dy))
    dx = dx / distance
    dy = dy / distance
    distance = sqrt(dx * dx + dy * dy)
  end
  dx = dx / distance
  dy = dy / distance
  -- first bone: world direction to the target, less the base rotation
  local bc, bs = P.base_c, P.base_s
  rc[1], rs[1] = bc * dx + bs * dy, bc * dy - bs * dx
  local n = P.count
  for i = 2, n do rc[i], rs[i] = 1.0, 0.0 end
  for i = 1, n do
    if clamp(P, i) then
      -- a limit forbids the straight pose: leave it to the iterations
      load(P, saved_c, saved_s)
      return false
    end
  end
  P.fresh = false
  return true
end

-- ------------------------------------------------------------------
-- poles
-- ------------------------------------------------------------------

-- the mirror of rotation (wc, ws) across the line along unit u: u^2 conj(w)
local function mirror(uc, us, wc, ws)
  local qc, qs = uc * uc - us * us, uc * us + us * uc
  local nws = -ws
  return qc * wc - qs * nws, qc * nws + qs * wc
end

-- the unit direction from (x0, y0) to (x1, y1); nil if they meet
local function unit(x0, y0, x1, y1)
  local dx, dy = x1 - x0, y1 - y0
  local norm = sqrt(dx * dx + dy * dy)
  if not (norm > 0.0 and norm - norm == 0) then return nil end
  return dx / norm, dy / norm
end

-- which side of the line through (x0, y0) along u the point is on
local function side_of(uc, us, x0, y0, x, y)
  return uc * (y - y0) - us * (x - x0)
end

-- keeps the rotations first..last when every limit allows them; else puts
-- the saved ones back and says so
local function keep_if_allowed(P, first, last)
  local rc, rs, pole_c, pole_s = P.rc, P.rs, P.pole_c, P.pole_s
  for i = first, last do
    local c, s = rc[i], rs[i]
    if clamp(P, i) then
      rc[i], rs[i] = c, s
      for k = first, last do rc[k], rs[k] = pole_c[k], pole_s[k] end
      P.limited = true
      return false
    end
  end
  return true
end

--- turns the chain's middle joints toward the pole, base and tip kept
function M.toward_pole(P)
  local rc, rs, jx, jy = P.rc, P.rs, P.jx, P.jy
  local pole_c, pole_s, world_c, world_s = P.pole_c, P.pole_s, P.world_c, P.world_s
  local n = P.count
  if n < 2 then return end
  forward(P)
  local uc, us = unit(jx[1], jy[1], jx[n + 1], jy[n + 1])
  if not uc then return end
  local px, py = P.pole_x, P.pole_y
  local pole = side_of(uc, us, jx[1], jy[1], px, py)
  local bulk = 0.0
  for j = 2, n do bulk = bulk + side_of(uc, us, jx[1], jy[1], jx[j], jy[j]) end
  save(P, pole_c, pole_s)
  if pole * bulk < 0.0 then
    -- the whole chain mirrored across the base-tip line: the first bone
    -- takes the mirrored direction, every later turn is reversed
    local bc, bs = P.base_c, P.base_s
    local wc, ws = bc * rc[1] - bs * rs[1], bc * rs[1] + bs * rc[1]
    wc, ws = mirror(uc, us, wc, ws)
    rc[1], rs[1] = bc * wc + bs * ws, bc * ws - bs * wc
    for i = 2, n do rc[i], rs[i] = pole_c[i], -pole_s[i] end
    if keep_if_allowed(P, 1, n) then save(P, pole_c, pole_s) end
    forward(P)
  end
  -- each middle joint mirrored across the line through its neighbours,
  -- when that brings it nearer the pole (C joint j is Lua joint j + 1;
  -- its bones are j and j + 1 here)
  for j = 2, n do
    local vc, vs = unit(jx[j - 1], jy[j - 1], jx[j + 1], jy[j + 1])
    if vc then
      local side_pole = side_of(vc, vs, jx[j - 1], jy[j - 1], px, py)
      local side_joint = side_of(vc, vs, jx[j - 1], jy[j - 1], jx[j], jy[j])
      if side_pole * side_joint < 0.0 then
        local wc, ws = P.base_c, P.base_s
        for i = 1, n do
          local c, s = rc[i], rs[i]
          wc, ws = wc * c - ws * s, wc * s + ws * c
          world_c[i], world_s[i] = wc, ws
        end
        local parent_c, parent_s = P.base_c, P.base_s
        if j >= 3 then parent_c, parent_s = world_c[j - 2], world_s[j - 2] end
        local ac, as = mirror(vc, vs, world_c[j - 1], world_s[j - 1])
        local bc, bs = mirror(vc, vs, world_c[j], world_s[j])
        world_c[j - 1], world_s[j - 1] = ac, as
        world_c[j], world_s[j] = bc, bs
        rc[j - 1], rs[j - 1] = parent_c * ac + parent_s * as, parent_c * as - parent_s * ac
        rc[j], rs[j] = ac * bc + as * bs, ac * bs - as * bc
        local last = j
        if j + 1 <= n then
          local cc, cs = world_c[j + 1], world_s[j + 1]
          rc[j + 1], rs[j + 1] = bc * cc + bs * cs, bc * cs - bs * cc
          last = j + 1
        end
        if keep_if_allowed(P, j - 1, last) then save(P, pole_c, pole_s) end
        forward(P)
      end
    end
  end
  P.fresh = false
end

-- ------------------------------------------------------------------
-- the exact two-joint step
-- ------------------------------------------------------------------

-- The exact step skips a pair whose triangle is degenerate: the tip or
-- the target closer to a joint than a tenth of the pair's first side.
local DEGENERATE = N.EXACT_DEGENERATE
local SQUARES_MIN, SQUARES_MAX = N.EXACT_SQUARES_MIN, N.EXACT_SQUARES_MAX

-- is rotation (c, s) of bone i inside its limits? (the clamp's own test)
local function allowed(P, i, c, s)
  local limit = P.chain.constraint[i]
  if not limit or limit.full then return true end
  local mc, ms
  if limit.world then mc, ms = limit_mid(P, i) else mc, ms = P.mid_c[i], P.mid_s[i] end
  return arc_inside(limit, mc, ms, c, s)
end

-- Two ways to search the pairs, the same operations in the same order
-- (same bits; spec/pure_kernel_spec.lua runs both on every runtime).
-- The flat one (flat_try, flat_side), for an interpreter, passes the
-- triangle in arguments with few calls and tests the limits only when a
-- bone has one.  The split one (pair_try and the
-- pair_* below it), for LuaJIT's compiler, passes few numbers between
-- small functions: a side trace inherits every slot of the frames it
-- returns through, and the flat one's exits in the triangle and in the
-- limits, with the step's temporaries in one or two frames (about 25),
-- were more than the registers could coalesce ("NYI: register coalescing
-- too complex", thousands of times a run, the row 3 times slower than
-- interpreted).

-- Keeps the pair i < j (the best pair so far: P.best_i, best_j, its cost
-- and new rotations) when the bend side whose wanted angle at joint j
-- is (want_c, want_s) is cheaper than the best; returns true when a limit
-- forbids the side.  u, v: the triangle's sides from joint i and j; w:
-- the target from joint i; now: the angle at joint j now.
local function flat_side(P, i, j, ux, uy, vx, vy, wx, wy, now_c, now_s, want_c, want_s)
  local damping_c, best_cost = P.damping_c, P.best_cost
  local jc, js = now_c * want_c + now_s * want_s, now_c * want_s - now_s * want_c
  if not (1.0 - jc < best_cost) or jc < damping_c then return false end
  -- the tip after turning j, from joint i; then turn i onto the target
  local px = ux + jc * vx - js * vy
  local py = uy + js * vx + jc * vy
  local dot = px * wx + py * wy
  local cross = px * wy - py * wx
  local norm = sqrt(dot * dot + cross * cross)
  if not (norm > 0.0) then return false end
  local ic, is = dot / norm, cross / norm
  local cost = (1.0 - jc) + (1.0 - ic)
  if not (cost < best_cost) or ic < damping_c then return false end
  local rc, rs = P.rc, P.rs
  local oc, os = rc[i], rs[i]
  local i_c, i_s = oc * ic - os * is, oc * is + os * ic
  oc, os = rc[j], rs[j]
  local j_c, j_s = oc * jc - os * js, oc * js + os * jc
  if P.limited_bones and not (allowed(P, i, i_c, i_s) and allowed(P, j, j_c, j_s)) then
    return true
  end
  P.best_ic, P.best_is, P.best_jc, P.best_js = i_c, i_s, j_c, j_s
  P.best_i, P.best_j, P.best_cost = i, j, cost
  return false
end

-- Solves the triangle of bones i < j and keeps it when cheaper, on the
-- bend side it has now unless a limit forbids that side.
local function flat_try(P, i, j)
  local jx, jy = P.jx, P.jy
  local n1 = P.count + 1
  local ux, uy = jx[j] - jx[i], jy[j] - jy[i]           -- side a
  local vx, vy = jx[n1] - jx[j], jy[n1] - jy[j]         -- side b
  local wx, wy = P.target_x - jx[i], P.target_y - jy[i]
  local a2 = ux * ux + uy * uy
  local b2 = vx * vx + vy * vy
  local d2 = wx * wx + wy * wy
  local gap = d2 - a2 - b2
  -- sides whose squares and products doubles hold exactly enough
  if not (a2 >= SQUARES_MIN and a2 <= SQUARES_MAX and b2 >= SQUARES_MIN and b2 <= SQUARES_MAX and
          d2 >= SQUARES_MIN and d2 <= SQUARES_MAX) then
    return
  end
  -- out of this pair's reach, or degenerate
  if gap * gap > 4.0 * a2 * b2 then return end
  if b2 < DEGENERATE * a2 or d2 < DEGENERATE * a2 then return end
  -- the angle at joint j between side a and side b: now and wanted
  local ab = sqrt(a2 * b2)
  local want_c = gap / (2.0 * ab)
  local want_sin = 1.0 - want_c * want_c
  local want_s = 0.0
  if want_sin > 0.0 then want_s = sqrt(want_sin) end
  local now_c, now_s = (ux * vx + uy * vy) / ab, (ux * vy - uy * vx) / ab
  -- keep the bend side (the sign of the wanted sine is the side's)
  local side = now_s < 0.0 and -1.0 or 1.0
  if flat_side(P, i, j, ux, uy, vx, vy, wx, wy, now_c, now_s, want_c, side * want_s) and
     want_s > 0.0 then
    flat_side(P, i, j, ux, uy, vx, vy, wx, wy, now_c, now_s, want_c, -side * want_s)
  end
end

-- Joint i's turn onto the target once joint j turned by (jc, js), from
-- the triangle's sides in P.pair_* (u, v from joint i and j, w the target
-- from joint i); nothing when the tip sits on joint i.
local function pair_onto_target(P, jc, js)
  local ux, uy, vx, vy, wx, wy = P.pair_ux, P.pair_uy, P.pair_vx, P.pair_vy, P.pair_wx, P.pair_wy
  -- the tip after turning j, from joint i
  local px = ux + jc * vx - js * vy
  local py = uy + js * vx + jc * vy
  local dot = px * wx + py * wy
  local cross = px * wy - py * wx
  local norm = sqrt(dot * dot + cross * cross)
  if not (norm > 0.0) then return end
  return dot / norm, cross / norm
end

-- The new rotations of a pair i < j with joint j turned by (jc, js) and
-- joint i then onto the target, and the turns' cost; nothing when not
-- cheaper than the best so far or past the damping.
local function pair_turns(P, i, j, jc, js)
  local damping_c, best_cost = P.damping_c, P.best_cost
  if not (1.0 - jc < best_cost) or jc < damping_c then return end
  local ic, is = pair_onto_target(P, jc, js)
  if not ic then return end
  local cost = (1.0 - jc) + (1.0 - ic)
  if not (cost < best_cost) or ic < damping_c then return end
  local rc, rs = P.rc, P.rs
  local oc, os = rc[i], rs[i]
  local i_c, i_s = oc * ic - os * is, oc * is + os * ic
  oc, os = rc[j], rs[j]
  return i_c, i_s, oc * jc - os * js, oc * js + os * jc, cost
end

-- The sides of the triangle of bones i < j into P.pair_*: u from joint i
-- to joint j, v from joint j to the tip, w from joint i to the target;
-- returns their squares.
local function pair_sides(P, i, j)
  local jx, jy = P.jx, P.jy
  local n1 = P.count + 1
  local ux, uy = jx[j] - jx[i], jy[j] - jy[i]           -- side a
  local vx, vy = jx[n1] - jx[j], jy[n1] - jy[j]         -- side b
  local wx, wy = P.target_x - jx[i], P.target_y - jy[i]
  P.pair_ux, P.pair_uy, P.pair_vx, P.pair_vy, P.pair_wx, P.pair_wy = ux, uy, vx, vy, wx, wy
  return ux * ux + uy * uy, vx * vx + vy * vy, wx * wx + wy * wy
end

-- The triangle of bones i < j: the wanted and the present angle at joint
-- j, its sides kept in P.pair_*; nothing when out of the pair's reach or
-- degenerate.
local function pair_triangle(P, i, j)
  local a2, b2, d2 = pair_sides(P, i, j)
  local gap = d2 - a2 - b2
  -- sides whose squares and products doubles hold exactly enough
  if not (a2 >= SQUARES_MIN and a2 <= SQUARES_MAX and b2 >= SQUARES_MIN and b2 <= SQUARES_MAX and
          d2 >= SQUARES_MIN and d2 <= SQUARES_MAX) then
    return
  end
  -- out of this pair's reach, or degenerate
  if gap * gap > 4.0 * a2 * b2 then return end
  if b2 < DEGENERATE * a2 or d2 < DEGENERATE * a2 then return end
  -- the angle at joint j between side a and side b: now and wanted
  local ab = sqrt(a2 * b2)
  local want_c = gap / (2.0 * ab)
  local want_sin = 1.0 - want_c * want_c
  local want_s = 0.0
  if want_sin > 0.0 then want_s = sqrt(want_sin) end
  local ux, uy, vx, vy = P.pair_ux, P.pair_uy, P.pair_vx, P.pair_vy
  return want_c, want_s, (ux * vx + uy * vy) / ab, (ux * vy - uy * vx) / ab
end

-- Solves the triangle of bones i < j: pair_turns for the bend side it has
-- now (the sign of the wanted sine is the side's; the wanted angle at
-- joint j is (want_c, want_s), the one it has (now_c, now_s)), or for the
-- other side
-- (nothing when both are one); nothing when out of the pair's reach or
-- degenerate.
local function pair_solve(P, i, j, other)
  local want_c, want_s, now_c, now_s = pair_triangle(P, i, j)
  if not want_c then return end
  local side = now_s < 0.0 and -1.0 or 1.0
  if other then
    if not (want_s > 0.0) then return end
    side = -side
  end
  want_s = side * want_s
  -- joint j turned from the angle it has to the one wanted
  return pair_turns(P, i, j, now_c * want_c + now_s * want_s, now_c * want_s - now_s * want_c)
end

-- Keeps the new rotations (i_c, i_s), (j_c, j_s) of a pair i < j and their
-- cost (pair_solve's; nil: none cheaper) as the best pair so far (P.best_i,
-- best_j, its cost and rotations); returns true when a limit forbids them.
local function pair_keep(P, i, j, i_c, i_s, j_c, j_s, cost)
  if not i_c then return false end
  if not allowed(P, i, i_c, i_s) or not allowed(P, j, j_c, j_s) then return true end
  P.best_ic, P.best_is, P.best_jc, P.best_js = i_c, i_s, j_c, j_s
  P.best_i, P.best_j, P.best_cost = i, j, cost
  return false
end

-- Solves the triangle of bones i < j and keeps it when cheaper, on the
-- bend side it has now unless a limit forbids that side.
local function pair_try(P, i, j)
  if pair_keep(P, i, j, pair_solve(P, i, j, false)) then
    pair_keep(P, i, j, pair_solve(P, i, j, true))
  end
end

-- The exact two-joint step whose pair search is search(P, i, j).
local function exact_step_of(search)
  --- The exact two-joint step from the joints of the last forward pass
  -- and their squared tip distance; returns whether it applied a pair and
  -- the squared distance (the joints are then those of the new pose).
  return function(P, distance_sq)
    local n = P.count
    if n < 2 then return false, distance_sq end
    P.best_i, P.best_j, P.best_cost = 0, 0, 5.0 -- above any real cost (at most 4)
    for k = 1, n - 1 do search(P, k, k + 1) end
    for k = 3, n do search(P, 1, k) end
    for k = 2, n - 2 do search(P, k, n) end
    local best_i, best_j = P.best_i, P.best_j
    if best_i == 0 then return false, distance_sq end
    local rc, rs, exact_c, exact_s = P.rc, P.rs, P.step_c, P.step_s
    save(P, exact_c, exact_s)
    rc[best_i], rs[best_i] = P.best_ic, P.best_is
    rc[best_j], rs[best_j] = P.best_jc, P.best_js
    -- world-space limits below the pair turned with it
    if P.world_limits > best_i then settle_world(P, best_i + 1) end
    forward(P)
    local after_sq = tip_distance_sq(P)
    if after_sq < distance_sq then return true, after_sq end
    -- no gain (the tip already sat on the target up to rounding)
    load(P, exact_c, exact_s)
    forward(P)
    return false, distance_sq
  end
end
M.exact_step_flat = exact_step_of(flat_try)
M.exact_step_split = exact_step_of(pair_try)
M.exact_step = JIT and M.exact_step_split or M.exact_step_flat

-- ------------------------------------------------------------------
-- the limited pair step
-- ------------------------------------------------------------------

-- rotation (c, s) of bone i moved into its limits: whether it had to, and
-- the rotation
local function clamp_to(P, i, c, s)
  local limit = P.chain.constraint[i]
  if not limit then return false, c, s end
  local mc, ms = limit_mid(P, i)
  return clamp_rot(limit, mc, ms, c, s)
end

-- keeps (i_c, i_s), (j_c, j_s) when the tip, at p from joint i before
-- bone i turns by (tc, ts), lands nearer the target (w from joint i) than
-- the nearest pair so far (P.near_i, near_j, its squared distance and new
-- rotations)
local function near_keep(P, i, j, wx, wy, tc, ts, i_c, i_s, j_c, j_s, px, py)
  local dx = tc * px - ts * py - wx
  local dy = ts * px + tc * py - wy
  local distance_sq = dx * dx + dy * dy
  if not (distance_sq < P.near_sq) then return end
  P.near_sq = distance_sq
  P.near_i, P.near_j = i, j
  P.near_ic, P.near_is, P.near_jc, P.near_js = i_c, i_s, j_c, j_s
end

-- bone j at (j_c, j_s) (allowed), then bone i turned onto the target, clamped
local function near_elbow(P, i, j, ux, uy, vx, vy, wx, wy, j_c, j_s)
  local rc, rs, damping_c = P.rc, P.rs, P.damping_c
  local oc, os = rc[j], rs[j]
  local jc, js = oc * j_c + os * j_s, oc * j_s - os * j_c
  if jc < damping_c then return end
  local px = ux + jc * vx - js * vy
  local py = uy + js * vx + jc * vy
  local dot = px * wx + py * wy
  local cross = px * wy - py * wx
  local norm = sqrt(dot * dot + cross * cross)
  if not (norm > 0.0) then return end
  local tc, ts = dot / norm, cross / norm
  oc, os = rc[i], rs[i]
  local moved, i_c, i_s = clamp_to(P, i, oc * tc - os * ts, oc * ts + os * tc)
  if moved then tc, ts = oc * i_c + os * i_s, oc * i_s - os * i_c end
  if tc < damping_c then return end
  near_keep(P, i, j, wx, wy, tc, ts, i_c, i_s, j_c, j_s, px, py)
end

-- bone i at (i_c, i_s) (allowed), then bone j turned onto the target, clamped
local function near_shoulder(P, i, j, ux, uy, vx, vy, wx, wy, i_c, i_s)
  local rc, rs, damping_c = P.rc, P.rs, P.damping_c
  local oc, os = rc[i], rs[i]
  local tc, ts = oc * i_c + os * i_s, oc * i_s - os * i_c
  if tc < damping_c then return end
  -- the sides turned with i; the target seen from joint j
  local ux2 = tc * ux - ts * uy
  local uy2 = ts * ux + tc * uy
  local vx2 = tc * vx - ts * vy
  local vy2 = ts * vx + tc * vy
  local wx2, wy2 = wx - ux2, wy - uy2
  local dot = vx2 * wx2 + vy2 * wy2
  local cross = vx2 * wy2 - vy2 * wx2
  local norm = sqrt(dot * dot + cross * cross)
  if not (norm > 0.0) then return end
  local jc, js = dot / norm, cross / norm
  oc, os = rc[j], rs[j]
  local moved, j_c, j_s = clamp_to(P, j, oc * jc - os * js, oc * js + os * jc)
  if moved then jc, js = oc * j_c + os * j_s, oc * j_s - os * j_c end
  if jc < damping_c then return end
  -- the tip from joint i, in the frame before i turned
  local px = ux + jc * vx - js * vy
  local py = uy + js * vx + jc * vy
  near_keep(P, i, j, wx, wy, tc, ts, i_c, i_s, j_c, j_s, px, py)
end

-- the ends of bone i's allowed arc (low c, s, high c, s), or nothing
local function arc_ends(P, i)
  local limit = P.chain.constraint[i]
  if not limit or limit.full then return end
  local mc, ms = limit_mid(P, i)
  local hc, hs = limit.half_c, limit.half_s
  return mc * hc - ms * -hs, mc * -hs + ms * hc, mc * hc - ms * hs, mc * hs + ms * hc
end

-- the candidates of the pair i < j (one of them limited)
local function near_try(P, i, j)
  local jlc, jls, jhc, jhs = arc_ends(P, j)
  local ilc, ils, ihc, ihs = arc_ends(P, i)
  if not jlc and not ilc then return end
  local rc, rs, jx, jy = P.rc, P.rs, P.jx, P.jy
  local n1 = P.count + 1
  local ux, uy = jx[j] - jx[i], jy[j] - jy[i]
  local vx, vy = jx[n1] - jx[j], jy[n1] - jy[j]
  local wx, wy = P.target_x - jx[i], P.target_y - jy[i]
  local a2 = ux * ux + uy * uy
  local b2 = vx * vx + vy * vy
  local d2 = wx * wx + wy * wy
  if not (a2 >= SQUARES_MIN and a2 <= SQUARES_MAX and b2 >= SQUARES_MIN and b2 <= SQUARES_MAX and
          d2 >= SQUARES_MIN and d2 <= SQUARES_MAX) then
    return
  end
  local ab = sqrt(a2 * b2)
  -- the wanted angle at j, straight or folded when out of the pair's
  -- reach; each bend side clamped into j's arc
  local want_c = (d2 - a2 - b2) / (2.0 * ab)
  if want_c > 1.0 then want_c = 1.0 elseif want_c < -1.0 then want_c = -1.0 end
  local want_sin = 1.0 - want_c * want_c
  local want_s = 0.0
  if want_sin > 0.0 then want_s = sqrt(want_sin) end
  local now_c, now_s = (ux * vx + uy * vy) / ab, (ux * vy - uy * vx) / ab
  local oc, os = rc[j], rs[j]
  for side = 1, 2 do
    local ws = side == 1 and want_s or -1.0 * want_s
    local tc, ts = now_c * want_c + now_s * ws, now_c * ws - now_s * want_c
    local _, j_c, j_s = clamp_to(P, j, oc * tc - os * ts, oc * ts + os * tc)
    near_elbow(P, i, j, ux, uy, vx, vy, wx, wy, j_c, j_s)
  end
  if jlc then
    near_elbow(P, i, j, ux, uy, vx, vy, wx, wy, jlc, jls)
    near_elbow(P, i, j, ux, uy, vx, vy, wx, wy, jhc, jhs)
  end
  if ilc then
    near_shoulder(P, i, j, ux, uy, vx, vy, wx, wy, ilc, ils)
    near_shoulder(P, i, j, ux, uy, vx, vy, wx, wy, ihc, ihs)
  end
end

--- The limited pair step (src/ik2d_pose.c): the pair of bones, one of
-- them limited, and their allowed rotations that bring the tip nearest
-- the target, kept only if it gains.  Needs and returns as exact_step;
-- does nothing with a world-space limit.
function M.limited_step(P, distance_sq)
  local n = P.count
  if n < 2 or P.world_limits > 0 then return false, distance_sq end
  P.near_i, P.near_j, P.near_sq = 0, 0, distance_sq
  for k = 1, n - 1 do near_try(P, k, k + 1) end
  for k = 3, n do near_try(P, 1, k) end
  for k = 2, n - 2 do near_try(P, k, n) end
  local near_i, near_j = P.near_i, P.near_j
  if near_i == 0 then return false, distance_sq end
  local rc, rs, exact_c, exact_s = P.rc, P.rs, P.step_c, P.step_s
  save(P, exact_c, exact_s)
  rc[near_i], rs[near_i] = P.near_ic, P.near_is
  rc[near_j], rs[near_j] = P.near_jc, P.near_js
  forward(P)
  local after_sq = tip_distance_sq(P)
  if after_sq < distance_sq then return true, after_sq end
  load(P, exact_c, exact_s)
  forward(P)
  return false, distance_sq
end

return M
