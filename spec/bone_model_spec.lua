-- The artist's bone model: each inherit mode's world matrix, the skeleton
-- scale, IK on scaled bones and transform constraints, against values
-- derived by hand on small rigs (the derivations in the comments).
local ik2d = require "ik2d"

local PI = math.pi
-- atan2 (LuaJIT's math.atan takes one argument)
local atan2 = math.atan2 or math.atan -- luacheck: ignore 143

-- m's six numbers near the expected a, b, c, d, x, y
local function matrix_near(expected, sk, bone, tolerance)
  local got = { sk:matrix(bone) }
  for k = 1, 6 do assert.near(expected[k], got[k], tolerance or 1e-12) end
end

-- a root at the origin turned a quarter (its x axis up the screen's +y),
-- scaled (sx, 3), and a child at (1, 0) of its space for each mode
local function rig(sx, skeleton_scale)
  local bones = {
    { name = "root", length = 4, x = 0, y = 0, angle = PI / 2, scale_x = sx, scale_y = 3 },
  }
  for _, mode in ipairs{ "all", "position", "no_rotation_or_reflection", "no_scale",
                         "no_scale_or_reflection" } do
    bones[#bones + 1] = { name = mode, parent = "root", length = 2, x = 1, y = 0, inherit = mode }
  end
  bones.scale_x, bones.scale_y = skeleton_scale and skeleton_scale[1], skeleton_scale and skeleton_scale[2]
  return ik2d.skeleton(bones)
end

describe("the bone model", function()
  describe("each inherit mode's world matrix, derived by hand", function()
    -- root: x axis (cos 90, sin 90) * 2 = (0, 2), y axis (-sin 90, cos 90)
    -- * 3 = (-3, 0): P = [0 -3; 2 0], det 6.  The child's origin P (1, 0) =
    -- (0, 2); its own local map is the identity.
    it("a root takes its own scale and rotation", function()
      matrix_near({ 0, -3, 2, 0, 0, 0 }, rig(2), "root")
    end)

    it("all: the parent's map, P", function()
      matrix_near({ 0, -3, 2, 0, 0, 2 }, rig(2), "all")
    end)

    it("position: none of the parent's map, only its point", function()
      matrix_near({ 1, 0, 0, 1, 0, 2 }, rig(2), "position")
    end)

    -- P's x axis x' = (0, 2) points at t = 90; Q = R(t) diag(|x'|, |det| /
    -- |x'|) = R(90) diag(2, 3); W = Q R(-t) = [3 0; 0 2]: no rotation, the
    -- parent's 2 along its direction (+y) and 3 across it (+x)
    it("no rotation or reflection: the parent's scale along its direction and across", function()
      matrix_near({ 3, 0, 0, 2, 0, 2 }, rig(2), "no_rotation_or_reflection")
    end)

    -- P (cos 0, sin 0) = (0, 2): u = (0, 1); F = [u, u turned a quarter] =
    -- [0 -1; 1 0]: the parent's rotation, none of its scale
    it("no scale: the parent's rotation, unit axes", function()
      matrix_near({ 0, -1, 1, 0, 0, 2 }, rig(2), "no_scale")
      matrix_near({ 0, -1, 1, 0, 0, 2 }, rig(2), "no_scale_or_reflection")
    end)

    -- scale x -2: P = [0 -3; -2 0], det -6, a reflection.  all: P; no
    -- scale: u = P e1 / 2 = (0, -1), y axis reversed: F = [0 -1; -1 0] (det
    -- -1); no scale or reflection keeps it: [0 1; -1 0]; no rotation or
    -- reflection: x' = (0, -2), t = -90, Q = [0 3; -2 0], Q R(90) = [3 0; 0 2]
    it("a reflecting parent: kept by all and no_scale, dropped by the others", function()
      local sk = rig(-2)
      matrix_near({ 0, -3, -2, 0, 0, -2 }, sk, "all")
      matrix_near({ 0, -1, -1, 0, 0, -2 }, sk, "no_scale")
      matrix_near({ 0, 1, -1, 0, 0, -2 }, sk, "no_scale_or_reflection")
      matrix_near({ 3, 0, 0, 2, 0, -2 }, sk, "no_rotation_or_reflection")
      matrix_near({ 1, 0, 0, 1, 0, -2 }, sk, "position")
    end)
  end)

  describe("the skeleton scale", function()
    -- (1, -1) is the whole picture mirrored across the x axis: every row
    -- y of every matrix negated, whatever the mode (the modes divide the
    -- skeleton's scale out and apply it again)
    it("(1, -1) shows the rig upside down: y rows negated in every mode", function()
      local up, down = rig(2), rig(2, { 1, -1 })
      for b = 1, #up do
        local a, bb, c, d, x, y = up:matrix(b)
        matrix_near({ a, bb, -c, -d, x, -y }, down, b)
      end
    end)

    it("(-1, 1) mirrors: x rows negated in every mode, as a flip does", function()
      local right, left = rig(-2), rig(-2, { -1, 1 })
      local flipped = rig(-2)
      flipped:set_flip(true)
      for b = 1, #right do
        local a, bb, c, d, x, y = right:matrix(b)
        matrix_near({ -a, -bb, c, d, -x, y }, left, b)
        matrix_near({ -a, -bb, c, d, -x, y }, flipped, b)
      end
    end)

    it("set_scale changes it, scale reads it, and the same value changes nothing", function()
      local sk = rig(2)
      assert.are.same({ 1, 1 }, { sk:scale() })
      sk:set_scale(1, -1)
      assert.are.same({ 1, -1 }, { sk:scale() })
      local before = sk:matrices()
      sk:set_scale(1, -1)
      assert.are.same(before, sk:matrices())
    end)
  end)

  describe("world, tip and transforms of scaled bones", function()
    -- the tip is the length along the x axis as scaled: root (length 4)
    -- from (0, 0) along (0, 2): (0, 8); its world angle is its x axis'
    it("a bone's tip lies its length along its scaled x axis", function()
      local sk = rig(2)
      local x, y = sk:tip("root")
      assert.near(0, x, 1e-12)
      assert.near(8, y, 1e-12)
      local ox, oy, angle = sk:world("root")
      assert.near(0, ox, 1e-12)
      assert.near(0, oy, 1e-12)
      assert.near(PI / 2, angle, 1e-12)
    end)
  end)

  describe("IK on scaled bones", function()
    -- a thigh at the origin scaled (2, 1) (non-uniformly) and a shin of
    -- length 5 at (10, 0) of its space: the shin's tip is R(r1) (20 + 10 cos
    -- r2, 5 sin r2), an ellipse.  For a target at distance 28, (20 + 10 c)^2
    -- + 25 (1 - c^2) = 784: 75 c^2 + 400 c - 359 = 0, c = (-400 +
    -- sqrt(267700)) / 150; r2 = acos c (bend 1), and r1 puts that point on
    -- the target: r1 = atan2(ty, tx) - atan2(5 sin r2, 20 + 10 c)
    it("two-bone IK on a non-uniformly scaled parent lands on the ellipse's point", function()
      local sk = ik2d.skeleton{
        { name = "thigh", length = 10, x = 0, y = 0, scale_x = 2, scale_y = 1 },
        { name = "shin", parent = "thigh", length = 5, x = 10, y = 0 },
      }
      local leg = ik2d.solver(sk:chain("thigh", "shin"), { method = "two_bone" })
      local tx, ty = 0, 28
      leg:set_target(tx, ty)
      sk:solve()
      local c = (-400 + math.sqrt(267700)) / 150
      local r2 = math.acos(c)
      local r1 = atan2(ty, tx) - atan2(5 * math.sin(r2), 20 + 10 * c)
      assert.near(r1, (sk:result("thigh")), 1e-12)
      assert.near(r2, (sk:result("shin")), 1e-12)
      local x, y = sk:tip("shin")
      assert.near(tx, x, 1e-9)
      assert.near(ty, y, 1e-9)
    end)

    -- a uniformly scaled parent (1.5) and a reflecting one (scale x -1):
    -- the law of cosines in the parent's turning space, the tip on the
    -- target either way
    it("two-bone IK reaches on uniformly scaled and reflected parents", function()
      for _, s in ipairs{ { 1.5, 1.5 }, { -1, 1 }, { 1, -1 }, { -2, -2 } } do
        local sk = ik2d.skeleton{ scale_y = -1,
          { name = "hip", length = 0, x = 3, y = 1, angle = 0.4, scale_x = 1.2, scale_y = 0.8 },
          { name = "thigh", parent = "hip", length = 10, x = 1, y = 0, scale_x = s[1], scale_y = s[2] },
          { name = "shin", parent = "thigh", length = 8, x = 10, y = 0, angle = 0.3 },
        }
        local leg = ik2d.solver(sk:chain("thigh", "shin"), { method = "two_bone" })
        leg:set_target(9, -14)
        sk:solve()
        local x, y = sk:tip("shin")
        assert.near(9, x, 1e-9)
        assert.near(-14, y, 1e-9)
      end
    end)

    -- one bone: its x axis (scaled, sheared, reflected) points at the
    -- target: the cross product of the axis and the bone-to-target line is 0
    it("one-bone IK points a scaled, sheared, reflected bone's x axis at the target", function()
      local sk = ik2d.skeleton{ scale_y = -1,
        { name = "root", length = 0, angle = 0.4, scale_x = 1.7, scale_y = 0.6, shear_y = 0.3 },
        { name = "arm", parent = "root", length = 10, x = 2, y = 1, scale_x = -1.3, shear_x = 0.2 },
      }
      local s = ik2d.solver(sk:chain("arm", "arm"))
      s:set_target(-5, -12)
      sk:solve()
      local a, _, c, _, x, y = sk:matrix("arm")
      assert.near(0, a * (-12 - y) - c * (-5 - x), 1e-9)
      assert.is_true(a * (-5 - x) + c * (-12 - y) > 0)
    end)

    -- stretch: a one-bone chain of length 10 toward a target 25 away, its
    -- stretch at most 2: scale x 2, mix 1
    it("stretch scales the bone toward a far target, within its bound", function()
      local sk = ik2d.skeleton{ { name = "arm", length = 10, x = 0, y = 0 } }
      local s = ik2d.solver(sk:chain("arm", "arm"), { stretch = 2 })
      s:set_target(0, 25)
      sk:solve()
      local angle, _, _, scale_x, scale_y = sk:result("arm")
      assert.near(PI / 2, angle, 1e-12)
      assert.near(2, scale_x, 1e-12)
      assert.near(1, scale_y, 1e-12)
      -- the next solve starts from the pose: the stretch does not add up
      sk:solve()
      assert.near(2, select(4, sk:result("arm")), 1e-12)
    end)
  end)

  describe("chain solvers on general skeletons", function()
    -- bones scaled uniformly (1.5), one reflecting its children (scale x
    -- -1): as drawn the chain is rigid, the reflected bones turning the
    -- other way; CCD and FABRIK reach, and every bone's result angle stays
    -- inside its limits (mirrored in the chain where it turns the other way)
    it("CCD and FABRIK reach on scaled and reflecting bones, limits held", function()
      for _, method in ipairs{ "ccd", "fabrik" } do
        local sk = ik2d.skeleton{ scale_y = -1,
          { name = "hip", length = 0, x = 0, y = 0, scale_x = 1.5, scale_y = 1.5 },
          { name = "a", parent = "hip", length = 10, x = 0, y = 0, min = -1, max = 1 },
          { name = "b", parent = "a", length = 10, x = 10, y = 0, scale_x = -1, min = -0.5, max = 2 },
          { name = "c", parent = "b", length = 8, x = 10, y = 0, min = -1.5, max = 1.5 },
        }
        -- the target: where a pose inside the limits puts the tip
        sk:set_pose("a", 0.6)
        sk:set_pose("b", 1.2)
        sk:set_pose("c", -0.9)
        local tx, ty = sk:tip("c")
        sk:reset()
        local s = ik2d.solver(sk:chain("a", "c"), { method = method, iterations = 50 })
        s:set_target(tx, ty)
        sk:solve()
        local x, y = sk:tip("c")
        assert.near(tx, x, 0.02)
        assert.near(ty, y, 0.02)
        for _, limit in ipairs{ { "a", -1, 1 }, { "b", -0.5, 2 }, { "c", -1.5, 1.5 } } do
          local angle = sk:result(limit[1])
          assert.is_true(angle >= limit[2] - 1e-9 and angle <= limit[3] + 1e-9,
            method .. ": " .. limit[1] .. " at " .. angle)
        end
      end
    end)
  end)

  describe("pose, result and set-up", function()
    it("set_pose sets the whole local transform, nil keeping a part; pose reads it", function()
      local sk = ik2d.skeleton{ { name = "a", length = 5, x = 1, y = 2, scale_x = 2 } }
      sk:set_pose("a", 0.5, nil, 7, nil, 3, 0.1)
      assert.are.same({ 0.5, 1, 7, 2, 3, 0.1, 0 }, { sk:pose("a") })
      assert.are.same({ 0.5, 1, 7, 2, 3, 0.1, 0 }, { sk:result("a") })
      assert.are.same({ 0, 1, 2, 2, 1, 0, 0 }, { sk:setup("a") })
      sk:reset()
      assert.are.same({ 0, 1, 2, 2, 1, 0, 0 }, { sk:pose("a") })
    end)

    it("refuses a bad part naming the bone and the argument, changing nothing", function()
      local sk = ik2d.skeleton{ { name = "arm", length = 5 } }
      local ok, msg = pcall(sk.set_pose, sk, "arm", 0.5, 1, 2, 0)
      assert.is_false(ok)
      assert.matches("bad argument #6 to 'set_pose' %(bone \"arm\": scale_x must be non%-zero and finite%)",
        msg)
      assert.are.same({ 0, 0, 0, 1, 1, 0, 0 }, { sk:pose("arm") })
    end)
  end)
end)
