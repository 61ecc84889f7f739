--- ik2d.pure.group: ik2d.group for Lua (src/lua/luaik_group.c): many
-- solvers (or whole skeletons) solved, targeted and read in one call each
-- a frame, and under LuaJIT the arrays.  The C core solves a group's CCD
-- chains side by side (in the lanes of an instruction set) with exactly
-- the bits of solving them one by one in list order; here they are
-- solved so: the pure core's one instruction set is "scalar".  A group of
-- skeletons is the flat list of their solvers plus their bases and
-- transforms, solved skeleton by skeleton.
local B = require "ik2d.pure.binding"
local O = require "ik2d.pure.objects"
local solvers = require "ik2d.pure.solver"
local pose = require "ik2d.pure.pose"
local binding_solver = require "ik2d.pure.binding_solver"
local binding_skeleton = require "ik2d.pure.binding_skeleton"
local skeleton = require "ik2d.pure.skeleton"
local skeleton_solve = require "ik2d.pure.skeleton_solve"
local chains = require "ik2d.pure.chain"

local type, select, rawget, rawset, tonumber = type, select, rawget, rawset, tonumber
local getmetatable = getmetatable
local format = string.format
local rawlen = rawget(_G, "rawlen") or function(t) return #t end
local arg_error, type_error, index_error = B.arg_error, B.type_error, B.index_error
local is_table, typename = B.is_table, B.typename
local check_solver = binding_solver.check_solver
local solve, check_target, set_target = skeleton_solve.solve_one, solvers.check_target,
  solvers.set_target

local groups, new_group = O.objects.Group, O.new.Group
local solvers_of = O.objects.Solver
local skeletons_of = O.objects.Skeleton
local check_skeleton = binding_skeleton.check_skeleton
local check_tip, check_pole, check_base = solvers.check_tip, solvers.check_pole, chains.check_base
local NAN = 0 / 0
local Group = O.methods.Group

local M = {}

local ffi = B.ffi -- for the arrays (nil but under LuaJIT)

local function check_group(v, arg, n)
  local g = groups[v]
  if not g then type_error(arg, "ik2d.Group", v, n) end
  if g.collected then arg_error(arg, "group was collected") end
  return g
end

-- the group, its members and their chains all alive.  Found so, it
-- stays so until __gc finalises some object (B.finalised.count): until
-- then a frame's calls skip the pass over every member (with 10,000
-- members each pass reads memory no longer in the cache)
local finalised = B.finalised
local function check_live_group(v, arg, n)
  local g = groups[v]
  if not g or g.collected then g = check_group(v, arg, n) end
  local count = finalised.count
  if g.alive_at == count then return g end
  for i = 1, g.skeleton_count do
    if g.skeletons[i].collected then arg_error(arg, format("skeleton %d was collected", i)) end
  end
  local list = g.solvers
  for i = 1, g.count do
    local sv = list[i]
    if sv.collected then arg_error(arg, format("solver %d was collected", i)) end
    if sv.chain.collected then arg_error(arg, format("solver %d: chain was collected", i)) end
  end
  g.alive_at = count
  return g
end

-- The group of the solvers (proxies) in list and of the skeletons
-- (proxies) in items (none for a group of solvers): it keeps them all.
-- offsets[i]: the 0-based index of member i's first joint in the joint
-- array, offsets[count + 1] their total; bone_offsets the same for each
-- skeleton's first transform.
local function make_group(list, items)
  local count, skeleton_count = #list, #items
  local g = { count = count, skeleton_count = skeleton_count, solvers = {}, skeletons = {},
              scratch = {}, offsets = { 0 }, bone_offsets = { 0 }, anchor = {},
              read_targets = false, read_tips = false, read_poles = false, read_bases = false,
              write_joints = false, write_transforms = false, alive_at = -1, pose = false,
              matrix_cdata = false }
  local bones = 1
  for i = 1, count do
    local sv = solvers_of[list[i]]
    g.solvers[i] = sv
    g.anchor[i] = list[i]
    g.offsets[i + 1] = g.offsets[i] + 2 * (sv.chain.count + 1)
    if sv.chain.count > bones then bones = sv.chain.count end
  end
  for i = 1, skeleton_count do
    local sk = skeletons_of[items[i]]
    g.skeletons[i] = sk
    g.anchor[count + i] = items[i]
    g.bone_offsets[i + 1] = g.bone_offsets[i] + skeleton.TRANSFORM * sk.count
  end
  for i = 1, math.max(2 * count, 3 * skeleton_count) do g.scratch[i] = 0.0 end
  -- the pose its solves work on, its own
  g.pose = pose.new(bones)
  return new_group(g)
