--- bench/plain_ccd.lua: the plain-Lua peer of ik2d's CCD, for the benchmark.
--
-- The same algorithm as ik2d's CCD with sweep = "tip", exact = false (the
-- textbook tip-to-root sweep; src/ik2d_ccd.c) and the solve driver in
-- src/ik2d_solver.c, written as fast as plain Lua allows: no allocation per
-- solve, locals for everything hot, the forward pass inlined, and the same
-- arithmetic in the same order, so that on one machine it takes the same
-- steps (and usually gives the same bits) as ik2d.
--
--   * a solve starts from the previous IK solution (warm start) or from the
--     animated pose, as unit complex rotations (cos, sin) per bone;
--   * one forward pass per sweep, then the sweep turns each joint, tip to
--     root, moving only the tip: O(n);
--   * a joint update builds its turn from the dot and cross of joint->tip and
--     joint->target with one sqrt and no trig; optional damping caps it;
--   * limits are clamped in the parent bone's space around the middle of the
--     allowed arc (ik2d_work_clamp);
--   * the tolerance is checked after every joint update; a sweep that gains
--     less than 1e-9 of the distance has stalled and ends the solve;
--   * a target out of reach straightens the chain in one step when the
--     limits allow it;
--   * a run that ends farther than it started keeps its start, and one that
--     left NaN or far-from-unit rotations is dropped for the solve's start;
--   * the result is pose + weight * delta(ik - pose) per bone (delta inside
--     the limits for a limited bone), then the joint positions: with weight 1
--     from the rotations (no trig), otherwise from the angles.
--
-- A chain here is one table holding what ik2d keeps in a chain and its
-- solver.  Results are plain Lua arrays that the game reads directly:
-- c.angle[i] (local result angles), c.jx[k], c.jy[k] (joints, 1 = base,
-- n + 1 = tip, world space).
local sqrt, cos, sin, floor = math.sqrt, math.cos, math.sin, math.floor
local atan2 = math.atan2 or math.atan -- luacheck: ignore 143
local type, error = type, error

local PI = 3.14159265358979323846
local TWO_PI = 6.28318530717958647692
local STALL_GAIN = 1e-9 -- as CCD_STALL_GAIN in ik2d_ccd.c

local M = {}

-- angle wrapped to [-pi, pi), as ik2d_wrap
local function wrap(a)
  if a >= -PI and a < PI then return a end
  return a - TWO_PI * floor((a + PI) / TWO_PI)
end
M.wrap = wrap

-- A limit as ik2d_constraint_set_def derives it; nil when it allows every angle.
local function make_limit(min, max, invert)
  if type(min) ~= "number" or type(max) ~= "number" or min > max then
    error("plain_ccd: min and max must be numbers with min <= max", 3)
  end
  local low = invert and max or min
  local high = invert and min + TWO_PI or max
  local width = invert and TWO_PI - (max - min) or max - min
  if width >= TWO_PI then return nil end
  local mid = 0.5 * low + 0.5 * high
  -- an inverted range of more than 2 pi leaves no arc: pinned at mid
  local half = width > 0 and 0.5 * width or 0
  local hc = cos(half)
  return { min = min, max = max, mid = mid, half = half, hc = hc, hs = sin(half), narrow = hc >= 0 }
end

-- The allowed local delta nearest to delta, as ik2d_constraint_clamp.
local function limit_clamp(limit, delta)
  local mid, half = limit.mid, limit.half
  local centred = mid + wrap(delta - mid)
  if centred > mid + half then return mid + half end
  if centred < mid - half then return mid - half end
  return centred
end
M.limit_clamp = limit_clamp

-- Joint positions from base and result angles (ik2d__chain_update_joints).
local function update_joints(c)
  local n, len, angle, jx, jy = c.n, c.len, c.angle, c.jx, c.jy
  local x, y, world = c.bx, c.by, c.ba
  jx[1], jy[1] = x, y
  for i = 1, n do
    world = world + angle[i]
    local l = len[i]
    x = x + l * cos(world)
    y = y + l * sin(world)
    jx[i + 1], jy[i + 1] = x, y
  end
  if c.flip then
    local bx2 = 2 * c.bx
    for i = 2, n + 1 do jx[i] = bx2 - jx[i] end
  end
