-- Mirroring (chain:set_flip(true), a character facing left): for every
-- method, the flipped solve of a target is the mirror image, about the
-- vertical line through the base, of the unflipped solve of the mirrored
-- target; limits and bend direction mirror with it.

local ik2d = require "ik2d"
local helpers = require "spec.helpers"

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
