--- ik2d.pure.timeline: keyed values over time, as src/ik2d_timeline.c
-- (whose header describes it), operation for operation.  A timeline is a
-- table { key_count =, channels =, times =, values =, curves =, first =,
-- count =, points = }, its arrays 1-based: key k's channel c value is
-- values[(k - 1) * channels + c]; curves[k] is 0 (linear), 1 (stepped) or
-- 2 (points: channel c's start at points[first[...]], count[...] (t, v)
-- pairs, first 1-based).
local floor = math.floor

local M = {}

local STEPPED, POINTS = 1, 2
M.LINEAR, M.STEPPED, M.POINTS = 0, STEPPED, POINTS

--- the key at or before time, 0 before the first key
function M.key(tl, time)
  local times = tl.times
  if not (time >= times[1]) then return 0 end
  local low, high = 1, tl.key_count
  while low < high do
    local mid = low + floor((high - low + 1) / 2)
    if times[mid] <= time then
      low = mid
    else
      high = mid - 1
    end
  end
  return low
end

local function segment(x0, y0, x1, y1, t)
  if not (x1 > x0) then return y1 end
  return y0 + (t - x0) / (x1 - x0) * (y1 - y0)
end

local function through_points(points, at, count, x0, y0, x1, y1, t)
  for i = at, at + 2 * (count - 1), 2 do
    local px, py = points[i], points[i + 1]
    if px >= t then return segment(x0, y0, px, py, t) end
    x0, y0 = px, py
  end
  return segment(x0, y0, x1, y1, t)
end

--- channel c's value at time from key k = M.key(time) >= 1
function M.value(tl, k, c, time)
  local channels = tl.channels
  local at = (k - 1) * channels + c
  local values = tl.values
  local v0 = values[at]
  if k >= tl.key_count then return v0 end
  local curve = tl.curves and tl.curves[k] or 0
  if curve == STEPPED then return v0 end
  local v1 = values[at + channels]
  local times = tl.times
  if curve == POINTS then
    return through_points(tl.points, tl.first[at], tl.count[at], times[k], v0, times[k + 1], v1, time)
  end
  return segment(times[k], v0, times[k + 1], v1, time)
end

--- How far from key k (0) to the next (1) the value is at time, by channel
-- 1's curve: for values too many to key one by one (a deform's)
function M.share(tl, k, time)
  local at = (k - 1) * tl.channels + 1
  if k >= tl.key_count then return 1.0 end
  local curve = tl.curves and tl.curves[k] or 0
  if curve == STEPPED then return 0.0 end
  local times = tl.times
  if curve == POINTS then
    return through_points(tl.points, tl.first[at], tl.count[at], times[k], 0.0, times[k + 1], 1.0, time)
  end
  return segment(times[k], 0.0, times[k + 1], 1.0, time)
end

return M
