-- ik2d's own rig file: rig:save() written, ik2d.rig.load read back to the
-- same bits (every bone's matrix through every clip, every solver's and
-- constraint's setting and solve, springs and gaits stepping alike), for
-- Spine rigs of the project's own and a rig made in code with every
-- setting; and malformed files refused, each with its file, where and
-- what, leaving the decoded table as it was.

local ik2d = require "ik2d"
local rig = require "ik2d.rig"
local json = require "ik2d.rig.json"
local helpers = require "spec.helpers"
local rig_helpers = require "spec.rig_helpers"

local format = string.format

-- the rigs need the core's slots and clips, which the pure core has not yet
local builds = ik2d.slots ~= nil and ik2d.clip ~= nil

-- a number's bits as text (-0 and nan told apart)
local function bits(v)
  if type(v) ~= "number" then return tostring(v) end
  if v ~= v then return "nan" end
  if v == 0 then return 1 / v < 0 and "-0" or "0" end
  return format("%a", v)
end

-- a tree of values as one text, keys sorted, numbers by their bits
local function text_of(v)
  if type(v) ~= "table" then return bits(v) end
  local keys = {}
  for k in pairs(v) do keys[#keys + 1] = k end
  table.sort(keys, function(a, b) return tostring(a) < tostring(b) end)
  local out = {}
  for _, k in ipairs(keys) do out[#out + 1] = tostring(k) .. "=" .. text_of(v[k]) end
  return "{" .. table.concat(out, ",") .. "}"
end

local function pack(...) return { n = select("#", ...), ... } end

-- ------------------------------------------------------------------
-- what two rigs must have alike
-- ------------------------------------------------------------------

local function sorted_names(t)
  local names = {}
  for name in pairs(t) do names[#names + 1] = name end
  table.sort(names)
  return names
end

-- every solver's and constraint's settings and targets, by getters
local function settings(r)
  local out = {}
  for _, name in ipairs(sorted_names(r.solvers)) do
    local s = r.solvers[name]
    if type(s) == "table" and s.target_bone == nil then
      -- a solver a tool's rules place (DragonBones IK): its settings
      out["solver " .. name] = { s.bones, s.target, s.weight, s.bend }
    else
      local on, bone, dx, dy = s:target_bone()
      out["solver " .. name] = { s:options(), pack(s:target()), pack(s:tip_angle()), pack(s:pole()),
        pack(s:aim()), on and { bone, dx, dy } or false, pack(s:chain():skeleton()).n }
    end
  end
  for _, name in ipairs(sorted_names(r.constraints)) do
    out["constraint " .. name] = r.constraints[name]:options()
  end
  local order = {}
  for k, step in ipairs(r.skeleton:order()) do
    for name, s in pairs(r.solvers) do if s == step then order[k] = "solver " .. name end end
    for name, c in pairs(r.constraints) do if c == step then order[k] = "constraint " .. name end end
  end
  out.order = order
  return text_of(out)
end

-- the skeleton after rig:apply(clip, time): every matrix, and every
-- solver's result
local function pose(r, clip, time)
  local reached = r:apply(clip, time)
  local out = { reached, r.skeleton:matrices() }
  for _, name in ipairs(sorted_names(r.solvers)) do
    local s = r.solvers[name]
    if s.result then out[#out + 1] = pack(s:result()) end
  end
  if r._core_slots then
    for i = 1, #r._core_slots do
      out[#out + 1] = pack(r._core_slots:color(i))
      out[#out + 1] = pack(r._core_slots:attachment(i))
    end
    out[#out + 1] = r._core_slots:draw_order()
  end
  return text_of(out)
end

local TIMES = { 0, 0.0625, 0.13, 0.25, 0.5, 0.77, 1, 1.5 }

-- a and b alike, to the bit: settings, the set-up pose, every clip at TIMES
local function same_rig(a, b)
  a:apply(nil, 0)
  b:apply(nil, 0)
  assert.are.equal(settings(a), settings(b))
  assert.are.equal(#a.skeleton, #b.skeleton)
  for i = 1, #a.skeleton do
    assert.are.equal(text_of(pack(a.skeleton:setup(i))), text_of(pack(b.skeleton:setup(i))))
    assert.are.equal(a.skeleton:at_tip(i), b.skeleton:at_tip(i))
  end
  assert.are.equal(pose(a, nil, 0), pose(b, nil, 0))
  local clips = sorted_names(a.clips)
  assert.are.same(clips, sorted_names(b.clips))
  for _, name in ipairs(clips) do
    for _, t in ipairs(TIMES) do
      assert.are.equal(pose(a, name, t), pose(b, name, t), format("clip %s at %s", name, t))
    end
  end
end

-- ------------------------------------------------------------------
-- a rig made in code, with every setting ik2d has
-- ------------------------------------------------------------------

local function bezier(t0, v0, t1, v1)
  local points = {}
  for k = 1, 9 do
    local u = k / 10
    points[#points + 1] = t0 + (t1 - t0) * u
    points[#points + 1] = v0 + (v1 - v0) * u * u
  end
  return points
end

local function made_in_code()
  local sk = ik2d.skeleton{ x = 400, y = 300, angle = 0.125, scale_x = 1, scale_y = -1,
    { name = "root", length = 0 },
    { name = "torso", parent = "root", length = 40, angle = -1.5, min = -1, max = 1 },
    { name = "head", parent = "torso", length = 12, inherit = "position", x = 40.5, y = 0.25 },
    { name = "arm_l", parent = "torso", length = 30, angle = 2.0, min = -1, max = 2.5 },
    { name = "hand_l", parent = "arm_l", length = 25, min = -2, max = 2, invert = false },
    { name = "arm_r", parent = "torso", length = 30, angle = -2.0, min = -2, max = 1 },
    { name = "hand_r", parent = "arm_r", length = 25, x = 30, y = 0 },
    { name = "tail", parent = "root", length = 10, angle = 3, scale_x = 1.5, scale_y = 0.5,
      shear_x = 0.1, shear_y = -0.05, inherit = "no_scale" },
    { name = "tail2", parent = "tail", length = 10 },
    { name = "leg_l", parent = "root", length = 30, angle = 1.6 },
    { name = "shin_l", parent = "leg_l", length = 30 },
    { name = "leg_r", parent = "root", length = 30, angle = 1.5 },
    { name = "shin_r", parent = "leg_r", length = 30, inherit = "all" },
  }
  local left = ik2d.solver(sk:chain("torso", "hand_l"), { method = "ccd", iterations = 20,
    tolerance = 0.001, damping = 0.2, exact = false, sweep = "tip", weight = 0.9, priority = 2,
    tip_angle = 0.3, tip_weight = 0.5 })
  local right = ik2d.solver(sk:chain("arm_r", "hand_r"), { method = "two_bone", bend = -1,
    softness = 2, softness_curve = "spine", uniform = true, pole = { 10, 20 }, together = false,
    warm_start = false, stretch = math.huge })
  -- a one-bone chain: Spine's stretch and compress
  local nod = ik2d.solver(sk:chain("head", "head"), { method = "ccd", stretch = 1.5, compress = 0.5 })
  local leg_l = ik2d.solver(sk:chain("leg_l", "shin_l"), { method = "fabrik",
    aim = { x = 1, y = 2, angle = 0.25 } })
  local leg_r = ik2d.solver(sk:chain("leg_r", "shin_r"), { method = "two_bone" })
  left:set_target(440, 230)
  right:set_target(360, 250)
  leg_l:set_target(410, 360)
  leg_r:set_target_bone(sk, "head", 1, 2)
  nod:set_target(420, 200)
  local tc = ik2d.transform_constraint(sk, { bones = { "tail2" }, target = "hand_r", mix_rotate = 0.5,
    mix_x = 0.25, mix_y = 0.75, mix_scale_x = 0.1, mix_scale_y = 0.2, mix_shear_y = 0.3,
    offset_rotation = 0.1, offset_x = 1, offset_y = -1, offset_scale_x = 0.05, offset_scale_y = -0.05,
    offset_shear_y = 0.02, ["local"] = true, relative = true })
  sk:set_order{ right, tc, left }
  local tail_spring = ik2d.spring(sk:chain("tail", "tail2"), { stiffness = { 50, 80 }, damping = 5,
    mass = { 1, 2 }, weight = 0.8, gravity = { 0, 980 }, wind = { 3, 0 } })
  tail_spring:set_colliders{ { x = 1, y = 2, radius = 3 }, { x1 = 0, y1 = 0, x2 = 10, y2 = 1 } }
  local rope = ik2d.spring(ik2d.chain{ x = 5, y = 6, angle = 0.5, flip = true,
    { length = 10, angle = 0.1, min = -1, max = 1 }, { length = 8, min = -0.5, max = 0.5, space = "world" } },
    { stiffness = 20 })
  local region = { type = "region", path = "body", x = 1, y = 2, angle = 0.5, scale_x = 1, scale_y = 1,
    width = 10, height = 20, color = { 1, 1, 1, 1 } }
  return rig.new{
    name = "made in code", skeleton = sk,
    solvers = { left = left, right = right, ["leg l"] = leg_l, leg_r = leg_r, nod = nod },
    constraints = { tail = tc },
    springs = { tail = tail_spring, rope = rope },
    gaits = { walk = { legs = { { solver = leg_l, home = { -10, 60 } },
      { solver = "leg_r", home = { 10, 60 }, hip = { 0, 5 }, reach = 55 } },
      ground = { { -1000, 360, 1000, 360 } }, pattern = "alternate",
      step = { trigger = 20, height = 10, duration = 0.2 } } },
    slots = { { name = "body", bone = "torso", attachment = "body", color = { 1, 1, 1, 1 }, blend = "additive" },
      { name = "hat", bone = "head", color = { 1, 0.5, 0.25, 1 }, dark = { 0.1, 0.2, 0.3 } } },
    skins = { { name = "default", attachments = { body = { body = region, other = region } } } },
    events = { step = { int = 1, float = 0.5, string = "left" } },
    clips = {
      wave = { duration = 1,
        bones = {
          arm_l = { rotate = { times = { 0, 0.5, 1 }, values = { 0, 0.5, -0.25 },
            curves = { { bezier(0, 0, 0.5, 0.5) }, "stepped", "linear" } },
            x = { times = { 0, 1 }, values = { 0, 5 } } },
          tail = { scale_x = { times = { 0, 1 }, values = { 1, 2 } },
            shear_y = { times = { 0.25 }, values = { 0.3 } } },
          head = { inherit = { times = { 0, 0.5 }, values = { "position", "all" } } } },
        solvers = { left = { weight = { times = { 0, 1 }, values = { 1, 0.5 } } },
          nod = { stretch = { times = { 0, 0.5 }, values = { 2, 1 } },
            compress = { times = { 0, 0.75 }, values = { 1, 0.25 } } },
          right = { bend = { times = { 0, 0.5 }, values = { -1, 1 } },
            softness = { times = { 0, 1 }, values = { 2, 0 } } } },
        constraints = { tail = { mix_rotate = { times = { 0, 1 }, values = { 0.5, 1 } } } },
        slots = { body = { color = { times = { 0, 1 }, values = { 1, 1, 1, 1, 0.5, 0.25, 0, 1 } },
          attachment = { times = { 0, 0.5 }, values = { "body", "other" } } },
          hat = { dark = { times = { 0 }, values = { 0.5, 0.5, 0.5 } } } },
        draw_order = { { time = 0.5, order = { 2, 1 } } },
        events = { { time = 0.5, name = "step", int = 2 } } },
      nod = { duration = 0.5, bones = { torso = { rotate = { times = { 0, 0.5 }, values = { -0.0, 0.1 } } } } },
    },
  }
end

-- ------------------------------------------------------------------
-- the round trips
-- ------------------------------------------------------------------

local SPINE_RIGS = { "bones", "constraints", "events", "meshes" }

local function tmp_path(name)
  return helpers.tmpdir() .. "/" .. name .. ".json"
end

local function write(path, text)
  local f = assert(io.open(path, "wb"))
  f:write(text)
  f:close()
end

describe("ik2d's rig file", function()
  if not builds then
    pending("needs ik2d.slots and ik2d.clip, which this core has not yet")
    return
  end

  describe("rig:save then ik2d.rig.load", function()
    local function round_trip(a)
      local text = a:save()
      assert.are.equal("ik2d", require("ik2d.rig.source").format(json.decode(text)))
      local b = rig.load(text)
      same_rig(a, b)
      -- the file of the rig read back is the same file
      assert.are.equal(text, b:save())
      return b, text
    end

    for _, name in ipairs(SPINE_RIGS) do
      it(format("gives spec/rigs/%s.json (Spine) back to the bit", name), function()
        round_trip(rig.load(rig_helpers.path(name)))
      end)
    end

    it("gives spec/rigs/dragonbones/ik2d_flags_ske.json (DragonBones) back to the bit", function()
      round_trip(rig.load(rig_helpers.folder .. "/dragonbones/ik2d_flags_ske.json"))
    end)

    -- the demo armatures and the keys' file, where the DragonBones reader
    -- builds them (its branch is making the rest of them load)
    for _, name in ipairs({ "ik2d_keys", "mecha_1406", "body" }) do
      local path = format("%s/dragonbones/%s_ske.json", rig_helpers.folder, name)
      local ok, loaded = pcall(rig.load, path)
      if ok then
        it(format("gives spec/rigs/dragonbones/%s_ske.json (DragonBones) back to the bit", name), function()
          round_trip(loaded)
        end)
      else
        pending(format("%s_ske.json does not load yet: %s", name, tostring(loaded)))
      end
    end

    it("gives the hero (Spine, every kind of part) back to the bit, y-up kept y-up", function()
      local path = rig_helpers.folder .. "/../../examples/hero/assets/hero.json"
      local a = rig.load(path)
      local b, text = round_trip(a)
      assert.is_true(json.decode(text).y_up)
      -- loaded y-up the way the Spine file is, it is the same rig
      same_rig(rig.load(path, { y_down = false }), rig.load(text, { y_down = false }))
      assert.are.equal(a.skeleton:scale(), b.skeleton:scale())
    end)

    it("gives a rig made in code with every setting back to the bit", function()
      local a = made_in_code()
      local b = round_trip(a)
      assert.are.same(sorted_names(a.springs), sorted_names(b.springs))
      assert.are.same({ "walk" }, sorted_names(b.gaits))
    end)

    it("reads the same bits through every JSON decoder there is", function()
      local text = made_in_code():save()
      local tried = 0
      for _, library in ipairs({ "cjson", "dkjson", "vendored" }) do
        local decode = json.decoder(library)
        if decode then
          -- a rig fresh each time: a clip's inherit keys stay on its bones
          same_rig(made_in_code(), rig.load(assert(decode(text))))
          tried = tried + 1
        end
      end
      assert.is_true(tried >= 1)
    end)

    it("reads a file from its path, named in its messages", function()
      local path = tmp_path("made")
      write(path, made_in_code():save())
      local b = rig.load(path)
      assert.are.equal("made in code", b.description.name)
      assert.are.equal(5, #b.skeleton:solvers())
    end)

    it("plays the hero's clips through ik2d.player alike, events and all", function()
      local path = rig_helpers.folder .. "/../../examples/hero/assets/hero.json"
      local a = rig.load(path)
      local b = rig.load(a:save())
      local function play(r)
        local p = require("ik2d.player").new(r)
        local out, fired = {}, {}
        p.on_event = function(track, event) fired[#fired + 1] = { track, event.name, event.time, event.int } end
        p:set(1, "idle", true)
        p:set(2, "aim", true)
        p:set_alpha(2, 0.5)
        for frame = 1, 150 do
          if frame == 30 then p:set(1, "walk", true) end
          p:update(1 / 60)
          p:apply()
          out[frame] = r.skeleton:matrices()
        end
        -- the walk's footsteps, at least one
        assert.is_true(#fired >= 1)
        return text_of(out) .. text_of(fired)
      end
      assert.are.equal(play(a), play(b))
    end)

    it("keeps the springs' and gaits' settings: they step alike", function()
      local a = made_in_code()
      local b = rig.load(a:save())
      for _, name in ipairs({ "tail", "rope" }) do
        assert.are.equal(text_of(a.springs[name]:options()), text_of(b.springs[name]:options()))
        assert.are.equal(text_of(a.springs[name]:colliders()), text_of(b.springs[name]:colliders()))
      end
      local function run(r)
        r:apply("wave", 0.25)
        local out = {}
        for k = 1, 30 do
          r.springs.tail:update(1 / 60)
          r.springs.rope:update(1 / 60)
          r.gaits.walk:update(1 / 60, 400 + 3 * k, 300, 0, false)
          out[k] = { r.springs.tail:chain():joints(), r.springs.rope:chain():joints(),
            pack(r.solvers["leg l"]:target()), pack(r.solvers.leg_r:target()) }
        end
        return text_of(out)
      end
      assert.are.equal(run(a), run(b))
    end)

    it("saves a rig's solvers as tuned after it was made", function()
      local a = made_in_code()
      a.solvers.left:set_options{ iterations = 7, weight = 0.25 }
      a.solvers.right:set_pole(-3, 4)
      a.solvers["leg l"]:clear_aim()
      a:set_setup()
      local b = rig.load(a:save())
      assert.are.equal(7, b.solvers.left:iterations())
      assert.are.equal(0.25, b.solvers.left:weight())
      assert.are.same({ -3, 4 }, { b.solvers.right:pole() })
      assert.is_nil(b.solvers["leg l"]:aim())
    end)

    it("keeps -0, infinities and the bones at their parents' tips", function()
      local text = made_in_code():save()
      local decoded = json.decode(text)
      assert.are.equal("inf", decoded.solvers[2].stretch)
      local nod = decoded.clips.nod.bones.torso.rotate.values[1]
      assert.are.equal("-0", bits(nod * 1.0))
      assert.is_nil(decoded.bones[2].x)
      assert.are.equal(30, decoded.bones[7].x)
      local b = rig.load(text)
      assert.is_true(b.skeleton:at_tip("hand_l"))
      assert.is_false(b.skeleton:at_tip("hand_r"))
    end)
  end)

  describe("rig.new", function()
    it("names the solvers and constraints of the skeleton it was not given by place", function()
      local sk = ik2d.skeleton{ { name = "a", length = 1 }, { name = "b", parent = "a", length = 1 } }
      local s = ik2d.solver(sk:chain("a", "b"))
      local r = rig.new{ skeleton = sk }
      assert.are.equal(s, r.solvers["solver 1"])
      assert.are.same({}, r.clips)
      same_rig(r, rig.load(r:save()))
    end)

    it("refuses what a file cannot hold, naming it", function()
      local sk = ik2d.skeleton{ { name = "a", length = 1 } }
      local other = ik2d.skeleton{ { name = "a", length = 1 } }
      local ok, message = pcall(rig.new, { skeleton = sk, solvers = { x = ik2d.solver(other:chain("a", "a")) } })
      assert.is_false(ok)
      assert.are.equal('ik2d.rig: new: solver "x"\'s chain is on another skeleton than the rig\'s', message)
      ok, message = pcall(rig.new, { skeleton = sk, clips = { c = { duration = 1, bones = { z = {} } } } })
      assert.is_false(ok)
      assert.are.equal("ik2d.rig: new: clips.c.bones.z: is not one of the rig's bones", message)
      ok, message = pcall(rig.new, { skeleton = sk, colour = 1 })
      assert.is_false(ok)
      assert.are.equal('ik2d.rig: new: unknown field "colour"', message)
    end)
  end)
end)

-- ------------------------------------------------------------------
-- the writer's numbers
-- ------------------------------------------------------------------

describe("ik2d.rig.json's writer", function()
  it("writes doubles that every decoder reads back to the bit, -0 too", function()
    local rnd = helpers.random(20261207)
    local values = { -0.0, 0.0, 5e-324, -2.2250738585072014e-308, 1.7976931348623157e308, 0.1, 1 / 3,
      2 ^ 53 + 2, 123456789012345680, -1e-300, math.pi }
    for _ = 1, 2000 do
      local v = (rnd.next() - 0.5) * 10 ^ math.floor(rnd.range(-20, 20))
      values[#values + 1] = v
    end
    local text = json.encode({ values = values })
    for _, library in ipairs({ "cjson", "dkjson", "vendored" }) do
      local decode = json.decoder(library)
      if decode then
        local back = assert(decode(text)).values
        for i, v in ipairs(values) do assert.are.equal(bits(v), bits(back[i] * 1.0), library .. " " .. i) end
      end
    end
  end)

  it("writes the same text for the same value, and refuses what JSON has no value for", function()
    assert.are.equal('{\n "a": [1,2],\n "b": {\n  "c": "x\\"y"\n }\n}\n',
      json.encode({ b = { c = 'x"y' }, a = { 1, 2 } }))
    assert.are.equal("0.1", json.number(0.1))
    assert.is_nil(json.number(math.huge))
    assert.has_error(function() json.encode({ math.huge }) end, "ik2d.rig.json: encode: inf has no JSON number")
  end)
end)

-- ------------------------------------------------------------------
-- malformed files
-- ------------------------------------------------------------------

-- each: what it breaks, the change to a decoded good file, the message
-- after "<file>: "
local MALFORMED = {
  { "another version", function(f) f.ik2d = 2 end,
    "ik2d: version 2 is not supported (ik2d reads rig files of version 1)" },
  { "a version as text", function(f) f.ik2d = "1" end, "ik2d: must be the format's version, a number, got string" },
  { "an unknown field", function(f) f.bone = {} end, 'unknown field "bone"' },
  { "no bones", function(f) f.bones = nil end, "bones is missing" },
  { "a parent given later", function(f) f.bones[3].parent = "shin_r" end,
    'bones[3] "head": parent "shin_r" is not defined earlier' },
  { "a negative length", function(f) f.bones[2].length = -1 end, 'bones[2] "torso": length must be >= 0, got -1' },
  { "a name twice", function(f) f.bones[4].name = "torso" end,
    'bones[4] "torso": name "torso" is already bones[2]\'s' },
  { "x without y", function(f) f.bones[7].y = nil end,
    'bones[7] "hand_r": x and y must be given together (neither: the bone starts at its parent\'s tip)' },
  { "a scale of 0", function(f) f.bones[8].scale_x = 0 end, 'bones[8] "tail": scale_x must not be 0' },
  { "limits the wrong way round", function(f) f.bones[2].min = 2 end, 'bones[2] "torso": min 2 > max 1' },
  { "an unknown inherit", function(f) f.bones[3].inherit = "most" end,
    'bones[3] "head": inherit must be "all", "position", "no_rotation_or_reflection", "no_scale", '
      .. '"no_scale_or_reflection", got "most"' },
  { "a solver on a bone not in the rig", function(f) f.solvers[1].bones[2] = "hand" end,
    'solvers[1] "left": bones[2] "hand" is not one of the rig\'s bones' },
  { "an unknown method", function(f) f.solvers[2].method = "jacobian" end,
    'solvers[2] "right": method must be "ccd", "fabrik", "two_bone", "follow", got "jacobian"' },
  { "no iterations", function(f) f.solvers[1].iterations = 0 end, 'solvers[1] "left": iterations must be >= 1, got 0' },
  { "a pole of one number", function(f) f.solvers[2].pole = { 1 } end,
    'solvers[2] "right": pole must hold 2 numbers, got 1' },
  { "a stretch as a word", function(f) f.solvers[1].stretch = "huge" end,
    'solvers[1] "left": stretch must be a number (or "inf"), got string' },
  { "a constraint's unknown target", function(f) f.constraints[1].target = "hat" end,
    'constraints[1] "tail": target "hat" is not one of the rig\'s bones' },
  { "an order step of no solver", function(f) f.order[3][2] = "lef" end,
    'order[3]: solver "lef" is not one of the rig\'s' },
  { "a collider of negative radius", function(f) f.springs[2].colliders[1].radius = -1 end,
    'springs[2] "tail".colliders[1]: radius must be >= 0, got -1' },
  { "a leg's unknown solver", function(f) f.gaits[1].legs[2].solver = "leg" end,
    'gaits[1] "walk".legs[2]: solver "leg" is not one of the rig\'s solvers' },
  { "key times going back", function(f) f.clips.wave.bones.arm_l.rotate.times[3] = 0.25 end,
    "clips.wave.bones.arm_l.rotate: times[3] must be after times[2]" },
  { "a key's values missing", function(f) f.clips.wave.slots.body.color.values[8] = nil end,
    "clips.wave.slots.body.color: values must hold 4 numbers a key (8), got 7" },
  { "a slot on no bone of the rig", function(f) f.slots[1].bone = "chest" end,
    'slots[1] "body": bone "chest" is not one of the rig\'s bones' },
  { "a clip keying a solver not in the rig", function(f) f.clips.wave.solvers.lft = f.clips.wave.solvers.left end,
    "clips.wave.solvers.lft: is not one of the rig's solvers" },
}

local function deep_copy(v)
  if type(v) ~= "table" then return v end
  local out = {}
  for k, x in pairs(v) do out[k] = deep_copy(x) end
  return out
end

-- the rig made in code as a file: what rig:save writes of it (checked
-- above where the core builds rigs), and the good file the malformed ones
-- below break
local MADE_IN_CODE = rig_helpers.folder .. "/ik2d/made_in_code.json"

describe("the file of the rig made in code", function()
  if not builds then
    pending("needs ik2d.slots and ik2d.clip, which this core has not yet")
    return
  end

  it("is what spec/rigs/ik2d/made_in_code.json holds, to the character", function()
    local f = assert(io.open(MADE_IN_CODE, "rb"))
    local text = f:read("*a")
    f:close()
    assert.are.equal(text, made_in_code():save())
  end)
end)

describe("a malformed ik2d rig file", function()
  local good
  local function good_file()
    if not good then
      local f = assert(io.open(MADE_IN_CODE, "rb"))
      good = assert(json.decode(f:read("*a")))
      f:close()
    end
    return deep_copy(good)
  end

  it("is refused for each of 20 and more mistakes, naming the file, where and what", function()
    assert.is_true(#MALFORMED >= 20)
    local dir = helpers.tmpdir()
    for k, case in ipairs(MALFORMED) do
      local file = good_file()
      case[2](file)
      local path = format("%s/bad_%02d.json", dir, k)
      write(path, json.encode(file, "ik2d"))
      local ok, message = pcall(rig.load, path)
      assert.is_false(ok, case[1])
      assert.are.equal(path .. ": " .. case[3], message, case[1])
    end
  end)

  it("is refused from a decoded table, which is left as it was", function()
    for _, case in ipairs(MALFORMED) do
      local file = good_file()
      case[2](file)
      local before = text_of(file)
      local ok, message = pcall(rig.load, file)
      assert.is_false(ok, case[1])
      assert.are.equal("<table>: " .. case[3], message, case[1])
      assert.are.equal(before, text_of(file), case[1])
    end
  end)

  it("is refused at the caller's line", function()
    local file = good_file()
    file.ik2d = 3
    local ok, message = pcall(function() return rig.load(json.encode(file)) end)
    assert.is_false(ok)
    assert.are.equal("<json text>: ik2d: version 3 is not supported (ik2d reads rig files of version 1)", message)
  end)
end)
