-- A Spine 4.2 JSON rig of ik2d's own making, for the loading bench
-- (bench/rig_load.lua) and the decoders' spec: a creature of 67 bones
-- (spine, neck, head, tail, cape, two arms with fingers, two legs with
-- toes, ears, hair),
-- 40 slots with regions and meshes (weighted too), two IK constraints a
-- leg and an arm, transform constraints, events, and 11 animations keyed
-- on every bone with Bézier, stepped and linear curves, colour, deform,
-- draw order and event keys: about 1 MB of text with the default size.
-- Nothing here comes from a Spine example: the shapes and numbers come
-- from a seeded generator.
--
--   local gen = dofile("bench/spine_rig_gen.lua")
--   local text = gen.text({ animations = 11, keys = 10 })

local gen = {}

local format, concat = string.format, table.concat

-- Park and Miller's minimal standard generator: its products stay below
-- 2^53, exact in doubles and integers alike, so every Lua makes the same rig
local function random_source(seed)
  local state = seed
  return function(lo, hi)
    state = (state * 16807) % 2147483647
    return lo + (hi - lo) * state / 2147483647
  end
end

-- numbers as the editor writes them: at most 4 decimals, no trailing zeros
local function num(v)
  local text = format("%.4f", v):gsub("0+$", ""):gsub("%.$", "")
  if text == "-0" then return "0" end
  return text
end

