-- ik2d.rig.file: ik2d's own rig file (docs/ik2d-rig-file.md), written
-- from a rig's objects and read back to the same bits.
--
--   local text = file.write(rig)              -- rig:save()
--   local desc = file.read(decoded, name)     -- ik2d.rig.load's reader
--
-- The file is the rig description (docs/rig-format.md) as JSON, with
-- what ik2d adds: every solver setting, bones at their parents' tips, the
-- skeleton's base, springs and gaits.  The skeleton, its solvers,
-- transform constraints, order and springs are read from the objects
-- through their getters (what a game tuned in code is saved); slots,
-- skins, clips and events come from the rig's description.

local json = require "ik2d.rig.json"
local read_file = require "ik2d.rig.file_read"

local file = {}

local pairs, ipairs, next, type, error, format = pairs, ipairs, next, type, error, string.format
local huge = math.huge
--- the version of the format this module writes and reads
file.VERSION = 1

local SOLVER_OPTIONS = { "method", "iterations", "tolerance", "weight", "warm_start", "damping",
  "exact", "sweep", "bend", "softness", "softness_curve", "stretch", "compress", "uniform",
  "tip_angle", "tip_weight", "pole", "aim", "priority", "together" }

local CONSTRAINT_OPTIONS = { "mix_rotate", "mix_x", "mix_y", "mix_scale_x", "mix_scale_y",
  "mix_shear_y", "offset_rotation", "offset_x", "offset_y", "offset_scale_x", "offset_scale_y",
  "offset_shear_y", "local", "relative" }

local function fail(problem) error("ik2d.rig: save: " .. problem, 0) end

-- a deep copy of plain data (descriptions hold no cycles)
local function copy(v)
  if type(v) ~= "table" then return v end
  local out = {}
  for k, x in pairs(v) do out[k] = copy(x) end
  return out
end

-- a number as the file holds it: infinities as "inf" and "-inf"
local function num(x)
  if x == huge then return "inf" elseif x == -huge then return "-inf" end
  return x
end

-- ------------------------------------------------------------------
-- the skeleton
-- ------------------------------------------------------------------

local function limits_of(c, into)
  into.min, into.max = c:limits()
  into.invert = c:invert()
  return into
end

local function bone_of(sk, i, described, inherit)
  local b = { name = sk:name(i), length = sk:length(i), angle = sk:rest(i), inherit = inherit or sk:inherit(i) }
  local parent = sk:parent(i)
  if parent then b.parent = sk:name(parent) end
  if not sk:at_tip(i) then b.x, b.y = sk:origin(i) end
  local _, _, _, sx, sy, shx, shy = sk:setup(i)
  b.scale_x, b.scale_y, b.shear_x, b.shear_y = sx, sy, shx, shy
  local c = sk:constraint(i)
  if c then limits_of(c, b) end
  if described then b.color, b.skin = copy(described.color), described.skin end
  return b
end

local function skeleton_of(rig, out)
  local sk = rig.skeleton
  local described = {}
  for _, b in ipairs(rig.description and rig.description.bones or {}) do described[b.name] = b end
  out.bones = {}
  local inherit = rig._bone_inherit or {}
  for i = 1, #sk do out.bones[i] = bone_of(sk, i, described[sk:name(i)], inherit[i]) end
  local x, y, angle = sk:base()
  out.base = { x = x, y = y, angle = angle, flip = sk:flip() }
  local sx, sy = sk:scale()
  -- a y-up rig loaded y-down has its scale y turned: the file keeps the rig's own
  if rig._y_flipped then sy = -sy end
  out.scale, out.y_up = { sx, sy }, rig._y_flipped and true or nil
end

-- ------------------------------------------------------------------
-- solvers, constraints, order
-- ------------------------------------------------------------------

-- The ends of a chain on sk: { from } or { from, to }; what = who asks.
local function ends_of(chain, sk, what)
  local on, from, to = chain:skeleton()
  if on == nil then return nil end
  if on ~= sk then fail(what .. "'s chain is on another skeleton than the rig's") end
  return from == to and { from } or { from, to }
end

local function point(p, ...)
  if not p then return nil end
  local out = {}
  for i, key in ipairs({ ... }) do out[i] = p[i] or p[key] end
  return out
end

-- The set-up settings of the rig's solvers and constraints (what
-- rig:apply starts from), by object; a rig not yet made has its objects'.
local function setups_of(rig)
  local setup = {}
  for i, s in ipairs(rig._solver_list or {}) do setup[s] = rig._setup[i] end
  for i, tc in ipairs(rig._constraint_list or {}) do setup[tc] = rig._constraint_setup[i] end
  return setup
