-- LÖVE 11 configuration for the hero's atlas painter: no window needed
-- beyond the one graphics needs (run it under Xvfb headless).
function love.conf(t)
  t.identity = "ik2d-hero-paint"
  t.version = "11.0"
  t.window.title = "ik2d hero: painting the atlas page"
  t.window.width = 256
  t.window.height = 256
  t.window.vsync = 0
  t.modules.audio = false
  t.modules.sound = false
  t.modules.joystick = false
  t.modules.physics = false
  t.modules.video = false
end
