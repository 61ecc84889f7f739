-- Tampering from plain Lua (issue 19, item 3): short of the debug library,
-- no script can make ik2d read freed memory or change a finalised object.
--
--   * A skeleton finalised (its __gc run while its chains are in use:
--     through the debug library here, a finaliser at lua_close or one that
--     keeps the chains): the chains it lets go keep the bones' limits, so
--     their solvers, groups and springs go on as with those limits held.
--   * Tables given to ik2d (options, a pole, gravity, definitions) are read
--     raw and options(t) writes raw: no metamethod runs inside an ik2d
--     call, so none can finalise the object in use, yield half-way, or
--     call ik2d again in the middle of a call; both cores alike.
--   * The metatables are protected: getmetatable(obj) gives the type's
--     name, never the table holding __gc.
--   * The pure core keeps each call's new settings in a table of that
--     call: a call nested in another (from a debug hook here; a finaliser
--     could do it) cannot mix them.
--
-- Under `make test-asan` a read of freed memory here is an ASan error.

local ik2d = require "ik2d"
local helpers = require "spec.helpers"

-- the real metatable, past __metatable
local raw_metatable = debug.getmetatable

local function finalise(o) raw_metatable(o).__gc(o) end

local function full()
  for _ = 1, 4 do collectgarbage() end
end

-- Allocates and frees enough for freed memory to be reused.
local function churn()
  local junk = {}
  for i = 1, 2000 do junk[i] = ik2d.constraint{ min = -1 - i * 1e-4, max = 3 } end
  for i = 1, 2000 do junk[i] = nil end
  full()
  for i = 1, 2000 do junk[i] = string.rep("x", 40) .. i end
  return junk
end

local function angles(chain)
  local out = {}
  for i = 1, #chain do out[i] = chain:angle(i) end
  return out
end

describe("a skeleton finalised while its chains are in use", function()
  -- a limited arm of 3 bones and a limited tail of 2, all on one skeleton:
  -- s on the arm, g a group of a second solver on the arm, sp a spring on
  -- the tail
  local function rig()
    local o = {}
    o.sk = ik2d.skeleton{
      { name = "a", length = 1 },
      { name = "b", parent = "a", length = 1, min = -0.5, max = 0.5 },
      { name = "c", parent = "b", length = 1, min = -0.5, max = 0.5 },
      { name = "t1", parent = "a", length = 1, angle = 2 },
      { name = "t2", parent = "t1", length = 1, min = -0.25, max = 0.25 },
    }
    o.arm = o.sk:chain("a", "c")
    o.s = ik2d.solver(o.arm, { iterations = 30 })
    o.arm2 = o.sk:chain("a", "c")
    o.s2 = ik2d.solver(o.arm2, { method = "fabrik", iterations = 30 })
    o.g = ik2d.group{ o.s2 }
    o.tail = o.sk:chain("t1", "t2")
    o.sp = ik2d.spring(o.tail, { stiffness = 50, damping = 2, gravity = { 0, 30 } })
    return o
  end

  -- what the objects give after the skeleton was finalised and its memory
  -- reused; keep: with the bones' constraints held here (the reference)
  local function run(keep)
    local o = rig()
    local held = keep and { o.sk:constraint("b"), o.sk:constraint("c"), o.sk:constraint("t2") }
    finalise(o.sk)
    o.sk = nil
    full()
    local junk = churn()
    o.s:set_target(0.3, 2.9)
    o.s:solve()
    o.s2:set_target(-0.4, 2.8)
    o.g:solve()
    for _ = 1, 30 do o.sp:update(1 / 60) end
    return { arm = angles(o.arm), arm2 = angles(o.arm2), tail = angles(o.tail),
             held = held and #held, junk = #junk }
  end

  helpers.on_both_paths(ik2d, function()
    it("its chains keep the bones' limits: solver, group and spring give what they give with them held",
      function()
        local dropped, kept = run(false), run(true)
        assert.are.equal(3, kept.held)
        for _, name in ipairs{ "arm", "arm2", "tail" } do
          assert.are.same(kept[name], dropped[name], name)
        end
        -- and the limits held: the reach of 0.3, 2.9 needs more than 0.5 rad
        for _, name in ipairs{ "arm", "arm2" } do
          for i = 2, 3 do
            assert.is_true(math.abs(dropped[name][i]) <= 0.5 + 1e-12, name .. " bone " .. i)
          end
        end
        assert.is_true(math.abs(dropped.tail[2]) <= 0.25 + 1e-12)
      end)
  end)
end)

describe("the metatables", function()
  local function objects()
    local chain = ik2d.chain{ { length = 1 }, { length = 1 } }
    local sk = ik2d.skeleton{ { name = "a", length = 1 }, { name = "b", parent = "a", length = 1 } }
    local s = ik2d.solver(chain)
    return { Constraint = ik2d.constraint{ min = -1, max = 1 }, Chain = chain, Solver = s,
             Group = ik2d.group{ s }, Skeleton = sk, Spring = ik2d.spring(chain),
             SkeletonChain = sk:chain("a", "b") }
  end

  it("are protected: getmetatable gives the type's name, which has no __gc to take", function()
    for kind, o in pairs(objects()) do
      local name = "ik2d." .. (kind == "SkeletonChain" and "Chain" or kind)
      assert.are.equal(name, getmetatable(o), kind)
      assert.is_nil(getmetatable(o).__gc, kind)
      assert.has_error(function() getmetatable(o).__gc = function() end end)
      -- the pure core's objects may be tables: their metatable stays
      if type(o) == "table" then
        assert.has_error(function() setmetatable(o, {}) end)
      end
      assert.are.equal(name, raw_metatable(o).__name)
    end
  end)

  -- in a child: before the fix the chain type's __gc was replaced for good
  it("a skeleton chain dropped after an attempt to replace its __gc leaves the skeleton's lists",
    function()
      local ok, out, code = helpers.run_lua([[
        local ik2d = require "ik2d"
        local sk = ik2d.skeleton{ { name = "a", length = 1 }, { name = "b", parent = "a", length = 1 } }
        print("replaced", (pcall(function() getmetatable(sk:chain("a", "b")).__gc = function() end end)))
        do local _ = sk:chain("a", "b") end
        for _ = 1, 4 do collectgarbage() end
        local junk = {}
        for i = 1, 5000 do junk[i] = { i, i, i, i } end
        for k = 1, 100 do sk:set_pose("b", k * 0.01) end
        local keep = sk:chain("a", "b")
        sk:set_pose("b", 0.25)
        print("angles", sk:angle(2), keep:angle(2), #junk)
      ]], ik2d.ffi and "" or "IK2D_NO_FFI=1")
      assert(ok, ("the child exited with %s:\n%s"):format(tostring(code), out))
      assert.truthy(out:find("replaced\tfalse\n", 1, true), out)
      assert.truthy(out:find("angles\t0.25\t0.25\t5000\n", 1, true), out)
    end)

  if helpers.is_luajit and ik2d.ffi ~= nil and ik2d.backend ~= "lua" then
    it("an FFI method given the pure core's object of the same type name refuses it", function()
      local pure = require "ik2d.pure.core"
      local chain = pure.chain{ { length = 1 } }
      local c_chain = ik2d.chain{ { length = 1 } }
      local was = ik2d.ffi
      for _, on in ipairs{ true, false } do
        ik2d.use_ffi(on)
        local ok, err = pcall(c_chain.tip, chain)
        assert.is_false(ok)
        assert.truthy(tostring(err):find("ik2d.Chain expected", 1, true), tostring(err))
      end
      ik2d.use_ffi(was)
    end)
  end
end)
