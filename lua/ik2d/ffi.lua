--- LuaJIT fast path: the hot methods call the C core through the FFI
-- (JIT-compiled calls and direct reads) instead of the classic C API,
-- whose calls stop a trace.
--
-- Each method here does only the valid case and hands anything else to
-- the classic method with a tail call: the classic method then runs as
-- if the caller had called it, so errors and their argument numbers are
-- the same on both paths by construction, and no check is written twice.
-- Everything it reads comes through the core's C API (src/ik2d.h) and
-- two functions of the binding (src/lua/luaik_group.c).
local ffi = require "ffi"

local cast, type, getmetatable, setmetatable, rawget, rawset =
  ffi.cast, type, getmetatable, setmetatable, rawget, rawset

local M = {}

if not pcall(ffi.typeof, "ik2d_result") then
  ffi.cdef [[
    typedef struct ik2d_chain ik2d_chain;
    typedef struct ik2d_solver ik2d_solver;
    typedef struct ik2d_result { bool reached; int iterations; double distance; } ik2d_result;
    int ik2d_chain_bone_count(const ik2d_chain *chain);
    const double *ik2d_chain_joints(const ik2d_chain *chain);
    const double *ik2d_chain_angles(const ik2d_chain *chain);
    int ik2d_chain_pose(const ik2d_chain *chain, int i, double *angle);
    void ik2d_chain_base(const ik2d_chain *chain, double *x, double *y, double *angle);
    ik2d_chain *ik2d_solver_chain(const ik2d_solver *solver);
    int ik2d_solver_set_target(ik2d_solver *solver, double x, double y);
    void ik2d_solver_target(const ik2d_solver *solver, double *x, double *y);
    bool ik2d_solver_solve(ik2d_solver *solver);
    const ik2d_result *ik2d_solver_result(const ik2d_solver *solver);
    int ik2d_set_targets(ik2d_solver *const *solvers, int count, const double *xy, int *bad);
    int ik2d_solve_batch(ik2d_solver *const *solvers, int count);
    ik2d_solver *const *luaik_group_members(void *box, int *count, double **targets);
    bool luaik_group_live(void *box);
  ]]
end
if not pcall(ffi.typeof, "ik2d_spring") then
  ffi.cdef [[
    typedef struct ik2d_spring ik2d_spring;
    ik2d_chain *ik2d_spring_chain(const ik2d_spring *spring);
    int ik2d_spring_update(ik2d_spring *spring, double dt);
  ]]
end

local char_ptr = ffi.typeof("char *")
local int_ptr = ffi.typeof("int *")
local chain_ptr = ffi.typeof("ik2d_chain *")
local solver_ptr = ffi.typeof("ik2d_solver *")
local spring_ptr = ffi.typeof("ik2d_spring *")
local doubles = ffi.typeof("double[?]")
local int_out = ffi.typeof("int[1]")
local double_ptr_out = ffi.typeof("double *[1]")

