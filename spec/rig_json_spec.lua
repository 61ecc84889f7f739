-- ik2d.rig.json: lua-cjson, the system's dkjson and ik2d's vendored copy
-- of dkjson decode to the same tables (nulls, numbers, strings), and the
-- Spine reader makes the same description, bit for bit, from each: of
-- every spec rig and of the generated 67-bone rig.

local json = require "ik2d.rig.json"
local spine = require "ik2d.rig.spine"
local rig_helpers = require "spec.rig_helpers"

local NAMES = { "cjson", "dkjson", "vendored" }

-- the decoders there are here, by name
local function decoders()
  local out = {}
  for _, name in ipairs(NAMES) do
    local decode = json.decoder(name)
    if decode then out[#out + 1] = { name = name, decode = decode } end
  end
  return out
end

describe("ik2d.rig.json", function()
  it("prefers cjson, then the system's dkjson, then its own copy", function()
    local first
    for _, name in ipairs(NAMES) do
      if json.decoder(name) then first = first or name end
    end
    assert.are.equal(first, json.library)
    assert.is_function(json.decoder("vendored"))
  end)

  it("ships dkjson as Debian's lua-dkjson package has it, unchanged", function()
    local system = io.open("/usr/share/lua/5.1/dkjson.lua", "rb")
    if not system then
      pending("no system dkjson to compare with")
      return
    end
    local theirs = system:read("*a")
    system:close()
    local ours_file = assert(io.open(rig_helpers.folder .. "/../../lua/ik2d/vendor/dkjson.lua", "rb"))
    local ours = ours_file:read("*a")
    ours_file:close()
    assert.are.equal(theirs, ours)
    local licence = io.open(rig_helpers.folder .. "/../../lua/ik2d/vendor/dkjson-LICENSE.txt", "rb")
    assert.is_truthy(licence, "the licence beside the vendored copy")
    licence:close()
  end)

  it("decodes objects, arrays, nulls, numbers and strings to the same tables with every decoder", function()
    local text = [[ { "a": [ 1, null, 2.5e3, -0.125 ], "b": null, "c": "x\u00e9\n", "d": { "e": true, "f": false },
                     "g": 0.1, "h": 12345678901234567, "i": [], "j": {} } ]]
    for _, d in ipairs(decoders()) do
      local v = assert(d.decode(text))
      assert.are.equal(4, #v.a, d.name)
      assert.is_true(json.is_null(v.a[2]), d.name)
      assert.are.equal(2500, v.a[3])
      assert.are.equal(-0.125, v.a[4])
      assert.is_true(json.is_null(v.b), d.name)
      assert.are.equal("x\195\169\n", v.c)
      assert.are.same({ e = true, f = false }, v.d)
      assert.are.equal(0.1, v.g)
      -- Lua 5.4's dkjson keeps 12345678901234567 an integer, cjson a double:
      -- the readers make every number a double (spec: the same descriptions)
      assert.are.equal(12345678901234568, v.h + 0.0)
      assert.are.same({}, v.i)
      assert.are.same({}, v.j)
      assert.is_nil(getmetatable(v), d.name .. ": no metatable on objects")
      assert.is_nil(getmetatable(v.a), d.name .. ": no metatable on arrays")
    end
  end)

  it("refuses what is not one JSON value, with a message, every decoder", function()
    for _, d in ipairs(decoders()) do
      for _, text in ipairs({ '{"a": 1} x', "[1,", "NaN", "{'a': 1}", "" }) do
        local value, message = d.decode(text)
        assert.is_nil(value, d.name .. " " .. text)
        assert.is_string(message, d.name .. " " .. text)
      end
    end
  end)

  it("gives the same description of every spec rig with every decoder", function()
    local all = decoders()
    for _, rig in ipairs({ "bones", "constraints", "timelines", "meshes", "events" }) do
      local text = rig_helpers.text(rig)
      local first = spine.read(assert(all[1].decode(text)), rig .. ".json")
      for i = 2, #all do
        local other = spine.read(assert(all[i].decode(text)), rig .. ".json")
        local difference = rig_helpers.difference(first, other)
        assert(difference == nil, ("%s: %s against %s: %s"):format(rig, all[1].name, all[i].name,
                                                                   tostring(difference)))
      end
    end
  end)

  it("gives the same description of the generated 67-bone rig with every decoder", function()
    local gen = dofile(rig_helpers.folder .. "/../../bench/spine_rig_gen.lua")
    local text = gen.text({ animations = 2 })
    local all = decoders()
    local first = spine.read(assert(all[1].decode(text)), "generated.json")
    assert.are.equal(67, #first.bones)
    for i = 2, #all do
      local difference = rig_helpers.difference(first, spine.read(assert(all[i].decode(text)), "generated.json"))
      assert(difference == nil, ("%s against %s: %s"):format(all[1].name, all[i].name, tostring(difference)))
    end
  end)
end)
