-- Bad skeleton input: every mistake a user can make in a
-- skeleton's definition or a call raises "bad argument #N to 'name'
-- (...)" naming the bone and the problem, and a failed call changes
-- nothing.  Generated: every method taking a bone × nil, a table, a
-- boolean, NaN, +-inf, a float, 0, an index past the end and an unknown
-- name; every number argument × nil, a table, a non-numeric string, NaN,
-- +-inf; every bone field × the values that field refuses.  On LuaJIT
-- through the FFI methods and the classic ones.

local ik2d = require "ik2d"
local helpers = require "spec.helpers"

local nan, inf = 0 / 0, math.huge

local function character()
  return ik2d.skeleton{ x = 400, y = 300,
    { name = "hip", length = 0 },
    { name = "spine", parent = "hip", length = 40, angle = -1.57 },
    { name = "chest", parent = "spine", length = 30 },
    { name = "arm_l", parent = "chest", length = 30, angle = 2.0, min = -1, max = 2 },
    { name = "hand_l", parent = "arm_l", length = 25, x = 30, y = 0 },
    { name = "head", parent = "chest", length = 12, inherit = "position" },
  }
end

-- every observable value
local function state(sk)
  local s = { flip = sk:flip(), base = { sk:base() }, t = sk:transforms() }
  for i = 1, #sk do
    s[i] = { sk:length(i), sk:rest(i), sk:pose(i), sk:angle(i), sk:constraint(i) or false }
  end
  return s
end

-- a bone argument: what each value must say
local BONE_VALUES = {
  { "nil", nil, "bone name or index expected, got nil" },
  { "a table", {}, "bone name or index expected, got table" },
  { "a boolean", true, "bone name or index expected, got boolean" },
  { "nan", nan, "bone index must be a whole number" },
  { "+inf", inf, "bone index must be a whole number" },
  { "-inf", -inf, "bone index must be a whole number" },
  { "a float", 1.5, "bone index must be a whole number" },
  { "zero", 0, "bone index 0 out of range (1..6)" },
  { "an index past the end", 7, "bone index 7 out of range (1..6)" },
  { "an unknown name", "tail", 'unknown bone "tail"' },
}

-- a number argument
local NUMBER_VALUES = {
  { "nil", nil, "number expected, got nil" },
  { "a table", {}, "number expected, got table" },
  { "a word", "x", "number expected, got string" },
  { "nan", nan, "finite" },
  { "+inf", inf, "finite" },
  { "-inf", -inf, "finite" },
}

-- method, valid arguments, which are bones, which numbers (and the
-- extra words a bad number's message has: the bone's name)
local METHODS = {
  { "set_pose", { "arm_l", 0.5 }, bones = { 1 }, numbers = { 2 }, named = 'bone "arm_l": ' },
  { "set_length", { "arm_l", 20 }, bones = { 1 }, numbers = { 2 }, named = 'bone "arm_l": ' },
  { "set_rest", { "arm_l", 0.5 }, bones = { 1 }, numbers = { 2 }, named = 'bone "arm_l": ' },
  { "set_base", { 1, 2, 0.5 }, numbers = { 1, 2, 3 } },
  { "pose", { "arm_l" }, bones = { 1 } }, { "angle", { "arm_l" }, bones = { 1 } },
  { "length", { "arm_l" }, bones = { 1 } }, { "rest", { "arm_l" }, bones = { 1 } },
  { "world", { "arm_l" }, bones = { 1 } }, { "tip", { "arm_l" }, bones = { 1 } },
  { "origin", { "arm_l" }, bones = { 1 } }, { "parent", { "arm_l" }, bones = { 1 } },
  { "inherit", { "arm_l" }, bones = { 1 } }, { "name", { 2 }, bones = { 1 } },
  { "at_tip", { "arm_l" }, bones = { 1 } },
  { "constraint", { "arm_l" }, bones = { 1 } },
  { "set_constraint", { "arm_l", nil }, bones = { 1 } },
  { "chain", { "spine", "hand_l" }, bones = { 1, 2 } },
}

