--- ik2d.pure.core: the pure-Lua core, the same table as ik2d.core (the C
-- module): ik2d.chain, ik2d.constraint, ik2d.solver, ik2d.group,
-- ik2d.skeleton, ik2d.transform_constraint, ik2d.spring, ik2d.slots,
-- ik2d.rig_targets, ik2d.clip and their methods, with the same arguments,
-- errors and results, bit for bit.  For where native code cannot load (a
-- .love file, Android, iOS, love.js).
local defs = require "ik2d.pure.defs"
local O = require "ik2d.pure.objects"
local binding_chain = require "ik2d.pure.binding_chain"
local binding_solver = require "ik2d.pure.binding_solver"
local group = require "ik2d.pure.group"
local binding_spring = require "ik2d.pure.binding_spring"
local binding_skeleton = require "ik2d.pure.binding_skeleton"
local binding_transform_constraint = require "ik2d.pure.binding_transform_constraint"
local binding_rig = require "ik2d.pure.binding_rig"

return {
  chain = binding_chain.chain,
  constraint = binding_chain.constraint,
  solver = binding_solver.solver,
  group = group.group,
  use_isa = group.use_isa,
  spring = binding_spring.spring,
  skeleton = binding_skeleton.skeleton,
  transform_constraint = binding_transform_constraint.transform_constraint,
  slots = binding_rig.slots,
  rig_targets = binding_rig.rig_targets,
  clip = binding_rig.clip,
  _VERSION = require("ik2d.api").version,
  MAX_BONES = defs.constant("MAX_BONES"),
  MAX_SKELETON_BONES = defs.constant("MAX_SKELETON_BONES"),
  -- the method tables (ik2d.core has them for its FFI path)
  _methods = { Chain = O.methods.Chain, Constraint = O.methods.Constraint,
               Solver = O.methods.Solver, Group = O.methods.Group,
               Skeleton = O.methods.Skeleton, Spring = O.methods.Spring,
               TransformConstraint = O.methods.TransformConstraint, Slots = O.methods.Slots,
               RigTargets = O.methods.RigTargets, Clip = O.methods.Clip },
}
