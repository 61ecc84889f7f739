-- The pure-Lua core against the C core for rigs' core objects, side by
-- side, as spec/pure_diff_spec.lua does for the rest: random skeletons
-- (scaled, sheared, of every inherit mode) with slots (regions, meshes on
-- one bone, weighted meshes, linked meshes, hidden attachments), solvers
-- and a transform constraint, targets and clips of random timelines on
-- every channel (linear, stepped and point curves); then random sequences
-- of clip:apply at random times and alphas, slot edits, solves and reads,
-- with hostile arguments and hostile definitions among them.  Every
-- result is compared by its bits (%a, and on 5.3+ integer or not), every
-- error by its full message (every call is made from the same line for
-- both cores).
--
-- Fixed seed; 150 sequences under make test, 3000 under IK2D_LONG=1;
-- IK2D_DIFF_SEQUENCES and IK2D_DIFF_SEED change the size and the seed.

local helpers = require "spec.helpers"

local has_c, C = pcall(require, "ik2d.core")
local L = require "ik2d.pure.core"

local format, concat = string.format, table.concat
local unpack = table.unpack or unpack -- luacheck: ignore 143
local math_type = math.type -- luacheck: ignore 143 (nil before 5.3)
local load = loadstring or load -- luacheck: ignore 143

local SEQUENCES = tonumber(os.getenv("IK2D_DIFF_SEQUENCES")) or helpers.size(150, 3000)
local SEED = tonumber(os.getenv("IK2D_DIFF_SEED")) or 34
-- each sequence's steps to stderr (the C core's)
local TRACE = os.getenv("IK2D_DIFF_TRACE")

local nan, inf = 0 / 0, math.huge

local function pack(...) return { n = select("#", ...), ... } end

-- ------------------------------------------------------------------
-- calls, every one from the same line of the same chunk
-- ------------------------------------------------------------------

local call_method = assert(load("local pack = ... return function(o, name, ...) "
  .. "local r = pack(o[name](o, ...)) return r end", "=rigdiff"))(pack)
local call_module = assert(load("local pack = ... return function(core, name, ...) "
  .. "local r = pack(core[name](...)) return r end", "=rigdiff"))(pack)
local call_colon = {}
local function colon(name)
  if not call_colon[name] then
    call_colon[name] = assert(load("local pack = ... return function(o, ...) local r = pack(o:"
      .. name .. "(...)) return r end", "=rigdiff"))(pack)
  end
  return call_colon[name]
end

-- ------------------------------------------------------------------
-- a random stream, the same on every Lua
-- ------------------------------------------------------------------

