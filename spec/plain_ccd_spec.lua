-- The plain-Lua CCD peer of the benchmark (bench/plain_ccd.lua) is an
-- honest peer: on the same chains and targets it gives what ik2d's CCD
-- gives with sweep = "tip" and exact = false, the algorithm the peer
-- implements (the same reached flags, joints, angles and iteration
-- counts), keeps the limits, straightens toward targets out of reach in
-- one step, and allocates nothing per solve.
--
-- The peer repeats ik2d's arithmetic operation for operation, so where
-- doubles behave the same (x86-64: no fused multiply-add in either the C
-- build or LuaJIT) the two agree to the bit and every solve takes the same
-- number of iterations, even over long warm-started sequences; the checks
-- below allow 1e-9 on positions and angles and require equal counts.
-- Only the reported distance may differ in its last bit: ik2d takes it
-- with hypot, the peer with sqrt(dx * dx + dy * dy).
local ik2d = require "ik2d"
local helpers = require "spec.helpers"

local here = debug.getinfo(1, "S").source:match("^@(.-)[^/\\]*$") or ""
local plain = dofile(here .. "../bench/plain_ccd.lua")

local pi, sqrt, cos, sin, abs = math.pi, math.sqrt, math.cos, math.sin, math.abs

local function bones(n, length, extra)
  local spec = {}
  for k = 1, n do
    spec[k] = { length = length }
    for key, value in pairs(extra or {}) do spec[k][key] = value end
  end
  return spec
end

local function with(spec, fields)
  for key, value in pairs(fields) do spec[key] = value end
  return spec
end

-- chains and solver options, as given to both ik2d and the peer
local cases = {
  { name = "3 equal bones (the bench scene)",
    spec = bones(3, 1), options = { iterations = 10, tolerance = 0.003 } },
  { name = "10 equal bones (the bench scene)",
    spec = bones(10, 1), options = { iterations = 10, tolerance = 0.01 } },
  { name = "1 bone", spec = bones(1, 2), options = {} },
  { name = "an arm with limits, a moved and turned base, rest angles",
    spec = { x = 3, y = -2, angle = 0.7,
      { length = 60 }, { length = 50, angle = 0.3, min = -0.17, max = 2.27 },
      { length = 20, min = -1, max = 1 } },
    options = { iterations = 12, tolerance = 0.05 } },
  { name = "a flipped chain, limits across +-pi, an inverted limit, damping",
    spec = { x = 1, y = 2, flip = true,
      { length = 1 }, { length = 1, min = 3, max = 3.5 },
      { length = 1, min = -1, max = 1, invert = true }, { length = 0.5 } },
    options = { iterations = 10, tolerance = 0.01, damping = 0.3 } },
  { name = "a pinned joint and an inverted range wider than 2 pi",
    spec = { { length = 2 }, { length = 1, min = 0.4, max = 0.4 },
      { length = 1, min = -4, max = 4, invert = true }, { length = 1 } },
    options = { tolerance = 0.01 } },
  { name = "weight 0.6 without warm start",
    spec = { { length = 1 }, { length = 2, min = -1, max = 1 }, { length = 1 } },
    options = { weight = 0.6, warm_start = false, tolerance = 0.01 } },
  { name = "weight 0",
    spec = bones(3, 1), options = { weight = 0 } },
  { name = "8 bones with limits everywhere",
    spec = with(bones(8, 1, { min = -0.6, max = 0.6 }), { angle = -0.4 }),
    options = { iterations = 20, tolerance = 0.001 } },
}

-- A target sequence: a moving target (warm start), random targets in and
-- out of reach, and now and then a new pose for bone 1.
local function sequence(case, count, seed)
  local r = helpers.random(seed)
  local reach = 0
  for k = 1, #case.spec do reach = reach + case.spec[k].length end
  local bx, by = case.spec.x or 0, case.spec.y or 0
  local steps = {}
  for k = 1, count do
    local x, y
    if k <= count / 2 then
      local t = 0.02 * k
      local radius = reach * (0.6 + 0.2 * sin(3.1 * t))
      x, y = bx + radius * cos(t), by + radius * sin(t)
    else
      local radius, a = 1.25 * reach * sqrt(r.next()), 2 * pi * r.next()
      x, y = bx + radius * cos(a), by + radius * sin(a)
    end
    steps[k] = { x = x, y = y, pose = k % 97 == 0 and r.range(-1, 1) or nil }
  end
  return steps
end

-- The peer is ik2d's CCD with the textbook sweep (tip to root) and no
-- exact two-joint step: ik2d's solver is set so.
local function new_pair(case)
  local options = { sweep = "tip", exact = false }
  for key, value in pairs(case.options) do options[key] = value end
  local chain = ik2d.chain(case.spec)
  local solver = ik2d.solver(chain, options)
  return chain, solver, plain.new(case.spec, options)
