-- The headless test: `xvfb-run -a love examples/love --test`.
--
-- Plays a scripted sequence (reach for the mouse, switch every limb
-- through each solver method it allows and back, pick the item up, climb
-- the ledge, aim and shoot, get down, drop the item, walk the hill both
-- ways) with a fixed dt in real LOVE, draws it, and checks as it goes.
-- Every frame it also checks that joint limits hold to 1e-9, that every
-- joint is finite, that no behaviour-driven target ever jumps (each frame
-- it may move at most 1 - exp(-rate dt) of the way to its goal), that the
-- knees bend forward, and that each planted foot lies flat on the ground
-- under it.  Prints one line per check, a final `love: N passed, N
-- failed`, saves a screenshot and exits with a non-zero status on any
-- failure.

local world = require "world"
local character = require "character"
local feet = require "feet"
local ikdraw = require "ik2d.love"

local pi, abs, exp, sqrt = math.pi, math.abs, math.exp, math.sqrt
local cos, sin = math.cos, math.sin

local autotest = {}
local T = {}
T.__index = T

local DT = 1 / 60
local STEPS_PER_FRAME = 4      -- simulation steps per drawn frame
local LIMIT_TOL = 1e-9
-- A planted foot's last bone is set along the ground's direction by one
-- rotation product: only rounding may show, far below this.
local FOOT_ANGLE_TOL = 1e-9
-- A straight foot on the curved hill: its ends leave the ground by up to
-- curvature x (half the foot)^2 / 2 = 0.0140 x 7.5^2 / 2 = 0.39 px along
-- the normal, 0.44 px measured upright on the steepest slope (0.47 rad).
local SOLE_TOL = 0.5
local SLOPE = 0.1              -- a foot on ground steeper than this is "on a slope"
local SCREENSHOT = "ik2d-test.png"
local PROBE_FRAMES = 40        -- frames each limb is driven with each method

local function dist(x1, y1, x2, y2)
  return sqrt((x2 - x1) ^ 2 + (y2 - y1) ^ 2)
end

local function wrap(a)
  return (a + pi) % (2 * pi) - pi
end

-- ------------------------------------------------------------------
-- Reporting
-- ------------------------------------------------------------------

function T:check(name, ok, detail)
  if ok then self.passed = self.passed + 1 else self.failed = self.failed + 1 end
  print(("%s %s%s"):format(ok and "ok  " or "FAIL", name,
    detail and ("  (" .. detail .. ")") or ""))
  return ok
end

function T:info(text)
  print("info " .. text)
end

-- ------------------------------------------------------------------
-- Per-frame monitors
-- ------------------------------------------------------------------

function T:monitor_before()
  local hero = self.game.hero
  for name, b in pairs(hero.behaviours) do
    local p = self.prev[name] or {}
    self.prev[name] = p
    local s = hero.solvers[name]
    p[1], p[2] = s:target()
    p[3], p[4] = b:goal()
    p[5] = b:rate()
    -- a switch at weight 0 smooths from the hand, the chain's tip (nothing
    -- moves the chains between here and the switch: the solve comes last)
    p[6] = s:weight()
    p[7], p[8] = s:chain():tip()
    p[9] = b:state()
  end
end

-- How far bone i of c is outside its limits (<= 0 inside).
local function limit_off(c, i)
  local k = c:constraint(i)
  if not k then return -math.huge end
  local lo, hi = k:limits()
  return abs(wrap(c:angle(i) - c:rest(i) - (lo + hi) / 2)) - (hi - lo) / 2
end

-- How many of chain c's joints are not finite.
local function non_finite_joints(c)
  local count = 0
  for j = 1, #c + 1 do
    local x, y = c:joint(j)
    if x ~= x or y ~= y or abs(x) == math.huge or abs(y) == math.huge then
      count = count + 1
    end
  end
  return count
end

