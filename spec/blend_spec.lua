local ik2d = require "ik2d"
local blend = require "ik2d.blend"
local helpers = require "spec.helpers"

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

  describe("the subject's weight", function()
    it("each blend starts from the subject's weight, whoever set it", function()
      local s = ik2d.solver(arm(), { weight = 1 })
      local b = blend.new(s)
      s:set_weight(0)                     -- "start with IK off, blend it in"
      b:to(1, 1)
      b:update(0.5)
      assert.near(0.5, s:weight(), 1e-15) -- smoothstep(0.5) of the way from 0
      assert.are.equal(s:weight(), b:value())
      b:update(0.5)
      assert.are.equal(1, s:weight())
    end)

    it("value() reads the subject, so it always matches the solver", function()
      local s = ik2d.solver(arm(), { weight = 1 })
      local b = blend.new(s)
      s:set_weight(0.3)
      assert.near(0.3, b:value(), 0)
    end)

    it("an interrupting to() starts from the subject's weight", function()
      local s = ik2d.solver(arm(), { weight = 0 })
      local b = blend.new(s)
      b:to(1, 1)
      b:update(0.5)                        -- 0.5
      s:set_weight(0.25)                   -- someone else moves it
      b:to(0, 1, "linear")
      b:update(0.5)
      assert.near(0.125, s:weight(), 1e-15)
    end)
  end)

  describe("easings", function()
    local at = {                           -- value at t = 0.25 and 0.75
      linear = { 0.25, 0.75 }, smoothstep = { 0.15625, 0.84375 },
      quadin = { 0.0625, 0.5625 }, quadout = { 0.4375, 0.9375 },
      quadinout = { 0.125, 0.875 }, cubicin = { 0.015625, 0.421875 },
      cubicout = { 0.578125, 0.984375 }, cubicinout = { 0.0625, 0.9375 },
    }
    for name, want in pairs(at) do
      it(name .. " eases 0 -> 1 through " .. want[1] .. " and " .. want[2] .. ", ending exactly", function()
        local b = blend.new(0)
        b:to(1, 1, name)
        assert.near(want[1], b:update(0.25), 1e-15)
        b:update(0.25)
        assert.near(want[2], b:update(0.25), 1e-15)
        assert.are.equal(1, b:update(0.25))
        assert.are.equal(0, blend.easings[name](0))
        assert.are.equal(1, blend.easings[name](1))
      end)
    end

    it("smoothstep is the default", function()
      local b = blend.new(1)
      b:to(0, 1)
      assert.near(1 - 0.15625, b:update(0.25), 1e-15)
    end)

    it("takes a function of t in [0, 1]", function()
      local seen = {}
      local b = blend.new(0.5)
      b:to(0, 2, function(t) seen[#seen + 1] = t; return t ^ 0.5 end)
      assert.near(0.25, b:update(0.5), 1e-15)   -- 0.5 - 0.5 * sqrt(0.25)
      assert.are.same({ 0.25 }, seen)
    end)

    it("clamps an easing that overshoots to [0, 1], as the solver clamps", function()
      local b = blend.new(0.5)
      b:to(1, 1, function(t) return 3 * t end)
      assert.are.equal(1, b:update(0.5))
    end)
  end)

  describe("on_done", function()
    it("runs once, from the update that ends the blend, with the blend", function()
      local b = blend.new(0)
      local calls = {}
      b:to(1, 0.5):on_done(function(self) calls[#calls + 1] = { self, self:value() } end)
      for _ = 1, 3 do b:update(DT) end
      assert.are.equal(0, #calls)
      b:update(DT)
      assert.are.equal(1, #calls)
      assert.are.equal(b, calls[1][1])
      assert.are.equal(1, calls[1][2])     -- the end value is in place
      b:update(DT)
      assert.are.equal(1, #calls)
    end)

    it("after a jump (seconds = 0) runs at the next update", function()
      local b = blend.new(0)
      local n = 0
      b:to(1, 0):on_done(function() n = n + 1 end)
      assert.are.equal(0, n)
      b:update(0)
      assert.are.equal(1, n)
    end)

    it("belongs to one blend: a new to() drops it, a repeated same to() keeps it", function()
      local b = blend.new(0)
      local n = 0
      b:to(1, 0.5):on_done(function() n = n + 1 end)
      b:update(DT)
      b:to(1, 0.5)                         -- the same end value: the blend goes on
      run(b, 0.5, DT)
      assert.are.equal(1, n)
      b:to(0, 0.5):on_done(function() n = n + 10 end)
      b:update(DT)
      b:to(0.5, 0.5)                       -- a new blend: the old callback is dropped
      run(b, 0.5, DT)
      assert.are.equal(1, n)
    end)

    it("on_done(nil) removes the callback", function()
      local b = blend.new(0)
      local n = 0
      b:to(1, 0.25):on_done(function() n = n + 1 end):on_done(nil)
      run(b, 0.5, DT)
      assert.are.equal(0, n)
    end)
  end)

  describe("all or nothing", function()
    local function state(b, subject)
      return { b:value(), b:target(), b:done(), b:progress(), subject and subject:weight() }
    end

    -- A subject whose set_weight raises when told to, changing nothing.
    local function fragile(w)
      local subject = { w = w, fail = false }
      function subject.weight(self) return self.w end
      function subject.set_weight(self, v)
        if self.fail then error("subject refuses", 0) end
        self.w = v
      end
      return subject
    end

    it("a jump whose set_weight raises leaves the blend matching the subject", function()
      local subject = fragile(0.2)
      local b = blend.new(subject)
      local before = state(b, subject)
      subject.fail = true
      assert.has_error(function() b:to(0.9) end, "subject refuses")
      assert.are.same(before, state(b, subject))
    end)

    it("an update whose set_weight raises advances nothing; the next one goes on from there", function()
      local subject = fragile(0)
      local b = blend.new(subject)
      b:to(1, 1)
      b:update(0.25)
      local before = state(b, subject)
      subject.fail = true
      assert.has_error(function() b:update(0.25) end, "subject refuses")
      assert.are.same(before, state(b, subject))
      subject.fail = false
      b:update(0.25)
      assert.near(0.5, subject.w, 1e-15)
    end)

    -- A subject whose weight() raises once set_weight has run (the object
    -- behind it gone meanwhile): update's last read, for its return value.
    local function unreadable_after_set(w)
      local subject = { w = w, fail = false }
      function subject.weight(self)
        if self.fail then error("weight() unavailable", 0) end
        return self.w
      end
      function subject.set_weight(self, v)
        self.w = v
        self.fail = true
      end
      return subject
    end

    it("an update whose last weight() read raises puts back the weight and the progress", function()
      local subject = unreadable_after_set(0)
      local b = blend.new(subject)
      b:to(1, 1, "linear")
      subject.fail = false
      assert.has_error(function() b:update(0.25) end, "weight() unavailable")
      subject.fail = false
      assert.are.same({ 0, 1, false, 0, 0 }, state(b, subject))
      -- the next update goes on from there, not from 0.25
      subject.fail, subject.set_weight = false, function(self, v) self.w = v end
      assert.are.equal(0.25, b:update(0.25))
    end)

    it("an update ending the blend whose last read raises keeps the callback pending", function()
      local subject = unreadable_after_set(0)
      local b = blend.new(subject)
      local n = 0
      b:to(1, 0.25, "linear"):on_done(function() n = n + 1 end)
      subject.fail = false
      assert.has_error(function() b:update(0.25) end, "weight() unavailable")
      subject.fail = false
      assert.are.same({ 0, 1, false, 0, 0 }, state(b, subject))
      subject.set_weight = function(self, v) self.w = v end
      assert.are.equal(1, b:update(0.25))
      assert.are.equal(2, n)                -- it ran in the undone update and again now
    end)

    it("an update whose last read is not a finite number says so at the caller's line and puts back",
      function()
        local subject = { w = 0 }
        function subject.weight(self) return self.w end
        function subject.set_weight(self, v) self.w = v == 0.25 and 0 / 0 or v end
        local b = blend.new(subject)
        b:to(1, 1, "linear")
        assert.are.equal("ik2d.blend: update: the subject's weight() must return a finite number, got nan",
          helpers.caller_error(function() b:update(0.25) end))
        assert.are.equal(0, subject.w)
        assert.are.same({ 1, false, 0 }, { b:target(), b:done(), b:progress() })
      end)

    it("a raising on_done puts back the weight, the blend and the callback", function()
      local subject = fragile(0)
      local b = blend.new(subject)
      local fail, n = true, 0
      b:to(1, 0.5):on_done(function() n = n + 1; if fail then error("callback fails", 0) end end)
      run(b, 0.375, DT)
      local before = state(b, subject)
      assert.has_error(function() b:update(DT) end, "callback fails")
      assert.are.same(before, state(b, subject))
      fail = false
      b:update(DT)                         -- the same step again, callback included
      assert.are.equal(1, subject.w)
      assert.are.equal(2, n)
    end)

    it("an on_done that starts another blend and then raises leaves the first one's end and length", function()
      local subject = fragile(0)
      local b = blend.new(subject)
      b:to(1, 0.25, "linear"):on_done(function(self) self:to(0, 4); error("callback fails", 0) end)
      local before = state(b, subject)
      assert.has_error(function() b:update(0.25) end, "callback fails")
      assert.are.same(before, state(b, subject))
      assert.are.equal(0.5, b:on_done(nil):update(0.125))   -- half of the 0.25 s from 0 to 1
    end)

    it("an easing that returns NaN is an error and changes nothing", function()
      local b = blend.new(0)
      b:to(1, 1, function() return 0 / 0 end)
      local before = state(b)
      assert.are.equal("ik2d.blend: update: the easing must return a finite number, got nan",
        helpers.caller_error(function() b:update(0.5) end))
      assert.are.same(before, state(b))
    end)
  end)

  describe("refused calls", function()
    local cases = {
      { "a NaN weight", function(b) b:to(0 / 0, 1) end,
        "ik2d.blend: to: weight must be a finite number, got nan" },
      { "an infinite weight", function(b) b:to(math.huge, 1) end,
        "ik2d.blend: to: weight must be a finite number, got inf" },
      { "negative seconds", function(b) b:to(1, -1) end,
        "ik2d.blend: to: seconds must be a finite number >= 0, got -1" },
      { "infinite seconds", function(b) b:to(1, math.huge) end,
        "ik2d.blend: to: seconds must be a finite number >= 0, got inf" },
      { "an unknown easing", function(b) b:to(1, 1, "bounce") end,
        "ik2d.blend: to: easing must be a function or one of cubicin, cubicinout, cubicout, "
        .. "linear, quadin, quadinout, quadout, smoothstep, got \"bounce\"" },
      { "update without dt", function(b) b:update() end,
        "ik2d.blend: update: dt must be a finite number >= 0, got nil" },
      { "update with dt = -inf", function(b) b:update(-math.huge) end,
        "ik2d.blend: update: dt must be a finite number >= 0, got -inf" },
      { "a callback that is not a function", function(b) b:on_done(5) end,
        "ik2d.blend: on_done: f must be a function or nil, got 5" },
      { "update called with a dot", function(b) b.update(0.5) end,
        "ik2d.blend: update: self must be a blend (call it with a colon), got 0.5" },
    }
    for _, case in ipairs(cases) do
      it("refuses " .. case[1] .. " at the caller's line and changes nothing", function()
        local s = ik2d.solver(arm(), { weight = 0.25 })
        local b = blend.new(s)
        b:to(1, 1)
        b:update(DT)
        local before = { b:value(), b:target(), b:done(), b:progress(), s:weight() }
        assert.are.equal(case[3], helpers.caller_error(case[2], b))
        assert.are.same(before, { b:value(), b:target(), b:done(), b:progress(), s:weight() })
      end)
    end

    it("refuses a subject without weight/set_weight and a NaN start", function()
      assert.are.equal("ik2d.blend: new: subject must be an object with weight and set_weight "
        .. "(an ik2d solver), a number or nil, got table",
        helpers.caller_error(function() blend.new({}) end))
      assert.are.equal("ik2d.blend: new: subject must be an object with weight and set_weight "
        .. "(an ik2d solver), a number or nil, got nan",
        helpers.caller_error(function() blend(0 / 0) end))
    end)
  end)
end)
