local ik2d = require "ik2d"
local blend = require "ik2d.blend"

-- Frame times that are exact in binary, so sums of dt hit the blend
-- length exactly and the expected values are exact.
local DT = 0.125

local function arm()
  return ik2d.chain{ x = 0, y = 0, { length = 10 }, { length = 10 } }
end

local function run(b, seconds, dt)
  local n = math.floor(seconds / dt + 0.5)
  for _ = 1, n do b:update(dt) end
  return b:value()
end

describe("ik2d.blend", function()
  describe("new", function()
    it("starts from the solver's current weight", function()
      local s = ik2d.solver(arm(), { weight = 0.25 })
      local b = blend.new(s)
      assert.near(0.25, b:value(), 0)
      assert.is_true(b:done())
    end)

    it("accepts a standalone number or nothing (starts at 0)", function()
      assert.near(0.5, blend.new(0.5):value(), 0)
      assert.near(0, blend.new():value(), 0)
    end)

    it("is callable as blend(target)", function()
      assert.near(0.75, blend(0.75):value(), 0)
    end)

    it("rejects a target without weight/set_weight", function()
      assert.has_error(function() blend.new({}) end,
        "bad argument #1 to 'new' (object with weight/set_weight, number or nil expected, got table)")
    end)
  end)

  describe("to and update", function()
    it("follows smoothstep: 0.15625 at a quarter, 0.5 at half, exactly 1 at the end", function()
      local b = blend.new(0)
      b:to(1, 0.5)
      assert.near(0, b:value(), 0)       -- nothing moves before an update
      assert.near(0.15625, b:update(DT), 1e-15)
      assert.near(0.5, b:update(DT), 1e-15)
      assert.near(0.84375, b:update(DT), 1e-15)
      assert.is_false(b:done())
      assert.are.equal(1, b:update(DT))  -- exact, not near
      assert.is_true(b:done())
      assert.are.equal(1, b:update(DT))  -- stays there
    end)

    it("reaches the exact end value even when the frames overshoot the blend time", function()
      local b = blend.new(0.2)
      b:to(0.7, 0.3)
      for _ = 1, 17 do b:update(1 / 60) end   -- 0.2833 s: not yet
      assert.is_false(b:done())
      b:update(1 / 60)
      b:update(1 / 60)                      -- past 0.3 s
      assert.are.equal(0.7, b:value())
      assert.is_true(b:done())
    end)

    it("moves monotonically without overshoot", function()
      local b = blend.new(1)
      b:to(0, 1)
      local last = 1
      for _ = 1, 70 do
        local v = b:update(1 / 60)
        assert.is_true(v <= last and v >= 0)
        last = v
      end
      assert.are.equal(0, last)
    end)

    it("writes every intermediate weight to the solver", function()
      local s = ik2d.solver(arm(), { weight = 0 })
      local b = blend.new(s)
      b:to(1, 0.5)
      for _ = 1, 3 do
        b:update(DT)
        assert.near(b:value(), s:weight(), 1e-15)
      end
      b:update(DT)
      assert.are.equal(1, s:weight())
    end)

    it("jumps at once with seconds = 0 (or omitted), before any update", function()
      local s = ik2d.solver(arm(), { weight = 1 })
      local b = blend.new(s)
      b:to(0.3, 0)
      assert.are.equal(0.3, b:value())
      assert.near(0.3, s:weight(), 0)
      assert.is_true(b:done())
      b:to(0.6)
      assert.near(0.6, s:weight(), 0)
    end)

    it("a jump mid-way cancels the running blend", function()
      local b = blend.new(0)
      b:to(1, 1)
      run(b, 0.5, DT)
      b:to(0.1, 0)
      assert.are.equal(0.1, b:value())
      assert.are.equal(0.1, b:update(DT))
    end)

    it("clamps end weights to [0, 1] like the solver", function()
      local b = blend.new(0.5)
      b:to(2, 0)
      assert.are.equal(1, b:value())
      b:to(-1, 0)
      assert.are.equal(0, b:value())
    end)

    it("raises on NaN weights and negative seconds", function()
      local b = blend.new(0)
      assert.has_error(function() b:to(0 / 0, 1) end,
        "bad argument #1 to 'to' (number expected, got nan)")
      assert.has_error(function() b:to(1, -1) end,
        "bad argument #2 to 'to' (seconds must be a number >= 0)")
    end)
  end)

  describe("interruption", function()
    it("a new :to mid-way starts from the current weight, with no jump", function()
      local b = blend.new(0)
      b:to(1, 1)
      local mid = run(b, 0.5, DT)
      assert.near(0.5, mid, 1e-15)
      b:to(0, 1)
      assert.near(0.5, b:value(), 0)          -- unchanged by :to
      local v = b:update(DT)                  -- first step of the new blend
      assert.near(0.5 - 0.5 * blend.smoothstep(0.125), v, 1e-15)
      assert.is_true(math.abs(v - mid) < 0.03)
      run(b, 0.875, DT)
      assert.are.equal(0, b:value())
      assert.is_true(b:done())
    end)

    it("the new blend takes its full time from the interruption", function()
      local b = blend.new(0)
      b:to(1, 1)
      run(b, 0.25, DT)
      b:to(0.5, 0.5)
      run(b, 0.375, DT)
      assert.is_false(b:done())
      b:update(DT)
      assert.are.equal(0.5, b:value())
    end)

    it("repeating :to with the same end value keeps the running blend", function()
      local b = blend.new(0)
      b:to(1, 0.5)
      for _ = 1, 4 do
        b:to(1, 0.5)   -- e.g. called every frame by game logic
        b:update(DT)
      end
      assert.are.equal(1, b:value())
    end)
  end)

  describe("progress and target", function()
    it("reports the end value and the fraction of time done", function()
      local b = blend.new(0)
      b:to(0.8, 0.5)
      b:update(DT)
      assert.near(0.8, b:target(), 0)
      assert.near(0.25, b:progress(), 1e-15)
      run(b, 0.375, DT)
      assert.near(1, b:progress(), 0)
    end)
  end)

  describe("with a real solve", function()
    it("weight 0 at the end of a blend out leaves the result exactly at the pose", function()
      local c = arm()
      c:set_pose(1, 0.3)
      c:set_pose(2, -0.2)
      local s = ik2d.solver(c, { weight = 1 })
      s:set_target(5, 12)
      local b = blend.new(s)
      b:to(0, 0.5)
      for _ = 1, 4 do b:update(DT); s:solve() end
      assert.are.equal(0, s:weight())
      assert.near(0.3, c:angle(1), 0)
      assert.near(-0.2, c:angle(2), 0)
    end)
  end)
end)
