-- The same bits whatever the compiler and its flags (docs/invariants.md):
-- the Makefile's floating-point flags come last on every line that
-- compiles C; every source of the core refuses the options that change
-- bits (src/ik2d_fp.h); built by gcc or clang with any -ffp-contract, the
-- core's objects hold no FMA instruction; and built by clang with
-- -ffp-contract=fast, a batch gives every solver the bits of its solve
-- alone on every instruction set.  (The golden hash of such a build:
-- spec/golden_spec.lua and make test-platforms.)

local helpers = require "spec.helpers"

local q = helpers.shell_quote
local root = helpers.repo_root()

local function command_exists(name)
  return (helpers.run("command -v " .. q(name)))
end

-- the core's sources, by path from the root
local function core_sources()
  local ok, out = helpers.run("cd " .. q(root) .. " && ls src/ik2d_*.c")
  assert(ok, out)
  local list = {}
  for path in out:gmatch("[^\n]+") do list[#list + 1] = path end
  assert.is_true(#list > 10, out)
  return list
end

describe("the Makefile's floating-point flags", function()
  if helpers.pure_pass then
    pending("IK2D_PURE=1: a check of the C build; the pass with the C core runs it")
    return
  end
  -- every compile line of the library, both runtimes' binding, the
  -- Windows DLL, the benches, the fuzz targets and the C example, as make
  -- would run them given flags that turn contraction on
  local TARGETS = {
    "build/core/ik2d_ccd.o", "build/core/ik2d_lanes_avx512.o", "build/lua5.4/obj/luaik_core.o",
    "build/windows/obj/ik2d_ccd.o", "build/windows/obj/lua/luaik_core.o", "build/core_bench",
    "build/bench/character", "build/bench/quality", "build/fuzz/ik2d_fuzz",
    "build/fuzz/skeleton_fuzz", "build/examples/arm-c99", "build/examples/arm-c++",
  }

  it("come last on every line that compiles C, after CFLAGS and OPTFLAGS", function()
    local ok, out = helpers.run(("make -C %s --no-print-directory -n -B %s CFLAGS=%s OPTFLAGS=%s")
                                  :format(q(root), table.concat(TARGETS, " "), q("-ffp-contract=fast"),
                                          q("-O2 -ffp-contract=fast")))
    assert(ok, out)
    local compiles, missing = 0, {}
    for line in out:gmatch("[^\n]+") do
      if line:find("%.c%s") or line:find("%.c$") then
        compiles = compiles + 1
        local last
        for mode in line:gmatch("%-ffp%-contract=(%a+)") do last = mode end
        if last ~= "off" then missing[#missing + 1] = line end
      end
    end
    assert.is_true(compiles >= #TARGETS, out)
    assert.same({}, missing)
  end)
end)

describe("the core built with options that change bits", function()
  if helpers.pure_pass then
    pending("IK2D_PURE=1: a check of the C sources; the pass with the C core runs it")
    return
  end
  -- each compiler with each option it defines a macro for; -ffast-math
  -- on every source, the others on one (the same header refuses them)
  local REFUSED = {
    gcc = { "-ffast-math", "-Ofast", "-ffinite-math-only", "-funsafe-math-optimizations",
            "-fassociative-math -fno-signed-zeros -fno-trapping-math", "-freciprocal-math",
            "-fno-signed-zeros" },
    clang = { "-ffast-math", "-Ofast", "-ffinite-math-only" },
  }

  -- ok, the compiler's output: cc preprocessing source with option
  local function preprocess(cc, option, source)
    return helpers.run(("cd %s && %s -std=c99 -O2 -Isrc %s -E -o /dev/null %s"):format(q(root), cc, option, source))
  end

  for _, cc in ipairs { "gcc", "clang" } do
    for k, option in ipairs(REFUSED[cc]) do
      local sources = k == 1 and "every source" or "src/ik2d_ccd.c"
      it(("is refused with an #error naming it: %s %s, %s"):format(cc, option, sources), function()
        assert(command_exists(cc), cc .. " is not installed (make deps)")
        local named = option:match("^%S+"):gsub("%-", "%%-")
        for _, source in ipairs(k == 1 and core_sources() or { "src/ik2d_ccd.c" }) do
          local ok, out = preprocess(cc, option, source)
          assert.is_false(ok, source .. " compiled with " .. option)
          assert.truthy(out:find("#?error[^\n]*ik2d: built with [^\n]*" .. named), out)
        end
      end)
    end
  end

  it("builds with -fno-math-errno and -fno-trapping-math, which change no bit", function()
    for _, cc in ipairs { "gcc", "clang" } do
      assert(command_exists(cc), cc .. " is not installed (make deps)")
      for _, source in ipairs(core_sources()) do
        local ok, out = preprocess(cc, "-fno-math-errno -fno-trapping-math", source)
        assert(ok, out)
      end
    end
  end)
end)

describe("the core's objects", function()
  if helpers.pure_pass then
    pending("IK2D_PURE=1: a check of the C core's objects; the pass with the C core runs it")
    return
  end
  local machine = select(2, helpers.run("uname -m")):gsub("%s+$", "")
  if machine ~= "x86_64" then
    pending("x86-64 only: the FMA mnemonics counted are x86's (this is " .. machine .. ")")
    return
  end
  -- every FMA form (vfmadd231sd, vfnmsub132pd, vfmaddsub...)
  local FMA = "vfn?m(add|sub)"

  -- flags a user's build may give, the project's floating-point flags
  -- nowhere: contraction on wherever the compiler allows it, x86-64-v4
  -- bringing FMA and AVX-512 to every object (-mfma4: AMD's older FMA)
  local BUILDS = {
    { "clang", "-std=c99 -O2 -ffp-contract=fast" },
    { "clang", "-std=c99 -O2 -ffp-contract=fast -march=x86-64-v4" },
    { "clang", "-std=c99 -O2 -ffp-contract=fast -mfma4" },
    { "clang", "-std=c99 -O3 -ffp-contract=on -march=x86-64-v4" },
    { "gcc", "-std=gnu99 -O3 -ffp-contract=fast -march=x86-64-v4" },
    { "gcc", "-std=gnu99 -O3 -ffp-contract=fast -mfma4" },
  }
  for _, build in ipairs(BUILDS) do
    local cc, flags = build[1], build[2]
    it(("hold no FMA instruction built by %s %s"):format(cc, flags), function()
      assert(command_exists(cc), cc .. " is not installed (make deps)")
      local ok, folder = helpers.core_objects(cc, flags .. " -Wall -Wextra -Werror")
      assert(ok, folder)
      local _, out = helpers.run(("cd %s && for o in *.o; do printf '%%s ' \"$o\"; "
                                        .. "objdump -d --no-show-raw-insn \"$o\" | grep -cE %s; done")
                                         :format(q(folder), q("\\s" .. FMA .. "[a-z0-9]*\\s")))
      local fused, objects = {}, 0
      for object, count in out:gmatch("(%S+%.o) (%d+)") do
        objects = objects + 1
        if tonumber(count) > 0 then fused[#fused + 1] = object .. ": " .. count end
      end
      assert.equal(#core_sources(), objects, out)
      assert.same({}, fused)
    end)
  end
end)

describe("a batch built by clang with -ffp-contract=fast", function()
  if helpers.pure_pass then
    pending("IK2D_PURE=1: a C program over the C core; the pass with the C core runs it")
    return
  end
  -- spec/core/lanes.c: a few hundred chains of every kind, solved one by
  -- one and in batches on every instruction set this machine runs
  for _, flags in ipairs { "-std=c99 -O2 -ffp-contract=fast", "-std=c99 -O2 -ffp-contract=fast -march=native" } do
    it("gives every solver its one-by-one bits: clang " .. flags, function()
      assert(command_exists("clang"), "clang is not installed (make deps)")
      local built, program = helpers.build_core_program({ "spec/core/lanes.c" }, nil, flags, "clang")
      assert(built, program)
      local ok, out = helpers.run(q(program))
      os.remove(program)
      assert.is_nil(out:find("not ok", 1, true), out)
      assert(ok, out)
      assert.truthy(out:find("ok ", 1, true), out)
    end)
  end
end)
