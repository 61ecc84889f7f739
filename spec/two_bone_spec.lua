-- The two-bone solver (method "two_bone"): the law of cosines for both
-- bend directions, softness, unreachable targets, the nearest allowed
-- pose under limits, weight blending, its settings, bend changes, exact
-- folds, and Spine's softness curve.

local ik2d = require "ik2d"
local helpers = require "spec.helpers"

local pi = math.pi
local cos, sin, abs, sqrt, acos, exp = math.cos, math.sin, math.abs, math.sqrt, math.acos, math.exp
local atan2 = math.atan2 or math.atan -- luacheck: ignore 143
local EPS = 1e-9

-- Upper arm 60, forearm 45 (reach 105, inner reach 15), base turned and
-- moved, rest angles that are not zero.
local A, B = 60, 45
local BX, BY, BA = 12, -7, 0.35

local function make_limb(extra)
  local t = { x = BX, y = BY, angle = BA,
    { length = A, angle = 0.4 }, { length = B, angle = -0.3 } }
  for k, v in pairs(extra or {}) do t[k] = v end
  return ik2d.chain(t)
end

-- The law of cosines: local shoulder and elbow angles that put the tip on
-- (tx, ty), elbow bent to the side of bend.
local function law_of_cosines(tx, ty, bend)
  local dx, dy = tx - BX, ty - BY
  local d = sqrt(dx * dx + dy * dy)
  local elbow = bend * acos((d * d - A * A - B * B) / (2 * A * B))
  local shoulder = atan2(dy, dx) - BA - atan2(B * sin(elbow), A + B * cos(elbow))
  return shoulder, elbow
end

local tip_distance = helpers.tip_distance

-- Tip of the limb for local angles (shoulder, elbow).
local function tip_of(shoulder, elbow)
  local w1 = BA + shoulder
  return BX + A * cos(w1) + B * cos(w1 + elbow), BY + A * sin(w1) + B * sin(w1 + elbow)
end

