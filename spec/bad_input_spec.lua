-- The bad-input matrix, generated rather than written
-- case by case: every public function and method (found by walking the
-- method tables, so a new method without a row here fails the spec),
-- each argument given nil, a wrong type, NaN, +inf, -inf, a negative
-- number, zero, a huge number, a float where an integer goes and an
-- out-of-range index; and every field of the tables that ik2d.chain,
-- ik2d.constraint, ik2d.solver and set_options read, the same way.
--
-- Each cell is either a documented clamp (checked: the value it became)
-- or a Lua error "bad argument #N to 'name' (problem)", numbered as
-- luaL_argerror numbers it (a call written with a colon does not count
-- self), naming the function and saying what was wrong.  After an error
-- every object is unchanged and still solves.  On LuaJIT the matrix runs
-- twice: through the FFI methods and through the classic C API.

local ik2d = require "ik2d"
local helpers = require "spec.helpers"

local nan, inf = 0 / 0, math.huge
local abs = math.abs
local unpack = table.unpack or unpack

-- ------------------------------------------------------------------
-- the values
-- ------------------------------------------------------------------

-- "oor" is filled in per argument: one past the last valid index.
local VALUES = {
  { "nil", nil },
  { "a table", "new table" },  -- a fresh {} for every cell
  { "a string", "x" },
  { "a boolean", true },
  { "nan", nan },
  { "+inf", inf },
  { "-inf", -inf },
  { "a negative number", -1 },
  { "zero", 0 },
  { "a huge number", 1e300 },
  { "a float where an integer goes", 1.5 },
  { "an out-of-range index", "oor" },
}

local function type_name(v)
  if type(v) == "userdata" then
    local mt = debug.getmetatable(v)
    return mt and mt.__name or "userdata"
  end
  return type(v)
end

-- ------------------------------------------------------------------
-- argument kinds: what each value must do there
-- ------------------------------------------------------------------
-- kind(value, label, ctx) returns either
--   { error = { expectations for helpers.check_message } }
-- or
--   { ok = true, check = function(fx, result) ... end }  (check optional)
-- ctx.oor is the out-of-range index for index kinds.

local function err(...) return { error = { ... } } end
-- the binding reports "min > max" on min, whichever of the two is off
local function err_on(argn, ...) return { error = { ... }, argn = argn } end
local function ok(check) return { ok = true, check = check } end

local FINITE = { any = { "finite" } }

local function number_kind(opts)
  opts = opts or {}
  return function(v, label)
    if v == nil then
      if opts.optional then return ok(opts.on_nil) end
      return err("number expected, got nil")
    end
    if type(v) ~= "number" then return err("number expected, got " .. type_name(v)) end
    if v ~= v then return opts.on_nan and opts.on_nan(v) or err(FINITE) end
    if v == inf or v == -inf then
      return opts.on_inf and opts.on_inf(v) or err(FINITE)
    end
    if opts.check_value then return opts.check_value(v, label) end
    return ok(opts.on_ok and function(fx, r) opts.on_ok(fx, r, v) end)
  end
end

-- A 1-based index into count things (count(fx) + extra allowed).
local function index_kind(what)
  return function(v)
    if v == nil then return err("number expected, got nil") end
    if type(v) ~= "number" then return err("number expected, got " .. type_name(v)) end
    if v ~= v or v == inf or v == -inf or v ~= math.floor(v) or abs(v) > 2 ^ 31 then
      return err(what .. " must be a whole number")
    end
    return err(("%s %d out of range"):format(what, v))
  end
end

-- set_weight: clamped into [0, 1]; NaN is an error (API.md).  The
-- weight read back from fx[owner] (a solver or a spring).
local function weight_kind_of(owner)
  return function(v)
    if v == nil then return err("weight: number expected, got nil") end
    if type(v) ~= "number" then return err("weight: number expected, got " .. type_name(v)) end
    if v ~= v then return err("nan") end
    local want = v < 0 and 0 or v > 1 and 1 or v
    return ok(function(fx) assert.are.equal(want, fx[owner]:weight()) end)
  end
end
local weight_kind = weight_kind_of("s")

-- spring:update(dt): seconds >= 0, math.huge the longest step; a
-- negative or NaN dt is an error.
local function dt_kind(v)
  if v == nil then return err("number expected, got nil") end
  if type(v) ~= "number" then return err("number expected, got " .. type_name(v)) end
  if v ~= v or v < 0 then
    return err(("dt must be >= 0 (seconds), got %s"):format(v ~= v and "nan" or ("%.14g"):format(v)))
  end
  return ok()
end

local function iterations_kind(v)
  if v == nil then return err("iterations: number expected, got nil") end
  if type(v) ~= "number" then return err("iterations: number expected, got " .. type_name(v)) end
  if v ~= v or v == inf or v == -inf or v ~= math.floor(v) or v > 2 ^ 31 then
    return err("iterations must be a whole number")
  end
  if v < 1 then return err("iterations must be >= 1") end
  return ok(function(fx) assert.are.equal(v, fx.s:iterations()) end)
end

local function tolerance_kind(v)
  if v == nil then return err("tolerance: number expected, got nil") end
  if type(v) ~= "number" then return err("tolerance: number expected, got " .. type_name(v)) end
  if v ~= v or v == inf or v == -inf then return err(FINITE) end
  if v < 0 then return err("tolerance must be >= 0") end
  return ok(function(fx) assert.are.equal(v, fx.s:tolerance()) end)
end

local function constraint_or_nil_kind(v)
  if v == nil then
    return ok(function(fx) assert.is_nil(fx.arm:constraint(1)) end)
  end
  return err("ik2d.Constraint expected, got " .. type_name(v))
end

local function table_or_nil_kind(v)
  if v == nil then return ok(function(_, r) assert.are.equal("table", type(r[1])) end) end
  if type(v) == "table" then return ok(function(_, r) assert.are.equal(v, r[1]) end) end
  return err("table expected, got " .. type_name(v))
end

local function table_kind(v)
  if type(v) == "table" then return ok() end
  return err("table expected, got " .. type_name(v))
end

-- a table or nothing, filled (not returned)
local function optional_table_kind(v)
  if v == nil or type(v) == "table" then return ok() end
  return err("table expected, got " .. type_name(v))
end

