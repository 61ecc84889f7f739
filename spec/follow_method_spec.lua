-- The solver method "follow" (follow the leader): the chain has no fixed
-- base; the tip goes onto the target and every joint is dragged after
-- the joint ahead of it, so the base moves.  A rope, a snake, a tentacle.

local ik2d = require "ik2d"
local helpers = require "spec.helpers"

local pi = math.pi
local cos, sin, sqrt, abs = math.cos, math.sin, math.sqrt, math.abs
local angle_diff = helpers.angle_diff
local EPS = 1e-9

local function rope(bones, length, extra)
  local t = { x = 0, y = 0, angle = 0 }
  for i = 1, bones do t[i] = { length = length, angle = i == 1 and 0 or 0.1 } end
  for k, v in pairs(extra or {}) do t[k] = v end
  return ik2d.chain(t)
end

-- The largest relative error of a bone length in the result.
local function worst_length_error(chain)
  local j, worst = helpers.joints_of(chain), 0
  for i = 1, #chain do
    local d = helpers.distance(j[2 * i - 1], j[2 * i], j[2 * i + 1], j[2 * i + 2])
    local e = abs(d - chain:length(i)) / chain:length(i)
    if e > worst then worst = e end
  end
  return worst
end

-- Follow the leader by hand on joints {x1, y1, ..., tipx, tipy}: the tip
-- onto (tx, ty), each joint then on the line from where it was to where
-- the joint ahead went, one bone length behind it.
local function drag(joints, lengths, tx, ty)
  local n = #lengths
  local out = {}
  out[2 * n + 1], out[2 * n + 2] = tx, ty
  for i = n, 1, -1 do
    local ax, ay = out[2 * i + 1], out[2 * i + 2]
    local dx, dy = joints[2 * i - 1] - ax, joints[2 * i] - ay
    local d = sqrt(dx * dx + dy * dy)
    out[2 * i - 1], out[2 * i] = ax + lengths[i] * dx / d, ay + lengths[i] * dy / d
  end
  return out
end

-- arm after one follow solve toward (x, y).
local function dragged_once(arm, x, y)
  local s = ik2d.solver(arm, { method = "follow" })
  s:set_target(x, y)
  s:solve()
  return arm
end

-- A figure-eight path of radius r around (cx, cy), at time t.
local function path(t, cx, cy, r)
  return cx + r * sin(t), cy + r * sin(2 * t) / 2
end

