-- rig:apply plays a clip as the tool's runtime does: the set-up pose, the
-- clip at a time (keys, curves, inherit modes, alpha over the set-up),
-- then the IK and transform constraints in the rig's order.  Every number
-- below is worked out by hand from the small rigs in spec/rigs/ (play,
-- order), with the rig in its own y-up axes (y_down = false) so that the
-- file's numbers are the world's.
--
-- sk:matrix(bone) -> a, b, c, d, x, y: x axis (a, c), y axis (b, d),
-- origin (x, y).  Angles go through Spine's degrees (pi as the 32-bit
-- float 3.1415927), 1e-8 rad off the exact ones: 1e-6 covers it.

local ik2d = require "ik2d"
local rig_helpers = require "spec.rig_helpers"

local near = 1e-6
local s45 = math.sqrt(0.5)

-- the rig layer plays through the core's clips; the pure core gets them
-- on the pure-rig branch
local run = ik2d.clip and it or function(name)
  pending(name .. " (the pure core has no ik2d.clip yet)")
end

local function load(name, options)
  options = options or {}
  if options.y_down == nil then options.y_down = false end
  return ik2d.rig.load(rig_helpers.path(name), options)
end

local function assert_matrix(sk, bone, want, tolerance)
  local got = { sk:matrix(bone) }
  for k = 1, 6 do
    assert.near(want[k], got[k], tolerance or near,
      ("%s's matrix entry %d: want %.9g, got %.9g"):format(bone, k, want[k], got[k]))
  end
end

-- the origin of bone and its world angle (degrees, of the x axis)
local function origin(sk, bone)
  local a, _, c, _, x, y = sk:matrix(bone)
  return x, y, math.deg(math.atan2 and math.atan2(c, a) or math.atan(c, a))
end

