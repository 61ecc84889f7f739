-- Solve quality across methods: keep-best (never worse than the start),
-- limits for every method, CCD convergence against textbook CCD, tracking
-- without misses or flips, and the CCD options (exact, sweep).
-- bench/quality.c measures the same things at scale (`make bench-quality`).

local ik2d = require "ik2d"
local helpers = require "spec.helpers"

local pi = math.pi
local cos, sin, abs, sqrt = math.cos, math.sin, math.abs, math.sqrt
local EPS = 1e-9
-- random cases of the checks that hold case by case (IK2D_LONG=1: 400)
local CASES = helpers.size(100, 400)

-- Textbook CCD through the options: tip-to-root sweeps, no exact step.
local TEXTBOOK = { exact = false, sweep = "tip" }

local function with(base, extra)
  local t = {}
  for k, v in pairs(base or {}) do t[k] = v end
  for k, v in pairs(extra or {}) do t[k] = v end
  return t
end

local function unit_chain(n)
  local t = {}
  for i = 1, n do t[i] = { length = 1 } end
  return ik2d.chain(t)
end

local tip_distance = helpers.tip_distance

-- Every method and CCD variant, with the chain it needs.
local variants = {
  { label = "ccd (defaults)", options = {} },
  { label = "ccd, textbook sweeps", options = TEXTBOOK },
  { label = "ccd, damping 0.2", options = { damping = 0.2 } },
  { label = "fabrik", options = { method = "fabrik" } },
  { label = "two_bone", options = { method = "two_bone" }, two = true },
  { label = "two_bone, bend -1", options = { method = "two_bone", bend = -1 }, two = true },
}

-- A limited chain, its (min, max) per bone and which ranges are inverted.
local function limited_chain(two)
  local spec = {
    { length = 40, angle = 0.2, min = -1.2, max = 0.9 },
    { length = 35, angle = 0.5, min = -0.17, max = 2.27 },
    { length = 25, angle = 3.0, min = -0.6, max = 0.8 },
    { length = 15, angle = -2.0, min = -1.5, max = 1.0 } }
  if two then spec[3], spec[4] = nil, nil end
  local arm = ik2d.chain(spec)
  if not two then
    arm:set_constraint(4, ik2d.constraint{ min = -1.5, max = 1.0, invert = true })
  end
  return arm, { [4] = not two or nil }
end

-- A pose inside the limits (the middle of each range plus some).
local function random_inside(arm, rng, inverted)
  for i = 1, #arm do
    local c = arm:constraint(i)
    local lo, hi = c:limits()
    local delta
    if inverted and inverted[i] then
      delta = rng.range(hi, lo + 2 * pi) -- the allowed outside arc
    else
      delta = rng.range(lo, hi)
    end
    arm:set_pose(i, arm:rest(i) + delta)
  end
end

