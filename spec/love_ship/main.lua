-- The shipping test's game (spec/love_ship_run.sh): ik2d vendored in ik2d/
-- as `make love-dist` writes it, run as a folder, with the library in the
-- save folder instead, and zipped as a .love.
--
--   love GAME BACKEND TIPS
--
-- BACKEND is the core the game must get: "ffi" (the native core, found
-- through LOVE's C require path, with the FFI path on) or "lua" (the
-- pure-Lua core, where the native one cannot load).  The "ffi" runs write
-- the tips of a scene to the file TIPS, the "lua" run checks it gets the
-- same bits.  Prints one line per check and `love: N passed, N failed`.

-- Only the game's own copy may answer: none installed on this machine.
-- LuaJIT's own entry stays, ./?.so, which finds ik2d/core.so when the
-- game is started from its own folder: spec/love_ship_run.sh starts it
-- from an empty one, as a player's .love is started from anywhere.
-- No Lua path either: no cjson, no system dkjson, so rigs read through
-- ik2d's own copy.
package.cpath = "./?.so"
package.path = ""

local passed, failed = 0, 0
local ik2d, solver

local function check(name, ok, detail)
  if ok then passed = passed + 1 else failed = failed + 1 end
  print(("%s %s%s"):format(ok and "ok  " or "FAIL", name, detail and ("  (" .. tostring(detail) .. ")") or ""))
  return ok
end

local function finish()
  print(("love: %d passed, %d failed"):format(passed, failed))
  love.event.quit(failed == 0 and 0 or 1)
end

-- a 4-bone arm with an elbow limit reaching for 12 targets: its tips
local function scene()
  local arm = ik2d.chain { x = 160, y = 120, { length = 40 }, { length = 35, min = -2.4, max = 0 },
                           { length = 25 }, { length = 10 } }
  local s = ik2d.solver(arm, { iterations = 10 })
  local tips = {}
  for k = 1, 12 do
    s:set_target(160 + 90 * math.cos(k), 120 + 70 * math.sin(2 * k))
    s:solve()
    tips[#tips + 1] = ("%.17g %.17g"):format(arm:tip())
  end
  return tips, s
end

local function read_lines(path)
  local f = io.open(path, "r")
  if not f then return nil end
  local lines = {}
  for line in f:lines() do lines[#lines + 1] = line end
  f:close()
  return lines
end

-- a Spine rig in the game's folder (spec/rigs/constraints.json, laid out
-- as rig.json), read through love.filesystem and the vendored dkjson
local function read_rig()
  local json = require "ik2d.rig.json"
  check("rigs decode through ik2d's own dkjson", json.library == "vendored", json.library)
  local desc, message = require("ik2d.rig.source").describe("rig.json")
  check("a Spine rig in the game reads to its description",
        desc ~= nil and #desc.bones == 10 and desc.solvers[1].name == "leg" and desc.order[1][2] == "aim",
        message)
end

function love.load(args)
  love.errorhandler = function(message)
    check("no error", false, message)
    print(debug.traceback())
    print(("love: %d passed, %d failed"):format(passed, failed))
    return function() return 1 end
  end
  local backend, tips_file = args[1], args[2]
  local ok
  ok, ik2d = pcall(require, "ik2d")
  if not check("require 'ik2d' loads the vendored copy", ok, not ok and ik2d) then return finish() end
  check("ik2d.backend is " .. backend, ik2d.backend == backend, ik2d.backend)
  read_rig()
  local tips
  tips, solver = scene()
  solver:set_target(200, 150)
  check("the arm reaches a target in reach", solver:solve() == true and #tips == 12)
  if backend == "ffi" then
    check("the native core is loaded", package.loaded["ik2d.core"] ~= nil)
    check("the FFI path is on", ik2d.ffi == true)
    ik2d.use_ffi(false)
    local classic = scene()
    ik2d.use_ffi(true)
    check("the classic path gives the FFI path's bits", table.concat(classic, ";") == table.concat(tips, ";"))
    local f = assert(io.open(tips_file, "w"))
    f:write(table.concat(tips, "\n"), "\n")
    f:close()
  else
    check("the game carries the native library", love.filesystem.getInfo("ik2d/core.so") ~= nil)
    check("the native core did not load", package.loaded["ik2d.core"] == nil)
    check("the FFI path is off", ik2d.ffi == false)
    local native = read_lines(tips_file)
    check("the pure-Lua core gives the native core's bits",
          native and table.concat(native, ";") == table.concat(tips, ";"),
          native and ("%s against %s"):format(tips[1], native[1]) or "no tips from the native runs")
  end
end

-- one frame drawn with ik2d.love, then the count
function love.draw()
  if not solver then return end
  local ok, message = pcall(require("ik2d.love").draw_solver, solver)
  check("ik2d.love draws the solver", ok, message)
  solver = nil
  finish()
end
