-- The pure-Lua core against the C core, side by side:
-- random sequences of operations (chains with limits of every kind,
-- constraint edits, solver options and methods, targets, solves, groups
-- and their arrays, skeletons (their edits, chains over their paths and
-- solvers on them solved one by one or together; the bone model: scaled,
-- sheared, reflected bones of every inherit mode, the skeleton's scale,
-- whole local poses, matrices, transform constraints in both spaces and
-- both modes, orders, stretch and Spine-style IK on skeleton chains),
-- springs, poses, flips, weights, objects finalised by hand, and
-- hostile arguments: nan, inf, huge, tiny, negative zero, numeric strings,
-- wrong types, missing values, the other type's objects) run on both, and
-- every result compared bit for bit: each returned number by its bits
-- (%a) and, on 5.3+, whether it is an integer; booleans, strings, how many
-- values came back; the full message of every error, "file:line:" and
-- argument number included (every call is made from the same line for
-- both); which object a method returned.  After every solve the whole
-- state of every chain and solver is compared too.
--
-- Fixed seed; 300 sequences under make test, 6000 under IK2D_LONG=1 (make
-- test-all); IK2D_DIFF_SEQUENCES and IK2D_DIFF_SEED change the size and
-- the seed.  Under LuaJIT the C core runs the FFI fast path in half the
-- sequences and the classic methods in the other half.

local helpers = require "spec.helpers"
local ik2d = require "ik2d"

local has_c, C = pcall(require, "ik2d.core")
local L = require "ik2d.pure.core"

-- The bone model's calls in the sequences: where the C binding has them
-- all (its transform constraints last); else the pure core runs the same
-- sequences alone, held to answering or raising an API error.
local C_MODEL = has_c and C.transform_constraint ~= nil

local format, concat = string.format, table.concat
local unpack = table.unpack or unpack -- luacheck: ignore 143
local math_type = math.type -- luacheck: ignore 143 (nil before 5.3)
local load = loadstring or load -- luacheck: ignore 143

local SEQUENCES = tonumber(os.getenv("IK2D_DIFF_SEQUENCES")) or helpers.size(300, 6000)
local SEED = tonumber(os.getenv("IK2D_DIFF_SEED")) or 15
local OPERATIONS = 28 -- per sequence, on average
local TRACE = os.getenv("IK2D_DIFF_TRACE") -- each operation to stderr, before it runs
-- springs in the sequences: set below (same_expm1); the child runs them
local SPRINGS = os.getenv("IK2D_DIFF_CHILD") ~= nil

local nan, inf = 0 / 0, math.huge

local function pack(...) return { n = select("#", ...), ... } end

-- ------------------------------------------------------------------
-- calls: every one from the same line of the same chunk, for both cores
-- ------------------------------------------------------------------

-- o:name(...) (colon) or o.name(o, ...) (dot); module functions as
-- core.name(...) (module: o is the core)
local callers = { colon = {}, dot = {}, module = {} }
local function caller(style, name)
  local list = callers[style]
  if not list[name] then
    local call = style == "colon" and ("o:" .. name .. "(...)") or
                 style == "dot" and ("o." .. name .. "(o, ...)") or ("o." .. name .. "(...)")
    list[name] = assert(load("local pack = ... return function(o, ...) local r = pack(" .. call
                             .. ") return r end", "=diff"))(pack)
  end
  return list[name]
end
local call_len = assert(load("local pack = ... return function(o) local r = pack(#o) return r end",
                             "=diff"))(pack)
local call_tostring = assert(load("local pack = ... return function(o) local r = pack(tostring(o)) "
                                  .. "return r end", "=diff"))(pack)
local call_gc = assert(load("local pack = ... return function(o) local r = pack(debug.getmetatable(o)"
                            .. ".__gc(o)) return r end", "=diff"))(pack)
local call_set = assert(load("return function(a, i, v) a[i] = v end", "=diff"))()
local call_get = assert(load("local pack = ... return function(a, i) local r = pack(a[i]) return r end",
                             "=diff"))(pack)

-- ------------------------------------------------------------------
-- worlds: the objects of one core, by kind and index
-- ------------------------------------------------------------------

local KINDS = { "constraint", "chain", "solver", "group", "spring", "skeleton",
  "transformconstraint" }

-- model: the bone model's calls are made
local function new_world(core, model)
  local w = { core = core, names = setmetatable({}, { __mode = "k" }), model = model }
  for _, kind in ipairs(KINDS) do w[kind] = {} end
  w.arrays = { target_array = {}, joint_array = {}, transform_array = {}, matrix_array = {} }
  return w
end

local function keep(w, kind, obj)
  local list = w[kind]
  list[#list + 1] = obj
  w.names[obj] = kind .. #list
end

-- A value as exact text: numbers by their bits (and integer or not),
-- tables by their content in key order, objects by their names.
local function show(w, v, depth)
  local t = type(v)
  if t == "number" then
    local kind = math_type and math_type(v) == "integer" and "i" or "f"
    return kind .. format("%a", v)
  elseif t == "string" then
    return format("%q", v)
  elseif t == "table" or t == "userdata" then
    if w.names[v] then return w.names[v] end
    -- an object met for the first time (a chain's own constraint): kept
    -- under the next name of its kind, in both worlds alike
    local mt = debug.getmetatable(v)
    local kind = type(mt) == "table" and type(mt.__name) == "string" and mt.__name:match("^ik2d%.(%a+)$")
    if kind then
      keep(w, kind:lower(), v)
      return w.names[v]
    end
    if t == "userdata" then return "userdata" end
    if depth > 2 then return "table" end
    local keys = {}
    for k in pairs(v) do keys[#keys + 1] = k end
    table.sort(keys, function(a, b)
      if type(a) == type(b) and (type(a) == "number" or type(a) == "string") then return a < b end
      return type(a) < type(b)
    end)
    local out = {}
    for _, k in ipairs(keys) do out[#out + 1] = show(w, k, depth + 1) .. "=" .. show(w, v[k], depth + 1) end
    return "{" .. concat(out, ",") .. "}"
  elseif t == "cdata" then
    return "cdata"
  end
  return tostring(v)
end

local function show_all(w, r)
  local out = { "n=" .. r.n }
  for i = 1, r.n do out[#out + 1] = show(w, r[i], 0) end
  return concat(out, " ")
end

-- Every chain's and solver's state in the world (the same reads for both).
local function state(w)
  local out = {}
  for k, chain in ipairs(w.chain) do
    local ok, joints = pcall(chain.joints, chain)
    out[#out + 1] = "chain" .. k .. (ok and show(w, joints, 0) or "dead")
    if ok then
      for i = 1, #chain do
        out[#out + 1] = show(w, chain:angle(i), 0) .. show(w, chain:pose(i), 0)
      end
      out[#out + 1] = show(w, chain:scale(), 0) .. tostring(chain:uniform())
    end
  end
  for k, s in ipairs(w.solver) do
    local ok, r = pcall(function() return pack(s:result()) end)
    out[#out + 1] = "solver" .. k .. (ok and show_all(w, r) or "dead")
    if ok then
      out[#out + 1] = show_all(w, pack(s:target()))
      out[#out + 1] = show_all(w, pack(s:target_bone()))
    end
  end
  for k, sk in ipairs(w.skeleton) do
    local ok, t = pcall(sk.transforms, sk)
    out[#out + 1] = "skeleton" .. k .. (ok and show(w, t, 0) or "dead")
    if ok then
      for i = 1, #sk do out[#out + 1] = show(w, sk:angle(i), 0) .. show(w, sk:pose(i), 0) end
      -- its transform array (LuaJIT), kept up to date by every change
      local array = w.arrays.transform_array[k]
      if array then
        local values = {}
        for i = 1, #t do values[i] = array[i - 1] end
        out[#out + 1] = show(w, values, 0)
      end
      if w.model then
        -- the bone model: the maps as drawn, the local transforms
        out[#out + 1] = show(w, sk:matrices(), 0) .. show_all(w, pack(sk:scale()))
        for i = 1, #sk do
          out[#out + 1] = show_all(w, pack(sk:pose(i))) .. show_all(w, pack(sk:result(i)))
        end
        out[#out + 1] = show(w, sk:order(), 0) .. show(w, sk:constraints(), 0)
      end
    end
  end
  for k, tc in ipairs(w.transformconstraint) do
    local ok, t = pcall(tc.options, tc)
    out[#out + 1] = "transformconstraint" .. k .. (ok and show(w, t, 0) or "dead")
  end
  return concat(out, "\n")
end

-- ------------------------------------------------------------------
-- random values: the same draws for both worlds
-- ------------------------------------------------------------------

local random -- helpers.random, reseeded per sequence
local model_on -- the sequence makes the bone model's calls

local function pick(list) return list[1 + math.floor(random.next() * #list)] end
local function chance(p) return random.next() < p end
local function int(lo, hi) return lo + math.floor(random.next() * (hi - lo + 1)) end

local HOSTILE = { nan, -nan, inf, -inf, 1e308, -1e308, 5e-324, -5e-324, 1e-300, 0.0, -0.0,
  1e154, -1e155, 1e-154, 2 ^ 53, 2.5e-16, 1e7, -1e7, 7 * math.pi, -math.pi, math.pi }
local STRINGS = { "0.5", " 2 ", "0x10", "1e400", "-0", "abc", "", "1e", "nan", "inf", "3\0" }

-- An argument: a token both worlds turn into the same value (objects:
-- each its own of that kind and index; tables: each its own copy).
local function obj(kind, index) return { "obj", kind, index } end
local NONE = { "none" }

local function number_token(x)
  if math_type and chance(0.1) and x == math.floor(x) and x == x and math.abs(x) < 2 ^ 53 then
    return { "int", x }
  end
  return x
end

-- A number as a game would pass it, and now and then anything else.
local function value(lo, hi, hostile)
  hostile = hostile or 0.12
  if chance(hostile) then
    local r = random.next()
    if r < 0.55 then return pick(HOSTILE) end
    if r < 0.75 then return pick(STRINGS) end
    if r < 0.82 then return chance(0.5) end
    if r < 0.88 then return { "nil" } end
    if r < 0.92 then return NONE end
    if r < 0.96 then return { "table", {} } end
    if r < 0.98 then return { "stolen", pick(KINDS) } end
    return obj(pick(KINDS), int(1, 2))
  end
  return number_token(lo + (hi - lo) * random.next())
end

local function whole(lo, hi, hostile)
  if chance(hostile or 0.1) then return value(lo, hi, 1) end
  local v = int(lo, hi)
  if chance(0.2) then return v + 0.0 end
  return number_token(v)
end

local function angle() return value(-4, 4) end

local function materialize(w, token)
  if type(token) ~= "table" then return token end
  local tag = token[1]
  if tag == "nil" or tag == "none" then return nil end
  if tag == "int" then return math.tointeger(token[2]) or token[2] end -- luacheck: ignore 143
  if tag == "obj" then
    local list = w[token[2]]
    return list[token[3]] or list[1] or false
  end
  if tag == "stolen" then
    -- a table given an object's metatable by hand: still a table
    local model = w[token[2]][1]
    return model and setmetatable({}, debug.getmetatable(model)) or false
  end
  if tag == "table" then
    local t = {}
    for _, pair in ipairs(token[2]) do t[materialize(w, pair[1])] = materialize(w, pair[2]) end
    return t
  end
  if tag == "list" then
    local t = {}
    for i, v in ipairs(token[2]) do t[i] = materialize(w, v) end
    return t
  end
  error("unknown token " .. tostring(tag))
end

-- the arguments, cut at the first NONE
local function arguments(w, tokens)
  local out, n = {}, 0
  for i, token in ipairs(tokens) do
    if token == NONE then break end
    out[i] = materialize(w, token)
    n = i
  end
  return out, n
end

-- ------------------------------------------------------------------
-- what to make: limits, chains, solver options
-- ------------------------------------------------------------------

-- limit fields as pairs { key, value } (a table token's content)
local function limit_pairs(out)
  local r = random.next()
  local min, max
  local h = 0.04
  if r < 0.35 then min = value(-2, 0, h); max = value(0, 2, h)        -- an elbow
  elseif r < 0.47 then min = value(-1, 1, 0); max = min               -- pinned
  elseif r < 0.57 then min, max = -4, 4                               -- full circle
  elseif r < 0.67 then min, max = 3, 3.5                              -- across pi
  elseif r < 0.7 then min, max = -6.3, 6.3                            -- wider than 2 pi
  elseif r < 0.72 then min, max = 90, 120                             -- degrees by mistake
  elseif r < 0.74 then min, max = value(-1, 1), nil                   -- max missing
  else min = value(-3, 1, h); max = value(-1, 3, h) end
  if min ~= nil then out[#out + 1] = { "min", min } end
  if max ~= nil then out[#out + 1] = { "max", max } end
  if chance(0.25) then out[#out + 1] = { "invert", chance(0.9) and chance(0.5) or value(0, 1, 1) } end
  if chance(0.2) then
    out[#out + 1] = { "space", pick { "world", "world", "world", "parent", "wrld", 3 } }
  end
  return out
end

local LENGTHS = { 1e-6, 1e-3, 1e6, 1e150, 1e200, 1e-150, 5e-324, 1e300 }

local function bone_token()
  if chance(0.02) then return pick { 3, "bone", { "nil" } } end
  local fields = {}
  if not chance(0.01) then
    local length = chance(0.9) and value(0.3, 3, 0.03) or pick(LENGTHS)
    fields[#fields + 1] = { "length", length }
  end
  if chance(0.5) then fields[#fields + 1] = { "angle", value(-2, 2, 0.03) } end
  if chance(0.35) then limit_pairs(fields) end
  if chance(0.01) then fields[#fields + 1] = { pick { "lenght", "min_angle" }, 1 } end
  return { "table", fields }
end

local function chain_token()
  local n
  local r = random.next()
  if r < 0.02 then n = 0 elseif r < 0.04 then n = 65 elseif r < 0.1 then n = int(9, 64)
  elseif r < 0.35 then n = 2 else n = int(1, 6) end
  local fields = {}
  for i = 1, n do fields[#fields + 1] = { i, bone_token() } end
  if chance(0.5) then fields[#fields + 1] = { "x", value(-50, 50, 0.03) } end
  if chance(0.5) then fields[#fields + 1] = { "y", value(-50, 50, 0.03) } end
  if chance(0.4) then fields[#fields + 1] = { "angle", value(-4, 4, 0.03) } end
  if chance(0.2) then fields[#fields + 1] = { "flip", chance(0.95) and chance(0.5) or 0 } end
  if chance(0.01) then fields[#fields + 1] = { pick { "z", 2.5, 0, true }, 1 } end
  return { "table", fields }
end

-- one option as a pair { name, value }
local OPTION = {
  method = function()
    return pick { "ccd", "ccd", "fabrik", "two_bone", "two_bone", "follow", "follow", "CCD", 1 }
  end,
  iterations = function() return whole(1, 30, 0.1) end,
  tolerance = function() return chance(0.8) and value(0, 0.05) or pick { 0, 1e-9, 1, -1, inf } end,
  weight = function() return chance(0.7) and value(0, 1) or pick { 0, 1, 0.5, -1, 2, nan } end,
  damping = function() return chance(0.7) and value(0, 1) or pick { 0, 3.2, -1 } end,
  warm_start = function() return chance(0.95) and chance(0.7) or 1 end,
  exact = function() return chance(0.95) and chance(0.6) or "yes" end,
  sweep = function() return pick { "root", "tip", "tip", "both" } end,
  bend = function() return pick { 1, -1, -1, 0, 2, 1.5 } end,
  softness = function() return chance(0.8) and value(0, 1) or pick { 0, -1, inf } end,
  softness_curve = function() return pick { "smooth", "spine", "spine", "linear" } end,
  stretch = function() return chance(0.7) and value(1, 2) or pick { 1, inf, 0.5, nan } end,
  compress = function() return chance(0.7) and value(0, 1) or pick { 0, 1, 1.5, -0.1 } end,
  uniform = function() return chance(0.95) and chance(0.5) or 0 end,
  tip_angle = function() return chance(0.8) and angle() or pick { false, true, nan } end,
  tip_weight = function() return chance(0.7) and value(0, 1) or pick { 1, 0, 1.5 } end,
  priority = function() return chance(0.8) and value(0, 3) or pick { 0, -1, inf, nan } end,
  together = function() return chance(0.95) and chance(0.5) or 0 end,
  pole = function()
    local r = random.next()
    if r < 0.5 then return { "list", { value(-20, 20), value(-20, 20) } } end
    if r < 0.7 then return { "table", { { "x", value(-20, 20) }, { "y", value(-20, 20) } } } end
    if r < 0.85 then return false end
    return pick { true, 3, { "list", { 1 } } }
  end,
  -- a ray in the last bone's space: a barrel held off the bone, a line of
  -- sight along it
  aim = function()
    local r = random.next()
    local x, y, a = value(-2, 6, 0.05), value(-3, 3, 0.05), angle()
    if r < 0.5 then return { "table", { { "x", x }, { "y", y }, { "angle", a } } } end
    if r < 0.7 then return { "list", { x, y, a } } end
    if r < 0.85 then return false end
    return pick { true, 3, { "list", { 1, 2 } }, { "table", { { "x", 1 }, { "y", 2 } } } }
  end,
}
local OPTION_NAMES = {}
for name in pairs(OPTION) do OPTION_NAMES[#OPTION_NAMES + 1] = name end
table.sort(OPTION_NAMES)

local function options_token(count)
  local fields, seen = {}, {}
  for _ = 1, count do
    local name = pick(OPTION_NAMES)
    if not seen[name] then
      seen[name] = true
      fields[#fields + 1] = { name, OPTION[name]() }
    end
  end
  if chance(0.02) then fields[#fields + 1] = { pick { "iteration", "Weight" }, 1 } end
  return { "table", fields }
end

-- CCD without the exact step (the textbook sweep or its twin), as games
-- run it frame after frame: the pure core's kernels
local function textbook_token()
  local fields = { { "exact", false }, { "sweep", pick { "tip", "tip", "root" } } }
  if chance(0.3) then fields[#fields + 1] = { "damping", value(0, 1, 0) } end
  if chance(0.4) then fields[#fields + 1] = { "iterations", whole(1, 30, 0) } end
  if chance(0.4) then fields[#fields + 1] = { "tolerance", OPTION.tolerance() } end
  if chance(0.2) then fields[#fields + 1] = { "weight", OPTION.weight() } end
  if chance(0.2) then fields[#fields + 1] = { "warm_start", chance(0.5) } end
  return { "table", fields }
end

-- ------------------------------------------------------------------
-- operations: each a call both worlds make with the same tokens
-- ------------------------------------------------------------------

-- op = { how = "method" | "module" | "len" | "tostring" | "gc" | "resend" | "array set"
-- | "array get", kind, index, name, style, args, keep = kind to keep a new
-- object as }
local function method(kind, index, name, args, style)
  return { how = "method", kind = kind, index = index, name = name, args = args or {},
           style = style or (chance(0.9) and "colon" or "dot") }
end

-- A value the object has, read and set again: the reader read's results
-- (after the arguments args, a bone) given to the setter write.
local function resend(kind, index, read, write, args)
  return { how = "resend", kind = kind, index = index, name = write, read = read, args = args or {} }
end

local function bone_index(w_count)
  if chance(0.05) then return whole(0, w_count + 1, 1) end
  return whole(1, math.max(1, w_count), 0)
end

local CHAIN_READS = { "pose", "angle", "world_angle", "length", "rest", "constraint" }
local SOLVER_READS = { "target", "weight", "iterations", "tolerance", "method", "tip_angle",
  "pole", "aim", "result", "chain" }
local SOLVER_SETTERS = {
  set_weight = function() return OPTION.weight() end,
  set_iterations = function() return OPTION.iterations() end,
  set_tolerance = function() return OPTION.tolerance() end,
}

-- The next operation, drawn from the counts of objects (the same in both
-- worlds: a call makes an object in both or in neither).
local function plain_op(counts, bones, sizes, wc)
  local r = random.next()
  local chains, solvers, groups = counts.chain, counts.solver, counts.group
  local ci, si = int(1, math.max(chains, 1)), int(1, math.max(solvers, 1))
  local n = bones[ci] or 3
  if chains == 0 or r < 0.03 then
    return { how = "module", name = "chain", args = { chain_token() }, keep = "chain" }
  end
  if solvers == 0 or r < 0.06 then
    local args = { obj("chain", ci) }
    if chance(0.7) then args[2] = options_token(int(0, 5)) end
    if n == 2 and chance(0.5) then
      -- a limb: two_bone with softness and stretch
      args[2] = { "table", { { "method", "two_bone" }, { "softness", value(0, 1, 0) },
        { "softness_curve", OPTION.softness_curve() }, { "stretch", OPTION.stretch() },
        { "bend", OPTION.bend() } } }
    end
    if chance(0.3) then args[2] = textbook_token() end
    if chance(0.02) then args[1] = value(0, 1, 1) end
    return { how = "module", name = "solver", args = args, keep = "solver" }
  end
  if r < 0.3 then
    local x, y = value(-12, 12, 0.06), value(-12, 12, 0.06)
    -- half the targets around the chain's reach from its base (full
    -- reach, softness, stretch, the straight pose): read from the C world
    local ok, chain = pcall(function() return wc.solver[si]:chain() end)
    if ok and chance(0.5) then
      local bx, by = chain:base()
      local d, a = chain:reach() * (0.7 + 0.6 * random.next()), 2 * math.pi * random.next()
      x, y = bx + d * math.cos(a), by + d * math.sin(a)
    end
    return method("solver", si, "set_target", { x, y })
  end
  if r < 0.5 then return method("solver", si, "solve", {}) end
  if r < 0.56 then
    local name = pick(CHAIN_READS)
    return method("chain", ci, name, { bone_index(n) })
  end
  if r < 0.6 then
    local name = pick { "joint", "joints", "tip", "base", "reach", "scale", "uniform", "flip" }
    local args = {}
    if name == "joint" then args[1] = whole(1, n + 1, 0.08) end
    if name == "joints" and chance(0.5) then
      args[1] = chance(0.9) and { "list", { 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11 } } or value(0, 1, 1)
    end
    return method("chain", ci, name, args)
  end
  if r < 0.62 then return { how = pick { "len", "tostring" }, kind = pick(KINDS), index = int(1, 2) } end
  if r < 0.65 then return method("solver", si, pick(SOLVER_READS), {}) end
  if r < 0.66 then
    return method("solver", si, "options", { chance(0.7) and { "table", {} } or value(0, 1, 1) })
  end
  if r < 0.7 then
    if chance(0.2) then return resend("chain", ci, "pose", "set_pose", { bone_index(n) }) end
    return method("chain", ci, "set_pose", { bone_index(n), angle() })
  end
  if r < 0.72 then
    if chance(0.2) then return resend("chain", ci, "base", "set_base") end
    local args = { value(-30, 30, 0.08), value(-30, 30, 0.08) }
    if chance(0.6) then args[3] = angle() end
    return method("chain", ci, "set_base", args)
  end
  if r < 0.73 then
    if chance(0.2) then
      local what = pick { "flip", "length", "rest" }
      return resend("chain", ci, what, "set_" .. what, what ~= "flip" and { bone_index(n) } or nil)
    end
    if chance(0.5) then return method("chain", ci, "set_flip", { chance(0.95) and chance(0.5) or 1 }) end
    if chance(0.5) then return method("chain", ci, "set_length", { bone_index(n), value(0.3, 3) }) end
    return method("chain", ci, "set_rest", { bone_index(n), angle() })
  end
  if r < 0.74 then return method("chain", ci, "reset", {}) end
  if r < 0.76 then
    local c = chance(0.2) and { "nil" } or obj("constraint", int(1, math.max(counts.constraint, 1)))
    if chance(0.03) then c = obj("chain", 1) end
    return method("chain", ci, "set_constraint", { bone_index(n), c })
  end
  if r < 0.77 then
    return { how = "module", name = "constraint", args = { { "table", limit_pairs({}) } },
             keep = "constraint" }
  end
  if r < 0.79 and counts.constraint > 0 then
    local k = int(1, counts.constraint)
    if chance(0.6) then
      local args = { value(-3, 0), value(0, 3) }
      if chance(0.4) then args[3] = chance(0.9) and chance(0.5) or 1 end
      return method("constraint", k, "set_limits", args)
    end
    return method("constraint", k, pick { "limits", "invert", "space", "arc" }, {})
  end
  if r < 0.85 then
    local name = pick { "set_weight", "set_iterations", "set_tolerance" }
    return method("solver", si, name, { SOLVER_SETTERS[name]() })
  end
  if r < 0.88 then
    return method("solver", si, "set_options", { chance(0.95) and options_token(int(1, 4)) or 5 })
  end
  if r < 0.9 then
    local args = { angle() }
    if chance(0.5) then args[2] = OPTION.tip_weight() end
    return method("solver", si, "set_tip_angle", args)
  end
  if r < 0.905 then return method("solver", si, "set_pole", { value(-20, 20), value(-20, 20) }) end
  if r < 0.91 then
    return method("solver", si, "set_aim", { value(-2, 6), value(-3, 3), angle() })
  end
  if r < 0.92 then
    return method("solver", si, pick { "clear_tip_angle", "clear_pole", "clear_aim", "forget" }, {})
  end
  if r < 0.93 then
    local items = {}
    for k = 1, int(1, math.min(solvers, 4)) do items[k] = obj("solver", int(1, solvers)) end
    if chance(0.05) then items[#items + 1] = obj("chain", 1) end
    return { how = "module", name = "group", args = { { "list", items } }, keep = "group" }
  end
  if r < 0.99 and groups > 0 then
    local g = int(1, groups)
    local size = sizes[g] or 1
    local name = pick { "solve", "solve", "set_targets", "joints", "solver", "joint_offset",
      "target_array", "joint_array", "array set", "array get" }
    if name == "set_targets" then
      local list = {}
      local count = chance(0.85) and 2 * size or int(0, 9)
      for k = 1, count do list[k] = value(-12, 12, 0.04) end
      return method("group", g, name, { { "list", list } })
    elseif name == "joints" then
      return method("group", g, name, chance(0.5) and { { "table", {} } } or {})
    elseif name == "solver" or name == "joint_offset" then
      return method("group", g, name, { whole(1, size + (chance(0.1) and 1 or 0), 0.05) })
    elseif name == "array set" or name == "array get" then
      return { how = name, index = g, entry = int(0, 7),
               value = chance(0.9) and value(-12, 12, 0) or pick(HOSTILE) }
    end
    return method("group", g, name, {})
  end
  if r < 0.9975 then return { how = "gc", kind = pick(KINDS), index = int(1, 3) } end
  -- instruction sets: the pure core has one, "scalar" (the C core's
  -- others give the same bits: the groups above compare them)
  return { how = "module", name = "use_isa", args = { pick { "scalar", "avx9", 1, true } } }
end

-- a spring setting: a number, or now and then an array of one per bone
-- (a chain has 1 to 4 bones here: some arrays are the wrong length)
local function per_bone_token(lo, hi, bad)
  if chance(0.75) then return chance(0.9) and value(lo, hi, 0) or bad() end
  local items = {}
  for i = 1, int(1, 4) do items[i] = chance(0.95) and value(lo, hi, 0) or bad() end
  return { "list", items }
end

-- spring options as pairs
local function spring_options_token()
  local fields = {}
  if chance(0.5) then
    fields[#fields + 1] = { "stiffness", per_bone_token(0, 300, function() return value(0, 1, 1) end) }
  end
  if chance(0.5) then
    fields[#fields + 1] = { "damping", per_bone_token(0, 30, function() return value(0, 1, 1) end) }
  end
  if chance(0.4) then
    fields[#fields + 1] = { "mass", per_bone_token(0.1, 3, function() return pick { 0, -1, 1e-310, inf } end) }
  end
  if chance(0.3) then
    local wind = { "list", { value(-300, 300, 0.05), value(-300, 300, 0.05) } }
    fields[#fields + 1] = { "wind", chance(0.9) and wind or pick { 3, { "list", { 1 } } } }
  end
  if chance(0.3) then fields[#fields + 1] = { "weight", OPTION.weight() } end
  if chance(0.4) then
    local g = { "list", { value(-500, 500, 0.05), value(-500, 800, 0.05) } }
    fields[#fields + 1] = { "gravity", chance(0.9) and g or pick { 3, { "list", { 1 } } } }
  end
  if chance(0.02) then fields[#fields + 1] = { "gravty", 1 } end
  return { "table", fields }
end

-- colliders for set_colliders: circles and segments near the chains,
-- now and then a bad one or too many
local function colliders_token()
  local items = {}
  local count = chance(0.97) and int(0, 4) or 17
  for i = 1, count do
    local fields
    if chance(0.5) then
      fields = { { "x", value(-12, 12, 0.03) }, { "y", value(-12, 12, 0.03) },
                 { "radius", chance(0.95) and value(0, 5, 0.03) or -1 } }
    else
      fields = { { "x1", value(-12, 12, 0.03) }, { "y1", value(-12, 12, 0.03) },
                 { "x2", value(-12, 12, 0.03) }, { "y2", value(-12, 12, 0.03) } }
    end
    if chance(0.02) then fields[#fields + 1] = { pick { "radius", "x2", "z" }, 1 } end
    items[i] = chance(0.98) and { "table", fields } or value(0, 1, 1)
  end
  return { "list", items }
end

-- springs: made, updated and edited
local function spring_op(counts)
  local k = int(1, math.max(counts.spring, 1))
  local r = random.next()
  if counts.spring == 0 or r < 0.1 then
    local args = { obj("chain", int(1, math.max(counts.chain, 1))) }
    if chance(0.7) then args[2] = spring_options_token() end
    return { how = "module", name = "spring", args = args, keep = "spring" }
  end
  if r < 0.6 then
    local dt = chance(0.9) and pick { 1 / 60, 1 / 60, 1 / 144, 1 / 30, 0.1, 0 } or value(0, 1, 1)
    if chance(0.05) then dt = pick { 2.5, inf, -0.01, nan } end
    return method("spring", k, "update", { dt })
  end
  if r < 0.65 then return method("spring", k, "reset", {}) end
  if r < 0.72 then return method("spring", k, "set_weight", { OPTION.weight() }) end
  if r < 0.78 then return method("spring", k, "set_gravity", { value(-500, 500), value(-500, 800) }) end
  if r < 0.85 then return method("spring", k, "set_options", { chance(0.95) and spring_options_token() or 2 }) end
  if r < 0.88 then return method("spring", k, "set_wind", { value(-300, 300), value(-300, 300) }) end
  if r < 0.92 then return method("spring", k, "set_colliders", { chance(0.9) and colliders_token() or NONE }) end
  if r < 0.95 then return method("spring", k, "velocity", { whole(1, 4, 0.1) }) end
  return method("spring", k, pick { "options", "gravity", "wind", "colliders", "weight", "chain" }, {})
end

-- A scale as a rig has one: mostly positive, now and then a reflection,
-- a mirror or a y-up flip (hostile: the share of other values)
local function scale_value(hostile)
  local r = random.next()
  if r < 0.15 then return -1 end
  if r < 0.25 then return 1 end
  local v = value(0.3, 2.5, hostile)
  if type(v) == "number" and chance(0.2) then v = -v end
  return v
end

-- a bone table's scale and shear (pairs), as rigs from Spine and
-- DragonBones have them
local function model_fields(bone, hostile)
  if chance(0.35) then bone[#bone + 1] = { "scale_x", scale_value(hostile) } end
  if chance(0.35) then bone[#bone + 1] = { "scale_y", scale_value(hostile) } end
  if chance(0.15) then bone[#bone + 1] = { "shear_x", value(-0.6, 0.6, hostile) } end
  if chance(0.15) then bone[#bone + 1] = { "shear_y", value(-0.6, 0.6, hostile) } end
  if chance(0.04) then bone[#bone + 1] = { pick { "scale_x", "scale_y" }, pick { 0, -0.0, "big" } } end
end

-- A skeleton's table: a tree of up to a few dozen bones (now and then one
-- path longer than a chain takes), names, parents given by name, origins
-- off the parent's tip, position-only bones, limits, pivots; and the
-- names and parents (indices) as drawn, to pick bones and paths from.
local function skeleton_token(clean)
  local n
  local r = random.next()
  local line = false -- every bone on its parent's tip, one path
  local h = clean and 0 or 0.03 -- hostile values
  if clean then n = int(3, 12)
  elseif r < 0.015 then n = 0 elseif r < 0.02 then n = 257
  elseif r < 0.03 then n, line = 70, true elseif r < 0.12 then n = int(9, 24)
  else n = int(1, 8) end
  local fields, names, parents = {}, {}, {}
  for i = 1, n do
    local name = "b" .. i
    if not clean and chance(0.01) then name = pick { "b1", "b\0" .. i, 5, false } end
    names[i] = name
    local bone = { { "name", name } }
    local parent = 0
    if line then
      parent = i - 1
    elseif i > 1 and not chance(0.12) then
      parent = chance(0.6) and i - 1 or int(1, i - 1)
    end
    parents[i] = parent
    if parent > 0 then bone[#bone + 1] = { "parent", names[parent] } end
    if not clean and chance(0.01) then
      bone[#bone + 1] = { "parent", pick { "b" .. (i + 1), "nobody", 3, true } }
    end
    if clean or not chance(0.01) then
      local length = value(0.3, 3, h)
      if chance(0.06) then length = clean and 0 or pick { 0, -0.0, 1e-300, 1e150, -1 } end
      bone[#bone + 1] = { "length", length }
    end
    if chance(0.5) then bone[#bone + 1] = { "angle", value(-2, 2, h) } end
    if not line and chance(0.15) then bone[#bone + 1] = { "x", value(-2, 2, h) } end
    if not line and chance(0.15) then bone[#bone + 1] = { "y", value(-2, 2, h) } end
    if chance(0.08) then
      local inherit = pick { "position", "all" }
      if model_on then
        inherit = pick { "position", "all", "no_rotation_or_reflection", "no_scale",
                         "no_scale_or_reflection" }
      end
      if not clean and chance(0.1) then inherit = pick { "pos", 1 } end
      bone[#bone + 1] = { "inherit", inherit }
    end
    if model_on then model_fields(bone, h) end
    if chance(0.3) then
      local limit = limit_pairs({})
      -- world-space limits are refused: one skeleton in a few
      for _, pair in ipairs(limit) do
        if pair[1] ~= "space" or (not clean and chance(0.2)) then bone[#bone + 1] = pair end
      end
    end
    if not clean and chance(0.005) then bone[#bone + 1] = { pick { "lenght", "parnet" }, 1 } end
    fields[#fields + 1] = { i, (not clean and chance(0.003)) and 7 or { "table", bone } }
  end
  if chance(0.5) then fields[#fields + 1] = { "x", value(-50, 50, h) } end
  if chance(0.5) then fields[#fields + 1] = { "y", value(-50, 50, h) } end
  if chance(0.4) then fields[#fields + 1] = { "angle", value(-4, 4, h) } end
  if chance(0.2) then fields[#fields + 1] = { "flip", (clean or chance(0.95)) and chance(0.5) or 0 } end
  if model_on and chance(0.2) then
    fields[#fields + 1] = { "scale_x", scale_value(h) }
    fields[#fields + 1] = { "scale_y", scale_value(h) }
  end
  if not clean and chance(0.005) then fields[#fields + 1] = { "z", 1 } end
  return { "table", fields }, names, parents
end

-- A solver's options as a Spine rig's IK constraint sets them (a chain of
-- one bone or two), now and then with what takes it off the bone IK.
local function spine_options()
  local fields = { { "method", pick { "two_bone", "two_bone", "ccd", "fabrik" } } }
  if chance(0.5) then fields[#fields + 1] = { "stretch", chance(0.8) and value(1, 2, 0.03) or 1 } end
  if chance(0.3) then fields[#fields + 1] = { "compress", value(0.3, 1, 0.03) } end
  if chance(0.3) then fields[#fields + 1] = { "uniform", chance(0.5) } end
  if chance(0.3) then fields[#fields + 1] = { "softness", value(0, 1, 0.03) } end
  if chance(0.3) then fields[#fields + 1] = { "softness_curve", pick { "smooth", "spine" } } end
  if chance(0.4) then fields[#fields + 1] = { "bend", pick { 1, -1 } } end
  if chance(0.3) then fields[#fields + 1] = { "weight", chance(0.5) and value(0, 1, 0.03) or 0 } end
  if chance(0.2) then fields[#fields + 1] = { "together", chance(0.5) } end
  if chance(0.08) then fields[#fields + 1] = { "tip_angle", angle() } end
  if chance(0.05) then fields[#fields + 1] = { "pole", { "list", { value(-20, 20), value(-20, 20) } } } end
  return { "table", fields }
end

local MIXES = { "mix_rotate", "mix_x", "mix_y", "mix_scale_x", "mix_scale_y", "mix_shear_y" }
local OFFSETS = { "offset_rotation", "offset_x", "offset_y", "offset_scale_x", "offset_scale_y",
  "offset_shear_y" }

-- A transform constraint's options: its bones and target (bone(): a bone
-- token; full: both there, as ik2d.transform_constraint needs them), its
-- mixes, offsets and switches.
local function constraint_options(bone, full, hostile)
  local fields = {}
  if full or chance(0.3) then
    local items = {}
    for i = 1, int(1, 3) do items[i] = bone() end
    if chance(hostile) then items = {} end
    fields[#fields + 1] = { "bones", chance(1 - hostile) and { "list", items } or value(0, 1, 1) }
  end
  if full or chance(0.3) then fields[#fields + 1] = { "target", bone() } end
  for _, name in ipairs(MIXES) do
    if chance(0.35) then fields[#fields + 1] = { name, chance(0.3) and pick { 0, 1 } or value(0, 1, hostile) } end
  end
  for _, name in ipairs(OFFSETS) do
    if chance(0.2) then fields[#fields + 1] = { name, value(-1, 1, hostile) } end
  end
  if chance(0.4) then fields[#fields + 1] = { "local", chance(1 - hostile) and chance(0.5) or 1 } end
  if chance(0.4) then fields[#fields + 1] = { "relative", chance(1 - hostile) and chance(0.5) or 0 } end
  if chance(hostile) then fields[#fields + 1] = { pick { "mix", "bone", 3 }, 1 } end
  if full and chance(hostile) then table.remove(fields, 1) end
  return { "table", fields }
end

-- The bone model's calls on skeleton k (rig: its names and parents, bone:
-- a bone token of it): whole local poses, reads, its scale, matrices,
-- transform constraints, orders, and chains of a bone or two with Spine's
-- IK on them.
local function model_op(counts, rig, k, bone)
  local r = random.next()
  local count = #rig.names
  local tcs = counts.transformconstraint
  if r < 0.2 then
    -- the whole local pose, a nil keeping a part
    local args = { bone(), angle() }
    for p = 1, int(0, 6) do
      local v
      if chance(0.25) then v = { "nil" }
      elseif p <= 2 then v = value(-3, 3, 0.05)
      elseif p <= 4 then v = scale_value(0.05)
      else v = value(-0.6, 0.6, 0.05) end
      args[#args + 1] = v
    end
    return method("skeleton", k, "set_pose", args)
  end
  if r < 0.3 then return method("skeleton", k, pick { "pose", "result", "setup", "matrix" }, { bone() }) end
  if r < 0.35 then return method("skeleton", k, "set_scale", { scale_value(0.08), scale_value(0.08) }) end
  if r < 0.4 then
    local args = {}
    if chance(0.5) then
      args[1] = chance(0.9) and { "list", { 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13 } } or value(0, 1, 1)
    end
    return method("skeleton", k, pick { "matrices", "order", "constraints", "scale" }, args)
  end
  -- (kept: the state compares its content)
  if r < 0.42 then return method("skeleton", k, "matrix_array", {}) end
  if r < 0.52 then
    local args = { chance(0.97) and obj("skeleton", k) or value(0, 1, 1), constraint_options(bone, true, 0.03) }
    if chance(0.02) then args[2] = value(0, 1, 1) end
    return { how = "module", name = "transform_constraint", args = args, keep = "transformconstraint" }
  end
  if r < 0.66 and tcs > 0 then
    local c = int(1, tcs)
    local rr = random.next()
    if rr < 0.45 then return method("transformconstraint", c, "apply", {}) end
    if rr < 0.75 then
      return method("transformconstraint", c, "set_options", { constraint_options(bone, false, 0.05) })
    end
    return method("transformconstraint", c, pick { "options", "skeleton" },
                  chance(0.3) and { { "table", {} } } or {})
  end
  if r < 0.78 then
    local items = {}
    for i = 1, int(0, 5) do
      if chance(0.5) and tcs > 0 then items[i] = obj("transformconstraint", int(1, tcs))
      else items[i] = obj("solver", int(1, math.max(counts.solver, 1))) end
      if chance(0.03) then items[i] = value(0, 1, 1) end
    end
    return method("skeleton", k, "set_order", { chance(0.95) and { "list", items } or pick { { "nil" }, 3 } })
  end
  if r < 0.89 then
    -- a limb: a bone and its parent, or a bone alone
    local to = int(1, count)
    local from = to
    if rig.parents[to] > 0 and chance(0.6) then from = rig.parents[to] end
    return method("skeleton", k, "chain", { rig.names[from], rig.names[to] })
  end
  return { how = "module", name = "solver", args = { obj("chain", math.max(counts.chain, 1)), spine_options() },
           keep = "solver" }
end

-- skeletons: made, edited, read, chains over their paths, solvers on
-- them, solved whole (rigs: the names and parents of each skeleton made)
local function skeleton_op(counts, rigs)
  local k = int(1, math.max(counts.skeleton, 1))
  local rig = rigs[k]
  local r = random.next()
  if counts.skeleton == 0 or not rig or r < 0.06 then
    local token, names, parents = skeleton_token()
    return { how = "module", name = "skeleton", args = { token }, keep = "skeleton",
             rig = { names = names, parents = parents } }
  end
  local count = #rig.names
  local function bone(i)
    if chance(0.04) then return pick { "nobody", 0, count + 1, 1.5, true, { "nil" }, NONE, "b1\0x" } end
    i = i or int(1, count)
    if chance(0.5) then return rig.names[i] end
    return chance(0.2) and i + 0.0 or number_token(i)
  end
  if model_on and chance(0.5) then return model_op(counts, rig, k, bone) end
  if r < 0.22 then
    -- a path: from an ancestor of to (now and then any bone)
    local to = int(1, count)
    local from = to
    while rig.parents[from] > 0 and chance(0.6) do from = rig.parents[from] end
    if chance(0.08) then from = int(1, count) end
    -- (the chain returned is kept as a chain: show names it)
    return method("skeleton", k, "chain", { bone(from), bone(to) })
  end
  if r < 0.3 then
    -- a solver on the newest chain (a skeleton's, as a rule)
    local args = { obj("chain", math.max(counts.chain, 1)), options_token(int(0, 4)) }
    if chance(0.5) then
      args[2] = { "table", { { "together", chance(0.8) }, { "priority", OPTION.priority() },
        { "iterations", whole(1, 30, 0) }, { "method", pick { "ccd", "fabrik", "two_bone" } } } }
    end
    return { how = "module", name = "solver", args = args, keep = "solver" }
  end
  if r < 0.46 then return method("skeleton", k, "solve", {}) end
  if r < 0.54 then
    if chance(0.2) then return resend("skeleton", k, "pose", "set_pose", { bone() }) end
    return method("skeleton", k, "set_pose", { bone(), angle() })
  end
  if r < 0.57 then
    if chance(0.3) then return resend("skeleton", k, "base", "set_base") end
    local args = { value(-30, 30, 0.08), value(-30, 30, 0.08) }
    if chance(0.6) then args[3] = angle() end
    return method("skeleton", k, "set_base", args)
  end
  if r < 0.59 then
    if chance(0.3) then
      local what = pick { "flip", "length", "rest", "scale" }
      return resend("skeleton", k, what, "set_" .. what, (what == "length" or what == "rest") and { bone() } or nil)
    end
    return method("skeleton", k, "set_flip", { chance(0.95) and chance(0.5) or 1 })
  end
  if r < 0.62 then
    local length = value(0, 3)
    if chance(0.1) then length = pick { 0, -0.0, 1e308, 1e-300 } end
    return method("skeleton", k, "set_length", { bone(), length })
  end
  if r < 0.65 then return method("skeleton", k, "set_rest", { bone(), angle() }) end
  if r < 0.69 then
    local c = chance(0.25) and { "nil" } or obj("constraint", int(1, math.max(counts.constraint, 1)))
    return method("skeleton", k, "set_constraint", { bone(), c })
  end
  if r < 0.7 then return method("skeleton", k, "reset", {}) end
  if r < 0.86 then
    local name = pick { "pose", "angle", "length", "rest", "world", "tip", "origin", "inherit",
      "parent", "name", "constraint" }
    return method("skeleton", k, name, { bone() })
  end
  if r < 0.93 then
    local name = pick { "transforms", "solvers", "base", "flip" }
    local args = {}
    if (name == "transforms" or name == "solvers") and chance(0.5) then
      args[1] = chance(0.9) and { "list", { 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12 } } or value(0, 1, 1)
    end
    return method("skeleton", k, name, args)
  end
  if r < 0.97 then
    return method("skeleton", k, "bone", { chance(0.8) and rig.names[int(1, count)] or value(0, 1, 1) })
  end
  -- (kept: the state compares its content after every change)
  if r < 0.975 then return method("skeleton", k, "transform_array", {}) end
  -- targets on bones: any solver (on this skeleton, another, a plain chain)
  local s = int(1, math.max(counts.solver, 1))
  r = random.next()
  if r < 0.6 then
    local on = chance(0.9) and k or int(1, counts.skeleton)
    local args = { chance(0.97) and obj("skeleton", on) or value(0, 1, 1), bone() }
    if chance(0.7) then
      args[3] = value(-3, 3)
      if chance(0.7) then args[4] = value(-3, 3) end
    end
    return method("solver", s, "set_target_bone", args)
  end
  if r < 0.8 then return method("solver", s, "target_bone", {}) end
  return method("solver", s, "clear_target_bone", {})
end

-- A rig solved frame after frame: a skeleton, chains over paths that
-- share bones (from an ancestor down), a solver on each (together as a
-- rule: coupled solves), then frames of targets near each chain's reach and
-- sk:solve, with an edit or another skeleton operation now and then.
local function rig_op(counts, rigs, wc)
  local plan = rigs.plan
  if not plan then
    local token, names, parents = skeleton_token(true)
    rigs.plan = { chains = int(2, 5), made = 0, step = "chain", frame = 0 }
    return { how = "module", name = "skeleton", args = { token }, keep = "skeleton",
             rig = { names = names, parents = parents } }
  end
  local rig = rigs[1]
  if not rig then return plain_op(counts, {}, {}, wc) end -- the skeleton was refused
  local count = #rig.names
  if plan.made < plan.chains then
    if plan.step == "chain" then
      plan.step = "solver"
      local to = int(1, count)
      local from = to
      while rig.parents[from] > 0 and chance(0.7) do from = rig.parents[from] end
      return method("skeleton", 1, "chain", { rig.names[from], rig.names[to] })
    end
    plan.step, plan.made = "chain", plan.made + 1
    local fields = { { "together", chance(0.85) }, { "iterations", int(3, 30) } }
    if chance(0.5) then fields[#fields + 1] = { "priority", pick { 0, 0.5, 1, 2, 10 } } end
    if chance(0.3) then fields[#fields + 1] = { "weight", pick { 0, 0.3, 1, 1 } } end
    if chance(0.4) then fields[#fields + 1] = { "method", pick { "ccd", "fabrik", "two_bone" } } end
    if chance(0.3) then fields[#fields + 1] = { "tolerance", pick { 0, 1e-6, 0.01, 0.5 } } end
    if chance(0.3) then fields[#fields + 1] = { "exact", chance(0.5) } end
    if chance(0.2) then fields[#fields + 1] = { "sweep", "tip" } end
    if chance(0.2) then fields[#fields + 1] = { "damping", value(0, 1, 0) } end
    if chance(0.15) then fields[#fields + 1] = { "tip_angle", angle() } end
    if chance(0.1) then fields[#fields + 1] = { "pole", { "list", { value(-20, 20), value(-20, 20) } } } end
    if chance(0.2) then fields[#fields + 1] = { "warm_start", false } end
    return { how = "module", name = "solver", args = { obj("chain", counts.chain), { "table", fields } },
             keep = "solver" }
  end
  -- frames: every target, then the solve
  plan.frame = plan.frame + 1
  local k = (plan.frame - 1) % (counts.solver + 1) + 1
  if k > counts.solver then return method("skeleton", 1, "solve", {}) end
  if chance(0.08) then return skeleton_op(counts, rigs) end
  -- now and then a target on a bone of the rig (moving with a joint
  -- solve, ordering the solvers, or a cycle refused)
  -- (kept a few frames: no set_target meanwhile)
  plan.on_bone = plan.on_bone or {}
  if (plan.on_bone[k] or 0) > 0 then
    plan.on_bone[k] = plan.on_bone[k] - 1
    return method("solver", k, "target", {})
  end
  if chance(0.1) then
    plan.on_bone[k] = int(0, 12)
    return method("solver", k, "set_target_bone", { obj("skeleton", 1), rig.names[int(1, count)],
                                                      value(-2, 2, 0), value(-2, 2, 0) })
  end
  local x, y = value(-5, 5, 0), value(-5, 5, 0)
  local ok, chain = pcall(function() return wc.solver[k]:chain() end)
  if ok then
    local bx, by = chain:base()
    local d, a = chain:reach() * (0.3 + 0.9 * random.next()), 2 * math.pi * random.next()
    x, y = bx + d * math.cos(a), by + d * math.sin(a)
  end
  return method("solver", k, "set_target", { x, y })
end

-- A character rigged as artists rig one, solved frame after frame: a
-- skeleton of scaled, sheared, reflected bones of every inherit mode, its
-- limbs (a bone and its parent, or one bone) with Spine's IK settings,
-- transform constraints, now and then an order of them all; then frames
-- of whole local poses, targets near each limb, solves, the skeleton's
-- scale, flip and base, a constraint applied or set, and any other
-- skeleton operation now and then.
local function model_rig_op(counts, rigs, wc)
  local plan = rigs.plan
  if not plan then
    local token, names, parents = skeleton_token(true)
    rigs.plan = { limbs = int(1, 4), made = 0, step = "chain", constraints = int(1, 3), made_c = 0,
                  ordered = false }
    return { how = "module", name = "skeleton", args = { token }, keep = "skeleton",
             rig = { names = names, parents = parents } }
  end
  local rig = rigs[1]
  if not rig then return plain_op(counts, {}, {}, wc) end -- the skeleton was refused
  local count = #rig.names
  local function name() return rig.names[int(1, count)] end
  if plan.made < plan.limbs then
    if plan.step == "chain" then
      plan.step = "solver"
      local to = int(1, count)
      local from = to
      if rig.parents[to] > 0 and chance(0.7) then from = rig.parents[to] end
      return method("skeleton", 1, "chain", { rig.names[from], rig.names[to] })
    end
    plan.step, plan.made = "chain", plan.made + 1
    return { how = "module", name = "solver", args = { obj("chain", math.max(counts.chain, 1)), spine_options() },
             keep = "solver" }
  end
  if plan.made_c < plan.constraints then
    plan.made_c = plan.made_c + 1
    return { how = "module", name = "transform_constraint",
             args = { obj("skeleton", 1), constraint_options(name, true, 0) }, keep = "transformconstraint" }
  end
  if not plan.ordered then
    plan.ordered = true
    local items = {}
    for s = 1, counts.solver do
      if chance(0.7) then items[#items + 1] = obj("solver", s) end
    end
    for c = 1, counts.transformconstraint do
      if chance(0.8) then table.insert(items, int(1, #items + 1), obj("transformconstraint", c)) end
    end
    if #items > 0 and chance(0.7) then return method("skeleton", 1, "set_order", { { "list", items } }) end
  end
  local r = random.next()
  if r < 0.18 then return method("skeleton", 1, "solve", {}) end
  if r < 0.34 then
    return method("skeleton", 1, "set_pose", { name(), value(-3, 3, 0), value(-2, 2, 0), value(-2, 2, 0),
                                               scale_value(0), scale_value(0), value(-0.5, 0.5, 0),
                                               value(-0.5, 0.5, 0) })
  end
  if r < 0.38 then return method("skeleton", 1, "set_scale", { scale_value(0), scale_value(0) }) end
  if r < 0.41 then return method("skeleton", 1, "set_flip", { chance(0.5) }) end
  if r < 0.44 then return method("skeleton", 1, "set_base", { value(-9, 9, 0), value(-9, 9, 0), angle() }) end
  if r < 0.5 and counts.transformconstraint > 0 then
    local c = int(1, counts.transformconstraint)
    if chance(0.5) then return method("transformconstraint", c, "apply", {}) end
    return method("transformconstraint", c, "set_options", { constraint_options(name, false, 0) })
  end
  if r < 0.55 and counts.solver > 0 then return method("solver", int(1, counts.solver), "solve", {}) end
  if r < 0.6 then return skeleton_op(counts, rigs) end
  if counts.solver == 0 then return method("skeleton", 1, "solve", {}) end
  local k = int(1, counts.solver)
  local x, y = value(-5, 5, 0), value(-5, 5, 0)
  local ok, chain = pcall(function() return wc.solver[k]:chain() end)
  if ok then
    local bx, by = chain:base()
    local d, a = chain:reach() * (0.3 + 1.2 * random.next()), 2 * math.pi * random.next()
    x, y = bx + d * math.cos(a), by + d * math.sin(a)
  end
  return method("solver", k, "set_target", { x, y })
end

local function next_op(counts, bones, sizes, wc, rigs)
  if rigs.model then return model_rig_op(counts, rigs, wc) end
  if rigs.joint then return rig_op(counts, rigs, wc) end
  -- a share of the operations go to springs, and in a skeleton's
  -- sequence to skeletons
  local r = random.next()
  if r < 0.12 and SPRINGS then return spring_op(counts) end
  if rigs.on and r < 0.5 then return skeleton_op(counts, rigs) end
  return plain_op(counts, bones, sizes, wc)
end

-- what a re-sent value that moved a bit gives: a failure in either core
local RESENT_MOVED = "a value set again that the object had changed its state"

-- Runs op in world w; returns the text both worlds must agree on.
local function run(w, op)
  local core = w.core
  if op.how == "module" then
    local args, n = arguments(w, op.args)
    local ok, r = pcall(caller("module", op.name), core, unpack(args, 1, n))
    if not ok then return "error " .. tostring(r) end
    if op.keep and r.n >= 1 and r[1] ~= nil then keep(w, op.keep, r[1]) end
    return show_all(w, r)
  end
  if op.how == "array set" or op.how == "array get" then
    -- an entry within the array (the FFI checks no bounds)
    local kind = op.how == "array set" and "target_array" or "joint_array"
    local array, g = w.arrays[kind][op.index], w.group[op.index]
    if not array then return "no array" end
    local ok, size = pcall(function()
      if kind == "target_array" then return 2 * #g end
      return g:joint_offset(#g) + 2 * (#g:solver(#g):chain() + 1)
    end)
    if not ok then return "no size" end
    local entry = op.entry % size
    if kind == "target_array" then
      local set_ok, r = pcall(call_set, array, entry, materialize(w, op.value))
      return set_ok and "set" or "error " .. tostring(r)
    end
    local get_ok, r = pcall(call_get, array, entry)
    return get_ok and show_all(w, r) or "error " .. tostring(r)
  end
  local target = w[op.kind][op.index]
  if target == nil then return "no object" end
  local ok, r
  if op.how == "len" then
    ok, r = pcall(call_len, target)
    -- Lua names the variable of a length it cannot take; a pure object's
    -- __len (a table's, on 5.2+) cannot see it
    if not ok then r = tostring(r):gsub(" %(local 'o'%)$", "") end
  elseif op.how == "tostring" then ok, r = pcall(call_tostring, target)
  elseif op.how == "gc" then ok, r = pcall(call_gc, target)
  elseif op.how == "resend" then
    -- a value the object has changes no bit of any object's state (a
    -- pose only where no solve moved the bone: compared here as any call)
    local args, n = arguments(w, op.args)
    local before, kept = state(w), op.read ~= "pose"
    ok, r = pcall(function()
      local values = pack(target[op.read](target, unpack(args, 1, n)))
      for i = 1, values.n do args[n + i] = values[i] end
      return pack(target[op.name](target, unpack(args, 1, n + values.n)))
    end)
    if ok and kept and state(w) ~= before then return RESENT_MOVED end
  else
    local args, n = arguments(w, op.args)
    ok, r = pcall(caller(op.style, op.name), target, unpack(args, 1, n))
    -- the arrays, kept (the group keeps them only while they are reachable)
    if ok and w.arrays[op.name] then w.arrays[op.name][op.index] = r[1] end
  end
  if not ok then return "error " .. tostring(r) end
  return show_all(w, r)
end

-- ------------------------------------------------------------------
-- the comparison
-- ------------------------------------------------------------------

local function describe_op(op)
  local parts = { op.how, op.kind or "", tostring(op.index or ""), op.name or "", op.style or "" }
  local function tok(t)
    if type(t) ~= "table" then return type(t) == "number" and format("%a", t) or tostring(t) end
    if t[1] == "table" or t[1] == "list" then
      local out = {}
      for _, v in ipairs(t[2]) do
        if type(v) == "table" and v[1] ~= "obj" and v[1] ~= "int" and #v == 2 and t[1] == "table" then
          out[#out + 1] = tok(v[1]) .. "=" .. tok(v[2])
        else
          out[#out + 1] = tok(v)
        end
      end
      return "{" .. concat(out, ", ") .. "}"
    end
    return "<" .. concat({ t[1], tostring(t[2] or ""), tostring(t[3] or "") }, " ") .. ">"
  end
  for _, a in ipairs(op.args or {}) do parts[#parts + 1] = tok(a) end
  if op.value ~= nil then parts[#parts + 1] = tok(op.value) end
  return concat(parts, " ")
end

-- the calls after which every object's state is compared
local STATE_AFTER = { solve = true, set_base = true, set_flip = true, update = true,
  set_pose = true, set_length = true, set_rest = true, reset = true, set_scale = true,
  apply = true, set_order = true, set_options = true }

-- An error the pure core raised from inside its own code (a Lua error,
-- not an answer to bad input)?
local function internal_error(text)
  return text:find("ik2d/pure/", 1, true) ~= nil or text:find("attempt to call", 1, true) ~= nil
end

-- Runs one sequence; returns nil, or a report of the first difference.
-- With model, the bone model's calls are made; alone, the pure core runs
-- them by itself, and a report is an error raised from inside it.
local function sequence(seed, use_ffi, model, alone)
  random = helpers.random(seed)
  -- the generator's first draws follow the seed closely (consecutive
  -- seeds: nearly the same first draw): a few are dropped
  for _ = 1, 4 do random.next() end
  model_on = model
  if use_ffi ~= nil then ik2d.use_ffi(use_ffi) end
  local wl = new_world(L, model)
  local wc = alone and wl or new_world(C, model)
  local counts = { constraint = 0, chain = 0, solver = 0, group = 0, spring = 0, skeleton = 0,
                   transformconstraint = 0 }
  local bones, sizes, history = {}, {}, {}
  -- one sequence in three is a skeleton's: half its operations theirs;
  -- of those, one in two a rig's solved frame after frame; with the bone
  -- model, one in two instead a character rigged as artists do
  local rigs = { on = chance(1 / 3) }
  rigs.joint = rigs.on and chance(0.5)
  rigs.model = rigs.on and model and chance(0.5)
  if rigs.model then rigs.joint = false end
  local length = int(math.floor(OPERATIONS / 2), math.floor(OPERATIONS * 3 / 2))
  for _ = 1, length do
    local op = next_op(counts, bones, sizes, wc, rigs)
    history[#history + 1] = describe_op(op)
    if TRACE then io.stderr:write(seed, " ", history[#history], "\n") end
    local a = run(wc, op)
    local b = alone and a or run(wl, op)
    if alone and internal_error(a) then
      return ("seed %d, operation %d: %s\n  Lua:  %s\nhistory:\n  %s"):format(
        seed, #history, history[#history], a, concat(history, "\n  "))
    end
    if a ~= b or a == RESENT_MOVED then
      return ("seed %d, operation %d: %s\n  C:    %s\n  Lua:  %s\nhistory:\n  %s"):format(
        seed, #history, history[#history], a, b, concat(history, "\n  "))
    end
    if op.keep == "group" and #wc.group > counts.group then
      local ok, n = pcall(call_len, wc.group[#wc.group])
      sizes[#wc.group] = ok and n[1] or 1
    end
    if op.keep == "skeleton" and #wc.skeleton > counts.skeleton then rigs[#wc.skeleton] = op.rig end
    for _, kind in ipairs(KINDS) do counts[kind] = #wc[kind] end
    if (op.keep == "chain" or op.name == "chain") and #wc.chain > #bones then
      local ok, n = pcall(call_len, wc.chain[#wc.chain])
      bones[#wc.chain] = ok and n[1] or 1
    end
    if STATE_AFTER[op.name] then
      local sa = state(wc)
      local sb = alone and sa or state(wl)
      if sa ~= sb then
        return ("seed %d, after operation %d (%s): states differ\n  C:   %s\n  Lua: %s\nhistory:\n  %s")
          :format(seed, #history, history[#history], sa, sb, concat(history, "\n  "))
      end
    end
  end
  return nil
end

-- The sequences from first to last; nil, or a report of the first
-- difference.  Under LuaJIT the C core runs the FFI path in every other
-- one (when it has it).
-- With C_MODEL, every other one makes the bone model's calls.  alone:
-- the pure core alone, every sequence with the bone model's calls.
local function sequences(first, last, alone)
  local ffi_paths = helpers.is_luajit and ik2d.ffi and { true, false } or { false }
  local report
  for k = first, last do
    local use_ffi = nil
    if helpers.is_luajit and ik2d.ffi and not alone then use_ffi = ffi_paths[1 + k % 2] end
    local model = alone or (C_MODEL and k % 4 >= 2)
    report = sequence(SEED * 100003 + k, use_ffi, model, alone)
    if not alone then C.use_isa("auto") end
    if report then break end
  end
  if helpers.is_luajit and ik2d.ffi then ik2d.use_ffi(true) end
  return report
end

-- Does this C library's expm1 give the bits of glibc's generic code (the
-- pure core's own, where it cannot call the library's: Lua 5.4)?  Springs
-- whose damping makes an FMA build of it part from the generic code in
-- the last bit, updated on both cores.
local function same_expm1()
  if helpers.is_luajit then return true end -- the FFI calls the library's
  for _, damping in ipairs { 155.75, 182.25, 184.75, 195.75 } do
    local results = {}
    for k, core in ipairs { C, L } do
      local arm = core.chain { { length = 1, angle = 0.5 } }
      local spring = core.spring(arm, { damping = damping })
      arm:set_pose(1, -0.5)
      spring:update(1 / 60)
      results[k] = format("%a %a", arm:angle(1), spring:velocity(1))
    end
    if results[1] ~= results[2] then return false end
  end
  return true
end

-- A child interpreter (the springs' run where expm1 differs) runs the
-- sequences and prints the outcome.
if os.getenv("IK2D_DIFF_CHILD") then
  io.write(sequences(1, SEQUENCES) or "same")
  return
end

describe("the pure-Lua core against the C core", function()
  if not has_c then
    pending("ik2d.core does not load here: nothing to compare with")
    return
  end
  if ik2d.backend == "lua" then
    pending("IK2D_PURE=1: the pass with the C core compares the two")
    return
  end
  SPRINGS = same_expm1()
  local only = tonumber(os.getenv("IK2D_DIFF_ONLY")) -- one sequence, by its number

  it(("gives the same bits, errors and objects in %d random sequences (seed %d)%s")
     :format(SEQUENCES, SEED, SPRINGS and "" or ", springs aside"), function()
    local report = sequences(only or 1, only or SEQUENCES)
    assert(report == nil, report)
  end)

  if not C_MODEL then
    -- the bone model's sequences where the C binding has not its calls
    -- yet: the pure core answers each or raises an API error
    it(("runs the bone model's calls in %d random sequences on the pure core alone (the C binding "
        .. "has no ik2d.transform_constraint)"):format(SEQUENCES), function()
      local report = sequences(only or 1, only or SEQUENCES, true)
      assert(report == nil, report)
    end)
  end

  -- every path of a spring's update met for sure: a running, bobbing
  -- base, wind, per-bone settings, a circle and a segment the tail hits,
  -- limits, flipped or not, frames of 1/60 s and long ones (backward
  -- Euler, solved again about the contacts)
  it("gives the same bits for springs that run, feel the wind, hit colliders and take long frames", function()
    if not SPRINGS then
      pending("this C library's expm1 is not glibc's generic code (the child above runs springs)")
      return
    end
    for _, flip in ipairs { false, true } do
      local runs = {}
      for k, core in ipairs { C, L } do
        local t = { x = 100, y = 50, angle = 0, flip = flip }
        for i = 1, 6 do t[i] = { length = 18 + i, min = -2, max = 2 } end
        local chain = core.chain(t)
        local spring = core.spring(chain, { gravity = { 0, 980 }, wind = { 60, -5 },
                                            stiffness = { 40, 30, 20, 10, 5, 2 }, damping = 2,
                                            mass = { 1, 1, 0.8, 0.6, 0.5, 0.4 } })
        spring:set_colliders { { x1 = -1e3, y1 = 120, x2 = 1e3, y2 = 121 }, { x = 160, y = 90, radius = 15 },
                               { x1 = 40, y1 = 0, x2 = 40, y2 = 200 } }
        local out = {}
        for f = 1, 300 do
          local x = 100 + 70 * math.sin(f / 20)
          chain:set_base(flip and 2 * 100 - x or x, 50 + 15 * math.sin(f / 9), 0.3 * math.sin(f / 30))
          spring:update(f % 60 == 0 and 100 or f % 37 == 0 and 0.4 or 1 / 60)
          local joints = chain:joints()
          for j = 1, #joints do out[#out + 1] = format("%a", joints[j]) end
          for i = 1, #chain do out[#out + 1] = format("%a", spring:velocity(i)) end
        end
        runs[k] = concat(out, " ")
      end
      assert(runs[1] == runs[2], "the cores part" .. (flip and " (flipped)" or ""))
    end
  end)

  if not SPRINGS then
    -- glibc on x86-64 with FMA runs an FMA build of expm1, which Lua 5.4
    -- cannot call: the pure core's expm1 is glibc's generic code.  Its
    -- tunables make glibc take the generic code in a child, for both.
    local TUNABLES = "GLIBC_TUNABLES=glibc.cpu.hwcaps=-FMA,-AVX2,-FMA4"
    it("gives the same bits with springs where the C library runs glibc's generic expm1 "
       .. "(a child with " .. TUNABLES .. ")", function()
      local ok, out = helpers.run_lua('dofile("spec/pure_diff_spec.lua")',
                                      TUNABLES .. " IK2D_DIFF_CHILD=1 IK2D_DIFF_SEQUENCES=" .. SEQUENCES)
      assert(ok, out)
      assert(out == "same", out)
    end)
  end
end)