end

-- warm-started solves in a row per case (IK2D_LONG=1: the long sequences)
local SOLVES = helpers.size(500, 1500)

describe("the plain-Lua CCD peer", function()
  for _, case in ipairs(cases) do
    it("matches ik2d solve for solve: " .. case.name, function()
      local chain, solver, peer = new_pair(case)
      local n = #case.spec
      local joints = {}
      local differing_iterations, worst, solves = 0, 0, 0
      for k, step in ipairs(sequence(case, SOLVES, 7 + n)) do
        if step.pose then
          chain:set_pose(1, step.pose)
          plain.set_pose(peer, 1, step.pose)
        end
        solver:set_target(step.x, step.y)
        local reached, distance, iterations = solver:solve()
        local peer_reached, peer_distance, peer_iterations = plain.solve(peer, step.x, step.y)
        solves = solves + 1
        assert.are.equal(reached, peer_reached, "reached differs at solve " .. k)
        assert.is_true(abs(distance - peer_distance) <= 1e-9 * (1 + distance),
          "distance differs at solve " .. k)
        if iterations ~= peer_iterations then differing_iterations = differing_iterations + 1 end
        chain:joints(joints)
        for j = 1, n + 1 do
          worst = math.max(worst, abs(joints[2 * j - 1] - peer.jx[j]), abs(joints[2 * j] - peer.jy[j]))
        end
        for i = 1, n do worst = math.max(worst, abs(chain:angle(i) - peer.angle[i])) end
      end
      assert.are.equal(SOLVES, solves)
      assert.is_true(worst <= 1e-9, "joints or angles differ by " .. worst)
      assert.are.equal(0, differing_iterations, "solves with other iteration counts")
    end)
  end

  it("reaches the targets ik2d reaches, as often", function()
    local case = cases[1]
    local _, solver, peer = new_pair(case)
    local ik2d_reached, peer_reached = 0, 0
    local steps = helpers.size(600, 2000)
    for _, step in ipairs(sequence(case, steps, 99)) do
      solver:set_target(step.x, step.y)
      if solver:solve() then ik2d_reached = ik2d_reached + 1 end
      if plain.solve(peer, step.x, step.y) then peer_reached = peer_reached + 1 end
    end
    assert.is_true(ik2d_reached > steps / 2)
    assert.are.equal(ik2d_reached, peer_reached)
  end)

  it("keeps every limited bone inside its limits", function()
    for _, case in ipairs(cases) do
      local _, _, peer = new_pair(case)
      for _, step in ipairs(sequence(case, helpers.size(300, 1000), 5)) do
        plain.solve(peer, step.x, step.y)
        for i, bone in ipairs(case.spec) do
          if bone.min then
            local delta = peer.angle[i] - (bone.angle or 0)
            local off = helpers.limit_violation(delta, bone.min, bone.max, bone.invert)
            -- the pinned inverted range: no arc at all, the bone sits at its middle
            if bone.invert and bone.max - bone.min >= 2 * pi then
              off = abs(helpers.wrap(delta - (bone.min + bone.max) / 2 - pi))
            end
            assert.is_true(off <= 1e-9, case.name .. ": bone " .. i .. " off its limits by " .. off)
          end
        end
      end
    end
  end)

  it("straightens toward a target out of reach in one iteration", function()
    local peer = plain.new(bones(4, 1.5), { tolerance = 0.01 })
    local reached, distance, iterations = plain.solve(peer, 3, 9)
    assert.is_false(reached)
    assert.are.equal(1, iterations)
    assert.is_true(abs(distance - (sqrt(90) - 6)) < 1e-9)
    for j = 2, 5 do
      -- every joint on the line from the base to the target
      local cross = 3 * peer.jy[j] - 9 * peer.jx[j]
      assert.is_true(abs(cross) < 1e-9)
    end
  end)

  it("refuses the CCD settings it does not implement", function()
    assert.has_error(function() plain.new(bones(3, 1), { sweep = "root" }) end)
    assert.has_error(function() plain.new(bones(3, 1), { exact = true }) end)
    assert.has_error(function() plain.new(bones(3, 1), { method = "fabrik" }) end)
  end)

  it("allocates nothing per solve", function()
    local _, _, peer = new_pair(cases[5])
    local steps = sequence(cases[5], helpers.size(1000, 3000), 3)
    local function run()
      for _, step in ipairs(steps) do plain.solve(peer, step.x, step.y) end
    end
    -- what the peer's own code allocates (helpers.steady_growth measures it
    -- interpreted under LuaJIT: this case's many rare branches keep the JIT
    -- compiling trace objects of its own)
    local grown = helpers.steady_growth(run)
    assert.are.equal(0, grown)
  end)
end)
