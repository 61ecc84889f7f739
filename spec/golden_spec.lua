-- The golden hash: spec/golden/golden.c solves many chains (every method,
-- option and kind of limit, one by one and in batches, over sequences of
-- frames) and skeletons (chains over their paths, sharing bones, solved by
-- ik2d_skeleton_solve) and hashes every output's bits.  The recorded
-- values below were taken from the core before a change that must keep
-- the same bits; a change that alters results on purpose records new ones
-- in its commit, saying why.

local helpers = require "spec.helpers"

local q = helpers.shell_quote

-- 0.2.0: angles derived from each solution's rotations by atan2, no
-- longer the last angle plus the small turn (no drift over frames); the
-- values moved by at most 3e-14 of max(|value|, 1) (golden dump, diffed).
-- Then: a default CCD run that crawls far from a reachable target hands
-- its remaining iterations to FABRIK (solves that reached before are
-- unchanged; the others end nearer).  Then: two_bone runs its closed
-- form on every solve (no early out within tolerance) and meets the
-- straight and folded poses exactly.
-- effectors: recorded when the scenes of the effector controls, follow and
-- springs joined the program (their own part: the first two kept theirs).
-- 0.3.0: sin, cos, exp, expm1, hypot and acos are the core's own
-- (src/ik2d_math.c), as are the program's inputs: every value moved by
-- an ulp or two, and the bits are now those of every platform (make
-- test-platforms checks them without FMA, under wine and on aarch64).
-- Then: method follow places the base on the rotations the result keeps
-- (after the sanity pass), so effectors moved where follow meets a pole.
-- aim: recorded when the aimed scenes joined the program (their own
-- part, their own random numbers; the other four kept theirs).
-- The values are in spec/golden/expected, which both read.
-- skeleton: recorded when the skeleton scenes joined the program (their
-- own part, their own random numbers: the other three kept theirs).
-- Then: a coupled solve that ends unreached from its warm start
-- tries the pose, and after frames unreached a scattered start, so the
-- groups' poses moved wherever a warm start had stalled; and a joint
-- solve sets each solver's limited (it had kept false). The other three
-- parts kept their bits.
-- effectors, then: a spring feels its base's motion (its
-- acceleration, and the drag of the air it runs through), so the springs
-- on chains whose base moves (method follow) moved; nothing else did (the
-- others, still or turning, kept their bits), and the scenes' spring
-- memory grew to hold the larger springs.
-- springs: recorded when the springs that feel the body joined the
-- program (running, wind, per-bone settings, colliders, long frames; their
-- own part, their own random numbers: the other four kept theirs).
-- Then: CCD and FABRIK runs of limited chains that
-- end short of the target finish with the limited pair step (nearer: the
-- joints, angles and skeleton parts moved), and a blended tip angle starts
-- its oriented solve from the free solution unless the warm start reaches
-- (effectors); springs kept their bits.
-- bones: recorded when the bone model's scenes joined the program (scale,
-- shear, the five inherit modes, skeleton scales, IK on scaled and
-- reflected bones, stretch, transform constraints in an order; their own
-- part, their own random numbers: the other six kept theirs).
-- Then: a value an object already has, set again, changes no bit, and
-- the golden program sets flips and poses again (skeleton and bones
-- moved); colliders are resolved together (springs); FABRIK's aim keeps
-- the aiming pose nearer its start (aim); chains on bones that do not map
-- conformally turn each bone in its parent's space (bones).
local expected = {}
do
  local file = assert(io.open(helpers.repo_root() .. "/spec/golden/expected"))
  for part, value in file:read("*a"):gmatch("(%a+) (%x+)") do expected[part] = value end
  file:close()
end

describe("golden hash", function()
  if helpers.pure_pass then
    pending("IK2D_PURE=1: the golden program is the C core's; the pass with the C core runs it, "
            .. "and spec/pure_diff_spec.lua holds the pure core to the C core's bits")
    return
  end
  local built, program, output

  setup(function()
    built, program = helpers.build_core_program { "spec/golden/golden.c" }
    if built then
      local _
      _, output = helpers.run(q(program))
      os.remove(program)
    end
  end)

  it("builds and runs the golden program", function()
    assert(built, program)
    assert.truthy(output and output:find("total"), output)
  end)

  local parts = { "joints", "angles", "effectors", "skeleton", "springs", "aim", "bones" }

  for _, part in ipairs(parts) do
    it("gives the recorded " .. part .. " bits", function()
      assert(built, program)
      assert.equal(expected[part], output:match(part .. "%s+(%x+)"))
    end)
  end

  -- A build with whatever flags a user picks keeps the bits: GNU C mode
  -- and this machine's whole instruction set, where compilers fuse a * b
  -- + c into FMAs unless the core's own pragmas stop them; and clang told
  -- to fuse across statements, where it ignores the pragma that gcc and
  -- its own default mode obey (src/ik2d_fp.h).
  local USER_BUILDS = {
    { nil, "-std=gnu99 -O3 -march=native", "in GNU C mode (FMA allowed)" },
    { "clang", "-std=c99 -O2 -ffp-contract=fast -march=native", "by clang -O2 -ffp-contract=fast -march=native" },
  }
  for _, build in ipairs(USER_BUILDS) do
    local cc, flags, how = build[1], build[2], build[3]
    it("gives the recorded bits built for this machine " .. how, function()
      local ok, native = helpers.build_core_program({ "spec/golden/golden.c" }, nil, flags, cc)
      assert(ok, native)
      local _, out = helpers.run(q(native))
      os.remove(native)
      for _, part in ipairs(parts) do
        assert.equal(expected[part], out:match(part .. "%s+(%x+)"), part)
      end
    end)
  end
end)
