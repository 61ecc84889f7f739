--- ik2d.pure.binding: what the pure-Lua API shares (src/lua/luaik_core.c):
-- objects and their lifetime, errors worded and placed as the C binding
-- places them, and conversions of Lua values with the binding's rules.
--
-- Objects are proxies: a userdata from newproxy where Lua has it (5.1,
-- LuaJIT: #obj and type(obj) then behave as the C binding's userdata do),
-- else an empty table; one metatable per type, its methods in __index.
-- What an object holds lives in a weak-keyed table per type, keyed by the
-- proxy, so a method finds its object and checks its type in one lookup.
local api = require "ik2d.api"
local B = {}

local type, tostring, tonumber, select, error = type, tostring, tonumber, select, error
local getinfo, rawget, next = debug.getinfo, rawget, next
local getlocal, getupvalue = debug.getlocal, debug.getupvalue
local getfenv = rawget(_G, "getfenv")
local getmetatable_raw = debug.getmetatable
local floor, abs = math.floor, math.abs
local format = string.format
local newproxy = rawget(_G, "newproxy")
-- whole numbers are integers on 5.3+ (lua_pushinteger)
local tointeger = math.tointeger or function(v) return v end -- luacheck: ignore 143

local rawlen = rawget(_G, "rawlen") or function(t) return #t end
local IS_51 = _VERSION == "Lua 5.1"
-- what arg_error asks of a frame: its name and function, and on 5.2+
-- whether it was reached by a tail call ("t": not on 5.1 and LuaJIT)
local FRAME_INFO = IS_51 and "nf" or "nft"

-- ------------------------------------------------------------------
-- objects
-- ------------------------------------------------------------------

-- every type's objects and name: a table is an object when one of these
-- holds it (a table given an object's metatable by hand is still a table,
-- as it is to the C binding)
local registries = {}

--- A type: the weak table of its objects, a constructor of proxies and
-- their metatable (with __name, __index = methods and __gc = gc: a
-- table's finaliser must be there before setmetatable).  objects: the
-- weak table to use (made by B.objects).
function B.new_type(name, methods, gc, objects)
  local proto, mt
  if newproxy then
    proto = newproxy(true)
    mt = getmetatable(proto)
  else
    mt = {}
  end
  mt.__gc = gc
  mt.__name = name
  mt.__index = methods
  -- getmetatable(obj) gives the name, as the C core's do: no script can
  -- call, replace or (for a table) swap the metatable
  mt.__metatable = name
  if not proto then
    -- a table stands for a userdata: no fields of its own, and no length
    -- (a type with one sets __len over this); Lua would also name the
    -- variable, which a metamethod cannot see.  Any other table given
    -- this metatable stays a table, as it is with the C core's.
    mt.__newindex = function(t, k, v)
      if objects[t] then error("attempt to index a " .. name .. " value", 2) end
      rawset(t, k, v)
    end
    mt.__len = function(t)
      if objects[t] then error("attempt to get length of a " .. name .. " value", 2) end
      return rawlen(t)
    end
  end
  registries[#registries + 1] = { objects = objects, name = name }
  local function new(object)
    -- the fields __gc writes, there from the start
    object.collected = false
    if object.anchor == nil then object.anchor = false end
    local proxy
    if proto then proxy = newproxy(proto) else proxy = setmetatable({}, mt) end
    objects[proxy] = object
    return proxy
  end
  return objects, new, mt
end

--- __gc of the type whose objects are tables[own]: one of them is
-- released first (release: a skeleton's chain or solver leaves its
-- lists), then any object is marked finalised (idempotent) and what it
-- kept alive may go, as the C binding's __gc functions do.  tables: a
-- list of the types' object tables (a list: LuaJIT 2.1.0-beta3 could loop
-- for ever leaving a trace of a pairs() loop here, in one of 7 runs of
-- the diff spec).
-- B.finalised.count: how many times __gc marked an object finalised
-- (the only way an object becomes collected): a check that every one of
-- many objects is alive holds until it changes (ik2d.group's members)
B.finalised = { count = 0 }

function B.gc(tables, own, release)
  local finalised = B.finalised
  return function(proxy)
    local object = tables[own][proxy]
    if object and not object.collected and release then release(object) end
    for k = 1, #tables do
      object = tables[k][proxy]
      if object then
        finalised.count = finalised.count + 1
        object.collected = true
        object.anchor = false
        return
      end
    end
  end
end

--- a type's table of objects: proxy -> what it stands for, weak keys
function B.objects() return setmetatable({}, { __mode = "k" }) end

-- A proxy's own table, as a C object's user value: references that a
-- cycle may run through (a skeleton and its transform constraints keep
-- each other alive).  What a proxy stands for lives in a weak-keyed table,
-- whose values LuaJIT marks whatever its keys: a cycle through them would
-- never be collected there.  So the own table is the proxy's environment
-- where proxies are userdata (LuaJIT, 5.1: followed only from the proxy),
-- else the value of an ephemeron table (5.2+).  OWN marks the table as
-- the binding's (a userdata's environment starts as the globals).
local OWN = {}
local own_tables = not newproxy and setmetatable({}, { __mode = "k" }) or nil
local getfenv_of, setfenv_of = debug.getfenv, debug.setfenv

local function own_table(proxy, make)
  local t
  if own_tables then
    t = own_tables[proxy]
  else
    t = getfenv_of(proxy)
    if type(t) ~= "table" or rawget(t, OWN) ~= true then t = nil end
  end
  if t or not make then return t end
  t = { [OWN] = true }
  if own_tables then own_tables[proxy] = t else setfenv_of(proxy, t) end
  return t
end

--- proxy's own table[key] = value: value lives as long as proxy does
function B.keep(proxy, key, value) own_table(proxy, true)[key] = value end

--- proxy's own table[key], or nil
function B.kept(proxy, key)
  local t = own_table(proxy, false)
  return t and t[key]
end

--- Tables for the calls that change an object's settings: take() gives
-- one that no running call holds (a call nested in another, from a
-- finaliser or a hook, gets its own), give(t) hands it back when the call
-- is done; one left by a call that raised goes to the collector.  A call
-- in a frame loop so makes no garbage.
function B.pool()
  local spare, count = {}, 0
  local function take()
    if count == 0 then return {} end
    local t = spare[count]
    spare[count] = nil
    count = count - 1
    return t
  end
  local function give(t)
    count = count + 1
    spare[count] = t
  end
  return take, give
end

-- the name of the type of the pure-Lua object v (a proxy), or nil
local function object_name(v)
  for k = 1, #registries do
    if registries[k].objects[v] then return registries[k].name end
  end
  return nil
end

--- a value's type name: an ik2d object's, a userdata's __name, else Lua's
function B.typename(v)
  local t = type(v)
  if t == "table" then return object_name(v) or t end
  if t == "userdata" then
    local mt = getmetatable_raw(v)
    local n = mt and rawget(mt, "__name")
    if type(n) == "string" then return n end
  end
  return t
end
local typename = B.typename

-- the type name of argument i of n (n: how many were passed)
local function typename_of(v, i, n)
  if i > n then return "no value" end
  return typename(v)
end
B.typename_of = typename_of

--- a table that is not an ik2d object (the C binding's objects are
-- userdata, never tables)
local function is_table(v)
  return type(v) == "table" and object_name(v) == nil
end
B.is_table = is_table

-- ------------------------------------------------------------------
-- errors
-- ------------------------------------------------------------------

-- every public function: its name and whether it is a method
local public = {}

function B.register(list, method)
  for name, f in pairs(list) do public[f] = { name = name, method = method } end
end

-- Does the variable the call site of info's function names, a local, an
-- upvalue or a global of its caller (at `level`, as getinfo here counts),
-- hold that function?  Then the call site called it, with no tail call
-- in between; as the C binding's site_holds.  A field is not looked up
-- (its table is gone).
local function site_holds(level, info)
  local name, what, f = info.name, info.namewhat, info.func
  local caller = getinfo(level, "f")
  if not caller then return false end
  if what == "global" then
    return getfenv ~= nil and rawget(getfenv(caller.func), name) == f
  end
  if what ~= "local" and what ~= "upvalue" then return false end
  local n = 1
  while true do
    local found, v
    if what == "local" then found, v = getlocal(level, n) else found, v = getupvalue(caller.func, n) end
    if found == nil then return false end
    if found == name and v == f then return true end
    n = n + 1
  end
end

-- Was the public function at this frame called as a method (obj:f())?
-- As the C binding decides (called_as_method): the call site says so; on
-- 5.1 and LuaJIT, which keep no call site for a tail call, a method
-- whose frame names another function counts as one, unless the variable
-- so named holds it (local f = s.weight; f(x)).  A Lua function reached
-- by a tail call on 5.2+ has no call site either (a C function keeps it
-- there): a method so reached counts as called with a colon.  level: the
-- frame's caller, as getinfo here counts.
local function called_as_method(info, entry, level)
  if info.namewhat == "method" then return true end
  if not entry.method then return false end
  if IS_51 then
    return info.namewhat ~= "" and info.name ~= nil and info.name ~= entry.name
      and not site_holds(level + 1, info)
  end
  return info.istailcall == true
end

-- The running public function: its entry, whether it was called as a
-- method (the stack is walked from the caller of the function calling
-- this), and the "file:line: " of its caller, as luaL_where(L, 1) gives
-- it.
local function running()
  local level, entry, info = 3, nil
  while true do
    info = getinfo(level, FRAME_INFO)
    if not info then break end
    entry = public[info.func]
    if entry then break end
    level = level + 1
  end
  local method = entry ~= nil and called_as_method(info, entry, level + 2)
  if not entry then level = 3 end
  local where = ""
  local caller = getinfo(level + 1, "Sl")
  if caller and caller.currentline > 0 then
    where = caller.short_src .. ":" .. caller.currentline .. ": "
  end
  return entry, method, where
end

--- Raises "bad argument #arg to 'name' (message)" at the level of the
-- running public function's caller, arguments numbered as Lua numbers
-- them (a colon call does not count self), as luaik_arg_error does.
function B.arg_error(arg, message)
  local entry, method, where = running()
  local name = "?"
  if entry then
    name = entry.name
    if method then arg = arg - 1 end
  end
  if arg == 0 then
    error(format("%scalling '%s' on bad self (%s)", where, name, message), 0)
  end
  error(format("%sbad argument #%d to '%s' (%s)", where, arg, name, message), 0)
end
local arg_error = B.arg_error

--- Raises "bad call to 'name' (message)": a call that cannot be made at
-- all, as luaik_call_error does.
function B.call_error(message)
  local entry, _, where = running()
  error(format("%sbad call to '%s' (%s)", where, entry and entry.name or "?", message), 0)
end

function B.type_error(arg, expected, v, n)
  arg_error(arg, format("%s expected, got %s", expected, typename_of(v, arg, n)))
end

--- the core's words for each status, by name, as lua/ik2d/api.lua gives
-- them to the C core (src/ik2d_api.c): "{MAX_BONES}" is the constant's value
B.MESSAGES = {}
do
  local constants = {}
  for _, c in ipairs(api.constants) do constants[c.name] = tostring(c.value) end
  for _, s in ipairs(api.statuses) do
    B.MESSAGES[s.name] = (s.words:gsub("{([%u_]+)}", constants))
  end
end

--- the core's words for a status, with a hint for Lua where one helps
function B.status_message(status)
  local message = B.MESSAGES[status]
  if status == "MIN_DEGREES" or status == "MAX_DEGREES" then
    return message .. " (math.rad converts degrees)"
  end
  return message
end

--- a status as an error on argument arg; nothing for nil
function B.check_status(arg, status)
  if status then arg_error(arg, B.status_message(status)) end
end

--- the same for a status about the number v given at arg, which the
-- message shows ("<words>, got -1"), as luaik_check_value_status does
function B.check_value_status(arg, status, v)
  if status then
    arg_error(arg, format("%s, got %s", B.status_message(status),
                          v ~= v and "nan" or format("%.14g", v)))
  end
end

--- an index out of range (i, a whole number) as luaik_index_error words it
function B.index_error(arg, what, i, last)
  arg_error(arg, format("%s index %d out of range (1..%d)", what, i, last))
end

-- ------------------------------------------------------------------
-- conversions
-- ------------------------------------------------------------------

-- "<what>: <message>" for a named value, or the message alone
local function value_error(arg, what, message)
  if what == nil then arg_error(arg, message) end
  arg_error(arg, format("%s: %s", what, message))
end

--- A number, or a string Lua converts to one, as a float; v is the value
-- and present whether it was there at all (an argument not passed).
local function number_at(v, present, arg, what)
  local t = type(v)
  if t == "number" then return v * 1.0 end
  if t == "string" then
    local n = tonumber(v)
    if n then return n * 1.0 end
  end
  value_error(arg, what, format("number expected, got %s", present and typename(v) or "no value"))
end
B.number_at = number_at

--- a whole number that fits a C int
function B.whole_at(v, present, arg, what)
  local value = number_at(v, present, arg, what)
  if not (value - value == 0) or value ~= floor(value) then
    arg_error(arg, format("%s must be a whole number", what))
  end
  if abs(value) > 2147483647.0 then
    arg_error(arg, format("%s must be a whole number within +-2147483647", what))
  end
  return tointeger(value + 0.0) -- (int): no negative zero
end

function B.boolean_at(v, present, arg, what)
  if type(v) ~= "boolean" then
    arg_error(arg, format("%s must be true or false, got %s", what,
                          present and typename(v) or "no value"))
  end
  return v
end

--- the string v if it is one of choices (a list), else an error listing them
function B.choice_at(v, arg, what, choices)
  if type(v) == "string" then
    for k = 1, #choices do
      if choices[k] == v then return v end
    end
  end
  local parts = { what, " must be " }
  for k = 1, #choices do
    if k > 1 then parts[#parts + 1] = k == #choices and " or " or ", " end
    parts[#parts + 1] = '"' .. choices[k] .. '"'
  end
  arg_error(arg, table.concat(parts))
end

-- a string key as C reads it: up to its first zero byte
local function c_string(s)
  local zero = s:find("\0", 1, true)
  if zero then return s:sub(1, zero - 1) end
  return s
end
B.c_string = c_string

--- Raises "<owner>unknown <kind> '<key>'" for the first key of t that is
-- not in names (a set); integer keys 1..skip are allowed.
function B.check_keys(t, arg, owner, kind, names, skip)
  for key in next, t do
    local kt = type(key)
    if kt == "string" then
      local name = c_string(key)
      if not names[name] then arg_error(arg, format("%sunknown %s '%s'", owner, kind, name)) end
    elseif kt == "number" then
      if not (key >= 1.0 and key <= skip and key == floor(key)) then
        arg_error(arg, format("%sunknown %s [%s]", owner, kind, tostring(key)))
      end
    else
      arg_error(arg, format("%sunknown %s of type %s", owner, kind, typename(key)))
    end
  end
end

--- the table argument t (checked), or a new one when it is none or nil
function B.table_arg(t, arg, n)
  if t == nil then return {} end
  if not is_table(t) then B.type_error(arg, "table", t, n) end
  return t
end

--- clears t[first], t[first + 1], ... up to the first nil, raw
function B.trim(t, first)
  while rawget(t, first) ~= nil do
    rawset(t, first, nil)
    first = first + 1
  end
end

B.select = select

-- ------------------------------------------------------------------
-- arrays (LuaJIT's FFI)
-- ------------------------------------------------------------------

--- LuaJIT's FFI, for the arrays of groups and skeletons (nil elsewhere)
B.ffi = nil
if rawget(_G, "jit") then
  local ok, ffi = pcall(require, "ffi")
  if ok then B.ffi = ffi end
end

local kept_owner = setmetatable({}, { __mode = "k" }) -- pointer -> owner
local pointers = setmetatable({}, { __mode = "k" })   -- owner -> { weak pointers }

--- The pointer (of ctype) to record[key], an FFI array the object owner
-- (a proxy) owns: the same pointer while it is reachable; it keeps the
-- owner alive, and the owner keeps it only weakly.
function B.pointer(owner, record, key, ctype)
  local cache = pointers[owner]
  if not cache then
    cache = setmetatable({}, { __mode = "v" })
    pointers[owner] = cache
  end
  local pointer = cache[key]
  if pointer == nil then
    pointer = B.ffi.cast(ctype, record[key])
    cache[key] = pointer
    kept_owner[pointer] = owner
  end
  return pointer
end

return B