describe("two_bone solver", function()
  describe("reachable targets", function()
    for _, bend in ipairs{ 1, -1 } do
      it(("matches the law of cosines to 1e-9 for 200 random targets, bend %d"):format(bend), function()
        local rng = helpers.random(bend == 1 and 11 or 12)
        local arm = make_limb()
        local s = ik2d.solver(arm, { method = "two_bone", bend = bend })
        for n = 1, 200 do
          -- strictly between inner and full reach
          local r, a = rng.range(15.5, 104.5), rng.range(-pi, pi)
          local tx, ty = BX + r * cos(a), BY + r * sin(a)
          arm:set_pose(1, rng.range(-pi, pi))
          arm:set_pose(2, rng.range(-pi, pi))
          s:set_target(tx, ty)
          local reached, distance, iterations = s:solve()
          local shoulder, elbow = law_of_cosines(tx, ty, bend)
          assert.near(0, helpers.angle_diff(shoulder, arm:angle(1)), EPS)
          assert.near(0, helpers.angle_diff(elbow, arm:angle(2)), EPS)
          assert.truthy(reached, "target " .. n)
          assert.truthy(distance <= EPS, "target " .. n .. ": distance " .. distance)
          assert.near(0, tip_distance(arm, tx, ty), EPS)
          assert.are.equal(1, iterations)
          assert.truthy(helpers.fk_error(arm) <= EPS)
        end
      end)
    end

    it("bends to opposite sides for bend 1 and -1: elbows mirrored about the shoulder-target line", function()
      local up, down = make_limb(), make_limb()
      local su = ik2d.solver(up, { method = "two_bone", bend = 1 })
      local sd = ik2d.solver(down, { method = "two_bone", bend = -1 })
      local tx, ty = BX + 70, BY + 20
      su:set_target(tx, ty)
      sd:set_target(tx, ty)
      su:solve()
      sd:solve()
      local ex1, ey1 = up:joint(2)
      local ex2, ey2 = down:joint(2)
      -- signed side of each elbow relative to base -> target
      local ux, uy = tx - BX, ty - BY
      local side1 = ux * (ey1 - BY) - uy * (ex1 - BX)
      local side2 = ux * (ey2 - BY) - uy * (ex2 - BX)
      -- bend 1 turns the forearm counterclockwise, so the elbow lies on
      -- the clockwise side of the shoulder-target line
      assert.truthy(side1 < -1 and side2 > 1, ("sides %g, %g"):format(side1, side2))
      assert.near(side1, -side2, 1e-9)
      assert.near(0, helpers.angle_diff(up:angle(2), -down:angle(2)), EPS)
    end)

    it("folds the elbow fully (pi) for a target on the inner reach circle", function()
      local arm = make_limb()
      local s = ik2d.solver(arm, { method = "two_bone" })
      s:set_target(BX + 15 * cos(1), BY + 15 * sin(1))
      local reached = s:solve()
      assert.is_true(reached)
      assert.near(0, helpers.angle_diff(pi, arm:angle(2)), 1e-6) -- folded
    end)
  end)

  describe("targets out of reach", function()
    it("points the limb straight at a target beyond full reach; distance |t - base| - 105", function()
      local rng = helpers.random(5)
      local arm = make_limb()
      local s = ik2d.solver(arm, { method = "two_bone", bend = -1 })
      for _ = 1, 50 do
        local r, a = rng.range(106, 400), rng.range(-pi, pi)
        s:set_target(BX + r * cos(a), BY + r * sin(a))
        local reached, distance = s:solve()
        assert.is_false(reached)
        assert.near(r - 105, distance, EPS)
        assert.near(0, helpers.angle_diff(0, arm:angle(2)), EPS)
        assert.near(0, helpers.angle_diff(a, arm:world_angle(1)), EPS)
      end
    end)

    it("folds the limb toward a target inside the inner reach; distance 15 - |t - base|", function()
      local arm = make_limb()
      local s = ik2d.solver(arm, { method = "two_bone" })
      local a = -2.1
      s:set_target(BX + 5 * cos(a), BY + 5 * sin(a))
      local reached, distance = s:solve()
      assert.is_false(reached)
      assert.near(10, distance, EPS)
      assert.near(0, helpers.angle_diff(pi, arm:angle(2)), 1e-6)
      -- the tip lies toward the target from the base
      local x, y = arm:tip()
      assert.near(0, helpers.angle_diff(a, atan2(y - BY, x - BX)), 1e-6)
    end)
  end)

  describe("softness", function()
    local SOFT = 10
    local function soft_reach(d)
      local start = 105 - SOFT
      if d <= start then return d end
      return start + SOFT * (1 - exp(-(d - start) / SOFT))
    end

    it("leaves targets closer than full reach - softness exact (law of cosines to 1e-9)", function()
      local arm = make_limb()
      local s = ik2d.solver(arm, { method = "two_bone", softness = SOFT })
      for _, r in ipairs{ 20, 50, 80, 94.9 } do
        local tx, ty = BX + r * cos(0.7), BY + r * sin(0.7)
        s:set_target(tx, ty)
        assert.is_true((s:solve()))
        local shoulder, elbow = law_of_cosines(tx, ty, 1)
        assert.near(0, helpers.angle_diff(shoulder, arm:angle(1)), EPS)
        assert.near(0, helpers.angle_diff(elbow, arm:angle(2)), EPS)
      end
    end)

    it("eases the tip in: |tip - base| = 95 + 10 (1 - exp(-(d - 95) / 10)) on the line to the target", function()
      local arm = make_limb()
      local s = ik2d.solver(arm, { method = "two_bone", softness = SOFT, tolerance = 0 })
      local previous = 0
      for d = 95, 160, 0.5 do
        local tx, ty = BX + d * cos(-0.4), BY + d * sin(-0.4)
        s:set_target(tx, ty)
        s:solve()
        local x, y = arm:tip()
        local r = helpers.distance(BX, BY, x, y)
        assert.near(soft_reach(d), r, EPS)
        assert.near(0, helpers.angle_diff(-0.4, atan2(y - BY, x - BX)), EPS)
        -- never snaps straight, and keeps moving out as the target does
        assert.truthy(r < 105 and r >= previous, ("d %g: reach %.12g"):format(d, r))
        previous = r
      end
    end)

    it("has the slope of the target at the start of the ease: no kink", function()
      local arm = make_limb()
      local s = ik2d.solver(arm, { method = "two_bone", softness = SOFT, tolerance = 0 })
      local function reach_at(d)
        s:set_target(BX + d, BY)
        s:solve()
        local x, y = arm:tip()
        return helpers.distance(BX, BY, x, y)
      end
      local h = 1e-4
      local below = (reach_at(95) - reach_at(95 - h)) / h
      local above = (reach_at(95 + h) - reach_at(95)) / h
      assert.near(1, below, 1e-6)
      assert.near(1, above, 1e-3)
    end)
  end)

  describe("limits", function()
    -- Nearest tip distance over a grid of allowed (shoulder, elbow).
    local function grid_best(arm, tx, ty, steps)
      local best = math.huge
      local c1, c2 = arm:constraint(1), arm:constraint(2)
      local lo1, hi1, lo2, hi2 = -pi, pi, -pi, pi
      if c1 then lo1, hi1 = c1:limits() end
      if c2 then lo2, hi2 = c2:limits() end
      for i = 0, steps do
        local shoulder = arm:rest(1) + lo1 + (hi1 - lo1) * i / steps
        for j = 0, steps do
          local elbow = arm:rest(2) + lo2 + (hi2 - lo2) * j / steps
          local x, y = tip_of(shoulder, elbow)
          local d = helpers.distance(x, y, tx, ty)
          if d < best then best = d end
        end
      end
      return best
    end

    it("fall back to the nearest allowed pose: no allowed pose on a 121 x 121 grid is nearer (300 cases)", function()
      local rng = helpers.random(77)
      for n = 1, 300 do
        local arm = make_limb()
        local lo1 = rng.range(-2, 0.5)
        local lo2 = rng.range(-2.5, 1.5)
        arm:set_constraint(1, ik2d.constraint{ min = lo1, max = lo1 + rng.range(0.1, 2.5) })
        arm:set_constraint(2, ik2d.constraint{ min = lo2, max = lo2 + rng.range(0.1, 2.5) })
        local bend = rng.next() < 0.5 and 1 or -1
        local s = ik2d.solver(arm, { method = "two_bone", bend = bend })
        local r, a = rng.range(0, 130), rng.range(-pi, pi)
        local tx, ty = BX + r * cos(a), BY + r * sin(a)
        s:set_target(tx, ty)
        local _, distance = s:solve()
        assert.truthy(helpers.max_violation(arm) <= EPS, "case " .. n .. ": a limit is broken")
        local best = grid_best(arm, tx, ty, 120)
        assert.truthy(distance <= best + 1e-9,
                      ("case %d: two_bone %.9g, grid %.9g"):format(n, distance, best))
        assert.near(tip_distance(arm, tx, ty), distance, EPS)
      end
    end)

    it("fall back to the nearest allowed pose with inverted ranges and ranges across +-pi (100 cases)", function()
      local rng = helpers.random(9)
      for n = 1, 100 do
        local arm = make_limb()
        local lo1, w1 = rng.range(-4, 2), rng.range(0.1, 3)
        local lo2, w2 = rng.range(-4, 2), rng.range(0.1, 4)
        local inv1, inv2 = rng.next() < 0.5, rng.next() < 0.5
        arm:set_constraint(1, ik2d.constraint{ min = lo1, max = lo1 + w1, invert = inv1 })
        arm:set_constraint(2, ik2d.constraint{ min = lo2, max = lo2 + w2, invert = inv2 })
        local s = ik2d.solver(arm, { method = "two_bone", bend = rng.next() < 0.5 and 1 or -1 })
        local r, a = rng.range(0, 130), rng.range(-pi, pi)
        local tx, ty = BX + r * cos(a), BY + r * sin(a)
        s:set_target(tx, ty)
        local _, distance = s:solve()
        assert.truthy(helpers.max_violation(arm, { inv1, inv2 }) <= EPS, "case " .. n)
        local best, steps = math.huge, 120
        for i = 0, steps - 1 do
          local d1 = -pi + 2 * pi * i / steps
          if helpers.limit_violation(d1, lo1, lo1 + w1, inv1) == 0 then
            for j = 0, steps - 1 do
              local d2 = -pi + 2 * pi * j / steps
              if helpers.limit_violation(d2, lo2, lo2 + w2, inv2) == 0 then
                local x, y = tip_of(0.4 + d1, -0.3 + d2)
                local d = helpers.distance(x, y, tx, ty)
                if d < best then best = d end
              end
            end
          end
        end
        assert.truthy(distance <= best + 1e-9,
                      ("case %d: two_bone %.9g, grid %.9g"):format(n, distance, best))
      end
    end)

    it("keep the law of cosines answer, to 1e-9, when it is inside the limits", function()
      local arm = make_limb()
      arm:set_constraint(2, ik2d.constraint{ min = 0, max = 2.5 }) -- elbow 0.3 less, see rest
      local s = ik2d.solver(arm, { method = "two_bone", bend = 1 })
      local tx, ty = BX + 80 * cos(2), BY + 80 * sin(2)
      s:set_target(tx, ty)
      assert.is_true((s:solve()))
      local shoulder, elbow = law_of_cosines(tx, ty, 1)
      assert.near(0, helpers.angle_diff(shoulder, arm:angle(1)), EPS)
      assert.near(0, helpers.angle_diff(elbow, arm:angle(2)), EPS)
    end)

    it("take the other bend when only it is allowed, and still reach", function()
      local arm = make_limb()
      -- elbow may bend only to the negative side: local -0.3 + [-2.8, -0.1]
      arm:set_constraint(2, ik2d.constraint{ min = -2.8, max = -0.1 })
      local s = ik2d.solver(arm, { method = "two_bone", bend = 1 })
      local tx, ty = BX + 70, BY + 30
      s:set_target(tx, ty)
      local reached, distance = s:solve()
      assert.is_true(reached)
      assert.near(0, distance, EPS)
      local shoulder, elbow = law_of_cosines(tx, ty, -1)
      assert.near(0, helpers.angle_diff(shoulder, arm:angle(1)), EPS)
      assert.near(0, helpers.angle_diff(elbow, arm:angle(2)), EPS)
    end)

    it("hold the elbow on its limit and point the limb when the target needs more bend", function()
      local arm = make_limb()
      -- elbow at most 0.5 rad from straight: local -0.3 + [0.3, 0.8]
      arm:set_constraint(2, ik2d.constraint{ min = 0.3, max = 0.8 })
      local s = ik2d.solver(arm, { method = "two_bone" })
      local tx, ty = BX + 40 * cos(1.2), BY + 40 * sin(1.2)
      s:set_target(tx, ty)
      local reached = s:solve()
      assert.is_false(reached)
      assert.near(0.5, arm:angle(2), EPS)
      -- the limb, rigid at that bend, points its tip straight at the target
      local x, y = arm:tip()
      assert.near(0, helpers.angle_diff(1.2, atan2(y - BY, x - BX)), EPS)
    end)
  end)

  describe("weight", function()
    it("0.5 gives pose + 0.5 * (ik - pose) per bone, ik from a weight-1 solve", function()
      local full, half = make_limb(), make_limb()
      for _, arm in ipairs{ full, half } do
        arm:set_pose(1, 1.1)
        arm:set_pose(2, -0.6)
      end
      local s1 = ik2d.solver(full, { method = "two_bone" })
      local s5 = ik2d.solver(half, { method = "two_bone", weight = 0.5 })
      s1:set_target(BX - 30, BY + 60)
      s5:set_target(BX - 30, BY + 60)
      assert.is_true((s1:solve()))
      local reached, distance = s5:solve()
      for i = 1, 2 do
        local pose = half:pose(i)
        local expected = pose + 0.5 * helpers.angle_diff(pose, full:angle(i))
        assert.near(0, helpers.angle_diff(expected, half:angle(i)), EPS)
      end
      assert.is_false(reached)
      assert.near(tip_distance(half, BX - 30, BY + 60), distance, EPS)
    end)

    it("0 leaves the pose exactly", function()
      local arm = make_limb()
      arm:set_pose(2, 0.123)
      local s = ik2d.solver(arm, { method = "two_bone", weight = 0 })
      s:set_target(BX + 50, BY + 50)
      local _, _, iterations = s:solve()
      assert.are.equal(0, iterations)
      assert.are.equal(0.123, arm:angle(2))
    end)
  end)

  describe("settings", function()
    it("needs a chain of 2 bones", function()
      local arm = ik2d.chain{ { length = 1 }, { length = 1 }, { length = 1 } }
      local msg = helpers.error_of(ik2d.solver, arm, { method = "two_bone" })
      helpers.check_message(msg, { "two_bone", "2 bones" })
    end)

    it("rejects a bend other than 1 or -1 and a negative softness", function()
      local arm = make_limb()
      helpers.check_message(helpers.error_of(ik2d.solver, arm, { method = "two_bone", bend = 0 }),
                            { "bend must be 1 or -1" })
      helpers.check_message(helpers.error_of(ik2d.solver, arm, { method = "two_bone", softness = -1 }),
                            { "softness must be >= 0" })
    end)

    it("returns iterations 0 at a target it already reaches, 1 otherwise", function()
      local arm = make_limb()
      local s = ik2d.solver(arm, { method = "two_bone" })
      s:set_target(BX + 30, BY + 60)
      local _, _, first = s:solve()
      local _, _, again = s:solve()
      assert.are.equal(1, first)
      assert.are.equal(0, again)
    end)
  end)
end)

