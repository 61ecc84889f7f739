--- ik2d: 2D inverse kinematics for games.
-- The C core (ik2d.core) does the solving; this module re-exports it and
-- adds the pure-Lua helpers.
local core = require "ik2d.core"

local ik2d = {
  _VERSION = core._VERSION,
  _DESCRIPTION = "2D inverse kinematics (CCD, FABRIK, two-bone) for LOVE and Lua",
  _URL = "https://example.invalid/ik2d",
  _LICENSE = "MIT",
  MAX_BONES = core.MAX_BONES,
  chain = core.chain,
  constraint = core.constraint,
  solver = core.solver,
}

return ik2d
