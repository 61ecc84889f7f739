-- hero_rig: ik2d's demo character as a Spine 4.2 JSON export, built from
-- a design in world units (y up, facing +x, the feet on y = 0, about 200
-- tall).  Bones of the body chain are placed by their joints in the world
-- and their local values worked out from their parents'; the rest are
-- given locally.  Images hang from bones by their anchors (hero_art.lua).
--
--   local hero_rig = require "hero_rig"
--   local skeleton = hero_rig.build()        -- hero_json objects, in the editor's key order
--
-- What it holds, and why (the demo and the specs read it):
--   bones   hip, spine, chest, neck, head (scale 1.05), hat (noScale),
--           hair (scaled 1.2 x 0.85), badge (noRotationOrReflection),
--           scarf (noScaleOrReflection, sheared), cape and cape_tip,
--           shoulder_pad, two arms of upper arm, forearm and hand, a
--           lantern (onlyTranslation: it hangs down whatever the hand
--           does), two legs of thigh, shin, foot and toe, IK targets at
--           the ankles and in front of the face, the plume of the
--           armored skin (a skin bone)
--   slots   back arm and leg first (tinted darker), cape and hair behind,
--           the lantern's glow additive, the cape two-colour tinted, a
--           hand grip point and a hit box
--   skins   default; armored (helmet, breastplate as a linked mesh of the
--           torso, metal shoulder pad, plume and its constraint)
--   IK      each leg two-bone toward its ankle target, knees forward
--           (bendPositive false: the shin turns clockwise from the thigh);
--           the head one-bone toward the look target
--   transform  the feet take their targets' rotation (world); the
--           shoulder pad half the upper arm's (world, mix 0.5); the cape's
--           tip and the plume add their targets' local rotation (local,
--           relative: the offset cancels the target's setup rotation)
--   animations idle (2 s loop), walk (1 s loop, in place), aim (the front
--           arm raised, for a second track), wave (the far arm in front)

local J = require "hero_json"
local art = require "hero_art"

local hero_rig = {}

local O, A, R = J.object, J.array, J.round
local rad, deg, cos, sin, sqrt = math.rad, math.deg, math.cos, math.sin, math.sqrt
local atan2 = math.atan2 or math.atan
local unpack = table.unpack or unpack

-- ------------------------------------------------------------------
-- world transforms of the setup pose (2 x 3 matrices: x axis (a, c),
-- y axis (b, d), origin (x, y)), as FORMATS.md's local matrix composes
-- ------------------------------------------------------------------

local function local_matrix(b)
  local r = rad(b.rotation or 0)
  local hx, hy = rad(b.shearX or 0), rad(90 + (b.shearY or 0))
  local sx, sy = b.scaleX or 1, b.scaleY or 1
  return cos(r + hx) * sx, cos(r + hy) * sy, sin(r + hx) * sx, sin(r + hy) * sy
end

local function apply(m, x, y)
  return m.a * x + m.b * y + m.x, m.c * x + m.d * y + m.y
end

-- a world point in a matrix's local frame
local function to_local(m, x, y)
  local det = m.a * m.d - m.b * m.c
  local dx, dy = x - m.x, y - m.y
  return (m.d * dx - m.b * dy) / det, (m.a * dy - m.c * dx) / det
end

-- a world direction (a vector) in a matrix's local frame
local function vector_to_local(m, dx, dy)
  local det = m.a * m.d - m.b * m.c
  return (m.d * dx - m.b * dy) / det, (m.a * dy - m.c * dx) / det
end

local function angle_of(m) return deg(atan2(m.c, m.a)) end

local function wrap(angle)
  angle = angle % 360
  if angle > 180 then angle = angle - 360 end
  return angle
end