local _ = abs

describe("two_bone stretch", function()
  local R = A + B

  -- A target at k times the reach in direction a (world).
  local function beyond(k, a)
    return BX + k * R * cos(a), BY + k * R * sin(a)
  end

  local function check_spacing(arm)
    for i = 1, 2 do
      local x0, y0 = arm:joint(i)
      local x1, y1 = arm:joint(i + 1)
      local expected = arm:length(i) * arm:scale()
      assert.truthy(abs(helpers.distance(x0, y0, x1, y1) - expected) <= 1e-9 * expected,
                    ("bone %d: spacing %.17g, length * scale %.17g"):format(
                      i, helpers.distance(x0, y0, x1, y1), expected))
    end
  end

  it("reaches a target at 1.2 x reach exactly, scale 1.2, both bones straight", function()
    for _, flip in ipairs{ false, true } do
      local arm = make_limb()
      arm:set_flip(flip)
      local s = ik2d.solver(arm, { method = "two_bone", stretch = 1.5 })
      local tx, ty = beyond(1.2, 0.7)
      s:set_target(tx, ty)
      local reached, distance = s:solve()
      assert.is_true(reached)
      assert.truthy(distance < 1e-9, "distance " .. distance)
      assert.near(1.2, arm:scale(), 1e-12)
      assert.near(0, helpers.angle_diff(0, arm:angle(2)), EPS)
      assert.near(0, helpers.angle_diff(arm:world_angle(1), arm:world_angle(2)), EPS)
      assert.near(0, helpers.angle_diff(0.7, arm:world_angle(1)), EPS)
      assert.are.equal(R, arm:reach())
      check_spacing(arm)
    end
  end)

  it("stops at the largest scale: 2 x reach gives scale 1.5, distance 0.5 x reach", function()
    local arm = make_limb()
    local s = ik2d.solver(arm, { method = "two_bone", stretch = 1.5 })
    local tx, ty = beyond(2, -2.1)
    s:set_target(tx, ty)
    local reached, distance = s:solve()
    assert.is_false(reached)
    assert.near(1.5, arm:scale(), 1e-12)
    assert.near(2 * R - 1.5 * R, distance, 1e-9 * R)
    assert.near(distance, tip_distance(arm, tx, ty), 1e-9)
    check_spacing(arm)
  end)

  it("is off by default (stretch 1) and with any other method", function()
    local rng = helpers.random(5)
    local arm = make_limb()
    local plain = ik2d.solver(arm, { method = "two_bone" })
    for _ = 1, 50 do
      local tx, ty = beyond(rng.range(0.5, 3), rng.range(-pi, pi))
      plain:set_target(tx, ty)
      plain:solve()
      assert.are.equal(1, arm:scale())
      check_spacing(arm)
    end
    for _, method in ipairs{ "ccd", "fabrik" } do
      local other = make_limb()
      local s = ik2d.solver(other, { method = method, stretch = 1.5 })
      s:set_target(beyond(1.2, 0.3))
      local reached = s:solve()
      assert.is_false(reached)
      assert.are.equal(1, other:scale())
    end
  end)

  it("weight 0.5 gives scale 1 + 0.5 (k - 1); weight 0 gives 1", function()
    local arm = make_limb()
    local s = ik2d.solver(arm, { method = "two_bone", stretch = 1.5, weight = 0.5 })
    s:set_target(beyond(1.2, 1.9))
    s:solve()
    assert.near(1 + 0.5 * (1.2 - 1), arm:scale(), 1e-12)
    check_spacing(arm)
    s:set_weight(0)
    s:solve()
    assert.are.equal(1, arm:scale())
  end)

  it("does not stretch when the limits forbid the straight pose", function()
    local arm = make_limb()
    -- elbow local angle in [0.2, 1.2]: never straight
    arm:set_constraint(2, ik2d.constraint{ min = 0.5, max = 1.5 })
    local s = ik2d.solver(arm, { method = "two_bone", stretch = 1.5 })
    s:set_target(beyond(1.2, 0.4))
    local reached = s:solve()
    assert.is_false(reached)
    assert.are.equal(1, arm:scale())
    assert.truthy(helpers.max_violation(arm) <= EPS)
    check_spacing(arm)
  end)

  it("with softness the eased goal stays within reach: no stretch", function()
    local arm = make_limb()
    local s = ik2d.solver(arm, { method = "two_bone", stretch = 1.5, softness = 5 })
    s:set_target(beyond(1.2, 0.4))
    s:solve()
    assert.are.equal(1, arm:scale())
  end)

  it("keeps joints length * scale apart for random targets, weights and flips", function()
    local rng = helpers.random(91)
    local arm = make_limb()
    local s = ik2d.solver(arm, { method = "two_bone", stretch = 1.7 })
    for _ = 1, 200 do
      arm:set_flip(rng.next() < 0.5)
      s:set_weight(rng.next() < 0.3 and 1 or rng.range(0, 1))
      s:set_target(beyond(rng.range(0.2, 2.5), rng.range(-pi, pi)))
      s:solve()
      assert.truthy(arm:scale() >= 1 and arm:scale() <= 1.7)
      check_spacing(arm)
    end
  end)

  it("set_pose and reset show the pose at scale 1; set_base keeps the result's scale", function()
    local arm = make_limb()
    local s = ik2d.solver(arm, { method = "two_bone", stretch = 1.5 })
    s:set_target(beyond(1.3, 0))
    s:solve()
    arm:set_base(BX + 1, BY, BA)
    assert.near(1.3, arm:scale(), 1e-12)
    check_spacing(arm)
    arm:set_pose(1, 0.2)
    assert.are.equal(1, arm:scale())
    check_spacing(arm)
    s:solve()
    arm:reset()
    assert.are.equal(1, arm:scale())
    check_spacing(arm)
  end)

  it("rejects a stretch below 1 or NaN; math.huge stretches without bound", function()
    local arm = make_limb()
    for _, bad in ipairs{ 0.99, 0, -1, -math.huge, 0 / 0 } do
      helpers.check_message(helpers.error_of(ik2d.solver, arm, { method = "two_bone", stretch = bad }),
                            { "stretch must be >= 1" })
    end
    local s = ik2d.solver(arm, { method = "two_bone", stretch = math.huge })
    local reach, bx, by = arm:reach(), arm:base()
    s:set_target(bx + 50 * reach, by)
    assert.is_true((s:solve()))
    assert.near(50, arm:scale(), 1e-9)
  end)
end)

