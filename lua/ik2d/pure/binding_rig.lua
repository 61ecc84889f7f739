--- ik2d.pure.binding_rig: ik2d.slots, ik2d.rig_targets and ik2d.clip for
-- Lua (src/lua/luaik_rig.c): the same arguments, checks, errors and
-- results.  Definitions come as tables of plain arrays (1-based indices);
-- their numbers are read in the C binding's order, then the core checks
-- them whole before anything is made.  Slots keep their skeleton alive;
-- targets what they list; a clip nothing (it is played on targets).
local B = require "ik2d.pure.binding"
local O = require "ik2d.pure.objects"
local defs = require "ik2d.pure.defs"
local skeleton = require "ik2d.pure.skeleton"
local slots_core = require "ik2d.pure.slots"
local clip_core = require "ik2d.pure.clip"
local binding_skeleton = require "ik2d.pure.binding_skeleton"

local type, select, rawget, rawset, tonumber, tostring = type, select, rawget, rawset, tonumber,
  tostring
local floor = math.floor
local format = string.format
local rawlen = rawget(_G, "rawlen") or function(t) return #t end
local arg_error, type_error, check_status = B.arg_error, B.type_error, B.check_status
local is_table, typename, status_message, c_string = B.is_table, B.typename,
  B.status_message, B.c_string
local check_skeleton = binding_skeleton.check_skeleton

local slots_of, new_slots = O.objects.Slots, O.new.Slots
local targets_of, new_targets = O.objects.RigTargets, O.new.RigTargets
local clips_of, new_clip = O.objects.Clip, O.new.Clip
local Slots, Clip, RigTargets = O.methods.Slots, O.methods.Clip, O.methods.RigTargets

local M = {}

local MAX_SOLVERS = defs.constant("MAX_SKELETON_SOLVERS")
local BLEND_NAMES = defs.choices("blend")
local KIND_NAMES = defs.choices("attachment_kind")
local CHANNEL_NAMES = defs.choices("channel")
local CHANNEL_INDEX = {}
for k, name in ipairs(CHANNEL_NAMES) do CHANNEL_INDEX[name] = k - 1 end

-- ------------------------------------------------------------------
-- reading arrays
-- ------------------------------------------------------------------

-- v as lua_tonumberx reads it (a number, or a string Lua converts), a
-- float; nil for anything else
local function to_number(v)
  if type(v) == "number" then return v * 1.0 end
  if type(v) == "string" then
    local n = tonumber(v)
    if n then return n * 1.0 end
  end
  return nil
end

-- the length of the array field key of t (0 when absent), raising for
-- anything else than a table or nil
local function array_length(t, key, arg, owner)
  local v = rawget(t, key)
  if is_table(v) then return rawlen(v) end
  if v ~= nil then arg_error(arg, format("%s%s: table expected, got %s", owner, key, typename(v))) end
  return 0
end

-- the number v, item i of key of owner
local function number_in(v, arg, owner, key, i)
  local n = to_number(v)
  if n == nil then
    arg_error(arg, format("%s%s[%d]: number expected, got %s", owner, key, i, typename(v)))
  end
  return n
end

-- A whole number that an int holds (a field key of owner), as an integer.
local function whole_in(v, arg, owner, key)
  local n = to_number(v)
  if n == nil or not (n == floor(n) and n >= -2147483648.0 and n <= 2147483647.0) then
    arg_error(arg, format("%s%s: whole number expected, got %s", owner, key,
                          n ~= nil and tostring(v) or typename(v)))
  end
  return floor(n)
end

-- the n numbers of the array field key of t, into out, each plus 0 as
-- the C binding adds (a negative zero becomes 0)
local function read_numbers(t, key, arg, owner, out, n)
  local list = rawget(t, key)
  for i = 1, n do out[i] = number_in(rawget(list, i), arg, owner, key, i) + 0.0 end
  return out
end

