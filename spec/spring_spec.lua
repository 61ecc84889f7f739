-- ik2d.spring: secondary motion.  Every bone of a chain turns toward its
-- neutral angle (the pose, or what a solver wrote) like a damped spring, lagging
-- behind what its parents and the base do (turning, running, stopping),
-- dragged by the wind, out of its colliders; the same motion at any frame
-- rate, stable at any dt, inside the limits.

local ik2d = require "ik2d"
local helpers = require "spec.helpers"

local pi = math.pi
local cos, sin, exp, sqrt, abs, max = math.cos, math.sin, math.exp, math.sqrt, math.abs, math.max
local EPS = 1e-9
local angle_diff = helpers.angle_diff

local function tail(bones, extra)
  local t = { x = 100, y = 50, angle = pi / 2 }
  for i = 1, bones do t[i] = { length = 30 - 2 * i, angle = 0.1 } end
  for k, v in pairs(extra or {}) do t[k] = v end
  return ik2d.chain(t)
end

local world_angles = helpers.world_angles_of

-- A 3-bone tail whose base turned to 0 (from pi/2), swinging for frames
-- of 1/60 s: chain, spring.
local function swinging(frames)
  local chain = tail(3)
  local spring = ik2d.spring(chain)
  chain:set_base(100, 50, 0)
  for _ = 1, frames do spring:update(1 / 60) end
  return chain, spring
end

local function all_finite(chain)
  for _, v in ipairs(helpers.joints_of(chain)) do
    if v ~= v or abs(v) == math.huge then return false end
  end
  return true
end

