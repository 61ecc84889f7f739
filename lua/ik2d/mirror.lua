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
-- That is the other side of a front view (left and right legs or arms
-- facing the viewer); in a side view the far limb is the near one's copy,
-- reaching the same way.
local common = require "ik2d.common"

local fail, is_finite = common.fail, common.is_finite
local type, gsub, find = type, string.gsub, string.find

local WHO = "ik2d.mirror_bones"

-- the fields a mirror negates, and those it checks
local NEGATED = { "angle", "y" }
local CHECKED = { "angle", "y", "min", "max" }

-- The number of captures in a valid Lua pattern: its "(" outside sets
-- and escapes (a position capture "()" counts too).
local function captures(pattern)
  local count, i, n = 0, 1, #pattern
  local function skip_set(j)         -- j on "[": the index after its "]"
    j = j + 1
    if pattern:sub(j, j) == "^" then j = j + 1 end
    repeat                           -- a "]" first is a member
      if pattern:sub(j, j) == "%" then j = j + 1 end
      j = j + 1
    until pattern:sub(j, j) == "]" or j > n
    return j + 1
  end
  while i <= n do
    local c = pattern:sub(i, i)
    if c == "%" then
      local k = pattern:sub(i + 1, i + 1)
      if k == "b" then i = i + 4
      elseif k == "f" then i = skip_set(i + 2)
      else i = i + 2 end
    elseif c == "[" then
      i = skip_set(i)
    else
      if c == "(" then count = count + 1 end
      i = i + 1
    end
  end
  return count
end

-- What is wrong with the replacement of a pattern with `count` captures,
-- or nil: "%" must be followed by "%" or a capture index, 0 (the match)
-- to the last capture (1 with none: the match).
local function bad_replacement(replacement, count)
  local last = count > 0 and count or 1
  for escape in replacement:gmatch("%%(.?)") do
    local index = tonumber(escape)
    if escape ~= "%" and not index then return "invalid use of '%' in replacement string" end
    if index and index > last then return "invalid capture index %" .. escape end
  end
end

-- rename checked: nil, or { pattern, replacement } that string.gsub takes
local function check_rename(rename)
  if rename == nil then return end
  local ok = type(rename) == "table" and type(rename[1]) == "string" and type(rename[2]) == "string"
  if ok then
    for k in pairs(rename) do
      if k ~= 1 and k ~= 2 then ok = false end
    end
  end
  if not ok then fail(3, WHO, "rename must be nil or { pattern, replacement } (two strings)", rename) end
  local pattern, replacement = rename[1], rename[2]
  local valid, message = pcall(find, "", pattern)
  if not valid then
    message = tostring(message):gsub("^[^:]*:%d+: ", "")
    fail(3, WHO, ("rename[1] must be a Lua pattern (%s)"):format(message), pattern)
  end
  local count = captures(pattern)
  local wrong = bad_replacement(replacement, count)
  if wrong then
    fail(3, WHO, ("rename[2] must be a replacement with captures %%0 to %%%d and %%%% (%s)")
      :format(count > 0 and count or 1, wrong), replacement)
  end
end

local function renamed(v, rename)
  if rename and type(v) == "string" then return (gsub(v, rename[1], rename[2])) end
  return v
end

local function mirror_bones(bones, rename)
  if type(bones) ~= "table" then fail(2, WHO, "bones must be a table of bone definitions", bones) end
  check_rename(rename)
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