-- The setup world matrix of a bone (its parent's known).  The inherit
-- modes other than normal are written for what this rig has: parents of
-- unit or uniform scale and no shear.
local function world_of(b, p)
  local la, lb, lc, ld = local_matrix(b)
  if not p then return { a = la, b = lb, c = lc, d = ld, x = b.x or 0, y = b.y or 0 } end
  local x, y = apply(p, b.x or 0, b.y or 0)
  local mode = b.inherit or "normal"
  local pa, pb, pc, pd = p.a, p.b, p.c, p.d
  if mode == "onlyTranslation" or mode == "noRotationOrReflection" then
    pa, pb, pc, pd = 1, 0, 0, 1
  elseif mode == "noScale" or mode == "noScaleOrReflection" then
    local r = atan2(pc, pa)
    pa, pb, pc, pd = cos(r), -sin(r), sin(r), cos(r)
  end
  return { a = pa * la + pb * lc, b = pa * lb + pb * ld, c = pc * la + pd * lc, d = pc * lb + pd * ld, x = x, y = y }
end

-- ------------------------------------------------------------------
-- bones
-- ------------------------------------------------------------------

-- The skeleton's proportions (world units) and the setup stance.
local HIP = { 0, 96 }               -- the hip bone's origin
local THIGH, SHIN = 42, 41
local LEG_TOP = { 0, 92 }           -- where both thighs start
local ANKLE_FRONT, ANKLE_BACK = { 5, 12 }, { -8, 12 }
local FOOT_ANGLE, FOOT = -30, 14    -- ankle to the ball of the foot
local TOE = 8
local SHOULDER = { -0.3, 152 }
local LOOK_DISTANCE = 100

-- The thigh's and shin's world angles that put the ankle on `ankle`, the
-- knee forward (on the +x side of the line from hip to ankle).
local function leg_angles(ankle)
  local dx, dy = ankle[1] - LEG_TOP[1], ankle[2] - LEG_TOP[2]
  local dist = sqrt(dx * dx + dy * dy)
  local base = deg(atan2(dy, dx))
  local bend = deg(math.acos((THIGH * THIGH + dist * dist - SHIN * SHIN) / (2 * THIGH * dist)))
  local thigh = base + bend
  local kx = LEG_TOP[1] + THIGH * cos(rad(thigh))
  local ky = LEG_TOP[2] + THIGH * sin(rad(thigh))
  return thigh, deg(atan2(ankle[2] - ky, ankle[1] - kx))
end

-- The bones, parents first.  `world = { x, y, angle }` places a bone of
-- the body chain (parents of unit scale); `at = { x, y }` a bone given by
-- its world origin, its rotation local; else x, y, rotation are local.
local function bone_design()
  local thigh_f, shin_f = leg_angles(ANKLE_FRONT)
  local thigh_b, shin_b = leg_angles(ANKLE_BACK)
  local list = {
    { name = "root" },
    { name = "hip", parent = "root", length = 14, world = { HIP[1], HIP[2], 90 } },
    { name = "spine", parent = "hip", length = 22, world = { 0, 110, 88 } },
    { name = "chest", parent = "spine", length = 26, tip_of = "spine", angle = 93 },
    { name = "neck", parent = "chest", length = 10, tip_of = "chest", angle = 80 },
    { name = "head", parent = "neck", length = 24, tip_of = "neck", angle = 0, scaleX = 1.05, scaleY = 1.05 },
    { name = "hat", parent = "head", length = 10, x = 3, y = 31, rotation = -6, inherit = "noScale" },
    { name = "plume", parent = "hat", length = 14, x = -2, y = 17, rotation = 120, skin = true },
    { name = "hair", parent = "head", length = 18, x = -13, y = 17, rotation = -140, scaleX = 1.2, scaleY = 0.85 },
    { name = "badge", parent = "chest", length = 6, at = { 6.5, 146 }, rotation = 0,
      inherit = "noRotationOrReflection" },
    { name = "scarf", parent = "neck", length = 18, x = 2, y = 4, rotation = 150, shearX = 6, shearY = -8,
      inherit = "noScaleOrReflection" },
    { name = "cape", parent = "chest", length = 26, world = { -9, 156, -98 } },
    { name = "cape_tip", parent = "cape", length = 26, tip_of = "cape", angle = -104 },
    { name = "upper_arm_back", parent = "chest", length = 30, world = { SHOULDER[1] - 2, SHOULDER[2], -86 } },
    { name = "forearm_back", parent = "upper_arm_back", length = 26, tip_of = "upper_arm_back", angle = -68 },
    { name = "hand_back", parent = "forearm_back", length = 10, tip_of = "forearm_back", angle = -68 },
    { name = "thigh_back", parent = "hip", length = THIGH, world = { LEG_TOP[1], LEG_TOP[2], thigh_b } },
    { name = "shin_back", parent = "thigh_back", length = SHIN, tip_of = "thigh_back", angle = shin_b },
    { name = "foot_back", parent = "shin_back", length = FOOT, tip_of = "shin_back", angle = FOOT_ANGLE },
    { name = "toe_back", parent = "foot_back", length = TOE, tip_of = "foot_back", angle = 0 },
    { name = "thigh_front", parent = "hip", length = THIGH, world = { LEG_TOP[1], LEG_TOP[2], thigh_f } },
    { name = "shin_front", parent = "thigh_front", length = SHIN, tip_of = "thigh_front", angle = shin_f },
    { name = "foot_front", parent = "shin_front", length = FOOT, tip_of = "shin_front", angle = FOOT_ANGLE },
    { name = "toe_front", parent = "foot_front", length = TOE, tip_of = "foot_front", angle = 0 },
    { name = "upper_arm_front", parent = "chest", length = 30, world = { SHOULDER[1], SHOULDER[2], -95 } },
    { name = "shoulder_pad", parent = "chest", length = 12, world = { SHOULDER[1], SHOULDER[2] + 1, -95 } },
    { name = "forearm_front", parent = "upper_arm_front", length = 26, tip_of = "upper_arm_front", angle = -80 },
    { name = "hand_front", parent = "forearm_front", length = 10, tip_of = "forearm_front", angle = -80 },
    { name = "lantern", parent = "hand_front", length = 16, x = 7, y = 0, rotation = -90,
      inherit = "onlyTranslation" },
    { name = "foot_target_back", parent = "root", at = { ANKLE_BACK[1], ANKLE_BACK[2] }, color = "ff3f00ff" },
    { name = "foot_target_front", parent = "root", at = { ANKLE_FRONT[1], ANKLE_FRONT[2] }, color = "ff3f00ff" },
    { name = "look_target", parent = "root", look = true, color = "ff3f00ff" },
  }
  return list
end

local function build_bones()
  local bones, by_name = {}, {}
  for i, b in ipairs(bone_design()) do
    local p = b.parent and by_name[b.parent]
    if b.tip_of then
      -- starts at the tip of a bone of unit scale, pointing at world `angle`
      local from = by_name[b.tip_of]
      local x, y = apply(from.m, from.length, 0)
      b.world = { x, y, b.angle }
    elseif b.look then
      local head = by_name.head
      b.at = { head.m.x + LOOK_DISTANCE * cos(rad(angle_of(head.m))),
               head.m.y + LOOK_DISTANCE * sin(rad(angle_of(head.m))) }
    end
    if b.world then
      b.x, b.y = to_local(p.m, b.world[1], b.world[2])
      b.rotation = wrap(b.world[3] - angle_of(p.m))
    elseif b.at then
      b.x, b.y = to_local(p.m, b.at[1], b.at[2])
    end
    b.x, b.y, b.rotation = R(b.x or 0, 2), R(b.y or 0, 2), R(b.rotation or 0, 2)
    b.m = world_of(b, p and p.m)
    b.index = i - 1
    bones[i], by_name[b.name] = b, b
  end
  return bones, by_name
end

local function nonzero(v) if v ~= 0 then return v end end
local function nonone(v) if v ~= 1 then return v end end

local function bone_json(b)
  return O("name", b.name, "parent", b.parent, "length", b.length, "rotation", nonzero(b.rotation),
           "x", nonzero(b.x), "y", nonzero(b.y), "scaleX", b.scaleX, "scaleY", b.scaleY,
           "shearX", b.shearX, "shearY", b.shearY, "inherit", b.inherit, "skin", b.skin, "color", b.color)
end

-- ------------------------------------------------------------------
-- slots (setup draw order, back to front)
-- ------------------------------------------------------------------

local BACK = "a4a4bcff"      -- the far limbs, in shadow

local SLOTS = {
  { "cape", "cape", "cape", color = "ffffffff", dark = "3a1020" },
  { "hair", "hair", "hair" },
  { "upper_arm_back", "upper_arm_back", "upper_arm", color = BACK },
  { "forearm_back", "forearm_back", "forearm", color = BACK },
  { "hand_back", "hand_back", "hand", color = BACK },
  { "thigh_back", "thigh_back", "thigh", color = BACK },
  { "shin_back", "shin_back", "shin", color = BACK },
  { "foot_back", "foot_back", "foot", color = BACK },
  { "toe_back", "toe_back", "toe", color = BACK },
  { "torso", "spine", "torso" },
  { "scarf", "scarf", "scarf" },
  { "badge", "badge", "badge" },
  { "neck", "neck", "neck" },
  { "head", "head", "head" },
  { "eye", "head", "eye" },
  { "plume", "plume", "plume" },
  { "hat", "hat", "hat" },
  { "thigh_front", "thigh_front", "thigh" },
  { "shin_front", "shin_front", "shin" },
  { "foot_front", "foot_front", "foot" },
  { "toe_front", "toe_front", "toe" },
  { "upper_arm_front", "upper_arm_front", "upper_arm" },
  { "shoulder_pad", "shoulder_pad", "shoulder_pad" },
  { "forearm_front", "forearm_front", "forearm" },
  { "hand_front", "hand_front", "hand" },
  { "lantern", "lantern", "lantern" },
  { "lantern_glow", "lantern", "glow", color = "ffe0a0d8", blend = "additive" },
  { "grip", "hand_front", "grip" },
  { "hitbox", "hip", "hitbox" },
}

local function slot_json(s)
  return O("name", s[1], "bone", s[2], "color", s.color, "dark", s.dark, "attachment", s[3], "blend", s.blend)
end

-- ------------------------------------------------------------------
-- attachments
-- ------------------------------------------------------------------

-- A region whose image's anchor sits at bone-local `at` (default the
-- bone's origin), turned by `rotation` and scaled: its centre is the
-- anchor's offset from the image's centre, scaled, turned.
local function region(image_name, o)
  o = o or {}
  local image = assert(art.by_name[image_name], image_name)
  local rotation, sx, sy = o.rotation or 0, o.scaleX or 1, o.scaleY or 1
  local ox, oy = sx * (image.w / 2 - image.anchor[1]), sy * (image.anchor[2] - image.h / 2)
  local r = rad(rotation)
  local at = o.at or { 0, 0 }
  local x = at[1] + ox * cos(r) - oy * sin(r)
  local y = at[2] + ox * sin(r) + oy * cos(r)
  return O("name", o.name, "path", o.path, "x", nonzero(R(x, 2)), "y", nonzero(R(y, 2)), "scaleX", nonone(sx),
           "scaleY", nonone(sy), "rotation", nonzero(rotation), "width", image.w, "height", image.h,
           "color", o.color)
end

-- An upright image as a mesh of bands: rows at world heights (top
-- first), each with its bone weights; two vertices a row at the image's
-- left and right edges.  The hull runs down the left side and up the
-- right; vertices are weighted, in each bone's setup frame.
local function band_mesh(image_name, rows, bones)
  local image = art.by_name[image_name]
  local ax, ay = image.anchor[1], image.anchor[2]
  local left, right = -ax, image.w - ax
  local n = #rows
  local order = {}           -- hull order: left side down, right side up
  for i = 1, n do order[#order + 1] = { left, rows[i] } end
  for i = n, 1, -1 do order[#order + 1] = { right, rows[i] } end
  local uvs, vertices, world = {}, {}, {}
  for _, v in ipairs(order) do
    local x, row = v[1], v[2]
    uvs[#uvs + 1] = R((x + ax) / image.w, 5)
    uvs[#uvs + 1] = R((ay - row.y) / image.h, 5)
    world[#world + 1] = { x, row.y }
    local vertex = { #row.weights }
    for _, bw in ipairs(row.weights) do
      local b = bones[bw[1]]
      local lx, ly = to_local(b.m, x, row.y)
      vertex[#vertex + 1] = b.index
      vertex[#vertex + 1] = R(lx, 2)
      vertex[#vertex + 1] = R(ly, 2)
      vertex[#vertex + 1] = bw[2]
    end
    vertices[#vertices + 1] = vertex
  end
  local triangles = {}
  local function L(i) return i - 1 end
  local function Rt(i) return 2 * n - i end
  for i = 1, n - 1 do
    local t = { L(i), L(i + 1), Rt(i + 1), L(i), Rt(i + 1), Rt(i) }
    for _, v in ipairs(t) do triangles[#triangles + 1] = v end
  end
  local mesh = O("type", "mesh", "uvs", A(uvs), "triangles", A(triangles), "vertices", J.grouped(vertices),
                 "hull", 2 * n, "width", image.w, "height", image.h)
  return mesh, { order = order, rows = rows, world = world }
end

-- Deform offsets of a band mesh: each vertex moved by a world vector
-- (move(x, y, row) -> dx, dy), written per bone of the vertex in that
-- bone's setup frame, so the weighted sum moves by the vector; from the
-- first vertex that moves (`offset`), to the last.
local function band_deform(shape, bones, move)
  local values, first, last = {}, nil, 0
  for _, v in ipairs(shape.order) do
    local x, row = v[1], v[2]
    local dx, dy = move(x, row.y, row)
    for _, bw in ipairs(row.weights) do
      local lx, ly = vector_to_local(bones[bw[1]].m, dx, dy)
      values[#values + 1] = R(lx, 3)
      values[#values + 1] = R(ly, 3)
      if (values[#values - 1] ~= 0 or values[#values] ~= 0) then
        first = first or #values - 1
        last = #values
      end
    end
  end
  if not first then return nil, nil end
  local out = {}
  for i = first, last do out[#out + 1] = values[i] end
  return first - 1, A(out)
end

-- the weights of the torso's rows and the cape's
local TORSO_ROWS = {
  { y = 163, weights = { { "chest", 1 } } },
  { y = 148, weights = { { "chest", 0.85 }, { "spine", 0.15 } } },
  { y = 132, weights = { { "spine", 0.5 }, { "chest", 0.5 } } },
  { y = 116, weights = { { "spine", 0.8 }, { "hip", 0.2 } } },
  { y = 100, weights = { { "hip", 0.7 }, { "spine", 0.3 } } },
  { y = 84, weights = { { "hip", 1 } } },
}
local CAPE_ROWS = {
  { y = 160, weights = { { "chest", 0.7 }, { "cape", 0.3 } } },
  { y = 140, weights = { { "cape", 1 } } },
  { y = 120, weights = { { "cape", 0.5 }, { "cape_tip", 0.5 } } },
  { y = 98, weights = { { "cape_tip", 1 } } },
}

local function polygon(bone, points)
  local out = {}
  for i = 1, #points, 2 do
    local x, y = to_local(bone.m, points[i], points[i + 1])
    out[#out + 1] = R(x, 2)
    out[#out + 1] = R(y, 2)
  end
  return out
end

local function skins_json(bones, meshes)
  local head_eye = { 13, 19 }
  local default = O(
    "cape", O("cape", meshes.cape),
    "hair", O("hair", region("hair")),
    "upper_arm_back", O("upper_arm", region("upper_arm")),
    "forearm_back", O("forearm", region("forearm")),
    "hand_back", O("hand", region("hand"), "hand_open", region("hand_open", { rotation = 10 })),
    "thigh_back", O("thigh", region("thigh")),
    "shin_back", O("shin", region("shin")),
    "foot_back", O("foot", region("foot", { rotation = -FOOT_ANGLE })),
    "toe_back", O("toe", region("toe")),
    "torso", O("torso", meshes.torso),
    "scarf", O("scarf", region("scarf")),
    "badge", O("badge", region("badge")),
    "neck", O("neck", region("neck")),
    "head", O("head", region("head")),
    "eye", O("eye", region("eye", { at = head_eye }), "eye_closed", region("eye_closed", { at = head_eye })),
    "hat", O("hat", region("hat")),
    "thigh_front", O("thigh", region("thigh")),
    "shin_front", O("shin", region("shin")),
    "foot_front", O("foot", region("foot", { rotation = -FOOT_ANGLE })),
    "toe_front", O("toe", region("toe")),
    "upper_arm_front", O("upper_arm", region("upper_arm")),
    "shoulder_pad", O("shoulder_pad", region("shoulder_pad", { scaleX = 1.1, scaleY = 0.95 })),
    "forearm_front", O("forearm", region("forearm")),
    "hand_front", O("hand", region("hand")),
    "lantern", O("lantern", region("lantern", { rotation = 90 })),
    "lantern_glow", O("glow", region("glow", { at = { 16, 0 } })),
    "grip", O("grip", O("type", "point", "x", 6, "y", 0.5, "rotation", 90)),
    "hitbox", O("hitbox", O("type", "boundingbox", "vertexCount", 6, "vertices", A(polygon(bones.hip, {
      -14, 0, 26, 0, 22, 120, 16, 214, -16, 214, -20, 110 }))))
  )
  local armored = O(
    "torso", O("torso", O("name", "torso_armor", "type", "linkedmesh", "parent", "torso", "skin", "default",
                          "width", art.by_name.torso_armor.w, "height", art.by_name.torso_armor.h)),
    "plume", O("plume", region("plume")),
    "hat", O("hat", region("helmet", { name = "helmet", at = { 0, -2 } })),
    "shoulder_pad", O("shoulder_pad", region("shoulder_pad_armor", { path = "shoulder_pad_armor", rotation = -5 }))
  )
  return default, A {
    O("name", "default", "attachments", default),
    O("name", "armored", "bones", A { "plume" }, "transform", A { "plume_sway" }, "attachments", armored),
  }
end

-- The setup pose's bounds (the default skin's regions and meshes), which
-- the editor writes in the skeleton's header.
local function setup_bounds(bones, default, meshes)
  local x0, y0, x1, y1 = math.huge, math.huge, -math.huge, -math.huge
  local function cover(x, y)
    x0, y0, x1, y1 = math.min(x0, x), math.min(y0, y), math.max(x1, x), math.max(y1, y)
  end
  for _, s in ipairs(SLOTS) do
    local att = default[s[1]] and default[s[1]][s[3]]
    if att and att.type == nil then
      local m = bones[s[2]].m
      local r = rad(att.rotation or 0)
      local sx, sy = att.scaleX or 1, att.scaleY or 1
      for _, corner in ipairs({ { -1, -1 }, { -1, 1 }, { 1, 1 }, { 1, -1 } }) do
        local cx, cy = corner[1] * att.width / 2 * sx, corner[2] * att.height / 2 * sy
        local x = (att.x or 0) + cx * cos(r) - cy * sin(r)
        local y = (att.y or 0) + cx * sin(r) + cy * cos(r)
        cover(apply(m, x, y))
      end
    end
  end
  for _, shape in pairs(meshes) do
    for _, p in ipairs(shape.world) do cover(p[1], p[2]) end
  end
  return R(x0, 2), R(y0, 2), R(x1 - x0, 2), R(y1 - y0, 2)
end

-- ------------------------------------------------------------------
-- constraints
-- ------------------------------------------------------------------

-- transform constraint mixes that move nothing but rotation
local function rotation_only(...)
  return "mixX", 0, "mixScaleX", 0, "mixShearY", 0, ...
end

local function ik_json()
  return A {
    O("name", "leg_front", "order", 0, "bones", A { "thigh_front", "shin_front" }, "target", "foot_target_front",
      "softness", 2, "bendPositive", false),
    O("name", "leg_back", "order", 1, "bones", A { "thigh_back", "shin_back" }, "target", "foot_target_back",
      "softness", 2, "bendPositive", false),
    O("name", "head_look", "order", 5, "bones", A { "head" }, "target", "look_target", "mix", 0.9),
  }
end

local function transform_json(bones)
  local cape = bones.cape.rotation
  local hair = bones.hair.rotation
  return A {
    O("name", "foot_front_level", "order", 2, "bones", A { "foot_front" }, "target", "foot_target_front",
      "rotation", FOOT_ANGLE, rotation_only()),
    O("name", "foot_back_level", "order", 3, "bones", A { "foot_back" }, "target", "foot_target_back",
      "rotation", FOOT_ANGLE, rotation_only()),
    O("name", "pad_follow", "order", 4, "bones", A { "shoulder_pad" }, "target", "upper_arm_front",
      "mixRotate", 0.5, rotation_only()),
    O("name", "cape_curl", "order", 6, "bones", A { "cape_tip" }, "target", "cape", "rotation", -cape,
      "mixRotate", 0.6, rotation_only("local", true, "relative", true)),
    O("name", "plume_sway", "order", 7, "skin", true, "bones", A { "plume" }, "target", "hair", "rotation", -hair,
      "mixRotate", 0.7, rotation_only("local", true, "relative", true)),
  }
end

-- ------------------------------------------------------------------
-- animation keys
-- ------------------------------------------------------------------

-- Bézier handles for one value from (t0, v0) to (t1, v1), in absolute
-- time and value as Spine 4.x writes them
local SHAPES = {
  ease = { 0.35, 0, 0.65, 1 },     -- slow out, slow in
  out = { 0.2, 0.55, 0.6, 1 },     -- fast start, slow end
  ["in"] = { 0.4, 0, 0.8, 0.45 },  -- slow start, fast end
}

local function handles(shape, t0, v0, t1, v1, out)
  local s = assert(SHAPES[shape], shape)
  local dt, dv = t1 - t0, v1 - v0
  out[#out + 1] = R(t0 + s[1] * dt)
  out[#out + 1] = R(v0 + s[2] * dv)
  out[#out + 1] = R(t0 + s[3] * dt)
  out[#out + 1] = R(v0 + s[4] * dv)
end

-- A key's curve over its channels toward the next key: nil (linear),
-- "stepped" or 4 numbers a channel.
local function curve(shape, t0, values0, t1, values1)
  if shape == nil or shape == "linear" or t1 == nil then return nil end
  if shape == "stepped" then return "stepped" end
  local out = {}
  for c = 1, #values0 do handles(shape, t0, values0[c], t1, values1[c], out) end
  return A(out)
end

local function time_of(t) if t ~= 0 then return R(t) end end

-- A timeline whose keys are { time, value..., shape }: `fields` names
-- the values and their defaults (written only when they differ);
-- `channels(key)` gives the numbers a curve runs over (the values by
-- default).
local function timeline(keys, fields, channels)
  channels = channels or function(k) local v = {} for i = 1, #fields do v[i] = k[i + 1] end return v end
  local out = {}
  for i, k in ipairs(keys) do
    local n = keys[i + 1]
    local key = O("time", time_of(k[1]))
    for f, field in ipairs(fields) do
      local v = k[f + 1]
      if v ~= field[2] then J.set(key, field[1], v) end
    end
    local shape = k[#fields + 2]
    J.set(key, "curve", n and curve(shape, k[1], channels(k), n[1], channels(n)) or nil)
    out[i] = key
  end
  return A(out)
end

local ROTATE = { { "value", 0 } }
local TRANSLATE = { { "x", 0 }, { "y", 0 } }
local SCALE = { { "x", 1 }, { "y", 1 } }
local VALUE0, VALUE1 = { { "value", 0 } }, { { "value", 1 } }

local function hex_channels(text)
  local out = {}
  for i = 1, #text, 2 do out[#out + 1] = tonumber(text:sub(i, i + 1), 16) / 255 end
  return out
end

-- the channels of a key's colours, k[2] .. k[count + 1]
local function color_channels(count)
  return function(k)
    local out = {}
    for i = 2, count + 1 do
      for _, v in ipairs(hex_channels(k[i])) do out[#out + 1] = v end
    end
    return out
  end
end

local function color_timeline(keys, field)
  return timeline(keys, { { field } }, color_channels(1))
end

local function light_dark_timeline(keys)
  return timeline(keys, { { "light" }, { "dark" } }, color_channels(2))
end

-- Keys of a cycle (the first at 0, the last at the cycle's length, the
-- same pose) started `by` later: what a limb half a stride behind does.
local function shifted(keys, by, length)
  local out = {}
  for i = 1, #keys - 1 do
    local k = { unpack(keys[i]) }
    k[1] = R((k[1] + by) % length)
    out[#out + 1] = k
  end
  table.sort(out, function(a, b) return a[1] < b[1] end)
  if out[1][1] ~= 0 then
    -- the cycle's start falls between two keys: there is a key at `by` exactly
    error("shifted: a cycle needs a key at " .. (length - by))
  end
  local last = { unpack(out[1]) }
  last[1] = length
  out[#out + 1] = last
  return out
end

-- the values of a cycle's keys less the setup's (translate adds to it)
local function minus(keys, dx, dy)
  local out = {}
  for i, k in ipairs(keys) do
    out[i] = { k[1], R(k[2] - dx, 2), R(k[3] - dy, 2), k[4] }
  end
  return out
end

local function ik_keys(keys)
  local out = {}
  for i, k in ipairs(keys) do
    local n = keys[i + 1]
    out[i] = O("time", time_of(k[1]), "mix", nonone(k.mix or 1), "softness", nonzero(k.softness or 0),
               "bendPositive", k.bend, "curve",
               n and curve(k.shape, k[1], { k.mix or 1, k.softness or 0 }, n[1], { n.mix or 1, n.softness or 0 }))
  end
  return A(out)
end

local function transform_keys(keys)
  local out = {}
  for i, k in ipairs(keys) do
    local n = keys[i + 1]
    out[i] = O("time", time_of(k[1]), "mixRotate", nonone(k[2]), "mixX", 0, "mixScaleX", 0, "mixShearY", 0,
               "curve", n and curve(k[3], k[1], { k[2], 0, 0, 0, 0, 0 }, n[1], { n[2], 0, 0, 0, 0, 0 }))
  end
  return A(out)
end

local function deform_keys(keys)
  local out = {}
  for i, k in ipairs(keys) do
    local n = keys[i + 1]
    out[i] = O("time", time_of(k[1]), "offset", k.offset ~= 0 and k.offset or nil, "vertices", k.vertices,
               "curve", n and curve(k.shape, k[1], { 0 }, n[1], { 1 }))
  end
  return A(out)
end

-- Draw order keys: each key's whole order of slot names (nil: the
-- setup's) as the offsets Spine writes, only for slots that moved.
local function draw_order_keys(keys, slot_names)
  local setup = {}
  for i, name in ipairs(slot_names) do setup[name] = i end
  local out = {}
  for i, k in ipairs(keys) do
    local offsets
    if k.order then
      -- slots moved: the ones whose neighbours changed; moved, the rest fill in
      offsets = {}
      local moved = {}
      for _, name in ipairs(k.moved) do moved[name] = true end
      for place, name in ipairs(k.order) do
        if moved[name] then offsets[#offsets + 1] = O("slot", name, "offset", place - setup[name]) end
      end
      offsets = A(offsets)
    end
    out[i] = O("time", time_of(k[1]), "offsets", offsets)
  end
  return A(out)
end

local function events(keys)
  local out = {}
  for i, k in ipairs(keys) do
    out[i] = O("time", time_of(k[1]), "name", k[2], "int", k.int, "float", k.float, "string", k.string)
  end
  return A(out)
end

-- ------------------------------------------------------------------
-- the animations
-- ------------------------------------------------------------------

local function idle(ctx)
  local torso_first, torso_breath = band_deform(ctx.torso_shape, ctx.bones, function(x, y)
    -- the chest swells: its front forward and up, the back a little back
    if y < 128 then return 0, 0 end
    local lift = (y - 128) / 35
    return (x > 0 and 1.2 or -0.4) * lift, 0.6 * lift
  end)
  return O(
    "slots", O(
      "eye", O("attachment", A { O("time", 1.3, "name", "eye_closed"), O("time", 1.4, "name", "eye") }),
      "lantern_glow", O("alpha", timeline({ { 0, 0.75, "ease" }, { 1, 1, "ease" }, { 2, 0.75 } }, VALUE0))
    ),
    "bones", O(
      "hip", O("translate", timeline({ { 0, 0, 0, "ease" }, { 1, 0, -1.5, "ease" }, { 2, 0, 0 } }, TRANSLATE)),
      "spine", O("rotate", timeline({ { 0, 0, "ease" }, { 1, 1, "ease" }, { 2, 0 } }, ROTATE)),
      "chest", O("rotate", timeline({ { 0, 0, "ease" }, { 1, -1.5, "ease" }, { 2, 0 } }, ROTATE),
                 "scale", timeline({ { 0, 1, 1, "ease" }, { 1, 1.02, 1.04, "ease" }, { 2, 1, 1 } }, SCALE)),
      "upper_arm_front", O("rotate", timeline({ { 0, 0, "ease" }, { 1, 2.5, "ease" }, { 2, 0 } }, ROTATE)),
      "forearm_front", O("rotate", timeline({ { 0, 0, "ease" }, { 1.1, 3, "ease" }, { 2, 0 } }, ROTATE)),
      "upper_arm_back", O("rotate", timeline({ { 0, 0, "ease" }, { 1, -2, "ease" }, { 2, 0 } }, ROTATE)),
      "forearm_back", O("rotate", timeline({ { 0, 0, "ease" }, { 1.1, 4, "ease" }, { 2, 0 } }, ROTATE)),
      "hair", O("rotate", timeline({ { 0, 0, "ease" }, { 1.1, 4, "ease" }, { 2, 0 } }, ROTATE)),
      "cape", O("rotate", timeline({ { 0, 0, "ease" }, { 1.2, 2, "ease" }, { 2, 0 } }, ROTATE)),
      "lantern", O("rotate", timeline({ { 0, 0, "ease" }, { 1, 3, "ease" }, { 2, 0 } }, ROTATE)),
      "look_target", O("translate", timeline({ { 0, 0, 0, "ease" }, { 1, 0, -6, "ease" }, { 2, 0, 0 } }, TRANSLATE))
    ),
    "attachments", O("default", O("torso", O("torso", O("deform", deform_keys {
      { 0, shape = "ease" },
      { 1, offset = torso_first, vertices = torso_breath, shape = "ease" },
      { 2 },
    }))))
  )
end

-- The walk: in place, a stride of 36 (the ankle from 18 ahead to 18
-- behind in half a second, at the ground's speed), the body lowest at
-- each heel's contact.  Keys of the front foot's cycle, the back foot
-- half a second later.
local FOOT_PATH = {            -- time, ankle x, y (world), curve
  { 0, 18, 12, "linear" },
  { 0.4, -10.8, 12, "linear" },  -- the heel starts to rise
  { 0.5, -18, 17, "ease" },      -- toe off
  { 0.75, 0, 21, "ease" },       -- mid-swing, the foot lifted
  { 0.9, 16, 14, "out" },
  { 1, 18, 12 },
}
local FOOT_PITCH = {           -- the foot's rotation (its target's)
  { 0, 14, "out" }, { 0.1, 0, "linear" }, { 0.4, 0, "in" }, { 0.5, -24, "ease" }, { 0.6, -30, "ease" },
  { 0.85, 4, "ease" }, { 1, 14 },
}
local TOE_BEND = {             -- the toe stays on the ground while the heel rises
  { 0, 0, "linear" }, { 0.4, 0, "in" }, { 0.5, 24, "ease" }, { 0.6, 12, "ease" }, { 0.75, 0, "linear" }, { 1, 0 },
}
local ARM_SWING = {            -- the near arm: back when the near foot is ahead
  { 0, -18, "ease" }, { 0.5, 18, "ease" }, { 1, -18 },
}
local ELBOW = { { 0, 6, "ease" }, { 0.5, 24, "ease" }, { 1, 6 } }

local function negate(keys)
  local out = {}
  for i, k in ipairs(keys) do out[i] = { k[1], -k[2], k[3] } end
  return out
end

local function walk(ctx)
  local front = minus(FOOT_PATH, ANKLE_FRONT[1], ANKLE_FRONT[2])
  local back = minus(shifted(FOOT_PATH, 0.5, 1), ANKLE_BACK[1], ANKLE_BACK[2])
  local flutter = function(amount)
    return band_deform(ctx.cape_shape, ctx.bones, function(_, y)
      if y > 130 then return 0, 0 end
      return amount * (130 - y) / 32, 0
    end)
  end
  local cape_first, cape_out = flutter(-2.5)
  local cape_first2, cape_in = flutter(1.5)
  local soft = { { 0, softness = 2, bend = false, shape = "ease" }, { 0.5, softness = 4, bend = false, shape = "ease" },
                 { 1, softness = 2, bend = false } }
  return O(
    "slots", O(
      "lantern_glow", O("rgba", color_timeline({
        { 0, "ffe0a0d8", "ease" }, { 0.3, "fff0c0ff", "linear" }, { 0.55, "ffd890b0", "ease" },
        { 0.8, "fff0c0f0", "ease" }, { 1, "ffe0a0d8" } }, "color"))
    ),
    "bones", O(
      "hip", O("translatey", timeline({ { 0, -3, "out" }, { 0.25, 1, "in" }, { 0.5, -3, "out" }, { 0.75, 1, "in" },
                                        { 1, -3 } }, VALUE0),
               "rotate", timeline({ { 0, 2, "ease" }, { 0.5, -2, "ease" }, { 1, 2 } }, ROTATE)),
      "spine", O("rotate", timeline({ { 0, -2, "ease" }, { 0.5, 2, "ease" }, { 1, -2 } }, ROTATE)),
      "chest", O("rotate", timeline({ { 0, 1.5, "ease" }, { 0.25, 0, "ease" }, { 0.5, 1.5, "ease" },
                                     { 0.75, 0, "ease" }, { 1, 1.5 } }, ROTATE)),
      "foot_target_front", O("translate", timeline(front, TRANSLATE),
                             "rotate", timeline(FOOT_PITCH, ROTATE)),
      "foot_target_back", O("translate", timeline(back, TRANSLATE),
                            "rotate", timeline(shifted(FOOT_PITCH, 0.5, 1), ROTATE)),
      "toe_front", O("rotate", timeline(TOE_BEND, ROTATE)),
      "toe_back", O("rotate", timeline(shifted(TOE_BEND, 0.5, 1), ROTATE)),
      "upper_arm_front", O("rotate", timeline(ARM_SWING, ROTATE)),
      "forearm_front", O("rotate", timeline(ELBOW, ROTATE)),
      "upper_arm_back", O("rotate", timeline(negate(ARM_SWING), ROTATE)),
      "forearm_back", O("rotate", timeline(shifted(ELBOW, 0.5, 1), ROTATE)),
      "lantern", O("rotate", timeline({ { 0, 6, "ease" }, { 0.1, 8, "ease" }, { 0.6, -8, "ease" }, { 1, 6 } }, ROTATE)),
      "hair", O("rotate", timeline({ { 0, 5, "ease" }, { 0.25, -4, "ease" }, { 0.5, 5, "ease" }, { 0.75, -4, "ease" },
                                    { 1, 5 } }, ROTATE)),
      "cape", O("rotate", timeline({ { 0, 4, "ease" }, { 0.3, -2, "ease" }, { 0.5, 4, "ease" }, { 0.8, -2, "ease" },
                                    { 1, 4 } }, ROTATE)),
      "scarf", O("shear", timeline({ { 0, 0, 0, "ease" }, { 0.25, 8, -4, "ease" }, { 0.5, 0, 0, "ease" },
                                     { 0.75, 8, -4, "ease" }, { 1, 0, 0 } }, TRANSLATE)),
      -- a cartoon hop of the hat on each heel strike: held values
      "hat", O("translate", timeline({ { 0, 0, 0, "stepped" }, { 0.0667, 0, 1.5, "stepped" },
                                       { 0.2, 0, 0, "stepped" }, { 0.5667, 0, 1.5, "stepped" }, { 0.7, 0, 0 } },
                                     TRANSLATE))
    ),
    "ik", O("leg_front", ik_keys(soft), "leg_back", ik_keys(soft)),
    "attachments", O("default", O("cape", O("cape", O("deform", deform_keys {
      { 0, shape = "ease" },
      { 0.3, offset = cape_first, vertices = cape_out, shape = "ease" },
      { 0.5, shape = "ease" },
      { 0.8, offset = cape_first2, vertices = cape_in, shape = "ease" },
      { 1 },
    })))),
    "events", events {
      { 0, "footstep", int = 1, string = "front" },
      { 0.5, "footstep", int = 2, string = "back" },
    }
  )
end

-- The near arm raised ahead, the lantern held out (it still hangs
-- straight down: it inherits only translation); the head looks along.
local function aim()
  local hold = function(v, dv) return { { 0, v, "ease" }, { 0.5, v + dv, "ease" }, { 1, v } } end
  return O(
    "bones", O(
      "upper_arm_front", O("rotate", timeline(hold(88, 2), ROTATE)),
      "forearm_front", O("rotate", timeline(hold(-12, -1), ROTATE)),
      "hand_front", O("rotate", timeline(hold(6, 0), ROTATE)),
      "lantern", O("rotate", timeline(hold(0, 3), ROTATE)),
      "look_target", O("translate", timeline({ { 0, -3, -26, "ease" }, { 0.5, -3, -24, "ease" }, { 1, -3, -26 } },
                                             TRANSLATE))
    ),
    "ik", O("head_look", ik_keys { { 0, mix = 1, shape = "ease" }, { 0.5, mix = 0.95, shape = "ease" },
                                   { 1, mix = 1 } }),
    "transform", O("pad_follow", transform_keys { { 0, 0.8, "ease" }, { 0.5, 0.85, "ease" }, { 1, 0.8 } })
  )
end

-- The far arm waves in front of the face: moved ahead in the draw order
-- while it is up, its hand open.
local function wave(slot_names)
  local arm = { "upper_arm_back", "forearm_back", "hand_back" }
  local order = {}
  for _, name in ipairs(slot_names) do
    local is_arm = false
    for _, a in ipairs(arm) do if a == name then is_arm = true end end
    if not is_arm then order[#order + 1] = name end
    if name == "hat" then for _, a in ipairs(arm) do order[#order + 1] = a end end
  end
  return O(
    "slots", O(
      "hand_back", O("attachment", A { O("time", 0.15, "name", "hand_open"), O("time", 1.05, "name", "hand") }),
      "badge", O("rgb", color_timeline({ { 0, "ffffff", "ease" }, { 0.5, "fff2a0", "ease" }, { 1, "ffffff" } },
                                       "color")),
      "cape", O("rgba2", light_dark_timeline({ { 0, "ffffffff", "3a1020", "ease" },
                                              { 0.6, "ffe8e8ff", "6a2030", "ease" },
                                              { 1.2, "ffffffff", "3a1020" } }))
    ),
    "bones", O(
      "upper_arm_back", O("rotate", timeline({ { 0, 0, "ease" }, { 0.25, 91, "linear" }, { 0.95, 91, "ease" },
                                               { 1.2, 0 } }, ROTATE)),
      "forearm_back", O("rotate", timeline({ { 0, 0, "ease" }, { 0.25, 55, "ease" }, { 0.4, 38, "ease" },
                                             { 0.55, 58, "ease" }, { 0.7, 38, "ease" }, { 0.85, 55, "ease" },
                                             { 1.2, 0 } }, ROTATE)),
      "hand_back", O("rotate", timeline({ { 0.25, 0, "ease" }, { 0.55, 15, "ease" }, { 0.85, 0 } }, ROTATE)),
      "spine", O("rotate", timeline({ { 0, 0, "ease" }, { 0.3, 4, "ease" }, { 0.9, 4, "ease" }, { 1.2, 0 } }, ROTATE)),
      "hair", O("scalex", timeline({ { 0, 1, "ease" }, { 0.5, 1.1, "ease" }, { 1.2, 1 } }, VALUE1)),
      "hat", O("rotate", timeline({ { 0, 0, "stepped" }, { 0.45, 10, "stepped" }, { 0.75, 0 } }, ROTATE)),
      "badge", O("inherit", A { O("time", 0.3, "inherit", "normal"),
                                O("time", 0.9, "inherit", "noRotationOrReflection") })
    ),
    "drawOrder", draw_order_keys({ { 0.15, order = order, moved = arm }, { 1.05 } }, slot_names)
  )
end

-- ------------------------------------------------------------------
-- the whole skeleton
-- ------------------------------------------------------------------

--- hero_rig.build() -> the Spine 4.2 JSON value (hero_json objects),
-- and the setup bones (name -> { m = world matrix, ... }) for checks.
function hero_rig.build()
  local list, bones = build_bones()
  local torso, torso_shape = band_mesh("torso", TORSO_ROWS, bones)
  local cape, cape_shape = band_mesh("cape", CAPE_ROWS, bones)
  local slot_names = {}
  for i, s in ipairs(SLOTS) do slot_names[i] = s[1] end
  local ctx = { bones = bones, torso_shape = torso_shape, cape_shape = cape_shape }
  local bone_list, slot_list = {}, {}
  for i, b in ipairs(list) do bone_list[i] = bone_json(b) end
  for i, s in ipairs(SLOTS) do slot_list[i] = slot_json(s) end
  local default, skins = skins_json(bones, { torso = torso, cape = cape })
  local x, y, width, height = setup_bounds(bones, default, { torso_shape, cape_shape })
  local skeleton = O(
    "skeleton", O("spine", "4.2.22", "x", x, "y", y, "width", width, "height", height, "fps", 30),
    "bones", A(bone_list),
    "slots", A(slot_list),
    "ik", ik_json(),
    "transform", transform_json(bones),
    "skins", skins,
    "events", O("footstep", O("int", 1, "string", "front")),
    "animations", O("idle", idle(ctx), "walk", walk(ctx), "aim", aim(), "wave", wave(slot_names))
  )
  return skeleton, bones
end

return hero_rig
