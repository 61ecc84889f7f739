-- ik2d.love: debug drawing and sprite skinning of ik2d chains in LOVE 11.
-- Require it only inside LOVE (it draws with love.graphics).
--
--   local ikdraw = require "ik2d.love"
--   function love.draw()
--     ikdraw.draw_sprites(arm, { upper_arm, forearm })   -- skin
--     ikdraw.draw_solver(solver)                         -- bones, joints, target, limit arcs
--   end
--
-- Every function takes an optional table of options; what it leaves out
-- comes from ikdraw.defaults (change those to restyle everything).
-- Colours are {r, g, b, a} in 0..1.  The drawing state (colour, line
-- width) is saved and restored, and nothing is allocated per frame.

local common = require "ik2d.common"

local ikdraw = {
  _VERSION = require("ik2d.api").version,
  _DESCRIPTION = "ik2d.love: debug drawing and sprites for ik2d chains",
}

local pi, tau = math.pi, 2 * math.pi
local min = math.min

ikdraw.defaults = {
  bone_color = { 0.95, 0.95, 0.95, 1 },
  joint_color = { 0.25, 0.65, 1, 1 },
  tip_color = { 1, 0.8, 0.2, 1 },
  target_color = { 1, 0.3, 0.3, 1 },   -- target not reached
  reached_color = { 0.3, 1, 0.45, 1 },  -- target reached (within tolerance)
  limit_color = { 1, 1, 1, 0.16 },      -- fill of the allowed range
  limit_line_color = { 1, 1, 1, 0.55 }, -- its outline
  line_width = 2,
  joint_radius = 4,
  tip_radius = 3,
  target_size = 6,
  limit_radius = 18,      -- at most 0.8 of the bone's length
  segments = 24,          -- per arc
  target_line = true,     -- line from the tip to a target not reached
  zero_weight_targets = false, -- draw_solver: also the target of a weight-0 solver
}

local defaults = ikdraw.defaults

-- Argument checks: errors at the caller's line, "ik2d.love: draw_chain:
-- chain must be an ik2d chain, got nil".  An opts field that is not a
-- default's name (or draw_sprites' color) is a typo, not a no-op.
local KNOWN = { color = true }
for key in pairs(defaults) do KNOWN[key] = true end
local CHAIN, SOLVER = { "joint", "joints" }, { "chain", "target", "weight" }

local function check_chain(chain, opts, who)
  common.object(chain, CHAIN, 3, who, "chain", "an ik2d chain")
  common.options(opts, KNOWN, 3, who, "opts")
end

local function check_solver(solver, opts, who)
  common.object(solver, SOLVER, 3, who, "solver", "an ik2d solver")
  common.options(opts, KNOWN, 3, who, "opts")
end

local function opt(opts, key)
  local v = opts and opts[key]
  if v == nil then v = defaults[key] end
  return v
end

local function set_color(c)
  love.graphics.setColor(c[1], c[2], c[3], c[4] or 1)
end

