-- ik2d.player plays a rig's clips over time: looping, queued clips,
-- crossfades with a mix duration per pair, tracks with their alpha,
-- events and completions each fired once in the update that passes them,
-- the same pose for the same time at any frame rate, and no garbage a
-- frame.  The rig is spec/rigs/player.json (y up, y_down = false): one
-- bone, arm, at the origin (length 10); the clips:
--   left, right     arm held at 0 and at 90 degrees for a second
--   swing           arm 0 -> 90 degrees over a second
--   raise           arm's y 0 -> +10 over half a second
--   sway, bob       arm 0 -> 60 degrees, its y 0 -> 6, over 0.7 s
--   steps           arm 0 -> 40 over a second; events start (0), step
--                   (0.25, int 7 from its definition), step (0.75, int 8),
--                   end (1)

local ik2d = require "ik2d"
local helpers = require "spec.helpers"
local rig_helpers = require "spec.rig_helpers"

local run = ik2d.clip and it or function(name)
  pending(name .. " (the pure core has no ik2d.clip yet)")
end

local function new_player()
  local rig = ik2d.rig.load(rig_helpers.path("player"), { y_down = false })
  return ik2d.player(rig), rig.skeleton
end

-- arm's world angle in degrees and its origin's y
local function arm(sk)
  local a, _, c, _, _, y = sk:matrix("arm")
  return math.deg(math.atan2 and math.atan2(c, a) or math.atan(c, a)), y
end

local function pose_of(p, sk)
  p:apply()
  return arm(sk)
end

