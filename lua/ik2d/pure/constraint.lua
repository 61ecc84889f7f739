--- ik2d.pure.constraint: joint limits, wrap-safe (src/ik2d_constraint.c).
-- A constraint is a table: its def (min, max, invert, space) as given, and
-- the allowed arc derived from it, mid +- half, also as rotations.
local api = require "ik2d.api"
local m = require "ik2d.pure.math"
local N = require "ik2d.pure.numbers"
local checks = require "ik2d.pure.checks"

local rot, abs = m.rot, math.abs
local PI, TWO_PI, wrap = m.PI, m.TWO_PI, m.wrap

local M = {}

--- min = -pi, max = pi, not inverted, parent space: every angle allowed
function M.default_def()
  return { min = -PI, max = PI, invert = false, space = "parent" }
end

-- The rule of lua/ik2d/api.lua's constraint, named as in
-- src/ik2d_constraint.c: min <= max (an inverted range is the outside of
-- [min, max]).
local RULES = {}
function RULES.limits_in_order(def) return def.min <= def.max end

--- nil, or the status naming what is wrong with def (ik2d.pure.checks)
M.check = checks.def(api.constraint, RULES)

-- The arc from a checked def (constraint_derive).
local function derive(c, def)
  local min, max, invert = def.min, def.max, def.invert
  c.min, c.max, c.invert, c.space = min, max, invert, def.space
  c.world = def.space == "world"
  -- an inverted range allows the arc from max round to min + 2 pi
  local low, high, width
  if invert then
    low, high, width = max, min + TWO_PI, TWO_PI - (max - min)
  else
    low, high, width = min, max, max - min
  end
  c.full = width >= TWO_PI
  c.mid = 0.5 * low + 0.5 * high
  -- an inverted range of more than 2 pi pins the joint (see the C)
  if c.full then
    c.half = PI
  elseif width > 0.0 then
    c.half = 0.5 * width
  else
    c.half = 0.0
  end
  c.mid_c, c.mid_s = rot(c.mid)
  c.half_c, c.half_s = rot(c.half)
  -- the cosine of the on-limit edge (half less ON_LIMIT): a rotation far
  -- inside it is not on the limit, without its angle (pose.on_limit)
  c.edge_c = rot(c.half - N.ON_LIMIT)
  -- which test clamp_rot makes: the cosine where it is steep, else the
  -- sine (half_cos > 0 or < 0)
  if abs(c.half_c) <= 0.7071067811865476 then
    c.mode = 1
  elseif c.half_c > 0.0 then
    c.mode = 2
  else
    c.mode = 3
  end
end

--- a new constraint from def, or nil and the status
function M.new(def)
  local status = M.check(def)
  if status then return nil, status end
  local c = {}
  derive(c, def)
  return c
end

--- new limits for every bone sharing c; nil or the status (c unchanged)
function M.set(c, def)
  local status = M.check(def)
  if status == nil then derive(c, def) end
  return status
end

--- the def as last set, into out
function M.get(c, out)
  out.min, out.max, out.invert, out.space = c.min, c.max, c.invert, c.space
  return out
end

--- the allowed delta nearest to delta, in the frame centred on the range
function M.clamp(c, delta)
  if c.full then return delta end
  local mid, half = c.mid, c.half
  -- (wrap's in-range case inline: a call a bone a solve)
  local off = delta - mid
  if not (off >= -PI and off < PI) then off = wrap(off) end
  local centred = mid + off
  if centred > mid + half then return mid + half end
  if centred < mid - half then return mid - half end
  return centred
end

--- The turn from local angle `from` to local angle `to` of a bone whose
-- rest angle is rest (c its limit or false): for a parent-space limit,
-- to's nearest allowed angle less from, both in the frame centred on the
-- arc (a blend never sweeps through forbidden angles); else the shortest.
function M.turn(c, rest, from, to)
  if c and not c.full and not c.world then
    local mid = c.mid
    return M.clamp(c, to - rest) - (mid + wrap(from - rest - mid))
  end
  return wrap(to - from)
end

--- from, to of the allowed arc; nothing when every delta is allowed
function M.arc(c)
  if c.full then return end
  return c.mid - c.half, c.mid + c.half
end

-- whether (rel_c, rel_s), a rotation relative to the middle of c's arc,
-- lies inside it
local function rel_inside(c, rel_c, rel_s)
  local mode = c.mode
  if mode == 1 then return rel_c >= c.half_c end
  -- |rel_s| compared without the call (a NaN fails both ways, as there)
  local half_s = c.half_s
  if mode == 2 then return rel_c >= 0.0 and rel_s <= half_s and -rel_s <= half_s end
  return rel_c >= 0.0 or rel_s >= half_s or -rel_s >= half_s
end

--- Whether rotation (rc, rs) lies in the arc around the middle (mc, ms):
-- clamp_rot's test alone (it leaves such a rotation as it is).
function M.inside(c, mc, ms, rc, rs)
  if c.full then return true end
  return rel_inside(c, mc * rc + ms * rs, mc * rs - ms * rc)
end

--- Moves rotation (rc, rs) into the arc of half-width half around the
-- middle (mc, ms): returns whether it had to, and the rotation.  No trig.
function M.clamp_rot(c, mc, ms, rc, rs)
  if c.full then return false, rc, rs end
  -- the rotation relative to the middle of the allowed arc
  local rel_c, rel_s = mc * rc + ms * rs, mc * rs - ms * rc
  -- rel_inside written out (a call a limited bone a turn)
  local mode, half_s = c.mode, c.half_s
  local inside
  if mode == 1 then
    inside = rel_c >= c.half_c
  elseif mode == 2 then
    inside = rel_c >= 0.0 and rel_s <= half_s and -rel_s <= half_s
  else
    inside = rel_c >= 0.0 or rel_s >= half_s or -rel_s >= half_s
  end
  if inside then return false, rc, rs end
  local hc, hs = c.half_c, c.half_s
  if rel_s < 0.0 then hs = -hs end
  return true, mc * hc - ms * hs, mc * hs + ms * hc
end

return M
