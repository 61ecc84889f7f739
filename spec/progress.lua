-- A busted output handler for spec/run.sh (`busted -o spec/progress.lua`):
-- one line per spec file as it ends, so a long run shows where it is,
--   [luajit c] 12/48 spec/chain_spec.lua: 35 ok, 0 failed, 0 pending (0.4 s)
-- each failure in full as it happens, and busted's own summary line at
-- the end (`N successes / N failures / N errors / N pending`), which the
-- runners count.  The label is IK2D_PROGRESS_LABEL (else the interpreter
-- and the core), the position IK2D_PROGRESS_POSITION where run.sh runs a
-- busted per file; with IK2D_PROGRESS_STATUS set, the test running now is
-- kept in that file, for the runner's heartbeat while a test takes long;
-- with IK2D_PROGRESS_SLOW=s, every test that took s seconds or more is named.
local pretty = require "pl.pretty"

local format = string.format

return function(options)
  local busted = require "busted"
  local handler = require("busted.outputHandlers.base")()

  local label = os.getenv("IK2D_PROGRESS_LABEL")
  if not label or label == "" then
    label = (rawget(_G, "jit") and "luajit" or _VERSION:gsub("Lua ", "lua"))
            .. (os.getenv("IK2D_PURE") == "1" and " lua" or " c")
  end
  local status_file = os.getenv("IK2D_PROGRESS_STATUS")
  local slow = tonumber(os.getenv("IK2D_PROGRESS_SLOW"))
  -- where this file is in a run of one busted per file (spec/run.sh)
  local position = os.getenv("IK2D_PROGRESS_POSITION")
  if position == "" then position = nil end

  local function say(line)
    io.write(line, "\n")
    io.flush()
  end

  local files, done = 0, 0
  local file_start, counts_at_start, test_start

  local function counts()
    return { ok = handler.successesCount, failed = handler.failuresCount + handler.errorsCount,
             pending = handler.pendingsCount }
  end

  local function message_of(t)
    local message = t.message
    if message == nil then return "Nil error" end
    if type(message) ~= "string" then return pretty.write(message) end
    return message
  end

  local function show_failure(t, kind)
    local trace = t.trace or {}
    local where = t.element and t.element.trace
    where = where and where.short_src and (where.short_src .. ":" .. tostring(where.currentline)) or "?"
    say(format("[%s] %s: %s (%s)", label, kind, t.name or "?", where))
    say("  " .. message_of(t):gsub("\n", "\n  "))
    if options.verbose and trace.traceback then say(trace.traceback) end
  end

  function handler.suite_start(suite)
    files = 0
    for _, child in ipairs(busted.children(suite)) do
      if child.descriptor == "file" then files = files + 1 end
    end
    return nil, true
  end

  function handler.file_start(element)
    file_start, counts_at_start = busted.monotime(), counts()
    if status_file then
      local f = io.open(status_file, "w")
      if f then f:write(element.name, "\n") f:close() end
    end
    return nil, true
  end

  function handler.file_end(element)
    done = done + 1
    local now, before = counts(), counts_at_start or counts()
    say(format("[%s] %s %s: %d ok, %d failed, %d pending (%.1f s)", label,
               position or format("%d/%d", done, files), element.name, now.ok - before.ok, now.failed - before.failed,
               now.pending - before.pending, busted.monotime() - (file_start or busted.monotime())))
    return nil, true
  end

  function handler.test_start(element)
    test_start = busted.monotime()
    if status_file then
      local f = io.open(status_file, "w")
      if f then f:write(handler.getFullName(element), "\n") f:close() end
    end
    return nil, true
  end

  function handler.test_end(element, _, status)
    local took = busted.monotime() - (test_start or busted.monotime())
    if slow and took >= slow then
      say(format("[%s] slow: %.1f s %s", label, took, handler.getFullName(element)))
    end
    if status == "failure" then
      show_failure(handler.failures[#handler.failures], "FAILED")
    elseif status == "error" then
      show_failure(handler.errors[#handler.errors], "ERROR")
    end
    return nil, true
  end

  -- an error outside a test (a file that does not load, a failing setup)
  function handler.error(element)
    if element.descriptor ~= "it" then show_failure(handler.errors[#handler.errors], "ERROR") end
    return nil, true
  end

  function handler.suite_end()
    say(format("%d successes / %d failures / %d errors / %d pending : %.1f seconds [%s]",
               handler.successesCount, handler.failuresCount, handler.errorsCount,
               handler.pendingsCount, handler.getDuration(), label))
    return nil, true
  end

  busted.subscribe({ "suite", "start" }, handler.suite_start)
  busted.subscribe({ "suite", "end" }, handler.suite_end)
  busted.subscribe({ "file", "start" }, handler.file_start)
  busted.subscribe({ "file", "end" }, handler.file_end)
  busted.subscribe({ "test", "start" }, handler.test_start, { predicate = handler.cancelOnPending })
  busted.subscribe({ "test", "end" }, handler.test_end, { predicate = handler.cancelOnPending })
  busted.subscribe({ "error" }, handler.error)
  busted.subscribe({ "failure" }, handler.error)

  return handler
end
