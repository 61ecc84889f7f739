-- The C core's function names: a name says whether it is public.
--
-- The public API is what src/ik2d.h declares, each with IK2D_API:
-- ik2d_<object>_... for one object (chain, constraint, solver, skeleton,
-- spring), ik2d_<objects>_... for an array of them (solvers, skeletons),
-- and the module's ik2d_status_..., ik2d_isa_..., ik2d_default_... and the
-- checks of a value (ik2d_bone_def_check, ik2d_collider_check).  No
-- function of the core's other files takes one of those prefixes: the
-- internals of those objects' layers are ik2d__<object>_..., the internal
-- layers' own keep their layer's name (ik2d_pose_..., ik2d_rot_...).

local helpers = require "spec.helpers"

local root = helpers.repo_root()

local PUBLIC = { "chain", "constraint", "solver", "solvers", "skeleton", "skeletons", "spring",
                 "status", "isa", "default", "bone_def", "collider",
                 "transform_constraint", "slots", "clip", "rig_targets" }

local function read(path)
  local f = assert(io.open(root .. "/" .. path, "rb"))
  local text = f:read("*a")
  f:close()
  return text
end

local function public_prefix(name)
  for _, object in ipairs(PUBLIC) do
    local prefix = "ik2d_" .. object .. "_"
    if name:sub(1, #prefix) == prefix then return prefix end
  end
end

-- the functions a C text declares or defines: a name before "(" on a
-- line that starts at column 0 with a type (static, inline, a return
-- type, IK2D_API ...), not a call or a macro
local function functions(text)
  local names = {}
  for line in (text .. "\n"):gmatch("([^\n]*)\n") do
    local head = line:match("^([%a_][%w_ %*]-)%(")
    if head and not line:match("^#") and not head:match("^return ") then
      local name = head:match("([%w_]+)%s*$")
      if name and name:match("^ik2d_") and head:find("[%w_%*]%s+%**" .. name .. "%s*$") then
        names[#names + 1] = name
      end
    end
  end
  return names
end

local function core_sources()
  local ok, out = helpers.run(("cd %s && ls src/*.c src/*.h"):format(helpers.shell_quote(root)))
  assert(ok, out)
  local paths = {}
  for path in out:gmatch("[^\n]+") do
    if path ~= "src/ik2d.h" then paths[#paths + 1] = path end
  end
  return paths
end

describe("the C core's function names", function()
  local header = read("src/ik2d.h")
  local declared = {}
  for name in header:gmatch("IK2D_API [^;(]-([%w_]+)%s*%(") do declared[name] = true end

  it("finds the public API in src/ik2d.h", function()
    local count = 0
    for _ in pairs(declared) do count = count + 1 end
    assert.is_true(count > 100, "only " .. count .. " IK2D_API functions found")
    assert.is_true(declared.ik2d_solvers_solve and declared.ik2d_status_message and true or false)
  end)

  it("gives every function src/ik2d.h declares IK2D_API and a public prefix", function()
    local wrong = {}
    for _, name in ipairs(functions(header)) do
      if not declared[name] then wrong[#wrong + 1] = name .. " (no IK2D_API)" end
      if not public_prefix(name) then wrong[#wrong + 1] = name .. " (no public prefix)" end
    end
    assert(#wrong == 0, table.concat(wrong, ", "))
    assert.is_nil(header:find("ik2d__", 1, true), "src/ik2d.h names an internal function")
  end)

  it("gives no internal function a public prefix", function()
    local wrong = {}
    for _, path in ipairs(core_sources()) do
      for _, name in ipairs(functions(read(path))) do
        if public_prefix(name) and not declared[name] then
          wrong[#wrong + 1] = path .. ": " .. name
        end
      end
    end
    assert(#wrong == 0, "internal functions under a public prefix (ik2d__ for internals): "
      .. table.concat(wrong, ", "))
  end)

  it("finds the functions of a C text, declared or defined, not called", function()
    local text = table.concat({
      "static inline bool ik2d__solver_on_bone(const ik2d_solver *solver) {",
      "IK2D_API ik2d_status ik2d_solver_set_def(ik2d_solver *solver,",
      "ik2d_rot ik2d_pose_world(const ik2d_pose *pose, int i);",
      "const double *ik2d_chain_joints(const ik2d_chain *chain) {",
      "  return ik2d_chain_reach(chain);",
      "return ik2d_wrap(angle);",
      "#define ik2d_x(a) (a)",
      "/* ik2d_solver_solve(solver) */",
    }, "\n")
    assert.same({ "ik2d__solver_on_bone", "ik2d_solver_set_def", "ik2d_pose_world", "ik2d_chain_joints" },
                functions(text))
  end)
end)