-- ------------------------------------------------------------------
-- ik2d.slots
-- ------------------------------------------------------------------

local function check_slots(v, arg, n)
  local s = slots_of[v]
  if not s then type_error(arg, "ik2d.Slots", v, n) end
  if s.collected then arg_error(arg, "slots was collected") end
  return s
end

-- a colour field (count numbers) of t into out, which keeps its fallback
-- when the field is absent or empty
local function read_color(t, key, arg, owner, out, count)
  local n = array_length(t, key, arg, owner)
  if n == 0 then return end
  if n ~= count then
    arg_error(arg, format("%s%s: %d numbers expected, got %d", owner, key, count, n))
  end
  read_numbers(t, key, arg, owner, out, count)
end

local function read_slot(sk, t, i)
  local owner = format("slots[%d]: ", i)
  local slot = { bone = 0, attachment = 0, color = { 1.0, 1.0, 1.0, 1.0 }, dark = { 0.0, 0.0, 0.0 },
                 has_dark = false, blend = "normal" }
  slot.bone = whole_in(rawget(t, "bone"), 2, owner, "bone")
  if slot.bone < 1 or slot.bone > sk.count then
    arg_error(2, format("%sbone index %d out of range (1..%d)", owner, slot.bone, sk.count))
  end
  local a = rawget(t, "attachment")
  if a ~= nil then slot.attachment = whole_in(a, 2, owner, "attachment") end
  read_color(t, "color", 2, owner, slot.color, 4)
  slot.has_dark = array_length(t, "dark", 2, owner) > 0
  read_color(t, "dark", 2, owner, slot.dark, 3)
  local blend = rawget(t, "blend")
  if blend ~= nil then slot.blend = B.choice_at(blend, 2, owner .. "blend", BLEND_NAMES) end
  return slot
end

-- (int)v - 1 of a triangle's corner, or -1 for one no int holds
local function corner_of(v)
  if not (v > -2147483648.0 and v < 2147483648.0) then return -1 end
  return (v >= 0 and floor(v) or -floor(-v)) - 1
end

local function read_attachment(t, i)
  local owner = format("attachments[%d]: ", i)
  local a = { kind = "region", vertex_count = 0, vertices = false, weights = false, weight_count = 0,
              uvs = false, triangle_count = 0, triangles = {}, color = { 1.0, 1.0, 1.0, 1.0 },
              deform = 0 }
  a.kind = B.choice_at(rawget(t, "kind"), 2, owner .. "kind", KIND_NAMES)
  local n = array_length(t, "uvs", 2, owner)
  a.vertex_count = floor(n / 2)
  a.uvs = read_numbers(t, "uvs", 2, owner, {}, n)
  n = array_length(t, "vertices", 2, owner)
  if n > 0 then
    a.vertices = read_numbers(t, "vertices", 2, owner, {}, n)
    if n ~= 2 * a.vertex_count then
      arg_error(2, format("%svertices: %d numbers expected (2 a vertex, as many as the uvs), got %d",
                          owner, 2 * a.vertex_count, n))
    end
  end
  n = array_length(t, "weights", 2, owner)
  if n > 0 then
    a.weights = read_numbers(t, "weights", 2, owner, {}, n)
    a.weight_count = n
  end
  n = array_length(t, "triangles", 2, owner)
  a.triangle_count = floor(n / 3)
  local list = rawget(t, "triangles")
  for k = 1, n do a.triangles[k] = corner_of(number_in(rawget(list, k), 2, owner, "triangles", k)) end
  read_color(t, "color", 2, owner, a.color, 4)
  local d = rawget(t, "deform")
  if d ~= nil then a.deform = whole_in(d, 2, owner, "deform") end
  return a
end

-- the tables of the attachments' arrays (each a table or nil)
local function attachment_arrays(t, i)
  local owner = format("attachments[%d]: ", i)
  array_length(t, "vertices", 2, owner)
  array_length(t, "weights", 2, owner)
  array_length(t, "uvs", 2, owner)
  array_length(t, "triangles", 2, owner)
