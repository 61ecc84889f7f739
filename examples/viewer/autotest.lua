-- The viewer's --test: the hero loaded from its atlas, every clip played
-- at many times and drawn by ik2d.love.draw_rig into a canvas; after each
-- draw, what the meshes hold (read back vertex by vertex) must equal
-- rig:attachments (positions to float precision, uvs, the drawing order
-- and the attachment each slot shows), through the FFI path and the
-- tables path; the clips' attachment switches, draw order and colours
-- must show; drawing makes no garbage; then a screenshot, whose pixels
-- must show the character, and `viewer: N passed, N failed`.
local ik2d = require "ik2d"
local ikdraw = require "ik2d.love"

local autotest = {}

local g = love.graphics
local SCREENSHOT = "ik2d-viewer.png"
local BACKGROUND = { 0.16, 0.17, 0.2 }

local run = { passed = 0, failed = 0, frame = 0, state = "checks" }
local hero, draw_scene, open, current_rig, viewer

local function check(ok, what)
  if ok then
    run.passed = run.passed + 1
  else
    run.failed = run.failed + 1
    print("viewer: FAILED: " .. what)
  end
end

local function near(a, b)
  return math.abs(a - b) <= 1e-5 * math.max(1, math.abs(b))
end

-- What the last draw_rig uploaded equals rig:attachments: the first
-- difference, or nil.
local function uploaded_differs(rig, entries)
  local d = ikdraw.rig_drawer(rig)
  if not d then return "no drawer" end
  if d.n ~= #entries then return ("%d slots drawn, attachments has %d"):format(d.n, #entries) end
  for k, e in ipairs(entries) do
    local m = d.drawn_meshes[k]
    if d.drawn[k] ~= e.slot_index then return ("draw %d: slot %d, not %d"):format(k, d.drawn[k], e.slot_index) end
    if m.attachment ~= e.attachment_index then return ("draw %d (%s): another attachment"):format(k, e.slot) end
    if m.mesh:getVertexCount() * 2 ~= #e.vertices then return ("%s: vertex count"):format(e.slot) end
    for v = 1, m.mesh:getVertexCount() do
      local x, y, u, w = m.mesh:getVertex(v)
      if not (near(x, e.vertices[2 * v - 1]) and near(y, e.vertices[2 * v])) then
        return ("%s vertex %d: (%g, %g) uploaded, (%g, %g) computed"):format(e.slot, v, x, y,
          e.vertices[2 * v - 1], e.vertices[2 * v])
      end
      if not (near(u, e.uvs[2 * v - 1]) and near(w, e.uvs[2 * v])) then
        return ("%s vertex %d: uv"):format(e.slot, v)
      end
    end
  end
  return nil
end

local canvas

local function draw_offscreen()
  g.setCanvas(canvas)
  draw_scene()
  g.setCanvas()
end

-- every clip at 24 times: uploads checked, what the clips key noted
local function play_all(rig, seen)
  local entries, worst = {}, nil
  local names = {}
  for name in pairs(rig.clips) do names[#names + 1] = name end
  table.sort(names)
  for _, name in ipairs(names) do
    local clip = rig.clips[name]
    for step = 0, 23 do
      rig:apply(clip, clip.duration * step / 23)
      draw_offscreen()
      rig:attachments(entries)
      worst = worst or uploaded_differs(rig, entries)
      local order = {}
      for k, e in ipairs(entries) do
        seen[e.slot .. "=" .. e.attachment] = true
        order[e.slot] = k
        if e.slot == "lantern_glow" then seen.glow_alpha = math.min(seen.glow_alpha or 1, e.color[4]) end
      end
      if order.upper_arm_back and order.torso and order.upper_arm_back > order.torso then
        seen.arm_in_front = true
      end
    end
  end
  return worst
end

-- draw_rig's garbage a frame, over 1,000 draws of a pose (LuaJIT's own
-- traces count for about a byte a frame)
local function garbage_per_frame(rig)
  rig:apply(rig.clips.walk, 0.3)
  g.setCanvas(canvas)
  for _ = 1, 100 do ikdraw.draw_rig(rig) end
  collectgarbage()
  collectgarbage("stop")
  local before = collectgarbage("count")
  for _ = 1, 1000 do ikdraw.draw_rig(rig) end
  local after = collectgarbage("count")
  collectgarbage("restart")
  g.setCanvas()
  return (after - before) * 1024 / 1000
end

