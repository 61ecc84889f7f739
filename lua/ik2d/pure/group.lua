--- ik2d.pure.group: ik2d.group for Lua (src/lua/luaik_group.c): many
-- solvers solved, targeted and read in one call each a frame, and under
-- LuaJIT the target and joint arrays.  The C core solves a group's CCD
-- chains side by side (in the lanes of an instruction set) with exactly
-- the bits of solving them one by one in list order; here they are
-- solved so: the pure core's one instruction set is "scalar".
local B = require "ik2d.pure.binding"
local O = require "ik2d.pure.objects"
local solvers = require "ik2d.pure.solver"
local pose = require "ik2d.pure.pose"
local binding_solver = require "ik2d.pure.binding_solver"

local type, select, rawget, rawset, tonumber = type, select, rawget, rawset, tonumber
local getmetatable = getmetatable
local format = string.format
local rawlen = rawget(_G, "rawlen") or function(t) return #t end
local arg_error, type_error, index_error = B.arg_error, B.type_error, B.index_error
local is_table, typename = B.is_table, B.typename
local check_solver = binding_solver.check_solver
local solve, check_target, set_target = solvers.solve, solvers.check_target, solvers.set_target

local groups, new_group = O.objects.Group, O.new.Group
local solvers_of = O.objects.Solver
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
  local list = g.solvers
  for i = 1, g.count do
    local sv = list[i]
    if sv.collected then arg_error(arg, format("solver %d was collected", i)) end
    if sv.chain.collected then arg_error(arg, format("solver %d: chain was collected", i)) end
  end
  g.alive_at = count
  return g
end

function M.group(...)
  local t, n = ..., select("#", ...)
  if not is_table(t) then type_error(1, "table", t, n) end
  local count = rawlen(t)
  -- every item a live solver, none twice
  local seen = {}
  for i = 1, count do
    local item = rawget(t, i)
    if not solvers_of[item] then
      arg_error(1, format("item %d: ik2d.Solver expected, got %s", i, typename(item)))
    end
    -- the C binding checks the item where it pushed it: stack slot 3
    check_solver(item, 3, 3)
    if seen[item] then arg_error(1, format("item %d: the solver of item %d again", i, seen[item])) end
    seen[item] = i
  end
  -- offsets[i]: the 0-based index of member i's first joint in the joint
  -- array, offsets[count + 1] their total
  local g = { count = count, solvers = {}, scratch = {}, offsets = { 0 }, anchor = {},
              read_targets = false, write_joints = false, alive_at = -1, pose = false }
  local bones = 1
  for i = 1, count do
    local item = rawget(t, i)
    local sv = solvers_of[item]
    g.solvers[i] = sv
    -- the group keeps its solvers
    g.anchor[i] = item
    g.scratch[2 * i - 1], g.scratch[2 * i] = 0.0, 0.0
    g.offsets[i + 1] = g.offsets[i] + 2 * (sv.chain.count + 1)
    if sv.chain.count > bones then bones = sv.chain.count end
  end
  -- the pose its solves work on, its own
  g.pose = pose.new(bones)
  return new_group(g)
end

function Group.solver(...)
  local self, i = ...
  local n = select("#", ...)
  local g = check_group(self, 1, n)
  i = B.whole_at(i, n >= 2, 2, "solver index")
  if i < 1 or i > g.count then index_error(2, "solver", i, g.count) end
  return g.anchor[i]
end

-- every member's joints into the joint array
local function copy_joints(g)
  local list, offsets, joints = g.solvers, g.offsets, g.joints
  for i = 1, g.count do
    local from, at = list[i].chain.joints, offsets[i]
    for k = 1, offsets[i + 1] - at do joints[at + k - 1] = from[k] end
  end
end

function Group.solve(...)
  local g = check_live_group(..., 1, select("#", ...))
  local list, count = g.solvers, g.count
  if g.read_targets then
    -- the targets from the target array, all checked before any is kept
    local targets = g.targets
    for k = 1, count do
      local status = check_target(targets[2 * k - 2], targets[2 * k - 1])
      if status then
        arg_error(1, format("target array [%d]: %s", 2 * k - 2 + (status == "TARGET_Y" and 1 or 0),
                            B.status_message(status)))
      end
    end
    for k = 1, count do
      local sv = list[k]
      -- a world target: one on a bone goes, and the hold on its skeleton
      if sv.target_skeleton then sv.target_anchor, sv.target_names = nil, nil end
      set_target(sv, targets[2 * k - 2], targets[2 * k - 1])
    end
  end
  local reached, P = 0, g.pose
  for i = 1, count do
    if solve(list[i], P) then reached = reached + 1 end
  end
  if g.write_joints then copy_joints(g) end
  return reached
