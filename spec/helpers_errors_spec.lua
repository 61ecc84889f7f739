-- Every public method of every helper refuses a wrong self (a method
-- called with a dot, f.update(dt), or on another helper's object) with
-- an error at the caller's line naming the helper and the method, never
-- with an error from inside the helper.
local ik2d = require "ik2d"
local helpers = require "spec.helpers"

local function objects()
  local s = ik2d.solver(ik2d.chain{ { length = 1 }, { length = 1 } })
  return {
    blend = { ik2d.blend.new(s), "a blend" },
    smooth = { ik2d.smooth.new(), "a smoother" },
    behaviour = { ik2d.behaviour.new(s, { idle = {} }), "a behaviour" },
    attach = { ik2d.attach.new(), "an attach" },
    gait = { ik2d.gait.new{ legs = { { solver = s, home = { 0, 1 } }, { solver = s, home = { 1, 1 } } },
                            ground = function() return 0, 0 end }, "a gait" },
  }
end

describe("the helpers' methods", function()
  for module, entry in pairs(objects()) do
    local obj, kind = entry[1], entry[2]
    local names = {}
    for name, f in pairs(debug.getmetatable(obj).__index) do
      if type(f) == "function" then names[#names + 1] = name end
    end
    table.sort(names)
    for _, name in ipairs(names) do
      it(("ik2d.%s: %s refuses nil, a number and another helper as self"):format(module, name), function()
        local method = obj[name]
        local other = module == "smooth" and ik2d.blend.new() or ik2d.smooth.new()
        local prefix = ("ik2d.%s: %s: self must be %s (call it with a colon), got "):format(module, name, kind)
        assert.are.equal(prefix .. "nil", helpers.caller_error(function() method() end))
        assert.are.equal(prefix .. "0.5", helpers.caller_error(function() method(0.5) end))
        assert.are.equal(prefix .. "table", helpers.caller_error(function() method(other) end))
      end)
    end
  end
end)