-- Bend changes, tolerance, exact folds and straightening, and Spine's
-- softness curve.
local function limb(extra) return helpers.limb(ik2d, extra) end

describe("two_bone", function()
  it("applies a new bend at once, even with the tip already within tolerance", function()
    local arm = limb()
    local s = ik2d.solver(arm, { method = "two_bone" })
    s:set_target(170, 230)
    s:solve()
    local before = arm:angle(2)
    assert.truthy(before > 0.1)
    s:set_options { bend = -1 }
    s:solve()
    assert.near(-before, arm:angle(2), 1e-12)
    assert.near(0, helpers.tip_distance(arm, 170, 230), 1e-9)
  end)

  it("follows a target that moves less than the tolerance a frame (no stair steps at metre scale)",
     function()
       local arm = ik2d.chain { { length = 0.6 }, { length = 0.5 } }
       local s = ik2d.solver(arm, { method = "two_bone" })
       local worst = 0
       for frame = 0, 90 do
         local x, y = 0.5 + 0.004 * frame, 0.3
         s:set_target(x, y)
         s:solve()
         worst = math.max(worst, helpers.tip_distance(arm, x, y))
       end
       assert.truthy(worst < 1e-12, worst)
     end)

  it("folds exactly (elbow at pi) toward a target inside |a - b|, bones of nearly equal length", function()
    -- acos of -1 + eps is off by sqrt(2 eps): 2e-8 rad before
    local rng = helpers.random(21)
    for _ = 1, 500 do
      local a = rng.range(0.1, 2.1)
      local b = a * (1 + rng.range(-5e-7, 5e-7))
      local arm = ik2d.chain { { length = a }, { length = b } }
      local s = ik2d.solver(arm, { method = "two_bone" })
      s:set_target(0.3 * abs(a - b), 0)
      s:solve()
      -- pi and -pi are the same fold; angles read in [-pi, pi)
      assert.are.equal(pi, abs(arm:angle(2)))
    end
  end)

  it("straightens exactly (elbow 0) toward a target out of reach without stretch", function()
    -- acos of 1 - eps: bent by up to 6e-8 rad before
    local rng = helpers.random(22)
    for _ = 1, 500 do
      local a, b = rng.range(0.1, 3.1), rng.range(0.1, 3.1)
      local arm = ik2d.chain { { length = a }, { length = b } }
      local s = ik2d.solver(arm, { method = "two_bone" })
      s:set_target(a + b + 0.5, 0.3)
      s:solve()
      assert.are.equal(0, arm:angle(2))
    end
  end)

  it("bends with bend = 1 so the elbow sits above a target to the right on LOVE's y-down screen",
     function()
       local arm = limb()
       local s = ik2d.solver(arm, { method = "two_bone", bend = 1 })
       s:set_target(180, 200)
       s:solve()
       local _, elbow_y = arm:joint(2)
       assert.truthy(elbow_y < 200, elbow_y)
       s:set_options { bend = -1 }
       s:solve()
       _, elbow_y = arm:joint(2)
       assert.truthy(elbow_y > 200, elbow_y)
     end)

  describe("softness_curve = 'spine'", function()
    -- Spine's IK constraint (4.0): with sd = d - reach + softness > 0, the
    -- target is pulled in by sd - softness (1 - p^2), p = min(1, sd / 2s) - 1
    local function spine_distance(d, reach, softness)
      local sd = d - reach + softness
      if softness <= 0 or sd <= 0 then return math.min(d, reach) end
      local p = math.min(1, sd / (softness * 2)) - 1
      return math.min(d - (sd - softness * (1 - p * p)), reach)
    end

    it("reaches 97.5 of 100 at target distance 100 with softness 10, and full reach at 110", function()
      local arm = ik2d.chain { { length = 50 }, { length = 50 } }
      local s = ik2d.solver(arm, { method = "two_bone", softness = 10, softness_curve = "spine" })
      s:set_target(100, 0)
      s:solve()
      assert.near(97.5, (arm:tip()), 1e-9)
      s:set_target(110, 0)
      s:solve()
      assert.near(100, (arm:tip()), 1e-9)
    end)

    it("agrees with Spine's formula to 1e-9 on random limbs", function()
      local rng = helpers.random(13)
      for _ = 1, 500 do
        local a, b = rng.range(5, 50), rng.range(5, 50)
        local arm = ik2d.chain { { length = a }, { length = b } }
        local softness = rng.range(0.1, 20)
        local s = ik2d.solver(arm, { method = "two_bone", softness = softness, softness_curve = "spine" })
        local d, angle = rng.range(abs(a - b) + 0.1, a + b + 2 * softness), rng.range(-pi, pi)
        s:set_target(d * cos(angle), d * sin(angle))
        s:solve()
        local x, y = arm:tip()
        assert.near(spine_distance(d, a + b, softness), sqrt(x * x + y * y), 1e-9)
      end
    end)

    it("keeps the smooth curve by default (never quite straight)", function()
      local arm = ik2d.chain { { length = 50 }, { length = 50 } }
      local s = ik2d.solver(arm, { method = "two_bone", softness = 10 })
      assert.are.equal("smooth", s:options().softness_curve)
      s:set_target(100, 0)
      s:solve()
      assert.near(90 + 10 * (1 - math.exp(-1)), (arm:tip()), 1e-9)
    end)
  end)
end)
