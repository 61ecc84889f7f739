-- Chains and constraints: construction, forward kinematics, pose versus
-- result, constraints shared between chains, flip.

local ik2d = require "ik2d"
local helpers = require "spec.helpers"

local pi = math.pi
local EPS = 1e-9

-- The arm used throughout: lengths 60, 50, 20, rest angles 0, pi/2, 0,
-- base at (10, 20) with angle 0.  Joints: (10,20) (70,20) (70,70) (70,90).
local function make_arm(extra)
  local t = { x = 10, y = 20, angle = 0,
    { length = 60, angle = 0 },
    { length = 50, angle = pi / 2 },
    { length = 20, angle = 0 } }
  for k, v in pairs(extra or {}) do t[k] = v end
  return ik2d.chain(t)
end

local function assert_joints(arm, expected, eps)
  assert.are.equal(#expected, 2 * (#arm + 1))
  for i = 1, #arm + 1 do
    local x, y = arm:joint(i)
    assert.near(expected[2 * i - 1], x, eps or EPS)
    assert.near(expected[2 * i], y, eps or EPS)
  end
end

describe("ik2d module", function()
  it("has a string _VERSION", function()
    assert.are.equal("string", type(ik2d._VERSION))
    assert.truthy(#ik2d._VERSION > 0)
  end)

  it("sets no global", function()
    assert.is_nil(rawget(_G, "ik2d"))
  end)

  it("prints its types by name", function()
    local arm = make_arm()
    local c = ik2d.constraint{ min = -1, max = 1 }
    local s = ik2d.solver(arm)
    assert.truthy(tostring(arm):find("ik2d.Chain", 1, true))
    assert.truthy(tostring(c):find("ik2d.Constraint", 1, true))
    assert.truthy(tostring(s):find("ik2d.Solver", 1, true))
  end)
end)

describe("ik2d.chain", function()
  describe("construction", function()
    it("counts its bones with #", function()
      assert.are.equal(3, #make_arm())
      assert.are.equal(1, #ik2d.chain{ { length = 1 } })
    end)

    it("accepts 64 bones, the maximum", function()
      local t = {}
      for i = 1, 64 do t[i] = { length = 1 } end
      local arm = ik2d.chain(t)
      assert.are.equal(64, #arm)
      assert.are.equal(64, arm:reach())
      local x, y = arm:tip()
      assert.near(64, x, EPS)
      assert.near(0, y, EPS)
    end)

    it("defaults the base to (0, 0, 0), unflipped, and rest angles to 0", function()
      local arm = ik2d.chain{ { length = 2 }, { length = 3 } }
      local x, y, a = arm:base()
      assert.are.equal(0, x)
      assert.are.equal(0, y)
      assert.are.equal(0, a)
      assert.is_false(arm:flip())
      assert.are.equal(0, arm:rest(1))
      assert.are.equal(0, arm:rest(2))
      local tx, ty = arm:tip()
      assert.near(5, tx, EPS)
      assert.near(0, ty, EPS)
    end)

    it("keeps lengths, rest angles and their sum", function()
      local arm = make_arm()
      assert.are.equal(60, arm:length(1))
      assert.are.equal(50, arm:length(2))
      assert.are.equal(20, arm:length(3))
      assert.are.equal(0, arm:rest(1))
      assert.are.equal(pi / 2, arm:rest(2))
      assert.are.equal(0, arm:rest(3))
      assert.are.equal(130, arm:reach())
    end)

    it("starts with pose and result at the rest angles", function()
      local arm = make_arm()
      for i = 1, 3 do
        assert.are.equal(arm:rest(i), arm:pose(i))
        assert.are.equal(arm:rest(i), arm:angle(i))
      end
    end)

    it("takes the base from the table", function()
      local x, y, a = make_arm():base()
      assert.are.equal(10, x)
      assert.are.equal(20, y)
      assert.are.equal(0, a)
    end)
  end)

  describe("forward kinematics", function()
    it("places joints and tip: lengths 60,50,20, rests 0,pi/2,0 at (10,20,0) -> tip (70,90)", function()
      local arm = make_arm()
      assert_joints(arm, { 10, 20, 70, 20, 70, 70, 70, 90 })
      local x, y = arm:tip()
      assert.near(70, x, EPS)
      assert.near(90, y, EPS)
    end)

    it("joint(1) is the base and joint(#arm + 1) is the tip", function()
      local arm = make_arm()
      local bx, by = arm:joint(1)
      assert.are.equal(10, bx)
      assert.are.equal(20, by)
      local jx, jy = arm:joint(#arm + 1)
      local tx, ty = arm:tip()
      assert.are.equal(tx, jx)
      assert.are.equal(ty, jy)
    end)

    it("turns the whole chain with the base angle: (10,20,pi/2) -> tip (-60,80)", function()
      local arm = make_arm{ angle = pi / 2 }
      assert_joints(arm, { 10, 20, 10, 80, -40, 80, -60, 80 })
    end)

    it("follows set_base immediately and reports it through base()", function()
      local arm = make_arm()
      arm:set_base(-5, 7, pi)
      local x, y, a = arm:base()
      assert.are.equal(-5, x)
      assert.are.equal(7, y)
      assert.are.equal(pi, a)
      -- world angles pi, 3pi/2, 3pi/2
      assert_joints(arm, { -5, 7, -65, 7, -65, -43, -65, -63 })
    end)

    it("reports world angles as base angle plus the local angles so far", function()
      local arm = make_arm{ angle = 0.25 }
      assert.near(0, helpers.angle_diff(0.25, arm:world_angle(1)), EPS)
      assert.near(0, helpers.angle_diff(0.25 + pi / 2, arm:world_angle(2)), EPS)
      assert.near(0, helpers.angle_diff(0.25 + pi / 2, arm:world_angle(3)), EPS)
    end)

    it("fills joints(t) with x1, y1, ..., tipx, tipy and returns t", function()
      local arm = make_arm()
      local t = {}
      local r = arm:joints(t)
      assert.are.equal(t, r)
      assert.are.equal(8, #t)
      local expected = { 10, 20, 70, 20, 70, 70, 70, 90 }
      for k = 1, 8 do assert.near(expected[k], t[k], EPS) end
    end)

    it("refills the same table after the chain moves", function()
      local arm = make_arm()
      local t = arm:joints({})
      arm:set_base(0, 0, pi / 2)
      assert.are.equal(t, arm:joints(t))
      local expected = helpers.joints_of(arm)
      assert.are.equal(8, #t)
      for k = 1, 8 do assert.are.equal(expected[k], t[k]) end
      assert.near(-70, t[7], EPS)
      assert.near(60, t[8], EPS)
    end)
  end)

  describe("pose and result", function()
    it("set_pose writes the pose and shows in the result until the next solve", function()
      local arm = make_arm()
      arm:set_pose(2, 0.3)
      assert.are.equal(0.3, arm:pose(2))
      assert.are.equal(0.3, arm:angle(2))
      assert.are.equal(0, arm:pose(1))
      -- world angles 0, 0.3, 0.3
      assert_joints(arm, { 10, 20, 70, 20,
        70 + 50 * math.cos(0.3), 20 + 50 * math.sin(0.3),
        70 + 70 * math.cos(0.3), 20 + 70 * math.sin(0.3) })
    end)

    it("reset puts pose and result back to the rest angles", function()
      local arm = make_arm()
      arm:set_pose(1, 1.0)
      arm:set_pose(3, -0.5)
      local s = ik2d.solver(arm)
      s:set_target(0, 80)
      s:solve()
      arm:reset()
      for i = 1, 3 do
        assert.are.equal(arm:rest(i), arm:pose(i))
        assert.are.equal(arm:rest(i), arm:angle(i))
      end
      assert_joints(arm, { 10, 20, 70, 20, 70, 70, 70, 90 })
    end)
  end)

  describe("constraints", function()
    it("constraint{} keeps its limits", function()
      local c = ik2d.constraint{ min = -0.17, max = 2.27 }
      local min, max = c:limits()
      assert.are.equal(-0.17, min)
      assert.are.equal(2.27, max)
      c:set_limits(-1, 0.5)
      min, max = c:limits()
      assert.are.equal(-1, min)
      assert.are.equal(0.5, max)
    end)

    it("bone min/max in the chain table create a constraint", function()
      local arm = ik2d.chain{
        { length = 60 },
        { length = 50, min = -0.17, max = 2.27 },
        { length = 20 } }
      assert.is_nil(arm:constraint(1))
      assert.is_nil(arm:constraint(3))
      local c = arm:constraint(2)
      assert.truthy(tostring(c):find("ik2d.Constraint", 1, true))
      local min, max = c:limits()
      assert.are.equal(-0.17, min)
      assert.are.equal(2.27, max)
    end)

    it("set_constraint attaches the very same object, and nil detaches it", function()
      local arm = make_arm()
      local elbow = ik2d.constraint{ min = -0.17, max = 2.27 }
      arm:set_constraint(2, elbow)
      assert.are.equal(elbow, arm:constraint(2))
      assert.is_nil(arm:constraint(1))
      arm:set_constraint(2, nil)
      assert.is_nil(arm:constraint(2))
    end)

    it("a detached constraint no longer limits the bone", function()
      local arm = ik2d.chain{ { length = 60 }, { length = 50 } }
      local frozen = ik2d.constraint{ min = 0, max = 0 }
      arm:set_constraint(1, frozen)
      local s = ik2d.solver(arm)
      s:set_target(0, 60)
      s:solve()
      assert.near(0, arm:angle(1), EPS)
      arm:set_constraint(1, nil)
      local reached = s:solve()
      assert.is_true(reached)
      assert.truthy(math.abs(arm:angle(1)) > 0.1)
    end)

    it("one constraint shared by two chains: set_limits is seen by both", function()
      local knee = ik2d.constraint{ min = 0, max = 0 }
      local a = ik2d.chain{ { length = 60 }, { length = 50 } }
      local b = ik2d.chain{ x = 100, { length = 60 }, { length = 50 } }
      a:set_constraint(1, knee)
      b:set_constraint(1, knee)
      assert.are.equal(knee, a:constraint(1))
      assert.are.equal(knee, b:constraint(1))
      local sa, sb = ik2d.solver(a), ik2d.solver(b)
      sa:set_target(0, 90)
      sb:set_target(100, 90)
      sa:solve()
      sb:solve()
      assert.near(0, a:angle(1), EPS)
      assert.near(0, b:angle(1), EPS)

      knee:set_limits(0.2, 0.4)
      sa:solve()
      sb:solve()
      for _, arm in ipairs{ a, b } do
        local d = arm:angle(1) - arm:rest(1)
        assert.truthy(d >= 0.2 - EPS and d <= 0.4 + EPS,
                      "bone 1 at " .. d .. ", limits 0.2..0.4")
        assert.truthy(helpers.max_violation(arm) <= EPS)
      end
    end)
  end)

  describe("flip", function()
    it("defaults to false and reports set_flip", function()
      local arm = make_arm()
      assert.is_false(arm:flip())
      arm:set_flip(true)
      assert.is_true(arm:flip())
      arm:set_flip(false)
      assert.is_false(arm:flip())
      assert.is_true(make_arm{ flip = true }:flip())
    end)

    it("mirrors every joint about the vertical line through the base", function()
      local arm = make_arm{ angle = 0.3 }
      arm:set_pose(1, 0.4)
      local straight = helpers.joints_of(arm)
      arm:set_flip(true)
      local mirrored = helpers.joints_of(arm)
      for k = 1, #straight, 2 do
        assert.near(2 * 10 - straight[k], mirrored[k], EPS)
        assert.near(straight[k + 1], mirrored[k + 1], EPS)
      end
      -- the rest pose flipped: (10,20) (-50,20) (-50,70) (-50,90)
      arm:set_base(10, 20, 0)
      arm:set_pose(1, 0)
      assert_joints(arm, { 10, 20, -50, 20, -50, 70, -50, 90 })
    end)

    it("keeps local angles and mirrors world angles (pi - a)", function()
      local arm = make_arm{ angle = 0.3 }
      local before, world = helpers.angles_of(arm), {}
      for i = 1, 3 do world[i] = arm:world_angle(i) end
      arm:set_flip(true)
      for i = 1, 3 do
        assert.are.equal(before[i], arm:angle(i))
        assert.near(0, helpers.angle_diff(pi - world[i], arm:world_angle(i)), EPS)
      end
    end)

    it("unflipping restores the joints", function()
      local arm = make_arm()
      arm:set_flip(true)
      arm:set_flip(false)
      assert_joints(arm, { 10, 20, 70, 20, 70, 70, 70, 90 })
    end)
  end)
end)

describe("ik2d.Chain: joints(t) trims, joint indices named, the base angle wrapped", function()
  local PATHS = helpers.ffi_paths(ik2d)
  local function three_bones() return helpers.three_bones(ik2d) end
  local function two_bones() return helpers.two_bones(ik2d) end
  local message = helpers.error_of
  local words = helpers.words
  after_each(function() ik2d.use_ffi(true) end)

  for _, on in ipairs(PATHS) do
    describe("on each path" .. helpers.path_name(PATHS, on), function()
      before_each(function() ik2d.use_ffi(on) end)

      it("chain:joints(t) trims a longer reused table: a 3-bone chain's joints, then a 2-bone chain's: #t == 6",
         function()
        local long, short = three_bones(), two_bones()
        local t = long:joints({})
        assert.are.equal(8, #t)
        assert.are.equal(t, short:joints(t))
        assert.are.equal(6, #t)
        assert.is_nil(rawget(t, 7))
        assert.is_nil(rawget(t, 8))
        assert.are.same(helpers.joints_of(short), t)
        -- a table far longer than any chain, and entries past a hole stay
        local big = {}
        for i = 1, 20 do big[i] = i end
        big[22] = "kept"
        short:joints(big)
        assert.are.equal(6, #big)
        assert.is_nil(rawget(big, 20))
        assert.are.equal("kept", big[22])
      end)

      it("arm:joint(0) says 'joint index', the range of joints", function()
        local arm = three_bones()
        local msg = message(function() local x = arm:joint(0) return x end)
        assert.are.equal("bad argument #1 to 'joint' (joint index 0 out of range (1..4))", msg:match(": (bad.*)$"))
        assert.are.equal("joint index 5 out of range (1..4)",
                         words(message(function() local x = arm:joint(5) return x end)))
        assert.are.equal("joint index must be a whole number",
                         words(message(function() local x = arm:joint(1.5) return x end)))
        -- bones keep their own word
        assert.are.equal("bone index 4 out of range (1..3)",
                         words(message(function() local x = arm:angle(4) return x end)))
      end)

      it("chain:base() gives the angle wrapped to (-pi, pi]: set_base(0, 0, 5 pi / 2) reads pi / 2", function()
        local arm = three_bones()
        for _, case in ipairs{
          { 5 * pi / 2, pi / 2 }, { -5 * pi / 2, -pi / 2 }, { pi, pi }, { -pi, pi }, { 3 * pi, pi },
          { 2 * pi, 0 }, { 0.25, 0.25 }, { 1e6, math.atan2 and math.atan2(math.sin(1e6), math.cos(1e6))
            or math.atan(math.sin(1e6), math.cos(1e6)) },
        } do
          arm:set_base(0, 0, case[1])
          local _, _, angle = arm:base()
          assert.truthy(angle > -pi and angle <= pi, ("%.17g -> %.17g"):format(case[1], angle))
          assert.truthy(math.abs(angle - case[2]) <= 4e-15 * math.max(1, math.abs(case[1])),
                        ("%.17g -> %.17g, want %.17g"):format(case[1], angle, case[2]))
        end
        -- and in a chain table
        local _, _, angle = ik2d.chain{ angle = 5 * pi / 2, { length = 1 } }:base()
        assert.truthy(math.abs(angle - pi / 2) < 1e-15)
        -- the drawn chain is the same: the tip of a 1-bone chain at 5 pi / 2
        local tx, ty = ik2d.chain{ angle = 5 * pi / 2, { length = 1 } }:tip()
        assert.truthy(math.abs(tx) < 1e-15 and math.abs(ty - 1) < 1e-15)
      end)
    end)
  end
end)

describe("ik2d.Chain's messages: self is #1 through a local, an index out of range named", function()
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
        it("a chain's joint through a local: bad argument #1 to 'joint' for a collected chain", function()
          local arm = three_bones()
          debug.getmetatable(arm).__gc(arm)
          local joint = arm.joint
          assert.are.equal("bad argument #1 to 'joint' (chain was collected)",
            caller_error(function() local h = joint; local r = h(arm, 1) return r end))
        end)
      end)

      -- an index out of range names the index given
      describe("an index out of range", function()
        local cases = {
          { "arm:angle(5)", function(o) local r = o.arm:angle(5) return r end,
            "bad argument #1 to 'angle' (bone index 5 out of range (1..3))" },
          { "arm:pose(0)", function(o) local r = o.arm:pose(0) return r end,
            "bad argument #1 to 'pose' (bone index 0 out of range (1..3))" },
          { "arm:joint(5)", function(o) local r = o.arm:joint(5) return r end,
            "bad argument #1 to 'joint' (joint index 5 out of range (1..4))" },
          { "arm:joint('-7')", function(o) local r = o.arm:joint("-7") return r end,
            "bad argument #1 to 'joint' (joint index -7 out of range (1..4))" },
          { "arm:set_pose(4, 0)", function(o) local r = o.arm:set_pose(4, 0) return r end,
            "bad argument #1 to 'set_pose' (bone index 4 out of range (1..3))" },
          { "arm:set_length(9, 1)", function(o) local r = o.arm:set_length(9, 1) return r end,
            "bad argument #1 to 'set_length' (bone index 9 out of range (1..3))" },
          { "arm:set_constraint(4, nil)", function(o) local r = o.arm:set_constraint(4, nil) return r end,
            "bad argument #1 to 'set_constraint' (bone index 4 out of range (1..3))" },
          { "arm:constraint(-1)", function(o) local r = o.arm:constraint(-1) return r end,
            "bad argument #1 to 'constraint' (bone index -1 out of range (1..3))" },
          { "Chain.angle(arm, 5)", function(o) local r = o.Chain.angle(o.arm, 5) return r end,
            "bad argument #2 to 'angle' (bone index 5 out of range (1..3))" },
        }
        for _, case in ipairs(cases) do
          it(case[1] .. " says " .. case[3]:match("%((.*)%)$"), function()
            local arm = three_bones()
            local o = { arm = arm, Chain = debug.getmetatable(arm).__index }
            assert.are.equal(case[3], caller_error(case[2], o))
          end)
        end
      end)
    end)
  end
end)
