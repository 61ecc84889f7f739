-- ik2d.behaviour: a small state-driven controller for one solver, or for
-- a set of named solvers switched together.
--
--   local behaviour = require "ik2d.behaviour"
--   local hand = behaviour.new(solver, {
--     idle   = { weight = 0,   blend = 0.4 },
--     pickup = { weight = 1,   blend = 0.3, target = item,                -- {x, y} or {x =, y =}
--                on_reached = function(h) item.held = true end },
--     aim    = { weight = 0.7, blend = 0.2, target = love.mouse.getPosition },
--     climb  = { weight = 1,   blend = 0.3, target = { chain = ledge, joint = 2 } },
--   }, { initial = "idle", rate = 12 })
--   hand:set_state("pickup")
--   function love.update(dt) hand:update(dt); solver:solve() end
--
--   -- two hands picking up a box: one behaviour, a solver set
--   local hands = behaviour.new({ left = left_solver, right = right_solver }, {
--     idle = { weight = 0 },
--     lift = { blend = 0.3, left = { target = box.left_handle },
--              right = { target = box.right_handle },
--              on_reached = function(h) box.held = true end },   -- both hands there
--   })
--
-- Each state has a weight (0..1, default 1), a blend time in seconds
-- (default 0.25), optionally its own smoothing rate (per second) and
-- optionally a target source:
--   * a point table {x, y} or {x = , y = }, read on every update (move it
--     and the target follows);
--   * a function returning x, y (called with the behaviour);
--   * { chain = c, joint = i, dx = , dy = }: joint i of chain c as it
--     stands when :update runs (default joint: the tip), plus an optional
--     offset.  chain:set_pose shows the bare pose until the next solve,
--     so update the behaviour before setting that chain's poses for the
--     frame (or after solving it), not in between;
--   * { skeleton = sk, bone = b, x = , y = }: the point (x, y) of bone b's
--     space (a target on the bone: solver:set_target_bone), read where
--     the bone is at each solve.  The smoothed target moves in the bone's
--     space, so it rides the bone on its way there.
-- A state without a target holds the solver's chain tip as it was when
-- the state began (h:set_target moves that point), or, when the solver
-- targeted a bone at new (set_target_bone), keeps that bone's point.
--
-- A solver set: a table of named solvers, new({ left = s1, right = s2 },
-- ...).  A state's weight, blend, rate and target are then the defaults
-- of every solver in it, and a field named after a solver (left = {
-- weight =, blend =, rate =, target = }) gives that solver its own.  One
-- set_state switches every solver; the queries take the solver's name
-- (h:target("left")).  The solvers are driven in the order of their names.
--
-- Callbacks (state fields): on_enter(h, previous), on_exit(h, next),
-- on_reached(h); see :set_state and :update for when they run.
--
-- Switching state blends each solver weight (ik2d.blend, from the weight
-- the solver has then) and retargets without a jump: the solver target
-- moves from where it is toward the new source with exponential smoothing
-- (ik2d.smooth).  Every call is all or nothing: when a source, a solver
-- or a callback raises, the behaviour and the solvers' targets and
-- weights are as they were before the call, and the error goes on to the
-- caller (with solve = true, a solve that ran stays in the chain's
-- result: a solve cannot be undone).  Pure Lua, no LOVE.

local blend = require "ik2d.blend"
local smooth = require "ik2d.smooth"
local common = require "ik2d.common"
local rot = require("ik2d.pure.math").rot

local behaviour = {
  _VERSION = require("ik2d.api").version,
  _DESCRIPTION = "ik2d.behaviour: state-driven weight and target control",
}

local fail, is_finite, copy_fields = common.fail, common.is_finite, common.copy_fields
local has_methods = common.has_methods
local cos, sin = math.cos, math.sin
local PI, TAU = math.pi, 2 * math.pi
local MAX = 1.7976931348623157e308

local Behaviour = {}
Behaviour.__index = Behaviour

local DEFAULT_BLEND = 0.25
local DEFAULT_RATE = 12

local STATE_FIELDS = { weight = true, blend = true, rate = true, target = true,
                       on_enter = true, on_exit = true, on_reached = true }
local SOLVER_FIELDS = { weight = true, blend = true, rate = true, target = true }
local OPTIONS = { initial = true, rate = true, solve = true, group = true, targets = true }
local SOLVER_METHODS = { "target", "set_target", "weight", "set_weight", "result",
                         "tolerance", "chain" }