-- a group's targets, x and y of every member: an empty table has too few
-- (the items themselves: spec/group_spec.lua)
local function numbers_kind(count)
  return function(v)
    if type(v) == "table" and v[1] == nil then return err(count .. " numbers expected") end
    return table_kind(v)
  end
end
local targets_kind = numbers_kind(4)

-- ik2d.use_isa: an instruction set's name, or none (the one in use)
local ISA_NAMES = { auto = true, scalar = true, sse2 = true, avx2 = true, avx512 = true }
local function isa_kind(v)
  if v == nil or ISA_NAMES[v] then return ok() end
  return err('instruction set must be "auto", "scalar"')
end

local function options_or_nil_kind(v)
  if v == nil then return ok() end
  return table_kind(v)
end

-- a bone of fx.sk (3 bones): a name or a 1-based index
local function skeleton_bone_kind(v)
  if v == nil then return err("bone name or index expected, got nil") end
  if type(v) == "string" then return err('unknown bone "' .. v .. '"') end
  if type(v) ~= "number" then return err("bone name or index expected, got " .. type_name(v)) end
  if v ~= v or v == inf or v == -inf or v ~= math.floor(v) or abs(v) > 2 ^ 31 then
    return err("bone index must be a whole number")
  end
  if v < 1 or v > 3 then return err(("bone index %d out of range (1..3)"):format(v)) end
  return ok(function(fx) assert.are.equal(fx.sk:name(v), select(2, fx.s:target_bone())) end)
end

-- dx, dy of set_target_bone: optional, finite
local function offset_kind(which, at)
  return number_kind{ optional = true,
    on_nan = function() return err("target " .. which .. " must be finite") end,
    on_inf = function() return err("target " .. which .. " must be finite") end,
    on_ok = function(fx, _, v) assert.are.equal(v, select(at, fx.s:target_bone())) end }
end

-- spring:set_colliders: a list (an empty one clears), or nil to clear
local function colliders_kind(v)
  if v == nil or type(v) == "table" then
    return ok(function(fx) assert.are.same({}, fx.sp:colliders()) end)
  end
  return err("table expected, got " .. type_name(v))
end

local function userdata_kind(expected)
  return function(v)
    return err(expected .. " expected, got " .. type_name(v))
  end
end

