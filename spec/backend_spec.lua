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
