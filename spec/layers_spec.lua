-- The layers check (spec/layers.lua, make layers) on small C files made
-- here: it finds a link cycle, one closed by a function's address in a
-- table too, and a long function, and keeps to its known list.

local helpers = require "spec.helpers"

local q = helpers.shell_quote
local root = helpers.repo_root()

local function write(path, text)
  local file = assert(io.open(path, "w"))
  file:write(text)
  file:close()
end

-- A C function of the given number of lines, braces and a "}" in its
-- comments and strings, which do not end it.
local function function_of(name, lines)
  local body = { "int " .. name .. "(int x) {", "  /* } */", '  const char *s = "}\\"}";' }
  while #body < lines - 2 do body[#body + 1] = "  x += s[0]; /* { */" end
  body[#body + 1] = "  return x; // }"
  body[#body + 1] = "}"
  return table.concat(body, "\n") .. "\n"
end

describe("the layers check", function()
  if helpers.pure_pass then
    pending("IK2D_PURE=1: a check of the C files; the pass with the C core runs it")
    return
  end
  local dir

  before_each(function()
    dir = helpers.tmpdir()
    write(dir .. "/known.txt", "")
  end)
  after_each(function() helpers.rmtree(dir) end)

  -- Compiles each name's source (dir/name.c) and runs the check over
  -- their objects with options; returns whether it passed and its output.
  local function check(sources, options)
    local objects = {}
    for name, text in pairs(sources) do
      write(dir .. "/" .. name .. ".c", text)
      local ok, out = helpers.run(("%s -std=c99 -c -o %s %s"):format(os.getenv("CC") or "cc",
                                                                   q(dir .. "/" .. name .. ".o"),
                                                                   q(dir .. "/" .. name .. ".c")))
      assert(ok, out)
      objects[#objects + 1] = q(dir .. "/" .. name .. ".o")
    end
    table.sort(objects)
    return helpers.run(("cd %s && %s spec/layers.lua --known=%s %s %s"):format(
      q(root), helpers.interpreter, q(dir .. "/known.txt"), options or "--solve-path=/dev/null",
      table.concat(objects, " ")))
  end

  local calls_b = "int b_f(void);\nint a_f(void) { return b_f(); }\n"
  local b_alone = "int b_f(void) { return 1; }\n"

  it("passes files that refer one way", function()
    local ok, out = check { a = calls_b, b = b_alone }
    assert(ok, out)
    assert.truthy(out:find("no link cycle among the 2 C files' objects", 1, true), out)
    assert.truthy(out:find("layers: 3 passed, 0 failed", 1, true), out)
  end)

  it("fails on two files that call each other, naming each step's symbol", function()
    local ok, out = check { a = calls_b, b = "int a_f(void);\nint b_f(void) { return a_f(); }\n" }
    assert.is_false(ok, out)
    assert.truthy(out:find("FAIL link cycle among 2 files: a -> b (b_f) -> a (a_f)  [cycle a b]", 1, true), out)
    assert.truthy(out:find("layers: 2 passed, 1 failed", 1, true), out)
  end)

  it("fails on a cycle closed by a function's address in a table", function()
    local ok, out = check {
      a = "int b_f(void);\nint (*const a_table[])(void) = { b_f };\n",
      b = "extern int (*const a_table[])(void);\nint b_f(void) { return 1; }\n"
        .. "int b_g(void) { return a_table[0](); }\n",
      c = "int b_g(void);\nint c_f(void) { return b_g(); }\n",
    }
    assert.is_false(ok, out)
    assert.truthy(out:find("link cycle among 2 files: a -> b (b_f) -> a (a_table)", 1, true), out)
    assert.is_nil(out:find("among 3", 1, true), out)
  end)

  it("fails on a function over 80 lines, not on one of 80", function()
    write(dir .. "/long.c", function_of("fits", 80) .. "\n/* { */\n" .. function_of("too_long", 81))
    local path = dir .. "/long.c"
    local ok, out = check({ a = b_alone }, "--solve-path=" .. q(path))
    assert.is_false(ok, out)
    assert.truthy(out:find(("FAIL %s:83: too_long is 81 lines (at most 80)  [long %s too_long]")
                             :format(path, path), 1, true), out)
    assert.is_nil(out:find("fits", 1, true), out)
  end)

  it("reports what its known list names as known, and fails on a line that no longer occurs", function()
    write(dir .. "/known.txt", "# a comment\ncycle a b\ncycle a c\n")
    local ok, out = check { a = calls_b, b = "int a_f(void);\nint b_f(void) { return a_f(); }\n" }
    assert.is_false(ok, out)
    assert.truthy(out:find("known (" .. dir .. "/known.txt): link cycle among 2 files", 1, true), out)
    assert.truthy(out:find("FAIL " .. dir .. "/known.txt lists 'cycle a c', which no longer occurs", 1, true),
                  out)
    assert.truthy(out:find("layers: 2 passed, 1 failed", 1, true), out)
  end)
end)