end

--- A chain and its solver.  spec as for ik2d.chain: { x =, y =, angle =,
-- flip =, { length =, angle = (rest), min =, max =, invert = }, ... };
-- options as for ik2d.solver: iterations, tolerance, weight, damping,
-- warm_start.  This is ik2d's CCD with sweep = "tip" and exact = false
-- (the textbook sweep, no exact two-joint step); other settings are refused.
function M.new(spec, options)
  options = options or {}
  if (options.method or "ccd") ~= "ccd" or (options.sweep or "tip") ~= "tip" or options.exact then
    error("plain_ccd: only ik2d's ccd with sweep = \"tip\" and exact = false", 2)
  end
  local n = #spec
  if n < 1 or n > 64 then error("plain_ccd: a chain needs 1 to 64 bones", 2) end
  local c = {
    n = n, len = {}, rest = {}, pose = {}, angle = {}, jx = {}, jy = {},
    rc = {}, rs = {},            -- the IK solution = the working rotations
    lim = {}, mc = {}, ms = {},  -- limit per bone (false: free), its middle
    limited = false, have = false, reach = 0,
    bx = spec.x or 0, by = spec.y or 0, ba = spec.angle or 0, flip = spec.flip and true or false,
    iterations = options.iterations or 10,
    tol = options.tolerance or 0.01,
    weight = options.weight or 1,
    warm = options.warm_start ~= false,
    dcos = -1, dsin = 0,
    tx = 0, ty = 0,
  }
  c.bc, c.bs = cos(c.ba), sin(c.ba)
  c.tol_sq = c.tol * c.tol
  if c.weight < 0 then c.weight = 0 elseif c.weight > 1 then c.weight = 1 end
  local damping = options.damping or 0
  if damping > 0 and damping < PI then c.dcos, c.dsin = cos(damping), sin(damping) end
  for i = 1, n do
    local bone = spec[i]
    local rest = bone.angle or 0
    c.len[i], c.rest[i], c.pose[i], c.angle[i] = bone.length, rest, rest, rest
    c.reach = c.reach + bone.length
    c.rc[i], c.rs[i] = 1, 0
    local limit = (bone.min or bone.max) and make_limit(bone.min, bone.max, bone.invert) or false
    c.lim[i] = limit
    if limit then
      c.limited = true
      c.mc[i], c.ms[i] = cos(rest + limit.mid), sin(rest + limit.mid)
    else
      c.mc[i], c.ms[i] = 1, 0
    end
  end
  update_joints(c)
  c.tx, c.ty = c.jx[n + 1], c.jy[n + 1]
  return c
end

--- Writes the animated angle of bone i; the result shows it until the next solve.
function M.set_pose(c, i, a)
  c.pose[i], c.angle[i] = a, a
  update_joints(c)
end

function M.set_base(c, x, y, a)
  c.bx, c.by, c.ba = x, y, a
  c.bc, c.bs = cos(a), sin(a)
  update_joints(c)
end

-- Whether rotation (co, si) is outside limit (middle mco, msi), as
-- ik2d_work_clamp decides it: |angle| <= half, read from the sine where
-- the cosine is flat.
local function outside(limit, co, si, mco, msi)
  local rel_c, rel_s = co * mco + si * msi, si * mco - co * msi
  if rel_s < 0 then rel_s = -rel_s end
  if limit.narrow then return not (rel_c >= 0 and rel_s <= limit.hs) end
  return not (rel_c >= 0 or rel_s >= limit.hs)
end

-- scratch, shared: it never outlives one solve
local saved_c, saved_s = {}, {}  -- straighten
local start_c, start_s = {}, {}  -- the solve's start, for the sanity check
local run_c, run_s = {}, {}      -- the iterations' start, to keep the best

-- Points the chain at the (chain space) unit direction ux, uy if no limit
-- forbids it (ik2d_work_straighten); returns whether it did.
local function straighten(c, ux, uy)
  local n, rc, rs = c.n, c.rc, c.rs
  for i = 1, n do saved_c[i], saved_s[i] = rc[i], rs[i] end
  local bc, bs = c.bc, c.bs
  rc[1], rs[1] = ux * bc + uy * bs, uy * bc - ux * bs
  for i = 2, n do rc[i], rs[i] = 1, 0 end
  if c.limited then
    local lim, mc, ms = c.lim, c.mc, c.ms
    for i = 1, n do
      if lim[i] and outside(lim[i], rc[i], rs[i], mc[i], ms[i]) then
        for k = 1, n do rc[k], rs[k] = saved_c[k], saved_s[k] end
        return false
      end
    end
  end
  return true
