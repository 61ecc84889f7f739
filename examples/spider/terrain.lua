-- Uneven ground: a polyline of rises, dips and a rock, as the segments
-- ik2d.gait takes, and the height ik2d.gait finds on them (the topmost
-- segment over x), for placing the body and drawing.

local terrain = {}

terrain.LEFT, terrain.RIGHT = -120, 1080

-- The polyline: every 40 px, a height made of two waves, and a flat-topped
-- rock between 560 and 640.
local points = {}
for x = terrain.LEFT, terrain.RIGHT, 40 do
  local k = x / 40
  local y = 420 - 20 * math.sin(0.42 * k) - 8 * math.sin(1.7 * k + 1)
  if x >= 560 and x <= 640 then y = y - 30 end
  points[#points + 1] = { x, y }
end
terrain.points = points

terrain.segments = {}
for k = 1, #points - 1 do
  local a, b = points[k], points[k + 1]
  terrain.segments[k] = { a[1], a[2], b[1], b[2] }
end

-- The ground's height at x, as ik2d.gait works it out on the segments.
function terrain.height(x)
  if x <= terrain.LEFT then return points[1][2] end
  if x >= terrain.RIGHT then return points[#points][2] end
  local k = math.floor((x - terrain.LEFT) / 40) + 1
  local x1, y1 = points[k][1], points[k][2]
  local x2, y2 = points[k + 1][1], points[k + 1][2]
  return y1 + (y2 - y1) * (x - x1) / (x2 - x1)
end

return terrain
