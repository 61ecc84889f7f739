-- The Spine 4.2 reader refuses a malformed file with ONE error
-- "<file>: <where>: <problem>" naming the place and the problem, leaves
-- the decoded table as it was, and raises it at the caller's line.
-- Each case below breaks one thing in a small valid rig.

local spine = require "ik2d.rig.spine"
local json = require "ik2d.rig.json"
local source = require "ik2d.rig.source"
local rig_helpers = require "spec.rig_helpers"

-- a small valid rig: 5 bones, 2 slots, IK, a transform constraint, a mesh,
-- an event and an animation
local function base()
  return {
    skeleton = { spine = "4.2.22" },
    bones = {
      { name = "root" }, { name = "torso", parent = "root", length = 20 },
      { name = "arm", parent = "torso", length = 10 }, { name = "hand", parent = "arm" },
      { name = "target", parent = "root" },
    },
    slots = { { name = "body", bone = "torso", attachment = "body" }, { name = "hand", bone = "hand" } },
    ik = { { name = "reach", bones = { "arm", "hand" }, target = "target" } },
    transform = { { name = "copy", bones = { "hand" }, target = "target" } },
    path = {},
    skins = { { name = "default", attachments = {
      body = { body = { type = "mesh", uvs = { 0, 0, 1, 0, 0, 1 }, triangles = { 0, 1, 2 },
                        vertices = { 0, 0, 1, 0, 0, 1 } } },
    } } },
    events = { step = {} },
    animations = { walk = {
      bones = { arm = { rotate = { { time = 0, value = 0 }, { time = 1, value = 10 } } } },
    } },
  }
end

local function deep_copy(t)
  if type(t) ~= "table" then return t end
  local out = {}
  for k, v in pairs(t) do out[k] = deep_copy(v) end
  return out
end

local walk_arm = function(t) return t.animations.walk.bones.arm end
local mesh = function(t) return t.skins[1].attachments.body.body end

