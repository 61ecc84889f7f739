-- Every busted run's helper (.busted): under LuaJIT, a trace cache big
-- enough for a spec file.  The pure-Lua core's many branches fill LuaJIT's
-- default 512 KB of machine code within seconds; each time it flushes
-- every trace and compiles them again (and again aborts the ones it cannot
-- compile), which took the pure core's specs 5-30 times longer than the
-- interpreter alone.  Results do not depend on it: the JIT gives the
-- interpreter's bits, and the garbage checks run interpreted
-- (helpers.steady_growth).
local jit = rawget(_G, "jit")
if jit and jit.opt then jit.opt.start("maxtrace=4000", "maxmcode=8192") end
