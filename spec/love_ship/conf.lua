-- LOVE 11 configuration of the shipping test's game (spec/love_ship_run.sh).
function love.conf(t)
  t.identity = "ik2d-ship-test"     -- the save folder the runner may put the library in
  t.version = "11.0"
  t.window.title = "ik2d: shipping test"
  t.window.width = 320
  t.window.height = 240
  t.window.vsync = 0
  t.modules.audio = false
  t.modules.sound = false
  t.modules.joystick = false
  t.modules.physics = false
  t.modules.video = false
end
