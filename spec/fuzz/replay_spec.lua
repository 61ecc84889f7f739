-- The fuzzer's findings as fixed cases: every input in
-- spec/fuzz/regressions/ (each broke an invariant once, see README there)
-- and the seed corpus in spec/fuzz/corpus/ replayed through the fuzz
-- target's own checks, built as a plain program (no libFuzzer needed):
-- `make test` runs them on every machine, `make fuzz` looks for more.

local helpers = require "spec.helpers"

local q = helpers.shell_quote

-- The repository root: two folders above this file.
local function repo_root()
  local source = debug.getinfo(1, "S").source
  local dir = source:match("^@(.*)[/\\][^/\\]*$") or "spec/fuzz"
  local ok, out = helpers.run("cd " .. q(dir .. "/../..") .. " && pwd")
  assert(ok, out)
  return (out:gsub("%s+$", ""))
end

local function list(cmd)
  local ok, out = helpers.run(cmd)
  assert(ok, out)
  local files = {}
  for line in out:gmatch("[^\n]+") do files[#files + 1] = line end
  table.sort(files)
  return files
end

describe("fuzz regressions", function()
  local root = repo_root()
  local runner = os.tmpname()
  local regressions = list("ls -1 " .. q(root .. "/spec/fuzz/regressions") ..
                           " | grep -v '^README'")
  local built, build_output

  setup(function()
    -- the core's sources: every src/ik2d_*.c but the Lua binding
    local sources = {}
    for _, f in ipairs(list("ls -1 " .. q(root .. "/src") .. " | grep '^ik2d_.*\\.c$'")) do
      if f ~= "ik2d_lua.c" then sources[#sources + 1] = q(root .. "/src/" .. f) end
    end
    built, build_output = helpers.run(("%s -std=c99 -O1 -g -DIK2D_FUZZ_REPLAY -I%s -o %s %s %s -lm")
      :format(os.getenv("CC") or "cc", q(root .. "/src"), q(runner),
              q(root .. "/spec/fuzz/ik2d_fuzz.c"), table.concat(sources, " ")))
  end)

  teardown(function() os.remove(runner) end)

  it("builds the replay program", function()
    assert(built, build_output)
  end)

  it("has regression inputs to replay", function()
    assert.is_true(#regressions > 0)
  end)

  for _, name in ipairs(regressions) do
    it("replays " .. name .. " with every invariant kept", function()
      assert(built, build_output)
      local ok, out = helpers.run(q(runner) .. " " .. q(root .. "/spec/fuzz/regressions/" .. name))
      assert(ok, out)
      assert.truthy(out:find("no invariant broken", 1, true))
    end)
  end

  it("replays the seed corpus with every invariant kept", function()
    assert(built, build_output)
    local ok, out = helpers.run(("ls %s/spec/fuzz/corpus/* | xargs %s")
      :format(q(root), q(runner)))
    assert(ok, out)
    assert.truthy(out:find("no invariant broken", 1, true))
  end)
end)
