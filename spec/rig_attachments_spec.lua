-- rig:attachments: every drawn slot's world geometry in drawing order,
-- checked against vertices worked out by hand on a two-bone rig, and on
-- the hero (examples/hero) for what its clips switch; tables reused.
local ik2d = require "ik2d"

-- A y-up Spine rig kept y-up (y_down = false): root at the origin, arm at
-- (10, 0) turned a quarter, a 20 by 10 region on the arm at (5, 0), a
-- weighted mesh of three vertices on both.
local function two_bone_rig()
  return ik2d.rig.load({
    skeleton = { spine = "4.2.22" },
    bones = { { name = "root" }, { name = "arm", parent = "root", x = 10, rotation = 90 } },
    slots = { { name = "box", bone = "arm", attachment = "box" },
              { name = "skin", bone = "root", attachment = "skin", color = "ff800080" } },
    skins = { { name = "default", attachments = {
      box = { box = { x = 5, width = 20, height = 10 } },
      skin = { skin = { type = "mesh", uvs = { 0, 0, 1, 0, 0, 1 }, triangles = { 0, 1, 2 }, hull = 3,
        -- per vertex: bones, then (bone, x, y, weight) each
        vertices = { 1, 0, 0, 0, 1,   2, 0, 4, 0, 0.5, 1, 0, -2, 0.5,   1, 1, 3, 1, 1 } } },
    } } },
    animations = { hide = { slots = { box = { attachment = { { time = 0.5 } } } } } },
  }, { y_down = false })
end

