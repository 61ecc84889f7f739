-- The rock: `luarocks make` of ik2d-scm-1.rockspec into a private tree,
-- then a fresh interpreter that sees only that tree requires "ik2d" and
-- solves, with the C core and with the pure-Lua core (IK2D_PURE=1): the
-- pass with the C core builds once and runs both.  Runs for the Lua version busted runs under: 5.4 with lua5.4,
-- 5.1 with luajit.

local helpers = require "spec.helpers"

local q = helpers.shell_quote
local version = helpers.lua_version                      -- "5.4" or "5.1"
local interpreter = helpers.is_luajit and "luajit" or ("lua" .. version)

-- The repository root: the folder above this spec file.
local function repo_root()
  local source = debug.getinfo(1, "S").source
  local dir = source:match("^@(.*)[/\\][^/\\]*$") or "spec"
  local ok, out = helpers.run("cd " .. q(dir .. "/..") .. " && pwd")
  assert(ok, out)
  return (out:gsub("%s+$", ""))
end

local function exists(path)
  local f = io.open(path, "r")
  if f then f:close() return true end
  return false
end

-- make test builds the rock unoptimised (a third of the compile time;
-- the same files, installed the same way), IK2D_LONG=1 with luarocks' own
-- flags: the environment words that say so, a config written in work
local function quick_config(work)
  if helpers.long then return "" end
  local f = assert(io.open(work .. "/luarocks-config.lua", "w"))
  f:write('variables = { CFLAGS = "-O0 -fPIC" }\n')
  f:close()
  return "LUAROCKS_CONFIG=" .. q(work .. "/luarocks-config.lua") .. " "
end

