-- ik2d.constraint: limits held in world space; limits in degrees refused.

local ik2d = require "ik2d"
local helpers = require "spec.helpers"

local pi, cos, sin, abs = math.pi, math.cos, math.sin, math.abs
local wrap = helpers.wrap

describe("world-space limits", function()
  -- a neck on a torso that leans: the head's world direction stays
  -- within 0.5 of straight up (-pi/2 on a y-down screen) whatever the
  -- neck and the base do
  local function neck(method, flip, base_angle)
    return ik2d.chain { x = 0, y = 0, angle = base_angle, flip = flip,
      { length = 30 },
      { length = 20, angle = -pi / 2, min = -0.5, max = 0.5, space = "world" } }, method
  end

  for _, method in ipairs { "ccd", "fabrik", "two_bone" } do
    for _, flip in ipairs { false, true } do
      it(("%s%s: the bone's world direction stays within its world limits"):format(
           method, flip and ", flipped" or ""), function()
        local rng = helpers.random(method == "fabrik" and 3 or 4)
        for _ = 1, 100 do
          local arm = neck(method, flip, rng.range(-pi, pi))
          local s = ik2d.solver(arm, { method = method, iterations = 20 })
          local r, h = rng.range(5, 60), rng.range(-pi, pi)
          s:set_target(r * cos(h), r * sin(h))
          s:solve()
          -- a flipped chain's limits are mirrored: read them unflipped
          local world = arm:world_angle(2)
          if flip then world = pi - world end
          assert.truthy(abs(wrap(world + pi / 2)) <= 0.5 + 1e-9, world)
        end
      end)
    end
  end

  it("reaches a target the world limit allows, whatever the base's angle", function()
    -- the neck at -1 rad, the head 0.2 from straight up
    local tx = 30 * cos(-1) + 20 * cos(-pi / 2 + 0.2)
    local ty = 30 * sin(-1) + 20 * sin(-pi / 2 + 0.2)
    for _, method in ipairs { "ccd", "fabrik", "two_bone" } do
      for _, base_angle in ipairs { 1.2, -2, 0 } do
        local arm = neck(method, false, base_angle)
        local s = ik2d.solver(arm, { method = method, iterations = 30 })
        s:set_target(tx, ty)
        assert.is_true((s:solve()), method .. " from " .. base_angle)
      end
    end
  end)

  it("spanning the whole circle is no limit: every method solves as with none, bit for bit", function()
    -- a full circle has no middle; under make test-valgrind this solve
    -- read one the solver never wrote
    for _, method in ipairs { "ccd", "fabrik", "two_bone" } do
      for _, flip in ipairs { false, true } do
        local free = ik2d.chain { x = 0, y = 0, angle = 0.3, flip = flip,
                                  { length = 30 }, { length = 20 } }
        local whole = ik2d.chain { x = 0, y = 0, angle = 0.3, flip = flip,
                                   { length = 30 }, { length = 20 } }
        whole:set_constraint(2, ik2d.constraint { min = -4, max = 4, space = "world" })
        local a = ik2d.solver(free, { method = method })
        local b = ik2d.solver(whole, { method = method })
        a:set_target(12, 31)
        b:set_target(12, 31)
        assert.are.equal(a:solve(), b:solve())
        assert.are.same({ free:joints() }, { whole:joints() })
        assert.is_false(select(4, b:result()))
      end
    end
  end)

  it("is read back by constraint:space() and drawn where the solver holds it", function()
    local arm = neck("ccd", false, 0.8)
    local c = arm:constraint(2)
    assert.are.equal("world", c:space())
    assert.are.equal("parent", ik2d.constraint { min = 0, max = 1 }:space())
    local from, to = c:arc()
    assert.near(-0.5, from, 1e-12)
    assert.near(0.5, to, 1e-12)
  end)

  it("refuses a space that is neither parent nor world", function()
    helpers.check_message(helpers.error_of(ik2d.constraint, { min = 0, max = 1, space = "local" }),
                          { "space must be \"parent\" or \"world\"" })
  end)
end)

describe("ik2d.constraint: limits in degrees refused", function()
  local PATHS = helpers.ffi_paths(ik2d)
  local message = helpers.error_of
  local words = helpers.words
  after_each(function() ik2d.use_ffi(true) end)

  for _, on in ipairs(PATHS) do
    describe("on each path" .. helpers.path_name(PATHS, on), function()
      before_each(function() ik2d.use_ffi(on) end)

      it("limits beyond 2 pi are refused, saying radians and math.rad", function()
        local DEGREES = "%s must be within [-2 pi, 2 pi]: limits are radians, not degrees (math.rad converts degrees)"
        assert.are.equal(DEGREES:format("min"),
                         words(message(function() local r = ik2d.constraint{ min = -90, max = 90 } return r end)))
        assert.are.equal(DEGREES:format("max"),
                         words(message(function() local r = ik2d.constraint{ min = 0, max = 90 } return r end)))
        assert.are.equal("bone 2: " .. DEGREES:format("min"), words(message(function()
          local r = ik2d.chain{ { length = 1 }, { length = 1, min = -45, max = 45 } }
          return r
        end)))
        local c = ik2d.constraint{ min = -1, max = 1 }
        local msg = message(function() c:set_limits(-1, 180) end)
        assert.are.equal("bad argument #2 to 'set_limits' (" .. DEGREES:format("max") .. ")", msg:match(": (bad.*)$"))
        msg = message(function() c:set_limits(-180, 1) end)
        assert.are.equal("bad argument #1 to 'set_limits' (" .. DEGREES:format("min") .. ")", msg:match(": (bad.*)$"))
        assert.are.same({ -1, 1, false }, { c:limits() })
        -- 2 pi itself is radians: a full turn, no limit
        c:set_limits(-2 * pi, 2 * pi)
        assert.are.same({ -2 * pi, 2 * pi, false }, { c:limits() })
        assert.is_nil(c:arc())
        assert.are.equal(DEGREES:format("max"),
                         words(message(function() c:set_limits(0, 2 * pi * (1 + 2 ^ -52)) end)))
      end)
    end)
  end
end)
