-- The coupled solve of effectors sharing bones over frames:
-- a warm-started solve that stalls in a local minimum escapes it by
-- itself, and `limited` says when a joint of a
-- solver's chain ends on its limit.

local ik2d = require "ik2d"
local helpers = require "spec.helpers"

local pi, abs, sqrt, sin, floor = math.pi, math.abs, math.sqrt, math.sin, math.floor

-- A rifleman: a torso of 2 bones and two 2-bone arms from the chest, with
-- limits, both hands on one rifle (the issue's rig).
local function rifleman(x, y, options)
  local sk = ik2d.skeleton{ x = x, y = y,
    { name = "hip", length = 0 },
    { name = "spine", parent = "hip", length = 32, angle = -pi / 2, min = -0.7, max = 0.5 },
    { name = "chest", parent = "spine", length = 28, min = -0.5, max = 0.35 },
    { name = "upper_b", parent = "chest", length = 26, x = 24, y = 0, angle = 2.77, min = -2.9, max = 1.2 },
    { name = "fore_b", parent = "upper_b", length = 26, min = -2.6, max = 0 },
    { name = "upper_f", parent = "chest", length = 26, x = 24, y = 0, angle = 2.77, min = -2.9, max = 1.2 },
    { name = "fore_f", parent = "upper_f", length = 26, min = -2.6, max = 0 } }
  local o = options or { iterations = 20 }
  return sk, ik2d.solver(sk:chain("spine", "fore_b"), o), ik2d.solver(sk:chain("spine", "fore_f"), o)
end

-- same bits: %.17g round-trips every double
local function bits(x) return ("%.17g"):format(x) end

describe("a coupled solve that stalls", function()
  -- 40 frames recorded from a game: hip x, y, back hand's target x, y,
  -- front hand's x, y.  From frame 9 the warm start held the back hand
  -- 13.4 px off its grip for good, the spine on its limit: both starts
  -- the solve tried were the warm one, though a cold solve (or forget()
  -- on both solvers) reaches both hands.
  local recorded = {
    { 344.03499920602394, 357.88598405381151, 122.00378069562933, 106.95959011509036,
      387.3093302493433, 320.44445506206853 },
    { 344.06999364832103, 357.98076152367628, 202.44555465235641, 177.503994019446,
      387.55911144817009, 319.49364927753322 },
    { 344.10497856381301, 358.07526731626092, 255.48796184778632, 224.0419350407916,
      387.74653282962373, 318.69893044272237 },
    { 344.13994919071808, 358.16935597794833, 290.46758836343577, 254.75369820099647,
      387.890149193051, 318.03272236248773 },
    { 344.17490076919933, 358.26288279598288, 313.53948946964545, 275.0320104408695,
      388.00268822051316, 317.47272636837761 },
    { 344.20982854201259, 358.35570404710836, 328.76132606067779, 288.4319274923223,
      388.09297993418517, 317.00093803911994 },
    { 344.2447277551538, 358.44767724447763, 338.80807144163458, 297.29703798272971,
      388.1672195430769, 316.60278401716312 },
    { 344.27959365850614, 358.53866138240312, 345.44317508129382, 303.17228270672371,
      388.22980026698821, 316.26641255350347 },
    { 344.31442150648667, 358.62851717852612, 349.82917290167734, 307.07610194561107,
      388.28386823350019, 315.98212822927161 },
    { 344.34920655869195, 358.71710731298327, 352.73245420131263, 309.67984611923185,
      388.33169647278089, 315.74194805746703 },
    { 344.38394408054364, 358.80429666415642, 354.65825233098798, 311.42605065748933,
      388.37494000250166, 315.53925490045054 },
    { 344.41862934393271, 358.88995254059643, 355.93963603212774, 312.60640768022438,
      388.41481187469594, 315.36852707098342 },
    { 344.45325762786291, 358.97394490871892, 356.79617614300503, 313.41316817418317,
      388.45220606951096, 315.22512690516822 },
    { 344.48782421909351, 359.05614661587737, 357.37262107533559, 313.97302847256913,
      388.48778422171603, 315.10513478841045 },
    { 344.52232441278079, 359.13643360842673, 357.76439326005988, 314.36946967348553,
      388.5220374533838, 315.00521820737799 },
    { 344.55675351311822, 359.2146851443984, 358.03439744054623, 314.65748476469861,
      388.55533088135076, 314.92252785428178 },
    { 344.59110683397597, 359.29078400041999, 358.22410138261284, 314.87328741315758,
      388.58793593881961, 314.85461470438304 },
    { 344.62537969953831, 359.36461667251865, 358.36084072900258, 315.04071246194155,
      388.62005403970278, 314.799363430619 },
    { 344.65956744494036, 359.43607357046187, 358.46263465646786, 315.17543546412418,
      388.65183403430274, 314.75493861128103 },
    { 344.69366541690289, 359.50504920529727, 358.54136055279798, 315.28775443484358,
      388.68338517285815, 314.71974101148595 },
    { 344.72766897436571, 359.57144236976785, 358.60484689311977, 315.38442375676811,
      388.71478679199413, 314.69237184263659 },
    { 344.76157348911931, 359.63515631128826, 358.65825294920342, 315.46986322403461,
      388.74609559206215, 314.67160337650319 },
    { 344.79537434643487, 359.69609889718396, 358.70497835011003, 315.54695514944314,
      388.77735113083224, 314.65635464985365 },
    { 344.82906694569232, 359.75418277190562, 358.74726270173994, 315.61756990347851,
      388.80857998793715, 314.6456712699935 },
    { 344.86264670100661, 359.80932550594713, 358.78658088061502, 315.68291242173126,
      388.83979893273408, 314.63870854218953 },
    { 344.89610904185167, 359.86144973620861, 358.82390362781331, 315.74375068449825,
      388.87101734089129, 314.63471730239712 },
    { 344.92944941368279, 359.91048329756211, 358.85986934329117, 315.80056638465095,
      388.90223904181107, 314.6330319646471 },
    { 344.96266327855648, 359.95635934539104, 358.89489733989137, 315.85365429577195,
      388.93346373293576, 314.63306039058921 },
    { 344.99574611574786, 359.9990164688918, 358.9292625051973, 315.90318781827693,
      388.96468806316955, 314.63427526556131 },
    { 345.02869342236636, 360.03839879494166, 358.96314452187045, 315.9492622254752,
      388.99590646265455, 314.6362067260784 },
    { 345.06150071396826, 360.07445608235184, 358.99666031590556, 315.99192320524725,
      389.027111777546, 314.63843603152162 },
    { 345.09416352516735, 360.10714380634477, 359.02988544804703, 316.03118570466518,
      389.05829575452373, 314.64059011089188 },
    { 345.12667741024251, 360.13642323310717, 359.06286821608643, 316.0670463785363,
      389.08944940930178, 314.64233684591591 },
    { 345.15903794374293, 360.16226148429155, 359.09563895187648, 316.09949181796884,
      389.12056330548319, 314.64338097622112 },
    { 345.19124072109031, 360.18463159135445, 359.12821615050552, 316.12850399349259,
      389.1516277640809, 314.64346053199677 },
    { 345.22328135917871, 360.20351253963696, 359.16061051110285, 316.15406385840635,
      389.18263301942989, 314.64234371551714 },
    { 345.25515549697064, 360.21888930211207, 359.19282760090488, 316.17615373575046,
      389.21356933368497, 314.63982616589385 },
    { 345.28685879609105, 360.23075286274138, 359.22486961171802, 316.19475889985551,
      389.24442707938584, 314.63572855203955 },
    { 345.31838694141754, 360.23910022939936, 359.25673651805175, 316.20986862336696,
      389.27519679746899, 314.62989444753703 },
    { 345.34973564166802, 360.24393443634551, 359.28842684080712, 316.22147686832926,
      389.30586923648031, 314.62218844829476 },
  }

  local function replay(sk, back, front, frame)
    local f = recorded[frame]
    sk:set_base(f[1], f[2], 0)
    back:set_target(f[3], f[4])
    front:set_target(f[5], f[6])
    sk:solve()
    return (back:result()), (front:result())
  end

  it("replays the rifleman's recorded frames and reaches both hands after them", function()
    local sk, back, front = rifleman(recorded[1][1], recorded[1][2])
    local unreached, run, longest = 0, 0, 0
    for frame = 1, #recorded do
      local a, b = replay(sk, back, front, frame)
      if frame > 4 then                  -- (the first frames close in from afar)
        if a and b then run = 0 else run, unreached = run + 1, unreached + 1 end
        if run > longest then longest = run end
      end
    end
    -- then 5 s more with the last targets
    for _ = 1, 300 do
      sk:solve()
      assert.is_true((back:result()), "the back hand stays off its grip")
      assert.is_true((front:result()))
    end
    assert.is_true(longest <= 2, ("a run of %d frames unreached"):format(longest))
    assert.is_true(unreached <= 2, ("%d frames unreached"):format(unreached))
    local _, distance = back:result()
    assert.is_true(distance <= 0.01, distance)
  end)

  it("forget() on both solvers starts afresh: the bits of a new rig's cold solve", function()
    local sk, back, front = rifleman(recorded[1][1], recorded[1][2])
    for frame = 1, 12 do replay(sk, back, front, frame) end
    local last = recorded[12]
    back:forget()
    front:forget()
    sk:reset()
    sk:solve()
    local sk2, back2, front2 = rifleman(last[1], last[2])
    back2:set_target(last[3], last[4])
    front2:set_target(last[5], last[6])
    sk2:solve()
    for _, pair in ipairs{ { back, back2 }, { front, front2 } } do
      local r1, r2 = { pair[1]:result() }, { pair[2]:result() }
      assert.are.same({ r2[1], bits(r2[2]), r2[3], r2[4] }, { r1[1], bits(r1[2]), r1[3], r1[4] })
    end
    local t1, t2 = sk:transforms(), sk2:transforms()
    for i = 1, #t1 do assert.are.equal(bits(t2[i]), bits(t1[i])) end
  end)

  -- Random reachable two-hand rifle scenes: the hands' targets are those
  -- of a random pose within the limits whose hands are 18 to 40 px apart
  -- (a rifle's grips), each scene a run of segments of 10 to 59 frames,
  -- half of them jumping to their pose at once and half gliding to it,
  -- the hip swaying.  Counts the frames in runs of more than 10 in a row
  -- where the pair of hands stays unreached.  Seed 26, 200 scenes of 200
  -- frames: 366 such frames of 40000 (549 unreached, the longest run 92)
  -- when a coupled solve tried the warm start only; 0 (11 unreached, the
  -- longest run 2) with the cold and the scattered starts.  The first 25
  -- scenes (the pure core's share): 82 such frames before, 0 now.
  local function rifle_stress(seed, scenes, frames)
    local r = helpers.random(seed)
    local probe = rifleman(0, 0)
    local count = #probe
    local low, high = {}, {}
    for i = 2, count do low[i], high[i] = probe:constraint(i):limits() end
    local function hands(t)
      for i = 2, count do probe:set_pose(i, probe:rest(i) + t[i]) end
      local bx, by = probe:tip("fore_b")
      local fx, fy = probe:tip("fore_f")
      return bx, by, fx, fy
    end
    local function rifle_pose()
      while true do
        local t = {}
        for i = 2, count do t[i] = r.range(low[i], high[i]) end
        local bx, by, fx, fy = hands(t)
        local d = sqrt((bx - fx) ^ 2 + (by - fy) ^ 2)
        if d >= 18 and d <= 40 then return t end
      end
    end
    local total, unreached, stuck, longest = 0, 0, 0, 0
    local t = {}
    for _ = 1, scenes do
      local hx, hy = r.range(300, 400), r.range(300, 350)
      local sk, back, front = rifleman(hx, hy)
      local from, to = rifle_pose(), nil
      local length, at, run = 0, 0, 0
      for frame = 1, frames do
        if at >= length then
          to = rifle_pose()
          length, at = 10 + floor(50 * r.next()), 0
          if r.next() < 0.5 then from = to end      -- a jump
        end
        at = at + 1
        for i = 2, count do t[i] = from[i] + (to[i] - from[i]) * at / length end
        local bx, by, fx, fy = hands(t)
        local x, y = hx + 5 * sin(frame * 0.05), hy + 3 * sin(frame * 0.07)
        sk:set_base(x, y, 0)
        back:set_target(x + bx, y + by)
        front:set_target(x + fx, y + fy)
        sk:solve()
        total = total + 1
        if back:result() and front:result() then
          run = 0
        else
          run, unreached = run + 1, unreached + 1
        end
        if run > 10 then stuck = stuck + 1 end
        if run > longest then longest = run end
        if at == length then from = to end
      end
    end
    return stuck, total, unreached, longest
  end

  it("escapes by itself: random rifle scenes with jumping targets", function()
    -- (the pure core is slower: fewer scenes, the same kind; IK2D_LONG=1
    -- runs more)
    local scenes = helpers.pure_pass and helpers.size(10, 25) or helpers.size(50, 200)
    local stuck, total, unreached, longest = rifle_stress(26, scenes, 200)
    local say = ("%d of %d frames in runs unreached for more than 10 frames (%d unreached, the "
                 .. "longest run %d)"):format(stuck, total, unreached, longest)
    assert.is_true(stuck <= total * 0.0005, say)
    assert.is_true(longest <= 20, say)
  end)
end)

describe("limited after a coupled solve", function()
  -- whether a bone of names ends on its limit: 1 on one, 0 when all are
  -- far from theirs, nil between (where this measure and the core's may
  -- disagree)
  local function on_limit(sk, names)
    local near = false
    for _, name in ipairs(names) do
      local c = sk:constraint(name)
      local min, max = c:limits()
      local d = sk:angle(name) - sk:rest(name)
      local off = math.min(abs(d - min), abs(d - max))
      if off <= 1e-12 then return 1 end
      if off < 1e-6 then near = true end
    end
    if near then return nil end
    return 0
  end
  local back_bones = { "spine", "chest", "upper_b", "fore_b" }
  local front_bones = { "spine", "chest", "upper_f", "fore_f" }

  it("is true when a joint of the chain ends on its limit, for each solver", function()
    local sk, back, front = rifleman(340, 360)
    -- far behind the back: the spine and the back arm lean to their limits
    back:set_target(100, 250)
    front:set_target(120, 260)
    sk:solve()
    assert.are.equal(1, on_limit(sk, back_bones))
    assert.is_true(select(4, back:result()))
    assert.is_true(select(4, front:result()))
  end)

  it("is false when every joint ends inside its limits", function()
    local sk, back, front = rifleman(340, 360)
    -- a pose inside the limits, each hand's target a px from its tip
    sk:set_pose("spine", sk:rest("spine") + 0.2)
    sk:set_pose("upper_b", sk:rest("upper_b") - 0.6)
    sk:set_pose("fore_b", sk:rest("fore_b") - 1.2)
    sk:set_pose("upper_f", sk:rest("upper_f") - 0.4)
    sk:set_pose("fore_f", sk:rest("fore_f") - 1.0)
    local bx, by = sk:tip("fore_b")
    local fx, fy = sk:tip("fore_f")
    back:set_target(bx + 1, by - 1)
    front:set_target(fx - 1, fy + 1)
    sk:solve()
    assert.is_true((back:result()))
    assert.are.equal(0, on_limit(sk, back_bones))
    assert.are.equal(0, on_limit(sk, front_bones))
    assert.is_false(select(4, back:result()))
    assert.is_false(select(4, front:result()))
  end)

  it("says what the joints show, frame after frame, and false at weight 0", function()
    local r = helpers.random(7)
    local sk, back, front = rifleman(340, 360)
    local checked = { [true] = 0, [false] = 0 }
    local frames = helpers.size(100, 400)
    for frame = 1, frames do
      back:set_target(340 + r.range(-90, 90), 330 + r.range(-110, 70))
      front:set_target(340 + r.range(-90, 90), 330 + r.range(-110, 70))
      if frame % 50 == 0 then front:set_weight(0) elseif frame % 50 == 1 then front:set_weight(1) end
      sk:solve()
      for _, s in ipairs{ { back, back_bones }, { front, front_bones } } do
        local limited = select(4, s[1]:result())
        local weight = s[1]:weight()
        local on = on_limit(sk, s[2])
        if weight == 0 then
          assert.is_false(limited)
        elseif on ~= nil then
          assert.are.equal(on == 1, limited, "frame " .. frame)
          checked[limited] = checked[limited] + 1
        end
      end
    end
    assert.is_true(checked[true] > frames / 8 and checked[false] > frames / 8)
  end)
end)