describe("the rock (luarocks make, Lua " .. version .. ")", function()
  if helpers.pure_pass then
    pending("IK2D_PURE=1: the pass with the C core builds the rock once and runs it with both cores")
    return
  end
  local root, work, tree, made, make_output, files_before, files_after

  setup(function()
    root = repo_root()
    work = helpers.tmpdir()
    tree = work .. "/tree"
    -- build from a copy, so luarocks writes no objects into the
    -- checkout and nothing from build/ is picked up
    local copy = work .. "/src"
    local ok, out = helpers.run(
      ("cd %s && tar --exclude=./.git --exclude=./build -cf - . | (mkdir -p %s && cd %s && tar -xf -)")
        :format(q(root), q(copy), q(copy)))
    assert(ok, "copying the repository failed: " .. out)
    local list = "cd " .. q(copy) .. " && find . | LC_ALL=C sort"
    ok, files_before = helpers.run(list)
    assert(ok, files_before)
    local config = quick_config(work)
    made, make_output = helpers.run(("cd %s && %sluarocks --lua-version=%s make --tree %s ik2d-scm-1.rockspec")
                                    :format(q(copy), config, version, q(tree)))
    ok, files_after = helpers.run(list)
    assert(ok, files_after)
  end)

  teardown(function()
    if work then helpers.rmtree(work) end
  end)

  it("installs with luarocks make --tree", function()
    assert(made, "luarocks make failed:\n" .. tostring(make_output))
    assert.is_true(exists(tree .. "/lib/lua/" .. version .. "/ik2d/core.so"))
    assert.is_true(exists(tree .. "/share/lua/" .. version .. "/ik2d/init.lua"))
  end)

  it("leaves nothing in the source tree (no objects, no ./ik2d/core.so to shadow other builds)", function()
    assert(made, "luarocks make failed:\n" .. tostring(make_output))
    assert.are.equal(files_before, files_after)
  end)

  it("installs every Lua module that lua/ik2d and its folders hold", function()
    assert(made, "luarocks make failed:\n" .. tostring(make_output))
    local ok, listing = helpers.run("cd " .. q(root .. "/lua/ik2d") .. " && find . -name '*.lua'")
    assert(ok, listing)
    local missing = {}
    for name in listing:gsub("%./", ""):gmatch("[^\n]+") do
      if not exists(tree .. "/share/lua/" .. version .. "/ik2d/" .. name) then
        missing[#missing + 1] = name
      end
    end
    assert(#missing == 0, "not installed by the rockspec: lua/ik2d/" .. table.concat(missing, ", lua/ik2d/"))
  end)

  it("installs the vendored dkjson's licence beside it", function()
    assert(made, "luarocks make failed:\n" .. tostring(make_output))
    assert.is_true(exists(tree .. "/share/lua/" .. version .. "/ik2d/vendor/dkjson-LICENSE.txt"))
  end)

  -- runs the script in a fresh interpreter that sees only the tree, with
  -- the pure-Lua core when pure; checks where ik2d came from and what it solved
  local function use(pure)
    assert(made, "luarocks make failed:\n" .. tostring(make_output))
    local script = work .. "/use.lua"
    local f = assert(io.open(script, "w"))
    f:write([[
local ik2d = require "ik2d"
local arm = ik2d.chain{ { length = 60 }, { length = 50 }, { length = 20 } }
local s = ik2d.solver(arm)
s:set_target(80, 60)
local reached, distance = s:solve()
local x, y = arm:tip()
print("version " .. tostring(ik2d._VERSION))
print("lua " .. tostring(package.searchpath("ik2d", package.path)))
print("core " .. tostring(package.searchpath("ik2d.core", package.cpath)))
print("backend " .. tostring(ik2d.backend))
print(("result %s %.17g %.17g %.17g"):format(tostring(reached), distance, x, y))
local rig = require("ik2d.rig.source").describe('{"skeleton":{"spine":"4.2.1"},"bones":[{"name":"root"}]}')
print(("rig %s %s"):format(require("ik2d.rig.json").library, rig and rig.bones[1].name))
]])
    f:close()
    local share, lib = tree .. "/share/lua/" .. version, tree .. "/lib/lua/" .. version
    local lpath = share .. "/?.lua;" .. share .. "/?/init.lua"
    local cpath = lib .. "/?.so"
    -- LUA_PATH_5_4 and friends win over LUA_PATH on 5.4: set both
    local env = ("env -u LUA_INIT -u LUA_INIT_5_4 -u IK2D_PURE %sLUA_PATH=%s LUA_PATH_5_4=%s LUA_CPATH=%s "
                 .. "LUA_CPATH_5_4=%s"):format(pure and "IK2D_PURE=1 " or "", q(lpath), q(lpath), q(cpath),
                                               q(cpath))
    local ok, out = helpers.run(("cd %s && %s %s %s"):format(q(work), env, interpreter, q(script)))
    assert(ok, interpreter .. " failed:\n" .. out)

    assert.are.equal(share .. "/ik2d/init.lua", out:match("\nlua ([^\n]*)"))
    assert.are.equal(lib .. "/ik2d/core.so", out:match("\ncore ([^\n]*)"))
    assert.is_truthy(out:match("^version %S+"))
    -- the tree alone has no cjson and no system dkjson: its own copy reads
    assert.are.equal("vendored root", out:match("\nrig ([^\n]*)"))
    if pure then
      assert.are.equal("lua", out:match("\nbackend (%S+)"))
    else
      assert.are_not.equal("lua", out:match("\nbackend (%S+)"))
    end

    local reached, distance, x, y = out:match("\nresult (%S+) (%S+) (%S+) (%S+)")
    assert.are.equal("true", reached)
    distance, x, y = tonumber(distance), tonumber(x), tonumber(y)
    assert.truthy(distance <= 0.01, "distance " .. tostring(distance))
    assert.near(helpers.distance(x, y, 80, 60), distance, 1e-9)
  end

  it("is loaded by require 'ik2d' in a fresh " .. interpreter .. " that sees only the tree, and solves", function()
    use(false)
  end)

  it("gives the pure-Lua core from the tree with IK2D_PURE=1, which solves", function()
    use(true)
  end)
end)

-- The builtin backend (what LuaRocks uses on Windows) installs only the
-- modules the rockspec lists, which make gen writes from lua/ik2d/api.lua:
-- here it builds on this machine too (the rockspec's unix override
-- renamed away), and the pure core loads from that tree alone.
describe("the rock with LuaRocks' builtin backend (Lua " .. version .. ")", function()
  if helpers.pure_pass then
    pending("IK2D_PURE=1: the pass with the C core builds it once and loads the pure core from it")
    return
  end
  local root, work, tree, made, make_output

  setup(function()
    root = repo_root()
    work = helpers.tmpdir()
    tree = work .. "/tree"
    local copy = work .. "/src"
    local ok, out = helpers.run(
      ("cd %s && tar --exclude=./.git --exclude=./build -cf - . | (mkdir -p %s && cd %s && tar -xf -)")
        :format(q(root), q(copy), q(copy)))
    assert(ok, "copying the repository failed: " .. out)
    ok, out = helpers.run(("cd %s && sed -i 's/^  platforms = {/  not_here = {/' ik2d-scm-1.rockspec")
                          :format(q(copy)))
    assert(ok, out)
    made, make_output = helpers.run(("cd %s && %sluarocks --lua-version=%s make --tree %s ik2d-scm-1.rockspec")
                                    :format(q(copy), quick_config(work), version, q(tree)))
  end)

  teardown(function()
    if work then helpers.rmtree(work) end
  end)

  it("installs every module of the description, and the pure core solves from that tree alone", function()
    assert(made, "luarocks make failed:\n" .. tostring(make_output))
    local api = dofile(root .. "/lua/ik2d/api.lua")
    local share = tree .. "/share/lua/" .. version
    for _, name in ipairs(api.modules.lua) do
      local file = name == "ik2d" and "ik2d/init.lua" or name:gsub("%.", "/") .. ".lua"
      assert(exists(share .. "/" .. file), "not installed: " .. file)
    end
    local script = work .. "/pure.lua"
    local f = assert(io.open(script, "w"))
    f:write([[
local ik2d = require "ik2d"
local arm = ik2d.chain{ { length = 60 }, { length = 50 } }
local s = ik2d.solver(arm, { method = "two_bone" })
s:set_target(70, 40)
local reached = s:solve()
print(ik2d.backend, tostring(reached), package.searchpath("ik2d.pure.core", package.path))
]])
    f:close()
    local lpath = share .. "/?.lua;" .. share .. "/?/init.lua"
    local env = ("env -u LUA_INIT -u LUA_INIT_5_4 IK2D_PURE=1 LUA_PATH=%s LUA_PATH_5_4=%s LUA_CPATH= LUA_CPATH_5_4=")
                :format(q(lpath), q(lpath))
    local ok, out = helpers.run(("cd %s && %s %s %s"):format(q(work), env, interpreter, q(script)))
    assert(ok, interpreter .. " failed:\n" .. out)
    assert.are.equal(("lua\ttrue\t%s/ik2d/pure/core.lua"):format(share), (out:gsub("%s+$", "")))
  end)
end)