-- One joints buffer per chain size, reused every frame: love.graphics.line
-- takes the whole table, so it must hold exactly 2 * (#chain + 1) numbers.
local buffers = {}
local function joints_of(chain)
  local n = #chain
  local buf = buffers[n]
  if not buf then
    buf = {}
    buffers[n] = buf
  end
  return chain:joints(buf)
end

-- ------------------------------------------------------------------
-- Limits
-- ------------------------------------------------------------------

-- ikdraw.limit_arc(chain, i) --> a1, a2 (screen angles, a1 <= a2) of the
-- range bone i may point to, or nil when bone i has no constraint.  The
-- arc is the constraint's own (constraint:arc(), the one the solver
-- clamps to), so drawing cannot disagree with solving: centred on joint
-- i, from parent + rest + from to parent + rest + to (a world-space limit
-- leaves the parent out); on a flipped chain, its mirror.  An inverted
-- constraint allows the complement, max .. min + 2 pi.  A range of 2 pi
-- or more returns 0, 2 pi.
function ikdraw.limit_arc(chain, i)
  common.object(chain, CHAIN, 2, "ik2d.love: limit_arc", "chain", "an ik2d chain")
  common.whole(i, 1, #chain, 2, "ik2d.love: limit_arc", "i")
  local c = chain:constraint(i)
  if not c then return nil end
  -- the allowed arc of deltas from the rest angle, as the core clamps
  -- them (nil: every angle allowed)
  local from, to = c:arc()
  if not from then return 0, tau end
  local base = chain:rest(i)
  if c:space() ~= "world" then
    -- the parent's world direction: this bone's, less its own angle
    -- (mirrored on a flipped chain, where world angles read pi - a)
    local wa, a = chain:world_angle(i), chain:angle(i)
    base = base + (chain:flip() and pi - (wa + a) or wa - a)
  end
  if chain:flip() then return pi - base - to, pi - base - from end
  return base + from, base + to
end

-- ikdraw.draw_limits(chain [, opts]): each constrained joint's allowed
-- range as a filled arc (limit_color) with an outline (limit_line_color),
-- radius limit_radius (at most 0.8 of the bone).
function ikdraw.draw_limits(chain, opts)
  check_chain(chain, opts, "ik2d.love: draw_limits")
  local g = love.graphics
  g.push("all")
  g.setLineWidth(opt(opts, "line_width") * 0.5)
  local radius, segments = opt(opts, "limit_radius"), opt(opts, "segments")
  local fill, line = opt(opts, "limit_color"), opt(opts, "limit_line_color")
  for i = 1, #chain do
    local a1, a2 = ikdraw.limit_arc(chain, i)
    if a1 then
      local x, y = chain:joint(i)
      local r = min(radius, 0.8 * chain:length(i))
      if a2 - a1 >= tau then
        set_color(fill)
        g.circle("fill", x, y, r, segments)
        set_color(line)
        g.circle("line", x, y, r, segments)
      else
        set_color(fill)
        g.arc("fill", "pie", x, y, r, a1, a2, segments)
        set_color(line)
        g.arc("line", "pie", x, y, r, a1, a2, segments)
      end
    end
  end
  g.pop()
end

-- ------------------------------------------------------------------
-- Bones, joints, target
-- ------------------------------------------------------------------

-- ikdraw.draw_chain(chain [, opts]): bones as lines (bone_color,
-- line_width), joints as circles (joint_color, joint_radius), the tip
-- (tip_color, tip_radius).
function ikdraw.draw_chain(chain, opts)
  check_chain(chain, opts, "ik2d.love: draw_chain")
  local g = love.graphics
  g.push("all")
  local pts = joints_of(chain)
  g.setLineWidth(opt(opts, "line_width"))
  set_color(opt(opts, "bone_color"))
  g.line(pts)
  set_color(opt(opts, "joint_color"))
  local jr = opt(opts, "joint_radius")
  for k = 1, #pts - 2, 2 do
    g.circle("fill", pts[k], pts[k + 1], jr)
  end
  set_color(opt(opts, "tip_color"))
  g.circle("fill", pts[#pts - 1], pts[#pts], opt(opts, "tip_radius"))
  g.pop()
end

-- ikdraw.draw_target(solver [, opts]): the solver's target as a cross,
-- reached_color when the chain's tip is within tolerance, else
-- target_color with a thin line from the tip (target_line).
function ikdraw.draw_target(solver, opts)
  check_solver(solver, opts, "ik2d.love: draw_target")
  local g = love.graphics
  g.push("all")
  local tx, ty = solver:target()
  local x, y = solver:chain():tip()
  local dx, dy = tx - x, ty - y
  local reached = dx * dx + dy * dy <= solver:tolerance() ^ 2
  local size = opt(opts, "target_size")
  g.setLineWidth(opt(opts, "line_width"))
  set_color(opt(opts, reached and "reached_color" or "target_color"))
  g.line(tx - size, ty - size, tx + size, ty + size)
  g.line(tx - size, ty + size, tx + size, ty - size)
  if not reached and opt(opts, "target_line") then
    g.setLineWidth(1)
    g.line(x, y, tx, ty)
  end
  g.pop()
end

-- ikdraw.draw_solver(solver [, opts]): limits, chain and target.  The
-- target of a solver with weight 0 (IK off: its target is often stale,
-- far from the chain) is left out unless opts.zero_weight_targets.
function ikdraw.draw_solver(solver, opts)
  check_solver(solver, opts, "ik2d.love: draw_solver")
  local chain = solver:chain()
  ikdraw.draw_limits(chain, opts)
  ikdraw.draw_chain(chain, opts)
  if solver:weight() > 0 or opt(opts, "zero_weight_targets") then
    ikdraw.draw_target(solver, opts)
  end
end

-- ------------------------------------------------------------------
-- Sprites
-- ------------------------------------------------------------------

-- ikdraw.draw_sprites(chain, sprites [, opts]): draws sprites[i] on bone
-- i at the result pose: position = joint i, rotation = world_angle(i).
-- sprites is a list (one per bone; nil or false skips a bone) or a
-- single sprite for every bone.  A sprite is a table:
--   image    Image or Canvas (required), drawn with the bone along +x
--   quad     optional Quad (a region of a sprite sheet)
--   ox, oy   origin in sprite pixels, on the joint (default 0, height / 2)
--   sx, sy   scale (default 1, 1)
--   stretch  true: scale x so the width spans the bone's length
-- x is also scaled by chain:scale(), so sprites follow a stretch, and y too
-- when the solver asked for uniform scaling (chain:uniform()).
--   color    optional {r, g, b, a} tint
-- On a flipped chain the bones already point the mirrored way; the
-- sprite's vertical axis is mirrored too (sy = -sy), so its top side
-- stays on the same side of the body.  opts.color tints every sprite.
function ikdraw.draw_sprites(chain, sprites, opts)
  check_chain(chain, opts, "ik2d.love: draw_sprites")
  if type(sprites) ~= "table" then
    common.fail(2, "ik2d.love: draw_sprites", "sprites must be a sprite table or a list of them", sprites)
  end
  local g = love.graphics
  g.push("all")
  local single = sprites.image ~= nil
  local flip = chain:flip()
  local tint = opts and opts.color
  for i = 1, #chain do
    local sp = single and sprites or sprites[i]
    if sp then
      local w, h
      if sp.quad then
        local _, _, qw, qh = sp.quad:getViewport()
        w, h = qw, qh
      else
        w, h = sp.image:getDimensions()
      end
      -- the bones' scale on x, and on y too when the solver asked for
      -- uniform scaling
      local scale = chain:scale()
      local sx, sy = (sp.sx or 1) * scale, (sp.sy or 1) * (chain:uniform() and scale or 1)
      if sp.stretch then sx = sx * chain:length(i) / w end
      if flip then sy = -sy end
      local c = sp.color or tint
      if c then set_color(c) else g.setColor(1, 1, 1, 1) end
      local x, y = chain:joint(i)
      local r = chain:world_angle(i)
      local ox, oy = sp.ox or 0, sp.oy or h / 2
      if sp.quad then
        g.draw(sp.image, sp.quad, x, y, r, sx, sy, ox, oy)
      else
        g.draw(sp.image, x, y, r, sx, sy, ox, oy)
      end
    end
  end
  g.pop()
end

-- ------------------------------------------------------------------
-- Skeletons
-- ------------------------------------------------------------------
-- A skeleton draws through the chain functions above: a view of it
-- answers what they ask of a chain (joint i = bone i's origin, its world
-- angle, length, rest, limits, flip), so arcs and sprites are computed
-- one way for both.  A bone's parent direction, which the limit arc is
-- relative to, is world - local for every bone (the base's for a root or
-- position-only bone: its world angle is the base's plus its own).

local SKELETON = { "chain", "transforms", "solvers" }
-- (#view is its bone count: v[1..n] are set, as LuaJIT's tables have no __len)
local View = {}
View.__index = View
function View:joint(i) local t = self.t return t[5 * i - 4], t[5 * i - 3] end
function View:joints() return self.t end
function View:world_angle(i) return self.t[5 * i - 2] end
function View:angle(i) return self.sk:angle(i) end
function View:rest(i) return self.sk:rest(i) end
function View:length(i) return self.sk:length(i) end
function View:constraint(i) return self.sk:constraint(i) end
function View:flip() return self.sk:flip() end
function View:scale() return 1 end -- a skeleton's bones keep their lengths
function View:uniform() return false end

-- sprites keyed by bone name, read by bone index: view.by_index[i]
local ByIndex = { __index = function(b, i)
  local name = type(i) == "number" and b.view.names[i]
  return name and b.sprites[name] or nil
end }

-- One view per skeleton, made once; each draw refreshes its transforms.
local views = setmetatable({}, { __mode = "k" })
local function view_of(sk)
  local v = views[sk]
  if not v then
    v = setmetatable({ sk = sk, n = #sk, t = {}, names = {}, tips = {}, solvers = {} }, View)
    v.by_index = setmetatable({ view = v }, ByIndex)
    for i = 1, v.n do
      v[i] = i
      v.names[i] = sk:name(i)
      v.tips[i] = true
    end
    -- a bone whose tip another bone starts at is not a leaf
    for i = 1, v.n do
      local p = sk:parent(i)
      if p then v.tips[p] = false end
    end
    views[sk] = v
  end
  sk:transforms(v.t)
  return v
end

local function check_skeleton(sk, opts, who)
  common.object(sk, SKELETON, 3, who, "sk", "an ik2d skeleton")
  common.options(opts, KNOWN, 3, who, "opts")
end

-- ikdraw.skeleton_view(sk) --> an object with the chain methods the
-- drawing functions use (bone i as chain bone i), for ikdraw.draw_limits,
-- ikdraw.limit_arc and ikdraw.draw_sprites; refreshed by each call.
function ikdraw.skeleton_view(sk)
  common.object(sk, SKELETON, 2, "ik2d.love: skeleton_view", "sk", "an ik2d skeleton")
  return view_of(sk)
end

-- ikdraw.draw_skeleton(sk [, opts]): each bone's limit arc, each bone as a
-- line from its origin to its tip (bone_color, line_width), each origin
-- as a joint (joint_color), each leaf's tip (tip_color), and the target
-- of every solver on the skeleton's chains (as draw_solver: a weight-0
-- solver's only with opts.zero_weight_targets).
function ikdraw.draw_skeleton(sk, opts)
  check_skeleton(sk, opts, "ik2d.love: draw_skeleton")
  local v = view_of(sk)
  local g, t = love.graphics, v.t
  ikdraw.draw_limits(v, opts)
  g.push("all")
  g.setLineWidth(opt(opts, "line_width"))
  set_color(opt(opts, "bone_color"))
  for i = 1, v.n do
    local k = 5 * i
    if t[k - 4] ~= t[k - 1] or t[k - 3] ~= t[k] then g.line(t[k - 4], t[k - 3], t[k - 1], t[k]) end
  end
  set_color(opt(opts, "joint_color"))
  local jr = opt(opts, "joint_radius")
  for i = 1, v.n do g.circle("fill", t[5 * i - 4], t[5 * i - 3], jr) end
  set_color(opt(opts, "tip_color"))
  local tr = opt(opts, "tip_radius")
  for i = 1, v.n do
    if v.tips[i] then g.circle("fill", t[5 * i - 1], t[5 * i], tr) end
  end
  g.pop()
  local solvers = sk:solvers(v.solvers)
  for k = 1, #solvers do
    local s = solvers[k]
    if s:weight() > 0 or opt(opts, "zero_weight_targets") then ikdraw.draw_target(s, opts) end
  end
end

-- ikdraw.draw_sprites(chain or sk, sprites [, opts]): on a skeleton,
-- sprites is keyed by bone name (a bone without one is skipped), or a
-- single sprite for every bone; each sprite as for chains, on its bone's
-- origin along its world direction.
local draw_chain_sprites = ikdraw.draw_sprites
function ikdraw.draw_sprites(subject, sprites, opts)
  if not common.has_methods(subject, SKELETON) then return draw_chain_sprites(subject, sprites, opts) end
  check_skeleton(subject, opts, "ik2d.love: draw_sprites")
  if type(sprites) ~= "table" then
    common.fail(2, "ik2d.love: draw_sprites", "sprites must be a sprite table or a table of them by bone name",
                sprites)
  end
  local v = view_of(subject)
  if sprites.image ~= nil then return draw_chain_sprites(v, sprites, opts) end
  v.by_index.sprites = sprites
  return draw_chain_sprites(v, v.by_index, opts)
end

-- rigs from data (ik2d.rig) drawn from their atlases: see ik2d.love_rig
local love_rig = require "ik2d.love_rig"
ikdraw.draw_rig = love_rig.draw_rig
ikdraw.rig_drawer = love_rig.rig_drawer

return ikdraw