describe("solve quality", function()
  describe("keep best", function()
    for _, v in ipairs(variants) do
      it(("%s never ends farther from the target than the start pose (%d random cases, limits, 1 to 5 iterations)")
         :format(v.label, CASES), function()
        local rng = helpers.random(#v.label)
        for n = 1, CASES do
          local arm, inverted = limited_chain(v.two)
          arm:set_base(rng.range(-20, 20), rng.range(-20, 20), rng.range(-pi, pi))
          random_inside(arm, rng, inverted)
          local bx, by = arm:base()
          local r, a = rng.range(0, 1.1 * arm:reach()), rng.range(-pi, pi)
          local tx, ty = bx + r * cos(a), by + r * sin(a)
          local before = tip_distance(arm, tx, ty)
          local s = ik2d.solver(arm, with(v.options, { iterations = 1 + n % 5, warm_start = false }))
          s:set_target(tx, ty)
          local _, distance = s:solve()
          assert.truthy(distance <= before + 1e-12,
                        ("case %d: %.17g after, %.17g before"):format(n, distance, before))
        end
      end)
    end
  end)

  describe("limits", function()
    for _, v in ipairs(variants) do
      it(("hold for %s over %d random targets, starts and bases, inverted range included"):format(v.label, CASES),
         function()
        local rng = helpers.random(100 + #v.label)
        local arm, inverted = limited_chain(v.two)
        local s = ik2d.solver(arm, v.options)
        for n = 1, CASES do
          arm:set_base(rng.range(-20, 20), rng.range(-20, 20), rng.range(-pi, pi))
          if n % 3 == 0 then
            -- sometimes a start from an arbitrary pose, limits or not
            for i = 1, #arm do arm:set_pose(i, rng.range(-pi, pi)) end
            s:forget()
          end
          local bx, by = arm:base()
          local r, a = rng.range(0, 1.2 * arm:reach()), rng.range(-pi, pi)
          s:set_target(bx + r * cos(a), by + r * sin(a))
          local reached, distance = s:solve()
          local worst, bone = helpers.max_violation(arm, inverted)
          assert.truthy(worst <= EPS, ("case %d: bone %s is %.3g rad past its limit")
                                      :format(n, tostring(bone), worst))
          assert.are.equal(distance <= s:tolerance(), reached)
        end
      end)
    end
  end)

  describe("ccd convergence", function()
    -- random start poses and targets in the disc of 0.99 x reach,
    -- tolerance 1e-3 x reach, as bench/quality.c does
    local function hits(n, options, cases, seed)
      local rng = helpers.random(seed)
      local arm = unit_chain(n)
      local s = ik2d.solver(arm, with(options, { iterations = 10, tolerance = 1e-3 * n }))
      local count = 0
      for _ = 1, cases do
        for i = 1, n do arm:set_pose(i, rng.range(-pi, pi)) end
        s:forget()
        local r, a = 0.99 * n * math.sqrt(rng.next()), rng.range(-pi, pi)
        s:set_target(r * cos(a), r * sin(a))
        if s:solve() then count = count + 1 end
      end
      return count
    end

    it("reaches at least twice as many random targets within 10 iterations as textbook ccd (10 bones)", function()
      local ours, textbook = hits(10, {}, 300, 42), hits(10, TEXTBOOK, 300, 42)
      assert.truthy(ours >= 2 * textbook, ("%d against %d"):format(ours, textbook))
    end)

    it("reaches at least 98% of random targets within 10 iterations with 3 bones (300 cases)", function()
      local ours = hits(3, {}, 300, 43)
      assert.truthy(ours >= 294, ("%d of 300"):format(ours))
    end)

    it("still converges with textbook sweeps when given 1000 iterations (5 bones, 100 cases)", function()
      local rng = helpers.random(44)
      local arm = unit_chain(5)
      local s = ik2d.solver(arm, with(TEXTBOOK, { iterations = 1000, tolerance = 5e-3 }))
      for n = 1, 100 do
        local r, a = rng.range(0, 4.9), rng.range(-pi, pi)
        s:set_target(r * cos(a), r * sin(a))
        local reached, distance = s:solve()
        assert.truthy(reached, ("target %d: %.3g away"):format(n, distance))
      end
    end)
  end)

  describe("one-sided limits", function()
    -- An elbow that bends one way only, starting straight: textbook CCD
    -- stops 35.66 away (the elbow pinned at its limit, the wrist folded
    -- back), the exact step takes the bend side the limit allows.
    local function arm_and_target(method)
      local arm = ik2d.chain{ x = 400, y = 300,
        { length = 90 }, { length = 70, min = -2.4, max = 0 }, { length = 30 } }
      local s = ik2d.solver(arm, { method = method })
      s:set_target(450, 380)
      return arm, s
    end

    it("a straight chain reaches a target behind its elbow's one-sided limit (ccd and fabrik)", function()
      for _, method in ipairs{ "ccd", "fabrik" } do
        local arm, s = arm_and_target(method)
        local reached, distance = s:solve()
        assert.is_true(reached, method .. ": distance " .. distance)
        local x, y = arm:tip()
        assert.near(450, x, 0.01)
        assert.near(380, y, 0.01)
        assert.truthy(arm:angle(2) >= -2.4 - 1e-9 and arm:angle(2) <= 1e-9)
      end
    end)

    it("textbook ccd (no exact step) still stalls there, as plain CCD does", function()
      local arm = ik2d.chain{ x = 400, y = 300,
        { length = 90 }, { length = 70, min = -2.4, max = 0 }, { length = 30 } }
      local s = ik2d.solver(arm, { exact = false, sweep = "tip", iterations = 100 })
      s:set_target(450, 380)
      local reached, distance = s:solve()
      assert.is_false(reached)
      assert.near(35.66, distance, 0.01)
    end)
  end)

  describe("tracking", function()
    -- a target wandering smoothly inside 0.2 .. 0.9 x reach
    local function path(n, speed, frames)
      local reach, points = n, {}
      local phase = 0
      for f = 1, frames do
        phase = phase + speed
        local r = reach * (0.55 + 0.35 * sin(0.37 * phase))
        points[f] = { r * cos(phase), r * sin(phase) }
      end
      return points
    end

    for _, n in ipairs{ 3, 5, 10 } do
      it(("ccd reaches a moving target every frame with 10 iterations (%d bones, 1000 frames)"):format(n), function()
        local arm = unit_chain(n)
        local s = ik2d.solver(arm, { tolerance = 1e-3 * n })
        local misses, iterations = 0, 0
        for _, p in ipairs(path(n, 0.02, 1000)) do
          s:set_target(p[1], p[2])
          local reached, _, used = s:solve()
          if not reached then misses = misses + 1 end
          iterations = iterations + used
        end
        assert.are.equal(0, misses)
        -- one exact step a frame, nearly always
        assert.truthy(iterations <= 1100, "iterations " .. iterations)
      end)

      it(("ccd turns no joint more than 0.05 rad a frame while the target creeps (%d bones): no flips")
         :format(n), function()
        local arm = unit_chain(n)
        local s = ik2d.solver(arm, { tolerance = 1e-3 * n })
        local previous, worst = nil, 0
        for _, p in ipairs(path(n, 0.004, 2000)) do
          s:set_target(p[1], p[2])
          s:solve()
          local angles = helpers.angles_of(arm)
          if previous then
            for i = 1, n do
              worst = math.max(worst, abs(helpers.angle_diff(previous[i], angles[i])))
            end
          end
          previous = angles
        end
        assert.truthy(worst <= 0.05, "largest turn " .. worst)
      end)
    end

    it("keeps the elbow of a 2-bone ccd chain on its side round a whole circle", function()
      local arm = ik2d.chain{ { length = 60 }, { length = 45 } }
      arm:set_pose(2, 0.8)
      local s = ik2d.solver(arm)
      for f = 0, 400 do
        local a = 2 * pi * f / 400
        s:set_target(70 * cos(a), 70 * sin(a))
        assert.is_true((s:solve()))
        assert.truthy(arm:angle(2) > 0.5, ("frame %d: elbow at %.3f"):format(f, arm:angle(2)))
      end
    end)
  end)

  describe("ccd options", function()
    it("take exact and sweep from the options table", function()
      local arm = unit_chain(4)
      local s = ik2d.solver(arm, TEXTBOOK)
      s:set_target(1, 2)
      local reached = s:solve()
      assert.is_boolean(reached)
      s:set_options{ exact = true, sweep = "root" }
      s:set_target(-1, 2)
      assert.is_true((s:solve()))
    end)

    it("reject a sweep other than \"root\" or \"tip\"", function()
      local arm = unit_chain(4)
      local msg = helpers.error_of(ik2d.solver, arm, { sweep = "middle" })
      helpers.check_message(msg, helpers.bad_argument(2, "solver", 'sweep must be "root" or "tip"'))
      msg = helpers.error_of(ik2d.solver, arm, { sweep = 1 })
      helpers.check_message(msg, { 'sweep must be "root" or "tip"' })
    end)

    it("exact = false turns every joint by at most damping per iteration", function()
      local arm = unit_chain(5)
      local s = ik2d.solver(arm, { damping = 0.05, iterations = 1, exact = false })
      s:set_target(-2, 3)
      s:solve()
      for i = 1, 5 do assert.truthy(abs(arm:angle(i)) <= 0.05 + EPS, "bone " .. i) end
    end)

    it("with damping, the exact step turns no joint more than damping either", function()
      local rng = helpers.random(5)
      local arm = unit_chain(5)
      local s = ik2d.solver(arm, { damping = 0.05, iterations = 1 })
      for n = 1, 200 do
        local before = {}
        for i = 1, 5 do
          before[i] = rng.range(-1, 1)
          arm:set_pose(i, before[i])
        end
        s:forget()
        local x, y = arm:tip()
        s:set_target(x + rng.range(-0.1, 0.1), y + rng.range(-0.1, 0.1))
        s:solve()
        for i = 1, 5 do
          local turn = abs(helpers.angle_diff(before[i], arm:angle(i)))
          assert.truthy(turn <= 0.05 + EPS, ("case %d, bone %d turned %.4f"):format(n, i, turn))
        end
      end
    end)
  end)

  describe("targets that jump every frame", function()
    -- Warm-started CCD used to crawl in folds a far jump needs undone:
    -- 10 bones of 20 to 40 ended more than 10 x tolerance from a
    -- reachable target in about 14% of frames (bench/quality.c); the
    -- solver now hands a crawling run's remaining iterations to FABRIK.
    local function far_share(bones, method)
      local rng = helpers.random(40 + bones)
      local t, reach = {}, 0
      for i = 1, bones do
        t[i] = { length = rng.range(20, 40) }
        reach = reach + t[i].length
      end
      local s = ik2d.solver(ik2d.chain(t), { method = method })
      local far, frames = 0, 2000
      for _ = 1, frames do
        local r, a = 0.99 * reach * math.sqrt(rng.next()), rng.range(-pi, pi)
        s:set_target(r * cos(a), r * sin(a))
        local _, distance = s:solve()
        if distance > 10 * s:tolerance() then far = far + 1 end
      end
      return far / frames
    end

    for _, bones in ipairs { 3, 5, 10 } do
      it(("default CCD, %d bones: fewer than 0.5%% of frames end far from a reachable target"):format(bones),
         function()
           assert.truthy(far_share(bones) < 0.005, far_share(bones))
         end)
    end

    it("textbook CCD stays textbook (no fallback): it still crawls on 10 bones", function()
      local rng = helpers.random(7)
      local t = {}
      for i = 1, 10 do t[i] = { length = rng.range(20, 40) } end
      local arm = ik2d.chain(t)
      local peer = ik2d.solver(arm, TEXTBOOK)
      local misses = 0
      for _ = 1, 300 do
        local r, a = 0.9 * arm:reach() * math.sqrt(rng.next()), rng.range(-pi, pi)
        peer:set_target(r * cos(a), r * sin(a))
        if not peer:solve() then misses = misses + 1 end
      end
      assert.truthy(misses > 30, misses)
    end)
  end)
end)

describe("a limited elbow with the target inside its reach", function()
  -- elbow limited to [-0.5, 0.5]: the nearest the tip gets to a target at
  -- distance d is min over the allowed elbows e of |d - r(e)|, r(e) the
  -- base-tip distance with elbow e (the shoulder is free), by brute force
  local function nearest(tx, ty)
    local d, best = sqrt(tx * tx + ty * ty), math.huge
    for k = 0, 100000 do
      local e = -0.5 + k / 100000
      local r = sqrt((10 + 10 * cos(e)) ^ 2 + (10 * sin(e)) ^ 2)
      best = math.min(best, abs(d - r))
    end
    return best
  end
  for _, method in ipairs { "ccd", "fabrik", "two_bone" } do
    for _, target in ipairs { { 3, 14 }, { 0, 15 }, { 0, 2 }, { -6, 9 } } do
      it(("%s ends at the nearest pose the limit allows, target (%g, %g)")
         :format(method, target[1], target[2]), function()
        local arm = ik2d.chain { { length = 10 }, { length = 10, min = -0.5, max = 0.5 } }
        local s = ik2d.solver(arm, { method = method })
        s:set_target(target[1], target[2])
        local _, distance = s:solve()
        assert.near(nearest(target[1], target[2]), distance, 1e-6)
        assert.near(distance, tip_distance(arm, target[1], target[2]), 1e-9)
        assert.is_true(abs(arm:angle(2)) <= 0.5 + 1e-12)
      end)
    end
  end
end)
