-- The golden hash: spec/golden/golden.c solves many chains (every method,
-- option and kind of limit, one by one and in batches, over sequences of
-- frames) and hashes every output's bits.  The recorded values below were
-- taken from the core before a change that must keep the same bits; a
-- change that alters results on purpose records new ones in its commit,
-- saying why.

local helpers = require "spec.helpers"

local q = helpers.shell_quote

local expected = {
  joints = "3a755fabe381813c",
  angles = "090dd9e51ca54520",
}

local function repo_root()
  local source = debug.getinfo(1, "S").source
  local dir = source:match("^@(.*)[/\\][^/\\]*$") or "spec"
  local ok, out = helpers.run("cd " .. q(dir .. "/..") .. " && pwd")
  assert(ok, out)
  return (out:gsub("%s+$", ""))
end

describe("golden hash", function()
  local root = repo_root()
  local program = os.tmpname()
  local built, build_output, output

  setup(function()
    local ok, list = helpers.run("ls -1 " .. q(root .. "/src") .. " | grep '^ik2d.*\\.c$'")
    assert(ok, list)
    local sources = {}
    for f in list:gmatch("[^\n]+") do
      -- the core only: the Lua binding needs lua.h
      if f ~= "ik2d_lua.c" then sources[#sources + 1] = q(root .. "/src/" .. f) end
    end
    built, build_output = helpers.run(("%s -std=c99 -O2 -ffp-contract=off -I%s -o %s %s %s -lm")
      :format(os.getenv("CC") or "cc", q(root .. "/src"), q(program),
              q(root .. "/spec/golden/golden.c"), table.concat(sources, " ")))
    if built then
      local _
      _, output = helpers.run(q(program))
    end
  end)

  teardown(function() os.remove(program) end)

  it("builds and runs the golden program", function()
    assert(built, build_output)
    assert.truthy(output and output:find("total"), output)
  end)

  for _, part in ipairs { "joints", "angles" } do
    it("gives the recorded " .. part .. " bits", function()
      assert(built, build_output)
      assert.equal(expected[part], output:match(part .. "%s+(%x+)"))
    end)
  end
end)
