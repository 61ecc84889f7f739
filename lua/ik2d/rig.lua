-- ik2d.rig: characters from data.  A rig is a skeleton with its solvers,
-- transform constraints and their order, slots and the attachments its
-- skins give them, and clips that animate all of it, loaded from a Spine
-- 4.2 or DragonBones 5.5 file (or ik2d's own rig file) and played as the
-- tool's runtime plays it.
--
--   local rig = ik2d.rig.load("hero.json")           -- a path, a JSON text or a table
--   rig:apply("walk", t)                             -- the set-up, the clip at t, the constraints
--   rig.solvers["left leg"]:set_target(x, y)        -- ik2d's IK on top
--
-- Errors: a file that cannot be read or is malformed raises one error,
-- "<file>: <where>: <problem>", and makes nothing; a bad argument raises
-- "ik2d.rig: <function>: <problem>, got <value>" at the caller's line.

local api = require "ik2d.api"
local common = require "ik2d.common"
local source = require "ik2d.rig.source"
local build = require "ik2d.rig.build"

local rig = { _VERSION = api.version }

local type, error, format, setmetatable = type, error, string.format, setmetatable
local getmetatable = getmetatable
local show = common.show

-- the readers by format, loaded when first asked for
local READERS = { spine = "ik2d.rig.spine", dragonbones = "ik2d.rig.dragonbones" }

local Rig = {}
Rig.__index = Rig
Rig.__name = "ik2d.Rig"

-- ------------------------------------------------------------------
-- loading
-- ------------------------------------------------------------------

local OPTIONS = { format = true, skin = true, y_down = true, atlas = true, armature = true }

local function check_options(options)
  if options == nil then return {} end
  if type(options) ~= "table" then
    error("ik2d.rig: load: options must be a table or nil, got " .. show(options), 3)
  end
  for key in pairs(options) do
    if not OPTIONS[key] then error(format("ik2d.rig: load: unknown option %s", show(key)), 3) end
  end
  if options.format ~= nil and not READERS[options.format] and options.format ~= "ik2d" then
    error("ik2d.rig: load: format must be \"spine\", \"dragonbones\" or \"ik2d\", got "
      .. show(options.format), 3)
  end
  if options.y_down ~= nil and type(options.y_down) ~= "boolean" then
    error("ik2d.rig: load: y_down must be true or false, got " .. show(options.y_down), 3)
  end
  return options
end

-- The description of a decoded file in the format it is (or the one
-- asked for), raising the reader's one error.
local function describe(decoded, name, options)
  local fmt = options.format or source.format(decoded)
  if fmt == nil then
    error(format("%s: not a Spine, DragonBones or ik2d rig (no skeleton.spine, armature or ik2d)",
      name), 0)
  end
  if fmt == "ik2d" then return require("ik2d.rig.file").read(decoded, name) end
  local reader = require(READERS[fmt])
  if fmt == "dragonbones" then return reader.read(decoded, name, options.armature) end
  return reader.read(decoded, name)
end

-- rig.attachments: the list of attachment records, called as a method
-- (rig:attachments(t), below)
local ATTACHMENT_LIST = {}

-- The parts of a description: build's core objects; a DragonBones rig's
-- bones and IK are placed by its runtime's rules (ik2d.rig.dragonbones_pose)
-- on the skeleton build makes of its plain description.
local function build_parts(desc, options, core)
  if desc.source == nil or desc.source.format ~= "dragonbones" then return build.rig(desc, options, core) end
  local dbpose = require "ik2d.rig.dragonbones_pose"
  local parts = build.rig(dbpose.plain(desc), options, core)
  local placer = dbpose.new(desc)
  parts.solvers, parts.solver_list, parts.placer = placer.solvers, placer.list, placer
  return parts
end

-- A rig of the parts build made, over description desc.  how: the skin
-- built and whether a y-up rig's scale y was turned (what rig:save keeps).
local function new_rig(desc, parts, atlas, how)
  local self = {
    skeleton = parts.skeleton, solvers = parts.solvers, constraints = parts.constraints,
    clips = parts.clips, slots = desc.slots or {}, skins = desc.skins or {},
    attachments = setmetatable(parts.attachment_list, ATTACHMENT_LIST),
    _attachment_list = parts.attachment_list, events = desc.events or {},
    unsupported = desc.unsupported or {}, description = desc, atlas = atlas,
    springs = parts.springs or {}, gaits = parts.gaits or {},
    _core_slots = parts.slots, _targets = parts.targets, _solver_list = parts.solver_list,
    _constraint_list = parts.constraint_list, _setup = {}, _setup_clip = parts.setup_clip,
    _slot_setup = parts.slot_setup or {}, _fades = {}, _placer = parts.placer,
    _constraint_setup = {},
    _skin = how.skin, _y_flipped = how.y_flipped, _gait_defs = how.gait_defs or {},
    -- per table rig:attachments filled: the vertex lists it hands out
    _drawn = setmetatable({}, { __mode = "k" }),
  }
  self = setmetatable(self, Rig)
  self:set_setup()
  -- the set-up inherit modes: a clip's inherit keys change the bones' own
  self._bone_inherit = {}
  for i = 1, #self.skeleton do self._bone_inherit[i] = self.skeleton:inherit(i) end
  return self
end

-- the gait definitions of a description, by name
local function gait_defs(desc)
  local defs = {}
  for _, g in ipairs(desc.gaits or {}) do
    local d = {}
    for k, v in pairs(g) do if k ~= "name" then d[k] = v end end
    defs[g.name] = d
  end
  return defs
end

--- ik2d.rig.load(source [, options]) -> rig.  source: a path ending in
-- .json (read through love.filesystem inside LÖVE), a JSON text or a
-- decoded table.  options: format ("spine", "dragonbones", "ik2d";
-- found from the file when absent), skin (a skin's name: the default skin
-- is always in), y_down (default true: a y-up rig gets the skeleton scale
-- (1, -1), upright on a y-down screen), armature (DragonBones: which one,
-- default the first), atlas (for drawing).
-- The atlas option: a path (.atlas text, or a DragonBones _tex.json), an
-- atlas's text, or one ik2d.rig.atlas read; nil for none.
local function atlas_of(option)
  if option == nil or (type(option) == "table" and option.regions) then return option end
  local atlas = require "ik2d.rig.atlas"
  if type(option) ~= "string" then
    error("ik2d.rig: load: atlas must be a path, an atlas's text or a read atlas, got "
      .. show(option), 0)
  end
  if option:lower():match("%.json$") then
    local decoded, name = source.open(option)
    if decoded == nil then error(name, 0) end
    local read = atlas.read_tex(decoded, name)
    read.file = option
    return read
  end
  if option:find("\n") then return atlas.read(option, "<atlas text>") end
  local text, message = source.read_file(option)
  if not text then error(format("%s: cannot be read: %s", option, tostring(message)), 0) end
  local read = atlas.read(text, option)
  -- where its pages' images are looked for
  read.file = option
  return read
end

function rig.load(src, options)
  options = check_options(options)
  local decoded, name = source.open(src)
  if decoded == nil then error(name, 2) end
  local ok, result = pcall(describe, decoded, name, options)
  if not ok then error(result, 2) end
  local atlas_ok, atlas = pcall(atlas_of, options.atlas)
  if not atlas_ok then error(atlas, 2) end
  local built
  local skin = options.skin
  if skin == nil then skin = result.skin end
  local build_options = { skin = skin, y_down = options.y_down, atlas_data = atlas }
  ok, built = pcall(build_parts, result, build_options, require "ik2d")
  if not ok then error(format("%s: %s", name, tostring(built)), 2) end
  return new_rig(result, built, atlas, { skin = skin, gait_defs = gait_defs(result),
    y_flipped = result.y_up and options.y_down ~= false or nil })
end

--- rig:save() -> the rig as an ik2d rig file's JSON text (docs/ik2d-rig-file.md),
-- which ik2d.rig.load reads back to the same bits.
function Rig:save()
  local ok, text = pcall(require("ik2d.rig.file").write, self)
  if not ok then error(text, 2) end
  return text
end

-- ------------------------------------------------------------------
-- playing
-- ------------------------------------------------------------------

-- The clip a rig's method was given: a clip of the rig or its name.
local function clip_arg(self, clip, who)
  if type(clip) == "string" then
    local found = self.clips[clip]
    if not found then error(format("ik2d.rig: %s: no clip named %s", who, show(clip)), 3) end
    return found
  end
  if type(clip) == "table" and clip.core and self.clips[clip.name] == clip then return clip end
  error(format("ik2d.rig: %s: clip must be a clip of the rig or its name, got %s", who, show(clip)),
    3)
end

--- rig:setup(): every bone, slot, solver setting and constraint mix back to
-- the set-up (then clips play on top: rig:play).
function Rig:setup()
  local targets = self._targets
  if targets.to_setup then
    targets:to_setup()
  else
    self.skeleton:reset()
    if self._core_slots then self._core_slots:to_setup() end
    for i, tc in ipairs(self._constraint_list) do tc:set_options(self._constraint_setup[i]) end
  end
  -- the inherit modes a clip keys, which the skeleton's reset keeps
  if self._setup_clip then self._setup_clip:apply(targets, 0) end
  -- solvers the core does not hold (a DragonBones rig's placer's)
  if self._placer or not targets.to_setup then
    for i, s in ipairs(self._solver_list) do s:set_options(self._setup[i]) end
  end
end

--- rig:set_setup(): the solvers' and transform constraints' settings now
-- become the set-up that rig:setup (and rig:apply) go back to, and that
-- rig:save writes: call it after tuning them in code.
function Rig:set_setup()
  for i, s in ipairs(self._solver_list) do self._setup[i] = s:options() end
  for i, tc in ipairs(self._constraint_list) do self._constraint_setup[i] = tc:options() end
  if self._targets.keep_setup then self._targets:keep_setup() end
end

--- rig:play(clip, time [, alpha]): the clip at time (seconds, not looped)
-- on what is there now, by alpha (default 1).
function Rig:play(clip, time, alpha)
  clip = clip_arg(self, clip, "play")
  if not common.is_finite(time) then
    error("ik2d.rig: play: time must be a finite number, got " .. show(time), 2)
  end
  alpha = alpha == nil and 1 or alpha
  if type(alpha) ~= "number" or not (alpha >= 0 and alpha <= 1) then
    error("ik2d.rig: play: alpha must be a number within [0, 1], got " .. show(alpha), 2)
  end
  clip.core:apply(self._targets, time, alpha)
  if self._placer then self._placer:play(self.description.clips[clip.name], time, alpha) end
end

-- rig:_fade(from, to, alpha): what clip from keys and clip to does not
-- moved back toward the set-up by alpha (a crossfade's share: the
-- player's); the fade clip of a pair made at its first use
function Rig:_fade(from, to, alpha)
  local by_to = self._fades[from]
  if not by_to then
    by_to = {}
    self._fades[from] = by_to
  end
  local c = by_to[to]
  if c == nil then
    c = require("ik2d.rig.fade").clip(self, from, to) or false
    by_to[to] = c
  end
  if c then c:apply(self._targets, 0, alpha) end
end

--- rig:finish() -> how many solvers reached: the constraints in the rig's
-- order, ik2d's solvers, and the world transforms.
function Rig:finish()
  if self._placer then self._placer:place(self.skeleton) end
  return self.skeleton:solve()
end

--- rig:apply(clip_or_name, time [, alpha]): the set-up, the clip at time by
-- alpha over it (nil: the set-up alone), then the constraints and the
-- world transforms: what the tool shows at that time.
function Rig:apply(clip, time, alpha)
  if clip ~= nil then clip = clip_arg(self, clip, "apply") end
  time = time == nil and 0 or time
  if not common.is_finite(time) then
    error("ik2d.rig: apply: time must be a finite number, got " .. show(time), 2)
  end
  alpha = alpha == nil and 1 or alpha
  if type(alpha) ~= "number" or not (alpha >= 0 and alpha <= 1) then
    error("ik2d.rig: apply: alpha must be a number within [0, 1], got " .. show(alpha), 2)
  end
  self:setup()
  if clip then self:play(clip, time, alpha) end
  return self:finish()
end

-- ------------------------------------------------------------------
-- what is drawn
-- ------------------------------------------------------------------

-- Every drawn slot's world vertices into lists (the k-th drawn slot's
-- into lists[k]), its index into drawn, its attachment's into shown and
-- its tint into tints: the core's one call for the whole rig, else (a
-- core without it) slot by slot in drawing order.
local function world_vertices(slots, s)
  local lists, drawn, shown, tints = s.lists, s.drawn, s.shown, s.tints
  if slots.world_vertices then return slots:world_vertices(lists, drawn, shown, tints) end
  local order = slots:draw_order(s.order)
  local n = 0
  for k = 1, #order do
    local i = order[k]
    local list = lists[n + 1]
    if list == nil then
      list = {}
      lists[n + 1] = list
    end
    if slots:vertices(i, list) then
      n = n + 1
      drawn[n], shown[n] = i, slots:attachment(i)
      local tint = tints[n] or {}
      tint[1], tint[2], tint[3], tint[4] = slots:tint(i)
      tints[n] = tint
    end
  end
  return n
