--- ik2d: 2D inverse kinematics for games.
-- The core does the solving: the C module ik2d.core where it loads, else
-- (a .love file, Android, iOS, love.js, or IK2D_PURE=1 in the environment)
-- the pure-Lua core ik2d.pure.core, with the same API, errors and bits.
-- This module re-exports it, switches on the LuaJIT FFI fast path where it
-- can, and adds the pure-Lua helpers.
local core, backend, core_error
if os.getenv("IK2D_PURE") ~= "1" then
  local ok, c = pcall(require, "ik2d.core")
  if ok then core, backend = c, "c" else core_error = tostring(c) end
end
if not core then core, backend = require "ik2d.pure.core", "lua" end

local ik2d = {
  _VERSION = core._VERSION,
  _DESCRIPTION = "2D inverse kinematics (CCD, FABRIK, two-bone) for LOVE and Lua",
  _URL = "https://example.invalid/ik2d",
  _LICENSE = "MIT",
  MAX_BONES = core.MAX_BONES,
  chain = core.chain,
  constraint = core.constraint,
  solver = core.solver,
  group = core.group,
  skeleton = core.skeleton,
  MAX_SKELETON_BONES = core.MAX_SKELETON_BONES,
  spring = core.spring,
  transform_constraint = core.transform_constraint,
  slots = core.slots,
  rig_targets = core.rig_targets,
  clip = core.clip,
  ffi = false,
  -- "c" (the C core), "ffi" (the C core through LuaJIT's FFI) or "lua"
  backend = backend,
  -- why require "ik2d.core" failed when the pure core stands in (not found,
  -- or built for another Lua or platform); nil when the C core runs or
  -- IK2D_PURE=1 asked for the pure one
  core_error = core_error,
}

-- Under LuaJIT the hot methods go through the FFI unless IK2D_NO_FFI is set.
local switch_ffi
if backend == "c" and rawget(_G, "jit") and package.searchpath then
  local ok, fast = pcall(require, "ik2d.ffi")
  if ok then switch_ffi = fast.install(core) end
end

--- Puts the FFI methods (true) or the classic C API methods (false) in
-- place for every object; returns whether the FFI path is now in use.
-- Only a boolean: "false" and 0 are true in Lua.  No argument changes
-- nothing, as ik2d.use_isa() does.
function ik2d.use_ffi(on)
  if on ~= nil and type(on) ~= "boolean" then
    error(("bad argument #1 to 'use_ffi' (boolean expected, got %s)"):format(type(on)), 2)
  end
  if on == nil or not switch_ffi then return ik2d.ffi end
  switch_ffi(on)
  ik2d.ffi = on
  ik2d.backend = on and "ffi" or "c"
  return on
end

ik2d.use_ffi(os.getenv("IK2D_NO_FFI") == nil)

--- ik2d.use_isa(name): solves groups with the named instruction set from
-- now on ("auto", "scalar", "sse2", "avx2" or "avx512"; one this machine
-- does not run falls back to the best below it); returns the name of the
-- one in use, which ik2d.isa also reads.  Every set gives the same bits.
ik2d.use_isa = core.use_isa
-- ik2d.rig and ik2d.player load when first asked for: a game without
-- characters from files loads no JSON reader
local LATER = { rig = "ik2d.rig", player = "ik2d.player" }
setmetatable(ik2d, { __index = function(t, key)
  if key == "isa" then return core.use_isa() end
  if LATER[key] then
    local module = require(LATER[key])
    rawset(t, key, module)
    return module
  end
end })

-- IK2D_ISA forces a set (tests, benchmarks); else the best one
do
  local forced = os.getenv("IK2D_ISA")
  local ok, message = pcall(core.use_isa, forced ~= "" and forced or "auto")
  if not ok then error("IK2D_ISA=" .. tostring(forced) .. ": " .. message, 0) end
end

-- pure-Lua helpers (ik2d.love, for LOVE only, is required on its own)
ik2d.blend = require "ik2d.blend"
ik2d.smooth = require "ik2d.smooth"
-- the name before 0.3.0, for one release (the same module)
ik2d.follow = ik2d.smooth
ik2d.behaviour = require "ik2d.behaviour"
ik2d.attach = require "ik2d.attach"
ik2d.mirror_bones = require "ik2d.mirror"
ik2d.gait = require "ik2d.gait"

return ik2d
