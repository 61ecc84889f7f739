--- LuaJIT fast path: the hot methods call the C core through the FFI
-- (JIT-compiled calls and direct reads) instead of the classic C API,
-- whose calls stop a trace.  Same results and the same errors as the
-- classic methods, which it can put back at any time.
-- The struct layout comes from ik2d.core itself (core._layout), so this
-- file declares no struct and cannot drift from ik2d.h.
local ffi = require "ffi"

local cast, floor, type, tonumber, error, getmetatable, setmetatable, format =
  ffi.cast, math.floor, type, tonumber, error, getmetatable, setmetatable, string.format
local huge, getinfo = math.huge, debug.getinfo

local M = {}

if not pcall(ffi.typeof, "struct ik2d_solver") then
  ffi.cdef [[
    struct ik2d_chain;
    struct ik2d_solver;
    int ik2d_solver_solve(struct ik2d_solver *solver);
    int ik2d_solve_batch(struct ik2d_solver *const *solvers, int count);
  ]]
end

local char_ptr = ffi.typeof("char *")
local double_ptr = ffi.typeof("double *")
local int_ptr = ffi.typeof("int *")
local void_ptr_ptr = ffi.typeof("void **")
local solver_ptr = ffi.typeof("struct ik2d_solver *")
local solver_ptr_ptr = ffi.typeof("struct ik2d_solver **")

-- Errors worded and numbered as the binding does it: a colon call does
-- not count self.  depth counts the calls between the public method and
-- arg_error, so that the position is the method's caller.
local function arg_error(n, name, message, depth)
  local level = 3 + (depth or 0)
  local info = getinfo(level - 1, "n")
  if info and info.namewhat == "method" then n = n - 1 end
  if n == 0 then
    -- self of a colon call, worded as luaL_argerror (and the binding) do
    error(format("calling '%s' on bad self (%s)", name, message), level)
  end
  error(format("bad argument #%d to '%s' (%s)", n, name, message), level)
end

-- arg_error for a number; item, when given, names the table item the
-- number was read from (worded only on error: no garbage)
local function number_error(n, name, message, depth, item)
  if item then message = format("item %d: %s", item, message) end
  arg_error(n, name, message, depth + 1)
end

-- A finite number from value, or the binding's error for argument n.
local function check_number(value, n, name, depth, item)
  depth = (depth or 0) + 1
  if type(value) ~= "number" then
    local converted = type(value) == "string" and tonumber(value)
    if not converted then
      number_error(n, name, "number expected, got " .. type(value), depth, item)
    end
    value = converted
  end
  if value ~= value then number_error(n, name, "number must be finite, got nan", depth, item) end
  if value == huge or value == -huge then
    number_error(n, name, "number must be finite, got inf", depth, item)
  end
  return value
end