-- play.json: arm at (10, 0), length 10; hand on it at x = 10 (length 5);
-- charm on it at x = 5.  Set-up: nothing turned, so hand's origin is
-- (20, 0) and every axis is the world's.
describe("rig:apply", function()
  run("rig:apply(nil, 0) is the set-up pose, whatever played before", function()
    local rig = load("play")
    local sk = rig.skeleton
    rig:apply(nil, 0)
    local setup = { sk:matrices() }
    assert_matrix(sk, "hand", { 1, 0, 0, 1, 20, 0 })
    rig:apply("linear", 0.5)
    rig:apply(nil, 0)
    assert.are.same(setup, { sk:matrices() })
  end)

  run("plays linear keys between their values", function()
    -- linear: arm rotate 0 -> 90 and x 0 -> +20 over a second.  At 0.5:
    -- arm turned 45 and at (10 + 10, 0); hand at arm + R(45)(10, 0) =
    -- (20 + 7.0710678, 7.0710678), its axes turned 45.
    local rig = load("play")
    local sk = rig.skeleton
    rig:apply("linear", 0.5)
    assert_matrix(sk, "arm", { s45, -s45, s45, s45, 20, 0 })
    assert_matrix(sk, "hand", { s45, -s45, s45, s45, 20 + 10 * s45, 10 * s45 })
    -- at 0.25: 22.5 degrees and x + 5
    rig:apply("linear", 0.25)
    local x, y, angle = origin(sk, "hand")
    assert.near(15 + 10 * math.cos(math.rad(22.5)), x, near)
    assert.near(10 * math.sin(math.rad(22.5)), y, near)
    assert.near(22.5, angle, 1e-5)
    -- past the last key the clip holds it: 90 degrees, x + 20
    rig:apply("linear", 3)
    assert_matrix(sk, "hand", { 0, -1, 1, 0, 30, 10 })
  end)

  run("holds a stepped key until the next key's time", function()
    -- stepped: 0 until t = 1, then 90.  hand at (20, 0), then at
    -- (10, 0) + R(90)(10, 0) = (10, 10).
    local rig = load("play")
    local sk = rig.skeleton
    rig:apply("stepped", 0.999)
    assert_matrix(sk, "hand", { 1, 0, 0, 1, 20, 0 })
    rig:apply("stepped", 1)
    assert_matrix(sk, "hand", { 0, -1, 1, 0, 10, 10 })
  end)

  run("reads a Bezier key by straight lines through its nine samples", function()
    -- bezier: 0 -> 90 over a second through (1/3, 0), (2/3, 90): the
    -- curve's time is u itself (3(1-u)^2 u/3 + 3(1-u)u^2 2/3 + u^3 = u),
    -- its value 90 u^2 (3 - 2u).  Samples: u = 0.2 -> 9.36, u = 0.3 ->
    -- 19.44, u = 0.5 -> 45.  At t = 0.25 the line between the 0.2 and 0.3
    -- samples gives 14.4 degrees (the exact curve would give 14.0625).
    local rig = load("play")
    local sk = rig.skeleton
    rig:apply("bezier", 0.5)
    local _, _, angle = origin(sk, "arm")
    assert.near(45, angle, 1e-5)
    rig:apply("bezier", 0.25)
    _, _, angle = origin(sk, "arm")
    assert.near(14.4, angle, 1e-5)
    local x, y = origin(sk, "hand")
    assert.near(10 + 10 * math.cos(math.rad(14.4)), x, near)
    assert.near(10 * math.sin(math.rad(14.4)), y, near)
    -- 0.95: between the 0.9 sample (90 * 0.81 * 1.2 = 87.48) and the key
    rig:apply("bezier", 0.95)
    _, _, angle = origin(sk, "arm")
    assert.near((87.48 + 90) / 2, angle, 1e-5)
  end)

  run("changes a bone's inherit mode with its stepped keys", function()
    -- inherit: arm turned 90 and scaled 2: x axis (0, 2), y axis (-2, 0),
    -- origin (10, 0).  charm at x = 5 on it: origin (10, 10) in every
    -- mode (position always goes through the parent); its axes:
    --   normal (from 0)                  the parent's:      (0, 2), (-2, 0)
    --   onlyTranslation (0.2)            none of it:        (1, 0), (0, 1)
    --   noRotationOrReflection (0.4)     the scale alone:   (2, 0), (0, 2)
    --   noScale (0.6)                    the rotation:      (0, 1), (-1, 0)
    --   noScaleOrReflection (0.8)        the same, no mirror to drop
    local rig = load("play")
    local sk = rig.skeleton
    local want = {
      { 0.1, { 0, -2, 2, 0, 10, 10 } }, { 0.3, { 1, 0, 0, 1, 10, 10 } },
      { 0.5, { 2, 0, 0, 2, 10, 10 } }, { 0.7, { 0, -1, 1, 0, 10, 10 } },
      { 0.9, { 0, -1, 1, 0, 10, 10 } },
    }
    for _, case in ipairs(want) do
      rig:apply("inherit", case[1])
      assert_matrix(sk, "charm", case[2])
    end
    -- the set-up's mode is back on the next apply
    rig:apply(nil, 0)
    assert.are.equal("all", sk:inherit("charm"))
  end)

  run("blends a clip over the set-up pose by alpha", function()
    -- linear at 1 (90 degrees, x + 20) by 0.5: 45 degrees, x + 10
    local rig = load("play")
    local sk = rig.skeleton
    rig:apply("linear", 1, 0.5)
    assert_matrix(sk, "hand", { s45, -s45, s45, s45, 20 + 10 * s45, 10 * s45 })
    -- alpha 0 is the set-up
    rig:apply("linear", 1, 0)
    assert_matrix(sk, "hand", { 1, 0, 0, 1, 20, 0 })
  end)

  run("places the bones at rig:finish, to the bits of a set-up placed at once", function()
    -- rig:setup leaves the placing to the solve (the clip then moves the
    -- bones anyway); a skeleton reset in between places the set-up at
    -- once, and the frame must not differ by a bit
    for _, case in ipairs({ { "play", "linear", 0.5 }, { "play", "inherit", 0.5 },
                            { "order", "half", 0.5 }, { "order", "loose", 0.25 } }) do
      local rig = load(case[1])
      local sk = rig.skeleton
      rig:apply(case[2], case[3])
      local deferred = { sk:matrices() }
      rig:apply(nil, 0)
      rig:setup()
      sk:reset()
      rig:play(case[2], case[3])
      rig:finish()
      assert.are.same(deferred, { sk:matrices() })
      rig:setup()
      rig:finish()
      local setup = { sk:matrices() }
      rig:apply(nil, 0)
      assert.are.same(setup, { sk:matrices() })
    end
  end)

  run("stands a y-up rig upright on a y-down screen by default", function()
    -- the skeleton's scale (1, -1): y mirrored, so the linear clip's 45
    -- degrees turn the hand down the screen to (27.07, -7.07)
    local rig = load("play", { y_down = true })
    local sk = rig.skeleton
    rig:apply("linear", 0.5)
    local x, y = origin(sk, "hand")
    assert.near(20 + 10 * s45, x, near)
    assert.near(-10 * s45, y, near)
  end)
end)

