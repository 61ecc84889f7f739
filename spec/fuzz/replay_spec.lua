-- The fuzzers' findings as fixed cases: every input in
-- spec/fuzz/regressions/ (each broke an invariant once, see README there)
-- and the seed corpus in spec/fuzz/corpus/ replayed through the fuzz
-- target's own checks, and the same for the skeleton target, built as a plain program (no libFuzzer needed):
-- `make test` runs them on every machine, `make fuzz` looks for more.

local helpers = require "spec.helpers"

local q = helpers.shell_quote

local function list(cmd)
  local ok, out = helpers.run(cmd)
  assert(ok, out)
  local files = {}
  for line in out:gmatch("[^\n]+") do files[#files + 1] = line end
  table.sort(files)
  return files
end

-- each target: its source, its regressions and its seed corpus
local TARGETS = {
  { "ik2d_fuzz.c", "regressions", "corpus" },
  { "skeleton_fuzz.c", "skeleton_regressions", "skeleton_corpus" },
}

for _, target in ipairs(TARGETS) do
  describe("fuzz regressions of " .. target[1], function()
    local root = helpers.repo_root()
    local runner
    local regressions = list("ls -1 " .. q(root .. "/spec/fuzz/" .. target[2]) ..
                             " | grep -v '^README'")
    local built, build_output

    setup(function()
      built, build_output = helpers.build_core_program({ "spec/fuzz/" .. target[1] },
                                                       "-O1 -g -DIK2D_FUZZ_REPLAY")
      if built then runner = build_output end
    end)

    teardown(function() if runner then os.remove(runner) end end)

    it("builds the replay program", function()
      assert(built, build_output)
    end)

    it("has regression inputs to replay", function()
      assert.is_true(#regressions > 0)
    end)

    for _, name in ipairs(regressions) do
      it("replays " .. name .. " with every invariant kept", function()
        assert(built, build_output)
        local ok, out = helpers.run(q(runner) .. " " .. q(root .. "/spec/fuzz/" .. target[2] .. "/" .. name))
        assert(ok, out)
        assert.truthy(out:find("no invariant broken", 1, true))
      end)
    end

    it("replays the seed corpus with every invariant kept", function()
      assert(built, build_output)
      local ok, out = helpers.run(("ls %s/spec/fuzz/%s/* | xargs %s")
        :format(q(root), target[3], q(runner)))
      assert(ok, out)
      assert.truthy(out:find("no invariant broken", 1, true))
    end)
  end)
end
