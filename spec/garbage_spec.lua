-- Zero garbage: a frame loop of set_target (or a group's set_targets from a
-- reused table) + solve + reading the pose the documented way
-- (chain:joints(t) with a reused table, or joint(i)) allocates nothing in
-- steady state; aimed solvers neither.
local ik2d = require "ik2d"
local helpers = require "spec.helpers"

-- aimed: each solver aims a ray (CCD and FABRIK in turn)
local function frame_loop(frames, use_group, aimed)
  local solvers, chains = {}, {}
  for k = 1, 4 do
    chains[k] = ik2d.chain{ x = k, y = 0,
      { length = 3 }, { length = 2, min = -0.5, max = 2 }, { length = 1 } }
    local options = aimed and { method = k % 2 == 0 and "fabrik" or "ccd",
                                aim = { x = 1, y = 0.5, angle = 0.3 } } or nil
    solvers[k] = ik2d.solver(chains[k], options)
  end
  local g = ik2d.group(solvers)
  local t, targets = {}, {}
  local frame = 0
  -- one call per frame, as love.update would make it
  local function update()
    frame = frame + 1
    for k = 1, 4 do
      local x, y = k + 2 * math.cos(0.01 * frame + k), 2 * math.sin(0.013 * frame)
      if use_group then
        targets[2 * k - 1], targets[2 * k] = x, y
      else
        solvers[k]:set_target(x, y)
      end
    end
    if use_group then
      g:set_targets(targets)
      g:solve()
      g:joints(t)
    else
      for k = 1, 4 do
        solvers[k]:solve()
        chains[k]:joints(t)
        local x, y = chains[k]:joint(2)
        t[1] = x + y
      end
    end
  end
  return function()
    for _ = 1, frames do update() end
  end
end

local growth = helpers.steady_growth
-- frames per measured run (make test; IK2D_LONG=1: 10,000)
local FRAMES = helpers.size(2000, 10000)

describe("a steady frame loop", function()
  for _, use_group in ipairs{ false, true } do
    local how = use_group and "with a group" or "one solver at a time"
    it(("leaves collectgarbage('count') unchanged over %d frames, %s"):format(FRAMES, how), function()
      assert.are.equal(0, growth(frame_loop(FRAMES, use_group)))
    end)
  end

  it("leaves collectgarbage('count') unchanged over 10,000 frames of aimed solvers", function()
    assert.are.equal(0, growth(frame_loop(10000, false, true)))
  end)

  for _, use_group in ipairs{ false, true } do
    local how = use_group and "with a group" or "one solver at a time"
    it("allocates nothing at all on the classic path, " .. how, function()
      local was = ik2d.ffi
      ik2d.use_ffi(false)
      local bytes = growth(frame_loop(FRAMES, use_group))
      ik2d.use_ffi(was)
      assert.are.equal(0, bytes)
    end)
  end
end)

-- A group of 3 skeletons (a torso, an arm and a leg with a tip angle and a
-- pole each), every input and every transform through reused tables.
local function skeleton_frames(frames)
  local skeletons, characters = {}, {}
  for i = 1, 3 do
    characters[i] = helpers.character(ik2d, 100 * i)
    skeletons[i] = characters[i].sk
  end
  local g = ik2d.group(skeletons)
  local bases, targets, tips, poles, out = {}, {}, {}, {}, {}
  local frame = 0
  local function update()
    frame = frame + 1
    for i = 1, 3 do
      local x, ph = 100 * i, 0.01 * frame + i
      bases[3 * i - 2], bases[3 * i - 1], bases[3 * i] = x + math.sin(ph), 300, 0
      targets[4 * i - 3], targets[4 * i - 2] = x + 25 + 20 * math.cos(ph), 250
      targets[4 * i - 1], targets[4 * i] = x + 10 + 12 * math.sin(ph), 352
      tips[2 * i - 1], tips[2 * i] = 0, 0.2 * math.sin(ph)
      poles[4 * i - 3], poles[4 * i - 2], poles[4 * i - 1], poles[4 * i] = 0, 0, x + 40, 330
    end
    g:set_bases(bases)
    g:set_targets(targets)
    g:set_tip_angles(tips)
    g:set_poles(poles)
    g:solve()
    g:transforms(out)
  end
  return function()
    for _ = 1, frames do update() end
  end
end

describe("a steady frame loop of a group of skeletons", function()
  it(("leaves collectgarbage('count') unchanged over %d frames, inputs and transforms in tables")
     :format(FRAMES), function()
    assert.are.equal(0, growth(skeleton_frames(FRAMES)))
  end)
end)
