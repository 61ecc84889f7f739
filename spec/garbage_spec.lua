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