local function new_rng(seed)
  local x = seed % 2147483646 + 1
  local r = {}
  function r.unit()
    x = (x * 16807) % 2147483647
    return (x - 1) / 2147483646
  end
  function r.int(a, b) return a + math.floor(r.unit() * (b - a + 1)) end
  function r.range(a, b) return a + (b - a) * r.unit() end
  function r.chance(p) return r.unit() < p end
  function r.pick(list) return list[r.int(1, #list)] end
  return r
end

-- values that no definition or argument should take quietly
local HOSTILE = { nan, inf, -inf, -0.0, 1e300, "2", "x", true, "new table", 1.5, 0, -1, 2 ^ 31 }

local function hostile(rng)
  local v = rng.pick(HOSTILE)
  if v == "new table" then return {} end
  return v
end

-- ------------------------------------------------------------------
-- definitions, made once per sequence (tables of plain values)
-- ------------------------------------------------------------------

local INHERITS = { "all", "position", "no_rotation_or_reflection", "no_scale",
  "no_scale_or_reflection" }

local function skeleton_def(rng, n)
  local t = { x = rng.range(-20, 20), y = rng.range(-20, 20), scale_x = 1, scale_y = -1 }
  for i = 1, n do
    local b = { name = "b" .. i, length = rng.range(4, 30), angle = rng.range(-1.5, 1.5) }
    if i > 1 then
      b.parent = "b" .. rng.int(1, i - 1)
      if rng.chance(0.5) then b.x, b.y = rng.range(-10, 10), rng.range(-10, 10) end
      if rng.chance(0.3) then b.inherit = rng.pick(INHERITS) end
    end
    if rng.chance(0.3) then b.scale_x, b.scale_y = rng.range(0.5, 2), rng.range(-1.5, 1.5) end
    if rng.chance(0.2) then b.shear_x, b.shear_y = rng.range(-0.4, 0.4), rng.range(-0.4, 0.4) end
    t[i] = b
  end
  if rng.chance(0.3) then t.scale_y = 1 end
  return t
end

local function numbers(rng, n, low, high)
  local t = {}
  for i = 1, n do t[i] = rng.range(low, high) end
  return t
end

local function region(rng)
  local x0, y0 = rng.range(-10, 0), rng.range(-10, 0)
  local x1, y1 = x0 + rng.range(1, 20), y0 + rng.range(1, 20)
  return { kind = "region", vertices = { x0, y0, x0, y1, x1, y1, x1, y0 },
    uvs = { 0, 1, 0, 0, 1, 0, 1, 1 }, triangles = { 1, 2, 3, 3, 4, 1 },
    color = rng.chance(0.5) and numbers(rng, 4, 0, 1) or nil }
end

local function mesh(rng, count, bones, deform)
  local a = { kind = "mesh", uvs = numbers(rng, 2 * count, 0, 1), triangles = {}, deform = deform }
  for k = 1, count - 2 do
    a.triangles[#a.triangles + 1] = 1
    a.triangles[#a.triangles + 1] = k + 1
    a.triangles[#a.triangles + 1] = k + 2
  end
  if bones > 1 and rng.chance(0.6) then
    local w = {}
    for _ = 1, count do
      local n = rng.int(1, math.min(3, bones))
      w[#w + 1] = n
      local left = 1
      for j = 1, n do
        local weight = j == n and left or rng.range(0, left)
        left = left - weight
        w[#w + 1] = rng.int(1, bones)
        w[#w + 1] = rng.range(-15, 15)
        w[#w + 1] = rng.range(-15, 15)
        w[#w + 1] = weight
      end
    end
    a.weights = w
  else
    a.vertices = numbers(rng, 2 * count, -15, 15)
  end
  return a
end

-- The attachments and their deform sizes (doubles, by index).
local function attachments_def(rng, bones)
  local list = {}
  for _ = 1, rng.int(1, 5) do
    local r = rng.unit()
    if r < 0.35 then
      list[#list + 1] = region(rng)
    elseif r < 0.85 then
      local own = #list + 1
      list[own] = mesh(rng, rng.int(3, 6), bones, rng.chance(0.7) and own or nil)
      -- a linked mesh: the same geometry, the owner's offsets
      if list[own].deform and rng.chance(0.4) then
        local linked = {}
        for k, v in pairs(list[own]) do linked[k] = v end
        linked.color = numbers(rng, 4, 0, 1)
        list[#list + 1] = linked
      end
    else
      list[#list + 1] = { kind = "hidden" }
    end
  end
  return list
end

local function deform_size(a, index)
  if a.kind ~= "mesh" or a.deform ~= index then return 0 end
  if not a.weights then return #a.uvs end
  local n, at = 0, 1
  while at <= #a.weights do
    n = n + a.weights[at]
    at = at + 1 + 4 * a.weights[at]
  end
  return 2 * n
end

local BLENDS = { "normal", "additive", "multiply", "screen" }

local function slots_def(rng, bones, attachments)
  local list = {}
  for i = 1, rng.int(1, 5) do
    local s = { bone = rng.int(1, bones), blend = rng.pick(BLENDS) }
    if rng.chance(0.8) then s.attachment = rng.int(1, #attachments) end
    if rng.chance(0.5) then s.color = numbers(rng, 4, 0, 1) end
    if rng.chance(0.3) then s.dark = numbers(rng, 3, 0, 1) end
    list[i] = s
  end
  return { slots = list, attachments = attachments }
end

-- a hostile change somewhere in a slots definition
local function spoil_slots(rng, def)
  local r = rng.unit()
  local s = rng.pick(def.slots)
  if r < 0.2 then
    s.bone = hostile(rng)
  elseif r < 0.35 then
    s.attachment = hostile(rng)
  elseif r < 0.5 then
    s.color = { 1, hostile(rng), 1, 1 }
  elseif r < 0.6 then
    s.blend = hostile(rng)
  elseif #def.attachments > 0 then
    local a = rng.pick(def.attachments)
    local field = rng.pick({ "uvs", "vertices", "weights", "triangles", "kind", "deform", "color" })
    local v = a[field]
    if type(v) == "table" and #v > 0 then
      local copy = {}
      for k = 1, #v do copy[k] = v[k] end
      copy[rng.int(1, #copy)] = hostile(rng)
      if rng.chance(0.3) then copy[#copy] = nil end
      a[field] = copy
    else
      a[field] = hostile(rng)
    end
  end
end

local BONE_CHANNELS = { "rotate", "x", "y", "scale_x", "scale_y", "shear_x", "shear_y", "inherit" }
local SOLVER_CHANNELS = { "weight", "softness", "bend", "compress", "stretch" }
local CONSTRAINT_CHANNELS = { "mix_rotate", "mix_x", "mix_y", "mix_scale_x", "mix_scale_y",
  "mix_shear_y" }
local SLOT_CHANNELS = { "attachment", "color", "rgb", "alpha", "dark" }

-- A key's value of channel (an index for attachment, a shuffle for the
-- draw order).
local function key_value(rng, channel, ctx, out)
  if channel == "inherit" then
    out[#out + 1] = rng.int(0, 4)
  elseif channel == "bend" then
    out[#out + 1] = rng.chance(0.5) and 1 or -1
  elseif channel == "softness" then
    out[#out + 1] = rng.range(0, 5)
  elseif channel == "compress" then
    out[#out + 1] = rng.range(0, 1)
  elseif channel == "stretch" then
    out[#out + 1] = rng.range(1, 2)
  elseif channel == "attachment" then
    out[#out + 1] = rng.int(0, ctx.attachments)
  elseif channel == "color" or channel == "rgb" or channel == "dark" then
    for _ = 1, (channel == "color" and 4 or 3) do out[#out + 1] = rng.range(0, 1) end
  elseif channel == "draw_order" then
    local order = {}
    for i = 1, ctx.slots do order[i] = i end
    for i = ctx.slots, 2, -1 do
      local j = rng.int(1, i)
      order[i], order[j] = order[j], order[i]
    end
    for i = 1, ctx.slots do out[#out + 1] = order[i] end
  elseif channel == "deform" then
    for _ = 1, ctx.deform_size do out[#out + 1] = rng.range(-3, 3) end
  elseif channel == "scale_x" or channel == "scale_y" then
    out[#out + 1] = rng.range(0.5, 1.5)
  elseif channel:match("^mix") or channel == "weight" or channel == "alpha" then
    out[#out + 1] = rng.range(0, 1)
  else
    out[#out + 1] = rng.range(-1, 1)
  end
end

local STEPPED = { inherit = true, bend = true, compress = true, stretch = true, attachment = true,
  draw_order = true }

-- curves for keys (points: per channel, in time between the keys)
local function curves_of(rng, times, per_curve)
  local curves = {}
  for k = 1, #times do
    local r = rng.unit()
    if r < 0.3 then
      curves[k] = "stepped"
    elseif r < 0.6 and k < #times then
      local lists = {}
      for c = 1, per_curve do
        local points = {}
        local t0, t1 = times[k], times[k + 1]
        for j = 1, rng.int(0, 3) do
          points[#points + 1] = t0 + (t1 - t0) * j / 4
          points[#points + 1] = rng.range(-1, 1)
        end
        lists[c] = points
      end
      curves[k] = lists
    elseif r < 0.8 then
      curves[k] = "linear"
    end
  end
  return curves
end

local function timeline_def(rng, ctx)
  local pool = { "bone" }
  if ctx.solvers > 0 then pool[#pool + 1] = "solver" end
  if ctx.constraints > 0 then pool[#pool + 1] = "constraint" end
  if ctx.slots > 0 then
    pool[#pool + 1] = "slot"
    pool[#pool + 1] = "draw_order"
  end
  if #ctx.deformed > 0 then pool[#pool + 1] = "deform" end
  local kind = rng.pick(pool)
  local tl = {}
  if kind == "bone" then
    tl.channel, tl.target = rng.pick(BONE_CHANNELS), rng.int(1, ctx.bones)
  elseif kind == "solver" then
    tl.channel, tl.target = rng.pick(SOLVER_CHANNELS), rng.int(1, ctx.solvers)
  elseif kind == "constraint" then
    tl.channel, tl.target = rng.pick(CONSTRAINT_CHANNELS), rng.int(1, ctx.constraints)
  elseif kind == "slot" then
    tl.channel, tl.target = rng.pick(SLOT_CHANNELS), rng.int(1, ctx.slots)
  elseif kind == "draw_order" then
    tl.channel = "draw_order"
  else
    local d = rng.pick(ctx.deformed)
    tl.channel, tl.target = "deform", d.index
    ctx.deform_size = d.size
  end
  local times, values, t = {}, {}, rng.range(-0.2, 0.3)
  for k = 1, rng.int(1, 4) do
    times[k] = t
    t = t + rng.range(0.05, 0.6)
    key_value(rng, tl.channel, ctx, values)
  end
  tl.times, tl.values = times, values
  if rng.chance(0.6) then
    local per = #values / #times
    if tl.channel == "deform" or per > 4 then per = 1 end
    tl.curves = curves_of(rng, times, STEPPED[tl.channel] and 1 or per)
  end
  return tl
end

local function spoil_clip(rng, def)
  local tl = def.timelines[rng.int(1, #def.timelines)]
  local field = rng.pick({ "channel", "target", "times", "values", "curves", "duration" })
  if field == "duration" then
    def.duration = hostile(rng)
  elseif (field == "times" or field == "values") and #tl[field] > 0 then
    tl[field][rng.int(1, #tl[field])] = hostile(rng)
  elseif field == "curves" and type(tl.curves) == "table" and #tl.curves > 0 then
    tl.curves[rng.int(1, #tl.curves)] = rng.chance(0.5) and hostile(rng) or { { 0, 0, hostile(rng) } }
  else
    tl[field] = hostile(rng)
  end
end

local function clip_def(rng, ctx)
  local def = { duration = rng.range(0, 2), timelines = {} }
  for i = 1, rng.int(1, 6) do def.timelines[i] = timeline_def(rng, ctx) end
  if rng.chance(0.15) then spoil_clip(rng, def) end
  return def
end

-- ------------------------------------------------------------------
-- a sequence: its definitions and operations, made once, run on each core
-- ------------------------------------------------------------------

local function copy_deep(v)
  if type(v) ~= "table" then return v end
  local t = {}
  for k, x in pairs(v) do t[k] = copy_deep(x) end
  return t
end

local function sequence(rng)
  local bones = rng.int(2, 5)
  local seq = { skeleton = skeleton_def(rng, bones), ops = {} }
  local attachments = attachments_def(rng, bones)
  seq.slots = slots_def(rng, bones, attachments)
  seq.solver = rng.chance(0.5)
  -- (a chain's bones below its first inherit all)
  if seq.solver then seq.skeleton[2].inherit = nil end
  seq.constraint = rng.chance(0.5) and bones >= 3
  local ctx = { bones = bones, solvers = seq.solver and 1 or 0,
    constraints = seq.constraint and 1 or 0, slots = #seq.slots.slots,
    attachments = #attachments, deformed = {} }
  for i, a in ipairs(attachments) do
    local size = deform_size(a, i)
    if size > 0 then ctx.deformed[#ctx.deformed + 1] = { index = i, size = size } end
  end
  if rng.chance(0.15) then spoil_slots(rng, seq.slots) end
  seq.clips = {}
  for k = 1, rng.int(1, 3) do seq.clips[k] = clip_def(rng, ctx) end
  local ops = seq.ops
  for _ = 1, rng.int(10, 40) do
    local r = rng.unit()
    local i = rng.chance(0.9) and rng.int(1, ctx.slots) or hostile(rng)
    if r < 0.35 then
      local time = rng.chance(0.9) and rng.range(-0.3, 2.5) or hostile(rng)
      local alpha = rng.chance(0.3) and nil or rng.chance(0.9) and rng.range(0, 1) or hostile(rng)
      if rng.chance(0.5) then alpha = rng.pick({ 1, 0.5, 0.25, 0.75 }) end
      -- now and then on targets of the skeleton alone (what the clip keys
      -- beyond its bones is not there)
      ops[#ops + 1] = { "apply", rng.int(1, #seq.clips), time, alpha, rng.chance(0.1) }
      if rng.chance(0.5) then ops[#ops + 1] = { "solve" } end
      ops[#ops + 1] = { "look" }
    elseif r < 0.45 then
      ops[#ops + 1] = { "solve" }
    elseif r < 0.5 then
      ops[#ops + 1] = { "reset" }
    elseif r < 0.55 then
      ops[#ops + 1] = { "to_setup" }
    elseif r < 0.62 then
      local a = rng.chance(0.8) and rng.int(0, ctx.attachments) or hostile(rng)
      if a == 0 then a = nil end
      ops[#ops + 1] = { "set_attachment", i, a }
    elseif r < 0.67 then
      local c = numbers(rng, 4, 0, 1)
      if rng.chance(0.2) then c[rng.int(1, 4)] = hostile(rng) end
      ops[#ops + 1] = { "set_color", i, c }
    elseif r < 0.72 then
      ops[#ops + 1] = { "set_base", rng.range(-50, 50), rng.range(-50, 50), rng.range(-3, 3) }
    else
      local read = rng.pick({ "vertices", "color", "tint", "dark", "attachment", "draw_order",
        "deform", "matrices", "len", "duration" })
      if read == "deform" then i = rng.chance(0.9) and rng.int(1, ctx.attachments) or hostile(rng) end
      ops[#ops + 1] = { read, i, rng.chance(0.3) and { 9, 9, 9, 9, 9, 9, 9, 9, 9, 9 } or nil }
    end
  end
  return seq
end

-- ------------------------------------------------------------------
-- running and showing
-- ------------------------------------------------------------------

local function show(v)
  local t = type(v)
  if t == "number" then
    return (math_type and math_type(v) == "integer" and "i" or "f") .. format("%a", v)
  elseif t == "string" then
    return format("%q", v)
  end
  local mt = (t == "table" or t == "userdata") and debug.getmetatable(v)
  if mt and type(mt.__name) == "string" then return mt.__name end
  if t == "table" then
    local parts = {}
    for k = 1, #v do parts[k] = show(v[k]) end
    local count = 0
    for _ in pairs(v) do count = count + 1 end
    return "{" .. concat(parts, ",") .. "}" .. (count ~= #v and ("+" .. count) or "")
  end
  return tostring(v)
end

-- Runs seq on core: one line per step.
local function run(core, seq)
  local lines, w = {}, {}
  local function step(label, f, ...)
    local ok, r = pcall(f, ...)
    if not ok then
      lines[#lines + 1] = label .. ": error " .. tostring(r)
      return nil
    end
    local parts = {}
    for k = 1, r.n do parts[k] = show(r[k]) end
    lines[#lines + 1] = label .. ": ok " .. concat(parts, " ")
    return r
  end
  local made = step("skeleton", call_module, core, "skeleton", copy_deep(seq.skeleton))
  w.sk = made and made[1]
  if not w.sk then return lines end
  made = step("slots", call_module, core, "slots", w.sk, copy_deep(seq.slots))
  w.slots = made and made[1]
  local solvers, constraints = {}, {}
  if seq.solver then
    made = step("solver", function()
      local s = core.solver(w.sk:chain(1, 2), { method = "two_bone", weight = 0.5 })
      s:set_target(10, 10)
      return pack(s)
    end)
    solvers[1] = made and made[1]
  end
  if seq.constraint then
    made = step("constraint", call_module, core, "transform_constraint", w.sk,
      { bones = { 3 }, target = 1, mix_rotate = 0.5 })
    constraints[1] = made and made[1]
  end
  made = step("targets", call_module, core, "rig_targets",
    { skeleton = w.sk, solvers = solvers, constraints = constraints, slots = w.slots })
  w.targets = made and made[1]
  if not w.targets then return lines end
  w.bare = core.rig_targets{ skeleton = w.sk }
  w.clips = {}
  for k, def in ipairs(seq.clips) do
    made = step("clip" .. k, call_module, core, "clip", w.targets, copy_deep(def))
    w.clips[k] = made and made[1] or false
  end
  for n, op in ipairs(seq.ops) do
    local name, label = op[1], n .. " " .. op[1]
    if name == "apply" then
      local clip = w.clips[op[2]]
      local targets = op[5] and w.bare or w.targets
      if clip then
        if op[4] == nil then
          step(label, colon("apply"), clip, targets, op[3])
        else
          step(label, colon("apply"), clip, targets, op[3], op[4])
        end
      end
    elseif name == "duration" then
      if w.clips[1] then step(label, call_method, w.clips[1], "duration") end
    elseif name == "solve" or name == "reset" then
      step(label, call_method, w.sk, name)
    elseif name == "set_base" then
      step(label, call_method, w.sk, name, op[2], op[3], op[4])
    elseif name == "matrices" then
      step(label, call_method, w.sk, "matrices")
    elseif name == "look" then
      -- everything a renderer reads
      step(label, call_method, w.sk, "matrices")
      if w.slots then
        for i = 1, #w.slots do
          step(label, colon("vertices"), w.slots, i)
          step(label, colon("tint"), w.slots, i)
          step(label, colon("dark"), w.slots, i)
          step(label, colon("attachment"), w.slots, i)
        end
        step(label, colon("draw_order"), w.slots)
        for a = 1, #seq.slots.attachments do step(label, colon("deform"), w.slots, a) end
      end
    elseif w.slots then
      if name == "to_setup" then
        step(label, call_method, w.slots, name)
      elseif name == "len" then
        step(label, function() return pack(#w.slots) end)
      elseif name == "set_color" then
        step(label, colon("set_color"), w.slots, op[2], unpack(op[3], 1, 4))
      elseif name == "set_attachment" then
        step(label, colon("set_attachment"), w.slots, op[2], op[3])
      elseif name == "draw_order" then
        step(label, colon(name), w.slots, op[3])
      elseif op[3] ~= nil then
        step(label, colon(name), w.slots, op[2], op[3])
      else
        step(label, colon(name), w.slots, op[2])
      end
    end
  end
  return lines
end

-- The hero's clips played at several times and alphas through ik2d.rig,
-- every bone's matrix and every slot's vertices, colour and attachment,
-- and the draw order printed by their bits.
local HERO = [[
local ik2d = require "ik2d"
local rig = ik2d.rig.load("examples/hero/assets/hero.json",
  { atlas = "examples/hero/assets/hero.atlas" })
local out = { ik2d.backend }
local function put(...)
  for k = 1, select("#", ...) do out[#out + 1] = string.format("%a", (select(k, ...))) end
end
local names = {}
for name in pairs(rig.clips) do names[#names + 1] = name end
table.sort(names)
local slots, sk = rig._core_slots, rig.skeleton
for _, name in ipairs(names) do
  for _, t in ipairs({ 0, 0.1, 0.37, 0.5, 0.9, 1.3 }) do
    for _, alpha in ipairs({ 1, 0.6, 0.3 }) do
      rig:apply(name, t, alpha)
      for b = 1, #sk do put(sk:matrix(b)) end
      for i = 1, #slots do
        put(unpack(slots:vertices(i) or {}))
        put(slots:color(i))
        put(slots:attachment(i) or 0)
      end
      put(unpack(slots:draw_order()))
    end
  end
end
io.write(#names, " clips ", #out, " numbers\n", table.concat(out, " "))
]]

describe("the pure core's rig objects against the C core's", function()
  it("play the hero's clips with the same bits", function()
    if not (has_c and C.slots) then return end
    local source = "local unpack = table.unpack or unpack\n" .. HERO
    local ok_c, out_c = helpers.run_lua(source, "IK2D_PURE=0")
    local ok_l, out_l = helpers.run_lua(source, "IK2D_PURE=1")
    assert(ok_c, out_c)
    assert(ok_l, out_l)
    assert.are.equal("lua", out_l:match("\n(%a+) "))
    assert.is_truthy(out_c:match("\n(%a+) ") ~= "lua")
    assert.is_truthy(out_c:match("^4 clips"), out_c:sub(1, 200))
    -- the same numbers after the backend's name
    assert(out_c:gsub("\n%a+ ", "\n") == out_l:gsub("\n%a+ ", "\n"), "the cores part on the hero")
  end)

  it("solve a soft two-bone leg with the same bits across the edge of its soft range", function()
    -- Spine's curve: no shortfall while the target is nearer than the
    -- reach less the softness, then a growing one; targets on both sides
    -- of that edge, on it and an ulp around it
    if not has_c then return end
    local function leg(core)
      -- the hip's scale makes the skeleton general: Spine's bone IK
      local sk = core.skeleton {
        { name = "hip", length = 0, scale_x = 1.25, scale_y = 1.25 },
        { name = "thigh", parent = "hip", length = 8, angle = -1 },
        { name = "shin", parent = "thigh", length = 6.4, angle = 1.5 } }
      local s = core.solver(sk:chain(2, 3), { method = "two_bone", softness = 2,
        softness_curve = "spine", bend = -1 })
      return sk, s
    end
    local csk, cs = leg(C)
    local lsk, ls = leg(L)
    -- the reach 1.25 (8 + 6.4) = 18 less the softness 2 (scaled by the
    -- hip's 1.25 as Spine scales it: 2.5)
    local edge = 15.5
    local distances = { 3, 12, edge - 1e-9, edge, edge + 1e-9, 16, 17.9, 18, 18.5, 25 }
    for _, d in ipairs(distances) do
      for _, sign in ipairs({ 1, -1 }) do
        local x, y = d * 0.6, sign * d * 0.8
        cs:set_target(x, y)
        ls:set_target(x, y)
        csk:solve()
        lsk:solve()
        local a, b = csk:matrices(), lsk:matrices()
        for k = 1, #a do
          assert.are.equal(format("%a", a[k]), format("%a", b[k]),
            format("distance %.17g: matrix entry %d", d, k))
        end
      end
    end
  end)

  it("give the same bits and errors in random sequences", function()
    if not (has_c and C.slots) then
      -- no C core here: the pure core alone, answering or raising
      local rng = new_rng(SEED)
      for _ = 1, 20 do run(L, sequence(rng)) end
      return
    end
    local rng = new_rng(SEED)
    local compared = 0
    for s = 1, SEQUENCES do
      local seq = sequence(rng)
      local a, b = run(C, seq), run(L, seq)
      if TRACE then
        io.stderr:write(format("-- sequence %d\n%s\n-- pure\n%s\n", s, concat(a, "\n"),
                               concat(b, "\n")))
      end
      for k = 1, math.max(#a, #b) do
        if a[k] ~= b[k] then
          error(format("sequence %d (seed %d), step %d:\n  C:    %s\n  pure: %s", s, SEED, k,
                       tostring(a[k]), tostring(b[k])), 0)
        end
      end
      compared = compared + #a
    end
    assert(compared > SEQUENCES * 10, "too few steps compared: " .. compared)
  end)
end)
