-- The one description (lua/ik2d/api.lua) and what is made from it: every
-- file src/gen.lua writes is as it would write it now (else: make gen),
-- the module lists name the files there are, and each backend gives the
-- description's defaults, options and words.

local helpers = require "spec.helpers"
local ik2d = require "ik2d"

local root = helpers.repo_root()

local api = dofile(root .. "/lua/ik2d/api.lua")

local function read(path)
  local f = assert(io.open(root .. "/" .. path, "rb"))
  local text = f:read("*a")
  f:close()
  return text
end

local function listing(command)
  local ok, out = helpers.run(("cd %s && %s"):format(helpers.shell_quote(root), command))
  assert(ok, out)
  local set = {}
  for path in out:gmatch("[^\n]+") do set[path] = true end
  return set
end

describe("lua/ik2d/api.lua", function()
  it("is what the generated files say: make gen would change nothing", function()
    -- the generator reads and names files from the repository's root
    local outputs = assert(loadfile(root .. "/src/gen.lua"))("--outputs")
    local stale = {}
    for path, text in pairs(outputs()) do
      if read(path) ~= text then stale[#stale + 1] = path end
    end
    table.sort(stale)
    assert(#stale == 0, "stale (run make gen): " .. table.concat(stale, ", "))
  end)

  it("lists every C source and Lua module there is, and nothing else", function()
    local c = {}
    for _, list in ipairs({ api.modules.core, api.modules.binding }) do
      for _, path in ipairs(list) do c[path] = true end
    end
    assert.same(listing("ls src/ik2d_*.c src/lua/luaik_*.c"), c)
    local lua = {}
    for _, name in ipairs(api.modules.lua) do
      lua[name == "ik2d" and "lua/ik2d/init.lua" or "lua/" .. name:gsub("%.", "/") .. ".lua"] = true
    end
    assert.same(listing("ls lua/ik2d/*.lua lua/ik2d/*/*.lua"), lua)
  end)

  it("gives every module one version: the description's", function()
    assert.equal(api.version, ik2d._VERSION)
    for _, name in ipairs({ "ik2d.smooth", "ik2d.blend", "ik2d.behaviour", "ik2d.attach", "ik2d.gait" }) do
      assert.equal(api.version, require(name)._VERSION, name)
    end
    assert.truthy(read("src/ik2d.h"):find('#define IK2D_VERSION "' .. api.version .. '"', 1, true))
  end)

  it("names each status once, and gives each its own words or its own doc", function()
    local names, docs = {}, {}
    for _, s in ipairs(api.statuses) do
      assert.is_nil(names[s.name], s.name)
      assert.is_nil(docs[s.doc], s.doc)
      names[s.name], docs[s.doc] = true, true
    end
  end)
end)

describe("each backend's options (" .. ik2d.backend .. ")", function()
  local function described(def)
    local values = {}
    local function add(f)
      if not f.kind then return end
      local v = f.default
      if f.kind == "angle" or f.kind == "point" then v = false end
      if f.kind == "vector" then v = { 0, 0 } end
      values[f.option or f.name] = v
    end
    for _, f in ipairs(def.fields) do add(f) end
    for _, g in ipairs(def.groups or {}) do
      for _, f in ipairs(g.fields) do add(f) end
    end
    return values
  end

  it("a new solver's options are the description's defaults, every one of them", function()
    local s = ik2d.solver(ik2d.chain{ { length = 1 }, { length = 1 } })
    assert.same(described(api.solver), s:options())
  end)

  it("a new spring's options are the description's defaults, every one of them", function()
    local sp = ik2d.spring(ik2d.chain{ { length = 1 } })
    assert.same(described(api.spring), sp:options())
  end)

  it("refuses each checked option with the description's words", function()
    local s = ik2d.solver(ik2d.chain{ { length = 1 }, { length = 1 } })
    local bad = { iterations = 0, tolerance = -1, damping = -1, bend = 2, softness = -1,
                  stretch = 0.5, compress = 2, tip_weight = 2, priority = -1 }
    local words = {}
    for _, st in ipairs(api.statuses) do words[st.name] = st.words end
    local status_of = {}
    for _, g in ipairs(api.solver.groups) do
      for _, f in ipairs(g.fields) do status_of[f.name] = f.status end
    end
    for _, f in ipairs(api.solver.fields) do status_of[f.name] = f.status end
    for name, v in pairs(bad) do
      local ok, err = pcall(s.set_options, s, { [name] = v })
      assert.is_false(ok)
      assert.truthy(err:find(words[status_of[name]], 1, true), name .. ": " .. err)
    end
  end)
end)

