-- The pure core's two ways of solving plain CCD without the exact step
-- (lua/ik2d/pure/kernel.lua): the unrolled kernels (PUC Lua) and the loop
-- kernels (LuaJIT) must give the same bits, and so must m.atan2_flat and
-- m.atan2.  Each runtime takes one way in ik2d (kernel.LOOPS); this spec
-- runs both on every runtime, solve after solve, on free chains with
-- random bases, flips, lengths, poses, targets and settings.  (The diff
-- spec compares whichever one the runtime takes with the C core.)  So
-- must the exact step's pair searches and the skeleton's placing of
-- bones, each written flat and split.
local m = require "ik2d.pure.math"
local kernel = require "ik2d.pure.kernel"
local pose = require "ik2d.pure.pose"
local L = require "ik2d.pure.core"
local O = require "ik2d.pure.objects"
local helpers = require "spec.helpers"

local format = string.format

-- a bit-exact comparison (%a, and the sign of a zero)
local function same(a, b)
  if a ~= a then return b ~= b end
  return a == b and (a ~= 0 or 1 / a == 1 / b)
end

local function bits(x) return format("%a", x) end

-- Park-Miller, the same on every runtime
local state = 4242
local function rnd()
  state = (state * 16807) % 2147483647
  return state / 2147483647
end
local function between(a, b) return a + (b - a) * rnd() end

