-- Lifetime: the binding owns each object's lifetime,
-- as Lua's liolib owns a file's "closed".  Once an object's __gc has run
-- (called by hand, at lua_close, or before a finaliser resurrects it),
-- every method of it raises the same "<type> was collected", and every
-- method that would reach it through another object raises too (a
-- solver's chain, a group's member): group:solve() included, on both
-- paths.  Replacing an object's user value (debug.setuservalue on 5.4,
-- debug.setfenv on LuaJIT) changes nothing the binding relies on: after
-- collections every object still answers as an untouched twin does.
--
-- Under `make test-asan` a read of freed memory here is an ASan error,
-- not a wrong number: when the collector runs, the objects are kept
-- alive only by the binding's own references.

local ik2d = require "ik2d"
local helpers = require "spec.helpers"

local load = loadstring or load

local PATHS = helpers.is_luajit and { true, false } or { false }
local function path_name(on)
  if not helpers.is_luajit then return "" end
  return on and " (FFI path)" or " (classic path)"
end

-- The objects and what every method needs, as Lua source shared with the
-- child interpreters.  build(): a constraint c on bone 2 of arm, arm's
-- solver s, a second chain and solver, a group of s and s2, a spring sp
-- on the second chain.  RECIPES: valid arguments for every method ("t" a
-- fresh table, "c" a fresh live constraint, "opts" { iterations = 3 },
-- "sopts" { damping = 3 }, "xy" targets for the group, "sk" a fresh
-- skeleton), so
-- the only thing wrong with a call after __gc is the finalised object.
-- call_all(o, kind): every method of o, found by walking its method
-- table, called with them: { [method] = false (it worked) or the message }.
local SHARED = [[
local ik2d = require "ik2d"
local unpack = table.unpack or unpack
local shared = {}
shared.ORDER = { "c", "arm", "s", "arm2", "s2", "g", "sp" }
shared.KIND = { c = "Constraint", arm = "Chain", arm2 = "Chain", s = "Solver", s2 = "Solver",
                g = "Group", sp = "Spring" }
shared.RECIPES = {
  Chain = { set_base = { 1, 2, 0.5 }, base = {}, set_flip = { true }, flip = {},
    set_pose = { 1, 0.5 }, pose = { 1 }, angle = { 1 }, world_angle = { 1 }, length = { 1 },
    rest = { 1 }, reach = {}, scale = {}, uniform = {}, joint = { 1 }, tip = {}, joints = { "t" },
    reset = {},
    set_constraint = { 1, "c" }, constraint = { 2 }, set_length = { 1, 3 }, set_rest = { 1, 0.2 },
    skeleton = {} },
  Constraint = { set_limits = { -1, 1 }, limits = {}, invert = {}, space = {}, arc = {} },
  Solver = { chain = {}, set_target = { 1, 2 }, target = {}, set_weight = { 0.5 }, weight = {},
    set_iterations = { 5 }, iterations = {}, set_tolerance = { 0.1 }, tolerance = {},
    set_options = { "opts" }, options = {}, method = {}, forget = {}, solve = {}, result = {},
    set_tip_angle = { 0.5 }, tip_angle = {}, clear_tip_angle = {}, set_pole = { 1, 2 },
    pole = {}, clear_pole = {}, set_target_bone = { "sk", 1, 0.5, 0 }, target_bone = {},
    clear_target_bone = {}, set_aim = { 1, 0, 0 }, aim = {}, clear_aim = {} },
  Group = { solver = { 1 }, solve = {}, set_targets = { "xy" }, joints = { "t" },
    joint_offset = { 2 }, target_array = {}, joint_array = {}, solvers = { "t" },
    set_tip_angles = { "ab" }, set_poles = { "xy" }, tip_angle_array = {}, pole_array = {},
    skeleton = { 1 }, set_bases = { "t" }, transforms = { "t" }, transform_offset = { 1 },
    base_array = {}, transform_array = {}, matrices = { "t" }, matrix_array = {} },
  Spring = { chain = {}, update = { 0.02 }, reset = {}, set_weight = { 0.5 }, weight = {},
    set_gravity = { 0, 9 }, gravity = {}, set_wind = { 3, 0 }, wind = {},
    set_colliders = { "t" }, colliders = {}, set_options = { "sopts" }, options = {},
    velocity = { 1 } },
}
function shared.build()
  local o = {}
  o.c = ik2d.constraint{ min = -0.5, max = 1.5 }
  o.arm = ik2d.chain{ { length = 3 }, { length = 2 }, { length = 1 } }
  o.arm:set_constraint(2, o.c)
  o.s = ik2d.solver(o.arm)
  o.arm2 = ik2d.chain{ { length = 2 }, { length = 2 } }
  o.s2 = ik2d.solver(o.arm2)
  o.g = ik2d.group{ o.s, o.s2 }
  o.sp = ik2d.spring(o.arm2)
  return o
end
local function arguments(list)
  local out = {}
  for i, a in ipairs(list) do
    if a == "t" then a = {}
    elseif a == "c" then a = ik2d.constraint{ min = -1, max = 1 }
    elseif a == "opts" then a = { iterations = 3 }
    elseif a == "sopts" then a = { damping = 3 }
    elseif a == "xy" then a = { 1, 2, 3, 4 }
    elseif a == "ab" then a = { 1, 2 }
    elseif a == "sk" then a = ik2d.skeleton{ { name = "a", length = 1 } } end
    out[i] = a
  end
  return out, #list
end
-- an aim and a tip angle orient the last bone one at a time: each is
-- cleared after it is set, so that the other can be set in any order
local UNDO = { set_aim = "clear_aim", set_tip_angle = "clear_tip_angle" }
function shared.call_all(o, kind, call)
  local out = {}
  for name in pairs(debug.getmetatable(o).__index) do
    local args, n = arguments(shared.RECIPES[kind][name])
    local ok, msg = pcall(call, o, name, unpack(args, 1, n))
    out[name] = not ok and tostring(msg)
    if UNDO[name] then pcall(call, o, UNDO[name]) end
  end
  return out
end
return shared
]]
local shared = assert(load(SHARED, "=lifetime shared"))()
local ORDER, KIND, RECIPES = shared.ORDER, shared.KIND, shared.RECIPES

