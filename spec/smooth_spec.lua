local smooth = require "ik2d.smooth"
local helpers = require "spec.helpers"

local MAX = 1.7976931348623157e308   -- the largest double

-- Exponential smoothing is exact up to rounding at any frame rate:
-- (e^(-r dt))^n = e^(-r n dt).  Only floating-point error separates two
-- frame rates, so the tolerance is tight.
local TOLERANCE = 1e-9

local function simulate(fps, seconds, rate)
  local f = smooth.new{ x = 0, y = 0, rate = rate }
  f:set_goal(300, -120)
  local dt = 1 / fps
  for _ = 1, math.floor(fps * seconds + 0.5) do f:update(dt) end
  return f:position()
end

describe("ik2d.smooth", function()
  describe("frame-rate independence", function()
    it("30 and 144 FPS give the same position after 1 s within 1e-9", function()
      local x30, y30 = simulate(30, 1, 6)
      local x144, y144 = simulate(144, 1, 6)
      assert.near(x30, x144, TOLERANCE)
      assert.near(y30, y144, TOLERANCE)
    end)

    it("both match the closed form goal - (goal - start) * exp(-rate * t)", function()
      local left = math.exp(-6 * 1)
      for _, fps in ipairs{ 30, 60, 144, 240 } do
        local x, y = simulate(fps, 1, 6)
        assert.near(300 - 300 * left, x, TOLERANCE)
        assert.near(-120 + 120 * left, y, TOLERANCE)
      end
    end)

    it("uneven frame times give the same result as even ones", function()
      local f = smooth.new{ x = 10, y = 20, rate = 4 }
      f:set_goal(-50, 80)
      -- 1 s in frames of 1/30, 1/144 and a 0.1 s hitch
      local t = 0
      local pattern = { 1 / 30, 1 / 144, 1 / 144, 0.1, 1 / 60 }
      local i = 0
      while t < 1 - 1e-12 do
        i = i % #pattern + 1
        local dt = math.min(pattern[i], 1 - t)
        f:update(dt)
        t = t + dt
      end
      local left = math.exp(-4 * t)
      local x, y = f:position()
      assert.near(-50 + 60 * left, x, TOLERANCE)
      assert.near(80 - 60 * left, y, TOLERANCE)
    end)

    it("a naive lerp(a, b, dt * rate) differs by far more, so the check can tell", function()
      local function lerp_sim(fps)
        local x, dt = 0, 1 / fps
        for _ = 1, fps do x = x + (300 - x) * dt * 2 end
        return x
      end
      assert.is_true(math.abs(lerp_sim(30) - lerp_sim(144)) > 1)
    end)
  end)

  describe("motion", function()
    it("covers 1 - exp(-rate * dt) of the distance per update", function()
      local f = smooth.new{ x = 0, y = 0, rate = 10 }
      f:set_goal(100, 50)
      local x, y = f:update(0.05)
      local k = 1 - math.exp(-0.5)
      assert.near(100 * k, x, 1e-12)
      assert.near(50 * k, y, 1e-12)
    end)

    it("approaches monotonically and never overshoots, even with a huge dt", function()
      local f = smooth.new{ x = 0, y = 0, rate = 50 }
      f:set_goal(10, 0)
      local last = 0
      for _, dt in ipairs{ 0.001, 0.5, 2, 10 } do
        local x = f:update(dt)
        assert.is_true(x >= last and x <= 10)
        last = x
      end
      assert.near(10, last, 1e-9)
    end)

    it("dt = 0 and rate = 0 leave the position alone", function()
      local f = smooth.new{ x = 1, y = 2, rate = 0 }
      f:set_goal(5, 5)
      f:update(1)
      local x, y = f:position()
      assert.near(1, x, 0)
      assert.near(2, y, 0)
      f:set_rate(5)
      f:update(0)
      x, y = f:position()
      assert.near(1, x, 0)
      assert.near(2, y, 0)
      assert.near(5, f:rate(), 0)
    end)

    it("rate = math.huge lands exactly on the goal in one update", function()
      local f = smooth.new{ rate = math.huge }
      f:set_goal(3, -4)
      local x, y = f:update(1 / 60)
      assert.are.equal(3, x)
      assert.are.equal(-4, y)
    end)
  end)

  describe("state", function()
    it("starts at (x, y) with the goal there, default rate 10", function()
      local f = smooth{ x = 7, y = 8 }
      local gx, gy = f:goal()
      assert.near(7, gx, 0)
      assert.near(8, gy, 0)
      assert.near(10, f:rate(), 0)
      assert.near(0, f:distance(), 0)
    end)

    it("set_position teleports, snap jumps to the goal, distance measures what is left", function()
      local f = smooth.new{ x = 0, y = 0 }
      f:set_goal(3, 4)
      assert.near(5, f:distance(), 1e-15)
      f:set_position(3, 0)
      assert.near(4, f:distance(), 1e-15)
      f:snap()
      local x, y = f:position()
      assert.near(3, x, 0)
      assert.near(4, y, 0)
    end)
  end)

  describe("finite inputs keep it finite", function()
    local function finite(v) return v == v and v > -math.huge and v < math.huge end

    it("survives goals of 1e308 then -1e308 then 0 (the gap overflows) and ends on the closed form", function()
      local f = smooth.new{ rate = 10 }
      local k = 1 - math.exp(-5)
      f:set_goal(1e308, 0); f:update(0.5)
      f:set_goal(-1e308, 0); f:update(0.5)
      f:set_goal(0, 0); f:update(0.5)
      local x, y = f:position()
      assert.is_true(finite(x))
      -- each step is the convex mix p (1 - k) + g k
      local x1 = 1e308 * k
      local x2 = x1 * (1 - k) - 1e308 * k
      local x3 = x2 * (1 - k)
      assert.near(x3, x, 1e-12 * math.abs(x3))
      assert.near(0, y, 0)
    end)

    it("covers 1 - exp(-rate dt) of a gap wider than the largest double", function()
      local f = smooth.new{ x = -1e308, y = MAX, rate = math.log(2) }
      f:set_goal(1e308, -MAX)
      f:update(1)                               -- half way: the middle
      local x, y = f:position()
      assert.near(0, x, 1e-12 * 1e308)
      assert.near(0, y, 1e-12 * MAX)
    end)

    it("never leaves the span between position and goal, even at the largest double", function()
      local f = smooth.new{ x = MAX, y = -MAX, rate = 3 }
      f:set_goal(MAX, -MAX)
      for _, dt in ipairs{ 0.01, 0.3, 7 } do
        local x, y = f:update(dt)
        assert.are.equal(MAX, x)
        assert.are.equal(-MAX, y)
      end
      f:set_goal(MAX * 0.999999, -MAX * 0.999999)
      for _ = 1, 50 do
        local x, y = f:update(0.1)
        assert.is_true(x <= MAX and x >= MAX * 0.999999)
        assert.is_true(y >= -MAX and y <= -MAX * 0.999999)
      end
    end)

    it("rate = math.huge with dt = 0 leaves the position alone (inf * 0 is no NaN)", function()
      local f = smooth.new{ x = 1, y = 2, rate = math.huge }
      f:set_goal(5, 6)
      local x, y = f:update(0)
      assert.are.equal(1, x)
      assert.are.equal(2, y)
    end)

    it("measures distances beyond the square root of the largest double", function()
      local f = smooth.new{ x = 0, y = 0 }
      f:set_goal(1e308, 1e308)
      assert.near(math.sqrt(2) * 1e308, f:distance(), 1e-12 * 1e308)
      f:set_goal(3e-300, 4e-300)               -- and below it
      assert.near(5e-300, f:distance(), 1e-12 * 5e-300)
    end)
  end)

  describe("refused calls", function()
    local function state(f)
      local x, y = f:position()
      local gx, gy = f:goal()
      return { x, y, gx, gy, f:rate() }
    end

    -- { name, call, message }: each call is written on one line, so the
    -- error must name that line.
    local cases = {
      { "a goal of inf", function(f) f:set_goal(math.huge, 0) end,
        "ik2d.smooth: set_goal: x must be a finite number, got inf" },
      { "a NaN y goal (x stays too)", function(f) f:set_goal(9, 0 / 0) end,
        "ik2d.smooth: set_goal: y must be a finite number, got nan" },
      { "a missing goal", function(f) f:set_goal() end,
        "ik2d.smooth: set_goal: x must be a finite number, got nil" },
      { "a string position", function(f) f:set_position("1", 0) end,
        "ik2d.smooth: set_position: x must be a finite number, got \"1\"" },
      { "a position of -inf", function(f) f:set_position(0, -math.huge) end,
        "ik2d.smooth: set_position: y must be a finite number, got -inf" },
      { "update without dt", function(f) f:update() end,
        "ik2d.smooth: update: dt must be a finite number >= 0, got nil" },
      { "update with dt = inf", function(f) f:update(math.huge) end,
        "ik2d.smooth: update: dt must be a finite number >= 0, got inf" },
      { "update with a negative dt", function(f) f:update(-0.5) end,
        "ik2d.smooth: update: dt must be a finite number >= 0, got -0.5" },
      { "update with a NaN dt", function(f) f:update(0 / 0) end,
        "ik2d.smooth: update: dt must be a finite number >= 0, got nan" },
      { "a NaN rate", function(f) f:set_rate(0 / 0) end,
        "ik2d.smooth: set_rate: rate must be a number >= 0 (math.huge: at once), got nan" },
      { "a negative rate", function(f) f:set_rate(-1) end,
        "ik2d.smooth: set_rate: rate must be a number >= 0 (math.huge: at once), got -1" },
      { "update called with a dot", function(f) f.update(0.1) end,
        "ik2d.smooth: update: self must be a smoother (call it with a colon), got 0.1" },
    }
    for _, case in ipairs(cases) do
      it("refuses " .. case[1] .. " at the caller's line and changes nothing", function()
        local f = smooth.new{ x = 1, y = 2, rate = 4 }
        f:set_goal(3, 4)
        local before = state(f)
        assert.are.equal(case[3], helpers.caller_error(case[2], f))
        assert.are.same(before, state(f))
      end)
    end

    it("refuses dt = math.huge with rate = 0 (inf * 0 would be NaN) and leaves the follower usable", function()
      local f = smooth.new{ x = 1, y = 2, rate = 0 }
      f:set_goal(5, 6)
      assert.are.equal("ik2d.smooth: update: dt must be a finite number >= 0, got inf",
        helpers.caller_error(function() f:update(math.huge) end))
      f:set_rate(math.huge)
      local x, y = f:update(0.1)
      assert.are.equal(5, x)
      assert.are.equal(6, y)
    end)

    it("refuses bad options to new at the caller's line", function()
      local err = helpers.caller_error
      assert.are.equal("ik2d.smooth: new: x must be a finite number, got inf",
        err(function() smooth.new{ x = math.huge } end))
      assert.are.equal("ik2d.smooth: new: rate must be a number >= 0 (math.huge: at once), got -1",
        err(function() smooth.new{ rate = -1 } end))
      assert.are.equal("ik2d.smooth: new: opts must be a table or nil, got 5",
        err(function() smooth.new(5) end))
      assert.are.equal("ik2d.smooth: new: opts has an unknown field (known: rate, x, y), got \"rat\"",
        err(function() smooth.new{ rat = 3 } end))
      assert.are.equal("ik2d.smooth: new: y must be a finite number, got nan",
        err(function() smooth{ y = 0 / 0 } end))
    end)
  end)
end)

describe("ik2d.follow (the name before 0.3.0)", function()
  it("is ik2d.smooth, the same module, for one release", function()
    assert.equal(require "ik2d.smooth", require "ik2d.follow")
    assert.equal(require("ik2d").smooth, require("ik2d").follow)
  end)
end)
