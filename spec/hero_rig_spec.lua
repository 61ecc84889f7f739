-- The demo character (examples/hero/assets/): its Spine 4.2 JSON read by
-- ik2d's Spine reader, and what the examples and specs rely on it for:
-- every kind of bone, slot, attachment, constraint and timeline the
-- reader takes; a setup pose that its IK and transform constraints keep;
-- a walk that loops in one second with a footstep on each heel contact;
-- an atlas that has every image the skins name; and files that are what
-- examples/hero/tools/make_hero.lua writes.

local spine = require "ik2d.rig.spine"
local json = require "ik2d.rig.json"
local curves = require "ik2d.rig.curves"

local here = debug.getinfo(1, "S").source:match("^@(.*)[/\\][^/\\]*$") or "spec"
local root = here .. "/.."
local assets = root .. "/examples/hero/assets/"
local tools = root .. "/examples/hero/tools/"

local DEG = 3.1415927 / 180
local cos, sin, atan2, pi = math.cos, math.sin, math.atan2 or math.atan, math.pi

local function read(path)
  local file = assert(io.open(path, "rb"))
  local text = file:read("*a")
  file:close()
  return text
end

local function by_name(list)
  local out = {}
  for i, item in ipairs(list) do out[item.name] = item out[item.name].place = i end
  return out
end

local function wrap(a)
  a = (a + pi) % (2 * pi)
  return a - pi
end

-- setup world matrices of bones that inherit everything (the body's
-- chains), as docs/rig-format.md writes the local matrix
local function world(bones, name)
  local b = bones[name]
  local a = cos(b.angle + b.shear_x) * b.scale_x
  local c = sin(b.angle + b.shear_x) * b.scale_x
  local bb = cos(b.angle + pi / 2 + b.shear_y) * b.scale_y
  local d = sin(b.angle + pi / 2 + b.shear_y) * b.scale_y
  if not b.parent then return { a = a, b = bb, c = c, d = d, x = b.x, y = b.y } end
  assert(b.inherit == "all", name .. " inherits all of its parent")
  local p = world(bones, b.parent)
  return { a = p.a * a + p.b * c, b = p.a * bb + p.b * d, c = p.c * a + p.d * c, d = p.c * bb + p.d * d,
           x = p.a * b.x + p.b * b.y + p.x, y = p.c * b.x + p.d * b.y + p.y }
end

local function tip(bones, name)
  local m = world(bones, name)
  return m.a * bones[name].length + m.x, m.c * bones[name].length + m.y
end

local function angle(m) return atan2(m.c, m.a) end

