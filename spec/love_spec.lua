-- ik2d.love outside LOVE: the limit-arc geometry with the real module,
-- and the drawing calls against a recording stand-in for love.graphics.
-- (examples/love/autotest.lua runs the same functions in real LOVE.)
local ik2d = require "ik2d"

local pi, tau = math.pi, 2 * math.pi
local unpack = table.unpack or unpack   -- luacheck: ignore 143

-- A love.graphics that records its calls.
local calls
local function recorder()
  calls = {}
  local g = setmetatable({}, {
    __index = function(_, name)
      return function(...)
        calls[#calls + 1] = { name = name, ... }
      end
    end,
  })
  return { graphics = g }
end

local function find(name)
  local out = {}
  for _, c in ipairs(calls) do
    if c.name == name then out[#out + 1] = c end
  end
  return out
end

-- Is angle a inside the arc [a1, a2] (a1 <= a2), modulo 2 pi?
local function inside(a, a1, a2, eps)
  local off = (a - a1) % tau
  return off <= (a2 - a1) + eps or off >= tau - eps
end

local ikdraw
local fake = {}      -- the `love` global while these specs run

describe("ik2d.love", function()
  setup(function()
    fake.graphics = recorder().graphics
    rawset(_G, "love", fake)
    ikdraw = require "ik2d.love"
  end)

  teardown(function()
    rawset(_G, "love", nil)
  end)

  before_each(function()
    fake.graphics = recorder().graphics
  end)

  local function limb(flip)
    return ik2d.chain{ x = 100, y = 50, angle = 0.4, flip = flip,
      { length = 40, angle = 0.3, min = -0.5, max = 1.0 },
      { length = 30, angle = -0.2, min = -1.2, max = 0.1 },
      { length = 10 } }
  end

  describe("limit_arc", function()
    it("spans parent + rest + min .. parent + rest + max on an unflipped chain", function()
      local c = limb(false)
      local a1, a2 = ikdraw.limit_arc(c, 1)
      assert.near(0.4 + 0.3 - 0.5, a1, 1e-12)
      assert.near(0.4 + 0.3 + 1.0, a2, 1e-12)
      a1, a2 = ikdraw.limit_arc(c, 2)   -- parent: bone 1 at 0.7
      assert.near(0.7 - 0.2 - 1.2, a1, 1e-12)
      assert.near(0.7 - 0.2 + 0.1, a2, 1e-12)
    end)

    it("is the mirror image, pi - arc, on a flipped chain", function()
      local u, f = limb(false), limb(true)
      for i = 1, 2 do
        local u1, u2 = ikdraw.limit_arc(u, i)
        local f1, f2 = ikdraw.limit_arc(f, i)
        assert.near(f2 - f1, u2 - u1, 1e-12)
        assert.near(0, ((pi - u2) - f1 + pi) % tau - pi, 1e-12)
      end
    end)

    it("contains each bone's drawn direction after solving, flipped or not", function()
      for _, flip in ipairs{ false, true } do
        local c = limb(flip)
        local s = ik2d.solver(c, { iterations = 20 })
        for _, t in ipairs{ { 60, 90 }, { 160, 10 }, { 20, 20 }, { 100, 130 } } do
          s:set_target(t[1], t[2])
          s:solve()
          for i = 1, 2 do
            local a1, a2 = ikdraw.limit_arc(c, i)
            assert.is_true(inside(c:world_angle(i), a1, a2, 1e-9),
              ("bone %d (flip %s) at %.4f outside %.4f..%.4f")
                :format(i, tostring(flip), c:world_angle(i), a1, a2))
          end
        end
      end
    end)

    it("returns nil for a free bone and the full circle for a range of 2 pi or more", function()
      local c = limb(false)
      assert.is_nil(ikdraw.limit_arc(c, 3))
      c:set_constraint(3, ik2d.constraint{ min = -4, max = 4 })
      local a1, a2 = ikdraw.limit_arc(c, 3)
      assert.near(0, a1, 0)
      assert.near(tau, a2, 0)
    end)
  end)

  describe("drawing", function()
    it("draw_chain draws the bones as one line of all joints, a circle per joint and the tip", function()
      local c = limb(false)
      ikdraw.draw_chain(c)
      local lines = find("line")
      assert.are.equal(1, #lines)
      local pts = lines[1][1]
      assert.are.equal(8, #pts)
      local tx, ty = c:tip()
      assert.near(tx, pts[7], 0)
      assert.near(ty, pts[8], 0)
      assert.are.equal(4, #find("circle"))
      assert.are.equal(#find("push"), #find("pop"))
    end)

    it("draw_limits draws a pie per limited joint from limit_arc's angles", function()
      local c = limb(true)
      ikdraw.draw_limits(c, { limit_radius = 12 })
      local arcs = find("arc")
      assert.are.equal(4, #arcs)          -- fill and outline, two joints
      local a1, a2 = ikdraw.limit_arc(c, 2)
      local x, y = c:joint(2)
      local last = arcs[4]
      assert.are.same({ "line", "pie", x, y, 12, a1, a2 }, { unpack(last, 1, 7) })
    end)

    it("draw_target turns to the reached colour within tolerance", function()
      local c = limb(false)
      local s = ik2d.solver(c, { tolerance = 0.5 })
      local red, green = { 1, 0, 0, 1 }, { 0, 1, 0, 1 }
      s:set_target(c:tip())
      ikdraw.draw_target(s, { target_color = red, reached_color = green })
      local colors = find("setColor")
      assert.are.same({ 0, 1, 0, 1 }, { unpack(colors[1], 1, 4) })
      fake.graphics = recorder().graphics
      s:set_target(0, 0)
      ikdraw.draw_target(s, { target_color = red, reached_color = green })
      colors = find("setColor")
      assert.are.same({ 1, 0, 0, 1 }, { unpack(colors[1], 1, 4) })
    end)

    it("draw_solver skips the target of a weight-0 solver unless zero_weight_targets is set", function()
      local c = limb(false)
      local s = ik2d.solver(c, { weight = 0 })
      s:set_target(-300, 400)              -- far away: a line to it would cross the screen
      ikdraw.draw_solver(s)
      assert.are.equal(1, #find("line"))  -- the bones only
      fake.graphics = recorder().graphics
      ikdraw.draw_solver(s, { zero_weight_targets = true })
      assert.are.equal(4, #find("line"))  -- bones, the cross's two strokes, the line from the tip
      fake.graphics = recorder().graphics
      s:set_weight(0.25)
      ikdraw.draw_solver(s)
      assert.are.equal(4, #find("line"))
    end)

    it("refuses bad arguments at the caller's line, naming the function and the argument", function()
      local helpers = require "spec.helpers"
      local err = helpers.caller_error
      local c = limb(false)
      local s = ik2d.solver(c)
      assert.are.equal("ik2d.love: draw_chain: chain must be an ik2d chain, got nil",
        err(function() ikdraw.draw_chain(nil) end))
      assert.are.equal("ik2d.love: draw_solver: solver must be an ik2d solver, got ik2d.Chain",
        err(function() ikdraw.draw_solver(c) end))
      assert.are.equal("ik2d.love: draw_solver: opts has an unknown field (known: bone_color, color, joint_color, "
        .. "joint_radius, limit_color, limit_line_color, limit_radius, line_width, reached_color, segments, "
        .. "target_color, target_line, target_size, tip_color, tip_radius, zero_weight_targets), got \"bone_colour\"",
        err(function() ikdraw.draw_solver(s, { bone_colour = { 1, 0, 0 } }) end))
      assert.are.equal("ik2d.love: limit_arc: i must be a whole number in 1..3, got 4",
        err(function() ikdraw.limit_arc(c, 4) end))
      assert.are.equal("ik2d.love: draw_sprites: sprites must be a sprite table or a list of them, got nil",
        err(function() ikdraw.draw_sprites(c, nil) end))
      assert.are.equal("ik2d.love: draw_target: opts must be a table or nil, got 3",
        err(function() ikdraw.draw_target(s, 3) end))
      assert.are.equal(0, #calls)          -- nothing drawn
    end)

    it("draw_sprites puts each sprite on its joint, rotated to the bone, mirrored when flipped", function()
      local image = { getDimensions = function() return 50, 10 end }
      for _, flip in ipairs{ false, true } do
        fake.graphics = recorder().graphics
        local c = limb(flip)
        ikdraw.draw_sprites(c, { { image = image }, { image = image, ox = 3, stretch = true } })
        local draws = find("draw")
        assert.are.equal(2, #draws)
        for i, d in ipairs(draws) do
          local x, y = c:joint(i)
          assert.are.equal(image, d[1])
          assert.near(x, d[2], 0)
          assert.near(y, d[3], 0)
          assert.near(c:world_angle(i), d[4], 0)
          assert.near(flip and -1 or 1, d[6], 0)   -- sy
          assert.near(5, d[8], 0)                  -- oy: half the height
        end
        assert.near(1, draws[1][5], 0)             -- sx
        assert.near(30 / 50, draws[2][5], 1e-15)   -- stretched to the bone
        assert.near(3, draws[2][7], 0)             -- ox
      end
    end)
  end)

  describe("skeletons", function()
    local function body(flip)
      local sk = ik2d.skeleton{ x = 200, y = 100, angle = 0.1, flip = flip,
        { name = "hip", length = 0 },
        { name = "spine", parent = "hip", length = 40, angle = -1.57, min = -0.5, max = 0.5 },
        { name = "arm", parent = "spine", length = 30, angle = 2, min = -1, max = 1.5 },
        { name = "hand", parent = "arm", length = 20 },
        { name = "head", parent = "spine", length = 10, inherit = "position", min = -0.3, max = 0.3 } }
      local reach = ik2d.solver(sk:chain("arm", "hand"))
      local tx, ty = sk:tip("hand")
      reach:set_target(tx + (flip and 5 or -5), ty + 3)   -- the same target, mirrored
      local idle = ik2d.solver(sk:chain("spine", "spine"), { weight = 0 })
      idle:set_target(0, 0)
      assert.are.equal(1, sk:solve())                    -- idle is off: its target is far
      return sk, reach, idle
    end

    it("draw_skeleton draws each bone, each joint, each leaf's tip, limits and live targets", function()
      for _, flip in ipairs{ false, true } do
        fake.graphics = recorder().graphics
        local sk = body(flip)
        ikdraw.draw_skeleton(sk)
        local lines, circles = find("line"), find("circle")
        -- 4 bones with length (the pivot has none), 1 target cross of 2 lines
        -- (reached: no line to it); the weight-0 solver's target left out
        assert.are.equal(4 + 2, #lines)
        for i = 2, 5 do
          local x, y = sk:world(i)
          local tx, ty = sk:tip(i)
          assert.are.same({ x, y, tx, ty }, { lines[i - 1][1], lines[i - 1][2], lines[i - 1][3], lines[i - 1][4] })
        end
        -- a joint per bone, a tip per leaf (hand, head)
        assert.are.equal(5 + 2, #circles)
        -- an arc per limited bone, containing the bone's direction
        local arcs = find("arc")
        assert.are.equal(2 * 3, #arcs)                   -- fill and line each
        for k, i in ipairs{ 2, 3, 5 } do
          local arc = arcs[2 * k - 1]
          local x, y, a = sk:world(i)
          assert.are.same({ x, y }, { arc[3], arc[4] })
          assert.is_true(inside(a, arc[6], arc[7], 1e-9))
        end
      end
    end)

    it("limit arcs of a skeleton's bones are the arcs of its chains' bones", function()
      local sk = body(true)
      local c = sk:chain("spine", "hand")
      local v = ikdraw.skeleton_view(sk)
      for k, i in ipairs{ 2, 3 } do
        assert.are.same({ ikdraw.limit_arc(c, k) }, { ikdraw.limit_arc(v, i) })
      end
    end)

    it("draw_sprites puts sprites keyed by bone name on their bones", function()
      local image = { getDimensions = function() return 50, 10 end }
      for _, flip in ipairs{ false, true } do
        fake.graphics = recorder().graphics
        local sk = body(flip)
        ikdraw.draw_sprites(sk, { arm = { image = image }, hand = { image = image, stretch = true } })
        local draws = find("draw")
        assert.are.equal(2, #draws)
        for k, name in ipairs{ "arm", "hand" } do
          local x, y, a = sk:world(name)
          assert.are.same({ x, y, a }, { draws[k][2], draws[k][3], draws[k][4] })
          assert.near(flip and -1 or 1, draws[k][6], 0)
        end
        assert.near(20 / 50, draws[2][5], 1e-15)
        fake.graphics = recorder().graphics
        ikdraw.draw_sprites(sk, { image = image })           -- one sprite for every bone
        assert.are.equal(#sk, #find("draw"))
      end
    end)

    it("checks its arguments at the caller's line", function()
      local function err(f)
        local ok, msg = pcall(f)
        assert.is_false(ok)
        return (tostring(msg):gsub("^[^:]*:%d+: ", ""))
      end
      local sk = body(false)
      assert.are.equal("ik2d.love: draw_skeleton: sk must be an ik2d skeleton, got nil",
        err(function() ikdraw.draw_skeleton(nil) end))
      assert.are.equal("ik2d.love: draw_sprites: sprites must be a sprite table or a table of them by "
        .. "bone name, got nil", err(function() ikdraw.draw_sprites(sk, nil) end))
      assert.truthy(err(function() ikdraw.draw_skeleton(sk, { colour = 1 }) end):find("unknown field", 1, true))
    end)
  end)
end)
