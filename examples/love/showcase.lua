-- `love examples/love --screenshot` (used by `make demo` without a
-- display): plays a few scripted seconds -- pick the blaster up, walk up
-- the hill's slope, aim at the sky with weight 0.7, shoot -- then saves a
-- screenshot and prints its path.

local showcase = {}
local S = {}
S.__index = S

local DT = 1 / 60
local FILE = "ik2d-demo.png"
local MAX_TIME = 20            -- game seconds: capture by then whatever happens
local ON_SLOPE = 512           -- both feet on the hill's left flank, facing right
local STEPS_PER_FRAME = 2      -- simulation steps per drawn frame (software GL is slow)

-- Steps run in order; each waits for its condition, then acts.
local function script(game, input)
  local hero = game.hero
  local t0
  local function after(seconds)
    return function()
      t0 = t0 or game.time
      if game.time - t0 >= seconds then
        t0 = nil
        return true
      end
      return false
    end
  end
  return {
    { after(0), function() game:set_mouse(hero.x + 40, hero.y - 70) end },
    { after(0.6), function() game:key("p") end },
    { function() return hero.mode == "free" and game.item.held end,
      function() input.move = 1 end },
    { function() return hero.x >= ON_SLOPE end, function() input.move = 0 end },
    { function() return not hero.feet:stepping() end,
      function() game:set_mouse(640, 185) end },
    { after(0.3), function() game:key("a") end },
    { after(1.0), function() game:key("space") end },
    { after(0.22), function() game:key("space") end },
    { after(0.22), function() game:key("space") end },
    { after(0.1), "capture" },
  }
end

function showcase.new(game)
  game.debug = false             -- the debug view's lines would hide the feet on the slope
  local input = { move = 0 }     -- the arrows, as the script walks
  return setmetatable({ game = game, input = input, steps = script(game, input), next = 1,
                        state = "running" }, S)
end

function S:capture()
  self.state = "waiting"
  love.graphics.captureScreenshot(function(image)
    image:encode("png", FILE)
    print("screenshot: " .. love.filesystem.getSaveDirectory() .. "/" .. FILE)
    self.state = "done"
  end)
end

function S:update()
  local game = self.game
  if self.state == "running" then
    for _ = 1, STEPS_PER_FRAME do
      local step = self.steps[self.next]
      if step and step[1]() then
        self.next = self.next + 1
        if step[2] == "capture" then return self:capture() end
        step[2]()
      end
      game:update(DT, self.input)
      if game.time >= MAX_TIME then return self:capture() end
    end
  elseif self.state == "done" then
    self.state = "quit"
    love.event.quit(0)
  end
end

return showcase
