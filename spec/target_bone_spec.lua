-- Targets on bones: s:set_target_bone(sk, bone [, dx,
-- dy]) puts a solver's target on the point (dx, dy) of a bone's space, read where
-- the bone is whenever the target is read; sk:solve() solves a solver
-- after the ones that move its target's bone, and a coupled solve moves the
-- target with the bones it turns, so that a back hand stays on the rifle
-- the front hand holds.  A cycle through targets is refused, naming both
-- solvers; set_target and clear_target_bone go back to world points.

local ik2d = require "ik2d"
local helpers = require "spec.helpers"

local pi, sqrt, sin, cos, abs = math.pi, math.sqrt, math.sin, math.cos, math.abs
local atan2, acos = math.atan2 or math.atan, math.acos -- luacheck: ignore 143

local EPS = 1e-9

-- A rifleman: a torso of 2 bones, two 2-bone arms from the chest (the
-- issue's rig, as spec/skeleton_solve_spec.lua's), and a rifle in the
-- front hand: a bone at the front forearm's tip, 44 px long.
local function rifleman(x, y, options)
  local sk = ik2d.skeleton{ x = x, y = y,
    { name = "hip", length = 0 },
    { name = "spine", parent = "hip", length = 32, angle = -pi / 2, min = -0.7, max = 0.5 },
    { name = "chest", parent = "spine", length = 28, min = -0.5, max = 0.35 },
    { name = "upper_b", parent = "chest", length = 26, x = 24, y = 0, angle = 2.77, min = -2.9, max = 1.2 },
    { name = "fore_b", parent = "upper_b", length = 26, min = -2.6, max = 0 },
    { name = "upper_f", parent = "chest", length = 26, x = 24, y = 0, angle = 2.77, min = -2.9, max = 1.2 },
    { name = "fore_f", parent = "upper_f", length = 26, min = -2.6, max = 0 },
    { name = "rifle", parent = "fore_f", length = 44, x = 26, y = 0, angle = -0.4 } }
  local o = options or { iterations = 20 }
  return sk, ik2d.solver(sk:chain("spine", "fore_b"), o), ik2d.solver(sk:chain("spine", "fore_f"), o)
end

-- The point (dx, dy) of bone b's space, from sk:world (unflipped skeleton).
local function point_of(sk, b, dx, dy)
  local x, y, a = sk:world(b)
  return x + cos(a) * dx - sin(a) * dy, y + sin(a) * dx + cos(a) * dy
end

-- Two arms side by side, sharing no bone: a1..a2 from the base, b1..b2
-- from (100, 0), a flag at each tip.
local function two_arms()
  return ik2d.skeleton{
    { name = "a1", length = 30 },
    { name = "a2", parent = "a1", length = 30 },
    { name = "flag_a", parent = "a2", length = 10 },
    { name = "b0", length = 0, x = 100, y = 0 },
    { name = "b1", parent = "b0", length = 30 },
    { name = "b2", parent = "b1", length = 30 },
    { name = "flag_b", parent = "b2", length = 10 } }
end

