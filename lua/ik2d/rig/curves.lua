-- ik2d.rig.curves: the curves of a rig description's timelines.
--
-- A timeline (RIG_FORMAT, docs/rig-format.md) keeps, for the segment from
-- key i to key i + 1, "linear", "stepped", or per channel a polyline of
-- interior points {t, v, t, v, ...} in absolute time and value units, read
-- by straight lines from (t_i, v_i) through the points to (t_i+1, v_i+1).
-- Spine's Bézier curves become such polylines: its runtimes do not solve a
-- Bézier for its parameter but sample it at nine points and interpolate
-- linearly between them (../shared/FORMATS.md), and a player that reads
-- the same points plays what they play.

local float32 = require "ik2d.rig.float32"

local curves = { _VERSION = require("ik2d.api").version }

local round, floor = float32.round, math.floor

-- The Bernstein weights of u = k / 10: (1 - u)^3, 3 (1 - u)^2 u,
-- 3 (1 - u) u^2, u^3, computed in doubles (w = 1 - u) for k = 1 .. 9.
local W0, W1, W2, W3 = {}, {}, {}, {}
for k = 1, 9 do
  local u = k / 10
  local w = 1 - u
  W0[k], W1[k], W2[k], W3[k] = w * w * w, 3 * w * w * u, 3 * w * u * u, u * u * u
end

--- curves.bezier(t1, v1, cx1, cy1, cx2, cy2, t2, v2) -> the nine points
-- {t, v, ...} (18 numbers) of the cubic Bézier from (t1, v1) to (t2, v2)
-- with control points (cx1, cy1), (cx2, cy2), at u = 1/10 .. 9/10, each
-- coordinate rounded to a 32-bit float.  The arguments are taken as the
-- runtime stores them (32-bit floats already: the reader rounds them).
--
-- B(u) = (1 - u)^3 P0 + 3 (1 - u)^2 u P1 + 3 (1 - u) u^2 P2 + u^3 P3,
-- summed left to right in doubles with the weights above, then rounded
-- once: within one unit of the float's last place of the runtime's
-- samples, far below the 1e-4 a bone is compared to.  The list is made
-- at its size and filled by a loop: a large rig has thousands of these,
-- and so LuaJIT compiles it whole (no growing table; a constructor of 18
-- calls instead makes LuaJIT give up on the rounding's trace).
function curves.bezier(t1, v1, cx1, cy1, cx2, cy2, t2, v2)
  local out = { 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0 }
  for k = 1, 9 do
    local b0, b1, b2, b3 = W0[k], W1[k], W2[k], W3[k]
    out[2 * k - 1] = round(b0 * t1 + b1 * cx1 + b2 * cx2 + b3 * t2)
    out[2 * k] = round(b0 * v1 + b1 * cy1 + b2 * cy2 + b3 * v2)
  end
  return out
end

-- The value at `time` on the straight lines from (t1, v1) through the
-- points to (t2, v2).
local function along(points, time, t1, v1, t2, v2)
  local ta, va = t1, v1
  for i = 1, #points, 2 do
    local tb, vb = points[i], points[i + 1]
    if time <= tb then
      if tb == ta then return vb end
      return va + (vb - va) * (time - ta) / (tb - ta)
    end
    ta, va = tb, vb
  end
  if t2 == ta then return v2 end
  return va + (v2 - va) * (time - ta) / (t2 - ta)
end

--- curves.value_at(timeline, time [, channel]) -> the timeline's value
-- of that channel (default 1) at `time` seconds: the last key's from its
-- time on, nil before the first key (a timeline does not act before it).
-- A stepped timeline (no curves) holds each key's value until the next.
-- Deform timelines have no values: their curves give the share (0 at key
-- i, 1 at key i + 1) of the way from one key's offsets to the next's, and
-- value_at(timeline, time) answers that share and the key index.
function curves.value_at(timeline, time, channel)
  channel = channel or 1
  local times = timeline.times
  local n = #times
  if n == 0 or time < times[1] then return nil end
  local lo, hi = 1, n
  while lo < hi do
    local mid = floor((lo + hi + 1) / 2)
    if times[mid] <= time then lo = mid else hi = mid - 1 end
  end
  local values = timeline.values
  local channels = timeline.channels or 1
  local deform = values == nil
  local v1 = deform and 0 or values[(lo - 1) * channels + channel]
  local curve = timeline.curves and timeline.curves[lo]
  if lo == n or curve == nil or curve == "stepped" then
    if deform then return 0, lo end
    return v1
  end
  local t1, t2 = times[lo], times[lo + 1]
  local v2 = deform and 1 or values[lo * channels + channel]
  local v
  if curve == "linear" then
    v = v1 + (v2 - v1) * (time - t1) / (t2 - t1)
  else
    v = along(curve[channel], time, t1, v1, t2, v2)
  end
  if deform then return v, lo end
  return v
end

return curves