-- The call site of every call checked: its line is the "file:line:".
local function call(o, name, ...) local a = o[name](o, ...) return a end
local info = debug.getinfo(call, "S")
local WHERE = info.short_src .. ":" .. info.linedefined .. ": "

local WORD = { Constraint = "constraint", Chain = "chain", Solver = "solver", Group = "group",
               Spring = "spring" }
-- what each object reaches: a solver or a spring its chain; a group its
-- members
local CHAIN_OF = { s = "arm", s2 = "arm2", sp = "arm2" }
local MEMBERS = { "s", "s2" }
local GROUP_REACHES = { solve = true, set_targets = true, joints = true, target_array = true,
                        joint_array = true, set_tip_angles = true, set_poles = true,
                        tip_angle_array = true, pole_array = true, set_bases = true,
                        transforms = true, base_array = true, transform_array = true,
                        matrices = true, matrix_array = true }
-- what only a group of skeletons has: the group of solvers here raises
local SKELETONS_ONLY = { skeleton = true, set_bases = true, transforms = true,
                         transform_offset = true, base_array = true, transform_array = true,
                         matrices = true, matrix_array = true }
-- only LuaJIT's FFI makes the arrays: elsewhere a live group's raise
local NEEDS_FFI = { target_array = true, joint_array = true, tip_angle_array = true,
                    pole_array = true }
local NO_FFI = not helpers.is_luajit
               and ("needs LuaJIT's FFI, which %s does not have"):format(_VERSION) or nil

local function finalised(o)
  local out = {}
  for name, obj in pairs(o) do
    out[name] = tostring(obj):find("(collected)", 1, true) ~= nil
  end
  return out
end

-- The words a method of object `name` must raise, given which objects
-- are finalised; nil when it must work.
local function expected_words(name, method, dead)
  local kind = KIND[name]
  if dead[name] then return WORD[kind] .. " was collected" end
  if (kind == "Solver" or kind == "Spring") and dead[CHAIN_OF[name]] then
    return "chain was collected"
  end
  if kind == "Group" and GROUP_REACHES[method] then
    for i, member in ipairs(MEMBERS) do
      if dead[member] then return ("solver %d was collected"):format(i) end
      if dead[CHAIN_OF[member]] then return ("solver %d: chain was collected"):format(i) end
    end
  end
  return nil
end

