--- ik2d.pure.follow: follow the leader (src/ik2d_follow.c): a chain with
-- no fixed base.  The tip goes onto the target and each joint, tip to
-- base, is dragged after the joint ahead of it; limits are kept on the
-- way (the bone ahead's local angle, a world-space limit's direction),
-- then once more root to tip; the base ends one chain behind the tip.
local pose = require "ik2d.pure.pose"
local limits = require "ik2d.pure.constraint"
local m = require "ik2d.pure.math"

local sqrt, abs = math.sqrt, math.abs
local fmax = m.fmax
local clamp_rot = limits.clamp_rot

local M = {}

local function finite(x) return x - x == 0 end

-- The unit direction from (x0, y0) to (x1, y1), or (c, s) when the
-- points coincide: scaled before squaring, from halves when the
-- difference overflows.
local function direction(x0, y0, x1, y1, c, s)
  local dx, dy = x1 - x0, y1 - y0
  if not finite(dx) or not finite(dy) then
    dx = 0.5 * x1 - 0.5 * x0
    dy = 0.5 * y1 - 0.5 * y0
  end
  local big = fmax(abs(dx), abs(dy))
  if not (big > 0.0) or not finite(big) then return c, s end
  dx = dx / big
  dy = dy / big
  local norm = sqrt(dx * dx + dy * dy)
  return dx / norm, dy / norm
end

-- is bone i's limit a world-space one?
local function world_limited(P, i)
  local limit = P.chain.constraint[i]
  return limit and not limit.full and limit.world
end

--- Puts the pose's base one chain behind the target along the rotations
-- as they are; false, nothing changed, when that base is beyond the
-- largest double (here or mirrored back into world space).
function M.place(P)
  local jx, jy = P.jx, P.jy
  pose.forward(P)
  local n1 = P.count + 1
  local x = P.base_x + (P.target_x - jx[n1])
  local y = P.base_y + (P.target_y - jy[n1])
  P.fresh = false
  if not finite(x) or not finite(y) or (P.chain.flip and not finite(2.0 * P.chain.base_x - x)) then
    return false
  end
  P.base_x, P.base_y = x, y
  return true
end

--- Drags pose P's start rotations after the target and moves the pose's
-- base where the drag leaves it; returns the iterations used (1).  The
-- start is kept in P.run_c, run_s, the bones' directions in P.dir_c, dir_s.
function M.run(P)
  local rc, rs, jx, jy, mid_c, mid_s = P.rc, P.rs, P.jx, P.jy, P.mid_c, P.mid_s
  local start_c, start_s, dir_c, dir_s = P.run_c, P.run_s, P.dir_c, P.dir_s
  local ch = P.chain
  local length, constraint = ch.length, ch.constraint
  local x, y = P.target_x, P.target_y
  local n = P.count
  pose.save(P, start_c, start_s)
  pose.forward(P)
  -- each bone's direction now: where it points when its joints coincide
  local wc, ws = P.base_c, P.base_s
  for i = 1, n do
    local c, s = rc[i], rs[i]
    wc, ws = wc * c - ws * s, wc * s + ws * c
    dir_c[i], dir_s[i] = wc, ws
  end
  -- the drag, tip to base: (x, y) is where the joint ahead went
  for i = n, 1, -1 do
    dir_c[i], dir_s[i] = direction(jx[i], jy[i], x, y, dir_c[i], dir_s[i])
    if world_limited(P, i) then
      local _, c, s = clamp_rot(constraint[i], mid_c[i], mid_s[i], dir_c[i], dir_s[i])
      dir_c[i], dir_s[i] = c, s
    end
    if i + 1 <= n and not world_limited(P, i + 1) then
      local ac, as, bc, bs = dir_c[i], dir_s[i], dir_c[i + 1], dir_s[i + 1]
      rc[i + 1], rs[i + 1] = ac * bc + as * bs, ac * bs - as * bc
      if pose.clamp(P, i + 1) then
        local c, s = rc[i + 1], -rs[i + 1]
        dir_c[i], dir_s[i] = bc * c - bs * s, bc * s + bs * c
      end
    end
    x = x - length[i] * dir_c[i]
    y = y - length[i] * dir_s[i]
  end
  -- the rotations as dragged, then every limit root to tip
  local pc, ps = P.base_c, P.base_s
  for i = 1, n do
    local c, s = dir_c[i], dir_s[i]
    rc[i], rs[i] = pc * c + ps * s, pc * s - ps * c
    pc, ps = c, s
  end
  for i = 1, n do pose.clamp(P, i) end
  if not M.place(P) then pose.load(P, start_c, start_s) end
  return 1
end

return M