end

--- ik2d.slots(sk, { slots = {...}, attachments = {...} }) -> slots
function M.slots(...)
  local skv, t = ...
  local argn = select("#", ...)
  local sk = check_skeleton(skv, 1, argn)
  if not is_table(t) then type_error(2, "table", t, argn) end
  local n = array_length(t, "slots", 2, "")
  local count = array_length(t, "attachments", 2, "")
  if n < 1 or n > slots_core.MAX_SLOTS then
    arg_error(2, "slots: " .. status_message("SLOT_COUNT"))
  end
  local def = { skeleton = sk, slot_count = n, slots = {}, attachment_count = count,
                attachments = {} }
  local list = rawget(t, "slots")
  for i = 1, n do
    local v = rawget(list, i)
    if not is_table(v) then
      arg_error(2, format("slots[%d]: table expected, got %s", i, typename(v)))
    end
    def.slots[i] = read_slot(sk, v, i)
  end
  list = rawget(t, "attachments")
  for i = 1, count do
    local v = rawget(list, i)
    if not is_table(v) then
      arg_error(2, format("attachments[%d]: table expected, got %s", i, typename(v)))
    end
    attachment_arrays(v, i)
  end
  for i = 1, count do def.attachments[i] = read_attachment(rawget(list, i), i) end
  local status, bad = slots_core.check(def)
  if status then
    if bad then
      arg_error(2, format("%s[%d]: %s", status == "GEOMETRY" and "attachments" or "slots", bad,
                          status_message(status)))
    end
    check_status(2, status)
  end
  local proxy = new_slots(slots_core.new(def))
  B.keep(proxy, "skeleton", skv)
  return proxy
end

-- the slot at argument 2 (v; present: passed at all), an index of s
local function slot_arg(s, v, present)
  local i = B.whole_at(v, present, 2, "slot")
  if i < 1 or i > s.count then B.index_error(2, "slot", i, s.count) end
  return i
end

function Slots.to_setup(...)
  slots_core.to_setup(check_slots(..., 1, select("#", ...)))
end

--- slots:attachment(i) -> its attachment's index, or nil for none
function Slots.attachment(...)
  local self, i = ...
  local n = select("#", ...)
  local s = check_slots(self, 1, n)
  local a = s.state[slot_arg(s, i, n >= 2)].attachment
  if a == 0 then return nil end
  return a
end

--- slots:set_attachment(i, a_or_nil)
function Slots.set_attachment(...)
  local self, i, a = ...
  local n = select("#", ...)
  local s = check_slots(self, 1, n)
  i = slot_arg(s, i, n >= 2)
  if a == nil then a = 0 else a = B.whole_at(a, true, 3, "attachment") end
  check_status(3, slots_core.set_attachment(s, i, a))
end

function Slots.color(...)
  local self, i = ...
  local n = select("#", ...)
  local s = check_slots(self, 1, n)
  local c = s.state[slot_arg(s, i, n >= 2)].color
  return c[1], c[2], c[3], c[4]
end

function Slots.tint(...)
  local self, i = ...
  local n = select("#", ...)
  local s = check_slots(self, 1, n)
  return slots_core.tint(s, slot_arg(s, i, n >= 2))
end

--- slots:set_color(i, r, g, b, a)
function Slots.set_color(...)
  local self, i, r, g, b, a = ...
  local n = select("#", ...)
  local s = check_slots(self, 1, n)
  i = slot_arg(s, i, n >= 2)
  r = B.number_at(r, n >= 3, 3, nil)
  g = B.number_at(g, n >= 4, 4, nil)
  b = B.number_at(b, n >= 5, 5, nil)
  a = B.number_at(a, n >= 6, 6, nil)
  check_status(3, slots_core.set_color(s, i, r, g, b, a))
end

