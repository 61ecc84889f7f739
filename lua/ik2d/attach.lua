-- ik2d.attach: attach a chain's base to a joint of another chain.
--
--   local attach = require "ik2d.attach"
--   local rig = attach.new()
--   rig:add(arm, torso, 3, 0.4)     -- arm base on torso joint 3, turned 0.4 rad
--   rig:add(hand, arm)              -- hand on the arm's tip
--   rig:add(lamp, arm, 2, 0, { inherit = "position" })  -- follows, never turns
--   -- each frame: solve torso; rig:update(); solve arm and hand
--
-- Each link sets the child's base position to the parent's joint (result
-- pose) and its base angle to the parent's direction there plus the
-- offset.  The direction at joint j is that of the bone ending there
-- (bone j - 1); at joint 1, where none ends, that of bone 1, not the base
-- angle (the follow method moves a chain's base and turns its bones, never
-- its base angle).  With
-- inherit = "position" the child's base follows the joint's position
-- only and keeps its own base angle.
--
-- Order: :update() applies the links in the order they were added, so
-- add parents before their children (torso -> arm -> hand): a link then
-- reads a parent that has already been moved this update.  A link added
-- before its parent's own link reads the parent's previous position.
-- :update() only moves bases (the children's result poses follow rigidly);
-- it reads the parents' result poses, so solve a parent before the update
-- that should see its new pose.  Links form a tree: a chain has one
-- parent, and a link that would close a loop (a -> b, b -> a) is refused.
--
-- Flip: by default a child takes its parent's flip (a character turned to
-- face left), and the offset is mirrored with it.  Pass flip = false in
-- the options to leave the child's flip alone.
--
-- All or nothing: when a chain raises during :update(), the bases and
-- flips already changed by that update are put back.  Pure Lua, no LOVE.

local common = require "ik2d.common"

local attach = {
  _VERSION = require("ik2d.api").version,
  _DESCRIPTION = "ik2d.attach: chain bases on other chains' joints",
}

local pi = math.pi
local fail = common.fail

local Attach = {}
Attach.__index = Attach

local OPTIONS = { flip = true, inherit = true }

local function check_self(self, who)
  common.self(self, Attach, 3, who, "an attach")
end

-- attach.new() --> an empty, ordered list of links
function attach.new()
  return setmetatable({ links = {} }, Attach)
end

-- The world direction (as drawn, so mirrored when flipped) of chain c at
-- joint j: the bone's ending there, bone 1's at joint 1.
local function direction(c, j)
  if j > 1 then return c:world_angle(j - 1) end
  return c:world_angle(1)
end