function T:monitor_after()
  local hero = self.game.hero
  -- limits and finiteness on every chain
  for _, name in ipairs(hero.order) do
    local c = hero.solvers[name]:chain()
    for i = 1, #c do
      if c:constraint(i) then
        local off = limit_off(c, i)
        if off > self.worst_limit then
          self.worst_limit, self.worst_limit_at = off, ("%s bone %d at %.2f s"):format(name, i, self.time)
        end
        -- the debug arc drawn for this joint contains the bone
        local a1, a2 = ikdraw.limit_arc(c, i)
        local from_a1 = (c:world_angle(i) - a1) % (2 * pi)
        if not (from_a1 <= a2 - a1 + LIMIT_TOL or from_a1 >= 2 * pi - LIMIT_TOL) then
          self.arc_misses = self.arc_misses + 1
        end
        if c:flip() then self.flipped_frames = self.flipped_frames + 1 end
      end
    end
    self.non_finite = self.non_finite + non_finite_joints(c)
  end
  -- smoothed targets: never more than 1 - exp(-rate dt) of the gap, with
  -- the goal and rate of the state that made the step: the state now,
  -- or, when a callback switched state after the step (its time is 0),
  -- the one before (its goal has not moved within the frame); from the
  -- target before the frame, or, after a switch made at weight 0, from
  -- the hand (the target then moved nothing, and may have been stale)
  for name, b in pairs(hero.behaviours) do
    local p = self.prev[name]
    local x, y = hero.solvers[name]:target()
    local gx, gy, rate = p[3], p[4], p[5]
    if b:time() > 0 then
      gx, gy = b:goal()
      rate = b:rate()
    end
    local ox, oy = p[1], p[2]
    if p[6] == 0 and b:state() ~= p[9] then ox, oy = p[7], p[8] end
    local moved = dist(ox, oy, x, y)
    local allowed = (1 - exp(-rate * DT)) * dist(ox, oy, gx, gy)
    if moved > allowed + 1e-9 then
      self.jumps = self.jumps + 1
      self.jump_at = ("%s at %.2f s: moved %.3f, allowed %.3f"):format(name, self.time, moved, allowed)
    end
    if moved > self.max_step then self.max_step = moved end
  end
  -- watch what the script asks about
  local w = hero.behaviours.torso:weight()
  if w > self.max_torso then self.max_torso = w end
  if hero.mode == "climb" and hero.phase == "pull" then
    local grips = world.grips
    local fx, fy = hero.arm_front:tip()
    local bx, by = hero.arm_back:tip()
    local d = math.max(dist(fx, fy, grips.front[1], grips.front[2]),
      dist(bx, by, grips.back[1], grips.back[2]))
    if d > self.pull_grip then self.pull_grip = d end
    local wmin = math.min(hero.solvers.arm_front:weight(), hero.solvers.arm_back:weight())
    if wmin < self.pull_weight then self.pull_weight = wmin end
  end
end

-- The headband's tails (an ik2d.spring on a chain of their own): finite,
-- inside their limits, and how fast they swing.
function T:monitor_headband()
  local band, watch = self.game.hero.headband, self.band
  local chain = band.chain
  for i = 1, #chain do
    local off = limit_off(chain, i)
    if off > watch.worst then watch.worst = off end
    local v = abs(band.spring:velocity(i))
    if v > watch.peak then watch.peak = v end
  end
  watch.non_finite = watch.non_finite + non_finite_joints(chain)
  if chain:flip() then watch.flipped = watch.flipped + 1 end
end

-- How far (x, y) is above or below the ground.
local function off_ground(x, y)
  return abs(y - world.ground_at(x))
end

-- The legs: the toe on its target and the knee on the facing side of the
-- hip-to-ankle line (a knee bent forward; positive px), every frame;
-- each planted foot flat on
-- the ground: its tip weight exactly 1, its last bone along the ground's
-- direction at the spot its planner chose (facing either way), the sole
-- under the bone's middle on that spot and both sole ends on the ground.
-- Stepping feet: how far down the tip weight blends.
function T:monitor_legs()
  local hero, watch = self.game.hero, self.legs
  local facing = hero.facing
  for name, f in pairs(hero.feet.by_leg) do
    local c, s = hero[name], hero.solvers[name]
    local hx, hy = c:joint(1)
    local kx, ky = c:joint(2)
    local ax, ay = c:joint(3)
    local tx, ty = c:joint(4)
    local lx, ly = ax - hx, ay - hy
    local knee = -facing * (lx * (ky - hy) - ly * (kx - hx)) / sqrt(lx * lx + ly * ly)
    if knee < watch.knee then
      watch.knee, watch.knee_at = knee, ("%s at %.2f s (%s)"):format(name, self.time, f.status)
    end
    local _, weight = s:tip_angle()
    local _, distance = s:result()
    if distance > watch.reach then
      watch.reach, watch.reach_at = distance, ("%s at %.2f s (%s)"):format(name, self.time, f.status)
    end
    if f.status == "step" and weight < watch.step_weight then watch.step_weight = weight end
    -- (a leg the probe drives is where the probe put it)
    if f.status == "planted" and not (self.probe and self.probe.name == name) then
      watch.planted = watch.planted + 1
      if weight ~= 1 then watch.weight_off = watch.weight_off + 1 end
      local slope = world.slope_at(f.cx)
      -- the bone's direction as a ground direction (the toe ahead)
      local a = wrap(c:world_angle(3) - (facing > 0 and 0 or pi))
      local err = abs(wrap(a - slope))
      if err > watch.angle then
        watch.angle, watch.angle_at = err, ("%s at %.2f s"):format(name, self.time)
      end
      -- the sole: ANKLE below the bone, along its normal
      local nx, ny = feet.ANKLE * sin(a), -feet.ANKLE * cos(a)
      local gx, gy = (ax + tx) / 2 - nx, (ay + ty) / 2 - ny
      watch.contact = math.max(watch.contact, dist(gx, gy, f.cx, world.ground_at(f.cx)))
      watch.sole = math.max(watch.sole, off_ground(ax - nx, ay - ny), off_ground(tx - nx, ty - ny))
      if abs(slope) > SLOPE then
        if facing > 0 then watch.slope_right = watch.slope_right + 1
        else watch.slope_left = watch.slope_left + 1 end
      end
    end
  end
