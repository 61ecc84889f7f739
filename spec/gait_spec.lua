-- ik2d.gait: planted feet never move and lie on the ground, the steps a
-- body makes are the same at 60 and 144 Hz, one group steps at a time in
-- the pattern's order, a body at rest settles, and every argument is
-- checked at the caller's line.
local ik2d = require "ik2d"
local helpers = require "spec.helpers"

local gait = ik2d.gait
local sin, cos, atan, abs, floor = math.sin, math.cos, math.atan, math.abs, math.floor
local pi = math.pi

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
    on_step = function(i, x, y) steps[#steps + 1] = { i, x, y } end,
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

  it("lands ahead of its home spot by the body's velocity times lead (default duration / 2)", function()
    -- from rest, feet at home: both tripods are trigger (16 px) from home
    -- at 0.4 s; 1, 3, 5 step then and land 0.16 s later 3.2 px ahead of
    -- home, and 2, 4, 6 step as they land
    local g, solvers, steps = hexapod(ik2d, { ground = flat })
    for k = 0, 48 do
      local x = 100 + SPEED * k / 60
      for i = 1, 6 do solvers[i]:chain():set_base(x + HIPS[i], 356) end
      g:update(k == 0 and 0 or 1 / 60, x, 356, 0)
    end
    assert.are.equal(6, #steps)
    for k, i in ipairs{ 1, 3, 5, 2, 4, 6 } do
      local t_land = 16 / SPEED + (k <= 3 and 0.16 or 0.32)
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
    -- stepped at 16 / 400 s, landed 0.16 s later
    assert.near(100 + fast * (16 / fast + 0.16) + HOMES[1] + 0.75 * 16, steps[1][2], 1e-9)
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
      local msg = helpers.caller_error(function() gait.new{ legs = { { solver = s, home = { 0, 1 } }, { solver = s, home = { 1, 1 } } }, ground = flat, pattern = "tripod" } end)
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

    it("flip mirrors the home spots about the body", function()
      local g, solvers = biped(flat)
      for i = 1, 2 do solvers[i]:chain():set_base(200, 326) end
      g:update(0, 200, 326, 0, true)
      assert.are.equal(192, (g:foot(1)))
      assert.are.equal(208, (g:foot(2)))
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

    it("settle: feet within that distance of home stay where they are", function()
      local s1, s2 = leg(ik2d, 0, 0), leg(ik2d, 0, 0)
      local steps = 0
      local g = gait.new{ legs = { { solver = s1, home = { 5, 40 } }, { solver = s2, home = { -5, 40 } } },
        ground = flat, step = { trigger = 20, settle = 4, duration = 0.1 },
        on_step = function() steps = steps + 1 end }
      g:update(0, 0, 360)
      for k = 1, 60 do g:update(1 / 60, k * 0.05, 360) end   -- 3 px: no trigger
      for _ = 1, 120 do g:update(1 / 60, 3, 360) end
      assert.are.equal(0, steps)
      assert.are.equal(5, (g:foot(1)))
      -- 5 px more: 8 px off, more than settle and less than trigger
      for k = 1, 60 do g:update(1 / 60, 3 + k / 12, 360) end
      assert.are.equal(0, steps)
      for _ = 1, 120 do g:update(1 / 60, 8, 360) end
      assert.are.equal(2, steps)
      assert.are.equal(13, (g:foot(1)))
      assert.are.equal(3, (g:foot(2)))
    end)
  end)
end)
