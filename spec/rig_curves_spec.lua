-- ik2d.rig.curves: Spine's Bézier sampled at u = 0.1 .. 0.9 into 32-bit
-- floats, and a timeline of the description read by straight lines
-- between its keys and samples, as Spine's runtimes read it.

local curves = require "ik2d.rig.curves"
local float32 = require "ik2d.rig.float32"
local spine = require "ik2d.rig.spine"

local f32 = float32.round

describe("ik2d.rig.curves.bezier", function()
  it("samples the cubic at u = 0.1 .. 0.9, each coordinate a 32-bit float", function()
    -- from (0, 0) through (0, 0) and (1, 1) to (1, 1): t = v = 3 u^2 - 2 u^3
    local s = { 0.028, 0.104, 0.216, 0.352, 0.5, 0.648, 0.784, 0.896, 0.972 }
    local points = curves.bezier(0, 0, 0, 0, 1, 1, 1, 1)
    assert.are.equal(18, #points)
    for k = 1, 9 do
      assert.are.equal(f32(s[k]), points[2 * k - 1])
      assert.are.equal(f32(s[k]), points[2 * k])
    end
  end)

  it("keeps a straight line straight: control points a third of the way give u itself", function()
    -- t from 2 to 5 through 3 and 4: t = 2 + 3 u; v from 10 to -20 through 0 and -10: v = 10 - 30 u
    local points = curves.bezier(2, 10, 3, 0, 4, -10, 5, -20)
    for k = 1, 9 do
      assert.are.equal(f32(2 + 3 * k / 10), points[2 * k - 1])
      assert.near(10 - 30 * k / 10, points[2 * k], 1e-6)
    end
  end)

  it("samples what the reader gives it: a file's control points rounded to 32-bit floats first", function()
    local desc = spine.read({
      skeleton = { spine = "4.2.0" }, bones = { { name = "root" } },
      animations = { a = { bones = { root = { translatex = {
        { time = 0, value = 0, curve = { 0.1, 0.3, 0.2, 0.7 } }, { time = 0.3, value = 1 } } } } } },
    }, "x.json")
    local x = desc.clips.a.bones.root.x
    assert.are.same({ curves.bezier(0, 0, f32(0.1), f32(0.3), f32(0.2), f32(0.7), f32(0.3), 1) }, x.curves[1])
    assert.are_not.same({ curves.bezier(0, 0, 0.1, 0.3, 0.2, 0.7, f32(0.3), 1) }, x.curves[1])
  end)
end)

describe("ik2d.rig.curves.value_at", function()
  local timeline = {
    channels = 2,
    times = { 0, 1, 2, 3 },
    values = { 0, 10, 4, 20, 8, 30, 0, 0 },
    curves = { "linear", "stepped", { { 2.5, 4, 2.75, 8 }, { 2.5, 30, 2.75, 0 } }, "linear" },
  }

  it("is nil before the first key and the last key's value from its time on", function()
    assert.is_nil(curves.value_at(timeline, -0.5))
    assert.are.equal(0, curves.value_at(timeline, 3))
    assert.are.equal(0, curves.value_at(timeline, 9, 2))
  end)

  it("reads a linear segment by a straight line, for each channel", function()
    assert.are.equal(1, curves.value_at(timeline, 0.25))
    assert.are.equal(12.5, curves.value_at(timeline, 0.25, 2))
    assert.are.equal(4, curves.value_at(timeline, 1))
  end)

  it("holds a stepped segment's value to the next key", function()
    assert.are.equal(4, curves.value_at(timeline, 1.999))
    assert.are.equal(20, curves.value_at(timeline, 1.5, 2))
  end)

  it("reads a sampled segment by straight lines through its points", function()
    -- from (2, 8) to (2.5, 4): halfway at 2.25 is 6; (2.5, 4) to (2.75, 8); (2.75, 8) to (3, 0)
    assert.are.equal(6, curves.value_at(timeline, 2.25))
    assert.are.equal(4, curves.value_at(timeline, 2.5))
    assert.are.equal(6, curves.value_at(timeline, 2.625))
    assert.are.equal(4, curves.value_at(timeline, 2.875))
    -- the second channel: (2, 30) to (2.5, 30) to (2.75, 0) to (3, 0)
    assert.are.equal(30, curves.value_at(timeline, 2.25, 2))
    assert.are.equal(15, curves.value_at(timeline, 2.625, 2))
    assert.are.equal(0, curves.value_at(timeline, 2.875, 2))
  end)

  it("holds a stepped timeline (no curves) at each key's value", function()
    local stepped = { channels = 1, times = { 0, 0.5 }, values = { "open", false } }
    assert.are.equal("open", curves.value_at(stepped, 0.49))
    assert.is_false(curves.value_at(stepped, 0.5))
  end)

  it("answers a deform timeline's share of the way and the key it starts from", function()
    local deform = { times = { 0, 1 }, curves = { "linear", "linear" }, offsets = { { 0, 0 }, { 1, 1 } } }
    local share, key = curves.value_at(deform, 0.25)
    assert.are.equal(0.25, share)
    assert.are.equal(1, key)
    share, key = curves.value_at(deform, 1)
    assert.are.equal(0, share)
    assert.are.equal(2, key)
  end)
end)
