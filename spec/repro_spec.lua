-- Reports a newcomer's game and an adversarial campaign made, each turned
-- into what it proves, grouped by module: the fixed result, with numbers,
-- on every backend (the C core through the FFI and the classic methods,
-- the pure core under IK2D_PURE=1).

local ik2d = require "ik2d"
local helpers = require "spec.helpers"

local sqrt, cos, sin, pi = math.sqrt, math.cos, math.sin, math.pi

local function bits(t)
  local out = {}
  for i = 1, #t do out[i] = string.format("%a", t[i]) end
  return out
end

helpers.on_both_paths(ik2d, function()
  describe("ik2d.group", function()
    local sk = ik2d.skeleton{ { name = "a", length = 3 } }
    local s = ik2d.solver(ik2d.chain{ { length = 3 } })
    for _, case in ipairs{
      { "5", 5, "table expected, got number" },
      { "{ 5 }", { 5 }, "item 1: ik2d.Solver expected, got number" },
      { "{ s, s }", { s, s }, "item 2: the solver of item 1 again" },
      { "{ s, sk }", { s, sk }, "item 2: ik2d.Solver expected, got ik2d.Skeleton" },
      { "{ sk, s }", { sk, s }, "item 2: ik2d.Skeleton expected (item 1 is one), got ik2d.Solver" },
      { "{ sk, sk }", { sk, sk }, "item 2: the skeleton of item 1 again" },
    } do
      it("names itself refusing " .. case[1] .. " (a group of skeletons too)", function()
        assert.are.equal(("bad argument #1 to 'group' (%s)"):format(case[3]),
                         helpers.caller_error(function() ik2d.group(case[2]) end))
      end)
    end

    it("fed the bases its skeletons have gives sk:solve()'s bits", function()
      local function make()
        local k = ik2d.skeleton{ x = 57.8, y = 44.2, angle = 2.95,
          { name = "b1", length = 13.1, angle = -1.58 },
          { name = "b3", parent = "b1", length = 33.5, angle = -1.35 },
          { name = "b7", parent = "b3", length = 10.3, angle = 1.51 },
          { name = "b8", parent = "b7", length = 10.0, angle = 1.9, x = 24.7, y = -9.6 } }
        local f = ik2d.solver(k:chain("b3", "b8"), { method = "fabrik", iterations = 15, tolerance = 1e-6 })
        f:set_target(-76.1, 82.4)
        return k
      end
      local a, b = make(), make()
      local g = ik2d.group{ b }
      for _ = 1, 4 do
        g:set_bases{ b:base() }
        a:solve()
        g:solve()
        assert.are.same(bits(a:transforms()), bits(b:transforms()))
      end
    end)
  end)

  describe("ik2d.skeleton", function()
    it("set_base(sk:base()) after a solve moves no bone by a bit", function()
      local sk = ik2d.skeleton{ x = -29.24, y = -76.32, angle = -1.779, flip = true,
        { name = "b1", length = 14.64, angle = 0.919 },
        { name = "b2", parent = "b1", length = 27.61, angle = 1.2 },
        { name = "b3", parent = "b2", length = 30.29, angle = 0.22, min = -1.93, max = -0.42 } }
      local s = ik2d.solver(sk:chain("b1", "b3"), { iterations = 21 })
      for frame = 1, 20 do
        s:set_target(40 + 3 * frame, -60 + 2 * frame)
        sk:solve()
        local before = bits(sk:transforms())
        sk:set_base(sk:base())
        assert.are.same(before, bits(sk:transforms()))
      end
    end)
  end)

  describe("ik2d.spring's colliders, resolved together", function()
    -- the deepest a joint goes into a circle, and below the segment (y
    -- down: the side away from the base), over a tail in a gusty wind
    local function deepest(colliders, frames)
      local tail = ik2d.chain{ x = 0, y = 0, angle = pi / 2, { length = 14 }, { length = 12 }, { length = 10 } }
      local sp = ik2d.spring(tail, { stiffness = 60, damping = 2, gravity = { 0, 980 } })
      sp:set_colliders(colliders)
      local worst = 0
      for k = 1, frames do
        sp:set_wind((k % 20 < 10) and 3e3 or -3e3, 0)
        sp:update(1 / 60)
        local j = tail:joints()
        for i = 3, #j, 2 do
          for _, c in ipairs(colliders) do
            if c.radius then
              worst = math.max(worst, c.radius - sqrt((j[i] - c.x) ^ 2 + (j[i + 1] - c.y) ^ 2))
            elseif j[i] >= c.x1 and j[i] <= c.x2 then
              local line_y = c.y1 + (c.y2 - c.y1) * (j[i] - c.x1) / (c.x2 - c.x1)
              worst = math.max(worst, j[i + 1] - line_y)
            end
          end
        end
      end
      return worst
    end

    it("leave no joint inside a circle that overlaps a segment, in wind", function()
      local worst = deepest({ { x = 0, y = 25, radius = 6 }, { x1 = -40, y1 = 32, x2 = 40, y2 = 28 } }, 1200)
      assert.is_true(worst < 1e-9, worst)
    end)

    it("leave no joint inside any of several overlapping circles", function()
      local worst = deepest({ { x = -4, y = 27, radius = 5 }, { x = 4, y = 27, radius = 5 },
                              { x = 0, y = 33, radius = 4 } }, 1200)
      assert.is_true(worst < 1e-9, worst)
    end)
  end)

  describe("ik2d.solver's aim", function()
    -- the hand's largest jump between frames for a target moving 1.7 px a
    -- frame round the shoulder, the wrist reaching its limit on the way
    local function largest_jump(method)
      local arm = ik2d.chain{ x = 0, y = 0, { length = 40 }, { length = 30, min = -2.4, max = 0 },
                              { length = 12, min = -1, max = 1 } }
      local s = ik2d.solver(arm, { method = method, aim = { 12, 3, 0 }, tolerance = 1e-6, iterations = 20 })
      local px, py, worst, missed = nil, nil, 0, 0
      for k = 0, 40 do
        s:set_target(100 * cos(k / 60), 100 * sin(k / 60))
        local _, distance = s:solve()
        missed = math.max(missed, distance)
        local x, y = arm:tip()
        if px then worst = math.max(worst, sqrt((x - px) ^ 2 + (y - py) ^ 2)) end
        px, py = x, y
      end
      return worst, missed
    end

    it("moves FABRIK's hand continuously, no jump larger than CCD's on the same path", function()
      local fabrik, fabrik_missed = largest_jump("fabrik")
      local ccd = largest_jump("ccd")
      assert.is_true(fabrik_missed <= 1e-6, fabrik_missed)
      assert.is_true(fabrik <= ccd, ("FABRIK %.2f px, CCD %.2f px"):format(fabrik, ccd))
      assert.is_true(fabrik < 1.7, fabrik)
    end)
  end)

  describe("ik2d.solver options", function()
    local function arm() return ik2d.chain{ { length = 3 }, { length = 3 } } end
    for _, case in ipairs{
      { "aim", { x = 1, y = 0, angle = 0, z = 5 }, "aim: unknown field 'z'" },
      { "aim", { 1, 0, 0, 4 }, "aim: unknown field [4]" },
      { "pole", { x = 1, y = 2, z = 3 }, "pole: unknown field 'z'" },
      { "pole", { 1, 2, 3 }, "pole: unknown field [3]" },
    } do
      it(("refuse an extra field in %s's table (%s), as a collider's table does"):format(case[1], case[3]), function()
        local ch = arm()
        assert.are.equal(("bad argument #2 to 'solver' (%s)"):format(case[3]),
                         helpers.caller_error(function() ik2d.solver(ch, { [case[1]] = case[2] }) end))
        local s = ik2d.solver(ch)
        local before = s:options()
        assert.are.equal(("bad argument #1 to 'set_options' (%s)"):format(case[3]),
                         helpers.caller_error(function() s:set_options{ [case[1]] = case[2] } end))
        assert.are.same(before, s:options())
      end)
    end
  end)

  describe("ik2d.gait", function()
    local function leg(x)
      return ik2d.solver(ik2d.chain{ x = x, y = 0, { length = 30, angle = 1 }, { length = 30, angle = 1 } },
                         { method = "two_bone", bend = -1 })
    end

    it("recovers from a yield in ground whose coroutine was dropped", function()
      local yielding = true
      local g = ik2d.gait.new{
        legs = { { solver = leg(0), home = { -10, 50 } }, { solver = leg(0), home = { 10, 50 } } },
        ground = function() if yielding then coroutine.yield() end return 50, 0 end }
      coroutine.resume(coroutine.create(function() g:update(0, 0, 0) end))
      yielding = false
      collectgarbage()
      assert.are.equal(g, g:update(1 / 60, 0, 0))
      assert.are.equal(g, g:reset())
      g:update(0, 0, 0)
      local x = g:foot(1)
      assert.near(-10, x, 1e-9)
    end)

    it("mirrors each home about the body when flipped: the slope turns the unflipped pose", function()
      local function two()
        return ik2d.solver(ik2d.chain{ { length = 40 }, { length = 40 } }, { method = "two_bone" })
      end
      local g = ik2d.gait.new{ legs = { { solver = two(), home = { 30, 40 } }, { solver = two(), home = { -30, 40 } } },
        ground = function() return 1000, 0 end }
      local a = 0.3
      local along = 30 * cos(a) - 40 * sin(a)
      for _, flip in ipairs{ false, true } do
        g:reset()
        g:update(0, 500, 400, a, flip)
        local x = g:foot(1)
        assert.near(500 + (flip and -along or along), x, 1e-9)
      end
    end)

    it("the README's recipe with a foot: planted toes within 0.01 px, the body at most 3 px a frame", function()
      local function limb(s) return {
        { name = "thigh" .. s, parent = "hip", length = 30, angle = pi / 2, min = -1.8, max = 0.7 },
        { name = "shin" .. s, parent = "thigh" .. s, length = 30, angle = 0.15, min = -0.15, max = 2.35 },
        { name = "foot" .. s, parent = "shin" .. s, length = 12, angle = -pi / 2, min = -0.8, max = 0.8 } } end
      local def = { { name = "hip", length = 0 } }
      for _, s in ipairs{ "_f", "_b" } do for _, b in ipairs(limb(s)) do def[#def + 1] = b end end
      local sk = ik2d.skeleton(def)
      local lf, lb = ik2d.solver(sk:chain("thigh_f", "foot_f")), ik2d.solver(sk:chain("thigh_b", "foot_b"))
      local g = ik2d.gait.new{ legs = { { solver = lf, home = { 10, 57 } }, { solver = lb, home = { 2, 57 } } },
        ground = function() return 300, 0 end, tip = true, step = { trigger = 18, duration = 0.25 } }
      local x, prev_y, worst_dy, worst_miss = 0, nil, 0, 0
      for f = 0, 300 do
        x = x + 70 / 60
        g:update(f == 0 and 0 or 1 / 60, x, 300 - 57)
        local y = math.max(300 - 57, g:body_height())
        sk:set_base(x, y)
        lf:set_pole(x + 60, y + 25)
        lb:set_pole(x + 60, y + 25)
        sk:solve()
        for i, s in ipairs{ lf, lb } do
          local fx, fy, state = g:foot(i)
          local tx, ty = s:chain():tip()
          if state == "planted" then worst_miss = math.max(worst_miss, sqrt((tx - fx) ^ 2 + (ty - fy) ^ 2)) end
        end
        if prev_y then worst_dy = math.max(worst_dy, math.abs(y - prev_y)) end
        prev_y = y
      end
      assert.is_true(worst_miss < 0.01, worst_miss)
      assert.is_true(worst_dy <= 3, worst_dy)
    end)
  end)

  describe("ik2d.behaviour", function()
    it("over a solver given set_target_bone keeps the bone through new and update", function()
      local sk = ik2d.skeleton{ { name = "a", length = 30 }, { name = "b", parent = "a", length = 30 },
        { name = "c", length = 30, angle = 1 }, { name = "gun", parent = "c", length = 40 } }
      local hand = ik2d.solver(sk:chain("a", "b"))
      hand:set_target_bone(sk, "gun", 20, 0)
      local h = ik2d.behaviour.new(hand, { hold = { weight = 1 }, rest = { weight = 0 } }, { initial = "hold" })
      assert.are.same({ sk, "gun", 20, 0 }, { hand:target_bone() })
      h:update(1 / 60)
      assert.are.same({ sk, "gun", 20, 0 }, { hand:target_bone() })
    end)
  end)

  describe("ik2d.mirror_bones", function()
    it("names itself, the rename and the problem for a malformed pattern, at the caller's line", function()
      local bones = { { name = "thigh_l", length = 30, angle = 1.2 } }
      local line = debug.getinfo(1, "l").currentline + 1
      local ok, e = pcall(function() local m = ik2d.mirror_bones(bones, { "[", "_r" }); return m end)
      assert.is_false(ok)
      assert.are.equal(("%s:%d: ik2d.mirror_bones: rename[1] must be a Lua pattern (malformed pattern "
        .. "(missing ']')), got \"[\""):format(debug.getinfo(1, "S").short_src, line), e)
    end)
  end)
end)
