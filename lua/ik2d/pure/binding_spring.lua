--- ik2d.pure.binding_spring: ik2d.spring for Lua (src/lua/luaik_spring.c):
-- options into a copy of the def, which the core checks whole; colliders
-- read whole before the core takes them.
local api = require "ik2d.api"
local B = require "ik2d.pure.binding"
local checks = require "ik2d.pure.checks"
local defs = require "ik2d.pure.defs"
local option_rows = require "ik2d.pure.options"
local O = require "ik2d.pure.objects"
local springs = require "ik2d.pure.spring"
local binding_chain = require "ik2d.pure.binding_chain"
local skeleton = require "ik2d.pure.skeleton"

local select, tostring, rawget, rawset = select, tostring, rawget, rawset
local rawlen = rawget(_G, "rawlen") or function(t) return #t end
local format = string.format
local arg_error, type_error, check_status = B.arg_error, B.type_error, B.check_status
local number_at, is_table = B.number_at, B.is_table

local springs_of, new_spring = O.objects.Spring, O.new.Spring
local Spring = O.methods.Spring

local M = {}

local function check_spring(v, arg, n)
  local sp = springs_of[v]
  if not sp then type_error(arg, "ik2d.Spring", v, n) end
  if sp.collected then arg_error(arg, "spring was collected") end
  if sp.chain.collected then arg_error(arg, "chain was collected") end
  -- its skeleton's bones placed after a base set later (a spring reads
  -- its chain's state)
  local link = sp.chain.link
  if link and link.skeleton then skeleton.ready(link.skeleton) end
  return sp
end

-- the rows of lua/ik2d/api.lua, read by ik2d.pure.options
local OPTIONS, BY_NAME = option_rows.rows(api.spring)

-- each call's own copy of the settings it changes, and slots for the
-- per-bone arrays it reads
local take_def, give_def = B.pool()
local take_arrays, give_arrays = B.pool()

-- the options of t into def for a chain of count bones; returns the
-- arrays' slots, to give back once the core has copied them
local function read_options(t, arg, def, count)
  local arrays = take_arrays()
  arrays.count, arrays.used = count, 0
  option_rows.read_all(t, arg, OPTIONS, BY_NAME, def, arrays)
  return arrays
end

function M.spring(...)
  local chain, options = ...
  local n = select("#", ...)
  local ch = binding_chain.check_chain(chain, 1, n)
  local def = springs.default_def()
  local arrays
  if options ~= nil then
    if not is_table(options) then type_error(2, "table", options, n) end
    arrays = read_options(options, 2, def, ch.count)
    -- still alive after the reading (nothing in it can run Lua)
    ch = binding_chain.check_chain(chain, 1, n)
  end
  local sp, status = springs.new(ch, def)
  if arrays then give_arrays(arrays) end
  check_status(2, status)
  -- the spring keeps its chain alive
  sp.anchor = chain
  return new_spring(sp)
end

function Spring.chain(...)
  return check_spring(..., 1, select("#", ...)).anchor
end

function Spring.update(...)
  local self, dt = ...
  local n = select("#", ...)
  local sp = check_spring(self, 1, n)
  dt = number_at(dt, n >= 2, 2)
  B.check_value_status(2, springs.update(sp, dt), dt)
end

function Spring.reset(...)
  springs.reset(check_spring(..., 1, select("#", ...)))
end

function Spring.set_weight(...)
  local self, weight = ...
  local n = select("#", ...)
  local sp = check_spring(self, 1, n)
  local def = springs.copy_def(sp.settings, take_def())
  option_rows.read(weight, n >= 2, 2, BY_NAME.weight, def)
  local status = springs.set_def(sp, def)
  give_def(def)
  check_status(2, status)
end

function Spring.weight(...)
  return check_spring(..., 1, select("#", ...)).settings.weight
end

-- the argument each status of a setter blames, as lua/ik2d/api.lua says
local GRAVITY_ARG = checks.blame(api.spring, "gravity")
local WIND_ARG = checks.blame(api.spring, "wind")

function Spring.set_gravity(...)
  local self, x, y = ...
  local n = select("#", ...)
  local sp = check_spring(self, 1, n)
  x = number_at(x, n >= 2, 2)
  y = number_at(y, n >= 3, 3)
  local status = springs.set_gravity(sp, x, y)
  check_status(GRAVITY_ARG[status] or 1, status)
end

function Spring.gravity(...)
  local settings = check_spring(..., 1, select("#", ...)).settings
  return settings.gravity_x, settings.gravity_y
end

function Spring.set_wind(...)
  local self, x, y = ...
  local n = select("#", ...)
  local sp = check_spring(self, 1, n)
  x = number_at(x, n >= 2, 2)
  y = number_at(y, n >= 3, 3)
  local status = springs.set_wind(sp, x, y)
  check_status(WIND_ARG[status] or 1, status)
end

function Spring.wind(...)
  local settings = check_spring(..., 1, select("#", ...)).settings
  return settings.wind_x, settings.wind_y
end

