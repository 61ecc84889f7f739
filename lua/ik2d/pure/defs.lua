--- ik2d.pure.defs: the settings of a def lua/ik2d/api.lua describes (the
-- solver's, the spring's) as the pure core keeps them: one flat table,
-- a key per field (the field's name there), each at its default.
local api = require "ik2d.api"

local M = {}

--- the value of the constant named name (api.constants: "MAX_BONES")
function M.constant(name)
  for _, c in ipairs(api.constants) do
    if c.name == name then return c.value end
  end
  error("ik2d.pure.defs: no constant " .. tostring(name))
end

--- the set of field names a Lua table for a described def may have
function M.field_set(description)
  local set = {}
  for _, name in ipairs(description.lua) do set[name] = true end
  return set
end

--- the Lua names of an enum's choices, in the order of its C values
function M.choices(enum)
  for _, e in ipairs(api.enums) do
    if e.name == enum then
      local names = {}
      for k, value in ipairs(e.values) do names[k] = value[1] end
      return names
    end
  end
  error("ik2d.pure.defs: no enum " .. tostring(enum))
end

--- every field of a described def: its own, then each group's
function M.fields(description)
  local list = {}
  for _, f in ipairs(description.fields) do list[#list + 1] = f end
  for _, g in ipairs(description.groups or {}) do
    for _, f in ipairs(g.fields) do list[#list + 1] = f end
  end
  return list
end

-- every field of a described def with its group (nil for the def's own)
local function fields_and_groups(description)
  local list = {}
  for _, f in ipairs(description.fields) do list[#list + 1] = { field = f } end
  for _, g in ipairs(description.groups or {}) do
    for _, f in ipairs(g.fields) do list[#list + 1] = { field = f, group = g } end
  end
  return list
end

-- whether entry was placed (directly or through others) after anchor
local function placed_after(entry, anchor, by_name)
  while entry and entry.after do
    if entry.after == anchor then return true end
    entry = by_name[entry.after]
  end
  return false
end

--- The checks a described def's check makes, in its order (the first
-- refused is the status): the fields' checks in the fields' order, each
-- rule (and each field check with an `after`) after the check it names,
-- after whatever was placed there before it.  Each step: { name, field
-- (the field checked, or a checking rule's field), group, rule, check,
-- status, when }.
function M.checks(description)
  local order, pending, by_name = {}, {}, {}
  local field_of = {}
  for _, entry in ipairs(fields_and_groups(description)) do
    local f = entry.field
    local step = { name = f.name, field = f, group = entry.group, check = f.check,
                   status = f.status, when = f.check and f.check.when,
                   after = f.check and f.check.after }
    field_of[f.name] = entry
    by_name[f.name] = step
    if step.after then pending[#pending + 1] = step else order[#order + 1] = step end
  end
  for k, rule in ipairs(description.rules or {}) do
    local entry = rule.field and field_of[rule.field]
    if rule.field and not entry then error("ik2d.pure.defs: rule " .. rule.name .. ": no field " .. rule.field) end
    local step = { name = rule.name, rule = rule, field = entry and entry.field, group = entry and entry.group,
                   check = rule.check, status = rule.status, when = rule.when, after = rule.after }
    if by_name[rule.name] then error("ik2d.pure.defs: rule " .. rule.name .. " named twice") end
    by_name[rule.name] = step
    table.insert(pending, k, step)
  end
  while #pending > 0 do
    local placed = false
    for k, step in ipairs(pending) do
      local at
      for i, other in ipairs(order) do
        if other.name == step.after then at = i end
      end
      if at then
        while order[at + 1] and placed_after(order[at + 1], step.after, by_name) do at = at + 1 end
        table.insert(order, at + 1, step)
        table.remove(pending, k)
        placed = true
        break
      end
    end
    if not placed then
      error("ik2d.pure.defs: " .. pending[1].name .. " is checked after " .. pending[1].after ..
            ", which is no field or rule of " .. description.c)
    end
  end
  local steps = {}
  for _, step in ipairs(order) do
    if step.check or step.rule then steps[#steps + 1] = step end
  end
  return steps
end

-- whether a step reads one of the names in set (a field's check its
-- field; a rule what it reads and the switch of its when)
local function reads_any(step, set)
  if step.field and set[step.field.name] then return true end
  if not step.rule then return false end
  for _, name in ipairs(step.rule.reads or {}) do
    if set[name] then return true end
  end
  for name in pairs(step.when or {}) do
    if set[name] then return true end
  end
  return false
end

--- The setters of a described def with `setters`, in the fields' order:
-- { name, fields (its arguments' fields, in order), switch (the field
-- it turns on, or nil), group, doc, checks (the def's checks of those
-- fields and the rules that read them or the switch, in the def's order) }.
function M.setters(description)
  local list = {}
  if not description.setters then return list end
  local by_name, seen = {}, {}
  for _, entry in ipairs(fields_and_groups(description)) do by_name[entry.field.name] = entry.field end
  for _, entry in ipairs(fields_and_groups(description)) do
    local f, g = entry.field, entry.group
    local setter
    if g and g.setter then
      if not seen[g] then
        seen[g] = true
        setter = { name = g.setter, group = g, fields = {}, doc = g.setter_doc }
        for _, gf in ipairs(g.fields) do
          if gf.member == "enabled" then setter.switch = gf else setter.fields[#setter.fields + 1] = gf end
        end
      end
    elseif f.kind == "vector" then
      setter = { name = f.option, group = g, fields = { by_name[f.vector[1]], by_name[f.vector[2]] } }
    elseif f.kind and f.kind ~= "number_or_array" then
      setter = { name = f.name, group = g, fields = { f } }
    end
    if setter then list[#list + 1] = setter end
  end
  local steps = M.checks(description)
  for _, setter in ipairs(list) do
    local set = {}
    for _, f in ipairs(setter.fields) do set[f.name] = true end
    if setter.switch then set[setter.switch.name] = true end
    setter.checks = {}
    for _, step in ipairs(steps) do
      if reads_any(step, set) then setter.checks[#setter.checks + 1] = step end
    end
  end
  return list
end

--- The argument each status of a setter blames, by status name: its
-- fields' (and their checking rules') statuses the argument of the
-- field (2 for the first: the object is 1), any other the object's.
function M.blame(setter)
  local arg = {}
  for k, f in ipairs(setter.fields) do arg[f.name] = k + 1 end
  local blame = {}
  for _, step in ipairs(setter.checks) do
    if step.status then blame[step.status] = step.field and arg[step.field.name] or 1 end
  end
  return blame
end

--- the setter of a described def named name
function M.setter(description, name)
  for _, setter in ipairs(M.setters(description)) do
    if setter.name == name then return setter end
  end
  error("ik2d.pure.defs: no setter " .. tostring(name) .. " of " .. description.c)
end

--- the keys of a described def, in order, and a function(def) that sets
-- every key of def (a new table without one) to its default
function M.of(description)
  local keys, defaults = {}, {}
  for k, f in ipairs(M.fields(description)) do
    keys[k] = f.name
    -- a double's default is a float, as C keeps it
    defaults[k] = f.type == "double" and f.default * 1.0 or f.default
  end
  local function default_def(def)
    def = def or {}
    for k = 1, #keys do def[keys[k]] = defaults[k] end
    return def
  end
  return keys, default_def
end

return M
