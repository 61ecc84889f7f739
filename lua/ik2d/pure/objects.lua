--- ik2d.pure.objects: the object types of the pure-Lua API: their
-- method tables, metatables and the weak tables that hold what each proxy
-- stands for (made here once, so each API module can check the others').
-- A chain, solver, skeleton or transform constraint going leaves the lists
-- of its skeleton.
local B = require "ik2d.pure.binding"
local skeleton = require "ik2d.pure.skeleton"
local transform_constraint = require "ik2d.pure.transform_constraint"

local M = { methods = {}, objects = {}, new = {}, mt = {} }

local RELEASE = { Chain = skeleton.release_chain, Solver = skeleton.unlink_solver,
  Skeleton = skeleton.release, TransformConstraint = transform_constraint.release }

local KINDS = { "Constraint", "Chain", "Solver", "Group", "Skeleton", "Spring",
  "TransformConstraint", "Slots", "RigTargets", "Clip" }
local all = {}
for k = 1, #KINDS do all[k] = B.objects() end
M.gc = {}
-- a skeleton's solvers' proxies (sk:solvers()): weak both ways, so that
-- one being collected is left out
M.solver_proxies = setmetatable({}, { __mode = "kv" })
for k, kind in ipairs(KINDS) do
  local methods, gc = {}, B.gc(all, k, RELEASE[kind])
  local objects, new, mt = B.new_type("ik2d." .. kind, methods, gc, all[k])
  M.methods[kind], M.objects[kind], M.new[kind], M.mt[kind] = methods, objects, new, mt
  M.gc[kind] = gc
end

return M
