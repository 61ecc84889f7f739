-- ik2d.group: many solvers solved and read in one call.
local ik2d = require "ik2d"
local helpers = require "spec.helpers"

-- count chains of `bones` unit bones, based along x, each with a solver
-- and a reachable target from a fixed-seed generator
local function scene(count, bones, seed)
  local random = helpers.random(seed)
  local solvers = {}
  for k = 1, count do
    local spec = { x = 10 * k, y = 0, angle = 0 }
    for i = 1, bones do spec[i] = { length = 1, angle = 0.2 } end
    local s = ik2d.solver(ik2d.chain(spec), { tolerance = 1e-6, iterations = 30 })
    local r, a = 0.9 * bones * random.next(), 2 * math.pi * random.next()
    s:set_target(10 * k + r * math.cos(a), r * math.sin(a))
    solvers[k] = s
  end
  return solvers
end

describe("ik2d.group", function()
  it("solves every member exactly as solving them one by one would", function()
    local alone, grouped = scene(12, 4, 7), scene(12, 4, 7)
    local reached_alone = 0
    for _, s in ipairs(alone) do
      if s:solve() then reached_alone = reached_alone + 1 end
    end
    local g = ik2d.group(grouped)
    assert.are.equal(reached_alone, g:solve())
    for k = 1, 12 do
      local a, b = alone[k], grouped[k]
      assert.are.same({ a:result() }, { b:result() })
      assert.are.same(helpers.joints_of(a:chain()), helpers.joints_of(b:chain()))
    end
  end)

  -- Every kind of member at once: CCD solvers of different lengths, both
  -- sweep orders, exact step on and off, limits, damping, partial and zero
  -- weight, FABRIK and two-bone members between them, two solvers sharing
  -- a chain, more members than one lockstep block holds (the core runs CCD
  -- members 4 at a time, interleaved), over frames of warm starts.
  local function mixed_scene(seed)
    local random = helpers.random(seed)
    local elbow = ik2d.constraint{ min = -0.4, max = 2.2 }
    local wrist = ik2d.constraint{ min = -0.5, max = 0.5, invert = true }
    local solvers = {}
    for k = 1, 21 do
      local bones = k % 7 == 3 and 2 or 1 + k % 6
      local spec = { x = 10 * k, y = 0, angle = random.range(-1, 1) }
      for i = 1, bones do spec[i] = { length = random.range(0.5, 1.5), angle = 0.3 } end
      local arm = ik2d.chain(spec)
      if k % 3 == 0 then
        for i = 2, bones do arm:set_constraint(i, i % 2 == 0 and elbow or wrist) end
      end
      local options = { tolerance = 1e-5, iterations = 12,
                        sweep = k % 2 == 0 and "tip" or "root", exact = k % 4 ~= 1 }
      if k % 5 == 0 then options.damping = 0.2 end
      if k % 7 == 3 then options.method = "two_bone" end
      if k % 8 == 6 then options.method = "fabrik" end
      local s = ik2d.solver(arm, options)
      if k % 6 == 4 then s:set_weight(0.5) end
      if k % 10 == 9 then s:set_weight(0) end
      solvers[#solvers + 1] = s
      if k == 12 then
        -- a second solver on the same chain, later in the list: its
        -- result is the chain's, solved one by one or in the group
        solvers[#solvers + 1] = ik2d.solver(arm, { tolerance = 1e-5, sweep = "tip" })
      end
    end
    return solvers
  end

  local function move_targets(solvers, frame, random)
    for k, s in ipairs(solvers) do
      local arm = s:chain()
      local bx, by = arm:base()
      local r = 1.2 * arm:reach() * random.next()
      local a = frame % 3 == 0 and 2 * math.pi * random.next() or 0.1 * frame + k
      s:set_target(bx + r * math.cos(a), by + r * math.sin(a))
    end
  end

  it("solves a mixed group exactly as one by one, frame after frame", function()
    local alone, grouped = mixed_scene(5), mixed_scene(5)
    local g = ik2d.group(grouped)
    local random_alone, random_grouped = helpers.random(17), helpers.random(17)
    local compared = 0
    for frame = 1, 40 do
      move_targets(alone, frame, random_alone)
      move_targets(grouped, frame, random_grouped)
      local reached_alone = 0
      for _, s in ipairs(alone) do
        if s:solve() then reached_alone = reached_alone + 1 end
      end
      assert.are.equal(reached_alone, g:solve())
      for k = 1, #alone do
        assert.are.same({ alone[k]:result() }, { grouped[k]:result() })
        assert.are.same(helpers.joints_of(alone[k]:chain()), helpers.joints_of(grouped[k]:chain()))
        assert.are.same(helpers.angles_of(alone[k]:chain()), helpers.angles_of(grouped[k]:chain()))
        compared = compared + 1
      end
    end
    assert.are.equal(40 * 22, compared)
  end)

  -- Two solvers of one chain, after members of more bone counts than the
  -- batch keeps open at once (opening another flushes and empties its set
  -- of queued chains): the second must still wait for the first.  Where
  -- the chain lands in that set depends on its address, so many scenes,
  -- each made at other addresses.
  it("solves two solvers of one chain in list order after the open buckets overflow", function()
    local function overflowing(random)
      local solvers = {}
      -- four buckets open (3 to 6 bones), 24 chains in the set; the
      -- shared chain's 7 bones open a fifth
      for k = 1, 24 do
        local spec = { x = 10 * k, y = 0, angle = random.range(-1, 1) }
        for i = 1, 3 + k % 4 do spec[i] = { length = random.range(0.5, 1.5), angle = 0.3 } end
        solvers[#solvers + 1] = ik2d.solver(ik2d.chain(spec), { tolerance = 1e-5, iterations = 12 })
      end
      -- (damped, two iterations: where each ends depends on where it starts)
      local shared = ik2d.chain{ x = 300, { length = 1 }, { length = 1 }, { length = 1 },
                                 { length = 1 }, { length = 1 }, { length = 1 }, { length = 1 } }
      for _, sweep in ipairs{ "root", "tip" } do
        solvers[#solvers + 1] = ik2d.solver(shared, { iterations = 2, damping = 0.1, sweep = sweep })
      end
      return solvers
    end
    for round = 1, 60 do
      local random_alone, random_grouped = helpers.random(round), helpers.random(round)
      local alone, grouped = overflowing(random_alone), overflowing(random_grouped)
      local g = ik2d.group(grouped)
      for k = 1, #alone do
        local x, y = alone[k]:chain():base()
        local a = 2 * math.pi * random_alone.next()
        local r = 2 + 2 * random_grouped.next()
        alone[k]:set_target(x + r * math.cos(a), y + r * math.sin(a))
        grouped[k]:set_target(x + r * math.cos(a), y + r * math.sin(a))
      end
      for _, s in ipairs(alone) do s:solve() end
      g:solve()
      for k = 1, #alone do
        assert.are.same(helpers.joints_of(alone[k]:chain()), helpers.joints_of(grouped[k]:chain()))
      end
    end
  end)

  describe("set_targets", function()
    it("sets every member's target from one flat table, as set_target one by one", function()
      local one, all = scene(3, 2, 13), scene(3, 2, 13)
      local targets = { 1.5, -0.5, 12, 0.25, "31", 1 }
      for k, s in ipairs(one) do s:set_target(targets[2 * k - 1], targets[2 * k]) end
      local g = ik2d.group(all)
      assert.is_nil(g:set_targets(targets))
      for k = 1, 3 do
        assert.are.same({ one[k]:target() }, { all[k]:target() })
      end
      assert.are.equal(31, (all[3]:target()))
      assert.are.equal(g:solve(), ik2d.group(one):solve())
      assert.are.same(helpers.joints_of(one[2]:chain()), helpers.joints_of(all[2]:chain()))
    end)

    it("names a bad item and changes no target when one is bad", function()
      local solvers = scene(2, 2, 3)
      local g = ik2d.group(solvers)
      local before = { { solvers[1]:target() }, { solvers[2]:target() } }
      local cases = {
        { { 1, 2, 3 }, "4 numbers expected (x, y for each of 2 solvers), got 3" },
        { { 1, 2, 3, 0 / 0 }, "item 4: target y must be finite" },
        { { 1, -math.huge, 3, 4 }, "item 2: target y must be finite" },
        { { 1, 2, math.huge, 4 }, "item 3: target x must be finite" },
        { { 1, 2, {}, 4 }, "item 3: number expected, got table" },
        { { "x", 2, 3, 4 }, "item 1: number expected, got string" },
        { { 1, 2, 3, 4, 5, 6 }, "4 numbers expected (x, y for each of 2 solvers), got 6" },
      }
      for _, case in ipairs(cases) do
        local ok, msg = pcall(function() g:set_targets(case[1]) end)
        assert.is_false(ok)
        helpers.check_message(msg, { "bad argument #1 to 'set_targets' (", case[2] })
        assert.are.same(before, { { solvers[1]:target() }, { solvers[2]:target() } })
      end
    end)

    it("refuses a table longer than the members' targets (a one-member group given 3 numbers)", function()
      local solvers = scene(1, 2, 3)
      solvers[1]:set_target(0.5, 0.25)
      local ok, msg = pcall(function() ik2d.group(solvers):set_targets{ 1, 2, 3 } end)
      assert.is_false(ok)
      helpers.check_message(msg, { "2 numbers expected (x, y for each of 1 solvers), got 3" })
      assert.are.same({ 0.5, 0.25 }, { solvers[1]:target() })
    end)

    it("takes numeric strings, as set_target does", function()
      local solvers = scene(1, 2, 3)
      ik2d.group(solvers):set_targets{ "0.5", "0.25" }
      assert.are.same({ 0.5, 0.25 }, { solvers[1]:target() })
    end)
  end)

  it("returns how many members reached their targets", function()
    local solvers = scene(3, 2, 3)
    solvers[2]:set_target(1000, 0) -- out of reach
    assert.are.equal(2, ik2d.group(solvers):solve())
  end)

  it("fills one flat table with every chain's joints, chain after chain", function()
    local solvers = scene(3, 3, 11)
    local g = ik2d.group(solvers)
    g:solve()
    local t = g:joints({})
    assert.are.equal(3 * 4 * 2, #t)
    local n = 0
    for _, s in ipairs(solvers) do
      for _, v in ipairs(helpers.joints_of(s:chain())) do
        n = n + 1
        assert.are.equal(v, t[n])
      end
    end
  end)

  it("reuses the table it is given", function()
    local g = ik2d.group(scene(2, 2, 5))
    local t = {}
    assert.are.equal(t, g:joints(t))
    assert.are.equal(t, g:joints(t))
    assert.are.equal(12, #t)
  end)

  it("keeps its solvers alive when nothing else refers to them", function()
    local g = ik2d.group(scene(4, 3, 9))
    collectgarbage()
    collectgarbage()
    assert.are.equal(4, #g)
    assert.is_true(g:solve() >= 0)
    local x = g:joints()[1]
    assert.are.equal(10, x)
  end)

  it("gives back its solvers by index", function()
    local solvers = scene(2, 2, 1)
    local g = ik2d.group(solvers)
    assert.are.equal(solvers[2], g:solver(2))
    local ok, msg = pcall(function() local s = g:solver(3); return s end)
    assert.is_false(ok)
    assert.truthy(msg:find("solver index 3 out of range (1..2)", 1, true))
  end)

  it("rejects a list that holds something other than solvers", function()
    local s = scene(1, 2, 1)[1]
    local ok, msg = pcall(ik2d.group, { s, s:chain() })
    assert.is_false(ok)
    assert.truthy(msg:find("bad argument #1 to 'group'", 1, true))
    ok, msg = pcall(ik2d.group, 5)
    assert.is_false(ok)
    assert.truthy(msg:find("table expected, got number", 1, true))
  end)

  it("is empty when made from an empty list", function()
    local g = ik2d.group({})
    assert.are.equal(0, #g)
    assert.are.equal(0, g:solve())
    assert.are.same({}, g:joints({}))
  end)
end)

describe("ik2d.group: joints(t) trims, its members and set_targets checked", function()
  local PATHS = helpers.ffi_paths(ik2d)
  local function three_bones() return helpers.three_bones(ik2d) end
  local function two_bones() return helpers.two_bones(ik2d) end
  local message = helpers.error_of
  local words = helpers.words
  after_each(function() ik2d.use_ffi(true) end)

  for _, on in ipairs(PATHS) do
    describe("on each path" .. helpers.path_name(PATHS, on), function()
      before_each(function() ik2d.use_ffi(on) end)

      it("g:joints(t) trims too: a group of a 3-bone chain, then of a 2-bone chain: #t == 6", function()
        local g3 = ik2d.group{ ik2d.solver(three_bones()) }
        local short = two_bones()
        local g2 = ik2d.group{ ik2d.solver(short) }
        local t = g3:joints({})
        assert.are.equal(8, #t)
        assert.are.equal(t, g2:joints(t))
        assert.are.equal(6, #t)
        assert.are.same(helpers.joints_of(short), t)
        -- and two members (8 + 6) into a table of 20
        local both = ik2d.group{ ik2d.solver(three_bones()), ik2d.solver(two_bones()) }
        for i = 1, 20 do t[i] = 0 end
        both:joints(t)
        assert.are.equal(14, #t)
      end)

      it("ik2d.group{ chain } says 'item 1: ik2d.Solver expected, got ik2d.Chain'", function()
        local arm = three_bones()
        local msg = message(function() local r = ik2d.group{ arm } return r end)
        assert.are.equal("bad argument #1 to 'group' (item 1: ik2d.Solver expected, got ik2d.Chain)",
                         msg:match(": (bad.*)$"))
        local s = ik2d.solver(arm)
        local c = ik2d.constraint{ min = 0, max = 1 }
        assert.are.equal("item 2: ik2d.Solver expected, got ik2d.Constraint",
                         words(message(function() local r = ik2d.group{ s, c } return r end)))
        assert.are.equal("item 2: ik2d.Solver expected, got number",
                         words(message(function() local r = ik2d.group{ s, 5 } return r end)))
      end)

      it("ik2d.group{ s, s } is refused: a solver twice", function()
        local s = ik2d.solver(three_bones())
        local other = ik2d.solver(two_bones())
        assert.are.equal("item 2: the solver of item 1 again",
                         words(message(function() local r = ik2d.group{ s, s } return r end)))
        assert.are.equal("item 3: the solver of item 1 again",
                         words(message(function() local r = ik2d.group{ s, other, s } return r end)))
        -- two solvers of one chain are two solvers
        local arm = three_bones()
        assert.are.equal(2, #ik2d.group{ ik2d.solver(arm), ik2d.solver(arm) })
      end)

      it("g:set_targets with the wrong length is refused: a one-member group given 3 numbers", function()
        local s = ik2d.solver(three_bones())
        local g = ik2d.group{ s }
        local before = { s:target() }
        local msg = message(function() g:set_targets{ 1, 2, 3 } end)
        assert.are.equal("bad argument #1 to 'set_targets' (2 numbers expected (x, y for each of 1 solvers), got 3)",
                         msg:match(": (bad.*)$"))
        assert.are.same(before, { s:target() })
        assert.are.equal("2 numbers expected (x, y for each of 1 solvers), got 1",
                         words(message(function() g:set_targets{ 1 } end)))
        g:set_targets{ 1, 2 }
        assert.are.same({ 1, 2 }, { s:target() })
      end)
    end)
  end
end)

describe("ik2d.Group's messages: a solver index out of range named", function()
  local PATHS = helpers.ffi_paths(ik2d, true)
  local function three_bones() return helpers.three_bones(ik2d) end
  local caller_error = helpers.caller_error
  after_each(function() ik2d.use_ffi(true) end)

  for _, on in ipairs(PATHS) do
    describe("on each path" .. helpers.path_name(PATHS, on), function()
      before_each(function() ik2d.use_ffi(on) end)

      -- an index out of range names the index given
      describe("an index out of range", function()
        local cases = {
          { "g:solver(3) of 2", function(o) local r = o.g:solver(3) return r end,
            "bad argument #1 to 'solver' (solver index 3 out of range (1..2))" },
        }
        for _, case in ipairs(cases) do
          it(case[1] .. " says " .. case[3]:match("%((.*)%)$"), function()
            local o = { g = ik2d.group{ ik2d.solver(three_bones()), ik2d.solver(three_bones()) } }
            assert.are.equal(case[3], caller_error(case[2], o))
          end)
        end
      end)
    end)
  end
end)

-- ------------------------------------------------------------------
-- groups of skeletons: whole characters in one call each a frame
-- ------------------------------------------------------------------

local function character(x) return helpers.character(ik2d, x) end

-- character i's inputs at frame f: base x, y, angle; arm target; leg
-- target, tip angle, pole
local function inputs(i, f)
  local x, ph = 100 * i, 0.3 * f + i
  return x + 3 * math.sin(ph), 300 + math.cos(ph), 0.02 * math.sin(ph),
         x + 25 + 20 * math.cos(ph), 250 + 15 * math.sin(ph),
         x + 10 + 12 * math.sin(ph), 352, 0.2 * math.sin(ph), x + 40, 328 + math.cos(ph)
end

local function crowd(count)
  local list, skeletons = {}, {}
  for i = 1, count do
    list[i] = character(100 * i)
    skeletons[i] = list[i].sk
  end
  return list, skeletons
end

-- the same frames through each character's own calls
local function solve_alone(list, f)
  local reached = 0
  for i, c in ipairs(list) do
    local bx, by, ba, ax, ay, lx, ly, tip, px, py = inputs(i, f)
    c.sk:set_base(bx, by, ba)
    c.arm:set_target(ax, ay)
    c.leg:set_target(lx, ly)
    c.leg:set_tip_angle(tip)
    c.leg:set_pole(px, py)
    reached = reached + c.sk:solve()
  end
  return reached
end

-- fn raises at its line, naming the problem in words
local function refuses(fn, words)
  helpers.check_message(helpers.caller_error(fn), { words })
end

local function all_transforms(list)
  local t = {}
  for _, c in ipairs(list) do
    for _, v in ipairs(c.sk:transforms()) do t[#t + 1] = v end
  end
  return t
end

describe("ik2d.group of skeletons", function()
  it("solves every skeleton with the bits of solving them one by one, through tables", function()
    local alone = crowd(4)
    local grouped, skeletons = crowd(4)
    local g = ik2d.group(skeletons)
    local bases, targets, tips, poles, out = {}, {}, {}, {}, {}
    for f = 1, 8 do
      for i = 1, 4 do
        local bx, by, ba, ax, ay, lx, ly, tip, px, py = inputs(i, f)
        bases[3 * i - 2], bases[3 * i - 1], bases[3 * i] = bx, by, ba
        targets[4 * i - 3], targets[4 * i - 2], targets[4 * i - 1], targets[4 * i] = ax, ay, lx, ly
        -- the arm has no tip angle or pole: its entries are not read
        tips[2 * i - 1], tips[2 * i] = 1e300, tip
        poles[4 * i - 3], poles[4 * i - 2], poles[4 * i - 1], poles[4 * i] = 0, 0, px, py
      end
      g:set_bases(bases)
      g:set_targets(targets)
      g:set_tip_angles(tips)
      g:set_poles(poles)
      local reached = g:solve()
      assert.are.equal(solve_alone(alone, f), reached)
      assert.are.same(all_transforms(alone), g:transforms(out))
    end
    for i = 1, 4 do
      assert.are.same({ alone[i].leg:result() }, { grouped[i].leg:result() })
      assert.are.same({ alone[i].leg:tip_angle() }, { grouped[i].leg:tip_angle() })
      assert.are.same({ alone[i].arm:tip_angle() }, { grouped[i].arm:tip_angle() })
    end
  end)

  it("numbers its skeletons, their solvers and their transforms", function()
    local list, skeletons = crowd(3)
    local g = ik2d.group(skeletons)
    assert.are.equal(3, #g)
    assert.are.equal(skeletons[2], g:skeleton(2))
    local solvers = g:solvers()
    assert.are.equal(6, #solvers)
    assert.are.equal(list[2].arm, solvers[3])
    assert.are.equal(list[3].leg, g:solver(6))
    assert.are.equal(70, g:transform_offset(3))
    assert.are.equal(105, #g:transforms())
    assert.are.equal(2 * 4 * 2 + 2 * 4, g:joint_offset(4))
    assert.matches("ik2d.Group%(3 skeletons, 6 solvers%)", tostring(g))
    refuses(function() g:skeleton(4) end,
      "skeleton index 4 out of range (1..3)")
  end)

  it("refuses a bad number naming its item, and changes nothing", function()
    local list, skeletons = crowd(2)
    local g = ik2d.group(skeletons)
    local before = all_transforms(list)
    refuses(function() g:set_bases({ 1, 2 }) end,
      "6 numbers expected (x, y, angle for each of 2 skeletons), got 2")
    refuses(function() g:set_bases({ 1, 2, 3, 4, 0 / 0, 6 }) end,
      "item 5: base y must be finite")
    refuses(function() g:set_tip_angles({ 0, 1 / 0, 0, 0 }) end,
      "item 2: tip angle must be finite")
    refuses(function() g:set_poles({ 0, 0, 1, 0 / 0, 0, 0, 1, 1 }) end,
      "item 4: pole y must be finite")
    assert.are.same(before, all_transforms(list))
    assert.are.same({ 100, 300, 0 }, { list[1].sk:base() })
    assert.are.same({ 0, 1 }, { list[1].leg:tip_angle() })
    -- an arm's entries are not read: any number goes
    g:set_tip_angles({ 1 / 0, 0.5, 0 / 0, 0.25 })
    assert.are.same({ 0.5, 1 }, { list[1].leg:tip_angle() })
    assert.is_nil(list[1].arm:tip_angle())
  end)

  it("keeps bases and transforms to groups of skeletons", function()
    local list = crowd(1)
    local g = ik2d.group{ list[1].arm, list[1].leg }
    assert.are.equal(2, #g)
    refuses(function() g:set_bases({}) end,
      "a group of solvers: only a group of skeletons has it")
    refuses(function() g:transforms() end,
      "a group of solvers: only a group of skeletons has it")
    refuses(function() ik2d.group{ list[1].sk, list[1].arm } end,
      "item 2: ik2d.Skeleton expected (item 1 is one), got ik2d.Solver")
    refuses(function() ik2d.group{ list[1].sk, list[1].sk } end,
      "item 2: the skeleton of item 1 again")
  end)

  it("raises for a cycle through targets on bones before it solves anything", function()
    local list = crowd(1)
    list[1].arm:set_target(140, 250)
    -- two arms sharing the spine, each hand's target on the other hand
    local sk = ik2d.skeleton{ x = 300, y = 300,
      { name = "spine", length = 30, angle = -1.57 },
      { name = "arm_a", parent = "spine", length = 20, angle = 1.2 },
      { name = "hand_a", parent = "arm_a", length = 10 },
      { name = "arm_b", parent = "spine", length = 20, angle = -1.2 },
      { name = "hand_b", parent = "arm_b", length = 10 },
    }
    local a = ik2d.solver(sk:chain("spine", "hand_a"))
    local b = ik2d.solver(sk:chain("spine", "hand_b"))
    a:set_target_bone(sk, "hand_b", 5, 0)
    b:set_target_bone(sk, "hand_a", 5, 0)
    local g = ik2d.group{ list[1].sk, sk }
    assert.is_true(g:solve() >= 0)
    a:set_options{ together = false }
    list[1].arm:set_target(150, 240)
    local before = g:transforms()
    assert.has_error(function() g:solve() end)
    assert.are.same(before, g:transforms())
    a:set_options{ together = true }
    assert.is_true(g:solve() >= 0)
    assert.are_not.same(before, g:transforms())
  end)

  if rawget(_G, "jit") then
    it("reads its arrays every solve, with the bits of the calls (LuaJIT)", function()
      local alone = crowd(3)
      local _, skeletons = crowd(3)
      local g = ik2d.group(skeletons)
      local bases, targets = g:base_array(), g:target_array()
      local tips, poles, out = g:tip_angle_array(), g:pole_array(), g:transform_array()
      assert.are.equal(100, bases[0])
      assert.is_true(tips[0] ~= tips[0])   -- the arm has none: NaN
      assert.are.equal(0, tips[1])
      for f = 1, 6 do
        for i = 1, 3 do
          local bx, by, ba, ax, ay, lx, ly, tip, px, py = inputs(i, f)
          local j = i - 1
          bases[3 * j], bases[3 * j + 1], bases[3 * j + 2] = bx, by, ba
          targets[4 * j], targets[4 * j + 1], targets[4 * j + 2], targets[4 * j + 3] = ax, ay, lx, ly
          tips[2 * j + 1] = tip
          poles[4 * j + 2], poles[4 * j + 3] = px, py
        end
        assert.are.equal(solve_alone(alone, f), g:solve())
        local expected = all_transforms(alone)
        for k = 1, #expected do assert.are.equal(expected[k], out[k - 1]) end
      end
      local before = all_transforms(alone)
      bases[4] = 0 / 0
      refuses(function() g:solve() end,
      "base array [4]: base y must be finite")
      bases[4] = 300
      tips[3] = 1 / 0
      refuses(function() g:solve() end,
      "tip angle array [3]: tip angle must be finite")
      local after = {}
      for k = 1, #before do after[k] = out[k - 1] end
      -- nothing solved, and the transforms as they were
      for k = 1, #before do assert.are.equal(g:transforms()[k], after[k]) end
    end)
  end
end)

-- ------------------------------------------------------------------
-- a group of skeletons solved a step at a time: each skeleton's solves
-- in its own order, the plain CCD limbs of a step in the lanes together
-- ------------------------------------------------------------------

describe("ik2d.group of skeletons, a step at a time", function()
  -- the instruction sets: every one this build has (each gives the bits)
  local ISAS = { "scalar", "sse2", "avx2", "avx512" }

  -- rig r (1..3) at x: a spine (limited) with an arm of r + 1 bones, a
  -- tail of 2 and a leg with a tip angle and a pole; options vary by rig
  local function rig(r, x, flip)
    local t = { x = x, y = 300, flip = flip,
      { name = "hip", length = 0 },
      { name = "spine", parent = "hip", length = 40, angle = -1.57, min = -0.5, max = 0.5 },
      { name = "tail1", parent = "hip", length = 12, angle = 3 },
      { name = "tail2", parent = "tail1", length = 10, angle = 0.2, min = -0.3, max = 0.3 },
      { name = "thigh", parent = "hip", length = 30, angle = 1.4 },
      { name = "shin", parent = "thigh", length = 28, angle = 0.3, min = -0.2, max = 2 },
      { name = "foot", parent = "shin", length = 10, angle = -1.6 },
    }
    local last = "spine"
    for k = 1, r do
      t[#t + 1] = { name = "arm" .. k, parent = last, length = 30 - 5 * k, angle = 0.4,
                    min = k == 2 and -1 or nil, max = k == 2 and 1 or nil }
      last = "arm" .. k
    end
    t[#t + 1] = { name = "finger1", parent = last, length = 6, angle = 0.3 }
    t[#t + 1] = { name = "finger2", parent = "finger1", length = 5 }
    local sk = ik2d.skeleton(t)
    -- the finger hangs below the arm: made first, it is solved after it
    local c = { sk = sk, finger = ik2d.solver(sk:chain("finger1", "finger2")) }
    c.arm = ik2d.solver(sk:chain("spine", last),
      r == 2 and { sweep = "tip", exact = false } or { iterations = 8 + r })
    c.tail = ik2d.solver(sk:chain("tail1", "tail2"), { weight = r == 3 and 0.5 or 1 })
    c.leg = ik2d.solver(sk:chain("thigh", "foot"), { tip_angle = 0, pole = { x + 40, 330 } })
    return c
  end

  local function rig_crowd(count)
    local list = {}
    for i = 1, count do list[i] = rig(1 + i % 3, 60 * i, i % 4 == 0) end
    return list
  end

  -- the same moves for both crowds: targets near and out of reach, bases
  -- moving
  local function move(list, f)
    for i, c in ipairs(list) do
      local x, ph = 60 * i, 0.4 * f + i
      c.sk:set_base(x + 2 * math.sin(ph), 300 + math.cos(ph), 0.05 * math.sin(ph))
      local far = (f + i) % 5 == 0 and 200 or 0
      -- (a target on a bone stays there)
      if not c.arm:target_bone() then
        c.arm:set_target(x + 20 + 25 * math.cos(ph) + far, 250 + 20 * math.sin(ph))
      end
      if not c.tail:target_bone() then
        c.tail:set_target(x - 15 + 4 * math.sin(ph), 305 + 3 * math.cos(ph))
      end
      c.leg:set_target(x + 10 + 12 * math.sin(ph), 352)
      c.leg:set_tip_angle(0.2 * math.sin(ph))
      c.finger:set_target(x + 30 + 25 * math.cos(ph) + far, 245 + 20 * math.sin(ph))
    end
  end

  local function state(list)
    local t = {}
    for _, c in ipairs(list) do
      for _, v in ipairs(c.sk:transforms()) do t[#t + 1] = v end
      for _, s in ipairs{ c.arm, c.tail, c.leg, c.finger } do
        for _, v in ipairs{ s:result() } do t[#t + 1] = v end
        for _, v in ipairs(s:chain():joints()) do t[#t + 1] = v end
        for k = 1, #s:chain() do t[#t + 1] = s:chain():angle(k) end
      end
    end
    return t
  end

  local function same_bits(expected, got)
    assert.are.equal(#expected, #got)
    for k = 1, #expected do
      if expected[k] ~= got[k] then
        error(string.format("entry %d: %.17g, expected %.17g", k, got[k], expected[k]), 2)
      end
    end
  end

  -- frames through each skeleton's own solve and through the group, on
  -- isa; edit(list, f) changes both crowds alike between frames
  local function compare(isa, count, frames, edit)
    local alone, grouped = rig_crowd(count), rig_crowd(count)
    local skeletons = {}
    for i, c in ipairs(grouped) do skeletons[i] = c.sk end
    local g = ik2d.group(skeletons)
    ik2d.use_isa(isa)
    for f = 1, frames do
      if edit then edit(alone, f) edit(grouped, f) end
      move(alone, f)
      move(grouped, f)
      local reached = 0
      for _, c in ipairs(alone) do reached = reached + c.sk:solve() end
      assert.are.equal(reached, g:solve())
      same_bits(state(alone), state(grouped))
    end
    ik2d.use_isa("auto")
  end

  after_each(function() ik2d.use_isa("auto") end)

  for _, isa in ipairs(ISAS) do
    it("gives the bits of one skeleton at a time, rigs mixed, with " .. isa, function()
      compare(isa, 13, 6)
    end)
  end

  it("gives the bits of one skeleton at a time in a crowd solved in tiles", function()
    compare("auto", 70, 3)
  end)

  it("keeps the bits when options change between frames (plans made again)", function()
    compare("auto", 9, 8, function(list, f)
      for i, c in ipairs(list) do
        if (f + i) % 3 == 0 then c.arm:set_options{ weight = 0.7 } end
        if (f + i) % 4 == 0 then c.arm:set_options{ weight = 1, together = false } end
        if f == 5 then c.tail:forget() end
      end
    end)
  end)

  -- an order set, a stretch given, a transform constraint ordered, the
  -- skeleton scaled, each after the skeleton solved (its plan kept)
  it("keeps the bits when an order, a stretch or the bone model comes after a solve", function()
    compare("auto", 8, 7, function(list, f)
      for i, c in ipairs(list) do
        if f == 2 and i % 4 == 1 then c.sk:set_order{ c.finger, c.arm } end
        if f == 3 and i % 4 == 2 then c.leg:set_options{ stretch = 1.5 } end
        if f == 4 and i % 4 == 3 then
          c.sk:set_order{ c.arm, ik2d.transform_constraint(c.sk, { bones = { "tail1" }, target = "spine",
                                                                   mix_x = 0, mix_y = 0 }) }
        end
        if f == 5 and i % 4 == 0 then c.sk:set_scale(1, -1) end
        if f == 6 and i % 4 == 1 then c.sk:set_order(nil) end
      end
    end)
  end)

  it("keeps the bits with targets on bones, its own skeleton's or another's", function()
    compare("auto", 7, 5, function(list, f)
      if f == 2 then
        -- a tail targeting its own hip, an arm the character before's
        -- foot (which that one's leg moves: one at a time, after the arm)
        list[1].tail:set_target_bone(list[1].sk, "hip", -15, 5)
        list[4].arm:set_target_bone(list[3].sk, "foot", 0, -20)
      end
    end)
  end)
end)