--- Installs the FFI methods into core's method tables; returns a switch
-- function(on) that puts the FFI or the classic methods in place.
-- Returns nil when the library cannot be loaded through the FFI.
function M.install(core)
  local path = package.searchpath("ik2d.core", package.cpath)
  if not path then return nil end
  local ok, C = pcall(ffi.load, path)
  if not ok then return nil end
  local layout = core._layout
  local methods = core._methods
  local chain_mt = getmetatable(core.chain { { length = 1 } })
  local solver_mt = getmetatable(core.solver(core.chain { { length = 1 } }))

  -- per object views, made once: no garbage in a frame loop
  local chain_views = setmetatable({}, { __mode = "k" })
  local solver_views = setmetatable({}, { __mode = "k" })
  local group_views = setmetatable({}, { __mode = "k" })

  -- pointers into the ik2d_chain at base (a char pointer)
  local function chain_fields(base)
    return {
      count = cast(int_ptr, base + layout["chain.count"]),
      base = cast(double_ptr, base + layout["chain.base_x"]),
      pose = cast(double_ptr, base + layout["chain.pose"]),
      angle = cast(double_ptr, base + layout["chain.angle"]),
      joint_x = cast(double_ptr, base + layout["chain.joint_x"]),
      joint_y = cast(double_ptr, base + layout["chain.joint_y"]),
    }
  end

  local function chain_view(chain, name)
    local view = chain_views[chain]
    if not view then
      if getmetatable(chain) ~= chain_mt then
        arg_error(1, name, "ik2d.Chain expected, got " .. type(chain), 1)
      end
      view = chain_fields(cast(char_ptr, chain))
      chain_views[chain] = view
    end
    if view.count[0] < 1 then arg_error(1, name, "chain was collected", 1) end
    return view
  end

  local function solver_view(solver, name)
    local view = solver_views[solver]
    if not view then
      if getmetatable(solver) ~= solver_mt then
        arg_error(1, name, "ik2d.Solver expected, got " .. type(solver), 1)
      end
      local base = cast(char_ptr, solver)
      view = {
        pointer = cast(solver_ptr, solver),
        chain = cast(void_ptr_ptr, base + layout["solver.chain"]),
        chain_count = nil,
        target = cast(double_ptr, base + layout["solver.target_x"]),
        weight = cast(double_ptr, base + layout["solver.weight"]),
        reached = cast(int_ptr, base + layout["solver.reached"]),
        distance = cast(double_ptr, base + layout["solver.distance"]),
        used = cast(int_ptr, base + layout["solver.used_iterations"]),
      }
      view.chain_count = cast(int_ptr, cast(char_ptr, view.chain[0]) + layout["chain.count"])
      solver_views[solver] = view
    end
    if view.chain[0] == nil or view.chain_count[0] < 1 then
      arg_error(1, name, "solver was collected", 1)
    end
    return view
  end

  local function check_bone(view, value, n, name, extra)
    -- as the binding's check_whole: nan, +-inf and beyond 2^31 are "not a
    -- whole number" there, not "must be finite" (same errors on both paths)
    if type(value) ~= "number" then value = check_number(value, n, name, 1) end
    if value ~= floor(value) or value < -2147483647 or value > 2147483647 then
      arg_error(n, name, "bone index must be a whole number", 1)
    end
    local last = view.count[0] + extra
    if value < 1 or value > last then
      arg_error(n, name, format("bone index out of range (1..%d)", last), 1)
    end
    return value - 1
  end

  local fast = { Chain = {}, Solver = {}, Group = {} }

  function fast.Solver.set_target(solver, x, y)
    local view = solver_view(solver, "set_target")
    x = check_number(x, 2, "set_target")
    y = check_number(y, 3, "set_target")
    view.target[0], view.target[1] = x, y
  end

  function fast.Solver.target(solver)
    local view = solver_view(solver, "target")
    return view.target[0], view.target[1]
  end

  function fast.Solver.weight(solver)
    return solver_view(solver, "weight").weight[0]
  end

  function fast.Solver.solve(solver)
    local view = solver_view(solver, "solve")
    C.ik2d_solver_solve(view.pointer)
    return view.reached[0] ~= 0, view.distance[0], view.used[0]
  end

  function fast.Solver.result(solver)
    local view = solver_view(solver, "result")
    return view.reached[0] ~= 0, view.distance[0], view.used[0]
  end

  function fast.Chain.joint(chain, i)
    local view = chain_view(chain, "joint")
    i = check_bone(view, i, 2, "joint", 1)
    return view.joint_x[i], view.joint_y[i]
  end

  function fast.Chain.tip(chain)
    local view = chain_view(chain, "tip")
    local n = view.count[0]
    return view.joint_x[n], view.joint_y[n]
  end

  function fast.Chain.angle(chain, i)
    local view = chain_view(chain, "angle")
    return view.angle[check_bone(view, i, 2, "angle", 0)]
  end

  function fast.Chain.pose(chain, i)
    local view = chain_view(chain, "pose")
    return view.pose[check_bone(view, i, 2, "pose", 0)]
  end

  function fast.Chain.base(chain)
    local view = chain_view(chain, "base")
    return view.base[0], view.base[1], view.base[2]
  end

  local function fill_joints(view, t, next)
    local joint_x, joint_y = view.joint_x, view.joint_y
    for i = 0, view.count[0] do
      t[next], t[next + 1] = joint_x[i], joint_y[i]
      next = next + 2
    end
    return next
  end

  -- the table to fill: t, or a new one when t is nil
  local function table_to_fill(t)
    if t == nil then return {} end
    if type(t) ~= "table" then arg_error(2, "joints", "table expected, got " .. type(t), 1) end
    return t
  end

  function fast.Chain.joints(chain, t)
    local view = chain_view(chain, "joints")
    t = table_to_fill(t)
    fill_joints(view, t, 1)
    return t
  end

  local group_mt = getmetatable(core.group {})
  local function group_view(group, name)
    local view = group_views[group]
    if not view then
      if getmetatable(group) ~= group_mt then
        arg_error(1, name, "ik2d.Group expected, got " .. type(group), 1)
      end
      local base = cast(char_ptr, group)
      local count = cast(int_ptr, base + layout["group.count"])
      local solvers = cast(solver_ptr_ptr, cast(void_ptr_ptr, base + layout["group.solvers"])[0])
      -- per member, made once (the group keeps its solvers and their
      -- chains alive): its solver's chain pointer (NULL once the solver
      -- is finalised) and the fields of that chain
      view = { count = count, solvers = solvers, member_chains = {}, member_views = {},
               member_targets = {} }
      for i = 1, count[0] do
        local solver_base = cast(char_ptr, solvers[i - 1])
        local chain_ref = cast(void_ptr_ptr, solver_base + layout["solver.chain"])
        view.member_chains[i] = chain_ref
        view.member_views[i] = chain_ref[0] ~= nil and chain_fields(cast(char_ptr, chain_ref[0]))
        view.member_targets[i] = cast(double_ptr, solver_base + layout["solver.target_x"])
      end
      group_views[group] = view
    end
    -- count -1: the group was finalised (as in the binding's check_group)
    if view.count[0] < 0 then arg_error(1, name, "group was collected", 1) end
    return view
  end

  function fast.Group.solve(group)
    local view = group_view(group, "solve")
    return C.ik2d_solve_batch(view.solvers, view.count[0])
  end

  function fast.Group.set_targets(group, t)
    local view = group_view(group, "set_targets")
    if type(t) ~= "table" then
      arg_error(2, "set_targets", "table expected, got " .. type(t))
    end
    local count, targets = view.count[0], view.member_targets
    -- every item checked before any target is written, as the binding does
    for i = 1, 2 * count do check_number(rawget(t, i), 2, "set_targets", 0, i) end
    for k = 1, count do
      local target = targets[k]
      target[0], target[1] = tonumber(rawget(t, 2 * k - 1)), tonumber(rawget(t, 2 * k))
    end
  end

  function fast.Group.joints(group, t)
    local view = group_view(group, "joints")
    t = table_to_fill(t)
    local next, member_views, member_chains = 1, view.member_views, view.member_chains
    for i = 1, view.count[0] do
      local member = member_views[i]
      -- as the binding: a member finalised before the group raises
      if not member or member_chains[i][0] == nil or member.count[0] < 1 then
        arg_error(1, "joints", format("solver %d was collected", i))
      end
      next = fill_joints(member, t, next)
    end
    return t
  end

  -- the classic methods, to put back
  local classic = {}
  for kind, functions in pairs(fast) do
    classic[kind] = {}
    for name in pairs(functions) do classic[kind][name] = methods[kind][name] end
  end

  return function(on)
    local source = on and fast or classic
    for kind, functions in pairs(source) do
      for name, f in pairs(functions) do methods[kind][name] = f end
    end
  end
end

return M
