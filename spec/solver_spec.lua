-- ik2d.solver.  For every method: mirroring (flip), degenerate geometry,
-- one-bone stretch, the tip's orientation, poles and the limited flag.
-- The CCD solver: settings, convergence, unreachable targets,
-- joint limits, weight blending, early exit, lifetime and flip.

local ik2d = require "ik2d"
local helpers = require "spec.helpers"

-- Mirroring (chain:set_flip(true), a character facing left): for every
-- method, the flipped solve of a target is the mirror image, about the
-- vertical line through the base, of the unflipped solve of the mirrored
-- target; limits and bend direction mirror with it.
do
  local pi = math.pi
  local cos, sin = math.cos, math.sin
  local EPS = 1e-9

  local BX, BY, BA = 30, -10, 0.4

  -- Targets on a 1/256 grid: then 2 * BX - x, and mirroring it back inside
  -- the solver, are exact in binary, and both solves see the same numbers
  -- (otherwise a last-bit difference can move an iteration count).
  local function grid(v)
    return math.floor(v * 256 + 0.5) / 256
  end

  -- Asymmetric limits, rest angles and lengths, so a wrong mirror shows.
  local function make_arm(method, flip)
    if method == "two_bone" then
      return ik2d.chain{ x = BX, y = BY, angle = BA, flip = flip,
        { length = 60, angle = 0.2, min = -0.9, max = 1.4 },
        { length = 45, angle = 0.6, min = -0.17, max = 2.27 } }
    end
    return ik2d.chain{ x = BX, y = BY, angle = BA, flip = flip,
      { length = 60, angle = 0.2, min = -0.9, max = 1.4 },
      { length = 50, angle = 0.6, min = -0.17, max = 2.27 },
      { length = 30, angle = -0.3 },
      { length = 20, angle = 0.1, min = -1.2, max = 0.3 } }
  end

  -- Compares the flipped chain with the mirror of the plain one.
  local function assert_mirrored(plain, flipped, what)
    for i = 1, #plain do
      assert.near(0, helpers.angle_diff(plain:angle(i), flipped:angle(i)), EPS,
                  what .. ": local angle " .. i)
      local expected = helpers.wrap(pi - plain:world_angle(i))
      assert.near(0, helpers.angle_diff(expected, flipped:world_angle(i)), EPS,
                  what .. ": world angle " .. i)
    end
    for k = 1, #plain + 1 do
      local px, py = plain:joint(k)
      local fx, fy = flipped:joint(k)
      assert.near(2 * BX - px, fx, EPS, what .. ": joint " .. k .. " x")
      assert.near(py, fy, EPS, what .. ": joint " .. k .. " y")
    end
    assert.truthy(helpers.max_violation(flipped) <= EPS, what .. ": a limit is broken")
  end

  local methods = {
    { name = "ccd", options = {} },
    { name = "ccd", label = "ccd with damping, tip-to-root sweeps, no exact step",
      options = { damping = 0.3, sweep = "tip", exact = false } },
    { name = "fabrik", options = {} },
    { name = "two_bone", label = "two_bone, bend 1", options = { bend = 1 } },
    { name = "two_bone", label = "two_bone, bend -1, softness 8", options = { bend = -1, softness = 8 } },
  }

  describe("flip", function()
    for _, m in ipairs(methods) do
      local label = m.label or m.name
      local function solvers(extra)
        local plain, flipped = make_arm(m.name, false), make_arm(m.name, true)
        local options = { method = m.name }
        for k, v in pairs(m.options) do options[k] = v end
        for k, v in pairs(extra or {}) do options[k] = v end
        return plain, flipped, ik2d.solver(plain, options), ik2d.solver(flipped, options)
      end

      describe(label, function()
        it("solving 150 random targets cold is the mirror, to 1e-9, of solving their mirrors unflipped", function()
          local rng = helpers.random(31)
          local plain, flipped, sp, sf = solvers{ warm_start = false }
          for n = 1, 150 do
            local r, a = rng.range(0, 1.2 * plain:reach()), rng.range(-pi, pi)
            local tx, ty = grid(BX + r * cos(a)), grid(BY + r * sin(a))
            for i = 1, #plain do
              local pose = rng.range(-pi, pi)
              plain:set_pose(i, pose)
              flipped:set_pose(i, pose)
            end
            sp:set_target(tx, ty)
            sf:set_target(2 * BX - tx, ty)
            local rp, dp, ip = sp:solve()
            local rf, df, iflip = sf:solve()
            assert.are.equal(rp, rf, "target " .. n)
            assert.near(dp, df, EPS)
            assert.are.equal(ip, iflip)
            assert_mirrored(plain, flipped, "target " .. n)
          end
        end)

        it("tracking a moving target warm for 300 frames stays the mirror, to 1e-9, frame by frame", function()
          local plain, flipped, sp, sf = solvers()
          local reach = plain:reach()
          for f = 1, 300 do
            local t = 0.03 * f
            local tx = grid(BX + reach * (0.5 + 0.3 * sin(2.3 * t)) * cos(t))
            local ty = grid(BY + reach * (0.5 + 0.3 * sin(2.3 * t)) * sin(t))
            sp:set_target(tx, ty)
            sf:set_target(2 * BX - tx, ty)
            local rp, dp, ip = sp:solve()
            local rf, df, iflip = sf:solve()
            assert.are.equal(rp, rf, "frame " .. f)
            assert.near(dp, df, EPS)
            assert.are.equal(ip, iflip)
            assert_mirrored(plain, flipped, "frame " .. f)
          end
        end)

        it("blends with weight 0.5 the same mirrored way", function()
          local plain, flipped, sp, sf = solvers{ weight = 0.5 }
          -- poses inside the limits (0.1 from rest is inside every range)
          for i = 1, #plain do
            plain:set_pose(i, plain:rest(i) + 0.1)
            flipped:set_pose(i, flipped:rest(i) + 0.1)
          end
          sp:set_target(BX - 40, BY + 55)
          sf:set_target(BX + 40, BY + 55)
          local _, dp = sp:solve()
          local _, df = sf:solve()
          assert.near(dp, df, EPS)
          assert_mirrored(plain, flipped, "weight 0.5")
        end)
      end)
    end

    it("mirrors the two-bone bend side: the flipped elbow lies on the mirrored side of shoulder-target", function()
      local plain, flipped = make_arm("two_bone", false), make_arm("two_bone", true)
      plain:set_constraint(1, nil)
      plain:set_constraint(2, nil)
      flipped:set_constraint(1, nil)
      flipped:set_constraint(2, nil)
      local sp = ik2d.solver(plain, { method = "two_bone", bend = 1 })
      local sf = ik2d.solver(flipped, { method = "two_bone", bend = 1 })
      local tx, ty = BX + 50, BY + 40
      sp:set_target(tx, ty)
      sf:set_target(2 * BX - tx, ty)
      sp:solve()
      sf:solve()
      local function side(arm, x, y)
        local ex, ey = arm:joint(2)
        return (x - BX) * (ey - BY) - (y - BY) * (ex - BX)
      end
      local s1, s2 = side(plain, tx, ty), side(flipped, 2 * BX - tx, ty)
      assert.truthy(s1 * s2 < 0, ("sides %g and %g"):format(s1, s2))
      assert.near(s1, -s2, 1e-9)
    end)

    it("set_flip after a solve mirrors the joints at once and keeps the local angles", function()
      local arm = make_arm("ccd", false)
      local s = ik2d.solver(arm)
      s:set_target(BX + 70, BY + 60)
      s:solve()
      local angles = helpers.angles_of(arm)
      local joints = helpers.joints_of(arm)
      arm:set_flip(true)
      for i = 1, #arm do assert.are.equal(angles[i], arm:angle(i)) end
      local mirrored = helpers.joints_of(arm)
      for k = 1, #joints, 2 do
        assert.near(2 * BX - joints[k], mirrored[k], EPS)
        assert.near(joints[k + 1], mirrored[k + 1], EPS)
      end
      -- solving the mirrored target from there changes nothing
      s:set_target(2 * BX - (BX + 70), BY + 60)
      local reached, _, iterations = s:solve()
      assert.is_true(reached)
      assert.are.equal(0, iterations)
    end)
  end)
end

