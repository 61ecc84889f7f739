-- ik2d.attach: attach a chain's base to a joint of another chain.
--
--   local attach = require "ik2d.attach"
--   local rig = attach.new()
--   rig:add(arm, torso, 3, 0.4)     -- arm base on torso joint 3, turned 0.4 rad
--   rig:add(hand, arm)              -- hand on the arm's tip
--   -- each frame: solve torso; rig:update(); solve arm and hand
--
-- Each link sets the child's base position to the parent's joint (result
-- pose) and its base angle to the parent's direction there plus the
-- offset.  The direction at joint j is that of the bone ending there
-- (bone j - 1); at joint 1 it is the parent's base direction.
--
-- Order: :update() applies the links in the order they were added, so
-- add parents before their children (torso -> arm -> hand): a link then
-- reads a parent that has already been moved this update.  A link added
-- before its parent's own link reads the parent's previous position.
-- :update() only moves bases (the children's result poses follow rigidly);
-- it reads the parents' result poses, so solve a parent before the update
-- that should see its new pose.
--
-- Flip: by default a child takes its parent's flip (a character turned to
-- face left), and the offset is mirrored with it.  Pass flip = false in
-- the options to leave the child's flip alone.  Pure Lua, no LOVE.

local attach = {
  _VERSION = "0.1.0",
  _DESCRIPTION = "ik2d.attach: chain bases on other chains' joints",
}

local pi = math.pi

local Attach = {}
Attach.__index = Attach

-- attach.new() --> an empty, ordered list of links
function attach.new()
  return setmetatable({ links = {} }, Attach)
end

-- The world direction (as drawn, so mirrored when flipped) of chain c at
-- joint j.
local function direction(c, j)
  if j > 1 then return c:world_angle(j - 1) end
  -- the base frame: bone 1's world direction minus its local angle,
  -- mirrored when the chain is flipped
  if c:flip() then return c:world_angle(1) + c:angle(1) end
  return c:world_angle(1) - c:angle(1)
end
attach.direction = direction

local function find(self, child)
  for i, link in ipairs(self.links) do
    if link.child == child then return i end
  end
end

-- :add(child, parent [, joint [, angle_offset [, opts]]]): joint defaults
-- to the parent's tip (#parent + 1), angle_offset (radians) to 0;
-- opts.flip = false keeps the child's own flip.  A chain has one base, so
-- it can be the child of one link only.  Returns self.
function Attach:add(child, parent, joint, angle_offset, opts)
  if child == nil or child.set_base == nil then
    error("bad argument #1 to 'add' (chain expected, got " .. type(child) .. ")", 2)
  end
  if parent == nil or parent.joint == nil then
    error("bad argument #2 to 'add' (chain expected, got " .. type(parent) .. ")", 2)
  end
  if child == parent then
    error("bad argument #2 to 'add' (a chain cannot be attached to itself)", 2)
  end
  joint = joint or #parent + 1
  if type(joint) ~= "number" or joint < 1 or joint > #parent + 1
      or joint % 1 ~= 0 then
    error(("bad argument #3 to 'add' (joint must be an integer in 1..%d)")
      :format(#parent + 1), 2)
  end
  angle_offset = angle_offset or 0
  if type(angle_offset) ~= "number" or angle_offset ~= angle_offset then
    error("bad argument #4 to 'add' (number expected, got " ..
      type(angle_offset) .. ")", 2)
  end
  if find(self, child) then
    error("bad argument #1 to 'add' (chain is already attached)", 2)
  end
  local follow_flip = not (opts and opts.flip == false)
  self.links[#self.links + 1] = {
    child = child, parent = parent, joint = joint,
    offset = angle_offset, flip = follow_flip,
  }
  return self
end

-- :remove(child): detach child (its base stays where it is).
function Attach:remove(child)
  local i = find(self, child)
  if i then table.remove(self.links, i) end
  return i ~= nil
end

-- :count() --> number of links
function Attach:count()
  return #self.links
end

-- :apply(i): apply link i alone.
function Attach:apply(i)
  local link = self.links[i]
  local child, parent = link.child, link.parent
  local pflip = parent:flip()
  if link.flip and child:flip() ~= pflip then child:set_flip(pflip) end
  local x, y = parent:joint(link.joint)
  local dir = direction(parent, link.joint)
  -- the offset turns the other way on a mirrored parent
  local want = pflip and dir - link.offset or dir + link.offset
  -- a flipped chain draws its base angle mirrored (pi - angle)
  if child:flip() then want = pi - want end
  child:set_base(x, y, want)
end

-- :update(): apply every link in the order added.  Returns self.
function Attach:update()
  for i = 1, #self.links do self:apply(i) end
  return self
end

return setmetatable(attach, {
  __call = function(_, ...) return attach.new(...) end,
})