end

local function solver_of(s, name, sk, setup)
  local what = format("solver %q", name)
  local bones = ends_of(s:chain(), sk, what)
  if not bones then fail(what .. " is on a chain of no skeleton: a rig's solvers are on its skeleton") end
  local o, d = setup or s:options(), { name = name, bones = bones }
  for _, key in ipairs(SOLVER_OPTIONS) do d[key] = num(o[key]) end
  d.tip_angle = o.tip_angle or nil
  d.pole = point(o.pole, "x", "y")
  d.aim = point(o.aim, "x", "y", "angle")
  local on, bone, dx, dy = s:target_bone()
  if on ~= nil then
    if on ~= sk then fail(what .. "'s target is on another skeleton than the rig's") end
    d.target = { bone = bone, x = dx, y = dy }
  else
    local x, y = s:target()
    d.target = { x = x, y = y }
  end
  return d
end

local function constraint_of(tc, name, setup)
  local o, d = setup or tc:options(), { name = name }
  d.bones, d.target = copy(o.bones), o.target
  for _, key in ipairs(CONSTRAINT_OPTIONS) do d[key] = o[key] end
  return d
end

local sorted = require("ik2d.common").sorted_keys

-- name -> object to object -> name, refusing one object under two names
local function names_of(map, kind)
  local by_object = {}
  for _, name in ipairs(sorted(map)) do
    local object = map[name]
    if by_object[object] then
      fail(format("%s %q is also named %q", kind, name, by_object[object]))
    end
    by_object[object] = name
  end
  return by_object
end

-- Refuses an object of map that its skeleton's list does not have.
local function all_listed(map, listed, kind)
  local on = {}
  for _, object in ipairs(listed) do on[object] = true end
  for _, name in ipairs(sorted(map)) do
    if not on[map[name]] then
      local ok, owner = pcall(map[name].skeleton, map[name])
      if ok and owner ~= nil then fail(format("%s %q is on another skeleton than the rig's", kind, name)) end
      fail(format("%s %q is not on the rig's skeleton", kind, name))
    end
  end
end

