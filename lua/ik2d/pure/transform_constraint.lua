--- ik2d.pure.transform_constraint: transform constraints on a skeleton
-- (src/ik2d_transform_constraint.c), term for term.  A constraint is a
-- table: is_transform_constraint (how a skeleton's order tells it from a
-- solver), its skeleton (false once released), its settings (the def
-- lua/ik2d/api.lua describes, flat, its bones its own list of 1-based
-- bone indices, target one too) and the mixes and offsets as
-- ik2d.pure.transform takes them.  Applying it is the bone model's work:
-- in world space each bone's map moves by the target's and the local
-- transform that places it there is worked out; in local space the local
-- transforms move and the bones are placed from them.
local api = require "ik2d.api"
local defs = require "ik2d.pure.defs"
local checks = require "ik2d.pure.checks"
local skeleton = require "ik2d.pure.skeleton"
local bone_model = require "ik2d.pure.bone"
local transform = require "ik2d.pure.transform"

local local_from_world = bone_model.local_from_world

local M = {}

local KEYS, default_def = defs.of(api.transform_constraint)

--- a def at its defaults (bones: an empty list, target 1: the first bone)
function M.default_def()
  local def = default_def()
  def.bones, def.target = {}, 1
  return def
end

--- every setting of def into to (its bones copied into to's own list)
local function copy_def(from, to)
  local bones = to.bones
  for k = 1, #KEYS do
    local key = KEYS[k]
    to[key] = from[key]
  end
  if not bones or bones == from.bones then bones = {} end
  local source = from.bones
  for i = 1, from.bone_count do bones[i] = source[i] end
  for i = #bones, from.bone_count + 1, -1 do bones[i] = nil end
  to.bones = bones
  return to
end
M.copy_def = copy_def

-- The rule of lua/ik2d/api.lua's transform constraint, named as in
-- src/ik2d_transform_constraint.c: each bone and the target a bone of the
-- skeleton, no bone twice, the target none of them (the bones before a
-- bone are the ones its C twin has seen).
local RULES = {}
function RULES.constraint_bones_valid(def, sk)
  local n, target, bones = sk.count, def.target, def.bones
  if target < 1 or target > n then return "CONSTRAINT_BONE" end
  for i = 1, def.bone_count do
    local b = bones[i]
    if b < 1 or b > n then return "CONSTRAINT_BONE" end
    for j = 1, i - 1 do
      if bones[j] == b then return "CONSTRAINT_TWICE" end
    end
    if b == target then return "CONSTRAINT_TARGET" end
  end
  return nil
end

--- nil, or the status of def on the skeleton sk
local check_def = checks.def(api.transform_constraint, RULES)
M.check = check_def

-- Keeps a checked def, and its mixes and offsets as the maths takes them.
local function keep_def(tc, def)
  local settings = tc.settings
  if def ~= settings then copy_def(def, settings) end
  -- (as a solver's: every change of the settings comes here)
  tc.revision = tc.revision + 1
  local mix, offset = tc.mix, tc.offset
  mix.rotate, mix.x, mix.y = settings.mix_rotate, settings.mix_x, settings.mix_y
  mix.scale_x, mix.scale_y, mix.shear_y = settings.mix_scale_x, settings.mix_scale_y,
    settings.mix_shear_y
  offset.rotate, offset.x, offset.y = settings.offset_rotation, settings.offset_x,
    settings.offset_y
  offset.scale_x, offset.scale_y, offset.shear_y = settings.offset_scale_x,
    settings.offset_scale_y, settings.offset_shear_y
end

--- A constraint on sk from def, joined to its constraints (last); or nil
-- and the status.
function M.new(sk, def)
  local status = check_def(def, sk)
  if status then return nil, status end
  local tc = { is_transform_constraint = true, skeleton = sk, settings = { bones = {} },
               mix = {}, offset = {}, revision = 0 }
  if not skeleton.link_constraint(sk, tc) then return nil, "SKELETON_CONSTRAINTS" end
  keep_def(tc, def)
  return tc
end

--- it leaves its skeleton (and its order)
function M.release(tc)
  local sk = tc.skeleton
  if not sk then return end
  skeleton.unlink_constraint(sk, tc)
  tc.skeleton = false
end

--- Every setting at once, all checked before any is kept; the bone count
-- is the constraint's own.  nil or the status.
function M.set_def(tc, def)
  local sk = tc.skeleton
  if not sk then return "NULL" end
  if def.bone_count ~= tc.settings.bone_count then return "CONSTRAINT_BONES" end
  local status = check_def(def, sk)
  if not status then keep_def(tc, def) end
  return status
end

-- The skeleton's constraint state, made at its first: maps as tables
-- (ik2d.pure.transform's), local transform records and the marks of
-- ik2d.pure.skeleton's worlds_moved.
local function work_of(sk)
  local work = sk.constraint_work
  if not work then
    work = { bone = {}, target = {}, a = skeleton.new_local(), b = skeleton.new_local(),
             kept = {}, moved = {} }
    sk.constraint_work = work
  end
  return work
end

-- bone b's map into the table m
local function map_of(sk, b, m)
  m.a, m.b, m.c, m.d, m.x, m.y = sk.wa[b], sk.wb[b], sk.wc[b], sk.wd[b], sk.wx[b], sk.wy[b]
  return m
end

-- every part of a local transform record finite
local function local_finite(l)
  return l.x - l.x == 0 and l.y - l.y == 0 and l.angle - l.angle == 0 and
    l.scale_x - l.scale_x == 0 and l.scale_y - l.scale_y == 0 and l.shear_x - l.shear_x == 0 and
    l.shear_y - l.shear_y == 0
end

-- World space: bone b's map moves by the target's (the maps as they were
-- before this constraint: a bone below another of its bones is not placed
-- from that one first), and its local transform becomes what places it
-- there.  Whether it moved: maps beyond the doubles (mixes that large,
-- or a skeleton so) leave the bone as it was, its pose finite.
local function apply_world(sk, work, b, target, mix, offset, relative)
  local m = map_of(sk, b, work.bone)
  local before = skeleton.local_of(sk, b, work.a)
  transform.world(mix, offset, relative, map_of(sk, target, work.target), m)
  local p = sk.parent[b]
  local after = work.b
  local pa, pb, pc, pd, px, py
  if p > 0 then pa, pb, pc, pd, px, py = sk.wa[p], sk.wb[p], sk.wc[p], sk.wd[p], sk.wx[p], sk.wy[p] end
  after.x, after.y, after.angle, after.scale_x, after.scale_y, after.shear_x, after.shear_y =
    local_from_world(pa, pb, pc, pd, px, py, m.a, m.b, m.c, m.d, m.x, m.y, sk.inherit[b],
      sk.scale_x, sk.scale_y, before.x, before.y)
  if not local_finite(after) then return false end
  skeleton.set_local(sk, b, after)
  sk.wa[b], sk.wb[b], sk.wc[b], sk.wd[b], sk.wx[b], sk.wy[b] = m.a, m.b, m.c, m.d, m.x, m.y
  return true
end

-- Local space: bone b's local transform moves by the target's, and b and
-- the bones below are placed from it (unless it is no longer finite).
local function apply_local(sk, work, b, target, mix, offset, relative)
  local l = skeleton.local_of(sk, b, work.a)
  transform.localwise(mix, offset, relative, skeleton.local_of(sk, target, work.b), l)
  if not local_finite(l) then return end
  skeleton.set_local(sk, b, l)
  skeleton.moved(sk, b)
end

--- Applied now, as the skeleton's solve applies it in its order: the
-- bones moved and the bones below placed again (the skeleton turns
-- general).
function M.apply(tc)
  local sk = tc.skeleton
  if not sk then return end
  local d = tc.settings
  skeleton.make_general(sk)
  skeleton.settle(sk)
  local work, mix, offset = work_of(sk), tc.mix, tc.offset
  local bones, target, relative = d.bones, d.target, d.relative
  if d["local"] then
    for i = 1, d.bone_count do apply_local(sk, work, bones[i], target, mix, offset, relative) end
    return
  end
  local kept = work.kept
  for b = 1, sk.count do kept[b] = false end
  for i = 1, d.bone_count do
    kept[bones[i]] = apply_world(sk, work, bones[i], target, mix, offset, relative)
  end
  -- each bone keeps its new map; the bones below them follow
  skeleton.worlds_moved(sk, kept, work.moved)
end

return M
