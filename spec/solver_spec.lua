-- The CCD solver: settings, convergence, unreachable targets, joint
-- limits, weight blending, early exit, lifetime and flip.

local ik2d = require "ik2d"
local helpers = require "spec.helpers"

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
