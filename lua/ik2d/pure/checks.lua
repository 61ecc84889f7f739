--- ik2d.pure.checks: the pure core's checks, made at load from the rows
-- of lua/ik2d/api.lua as make gen makes the C core's (src/ik2d_checks.h
-- and each def's check): each field's check from its `check`, a def's in
-- the order ik2d.pure.defs gives, its rules the hand-written functions of
-- their names (the same names as in C), and its setters.  A check returns
-- nil for a def that passes, else the status that refuses it (and what a
-- nested rule returns after it: a bone's index).
--
-- Each check is written out as Lua source and loaded, one test a line as
-- the C core's: a check is made whenever a setting changes, and a group's
-- tip angles and poles every frame, where a loop over a closure a test
-- (one call site for them all) cost a setter several times its time.
local defs = require "ik2d.pure.defs"

local load = loadstring or load -- luacheck: ignore 113 143
local format, concat = string.format, table.concat

local M = {}

-- The source being written and the values it reads (its upvalues: the
-- rules' functions, the bounds, the sets of allowed values).
local function new_source()
  local src = { lines = {}, values = {} }
  function src.add(line) src.lines[#src.lines + 1] = line end
  -- the source text naming value v
  function src.value(v)
    src.values[#src.values + 1] = v
    return format("V[%d]", #src.values)
  end
  -- the loaded function the source returns
  function src.load()
    local text = "local V = ...\n" .. concat(src.lines, "\n")
    return assert(load(text, "=ik2d.pure.checks"))(src.values)
  end
  return src
end

-- a bound of a check: a number, or a constant's name
local function bound(v)
  if type(v) ~= "string" then return v end
  return defs.constant(v)
end

-- the set of the values one_of or the enum's choices allow, or nil
local function allowed(check, f)
  local list = check.one_of or (check.choice and defs.choices(f.enum))
  if not list then return nil end
  local set = {}
  for _, v in ipairs(list) do set[v] = true end
  return set
end

-- The condition a value v (source text: a local's name) passes check
-- with: the C core's tests, NaN failing every end.
local function condition(src, check, f, v)
  local parts = {}
  if check.finite then parts[#parts + 1] = format("%s - %s == 0", v, v) end
  if check.not_nan then parts[#parts + 1] = format("%s == %s", v, v) end
  if check.nonzero then parts[#parts + 1] = format("%s ~= 0", v) end
  if check.whole then parts[#parts + 1] = format("%s == %s(%s)", v, src.value(math.floor), v) end
  if check.min ~= nil then parts[#parts + 1] = format("%s >= %s", v, src.value(bound(check.min))) end
  if check.above ~= nil then parts[#parts + 1] = format("%s > %s", v, src.value(bound(check.above))) end
  if check.max ~= nil then parts[#parts + 1] = format("%s <= %s", v, src.value(bound(check.max))) end
  if check.below ~= nil then parts[#parts + 1] = format("%s < %s", v, src.value(bound(check.below))) end
  local set = allowed(check, f)
  if set then parts[#parts + 1] = format("%s[%s]", src.value(set), v) end
  return concat(parts, " and ")
end

-- the source of a when ({ tip = true }) on def: nil for none
local function when_source(when, keys)
  local key, value = next(when or {})
  if key == nil then return nil end
  if next(when, key) ~= nil then error("ik2d.pure.checks: a when of two fields") end
  key = format("def[%q]", keys[key] or key)
  if value == true then return key end
  if value == false then return "not " .. key end
  return format("%s == %q", key, value)
end

-- Writes one step of a def's check into src, at indent. keys: the pure
-- core's key of a field where it differs from the field's name, false
-- for a field its def does not hold (a choice the binding has read).
local function add_step(src, step, rules, keys, indent)
  local rule = step.rule
  if rule and not step.check then
    local body = rules[rule.name]
    if not body then error("ik2d.pure.checks: no function for rule " .. rule.name) end
    if rule.nested then
      src.add(format("%sstatus, extra = %s(def, context)", indent, src.value(body)))
      src.add(indent .. "if status then return status, extra end")
    else
      src.add(format("%sif not %s(def, context) then return %q end", indent, src.value(body), step.status))
    end
    return
  end
  local f = step.field
  local key = keys[f.name]
  if key == false then return end
  key = key or f.name
  local refused = format("if not (%s) then return %q end", condition(src, step.check, f, "v"), step.status)
  if f.array then
    -- a per-bone setting: the number, or each entry of its array
    src.add(format("%sfor i = 1, context do", indent))
    src.add(format("%s  v = def[%q]", indent, key))
    src.add(format("%s  if def[%q] then v = def[%q][i] end", indent, f.array, f.array))
    src.add(format("%s  %s", indent, refused))
    src.add(format("%send", indent))
    return
  end
  src.add(format("%sv = def[%q]", indent, key))
  src.add(indent .. refused)
end

-- function(def, context) making the steps in order: nil, or the first
-- refusal
local function steps_function(steps, rules, keys)
  local src = new_source()
  src.add("return function(def, context)")
  src.add("  local v, status, extra")
  for _, step in ipairs(steps) do
    local when = when_source(step.when, keys)
    if when then
      src.add(format("  if %s then", when))
      add_step(src, step, rules, keys, "    ")
      src.add("  end")
    else
      add_step(src, step, rules, keys, "  ")
    end
  end
  src.add("  return nil")
  src.add("end")
  return src.load()
end

-- rules must be the description's hand-written rules, no more
local function check_rules(description, rules)
  local wanted = {}
  for _, rule in ipairs(description.rules or {}) do
    if not rule.check then wanted[rule.name] = true end
  end
  for name in pairs(rules) do
    if not wanted[name] then error("ik2d.pure.checks: " .. name .. " is no rule of " .. description.c) end
  end
end

--- A described def's check: function(def, context) (context: what its
-- checked_with names), nil or the status.  rules: the rules' functions
-- by name, each function(def, context) true when def passes (a nested
-- one returning nil or a status); keys: see add_step.
function M.def(description, rules, keys)
  rules, keys = rules or {}, keys or {}
  check_rules(description, rules)
  return steps_function(defs.checks(description), rules, keys)
end

--- The checks of some fields of a described def, given as values:
-- function(a, b, c) for the fields named (at most three), in the def's
-- order, nil or the status (their when is the caller's to ask).
function M.values(description, names)
  if #names > 3 then error("ik2d.pure.checks: more than 3 values") end
  local position = {}
  for k, name in ipairs(names) do position[name] = ({ "a", "b", "c" })[k] end
  local src = new_source()
  src.add("return function(a, b, c)")
  local made = 0
  for _, step in ipairs(defs.checks(description)) do
    local v = step.field and step.check and position[step.field.name]
    if v then
      src.add(format("  if not (%s) then return %q end", condition(src, step.check, step.field, v),
                     step.status))
      made = made + 1
    end
  end
  if made ~= #names then error("ik2d.pure.checks: no check of each of " .. concat(names, ", ")) end
  src.add("  return nil")
  src.add("end")
  return src.load()
end

--- A setter of a described def (ik2d.pure.defs' setters): function(obj,
-- a, b, c) putting the values into obj.settings (its switch on), checking
-- them by their fields' checks and the rules that read them, in the def's
-- order; refused, the settings are as they were and it returns the
-- status, else keep(obj) keeps them.  context_of(obj): what the rules
-- get; rules and keys as for M.def.
function M.setter(description, name, rules, keep, context_of, keys)
  rules, keys = rules or {}, keys or {}
  check_rules(description, rules)
  local setter = defs.setter(description, name)
  if #setter.fields > 3 then error("ik2d.pure.checks: more than 3 values for " .. name) end
  local check = steps_function(setter.checks, rules, keys)
  local k1, k2, k3 = setter.fields[1].name, setter.fields[2], setter.fields[3]
  k2, k3 = k2 and k2.name, k3 and k3.name
  local switch = setter.switch and setter.switch.name
  return function(obj, a, b, c)
    local def = obj.settings
    local on, old1, old2, old3 = switch and def[switch], def[k1], k2 and def[k2], k3 and def[k3]
    if switch then def[switch] = true end
    def[k1] = a
    if k2 then def[k2] = b end
    if k3 then def[k3] = c end
    local status = check(def, context_of(obj))
    if status then
      if switch then def[switch] = on end
      def[k1] = old1
      if k2 then def[k2] = old2 end
      if k3 then def[k3] = old3 end
      return status
    end
    keep(obj)
    return nil
  end
end

--- The argument each status of a described def's setter blames, by
-- status: its fields' their arguments (2 for the first), any other the
-- object's (1), as the C binding's (src/lua/luaik_api.c).
function M.blame(description, name)
  return defs.blame(defs.setter(description, name))
end

return M