--- slots:dark(i) -> r, g, b, or nil for none
function Slots.dark(...)
  local self, i = ...
  local n = select("#", ...)
  local s = check_slots(self, 1, n)
  local state = s.state[slot_arg(s, i, n >= 2)]
  if not state.has_dark then return nil end
  local d = state.dark
  return d[1], d[2], d[3]
end

--- slots:draw_order([t]) -> t: the slots, first drawn first
function Slots.draw_order(...)
  local self, t = ...
  local n = select("#", ...)
  local s = check_slots(self, 1, n)
  t = B.table_arg(t, 2, n)
  local order = s.order
  for k = 1, s.count do rawset(t, k, order[k]) end
  B.trim(t, s.count + 1)
  return t
end

--- slots:deform(a [, t]) -> t (the attachment's offsets) or nil
function Slots.deform(...)
  local self, a, t = ...
  local n = select("#", ...)
  local s = check_slots(self, 1, n)
  a = B.whole_at(a, n >= 2, 2, "attachment")
  if a < 1 or a > s.attachment_count then B.index_error(2, "attachment", a, s.attachment_count) end
  local at = s.attachments[a]
  local count = at.deform_count
  if count == 0 then return nil end
  t = B.table_arg(t, 3, n)
  local deform, base = s.deform, at.deform_at
  for k = 1, count do rawset(t, k, deform[base + k]) end
  B.trim(t, count + 1)
  return t
end

--- slots:vertices(i [, t]) -> t (x, y pairs as drawn) or nil
function Slots.vertices(...)
  local self, i, t = ...
  local n = select("#", ...)
  local s = check_slots(self, 1, n)
  i = slot_arg(s, i, n >= 2)
  local sk = s.skeleton
  if sk.collected then arg_error(1, "skeleton was collected") end
  if slots_core.vertices(s, i, nil) == 0 then return nil end
  t = B.table_arg(t, 3, n)
  skeleton.ready(sk)
  local count = slots_core.vertices(s, i, t)
  B.trim(t, 2 * count + 1)
  return t
end

-- list t[k] (made when absent)
local function list_at(t, k)
  local list = rawget(t, k)
  if type(list) ~= "table" then
    list = {}
    rawset(t, k, list)
  end
  return list
end

--- slots:world_vertices(lists, drawn [, shown [, tints]]) -> n: every
-- drawn slot's world vertices in drawing order by one core call, the k-th
-- into lists[k], its slot's index into drawn[k], its attachment's into
-- shown[k], its tint into tints[k] (src/lua/luaik_rig.c's)
function Slots.world_vertices(...)
  local self, lists, drawn, shown, tints = ...
  local n = select("#", ...)
  local s = check_slots(self, 1, n)
  local sk = s.skeleton
  if sk.collected then arg_error(1, "skeleton was collected") end
  if not is_table(lists) then type_error(2, "table", lists, n) end
  if not is_table(drawn) then type_error(3, "table", drawn, n) end
  if shown ~= nil and not is_table(shown) then type_error(4, "table", shown, n) end
  if tints ~= nil and not is_table(tints) then type_error(5, "table", tints, n) end
  skeleton.ready(sk)
  local out, order = s.world_out or {}, s.world_drawn or {}
  s.world_out, s.world_drawn = out, order
  local count = slots_core.all_vertices(s, out, order)
  local at = 0
  for k = 1, count do
    local i = order[k]
    local vertices = 2 * slots_core.vertices(s, i, nil)
    local list = list_at(lists, k)
    for v = 1, vertices do rawset(list, v, out[at + v]) end
    B.trim(list, vertices + 1)
    at = at + vertices
    rawset(drawn, k, i)
    if shown then rawset(shown, k, s.state[i].attachment) end
    if tints then
      local tint = list_at(tints, k)
      local r, g, b, a = slots_core.tint(s, i)
      rawset(tint, 1, r)
      rawset(tint, 2, g)
      rawset(tint, 3, b)
      rawset(tint, 4, a)
      B.trim(tint, 5)
    end
  end
  return count
end

--- slots:skeleton() -> the skeleton the slots were made on
function Slots.skeleton(...)
  check_slots(..., 1, select("#", ...))
  return B.kept((...), "skeleton")
end

local slots_meta = {}
function slots_meta.__len(...)
  return check_slots(..., 1, select("#", ...)).count
end

-- ------------------------------------------------------------------
-- ik2d.rig_targets
-- ------------------------------------------------------------------

-- The list field key of t: its objects (of objects, named name) into
-- out, their proxies kept by the targets' proxy.
local function read_objects(t, key, objects, name, out, proxy)
  local n = array_length(t, key, 1, "")
  if n > MAX_SOLVERS then arg_error(1, format("%s: at most %d, got %d", key, MAX_SOLVERS, n)) end
  local list = rawget(t, key)
  for i = 1, n do
    local v = rawget(list, i)
    local o = objects[v]
    if not o or o.collected then
      arg_error(1, format("%s[%d]: %s expected, got %s", key, i, name, typename(v)))
    end
    out[i] = o
    B.keep(proxy, o, v)
  end
  return n
end

--- ik2d.rig_targets{ skeleton =, solvers = {...}, constraints = {...},
-- slots = } -> targets
function M.rig_targets(...)
  local t = ...
  if not is_table(t) then type_error(1, "table", t, select("#", ...)) end
  local r = { skeleton = false, solver_count = 0, solvers = {}, constraint_count = 0,
              constraints = {}, slots = false }
  local proxy = new_targets(r)
  local skv = rawget(t, "skeleton")
  local sk = O.objects.Skeleton[skv]
  if not sk or sk.collected then
    arg_error(1, format("skeleton: ik2d.Skeleton expected, got %s", typename(skv)))
  end
  r.skeleton = sk
  B.keep(proxy, "skeleton", skv)
  r.solver_count = read_objects(t, "solvers", O.objects.Solver, "ik2d.Solver", r.solvers, proxy)
  r.constraint_count = read_objects(t, "constraints", O.objects.TransformConstraint,
    "ik2d.TransformConstraint", r.constraints, proxy)
  local sv = rawget(t, "slots")
  if sv ~= nil then
    local s = slots_of[sv]
    if not s then arg_error(1, format("slots: ik2d.Slots expected, got %s", typename(sv))) end
    r.slots = s
    B.keep(proxy, "slots", sv)
  end
  return proxy
end

-- every one of the targets' objects alive (none finalised)?
local function targets_alive(r)
  if r.skeleton.collected or (r.slots and r.slots.collected) then return false end
  for i = 1, r.solver_count do
    if r.solvers[i].collected then return false end
  end
  for i = 1, r.constraint_count do
    if r.constraints[i].collected then return false end
  end
  return true
end

local function live_targets(v, arg, n)
  local r = targets_of[v]
  if not r then type_error(arg, "ik2d.RigTargets", v, n) end
  if r.collected then arg_error(arg, "rig targets was collected") end
  if not targets_alive(r) then arg_error(arg, "an object of the targets was collected") end
  return r
end

local solver_core = require "ik2d.pure.solver"
local constraint_core = require "ik2d.pure.transform_constraint"

--- targets:keep_setup(): the solvers' and constraints' settings now are
-- the set-up targets:to_setup puts back
function RigTargets.keep_setup(...)
  local r = live_targets(..., 1, select("#", ...))
  local solvers, constraints = {}, {}
  for i = 1, r.solver_count do solvers[i] = solver_core.copy_def(r.solvers[i].settings, {}) end
  for i = 1, r.constraint_count do
    local copy = {}
    for k, v in pairs(r.constraints[i].settings) do copy[k] = v end
    constraints[i] = copy
  end
  r.solver_setup, r.constraint_setup = solvers, constraints
  -- the revision of each solver's and constraint's settings when to_setup
  -- last put the set-up back: none yet
  r.solver_put, r.constraint_put = {}, {}
end

-- The set-ups of count objects put back by set_def where an object's
-- settings changed since (their revision, kept in put, moved): settings
-- unchanged since the set-up was put back are the set-up.
local function put_back(objects, count, setups, put, set_def)
  for i = 1, count do
    local object = objects[i]
    if put[i] ~= object.revision then
      set_def(object, setups[i])
      put[i] = object.revision
    end
  end
end

--- targets:to_setup(): the skeleton's bones, the slots, and the kept
-- settings back to the set-up, in one call; the bones placed by the
-- skeleton's next solve (ik2d_rig_targets_to_setup)
function RigTargets.to_setup(...)
  local r = live_targets(..., 1, select("#", ...))
  skeleton.setup_posed(r.skeleton)
  if r.slots then slots_core.to_setup(r.slots) end
  if not r.solver_setup then return end
  put_back(r.solvers, r.solver_count, r.solver_setup, r.solver_put, solver_core.set_def)
  put_back(r.constraints, r.constraint_count, r.constraint_setup, r.constraint_put,
    constraint_core.set_def)
end

-- ------------------------------------------------------------------
-- ik2d.clip
-- ------------------------------------------------------------------

local function check_clip(v, arg, n)
  local c = clips_of[v]
  if not c then type_error(arg, "ik2d.Clip", v, n) end
  if c.collected then arg_error(arg, "clip was collected") end
  return c
end

-- A key's curve (v, of key k): "linear", "stepped", or a list per channel
-- of point lists; its kind (0, 1, 2).
local function curve_kind(v, owner, k)
  if type(v) == "string" then
    local s = c_string(v)
    if s == "linear" then return 0 end
    if s == "stepped" then return 1 end
    arg_error(2, format('%scurves[%d]: "linear", "stepped" or a table expected, got "%s"', owner,
                        k, s))
  end
  if v == nil then return 0 end
  if not is_table(v) then
    arg_error(2, format('%scurves[%d]: "linear", "stepped" or a table expected, got %s', owner, k,
                        typename(v)))
  end
  for c = 1, rawlen(v) do
    local list = rawget(v, c)
    if not is_table(list) then
      arg_error(2, format("%scurves[%d][%d]: table expected, got %s", owner, k, c, typename(list)))
    end
  end
  return 2
end

-- The values each key's curve has: a deform's one (its share), else its
-- values a key (at most 4: a draw order's are stepped).
local function curve_values(channel, per_key)
  if channel == CHANNEL_INDEX.deform then return 1 end
  return per_key > 4 and 1 or per_key
end

-- The values a key of channel takes on targets (0: unknown, the target
-- not in the rig).
local function values_a_key(channel, target, r)
  if channel == CHANNEL_INDEX.color then return 4 end
  if channel == CHANNEL_INDEX.rgb or channel == CHANNEL_INDEX.dark then return 3 end
  if channel == CHANNEL_INDEX.draw_order then return r.slots and r.slots.count or 0 end
  if channel == CHANNEL_INDEX.deform then
    local s = r.slots
    if not s or target < 1 or target > s.attachment_count then return 0 end
    return s.attachments[target].deform_count
  end
  return 1
end

-- The tables of timeline t (the i-th): times, values, curves.
local function timeline_arrays(t, i)
  local owner = format("timelines[%d]: ", i)
  local keys = array_length(t, "times", 2, owner)
  array_length(t, "values", 2, owner)
  local curves = rawget(t, "curves")
  if curves == nil then return end
  if not is_table(curves) then
    arg_error(2, format("%scurves: table expected, got %s", owner, typename(curves)))
  end
  for k = 1, keys do curve_kind(rawget(curves, k), owner, k) end
end

local function read_curves(t, owner, out, values)
  local curves = rawget(t, "curves")
  if curves == nil then return end
  local kinds, counts, points = {}, {}, {}
  out.curves, out.point_counts, out.points = kinds, counts, points
  for k = 1, out.key_count do
    local curve = rawget(curves, k)
    local kind = curve_kind(curve, owner, k)
    kinds[k] = kind
    for c = 1, values do
      local n = 0
      if kind == 2 then
        local list = rawget(curve, c)
        n = is_table(list) and rawlen(list) or 0
        for p = 1, n do
          points[#points + 1] = number_in(rawget(list, p), 2, owner, "curves[k][c]", p)
        end
      end
      counts[(k - 1) * values + c] = floor(n / 2)
    end
  end
end

local function read_timeline(t, i, r)
  local owner = format("timelines[%d]: ", i)
  local out = { channel = 0, target = 1, key_count = 0, times = {}, values = {} }
  out.channel = CHANNEL_INDEX[B.choice_at(rawget(t, "channel"), 2, owner .. "channel",
                                          CHANNEL_NAMES)]
  local target = rawget(t, "target")
  if target ~= nil then out.target = whole_in(target, 2, owner, "target") end
  local keys = array_length(t, "times", 2, owner)
  local n = array_length(t, "values", 2, owner)
  out.key_count = keys
  read_numbers(t, "times", 2, owner, out.times, keys)
  read_numbers(t, "values", 2, owner, out.values, n)
  local per_key = values_a_key(out.channel, out.target, r)
  if per_key > 0 and n ~= keys * per_key then
    arg_error(2, format("%svalues: %d numbers expected (%d keys of %d), got %d", owner,
                        keys * per_key, keys, per_key, n))
  end
  if keys > 0 then read_curves(t, owner, out, curve_values(out.channel, floor(n / keys))) end
  return out
end

--- ik2d.clip(targets, { duration =, timelines = {...} }) -> clip
function M.clip(...)
  local tv, t = ...
  local argn = select("#", ...)
  local r = live_targets(tv, 1, argn)
  if not is_table(t) then type_error(2, "table", t, argn) end
  local duration = rawget(t, "duration")
  if duration == nil then duration = 0.0 else duration = B.number_at(duration, true, 2, "duration") end
  local count = array_length(t, "timelines", 2, "")
  local list = rawget(t, "timelines")
  for i = 1, count do
    local v = rawget(list, i)
    if not is_table(v) then
      arg_error(2, format("timelines[%d]: table expected, got %s", i, typename(v)))
    end
    timeline_arrays(v, i)
  end
  local def = { duration = duration, timeline_count = count, timelines = {} }
  for i = 1, count do def.timelines[i] = read_timeline(rawget(list, i), i, r) end
  local status, bad = clip_core.check(def, r)
  if status then
    if bad then arg_error(2, format("timelines[%d]: %s", bad, status_message(status))) end
    check_status(2, status)
  end
  return new_clip(clip_core.new(def, r))
end

--- clip:apply(targets, time [, alpha])
function Clip.apply(...)
  local self, tv, time, alpha = ...
  local n = select("#", ...)
  local c = check_clip(self, 1, n)
  local r = live_targets(tv, 2, n)
  time = B.number_at(time, n >= 3, 3, nil)
  if alpha == nil then alpha = 1.0 else alpha = B.number_at(alpha, true, 4, nil) end
  local status = clip_core.apply(c, r, time, alpha)
  if status then check_status(status == "ALPHA" and 4 or status == "TIME" and 3 or 2, status) end
end

function Clip.duration(...)
  return check_clip(..., 1, select("#", ...)).duration
end

for name, f in pairs(slots_meta) do O.mt.Slots[name] = f end
B.register(Slots, true)
B.register(Clip, true)
B.register(slots_meta, false)
B.register({ slots = M.slots, rig_targets = M.rig_targets, clip = M.clip }, false)


return M
