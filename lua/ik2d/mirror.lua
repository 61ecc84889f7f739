-- ik2d.mirror_bones(bones [, rename]) --> bones: the other side of a rig.
--
-- A left leg's bone definitions (for ik2d.chain or ik2d.skeleton) made
-- into the right leg's: mirrored across the parent's axis, so in every
-- bone's frame y becomes -y and an angle a becomes -a.  That negates the
-- origins' y and the rest angles, and a limit [min, max] becomes
-- [-max, -min] (its invert flag kept: the outside of the mirrored range).
-- Names, and parents given by name, are renamed by rename = { pattern,
-- replacement } (string.gsub's, e.g. { "_l$", "_r" }).  Every other field
-- is copied as it is; the bones given are not changed.  A rig built from
-- the result and given mirrored targets solves to mirrored angles.
local common = require "ik2d.common"

local fail, is_finite = common.fail, common.is_finite
local type, gsub = type, string.gsub

local WHO = "ik2d.mirror_bones"

-- the fields a mirror negates, and those it checks
local NEGATED = { "angle", "y" }
local CHECKED = { "angle", "y", "min", "max" }

local function renamed(v, rename)
  if rename and type(v) == "string" then return (gsub(v, rename[1], rename[2])) end
  return v
end

local function mirror_bones(bones, rename)
  if type(bones) ~= "table" then fail(2, WHO, "bones must be a table of bone definitions", bones) end
  if rename ~= nil and not (type(rename) == "table" and type(rename[1]) == "string"
                            and type(rename[2]) == "string") then
    fail(2, WHO, "rename must be nil or { pattern, replacement } (two strings)", rename)
  end
  -- every check before anything is built: a refused call returns nothing
  for i = 1, #bones do
    local bone = bones[i]
    if type(bone) ~= "table" then fail(2, WHO, ("bones[%d] must be a table"):format(i), bone) end
    for _, field in ipairs(CHECKED) do
      local v = bone[field]
      if v ~= nil and not is_finite(v) then
        fail(2, WHO, ("bones[%d].%s must be a finite number"):format(i, field), v)
      end
    end
  end
  local out = {}
  for i = 1, #bones do
    local bone, copy = bones[i], {}
    for k, v in pairs(bone) do copy[k] = v end
    for _, field in ipairs(NEGATED) do
      if bone[field] ~= nil then copy[field] = -bone[field] end
    end
    if bone.max ~= nil then copy.min = -bone.max else copy.min = nil end
    if bone.min ~= nil then copy.max = -bone.min else copy.max = nil end
    copy.name = renamed(bone.name, rename)
    copy.parent = renamed(bone.parent, rename)
    out[i] = copy
  end
  -- non-array fields of a chain definition (the base) come along as they are
  for k, v in pairs(bones) do
    if type(k) ~= "number" or k < 1 or k > #bones or k % 1 ~= 0 then out[k] = v end
  end
  return out
end

return mirror_bones
