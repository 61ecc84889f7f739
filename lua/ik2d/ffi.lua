--- LuaJIT fast path: the hot methods call the C core through the FFI
-- (JIT-compiled calls and direct reads) instead of the classic C API,
-- whose calls stop a trace.
--
-- Each method here does only the valid case and hands anything else to
-- the classic method with a tail call: the classic method then runs as
-- if the caller had called it, so errors and their argument numbers are
-- the same on both paths by construction, and no check is written twice.
-- Each takes its arguments as `...` and hands on `...`, not its named
-- parameters: a missing argument stays missing ("got no value", as the
-- classic method says), where a parameter would turn it into nil.
-- Everything it reads comes through the core's C API (src/ik2d.h) and
-- a few functions of the binding (src/lua/luaik_ffi.c, luaik_group.c).
local ffi = require "ffi"

local cast, type, setmetatable, rawget, rawset = ffi.cast, type, setmetatable, rawget, rawset
-- an object's real metatable: getmetatable gives only the type's name
-- (__metatable), which the pure core's objects of that type share
local getmetatable = debug.getmetatable

local M = {}

-- the core's and the binding's functions this path calls; a second load
-- of this module (package.loaded cleared) finds them declared
if not pcall(ffi.typeof, "ik2d_status") then
  -- generated from lua/ik2d/api.lua by make gen: cdef
  ffi.cdef [[
    typedef struct ik2d_chain ik2d_chain;
    typedef struct ik2d_solver ik2d_solver;
    typedef struct ik2d_spring ik2d_spring;
    typedef struct ik2d_skeleton ik2d_skeleton;
    typedef struct ik2d_slots ik2d_slots;
    typedef int ik2d_status;
    int ik2d_chain_bone_count(const ik2d_chain *chain);
    const double *ik2d_chain_joints(const ik2d_chain *chain);
    ik2d_status ik2d_chain_pose(const ik2d_chain *chain, int i, double *angle);
    ik2d_status ik2d_chain_angle(const ik2d_chain *chain, int i, double *angle);
    void ik2d_chain_base(const ik2d_chain *chain, double *x, double *y, double *angle);
    ik2d_chain *ik2d_solver_chain(const ik2d_solver *solver);
    ik2d_status ik2d_solver_set_target(ik2d_solver *solver, double x, double y);
    void ik2d_solver_target(const ik2d_solver *solver, double *x, double *y);
    bool ik2d_solver_solve(ik2d_solver *solver);
    ik2d_status ik2d_solver_set_tip_angle(ik2d_solver *solver, double angle, double weight);
    ik2d_status ik2d_solver_set_pole(ik2d_solver *solver, double x, double y);
    int ik2d_solver_target_bone(const ik2d_solver *solver, ik2d_skeleton **skeleton, double *dx, double *dy);
    ik2d_status ik2d_spring_update(ik2d_spring *spring, double dt);
    int ik2d_skeleton_bone_count(const ik2d_skeleton *skeleton);
    const double *ik2d_skeleton_transforms(const ik2d_skeleton *skeleton);
    int ik2d_skeleton_solve(ik2d_skeleton *skeleton);
    void ik2d_skeleton_base(const ik2d_skeleton *skeleton, double *x, double *y, double *angle);
    ik2d_status ik2d_skeleton_set_base(ik2d_skeleton *skeleton, double x, double y, double angle);
    ik2d_status ik2d_skeleton_matrix(const ik2d_skeleton *skeleton, int i, double *m);
    const double *ik2d_skeleton_matrices(ik2d_skeleton *skeleton);
    int ik2d_slots_count(const ik2d_slots *slots);
    int ik2d_slots_attachment(const ik2d_slots *slots, int i);
    ik2d_status ik2d_slots_tint(const ik2d_slots *slots, int i, double *rgba);
    int ik2d_slots_vertices(const ik2d_slots *slots, ik2d_skeleton *skeleton, int i, double *out, int max);
    int ik2d_slots_all_vertices(const ik2d_slots *slots, ik2d_skeleton *skeleton, double *out, int max, int *drawn);
    ik2d_solver *const *luaik_group_members(void *box, int *count, double **scratch);
    bool luaik_group_live(void *box);
    int luaik_group_set_targets(void *box);
    int luaik_group_solve(void *box);
    double *luaik_group_target_array(void *box);
    const double *luaik_group_joint_array(void *box);
    double *luaik_group_tip_angle_array(void *box);
    double *luaik_group_pole_array(void *box);
    double *luaik_group_base_array(void *box);
    const double *luaik_group_transform_array(void *box);
    const double *luaik_group_matrix_array(void *box);
    void luaik_group_matrices(void *box);
    bool luaik_chain_live(const ik2d_chain *chain);
    bool luaik_solver_live(const ik2d_solver *solver);
    bool luaik_spring_live(const ik2d_spring *spring);
    bool luaik_skeleton_live(const ik2d_skeleton *skeleton);
    void luaik_result(const ik2d_solver *solver, double *out);
    double luaik_read(const double *from, int i);
    void luaik_skeleton_matrices(ik2d_skeleton *skeleton);
  ]]
  -- end generated
