-- The Spine 4.2 reader on the spec rigs (spec/rigs/, written for these
-- specs): the description field by field against numbers derived by hand.
-- Angles: degrees x DEG with DEG = 3.1415927 / 180, as Spine's runtimes
-- convert; timeline keys and Bézier samples rounded to 32-bit floats;
-- the samples of a Bézier at u = 0.1 .. 0.9 from its polynomial,
--   B(u) = (1 - u)^3 P0 + 3 (1 - u)^2 u P1 + 3 (1 - u) u^2 P2 + u^3 P3,
-- worked out as exact decimals in the comments.

local float32 = require "ik2d.rig.float32"
local rig_helpers = require "spec.rig_helpers"

local f32 = float32.round
local DEG = 3.1415927 / 180
-- Spine's y axis at (rotation + 90 + shearY) x DEG: 90 DEG past pi / 2
local Y_AXIS = 90 * DEG - math.pi / 2
local huge = math.huge

local function bone(desc, name)
  for _, b in ipairs(desc.bones) do if b.name == name then return b end end
  error("no bone " .. name)
end

-- 9 expected samples (t, v) each rounded to a float, v then times factor
local function samples(ts, vs, factor)
  local out = {}
  for k = 1, 9 do
    out[2 * k - 1] = f32(ts[k])
    out[2 * k] = f32(vs[k]) * (factor or 1)
  end
  return out
end

-- t from 0 to 1 with control times 0.25 and 0.75:
-- t(u) = 0.75 u (1 - u)^2 + 2.25 u^2 (1 - u) + u^3
local T_0_1 = { 0.082, 0.176, 0.279, 0.388, 0.5, 0.612, 0.721, 0.824, 0.918 }

describe("the Spine reader on spec/rigs/bones.json", function()
  local desc
  setup(function() desc = rig_helpers.describe("bones") end)

  it("says what the description is and where it came from", function()
    assert.are.equal(1, desc.ik2d)
    assert.are.equal("bones", desc.name)
    assert.are.same({ format = "spine", version = "4.2.22" }, desc.source)
    assert.is_true(desc.y_up)
    assert.are.same({ 1, 1 }, desc.scale)
    assert.are.same({}, desc.unsupported)
    assert.are.same({}, desc.solvers)
    assert.are.same({}, desc.constraints)
    assert.are.same({}, desc.order)
    assert.are.same({}, desc.clips)
    assert.are.same({}, desc.events)
  end)

  it("reads a bone with no fields as Spine's defaults, its y axis 2.3e-8 rad past a right angle", function()
    local root = desc.bones[1]
    assert.are.same({ name = "root", length = 0, x = 0, y = 0, angle = 0, scale_x = 1, scale_y = 1, shear_x = 0,
                      shear_y = Y_AXIS, inherit = "all" }, root)
    assert.near(2.3205e-8, root.shear_y, 1e-12)
  end)

  it("converts rotation and shears with Spine's pi and keeps scale, length and position", function()
    local body = bone(desc, "body")
    assert.are.equal("root", body.parent)
    assert.are.equal(50, body.length)
    assert.are.equal(10, body.x)
    assert.are.equal(20, body.y)
    assert.are.equal(30 * DEG, body.angle)
    assert.near(math.rad(30), body.angle, 1e-7)
    assert.are.equal(2, body.scale_x)
    assert.are.equal(0.5, body.scale_y)
    assert.are.equal(15 * DEG, body.shear_x)
    assert.are.equal(-45 * DEG + Y_AXIS, body.shear_y)
    assert.are.equal("all", body.inherit)
    -- the local matrix's y axis as Spine writes it: b = cos((r + 90 + hy) DEG) sy
    assert.near(math.cos((30 + 90 - 45) * DEG) * 0.5, math.cos(body.angle + math.pi / 2 + body.shear_y) * 0.5, 1e-16)
    assert.near(math.sin((30 + 90 - 45) * DEG) * 0.5, math.sin(body.angle + math.pi / 2 + body.shear_y) * 0.5, 1e-16)
  end)

  it("maps each of the five inherit modes", function()
    assert.are.equal("all", bone(desc, "body").inherit)
    assert.are.equal("position", bone(desc, "position only").inherit)
    assert.are.equal(90 * DEG, bone(desc, "position only").angle)
    assert.are.equal("no_rotation_or_reflection", bone(desc, "no rotation").inherit)
    assert.are.equal(-3.5, bone(desc, "no rotation").x)
    assert.are.equal("no_scale", bone(desc, "no scale").inherit)
    assert.are.equal(-1, bone(desc, "no scale").scale_x)
    assert.are.equal("no_scale_or_reflection", bone(desc, "no scale or reflection").inherit)
    assert.are.equal(7.25, bone(desc, "no scale or reflection").y)
  end)

  it("keeps skin bones and the editor's colour", function()
    assert.is_true(bone(desc, "no scale or reflection").skin)
    assert.is_nil(bone(desc, "body").skin)
    assert.are.same({ 1, 128 / 255, 0, 1 }, bone(desc, "tinted").color)
    assert.are.equal(-180 * DEG, bone(desc, "tinted").angle)
    assert.is_nil(bone(desc, "body").color)
  end)

  it("reads slots in draw order: bone, attachment, colour RRGGBBAA, dark RRGGBB, blend", function()
    assert.are.same({
      { name = "front", bone = "body", attachment = "front", color = { 1, 0, 0, 128 / 255 }, dark = { 0, 0, 1 },
        blend = "additive" },
      { name = "back", bone = "root", color = { 1, 1, 1, 1 }, blend = "normal" },
      { name = "darker", bone = "tinted", color = { 1, 1, 1, 1 }, blend = "multiply" },
      { name = "lighter", bone = "tinted", color = { 1, 1, 1, 1 }, blend = "screen" },
    }, desc.slots)
  end)

  it("reads a region with Spine's defaults", function()
    assert.are.same({ { name = "default", attachments = { front = { front = {
      type = "region", path = "front", x = 0, y = 0, angle = 0, scale_x = 1, scale_y = 1, width = 20, height = 10,
      color = { 1, 1, 1, 1 } } } } } }, desc.skins)
  end)
end)

