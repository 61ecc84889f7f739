-- LOVE 11 configuration for the rig viewer.
local headless = false
for _, a in ipairs(arg or {}) do
  if a == "--test" then headless = true end
end

function love.conf(t)
  t.identity = "ik2d-viewer"        -- save folder: ~/.local/share/love/ik2d-viewer
  t.version = "11.0"
  t.window.title = "ik2d rig viewer"
  t.window.width = 960
  t.window.height = 540
  t.window.resizable = not headless
  t.window.msaa = headless and 0 or 4
  t.window.vsync = headless and 0 or 1
  t.modules.audio = false
  t.modules.sound = false
  t.modules.joystick = false
  t.modules.physics = false
  t.modules.video = false
end