--- all or nothing: the options go into a copy of the def
function Spring.set_options(...)
  local self, t = ...
  local n = select("#", ...)
  local sp = check_spring(self, 1, n)
  if not is_table(t) then type_error(2, "table", t, n) end
  local def = springs.copy_def(sp.settings, take_def())
  local arrays = read_options(t, 2, def, sp.chain.count)
  -- a spring finalised meanwhile raises rather than change
  sp = check_spring(self, 1, n)
  local status = springs.set_def(sp, def)
  give_def(def)
  give_arrays(arrays)
  check_status(2, status)
end

--- every option's value in t (or a new table); gravity in t.gravity when
-- that is a table already
function Spring.options(...)
  local self, t = ...
  local n = select("#", ...)
  local sp = check_spring(self, 1, n)
  t = B.table_arg(t, 2, n)
  return option_rows.push_all(t, OPTIONS, sp.settings, sp.chain.count)
end

-- colliders ------------------------------------------------------------

local COLLIDER_FIELDS = defs.field_set(api.collider)
local NO_KEYS = {}
local MAX_COLLIDERS = springs.MAX_COLLIDERS

-- each call's own records
local take_records, give_records = B.pool()

local function collider_number(t, owner, key)
  return number_at(rawget(t, key), true, 2, format("%s.%s", owner, key))
end

-- colliders[k] of list (a circle {x =, y =, radius =} or a segment {x1 =,
-- y1 =, x2 =, y2 =}) into record c, checked
local function read_collider(list, k, c)
  local t = rawget(list, k)
  local owner = format("colliders[%d]", k)
  if not is_table(t) then arg_error(2, format("%s: table expected, got %s", owner, B.typename(t))) end
  B.check_keys(t, 2, owner .. ": ", "field", COLLIDER_FIELDS, 0)
  local circle = rawget(t, "x") ~= nil or rawget(t, "y") ~= nil or rawget(t, "radius") ~= nil
  local segment = rawget(t, "x1") ~= nil or rawget(t, "y1") ~= nil or rawget(t, "x2") ~= nil or
                  rawget(t, "y2") ~= nil
  if circle == segment then
    arg_error(2, format("%s: a circle {x =, y =, radius =} or a segment {x1 =, y1 =, x2 =, y2 =} "
                        .. "expected%s", owner, circle and ", not both" or ""))
  end
  if circle then
    c.shape = "circle"
    c.x = collider_number(t, owner, "x")
    c.y = collider_number(t, owner, "y")
    c.radius = collider_number(t, owner, "radius")
  else
    c.shape = "segment"
    c.x1 = collider_number(t, owner, "x1")
    c.y1 = collider_number(t, owner, "y1")
    c.x2 = collider_number(t, owner, "x2")
    c.y2 = collider_number(t, owner, "y2")
  end
  local status = springs.check_collider(c)
  if status then arg_error(2, format("%s: %s", owner, B.status_message(status))) end
end

--- all or nothing: every collider read and checked before the core takes
-- them; nil or none clears
function Spring.set_colliders(...)
  local self, list = ...
  local n = select("#", ...)
  check_spring(self, 1, n)
  local records, count = take_records(), 0
  if list ~= nil then
    if not is_table(list) then type_error(2, "table", list, n) end
    count = rawlen(list)
    if count > MAX_COLLIDERS then
      arg_error(2, format("%s, got %d", B.status_message("COLLIDERS"), count))
    end
    B.check_keys(list, 2, "colliders: ", "key", NO_KEYS, count)
    for k = 1, count do
      local c = records[k]
      if not c then
        c = {}
        records[k] = c
      end
      read_collider(list, k, c)
    end
  end
  local sp = check_spring(self, 1, n)
  local status = springs.set_colliders(sp, records, count)
  give_records(records)
  check_status(2, status)
end

--- the colliders as set_colliders takes them, into t (or a new table)
function Spring.colliders(...)
  local self, t = ...
  local n = select("#", ...)
  local sp = check_spring(self, 1, n)
  t = B.table_arg(t, 2, n)
  local own, count = springs.colliders(sp)
  for k = 1, count do
    local c = own[k]
    if c.shape == "circle" then
      rawset(t, k, { x = c.x, y = c.y, radius = c.radius })
    else
      rawset(t, k, { x1 = c.x1, y1 = c.y1, x2 = c.x2, y2 = c.y2 })
    end
  end
  B.trim(t, count + 1)
  return t
end

function Spring.velocity(...)
  local self, i = ...
  local n = select("#", ...)
  local sp = check_spring(self, 1, n)
  i = B.whole_at(i, n >= 2, 2, "bone index")
  if not (i >= 1 and i <= sp.chain.count) then B.index_error(2, "bone", i, sp.chain.count) end
  return springs.velocity(sp, i)
end

local meta = {}
function meta.__tostring(self)
  local sp = springs_of[self]
  if not sp or sp.collected then return "ik2d.Spring(collected)" end
  local s = sp.settings
  return format("ik2d.Spring(stiffness %s, damping %s, mass %s, weight %s)", tostring(s.stiffness),
                tostring(s.damping), tostring(s.mass), tostring(s.weight))
end

for name, f in pairs(meta) do O.mt.Spring[name] = f end
B.register(Spring, true)
B.register(meta, false)
B.register({ spring = M.spring }, false)

return M
