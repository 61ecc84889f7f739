-- Effector controls (issue 13): tip orientation, poles, the limited flag,
-- Spine's softness curve, one-bone stretch and compress, uniform, and the
-- two-bone bugs found against Spine, Godot and Unity.

local ik2d = require "ik2d"
local helpers = require "spec.helpers"

local pi, cos, sin, abs, sqrt = math.pi, math.cos, math.sin, math.abs, math.sqrt
local wrap = helpers.wrap

local function limb(extra)
  local t = { x = 100, y = 200, { length = 60 }, { length = 50 } }
  for k, v in pairs(extra or {}) do t[k] = v end
  return ik2d.chain(t)
end

local function arm3(extra)
  local t = { x = 0, y = 0, { length = 40 }, { length = 35 }, { length = 25 } }
  for k, v in pairs(extra or {}) do t[k] = v end
  return ik2d.chain(t)
end

-- which side of the line from (ax, ay) to (bx, by) the point is on
local function side(ax, ay, bx, by, px, py)
  return (bx - ax) * (py - ay) - (by - ay) * (px - ax)
end

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

describe("world-space limits", function()
  -- a neck on a torso that leans: the head's world direction stays
  -- within 0.5 of straight up (-pi/2 on a y-down screen) whatever the
  -- neck and the base do
  local function neck(method, flip, base_angle)
    return ik2d.chain { x = 0, y = 0, angle = base_angle, flip = flip,
      { length = 30 },
      { length = 20, angle = -pi / 2, min = -0.5, max = 0.5, space = "world" } }, method
  end

  for _, method in ipairs { "ccd", "fabrik", "two_bone" } do
    for _, flip in ipairs { false, true } do
      it(("%s%s: the bone's world direction stays within its world limits"):format(
           method, flip and ", flipped" or ""), function()
        local rng = helpers.random(method == "fabrik" and 3 or 4)
        for _ = 1, 100 do
          local arm = neck(method, flip, rng.range(-pi, pi))
          local s = ik2d.solver(arm, { method = method, iterations = 20 })
          local r, h = rng.range(5, 60), rng.range(-pi, pi)
          s:set_target(r * cos(h), r * sin(h))
          s:solve()
          -- a flipped chain's limits are mirrored: read them unflipped
          local world = arm:world_angle(2)
          if flip then world = pi - world end
          assert.truthy(abs(wrap(world + pi / 2)) <= 0.5 + 1e-9, world)
        end
      end)
    end
  end

  it("reaches a target the world limit allows, whatever the base's angle", function()
    -- the neck at -1 rad, the head 0.2 from straight up
    local tx = 30 * cos(-1) + 20 * cos(-pi / 2 + 0.2)
    local ty = 30 * sin(-1) + 20 * sin(-pi / 2 + 0.2)
    for _, method in ipairs { "ccd", "fabrik", "two_bone" } do
      for _, base_angle in ipairs { 1.2, -2, 0 } do
        local arm = neck(method, false, base_angle)
        local s = ik2d.solver(arm, { method = method, iterations = 30 })
        s:set_target(tx, ty)
        assert.is_true((s:solve()), method .. " from " .. base_angle)
      end
    end
  end)

  it("spanning the whole circle is no limit: every method solves as with none, bit for bit", function()
    -- a full circle has no middle; under make test-valgrind this solve
    -- read one the solver never wrote
    for _, method in ipairs { "ccd", "fabrik", "two_bone" } do
      for _, flip in ipairs { false, true } do
        local free = ik2d.chain { x = 0, y = 0, angle = 0.3, flip = flip,
                                  { length = 30 }, { length = 20 } }
        local whole = ik2d.chain { x = 0, y = 0, angle = 0.3, flip = flip,
                                   { length = 30 }, { length = 20 } }
        whole:set_constraint(2, ik2d.constraint { min = -4, max = 4, space = "world" })
        local a = ik2d.solver(free, { method = method })
        local b = ik2d.solver(whole, { method = method })
        a:set_target(12, 31)
        b:set_target(12, 31)
        assert.are.equal(a:solve(), b:solve())
        assert.are.same({ free:joints() }, { whole:joints() })
        assert.is_false(select(4, b:result()))
      end
    end
  end)

  it("is read back by constraint:space() and drawn where the solver holds it", function()
    local arm = neck("ccd", false, 0.8)
    local c = arm:constraint(2)
    assert.are.equal("world", c:space())
    assert.are.equal("parent", ik2d.constraint { min = 0, max = 1 }:space())
    local from, to = c:arc()
    assert.near(-0.5, from, 1e-12)
    assert.near(0.5, to, 1e-12)
  end)

  it("refuses a space that is neither parent nor world", function()
    helpers.check_message(helpers.error_of(ik2d.constraint, { min = 0, max = 1, space = "local" }),
                          { "space must be \"parent\" or \"world\"" })
  end)
end)
