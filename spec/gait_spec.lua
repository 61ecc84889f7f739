-- ik2d.gait: planted feet never move and lie on the ground, the steps a
-- body makes are the same at 60 and 144 Hz, one group steps at a time in
-- the pattern's order, a body at rest settles, and every argument is
-- checked at the caller's line.
local ik2d = require "ik2d"
local helpers = require "spec.helpers"

local gait = ik2d.gait
local sin, cos, atan, abs, floor = math.sin, math.cos, math.atan, math.abs, math.floor
local pi = math.pi
local atan2 = math.atan2 or math.atan   -- luacheck: ignore 143

-- Hills: height and direction (going right; y down, so uphill is negative).
local function hills(x)
  local y = 400 - 25 * sin(x / 70) - 10 * sin(x / 31 + 1)
  return y, atan(-25 / 70 * cos(x / 70) - 10 / 31 * cos(x / 31 + 1))
end

local function flat(_) return 400, 0 end

-- A hexapod seen from the side: legs 1 and 2 at the front, 3 and 4 in the
-- middle, 5 and 6 at the back; each leg two bones of 32 from a hip on
-- the body's axis to a home spot 44 below it.
local HIPS = { 30, 30, 0, 0, -30, -30 }
local HOMES = { 46, 38, 4, -4, -38, -46 }
local HOME_Y = 44

local function leg(core, x, y)
  local c = core.chain{ x = x, y = y, { length = 32, angle = 0.6 }, { length = 32, angle = 1.2 } }
  return core.solver(c, { method = "two_bone", bend = -1, tolerance = 1e-6 })
end

