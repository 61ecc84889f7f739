-- Malformed DragonBones files for the specs: a small valid armature
-- and cases that each break one thing in it, with the message a reader
-- gives (after "<file>: "). Used by spec/rig_dragonbones_spec.lua (the
-- reader) and spec/rig_dragonbones_reference_spec.lua (ik2d.rig.load).
--
--   local malformed = require "spec.dragonbones.malformed"
--   local doc = malformed.valid()
--   for _, case in ipairs(malformed.cases) do ... end   -- { what, break(doc), message [, armature] }

local malformed = {}

-- a small valid armature, each case breaking one thing in it
function malformed.valid()
  return {
    version = "5.5", frameRate = 30, name = "t",
    armature = { {
      name = "a", frameRate = 30,
      bone = {
        { name = "root" },
        { name = "arm", parent = "root", length = 10, transform = { x = 1, skX = 10, skY = 10 } },
        { name = "hand", parent = "arm", length = 5, transform = { x = 10 } },
        { name = "target", parent = "root", transform = { x = 20 } },
      },
      slot = { { name = "s", parent = "arm" }, { name = "z", parent = "root" } },
      skin = { { slot = { { name = "s", display = {
        { name = "img" },
        { type = "mesh", name = "m", vertices = { 0, 0, 10, 0, 0, 10 }, uvs = { 0, 0, 1, 0, 0, 1 },
          triangles = { 0, 1, 2 }, weights = { 1, 1, 1, 1, 1, 1, 1, 2, 1 },
          slotPose = { 1, 0, 0, 1, 0, 0 }, bonePose = { 1, 1, 0, 0, 1, 0, 0, 2, 1, 0, 0, 1, 10, 0 } },
      } } } } },
      ik = { { name = "ik", bone = "hand", target = "target", chain = 1 } },
      animation = { {
        name = "move", duration = 10,
        bone = { { name = "arm", rotateFrame = {
          { duration = 10, tweenEasing = 0, rotate = 0 }, { duration = 0, rotate = 30 } } } },
        slot = { { name = "s", displayFrame = { { duration = 5 }, { duration = 5, value = 1 } } } },
        ffd = { { name = "m", slot = "s", frame = { { duration = 10, tweenEasing = 0 },
          { duration = 0, vertices = { 1, 1 } } } } },
        zOrder = { frame = { { duration = 10, zOrder = { 0, 1 } } } },
      } },
    } },
  }
