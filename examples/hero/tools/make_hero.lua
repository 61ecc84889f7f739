-- Writes the hero's Spine 4.2 JSON and its atlas text into
-- examples/hero/assets/ (hero.json, hero.atlas); the atlas page,
-- hero.png, is painted by the LÖVE program in paint/.  Any Lua 5.1-5.4
-- or LuaJIT, from anywhere:
--
--   lua5.4 examples/hero/tools/make_hero.lua [folder]

local here = (arg and arg[0] or ""):match("^(.*)[/\\][^/\\]*$") or "."
package.path = here .. "/?.lua;" .. package.path

local hero = require "hero_files"

local folder = arg and arg[1] or (here .. "/../assets")
for _, name in ipairs({ "hero.json", "hero.atlas" }) do
  local text = hero.text(name)
  local file = assert(io.open(folder .. "/" .. name, "wb"))
  file:write(text)
  file:close()
  print(("make_hero: %s/%s, %d bytes"):format(folder, name, #text))
end
