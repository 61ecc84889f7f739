-- ik2d.common: what the pure-Lua helpers share (internal, not part of the
-- API): argument checks whose errors point at the caller's line, and
-- field snapshots for calls that must be all or nothing.
--
-- Messages read "ik2d.smooth: update: dt must be a finite number >= 0,
-- got nil": the helper, the function, the argument, what it must be and
-- what it was.  Every check takes `level` as error() does, counted from
-- the function that calls the check (1 = that function, 2 = its caller),
-- so a public function passes 2 and the message starts with its caller's
-- file:line.  The checks never tail-call the raiser: a tail call would
-- drop a frame and shift the level.  Nothing allocates unless it raises.

local common = {}

local huge, type = math.huge, type
-- the real metatable: an ik2d object's answers getmetatable with a string
local raw_metatable = (rawget(_G, "debug") or {}).getmetatable or getmetatable

-- How a message shows a value: numbers and booleans by value (nan, inf,
-- -inf), strings quoted (cut to 40 characters), an object by its type's
-- name (__name, as Lua 5.4 names it: "ik2d.Chain" from either core, where
-- the C core's is a userdata and the pure-Lua core's may be a table),
-- anything else by its type.
function common.show(v)
  local t = type(v)
  if t == "number" then
    if v ~= v then return "nan" end
    if v == huge then return "inf" elseif v == -huge then return "-inf" end
    return ("%.14g"):format(v)
  elseif t == "string" then
    if #v > 40 then v = v:sub(1, 37) .. "..." end
    return ("%q"):format(v)
  elseif t == "boolean" then
    return v and "true" or "false"
  elseif t == "table" or t == "userdata" then
    local mt = raw_metatable(v)
    local name = type(mt) == "table" and rawget(mt, "__name")
    if type(name) == "string" then return name end
  end
  return t
end
local show = common.show

-- Raises "who: what, got <v>" at `level` counted from raise's caller's
-- caller (raise is always called by a check function).
local function raise(level, who, what, v)
  error(who .. ": " .. what .. ", got " .. show(v), level + 2)
end

-- common.fail(level, who, what [, v]): the same for helper code that
-- checks by itself (level counted from fail's caller); without v, the
-- message has no "got" part.
function common.fail(level, who, what, ...)
  if select("#", ...) == 0 then error(who .. ": " .. what, level + 1) end
  error(who .. ": " .. what .. ", got " .. show((...)), level + 1)
end

function common.is_finite(v)
  return type(v) == "number" and v == v and v ~= huge and v ~= -huge
end
local is_finite = common.is_finite

-- A finite number.
function common.finite(v, level, who, name)
  if not is_finite(v) then raise(level, who, name .. " must be a finite number", v) end
  return v
end

-- A finite number >= 0 (seconds, dt).
function common.nonnegative(v, level, who, name)
  if not is_finite(v) or v < 0 then
    raise(level, who, name .. " must be a finite number >= 0", v)
  end
  return v
end

-- A rate per second: a number >= 0, math.huge included (at once).
function common.rate(v, level, who, name)
  if type(v) ~= "number" or v ~= v or v < 0 then
    raise(level, who, name .. " must be a number >= 0 (math.huge: at once)", v)
  end
  return v
end

-- A whole number in lo..hi.
function common.whole(v, lo, hi, level, who, name)
  if type(v) ~= "number" or v ~= v or v % 1 ~= 0 or v < lo or v > hi then
    raise(level, who, ("%s must be a whole number in %d..%d"):format(name, lo, hi), v)
  end
  return v
end

-- Is v a table or userdata with every method named in the list `methods`?
local function has_methods(v, methods)
  local t = type(v)
  if t ~= "table" and t ~= "userdata" then return false end
  for i = 1, #methods do
    if v[methods[i]] == nil then return false end
  end
  return true
end
common.has_methods = has_methods

-- Such an object ("solver must be an ik2d solver, got nil").
function common.object(v, methods, level, who, name, what)
  if not has_methods(v, methods) then raise(level, who, name .. " must be " .. what, v) end
  return v
end

-- nil or a function.
function common.callback(v, level, who, name)
  if v ~= nil and type(v) ~= "function" then
    raise(level, who, name .. " must be a function or nil", v)
  end
  return v
end

-- nil or a table whose keys are all in `known` (a set); returns t or {}.
-- A misspelt option or field is an error, not a silent default.
local EMPTY = setmetatable({}, { __newindex = function() error("read-only", 2) end })
function common.options(t, known, level, who, name)
  if t == nil then return EMPTY end
  if type(t) ~= "table" then raise(level, who, name .. " must be a table or nil", t) end
  for k in pairs(t) do
    if not known[k] then
      local list = {}
      for key in pairs(known) do list[#list + 1] = key end
      table.sort(list)
      raise(level, who, ("%s has an unknown field (known: %s)")
        :format(name, table.concat(list, ", ")), k)
    end
  end
  return t
end

-- self must be an object made by the helper's new (its metatable is mt):
-- catches f.update(dt) written for f:update(dt).
function common.self(self, mt, level, who, kind)
  if getmetatable(self) ~= mt then
    raise(level, who, "self must be " .. kind .. " (call it with a colon)", self)
  end
  return self
end

-- ------------------------------------------------------------------
-- Group members fed through arrays
-- ------------------------------------------------------------------

-- A group fed through arrays (target_array, or a table given to
-- set_targets every frame) reads its members' targets from there at each
-- solve, whatever their own set_target said.  A helper driving such
-- members writes there: `array` a Lua table (1-based, as set_targets
-- takes it) or the group's FFI array (0-based), `per` numbers a member
-- (2 for targets, 1 for tip angles).  common.feed returns the index of
-- each solver's first number there, in a new list, checking that every
-- solver is a member of the group (which bounds an FFI array's indices);
-- labels[i] names solver i in a message, name the array.
function common.feed(group, array, per, solvers, labels, level, who, name)
  local base
  if type(array) == "table" then
    base = 1
  elseif type(array) == "cdata" then
    base = 0
  else
    raise(level, who, name .. " must be a table (the one given to the group every frame) or the group's FFI array",
      array)
  end
  if not has_methods(group, { "solvers" }) then
    raise(level, who, "group must be the ik2d group the solvers are members of", group)
  end
  local members = group:solvers()
  local at = {}
  for i = 1, #solvers do
    local s, m = solvers[i], nil
    for k = 1, #members do
      if members[k] == s then m = k end
    end
    if not m then raise(level, who, labels[i] .. " must be a member of the group", s) end
    at[i] = base + per * (m - 1)
  end
  return at
end

-- Copies every field of `from` into `to` and removes from `to` the fields
-- `from` lacks: to becomes a shallow copy.  A snapshot taken into a table
-- kept for the purpose allocates nothing once that table has its keys.
function common.copy_fields(from, to)
  for k in next, to do
    if from[k] == nil then to[k] = nil end
  end
  for k, v in next, from do to[k] = v end
  return to
end

-- The keys of t (nil: none) in sorted order: a table walked the same way
-- whatever order pairs gives.
function common.sorted_keys(t)
  local keys = {}
  for k in pairs(t or {}) do keys[#keys + 1] = k end
  table.sort(keys)
  return keys
end

return common
