-- The FABRIK solver (method "fabrik"): it reaches the targets CCD
-- reaches, with the same tolerance, iterations, weight, limits and result
-- semantics, and never ends farther from the target than it started.

local ik2d = require "ik2d"
local helpers = require "spec.helpers"

local pi = math.pi
local cos, sin = math.cos, math.sin
local EPS = 1e-9

local function chain_of(lengths, extra)
  local t = { x = 5, y = -3, angle = 0.25 }
  for i, l in ipairs(lengths) do t[i] = { length = l, angle = 0.1 * i } end
  for k, v in pairs(extra or {}) do t[k] = v end
  return ik2d.chain(t)
end

local tip_distance = helpers.tip_distance

local shapes = {
  { name = "3 bones 60, 50, 20", lengths = { 60, 50, 20 } },
  { name = "5 unit bones", lengths = { 1, 1, 1, 1, 1 } },
  { name = "8 bones 30 .. 9", lengths = { 30, 27, 24, 21, 18, 15, 12, 9 } },
}

describe("fabrik solver", function()
  describe("reachable targets", function()
    for _, shape in ipairs(shapes) do
      it(("reaches the same 200 random reachable targets as ccd (%s, 100 iterations, tolerance 1e-3 x reach)")
         :format(shape.name), function()
        local rng = helpers.random(#shape.lengths)
        local fa, ca = chain_of(shape.lengths), chain_of(shape.lengths)
        local reach = fa:reach()
        local options = { iterations = 100, tolerance = 1e-3 * reach }
        options.method = "fabrik"
        local sf = ik2d.solver(fa, options)
        options.method = "ccd"
        local sc = ik2d.solver(ca, options)
        local fabrik_hits, ccd_hits = 0, 0
        for n = 1, 200 do
          local r, a = rng.range(0, 0.98 * reach), rng.range(-pi, pi)
          local tx, ty = 5 + r * cos(a), -3 + r * sin(a)
          sf:set_target(tx, ty)
          sc:set_target(tx, ty)
          local rf, df, itf = sf:solve()
          local rc, dc = sc:solve()
          assert.truthy(rf, ("target %d: fabrik misses by %.3g"):format(n, df))
          assert.truthy(rc, ("target %d: ccd misses by %.3g"):format(n, dc))
          assert.near(tip_distance(fa, tx, ty), df, EPS)
          assert.truthy(itf >= 1 and itf <= 100)
          assert.truthy(helpers.fk_error(fa) <= EPS)
          fabrik_hits = fabrik_hits + (rf and 1 or 0)
          ccd_hits = ccd_hits + (rc and 1 or 0)
        end
        assert.are.equal(200, fabrik_hits)
        assert.are.equal(ccd_hits, fabrik_hits)
      end)
    end

    it("stops as soon as the tip is within tolerance, and says 0 iterations when it starts there", function()
      local arm = chain_of{ 60, 50, 20 }
      local s = ik2d.solver(arm, { method = "fabrik", tolerance = 30 })
      s:set_target(60, 70)
      local reached, distance, iterations = s:solve()
      assert.is_true(reached)
      assert.are.equal(1, iterations)
      assert.truthy(distance <= 30)
      local again, _, iterations2 = s:solve()
      assert.is_true(again)
      assert.are.equal(0, iterations2)
    end)
  end)

  describe("targets out of reach", function()
    it("points the chain straight at them in one step; distance |t - base| - reach", function()
      local rng = helpers.random(4)
      local arm = chain_of{ 60, 50, 20 }
      local s = ik2d.solver(arm, { method = "fabrik" })
      for _ = 1, 50 do
        local r, a = rng.range(131, 500), rng.range(-pi, pi)
        s:set_target(5 + r * cos(a), -3 + r * sin(a))
        local reached, distance, iterations = s:solve()
        assert.is_false(reached)
        assert.near(r - 130, distance, EPS)
        assert.are.equal(1, iterations)
        for i = 1, 3 do
          assert.near(0, helpers.angle_diff(a, arm:world_angle(i)), EPS)
        end
      end
    end)
  end)

  describe("limits", function()
    it("are never exceeded over 500 random targets, starts and bases", function()
      local rng = helpers.random(8)
      local arm = ik2d.chain{
        { length = 40, angle = 0.2, min = -0.8, max = 0.8 },
        { length = 35, angle = 0.5, min = -0.17, max = 2.27 },
        { length = 25, angle = 3.0, min = -0.6, max = 0.8 },
        { length = 15, angle = -2.0, min = -1.5, max = 1.0, invert = true } }
      local s = ik2d.solver(arm, { method = "fabrik", warm_start = false })
      for n = 1, 500 do
        local bx, by = rng.range(-50, 50), rng.range(-50, 50)
        arm:set_base(bx, by, rng.range(-pi, pi))
        for i = 1, 4 do arm:set_pose(i, rng.range(-pi, pi)) end
        local r, a = rng.range(0, 140), rng.range(-pi, pi)
        s:set_target(bx + r * cos(a), by + r * sin(a))
        local reached, distance = s:solve()
        local v, bone = helpers.max_violation(arm, { [4] = true })
        assert.truthy(v <= EPS, ("target %d: bone %s is %.3g rad past its limit"):format(n, tostring(bone), v))
        assert.are.equal(distance <= s:tolerance(), reached)
      end
    end)
  end)

  describe("keep best", function()
    it("never ends farther from the target than the start pose (300 random cases, 1-4 iterations, limits)", function()
      local rng = helpers.random(15)
      for n = 1, 300 do
        local arm = ik2d.chain{
          { length = 40, min = -1.5, max = 1.5 }, { length = 35, min = -2, max = 0.5 },
          { length = 25 }, { length = 15, min = -1, max = 1 } }
        -- a start inside the limits: the start the solver sees is the pose
        local limits = { { -1.5, 1.5 }, { -2, 0.5 }, { -pi, pi }, { -1, 1 } }
        for i = 1, 4 do arm:set_pose(i, rng.range(limits[i][1], limits[i][2])) end
        local r, a = rng.range(0, 130), rng.range(-pi, pi)
        local tx, ty = r * cos(a), r * sin(a)
        local before = tip_distance(arm, tx, ty)
        local s = ik2d.solver(arm, { method = "fabrik", iterations = 1 + n % 4, warm_start = false })
        s:set_target(tx, ty)
        local _, distance = s:solve()
        assert.truthy(distance <= before + 1e-12,
                      ("case %d: %.17g after, %.17g before"):format(n, distance, before))
      end
    end)
  end)

  describe("weight", function()
    it("0.5 gives pose + 0.5 * (ik - pose) per bone, ik from a weight-1 fabrik solve", function()
      local full, half = chain_of{ 60, 50, 20 }, chain_of{ 60, 50, 20 }
      for _, arm in ipairs{ full, half } do
        arm:set_pose(1, 0.3)
        arm:set_pose(2, -0.2)
        arm:set_pose(3, 0.15)
      end
      local s1 = ik2d.solver(full, { method = "fabrik" })
      local s5 = ik2d.solver(half, { method = "fabrik", weight = 0.5 })
      s1:set_target(-60, 80)
      s5:set_target(-60, 80)
      assert.is_true((s1:solve()))
      local reached, distance = s5:solve()
      for i = 1, 3 do
        local pose = half:pose(i)
        local expected = pose + 0.5 * helpers.angle_diff(pose, full:angle(i))
        assert.near(0, helpers.angle_diff(expected, half:angle(i)), EPS)
      end
      assert.is_false(reached)
      assert.near(tip_distance(half, -60, 80), distance, EPS)
    end)

    it("0 leaves the pose exactly, with no iterations", function()
      local arm = chain_of{ 60, 50, 20 }
      arm:set_pose(2, 0.987654321)
      local s = ik2d.solver(arm, { method = "fabrik", weight = 0 })
      s:set_target(-60, 80)
      local _, _, iterations = s:solve()
      assert.are.equal(0, iterations)
      assert.are.equal(0.987654321, arm:angle(2))
    end)
  end)
end)
