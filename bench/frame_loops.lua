--- bench/frame_loops.lua: the frame loops of ik2d in bench/frame_bench.lua,
-- shared with bench/frame_rows.lua (which counts their instructions).
-- A scene: count chains of bones bones (spec), targets { tx, ty, a, b, m }
-- (chain i's target at frame f is entry (f a + i b) % m + 1); a state from
-- build: the chains, their solvers, their group and, with arrays, the
-- group's target and joint arrays.  Each loop runs frames first..last and
-- returns the iterations used where it counts them.
local M = {}

-- lib: the core (ik2d, the C core, or pure, the pure-Lua core)
function M.build(scene, options, lib)
  local chains, solvers = {}, {}
  for i = 1, scene.count do
    chains[i] = lib.chain(scene.spec)
    solvers[i] = lib.solver(chains[i], options)
  end
  local group = lib.group(solvers)
  local state = { chains = chains, solvers = solvers, group = group, sink = 0,
                  all = {}, -- every chain's joints, reused
                  flat = {} } -- every chain's target, reused
  if scene.arrays then
    state.targets, state.joints = group:target_array(), group:joint_array()
  end
  return state
end

-- (b) one chain at a time: set_target, solve, chain:joint(k) for each joint
function M.chain_frames(scene, state, first, last)
  local chains, solvers, count, joints = state.chains, state.solvers, scene.count, scene.bones + 1
  local targets = scene.targets
  local tx, ty, a, b, m = targets.tx, targets.ty, targets.a, targets.b, targets.m
  local used, sink = 0, state.sink
  for f = first, last do
    local fa = f * a
    for i = 1, count do
      local j = (fa + i * b) % m + 1
      local solver = solvers[i]
      solver:set_target(tx[j], ty[j])
      local _, _, iterations = solver:solve()
      used = used + iterations
      local chain = chains[i]
      for k = 1, joints do
        local x, y = chain:joint(k)
        sink = sink + x + y
      end
    end
  end
  state.sink = sink
  return used
end

-- (c) ik2d.group through tables: every target into one reused flat
-- table, group:set_targets(t), group:solve(), group:joints(t)
function M.tables_frames(scene, state, first, last)
  local group, all, flat, count = state.group, state.all, state.flat, scene.count
  local targets = scene.targets
  local tx, ty, a, b, m = targets.tx, targets.ty, targets.a, targets.b, targets.m
  local n, sink = 2 * (scene.bones + 1) * count, state.sink
  for f = first, last do
    local fa = f * a
    for i = 1, count do
      local j = (fa + i * b) % m + 1
      flat[2 * i - 1], flat[2 * i] = tx[j], ty[j]
    end
    group:set_targets(flat)
    group:solve()
    group:joints(all)
    for k = 1, n do sink = sink + all[k] end
  end
  state.sink = sink
  return nil
end

-- (d) ik2d.group through its arrays (LuaJIT's FFI): the targets written
-- into group:target_array(), group:solve(), the joints read from
-- group:joint_array()
function M.arrays_frames(scene, state, first, last)
  local group, targets_out, joints, count = state.group, state.targets, state.joints, scene.count
  local targets = scene.targets
  local tx, ty, a, b, m = targets.tx, targets.ty, targets.a, targets.b, targets.m
  local n, sink = 2 * (scene.bones + 1) * count, state.sink
  for f = first, last do
    local fa = f * a
    for i = 1, count do
      local j = (fa + i * b) % m + 1
      targets_out[2 * i - 2], targets_out[2 * i - 1] = tx[j], ty[j]
    end
    group:solve()
    for k = 0, n - 1 do sink = sink + joints[k] end
  end
  state.sink = sink
  return nil
end

return M
