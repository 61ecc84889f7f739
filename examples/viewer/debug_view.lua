-- The viewer's debug view: bones, limits and solver targets (ik2d.love's
-- draw_skeleton), each transform constraint as lines from its target
-- bone to the bones it moves, and the solver target under the mouse.
local ikdraw = require "ik2d.love"

local debug_view = {}

local g = love.graphics

-- the description's entry of each of the rig's solvers, by name
local function solver_descriptions(rig)
  local by_name = {}
  for _, s in ipairs(rig.description.solvers or {}) do by_name[s.name] = s end
  return by_name
end

local function origin(sk, bone)
  local _, _, _, _, x, y = sk:matrix(bone)
  return x, y
end

--- draw(rig, zoom): the debug view in world units (sizes kept on screen)
function debug_view.draw(rig, zoom)
  local d = ikdraw.defaults
  local px = 1 / zoom
  ikdraw.draw_skeleton(rig.skeleton, { line_width = 1.5 * px, joint_radius = 3 * px,
    tip_radius = 2 * px, target_size = 6 * px, limit_radius = 14 * px,
    bone_color = { 1, 1, 1, 0.8 }, joint_color = d.joint_color })
  g.push("all")
  g.setLineWidth(px)
  g.setColor(1, 0.55, 0.95, 0.9)
  for _, c in ipairs(rig.description.constraints or {}) do
    if rig.constraints[c.name] then
      local tx, ty = origin(rig.skeleton, c.target)
      for _, bone in ipairs(c.bones) do
        local x, y = origin(rig.skeleton, bone)
        g.line(tx, ty, x, y)
      end
      g.circle("line", tx, ty, 5 * px)
    end
  end
  g.pop()
end

--- solver_at(rig, x, y) -> { solver =, name =, bone = } for the solver
-- whose target is within a few pixels of (x, y), or nil
function debug_view.solver_at(rig, x, y)
  local described = solver_descriptions(rig)
  for name, s in pairs(rig.solvers) do
    local tx, ty = s:target()
    if (tx - x) ^ 2 + (ty - y) ^ 2 < 12 ^ 2 then
      local target = described[name] and described[name].target
      return { solver = s, name = name, bone = target and target.bone,
        dx = target and target.x or 0, dy = target and target.y or 0 }
    end
  end
  return nil
end

--- give_back(rig, dragged): the solver follows its target bone again
function debug_view.give_back(rig, dragged)
  if dragged.bone then
    dragged.solver:set_target_bone(rig.skeleton, dragged.bone, dragged.dx, dragged.dy)
  end
end

return debug_view