local function bone_list()
  local bones = { { "root" }, { "hip", "root", 0, 120, 90, 20 }, }
  local function add(name, parent, x, y, rotation, length, extra)
    bones[#bones + 1] = { name, parent, x, y, rotation, length, extra }
  end
  local previous = "hip"
  for i = 1, 4 do add("spine" .. i, previous, 20, 0, i == 1 and 0 or 3, 20) previous = "spine" .. i end
  add("neck", previous, 20, 0, 5, 12) add("head", "neck", 12, 0, -8, 30)
  add("jaw", "head", 5, -8, -60, 14, { shearX = 4 })
  for _, side in ipairs({ "l", "r" }) do
    add("ear_" .. side .. "1", "head", 22, side == "l" and 8 or -8, 40, 12, { inherit = "noScale" })
    add("ear_" .. side .. "2", "ear_" .. side .. "1", 12, 0, 10, 10)
  end
  previous = "head"
  for i = 1, 4 do add("hair" .. i, previous, i == 1 and 26 or 8, 0, 170, 8) previous = "hair" .. i end
  previous = "hip"
  for i = 1, 8 do
    add("tail" .. i, previous, i == 1 and -10 or 14, 0, i == 1 and 180 or -6, 14,
        i == 3 and { inherit = "noRotationOrReflection" } or nil)
    previous = "tail" .. i
  end
  previous = "spine4"
  for i = 1, 6 do add("cape" .. i, previous, i == 1 and 4 or 15, i == 1 and -6 or 0, i == 1 and -170 or 4, 15)
    previous = "cape" .. i end
  for _, side in ipairs({ "l", "r" }) do
    local s = side == "l" and 1 or -1
    add("shoulder_" .. side, "spine4", 16, 6 * s, -150, 6)
    add("arm_" .. side, "shoulder_" .. side, 6, 0, 20, 36, { scaleX = 1.02 })
    add("forearm_" .. side, "arm_" .. side, 36, 0, 30, 32, { shearY = -3 })
    add("hand_" .. side, "forearm_" .. side, 32, 0, 0, 10, { inherit = "noScaleOrReflection" })
    for f = 1, 3 do
      add("finger_" .. side .. f .. "a", "hand_" .. side, 10, (f - 2) * 3, (f - 2) * 12, 6)
      add("finger_" .. side .. f .. "b", "finger_" .. side .. f .. "a", 6, 0, 8, 5)
    end
    add("thigh_" .. side, "hip", -4, 5 * s, -100, 50)
    add("shin_" .. side, "thigh_" .. side, 50, 0, 20, 48)
    add("foot_" .. side, "shin_" .. side, 48, 0, 80, 18, { inherit = "onlyTranslation" })
    for t = 1, 3 do add("toe_" .. side .. t, "foot_" .. side, 18, (t - 2) * 4, (t - 2) * 10, 5) end
    add("hand_target_" .. side, "root", 60 * s, 150, 0, 0)
    add("foot_target_" .. side, "root", 20 * s, 0, 0, 0)
  end
  return bones
end

local function bones_json(bones, out)
  out[#out + 1] = '"bones": ['
  for i, b in ipairs(bones) do
    local fields = { format('"name": "%s"', b[1]) }
    if b[2] then fields[#fields + 1] = format('"parent": "%s"', b[2]) end
    if b[6] and b[6] ~= 0 then fields[#fields + 1] = '"length": ' .. num(b[6]) end
    if b[5] and b[5] ~= 0 then fields[#fields + 1] = '"rotation": ' .. num(b[5]) end
    if b[3] and b[3] ~= 0 then fields[#fields + 1] = '"x": ' .. num(b[3]) end
    if b[4] and b[4] ~= 0 then fields[#fields + 1] = '"y": ' .. num(b[4]) end
    for key, v in pairs(b[7] or {}) do
      fields[#fields + 1] = type(v) == "string" and format('"%s": "%s"', key, v) or format('"%s": %s', key, num(v))
    end
    table.sort(fields)
    out[#out + 1] = "\t{ " .. concat(fields, ", ") .. (i < #bones and " }," or " }")
  end
  out[#out + 1] = "],"
end

-- slots on the bones with something to draw, a mesh on the spine bones
-- (weighted over them) and the head, regions elsewhere
local function slot_list(bones)
  local slots = {}
  for _, b in ipairs(bones) do
    local name = b[1]
    if name ~= "root" and not name:match("target") and not name:match("^finger.*b$") and #slots < 40 then
      slots[#slots + 1] = { name = name, bone = name,
                            mesh = name == "head" or name == "spine2" or name == "tail4",
                            weighted = name == "spine2" or name == "tail4" }
    end
  end
  return slots
end

local function mesh_json(rnd, bone_index, slot, n)
  local uvs, vertices, triangles = {}, {}, {}
  for v = 0, n - 1 do
    uvs[#uvs + 1] = num(v / (n - 1)) uvs[#uvs + 1] = num(v % 2)
    if slot.weighted then
      local first = bone_index[slot.bone] - 1
      vertices[#vertices + 1] = "2"
      for k = 0, 1 do
        vertices[#vertices + 1] = tostring(first + k)
        vertices[#vertices + 1] = num(rnd(-20, 20)) vertices[#vertices + 1] = num(rnd(-10, 10))
        vertices[#vertices + 1] = num(k == 0 and 0.7 or 0.3)
      end
    else
      vertices[#vertices + 1] = num(rnd(-30, 30)) vertices[#vertices + 1] = num(rnd(-20, 20))
    end
  end
  for v = 0, n - 3 do triangles[#triangles + 1] = format("%d, %d, %d", v, v + 1, v + 2) end
  return format('{ "type": "mesh", "uvs": [ %s ], "triangles": [ %s ], "vertices": [ %s ], "hull": %d, '
                .. '"width": 64, "height": 48 }', concat(uvs, ", "), concat(triangles, ", "),
                concat(vertices, ", "), n)
end

local function skins_json(rnd, slots, bone_index, out, mesh_vertices)
  out[#out + 1] = '"skins": [ { "name": "default", "attachments": {'
  for i, slot in ipairs(slots) do
    local att
    if slot.mesh then
      att = mesh_json(rnd, bone_index, slot, mesh_vertices)
    else
      att = format('{ "x": %s, "y": %s, "rotation": %s, "width": %d, "height": %d }', num(rnd(-5, 5)),
                   num(rnd(-5, 5)), num(rnd(-90, 90)), math.floor(rnd(10, 60)), math.floor(rnd(10, 60)))
    end
    out[#out + 1] = format('\t"%s": { "%s": %s }%s', slot.name, slot.name, att, i < #slots and "," or "")
  end
  out[#out + 1] = "} } ],"
end

-- one timeline's keys: times 0 .. duration, values from value(), curves
-- mostly Bézier, some stepped or linear
local function keys_json(rnd, count, duration, fields)
  local keys = {}
  local last = {}
  for k = 0, count - 1 do
    local time = duration * k / (count - 1)
    local parts = { k > 0 and '"time": ' .. num(time) or nil }
    local values = {}
    for j, field in ipairs(fields) do
      values[j] = field[2](rnd)
      parts[#parts + 1] = format('"%s": %s', field[1], num(values[j]))
    end
    local choice = rnd(0, 1)
    if k < count - 1 then
      if choice < 0.1 then
        parts[#parts + 1] = '"curve": "stepped"'
      elseif choice < 0.85 then
        local next_time = duration * (k + 1) / (count - 1)
        local c = {}
        for j = 1, #fields do
          c[#c + 1] = num(time + (next_time - time) * 0.25) c[#c + 1] = num(values[j] + rnd(-5, 5))
          c[#c + 1] = num(time + (next_time - time) * 0.75) c[#c + 1] = num(values[j] + rnd(-5, 5))
        end
        parts[#parts + 1] = '"curve": [ ' .. concat(c, ", ") .. " ]"
      end
    end
    keys[#keys + 1] = "{ " .. concat(parts, ", ") .. " }"
    last = values
  end
  return "[\n\t\t\t" .. concat(keys, ",\n\t\t\t") .. "\n\t\t]", last
end

local function angle(rnd) return rnd(-40, 40) end
local function offset(rnd) return rnd(-6, 6) end
local function scale(rnd) return rnd(0.9, 1.1) end

local function animation_json(rnd, name, bones, slots, options, out, last)
  local keys, duration = options.keys, rnd(0.6, 2.4)
  out[#out + 1] = format('"%s": {\n"bones": {', name)
  local entries = {}
  for _, b in ipairs(bones) do
    if b[1] ~= "root" then
      local timelines = { '"rotate": ' .. keys_json(rnd, keys, duration, { { "value", angle } }) }
      if rnd(0, 1) < 0.5 then
        timelines[#timelines + 1] = '"translate": '
          .. keys_json(rnd, keys, duration, { { "x", offset }, { "y", offset } })
      end
      if rnd(0, 1) < 0.2 then
        timelines[#timelines + 1] = '"scale": ' .. keys_json(rnd, keys, duration, { { "x", scale }, { "y", scale } })
      end
      entries[#entries + 1] = format('\t"%s": { %s }', b[1], concat(timelines, ", "))
    end
  end
  out[#out + 1] = concat(entries, ",\n") .. "\n},"
  local colour = {}
  for i = 1, 3 do
    colour[#colour + 1] = format('"%s": { "rgba": [ { "color": "ffffffff", "curve": [ %s, 1, %s, 0.5, %s, 1, %s, 1, '
                                   .. '%s, 1, %s, 1, %s, 1, %s, 0.2 ] }, { "time": %s, "color": "ff8080c0" } ] }',
                                 slots[i].name, num(duration * 0.2), num(duration * 0.8), num(duration * 0.2),
                                 num(duration * 0.8), num(duration * 0.2), num(duration * 0.8), num(duration * 0.2),
                                 num(duration * 0.8), num(duration))
  end
  out[#out + 1] = '"slots": { ' .. concat(colour, ", ") .. " },"
  out[#out + 1] = format('"ik": { "leg_l": [ { "mix": 1 }, { "time": %s, "mix": 0.5, "bendPositive": false } ] },',
                         num(duration / 2))
  out[#out + 1] = format('"attachments": { "default": { "head": { "head": { "deform": [ { }, { "time": %s, '
                         .. '"offset": 4, "vertices": [ 1.5, -2, 3, 0.25 ], "curve": [ %s, 0.1, %s, 0.9 ] }, '
                         .. '{ "time": %s } ] } } } },', num(duration / 2), num(duration / 8), num(duration * 3 / 8),
                         num(duration))
  out[#out + 1] = format('"drawOrder": [ { "time": %s, "offsets": [ { "slot": "%s", "offset": 2 } ] }, '
                         .. '{ "time": %s } ],', num(duration / 3), slots[2].name, num(duration * 2 / 3))
  out[#out + 1] = format('"events": [ { "time": %s, "name": "step" }, { "time": %s, "name": "step", "int": 2 } ]',
                         num(duration / 4), num(duration * 3 / 4))
  out[#out + 1] = last and "}" or "},"
end

--- gen.text([options]) -> the JSON text.  options: animations (11),
-- keys a timeline (10), mesh_vertices (24), seed (7).
function gen.text(options)
  options = options or {}
  options.animations = options.animations or 11
  options.keys = options.keys or 10
  options.mesh_vertices = options.mesh_vertices or 24
  local rnd = random_source(options.seed or 7)
  local bones = bone_list()
  local bone_index = {}
  for i, b in ipairs(bones) do bone_index[b[1]] = i end
  local slots = slot_list(bones)
  local out = { "{", '"skeleton": { "hash": "generated", "spine": "4.2.22", "x": -100, "y": 0, "width": 200, '
                     .. '"height": 300, "images": "./images/", "audio": "" },' }
  bones_json(bones, out)
  local slot_entries = {}
  for i, slot in ipairs(slots) do
    slot_entries[i] = format('\t{ "name": "%s", "bone": "%s", "attachment": "%s" }', slot.name, slot.bone, slot.name)
  end
  out[#out + 1] = '"slots": [\n' .. concat(slot_entries, ",\n") .. "\n],"
  out[#out + 1] = '"ik": ['
  local ik = {}
  for _, side in ipairs({ "l", "r" }) do
    ik[#ik + 1] = format('\t{ "name": "leg_%s", "order": %d, "bones": [ "thigh_%s", "shin_%s" ], "target": '
                         .. '"foot_target_%s", "bendPositive": %s, "softness": 4 }', side, #ik, side, side, side,
                         side == "l" and "false" or "true")
    ik[#ik + 1] = format('\t{ "name": "arm_%s", "order": %d, "bones": [ "arm_%s", "forearm_%s" ], "target": '
                         .. '"hand_target_%s", "mix": 0.8 }', side, #ik, side, side, side)
  end
  out[#out + 1] = concat(ik, ",\n") .. "\n],"
  out[#out + 1] = '"transform": [ { "name": "ears", "order": 4, "bones": [ "ear_r1" ], "target": "ear_l1", '
                  .. '"mixRotate": 0.5, "mixX": 0, "mixScaleX": 0, "mixShearY": 0 }, { "name": "tail_follow", '
                  .. '"order": 5, "bones": [ "tail8" ], "target": "tail7", "local": true, "relative": true, '
                  .. '"rotation": 10 } ],'
  skins_json(rnd, slots, bone_index, out, options.mesh_vertices)
  out[#out + 1] = '"events": { "step": { "int": 1, "string": "left" } },'
  out[#out + 1] = '"animations": {'
  for a = 1, options.animations do
    animation_json(rnd, "anim" .. a, bones, slots, options, out, a == options.animations)
  end
  out[#out + 1] = "}"
  out[#out + 1] = "}"
  return concat(out, "\n")
end

return gen
