-- luacheck configuration: `luacheck lua spec examples` (make lint)
std = "max"
max_line_length = 120
self = false            -- methods need not use their implicit self
-- dkjson as Debian ships it, unchanged (lua/ik2d/vendor/dkjson-LICENSE.txt)
exclude_files = { "lua/ik2d/vendor/dkjson.lua" }
files["spec"] = { std = "+busted" }
-- the pure-Lua core tests as the C core does, where NaN makes
-- `not (x < y)` differ from `x >= y`
files["lua/ik2d/pure"] = { ignore = { "581" } }
files["lua/ik2d/love.lua"] = { std = "+love" }
files["lua/ik2d/love_rig.lua"] = { std = "+love" }
files["examples/viewer"] = { std = "+love" }
files["examples/love"] = { std = "+love" }
files["examples/spider"] = { std = "+love" }
files["examples/rifleman"] = { std = "+love" }
files["examples/hero_walk"] = { std = "+love" }
files["examples/hero/tools/paint"] = { std = "+love" }
files["spec/love_ship"] = { std = "+love" }