-- set_flip takes true or false (as the constructor's flip field does):
-- 0 is true in Lua, and a flip that silently turns on is a trap.
local function boolean_kind(v)
  if type(v) ~= "boolean" then
    return err("flip must be true or false, got " .. type_name(v))
  end
  return ok(function(fx) assert.are.equal(v, fx.arm:flip()) end)
end

-- ------------------------------------------------------------------
-- fixture, snapshots, "still works"
-- ------------------------------------------------------------------

local function fixture()
  local arm = ik2d.chain{ x = 1, y = 2, angle = 0.1,
    { length = 60, angle = 0.2 },
    { length = 50, angle = 0.3, min = -0.17, max = 2.27 },
    { length = 20 } }
  arm:set_pose(1, 0.25)
  local s = ik2d.solver(arm, { iterations = 20 })
  s:set_target(40, 70)
  s:solve()
  local arm2 = ik2d.chain{ { length = 3 }, { length = 2 } }
  local s2 = ik2d.solver(arm2, { method = "two_bone" })
  local fx = { arm = arm, s = s, c = arm:constraint(2), arm2 = arm2, s2 = s2,
               other = ik2d.constraint{ min = 0, max = 1 } }
  -- a skeleton for targets on bones
  fx.sk = ik2d.skeleton{ x = 50, y = 40, { name = "a", length = 10 },
                         { name = "b", parent = "a", length = 10 }, { name = "c", parent = "b", length = 5 } }
  if ik2d.group then
    fx.g = ik2d.group{ s, s2 }
    -- a group of skeletons: one of 2 bones with a solver on both
    fx.sk2 = ik2d.skeleton{ x = 0, y = 0, { name = "a", length = 10 },
                            { name = "b", parent = "a", length = 10, angle = 0.5 } }
    fx.s3 = ik2d.solver(fx.sk2:chain("a", "b"))
    fx.gs = ik2d.group{ fx.sk2 }
  end
  if ik2d.slots then
    -- a rig's slots on a skeleton of their own: a deformed mesh shown, a
    -- region not; a clip turning a bone and deforming the mesh
    fx.rsk = ik2d.skeleton{ x = 5, y = 5, { name = "r1", length = 10 },
                            { name = "r2", parent = "r1", length = 5, angle = 0.5 } }
    fx.slots = ik2d.slots(fx.rsk, { slots = { { bone = 1, attachment = 1 }, { bone = 2 } },
      attachments = {
        { kind = "mesh", vertices = { 0, 0, 4, 0, 0, 4 }, uvs = { 0, 0, 1, 0, 0, 1 },
          triangles = { 1, 2, 3 }, deform = 1 },
        { kind = "region", vertices = { 0, 0, 0, 1, 1, 1, 1, 0 }, uvs = { 0, 1, 0, 0, 1, 0, 1, 1 } },
      } })
    fx.targets = ik2d.rig_targets{ skeleton = fx.rsk, slots = fx.slots }
    fx.clip = ik2d.clip(fx.targets, { duration = 1, timelines = {
      { channel = "rotate", target = 1, times = { 0, 1 }, values = { 0, 1 } },
      { channel = "deform", target = 1, times = { 0 }, values = { 1, 0, 0, 0, 0, 0 } } } })
    fx.clip:apply(fx.targets, 0.5)
    fx.rsk:solve()
  end
  if ik2d.spring then
    -- a tail of its own, swinging
    fx.tail = ik2d.chain{ x = 5, y = 5, angle = 1.2, { length = 10 },
      { length = 8, min = -0.6, max = 0.6 }, { length = 6 } }
    fx.sp = ik2d.spring(fx.tail, { gravity = { 0, 200 }, damping = 3 })
    -- a collider far away: a refused call keeps it
    fx.sp:set_colliders{ { x = 500, y = 500, radius = 2 } }
    fx.tail:set_base(5, 5, 0.2)
    fx.sp:update(1 / 30)
  end
  return fx
end

local function snapshot(fx)
  local min, max, invert = fx.c:limits()
  local snap = {
    arm = helpers.chain_state(fx.arm), arm2 = helpers.chain_state(fx.arm2),
    s = helpers.solver_state(fx.s), s2 = helpers.solver_state(fx.s2),
    s_more = { fx.s:method(), fx.s:result() }, s2_more = { fx.s2:method(), fx.s2:result() },
    c = { min, max, invert },
  }
  if fx.g then snap.g = { #fx.g, fx.g:joints() } end
  if fx.gs then snap.gs = { #fx.gs, fx.gs:joints(), fx.gs:transforms(), fx.sk2:base() } end
  if fx.slots then
    local slots = fx.slots
    snap.slots = { slots:attachment(1), slots:attachment(2), { slots:color(1) }, { slots:color(2) },
                   slots:draw_order(), slots:vertices(1), slots:deform(1), fx.rsk:matrices() }
  end
  if fx.sp then
    snap.tail = helpers.chain_state(fx.tail)
    snap.sp = { fx.sp:options(), fx.sp:velocity(1), fx.sp:velocity(2), fx.sp:velocity(3),
                fx.sp:colliders() }
  end
  return snap
end

-- After a failed call: everything solves and keeps the invariants.
local function still_works(fx)
  local s, arm = fx.s, fx.arm
  -- accepted but extreme values (a base at 1e300, a pose of 1e300 rad)
  -- are legal; put the chain back somewhere a target is reachable
  arm:reset()
  arm:set_base(1, 2, 0.1)
  s:set_iterations(100)
  s:set_tolerance(0.01)
  s:set_weight(1)
  -- an aim from 1e300 along the bone is legal too: the tip's solve here
  s:clear_aim()
  fx.c:set_limits(-0.17, 2.27)
  s:set_target(30, 80)
  local reached, distance = s:solve()
  assert(reached, "solve after the error: distance " .. tostring(distance))
  for i = 1, #arm do
    local x, y = arm:joint(i + 1)
    assert(x == x and y == y and abs(x) < inf and abs(y) < inf, "joint not finite")
  end
  assert(helpers.max_violation(arm) <= 1e-9, "limit broken after the error")
  fx.c:set_limits(-0.5, 0.5)
  local min, max = fx.c:limits()
  assert.are.same({ -0.5, 0.5 }, { min, max })
  if fx.g then assert.is_true(fx.g:solve() >= 0) end
  if fx.sp then
    fx.sp:set_options{ stiffness = 100, damping = 3, mass = 1, weight = 1, gravity = { 0, 200 } }
    for _ = 1, 10 do fx.sp:update(1 / 60) end
    for i = 1, #fx.tail + 1 do
      local x, y = fx.tail:joint(i)
      assert(x == x and y == y and abs(x) < inf and abs(y) < inf, "spring joint not finite")
    end
    assert(helpers.max_violation(fx.tail) <= 1e-9, "spring broke a limit after the error")
  end
end

-- ------------------------------------------------------------------
-- the public API, as rows of argument kinds
-- ------------------------------------------------------------------
-- Each method row: { kinds of the arguments after self, valid = {...}
-- valid values, oor = function(fx) -> out-of-range index per argument }

local BONE = index_kind("bone index")
local MEMBER = index_kind("solver index")
local SKELETON = index_kind("skeleton index")

local function bone_oor(fx) return #fx.arm + 1 end
local function tail_oor(fx) return #fx.tail + 1 end
local function joint_oor(fx) return #fx.arm + 2 end

local METHODS = {
  Chain = {
    set_base = { args = { number_kind(), number_kind(),
                          number_kind{ optional = true } }, valid = { 5, 6, 0.5 } },
    base = { args = {} },
    set_flip = { args = { boolean_kind }, valid = { true } },
    flip = { args = {} },
    set_pose = { args = { BONE, number_kind() }, valid = { 1, 0.5 }, oor = { bone_oor } },
    pose = { args = { BONE }, valid = { 1 }, oor = { bone_oor } },
    angle = { args = { BONE }, valid = { 1 }, oor = { bone_oor } },
    world_angle = { args = { BONE }, valid = { 1 }, oor = { bone_oor } },
    length = { args = { BONE }, valid = { 1 }, oor = { bone_oor } },
    rest = { args = { BONE }, valid = { 1 }, oor = { bone_oor } },
    reach = { args = {} },
    scale = { args = {} },
    uniform = { args = {} },
    joint = { args = { index_kind("joint index") }, valid = { 1 }, oor = { joint_oor } },
    tip = { args = {} },
    joints = { args = { table_or_nil_kind }, valid = { {} } },
    reset = { args = {} },
    set_constraint = { args = { BONE, constraint_or_nil_kind }, valid = { 1, "other" },
                       oor = { bone_oor } },
    constraint = { args = { BONE }, valid = { 1 }, oor = { bone_oor } },
    skeleton = { args = {} },
    -- the edit is checked, then undone: still_works solves the arm as made
    set_length = { args = { BONE, number_kind{ check_value = function(v)
      if v <= 0 then return err("length must be > 0") end
      return ok(function(fx)
        assert.are.equal(v, fx.arm:length(1))
        assert.are.equal(v + 70, fx.arm:reach())
        fx.arm:set_length(1, 60)
      end)
    end } }, valid = { 1, 5 }, oor = { bone_oor } },
    set_rest = { args = { BONE, number_kind{ on_ok = function(fx, _, v)
      assert.are.equal(v, fx.arm:rest(1))
      fx.arm:set_rest(1, 0.2)
    end } }, valid = { 1, 0.5 }, oor = { bone_oor } },
  },
  Constraint = {
    set_limits = { args = { number_kind(), number_kind() }, valid = { -1, 1 } },
    limits = { args = {} },
    invert = { args = {} },
    space = { args = {} },
    arc = { args = {} },
  },
  Solver = {
    chain = { args = {} },
    set_target = { args = { number_kind(), number_kind() }, valid = { 10, 20 } },
    target = { args = {} },
    set_weight = { args = { weight_kind }, valid = { 0.5 } },
    weight = { args = {} },
    set_iterations = { args = { iterations_kind }, valid = { 30 } },
    iterations = { args = {} },
    set_tolerance = { args = { tolerance_kind }, valid = { 0.1 } },
    tolerance = { args = {} },
    set_options = { args = { table_kind }, valid = { {} } },
    options = { args = { table_or_nil_kind }, valid = { {} } },
    method = { args = {} },
    set_tip_angle = { args = { number_kind(), number_kind{ optional = true,
      on_nan = function() return err("tip weight must be within [0, 1]") end,
      on_inf = function() return err("tip weight must be within [0, 1]") end,
      check_value = function(v)
        if v < 0 or v > 1 then return err("tip weight must be within [0, 1]") end
        return ok(function(fx) assert.are.equal(v, select(2, fx.s:tip_angle())) end)
      end } }, valid = { 0.5, 1 } },
    tip_angle = { args = {} },
    clear_tip_angle = { args = {} },
    set_pole = { args = { number_kind(), number_kind() }, valid = { 10, 20 } },
    pole = { args = {} },
    clear_pole = { args = {} },
    set_target_bone = { args = { userdata_kind("ik2d.Skeleton"), skeleton_bone_kind,
                                 offset_kind("x", 3), offset_kind("y", 4) },
                        valid = { "sk", 2, 0.5, -0.5 }, oor = { nil, function() return 4 end } },
    target_bone = { args = {} },
    clear_target_bone = { args = {} },
    set_aim = { args = { number_kind(), number_kind(), number_kind() }, valid = { 1, 0, 0 } },
    aim = { args = {} },
    clear_aim = { args = {} },
    forget = { args = {} },
    solve = { args = {} },
    result = { args = {} },
  },
  Group = {
    solver = { args = { MEMBER }, valid = { 1 }, oor = { function(fx) return #fx.g + 1 end } },
    solve = { args = {} },
    joints = { args = { table_or_nil_kind }, valid = { {} } },
    set_targets = { args = { targets_kind }, valid = { { 1, 2, 3, 4 } } },
    joint_offset = { args = { MEMBER }, valid = { 1 }, oor = { function(fx) return #fx.g + 1 end } },
    -- no arguments: bad selves only (without LuaJIT's FFI every call
    -- raises, spec/batch_spec.lua)
    target_array = { args = {} },
    joint_array = { args = {} },
    solvers = { args = { table_or_nil_kind }, valid = { {} } },
    set_tip_angles = { args = { numbers_kind(2) }, valid = { { 0.5, 0 } } },
    set_poles = { args = { targets_kind }, valid = { { 1, 2, 3, 4 } } },
    tip_angle_array = { args = {} },
    pole_array = { args = {} },
    -- a group of skeletons' own (below): bad selves only here
    skeleton = { args = {} },
    set_bases = { args = {} },
    transforms = { args = {} },
    transform_offset = { args = {} },
    base_array = { args = {} },
    transform_array = { args = {} },
  },
  -- a group of skeletons (fx.gs: one skeleton of 2 bones, one solver)
  SkeletonGroup = {
    solver = { args = { MEMBER }, valid = { 1 }, oor = { function() return 2 end } },
    solvers = { args = { table_or_nil_kind }, valid = { {} } },
    skeleton = { args = { SKELETON }, valid = { 1 }, oor = { function() return 2 end } },
    solve = { args = {} },
    joints = { args = { table_or_nil_kind }, valid = { {} } },
    transforms = { args = { table_or_nil_kind }, valid = { {} } },
    set_targets = { args = { numbers_kind(2) }, valid = { { 1, 2 } } },
    set_tip_angles = { args = { numbers_kind(1) }, valid = { { 0.5 } } },
    set_poles = { args = { numbers_kind(2) }, valid = { { 1, 2 } } },
    set_bases = { args = { numbers_kind(3) }, valid = { { 1, 2, 0 } } },
    joint_offset = { args = { MEMBER }, valid = { 1 }, oor = { function() return 2 end } },
    transform_offset = { args = { SKELETON }, valid = { 1 }, oor = { function() return 2 end } },
    target_array = { args = {} },
    joint_array = { args = {} },
    tip_angle_array = { args = {} },
    pole_array = { args = {} },
    base_array = { args = {} },
    transform_array = { args = {} },
  },
  Spring = {
    chain = { args = {} },
    update = { args = { dt_kind }, valid = { 1 / 60 } },
    reset = { args = {} },
    set_weight = { args = { weight_kind_of("sp") }, valid = { 0.5 } },
    weight = { args = {} },
    set_gravity = { args = { number_kind(), number_kind() }, valid = { 0, 980 } },
    gravity = { args = {} },
    set_wind = { args = { number_kind(), number_kind() }, valid = { 30, 0 } },
    wind = { args = {} },
    set_colliders = { args = { colliders_kind }, valid = { {} } },
    colliders = { args = { table_or_nil_kind }, valid = { {} } },
    set_options = { args = { table_kind }, valid = { {} } },
    options = { args = { table_or_nil_kind }, valid = { {} } },
    velocity = { args = { BONE }, valid = { 1 }, oor = { tail_oor } },
  },
}

-- a slot or an attachment of fx.slots (2 slots, 2 attachments): the
-- index's name, then how it is out of range
local function slots_index_kind(what)
  return function(v)
    if v == nil then return err(what .. ": number expected, got nil") end
    if type(v) ~= "number" then return err(what .. ": number expected, got " .. type_name(v)) end
    if v ~= v or v == inf or v == -inf or v ~= math.floor(v) or abs(v) > 2 ^ 31 then
      return err(what .. " must be a whole number")
    end
    if v < 1 or v > 2 then return err(("%s index %d out of range (1..2)"):format(what, v)) end
    return ok()
  end
end
local SLOT = slots_index_kind("slot")
local function slots_oor() return 3 end

-- set_attachment's attachment: nil or 0 for none, else one of fx.slots'
local function attachment_kind(v)
  if v == nil then return ok(function(fx) assert.is_nil(fx.slots:attachment(1)) end) end
  if type(v) ~= "number" then return err("attachment: number expected, got " .. type_name(v)) end
  if v ~= v or v == inf or v == -inf or v ~= math.floor(v) or abs(v) > 2 ^ 31 then
    return err("attachment must be a whole number")
  end
  if v < 0 or v > 2 then return err("attachment index out of range") end
  return ok(function(fx)
    local want = v ~= 0 and v or nil
    assert.are.equal(want, fx.slots:attachment(1))
  end)
end

-- a colour's part: any finite number; every refusal on the first part (#2)
local function color_kind(v)
  if v == nil then return err("number expected, got nil") end
  if type(v) ~= "number" then return err("number expected, got " .. type_name(v)) end
  if v ~= v or v == inf or v == -inf then return err_on(2, "colour must be finite") end
  return ok()
end

-- clip:apply's time (finite) and alpha (within [0, 1], default 1)
local function time_kind(v)
  if v == nil then return err("number expected, got nil") end
  if type(v) ~= "number" then return err("number expected, got " .. type_name(v)) end
  if v ~= v or v == inf or v == -inf then return err("time must be finite") end
  return ok()
end
local function alpha_kind(v)
  if v == nil then return ok() end
  if type(v) ~= "number" then return err("number expected, got " .. type_name(v)) end
  if not (v >= 0 and v <= 1) then return err("alpha must be within [0, 1]") end
  return ok()
end

if ik2d.slots then
  METHODS.Slots = {
    to_setup = { args = {} },
    attachment = { args = { SLOT }, valid = { 1 }, oor = { slots_oor } },
    set_attachment = { args = { SLOT, attachment_kind }, valid = { 1, 1 },
                       oor = { slots_oor, slots_oor } },
    color = { args = { SLOT }, valid = { 1 }, oor = { slots_oor } },
    set_color = { args = { SLOT, color_kind, color_kind, color_kind, color_kind },
                  valid = { 1, 0.5, 0.5, 0.5, 1 }, oor = { slots_oor } },
    tint = { args = { SLOT }, valid = { 1 }, oor = { slots_oor } },
    dark = { args = { SLOT }, valid = { 1 }, oor = { slots_oor } },
    draw_order = { args = { table_or_nil_kind }, valid = { {} } },
    deform = { args = { slots_index_kind("attachment"), table_or_nil_kind }, valid = { 1, {} },
               oor = { slots_oor } },
    vertices = { args = { SLOT, table_or_nil_kind }, valid = { 1, {} }, oor = { slots_oor } },
    world_vertices = { args = { table_kind, table_kind, optional_table_kind, optional_table_kind },
                       valid = { {}, {}, {}, {} } },
    skeleton = { args = {} },
  }
  METHODS.Clip = {
    apply = { args = { userdata_kind("ik2d.RigTargets"), time_kind, alpha_kind },
              valid = { "targets", 0.5, 1 } },
    duration = { args = {} },
  }
end

-- set_limits: a second argument below the first is "min > max"; limits
-- beyond 2 pi look like degrees and are refused (ik2d uses radians).
local function limit_value(which, v)
  if abs(v) > 2 * math.pi then return err(which .. " must be within", "radians", "math.rad") end
  if which == "max" and v < -1 then return err_on(1, "min > max") end
  if which == "min" and v > 1 then return err_on(1, "min > max") end
  return ok()
end
-- a group of skeletons' matrices, where this backend has the bone model's
-- calls (the C binding's come with its transform constraints)
if ik2d.transform_constraint then
  METHODS.Group.matrices = { args = {} }
  METHODS.Group.matrix_array = { args = {} }
  METHODS.SkeletonGroup.matrices = { args = { table_or_nil_kind }, valid = { {} } }
  METHODS.SkeletonGroup.matrix_array = { args = {} }
end
METHODS.Constraint.set_limits.args[2] = number_kind{
  check_value = function(v) return limit_value("max", v) end }
METHODS.Constraint.set_limits.args[1] = number_kind{
  check_value = function(v) return limit_value("min", v) end }

local SELF = { Chain = "arm", Constraint = "c", Solver = "s", Group = "g", SkeletonGroup = "gs",
               Spring = "sp", Slots = "slots", Clip = "clip" }
local TYPE = { Chain = "ik2d.Chain", Constraint = "ik2d.Constraint",
               Solver = "ik2d.Solver", Group = "ik2d.Group", SkeletonGroup = "ik2d.Group",
               Spring = "ik2d.Spring", Slots = "ik2d.Slots", Clip = "ik2d.Clip" }

-- Module functions; arguments numbered from 1.
local function bones_table_kind(v)
  if type(v) == "table" then return err("1 to 64 bones") end -- {} has none
  return table_kind(v)
end

local function limits_table_kind(v)
  if type(v) == "table" then return err("min and max go together") end -- {} has neither
  return table_kind(v)
end

local FUNCTIONS = {
  chain = { args = { bones_table_kind }, valid = { { { length = 1 } } } },
  constraint = { args = { limits_table_kind }, valid = { { min = 0, max = 1 } } },
  solver = { args = { userdata_kind("ik2d.Chain"), options_or_nil_kind },
             valid = { "arm", {} } },
  group = { args = { table_kind }, valid = { {} } },
  use_isa = { args = { isa_kind }, valid = { "auto" } },
  skeleton = { args = { function(v)
    if type(v) == "table" then return err("1 to 256 bones") end -- {} has none
    return table_kind(v)
  end }, valid = { { { name = "a", length = 1 } } } },
  spring = { args = { userdata_kind("ik2d.Chain"), options_or_nil_kind },
             valid = { "arm", {} } },
  transform_constraint = { args = { userdata_kind("ik2d.Skeleton"), function(v)
    -- {} has none
    if type(v) == "table" then return err("bones: table of bone names or indices expected, got nil") end
    return table_kind(v)
  end }, valid = { "sk", { bones = { "c" }, target = "a" } } },
  slots = { args = { userdata_kind("ik2d.Skeleton"), function(v)
    if type(v) == "table" then return err("slots: a rig needs 1 to 1024 slots") end -- {} has none
    return table_kind(v)
  end }, valid = { "rsk", { slots = { { bone = 1 } } } } },
  rig_targets = { args = { function(v)
    if type(v) == "table" then return err("skeleton: ik2d.Skeleton expected, got nil") end
    return table_kind(v)
  end }, valid = { { skeleton = "rsk" } } },
  -- {}: a clip of no timelines, lasting 0 s
  clip = { args = { userdata_kind("ik2d.RigTargets"), table_kind }, valid = { "targets", {} } },
}

-- ------------------------------------------------------------------
-- calls written as a user writes them
-- ------------------------------------------------------------------

local compiled = {}

-- A function(o, a1, ..., an) that calls o:name(a1, ..., an) with a colon
-- (or o.name(...) / ik2d.name(...)), not as a tail call, so the message
-- numbers arguments as it would in a game's code.
local function caller(style, name, n)
  local key = style .. name .. n
  if compiled[key] then return compiled[key] end
  local params = {}
  for i = 1, n do params[i] = "a" .. i end
  local list = table.concat(params, ", ")
  local call
  if style == "colon" then
    call = ("o:%s(%s)"):format(name, list)
  elseif style == "dot" then
    call = ("o.%s(%s)"):format(name, list)
  else
    call = ("ik2d.%s(%s)"):format(name, list)
  end
  local source = ("local ik2d, o%s = ...\nlocal r = { %s }\nreturn r")
    :format(n > 0 and (", " .. list) or "", call)
  if style == "dot" then
    -- o is the method table, self the first argument: o.name(self, ...)
    source = ("local ik2d, o, self%s = ...\nlocal r = { o.%s(self%s) }\nreturn r")
      :format(n > 0 and (", " .. list) or "", name, n > 0 and (", " .. list) or "")
  end
  local f = assert((loadstring or load)(source, "=(bad input)"))
  compiled[key] = f
  return f
end

-- the fixture's objects named in valid values (tables copied, their
-- values resolved too)
local OBJECTS = { arm = true, other = true, sk = true, rsk = true, targets = true }
local function resolve(fx, v)
  if OBJECTS[v] then return fx[v] end
  if type(v) == "table" then
    local copy = {}
    for k, x in pairs(v) do copy[k] = resolve(fx, x) end
    return copy
  end
  return v
end

-- One cell: fx fresh, args[pos] replaced by value; checks the outcome.
local function run_cell(style, target_name, fname, n_args, make_args, _, expect, argn)
  local fx = fixture()
  local before = snapshot(fx)
  local args = make_args(fx)
  local o = target_name and fx[target_name] or nil
  local result = { pcall(caller(style, fname, n_args), ik2d, o, unpack(args, 1, n_args)) }
  if expect.error then
    assert(not result[1], ("%s: expected an error, the call returned"):format(fname))
    local msg = tostring(result[2])
    assert.are.same(before, snapshot(fx))
    still_works(fx)
    helpers.check_message(msg, { ("bad argument #%d to '%s' ("):format(expect.argn or argn, fname) })
    helpers.check_message(msg, expect.error)
  else
    assert(result[1], ("%s: expected it to work, got %s"):format(fname, tostring(result[2])))
    if expect.check then expect.check(fx, result[2]) end
    still_works(fx)
  end
end

local function value_list(row, pos, fx)
  local list = {}
  for _, v in ipairs(VALUES) do
    if v[2] == "oor" then
      if row.oor and row.oor[pos] then list[#list + 1] = { v[1], row.oor[pos](fx) } end
    else
      list[#list + 1] = v
    end
  end
  return list
end

-- The value itself: "new table" stands for a fresh empty table, so that
-- no cell sees what another cell wrote into it.
local function fresh(v)
  if v == "new table" then return {} end
  return v
end

-- ------------------------------------------------------------------
-- table fields
-- ------------------------------------------------------------------
-- field(value) -> expectation, for tables read by the constructors and
-- set_options.  Errors here are on the table's argument.

-- finite_name: how the core names the value when it is not finite
local function coordinate_field(v, name, finite_name)
  if v == nil then return ok() end
  if type(v) ~= "number" then return err(name .. ": number expected, got " .. type_name(v)) end
  if v ~= v or v == inf or v == -inf then return err(finite_name .. " must be finite") end
  return ok()
end

local function length_field(v)
  if v == nil then return err("length: number expected, got nil") end
  if type(v) ~= "number" then return err("length: number expected, got " .. type_name(v)) end
  if v ~= v or v == inf or v == -inf then return err("length must be > 0 and finite") end
  if v <= 0 then return err("length must be > 0") end
  return ok()
end

-- min varies against max = 1, max against min = -1.
local function limit_field(which)
  return function(v)
    if v == nil then return err("min and max go together") end
    if type(v) ~= "number" then return err(which .. ": number expected, got " .. type_name(v)) end
    if v ~= v or v == inf or v == -inf then return err(which .. " must be finite") end
    return limit_value(which, v)
  end
end

-- flags are true or false (nil: the default)
local function boolean_field(name)
  return function(v)
    if v == nil or type(v) == "boolean" then return ok() end
    return err(name .. " must be true or false, got " .. type_name(v))
  end
end

-- numbers in options: numeric strings as luaL_checknumber takes them
local function options_number(name, check)
  return function(v)
    if v == nil then return ok() end
    if type(v) ~= "number" then return err(name .. ": number expected, got " .. type_name(v)) end
    return check(v)
  end
end

local function finite(name, check)
  return function(v)
    if v ~= v or v == inf or v == -inf then return err(name .. " must be", "finite") end
    return check(v)
  end
end

local OPTION_FIELDS = {
  iterations = options_number("iterations", function(v)
    if v ~= v or v == inf or v == -inf or v ~= math.floor(v) then
      return err("iterations must be a whole number")
    end
    if abs(v) > 2 ^ 31 - 1 then return err("iterations must be a whole number within") end
    if v < 1 then return err("iterations must be >= 1") end
    return ok(function(fx) assert.are.equal(v, fx.s:iterations()) end)
  end),
  tolerance = options_number("tolerance", finite("tolerance", function(v)
    if v < 0 then return err("tolerance must be >= 0") end
    return ok(function(fx) assert.are.equal(v, fx.s:tolerance()) end)
  end)),
  -- clamped like set_weight: only nan is an error
  weight = options_number("weight", function(v)
    if v ~= v then return err("weight must not be nan") end
    local want = v < 0 and 0 or v > 1 and 1 or v
    return ok(function(fx) assert.are.equal(want, fx.s:weight()) end)
  end),
  damping = options_number("damping", finite("damping", function(v)
    if v < 0 then return err("damping must be >= 0") end
    return ok()
  end)),
  softness = options_number("softness", finite("softness", function(v)
    if v < 0 then return err("softness must be >= 0") end
    return ok()
  end)),
  -- math.huge: no bound
  stretch = options_number("stretch", function(v)
    if v ~= v or v < 1 then return err("stretch must be >= 1") end
    return ok()
  end),
  bend = options_number("bend", function(v)
    if v ~= v or v == inf or v == -inf or v ~= math.floor(v) or abs(v) > 2 ^ 31 then
      return err("bend must be a whole number")
    end
    if v ~= 1 and v ~= -1 then return err("bend must be 1 or -1") end
    return ok()
  end),
  method = function(v)
    if v == nil then return ok() end
    return err("method must be")
  end,
  sweep = function(v)
    if v == nil then return ok() end
    return err("sweep must be")
  end,
  warm_start = boolean_field("warm_start"),
  exact = boolean_field("exact"),
  uniform = boolean_field("uniform"),
  softness_curve = function(v)
    if v == nil then return ok() end
    return err("softness_curve must be")
  end,
  compress = options_number("compress", function(v)
    if not (v >= 0 and v <= 1) then return err("compress must be within [0, 1]") end
    return ok()
  end),
  tip_weight = options_number("tip_weight", function(v)
    if not (v >= 0 and v <= 1) then return err("tip weight must be within [0, 1]") end
    return ok()
  end),
  -- a number, or false for none
  tip_angle = function(v)
    if v == nil or v == false then return ok() end
    if type(v) ~= "number" then return err("tip_angle: number expected, got " .. type_name(v)) end
    if v ~= v or v == inf or v == -inf then return err("tip angle must be finite") end
    return ok(function(fx) assert.are.equal(v, (fx.s:tip_angle())) end)
  end,
  -- {x, y}, or false for none
  pole = function(v)
    if v == nil or v == false then return ok() end
    if type(v) ~= "table" then return err("pole: {x, y} or false expected, got " .. type_name(v)) end
    return err("pole x: number expected, got nil") -- the matrix's tables are empty
  end,
  together = boolean_field("together"),
  priority = options_number("priority", finite("priority", function(v)
    if v < 0 then return err("priority must be >= 0") end
    return ok()
  end)),
}

-- a number, or a table of one number per bone (the tail's 3; the
-- matrix's tables are empty)
local function options_number_or_array(name, check)
  return function(v)
    if type(v) == "table" then return err(name .. ": 3 numbers expected (one per bone), got 0") end
    return options_number(name, check)(v)
  end
end

-- ik2d.spring's options
local SPRING_FIELDS = {
  stiffness = options_number_or_array("stiffness", finite("stiffness", function(v)
    if v < 0 then return err("stiffness must be >= 0") end
    return ok(function(fx) assert.are.equal(v, fx.sp:options().stiffness) end)
  end)),
  damping = options_number_or_array("damping", finite("damping", function(v)
    if v < 0 then return err("damping must be >= 0") end
    return ok(function(fx) assert.are.equal(v, fx.sp:options().damping) end)
  end)),
  mass = options_number_or_array("mass", finite("mass", function(v)
    if v <= 0 then return err("mass must be > 0") end
    return ok(function(fx) assert.are.equal(v, fx.sp:options().mass) end)
  end)),
  weight = options_number("weight", function(v)
    if v ~= v then return err("weight must not be nan") end
    local want = v < 0 and 0 or v > 1 and 1 or v
    return ok(function(fx) assert.are.equal(want, fx.sp:weight()) end)
  end),
  gravity = function(v)
    if v == nil then return ok() end
    if type(v) ~= "table" then return err("gravity: table {x, y} expected, got " .. type_name(v)) end
    return err("gravity[1]: number expected, got nil") -- {} has no gx
  end,
  wind = function(v)
    if v == nil then return ok() end
    if type(v) ~= "table" then return err("wind: table {x, y} expected, got " .. type_name(v)) end
    return err("wind[1]: number expected, got nil")
  end,
}

local CHAIN_FIELDS = {
  x = function(v) return coordinate_field(v, "x", "base x") end,
  y = function(v) return coordinate_field(v, "y", "base y") end,
  angle = function(v) return coordinate_field(v, "angle", "base angle") end,
  flip = boolean_field("flip"),
}

-- "parent" or "world" (with min and max)
local function space_field(v)
  if v == nil or v == "parent" or v == "world" then return ok() end
  return err("space must be \"parent\" or \"world\"")
end

local BONE_FIELDS = {
  space = space_field,
  length = length_field,
  angle = function(v) return coordinate_field(v, "angle", "rest angle") end,
  min = limit_field("min"),
  max = limit_field("max"),
  invert = boolean_field("invert"),
}

-- the same on bone 2 of a chain: errors say which bone
local BONE_FIELDS_2 = {}
for field, rule in pairs(BONE_FIELDS) do
  BONE_FIELDS_2[field] = function(v, label)
    local expect = rule(v, label)
    if expect.error then table.insert(expect.error, 1, "bone 2: ") end
    return expect
  end
end

-- ------------------------------------------------------------------
-- the matrix
-- ------------------------------------------------------------------

local function matrix()
  -- every method in the method tables has a row
  it("has a row for every method of every type", function()
    local fx = fixture()
    for kind, rows in pairs(METHODS) do
      local o = fx[SELF[kind]]
      if o then
        local methods = debug.getmetatable(o).__index
        for name in pairs(methods) do
          assert(rows[name], ("%s:%s has no row in the bad-input matrix"):format(kind, name))
        end
      end
    end
    for name, f in pairs(ik2d) do
      -- use_ffi and the helper mirror_bones (spec/mirror_spec.lua holds its
      -- errors) are not the core's
      if type(f) == "function" and name ~= "use_ffi" and name ~= "mirror_bones" then
        assert(FUNCTIONS[name], ("ik2d.%s has no row in the bad-input matrix"):format(name))
      end
    end
  end)

  for kind, rows in pairs(METHODS) do
    local self_name = SELF[kind]
    for name, row in pairs(rows) do
      local n = #row.args
      describe(("%s:%s"):format(kind, name), function()
        -- self, called with a dot: #1, "ik2d.Type expected"
        it("rejects a bad self (#1) in every form", function()
          if (kind == "Group" or kind == "SkeletonGroup") and not ik2d.group then return end
          local wrong = { "nil", {}, "x", true, nan, 1, "other type" }
          for k = 1, #wrong do
            local fx = fixture()
            local before = snapshot(fx)
            local bad = wrong[k]
            if bad == "nil" then bad = nil end
            if bad == "other type" then bad = kind == "Solver" and fx.arm or fx.s end
            local args = {}
            for i = 1, n do args[i] = resolve(fx, row.valid[i]) end
            local methods = debug.getmetatable(fx[self_name]).__index
            local okc, msg = pcall(caller("dot", name, n), ik2d, methods, bad, unpack(args, 1, n))
            assert(not okc, ("%s.%s accepted %s as self"):format(kind, name, tostring(bad)))
            msg = tostring(msg)
            helpers.check_message(msg, { ("bad argument #1 to '%s' ("):format(name),
                                         TYPE[kind] .. " expected" })
            assert.are.same(before, snapshot(fx))
            still_works(fx)
          end
        end)

        for pos = 1, n do
          local probe = fixture()
          if (kind ~= "Group" and kind ~= "SkeletonGroup") or probe.g then
            for _, value in ipairs(value_list(row, pos, probe)) do
              local label, v = value[1], value[2]
              local expect = row.args[pos](fresh(v), label)
              local what = expect.error and "raises" or "works"
              it(("argument #%d given %s %s"):format(pos, label, what), function()
                local given = fresh(v)
                expect = row.args[pos](given, label)
                run_cell("colon", self_name, name, n, function(fx)
                  local args = {}
                  for i = 1, n do args[i] = resolve(fx, row.valid[i]) end
                  args[pos] = given
                  return args
                end, pos, expect, pos)
              end)
            end
          end
        end
      end)
    end
  end

  for name, row in pairs(FUNCTIONS) do
    if ik2d[name] then
      describe("ik2d." .. name, function()
        for pos = 1, #row.args do
          for _, value in ipairs(value_list(row, pos, nil)) do
            local label, v = value[1], value[2]
            local expect = row.args[pos](fresh(v), label)
            it(("argument #%d given %s %s"):format(pos, label, expect.error and "raises" or "works"),
               function()
                 local given = fresh(v)
                 expect = row.args[pos](given, label)
                 run_cell("module", nil, name, #row.args, function(fx)
                   local args = {}
                   for i = 1, #row.args do args[i] = resolve(fx, row.valid[i]) end
                   args[pos] = given
                   return args
                 end, pos, expect, pos)
               end)
          end
        end
      end)
    end
  end

  -- fields of the tables
  local function field_cells(title, fields, build, argn, fname)
    describe(title, function()
      for field, rule in pairs(fields) do
        for _, value in ipairs(VALUES) do
          local label, v = value[1], value[2]
          if v ~= "oor" then
            local expect = rule(fresh(v), label)
            it(("%s given %s %s"):format(field, label, expect.error and "raises" or "works"),
               function()
                 local given = fresh(v)
                 expect = rule(given, label)
                 local fx = fixture()
                 local before = snapshot(fx)
                 local okc, msg = pcall(build, fx, field, given)
                 if expect.error then
                   assert(not okc, "expected an error, the call returned")
                   msg = tostring(msg)
                   assert.are.same(before, snapshot(fx))
                   still_works(fx)
                   helpers.check_message(msg, { ("bad argument #%d to '%s' ("):format(expect.argn or argn, fname) })
                   helpers.check_message(msg, expect.error)
                 else
                   assert(okc, "expected it to work, got " .. tostring(msg))
                   if expect.check then expect.check(fx, msg) end
                   still_works(fx)
                 end
               end)
          end
        end
      end
    end)
  end

  field_cells("ik2d.chain{...} base fields", CHAIN_FIELDS, function(_, field, v)
    local t = { { length = 1 }, { length = 2 } }
    t[field] = v
    return ik2d.chain(t)
  end, 1, "chain")

  field_cells("ik2d.chain{...} bone fields (bone 2)", BONE_FIELDS_2, function(_, field, v)
    local bone = { length = 2 }
    if field == "min" then bone.max = 1 elseif field == "max" then bone.min = -1 end
    if field == "invert" or field == "space" then bone.min, bone.max = -1, 1 end
    bone[field] = v
    return ik2d.chain{ { length = 1 }, bone }
  end, 1, "chain")

  field_cells("ik2d.constraint{...} fields", {
    min = limit_field("min"), max = limit_field("max"), invert = boolean_field("invert"),
    space = space_field,
  }, function(_, field, v)
    local t = { min = -1, max = 1 }
    t[field] = v
    return ik2d.constraint(t)
  end, 1, "constraint")

  -- the options of ik2d.<name>(fx[chain], {...}) and of its set_options,
  -- read back from fx[key]
  local function option_cells(name, fields, chain, key)
    field_cells(("ik2d.%s(chain, {...}) fields"):format(name), fields, function(fx, field, v)
      local o = ik2d[name](fx[chain], { [field] = v })
      fx[key] = o -- the new object is the one whose settings are checked
      return o
    end, 2, name)

    field_cells(("%s:set_options{...} fields"):format(name), fields, function(fx, field, v)
      local f = caller("colon", "set_options", 1)
      local r = f(ik2d, fx[key], { [field] = v })
      return r[1]
    end, 1, "set_options")
  end

  option_cells("solver", OPTION_FIELDS, "arm", "s")
  if ik2d.spring then option_cells("spring", SPRING_FIELDS, "tail", "sp") end

  describe("clamps and limits spelled out", function()
    it("ik2d.chain takes 1 to 64 bones, not 0 or 65", function()
      local bones = {}
      for i = 1, 65 do bones[i] = { length = 1 } end
      local msg = helpers.error_of(ik2d.chain, bones)
      helpers.check_message(msg, { "bad argument #1 to 'chain' (", "64" })
      bones[65] = nil
      assert.are.equal(64, #ik2d.chain(bones))
      msg = helpers.error_of(ik2d.chain, {})
      helpers.check_message(msg, { "bad argument #1 to 'chain' (" })
    end)

    it("method = 'two_bone' needs a chain of 2 bones", function()
      local fx = fixture()
      local msg = helpers.error_of(ik2d.solver, fx.arm, { method = "two_bone" })
      helpers.check_message(msg, { "bad argument #2 to 'solver' (", "2 bones" })
      assert.are.equal("two_bone", ik2d.solver(fx.arm2, { method = "two_bone" }):method())
    end)

    it("ik2d.group names the bad member", function()
      if not ik2d.group then return end
      local fx = fixture()
      local msg = helpers.error_of(ik2d.group, { fx.s, fx.arm })
      helpers.check_message(msg, { "bad argument #1 to 'group' (", "item 2", "ik2d.Solver expected" })
    end)

    it("set_weight clamps +-inf and out-of-range weights, and solves with them", function()
      local fx = fixture()
      for _, case in ipairs{ { inf, 1 }, { -inf, 0 }, { 7, 1 }, { -7, 0 }, { 1e-300, 1e-300 } } do
        fx.s:set_weight(case[1])
        assert.are.equal(case[2], fx.s:weight())
        fx.s:solve()
        still_works(fx)
      end
    end)
  end)
end

describe("bad input", function()
  helpers.on_both_paths(ik2d, matrix)
end)