end

local char_ptr = ffi.typeof("char *")
local chain_ptr = ffi.typeof("ik2d_chain *")
local solver_ptr = ffi.typeof("ik2d_solver *")
local spring_ptr = ffi.typeof("ik2d_spring *")
local skeleton_ptr = ffi.typeof("ik2d_skeleton *")
local doubles = ffi.typeof("double[?]")
local int_out = ffi.typeof("int[1]")
local double_ptr_out = ffi.typeof("double *[1]")

-- The library files LOVE's C loader tries for ik2d.core, in its order:
-- each template of love.filesystem.getCRequirePath() over the game's source
-- and save folders ("??" is "ik2d/core" and the platform's extension).
local function love_candidates()
  local love = rawget(_G, "love")
  local fs = love and love.filesystem
  if not (fs and fs.getCRequirePath) then return {} end
  local extensions = ({ Windows = { ".dll" }, OSX = { ".dylib", ".so" } })[ffi.os] or { ".so" }
  local files = {}
  for template in fs.getCRequirePath():gmatch("[^;]+") do
    for _, extension in ipairs(extensions) do
      local file = template:gsub("%?%?", "ik2d/core" .. extension):gsub("%?", "ik2d/core")
      local folder = fs.getInfo(file, "file") and fs.getRealDirectory(file)
      if folder then files[#files + 1] = folder .. "/" .. file end
    end
  end
  return files
end

-- The library ik2d.core was loaded from, loaded again through the FFI (the
-- same file, so the same instance): LOVE's searchers run before Lua's, and
-- a file they cannot load (one inside a .love) is passed over, as they do.
local function load_core()
  for _, file in ipairs(love_candidates()) do
    local ok, C = pcall(ffi.load, file)
    if ok then return C end
  end
  local path = package.searchpath("ik2d.core", package.cpath)
  if not path then return nil end
  local ok, C = pcall(ffi.load, path)
  return ok and C or nil
end

-- --- the pointers a method reads ----------------------------------------------
-- Per object, the pointers a method reads, cast once and kept (weak keys
-- let the objects go): a chain's core object and joints, a solver's core
-- object.  Methods touch no other pointer: a fresh one is an allocation
-- whenever LuaJIT interprets the code, or carries the pointer into
-- another trace (a loop's).  Liveness and a solve's outcome come from the
-- binding as plain values.

-- live_chain(chain) -> its core object while its box is not finalised
-- (nil for anything but a chain); chain_joints[chain] -> its joints
local function chain_pointers(C, header, chain_mt)
  local pointers = setmetatable({}, { __mode = "k" })
  local chain_joints = setmetatable({}, { __mode = "k" })
  local function chain_of(chain)
    local pointer = pointers[chain]
    if pointer or type(chain) ~= "userdata" or getmetatable(chain) ~= chain_mt then
      return pointer
    end
    pointer = cast(chain_ptr, cast(char_ptr, chain) + header)
    pointers[chain] = pointer
    chain_joints[chain] = C.ik2d_chain_joints(pointer)
    return pointer
  end
  local function live_chain(chain)
    local pointer = chain_of(chain)
    return pointer and C.luaik_chain_live(pointer) and pointer
  end
  return live_chain, chain_joints
end

-- object -> its core object as ctype (nil for anything but an mt
-- object), cast once
local function pointers_of(header, mt, ctype)
  local cache = setmetatable({}, { __mode = "k" })
  return function(object)
    local pointer = cache[object]
    if pointer or type(object) ~= "userdata" or getmetatable(object) ~= mt then
      return pointer
    end
    pointer = cast(ctype, cast(char_ptr, object) + header)
    cache[object] = pointer
    return pointer
  end
end

-- group_view(group) -> what its methods read, made once (nil for anything
-- but a group): its box, its members' count and joints, the scratch
-- array set_targets fills
local function group_views(C, group_mt)
  local views = setmetatable({}, { __mode = "k" })
  return function(group)
    local view = views[group]
    if view or type(group) ~= "userdata" or getmetatable(group) ~= group_mt then
      return view
    end
    local box = cast(char_ptr, group)
    local count, scratch = int_out(), double_ptr_out()
    local solvers = C.luaik_group_members(box, count, scratch)
    -- each member's joints, read once: the group keeps its members
    local members, sizes = {}, {}
    for i = 1, count[0] do
      local chain = C.ik2d_solver_chain(solvers[i - 1])
      members[i] = C.ik2d_chain_joints(chain)
      sizes[i] = 2 * (C.ik2d_chain_bone_count(chain) + 1)
    end
    view = { box = box, count = count[0], scratch = scratch[0], members = members,
             sizes = sizes }
    views[group] = view
    return view
  end
end

-- as for chains: live_skeleton(sk) -> its core pointer, cast once, while
-- its box is not finalised; skeleton_arrays[sk] -> { transforms, matrices }
-- (the core's own, the second made again by luaik_skeleton_matrices)
local function skeleton_pointers(C, header, skeleton_mt)
  local pointers = setmetatable({}, { __mode = "k" })
  local skeleton_arrays = setmetatable({}, { __mode = "k" })
  local function live_skeleton(sk)
    local pointer = pointers[sk]
    if not pointer then
      if type(sk) ~= "userdata" or getmetatable(sk) ~= skeleton_mt then return nil end
      pointer = cast(skeleton_ptr, cast(char_ptr, sk) + header)
      pointers[sk] = pointer
      skeleton_arrays[sk] = { C.ik2d_skeleton_transforms(pointer), C.ik2d_skeleton_matrices(pointer) }
    end
    if C.luaik_skeleton_live(pointer) then return pointer end
    return nil
  end
  return live_skeleton, skeleton_arrays
end

-- bone_of(sk, bone) -> the 1-based index a bone name or index names, as far
-- as a lookup kept per skeleton knows (names do not change): the classic
-- sk:bone tells it once a name; nil for anything it does not know
local function bone_indices(bone)
  local known = setmetatable({}, { __mode = "k" })
  return function(sk, name)
    if type(name) ~= "string" then return name end
    local names = known[sk]
    if names == nil then
      names = {}
      known[sk] = names
    end
    local i = names[name]
    if i == nil then
      i = bone(sk, name)
      names[name] = i
    end
    return i
  end
end

-- What the stages below share (k): the library C, the method tables
-- (methods, in place; classic, copied before any change; fast, the FFI
-- methods the switch puts in place), the pointer readers, the output
-- buffer and kept_owner.
local function context(core, C)
  local header, methods = core._header, core._methods
  local classic = {}
  for kind, list in pairs(methods) do
    classic[kind] = {}
    for name, f in pairs(list) do classic[kind][name] = f end
  end
  local k = { C = C, methods = methods, classic = classic,
              fast = { Chain = {}, Solver = {}, Group = {}, Spring = {}, Skeleton = {}, Slots = {} } }
  k.live_chain, k.chain_joints = chain_pointers(C, header, getmetatable(core.chain { { length = 1 } }))
  local solver_of = pointers_of(header, getmetatable(core.solver(core.chain { { length = 1 } })),
                                solver_ptr)
  function k.live_solver(solver)
    local pointer = solver_of(solver)
    return pointer and C.luaik_solver_live(pointer) and pointer
  end
  k.group_view = group_views(C, getmetatable(core.group {}))
  k.spring_of = pointers_of(header, getmetatable(core.spring(core.chain { { length = 1 } })), spring_ptr)
  k.live_skeleton, k.skeleton_arrays =
    skeleton_pointers(C, header, getmetatable(core.skeleton { { name = "bone", length = 1 } }))
  k.bone_of = bone_indices(classic.Skeleton.bone)
  -- where the reading methods get what the core writes out: one buffer
  -- for all (Lua runs one call at a time, six numbers at most: a matrix),
  -- and pointers to its second and third numbers made once (out + 1 in a
  -- call is a new cdata whenever LuaJIT interprets it: garbage in a frame
  -- loop)
  k.out = doubles(6)
  k.out_1, k.out_2 = k.out + 1, k.out + 2
  -- an array (a group's, a skeleton's) -> its owner, which it keeps alive
  k.kept_owner = setmetatable({}, { __mode = "k" })
  return k
end

local function index_in(i, last)
  return type(i) == "number" and i >= 1 and i <= last and i % 1 == 0
end

-- values written raw from first, then the rest of t cleared up to its
-- first nil, as the binding's luaik_fill and luaik_trim do
local function fill(t, first, values, count)
  for k = 0, count - 1 do rawset(t, first + k, values[k]) end
  return first + count
end

-- (the common case, nothing after, enters no loop: a loop that runs
-- inside another one's trace makes LuaJIT give up on the outer trace)
local function trim(t, first)
  if rawget(t, first) == nil then return end
  repeat
    rawset(t, first, nil)
    first = first + 1
  until rawget(t, first) == nil
end

-- --- solvers ----------------------------------------------------------------

local function solver_setters(k)
  local C, classic, fast, live_solver = k.C, k.classic.Solver, k.fast.Solver, k.live_solver
  -- (a target on a bone: the classic method, which also lets the bone's
  -- skeleton go)
  local set_target = classic.set_target
  function fast.set_target(...)
    local solver, x, y = ...
    local pointer = live_solver(solver)
    if pointer and type(x) == "number" and type(y) == "number" and
       C.ik2d_solver_target_bone(pointer, nil, nil, nil) < 0 and
       C.ik2d_solver_set_target(pointer, x, y) == 0 then
      return
    end
    return set_target(...)
  end

  -- a foot planner sets these every frame: as set_target, no trace stop
  local set_tip_angle = classic.set_tip_angle
  function fast.set_tip_angle(...)
    local solver, angle, weight = ...
    local pointer = live_solver(solver)
    if weight == nil then weight = 1 end
    if pointer and type(angle) == "number" and type(weight) == "number" and
       C.ik2d_solver_set_tip_angle(pointer, angle, weight) == 0 then
      return
    end
    return set_tip_angle(...)
  end

  local set_pole = classic.set_pole
  function fast.set_pole(...)
    local solver, x, y = ...
    local pointer = live_solver(solver)
    if pointer and type(x) == "number" and type(y) == "number" and
       C.ik2d_solver_set_pole(pointer, x, y) == 0 then
      return
    end
    return set_pole(...)
  end
end

local function solver_readers(k)
  local C, classic, fast, live_solver = k.C, k.classic.Solver, k.fast.Solver, k.live_solver
  local out, out_1, read = k.out, k.out_1, k.C.luaik_read
  local target = classic.target
  function fast.target(...)
    local pointer = live_solver((...))
    if not pointer then return target(...) end
    C.ik2d_solver_target(pointer, out, out_1)
    return read(out, 0), read(out, 1)
  end

  local function outcome(pointer)
    C.luaik_result(pointer, out)
    return read(out, 0) ~= 0, read(out, 1), read(out, 2), read(out, 3) ~= 0
  end

  local solve = classic.solve
  function fast.solve(...)
    local pointer = live_solver((...))
    if not pointer then return solve(...) end
    C.ik2d_solver_solve(pointer)
    return outcome(pointer)
  end

  local result_of = classic.result
  function fast.result(...)
    local pointer = live_solver((...))
    if not pointer then return result_of(...) end
    return outcome(pointer)
  end
end

-- --- springs ----------------------------------------------------------------

local function spring_methods(k)
  local C, spring_of = k.C, k.spring_of
  local spring_update = k.classic.Spring.update
  function k.fast.Spring.update(...)
    local spring, dt = ...
    local pointer = spring_of(spring)
    if pointer and C.luaik_spring_live(pointer) and type(dt) == "number" and
       C.ik2d_spring_update(pointer, dt) == 0 then
      return
    end
    return spring_update(...)
  end
end

-- --- chains -----------------------------------------------------------------

local function chain_points(k)
  local C, classic, fast, live_chain, chain_joints = k.C, k.classic.Chain, k.fast.Chain,
    k.live_chain, k.chain_joints
  local out, out_1, out_2, read = k.out, k.out_1, k.out_2, k.C.luaik_read
  local joint = classic.joint
  function fast.joint(...)
    local chain, i = ...
    local pointer = live_chain(chain)
    if pointer and index_in(i, C.ik2d_chain_bone_count(pointer) + 1) then
      local joints = chain_joints[chain]
      return joints[2 * i - 2], joints[2 * i - 1]
    end
    return joint(...)
  end

  local tip = classic.tip
  function fast.tip(...)
    local chain = ...
    local pointer = live_chain(chain)
    if not pointer then return tip(...) end
    local n, joints = C.ik2d_chain_bone_count(pointer), chain_joints[chain]
    return joints[2 * n], joints[2 * n + 1]
  end

  local base = classic.base
  function fast.base(...)
    local pointer = live_chain((...))
    if not pointer then return base(...) end
    C.ik2d_chain_base(pointer, out, out_1, out_2)
    return read(out, 0), read(out, 1), read(out, 2)
  end

  local joints = classic.joints
  function fast.joints(...)
    local chain, t = ...
    local pointer = live_chain(chain)
    if not pointer or (t ~= nil and type(t) ~= "table") then return joints(...) end
    t = t or {}
    trim(t, fill(t, 1, chain_joints[chain], 2 * (C.ik2d_chain_bone_count(pointer) + 1)))
    return t
  end
end

local function chain_angles(k)
  local C, classic, fast, live_chain, out = k.C, k.classic.Chain, k.fast.Chain, k.live_chain, k.out
  local read = C.luaik_read
  local angle = classic.angle
  function fast.angle(...)
    local chain, i = ...
    local pointer = live_chain(chain)
    if pointer and index_in(i, C.ik2d_chain_bone_count(pointer)) and
       C.ik2d_chain_angle(pointer, i - 1, out) == 0 then
      return read(out, 0)
    end
    return angle(...)
  end

  local pose = classic.pose
  function fast.pose(...)
    local chain, i = ...
    local pointer = live_chain(chain)
    if pointer and index_in(i, C.ik2d_chain_bone_count(pointer)) and
       C.ik2d_chain_pose(pointer, i - 1, out) == 0 then
      return read(out, 0)
    end
    return pose(...)
  end
end

-- --- groups -----------------------------------------------------------------

local function group_methods(k)
  local C, classic, fast, group_view = k.C, k.classic.Group, k.fast.Group, k.group_view
  local group_solve = classic.solve
  function fast.solve(...)
    local group = ...
    local view = group_view(group)
    if not (view and C.luaik_group_live(view.box)) then return group_solve(...) end
    local reached = C.luaik_group_solve(view.box)
    -- a bad target (it raises) or a target array replacing a target on a
    -- bone (it lets the bone's skeleton go)
    if reached < 0 then return group_solve(...) end
    return reached
  end

  local set_targets = classic.set_targets
  function fast.set_targets(...)
    local group, t = ...
    local view = group_view(group)
    if view and type(t) == "table" and #t == 2 * view.count and C.luaik_group_live(view.box) then
      local scratch, numbers = view.scratch, true
      for i = 1, 2 * view.count do
        local v = rawget(t, i)
        if type(v) == "number" then scratch[i - 1] = v else numbers = false end
      end
      if numbers and C.luaik_group_set_targets(view.box) == 0 then return end
    end
    return set_targets(...)
  end

  local group_joints = classic.joints
  function fast.joints(...)
    local group, t = ...
    local view = group_view(group)
    if not (view and C.luaik_group_live(view.box)) or (t ~= nil and type(t) ~= "table") then
      return group_joints(...)
    end
    t = t or {}
    local next, members, sizes = 1, view.members, view.sizes
    for i = 1, view.count do next = fill(t, next, members[i], sizes[i]) end
    trim(t, next)
    return t
  end
end

-- The arrays are not a fast path but what only the FFI can give, so they
-- are in place whichever way use_ffi switches.  An array keeps its group
-- alive while the array (this very cdata) is reachable; the group keeps
-- its arrays only weakly, so each goes when the caller drops it.
local function group_arrays(k)
  local C, classic, group_view, kept_owner = k.C, k.classic.Group, k.group_view, k.kept_owner
  local function array_of(arrays, make, fallback)
    return function(...)
      local group = ...
      local view = group_view(group)
      if not (view and C.luaik_group_live(view.box)) then return fallback(...) end
      local array = arrays[group]
      if array == nil then
        array = make(view.box)
        if array == nil then return fallback(...) end
        arrays[group] = array
        kept_owner[array] = group
      end
      return array
    end
  end
  local methods = k.methods.Group
  -- group -> array
  methods.target_array = array_of(setmetatable({}, { __mode = "kv" }), C.luaik_group_target_array,
                                  classic.target_array)
  methods.joint_array = array_of(setmetatable({}, { __mode = "kv" }), C.luaik_group_joint_array,
                                 classic.joint_array)
  -- the rest of a frame's numbers, and a group of skeletons' own (NULL
  -- for a group of solvers: the classic method raises)
  for _, name in ipairs { "tip_angle_array", "pole_array", "base_array", "transform_array" } do
    local make = C["luaik_group_" .. name]
    methods[name] = array_of(setmetatable({}, { __mode = "kv" }), make, classic[name])
  end
  -- the skeletons' matrices, made again by each call
  local matrix_arrays = setmetatable({}, { __mode = "kv" })  -- group -> array
  local matrix_array = classic.matrix_array
  methods.matrix_array = function(...)
    local group = ...
    local view = group_view(group)
    if not (view and C.luaik_group_live(view.box)) then return matrix_array(...) end
    local array = matrix_arrays[group]
    if array == nil then
      array = C.luaik_group_matrix_array(view.box)
      if array == nil then return matrix_array(...) end
      matrix_arrays[group] = array
      kept_owner[array] = group
    end
    C.luaik_group_matrices(view.box)
    return array
  end
end

-- --- skeletons --------------------------------------------------------------

local function skeleton_methods(k)
  local C, classic, fast, live_skeleton = k.C, k.classic.Skeleton, k.fast.Skeleton, k.live_skeleton
  local skeleton_arrays, out, read = k.skeleton_arrays, k.out, C.luaik_read
  local skeleton_solve = classic.solve
  function fast.solve(...)
    local pointer = live_skeleton((...))
    if not pointer then return skeleton_solve(...) end
    local reached = C.ik2d_skeleton_solve(pointer)
    -- a cycle through a target, nothing solved: the classic method raises
    if reached < 0 then return skeleton_solve(...) end
    return reached
  end

  -- a character moves every frame: as set_target, no trace stop; the
  -- angle, when left out, is the one the skeleton has
  local set_base = classic.set_base
  function fast.set_base(...)
    local sk, x, y, turn = ...
    local pointer = live_skeleton(sk)
    if pointer and type(x) == "number" and type(y) == "number" then
      if turn == nil then
        C.ik2d_skeleton_base(pointer, nil, nil, out)
        turn = read(out, 0)
      end
      if type(turn) == "number" and C.ik2d_skeleton_set_base(pointer, x, y, turn) == 0 then
        return
      end
    end
    return set_base(...)
  end

  local transforms = classic.transforms
  function fast.transforms(...)
    local sk, t = ...
    local pointer = live_skeleton(sk)
    if not pointer or (t ~= nil and type(t) ~= "table") then return transforms(...) end
    t = t or {}
    trim(t, fill(t, 1, skeleton_arrays[sk][1], 5 * C.ik2d_skeleton_bone_count(pointer)))
    return t
  end
end

-- a drawing loop reads a bone's matrix (or all of them) every frame
local function skeleton_matrices(k)
  local C, classic, fast, live_skeleton = k.C, k.classic.Skeleton, k.fast.Skeleton, k.live_skeleton
  local skeleton_arrays, bone_of, out = k.skeleton_arrays, k.bone_of, k.out
  local read = C.luaik_read
  local matrix = classic.matrix
  function fast.matrix(...)
    local sk, bone = ...
    local pointer = live_skeleton(sk)
    if pointer then
      local i = bone_of(sk, bone)
      if index_in(i, C.ik2d_skeleton_bone_count(pointer)) and
         C.ik2d_skeleton_matrix(pointer, i - 1, out) == 0 then
        return read(out, 0), read(out, 1), read(out, 2), read(out, 3), read(out, 4), read(out, 5)
      end
    end
    return matrix(...)
  end

  local matrices = classic.matrices
  function fast.matrices(...)
    local sk, t = ...
    local pointer = live_skeleton(sk)
    if not pointer or (t ~= nil and type(t) ~= "table") then return matrices(...) end
    t = t or {}
    C.luaik_skeleton_matrices(pointer)
    trim(t, fill(t, 1, skeleton_arrays[sk][2], 6 * C.ik2d_skeleton_bone_count(pointer)))
    return t
  end
end

-- Like a group's arrays, in place whichever way use_ffi switches: the
-- core's own transforms, and matrices (made again by each call), the
-- array keeping its skeleton alive (a cdata of its own: the one the fast
-- methods keep must not, or nothing would let the skeleton go).
local function skeleton_array(k)
  local C, live_skeleton, kept_owner = k.C, k.live_skeleton, k.kept_owner
  local transform_arrays = setmetatable({}, { __mode = "kv" })  -- skeleton -> array
  local transform_array = k.classic.Skeleton.transform_array
  k.methods.Skeleton.transform_array = function(...)
    local sk = ...
    local pointer = live_skeleton(sk)
    if not pointer then return transform_array(...) end
    local array = transform_arrays[sk]
    if array == nil then
      array = C.ik2d_skeleton_transforms(pointer)
      transform_arrays[sk] = array
      kept_owner[array] = sk
    end
    return array
  end

  local matrix_arrays = setmetatable({}, { __mode = "kv" })  -- skeleton -> array
  local matrix_array = k.classic.Skeleton.matrix_array
  k.methods.Skeleton.matrix_array = function(...)
    local sk = ...
    local pointer = live_skeleton(sk)
    if not pointer then return matrix_array(...) end
    local array = matrix_arrays[sk]
    if array == nil then
      array = C.ik2d_skeleton_matrices(pointer)
      matrix_arrays[sk] = array
      kept_owner[array] = sk
    else
      C.luaik_skeleton_matrices(pointer)
    end
    return array
  end
end

-- slots:world_vertices(lists, drawn [, shown [, tints]]): the core's one
-- call into a buffer kept per slots (grown when a call finds it short),
-- then the numbers copied into the tables in a compiled loop, where the
-- classic method fills them through the C API.
local function slots_methods(k, slots_of)
  local C, live_skeleton, classic = k.C, k.live_skeleton, k.classic.Slots
  local world_vertices, skeleton_of = classic.world_vertices, classic.skeleton
  local views = setmetatable({}, { __mode = "k" })
  local function view_of(slots, pointer)
    local view = views[slots]
    if view == nil then
      local count = C.ik2d_slots_count(pointer)
      view = { skeleton = skeleton_of(slots), max = 256, drawn = ffi.new("int[?]", count),
               tint = doubles(4) }
      view.out = doubles(view.max)
      views[slots] = view
    end
    return view
  end
  local function is_table_or_nil(t) return t == nil or type(t) == "table" end
  function k.fast.Slots.world_vertices(...)
    local slots, lists, drawn, shown, tints = ...
    local pointer = slots_of(slots)
    if not pointer or type(lists) ~= "table" or type(drawn) ~= "table" or not is_table_or_nil(shown)
       or not is_table_or_nil(tints) then
      return world_vertices(...)
    end
    local view = view_of(slots, pointer)
    local sk = live_skeleton(view.skeleton)
    if not sk then return world_vertices(...) end
    local n = C.ik2d_slots_all_vertices(pointer, sk, view.out, view.max, view.drawn)
    while n < 0 do
      view.max = 2 * view.max
      view.out = doubles(view.max)
      n = C.ik2d_slots_all_vertices(pointer, sk, view.out, view.max, view.drawn)
    end
    local out, drawn_c, tint, at = view.out, view.drawn, view.tint, 0
    for j = 1, n do
      local i = drawn_c[j - 1]
      local count = 2 * C.ik2d_slots_vertices(pointer, sk, i, nil, 0)
      -- (raw, as the classic method: no metamethod runs mid-call)
      local list = rawget(lists, j)
      if type(list) ~= "table" then
        list = {}
        rawset(lists, j, list)
      end
      if count == 8 then
        -- a region's four corners, the most common list, without a loop:
        -- a short inner loop of its own costs the trace more than its work
        rawset(list, 1, out[at])
        rawset(list, 2, out[at + 1])
        rawset(list, 3, out[at + 2])
        rawset(list, 4, out[at + 3])
        rawset(list, 5, out[at + 4])
        rawset(list, 6, out[at + 5])
        rawset(list, 7, out[at + 6])
        rawset(list, 8, out[at + 7])
      else
        for v = 1, count do rawset(list, v, out[at + v - 1]) end
      end
      trim(list, count + 1)
      at = at + count
      rawset(drawn, j, i + 1)
      if shown then rawset(shown, j, C.ik2d_slots_attachment(pointer, i) + 1) end
      if tints then
        C.ik2d_slots_tint(pointer, i, tint)
        local t = rawget(tints, j)
        if type(t) ~= "table" then
          t = {}
          rawset(tints, j, t)
        end
        rawset(t, 1, tint[0])
        rawset(t, 2, tint[1])
        rawset(t, 3, tint[2])
        rawset(t, 4, tint[3])
      end
    end
    return n
  end
end

-- What a drawer of rigs calls: M.rig_view(slots, sk) -> the library, the
-- slots' and the skeleton's core pointers (cast once a pair), or nil for
-- anything but the C core's live objects.
local function rig_views(k, core)
  local sk = core.skeleton { { name = "bone", length = 1 } }
  local slots_of = pointers_of(core._header,
    getmetatable(core.slots(sk, { slots = { { bone = 1 } } })), ffi.typeof("ik2d_slots *"))
  local C, live_skeleton = k.C, k.live_skeleton
  slots_methods(k, slots_of)
  function M.rig_view(slots, skeleton)
    local slots_pointer, skeleton_pointer = slots_of(slots), live_skeleton(skeleton)
    if not (slots_pointer and skeleton_pointer) then return nil end
    return C, slots_pointer, skeleton_pointer
  end
end

--- Installs the FFI methods into core's method tables; returns a switch
-- function(on) that puts the FFI or the classic methods in place.
-- Returns nil when the library cannot be loaded through the FFI.
function M.install(core)
  local C = load_core()
  if not C then return nil end
  local k = context(core, C)
  solver_setters(k)
  solver_readers(k)
  spring_methods(k)
  chain_points(k)
  chain_angles(k)
  group_methods(k)
  group_arrays(k)
  skeleton_methods(k)
  skeleton_matrices(k)
  skeleton_array(k)
  rig_views(k, core)
  local methods, classic, fast = k.methods, k.classic, k.fast
  return function(on)
    local source = on and fast or classic
    for kind, functions in pairs(fast) do
      for name in pairs(functions) do methods[kind][name] = source[kind][name] end
    end
  end
end

return M
