-- The gait recipe of the documentation, followed literally: its ```lua
-- block (the one that defines `walker` and `walk`) is loaded as it is
-- written, then its walkers, a biped and a four-legged trotter, walk over
-- its hills at 60 and 144 Hz, turning round twice.  Every frame: planted
-- toes within 0.01 px of their spots, heels (the ankle joints) within
-- 1 px of the ground, the body's height moving at most 3 px.
local helpers = require "spec.helpers"

local PLACES = { "README.md", "docs/api.md" }
local MARK = "local function walk(w, dt, move)"

-- The recipe's code and where it is, from the first file that has it.
local function recipe()
  for _, path in ipairs(PLACES) do
    local f = io.open(path, "rb")
    if f then
      local text = f:read("*a")
      f:close()
      local line = 0
      local block, first
      for l in (text .. "\n"):gmatch("(.-)\r?\n") do
        line = line + 1
        if block then
          if l:match("^```") then
            local code = table.concat(block, "\n")
            if code:find(MARK, 1, true) then return code, path, first end
            block = nil
          else
            block[#block + 1] = l
          end
        elseif l:match("^```lua%s*$") then
          block, first = {}, line + 1
        end
      end
    end
  end
  error("no ```lua block with " .. MARK .. " in " .. table.concat(PLACES, " or "))
end

-- The recipe's functions, its own code run as it is (with print quiet).
local function load_recipe()
  local code, path, first = recipe()
  local source = ("\n"):rep(first - 1) .. code .. "\nreturn { walker = walker, walk = walk, hills = hills }"
  local env = setmetatable({ print = function() end }, { __index = _G })
  local chunk
  if rawget(_G, "setfenv") then
    chunk = assert(loadstring(source, "=" .. path)) -- luacheck: ignore 113
    setfenv(chunk, env) -- luacheck: ignore 113
  else
    chunk = assert(load(source, "=" .. path, "t", env))
  end
  return chunk()
end

local KINDS = {
  { name = "a biped", hips = { 0, 0 } },
  { name = "a four-legged trotter", hips = { 30, 30, -30, -30 }, pattern = { { 1, 4 }, { 2, 3 } } },
}

-- Walks w for 3 s right, 3 s left and 3 s right at hz; the worst of each
-- measure over every frame, and how many frames turned round.
local function run(r, w, hz)
  local dt = 1 / hz
  local legs = #w.sk:solvers()
  local worst = { toe = 0, heel = 0, dy = 0, turns = 0, planted = 0 }
  local prev_y, prev_facing
  for _, move in ipairs{ 1, -1, 1 } do
    for _ = 1, 3 * hz do
      r.walk(w, dt, move)
      local _, y = w.sk:base()
      if prev_y then worst.dy = math.max(worst.dy, math.abs(y - prev_y)) end
      if prev_facing and prev_facing ~= w.facing then worst.turns = worst.turns + 1 end
      prev_y, prev_facing = y, w.facing
      for i = 1, legs do
        local fx, fy, state = w.gait:foot(i)
        if state == "planted" then
          worst.planted = worst.planted + 1
          local tx, ty = w.sk:tip("foot" .. i)
          worst.toe = math.max(worst.toe, helpers.distance(tx, ty, fx, fy))
          local hx, hy = w.sk:world("foot" .. i)
          worst.heel = math.max(worst.heel, math.abs(hy - r.hills(hx)))
        end
      end
    end
  end
  return worst
end

describe("the gait recipe, followed literally", function()
  for _, kind in ipairs(KINDS) do
    for _, hz in ipairs{ 60, 144 } do
      it(("%s over hills at %d Hz, turning round twice: planted toes within 0.01 px of their spots, heels "
          .. "within 1 px of the ground, the body's height moving at most 3 px a frame"):format(kind.name, hz),
        function()
          local r = load_recipe()
          local w = r.walker(100, kind.hips, kind.pattern)
          local worst = run(r, w, hz)
          assert.are.equal(2, worst.turns)
          assert.is_true(worst.planted > 9 * hz, worst.planted)
          assert.is_true(worst.toe <= 0.01, worst.toe)
          assert.is_true(worst.heel <= 1, worst.heel)
          assert.is_true(worst.dy <= 3, worst.dy)
        end)
    end
  end
end)