describe("pure kernel", function()
  it("m.atan2_flat gives m.atan2's bits", function()
    local values = { 0.0, -0.0, 1.0, -1.0, 0.5, -0.5, 2.0, 1 / 3, 1e-300, -1e-300, 5e-324,
      -5e-324, 1e300, -1e300, 1.7976931348623157e308, math.huge, -math.huge, 0 / 0 }
    for _, y in ipairs(values) do
      for _, x in ipairs(values) do
        local a, b = m.atan2(y, x), m.atan2_flat(y, x)
        assert(same(a, b), format("atan2(%s, %s): %s ~= %s", bits(y), bits(x), bits(a), bits(b)))
      end
    end
    for k = 1, helpers.size(40000, 200000) do
      local y, x = between(-1, 1), between(-1, 1)
      if k % 4 == 0 then y = y * 10 ^ math.floor(between(-300, 300)) end
      if k % 8 == 0 then x = y * (1 + (rnd() - 0.5) * 1e-15) end
      if k % 16 == 0 then x = -y end
      if k % 32 == 0 then x, y = math.floor(between(-8, 9)) / 8, 1.0 end
      local a, b = m.atan2(y, x), m.atan2_flat(y, x)
      assert(same(a, b), format("atan2(%s, %s): %s ~= %s", bits(y), bits(x), bits(a), bits(b)))
    end
  end)

  it("the loop kernels give the unrolled kernels' bits", function()
    local P = pose.new(kernel.MAX_BONES)
    local solves, general = 0, 0
    local chains = helpers.size(100, 400)
    for _ = 1, chains do
      local n = math.floor(between(1, kernel.MAX_BONES + 1))
      local spec = { x = between(-5, 5), y = between(-5, 5), angle = between(-4, 4),
                     flip = rnd() < 0.3 }
      for k = 1, n do
        spec[k] = { length = rnd() < 0.05 and 1e-9 or between(0.1, 3), angle = between(-3, 3) }
        -- a full limit: free, and taken by both kernels
        if rnd() < 0.05 then spec[k].min, spec[k].max = -4, 4 end
      end
      local options = { exact = false, sweep = rnd() < 0.7 and "tip" or "root",
        iterations = math.floor(between(1, 30)), tolerance = 10 ^ between(-6, -1),
        weight = rnd() < 0.2 and between(0, 1) or 1, warm_start = rnd() < 0.8,
        damping = rnd() < 0.3 and between(0, 1) or 0 }
      local objects = {}
      for w = 1, 2 do
        local chain = L.chain(spec)
        local solver = L.solver(chain, options)
        objects[w] = { chain = chain, solver = solver, ch = O.objects.Chain[chain],
                       sv = O.objects.Solver[solver] }
      end
      local unrolled, loop = objects[1], objects[2]
      local reach = unrolled.chain:reach()
      for _ = 1, 12 do
        -- mostly reachable, some beyond (the general path's), some on the tip
        local r = reach * (rnd() < 0.1 and between(1, 1.5) or between(0, 1))
        local direction = between(-4, 4)
        local tx, ty = spec.x + r * math.cos(direction), spec.y + r * math.sin(direction)
        if rnd() < 0.2 then
          local pose_angle = between(-3, 3)
          unrolled.chain:set_pose(1, pose_angle)
          loop.chain:set_pose(1, pose_angle)
        end
        -- now and then the same target again: a solve from the solution
        if rnd() < 0.25 then tx, ty = unrolled.solver:target() end
        unrolled.solver:set_target(tx, ty)
        loop.solver:set_target(tx, ty)
        local sv, ch = unrolled.sv, unrolled.ch
        local settings = sv.settings
        local used_a = kernel.get(n, settings.sweep, false)(sv, ch, settings, settings.weight,
                                                            P)
        sv, ch = loop.sv, loop.ch
        local used_b = kernel.loop(settings.sweep)(sv, ch, sv.settings, settings.weight, P)
        assert.are.equal(used_a, used_b)
        if used_a == nil then
          general = general + 1
          -- beyond the reach: both leave it to the general path
          unrolled.solver:solve()
          loop.solver:solve()
        else
          solves = solves + 1
        end
        local a, b = unrolled.ch, loop.ch
        for k = 1, 2 * n + 2 do
          assert(same(a.joints[k], b.joints[k]), format("joint value %d: %s ~= %s", k,
            bits(a.joints[k]), bits(b.joints[k])))
        end
        for k = 1, n do
          assert(same(a.angle[k], b.angle[k]), format("angle %d", k))
          assert(same(unrolled.sv.solution_c[k], loop.sv.solution_c[k]), format("solution c %d", k))
          assert(same(unrolled.sv.solution_s[k], loop.sv.solution_s[k]), format("solution s %d", k))
          assert(same(unrolled.sv.solution_angle[k], loop.sv.solution_angle[k]),
                 format("solution angle %d", k))
          -- an angle kept from the last solve is still atan2 of its rotation
          local lsv = loop.sv
          assert(same(lsv.solution_angle[k], m.atan2(lsv.solution_s[k], lsv.solution_c[k])),
                 format("solution angle %d is not atan2 of its rotation", k))
        end
        assert.are.equal(unrolled.sv.have_solution, loop.sv.have_solution)
        assert.are.equal(unrolled.sv.limited, loop.sv.limited)
        assert.are.equal(a.scale, b.scale)
      end
    end
    -- (12 targets a chain: most solved by the kernels, some left to the
    -- general path)
    assert.is_true(solves > 7.5 * chains)
    assert.is_true(general > chains / 8)
  end)

  it("the exact step's flat and split pair searches give the same bits", function()
    -- ccd.lua calls pose.exact_step; each solver pair solves once with each
    local flat, split, chosen = pose.exact_step_flat, pose.exact_step_split, pose.exact_step
    local steps = 0
    local counted = function(search)
      return function(P, distance_sq)
        steps = steps + 1
        return search(P, distance_sq)
      end
    end
    local ok, err = pcall(function()
      for _ = 1, helpers.size(150, 600) do
        local n = math.floor(between(2, 9))
        local spec = { x = between(-5, 5), y = between(-5, 5), angle = between(-4, 4),
                       flip = rnd() < 0.3 }
        for k = 1, n do
          spec[k] = { length = between(0.1, 3), angle = between(-3, 3) }
          -- limits on some bones, a few in world space
          if rnd() < 0.4 then
            local lo = between(-2.5, 0.5)
            spec[k].min, spec[k].max = lo, lo + between(0, 2.5)
            if rnd() < 0.2 then spec[k].space = "world" end
          end
        end
        local options = { sweep = rnd() < 0.5 and "tip" or "root",
          iterations = math.floor(between(1, 20)), tolerance = 10 ^ between(-6, -1),
          warm_start = rnd() < 0.8, damping = rnd() < 0.3 and between(0, 1) or 0 }
        local twins = {}
        for w = 1, 2 do
          local chain = L.chain(spec)
          twins[w] = { chain = chain, solver = L.solver(chain, options), ch = O.objects.Chain[chain] }
        end
        local reach = twins[1].chain:reach()
        for _ = 1, 8 do
          local r = reach * between(0, 1.1)
          local direction = between(-4, 4)
          local tx, ty = spec.x + r * math.cos(direction), spec.y + r * math.sin(direction)
          for w, search in ipairs{ flat, split } do
            pose.exact_step = counted(search)
            twins[w].solver:set_target(tx, ty)
            twins[w].solver:solve()
          end
          local a, b = twins[1].ch, twins[2].ch
          for k = 1, 2 * n + 2 do
            assert(same(a.joints[k], b.joints[k]), format("joint value %d: %s ~= %s", k,
              bits(a.joints[k]), bits(b.joints[k])))
          end
          for k = 1, n do assert(same(a.angle[k], b.angle[k]), format("angle %d", k)) end
        end
      end
    end)
    pose.exact_step = chosen
    assert(ok, err)
    assert.is_true(steps > 1000)
  end)

  it("the skeleton's flat and split placing of bones give the same bits", function()
    -- every forward pass and push goes through skeleton.place (a
    -- deferred push through skeleton.place_path); twin skeletons, one
    -- placed each way, edited and solved alike; one in three scaled,
    -- sheared or inheriting less (placed by the bone model: both ways
    -- hand it the same)
    local skm = require "ik2d.pure.skeleton"
    local flat, split, chosen = skm.place_flat, skm.place_split, skm.place
    local path_forms, chosen_path = { skm.path_flat, skm.path_split }, skm.place_path
    local placed = 0
    local counted = function(place)
      return function(...)
        placed = placed + 1
        return place(...)
      end
    end
    local fields = { "T", "fx", "fy", "fa", "fc", "fs", "ftx", "fty", "wa", "wb", "wc", "wd", "wx",
      "wy" }
    local generals = 0
    local ok, err = pcall(function()
      for _ = 1, helpers.size(100, 400) do
        local n = math.floor(between(2, 12))
        local def = { x = between(-5, 5), y = between(-5, 5), angle = between(-4, 4),
                      flip = rnd() < 0.3 }
        local parent = {}
        local model = rnd() < 0.35
        for k = 1, n do
          local bone = { name = "b" .. k, length = between(0, 3), angle = between(-3.5, 3.5) }
          parent[k] = 0
          if k > 1 and rnd() < 0.85 then
            parent[k] = math.floor(between(1, k))
            bone.parent = "b" .. parent[k]
          end
          if rnd() < 0.3 then bone.x, bone.y = between(-2, 2), between(-2, 2) end
          if rnd() < 0.15 then bone.inherit = "position" end
          if model and rnd() < 0.4 then
            bone.scale_x = (rnd() < 0.2 and -1 or 1) * between(0.5, 2)
            bone.scale_y = between(0.5, 2)
            if rnd() < 0.3 then bone.shear_y = between(-0.4, 0.4) end
            if rnd() < 0.3 then bone.inherit = "no_scale" end
          end
          if rnd() < 0.4 then
            local lo = between(-2.5, 0.5)
            bone.min, bone.max = lo, lo + between(0, 2.5)
          end
          def[k] = bone
        end
        local paths = {}
        for _ = 1, 3 do
          -- to a bone from one of its ancestors (the skeleton refuses some)
          local to = math.floor(between(1, n + 1))
          local from = to
          while parent[from] > 0 and rnd() < 0.7 do from = parent[from] end
          paths[#paths + 1] = { from, to }
        end
        local options = { iterations = math.floor(between(1, 12)), tolerance = 10 ^ between(-6, -1),
                          tip_angle = rnd() < 0.3 and between(-3, 3),
                          pole = rnd() < 0.3 and { between(-5, 5), between(-5, 5) } }
        local twins = {}
        for w = 1, 2 do
          local sk = L.skeleton(def)
          local solvers = {}
          for _, path in ipairs(paths) do
            local made, chain = pcall(sk.chain, sk, "b" .. path[1], "b" .. path[2])
            if made then solvers[#solvers + 1] = L.solver(chain, options) end
          end
          twins[w] = { sk = sk, solvers = solvers, core = O.objects.Skeleton[sk] }
        end
        if twins[1].core.general then generals = generals + 1 end
        for _ = 1, 8 do
          local op, a, b, c = rnd(), between(-6, 6), between(-6, 6), between(-4, 4)
          local bone = "b" .. math.floor(between(1, n + 1))
          for w, place in ipairs{ flat, split } do
            skm.place, skm.place_path = counted(place), counted(path_forms[w])
            local t = twins[w]
            if op < 0.25 then
              t.sk:set_base(a, b, c)
            elseif op < 0.35 then
              t.sk:set_flip(c > 0)
            elseif op < 0.55 then
              t.sk:set_pose(bone, c)
            else
              for _, solver in ipairs(t.solvers) do solver:set_target(a, b) end
              t.sk:solve()
            end
          end
          local x, y = twins[1].core, twins[2].core
          for _, field in ipairs(fields) do
            for k = 1, #x[field] do
              assert(same(x[field][k], y[field][k]), format("%s[%d]: %s ~= %s", field, k,
                bits(x[field][k]), bits(y[field][k])))
            end
          end
        end
      end
    end)
    skm.place, skm.place_path = chosen, chosen_path
    assert(ok, err)
    assert.is_true(placed > 1000)
    assert.is_true(generals > 10)
  end)

  it("on_limit's test without the angle agrees with the angle's, at the edges too", function()
    -- pose.on_limit leaves out atan2 for rotations far inside the edge;
    -- here every rotation's answer against |atan2| >= half - ON_LIMIT
    local limits = require "ik2d.pure.constraint"
    local N = require "ik2d.pure.numbers"
    local checked, near, on = 0, 0, 0
    for _ = 1, helpers.size(3000, 12000) do
      local lo = between(-3.5, 3)
      local hi = math.min(lo + between(0, 4), 6)
      local limit = assert(limits.new({ min = lo, max = hi, invert = rnd() < 0.2, space = "parent" }))
      if not limit.full then
        local rest = between(-3, 3)
        local c0, s0 = m.rot(rest)
        -- the middle as the solve makes it: rest rotation times the arc's
        local mc = c0 * limit.mid_c - s0 * limit.mid_s
        local ms = c0 * limit.mid_s + s0 * limit.mid_c
        -- angles at, just inside and just outside the edge, and anywhere
        local offset
        local r = rnd()
        if r < 0.6 then
          offset = (rnd() < 0.5 and -1 or 1) * (limit.half - N.ON_LIMIT + 10 ^ between(-16, -6) *
            (rnd() < 0.5 and -1 or 1))
          near = near + 1
        else
          offset = between(-3.2, 3.2)
        end
        local a = rest + limit.mid + offset
        local c, s = m.rot(a)
        -- off unit length as far as a solve leaves rotations
        local scale = 1 + between(-0.5e-14, 0.5e-14)
        c, s = c * scale, s * scale
        local P = { rc = { c }, rs = { s }, count = 1, chain = { constraint = { limit } },
                    mid_c = { mc }, mid_s = { ms } }
        local rel_c, rel_s = mc * c + ms * s, mc * s - ms * c
        local want = math.abs(m.atan2(rel_s, rel_c)) >= limit.half - N.ON_LIMIT
        assert.are.equal(want, pose.on_limit(P), format("half %s, offset %s", bits(limit.half),
          bits(offset)))
        checked = checked + 1
        if want then on = on + 1 end
      end
    end
    assert.is_true(checked > 2000 and near > 1000 and on > 500 and checked - on > 500)
  end)

  it("a loop kernel leaves a limited chain to the general path, changing nothing", function()
    local chain = L.chain { { length = 1, min = -1, max = 1 }, { length = 1 } }
    local solver = L.solver(chain, { exact = false, sweep = "tip" })
    solver:set_target(1, 1)
    local sv, ch = O.objects.Solver[solver], O.objects.Chain[chain]
    local before = {}
    for k = 1, 6 do before[k] = ch.joints[k] end
    assert.is_false(kernel.loop("tip")(sv, ch, sv.settings, 1.0, pose.new(2)))
    assert.is_false(sv.have_solution)
    for k = 1, 6 do assert.are.equal(before[k], ch.joints[k]) end
  end)
end)
