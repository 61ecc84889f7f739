-- Skeletons and the collector: chains and solvers made on a skeleton are
-- in its C lists without being anchored by it, and unlink themselves when
-- they go; the skeleton lives as long as one of them.  Every method with a
-- collector step between calls; objects dying in every order; __gc called
-- by hand in every order, then every method (an error, never a crash);
-- lua_close in a child interpreter.  Under `make test-asan` and
-- `make test-valgrind` a use after free here is a sanitizer error.

local ik2d = require "ik2d"
local helpers = require "spec.helpers"

local unpack = table.unpack or unpack

local function step() collectgarbage("step", 0) end

local function full()
  collectgarbage()
  collectgarbage()
end

local function finite(x) return type(x) == "number" and x == x and x > -math.huge and x < math.huge end

local BONES = [[
  { name = "hip", length = 0 },
  { name = "spine", parent = "hip", length = 40, angle = -1.57, min = -0.6, max = 0.6 },
  { name = "chest", parent = "spine", length = 30 },
  { name = "arm_l", parent = "chest", length = 30, angle = 2.0, min = -1, max = 2 },
  { name = "hand_l", parent = "arm_l", length = 25 },
  { name = "arm_r", parent = "chest", length = 30, angle = -2.0, min = -2, max = 1 },
  { name = "hand_r", parent = "arm_r", length = 25 },
]]

local make = assert((loadstring or load)(("local ik2d = ...\nreturn ik2d.skeleton{ x = 400, y = 300,\n%s}")
  :format(BONES)))

local function skeleton() return make(ik2d) end

-- every bone finite, its tip its length along its x axis (as scaled)
local function assert_whole(sk)
  for i = 1, #sk do
    local x, y, a = sk:world(i)
    local tx, ty = sk:tip(i)
    local ma, _, mc = sk:matrix(i)
    local reach = sk:length(i) * math.sqrt(ma * ma + mc * mc)
    assert(finite(x) and finite(y) and finite(a) and finite(tx) and finite(ty), "bone " .. i)
    assert(math.abs(helpers.distance(x, y, tx, ty) - reach) <= 1e-9 * (1 + reach))
  end
end

