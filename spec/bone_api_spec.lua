-- The bone model's API: the skeleton's scale, the whole local
-- pose, world matrices (a skeleton's and a group's, and their FFI
-- arrays), transform constraints and the order a skeleton applies its
-- solvers and constraints in.  Each method's behaviour against values
-- worked out by hand, each refusal's full message (the function, the
-- argument, the bone or option, the problem) and that it changes nothing,
-- the objects' lifetimes, and no garbage in a frame loop; under LuaJIT on
-- the FFI path and the classic one alike.

local ik2d = require "ik2d"
local helpers = require "spec.helpers"

local cos, sin, nan, inf = math.cos, math.sin, 0 / 0, math.huge
local unpack = table.unpack or unpack
local EPS = 1e-12

-- hip at the origin turned 0.3, 10 long; arm a root at (2, 1); hand below
-- the arm at its tip
local function rig(extra)
  local t = {
    { name = "hip", length = 10, angle = 0.3 },
    { name = "arm", length = 5, x = 2, y = 1 },
    { name = "hand", parent = "arm", length = 2 },
  }
  for k, v in pairs(extra or {}) do t[k] = v end
  return ik2d.skeleton(t)
end

local function matrix_near(expected, got, tolerance)
  for k = 1, 6 do assert.near(expected[k], got[k], tolerance or EPS) end
end

-- a rotation by r, at (x, y)
local function turned(r, x, y) return { cos(r), -sin(r), sin(r), cos(r), x, y } end

