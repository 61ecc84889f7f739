-- Messages that broke the README's rules (issue 19, item 5), each proved
-- on Lua 5.4 and LuaJIT, under LuaJIT through the FFI path and the
-- classic methods, and (run with IK2D_PURE=1) on the pure-Lua core, which
-- must give the same words: a bad self through a variable of another name
-- is "bad argument #1" (not "calling 'x' on bad self"), use_ffi takes a
-- boolean, an index out of range names the index, a spring's bad dt
-- names the value, and a skeleton's solver limit blames the chain.

local ik2d = require "ik2d"
local helpers = require "spec.helpers"

local PATHS = (helpers.is_luajit and ik2d.backend ~= "lua") and { true, false } or { false }
local function path_name(on)
  if #PATHS == 1 then return "" end
  return on and " (FFI path)" or " (classic path)"
end

local function three_bones()
  return ik2d.chain{ x = 1, y = 2, { length = 3 }, { length = 2 }, { length = 1 } }
end

-- A skeleton of n bones in a line, "b1" to "bn".
local function line_skeleton(n)
  local t = {}
  for i = 1, n do t[i] = { name = "b" .. i, parent = i > 1 and "b" .. (i - 1) or nil, length = 1 } end
  return ik2d.skeleton(t)
end

local caller_error = helpers.caller_error

-- A stand-in for a global variable holding an ik2d method: the call site
-- reads it from the environment (a chunk of its own, so that luacheck
-- sees no global).
local function global_call(name, value, source)
  rawset(_G, name, value)
  local chunk = assert((loadstring or load)(source, "=global_call"))
  local ok, msg = pcall(chunk)
  rawset(_G, name, nil)
  assert(not ok, "expected an error, the call returned")
  return tostring(msg)
end

