-- A value an object already has, set again, changes no bit: a skeleton's
-- base, flip, scale, poses, lengths and rests, a chain's, a solver's
-- target, pole and tip angle, a group's bases.  Two twins run the same
-- frames, one of them told every value again between its solves; their
-- results stay the same bits (a replay that skips unchanged values, or a
-- group fed every base each frame, stays in step with sk:solve()).

local ik2d = require "ik2d"
local helpers = require "spec.helpers"

local function bits(t)
  local out = {}
  for i = 1, #t do out[i] = string.format("%a", t[i]) end
  return out
end

-- a flipped, turned skeleton with limits: two solvers, one of them FABRIK
local function character()
  local sk = ik2d.skeleton{ x = -29.242359068823205, y = -76.328869711760831, angle = -1.7793973669313814,
    flip = true,
    { name = "b1", length = 14.641253310088652, angle = 0.91935801828250208 },
    { name = "b2", parent = "b1", length = 27.610995426127221, angle = 1.2000145051628417 },
    { name = "b3", parent = "b2", length = 30.296866397977279, angle = 0.22097723475702891,
      min = -1.931355375997422, max = -0.42752846685588741 },
    { name = "b4", parent = "b1", length = 37.449786100746032, angle = -0.45085768702014239,
      min = 0.027596721671333757, max = 0.49659403259707324 },
    { name = "b5", parent = "b4", length = 14.840566520504916, angle = -0.23982741415492614,
      min = -0.17868248474722837, max = 0.94615298511746948 },
    { name = "b6", parent = "b3", length = 19.925500112551031, angle = -1.0993838119783363 },
    { name = "free", parent = "b1", length = 9, angle = 0.3 },
  }
  local s = ik2d.solver(sk:chain("b1", "b6"), { iterations = 21, pole = { 10, 10 } })
  local f = ik2d.solver(sk:chain("b4", "b5"), { method = "fabrik", tip_angle = 0.4 })
  return sk, s, f
end

