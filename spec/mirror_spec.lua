-- ik2d.mirror_bones: the other side of a rig, mirrored across each
-- parent's axis, so that mirrored targets solve to mirrored angles.

local ik2d = require "ik2d"
local helpers = require "spec.helpers"

local LEFT_LEG = {
  { name = "thigh_l", parent = "hip", length = 30, angle = 1.2, min = -0.5, max = 1.0 },
  { name = "shin_l", parent = "thigh_l", length = 28, angle = -0.4, min = -2.0, max = 0.25,
    x = 30, y = 4 },
  { name = "foot_l", parent = "shin_l", length = 9, angle = 1.4, min = 0.2, max = 0.4, invert = true },
}

describe("ik2d.mirror_bones", function()
  it("negates rest angles and origins' y and swaps the negated limits", function()
    local right = ik2d.mirror_bones(LEFT_LEG, { "_l$", "_r" })
    assert.equal(3, #right)
    assert.near(-1.2, right[1].angle, 0)
    assert.near(-1.0, right[1].min, 0)
    assert.near(0.5, right[1].max, 0)
    assert.near(-0.25, right[2].min, 0)
    assert.near(2.0, right[2].max, 0)
    assert.near(30, right[2].x, 0)
    assert.near(-4, right[2].y, 0)
    assert.near(-0.4, right[3].min, 0)
    assert.near(-0.2, right[3].max, 0)
    assert.is_true(right[3].invert)
    assert.equal(30, right[1].length)
  end)

  it("renames the bones and the parents given by name, and leaves the input as it was", function()
    local right = ik2d.mirror_bones(LEFT_LEG, { "_l$", "_r" })
    assert.same({ "thigh_r", "shin_r", "foot_r" }, { right[1].name, right[2].name, right[3].name })
    assert.same({ "hip", "thigh_r", "shin_r" }, { right[1].parent, right[2].parent, right[3].parent })
    assert.equal("thigh_l", LEFT_LEG[1].name)
    assert.near(1.2, LEFT_LEG[1].angle, 0)
    assert.near(-0.5, LEFT_LEG[1].min, 0)
    assert.are_not.equal(LEFT_LEG[1], right[1])
  end)

  it("keeps a chain definition's base", function()
    local out = ik2d.mirror_bones { x = 5, y = 6, angle = 0.5, flip = true, { length = 3, angle = 0.25 } }
    assert.same({ 5, 6, 0.5, true }, { out.x, out.y, out.angle, out.flip })
    assert.near(-0.25, out[1].angle, 0)
  end)

  for _, method in ipairs { "ccd", "fabrik", "two_bone" } do
    it("gives a chain that solves a mirrored target to mirrored angles (" .. method .. ")", function()
      local bones = { { length = 30, angle = 1.2, min = -0.5, max = 1.0 },
                      { length = 28, angle = -0.4, min = -2, max = 0 } }
      local left, right = ik2d.chain(bones), ik2d.chain(ik2d.mirror_bones(bones))
      local sl, sr = ik2d.solver(left, { method = method }), ik2d.solver(right, { method = method })
      for _, target in ipairs { { 20, 35 }, { -10, 40 }, { 45, -5 }, { 100, 100 } } do
        sl:set_target(target[1], target[2])
        sr:set_target(target[1], -target[2])
        sl:solve()
        sr:solve()
        for i = 1, 2 do assert.near(-left:angle(i), right:angle(i), 1e-12) end
        local lx, ly = left:tip()
        local rx, ry = right:tip()
        assert.near(lx, rx, 1e-9)
        assert.near(-ly, ry, 1e-9)
      end
    end)
  end

  it("gives skeleton legs that solve mirrored targets to mirrored angles", function()
    local rig = { { name = "hip", length = 0 } }
    for _, bone in ipairs(LEFT_LEG) do rig[#rig + 1] = bone end
    for _, bone in ipairs(ik2d.mirror_bones(LEFT_LEG, { "_l$", "_r" })) do rig[#rig + 1] = bone end
    local sk = ik2d.skeleton(rig)
    local sl = ik2d.solver(sk:chain("thigh_l", "shin_l"), { iterations = 30 })
    local sr = ik2d.solver(sk:chain("thigh_r", "shin_r"), { iterations = 30 })
    sl:set_target(25, 30)
    sr:set_target(25, -30)
    sk:solve()
    for _, name in ipairs { "thigh", "shin", "foot" } do
      assert.near(-sk:angle(name .. "_l"), sk:angle(name .. "_r"), 1e-9)
    end
  end)

  it("refuses what it cannot mirror, naming the bone and the field", function()
    assert.has_error(function() ik2d.mirror_bones(nil) end,
      "ik2d.mirror_bones: bones must be a table of bone definitions, got nil")
    assert.has_error(function() ik2d.mirror_bones({ { length = 1, angle = "up" } }) end,
      'ik2d.mirror_bones: bones[1].angle must be a finite number, got "up"')
    assert.has_error(function() ik2d.mirror_bones({ { length = 1 }, 5 }) end,
      "ik2d.mirror_bones: bones[2] must be a table, got 5")
    assert.has_error(function() ik2d.mirror_bones({}, { "_l" }) end,
      "ik2d.mirror_bones: rename must be nil or { pattern, replacement } (two strings), got table")
  end)

  describe("checks its rename, at the caller's line, naming itself", function()
    local bones = { { name = "thigh_l", length = 30, angle = 1.2 }, { name = "knee", parent = "thigh_l", length = 1 } }
    local cases = {
      { { "[", "_r" }, 'rename[1] must be a Lua pattern (malformed pattern (missing \']\')), got "["' },
      { { "(", "x" }, 'rename[1] must be a Lua pattern (unfinished capture), got "("' },
      { { "%", "x" }, 'rename[1] must be a Lua pattern (malformed pattern (ends with \'%\')), got "%"' },
      { { "_l$", "%2" }, 'rename[2] must be a replacement with captures %0 to %1 and %% (invalid capture index %2), '
          .. 'got "%2"' },
      { { "(_)l$", "%1r%x" }, 'rename[2] must be a replacement with captures %0 to %1 and %% (invalid use of \'%\' '
          .. 'in replacement string), got "%1r%x"' },
      { { "nothing", "%3" }, 'rename[2] must be a replacement with captures %0 to %1 and %% (invalid capture index '
          .. '%3), got "%3"' },
      { { "_l$", "_r", "extra" },
        "rename must be nil or { pattern, replacement } (two strings), got table" },
      { { "_l$", "_r", n = 1 },
        "rename must be nil or { pattern, replacement } (two strings), got table" },
    }
    for _, case in ipairs(cases) do
      it(("refuses %s, %s"):format(tostring(case[1][1]), tostring(case[1][2])), function()
        assert.are.equal("ik2d.mirror_bones: " .. case[2],
          helpers.caller_error(function() ik2d.mirror_bones(bones, case[1]) end))
      end)
    end

    it("takes captures in the replacement, %% and a pattern that matches nothing", function()
      local out = ik2d.mirror_bones(bones, { "(%a+)_l$", "%1_r%%" })
      assert.are.same({ "thigh_r%", "knee" }, { out[1].name, out[2].name })
      assert.are.equal("thigh_r%", out[2].parent)
      out = ik2d.mirror_bones(bones, { "^zz(.)$", "%0%1" })
      assert.are.same({ "thigh_l", "knee" }, { out[1].name, out[2].name })
    end)
  end)
end)