describe("the Spine reader on spec/rigs/constraints.json", function()
  local desc
  setup(function() desc = rig_helpers.describe("constraints") end)

  it("makes a two-bone IK constraint a two_bone solver with Spine's settings", function()
    assert.are.same({
      name = "leg", bones = { "thigh", "shin" }, target = { bone = "foot target", x = 0, y = 0 },
      method = "two_bone", weight = 0.75, bend = -1, softness = 5, softness_curve = "spine",
      stretch = huge, compress = 1, uniform = true,
    }, desc.solvers[1])
  end)

  it("makes a one-bone IK constraint a one-bone solver, compress on, skin required", function()
    assert.are.same({
      name = "aim", bones = { "arm" }, target = { bone = "hand target", x = 0, y = 0 },
      method = "ccd", weight = 1, bend = 1, softness = 0, softness_curve = "spine",
      stretch = 1, compress = 0, uniform = false, skin = true,
    }, desc.solvers[2])
  end)

  it("reads a local relative transform constraint: mixes (mixY from mixX), offsets in radians", function()
    assert.are.same({
      name = "follow", bones = { "follower" }, target = "leader",
      mix_rotate = 0.5, mix_x = 0.25, mix_y = 0.25, mix_scale_x = 0, mix_scale_y = 0, mix_shear_y = 1,
      offset_rotation = 90 * DEG, offset_x = 5, offset_y = -5, offset_scale_x = 0.5, offset_scale_y = -0.25,
      offset_shear_y = 30 * DEG, relative = true, ["local"] = true,
    }, desc.constraints[1])
  end)

  it("reads a world absolute transform constraint with the defaults", function()
    assert.are.same({
      name = "plain", bones = { "hair", "cape" }, target = "leader",
      mix_rotate = 1, mix_x = 1, mix_y = 1, mix_scale_x = 1, mix_scale_y = 1, mix_shear_y = 1,
      offset_rotation = 0, offset_x = 0, offset_y = 0, offset_scale_x = 0, offset_scale_y = 0,
      offset_shear_y = 0, relative = false, ["local"] = false,
    }, desc.constraints[2])
  end)

  it("orders the constraints by their order across kinds", function()
    assert.are.same({ { "solver", "aim" }, { "constraint", "follow" }, { "solver", "leg" },
                      { "constraint", "plain" } }, desc.order)
  end)

  it("lists path and physics constraints as not played, and reads the rest", function()
    assert.are.same({ 'path constraint "along the cloth": not played',
                      'physics constraint "hair swing": not played' }, desc.unsupported)
    assert.are.equal(10, #desc.bones)
  end)

  it("puts the default skin first and reads a skin's bones and constraints", function()
    assert.are.equal("default", desc.skins[1].name)
    assert.are.same({ name = "armored", bones = { "cape" }, solvers = { "aim" }, constraints = { "plain" },
                      attachments = {} }, desc.skins[2])
    assert.is_true(bone(desc, "cape").skin)
  end)
end)

describe("the Spine reader on spec/rigs/timelines.json", function()
  local desc
  setup(function() desc = rig_helpers.describe("timelines") end)

  it("reads rotate keys as radians of 32-bit degrees, a Bézier as nine samples, then stepped and linear", function()
    local rotate = desc.clips.bones.bones.arm.rotate
    assert.are.equal(1, rotate.channels)
    assert.are.same({ 0, 1, 1.5 }, rotate.times)
    assert.are.same({ 10 * DEG, 50 * DEG, -30 * DEG }, rotate.values)
    -- v(u) = 10 (1 - u)^3 + 60 (1 - u)^2 u + 120 (1 - u) u^2 + 50 u^3
    local v = { 13.28, 17.04, 21.16, 25.52, 30, 34.48, 38.84, 42.96, 46.72 }
    assert.are.same({ samples(T_0_1, v, DEG) }, rotate.curves[1])
    assert.are.equal("stepped", rotate.curves[2])
    assert.are.equal("linear", rotate.curves[3])
    assert.are.equal(1.5, desc.clips.bones.duration)
  end)

  it("splits translate into x and y, each with its own channel of the curve", function()
    local arm = desc.clips.bones.bones.arm
    assert.are.same({ 0, 0.5 }, arm.x.times)
    assert.are.same({ 5, 10 }, arm.x.values)
    assert.are.same({ -5, -10 }, arm.y.values)
    -- t(u) = 0.375 (1 - u)^2 u + 1.125 (1 - u) u^2 + 0.5 u^3; x(u) = 5 + 5 (3 u^2 - 2 u^3), y = -x
    local t = { 0.041, 0.088, 0.1395, 0.194, 0.25, 0.306, 0.3605, 0.412, 0.459 }
    local x = { 5.14, 5.52, 6.08, 6.76, 7.5, 8.24, 8.92, 9.48, 9.86 }
    local y = {}
    for k = 1, 9 do y[k] = -x[k] end
    assert.are.same({ samples(t, x) }, arm.x.curves[1])
    assert.are.same({ samples(t, y) }, arm.y.curves[1])
    assert.are.same({ "linear", "linear" }, { arm.x.curves[2], arm.y.curves[2] })
  end)

  it("reads scale keys with 1 for what a key leaves out, shear keys in radians with no y axis offset", function()
    local arm = desc.clips.bones.bones.arm
    assert.are.same({ 0, f32(0.1) }, arm.scale_x.times)
    assert.are.same({ 2, 1 }, arm.scale_x.values)
    assert.are.same({ 1, 3 }, arm.scale_y.values)
    assert.are.same({ 30 * DEG }, arm.shear_x.values)
    assert.are.same({ -15 * DEG }, arm.shear_y.values)
  end)

  it("reads inherit keys as a stepped timeline, normal where a key says nothing", function()
    assert.are.same({ channels = 1, times = { 0, 0.5 }, values = { "no_scale", "all" } },
                    desc.clips.bones.bones.arm.inherit)
  end)

  it("reads the one-value bone timelines", function()
    local split = desc.clips.bones.bones.split
    assert.are.same({ 1.5 }, split.x.values)
    assert.are.same({ 0.25 }, split.y.times)
    assert.are.same({ -1.5 }, split.y.values)
    assert.are.same({ 0.5 }, split.scale_x.values)
    assert.are.same({ 1 }, split.scale_y.values)
    assert.are.same({ 45 * DEG }, split.shear_x.values)
    assert.are.same({ 90 * DEG }, split.shear_y.values)
  end)

  it("reads attachment keys, a null or absent name being none (false)", function()
    assert.are.same({ channels = 1, times = { 0, 0.5, 0.75 }, values = { "fist", false, false } },
                    desc.clips.slots.slots.hand.attachment)
  end)

  it("reads rgba keys as 4 channels of 32-bit colours, each with its Bézier", function()
    local color = desc.clips.slots.slots.hand.color
    local half = f32(128 / 255)
    assert.are.equal(4, color.channels)
    assert.are.same({ 0, 1 }, color.times)
    assert.are.same({ 1, 0, 0, half, 0, 1, 0, 1 }, color.values)
    -- r from 1 to 0 through (1, 1): 1 - u^3; g from 0 to 1 through (0, 1): 3 u^2 - 2 u^3;
    -- b from 0 to 0 through (0, 0): 0; a from half to 1 through (0.5, 0.25)
    local r = { 0.999, 0.992, 0.973, 0.936, 0.875, 0.784, 0.657, 0.488, 0.271 }
    local g = { 0.028, 0.104, 0.216, 0.352, 0.5, 0.648, 0.784, 0.896, 0.972 }
    local b, a = {}, {}
    for k = 1, 9 do
      local u = k / 10
      b[k] = 0
      a[k] = half * (1 - u) ^ 3 + 1.5 * (1 - u) ^ 2 * u + 0.75 * (1 - u) * u ^ 2 + u ^ 3
    end
    local curve = color.curves[1]
    assert.are.same(samples(T_0_1, r), curve[1])
    assert.are.same(samples(T_0_1, g), curve[2])
    assert.are.same(samples(T_0_1, b), curve[3])
    for k = 1, 9 do assert.near(a[k], curve[4][2 * k], 6e-8) end
  end)

  it("reads rgb and alpha keys as their own timelines", function()
    local glow = desc.clips.slots.slots.glow
    assert.are.same({ f32(0x33 / 255), f32(0x66 / 255), f32(0x99 / 255) }, glow.rgb.values)
    assert.are.equal(3, glow.rgb.channels)
    assert.are.same({ 0, 0.5 }, glow.alpha.times)
    assert.are.same({ 0.5, 0 }, glow.alpha.values)
    assert.is_nil(glow.color)
  end)

  it("splits two-colour keys into the colour and the dark colour", function()
    local tint = desc.clips.slots.slots.tint
    local half = f32(128 / 255)
    assert.are.same({ 1, 1, 1, 1, half, half, half, half }, tint.color.values)
    assert.are.same({ 0, 0, 0, 1, 0, 0 }, tint.dark.values)
    local rgb2 = desc.clips.slots.slots["tint rgb"]
    assert.are.same({ 1, 1, 1, 0, 0, 0 }, rgb2.rgb.values)
    assert.are.same({ f32(0x10 / 255), f32(0x20 / 255), f32(0x30 / 255), 0, 0, 0 }, rgb2.dark.values)
    assert.are.same({ "stepped", "linear" }, rgb2.rgb.curves)
    assert.are.same({ "stepped", "linear" }, rgb2.dark.curves)
  end)

  it("reads IK keys: mix and softness as curves, bend, compress and stretch stepped, defaults filled", function()
    local reach = desc.clips.constraints.solvers.reach
    assert.are.same({ 0.5, 1 }, reach.weight.values)
    assert.are.same({ 2, 0 }, reach.softness.values)
    assert.are.same({ channels = 1, times = { 0, 1 }, values = { -1, 1 } }, reach.bend)
    assert.are.same({ channels = 1, times = { 0, 1 }, values = { 0, 1 } }, reach.compress)
    assert.are.same({ channels = 1, times = { 0, 1 }, values = { huge, 1 } }, reach.stretch)
    -- mix 0.5 -> 1 through (0.5, 1): 0.5 + 0.5 (3 u^2 - 2 u^3);
    -- softness 2 -> 0 through (2, 3): 2 (1 - u)^3 + 6 (1 - u)^2 u + 9 (1 - u) u^2
    local w = { 0.514, 0.552, 0.608, 0.676, 0.75, 0.824, 0.892, 0.948, 0.986 }
    local s = { 2.025, 2.08, 2.135, 2.16, 2.125, 2, 1.755, 1.36, 0.785 }
    assert.are.same({ samples(T_0_1, w) }, reach.weight.curves[1])
    assert.are.same({ samples(T_0_1, s) }, reach.softness.curves[1])
  end)

  it("reads transform keys: six mixes, mixY from mixX and mixScaleY from mixScaleX where left out", function()
    local copy = desc.clips.constraints.constraints.copy
    assert.are.same({ 0.5, 1 }, copy.mix_rotate.values)
    assert.are.same({ 0.25, 1 }, copy.mix_x.values)
    assert.are.same({ 0.25, 0.5 }, copy.mix_y.values)
    assert.are.same({ 0.75, 1 }, copy.mix_scale_x.values)
    assert.are.same({ 0.75, 1 }, copy.mix_scale_y.values)
    assert.are.same({ 0, 1 }, copy.mix_shear_y.values)
    assert.are.same({ "stepped", "linear" }, copy.mix_shear_y.curves)
  end)
end)

describe("the Spine reader on spec/rigs/meshes.json", function()
  local desc, default, red
  setup(function()
    desc = rig_helpers.describe("meshes")
    default, red = desc.skins[1], desc.skins[2]
  end)

  it("puts the default skin first", function()
    assert.are.equal("default", default.name)
    assert.are.equal("red", red.name)
  end)

  it("reads an unweighted mesh with 1-based triangles", function()
    assert.are.same({
      type = "mesh", path = "body", uvs = { 0, 0, 1, 0, 1, 1, 0, 1 }, triangles = { 1, 2, 3, 3, 4, 1 },
      vertices = { -10, -10, 10, -10, 10, 10, -10, 10 }, hull = 4, width = 20, height = 20,
      color = { 1, 1, 1, 0xcc / 255 },
    }, default.attachments.body.body)
  end)

  it("reads a weighted mesh: n, then bone (1-based), x, y, weight for each of n, a vertex", function()
    assert.are.same({
      type = "mesh", path = "skin", uvs = { 0, 0, 1, 0, 0, 1 }, triangles = { 1, 2, 3 },
      weights = { 1, 2, -5, 0, 1, 2, 2, 5, 0, 0.5, 3, 5, 0, 0.5, 1, 3, 0, 8, 1 }, hull = 3, width = 0, height = 0,
      color = { 1, 1, 1, 1 },
    }, default.attachments.body.skinned)
  end)

  it("resolves linked meshes to their parent's skin, default when none is named", function()
    assert.are.same({ type = "linkedmesh", path = "body-red", parent = "body", skin = "default", deform = false,
                      color = { 1, 1, 1, 1 }, width = 0, height = 0 }, red.attachments.body.body)
    assert.are.same({ type = "linkedmesh", path = "skinned", parent = "skinned", skin = "default", deform = true,
                      color = { 1, 1, 1, 1 }, width = 4, height = 2 }, red.attachments.body.skinned)
  end)

  it("reads regions, bounding boxes, points, clippings and paths", function()
    assert.are.same({ type = "region", path = "arm-sleeve", x = 5, y = 1, angle = 90 * DEG, scale_x = 1.5,
                      scale_y = 0.5, width = 30, height = 12, color = { 1, 1, 1, 128 / 255 } },
                    default.attachments.arm.sleeve)
    assert.are.same({ type = "boundingbox", vertices = { 0, 0, 10, 0, 0, 10 } }, default.attachments.box.box)
    assert.are.same({ type = "point", x = 20, y = 2, angle = 45 * DEG }, default.attachments.muzzle.flash)
    assert.are.same({ type = "clipping", ["end"] = "muzzle",
                      weights = { 1, 1, 0, 0, 1, 1, 2, 10, 0, 1, 1, 3, 0, 10, 1 } }, default.attachments.mask.mask)
    assert.are.same({ type = "path", closed = false, constant_speed = true, lengths = { 10, 20 },
                      vertices = { 0, 0, 1, 1, 2, 2, 3, 3, 4, 4, 5, 5 } }, default.attachments.route.route)
    assert.are.same({ 'clipping attachment "mask" (skin "default", slot "mask"): not drawn' }, desc.unsupported)
  end)

  it("reads deform keys as whole offset lists from their offset, the curve as shares of the way", function()
    local body = desc.clips.breathe.deform.default.body.body
    assert.are.same({ 0, 0.5, 1 }, body.times)
    assert.are.same({ { 0, 0, 0, 0, 0, 0, 0, 0 }, { 0, 0, 1, 2, 0, 0, 0, 0 },
                      { 0.5, 0.5, 0.5, 0.5, 0.5, 0.5, 0.5, 0.5 } }, body.offsets)
    -- t from 0.5 to 1 through (0.625, 0.75): 0.5 (1 - u)^3 + 1.875 (1 - u)^2 u + 2.25 (1 - u) u^2 + u^3;
    -- the share from 0 to 1 through (0.375, 0.875): 1.125 (1 - u)^2 u + 2.625 (1 - u) u^2 + u^3
    local t = { 0.537625, 0.576, 0.615875, 0.658, 0.703125, 0.752, 0.805375, 0.864, 0.928625 }
    local p = { 0.11575, 0.236, 0.35775, 0.478, 0.59375, 0.702, 0.79975, 0.884, 0.95175 }
    assert.are.same({ "linear", { samples(t, p) }, "linear" }, body.curves)
  end)

  it("sizes a weighted mesh's deform keys by its bones, a linked mesh's by its parent's", function()
    local clip = desc.clips.breathe
    assert.are.same({ { 0, 0, 0, 0, 0, 0, 3, 4 } }, clip.deform.default.body.skinned.offsets)
    assert.are.same({ { 1, 0, 0, 0, 0, 0, 0, 0 } }, clip.deform.red.body.skinned.offsets)
    assert.are.equal(1, clip.duration)
  end)
end)

describe("the Spine reader on spec/rigs/events.json", function()
  local desc
  setup(function() desc = rig_helpers.describe("events") end)

  it("reads event definitions with their defaults", function()
    assert.are.same({
      step = { int = 1, float = 0.5, string = "left", audio = "step.ogg", volume = 0.8, balance = -0.5 },
      hit = { int = 0, float = 0, string = "", volume = 1, balance = 0 },
    }, desc.events)
  end)

  it("reads event keys, two at one time, each filled from its definition", function()
    assert.are.same({
      { time = 0.25, name = "step", int = 1, float = 0.5, string = "left", volume = 0.8, balance = -0.5 },
      { time = 0.25, name = "hit", int = 3, float = 0, string = "", volume = 1, balance = 0 },
      { time = 0.75, name = "step", int = 1, float = 2, string = "right", volume = 0.5, balance = 0.5 },
    }, desc.clips.walk.events)
  end)

  it("turns draw order offsets into whole orders: moved slots placed, the others in setup order", function()
    -- a (1) two places on to 3, d (4) two back to 2; b and c fill 1 and 4
    -- then d three back to 1; a, b, c follow
    assert.are.same({ { time = 0 }, { time = 0.5, order = { 2, 4, 1, 3 } }, { time = 1.25, order = { 4, 1, 2, 3 } } },
                    desc.clips.walk.draw_order)
    assert.are.equal(1.25, desc.clips.walk.duration)
  end)

  it("reads an empty animation as a clip of no time", function()
    assert.are.same({ name = "still", duration = 0, bones = {}, slots = {}, solvers = {}, constraints = {},
                      deform = {}, draw_order = {}, events = {} }, desc.clips.still)
  end)
end)
