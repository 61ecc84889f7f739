-- Skeletons: bones in a tree, chains over its paths, a whole
-- character solved in one call, effectors that share bones solved
-- together; and set_length / set_rest on standalone chains.

local ik2d = require "ik2d"
local helpers = require "spec.helpers"

local pi, cos, sin, abs = math.pi, math.cos, math.sin, math.abs
local EPS = 1e-9

-- The issue's example, with a second arm.
local function character(extra)
  local t = { x = 400, y = 300, angle = 0, flip = false,
    { name = "hip", length = 0 },                                  -- a root pivot
    { name = "spine", parent = "hip", length = 40, angle = -1.57 },
    { name = "chest", parent = "spine", length = 30 },
    { name = "arm_l", parent = "chest", length = 30, angle = 2.0, min = -1, max = 2 },
    { name = "hand_l", parent = "arm_l", length = 25, x = 30, y = 0 },
    { name = "head", parent = "chest", length = 12, inherit = "position" },
    { name = "arm_r", parent = "chest", length = 30, angle = -2.0, min = -2, max = 1 },
    { name = "hand_r", parent = "arm_r", length = 25 },
  }
  for k, v in pairs(extra or {}) do t[k] = v end
  return ik2d.skeleton(t)
end

-- Forward kinematics of bone i from its parent's transform, by hand.
local function expect_world(sk, i)
  local p = sk:parent(i)
  local bx, by, ba = sk:base()
  local px, py, pa, plen = bx, by, ba, 0
  if p then
    px, py, pa = sk:world(p)
    plen = sk:length(p)
    -- undo the mirror to compute in the skeleton's own space
    if sk:flip() then px, pa = 2 * bx - px, pi - pa end
  end
  local ox, oy = sk:origin(i)
  if not p then plen = 0 end
  local x = px + cos(pa) * ox - sin(pa) * oy
  local y = py + sin(pa) * ox + cos(pa) * oy
  local a = (sk:inherit(i) == "position" and ba or pa) + sk:angle(i)
  local tx, ty = x + sk:length(i) * cos(a), y + sk:length(i) * sin(a)
  if sk:flip() then x, tx, a = 2 * bx - x, 2 * bx - tx, pi - a end
  return x, y, a, tx, ty, plen
end

local function assert_fk(sk, eps)
  for i = 1, #sk do
    local x, y, a, tx, ty = expect_world(sk, i)
    local gx, gy, ga = sk:world(i)
    local gtx, gty = sk:tip(i)
    assert.near(x, gx, eps or EPS)
    assert.near(y, gy, eps or EPS)
    assert.near(0, helpers.angle_diff(a, ga), eps or EPS)
    assert.near(tx, gtx, eps or EPS)
    assert.near(ty, gty, eps or EPS)
  end
end