-- what a refused call must leave as it was
local function state(sk)
  local out = { sk:matrices(), { sk:scale() } }
  for i = 1, #sk do
    out[#out + 1] = { sk:pose(i) }
    out[#out + 1] = { sk:result(i) }
  end
  return out
end

-- The message of f's error, raised at the caller's line (f a one-line
-- function): "bad argument #n to 'name' (...)".
local caller_error = helpers.caller_error

helpers.on_both_paths(ik2d, function()
  describe("the skeleton's scale", function()
    it("is read from the skeleton's table, set by set_scale and read by scale", function()
      local sk = rig{ scale_x = -1, scale_y = 2 }
      assert.are.same({ -1, 2 }, { sk:scale() })
      -- the hip's map under the scale: S R(0.3)
      matrix_near({ -cos(0.3), sin(0.3), 2 * sin(0.3), 2 * cos(0.3), 0, 0 }, { sk:matrix("hip") })
      sk:set_scale(1, -1)
      assert.are.same({ 1, -1 }, { sk:scale() })
      matrix_near({ cos(0.3), -sin(0.3), -sin(0.3), -cos(0.3), 0, 0 }, { sk:matrix("hip") })
      sk:set_scale(1, 1)
      matrix_near(turned(0.3, 0, 0), { sk:matrix("hip") })
    end)

    for _, case in ipairs{
      { "scale x 0", { 0, 1 }, 1, "scale_x must be non-zero and finite" },
      { "scale x -inf", { -inf, 1 }, 1, "scale_x must be non-zero and finite" },
      { "scale y NaN", { 1, nan }, 2, "scale_y must be non-zero and finite" },
      { "scale y missing", { 1, n = 1 }, 2, "number expected, got no value" },
      { "scale x a word", { "big", 1 }, 1, "number expected, got string" },
    } do
      it("set_scale refuses " .. case[1] .. ", naming the argument, changing nothing", function()
        local sk = rig{ scale_x = 2 }
        local before = state(sk)
        local msg = caller_error(function() sk:set_scale(unpack(case[2], 1, case[2].n or 2)) end)
        assert.are.equal(("bad argument #%d to 'set_scale' (%s)"):format(case[3], case[4]), msg)
        assert.are.same(before, state(sk))
      end)
    end

    it("ik2d.skeleton refuses a zero scale, of the skeleton or of a bone, naming the bone", function()
      local msg = caller_error(function() ik2d.skeleton{ scale_y = 0, { name = "a", length = 1 } } end)
      assert.are.equal("bad argument #1 to 'skeleton' (scale_y must be non-zero and finite)", msg)
      msg = caller_error(function() ik2d.skeleton{ { name = "arm", length = 1, scale_x = 0 } } end)
      assert.are.equal("bad argument #1 to 'skeleton' (bone \"arm\": scale_x must be non-zero and finite)",
                       msg)
      msg = caller_error(function() ik2d.skeleton{ { name = "arm", length = 1, shear_y = nan } } end)
      assert.are.equal("bad argument #1 to 'skeleton' (bone \"arm\": shear_y must be finite)", msg)
    end)
  end)

  describe("the whole local pose", function()
    it("set_pose sets every part given, a nil keeping the pose's; pose reads all seven", function()
      local sk = rig()
      assert.are.same({ 0, 2, 1, 1, 1, 0, 0 }, { sk:pose("arm") })
      sk:set_pose("arm", 0.5, 3, -1, 2, -0.5, 0.1, 0.2)
      assert.are.same({ 0.5, 3, -1, 2, -0.5, 0.1, 0.2 }, { sk:pose("arm") })
      sk:set_pose("arm", 0.25, nil, 4, nil, nil, nil, -0.2)
      assert.are.same({ 0.25, 3, 4, 2, -0.5, 0.1, -0.2 }, { sk:pose("arm") })
      -- the short form changes the angle alone
      sk:set_pose(2, 0.75)
      assert.are.same({ 0.75, 3, 4, 2, -0.5, 0.1, -0.2 }, { sk:pose("arm") })
      -- shown by the result until a solve; the set-up stays the rig's
      assert.are.same({ sk:pose("arm") }, { sk:result("arm") })
      assert.are.same({ 0, 2, 1, 1, 1, 0, 0 }, { sk:setup("arm") })
      -- the local map: x axis 2 (cos(0.75 + 0.1), sin(...)), y axis -0.5
      -- (-sin(0.75 - 0.2), cos(...)), at (3, 4)
      matrix_near({ 2 * cos(0.85), 0.5 * sin(0.55), 2 * sin(0.85), -0.5 * cos(0.55), 3, 4 },
                  { sk:matrix("arm") })
      sk:reset()
      assert.are.same({ 0, 2, 1, 1, 1, 0, 0 }, { sk:pose("arm") })
      matrix_near(turned(0, 2, 1), { sk:matrix("arm") })
    end)

    for _, case in ipairs{
      { "an angle NaN", { nan }, 2, "bone \"arm\": pose angle must be finite" },
      { "an angle NaN, the whole form", { nan, 1, 1 }, 2, "bone \"arm\": pose angle must be finite" },
      { "an angle missing", { nil, 1 }, 2, "number expected, got nil" },
      { "x inf", { 0, inf }, 3, "bone \"arm\": origin x must be finite" },
      { "y a word", { 0, 1, "up" }, 4, "number expected, got string" },
      { "scale x 0", { 0, 1, 1, 0 }, 5, "bone \"arm\": scale_x must be non-zero and finite" },
      { "scale y NaN", { 0, nil, nil, nil, nan }, 6, "bone \"arm\": scale_y must be non-zero and finite" },
      { "shear x -inf", { 0, nil, nil, nil, nil, -inf }, 7, "bone \"arm\": shear_x must be finite" },
      { "shear y inf", { 0, nil, nil, nil, nil, nil, inf }, 8, "bone \"arm\": shear_y must be finite" },
    } do
      it("set_pose refuses " .. case[1] .. ", naming the bone and the argument, changing nothing",
         function()
        local sk = rig()
        sk:set_pose("arm", 0.5, 3, -1, 2, -0.5, 0.1, 0.2)
        local before = state(sk)
        local msg = caller_error(function() sk:set_pose("arm", unpack(case[2], 1, 7)) end)
        assert.are.equal(("bad argument #%d to 'set_pose' (%s)"):format(case[3], case[4]), msg)
        assert.are.same(before, state(sk))
      end)
    end

    it("pose, result and setup refuse a bone that is not one", function()
      local sk = rig()
      assert.are.equal("bad argument #1 to 'pose' (unknown bone \"leg\")",
                       caller_error(function() sk:pose("leg") end))
      assert.are.equal("bad argument #1 to 'result' (bone index 4 out of range (1..3))",
                       caller_error(function() sk:result(4) end))
      assert.are.equal("bad argument #1 to 'setup' (bone name or index expected, got boolean)",
                       caller_error(function() sk:setup(true) end))
    end)
  end)

  describe("world matrices", function()
    -- arm at (2, 1) turned 0.5, hand at its tip: (2 + 5 cos 0.5, 1 + 5 sin
    -- 0.5), the same turn
    it("matrix gives a bone's x axis, y axis and origin; matrices all, bone after bone", function()
      local sk = rig()
      sk:set_pose("arm", 0.5)
      matrix_near(turned(0.5, 2 + 5 * cos(0.5), 1 + 5 * sin(0.5)), { sk:matrix("hand") })
      local t = sk:matrices()
      assert.are.equal(18, #t)
      for i = 1, 3 do assert.are.same({ sk:matrix(i) }, { unpack(t, 6 * i - 5, 6 * i) }) end
    end)

    it("matrices(t) fills t, clearing what follows, and returns it", function()
      local sk = rig()
      local t = {}
      for i = 1, 25 do t[i] = -i end
      assert.are.equal(t, sk:matrices(t))
      assert.are.equal(18, #t)
      assert.is_nil(rawget(t, 19))
      assert.are.same(sk:matrices(), t)
    end)

    it("flip mirrors the matrices about the base, as the skeleton's scale (-1, 1) does", function()
      local a, b = rig{ x = 7, flip = true }, rig{ x = 7, scale_x = -1 }
      a:set_pose("arm", 0.4, 2, 1, 1.5, 1)
      b:set_pose("arm", 0.4, 2, 1, 1.5, 1)
      for i = 1, 3 do matrix_near({ b:matrix(i) }, { a:matrix(i) }, 1e-12) end
    end)

    it("flip mirrors a root at the base that its pose moved off it", function()
      -- hip rigged at the base (7, 0), posed to (3, 2) in the skeleton's
      -- space: drawn mirrored at (7 - 3, 2)
      local sk = rig{ x = 7, flip = true }
      sk:set_pose("hip", 0.3, 3, 2)
      local _, _, _, _, x, y = sk:matrix("hip")
      assert.near(4, x, EPS)
      assert.near(2, y, EPS)
    end)

    for _, case in ipairs{
      { "missing", { n = 0 }, "bone name or index expected, got no value" },
      { "a table", { {} }, "bone name or index expected, got table" },
      { "unknown", { "leg" }, "unknown bone \"leg\"" },
      { "0", { 0 }, "bone index 0 out of range (1..3)" },
      { "1.5", { 1.5 }, "bone index must be a whole number" },
    } do
      it("matrix refuses a bone " .. case[1], function()
        local sk = rig()
        assert.are.equal(("bad argument #1 to 'matrix' (%s)"):format(case[3]),
                         caller_error(function() sk:matrix(unpack(case[2], 1, case[2].n or 1)) end))
      end)
    end

    it("matrices refuses t that is not a table", function()
      local sk = rig()
      assert.are.equal("bad argument #1 to 'matrices' (table expected, got number)",
                       caller_error(function() sk:matrices(5) end))
    end)

    if not (helpers.is_luajit and (ik2d.ffi or ik2d.backend == "lua")) then
      it("matrix_array needs LuaJIT's FFI", function()
        local sk = rig()
        helpers.check_message(helpers.error_of(function() sk:matrix_array() end),
                              { "matrix_array", "LuaJIT's FFI" })
      end)
    else
      it("matrix_array gives the matrices, made again by each call, and keeps the skeleton", function()
        local function array_only()
          local sk = rig()
          return sk:matrix_array(), sk
        end
        local a, sk = array_only()
        assert.are.equal(a, sk:matrix_array())
        sk:set_pose("arm", 1.25)
        assert.are.equal(1, a[6])  -- the arm's a, not made again yet
        assert.are.equal(a, sk:matrix_array())
        assert.near(cos(1.25), a[6], 1e-15)
        local t = sk:matrices()
        for k = 1, 18 do assert.are.equal(t[k], a[k - 1]) end
        sk = nil -- luacheck: ignore 311
        local held = array_only()
        for _ = 1, 4 do collectgarbage() end
        assert.are.equal(cos(0.3), held[0])
      end)
    end
  end)

  describe("a group of skeletons' matrices", function()
    it("matrices gives every skeleton's, skeleton after skeleton", function()
      local a, b = rig(), rig{ scale_x = 2 }
      b:set_pose("hand", 0.2)
      local g = ik2d.group{ a, b }
      local t = g:matrices()
      assert.are.equal(36, #t)
      local expected = a:matrices()
      for _, v in ipairs(b:matrices()) do expected[#expected + 1] = v end
      assert.are.same(expected, t)
      assert.are.equal(t, g:matrices(t))
      if ik2d.ffi and ik2d.backend ~= "lua" then
        local array = g:matrix_array()
        b:set_pose("hand", 0.7)
        assert.are.equal(array, g:matrix_array())
        expected = a:matrices()
        for _, v in ipairs(b:matrices()) do expected[#expected + 1] = v end
        for k = 1, 36 do assert.are.equal(expected[k], array[k - 1]) end
      end
    end)

    it("a group of solvers has none", function()
      local g = ik2d.group{ ik2d.solver(ik2d.chain{ { length = 1 } }) }
      helpers.check_message(helpers.error_of(function() g:matrices() end),
                            { "matrices", "only a group of skeletons has it" })
    end)
  end)

  describe("transform constraints", function()
    -- the arm takes the hip's world rotation (0.3) plus 0.2 and its origin
    it("world, absolute: the bones take the target's rotation, origin and scale by the mixes",
       function()
      local sk = rig()
      local tc = ik2d.transform_constraint(sk, { bones = { "arm" }, target = "hip",
                                                 offset_rotation = 0.2 })
      tc:apply()
      matrix_near(turned(0.5, 0, 0), { sk:matrix("arm") })
      matrix_near(turned(0.5, 5 * cos(0.5), 5 * sin(0.5)), { sk:matrix("hand") })
      -- half the turn toward 0.5, a quarter of the way in x, none in y
      sk:reset()
      tc:set_options{ mix_rotate = 0.5, mix_x = 0.25, mix_y = 0 }
      tc:apply()
      matrix_near(turned(0.25, 2 - 0.25 * 2, 1), { sk:matrix("arm") })
      -- the hip's scale x 2 (and 1 more by the offset): the arm's x axis 3 long
      sk:reset()
      sk:set_pose("hip", 0.3, 0, 0, 2, 1)
      tc:set_options{ mix_rotate = 0, mix_x = 0, offset_scale_x = 1 }
      tc:apply()
      matrix_near({ 3, 0, 0, 1, 2, 1 }, { sk:matrix("arm") })
    end)

    -- local: the arm's local angle moves toward the hip's (0.3) and its
    -- translation toward the hip's (0, 0); relative: the hip's are added
    it("local, absolute and relative: the local transforms move", function()
      local sk = rig()
      sk:set_pose("arm", 0.1)
      local tc = ik2d.transform_constraint(sk, { bones = { "arm" }, target = "hip", ["local"] = true,
                                                 mix_rotate = 0.5, mix_x = 1, mix_y = 0 })
      tc:apply()
      assert.near(0.1 + 0.5 * (0.3 - 0.1), (sk:result("arm")), EPS)
      local _, x, y = sk:result("arm")
      assert.are.same({ 0, 1 }, { x, y })
      sk:reset()
      sk:set_pose("arm", 0.1)
      tc:set_options{ relative = true, mix_x = 0 }
      tc:apply()
      assert.near(0.1 + 0.5 * 0.3, (sk:result("arm")), EPS)
      _, x, y = sk:result("arm")
      assert.are.same({ 2, 1 }, { x, y })
    end)

    it("options gives every option, bones and target as names; set_options changes those given",
       function()
      local sk = rig()
      local tc = ik2d.transform_constraint(sk, { bones = { 2, "hand" }, target = 1, mix_y = 0.5 })
      local t = tc:options()
      assert.are.same({
        bones = { "arm", "hand" }, target = "hip", mix_rotate = 1, mix_x = 1, mix_y = 0.5,
        mix_scale_x = 1, mix_scale_y = 1, mix_shear_y = 1, offset_rotation = 0, offset_x = 0,
        offset_y = 0, offset_scale_x = 0, offset_scale_y = 0, offset_shear_y = 0,
        ["local"] = false, relative = false,
      }, t)
      tc:set_options{ bones = { "hip", "arm" }, target = "hand", offset_x = 2, ["local"] = true }
      local bones = t.bones
      assert.are.equal(t, tc:options(t))
      assert.are.equal(bones, t.bones)
      assert.are.same({ "hip", "arm" }, t.bones)
      assert.are.same({ "hand", 0.5, 2, true }, { t.target, t.mix_y, t.offset_x, t["local"] })
      assert.are.equal(sk, tc:skeleton())
      assert.are.same({ tc }, sk:constraints())
      assert.are.equal("ik2d.TransformConstraint(2 bones)", tostring(tc))
    end)

    local BAD = {
      { "no options", nil, "table expected, got nil" },
      { "no bones", { target = "hip" }, "bones: table of bone names or indices expected, got nil" },
      { "no bone", { bones = {}, target = "hip" }, "bones: a transform constraint needs 1 to "
        .. ik2d.MAX_SKELETON_BONES .. " bones" },
      { "an unknown bone", { bones = { "arm", "leg" }, target = "hip" }, 'bones[2]: unknown bone "leg"' },
      { "a bone index out of range", { bones = { 4 }, target = "hip" },
        "bones[1]: bone index 4 out of range (1..3)" },
      { "a bone that is a table", { bones = { {} }, target = "hip" },
        "bones[1]: bone name or index expected, got table" },
      { "a bone twice", { bones = { "arm", "hand", 2 }, target = "hip" }, 'bones[3]: bone "arm" is listed twice' },
      { "no target", { bones = { "arm" } }, "target: bone name or index expected, got nil" },
      { "the target among the bones", { bones = { "arm" }, target = 2 },
        'target: bone "arm" is one of the constrained bones' },
      { "a mix NaN", { bones = { "arm" }, target = "hip", mix_scale_y = nan }, "mix_scale_y: mix must be finite" },
      { "an offset inf", { bones = { "arm" }, target = "hip", offset_y = inf }, "offset_y: offset must be finite" },
      { "a mix a word", { bones = { "arm" }, target = "hip", mix_x = "all" }, "mix_x: number expected, got string" },
      { "local a number", { bones = { "arm" }, target = "hip", ["local"] = 1 },
        "local must be true or false, got number" },
      { "an unknown option", { bones = { "arm" }, target = "hip", mix = 1 }, "unknown option 'mix'" },
    }
    for _, case in ipairs(BAD) do
      it("ik2d.transform_constraint refuses " .. case[1] .. ", leaving the skeleton without it", function()
        local sk = rig()
        local before = state(sk)
        local msg = caller_error(function() ik2d.transform_constraint(sk, case[2]) end)
        assert.are.equal(("bad argument #2 to 'transform_constraint' (%s)"):format(case[3]), msg)
        assert.are.same({}, sk:constraints())
        assert.are.same(before, state(sk))
      end)
      if case[2] and case[1] ~= "no bones" and case[1] ~= "no target" then
        it("set_options refuses " .. case[1] .. ", changing nothing", function()
          local sk = rig()
          local tc = ik2d.transform_constraint(sk, { bones = { "hand" }, target = "hip", mix_x = 0.5 })
          local before = tc:options()
          local options = {}
          for k, v in pairs(case[2]) do options[k] = v end
          -- as many bones as it has, or the count is the problem
          if options.bones and #options.bones ~= 1 and case[1] ~= "no bone" then
            options.bones = { options.bones[#options.bones] }
            if case[1] == "a bone twice" then options.bones, options.target = { "hip" }, "hip" end
          end
          local ok, msg = pcall(tc.set_options, tc, options)
          assert.is_false(ok)
          assert.truthy(msg:find("bad argument #2 to 'set_options' (", 1, true), msg)
          assert.are.same(before, tc:options())
        end)
      end
    end

    it("set_options refuses another count of bones, naming both", function()
      local sk = rig()
      local tc = ik2d.transform_constraint(sk, { bones = { "arm", "hand" }, target = "hip" })
      assert.are.equal("bad argument #1 to 'set_options' (bones: 2 bones expected (as many as the "
        .. "constraint has), got 1)", caller_error(function() tc:set_options{ bones = { "arm" } } end))
    end)

    it("refuses a skeleton that is not one, and methods on an object that is not a constraint", function()
      assert.are.equal("bad argument #1 to 'transform_constraint' (ik2d.Skeleton expected, got table)",
                       caller_error(function() ik2d.transform_constraint({}, {}) end))
      local tc = ik2d.transform_constraint(rig(), { bones = { "arm" }, target = "hip" })
      assert.are.equal("bad argument #1 to 'apply' (ik2d.TransformConstraint expected, got number)",
                       caller_error(function() tc.apply(5) end))
    end)
  end)

  describe("the order", function()
    -- a one-bone IK on the hand toward (0, 10), then a constraint turning
    -- the hand to the hip's world angle: the order decides which shows
    it("runs its solvers and constraints in the order set, each reading what came before", function()
      local function solved(order)
        local sk = rig()
        local ik = ik2d.solver(sk:chain("hand", "hand"))
        ik:set_target(0, 10)
        local tc = ik2d.transform_constraint(sk, { bones = { "hand" }, target = "hip", mix_x = 0,
                                                   mix_y = 0 })
        sk:set_order(order == "ik last" and { tc, ik } or { ik, tc })
        assert.are.same(order == "ik last" and { tc, ik } or { ik, tc }, sk:order())
        sk:solve()
        return select(3, sk:world("hand"))
      end
      assert.near(0.3, solved("constraint last"), EPS)
      local x, y = 2 + 5, 1
      assert.near(math.atan2 and math.atan2(10 - y, 0 - x) or math.atan(10 - y, 0 - x), solved("ik last"), 1e-9)
    end)

    it("order(t) fills t; set_order(nil) and set_order{} clear it", function()
      local sk = rig()
      local tc = ik2d.transform_constraint(sk, { bones = { "hand" }, target = "hip" })
      sk:set_order{ tc }
      local t = { 1, 2, 3 }
      assert.are.equal(t, sk:order(t))
      assert.are.same({ tc }, t)
      sk:set_order(nil)
      assert.are.same({}, sk:order())
      sk:set_order{ tc }
      sk:set_order{}
      assert.are.same({}, sk:order())
    end)

    it("refuses steps that are not its solvers and constraints, each once, changing nothing", function()
      local sk, other = rig(), rig()
      local tc = ik2d.transform_constraint(sk, { bones = { "hand" }, target = "hip" })
      local foreign = ik2d.transform_constraint(other, { bones = { "hand" }, target = "hip" })
      local ik = ik2d.solver(sk:chain("arm", "hand"))
      local alone = ik2d.solver(ik2d.chain{ { length = 1 } })
      sk:set_order{ ik }
      for _, case in ipairs{
        { { tc, 5 }, "step 2: ik2d.Solver or ik2d.TransformConstraint expected, got number" },
        { { foreign }, "step 1: a step of the order must be a solver or a transform constraint of the "
          .. "skeleton" },
        { { tc, alone }, "step 2: a step of the order must be a solver or a transform constraint of "
          .. "the skeleton" },
        { { ik, tc, ik }, "step 3: a solver or constraint is in the order twice" },
        { 7, "table expected, got number" },
      } do
        assert.are.equal(("bad argument #1 to 'set_order' (%s)"):format(case[2]),
                         caller_error(function() sk:set_order(case[1]) end))
        assert.are.same({ ik }, sk:order())
      end
    end)
  end)

  describe("the lifetimes of a skeleton and its constraints", function()
    it("a constraint keeps its skeleton alive, and the skeleton its constraints", function()
      local function constraint_only()
        local sk = rig()
        return ik2d.transform_constraint(sk, { bones = { "hand" }, target = "hip" })
      end
      local tc = constraint_only()
      for _ = 1, 4 do collectgarbage() end
      local sk = tc:skeleton()
      tc:apply()
      assert.near(0.3, select(3, sk:world("hand")), EPS)
      local function skeleton_only()
        local s = rig()
        s:set_order{ ik2d.transform_constraint(s, { bones = { "hand" }, target = "hip" }) }
        return s
      end
      sk = skeleton_only()
      for _ = 1, 4 do collectgarbage() end
      assert.are.equal(1, #sk:constraints())
      assert.are.same(sk:constraints(), sk:order())
      sk:solve()
      assert.near(0.3, select(3, sk:world("hand")), EPS)
    end)

    -- (held in the anchors table, LuaJIT would keep the pair forever: its
    -- weak-keyed tables mark their values)
    it("go together when nothing else holds them", function()
      local weak = setmetatable({}, { __mode = "v" })
      for k = 1, 50 do
        local sk = rig()
        weak[2 * k - 1] = sk
        weak[2 * k] = ik2d.transform_constraint(sk, { bones = { "hand" }, target = "hip" })
      end
      for _ = 1, 6 do collectgarbage() end
      assert.is_nil(next(weak))
    end)

    it("a constraint finalised leaves the skeleton and its order; a skeleton finalised leaves it",
       function()
      local finalise = function(o) debug.getmetatable(o).__gc(o) end
      local sk = rig()
      local a = ik2d.transform_constraint(sk, { bones = { "hand" }, target = "hip" })
      local b = ik2d.transform_constraint(sk, { bones = { "arm" }, target = "hip" })
      sk:set_order{ a, b }
      finalise(a)
      assert.are.same({ b }, sk:constraints())
      assert.are.same({ b }, sk:order())
      assert.are.equal("bad argument #1 to 'apply' (transform constraint was collected)",
                       caller_error(function() a.apply(a) end))
      assert.are.equal("ik2d.TransformConstraint(collected)", tostring(a))
      sk:solve()
      finalise(sk)
      for _, name in ipairs{ "apply", "options", "skeleton" } do
        assert.are.equal(("bad argument #1 to '%s' (skeleton was collected)"):format(name),
                         caller_error(function() b[name](b) end))
      end
      assert.are.equal("ik2d.TransformConstraint(1 bones, skeleton collected)", tostring(b))
    end)
  end)

  describe("user values replaced through the debug library", function()
    local function tamper(obj, value)
      if debug.setuservalue then return debug.setuservalue(obj, value) ~= nil end
      return debug.setfenv(obj, value) == obj
    end
    if ik2d.backend == "lua" then
      pending("the pure-Lua core's objects hold their references in Lua tables")
      return
    end

    -- the references between a skeleton and its constraints are theirs:
    -- replaced, the other side may go, and everything after is an answer
    -- or an error, never a read of freed memory (make test-asan)
    it("end a life early at worst: what is left answers or raises", function()
      local function pair()
        local sk = rig()
        local tc = ik2d.transform_constraint(sk, { bones = { "hand" }, target = "hip" })
        sk:set_order{ tc }
        return sk, tc
      end
      local sk = pair()
      assert.is_true(tamper(sk, { "not the binding's" }))
      for _ = 1, 4 do collectgarbage() end
      assert.are.same({}, sk:constraints())
      assert.are.same({}, sk:order())
      sk:solve()
      local tc = select(2, pair())
      assert.is_true(tamper(tc, {}))
      for _ = 1, 4 do collectgarbage() end
      assert.are.equal("calling 'apply' on bad self (skeleton was collected)",
                       caller_error(function() tc:apply() end))
      assert.are.equal("ik2d.TransformConstraint(1 bones, skeleton collected)", tostring(tc))
      -- a live skeleton the constraint cannot name any more
      local sk2, tc2 = pair()
      assert.is_true(tamper(tc2, {}))
      tc2:apply()
      assert.are.equal("calling 'skeleton' on bad self (its skeleton is out of reach (its user value "
        .. "was replaced))", caller_error(function() tc2:skeleton() end))
      assert.are.same({ tc2 }, sk2:constraints())
    end)
  end)

  describe("a frame loop", function()
    it("makes no garbage: set_pose's whole form, solve, matrices(t), matrix", function()
      local sk = rig{ scale_y = -1 }
      local ik = ik2d.solver(sk:chain("arm", "hand"), { method = "two_bone" })
      local tc = ik2d.transform_constraint(sk, { bones = { "hip" }, target = "hand", mix_x = 0,
                                                 mix_y = 0, mix_rotate = 0.5 })
      sk:set_order{ ik, tc }
      local t, frame = {}, 0
      local growth = helpers.steady_growth(function()
        for _ = 1, 200 do
          frame = frame + 1
          sk:set_pose("arm", 0.01 * frame, 2, 1, 1 + 0.1 * sin(frame), 1)
          ik:set_target(3 + cos(0.02 * frame), -4)
          sk:solve()
          sk:matrices(t)
          local a, _, _, _, x = sk:matrix("hand")
          t[1] = a + x
          if ik2d.ffi and ik2d.backend ~= "lua" then t[2] = sk:matrix_array()[5] end
        end
      end)
      assert.are.equal(0, growth)
    end)
  end)
end)
