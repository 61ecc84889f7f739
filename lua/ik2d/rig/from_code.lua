-- ik2d.rig.from_code: the parts of ik2d.rig.new's rig, of objects made in
-- code: its skeleton, solvers, transform constraints, springs and gaits as
-- they are, and the slots, skins, clips and events given in the rig
-- description's form (docs/rig-format.md).  What it takes is what a rig
-- file holds: the whole is checked by the file's reader, with its
-- messages, before anything is made.

local file = require "ik2d.rig.file"
local file_read = require "ik2d.rig.file_read"
local build = require "ik2d.rig.build"
local common = require "ik2d.common"

local M = {}

local type, pairs, ipairs, next, error, format = type, pairs, ipairs, next, error, string.format
local show = common.show

local FIELDS = { skeleton = true, solvers = true, constraints = true, springs = true, gaits = true,
  slots = true, skins = true, clips = true, events = true, name = true, skin = true }

local function fail(problem) error("ik2d.rig: new: " .. problem, 0) end

-- name -> object from a map or a list (kind k: "<kind> k"), with the
-- objects of all (the skeleton's) left out named "<kind> k" by place.
local function named(given, all, kind)
  local map, seen = {}, {}
  if given ~= nil and type(given) ~= "table" then
    fail(format("%ss must be a table of names to objects, or a list, got %s", kind, show(given)))
  end
  for key, object in pairs(given or {}) do
    local name = type(key) == "number" and format("%s %d", kind, key) or key
    if type(name) ~= "string" then fail(format("%ss: a name must be a string, got %s", kind, show(key))) end
    map[name], seen[object] = object, true
  end
  for k, object in ipairs(all or {}) do
    if not seen[object] then
      local name = format("%s %d", kind, k)
      if map[name] then fail(format("%ss: %q names another %s than the skeleton's %d", kind, name, kind, k)) end
      map[name] = object
    end
  end
  return map
end

-- the gaits' definitions (legs' solvers by name) and the callbacks kept aside
local function gait_defs(gaits, solver_name)
  local defs, callbacks = {}, {}
  for name, g in pairs(gaits or {}) do
    if type(name) ~= "string" or type(g) ~= "table" then
      fail("gaits must map names to gait.new's options, got " .. show(g))
    end
    local d = {}
    for k, v in pairs(g) do d[k] = v end
    callbacks[name], d.on_step = g.on_step, nil
    d.legs = {}
    for i, leg in ipairs(type(g.legs) == "table" and g.legs or {}) do
      local l = {}
      for k, v in pairs(leg) do l[k] = v end
      if type(leg.solver) ~= "string" then
        l.solver = solver_name[leg.solver]
        if not l.solver then fail(format("gaits[%q].legs[%d].solver is not one of the rig's solvers", name, i)) end
      end
      d.legs[i] = l
    end
    defs[name] = d
  end
  return defs, callbacks
end

local function lists(desc, objects, kind)
  local list, index = {}, {}
  for _, d in ipairs(desc[kind]) do
    list[#list + 1] = objects[d.name]
    index[d.name] = #list
  end
  return list, index
end

--- gather(t, core) -> the rig's description and its parts (raises
-- "ik2d.rig: new: <problem>")
function M.gather(t, core)
  if type(t) ~= "table" then fail("its argument must be a table, got " .. show(t)) end
  for key in pairs(t) do
    if not FIELDS[key] then fail("unknown field " .. show(key)) end
  end
  local sk = t.skeleton
  local ok = pcall(function() return sk:at_tip(1) end)
  if not ok then fail("skeleton must be an ik2d skeleton, got " .. show(sk)) end
  local solvers = named(t.solvers, sk:solvers(), "solver")
  local constraints = named(t.constraints, sk:constraints(), "constraint")
  local springs = named(t.springs, nil, "spring")
  local solver_name = {}
  for name, s in pairs(solvers) do solver_name[s] = name end
  local defs, callbacks = gait_defs(t.gaits, solver_name)
  local pseudo = { skeleton = sk, solvers = solvers, constraints = constraints, springs = springs,
    _gait_defs = defs, _skin = t.skin,
    description = { name = t.name, slots = t.slots, skins = t.skins, clips = t.clips, events = t.events } }
  local described_ok, described = pcall(file.describe, pseudo)
  if not described_ok then fail((tostring(described):gsub("^ik2d%.rig: save: ", ""))) end
  local desc = file_read.read(described, "ik2d.rig: new")
  local parts = { skeleton = sk, solvers = solvers, constraints = constraints, springs = springs, gaits = {} }
  parts.solver_list, parts.solver_index = lists(desc, solvers, "solvers")
  parts.constraint_list, parts.constraint_index = lists(desc, constraints, "constraints")
  local gait = next(defs) and require "ik2d.gait"
  for name, d in pairs(defs) do
    local options = build.gait_options(d, solvers)
    options.on_step = callbacks[name]
    parts.gaits[name] = gait.new(options)
  end
  build.around(desc, parts, { skin = desc.skin }, core)
  return desc, parts
end

return M