-- { what the case breaks, change(t) (or a whole table), the message }
local CASES = {
  { "a file that is not an object", function() return "x" end, "x.json: must be a JSON object, got string" },
  { "no skeleton", function(t) t.skeleton = nil end,
    "x.json: skeleton is missing (a Spine file has skeleton.spine)" },
  { "Spine 4.1", function(t) t.skeleton.spine = "4.1.23" end,
    'x.json: skeleton.spine: version "4.1.23" is not supported (ik2d reads Spine 4.2)' },
  { "Spine 4.3", function(t) t.skeleton.spine = "4.3.01" end,
    'x.json: skeleton.spine: version "4.3.01" is not supported (ik2d reads Spine 4.2)' },
  { "a version that is a number", function(t) t.skeleton.spine = 4.2 end,
    "x.json: skeleton.spine: must be a version text, got number" },
  { "no bones", function(t) t.bones = nil end, "x.json: bones is missing" },
  { "no bone in bones", function(t) t.bones = {} end, "x.json: bones: a skeleton needs at least one bone" },
  { "a bone that is not an object", function(t) t.bones[2] = "torso" end,
    "x.json: bones[2]: must be an object, got string" },
  { "a bone with no name", function(t) t.bones[2].name = nil end, "x.json: bones[2]: name is missing" },
  { "a parent that is not a bone", function(t) t.bones[2].parent = "torsox" end,
    'x.json: bones[2] "torso": parent "torsox" is not defined earlier' },
  { "a parent after its child", function(t) t.bones[2], t.bones[3] = t.bones[3], t.bones[2] end,
    'x.json: bones[2] "arm": parent "torso" is not defined earlier' },
  { "two bones of one name", function(t) t.bones[3].name = "torso" end,
    'x.json: bones[3] "torso": name "torso" is already bones[2]\'s' },
  { "a negative length", function(t) t.bones[2].length = -5 end,
    'x.json: bones[2] "torso": length must be >= 0, got -5' },
  { "a position that is text", function(t) t.bones[2].x = "10" end,
    'x.json: bones[2] "torso": x must be a number, got string' },
  { "an infinite rotation", function(t) t.bones[2].rotation = math.huge end,
    'x.json: bones[2] "torso": rotation must be finite, got inf' },
  { "an inherit mode Spine does not have", function(t) t.bones[2].inherit = "noRotation" end,
    'x.json: bones[2] "torso": inherit must be "normal", "onlyTranslation", "noRotationOrReflection", '
      .. '"noScale", "noScaleOrReflection", got "noRotation"' },
  { "a slot on no bone", function(t) t.slots[2].bone = "handx" end,
    'x.json: slots[2] "hand": bone "handx" is not a bone' },
  { "a slot colour of 6 digits", function(t) t.slots[1].color = "ff0000" end,
    'x.json: slots[1] "body": color must be 8 hexadecimal digits (RRGGBBAA), got "ff0000"' },
  { "a blend mode Spine does not have", function(t) t.slots[1].blend = "add" end,
    'x.json: slots[1] "body": blend must be "normal", "additive", "multiply", "screen", got "add"' },
  { "two slots of one name", function(t) t.slots[2].name = "body" end,
    'x.json: slots[2] "body": name "body" is already slots[1]\'s' },
  { "IK on 3 bones", function(t) t.ik[1].bones = { "torso", "arm", "hand" } end,
    'x.json: ik[1] "reach": bones must name 1 or 2 bones, got 3' },
  { "two-bone IK on bones that are not parent and child", function(t) t.ik[1].bones = { "torso", "hand" } end,
    'x.json: ik[1] "reach": bones[2] "hand" is not a child of bones[1] "torso"' },
  { "an IK target that is not a bone", function(t) t.ik[1].target = "targt" end,
    'x.json: ik[1] "reach": target "targt" is not a bone' },
  { "an IK target among its bones", function(t) t.ik[1].target = "hand" end,
    'x.json: ik[1] "reach": target "hand" is one of its bones' },
  { "a negative softness", function(t) t.ik[1].softness = -1 end,
    'x.json: ik[1] "reach": softness must be >= 0, got -1' },
  { "bendPositive as text", function(t) t.ik[1].bendPositive = "yes" end,
    'x.json: ik[1] "reach": bendPositive must be true or false, got string' },
  { "a transform constraint on no bone", function(t) t.transform[1].bones = { "hnd" } end,
    'x.json: transform[1] "copy": bones[1] "hnd" is not a bone' },
  { "a negative order", function(t) t.transform[1].order = -1 end,
    'x.json: transform[1] "copy": order must be >= 0, got -1' },
  { "an order that is not whole", function(t) t.ik[1].order = 1.5 end,
    'x.json: ik[1] "reach": order must be a whole number, got 1.5' },
  { "a path constraint's target that is not a slot", function(t)
      t.path = { { name = "p", bones = { "arm" }, target = "bdy" } } end,
    'x.json: path[1] "p": target "bdy" is not a slot' },
  { "skins in Spine 3's object form", function(t) t.skins = { default = {} } end,
    "x.json: skins: must be an array of skins (Spine 4's form), got object" },
  { "two skins of one name", function(t) t.skins[2] = { name = "default" } end,
    'x.json: skins[2] "default": name "default" is already skins[1]\'s' },
  { "a skin's IK constraint that is not one", function(t) t.skins[1].ik = { "rech" } end,
    'x.json: skins[1] "default": ik[1] "rech" is not an IK constraint' },
  { "attachments of a slot that is not one", function(t)
      t.skins[1].attachments.bdy = t.skins[1].attachments.body end,
    'x.json: skins[1] "default".attachments: slot "bdy" is not a slot' },
  { "an attachment type Spine does not have", function(t) mesh(t).type = "mesh2" end,
    'x.json: skins[1] "default".attachments.body.body: type "mesh2" is not an attachment type (region, mesh, '
      .. "linkedmesh, boundingbox, path, point, clipping)" },
  { "a triangle past the vertices", function(t) mesh(t).triangles = { 0, 1, 3 } end,
    'x.json: skins[1] "default".attachments.body.body: triangles[3] is 3, and the mesh has 3 vertices (0 to 2)' },
  { "triangles not in threes", function(t) mesh(t).triangles = { 0, 1, 2, 0 } end,
    'x.json: skins[1] "default".attachments.body.body: triangles must have 3 vertex indices a triangle, got 4' },
  { "an odd count of uvs", function(t) mesh(t).uvs = { 0, 0, 1, 0, 0 } end,
    'x.json: skins[1] "default".attachments.body.body: uvs must have 2 numbers a vertex, got 5 numbers' },
  { "fewer vertices than uvs", function(t) mesh(t).vertices = { 0, 0, 1, 0 } end,
    'x.json: skins[1] "default".attachments.body.body: vertices has 4 numbers: 3 vertices (uvs: 3) need 6, '
      .. "or a weighted list" },
  { "a weighted vertex on a bone that does not exist", function(t)
      mesh(t).vertices = { 1, 9, 0, 0, 1, 1, 1, 0, 0, 1, 1, 1, 0, 0, 1 } end,
    'x.json: skins[1] "default".attachments.body.body: vertices: vertex 1 names bone 9, and the skeleton has '
      .. "5 bones (0 to 4)" },
  { "weighted vertices with numbers left over", function(t)
      mesh(t).vertices = { 1, 0, 0, 0, 1, 1, 1, 0, 0, 1, 1, 1, 0, 0, 1, 7, 7 } end,
    'x.json: skins[1] "default".attachments.body.body: vertices has 2 numbers more than its 3 weighted '
      .. "vertices (uvs: 3)" },
  { "a linked mesh whose parent is not a mesh of its slot", function(t)
      t.skins[1].attachments.hand = { sleeve = { type = "linkedmesh", parent = "body" } } end,
    'x.json: skins[1] "default".attachments.hand.sleeve: parent "body" is not a mesh of the same slot in skin '
      .. '"default"' },
  { "a linked mesh of a skin that is not one", function(t)
      t.skins[1].attachments.body.copy = { type = "linkedmesh", parent = "body", skin = "red" } end,
    'x.json: skins[1] "default".attachments.body.copy: skin "red" is not a skin' },
  { "an event int that is not whole", function(t) t.events.step.int = 1.5 end,
    "x.json: events.step: int must be a whole number, got 1.5" },
  { "a key time that is text", function(t) walk_arm(t).rotate[2].time = "1" end,
    "x.json: animations.walk.bones.arm.rotate[2]: time must be a number, got string" },
  { "keys out of time order", function(t) walk_arm(t).rotate[1].time = 1.5 end,
    "x.json: animations.walk.bones.arm.rotate[2]: time 1 is not after the previous key's 1.5" },
  { "two keys at one time", function(t) walk_arm(t).rotate[2].time = 0 end,
    "x.json: animations.walk.bones.arm.rotate[2]: time 0 is not after the previous key's 0" },
  { "a negative time", function(t) walk_arm(t).rotate[1].time = -1 end,
    "x.json: animations.walk.bones.arm.rotate[1]: time must be >= 0, got -1" },
  { "a rotate curve of 8 numbers", function(t) walk_arm(t).rotate[1].curve = { 0, 0, 1, 1, 0, 0, 1, 1 } end,
    'x.json: animations.walk.bones.arm.rotate[1]: curve must be "stepped" or 4 numbers (4 for each of 1 values), '
      .. "got 8 numbers" },
  { "a translate curve of 4 numbers", function(t)
      walk_arm(t).translate = { { x = 1, curve = { 0.25, 0, 0.75, 1 } }, { time = 1 } } end,
    'x.json: animations.walk.bones.arm.translate[1]: curve must be "stepped" or 8 numbers (4 for each of 2 '
      .. "values), got 4 numbers" },
  { "a curve word Spine does not have", function(t) walk_arm(t).rotate[1].curve = "bezier" end,
    'x.json: animations.walk.bones.arm.rotate[1]: curve must be "stepped" or 4 numbers (4 for each of 1 values), '
      .. 'got "bezier"' },
  { "a key value beyond a 32-bit float", function(t) walk_arm(t).rotate[1].value = 1e39 end,
    "x.json: animations.walk.bones.arm.rotate[1]: value 1e+39 is beyond a 32-bit float" },
  { "a timeline with no keys", function(t) walk_arm(t).rotate = {} end,
    "x.json: animations.walk.bones.arm: rotate has no keys" },
  { "a bone timeline Spine does not have", function(t) walk_arm(t).rotat = walk_arm(t).rotate end,
    'x.json: animations.walk.bones.arm: "rotat" is not a bone timeline (rotate, translate, translatex, translatey, '
      .. "scale, scalex, scaley, shear, shearx, sheary, inherit)" },
  { "keys of a bone that is not one", function(t) t.animations.walk.bones.armx = walk_arm(t) end,
    'x.json: animations.walk.bones: "armx" is not a bone' },
  { "translate and translatex on one bone", function(t)
      walk_arm(t).translate = { { x = 1 } }
      walk_arm(t).translatex = { { value = 1 } }
    end,
    "x.json: animations.walk.bones.arm: translate and translatex both key x" },
  { "rgba and alpha on one slot", function(t)
      t.animations.walk.slots = { body = { rgba = { { color = "ffffffff" } }, alpha = { { value = 1 } } } } end,
    "x.json: animations.walk.slots.body: alpha and rgba both key alpha" },
  { "an rgba key of 3 digits", function(t) t.animations.walk.slots = { body = { rgba = { { color = "fff" } } } } end,
    'x.json: animations.walk.slots.body.rgba[1]: color must be 8 hexadecimal digits (RRGGBBAA), got "fff"' },
  { "IK keys of a constraint that is not one", function(t) t.animations.walk.ik = { rech = { {} } } end,
    'x.json: animations.walk.ik: "rech" is not an IK constraint' },
  { "deform keys of an attachment that is not one", function(t)
      t.animations.walk.attachments = { default = { body = { bdy = { deform = { {} } } } } } end,
    'x.json: animations.walk.attachments.default.body: "bdy" is not an attachment of slot "body" in skin "default"' },
  { "deform keys longer than the mesh", function(t)
      t.animations.walk.attachments = { default = { body = { body = { deform = {
        { offset = 4, vertices = { 1, 1, 1, 1 } } } } } } } end,
    "x.json: animations.walk.attachments.default.body.body.deform[1]: offset 4 and 4 vertices numbers pass the 6 "
      .. "numbers the attachment deforms" },
  { "a draw order key moving a slot that is not one", function(t)
      t.animations.walk.drawOrder = { { offsets = { { slot = "bdy", offset = 1 } } } } end,
    'x.json: animations.walk.drawOrder[1].offsets[1]: slot "bdy" is not a slot' },
  { "a draw order key moving a slot past the end", function(t)
      t.animations.walk.drawOrder = { { offsets = { { slot = "body", offset = 5 } } } } end,
    'x.json: animations.walk.drawOrder[1].offsets[1]: offset 5 moves slot "body" from 1 to 6, outside the 2 slots' },
  { "an event key of an event not defined", function(t) t.animations.walk.events = { { name = "stp" } } end,
    'x.json: animations.walk.events[1]: event "stp" is not defined in events' },
}