end

-- every item a live skeleton, none twice; the solvers theirs
local function group_of_skeletons(t, count)
  local seen, items, list = {}, {}, {}
  for i = 1, count do
    local item = rawget(t, i)
    if not skeletons_of[item] then
      arg_error(1, format("item %d: ik2d.Skeleton expected (item 1 is one), got %s", i,
                          typename(item)))
    end
    -- the C binding checks the item where it pushed it: stack slot 4
    local sk = check_skeleton(item, 4, 4)
    if seen[item] then arg_error(1, format("item %d: the skeleton of item %d again", i, seen[item])) end
    seen[item] = i
    items[i] = item
    local proxies = O.solver_proxies
    for k = 1, #sk.solvers do
      local proxy = proxies[sk.solvers[k]]
      if proxy ~= nil then list[#list + 1] = proxy end
    end
  end
  return make_group(list, items)
end

function M.group(...)
  local t, n = ..., select("#", ...)
  if not is_table(t) then type_error(1, "table", t, n) end
  local count = rawlen(t)
  -- (not tail calls: an error names the running public function, which a
  -- tail call takes off the stack)
  if skeletons_of[rawget(t, 1)] then
    local g = group_of_skeletons(t, count)
    return g
  end
  -- every item a live solver, none twice
  local seen, list = {}, {}
  for i = 1, count do
    local item = rawget(t, i)
    if not solvers_of[item] then
      arg_error(1, format("item %d: ik2d.Solver expected, got %s", i, typename(item)))
    end
    -- the C binding checks the item where it pushed it: stack slot 3
    check_solver(item, 3, 3)
    if seen[item] then arg_error(1, format("item %d: the solver of item %d again", i, seen[item])) end
    seen[item] = i
    list[i] = item
  end
  local g = make_group(list, {})
  return g
end

function Group.solver(...)
  local self, i = ...
  local n = select("#", ...)
  local g = check_group(self, 1, n)
  i = B.whole_at(i, n >= 2, 2, "solver index")
  if i < 1 or i > g.count then index_error(2, "solver", i, g.count) end
  return g.anchor[i]
end

--- the members, or the skeletons' solvers
function Group.solvers(...)
  local self, t = ...
  local n = select("#", ...)
  local g = check_group(self, 1, n)
  t = B.table_arg(t, 2, n)
  for i = 1, g.count do rawset(t, i, g.anchor[i]) end
  if rawget(t, g.count + 1) ~= nil then B.trim(t, g.count + 1) end
  return t
end

-- a group of solvers has no bases or transforms
local function solvers_only(g) return g.skeleton_count == 0 and g.count > 0 end

local function skeletons_only(g)
  if solvers_only(g) then B.call_error("a group of solvers: only a group of skeletons has it") end
  return g
end

local function check_skeleton_group(v, arg, n)
  return skeletons_only(check_live_group(v, arg, n))
end

function Group.skeleton(...)
  local self, i = ...
  local n = select("#", ...)
  local g = skeletons_only(check_group(self, 1, n))
  i = B.whole_at(i, n >= 2, 2, "skeleton index")
  if i < 1 or i > g.skeleton_count then index_error(2, "skeleton", i, g.skeleton_count) end
  return g.anchor[g.count + i]
end

-- every skeleton's transforms into the transform array
local function copy_transforms(g)
  local list, offsets, transforms = g.skeletons, g.bone_offsets, g.transforms
  for i = 1, g.skeleton_count do
    local from, at = list[i].T, offsets[i]
    for k = 1, offsets[i + 1] - at do transforms[at + k - 1] = from[k] end
  end
end

-- every member's skeleton placed after a base set later (before the
-- group reads transforms or joints outside its solve)
local function ready_members(g)
  for i = 1, g.skeleton_count do skeleton.ready(g.skeletons[i]) end
  local list = g.solvers
  for i = 1, g.count do
    local link = list[i].chain.link
    if link and link.skeleton then skeleton.ready(link.skeleton) end
  end
