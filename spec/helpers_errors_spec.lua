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

describe("the helpers' own checks", function()
  it("ik2d.attach.direction names itself at the caller's line, on every backend", function()
    local c = ik2d.chain{ { length = 1 }, { length = 1 } }
    assert.are.equal("ik2d.attach: direction: chain must be an ik2d chain, got 5",
      helpers.caller_error(function() ik2d.attach.direction(5, 1) end))
    assert.are.equal("ik2d.attach: direction: joint must be a whole number in 1..3, got 7",
      helpers.caller_error(function() ik2d.attach.direction(c, 7) end))
    assert.are.equal(c:world_angle(2), ik2d.attach.direction(c, 3))
  end)

  it("ik2d.gait refuses a solver with an aim when tip = true, at new", function()
    local aimed = ik2d.solver(ik2d.chain{ { length = 10 }, { length = 10 } }, { aim = { 1, 0, 0 } })
    local plain = ik2d.solver(ik2d.chain{ { length = 10 }, { length = 10 } })
    local opts = { legs = { { solver = plain, home = { 0, 15 } }, { solver = aimed, home = { 1, 15 } } },
                   ground = function() return 15, 0 end, tip = true }
    assert.are.equal("ik2d.gait: new: legs[2].solver aims (set_aim): tip = true orients its last bone, clear its "
      .. "aim, got ik2d.Solver", helpers.caller_error(function() ik2d.gait.new(opts) end))
  end)
end)
