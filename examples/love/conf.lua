-- LOVE 11 configuration for the ik2d demo.
local headless, test = false, false
for _, a in ipairs(arg or {}) do
  if a == "--test" or a == "--screenshot" then headless = true end
  if a == "--test" then test = true end
end

function love.conf(t)
  t.identity = "ik2d-demo"          -- save folder: ~/.local/share/love/ik2d-demo
  t.version = "11.0"
  t.window.title = "ik2d: pick up, climb and aim"
  t.window.width = 960
  t.window.height = 540
  t.window.msaa = test and 0 or 4   -- the test favours speed (software GL)
  t.window.vsync = headless and 0 or 1
  t.modules.audio = false
  t.modules.sound = false
  t.modules.joystick = false
  t.modules.physics = false
  t.modules.video = false
end