local function checks()
  canvas = g.newCanvas(960, 540)
  check(open(hero), "the hero loads with its atlas")
  local rig = current_rig()
  check(rig.atlas ~= nil and #rig.atlas.pages == 1, "the hero's atlas has its page")
  local seen = {}
  local expected = (ik2d.ffi and "ffi") or "tables"
  local worst = play_all(rig, seen)
  check(ikdraw.rig_drawer(rig).mode == expected, "draw_rig wrote through " .. expected)
  check(worst == nil, "uploaded = rig:attachments (" .. expected .. "): " .. tostring(worst))
  check(seen["eye=eye_closed"] and seen["eye=eye"], "idle's blink switches the eye")
  check(seen["hand_back=hand_open"], "wave opens the back hand")
  check(seen.arm_in_front, "wave draws the back arm in front of the torso")
  check(seen["cape=cape"] and seen["torso=torso"], "the weighted meshes are drawn")
  check((seen.glow_alpha or 1) < 0.9, "the lantern's glow fades by its alpha keys")
  local bytes = garbage_per_frame(rig)
  print(("viewer: %.1f bytes of garbage a frame (%s)"):format(bytes, expected))
  check(bytes < 8, ("no garbage a frame: %.1f bytes"):format(bytes))
  if ik2d.ffi then
    ik2d.use_ffi(false)
    open(hero)
    local other = current_rig()
    worst = play_all(other, {})
    check(ikdraw.rig_drawer(other).mode == "tables", "without the FFI, draw_rig fills tables")
    check(worst == nil, "uploaded = rig:attachments (tables): " .. tostring(worst))
    bytes = garbage_per_frame(other)
    print(("viewer: %.1f bytes of garbage a frame (tables)"):format(bytes))
    check(bytes < 8, ("no garbage a frame (tables): %.1f bytes"):format(bytes))
    ik2d.use_ffi(true)
    open(hero)
  end
  current_rig():apply("walk", 0.35)
end

-- The viewer's controls as a user would use them: every key, a solver's
-- target dragged (it must follow the mouse), the legs walked by the gait
-- and the head aimed, frames played and drawn with the HUD.
local function frames(n)
  for _ = 1, n do
    viewer.update(1 / 60)
    g.setCanvas(canvas)
    draw_scene()
    viewer.hud()
    g.setCanvas()
  end
end

local function controls()
  local view = viewer.view
  for _, key in ipairs({ "d", "down", "return", "l", "l", "m", "n", "+", "-", "space", "space" }) do
    love.keypressed(key)
    frames(2)
  end
  local rig = current_rig()
  local solver = rig.solvers.leg_front
  local tx, ty = solver:target()
  local sx, sy = view.x + tx * view.zoom, view.y + ty * view.zoom
  love.mousepressed(sx, sy, 1)
  love.mouse.setPosition(sx + 20, sy - 15)
  frames(3)
  local mx, my = love.mouse.getPosition()
  local gx, gy = solver:target()
  check(math.abs(gx - (mx - view.x) / view.zoom) < 1e-6 and math.abs(gy - (my - view.y) / view.zoom) < 1e-6,
    "a dragged target follows the mouse")
  love.mousereleased(mx, my, 1)
  frames(2)
  local bone = solver:target_bone()
  check(bone ~= nil, "a target let go follows its bone again")
  love.keypressed("g")
  love.keypressed("a")
  frames(60)
  check(view.gait and view.aim, "the gait and the aim switch on")
  local x0 = rig.solvers.leg_back:target()
  frames(30)
  check(rig.solvers.leg_back:target() ~= x0 or rig.solvers.leg_front:target() ~= tx,
    "the gait moves the feet")
  love.keypressed("g")
  love.keypressed("a")
  frames(2)
  check(rig.solvers.leg_front:target_bone() ~= nil and rig.solvers.head_look:target_bone() ~= nil,
    "the gait and the aim give the targets back to their bones")
  love.keypressed("d")
  open(hero)
  current_rig():apply("walk", 0.35)
end

-- the screenshot's pixels: how many differ from the background in the
-- character's box
local function drawn_pixels(image)
  local count = 0
  for y = 100, 479, 2 do
    for x = 330, 629, 2 do
      local r, gr, b = image:getPixel(x, y)
      if math.abs(r - BACKGROUND[1]) + math.abs(gr - BACKGROUND[2]) + math.abs(b - BACKGROUND[3]) > 0.1 then
        count = count + 1
      end
    end
  end
  return count
end

function autotest.start(path, scene, open_rig, rig_now, ui)
  hero, draw_scene, open, current_rig, viewer = path, scene, open_rig, rig_now, ui
  love.errorhandler = function(msg)
    print("viewer: error: " .. tostring(msg) .. "\n" .. debug.traceback())
    print("viewer: 0 passed, 1 failed")
    return function() return 1 end
  end
end

function autotest.update()
  run.frame = run.frame + 1
  if run.state == "checks" then
    checks()
    controls()
    run.state = "shoot"
  elseif run.state == "shoot" and run.frame > 3 then
    run.state = "waiting"
    g.captureScreenshot(function(image)
      image:encode("png", SCREENSHOT)
      print("screenshot: " .. love.filesystem.getSaveDirectory() .. "/" .. SCREENSHOT)
      local pixels = drawn_pixels(image)
      check(pixels > 4000, ("the screenshot shows the character: %d pixels drawn"):format(pixels))
      run.state = "done"
    end)
  elseif run.state == "done" then
    run.state = "quit"
    print(("viewer: %d passed, %d failed"):format(run.passed, run.failed))
    love.event.quit(run.failed == 0 and 0 or 1)
  end
end

function autotest.draw()
  draw_scene()
end

return autotest
