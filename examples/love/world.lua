-- The level: ground, a ledge to climb and an item to pick up.  Pure
-- logic (no love.* calls), so the game can be stepped without a window.

local world = {}

world.WIDTH, world.HEIGHT = 960, 540
world.GROUND = 470          -- y of the ground surface
world.LEDGE_X = 700         -- x of the ledge's wall (the ledge goes right)
world.LEDGE_TOP = 322       -- y of the ledge's top surface
world.GRAVITY = 1400

-- A hill between the item and the ledge: a cosine bump, so the ground's
-- direction changes smoothly (steepest 0.47 rad, half-way up each side)
-- and a flat foot on it is well defined everywhere.
world.HILL_X, world.HILL_WIDTH, world.HILL_HEIGHT = 465, 225, 36

-- Where x is on the hill, 0..1 (nil off it).
local function on_hill(x)
  local s = (x - world.HILL_X) / world.HILL_WIDTH
  if s > 0 and s < 1 then return s end
  return nil
end

-- Height of the walkable surface at x.
function world.ground_at(x)
  if x >= world.LEDGE_X then return world.LEDGE_TOP end
  local s = on_hill(x)
  if s then
    return world.GROUND - world.HILL_HEIGHT * (1 - math.cos(2 * math.pi * s)) / 2
  end
  return world.GROUND
end

-- The ground's direction at x, going right (radians; y points down, so
-- uphill to the right is negative): atan of ground_at's derivative.
function world.slope_at(x)
  if x >= world.LEDGE_X then return 0 end
  local s = on_hill(x)
  if not s then return 0 end
  local h, w = world.HILL_HEIGHT, world.HILL_WIDTH
  return math.atan(-h * math.pi / w * math.sin(2 * math.pi * s))
end

-- Which level x is on: the ground or the ledge (the wall between them).
function world.level(x)
  return x >= world.LEDGE_X and "ledge" or "ground"
end

-- Where the hands grab the ledge: on its top, a little apart, and far
-- enough from the edge that the shoulders never come closer to them than
-- the arms can fold (the elbow limit).
world.grips = {
  front = { world.LEDGE_X + 24, world.LEDGE_TOP },
  back = { world.LEDGE_X + 14, world.LEDGE_TOP },
}

-- The item: a little spark blaster lying on the ground.
function world.new_item(x)
  return {
    x = x, y = world.GROUND - 5,   -- centre; 5 = half its height
    angle = 0, vy = 0, spin = 0,
    held = false,
    grip = { x, world.GROUND - 8 },   -- where a hand takes it (live table)
  }
end

-- Keeps the grip point on the item while it lies or falls.
function world.update_item(item, dt)
  if item.held then return end
  local floor = world.ground_at(item.x) - 5
  if item.y < floor then
    item.vy = item.vy + world.GRAVITY * dt
    item.y = math.min(floor, item.y + item.vy * dt)
    item.angle = item.angle + item.spin * dt
    if item.y >= floor then
      item.vy, item.spin, item.angle = 0, 0, 0
    end
  else
    item.y, item.vy = floor, 0
  end
  item.grip[1], item.grip[2] = item.x, item.y - 3
end

-- Sparks shot from the blaster: plain particles.
function world.spawn_spark(sparks, x, y, angle)
  local speed = 620
  sparks[#sparks + 1] = {
    x = x, y = y, vx = math.cos(angle) * speed, vy = math.sin(angle) * speed,
    life = 0.9,
  }
end

function world.update_sparks(sparks, dt)
  for i = #sparks, 1, -1 do
    local s = sparks[i]
    s.life = s.life - dt
    s.x, s.y = s.x + s.vx * dt, s.y + s.vy * dt
    s.vy = s.vy + 200 * dt
    if s.life <= 0 or s.y > world.ground_at(s.x) then
      table.remove(sparks, i)
    end
  end
end

return world