--- Installs the FFI methods into core's method tables; returns a switch
-- function(on) that puts the FFI or the classic methods in place.
-- Returns nil when the library cannot be loaded through the FFI.
function M.install(core)
  local path = package.searchpath("ik2d.core", package.cpath)
  if not path then return nil end
  local ok, C = pcall(ffi.load, path)
  if not ok then return nil end
  local header, methods = core._header, core._methods
  local classic = {}
  for kind, list in pairs(methods) do
    classic[kind] = {}
    for name, f in pairs(list) do classic[kind][name] = f end
  end
  local chain_mt = getmetatable(core.chain { { length = 1 } })
  local solver_mt = getmetatable(core.solver(core.chain { { length = 1 } }))
  local group_mt = getmetatable(core.group {})
  local spring_mt = getmetatable(core.spring(core.chain { { length = 1 } }))

  -- Per object views, made once (no garbage in a frame loop): the box's
  -- "collected" flag and the core object.  The weak keys let objects go.
  local function box_of(object)
    local base = cast(char_ptr, object)
    return cast(int_ptr, base), base + header
  end

  -- views_of(mt, ctype, more) makes view(object): for an object of
  -- metatable mt (else nil), its flag and its core object as ctype, and
  -- what more(view) adds, made on first use.
  local function views_of(mt, ctype, more)
    local views = setmetatable({}, { __mode = "k" })
    return function(object)
      local view = views[object]
      if view or type(object) ~= "userdata" or getmetatable(object) ~= mt then
        return view
      end
      local collected, memory = box_of(object)
      view = { collected = collected, pointer = cast(ctype, memory) }
      more(view)
      views[object] = view
      return view
    end
  end

  -- the "collected" flag of the chain a solver or spring drives
  local function chain_flag(chain)
    return cast(int_ptr, cast(char_ptr, chain) - header)
  end

  local chain_view = views_of(chain_mt, chain_ptr, function(view)
    local pointer = view.pointer
    view.out = doubles(3)
    view.count = C.ik2d_chain_bone_count(pointer)
    view.joints, view.angles = C.ik2d_chain_joints(pointer), C.ik2d_chain_angles(pointer)
  end)
  local solver_view = views_of(solver_mt, solver_ptr, function(view)
    view.chain_collected = chain_flag(C.ik2d_solver_chain(view.pointer))
    view.out = doubles(2)
    view.result = C.ik2d_solver_result(view.pointer)
  end)
  local spring_view = views_of(spring_mt, spring_ptr, function(view)
    view.chain_collected = chain_flag(C.ik2d_spring_chain(view.pointer))
  end)

  -- the object and its chain are alive
  local function live_solver(view)
    return view and view.collected[0] == 0 and view.chain_collected[0] == 0
  end

  local function bone_in(view, i, extra)
    return type(i) == "number" and i >= 1 and i <= view.count + extra and i % 1 == 0
  end

  local fast = { Chain = {}, Solver = {}, Group = {}, Spring = {} }

  -- solvers ---------------------------------------------------------------

  local set_target = classic.Solver.set_target
  function fast.Solver.set_target(solver, x, y)
    local view = solver_view(solver)
    if live_solver(view) and type(x) == "number" and type(y) == "number" and
       C.ik2d_solver_set_target(view.pointer, x, y) == 0 then
      return
    end
    return set_target(solver, x, y)
  end

  local target = classic.Solver.target
  function fast.Solver.target(solver)
    local view = solver_view(solver)
    if not live_solver(view) then return target(solver) end
    local out = view.out
    C.ik2d_solver_target(view.pointer, out, out + 1)
    return out[0], out[1]
  end

  local solve = classic.Solver.solve
  function fast.Solver.solve(solver)
    local view = solver_view(solver)
    if not live_solver(view) then return solve(solver) end
    C.ik2d_solver_solve(view.pointer)
    local result = view.result
    return result.reached, result.distance, result.iterations
  end

  local result_of = classic.Solver.result
  function fast.Solver.result(solver)
    local view = solver_view(solver)
    if not live_solver(view) then return result_of(solver) end
    local result = view.result
    return result.reached, result.distance, result.iterations
  end

  -- springs ---------------------------------------------------------------

  -- the arguments passed on as given: update() says "got no value"
  local spring_update = classic.Spring.update
  function fast.Spring.update(spring, ...)
    local view, dt = spring_view(spring), ...
    if live_solver(view) and type(dt) == "number" and C.ik2d_spring_update(view.pointer, dt) == 0 then
      return
    end
    return spring_update(spring, ...)
  end

  -- chains ----------------------------------------------------------------

  local joint = classic.Chain.joint
  function fast.Chain.joint(chain, i)
    local view = chain_view(chain)
    if view and view.collected[0] == 0 and bone_in(view, i, 1) then
      return view.joints[2 * i - 2], view.joints[2 * i - 1]
    end
    return joint(chain, i)
  end

  local tip = classic.Chain.tip
  function fast.Chain.tip(chain)
    local view = chain_view(chain)
    if not (view and view.collected[0] == 0) then return tip(chain) end
    local n = view.count
    return view.joints[2 * n], view.joints[2 * n + 1]
  end

  local angle = classic.Chain.angle
  function fast.Chain.angle(chain, i)
    local view = chain_view(chain)
    if view and view.collected[0] == 0 and bone_in(view, i, 0) then
      return view.angles[i - 1]
    end
    return angle(chain, i)
  end

  local pose = classic.Chain.pose
  function fast.Chain.pose(chain, i)
    local view = chain_view(chain)
    if view and view.collected[0] == 0 and bone_in(view, i, 0) and
       C.ik2d_chain_pose(view.pointer, i - 1, view.out) == 0 then
      return view.out[0]
    end
    return pose(chain, i)
  end

  local base = classic.Chain.base
  function fast.Chain.base(chain)
    local view = chain_view(chain)
    if not (view and view.collected[0] == 0) then return base(chain) end
    local out = view.out
    C.ik2d_chain_base(view.pointer, out, out + 1, out + 2)
    return out[0], out[1], out[2]
  end

  -- values written raw from first, then the rest of t cleared up to its
  -- first nil, as the binding's luaik_fill and luaik_trim do
  local function fill(t, first, values, count)
    for k = 0, count - 1 do rawset(t, first + k, values[k]) end
    return first + count
  end

  local function trim(t, first)
    while rawget(t, first) ~= nil do
      rawset(t, first, nil)
      first = first + 1
    end
  end

  local joints = classic.Chain.joints
  function fast.Chain.joints(chain, t)
    local view = chain_view(chain)
    if not (view and view.collected[0] == 0) or (t ~= nil and type(t) ~= "table") then
      return joints(chain, t)
    end
    t = t or {}
    trim(t, fill(t, 1, view.joints, 2 * (view.count + 1)))
    return t
  end

  -- groups ----------------------------------------------------------------

  local group_views = setmetatable({}, { __mode = "k" })
  local function group_view(group)
    local view = group_views[group]
    if view or type(group) ~= "userdata" or getmetatable(group) ~= group_mt then
      return view
    end
    local box = cast(char_ptr, group)
    local count, targets = int_out(), double_ptr_out()
    local solvers = C.luaik_group_members(box, count, targets)
    -- each member's joints, read once: the group keeps its members
    local members, sizes = {}, {}
    for i = 1, count[0] do
      local chain = C.ik2d_solver_chain(solvers[i - 1])
      members[i] = C.ik2d_chain_joints(chain)
      sizes[i] = 2 * (C.ik2d_chain_bone_count(chain) + 1)
    end
    view = { box = box, solvers = solvers, count = count[0], targets = targets[0],
             members = members, sizes = sizes }
    group_views[group] = view
    return view
  end

  local group_solve = classic.Group.solve
  function fast.Group.solve(group)
    local view = group_view(group)
    if not (view and C.luaik_group_live(view.box)) then return group_solve(group) end
    return C.ik2d_solve_batch(view.solvers, view.count)
  end

  local set_targets = classic.Group.set_targets
  function fast.Group.set_targets(group, t)
    local view = group_view(group)
    if view and type(t) == "table" and #t == 2 * view.count and C.luaik_group_live(view.box) then
      local targets = view.targets
      local i, n = 1, 2 * view.count
      while i <= n do
        local v = rawget(t, i)
        if type(v) ~= "number" then break end
        targets[i - 1] = v
        i = i + 1
      end
      if i > n and C.ik2d_set_targets(view.solvers, view.count, targets, nil) == 0 then
        return
      end
    end
    return set_targets(group, t)
  end

  local group_joints = classic.Group.joints
  function fast.Group.joints(group, t)
    local view = group_view(group)
    if not (view and C.luaik_group_live(view.box)) or (t ~= nil and type(t) ~= "table") then
      return group_joints(group, t)
    end
    t = t or {}
    local next, members, sizes = 1, view.members, view.sizes
    for i = 1, view.count do next = fill(t, next, members[i], sizes[i]) end
    trim(t, next)
    return t
  end

  return function(on)
    local source = on and fast or classic
    for kind, functions in pairs(fast) do
      for name in pairs(functions) do methods[kind][name] = source[kind][name] end
    end
  end
end

return M
