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
          getmetatable(arm).__gc(arm)
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
          local bad = setmetatable({}, getmetatable(s))
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
    end)
  end
end)
