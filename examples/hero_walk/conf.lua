-- LOVE 11 configuration for the ik2d hero walk example.
local headless = false
for _, a in ipairs(arg or {}) do
  if a == "--test" or a == "--screenshot" then headless = true end
end

function love.conf(t)
  t.identity = "ik2d-hero-walk"     -- save folder: ~/.local/share/love/ik2d-hero-walk
  t.version = "11.0"
  t.window.title = "ik2d: the hero walks his Spine clip, ik2d's gait plants his feet, his arm aims"
  t.window.width = 960
  t.window.height = 540
  t.window.msaa = headless and 0 or 4
  t.window.vsync = headless and 0 or 1
  t.modules.audio = false
  t.modules.sound = false
  t.modules.joystick = false
  t.modules.physics = false
  t.modules.video = false
end
