-- hero_files: the text of each of the hero's generated files, as
-- make_hero.lua writes them and spec/hero_rig_spec.lua checks them.
--
--   require("hero_files").text("hero.json")   -- or "hero.atlas"

local J = require "hero_json"
local art = require "hero_art"
local hero_atlas = require "hero_atlas"
local hero_rig = require "hero_rig"

local hero_files = {}

local makers = {
  ["hero.json"] = function() return J.text((hero_rig.build())) end,
  ["hero.atlas"] = function() return hero_atlas.text(hero_atlas.pack(art.images), "hero.png") end,
}

--- hero_files.names: the files made here
hero_files.names = { "hero.json", "hero.atlas" }

--- hero_files.text(name) -> the file's text
function hero_files.text(name)
  return assert(makers[name], name)()
end

return hero_files
