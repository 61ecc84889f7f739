-- ik2d.player: a rig's clips played over time, on tracks.
--
--   local p = ik2d.player(rig)
--   p:set(1, "walk", true)              -- track 1 plays walk, looping
--   p:set(2, "aim", false)              -- track 2 on top (its alpha, set_alpha)
--   p:set_mix("walk", "run", 0.2)       -- crossfade walk -> run over 0.2 s
--   p:add(1, "jump", false)             -- after the current clip ends
--   p.on_event = function(track, event) ... end     -- event.name, .time, .int ...
--   p.on_complete = function(track, clip, loops) ... end
--   function love.update(dt) p:update(dt); p:apply() end
--
-- Tracks play in order, each over what the ones before left: a track's
-- clip moves every value it keys toward its key by the track's alpha.  A
-- clip set on a track that plays another crossfades from it over the mix
-- of that pair (p.default_mix when none): with alpha 1 the pose is the
-- old clip's and the new one's mixed by the share of the mix gone; with a
-- lower alpha the old one fades out and the new one in, each by alpha
-- times its share.  A pose depends only on the tracks' times: the same
-- time gives the same pose at any frame rate.  update and apply allocate
-- nothing; the callbacks run inside update.

local api = require "ik2d.api"
local common = require "ik2d.common"

local player = { _VERSION = api.version }

local type, error, format, setmetatable, floor = type, error, string.format, setmetatable, math.floor
local show = common.show

local Player = {}
Player.__index = Player
Player.__name = "ik2d.Player"

-- the clip a call names: a clip of the rig or its name
local function clip_of(self, clip, who)
  local clips = self.rig.clips
  if type(clip) == "string" and clips[clip] then return clips[clip] end
  if type(clip) == "table" and clip.core and clips[clip.name] == clip then return clip end
  error(format("ik2d.player: %s: clip must be a clip of the rig or its name, got %s", who,
    show(clip)), 3)
end

local function track_arg(track, who)
  if type(track) ~= "number" or track ~= floor(track) or track < 1 or track > 64 then
    error(format("ik2d.player: %s: track must be a whole number from 1 to 64, got %s", who,
      show(track)), 3)
  end
  return track
end

--- ik2d.player(rig) -> a player with no track playing
function player.new(rig)
  if type(rig) ~= "table" or not rig.clips or not rig.apply then
    error("ik2d.player: new: rig must be an ik2d rig, got " .. show(rig), 2)
  end
  return setmetatable({ rig = rig, tracks = {}, mixes = {}, default_mix = 0 }, Player)
end

-- A track's entry: a clip playing from time 0; last is the played time
-- events have fired up to (those at last and after it fire next).
local function entry_of(clip, loop, delay)
  return { clip = clip, loop = loop, time = 0, last = 0, loops = 0, delay = delay }
end

local function track_of(self, track)
  local t = self.tracks[track]
  if not t then
    t = { alpha = 1, queue = {} }
    self.tracks[track] = t
  end
  return t
end

--- p:set_mix(from, to, seconds): the crossfade from one clip to another
function Player:set_mix(from, to, seconds)
  from, to = clip_of(self, from, "set_mix"), clip_of(self, to, "set_mix")
  if not common.is_finite(seconds) or seconds < 0 then
    error("ik2d.player: set_mix: seconds must be a finite number >= 0, got " .. show(seconds), 2)
  end
  self.mixes[from.name .. "\0" .. to.name] = seconds
end

local function mix_of(self, from, to)
  return self.mixes[from.name .. "\0" .. to.name] or self.default_mix
end

-- entry starts on track t now, crossfading from what plays there
local function start(self, t, entry)
  local current = t.entry
  t.entry = entry
  local seconds = current and mix_of(self, current.clip, entry.clip) or 0
  if current and seconds > 0 then
    t.from, t.mix_time, t.mix_duration = current, 0, seconds
  else
    t.from = nil
  end
end

--- p:set(track, clip [, loop]): the clip plays on the track from now
-- (crossfading from the one there), its queue emptied
function Player:set(track, clip, loop)
  track = track_arg(track, "set")
  clip = clip_of(self, clip, "set")
  local t = track_of(self, track)
  for k = #t.queue, 1, -1 do t.queue[k] = nil end
  start(self, t, entry_of(clip, loop == true, nil))
end