describe("a target on a bone", function()
  it("is the bone's point (dx, dy), read where the bone is whenever the target is", function()
    local sk = two_arms()
    local s = ik2d.solver(ik2d.chain{ x = 100, y = 0, { length = 40 }, { length = 40 } })
    s:set_target_bone(sk, "b2", 12, -3)
    local x, y = s:target()
    local px, py = point_of(sk, "b2", 12, -3)
    assert.near(px, x, EPS)
    assert.near(py, y, EPS)
    -- the bone moves: the target with it, without another set_target_bone
    sk:set_pose("b1", 0.7)
    sk:set_base(5, -4, 0.3)
    x, y = s:target()
    local qx, qy = point_of(sk, "b2", 12, -3)
    assert.near(qx, x, EPS)
    assert.near(qy, y, EPS)
    assert.is_true(abs(qx - px) + abs(qy - py) > 10)
    -- and the solve reaches there
    assert.is_true((s:solve()))
    local tx, ty = s:chain():tip()
    assert.near(qx, tx, 0.01)
    assert.near(qy, ty, 0.01)
  end)

  it("mirrors with a flipped skeleton, as the bone is drawn", function()
    local sk, flipped = two_arms(), two_arms()
    for _, k in ipairs{ sk, flipped } do
      k:set_base(30, 10, 0.2)
      k:set_pose("b1", -0.6)
    end
    flipped:set_flip(true)
    local s = ik2d.solver(ik2d.chain{ { length = 1 } })
    s:set_target_bone(sk, "b2", 7, 2)
    local x, y = s:target()
    s:set_target_bone(flipped, "b2", 7, 2)
    local fx, fy = s:target()
    assert.near(2 * 30 - x, fx, EPS)
    assert.near(y, fy, EPS)
  end)

  it("defaults to the bone's origin, exactly", function()
    for _, flip in ipairs{ false, true } do
      local sk = two_arms()
      sk:set_flip(flip)
      sk:set_pose("a1", 0.4)
      local s = ik2d.solver(ik2d.chain{ { length = 1 } })
      s:set_target_bone(sk, "a2")
      local x, y = sk:world("a2")
      assert.are.same({ x, y }, { s:target() })
      s:set_target_bone(sk, 6, 0, 0) -- by index: b2
      x, y = sk:world("b2")
      assert.are.same({ x, y }, { s:target() })
    end
  end)

  it("target_bone() gives the skeleton, the bone's name, dx and dy; nothing for a world target", function()
    local sk = two_arms()
    local s = ik2d.solver(ik2d.chain{ { length = 1 } })
    assert.are.equal(0, select("#", s:target_bone()))
    s:set_target_bone(sk, 3, 2.5, -1)
    local got, bone, dx, dy = s:target_bone()
    assert.are.equal(sk, got)
    assert.are.same({ "flag_a", 2.5, -1 }, { bone, dx, dy })
  end)

  it("target_bone() still names the bone after its skeleton was finalised (__gc called by hand)", function()
    local sk = two_arms()
    local s = ik2d.solver(ik2d.chain{ { length = 1 } })
    s:set_target_bone(sk, 3, 2.5, -1)
    debug.getmetatable(sk).__gc(sk)
    local got, bone, dx, dy = s:target_bone()
    assert.are.equal(sk, got)
    assert.are.same({ "flag_a", 2.5, -1 }, { bone, dx, dy })
  end)

  it("set_target and clear_target_bone go back to world points", function()
    local sk = two_arms()
    local s = ik2d.solver(ik2d.chain{ { length = 1 } })
    s:set_target_bone(sk, "b2", 5, 0)
    s:set_target(-3, 4)
    assert.is_nil(s:target_bone())
    assert.are.same({ -3, 4 }, { s:target() })
    sk:set_pose("b1", 1)
    assert.are.same({ -3, 4 }, { s:target() })
    -- clear: the point where the bone is now, which stays there
    s:set_target_bone(sk, "b2", 5, 0)
    local x, y = s:target()
    s:clear_target_bone()
    assert.is_nil(s:target_bone())
    sk:set_pose("b1", -1)
    assert.are.same({ x, y }, { s:target() })
    -- (nothing to clear: nothing changes)
    s:clear_target_bone()
    assert.are.same({ x, y }, { s:target() })
  end)

  it("clear_target_bone on a skeleton beyond the doubles lets it go, the chain's tip the target", function()
    -- flipped about x = -DBL_MAX: every bone's x overflows, the point is not finite
    local sk = ik2d.skeleton{ x = -1.7976931348623157e308, flip = true,
      { name = "a", length = 1e300 }, { name = "b", parent = "a", length = 10 } }
    local s = ik2d.solver(ik2d.chain{ x = 3, y = 4, { length = 2 } })
    s:set_target_bone(sk, "b", 1, 0)
    local x = s:target()
    assert.is_false(x - x == 0)
    s:clear_target_bone()
    assert.is_nil(s:target_bone())
    local tx, ty = s:chain():tip()
    assert.are.same({ tx, ty }, { s:target() })
    assert.near(5, tx, 1e-12)
  end)

  it("a group's targets are world targets: a member's target on a bone goes", function()
    local sk = two_arms()
    local s1 = ik2d.solver(ik2d.chain{ { length = 30 }, { length = 30 } })
    local s2 = ik2d.solver(ik2d.chain{ { length = 30 }, { length = 30 } })
    local g = ik2d.group{ s1, s2 }
    s1:set_target_bone(sk, "b2")
    g:set_targets{ 10, 20, 30, 5 }
    assert.is_nil(s1:target_bone())
    assert.are.same({ 10, 20 }, { s1:target() })
    s1:set_target_bone(sk, "b2")
    local bx, by = s1:target()
    g:solve()
    -- a target on a bone is solved as the solver alone solves it
    local alone = ik2d.solver(ik2d.chain{ { length = 30 }, { length = 30 } })
    alone:set_target(bx, by)
    alone:solve()
    assert.are.same({ alone:chain():tip() }, { s1:chain():tip() })
  end)

  it("a group's targets let go the skeleton of a bone target set after the group last looked", function()
    local paths = helpers.is_luajit and ik2d.ffi ~= nil and { true, false } or { false }
    for _, on in ipairs(paths) do
      ik2d.use_ffi(on)
      local s1 = ik2d.solver(ik2d.chain{ { length = 30 }, { length = 30 } })
      local s2 = ik2d.solver(ik2d.chain{ { length = 30 }, { length = 30 } })
      local g = ik2d.group{ s1, s2 }
      g:set_targets{ 1, 2, 3, 4 }                              -- no bone target then
      g:solve()
      local weak = setmetatable({}, { __mode = "v" })
      do
        local sk = two_arms()
        weak[1] = sk
        s1:set_target_bone(sk, "b2")
      end
      collectgarbage()
      assert.is_not_nil(weak[1])                               -- held by s1's target
      g:set_targets{ 10, 20, 30, 5 }
      assert.is_nil(s1:target_bone())
      assert.are.same({ 10, 20 }, { s1:target() })
      collectgarbage()
      collectgarbage()
      assert.is_nil(weak[1])
    end
    ik2d.use_ffi(true)
  end)

  it("on another skeleton's bone: read where that skeleton is when the solver solves", function()
    local rig, other = two_arms(), two_arms()
    other:set_base(-40, 30)
    local s = ik2d.solver(rig:chain("a1", "a2"))
    local mover = ik2d.solver(other:chain("b1", "b2"))
    s:set_target_bone(other, "flag_b", 4, 0)
    mover:set_target(20, 40)
    -- the other skeleton first: its bone is where this frame puts it
    other:solve()
    local reached = rig:solve()
    assert.are.equal(1, reached)
    local x, y = point_of(other, "flag_b", 4, 0)
    local tx, ty = rig:tip("a2")
    assert.near(x, tx, 0.01)
    assert.near(y, ty, 0.01)
    -- solved the other way round, it reaches where the bone was
    mover:set_target(30, 70)
    local before_x, before_y = point_of(other, "flag_b", 4, 0)
    rig:solve()
    other:solve()
    tx, ty = rig:tip("a2")
    assert.near(before_x, tx, 0.01)
    assert.near(before_y, ty, 0.01)
    assert.is_true(helpers.distance(tx, ty, s:target()) > 1)
  end)

  it("holds the bone's skeleton while its target is there, and lets it go after", function()
    local s = ik2d.solver(ik2d.chain{ { length = 1 } })
    local weak = setmetatable({}, { __mode = "v" })
    do
      local sk = two_arms()
      weak[1] = sk
      s:set_target_bone(sk, "b2")
    end
    for _ = 1, 3 do collectgarbage() end
    assert.is_not_nil(weak[1])
    assert.are.equal(weak[1], (s:target_bone()))
    local x = s:target()
    assert.are.equal(x, (s:target()))
    s:set_target(1, 2)
    for _ = 1, 3 do collectgarbage() end
    assert.is_nil(weak[1])
    -- and clear_target_bone, and a group's targets, let it go too
    for _, drop in ipairs{ function() s:clear_target_bone() end,
                           function() ik2d.group{ s }:set_targets{ 1, 2 } end } do
      do
        local sk = two_arms()
        weak[1] = sk
        s:set_target_bone(sk, "b2")
      end
      for _ = 1, 3 do collectgarbage() end
      assert.is_not_nil(weak[1])
      drop()
      for _ = 1, 3 do collectgarbage() end
      assert.is_nil(weak[1])
    end
  end)
end)

