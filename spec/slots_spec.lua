-- Slots' world vertices, derived by hand: a region's corners on a turned
-- bone, a weighted vertex summed from two bones, a deform offset (on one
-- bone and on a weighted mesh's entries), a linked mesh taking its
-- owner's offsets, tints, and what a clip switches (attachment, draw
-- order) at alpha one half.  On whichever core ik2d loads (make test runs
-- the specs with the C core and with IK2D_PURE=1).

local ik2d = require "ik2d"

local EPS = 1e-12

local function near_list(want, got)
  assert.are.equal(#want, #got)
  for k = 1, #want do assert.near(want[k], got[k], EPS, "item " .. k) end
end

local QUAD_UVS = { 0, 1, 0, 0, 1, 0, 1, 1 }

-- a root "a" at (10, 20) turned a quarter (x axis up the screen's y),
-- "b" at its tip (length 10) turned a further quarter
local function two_bones()
  return ik2d.skeleton{ x = 10, y = 20,
    { name = "a", length = 10, angle = math.pi / 2 },
    { name = "b", parent = "a", length = 5, angle = math.pi / 2 } }
end

local function region(x0, y0, x1, y1, color)
  return { kind = "region", vertices = { x0, y0, x0, y1, x1, y1, x1, y0 }, uvs = QUAD_UVS,
    triangles = { 1, 2, 3, 3, 4, 1 }, color = color }
end

describe("slots' world vertices", function()
  it("place a region's corners through its bone's map", function()
    local sk = two_bones()
    local slots = ik2d.slots(sk, { slots = { { bone = 1, attachment = 1 } },
      attachments = { region(-1, -2, 3, 4) } })
    -- a at (10, 20), x axis (0, 1), y axis (-1, 0): (x, y) -> (10 - y, 20 + x)
    near_list({ 12, 19, 6, 19, 6, 23, 12, 23 }, slots:vertices(1))
  end)

  it("sum a weighted vertex from two bones by its weights", function()
    local sk = two_bones()
    -- b at a's tip (10, 30), turned a half: x axis (-1, 0), y axis (0, -1)
    local slots = ik2d.slots(sk, { slots = { { bone = 1, attachment = 1 } },
      attachments = { { kind = "mesh", uvs = { 0, 0, 1, 0, 0, 1 }, triangles = { 1, 2, 3 },
        weights = {
          2, 1, 2, 1, 0.25, 2, 3, 0, 0.75, -- a: (9, 22); b: (7, 30)
          1, 2, 0, 0, 1,                   -- b's origin (10, 30)
          1, 1, 0, 4, 1,                   -- a: (6, 20)
        } } } })
    near_list({ 0.25 * 9 + 0.75 * 7, 0.25 * 22 + 0.75 * 30, 10, 30, 6, 20 }, slots:vertices(1))
  end)

  it("add a clip's deform offsets before the map, on one bone and per weight entry", function()
    local sk = two_bones()
    local slots = ik2d.slots(sk, { slots = { { bone = 1, attachment = 1 }, { bone = 2, attachment = 2 } },
      attachments = {
        { kind = "mesh", uvs = { 0, 0, 1, 0, 0, 1 }, triangles = { 1, 2, 3 },
          vertices = { 0, 0, 1, 0, 0, 1 }, deform = 1 },
        { kind = "mesh", uvs = { 0, 0 }, weights = { 2, 1, 1, 0, 0.5, 2, 0, 0, 0.5 }, deform = 2 },
      } })
    local targets = ik2d.rig_targets{ skeleton = sk, slots = slots }
    local clip = ik2d.clip(targets, { duration = 1, timelines = {
      { channel = "deform", target = 1, times = { 0, 1 }, values = { 0, 0, 0, 0, 0, 0, 2, 0, 0, 4, 0, 0 } },
      { channel = "deform", target = 2, times = { 0 }, values = { 1, 0, 0, 2 } },
    } })
    clip:apply(targets, 0.5)
    sk:solve()
    -- halfway: offsets (1, 0), (0, 2), (0, 0) in a's space; (x, y) -> (10 - y, 20 + x)
    near_list({ 10, 21, 8, 21, 9, 20 }, slots:vertices(1))
    near_list({ 1, 0, 0, 2, 0, 0 }, slots:deform(1))
    -- a's (1, 0) + (1, 0): (10, 22); b's (0, 0) + (0, 2): (10, 28); halves summed
    near_list({ 10, 25 }, slots:vertices(2))
    slots:to_setup()
    near_list({ 0, 0, 0, 0, 0, 0 }, slots:deform(1))
    near_list({ 10, 20, 10, 21, 9, 20 }, slots:vertices(1))
  end)

  it("let a linked mesh take its owner's offsets on its own slot's bone", function()
    local sk = two_bones()
    local mesh = { kind = "mesh", uvs = { 0, 0, 1, 0, 0, 1 }, triangles = { 1, 2, 3 },
      vertices = { 0, 0, 1, 0, 0, 1 }, deform = 1 }
    local linked = { kind = "mesh", uvs = mesh.uvs, triangles = mesh.triangles,
      vertices = mesh.vertices, deform = 1, color = { 0.5, 1, 1, 1 } }
    local slots = ik2d.slots(sk, { slots = { { bone = 1, attachment = 1 }, { bone = 2, attachment = 2 } },
      attachments = { mesh, linked } })
    local targets = ik2d.rig_targets{ skeleton = sk, slots = slots }
    ik2d.clip(targets, { duration = 0, timelines = {
      { channel = "deform", target = 1, times = { 0 }, values = { 1, 0, 0, 0, 0, 0 } } } })
      :apply(targets, 0)
    -- the linked mesh's own offsets: none (it has no timeline of its own)
    assert.is_nil(slots:deform(2))
    -- on b, (10, 30) with x axis (-1, 0), y axis (0, -1): (x, y) -> (10 - x, 30 - y)
    near_list({ 9, 30, 9, 30, 10, 29 }, slots:vertices(2))
    -- the tint: the slot's colour times the attachment's
    local r, g = slots:tint(2)
    assert.are.equal(0.5, r)
    assert.are.equal(1, g)
  end)

  it("switch attachments and the draw order at alpha one half", function()
    local sk = two_bones()
    local slots = ik2d.slots(sk, {
      slots = { { bone = 1, attachment = 1 }, { bone = 2, color = { 1, 0, 0, 1 } } },
      attachments = { region(0, 0, 1, 1), region(0, 0, 2, 2) } })
    local targets = ik2d.rig_targets{ skeleton = sk, slots = slots }
    local clip = ik2d.clip(targets, { duration = 1, timelines = {
      { channel = "attachment", target = 1, times = { 0 }, values = { 2 } },
      { channel = "attachment", target = 2, times = { 0 }, values = { 1 } },
      { channel = "draw_order", times = { 0 }, values = { 2, 1 } },
      { channel = "alpha", target = 2, times = { 0, 1 }, values = { 0, 1 } },
    } })
    clip:apply(targets, 0.5, 0.49)
    assert.are.equal(1, slots:attachment(1))
    assert.is_nil(slots:attachment(2))
    assert.are.same({ 1, 2 }, slots:draw_order())
    -- the alpha blended: from 1 toward 0.5 by 0.49
    assert.near(1 + (0.5 - 1) * 0.49, select(4, slots:color(2)), EPS)
    slots:to_setup()
    clip:apply(targets, 0.5, 0.5)
    assert.are.equal(2, slots:attachment(1))
    assert.are.equal(1, slots:attachment(2))
    assert.are.same({ 2, 1 }, slots:draw_order())
    assert.near(0.75, select(4, slots:color(2)), EPS)
    near_list({ 10, 20, 8, 20, 8, 22, 10, 22 }, slots:vertices(1))
  end)

  it("hold a y-up rig's corners upside down under the skeleton's scale", function()
    local sk = ik2d.skeleton{ scale_x = 1, scale_y = -1, { name = "a", length = 4 } }
    local slots = ik2d.slots(sk, { slots = { { bone = 1, attachment = 1 } },
      attachments = { region(0, 0, 2, 3) } })
    near_list({ 0, 0, 0, -3, 2, -3, 2, 0 }, slots:vertices(1))
  end)
end)