end

--- Sets the target and solves.  Returns reached, distance (result tip to
-- target) and the iterations used, as ik2d's solver:solve().
function M.solve(c, tx, ty)
  c.tx, c.ty = tx, ty
  local n, jx, jy = c.n, c.jx, c.jy
  local n1 = n + 1
  local weight = c.weight
  local used = 0
  if weight > 0 then
    local rc, rs, len = c.rc, c.rs, c.len
    local limited, lim, mc, ms = c.limited, c.lim, c.mc, c.ms
    local bx, by, bc, bs = c.bx, c.by, c.bc, c.bs
    local wtx, wty = tx, ty -- the target in chain space (unflipped)
    if c.flip then wtx = 2 * bx - tx end
    local tol_sq = c.tol_sq

    -- start: the last solution, or the pose; then into the limits
    if not (c.warm and c.have) then
      local pose = c.pose
      for i = 1, n do
        local p = pose[i]
        rc[i], rs[i] = cos(p), sin(p)
      end
    end
    if limited then
      for i = 1, n do
        local limit = lim[i]
        if limit then
          local co, si, mco, msi = rc[i], rs[i], mc[i], ms[i]
          local hc, hs = limit.hc, limit.hs
          local rel_c, rel_s = co * mco + si * msi, si * mco - co * msi
          local abs_s = rel_s < 0 and -rel_s or rel_s
          local inside
          if limit.narrow then
            inside = rel_c >= 0 and abs_s <= hs
          else
            inside = rel_c >= 0 or abs_s >= hs
          end
          if not inside then
            if rel_s < 0 then hs = -hs end
            rc[i], rs[i] = mco * hc - msi * hs, mco * hs + msi * hc
          end
        end
      end
    end

    for i = 1, n do start_c[i], start_s[i] = rc[i], rs[i] end

    -- forward pass
    local wc, ws, x, y = bc, bs, bx, by
    for i = 1, n do
      local co, si = rc[i], rs[i]
      wc, ws = wc * co - ws * si, wc * si + ws * co
      jx[i], jy[i] = x, y
      local l = len[i]
      x, y = x + l * wc, y + l * ws
    end
    jx[n1], jy[n1] = x, y
    local dx, dy = wtx - x, wty - y
    local dsq = dx * dx + dy * dy

    if not (dsq <= tol_sq) then -- luacheck: ignore 581 (NaN goes on, as in ik2d)
      local ux, uy = wtx - bx, wty - by
      local distance = sqrt(ux * ux + uy * uy)
      if distance >= c.reach and distance ~= 0 and straighten(c, ux / distance, uy / distance) then
        used = 1
      else
        local dcos, dsin = c.dcos, c.dsin
        local iterations = c.iterations
        local start_sq = dsq
        for i = 1, n do run_c[i], run_s[i] = rc[i], rs[i] end
        used = iterations
        local done = false
        for iteration = 1, iterations do
          local tipx, tipy = x, y
          local before = dsq
          for i = n, 1, -1 do
            local px, py = jx[i], jy[i]
            local ax, ay = tipx - px, tipy - py
            local gx, gy = wtx - px, wty - py
            local dot = ax * gx + ay * gy
            local cross = ax * gy - ay * gx
            local norm = sqrt(dot * dot + cross * cross)
            if norm > 0 then
              local tc, ts = dot / norm, cross / norm
              if tc < dcos then
                tc = dcos
                ts = ts < 0 and -dsin or dsin
              end
              local oc, os_ = rc[i], rs[i]
              local nc, ns = oc * tc - os_ * ts, oc * ts + os_ * tc
              local limit = limited and lim[i]
              if limit then
                local mco, msi, hc, hs = mc[i], ms[i], limit.hc, limit.hs
                local rel_c, rel_s = nc * mco + ns * msi, ns * mco - nc * msi
                local abs_s = rel_s < 0 and -rel_s or rel_s
                local inside
                if limit.narrow then
                  inside = rel_c >= 0 and abs_s <= hs
                else
                  inside = rel_c >= 0 or abs_s >= hs
                end
                if not inside then
                  if rel_s < 0 then hs = -hs end
                  nc, ns = mco * hc - msi * hs, mco * hs + msi * hc
                  -- the turn actually made
                  tc, ts = nc * oc + ns * os_, ns * oc - nc * os_
                end
              end
              rc[i], rs[i] = nc, ns
              tipx, tipy = px + tc * ax - ts * ay, py + ts * ax + tc * ay
            end
            dx, dy = wtx - tipx, wty - tipy
            dsq = dx * dx + dy * dy
            if dsq <= tol_sq then
              done = true
              break
            end
          end
          if done then
            used = iteration
            break
          end
          wc, ws, x, y = bc, bs, bx, by
          for i = 1, n do
            local co, si = rc[i], rs[i]
            wc, ws = wc * co - ws * si, wc * si + ws * co
            jx[i], jy[i] = x, y
            local l = len[i]
            x, y = x + l * wc, y + l * ws
          end
          jx[n1], jy[n1] = x, y
          dx, dy = wtx - x, wty - y
          dsq = dx * dx + dy * dy
          if before - dsq <= STALL_GAIN * before then
            used = iteration
            break
          end
        end
        -- keep the best: every step gains, but rounding could lose a hair
        if not done and dsq > start_sq then
          wc, ws, x, y = bc, bs, bx, by
          for i = 1, n do
            local co, si = run_c[i], run_s[i]
            rc[i], rs[i] = co, si
            wc, ws = wc * co - ws * si, wc * si + ws * co
            jx[i], jy[i] = x, y
            local l = len[i]
            x, y = x + l * wc, y + l * ws
          end
          jx[n1], jy[n1] = x, y
        end
      end
    end
    -- a run that met numbers doubles cannot hold (NaN, zero or far from
    -- unit rotations) is dropped for the start; rotations slightly off unit
    -- length are put back on it (ik2d's solve_sane)
    for i = 1, n do
      local co, si = rc[i], rs[i]
      local norm = co * co + si * si
      if not (norm > 0.25 and norm < 4) then
        for k = 1, n do rc[k], rs[k] = start_c[k], start_s[k] end
        break
      end
      local off = norm - 1
      if off > 1e-14 or off < -1e-14 then
        norm = sqrt(norm)
        rc[i], rs[i] = co / norm, si / norm
      end
    end
    c.have = true

    -- result = pose + weight * delta
    local pose, angle, rest = c.pose, c.angle, c.rest
    for i = 1, n do
      local ik = atan2(rs[i], rc[i])
      local p = pose[i]
      local delta
      local limit = limited and lim[i]
      if limit then
        local r, mid = rest[i], limit.mid
        delta = limit_clamp(limit, ik - r) - (mid + wrap(p - r - mid))
      else
        delta = ik - p
        if delta < -PI or delta >= PI then delta = delta - TWO_PI * floor((delta + PI) / TWO_PI) end
      end
      if weight == 1 then angle[i] = p + delta else angle[i] = p + weight * delta end
    end

    if weight == 1 then
      -- the result is the IK solution: joints from the rotations, no trig
      wc, ws, x, y = bc, bs, bx, by
      for i = 1, n do
        local co, si = rc[i], rs[i]
        wc, ws = wc * co - ws * si, wc * si + ws * co
        jx[i], jy[i] = x, y
        local l = len[i]
        x, y = x + l * wc, y + l * ws
      end
      jx[n1], jy[n1] = x, y
      if c.flip then
        local bx2 = 2 * bx
        for i = 1, n1 do jx[i] = bx2 - jx[i] end
      end
    else
      update_joints(c)
    end
  else
    -- weight 0: the pose exactly, no solving work
    local pose, angle = c.pose, c.angle
    for i = 1, n do angle[i] = pose[i] end
    update_joints(c)
  end
  local dx, dy = tx - jx[n1], ty - jy[n1]
  local distance = sqrt(dx * dx + dy * dy)
  return distance <= c.tol, distance, used
end

return M