end
local A = 'armature[1] "a" / '
malformed.cases = {
  { "a string", function() return "{}" end, 'the file: a DragonBones file is a JSON object, not "{}"' },
  { "no version", function(d) d.version = nil end, 'version: missing: a DragonBones file has "version": "5.5"' },
  { "DragonBones 4.5", function(d) d.version = "4.5" end,
    'version: DragonBones "4.5" is not read (ik2d reads DragonBones 5.x)' },
  { "a version as a number", function(d) d.version = 5.5 end, "version: must be a string, not 5.5" },
  { "no armature", function(d) d.armature = {} end, "armature: missing: the file has no armature" },
  { "an armature asked for that is not there", function() end,
    'armature: no armature named "b" (the file has "a")', "b" },
  { "a negative frame rate", function(d) d.armature[1].frameRate = -30 end,
    'armature[1] "a": frameRate -30 is negative' },
  { "a bone with no name", function(d) d.armature[1].bone[2].name = nil end, A .. "bone[2]: name is missing" },
  { "two bones of one name", function(d) d.armature[1].bone[3].name = "arm" end,
    A .. 'bone[3] "arm": a second bone of this name' },
  { "a parent that is no bone", function(d) d.armature[1].bone[3].parent = "armx" end,
    A .. 'bone[3] "hand": parent "armx" is not a bone of this armature' },
  { "parents in a loop", function(d) d.armature[1].bone[2].parent = "hand" end,
    A .. 'bone[2] "arm": its parents lead back to itself' },
  { "a transform value that is a word", function(d) d.armature[1].bone[2].transform.x = "left" end,
    A .. 'bone[2] "arm" / transform: x must be a number, not a string' },
  { "a surface bone", function(d) d.armature[1].bone[3].type = "surface" end,
    A .. 'bone[3] "hand": type "surface" is not read (ik2d reads plain bones, not surfaces)' },
  { "a slot on no bone", function(d) d.armature[1].slot[1].parent = "leg" end,
    A .. 'slot[1] "s": parent "leg" is not a bone of this armature' },
  { "two slots of one name", function(d) d.armature[1].slot[2].name = "s" end,
    A .. 'slot[2] "s": a second slot of this name' },
  { "a display index below -1", function(d) d.armature[1].slot[1].displayIndex = -2 end,
    A .. 'slot[1] "s": displayIndex must be a whole number >= -1, not -2' },
  { "a skin naming no slot", function(d) d.armature[1].skin[1].slot[1].name = "q" end,
    A .. 'skin[1] "default" / slot[1]: name "q" is not a slot of this armature' },
  { "an unknown display type", function(d) d.armature[1].skin[1].slot[1].display[1].type = "sprite" end,
    A .. 'skin[1] "default" / slot[1] "s" / display[1] "img": type "sprite" is not a DragonBones display type' },
  { "uvs that miss a vertex", function(d) d.armature[1].skin[1].slot[1].display[2].uvs = { 0, 0, 1, 0 } end,
    A .. 'skin[1] "default" / slot[1] "s" / display[2] "m": uvs must hold 2 numbers a vertex (6)' },
  { "a triangle past the vertices",
    function(d) d.armature[1].skin[1].slot[1].display[2].triangles = { 0, 1, 3 } end,
    A .. 'skin[1] "default" / slot[1] "s" / display[2] "m": triangles[3] is vertex 3 of 3' },
  { "a weight on a bone bonePose does not list",
    function(d) d.armature[1].skin[1].slot[1].display[2].weights[8] = 3 end,
    A .. 'skin[1] "default" / slot[1] "s" / display[2] "m": weights: vertex 3 names bone 3, ' ..
      "which bonePose does not list" },
  { "a bonePose cut short", function(d) table.remove(d.armature[1].skin[1].slot[1].display[2].bonePose) end,
    A .. 'skin[1] "default" / slot[1] "s" / display[2] "m": bonePose must hold 7 numbers a bone ' ..
      "(its index, a, b, c, d, tx, ty)" },
  { "IK on no bone", function(d) d.armature[1].ik[1].bone = "foot" end,
    A .. 'ik[1] "ik": bone "foot" is not a bone of this armature' },
  { "IK chain 2", function(d) d.armature[1].ik[1].chain = 2 end,
    A .. 'ik[1] "ik": chain 2: DragonBones IK bends 1 bone (chain 0) or 2 (chain 1)' },
  { "IK weight above 1", function(d) d.armature[1].ik[1].weight = 1.5 end,
    A .. 'ik[1] "ik": weight 1.5 is not in [0, 1]' },
  { "an IK target below its chain", function(d) d.armature[1].bone[4].parent = "hand" end,
    A .. 'ik[1] "ik": target "target" moves with the chain (it is below "arm")' },
  { "a duration that is not whole", function(d) d.armature[1].animation[1].duration = 2.5 end,
    A .. 'animation[1] "move": duration must be a whole number >= 0, not 2.5' },
  { "keys past the animation's end", function(d) d.armature[1].animation[1].duration = 5 end,
    A .. 'animation[1] "move" / bone[1] "arm" / rotateFrame[2]: starts after the animation\'s last frame (5)' },
  { "a curve of 5 numbers", function(d)
      d.armature[1].animation[1].bone[1].rotateFrame[1].curve = { 0.1, 0.2, 0.3, 0.4, 0.5 } end,
    A .. 'animation[1] "move" / bone[1] "arm" / rotateFrame[1]: curve has 5 numbers: its runtime plays ' ..
      "curves of 3k + 1 (x1, y1, x2, y2, ...)" },
  { "half a clockwise turn", function(d) d.armature[1].animation[1].bone[1].rotateFrame[1].clockwise = 0.5 end,
    A .. 'animation[1] "move" / bone[1] "arm" / rotateFrame[1]: clockwise must be a whole number' },
  { "a timeline for no bone", function(d) d.armature[1].animation[1].bone[1].name = "leg" end,
    A .. 'animation[1] "move" / bone[1] "leg": name "leg" is not a bone of this armature' },
  { "a display key below -1", function(d) d.armature[1].animation[1].slot[1].displayFrame[2].value = -3 end,
    A .. 'animation[1] "move" / slot[1] "s" / displayFrame[2]: value must be a display index (-1: none), not -3' },
  { "deform of no mesh", function(d) d.armature[1].animation[1].ffd[1].name = "img" end,
    A .. 'animation[1] "move" / ffd[1] "img": skin "default" has no mesh "img" in slot "s"' },
  { "deform past the mesh", function(d) d.armature[1].animation[1].ffd[1].frame[2].offset = 5 end,
    A .. 'animation[1] "move" / ffd[1] "m" / frame[2]: offset 5 and 2 vertices run past the mesh\'s 3 vertices' },
  { "a draw order moving a slot off the end", function(d)
      d.armature[1].animation[1].zOrder.frame[1].zOrder = { 1, 1 } end,
    A .. 'animation[1] "move" / zOrder / frame[1]: zOrder[2]: slot 1 moved by 1 lands outside or on another' },
  { "two animations of one name", function(d)
      local copy = malformed.valid().armature[1].animation[1]
      table.insert(d.armature[1].animation, copy) end,
    A .. 'animation[2] "move": a second animation of this name' },
  { "a number that is not finite", function(d) d.armature[1].bone[2].length = 0 / 0 end,
    A .. 'bone[2] "arm": length must be finite, not nan' },
  -- what the runtime takes and ik2d's skeleton does not
  { "a negative length", function(d) d.armature[1].bone[2].length = -3 end,
    A .. 'bone[2] "arm": length -3 is negative' },
  { "a bone set up at scale 0", function(d) d.armature[1].bone[2].transform.scY = 0 end,
    A .. 'bone[2] "arm" / transform: scY is 0: ik2d\'s skeleton sets up no bone at scale 0 (key it in an '
      .. "animation instead)" },
  { "more bones than a skeleton takes", function(d)
      for i = 1, 253 do table.insert(d.armature[1].bone, { name = "extra" .. i, parent = "root" }) end end,
    A .. "bone: 257 bones: ik2d's skeleton takes at most 256" },
}

return malformed
