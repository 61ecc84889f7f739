--- src/gen.lua: writes what lua/ik2d/api.lua describes into the files
-- that must say it in their own language.
--
--   lua src/gen.lua             rewrite the generated files and regions
--   lua src/gen.lua --check     list the stale ones, exit 1 if any
--   loadfile("src/gen.lua")("--outputs")()   { path = text }, for a spec
--
-- A generated region sits between a line holding
-- "generated from lua/ik2d/api.lua by make gen: <name>" and the next
-- line holding "end generated"; everything else in those files is
-- written by hand.  Whole files made here start with that line.
-- Paths are the repository's (found from this file's); spec/api_spec.lua
-- runs the check on every runtime.
-- the repository's root: the folder above this file
local ROOT = (debug.getinfo(1, "S").source:match("^@(.*)[/\\][^/\\]*$") or "src") .. "/.."

local api = dofile(ROOT .. "/lua/ik2d/api.lua")

local concat, format = table.concat, string.format

local MARK = "generated from lua/ik2d/api.lua by make gen"

-- ------------------------------------------------------------------
-- text helpers
-- ------------------------------------------------------------------

-- words into lines of at most width, the first after first, the others
-- after rest
local function wrap(text, width, first, rest)
  local lines, line = {}, first
  local empty = true
  for word in text:gmatch("%S+") do
    if not empty and #line + 1 + #word > width then
      lines[#lines + 1] = line
      line, empty = rest, true
    end
    line = empty and (line .. word) or (line .. " " .. word)
    empty = false
  end
  lines[#lines + 1] = line
  return lines
end

-- a C comment of text, indented, closed on its last line
local function c_comment(text, indent)
  local lines = wrap(text, 78, indent .. "/* ", indent .. "** ")
  if #lines == 1 then return lines[1] .. " */" end
  lines[#lines] = lines[#lines] .. " */"
  return concat(lines, "\n")
end

-- a line of code with its comment after it where both fit in 90
-- columns, else the comment on the lines above
local function commented(code, doc, indent)
  if not doc then return code end
  local line = code .. " /* " .. doc .. " */"
  if #line <= 90 then return line end
  return c_comment(doc, indent) .. "\n" .. code
end

-- words with {CONSTANT} replaced by the constant's value
local function expand(words)
  return (words:gsub("{([%u_]+)}", function(name)
    for _, c in ipairs(api.constants) do
      if c.name == name then return tostring(c.value) end
    end
    error("gen: unknown constant {" .. name .. "} in a status's words")
  end))
end

local function c_string(s)
  return '"' .. s:gsub('[\\"]', "\\%0") .. '"'
end

-- a double as C writes it: the shortest text that reads back the same
local function c_double(v)
  if v == math.huge then return "HUGE_VAL" end
  if v == math.floor(v) and math.abs(v) < 2 ^ 53 then return format("%.1f", v) end
  for digits = 1, 17 do
    local text = format("%." .. digits .. "g", v)
    if tonumber(text) == v then
      if not text:find("[.eE]") then text = text .. ".0" end
      return text
    end
  end
  error("gen: no text for " .. tostring(v))
end

local function find_enum(name)
  for _, e in ipairs(api.enums) do
    if e.name == name then return e end
  end
  error("gen: no enum " .. tostring(name))
end

-- the C text of field f's default
local function c_default(f)
  local v = f.default
  if f.enum then
    for _, value in ipairs(find_enum(f.enum).values) do
      if value[1] == v then return value[2] end
    end
    error("gen: default " .. tostring(v) .. " is not a choice of " .. f.enum)
  end
  if f.type == "bool" then return v and "true" or "false" end
  if f.type == "int" then return format("%d", v) end
  return c_double(v)
end

-- every field of a def (the struct's own, then each group's), with its
-- C path ("ccd.damping")
local function def_fields(def)
  local list = {}
  for _, f in ipairs(def.fields) do
    list[#list + 1] = { field = f, path = f.member or f.name }
  end
  for _, g in ipairs(def.groups or {}) do
    for _, f in ipairs(g.fields) do
      list[#list + 1] = { field = f, path = g.name .. "." .. (f.member or f.name), group = g }
    end
  end
  return list
end

-- ------------------------------------------------------------------
-- src/ik2d.h: the regions
-- ------------------------------------------------------------------

local header = {}

function header.constants()
  local out = { format("#define IK2D_VERSION %s", c_string(api.version)) }
  for _, c in ipairs(api.constants) do
    out[#out + 1] = commented(format("#define IK2D_%s %d", c.name, c.value), c.doc, "")
  end
  return concat(out, "\n")
end

function header.statuses()
  local out = { "typedef enum ik2d_status {" }
  for i, s in ipairs(api.statuses) do
    local name = i == 1 and "IK2D_OK = 0" or "IK2D_ERR_" .. s.name
    local comma = i < #api.statuses and "," or ""
    out[#out + 1] = commented("  " .. name .. comma, s.doc, "  ")
  end
  out[#out + 1] = "} ik2d_status;"
  return concat(out, "\n")
end

local function enum_region(e)
  local out = { c_comment(e.doc, ""), "typedef enum " .. e.c .. " {" }
  for i, value in ipairs(e.values) do
    local code = "  " .. value[2] .. (i == 1 and " = 0" or "") .. (i < #e.values and "," or "")
    out[#out + 1] = commented(code, value.doc, "  ")
  end
  out[#out + 1] = "} " .. e.c .. ";"
  return concat(out, "\n")
end

local function default_text(f)
  local v = f.default
  if v == nil then return "NULL" end
  if v == math.pi then return "pi" end
  if v == -math.pi then return "-pi" end
  if f.enum then return format("%q", v):gsub("^\"(.*)\"$", "%1") end
  if v == math.huge then return "HUGE_VAL" end
  return tostring(v)
end

-- a C type's size class: 8-byte fields first, then ints and enums, then
-- bools, so a struct has no holes but its tail (the order of the
-- description is the order of the options, errors and docs)
local function size_class(f)
  if f.type == "double" or f.type:sub(-1) == "*" then return 1 end
  if f.type == "bool" then return 3 end
  return 2
end

local function struct_fields(out, fields, indent)
  local sorted = {}
  for k, f in ipairs(fields) do sorted[k] = { f = f, k = k } end
  table.sort(sorted, function(a, b)
    local ca, cb = size_class(a.f), size_class(b.f)
    if ca ~= cb then return ca < cb end
    return a.k < b.k
  end)
  for _, entry in ipairs(sorted) do
    local f = entry.f
    out[#out + 1] = c_comment(f.doc .. "; " .. default_text(f), indent)
    local space = f.type:sub(-1) == "*" and "" or " "
    out[#out + 1] = format("%s%s%s%s;", indent, f.type, space, f.member or f.name)
  end
end

local function def_region(def)
  local out = {}
  for _, g in ipairs(def.groups or {}) do
    out[#out + 1] = c_comment(def.doc:match("^[^.]*") .. ": " .. g.doc .. ".", "")
    out[#out + 1] = "typedef struct " .. g.c .. " {"
    struct_fields(out, g.fields, "  ")
    out[#out + 1] = "} " .. g.c .. ";"
    out[#out + 1] = ""
  end
  out[#out + 1] = c_comment(def.doc, "")
  out[#out + 1] = "typedef struct " .. def.c .. " {"
  struct_fields(out, def.fields, "  ")
  for _, g in ipairs(def.groups or {}) do
    out[#out + 1] = format("  %s %s;", g.c, g.name)
  end
  out[#out + 1] = "} " .. def.c .. ";"
  return concat(out, "\n")
end

local function header_regions()
  local regions = {
    constants = header.constants(),
    statuses = header.statuses(),
    ["solver def"] = def_region(api.solver),
    ["spring def"] = def_region(api.spring),
    ["collider def"] = def_region(api.collider),
    ["constraint def"] = def_region(api.constraint),
    ["chain defs"] = def_region(api.bone) .. "\n\n" .. def_region(api.chain),
    ["skeleton defs"] = def_region(api.skeleton_bone) .. "\n\n" .. def_region(api.skeleton),
  }
  for _, e in ipairs(api.enums) do regions["enum " .. e.name] = enum_region(e) end
  return regions
end

-- ------------------------------------------------------------------
-- src/ik2d_api.c: the status words and the default defs
-- ------------------------------------------------------------------

local function default_def_function(def)
  local out = {
    format("%s ik2d_default_%s_def(void) {", def.c, def.prefix),
    format("  %s def;", def.c),
    "  memset(&def, 0, sizeof def);",
  }
  for _, entry in ipairs(def_fields(def)) do
    local f = entry.field
    local zero = f.default == nil or f.default == false or f.default == 0
    if f.enum then zero = false end
    if not zero then
      out[#out + 1] = format("  def.%s = %s;", entry.path, c_default(f))
    end
  end
  out[#out + 1] = "  return def;"
  out[#out + 1] = "}"
  return concat(out, "\n")
end

local function api_c()
  local out = {
    "/* " .. MARK .. ": src/ik2d_api.c */",
    "/*",
    "** ik2d_api.c: the words of every status and the default defs, as",
    "** lua/ik2d/api.lua describes them.  Edit that file, then make gen.",
    "*/",
    "#include <math.h>",
    "#include <string.h>",
    "",
    "#include \"ik2d.h\"",
    "",
    "const char *ik2d_status_message(ik2d_status status) {",
    "  switch (status) {",
  }
  for i, s in ipairs(api.statuses) do
    local name = i == 1 and "IK2D_OK" or "IK2D_ERR_" .. s.name
    local line = format("    case %s: return %s;", name, c_string(expand(s.words)))
    if #line > 90 then
      out[#out + 1] = format("    case %s:", name)
      line = format("      return %s;", c_string(expand(s.words)))
    end
    out[#out + 1] = line
  end
  out[#out + 1] = "  }"
  out[#out + 1] = "  return \"unknown status\";"
  out[#out + 1] = "}"
  out[#out + 1] = ""
  out[#out + 1] = "/* Every def at its defaults: all zero (a field added later is 0, false or"
  out[#out + 1] = "** NULL), then the fields whose default is not. */"
  for _, def in ipairs({ api.constraint, api.bone, api.chain, api.solver, api.spring,
                         api.collider, api.skeleton_bone, api.skeleton }) do
    out[#out + 1] = ""
    out[#out + 1] = default_def_function(def)
  end
  return concat(out, "\n") .. "\n"
end

-- ------------------------------------------------------------------
-- src/lua/luaik_api.c and .h: the binding's option tables
-- ------------------------------------------------------------------

local KINDS = { number = "NUMBER", whole = "WHOLE", boolean = "BOOLEAN", choice = "CHOICE",
                angle = "ANGLE", point = "POINT", vector = "VECTOR", ray = "RAY",
                number_or_array = "NUMBER_OR_ARRAY" }

local function path_of(def, name)
  for _, entry in ipairs(def_fields(def)) do
    if entry.field.name == name then return entry.path end
  end
  error("gen: no field " .. name .. " in " .. def.c)
end

local function options_of(def)
  local list = {}
  for _, entry in ipairs(def_fields(def)) do
    if entry.field.kind then list[#list + 1] = entry end
  end
  return list
end

local function option_indices(def, prefix)
  local names = {}
  for _, entry in ipairs(options_of(def)) do
    names[#names + 1] = "  LUAIK_" .. prefix .. "_" .. (entry.field.option or entry.field.name):upper()
  end
  return "enum {\n" .. concat(names, ",\n") .. "\n};"
end

-- the defs Lua gives as tables, whose field names the binding checks
local TABLE_DEFS = { "constraint", "bone", "chain", "skeleton_bone", "skeleton", "collider" }

local function enum_name_declarations()
  local out = {}
  for _, e in ipairs(api.enums) do
    out[#out + 1] = format("extern const char *const luaik_%s_names[];", e.name)
  end
  out[#out + 1] = "/* the fields a table for each def may have, NULL-ended */"
  for _, t in ipairs(TABLE_DEFS) do
    out[#out + 1] = format("extern const char *const luaik_%s_fields[];", t)
  end
  return concat(out, "\n")
end

-- the most number_or_array options of one def
local function array_count()
  local most = 0
  for _, def in ipairs({ api.solver, api.spring }) do
    local count = 0
    for _, entry in ipairs(options_of(def)) do
      if entry.field.kind == "number_or_array" then count = count + 1 end
    end
    if count > most then most = count end
  end
  return most
end

local function luaik_api_h()
  return concat({
    "/* " .. MARK .. ": src/lua/luaik_api.h */",
    "/*",
    "** luaik_api.h: the options of ik2d.solver and ik2d.spring, one row each,",
    "** as lua/ik2d/api.lua describes them: the Lua name, how a Lua value",
    "** becomes the C field (luaik_option_kind) and where the field is.",
    "*/",
    "#ifndef LUAIK_API_H",
    "#define LUAIK_API_H",
    "",
    "#include <stddef.h>",
    "",
    "typedef enum luaik_option_kind {",
    "  LUAIK_OPTION_NUMBER,  /* a number or a numeric string, into a double */",
    "  LUAIK_OPTION_WHOLE,   /* a whole number, into an int */",
    "  LUAIK_OPTION_BOOLEAN, /* true or false, into a bool */",
    "  LUAIK_OPTION_CHOICE,  /* one of the choices' strings, into an enum */",
    "  LUAIK_OPTION_ANGLE,   /* a number into field, or false: the switch off */",
    "  LUAIK_OPTION_POINT,   /* {x, y} or {x =, y =} into x, y, or false: the switch off */",
    "  LUAIK_OPTION_VECTOR,  /* {x, y} into x, y */",
    "  LUAIK_OPTION_RAY,     /* {x =, y =, angle =} or {x, y, angle} into x, y, angle, or",
    "                           false: the switch off */",
    "  /* a number into field (array NULL), or a table of one number per bone:",
    "  ** array points at them (a luaik_arrays slot) */",
    "  LUAIK_OPTION_NUMBER_OR_ARRAY",
    "} luaik_option_kind;",
    "",
    "typedef struct luaik_option {",
    "  const char *name;",
    "  luaik_option_kind kind;",
    "  size_t field;                      /* the double, int or bool; a point's or ray's switch */",
    "  size_t x, y;                       /* a point's, vector's or ray's doubles */",
    "  size_t angle;                      /* a ray's angle (a double) */",
    "  size_t on;                         /* an angle's switch (a bool) */",
    "  const char *const *choices;        /* a choice's names, NULL-ended */",
    "  int (*get_choice)(const void *def);",
    "  void (*set_choice)(void *def, int choice);",
    "  int required;                      /* a bone field read even when nil */",
    "  size_t array;                      /* a number_or_array's const double * */",
    "} luaik_option;",
    "",
    "/* the most number_or_array options one def has */",
    format("#define LUAIK_ARRAYS %d", array_count()),
    "",
    "/* each choice's Lua names, in the order of its C enum, NULL-ended */",
    enum_name_declarations(),
    "",
    "/* NULL-name-ended */",
    "extern const luaik_option luaik_solver_options[];",
    "extern const luaik_option luaik_spring_options[];",
    "/* the plain fields of a chain's and a skeleton's bone tables */",
    "extern const luaik_option luaik_bone_options[];",
    "extern const luaik_option luaik_skeleton_bone_options[];",
    "",
    "/* each option's row */",
    option_indices(api.solver, "SOLVER"),
    option_indices(api.spring, "SPRING"),
    "",
    "#endif",
  }, "\n") .. "\n"
end

local function luaik_api_c()
  local out = {
    "/* " .. MARK .. ": src/lua/luaik_api.c */",
    "/*",
    "** luaik_api.c: the option tables luaik_api.h declares.",
    "*/",
    "#include <stddef.h>",
    "",
    "#include \"../ik2d.h\"",
    "#include \"luaik_api.h\"",
    "",
  }
  for _, e in ipairs(api.enums) do
    local names = {}
    for _, value in ipairs(e.values) do names[#names + 1] = c_string(value[1]) end
    out[#out + 1] = format("const char *const luaik_%s_names[] = {%s, NULL};", e.name,
                           concat(names, ", "))
  end
  out[#out + 1] = ""
  for _, t in ipairs(TABLE_DEFS) do
    local names = {}
    for _, name in ipairs(api[t].lua) do names[#names + 1] = c_string(name) end
    out[#out + 1] = format("const char *const luaik_%s_fields[] = {%s, NULL};", t,
                           concat(names, ", "))
  end
  out[#out + 1] = ""
  local tables = { { api.solver, "solver" }, { api.spring, "spring" }, { api.bone, "bone" },
                   { api.skeleton_bone, "skeleton_bone" } }
  for _, t in ipairs(tables) do
    local def, prefix = t[1], t[2]
    for _, entry in ipairs(options_of(def)) do
      local f = entry.field
      if f.kind == "choice" then
        out[#out + 1] = format("static int %s_get_%s(const void *def) {", prefix, f.name)
        out[#out + 1] = format("  return (int)((const %s *)def)->%s;", def.c, entry.path)
        out[#out + 1] = "}"
        out[#out + 1] = format("static void %s_set_%s(void *def, int choice) {", prefix, f.name)
        out[#out + 1] = format("  ((%s *)def)->%s = (%s)choice;", def.c, entry.path, f.type)
        out[#out + 1] = "}"
      end
    end
  end
  for _, t in ipairs(tables) do
    local def, prefix = t[1], t[2]
    out[#out + 1] = ""
    out[#out + 1] = format("const luaik_option luaik_%s_options[] = {", prefix)
    for _, entry in ipairs(options_of(def)) do
      local f = entry.field
      local at = function(path) return format("offsetof(%s, %s)", def.c, path) end
      local x, y, angle, on = "0", "0", "0", "0"
      local choices, get, set = "NULL", "NULL", "NULL"
      local pair = f.point or f.vector or f.ray
      if pair then x, y = at(path_of(def, pair[1])), at(path_of(def, pair[2])) end
      if f.ray then angle = at(path_of(def, f.ray[3])) end
      if f.switch then on = at(path_of(def, f.switch)) end
      if f.kind == "choice" then
        choices = "luaik_" .. f.enum .. "_names"
        get, set = prefix .. "_get_" .. f.name, prefix .. "_set_" .. f.name
      end
      out[#out + 1] = format("  {%s, LUAIK_OPTION_%s, %s,", c_string(f.option or f.lua or f.name),
                             KINDS[f.kind], at(entry.path))
      local array = f.array and at(path_of(def, f.array)) or "0"
      out[#out + 1] = format("   %s, %s, %s, %s, %s, %s, %s, %d, %s},", x, y, angle, on, choices, get,
                             set, f.required and 1 or 0, array)
    end
    out[#out + 1] = "  {NULL, LUAIK_OPTION_NUMBER, 0, 0, 0, 0, 0, NULL, NULL, NULL, 0, 0}"
    out[#out + 1] = "};"
  end
  return concat(out, "\n") .. "\n"
end

-- ------------------------------------------------------------------
-- the rockspec's module lists
-- ------------------------------------------------------------------

local function rockspec_modules()
  local out = { '    ["ik2d.core"] = {', "      sources = {" }
  for _, list in ipairs({ api.modules.core, api.modules.binding }) do
    for _, source in ipairs(list) do out[#out + 1] = format('        "%s",', source) end
  end
  out[#out + 1] = "      },"
  out[#out + 1] = '      incdirs = { "src" },'
  out[#out + 1] = "    },"
  for _, name in ipairs(api.modules.lua) do
    local file = name == "ik2d" and "lua/ik2d/init.lua" or "lua/" .. name:gsub("%.", "/") .. ".lua"
    out[#out + 1] = format('    ["%s"] = "%s",', name, file)
  end
  return concat(out, "\n")
end

-- ------------------------------------------------------------------
-- docs/api.md: the option tables
-- ------------------------------------------------------------------

local function readme_default(f, entry)
  if f.readme_default then return f.readme_default end
  local v = f.default
  if f.kind == "choice" then return format('`"%s"`', v) end
  if f.kind == "angle" or f.kind == "point" or f.kind == "ray" then return "none" end
  if f.kind == "vector" then return "`{ 0, 0 }`" end
  if v == math.huge then return "`math.huge`" end
  return tostring(v), entry
end

local function readme_table(def)
  local out = { "| option | default | does |", "|---|---|---|" }
  for _, entry in ipairs(options_of(def)) do
    local f = entry.field
    out[#out + 1] = format("| `%s` | %s | %s |", f.option or f.name, readme_default(f, entry),
                           f.readme or f.doc)
  end
  return concat(out, "\n")
end

-- ------------------------------------------------------------------
-- the FFI path's cdef: the prototypes of the functions it calls, copied
-- from the headers that declare them
-- ------------------------------------------------------------------

local function read(path)
  local f = assert(io.open(ROOT .. "/" .. path, "rb"))
  local text = f:read("*a")
  f:close()
  return text
end

-- every declaration "MARKER <type> name(...);" in the texts, by name
local function prototypes(texts, marker)
  local found = {}
  for _, text in ipairs(texts) do
    for decl in text:gmatch(marker .. "%s+([^;{]-%b());") do
      local name = decl:match("([%w_]+)%s*%b()$")
      found[name] = decl:gsub("%s+", " ")
    end
  end
  return found
end

local function ffi_cdef()
  local core = prototypes({ read("src/ik2d.h") }, "IK2D_API")
  local bindings = {}
  for _, file in ipairs(api.modules.binding) do
    if file ~= "src/lua/luaik_api.c" then bindings[#bindings + 1] = read(file) end
  end
  local binding = prototypes(bindings, "LUAIK_EXPORT")
  local out = { "  ffi.cdef [[" }
  for _, t in ipairs(api.ffi.types) do out[#out + 1] = "    " .. t end
  for _, name in ipairs(api.ffi.functions) do
    local decl = core[name] or binding[name]
    if not decl then error("gen: " .. name .. " is declared in no header") end
    out[#out + 1] = "    " .. decl .. ";"
  end
  out[#out + 1] = "  ]]"
  return concat(out, "\n")
end

-- ------------------------------------------------------------------
-- lua/ik2d/pure/numbers.lua: the thresholds of src/ik2d_numbers.h
-- ------------------------------------------------------------------

local function pure_numbers()
  local out = {
    "-- " .. MARK .. ": lua/ik2d/pure/numbers.lua",
    "--- ik2d.pure.numbers: the thresholds the solves share, as",
    "-- src/ik2d_numbers.h (the reference, with why each is what it is)",
    "-- defines them; make gen writes this file from that one.",
    "return {",
  }
  local count = 0
  for name, value in read("src/ik2d_numbers.h"):gmatch("\n#define IK2D_([%u%d_]+) ([^\n]+)") do
    local number = tonumber(value)
    if not number then error("gen: IK2D_" .. name .. " is not a number: " .. value) end
    out[#out + 1] = format("  %s = %s,", name, value)
    count = count + 1
  end
  if count == 0 then error("gen: no IK2D_ numbers in src/ik2d_numbers.h") end
  out[#out + 1] = "}"
  return concat(out, "\n") .. "\n"
end

-- ------------------------------------------------------------------
-- the files
-- ------------------------------------------------------------------

-- text with each region named in regions replaced; errors for a region
-- the text lacks
local function fill(path, text, regions)
  local seen = {}
  local out, skipping = {}, false
  for line in (text .. (text:sub(-1) == "\n" and "" or "\n")):gmatch("(.-)\n") do
    if skipping then
      if line:find("end generated", 1, true) then
        out[#out + 1] = line
        skipping = false
      end
    else
      out[#out + 1] = line
      local name = line:match(MARK:gsub("%p", "%%%0") .. ": ([%w_ ]-)%s*%p*%s*$")
      if name and regions[name] then
        out[#out + 1] = regions[name]
        seen[name], skipping = true, true
      end
    end
  end
  for name in pairs(regions) do
    if not seen[name] then error(format("gen: %s has no region '%s'", path, name)) end
  end
  return concat(out, "\n") .. "\n"
end

--- { path = text } for every file gen writes, from the files as they are
local function outputs()
  local files = {}
  files["src/ik2d.h"] = fill("src/ik2d.h", read("src/ik2d.h"), header_regions())
  files["src/ik2d_api.c"] = api_c()
  files["src/lua/luaik_api.h"] = luaik_api_h()
  files["src/lua/luaik_api.c"] = luaik_api_c()
  files["lua/ik2d/pure/numbers.lua"] = pure_numbers()
  files["ik2d-scm-1.rockspec"] = fill("ik2d-scm-1.rockspec", read("ik2d-scm-1.rockspec"),
                                      { modules = rockspec_modules() })
  files["docs/api.md"] = fill("docs/api.md", read("docs/api.md"), {
    ["solver options"] = readme_table(api.solver),
    ["spring options"] = readme_table(api.spring),
    version = format('This is ik2d %s: `ik2d._VERSION` and every helper\'s `_VERSION` are `"%s"`.',
                     api.version, api.version),
  })
  files["lua/ik2d/ffi.lua"] = fill("lua/ik2d/ffi.lua", read("lua/ik2d/ffi.lua"),
                                   { cdef = ffi_cdef() })
  return files
end

local function main(check)
  local stale = {}
  local files = outputs()
  local paths = {}
  for path in pairs(files) do paths[#paths + 1] = path end
  table.sort(paths)
  for _, path in ipairs(paths) do
    local f = io.open(ROOT .. "/" .. path, "rb")
    local old = f and f:read("*a")
    if f then f:close() end
    if old ~= files[path] then
      stale[#stale + 1] = path
      if not check then
        local out = assert(io.open(ROOT .. "/" .. path, "wb"))
        out:write(files[path])
        out:close()
        print("gen: wrote " .. path)
      end
    end
  end
  if check and #stale > 0 then
    io.stderr:write("gen: stale (run make gen): " .. concat(stale, ", ") .. "\n")
    os.exit(1)
  end
end

if ... == "--check" then main(true)
elseif ... == "--outputs" then return outputs
else main(false) end