-- Every observable value of a skeleton, for "a failed call changes nothing".
local function state(sk)
  local s = { n = #sk, flip = sk:flip(), base = { sk:base() }, t = sk:transforms() }
  for i = 1, #sk do
    s[i] = { sk:name(i), sk:parent(i) or false, sk:length(i), sk:rest(i), sk:pose(i),
             sk:angle(i), sk:inherit(i), sk:constraint(i) or false, sk:origin(i) }
  end
  return s
end

describe("ik2d.skeleton", function()
  describe("construction and names", function()
    it("builds the issue's example: #sk, bone(name), name(i), parent(i)", function()
      local sk = character()
      assert.are.equal(8, #sk)
      assert.are.equal(1, sk:bone("hip"))
      assert.are.equal(5, sk:bone("hand_l"))
      assert.is_nil(sk:bone("tail"))
      assert.are.equal("chest", sk:name(3))
      assert.are.equal(4, sk:parent("hand_l"))
      assert.is_nil(sk:parent("hip"))
      assert.truthy(tostring(sk):find("ik2d.Skeleton(8 bones", 1, true))
    end)

    it("takes a bone by name or by index in every method", function()
      local sk = character()
      assert.are.equal(sk:length("arm_l"), sk:length(4))
      sk:set_pose(4, 1.5)
      assert.are.equal(1.5, sk:pose("arm_l"))
      sk:set_pose("arm_l", 1.25)
      assert.are.equal(1.25, sk:pose(4))
    end)

    it("puts a bone's origin at its parent's tip unless x, y say where", function()
      local sk = character()
      assert.are.same({ 40, 0 }, { sk:origin("chest") })     -- spine's length
      assert.are.same({ 0, 0 }, { sk:origin("hip") })
      assert.are.same({ 30, 0 }, { sk:origin("hand_l") })    -- given
      local x, y = sk:world("chest")
      local tx, ty = sk:tip("spine")
      assert.are.equal(tx, x)
      assert.are.equal(ty, y)
      local sk2 = ik2d.skeleton{ { name = "a", length = 10 },
        { name = "b", parent = "a", length = 5, y = 3 } }        -- x defaults to a's length
      assert.are.same({ 10, 3 }, { sk2:origin("b") })
      local bx, by = sk2:world("b")
      assert.are.same({ 10, 3 }, { bx, by })
    end)

    it("computes every bone's world transform by forward kinematics", function()
      local sk = character()
      assert_fk(sk)
      local x, y, a = sk:world("spine")
      assert.are.same({ 400, 300 }, { x, y })
      assert.near(-1.57, a, EPS)
      local tx, ty = sk:tip("spine")
      assert.near(400 + 40 * cos(-1.57), tx, EPS)
      assert.near(300 + 40 * sin(-1.57), ty, EPS)
    end)

    it("keeps a position-only bone's own world angle when its parent turns", function()
      local sk = character()
      local _, _, before = sk:world("head")
      sk:set_pose("spine", -1.2)
      local x, y, after = sk:world("head")
      local cx, cy = sk:tip("chest")
      assert.are.equal(before, after)
      assert.near(0, after, EPS)                               -- base angle 0 + angle 0
      assert.near(cx, x, EPS)                                  -- but it moved with the chest
      assert.near(cy, y, EPS)
    end)

    it("accepts 256 bones, not 257", function()
      local t = {}
      for i = 1, 257 do t[i] = { name = "b" .. i, parent = i > 1 and "b" .. (i - 1) or nil, length = 1 } end
      local msg = helpers.error_of(ik2d.skeleton, t)
      helpers.check_message(msg, { "bad argument #1 to 'skeleton' (", "1 to 256 bones" })
      t[257] = nil
      assert.are.equal(256, #ik2d.skeleton(t))
      assert.are.equal(256, ik2d.MAX_SKELETON_BONES)
    end)
  end)

  describe("base and flip", function()
    it("moves and turns the whole skeleton with set_base", function()
      local sk = character()
      sk:set_base(100, 50, 0.3)
      assert.are.same({ 100, 50, 0.3 }, { sk:base() })
      assert_fk(sk)
      sk:set_base(10, 20)                                      -- angle kept
      assert.are.same({ 10, 20, 0.3 }, { sk:base() })
    end)

    it("mirrors everything about the base's vertical line when flipped", function()
      local sk = character()
      local before = sk:transforms()
      sk:set_flip(true)
      assert.is_true(sk:flip())
      local after = sk:transforms()
      for i = 1, #sk do
        local k = 5 * (i - 1)
        assert.near(800 - before[k + 1], after[k + 1], EPS)
        assert.near(before[k + 2], after[k + 2], EPS)
        assert.near(0, helpers.angle_diff(pi - before[k + 3], after[k + 3]), EPS)
        assert.near(800 - before[k + 4], after[k + 4], EPS)
        assert.near(before[k + 5], after[k + 5], EPS)
      end
      assert_fk(sk)
    end)
  end)

  describe("pose and result", function()
    it("shows a set_pose at once, and reset goes back to the rest angles", function()
      local sk = character()
      sk:set_pose("arm_l", 2.5)
      assert.are.equal(2.5, sk:pose("arm_l"))
      assert.are.equal(2.5, sk:angle("arm_l"))
      assert_fk(sk)
      sk:reset()
      for i = 1, #sk do
        assert.are.equal(sk:rest(i), sk:pose(i))
        assert.are.equal(sk:rest(i), sk:angle(i))
      end
      assert_fk(sk)
    end)

    it("fills transforms with x, y, angle, tip x, tip y per bone, reusing t", function()
      local sk = character()
      local t = { "old", "old" }
      for k = 1, 60 do t[k] = k end
      assert.are.equal(t, sk:transforms(t))
      assert.are.equal(40, #t)
      for i = 1, #sk do
        local x, y, a = sk:world(i)
        local tx, ty = sk:tip(i)
        assert.are.same({ x, y, a, tx, ty }, { t[5 * i - 4], t[5 * i - 3], t[5 * i - 2], t[5 * i - 1], t[5 * i] })
      end
      assert.is_nil(t[41])
    end)

    it("fills transforms raw: a t with a metatable sees no __newindex or __index", function()
      local sk = character()
      local plain = sk:transforms({})
      local calls = 0
      local count = function() calls = calls + 1 end
      local t = setmetatable({}, { __newindex = count, __index = count })
      assert.are.equal(t, sk:transforms(t))
      assert.are.equal(0, calls)
      for k = 1, 40 do assert.are.equal(plain[k], rawget(t, k)) end
      assert.is_nil(rawget(t, 41))
    end)

    -- the array is the FFI's: the C core's through its FFI path, the pure
    -- core's own under LuaJIT
    if helpers.is_luajit and (ik2d.ffi or ik2d.backend == "lua") then
      it("gives the same numbers through transform_array (FFI)", function()
        local sk = character()
        sk:set_pose("spine", -1.3)
        local a, t = sk:transform_array(), sk:transforms()
        for k = 1, #t do assert.are.equal(t[k], a[k - 1]) end
        sk:set_pose("spine", -1.1)                             -- the same memory, kept up to date
        t = sk:transforms()
        for k = 1, #t do assert.are.equal(t[k], a[k - 1]) end
      end)
    end
    if helpers.is_luajit and ik2d.ffi then
      it("set_base on the FFI path: the classic path's bits and errors", function()
        local function run(ffi_on)
          ik2d.use_ffi(ffi_on)
          local sk = character()
          sk:set_base(100.25, 50.5, 0.3)
          sk:set_base(-7.125, 3.75)                            -- angle kept
          local base, t = { sk:base() }, sk:transforms()
          local errors = {}
          for k, args in ipairs { { 1, 0 / 0 }, { "1", 2 }, { 1, 2, {} }, { 1, 2, math.huge } } do
            local ok, e = pcall(function() sk:set_base(args[1], args[2], args[3]) end)
            errors[k] = ok and "no error" or e
          end
          ik2d.use_ffi(true)
          return base, t, errors
        end
        local base_ffi, t_ffi, e_ffi = run(true)
        local base_classic, t_classic, e_classic = run(false)
        assert.are.same({ -7.125, 3.75, 0.3 }, base_ffi)
        assert.are.same(base_classic, base_ffi)
        assert.are.same(t_classic, t_ffi)
        assert.are.same(e_classic, e_ffi)
        helpers.check_message(e_ffi[1], { "set_base" })
      end)
    end
    if not (helpers.is_luajit and (ik2d.ffi or ik2d.backend == "lua")) then
      it("says transform_array needs LuaJIT's FFI", function()
        local msg = helpers.error_of(function() character():transform_array() end)
        helpers.check_message(msg, { "transform_array", "LuaJIT's FFI" })
      end)
    end
  end)

  describe("editing the rig", function()
    it("set_length moves the bones at its tip, and chains over it follow", function()
      local sk = character()
      local arm = sk:chain("arm_l", "hand_l")
      local torso = sk:chain("spine", "chest")
      sk:set_length("spine", 60)
      assert.are.equal(60, sk:length("spine"))
      assert.are.same({ 60, 0 }, { sk:origin("chest") })
      assert_fk(sk)
      assert.are.equal(90, torso:reach())
      assert.are.equal(60, torso:length(1))
      local x, y = sk:world("arm_l")
      local jx, jy = arm:joint(1)
      assert.near(x, jx, EPS)
      assert.near(y, jy, EPS)
      -- an explicit origin stays where it was given
      sk:set_length("arm_l", 40)
      assert.are.same({ 30, 0 }, { sk:origin("hand_l") })
      assert.are.equal(30, arm:length(1))                      -- arm_l -> hand_l's origin
      sk:set_length("hip", 0)
      local s = ik2d.solver(torso)
      s:set_target(sk:tip("chest"))
      assert.is_true((s:solve()))
    end)

    it("set_rest moves the limits with the rest angle; pose and result stay", function()
      local sk = character()
      local arm = sk:chain("arm_l", "hand_l")
      sk:set_pose("arm_l", 2.5)
      sk:set_rest("arm_l", 1.0)
      assert.are.equal(1.0, sk:rest("arm_l"))
      assert.are.equal(1.0, arm:rest(1))
      assert.are.equal(2.5, sk:angle("arm_l"))
      -- limits -1..2 around rest 1: 0..3; a target needing -0.5 is clamped
      local s = ik2d.solver(arm, { iterations = 50 })
      local bx, by = sk:world("arm_l")
      local _, _, parent = sk:world("chest")
      s:set_target(bx + 55 * cos(parent - 0.5), by + 55 * sin(parent - 0.5))
      s:solve()
      assert.near(0, sk:angle("arm_l"), 1e-9)
    end)

    it("refuses a bad edit and changes nothing", function()
      local sk = character()
      local before = state(sk)
      for _, f in ipairs{
        function() sk:set_length("arm_l", -1) end,
        function() sk:set_length("arm_l", 0 / 0) end,
        function() sk:set_length("arm_l", 1.7e308 * 2) end,
        function() sk:set_rest("arm_l", math.huge) end,
        function() sk:set_pose("arm_l", 0 / 0) end,
        function() sk:set_base(1, 0 / 0) end,
        function() sk:set_pose("nose", 1) end,
        function() sk:set_pose(9, 1) end,
        function() sk:set_flip(1) end,
        function() sk:set_constraint("arm_l", {}) end,
      } do
        assert.is_false(pcall(f))
        assert.are.same(before, state(sk))
      end
      -- lengths whose sum overflows: the second is refused
      sk:set_length("arm_l", 1.7e308)
      local half = state(sk)
      assert.is_false(pcall(sk.set_length, sk, "arm_r", 1.7e308))
      assert.are.same(half, state(sk))
    end)
  end)

  describe("chains over paths", function()
    it("makes a chain of the path from a bone down to another, pivots included", function()
      local sk = character()
      local left = sk:chain("hip", "hand_l")
      assert.are.equal(5, #left)
      assert.are.equal(0, left:length(1))
      assert.are.equal(125, left:reach())
      for k, name in ipairs{ "hip", "spine", "chest", "arm_l", "hand_l" } do
        local x, y, a = sk:world(name)
        local jx, jy = left:joint(k)
        assert.near(x, jx, EPS)
        assert.near(y, jy, EPS)
        assert.near(0, helpers.angle_diff(a, left:world_angle(k)), EPS)
        assert.are.equal(sk:angle(name), left:angle(k))
      end
      assert.are.same({ sk:tip("hand_l") }, { left:tip() })
      assert.are.same({ sk:world("hip") }, { left:base() })
    end)

    it("makes a bone whose path child starts off its tip a bone of that length", function()
      local sk = ik2d.skeleton{ x = 5, y = 7, angle = 0.2,
        { name = "a", length = 10, angle = 0.1 },
        { name = "b", parent = "a", length = 4, x = 6, y = 8, angle = -0.4, min = -1, max = 1 },
        { name = "c", parent = "b", length = 3, angle = 0.7 } }
      local c = sk:chain("a", "c")
      assert.near(10, c:length(1), EPS)                          -- |(6, 8)|
      assert.are.equal(4, c:length(2))
      assert.are.equal(3, c:length(3))
      local phi = math.atan2 and math.atan2(8, 6) or math.atan(8, 6)
      assert.near(0.1 + phi, c:angle(1), EPS)
      assert.near(-0.4 - phi, c:angle(2), EPS)
      assert.near(-0.4 - phi, c:rest(2), EPS)
      for k, name in ipairs{ "a", "b", "c" } do
        local x, y = sk:world(name)
        local jx, jy = c:joint(k)
        assert.near(x, jx, EPS)
        assert.near(y, jy, EPS)
      end
      -- a solve keeps the skeleton's limits and the forward kinematics
      local s = ik2d.solver(c, { iterations = 50 })
      s:set_target(14, 15)
      s:solve()
      assert_fk(sk)
      assert.is_true(abs(sk:angle("b") + 0.4) <= 1 + EPS)
      assert.near(0, helpers.tip_distance(c, 14, 15), 0.01)
      local tx, ty = sk:tip("c")
      local cx, cy = c:tip()
      assert.near(tx, cx, EPS)
      assert.near(ty, cy, EPS)
    end)

    it("starts a chain at a position-only bone with the base's angle", function()
      local sk = character{ angle = 0.4 }
      sk:set_pose("spine", -1)                                   -- the chest turns, the head not
      local head = sk:chain("head", "head")
      local x, y, a = sk:world("head")
      local jx, jy = head:joint(1)
      assert.are.same({ x, y }, { jx, jy })
      assert.near(0.4, a, EPS)
      assert.near(0.4, head:world_angle(1), EPS)
      local _, _, ba = head:base()
      assert.near(0.4, ba, EPS)
    end)

    it("reads its limits from its bones", function()
      local sk = character()
      local left = sk:chain("chest", "hand_l")
      assert.are.equal(sk:constraint("arm_l"), left:constraint(2))
      assert.is_nil(left:constraint(1))
      local c = ik2d.constraint{ min = -0.2, max = 0.2 }
      sk:set_constraint("chest", c)
      assert.are.equal(c, left:constraint(1))
      assert.are.equal(c, sk:constraint("chest"))
      sk:set_constraint("chest", nil)
      assert.is_nil(left:constraint(1))
    end)

    it("refuses edits of its own: base, flip, pose, reset, limits, lengths belong to the skeleton", function()
      local sk = character()
      local left = sk:chain("spine", "hand_l")
      for _, call in ipairs{
        { "set_base", 1, 2 }, { "set_flip", true }, { "set_pose", 1, 0.5 }, { "reset" },
        { "set_constraint", 1, nil }, { "set_length", 1, 5 }, { "set_rest", 1, 0.1 },
      } do
        local name = call[1]
        local msg = helpers.error_of(function() left[name](left, call[2], call[3]) end)
        helpers.check_message(msg, { name, "skeleton" })
      end
    end)

    -- The bone model scales bones: a thigh and shin of 10 each stretched to
    -- a target 30 away scale the thigh's x axis by 1.5 (its child inherits
    -- it: 15 + 10 * 1.5 = 30), and the foot below follows, its 3 as 4.5;
    -- lengths stay what the rig says.
    it("takes stretch and compress on its chains: the bones scale, their lengths stay", function()
      local sk = ik2d.skeleton{
        { name = "hip", length = 0 },
        { name = "thigh", parent = "hip", length = 10 },
        { name = "shin", parent = "thigh", length = 10 },
        { name = "foot", parent = "shin", length = 3 },
      }
      local leg = ik2d.solver(sk:chain("thigh", "shin"), { method = "two_bone", stretch = 2 })
      local foot = ik2d.solver(sk:chain("foot", "foot"), { compress = 0.5 })
      assert.are.equal(2, leg:options().stretch)
      assert.are.equal(0.5, foot:options().compress)
      leg:set_target(30, 0)
      foot:set_target(34.5, 0)
      sk:solve()
      local x, y = sk:tip("shin")
      assert.near(30, x, EPS)
      assert.near(0, y, EPS)
      assert.near(1.5, select(4, sk:result("thigh")), EPS)
      assert.near(1, select(4, sk:pose("thigh")), 0)
      assert.are.same({ 10, 10, 3 }, { sk:length("thigh"), sk:length("shin"), sk:length("foot") })
      x, y = sk:tip("foot")
      assert.near(34.5, x, EPS)
      assert.near(0, y, EPS)
    end)

    it("refuses paths that are not paths, naming the bones", function()
      local sk = character()
      local cases = {
        { "arm_l", "spine", 'bone "spine" does not descend from bone "arm_l"' },
        { "arm_l", "hand_r", 'bone "hand_r" does not descend from bone "arm_l"' },
        { "spine", "head", 'bone "head" inherits position only: it can only start a chain' },
        { "spine", "nose", 'unknown bone "nose"' },
        { "spine", 9, "bone index 9 out of range (1..8)" },
        { "spine", {}, "bone name or index expected, got table" },
      }
      for _, case in ipairs(cases) do
        local msg = helpers.error_of(function() sk:chain(case[1], case[2]) end)
        helpers.check_message(msg, { "bad argument #2 to 'chain' (", case[3] })
      end
    end)

    it("refuses a path through a bone that inherits less than all, naming the mode", function()
      for _, mode in ipairs{ "no_rotation_or_reflection", "no_scale", "no_scale_or_reflection" } do
        local sk = ik2d.skeleton{
          { name = "root", length = 2 },
          { name = "middle", parent = "root", length = 2, inherit = mode },
          { name = "end", parent = "middle", length = 2 },
        }
        local msg = helpers.error_of(function() sk:chain("root", "end") end)
        helpers.check_message(msg, { "bad argument #2 to 'chain' (",
          ('bone "middle" inherits %s: it can only start a chain'):format(mode) })
        assert.are.equal(2, #sk:chain("middle", "end"))
      end
    end)
  end)

  describe("solving", function()
    it("writes a chain's solve back: the bones below it follow", function()
      local sk = character()
      local arm = sk:chain("spine", "chest")
      local s = ik2d.solver(arm, { iterations = 30 })
      s:set_target(430, 250)
      assert.is_true((s:solve()))
      assert.near(0, helpers.distance(430, 250, sk:tip("chest")), 0.01)
      assert_fk(sk)
      local hx, hy = sk:world("hand_l")
      local tx, ty = sk:tip("arm_l")
      assert.near(tx, hx, EPS)
      assert.near(ty, hy, EPS)
    end)

    it("takes a spring's update on one of its chains: the bones below follow", function()
      local sk = character()
      local torso = sk:chain("spine", "chest")
      local sway = ik2d.spring(torso, { stiffness = 20, damping = 1 })
      sk:set_base(400, 300, 0.8) -- the torso lags behind the turned base
      sway:update(1 / 60)
      assert.is_true(math.abs(sk:angle("spine") - sk:pose("spine")) > 1e-3)
      assert.are.equal(torso:angle(1), sk:angle("spine"))
      assert_fk(sk)
      local hx, hy = sk:world("arm_l")
      local tx, ty = sk:tip("chest")
      assert.near(tx, hx, EPS)
      assert.near(ty, hy, EPS)
    end)

    it("refuses method follow on its chains (the skeleton owns their base)", function()
      local arm = character():chain("arm_l", "hand_l")
      local msg = helpers.error_of(ik2d.solver, arm, { method = "follow" })
      helpers.check_message(msg, { "method follow moves the chain's base, which the skeleton owns" })
      local s = ik2d.solver(arm)
      msg = helpers.error_of(s.set_options, s, { method = "follow" })
      helpers.check_message(msg, { "method follow moves the chain's base" })
      assert.are.equal("ccd", s:method())
    end)

    it("solves every solver with sk:solve, a chain below another's bones after it", function()
      local sk = character()
      local torso = sk:chain("spine", "chest")
      local arm = sk:chain("arm_l", "hand_l")
      -- made in the wrong order on purpose: the arm hangs below the torso
      local reach = ik2d.solver(arm, { iterations = 30 })
      local lean = ik2d.solver(torso, { iterations = 30 })
      lean:set_target(440, 250)
      reach:set_target(470, 270)
      assert.are.equal(2, sk:solve())
      assert.near(0, helpers.distance(440, 250, sk:tip("chest")), 0.01)
      assert.near(0, helpers.distance(470, 270, sk:tip("hand_l")), 0.01)
      assert.is_true((reach:result()))
      assert.is_true((lean:result()))
      assert.are.same({ reach, lean }, sk:solvers())
    end)

    it("solves effectors that share bones together, both reaching", function()
      local sk = character()
      local l = ik2d.solver(sk:chain("spine", "hand_l"), { iterations = 20 })
      local r = ik2d.solver(sk:chain("spine", "hand_r"), { iterations = 20 })
      l:set_target(440, 230)
      r:set_target(360, 250)
      assert.are.equal(2, sk:solve())
      local lr, ld = l:result()
      local rr, rd = r:result()
      assert.is_true(lr and rr)
      assert.near(ld, helpers.distance(440, 230, sk:tip("hand_l")), 1e-12)
      assert.near(rd, helpers.distance(360, 250, sk:tip("hand_r")), 1e-12)
      assert_fk(sk)
    end)

    it("solves a together = false solver after the group, winning on its bones", function()
      local sk = character()
      local l = ik2d.solver(sk:chain("spine", "hand_l"), { iterations = 20, together = false })
      local r = ik2d.solver(sk:chain("spine", "hand_r"), { iterations = 20 })
      l:set_target(440, 230)
      r:set_target(360, 250)
      sk:solve()
      assert.is_true((l:result()))
      assert.near(0, helpers.distance(440, 230, sk:tip("hand_l")), 0.01)
      -- each reports where its tip is now: the right hand was moved since
      local _, rd = r:result()
      assert.near(rd, helpers.distance(360, 250, sk:tip("hand_r")), 1e-12)
    end)

    it("weighs effectors by weight x priority in a coupled solve", function()
      local function lean(priority)
        local sk = character()
        local l = ik2d.solver(sk:chain("spine", "arm_l"), { iterations = 20, priority = priority })
        local r = ik2d.solver(sk:chain("spine", "arm_r"), { iterations = 20 })
        -- out of reach both: a compromise
        l:set_target(600, 200)
        r:set_target(200, 200)
        sk:solve()
        return helpers.distance(600, 200, sk:tip("arm_l")), helpers.distance(200, 200, sk:tip("arm_r"))
      end
      local l1, r1 = lean(1)
      local l4, r4 = lean(4)
      assert.is_true(l4 < l1 - 1)
      assert.is_true(r4 > r1 + 1)
    end)

    it("blends each solver's bones with the pose by its weight", function()
      local sk = character()
      local arm = sk:chain("arm_l", "hand_l")
      local s = ik2d.solver(arm, { iterations = 30, weight = 0.5, warm_start = false })
      s:set_target(480, 240)
      sk:set_pose("arm_l", 2.0)
      sk:set_pose("hand_l", 0)
      sk:solve()
      -- the same solve at weight 1 from the same pose
      local sk1 = character()
      local s1 = ik2d.solver(sk1:chain("arm_l", "hand_l"), { iterations = 30, warm_start = false })
      s1:set_target(480, 240)
      sk1:solve()
      for _, name in ipairs{ "arm_l", "hand_l" } do
        local pose, ik = sk1:pose(name), sk1:angle(name)
        assert.near(pose + 0.5 * helpers.angle_diff(pose, ik), sk:angle(name), 1e-9)
      end
      s:set_weight(0)
      sk:solve()
      assert.are.equal(sk:pose("arm_l"), sk:angle("arm_l"))
    end)

    it("mirrors the solve when flipped: the same pose, mirrored", function()
      local a, b = character(), character{ flip = true }
      local sa = ik2d.solver(a:chain("spine", "hand_l"), { iterations = 30 })
      local sb = ik2d.solver(b:chain("spine", "hand_l"), { iterations = 30 })
      sa:set_target(450, 240)
      sb:set_target(350, 240)
      a:solve()
      b:solve()
      for i = 1, #a do assert.near(a:angle(i), b:angle(i), 1e-9) end
      assert.near(0, helpers.distance(350, 240, b:tip("hand_l")), 0.01)
    end)
  end)

  describe("messages: a bone index out of range named, the 257th solver refused", function()
    local PATHS = helpers.ffi_paths(ik2d, true)
    -- A skeleton of n bones in a line, "b1" to "bn".
    local function line_skeleton(n)
      local t = {}
      for i = 1, n do t[i] = { name = "b" .. i, parent = i > 1 and "b" .. (i - 1) or nil, length = 1 } end
      return ik2d.skeleton(t)
    end
    local caller_error = helpers.caller_error
    after_each(function() ik2d.use_ffi(true) end)

    for _, on in ipairs(PATHS) do
      describe("on each path" .. helpers.path_name(PATHS, on), function()
        before_each(function() ik2d.use_ffi(on) end)

        -- an index out of range names the index given
        describe("an index out of range", function()
          local cases = {
            { "sk:world(19) on 18 bones", function(o) local r = o.sk:world(19) return r end,
              "bad argument #1 to 'world' (bone index 19 out of range (1..18))" },
            { "sk:chain(1, 19)", function(o) local r = o.sk:chain(1, 19) return r end,
              "bad argument #2 to 'chain' (bone index 19 out of range (1..18))" },
          }
          for _, case in ipairs(cases) do
            it(case[1] .. " says " .. case[3]:match("%((.*)%)$"), function()
              local o = { sk = line_skeleton(18) }
              assert.are.equal(case[3], caller_error(case[2], o))
            end)
          end
        end)

        -- the 257th solver on one skeleton: the chain (#1) is what cannot
        -- take one more, not the options (#2), which were not even given
        it("the 257th solver on one skeleton says bad argument #1: the skeleton already has 256", function()
          local sk = line_skeleton(3)
          local chain = sk:chain("b1", "b3")
          local solvers = {}
          for i = 1, 256 do solvers[i] = ik2d.solver(chain) end   -- kept alive: the skeleton counts them
          assert.are.same(solvers, sk:solvers())
          local want = "(the chain's skeleton already has 256 solvers, the most a skeleton takes)"
          assert.are.equal("bad argument #1 to 'solver' " .. want,
            caller_error(function() local r = ik2d.solver(chain) return r end))
          assert.are.equal("bad argument #1 to 'solver' " .. want,
            caller_error(function() local r = ik2d.solver(chain, { iterations = 3 }) return r end))
          assert.are.equal(256, #sk:solvers())
          -- bad options are still #2
          assert.are.equal("bad argument #2 to 'solver' (iterations must be >= 1)",
            caller_error(function() local r = ik2d.solver(chain, { iterations = 0 }) return r end))
        end)
      end)
    end
  end)
end)

describe("the skeleton goals", function()
  -- the goal case: a torso of 2 bones and two 2-bone arms from its top
  -- (limits as in the issue's example), both targets from a random pose
  -- of the whole body, 20 iterations from the rest pose
  local function two_hands(together, cases)
    local r = helpers.random(12)
    local sk = character()
    local l = ik2d.solver(sk:chain("spine", "hand_l"), { iterations = 20, together = together })
    local rs = ik2d.solver(sk:chain("spine", "hand_r"), { iterations = 20, together = together })
    local both, one = 0, 0
    for _ = 1, cases do
      sk:reset()
      for i = 2, #sk do
        local c = sk:constraint(i)
        if c then
          local min, max = c:limits()
          sk:set_pose(i, sk:rest(i) + min + (max - min) * r.next())
        elseif sk:name(i) ~= "head" then
          sk:set_pose(i, sk:rest(i) + r.range(-1, 1) * (i <= 3 and 0.8 or 3.1))
        end
      end
      local lx, ly = sk:tip("hand_l")
      local rx, ry = sk:tip("hand_r")
      sk:reset()
      l:forget()
      rs:forget()
      l:set_target(lx, ly)
      rs:set_target(rx, ry)
      sk:solve()
      local a, b = l:result(), rs:result()
      if a and b then both = both + 1 elseif a or b then one = one + 1 end
    end
    return both / cases, one / cases
  end

  it("reaches both hands together in >= 95% of cases", function()
    local both = two_hands(true, 1000)
    assert.is_true(both >= 0.95, ("both hands in %.1f%% of cases"):format(100 * both))
  end)

  it("with together = false reaches at most one hand in most cases", function()
    local both, one = two_hands(false, 1000)
    assert.is_true(both < 0.5 and one > 0.5, ("both %.1f%%, one %.1f%%"):format(100 * both, 100 * one))
  end)

  -- same bits: %.17g round-trips every double, -0 included
  local function bits(x) return ("%.17g"):format(x) end

  for _, method in ipairs{ "ccd", "fabrik", "two_bone" } do
    it("gives a one-path skeleton the same chain's bits: " .. method, function()
      local n = method == "two_bone" and 2 or 3
      local bones, sbones = {}, {}
      local lengths, rests = { 60, 50, 20 }, { 0.3, -0.2, 0.1 }
      for i = 1, n do
        bones[i] = { length = lengths[i], angle = rests[i], min = i == 2 and -0.4 or nil,
                     max = i == 2 and 1.9 or nil }
        sbones[i] = { name = "b" .. i, parent = i > 1 and "b" .. (i - 1) or nil,
                      length = lengths[i], angle = rests[i], min = bones[i].min, max = bones[i].max }
      end
      bones.x, bones.y, bones.angle = 400, 300, 0.2
      sbones.x, sbones.y, sbones.angle = 400, 300, 0.2
      local chain, sk = ik2d.chain(bones), ik2d.skeleton(sbones)
      local alone = ik2d.solver(chain, { method = method })
      local linked = ik2d.solver(sk:chain(1, n), { method = method })
      for frame = 0, 299 do
        local tx, ty = 420 + 90 * cos(frame * 0.05), 310 + 80 * sin(frame * 0.031)
        if frame % 50 == 7 then chain:set_pose(1, 0.01 * frame) sk:set_pose(1, 0.01 * frame) end
        if frame == 150 then chain:set_flip(true) sk:set_flip(true) end
        alone:set_target(tx, ty)
        linked:set_target(tx, ty)
        alone:solve()
        if frame % 2 == 0 then sk:solve() else linked:solve() end
        local ra = { alone:result() }
        local rb = { linked:result() }
        assert.are.same({ ra[1], bits(ra[2]), ra[3] }, { rb[1], bits(rb[2]), rb[3] })
        for i = 1, n do
          local x, y, a = sk:world(i)
          local jx, jy = chain:joint(i)
          assert.are.same({ bits(chain:angle(i)), bits(jx), bits(jy), bits(chain:world_angle(i)) },
                          { bits(sk:angle(i)), bits(x), bits(y), bits(a) })
        end
        local tx2, ty2 = sk:tip(n)
        local cx, cy = chain:tip()
        assert.are.same({ bits(cx), bits(cy) }, { bits(tx2), bits(ty2) })
      end
    end)
  end

  it("allocates nothing in a frame loop (set_base, set_pose, targets, solve, transforms)", function()
    local sk = character()
    local solvers = {
      ik2d.solver(sk:chain("spine", "chest"), { weight = 0.3 }),
      ik2d.solver(sk:chain("arm_l", "hand_l")),
      ik2d.solver(sk:chain("arm_r", "hand_r"), { method = "two_bone" }),
    }
    local t, frame = {}, 0
    local function run()
      for _ = 1, 2000 do
        frame = frame + 1
        sk:set_base(400 + sin(frame * 0.01), 300)
        sk:set_pose("head", 0.1 * sin(frame * 0.02))
        solvers[1]:set_target(410, 230 + 5 * sin(frame * 0.03))
        solvers[2]:set_target(450 + 10 * cos(frame * 0.02), 260)
        solvers[3]:set_target(360, 260 + 10 * sin(frame * 0.02))
        sk:solve()
        sk:transforms(t)
      end
    end
    assert.are.equal(0, helpers.steady_growth(run))
    if ik2d.ffi then
      ik2d.use_ffi(false)
      local bytes = helpers.steady_growth(run)
      ik2d.use_ffi(true)
      assert.are.equal(0, bytes)
    end
  end)
end)

describe("chain:set_length and chain:set_rest", function()
  local function arm()
    return ik2d.chain{ x = 10, y = 20, { length = 60 }, { length = 50, angle = pi / 2, min = -0.5, max = 0.5 },
                       { length = 20 } }
  end

  it("set_length changes the bone, the reach and the joints", function()
    local c = arm()
    c:set_length(2, 80)
    assert.are.equal(80, c:length(2))
    assert.are.equal(160, c:reach())
    local x, y = c:joint(3)
    assert.near(70, x, EPS)
    assert.near(100, y, EPS)
    assert.near(0, helpers.fk_error(c), EPS)
  end)

  it("set_rest moves the limits with it; pose and result keep their angles", function()
    local c = arm()
    c:set_pose(2, 1.5)
    c:set_rest(2, 0)
    assert.are.equal(0, c:rest(2))
    assert.are.equal(1.5, c:angle(2))
    assert.are.equal(1.5, c:pose(2))
    local s = ik2d.solver(c, { iterations = 30 })
    s:set_target(200, 200)                                     -- far: limits decide
    s:solve()
    assert.is_true(helpers.max_violation(c) <= EPS)
    assert.is_true(abs(c:angle(2)) <= 0.5 + EPS)
  end)

  it("keeps a solver's warm start and reach consistent: the next solve reaches", function()
    local c = arm()
    local s = ik2d.solver(c, { iterations = 30 })
    s:set_target(60, 80)
    assert.is_true((s:solve()))
    c:set_length(1, 30)
    c:set_rest(3, 0.4)
    s:set_target(40, 60)
    assert.is_true((s:solve()))
    assert.near(0, helpers.fk_error(c), 1e-9)
    -- out of the new reach (100): never nearer than distance - reach
    s:set_target(10 + 200, 20)
    local reached, distance = s:solve()
    assert.is_false(reached)
    assert.are.equal(100, c:reach())
    assert.is_true(distance >= 200 - 100 - 1e-9)
    assert.near(distance, helpers.tip_distance(c, 210, 20), 1e-9)
  end)

  it("refuses bad lengths and rest angles, changing nothing", function()
    local c = arm()
    local before = helpers.chain_state(c)
    for _, f in ipairs{
      function() c:set_length(1, 0) end, function() c:set_length(1, -2) end,
      function() c:set_length(1, 0 / 0) end, function() c:set_length(1, math.huge) end,
      function() c:set_length(4, 1) end, function() c:set_rest(1, 0 / 0) end,
      function() c:set_length(1, 1.7e308) c:set_length(2, 1.7e308) end,
    } do
      assert.is_false(pcall(f))
      c:set_length(1, 60)
    end
    assert.are.same(before, helpers.chain_state(c))
    local msg = helpers.error_of(function() c:set_length(1, 0) end)
    helpers.check_message(msg, { "bad argument #2 to 'set_length' (", "length must be > 0" })
  end)
end)

-- A base set is seen by every reader that comes after it, whichever it
-- is (the pure core places the bones when first read, or by the solve
-- that follows): twins, one read at once after the base, the other's
-- transforms read first, give the same bits.
describe("a skeleton's base set, then read", function()
  local function bits(list)
    local out = {}
    for k, v in ipairs(list) do out[k] = string.format("%a", v) end
    return out
  end

  -- a character solved once, an arm chain with a solver (no target yet:
  -- it follows the tip) and a spring on the other arm
  local function rig()
    local sk = character()
    local arm = sk:chain("arm_l", "hand_l")
    local other = sk:chain("arm_r", "hand_r")
    local follower = ik2d.solver(arm)
    local reacher = ik2d.solver(other)
    reacher:set_target(380, 330)
    sk:solve()
    return { sk = sk, arm = arm, other = other, follower = follower, reacher = reacher,
             spring = ik2d.spring(other, { stiffness = 100, damping = 6 }) }
  end

  local readers = {
    ["chain:joints"] = function(r) return r.arm:joints() end,
    ["chain:tip, joint, base, angle"] = function(r)
      local x, y = r.arm:tip()
      local jx, jy = r.arm:joint(2)
      local bx, by, ba = r.arm:base()
      return { x, y, jx, jy, bx, by, ba, r.arm:angle(1) }
    end,
    ["solver:target of a solver following its tip"] = function(r)
      return { r.follower:target() }
    end,
    ["solver:solve alone"] = function(r)
      r.reacher:solve()
      return r.sk:transforms()
    end,
    ["spring:update"] = function(r)
      r.spring:update(1 / 60)
      return r.other:joints()
    end,
    ["a group of solvers"] = function(r)
      local g = ik2d.group({ r.reacher })
      g:solve()
      return g:joints()
    end,
    ["a group of skeletons"] = function(r)
      return ik2d.group({ r.sk }):transforms()
    end,
    ["a target on a bone, solved from another skeleton"] = function(r)
      local sk2 = character()
      local s = ik2d.solver(sk2:chain("arm_l", "hand_l"))
      s:set_target_bone(r.sk, "hand_r", 5, 0)
      sk2:solve()
      local t = sk2:transforms()
      t[#t + 1], t[#t + 2] = s:target()
      return t
    end,
    ["sk:set_pose"] = function(r)
      r.sk:set_pose("arm_l", 0.3)
      return r.sk:transforms()
    end,
    ["sk:chain made after"] = function(r)
      return r.sk:chain("spine", "chest"):joints()
    end,
    ["sk:world and sk:tip"] = function(r)
      local x, y, a = r.sk:world("hand_l")
      local tx, ty = r.sk:tip("head")
      return { x, y, a, tx, ty }
    end,
  }

  for name, read in pairs(readers) do
    it("reads the base through " .. name .. " as after the transforms", function()
      local at_once, placed = rig(), rig()
      at_once.sk:set_base(410, 290, 0.2)
      placed.sk:set_base(410, 290, 0.2)
      placed.sk:transforms()
      local a, b = read(at_once), read(placed)
      assert.are.same(bits(b), bits(a))
      -- and the base moved them: the same reader before the base differs
      local before = rig()
      assert.are_not.same(bits(read(before)), bits(a))
    end)
  end
end)
