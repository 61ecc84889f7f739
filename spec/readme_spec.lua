-- The documents' Lua examples run.
--
-- Every ```lua block of README.md and docs/api.md is run, each in a fresh
-- environment, so an example cannot drift from the API without a failing
-- spec.  It runs in every pass of make test: Lua 5.4 and LuaJIT, the C
-- core and the pure-Lua core (IK2D_PURE=1), the FFI path on.
--
-- Markers: an HTML comment on the line right before a block's fence
-- (GitHub does not show it) says how the block runs:
--
--   <!-- readme: love -->           a LOVE main.lua: it runs with a stand-in
--                                   `love` (love.graphics calls do nothing,
--                                   newImage gives a 32x8 image, the mouse
--                                   moves along a line); then love.load,
--                                   30 frames of love.update(1 / 60) and
--                                   love.draw, for those the block defines
--   <!-- readme: continue -->       the block goes on from the block before
--                                   it: both run as one chunk (that block's
--                                   locals are in scope)
--   <!-- readme: love continue -->  both
--
-- A block without a marker is plain Lua, run as it is.  print prints
-- nothing here.  Blocks in other languages (sh, c) are not run.

-- the documents whose examples run, each with at least this many blocks
local EXAMPLES = { { path = "README.md", at_least = 4 }, { path = "docs/api.md", at_least = 12 } }

local function read(path)
  local file = assert(io.open(path, "rb"))
  local text = file:read("*a")
  file:close()
  return text
end

local function lines_of(text)
  local lines = {}
  for line in (text .. "\n"):gmatch("(.-)\r?\n") do lines[#lines + 1] = line end
  return lines
end

-- The ```lua blocks of a document, in order: { line = the fence's line,
-- first =, last = the lines of its code, love =, continue = }.
local function lua_blocks(path, lines)
  local blocks = {}
  local i = 1
  while i <= #lines do
    local fence = lines[i]:match("^(```+)lua%s*$")
    if fence then
      local marker = i > 1 and lines[i - 1]:match("^<!%-%- readme: (.-) %-%->$")
      local block = { line = i, love = false, continue = false }
      if marker then
        for word in marker:gmatch("%S+") do
          if word ~= "love" and word ~= "continue" then
            error(path .. ":" .. (i - 1) .. ": unknown readme marker '" .. word .. "'")
          end
          block[word] = true
        end
      end
      i = i + 1
      block.first = i
      while i <= #lines and lines[i] ~= fence do i = i + 1 end
      if i > #lines then error(path .. ":" .. block.line .. ": the ```lua block is not closed") end
      block.last = i - 1
      blocks[#blocks + 1] = block
    elseif lines[i]:match("^<!%-%- readme:") and not (lines[i + 1] or ""):match("^```+lua%s*$") then
      error(path .. ":" .. i .. ": a readme marker must be on the line right before a ```lua fence")
    end
    i = i + 1
  end
  return blocks
end

-- The code of blocks[from..to] as one chunk, each line at its document's
-- line number (the lines between blocks left empty), so errors name the
-- document's lines.
local function chunk_source(lines, blocks, from, to)
  local out = {}
  for k = 1, blocks[to].last do out[k] = "" end
  for b = from, to do
    for k = blocks[b].first, blocks[b].last do out[k] = lines[k] end
  end
  return table.concat(out, "\n")
end

-- A stand-in for LOVE's API, enough for the examples and ik2d.love.
local function fake_love()
  local frame = 0
  local function nothing() end
  local image = {}
  function image.getDimensions() return 32, 8 end
  function image.getWidth() return 32 end
  function image.getHeight() return 8 end
  local graphics = setmetatable({
    newImage = function() return image end,
    getWidth = function() return 800 end,
    getHeight = function() return 600 end,
  }, { __index = function() return nothing end })
  return {
    graphics = graphics,
    mouse = { getPosition = function() return 380 + 4 * frame, 260 + 2 * frame end },
    keyboard = { isDown = function() return false end },
    frame = function() frame = frame + 1 end,
  }
end

local load_in -- load_in(source, name, env) --> function or nil, message
if setfenv then -- luacheck: ignore 113 (Lua 5.1 and LuaJIT)
  load_in = function(source, name, env)
    local f, message = loadstring(source, name) -- luacheck: ignore 113
    if f then setfenv(f, env) end -- luacheck: ignore 113
    return f, message
  end
else
  load_in = function(source, name, env) return load(source, name, "t", env) end
end

local function run(path, block, source)
  local env = setmetatable({ print = function() end }, { __index = _G })
  local saved_love = rawget(_G, "love")
  local stand_in
  if block.love then
    stand_in = fake_love()
    -- ik2d.love reads the global love when it draws
    rawset(_G, "love", stand_in)
    env.love = stand_in
  end
  local ok, err = pcall(function()
    local chunk = assert(load_in(source, "=" .. path, env))
    chunk()
    if stand_in then
      if stand_in.load then stand_in.load() end
      for _ = 1, 30 do
        stand_in.frame()
        if stand_in.update then stand_in.update(1 / 60) end
      end
      if stand_in.draw then stand_in.draw() end
    end
  end)
  rawset(_G, "love", saved_love)
  if not ok then error(err, 0) end
end

for _, doc in ipairs(EXAMPLES) do
  describe(doc.path .. "'s Lua examples", function()
    local lines = lines_of(read(doc.path))
    local blocks = lua_blocks(doc.path, lines)

    it("are found (at least " .. doc.at_least .. ")", function()
      assert.is_true(#blocks >= doc.at_least, #blocks .. " ```lua blocks found")
      assert.is_false(blocks[1].continue, "the first block cannot continue another")
    end)

    local from = 1
    for b, block in ipairs(blocks) do
      if not block.continue then from = b end
      local source = chunk_source(lines, blocks, from, b)
      local kind = block.love and "the LOVE example" or "the example"
      it(kind .. " at " .. doc.path .. ":" .. block.line .. " runs", function()
        run(doc.path, block, source)
      end)
    end
  end)
end
