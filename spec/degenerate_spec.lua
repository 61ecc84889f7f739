-- Degenerate geometry (issue 5, item 6): targets exactly on the base or
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

local ik2d = require "ik2d"
local helpers = require "spec.helpers"

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
    local aim = atan2(ty - by, tx - bx)
    for i = 1, #arm do
      local a = arm:world_angle(i)
      assert(abs(helpers.wrap(a - aim)) <= 1e-9,
             ("bone %d points at %.17g, the target is at %.17g"):format(i, a, aim))
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
