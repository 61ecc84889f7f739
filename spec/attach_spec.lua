local ik2d = require "ik2d"
local attach = require "ik2d.attach"
local helpers = require "spec.helpers"

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

    it("at joint 1 turns with bone 1 (legs on a hip)", function()
      local torso, arm = body()
      local leg = arm
      torso:set_pose(1, 0.3)              -- the hip bone leans: the legs lean with it
      attach.new():add(leg, torso, 1, pi):update()
      local bx, by, ba = leg:base()
      assert.near(100, bx, EPS)
      assert.near(200, by, EPS)
      assert.near(0, wrap(-pi / 2 + 0.3 + pi - ba), EPS)
    end)

    it("at joint i > 1 turns with bone i - 1, the one ending there; at joint 1 with bone 1", function()
      local torso = ik2d.chain{ x = 10, y = 20, angle = 0.5,
        { length = 30, angle = 0.1 }, { length = 20, angle = -0.7 }, { length = 10, angle = 0.4 } }
      for j = 1, 4 do
        local child = ik2d.chain{ { length = 5 } }
        attach.new():add(child, torso, j, 0.25):update()
        local bx, by, ba = child:base()
        local jx, jy = torso:joint(j)
        assert.near(jx, bx, EPS)
        assert.near(jy, by, EPS)
        local bone = math.max(j - 1, 1)
        assert.near(0, wrap(torso:world_angle(bone) + 0.25 - ba), EPS)
        assert.near(0, wrap(attach.direction(torso, j) - torso:world_angle(bone)), 0)
      end
    end)

    it("at joint 1 of a follow chain turns with bone 1, not the base angle the method never turns", function()
      -- a snake's tail is its base: the rattle on it must swing as the tail does
      local snake = ik2d.chain{ x = 0, y = 0, { length = 12 }, { length = 12 }, { length = 12 } }
      local rattle = ik2d.chain{ { length = 4 } }
      local head = ik2d.solver(snake, { method = "follow" })
      local rig = attach.new():add(rattle, snake, 1, pi)   -- pointing back, away from the body
      for k = 1, 40 do
        head:set_target(36 + 2 * k, 3 * k)                 -- crawl down and to the right
        head:solve()
        rig:update()
      end
      local _, _, snake_angle = snake:base()
      assert.near(0, snake_angle, 0)                        -- follow never turns the base
      assert.is_true(math.abs(wrap(snake:world_angle(1))) > 0.5)
      local _, _, ba = rattle:base()
      assert.near(0, wrap(snake:world_angle(1) + pi - ba), 1e-12)
      -- drawn: the rattle's first bone runs straight on from the tail, backwards
      local x1, y1 = snake:joint(1)
      local x2, y2 = snake:joint(2)
      local rx, ry = rattle:tip()
      local ux, uy = (x1 - x2) / 12, (y1 - y2) / 12
      assert.near(x1 + 4 * ux, rx, 1e-9)
      assert.near(y1 + 4 * uy, ry, 1e-9)
    end)

    it("at joint 1 of a flipped parent turns with bone 1 as drawn", function()
      local torso, arm = body()
      torso:set_pose(1, 0.3)
      torso:set_flip(true)
      attach.new():add(arm, torso, 1, 0, { flip = false }):update()
      local _, _, ba = arm:base()
      assert.near(0, wrap(torso:world_angle(1) - ba), EPS)
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
  end)

  describe("cycles", function()
    it("refuses a -> b, b -> a and longer loops, naming the helper, at the caller's line", function()
      local a, b, c = body()
      local rig = attach.new():add(b, a)
      assert.are.equal("ik2d.attach: add: parent hangs from child through the links: "
        .. "attaching would make a cycle",
        helpers.caller_error(function() rig:add(a, b) end))
      rig:add(c, b)
      assert.are.equal("ik2d.attach: add: parent hangs from child through the links: "
        .. "attaching would make a cycle",
        helpers.caller_error(function() rig:add(a, c) end))
      assert.are.equal("ik2d.attach: add: a chain cannot be attached to itself",
        helpers.caller_error(function() rig:add(a, a) end))
      assert.are.equal(2, rig:count())
      rig:update()                         -- still a tree: a -> b -> c
      local bx, by = b:base()
      local ax, ay = a:tip()
      assert.near(ax, bx, EPS)
      assert.near(ay, by, EPS)
    end)
  end)

  describe("inherit = \"position\"", function()
    it("puts the child's base on the joint and keeps its own base angle, whatever the parent turns", function()
      local torso, arm = body()
      arm:set_base(0, 0, 0.7)
      local rig = attach.new():add(arm, torso, 3, 0, { inherit = "position" })
      for _, a in ipairs{ -pi / 2, 0.3, 2.5 } do
        torso:set_base(100, 200, a)
        rig:update()
        local bx, by, ba = arm:base()
        local tx, ty = torso:tip()
        assert.near(tx, bx, EPS)
        assert.near(ty, by, EPS)
        assert.near(0, wrap(ba - 0.7), EPS)
      end
    end)

    it("still takes the parent's flip; the angle stays as authored (the chain mirrors it)", function()
      local torso, arm = body()
      arm:set_base(0, 0, 0.7)
      local rig = attach.new():add(arm, torso, 2, nil, { inherit = "position" })
      torso:set_flip(true)
      rig:update()
      assert.is_true(arm:flip())
      local bx, by, ba = arm:base()
      local jx, jy = torso:joint(2)
      assert.near(jx, bx, EPS)
      assert.near(jy, by, EPS)
      assert.near(0, wrap(ba - 0.7), EPS)
    end)

    it("refuses an offset, which it would ignore, and unknown inherit values", function()
      local torso, arm = body()
      local rig = attach.new()
      assert.are.equal("ik2d.attach: add: angle_offset must be 0 with inherit = \"position\" "
        .. "(the child keeps its own base angle), got 0.4",
        helpers.caller_error(function() rig:add(arm, torso, 3, 0.4, { inherit = "position" }) end))
      assert.are.equal("ik2d.attach: add: opts.inherit must be \"rotation\" or \"position\", got \"all\"",
        helpers.caller_error(function() rig:add(arm, torso, 3, 0, { inherit = "all" }) end))
      assert.are.equal(0, rig:count())
    end)
  end)

  describe("all or nothing", function()
    -- A real chain behind a proxy whose set_base raises when told to.
    local function fragile(c)
      local p = { fail = false }
      setmetatable(p, { __len = function() return #c end, __index = function(_, m)
        return function(self, ...)
          if m == "set_base" and self.fail then error("set_base refuses", 0) end
          return c[m](c, ...)
        end
      end })
      return p, c
    end

    it("an update whose child raises puts back the links already applied", function()
      local torso, arm, hand = body()
      local leg = ik2d.chain{ { length = 9 } }
      local p = fragile(leg)
      local rig = attach.new():add(arm, torso, 3):add(hand, arm):add(p, torso, 1, pi)
      rig:update()
      torso:set_base(300, 50, 0.2)
      torso:set_flip(true)
      local function bases()
        local t = {}
        for _, c in ipairs{ arm, hand, leg } do
          local x, y, a = c:base()
          t[#t + 1] = { x, y, a, c:flip() }
        end
        return t
      end
      local before = bases()
      p.fail = true
      assert.has_error(function() rig:update() end, "set_base refuses")
      assert.are.same(before, bases())
      p.fail = false
      rig:update()
      local lx, ly = leg:base()
      assert.near(300, lx, EPS)
      assert.near(50, ly, EPS)
    end)
  end)

  describe("refused calls", function()
    it("refuses bad arguments at the caller's line, naming the function and the argument", function()
      local torso, arm = body()
      local rig = attach.new():add(arm, torso)
      local err = helpers.caller_error
      assert.are.equal("ik2d.attach: add: child must be an ik2d chain, got nil",
        err(function() rig:add(nil, torso) end))
      assert.are.equal("ik2d.attach: add: parent must be an ik2d chain, got 5",
        err(function() attach.new():add(arm, 5) end))
      assert.are.equal("ik2d.attach: add: child is already attached (remove it first)",
        err(function() rig:add(arm, torso, 1) end))
      assert.are.equal("ik2d.attach: add: joint must be a whole number in 1..3, got 4",
        err(function() attach.new():add(arm, torso, 4) end))
      assert.are.equal("ik2d.attach: add: joint must be a whole number in 1..3, got 1.5",
        err(function() attach.new():add(arm, torso, 1.5) end))
      assert.are.equal("ik2d.attach: add: angle_offset must be a finite number, got nan",
        err(function() attach.new():add(arm, torso, 2, 0 / 0) end))
      assert.are.equal("ik2d.attach: add: opts.flip must be a boolean or nil, got 1",
        err(function() attach.new():add(arm, torso, 2, 0, { flip = 1 }) end))
      assert.are.equal("ik2d.attach: add: opts has an unknown field (known: flip, inherit), got \"flipped\"",
        err(function() attach.new():add(arm, torso, 2, 0, { flipped = true }) end))
      assert.are.equal("ik2d.attach: remove: child must be an ik2d chain, got nil",
        err(function() rig:remove(nil) end))
      assert.are.equal("ik2d.attach: apply: i must be a whole number in 1..1, got 2",
        err(function() rig:apply(2) end))
      assert.are.equal("ik2d.attach: update: self must be an attach (call it with a colon), got nil",
        err(function() rig.update() end))
      assert.are.equal(1, rig:count())
    end)
  end)
end)