end

-- every member's joints into the joint array
local function copy_joints(g)
  local list, offsets, joints = g.solvers, g.offsets, g.joints
  for i = 1, g.count do
    local from, at = list[i].chain.joints, offsets[i]
    for k = 1, offsets[i + 1] - at do joints[at + k - 1] = from[k] end
  end
end

-- The first bad number of the arrays a solve reads (in the C binding's
-- order: bases, targets, tip angles, poles): the array's name, the
-- 0-based entry and the status; nil when all are good.
local function bad_input(g)
  if g.read_bases then
    local bases = g.bases
    for k = 1, g.skeleton_count do
      local status = check_base(bases[3 * k - 3], bases[3 * k - 2], bases[3 * k - 1])
      if status then
        return "base array", 3 * k - 3 + (status == "BASE_Y" and 1 or status == "BASE_ANGLE" and 2 or 0),
               status
      end
    end
  end
  local list = g.solvers
  if g.read_targets then
    local targets = g.targets
    for k = 1, g.count do
      local status = check_target(targets[2 * k - 2], targets[2 * k - 1])
      if status then return "target array", 2 * k - 2 + (status == "TARGET_Y" and 1 or 0), status end
    end
  end
  if g.read_tips then
    for k = 1, g.count do
      local settings = list[k].settings
      local status = settings.tip and check_tip(g.tips[k - 1], settings.tip_weight)
      if status then return "tip angle array", k - 1, status end
    end
  end
  if g.read_poles then
    local poles = g.poles
    for k = 1, g.count do
      local status = list[k].settings.pole and check_pole(poles[2 * k - 2], poles[2 * k - 1])
      if status then return "pole array", 2 * k - 2 + (status == "POLE_Y" and 1 or 0), status end
    end
  end
  return nil
end

-- a world target: one on a bone goes, and the hold on its skeleton
local function set_world_target(sv, x, y)
  if sv.target_skeleton then sv.target_anchor, sv.target_names = nil, nil end
  set_target(sv, x, y)
end

-- does a solver of the skeletons have its target on a bone (every solver
-- of theirs, those made after the group too)?
local function bone_targets(g)
  for k = 1, g.skeleton_count do
    local list = g.skeletons[k].solvers
    for i = 1, #list do
      if list[i].target_skeleton then return true end
    end
  end
  return false
end

-- The arrays' numbers, all checked (bad_input); true when each base is
-- left to its skeleton's solve (the same bits, the bones placed once),
-- unless a target on a bone may read a skeleton's bones before its own
-- solve: then all first, as the calls one by one would.
local function take_inputs(g)
  local list = g.solvers
  local moved_bases = g.read_bases and g.skeleton_count > 0 and
    (g.read_targets or not bone_targets(g))
  if g.read_bases and not moved_bases then
    local bases = g.bases
    for k = 1, g.skeleton_count do
      skeleton.set_base(g.skeletons[k], bases[3 * k - 3], bases[3 * k - 2], bases[3 * k - 1])
    end
  end
  if g.read_targets then
    local targets = g.targets
    for k = 1, g.count do set_world_target(list[k], targets[2 * k - 2], targets[2 * k - 1]) end
  end
  if g.read_tips then
    for k = 1, g.count do
      local sv = list[k]
      if sv.settings.tip then solvers.set_tip_angle(sv, g.tips[k - 1], sv.settings.tip_weight) end
    end
  end
  if g.read_poles then
    local poles = g.poles
    for k = 1, g.count do
      local sv = list[k]
      if sv.settings.pole then solvers.set_pole(sv, poles[2 * k - 2], poles[2 * k - 1]) end
    end
  end
  return moved_bases
end