-- order.json: arm at the origin (length 10), its one-bone IK "reach" at
-- the bone target (0, 10); follower at (20, 0) takes arm's world rotation
-- through the transform constraint "copy" (rotation only).  reach runs
-- first (order 0), then copy (order 1).
describe("the constraints in the rig's order", function()
  run("turns the arm to its target, then the follower after it", function()
    local rig = load("order")
    local sk = rig.skeleton
    rig:apply(nil, 0)
    -- the target straight up: arm at 90; follower copies 90 at (20, 0)
    assert_matrix(sk, "arm", { 0, -1, 1, 0, 0, 0 })
    assert_matrix(sk, "follower", { 0, -1, 1, 0, 20, 0 })
  end)

  run("copies the arm's set-up rotation when the transform runs first", function()
    local text = rig_helpers.text("order")
    local first, second = text:find('"order": 1', 1, true)
    assert.is_truthy(first)
    text = text:sub(1, first - 1) .. '"order": 0' .. text:sub(second + 1)
    local first_ik = text:find('"order": 0', 1, true)
    text = text:sub(1, first_ik - 1) .. '"order": 1' .. text:sub(first_ik + #'"order": 0')
    local rig = ik2d.rig.load(text, { y_down = false })
    local sk = rig.skeleton
    rig:apply(nil, 0)
    -- copy sees the arm at 0 degrees; reach turns it afterwards
    assert_matrix(sk, "arm", { 0, -1, 1, 0, 0, 0 })
    assert_matrix(sk, "follower", { 1, 0, 0, 1, 20, 0 })
  end)

  run("takes the IK mix from the clip's keys", function()
    -- half: reach's mix 0.5: the arm halfway from 0 to 90, the follower
    -- copying its 45
    local rig = load("order")
    local sk = rig.skeleton
    rig:apply("half", 0)
    assert_matrix(sk, "arm", { s45, -s45, s45, s45, 0, 0 })
    assert_matrix(sk, "follower", { s45, -s45, s45, s45, 20, 0 })
    -- and the set-up's mix back after it
    rig:apply(nil, 0)
    assert_matrix(sk, "arm", { 0, -1, 1, 0, 0, 0 })
  end)

  run("follows a target the clip moves", function()
    -- lower: the target moved by (10, -10) to (10, 0): the arm points along x
    local rig = load("order")
    local sk = rig.skeleton
    rig:apply("lower", 0)
    assert_matrix(sk, "arm", { 1, 0, 0, 1, 0, 0 })
    assert_matrix(sk, "follower", { 1, 0, 0, 1, 20, 0 })
  end)

  run("takes a transform mix from the clip's keys", function()
    -- loose: copy's mixRotate 0.5: the follower halfway from 0 to the
    -- arm's 90
    local rig = load("order")
    local sk = rig.skeleton
    rig:apply("loose", 0)
    assert_matrix(sk, "arm", { 0, -1, 1, 0, 0, 0 })
    assert_matrix(sk, "follower", { s45, -s45, s45, s45, 20, 0 })
    -- and the set-up's mix back after it
    rig:apply(nil, 0)
    assert_matrix(sk, "follower", { 0, -1, 1, 0, 20, 0 })
  end)
end)

-- The hero (examples/hero: every timeline kind, IK, transform constraints,
-- all five inherit modes, Bezier curves) played in a child interpreter on
-- each backend: every bone's matrix, every slot's colour and attachment
-- and the draw order, by their bits, at nine times of each clip through
-- rig:apply and through 90 frames of a player with two tracks and a
-- crossfade.
describe("the same bits on every backend", function()
  local helpers = require "spec.helpers"
  local PLAY = [[
local ik2d = require "ik2d"
local rig = ik2d.rig.load("examples/hero/assets/hero.json", { skin = "armored" })
local sk, slots, out = rig.skeleton, rig._core_slots, { ik2d.backend }
local function dump()
  for _, v in ipairs(sk:matrices()) do out[#out + 1] = ("%a"):format(v) end
  for i = 1, #slots do
    out[#out + 1] = tostring(slots:attachment(i))
    for _, v in ipairs({ slots:color(i) }) do out[#out + 1] = ("%a"):format(v) end
  end
  out[#out + 1] = table.concat(slots:draw_order(), ",")
end
local names = {}
for name in pairs(rig.clips) do names[#names + 1] = name end
table.sort(names)
for _, name in ipairs(names) do
  for k = 0, 8 do
    rig:apply(name, rig.clips[name].duration * (k + 0.37) / 8.5, k % 3 == 2 and 0.5 or 1)
    dump()
  end
end
local p = ik2d.player(rig)
p:set_mix("walk", "wave", 0.4)
p:set(1, "walk", true)
p:set(2, "aim", true)
p:set_alpha(2, 0.6)
for frame = 1, 90 do
  p:update(1 / 60)
  if frame == 30 then p:set(1, "wave", false) end
  p:apply()
  if frame % 10 == 0 then dump() end
end
io.write(table.concat(out, "\n"))
]]

  run("gives the hero the same pose on the C core, its FFI path and the pure core", function()
    local outputs = {}
    for _, env in ipairs({ "IK2D_PURE= IK2D_NO_FFI=1", "IK2D_PURE=", "IK2D_PURE=1" }) do
      local ok, out = helpers.run_lua(PLAY, env)
      assert.is_true(ok, out)
      local backend, rest = out:match("^(%w+)\n(.*)$")
      outputs[#outputs + 1] = { env = env, backend = backend, rest = rest }
    end
    assert.are.equal("lua", outputs[3].backend)
    for k = 2, 3 do
      if outputs[k].rest ~= outputs[1].rest then
        local a, b = {}, {}
        for line in outputs[1].rest:gmatch("[^\n]+") do a[#a + 1] = line end
        for line in outputs[k].rest:gmatch("[^\n]+") do b[#b + 1] = line end
        for i = 1, math.max(#a, #b) do
          assert.are.equal(a[i], b[i], ("%s (%s) against %s: line %d"):format(outputs[k].backend,
            outputs[k].env, outputs[1].backend, i))
        end
      end
    end
  end)
end)

describe("IK keys", function()
  -- spec/rigs/timelines.json keys IK "reach" with Spine's stretch (true):
  -- the key's value is math.huge, which the clip switches to at the key
  run("switch the solver's stretch to Spine's unbounded one, and back at the set-up", function()
    local rig = load("timelines")
    local reach = rig.solvers.reach
    rig:apply("constraints", 0.5)
    assert.are.equal(math.huge, reach:options().stretch)
    assert.are.equal(0, reach:options().compress)
    rig:apply(nil, 0)
    assert.are.equal(1, reach:options().stretch)
  end)

  run("put back at the set-up whatever changed a setting, and only the set-up", function()
    -- a clip's key, a setter, set_options, a tip angle set and cleared:
    -- each moved from the set-up, rig:setup puts it back; untouched
    -- settings stay as they are, frame after frame
    local rig = load("timelines")
    local reach = rig.solvers.reach
    local setup = reach:options()
    local function same_as_setup()
      local now = reach:options()
      for key, value in pairs(setup) do
        assert.are.same(value, now[key], "setting " .. key)
      end
    end
    rig:apply(nil, 0)
    same_as_setup()
    reach:set_weight(0.25)
    rig:setup()
    same_as_setup()
    reach:set_options { softness = 3, bend = -1 }
    rig:apply(nil, 0)
    same_as_setup()
    rig:apply("constraints", 0.5)
    rig:apply(nil, 0)
    same_as_setup()
    reach:set_tip_angle(0.5)
    reach:clear_tip_angle()
    reach:set_weight(0.5)
    rig:apply(nil, 0)
    rig:apply(nil, 0)
    same_as_setup()
    -- a set-up with a tip angle, cleared between frames
    reach:set_tip_angle(0.5)
    rig:set_setup()
    setup = reach:options()
    rig:apply(nil, 0)
    reach:clear_tip_angle()
    rig:apply(nil, 0)
    same_as_setup()
    assert.is_truthy(reach:options().tip_angle)
    for _, tc in pairs(rig.constraints) do
      local before = tc:options()
      tc:set_options { mix_rotate = 0.125 }
      rig:apply(nil, 0)
      assert.are.same(before, tc:options())
    end
  end)
end)