end

-- An entry's fields that stay while the k-th drawn slot shows the same
-- attachment record: its names, the record's uvs and triangles, and the
-- lists the core refills (the k-th of s's: vertices and tint).
local function name_entry(self, entry, s, k, i, a)
  local slot = self.slots[i]
  entry.slot, entry.attachment, entry.kind = slot.name, a.name, a.kind
  entry.slot_index, entry.attachment_index = i, a.index
  entry.uvs, entry.triangles = a.uvs, a.triangles
  entry.blend = slot.blend or "normal"
  entry.vertices, entry.color = s.lists[k], s.tints[k]
  entry.dark = nil
end

-- The dark colour of slot i (one whose set-up has one) into the entry.
local function dark_entry(self, entry, i)
  local r, g, b = self._core_slots:dark(i)
  if r then
    local dark = entry.dark or {}
    dark[1], dark[2], dark[3] = r, g, b
    entry.dark = dark
  else
    entry.dark = nil
  end
end

--- rig:attachments([t]) -> t: one entry a drawn slot, in drawing order,
-- as the last apply left the rig: { slot = name, attachment = name, kind =
-- "region" | "mesh", vertices = { x1, y1, ... } (world), uvs = { u1, v1,
-- ... }, triangles = { 1-based }, color = { r, g, b, a } (the slot's
-- times the attachment's), dark = { r, g, b } or nil, blend = name,
-- slot_index =, attachment_index = (1-based, rig.slots' and
-- rig.attachments') }.  A
-- region's corners: bottom-left, top-left, top-right, bottom-right.  t
-- and its tables are reused (a frame loop makes nothing); uvs and
-- triangles are the rig's own, not to be changed.  The world vertices of
-- the whole rig come from the core in one call.  rig.attachments is also
-- the list of the rig's attachment records (index -> { name =, slot =,
-- skin =, kind =, uvs =, triangles =, data = }): the list is what is
-- called.
local function attachments(self, t)
  t = t or {}
  local slots = self._core_slots
  if not slots then
    for k = #t, 1, -1 do t[k] = nil end
    return t
  end
  local scratch = self._drawn[t]
  if not scratch then
    scratch = { lists = {}, drawn = {}, shown = {}, tints = {}, order = {} }
    self._drawn[t] = scratch
  end
  local n = world_vertices(slots, scratch)
  local records, slot_list = self._attachment_list, self.slots
  local drawn, shown, lists, tints = scratch.drawn, scratch.shown, scratch.lists, scratch.tints
  for k = 1, n do
    local entry = t[k]
    if type(entry) ~= "table" then
      entry = {}
      t[k] = entry
    end
    local i, a = drawn[k], records[shown[k]]
    -- a record's uvs are its own table: another rig's entry never matches
    if entry.uvs ~= a.uvs or entry.slot_index ~= i or entry.attachment_index ~= a.index
       or entry.vertices ~= lists[k] or entry.color ~= tints[k] then
      name_entry(self, entry, scratch, k, i, a)
    end
    if slot_list[i].dark ~= nil then dark_entry(self, entry, i) end
  end
  for k = #t, n + 1, -1 do t[k] = nil end
  return t
end

function ATTACHMENT_LIST.__call(_, self, t)
  if getmetatable(self) ~= Rig then
    error("ik2d.rig: attachments: call it as rig:attachments([t]), got " .. show(self), 2)
  end
  if t ~= nil and type(t) ~= "table" then
    error("ik2d.rig: attachments: t must be a table or nil, got " .. show(t), 2)
  end
  return attachments(self, t)
end

function Rig:__tostring()
  return format("ik2d.Rig(%d bones, %d slots)", #self.skeleton, #self.slots)
end

--- ik2d.rig.new{ skeleton = sk, solvers =, constraints =, springs =,
-- gaits =, slots =, skins =, clips =, events =, name =, skin = } -> a rig
-- of objects made in code, which rig:save writes (docs/ik2d-rig-file.md).
function rig.new(t)
  local ok, desc, parts = pcall(require("ik2d.rig.from_code").gather, t, require "ik2d")
  if not ok then error(desc, 2) end
  return new_rig(desc, parts, nil, { skin = desc.skin, gait_defs = gait_defs(desc) })
end

rig.Rig = Rig

return rig