-- attach.direction(chain, joint): the same, checked.
function attach.direction(chain, joint)
  local who = "ik2d.attach: direction"
  common.object(chain, { "world_angle" }, 2, who, "chain", "an ik2d chain")
  common.whole(joint, 1, #chain + 1, 2, who, "joint")
  local a = direction(chain, joint)
  return a
end

local function find(self, child)
  for i, link in ipairs(self.links) do
    if link.child == child then return i end
  end
end

-- the methods a link uses of a child and of a parent
local CHILD_METHODS = { "set_base", "base", "flip", "set_flip" }
local PARENT_METHODS = { "joint", "world_angle", "flip" }

-- Does `chain` hang from `from` through the links (or is it `from`)?
local function hangs_from(self, chain, from)
  local seen = 0
  while chain ~= from do
    local i = find(self, chain)
    if not i or seen > #self.links then return false end
    chain, seen = self.links[i].parent, seen + 1
  end
  return true
end

-- :add(child, parent [, joint [, angle_offset [, opts]]]): joint defaults
-- to the parent's tip (#parent + 1), angle_offset (radians) to 0.
-- opts.flip = false keeps the child's own flip; opts.inherit = "position"
-- moves only the child's base position (its base angle stays its own, so
-- angle_offset must be 0), "rotation" (the default) the angle as well.
-- A chain has one base, so it can be the child of one link only, and a
-- link may not close a loop.  Returns self.
function Attach:add(child, parent, joint, angle_offset, opts)
  local who = "ik2d.attach: add"
  check_self(self, who)
  common.object(child, CHILD_METHODS, 2, who, "child", "an ik2d chain")
  common.object(parent, PARENT_METHODS, 2, who, "parent", "an ik2d chain")
  if child == parent then fail(2, who, "a chain cannot be attached to itself") end
  if joint == nil then joint = #parent + 1 end
  common.whole(joint, 1, #parent + 1, 2, who, "joint")
  if angle_offset == nil then angle_offset = 0 end
  common.finite(angle_offset, 2, who, "angle_offset")
  opts = common.options(opts, OPTIONS, 2, who, "opts")
  if opts.flip ~= nil and type(opts.flip) ~= "boolean" then
    fail(2, who, "opts.flip must be a boolean or nil", opts.flip)
  end
  local inherit = opts.inherit
  if inherit == nil then inherit = "rotation" end
  if inherit ~= "rotation" and inherit ~= "position" then
    fail(2, who, 'opts.inherit must be "rotation" or "position"', inherit)
  end
  if inherit == "position" and angle_offset ~= 0 then
    fail(2, who, 'angle_offset must be 0 with inherit = "position" (the child keeps its own base angle)',
      angle_offset)
  end
  if find(self, child) then fail(2, who, "child is already attached (remove it first)") end
  if hangs_from(self, parent, child) then
    fail(2, who, "parent hangs from child through the links: attaching would make a cycle")
  end
  self.links[#self.links + 1] = {
    child = child, parent = parent, joint = joint, offset = angle_offset,
    flip = opts.flip ~= false, turn = inherit == "rotation",
    -- the child's base and flip before the running update, to put back
    saved_x = 0, saved_y = 0, saved_angle = 0, saved_flip = false, done = false,
  }
  return self
end

-- :remove(child): detach child (its base stays where it is).  Returns
-- true when child had a link, false otherwise.
function Attach:remove(child)
  local who = "ik2d.attach: remove"
  check_self(self, who)
  common.object(child, CHILD_METHODS, 2, who, "child", "an ik2d chain")
  local i = find(self, child)
  if i then table.remove(self.links, i) end
  return i ~= nil
end

-- :count() --> number of links
function Attach:count()
  check_self(self, "ik2d.attach: count")
  return #self.links
end

local function apply(link)
  local child, parent = link.child, link.parent
  local pflip = parent:flip()
  if link.flip and child:flip() ~= pflip then child:set_flip(pflip) end
  local x, y = parent:joint(link.joint)
  if not link.turn then
    child:set_base(x, y)
    return
  end
  local dir = direction(parent, link.joint)
  -- the offset turns the other way on a mirrored parent
  local want = pflip and dir - link.offset or dir + link.offset
  -- a flipped chain draws its base angle mirrored (pi - angle)
  if child:flip() then want = pi - want end
  child:set_base(x, y, want)
end

-- :apply(i): apply link i alone.
function Attach:apply(i)
  local who = "ik2d.attach: apply"
  check_self(self, who)
  common.whole(i, 1, #self.links, 2, who, "i")
  local link = self.links[i]
  local x, y, a = link.child:base()
  local flip = link.child:flip()
  local ok, err = pcall(apply, link)
  if not ok then
    pcall(link.child.set_flip, link.child, flip)
    pcall(link.child.set_base, link.child, x, y, a)
    error(err, 0)
  end
end

local function apply_all(links)
  for i = 1, #links do
    local link = links[i]
    local child = link.child
    link.saved_x, link.saved_y, link.saved_angle = child:base()
    link.saved_flip = child:flip()
    link.done = i
    apply(link)
  end
end

-- :update(): apply every link in the order added.  Returns self.
function Attach:update()
  check_self(self, "ik2d.attach: update")
  local links = self.links
  local ok, err = pcall(apply_all, links)
  if not ok then
    -- put back, last first, every child this update has touched
    for i = #links, 1, -1 do
      local link = links[i]
      if link.done then
        local child = link.child
        pcall(child.set_flip, child, link.saved_flip)
        pcall(child.set_base, child, link.saved_x, link.saved_y, link.saved_angle)
      end
    end
  end
  for i = 1, #links do links[i].done = false end
  if not ok then error(err, 0) end
  return self
end

return setmetatable(attach, {
  __call = function(_, ...) return attach.new(...) end,
})