describe("ik2d.player", function()
  run("loops a looping clip and holds a clip that does not loop at its end", function()
    local p, sk = new_player()
    p:set(1, "swing", true)
    p:update(1.25)
    -- 0.25 into the second loop: 22.5 degrees
    assert.near(22.5, pose_of(p, sk), 1e-5)
    p:set(1, "swing", false)
    p:update(1.25)
    assert.near(90, pose_of(p, sk), 1e-5)
  end)

  run("crossfades with the mix duration set for the pair", function()
    local p, sk = new_player()
    p:set_mix("left", "right", 0.5)
    p:set(1, "left", true)
    p:update(0.2)
    p:set(1, "right", true)
    -- a quarter second of the half-second mix: from 0 to 90 by 0.5
    p:update(0.25)
    assert.near(45, pose_of(p, sk), 1e-5)
    p:update(0.125)
    assert.near(67.5, pose_of(p, sk), 1e-5)
    p:update(0.125)
    assert.near(90, pose_of(p, sk), 1e-5)
    -- right -> left has no mix of its own: default_mix (0) cuts
    p:set(1, "left", true)
    p:update(0.01)
    assert.near(0, pose_of(p, sk), 1e-5)
    -- default_mix for the pairs not set
    p.default_mix = 1
    p:set(1, "swing", true)
    p:update(0.25)
    -- swing at 0.25 is 22.5, mixed in from left's 0 by a quarter
    assert.near(22.5 * 0.25, pose_of(p, sk), 1e-5)
  end)

  run("fades out over the mix what only the clip faded from keys", function()
    -- raise (y, held at its end: 10) to swing (rotation) over 0.5 s: a
    -- quarter second in, y halfway back to the set-up's 0 and the angle
    -- halfway to swing's 22.5 at 0.25; at the mix's end nothing jumps
    local p, sk = new_player()
    p:set_mix("raise", "swing", 0.5)
    p:set(1, "raise", false)
    p:update(0.5)
    p:set(1, "swing", false)
    p:update(0.25)
    local angle, y = pose_of(p, sk)
    assert.near(22.5 * 0.5, angle, 1e-5)
    assert.near(5, y, 1e-6)
    p:update(0.24)
    y = select(2, pose_of(p, sk))
    assert.near(0.2, y, 1e-6)
    p:update(0.02)
    angle, y = pose_of(p, sk)
    assert.near(0, y, 1e-6)
    assert.near(90 * 0.51, angle, 1e-5)
  end)

  run("plays a track over the ones before it by its alpha", function()
    local p, sk = new_player()
    p:set(1, "left", true)
    p:set(2, "right", true)
    p:set_alpha(2, 0.5)
    p:update(0.1)
    assert.near(45, pose_of(p, sk), 1e-5)
    -- a track alone over the set-up: raise at 0.25 (y 5) by 0.5
    p:clear(2)
    p:set_alpha(1, 0.5)
    p:set(1, "raise", true)
    p:update(0.25)
    local angle, y = pose_of(p, sk)
    assert.near(0, angle, 1e-5)
    assert.near(2.5, y, 1e-6)
  end)

  run("starts a queued clip when the one before ends, on time", function()
    local p, sk = new_player()
    p:set(1, "swing", false)
    p:add(1, "raise", false)
    p:update(1.2)
    local clip, time = p:current(1)
    assert.are.equal("raise", clip.name)
    assert.near(0.2, time, 1e-12)
    local angle, y = pose_of(p, sk)
    assert.near(0, angle, 1e-5)
    assert.near(4, y, 1e-6)
    -- after a looping clip: at the end of the loop it is in
    p:set(1, "swing", true)
    p:add(1, "raise", false)
    p:update(0.5)
    assert.are.equal("swing", (p:current(1)).name)
    p:update(0.75)
    clip, time = p:current(1)
    assert.are.equal("raise", clip.name)
    assert.near(0.25, time, 1e-12)
    -- with a delay: that long after the one before started
    p:set(1, "swing", true)
    p:add(1, "raise", false, 0.5)
    p:update(0.625)
    clip, time = p:current(1)
    assert.are.equal("raise", clip.name)
    assert.near(0.125, time, 1e-12)
  end)

  run("crossfades into a queued clip from the time it started", function()
    -- swing ends at 1 (held at 90); raise starts then, mixed in over 0.4.
    -- At 1.2 the mix is half gone: the angle halfway from swing's 90 back
    -- to the set-up's 0 (raise keys no rotation), y halfway from 0 to
    -- raise's 4.
    for _, steps in ipairs({ 1, 6, 72 }) do
      local p, sk = new_player()
      p:set_mix("swing", "raise", 0.4)
      p:set(1, "swing", false)
      p:add(1, "raise", false)
      for _ = 1, steps do p:update(1.2 / steps) end
      local angle, y = pose_of(p, sk)
      assert.near(45, angle, 1e-5)
      assert.near(2, y, 1e-6)
    end
  end)

  -- the events fired and completions of a run of updates of dt: each with
  -- the track's time just before and after the update that fired it
  local function record(p, dt, duration)
    local fired, before = {}, 0
    p.on_event = function(track, event, clip)
      fired[#fired + 1] = { "event", track, event.name, event.int, event.time, clip.name, before }
    end
    p.on_complete = function(track, clip, loops)
      fired[#fired + 1] = { "complete", track, clip.name, loops, before }
    end
    local steps = math.floor(duration / dt + 0.5)
    for _ = 1, steps do
      p:update(dt)
      local after = before + dt
      for k = #fired, 1, -1 do
        if fired[k].after then break end
        fired[k].after = after
      end
      before = after
    end
    return fired
  end

  run("fires each event once, in the update that passes its time", function()
    local p = new_player()
    p:set(1, "steps", false)
    local fired = record(p, 0.125, 2)
    local want = {
      { "event", 1, "start", 0, 0, "steps", 0 }, { "event", 1, "step", 7, 0.25, "steps", 0.25 },
      { "event", 1, "step", 8, 0.75, "steps", 0.75 }, { "event", 1, "end", 0, 1, "steps", 0.875 },
      { "complete", 1, "steps", 1, 0.875 },
    }
    assert.are.equal(#want, #fired)
    for k, w in ipairs(want) do
      for i, v in ipairs(w) do assert.are.equal(v, fired[k][i], ("fired[%d][%d]"):format(k, i)) end
      -- fired in the update [before, after) holding the event's time
      -- (the end's update holds its end)
      if w[1] == "event" then
        assert.is_true(w[5] >= fired[k][7] and (w[5] < fired[k].after or w[5] == 1))
      end
    end
  end)

  run("fires a looping clip's events every loop, its end's too, and completes each loop", function()
    local p = new_player()
    p:set(1, "steps", true)
    local fired = record(p, 0.1, 2.5)
    local count = {}
    for _, f in ipairs(fired) do
      local key = f[1] == "event" and f[3] or "complete"
      count[key] = (count[key] or 0) + 1
    end
    -- loops begin at 0, 1 and 2; steps at .25 and .75 of the first two
    -- and .25 of the third; ends and completions at 1 and 2
    assert.are.same({ start = 3, step = 5, ["end"] = 2, complete = 2 }, count)
    -- a loop's end before the next loop's start
    local order = {}
    for _, f in ipairs(fired) do order[#order + 1] = f[1] == "event" and f[3] or "complete" end
    assert.are.same({ "start", "step", "step", "end", "complete", "start", "step", "step", "end",
      "complete", "start", "step" }, order)
  end)

  run("gives the same poses at 60 and 144 Hz for the same times", function()
    -- frames at 60 and 144 Hz meet every twelfth of a second: the poses
    -- there, through a looping clip, a crossfade, a queued clip mixed in
    -- and a second track.  sway and bob last 0.7 s: no clip ends or
    -- loops where the frames meet (where which frame passes the end
    -- first is the rounding of the sum of the dts).
    local function play(hz)
      local p, sk = new_player()
      p:set_mix("swing", "sway", 0.3)
      p:set_mix("sway", "steps", 0.25)
      p:set(1, "swing", true)
      local poses, events, frame, per_meeting = {}, 0, 0, hz / 12
      p.on_event = function() events = events + 1 end
      for meeting = 1, 36 do
        for _ = 1, per_meeting do
          frame = frame + 1
          p:update(1 / hz)
          if frame == hz * 0.5 then
            p:set(1, "sway", false)
            p:add(1, "steps", true)
            p:set(2, "bob", true)
            p:set_alpha(2, 0.5)
          end
        end
        local angle, y = pose_of(p, sk)
        poses[meeting] = { angle, y }
      end
      return poses, events
    end
    local at60, events60 = play(60)
    local at144, events144 = play(144)
    for k = 1, #at60 do
      assert.near(at60[k][1], at144[k][1], 1e-9, "angle at meeting " .. k)
      assert.near(at60[k][2], at144[k][2], 1e-9, "y at meeting " .. k)
    end
    assert.are.equal(events60, events144)
    assert.is_true(events60 > 0)
  end)

  run("allocates nothing a frame", function()
    local p = new_player()
    p:set(1, "steps", true)
    p:set(2, "raise", true)
    p:set_alpha(2, 0.5)
    local n = 0
    p.on_event = function() n = n + 1 end
    p.on_complete = function() n = n + 1 end
    local grown = helpers.steady_growth(function()
      for _ = 1, 30 do
        p:update(1 / 60)
        p:apply()
      end
    end)
    assert.are.equal(0, grown)
    assert.is_true(n > 0)
  end)

  run("refuses bad arguments, naming the function", function()
    local p = new_player()
    assert.has_error(function() p:set(0, "swing") end,
      "ik2d.player: set: track must be a whole number from 1 to 64, got 0")
    assert.has_error(function() p:set(1, "walk") end,
      'ik2d.player: set: clip must be a clip of the rig or its name, got "walk"')
    assert.has_error(function() p:update(-1) end,
      "ik2d.player: update: dt must be a finite number >= 0, got -1")
    assert.has_error(function() p:set_alpha(1, 2) end,
      "ik2d.player: set_alpha: alpha must be a number within [0, 1], got 2")
    assert.has_error(function() p:set_mix("left", "right", -1) end,
      "ik2d.player: set_mix: seconds must be a finite number >= 0, got -1")
  end)
end)