describe("skeletons and the collector", function()
  it("keeps a skeleton alive through its chain, and its chain through its solver", function()
    local function solver_only()
      local sk = skeleton()
      return ik2d.solver(sk:chain("spine", "hand_l"), { iterations = 20 })
    end
    local s = solver_only()
    full()
    s:set_target(430, 240)
    assert.is_true((s:solve()))
    local chain = s:chain()
    assert.near(0, helpers.tip_distance(chain, 430, 240), 0.01)
  end)

  it("forgets chains and solvers that went: sk:solve and sk:solvers go on without them", function()
    local sk = skeleton()
    local keep = ik2d.solver(sk:chain("arm_l", "hand_l"))
    for round = 1, 20 do
      local gone = ik2d.solver(sk:chain("spine", "hand_r"), { together = round % 2 == 0 })
      gone:set_target(360, 250)
      local _ = sk:chain("chest", "hand_r")                      -- a chain with no solver
      if round % 3 == 0 then full() else step() end
      keep:set_target(440, 250 + round)
      sk:solve()
      assert_whole(sk)
    end
    full()
    assert.are.same({ keep }, sk:solvers())
    keep:set_target(440, 250)
    assert.are.equal(1, sk:solve())
  end)

  it("runs every method with a collector step between every two calls", function()
    collectgarbage("setpause", 0)
    for _ = 1, 10 do
      local sk = skeleton()
      step()
      local chain = sk:chain("spine", "hand_l")
      step()
      local s = ik2d.solver(chain, { iterations = 10 })
      step()
      local other = ik2d.solver(sk:chain("chest", "hand_r"))
      step()
      local calls = {
        function() sk:set_base(401, 300, 0.1) end, function() sk:base() end,
        function() sk:set_flip(true) end, function() sk:flip() end, function() sk:set_flip(false) end,
        function() sk:set_pose("arm_l", 2.1) end, function() sk:pose(4) end,
        function() sk:angle("hand_l") end, function() sk:world("chest") end, function() sk:tip(5) end,
        function() sk:set_length("chest", 32) end, function() sk:length("chest") end,
        function() sk:set_rest("chest", 0.1) end, function() sk:rest("chest") end,
        function() sk:origin("hand_l") end, function() sk:inherit("hand_l") end,
        function() sk:parent("hand_l") end, function() sk:bone("arm_r") end, function() sk:name(2) end,
        function() sk:set_constraint("chest", ik2d.constraint{ min = -0.3, max = 0.3 }) end,
        function() sk:constraint("chest") end, function() chain:constraint(3) end,
        function() sk:transforms({}) end, function() sk:solvers({}) end,
        function() s:set_target(430, 240) end, function() other:set_target(360, 250) end,
        function() sk:solve() end, function() s:solve() end, function() sk:reset() end,
        function() chain:joints({}) end, function() return tostring(sk) .. #sk end,
        function() sk:set_scale(1, -1) end, function() sk:scale() end,
        function() sk:set_pose("arm_l", 2, 30, 0, 1.5, 1, 0.1, 0) end, function() sk:result(4) end,
        function() sk:setup(4) end, function() sk:matrix("arm_l") end, function() sk:matrices({}) end,
        function()
          sk:set_order{ s, ik2d.transform_constraint(sk, { bones = { "hand_r" }, target = "chest" }) }
        end,
        function() sk:order({}) end, function() sk:constraints()[1]:apply() end,
        function() sk:constraints()[1]:set_options{ mix_rotate = 0.5 } end,
        function() assert(sk:constraints()[1]:skeleton() == sk) end,
        function() sk:constraints()[1]:options({}) end, function() sk:solve() end,
      }
      if ik2d.ffi or (helpers.is_luajit and ik2d.backend == "lua") then
        calls[#calls + 1] = function() assert(sk:transform_array()[0] == (sk:world(1))) end
      end
      for _, call in ipairs(calls) do
        call()
        step()
      end
      assert_whole(sk)
    end
    collectgarbage("setpause", 200)
  end)

  describe("lua_close and __gc by hand, in a child interpreter", function()
    local prelude = ([[
      local ik2d = require "ik2d"
      local function objects()
        local o = { sk = ik2d.skeleton{ x = 400, y = 300, %s } }
        o.chain = o.sk:chain("spine", "hand_l")
        o.s = ik2d.solver(o.chain)
        o.s2 = ik2d.solver(o.sk:chain("spine", "hand_r"))
        o.s:set_target(430, 240)
        o.tc = ik2d.transform_constraint(o.sk, { bones = { "hand_r" }, target = "chest",
                                                 mix_rotate = 0.5 })
        o.sk:set_order{ o.s, o.tc }
        o.sk:solve()
        return o
      end
      local function poke(o)
        local calls = {
          function() return o.sk:solve() end, function() return o.sk:transforms({}) end,
          function() return o.sk:set_pose(2, -1.5) end, function() return o.sk:chain("chest", "hand_r") end,
          function() return o.sk:solvers() end, function() return #o.sk end,
          function() return o.chain:tip() end, function() return o.chain:constraint(2) end,
          function() return o.s:solve() end, function() return o.s2:solve() end,
          function() return o.s:set_target(1, 1) end, function() return tostring(o.sk) end,
          function() return o.tc:apply() end, function() return o.tc:options() end,
          function() return o.tc:set_options{ mix_x = 0.5 } end, function() return o.tc:skeleton() end,
          function() return tostring(o.tc) end, function() return o.sk:order() end,
          function() return o.sk:constraints() end, function() return o.sk:matrices({}) end,
          function() return o.sk:matrix(2) end,
        }
        for i, call in ipairs(calls) do
          local ok, err = pcall(call)
          if not ok and not tostring(err):find("collected", 1, true) then
            io.write("unexpected error from call ", i, ": ", tostring(err), "\n")
          end
        end
      end
    ]]):format(BONES)

    local function run(source, env)
      local ok, out, code = helpers.run_lua(prelude .. source, env)
      assert(ok, ("the child exited with %s:\n%s"):format(tostring(code), out))
      assert(out:find("done", 1, true), "the child did not finish:\n" .. out)
      assert(not out:find("unexpected error", 1, true), out)
    end

    local envs = { "" }
    if helpers.is_luajit then envs = { "", "IK2D_NO_FFI=1" } end
    for _, env in ipairs(envs) do
      it((env ~= "" and "classic methods: " or "") .. "objects left in globals exit cleanly", function()
        run([[ keep = objects() print("done") ]], env)
      end)

      it((env ~= "" and "classic methods: " or "") .. "__gc by hand in every order, then every method", function()
        local names = { '"sk"', '"chain"', '"s"', '"s2"', '"tc"' }
        local orders = {}
        local function walk(prefix, rest)
          if #rest == 0 then orders[#orders + 1] = prefix return end
          for i = 1, #rest do
            local p, r = { unpack(prefix) }, { unpack(rest) }
            p[#p + 1] = table.remove(r, i)
            walk(p, r)
          end
        end
        walk({}, names)
        local script = { "local orders = {" }
        for _, order in ipairs(orders) do script[#script + 1] = "{ " .. table.concat(order, ", ") .. " }," end
        script[#script + 1] = [[ }
          for _, order in ipairs(orders) do
            local o = objects()
            for _, name in ipairs(order) do
              debug.getmetatable(o[name]).__gc(o[name])
              poke(o)
            end
            collectgarbage()
            poke(o)
          end
          print("done") ]]
        run(table.concat(script, "\n"), env)
      end)
    end
  end)
end)