-- A gait over six legs of `core` (ik2d or the pure core), its solvers and
-- the list of steps it makes, { i, x, y } each.
local function hexapod(core, opts)
  opts = opts or {}
  local legs, solvers, steps = {}, {}, {}
  for i = 1, 6 do
    solvers[i] = leg(core, 0, 0)
    legs[i] = { solver = solvers[i], home = { HOMES[i], HOME_Y }, hip = opts.hips and { HIPS[i], 0 } or nil }
  end
  local g = gait.new{
    legs = legs, ground = opts.ground or hills, pattern = opts.pattern or "tripod",
    step = { trigger = 16, height = 8, duration = 0.16 }, tip = opts.tip,
    on_step = opts.on_step or function(i, x, y) steps[#steps + 1] = { i, x, y } end,
  }
  return g, solvers, steps
end

-- The body at time t: walks right at 40 px/s until `stop`, 44 above the
-- hills, tilted along them when `tilt` (the slope from its back hip's
-- ground to its front's).
local SPEED = 40
local function body(t, stop, tilt)
  local x = 100 + SPEED * math.min(t, stop)
  local a = 0
  if tilt then a = atan((hills(x + 30) - hills(x - 30)) / 60) end
  return x, hills(x) - 44, a
end

-- Home spot x of leg i for the body (x, angle).
local function home_x(i, x, a)
  return x + HOMES[i] * cos(a) - HOME_Y * sin(a)
end

local GROUPS = { 1, 2, 1, 2, 1, 2 }   -- tripod: legs 1, 3, 5 and 2, 4, 6

-- Runs a hexapod for `seconds` at `hz`, the body from body(); checks
-- every frame that planted feet keep their bits, lie on the ground and
-- are the solvers' targets, and that only one tripod is in the air.
-- Returns the steps and a report.
local function walk(hz, seconds, stop, tilt, core)
  local g, solvers, steps = hexapod(core or ik2d, { tip = false })
  local dt = 1 / hz
  local report = { moved = 0, off_ground = 0, off_target = 0, both = 0, frames = 0,
                   stepping_frames = 0, after_stop = 0, last_x = {}, last_state = {} }
  local prev_x, prev_y, prev_state = {}, {}, {}
  local n = floor(seconds * hz + 0.5)
  for k = 0, n do
    local x, y, a = body(k * dt, stop, tilt)
    local c, s = cos(a), sin(a)
    for i = 1, 6 do solvers[i]:chain():set_base(x + HIPS[i] * c, y + HIPS[i] * s) end
    local before = #steps
    g:update(k == 0 and 0 or dt, x, y, a)
    if k * dt > stop + 2 then report.after_stop = report.after_stop + #steps - before end
    local in_air = { false, false }
    for i = 1, 6 do
      local fx, fy, state = g:foot(i)
      if state == "planted" then
        if prev_state[i] == "planted" and (fx ~= prev_x[i] or fy ~= prev_y[i]) then
          report.moved = report.moved + 1
        end
        if fy ~= hills(fx) then report.off_ground = report.off_ground + 1 end
      else
        assert.are.equal("stepping", state)
        in_air[GROUPS[i]] = true
      end
      local tx, ty = solvers[i]:target()
      if tx ~= fx or ty ~= fy then report.off_target = report.off_target + 1 end
      prev_x[i], prev_y[i], prev_state[i] = fx, fy, state
    end
    if in_air[1] and in_air[2] then report.both = report.both + 1 end
    if in_air[1] or in_air[2] then report.stepping_frames = report.stepping_frames + 1 end
    for i = 1, 6 do solvers[i]:solve() end
    report.frames = report.frames + 1
  end
  for i = 1, 6 do
    local fx, _, state = g:foot(i)
    report.last_x[i], report.last_state[i] = fx, state
  end
  local bx, _, ba = body(n * dt, stop, tilt)
  report.body_x, report.body_a = bx, ba
  return steps, report, g
end

-- The worst difference between two step lists (same legs in the same
-- order), or nil and where they part.
local function compare(a, b)
  if #a ~= #b then return nil, ("%d steps against %d"):format(#a, #b) end
  local worst = 0
  for k = 1, #a do
    if a[k][1] ~= b[k][1] then return nil, ("step %d: leg %d against %d"):format(k, a[k][1], b[k][1]) end
    worst = math.max(worst, abs(a[k][2] - b[k][2]), abs(a[k][3] - b[k][3]))
  end
  return worst
end

describe("ik2d.gait", function()
  it("is ik2d.gait and require 'ik2d.gait'", function()
    assert.are.equal(require "ik2d.gait", ik2d.gait)
  end)

  describe("a hexapod walking 30 s over hills", function()
    -- 25 s at 40 px/s, then 5 s standing still
    local runs = {}
    for _, hz in ipairs{ 60, 144 } do
      for _, tilt in ipairs{ false, true } do
        it(("at %d Hz%s: planted feet keep their bits, lie on the ground and are the targets; "
            .. "one tripod in the air at a time; it settles"):format(hz, tilt and ", tilted along them" or ""),
          function()
            local steps, r = walk(hz, 30, 25, tilt)
            runs[hz .. tostring(tilt)] = steps
            assert.are.equal(0, r.moved)
            assert.are.equal(0, r.off_ground)
            assert.are.equal(0, r.off_target)
            assert.are.equal(0, r.both)
            -- it walked: about 1000 px in steps of about 26 px, six legs
            assert.is_true(#steps > 200 and #steps < 300, #steps .. " steps")
            assert.is_true(r.stepping_frames > r.frames / 4)
            -- settled: no step in the last 3 s, every foot planted at home
            assert.are.equal(0, r.after_stop)
            for i = 1, 6 do
              assert.are.equal("planted", r.last_state[i])
              assert.near(home_x(i, r.body_x, r.body_a), r.last_x[i], 1e-9)
            end
          end)
      end
    end

    it("makes the same steps at 60 and 144 Hz: count, order and landing spots", function()
      local level = assert(compare(runs["60false"], runs["144false"]))
      assert.is_true(level <= 1e-9, level)
      -- tilted, the home spots curve between updates: the steps still agree
      local tilted = assert(compare(runs["60true"], runs["144true"]))
      assert.is_true(tilted <= 1e-4, tilted)
    end)

    it("at an uneven frame rate (dt jittering between 4 and 20 ms) makes the same steps", function()
      local g, solvers, steps = hexapod(ik2d)
      local rng = helpers.random(7)
      local t, dt = 0, 0
      while t < 30 do
        local x, y, a = body(t, 25, false)
        for i = 1, 6 do solvers[i]:chain():set_base(x + HIPS[i], y) end
        g:update(dt, x, y, a)
        dt = rng.range(0.004, 0.02)
        t = t + dt
      end
      -- the last frame can end anywhere in the 5 s of standing: compare the walk
      local worst = assert(compare(runs["60false"], steps))
      assert.is_true(worst <= 1e-9, worst)
    end)
  end)

  it("sets off with the pattern's first group; lands ahead of home by the body's velocity times lead", function()
    -- from rest, feet at home: 1, 3, 5 step as the body sets off and land
    -- 0.16 s later, 3.2 px (velocity times the default lead, duration / 2)
    -- ahead of home; 2, 4, 6 step when trigger (16 px) from home, at 0.4 s
    local g, solvers, steps = hexapod(ik2d, { ground = flat })
    for k = 0, 40 do
      local x = 100 + SPEED * k / 60
      for i = 1, 6 do solvers[i]:chain():set_base(x + HIPS[i], 356) end
      g:update(k == 0 and 0 or 1 / 60, x, 356, 0)
    end
    assert.are.equal(6, #steps)
    for k, i in ipairs{ 1, 3, 5, 2, 4, 6 } do
      local t_land = k <= 3 and 0.16 or 16 / SPEED + 0.16
      assert.are.equal(i, steps[k][1])
      assert.near(100 + SPEED * t_land + HOMES[i] + SPEED * 0.08, steps[k][2], 1e-9)
      assert.are.equal(400, steps[k][3])
    end
  end)

  it("caps the lead at 3/4 of trigger", function()
    local g, solvers, steps = hexapod(ik2d, { ground = flat })
    local fast = 400        -- 32 px of lead asked for, 12 allowed
    for k = 0, 30 do
      local x = 100 + fast * k / 60
      for i = 1, 6 do solvers[i]:chain():set_base(x + HIPS[i], 356) end
      g:update(k == 0 and 0 or 1 / 60, x, 356, 0)
    end
    assert.are.equal(1, steps[1][1])
    -- stepped setting off, landed 0.16 s later
    assert.near(100 + fast * 0.16 + HOMES[1] + 0.75 * 16, steps[1][2], 1e-9)
    assert.are.equal(0.75, gait.LEAD_CAP)
  end)

  it("makes the same steps, bit for bit, with the solvers of every core and method path", function()
    local reference = walk(60, 12, 10, true, ik2d)
    local pure = walk(60, 12, 10, true, require "ik2d.pure.core")
    assert.are.same(reference, pure)
    if ik2d.ffi ~= nil and ik2d.use_ffi(true) then
      ik2d.use_ffi(false)
      local classic = walk(60, 12, 10, true, ik2d)
      ik2d.use_ffi(true)
      assert.are.same(reference, classic)
    end
  end)

  describe("patterns", function()
    -- n legs on flat ground, homes spread front to back; the body walks
    -- right for `walk_s` seconds and stands for 2 s; returns the steps
    local function run(n, pattern, homes)
      local legs, solvers, steps = {}, {}, {}
      for i = 1, n do
        solvers[i] = leg(ik2d, 0, 0)
        legs[i] = { solver = solvers[i], home = { homes[i], 44 } }
      end
      local g = gait.new{ legs = legs, ground = flat, pattern = pattern,
        step = { trigger = 12, height = 6, duration = 0.1 },
        on_step = function(i, x, y) steps[#steps + 1] = { i, x, y } end }
      local in_air_max = 0
      for k = 0, 8 * 60 do
        local x = 100 + 30 * math.min(k / 60, 6)
        for i = 1, n do solvers[i]:chain():set_base(x, 356) end
        g:update(k == 0 and 0 or 1 / 60, x, 356)
        local count = 0
        for i = 1, n do
          local _, _, state = g:foot(i)
          if state == "stepping" then count = count + 1 end
        end
        in_air_max = math.max(in_air_max, count)
      end
      return steps, in_air_max
    end

    local function legs_of(steps, from, to)
      local out = {}
      for k = from, to do out[#out + 1] = steps[k][1] end
      return table.concat(out, " ")
    end

    it("alternate: a biped's feet step in turn, 1 then 2", function()
      local steps, most = run(2, "alternate", { 6, -6 })
      assert.is_true(#steps >= 20)
      for k = 1, #steps do assert.are.equal(2 - k % 2, steps[k][1]) end
      assert.are.equal(1, most)
    end)

    it("alternate on four legs: 1 and 3, then 2 and 4", function()
      local steps, most = run(4, nil, { 20, 10, -10, -20 })
      assert.are.equal("1 3 2 4 1 3 2 4", legs_of(steps, 1, 8))
      assert.are.equal(2, most)
    end)

    it("wave: one leg at a time, back to front", function()
      local steps, most = run(6, "wave", HOMES)
      assert.is_true(#steps >= 24)
      -- back to front: 6 (x -46), 5, 4, 3, 2, 1 (x 46), and again
      assert.are.equal("6 5 4 3 2 1 6 5 4 3 2 1", legs_of(steps, 1, 12))
      assert.are.equal(1, most)
    end)

    it("custom groups step together, in the order given", function()
      local steps, most = run(4, { { 2, 3 }, { 4, 1 } }, { 20, 10, -10, -20 })
      assert.are.equal("2 3 1 4 2 3 1 4", legs_of(steps, 1, 8))
      assert.are.equal(2, most)
    end)

    it("tripod needs six legs", function()
      local s = leg(ik2d, 0, 0)
      local two = { { solver = s, home = { 0, 1 } }, { solver = s, home = { 1, 1 } } }
      local msg = helpers.caller_error(function() gait.new{ legs = two, ground = flat, pattern = "tripod" } end)
      assert.are.equal('ik2d.gait: new: pattern "tripod" needs 6 legs, got 2', msg)
    end)
  end)

  describe("a biped with feet along the ground (tip = true)", function()
    local function biped(ground)
      local solvers, legs, steps = {}, {}, {}
      for i = 1, 2 do
        local c = ik2d.chain{ { length = 40, angle = pi / 2 }, { length = 38 }, { length = 12, angle = -pi / 2 } }
        solvers[i] = ik2d.solver(c, { tolerance = 1e-3 })
        legs[i] = { solver = solvers[i], home = { i == 1 and 8 or -8, 80 } }
      end
      local g = gait.new{ legs = legs, ground = ground, tip = true,
        step = { trigger = 18, height = 10, duration = 0.2 },
        on_step = function(i, x, y) steps[#steps + 1] = { i, x, y } end }
      return g, solvers, steps
    end

    it("points each planted foot along the ground, forward; mirrored (flip) the other way", function()
      for _, flip in ipairs{ false, true } do
        local g, solvers = biped(hills)
        local worst, planted = 0, 0
        for k = 0, 5 * 60 do
          local x = 300 + (flip and -1 or 1) * 60 * k / 60
          local y = hills(x) - 74
          for i = 1, 2 do solvers[i]:chain():set_base(x, y) end
          g:update(k == 0 and 0 or 1 / 60, x, y, 0, flip)
          for i = 1, 2 do
            local fx, _, state = g:foot(i)
            local a, w = solvers[i]:tip_angle()
            local _, slope = hills(fx)
            assert.are.equal(1, w)
            worst = math.max(worst, abs(a - (flip and slope + pi or slope)))
            if state == "planted" then planted = planted + 1 end
          end
        end
        assert.are.equal(0, worst)
        assert.is_true(planted > 300)
      end
    end)

    it("the body's angle is the rig's: flipped, the home spots are where a flipped skeleton with that base "
        .. "angle has them (a slope facing left is given negated)", function()
      local rig = ik2d.skeleton{ { name = "body", length = 0 }, { name = "home1", parent = "body", x = 8, y = 80,
        length = 1 }, { name = "home2", parent = "body", x = -8, y = 80, length = 1 } }
      for _, flip in ipairs{ false, true } do
        local g = biped(flat)
        g:update(0, 200, 320, 0.3, flip)
        rig:set_base(200, 320, 0.3)
        rig:set_flip(flip)
        for i = 1, 2 do
          local hx = rig:world("home" .. i)
          assert.near(hx, (g:foot(i)), 1e-9)
        end
      end
    end)

    it("flip mirrors the home spots about the body", function()
      local g, solvers = biped(flat)
      for i = 1, 2 do solvers[i]:chain():set_base(200, 326) end
      g:update(0, 200, 326, 0, true)
      assert.are.equal(192, (g:foot(1)))
      assert.are.equal(208, (g:foot(2)))
    end)

    -- walks g (legs on `solvers`, hips along the body at `hips`) over the
    -- hills, turning round at 1 s and 2.5 s; check(i, before, after,
    -- last_x, flip) at each turn for every foot planted before and after;
    -- returns the worst distance of a planted foot's solve
    local function turning(g, solvers, hips, check)
      for i = 1, #solvers do solvers[i]:set_options{ tolerance = 1e-6, iterations = 40 } end
      local x, facing, turns, worst = 300, 1, 0, 0
      for k = 0, 4 * 60 do
        local move = (k < 60 or k >= 150) and 1 or -1
        local flip = move < 0
        local before = {}
        for i = 1, #solvers do before[i] = k > 0 and { g:foot(i) } end
        local last_x = x
        x = x + move * 60 / 60
        local y = hills(x) - 74
        g:update(k == 0 and 0 or 1 / 60, x, y, 0, flip)
        y = math.max(y, g:body_height())
        if (move < 0) ~= (facing < 0) then
          turns = turns + 1
          for i = 1, #solvers do
            local after = { g:foot(i) }
            if before[i][3] == "planted" and after[3] == "planted" then check(i, before[i], after, last_x, flip) end
          end
        end
        facing = move
        for i = 1, #solvers do
          local c = solvers[i]:chain()
          c:set_base(x + (flip and -1 or 1) * hips[i], y)
          c:set_flip(flip)
          local _, distance = solvers[i]:solve()
          local _, _, state = g:foot(i)
          if state == "planted" then worst = math.max(worst, distance) end
        end
      end
      assert.are.equal(2, turns)
      return worst
    end

    it("turning round, a foot under a hip on the body's axis stays, turning on its ankle; every leg reaches "
        .. "its foot", function()
      local g, solvers = biped(hills)
      local checked = 0
      local worst = turning(g, solvers, { 0, 0 }, function(_, before, after, _, flip)
        -- the ankle: the foot's length back from the toe along the ground
        local _, a0 = hills(before[1])
        local _, a1 = hills(after[1])
        local side0, side1 = flip and 1 or -1, flip and -1 or 1
        assert.near(before[1] - side0 * 12 * math.cos(a0), after[1] - side1 * 12 * math.cos(a1), 0.05)
        assert.are.equal((hills(after[1])), after[2])
        checked = checked + 1
      end)
      assert.is_true(checked >= 2, checked)
      assert.is_true(worst <= 1e-6, worst)
    end)

    it("turning round, a foot under a hip along the body goes with it, mirrored about the body; every leg "
        .. "reaches its foot", function()
      local solvers, legs = {}, {}
      local hips = { 20, 20, -20, -20 }
      for i = 1, 4 do
        local c = ik2d.chain{ { length = 40, angle = pi / 2 }, { length = 38 }, { length = 12, angle = -pi / 2 } }
        solvers[i] = ik2d.solver(c, { tolerance = 1e-3 })
        legs[i] = { solver = solvers[i], home = { hips[i] + (i % 2 == 0 and 8 or -8), 80 }, hip = { hips[i], 0 } }
      end
      local g = gait.new{ legs = legs, ground = hills, tip = true, pattern = { { 1, 4 }, { 2, 3 } },
        step = { trigger = 18, height = 10, duration = 0.2 } }
      local checked = 0
      local worst = turning(g, solvers, hips, function(_, before, after, last_x)
        assert.near(2 * last_x - before[1], after[1], 1e-9)
        assert.are.equal((hills(after[1])), after[2])
        checked = checked + 1
      end)
      assert.is_true(checked >= 4, checked)
      assert.is_true(worst <= 1e-6, worst)
    end)
  end)

  describe("at rest", function()
    it("feet left off home step home once each, in the pattern's order, then stay", function()
      local g, solvers, steps = hexapod(ik2d, { ground = flat })
      local x = 100
      for k = 0, 200 do
        -- walk 70 px, stop at a place that leaves every foot off home
        x = 100 + math.min(70, SPEED * k / 60)
        for i = 1, 6 do solvers[i]:chain():set_base(x + HIPS[i], 356) end
        g:update(k == 0 and 0 or 1 / 60, x, 356, 0)
      end
      local walked = #steps
      local stopped = x
      for _ = 1, 600 do g:update(1 / 60, stopped, 356, 0) end
      local after = {}
      for k = walked + 1, #steps do after[#after + 1] = steps[k][1] end
      -- each foot at most once: three tripods' worth at most
      assert.is_true(#after <= 6)
      local seen = {}
      for _, i in ipairs(after) do
        assert.is_nil(seen[i])
        seen[i] = true
      end
      for i = 1, 6 do
        local fx, fy, state = g:foot(i)
        assert.are.equal("planted", state)
        assert.are.equal(stopped + HOMES[i], fx)
        assert.are.equal(400, fy)
      end
      local count = #steps
      for _ = 1, 300 do g:update(1 / 60, stopped, 356, 0) end
      assert.are.equal(count, #steps)
    end)

    it("settle: feet within that distance of home stay where they are; setting off, the first group "
        .. "steps past it", function()
      local s1, s2 = leg(ik2d, 0, 0), leg(ik2d, 0, 0)
      local steps = {}
      local g = gait.new{ legs = { { solver = s1, home = { 5, 40 } }, { solver = s2, home = { -5, 40 } } },
        ground = flat, step = { trigger = 20, settle = 4, duration = 0.1 },
        on_step = function(i, x) steps[#steps + 1] = { i, x } end }
      g:update(0, 0, 360)
      for k = 1, 60 do g:update(1 / 60, k * 0.05, 360) end   -- 3 px: within settle
      for _ = 1, 120 do g:update(1 / 60, 3, 360) end
      assert.are.equal(0, #steps)
      assert.are.equal(5, (g:foot(1)))
      -- 5 px more at 5 px/s: foot 1 steps when 4 px from home (x = 4),
      -- lands 0.1 s later 0.25 px ahead (velocity times lead); standing,
      -- foot 2, 8 px off, steps home and foot 1, 3.25 off, stays
      for k = 1, 60 do g:update(1 / 60, 3 + k / 12, 360) end
      for _ = 1, 120 do g:update(1 / 60, 8, 360) end
      assert.are.equal(2, #steps)
      assert.are.equal(1, steps[1][1])
      assert.near(4.5 + 5 + 0.25, steps[1][2], 1e-9)
      assert.are.same({ 2, 3 }, steps[2])
      assert.near(9.75, (g:foot(1)), 1e-9)
      assert.are.equal(3, (g:foot(2)))
    end)
  end)

  describe("segment ground", function()
    -- a slope up, a flat, a slope down given right to left, and a ledge
    -- over the flat's end (the topmost segment over x counts)
    local SEGS = { { 0, 420, 200, 380 }, { 200, 380, 320, 380 }, { 400, 400, 320, 370 }, { 300, 360, 340, 360 } }
    local function seg_ground(x)
      local best, angle
      for _, sg in ipairs(SEGS) do
        local x1, y1, x2, y2 = sg[1], sg[2], sg[3], sg[4]
        if x1 > x2 then x1, y1, x2, y2 = x2, y2, x1, y1 end
        if x >= x1 and x <= x2 then
          local y = y1 + (y2 - y1) * (x - x1) / (x2 - x1)
          if not best or y < best then best, angle = y, atan2(y2 - y1, x2 - x1) end
        end
      end
      if best then return best, angle end
      return 400, 0               -- past the right end: the last end's height, flat
    end

    it("plants every foot on the topmost segment under it, along it; flat past the ends", function()
      local g, solvers = hexapod(ik2d, { ground = SEGS, tip = true })
      local planted, on_ledge, past = 0, 0, 0
      for k = 0, 14 * 60 do
        local x = 50 + 30 * k / 60
        local y = seg_ground(x) - 44
        for i = 1, 6 do solvers[i]:chain():set_base(x + HIPS[i], y) end
        g:update(k == 0 and 0 or 1 / 60, x, y)
        for i = 1, 6 do
          local fx, fy, state = g:foot(i)
          if state == "planted" then
            planted = planted + 1
            local gy, ga = seg_ground(fx)
            assert.are.equal(gy, fy)
            local a = solvers[i]:tip_angle()
            assert.near(ga, a, 1e-15)
            if fx > 300 and fx < 340 then on_ledge = on_ledge + 1 end
            if fx > 400 then past = past + 1 end
          end
        end
      end
      assert.is_true(planted > 3000 and on_ledge > 100 and past > 100)
    end)
  end)

  describe("body_height", function()
    -- the ground under foot i: where it stands, or under it on its step
    local function ground_point(g, i)
      local fx, fy, state = g:foot(i)
      if state == "stepping" then fy = hills(fx) end
      return fx, fy, state
    end

    it("is the highest body y with every foot within its leg's reach of its hip, a stepping one at the ground "
        .. "under it", function()
      local g, solvers = hexapod(ik2d, { ground = hills, hips = true })
      local worst_slack, tight, prev, worst_dy = math.huge, 0, nil, 0
      for k = 0, 10 * 60 do
        local x = 100 + SPEED * k / 60
        local y = hills(x) - 40
        g:update(k == 0 and 0 or 1 / 60, x, y, 0)
        local top = g:body_height()
        -- the body there: each foot at most 64 (the legs' length) from its
        -- hip, one exactly
        local most = 0
        for i = 1, 6 do
          local fx, fy = ground_point(g, i)
          most = math.max(most, helpers.distance(x + HIPS[i], top, fx, fy))
        end
        worst_slack = math.min(worst_slack, 64 - most)
        if abs(64 - most) < 1e-9 then tight = tight + 1 end
        if prev then worst_dy = math.max(worst_dy, abs(top - prev)) end
        prev = top
        -- and the legs solve there: every planted foot reached
        for i = 1, 6 do solvers[i]:chain():set_base(x + HIPS[i], top) end
        for i = 1, 6 do
          local _, _, state = g:foot(i)
          local _, distance = solvers[i]:solve()
          if state == "planted" then assert.is_true(distance <= 1e-6, distance) end
        end
      end
      assert.is_true(worst_slack >= -1e-9, worst_slack)
      assert.are.equal(601, tight)
      -- no jump as feet lift and land, only the ground and the swings
      -- moving it (leaving a lifted foot out at once jumps 21 px here)
      assert.is_true(worst_dy < 4, worst_dy)
    end)

    it("with a skeleton's legs and its defaults, called before the rig is placed: the toes stay on their "
        .. "spots and the body moves smoothly", function()
      -- a thigh, a shin and a foot on each side of a hip at the base; the
      -- body's height from body_height before sk:set_base puts the rig there
      local def = { { name = "hip", length = 0 } }
      for _, side in ipairs{ "_f", "_b" } do
        def[#def + 1] = { name = "thigh" .. side, parent = "hip", length = 30, angle = pi / 2, min = -1.8, max = 0.7 }
        def[#def + 1] = { name = "shin" .. side, parent = "thigh" .. side, length = 30, angle = 0.15, min = -0.15,
                          max = 2.35 }
        def[#def + 1] = { name = "foot" .. side, parent = "shin" .. side, length = 12, angle = -pi / 2, min = -0.8,
                          max = 0.8 }
      end
      local sk = ik2d.skeleton(def)
      local front, back = ik2d.solver(sk:chain("thigh_f", "foot_f")), ik2d.solver(sk:chain("thigh_b", "foot_b"))
      local g = gait.new{ legs = { { solver = front, home = { 10, 57 } }, { solver = back, home = { 2, 57 } } },
        ground = flat, tip = true, step = { trigger = 18, duration = 0.25 } }
      local x, prev, worst_dy, worst_toe = 0, nil, 0, 0
      for k = 0, 300 do
        x = x + 70 / 60
        local y = 400 - 57
        g:update(k == 0 and 0 or 1 / 60, x, y)
        y = math.max(y, g:body_height())
        sk:set_base(x, y)
        front:set_pole(x + 60, y + 25)
        back:set_pole(x + 60, y + 25)
        sk:solve()
        for i, s in ipairs{ front, back } do
          local fx, fy, state = g:foot(i)
          local tx, ty = s:chain():tip()
          if state == "planted" then worst_toe = math.max(worst_toe, helpers.distance(tx, ty, fx, fy)) end
        end
        if prev then worst_dy = math.max(worst_dy, abs(y - prev)) end
        prev = y
      end
      assert.is_true(worst_toe <= 0.01, worst_toe)
      assert.is_true(worst_dy <= 3, worst_dy)
    end)

    it("goes on smoothly when every foot is in the air", function()
      local s1, s2 = leg(ik2d, 0, 0), leg(ik2d, 0, 0)
      local g = gait.new{ legs = { { solver = s1, home = { 5, 40 } }, { solver = s2, home = { -5, 40 } } },
        ground = flat, pattern = { { 1, 2 } }, step = { trigger = 4, duration = 0.5 } }
      g:update(0, 0, 360)
      local before = g:body_height()
      assert.near(400 - math.sqrt(64 * 64 - 25), before, 1e-9)
      g:update(1 / 60, 1, 360)
      assert.are.equal("stepping", select(3, g:foot(1)))
      assert.are.equal("stepping", select(3, g:foot(2)))
      assert.near(400 - math.sqrt(64 * 64 - 25), g:body_height(), 0.1)
    end)

    it("defaults: the hip at the body's point; the reach to the ankle with tip = true (the toe the chain's tip, "
        .. "the foot its last bone along the ground), to the tip without", function()
      local function biped(tip)
        local legs = {}
        for i, home in ipairs{ 10, 2 } do
          local c = ik2d.chain{ { length = 30, angle = pi / 2 }, { length = 30, angle = 0.15 },
                                { length = 12, angle = -pi / 2 } }
          legs[i] = { solver = ik2d.solver(c), home = { home, 57 } }
        end
        return gait.new{ legs = legs, ground = hills, tip = tip, step = { trigger = 18, duration = 0.25 } }
      end
      for _, flip in ipairs{ false, true } do
        local with, without = biped(true), biped(false)
        -- never placed: the chains' bases are nowhere near the body
        with:update(0, 300, 250, 0, flip)
        without:update(0, 300, 250, 0, flip)
        local want_with, want_without = -math.huge, -math.huge
        for i = 1, 2 do
          local fx, fy = with:foot(i)
          local _, a = hills(fx)
          local side = flip and -1 or 1
          local ax, ay = fx - side * 12 * math.cos(a), fy - side * 12 * math.sin(a)   -- the ankle
          want_with = math.max(want_with, ay - math.sqrt(60 * 60 - (ax - 300) ^ 2))
          want_without = math.max(want_without, fy - math.sqrt(72 * 72 - (fx - 300) ^ 2))
        end
        assert.near(want_with, with:body_height(), 1e-9)
        assert.near(want_without, without:body_height(), 1e-9)
      end
    end)
  end)

  describe("placing feet", function()
    it("plant puts a foot on the ground at x now, ending its step; it steps home from there", function()
      local s1, s2 = leg(ik2d, 0, 0), leg(ik2d, 0, 0)
      local steps = {}
      local g = gait.new{ legs = { { solver = s1, home = { 5, 40 } }, { solver = s2, home = { -5, 40 } } },
        ground = hills, step = { trigger = 20, duration = 0.2 },
        on_step = function(i, x) steps[#steps + 1] = { i, x } end }
      g:update(0, 100, 300)
      g:plant(1, 120):plant(2, 90)
      local x, y, state = g:foot(1)
      assert.are.same({ 120, hills(120), "planted" }, { x, y, state })
      -- at rest, both step home (no trigger needed), one at a time
      for _ = 1, 60 do g:update(1 / 60, 100, 300) end
      assert.are.same({ { 1, 105 }, { 2, 95 } }, steps)
    end)

    it("reset plants every foot at home at the next update, a teleport making no step", function()
      local g, solvers, steps = hexapod(ik2d)
      for k = 0, 60 do g:update(k == 0 and 0 or 1 / 60, 100 + k, 300, 0) end
      local walked = #steps
      g:reset()
      g:update(1 / 60, 5000, 300, 0)
      assert.are.equal(walked, #steps)
      for i = 1, 6 do
        assert.are.same({ 5000 + HOMES[i], (hills(5000 + HOMES[i])), "planted", 0 }, { g:foot(i) })
        assert.are.same({ 5000 + HOMES[i], (hills(5000 + HOMES[i])) }, { solvers[i]:target() })
      end
      local count = #steps
      for _ = 1, 60 do g:update(1 / 60, 5000, 300, 0) end
      assert.are.equal(count, #steps)
    end)

    it("reset starts the pattern again from its first group", function()
      local g, _, steps = hexapod(ik2d)
      -- walk until 1, 3, 5 have just stepped: 2, 4, 6 would be next
      local k = 0
      repeat
        g:update(k == 0 and 0 or 1 / 60, 100 + k, 300, 0)
        k = k + 1
      until #steps > 0 and steps[#steps][1] == 5
      g:reset()
      g:update(1 / 60, 100 + k, 300, 0)
      local count = #steps
      for j = 1, 60 do g:update(1 / 60, 100 + k + j, 300, 0) end
      assert.are.equal(1, steps[count + 1][1])
    end)
  end)

  describe("all or nothing", function()
    -- two gaits fed the same bodies; the first one's on_step or ground
    -- raises once, at frame `at`: after the refused update is made again,
    -- it is the second one exactly
    local function twins(what)
      local fail_now = false
      local function ground(x)
        if fail_now and what == "ground raises" then error("no ground here", 0) end
        if fail_now and what == "ground gives nan" then return 0 / 0, 0 end
        return hills(x)
      end
      local a_steps, b_steps = {}, {}
      local function make(steps, gr)
        local solvers, legs = {}, {}
        for i = 1, 6 do
          solvers[i] = leg(ik2d, 0, 0)
          legs[i] = { solver = solvers[i], home = { HOMES[i], HOME_Y }, hip = { HIPS[i], 0 } }
        end
        local g = gait.new{ legs = legs, ground = gr, pattern = "tripod", tip = true,
          step = { trigger = 16, height = 8, duration = 0.16 },
          on_step = function(i, x, y)
            if fail_now and what == "on_step raises" then error("callback", 0) end
            steps[#steps + 1] = { i, x, y }
          end }
        return g, solvers
      end
      local a, sa = make(a_steps, ground)
      local b, sb = make(b_steps, hills)
      local refused = 0
      for k = 0, 6 * 60 do
        local x = 100 + SPEED * k / 60
        local dt = k == 0 and 0 or 1 / 60
        b:update(dt, x, 300, 0.1)
        -- every other frame, a frame that steps or lands is refused first
        fail_now = k % 2 == 1
        local done = false
        if fail_now then
          local before = { a:foot(1) }
          local targets = { sa[1]:target() }
          local tip = { sa[1]:tip_angle() }
          local ok, err = pcall(a.update, a, dt, x, 300, 0.1)
          done = ok
          if not ok then
            refused = refused + 1
            if what == "ground gives nan" then
              local want = "ik2d.gait: update: ground(x) must return a finite height, got nan"
              assert.are.equal(want, err:sub(-#want))
            else
              assert.are.equal(what == "on_step raises" and "callback" or "no ground here", err)
            end
            assert.are.same(before, { a:foot(1) })
            assert.are.same(targets, { sa[1]:target() })
            assert.are.same(tip, { sa[1]:tip_angle() })
          end
          fail_now = false
        end
        if not done then a:update(dt, x, 300, 0.1) end
        for i = 1, 6 do
          assert.are.same({ b:foot(i) }, { a:foot(i) })
          assert.are.same({ sb[i]:target() }, { sa[i]:target() })
        end
      end
      assert.are.same(b_steps, a_steps)
      return refused
    end

    for _, what in ipairs{ "on_step raises", "ground raises", "ground gives nan" } do
      it(what .. ": the update is refused, the gait and the solvers' targets and tip angles are as before", function()
        assert.is_true(twins(what) > 5)
      end)
    end
  end)

  describe("a yield inside ground or on_step", function()
    -- gait a's callbacks yield once, inside a coroutine that is then
    -- dropped (or resumed later); b never yields: after the abandoned
    -- update, a is b again
    local function pair(where)
      local yield_now = false
      local function make(yields)
        local solvers, legs = {}, {}
        for i = 1, 6 do
          solvers[i] = leg(ik2d, 0, 0)
          legs[i] = { solver = solvers[i], home = { HOMES[i], HOME_Y }, hip = { HIPS[i], 0 } }
        end
        local g = gait.new{ legs = legs, pattern = "tripod", step = { trigger = 16, duration = 0.16 },
          ground = function(x)
            if yields and yield_now and where == "ground" then coroutine.yield() end
            return hills(x)
          end,
          on_step = function()
            if yields and yield_now and where == "on_step" then coroutine.yield() end
          end }
        return g, solvers
      end
      local a, sa = make(true)
      local b, sb = make(false)
      return a, sa, b, sb, function(on) yield_now = on end
    end

    for _, where in ipairs{ "ground", "on_step" } do
      for _, later in ipairs{ "dropped", "dropped and collected", "resumed after the next update" } do
        it(("in %s, its coroutine %s: the gait goes on as if that update had not been made"):format(where, later),
          function()
            local a, sa, b, sb, yielding = pair(where)
            local abandoned, waiting = 0, nil
            for k = 0, 4 * 60 do
              local x, dt = 100 + SPEED * k / 60, k == 0 and 0 or 1 / 60
              b:update(dt, x, 300)
              local done = false
              if k % 3 == 1 then
                yielding(true)
                local co = coroutine.create(function() a:update(dt, x, 300) end)
                assert.is_true(coroutine.resume(co))
                yielding(false)
                done = coroutine.status(co) == "dead"
                if not done then
                  abandoned = abandoned + 1
                  if later == "resumed after the next update" then waiting = co end
                  co = nil   -- luacheck: ignore 311
                  if later == "dropped and collected" then collectgarbage(); collectgarbage() end
                end
              end
              if not done then a:update(dt, x, 300) end
              if waiting and k % 3 == 2 then
                local ok, err = coroutine.resume(waiting)
                assert.is_false(ok)
                assert.matches("ik2d.gait: update: the gait was updated while this update waited in a yield", err,
                  1, true)
                waiting = nil
              end
              for i = 1, 6 do
                assert.are.same({ b:foot(i) }, { a:foot(i) })
                assert.are.same({ sb[i]:target() }, { sa[i]:target() })
              end
            end
            assert.is_true(abandoned >= 4, abandoned)
            a:plant(1, 120):reset()
            a:update(0, 100, 300)
          end)
      end
    end

    it("an update, plant or reset inside the callback is still refused", function()
      local g
      local seen = {}
      g = gait.new{
        legs = { { solver = leg(ik2d, 0, 0), home = { 5, 40 } }, { solver = leg(ik2d, 0, 0), home = { -5, 40 } } },
        ground = function() return 400, 0 end, step = { trigger = 2, duration = 0.1 },
        on_step = function()
          -- from the coroutine that runs the update, and from one it resumes
          for _, name in ipairs{ "update", "plant", "reset" } do
            local ok, err = pcall(g[name], g, 0, 0, 0)
            seen[#seen + 1] = not ok and err:match("cannot run inside on_step") and name
            local co = coroutine.create(function() return g[name](g, 0, 0, 0) end)
            ok, err = coroutine.resume(co)
            seen[#seen + 1] = not ok and err:match("cannot run inside on_step") and name
          end
        end }
      local co = coroutine.wrap(function()
        g:update(0, 0, 360)
        for k = 1, 30 do g:update(1 / 60, k, 360) end
      end)
      co()
      assert.are.same({ "update", "update", "plant", "plant", "reset", "reset" },
        { seen[1], seen[2], seen[3], seen[4], seen[5], seen[6] })
    end)
  end)

  describe("argument checks, at the caller's line", function()
    local s = leg(ik2d, 0, 0)
    local function legs(n)
      local t = {}
      for i = 1, n do t[i] = { solver = s, home = { i, 40 } } end
      return t
    end
    local two = legs(2)
    local one = ik2d.solver(ik2d.chain{ { length = 5 } })
    local new_cases = {
      { function() gait.new() end, "opts must be a table, got nil" },
      { function() gait.new{ legs = two, ground = flat, stepp = {} } end,
        'opts has an unknown field (known: ground, group, legs, on_step, pattern, step, targets, tip, '
          .. 'tip_angles), got "stepp"' },
      { function() gait.new{ legs = legs(1), ground = flat } end, "legs must be a list of 2 to 8 legs, got 1" },
      { function() gait.new{ legs = legs(9), ground = flat } end, "legs must be a list of 2 to 8 legs, got 9" },
      { function() gait.new{ ground = flat } end, "legs must be a list of 2 to 8 legs, got nil" },
      { function() gait.new{ legs = { two[1], 5 }, ground = flat } end, "legs[2] must be a table, got 5" },
      { function() gait.new{ legs = { two[1], { solver = s, home = { 1, 2 }, hmoe = 1 } }, ground = flat } end,
        'legs[2] has an unknown field (known: foot, hip, home, reach, solver), got "hmoe"' },
      { function() gait.new{ legs = { two[1], { home = { 1, 2 } } }, ground = flat } end,
        "legs[2].solver must be an ik2d solver (set_target, target), got nil" },
      { function() gait.new{ legs = { two[1], { solver = { set_target = print, target = print }, home = { 1, 2 } } },
          ground = flat, tip = true } end,
        "legs[2].solver must be an ik2d solver (set_target, target, set_tip_angle, tip_angle, clear_tip_angle), "
          .. "got table" },
      { function() gait.new{ legs = { two[1], { solver = s, home = { 1, 0 / 0 } } }, ground = flat } end,
        "legs[2].home must be a point { x, y } of finite numbers, got table" },
      { function() gait.new{ legs = { two[1], { solver = s } }, ground = flat } end,
        "legs[2].home must be a point { x, y } of finite numbers, got nil" },
      { function() gait.new{ legs = { two[1], { solver = s, home = { 1, 2 }, reach = 0 } }, ground = flat } end,
        "legs[2].reach must be a finite number > 0, got 0" },
      { function() gait.new{ legs = { two[1], { solver = { set_target = print, target = print }, home = { 1, 2 } } },
          ground = flat } end,
        "legs[2].solver must have a chain (or give the leg a reach, and a foot with tip = true), got table" },
      { function() gait.new{ legs = { two[1], { solver = s, home = { 1, 2 }, foot = 3 } }, ground = flat } end,
        "legs[2].foot is for tip = true (a foot along the ground), got 3" },
      { function() gait.new{ legs = { two[1], { solver = s, home = { 1, 2 }, foot = -1 } }, ground = flat,
          tip = true } end,
        "legs[2].foot must be a finite number >= 0, got -1" },
      { function() gait.new{ legs = { two[1], { solver = one, home = { 1, 2 } } }, ground = flat, tip = true } end,
        "legs[2].solver's chain must reach its ankle (tip = true: 2 bones or more, or give the leg a reach), got 1" },
      { function() gait.new{ legs = two } end,
        "ground must be a function or a list of segments { x1, y1, x2, y2 }, got nil" },
      { function() gait.new{ legs = two, ground = { { 0, 1, 2, 3 }, { 0, 1, 0 / 0, 3 } } } end,
        "ground[2][3] must be a finite number, got nan" },
      { function() gait.new{ legs = two, ground = { { 5, 1, 5, 3 } } } end,
        "ground[1] must not be vertical (x1 == x2), got 5" },
      { function() gait.new{ legs = two, ground = { { -1e308, 0, 1e308, 0 } } } end,
        "ground[1] must span less than the largest number, got table" },
      { function() gait.new{ legs = two, ground = flat, pattern = "trot" } end,
        'pattern must be "alternate", "tripod", "wave" or a list of groups of leg indices, got "trot"' },
      { function() gait.new{ legs = two, ground = flat, pattern = { { 1 }, { 2, 3 } } } end,
        "pattern[2][2] must be a whole number in 1..2, got 3" },
      { function() gait.new{ legs = two, ground = flat, pattern = { { 1, 2 }, { 2 } } } end,
        "pattern: leg 2 is in two groups" },
      { function() gait.new{ legs = two, ground = flat, pattern = { { 2 } } } end, "pattern: leg 1 is in no group" },
      { function() gait.new{ legs = two, ground = flat, pattern = { {} } } end,
        "pattern[1] must be a non-empty list of leg indices, got table" },
      { function() gait.new{ legs = two, ground = flat, step = { trigger = 0 } } end,
        "step.trigger must be a finite number > 0, got 0" },
      { function() gait.new{ legs = two, ground = flat, step = { duration = math.huge } } end,
        "step.duration must be a finite number > 0, got inf" },
      { function() gait.new{ legs = two, ground = flat, step = { height = -1 } } end,
        "step.height must be a finite number >= 0, got -1" },
      { function() gait.new{ legs = two, ground = flat, step = { lead = 0 / 0 } } end,
        "step.lead must be a finite number >= 0, got nan" },
      { function() gait.new{ legs = two, ground = flat, step = { hieght = 3 } } end,
        'step has an unknown field (known: duration, height, lead, settle, trigger), got "hieght"' },
      { function() gait.new{ legs = two, ground = flat, tip = 1 } end, "tip must be a boolean or nil, got 1" },
      { function() gait.new{ legs = two, ground = flat, on_step = true } end,
        "on_step must be a function or nil, got true" },
    }
    for k, case in ipairs(new_cases) do
      it(("new refuses: %s (%d)"):format(case[2], k), function()
        assert.are.equal("ik2d.gait: new: " .. case[2], helpers.caller_error(case[1]))
      end)
    end

    it("update, foot, body_height, plant and reset refuse bad arguments and a dot call", function()
      local g = gait.new{ legs = legs(2), ground = flat }
      local function check(want, fn) assert.are.equal(want, helpers.caller_error(fn)) end
      check("ik2d.gait: foot: the feet have no place before the first update", function() g:foot(1) end)
      check("ik2d.gait: body_height: the feet have no place before the first update", function() g:body_height() end)
      check("ik2d.gait: plant: the feet have no place before the first update", function() g:plant(1, 0) end)
      check("ik2d.gait: update: dt must be a finite number >= 0, got -1", function() g:update(-1, 0, 0) end)
      check("ik2d.gait: update: x must be a finite number, got nan", function() g:update(0, 0 / 0, 0) end)
      check("ik2d.gait: update: y must be a finite number, got nil", function() g:update(0, 0) end)
      check("ik2d.gait: update: angle must be a finite number, got inf", function() g:update(0, 0, 0, math.huge) end)
      check('ik2d.gait: update: flip must be a boolean or nil, got "yes"', function() g:update(0, 0, 0, 0, "yes") end)
      check("ik2d.gait: update: self must be a gait (call it with a colon), got 0.5",
        function() g.update(0.5, 0, 0) end)
      g:update(0, 0, 360)
      check("ik2d.gait: foot: i must be a whole number in 1..2, got 3", function() g:foot(3) end)
      check("ik2d.gait: foot: i must be a whole number in 1..2, got 1.5", function() g:foot(1.5) end)
      check("ik2d.gait: plant: x must be a finite number, got nil", function() g:plant(1) end)
      check("ik2d.gait: reset: self must be a gait (call it with a colon), got nil", function() g.reset() end)
    end)

    it("a ground that gives no number is named at update's caller", function()
      local g = gait.new{ legs = legs(2), ground = function() return 0 / 0 end }
      assert.are.equal("ik2d.gait: update: ground(x) must return a finite height, got nan",
        helpers.caller_error(function() g:update(0, 0, 0) end))
      g = gait.new{ legs = legs(2), ground = function() return 1 end, tip = nil }
      g:update(0, 0, 0)
      local tipped = gait.new{ legs = legs(2), ground = function() return 1 end, tip = true }
      assert.are.equal("ik2d.gait: update: ground(x) must return a finite direction (angle) with tip = true, got nil",
        helpers.caller_error(function() tipped:update(0, 0, 0) end))
      assert.are.equal("ik2d.gait: foot: the feet have no place before the first update",
        helpers.caller_error(function() tipped:foot(1) end))
    end)

    it("update, plant and reset refuse to run inside on_step", function()
      local g
      local seen = {}
      g = gait.new{ legs = legs(2), ground = flat, step = { trigger = 2, duration = 0.1 },
        on_step = function()
          for _, name in ipairs{ "update", "plant", "reset" } do
            local ok, err = pcall(g[name], g, 0, 0, 0)
            seen[#seen + 1] = not ok and err:match("cannot run inside on_step") and name
          end
        end }
      g:update(0, 0, 360)
      for k = 1, 30 do g:update(1 / 60, k, 360) end
      assert.are.same({ "update", "plant", "reset" }, { seen[1], seen[2], seen[3] })
    end)
  end)

  describe("garbage", function()
    for _, hips in ipairs{ true, false } do
      it(("update, body_height and foot allocate nothing in a frame loop (interpreted), hips %s"):format(
        hips and "given" or "at the body's point"), function()
        local count = 0
        local g, solvers = hexapod(ik2d, { tip = true, hips = hips, on_step = function() count = count + 1 end })
        local k = 0
        local bytes = helpers.steady_growth(function()
          for _ = 1, 600 do
            k = k + 1
            local x, y, a = body(k / 60, 1e9, true)
            for i = 1, 6 do solvers[i]:chain():set_base(x + HIPS[i], y) end
            g:update(1 / 60, x, y, a)
            g:body_height()
            g:foot(1)
          end
        end, true)
        assert.are.equal(0, bytes)
        assert.is_true(count > 100)
      end)
    end

    it("update allocates nothing writing into a group's tables, turning round and back", function()
      local count = 0
      local g, solvers = hexapod(ik2d, { tip = true, hips = true, on_step = function() count = count + 1 end })
      local group, targets, tips = ik2d.group(solvers), {}, {}
      local legs = {}
      for i = 1, 6 do legs[i] = { solver = solvers[i], home = { HOMES[i], HOME_Y }, hip = { HIPS[i], 0 } } end
      local fed = gait.new{ legs = legs, ground = hills, pattern = "tripod", tip = true,
        step = { trigger = 16, height = 8, duration = 0.16 }, group = group, targets = targets, tip_angles = tips,
        on_step = function() count = count + 1 end }
      local k = 0
      local bytes = helpers.steady_growth(function()
        for _ = 1, 600 do
          k = k + 1
          local x, y, a = body(k / 60, 1e9, true)
          local flip = k % 240 >= 120
          g:update(1 / 60, x, y, a, flip)
          fed:update(1 / 60, x, y, a, flip)
          group:set_targets(targets)
          group:set_tip_angles(tips)
          group:solve()
        end
      end, true)
      assert.are.equal(0, bytes)
      assert.is_true(count > 200)
    end)
  end)
end)
