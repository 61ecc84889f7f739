-- The rockspec's builtin backend (LuaRocks on Windows) installs only the
-- modules it lists: every Lua file of the library and every C source of
-- the core must be there, and nothing that is not.

local helpers = require "spec.helpers"

local root = helpers.repo_root()

local function rockspec()
  local file = assert(io.open(root .. "/ik2d-scm-1.rockspec"))
  local text = file:read("*a")
  file:close()
  return text
end

local function listed(pattern)
  local set = {}
  for path in rockspec():gmatch(pattern) do set[path] = true end
  return set
end

local function files(command)
  local ok, out = helpers.run(("cd %s && %s"):format(helpers.shell_quote(root), command))
  assert(ok, out)
  local set = {}
  for path in out:gmatch("[^\n]+") do set[path] = true end
  return set
end

describe("ik2d-scm-1.rockspec", function()
  it("lists every Lua module under its name, and only those", function()
    local modules = {}
    for name, path in rockspec():gmatch('%["([%w_.]+)"%] = "(lua/[%w_/]+%.lua)"') do
      local expected = path:gsub("^lua/", ""):gsub("/init%.lua$", ""):gsub("%.lua$", ""):gsub("/", ".")
      assert.equal(expected, name)
      modules[path] = true
    end
    assert.same(files("ls lua/ik2d/*.lua lua/ik2d/*/*.lua"), modules)
  end)

  it("builds ik2d.core from every C source the Makefile builds", function()
    local sources = listed('"(src/[%w_/]+%.c)"')
    assert.same(files("ls src/ik2d_*.c src/lua/luaik_*.c"), sources)
  end)
end)
