local ik2d = require "ik2d"
local attach = require "ik2d.attach"

local pi = math.pi
local EPS = 1e-12

local function wrap(a)
  return (a + pi) % (2 * pi) - pi
end

-- The direction a chain's base points, as drawn (mirrored when flipped).
local function base_direction(c)
  if c:flip() then return c:world_angle(1) + c:angle(1) end
  return c:world_angle(1) - c:angle(1)
end

-- A torso standing up from (100, 200), an arm and a hand.
local function body()
  local torso = ik2d.chain{ x = 100, y = 200, angle = -pi / 2,
    { length = 30 }, { length = 30, angle = 0.2 } }
  local arm = ik2d.chain{ { length = 25, angle = 0.3 }, { length = 25, angle = -0.5 } }
  local hand = ik2d.chain{ { length = 8 } }
  return torso, arm, hand
end

describe("ik2d.attach", function()
  describe("add and update", function()
    it("puts the child's base on the parent's joint, turned by the offset", function()
      local torso, arm = body()
      attach.new():add(arm, torso, 3, 0.4):update()
      local bx, by, ba = arm:base()
      local tx, ty = torso:tip()
      assert.near(tx, bx, EPS)
      assert.near(ty, by, EPS)
      -- joint 3 ends bone 2, which points -pi/2 + 0.2
      assert.near(-pi / 2 + 0.2 + 0.4, ba, EPS)
    end)

    it("defaults to the parent's tip with no offset", function()
      local torso, arm = body()
      attach.new():add(arm, torso):update()
      local bx, by, ba = arm:base()
      local tx, ty = torso:tip()
      assert.near(tx, bx, EPS)
      assert.near(ty, by, EPS)
      assert.near(torso:world_angle(2), ba, EPS)
    end)

    it("at joint 1 uses the parent's base direction (legs on a hip)", function()
      local torso, arm = body()
      local leg = arm
      attach.new():add(leg, torso, 1, pi):update()
      local bx, by, ba = leg:base()
      assert.near(100, bx, EPS)
      assert.near(200, by, EPS)
      assert.near(pi / 2, ba, EPS)        -- -pi/2 + pi: pointing down
    end)

    it("follows the parent's solved pose on the next update", function()
      local torso, arm = body()
      local rig = attach.new():add(arm, torso, 3)
      local s = ik2d.solver(torso, { iterations = 20 })
      s:set_target(130, 160)
      s:solve()
      rig:update()
      local bx, by, ba = arm:base()
      local tx, ty = torso:tip()
      assert.near(tx, bx, EPS)
      assert.near(ty, by, EPS)
      assert.near(0, wrap(torso:world_angle(2) - ba), EPS)
    end)

    it("moves the child's result joints rigidly with its base", function()
      local torso, arm = body()
      local rig = attach.new():add(arm, torso)
      rig:update()
      local x1, y1 = arm:tip()
      local bx1, by1 = arm:base()
      torso:set_base(150, 220, -pi / 2)
      rig:update()
      local x2, y2 = arm:tip()
      local bx2, by2 = arm:base()
      assert.near(x1 - bx1, x2 - bx2, 1e-9)
      assert.near(y1 - by1, y2 - by2, 1e-9)
    end)
  end)

  describe("order", function()
    it("applies links in the order added: parents first, so one update places a grandchild", function()
      local torso, arm, hand = body()
      local rig = attach.new()
      rig:add(arm, torso, 3, 0.4)
      rig:add(hand, arm)
      rig:update()
      local ax, ay = arm:tip()
      local hx, hy = hand:base()
      assert.near(ax, hx, EPS)
      assert.near(ay, hy, EPS)
    end)

    it("a child added before its parent's link reads the parent's previous position", function()
      local torso, arm, hand = body()
      local rig = attach.new()
      rig:add(hand, arm)                  -- wrong order, on purpose
      rig:add(arm, torso, 3, 0.4)
      local ax0, ay0 = arm:tip()          -- arm at its initial base (0, 0)
      rig:update()
      local hx, hy = hand:base()
      assert.near(ax0, hx, EPS)           -- stale: where the arm was
      assert.near(ay0, hy, EPS)
      local ax, ay = arm:tip()
      assert.is_true(math.abs(ax - hx) + math.abs(ay - hy) > 1)
      rig:update()                        -- a second update catches up
      hx, hy = hand:base()
      assert.near(ax, hx, EPS)
      assert.near(ay, hy, EPS)
    end)
  end)

  describe("flip", function()
    it("the child takes the parent's flip and the offset is mirrored", function()
      local torso, arm = body()
      local rig = attach.new():add(arm, torso, 3, 0.4)
      rig:update()
      local dir = base_direction(arm)
      torso:set_flip(true)
      rig:update()
      assert.is_true(arm:flip())
      local bx, by = arm:base()
      local tx, ty = torso:tip()
      assert.near(tx, bx, EPS)
      assert.near(ty, by, EPS)
      -- as drawn, the arm's base direction is the mirror image: pi - dir
      assert.near(0, wrap(base_direction(arm) - (pi - dir)), 1e-9)
      -- and the arm's tip is the mirror of where it was about the torso base
      torso:set_flip(false)
      rig:update()
      local ux, uy = arm:tip()
      torso:set_flip(true)
      rig:update()
      local fx, fy = arm:tip()
      assert.near(2 * 100 - ux, fx, 1e-9)
      assert.near(uy, fy, 1e-9)
    end)

    it("flip = false leaves the child's flip alone", function()
      local torso, arm = body()
      local rig = attach.new():add(arm, torso, 3, 0, { flip = false })
      torso:set_flip(true)
      rig:update()
      assert.is_false(arm:flip())
      assert.near(0, wrap(base_direction(arm) - torso:world_angle(2)), 1e-9)
    end)
  end)

  describe("bookkeeping", function()
    it("counts and removes links", function()
      local torso, arm, hand = body()
      local rig = attach.new():add(arm, torso):add(hand, arm)
      assert.are.equal(2, rig:count())
      assert.is_true(rig:remove(arm))
      assert.is_false(rig:remove(arm))
      assert.are.equal(1, rig:count())
    end)

    it("raises on self attachment, a second parent and a bad joint", function()
      local torso, arm = body()
      local rig = attach.new():add(arm, torso)
      assert.has_error(function() rig:add(torso, torso) end,
        "bad argument #2 to 'add' (a chain cannot be attached to itself)")
      assert.has_error(function() rig:add(arm, torso, 1) end,
        "bad argument #1 to 'add' (chain is already attached)")
      assert.has_error(function() attach.new():add(arm, torso, 4) end,
        "bad argument #3 to 'add' (joint must be an integer in 1..3)")
      assert.has_error(function() attach.new():add(arm, torso, 1.5) end,
        "bad argument #3 to 'add' (joint must be an integer in 1..3)")
    end)
  end)
end)
