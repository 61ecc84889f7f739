-- The DragonBones runtime's poses, from Lua: runs
-- spec/dragonbones/reference.js under node (see there for what it prints
-- and how a time maps to a pose) and returns its numbers.
--
--   local reference = require("spec.dragonbones.reference")
--   local ok, why = reference.available()
--   local out = reference.poses("spec/rigs/dragonbones/body_ske.json", "body", "idle", { 0.1, 0.5 })
--   out.poses[1].bones.calf_l   -- { a, b, c, d, x, y }: x axis (a, c), y axis (b, d)
--
-- It needs node and the npm package pixi-dragonbones-runtime (make
-- deps installs both: Debian's nodejs and npm, then the package into
-- build/npm); available() says why not when either is missing.

local reference = {}

local SCRIPT = "spec/dragonbones/reference.js"

local function runtime_folder()
  return os.getenv("IK2D_DRAGONBONES_RUNTIME") or "build/npm"
end

local function quote(s)
  return "'" .. tostring(s):gsub("'", "'\\''") .. "'"
end

local function decoder()
  local ok, cjson = pcall(require, "cjson")
  if ok then return cjson.decode end
  return require("dkjson").decode
end

--- true, or false and the reason the reference cannot run here.
function reference.available()
  local p = io.popen("command -v node 2>/dev/null")
  local node = p and p:read("*l")
  if p then p:close() end
  if node == nil or node == "" then return false, "node is not installed (make deps installs Debian's nodejs)" end
  local package = runtime_folder() .. "/node_modules/pixi-dragonbones-runtime/package.json"
  local f = io.open(package, "r")
  if f == nil then
    return false, "the npm package pixi-dragonbones-runtime is not in " .. runtime_folder() ..
      " (make deps-node installs it)"
  end
  f:close()
  return true
end

--- The runtime's poses of armature's animation ("-": the setup pose) at
-- each of times (seconds): { frame_rate, duration, play_times, poses =
-- { { time, bones = { name = { a, b, c, d, x, y } }, slots = { name =
-- { display, color } } } } }. Raises when node fails.
function reference.poses(ske_path, armature, animation, times)
  local words = { "node", quote(SCRIPT), quote(ske_path), quote(armature), quote(animation) }
  for _, t in ipairs(times or {}) do words[#words + 1] = string.format("%.17g", t) end
  local p = assert(io.popen(table.concat(words, " ") .. " 2>&1"))
  local text = p:read("*a")
  local ok = p:close()
  local decoded = text:sub(1, 1) == "{" and decoder()(text) or nil
  if not ok or type(decoded) ~= "table" then
    error("reference.js failed: " .. text:sub(1, 2000), 2)
  end
  return decoded
end

return reference
