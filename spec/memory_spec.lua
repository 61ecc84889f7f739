-- Memory per chain: a 3-bone chain and its solver take
-- at most 1 KB of Lua heap together, the goal measured as the issue puts
-- it: collectgarbage("count") before and after making 10,000 of them, in
-- a fresh interpreter (so the binding's reference table grows from empty,
-- and its growth is counted).  Also after one frame through them
-- (set_target, solve, joints, target, tip), which is what a game holds.
-- The core's own sizes are spec/core/sizes.c's.

local helpers = require "spec.helpers"
local ik2d = require "ik2d"

-- The pure-Lua core keeps a chain's and a solver's numbers in Lua tables
-- (a table per array, hash parts for their fields): its own bound, a
-- third of a C pair's bytes would not hold them; and a limit's
-- constraint is a table too.
local pure = ik2d.backend == "lua"
local GOAL = pure and 4096 or 1024
local LIMIT_GOAL = pure and 1024 or 300

-- The child: make 10,000 pairs (a limit on bone 2 when limits), settle
-- the collector, count; run one frame through them, settle, count.
-- (under LuaJIT with the JIT off: its traces are the compiler's memory,
-- not the objects', as in helpers.steady_growth)
local SCRIPT = [[
if rawget(_G, "jit") then jit.off() end
local ik2d = require "ik2d"
ik2d.use_ffi(%s)
local limits, n = %s, 10000
local keep = {}
for i = 1, n do keep[i] = false end
local t = {}
local function settle()
  for _ = 1, 6 do collectgarbage() end
  return collectgarbage("count")
end
local before = settle()
for i = 1, n do
  local bones = { { length = 3 }, { length = 2 }, { length = 1 } }
  if limits then bones[2].min, bones[2].max = -1, 1 end
  keep[i] = ik2d.solver(ik2d.chain(bones))
end
local made = settle()
for i = 1, n do
  local s = keep[i]
  s:set_target(2, 2)
  s:solve()
  s:chain():joints(t)
  s:target()
  s:chain():tip()
end
local used = settle()
io.write(("made %%.1f used %%.1f\n"):format((made - before) * 1024 / n, (used - before) * 1024 / n))
]]

local function measure(ffi_on, limits)
  local ok, out = helpers.run_lua(SCRIPT:format(tostring(ffi_on), tostring(limits)))
  assert(ok, out)
  local made, used = out:match("made ([%d.]+) used ([%d.]+)")
  assert(made, out)
  return tonumber(made), tonumber(used)
end

describe("memory per 3-bone chain and solver", function()
  local paths = helpers.is_luajit and { true, false } or { false }
  for _, ffi_on in ipairs(paths) do
    local path = not helpers.is_luajit and "" or ffi_on and ", FFI path" or ", classic path"

    it(("10,000 made: at most %d KB of Lua heap per pair%s"):format(GOAL / 1024, path), function()
      local made = measure(ffi_on, false)
      assert(made <= GOAL, ("%.1f bytes per pair"):format(made))
      -- and more than the core's objects alone: the count is real
      assert(made >= 576, ("%.1f bytes per pair"):format(made))
    end)

    do
      it(("after one frame: still at most %d KB per pair%s"):format(GOAL / 1024, path), function()
        local made, used = measure(ffi_on, false)
        assert(used <= GOAL, ("%.1f bytes per pair"):format(used))
        -- a frame allocates nothing that stays, but for the FFI path's
        -- cached pointers (made at an object's first call: a chain's two,
        -- a solver's one, in weak-keyed tables)
        assert(used - made <= (ffi_on and 300 or 1),
               ("%.1f then %.1f bytes per pair"):format(made, used))
      end)
    end
  end

  it(("a limit on a bone adds its constraint, under %d bytes"):format(LIMIT_GOAL), function()
    local plain = measure(false, false)
    local limited = measure(false, true)
    assert(limited - plain > 0 and limited - plain <= LIMIT_GOAL,
           ("%.1f then %.1f bytes per pair"):format(plain, limited))
  end)
end)
