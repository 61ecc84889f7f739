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
-- written by hand.  Whole files made here start with that line (but
-- lua/ik2d/pure/numbers.lua, made from src/ik2d_numbers.h, says so).
-- The order of a def's checks and its setters come from
-- lua/ik2d/pure/defs.lua, which the pure core reads the same way.
-- Paths are the repository's (found from this file's); spec/api_spec.lua
-- runs the check on every runtime.
-- the repository's root: the folder above this file
local ROOT = (debug.getinfo(1, "S").source:match("^@(.*)[/\\][^/\\]*$") or "src") .. "/.."

local api = dofile(ROOT .. "/lua/ik2d/api.lua")
-- the description's order of checks and its setters, as the pure core
-- reads them
package.path = ROOT .. "/lua/?.lua;" .. package.path
local defs = require "ik2d.pure.defs"

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

-- the C path of the field named name in def: "tip.angle"
local function path_of(def, name)
  for _, entry in ipairs(def_fields(def)) do
    if entry.field.name == name then return entry.path end
  end
  error("gen: no field " .. name .. " in " .. def.c)
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

-- a field's default as its comment ends, nil for a pointer (NULL, which
-- its doc explains)
local function default_text(f)
  local v = f.default
  if v == nil then return nil end
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
    local default = default_text(f)
    out[#out + 1] = c_comment(default and f.doc .. "; " .. default or f.doc, indent)
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

-- ------------------------------------------------------------------
-- the checks: src/ik2d_checks.h (each field's), each def's check and
-- setters (regions of the def's file) and the setters' prototypes
-- ------------------------------------------------------------------

-- the defs in the order of their files' layers, with the file holding
-- each one's check (and its setters)
local CHECKED = {
  { def = api.constraint, file = "src/ik2d_constraint.c" },
  { def = api.bone, file = "src/ik2d_chain.c" },
  { def = api.chain, file = "src/ik2d_chain.c" },
  { def = api.solver, file = "src/ik2d_solver.c" },
  { def = api.spring, file = "src/ik2d_spring.c" },
  { def = api.collider, file = "src/ik2d_spring.c" },
  { def = api.skeleton_bone, file = "src/ik2d_skeleton.c" },
  { def = api.bone_local, file = "src/ik2d_skeleton.c" },
  { def = api.skeleton, file = "src/ik2d_skeleton.c" },
  { def = api.transform_constraint, file = "src/ik2d_transform_constraint.c" },
}

local function constant_value(name)
  for _, c in ipairs(api.constants) do
    if c.name == name then return c.value end
  end
  error("gen: no constant " .. tostring(name))
end

-- a bound of a check as C writes it for field f
local function c_bound(v, f)
  if type(v) == "string" then
    constant_value(v)
    return "IK2D_" .. v
  end
  if f.type == "int" then return format("%d", v) end
  for _, multiple in ipairs({ { 1, "IK2D_PI" }, { 2, "IK2D_TWO_PI" } }) do
    if v == multiple[1] * math.pi then return multiple[2] end
    if v == -multiple[1] * math.pi then return "-" .. multiple[2] end
  end
  return c_double(v)
end

-- the C names of an enum's choices
local function c_choices(f)
  local names = {}
  for k, value in ipairs(find_enum(f.enum).values) do names[k] = value[2] end
  return names
end

-- the conditions a value v of field f passes check with, and-ed
local function c_conditions(check, f, v)
  local parts = {}
  local function alternatives(list)
    local alts = {}
    for k, x in ipairs(list) do alts[k] = v .. " == " .. x end
    parts[#parts + 1] = concat(alts, " || ")
  end
  if check.whole and f.type ~= "int" then parts[#parts + 1] = "floor(" .. v .. ") == " .. v end
  if check.finite then parts[#parts + 1] = "isfinite(" .. v .. ")" end
  if check.not_nan then parts[#parts + 1] = "!isnan(" .. v .. ")" end
  if check.nonzero then parts[#parts + 1] = v .. " != 0.0" end
  if check.min ~= nil then parts[#parts + 1] = v .. " >= " .. c_bound(check.min, f) end
  if check.above ~= nil then parts[#parts + 1] = v .. " > " .. c_bound(check.above, f) end
  if check.max ~= nil then parts[#parts + 1] = v .. " <= " .. c_bound(check.max, f) end
  if check.below ~= nil then parts[#parts + 1] = v .. " < " .. c_bound(check.below, f) end
  if check.one_of then
    local values = {}
    for k, x in ipairs(check.one_of) do values[k] = c_bound(x, f) end
    alternatives(values)
  end
  if check.choice then alternatives(c_choices(f)) end
  if #parts == 0 then error("gen: " .. f.name .. "'s check asks nothing") end
  if #parts > 1 then
    for k, part in ipairs(parts) do
      if part:find(" || ", 1, true) then parts[k] = "(" .. part .. ")" end
    end
  end
  return concat(parts, " && ")
end

-- what a check asks, in words, for a comment
local function check_words(check, f)
  local words = {}
  local function bound(v)
    if type(v) == "string" then return "IK2D_" .. v end
    if v == 2 * math.pi then return "2 pi" end
    if v == -2 * math.pi then return "-2 pi" end
    return default_text({ default = v })
  end
  if check.finite then words[#words + 1] = "finite" end
  if check.not_nan then words[#words + 1] = "not NaN (any other number is kept, clamped)" end
  if check.nonzero then words[#words + 1] = "not 0" end
  if check.min ~= nil and check.max ~= nil then
    words[#words + 1] = format("within [%s, %s]", bound(check.min), bound(check.max))
  elseif check.min ~= nil then
    words[#words + 1] = ">= " .. bound(check.min)
  elseif check.max ~= nil then
    words[#words + 1] = "<= " .. bound(check.max)
  end
  if check.above ~= nil then words[#words + 1] = "> " .. bound(check.above) end
  if check.below ~= nil then words[#words + 1] = "< " .. bound(check.below) end
  if check.one_of then
    local values = {}
    for k, x in ipairs(check.one_of) do values[k] = bound(x) end
    words[#words + 1] = concat(values, " or ")
  end
  if check.choice then words[#words + 1] = "one of " .. f.type .. "'s choices" end
  local text = concat(words, ", ")
  for name, value in pairs(check.when or {}) do
    local state = value == true and "on" or value == false and "off" or value
    text = format("%s (checked while %s is %s)", text, name, state)
  end
  return text
end

-- a statement over lines of at most 90 columns: pieces is the text cut
-- where a line may break (after an operator), first and rest the lines'
-- starts
local function broken(pieces, first, rest)
  local lines, line = {}, first
  for k, piece in ipairs(pieces) do
    if k > 1 and #line + 1 + #piece > 90 then
      lines[#lines + 1] = line
      line = rest .. piece
    else
      line = k == 1 and line .. piece or line .. " " .. piece
    end
  end
  lines[#lines + 1] = line
  return concat(lines, "\n")
end

-- text cut after each && and ||
local function operator_pieces(text)
  local pieces = {}
  for piece in (text .. " "):gmatch("(.-[&|][&|]) ") do pieces[#pieces + 1] = piece end
  local tail = text:match("^.*[&|][&|] (.-)$") or text
  pieces[#pieces + 1] = tail
  return pieces
end

-- the C name of the check of a step (a field's or a checking rule's)
local function check_name(def, step)
  return format("ik2d__%s_check_%s", def.prefix, step.name)
end

-- the C path of a step's field in def: "tip.angle"
local function step_path(def, step) return path_of(def, step.field.name) end

local function check_function(def, step)
  local f = step.field
  local param = step_path(def, step):match("([%w_]+)$")
  local head = format("static inline ik2d_status %s(%s %s) {", check_name(def, step), f.type, param)
  if #head > 90 then
    param = "value"
    head = format("static inline ik2d_status %s(%s %s) {", check_name(def, step), f.type, param)
  end
  local condition = c_conditions(step.check, f, param)
  local doc = format("%s's %s: %s", def.c, step_path(def, step), check_words(step.check, f))
  if step.rule then doc = doc .. " (" .. step.rule.doc .. ")" end
  local out = { c_comment(doc, ""), head }
  local line = format("  return %s ? IK2D_OK : IK2D_ERR_%s;", condition, step.status)
  if #line <= 90 then
    out[#out + 1] = line
  else
    out[#out + 1] = broken(operator_pieces(condition), "  if (", "      ") .. ")"
    out[#out + 1] = "    return IK2D_OK;"
    out[#out + 1] = format("  return IK2D_ERR_%s;", step.status)
  end
  out[#out + 1] = "}"
  return concat(out, "\n")
end

local function checks_h()
  local out = {
    "/* " .. MARK .. ": src/ik2d_checks.h */",
    "/*",
    "** ik2d_checks.h: each field's check, as lua/ik2d/api.lua describes it:",
    "** IK2D_OK for a value the field takes, else the status that refuses it.",
    "** The checks of whole defs and the setters (each in its object's file,",
    "** generated too) call them, and so do the group setters.",
    "*/",
    "#ifndef IK2D_CHECKS_H",
    "#define IK2D_CHECKS_H",
    "",
    "#include <math.h>",
    "",
    "#include \"ik2d.h\"",
    "#include \"ik2d_math.h\"",
  }
  for _, checked in ipairs(CHECKED) do
    for _, step in ipairs(defs.checks(checked.def)) do
      if step.check then
        out[#out + 1] = ""
        out[#out + 1] = check_function(checked.def, step)
      end
    end
  end
  out[#out + 1] = ""
  out[#out + 1] = "#endif"
  return concat(out, "\n") .. "\n"
end

-- the C condition of a when ({ tip = true }) on def (an expression such
-- as "def->" or "def.")
local function c_when(def, when, at)
  local parts = {}
  for name, value in pairs(when) do
    local path = at .. path_of(def, name)
    local f
    for _, entry in ipairs(def_fields(def)) do
      if entry.field.name == name then f = entry.field end
    end
    if value == true then
      parts[#parts + 1] = path
    elseif value == false then
      parts[#parts + 1] = "!" .. path
    else
      local c_value
      for _, choice in ipairs(find_enum(f.enum).values) do
        if choice[1] == value then c_value = choice[2] end
      end
      parts[#parts + 1] = path .. " == " .. assert(c_value, "gen: no choice " .. value)
    end
  end
  table.sort(parts)
  return concat(parts, " && ")
end

local function context_name(def) return def.checked_with and def.checked_with.name end

-- whether rule takes the def's checked_with
local function takes_context(def, rule)
  for _, name in ipairs(rule.reads or {}) do
    if name == context_name(def) then return true end
  end
  return false
end

-- the condition under which a step checks (nil: always); switch: the
-- switch a setter turns on, whose when holds
local function step_when(def, step, at, switch)
  if not step.when or (switch and step.when[switch] == true) then return nil end
  return c_when(def, step.when, at)
end

-- the statement "if (condition) return result;" at indent, broken after
-- an operator where it passes 90 columns
local function refusal(indent, condition, result)
  local line = format("%sif (%s) return %s;", indent, condition, result)
  if #line <= 90 then return line end
  return broken(operator_pieces(condition), indent .. "if (", indent .. "    ") .. ")\n" .. indent
    .. "  return " .. result .. ";"
end

-- the lines of one check of def at indent (at: "def->" in a def's check,
-- "def." in a setter; context: what the rules get; guard: a condition
-- it is made under, or nil)
local function check_lines(def, step, indent, at, context, guard)
  local function refused(condition, result)
    return refusal(indent, guard and guard .. " && " .. condition or condition, result)
  end
  if step.rule and not step.check then
    local rule = step.rule
    local args = (at == "def." and "&def" or "def") .. (takes_context(def, rule) and ", " .. context or "")
    if rule.nested then
      return refused(format("(status = %s(%s)) != IK2D_OK", rule.name, args), "status")
    end
    return refused(format("!%s(%s)", rule.name, args), "IK2D_ERR_" .. rule.status)
  end
  local f = step.field
  if f.array then
    if guard then error("gen: " .. f.name .. ": a per-bone setting's check has no when") end
    -- a per-bone setting: the number, or each entry of its array
    local name = path_of(def, f.name)
    local value = format("%s%s != NULL ? %s%s[i] : %s%s;", at, f.array, at, f.array, at, name)
    local out = { format("%sfor (i = 0; i < %s; i++) {", indent, context) }
    local line = format("%s  double %s = %s", indent, name, value)
    if #line > 90 then line = format("%s  double %s =\n%s      %s", indent, name, indent, value) end
    out[#out + 1] = line
    out[#out + 1] = refusal(indent .. "  ", format("(status = %s(%s)) != IK2D_OK", check_name(def, step), name),
                            "status")
    out[#out + 1] = indent .. "}"
    return concat(out, "\n")
  end
  return refused(format("(status = %s(%s%s)) != IK2D_OK", check_name(def, step), at,
                        step_path(def, step)), "status")
end

-- the lines of a list of checks, those under the same condition in one
-- block
local function checks_lines(def, steps, at, context, switch)
  local out, k = {}, 1
  while k <= #steps do
    local when = step_when(def, steps[k], at, switch)
    if not when then
      out[#out + 1] = check_lines(def, steps[k], "  ", at, context)
      k = k + 1
    else
      local block = {}
      while k <= #steps and step_when(def, steps[k], at, switch) == when do
        block[#block + 1] = check_lines(def, steps[k], "    ", at, context)
        k = k + 1
      end
      if #block == 1 then
        -- one check: the condition joins its own
        out[#out + 1] = check_lines(def, steps[k - 1], "  ", at, context, when)
      else
        out[#out + 1] = format("  if (%s) {", when)
        for _, line in ipairs(block) do out[#out + 1] = line end
        out[#out + 1] = "  }"
      end
    end
  end
  return concat(out, "\n")
end

-- whether a list of steps needs a status variable and a bone index
local function needs(steps)
  local status, index = false, false
  for _, step in ipairs(steps) do
    if step.check or (step.rule and step.rule.nested) then status = true end
    if step.field and step.field.array then index = true end
  end
  return status, index
end

local function def_check_name(def) return def.check_function or def.prefix .. "_def_check" end

-- the C declaration of a def's checked_with
local function context_decl(def)
  local with = def.checked_with
  local type = with.type
  return type .. (type:sub(-1) == "*" and "" or " ") .. with.name
end

local function def_check_region(def)
  local steps = defs.checks(def)
  local params = format("const %s *def", def.c)
  if def.checked_with then params = params .. ", " .. context_decl(def) end
  local doc = format("%s's check as lua/ik2d/api.lua describes it: each field's, each rule, in its "
    .. "order; the first refused is the status.", def.c)
  if def.checked_with then doc = doc .. "  " .. def.checked_with.name .. ": " .. def.checked_with.doc .. "." end
  local out = { c_comment(doc, "") }
  local head = format("%sik2d_status %s(%s) {", def.check_function and "" or "static ",
                      def_check_name(def), params)
  if #head > 90 then
    local at = head:find("(", 1, true)
    head = head:gsub(", ", ",\n" .. string.rep(" ", at), 1)
  end
  out[#out + 1] = head
  local status, index = needs(steps)
  if status then out[#out + 1] = "  ik2d_status status;" end
  if index then out[#out + 1] = "  int i;" end
  out[#out + 1] = "  if (def == NULL) return IK2D_ERR_NULL;"
  out[#out + 1] = checks_lines(def, steps, "def->", context_name(def))
  out[#out + 1] = "  return IK2D_OK;"
  out[#out + 1] = "}"
  return concat(out, "\n")
end

-- a setter's C parameters: each field's member name
local function setter_params(setter)
  local params = {}
  for k, f in ipairs(setter.fields) do
    params[k] = format("%s %s", f.type, (f.member or f.name))
  end
  return params
end

-- a prototype or a definition's first line, broken at its commas past 90
-- columns
local function signature(start, params, finish)
  local at = #start
  local text = start .. concat(params, ", ") .. finish
  if #text <= 90 then return text end
  local pieces = {}
  for k, p in ipairs(params) do pieces[k] = p .. (k < #params and "," or finish) end
  pieces[1] = start .. pieces[1]
  return broken(pieces, "", string.rep(" ", at))
end

local function setter_function(def, setter)
  local object = "ik2d_" .. def.prefix
  local params = setter_params(setter)
  table.insert(params, 1, object .. " *" .. def.prefix)
  local out = { signature(format("ik2d_status ik2d_%s_set_%s(", def.prefix, setter.name), params, ") {") }
  local status = needs(setter.checks)
  out[#out + 1] = format("  %s def;", def.c)
  if status then out[#out + 1] = "  ik2d_status status;" end
  out[#out + 1] = format("  if (%s == NULL) return IK2D_ERR_NULL;", def.prefix)
  out[#out + 1] = format("  def = %s->settings;", def.prefix)
  if setter.switch then out[#out + 1] = format("  def.%s = true;", path_of(def, setter.switch.name)) end
  for _, f in ipairs(setter.fields) do
    out[#out + 1] = format("  def.%s = %s;", path_of(def, f.name), f.member or f.name)
  end
  local context = def.checked_with and def.checked_with.setter
  if #setter.checks > 0 then
    out[#out + 1] = checks_lines(def, setter.checks, "def.", context, setter.switch and setter.switch.name)
  end
  out[#out + 1] = format("  %s_keep_def(%s, &def);", def.prefix, def.prefix)
  out[#out + 1] = "  return IK2D_OK;"
  out[#out + 1] = "}"
  if setter.switch then
    out[#out + 1] = ""
    out[#out + 1] = format("void ik2d_%s_clear_%s(%s *%s) {", def.prefix, setter.name, object, def.prefix)
    out[#out + 1] = format("  if (%s != NULL) %s->settings.%s = false;", def.prefix, def.prefix,
                           path_of(def, setter.switch.name))
    out[#out + 1] = "}"
  end
  return concat(out, "\n")
end

local function setters_region(def)
  local out = {
    c_comment("A setter checks a copy of the settings with the new values: the checks of those "
      .. "fields and the rules that read them, in " .. def_check_name(def) .. "'s order; then keeps "
      .. "it as a whole def is kept.  A switch turned off needs no check.", ""),
  }
  for _, setter in ipairs(defs.setters(def)) do
    out[#out + 1] = ""
    out[#out + 1] = setter_function(def, setter)
  end
  return concat(out, "\n")
end

local function setter_prototypes(def)
  local object = "ik2d_" .. def.prefix
  local switched = {}
  for _, setter in ipairs(defs.setters(def)) do
    if setter.switch then switched[#switched + 1] = setter.name:gsub("_", " ") end
  end
  local switches = #switched == 0 and ""
    or format("; a setter of a part with a switch (%s) turns it on, its clear function off",
              concat(switched, ", "))
  local out = {
    c_comment(format("One setting each, or the fields set as one (an x and a y)%s.  Each is "
      .. "checked as ik2d_%s_set_def checks it, with the rules that read it, then kept.", switches,
      def.prefix), ""),
  }
  for _, setter in ipairs(defs.setters(def)) do
    local params = setter_params(setter)
    table.insert(params, 1, object .. " *" .. def.prefix)
    if setter.doc then out[#out + 1] = c_comment(setter.doc, "") end
    out[#out + 1] = signature(format("IK2D_API ik2d_status ik2d_%s_set_%s(", def.prefix, setter.name),
                              params, ");")
    if setter.switch then
      out[#out + 1] = format("IK2D_API void ik2d_%s_clear_%s(%s *%s);", def.prefix, setter.name, object,
                             def.prefix)
    end
  end
  return concat(out, "\n")
end

-- the regions of each file holding checks
local function check_regions()
  local files = {}
  for _, checked in ipairs(CHECKED) do
    local def = checked.def
    local regions = files[checked.file] or {}
    files[checked.file] = regions
    regions[def.prefix:gsub("_", " ") .. " check"] = def_check_region(def)
    if def.setters then regions[def.prefix .. " setters"] = setters_region(def) end
  end
  return files
end

local function header_regions()
  local regions = {
    ["solver setters"] = setter_prototypes(api.solver),
    ["spring setters"] = setter_prototypes(api.spring),
    ["transform_constraint setters"] = setter_prototypes(api.transform_constraint),
    ["transform_constraint def"] = def_region(api.transform_constraint),
    constants = header.constants(),
    statuses = header.statuses(),
    ["solver def"] = def_region(api.solver),
    ["spring def"] = def_region(api.spring),
    ["collider def"] = def_region(api.collider),
    ["constraint def"] = def_region(api.constraint),
    ["chain defs"] = def_region(api.bone) .. "\n\n" .. def_region(api.chain),
    ["skeleton defs"] = def_region(api.skeleton_bone) .. "\n\n" .. def_region(api.bone_local)
      .. "\n\n" .. def_region(api.skeleton),
  }
  for _, e in ipairs(api.enums) do regions["enum " .. e.name] = enum_region(e) end
  return regions
end

-- ------------------------------------------------------------------
-- src/ik2d_api.c: the status words and the default defs
-- ------------------------------------------------------------------

local function default_def_function(def)
  local out = {
    format("%s ik2d_default_%s(void) {", def.c, (def.c:gsub("^ik2d_", ""))),
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
    "/* the core's floating-point rules, as in every source of the core */",
    "#include \"ik2d_fp.h\"",
    "",
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
                         api.collider, api.skeleton_bone, api.bone_local, api.skeleton,
                         api.transform_constraint }) do
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
local TABLE_DEFS = { "constraint", "bone", "chain", "skeleton_bone", "skeleton", "collider",
                     "transform_constraint" }

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

-- the setters of several arguments, whose statuses blame one of them
local function blamed_setters()
  local list = {}
  for _, def in ipairs({ api.solver, api.spring }) do
    for _, setter in ipairs(defs.setters(def)) do
      if #setter.fields > 1 then list[#list + 1] = { def = def, setter = setter } end
    end
  end
  return list
end

local function blame_name(entry)
  return format("luaik_%s_%s_arg", entry.def.prefix, entry.setter.name)
end

local function blame_declarations()
  local out = {}
  for _, entry in ipairs(blamed_setters()) do
    out[#out + 1] = format("int %s(ik2d_status status);", blame_name(entry))
  end
  return concat(out, "\n")
end

-- the functions naming the argument a setter's status blames
local function blame_functions()
  local out = {}
  for _, entry in ipairs(blamed_setters()) do
    local blame = defs.blame(entry.setter)
    out[#out + 1] = ""
    out[#out + 1] = format("int %s(ik2d_status status) {", blame_name(entry))
    out[#out + 1] = "  switch (status) {"
    for _, step in ipairs(entry.setter.checks) do
      local arg = step.status and blame[step.status]
      if arg and arg > 1 then
        out[#out + 1] = format("    case IK2D_ERR_%s: return %d;", step.status, arg)
        blame[step.status] = nil
      end
    end
    out[#out + 1] = "    default: return 1;"
    out[#out + 1] = "  }"
    out[#out + 1] = "}"
  end
  return concat(out, "\n")
end

local function luaik_api_h()
  return concat({
    "/* " .. MARK .. ": src/lua/luaik_api.h */",
    "/*",
    "** luaik_api.h: the options of ik2d.solver, ik2d.spring and",
    "** ik2d.transform_constraint (its plain ones), one row each,",
    "** as lua/ik2d/api.lua describes them: the Lua name, how a Lua value",
    "** becomes the C field (luaik_option_kind) and where the field is.",
    "*/",
    "#ifndef LUAIK_API_H",
    "#define LUAIK_API_H",
    "",
    "#include <stddef.h>",
    "",
    "#include \"../ik2d.h\"",
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
    "/* a transform constraint's plain options (its bones and target are names) */",
    "extern const luaik_option luaik_transform_constraint_options[];",
    "",
    "/* each option's row */",
    option_indices(api.solver, "SOLVER"),
    option_indices(api.spring, "SPRING"),
    "",
    "/* The argument a status of a setter of several values blames: a field's",
    "** status its argument's (2 for the setter's first), a rule's the object's",
    "** (1). */",
    blame_declarations(),
    "",
    "#endif",
  }, "\n") .. "\n"
end

local function luaik_api_c()
  local out = {
    "/* " .. MARK .. ": src/lua/luaik_api.c */",
    "/*",
    "** luaik_api.c: the option tables luaik_api.h declares, and which argument",
    "** a setter's status blames.",
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
                   { api.skeleton_bone, "skeleton_bone" },
                   { api.transform_constraint, "transform_constraint" } }
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
  out[#out + 1] = blame_functions()
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

-- (header_text: src/ik2d.h as gen writes it)
local function ffi_cdef(header_text)
  local core = prototypes({ header_text }, "IK2D_API")
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
    "-- generated from src/ik2d_numbers.h by make gen: lua/ik2d/pure/numbers.lua",
    "--- ik2d.pure.numbers: the thresholds the solves and the springs share, as",
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
  files["src/ik2d_checks.h"] = checks_h()
  for path, regions in pairs(check_regions()) do files[path] = fill(path, read(path), regions) end
  files["src/ik2d_api.c"] = api_c()
  files["src/lua/luaik_api.h"] = luaik_api_h()
  files["src/lua/luaik_api.c"] = luaik_api_c()
  files["lua/ik2d/pure/numbers.lua"] = pure_numbers()
  files["ik2d-scm-1.rockspec"] = fill("ik2d-scm-1.rockspec", read("ik2d-scm-1.rockspec"),
                                      { modules = rockspec_modules() })
  files["docs/api.md"] = fill("docs/api.md", read("docs/api.md"), {
    ["solver options"] = readme_table(api.solver),
    ["spring options"] = readme_table(api.spring),
    ["transform constraint options"] = readme_table(api.transform_constraint),
    version = format('This is ik2d %s: `ik2d._VERSION` and every helper\'s `_VERSION` are `"%s"`.',
                     api.version, api.version),
  })
  files["lua/ik2d/ffi.lua"] = fill("lua/ik2d/ffi.lua", read("lua/ik2d/ffi.lua"),
                                   { cdef = ffi_cdef(files["src/ik2d.h"]) })
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