local SOLVING_METHODS = { "solve" }           -- with opts.solve
for i, m in ipairs(SOLVER_METHODS) do SOLVING_METHODS[i + 1] = m end
local SOLVER_KIND = "an ik2d solver (" .. table.concat(SOLVER_METHODS, ", ") .. ")"
local SOLVING_KIND = "an ik2d solver (" .. table.concat(SOLVER_METHODS, ", ") .. ", solve)"
local CHAIN_METHODS = { "joint" }
local SKELETON_METHODS = { "world", "flip", "bone" }
local BONE_SOURCE_FIELDS = { skeleton = true, bone = true, x = true, y = true }
-- what a solver needs for targets on bones
local BONE_TARGET_METHODS = { "set_target_bone", "target_bone" }
-- what working out an IK solution from a chain's result reads (on_reached
-- below weight 1); a chain without them is judged by solver:result()
local SOLUTION_METHODS = { "base", "flip", "scale", "pose", "angle", "length", "rest",
                           "constraint" }

local function check_self(self, who)
  common.self(self, Behaviour, 3, who, "a behaviour")
end

local sorted_keys = common.sorted_keys

local function sorted_names(t)
  return table.concat(sorted_keys(t), ", ")
end

-- a wrapped into [-pi, pi), as the cores wrap
local function wrap(a)
  return (a + PI) % TAU - PI
end

-- ------------------------------------------------------------------
-- Target sources
-- ------------------------------------------------------------------

-- `level` in these functions counts from the function itself: 1 is the
-- function, 2 its caller...  They never tail-call a raiser.  `label`
-- names the state (and, in a set, the solver): "state 'aim'",
-- "state 'lift': left".

