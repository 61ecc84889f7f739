--- ik2d.pure.chain: chains and their forward kinematics (src/ik2d_chain.c).
-- A chain is a table of per-bone arrays (1-based: bone i of the C core is
-- i + 1 here) and the result joints as one flat array of x, y pairs from
-- the base to the tip, as the C core keeps them.
local api = require "ik2d.api"
local defs = require "ik2d.pure.defs"
local checks = require "ik2d.pure.checks"
local m = require "ik2d.pure.math"

local rot, same_bits = m.rot, m.same_bits
local PI, wrap = m.PI, m.wrap

local M = {}

M.MAX_BONES = defs.constant("MAX_BONES")

local function finite(x) return x - x == 0 end

-- JOINT_AT[n][i]: where joint i's x is in the joints of a chain of n
-- bones, for the whole numbers 1 .. n + 1 only (any other key, a float
-- with another value, NaN, nil or a string, finds nothing): a reader
-- checks an index with one lookup.  Read-only, shared by the chains of n
-- bones.
local JOINT_AT = {}
for n = 1, M.MAX_BONES do
  local at = {}
  for i = 1, n + 1 do at[i] = 2 * i - 1 end
  JOINT_AT[n] = at
end

--- a base angle as kept: (-pi, pi]
local function base_angle(angle)
  -- (wrap's in-range case inline: a call a chain a frame)
  local wrapped = angle
  if not (angle >= -PI and angle < PI) then wrapped = wrap(angle) end
  if wrapped == -PI then return PI end
  return wrapped
end
M.base_angle = base_angle

--- the base (x, y) and its angle, kept with its rotation
local function keep_base(ch, x, y, angle)
  ch.base_x, ch.base_y = x, y
  local wrapped = base_angle(angle)
  ch.base_angle = wrapped
  ch.base_c, ch.base_s = rot(wrapped)
end
M.keep_base = keep_base

--- nil or the status of a base (x, y, angle) for chains and skeletons
-- (ik2d__chain_check_base)
local check_base = checks.values(api.chain, { "x", "y", "angle" })
M.check_base = check_base

--- nil or the status of a bone's length and rest angle
M.check_bone = checks.values(api.bone, { "length", "rest" })
local check_length = checks.values(api.bone, { "length" })
local check_rest = checks.values(api.bone, { "rest" })

-- The rules of lua/ik2d/api.lua's chain, named as in src/ik2d_chain.c,
-- on the def M.new takes.
local RULES = {}

-- every bone as M.check_bone checks it; with pivots (a skeleton's chains)
-- a bone of length 0 too
function RULES.chain_bones_valid(def, pivots)
  for i = 1, def.count do
    local length = def.length[i]
    if pivots and length == 0.0 then length = 1.0 end
    local status = M.check_bone(length, def.rest[i])
    if status then return status end
  end
  return nil
end

-- the lengths add up to a finite reach
function RULES.chain_reach_finite(def)
  local reach = 0.0
  for i = 1, def.count do reach = reach + def.length[i] end
  return finite(reach)
end

local check_def = checks.def(api.chain, RULES, { bone_count = "count" })

--- Joints from base, result angles and scale (ik2d__chain_update_joints).
local function update_joints(ch)
  local x, y, world, scale = ch.base_x, ch.base_y, ch.base_angle, ch.scale
  local joints, length, angle = ch.joints, ch.length, ch.angle
  local n = ch.count
  joints[1], joints[2] = x, y
  for i = 1, n do
    -- wrapped at each step: rest angles near 1e308 would sum to inf
    world = wrap(world + angle[i])
    local dir_c, dir_s = rot(world)
    x = x + length[i] * scale * dir_c
    y = y + length[i] * scale * dir_s
    joints[2 * i + 1], joints[2 * i + 2] = x, y
  end
  if ch.flip then
    local bx = ch.base_x
    for i = 1, n do joints[2 * i + 1] = 2.0 * bx - joints[2 * i + 1] end
  end
end
M.update_joints = update_joints

--- Pose and result back to the rest angles (scale 1); nothing on a
-- skeleton's chain (its angles are the skeleton's).
function M.reset(ch)
  if ch.link then return end
  local pose, angle, rest = ch.pose, ch.angle, ch.rest
  for i = 1, ch.count do
    pose[i] = rest[i]
    angle[i] = rest[i]
  end
  ch.scale = 1.0
  update_joints(ch)
end

--- A chain from def { count =, length = {}, rest = {}, constraint = {}
-- (false: free), x =, y =, angle =, flip = }, or nil and the status.
-- pivots: bones of length 0 are allowed (a skeleton's chains).
function M.new(def, pivots)
  local status = check_def(def, pivots)
  if status then return nil, status end
  local n = def.count
  local ch = {
    count = n, flip = def.flip, reach = 0.0, scale = 1.0, uniform = false,
    length = {}, rest = {}, rest_c = {}, rest_s = {}, pose = {}, angle = {},
    constraint = {}, joints = {}, joint_at = JOINT_AT[n],
  }
  for i = 1, n do
    local rest = def.rest[i]
    ch.length[i], ch.rest[i] = def.length[i], rest
    ch.rest_c[i], ch.rest_s[i] = rot(rest)
    ch.constraint[i] = def.constraint[i]
    ch.reach = ch.reach + def.length[i]
  end
  keep_base(ch, def.x, def.y, def.angle)
  M.reset(ch)
  return ch
end

-- The edits below refuse a skeleton's chain (LINKED): the binding says
-- so before, but for a chain whose skeleton was finalised (its __gc
-- called by hand), whose edits reach the core as they do the C core's.

function M.set_base(ch, x, y, angle)
  if ch.link then return "LINKED" end
  local status = check_base(x, y, angle)
  if status then return status end
  -- the base it has: nothing to place again (not a bit moves)
  if same_bits(x, ch.base_x) and same_bits(y, ch.base_y) and
     same_bits(base_angle(angle), ch.base_angle) then
    return nil
  end
  keep_base(ch, x, y, angle)
  update_joints(ch)
  return nil
end

function M.set_flip(ch, flip)
  if ch.link then return "LINKED" end
  if flip == ch.flip then return nil end
  ch.flip = flip
  update_joints(ch)
  return nil
end

function M.set_pose(ch, i, angle)
  if ch.link then return "LINKED" end
  if not (i >= 1 and i <= ch.count) then return "INDEX" end
  if not finite(angle) then return "POSE" end
  if same_bits(ch.pose[i], angle) and same_bits(ch.angle[i], angle) and ch.scale == 1.0 then
    return nil
  end
  ch.pose[i] = angle
  ch.angle[i] = angle
  ch.scale = 1.0
  update_joints(ch)
  return nil
end

--- bone i's length (> 0; the reach, summed afresh, follows)
function M.set_length(ch, i, length)
  if ch.link then return "LINKED" end
  if not (i >= 1 and i <= ch.count) then return "INDEX" end
  local status = check_length(length)
  if status then return status end
  -- summed afresh, not adjusted: no rounding accumulates over edits
  local reach, lengths = 0.0, ch.length
  for k = 1, ch.count do
    if k == i then reach = reach + length else reach = reach + lengths[k] end
  end
  if not finite(reach) then return "REACH" end
  if same_bits(lengths[i], length) then return nil end
  lengths[i] = length
  ch.reach = reach
  update_joints(ch)
  return nil
end

--- bone i's rest angle: the pose and the result keep their angles, the
-- limits (relative to it) move with it
function M.set_rest(ch, i, angle)
  if ch.link then return "LINKED" end
  if not (i >= 1 and i <= ch.count) then return "INDEX" end
  local status = check_rest(angle)
  if status then return status end
  if same_bits(ch.rest[i], angle) then return nil end
  ch.rest[i] = angle
  ch.rest_c[i], ch.rest_s[i] = rot(angle)
  -- the joints are made the angles' again, as a skeleton's are
  update_joints(ch)
  return nil
end

--- bone i's limit (a core constraint, or false: free); a chain of a
-- skeleton keeps the skeleton's limits, even once the skeleton went
function M.set_constraint(ch, i, limit)
  if not (i >= 1 and i <= ch.count) then return "INDEX" end
  if not ch.link then ch.constraint[i] = limit end
  return nil
end

--- world direction of bone i in the result, mirrored when flipped
function M.world_angle(ch, i)
  local world, angle = ch.base_angle, ch.angle
  -- wrapped at each step, as the joints are
  for k = 1, i do world = wrap(world + angle[k]) end
  -- mirroring about a vertical line maps a direction phi to pi - phi
  if ch.flip then return wrap(PI - world) end
  return world
end

return M