describe("sk:solve() and targets on bones", function()
  it("solves a solver after the one that moves its target's bone, though made before it", function()
    local sk = two_arms()
    local a = ik2d.solver(sk:chain("a1", "a2"))
    local b = ik2d.solver(sk:chain("b1", "b2"))
    a:set_target_bone(sk, "flag_b", 5, 0)
    b:set_target(50, 20)
    assert.are.equal(2, sk:solve())
    local x, y = point_of(sk, "flag_b", 5, 0)
    local tx, ty = sk:tip("a2")
    assert.near(x, tx, 0.01)
    assert.near(y, ty, 0.01)
    -- (at rest the flag was out of a's reach: a solve before b's misses)
    local rest = two_arms()
    local rx, ry = point_of(rest, "flag_b", 5, 0)
    assert.is_true(sqrt(rx * rx + ry * ry) > 60)
  end)

  it("solves in the new order when a target goes onto a bone after solves in the old one", function()
    local sk = two_arms()
    local a = ik2d.solver(sk:chain("a1", "a2"))
    local b = ik2d.solver(sk:chain("b1", "b2"))
    -- world targets first: a, then b, solved a few frames in that order
    a:set_target(20, 30)
    b:set_target(120, 30)
    for _ = 1, 3 do assert.are.equal(2, sk:solve()) end
    -- a's target on b's flag: b must now solve first, or a reaches where the
    -- flag was before b moved it
    a:set_target_bone(sk, "flag_b", 5, 0)
    b:set_target(50, 20)
    assert.are.equal(2, sk:solve())
    local x, y = point_of(sk, "flag_b", 5, 0)
    local tx, ty = sk:tip("a2")
    assert.near(x, tx, 0.01)
    assert.near(y, ty, 0.01)
    -- and back to a world target: a first again, its tip on that point
    a:set_target(10, 40)
    assert.are.equal(2, sk:solve())
    tx, ty = sk:tip("a2")
    assert.near(10, tx, 0.01)
    assert.near(40, ty, 0.01)
  end)

  it("moves a target with the solver's own chain when the chain moves its bone", function()
    -- an arm reaching for a holster on its own spine
    local r = helpers.random(5)
    local turned = 0
    for _ = 1, 40 do
      local sk = ik2d.skeleton{ x = 100, y = 100,
        { name = "spine", length = 40, angle = -pi / 2, min = -0.8, max = 0.8 },
        { name = "upper", parent = "spine", length = 30, angle = 2.6, min = -1.5, max = 1.5 },
        { name = "fore", parent = "upper", length = 30, min = -2.5, max = 0 },
        { name = "holster", parent = "spine", length = 5, x = 10, y = 15 } }
      for b = 1, 3 do sk:set_pose(b, sk:rest(b) + r.range(-0.8, 0.8)) end
      local s = ik2d.solver(sk:chain("spine", "fore"), { iterations = 30 })
      s:set_target_bone(sk, "holster", 2, 1)
      local spine = sk:angle("spine")
      sk:solve()
      local x, y = point_of(sk, "holster", 2, 1)
      local tx, ty = sk:tip("fore")
      assert.is_true(helpers.distance(x, y, tx, ty) <= 0.01, "missed by " .. helpers.distance(x, y, tx, ty))
      assert.is_true((s:result()))
      if abs(sk:angle("spine") - spine) > 0.01 then turned = turned + 1 end
    end
    -- (the spine turned, moving the holster, in some of them)
    assert.is_true(turned > 0)
  end)

  it("solved alone (s:solve()), reports its distance from where its chain moved the target's bone", function()
    -- the holster scene of the last spec, solved without sk:solve(): the
    -- solve reaches where the holster was, then the spine it turned moves it
    local r = helpers.random(7)
    local moved = 0
    for _ = 1, 40 do
      local sk = ik2d.skeleton{ x = 100, y = 100,
        { name = "spine", length = 40, angle = -pi / 2, min = -0.8, max = 0.8 },
        { name = "upper", parent = "spine", length = 30, angle = 2.6, min = -1.5, max = 1.5 },
        { name = "fore", parent = "upper", length = 30, min = -2.5, max = 0 },
        { name = "holster", parent = "spine", length = 5, x = 10, y = 15 } }
      for b = 1, 3 do sk:set_pose(b, sk:rest(b) + r.range(-0.8, 0.8)) end
      local s = ik2d.solver(sk:chain("spine", "fore"), { iterations = 3 })
      -- a grip out along the holster: the arm reaches it by turning the spine
      local dx, dy = r.range(30, 70), r.range(-10, 10)
      s:set_target_bone(sk, "holster", dx, dy)
      local bx, by = point_of(sk, "holster", dx, dy)
      local reached = s:solve()
      local x, y = point_of(sk, "holster", dx, dy)
      local tx, ty = sk:tip("fore")
      local _, distance = s:result()
      assert.near(helpers.distance(x, y, tx, ty), distance, 1e-9)
      assert.are.equal(distance <= s:options().tolerance, reached)
      if helpers.distance(x, y, bx, by) > 1e-3 then moved = moved + 1 end
    end
    assert.is_true(moved > 0)
  end)

  -- Random reachable rifle scenes: a pose within the limits whose back
  -- hand sits on the rifle 10 to 40 px along it and at most 8 px across
  -- (a grip); the front hand's target is that pose's front hand, the back
  -- hand's the grip on the rifle bone.  One solve from the rest pose, 20
  -- iterations.  Seed 21, 2000 scenes: the back hand on its grip in 1998
  -- (seeds 22 to 24: 1991 to 1994), the front hand on its target in all.
  local function rifle_scenes(seed, scenes)
    local r = helpers.random(seed)
    local probe = rifleman(0, 0)
    local low, high = {}, {}
    for i = 2, 7 do low[i], high[i] = probe:constraint(i):limits() end
    local on_grip, front_reached = 0, 0
    for _ = 1, scenes do
      local fx, fy, dx, dy
      repeat
        for i = 2, 7 do probe:set_pose(i, probe:rest(i) + r.range(low[i], high[i])) end
        local bx, by = probe:tip("fore_b")
        local rx, ry, ra = probe:world("rifle")
        dx = cos(ra) * (bx - rx) + sin(ra) * (by - ry)
        dy = -sin(ra) * (bx - rx) + cos(ra) * (by - ry)
        fx, fy = probe:tip("fore_f")
      until dx >= 10 and dx <= 40 and abs(dy) <= 8
      local sk, back, front = rifleman(0, 0)
      front:set_target(fx, fy)
      back:set_target_bone(sk, "rifle", dx, dy)
      sk:solve()
      local gx, gy = point_of(sk, "rifle", dx, dy)
      local hx, hy = sk:tip("fore_b")
      local distance = helpers.distance(gx, gy, hx, hy)
      if distance <= 0.01 then on_grip = on_grip + 1 end
      assert.near(distance, select(2, back:result()), 1e-9)
      if front:result() then front_reached = front_reached + 1 end
    end
    return on_grip, front_reached
  end

  it("puts the back hand on the rifle's grip in at least 99% of random rifle scenes", function()
    -- (the pure core is slower: the first 300 scenes, the same bits)
    local scenes = helpers.pure_pass and 300 or 2000
    local on_grip, front_reached = rifle_scenes(21, scenes)
    local say = ("back hand on its grip in %d of %d scenes, front hand reached in %d")
      :format(on_grip, scenes, front_reached)
    assert.is_true(on_grip >= 0.99 * scenes, say)
    assert.is_true(front_reached >= 0.99 * scenes, say)
  end)

  -- A rifleman holding his rifle while he moves: a rifle scene's pose
  -- with the grip fixed on the rifle, then frame after frame the torso
  -- and the front arm swaying around it (each bone by 0.25 rad, its own
  -- slow sine, within its limits) and the back arm placed on the grip by
  -- the law of cosines (a scene whose sway takes the grip out of the back
  -- arm's reach or limits is drawn again), the hip swaying too.  The front
  -- hand's target is the swayed pose's front hand, the back hand's the
  -- grip: every frame has a solution.  Counts the frames where a hand
  -- misses after both first reached, and the longest run of them.
  local function hold(seed, scenes, iterations)
    local r = helpers.random(seed)
    local probe = rifleman(0, 0)
    local low, high = {}, {}
    for i = 2, 7 do low[i], high[i] = probe:constraint(i):limits() end
    local function wrap(a) return (a + pi) % (2 * pi) - pi end
    -- the torso and front arm from t, the back arm onto the grip: false
    -- when it cannot be within the limits
    local function pose(t, dx, dy)
      for _, i in ipairs{ 2, 3, 6, 7 } do probe:set_pose(i, probe:rest(i) + t[i]) end
      local gx, gy = point_of(probe, "rifle", dx, dy)
      local sx, sy = probe:world("upper_b")
      local ex, ey = gx - sx, gy - sy
      local c = (ex * ex + ey * ey - 2 * 26 * 26) / (2 * 26 * 26)
      if c < -1 or c > 1 then return false end
      local fore = -acos(c)
      local _, _, chest = probe:world("chest")
      local upper = wrap(atan2(ey, ex) - atan2(26 * sin(fore), 26 + 26 * cos(fore)) - chest
                         - probe:rest(4))
      if upper < low[4] or upper > high[4] or fore < low[5] then return false end
      probe:set_pose(4, probe:rest(4) + upper)
      probe:set_pose(5, probe:rest(5) + fore)
      return true
    end
    local frames, missed, longest, total = 200, 0, 0, 0
    local made = 0
    while made < scenes do
      local t0, dx, dy = {}
      repeat
        for i = 2, 7 do t0[i] = r.range(low[i], high[i]) end
        for i = 2, 7 do probe:set_pose(i, probe:rest(i) + t0[i]) end
        local bx, by = probe:tip("fore_b")
        local rx, ry, ra = probe:world("rifle")
        dx = cos(ra) * (bx - rx) + sin(ra) * (by - ry)
        dy = -sin(ra) * (bx - rx) + cos(ra) * (by - ry)
      until dx >= 10 and dx <= 40 and abs(dy) <= 8
      local rate, phase = {}, {}
      for _, i in ipairs{ 2, 3, 6, 7 } do rate[i], phase[i] = r.range(0.02, 0.08), r.range(0, 2 * pi) end
      local hands, whole = {}, true
      for f = 1, frames do
        local t = {}
        for _, i in ipairs{ 2, 3, 6, 7 } do
          t[i] = math.max(low[i], math.min(high[i], t0[i] + 0.25 * sin(rate[i] * f + phase[i])))
        end
        if not pose(t, dx, dy) then
          whole = false
          break
        end
        hands[f] = { probe:tip("fore_f") }
      end
      if whole then
        made = made + 1
        local hx, hy = r.range(300, 400), r.range(300, 350)
        local sk, back, front = rifleman(hx, hy, { iterations = iterations })
        back:set_target_bone(sk, "rifle", dx, dy)
        local once, run = false, 0
        for f = 1, frames do
          local x, y = hx + 5 * sin(f * 0.05), hy + 3 * sin(f * 0.07)
          sk:set_base(x, y, 0)
          front:set_target(x + hands[f][1], y + hands[f][2])
          sk:solve()
          total = total + 1
          if back:result() and front:result() then
            once, run = true, 0
          elseif once then
            missed, run = missed + 1, run + 1
            if run > longest then longest = run end
          end
        end
      end
    end
    return missed, total, longest
  end

  it("holds the grip every frame once reached while the rifleman sways (40 iterations)", function()
    -- 60 scenes of 200 frames; 600 scenes (120000 frames): none missed
    local missed, total = hold(22, helpers.pure_pass and 6 or 60, 40)
    assert.are.equal(0, missed, ("%d of %d frames missed after reaching"):format(missed, total))
  end)

  it("with 20 iterations, misses a frame now and then by a hair, and reaches again", function()
    -- 600 scenes (120000 frames): 6 missed, in runs of at most 3; a
    -- warm start that followed a solution with the back arm straight
    -- along its limit into a dead end, and the starts after it
    -- converging too slowly for the iterations left
    local missed, total, longest = hold(23, helpers.pure_pass and 6 or 60, 20)
    local say = ("%d of %d frames missed after reaching, the longest run %d"):format(missed, total, longest)
    assert.is_true(missed <= total * 0.0005, say)
    assert.is_true(longest <= 5, say)
  end)

  it("on another skeleton's bone solves as that point set by set_target, bit for bit", function()
    -- (each rig's own two solvers kept: collected between the two solves
    -- of a frame, they would leave one rig's coupled group and not the other's)
    local rig, rig_back, rig_front = rifleman(300, 300)
    local twin, twin_back, twin_front = rifleman(300, 300)
    local arms = two_arms()
    local s1 = ik2d.solver(rig:chain("upper_b", "fore_b"))
    local s2 = ik2d.solver(twin:chain("upper_b", "fore_b"))
    s1:set_target_bone(arms, "flag_b", 3, 1)
    for frame = 1, 30 do
      arms:set_pose("b1", 0.05 * frame)
      s2:set_target(s1:target())
      rig:solve()
      twin:solve()
      assert.are.same(twin:transforms(), rig:transforms())
      assert.are.same({ s2:result() }, { s1:result() })
      assert.are.same({ twin_back:result() }, { rig_back:result() })
      assert.are.same({ twin_front:result() }, { rig_front:result() })
    end
  end)
end)

describe("a cycle through targets", function()
  it("is refused at set_target_bone, naming both solvers, changing nothing", function()
    local sk = two_arms()
    local a = ik2d.solver(sk:chain("a1", "a2"))
    local b = ik2d.solver(sk:chain("b1", "b2"))
    a:set_target_bone(sk, "flag_b")
    b:set_target(50, 20)
    local msg = helpers.caller_error(function() b:set_target_bone(sk, "flag_a", 1, 2) end)
    helpers.check_message(msg, helpers.bad_argument(2, "set_target_bone",
      'solver 2 (chain "b1".."b2") and solver 1 (chain "a1".."a2"): ' ..
      "the first's target is on a bone the second moves, which must run after it (a cycle)"))
    assert.is_nil(b:target_bone())
    assert.are.same({ 50, 20 }, { b:target() })
    assert.are.equal(2, sk:solve())
  end)

  it("made later (together = false) is refused at solve, naming both, solving nothing", function()
    local sk, back, front = rifleman(300, 300)
    -- each hand on the other's arm: together, one coupled solve
    back:set_target_bone(sk, "rifle", 20, 0)
    front:set_target_bone(sk, "fore_b", 26, 0)
    assert.is_true(sk:solve() >= 0)
    back:set_options{ together = false }
    local before = sk:transforms()
    local msg = helpers.caller_error(function() sk:solve() end)
    helpers.check_message(msg, { "bad call to", 'solver 1 (chain "spine".."fore_b") and solver 2 '
      .. '(chain "spine".."fore_f"): the first\'s target is on a bone the second moves' })
    assert.are.same(before, sk:transforms())
    -- together again: solved
    back:set_options{ together = true }
    assert.is_true(sk:solve() >= 0)
  end)

  it("is none when the solvers are solved together: the back hand on the rifle, the front on its target", function()
    local sk, back, front = rifleman(300, 300)
    front:set_target(335, 240)
    back:set_target_bone(sk, "rifle", 22, 2)
    assert.are.equal(2, sk:solve())
    local gx, gy = point_of(sk, "rifle", 22, 2)
    local hx, hy = sk:tip("fore_b")
    assert.is_true(helpers.distance(gx, gy, hx, hy) <= 0.01)
  end)
end)

describe("set_target_bone's errors", function()
  local function fresh()
    local sk = two_arms()
    local s = ik2d.solver(ik2d.chain{ { length = 1 } })
    s:set_target_bone(sk, "a2", 1, 1)
    return sk, s
  end

  local CASES = {
    { "no skeleton", function(_, s) s:set_target_bone() end, 1, "ik2d.Skeleton expected, got no value" },
    { "a chain for the skeleton", function(_, s) s:set_target_bone(ik2d.chain{ { length = 1 } }, 1) end,
      1, "ik2d.Skeleton expected, got ik2d.Chain" },
    { "no bone", function(sk, s) s:set_target_bone(sk) end, 2, "bone name or index expected, got no value" },
    { "an unknown bone", function(sk, s) s:set_target_bone(sk, "tail") end, 2, 'unknown bone "tail"' },
    { "a bone index past the end", function(sk, s) s:set_target_bone(sk, 8) end, 2,
      "bone index 8 out of range (1..7)" },
    { "a fractional bone index", function(sk, s) s:set_target_bone(sk, 1.5) end, 2,
      "bone index must be a whole number" },
    { "dx nan", function(sk, s) s:set_target_bone(sk, 1, 0 / 0) end, 3, "target x must be finite" },
    { "dx a word", function(sk, s) s:set_target_bone(sk, 1, "left") end, 3, "number expected, got string" },
    { "dy inf", function(sk, s) s:set_target_bone(sk, 1, 0, math.huge) end, 4, "target y must be finite" },
  }
  for _, case in ipairs(CASES) do
    it(("says which argument and what is wrong: %s, changing nothing"):format(case[1]), function()
      local sk, s = fresh()
      local before = { s:target_bone() }
      local msg = helpers.caller_error(case[2], sk, s)
      helpers.check_message(msg, helpers.bad_argument(case[3], "set_target_bone", case[4]))
      assert.are.same(before, { s:target_bone() })
    end)
  end
end)

helpers.on_both_paths(ik2d, function()
  describe("targets on bones frame after frame", function()
    it("set_target after a target on a bone goes back to a world point", function()
      local sk = two_arms()
      local s = ik2d.solver(ik2d.chain{ { length = 30 }, { length = 30 } })
      s:set_target_bone(sk, "b2")
      s:set_target(10, 20)
      assert.is_nil(s:target_bone())
      sk:set_pose("b1", 1)
      assert.are.same({ 10, 20 }, { s:target() })
    end)

    it("allocate nothing (set_base, targets, a target on a bone set every frame, solve, reads)", function()
      local sk, back, front = rifleman(300, 300)
      local other = two_arms()
      local plain = ik2d.solver(ik2d.chain{ { length = 40 }, { length = 40 } })
      local t, frame = {}, 0
      local function run()
        for _ = 1, 200 do
          frame = frame + 1
          sk:set_base(300 + 5 * sin(frame * 0.05), 300)
          front:set_target(330 + 4 * sin(frame * 0.03), 300 + 3 * cos(frame * 0.04))
          back:set_target_bone(sk, "rifle", 22 + sin(frame * 0.02), 2)
          plain:set_target_bone(other, "flag_b", 3, 0)
          other:set_pose("b1", 0.3 * sin(frame * 0.01))
          sk:solve()
          plain:solve()
          back:target()
          back:result()
          plain:result()
          sk:transforms(t)
        end
      end
      assert.are.equal(0, helpers.steady_growth(run, true))
    end)
  end)
end)
