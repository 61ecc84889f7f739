-- ik2d.rig.fade: what a crossfade from one clip to another fades out.
-- Mixed at share s of the way, a value both clips key is the old clip's
-- and the new one's mixed by s (the old played whole, the new one by s
-- over it); a value only the old clip keys must go back to the set-up by
-- s as well, or it would jump there when the mix ends.  The fade clip of
-- a pair keys those values, and only those, at their set-up values:
-- played by s between the two clips, it moves them back.
--
--   local c = fade.clip(rig, from, to)     -- a core clip, or nil: nothing to fade
--   c:apply(targets, 0, share)

local build = require "ik2d.rig.build"

local fade = {}

local BONE_REST = { rotate = 0, x = 0, y = 0, shear_x = 0, shear_y = 0, scale_x = 1, scale_y = 1 }
local SOLVER = { weight = true, softness = true, bend = true, compress = true, stretch = true }

local function key_of(tl)
  return tl.channel .. "\0" .. tostring(tl.target)
end

-- The set-up's value of timeline tl's channel (one key's values), as the
-- rig was built.
local function rest_values(rig, tl)
  local c, at = tl.channel, tl.target
  if BONE_REST[c] then return { BONE_REST[c] } end
  if c == "inherit" then return { build.INHERIT[rig.description.bones[at].inherit or "all"] } end
  if SOLVER[c] then return { rig._setup[at][c] } end
  if c:match("^mix_") then return { rig._constraint_setup[at][c] } end
  local slot = c ~= "draw_order" and c ~= "deform" and rig._slot_setup[at]
  if c == "attachment" then return { slot.attachment or 0 } end
  local color = slot and slot.color
  if c == "color" then return { color[1], color[2], color[3], color[4] } end
  if c == "rgb" then return { color[1], color[2], color[3] } end
  if c == "alpha" then return { color[4] } end
  if c == "dark" then
    local dark = slot.dark or { 0, 0, 0 }
    return { dark[1], dark[2], dark[3] }
  end
  local values = {}
  if c == "draw_order" then
    for i = 1, #rig._slot_setup do values[i] = i end
  else
    for i = 1, #tl.values / #tl.times do values[i] = 0 end
  end
  return values
end

--- fade.clip(rig, from, to) -> the core clip keying at their set-up
-- values what clip from keys and clip to does not (nil: nothing)
function fade.clip(rig, from, to)
  local kept = {}
  for _, tl in ipairs(to.timelines) do kept[key_of(tl)] = true end
  local list = {}
  for _, tl in ipairs(from.timelines) do
    if not kept[key_of(tl)] then
      list[#list + 1] = { channel = tl.channel, target = tl.target, times = { 0 },
        values = rest_values(rig, tl) }
    end
  end
  if #list == 0 then return nil end
  return require("ik2d").clip(rig._targets, { duration = 0, timelines = list })
end

return fade
