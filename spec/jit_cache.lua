-- Every busted run's helper (.busted): under LuaJIT, a trace cache big
-- enough for a spec file, and side traces tried for exits taken 100 times
-- (10 by default).  The pure-Lua core's many branches fill LuaJIT's
-- default 512 KB of machine code within seconds; each time it flushed
-- every trace and compiled them all again, and most of its side traces
-- abort (NYI: register coalescing too complex), each attempt costing
-- system time: its specs took 5-30 times the interpreter's time, most of
-- it in the kernel.  Results do not depend on it: the JIT gives the
-- interpreter's bits, and the garbage checks run interpreted
-- (helpers.steady_growth); the LOVE tests run LuaJIT as LOVE sets it.
local jit = rawget(_G, "jit")
if jit and jit.opt then jit.opt.start("maxtrace=4000", "maxmcode=8192", "hotexit=100") end