-- Runs make() at hz frames a second for seconds, calling drive(chain, t)
-- before each update (t: the time at the frame's end); returns the world
-- angles at every multiple of 1/12 s (a frame boundary at 24, 60, 144
-- and 240 Hz).
local function trajectory(make, hz, seconds, drive)
  local chain, spring = make()
  local samples, per_sample = {}, hz / 12
  for k = 1, seconds * 12 do
    for f = 1, per_sample do
      if drive then drive(chain, (k - 1) / 12 + f / hz) end
      spring:update(1 / hz)
    end
    samples[k] = world_angles(chain)
  end
  return samples
end

-- The largest difference of two trajectories, and the largest swing of
-- the first from the angles `from` (the swing the difference is a part of).
local function compare(a, b, from)
  local worst, swing = 0, 0
  for k = 1, #a do
    for i = 1, #a[k] do
      worst = max(worst, abs(angle_diff(a[k][i], b[k][i])))
      swing = max(swing, abs(angle_diff(from[i], a[k][i])))
    end
  end
  return worst, swing
end

describe("ik2d.spring", function()
  describe("the same motion at any frame rate", function()
    -- a 4-bone tail with gravity, jolted at t = 0: the base turns 1.2 rad
    local function jolted()
      local chain = tail(4)
      local spring = ik2d.spring(chain, { stiffness = 120, damping = 4, gravity = { 0, 300 } })
      chain:set_base(100, 50, pi / 2 + 1.2)
      return chain, spring
    end

    it("60 Hz and 144 Hz trajectories of a jolted tail agree within 1% of the swing: to 1e-12 rad, both " ..
       "whole substeps of 1/720 s", function()
      local from = world_angles(tail(4))
      local worst, swing = compare(trajectory(jolted, 60, 3), trajectory(jolted, 144, 3), from)
      assert.truthy(swing > 1, ("the tail swung only %.3f rad"):format(swing))
      assert.truthy(worst <= 0.01 * swing,
                    ("60 vs 144 Hz: %.3g rad apart, %.3g%% of the swing"):format(worst, 100 * worst / swing))
      assert.truthy(worst <= 1e-12, ("60 vs 144 Hz: %.3g rad apart"):format(worst))
    end)

    it("24 Hz and 240 Hz agree to 1e-12 rad too", function()
      local from = world_angles(tail(4))
      local worst = compare(trajectory(jolted, 24, 3), trajectory(jolted, 240, 3), from)
      assert.truthy(worst <= 1e-12, ("24 vs 240 Hz: %.3g rad apart"):format(worst))
    end)

    it("84 Hz (not whole substeps: 8.57 a frame) and 60 Hz agree within 0.1% of the swing (measured " ..
       "0.0007%)", function()
      local from = world_angles(tail(4))
      local worst, swing = compare(trajectory(jolted, 84, 3), trajectory(jolted, 60, 3), from)
      assert.truthy(worst <= 0.001 * swing,
                    ("84 vs 60 Hz: %.3g%% of the swing"):format(100 * worst / swing))
    end)

    -- 60 against 144 Hz for a tail whose base angle drive(t) sets
    local function swung(drive)
      local function make()
        local chain = tail(4)
        return chain, ik2d.spring(chain, { stiffness = 100, damping = 6 })
      end
      local function drive_base(chain, t) chain:set_base(100, 50, pi / 2 + drive(t)) end
      return compare(trajectory(make, 60, 3, drive_base), trajectory(make, 144, 3, drive_base),
                     world_angles(tail(4)))
    end

    it("a base swinging 0.6 rad at 1 Hz from rest gives the same tail at 60 and 144 Hz within 1% of the " ..
       "swing (measured 0.67%, the onset)", function()
      -- the swing starts at full speed: its first frame is taken as a jolt
      -- at the frame's start (1/60 or 1/144 s of lead), every later one
      -- as motion between the samples
      local worst, swing = swung(function(t) return 0.6 * sin(2 * pi * t) end)
      assert.truthy(swing > 0.5)
      assert.truthy(worst <= 0.01 * swing,
                    ("60 vs 144 Hz: %.3g%% of the swing"):format(100 * worst / swing))
    end)

    it("a base that starts swinging smoothly gives the same tail at 60 and 144 Hz within 0.1% of the swing " ..
       "(measured 0.05%)", function()
      local worst, swing = swung(function(t) return 0.6 * (1 - cos(2 * pi * t)) end)
      assert.truthy(swing > 0.5)
      assert.truthy(worst <= 0.001 * swing,
                    ("60 vs 144 Hz: %.3g%% of the swing"):format(100 * worst / swing))
    end)
  end)

  describe("motion", function()
    it("moves one bone exactly as the damped oscillator's closed form (1e-9 rad over 3 s)", function()
      -- x'' = -k/m (x - neutral) - c/m x', from 0.8 rad off the neutral angle at rest
      local k, c, m = 150, 3, 1.5
      local chain = ik2d.chain{ { length = 10 } }
      local spring = ik2d.spring(chain, { stiffness = k, damping = c, mass = m })
      chain:set_pose(1, -0.8)
      local a, w = c / (2 * m), sqrt(k / m - (c / (2 * m)) ^ 2)
      local worst = 0
      for f = 1, 180 do
        spring:update(1 / 60)
        local t = f / 60
        local expected = -0.8 + 0.8 * exp(-a * t) * (cos(w * t) + a / w * sin(w * t))
        worst = max(worst, abs(chain:angle(1) - expected))
      end
      assert.truthy(worst <= 1e-9, ("%.3g rad off the closed form"):format(worst))
    end)

    it("lets its energy decay with damping > 0: monotone for one bone, down to 1e-4 of the start in 3 s", function()
      local k, c = 200, 5
      local chain = ik2d.chain{ { length = 10 } }
      local spring = ik2d.spring(chain, { stiffness = k, damping = c })
      chain:set_pose(1, 1)
      -- dt = 0: the new neutral angle is seen, the bone has not moved (set_pose
      -- showed the pose until this update)
      spring:update(0)
      assert.are.equal(0, chain:angle(1))
      local function energy()
        local v, e = spring:velocity(1), chain:angle(1) - chain:pose(1)
        return 0.5 * v * v + 0.5 * k * e * e
      end
      local start = energy()
      assert.are.equal(0.5 * k, start)
      local last = start
      for _ = 1, 180 do
        spring:update(1 / 60)
        local now = energy()
        assert.truthy(now <= last * (1 + 1e-12), "energy grew")
        last = now
      end
      -- the closed form's envelope: e^(-c t) = e^(-15)
      assert.truthy(last <= 1e-4 * start, ("energy left: %.3g of the start"):format(last / start))
      assert.truthy(last >= 1e-9 * start)
    end)

    it("lets a 6-bone tail's energy decay after a jolt, never growing, to 1e-6 of the start in 8 s", function()
      -- joint i carries the bones from i to the tip: stiffness * that count
      local chain = tail(6)
      local spring = ik2d.spring(chain, { stiffness = 80, damping = 4 })
      chain:set_base(100, 50, pi / 2 - 1)
      spring:update(0)
      local function energy()
        local sum = 0
        for i = 1, #chain do
          local v, e = spring:velocity(i), angle_diff(chain:pose(i), chain:angle(i))
          sum = sum + 0.5 * v * v + 0.5 * 80 * (#chain - i + 1) * e * e
        end
        return sum
      end
      local start = energy()
      local last = start
      assert.near(0.5 * 80 * 6, start, 1e-9)  -- bone 1 one radian off, the rest on their pose
      for _ = 1, 480 do
        spring:update(1 / 60)
        local now = energy()
        assert.truthy(now <= last * (1 + 1e-9) + 1e-12, "energy grew")
        last = now
      end
      assert.truthy(last <= 1e-6 * start, ("energy left: %.3g of the start"):format(last / start))
    end)

    it("leaves the bones lagging in world space when the base turns, the tip the most, then settles on the " ..
       "pose", function()
      local chain = tail(5)
      local spring = ik2d.spring(chain)
      local before = world_angles(chain)
      chain:set_base(100, 50, pi / 2 + 1)
      spring:update(1 / 60)
      local after = world_angles(chain)
      -- one frame later: each bone has turned less than a tenth of the
      -- base's turn, each less than its parent
      for i = 1, #chain do
        local turned = angle_diff(before[i], after[i])
        assert.truthy(turned >= 0 and turned < 0.1, ("bone %d turned %.3f"):format(i, turned))
        if i > 1 then assert.truthy(turned < angle_diff(before[i - 1], after[i - 1])) end
      end
      for _ = 1, 600 do spring:update(1 / 60) end
      for i = 1, #chain do
        assert.near(before[i] + 1, chain:world_angle(i), 1e-6)
        assert.near(chain:pose(i), chain:angle(i), 1e-6)
      end
    end)

    it("follows a new pose as its neutral angle (set_pose), from where the bones are", function()
      local chain = tail(3)
      local spring = ik2d.spring(chain)
      for _ = 1, 10 do spring:update(1 / 60) end
      chain:set_pose(2, 0.9)
      spring:update(1 / 60)
      -- the bone has not jumped to 0.9: it is on its way
      assert.truthy(chain:angle(2) < 0.3)
      for _ = 1, 600 do spring:update(1 / 60) end
      assert.near(0.9, chain:angle(2), 1e-6)
    end)

    it("reports velocities in the sense of world_angle, flipped or not", function()
      for _, flip in ipairs{ false, true } do
        local chain = tail(3, { flip = flip })
        local spring = ik2d.spring(chain)
        chain:set_base(100, 50, 0.5)
        for _ = 1, 20 do spring:update(1 / 240) end
        local a0 = world_angles(chain)
        spring:update(1 / 2400)
        local a1 = world_angles(chain)
        for i = 1, 3 do
          local rate = angle_diff(a0[i], a1[i]) * 2400
          assert.near(spring:velocity(i), rate, 0.02 * abs(rate) + 1e-3)
        end
      end
    end)

    it("moves a flipped tail as the mirror image of an unflipped one", function()
      local plain, flipped = tail(4), tail(4, { flip = true })
      local sp = ik2d.spring(plain, { gravity = { 300, 600 }, damping = 3 })
      local sf = ik2d.spring(flipped, { gravity = { -300, 600 }, damping = 3 })
      for f = 1, 120 do
        local a = pi / 2 + 0.8 * sin(f / 20)
        plain:set_base(100, 50, a)
        flipped:set_base(100, 50, a)
        sp:update(1 / 60)
        sf:update(1 / 60)
        for i = 1, 4 do
          assert.near(0, angle_diff(pi - plain:world_angle(i), flipped:world_angle(i)), 1e-9)
        end
      end
    end)
  end)

  describe("gravity", function()
    it("hangs free bones (stiffness 0) along gravity: down for {0, 980}, right for {980, 0}, whatever the " ..
       "flip", function()
      for _, case in ipairs{ { 0, 980, pi / 2 }, { 980, 0, 0 }, { 0, -500, -pi / 2 } } do
        for _, flip in ipairs{ false, true } do
          local chain = tail(5, { angle = 2.5, flip = flip })
          local spring = ik2d.spring(chain, { stiffness = 0, damping = 6,
                                              gravity = { case[1], case[2] } })
          for _ = 1, 60 * 20 do spring:update(1 / 60) end
          for i = 1, 5 do
            assert.near(0, angle_diff(case[3], chain:world_angle(i)), 1e-6)
          end
        end
      end
    end)

    it("holds a stiff bone where its spring balances the pendulum: stiffness * turn = mass * g / length * " ..
       "sin", function()
      local chain = ik2d.chain{ angle = 0, { length = 20 } }
      local spring = ik2d.spring(chain, { stiffness = 50, damping = 8, mass = 2, gravity = { 0, 400 } })
      for _ = 1, 60 * 20 do spring:update(1 / 60) end
      local x = chain:world_angle(1)
      assert.truthy(x > 0.3 and x < pi / 2, ("hangs at %.3f"):format(x))
      assert.near(50 * x, 2 * 400 / 20 * sin(pi / 2 - x), 1e-6)
    end)
  end)

  describe("limits", function()
    it("holds every limit while a limited tail is whipped about, bones on the limits in hundreds of frames", function()
      local t = { x = 0, y = 0, angle = pi / 2 }
      for i = 1, 6 do t[i] = { length = 12, angle = 0, min = -0.3, max = 0.3 } end
      local chain = ik2d.chain(t)
      local spring = ik2d.spring(chain, { stiffness = 60, damping = 1, gravity = { 0, 500 } })
      local worst, held = 0, 0
      for f = 1, 600 do
        chain:set_base(0, 0, pi / 2 + (f % 90 < 45 and 1.5 or -1.5))
        spring:update(1 / 60)
        worst = max(worst, (helpers.max_violation(chain)))
        for i = 1, #chain do
          if abs(chain:angle(i)) >= 0.3 - EPS then held = held + 1 end
        end
        assert.truthy(all_finite(chain))
      end
      assert.truthy(worst <= EPS, ("a limit broken by %.3g rad"):format(worst))
      assert.truthy(held > 200, ("bones on a limit %d times"):format(held))
    end)
  end)

  describe("world-space limits", function()
    it("keep a bone's world direction inside them whatever the base does (an antenna within 0.4 rad of up)", function()
      -- a world-space limit is about the rest angle as a world direction:
      -- -pi/2, up; posed straight on bone 1, which points up too
      local chain = ik2d.chain{ x = 0, y = 0, angle = -pi / 2,
        { length = 10 }, { length = 10, angle = -pi / 2, min = -0.4, max = 0.4, space = "world" },
        { length = 8 } }
      chain:set_pose(2, 0)
      local spring = ik2d.spring(chain, { stiffness = 40, damping = 2, gravity = { 0, 300 } })
      local held = 0
      for f = 1, 400 do
        chain:set_base(0, 0, -pi / 2 + 1.2 * sin(f / 15))
        spring:update(1 / 60)
        local off = abs(angle_diff(-pi / 2, chain:world_angle(2)))
        assert.truthy(off <= 0.4 + EPS, ("frame %d: %.4f rad off"):format(f, off))
        if off >= 0.4 - EPS then held = held + 1 end
        assert.truthy(all_finite(chain))
      end
      assert.truthy(held > 20, ("the limit held the bone %d times"):format(held))
    end)
  end)

  describe("any dt", function()
    it("settles with huge steps (1e6, 1e300, math.huge), finite and inside the limits", function()
      for _, dt in ipairs{ 1e6, 1e300, math.huge } do
        local t = { angle = 0 }
        for i = 1, 4 do t[i] = { length = 10, angle = 0.2, min = -0.5, max = 0.5 } end
        local chain = ik2d.chain(t)
        local spring = ik2d.spring(chain, { gravity = { 0, 1e4 } })
        chain:set_base(0, 0, 2)
        chain:set_pose(2, 0.45)
        spring:update(dt)
        assert.truthy(all_finite(chain))
        assert.truthy(helpers.max_violation(chain) <= EPS)
        for i = 1, 4 do assert.truthy(abs(spring:velocity(i)) <= 720 * pi) end
        -- 64 s simulated with damping 10: at rest
        for i = 1, 4 do assert.near(0, spring:velocity(i), 1e-6) end
        spring:update(1 / 60)
        assert.truthy(all_finite(chain))
      end
    end)

    local frames = helpers.size(600, 3000)
    it(("never makes NaN or runs away over %d frames of random dt from 0 to 10 s and random jolts, damping "
        .. "0"):format(frames), function()
      local rng = helpers.random(13)
      local chain = tail(6)
      local spring = ik2d.spring(chain, { stiffness = 500, damping = 0, gravity = { 0, 2000 } })
      for _ = 1, frames do
        if rng.next() < 0.1 then chain:set_base(100, 50, rng.range(-pi, pi)) end
        if rng.next() < 0.1 then chain:set_pose(1 + math.floor(rng.next() * 6), rng.range(-3, 3)) end
        local u = rng.next()
        spring:update(u < 0.8 and u / 40 or u < 0.9 and 0 or 10 * u)
        assert.truthy(all_finite(chain))
        for i = 1, 6 do
          local v = spring:velocity(i)
          assert.truthy(v == v and abs(v) <= 720 * pi)
        end
      end
    end)

    it("with dt = 0 moves nothing: the result stays bit for bit", function()
      local chain, spring = swinging(5)
      local angles, joints = helpers.angles_of(chain), helpers.joints_of(chain)
      spring:update(0)
      assert.are.same(angles, helpers.angles_of(chain))
      assert.are.same(joints, helpers.joints_of(chain))
    end)

    it("refuses a NaN or negative dt with a clear error at the caller's line, changing nothing", function()
      local chain, spring = swinging(1)
      for _, case in ipairs{ { 0 / 0, "nan" }, { -1, "-1" }, { -math.huge, "-inf" } } do
        local dt = case[1]
        local before = { helpers.chain_state(chain), spring:velocity(1), spring:velocity(3) }
        local msg = helpers.caller_error(function() spring:update(dt) end)
        assert.are.equal("bad argument #1 to 'update' (dt must be >= 0 (seconds), got " .. case[2] .. ")", msg)
        assert.are.same(before, { helpers.chain_state(chain), spring:velocity(1), spring:velocity(3) })
      end
      -- and it goes on as if the calls never happened
      local twin_chain, twin = swinging(1)
      spring:update(1 / 60)
      twin:update(1 / 60)
      assert.are.same(helpers.joints_of(twin_chain), helpers.joints_of(chain))
    end)
  end)

  describe("options", function()
    it("has the documented defaults and reads them back", function()
      local spring = ik2d.spring(tail(2))
      local o = spring:options()
      assert.are.same({ stiffness = 100, damping = 10, mass = 1, weight = 1, gravity = { 0, 0 },
                        wind = { 0, 0 } }, o)
      spring:set_options{ stiffness = 30, gravity = { 1, 2 } }
      assert.are.same({ 1, 2 }, { spring:gravity() })
      spring:set_gravity(0, 980)
      assert.are.same({ 0, 980 }, spring:options(o).gravity)
      assert.are.equal(30, o.stiffness)
    end)

    it("is all or nothing: a bad option among good ones changes nothing", function()
      local spring = ik2d.spring(tail(2), { stiffness = 40 })
      local msg = helpers.error_of(spring.set_options, spring, { stiffness = 5, mass = -1 })
      helpers.check_message(msg, { "mass must be > 0" })
      assert.are.equal(40, spring:options().stiffness)
      msg = helpers.error_of(spring.set_options, spring, { stiffness = 5, gravity = { 1, 0 / 0 } })
      helpers.check_message(msg, { "gravity y must be finite" })
      assert.are.same({ 0, 0 }, { spring:gravity() })
      msg = helpers.error_of(ik2d.spring, tail(2), { stifness = 5 })
      helpers.check_message(msg, { "unknown option 'stifness'" })
    end)

    it("refuses a mass so small that stiffness / mass overflows", function()
      local msg = helpers.error_of(ik2d.spring, tail(2), { stiffness = 1e300, mass = 1e-300 })
      helpers.check_message(msg, { "bad argument #2 to 'spring'", "mass" })
    end)
  end)

  describe("weight", function()
    it("blends with the neutral angle as solves do: weight 0 shows the pose bit for bit, 0.5 half the spring's " ..
       "turn", function()
      local full, half, none = tail(4), tail(4), tail(4)
      local sf = ik2d.spring(full, { damping = 2 })
      local sh = ik2d.spring(half, { damping = 2, weight = 0.5 })
      local sn = ik2d.spring(none, { damping = 2 })
      sn:set_weight(0)
      assert.are.equal(0, sn:weight())
      for f = 1, 90 do
        for _, c in ipairs{ full, half, none } do c:set_base(100, 50, pi / 2 + sin(f / 10)) end
        sf:update(1 / 60)
        sh:update(1 / 60)
        sn:update(1 / 60)
        assert.are.same(helpers.poses_of(none), helpers.angles_of(none))
        -- the motion runs the same whatever the weight
        for i = 1, 4 do assert.are.equal(sf:velocity(i), sh:velocity(i)) end
        -- the shown local angle: half the spring's turn from the pose
        for i = 1, 4 do
          local pose = half:pose(i)
          local spring_local = i == 1 and angle_diff(select(3, full:base()), full:world_angle(1))
                               or angle_diff(full:world_angle(i - 1), full:world_angle(i))
          assert.near(pose + 0.5 * angle_diff(pose, spring_local), half:angle(i), 1e-9)
        end
      end
    end)

    it("clamps weights into [0, 1] and refuses NaN", function()
      local spring = ik2d.spring(tail(2))
      spring:set_weight(7)
      assert.are.equal(1, spring:weight())
      spring:set_weight(-1)
      assert.are.equal(0, spring:weight())
      helpers.check_message(helpers.error_of(spring.set_weight, spring, 0 / 0), { "weight must not be nan" })
    end)
  end)

  describe("with a solver on the same chain", function()
    it("after the solve, lags behind the IK result and settles on it", function()
      local arm = ik2d.chain{ x = 0, y = 0, { length = 40 }, { length = 30 }, { length = 20 } }
      local solver = ik2d.solver(arm, { tolerance = 1e-6, iterations = 50 })
      local spring = ik2d.spring(arm, { stiffness = 150, damping = 12 })
      local free = ik2d.chain{ x = 0, y = 0, { length = 40 }, { length = 30 }, { length = 20 } }
      local free_solver = ik2d.solver(free, { tolerance = 1e-6, iterations = 50 })
      solver:set_target(20, 70)
      free_solver:set_target(20, 70)
      solver:solve()
      spring:update(1 / 60)
      free_solver:solve()
      -- the drawn tip lags well behind where the IK put it
      local fx, fy = free:tip()
      assert.truthy(helpers.tip_distance(arm, fx, fy) > 10)
      for _ = 1, 300 do
        solver:solve()
        spring:update(1 / 60)
      end
      -- settled: the IK result, and the IK itself was never disturbed
      assert.truthy(helpers.tip_distance(arm, 20, 70) <= 1e-5)
      for i = 1, 3 do assert.near(free:angle(i), arm:angle(i), 1e-6) end
    end)

    it("reset puts every bone at rest at its neutral angle and shows it", function()
      local chain, spring = swinging(5)
      spring:reset()
      for i = 1, 3 do
        assert.are.equal(0, spring:velocity(i))
        assert.near(chain:pose(i), chain:angle(i), 1e-12)
      end
      spring:update(1 / 60)
      for i = 1, 3 do assert.near(chain:pose(i), chain:angle(i), 1e-12) end
    end)
  end)

  -- A tail of 4 bones of 20 px hanging from a base at (100, 50) (extra:
  -- more chain fields).
  local function hanging(extra)
    local t = { x = 100, y = 50, angle = pi / 2 }
    for i = 1, 4 do t[i] = { length = 20, angle = 0 } end
    for k, v in pairs(extra or {}) do t[k] = v end
    return ik2d.chain(t)
  end

  -- A run along x: 1500 px/s^2 for 0.25 s (to 375 px/s), steady to 1.5 s,
  -- then a stop at 3750 px/s^2 (0.1 s); every change on a 1/12 s boundary.
  local function run_x(t)
    if t <= 0.25 then return 750 * t * t end
    if t <= 1.5 then return 46.875 + 375 * (t - 0.25) end
    if t <= 1.6 then
      local u = t - 1.5
      return 515.625 + 375 * u - 1875 * u * u
    end
    return 534.375
  end

  describe("the base's motion", function()
    -- the hanging tail's tip bone turned from straight down (positive:
    -- toward -x, behind a base running to +x)
    local function runner(opts)
      local chain = hanging()
      local spring = ik2d.spring(chain, opts or { gravity = { 0, 980 } })
      local function drive(c, t) c:set_base(100 + run_x(t), 50, pi / 2) end
      return chain, spring, drive
    end

    it("leaves a tail behind a body that runs and swings it forward when it stops, then settles " ..
       "(tip 1.51 rad behind while accelerating, 1.26 running, 0.38 ahead after the stop)", function()
      local hz = 60
      local chain, spring, drive = runner()
      local accelerating, running, stopping = 0, 0, 0
      for f = 1, 4 * hz do
        local t = f / hz
        drive(chain, t)
        spring:update(1 / hz)
        local tip = angle_diff(pi / 2, chain:world_angle(4))
        if t <= 0.25 then accelerating = max(accelerating, tip) end
        if t > 1.25 and t <= 1.5 then running = max(running, tip) end
        if t > 1.5 then stopping = math.min(stopping, tip) end
      end
      assert.truthy(accelerating > 1.2, ("%.3f rad behind while accelerating"):format(accelerating))
      -- running through still air: the drag holds it behind
      assert.truthy(running > 1, ("%.3f rad behind while running"):format(running))
      assert.truthy(stopping < -0.25, ("%.3f rad ahead after the stop"):format(stopping))
      -- 2.4 s after the stop: hanging again
      for i = 1, 4 do
        assert.near(pi / 2, chain:world_angle(i), 1e-4)
        assert.near(0, spring:velocity(i), 1e-3)
      end
    end)

    it("bends only while the speed changes when the air moves with the body (wind = the run's speed)",
       function()
      local chain = hanging()
      local spring = ik2d.spring(chain, { gravity = { 0, 980 }, wind = { 300, 0 } })
      -- running at 300 px/s from the first frame: the start is a jolt
      chain:set_base(105, 50, pi / 2)
      spring:update(1 / 60)
      assert.truthy(angle_diff(pi / 2, chain:world_angle(4)) > 0.05)
      for f = 2, 240 do
        chain:set_base(100 + 300 * f / 60, 50, pi / 2)
        spring:update(1 / 60)
      end
      for i = 1, 4 do assert.near(pi / 2, chain:world_angle(i), 1e-7) end
    end)

    it("keeps a falling body's bones where they point (no air: damping 0): gravity and the fall cancel " ..
       "(1e-4 rad over 1 s, measured 1.9e-5), where a standing twin's fall down", function()
      local function pendulums()
        local chain = ik2d.chain{ x = 0, y = 0, angle = 0, { length = 20 }, { length = 20 } }
        return chain, ik2d.spring(chain, { stiffness = 0, damping = 0, gravity = { 0, 980 } })
      end
      local falling, sf = pendulums()
      local standing, ss = pendulums()
      local drift, swing = 0, 0
      for f = 1, 60 do
        local t = f / 60
        falling:set_base(0, 490 * t * t, 0)
        sf:update(1 / 60)
        ss:update(1 / 60)
        for i = 1, 2 do
          drift = max(drift, abs(falling:world_angle(i)))
          swing = max(swing, abs(standing:world_angle(i)))
        end
      end
      assert.truthy(drift <= 1e-4, ("the falling bones turned %.3g rad"):format(drift))
      assert.truthy(swing > 1, ("the standing bones swung %.3g rad"):format(swing))
    end)

    it("moves the same at 60, 144 and 240 Hz: within 0.5% of the swing (measured 0.24%), 144 and 240 " ..
       "within 0.05% (0.03%)", function()
      local function make()
        local chain, spring = runner()
        return chain, spring
      end
      local function drive(c, t) c:set_base(100 + run_x(t), 50, pi / 2) end
      local from = world_angles(hanging())
      local at60, at144 = trajectory(make, 60, 4, drive), trajectory(make, 144, 4, drive)
      local worst, swing = compare(at60, at144, from)
      assert.truthy(swing > 1.5, ("swung %.3f rad"):format(swing))
      assert.truthy(worst <= 0.005 * swing, ("60 vs 144 Hz: %.3g%%"):format(100 * worst / swing))
      worst = compare(at144, trajectory(make, 240, 4, drive), from)
      assert.truthy(worst <= 0.0005 * swing, ("144 vs 240 Hz: %.3g%%"):format(100 * worst / swing))
    end)

    it("moves a flipped tail as the mirror image of an unflipped one", function()
      local plain, flipped = hanging(), hanging({ flip = true })
      local sp = ik2d.spring(plain, { gravity = { 0, 980 }, wind = { 40, -10 } })
      local sf = ik2d.spring(flipped, { gravity = { 0, 980 }, wind = { -40, -10 } })
      for f = 1, 240 do
        local t = f / 60
        plain:set_base(100 + run_x(t), 50 + 30 * sin(3 * t), pi / 2)
        flipped:set_base(100 - run_x(t), 50 + 30 * sin(3 * t), pi / 2)
        sp:update(1 / 60)
        sf:update(1 / 60)
        for i = 1, 4 do
          assert.near(0, angle_diff(pi - plain:world_angle(i), flipped:world_angle(i)), 1e-9)
        end
      end
    end)

    it("takes the base's move in an update with dt = 0 as a teleport: the run goes on, nothing felt",
       function()
      local plain, moved = hanging(), hanging()
      local sp = ik2d.spring(plain, { gravity = { 0, 980 } })
      local sm = ik2d.spring(moved, { gravity = { 0, 980 } })
      local jumped = 0
      for f = 1, 90 do
        local x = 100 + run_x(f / 60)
        if f == 30 then
          -- somewhere else, 500 px on: as if it had always run there
          jumped = 500
          moved:set_base(100 + run_x(29 / 60) + jumped, 50, pi / 2)
          sm:update(0)
        end
        plain:set_base(x, 50, pi / 2)
        moved:set_base(x + jumped, 50, pi / 2)
        sp:update(1 / 60)
        sm:update(1 / 60)
        for i = 1, 4 do
          assert.near(plain:world_angle(i), moved:world_angle(i), 1e-9)
          assert.near(sp:velocity(i), sm:velocity(i), 1e-7)
        end
      end
    end)

    it("forgets the base's speed on reset: a teleport then reset leaves the tail hanging", function()
      local chain = hanging()
      local spring = ik2d.spring(chain, { gravity = { 0, 980 } })
      for f = 1, 30 do
        chain:set_base(100 + 300 * f / 60, 50, pi / 2)
        spring:update(1 / 60)
      end
      chain:set_base(5000, 50, pi / 2)
      spring:reset()
      spring:update(1 / 60)
      -- still: no jump of speed, no air past it
      for i = 1, 4 do
        assert.near(pi / 2, chain:world_angle(i), 1e-12)
        assert.near(0, spring:velocity(i), 1e-12)
      end
    end)

    it("feels a skeleton chain's parent bone move: a tail on a hip lags when the skeleton runs", function()
      local sk = ik2d.skeleton{ x = 100, y = 50, angle = 0,
        { name = "body", length = 30 },
        { name = "t1", parent = "body", length = 20, angle = pi / 2 },
        { name = "t2", parent = "t1", length = 20 },
        { name = "t3", parent = "t2", length = 20 } }
      local tail_chain = sk:chain("t1", "t3")
      local spring = ik2d.spring(tail_chain, { gravity = { 0, 980 } })
      local lag = 0
      for f = 1, 15 do
        sk:set_base(100 + run_x(f / 60), 50, 0)
        spring:update(1 / 60)
        lag = max(lag, angle_diff(pi / 2, select(3, sk:world("t3"))))
      end
      assert.truthy(lag > 0.8, ("the tail's tip lagged %.3f rad"):format(lag))
    end)
  end)

  describe("wind", function()
    it("hangs a free bone along gravity plus damping / mass times the wind: atan2(980, 10 / 2 * 300)",
       function()
      for _, flip in ipairs{ false, true } do
        local chain = ik2d.chain{ x = 0, y = 0, angle = 2, flip = flip, { length = 15 } }
        local spring = ik2d.spring(chain, { stiffness = 0, damping = 10, mass = 2, gravity = { 0, 980 },
                                            wind = { 300, 0 } })
        for _ = 1, 600 do spring:update(1 / 60) end
        assert.near(math.atan(980 / 1500), chain:world_angle(1), 1e-9)
        assert.near(0, spring:velocity(1), 1e-9)
      end
    end)

    it("bends a hanging tail downwind, the tip the most, and set_wind changes it as the option does",
       function()
      local blown, set, still = hanging(), hanging(), hanging()
      local sb = ik2d.spring(blown, { gravity = { 0, 980 }, stiffness = 20, wind = { 300, 0 } })
      local ss = ik2d.spring(set, { gravity = { 0, 980 }, stiffness = 20 })
      local sn = ik2d.spring(still, { gravity = { 0, 980 }, stiffness = 20 })
      ss:set_wind(300, 0)
      assert.are.same({ 300, 0 }, { ss:wind() })
      assert.are.same({ 300, 0 }, sb:options().wind)
      for _ = 1, 600 do
        sb:update(1 / 60)
        ss:update(1 / 60)
        sn:update(1 / 60)
      end
      assert.are.same(helpers.joints_of(blown), helpers.joints_of(set))
      local last = pi / 2
      for i = 1, 4 do
        -- downwind is toward +x: a world angle below pi / 2
        local a = blown:world_angle(i)
        assert.truthy(a < last - 0.01, ("bone %d at %.3f"):format(i, a))
        last = a
        assert.near(pi / 2, still:world_angle(i), 1e-12)
      end
      assert.truthy(last < 0.5, ("the tip at %.3f rad"):format(last))
    end)

    it("refuses a wind that is not finite, naming the argument, changing nothing", function()
      local spring = ik2d.spring(hanging(), { wind = { 1, 2 } })
      local msg = helpers.caller_error(function() spring:set_wind(1, 0 / 0) end)
      assert.are.equal("bad argument #2 to 'set_wind' (wind y must be finite)", msg)
      msg = helpers.caller_error(function() spring:set_wind(math.huge, 0) end)
      assert.are.equal("bad argument #1 to 'set_wind' (wind x must be finite)", msg)
      msg = helpers.caller_error(function() spring:set_options{ wind = { 1 } } end)
      assert.are.equal("bad argument #1 to 'set_options' (wind[2]: number expected, got nil)", msg)
      assert.are.same({ 1, 2 }, { spring:wind() })
    end)
  end)

  describe("colliders", function()
    -- the ground at y = 100 (x from -1000 to 1000) and a ball at (200, 60)
    local GROUND, BALL = 100, { x = 200, y = 60, radius = 25 }
    local function colliders()
      return { { x1 = -1000, y1 = GROUND, x2 = 1000, y2 = GROUND },
               { x = BALL.x, y = BALL.y, radius = BALL.radius } }
    end

    -- the deepest any joint went below the ground and into the ball
    local function depths(chain)
      local ground, ball = -math.huge, -math.huge
      for j = 2, #chain + 1 do
        local x, y = chain:joint(j)
        ground = max(ground, y - GROUND)
        ball = max(ball, BALL.radius - sqrt((x - BALL.x) ^ 2 + (y - BALL.y) ^ 2))
      end
      return ground, ball
    end

    it("keeps every joint above the ground and out of the ball while a 6-bone tail is swung about " ..
       "(touching: within 1e-9 px, hundreds of frames)", function()
      for _, flip in ipairs{ false, true } do
        local t = { x = 100, y = 50, angle = 0, flip = flip }
        for i = 1, 6 do t[i] = { length = 20 } end
        local chain = ik2d.chain(t)
        local spring = ik2d.spring(chain, { gravity = { 0, 980 }, stiffness = 5, damping = 2 })
        spring:set_colliders(colliders())
        local touching_ground, touching_ball = 0, 0
        for f = 1, 1200 do
          local time = f / 60
          local bx = flip and 300 - 80 * sin(2 * time) or 100 + 80 * sin(2 * time)
          chain:set_base(bx, 50 + 20 * sin(3 * time), 0)
          spring:update(1 / 60)
          local ground, ball = depths(chain)
          assert.truthy(ground <= 1e-9, ("frame %d: %.3g px below the ground"):format(f, ground))
          assert.truthy(ball <= 1e-9, ("frame %d: %.3g px into the ball"):format(f, ball))
          if ground > -1e-9 then touching_ground = touching_ground + 1 end
          if ball > -1e-9 then touching_ball = touching_ball + 1 end
          assert.truthy(all_finite(chain))
        end
        assert.truthy(touching_ground > 100, ("on the ground %d frames"):format(touching_ground))
        assert.truthy(touching_ball > 20, ("on the ball %d frames"):format(touching_ball))
      end
    end)

    it("lays a falling tail on the ground at rest, the bones on it still from the first touch", function()
      local t = { x = 0, y = 50, angle = 0 }
      for i = 1, 5 do t[i] = { length = 20 } end
      local chain = ik2d.chain(t)
      local spring = ik2d.spring(chain, { gravity = { 0, 980 }, stiffness = 1, damping = 4 })
      spring:set_colliders{ { x1 = -500, y1 = GROUND, x2 = 500, y2 = GROUND } }
      for _ = 1, 600 do
        spring:update(1 / 60)
        -- a bone lying on the ground has stopped turning into it
        for i = 1, 5 do
          local _, y0 = chain:joint(i)
          local _, y1 = chain:joint(i + 1)
          if abs(y0 - GROUND) < 1e-9 and abs(y1 - GROUND) < 1e-9 then
            assert.are.equal(0, spring:velocity(i))
          end
        end
      end
      local _, tip_y = chain:tip()
      assert.near(GROUND, tip_y, 1e-9)
      for i = 1, 5 do assert.near(0, spring:velocity(i), 1e-6) end
    end)

    it("holds in one long frame too: dt = 100 ends above the ground, at rest", function()
      local t = { x = 0, y = 50, angle = 0 }
      for i = 1, 5 do t[i] = { length = 20 } end
      local chain = ik2d.chain(t)
      local spring = ik2d.spring(chain, { gravity = { 0, 980 }, stiffness = 1, damping = 1 })
      spring:set_colliders{ { x1 = -500, y1 = GROUND, x2 = 500, y2 = GROUND } }
      spring:update(100)
      for j = 2, 6 do assert.truthy(select(2, chain:joint(j)) <= GROUND + 1e-9) end
      for i = 1, 5 do assert.near(0, spring:velocity(i), 1e-12) end
      local _, tip_y = chain:tip()
      assert.near(GROUND, tip_y, 1e-9)
    end)

    it("reads them back; {} and nil clear them", function()
      local spring = ik2d.spring(hanging())
      assert.are.same({}, spring:colliders())
      spring:set_colliders(colliders())
      assert.are.same(colliders(), spring:colliders())
      local reused = { "old", "old", "old" }
      assert.are.equal(reused, spring:colliders(reused))
      assert.are.same(colliders(), reused)
      spring:set_colliders{}
      assert.are.same({}, spring:colliders())
      spring:set_colliders(colliders())
      spring:set_colliders(nil)
      assert.are.same({}, spring:colliders())
      spring:set_colliders(colliders())
      spring:set_colliders()
      assert.are.same({}, spring:colliders())
    end)

    it("takes 16, refuses 17 and bad ones with what is wrong with which, changing nothing", function()
      local spring = ik2d.spring(hanging())
      spring:set_colliders(colliders())
      local many = {}
      for k = 1, 16 do many[k] = { x = k, y = 0, radius = 1 } end
      spring:set_colliders(many)
      assert.are.equal(16, #spring:colliders())
      spring:set_colliders(colliders())
      many[17] = { x = 17, y = 0, radius = 1 }
      local cases = {
        { many, "a spring takes at most 16 colliders, got 17" },
        { { colliders()[1], { x = 1, y = 2, radius = -1 } },
          "colliders[2]: circle radius must be >= 0 and finite" },
        { { { x = 0 / 0, y = 2, radius = 1 } }, "colliders[1]: circle x must be finite" },
        { { { x1 = 0, y1 = 0, x2 = 1, y2 = math.huge } }, "colliders[1]: segment y2 must be finite" },
        { { { x = 1, y = 2 } }, "colliders[1].radius: number expected, got nil" },
        { { { x = 1, y = 2, radius = 3, x2 = 4 } },
          "colliders[1]: a circle {x =, y =, radius =} or a segment {x1 =, y1 =, x2 =, y2 =} expected, " ..
          "not both" },
        { { {} }, "colliders[1]: a circle {x =, y =, radius =} or a segment {x1 =, y1 =, x2 =, y2 =} " ..
          "expected" },
        { { { x = 1, y = 2, raduis = 3 } }, "colliders[1]: unknown field 'raduis'" },
        { { 5 }, "colliders[1]: table expected, got number" },
        { { radius = 3 }, "colliders: unknown key 'radius'" },
      }
      for _, case in ipairs(cases) do
        local msg = helpers.caller_error(function() spring:set_colliders(case[1]) end)
        assert.are.equal("bad argument #1 to 'set_colliders' (" .. case[2] .. ")", msg)
        assert.are.same(colliders(), spring:colliders())
      end
    end)
  end)

  describe("settings per bone", function()
    it("moves bit for bit as the number when every bone is given the same", function()
      local a, b = tail(4), tail(4)
      local sa = ik2d.spring(a, { stiffness = 70, damping = 3, mass = 1.5, gravity = { 0, 400 } })
      local sb = ik2d.spring(b, { stiffness = { 70, 70, 70, 70 }, damping = { 3, 3, 3, 3 },
                                  mass = { 1.5, 1.5, 1.5, 1.5 }, gravity = { 0, 400 } })
      for f = 1, 120 do
        a:set_base(100 + f, 50, pi / 2 + sin(f / 10))
        b:set_base(100 + f, 50, pi / 2 + sin(f / 10))
        sa:update(1 / 60)
        sb:update(1 / 60)
        assert.are.same(helpers.joints_of(a), helpers.joints_of(b))
      end
    end)

    it("gives each bone its own: a free tip bone (stiffness 0) hangs straight down while the stiff root " ..
       "holds where its spring balances gravity", function()
      local chain = ik2d.chain{ x = 0, y = 0, angle = 0, { length = 20 }, { length = 10 } }
      local spring = ik2d.spring(chain, { stiffness = { 400, 0 }, damping = { 8, 4 }, mass = { 1, 0.5 },
                                          gravity = { 0, 980 } })
      for _ = 1, 60 * 20 do spring:update(1 / 60) end
      assert.near(pi / 2, chain:world_angle(2), 1e-9)
      -- the root: joint 1 carries both bones (2 x 400), gravity on bone 1 alone
      local x = chain:world_angle(1)
      assert.near(2 * 400 * x, 1 * 980 / 20 * cos(x), 1e-6)
    end)

    it("damps the bone given more damping faster: one bone each, 1 against 8", function()
      local function settle_time(damping)
        local chain = ik2d.chain{ { length = 10 } }
        local spring = ik2d.spring(chain, { stiffness = { 100 }, damping = { damping } })
        chain:set_pose(1, 1)
        spring:update(0)
        for f = 1, 600 do
          spring:update(1 / 60)
          if abs(chain:angle(1) - 1) < 1e-3 and abs(spring:velocity(1)) < 1e-2 then return f end
        end
        return math.huge
      end
      assert.truthy(settle_time(8) < 0.5 * settle_time(1))
    end)

    it("reads the arrays back (a reused table refilled), and a number again after a number", function()
      local spring = ik2d.spring(tail(3), { stiffness = { 10, 20, 30 } })
      local o = spring:options()
      assert.are.same({ 10, 20, 30 }, o.stiffness)
      assert.are.equal(10, o.damping)
      local kept = o.stiffness
      spring:set_options{ damping = { 1, 2, 3 } }
      assert.are.equal(o, spring:options(o))
      assert.are.equal(kept, o.stiffness)
      assert.are.same({ 10, 20, 30 }, o.stiffness)
      assert.are.same({ 1, 2, 3 }, o.damping)
      spring:set_options{ stiffness = 5 }
      assert.are.equal(5, spring:options().stiffness)
      -- the spring keeps its own copy
      local given = { 4, 5, 6 }
      spring:set_options{ mass = given }
      given[1] = -1
      assert.are.same({ 4, 5, 6 }, spring:options().mass)
    end)

    it("refuses an array of the wrong length or with a bad number, naming it, changing nothing", function()
      local MASS = "mass must be > 0 and finite, with stiffness / mass and damping / mass finite"
      local spring = ik2d.spring(tail(3), { stiffness = { 10, 20, 30 } })
      local cases = {
        { { stiffness = { 1, 2 } }, "stiffness: 3 numbers expected (one per bone), got 2" },
        { { damping = { 1, 2, 3, 4 } }, "damping: 3 numbers expected (one per bone), got 4" },
        { { mass = { 1, "x", 3 } }, "mass[2]: number expected, got string" },
        { { stiffness = { 1, -2, 3 } }, "stiffness must be >= 0 and finite" },
        { { mass = { 1, 0, 3 } }, MASS },
        { { damping = { 1, 0 / 0, 3 } }, "damping must be >= 0 and finite" },
        -- bone 1's mass against bone 2's stiffness (joint 2 pulls bone 1 too)
        { { stiffness = { 1, 1e300, 3 }, mass = { 1e-300, 1, 1 } }, MASS },
      }
      for _, case in ipairs(cases) do
        local msg = helpers.caller_error(function() spring:set_options(case[1]) end)
        assert.are.equal("bad argument #1 to 'set_options' (" .. case[2] .. ")", msg)
        assert.are.same({ 10, 20, 30 }, spring:options().stiffness)
        assert.are.equal(10, spring:options().damping)
      end
      local msg = helpers.caller_error(function() ik2d.spring(tail(2), { stiffness = { 1, 2, 3 } }) end)
      assert.are.equal("bad argument #2 to 'spring' (stiffness: 2 numbers expected (one per bone), got 3)",
                       msg)
    end)
  end)

  describe("stability at any dt", function()
    -- 3 bones, damping 1, stiffness 100, the base turned by 1 rad
    local function light()
      local chain = tail(3, { angle = 0 })
      local spring = ik2d.spring(chain, { damping = 1, stiffness = 100 })
      chain:set_base(100, 50, 1)
      return chain, spring
    end

    it("is at rest at the neutral angles after 3 updates of dt = 100, 1e6 or math.huge (1e-12 rad, rad/s)", function()
      for _, dt in ipairs{ 20, 100, 1e6, math.huge } do
        local chain, spring = light()
        for _ = 1, 3 do spring:update(dt) end
        for i = 1, 3 do
          assert.near(chain:pose(i), chain:angle(i), 1e-12)
          assert.near(0, spring:velocity(i), 1e-12)
        end
      end
    end)

    it("goes on at 60 Hz after a long frame as a spring at rest does (1e-9 rad)", function()
      local chain, spring = light()
      spring:update(100)
      spring:update(1 / 60)
      chain:set_base(100, 50, 0)
      local twin_chain, twin = light()
      twin:reset()
      twin:update(1 / 60)
      twin_chain:set_base(100, 50, 0)
      for _ = 1, 60 do
        spring:update(1 / 60)
        twin:update(1 / 60)
      end
      for i = 1, 3 do assert.near(twin_chain:angle(i), chain:angle(i), 1e-9) end
    end)

    it("never swings up a stiff spring (stiffness 1e4 to 1e12, damping 0.1) at 60 Hz or in long frames",
       function()
      for _, stiffness in ipairs{ 1e4, 1e6, 1e8, 1e12 } do
        for _, dt in ipairs{ 1 / 60, 0.5 } do
          local chain = tail(10, { angle = 0 })
          local spring = ik2d.spring(chain, { stiffness = stiffness, damping = 0.1 })
          chain:set_base(100, 50, 1)
          local first
          for f = 1, 600 do
            spring:update(dt)
            local worst = 0
            for i = 1, 10 do worst = max(worst, abs(angle_diff(chain:pose(i), chain:angle(i)))) end
            if f == 30 then first = worst end
            assert.truthy(all_finite(chain))
          end
          local worst = 0
          for i = 1, 10 do worst = max(worst, abs(angle_diff(chain:pose(i), chain:angle(i)))) end
          assert.truthy(worst <= first + 1e-12,
                        ("stiffness %g, dt %g: %.3g rad off, %.3g at frame 30"):format(stiffness, dt, worst,
                                                                                        first))
        end
      end
    end)
  end)

  describe("objects", function()
    it("keeps its chain alive and says what it is", function()
      local spring = ik2d.spring(tail(2))
      collectgarbage()
      collectgarbage()
      assert.are.equal(2, #spring:chain())
      assert.truthy(tostring(spring):find("ik2d.Spring(stiffness 100", 1, true))
    end)

    it("allocates nothing per update in steady state", function()
      local chain = tail(8)
      local spring = ik2d.spring(chain, { gravity = { 0, 980 } })
      local f = 0
      local grown = helpers.steady_growth(function()
        for _ = 1, 200 do
          f = f + 1
          chain:set_base(100, 50, pi / 2 + sin(f / 30))
          spring:update(1 / 60)
        end
      end)
      assert.are.equal(0, grown)
    end)

    it("allocates nothing per update with a running base, wind, colliders set every frame and per-bone " ..
       "settings (interpreted; classic and FFI methods)", function()
      local chain = tail(8)
      local spring = ik2d.spring(chain, { gravity = { 0, 980 }, wind = { 40, 0 },
                                          stiffness = { 80, 70, 60, 50, 40, 30, 20, 10 },
                                          damping = { 4, 4, 4, 4, 3, 3, 2, 2 } })
      local ball = { x = 150, y = 90, radius = 20 }
      local ground = { x1 = -1e4, y1 = 150, x2 = 1e4, y2 = 150 }
      local list = { ball, ground }
      local f = 0
      local function run()
        for _ = 1, 200 do
          f = f + 1
          local x = 100 + 80 * sin(f / 25)
          chain:set_base(x, 50 + 10 * sin(f / 7), pi / 2)
          ball.x = x + 40
          spring:set_colliders(list)
          spring:set_wind(40 * sin(f / 50), 0)
          -- one frame in fifty is a hitch: the backward Euler path too
          spring:update(f % 50 == 0 and 2 or 1 / 60)
        end
      end
      assert.are.equal(0, helpers.steady_growth(run, true))
      if ik2d.ffi then
        ik2d.use_ffi(false)
        local bytes = helpers.steady_growth(run, true)
        ik2d.use_ffi(true)
        assert.are.equal(0, bytes)
      end
    end)
  end)
end)

describe("ik2d.spring's messages: a bone index out of range named, a bad dt named", function()
  local PATHS = helpers.ffi_paths(ik2d, true)
  local function three_bones() return helpers.three_bones(ik2d) end
  local caller_error = helpers.caller_error
  after_each(function() ik2d.use_ffi(true) end)

  for _, on in ipairs(PATHS) do
    describe("on each path" .. helpers.path_name(PATHS, on), function()
      before_each(function() ik2d.use_ffi(on) end)

      -- an index out of range names the index given
      describe("an index out of range", function()
        local cases = {
          { "sp:velocity(4)", function(o) local r = o.sp:velocity(4) return r end,
            "bad argument #1 to 'velocity' (bone index 4 out of range (1..3))" },
        }
        for _, case in ipairs(cases) do
          it(case[1] .. " says " .. case[3]:match("%((.*)%)$"), function()
            local o = { sp = ik2d.spring(three_bones()) }
            assert.are.equal(case[3], caller_error(case[2], o))
          end)
        end
      end)

      -- a spring's dt: the value given, not "not nan"
      describe("sp:update with a bad dt", function()
        for _, case in ipairs{ { -1, "-1" }, { 0 / 0, "nan" }, { -math.huge, "-inf" },
                               { "-0.5", "-0.5" }, { -1e-300, "-1e-300" } } do
          it(("sp:update(%s) says dt must be >= 0 (seconds), got %s"):format(tostring(case[1]), case[2]),
             function()
            local chain = three_bones()
            local sp = ik2d.spring(chain)
            sp:update(1 / 60)
            local before = helpers.chain_state(chain)
            assert.are.equal(("bad argument #1 to 'update' (dt must be >= 0 (seconds), got %s)"):format(case[2]),
              caller_error(function() local r = sp:update(case[1]) return r end))
            assert.are.same(before, helpers.chain_state(chain))
          end)
        end
      end)
    end)
  end
end)