local function call(sk, name, args, n)
  -- a colon call, not a tail call: arguments numbered as a game sees them
  local f = assert((loadstring or load)(("local sk, a1, a2, a3 = ...\nlocal r = { sk:%s(%s) }\nreturn r")
    :format(name, table.concat({ "a1", "a2", "a3" }, ", ", 1, n))))
  return pcall(f, sk, args[1], args[2], args[3])
end

local function matrix()
  for _, m in ipairs(METHODS) do
    local name, valid = m[1], m[2]
    local n = math.max(#valid, name == "set_constraint" and 2 or 0, 1)
    -- argument #pos given value[2] must raise with value[3] (and the
    -- bone's name, for a number that is not finite where a bone's value goes)
    local function cell(pos, value)
      it(("argument #%d given %s raises, changing nothing"):format(pos, value[1]), function()
        local sk = character()
        local before = state(sk)
        local args = { valid[1], valid[2], valid[3] }
        args[pos] = value[2]
        local ok, msg = call(sk, name, args, n)
        assert.is_false(ok)
        local want = { ("bad argument #%d to '%s' ("):format(pos, name), value[3] }
        if m.named and value[3] == "finite" then want[3] = m.named end
        helpers.check_message(tostring(msg), want)
        assert.are.same(before, state(sk))
      end)
    end
    describe("sk:" .. name, function()
      for _, pos in ipairs(m.bones or {}) do
        for _, value in ipairs(BONE_VALUES) do cell(pos, value) end
      end
      for _, pos in ipairs(m.numbers or {}) do
        for _, value in ipairs(NUMBER_VALUES) do
          -- set_base's angle may be left out
          if not (name == "set_base" and pos == 3 and value[2] == nil) then cell(pos, value) end
        end
      end
    end)
  end

  it("says 'got no value' for a bone left out, in every method taking one first", function()
    for _, m in ipairs(METHODS) do
      if m.bones and m.bones[1] == 1 then
        local ok, msg = call(character(), m[1], {}, 0)
        assert.is_false(ok, m[1])
        helpers.check_message(tostring(msg), { ("bad argument #1 to '%s' ("):format(m[1]),
                                               "bone name or index expected, got no value" })
      end
    end
  end)

  it("refuses a length below 0, naming the bone", function()
    local sk = character()
    local before = state(sk)
    local ok, msg = call(sk, "set_length", { "arm_l", -1 }, 2)
    assert.is_false(ok)
    helpers.check_message(tostring(msg), { "bad argument #2 to 'set_length' (",
                                           'bone "arm_l": length must be >= 0 and finite' })
    assert.are.same(before, state(sk))
  end)

  it("refuses a world-space limit on a bone, changing nothing", function()
    local sk = character()
    local before = state(sk)
    local world = ik2d.constraint{ min = -1, max = 1, space = "world" }
    local ok, msg = call(sk, "set_constraint", { "arm_l", world }, 2)
    assert.is_false(ok)
    helpers.check_message(tostring(msg), { "'set_constraint' (", "limits are in parent space" })
    assert.are.same(before, state(sk))
  end)

  it("refuses a self that is not a skeleton", function()
    local methods = debug.getmetatable(character()).__index
    for name, f in pairs(methods) do
      local ok, msg = pcall(f, {}, 1, 1)
      assert.is_false(ok, name)
      helpers.check_message(tostring(msg), { "ik2d.Skeleton expected" })
    end
  end)
end

