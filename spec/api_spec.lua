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
    for _, name in ipairs({ "ik2d.smooth", "ik2d.blend", "ik2d.behaviour", "ik2d.attach", "ik2d.gait",
                            "ik2d.rig.spine", "ik2d.rig.source", "ik2d.rig.json", "ik2d.rig.float32",
                            "ik2d.rig.curves" }) do
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


describe("the build", function()
  -- the words of a Makefile variable's value, its continued lines too
  local function make_list(makefile, name)
    local value = makefile:match("\n" .. name .. " = (.-[^\\])\n")
    assert(value, "no " .. name .. " in the Makefile")
    local words = {}
    for word in value:gsub("\\\n", " "):gmatch("%S+") do words[#words + 1] = word end
    return words
  end

  it("compiles the description's C sources, in its order: the core's and the binding's", function()
    local makefile = read("Makefile")
    assert.same(api.modules.core, make_list(makefile, "CORE_SOURCES"))
    assert.same(api.modules.binding, make_list(makefile, "BINDING_SOURCES"))
  end)
end)

describe("each backend's checks, made from the description (" .. ik2d.backend .. ")", function()
  local words = {}
  for _, st in ipairs(api.statuses) do words[st.name] = st.words end
  for _, c in ipairs(api.constants) do
    for name, text in pairs(words) do words[name] = text:gsub("{" .. c.name .. "}", tostring(c.value)) end
  end

  local function constant(v)
    if type(v) ~= "string" then return v end
    for _, c in ipairs(api.constants) do
      if c.name == v then return c.value end
    end
  end

  -- values each part of a check refuses (whole ones, for a whole field)
  local function refused_values(check, whole)
    local list = {}
    if check.not_nan then list[#list + 1] = 0 / 0 end
    if check.nonzero then list[#list + 1] = 0 end
    if check.finite and not whole then list[#list + 1] = math.huge end
    if check.min then list[#list + 1] = constant(check.min) - 1 end
    if check.above then list[#list + 1] = constant(check.above) end
    if check.max then list[#list + 1] = constant(check.max) + 1 end
    if check.below then list[#list + 1] = constant(check.below) end
    if check.one_of then list[#list + 1] = 0 end
    return list
  end

  local function each_option(def, fn)
    for _, f in ipairs(def.fields) do fn(f) end
    for _, g in ipairs(def.groups or {}) do
      for _, f in ipairs(g.fields) do fn(f) end
    end
  end

  local function refuses_each(def, make)
    local count = 0
    each_option(def, function(f)
      if not (f.check and (f.kind == "number" or f.kind == "whole" or f.kind == "angle" or
                           f.kind == "number_or_array")) then
        return
      end
      for _, v in ipairs(refused_values(f.check, f.kind == "whole")) do
        local object = make()
        local ok, err = pcall(object.set_options, object, { [f.option or f.name] = v })
        assert.is_false(ok, f.name .. " = " .. tostring(v))
        assert.truthy(err:find(words[f.status], 1, true), f.name .. " = " .. tostring(v) .. ": " .. err)
        count = count + 1
      end
    end)
    return count
  end

  it("refuses every value a solver option's check refuses, with its status's words", function()
    local count = refuses_each(api.solver, function()
      return ik2d.solver(ik2d.chain{ { length = 1 }, { length = 1 } })
    end)
    assert.is_true(count >= 14, count)
  end)

  it("refuses every value a spring option's check refuses, with its status's words", function()
    local count = refuses_each(api.spring, function() return ik2d.spring(ik2d.chain{ { length = 1 } }) end)
    assert.is_true(count >= 6, count)
  end)

  -- each setter of several values, called with a colon (the argument
  -- numbers of Lua's errors do not count self there)
  local CALLS = {
    { api.solver, "tip_angle", function(o, ...) o:set_tip_angle(...) end, { 0, 1 } },
    { api.solver, "pole", function(o, ...) o:set_pole(...) end, { 0, 0 } },
    { api.solver, "aim", function(o, ...) o:set_aim(...) end, { 0, 0, 0 } },
    { api.spring, "gravity", function(o, ...) o:set_gravity(...) end, { 0, 0 } },
    { api.spring, "wind", function(o, ...) o:set_wind(...) end, { 0, 0 } },
  }

  it("blames the argument of the field a setter's status is about", function()
    for _, call in ipairs(CALLS) do
      local def, name, set, good = call[1], call[2], call[3], call[4]
      local fields = {}
      for _, g in ipairs(def.groups or {}) do
        if g.setter == name then
          for _, f in ipairs(g.fields) do
            if f.member ~= "enabled" then fields[#fields + 1] = f end
          end
        end
      end
      for _, f in ipairs(def.fields) do
        if f.option == name then
          for _, field_name in ipairs(f.vector) do
            for _, other in ipairs(def.fields) do
              if other.name == field_name then fields[#fields + 1] = other end
            end
          end
        end
      end
      assert.equal(#good, #fields, name)
      for k, f in ipairs(fields) do
        local values = { good[1], good[2], good[3] }
        values[k] = refused_values(f.check)[1]
        local object = def == api.solver and ik2d.solver(ik2d.chain{ { length = 1 }, { length = 1 } })
          or ik2d.spring(ik2d.chain{ { length = 1 } })
        local ok, err = pcall(set, object, values[1], values[2], values[3])
        assert.is_false(ok, name .. ": " .. f.name)
        assert.truthy(err:find(("bad argument #%d to 'set_%s' (%s"):format(k, name, words[f.status]), 1, true),
                      name .. ": " .. f.name .. ": " .. err)
      end
    end
  end)

  it("blames the solver for a rule a setter breaks", function()
    local s = ik2d.solver(ik2d.chain{ { length = 1 }, { length = 1 } })
    s:set_aim(0, 0, 0)
    local ok, err = pcall(function() s:set_tip_angle(0) end)
    assert.is_false(ok)
    assert.truthy(err:find("bad self (" .. words.AIM_TIP, 1, true), err)
  end)
end)