end

-- ------------------------------------------------------------------
-- Probe: one limb driven by the test, to try each solver method
-- ------------------------------------------------------------------

-- The tip of chain c with local angles `angles`, from its base as it is,
-- and its last bone's direction as drawn (as world_angle gives it).
local function fk_tip(c, angles)
  local bx, by, a = c:base()
  local x, y = bx, by
  for i = 1, #c do
    a = a + angles[i]
    x, y = x + c:length(i) * cos(a), y + c:length(i) * sin(a)
  end
  if c:flip() then return 2 * bx - x, y, pi - a end
  return x, y, a
end

-- Local angles with each bone at a fraction of its allowed range (u[i], u
-- repeating for longer chains), so the pose and its tip are reachable
-- inside the limits.
local function limit_pose(c, u)
  local angles = {}
  for i = 1, #c do
    local lo, hi = -0.5, 0.5
    local k = c:constraint(i)
    if k then lo, hi = k:limits() end
    angles[i] = c:rest(i) + lo + (hi - lo) * u[(i - 1) % #u + 1]
  end
  return angles
end

-- After the game's frame: the probed limb's solver gets weight 1 and a
-- target on a path of reachable points, solves, and gets back the weight
-- and target the game gave it, so the game and the other monitors carry
-- on; the chain shows the probe's result until the game's next solve.
-- The path is the tips of poses inside the limits: from the limb's pose
-- when the probe starts (no jump, like the demo's smoothed targets) to
-- PROBE_POSE (each bone at that fraction of its range), then held there.
local PROBE_POSE = { 0.7, 0.65 }

-- Local angle of bone i of c, in the frame centred on its limit range.
local function in_range(c, i, a)
  local k = c:constraint(i)
  if not k then return a end
  local lo, hi = k:limits()
  local mid = c:rest(i) + (lo + hi) / 2
  return mid + wrap(a - mid)
end

function T:run_probe()
  local p = self.probe
  local s = self.game.hero.solvers[p.name]
  local c = s:chain()
  p.frames = p.frames + 1
  if p.frames == 1 then
    p.from, p.to = {}, limit_pose(c, PROBE_POSE)
    for i = 1, #c do p.from[i] = in_range(c, i, c:angle(i)) end
  end
  local f = math.min(1, (p.frames - 1) / (PROBE_FRAMES * 0.75))
  local u = 0.5 - 0.5 * cos(pi * f)
  local angles = {}
  for i = 1, #c do angles[i] = p.from[i] + (p.to[i] - p.from[i]) * u end
  local tx, ty, ta = fk_tip(c, angles)
  local w0, gx, gy = s:weight(), s:target()
  -- a leg's foot keeps a tip angle: the probe asks for its pose's
  local tip_angle, tip_weight = s:tip_angle()
  s:set_weight(1)
  s:set_target(tx, ty)
  if tip_angle then s:set_tip_angle(ta, 1) end
  s:solve()
  s:set_weight(w0)
  s:set_target(gx, gy)
  if tip_angle then
    s:set_tip_angle(tip_angle, tip_weight)
    p.tip = math.max(p.tip, abs(wrap(c:world_angle(#c) - ta)))
  end
  local x, y = c:tip()
  p.worst = math.max(p.worst, dist(x, y, tx, ty))
  for i = 1, #c do p.limit = math.max(p.limit, limit_off(c, i)) end
end

-- ------------------------------------------------------------------
-- Script helpers (run inside the coroutine; one yield = one frame)
-- ------------------------------------------------------------------

function T:frame()
  coroutine.yield()
end

function T:wait(seconds)
  for _ = 1, math.floor(seconds / DT + 0.5) do coroutine.yield() end
end

-- Waits until fn() is true or timeout seconds pass; returns fn(), seconds waited.
function T:wait_until(fn, timeout)
  local t = 0
  while not fn() and t < timeout do
    coroutine.yield()
    t = t + DT
  end
  return fn(), t
end

function T:event_seen(name, since)
  for _, e in ipairs(self.game.hero.events) do
    if e.name == name and e.time >= (since or 0) then return true end
  end
  return false
end

-- Walks (the arrows' input) until the hip passes x; returns whether it did.
function T:walk_to(x)
  local hero = self.game.hero
  local dir = x > hero.x and 1 or -1
  self.input.move = dir
  local ok = self:wait_until(function() return (x - hero.x) * dir <= 0 end, 10)
  self.input.move = 0
  return ok
end

-- Standing on the hill: both feet planted on its slope, flat along it.
function T:check_standing(label)
  local hero = self.game.hero
  local on_slope, worst, slopes = true, 0, {}
  for name, f in pairs(hero.feet.by_leg) do
    local slope = world.slope_at(f.cx)
    on_slope = on_slope and f.status == "planted" and abs(slope) > SLOPE
    local a = wrap(hero[name]:world_angle(3) - (hero.facing > 0 and 0 or pi))
    worst = math.max(worst, abs(wrap(a - slope)))
    slopes[#slopes + 1] = ("%s %.3f"):format(name, slope)
  end
  self:check(("hill: %s, both feet planted on the slope (steeper than %g rad), along it (%g rad)")
    :format(label, SLOPE, FOOT_ANGLE_TOL), on_slope and worst <= FOOT_ANGLE_TOL,
    ("x %.1f, slopes %s rad, angle error %.3g rad"):format(hero.x, table.concat(slopes, ", "), worst))
end

-- Each behaviour's weight equals its state's weight exactly, blend done.
function T:weights_settled()
  local hero = self.game.hero
  for name, b in pairs(hero.behaviours) do
    local want = hero.states[name][b:state()].weight
    if b:blending() or b:weight() ~= want or hero.solvers[name]:weight() ~= want then
      return false, ("%s in %s: %.17g, want %g"):format(name, b:state(), b:weight(), want)
    end
  end
  return true
end

-- ------------------------------------------------------------------
-- The script
-- ------------------------------------------------------------------

local function script(self)
  local game, ik2d = self.game, self.ik2d
  local hero, item = game.hero, game.item
  local b = hero.behaviours

  self:check("ik2d loads in LOVE (" .. tostring(ik2d._VERSION) .. ", " ..
    (jit and jit.version or _VERSION) .. ", " .. tostring(ik2d.backend) .. " core, FFI path " ..
    (ik2d.ffi and "on" or "off") .. ")",
    type(ik2d._VERSION) == "string")
  self:check("helpers load: blend, follow, behaviour, attach, love",
    pcall(function()
      for _, m in ipairs{ "blend", "follow", "behaviour", "attach", "love" } do
        assert(type(require("ik2d." .. m)) == "table")
      end
    end))
  self:frame()

  -- 1. the mouse drives the front hand, smoothed
  game:set_mouse(hero.x + 45, hero.y - 80)
  self:wait(1.5)
  local mx, my = hero.mouse_x, hero.mouse_y
  local tx, ty = hero.arm_front:tip()
  self:check("reach: the front arm follows the mouse (state reach, weight 1)",
    b.arm_front:state() == "reach" and hero.solvers.arm_front:weight() == 1)
  self:check("reach: the hand is on the mouse within the solver tolerance",
    dist(tx, ty, mx, my) <= hero.solvers.arm_front:tolerance() + 1e-6,
    ("distance %.4f"):format(dist(tx, ty, mx, my)))

  -- 1b. M cycles the selected limb's solver method (1-5 / Tab select the
  -- limb): each limb tries each method it allows on a reachable moving
  -- target; a full cycle comes back to the method it started with
  local bones2 = character.next_method("fabrik", 2) == "two_bone"
    and character.next_method("two_bone", 2) == "ccd"
  local bones3 = character.next_method("ccd", 3) == "fabrik"
    and character.next_method("fabrik", 3) == "ccd" and #character.methods_for(3) == 2
  self:check("methods: M cycles ccd -> fabrik -> two_bone, skipping two_bone unless 2 bones",
    bones2 and bones3)
  local fk_err = 0
  for _, name in ipairs(hero.order) do
    local c = hero.solvers[name]:chain()
    local angles = {}
    for i = 1, #c do angles[i] = c:angle(i) end
    local x, y = fk_tip(c, angles)
    local cx, cy = c:tip()
    fk_err = math.max(fk_err, dist(x, y, cx, cy))
  end
  self:check("methods: the probe's forward kinematics match the chains' tips (1e-9 px)",
    fk_err <= 1e-9, ("error %.3g px"):format(fk_err))
  local selected_ok = true
  for i, name in ipairs(hero.order) do
    game:key(tostring(i))
    selected_ok = selected_ok and hero.selected == name
    local s = hero.solvers[name]
    local start = s:method()
    local allowed = character.methods_for(#s:chain())
    local tried = {}
    for _ = 1, #allowed do
      local method = s:method()
      tried[#tried + 1] = method
      self.probe = { name = name, frames = 0, worst = 0, limit = -math.huge, tip = 0 }
      for _ = 1, PROBE_FRAMES do self:frame() end
      local p = self.probe
      self.probe = nil
      local oriented = s:tip_angle() ~= nil
      self:check(("methods: %s with %s reaches within %g px%s, limits hold (%g rad)")
        :format(name, method, s:tolerance(), oriented and
          (", the foot along its tip angle (%g rad)"):format(FOOT_ANGLE_TOL) or "", LIMIT_TOL),
        p.worst <= s:tolerance() and p.limit <= LIMIT_TOL and p.tip <= FOOT_ANGLE_TOL,
        ("worst %.4f px%s over %d frames, limits %.3g rad"):format(p.worst,
          oriented and (", foot %.3g rad"):format(p.tip) or "", PROBE_FRAMES, math.max(p.limit, 0)))
      game:key("m")
    end
    table.sort(tried)
    table.sort(allowed)
    self:check(("methods: M on %s (key %d) tries %s and comes back to %s")
      :format(name, i, table.concat(allowed, ", "), start),
      table.concat(tried, ",") == table.concat(allowed, ",") and s:method() == start,
      ("tried %s, now %s"):format(table.concat(tried, ", "), s:method()))
  end
  game:key("tab")
  selected_ok = selected_ok and hero.selected == "torso"
  game:key("tab")
  selected_ok = selected_ok and hero.selected == "arm_back"
  game:key("3")
  self:check("methods: keys 1-5 and Tab select the limb (torso, arm_back, arm_front, leg_back, leg_front)",
    selected_ok and hero.selected == "arm_front")
  -- back to the defaults: switch two limbs away, then reset
  game:key("m")
  game:key("1")
  game:key("m")
  game:key("3")
  local moved_away = hero.solvers.torso:method() == "fabrik" and hero.solvers.arm_front:method() == "ccd"
  hero:reset_methods()
  local defaults = true
  for _, name in ipairs(hero.order) do
    local want = name:match("^arm") and "two_bone" or "ccd"
    defaults = defaults and hero.solvers[name]:method() == want and hero.default_methods[name] == want
  end
  self:check("methods: back to the defaults (torso and legs ccd, arms two_bone)", moved_away and defaults)
  -- the probes took long enough for the arm to go idle: move the mouse
  -- (to where it was) and wait as in 1.
  game:set_mouse(mx + 1, my)
  game:set_mouse(mx, my)
  self:wait(1.5)
  tx, ty = hero.arm_front:tip()
  self:check("methods: with the defaults back, the hand is on the mouse again",
    dist(tx, ty, mx, my) <= hero.solvers.arm_front:tolerance() + 1e-6,
    ("distance %.4f"):format(dist(tx, ty, mx, my)))

  -- 2. pick the item up
  game:key("p")
  local grabbed, took = self:wait_until(function() return item.held end, 8)
  self:check("pickup: the hand gets the item", grabbed, ("after %.2f s"):format(took))
  self:check("pickup: the hand reached the item within 1.5 px",
    hero.grab_distance ~= nil and hero.grab_distance <= 1.5,
    ("distance %.4f"):format(hero.grab_distance or -1))
  self:check("pickup: the arm weight had blended to exactly 1",
    hero.grab_weight == 1, ("weight %.17g"):format(hero.grab_weight or -1))
  self:check("pickup: the torso bend reached exactly 0.8", self.max_torso == 0.8,
    ("max %.17g"):format(self.max_torso))
  self:wait_until(function() return hero.mode == "free" end, 3)
  self:wait(0.5)
  local ix, iy = hero.arm_front:tip()
  self:check("pickup: the item follows the hand", item.held
    and dist(ix, iy, item.grip[1], item.grip[2]) < 1e-9)
  local settled, why = self:weights_settled()
  self:check("pickup: weights blend back to their states' exact values", settled, why)

  -- 3. climb the ledge
  local t0 = hero.time
  game:key("c")
  local hung = self:wait_until(function() return self:event_seen("hang", t0) end, 6)
  local fx, fy = hero.arm_front:tip()
  local bx, by = hero.arm_back:tip()
  local g = world.grips
  self:check("climb: both hands grab the ledge within 0.5 px", hung
    and dist(fx, fy, g.front[1], g.front[2]) <= 0.5 and dist(bx, by, g.back[1], g.back[2]) <= 0.5,
    ("%.3f, %.3f px"):format(dist(fx, fy, g.front[1], g.front[2]), dist(bx, by, g.back[1], g.back[2])))
  local climbed, secs = self:wait_until(function() return self:event_seen("climbed", t0) end, 6)
  self:check("climb: the character ends on the ledge", climbed and hero.x > world.LEDGE_X
    and abs(hero.y - (world.LEDGE_TOP - character.HIP_HEIGHT)) < 1e-9,
    ("after %.2f s, hip %.1f, %.1f"):format(secs, hero.x, hero.y))
  self:check("climb: the hands stay on the grips while pulling up (within 1 px)",
    self.pull_grip <= 1, ("worst %.4f px"):format(self.pull_grip))
  self:check("climb: arm weights stay exactly 1 while pulling up", self.pull_weight == 1,
    ("min %.17g"):format(self.pull_weight))
  self:wait(0.6)
  local ok_feet, worst_foot = true, 0
  for _, leg in ipairs{ hero.leg_front, hero.leg_back } do
    local _, y = leg:tip()
    local d = abs(y - (world.LEDGE_TOP - feet.ANKLE))
    if d > worst_foot then worst_foot = d end
    ok_feet = ok_feet and d <= 0.5
  end
  self:check("climb: the legs follow, both feet on the ledge (0.5 px)", ok_feet,
    ("worst %.4f px"):format(worst_foot))
  settled, why = self:weights_settled()
  self:check("climb: weights blend back to their states' exact values", settled, why)

  -- 4. aim at the mouse with weight 0.7, and shoot
  game:set_mouse(world.WIDTH - 60, 150)
  game:key("a")
  self:wait(1.2)
  self:check("aim: arm weights are exactly 0.7, the torso's 0.25",
    hero.solvers.arm_front:weight() == 0.7 and hero.solvers.arm_back:weight() == 0.7
    and hero.solvers.torso:weight() == 0.25)
  -- far target: the full IK answer is a straight arm pointing at it, so
  -- the result must be pose + 0.7 * (that - pose), bone by bone
  local arm = hero.arm_front
  local sx, sy = arm:joint(1)
  local tgx, tgy = hero.solvers.arm_front:target()
  local base_dir = arm:world_angle(1) - arm:angle(1)
  local ik1 = wrap(math.atan2(tgy - sy, tgx - sx) - base_dir)
  local want1 = arm:pose(1) + 0.7 * wrap(ik1 - arm:pose(1))
  local want2 = arm:pose(2) + 0.7 * wrap(0 - arm:pose(2))
  local e1, e2 = abs(wrap(arm:angle(1) - want1)), abs(wrap(arm:angle(2) - want2))
  self:check("aim: result = pose + 0.7 * (IK - pose) for each bone (1e-6 rad)",
    e1 < 1e-6 and e2 < 1e-6, ("errors %.3g, %.3g rad"):format(e1, e2))
  local before = #game.sparks
  game:key("space")
  self:wait(0.1)
  self:check("aim: a shot fires a spark", #game.sparks > before)

  -- 5. get down and drop the item
  game:key("a")
  t0 = hero.time
  game:key("c")
  local landed = self:wait_until(function() return self:event_seen("landed", t0) end, 5)
  self:check("down: the character drops off the ledge and lands", landed
    and abs(hero.y - (world.GROUND - character.HIP_HEIGHT)) < 1e-9,
    ("hip at %.1f, %.4f"):format(hero.x, hero.y))
  self:wait(0.3)
  game:key("p")
  self:wait(1.5)
  self:check("drop: the item falls and rests on the surface under it", not item.held
    and item.y == world.ground_at(item.x) - 5, ("item at %.1f, %.3f"):format(item.x, item.y))

  -- 6. the hill (arrow keys): up its right flank facing left, over the
  -- top and down, back up facing right; standing still on each slope
  -- where both feet's spots (home +- a stride) are on it.
  -- Meanwhile update's garbage is counted, in LuaJIT's interpreter with
  -- the classic methods: compiled code may sink an allocation, and the
  -- JIT's traces are allocated on the same heap as they are recorded
  -- (jit.flush: traces left running would box on their exits).  The
  -- collector stays stopped for the whole walk, not only during update:
  -- a cycle between frames shrinks a Lua stack that deep calls had grown
  -- (the pure-Lua core's solve), and the next update would count its
  -- regrowth, a resize and no garbage
  local ffi_was = ik2d.ffi
  if jit then
    jit.off()
    jit.flush()
  end
  ik2d.use_ffi(false)
  -- and a full cycle first, then a few steps each way uncounted with the
  -- collector held stopped: a cycle's step shortly before the count (when
  -- steps come depends on what frames drew, the HUD's numbers among them)
  -- may have shrunk the stack, and the walk would regrow it
  collectgarbage()
  collectgarbage("stop")
  self.hold_collector = true
  local start_x = hero.x
  self:walk_to(start_x + 40)
  self:walk_to(start_x)
  self:wait(0.5)
  self.garbage_frames, self.garbage = 0, 0
  self.count_garbage = true
  local walked = self:walk_to(640)
  self:wait(1)
  self:check_standing("up its right flank facing left")
  walked = self:walk_to(530) and walked
  self:wait(1)
  self:check_standing("down its left flank facing left")
  walked = self:walk_to(470) and walked
  walked = self:walk_to(512) and walked
  self:wait(1)
  self:check_standing("up its left flank facing right")
  self.count_garbage, self.hold_collector = false, false
  collectgarbage("restart")
  ik2d.use_ffi(ffi_was)
  if jit then jit.on() end
  self:check("hill: the arrows walk the character over it both ways", walked and hero.mode == "free",
    ("at %.1f, %s"):format(hero.x, hero:describe()))
  self:check("hill: walking and standing on it, game:update allocates nothing (interpreted, classic methods)",
    self.garbage == 0 and self.garbage_frames > 0, ("%d bytes in %d frames"):format(self.garbage, self.garbage_frames))
  -- final pose for the screenshot: reach toward the item again
  game:set_mouse(hero.x + 60, hero.y - 30)
  self:wait(1)

  -- 7. what held all along
  self:check(("limits hold on every joint, every frame (%g rad)"):format(LIMIT_TOL),
    self.worst_limit <= LIMIT_TOL, ("worst %.3g rad%s"):format(self.worst_limit,
      self.worst_limit_at and (", " .. self.worst_limit_at) or ""))
  self:check("ik2d.love's limit arcs contain their bones, facing both ways",
    self.arc_misses == 0 and self.flipped_frames > 0,
    ("%d misses, %d flipped bone-frames"):format(self.arc_misses, self.flipped_frames))
  self:check("every joint is finite, every frame", self.non_finite == 0)
  self:check(("headband: the spring's joints are finite and its tails within their limits every frame (%g rad)")
    :format(LIMIT_TOL), self.band.non_finite == 0 and self.band.worst <= LIMIT_TOL,
    ("%d non-finite, worst %.3g rad"):format(self.band.non_finite, self.band.worst))
  self:check("headband: the tails swing (a bone faster than 1 rad/s), facing both ways",
    self.band.peak > 1 and self.band.flipped > 0,
    ("peak %.2f rad/s, %d flipped frames"):format(self.band.peak, self.band.flipped))
  self:check("targets never jump: each frame moves at most 1 - exp(-rate dt) of the gap",
    self.jumps == 0, self.jump_at or ("largest step %.2f px"):format(self.max_step))
  local legs = self.legs
  local tolerance = hero.solvers.leg_front:tolerance()
  self:check(("legs: each toe on its target every frame (%g px, the legs' tolerance): standing, stepping, "
    .. "climbing, falling"):format(tolerance), legs.reach <= tolerance,
    ("worst %.4f px, %s"):format(legs.reach, legs.reach_at or "-"))
  self:check("knees bend forward, every frame: the knee on the facing side of the hip-to-ankle line",
    legs.knee > 0, ("closest %.2f px, %s"):format(legs.knee, legs.knee_at or "-"))
  self:check(("feet: each planted foot lies along the ground at its spot (%g rad), tip weight exactly 1, "
    .. "on slopes facing both ways"):format(FOOT_ANGLE_TOL),
    legs.angle <= FOOT_ANGLE_TOL and legs.weight_off == 0 and legs.slope_left > 0 and legs.slope_right > 0,
    ("worst %.3g rad%s; %d foot-frames planted, %d with weight off 1; on slopes %d facing right, %d left")
      :format(legs.angle, legs.angle_at and (" (" .. legs.angle_at .. ")") or "", legs.planted,
        legs.weight_off, legs.slope_right, legs.slope_left))
  self:check(("feet: planted feet touch the ground: the sole's middle on the spot (%g px, the legs' tolerance), "
    .. "heel and toe on the ground (%g px)"):format(tolerance, SOLE_TOL),
    legs.contact <= tolerance and legs.sole <= SOLE_TOL,
    ("middle %.3g px, ends %.3f px"):format(legs.contact, legs.sole))
  self:check("feet: a stepping foot's tip weight blends down (the foot eases toward its angle) and is 1 again planted",
    legs.step_weight < 0.5 and legs.weight_off == 0, ("lowest %.3f"):format(legs.step_weight))
  self:info(("%d frames of %.4f s simulated, update %.3f ms per frame on average")
    :format(self.frames, DT, self.update_time / math.max(1, self.frames) * 1000))
end

-- ------------------------------------------------------------------
-- Runner
-- ------------------------------------------------------------------

function autotest.new(game, ik2d)
  local self = setmetatable({
    game = game, ik2d = ik2d,
    passed = 0, failed = 0,
    time = 0, frames = 0, update_time = 0,
    prev = {}, worst_limit = 0, non_finite = 0, jumps = 0, max_step = 0,
    arc_misses = 0, flipped_frames = 0,
    max_torso = 0, pull_grip = 0, pull_weight = 1,
    state = "running",
  }, T)
  self.band = { worst = 0, non_finite = 0, peak = 0, flipped = 0 }
  self.legs = { reach = 0, knee = math.huge, planted = 0, weight_off = 0, angle = 0, contact = 0, sole = 0,
                slope_left = 0, slope_right = 0, step_weight = 1 }
  self.input = { move = 0 }      -- the arrows, as the script walks
  self.garbage, self.garbage_frames, self.count_garbage = 0, 0, false
  self.co = coroutine.create(function() script(self) end)
  local major, minor, revision = love.getVersion()
  print(("love: ik2d headless test, LOVE %d.%d.%d, dt %.4f s"):format(major, minor, revision, DT))
  return self
end

function T:step()
  local ok, err = coroutine.resume(self.co)
  if not ok then
    self:check("the test script runs to the end", false, tostring(err))
    return false
  end
  if coroutine.status(self.co) == "dead" then return false end
  self:monitor_before()
  -- the collector paused, so that the count's rise is what update made
  collectgarbage("stop")
  local k0, c0 = collectgarbage("count"), os.clock()
  self.game:update(DT, self.input)
  local k1 = collectgarbage("count")
  if not (self.count_garbage or self.hold_collector) then collectgarbage("restart") end
  if self.count_garbage then
    self.garbage, self.garbage_frames = self.garbage + (k1 - k0) * 1024, self.garbage_frames + 1
  end
  if self.probe then self:run_probe() end
  self.update_time = self.update_time + os.clock() - c0
  self.time, self.frames = self.time + DT, self.frames + 1
  self:monitor_after()
  self:monitor_headband()
  self:monitor_legs()
  return true
end

function T:finish(status)
  print(("love: %d passed, %d failed"):format(self.passed, self.failed))
  love.event.quit(status)
end

function T:update()
  if self.state == "running" then
    for _ = 1, STEPS_PER_FRAME do
      if not self:step() then
        self.state = "capture"
        break
      end
    end
    if self.frames > 60 * 120 then
      self:check("the test finishes within 120 s of game time", false)
      self.state = "capture"
    end
  elseif self.state == "capture" then
    -- captured at the end of this frame, once drawn
    self.state = "waiting"
    love.graphics.captureScreenshot(function(image)
      image:encode("png", SCREENSHOT)
      local info = love.filesystem.getInfo(SCREENSHOT)
      local path = love.filesystem.getSaveDirectory() .. "/" .. SCREENSHOT
      self:check("screenshot saved: " .. path, info ~= nil and info.size > 0)
      self.state = "done"
    end)
  elseif self.state == "done" then
    self.state = "quit"
    self:finish(self.failed == 0 and 0 or 1)
  end
end

return autotest