describe("bad skeleton input", function()
  helpers.on_both_paths(ik2d, matrix)

  describe("ik2d.skeleton{...}", function()
    -- each: bones (after a valid "root" bone), the words the error must have
    local BAD = {
      { "an unknown parent", { name = "b", parent = "arm_x", length = 1 },
        'bone "b": parent "arm_x" is not defined earlier' },
      { "a parent that is not a name", { name = "b", parent = 1, length = 1 },
        'bone "b": parent must be a bone name, got number' },
      { "a bone that is its own parent", { name = "b", parent = "b", length = 1 },
        'bone "b": parent "b" is not defined earlier' },
      { "a duplicate name", { name = "root", length = 1 }, 'bone 2: duplicate name "root" (bone 1 has it)' },
      { "no name", { length = 1 }, "bone 2: name must be a string, got nil" },
      { "a name that is a number", { name = 7, length = 1 }, "bone 2: name must be a string, got number" },
      { "no length", { name = "b" }, 'bone "b": length: number expected, got nil' },
      { "a length that is a word", { name = "b", length = "long" }, 'bone "b": length: number expected, got string' },
      { "a negative length", { name = "b", length = -1 }, 'bone "b": length must be >= 0 and finite' },
      { "a NaN length", { name = "b", length = nan }, 'bone "b": length must be >= 0 and finite' },
      { "an infinite length", { name = "b", length = inf }, 'bone "b": length must be >= 0 and finite' },
      { "a NaN angle", { name = "b", length = 1, angle = nan }, 'bone "b": rest angle must be finite' },
      { "a NaN x", { name = "b", length = 1, x = nan }, 'bone "b": origin x must be finite' },
      { "an infinite y", { name = "b", length = 1, y = -inf }, 'bone "b": origin y must be finite' },
      { "an x that is a word", { name = "b", length = 1, x = "left" }, 'bone "b": x: number expected, got string' },
      { "min without max", { name = "b", length = 1, min = -1 }, 'bone "b": min and max go together' },
      { "min > max", { name = "b", length = 1, min = 1, max = -1 }, 'bone "b": min > max' },
      { "a NaN limit", { name = "b", length = 1, min = nan, max = 1 }, 'bone "b": min must be finite' },
      { "degrees for radians", { name = "b", length = 1, min = -90, max = 90 }, 'bone "b": min must be within' },
      { "an invert that is not a boolean", { name = "b", length = 1, min = -1, max = 1, invert = 1 },
        'bone "b": invert must be true or false' },
      { "an unknown inherit", { name = "b", length = 1, inherit = "rotation" },
        'bone "b": inherit must be "all", "position", "no_rotation_or_reflection", "no_scale" or '
          .. '"no_scale_or_reflection"' },
      { "an unknown field", { name = "b", length = 1, lenght = 2 }, "lenght" },
      { "a world-space limit", { name = "b", length = 1, min = -1, max = 1, space = "world" },
        'bone "b": a skeleton\'s limits are in parent space' },
      { "a bone that is not a table", "b", "bone 2: table expected, got string" },
    }
    for _, case in ipairs(BAD) do
      it("refuses " .. case[1] .. ", naming the bone", function()
        local msg = helpers.error_of(ik2d.skeleton, { { name = "root", length = 1 }, case[2] })
        helpers.check_message(msg, { "bad argument #1 to 'skeleton' (", case[3] })
      end)
    end

    it("says a parent defined later is not defined earlier, and where it is", function()
      local msg = helpers.error_of(ik2d.skeleton, { { name = "root", length = 1 },
        { name = "hand", parent = "arm", length = 1 }, { name = "arm", parent = "root", length = 1 } })
      helpers.check_message(msg, { 'bone "hand": parent "arm" is not defined earlier (it is bone 3' })
    end)

    it("refuses a bad base, flip, key or bone count", function()
      local function sk(t) return function() ik2d.skeleton(t) end end
      for _, case in ipairs{
        { sk{ x = nan, { name = "a", length = 1 } }, "base x must be finite" },
        { sk{ y = inf, { name = "a", length = 1 } }, "base y must be finite" },
        { sk{ angle = nan, { name = "a", length = 1 } }, "base angle must be finite" },
        { sk{ x = "x", { name = "a", length = 1 } }, "x: number expected, got string" },
        { sk{ flip = 1, { name = "a", length = 1 } }, "flip must be true or false" },
        { sk{ z = 1, { name = "a", length = 1 } }, "unknown field 'z'" },
        { sk{}, "a skeleton needs 1 to 256 bones" },
        { function() ik2d.skeleton("bones") end, "table expected, got string" },
        { sk{ { name = "a", length = 1e308 }, { name = "b", parent = "a", length = 1e308 } },
          "the bone lengths add up beyond the largest number" },
      } do
        helpers.check_message(helpers.error_of(case[1]), { "bad argument #1 to 'skeleton' (", case[2] })
      end
    end)
  end)
end)
