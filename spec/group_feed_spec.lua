-- Helpers driving the members of an ik2d.group fed through its arrays: a
-- group given its targets in one call a frame (set_targets(t), or under
-- LuaJIT target_array()) reads them there at every solve, whatever the
-- members' own set_target said.  ik2d.gait (its feet's targets and tip
-- angles), ik2d.behaviour and ik2d.smooth write there, and the crowd
-- solves to the bits of the same characters driven one by one.
local ik2d = require "ik2d"
local helpers = require "spec.helpers"

local DT = 1 / 60
local pi = math.pi
-- the group's FFI arrays: LuaJIT only
local has_ffi = pcall(function() ik2d.group{ ik2d.solver(ik2d.chain{ { length = 1 } }) }:target_array() end)

local function hills(x) return 400 - 20 * math.sin(x / 60), math.atan(-20 / 60 * math.cos(x / 60)) end

-- A biped: a body bone and two legs of thigh, shin and foot.
local function biped(x)
  local bones = { { name = "body", length = 0 } }
  for i = 1, 2 do
    bones[#bones + 1] = { name = "thigh" .. i, parent = "body", length = 30, angle = pi / 2, min = -1.8, max = 0.7 }
    bones[#bones + 1] = { name = "shin" .. i, parent = "thigh" .. i, length = 30, min = 0, max = 2.4 }
    bones[#bones + 1] = { name = "foot" .. i, parent = "shin" .. i, length = 12, angle = -pi / 2, min = -1.2,
                          max = 1.2 }
  end
  local sk = ik2d.skeleton(bones)
  sk:set_base(x, 343)
  local solvers = { ik2d.solver(sk:chain("thigh1", "foot1")), ik2d.solver(sk:chain("thigh2", "foot2")) }
  return sk, solvers
end

local function gait_of(solvers, feed)
  local opts = { legs = { { solver = solvers[1], home = { 8, 57 } }, { solver = solvers[2], home = { 8, 57 } } },
                 ground = hills, tip = true, step = { trigger = 18, duration = 0.25 } }
  for k, v in pairs(feed or {}) do opts[k] = v end
  return ik2d.gait.new(opts)
end

-- n bipeds walking; `how` "alone" (each gait drives its solvers, sk:solve()
-- one by one), "tables" (a group fed through tables) or "arrays" (its FFI
-- arrays).  Returns every bone's transforms after each frame, flattened.
local function crowd(n, how, frames)
  local skeletons, all, gaits = {}, {}, {}
  for c = 1, n do
    local sk, solvers = biped(40 * c)
    skeletons[c] = sk
    all[c] = solvers
  end
  local group, targets, tips, bases
  if how ~= "alone" then
    group = ik2d.group(skeletons)
    if how == "arrays" then
      targets, tips, bases = group:target_array(), group:tip_angle_array(), group:base_array()
    else
      targets, tips, bases = {}, {}, {}
    end
  end
  for c = 1, n do
    gaits[c] = gait_of(all[c], group and { group = group, targets = targets, tip_angles = tips })
  end
  local out, t = {}, {}
  for f = 1, frames do
    for c = 1, n do
      local x = 40 * c + 70 * f * DT
      local y = hills(x) - 57
      gaits[c]:update(f == 1 and 0 or DT, x, y)
      y = math.max(y, gaits[c]:body_height())
      if group then
        local k = how == "arrays" and 3 * (c - 1) or 3 * c - 2
        bases[k], bases[k + 1], bases[k + 2] = x, y, 0
      else
        skeletons[c]:set_base(x, y)
        skeletons[c]:solve()
      end
    end
    if group then
      if how == "tables" then
        group:set_bases(bases)
        group:set_targets(targets)
        group:set_tip_angles(tips)
      end
      group:solve()
    end
    for c = 1, n do
      skeletons[c]:transforms(t)
      for k = 1, #t do out[#out + 1] = t[k] end
    end
  end
  return out
end

describe("helpers driving group members fed through arrays", function()
  it("gaits write their feet's targets and tip angles into the tables a group is given: the bits of the "
      .. "characters solved one by one", function()
    local alone, fed = crowd(6, "alone", 240), crowd(6, "tables", 240)
    assert.are.equal(#alone, #fed)
    for k = 1, #alone do
      if alone[k] ~= fed[k] then error(("value %d: %.17g against %.17g"):format(k, fed[k], alone[k])) end
    end
  end)

  if has_ffi then
    it("and into the group's FFI arrays", function()
      local alone, fed = crowd(6, "alone", 240), crowd(6, "arrays", 240)
      for k = 1, #alone do
        if alone[k] ~= fed[k] then error(("value %d: %.17g against %.17g"):format(k, fed[k], alone[k])) end
      end
    end)
  end

  -- arms of two bones, each with a behaviour (and a smoother) toward a
  -- moving point; `fed`: a group of them fed through a table
  local function arms(n, fed, frames)
    local solvers, behaviours, smoothers = {}, {}, {}
    for k = 1, n do
      solvers[k] = ik2d.solver(ik2d.chain{ x = 30 * k, y = 0, { length = 20, angle = 0.3 }, { length = 20 } })
    end
    local group = ik2d.group(solvers)
    local targets = {}
    for k = 1, n do
      local point = { 30 * k + 10, 25 }
      local opts = fed and k % 2 == 1 and { group = group, targets = targets } or nil
      behaviours[k] = ik2d.behaviour.new(solvers[k], { idle = { weight = 0 },
        reach = { blend = 0.3, rate = 10, target = point } }, opts)
      behaviours[k]:set_state("reach")
      smoothers[k] = ik2d.smooth.new{ x = 30 * k, y = 40, rate = 8 }
      smoothers[k]:set_goal(30 * k + 15, -20)
      behaviours[k].point = point
    end
    local out = {}
    for f = 1, frames do
      for k = 1, n do
        behaviours[k].point[1] = 30 * k + 10 + 5 * math.sin(f / 9)
        if k % 2 == 1 then
          behaviours[k]:update(DT)
        else
          -- the even arms follow a smoother: into the table, or the solver
          if fed then
            targets[2 * k - 1], targets[2 * k] = smoothers[k]:update(DT)
          else
            solvers[k]:set_target(smoothers[k]:update(DT))
          end
        end
      end
      if fed then
        group:set_targets(targets)
        group:solve()
      else
        for k = 1, n do solvers[k]:solve() end
      end
      for k = 1, n do
        for i = 1, 3 do
          local x, y = solvers[k]:chain():joint(i)
          out[#out + 1], out[#out + 1] = x, y
        end
      end
    end
    return out, behaviours
  end

  it("behaviours and smoothers write into the table a group is given: the bits of solving one by one", function()
    local alone = arms(8, false, 120)
    local fed, behaviours = arms(8, true, 120)
    for k = 1, #alone do
      if alone[k] ~= fed[k] then error(("value %d: %.17g against %.17g"):format(k, fed[k], alone[k])) end
    end
    assert.are.equal(1, behaviours[1]:weight())
  end)

  it("refuse what cannot feed, naming the helper and the argument", function()
    local sk, solvers = biped(100)
    local other = biped(200)
    local group = ik2d.group{ sk }
    local err = helpers.caller_error
    assert.are.equal("ik2d.gait: new: targets must be given with group: the table given to group:set_targets, or "
      .. "group:target_array(), got nil", err(function() gait_of(solvers, { group = group }) end))
    assert.are.equal("ik2d.gait: new: group must be the ik2d group the solvers are members of, got nil",
      err(function() gait_of(solvers, { targets = {} }) end))
    assert.are.equal("ik2d.gait: new: targets must be a table (the one given to the group every frame) or the "
      .. "group's FFI array, got 5", err(function() gait_of(solvers, { group = group, targets = 5 }) end))
    local _, strangers = biped(300)
    assert.are.equal("ik2d.gait: new: legs[1].solver must be a member of the group, got ik2d.Solver",
      err(function() gait_of(strangers, { group = group, targets = {} }) end))
    local tipless = { legs = { { solver = solvers[1], home = { 0, 1 } }, { solver = solvers[2], home = { 0, 1 } } },
                      ground = hills, group = group, targets = {}, tip_angles = {} }
    assert.are.equal("ik2d.gait: new: tip_angles is for tip = true, got table",
      err(function() ik2d.gait.new(tipless) end))
    local solving = { group = group, targets = {}, solve = true }
    assert.are.equal("ik2d.behaviour: new: opts.solve must be false for solvers fed through a group's targets "
      .. "(solve the group), got true", err(function() ik2d.behaviour.new(solvers[1], { idle = {} }, solving) end))
    assert.are.equal("ik2d.behaviour: new: solver must be a member of the group, got ik2d.Solver",
      err(function() ik2d.behaviour.new(strangers[1], { idle = {} }, { group = group, targets = {} }) end))
    solvers[1]:set_target_bone(other, "body", 0, 0)
    assert.are.equal("ik2d.behaviour: new: a target on a bone cannot go through a group's targets (world points)",
      err(function() ik2d.behaviour.new(solvers[1], { idle = {} }, { group = group, targets = {} }) end))
  end)
end)
