--- ik2d.pure.binding_spring: ik2d.spring for Lua (src/lua/luaik_spring.c):
-- options into a copy of the def, which the core checks whole.
local api = require "ik2d.api"
local B = require "ik2d.pure.binding"
local option_rows = require "ik2d.pure.options"
local O = require "ik2d.pure.objects"
local springs = require "ik2d.pure.spring"
local binding_chain = require "ik2d.pure.binding_chain"

local select, tostring = select, tostring
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
  return sp
end

-- the rows of lua/ik2d/api.lua, read by ik2d.pure.options
local OPTIONS, BY_NAME = option_rows.rows(api.spring)

local function read_options(t, arg, def)
  option_rows.read_all(t, arg, OPTIONS, BY_NAME, def)
end

-- each call's own copy of the settings it changes
local take_def, give_def = B.pool()

function M.spring(...)
  local chain, options = ...
  local n = select("#", ...)
  local ch = binding_chain.check_chain(chain, 1, n)
  local def = springs.default_def()
  if options ~= nil then
    if not is_table(options) then type_error(2, "table", options, n) end
    read_options(options, 2, def)
    -- still alive after the reading (nothing in it can run Lua)
    ch = binding_chain.check_chain(chain, 1, n)
  end
  local sp, status = springs.new(ch, def)
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

function Spring.set_gravity(...)
  local self, x, y = ...
  local n = select("#", ...)
  local sp = check_spring(self, 1, n)
  x = number_at(x, n >= 2, 2)
  y = number_at(y, n >= 3, 3)
  local status = springs.set_gravity(sp, x, y)
  check_status(status == "GRAVITY_Y" and 3 or 2, status)
end

function Spring.gravity(...)
  local settings = check_spring(..., 1, select("#", ...)).settings
  return settings.gravity_x, settings.gravity_y
end

--- all or nothing: the options go into a copy of the def
function Spring.set_options(...)
  local self, t = ...
  local n = select("#", ...)
  local sp = check_spring(self, 1, n)
  if not is_table(t) then type_error(2, "table", t, n) end
  local def = springs.copy_def(sp.settings, take_def())
  read_options(t, 2, def)
  -- a spring finalised meanwhile raises rather than change
  sp = check_spring(self, 1, n)
  local status = springs.set_def(sp, def)
  give_def(def)
  check_status(2, status)
end

--- every option's value in t (or a new table); gravity in t.gravity when
-- that is a table already
function Spring.options(...)
  local self, t = ...
  local n = select("#", ...)
  local settings = check_spring(self, 1, n).settings
  t = B.table_arg(t, 2, n)
  return option_rows.push_all(t, OPTIONS, settings)
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