--- p:add(track, clip [, loop [, delay]]): the clip plays after the track's
-- last one ends (its duration, or its loop's end), or delay seconds after
-- that one started
function Player:add(track, clip, loop, delay)
  track = track_arg(track, "add")
  clip = clip_of(self, clip, "add")
  if delay ~= nil and (not common.is_finite(delay) or delay < 0) then
    error("ik2d.player: add: delay must be a finite number >= 0 or nil, got " .. show(delay), 2)
  end
  local t = track_of(self, track)
  local entry = entry_of(clip, loop == true, delay)
  if t.entry then
    t.queue[#t.queue + 1] = entry
  else
    start(self, t, entry)
  end
end

--- p:set_alpha(track, alpha): how much the track moves what it keys
function Player:set_alpha(track, alpha)
  track = track_arg(track, "set_alpha")
  if type(alpha) ~= "number" or not (alpha >= 0 and alpha <= 1) then
    error("ik2d.player: set_alpha: alpha must be a number within [0, 1], got " .. show(alpha), 2)
  end
  track_of(self, track).alpha = alpha
end

--- p:clear(track): nothing plays on the track
function Player:clear(track)
  track = track_arg(track, "clear")
  self.tracks[track] = nil
end

--- p:current(track) -> the clip playing, its time (seconds) or nil
function Player:current(track)
  local t = self.tracks[track_arg(track, "current")]
  if not t or not t.entry then return nil end
  return t.entry.clip, t.entry.time
end

-- The time into the clip of an entry played time seconds (looped or
-- held at the end).
local function clip_time(entry, time)
  local d = entry.clip.duration
  if entry.loop and d > 0 then return time - d * floor(time / d) end
  if time > d then return d end
  return time
end

-- Fires the events of entry's clip at clip times in [from, to), or in
-- [from, to] with to_included (a clip played to its end).
local function fire_between(self, track, entry, from, to, to_included)
  local on_event = self.on_event
  if not on_event then return end
  for _, e in ipairs(entry.clip.events) do
    local t = e.time
    if t >= from and (t < to or (to_included and t == to)) then on_event(track, e, entry.clip) end
  end
end

-- An entry played on to time now: the events it passed, and its
-- completions (each loop's end, or its end once).
local function fire(self, track, entry, now)
  local d = entry.clip.duration
  if not entry.loop then
    if entry.loops > 0 then return end
    if now < d then
      fire_between(self, track, entry, entry.last, now, false)
      entry.last = now
      return
    end
    fire_between(self, track, entry, entry.last, d, true)
    entry.last, entry.loops = d, 1
    if self.on_complete then self.on_complete(track, entry.clip, 1) end
    return
  end
  if d <= 0 then return end
  while now >= (entry.loops + 1) * d do
    fire_between(self, track, entry, entry.last - entry.loops * d, d, true)
    entry.loops = entry.loops + 1
    entry.last = entry.loops * d
    if self.on_complete then self.on_complete(track, entry.clip, entry.loops) end
  end
  fire_between(self, track, entry, entry.last - entry.loops * d, now - entry.loops * d, false)
  entry.last = now
end

-- The next queued entry starts when its time comes: its delay into the
-- current one, or the current one's end (a looping one's loop's end).
local function next_entry(self, track, t)
  local queued, current = t.queue[1], t.entry
  if not queued then return end
  local due = queued.delay
  if due == nil then
    if current.loops == 0 then return end
    due = current.loop and current.loops * current.clip.duration or current.clip.duration
  end
  if current.time < due then return end
  table.remove(t.queue, 1)
  start(self, t, queued)
  queued.time = current.time - due
  if t.from then t.mix_time = queued.time end
  fire(self, track, queued, queued.time)
end

--- p:update(dt): every track's time moves on by dt seconds; events and
-- completions fire; queued clips start; crossfades move on
function Player:update(dt)
  if not common.is_finite(dt) or dt < 0 then
    error("ik2d.player: update: dt must be a finite number >= 0, got " .. show(dt), 2)
  end
  for track = 1, 64 do
    local t = self.tracks[track]
    local entry = t and t.entry
    if entry then
      entry.time = entry.time + dt
      if t.from then
        t.from.time = t.from.time + dt
        t.mix_time = t.mix_time + dt
      end
      fire(self, track, entry, entry.time)
      next_entry(self, track, t)
      if t.from and t.mix_time >= t.mix_duration then t.from = nil end
    end
  end
end

--- p:apply() -> how many solvers reached: the set-up, every track in
-- order over it, then the rig's constraints and solvers
function Player:apply()
  local rig = self.rig
  rig:setup()
  for track = 1, 64 do
    local t = self.tracks[track]
    local entry = t and t.entry
    if entry then
      local alpha, from = t.alpha, t.from
      if from then
        local share = t.mix_time / t.mix_duration
        if alpha == 1 then
          rig:play(from.clip, clip_time(from, from.time), 1)
          rig:_fade(from.clip, entry.clip, share)
        else
          rig:play(from.clip, clip_time(from, from.time), alpha * (1 - share))
        end
        rig:play(entry.clip, clip_time(entry, entry.time), alpha * share)
      else
        rig:play(entry.clip, clip_time(entry, entry.time), alpha)
      end
    end
  end
  return rig:finish()
end

player.Player = Player

return setmetatable(player, { __call = function(_, rig) return player.new(rig) end })