describe("method follow", function()
  it("drags a rope of 8 bones along 400 points of a path: tip on every point, every bone length kept to " ..
     "1e-12", function()
    local arm = rope(8, 10)
    local s = ik2d.solver(arm, { method = "follow" })
    assert.are.equal("follow", s:method())
    local worst_tip, worst_length = 0, 0
    for f = 1, 400 do
      local tx, ty = path(f * 0.05, 60, 10, 70)
      s:set_target(tx, ty)
      local reached, distance, iterations = s:solve()
      assert.is_true(reached)
      assert.are.equal(1, iterations)
      worst_tip = math.max(worst_tip, helpers.tip_distance(arm, tx, ty), distance)
      worst_length = math.max(worst_length, worst_length_error(arm))
      assert.truthy(helpers.fk_error(arm) <= EPS)
    end
    assert.truthy(worst_tip <= 1e-12 * 200, ("tip off by %.3g"):format(worst_tip))
    assert.truthy(worst_length <= 1e-12, ("length off by %.3g"):format(worst_length))
  end)

  it("moves the base by exactly what the drag implies (each joint dragged after the one ahead, to 1e-9)", function()
    local arm = rope(6, 12)
    local lengths = {}
    for i = 1, #arm do lengths[i] = arm:length(i) end
    local s = ik2d.solver(arm, { method = "follow" })
    local moved = 0
    for f = 1, 200 do
      local before = helpers.joints_of(arm)
      local tx, ty = path(f * 0.07, 40, -20, 50)
      local expected = drag(before, lengths, tx, ty)
      s:set_target(tx, ty)
      s:solve()
      local got = helpers.joints_of(arm)
      for k = 1, #got do assert.near(expected[k], got[k], EPS) end
      local bx, by = arm:base()
      assert.near(expected[1], bx, EPS)
      assert.near(expected[2], by, EPS)
      moved = moved + helpers.distance(before[1], before[2], bx, by)
    end
    -- the base really travels, cutting the path's corners
    assert.truthy(moved > 100, ("the base moved %.1f px in all"):format(moved))
  end)

  it("keeps the base angle and reports the moved base through chain:base()", function()
    local arm = dragged_once(rope(4, 10, { angle = 0.7, x = 3, y = 4 }), 100, -50)
    local bx, by, ba = arm:base()
    assert.are.equal(0.7, ba)
    local x1, y1 = arm:joint(1)
    assert.are.same({ x1, y1 }, { bx, by })
    assert.truthy(helpers.distance(bx, by, 3, 4) > 50)
    -- at most one rope behind the tip, which is on the target
    assert.truthy(helpers.distance(bx, by, 100, -50) <= 40 + EPS)
    assert.truthy(helpers.tip_distance(arm, 100, -50) <= EPS)
  end)

  it("holds every limit while dragging a limited snake along a zigzag, tip on target, lengths kept", function()
    local t = { x = 0, y = 0 }
    for i = 1, 10 do t[i] = { length = 8, angle = 0, min = -0.35, max = 0.35 } end
    local arm = ik2d.chain(t)
    local s = ik2d.solver(arm, { method = "follow" })
    local worst, worst_tip, held = 0, 0, 0
    for f = 1, 300 do
      -- a zigzag with sharp corners: the drag alone would fold the snake
      local u = f % 40
      local tx, ty = 3 * f, (u < 20 and u or 40 - u) * 6
      s:set_target(tx, ty)
      s:solve()
      worst = math.max(worst, (helpers.max_violation(arm)))
      for i = 2, #arm do
        if abs(arm:angle(i)) >= 0.35 - EPS then held = held + 1 end
      end
      worst_tip = math.max(worst_tip, helpers.tip_distance(arm, tx, ty))
      assert.truthy(worst_length_error(arm) <= 1e-12)
    end
    assert.truthy(worst <= EPS, ("a limit broken by %.3g rad"):format(worst))
    assert.truthy(worst_tip <= 1e-9, ("tip off by %.3g"):format(worst_tip))
    -- the limits did the work: bones sat on them in hundreds of frames
    assert.truthy(held > 100, ("bones held by a limit %d times"):format(held))
  end)

  it("turns bone 1 into its limits relative to the base angle, the whole rope turning about the tip", function()
    local arm = rope(5, 10)
    arm:set_constraint(1, ik2d.constraint{ min = -0.2, max = 0.2 })
    local s = ik2d.solver(arm, { method = "follow" })
    -- dragged straight up: the free drag would point bone 1 at pi/2
    for f = 1, 60 do
      s:set_target(50, -5 * f)
      s:solve()
      assert.truthy((helpers.max_violation(arm)) <= EPS)
      assert.truthy(helpers.tip_distance(arm, 50, -5 * f) <= 1e-9)
    end
    assert.near(-0.2, arm:angle(1), EPS)
  end)

  it("drags a flipped rope as the mirror image of an unflipped one (1e-9)", function()
    local plain, flipped = rope(6, 10, { x = 20 }), rope(6, 10, { x = 20, flip = true })
    local sp = ik2d.solver(plain, { method = "follow" })
    local sf = ik2d.solver(flipped, { method = "follow" })
    for f = 1, 150 do
      local tx, ty = path(f * 0.06, 50, 0, 60)
      sp:set_target(tx, ty)
      sf:set_target(2 * 20 - tx, ty)
      sp:solve()
      sf:solve()
      local a, b = helpers.joints_of(plain), helpers.joints_of(flipped)
      for k = 1, #a, 2 do
        assert.near(2 * 20 - a[k], b[k], EPS)
        assert.near(a[k + 1], b[k + 1], EPS)
      end
      assert.truthy(helpers.tip_distance(flipped, 2 * 20 - tx, ty) <= 1e-9)
      assert.truthy(helpers.fk_error(flipped) <= EPS)
    end
  end)

  it("moves the base weight of the way with weight 0.5, the angles blended as any solve; weight 0 moves " ..
     "nothing", function()
    local full, half, none = rope(5, 10), rope(5, 10), rope(5, 10)
    local sf = ik2d.solver(full, { method = "follow" })
    local sh = ik2d.solver(half, { method = "follow", weight = 0.5 })
    local sn = ik2d.solver(none, { method = "follow", weight = 0 })
    for _, s in ipairs{ sf, sh, sn } do
      s:set_target(30, 40)
      s:solve()
    end
    local fx, fy = full:base()
    local hx, hy = half:base()
    assert.near(0.5 * fx, hx, EPS)
    assert.near(0.5 * fy, hy, EPS)
    for i = 1, 5 do
      local pose = half:pose(i)
      assert.near(pose + 0.5 * helpers.angle_diff(pose, full:angle(i)), half:angle(i), EPS)
    end
    local nx, ny = none:base()
    assert.are.same({ 0, 0 }, { nx, ny })
    assert.are.same(helpers.poses_of(none), helpers.angles_of(none))
  end)

  it("moves the tip every frame for targets within tolerance (no stair-steps)", function()
    local arm = rope(4, 1)
    local s = ik2d.solver(arm, { method = "follow", tolerance = 0.01 })
    local x0 = arm:tip()
    for f = 1, 100 do
      s:set_target(x0 + 0.001 * f, 0)
      s:solve()
      local x = arm:tip()
      assert.near(x0 + 0.001 * f, x, 1e-12)
    end
  end)

  it("solves in ik2d.group with exactly the results of solving one by one", function()
    local function members()
      local list = {}
      for k = 1, 6 do
        local c = rope(3 + k, 5, { x = 10 * k })
        list[k] = ik2d.solver(c, { method = k % 3 == 0 and "ccd" or "follow" })
      end
      return list
    end
    local alone, grouped = members(), members()
    local g = ik2d.group(grouped)
    local targets = {}
    for f = 1, 30 do
      for k = 1, 6 do
        local tx, ty = path(f * 0.1 + k, 10 * k, 5, 20)
        alone[k]:set_target(tx, ty)
        targets[2 * k - 1], targets[2 * k] = tx, ty
        alone[k]:solve()
      end
      g:set_targets(targets)
      g:solve()
      for k = 1, 6 do
        local a, b = alone[k]:chain(), grouped[k]:chain()
        assert.are.same({ a:base() }, { b:base() })
        assert.are.same(helpers.joints_of(a), helpers.joints_of(b))
        assert.are.same({ alone[k]:result() }, { grouped[k]:result() })
      end
    end
  end)

  it("reels in from 1e6 away in one solve: the rope lies straight toward where it came from", function()
    local arm = dragged_once(rope(5, 10), 1e6, 1e6)
    assert.truthy(helpers.tip_distance(arm, 1e6, 1e6) <= 1e-9 * 1e6)
    for i = 2, 5 do assert.near(0, helpers.wrap(arm:angle(i)), 1e-4) end
    assert.near(pi / 4, arm:world_angle(1), 1e-4)
  end)

  it("holds a world-space limit while dragging: the head bone never points more than 0.3 rad from up", function()
    local t = { x = 0, y = 0 }
    for i = 1, 6 do t[i] = { length = 10 } end
    t[6].angle, t[6].min, t[6].max, t[6].space = -pi / 2, -0.3, 0.3, "world"
    local arm = ik2d.chain(t)
    local s = ik2d.solver(arm, { method = "follow" })
    local held = 0
    for f = 1, 200 do
      local tx, ty = path(f * 0.08, 0, 0, 60)
      s:set_target(tx, ty)
      s:solve()
      local off = abs(angle_diff(-pi / 2, arm:world_angle(6)))
      assert.truthy(off <= 0.3 + EPS, ("frame %d: the head %.4f rad from up"):format(f, off))
      if off >= 0.3 - EPS then held = held + 1 end
      assert.truthy(helpers.tip_distance(arm, tx, ty) <= 1e-9)
      assert.truthy(worst_length_error(arm) <= 1e-12)
    end
    assert.truthy(held > 20, ("the limit held the head %d times"):format(held))
  end)

  it("drags with a tip angle: the tip on the target, the last bone along the angle", function()
    local arm = rope(5, 10)
    local s = ik2d.solver(arm, { method = "follow" })
    s:set_tip_angle(0.4)
    for f = 1, 100 do
      local tx, ty = path(f * 0.1, 30, 0, 40)
      s:set_target(tx, ty)
      s:solve()
      assert.truthy(helpers.tip_distance(arm, tx, ty) <= 1e-9)
      assert.near(0, angle_diff(0.4, arm:world_angle(5)), 1e-9)
      assert.truthy(worst_length_error(arm) <= 1e-12)
    end
  end)

  -- a pole's mirrors (products of products of rotations) left
  -- rotations up to 7e-12 off unit length; the base was placed behind the
  -- tip before they were put back on it, and the tip of this chain ended
  -- up to 1.5e-4 off the target.  The floor: 64 ulps of the reach per
  -- bone, what the fuzz target's check_follow allows a bone's direction.
  it("puts the tip on the target with a pole and a blended tip angle on bones of 1e6 at 6e6", function()
    local lengths = { 61, 1e6, 1e6, 1, 1e6, 1e6, 1e-6, 90.7, 1e6, 1e6 }
    local reach = 0
    for _, l in ipairs(lengths) do reach = reach + l end
    local floor = #lengths * 64 * 2 ^ -52 * reach
    for trial = 1, 40 do
      local t = { x = 612709.68, y = 468632.22, angle = -0.043 }
      for i = 1, #lengths do
        t[i] = { length = lengths[i], angle = i % 3 == 0 and 3.0 or 0.3 * ((i + trial) % 5 - 2) }
      end
      local arm = ik2d.chain(t)
      local s = ik2d.solver(arm, { method = "follow" })
      s:set_tip_angle(0.1 * trial, 0.75)
      s:set_pole(0, 0)
      for f = 1, 10 do
        local tx, ty = 6e6 * cos(0.1 * f + trial), 6e6 * sin(0.07 * f * trial)
        s:set_target(tx, ty)
        s:solve()
        local d = helpers.tip_distance(arm, tx, ty)
        assert.truthy(d <= floor, ("trial %d, frame %d: the tip %.3g off (floor %.3g)")
          :format(trial, f, d, floor))
      end
    end
  end)

  it("is refused on nothing but its own name: 'follow' in the method list of the error", function()
    local msg = helpers.error_of(ik2d.solver, rope(2, 1), { method = "rope" })
    assert.truthy(msg:find('"follow"', 1, true), msg)
    assert.has_no.errors(function() ik2d.solver(rope(1, 1), { method = "follow" }):solve() end)
  end)

  it("drags a one-bone chain: the bone points from where its base was to the target", function()
    local arm = dragged_once(rope(1, 10), 20, 20)
    local bx, by = arm:base()
    local d = helpers.distance(0, 0, 20, 20)
    assert.near(20 - 10 * 20 / d, bx, EPS)
    assert.near(20 - 10 * 20 / d, by, EPS)
    assert.near(cos(pi / 4), (20 - bx) / 10, EPS)
  end)
end)
