-- Groups solved in SIMD lanes: every instruction set gives the
-- bits of solving one by one, whatever the group's size and order; the
-- set in use is ik2d.isa; the target and joint arrays under LuaJIT.
local ik2d = require "ik2d"
local helpers = require "spec.helpers"

local format = string.format

-- Every number of a chain's result and its solver's outcome, as exact
-- bits (%a), in one string.
local function bits_of(s)
  local arm, out = s:chain(), {}
  for i = 1, #arm + 1 do
    local x, y = arm:joint(i)
    out[#out + 1] = format("%a %a", x, y)
  end
  for i = 1, #arm do out[#out + 1] = format("%a", arm:angle(i)) end
  local reached, distance, iterations, limited = s:result()
  out[#out + 1] = format("%s %a %d %s", tostring(reached), distance, iterations, tostring(limited))
  return table.concat(out, " ")
end

-- A crowd: every kind of member the lanes take (3 and 10 bones, both
-- sweeps, exact step on and off, limits of every kind, damping, partial
-- weights, flips, cold and warm starts), members they leave to the scalar
-- solver (FABRIK, two-bone, a pole, world-space limits) and, with shared,
-- two solvers on one chain (whose result is the later one's in the
-- group's order), more members than a bucket holds.
local function crowd(seed, count, shared)
  local random = helpers.random(seed)
  local elbow = ik2d.constraint{ min = -0.4, max = 2.2 }
  local wrist = ik2d.constraint{ min = -0.5, max = 0.5, invert = true }
  local pinned = ik2d.constraint{ min = 0.3, max = 0.3 }
  local world = ik2d.constraint{ min = -1, max = 1, space = "world" }
  local solvers = {}
  for k = 1, count do
    local bones = k % 5 == 0 and 10 or 3
    local spec = { x = 10 * k, y = random.range(-5, 5), angle = random.range(-3, 3),
                   flip = k % 9 == 4 }
    for i = 1, bones do spec[i] = { length = random.range(0.5, 1.5), angle = 0.3 } end
    local arm = ik2d.chain(spec)
    if k % 3 == 0 then arm:set_constraint(2, elbow) end
    if k % 7 == 1 then arm:set_constraint(3, wrist) end
    if k % 11 == 2 then arm:set_constraint(1, pinned) end
    if k % 97 == 5 then arm:set_constraint(2, world) end
    local options = { tolerance = k % 13 == 0 and 0 or 1e-4, iterations = 1 + k % 12,
                      sweep = k % 2 == 0 and "tip" or "root", exact = k % 4 ~= 1,
                      warm_start = k % 17 ~= 0 }
    if k % 5 == 1 then options.damping = 0.3 end
    if k % 89 == 3 then options.method = "fabrik" end
    if k % 83 == 7 then options.pole = { 10 * k, 5 } end
    local s = ik2d.solver(arm, options)
    if k % 6 == 4 then s:set_weight(0.5) end
    solvers[#solvers + 1] = s
    if shared and k == 40 then solvers[#solvers + 1] = ik2d.solver(arm, { sweep = "tip" }) end
  end
  return solvers
end

local function move_targets(solvers, frame, random)
  for k, s in ipairs(solvers) do
    local arm = s:chain()
    local bx, by = arm:base()
    local r = (frame % 4 == 0 and 1.3 or 0.8) * arm:reach() * random.next()
    local a = frame % 3 == 0 and 2 * math.pi * random.next() or 0.05 * frame + k
    s:set_target(bx + r * math.cos(a), by + r * math.sin(a))
  end
end

-- Frames of the crowd solved one by one and as a group (in the given
-- order of members) on the instruction set isa; returns how many results
-- were compared, after asserting each the same bits.
local function compare(isa, count, frames, order)
  local alone, grouped = crowd(3, count, not order), crowd(3, count, not order)
  local list = {}
  for k, index in ipairs(order or {}) do list[k] = grouped[index] end
  if not order then list = grouped end
  local g = ik2d.group(list)
  local random_alone, random_grouped = helpers.random(11), helpers.random(11)
  local used = ik2d.use_isa(isa)
  local compared = 0
  for frame = 1, frames do
    move_targets(alone, frame, random_alone)
    move_targets(grouped, frame, random_grouped)
    local reached = 0
    for _, s in ipairs(alone) do
      if s:solve() then reached = reached + 1 end
    end
    assert.are.equal(reached, g:solve())
    for k = 1, #alone do
      assert.are.equal(bits_of(alone[k]), bits_of(grouped[k]))
      compared = compared + 1
    end
  end
  ik2d.use_isa("auto")
  return compared, used
end

-- the method paths this runtime has: LuaJIT's FFI and classic ones
local PATHS = (helpers.is_luajit and ik2d.ffi) and { true, false } or { false }

-- The instruction sets: under make test the scalar lanes and the widest
-- this machine runs (spec/core/lanes.c holds every set to the one-by-one
-- bits in C), under IK2D_LONG=1 every one; the pure core has the scalar
-- lanes alone.  And the frames of each comparison: 4 see a jump and a
-- target out of reach (move_targets makes them).
local ISAS = { "scalar", "sse2", "avx2", "avx512" }
if not helpers.long then
  local widest = ik2d.use_isa("avx512")
  ik2d.use_isa("auto")
  ISAS = widest == "scalar" and { "scalar" } or { "scalar", widest }
end
local FRAMES = helpers.size(4, 12)

describe("groups in SIMD lanes", function()
  after_each(function() if ik2d.ffi ~= nil then ik2d.use_ffi(PATHS[1]) end end)

  for _, isa in ipairs(ISAS) do
    for _, ffi in ipairs(PATHS) do
      local path = helpers.is_luajit and (ffi and " (FFI path)" or " (classic path)") or ""
      it("give every member the bits of one by one with " .. isa .. path, function()
        if helpers.is_luajit then ik2d.use_ffi(ffi) end
        local compared = compare(isa, 301, FRAMES)
        assert.are.equal(302 * FRAMES, compared)
      end)
    end
  end

  it("give the same bits whatever the members' order and the group's size", function()
    for _, count in ipairs { 1, 2, 5, 9, 17, 260 } do
      local random, order = helpers.random(count), {}
      for k = 1, count do order[k] = k end
      for k = #order, 2, -1 do
        local j = 1 + math.floor(random.next() * k)
        order[k], order[j] = order[j], order[k]
      end
      assert.is_true(compare("auto", count, helpers.size(4, 6), order) > 0)
    end
  end)

  it("name the instruction set in use in ik2d.isa, and use_isa falls back to one "
     .. "this machine runs", function()
    local names = { scalar = true, sse2 = true, avx2 = true, avx512 = true }
    assert.is_true(names[ik2d.isa])
    assert.are.equal("scalar", ik2d.use_isa("scalar"))
    assert.are.equal("scalar", ik2d.isa)
    local widest = ik2d.use_isa("avx512")
    assert.is_true(names[widest])
    assert.are.equal(widest, ik2d.use_isa("auto"))
    assert.are.equal(widest, ik2d.use_isa())
    local msg = helpers.caller_error(function() ik2d.use_isa("avx9") end)
    helpers.check_message(msg, { "bad argument #1", "'use_isa'", "instruction set must be",
                                 '"avx512"' })
    assert.are.equal(widest, ik2d.isa)
  end)

  it("take the instruction set from IK2D_ISA at load", function()
    local ok, out = helpers.run_lua('io.write(require("ik2d").isa)', "IK2D_ISA=scalar")
    assert(ok, out)
    assert.are.equal("scalar", out)
    ok, out = helpers.run_lua('require("ik2d")', "IK2D_ISA=avx9")
    assert.is_false(ok)
    helpers.check_message(out, { "IK2D_ISA=avx9", "instruction set must be" })
  end)
end)

describe("group:joint_offset", function()
  it("gives the 0-based index of each member's first joint x", function()
    local solvers = {}
    for k, bones in ipairs { 3, 1, 10, 2 } do
      local spec = { x = k }
      for i = 1, bones do spec[i] = { length = 1 } end
      solvers[k] = ik2d.solver(ik2d.chain(spec))
    end
    local g = ik2d.group(solvers)
    assert.are.same({ 0, 8, 12, 34 },
                    { g:joint_offset(1), g:joint_offset(2), g:joint_offset(3), g:joint_offset(4) })
    local all = g:joints()
    for k, s in ipairs(solvers) do
      local x, y = s:chain():joint(1)
      assert.are.equal(x, all[g:joint_offset(k) + 1])
      assert.are.equal(y, all[g:joint_offset(k) + 2])
    end
    local msg = helpers.caller_error(function() g:joint_offset(5) end)
    helpers.check_message(msg, { "bad argument #1", "solver index 5 out of range (1..4)" })
  end)
end)

-- the arrays are the FFI's: the C core's through its FFI path, the pure
-- core's under LuaJIT
if not (helpers.is_luajit and (ik2d.ffi or ik2d.backend == "lua")) then
  describe("group arrays without LuaJIT's FFI", function()
    it("raise an error naming the call and LuaJIT's FFI", function()
      local g = ik2d.group { ik2d.solver(ik2d.chain { { length = 1 } }) }
      local msg = helpers.caller_error(function() local a = g:target_array() return a end)
      helpers.check_message(msg, { "bad call to 'target_array'", "LuaJIT's FFI" })
      msg = helpers.caller_error(function() local a = g:joint_array() return a end)
      helpers.check_message(msg, { "bad call to 'joint_array'", "LuaJIT's FFI" })
    end)
  end)
  return
end

describe("group arrays (LuaJIT)", function()
  local function arms(count, bones)
    local solvers = {}
    for k = 1, count do
      local spec = { x = 5 * k, y = 1 }
      for i = 1, bones do spec[i] = { length = 1, angle = 0.2 } end
      solvers[k] = ik2d.solver(ik2d.chain(spec))
    end
    return solvers
  end

  it("start as the targets and joints of now", function()
    local solvers = arms(3, 2)
    solvers[2]:set_target(11, 2)
    local g = ik2d.group(solvers)
    local targets, joints = g:target_array(), g:joint_array()
    for k, s in ipairs(solvers) do
      local x, y = s:target()
      assert.are.equal(x, targets[2 * k - 2])
      assert.are.equal(y, targets[2 * k - 1])
      local jx, jy = s:chain():joint(3)
      assert.are.equal(jx, joints[g:joint_offset(k) + 4])
      assert.are.equal(jy, joints[g:joint_offset(k) + 5])
    end
    assert.are.equal(targets, g:target_array()) -- the same cdata each time
  end)

  it("are read and written by solve with the bits of set_targets and joints", function()
    local by_arrays, by_tables = arms(40, 3), arms(40, 3)
    local ga, gt = ik2d.group(by_arrays), ik2d.group(by_tables)
    local targets, joints = ga:target_array(), ga:joint_array()
    local flat, all, random = {}, {}, helpers.random(5)
    for _ = 1, 10 do
      for k = 1, 40 do
        local x, y = 5 * k + random.range(-3, 3), 1 + random.range(-3, 3)
        targets[2 * k - 2], targets[2 * k - 1] = x, y
        flat[2 * k - 1], flat[2 * k] = x, y
      end
      gt:set_targets(flat)
      assert.are.equal(gt:solve(), ga:solve())
      gt:joints(all)
      for i = 1, #all do assert.are.equal(format("%a", all[i]), format("%a", joints[i - 1])) end
    end
  end)

  it("follow set_targets, and work whichever way use_ffi is switched", function()
    local g = ik2d.group(arms(2, 2))
    local targets = g:target_array()
    g:set_targets { 6, 2, 11, 0 }
    assert.are.same({ 6, 2, 11, 0 }, { targets[0], targets[1], targets[2], targets[3] })
    ik2d.use_ffi(false)
    targets[0] = 5.5
    g:solve()
    local x = g:solver(1):target()
    local joints = g:joint_array()
    ik2d.use_ffi(true)
    assert.are.equal(5.5, x)
    local tx, ty = g:solver(1):chain():joint(3)
    assert.are.equal(tx, joints[4])
    assert.are.equal(ty, joints[5])
  end)

  it("refuse a target that is not finite, naming its entry, and change nothing", function()
    local g = ik2d.group(arms(3, 2))
    local targets, joints = g:target_array(), g:joint_array()
    g:solve()
    local before = {}
    for i = 0, g:joint_offset(3) + 5 do before[#before + 1] = joints[i] end
    local tx, ty = g:solver(1):target()
    targets[0], targets[5] = 4, 0 / 0
    local msg = helpers.caller_error(function() g:solve() end)
    helpers.check_message(msg, { "'solve'", "target array [5]", "target y must be finite" })
    for i = 0, #before - 1 do assert.are.equal(before[i + 1], joints[i]) end
    assert.are.same({ tx, ty }, { g:solver(1):target() })
  end)

  it("keep their group alive while reachable, and let it go after", function()
    local probe = setmetatable({}, { __mode = "v" })
    local targets
    do
      local g = ik2d.group(arms(2, 2))
      probe.group = g
      targets = g:target_array()
    end
    collectgarbage()
    collectgarbage()
    assert.is_not_nil(probe.group)
    targets[0] = 3
    probe.group:solve()
    targets = nil -- luacheck: ignore 311
    collectgarbage()
    collectgarbage()
    assert.is_nil(probe.group)
  end)

  it("make a frame loop that allocates nothing", function()
    local g = ik2d.group(arms(50, 3))
    local targets, joints = g:target_array(), g:joint_array()
    local last, f, sum = g:joint_offset(50) + 7, 0, 0
    local function frames()
      for _ = 1, 500 do
        f = f + 1
        for k = 1, 50 do
          targets[2 * k - 2] = 5 * k + math.cos(0.1 * f)
          targets[2 * k - 1] = 1 + math.sin(0.1 * f)
        end
        g:solve()
        for i = 0, last do sum = sum + joints[i] end
      end
    end
    assert.are.equal(0, helpers.steady_growth(frames))
    assert.is_true(sum == sum)
  end)
end)