describe("message fixes (issue 19)", function()
  after_each(function() ik2d.use_ffi(true) end)

  for _, on in ipairs(PATHS) do
    describe("on every path" .. path_name(on), function()
      before_each(function() ik2d.use_ffi(on) end)

      -- 1. a call through a variable named otherwise than the method: no
      -- colon, so self is #1 and is named as any other argument
      describe("a method called through a variable of another name", function()
        it("local f = s.weight; f({}) says bad argument #1 to 'weight'", function()
          local s = ik2d.solver(three_bones())
          local f = s.weight
          assert.are.equal("bad argument #1 to 'weight' (ik2d.Solver expected, got table)",
            caller_error(function() local r = f({}) return r end))
          local g = s.weight
          local msg = caller_error(function() local h = g; local r = h({}) return r end)
          assert.are.equal("bad argument #1 to 'weight' (ik2d.Solver expected, got table)", msg)
        end)

        it("local f = s.set_target (an FFI method): self is #1, x is #2, y is #3", function()
          local s = ik2d.solver(three_bones())
          local f = s.set_target
          assert.are.equal("bad argument #1 to 'set_target' (ik2d.Solver expected, got table)",
            caller_error(function() local r = f({}, 1, 2) return r end))
          assert.are.equal("bad argument #2 to 'set_target' (number expected, got string)",
            caller_error(function() local h = f; local r = h(s, "x", 2) return r end))
          assert.are.equal("bad argument #3 to 'set_target' (number expected, got nil)",
            caller_error(function() local h = f; local r = h(s, 1, nil) return r end))
        end)

        it("a chain's joint through a local: bad argument #1 to 'joint' for a collected chain", function()
          local arm = three_bones()
          debug.getmetatable(arm).__gc(arm)
          local joint = arm.joint
          assert.are.equal("bad argument #1 to 'joint' (chain was collected)",
            caller_error(function() local h = joint; local r = h(arm, 1) return r end))
        end)

        it("through a global: bad argument #1 to 'weight', #3 to 'set_target'", function()
          local s = ik2d.solver(three_bones())
          assert.are.equal("global_call:1: bad argument #1 to 'weight' (ik2d.Solver expected, got table)",
            global_call("IK2D_SPEC_WEIGHT", s.weight, "local r = IK2D_SPEC_WEIGHT({}) return r"))
          rawset(_G, "IK2D_SPEC_SOLVER", s)
          assert.are.equal("global_call:1: bad argument #3 to 'set_target' (number expected, got string)",
            global_call("IK2D_SPEC_SET", s.set_target,
                        "local r = IK2D_SPEC_SET(IK2D_SPEC_SOLVER, 1, 'y') return r"))
          rawset(_G, "IK2D_SPEC_SOLVER", nil)
        end)

        it("a colon call on a bad self still says calling 'solve' on bad self", function()
          local s = ik2d.solver(three_bones())
          local bad = setmetatable({}, debug.getmetatable(s))
          assert.are.equal("calling 'solve' on bad self (ik2d.Solver expected, got table)",
            caller_error(function() local r = bad:solve() return r end))
        end)

        it("a tail call in a function called from Lua still counts the colon: #1 is x", function()
          local s = ik2d.solver(three_bones())
          local function set(x) return s:set_target(x, 1) end
          local msg = helpers.error_of(function() local r = set("x") return r end)
          assert.are.equal("bad argument #1 to 'set_target' (number expected, got string)",
            msg:match(": (bad.*)$"))
        end)
      end)

      -- 3. an index out of range names the index given
      describe("an index out of range", function()
        local cases = {
          { "arm:angle(5)", function(o) local r = o.arm:angle(5) return r end,
            "bad argument #1 to 'angle' (bone index 5 out of range (1..3))" },
          { "arm:pose(0)", function(o) local r = o.arm:pose(0) return r end,
            "bad argument #1 to 'pose' (bone index 0 out of range (1..3))" },
          { "arm:joint(5)", function(o) local r = o.arm:joint(5) return r end,
            "bad argument #1 to 'joint' (joint index 5 out of range (1..4))" },
          { "arm:joint('-7')", function(o) local r = o.arm:joint("-7") return r end,
            "bad argument #1 to 'joint' (joint index -7 out of range (1..4))" },
          { "arm:set_pose(4, 0)", function(o) local r = o.arm:set_pose(4, 0) return r end,
            "bad argument #1 to 'set_pose' (bone index 4 out of range (1..3))" },
          { "arm:set_length(9, 1)", function(o) local r = o.arm:set_length(9, 1) return r end,
            "bad argument #1 to 'set_length' (bone index 9 out of range (1..3))" },
          { "arm:set_constraint(4, nil)", function(o) local r = o.arm:set_constraint(4, nil) return r end,
            "bad argument #1 to 'set_constraint' (bone index 4 out of range (1..3))" },
          { "arm:constraint(-1)", function(o) local r = o.arm:constraint(-1) return r end,
            "bad argument #1 to 'constraint' (bone index -1 out of range (1..3))" },
          { "sk:world(19) on 18 bones", function(o) local r = o.sk:world(19) return r end,
            "bad argument #1 to 'world' (bone index 19 out of range (1..18))" },
          { "sk:chain(1, 19)", function(o) local r = o.sk:chain(1, 19) return r end,
            "bad argument #2 to 'chain' (bone index 19 out of range (1..18))" },
          { "g:solver(3) of 2", function(o) local r = o.g:solver(3) return r end,
            "bad argument #1 to 'solver' (solver index 3 out of range (1..2))" },
          { "sp:velocity(4)", function(o) local r = o.sp:velocity(4) return r end,
            "bad argument #1 to 'velocity' (bone index 4 out of range (1..3))" },
          { "Chain.angle(arm, 5)", function(o) local r = o.Chain.angle(o.arm, 5) return r end,
            "bad argument #2 to 'angle' (bone index 5 out of range (1..3))" },
        }
        for _, case in ipairs(cases) do
          it(case[1] .. " says " .. case[3]:match("%((.*)%)$"), function()
            local arm = three_bones()
            local o = {
              arm = arm, Chain = debug.getmetatable(arm).__index, sk = line_skeleton(18),
              g = ik2d.group{ ik2d.solver(three_bones()), ik2d.solver(three_bones()) },
              sp = ik2d.spring(three_bones()),
            }
            assert.are.equal(case[3], caller_error(case[2], o))
          end)
        end
      end)

      -- 4. a spring's dt: the value given, not "not nan"
      describe("sp:update with a bad dt", function()
        for _, case in ipairs{ { -1, "-1" }, { 0 / 0, "nan" }, { -math.huge, "-inf" },
                               { "-0.5", "-0.5" }, { -1e-300, "-1e-300" } } do
          it(("sp:update(%s) says dt must be >= 0 (seconds), got %s"):format(tostring(case[1]), case[2]),
             function()
            local chain = three_bones()
            local sp = ik2d.spring(chain)
            sp:update(1 / 60)
            local before = helpers.chain_state(chain)
            assert.are.equal(("bad argument #1 to 'update' (dt must be >= 0 (seconds), got %s)"):format(case[2]),
              caller_error(function() local r = sp:update(case[1]) return r end))
            assert.are.same(before, helpers.chain_state(chain))
          end)
        end
      end)

      -- 5. the 257th solver on one skeleton: the chain (#1) is what cannot
      -- take one more, not the options (#2), which were not even given
      it("the 257th solver on one skeleton says bad argument #1: the skeleton already has 256", function()
        local sk = line_skeleton(3)
        local chain = sk:chain("b1", "b3")
        local solvers = {}
        for i = 1, 256 do solvers[i] = ik2d.solver(chain) end   -- kept alive: the skeleton counts them
        assert.are.same(solvers, sk:solvers())
        local want = "(the chain's skeleton already has 256 solvers, the most a skeleton takes)"
        assert.are.equal("bad argument #1 to 'solver' " .. want,
          caller_error(function() local r = ik2d.solver(chain) return r end))
        assert.are.equal("bad argument #1 to 'solver' " .. want,
          caller_error(function() local r = ik2d.solver(chain, { iterations = 3 }) return r end))
        assert.are.equal(256, #sk:solvers())
        -- bad options are still #2
        assert.are.equal("bad argument #2 to 'solver' (iterations must be >= 1)",
          caller_error(function() local r = ik2d.solver(chain, { iterations = 0 }) return r end))
      end)
    end)
  end

  -- 2. use_ffi takes a boolean; no argument asks, as use_isa() does
  describe("ik2d.use_ffi", function()
    for _, case in ipairs{ { "false", "string" }, { 0, "number" }, { {}, "table" } } do
      it(("use_ffi(%q) is refused: boolean expected, got %s, changing nothing"):format(
           tostring(case[1]), case[2]), function()
        local ffi, backend = ik2d.ffi, ik2d.backend
        assert.are.equal(("bad argument #1 to 'use_ffi' (boolean expected, got %s)"):format(case[2]),
          caller_error(function() local r = ik2d.use_ffi(case[1]) return r end))
        assert.are.equal(ffi, ik2d.ffi)
        assert.are.equal(backend, ik2d.backend)
      end)
    end

    it("use_ffi() and use_ffi(nil) change nothing and say whether the FFI path is on", function()
      local can = ik2d.use_ffi(true)
      assert.are.equal(can, ik2d.use_ffi())
      assert.are.equal(can, ik2d.use_ffi(nil))
      assert.are.equal(can, ik2d.ffi)
      assert.is_false(ik2d.use_ffi(false))
      assert.is_false(ik2d.use_ffi())
      assert.is_false(ik2d.ffi)
      assert.are.equal(ik2d.backend == "lua" and "lua" or "c", ik2d.backend)
      assert.are.equal(can, ik2d.use_ffi(true))
      assert.are.equal(helpers.is_luajit and ik2d.backend ~= "lua", can)
    end)
  end)
end)
