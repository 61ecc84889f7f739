--- bench/timing.lua: what the Lua benches (frame_bench.lua,
-- character_bench.lua) measure with alike, loaded with dofile beside them.

local clock = os.clock

local M = {}

--- writes a formatted progress line to stderr (stdout is the table)
function M.progress(...)
  io.stderr:write(string.format(...))
  io.stderr:flush()
end

--- two full cycles: the second frees what the first's finalisers left
function M.full_gc()
  collectgarbage("collect")
  collectgarbage("collect")
end

--- Seconds a frame takes: run(first, last) runs frames first..last, from
-- frame 0, one frame, then up to 8 times as many each run, until a run
-- takes calibrate_time (seconds); also the JIT's warm-up.
function M.per_frame(run, calibrate_time)
  local f, frames = 0, 1
  while true do
    local t0 = clock()
    run(f, f + frames - 1)
    local dt = clock() - t0
    f = f + frames
    if dt >= calibrate_time then return dt / frames end
    frames = frames * (dt > 0 and math.min(8, math.ceil(1.5 * calibrate_time / dt)) or 8)
  end
end

return M