-- a skeleton whose solve would refuse for a cycle through targets on
-- bones raises before anything changes (only targets on bones make one,
-- and the target array replaces every member's)
local function check_cycles(g)
  if g.skeleton_count == 0 or g.read_targets or not bone_targets(g) then return end
  for k = 1, g.skeleton_count do
    local sk = g.skeletons[k]
    local a, b = skeleton_solve.cycle(sk)
    if a then binding_skeleton.cycle_error(sk, 0, a, b) end
  end
end

function Group.solve(...)
  local g = check_live_group(..., 1, select("#", ...))
  check_cycles(g)
  local name, entry, status = bad_input(g)
  if name then arg_error(1, format("%s [%d]: %s", name, entry, B.status_message(status))) end
  local moved_bases = take_inputs(g)
  local reached, list = 0, g.solvers
  if g.skeleton_count > 0 then
    local bases = g.bases
    for i = 1, g.skeleton_count do
      local sk = g.skeletons[i]
      -- (solve_at: every bone stale, placed as the solve reads it)
      if moved_bases then
        skeleton.set_base_deferred(sk, bases[3 * i - 3], bases[3 * i - 2], bases[3 * i - 1])
      end
      reached = reached + skeleton_solve.solve(sk)
      skeleton.settle(sk)
    end
  else
    local P = g.pose
    for i = 1, g.count do
      if solve(list[i], P) then reached = reached + 1 end
    end
  end
  if g.write_joints then copy_joints(g) end
  if g.write_transforms then copy_transforms(g) end
  return reached
end

-- n numbers from table t (argument 2) into the scratch, the table checked
-- whole; what (of members) for the message
local function read_table(g, t, nargs, count, what, members)
  if not is_table(t) then type_error(2, "table", t, nargs) end
  local scratch = g.scratch
  local length = rawlen(t)
  if length ~= count then
    arg_error(2, format("%d numbers expected (%s), got %d", count, format(what, members), length))
  end
  -- (a table without a metatable reads raw without rawget's call)
  local plain = getmetatable(t) == nil
  for i = 1, count do
    local v
    if plain then v = t[i] else v = rawget(t, i) end
    if type(v) ~= "number" then
      v = type(v) == "string" and tonumber(v)
      if not v then B.number_at(rawget(t, i), true, 2, format("item %d", i)) end
    end
    scratch[i] = v * 1.0
  end
  return scratch
end

--- the tip angles of the members that have one, from t (one number a
-- member; the others' are not read)
function Group.set_tip_angles(...)
  local self, t = ...
  local n = select("#", ...)
  local g = check_live_group(self, 1, n)
  local scratch = read_table(g, t, n, g.count, "an angle for each of %d solvers", g.count)
  local list = g.solvers
  for k = 1, g.count do
    local settings = list[k].settings
    local status = settings.tip and check_tip(scratch[k], settings.tip_weight)
    if status then arg_error(2, format("item %d: %s", k, B.status_message(status))) end
  end
  for k = 1, g.count do
    local sv = list[k]
    if sv.settings.tip then solvers.set_tip_angle(sv, scratch[k], sv.settings.tip_weight) end
  end
  if g.read_tips then
    for k = 1, g.count do g.tips[k - 1] = scratch[k] end
  end
end

function Group.set_poles(...)
  local self, t = ...
  local n = select("#", ...)
  local g = check_live_group(self, 1, n)
  local scratch = read_table(g, t, n, 2 * g.count, "x, y for each of %d solvers", g.count)
  local list = g.solvers
  for k = 1, g.count do
    local status = list[k].settings.pole and check_pole(scratch[2 * k - 1], scratch[2 * k])
    if status then
      arg_error(2, format("item %d: %s", 2 * k - 1 + (status == "POLE_Y" and 1 or 0),
                          B.status_message(status)))
    end
  end
  for k = 1, g.count do
    local sv = list[k]
    if sv.settings.pole then solvers.set_pole(sv, scratch[2 * k - 1], scratch[2 * k]) end
  end
  if g.read_poles then
    for i = 1, 2 * g.count do g.poles[i - 1] = scratch[i] end
  end
end

--- every skeleton's base from t = { x1, y1, angle1, x2, ... }
function Group.set_bases(...)
  local self, t = ...
  local n = select("#", ...)
  local g = check_skeleton_group(self, 1, n)
  local count = g.skeleton_count
  local scratch = read_table(g, t, n, 3 * count, "x, y, angle for each of %d skeletons", count)
  for k = 1, count do
    local status = check_base(scratch[3 * k - 2], scratch[3 * k - 1], scratch[3 * k])
    if status then
      arg_error(2, format("item %d: %s",
                          3 * k - 2 + (status == "BASE_Y" and 1 or status == "BASE_ANGLE" and 2 or 0),
                          B.status_message(status)))
    end
  end
  for k = 1, count do
    skeleton.set_base(g.skeletons[k], scratch[3 * k - 2], scratch[3 * k - 1], scratch[3 * k])
  end
  if g.read_bases then
    for i = 1, 3 * count do g.bases[i - 1] = scratch[i] end
  end
end

-- The targets of a plain table (no metatable: not an ik2d object, its
-- reads raw) of 2 * count finite numbers into the scratch in one pass;
-- false at the first other value (nothing kept: the caller's full check
-- then words the error).
local function read_plain_targets(t, scratch, count)
  if type(t) ~= "table" or getmetatable(t) ~= nil or rawlen(t) ~= 2 * count then return false end
  for k = 1, count do
    local x, y = t[2 * k - 1], t[2 * k]
    if not (type(x) == "number" and type(y) == "number" and x - x == 0 and y - y == 0) then
      return false
    end
    scratch[2 * k - 1], scratch[2 * k] = x * 1.0, y * 1.0
  end
  return true
end

--- every member's target from t = { x1, y1, x2, y2, ... }: the table
-- checked whole, then every target before any is kept
function Group.set_targets(...)
  local self, t = ...
  local n = select("#", ...)
  local g = check_live_group(self, 1, n)
  local count = g.count
  local scratch = g.scratch
  if not read_plain_targets(t, scratch, count) then
    scratch = read_table(g, t, n, 2 * count, "x, y for each of %d solvers", count)
    for k = 1, count do
      local x, y = scratch[2 * k - 1], scratch[2 * k]
      -- finite (check_target's test, written out)
      if not (x - x == 0 and y - y == 0) then
        local status = check_target(x, y)
        arg_error(2, format("item %d: %s", 2 * k - 2 + (status == "TARGET_Y" and 2 or 1),
                            B.status_message(status)))
      end
    end
  end
  -- every one checked: kept (solvers.set_target's stores written out, a
  -- call per member saved; one on a bone goes with its hold)
  local list = g.solvers
  for k = 1, count do
    local sv = list[k]
    if sv.target_skeleton then
      set_world_target(sv, scratch[2 * k - 1], scratch[2 * k])
    else
      sv.target_x, sv.target_y, sv.has_target = scratch[2 * k - 1], scratch[2 * k], true
    end
  end
  -- the target array follows them
  if g.read_targets then
    local targets = g.targets
    for i = 1, 2 * count do targets[i - 1] = scratch[i] end
  end
end

--- the 0-based index of member i's first joint x in the joint array (and,
-- plus one, in the table joints fills)
function Group.joint_offset(...)
  local self, i = ...
  local n = select("#", ...)
  local g = check_group(self, 1, n)
  i = B.whole_at(i, n >= 2, 2, "solver index")
  if i < 1 or i > g.count then index_error(2, "solver", i, g.count) end
  return g.offsets[i]
end

-- The arrays (LuaJIT's FFI): double * that solve reads (targets, tip
-- angles, poles, bases) and const double * it writes (joints,
-- transforms), from the first time each is asked for (filled with the
-- state of then), owned by the group (B.pointer: the pointer keeps the
-- group alive).  Each: the check of its group, its key in the group and
-- its switch, its C type, its size and its filling.
local pointer_of = B.pointer

local function fill_targets(g, targets)
  for i = 1, g.count do
    targets[2 * i - 2], targets[2 * i - 1] = skeleton_solve.target(g.solvers[i])
  end
end

-- a member without a tip angle (or pole) shows NaN: the solves do not
-- read it
local function fill_tips(g, tips)
  for k = 1, g.count do
    local settings = g.solvers[k].settings
    tips[k - 1] = settings.tip and settings.tip_angle or NAN
  end
end

local function fill_poles(g, poles)
  for k = 1, g.count do
    local settings = g.solvers[k].settings
    poles[2 * k - 2] = settings.pole and settings.pole_x or NAN
    poles[2 * k - 1] = settings.pole and settings.pole_y or NAN
  end
end

local function fill_bases(g, bases)
  for k = 1, g.skeleton_count do
    local sk = g.skeletons[k]
    bases[3 * k - 3], bases[3 * k - 2], bases[3 * k - 1] = sk.base_x, sk.base_y, sk.base_angle
  end
end

local ARRAYS = {
  target_array = { check_live_group, "targets", "read_targets", "double *",
                   function(g) return 2 * g.count end, fill_targets },
  joint_array = { check_live_group, "joints", "write_joints", "const double *",
                  function(g) return g.offsets[g.count + 1] end,
                  function(g) ready_members(g) copy_joints(g) end },
  tip_angle_array = { check_live_group, "tips", "read_tips", "double *",
                      function(g) return g.count end, fill_tips },
  pole_array = { check_live_group, "poles", "read_poles", "double *",
                 function(g) return 2 * g.count end, fill_poles },
  base_array = { check_skeleton_group, "bases", "read_bases", "double *",
                 function(g) return 3 * g.skeleton_count end, fill_bases },
  transform_array = { check_skeleton_group, "transforms", "write_transforms", "const double *",
                      function(g) return g.bone_offsets[g.skeleton_count + 1] end,
                      function(g) ready_members(g) copy_transforms(g) end },
}

for name, array in pairs(ARRAYS) do
  local check, key, switch, ctype, size, fill = array[1], array[2], array[3], array[4], array[5],
                                                array[6]
  Group[name] = function(...)
    local group = ...
    local g = check(group, 1, select("#", ...))
    if not ffi then B.call_error("needs LuaJIT's FFI, which " .. _VERSION .. " does not have") end
    if not g[switch] then
      g[key] = ffi.new("double[?]", size(g))
      fill(g, g[key])
      g[switch] = true
    end
    return pointer_of(group, g, key, ctype)
  end
end

--- every skeleton's transforms, skeleton after skeleton
function Group.transforms(...)
  local self, t = ...
  local n = select("#", ...)
  local g = check_skeleton_group(self, 1, n)
  t = B.table_arg(t, 2, n)
  ready_members(g)
  local next_index, offsets, list = 1, g.bone_offsets, g.skeletons
  -- a plain table: its sets are raw already (no rawset call each)
  local plain = getmetatable(t) == nil
  for i = 1, g.skeleton_count do
    local T = list[i].T
    if plain then
      for k = 1, offsets[i + 1] - offsets[i] do
        t[next_index] = T[k]
        next_index = next_index + 1
      end
    else
      for k = 1, offsets[i + 1] - offsets[i] do
        rawset(t, next_index, T[k])
        next_index = next_index + 1
      end
    end
  end
  if rawget(t, next_index) ~= nil then B.trim(t, next_index) end
  return t
end

-- every skeleton's bones' maps as drawn into t from t[at] on, 6 numbers a
-- bone, skeleton after skeleton
local function fill_matrices(g, t, at)
  local list = g.skeletons
  for i = 1, g.skeleton_count do
    local sk = list[i]
    skeleton.matrices(sk, t, at)
    at = at + 6 * sk.count
  end
end

--- every skeleton's bones' maps as drawn (sk:matrices), skeleton after
-- skeleton
function Group.matrices(...)
  local self, t = ...
  local n = select("#", ...)
  local g = check_skeleton_group(self, 1, n)
  t = B.table_arg(t, 2, n)
  ready_members(g)
  local last = 6 * g.bone_offsets[g.skeleton_count + 1] / skeleton.TRANSFORM
  if getmetatable(t) == nil then
    fill_matrices(g, t, 1)
  else
    local k = 0
    for i = 1, g.skeleton_count do
      local sk = g.skeletons[i]
      for b = 1, sk.count do
        local a, bb, c, d, x, y = skeleton.matrix(sk, b)
        rawset(t, k + 1, a)
        rawset(t, k + 2, bb)
        rawset(t, k + 3, c)
        rawset(t, k + 4, d)
        rawset(t, k + 5, x)
        rawset(t, k + 6, y)
        k = k + 6
      end
    end
  end
  if rawget(t, last + 1) ~= nil then B.trim(t, last + 1) end
  return t
end

--- LuaJIT: a const double * to every skeleton's maps as drawn, made
-- again by each call (as sk:matrix_array's)
function Group.matrix_array(...)
  local group = ...
  local g = check_skeleton_group(group, 1, select("#", ...))
  if not ffi then B.call_error("needs LuaJIT's FFI, which " .. _VERSION .. " does not have") end
  if not g.matrix_cdata then
    local bones = g.bone_offsets[g.skeleton_count + 1] / skeleton.TRANSFORM
    g.matrix_cdata = ffi.new("double[?]", 6 * bones)
  end
  ready_members(g)
  fill_matrices(g, g.matrix_cdata, 0)
  return pointer_of(group, g, "matrix_cdata", "const double *")
end

--- the 0-based index of skeleton i's first transform in the transform
-- array (and, plus one, in the table transforms fills)
function Group.transform_offset(...)
  local self, i = ...
  local n = select("#", ...)
  local g = skeletons_only(check_group(self, 1, n))
  i = B.whole_at(i, n >= 2, 2, "skeleton index")
  if i < 1 or i > g.skeleton_count then index_error(2, "skeleton", i, g.skeleton_count) end
  return g.bone_offsets[i]
end

--- every member's joints, x, y pairs, member after member
function Group.joints(...)
  local self, t = ...
  local n = select("#", ...)
  local g = check_live_group(self, 1, n)
  t = B.table_arg(t, 2, n)
  -- (a group of solvers: each member's skeleton readied in the loop)
  if g.skeleton_count > 0 then ready_members(g) end
  local list, next_index = g.solvers, 1
  if getmetatable(t) == nil then
    -- a plain table: its sets are raw already (no rawset call each)
    for i = 1, g.count do
      local ch = list[i].chain
      local link = ch.link
      if link and link.skeleton then skeleton.ready(link.skeleton) end
      local joints = ch.joints
      for k = 1, 2 * ch.count + 2 do
        t[next_index] = joints[k]
        next_index = next_index + 1
      end
    end
  else
    for i = 1, g.count do
      local ch = list[i].chain
      local link = ch.link
      if link and link.skeleton then skeleton.ready(link.skeleton) end
      local joints = ch.joints
      for k = 1, 2 * ch.count + 2 do
        rawset(t, next_index, joints[k])
        next_index = next_index + 1
      end
    end
  end
  if rawget(t, next_index) ~= nil then B.trim(t, next_index) end
  return t
end

local meta = {}
function meta.__len(...)
  local g = check_group(..., 1, select("#", ...))
  return g.skeleton_count > 0 and g.skeleton_count or g.count
end

function meta.__tostring(self)
  local g = groups[self]
  if not g or g.collected then return "ik2d.Group(collected)" end
  if g.skeleton_count > 0 then
    return format("ik2d.Group(%d skeletons, %d solvers)", g.skeleton_count, g.count)
  end
  return format("ik2d.Group(%d solvers)", g.count)
end

-- The instruction sets by name, as ik2d.use_isa takes them: the pure core
-- solves one chain at a time, which is what "scalar" names.
local ISA_NAMES = { "auto", "scalar", "sse2", "avx2", "avx512" }

--- ik2d.use_isa([name]): the set groups solve with; here always "scalar"
function M.use_isa(...)
  local name = ...
  if name ~= nil then B.choice_at(name, 1, "instruction set", ISA_NAMES) end
  return "scalar"
end

for name, f in pairs(meta) do O.mt.Group[name] = f end
B.register(Group, true)
B.register(meta, false)
B.register({ group = M.group, use_isa = M.use_isa }, false)

return M
