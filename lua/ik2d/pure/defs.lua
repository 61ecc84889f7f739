--- ik2d.pure.defs: the settings of a def lua/ik2d/api.lua describes (the
-- solver's, the spring's) as the pure core keeps them: one flat table,
-- a key per field (the field's name there), each at its default.
local api = require "ik2d.api"

local M = {}

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
