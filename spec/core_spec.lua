-- The C core's own checks: every spec/core/*.c is a small C program over
-- the core alone (no Lua), built with the core's flags and run; each
-- prints a line "ok ..." or "not ok ..." per check and exits non-zero
-- when one failed.

local helpers = require "spec.helpers"

local q = helpers.shell_quote
local root = helpers.repo_root()

local function programs()
  local ok, out = helpers.run("ls -1 " .. q(root .. "/spec/core") .. " | grep '\\.c$'")
  assert(ok, out)
  local list = {}
  for name in out:gmatch("[^\n]+") do list[#list + 1] = name end
  table.sort(list)
  return list
end

describe("the C core on its own", function()
  if helpers.pure_pass then
    pending("IK2D_PURE=1: these C programs build the C core alone; the pass with the C core runs them")
    return
  end
  for _, name in ipairs(programs()) do
    it("passes spec/core/" .. name, function()
      local built, program = helpers.build_core_program { "spec/core/" .. name }
      assert(built, program)
      local ok, out = helpers.run(q(program))
      os.remove(program)
      assert.is_nil(out:find("not ok", 1, true), out)
      assert(ok, out)
      assert.truthy(out:find("ok ", 1, true), out)
    end)
  end
end)