local function solvers_of(rig, out)
  local sk, setup = rig.skeleton, setups_of(rig)
  local solver_name = names_of(rig.solvers, "solver")
  local listed = sk:solvers()
  for _, name in ipairs(sorted(rig.solvers)) do
    -- a solver on another skeleton's chain, or none: named by ends_of
    ends_of(rig.solvers[name]:chain(), sk, format("solver %q", name))
  end
  all_listed(rig.solvers, listed, "solver")
  out.solvers = {}
  -- the skeleton's order made: its solve's order when it has no other
  for k, s in ipairs(listed) do
    local name = solver_name[s]
    if not name then fail(format("solver %d of the skeleton is not in the rig's solvers", k)) end
    out.solvers[#out.solvers + 1] = solver_of(s, name, sk, setup[s])
  end
  local constraint_name = names_of(rig.constraints, "transform constraint")
  listed = sk:constraints()
  all_listed(rig.constraints, listed, "transform constraint")
  out.constraints = {}
  for k, tc in ipairs(listed) do
    local name = constraint_name[tc]
    if not name then fail(format("transform constraint %d of the skeleton is not in the rig's constraints", k)) end
    out.constraints[#out.constraints + 1] = constraint_of(tc, name, setup[tc])
  end
  local order = sk:order()
  if #order > 0 then
    out.order = {}
    for k, step in ipairs(order) do
      out.order[k] = solver_name[step] and { "solver", solver_name[step] }
        or { "constraint", constraint_name[step] }
    end
  end
  return solver_name
end

-- ------------------------------------------------------------------
-- springs and gaits
-- ------------------------------------------------------------------

local function chain_def(chain)
  local x, y, angle = chain:base()
  local d = { x = x, y = y, angle = angle, flip = chain:flip(), bones = {} }
  for i = 1, #chain do
    local b = { length = chain:length(i), angle = chain:rest(i) }
    local c = chain:constraint(i)
    if c then
      limits_of(c, b)
      b.space = c:space()
    end
    d.bones[i] = b
  end
  return d
end

local function spring_of(sp, name, sk)
  local what = format("spring %q", name)
  local chain = sp:chain()
  local d = { name = name, bones = ends_of(chain, sk, what) }
  if not d.bones then d.chain = chain_def(chain) end
  local o = sp:options()
  d.stiffness, d.damping, d.mass, d.weight = copy(o.stiffness), copy(o.damping), copy(o.mass), o.weight
  d.gravity, d.wind = point(o.gravity, "x", "y"), point(o.wind, "x", "y")
  local colliders = sp:colliders()
  if #colliders > 0 then d.colliders = colliders end
  return d
end

local function springs_of(rig, out)
  if not rig.springs or next(rig.springs) == nil then return end
  names_of(rig.springs, "spring")
  out.springs = {}
  for _, name in ipairs(sorted(rig.springs)) do
    out.springs[#out.springs + 1] = spring_of(rig.springs[name], name, rig.skeleton)
  end
end

local function gaits_of(rig, out)
  local defs = rig._gait_defs
  if not defs or next(defs) == nil then return end
  out.gaits = {}
  for _, name in ipairs(sorted(defs)) do
    local g = defs[name]
    if type(g.ground) == "function" then
      fail(format("gait %q: its ground is a function, which a file cannot hold (give segments)", name))
    end
    local d = copy(g)
    d.name = name
    out.gaits[#out.gaits + 1] = d
  end
end

-- ------------------------------------------------------------------
-- what the description holds: slots, skins, clips, events
-- ------------------------------------------------------------------

-- The clips without the keys of solvers and constraints the rig does not
-- have (a skin's, not built).
local function clips_of(desc, out)
  local solvers, constraints = {}, {}
  for _, s in ipairs(out.solvers) do solvers[s.name] = true end
  for _, c in ipairs(out.constraints) do constraints[c.name] = true end
  out.clips = {}
  for name, clip in pairs(desc.clips or {}) do
    local c = copy(clip)
    for key in pairs(c.solvers or {}) do if not solvers[key] then c.solvers[key] = nil end end
    for key in pairs(c.constraints or {}) do if not constraints[key] then c.constraints[key] = nil end end
    c.name = nil
    out.clips[name] = c
  end
end

local function kept(list, present)
  if not list then return nil end
  local out = {}
  for _, name in ipairs(list) do if present[name] then out[#out + 1] = name end end
  return out
end

local function skins_of(desc, out)
  local present = { bones = {}, solvers = {}, constraints = {} }
  for kind in pairs(present) do
    for _, part in ipairs(out[kind]) do present[kind][part.name] = true end
  end
  out.skins = {}
  for i, skin in ipairs(desc.skins or {}) do
    local s = copy(skin)
    for kind in pairs(present) do s[kind] = kept(s[kind], present[kind]) end
    out.skins[i] = s
  end
end

local function numbers_in(v)
  if type(v) == "number" then return num(v) end
  if type(v) ~= "table" then return v end
  for k, x in pairs(v) do v[k] = numbers_in(x) end
  return v
end

-- A rig whose bones and IK its tool's runtime rules place from its
-- description (DragonBones: rig._placer): the description's bones, IK
-- and order as read, the placement named, so that a load places them so
-- again.
local function placed_by_description(rig, desc, out)
  out.placement = desc.source and desc.source.format or desc.placement
  out.bones = copy(desc.bones)
  out.solvers = copy(desc.solvers or {})
  out.order = copy(desc.order)
  local constraint_name = names_of(rig.constraints or {}, "transform constraint")
  out.constraints = {}
  for _, tc in ipairs(rig.skeleton:constraints()) do
    out.constraints[#out.constraints + 1] = constraint_of(tc, constraint_name[tc])
  end
end

--- file.describe(rig) -> the rig as the file holds it (plain data)
function file.describe(rig)
  local desc = rig.description or {}
  local out = { ik2d = file.VERSION, name = desc.name, skin = rig._skin }
  -- where the rig came from first: an ik2d file's own, else its format
  out.from = copy(desc.from or desc.source)
  skeleton_of(rig, out)
  if rig._placer then
    placed_by_description(rig, desc, out)
  else
    solvers_of(rig, out)
  end
  springs_of(rig, out)
  gaits_of(rig, out)
  out.slots = copy(desc.slots or {})
  skins_of(desc, out)
  clips_of(desc, out)
  out.events = copy(desc.events or {})
  if desc.unsupported and #desc.unsupported > 0 then out.unsupported = copy(desc.unsupported) end
  return numbers_in(out)
end

--- file.write(rig) -> the rig file's JSON text
function file.write(rig)
  return json.encode(file.describe(rig), "ik2d")
end

--- file.read(decoded, name) -> the rig description of a decoded ik2d rig
-- file, raising "<file>: <where>: <problem>" when it is malformed.
file.read = read_file.read

--- file.try_read(decoded, name) -> the description, or nil and the message
function file.try_read(decoded, name)
  local ok, result = pcall(read_file.read, decoded, name)
  if ok then return result end
  return nil, result
end

return file
