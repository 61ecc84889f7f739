-- The documents' Lua examples run, and their links lead somewhere.
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
--
-- Every relative link and image of README.md and docs/*.md must name a
-- file that exists, and its #anchor a heading of that file, slugged as
-- GitHub slugs headings (below).

local helpers = require "spec.helpers"

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

-- ------------------------------------------------------------------
-- links
-- ------------------------------------------------------------------

-- The anchor GitHub gives a heading: its text as shown (inline code and
-- links reduced to their text), lower-cased, every character but letters,
-- digits, spaces, '-' and '_' dropped, spaces made '-'.  Of the non-ASCII
-- characters only Latin-1 letters are kept (Ö lower-cased: "LÖVE" gives
-- "löve"); arrows, dashes and the like are dropped, as GitHub drops them.
local function slug(heading)
  local s = heading:gsub("%[(.-)%]%b()", "%1"):gsub("`", "")
  s = s:lower():gsub("\195\150", "\195\182")
  local out = {}
  local i = 1
  while i <= #s do
    local c = s:byte(i)
    local n = c < 0x80 and 1 or c >= 0xF0 and 4 or c >= 0xE0 and 3 or 2
    local ch = s:sub(i, i + n - 1)
    if n == 1 then
      if ch:match("[%w_%- ]") then out[#out + 1] = ch end
    elseif c == 0xC3 and ch ~= "\195\151" and ch ~= "\195\183" then
      out[#out + 1] = ch -- a Latin-1 letter (not × or ÷)
    end
    i = i + n
  end
  return (table.concat(out):gsub(" ", "-"))
end

-- every line of text outside fenced code blocks, with its number
local function prose_lines(text)
  local out, fence = {}, nil
  for k, line in ipairs(lines_of(text)) do
    local mark = line:match("^%s*(```+)")
    if fence then
      if mark and mark:sub(1, #fence) == fence then fence = nil end
    elseif mark then
      fence = mark
    else
      out[#out + 1] = { number = k, text = line }
    end
  end
  return out
end

-- the set of anchors a document's headings give
local anchor_cache = {}
local function anchors_of(path)
  if anchor_cache[path] then return anchor_cache[path] end
  local set, seen = {}, {}
  for _, line in ipairs(prose_lines(read(path))) do
    local heading = line.text:match("^#+%s+(.-)%s*#*%s*$")
    if heading then
      local base = slug(heading)
      local anchor = base
      if seen[base] then anchor = base .. "-" .. seen[base] end
      seen[base] = (seen[base] or 0) + 1
      set[anchor] = true
    end
  end
  anchor_cache[path] = set
  return set
end

local function exists(path)
  local file = io.open(path, "rb")
  if file then file:close() end
  return file ~= nil
end

-- "docs/../README.md" -> "README.md"
local function normalise(path)
  local parts = {}
  for part in path:gmatch("[^/]+") do
    if part == ".." and #parts > 0 and parts[#parts] ~= ".." then
      parts[#parts] = nil
    elseif part ~= "." then
      parts[#parts + 1] = part
    end
  end
  return (path:sub(1, 1) == "/" and "/" or "") .. table.concat(parts, "/")
end

-- the problems of path's relative links, as "path:line: ..." strings
local function broken_links(path)
  local problems = {}
  local dir = path:match("^(.*)/[^/]*$")
  for _, line in ipairs(prose_lines(read(path))) do
    local text = line.text:gsub("`[^`]*`", "")
    for target in text:gmatch("%]%(([^%)%s]+)%)") do
      if not target:match("^%a[%w+.-]*:") then -- not http:, mailto: ...
        local file, anchor = target:match("^([^#]*)#?(.*)$")
        local resolved = file == "" and path or normalise(dir and (dir .. "/" .. file) or file)
        local where = path .. ":" .. line.number .. ": (" .. target .. ")"
        if not exists(resolved) then
          problems[#problems + 1] = where .. " no file " .. resolved
        elseif anchor ~= "" and resolved:match("%.md$") and not anchors_of(resolved)[anchor] then
          problems[#problems + 1] = where .. " no heading #" .. anchor .. " in " .. resolved
        end
      end
    end
  end
  return problems
end

describe("the documents' links", function()
  it("slug headings as GitHub does", function()
    assert.equal("two-commands-make-test-and-make-demo", slug("Two commands: `make test` and `make demo`"))
    assert.equal("löve-quick-start", slug("LÖVE quick start"))
    assert.equal("ik2dmirror_bones-the-other-side-of-a-rig",
                 slug("`ik2d.mirror_bones`: the other side of a rig"))
    assert.equal("ik2dchaint--chain", slug("`ik2d.chain(t)` → chain"))
  end)

  it("are found broken when a file or a heading is missing", function()
    local scratch = os.tmpname()
    local path = scratch .. ".md"
    local file = assert(io.open(path, "wb"))
    file:write("# A title\n\n[here](#a-title) [gone](#no-such) [lost](no_such_file.md)\n",
               "`[code](#not-a-link)`\n\n```\n[fenced](#not-a-link-either)\n```\n")
    file:close()
    local problems = broken_links(path)
    os.remove(path)
    os.remove(scratch)
    assert.equal(2, #problems, table.concat(problems, "\n"))
    assert.truthy(problems[1]:find("no heading #no-such", 1, true))
    assert.truthy(problems[2]:find("no file", 1, true))
  end)

  local ok, listing = helpers.run("ls docs/*.md")
  assert(ok, listing)
  local documents = { "README.md" }
  for path in listing:gmatch("[^\n]+") do documents[#documents + 1] = path end
  for _, path in ipairs(documents) do
    it("in " .. path .. " lead to files and headings that exist", function()
      local problems = broken_links(path)
      assert(#problems == 0, "\n" .. table.concat(problems, "\n"))
    end)
  end
end)
