--- ik2d.pure.skeleton: skeletons, their forward kinematics, the chains
-- that are paths through them and the solvers on those (src/ik2d_skeleton.c),
-- term for term: above ik2d.pure.solver, which knows no skeleton.
--
-- Bones are 1-based here (bone b of the C core is b + 1) and stored
-- parents first; a root's parent is 0.  A bone's frame (unflipped) is
-- kept in arrays fx, fy (origin), fa (world angle), fc, fs (its rotation)
-- and ftx, fty (tip); the transforms as drawn in one flat array, 5 a bone.
-- A skeleton chain is a chain (ik2d.pure.chain) with a link: its
-- skeleton (false once released), from, to, the bones at or below from
-- (below, a mask), and per chain bone its skeleton bone, phi and shift.
-- The skeleton lists its chains and the solvers on them in the order
-- made.
local api = require "ik2d.api"
local defs = require "ik2d.pure.defs"
local checks = require "ik2d.pure.checks"
local m = require "ik2d.pure.math"
local chains = require "ik2d.pure.chain"
local solvers = require "ik2d.pure.solver"
local bone_model = require "ik2d.pure.bone"
local limits = require "ik2d.pure.constraint"

local rot, abs, same_bits = m.rot, math.abs, m.same_bits
local place_bone = bone_model.place
local place_all, place_position, place_framed =
  bone_model.place_all, bone_model.place_position, bone_model.place_framed
local POSITION, NO_ROTATION = bone_model.POSITION, bone_model.NO_ROTATION_OR_REFLECTION
local NO_SCALE, NO_SCALE_OR_REFLECTION = bone_model.NO_SCALE, bone_model.NO_SCALE_OR_REFLECTION
local NAN = 0 / 0
local PI, wrap, hypot, atan2 = m.PI, m.wrap, m.hypot, m.atan2
local huge = math.huge
local base_angle, keep_base = chains.base_angle, chains.keep_base

local M = {}

M.MAX_BONES = defs.constant("MAX_SKELETON_BONES")
M.MAX_SOLVERS = defs.constant("MAX_SKELETON_SOLVERS")
M.TRANSFORM = 5

local function finite(x) return x - x == 0 end

-- ------------------------------------------------------------------
-- forward kinematics
-- ------------------------------------------------------------------

