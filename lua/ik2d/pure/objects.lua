--- ik2d.pure.objects: the four object types of the pure-Lua API: their
-- method tables, metatables and the weak tables that hold what each proxy
-- stands for (made here once, so each API module can check the others').
local B = require "ik2d.pure.binding"

local M = { methods = {}, objects = {}, new = {}, mt = {} }

local all = {}
local gc = B.gc(all)
for _, kind in ipairs { "Constraint", "Chain", "Solver", "Group", "Skeleton", "Spring" } do
  local methods = {}
  local objects, new, mt = B.new_type("ik2d." .. kind, methods, gc)
  M.methods[kind], M.objects[kind], M.new[kind], M.mt[kind] = methods, objects, new, mt
  all[#all + 1] = objects
end
M.gc = gc

return M