local function assert_points(expected, got, tolerance)
  assert.are.equal(#expected, #got)
  for i = 1, #expected do assert.near(expected[i], got[i], tolerance or 1e-6) end
end

describe("rig:attachments", function()
  if not ik2d.slots then
    pending("this core has no slots")
    return
  end

  it("places a region's corners (bottom-left, top-left, top-right, bottom-right) on its bone", function()
    local rig = two_bone_rig()
    rig:apply(nil, 0)
    local t = rig:attachments()
    local box = t[1]
    assert.are.equal("box", box.slot)
    assert.are.equal("box", box.attachment)
    assert.are.equal("region", box.kind)
    -- corners (-5, -5), (-5, 5), (15, 5), (15, -5) on the arm: (x, y) -> (10 - y, x)
    assert_points({ 15, -5, 5, -5, 5, 15, 15, 15 }, box.vertices)
    assert_points({ 0, 1, 0, 0, 1, 0, 1, 1 }, box.uvs)
    assert.are.same({ 1, 2, 3, 3, 4, 1 }, box.triangles)
    assert.are.same({ 1, 1, 1, 1 }, box.color)
  end)

  it("sums a weighted mesh's vertices over their bones, tinted by the slot's colour", function()
    local rig = two_bone_rig()
    rig:apply(nil, 0)
    local skin = rig:attachments()[2]
    assert.are.equal("mesh", skin.kind)
    -- (0, 0) on root; half (4, 0) on root and half (0, -2) on the arm, (12, 0); (3, 1) on the arm
    assert_points({ 0, 0, 8, 0, 9, 3 }, skin.vertices)
    assert.are.same({ 1, 2, 3 }, skin.triangles)
    assert_points({ 1, 128 / 255, 0, 128 / 255 }, skin.color)
  end)

  it("follows the bones as a clip moves them, and the attachments a clip switches", function()
    local rig = two_bone_rig()
    rig:apply("hide", 0)
    assert.are.equal(2, #rig:attachments())
    rig:apply("hide", 0.5)
    local t = rig:attachments()
    assert.are.equal(1, #t)
    assert.are.equal("skin", t[1].slot)
  end)

  it("reuses t and its tables, and makes nothing a call", function()
    local rig = ik2d.rig.load("examples/hero/assets/hero.json", { atlas = "examples/hero/assets/hero.atlas" })
    rig:apply("walk", 0)
    local t = rig:attachments()
    local first, vertices, color = t[1], t[1].vertices, t[1].color
    for i = 1, 50 do
      rig:apply("walk", i / 50)
      assert.are.equal(t, rig:attachments(t))
    end
    assert.are.equal(first, t[1])
    assert.are.equal(vertices, t[1].vertices)
    assert.are.equal(color, t[1].color)
    -- the JIT's warm-up first: its traces are made once
    rig:apply("walk", 0.4)
    for _ = 1, 300 do rig:attachments(t) end
    collectgarbage()
    collectgarbage("stop")
    local before = collectgarbage("count")
    for _ = 1, 1000 do rig:attachments(t) end
    local bytes = (collectgarbage("count") - before) * 1024 / 1000
    collectgarbage("restart")
    -- LuaJIT's own traces account for a few bytes at most
    assert.is_true(bytes < 16, ("%.1f bytes a frame"):format(bytes))
  end)

  it("gives the hero's drawn slots in drawing order, as its clips switch and reorder them", function()
    local rig = ik2d.rig.load("examples/hero/assets/hero.json", { atlas = "examples/hero/assets/hero.atlas" })
    local t = {}
    rig:apply(nil, 0)
    rig:attachments(t)
    -- every slot with a set-up attachment that draws (not the point or the box)
    assert.are.equal(26, #t)
    assert.are.equal("cape", t[1].slot)
    assert.are.equal("lantern_glow", t[#t].slot)
    assert.are.equal("additive", t[#t].blend)
    local seen = {}
    for _, clip in ipairs({ "idle", "wave" }) do
      for step = 0, 40 do
        rig:apply(clip, rig.clips[clip].duration * step / 40)
        local at = {}
        for k, e in ipairs(rig:attachments(t)) do
          seen[e.slot .. "=" .. e.attachment] = true
          at[e.slot] = k
          assert.are.equal(#e.vertices, #e.uvs)
          assert.are.equal(rig.slots[e.slot_index].name, e.slot)
        end
        seen.arm_in_front = seen.arm_in_front or at.upper_arm_back > at.torso
      end
    end
    assert.is_true(seen["eye=eye_closed"])
    assert.is_true(seen["hand_back=hand_open"])
    assert.is_true(seen.arm_in_front)
  end)

  it("keeps a reused t entry for entry what a new table gets, across clips and rigs", function()
    -- an entry's names are written only when its slot or attachment
    -- changes; whatever the table held before (another rig's entries, a
    -- clip that switched or reordered), it must read as a fresh call's
    local hero = ik2d.rig.load("examples/hero/assets/hero.json", { atlas = "examples/hero/assets/hero.atlas" })
    local other = two_bone_rig()
    local t = {}
    local function same_as_fresh(rig)
      local fresh = rig:attachments({})
      local got = rig:attachments(t)
      assert.are.equal(#fresh, #got)
      for k = 1, #fresh do
        for _, field in ipairs({ "slot", "attachment", "kind", "slot_index", "attachment_index",
                                 "blend", "uvs", "triangles" }) do
          assert.are.equal(fresh[k][field], got[k][field], ("entry %d's %s"):format(k, field))
        end
        assert.are.same(fresh[k].vertices, got[k].vertices)
        assert.are.same(fresh[k].color, got[k].color)
        assert.are.same(fresh[k].dark, got[k].dark)
      end
    end
    for _, clip in ipairs({ "idle", "wave", "walk" }) do
      for step = 0, 12 do
        hero:apply(clip, hero.clips[clip].duration * step / 12)
        same_as_fresh(hero)
      end
      other:apply("hide", clip == "wave" and 0.5 or 0)
      same_as_fresh(other)
    end
    -- an entry a caller emptied is written again
    hero:apply("idle", 0)
    same_as_fresh(hero)
    t[1].color, t[1].vertices = nil, nil
    hero:apply("idle", 0)
    same_as_fresh(hero)
  end)

  it("is called on the rig: a wrong t or self is refused at the caller's line", function()
    local rig = two_bone_rig()
    local ok, message = pcall(rig.attachments, rig, 5)
    assert.is_false(ok)
    assert.matches("ik2d.rig: attachments: t must be a table or nil, got 5", message, 1, true)
    ok, message = pcall(rig.attachments, {}, nil)
    assert.is_false(ok)
    assert.matches("call it as rig:attachments", message, 1, true)
  end)
end)