describe("the hero (examples/hero/assets/hero.json)", function()
  local text, desc, bones, slots, skins, solvers, constraints

  setup(function()
    text = read(assets .. "hero.json")
    desc = spine.read(assert(json.decode(text)), "hero.json")
    bones, slots, skins = by_name(desc.bones), by_name(desc.slots), by_name(desc.skins)
    solvers, constraints = by_name(desc.solvers), by_name(desc.constraints)
  end)

  it("is a Spine 4.2 file the reader takes whole, nothing left unplayed, under 200 KB", function()
    assert.are.same({ format = "spine", version = "4.2.22" }, desc.source)
    assert.are.equal("hero", desc.name)
    assert.are.same({}, desc.unsupported)
    assert.is_true(#text < 200 * 1024)
  end)

  it("has a side-view biped's bones, about 200 tall, the feet on the ground", function()
    for _, name in ipairs({ "root", "hip", "spine", "chest", "neck", "head", "upper_arm_front", "forearm_front",
                            "hand_front", "upper_arm_back", "forearm_back", "hand_back", "thigh_front",
                            "shin_front", "foot_front", "toe_front", "thigh_back", "shin_back", "foot_back",
                            "toe_back" }) do
      assert.is_truthy(bones[name], name)
    end
    assert.are.equal(32, #desc.bones)
    local _, neck_top = tip(bones, "neck")
    local head = world(bones, "head")
    assert.is_true(neck_top > 160 and neck_top < 175)
    assert.near(1.05, math.sqrt(head.a * head.a + head.c * head.c), 1e-6)
    for _, side in ipairs({ "front", "back" }) do
      local _, toe_y = tip(bones, "toe_" .. side)
      assert.is_true(toe_y > 0 and toe_y < 8, side .. " toe near the ground")
    end
  end)

  it("scales, shears and has every inherit mode other than all", function()
    assert.are.equal(1.05, bones.head.scale_x)
    assert.are.equal(1.05, bones.head.scale_y)
    assert.is_true(bones.hair.scale_x ~= bones.hair.scale_y)
    assert.is_true(bones.scarf.shear_x ~= 0)
    local modes = {}
    for _, b in ipairs(desc.bones) do modes[b.inherit] = b.name end
    assert.are.equal("lantern", modes.position)
    assert.are.equal("badge", modes.no_rotation_or_reflection)
    assert.are.equal("hat", modes.no_scale)
    assert.are.equal("scarf", modes.no_scale_or_reflection)
    assert.is_true(bones.plume.skin)
  end)

  it("draws the far limbs first and darker, the lantern's glow added last", function()
    assert.are.equal(29, #desc.slots)
    assert.are.equal("cape", desc.slots[1].name)
    for _, part in ipairs({ "upper_arm", "forearm", "hand", "thigh", "shin", "foot", "toe" }) do
      local back, front = slots[part .. "_back"], slots[part .. "_front"]
      assert.is_true(back.place < slots.torso.place and front.place > slots.torso.place, part)
      assert.is_true(back.color[1] < 1 and back.color[3] < 1, part .. " in shadow")
      assert.are.equal(1, front.color[1])
    end
    assert.are.equal("additive", slots.lantern_glow.blend)
    assert.is_truthy(slots.cape.dark)
  end)

  it("has a default skin of regions, weighted meshes, a point and a box, and an armored one", function()
    assert.are.same({ "default", "armored" }, { desc.skins[1].name, desc.skins[2].name })
    local default, armored = skins.default.attachments, skins.armored.attachments
    assert.are.equal("region", default.foot_front.foot.type)
    assert.near(30 * DEG, default.foot_front.foot.angle, 1e-12)
    assert.are.equal(1.1, default.shoulder_pad.shoulder_pad.scale_x)
    local torso = default.torso.torso
    assert.are.equal("mesh", torso.type)
    local used = {}
    local i = 1
    while i <= #torso.weights do
      for k = 1, torso.weights[i] do used[desc.bones[torso.weights[i + 4 * k - 3]].name] = true end
      i = i + 1 + 4 * torso.weights[i]
    end
    assert.are.same({ hip = true, spine = true, chest = true }, used)
    assert.are.equal("mesh", default.cape.cape.type)
    assert.is_truthy(default.cape.cape.weights)
    assert.are.equal("point", default.grip.grip.type)
    assert.are.equal("boundingbox", default.hitbox.hitbox.type)
    assert.are.equal("linkedmesh", armored.torso.torso.type)
    assert.are.equal("torso", armored.torso.torso.parent)
    assert.are.equal("default", armored.torso.torso.skin)
    assert.are.equal("torso_armor", armored.torso.torso.path)
    assert.are.equal("helmet", armored.hat.hat.path)
    assert.are.same({ "plume" }, skins.armored.bones)
    assert.are.same({ "plume_sway" }, skins.armored.constraints)
  end)

  it("stands in the setup pose its leg IK solves to, knees forward, targets at the ankles", function()
    for _, side in ipairs({ "front", "back" }) do
      local leg = solvers["leg_" .. side]
      assert.are.equal("two_bone", leg.method)
      assert.are.same({ "thigh_" .. side, "shin_" .. side }, leg.bones)
      assert.are.equal("foot_target_" .. side, leg.target.bone)
      assert.are.equal(-1, leg.bend)
      local target = bones[leg.target.bone]
      local x, y = tip(bones, "shin_" .. side)
      assert.near(target.x, x, 0.05)
      assert.near(target.y, y, 0.05)
      -- the knee on the +x side of the line from the hip to the ankle, the
      -- shin turned clockwise from the thigh (bend -1)
      local hip = world(bones, "thigh_" .. side)
      local kx, ky = tip(bones, "thigh_" .. side)
      assert.is_true((x - hip.x) * (ky - hip.y) - (y - hip.y) * (kx - hip.x) > 0, side .. " knee forward")
      assert.is_true(bones["shin_" .. side].angle < 0)
    end
    local look = solvers.head_look
    assert.are.equal("ccd", look.method)
    assert.are.same({ "head" }, look.bones)
    local head = world(bones, "head")
    local target = bones[look.target.bone]
    assert.near(angle(head), atan2(target.y - head.y, target.x - head.x), 1e-3)
  end)

  it("has transform constraints that keep the setup pose, world and local relative", function()
    for _, side in ipairs({ "front", "back" }) do
      local level = constraints["foot_" .. side .. "_level"]
      assert.near(angle(world(bones, "foot_" .. side)),
                  wrap(angle(world(bones, level.target)) + level.offset_rotation), 1e-3)
      assert.are.equal(1, level.mix_rotate)
      assert.are.equal(0, level.mix_x)
    end
    local pad = constraints.pad_follow
    assert.are.equal(0.5, pad.mix_rotate)
    assert.is_false(pad["local"])
    assert.near(angle(world(bones, "shoulder_pad")), angle(world(bones, pad.target)) + pad.offset_rotation, 1e-3)
    for _, name in ipairs({ "cape_curl", "plume_sway" }) do
      local c = constraints[name]
      assert.is_true(c["local"] and c.relative, name)
      -- relative: the target's local rotation is added, which the offset cancels at setup
      assert.near(0, bones[c.target].angle + c.offset_rotation, 1e-6)
    end
    assert.is_true(constraints.plume_sway.skin)
    local order = {}
    for i, o in ipairs(desc.order) do order[i] = o[2] end
    assert.are.same({ "leg_front", "leg_back", "foot_front_level", "foot_back_level", "pad_follow", "head_look",
                      "cape_curl", "plume_sway" }, order)
  end)

  it("has the clips the examples play: idle, a walk of one second, aim and wave", function()
    assert.are.equal(2, desc.clips.idle.duration)
    assert.are.equal(1, desc.clips.walk.duration)
    assert.is_truthy(desc.clips.aim.bones.upper_arm_front)
    assert.is_truthy(desc.clips.wave.draw_order[1].order)
  end)

  it("loops the walk and the idle: each timeline ends where it starts", function()
    for _, name in ipairs({ "walk", "idle" }) do
      local clip = desc.clips[name]
      local function same_ends(tl, what)
        for c = 1, tl.channels or 1 do
          assert.are.equal(curves.value_at(tl, 0, c), curves.value_at(tl, clip.duration, c), what)
        end
      end
      for bone, tls in pairs(clip.bones) do
        for field, tl in pairs(tls) do same_ends(tl, name .. " " .. bone .. "." .. field) end
      end
      for slot, tls in pairs(clip.slots) do
        for field, tl in pairs(tls) do
          if field ~= "attachment" then same_ends(tl, name .. " " .. slot .. "." .. field) end
        end
      end
      for solver, tls in pairs(clip.solvers) do
        for field, tl in pairs(tls) do same_ends(tl, name .. " " .. solver .. "." .. field) end
      end
      for _, by_slot in pairs(clip.deform) do
        for _, by_attachment in pairs(by_slot) do
          for _, tl in pairs(by_attachment) do
            assert.are.same(tl.offsets[1], tl.offsets[#tl.offsets])
          end
        end
      end
    end
  end)

  it("puts a footstep on each heel contact: the foot at its foremost, on the ground, toes up", function()
    local walk = desc.clips.walk
    assert.are.same({ int = 1, float = 0, string = "front", volume = 1, balance = 0 }, desc.events.footstep)
    assert.are.equal(2, #walk.events)
    local seen = {}
    for _, e in ipairs(walk.events) do
      assert.are.equal("footstep", e.name)
      seen[e.string] = e.int
      local target = walk.bones["foot_target_" .. e.string]
      local x = target.x
      local foremost = -math.huge
      for _, v in ipairs(x.values) do foremost = math.max(foremost, v) end
      assert.are.equal(foremost, curves.value_at(x, e.time))
      assert.are.equal(0, curves.value_at(target.y, e.time))
      assert.is_true(curves.value_at(target.rotate, e.time) > 0)
    end
    assert.are.same({ front = 1, back = 2 }, seen)
  end)

  it("keys every kind of timeline the reader plays, with linear, stepped and Bézier curves in the walk", function()
    local kinds = {}
    local function note(kind) kinds[kind] = true end
    for _, clip in pairs(desc.clips) do
      for _, tls in pairs(clip.bones) do for field in pairs(tls) do note("bone." .. field) end end
      for _, tls in pairs(clip.slots) do for field in pairs(tls) do note("slot." .. field) end end
      for _, tls in pairs(clip.solvers) do for field in pairs(tls) do note("ik." .. field) end end
      for _, tls in pairs(clip.constraints) do for field in pairs(tls) do note("transform." .. field) end end
      if next(clip.deform) then note("deform") end
      if #clip.draw_order > 0 then note("draw_order") end
      if #clip.events > 0 then note("events") end
    end
    for _, kind in ipairs({ "bone.rotate", "bone.x", "bone.y", "bone.scale_x", "bone.scale_y", "bone.shear_x",
                            "bone.shear_y", "bone.inherit", "slot.attachment", "slot.color", "slot.rgb",
                            "slot.alpha", "slot.dark", "ik.weight", "ik.softness", "ik.bend",
                            "transform.mix_rotate", "transform.mix_x", "deform", "draw_order", "events" }) do
      assert.is_true(kinds[kind], kind)
    end
    local shapes = {}
    for _, tls in pairs(desc.clips.walk.bones) do
      for _, tl in pairs(tls) do
        for k = 1, #tl.times - 1 do
          local c = tl.curves and tl.curves[k]
          shapes[type(c) == "table" and "bezier" or tostring(c)] = true
        end
      end
    end
    assert.are.same({ linear = true, stepped = true, bezier = true }, shapes)
  end)
end)

describe("the hero's atlas (examples/hero/assets/hero.atlas, hero.png)", function()
  local page, regions

  setup(function()
    local lines = {}
    for line in read(assets .. "hero.atlas"):gmatch("[^\n]+") do lines[#lines + 1] = line end
    page = { name = lines[1] }
    regions = {}
    local current = page
    for i = 2, #lines do
      local key, value = lines[i]:match("^%s+(%a+):%s*(.-)%s*$")
      if key then
        local numbers = {}
        for n in value:gmatch("%-?%d+") do numbers[#numbers + 1] = tonumber(n) end
        current[key] = #numbers > 0 and numbers or value
      else
        current = { name = lines[i] }
        regions[lines[i]] = current
      end
    end
  end)

  it("is Spine's .atlas 4.x text: the page, its size and filter, then the regions", function()
    assert.are.equal("hero.png", page.name)
    assert.are.same({ 256, 256 }, page.size)
    assert.are.equal("Linear, Linear", page.filter)
    local rotated, stripped = 0, 0
    for name, r in pairs(regions) do
      local w, h = r.bounds[3], r.bounds[4]
      if r.rotate then
        assert.are.same({ 90 }, r.rotate, name)
        rotated = rotated + 1
        w, h = h, w
      end
      assert.is_true(r.bounds[1] >= 0 and r.bounds[2] >= 0 and r.bounds[1] + w <= 256 and r.bounds[2] + h <= 256, name)
      if r.offsets then
        stripped = stripped + 1
        local left, bottom, width, height = r.offsets[1], r.offsets[2], r.offsets[3], r.offsets[4]
        assert.is_true(left + r.bounds[3] <= width and bottom + r.bounds[4] <= height, name)
        assert.is_true(r.bounds[3] < width or r.bounds[4] < height, name .. " is smaller than its image")
      end
    end
    assert.is_true(rotated >= 1 and stripped >= 1)
    assert.is_truthy(regions.plume.rotate and regions.plume.offsets)
  end)

  it("has every image an attachment names, at the attachment's size", function()
    local desc = spine.read(assert(json.decode(read(assets .. "hero.json"))), "hero.json")
    local count = 0
    for _, skin in ipairs(desc.skins) do
      for _, entries in pairs(skin.attachments) do
        for entry, att in pairs(entries) do
          if att.path then
            local r = regions[att.path]
            assert.is_truthy(r, entry .. ": " .. att.path)
            local width = r.offsets and r.offsets[3] or r.bounds[3]
            local height = r.offsets and r.offsets[4] or r.bounds[4]
            if att.width and att.width > 0 then
              assert.are.same({ width, height }, { att.width, att.height }, att.path)
            end
            count = count + 1
          end
        end
      end
    end
    assert.is_true(count >= 25)
  end)

  it("comes with its page, a PNG of the atlas's size", function()
    local png = read(assets .. "hero.png")
    assert.are.equal("\137PNG\r\n\26\n", png:sub(1, 8))
    local function be32(at)
      local a, b, c, d = png:byte(at, at + 3)
      return ((a * 256 + b) * 256 + c) * 256 + d
    end
    assert.are.equal("IHDR", png:sub(13, 16))
    assert.are.same(page.size, { be32(17), be32(21) })
  end)
end)

describe("the hero's generator (examples/hero/tools/make_hero.lua)", function()
  it("writes the files as they are in the repository", function()
    local saved = package.path
    package.path = tools .. "?.lua;" .. package.path
    local ok, hero_files = pcall(require, "hero_files")
    package.path = saved
    assert.is_true(ok, hero_files)
    for _, name in ipairs(hero_files.names) do
      assert.is_true(hero_files.text(name) == read(assets .. name), name .. " is stale: run make_hero.lua")
    end
  end)
end)