-- Degenerate geometry: targets exactly on the base or
-- a joint, a tip already on the target, a tip folded onto the base,
-- every limit pinned, limits that exclude the target, chains of 1 and
-- 64 bones, lengths from 1e-6 to 1e6 in one chain, far targets.
--
-- Every case runs 1000 frames with a fixed target, for every method
-- that applies, and checks after every frame the invariants of the
-- README: angles and joints finite, limits kept (1e-9 rad), bones their
-- length (1e-9 relative), weight 0 leaves the pose bit for bit; then
-- that the result stops changing (no oscillation, no creep: the last
-- 500 frames are bit-identical), that the distance never grows from
-- frame to frame, that a stalled solve says reached = false with the
-- distance of the pose it returns, and that two fresh runs agree bit
-- for bit.
--
-- Precision floors, stated once: a joint is stored to half an ulp of its
-- coordinates, so a bone's measured length carries 4 ulps of the largest
-- coordinate around it (a 1e-6 bone at x = 1e6 is known to 1e-10, which
-- is 1e-4 of its length); an angle check carries 16 ulps of the angles
-- it subtracts.  Neither is slack for the solver.
do
  local pi, huge = math.pi, math.huge
  local abs, max, cos, sin, sqrt = math.abs, math.max, math.cos, math.sin, math.sqrt
  local smaller = math.min
  local atan2 = math.atan2 or math.atan   -- 5.4 has only the two-argument atan
  local EPS = 2 ^ -52
  local FRAMES = 1000
  local STILL = 500   -- the last STILL frames must not change at all

  local METHODS = { "ccd", "fabrik" }

  -- ------------------------------------------------------------------
  -- invariants
  -- ------------------------------------------------------------------

  local function finite(x)
    return type(x) == "number" and x == x and x ~= huge and x ~= -huge
  end

  -- |(x, y)| without the overflow of 1e200 squares or the underflow of
  -- 1e-200 ones (helpers.distance squares).
  local function hypot(x, y)
    x, y = abs(x), abs(y)
    local m = max(x, y)
    if m == 0 or m == huge or m ~= m then return m end
    x, y = x / m, y / m
    return m * sqrt(x * x + y * y)
  end

  -- Bit-for-bit equality of two numbers (0 and -0 differ, NaN equals NaN).
  local function same_bits(a, b)
    if a ~= a then return b ~= b end
    if a ~= b then return false end
    if a == 0 then return 1 / a == 1 / b end
    return true
  end

  -- How far delta = angle - rest lies outside [min, max] (or outside its
  -- complement when inverted), in the frame centred on the allowed arc.
  -- An inverted range wider than 2 pi pins the joint at the point
  -- opposite its middle.
  local function violation(delta, min, max_, invert)
    local mid, half = (min + max_) / 2, (max_ - min) / 2
    if invert then mid, half = mid + pi, pi - half end
    if half >= pi then return 0 end
    if half < 0 then half = 0 end
    local off = abs(helpers.wrap(delta - mid))
    return off > half and off - half or 0
  end

  local function pose_in_limits(arm)
    local ok = {}
    for i = 1, #arm do
      local c = arm:constraint(i)
      ok[i] = true
      if c then
        local min, max_, invert = c:limits()
        ok[i] = violation(arm:pose(i) - arm:rest(i), min, max_, invert) == 0
      end
    end
    return ok
  end

  -- Every invariant after a solve of s with the weight it has.
  local function check_invariants(s, limits_apply, where)
    local arm = s:chain()
    local n = #arm
    local weight = s:weight()
    where = where or ""
    local x0, y0 = arm:joint(1)
    assert(finite(x0) and finite(y0), where .. "base not finite")
    local scale = arm.scale and arm:scale() or 1
    assert(finite(scale) and scale >= 1, where .. "bone scale " .. tostring(scale))
    for i = 1, n do
      local a = arm:angle(i)
      assert(finite(a), ("%sbone %d: angle %s"):format(where, i, tostring(a)))
      local x1, y1 = arm:joint(i + 1)
      assert(finite(x1) and finite(y1),
             ("%sjoint %d: %s, %s"):format(where, i + 1, tostring(x1), tostring(y1)))
      local length = arm:length(i) * scale   -- a two-bone stretch scales every bone
      local d = hypot(x1 - x0, y1 - y0)
      local m = max(abs(x0), abs(y0), abs(x1), abs(y1))
      local allowed = 1e-9 * length + 4 * EPS * m + 8 * 2 ^ -1074
      assert(abs(d - length) <= allowed,
             ("%sbone %d: length %.17g, joints %.17g apart"):format(where, i, length, d))
      local c = arm:constraint(i)
      if c and (weight == 1 or limits_apply[i]) then
        local min, max_, invert = c:limits()
        local v = violation(a - arm:rest(i), min, max_, invert)
        local floor = 1e-9 + 16 * EPS * max(2 * pi, abs(a), abs(arm:rest(i)), abs(min), abs(max_))
        assert(v <= floor, ("%sbone %d: %.3g rad outside its limits"):format(where, i, v))
      end
      if weight == 0 then
        assert(same_bits(a, arm:pose(i)), ("%sbone %d: weight 0 changed the pose"):format(where, i))
      end
      x0, y0 = x1, y1
    end
    -- joints are the forward kinematics of the result angles, to the
    -- rounding of two ways of computing them (a solve with weight 1 builds
    -- them from its unit rotations), which grows with the angles' size
    local bx, by, ba = arm:base()
    local flip = arm:flip()
    local x, y, a = bx, by, ba
    local unsure, drift = 16 * EPS * (1 + abs(ba)), 0
    for i = 1, n do
      local length, angle = arm:length(i) * scale, arm:angle(i)
      a = a + angle
      x = x + length * cos(a)
      y = y + length * sin(a)
      local m = max(2 * pi, abs(angle), abs(arm:pose(i)), abs(arm:rest(i)))
      local c = arm:constraint(i)
      if c then
        local lo, hi = c:limits()
        m = max(m, abs(lo), abs(hi))
      end
      unsure = unsure + 16 * EPS * m + 64 * EPS
      drift = drift + length * (smaller(2, unsure) + 1e-12)  -- rotations renormalised past 1e-12
      local jx, jy = arm:joint(i + 1)
      local ex = flip and 2 * bx - x or x
      local allowed = drift + 8 * EPS * max(abs(jx), abs(jy), 2 * abs(bx)) + 1e-320 * i
      assert(abs(jx - ex) <= allowed and abs(jy - y) <= allowed,
             ("%sjoint %d at %.17g, %.17g; its angles put it at %.17g, %.17g")
               :format(where, i + 1, jx, jy, ex, y))
    end
    -- distance and reached describe the result
    local reached, distance = s:result()
    local tx, ty = s:target()
    local d = hypot(tx - x0, ty - y0)
    if d == huge then
      -- beyond the largest double only when it truly is
      assert(hypot(tx / 4 - x0 / 4, ty / 4 - y0 / 4) > 1.7976931348623157e308 / 4,
             where .. "distance overflowed")
      assert.are.equal(huge, distance)
    else
      assert(abs(d - distance) <= 1e-12 * d + 8 * 2 ^ -1074,
             ("%sdistance %.17g, but the tip is %.17g from the target"):format(where, distance, d))
    end
    assert.are.equal(distance <= s:tolerance(), reached)
  end

  -- ------------------------------------------------------------------
  -- frames
  -- ------------------------------------------------------------------

  local function angles(arm)
    local t = {}
    for i = 1, #arm do t[i] = arm:angle(i) end
    return t
  end

  local function same_angles(a, b)
    for i = 1, #a do
      if not same_bits(a[i], b[i]) then return false end
    end
    return true
  end

  -- Solves FRAMES times with a fixed target; checks the invariants on
  -- every frame whose result differs from the frame before (an unchanged
  -- result with the same target keeps them as it did) and on every 10th,
  -- unless quiet; returns what the frames did.
  local function run_frames(s, frames, quiet)
    local arm = s:chain()
    local limits_apply = pose_in_limits(arm)
    local previous, last_change = nil, 0
    local growths, worst_growth = 0, 0
    local last_distance, reached, distance, used
    for frame = 1, frames or FRAMES do
      reached, distance, used = s:solve()
      local now = angles(arm)
      local changed = not previous or not same_angles(previous, now)
      if changed then last_change = frame end
      if not quiet and (changed or frame % 10 == 0) then
        check_invariants(s, limits_apply, ("frame %d: "):format(frame))
      end
      previous = now
      if last_distance and distance > last_distance * (1 + 1e-12) + 1e-300 then
        growths = growths + 1
        worst_growth = max(worst_growth, distance - last_distance)
      end
      last_distance = distance
    end
    return { reached = reached, distance = distance, used = used,
             last_change = last_change, growths = growths,
             worst_growth = worst_growth, angles = previous }
  end

  -- The frame-loop assertions every case shares.
  local function assert_settles(out, frames)
    frames = frames or FRAMES
    assert(out.last_change <= frames - math.min(STILL, math.floor(frames / 2)),
           ("the result still changed at frame %d of %d"):format(out.last_change, frames))
    assert(out.growths == 0,
           ("the distance grew on %d frames (by up to %.3g)"):format(out.growths, out.worst_growth))
  end

  -- A chain from a list of lengths (or bone tables) and base fields.
  local function make_chain(bones, base)
    local t = {}
    for k, v in pairs(base or {}) do t[k] = v end
    for i, b in ipairs(bones) do
      t[i] = type(b) == "table" and b or { length = b }
    end
    return ik2d.chain(t)
  end

  local tip_distance = helpers.tip_distance

  -- Builds, solves FRAMES frames, checks invariants, settling and
  -- determinism (a second fresh run gives the same bits); returns the
  -- outcome of the first run and its solver.
  local function scenario(spec)
    local function once(quiet)
      local arm = make_chain(spec.bones, spec.base)
      if spec.prepare then spec.prepare(arm) end
      local options = { method = spec.method, iterations = spec.iterations or 10,
                        tolerance = spec.tolerance or 1e-6, weight = spec.weight or 1,
                        stretch = spec.stretch }
      local s = ik2d.solver(arm, options)
      local tx, ty = spec.target(arm)
      s:set_target(tx, ty)
      return run_frames(s, spec.frames, quiet), s
    end
    local out, s = once()
    assert_settles(out, spec.frames)
    local again = once(true)
    assert(same_angles(out.angles, again.angles), "two runs of the same inputs differ")
    assert(same_bits(out.distance, again.distance), "two runs report different distances")
    return out, s
  end

  -- ------------------------------------------------------------------
  -- cases
  -- ------------------------------------------------------------------

  local GEOMETRIC = {}            -- 1e-6, 1e-5, ..., 1e6: 13 bones
  for k = -6, 6 do GEOMETRIC[#GEOMETRIC + 1] = 10 ^ k end
  local GEOMETRIC_REACH = 0
  for _, l in ipairs(GEOMETRIC) do GEOMETRIC_REACH = GEOMETRIC_REACH + l end
  local GEOMETRIC_SHORT = 1e6 - (GEOMETRIC_REACH - 1e6)   -- nearest the tip gets to the base

  local SIXTY_FOUR = {}
  for i = 1, 64 do SIXTY_FOUR[i] = 1 + (i % 3) end   -- reach 128 + ...
  local SIXTY_FOUR_REACH = 0
  for _, l in ipairs(SIXTY_FOUR) do SIXTY_FOUR_REACH = SIXTY_FOUR_REACH + l end

  local function pinned(n, at, rest)
    local t = {}
    for i = 1, n do t[i] = { length = 10, angle = rest or 0, min = at, max = at } end
    return t
  end

  local function limited(n, min, max_)
    local t = {}
    for i = 1, n do t[i] = { length = 10, min = min, max = max_ } end
    return t
  end

  -- Each case: name, bones, base, target(arm) -> x, y, and what the end
  -- state must be: reached = true, or best = the smallest distance any
  -- pose has (reached must then be false and the distance that best),
  -- or at_least = a lower bound (a stall short of it is fine, not below).
  local CASES = {
    { name = "target exactly on the base (reachable: 60, 50, 20 folds onto it)",
      bones = { 60, 50, 20 }, target = function() return 0, 0 end, reached = true },
    { name = "target exactly on the base, unreachable (60, 20, 10: best 30)",
      bones = { 60, 20, 10 }, target = function() return 0, 0 end, best = 30 },
    { name = "target exactly on the moved base",
      bones = { 60, 20, 10 }, base = { x = -7, y = 3, angle = 2 },
      target = function() return -7, 3 end, best = 30 },
    { name = "target exactly on joint 2",
      bones = { 60, 50, 20 }, target = function(arm) return arm:joint(2) end, reached = true },
    { name = "target exactly on joint 3 of a bent pose",
      bones = { 60, 50, 20 },
      prepare = function(arm) arm:set_pose(2, 1.1) arm:set_pose(3, -0.4) end,
      target = function(arm) return arm:joint(3) end, reached = true },
    { name = "tip already on the target (zero distance)",
      bones = { 60, 50, 20 },
      prepare = function(arm) arm:set_pose(1, 0.3) arm:set_pose(2, -0.7) end,
      target = function(arm) return arm:tip() end, reached = true },
    { name = "tip folded onto the base (zero-length lever at the root)",
      bones = { 50, 50 }, prepare = function(arm) arm:set_pose(2, pi) end,
      target = function() return 30, 40 end, reached = true },
    { name = "tip folded onto the base, target on the base",
      bones = { 50, 50 }, prepare = function(arm) arm:set_pose(2, pi) end,
      target = function() return 0, 0 end, reached = true },
    { name = "every limit pinned (min == max)",
      bones = pinned(5, 0.2), target = function() return 10, 10 end, pinned = true },
    { name = "every limit pinned, off a rest angle of -pi (zigzag back onto the base)",
      bones = pinned(4, 0, -pi), target = function() return 0, 10 end, pinned = true },
    { name = "limits that exclude the target (all bones in [0, 0.1], target behind)",
      bones = limited(5, 0, 0.1), target = function() return -20, 0 end,
      at_least = 20 },
    { name = "limits that exclude the target, inverted range",
      bones = { { length = 10, min = -3, max = 3, invert = true }, 10, 10 },
      target = function() return 25, 0 end, at_least = 5 },
    { name = "an inverted range wider than 2 pi (no arc left): pinned opposite its middle",
      bones = { { length = 10, min = -4, max = 4, invert = true }, 10 },
      target = function() return 5, 5 end, at_least = 0,
      after = function(arm)
        assert(abs(helpers.wrap(arm:angle(1) - pi)) <= 1e-9, "bone 1 is not at pi")
      end },
    { name = "1 bone, target in reach", bones = { 5 },
      target = function() return 3, 4 end, reached = true },
    { name = "1 bone, target on the base", bones = { 5 },
      target = function() return 0, 0 end, best = 5 },
    { name = "1 bone, target far", bones = { 5 },
      target = function() return 30, 40 end, best = 45 },
    { name = "1 bone limited away from the target",
      bones = { { length = 5, min = 0, max = 0.5 } },
      target = function() return -3, -4 end, at_least = 5 },
    { name = "64 bones, target in reach", bones = SIXTY_FOUR,
      target = function() return 30, 40 end, reached = true, iterations = 50 },
    { name = "64 bones, target on the base", bones = SIXTY_FOUR,
      target = function() return 0, 0 end, reached = true, iterations = 50 },
    { name = "64 bones, target far", bones = SIXTY_FOUR,
      target = function() return 3 * SIXTY_FOUR_REACH, 0 end, best = 2 * SIXTY_FOUR_REACH },
    { name = "lengths 1e-6 .. 1e6 in one chain, target in reach",
      bones = GEOMETRIC, target = function() return 0, 1e6 end, reached = true,
      tolerance = 1e-3 },
    { name = "lengths 1e-6 .. 1e6 in one chain, target on the base",
      bones = GEOMETRIC, target = function() return 0, 0 end, best = GEOMETRIC_SHORT },
    { name = "lengths 1e-6 .. 1e6 in one chain, target far",
      bones = GEOMETRIC, target = function() return 0, -3e6 end, best = 3e6 - GEOMETRIC_REACH },
    { name = "lengths 1e-6 .. 1e6 in one chain, target on the 1e-6 bone's tip",
      bones = GEOMETRIC, target = function(arm) return arm:joint(2) end,
      best = GEOMETRIC_SHORT - 1e-6 },
    { name = "lengths 1e-6 .. 1e6 in one chain, target on the 1e6 bone's root",
      bones = GEOMETRIC, target = function(arm) return arm:joint(13) end,
      -- CCD may stall on a saddle with the 1e6 bone's root on the target
      -- (distance 1e6); no pose does better than the bound
      at_least = 1e6 - 2 * (GEOMETRIC_REACH - 1e6) },
    { name = "a target 1e200 away", bones = { 60, 50, 20 },
      target = function() return 1e200, 1e200 end, at_least = 1e200, points = true },
    { name = "a target 1e-300 from the base", bones = { 60, 50, 20 },
      target = function() return 1e-300, -1e-300 end, reached = true },
  }

  -- two_bone has its own set: a 2-bone chain only.
  local TWO_BONE_CASES = {
    { name = "target exactly on the base (60, 50: best 10)",
      bones = { 60, 50 }, target = function() return 0, 0 end, best = 10 },
    { name = "target exactly on the base (50, 50 folds onto it)",
      bones = { 50, 50 }, target = function() return 0, 0 end, reached = true },
    { name = "target exactly on the elbow",
      bones = { 60, 50 }, target = function(arm) return arm:joint(2) end, reached = true },
    { name = "tip already on the target",
      bones = { 60, 50 }, prepare = function(arm) arm:set_pose(2, 0.8) end,
      target = function(arm) return arm:tip() end, reached = true },
    { name = "target inside the inner dead zone (60, 20: best 40 - 15)",
      bones = { 60, 20 }, target = function() return 15, 0 end, best = 25 },
    { name = "target far (60, 20: best 500 - 80)",
      bones = { 60, 20 }, target = function() return 0, 500 end, best = 420 },
    { name = "stretch 1.5 toward a far target (60, 20 stretch to 120: best 380)",
      bones = { 60, 20 }, stretch = 1.5, target = function() return 0, 500 end, best = 380 },
    { name = "stretch 1.5 toward the base (no stretch inward: best 40)",
      bones = { 60, 20 }, stretch = 1.5, target = function() return 0, 0 end, best = 40 },
    { name = "both limits pinned",
      bones = pinned(2, 0.3), target = function() return -5, 5 end, pinned = true },
    { name = "lengths 1e-6 and 1e6",
      bones = { 1e-6, 1e6 }, target = function() return 0, 1e6 end, reached = true,
      tolerance = 1e-3 },
  }

  -- What the fuzzer found (spec/fuzz/regressions), as Lua cases: each
  -- broke an invariant once.  Only the invariants, the settling and the
  -- determinism are checked; there is no best distance to compare.
  local DBL_MAX = 1.7976931348623157e308
  local FUZZ_CASES = {
    { name = "pinned joints (min == max) along 1e6 bones, one resting at -pi",
      bones = { { length = 1, min = 0, max = 0 }, { length = 1e6, min = 0, max = 0 },
                { length = 1e6, angle = -pi, min = 0, max = 0 },
                { length = 1, min = 0, max = 0 }, { length = 1, min = 0, max = 0 } },
      target = function() return 3, 4 end },
    { name = "a 1.4e306 bone: dot products overflow",
      bones = { { length = 1e-6, angle = -pi / 4, min = 0, max = 0 },
                { length = 1.4044477616111841e306, angle = -1e6, min = 0, max = 0 }, 1, 1, 1 },
      target = function() return 0, 0 end },
    { name = "a free 1.4e306 bone and a target 1e300 away",
      bones = { 1.4044477616111841e306, 1, 1 }, target = function() return 1e300, -1e300 end },
    { name = "a 1e-300 bone: the distance must not underflow to 0",
      bones = { 1e-300 }, target = function() return 0, 0 end },
    { name = "denormal bones at rest angles of 3e11 rad",
      bones = { { length = 1.1580305859743809e-318, angle = -338385515342.82196 },
                { length = 1.1580305859743809e-318, angle = -338385515342.82196 },
                1.1580305859743809e-318,
                { length = 1.5190097687953709e-318, angle = 837890.62542791734 } },
      target = function() return 0, 0 end },
    { name = "a denormal and a 1e6 bone at a base angle of -5.8e138",
      base = { x = 4.1650030383804588e-318, y = -3.9283208907402097e-318,
               angle = -5.829973408002739e138 },
      bones = { { length = 8.8448062275202212e-163, min = 0, max = 1.2543308516094473e-309,
                  invert = true }, 1e6,
                { length = 1e6, min = 0, max = 1.2543308516094473e-309, invert = true },
                1e6, 1e6, { length = 1e6, min = 0, max = 5.6671294480768335 } },
      target = function() return 4.1650030383804588e-318, -3.9283208907402097e-318 end },
    { name = "a denormal bone next to limited ones",
      bones = { { length = 4.9406564584124654e-324, min = 0, max = 5.6671864111810173 },
                { length = 1, min = 0, max = 5.6671864111810173 },
                { length = 3.2812035891302618e-318, angle = -0.46979212760221961,
                  min = 0, max = 5.6671864111810173 },
                { length = 123, min = 0, max = 5.6671864111810173 } },
      target = function() return 0, 0 end },
    -- (limits beyond 2 pi are refused as degrees since 0.2.0: the fuzz
    -- findings at 1.8e17 and -1.24e308 rad live on at the edge of the range)
    { name = "limits pinned at 2 pi",
      bones = { { length = 1e-6, min = 2 * math.pi, max = 2 * math.pi } },
      target = function() return 0, 0 end },
    { name = "an inverted empty range at -2 pi (allows every angle)",
      bones = { { length = 1e6, min = -2 * math.pi, max = -2 * math.pi, invert = true }, 1e-6, 136 },
      target = function() return 500, 300 end },
    { name = "a target at (-DBL_MAX, -DBL_MAX), flipped",
      base = { flip = true }, bones = { 1e-6 },
      prepare = function(arm) arm:set_pose(1, 2.7966255648855682) end,
      target = function() return -DBL_MAX, -DBL_MAX end },
  }

  local function expect(case, out, s)
    local arm = s:chain()
    local tx, ty = s:target()
    if case.reached then
      assert(out.reached, ("not reached: distance %.17g"):format(out.distance))
    end
    if case.best then
      assert.is_false(out.reached)
      assert(abs(out.distance - case.best) <= 1e-9 * case.best + 1e-9,
             ("stalled at %.17g, best is %.17g"):format(out.distance, case.best))
    end
    if case.at_least then
      assert.is_false(out.reached)
      assert(out.distance >= case.at_least * (1 - 1e-12),
             ("distance %.17g below what any pose can do (%.17g)"):format(out.distance, case.at_least))
    end
    if case.pinned then
      -- nothing can move: the result is the pinned pose whatever the target
      for i = 1, #arm do
        local min = arm:constraint(i):limits()
        assert(abs(helpers.wrap(arm:angle(i) - arm:rest(i) - min)) <= 1e-9,
               ("bone %d moved off its pin"):format(i))
      end
      assert.is_false(out.reached)
      assert(abs(out.distance - tip_distance(arm, tx, ty)) <= 1e-12 * out.distance)
    end
    if case.after then case.after(arm) end
    if case.points then
      -- straight at the target: every bone along the base-to-target line
      local bx, by = arm:base()
      local bearing = atan2(ty - by, tx - bx)
      for i = 1, #arm do
        local a = arm:world_angle(i)
        assert(abs(helpers.wrap(a - bearing)) <= 1e-9,
               ("bone %d points at %.17g, the target is at %.17g"):format(i, a, bearing))
      end
    end
  end

  describe("degenerate geometry", function()
    for _, method in ipairs(METHODS) do
      describe(method, function()
        for _, case in ipairs(CASES) do
          it(case.name, function()
            local spec = setmetatable({ method = method }, { __index = case })
            local out, s = scenario(spec)
            expect(case, out, s)
          end)
        end
      end)
    end

    describe("fuzz findings", function()
      for _, case in ipairs(FUZZ_CASES) do
        local methods = { "ccd", "fabrik" }
        if #case.bones == 2 then methods[3] = "two_bone" end
        for _, method in ipairs(methods) do
          it(method .. ": " .. case.name, function()
            scenario(setmetatable({ method = method, frames = 200 }, { __index = case }))
          end)
        end
      end

      it("a NaN from a solve never reaches the warm start (base -1e308, target 1e308)", function()
        for _, method in ipairs(METHODS) do
          local arm = make_chain({ 1, 1, 1 }, { x = -1e308 })
          local s = ik2d.solver(arm, { method = method })
          s:set_target(1e308, 1)
          s:solve()
          check_invariants(s, pose_in_limits(arm))
          assert.is_true(abs(arm:world_angle(1)) < 1e-300, "the chain does not point at the target")
          -- back to an ordinary scene: the next solve must reach
          arm:set_base(0, 0, 0)
          s:set_target(1, 1)
          assert.is_true((s:solve()))
          check_invariants(s, pose_in_limits(arm))
        end
      end)
    end)

    describe("two_bone", function()
      for _, case in ipairs(TWO_BONE_CASES) do
        it(case.name, function()
          local spec = setmetatable({ method = "two_bone" }, { __index = case })
          local out, s = scenario(spec)
          expect(case, out, s)
        end)
      end
    end)

    describe("determinism across processes and paths", function()
      -- A fixed scene, every method, 20 frames each; the result as text
      -- that round-trips every double (%.17g).
      local SCENE = [[
        local ik2d = require "ik2d"
        local out = {}
        for _, method in ipairs{ "ccd", "fabrik", "two_bone" } do
          local bones = method == "two_bone" and 2 or 5
          local t = { x = 0.5, y = -0.25, angle = 0.3 }
          for i = 1, bones do
            t[i] = { length = 1 + i / 7, angle = 0.1 * i, min = i % 2 == 0 and -0.8 or nil,
                     max = i % 2 == 0 and 1.1 or nil }
          end
          local arm = ik2d.chain(t)
          local s = ik2d.solver(arm, { method = method, iterations = 7 })
          for frame = 1, 20 do
            s:set_target(2 * math.cos(frame / 3), 1 + 2 * math.sin(frame / 5))
            local reached, distance, used = s:solve()
            out[#out + 1] = ("%s %.17g %d"):format(tostring(reached), distance, used)
            for i = 1, #arm do out[#out + 1] = ("%.17g"):format(arm:angle(i)) end
            for i = 1, #arm + 1 do
              local x, y = arm:joint(i)
              out[#out + 1] = ("%.17g %.17g"):format(x, y)
            end
          end
        end
        return table.concat(out, "\n")
      ]]

      local function here()
        return assert((loadstring or load)(SCENE))()
      end

      it("gives the same bits in a fresh interpreter", function()
        local interpreter = helpers.is_luajit and "luajit" or ("lua" .. helpers.lua_version)
        local file = os.tmpname()
        local f = assert(io.open(file, "w"))
        f:write(("package.path = %q\npackage.cpath = %q\n"):format(package.path, package.cpath))
        f:write("io.write((function() " .. SCENE .. " end)())\n")
        f:close()
        local ok, out = helpers.run(interpreter .. " " .. helpers.shell_quote(file))
        os.remove(file)
        assert(ok, out)
        assert.are.equal(here(), out)
      end)

      it("gives the same bits through the FFI and the classic methods (LuaJIT)", function()
        if not (ik2d.use_ffi and ik2d.use_ffi(true)) then return end -- no FFI here
        local fast = here()
        ik2d.use_ffi(false)
        local classic = here()
        ik2d.use_ffi(true)
        assert.are.equal(fast, classic)
      end)
    end)

    describe("weights", function()
      for _, method in ipairs(METHODS) do
        it(method .. ": weight 0 leaves the pose bit for bit, on the base and far", function()
          for _, target in ipairs{ { 0, 0 }, { 1e6, -1e6 }, { 60, 0 } } do
            local arm = make_chain({ 60, { length = 50, min = -1, max = 1 }, 20 })
            arm:set_pose(1, 0.1)
            arm:set_pose(2, 2.5)      -- outside its limits: weight 0 keeps it anyway
            arm:set_pose(3, -1e-300)
            local s = ik2d.solver(arm, { method = method, weight = 0 })
            s:set_target(target[1], target[2])
            local out = run_frames(s, 50)
            assert_settles(out, 50)
            assert.is_true(same_bits(-1e-300, arm:angle(3)))
            assert.is_true(same_bits(2.5, arm:angle(2)))
          end
        end)

        it(method .. ": weight 0.5 keeps limits while the pose is inside them", function()
          local arm = make_chain({ { length = 60, min = -0.3, max = 0.3 },
                                   { length = 50, min = 0, max = 0 }, 20 })
          local s = ik2d.solver(arm, { method = method, weight = 0.5 })
          s:set_target(-40, -40)
          local out = run_frames(s)
          assert_settles(out)
        end)
      end
    end)
  end)
end

local pi = math.pi
local cos, sin, abs = math.cos, math.sin, math.abs
local EPS = 1e-9

-- Three free bones 60, 50, 20 (reach 130) at base (0, 0, 0).
local function make_arm(extra)
  local t = { x = 0, y = 0, angle = 0,
    { length = 60 }, { length = 50 }, { length = 20 } }
  for k, v in pairs(extra or {}) do t[k] = v end
  return ik2d.chain(t)
end

-- reached, distance, iterations, and the distance measured from the tip
local function solve(s)
  local reached, distance, iterations = s:solve()
  local tx, ty = s:target()
  local x, y = s:chain():tip()
  return reached, distance, iterations, helpers.distance(x, y, tx, ty)
end

local function assert_angles_near(expected, arm, eps)
  for i = 1, #arm do
    local d = helpers.angle_diff(expected[i], arm:angle(i))
    assert.near(0, d, eps or EPS)
  end
end

describe("ik2d.solver", function()
  describe("settings", function()
    it("defaults to iterations 10, tolerance 0.01, weight 1", function()
      local s = ik2d.solver(make_arm())
      assert.are.equal(10, s:iterations())
      assert.are.equal(0.01, s:tolerance())
      assert.are.equal(1, s:weight())
    end)

    it("has the chain's tip as its target until the first set_target", function()
      local arm = make_arm{ x = 5, y = -3, angle = 0.4 }
      arm:set_pose(2, 0.9)
      local s = ik2d.solver(arm)
      assert.are.same({ arm:tip() }, { s:target() })
      -- the target goes where the chain goes, so it never starts
      -- somewhere the chain has left (a base moved after creation)
      arm:set_base(100, 100, 0)
      assert.are.same({ arm:tip() }, { s:target() })
      local x, y = arm:tip()
      local reached, distance = s:solve()
      assert.is_true(reached)
      assert.are.equal(0, distance)
      assert.near(x, (arm:tip()), 1e-9)
      assert.near(y, select(2, arm:tip()), 1e-9)
      -- from the first set_target on, the target stays put
      s:set_target(7, 8)
      arm:set_base(0, 0, 0)
      assert.are.same({ 7, 8 }, { s:target() })
    end)

    it("takes iterations, tolerance and weight from the options table", function()
      local s = ik2d.solver(make_arm(), { iterations = 25, tolerance = 0.5, weight = 0.25 })
      assert.are.equal(25, s:iterations())
      assert.are.equal(0.5, s:tolerance())
      assert.are.equal(0.25, s:weight())
    end)

    it("reports what the setters set", function()
      local s = ik2d.solver(make_arm())
      s:set_target(12.5, -7.25)
      local x, y = s:target()
      assert.are.equal(12.5, x)
      assert.are.equal(-7.25, y)
      s:set_iterations(3)
      assert.are.equal(3, s:iterations())
      s:set_tolerance(0)
      assert.are.equal(0, s:tolerance())
      s:set_weight(0.3)
      assert.are.equal(0.3, s:weight())
    end)

    it("clamps set_weight to [0, 1]", function()
      local s = ik2d.solver(make_arm())
      s:set_weight(1.5)
      assert.are.equal(1, s:weight())
      s:set_weight(-0.5)
      assert.are.equal(0, s:weight())
      s:set_weight(1e300)
      assert.are.equal(1, s:weight())
    end)

    it("returns its chain, the same object each time", function()
      local arm = make_arm()
      local s = ik2d.solver(arm)
      assert.are.equal(arm, s:chain())
      assert.are.equal(s:chain(), s:chain())
    end)
  end)

  describe("reachable targets", function()
    local targets = { { 80, 60 }, { -50, 70 }, { -60, -80 }, { 100, 10 },
                      { 0, 40 }, { -90, -40 }, { 120, 20 } }
    for _, t in ipairs(targets) do
      it(("converges to (%g, %g) within tolerance in at most 10 iterations"):format(t[1], t[2]), function()
        local arm = make_arm()
        local s = ik2d.solver(arm)
        s:set_target(t[1], t[2])
        local reached, distance, iterations, measured = solve(s)
        assert.is_true(reached)
        assert.truthy(measured <= 0.01, "tip is " .. measured .. " from the target")
        assert.near(measured, distance, EPS)
        assert.truthy(iterations >= 1 and iterations <= 10, "iterations " .. iterations)
        assert.truthy(helpers.fk_error(arm) <= EPS)
      end)
    end

    it("converges to 300 random reachable targets (iterations 100), distance always measured", function()
      local rng = helpers.random(20240611)
      local arm = make_arm{ x = 3, y = -8 }
      local s = ik2d.solver(arm, { iterations = 100 })
      for n = 1, 300 do
        local r, a = rng.range(20, 120), rng.range(-pi, pi)
        s:set_target(3 + r * cos(a), -8 + r * sin(a))
        local reached, distance, _, measured = solve(s)
        assert.truthy(reached, ("target %d (r %.3f, a %.3f): not reached, distance %.6g")
                               :format(n, r, a, distance))
        assert.truthy(measured <= 0.01)
        assert.near(measured, distance, EPS)
      end
    end)

    it("stops as soon as the tip is within a loose tolerance", function()
      local arm = make_arm()
      local s = ik2d.solver(arm, { tolerance = 40 })
      s:set_target(80, 60)
      local reached, distance, iterations, measured = solve(s)
      assert.is_true(reached)
      assert.are.equal(1, iterations)
      assert.truthy(distance <= 40)
      assert.near(measured, distance, EPS)
    end)

    it("never writes the pose", function()
      local arm = make_arm()
      arm:set_pose(1, 0.2)
      arm:set_pose(2, -0.4)
      local before = helpers.poses_of(arm)
      local s = ik2d.solver(arm)
      s:set_target(-50, 70)
      s:solve()
      assert.are.same(before, helpers.poses_of(arm))
    end)
  end)

  describe("unreachable targets", function()
    -- base (10, 20, 0.7), rest angles 0.3, -0.7, 1.1, so nothing is
    -- straight to begin with
    local function bent_arm()
      return ik2d.chain{ x = 10, y = 20, angle = 0.7,
        { length = 60, angle = 0.3 }, { length = 50, angle = -0.7 },
        { length = 20, angle = 1.1 } }
    end

    local function assert_straight_at(arm, tx, ty)
      local bx, by = arm:base()
      local d = helpers.distance(bx, by, tx, ty)
      local dx, dy = (tx - bx) / d, (ty - by) / d
      for i = 1, #arm do
        local x1, y1 = arm:joint(i)
        local x2, y2 = arm:joint(i + 1)
        local l = helpers.distance(x1, y1, x2, y2)
        local ux, uy = (x2 - x1) / l, (y2 - y1) / l
        local cross, dot = ux * dy - uy * dx, ux * dx + uy * dy
        assert.truthy(abs(cross) <= EPS and dot > 0,
                      ("bone %d: cross %.3g, dot %.3g against the target direction")
                      :format(i, cross, dot))
      end
    end

    -- the rest tip, and a target straight behind the base, opposite the
    -- tip: the case where the first CCD turn is a half turn
    local rest = helpers.fk(10, 20, 0.7, { 60, 50, 20 }, { 0.3, -0.7, 1.1 })
    local rtx, rty = rest[7], rest[8]
    local rd = helpers.distance(10, 20, rtx, rty)
    local cases = { { 300, 20 }, { 10, -400 }, { -200, -150 }, { 150, 150 },
                    { 10 - 200 * (rtx - 10) / rd, 20 - 200 * (rty - 20) / rd } }
    for _, t in ipairs(cases) do
      local tx, ty = t[1], t[2]
      it(("points the chain straight at (%.4g, %.4g), reached false, distance |t - base| - reach")
         :format(tx, ty), function()
        local arm = bent_arm()
        local s = ik2d.solver(arm)
        s:set_target(tx, ty)
        local reached, distance, _, measured = solve(s)
        assert.is_false(reached)
        assert_straight_at(arm, tx, ty)
        assert.near(helpers.distance(10, 20, tx, ty) - 130, distance, EPS)
        assert.near(measured, distance, EPS)
      end)

      it(("gives the same result when solving (%.4g, %.4g) again: no oscillation"):format(tx, ty), function()
        local arm = bent_arm()
        local s = ik2d.solver(arm)
        s:set_target(tx, ty)
        local _, first = s:solve()
        local angles = helpers.angles_of(arm)
        for _ = 1, 5 do
          local reached, distance = s:solve()
          assert.is_false(reached)
          assert.near(first, distance, EPS)
          assert_angles_near(angles, arm, EPS)
        end
      end)
    end

    it("is just as straight one unit beyond reach", function()
      local arm = bent_arm()
      local s = ik2d.solver(arm)
      local tx, ty = 10 + 131 * cos(2), 20 + 131 * sin(2)
      s:set_target(tx, ty)
      local reached, distance = s:solve()
      assert.is_false(reached)
      assert_straight_at(arm, tx, ty)
      assert.near(1, distance, EPS)
    end)
  end)

  describe("joint limits", function()
    -- rest angles and ranges chosen so that allowed arcs cross 0, pi
    -- and -pi: bone 3 may lie in 2.4..3.8, bone 4 in -3.5..-1.0
    local function limited_arm()
      return ik2d.chain{
        { length = 40, angle = 0.2, min = -0.8, max = 0.8 },
        { length = 35, angle = 0.5, min = -0.17, max = 2.27 },
        { length = 25, angle = 3.0, min = -0.6, max = 0.8 },
        { length = 15, angle = -2.0, min = -1.5, max = 1.0 } }
    end

    it("are never exceeded over 500 random targets while the base moves and rotates", function()
      local rng = helpers.random(7)
      local arm = limited_arm()
      local s = ik2d.solver(arm)
      local base_angle = 0
      for n = 1, 500 do
        base_angle = base_angle + 0.37
        local bx, by = rng.range(-100, 100), rng.range(-100, 100)
        arm:set_base(bx, by, base_angle)
        local r, a = rng.range(0, 150), rng.range(-pi, pi)
        s:set_target(bx + r * cos(a), by + r * sin(a))
        local reached, distance, _, measured = solve(s)
        local v, bone = helpers.max_violation(arm)
        assert.truthy(v <= EPS, ("target %d: bone %s is %.3g rad past its limit")
                                :format(n, tostring(bone), v))
        assert.near(measured, distance, EPS)
        assert.are.equal(measured <= s:tolerance(), reached)
        assert.truthy(helpers.fk_error(arm) <= EPS)
      end
    end)

    it("are never exceeded for an inverted range over 300 random targets", function()
      local rng = helpers.random(99)
      local arm = ik2d.chain{ { length = 50 }, { length = 40, angle = 1.5 }, { length = 20 } }
      arm:set_constraint(2, ik2d.constraint{ min = -0.5, max = 0.5, invert = true })
      arm:set_pose(2, 1.5 + 1.0) -- start in the allowed part
      local s = ik2d.solver(arm)
      for n = 1, 300 do
        arm:set_base(0, 0, rng.range(-pi, pi))
        local r, a = rng.range(0, 120), rng.range(-pi, pi)
        s:set_target(r * cos(a), r * sin(a))
        s:solve()
        local v = helpers.max_violation(arm, { [2] = true })
        assert.truthy(v <= EPS, ("target %d: bone 2 is %.3g rad inside the excluded range")
                                :format(n, v))
      end
    end)

    it("follow a rotated base: a frozen first bone stays at its rest angle", function()
      local arm = ik2d.chain{ x = 0, y = 0, angle = 2.0,
        { length = 60, angle = 0.5, min = 0, max = 0 }, { length = 50 } }
      local s = ik2d.solver(arm)
      s:set_target(-80, 20)
      s:solve()
      assert.near(0, helpers.angle_diff(0.5, arm:angle(1)), EPS)
      assert.near(0, helpers.angle_diff(2.5, arm:world_angle(1)), EPS)
    end)

    it("follow a rotated parent: the elbow's range stays relative to bone 1", function()
      local arm = ik2d.chain{
        { length = 60 }, { length = 50, min = 0.5, max = 1.0 } }
      local s = ik2d.solver(arm, { iterations = 50 })
      local rng = helpers.random(3)
      for _ = 1, 100 do
        s:set_target(rng.range(-110, 110), rng.range(-110, 110))
        s:solve()
        local elbow = helpers.angle_diff(arm:world_angle(1), arm:world_angle(2))
        assert.truthy(elbow >= 0.5 - EPS and elbow <= 1.0 + EPS, "elbow at " .. elbow)
      end
    end)
  end)

  describe("weight", function()
    local function posed_arm()
      local arm = make_arm{ x = 4, y = 6, angle = 0.1 }
      arm:set_pose(1, 0.3)
      arm:set_pose(2, -0.2)
      arm:set_pose(3, 0.15)
      return arm
    end

    it("0 leaves the result exactly at the pose, with no iterations", function()
      local arm = posed_arm()
      arm:set_pose(2, 0.123456789)
      local joints = helpers.joints_of(arm)
      local s = ik2d.solver(arm, { weight = 0 })
      s:set_target(-60, 80)
      local reached, distance, iterations, measured = solve(s)
      for i = 1, 3 do assert.are.equal(arm:pose(i), arm:angle(i)) end
      assert.are.equal(0, iterations)
      assert.is_false(reached)
      assert.near(measured, distance, EPS)
      local after = helpers.joints_of(arm)
      for k = 1, #joints do assert.near(joints[k], after[k], 1e-12) end
    end)

    it("0 after a weight-1 solve puts the result back on the pose", function()
      local arm = posed_arm()
      local s = ik2d.solver(arm)
      s:set_target(-60, 80)
      assert.is_true((s:solve()))
      s:set_weight(0)
      s:solve()
      for i = 1, 3 do assert.are.equal(arm:pose(i), arm:angle(i)) end
    end)

    it("0.5 gives pose + 0.5 * (ik - pose), ik from a weight-1 solver with the same start", function()
      local full, half = posed_arm(), posed_arm()
      local s1 = ik2d.solver(full)
      local s5 = ik2d.solver(half, { weight = 0.5 })
      s1:set_target(-60, 80)
      s5:set_target(-60, 80)
      assert.is_true((s1:solve()))
      local reached, distance, _, measured = solve(s5)
      for i = 1, 3 do
        local pose = half:pose(i)
        local expected = pose + 0.5 * helpers.angle_diff(pose, full:angle(i))
        assert.near(0, helpers.angle_diff(expected, half:angle(i)), EPS)
      end
      -- half way is not at the target, and says so
      assert.is_false(reached)
      assert.near(measured, distance, EPS)
    end)

    it("0.5 blends along the shortest way round (pose 3.0, ik -3.0 -> pi)", function()
      local arm = ik2d.chain{ { length = 10 } }
      arm:set_pose(1, 3.0)
      local s = ik2d.solver(arm, { weight = 0.5 })
      s:set_target(10 * cos(-3.0), 10 * sin(-3.0))
      s:solve()
      assert.near(0, helpers.angle_diff(pi, arm:angle(1)), EPS)
    end)

    it("0.5 solved 20 times gives the same result each time: no creeping", function()
      local arm = posed_arm()
      local s = ik2d.solver(arm, { weight = 0.5 })
      s:set_target(-60, 80)
      local _, first_distance = s:solve()
      local first = helpers.angles_of(arm)
      for n = 1, 20 do
        local _, distance = s:solve()
        for i = 1, 3 do
          local d = helpers.angle_diff(first[i], arm:angle(i))
          assert.truthy(abs(d) <= 1e-12, ("solve %d: bone %d moved by %.3g"):format(n, i, d))
        end
        assert.near(first_distance, distance, 1e-12)
      end
    end)

    it("1 converges after solving at 0.5", function()
      local arm = posed_arm()
      local s = ik2d.solver(arm, { weight = 0.5 })
      s:set_target(-60, 80)
      s:solve()
      s:set_weight(1)
      local reached, distance, _, measured = solve(s)
      assert.is_true(reached)
      assert.truthy(measured <= 0.01)
      assert.near(measured, distance, EPS)
    end)
  end)

  describe("early exit", function()
    it("returns iterations == 0 when solving again at a reached target", function()
      local arm = make_arm()
      local s = ik2d.solver(arm)
      s:set_target(80, 60)
      local reached, distance, iterations = s:solve()
      assert.is_true(reached)
      assert.truthy(iterations >= 1)
      local angles = helpers.angles_of(arm)
      local again, distance2, iterations2 = s:solve()
      assert.is_true(again)
      assert.are.equal(0, iterations2)
      assert.near(distance, distance2, 1e-12)
      assert_angles_near(angles, arm, 1e-12)
    end)

    it("returns iterations == 0 for a new solver at its default target", function()
      local arm = make_arm()
      arm:set_pose(2, 1)
      local s = ik2d.solver(arm)
      local reached, distance, iterations = s:solve()
      assert.is_true(reached)
      assert.are.equal(0, iterations)
      assert.near(0, distance, 1e-12)
      assert.are.equal(1, arm:angle(2))
    end)
  end)

  describe("lifetime", function()
    it("keeps its chain alive after the chain variable is dropped", function()
      local s
      do
        local arm = make_arm()
        s = ik2d.solver(arm)
      end
      collectgarbage()
      collectgarbage()
      for _ = 1, 1000 do local _ = {} end
      s:set_target(80, 60)
      local reached, distance, _, measured = solve(s)
      assert.is_true(reached)
      assert.near(measured, distance, EPS)
      assert.are.equal(3, #s:chain())
      assert.are.equal(130, s:chain():reach())
    end)

    it("a chain keeps a constraint alive after its variable is dropped", function()
      local arm = make_arm()
      arm:set_constraint(2, ik2d.constraint{ min = -0.25, max = 0.25 })
      collectgarbage()
      collectgarbage()
      local min, max = arm:constraint(2):limits()
      assert.are.equal(-0.25, min)
      assert.are.equal(0.25, max)
      local s = ik2d.solver(arm)
      s:set_target(-20, 60)
      s:solve()
      assert.truthy(helpers.max_violation(arm) <= EPS)
    end)
  end)

  describe("flip", function()
    -- asymmetric limits and rest angles, so a wrong mirror shows
    local function arm_at(flip)
      return ik2d.chain{ x = 30, y = -10, angle = 0.4, flip = flip,
        { length = 60, angle = 0.2, min = -0.5, max = 1.2 },
        { length = 50, angle = 0.6, min = -0.17, max = 2.27 },
        { length = 20, angle = -0.3 } }
    end

    local targets = { { 90, 50 }, { -20, 70 }, { 40, -80 }, { 200, 30 }, { -150, -10 } }
    for _, t in ipairs(targets) do
      it(("solving (%g, %g) flipped is the mirror of solving (%g, %g) unflipped")
         :format(60 - t[1], t[2], t[1], t[2]), function()
        local plain, flipped = arm_at(false), arm_at(true)
        local sp, sf = ik2d.solver(plain), ik2d.solver(flipped)
        sp:set_target(t[1], t[2])
        sf:set_target(2 * 30 - t[1], t[2])
        local rp, dp, ip = sp:solve()
        local rf, df, iflip = sf:solve()
        assert.are.equal(rp, rf)
        assert.near(dp, df, EPS)
        assert.are.equal(ip, iflip)
        for i = 1, 3 do
          assert.near(0, helpers.angle_diff(plain:angle(i), flipped:angle(i)), EPS)
        end
        for i = 1, 4 do
          local px, py = plain:joint(i)
          local fx, fy = flipped:joint(i)
          assert.near(2 * 30 - px, fx, EPS)
          assert.near(py, fy, EPS)
        end
        assert.truthy(helpers.max_violation(flipped) <= EPS)
      end)
    end
  end)
end)

-- Effector controls of every method: one-bone stretch and compress, the
-- tip's orientation, poles, and the limited flag.
local sqrt = math.sqrt
local wrap = helpers.wrap

local function limb(extra) return helpers.limb(ik2d, extra) end

local function arm3(extra)
  local t = { x = 0, y = 0, { length = 40 }, { length = 35 }, { length = 25 } }
  for k, v in pairs(extra or {}) do t[k] = v end
  return ik2d.chain(t)
end

-- which side of the line from (ax, ay) to (bx, by) the point is on
local function side(ax, ay, bx, by, px, py)
  return (bx - ax) * (py - ay) - (by - ay) * (px - ax)
end

describe("one-bone stretch and compress", function()
  it("scales the bone up toward a target beyond reach, at most by stretch", function()
    local arm = ik2d.chain { { length = 10 } }
    local s = ik2d.solver(arm, { stretch = 2 })
    s:set_target(15, 0)
    assert.is_true((s:solve()))
    assert.near(1.5, arm:scale(), 1e-12)
    s:set_target(0, 40)
    s:solve()
    assert.near(2, arm:scale(), 1e-12)
    local x, y = arm:tip()
    assert.near(0, x, 1e-9)
    assert.near(20, y, 1e-9)
  end)

  it("scales it down toward a nearer target, at least to compress", function()
    local arm = ik2d.chain { { length = 10 } }
    local s = ik2d.solver(arm, { compress = 0.25 })
    s:set_target(5, 0)
    assert.is_true((s:solve()))
    assert.near(0.5, arm:scale(), 1e-12)
    s:set_target(1, 0)
    s:solve()
    assert.near(0.25, arm:scale(), 1e-12)
    s:set_target(30, 0)
    s:solve()
    assert.are.equal(1, arm:scale())
  end)

  it("blends the scale with the weight", function()
    local arm = ik2d.chain { { length = 10 } }
    local s = ik2d.solver(arm, { stretch = 4, weight = 0.5 })
    s:set_target(30, 0)
    s:solve()
    assert.near(2, arm:scale(), 1e-12)
  end)

  it("marks the chain uniform when the solver asks for it (sprites scale both axes)", function()
    local arm = ik2d.chain { { length = 10 } }
    local s = ik2d.solver(arm, { stretch = 2, uniform = true })
    assert.is_false(arm:uniform())
    s:set_target(15, 0)
    s:solve()
    assert.is_true(arm:uniform())
  end)
end)

describe("tip orientation", function()
  local methods = { { "ccd", arm3 }, { "fabrik", arm3 }, { "two_bone", limb } }
  for _, case in ipairs(methods) do
    local method, make = case[1], case[2]
    for _, flip in ipairs { false, true } do
      it(("%s%s: the last bone points along the angle and the tip is on the target")
         :format(method, flip and ", flipped" or ""), function()
        local arm = make { flip = flip }
        local bx, by = arm:base()
        local s = ik2d.solver(arm, { method = method, iterations = 30, tolerance = 1e-6 })
        local rng = helpers.random(method == "ccd" and 1 or 2)
        local last = arm:length(#arm)
        for _ = 1, 40 do
          -- the last joint where the other bones reach (a 1-bone rest
          -- reaches a circle), the tip one last bone along the angle
          local a, h = rng.range(-pi, pi), rng.range(-pi, pi)
          local r = #arm == 2 and arm:length(1) or rng.range(0.3, 0.8) * (arm:reach() - last)
          local tx, ty = bx + r * cos(h) + last * cos(a), by + r * sin(h) + last * sin(a)
          s:set_tip_angle(a)
          s:set_target(tx, ty)
          local reached = s:solve()
          assert.is_true(reached)
          assert.near(0, wrap(arm:world_angle(#arm) - a), 1e-9)
          assert.near(0, helpers.tip_distance(arm, tx, ty), 1e-6)
        end
      end)
    end
  end

  it("reads back and clears", function()
    local s = ik2d.solver(arm3())
    assert.is_nil(s:tip_angle())
    s:set_tip_angle(0.5)
    assert.are.same({ 0.5, 1 }, { s:tip_angle() })
    s:set_tip_angle(-1, 0.25)
    assert.are.same({ -1, 0.25 }, { s:tip_angle() })
    s:clear_tip_angle()
    assert.is_nil(s:tip_angle())
    s:set_options { tip_angle = 2, tip_weight = 0.5 }
    assert.are.same({ 2, 0.5 }, { s:tip_angle() })
    s:set_options { tip_angle = false }
    assert.is_nil(s:tip_angle())
  end)

  it("with weight 0.5 points halfway between the free direction and the angle, the tip on target", function()
    -- a target where the other bones reach the last joint whatever the
    -- direction: |target| +- 25 within 5..75
    local arm = arm3()
    local free = ik2d.solver(arm3(), { iterations = 30, tolerance = 1e-6 })
    free:set_target(20, 30)
    free:solve()
    local free_dir = free:chain():world_angle(3)
    local s = ik2d.solver(arm, { iterations = 30, tolerance = 1e-6 })
    s:set_target(20, 30)
    s:set_tip_angle(free_dir + 1, 0.5)
    assert.is_true((s:solve()))
    assert.near(0, wrap(arm:world_angle(3) - (free_dir + 0.5)), 1e-6)
  end)

  -- the joints of a chain, flat: x1, y1, x2, y2, ...
  local function joints_of(arm)
    local t = {}
    for i = 1, #arm + 1 do
      local x, y = arm:joint(i)
      t[#t + 1], t[#t + 1] = x, y
    end
    return t
  end

  -- the largest distance a joint moved between two joint lists
  local function largest_move(a, b)
    local most = 0
    for i = 1, #a, 2 do
      most = math.max(most, sqrt((a[i] - b[i]) ^ 2 + (a[i + 1] - b[i + 1]) ^ 2))
    end
    return most
  end

  -- a 3-bone chain whose pose sits far from the solution: the other bones
  -- can reach the last joint in more than one way from there
  local function bent3()
    return ik2d.chain { x = 0, y = 0, { length = 40, angle = 1.3 }, { length = 30, angle = -2.4 },
      { length = 20, angle = 1.9 } }
  end

  for _, method in ipairs { "ccd", "fabrik", "follow" } do
    it(method .. ": a tip angle of weight 0 gives the bits of the solve with no tip angle", function()
      local free, zero = bent3(), bent3()
      local sf = ik2d.solver(free, { method = method })
      local sz = ik2d.solver(zero, { method = method })
      sz:set_tip_angle(2.5, 0)
      for frame = 1, 5 do
        sf:set_target(20 + 4 * frame, 45 - 3 * frame)
        sz:set_target(20 + 4 * frame, 45 - 3 * frame)
        sf:solve()
        sz:solve()
        local a, b = joints_of(free), joints_of(zero)
        for i = 1, #a do assert.are.equal(a[i], b[i]) end
      end
    end)

    it(method .. ": a tip angle of weight 1e-6 leaves the joints within 0.01 of the free solve", function()
      local free, tiny = bent3(), bent3()
      local sf = ik2d.solver(free, { method = method })
      local st = ik2d.solver(tiny, { method = method })
      st:set_tip_angle(2.5, 1e-6)
      sf:set_target(30, 50)
      st:set_target(30, 50)
      sf:solve()
      st:solve()
      assert.is_true(largest_move(joints_of(free), joints_of(tiny)) < 0.01)
    end)

    it(method .. ": a tip weight blended from 1 to 0 over 100 frames, then cleared, moves no "
       .. "joint more than 2 a frame", function()
      local arm = bent3()
      local s = ik2d.solver(arm, { method = method })
      s:set_target(30, 50)
      local last
      for frame = 0, 100 do
        s:set_tip_angle(2.5, 1 - frame / 100)
        s:solve()
        local now = joints_of(arm)
        if last then assert.is_true(largest_move(last, now) < 2, "frame " .. frame) end
        last = now
      end
      s:clear_tip_angle()
      s:solve()
      assert.is_true(largest_move(last, joints_of(arm)) < 1e-9)
    end)
  end

  -- a leg: thigh, shin, a foot at right angles to the shin
  local function leg(ankle_min, ankle_max)
    return ik2d.chain { x = 0, y = 0, angle = pi / 2, { length = 40 }, { length = 38 },
      { length = 15, angle = -pi / 2, min = ankle_min, max = ankle_max } }
  end

  it("with a weight below 1 gives the same direction frame after frame (the free solve starts "
     .. "from the pose, not the warm start)", function()
    local arm = leg(-3, 3)
    local s = ik2d.solver(arm, { tip_angle = 0, tip_weight = 0.5, iterations = 20, tolerance = 1e-6 })
    s:set_target(20, 70)
    s:solve()
    local first = arm:world_angle(3)
    for _ = 1, 5 do
      s:solve()
      assert.are.equal(first, arm:world_angle(3))
    end
    local cold = ik2d.solver(leg(-3, 3), { tip_angle = 0, tip_weight = 0.5, iterations = 20,
                                          tolerance = 1e-6, warm_start = false })
    cold:set_target(20, 70)
    cold:solve()
    assert.are.equal(first, cold:chain():world_angle(3))
  end)

  it("with a weight below 1 and a pole, bends the other bones toward the pole, not the last; "
     .. "limited only for the answer", function()
    for _, ankle in ipairs { { -1.6, 1 }, { -3, 3 } } do
      local arm = leg(ankle[1], ankle[2])
      local plain = leg(ankle[1], ankle[2])
      local options = { tip_angle = 0, tip_weight = 0.5, iterations = 20, tolerance = 1e-6 }
      local s, p = ik2d.solver(arm, options), ik2d.solver(plain, options)
      s:set_pole(60, 40)
      s:set_target(20, 70)
      p:set_target(20, 70)
      local reached, _, _, limited = s:solve()
      p:solve()
      assert.is_true(reached)
      assert.is_false(limited)
      -- the last bone as without the pole: the pole does not pick its direction
      assert.near(0, wrap(arm:world_angle(3) - plain:world_angle(3)), 1e-9)
      -- the knee on the pole's side of the hip-to-ankle line
      local hx, hy = arm:joint(1)
      local kx, ky = arm:joint(2)
      local ax, ay = arm:joint(3)
      local knee_side = (ax - hx) * (ky - hy) - (ay - hy) * (kx - hx)
      local pole_side = (ax - hx) * (40 - hy) - (ay - hy) * (60 - hx)
      assert.is_true(knee_side * pole_side > 0)
    end
  end)

  it("keeps the nearest allowed direction when the last bone's limits forbid the angle, and says so", function()
    local arm = arm3()
    arm:set_constraint(3, ik2d.constraint { min = -0.3, max = 0.3 })
    local s = ik2d.solver(arm, { iterations = 30, tolerance = 1e-6 })
    s:set_target(60, 20)
    s:set_tip_angle(pi / 2)
    local reached, _, _, limited = s:solve()
    assert.is_true(limited)
    assert.truthy(abs(arm:angle(3)) <= 0.3 + 1e-9)
    assert.is_true(reached)
  end)
end)

describe("poles", function()
  it("two_bone takes the bend side facing the pole, over bend", function()
    for _, bend in ipairs { 1, -1 } do
      for _, pole_y in ipairs { 400, 0 } do
        local arm = limb()
        local s = ik2d.solver(arm, { method = "two_bone", bend = bend, pole = { 150, pole_y } })
        s:set_target(180, 200)
        s:solve()
        local ex, ey = arm:joint(2)
        assert.truthy(side(100, 200, 180, 200, ex, ey) * side(100, 200, 180, 200, 150, pole_y) > 0)
        assert.near(0, helpers.tip_distance(arm, 180, 200), 1e-9)
      end
    end
  end)

  for _, method in ipairs { "ccd", "fabrik" } do
    it(method .. " draws the middle joints to the pole's side while the tip still reaches", function()
      for _, pole in ipairs { { 30, 80 }, { 30, -80 } } do
        local arm = arm3()
        local s = ik2d.solver(arm, { method = method, iterations = 30, tolerance = 1e-6 })
        s:set_pole(pole[1], pole[2])
        s:set_target(60, 5)
        assert.is_true((s:solve()))
        for j = 2, 3 do
          local x, y = arm:joint(j)
          assert.truthy(side(0, 0, 60, 5, x, y) * side(0, 0, 60, 5, pole[1], pole[2]) >= 0,
                        ("joint %d on the wrong side"):format(j))
        end
        assert.truthy(helpers.tip_distance(arm, 60, 5) <= 1e-6)
      end
    end)
  end

  it("says limited when a limit forbids the pole's side", function()
    local arm = limb()
    arm:set_constraint(2, ik2d.constraint { min = 0, max = 2.5 })
    local s = ik2d.solver(arm, { method = "two_bone", pole = { 150, 400 } })
    s:set_target(170, 200)
    local _, _, _, limited = s:solve()
    assert.is_true(limited)
    assert.truthy(arm:angle(2) >= -1e-9)
    assert.are.same({ s:solve() }, { s:result() })
  end)

  it("reads back and clears", function()
    local s = ik2d.solver(arm3())
    assert.is_nil(s:pole())
    s:set_pole(3, 4)
    assert.are.same({ 3, 4 }, { s:pole() })
    s:clear_pole()
    assert.is_nil(s:pole())
    s:set_options { pole = { x = 5, y = 6 } }
    assert.are.same({ 5, 6 }, { s:pole() })
    assert.are.same({ 5, 6 }, s:options().pole)
    s:set_options { pole = false }
    assert.is_false(s:options().pole)
  end)
end)

describe("the limited flag", function()
  it("is false with no limit in the way, true when a joint ends on its limit", function()
    local arm = arm3()
    local s = ik2d.solver(arm, { iterations = 30 })
    s:set_target(40, 40)
    assert.is_false(select(4, s:solve()))
    arm:set_constraint(1, ik2d.constraint { min = -0.1, max = 0.1 })
    s:set_target(0, 80)
    local _, _, _, limited = s:solve()
    assert.is_true(limited)
    assert.is_true(select(4, s:result()))
  end)

  it("is false with weight 0", function()
    local arm = arm3()
    arm:set_constraint(1, ik2d.constraint { min = 0, max = 0 })
    local s = ik2d.solver(arm, { weight = 0 })
    s:set_target(0, 80)
    assert.is_false(select(4, s:solve()))
  end)
end)

describe("ik2d.Solver: the target follows the tip until set, a tail call's argument numbered", function()
  local PATHS = helpers.ffi_paths(ik2d)
  local function three_bones() return helpers.three_bones(ik2d) end
  local message = helpers.error_of
  after_each(function() ik2d.use_ffi(true) end)

  for _, on in ipairs(PATHS) do
    describe("on each path" .. helpers.path_name(PATHS, on), function()
      before_each(function() ik2d.use_ffi(on) end)

      it("a solver's target is its chain's tip until the first set_target", function()
        local arm = three_bones()
        local s = ik2d.solver(arm)
        local function at_tip()
          local x, y = s:target()
          local tx, ty = arm:tip()
          return x == tx and y == ty, x, y
        end
        assert.is_true((at_tip()))
        assert.are.same({ 7, 2 }, { s:target() })
        arm:set_base(100, -50, pi / 2)
        assert.is_true((at_tip()))
        local x, y = s:target()
        assert.truthy(math.abs(x - 100) < 1e-12 and math.abs(y - -44) < 1e-12)
        arm:set_pose(2, 0.5)
        assert.is_true((at_tip()))
        local reached, distance, iterations = s:solve()
        assert.is_true(reached)
        assert.are.equal(0, distance)
        assert.are.equal(0, iterations)
        assert.is_true((at_tip()))
        -- set: it stays where it was put
        s:set_target(3, 4)
        arm:set_base(0, 0, 0)
        arm:set_pose(1, 1)
        assert.are.same({ 3, 4 }, { s:target() })
        s:solve()
        assert.are.same({ 3, 4 }, { s:target() })
      end)

      it("a tail call (return s:set_target(nil)) in a function called from Lua reports #1", function()
        local s = ik2d.solver(three_bones())
        local function set(x) return s:set_target(x) end
        local function frame() local r = set(nil) return r end
        local msg = message(frame)
        assert.are.equal("bad argument #1 to 'set_target' (number expected, got nil)", msg:match(": (bad.*)$"))
        local function set_y(x) return s:set_target(x, nil) end
        local function frame_y() local r = set_y(1) return r end
        assert.are.equal("bad argument #2 to 'set_target' (number expected, got nil)",
                         message(frame_y):match(": (bad.*)$"))
      end)

      if helpers.is_luajit then
        pending("a tail call made straight from pcall (pcall(function() return s:set_target(nil) end)) "
                .. "reports #2 under LuaJIT: LuaJIT keeps no call site for it, exactly as for "
                .. "pcall(s.set_target, s, nil), where #2 is right (Lua 5.4 reports #1)")
      else
        it("a tail call made straight from pcall reports #1 too", function()
          local s = ik2d.solver(three_bones())
          local ok, msg = pcall(function() return s:set_target(nil) end)
          assert.is_false(ok)
          if ik2d.backend == "lua" then
            -- a Lua function reached by a tail call has no caller frame left
            -- (a C function keeps it): no "file:line:", as Lua's own
            -- error(message, 2) from there gives none
            assert.are.equal("bad argument #1 to 'set_target' (number expected, got nil)", msg)
          else
            assert.are.equal("bad argument #1 to 'set_target' (number expected, got nil)",
                             msg:match(": (bad.*)$"))
          end
        end)
      end
    end)
  end
end)

-- A stand-in for a global variable holding an ik2d method: the call site
-- reads it from the environment (a chunk of its own, so that luacheck
-- sees no global).
local function global_call(name, value, source)
  rawset(_G, name, value)
  local chunk = assert((loadstring or load)(source, "=global_call"))
  local ok, msg = pcall(chunk)
  rawset(_G, name, nil)
  assert(not ok, "expected an error, the call returned")
  return tostring(msg)
end

describe("ik2d.Solver's messages: self is #1 through a variable of another name", function()
  local PATHS = helpers.ffi_paths(ik2d, true)
  local function three_bones() return helpers.three_bones(ik2d) end
  local caller_error = helpers.caller_error
  after_each(function() ik2d.use_ffi(true) end)

  for _, on in ipairs(PATHS) do
    describe("on each path" .. helpers.path_name(PATHS, on), function()
      before_each(function() ik2d.use_ffi(on) end)

      -- a call through a variable named otherwise than the method: no
      -- colon, so self is #1 and is named as any other argument
      describe("a method called through a variable of another name", function()
        it("local f = s.weight; f({}) says bad argument #1 to 'weight'", function()
          local s = ik2d.solver(three_bones())
          local f = s.weight
          assert.are.equal("bad argument #1 to 'weight' (ik2d.Solver expected, got table)",
            caller_error(function() local r = f({}) return r end))
          local g = s.weight
          local msg = caller_error(function() local h = g; local r = h({}) return r end)
          assert.are.equal("bad argument #1 to 'weight' (ik2d.Solver expected, got table)", msg)
        end)

        it("local f = s.set_target (an FFI method): self is #1, x is #2, y is #3", function()
          local s = ik2d.solver(three_bones())
          local f = s.set_target
          assert.are.equal("bad argument #1 to 'set_target' (ik2d.Solver expected, got table)",
            caller_error(function() local r = f({}, 1, 2) return r end))
          assert.are.equal("bad argument #2 to 'set_target' (number expected, got string)",
            caller_error(function() local h = f; local r = h(s, "x", 2) return r end))
          assert.are.equal("bad argument #3 to 'set_target' (number expected, got nil)",
            caller_error(function() local h = f; local r = h(s, 1, nil) return r end))
        end)

        it("through a global: bad argument #1 to 'weight', #3 to 'set_target'", function()
          local s = ik2d.solver(three_bones())
          assert.are.equal("global_call:1: bad argument #1 to 'weight' (ik2d.Solver expected, got table)",
            global_call("IK2D_SPEC_WEIGHT", s.weight, "local r = IK2D_SPEC_WEIGHT({}) return r"))
          rawset(_G, "IK2D_SPEC_SOLVER", s)
          assert.are.equal("global_call:1: bad argument #3 to 'set_target' (number expected, got string)",
            global_call("IK2D_SPEC_SET", s.set_target,
                        "local r = IK2D_SPEC_SET(IK2D_SPEC_SOLVER, 1, 'y') return r"))
          rawset(_G, "IK2D_SPEC_SOLVER", nil)
        end)

        it("a colon call on a bad self still says calling 'solve' on bad self", function()
          local s = ik2d.solver(three_bones())
          local bad = setmetatable({}, debug.getmetatable(s))
          assert.are.equal("calling 'solve' on bad self (ik2d.Solver expected, got table)",
            caller_error(function() local r = bad:solve() return r end))
        end)

        it("a tail call in a function called from Lua still counts the colon: #1 is x", function()
          local s = ik2d.solver(three_bones())
          local function set(x) return s:set_target(x, 1) end
          local msg = helpers.error_of(function() local r = set("x") return r end)
          assert.are.equal("bad argument #1 to 'set_target' (number expected, got string)",
            msg:match(": (bad.*)$"))
        end)
      end)
    end)
  end
end)
