--- ik2d.pure.group: ik2d.group for Lua (src/lua/luaik_group.c): many
-- solvers solved, targeted and read in one call each a frame.  The C core
-- solves a group's CCD chains side by side with exactly the bits of
-- solving them one by one in list order; here they are solved so.
local B = require "ik2d.pure.binding"
local O = require "ik2d.pure.objects"
local solvers = require "ik2d.pure.solver"
local binding_solver = require "ik2d.pure.binding_solver"

local type, select, rawget, rawset, tonumber = type, select, rawget, rawset, tonumber
local format = string.format
local rawlen = rawget(_G, "rawlen") or function(t) return #t end
local arg_error, type_error, index_error = B.arg_error, B.type_error, B.index_error
local is_table, typename = B.is_table, B.typename
local check_solver = binding_solver.check_solver
local solve, check_target = solvers.solve, solvers.check_target

local groups, new_group = O.objects.Group, O.new.Group
local solvers_of = O.objects.Solver
local Group = O.methods.Group

local M = {}

local function check_group(v, arg, n)
  local g = groups[v]
  if not g then type_error(arg, "ik2d.Group", v, n) end
  if g.collected then arg_error(arg, "group was collected") end
  return g
end

-- the group, its members and their chains all alive
local function check_live_group(v, arg, n)
  local g = groups[v]
  if not g or g.collected then g = check_group(v, arg, n) end
  local list = g.solvers
  for i = 1, g.count do
    local sv = list[i]
    if sv.collected then arg_error(arg, format("solver %d was collected", i)) end
    if sv.chain.collected then arg_error(arg, format("solver %d: chain was collected", i)) end
  end
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
  local g = { count = count, solvers = {}, targets = {}, anchor = {} }
  for i = 1, count do
    local item = rawget(t, i)
    g.solvers[i] = solvers_of[item]
    -- the group keeps its solvers
    g.anchor[i] = item
    g.targets[2 * i - 1], g.targets[2 * i] = 0.0, 0.0
  end
  return new_group(g)
end

function Group.solver(...)
  local self, i = ...
  local n = select("#", ...)
  local g = check_group(self, 1, n)
  i = B.whole_at(i, n >= 2, 2, "solver index")
  if i < 1 or i > g.count then index_error(2, "solver", g.count) end
  return g.anchor[i]
end

function Group.solve(...)
  local g = check_live_group(..., 1, select("#", ...))
  local list, reached = g.solvers, 0
  for i = 1, g.count do
    if solve(list[i]) then reached = reached + 1 end
  end
  return reached
end

--- every member's target from t = { x1, y1, x2, y2, ... }: the table
-- checked whole, then every target before any is kept
function Group.set_targets(...)
  local self, t = ...
  local n = select("#", ...)
  local g = check_live_group(self, 1, n)
  if not is_table(t) then type_error(2, "table", t, n) end
  local count, targets = g.count, g.targets
  local length = rawlen(t)
  if length ~= 2 * count then
    arg_error(2, format("%d numbers expected (x, y for each of %d solvers), got %d", 2 * count,
                        count, length))
  end
  for i = 1, 2 * count do
    local v = rawget(t, i)
    if type(v) ~= "number" then
      v = type(v) == "string" and tonumber(v)
      if not v then B.number_at(rawget(t, i), true, 2, format("item %d", i)) end
    end
    targets[i] = v * 1.0
  end
  for k = 1, count do
    local status = check_target(targets[2 * k - 1], targets[2 * k])
    if status then
      arg_error(2, format("item %d: %s", 2 * k - 2 + (status == "TARGET_Y" and 2 or 1),
                          B.status_message(status)))
    end
  end
  local list = g.solvers
  for k = 1, count do solvers.set_target(list[k], targets[2 * k - 1], targets[2 * k]) end
end

--- every member's joints, x, y pairs, member after member
function Group.joints(...)
  local self, t = ...
  local n = select("#", ...)
  local g = check_live_group(self, 1, n)
  t = B.table_arg(t, 2, n)
  local list, next_index = g.solvers, 1
  for i = 1, g.count do
    local ch = list[i].chain
    local joints = ch.joints
    for k = 1, 2 * ch.count + 2 do
      rawset(t, next_index, joints[k])
      next_index = next_index + 1
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

for name, f in pairs(meta) do O.mt.Group[name] = f end
B.register(Group, true)
B.register(meta, false)
B.register({ group = M.group }, false)

return M
