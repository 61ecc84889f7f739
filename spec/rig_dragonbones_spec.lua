-- ik2d.rig.dragonbones: DragonBones 5.x armatures read into the rig
-- description. The demo armatures (spec/rigs/dragonbones, from
-- DragonBonesJS) and the project's own rigs read with fields checked by
-- hand; malformed files refused with where and what; the description
-- posed by a plain player (spec/dragonbones/pose.lua) against the
-- DragonBones runtime itself (spec/dragonbones/reference.lua: node and
-- the npm package pixi-dragonbones-runtime, which make deps installs).
local dragonbones = require "ik2d.rig.dragonbones"
local helpers = require "spec.helpers"
local pose = require "spec.dragonbones.pose"
local reference = require "spec.dragonbones.reference"
local canonical = require "spec.dragonbones.canonical"
local malformed = require "spec.dragonbones.malformed"

local RIGS = "spec/rigs/dragonbones/"
local DEG = math.pi / 180

-- JSON through whichever decoder is here (the loader's own JSON module
-- comes with ik2d.rig.load); cjson's null is a light userdata, dkjson's
-- null is nil: the reader takes both.
local decode
do
  local ok, cjson = pcall(require, "cjson")
  decode = ok and cjson.decode or require("dkjson").decode
end

local function slurp(path)
  local f = assert(io.open(path, "r"))
  local text = f:read("*a")
  f:close()
  return text
end

local function read(name, armature)
  return dragonbones.read(decode(slurp(RIGS .. name)), name, armature)
end

local function f32(x) return require("ik2d.rig.dragonbones_data").f32(x) end

local function find(list, name)
  for i, item in ipairs(list) do
    if item.name == name then return item, i end
  end
end

local function bone_index(rig, name)
  local _, i = find(rig.bones, name)
  return i
end

