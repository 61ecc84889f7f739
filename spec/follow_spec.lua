local follow = require "ik2d.follow"

-- Exponential smoothing is exact up to rounding at any frame rate:
-- (e^(-r dt))^n = e^(-r n dt).  Only floating-point error separates two
-- frame rates, so the tolerance is tight.
local TOLERANCE = 1e-9

local function simulate(fps, seconds, rate)
  local f = follow.new{ x = 0, y = 0, rate = rate }
  f:set_goal(300, -120)
  local dt = 1 / fps
  for _ = 1, math.floor(fps * seconds + 0.5) do f:update(dt) end
  return f:position()
end

describe("ik2d.follow", function()
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
      local f = follow.new{ x = 10, y = 20, rate = 4 }
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
      local f = follow.new{ x = 0, y = 0, rate = 10 }
      f:set_goal(100, 50)
      local x, y = f:update(0.05)
      local k = 1 - math.exp(-0.5)
      assert.near(100 * k, x, 1e-12)
      assert.near(50 * k, y, 1e-12)
    end)

    it("approaches monotonically and never overshoots, even with a huge dt", function()
      local f = follow.new{ x = 0, y = 0, rate = 50 }
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
      local f = follow.new{ x = 1, y = 2, rate = 0 }
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
      local f = follow.new{ rate = math.huge }
      f:set_goal(3, -4)
      local x, y = f:update(1 / 60)
      assert.are.equal(3, x)
      assert.are.equal(-4, y)
    end)
  end)

  describe("state", function()
    it("starts at (x, y) with the goal there, default rate 10", function()
      local f = follow{ x = 7, y = 8 }
      local gx, gy = f:goal()
      assert.near(7, gx, 0)
      assert.near(8, gy, 0)
      assert.near(10, f:rate(), 0)
      assert.near(0, f:distance(), 0)
    end)

    it("set_position teleports, snap jumps to the goal, distance measures what is left", function()
      local f = follow.new{ x = 0, y = 0 }
      f:set_goal(3, 4)
      assert.near(5, f:distance(), 1e-15)
      f:set_position(3, 0)
      assert.near(4, f:distance(), 1e-15)
      f:snap()
      local x, y = f:position()
      assert.near(3, x, 0)
      assert.near(4, y, 0)
    end)

    it("raises on bad numbers with the argument named", function()
      local f = follow.new()
      assert.has_error(function() f:set_goal(1, nil) end,
        "bad argument #2 to 'set_goal' (number expected, got nil)")
      assert.has_error(function() f:set_goal(0 / 0, 1) end,
        "bad argument #1 to 'set_goal' (number expected, got nan)")
      assert.has_error(function() follow.new{ rate = -1 } end,
        "bad argument #1 to 'new' (rate must be >= 0)")
    end)
  end)
end)