describe("the Spine reader refuses a malformed file", function()
  it("has at least 30 cases", function()
    assert.is_true(#CASES >= 30)
  end)

  it("reads the valid rig the cases break", function()
    assert.is_table(spine.read(base(), "x.json"))
  end)

  for _, case in ipairs(CASES) do
    local what, change, message = case[1], case[2], case[3]
    it("refuses " .. what .. ": " .. message, function()
      local t = base()
      local replaced = change(t)
      if replaced ~= nil then t = replaced end
      local before = deep_copy(t)
      local desc, got = spine.try_read(t, "x.json")
      assert.is_nil(desc)
      assert.are.equal(message, got)
      -- nothing changed in what it was given
      assert.is_nil(rig_helpers.difference(before, t))
    end)
  end

  it("raises the message at the caller's line", function()
    local t = base()
    t.bones[2].parent = "torsox"
    local ok, message = pcall(spine.read, t, "x.json")
    assert.is_false(ok)
    assert.are.equal('x.json: bones[2] "torso": parent "torsox" is not defined earlier', message)
    ok, message = pcall(function()
      local desc = spine.read(t, "x.json")
      return desc
    end)
    assert.is_false(ok)
    assert.matches("rig_spine_spec.lua:%d+: x.json: bones%[2%]", message)
  end)

  it("names a table given with no file name <table>", function()
    local t = base()
    t.skeleton.spine = "3.8.99"
    local _, message = spine.try_read(t)
    assert.are.equal('<table>: skeleton.spine: version "3.8.99" is not supported (ik2d reads Spine 4.2)', message)
  end)

  it("refuses a JSON text with a number beyond the doubles, whichever decoder reads it", function()
    for _, name in ipairs({ "cjson", "dkjson", "vendored" }) do
      local decode = json.decoder(name)
      if decode then
        local t = assert(decode('{"skeleton":{"spine":"4.2.0"},"bones":[{"name":"root","rotation":1e400}]}'))
        local _, message = spine.try_read(t, "x.json")
        assert.are.equal('x.json: bones[1] "root": rotation must be finite, got inf', message)
      end
    end
  end)

  it("takes a JSON null as an absent field and refuses one where a value is needed", function()
    local _, message = source.describe('{"skeleton":{"spine":"4.2.0"},"bones":[{"name":"root","x":null},'
                                       .. '{"name":null}]}')
    assert.are.equal("<json text>: bones[2]: name is missing", message)
  end)
end)

-- The same files through ik2d.rig.load, as a game loads them: as a file
-- on disk (the cases JSON can write: not the infinite number) and as a
-- decoded table.  Each raises the reader's message at the caller's line,
-- leaves what it was given as it was and makes no core object.
describe("ik2d.rig.load refuses a malformed file", function()
  local ik2d = require "ik2d"
  local dkjson = require "ik2d.vendor.dkjson"
  local CONSTRUCTORS = { "skeleton", "solver", "transform_constraint", "slots", "rig_targets", "clip" }

  -- load(...) with every core constructor counting its calls: ok,
  -- message, how many core objects it made
  local function counted_load(...)
    local made, saved = 0, {}
    for _, name in ipairs(CONSTRUCTORS) do
      local real = ik2d[name]
      saved[name] = real
      if real then
        ik2d[name] = function(...)
          made = made + 1
          return real(...)
        end
      end
    end
    local args = { ... }
    local ok, message = pcall(function()
      local rig = ik2d.rig.load(args[1], args[2])
      return rig
    end)
    for _, name in ipairs(CONSTRUCTORS) do ik2d[name] = saved[name] end
    return ok, message, made
  end

  -- the base rig with the hand at the arm's tip and of length 4: the
  -- core's two_bone method refuses bones of length 0 (the hand at the
  -- arm's origin, a hand of no length), which the reader takes
  local function loadable_base()
    local t = base()
    t.bones[4].x, t.bones[4].length = 10, 4
    return t
  end

  it("loads a two-bone IK whose child sits at its parent's origin as the parent alone, and says so",
     function()
    if not ik2d.clip then return pending("the pure core has no ik2d.clip yet") end
    local ok, rig = counted_load(base())
    assert.is_true(ok, tostring(rig))
    local listed = false
    for _, line in ipairs(rig.unsupported) do
      if line:find('IK "reach": its child bone sits at its parent\'s origin', 1, true) then listed = true end
    end
    assert.is_true(listed)
    assert.are.equal(1, #rig.solvers.reach:chain())
  end)

  it("makes the core objects of the valid rig the cases break", function()
    if not ik2d.clip then return pending("the pure core has no ik2d.clip yet") end
    local ok, result, made = counted_load(loadable_base())
    assert.is_true(ok, tostring(result))
    assert.is_true(made > 0)
  end)

  local folder = os.tmpname()
  os.remove(folder)
  local path = folder .. "/x.json"
  local in_files, in_tables = 0, 0
  setup(function() assert(os.execute("mkdir -p '" .. folder .. "'")) end)
  teardown(function()
    os.remove(path)
    os.remove(folder)
  end)

  for _, case in ipairs(CASES) do
    local what, change, message = case[1], case[2], case[3]
    local t = loadable_base()
    local replaced = change(t)
    if replaced == nil then
      in_tables = in_tables + 1
      it("refuses, as a table, " .. what, function()
        local before = deep_copy(t)
        local ok, got, made = counted_load(t, { format = "spine" })
        assert.is_false(ok)
        local want = "<table>" .. message:sub(#"x.json" + 1)
        -- at the caller's line: the line in counted_load
        assert.are.equal(want, got:match("^[^:]*rig_spine_spec%.lua:%d+: (.*)$"))
        assert.are.equal(0, made)
        assert.is_nil(rig_helpers.difference(before, t))
      end)
      local text = pcall(dkjson.encode, t) and dkjson.encode(t)
      -- (JSON has no infinity: dkjson writes it null)
      if text and not text:find("null") then
        in_files = in_files + 1
        it("refuses, as a file, " .. what, function()
          local f = assert(io.open(path, "wb"))
          f:write(text)
          f:close()
          local ok, got, made = counted_load(path, { format = "spine" })
          assert.is_false(ok)
          assert.are.equal(path .. message:sub(#"x.json" + 1),
            got:match("^[^:]*rig_spine_spec%.lua:%d+: (.*)$"))
          assert.are.equal(0, made)
        end)
      end
    end
  end

  it("has at least 30 distinct malformed files each way", function()
    assert.is_true(in_tables >= 30, "tables: " .. in_tables)
    assert.is_true(in_files >= 30, "files: " .. in_files)
  end)
end)
