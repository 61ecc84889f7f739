-- Shared helpers for the ik2d specs: geometry, a portable random
-- generator, limit checks, state snapshots and error-message checks.
-- Nothing here touches ik2d internals: every helper works through the
-- public Lua API, so the specs test the real module.

local assert = require "luassert"

local helpers = {}

local pi, tau = math.pi, 2 * math.pi
local sqrt, cos, sin, abs, floor = math.sqrt, math.cos, math.sin, math.abs, math.floor

helpers.nan = 0 / 0
helpers.inf = math.huge

-- "Lua 5.4" -> "5.4"; LuaJIT reports "Lua 5.1".
helpers.lua_version = _VERSION:match("(%d+%.%d+)")
helpers.is_luajit = type(rawget(_G, "jit")) == "table"

-- The pass of the specs that runs the pure-Lua core (spec/run.sh sets
-- IK2D_PURE=1 for it): specs about the C core alone skip there.
helpers.pure_pass = os.getenv("IK2D_PURE") == "1"

-- IK2D_LONG=1 (make test-all): the long runs of the specs' loops (more
-- random cases, frames, sequences, every instruction set); make test runs
-- the short ones, the same checks over fewer inputs.
helpers.long = os.getenv("IK2D_LONG") == "1"

-- short under make test, long under IK2D_LONG=1
function helpers.size(short, long)
  if helpers.long then return long end
  return short
end

-- ------------------------------------------------------------------
-- Geometry
-- ------------------------------------------------------------------

function helpers.distance(x1, y1, x2, y2)
  local dx, dy = x2 - x1, y2 - y1
  return sqrt(dx * dx + dy * dy)
end

-- a wrapped into [-pi, pi)
function helpers.wrap(a)
  return (a + pi) % tau - pi
end

-- Signed difference b - a, wrapped into [-pi, pi).
function helpers.angle_diff(a, b)
  return helpers.wrap(b - a)
end

