-- require "ik2d": which core it takes, and why (ik2d.backend, ik2d.core_error)
local helpers = require "spec.helpers"

-- require "ik2d" afresh with package.preload["ik2d.core"] set to loader,
-- the modules loaded before put back afterwards (the C module itself is
-- never loaded twice: its luaopen would run again)
local function fresh_ik2d(loader)
  local saved, names = {}, {}
  for name, value in pairs(package.loaded) do
    if name == "ik2d" or name:match("^ik2d%.") then
      saved[name] = value
      names[#names + 1] = name
    end
  end
  for _, name in ipairs(names) do package.loaded[name] = nil end
  local preload_was = package.preload["ik2d.core"]
  package.preload["ik2d.core"] = loader
  local ok, result = pcall(require, "ik2d")
  package.preload["ik2d.core"] = preload_was
  for name in pairs(package.loaded) do
    if name == "ik2d" or name:match("^ik2d%.") then package.loaded[name] = nil end
  end
  for name, value in pairs(saved) do package.loaded[name] = value end
  assert(ok, result)
  return result
end

describe("require \"ik2d\"", function()
  it("falls back to the pure-Lua core when ik2d.core fails to load, and keeps require's message", function()
    if helpers.pure_pass then
      pending("IK2D_PURE=1 takes the pure-Lua core without trying ik2d.core; the pass with the C core tries it")
      return
    end
    local ik2d = fresh_ik2d(function() error("undefined symbol: lua_getiuservalue", 0) end)
    assert.are.equal("lua", ik2d.backend)
    assert.is_false(ik2d.ffi)
    assert.are.equal("undefined symbol: lua_getiuservalue", ik2d.core_error)
    -- and the fallback solves
    local c = ik2d.chain { { length = 1 }, { length = 1 } }
    local s = ik2d.solver(c)
    s:set_target(1, 1)
    assert.is_true((s:solve()))
    local x, y = c:joint(3)
    assert.near(1, x, 1e-9)
    assert.near(1, y, 1e-9)
  end)

  it("says nothing went wrong when the C core loads, or when IK2D_PURE=1 chose the pure one", function()
    local ik2d = require "ik2d"
    assert.is_nil(ik2d.core_error)
    if helpers.pure_pass then
      assert.are.equal("lua", ik2d.backend)
    else
      assert.truthy(ik2d.backend == "c" or ik2d.backend == "ffi", ik2d.backend)
    end
  end)
end)

describe("require \"ik2d\" again", function()
  local ik2d = require "ik2d"
  local PATHS = helpers.ffi_paths(ik2d)
  local function three_bones() return helpers.three_bones(ik2d) end
  local message = helpers.error_of

  describe("after a hot reload (package.loaded cleared, required again)", function()
    local saved = {}
    local NAMES = { "ik2d", "ik2d.core", "ik2d.ffi" }

    before_each(function()
      for _, name in ipairs(NAMES) do saved[name] = package.loaded[name] end
    end)

    after_each(function()
      for _, name in ipairs(NAMES) do package.loaded[name] = saved[name] end
      -- the FFI functions of the module every other spec holds
      ik2d.use_ffi(true)
    end)

    for _, on in ipairs(PATHS) do
      it("messages still name the function: 'set_target', not '?'" .. helpers.path_name(PATHS, on), function()
        local old_arm = three_bones()
        local old_s = ik2d.solver(old_arm)
        for _ = 1, 2 do
          for _, name in ipairs(NAMES) do package.loaded[name] = nil end
          local again = require "ik2d"
          assert.are_not.equal(ik2d, again)
          again.use_ffi(on)
          local arm = again.chain{ { length = 3 }, { length = 2 }, { length = 1 } }
          local s = again.solver(arm)
          for _, o in ipairs{ { s, arm }, { old_s, old_arm } } do
            local solver, chain = o[1], o[2]
            assert.are.equal("bad argument #1 to 'set_target' (number expected, got nil)",
                             message(function() solver:set_target(nil, 1) end):match(": (bad.*)$"))
            assert.are.equal("bad argument #1 to 'joint' (joint index 0 out of range (1..4))",
                             message(function() local x = chain:joint(0) return x end):match(": (bad.*)$"))
            assert.are.equal("calling 'solve' on bad self (ik2d.Solver expected, got table)",
                             message(function()
                               local x = setmetatable({}, debug.getmetatable(solver)):solve() return x
                             end):match(": (calling.*)$"))
            assert.are.equal("bad argument #1 to 'group' (item 1: ik2d.Solver expected, got ik2d.Chain)",
                             message(function() local r = again.group{ chain } return r end):match(": (bad.*)$"))
          end
          -- and it still solves, old objects and new
          s:set_target(4, 3)
          assert.is_true((s:solve()))
          old_s:set_target(-4, 3)
          assert.is_true((old_s:solve()))
        end
      end)
    end
  end)
end)
