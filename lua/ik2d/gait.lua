-- ik2d.gait: a foot planner.  Legs plant their feet on the ground and
-- step by themselves as the body moves: bipeds and creatures of 2 to 8
-- legs.
--
--   local g = ik2d.gait.new{
--     legs = { { solver = left, home = { -10, 60 } }, { solver = right, home = { 10, 60 } } },
--     ground = function(x) return height(x), slope(x) end,  -- or { {x1, y1, x2, y2}, ... }
--     pattern = "alternate",          -- "tripod", "wave" or { {1, 4}, {2, 3} }
--     step = { trigger = 20, height = 10, duration = 0.2 },
--     tip = true,                     -- feet along the ground (set_tip_angle)
--     on_step = function(i, x, y) end,
--   }
--   -- each frame: move the body, then
--   g:update(dt, body_x, body_y, body_angle, facing_left)   -- every leg's target
--   body_y = math.max(body_y, g:body_height())   -- the legs reach their feet
--   -- and solve the legs
--
-- With tip = true a leg's chain ends at the toe and its last bone is the
-- foot, laid along the ground: the ankle is the foot's length back from
-- the toe.  body_height keeps every ankle within its leg's reach of its
-- hip (a stepping foot counts at the ground under it, so the height moves
-- smoothly as feet lift and land).
--
-- Time, not frames: everything the planner decides happens at a moment
-- worked out inside the frame, the home spots moving between two updates
-- along the curve their last samples make.  A foot steps at the moment
-- its home spot passes `trigger` away from it, lands `duration` later,
-- where its home spot is at that moment plus the body's velocity times
-- `lead`, and the next group may start at that very moment.  A body
-- moving along the same path makes the same steps at 60 Hz and at 144 Hz.
--
-- A planted foot's target is the number it landed on, every frame.
-- Pure Lua over the solvers' methods (set_target and target; with tip,
-- set_tip_angle, tip_angle and clear_tip_angle), so it runs the same on
-- every backend, and any object with those methods can stand for a leg.

local common = require "ik2d.common"
local pmath = require "ik2d.pure.math"

local gait = {
  _VERSION = require("ik2d.api").version,
  _DESCRIPTION = "ik2d.gait: feet that plant and step by themselves",
}

local fail, is_finite, copy_fields = common.fail, common.is_finite, common.copy_fields
local has_methods = common.has_methods
local rot, atan2 = pmath.rot, pmath.atan2
local PI = pmath.PI
local sqrt, huge, type = math.sqrt, math.huge, type
local running, status = coroutine.running, coroutine.status

local Gait = {}
Gait.__index = Gait

-- Two starts of steps closer than this (seconds) are at the same moment:
-- the pattern's order decides, not the rounding of the sampled body.
local SAME_TIME = 1e-9
-- A landed foot's lead, at most this share of trigger: it must not land
-- where it would step again at once.
local LEAD_CAP = 0.75
-- Events (a step starting or landing) one update handles at most: a dt
-- far longer than any step cannot hold it for long.
local MAX_EVENTS = 256

local OPTIONS = { legs = true, ground = true, pattern = true, step = true, tip = true,
                  on_step = true, group = true, targets = true, tip_angles = true }
local LEG_FIELDS = { solver = true, home = true, hip = true, reach = true, foot = true }
local STEP_FIELDS = { trigger = true, height = true, duration = true, lead = true, settle = true }
local DEFAULT_STEP = { trigger = 20, height = 10, duration = 0.2 }
local TARGET_METHODS = { "set_target", "target" }
local TIP_METHODS = { "set_target", "target", "set_tip_angle", "tip_angle", "clear_tip_angle" }

local function check_self(self, who)
  common.self(self, Gait, 3, who, "a gait")
end

