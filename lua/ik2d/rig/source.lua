-- ik2d.rig.source: where a rig comes from and which format it is, for
-- ik2d.rig.load.
--
--   local decoded, name = source.open("hero.json")        -- or a JSON text, or a table
--   local format = source.format(decoded)                 -- "spine", "dragonbones", "ik2d"
--   local desc = source.describe("hero.json")             -- the rig description, or nil, message
--
-- A path (a string ending in .json) is read through love.filesystem
-- inside LÖVE (the game's folder and save folder), else with io.open; a
-- string that starts with { is a JSON text; a table is taken as decoded.
-- Messages start with the file's name ("<json text>", "<table>" when
-- there is none), as the readers' do.

local json = require "ik2d.rig.json"
local check = require "ik2d.rig.check"

local source = { _VERSION = require("ik2d.api").version }

local type, format = type, string.format
local is_object, is_absent = check.is_object, check.is_absent

-- The text of a file: love.filesystem.read inside LÖVE, io.open outside
-- it (and inside it for a path LÖVE's file system does not have).
local function read_file(path)
  local love = rawget(_G, "love")
  local love_message
  if type(love) == "table" and type(love.filesystem) == "table" and love.filesystem.read then
    local text, message = love.filesystem.read(path)
    if type(text) == "string" then return text end
    love_message = message
  end
  local io_lib = rawget(_G, "io")
  if io_lib and io_lib.open then
    local file, message = io_lib.open(path, "rb")
    if file then
      local text = file:read("*a")
      file:close()
      if text then return text end
      message = "nothing could be read"
    end
    return nil, message
  end
  return nil, love_message or "no file system to read it with"
end

--- source.read_file(path) -> the file's text, or nil, message (through
-- love.filesystem inside LÖVE)
source.read_file = read_file

--- source.open(src) -> decoded table, name; or nil, message.  src: a
-- path ending in .json, a JSON text or a decoded table; name: the path,
-- "<json text>" or "<table>".
function source.open(src)
  if type(src) == "table" then return src, "<table>" end
  if type(src) ~= "string" then
    return nil, "source must be a path ending in .json, a JSON text or a decoded table, got " .. type(src)
  end
  local text, name
  if src:match("^%s*[{%[]") then
    text, name = src, "<json text>"
  elseif src:lower():match("%.json$") then
    local message
    text, message = read_file(src)
    if not text then return nil, format("%s: cannot be read: %s", src, tostring(message)) end
    name = src
  else
    return nil, "source must be a path ending in .json, a JSON text or a decoded table, got " .. check.show(src)
  end
  local decoded, message = json.decode(text)
  if decoded == nil then return nil, format("%s: not JSON: %s", name, tostring(message)) end
  return decoded, name
end

--- source.format(decoded) -> "spine" (skeleton.spine), "dragonbones"
-- (armature with version or frameRate), "ik2d" (ik2d), or nil.
function source.format(decoded)
  if not is_object(decoded) then return nil end
  if not is_absent(decoded.ik2d) then return "ik2d" end
  local skeleton = decoded.skeleton
  if is_object(skeleton) and type(skeleton.spine) == "string" then return "spine" end
  if not is_absent(decoded.armature) and (not is_absent(decoded.version) or not is_absent(decoded.frameRate)) then
    return "dragonbones"
  end
  return nil
end

-- the readers of each format there is a reader for
local READERS = { spine = "ik2d.rig.spine", dragonbones = "ik2d.rig.dragonbones", ik2d = "ik2d.rig.file" }

--- source.describe(src [, options]) -> the rig description, or nil and a
-- message.  options.format: "spine", "dragonbones" or "ik2d" (detected
-- when absent).
function source.describe(src, options)
  if options ~= nil and type(options) ~= "table" then
    return nil, "options must be a table, got " .. check.kind(options)
  end
  local decoded, name = source.open(src)
  if not decoded then return nil, name end
  local wanted = options and options.format
  local detected = source.format(decoded)
  if wanted == nil then
    wanted = detected
    if not wanted then
      return nil, name .. ": not a rig ik2d reads (a Spine file has skeleton.spine, a DragonBones file armature "
        .. "and version, an ik2d rig ik2d)"
    end
  end
  local module = READERS[wanted]
  if not module then
    if wanted == "dragonbones" or wanted == "ik2d" then
      return nil, format("%s: format %q has no reader yet", name, wanted)
    end
    return nil, format("options.format must be \"spine\", \"dragonbones\" or \"ik2d\", got %s", check.show(wanted))
  end
  return require(module).try_read(decoded, name)
end

return source