end

--- every member's target from t = { x1, y1, x2, y2, ... }: the table
-- checked whole, then every target before any is kept
function Group.set_targets(...)
  local self, t = ...
  local n = select("#", ...)
  local g = check_live_group(self, 1, n)
  if not is_table(t) then type_error(2, "table", t, n) end
  local count, scratch = g.count, g.scratch
  local length = rawlen(t)
  if length ~= 2 * count then
    arg_error(2, format("%d numbers expected (x, y for each of %d solvers), got %d", 2 * count,
                        count, length))
  end
  -- (a table without a metatable reads raw without rawget's call)
  local plain = getmetatable(t) == nil
  for i = 1, 2 * count do
    local v
    if plain then v = t[i] else v = rawget(t, i) end
    if type(v) ~= "number" then
      v = type(v) == "string" and tonumber(v)
      if not v then B.number_at(rawget(t, i), true, 2, format("item %d", i)) end
    end
    scratch[i] = v * 1.0
  end
  for k = 1, count do
    local x, y = scratch[2 * k - 1], scratch[2 * k]
    -- finite (check_target's test, written out)
    if not (x - x == 0 and y - y == 0) then
      local status = check_target(x, y)
      arg_error(2, format("item %d: %s", 2 * k - 2 + (status == "TARGET_Y" and 2 or 1),
                          B.status_message(status)))
    end
  end
  -- every one checked: kept
  local list = g.solvers
  for k = 1, count do
    local sv = list[k]
    if sv.target_skeleton then sv.target_anchor, sv.target_names = nil, nil end
    set_target(sv, scratch[2 * k - 1], scratch[2 * k])
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

-- The arrays (LuaJIT's FFI): a double * that solve reads the targets
-- from, a const double * solve writes the joints to, from the first time
-- each is asked for (filled with the targets and joints of then), owned
-- by the group (B.pointer: the pointer keeps the group alive).
local pointer_of = B.pointer

function Group.target_array(...)
  local group = ...
  local g = check_live_group(group, 1, select("#", ...))
  if not ffi then B.call_error("needs LuaJIT's FFI, which " .. _VERSION .. " does not have") end
  if not g.read_targets then
    local targets = ffi.new("double[?]", 2 * g.count)
    for i = 1, g.count do
      targets[2 * i - 2], targets[2 * i - 1] = solvers.target(g.solvers[i])
    end
    g.targets, g.read_targets = targets, true
  end
  return pointer_of(group, g, "targets", "double *")
end

function Group.joint_array(...)
  local group = ...
  local g = check_live_group(group, 1, select("#", ...))
  if not ffi then B.call_error("needs LuaJIT's FFI, which " .. _VERSION .. " does not have") end
  if not g.write_joints then
    g.joints = ffi.new("double[?]", g.offsets[g.count + 1])
    copy_joints(g)
    g.write_joints = true
  end
  return pointer_of(group, g, "joints", "const double *")
end

--- every member's joints, x, y pairs, member after member
function Group.joints(...)
  local self, t = ...
  local n = select("#", ...)
  local g = check_live_group(self, 1, n)
  t = B.table_arg(t, 2, n)
  local list, next_index = g.solvers, 1
  if getmetatable(t) == nil then
    -- a plain table: its sets are raw already (no rawset call each)
    for i = 1, g.count do
      local ch = list[i].chain
      local joints = ch.joints
      for k = 1, 2 * ch.count + 2 do
        t[next_index] = joints[k]
        next_index = next_index + 1
      end
    end
  else
    for i = 1, g.count do
      local ch = list[i].chain
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
  return check_group(..., 1, select("#", ...)).count
end

function meta.__tostring(self)
  local g = groups[self]
  if not g or g.collected then return "ik2d.Group(collected)" end
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