-- Who runs a call: its coroutine (LuaJIT's main thread has none: MAIN).
local MAIN = {}
local function caller()
  return running() or MAIN
end

-- Raised inside an update's callbacks when the gait was taken over while
-- that update waited in a yield: it stops there and changes nothing more.
local TAKEN = {}
local TAKEN_MESSAGE = "the gait was updated while this update waited in a yield inside ground or on_step: "
                      .. "this update was dropped"

-- After a callback: is the gait still this call's?  Raises TAKEN if not.
local function still_mine(self)
  if self.busy ~= caller() then error(TAKEN, 0) end
end

-- ------------------------------------------------------------------
-- Construction
-- ------------------------------------------------------------------

-- A point {x, y} or {x =, y =} of finite numbers: x, y.
local function point(v, level, who, name)
  local x, y
  if type(v) == "table" then
    x, y = v[1], v[2]
    if x == nil then x, y = v.x, v.y end
  end
  if not (is_finite(x) and is_finite(y)) then
    fail(level + 1, who, name .. " must be a point { x, y } of finite numbers", v)
  end
  return x, y
end

-- A leg's chain, for the defaults of its reach and foot: the solver's
-- (s:chain()), or an error.
local function chain_of(s, level, who, name)
  local ok, c = pcall(s.chain, s)
  if not ok or not has_methods(c, { "length" }) then
    fail(level + 1, who, name .. ".solver must have a chain (or give the leg a reach, and a foot with tip = true)", s)
  end
  return c
end

-- A length of a leg given, checked: a finite number >= least (> 0 when
-- positive).
local function length(v, positive, level, who, name)
  if not is_finite(v) or v < 0 or (positive and v == 0) then
    fail(level + 1, who, ("%s must be a finite number %s"):format(name, positive and "> 0" or ">= 0"), v)
  end
  return v
end

-- The leg list, checked, as the planner's own tables: the solver, the
-- home spot, the hip (in the body's frame, default the body's point),
-- the reach from the hip to the ankle and the foot's length (tip = true:
-- the chain's last bone, the toe the chain's tip; else 0, the tip the
-- ankle), read from the chain when not given.
local function new_legs(list, tip, level, who)
  if type(list) ~= "table" or #list < 2 or #list > 8 then
    fail(level + 1, who, "legs must be a list of 2 to 8 legs", type(list) == "table" and #list or list)
  end
  local methods = tip and TIP_METHODS or TARGET_METHODS
  local kind = "an ik2d solver (" .. table.concat(methods, ", ") .. ")"
  local legs = {}
  for i = 1, #list do
    local name = ("legs[%d]"):format(i)
    local t = list[i]
    if type(t) ~= "table" then fail(level + 1, who, name .. " must be a table", t) end
    common.options(t, LEG_FIELDS, level + 1, who, name)
    local s = t.solver
    common.object(s, methods, level + 1, who, name .. ".solver", kind)
    if tip and type(s.aim) == "function" and s:aim() ~= nil then
      fail(level + 1, who, name .. ".solver aims (set_aim): tip = true orients its last bone, clear its aim", s)
    end
    local hx, hy = point(t.home, level + 1, who, name .. ".home")
    local leg = { solver = s, hx = hx, hy = hy, px = 0, py = 0, reach = 0, foot = 0 }
    if t.hip ~= nil then leg.px, leg.py = point(t.hip, level + 1, who, name .. ".hip") end
    if t.foot ~= nil then
      if not tip then fail(level + 1, who, name .. ".foot is for tip = true (a foot along the ground)", t.foot) end
      leg.foot = length(t.foot, false, level + 1, who, name .. ".foot")
    end
    if t.reach ~= nil then leg.reach = length(t.reach, true, level + 1, who, name .. ".reach") end
    if t.reach == nil or (tip and t.foot == nil) then
      local c = chain_of(s, level + 1, who, name)
      local n, total = #c, 0
      for b = 1, n do total = total + c:length(b) end
      if tip and t.foot == nil then leg.foot = c:length(n) end
      if t.reach == nil then
        leg.reach = tip and total - c:length(n) or total
        if leg.reach <= 0 then
          fail(level + 1, who, name .. ".solver's chain must reach its ankle (tip = true: 2 bones or more, "
            .. "or give the leg a reach)", n)
        end
      end
    end
    legs[i] = leg
  end
  return legs
end

-- The ground as a function, or its segments: { x1, y1, x2, y2, angle, ... }
-- flat, each left to right.
local function new_ground(ground, level, who)
  if type(ground) == "function" then return ground, false end
  if type(ground) ~= "table" or #ground == 0 then
    fail(level + 1, who, "ground must be a function or a list of segments { x1, y1, x2, y2 }", ground)
  end
  local segs = {}
  for k = 1, #ground do
    local sg = ground[k]
    local name = ("ground[%d]"):format(k)
    if type(sg) ~= "table" then fail(level + 1, who, name .. " must be a segment { x1, y1, x2, y2 }", sg) end
    local x1, y1, x2, y2 = sg[1], sg[2], sg[3], sg[4]
    for j = 1, 4 do
      if not is_finite(sg[j]) then
        fail(level + 1, who, ("%s[%d] must be a finite number"):format(name, j), sg[j])
      end
    end
    if x1 == x2 then fail(level + 1, who, name .. " must not be vertical (x1 == x2)", x1) end
    if not (is_finite(x2 - x1) and is_finite(y2 - y1)) then
      fail(level + 1, who, name .. " must span less than the largest number", sg)
    end
    if x1 > x2 then x1, y1, x2, y2 = x2, y2, x1, y1 end
    local n = #segs
    segs[n + 1], segs[n + 2], segs[n + 3], segs[n + 4] = x1, y1, x2, y2
    segs[n + 5] = atan2(y2 - y1, x2 - x1)
  end
  return false, segs
end

-- The groups of legs that step together, each in leg order.
local function new_groups(pattern, legs, level, who)
  local n = #legs
  if pattern == nil then pattern = "alternate" end
  local groups = {}
  if pattern == "alternate" or pattern == "tripod" then
    if pattern == "tripod" and n ~= 6 then
      fail(level + 1, who, 'pattern "tripod" needs 6 legs', n)
    end
    groups[1], groups[2] = {}, {}
    for i = 1, n do
      local g = groups[2 - i % 2]
      g[#g + 1] = i
    end
  elseif pattern == "wave" then
    -- one leg at a time, back to front: by home x in the body's frame
    local order = {}
    for i = 1, n do order[i] = i end
    table.sort(order, function(a, b)
      if legs[a].hx ~= legs[b].hx then return legs[a].hx < legs[b].hx end
      return a < b
    end)
    for k = 1, n do groups[k] = { order[k] } end
  elseif type(pattern) == "table" then
    if #pattern == 0 then fail(level + 1, who, "pattern must list at least one group", pattern) end
    local seen = {}
    for k = 1, #pattern do
      local list = pattern[k]
      if type(list) ~= "table" or #list == 0 then
        fail(level + 1, who, ("pattern[%d] must be a non-empty list of leg indices"):format(k), list)
      end
      local g = {}
      for j = 1, #list do
        local i = list[j]
        common.whole(i, 1, n, level + 1, who, ("pattern[%d][%d]"):format(k, j))
        if seen[i] then fail(level + 1, who, ("pattern: leg %d is in two groups"):format(i)) end
        seen[i] = k
        g[j] = i
      end
      table.sort(g)
      groups[k] = g
    end
    for i = 1, n do
      if not seen[i] then fail(level + 1, who, ("pattern: leg %d is in no group"):format(i)) end
    end
  else
    fail(level + 1, who, 'pattern must be "alternate", "tripod", "wave" or a list of groups of leg indices',
      pattern)
  end
  return groups
end

local function new_step(t, level, who)
  t = common.options(t, STEP_FIELDS, level + 1, who, "step")
  local step = {}
  for name, default in pairs(DEFAULT_STEP) do
    local v = t[name]
    if v == nil then v = default end
    step[name] = v
  end
  local function positive(name)
    local v = step[name]
    if not is_finite(v) or v <= 0 then fail(level + 2, who, ("step.%s must be a finite number > 0"):format(name), v) end
  end
  positive("trigger")
  positive("duration")
  common.nonnegative(step.height, level + 1, who, "step.height")
  local lead = t.lead
  if lead == nil then lead = step.duration / 2 end
  step.lead = common.nonnegative(lead, level + 1, who, "step.lead")
  step.settle = common.nonnegative(t.settle or 0, level + 1, who, "step.settle")
  return step
end

-- The group's arrays the legs' targets (and tip angles) go into, when
-- the legs are members of a group fed through arrays: targets (and
-- tip_angles, with tip = true) a table given to the group every frame or
-- its FFI array; each leg gets its index there (at, tip_at).  Returns
-- the arrays, or false.
local function new_feeds(opts, legs, tip, level, who)
  local group, targets, tips = opts.group, opts.targets, opts.tip_angles
  if group == nil and targets == nil and tips == nil then return false, false end
  if targets == nil then
    fail(level + 1, who, "targets must be given with group: the table given to group:set_targets, or "
      .. "group:target_array()", targets)
  end
  if tips ~= nil and not tip then fail(level + 1, who, "tip_angles is for tip = true", tips) end
  local solvers, labels = {}, {}
  for i = 1, #legs do solvers[i], labels[i] = legs[i].solver, ("legs[%d].solver"):format(i) end
  local at = common.feed(group, targets, 2, solvers, labels, level + 1, who, "targets")
  for i = 1, #legs do legs[i].at = at[i] end
  if tips ~= nil then
    at = common.feed(group, tips, 1, solvers, labels, level + 1, who, "tip_angles")
    for i = 1, #legs do legs[i].tip_at = at[i] end
  end
  return targets, tips or false
end

-- A foot's state: everything update changes (all fields always set, so a
-- snapshot copies into the same keys and allocates nothing).
local function new_foot()
  return {
    state = "planted",
    x = 0, y = 0, a = 0,          -- where it is (planted: where it landed)
    fx = 0, fy = 0,               -- where its step left from
    home = 0,                     -- its home spot's x at the last update
    h0 = 0, hm = 0,               -- and at the two before (during an update)
    q = 0,                        -- its curve over this frame
    gx = 0, gy = 0,               -- the ground under it (planted: x, y)
    ax = 0, ay = 0,               -- and its ankle there, the foot along the ground
    u = 0,                        -- the step's progress
    landing = false,              -- landed, on_step still to come
    tx = 0, ty = 0, ta = false, tw = 0, targeted = false,   -- the solver's, before
    tv = false,                   -- its entry in the group's tip angles, before
  }
end

--- gait.new{ legs =, ground =, pattern =, step =, tip =, on_step = }
function gait.new(opts)
  local who = "ik2d.gait: new"
  if type(opts) ~= "table" then fail(2, who, "opts must be a table", opts) end
  common.options(opts, OPTIONS, 2, who, "opts")
  local tip = opts.tip
  if tip ~= nil and type(tip) ~= "boolean" then fail(2, who, "tip must be a boolean or nil", tip) end
  tip = tip == true
  local legs = new_legs(opts.legs, tip, 2, who)
  local fn, segs = new_ground(opts.ground, 2, who)
  local groups = new_groups(opts.pattern, legs, 2, who)
  local step = new_step(opts.step, 2, who)
  common.callback(opts.on_step, 2, who, "on_step")
  local targets, tips = new_feeds(opts, legs, tip, 2, who)
  local self = setmetatable({
    legs = legs, groups = groups, ground_fn = fn, segs = segs,
    trigger = step.trigger, height = step.height, duration = step.duration,
    lead = step.lead, settle = step.settle,
    set_off = step.settle < step.trigger and step.settle or step.trigger,
    lead_cap = LEAD_CAP * step.trigger,
    tip = tip, on_step = opts.on_step or false,
    targets = targets, tips = tips,   -- the group's arrays the legs are fed through, or false
    busy = false,
    feet = {}, saved_feet = {},
    -- what update changes, besides the feet
    now = {
      started = false,  -- the feet have been placed
      resume = false,   -- the next update starts from its body: no motion
      time = 0,
      group = 0,        -- the group stepping, 0 for none
      t_start = 0, t_land = 0,
      last = 0,         -- the group that stepped last
      x = 0, y = 0, angle = 0, flip = false,   -- the body at the last update
      c = 1, s = 0,     -- its angle's cosine and sine
      x0 = 0, xm = 0,   -- its x at the two updates before (during an update)
      qx = 0,           -- the curve of its x over this frame
      vx = 0,           -- its x velocity at the last update
      t0 = 0, dt = 0,   -- this frame (the last one, between updates)
      hist = 0,         -- samples in a row behind this update (0, 1, 2)
      off = false,      -- no step since the body last stood with every foot planted
    },
    saved_now = {},
  }, Gait)
  for i = 1, #legs do
    self.feet[i], self.saved_feet[i] = new_foot(), new_foot()
  end
  copy_fields(self.now, self.saved_now)
  return self
end

-- ------------------------------------------------------------------
-- The ground
-- ------------------------------------------------------------------

-- Height and direction of the segments at x: the topmost segment over x,
-- else the nearest end of one, flat.
local function segment_ground(segs, x)
  local best, angle, near, near_y = huge, 0, huge, 0
  for k = 1, #segs, 5 do
    local x1, y1, x2, y2 = segs[k], segs[k + 1], segs[k + 2], segs[k + 3]
    if x >= x1 and x <= x2 then
      local y = y1 + (y2 - y1) * (x - x1) / (x2 - x1)
      if y < best then best, angle = y, segs[k + 4] end
    else
      local d, y
      if x < x1 then d, y = x1 - x, y1 else d, y = x - x2, y2 end
      if d < near then near, near_y = d, y end
    end
  end
  if best < huge then return best, angle end
  return near_y, 0
end

-- The ground at x: height, direction; or nil, what is wrong, the value.
local function ground_at(self, x)
  if self.segs then return segment_ground(self.segs, x) end
  local y, a = self.ground_fn(x)
  still_mine(self)
  if not is_finite(y) then return nil, "ground(x) must return a finite height", y end
  if not self.tip then return y, 0 end
  if not is_finite(a) then return nil, "ground(x) must return a finite direction (angle) with tip = true", a end
  return y, a
end

-- Foot i on the ground at (x, y), the ground's direction a there: its
-- ground point, and its ankle, the foot's length back from the toe along
-- the ground (toward +x facing left).
local function on_ground(self, i, x, y, a, flip)
  local foot, long = self.feet[i], self.legs[i].foot
  foot.gx, foot.gy = x, y
  if long == 0 then
    foot.ax, foot.ay = x, y
    return
  end
  local c, s = rot(a)
  if flip then c, s = -c, -s end
  foot.ax, foot.ay = x - long * c, y - long * s
end

-- ------------------------------------------------------------------
-- Update
-- ------------------------------------------------------------------

-- Between two updates a home spot (and the body's x) is taken along the
-- parabola through its last three samples when it moves smoothly, else
-- along the straight line between the last two: a tilting body's home
-- spots curve, and a line would put a step's moment and landing off by
-- up to a dt^2 share of that curve, differently at each frame rate.  A
-- start, a stop or a turn (the motion changing more than SMOOTH of its
-- speed from one frame to the next) is straight.  Over a frame [t0, t0 +
-- dt], at fraction f:  a + (b - a) f + q f (f - 1),  with a, b the
-- samples at its ends (exact there) and q the curve (0: straight).
local SMOOTH = 0.5

-- q for samples m, a, b at frame lengths dtp (m to a) and dt (a to b).
local function curve(m, a, b, dtp, dt)
  local m0, m1 = (a - m) / dtp, (b - a) / dt
  if m0 * m1 <= 0 then return 0 end
  local d = m1 - m0
  local ad, least = d < 0 and -d or d, m0 < 0 and -m0 or m0
  if m1 < 0 then
    if -m1 < least then least = -m1 end
  elseif m1 < least then
    least = m1
  end
  if ad > SMOOTH * least then return 0 end
  return d / (dtp + dt) * dt * dt
end

local function at(a, b, q, f)
  if a == b then return a end
  return (1 - f) * a + f * b + q * f * (f - 1)
end

-- The body's x velocity at fraction f of the frame.
local function velocity(now, f)
  local dt = now.dt
  if dt <= 0 then return now.vx end
  return (now.x - now.x0) / dt + now.qx * (2 * f - 1) / dt
end

-- How far ahead of its home spot a foot lands at body velocity vx.
local function lead_of(self, vx)
  local d, cap = vx * self.lead, self.lead_cap
  if d > cap then return cap elseif d < -cap then return -cap end
  return d
end

-- The fraction of this frame at time t.
local function fraction(now, t)
  local dt = now.dt
  if dt <= 0 then return 1 end
  local f = (t - now.t0) / dt
  if f < 0 then return 0 elseif f > 1 then return 1 end
  return f
end

-- The least root in [lo, 1] of A s^2 + B s + K, or nil.
local function root(A, B, K, lo)
  local r1, r2
  if A == 0 then
    if B == 0 then return nil end
    r1 = -K / B
  else
    local disc = B * B - 4 * A * K
    if disc < 0 then return nil end
    local sq = sqrt(disc)
    local t = B >= 0 and -(B + sq) / 2 or (sq - B) / 2
    if t == 0 then return lo <= 0 and 0 or nil end
    r1, r2 = t / A, K / t
    if r2 < r1 then r1, r2 = r2, r1 end
    if r1 < lo then r1 = r2 end
  end
  if r1 >= lo and r1 <= 1 then return r1 end
  return nil
end

-- The first fraction at or after f0 at which a foot planted at px is
-- trigger from its home spot (a, b, q over the frame), or nil.
local function crossing(a, b, q, px, trigger, f0)
  -- home - px = q s^2 + (b - a - q) s + (a - px)
  local A, B, C = q, b - a - q, a - px
  local s1 = root(A, B, C - trigger, f0)
  local s2 = root(A, B, C + trigger, f0)
  if s1 and (not s2 or s1 <= s2) then return s1 end
  return s2
end

-- The first moment at or after tau in this frame at which a foot of
-- group g must step, or nil: one of its feet `trigger` from its home spot
-- (or, the body at rest, farther than `settle`).
local function group_time(self, g, tau, rest, trigger)
  local now, feet, settle = self.now, self.feet, self.settle
  local f0 = fraction(now, tau)
  local first
  local group = self.groups[g]
  for j = 1, #group do
    local foot = feet[group[j]]
    local a, b, q, px = foot.h0, foot.home, foot.q, foot.x
    local d = at(a, b, q, f0) - px
    if d >= trigger or d <= -trigger or (rest and (d > settle or d < -settle)) then
      return tau
    end
    if a ~= b then
      local s = crossing(a, b, q, px, trigger, f0)
      if s then
        local t = now.t0 + s * now.dt
        if t < tau then t = tau end
        if not first or t < first then first = t end
      end
    end
  end
  return first
end

local function start(self, g, t)
  local now, feet, group = self.now, self.feet, self.groups[g]
  now.group, now.t_start, now.t_land = g, t, t + self.duration
  now.off = false
  for j = 1, #group do
    local foot = feet[group[j]]
    foot.state, foot.fx, foot.fy, foot.u = "stepping", foot.x, foot.y, 0
  end
end

-- The stepping group lands at fraction f of the frame; then on_step.
local function land(self, f)
  local now, feet = self.now, self.feet
  local group = self.groups[now.group]
  local lead = lead_of(self, velocity(now, f))
  for j = 1, #group do
    local i = group[j]
    local foot = feet[i]
    if foot.state == "stepping" then
      local x = at(foot.h0, foot.home, foot.q, f) + lead
      local y, a, v = ground_at(self, x)
      if not y then return a, v end
      foot.x, foot.y, foot.a, foot.u = x, y, a, 0
      on_ground(self, i, x, y, a, now.flip)
      foot.landing = true
    end
  end
  -- the whole group planted before the first callback sees it
  for j = 1, #group do
    local foot = feet[group[j]]
    if foot.landing then foot.state = "planted" end
  end
  now.last, now.group = now.group, 0
  local on_step = self.on_step
  for j = 1, #group do
    local i = group[j]
    local foot = feet[i]
    if foot.landing then
      foot.landing = false
      if on_step then
        on_step(i, foot.x, foot.y)
        still_mine(self)
      end
    end
  end
end

-- Every event of this frame, in time order: a landing, then the group
-- that must step first (on a tie, the next in the pattern's order).
-- Setting off (no step since the body stood), the pattern's next group
-- steps as soon as one of its feet is farther than `settle` from home:
-- every foot is then about as far from home, and the groups that wait
-- for it to land would fall a step's worth behind if it waited for
-- `trigger`.
local function events(self, rest)
  local now, groups = self.now, self.groups
  local tau = now.t0
  local t1 = tau + now.dt
  for _ = 1, MAX_EVENTS do
    if now.group ~= 0 then
      local t = now.t_land
      if t > t1 then return end
      local bad, v = land(self, fraction(now, t))
      if bad then return bad, v end
      tau = t
    else
      local best, best_t, count = 0, huge, #groups
      for k = 1, count do
        local g = (now.last + k - 1) % count + 1
        local setting_off = k == 1 and now.off and not rest
        local t = group_time(self, g, tau, rest, setting_off and self.set_off or self.trigger)
        if t and t < best_t - SAME_TIME then best, best_t = g, t end
      end
      if best == 0 then return end
      start(self, best, best_t)
      tau = best_t
    end
  end
end

-- Where each foot is at the end of the frame (t1): a stepping foot on its
-- arc toward where it will land, over the ground.
local function place(self, t1, vx)
  local now, feet = self.now, self.feet
  local g = now.group
  if g == 0 then return end
  local group, d = self.groups[g], self.duration
  local u = (t1 - now.t_start) / d
  if u < 0 then u = 0 elseif u > 1 then u = 1 end
  local ahead = lead_of(self, vx) + vx * (now.t_land - t1)
  local ease = u * u * (3 - 2 * u)
  local _, lift = rot(PI * u)
  lift = self.height * lift
  for j = 1, #group do
    local i = group[j]
    local foot = feet[i]
    if foot.state == "stepping" then
      local x = foot.fx + (foot.home + ahead - foot.fx) * ease
      local y, a, v = ground_at(self, x)
      if not y then return a, v end
      foot.x, foot.y, foot.a, foot.u = x, y - lift, a, u
      on_ground(self, i, x, y, a, now.flip)
    end
  end
end

-- A leg's target (and tip angle) given: to its solver, or into the
-- group's arrays, where a table's entries may be missing (false here,
-- nil there).
local function put_target(self, leg, x, y)
  local targets = self.targets
  if not targets then return leg.solver:set_target(x, y) end
  local k = leg.at
  targets[k], targets[k + 1] = x or nil, y or nil
end

local function put_tip(self, leg, a, w, first)
  local tips = self.tips
  if tips then
    tips[leg.tip_at] = a or nil
    -- the member's own tip angle, on and at weight 1 from the first
    -- update: the group reads the array's entries of those that have one
    if not first then return end
  end
  if a then leg.solver:set_tip_angle(a, w) else leg.solver:clear_tip_angle() end
end

-- Each solver's target (and tip angle), what it had kept to put back:
-- read from the solver (or the group's arrays) at the first update, else
-- what the last update gave it (it holds nothing newer: the gait sets
-- them).
local function put_targets(self, flip)
  local legs, feet, tip, targets, tips = self.legs, self.feet, self.tip, self.targets, self.tips
  local before, first = self.saved_feet, not self.saved_now.started
  local flipped = self.saved_now.flip
  for i = 1, #legs do
    local leg, foot = legs[i], feet[i]
    local s = leg.solver
    if first then
      if targets then
        foot.tx, foot.ty = targets[leg.at] or false, targets[leg.at + 1] or false
      else
        foot.tx, foot.ty = s:target()
      end
      if tip then
        local a, w = s:tip_angle()
        foot.ta, foot.tw = a or false, w or 0
        if tips then foot.tv = tips[leg.tip_at] or false end
      end
    else
      local last = before[i]
      foot.tx, foot.ty = last.x, last.y
      foot.ta, foot.tw = flipped and last.a + PI or last.a, 1
      foot.tv = foot.ta
    end
    foot.targeted = true
    put_target(self, leg, foot.x, foot.y)
    if tip then put_tip(self, leg, flip and foot.a + PI or foot.a, 1, first) end
    still_mine(self)
  end
end

local function put_back(self, i, first)
  local leg, foot = self.legs[i], self.feet[i]
  put_target(self, leg, foot.tx, foot.ty)
  if self.tip then
    if self.tips then self.tips[leg.tip_at] = foot.tv or nil end
    if first or not self.tips then
      if foot.ta then leg.solver:set_tip_angle(foot.ta, foot.tw) else leg.solver:clear_tip_angle() end
    end
  end
end

-- Turning round (flip changed since the last update), the feet turn with
-- their hips: a hip on the body's axis (x 0 in its frame, a biped's)
-- stays, and so does its foot, a foot along the ground turning on its
-- ankle to point the other way; a hip along the body goes to its mirror
-- image about the body, and its foot with it, where the mirrored leg has
-- it.  Either way every leg reaches its foot as it did.  The home spots'
-- last two samples are mirrored about the body as it was then, as if it
-- had always faced this way.  Returns nothing, or what is wrong and the
-- value.
local function turn(self, flip)
  local now, legs, feet = self.now, self.legs, self.feet
  local s, side = now.s, flip and -1 or 1
  for i = 1, #feet do
    local leg, foot = legs[i], feet[i]
    foot.home, foot.h0 = 2 * now.x - foot.home, 2 * now.x0 - foot.h0
    -- where the foot goes: with its hip's small move (a hip below the
    -- body's point, tilted) and the toe's about the ankle, or mirrored
    local mirrored, shift, long = leg.px ~= 0, 0, leg.foot
    if not mirrored then
      local hx = -leg.py * s
      shift = now.flip and 2 * hx or -2 * hx
    end
    if foot.state == "planted" then
      local x, y, a, v
      if mirrored then
        x = 2 * now.x - foot.x
      else
        x = foot.ax + shift
        if long > 0 then
          -- the toe the foot's length from the ankle along the ground,
          -- the ground's direction there found again once
          local ax = x
          x = ax + side * long * rot(foot.a)
          y, a, v = ground_at(self, x)
          if not y then return a, v end
          x = ax + side * long * rot(a)
        end
      end
      y, a, v = ground_at(self, x)
      if not y then return a, v end
      foot.x, foot.y, foot.a = x, y, a
      on_ground(self, i, x, y, a, flip)
    elseif mirrored then
      foot.fx = 2 * now.x - foot.fx
    else
      foot.fx = foot.fx + shift + 2 * side * long * rot(foot.a)
    end
  end
end

-- update's work, inside the snapshot.  Returns nothing, or what is wrong
-- and the value (a ground that gave no number).
local function step(self, dt, x, y, angle, flip)
  local now, legs, feet = self.now, self.legs, self.feet
  if now.started and flip ~= now.flip then
    local bad, v = turn(self, flip)
    if bad then return bad, v end
  end
  now.flip = flip
  local c, s = rot(angle)
  for i = 1, #legs do
    local leg, foot = legs[i], feet[i]
    local ox = leg.hx * c - leg.hy * s
    foot.hm, foot.h0, foot.home = foot.h0, foot.home, flip and x - ox or x + ox
  end
  local fresh = now.resume or not now.started
  if not now.started then
    for i = 1, #legs do
      local foot = feet[i]
      local gy, a, v = ground_at(self, foot.home)
      if not gy then return a, v end
      foot.state, foot.x, foot.y, foot.a, foot.u = "planted", foot.home, gy, a, 0
      on_ground(self, i, foot.home, gy, a, flip)
    end
    now.started, now.group = true, 0
  end
  now.xm, now.x0, now.x = now.x0, now.x, x
  local hist, dtp = now.hist, now.dt
  if fresh then
    -- placed, planted or reset since the last update: no motion to this body
    for i = 1, #legs do feet[i].h0 = feet[i].home end
    now.x0, now.vx, now.resume, hist = x, 0, false, 0
  end
  local curved = hist >= 2 and dt > 0
  for i = 1, #legs do
    local foot = feet[i]
    foot.q = curved and curve(foot.hm, foot.h0, foot.home, dtp, dt) or 0
  end
  now.qx = curved and curve(now.xm, now.x0, x, dtp, dt) or 0
  now.t0, now.dt = now.time, dt
  local rest = true
  for i = 1, #legs do
    if feet[i].h0 ~= feet[i].home then rest = false end
  end
  local bad, v = events(self, rest)
  if bad then return bad, v end
  if rest and now.group == 0 then now.off = true end
  now.time = now.t0 + dt
  local vx = velocity(now, 1)
  bad, v = place(self, now.time, vx)
  if bad then return bad, v end
  now.y, now.angle, now.c, now.s, now.vx = y, angle, c, s, vx
  -- samples in a row behind the next update (a dt of 0 starts again)
  now.hist = dt > 0 and (hist < 2 and hist + 1 or 2) or 1
  put_targets(self, flip)
end

local function take(self)
  copy_fields(self.now, self.saved_now)
  local feet, saved = self.feet, self.saved_feet
  for i = 1, #feet do
    feet[i].targeted = false
    copy_fields(feet[i], saved[i])
  end
end

local function restore(self)
  local feet, saved = self.feet, self.saved_feet
  for i = #feet, 1, -1 do
    -- a solver that raises again: nothing more can be done for it
    if feet[i].targeted then pcall(put_back, self, i, not self.saved_now.started) end
    copy_fields(saved[i], feet[i])
  end
  copy_fields(self.saved_now, self.now)
end

-- An update that yielded inside a callback (ground, on_step, a leg's
-- solver) waits in a suspended coroutine, which may never be resumed:
-- any call from elsewhere drops it, as if it had not been made (if it is
-- resumed later, it raises at once).  A call from inside the update (the
-- coroutine running it, or one it resumed) finds it running: busy.
local function recover(self)
  local owner = self.busy
  if owner and owner ~= MAIN and status(owner) == "suspended" then
    restore(self)
    self.busy = false
  end
end

local BUSY = "cannot run inside on_step or ground (the gait is updating)"

-- Runs f(self, ...) as the gait's owner (every callback inside it then
-- checks it still is), returning pcall's answers; raises at level 3 when
-- the gait was taken over while f waited in a yield.
local function own(self, who, f, ...)
  local me = caller()
  self.busy = me
  local ok, bad, v, w = pcall(f, self, ...)
  if self.busy ~= me then fail(3, who, TAKEN_MESSAGE) end
  self.busy = false
  return ok, bad, v, w
end

--- g:update(dt, x, y [, angle [, flip]]) -> g: the body (its position,
-- its angle, default 0, and flip: mirrored, facing -x) this frame; moves
-- the feet and sets each leg solver's target (and tip angle).  Solve after.
function Gait:update(dt, x, y, angle, flip)
  local who = "ik2d.gait: update"
  check_self(self, who)
  recover(self)
  if self.busy then fail(2, who, BUSY) end
  common.nonnegative(dt, 2, who, "dt")
  common.finite(x, 2, who, "x")
  common.finite(y, 2, who, "y")
  if angle == nil then angle = 0 end
  common.finite(angle, 2, who, "angle")
  if flip == nil then
    flip = false
  elseif type(flip) ~= "boolean" then
    fail(2, who, "flip must be a boolean or nil", flip)
  end
  take(self)
  local ok, bad, v = own(self, who, step, dt, x, y, angle, flip)
  if ok and not bad then return self end
  restore(self)
  if not ok then error(bad, 0) end
  fail(2, who, bad, v)
end

-- ------------------------------------------------------------------
-- Queries and placing
-- ------------------------------------------------------------------

local function check_started(self, who)
  if not self.now.started then fail(3, who, "the feet have no place before the first update") end
end

--- g:foot(i) -> x, y, state, progress: foot i where the last update put
-- it; state "planted" or "stepping"; progress 0..1 through its step (0
-- when planted).
function Gait:foot(i)
  local who = "ik2d.gait: foot"
  check_self(self, who)
  recover(self)
  common.whole(i, 1, #self.legs, 2, who, "i")
  check_started(self, who)
  local foot = self.feet[i]
  return foot.x, foot.y, foot.state, foot.u
end

--- g:body_height() -> y: the least y (y grows downward: the highest
-- place) the body may take, at the x, angle and flip of the last update,
-- with every foot's ankle within its leg's reach of its hip: a planted
-- foot where it stands, a stepping one on the ground under it, so that
-- the height moves on smoothly as a foot lifts, swings and lands.
function Gait:body_height()
  local who = "ik2d.gait: body_height"
  check_self(self, who)
  recover(self)
  check_started(self, who)
  local now, legs, feet = self.now, self.legs, self.feet
  local c, s, x = now.c, now.s, now.x
  local best = -huge
  for i = 1, #legs do
    local leg, foot = legs[i], feet[i]
    local hx, hy = leg.px * c - leg.py * s, leg.px * s + leg.py * c
    if now.flip then hx = -hx end
    local r, dx = leg.reach, foot.ax - x - hx
    local h = r * r - dx * dx
    if h < 0 then h = 0 end
    local y = foot.ay - sqrt(h) - hy
    if y > best then best = y end
  end
  return best
end

--- g:reset() -> g: the next update plants every foot at its home spot,
-- as the first one does (after a jump, a fall, a teleport), and the
-- pattern starts again from its first group.
function Gait:reset()
  local who = "ik2d.gait: reset"
  check_self(self, who)
  recover(self)
  if self.busy then fail(2, who, BUSY) end
  local now = self.now
  now.started, now.group, now.last, now.vx = false, 0, 0, 0
  return self
end

--- g:plant(i, x) -> g: foot i planted on the ground at x now (a step it
-- was in ends there, without on_step); the next update takes its body as
-- the start of the motion.
function Gait:plant(i, x)
  local who = "ik2d.gait: plant"
  check_self(self, who)
  recover(self)
  if self.busy then fail(2, who, BUSY) end
  common.whole(i, 1, #self.legs, 2, who, "i")
  common.finite(x, 2, who, "x")
  check_started(self, who)
  local ok, y, a, v = own(self, who, ground_at, x)
  if not ok then error(y, 0) end
  if not y then fail(2, who, a, v) end
  local now, foot = self.now, self.feet[i]
  foot.state, foot.x, foot.y, foot.a, foot.u = "planted", x, y, a, 0
  on_ground(self, i, x, y, a, now.flip)
  -- the group it stepped with ends when none of its feet is in the air
  local g = now.group
  if g ~= 0 then
    local group, any = self.groups[g], false
    for j = 1, #group do
      if self.feet[group[j]].state == "stepping" then any = true end
    end
    if not any then now.last, now.group = g, 0 end
  end
  now.resume = true
  return self
end

-- the lead's cap, a share of trigger
gait.LEAD_CAP = LEAD_CAP

return setmetatable(gait, {
  __call = function(_, ...) return gait.new(...) end,
})