-- every value sk and its solvers have, set again
local function resend_skeleton(sk, s, f)
  sk:set_base(sk:base())
  sk:set_flip(sk:flip())
  sk:set_scale(sk:scale())
  -- (the free bone's result is its pose: no solver moves it)
  sk:set_pose("free", sk:pose("free"))
  for i = 1, #sk do
    sk:set_length(i, sk:length(i))
    sk:set_rest(i, sk:rest(i))
  end
  for _, v in ipairs{ s, f } do
    v:set_target(v:target())
    if v:pole() then v:set_pole(v:pole()) end
    if v:tip_angle() then v:set_tip_angle(v:tip_angle()) end
  end
end

local function move(frame, s, f)
  s:set_target(40 + 3 * frame, -60 + 2 * frame)
  f:set_target(-20 + frame, 30 - 2 * frame)
end

helpers.on_both_paths(ik2d, function()
  describe("a value set again", function()
    it("changes no bit of a skeleton's transforms right away", function()
      local sk, s, f = character()
      for frame = 1, 20 do
        move(frame, s, f)
        sk:solve()
        local before = bits(sk:transforms())
        resend_skeleton(sk, s, f)
        assert.are.same(before, bits(sk:transforms()))
      end
    end)

    it("leaves a skeleton's next solves the bits of its twin's, not told", function()
      local a, as, af = character()
      local b, bs, bf = character()
      for frame = 1, 30 do
        move(frame, as, af)
        move(frame, bs, bf)
        resend_skeleton(b, bs, bf)
        a:solve()
        b:solve()
        resend_skeleton(b, bs, bf)
        assert.are.same(bits(a:transforms()), bits(b:transforms()))
      end
    end)

    it("changes no bit of a chain's joints, right away or after its next solves", function()
      local function arm()
        local ch = ik2d.chain{ x = 3.1, y = -7.7, angle = 0.3, flip = true, { length = 40 },
                               { length = 30, min = -2.4, max = 0 }, { length = 12 } }
        return ch, ik2d.solver(ch, { method = "fabrik", pole = { 0, 50 } })
      end
      local a, as = arm()
      local b, bs = arm()
      -- a chain no solver moves: its result is its pose
      local still = ik2d.chain{ x = 1, y = 2, angle = -0.7, flip = true, { length = 4, angle = 0.3 },
                                { length = 5, angle = -1.1 } }
      local still_joints = bits(still:joints())
      for frame = 1, 30 do
        as:set_target(50 + frame, 20 - frame)
        bs:set_target(50 + frame, 20 - frame)
        as:solve()
        bs:solve()
        local before = bits(b:joints())
        b:set_base(b:base())
        b:set_flip(b:flip())
        for i = 1, #still do still:set_pose(i, still:pose(i)) end
        assert.are.same(still_joints, bits(still:joints()))
        for i = 1, #b do
          b:set_length(i, b:length(i))
          b:set_rest(i, b:rest(i))
        end
        bs:set_target(bs:target())
        bs:set_pole(bs:pole())
        assert.are.same(before, bits(b:joints()))
        assert.are.same(bits(a:joints()), before)
      end
    end)

    it("leaves a group fed its skeletons' bases every frame with sk:solve()'s bits", function()
      local function make()
        local sk = ik2d.skeleton{ x = 57.823780159383915, y = 44.273138765372863, angle = 2.9592968886528617,
          { name = "b1", length = 13.173892047802868, angle = -1.5881545802523171 },
          { name = "b3", parent = "b1", length = 33.586339530808075, angle = -1.359029223843957 },
          { name = "b5", parent = "b3", length = 0, angle = -1.4636970979458175 },
          { name = "b7", parent = "b5", length = 10.312115179985815, angle = 1.5108377167539846 },
          { name = "b8", parent = "b7", length = 10.079084872304968, angle = 1.906222723380766,
            x = 24.76174222061492, y = -9.6992490625471106 },
          { name = "b9", parent = "b7", length = 23.572311722008656, angle = -0.30364436577243925 },
        }
        local s1 = ik2d.solver(sk:chain("b7", "b7"), { iterations = 7, tolerance = 1e-6 })
        local s2 = ik2d.solver(sk:chain("b1", "b5"), { aim = { 7.1078395550641389, -2.3603986913153898,
          0.87791950622476622 }, iterations = 28, pole = { -87.720213359091531, 86.374073748651 },
          together = false, tolerance = 0.5 })
        local s3 = ik2d.solver(sk:chain("b3", "b8"), { method = "fabrik", iterations = 15, together = false,
          tolerance = 1e-6 })
        local s4 = ik2d.solver(sk:chain("b3", "b3"), { exact = false, iterations = 27, tolerance = 1e-6 })
        s1:set_target(133.41286195601003, 69.970894660787138)
        s2:set_target(133.58624036590857, -16.058170174275602)
        s3:set_target(-76.141938299938076, 82.442992940751367)
        s4:set_target(110.49070300557219, 17.245414651578926)
        return sk, s3
      end
      local a, a3 = make()
      local b, b3 = make()
      local crowd = { b }
      for k = 2, 5 do crowd[k] = (make()) end
      local g = ik2d.group(crowd)
      a:solve()
      g:solve()
      assert.are.same(bits(a:transforms()), bits(b:transforms()))
      a3:set_options{ together = true }
      b3:set_options{ together = true }
      for _ = 1, 5 do
        local bases = {}
        for k = 1, #crowd do
          local x, y, angle = crowd[k]:base()
          bases[3 * k - 2], bases[3 * k - 1], bases[3 * k] = x, y, angle
        end
        g:set_bases(bases)
        a:solve()
        g:solve()
        assert.are.same(bits(a:transforms()), bits(b:transforms()))
      end
    end)
  end)
end)
