-- On-screen text: what the character does, each solver's method (the
-- selected limb marked), weight and last result (reached / distance /
-- iterations), the frame time, the keys.

local g = love.graphics

local hud = {}

local font, small

function hud.load()
  font = g.newFont(14)
  small = g.newFont(12)
end

local function panel(x, y, w, h)
  g.setColor(0.06, 0.07, 0.12, 0.78)
  g.rectangle("fill", x, y, w, h, 6, 6)
  g.setColor(1, 1, 1, 0.12)
  g.rectangle("line", x + 0.5, y + 0.5, w - 1, h - 1, 6, 6)
end

-- How each solver method reads in the table (s:method() names).
local METHOD = { ccd = "ccd", fabrik = "fabrik", two_bone = "2-bone" }

local KEYS = "mouse: hand   P: pick up / drop   C: climb / get down   A: aim (weight 0.7)   " ..
  "space / click: shoot   arrows: walk\n1-5 / Tab: select a limb (marked above)   " ..
  "M: cycle its solver (ccd, fabrik, 2-bone)   D: debug view   R: restart"

-- Column x positions of the solver table; numbers are right-aligned.
local COLS = { name = 24, method = 106, state = 166, weight = 272, reached = 286,
               dist = 376, iters = 420 }

local function right(text, x, y)
  g.print(text, x - small:getWidth(text), y)
end

-- frame = { ms = average frame time, fps = frames per second, fixed = bool }
function hud.draw(game, frame)
  local hero = game.hero
  g.push("all")
  panel(10, 10, 420, 152)
  g.setFont(font)
  g.setColor(1, 0.85, 0.4)
  g.print("state: " .. hero:describe(), 20, 16)
  g.setFont(small)
  g.setColor(0.75, 0.8, 0.9)
  local hy = 42
  g.print("solver", COLS.name, hy)
  g.print("method", COLS.method, hy)
  g.print("state", COLS.state, hy)
  right("weight", COLS.weight, hy)
  g.print("reached", COLS.reached, hy)
  right("dist", COLS.dist, hy)
  right("iters", COLS.iters, hy)
  for i, name in ipairs(hero.order) do
    local s, st = hero.solvers[name], hero.stats[name]
    local b = hero.behaviours[name]
    local y = hy + i * 18
    local method = s:method()
    if name == hero.selected then
      -- the limb M switches: a band and a marker
      g.setColor(1, 0.85, 0.4, 0.16)
      g.rectangle("fill", 13, y - 1, 414, 17, 3, 3)
      g.setColor(1, 0.85, 0.4)
      g.print(">", 13, y)
      g.print(METHOD[method] or method, COLS.method, y)
    else
      g.setColor(1, 1, 1, 0.92)
      g.print(METHOD[method] or method, COLS.method, y)
    end
    g.setColor(1, 1, 1, 0.92)
    g.print(name, COLS.name, y)
    g.print(b and b:state() or hero.feet.by_leg[name].status, COLS.state, y)
    right(("%.3f"):format(s:weight()), COLS.weight, y)
    if st.reached then g.setColor(0.45, 1, 0.5) else g.setColor(1, 0.55, 0.45) end
    g.print(st.reached and "yes" or "no", COLS.reached + 12, y)
    g.setColor(1, 1, 1, 0.92)
    right(("%.2f"):format(st.distance), COLS.dist, y)
    right(tostring(st.iterations), COLS.iters, y)
  end
  -- frame time, top right
  local W = game.world.WIDTH
  panel(W - 226, 10, 216, 64)
  g.setColor(1, 1, 1, 0.92)
  g.print(("frame   %6.2f ms  %3d fps"):format(frame.ms, frame.fps), W - 216, 16)
  g.print(("update  %6.3f ms  (IK + game)"):format(game.update_ms), W - 216, 34)
  g.setColor(0.75, 0.8, 0.9)
  g.print(frame.fixed and "scripted, fixed dt 1/60 s" or "real time", W - 216, 52)
  -- keys, bottom (two lines; wrapped further if they do not fit)
  local H = game.world.HEIGHT
  local _, lines = small:getWrap(KEYS, W - 40)
  local h = 12 + #lines * small:getHeight()
  panel(10, H - 8 - h, W - 20, h)
  g.setColor(1, 1, 1, 0.85)
  g.printf(KEYS, 20, H - 2 - h, W - 40)
  g.pop()
end

return hud