-- Joint positions of a chain given base and local angles, by plain
-- forward kinematics: {x1, y1, ..., tipx, tipy}.
function helpers.fk(bx, by, ba, lengths, angles)
  local out = { bx, by }
  local x, y, a = bx, by, ba
  for i = 1, #lengths do
    a = a + angles[i]
    x = x + lengths[i] * cos(a)
    y = y + lengths[i] * sin(a)
    out[#out + 1] = x
    out[#out + 1] = y
  end
  return out
end

-- Distance from the chain's result tip to (x, y).
function helpers.tip_distance(arm, x, y)
  local tx, ty = arm:tip()
  return helpers.distance(tx, ty, x, y)
end

-- Bytes that run() allocates in steady state: after warm-up runs (where
-- tables reach their size and caches fill), runs with the collector
-- stopped; the least any of three grew.  Under LuaJIT the measured runs
-- are interpreted (the JIT off, its traces flushed): a trace is a GC
-- object, and the compiler makes new ones whenever a branch or an exit
-- gets hot, late and at random (its retry delays after an aborted trace
-- are random), so with the JIT on the count measures the compiler, not
-- the code.  The JIT only ever removes allocations (an exit materialises
-- only what the interpreter would allocate), so what the interpreter
-- counts bounds what a game's frame allocates.
function helpers.steady_growth(run)
  local jit = rawget(_G, "jit")
  for _ = 1, 3 do run() end
  if jit then
    jit.off()
    jit.flush()
  end
  collectgarbage()
  collectgarbage("stop")
  run()
  local least
  for _ = 1, 3 do
    local before = collectgarbage("count")
    run()
    local grown = collectgarbage("count") - before
    if not least or grown < least then least = grown end
    if least == 0 then break end
  end
  collectgarbage("restart")
  if jit then jit.on() end
  return 1024 * least
end

-- The chain's result joints as {x1, y1, ..., tipx, tipy}, read one by
-- one through arm:joint(i).
function helpers.joints_of(arm)
  local out = {}
  for i = 1, #arm + 1 do
    local x, y = arm:joint(i)
    out[#out + 1] = x
    out[#out + 1] = y
  end
  return out
end

-- Result local angles {a1, ..., an}.
function helpers.angles_of(arm)
  local out = {}
  for i = 1, #arm do out[i] = arm:angle(i) end
  return out
end

-- Result world directions {w1, ..., wn} (mirrored when flipped).
function helpers.world_angles_of(arm)
  local out = {}
  for i = 1, #arm do out[i] = arm:world_angle(i) end
  return out
end

-- Animated (pose) local angles {p1, ..., pn}.
function helpers.poses_of(arm)
  local out = {}
  for i = 1, #arm do out[i] = arm:pose(i) end
  return out
end

-- Largest distance between the chain's joints and plain forward
-- kinematics of its own result angles.
function helpers.fk_error(arm)
  local lengths, angles = {}, {}
  for i = 1, #arm do
    lengths[i] = arm:length(i)
    angles[i] = arm:angle(i)
  end
  local bx, by, ba = arm:base()
  local expected = helpers.fk(bx, by, ba, lengths, angles)
  if arm:flip() then
    for k = 1, #expected, 2 do expected[k] = 2 * bx - expected[k] end
  end
  local got = helpers.joints_of(arm)
  local worst = 0
  for k = 1, #expected, 2 do
    local d = helpers.distance(expected[k], expected[k + 1], got[k], got[k + 1])
    if d > worst then worst = d end
  end
  return worst
end

-- ------------------------------------------------------------------
-- Portable random numbers
-- ------------------------------------------------------------------

-- Park-Miller minimal standard LCG.  Every intermediate value is an
-- integer below 2^46, exact in a double and in a 5.4 integer, so the
-- sequence is identical on Lua 5.4 and LuaJIT (math.random is not).
function helpers.random(seed)
  local state = floor(seed or 1) % 2147483647
  if state == 0 then state = 1 end
  local r = {}
  -- uniform in [0, 1)
  function r.next()
    state = (state * 16807) % 2147483647
    return (state - 1) / 2147483646
  end
  -- uniform in [lo, hi)
  function r.range(lo, hi)
    return lo + (hi - lo) * r.next()
  end
  return r
end

-- ------------------------------------------------------------------
-- Joint limits
-- ------------------------------------------------------------------

-- How far a local delta (angle - rest) lies outside the limits
-- [min, max] (or outside their complement when inverted), in radians,
-- measured in the frame centred on the allowed range so that
-- wrap-around never hides or invents a violation.  0 when inside.
function helpers.limit_violation(delta, min, max, invert)
  local mid, half = (min + max) / 2, (max - min) / 2
  if invert then
    mid, half = mid + pi, pi - half
  end
  if half >= pi then return 0 end
  local off = abs(helpers.wrap(delta - mid))
  return off > half and off - half or 0
end

-- Largest violation over all bones of arm that have a constraint, and
-- the bone where it happens.  `inverted` optionally maps bone index ->
-- true for constraints made with invert = true (the API reports only
-- min and max).
function helpers.max_violation(arm, inverted)
  local worst, where = 0, nil
  for i = 1, #arm do
    local c = arm:constraint(i)
    if c then
      local min, max = c:limits()
      local v = helpers.limit_violation(arm:angle(i) - arm:rest(i), min, max,
                                        inverted and inverted[i])
      if v > worst then worst, where = v, i end
    end
  end
  return worst, where
end

-- ------------------------------------------------------------------
-- Snapshots: every observable value, for "a failed call changes nothing"
-- ------------------------------------------------------------------

function helpers.chain_state(arm)
  local bx, by, ba = arm:base()
  local s = { n = #arm, bx = bx, by = by, ba = ba, flip = arm:flip(),
              reach = arm:reach(), bones = {}, joints = helpers.joints_of(arm) }
  for i = 1, #arm do
    local c = arm:constraint(i)
    local min, max
    if c then min, max = c:limits() end
    s.bones[i] = { length = arm:length(i), rest = arm:rest(i),
                   pose = arm:pose(i), angle = arm:angle(i),
                   constraint = c or false, min = min or false, max = max or false }
  end
  return s
end

function helpers.solver_state(s)
  local tx, ty = s:target()
  return { tx = tx, ty = ty, weight = s:weight(), iterations = s:iterations(),
           tolerance = s:tolerance(), chain = helpers.chain_state(s:chain()) }
end

function helpers.constraint_state(c)
  local min, max = c:limits()
  return { min = min, max = max }
end

-- ------------------------------------------------------------------
-- Error messages
-- ------------------------------------------------------------------

-- Calls fn(...), which must raise; returns the message as a string.
-- Fails the spec (through luassert's assert) when fn does not raise.
function helpers.error_of(fn, ...)
  local ok, err = pcall(fn, ...)
  assert(not ok, "expected an error, but the call succeeded")
  return tostring(err)
end

-- Checks msg against a list of expectations; each entry is
--   "text"                  msg contains text (plain, case-sensitive)
--   { any = { "a", "b" } }  msg contains at least one (plain, any case)
--   { pattern = "%f[%w]x" } msg matches the Lua pattern
function helpers.check_message(msg, expectations)
  local lower = msg:lower()
  for _, e in ipairs(expectations) do
    if type(e) == "string" then
      assert(msg:find(e, 1, true),
             ("error message %q does not contain %q"):format(msg, e))
    elseif e.any then
      local found = false
      for _, alt in ipairs(e.any) do
        if lower:find(alt:lower(), 1, true) then found = true break end
      end
      assert(found, ("error message %q contains none of: %s")
                    :format(msg, table.concat(e.any, " | ")))
    elseif e.pattern then
      assert(msg:find(e.pattern),
             ("error message %q does not match %q"):format(msg, e.pattern))
    end
  end
  return msg
end

-- Calls fn, a one-line function whose call must raise; checks that the
-- message starts with fn's own file:line (the error was raised at the
-- caller's level, not inside the library) and returns the rest.
function helpers.caller_error(fn, ...)
  local info = debug.getinfo(fn, "S")
  local ok, err = pcall(fn, ...)
  assert(not ok, "expected an error, but the call succeeded")
  err = tostring(err)
  local where = info.short_src .. ":" .. info.linedefined .. ": "
  assert(err:sub(1, #where) == where,
         ("error %q is not raised at the caller's line %s"):format(err, where))
  return err:sub(#where + 1)
end

-- The expectations for a luaL_argerror-style message: "bad argument #n"
-- and, on PUC Lua, the function name.  LuaJIT may name the function
-- differently ("?" or another name), so the name is checked on PUC
-- Lua only.
function helpers.bad_argument(n, fname, ...)
  local e = { "bad argument #" .. n }
  if not helpers.is_luajit and fname then
    e[#e + 1] = "'" .. fname .. "'"
  end
  for i = 1, select("#", ...) do e[#e + 1] = (select(i, ...)) end
  return e
end

-- ------------------------------------------------------------------
-- Shell (install spec)
-- ------------------------------------------------------------------

function helpers.shell_quote(s)
  return "'" .. tostring(s):gsub("'", "'\\''") .. "'"
end

-- Runs a shell command; returns ok, combined output, exit code.  Works
-- the same on 5.1 and 5.4 (os.execute's results differ between them).
function helpers.run(cmd)
  local p = assert(io.popen(cmd .. ' 2>&1; echo "__exit=$?"', "r"))
  local out = p:read("*a")
  p:close()
  local code = tonumber(out:match("__exit=(%d+)%s*$"))
  out = out:gsub("__exit=%d+%s*$", "")
  return code == 0, out, code
end

-- Runs body() (which declares specs) once per method path: under LuaJIT
-- with the FFI methods and then the classic ones, elsewhere once.  (On
-- LuaJIT busted's describe lives in the spec's environment, not in _G.)
function helpers.on_both_paths(ik2d, body)
  local env = getfenv and getfenv(2) or _G -- luacheck: ignore 113
  if ik2d.ffi ~= nil and ik2d.use_ffi and ik2d.use_ffi(true) then
    env.describe("(FFI methods)", function()
      env.setup(function() ik2d.use_ffi(true) end)
      body()
    end)
    env.describe("(classic C API methods)", function()
      env.setup(function() ik2d.use_ffi(false) end)
      env.teardown(function() ik2d.use_ffi(true) end)
      body()
    end)
  else
    body()
  end
end

-- The method paths a case runs on, as use_ffi's argument: under LuaJIT
-- the FFI methods (true) and the classic ones (false), elsewhere the one
-- path (false).  ffi_only: two only where the FFI path exists (not on the
-- pure-Lua core).
function helpers.ffi_paths(ik2d, ffi_only)
  if helpers.is_luajit and not (ffi_only and ik2d.backend == "lua") then return { true, false } end
  return { false }
end

-- A path's words for a spec's name: " (FFI path)", " (classic path)", or
-- "" where paths holds one.
function helpers.path_name(paths, on)
  if #paths == 1 then return "" end
  return on and " (FFI path)" or " (classic path)"
end

-- A two-bone limb, bones 60 and 50 based at (100, 200); extra's fields
-- added to the chain's table.
function helpers.limb(ik2d, extra)
  local t = { x = 100, y = 200, { length = 60 }, { length = 50 } }
  for k, v in pairs(extra or {}) do t[k] = v end
  return ik2d.chain(t)
end

-- A 3-bone chain (3, 2, 1) based at (1, 2), and a 2-bone chain (2, 1)
-- based at (-4, 5) turned 0.5: the small chains of the message specs.
function helpers.three_bones(ik2d)
  return ik2d.chain{ x = 1, y = 2, { length = 3 }, { length = 2 }, { length = 1 } }
end

function helpers.two_bones(ik2d)
  return ik2d.chain{ x = -4, y = 5, angle = 0.5, { length = 2 }, { length = 1 } }
end

-- A small character at x: a torso with an arm and a leg whose foot has a
-- tip angle and whose knee a pole; limits on the spine and the knee.
-- { sk =, arm =, leg = } (keep the solvers: a collected one leaves it).
function helpers.character(ik2d, x)
  local sk = ik2d.skeleton{ x = x, y = 300,
    { name = "hip", length = 0 },
    { name = "spine", parent = "hip", length = 40, angle = -1.57, min = -0.5, max = 0.5 },
    { name = "arm", parent = "spine", length = 30, angle = 1.5 },
    { name = "hand", parent = "arm", length = 25 },
    { name = "thigh", parent = "hip", length = 30, angle = 1.4 },
    { name = "shin", parent = "thigh", length = 28, angle = 0.3, min = -0.2, max = 2 },
    { name = "foot", parent = "shin", length = 10, angle = -1.6 },
  }
  local arm = ik2d.solver(sk:chain("spine", "hand"), { iterations = 12 })
  local leg = ik2d.solver(sk:chain("thigh", "foot"), { tip_angle = 0, pole = { x + 40, 330 } })
  return { sk = sk, arm = arm, leg = leg }
end

-- The part in parentheses of a "bad argument" message.
function helpers.words(msg)
  return msg:match("%((.*)%)$")
end

-- A fresh empty directory under the system temp folder.
function helpers.tmpdir()
  local name = os.tmpname()
  os.remove(name)
  local ok, out = helpers.run("mkdir -p " .. helpers.shell_quote(name))
  assert(ok, "mkdir failed: " .. out)
  return name
end

-- The repository root (the folder above spec/).
function helpers.repo_root()
  local source = debug.getinfo(1, "S").source
  local dir = source:match("^@(.*)[/\\][^/\\]*$") or "spec"
  local ok, out = helpers.run("cd " .. helpers.shell_quote(dir .. "/..") .. " && pwd")
  assert(ok, out)
  return (out:gsub("%s+$", ""))
end

-- What the C specs build, built once and kept in build/spec-core/<key>/,
-- the key a checksum of a text (the compiler and flags) and of the files
-- it is built from: an edit makes a new one (and drops the old ones of
-- that text), so nothing stale is ever used.  Runners side by side take
-- turns through a lock folder holding the builder's pid (a killed
-- builder's lock is taken over).  The command runs in the new folder,
-- with $root the repository.
local CACHED = [=[
set -u
root=$1 text=$2 files=$3 command=$4
cd "$root" || exit 1
textsum=$(printf '%s' "$text" | cksum | cut -d' ' -f1)
# shellcheck disable=SC2086
filesum=$(cat $files | cksum | cut -d' ' -f1)
cache=build/spec-core dir=build/spec-core/$textsum-$filesum
mkdir -p "$cache" || exit 1
while [ ! -f "$dir/done" ]; do
  if mkdir "$dir.lock" 2>/dev/null; then
    echo $$ > "$dir.lock/pid"
    if [ ! -f "$dir/done" ]; then
      rm -rf "$dir.tmp" && mkdir "$dir.tmp" || exit 1
      if ! (cd "$dir.tmp" && export root && sh -c "$command"); then
        rm -rf "$dir.tmp" "$dir.lock"
        exit 1
      fi
      for old in "$cache/$textsum"-*; do
        case $old in "$dir"*) ;; *) rm -rf "$old" ;; esac
      done
      touch "$dir.tmp/done" && mv "$dir.tmp" "$dir"
    fi
    rm -rf "$dir.lock"
  else
    pid=$(cat "$dir.lock/pid" 2>/dev/null)
    if [ -n "$pid" ] && ! kill -0 "$pid" 2>/dev/null; then rm -rf "$dir.lock"; fi
    sleep 0.2
  fi
done
echo "$root/$dir"
]=]

-- cached(text, files, command): ok, the folder (or the output)
local function cached(text, files, command)
  local q, root = helpers.shell_quote, helpers.repo_root()
  local ok, out = helpers.run(("sh -c %s cached %s %s %s %s"):format(q(CACHED), q(root), q(text),
                                                                     q(files), q(command)))
  if not ok then return false, out end
  return true, (out:gsub("%s+$", ""))
end

local CORE_FILES = "src/*.h src/ik2d_*.c"

-- The C core's objects (src/ik2d_*.c) built with cc and flags, compiled
-- in parallel, once per compiler, flags and core files: ok, the folder
-- that holds them (or the compiler's output).
function helpers.core_objects(cc, flags)
  return cached(cc .. " " .. flags, CORE_FILES,
                ("ls \"$root\"/src/ik2d_*.c | xargs -n 1 -P 2 %s %s -c"):format(cc, flags))
end
local core_objects = helpers.core_objects

-- The flags the core is built with: C99 and the Makefile's OPTFLAGS, and
-- last on the line its FPFLAGS (no FMA contraction).
local CORE_FLAGS, FP_FLAGS = "-std=c99 -O2", "-ffp-contract=off"

-- Builds a C program from the given source files and every file of the
-- C core (src/ik2d_*.c, not the Lua binding) with cc (default $CC or cc)
-- and the flags the core is built with, extra_flags added for the given
-- sources alone before the floating-point flags; or, given base_flags,
-- with these instead and extra_flags after them (a user's flags, the
-- project's nowhere).  The core's objects are compiled once per compiler
-- and flags (core_objects), or with the default ones taken from
-- IK2D_CORE_OBJECTS when set (make test passes the folder its build has
-- just made).  The program is built once too (its key: the flags, the
-- core's files and objects and every file in its sources' folders, which
-- it may include), and each call gets a copy of its own in a temporary
-- file.
-- Returns ok, the program's path (or the compiler's output).
function helpers.build_core_program(sources, extra_flags, base_flags, cc)
  local q, root = helpers.shell_quote, helpers.repo_root()
  local default_cc = os.getenv("CC") or "cc"
  cc = cc or default_cc
  local flags = base_flags or CORE_FLAGS .. " " .. FP_FLAGS
  local program_flags = base_flags and base_flags .. " " .. (extra_flags or "")
                        or ("%s %s %s"):format(CORE_FLAGS, extra_flags or "", FP_FLAGS)
  local objects = os.getenv("IK2D_CORE_OBJECTS")
  if base_flags or cc ~= default_cc or (objects or "") == "" then
    local ok
    ok, objects = core_objects(cc, flags)
    if not ok then return false, objects end
  elseif not objects:match("^/") then
    objects = root .. "/" .. objects
  end
  -- the objects of the core's sources alone (a folder kept from an older
  -- tree may hold objects of files since renamed)
  local names = {}
  local list = io.popen(("ls %s/src/ik2d_*.c"):format(q(root)))
  for path in list:lines() do names[#names + 1] = q(objects .. "/" .. path:match("([^/]*)%.c$") .. ".o") end
  list:close()
  local files, folders = {}, { CORE_FILES, objects .. "/*.o" }
  for _, f in ipairs(sources) do
    files[#files + 1] = q(root .. "/" .. f)
    folders[#folders + 1] = (f:match("^(.*)/") or ".") .. "/*.[ch]"
  end
  local ok, built = cached(("%s %s %s %s"):format(cc, program_flags, table.concat(sources, " "), objects),
                           table.concat(folders, " "),
                           ("%s %s -I%s -o program %s %s -lm")
                             :format(cc, program_flags, q(root .. "/src"),
                                     table.concat(files, " "), table.concat(names, " ")))
  if not ok then return false, built end
  local program = os.tmpname()
  local copied, out = helpers.run(("cp %s %s && chmod 700 %s"):format(q(built .. "/program"), q(program),
                                                                     q(program)))
  if not copied then
    os.remove(program)
    return false, out
  end
  return true, program
end

-- Lua source defining a local function finaliser(fn): an object whose
-- __gc calls fn(), a table on Lua 5.4 and a newproxy userdata on 5.1 and
-- LuaJIT (which run no __gc of a table).  For child scripts, which
-- include it; helpers.finaliser is the same function here.
helpers.FINALISER_SOURCE = [[
local function finaliser(fn)
  if newproxy then
    local p = newproxy(true)
    getmetatable(p).__gc = function() fn() end
    return p
  end
  return setmetatable({}, { __gc = function() fn() end })
end
]]
helpers.finaliser = assert((loadstring or load)(helpers.FINALISER_SOURCE .. "return finaliser",
                                                "=finaliser"))()

-- The interpreter running the specs ("luajit", "lua5.4").
helpers.interpreter = helpers.is_luajit and "luajit" or ("lua" .. helpers.lua_version)

-- Runs source in a fresh interpreter of this runtime, with this
-- package.path and package.cpath, env (e.g. "IK2D_NO_FFI=1") before the
-- command; under `make test-valgrind` IK2D_CHILD_WRAPPER puts the child
-- under valgrind too.  Returns ok, output, exit code.
function helpers.run_lua(source, env)
  local file = os.tmpname()
  local f = assert(io.open(file, "w"))
  f:write(("package.path = %q\npackage.cpath = %q\n"):format(package.path, package.cpath))
  f:write(source)
  f:close()
  local wrapper = os.getenv("IK2D_CHILD_WRAPPER") or ""
  local ok, out, code = helpers.run(("%s %s %s %s"):format(env or "", wrapper, helpers.interpreter,
                                                         helpers.shell_quote(file)))
  os.remove(file)
  return ok, out, code
end

function helpers.rmtree(dir)
  -- only ever remove what tmpdir made
  assert(dir:match("^/tmp/") and not dir:find("%.%."), "refusing to remove " .. dir)
  helpers.run("rm -rf " .. helpers.shell_quote(dir))
end

return helpers