-- Calls every method of every object; checks each against the expected
-- full message (or that it worked).  prefix: the "file:line: " expected
-- (WHERE here, the child's own in a child).  Returns how many raised.
local function check_all(dead, results, prefix)
  local raised = 0
  for _, name in ipairs(ORDER) do
    for method, msg in pairs(results[name]) do
      local words = expected_words(name, method, dead)
      local label = ("%s:%s"):format(name, method)
      if not words and KIND[name] == "Group" and SKELETONS_ONLY[method] then
        assert.are.equal(("%sbad call to '%s' (a group of solvers: only a group of skeletons has it)")
                         :format(prefix, method), msg, label)
      elseif not words and NO_FFI and NEEDS_FFI[method] then
        -- what it always does there, not a sign of a finalised object
        assert.are.equal(("%sbad call to '%s' (%s)"):format(prefix, method, NO_FFI), msg, label)
      elseif words then
        raised = raised + 1
        assert.are.equal(("%sbad argument #1 to '%s' (%s)"):format(prefix, method, words), msg, label)
      else
        assert.is_false(msg, label)
      end
    end
  end
  return raised
end

-- f(o) on fresh objects, through each path.
local function on_each_path(f)
  for _, on in ipairs(PATHS) do
    ik2d.use_ffi(on)
    f(shared.build())
  end
end

local function results_of(o)
  local out = {}
  for _, name in ipairs(ORDER) do out[name] = shared.call_all(o[name], KIND[name], call) end
  return out
end

describe("lifetime", function()
  after_each(function() ik2d.use_ffi(true) end)

  it("has a recipe for every method of every type", function()
    local o = shared.build()
    for _, name in ipairs(ORDER) do
      local count = 0
      for method in pairs(debug.getmetatable(o[name]).__index) do
        assert(RECIPES[KIND[name]][method], KIND[name] .. ":" .. method .. " has no recipe")
        count = count + 1
      end
      assert.truthy(count >= 4)
    end
  end)

  it("every method works on live objects (the recipes are valid)", function()
    on_each_path(function(o)
      assert.are.equal(0, check_all(finalised(o), results_of(o), WHERE))
    end)
  end)

  describe("after __gc called by hand", function()
    -- each victim alone, then every pair: what raises follows from which
    -- objects are finalised
    local cases = {}
    for _, a in ipairs(ORDER) do cases[#cases + 1] = { a } end
    for i, a in ipairs(ORDER) do
      for j = i + 1, #ORDER do cases[#cases + 1] = { a, ORDER[j] } end
    end
    for _, on in ipairs(PATHS) do
      for _, victims in ipairs(cases) do
        it(("of %s: every method raises or works as it must%s"):format(table.concat(victims, " and "),
                                                                     path_name(on)), function()
          ik2d.use_ffi(on)
          local o = shared.build()
          for _, v in ipairs(victims) do debug.getmetatable(o[v]).__gc(o[v]) end
          local dead = finalised(o)
          for _, v in ipairs(victims) do assert.is_true(dead[v]) end
          local raised = check_all(dead, results_of(o), WHERE)
          assert.truthy(raised > 0)
          -- a second __gc changes nothing, and a collection neither
          for _, v in ipairs(victims) do debug.getmetatable(o[v]).__gc(o[v]) end
          collectgarbage()
          collectgarbage()
          assert.are.equal(raised, check_all(finalised(o), results_of(o), WHERE))
        end)
      end
    end

    it("gives the same words from a colon call, with Lua's self wording", function()
      on_each_path(function(o)
        debug.getmetatable(o.arm).__gc(o.arm)
        debug.getmetatable(o.g).__gc(o.g)
        local msg = helpers.error_of(function() local x = o.arm:tip() return x end)
        assert.truthy(msg:find(": calling 'tip' on bad self %(chain was collected%)$"), msg)
        msg = helpers.error_of(function() local x = o.s:solve() return x end)
        assert.truthy(msg:find(": calling 'solve' on bad self %(chain was collected%)$"), msg)
        msg = helpers.error_of(function() local x = o.g:solve() return x end)
        assert.truthy(msg:find(": calling 'solve' on bad self %(group was collected%)$"), msg)
        assert.are.equal("ik2d.Chain(collected)", tostring(o.arm))
        msg = helpers.error_of(function() return #o.arm end)
        assert.truthy(msg:find("bad argument #1 to '__len' (chain was collected)", 1, true), msg)
      end)
    end)

    it("group:solve() with a finalised member raises instead of returning 0", function()
      on_each_path(function(o)
        assert.are.equal("number", type(o.g:solve()))
        debug.getmetatable(o.s2).__gc(o.s2)
        local ok, msg = pcall(call, o.g, "solve")
        assert.is_false(ok)
        assert.are.equal(WHERE .. "bad argument #1 to 'solve' (solver 2 was collected)", msg)
      end)
    end)
  end)

  local finaliser = helpers.finaliser

  describe("resurrected by a finaliser made before the objects", function()
    for _, on in ipairs(PATHS) do
      it("raises 'was collected' from every method of every finalised object" .. path_name(on), function()
        ik2d.use_ffi(on)
        -- the finaliser finds the objects through a weak-keyed table (a
        -- finalised object stays a weak key until the next cycle) and
        -- stores them in `found`, so they are reachable again
        local seen = setmetatable({}, { __mode = "k" })
        local found, inside = {}, {}
        local guard = { finaliser(function()
          for obj, name in pairs(seen) do found[name] = obj end
          for _, name in ipairs(ORDER) do
            if found[name] then inside[name] = shared.call_all(found[name], KIND[name], call) end
          end
        end) }
        local function make()
          local o = shared.build()
          for name, obj in pairs(o) do seen[obj] = name end
        end
        make()
        guard[1] = nil
        for _ = 1, 4 do collectgarbage() end
        assert.is_nil(guard[1])
        -- every object came back
        for _, name in ipairs(ORDER) do assert(found[name], name .. " was not found") end
        local dead = finalised(found)
        -- the group is held by nothing: finalised on both runtimes; Lua
        -- 5.4 finalises all of them in that cycle, LuaJIT's weak-keyed
        -- references (no ephemerons) keep the group's members one more
        assert.is_true(dead.g)
        if not helpers.is_luajit then
          for _, name in ipairs(ORDER) do assert.is_true(dead[name], name) end
        end
        -- inside the finaliser, as they were when it ran
        assert.truthy(check_all(dead, inside, WHERE) > 0)
        -- and after it, through collections: never freed memory
        for _ = 1, 3 do
          assert.truthy(check_all(dead, results_of(found), WHERE) > 0)
          collectgarbage()
          collectgarbage()
        end
      end)
    end
  end)

  describe("at lua_close, in a child interpreter", function()
    -- the finaliser, made first, runs after the objects' __gc; it stores
    -- them in a global table and calls every method, printing each result
    local script = [[
local shared = assert((loadstring or load)(%q, "=lifetime shared"))()
local ik2d = require "ik2d"
ik2d.use_ffi(%s)
local function call(o, name, ...) local a = o[name](o, ...) return a end
%s
local seen = {}
keep_guard = finaliser(function()
  KEPT = {}
  for _, name in ipairs(shared.ORDER) do
    KEPT[name] = seen[name]
    io.write("object ", name, " ", tostring(seen[name]), "\n")
    for method, msg in pairs(shared.call_all(seen[name], shared.KIND[name], call)) do
      io.write("result ", name, " ", method, " ", msg or "worked", "\n")
    end
  end
  io.write("finaliser done\n")
end)
for name, obj in pairs(shared.build()) do seen[name] = obj end
io.write("closing\n")
]]
    for _, on in ipairs(PATHS) do
      it("every method of every object raises '<type> was collected'" .. path_name(on), function()
        local ok, out, code = helpers.run_lua(script:format(SHARED, tostring(on),
                                                            helpers.FINALISER_SOURCE))
        assert(ok, ("the child exited with %s:\n%s"):format(tostring(code), out))
        assert.truthy(out:find("finaliser done", 1, true), out)
        local objects, results = 0, 0
        for name, text in out:gmatch("object (%w+) ([^\n]*)") do
          objects = objects + 1
          assert.are.equal(("ik2d.%s(collected)"):format(KIND[name]), text)
        end
        for name, method, msg in out:gmatch("result (%w+) ([%w_]+) ([^\n]*)") do
          results = results + 1
          assert.are.equal(("bad argument #1 to '%s' (%s was collected)"):format(method, WORD[KIND[name]]),
                           msg:match("^[^:]+:%d+: (.*)$"), name .. ":" .. method)
        end
        assert.are.equal(#ORDER, objects)
        local total = 0
        for _, name in ipairs(ORDER) do
          for _ in pairs(RECIPES[KIND[name]]) do total = total + 1 end
        end
        assert.are.equal(total, results)
      end)
    end
  end)

  describe("user values replaced through the debug library", function()
    if ik2d.backend == "lua" and not helpers.is_luajit then
      pending("the pure-Lua core's objects are tables on Lua 5.4: there is no user value to replace")
      return
    end
    local function tamper(obj, value)
      if debug.setuservalue then
        -- Lua 5.4: ik2d's userdata have no user value slot; setuservalue
        -- says so (fail) and changes nothing
        return debug.setuservalue(obj, value) ~= nil
      end
      return debug.setfenv(obj, value) == obj
    end

    -- Objects held only by each other through the binding: the group
    -- holds the solvers, each solver its chain, the chain its constraint.
    local function held_by_group(limits)
      local function make()
        local list = {}
        for k = 1, 4 do
          local bones = { { length = 3 }, { length = 2 }, { length = 1 } }
          if limits then bones[2].min, bones[2].max = -0.5, 0.5 + k / 10 end
          local arm = ik2d.chain(bones)
          arm:set_constraint(3, ik2d.constraint{ min = -1, max = 1 })
          list[k] = ik2d.solver(arm, { iterations = 20 })
        end
        return ik2d.group(list)
      end
      return make()
    end

    local function frames(g, t)
      local out = {}
      for f = 1, 30 do
        for k = 1, #g do g:solver(k):set_target(4 * math.cos(f / 5 + k), 4 * math.sin(f / 5 + k)) end
        g:solve()
        for k = 1, #g do
          local s = g:solver(k)
          local reached, distance = s:result()
          out[#out + 1] = ("%s %.17g"):format(tostring(reached), distance)
          local c = s:chain():constraint(3)
          out[#out + 1] = ("%.17g %.17g"):format(c:limits())
        end
        for _, v in ipairs(g:joints(t)) do out[#out + 1] = ("%.17g"):format(v) end
      end
      return table.concat(out, " ")
    end

    for _, on in ipairs(PATHS) do
      for _, value in ipairs{ "an empty table", "a table holding other objects" } do
        it(("on groups, solvers, chains and constraints (%s): the same answers as an untouched "
            .. "twin%s"):format(value, path_name(on)), function()
          ik2d.use_ffi(on)
          local twin = held_by_group(true)
          local g = held_by_group(true)
          local tampered = 0
          local function replacement()
            if value == "an empty table" then return {} end
            return { ik2d.chain{ { length = 1 } }, twin }
          end
          if tamper(g, replacement()) then tampered = tampered + 1 end
          for k = 1, #g do
            local s = g:solver(k)
            if tamper(s, replacement()) then tampered = tampered + 1 end
            if tamper(s:chain(), replacement()) then tampered = tampered + 1 end
            if tamper(s:chain():constraint(3), replacement()) then tampered = tampered + 1 end
          end
          -- LuaJIT replaced all 13 environments; Lua 5.4 refused all 13
          assert.are.equal(helpers.is_luajit and 13 or 0, tampered)
          for _ = 1, 5 do collectgarbage() end
          local t = {}
          assert.are.equal(frames(twin, {}), frames(g, t))
          for _ = 1, 5 do collectgarbage() end
          assert.are.equal(frames(twin, {}), frames(g, t))
        end)
      end

      it("on a solver whose chain has no other reference: it still solves" .. path_name(on), function()
        ik2d.use_ffi(on)
        local function solver_only()
          local arm = ik2d.chain{ { length = 3 }, { length = 2, min = -0.5, max = 0.5 }, { length = 1 } }
          return ik2d.solver(arm, { iterations = 30, tolerance = 1e-6 })
        end
        local s, twin = solver_only(), solver_only()
        tamper(s, {})
        for _ = 1, 5 do collectgarbage() end
        for f = 1, 20 do
          local x, y = 4 * math.cos(f / 3), 4 * math.sin(f / 3)
          s:set_target(x, y)
          twin:set_target(x, y)
          assert.are.same({ twin:solve() }, { s:solve() })
          assert.are.same(twin:chain():joints(), s:chain():joints())
          collectgarbage()
        end
      end)
    end
  end)
end)