-- The frames and transforms of the bones first to last that mask marks
-- (every one without a mask), parents first.  A bone's frame (unflipped)
-- from its parent's or the base's; its transform as drawn: mirrored
-- about the base when flipped (a root bone at the base's origin stays
-- exactly there, as a chain's joint 1 does).  With bones (a pushed
-- chain's n skeleton bones, from first on) the path's positions are the
-- chain's joints, taken before the bones below them are placed.
--
-- Two ways, the same operations in the same order (same bits;
-- spec/pure_kernel_spec.lua runs both on every runtime): the flat one,
-- for an interpreter, one loop with the arrays in locals; the split one,
-- for LuaJIT's compiler, small functions a bone: a side trace inherits
-- every slot of the frames it returns through, and the flat loop's
-- (about 35) were more than the registers could coalesce ("NYI: register
-- coalescing too complex" at its exits, the row 3 times slower).
local place_general

local function place_flat(sk, first, last, mask, bones, n, joints)
  if sk.general then return place_general(sk, first, last, mask) end
  local parent, at_tip, position_only, ox, oy = sk.parent, sk.at_tip, sk.position_only, sk.ox,
    sk.oy
  local angle, length, T = sk.angle, sk.length, sk.T
  local fx, fy, fa, fc, fs, ftx, fty = sk.fx, sk.fy, sk.fa, sk.fc, sk.fs, sk.ftx, sk.fty
  local base_x, base_y, base_a, base_c, base_s = sk.base_x, sk.base_y, sk.base_angle,
    sk.base_c, sk.base_s
  local flip, mirror = sk.flip, 2.0 * sk.base_x
  local k = 1
  for b = first, last do
    if not mask or mask[b] then
      local p = parent[b]
      -- wrapped at each step, as a chain's world angles are
      local w
      if p > 0 and not position_only[b] then w = fa[p] + angle[b] else w = base_a + angle[b] end
      if not (w >= -PI and w < PI) then w = wrap(w) end
      local c, s
      -- fc, fs are always rot(fa): the same angle (zeros told apart) keeps
      -- them, without the trig (a base moved, or bones above it did not
      -- turn)
      local was = fa[b]
      if w == was and (w ~= 0.0 or 1.0 / w == 1.0 / was) then
        c, s = fc[b], fs[b]
      else
        fa[b] = w
        c, s = rot(w)
        fc[b], fs[b] = c, s
      end
      local l = length[b]
      local t = 5 * b - 5
      if flip then T[t + 3] = wrap(PI - w) else T[t + 3] = w end
      if bones and k <= n and bones[k] == b then
        -- on the pushed chain's joints (its position and, where it is the
        -- chain's, its tip): only its direction is the skeleton's
        local x, y = joints[2 * k - 1], joints[2 * k]
        T[t + 1], T[t + 2] = x, y
        if flip then fx[b] = mirror - x else fx[b] = x end
        fy[b] = y
        if k == n or at_tip[bones[k + 1]] then
          local tx, ty = joints[2 * k + 1], joints[2 * k + 2]
          T[t + 4], T[t + 5] = tx, ty
          if flip then ftx[b] = mirror - tx else ftx[b] = tx end
          fty[b] = ty
        else
          local tx = fx[b] + l * c
          ftx[b], fty[b] = tx, y + l * s
          if flip then T[t + 4] = mirror - tx else T[t + 4] = tx end
          T[t + 5] = fty[b]
        end
        k = k + 1
      else
        local x, y
        if at_tip[b] then
          if p > 0 then x, y = ftx[p], fty[p] else x, y = base_x, base_y end
        else
          local px, py, pc, ps = base_x, base_y, base_c, base_s
          if p > 0 then px, py, pc, ps = fx[p], fy[p], fc[p], fs[p] end
          local dx, dy = ox[b], oy[b]
          x = px + (pc * dx - ps * dy)
          y = py + (ps * dx + pc * dy)
        end
        fx[b], fy[b] = x, y
        local tx, ty = x + l * c, y + l * s
        ftx[b], fty[b] = tx, ty
        if flip then
          if p == 0 and at_tip[b] then T[t + 1] = base_x else T[t + 1] = mirror - x end
          T[t + 4] = mirror - tx
        else
          T[t + 1] = x
          T[t + 4] = tx
        end
        T[t + 2] = y
        T[t + 5] = ty
      end
    end
  end
end


-- Bone b's world direction from its parent's (or the base's), the split
-- way's: fa, and fc, fs (always rot(fa): the same angle keeps them).
local function turn(sk, b)
  local p, fa = sk.parent[b], sk.fa
  local w
  if p > 0 and not sk.position_only[b] then w = fa[p] + sk.angle[b] else w = sk.base_angle + sk.angle[b] end
  if not (w >= -PI and w < PI) then w = wrap(w) end
  local was = fa[b]
  if not (w == was and (w ~= 0.0 or 1.0 / w == 1.0 / was)) then
    fa[b] = w
    sk.fc[b], sk.fs[b] = rot(w)
  end
end

-- Bone b's frame from its parent's (or the base), unflipped (the split
-- way's).
local function frame(sk, b)
  local p = sk.parent[b]
  local fx, fy, ftx, fty = sk.fx, sk.fy, sk.ftx, sk.fty
  local x, y
  if sk.at_tip[b] then
    if p > 0 then x, y = ftx[p], fty[p] else x, y = sk.base_x, sk.base_y end
  else
    local px, py, pc, ps = sk.base_x, sk.base_y, sk.base_c, sk.base_s
    if p > 0 then px, py, pc, ps = fx[p], fy[p], sk.fc[p], sk.fs[p] end
    local ox, oy = sk.ox[b], sk.oy[b]
    x = px + (pc * ox - ps * oy)
    y = py + (ps * ox + pc * oy)
  end
  fx[b], fy[b] = x, y
  turn(sk, b)
  local length = sk.length[b]
  ftx[b], fty[b] = x + length * sk.fc[b], y + length * sk.fs[b]
end

-- Bone b's transform as drawn (the split way's; on a general skeleton a
-- root rigged at the base may have been moved off it by its pose).
local function transform(sk, b)
  local t, T = 5 * b - 5, sk.T
  if sk.flip then
    local mirror = 2.0 * sk.base_x
    if sk.parent[b] == 0 and sk.at_tip[b] and (not sk.general or sk.fx[b] == sk.base_x) then
      T[t + 1] = sk.base_x
    else
      T[t + 1] = mirror - sk.fx[b]
    end
    T[t + 3] = wrap(PI - sk.fa[b])
    T[t + 4] = mirror - sk.ftx[b]
  else
    T[t + 1] = sk.fx[b]
    T[t + 3] = sk.fa[b]
    T[t + 4] = sk.ftx[b]
  end
  T[t + 2] = sk.fy[b]
  T[t + 5] = sk.fty[b]
end

-- Bone b, the pushed chain's bone k of n, turned, at the chain's joints
-- (its position and, where it is the chain's, its tip: only its direction
-- is the skeleton's; the split way's).
local function on_path(sk, b, k, bones, n, joints)
  local T, fx, fy, ftx, fty = sk.T, sk.fx, sk.fy, sk.ftx, sk.fty
  local flip, mirror = sk.flip, 2.0 * sk.base_x
  local t = 5 * b - 5
  if flip then T[t + 3] = wrap(PI - sk.fa[b]) else T[t + 3] = sk.fa[b] end
  local x, y = joints[2 * k - 1], joints[2 * k]
  T[t + 1], T[t + 2] = x, y
  if flip then fx[b] = mirror - x else fx[b] = x end
  fy[b] = y
  if k == n or sk.at_tip[bones[k + 1]] then
    local tx, ty = joints[2 * k + 1], joints[2 * k + 2]
    T[t + 4], T[t + 5] = tx, ty
    if flip then ftx[b] = mirror - tx else ftx[b] = tx end
    fty[b] = ty
  else
    local l = sk.length[b]
    local tx = fx[b] + l * sk.fc[b]
    ftx[b], fty[b] = tx, fy[b] + l * sk.fs[b]
    if flip then T[t + 4] = mirror - tx else T[t + 4] = tx end
    T[t + 5] = fty[b]
  end
end

local function place_split(sk, first, last, mask, bones, n, joints)
  if sk.general then return place_general(sk, first, last, mask) end
  local k = 1
  for b = first, last do
    if not mask or mask[b] then
      if bones and k <= n and bones[k] == b then
        turn(sk, b)
        on_path(sk, b, k, bones, n, joints)
        k = k + 1
      else
        frame(sk, b)
        transform(sk, b)
      end
    end
  end
end

-- The bones of a pushed chain's path alone (n skeleton bones), turned
-- and on the chain's joints: a deferred push's placing, place's path
-- case (the flat way's).
local function path_flat(sk, bones, n, joints)
  local parent, at_tip, position_only, angle, length, T = sk.parent, sk.at_tip,
    sk.position_only, sk.angle, sk.length, sk.T
  local fx, fy, fa, fc, fs, ftx, fty = sk.fx, sk.fy, sk.fa, sk.fc, sk.fs, sk.ftx, sk.fty
  local base_a, flip, mirror = sk.base_angle, sk.flip, 2.0 * sk.base_x
  for k = 1, n do
    local b = bones[k]
    local p = parent[b]
    local w
    if p > 0 and not position_only[b] then w = fa[p] + angle[b] else w = base_a + angle[b] end
    if not (w >= -PI and w < PI) then w = wrap(w) end
    local c, s
    local was = fa[b]
    if w == was and (w ~= 0.0 or 1.0 / w == 1.0 / was) then
      c, s = fc[b], fs[b]
    else
      fa[b] = w
      c, s = rot(w)
      fc[b], fs[b] = c, s
    end
    local t = 5 * b - 5
    if flip then T[t + 3] = wrap(PI - w) else T[t + 3] = w end
    local x, y = joints[2 * k - 1], joints[2 * k]
    T[t + 1], T[t + 2] = x, y
    if flip then fx[b] = mirror - x else fx[b] = x end
    fy[b] = y
    if k == n or at_tip[bones[k + 1]] then
      local tx, ty = joints[2 * k + 1], joints[2 * k + 2]
      T[t + 4], T[t + 5] = tx, ty
      if flip then ftx[b] = mirror - tx else ftx[b] = tx end
      fty[b] = ty
    else
      local l = length[b]
      local tx = fx[b] + l * c
      ftx[b], fty[b] = tx, y + l * s
      if flip then T[t + 4] = mirror - tx else T[t + 4] = tx end
      T[t + 5] = fty[b]
    end
  end
end

local function path_split(sk, bones, n, joints)
  for k = 1, n do
    local b = bones[k]
    turn(sk, b)
    on_path(sk, b, k, bones, n, joints)
  end
end

-- ------------------------------------------------------------------
-- the general way: the artist's bone model
-- ------------------------------------------------------------------

-- A skeleton turns general (sk.general, for good) the first time a bone
-- or the skeleton is given a scale, shear, translation or inherit mode
-- the rigid way cannot place; then each bone's map in the skeleton's
-- space (wa, wb, wc, wd, wx, wy: x axis (a, c), y axis (b, d), origin)
-- is composed from its parent's (ik2d.pure.bone), and its frame and
-- transform derived from it, as src/ik2d_skeleton.c's general_frame.
-- Both placing ways above hand a general skeleton to place_general.

-- Bone b's frame from its map: its direction is its x axis', its tip its
-- length along that axis (scaled with it).  Its rotation (fc, fs) is not
-- kept: the C core finds it only when read, and nothing reads a general
-- skeleton's (NaN marks it stale).
local function world_frame(sk, b)
  local mx, my, ma, mc = sk.wx[b], sk.wy[b], sk.wa[b], sk.wc[b]
  local bc, bs = sk.base_c, sk.base_s
  local x = sk.base_x + (bc * mx - bs * my)
  local y = sk.base_y + (bs * mx + bc * my)
  sk.fx[b], sk.fy[b] = x, y
  local ax = bc * ma - bs * mc
  local ay = bs * ma + bc * mc
  local angle = wrap(atan2(ay, ax))
  local fa = sk.fa
  local was = fa[b]
  if not (angle == was and (angle ~= 0.0 or 1.0 / angle == 1.0 / was)) then
    fa[b] = angle
    sk.fc[b] = NAN
  end
  local length = sk.length[b]
  sk.ftx[b], sk.fty[b] = x + length * ax, y + length * ay
end

-- Bone b's map from its parent's (the skeleton scale's alone for a root)
-- and its result's local transform, then its frame.
local function general_frame(sk, b)
  local p, s = sk.parent[b], sk.shape[b]
  local wa, wb, wc, wd, wx, wy = sk.wa, sk.wb, sk.wc, sk.wd, sk.wx, sk.wy
  local inherit = sk.inherit[b]
  -- each mode its own call (bone.place's): LuaJIT gives up on a trace
  -- that carries every mode's values through one placing
  if p == 0 then
    wa[b], wb[b], wc[b], wd[b], wx[b], wy[b] = place_bone(nil, nil, nil, nil, nil, nil, s.x, s.y,
      sk.angle[b], s.scale_x, s.scale_y, s.shear_x, s.shear_y, inherit, sk.scale_x, sk.scale_y)
  elseif inherit == POSITION then
    wa[b], wb[b], wc[b], wd[b], wx[b], wy[b] = place_position(wa[p], wb[p], wc[p], wd[p], wx[p],
      wy[p], s.x, s.y, sk.angle[b], s.scale_x, s.scale_y, s.shear_x, s.shear_y, sk.scale_x,
      sk.scale_y)
  elseif inherit == NO_ROTATION or inherit == NO_SCALE or inherit == NO_SCALE_OR_REFLECTION then
    wa[b], wb[b], wc[b], wd[b], wx[b], wy[b] = place_framed(wa[p], wb[p], wc[p], wd[p], wx[p],
      wy[p], s.x, s.y, sk.angle[b], s.scale_x, s.scale_y, s.shear_x, s.shear_y, inherit,
      sk.scale_x, sk.scale_y)
  else
    wa[b], wb[b], wc[b], wd[b], wx[b], wy[b] = place_all(wa[p], wb[p], wc[p], wd[p], wx[p], wy[p],
      s.x, s.y, sk.angle[b], s.scale_x, s.scale_y, s.shear_x, s.shear_y)
  end
  world_frame(sk, b)
end

-- the general way's placing of the bones first to last that mask marks
function place_general(sk, first, last, mask)
  for b = first, last do
    if not mask or mask[b] then
      general_frame(sk, b)
      transform(sk, b)
    end
  end
end

-- bone b's frame, the split way's or the general way's
local function frame_of(sk, b)
  if sk.general then general_frame(sk, b) else frame(sk, b) end
end

--- bone b's map in the skeleton's space as drawn (flipped too): a, b, c,
-- d, x, y (x axis (a, c), y axis (b, d), origin), as
-- ik2d_skeleton_matrix; a rigid bone's is its rotation's
local function matrix(sk, b)
  local a, c, yb, yd
  if sk.general then
    local ma, mb, mc, md = sk.wa[b], sk.wb[b], sk.wc[b], sk.wd[b]
    local bc, bs = sk.base_c, sk.base_s
    a = bc * ma - bs * mc
    c = bs * ma + bc * mc
    yb = bc * mb - bs * md
    yd = bs * mb + bc * md
  else
    local rc, rs = sk.fc[b], sk.fs[b]
    a, c, yb, yd = rc, rs, -rs, rc
  end
  local T, t = sk.T, 5 * b - 5
  if sk.flip then return -a, -yb, c, yd, T[t + 1], T[t + 2] end
  return a, yb, c, yd, T[t + 1], T[t + 2]
end
M.matrix = matrix

--- keeps array (a C array of 6 doubles a bone, sk:matrix_array's) as the
-- skeleton's
function M.set_matrix_array(sk, array) sk.matrix_array = array end

--- every bone's matrix, 6 numbers a bone, into t from t[at] on
function M.matrices(sk, t, at)
  for b = 1, sk.count do
    local k = at + 6 * b - 6
    t[k], t[k + 1], t[k + 2], t[k + 3], t[k + 4], t[k + 5] = matrix(sk, b)
  end
end

-- The point (dx, dy) of bone b's space in the result, as drawn, on a
-- general skeleton: through its map (its origin where that point is
-- beyond the doubles).
local function general_point(sk, b, dx, dy)
  local u = sk.wa[b] * dx + sk.wb[b] * dy + sk.wx[b]
  local v = sk.wc[b] * dx + sk.wd[b] * dy + sk.wy[b]
  local bc, bs = sk.base_c, sk.base_s
  local px = sk.base_x + (bc * u - bs * v)
  local py = sk.base_y + (bs * u + bc * v)
  if not (px - px == 0 and py - py == 0) then px, py = sk.fx[b], sk.fy[b] end
  if sk.flip then return 2.0 * sk.base_x - px, py end
  return px, py
end

--- a world point as drawn in the skeleton's space (its base and flip
-- undone: ik2d__skeleton_unplace)
function M.unplace(sk, x, y)
  if sk.flip then x = 2.0 * sk.base_x - x end
  local dx, dy = x - sk.base_x, y - sk.base_y
  local bc, bs = sk.base_c, sk.base_s
  return bc * dx + bs * dy, bc * dy - bs * dx
end

M.place_flat, M.place_split = place_flat, place_split
M.path_flat, M.path_split = path_flat, path_split
-- LuaJIT with its compiler on: the split way
local JIT = rawget(_G, "jit") ~= nil and rawget(_G, "jit").status()
M.place = JIT and place_split or place_flat
M.place_path = JIT and path_split or path_flat

-- The transforms into the skeleton's FFI array (sk.array: made when
-- sk:transform_array is first asked for, false before), after a change.
local function synced(sk)
  local array = sk.array
  if array then
    local T = sk.T
    for k = 1, 5 * sk.count do array[k - 1] = T[k] end
  end
end
--- keeps array (a C array of 5 doubles a bone, sk:transform_array's) as
-- the skeleton's, filled now and after every change
function M.set_array(sk, array)
  sk.array = array
  synced(sk)
end

--- frames and transforms of the bones from first on that mask marks
-- (every one from first without a mask)
local function forward(sk, first, mask)
  M.place(sk, first, sk.count, mask, nil, 0, nil)
  synced(sk)
end
M.forward = forward

--- The point (dx, dy) of bone b's space in the result, as drawn (mirrored
-- about the base when flipped, with the bone); the bone's origin where
-- that point is beyond the doubles (ik2d__skeleton_point).
function M.point(sk, b, dx, dy)
  if sk.deferring then M.bone_ready(sk, b) end
  if sk.general then return general_point(sk, b, dx, dy) end
  local ox, oy, c, s = sk.fx[b], sk.fy[b], sk.fc[b], sk.fs[b]
  local x, y = ox + (c * dx - s * dy), oy + (s * dx + c * dy)
  if not (x - x == 0 and y - y == 0) then x, y = ox, oy end
  if sk.flip then
    x = 2.0 * sk.base_x - x
    if not (x - x == 0) then
      local t = 5 * b - 5
      x, y = sk.T[t + 1], sk.T[t + 2]
    end
  end
  return x, y
end

--- marks bone and its descendants in mask (the marks there stay)
local function subtree(sk, bone, mask)
  local parent = sk.parent
  mask[bone] = true
  for b = bone + 1, sk.count do
    local p = parent[b]
    if p >= bone and mask[p] then mask[b] = true end
  end
end
M.subtree = subtree

--- mask (a table) cleared for the skeleton's bones
local function cleared(mask, sk)
  for b = 1, sk.count do mask[b] = false end
  return mask
end
M.cleared = cleared

-- ------------------------------------------------------------------
-- skeleton chains: geometry, pull and push
-- ------------------------------------------------------------------

-- chain bone of skeleton bone b, or nil
local function chain_bone_of(ch, b)
  local link = ch.link
  if b < link.from or b > link.to then return nil end
  local bones = link.bones
  for k = 1, ch.count do
    if bones[k] == b then return k end
  end
  return nil
end

-- The path child of chain bone k starts at s in the bone's space: the
-- chain bone's length |s| and direction phi (the last bone runs to its
-- own tip).  An s along +x is exact: |s| = x, phi = 0.
local function segment(sk, bones, n, k)
  local x, y
  if k == n then
    x, y = sk.length[bones[k]], 0.0
  else
    local child = bones[k + 1]
    x, y = sk.ox[child], sk.oy[child]
  end
  if y == 0.0 and x >= 0.0 then return x, 0.0 end
  return hypot(x, y), atan2(y, x)
end

-- a + b, with b = 0 giving a's bits (-0 + 0 would be +0)
local function shifted(a, b)
  if b == 0.0 then return a end
  return a + b
end

-- Lengths, shifts, rest angles and reach of a chain from its skeleton.
local function geometry(ch)
  local link = ch.link
  local sk, bones, phis, shifts = link.skeleton, link.bones, link.phi, link.shift
  local previous, reach = 0.0, 0.0
  for k = 1, ch.count do
    local b = bones[k]
    local length, phi = segment(sk, bones, ch.count, k)
    local shift = phi - previous
    phis[k], shifts[k] = phi, shift
    previous = phi
    ch.length[k] = length
    reach = reach + length
    if shift == 0.0 then
      ch.rest[k], ch.rest_c[k], ch.rest_s[k] = sk.rest[b], sk.rest_c[b], sk.rest_s[b]
    else
      local rest = sk.rest[b] + shift
      ch.rest[k], ch.rest_c[k], ch.rest_s[k] = rest, rot(rest)
    end
  end
  ch.reach = reach
end

-- the same double, zeros told apart

-- Whether the base (x, y, angle) is the one sk has, to the bit: set again,
-- it places nothing (a placing from the angles may differ from a solve's
-- by an ulp).
local function has_base(sk, x, y, angle)
  return same_bits(x, sk.base_x) and same_bits(y, sk.base_y) and
    same_bits(base_angle(angle), sk.base_angle)
end

-- A skeleton chain's state but its joints, its base at (x, y) (drawn).
local function pull_state(ch, sk, link, x, y)
  local from, parent = link.from, sk.parent[link.from]
  local angle = sk.base_angle
  if parent > 0 and not sk.position_only[from] then angle = sk.fa[parent] end
  -- the base rotation's trig only when the angle changed
  if same_bits(base_angle(angle), ch.base_angle) then
    ch.base_x, ch.base_y = x, y
  else
    keep_base(ch, x, y, angle)
  end
  ch.flip = sk.flip
  ch.scale = 1.0
  local bones, shift = link.bones, link.shift
  local constraint, pose, angles = ch.constraint, ch.pose, ch.angle
  local sk_constraint, sk_pose, sk_angle = sk.constraint, sk.pose, sk.angle
  for k = 1, ch.count do
    local b = bones[k]
    constraint[k] = sk_constraint[b]
    -- shifted written out (two calls a bone a pull)
    local sh = shift[k]
    if sh == 0.0 then
      pose[k], angles[k] = sk_pose[b], sk_angle[b]
    else
      pose[k], angles[k] = sk_pose[b] + sh, sk_angle[b] + sh
    end
  end
end

-- A chain's joints from its skeleton's transforms: its bones' origins and
-- the last one's tip.
local function pull_joints(ch, sk, link)
  local T, n, bones, joints = sk.T, ch.count, link.bones, ch.joints
  for k = 1, n do
    local b = bones[k]
    joints[2 * k - 1], joints[2 * k] = T[5 * b - 4], T[5 * b - 3]
  end
  local to = link.to
  joints[2 * n + 1], joints[2 * n + 2] = T[5 * to - 1], T[5 * to]
end

-- How bone b's direction as drawn turns with its angle on a general
-- skeleton: with its turning space (ik2d.pure.bone's turn_frame), the
-- other way where that reflects, and the other way again when flipped.
local function general_turn(sk, b)
  local p, inherit = sk.parent[b], sk.inherit[b]
  local reflects
  -- (the skeleton scale's signs, not their product, which may underflow)
  if p == 0 or inherit == bone_model.POSITION or inherit == bone_model.NO_ROTATION_OR_REFLECTION then
    reflects = (sk.scale_x < 0.0) ~= (sk.scale_y < 0.0)
  else
    reflects = sk.wa[p] * sk.wd[p] - sk.wb[p] * sk.wc[p] < 0.0
  end
  if reflects ~= sk.flip then return -1.0 end
  return 1.0
end

-- Chain bone k's limit: its bone's, mirrored where the bone turns the
-- other way as drawn (a chain angle is -1 times the bone's there); the
-- link keeps the mirrored one.
local function general_limit(link, k, limit)
  if not limit or link.turn[k] > 0.0 then return limit end
  local def, mirrored = link.mirror_def, link.mirrored[k]
  def.min, def.max, def.invert, def.space = -limit.max, -limit.min, limit.invert, limit.space
  if mirrored then
    limits.set(mirrored, def)
  else
    mirrored = limits.new(def)
    link.mirrored[k] = mirrored
  end
  return mirrored
end

-- A chain over a general skeleton's path is its bones as drawn, whatever
-- their scales (src/ik2d_skeleton.c's general_pull derives it): chain
-- bone k from its bone's origin to the next one's (the last to its tip),
-- the base at from's origin with angle 0 and no flip; chain angle = turn_k
-- angle + offset_k, the rest likewise; the pose is the bones' result.
local function general_pull(ch, sk, link)
  pull_joints(ch, sk, link)
  local joints = ch.joints
  -- (base angle 0: its rotation's trig only when it was another)
  if same_bits(ch.base_angle, 0.0) then
    ch.base_x, ch.base_y = joints[1], joints[2]
  else
    keep_base(ch, joints[1], joints[2], 0.0)
  end
  ch.flip = false
  ch.scale = 1.0
  local T, bones, turns, offsets = sk.T, link.bones, link.turn, link.offset
  local lengths, angles, poses, rests = ch.length, ch.angle, ch.pose, ch.rest
  local previous, reach = 0.0, 0.0
  for k = 1, ch.count do
    local b = bones[k]
    local dx = joints[2 * k + 1] - joints[2 * k - 1]
    local dy = joints[2 * k + 2] - joints[2 * k]
    local length = hypot(dx, dy)
    local direction
    if length > 0.0 then direction = atan2(dy, dx) else direction = T[5 * b - 2] end
    if length ~= length or length == huge then
      -- joints beyond the doubles (a base near the largest, mirrored):
      -- the bone's own direction and scaled length, which stay finite
      length = sk.length[b] * hypot(sk.wa[b], sk.wc[b])
      direction = T[5 * b - 2]
    end
    local theta = wrap(direction - previous)
    previous = direction
    local turn_k = general_turn(sk, b)
    local offset = theta - turn_k * sk.angle[b]
    turns[k], offsets[k] = turn_k, offset
    lengths[k] = length
    reach = reach + length
    angles[k], poses[k] = theta, theta
    local rest = turn_k * sk.rest[b] + offset
    rests[k] = rest
    ch.rest_c[k], ch.rest_s[k] = rot(rest)
    ch.constraint[k] = general_limit(link, k, sk.constraint[b])
  end
  ch.reach = reach
  link.stale = false
end

--- A skeleton chain takes its skeleton's state: base, flip, limits, pose
-- and result (shifted), joints (from the transforms).
local function pull(ch)
  local link = ch.link
  local sk = link and link.skeleton
  if not sk then return end
  if sk.general then return general_pull(ch, sk, link) end
  local T, from = sk.T, link.from
  pull_state(ch, sk, link, T[5 * from - 4], T[5 * from - 3])
  -- (pull_joints written out: a call a chain a pull)
  local n, bones, joints = ch.count, link.bones, ch.joints
  for k = 1, n do
    local b = bones[k]
    joints[2 * k - 1], joints[2 * k] = T[5 * b - 4], T[5 * b - 3]
  end
  local to = link.to
  joints[2 * n + 1], joints[2 * n + 2] = T[5 * to - 1], T[5 * to]
  link.stale = false
end
M.pull = pull

local function pull_all(sk)
  local list = sk.chains
  for k = 1, #list do pull(list[k]) end
end

-- Every chain ending at a bone mask marks (but except) takes the state.
local function pull_marked(sk, mask, except)
  local list = sk.chains
  for k = 1, #list do
    local ch = list[k]
    if ch ~= except and mask[ch.link.to] then pull(ch) end
  end
end
M.pull_marked = pull_marked

-- ------------------------------------------------------------------
-- deferred frames and pulls, within a skeleton's solve
-- ------------------------------------------------------------------

-- Within a solve of the whole skeleton (sk.deferring), a push leaves the
-- bones below its path stale (sk.stale: frame and transform not yet
-- placed) and the chains ending there to pull (link.stale): the solve
-- places what a solve reads before it (bone_ready, chain_ready), and the
-- rest once at the end (settle); a later solve may well move them again.

function M.defer(sk) sk.deferring = true end

-- bone b placed, and the stale bones above it first
local function place_stale(sk, b)
  local p = sk.parent[b]
  if p > 0 and sk.stale[p] then place_stale(sk, p) end
  frame_of(sk, b)
  transform(sk, b)
  sk.stale[b] = false
end

--- bone b placed before it is read
local function bone_ready(sk, b)
  if sk.stale[b] then place_stale(sk, b) end
end
M.bone_ready = bone_ready

--- A stale chain pulled before its solve: all of it, or with joints false
-- (the solve writes them all before it reads them: its target is not its
-- tip) all but its joints.
function M.chain_ready(ch, joints)
  local link = ch.link
  local sk = link and link.skeleton
  if not sk or not link.stale then return end
  local from = link.from
  local p = sk.parent[from]
  if p > 0 then bone_ready(sk, p) end
  if joints or sk.general then
    bone_ready(sk, link.to)
    pull(ch)
    return
  end
  -- the base is from's origin, which its parent's frame gives: from's own
  -- frame (its trig) is left to the push after the solve
  local x, y
  if sk.stale[from] then
    if sk.at_tip[from] then
      if p > 0 then x, y = sk.ftx[p], sk.fty[p] else x, y = sk.base_x, sk.base_y end
    else
      local px, py, pc, ps = sk.base_x, sk.base_y, sk.base_c, sk.base_s
      if p > 0 then px, py, pc, ps = sk.fx[p], sk.fy[p], sk.fc[p], sk.fs[p] end
      local dx, dy = sk.ox[from], sk.oy[from]
      x = px + (pc * dx - ps * dy)
      y = py + (ps * dx + pc * dy)
    end
    if sk.flip and not (p == 0 and sk.at_tip[from]) then x = 2.0 * sk.base_x - x end
  else
    local T = sk.T
    x, y = T[5 * from - 4], T[5 * from - 3]
  end
  pull_state(ch, sk, link, x, y)
  link.stale = false
end

--- the stale bones placed and the stale chains pulled: everything as
-- without deferring
function M.settle(sk)
  if not sk.deferring then return end
  sk.deferring, sk.pending = false, false
  local stale = sk.stale
  M.place(sk, 1, sk.count, stale, nil, 0, nil)
  for b = 1, sk.count do stale[b] = false end
  synced(sk)
  local list = sk.chains
  for k = 1, #list do
    local ch = list[k]
    if ch.link.stale then pull(ch) end
  end
end

--- The base set as set_base sets it (checked by the caller), every bone
-- then stale and every chain to pull, deferring: for a solve that follows
-- at once and places what it reads (then settles).
function M.set_base_deferred(sk, x, y, angle)
  if has_base(sk, x, y, angle) then return end
  sk.base_x, sk.base_y = x, y
  local was = sk.base_angle
  angle = base_angle(angle)
  if not (angle == was and (angle ~= 0.0 or 1.0 / angle == 1.0 / was)) then
    sk.base_angle = angle
    sk.base_c, sk.base_s = rot(angle)
  end
  M.posed(sk)
end

--- The pose of bones changed in place (a clip): every bone stale and
-- every chain to pull, deferring, as after set_base_deferred
-- (ik2d__skeleton_posed).
function M.posed(sk)
  sk.deferring = true
  local stale = sk.stale
  for b = 1, sk.count do stale[b] = true end
  local list = sk.chains
  for k = 1, #list do list[k].link.stale = true end
end

--- The base set (checked by the caller) as set_base sets it, its bones
-- placed later: by the solve that follows (what it reads, then the rest
-- once), or by the first reader (M.ready).  Pending: stale outside a
-- solve.  At once when the transforms are read in place (an FFI array).
function M.set_base_later(sk, x, y, angle)
  if sk.array then return M.set_base(sk, x, y, angle) end
  if has_base(sk, x, y, angle) then return end
  M.set_base_deferred(sk, x, y, angle)
  sk.pending = true
end

--- the skeleton as without a base set later: every reader of its frames,
-- transforms or chains (but a solve of the whole skeleton) calls this
-- first
function M.ready(sk)
  if sk.pending then M.settle(sk) end
end

-- A push while deferring: the path's frames now (they take the chain's
-- joints), the bones below it and the chains ending there marked stale.
local function push_deferred(sk, ch, link, pull_others)
  local from, mask = link.from, link.below
  local p = sk.parent[from]
  if p > 0 then bone_ready(sk, p) end
  local stale, below = sk.stale, link.below_list
  for k = 1, #below do stale[below[k]] = true end
  local bones, n = link.bones, ch.count
  M.place_path(sk, bones, n, ch.joints)
  for k = 1, n do stale[bones[k]] = false end
  if not pull_others then return end
  local list = sk.chains
  for k = 1, #list do
    local other = list[k]
    if other ~= ch and mask[other.link.to] then other.link.stale = true end
  end
end

-- A general skeleton's chain written back: each bone's angle from its
-- chain angle (kept where the solve left the chain angle as pulled, so
-- that nothing moves by a rounding, or where a skeleton beyond the
-- doubles made it no number), the bones from from down placed
-- again by the bone model, the chain pulled as placed (src/
-- ik2d_skeleton.c's general_push says why).
local function general_push(sk, ch, link, pull_others)
  local bones, turns, offsets, angles, poses = link.bones, link.turn, link.offset, ch.angle,
    ch.pose
  local sk_angle = sk.angle
  for k = 1, ch.count do
    local angle = turns[k] * (angles[k] - offsets[k])
    if angles[k] ~= poses[k] and angle - angle == 0 then sk_angle[bones[k]] = angle end
  end
  local from, mask = link.from, link.below
  local p = sk.parent[from]
  if p > 0 then bone_ready(sk, p) end
  place_general(sk, from, sk.count, mask)
  synced(sk)
  local deferring = sk.deferring
  if deferring then
    local stale, below = sk.stale, link.below_list
    for k = 1, #below do stale[below[k]] = false end
  end
  general_pull(ch, sk, link)
  if not pull_others then return end
  local list = sk.chains
  for k = 1, #list do
    local other = list[k]
    if other ~= ch and mask[other.link.to] then
      if deferring then other.link.stale = true else pull(other) end
    end
  end
end

--- A skeleton chain's solve, written back: its bones take its result
-- angles (shift undone), its joints, and the bones below follow; with
-- pull_others, every other chain ending below then pulls.
function M.push(ch, pull_others)
  local link = ch.link
  local sk = link and link.skeleton
  if not sk then return end
  if sk.general then return general_push(sk, ch, link, pull_others) end
  local n, bones, shift, angles, joints = ch.count, link.bones, link.shift, ch.angle, ch.joints
  local sk_angle = sk.angle
  for k = 1, n do
    local b = bones[k]
    if shift[k] == 0.0 then
      sk_angle[b] = angles[k]
    else
      -- and back, so that the chain reads as a pull would write it
      sk_angle[b] = angles[k] - shift[k]
      angles[k] = sk_angle[b] + shift[k]
    end
  end
  if sk.deferring then return push_deferred(sk, ch, link, pull_others) end
  -- the frames below from (link.below: a bone's descendants never
  -- change), parents first; the path's positions are the chain's joints
  local mask = link.below
  M.place(sk, link.from, sk.count, mask, bones, n, joints)
  synced(sk)
  if pull_others then pull_marked(sk, mask, ch) end
end

-- ------------------------------------------------------------------
-- solvers in the skeleton's list
-- ------------------------------------------------------------------

-- removes value from the list, keeping the order
local function remove(list, value)
  for k = 1, #list do
    if list[k] == value then
      table.remove(list, k)
      return
    end
  end
end

-- Links the solver sv into the skeleton of its chain ch (nothing for a
-- standalone or released chain); false when the skeleton has
-- MAX_SOLVERS already.
local function link_solver(sv, ch)
  sv.skeleton = false
  local sk = ch.link and ch.link.skeleton
  if not sk then return true end
  if #sk.solvers >= M.MAX_SOLVERS then return false end
  sk.solvers[#sk.solvers + 1] = sv
  sv.skeleton = sk
  return true
end

--- a solver for the core chain ch from def, in its skeleton's solvers
-- when ch is a skeleton's (ik2d_solver_init); or nil and the status
function M.new_solver(ch, def)
  local sv, status = solvers.new(ch, def)
  if not sv then return nil, status end
  if not link_solver(sv, ch) then return nil, "SKELETON_SOLVERS" end
  return sv
end

--- a solver going: it leaves its skeleton's solvers and order (no-op
-- when it is not in them; ik2d_solver_release)
function M.unlink_solver(sv)
  local sk = sv.skeleton
  if not sk then return end
  remove(sk.solvers, sv)
  remove(sk.steps, sv)
  sv.skeleton = false
end

--- a chain going: its solvers go with it (a skeleton never solves a
-- released chain), out of the order too, and it leaves the skeleton's
-- chains
function M.release_chain(ch)
  local link = ch.link
  local sk = link and link.skeleton
  if not sk then return end
  -- the others kept in order, in one pass (LuaJIT 2.1.0-beta3's JIT kept
  -- a stale #list in a loop calling table.remove, now and then)
  local list, kept, n = sk.solvers, 0, #sk.solvers
  for k = 1, n do
    local sv = list[k]
    if sv.chain == ch then
      sv.skeleton = false
    else
      kept = kept + 1
      list[kept] = sv
    end
  end
  for k = kept + 1, n do list[k] = nil end
  -- (a constraint has no chain)
  list, kept, n = sk.steps, 0, #sk.steps
  for k = 1, n do
    local step = list[k]
    if step.chain ~= ch then
      kept = kept + 1
      list[kept] = step
    end
  end
  for k = kept + 1, n do list[k] = nil end
  remove(sk.chains, ch)
  link.skeleton = false
end

--- a transform constraint joins the skeleton's, last; false when it has
-- MAX_SOLVERS already
function M.link_constraint(sk, tc)
  local list = sk.constraints
  if #list >= M.MAX_SOLVERS then return false end
  list[#list + 1] = tc
  return true
end

--- a transform constraint leaves the skeleton's constraints and order
function M.unlink_constraint(sk, tc)
  remove(sk.constraints, tc)
  remove(sk.steps, tc)
end

-- Is v a solver or a constraint of sk?  (A constraint is told by its
-- is_transform_constraint.)
local function step_of(sk, v)
  local list = v.is_transform_constraint and sk.constraints or sk.solvers
  for k = 1, #list do
    if list[k] == v then return true end
  end
  return false
end

--- The order the skeleton's solve runs its solvers and transform
-- constraints in (ik2d_skeleton_set_order): list[1..count], each a solver
-- on its chains or one of its constraints (core objects; false for any
-- other value), once.  nil, or the status and the index of the step
-- refused (nil for a count beyond the most).
function M.set_order(sk, list, count)
  if count > 2 * M.MAX_SOLVERS then return "ORDER_STEP" end
  for i = 1, count do
    local v = list[i]
    if not v or not step_of(sk, v) then return "ORDER_STEP", i end
    for j = 1, i - 1 do
      if list[j] == v then return "ORDER_TWICE", i end
    end
  end
  local steps = sk.steps
  for i = 1, count do steps[i] = list[i] end
  for i = #steps, count + 1, -1 do steps[i] = nil end
  return nil
end

--- a skeleton going: every chain, solver and constraint leaves it, and
-- its order goes
function M.release(sk)
  local list = sk.chains
  for k = #list, 1, -1 do
    list[k].link.skeleton = false
    list[k] = nil
  end
  list = sk.solvers
  for k = #list, 1, -1 do
    list[k].skeleton = false
    list[k] = nil
  end
  list = sk.constraints
  for k = #list, 1, -1 do
    list[k].skeleton = false
    list[k] = nil
  end
  list = sk.steps
  for k = #list, 1, -1 do list[k] = nil end
end

-- ------------------------------------------------------------------
-- set-up
-- ------------------------------------------------------------------

local check_base = chains.check_base
local check_length = checks.values(api.skeleton_bone, { "length" })
local check_rest = checks.values(api.skeleton_bone, { "rest" })

-- A skeleton's limits are in parent space: its coupled solve turns bones
-- in their parents' frames.
local function check_limit(limit)
  if limit and limit.world then return "SKELETON_SPACE" end
  return nil
end
M.check_limit = check_limit

-- The rules of lua/ik2d/api.lua's skeleton bone, named as in
-- src/ik2d_skeleton.c, on bone i of a def: { parent = (0: the base),
-- length =, rest =, at_tip =, x =, y =, scale_x =, scale_y =, shear_x =,
-- shear_y =, inherit = (0 .. 4, ik2d.pure.bone's numbers), constraint =
-- (false: none) } (inherit read and checked by the binding).
local BONE_RULES = {}
function BONE_RULES.parent_earlier(bone, i) return bone.parent >= 0 and bone.parent < i end
function BONE_RULES.limit_in_parent_space(bone) return not check_limit(bone.constraint) end
local check_bone = checks.def(api.skeleton_bone, BONE_RULES, { inherit = false })

-- The rules of lua/ik2d/api.lua's skeleton, on M.new's def.
local RULES = {}

-- every bone as check_bone checks it; the status and the bone refused
function RULES.skeleton_bones_valid(def)
  for i = 1, def.count do
    local status = check_bone(def.bones[i], i)
    if status then return status, i end
  end
  return nil
end

-- every length and origin offset, summed: while finite, every position
-- the bones reach is
function RULES.skeleton_extent_finite(def)
  local extent = 0.0
  for i = 1, def.count do
    local bone = def.bones[i]
    extent = extent + bone.length
    if not bone.at_tip then extent = extent + (abs(bone.x) + abs(bone.y)) end
  end
  return finite(extent)
end

local check_def = checks.def(api.skeleton, RULES, { bone_count = "count" })

local function array(n, v)
  local t = {}
  for i = 1, n do t[i] = v end
  return t
end

-- A bone's shape: its local transform but its angle (which the arrays
-- pose, angle and rest keep, as the rigid way reads them).
local function new_shape(x, y, scale_x, scale_y, shear_x, shear_y)
  return { x = x, y = y, scale_x = scale_x, scale_y = scale_y, shear_x = shear_x,
           shear_y = shear_y }
end

local function copy_shape(from, to)
  to.x, to.y, to.scale_x, to.scale_y = from.x, from.y, from.scale_x, from.scale_y
  to.shear_x, to.shear_y = from.shear_x, from.shear_y
end

--- a local transform record: x, y, angle, scale_x, scale_y, shear_x,
-- shear_y (what ik2d.pure.bone_ik and ik2d.pure.transform change)
function M.new_local()
  return { x = 0.0, y = 0.0, angle = 0.0, scale_x = 1.0, scale_y = 1.0, shear_x = 0.0,
           shear_y = 0.0 }
end

--- bone b's result as a local transform, into the record l
function M.local_of(sk, b, l)
  local s = sk.shape[b]
  l.x, l.y, l.angle, l.scale_x, l.scale_y = s.x, s.y, sk.angle[b], s.scale_x, s.scale_y
  l.shear_x, l.shear_y = s.shear_x, s.shear_y
  return l
end

--- bone b's result takes the local transform record l
function M.set_local(sk, b, l)
  local s = sk.shape[b]
  s.x, s.y, sk.angle[b], s.scale_x, s.scale_y = l.x, l.y, l.angle, l.scale_x, l.scale_y
  s.shear_x, s.shear_y = l.shear_x, l.shear_y
end

-- Can the rigid way place a bone of this shape and inherit mode, whose
-- origin is (x, y)?  Unit scale, no shear, at its origin, all or position.
local function shape_rigid(s, inherit, x, y)
  return s.scale_x == 1.0 and s.scale_y == 1.0 and s.shear_x == 0.0 and s.shear_y == 0.0 and
    s.x == x and s.y == y and (inherit == bone_model.ALL or inherit == bone_model.POSITION)
end

-- Whether a new skeleton needs the general way: a bone or its scale.
local function needs_general(sk)
  if sk.scale_x ~= 1.0 or sk.scale_y ~= 1.0 then return true end
  for i = 1, sk.count do
    if not shape_rigid(sk.setup[i], sk.inherit[i], sk.ox[i], sk.oy[i]) then return true end
  end
  return false
end

--- A skeleton from def { count =, bones = {...}, x =, y =, angle =, flip
-- =, scale_x =, scale_y = }, or nil, the status and the bad bone (or
-- nil).
function M.new(def)
  local status, bad = check_def(def)
  if status then return nil, status, bad end
  local n, bones = def.count, def.bones
  local sk = {
    count = n, flip = def.flip, parent = {}, length = {}, rest = {}, rest_c = {},
    rest_s = {}, at_tip = {}, position_only = {}, inherit = {}, constraint = {}, ox = {},
    oy = {}, pose = {}, angle = {}, fx = array(n, 0.0), fy = array(n, 0.0),
    fa = array(n, 0.0), fc = array(n, 1.0), fs = array(n, 0.0), ftx = array(n, 0.0),
    fty = array(n, 0.0), T = array(5 * n, 0.0), chains = {}, solvers = {}, array = false,
    -- the bone model: placed by it (for good), the skeleton scale, each
    -- bone's set-up, animated and result shapes and its map (general)
    general = false, scale_x = def.scale_x, scale_y = def.scale_y, setup = {},
    pose_shape = {}, shape = {}, wa = array(n, 0.0), wb = array(n, 0.0), wc = array(n, 0.0),
    wd = array(n, 0.0), wx = array(n, 0.0), wy = array(n, 0.0),
    -- its transform constraints, in the order made, and the order set
    -- (solvers and constraints)
    constraints = {}, steps = {},
    -- sk:matrix_array's FFI array (LuaJIT; false before it is asked for)
    matrix_array = false,
    -- the bones a push or an edit moved (the two never nest)
    mask = array(n, false),
    -- within a solve of the whole skeleton: the bones not yet placed
    deferring = false, stale = array(n, false),
    -- deferring since a base set later, outside a solve (M.set_base_later)
    pending = false,
    -- the working state of its solves (ik2d.pure.skeleton_solve's), made
    -- at the first
    work = false,
  }
  for i = 1, n do
    local bone = bones[i]
    local rest = bone.rest
    sk.parent[i], sk.length[i], sk.rest[i] = bone.parent, bone.length, rest
    sk.rest_c[i], sk.rest_s[i] = rot(rest)
    sk.at_tip[i], sk.inherit[i] = bone.at_tip, bone.inherit
    sk.position_only[i] = bone.inherit == bone_model.POSITION
    sk.constraint[i] = bone.constraint
    -- at the tip: the parent's length along its +x (0, 0 for a root)
    if not bone.at_tip then
      sk.ox[i], sk.oy[i] = bone.x, bone.y
    else
      if bone.parent > 0 then sk.ox[i] = bones[bone.parent].length else sk.ox[i] = 0.0 end
      sk.oy[i] = 0.0
    end
    sk.setup[i] = new_shape(sk.ox[i], sk.oy[i], bone.scale_x, bone.scale_y, bone.shear_x,
      bone.shear_y)
    sk.pose_shape[i] = new_shape(sk.ox[i], sk.oy[i], bone.scale_x, bone.scale_y, bone.shear_x,
      bone.shear_y)
    sk.shape[i] = new_shape(sk.ox[i], sk.oy[i], bone.scale_x, bone.scale_y, bone.shear_x,
      bone.shear_y)
  end
  sk.base_x, sk.base_y = def.x, def.y
  sk.base_angle = base_angle(def.angle)
  sk.base_c, sk.base_s = rot(sk.base_angle)
  for i = 1, n do
    sk.pose[i] = sk.rest[i]
    sk.angle[i] = sk.rest[i]
  end
  sk.general = needs_general(sk)
  forward(sk, 1, nil)
  return sk
end

-- ------------------------------------------------------------------
-- edits
-- ------------------------------------------------------------------

-- Bone i and those below it moved: their frames, and the chains ending
-- there.
local function moved(sk, i)
  local mask = cleared(sk.mask, sk)
  subtree(sk, i, mask)
  forward(sk, i, mask)
  pull_marked(sk, mask, nil)
end

M.moved = moved

--- the same placing, the chains left to pull (moved after a run of such:
-- ik2d__skeleton_place_below)
function M.place_below(sk, i)
  local mask = cleared(sk.mask, sk)
  subtree(sk, i, mask)
  forward(sk, i, mask)
end

-- Everything moved (base, flip, reset).
local function moved_all(sk)
  forward(sk, 1, nil)
  pull_all(sk)
end

--- The skeleton turns general (ik2d__skeleton_make_general): nothing
-- moves (the rigid way's bones are the general way's too), though the
-- frames are placed again the general way.
function M.make_general(sk)
  if sk.general then return end
  M.settle(sk)
  sk.general = true
  moved_all(sk)
end

--- every bone's result back to its pose (angle and shape), placed, the
-- chains pulled
function M.to_pose(sk)
  local angle, pose, shape, pose_shape = sk.angle, sk.pose, sk.shape, sk.pose_shape
  -- every bone placed and every chain pulled below: nothing left stale
  sk.deferring, sk.pending = false, false
  local stale = sk.stale
  for b = 1, sk.count do
    angle[b] = pose[b]
    copy_shape(pose_shape[b], shape[b])
    stale[b] = false
  end
  moved_all(sk)
end

--- After a constraint set the maps of the bones kept marks: their
-- frames from those maps, the bones below placed again from them, the
-- chains they moved pulled (ik2d__skeleton_worlds_moved; moved: the
-- caller's scratch).
function M.worlds_moved(sk, kept, moved_bones)
  local parent = sk.parent
  for b = 1, sk.count do
    local p = parent[b]
    local now = kept[b] or (p > 0 and moved_bones[p])
    moved_bones[b] = now
    if now then
      if kept[b] then world_frame(sk, b) else general_frame(sk, b) end
      transform(sk, b)
    end
  end
  synced(sk)
  -- a chain moved where its last bone did (ik2d__skeleton_worlds_moved)
  local list = sk.chains
  for k = 1, #list do
    local ch = list[k]
    if moved_bones[ch.link.to] then pull(ch) end
  end
end

function M.set_base(sk, x, y, angle)
  local status = check_base(x, y, angle)
  if status then return status end
  M.ready(sk)
  if has_base(sk, x, y, angle) then return nil end
  sk.base_x, sk.base_y = x, y
  local was = sk.base_angle
  angle = base_angle(angle)
  -- base_c, base_s are rot(base_angle): kept for the same angle
  if not (angle == was and (angle ~= 0.0 or 1.0 / angle == 1.0 / was)) then
    sk.base_angle = angle
    sk.base_c, sk.base_s = rot(angle)
  end
  moved_all(sk)
  return nil
end

function M.set_flip(sk, flip)
  if flip == sk.flip then return end
  sk.flip = flip
  moved_all(sk)
end

function M.set_pose(sk, i, angle)
  if not finite(angle) then return "POSE" end
  -- the value it has: nothing to place again (not a bit moves)
  if same_bits(sk.pose[i], angle) and same_bits(sk.angle[i], angle) then return nil end
  sk.pose[i] = angle
  sk.angle[i] = angle
  moved(sk, i)
  return nil
end

-- a local transform's check (ik2d_bone_local's), on a record
local check_local = checks.def(api.bone_local)

-- the same double, zeros told apart, for each part of two shapes
local function same_shape(a, b)
  return same_bits(a.x, b.x) and same_bits(a.y, b.y) and same_bits(a.scale_x, b.scale_x) and
    same_bits(a.scale_y, b.scale_y) and same_bits(a.shear_x, b.shear_x) and
    same_bits(a.shear_y, b.shear_y)
end

--- Bone i's whole animated local transform, the record l (x, y, angle,
-- scale, shear; ik2d_skeleton_set_pose_local): nil, or the status of its
-- check.  A value the bone has already changes nothing.
function M.set_pose_local(sk, i, l)
  local status = check_local(l)
  if status then return status end
  local angle = l.angle
  -- (l stands for the shape: its fields are a shape's and an angle)
  if same_bits(sk.pose[i], angle) and same_bits(sk.angle[i], angle) and
     same_shape(sk.pose_shape[i], l) and same_shape(sk.shape[i], l) then
    return nil
  end
  if not shape_rigid(l, sk.inherit[i], sk.ox[i], sk.oy[i]) then M.make_general(sk) end
  sk.pose[i], sk.angle[i] = angle, angle
  copy_shape(l, sk.pose_shape[i])
  copy_shape(l, sk.shape[i])
  moved(sk, i)
  return nil
end

--- bone i's local transform of angles and shapes (sk.pose and
-- sk.pose_shape, ...): angle, x, y, scale_x, scale_y, shear_x, shear_y
function M.local_values(angles, shapes, i)
  local s = shapes[i]
  return angles[i], s.x, s.y, s.scale_x, s.scale_y, s.shear_x, s.shear_y
end

local check_scale = checks.values(api.skeleton, { "scale_x", "scale_y" })

--- the skeleton's scale, under its base: nil or the status
function M.set_scale(sk, sx, sy)
  local status = check_scale(sx, sy)
  if status then return status end
  if same_bits(sx, sk.scale_x) and same_bits(sy, sk.scale_y) then return nil end
  if sx ~= 1.0 or sy ~= 1.0 then M.make_general(sk) end
  sk.scale_x, sk.scale_y = sx, sy
  moved_all(sk)
  return nil
end

-- The chains over bone i take its new geometry (lengths, rest angles).
local function regeometry(sk, i)
  local list = sk.chains
  for k = 1, #list do
    if chain_bone_of(list[k], i) then geometry(list[k]) end
  end
end

function M.set_length(sk, i, length)
  local status = check_length(length)
  if status then return status end
  local extent = 0.0
  for b = 1, sk.count do
    if b == i then extent = extent + length else extent = extent + sk.length[b] end
    if not sk.at_tip[b] then extent = extent + (abs(sk.ox[b]) + abs(sk.oy[b])) end
  end
  if not finite(extent) then return "REACH" end
  if same_bits(sk.length[i], length) then return nil end
  sk.length[i] = length
  -- the children at its tip follow (their translation with them)
  for b = i + 1, sk.count do
    if sk.parent[b] == i and sk.at_tip[b] then
      sk.ox[b] = length
      sk.setup[b].x, sk.pose_shape[b].x, sk.shape[b].x = length, length, length
    end
  end
  regeometry(sk, i)
  moved(sk, i)
  return nil
end

function M.set_rest(sk, i, angle)
  local status = check_rest(angle)
  if status then return status end
  if same_bits(sk.rest[i], angle) then return nil end
  sk.rest[i] = angle
  sk.rest_c[i], sk.rest_s[i] = rot(angle)
  regeometry(sk, i)
  -- the angles stay; the transforms are made theirs again
  moved(sk, i)
  return nil
end

--- bone i's limit (false: none); the chains over it take it
function M.set_constraint(sk, i, limit)
  if check_limit(limit) then return "SKELETON_SPACE" end
  sk.constraint[i] = limit
  local list = sk.chains
  for k = 1, #list do
    local ch = list[k]
    local at = chain_bone_of(ch, i)
    if at then ch.constraint[at] = limit end
  end
  return nil
end

local function to_setup(sk)
  for i = 1, sk.count do
    sk.pose[i] = sk.rest[i]
    sk.angle[i] = sk.rest[i]
    copy_shape(sk.setup[i], sk.pose_shape[i])
    copy_shape(sk.setup[i], sk.shape[i])
  end
end

--- pose and result back to the set-up (rest angles, set-up shapes)
function M.reset(sk)
  to_setup(sk)
  moved_all(sk)
end

--- as reset, the bones placed by the next solve: posed
-- (ik2d__skeleton_setup_posed)
function M.setup_posed(sk)
  to_setup(sk)
  M.posed(sk)
end

-- ------------------------------------------------------------------
-- chains over paths
-- ------------------------------------------------------------------

--- The path from bone from down to bone to: nil and its bone count, or
-- the status and the bone it names.
function M.path(sk, from, to)
  local count, b = 1, to
  while b > from do
    if sk.inherit[b] ~= bone_model.ALL then return "PATH_INHERIT", b end
    count = count + 1
    b = sk.parent[b]
  end
  if b ~= from then return "PATH", to end
  if count > chains.MAX_BONES then return "BONE_COUNT", to end
  return nil, count
end

--- A chain over the path from..to (checked), linked into the skeleton,
-- or nil and the status.
function M.chain(sk, from, to)
  local status, n = M.path(sk, from, to)
  if status then return nil, status end
  -- below: the bones at or below from, which a push places
  -- (turn, offset, mirrored: on a general skeleton, general_pull's)
  local link = { skeleton = false, from = from, to = to, bones = {}, phi = {}, shift = {},
                 below = cleared({}, sk), stale = false, turn = {}, offset = {}, mirrored = {},
                 mirror_def = {} }
  subtree(sk, from, link.below)
  -- the same bones in a list, for a deferred push's marks
  link.below_list = {}
  for b = from, sk.count do
    if link.below[b] then link.below_list[#link.below_list + 1] = b end
  end
  local bones, phis, shifts = link.bones, link.phi, link.shift
  local b = to
  for k = n, 1, -1 do
    bones[k] = b
    b = sk.parent[b]
  end
  local def = { count = n, length = {}, rest = {}, constraint = {}, x = 0.0, y = 0.0,
    angle = 0.0, flip = false }
  for k = 1, n do
    local previous = 0.0
    if k > 1 then previous = phis[k - 1] end
    local length, phi = segment(sk, bones, n, k)
    phis[k], shifts[k] = phi, phi - previous
    def.length[k] = length
    def.rest[k] = shifted(sk.rest[bones[k]], shifts[k])
    def.constraint[k] = sk.constraint[bones[k]]
  end
  local ch
  ch, status = chains.new(def, true)
  if not ch then return nil, status end
  ch.link = link
  link.skeleton = sk
  sk.chains[#sk.chains + 1] = ch
  pull(ch)
  return ch
end

return M
