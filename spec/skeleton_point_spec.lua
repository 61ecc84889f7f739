-- sk:point(bone, x, y): the world point of (x, y) in a bone's space, as
-- the bone is drawn: turned with it, mirrored with a flipped skeleton,
-- scaled and sheared with a general one; the point a target on the bone
-- at (x, y) reaches.  Against values worked out by hand and against the
-- bone's matrix; its refusals name it; on the FFI path and the classic one.

local ik2d = require "ik2d"
local helpers = require "spec.helpers"

local cos, sin = math.cos, math.sin
local EPS = 1e-12

-- a body at (100, 50) turned 0.2; an arm at its tip turned 0.5 more
local function rig(extra)
  local t = { x = 100, y = 50, angle = 0.2,
    { name = "body", length = 20 },
    { name = "arm", parent = "body", length = 10, angle = 0.5 },
  }
  for k, v in pairs(extra or {}) do t[k] = v end
  return ik2d.skeleton(t)
end

-- the point (x, y) through the matrix a, b, c, d, tx, ty
local function through(x, y, a, b, c, d, tx, ty) return a * x + b * y + tx, c * x + d * y + ty end

helpers.on_both_paths(ik2d, function()
  describe("sk:point", function()
    it("turns the point with the bone", function()
      local sk = rig()
      -- the arm's origin: the body's tip; its direction 0.2 + 0.5
      local ox, oy = 100 + 20 * cos(0.2), 50 + 20 * sin(0.2)
      local x, y = sk:point("arm", 3, 4)
      assert.near(ox + 3 * cos(0.7) - 4 * sin(0.7), x, EPS)
      assert.near(oy + 3 * sin(0.7) + 4 * cos(0.7), y, EPS)
    end)

    it("gives the bone's origin at (0, 0) and its tip at (length, 0), by name or index", function()
      local sk = rig()
      for _, b in ipairs{ "body", "arm", 1, 2 } do
        local wx, wy = sk:world(b)
        local px, py = sk:point(b, 0, 0)
        assert.near(wx, px, EPS)
        assert.near(wy, py, EPS)
        local tx, ty = sk:tip(b)
        px, py = sk:point(b, sk:length(b), 0)
        assert.near(tx, px, EPS)
        assert.near(ty, py, EPS)
      end
    end)

    it("mirrors the point about the base with a flipped skeleton", function()
      local sk = rig{ flip = true }
      local ox, oy = 100 + 20 * cos(0.2), 50 + 20 * sin(0.2)
      -- unflipped (ox + u, oy + v) drawn at (2 * 100 - ox - u, oy + v)
      local u, v = 3 * cos(0.7) - 4 * sin(0.7), 3 * sin(0.7) + 4 * cos(0.7)
      local x, y = sk:point("arm", 3, 4)
      assert.near(200 - ox - u, x, EPS)
      assert.near(oy + v, y, EPS)
      -- a bone's space drawn flipped: (x, y) at its drawn direction a and
      -- the y axis mirrored, as examples/rifleman computed it by hand
      local wx, wy, a = sk:world("arm")
      assert.near(wx + 3 * cos(a) + 4 * sin(a), x, EPS)
      assert.near(wy + 3 * sin(a) - 4 * cos(a), y, EPS)
    end)

    it("follows the result after a solve", function()
      local sk = rig()
      local s = ik2d.solver(sk:chain("body", "arm"))
      s:set_target(110, 70)
      sk:solve()
      local wx, wy, a = sk:world("arm")
      local x, y = sk:point("arm", 5, -2)
      assert.near(wx + 5 * cos(a) + 2 * sin(a), x, EPS)
      assert.near(wy + 5 * sin(a) - 2 * cos(a), y, EPS)
    end)

    for _, flip in ipairs{ false, true } do
      it("maps the point by the bone's matrix on a scaled, sheared skeleton (flip " .. tostring(flip) .. ")",
         function()
        local sk = rig{ flip = flip, scale_x = 1.5, scale_y = -0.5,
          { name = "body", length = 20, scale_x = 2, shear_y = 0.3 },
          { name = "arm", parent = "body", length = 10, angle = 0.5, scale_y = 3 } }
        for _, b in ipairs{ "body", "arm" } do
          local ex, ey = through(3, 4, sk:matrix(b))
          local x, y = sk:point(b, 3, 4)
          assert.near(ex, x, 1e-9)
          assert.near(ey, y, 1e-9)
        end
      end)
    end

    it("is where a target on the bone at the same point is", function()
      local sk = rig{ flip = true }
      local arm = ik2d.solver(ik2d.chain{ x = 90, y = 40, { length = 30 }, { length = 30 } })
      arm:set_target_bone(sk, "arm", 3, 4)
      arm:solve()
      assert.are.same({ sk:point("arm", 3, 4) }, { arm:target() })
    end)

    it("gives the bone's origin for a point beyond the doubles", function()
      local sk = rig()
      local wx, wy = sk:world("arm")
      local x, y = sk:point("arm", 1.5e308, 1.5e308)
      assert.are.same({ wx, wy }, { x, y })
    end)

    it("refuses a bad bone, x or y, naming itself", function()
      local sk = rig()
      local caller_error = helpers.caller_error
      assert.are.equal("bad argument #1 to 'point' (unknown bone \"leg\")",
                       caller_error(function() sk:point("leg", 1, 2) end))
      assert.are.equal("bad argument #2 to 'point' (number expected, got no value)",
                       caller_error(function() sk:point("arm") end))
      assert.are.equal("bad argument #3 to 'point' (number expected, got table)",
                       caller_error(function() sk:point("arm", 1, {}) end))
    end)
  end)
end)
