-- ik2d.rig.source: a rig from a path (io.open, or love.filesystem inside
-- LÖVE), a JSON text or a decoded table; the format told from what the
-- file has; the description of a Spine file, or a message.

local source = require "ik2d.rig.source"
local json = require "ik2d.rig.json"
local rig_helpers = require "spec.rig_helpers"

local SMALL = '{"skeleton":{"spine":"4.2.3"},"bones":[{"name":"root"},{"name":"hip","parent":"root"}]}'

describe("ik2d.rig.source.open", function()
  it("reads a path ending in .json", function()
    local decoded, name = source.open(rig_helpers.path("bones"))
    assert.are.equal(rig_helpers.path("bones"), name)
    assert.are.equal("4.2.22", decoded.skeleton.spine)
  end)

  it("takes a string starting with { as a JSON text", function()
    local decoded, name = source.open("  \n" .. SMALL)
    assert.are.equal("<json text>", name)
    assert.are.equal("hip", decoded.bones[2].name)
  end)

  it("takes a table as decoded", function()
    local t = { skeleton = { spine = "4.2.3" } }
    local decoded, name = source.open(t)
    assert.are.equal(t, decoded)
    assert.are.equal("<table>", name)
  end)

  it("reads through love.filesystem inside LÖVE", function()
    local asked
    local saved = rawget(_G, "love")
    rawset(_G, "love", { filesystem = { read = function(path) asked = path return SMALL end } })
    local ok, decoded, name = pcall(source.open, "rigs/hero.json")
    rawset(_G, "love", saved)
    assert.is_true(ok, decoded)
    assert.are.equal("rigs/hero.json", asked)
    assert.are.equal("rigs/hero.json", name)
    assert.are.equal("hip", decoded.bones[2].name)
  end)

  it("falls back to io.open for a path LÖVE's file system does not have", function()
    local saved = rawget(_G, "love")
    rawset(_G, "love", { filesystem = { read = function() return nil, "not found" end } })
    local ok, decoded = pcall(source.open, rig_helpers.path("events"))
    rawset(_G, "love", saved)
    assert.is_true(ok, decoded)
    assert.are.equal(4, #decoded.slots)
  end)

  it("says why a file cannot be read, a text is not JSON, a source is neither", function()
    local decoded, message = source.open("/nowhere/hero.json")
    assert.is_nil(decoded)
    assert.matches("^/nowhere/hero.json: cannot be read: ", message)
    decoded, message = source.open('{"a": ')
    assert.is_nil(decoded)
    assert.matches("^<json text>: not JSON: .", message)
    decoded, message = source.open("hero.png")
    assert.is_nil(decoded)
    assert.are.equal('source must be a path ending in .json, a JSON text or a decoded table, got "hero.png"', message)
    decoded, message = source.open(42)
    assert.is_nil(decoded)
    assert.are.equal("source must be a path ending in .json, a JSON text or a decoded table, got number", message)
  end)
end)

describe("ik2d.rig.source.format", function()
  it("tells Spine by skeleton.spine, DragonBones by armature and version or frameRate, ik2d by ik2d", function()
    assert.are.equal("spine", source.format({ skeleton = { spine = "4.2.1" } }))
    assert.are.equal("spine", source.format({ skeleton = { spine = "3.8.99" } }))
    assert.are.equal("dragonbones", source.format({ armature = {}, version = "5.5" }))
    assert.are.equal("dragonbones", source.format({ armature = {}, frameRate = 24 }))
    assert.are.equal("ik2d", source.format({ ik2d = 1, bones = {} }))
    assert.is_nil(source.format({ armature = {} }))
    assert.is_nil(source.format({ skeleton = {} }))
    assert.is_nil(source.format({ skeleton = { spine = json.null } }))
    assert.is_nil(source.format({ 1, 2 }))
    assert.is_nil(source.format("spine"))
  end)
end)

describe("ik2d.rig.source.describe", function()
  it("describes a Spine file from a path, a text or a table alike", function()
    local from_path = assert(source.describe(rig_helpers.path("constraints")))
    local from_text = assert(source.describe(rig_helpers.text("constraints")))
    local from_table = assert(source.describe(assert(json.decode(rig_helpers.text("constraints")))))
    assert.are.equal("constraints", from_path.name)
    from_path.name = nil
    assert.is_nil(rig_helpers.difference(from_path, from_text))
    assert.is_nil(rig_helpers.difference(from_path, from_table))
  end)

  it("names the file in a reader's message", function()
    local _, message = source.describe((SMALL:gsub('"root"}', '"root","length":-1}')))
    assert.are.equal('<json text>: bones[1] "root": length must be >= 0, got -1', message)
  end)

  it("says what a file that is no rig is, refuses an empty DragonBones file and an ik2d file of no bones",
      function()
    local _, message = source.describe('{"name": "hero"}')
    assert.are.equal("<json text>: not a rig ik2d reads (a Spine file has skeleton.spine, a DragonBones file "
                     .. "armature and version, an ik2d rig ik2d)", message)
    _, message = source.describe({ armature = {}, version = "5.5" })
    assert.are.equal("<table>: armature: missing: the file has no armature", message)
    _, message = source.describe({ ik2d = 1 })
    assert.are.equal("<table>: bones is missing", message)
    _, message = source.describe(SMALL, { format = "spline" })
    assert.are.equal('options.format must be "spine", "dragonbones" or "ik2d", got "spline"', message)
  end)

  it("reads a file as the format asked for", function()
    local _, message = source.describe({ ik2d = 1, skeleton = { spine = "4.2.0" }, bones = { { name = "a" } } },
                                       { format = "spine" })
    assert.is_nil(message)
  end)
end)
