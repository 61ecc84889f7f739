-- The LuaJIT FFI fast path gives the same answers and the same errors as
-- the classic C API methods.  On Lua 5.4 there is no FFI: ik2d.ffi is false.
local ik2d = require "ik2d"
local helpers = require "spec.helpers"

-- A frame loop over a limited 4-bone arm and a group, recording every
-- number it reads, to the last bit (%.17g).
local function record()
  local out = {}
  local function put(...)
    for i = 1, select("#", ...) do out[#out + 1] = string.format("%.17g", (select(i, ...))) end
  end
  local arm = ik2d.chain{ x = 5, y = -3, angle = 0.3,
    { length = 3 }, { length = 2, min = -0.5, max = 2 }, { length = 2, min = -1, max = 1 }, { length = 1 } }
  local s = ik2d.solver(arm, { tolerance = 1e-4 })
  local other = ik2d.solver(ik2d.chain{ { length = 2 }, { length = 2 } }, { method = "two_bone" })
  local g = ik2d.group{ s, other }
  local tail = ik2d.chain{ x = 1, y = 2, angle = 1.5, { length = 4 }, { length = 3, min = -0.4, max = 0.4 },
    { length = 2 } }
  local sp = ik2d.spring(tail, { gravity = { 0, 50 }, damping = 2 })
  local random = helpers.random(42)
  local t = {}
  for frame = 1, 200 do
    tail:set_base(1, 2, 1.5 + random.range(-1, 1))
    sp:update(frame % 7 == 0 and 0 or random.range(0, 0.05))
    for _, v in ipairs(tail:joints(t)) do put(v) end
    put(tail:angle(2), sp:velocity(3))
    s:set_target(5 + random.range(-9, 9), -3 + random.range(-9, 9))
    other:set_target(random.range(-3, 3), random.range(-3, 3))
    if frame % 2 == 0 then
      local reached, distance, iterations = s:solve()
      put(reached and 1 or 0, distance, iterations)
    else
      put(g:solve())
    end
    put(s:target())
    put(arm:tip())
    put(arm:joint(3))
    put(arm:angle(2), arm:pose(2), arm:base())
    for _, v in ipairs(arm:joints(t)) do put(v) end
    for _, v in ipairs(g:joints(t)) do put(v) end
    local reached, distance, iterations = other:result()
    put(reached and 1 or 0, distance, iterations, s:weight())
  end
  return table.concat(out, " ")
end

local function message(f)
  local ok, msg = pcall(f)
  assert.is_false(ok)
  return msg
end

describe("the FFI fast path", function()
  if ik2d.backend == "lua" then
    it("is off with the pure-Lua core, which has no C to call", function()
      assert.is_false(ik2d.ffi)
      assert.is_false(ik2d.use_ffi(true))
      assert.are.equal("lua", ik2d.backend)
    end)
    return
  end
  if not helpers.is_luajit then
    it("is off on Lua 5.4, which has no FFI", function()
      assert.is_false(ik2d.ffi)
      assert.is_false(ik2d.use_ffi(true))
    end)
    return
  end

  after_each(function() ik2d.use_ffi(true) end)

  it("is on by default under LuaJIT", function()
    if os.getenv("IK2D_NO_FFI") then return end
    assert.is_true(ik2d.ffi)
  end)

  it("gives bit-identical answers to the classic methods", function()
    assert.is_true(ik2d.use_ffi(true))
    local fast = record()
    assert.is_false(ik2d.use_ffi(false))
    local classic = record()
    assert.are.equal(classic, fast)
  end)

  it("raises the same errors as the classic methods", function()
    local arm = ik2d.chain{ { length = 1 }, { length = 1 } }
    local s = ik2d.solver(arm)
    local g = ik2d.group{ s }
    local cases = {
      function() s:set_target(nil, 1) end,
      function() s:set_target(1, 0 / 0) end,
      function() s:set_target(1, math.huge) end,
      function() s.set_target(s, "x", 1) end,
      function() local x = arm:joint(4); return x end,
      function() local x = arm:joint(1.5); return x end,
      function() local x = arm:angle(0); return x end,
      function() local x = arm:pose("a"); return x end,
      function() arm:joints(5) end,
      function() s.solve(arm) end,
      function() arm.tip(s) end,
      function() g.solve(s) end,
      function() g:joints(true) end,
      function() g:set_targets(5) end,
      function() g:set_targets{ 1 } end,
      function() g:set_targets{ 0 / 0, 1 } end,
      function() g.set_targets(s, { 1, 2 }) end,
      function() ik2d.spring(arm):update(0 / 0) end,
      function() ik2d.spring(arm):update(-1) end,
      function() ik2d.spring(arm):update() end,
      function() ik2d.spring(arm):update("x") end,
      function() local sp = ik2d.spring(arm); sp.update(s, 1) end,
    }
    for i, f in ipairs(cases) do
      ik2d.use_ffi(true)
      local fast = message(f)
      ik2d.use_ffi(false)
      local classic = message(f)
      assert.are.equal(classic, fast, "case " .. i)
    end
  end)

  it("reports a group member finalised before the group as the classic path does", function()
    -- __gc called by hand (as at lua_close): on the chain of one member,
    -- on the solver of another; the group's view made before and after
    for _, view_first in ipairs{ true, false } do
      local arm, arm2 = ik2d.chain{ { length = 1 } }, ik2d.chain{ { length = 1 }, { length = 2 } }
      local s, s2 = ik2d.solver(arm), ik2d.solver(arm2)
      local g = ik2d.group{ s2, s }
      if view_first then
        ik2d.use_ffi(true)
        g:joints({})
      end
      local messages = {}
      for _, victim in ipairs{ arm, s2 } do
        debug.getmetatable(victim).__gc(victim)
        for _, on in ipairs{ true, false } do
          ik2d.use_ffi(on)
          messages[on] = message(function() g:joints({}) end)
        end
        assert.are.equal(messages[false], messages[true])
        assert.truthy(messages[true]:find("was collected", 1, true))
      end
    end
  end)

  it("reports a spring whose chain was finalised as the classic path does", function()
    local arm = ik2d.chain{ { length = 1 } }
    local sp = ik2d.spring(arm)
    ik2d.use_ffi(true)
    sp:update(0.01)
    debug.getmetatable(arm).__gc(arm)
    local update = function() sp:update(0.01) end
    local fast = message(update)
    ik2d.use_ffi(false)
    assert.are.equal(message(update), fast)
    assert.truthy(fast:find("chain was collected", 1, true))
  end)

  it("accepts numeric strings where the classic methods do", function()
    ik2d.spring(ik2d.chain{ { length = 1 } }):update("0.016")
    local s = ik2d.solver(ik2d.chain{ { length = 1 } })
    s:set_target("0.5", "0.25")
    local x, y = s:target()
    assert.are.equal(0.5, x)
    assert.are.equal(0.25, y)
  end)
end)
