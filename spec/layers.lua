-- The layers check (make layers; make test runs it through spec/run.sh):
--
--   lua spec/layers.lua [--known=FILE] [--solve-path=FILE]... OBJECT...
--
-- (the options, for spec/layers_spec.lua: another known list, other
-- solve paths than the core's)
-- 1. Link cycles: OBJECT... are the C core's and the binding's objects
--    (the Makefile passes them). nm says which global symbols each
--    object defines and which it leaves undefined; an object that leaves
--    undefined a symbol another one defines refers to that file. That
--    counts every call and every address taken: a method table holding
--    another file's function leaves that function undefined in the
--    table's object. A set of files that refer to each other around a
--    circle (a strongly connected component of the graph) fails, with
--    one circle through it and the symbol behind each step.
-- 2. Long functions: no function of the core's solve paths (SOLVE_PATHS)
--    over MAX_LINES lines, counted from its signature's first line to its
--    closing brace.
--
-- spec/layers_known.txt lists what is known to break a rule until the
-- change that fixes it lands: the check reports those as known and fails
-- on anything else, and on a line of that file that no longer occurs.
-- Prints a line per finding and ends with `layers: N passed, N failed`
-- (each rule one check); exits non-zero when one failed.

local MAX_LINES = 80
local SOLVE_PATHS = {
  "src/ik2d_solver.c", "src/ik2d_skeleton_solve.c", "src/ik2d_skeleton.c",
  "src/ik2d_lanes.h", "src/ik2d_batch.c", "src/ik2d_pose.c", "src/ik2d_ccd.c",
  "src/ik2d_fabrik.c", "src/ik2d_two_bone.c", "src/ik2d_follow.c", "src/ik2d_aim.c",
}
local KNOWN_LIST = "spec/layers_known.txt"

local function file_name(path)
  return (path:match("([^/]+)%.o$") or path)
end

-- --- the link graph -------------------------------------------------------

-- defined[symbol] = file; undefined[file] = {symbol, ...}; files in order
local function read_symbols(objects)
  local defined, undefined, files = {}, {}, {}
  for _, object in ipairs(objects) do
    local file = file_name(object)
    files[#files + 1] = file
    undefined[file] = {}
    local nm = assert(io.popen("nm -P '" .. object .. "' 2>&1"))
    for line in nm:lines() do
      local symbol, kind = line:match("^(%S+) (%a)")
      if kind == "U" then
        table.insert(undefined[file], symbol)
      elseif kind and kind:match("[TDRBCVW]") then
        defined[symbol] = file
      end
    end
    if not nm:close() then error("nm failed on " .. object) end
  end
  return defined, undefined, files
end

-- edges[from][to] = the first symbol (in nm's order) behind the reference
local function link_graph(objects)
  local defined, undefined, files = read_symbols(objects)
  local edges = {}
  for _, file in ipairs(files) do
    edges[file] = {}
    for _, symbol in ipairs(undefined[file]) do
      local to = defined[symbol]
      if to and to ~= file and not edges[file][to] then edges[file][to] = symbol end
    end
  end
  return edges, files
end

local function sorted_keys(t)
  local keys = {}
  for k in pairs(t) do keys[#keys + 1] = k end
  table.sort(keys)
  return keys
end

-- Tarjan's strongly connected components with more than one file, each
-- a sorted list.
local function cycles_of(edges, files)
  local index, low, on_stack, stack, found, counter = {}, {}, {}, {}, {}, 0
  local function connect(v)
    counter = counter + 1
    index[v], low[v] = counter, counter
    stack[#stack + 1], on_stack[v] = v, true
    for _, w in ipairs(sorted_keys(edges[v])) do
      if not index[w] then
        connect(w)
        low[v] = math.min(low[v], low[w])
      elseif on_stack[w] then
        low[v] = math.min(low[v], index[w])
      end
    end
    if low[v] ~= index[v] then return end
    local component = {}
    repeat
      local w = table.remove(stack)
      on_stack[w] = nil
      component[#component + 1] = w
    until w == v
    if #component > 1 then
      table.sort(component)
      found[#found + 1] = component
    end
  end
  for _, v in ipairs(files) do
    if not index[v] then connect(v) end
  end
  return found
end

-- One circle through a component, from its first file back to it (the
-- shortest, breadth first), as "a -> b (symbol) -> a (symbol)".
local function circle_words(edges, component)
  local inside = {}
  for _, file in ipairs(component) do inside[file] = true end
  local start = component[1]
  local came_from, queue, head = {}, {start}, 1
  while head <= #queue and not came_from[start] do
    local v = queue[head]
    head = head + 1
    for _, w in ipairs(sorted_keys(edges[v])) do
      if inside[w] and not came_from[w] then
        came_from[w] = v
        queue[#queue + 1] = w
      end
    end
  end
  local steps, w = {}, start
  repeat
    local v = came_from[w]
    table.insert(steps, 1, " -> " .. w .. " (" .. edges[v][w] .. ")")
    w = v
  until w == start
  return start .. table.concat(steps)
end

-- --- function lengths -----------------------------------------------------

-- The text with every comment and the inside of every string and
-- character literal made blanks (newlines kept, so line numbers stay).
local function blank_comments(text)
  local out, i, n = {}, 1, #text
  local function keep(to)
    out[#out + 1] = text:sub(i, to)
    i = to + 1
  end
  local function blank(to)
    out[#out + 1] = (text:sub(i, to):gsub("[^\n]", " "))
    i = to + 1
  end
  while i <= n do
    local c, two = text:sub(i, i), text:sub(i, i + 1)
    if two == "/*" then
      blank((text:find("*/", i + 2, true) or n - 1) + 1)
    elseif two == "//" then
      blank((text:find("\n", i, true) or n + 1) - 1)
    elseif c == '"' or c == "'" then
      local close = i + 1
      while close <= n and text:sub(close, close) ~= c do
        close = close + (text:sub(close, close) == "\\" and 2 or 1)
      end
      keep(i)
      blank(close - 1)
      keep(close)
    else
      keep((text:find("[/\"']", i + 1) or n + 1) - 1)
    end
  end
  return table.concat(out)
end

-- The source without comments, literals' insides or preprocessor lines
-- (each made blank; newlines kept, so line numbers stay), a line each.
local function code_of(text)
  text = blank_comments(text)
  local lines, continued = {}, false
  for line in (text .. "\n"):gmatch("([^\n]*)\n") do
    local directive = continued or line:match("^%s*#") ~= nil
    continued = directive and line:match("\\%s*$") ~= nil
    lines[#lines + 1] = directive and "" or line
  end
  return lines
end

-- The name a definition's head (the code from its first line up to its
-- "{") gives a function, or nil when it defines none (a struct, an
-- initialised array).
local function function_name(head)
  if head:find("=", 1, true) or head:match("^%s*typedef") then return nil end
  return head:match("([%a_][%w_]*)%s*%(")
end

-- {name =, first =, last =} for every function defined in path.
local function functions_of(path)
  local file = assert(io.open(path, "r"))
  local lines = code_of(file:read("*a"))
  file:close()
  local found, depth, head, first, current = {}, 0, "", nil, nil
  for number, line in ipairs(lines) do
    for c in line:gmatch(".") do
      if depth == 0 and c ~= "{" then
        if c:match("%S") and not first then first = number end
        head = head .. c
        if c == ";" then head, first = "", nil end
      elseif c == "{" then
        if depth == 0 then
          local name = function_name(head)
          current = name and {name = name, first = first}
        end
        depth = depth + 1
      elseif c == "}" then
        depth = depth - 1
        if depth == 0 then
          if current then
            current.last = number
            found[#found + 1] = current
          end
          head, first, current = "", nil, nil
        end
      end
    end
    if depth == 0 then head = head .. " " end
  end
  return found
end

-- --- the rules --------------------------------------------------------------

-- The known list at path: {path =, met = {[line] = whether the check met
-- it}}; no file, none known.
local function read_known(path)
  local known = {path = path, met = {}}
  local file = io.open(path, "r")
  if not file then return known end
  for line in file:lines() do
    line = line:gsub("#.*", ""):match("^%s*(.-)%s*$")
    if line ~= "" then known.met[line] = false end
  end
  file:close()
  return known
end

-- A finding, under key (the line that would list it): known (reported,
-- passes) or not (fails). Returns whether it fails.
local function report(known, key, words)
  words = words .. "  [" .. key .. "]"
  if known.met[key] ~= nil then
    known.met[key] = true
    print("layers: known (" .. known.path .. "): " .. words)
    return false
  end
  print("layers: FAIL " .. words)
  return true
end

local function check_cycles(objects, known)
  local edges, files = link_graph(objects)
  local failed = false
  local cycles = cycles_of(edges, files)
  for _, component in ipairs(cycles) do
    failed = report(known, "cycle " .. table.concat(component, " "),
      "link cycle among " .. #component .. " files: " .. circle_words(edges, component)) or failed
  end
  if #cycles == 0 then
    print("layers: no link cycle among the " .. #files .. " C files' objects")
  end
  return not failed
end

local function check_lengths(paths, known)
  local failed, long = false, 0
  for _, path in ipairs(paths) do
    for _, f in ipairs(functions_of(path)) do
      local length = f.last - f.first + 1
      if length > MAX_LINES then
        long = long + 1
        failed = report(known, "long " .. path .. " " .. f.name, string.format(
          "%s:%d: %s is %d lines (at most %d)", path, f.first, f.name, length, MAX_LINES)) or failed
      end
    end
  end
  if long == 0 then
    print("layers: no function over " .. MAX_LINES .. " lines in the " .. #paths .. " solve paths")
  end
  return not failed
end

-- A known line that no longer occurs fails: its fix landed, and the line
-- would hide the rule's next breach.
local function check_known_met(known)
  local ok = true
  for _, line in ipairs(sorted_keys(known.met)) do
    if not known.met[line] then
      print("layers: FAIL " .. known.path .. " lists '" .. line .. "', which no longer occurs: remove it")
      ok = false
    end
  end
  return ok
end

-- The options and the objects of the command line.
local function arguments(args)
  local known, paths, objects = KNOWN_LIST, {}, {}
  for _, a in ipairs(args) do
    if a:match("^%-%-known=") then
      known = a:match("=(.*)")
    elseif a:match("^%-%-solve%-path=") then
      paths[#paths + 1] = a:match("=(.*)")
    else
      objects[#objects + 1] = a
    end
  end
  if #objects == 0 then
    io.stderr:write("usage: lua spec/layers.lua [--known=FILE] [--solve-path=FILE]... OBJECT...\n")
    os.exit(2)
  end
  return known, #paths > 0 and paths or SOLVE_PATHS, objects
end

local function main(args)
  local known_list, paths, objects = arguments(args)
  local known = read_known(known_list)
  local passed, failed = 0, 0
  local function count(ok)
    if ok then passed = passed + 1 else failed = failed + 1 end
  end
  count(check_cycles(objects, known))
  count(check_lengths(paths, known))
  count(check_known_met(known))
  print(string.format("layers: %d passed, %d failed", passed, failed))
  os.exit(failed == 0 and 0 or 1)
end

main({...})