-- Checks a chain source (joint in 1..#chain + 1, whole; finite offsets).
local function check_chain_source(label, src, level, who)
  local c = src.chain
  if not has_methods(c, CHAIN_METHODS) then
    fail(level, who, label .. ": target chain must be an ik2d chain", c)
  end
  local n = #c + 1
  local j = src.joint
  if j ~= nil and (type(j) ~= "number" or j % 1 ~= 0 or j < 1 or j > n) then
    fail(level, who, ("%s: target joint must be a whole number in 1..%d"):format(label, n), j)
  end
  local dx, dy = src.dx, src.dy    -- no loop over a table: update runs this
  if dx ~= nil and not is_finite(dx) then
    fail(level, who, label .. ": target dx must be a finite number", dx)
  elseif dy ~= nil and not is_finite(dy) then
    fail(level, who, label .. ": target dy must be a finite number", dy)
  end
end

-- Checks a bone source (a skeleton, one of its bones, finite offsets).
local function check_bone_source(label, src, level, who)
  local sk = src.skeleton
  if not has_methods(sk, SKELETON_METHODS) then
    fail(level, who, label .. ": target skeleton must be an ik2d skeleton", sk)
  end
  local b = src.bone
  local known
  if type(b) == "string" then
    known = sk:bone(b) ~= nil
  else
    known = type(b) == "number" and b % 1 == 0 and b >= 1 and b <= #sk
  end
  if not known then
    fail(level, who, ("%s: target bone must be a bone of the skeleton (a name or an index in 1..%d)")
      :format(label, #sk), b)
  end
  local x, y = src.x, src.y
  if x ~= nil and not is_finite(x) then
    fail(level, who, label .. ": target x must be a finite number", x)
  elseif y ~= nil and not is_finite(y) then
    fail(level, who, label .. ": target y must be a finite number", y)
  end
end

-- A source on a bone: its skeleton and bone, else nil.
local function bone_of(src)
  if type(src) == "table" and src.skeleton ~= nil then return src.skeleton, src.bone end
end

-- A point of the space a smoothed target moves in: the world (sk false),
-- or bone b's space of skeleton sk (x along the bone from its origin, y
-- across, mirrored with a flipped skeleton as the bone is drawn).
local function to_world(sk, b, x, y)
  if not sk then return x, y end
  local ox, oy, a = sk:world(b)
  local c, s = rot(a)
  if sk:flip() then return ox + c * x + s * y, oy + s * x - c * y end
  return ox + c * x - s * y, oy + s * x + c * y
end

local function from_world(sk, b, x, y)
  if not sk then return x, y end
  local ox, oy, a = sk:world(b)
  local c, s = rot(a)
  local dx, dy = x - ox, y - oy
  if sk:flip() then return c * dx + s * dy, s * dx - c * dy end
  return c * dx + s * dy, c * dy - s * dx
end

-- Where source `src` points now, in its space (a bone's for a bone
-- source, else the world): finite x, y, or an error naming the behaviour
-- and the state.  A function source may raise: its error goes on
-- unchanged.
local function resolve(self, label, src, level, who)
  local x, y
  if type(src) == "function" then
    x, y = src(self)
  elseif src.chain ~= nil then
    check_chain_source(label, src, level + 1, who)
    local c = src.chain
    x, y = c:joint(src.joint or #c + 1)
    if is_finite(x) and is_finite(y) then x, y = x + (src.dx or 0), y + (src.dy or 0) end
  elseif src.skeleton ~= nil then
    check_bone_source(label, src, level + 1, who)
    x, y = src.x or 0, src.y or 0
  else
    x, y = src[1], src[2]
    if x == nil then x, y = src.x, src.y end
  end
  if not is_finite(x) then
    fail(level, who, label .. ": target must give finite numbers x, y", x)
  elseif not is_finite(y) then
    fail(level, who, label .. ": target must give finite numbers x, y", y)
  end
  return x, y
end

-- The track's chain tip now (where a state without a target holds).
local function tip(track, level, who)
  local x, y = track.solver:chain():tip()
  if not (is_finite(x) and is_finite(y)) then
    fail(level, who, track.prefix .. "the solver's chain tip must be finite", is_finite(x) and y or x)
  end
  return x, y
end

-- ------------------------------------------------------------------
-- Construction
-- ------------------------------------------------------------------

-- The fields one solver takes in a state (weight, blend, rate, target),
-- checked; nil fields take the defaults given.  Returns the part.
local function check_part(label, t, weight, secs, rate, src, track, level, who)
  if t.weight ~= nil then weight = t.weight end
  if not is_finite(weight) or weight < 0 or weight > 1 then
    fail(level, who, label .. ": weight must be a number in [0, 1]", weight)
  end
  if t.blend ~= nil then secs = t.blend end
  common.nonnegative(secs, level, who, label .. ": blend")
  if t.rate ~= nil then rate = common.rate(t.rate, level, who, label .. ": rate") end
  if t.target ~= nil then
    src = t.target
    if type(src) ~= "function" then
      if type(src) ~= "table" then
        fail(level, who, label .. ": target must be a point table, a function, { chain = c } or "
          .. "{ skeleton = sk, bone = b }", src)
      end
      if src.skeleton ~= nil then
        common.options(src, BONE_SOURCE_FIELDS, level, who, label .. ": target")
      end
      -- point tables, chain and bone sources are read here once to check them
      resolve(nil, label, src, level + 1, who)
    end
  end
  -- no target: the bone the solver targeted at new, if any
  if src == nil and track then src = track.kept or nil end
  if bone_of(src) and track and not has_methods(track.solver, BONE_TARGET_METHODS) then
    fail(level, who, label .. ": a target on a bone needs a solver with set_target_bone and target_bone",
      track.solver)
  end
  return { weight = weight, blend = secs, rate = rate or false, target = src or false,
           label = label }
end

-- A state's checked copy: its callbacks and one part per track, every
-- field filled in.
local function check_state(name, st, tracks, level, who)
  if type(name) ~= "string" or type(st) ~= "table" then
    fail(level, who, "states must map names to tables", type(name) ~= "string" and name or st)
  end
  local label = ("state '%s'"):format(name)
  local parts = {}
  if tracks.single then
    common.options(st, STATE_FIELDS, level, who, label)
    parts[1] = check_part(label, st, 1, DEFAULT_BLEND, nil, nil, tracks[1], level + 1, who)
  else
    local known = {}
    for k in pairs(STATE_FIELDS) do known[k] = true end
    for k = 1, #tracks do known[tracks[k].name] = true end
    common.options(st, known, level, who, label)
    -- the state's own fields: every solver's defaults
    local defaults = check_part(label, st, 1, DEFAULT_BLEND, nil, nil, nil, level + 1, who)
    for k = 1, #tracks do
      local part_label = label .. ": " .. tracks[k].name
      local t = common.options(st[tracks[k].name], SOLVER_FIELDS, level, who, part_label)
      parts[k] = check_part(part_label, t, defaults.weight, defaults.blend, defaults.rate or nil,
        defaults.target or nil, tracks[k], level + 1, who)
    end
  end
  for _, cb in ipairs{ "on_enter", "on_exit", "on_reached" } do
    common.callback(st[cb], level, who, ("%s: %s"):format(label, cb))
  end
  return { parts = parts, on_enter = st.on_enter or false, on_exit = st.on_exit or false,
           on_reached = st.on_reached or false }
end

-- Does table t look like one solver rather than a set: has it one of a
-- solver's methods?  (A set's values are solvers, never functions.)
local function looks_like_solver(t)
  for i = 1, #SOLVER_METHODS do
    local m = t[SOLVER_METHODS[i]]
    if type(m) == "function" then return true end
  end
  return false
end

-- The solvers: one (a single track, no name) or a set of named ones (a
-- track each, in the order of their names).
local function check_solvers(solvers, solving, level, who)
  local methods, kind = SOLVER_METHODS, SOLVER_KIND
  if solving then methods, kind = SOLVING_METHODS, SOLVING_KIND end
  if type(solvers) ~= "table" or looks_like_solver(solvers) then
    common.object(solvers, methods, level, who, "solver", kind)
    return { single = true, { name = false, solver = solvers, prefix = "" } }
  end
  local tracks = { single = false }
  for name in pairs(solvers) do
    if type(name) ~= "string" then
      fail(level, who, "a solver set must map names (strings) to solvers", name)
    elseif STATE_FIELDS[name] then
      fail(level, who, "a solver cannot be named as a state field (" .. sorted_names(STATE_FIELDS) .. ")",
        name)
    end
  end
  for _, name in ipairs(sorted_keys(solvers)) do
    local s = solvers[name]
    common.object(s, methods, level, who, ("solver '%s'"):format(name), kind)
    for k = 1, #tracks do
      if tracks[k].solver == s then
        fail(level, who, ("solvers '%s' and '%s' are the same solver"):format(tracks[k].name, name))
      end
    end
    tracks[#tracks + 1] = { name = name, solver = s, prefix = ("solver '%s': "):format(name) }
  end
  if #tracks == 0 then
    fail(level, who, "solver must be " .. kind .. " or a table of named solvers, got an empty table")
  end
  return tracks
end

-- The target the solver will solve for: in the group's array when it is
-- fed through one (once the behaviour has written it there), else its own.
local function target_now(track)
  local array = track.array
  if array then
    local x, y = array[track.at], array[track.at + 1]
    if type(x) == "number" and type(y) == "number" then return x, y end
  end
  return track.solver:target()
end

-- ------------------------------------------------------------------
-- All or nothing
-- ------------------------------------------------------------------

-- A snapshot of everything a call may change: the behaviour's fields,
-- each track's blend's and follower's and the space its target moves in,
-- and each solver's target (a point, or on a bone) and weight.  One is
-- kept for reuse, so a steady update allocates nothing; a call nested in
-- a callback takes a fresh one.
local function take(self)
  local snap = self.spare
  local tracks = self.tracks
  if snap then
    self.spare = false
  else
    snap = { own = {}, parts = {} }
    for k = 1, #tracks do
      snap.parts[k] = { weights = {}, tracker = {}, tx = 0, ty = 0, w = 0,
                        sk = false, bone = false, bx = 0, by = 0, space = false, space_bone = false }
    end
  end
  copy_fields(self, snap.own)
  local parts = snap.parts
  for k = 1, #tracks do
    local track, part = tracks[k], parts[k]
    copy_fields(track.weights, part.weights)
    copy_fields(track.tracker, part.tracker)
    part.space, part.space_bone = track.space, track.space_bone
    local s, array = track.solver, track.array
    if array then
      part.tx, part.ty = array[track.at] or false, array[track.at + 1] or false
    else
      part.tx, part.ty = s:target()
    end
    part.w = s:weight()
    if track.bones then
      local sk, bone, bx, by = s:target_bone()
      part.sk, part.bone, part.bx, part.by = sk or false, bone or false, bx or 0, by or 0
    end
  end
  return snap
end

local function put_back_solver(track, part)
  local s, bones, array = track.solver, track.bones, track.array
  if array then
    array[track.at], array[track.at + 1] = part.tx or nil, part.ty or nil
  elseif bones then
    local sk, bone, bx, by = s:target_bone()
    if part.sk then
      if sk ~= part.sk or bone ~= part.bone or bx ~= part.bx or by ~= part.by then
        s:set_target_bone(part.sk, part.bone, part.bx, part.by)
      end
    elseif sk then
      s:set_target(part.tx, part.ty)
    end
  end
  if not (array or bones and part.sk) then
    local tx, ty = s:target()
    if tx ~= part.tx or ty ~= part.ty then s:set_target(part.tx, part.ty) end
  end
  if s:weight() ~= part.w then s:set_weight(part.w) end
end

-- Ends a call run as pcall(f, ...) -> ok, err: keeps its changes, or
-- puts the snapshot back and raises the error again, unchanged.
local function finish(self, snap, ok, err)
  if not ok then
    copy_fields(snap.own, self)
    local tracks, parts = self.tracks, snap.parts
    for k = 1, #tracks do
      copy_fields(parts[k].weights, tracks[k].weights)
      copy_fields(parts[k].tracker, tracks[k].tracker)
      tracks[k].space, tracks[k].space_bone = parts[k].space, parts[k].space_bone
    end
    -- put the solvers' targets and weights back where they changed (if
    -- a solver raises again, nothing more can be done for it)
    for k = #tracks, 1, -1 do pcall(put_back_solver, tracks[k], parts[k]) end
  end
  self.spare = snap
  if not ok then error(err, 0) end
end

-- Gives the solver its target (x, y) in the track's space: a point, or
-- a point on the bone (set again only when it changed: the core checks a
-- skeleton's plan for cycles on every set_target_bone).  A member of a
-- group fed through arrays gets it there.
local function give(track, x, y)
  local s, sk, array = track.solver, track.space, track.array
  if array then
    array[track.at], array[track.at + 1] = x, y
    return
  end
  if not sk then return s:set_target(x, y) end
  local tsk, bone, bx, by = s:target_bone()
  if tsk ~= sk or bone ~= track.space_bone or bx ~= x or by ~= y then
    s:set_target_bone(sk, track.space_bone, x, y)
  end
end

-- ------------------------------------------------------------------
-- Switching state
-- ------------------------------------------------------------------

-- The switch itself, inside the snapshot: each track's weight blend and
-- smoothing (from the goal and start its fields hold), then on_exit of
-- the state left (if it was entered) and on_enter of the new one (if a
-- callback has not switched elsewhere meanwhile).
local function enter(self, name, instant, jump_target)
  local st = self.states[name]
  local old, was_entered = self.current, self.entered
  local tracks, parts = self.tracks, st.parts
  for k = 1, #tracks do
    local track, part = tracks[k], parts[k]
    track.weights:to(part.weight, instant and 0 or part.blend)
    local tracker = track.tracker
    tracker:set_rate(part.rate or self.default_rate)
    track.space, track.space_bone = track.next_space, track.next_bone
    if track.sx then tracker:set_position(track.sx, track.sy) end
    tracker:set_goal(track.gx, track.gy)
    if jump_target then
      tracker:snap()
      give(track, track.gx, track.gy)
    end
  end
  self.last, self.current, self.elapsed = old, name, 0
  self.entered, self.reached, self.primed = false, false, false
  if old and was_entered then
    local on_exit = self.states[old].on_exit
    if on_exit then on_exit(self, name) end
  end
  if self.current == name then
    self.entered = true
    if st.on_enter then st.on_enter(self, old or nil) end
  end
end

-- Where a track's smoothed target leaves from at a switch, in the world:
-- the chain's tip (the hand as drawn) while the solver's weight is 0, for
-- the target then moves nothing and may be stale (the chain moved since,
-- by set_base or ik2d.attach); the solver's target when no state has
-- driven it yet; else the target the behaviour gave, which the solve
-- follows, so that the IK solution does not jump: nil when it stays in
-- its space.
local function start(self, track, sk, bone, level, who)
  local s = track.solver
  if s:weight() == 0 then return tip(track, level + 1, who) end
  local x, y
  if self.current then
    if sk == track.space and bone == track.space_bone then return nil end
    x, y = to_world(track.space, track.space_bone, track.tracker:position())
  else
    x, y = target_now(track)
  end
  if not (is_finite(x) and is_finite(y)) then
    fail(level, who, track.prefix .. "the solver's target must be finite", is_finite(x) and y or x)
  end
  return x, y
end

-- set_state's work for set_state and new (which also jumps the targets
-- to the state's; `level` counts from here).  The goals and starts are
-- read first, into the tracks, in the space each target will move in
-- (enter reads them there).
local function switch(self, name, instant, jump_target, level, who)
  local tracks, parts = self.tracks, self.states[name].parts
  for k = 1, #tracks do
    local track, part = tracks[k], parts[k]
    local sk, bone = bone_of(part.target)
    sk, bone = sk or false, bone or false
    local gx, gy
    if part.target then
      gx, gy = resolve(self, part.label, part.target, level + 1, who)
    else
      gx, gy = tip(track, level + 1, who)
    end
    local sx, sy
    if not jump_target then
      sx, sy = start(self, track, sk, bone, level + 1, who)
      if sx then sx, sy = from_world(sk, bone, sx, sy) end
    end
    track.gx, track.gy, track.sx, track.sy = gx, gy, sx or false, sy or 0
    track.next_space, track.next_bone = sk or false, bone or false
  end
  local saved = take(self)
  finish(self, saved, pcall(enter, self, name, instant, jump_target))
end

-- A solver targeting a bone when the behaviour is made keeps that bone in
-- the states without a target (track.kept, a bone source, or false).
local function keep_bone_targets(tracks)
  for k = 1, #tracks do
    local track, s = tracks[k], tracks[k].solver
    track.kept = false
    if has_methods(s, BONE_TARGET_METHODS) then
      local sk, bone, x, y = s:target_bone()
      if sk then track.kept = { skeleton = sk, bone = bone, x = x, y = y } end
    end
  end
end

-- The tracks whose solver may target a bone (track.bones): their
-- snapshots read and put back its target on a bone.
local function mark_bone_tracks(tracks, checked)
  for k = 1, #tracks do
    local track = tracks[k]
    track.bones = track.kept and true or false
    for _, st in pairs(checked) do
      if bone_of(st.parts[k].target) then track.bones = true end
    end
  end
end

-- Members of a group fed through arrays: opts.group and opts.targets (a
-- table given to group:set_targets every frame, or group:target_array());
-- each track gets its array and index there (array, at), or false.
local function check_feed(opts, tracks, level, who)
  for k = 1, #tracks do tracks[k].array, tracks[k].at = false, 0 end
  if opts.group == nil and opts.targets == nil then return end
  if opts.targets == nil then
    fail(level, who, "opts.targets must be given with opts.group: the table given to group:set_targets, or "
      .. "group:target_array()", opts.targets)
  end
  if opts.solve then
    fail(level, who, "opts.solve must be false for solvers fed through a group's targets (solve the group)",
      opts.solve)
  end
  local solvers, labels = {}, {}
  for k = 1, #tracks do
    local track = tracks[k]
    solvers[k], labels[k] = track.solver, track.name and ("solver '%s'"):format(track.name) or "solver"
    if track.bones then
      fail(level, who, track.prefix .. "a target on a bone cannot go through a group's targets (world points)")
    end
  end
  local at = common.feed(opts.group, opts.targets, 2, solvers, labels, level, who, "opts.targets")
  for k = 1, #tracks do tracks[k].array, tracks[k].at = opts.targets, at[k] end
end

-- behaviour.new(solvers, states [, opts]): `solvers` one solver or a
-- table of named ones.  opts.initial names the first state (default
-- "idle" when there is one; otherwise no state until :set_state);
-- opts.rate is the default smoothing rate (12 per second); opts.solve =
-- true makes :update also call solver:solve().  The initial state's
-- weights and targets apply at once, with no blend, and its
-- on_enter(h, nil) runs.
function behaviour.new(solvers, states, opts)
  local who = "ik2d.behaviour: new"
  opts = common.options(opts, OPTIONS, 2, who, "opts")
  if opts.solve ~= nil and type(opts.solve) ~= "boolean" then
    fail(2, who, "opts.solve must be a boolean or nil", opts.solve)
  end
  local tracks = check_solvers(solvers, opts.solve, 3, who)
  if type(states) ~= "table" then fail(2, who, "states must be a table of named states", states) end
  keep_bone_targets(tracks)
  local checked = {}
  for name, st in pairs(states) do checked[name] = check_state(name, st, tracks, 3, who) end
  mark_bone_tracks(tracks, checked)
  check_feed(opts, tracks, 3, who)
  local rate = DEFAULT_RATE
  if opts.rate ~= nil then rate = common.rate(opts.rate, 2, who, "opts.rate") end
  local initial = opts.initial
  if initial == nil and checked.idle then initial = "idle" end
  if initial ~= nil and not checked[initial] then
    fail(2, who, "opts.initial must be one of the states (" .. sorted_names(checked) .. ")", initial)
  end
  local index = {}
  for k = 1, #tracks do
    local track = tracks[k]
    local s = track.solver
    local tx, ty = s:target()
    if not (is_finite(tx) and is_finite(ty)) then
      fail(2, who, track.prefix .. "the solver's target must be finite", is_finite(tx) and ty or tx)
    end
    track.weights = blend.new(s)
    track.tracker = smooth.new{ x = tx, y = ty, rate = rate }
    -- the space the smoothed target moves in: the world (false), or a
    -- skeleton's bone (space_bone)
    track.space, track.space_bone = false, false
    -- the goal, start and space of a switch, and the goal of an update (scratch)
    track.gx, track.gy, track.sx, track.sy = 0, 0, false, 0
    track.next_space, track.next_bone = false, false
    if track.name then index[track.name] = track end
  end
  local self = setmetatable({
    tracks = tracks,
    index = index,      -- name -> track (a solver set)
    single = tracks.single,
    states = checked,
    default_rate = rate,
    solve = opts.solve or false,
    current = false,    -- state name
    last = false,       -- the state before it
    elapsed = 0,        -- seconds in the current state
    entered = false,    -- the current state's on_enter has been called
    reached = false,    -- the last on_reached check found the state arrived
    primed = false,     -- an update has run in this state (solve = false)
    spare = false,      -- a snapshot table for reuse
  }, Behaviour)
  if initial ~= nil then switch(self, initial, true, true, 3, who) end
  return self
end

-- :set_state(name [, instant]): blend each solver's weight from its weight
-- now to the state's over its blend time (instant: jump) and start
-- following its target (a state without one holds the chain's tip from
-- now).  Setting the current state again does nothing.  Returns true if
-- changed.  Callbacks: the switch is made first, then the old state's
-- on_exit(h, next) runs, then the new state's on_enter(h, previous); both
-- see h:state() == next.  A callback may call set_state: that switch
-- runs its own callbacks at once, nested, and an on_enter still to come
-- is skipped (on_exit runs only for a state whose on_enter has run).
function Behaviour:set_state(name, instant)
  local who = "ik2d.behaviour: set_state"
  check_self(self, who)
  if type(name) ~= "string" or not self.states[name] then
    fail(2, who, "name must be one of the states (" .. sorted_names(self.states) .. ")", name)
  end
  if instant ~= nil and type(instant) ~= "boolean" then
    fail(2, who, "instant must be a boolean or nil", instant)
  end
  if name == self.current then return false end
  switch(self, name, instant, false, 3, who)
  return true
end

-- ------------------------------------------------------------------
-- Reading
-- ------------------------------------------------------------------

-- The track a query names: none for the one solver, the solver's name in
-- a set (`level` counts from here).
local function track_of(self, name, level, who)
  if self.single then
    if name ~= nil then fail(level, who, "name must be nil (the behaviour drives one solver)", name) end
    return self.tracks[1]
  end
  local track = type(name) == "string" and self.index[name]
  if not track then
    fail(level, who, "name must be one of the solvers (" .. sorted_names(self.index) .. ")", name)
  end
  return track
end

-- :state() --> name of the current state (nil before the first one)
function Behaviour:state()
  check_self(self, "ik2d.behaviour: state")
  return self.current or nil
end

-- :previous() --> name of the state before the current one
function Behaviour:previous()
  check_self(self, "ik2d.behaviour: previous")
  return self.last or nil
end

-- :time() --> seconds spent in the current state
function Behaviour:time()
  check_self(self, "ik2d.behaviour: time")
  return self.elapsed
end

-- :solver([name]) --> the solver (in a set, the one named)
function Behaviour:solver(name)
  local who = "ik2d.behaviour: solver"
  check_self(self, who)
  return track_of(self, name, 3, who).solver
end

-- :solvers() --> the names of the solvers in a set, in the order they
-- are driven (a new table); {} for a behaviour of one solver
function Behaviour:solvers()
  check_self(self, "ik2d.behaviour: solvers")
  local names = {}
  if not self.single then
    for k, track in ipairs(self.tracks) do names[k] = track.name end
  end
  return names
end

-- :weight([name]) --> the blended weight (the solver's)
function Behaviour:weight(name)
  local who = "ik2d.behaviour: weight"
  check_self(self, who)
  return track_of(self, name, 3, who).weights:value()
end

-- :blending([name]) --> true while the weight is still moving (in a set
-- without a name: while any is)
function Behaviour:blending(name)
  local who = "ik2d.behaviour: blending"
  check_self(self, who)
  if name == nil and not self.single then
    for _, track in ipairs(self.tracks) do
      if not track.weights:done() then return true end
    end
    return false
  end
  return not track_of(self, name, 3, who).weights:done()
end

-- :target([name]) --> the smoothed target given to the solver (in the
-- world: a target on a bone where the bone is now)
function Behaviour:target(name)
  local who = "ik2d.behaviour: target"
  check_self(self, who)
  local track = track_of(self, name, 3, who)
  return to_world(track.space, track.space_bone, track.tracker:position())
end

-- :rate([name]) --> the smoothing rate in use (the state's, or the default)
function Behaviour:rate(name)
  local who = "ik2d.behaviour: rate"
  check_self(self, who)
  return track_of(self, name, 3, who).tracker:rate()
end

-- :goal([name]) --> where the smoothed target is heading (in the world)
function Behaviour:goal(name)
  local who = "ik2d.behaviour: goal"
  check_self(self, who)
  local track = track_of(self, name, 3, who)
  return to_world(track.space, track.space_bone, track.tracker:goal())
end

-- :set_target(x, y), in a set :set_target(name, x, y) (or (x, y, name)):
-- put the smoothed target and its goal at (x, y) at once and give it to
-- the solver (e.g. after placing a character).  A state without a target
-- then holds (x, y); a state with one reads its source again at the next
-- update and smooths from (x, y).  A target on a bone holds the point of
-- the bone that is at (x, y) now.
function Behaviour:set_target(a, b, c)
  local who = "ik2d.behaviour: set_target"
  check_self(self, who)
  local name, x, y
  if type(a) == "string" then
    name, x, y = a, b, c
  elseif type(c) == "string" then
    x, y, name = a, b, c
  elseif self.single then
    x, y = a, b
  else
    name, x, y = a, b, c     -- no name: track_of says which it wants
  end
  local track = track_of(self, name, 3, who)
  common.finite(x, 2, who, "x")
  common.finite(y, 2, who, "y")
  x, y = from_world(track.space, track.space_bone, x, y)
  give(track, x, y)               -- may raise: nothing changed yet
  track.tracker:set_position(x, y)
  track.tracker:set_goal(x, y)
  return self
end

-- ------------------------------------------------------------------
-- Update
-- ------------------------------------------------------------------

-- The tip of the IK solution a solve at weight w (0 < w < 1) blended into
-- chain c's result, worked out from the result and the pose as the cores
-- blend them: result = pose + w * delta per bone, delta the turn from the
-- pose to the solution (the shortest, or for a limited joint the one
-- inside its arc), and the stretch 1 + w * (scale - 1).
local function solution_tip(c, w)
  local bx, by, a = c:base()
  local stretch = 1 + (c:scale() - 1) / w
  local x, y = 0, 0
  for i = 1, #c do
    local p = c:pose(i)
    local d = wrap(c:angle(i) - p)             -- w * delta, up to a whole turn
    local delta = d / w
    local limit = c:constraint(i)
    if limit and limit:space() == "parent" then
      local from, to = limit:arc()
      if from then
        -- the solution lies in the arc: a delta that leaves it was a turn off
        local mid = 0.5 * from + 0.5 * to
        local at = mid + wrap(p - c:rest(i) - mid) + delta
        if at > to + 1e-9 then
          delta = (d - TAU) / w
        elseif at < from - 1e-9 then
          delta = (d + TAU) / w
        end
      end
    end
    a = a + p + delta
    local l = c:length(i) * stretch
    x, y = x + l * cos(a), y + l * sin(a)
  end
  if c:flip() then x = -x end
  return bx + x, by + y
end

-- Has the IK solution of the solver's last solve reached (tx, ty)?  At
-- weight 1 (and 0, where nothing is solved) solver:result() says.  Below
-- 1 the drawn result stops short by design: the solution the weight
-- blends in is judged instead (the follow method's always reaches, once
-- it has dragged; a solve that started within tolerance did no
-- iterations and stays there).
local function solution_reached(s, tx, ty, tol)
  local reached, _, used = s:result()
  local w = s:weight()
  if not (w > 0 and w < 1) then return reached and true or false end
  local method = s.method
  if type(method) == "function" and method(s) == "follow" then
    return type(used) == "number" and used > 0
  end
  if used == 0 then return true end
  local c = s:chain()
  if not has_methods(c, SOLUTION_METHODS) then return reached and true or false end
  local x, y = solution_tip(c, w)
  local dx, dy = x - tx, y - ty
  return dx * dx + dy * dy <= tol * tol
end

-- Has a track arrived?  Its weight blend is done, the target its solver
-- has is within the solver's tolerance of the goal, and the solver's last
-- solve reached it (its IK solution: see solution_reached).
local function track_arrived(track)
  if not track.weights:done() then return false end
  local s = track.solver
  local tx, ty = target_now(track)
  local gx, gy = to_world(track.space, track.space_bone, track.tracker:goal())
  local dx, dy, tol = tx - gx, ty - gy, s:tolerance()
  if dx * dx + dy * dy > tol * tol then return false end
  return solution_reached(s, tx, ty, tol)
end

-- Has the current state arrived?  Every track whose weight in the state
-- is above 0 has; when none is, every track.
local function arrived(self, parts)
  local tracks, any = self.tracks, false
  for k = 1, #tracks do
    if parts[k].weight > 0 then
      any = true
      if not track_arrived(tracks[k]) then return false end
    end
  end
  if any then return true end
  for k = 1, #tracks do
    if not track_arrived(tracks[k]) then return false end
  end
  return true
end

-- update's work, inside the snapshot (the goals are in the tracks).
local function step(self, st, dt)
  local tracks, parts = self.tracks, st.parts
  local watch, now = st.on_reached, nil    -- arrival is only worked out for on_reached
  -- solve = false: the result of your solve after the previous update in
  -- this state (never one made for the state before)
  if watch and not self.solve and self.primed then now = arrived(self, parts) end
  for k = 1, #tracks do
    local track = tracks[k]
    local tracker = track.tracker
    tracker:set_goal(track.gx, track.gy)
    give(track, tracker:update(dt))
    track.weights:update(dt)
  end
  if self.solve then
    for k = 1, #tracks do tracks[k].solver:solve() end
    if watch then now = arrived(self, parts) end
  end
  local t = self.elapsed + dt
  self.elapsed = t < MAX and t or MAX
  self.primed = true
  if now ~= nil then
    local fire = now and not self.reached
    self.reached = now
    if fire then watch(self) end
  end
end

-- :update(dt): read the state's sources, move each smoothed target toward
-- its source and give it to the solver, blend the weights, and with solve
-- = true solve.  Call it before solving (solve = false, the default: call
-- solver:solve() after it).  Returns the weight (one solver; nothing for
-- a set).
-- on_reached(h) runs from here once per arrival of the state: when, for
-- every solver with a weight above 0 in the state (every solver when none
-- has), the weight blend is done, the solver's target is within the
-- solver's tolerance of the goal, and the IK solution reaches it, and the
-- check before in this state did not find all that.  With solve = true
-- the check reads the solves just made; otherwise it runs first, on your
-- solves after the previous update (so never on the first update in a
-- state).
function Behaviour:update(dt)
  local who = "ik2d.behaviour: update"
  check_self(self, who)
  common.nonnegative(dt, 2, who, "dt")
  local name = self.current
  if name then
    local st = self.states[name]
    local tracks, parts = self.tracks, st.parts
    for k = 1, #tracks do
      local track, part = tracks[k], parts[k]
      if part.target then
        track.gx, track.gy = resolve(self, part.label, part.target, 3, who)
      else
        track.gx, track.gy = track.tracker:goal()
      end
    end
    local snap = take(self)
    finish(self, snap, pcall(step, self, st, dt))
  end
  if self.single then return self.tracks[1].weights:value() end
end

return setmetatable(behaviour, {
  __call = function(_, ...) return behaviour.new(...) end,
})