describe("ik2d.rig.dragonbones", function()
  describe("the demo armature mecha_1406", function()
    local rig = read("mecha_1406_ske.json")

    it("reads its bones, slots, IK and animations", function()
      assert.equal(17, #rig.bones)
      assert.equal(13, #rig.slots)
      assert.equal(4, #rig.solvers)
      local names = {}
      for name in pairs(rig.clips) do names[#names + 1] = name end
      table.sort(names)
      assert.same({ "aim", "attack_01", "death", "hit", "idle", "jump", "skill_01", "walk" }, names)
      assert.same({ format = "dragonbones", version = "5.5", armature = "mecha_1406", frame_rate = 24,
                    default_skin = "default", default_clip = "idle" }, rig.source)
      assert.is_false(rig.y_up)
      assert.same({}, rig.unsupported)
    end)

    it("gives the skewed chest its skY as angle and skX - skY as shear_y, scale inheritance off", function()
      -- "chest": x 33.1, skX -41.0313, skY -40.7755, scX 1.0022, scY 1.0008, inheritScale false
      local chest = find(rig.bones, "chest")
      assert.equal("pelvis", chest.parent)
      assert.near(33.1, chest.x, 0)
      assert.near(0, chest.y, 0)
      assert.near(-40.7755 * DEG, chest.angle, 1e-15)
      assert.near((-41.0313 + 40.7755) * DEG, chest.shear_y, 1e-15)
      assert.equal(0, chest.shear_x)
      assert.equal(1.0022, chest.scale_x)
      assert.equal(1.0008, chest.scale_y)
      assert.equal("no_scale", chest.inherit)
      -- pelvis: inheritScale false too; root: no parent, nothing to inherit
      assert.equal("no_scale", find(rig.bones, "pelvis").inherit)
      assert.equal("all", find(rig.bones, "root").inherit)
    end)

    it("reads chain 0 as a one-bone solver and chain 1 as two bones, bend from bendPositive", function()
      -- {"name":"bone_ik1","bone":"thigh_l","target":"thigh_l_ik"}: chain 0, bendPositive true
      local aim = find(rig.solvers, "bone_ik1")
      assert.same({ "thigh_l" }, aim.bones)
      assert.same({ bone = "thigh_l_ik", x = 0, y = 0 }, aim.target)
      assert.equal("ccd", aim.method)
      assert.equal(1, aim.weight)
      assert.equal(1, aim.bend)
      -- {"bendPositive":false,"chain":1,"name":"calf_l","bone":"calf_l","target":"foot_l"}
      local leg = find(rig.solvers, "calf_l")
      assert.same({ find(rig.bones, "calf_l").parent, "calf_l" }, leg.bones)
      assert.equal("thigh_1_l", leg.bones[1])
      assert.equal(-1, leg.bend)
      assert.same({ { "solver", "bone_ik1" }, { "solver", "bone_ik" }, { "solver", "calf_l" },
                    { "solver", "calf_r" } }, rig.order)
    end)

    it("plays walk as a loop of 30 frames at 24 fps, key values as 32-bit floats", function()
      local walk = rig.clips.walk
      assert.equal(0, walk.loop_count)
      assert.near(30 / 24, walk.duration, 1e-15)
      -- pelvis translateFrame: x -4.69 for 4 frames, -3.59 for 3, ...
      -- and a last key of duration 0 on frame 30, the end
      local x = walk.bones.pelvis.x
      assert.equal(f32(-4.69), x.values[1])
      assert.is_true(f32(-4.69) ~= -4.69)
      assert.equal(f32(-3.59), x.values[2])
      -- times as the runtime places keys: frame x (1 / frameRate)
      assert.same({ 0, 4 * (1 / 24), 7 * (1 / 24) }, { x.times[1], x.times[2], x.times[3] })
      assert.equal(7, #x.times)
      assert.near(walk.duration, x.times[7], 1e-15)
      assert.same({ "linear", "linear" }, { x.curves[1], x.curves[2] })
    end)
  end)

  describe("the demo armature body", function()
    local rig = read("body_ske.json")

    it("reads 70 bones, 96 slots, 4 two-bone chains and 10 animations played once", function()
      assert.equal(70, #rig.bones)
      assert.equal(96, #rig.slots)
      assert.equal(4, #rig.solvers)
      for _, solver in ipairs(rig.solvers) do assert.equal(2, #solver.bones) end
      local count = 0
      for _, c in pairs(rig.clips) do
        count = count + 1
        assert.equal(1, c.loop_count)
      end
      assert.equal(10, count)
      -- the feet turn with their own rotation: inheritRotation false
      assert.equal("no_rotation_or_reflection", find(rig.bones, "foot_l").inherit)
      assert.equal("no_scale", find(rig.bones, "hair0603").inherit)
    end)

    it("puts each weighted vertex in its bones' setup spaces (bonePose^-1 slotPose v)", function()
      local doc = decode(slurp(RIGS .. "body_ske.json"))
      local checked = 0
      for _, skin_slot in ipairs(doc.armature[1].skin[1].slot) do
        for _, d in ipairs(skin_slot.display) do
          if d.type == "mesh" then
            local mesh = rig.skins[1].attachments[skin_slot.name][d.name]
            assert.is_nil(mesh.vertices)
            -- vertex 1: its first bone's entry by hand
            local sp = d.slotPose
            local x = sp[1] * d.vertices[1] + sp[3] * d.vertices[2] + sp[5]
            local y = sp[2] * d.vertices[1] + sp[4] * d.vertices[2] + sp[6]
            local raw_bone = d.weights[2]
            local bp
            for k = 1, #d.bonePose, 7 do
              if d.bonePose[k] == raw_bone then
                bp = { d.bonePose[k + 1], d.bonePose[k + 2], d.bonePose[k + 3],
                       d.bonePose[k + 4], d.bonePose[k + 5], d.bonePose[k + 6] }
              end
            end
            local a, b, c, dd, tx, ty = bp[1], bp[2], bp[3], bp[4], bp[5], bp[6]
            local det = a * dd - b * c
            local lx = (dd * (x - tx) - c * (y - ty)) / det
            local ly = (-b * (x - tx) + a * (y - ty)) / det
            assert.equal(d.weights[1], mesh.weights[1])
            assert.equal(bone_index(rig, doc.armature[1].bone[raw_bone + 1].name), mesh.weights[2])
            assert.near(lx, mesh.weights[3], 1e-4 * math.max(1, math.abs(lx)))
            assert.near(ly, mesh.weights[4], 1e-4 * math.max(1, math.abs(ly)))
            assert.equal(f32(d.weights[3]), mesh.weights[5])
            assert.equal(#d.triangles, #mesh.triangles)
            assert.equal(d.triangles[1] + 1, mesh.triangles[1])
            checked = checked + 1
          end
        end
      end
      assert.equal(7, checked)
    end)

    it("samples a curve key at frames + 1 points within the runtime's 1e-4 of the Bezier", function()
      -- idle: a translateFrame key with curve [0.2595, 0, 0.946, 0.84]
      local found = 0
      for _, c in pairs(rig.clips) do
        for _, timelines in pairs(c.bones) do
          for _, tl in pairs(timelines) do
            for k, curve in ipairs(tl.curves or {}) do
              if type(curve) == "table" then
                local t0, t1 = tl.times[k], tl.times[k + 1]
                local v0, v1 = tl.values[k], tl.values[k + 1]
                local frames = math.floor((t1 - t0) * 30 + 0.5)
                assert.equal(2 * (frames + 1), #curve[1])
                for j = 1, #curve[1], 2 do
                  local u = (curve[1][j] - t0) / (t1 - t0)
                  assert.near(math.floor(j / 2 + 1) / (frames + 2), u, 1e-12)
                  if v1 ~= v0 then
                    local p = (curve[1][j + 1] - v0) / (v1 - v0)
                    assert.is_true(p > -0.5 and p < 1.5)
                  end
                end
                found = found + 1
              end
            end
          end
        end
      end
      assert.is_true(found >= 12)
    end)
  end)

  describe("the inherit flags (ik2d_flags_ske.json)", function()
    local rig = read("ik2d_flags_ske.json")
    local MODES = {
      -- translation, rotation, scale, reflection -> mode
      TRSF = "all", TRSf = "all", TRsF = "no_scale", TRsf = "no_scale_or_reflection",
      TrSF = "no_rotation_or_reflection", TrSf = "no_rotation_or_reflection",
      TrsF = "position", Trsf = "position",
    }

    it("gives each of the 16 combinations its mode, under either parent", function()
      for _, parent in ipairs({ "p", "m" }) do
        for flags, mode in pairs(MODES) do
          assert.equal(mode, find(rig.bones, parent .. "_" .. flags).inherit, parent .. "_" .. flags)
          assert.is_nil(find(rig.bones, parent .. "_" .. flags).inherit_translation)
          -- translation not inherited: the same mode, inherit_translation false
          local t = find(rig.bones, parent .. "_t" .. flags:sub(2))
          assert.equal(mode, t.inherit)
          assert.is_false(t.inherit_translation)
        end
      end
      assert.same({}, rig.unsupported)
    end)

    it("reads skew, scale and a mirrored parent", function()
      -- p: x 20, y -10, skX 40, skY 25, scX 1.5, scY 0.7
      local p = find(rig.bones, "p")
      assert.near(25 * DEG, p.angle, 1e-15)
      assert.near(15 * DEG, p.shear_y, 1e-15)
      assert.same({ 20, -10, 1.5, 0.7 }, { p.x, p.y, p.scale_x, p.scale_y })
      local m = find(rig.bones, "m")
      assert.equal(-1.2, m.scale_x)
      assert.near(30 * DEG, m.shear_y, 1e-15)
    end)
  end)

  describe("the keys (ik2d_keys_ske.json)", function()
    local rig = read("ik2d_keys_ske.json")
    local walk = rig.clips.walk

    it("reads IK chains 0 and 1 both ways round, weight and order", function()
      local leg, reach, aim = find(rig.solvers, "leg"), find(rig.solvers, "reach"), find(rig.solvers, "aim")
      assert.same({ "thigh", "shin" }, leg.bones)
      assert.equal(-1, leg.bend)                -- bendPositive false
      assert.same({ "arm", "forearm" }, reach.bones)
      assert.equal(1, reach.bend)               -- bendPositive true (the default)
      assert.equal(0.7, reach.weight)
      assert.same({ "head" }, aim.bones)
      assert.same({ { "solver", "leg" }, { "solver", "reach" }, { "solver", "aim" } }, rig.order)
      -- a two-bone weight strictly between 0 and 1 is played as the
      -- runtime plays it (ik2d.rig.dragonbones_pose): not listed
      for _, u in ipairs(rig.unsupported) do assert.falsy(u:find('IK "reach"', 1, true), u) end
    end)

    it("reads slots: setup display, colour multipliers, blend", function()
      local body, skin, hitbox = find(rig.slots, "body"), find(rig.slots, "skin"), find(rig.slots, "hitbox")
      assert.equal("hip", body.bone)
      assert.equal("body", body.attachment)
      assert.same({ 0.5, 1, 1, 0.8 }, body.color)
      assert.equal("normal", body.blend)
      assert.equal("additive", skin.blend)
      assert.is_nil(hitbox.attachment)         -- displayIndex -1
    end)

    it("reads an image as a region at its display transform", function()
      local attachments = rig.skins[1].attachments
      assert.equal("default", rig.skins[1].name)
      local region = attachments.body.body
      assert.equal("region", region.type)
      assert.equal("body", region.path)
      assert.same({ 2, -3, 0.5, 0.5 }, { region.x, region.y, region.scale_x, region.scale_y })
      assert.near(10 * DEG, region.angle, 1e-15)
      assert.equal("parts/body_sad", attachments.body.body_sad.path)
    end)

    it("moves an unweighted mesh into its bone's space by its display transform", function()
      local mesh = rig.skins[1].attachments.skin.skin
      assert.same({ 5, -5, 65, -5, 65, 5, 5, 5 }, mesh.vertices)
      assert.same({ 1, 2, 3, 1, 3, 4 }, mesh.triangles)
      assert.same({ 0, 0, 1, 0, 1, 1, 0, 1 }, mesh.uvs)
      assert.equal(4, mesh.hull)
      assert.is_nil(mesh.weights)
    end)

    it("puts a weighted mesh's vertices in its bones' spaces", function()
      -- thigh and shin stand at 90 degrees (shin 60 below): a vertex
      -- (x, y) is (y, -x) in the thigh's space and (y - 60, -x) in the shin's
      local mesh = rig.skins[1].attachments.cape.cape
      local thigh, shin = bone_index(rig, "thigh"), bone_index(rig, "shin")
      local w = mesh.weights
      assert.same({ 1, thigh, 0, 10, 1 }, { w[1], w[2], w[3], w[4], w[5] })
      assert.same({ 1, thigh, 0, -10, 1 }, { w[6], w[7], w[8], w[9], w[10] })
      assert.same({ 2, shin, 40, -10, f32(0.8), thigh, 100, -10, f32(0.2) },
        { w[11], w[12], w[13], w[14], w[15], w[16], w[17], w[18], w[19] })
      assert.same({ 1, shin, 40, 10, 1 }, { w[20], w[21], w[22], w[23], w[24] })
      assert.equal(24, #w)
    end)

    it("reads a polygon bounding box", function()
      assert.same({ type = "boundingbox", vertices = { 0, -10, 20, -10, 20, 10, 0, 10 } },
        rig.skins[1].attachments.hitbox.hitbox)
    end)

    it("unwraps rotations the short way and with clockwise turns", function()
      -- 10, 20, 170, -170 (190: the short way from 170), 0 (360),
      -- 90 with clockwise 1 before it (450), 45 with clockwise -2 (-315)
      local tl = walk.bones.tail.rotate
      local expect = { 10, 20, 170, 190, 360, 450, -315 }
      for i, deg in ipairs(expect) do assert.near(deg * DEG, tl.values[i], 1e-6) end
      for i = 1, 7 do assert.equal(f32(tl.values[i]), tl.values[i]) end
      -- the loop back to the first key takes the short way: -315 -> -350
      assert.near(-350 * DEG, tl.values[8], 1e-6)
      assert.near(40 / 30, tl.times[8], 1e-15)
      local frame = 1 / 30
      assert.same({ 0, 5 * frame, 10 * frame, 15 * frame, 20 * frame, 25 * frame, 30 * frame },
        { tl.times[1], tl.times[2], tl.times[3], tl.times[4], tl.times[5], tl.times[6], tl.times[7] })
    end)

    it("reads every easing: stepped, linear, quad in, out, in-out, curve", function()
      local c = walk.bones.tail.rotate.curves
      assert.equal("stepped", c[1])                       -- no tweenEasing
      assert.equal("linear", c[2])                        -- tweenEasing 0
      -- quad in (-0.5): below the line; quad out (0.5): above it; in-out (1.5): symmetric
      local function progress(k, j)
        local tl = walk.bones.tail.rotate
        local t0, t1, v0, v1 = tl.times[k], tl.times[k + 1], tl.values[k], tl.values[k + 1]
        return (c[k][1][j] - t0) / (t1 - t0), (c[k][1][j + 1] - v0) / (v1 - v0)
      end
      local function near_middle(k)
        local list, best, bj = c[k][1], math.huge, 1
        for j = 1, #list, 2 do
          local u = progress(k, j)
          if math.abs(u - 0.5) < best then best, bj = math.abs(u - 0.5), j end
        end
        return progress(k, bj)
      end
      local u, p = near_middle(3)
      assert.near(u + (u * u - u) * 0.5, p, 1e-12)        -- quad in, easing 0.5
      u, p = near_middle(4)
      assert.near(u + (1 - (1 - u) ^ 2 - u) * 0.5, p, 1e-12)
      u, p = near_middle(5)
      assert.near(u + (0.5 * (1 - math.cos(u * math.pi)) - u) * 0.5, p, 1e-12)
      -- curve: frames + 1 = 6 points
      assert.equal(12, #c[6][1])
      assert.equal("linear", c[7])                        -- the loop back
      assert.equal("stepped", c[8])
    end)

    it("holds the last key of an animation played once, eases it back in one that loops", function()
      local once, thrice = rig.clips.once.bones.tail.rotate, rig.clips.thrice.bones.tail.rotate
      assert.equal(1, rig.clips.once.loop_count)
      assert.equal(2, #once.times)
      assert.equal("stepped", once.curves[2])
      assert.equal(3, rig.clips.thrice.loop_count)
      assert.equal(3, #thrice.times)
      assert.equal(0, thrice.values[3])
    end)

    it("reads display and colour keys", function()
      local body = walk.slots.body
      local frame = 1 / 30
      assert.same({ channels = 1, times = { 0, 10 * frame, 20 * frame }, values = { "body", "body_sad", false } },
        body.attachment)
      assert.equal(4, body.color.channels)
      assert.same({ 0.5, 1, 1, 0.8, 1, 0.25, 1, 1, 0.5, 1, 1, 0.8 }, body.color.values)
    end)

    it("reads deform keys: unweighted moved by the display transform, weighted into bone space", function()
      local skin = walk.deform.default.skin.skin
      assert.same({ 0, 0, 0, 0, 0, 0, 0, 0 }, skin.offsets[1])
      assert.same({ 0, 0, 0, 4, 2, 4, 0, 0 }, skin.offsets[2])
      assert.equal("linear", skin.curves[1])
      -- cape: (6, 0) and (-6, 0) on vertices 3 and 4, in thigh and shin space (0, -6), (0, 6)
      local cape = walk.deform.default.cape.cape
      assert.same({ 0, 0, 0, 0, 0, -6, 0, -6, 0, 6 }, cape.offsets[1])
      assert.same({ 0, 40 * (1 / 30) }, cape.times)
    end)

    it("reads IK keys as the runtime applies them: each tweened key's own values", function()
      local reach = walk.solvers.reach
      assert.same({ 0.5, 1 }, reach.weight.values)
      assert.same({ 1, -1 }, reach.bend.values)
      assert.same({ 0, 20 * (1 / 30) }, reach.weight.times)
    end)

    it("reads draw order and events", function()
      local frame = 1 / 30
      assert.same({ { time = 0 }, { time = 10 * frame, order = { 2, 3, 1, 4 } }, { time = 20 * frame } },
        walk.draw_order)
      assert.same({
        { time = 5 * frame, name = "step", int = 3, float = 0.5, string = "left" },
        { time = 15 * frame, name = "thud", int = 0, float = 0, string = "", audio = "thud" },
      }, walk.events)
      assert.truthy(rig.events.step)
      assert.truthy(rig.events.thud)
    end)
  end)

  describe("a malformed file", function()
    local valid, cases = malformed.valid, malformed.cases

    it("reads the valid armature the cases start from", function()
      local rig = dragonbones.read(valid(), "bad_ske.json")
      assert.equal(4, #rig.bones)
      assert.truthy(rig.clips.move)
    end)

    for _, case in ipairs(cases) do
      it("refuses " .. case[1], function()
        local doc = valid()
        local replaced = case[2](doc)
        local ok, err = pcall(dragonbones.read, replaced or doc, "bad_ske.json", case[4])
        assert.is_false(ok)
        assert.is_string(err)
        local expected = "bad_ske.json: " .. case[3]
        assert.truthy(err:find(expected, 1, true), "\nexpected: " .. expected .. "\ngot:      " .. err)
      end)
    end

    it("raises at the caller's line, naming the file given (or <table>)", function()
      local doc = valid()
      doc.version = "6.0"
      local ok, err = pcall(function()
        local rig = dragonbones.read(doc)
        return rig
      end)
      assert.is_false(ok)
      assert.truthy(err:find("rig_dragonbones_spec.lua:%d+: <table>: version: DragonBones \"6.0\" is not read"))
    end)
  end)

  describe("against the DragonBones runtime", function()
    local available, why = reference.available()
    if not available then
      print("rig_dragonbones_spec: the runtime comparison skipped: " .. why)
    end
    -- the reader is pure Lua: the passes with the C core compare it, the
    -- pure-core passes (the same reader) do not run node again
    local run = available and not helpers.pure_pass and it or pending

    -- every bone's matrix and every mesh's vertices at 20 times of an
    -- animation, the description posed by spec/dragonbones/pose.lua: the
    -- worst difference from the runtime's
    local function worst(file, armature, animation, times)
      local rig = read(file, armature)
      local clip = rig.clips[animation]
      if times == nil then
        times = {}
        for i = 0, 19 do times[#times + 1] = (i + 0.37) / 20 * clip.duration end
      end
      local out = reference.poses(RIGS .. file, armature, animation, times)
      local err, where = 0, ""
      for _, p in ipairs(out.poses) do
        local world = pose.world(rig, animation, p.time)
        for name, m in pairs(p.bones) do
          for k = 1, 6 do
            local e = math.abs(world[name][k] - m[k])
            if e > err then err, where = e, string.format("%s at %.6g", name, p.time) end
          end
        end
        for name, shown in pairs(p.slots) do
          local vertices = pose.mesh(rig, animation, p.time, world, name)
          local runtime = type(shown.vertices) == "table" and shown.vertices or nil   -- JSON null: none
          assert.equal(runtime == nil, vertices == nil, name)
          for k = 1, vertices and #vertices or 0 do
            local e = math.abs(vertices[k] - runtime[k])
            if e > err then err, where = e, string.format("mesh %s at %.6g", name, p.time) end
          end
        end
      end
      return err, where
    end

    -- The demos use what the description holds exactly (linear, stepped
    -- and curve keys, the modes their flags equal): to rounding, where
    -- the issue asks for 1e-3.
    run("mecha_1406: every bone of walk and attack_01 to rounding (skew, no scale inherit, IK 0 and 1)",
        function()
      for _, animation in ipairs({ "walk", "attack_01" }) do
        local err, where = worst("mecha_1406_ske.json", "mecha_1406", animation)
        assert.is_true(err <= 1e-9, animation .. ": " .. err .. " at " .. where)
      end
    end)

    run("body: every bone and mesh of idle and speak to rounding (weighted meshes, ffd, four chains, curves)",
        function()
      for _, animation in ipairs({ "idle", "speak" }) do
        local err, where = worst("body_ske.json", "body", animation)
        assert.is_true(err <= 1e-9, animation .. ": " .. err .. " at " .. where)
      end
    end)

    -- the quad eases are lines through points here: within 1e-3
    run("the keys rig: bones and meshes with every easing, clockwise turns, IK and deform keys, loops within 1e-3",
        function()
      for _, animation in ipairs({ "walk", "once", "thrice" }) do
        local err, where = worst("ik2d_keys_ske.json", "keys", animation)
        assert.is_true(err <= 1e-3, animation .. ": " .. err .. " at " .. where)
      end
    end)

    run("the keys rig: slots show the runtime's display and colour at 20 times of walk", function()
      local rig = read("ik2d_keys_ske.json")
      local doc = decode(slurp(RIGS .. "ik2d_keys_ske.json"))
      local names = {}   -- slot -> display index -> display name, from the file
      for _, entry in ipairs(doc.armature[1].skin[1].slot) do
        names[entry.name] = {}
        for i, d in ipairs(entry.display) do names[entry.name][i - 1] = d.name end
      end
      local walk = rig.clips.walk
      local times = {}
      for i = 0, 19 do times[#times + 1] = (i + 0.37) / 20 * walk.duration end
      local out = reference.poses(RIGS .. "ik2d_keys_ske.json", "keys", "walk", times)
      for _, p in ipairs(out.poses) do
        for _, slot in ipairs(rig.slots) do
          local timelines = walk.slots[slot.name] or {}
          local attachment = slot.attachment
          if timelines.attachment then attachment = pose.sample(timelines.attachment, p.time) or nil end
          local shown = p.slots[slot.name]
          assert.equal(names[slot.name][shown.display], attachment, slot.name .. " at " .. p.time)
          for c = 1, 4 do
            local value = timelines.color and pose.sample(timelines.color, p.time, c) or slot.color[c]
            assert.near(shown.color[c], value, 1e-12, slot.name .. " at " .. p.time)
          end
        end
      end
    end)

    run("bend is ik2d's two_bone bend: its elbow lands where the runtime's does, both ways round", function()
      -- the keys rig's chains at weight 1: leg (bendPositive false) and
      -- reach (true), both reachable; an analytic solve from any start
      local json = require "dkjson"
      local doc = json.decode(slurp(RIGS .. "ik2d_keys_ske.json"))
      for _, ik in ipairs(doc.armature[1].ik) do ik.weight = nil end
      local path = os.tmpname()
      local f = assert(io.open(path, "w"))
      f:write(json.encode(doc))
      f:close()
      local rig = dragonbones.read(doc, path)
      local out = reference.poses(path, "keys", "-", { 0 })
      os.remove(path)
      local ik2d = require "ik2d"
      local bones = out.poses[1].bones
      for _, name in ipairs({ "leg", "reach" }) do
        local solver = find(rig.solvers, name)
        local root, child = bones[solver.bones[1]], bones[solver.bones[2]]
        local target = bones[solver.target.bone]
        local upper = math.sqrt((child[5] - root[5]) ^ 2 + (child[6] - root[6]) ^ 2)
        local lower = find(rig.bones, solver.bones[2]).length
        local chain = ik2d.chain{ x = root[5], y = root[6], angle = 0, { length = upper }, { length = lower } }
        local s = ik2d.solver(chain, { method = "two_bone", bend = solver.bend })
        s:set_target(target[5], target[6])
        s:solve()
        local ex, ey = chain:joint(2)
        assert.near(child[5], ex, 1e-9, name)
        assert.near(child[6], ey, 1e-9, name)
      end
    end)

    run("the flags rig: the modes equal to the runtime's flags hold to rounding", function()
      -- exact for any parent: all, position; for a parent not mirrored:
      -- no_scale and no_scale_or_reflection (the bones under p)
      local rig = read("ik2d_flags_ske.json")
      local times = {}
      for i = 0, 9 do times[#times + 1] = (i + 0.37) / 10 * rig.clips.bend.duration end
      local out = reference.poses(RIGS .. "ik2d_flags_ske.json", "flags", "bend", times)
      local exact = { all = true, position = true }
      for _, p in ipairs(out.poses) do
        local world = pose.world(rig, "bend", p.time)
        for _, bone in ipairs(rig.bones) do
          local flags = bone.name:match("_(%u%u%u%u)$")
          local under_p = bone.name:sub(1, 2) == "p_"
          if bone.parent == nil or bone.name == "p" or bone.name == "m" or (flags and
              (exact[bone.inherit] or (under_p and bone.inherit:find("^no_scale")))) then
            for k = 1, 6 do
              assert.near(p.bones[bone.name][k], world[bone.name][k], 1e-9, bone.name)
            end
          end
        end
      end
    end)
  end)

  describe("a file read twice", function()
    it("gives the same description on Lua 5.4 and LuaJIT, to the bit", function()
      local texts = {}
      for _, lua in ipairs({ "lua5.4", "luajit" }) do
        for _, name in ipairs({ "body_ske.json", "mecha_1406_ske.json", "ik2d_keys_ske.json" }) do
          local cmd = string.format("%s -e 'package.path = \"lua/?.lua;./?.lua;\" .. package.path; " ..
            "io.write(require(\"spec.dragonbones.canonical\").file(\"%s\"))'", lua, RIGS .. name)
          local p = assert(io.popen(cmd))
          local text = p:read("*a")
          p:close()
          assert.is_true(#text > 1000, lua .. " " .. name)
          texts[name] = texts[name] or text
          assert.is_true(texts[name] == text, lua .. " " .. name)
        end
      end
    end)

    it("leaves the decoded table as it was", function()
      local doc = decode(slurp(RIGS .. "ik2d_keys_ske.json"))
      local before = canonical.text(doc)
      dragonbones.read(doc, "keys")
      assert.equal(before, canonical.text(doc))
    end)
  end)
end)
