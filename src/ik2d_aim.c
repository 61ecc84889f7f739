/*
** ik2d_aim.c: aiming a held object (a gun's barrel, a torch, a line of
** sight): a ray fixed to the last bone, its origin p and unit direction u
** in the bone's space (x along the bone from the last joint), turned so
** that it passes through the target T instead of putting the tip on T.
**
** The reduction to a tip target.  A point of the ray, V = p + s u with
** s >= 0, is fixed in the last bone.  Take the segment from the last
** joint to V as the last bone: its length |V|, its direction the bone's
** turned by delta = atan2(V).  A solve that puts that virtual tip on T
** puts the ray's point at s on T: the ray passes through T, exactly.  So
** every method that puts a tip on a target aims (CCD with its exact step,
** FABRIK, two_bone's closed form, the bend toward a pole, which keeps the
** tip), and only s is left to choose, once per solve, from the pose the
** solve starts from.
**
** Choosing s.  Seen from the last joint J, the ray's line lies at the
** distance |h| = |cross(u, p)|; its point nearest J has s_F = -p.u.  The
** points of the ray (s >= 0) are thus at every distance m >= m_min from J,
** m_min = |h| when s_F >= 0 (the foot of the perpendicular is on the ray)
** and |p| (the origin) otherwise; at distance m, s = s_F +- w with w =
** sqrt(m^2 - h^2): the ray meets the circle of radius m around J there.
** CCD's turn of the last joint alone (the turn theta with R(-theta)(T - J)
** on the line p + s u, on the circle of radius r = |T - J|) solves when
** r >= m_min; so m = r when it can: the virtual tip is the point of the
** ray at the target's distance from J, and turning the last joint alone
** puts it on T (the other joints move only where limits or the method
** ask).  When r < m_min the target is too close to J for any turn of J to
** aim: the earlier bones must move J away, to a distance m >= m_min from
** T that they can give.  Bones 0..n-2 (lengths summing to S, the longest
** L) put J anywhere in the ring lo <= |J - B| <= S around the base B, lo
** = max(0, 2 L - S); with d = |T - B|, a point of that ring lies at
** distance m from T when max(lo - d, d - S) <= m <= d + S.  So m is r
** clamped into [max(m_min, lo - d, d - S), d + S] (r itself always lies in
** the ring's range: J is in the ring); an empty range is a target no pose
** aims at, and m its lower end.  Of the two points of the ray at distance
** m (both ahead of the origin only when it lies beyond the circle), the
** one nearer the target's direction from J now: the smaller turn.
**
** Limits: the virtual bone's rotation is the bone's times R(delta), so its
** limits are the bone's turned by delta (its rest angle plus delta, the
** middle of its arc times R(delta)); a limit the methods meet is the
** bone's own.  A limit can hold the method off the point it was given
** where another point of the ray is in reach: then the iterations left go
** to aim turns, CCD's sweep with each joint turned so that the ray from it
** passes through the target (aim_joint_turn), while they gain.  Measured
** on random chains of 1 to 6 bones, half of their bones limited, with
** targets on the ray of a random allowed pose, from another: the method
** alone aimed 77% (two_bone) to 86-90% (CCD, FABRIK) of them within 1e-6,
** with the aim turns 99.6% to 100%; without limits every method aims
** every one.
*/
#include <math.h>
#include <stddef.h>

#include "ik2d_aim.h"
#include "ik2d_constraint.h"
#include "ik2d_numbers.h"

/* The target's distance from the ray from (ox, oy) along unit u: from
** its line for a target ahead of the origin, else from the origin. */
static double aim_distance(double ox, double oy, ik2d_rot u, double tx, double ty) {
  double dx = tx - ox, dy = ty - oy;
  double cross;
  /* an origin beyond the doubles (an offset of 1e308 turned) is no ray */
  if (!isfinite(ox) || !isfinite(oy)) return HUGE_VAL;
  if (!(dx * u.c + dy * u.s > 0.0)) return ik2d_hypot(dx, dy);
  cross = fabs(u.c * dy - u.s * dx);
  /* the products overflow only for a target near the largest doubles:
  ** its distance from the origin bounds it */
  return isfinite(cross) ? cross : ik2d_hypot(dx, dy);
}

double ik2d_aim_chain_distance(const ik2d_chain *chain, const ik2d_aim_def *aim,
                               double target_x, double target_y) {
  int last = chain->count - 1, i;
  double world = chain->base_angle, jx, jy, ox, oy;
  ik2d_rot w, u;
  /* the last bone's direction as ik2d__chain_update_joints draws it, in
  ** chain space (a flipped chain's ray is the mirror image of this) */
  for (i = 0; i <= last; i++) world = ik2d_wrap(world + chain->angle[i]);
  w = ik2d_rot_angle(world);
  jx = chain->joints[2 * last];
  jy = chain->joints[2 * last + 1];
  if (chain->flip) {
    jx = 2.0 * chain->base_x - jx;
    target_x = 2.0 * chain->base_x - target_x;
  }
  ox = jx + w.c * aim->x - w.s * aim->y;
  oy = jy + w.s * aim->x + w.c * aim->y;
  u = ik2d_rot_mul(w, ik2d_rot_angle(aim->angle));
  return aim_distance(ox, oy, u, target_x, target_y);
}

/* The virtual last bone: its length, its turn from the bone (as an angle
** and a rotation), and the reach of the bones before it. */
typedef struct aim_bone {
  double length, angle, first_reach;
  ik2d_rot turn;
} aim_bone;

/* The virtual bone for the pose as it starts (the header's "Choosing s");
** false when it is beyond the doubles. */
static bool aim_bone_of(ik2d_pose *pose, const ik2d_aim_def *aim, aim_bone *bone) {
  const ik2d_chain *chain = pose->chain;
  int last = pose->count - 1, i;
  ik2d_rot u = ik2d_rot_angle(aim->angle), w;
  double sum = 0.0, longest = 0.0, low, d, r, dx, dy, tx, ty;
  double along, h, m_min, lower, upper, m, width, vx, vy, length;
  for (i = 0; i < last; i++) {
    sum += chain->length[i];
    if (chain->length[i] > longest) longest = chain->length[i];
  }
  low = 2.0 * longest - sum > 0.0 ? 2.0 * longest - sum : 0.0;
  ik2d_pose_forward(pose);
  w = ik2d_pose_world(pose, last);
  d = ik2d_hypot(pose->target_x - chain->base_x, pose->target_y - chain->base_y);
  dx = pose->target_x - pose->joint_x[last];
  dy = pose->target_y - pose->joint_y[last];
  r = ik2d_hypot(dx, dy);
  /* the target from the last joint, in the bone's space */
  tx = w.c * dx + w.s * dy;
  ty = w.c * dy - w.s * dx;
  along = -(aim->x * u.c + aim->y * u.s);   /* s_F */
  h = fabs(u.c * aim->y - u.s * aim->x);
  m_min = along >= 0.0 ? h : ik2d_hypot(aim->x, aim->y);
  lower = m_min;
  if (low - d > lower) lower = low - d;
  if (d - sum > lower) lower = d - sum;
  upper = d + sum;
  m = r < lower ? lower : r > upper ? upper : r;
  if (lower > upper) m = lower;
  width = m > h ? sqrt((m - h) * (m + h)) : 0.0;
  vx = aim->x + (along + width) * u.c;
  vy = aim->y + (along + width) * u.s;
  if (width > 0.0 && along - width >= 0.0) {
    double v2x = aim->x + (along - width) * u.c, v2y = aim->y + (along - width) * u.s;
    if (v2x * tx + v2y * ty > vx * tx + vy * ty) {
      vx = v2x;
      vy = v2y;
    }
  }
  length = ik2d_hypot(vx, vy);
  if (!isfinite(length) || !isfinite(sum + length)) return false;
  bone->length = length;
  bone->first_reach = sum;
  bone->angle = ik2d_atan2(vy, vx);
  bone->turn = length > 0.0 ? ik2d_rot_of(vx / length, vy / length) : ik2d_rot_of(1.0, 0.0);
  return true;
}

/* The method on the chain whose last bone is the virtual one; the last
** bone's rotation back after it.  Returns what run returns (0 when the
** virtual bone is beyond the doubles: nothing moves). */
static int aim_method(ik2d_pose *pose, const ik2d_aim_def *aim, int (*run)(ik2d_pose *pose)) {
  const ik2d_chain *chain = pose->chain;
  const ik2d_constraint *limit;
  ik2d_chain view;
  double length[IK2D_MAX_BONES], rest[IK2D_MAX_BONES], reach = pose->reach;
  ik2d_rot mid = ik2d_rot_of(1.0, 0.0);
  aim_bone bone;
  int last = pose->count - 1, i, used;
  bool limited;
  if (!aim_bone_of(pose, aim, &bone)) return 0;
  /* the chain the methods see: the last bone's length and rest angle the
  ** virtual bone's (they read the lengths, the rest angles, the limits
  ** and the base; the limits' middles are the pose's) */
  view = *chain;
  for (i = 0; i < last; i++) {
    length[i] = chain->length[i];
    rest[i] = chain->rest[i];
  }
  length[last] = bone.length;
  rest[last] = chain->rest[last] + bone.angle;
  view.length = length;
  view.rest = rest;
  view.reach = bone.first_reach + bone.length;
  limit = chain->constraint[last];
  limited = limit != NULL && !limit->full;
  if (limited) {
    mid = pose->limit_mid[last];
    pose->limit_mid[last] = ik2d_rot_mul(mid, bone.turn);
  }
  pose->chain = &view;
  pose->reach = view.reach;
  pose->rot[last] = ik2d_rot_mul(pose->rot[last], bone.turn);
  pose->fresh = false;
  used = run(pose);
  pose->rot[last] = ik2d_rot_inv_mul(bone.turn, pose->rot[last]);
  if (limited) pose->limit_mid[last] = mid;
  pose->chain = chain;
  pose->reach = reach;
  pose->fresh = false;
  return used;
}

/* The ray on the pose, chain space: its origin and direction (a forward
** pass). */
static void aim_ray(ik2d_pose *pose, const ik2d_aim_def *aim, double *ox, double *oy,
                    ik2d_rot *u) {
  int last = pose->count - 1;
  ik2d_rot w = ik2d_pose_world(pose, last);
  ik2d_pose_forward(pose);
  *ox = pose->joint_x[last] + w.c * aim->x - w.s * aim->y;
  *oy = pose->joint_y[last] + w.s * aim->x + w.c * aim->y;
  *u = ik2d_rot_mul(w, ik2d_rot_angle(aim->angle));
}

/* The target's distance from the ray on the pose. */
static double aim_pose_distance(ik2d_pose *pose, const ik2d_aim_def *aim) {
  double ox, oy;
  ik2d_rot u;
  aim_ray(pose, aim, &ox, &oy, &u);
  return aim_distance(ox, oy, u, pose->target_x, pose->target_y);
}

/* The turn of the joint at (jx, jy) that passes the ray (origin o, unit
** direction u) through the target: with p = o - J and t = T - J, the turn
** theta with R(-theta) t on the line p + s u, s >= 0.  R(-theta) t keeps
** the length r = |t|, so it is a point of the ray at distance r from J:
** p + s u with s = s_F +- sqrt(r^2 - h^2) (the header's "Choosing s"),
** there when r >= m_min; of two, the one nearer t (the smaller turn).  The
** turn takes that point Q onto t: (Q.t, cross(Q, t)) / |Q| |t|.  When r <
** m_min no turn aims; the best takes the ray's point nearest J toward t
** (the ray then misses T by m_min - r).  False when there is no turn
** (the target on the joint). */
static bool aim_joint_turn(double jx, double jy, double ox, double oy, ik2d_rot u, double tx,
                           double ty, ik2d_rot *turn) {
  double px = ox - jx, py = oy - jy, wx = tx - jx, wy = ty - jy;
  double along = -(px * u.c + py * u.s), h = fabs(u.c * py - u.s * px);
  double r = ik2d_hypot(wx, wy), m_min = along >= 0.0 ? h : ik2d_hypot(px, py);
  double s = along > 0.0 ? along : 0.0, qx, qy, dot, cross, norm;
  if (r >= m_min) {
    double width = r > h ? sqrt((r - h) * (r + h)) : 0.0;
    s = along + width;
    if (width > 0.0 && along - width >= 0.0) {
      double near_x = px + (along - width) * u.c, near_y = py + (along - width) * u.s;
      double far_x = px + s * u.c, far_y = py + s * u.s;
      if (near_x * wx + near_y * wy > far_x * wx + far_y * wy) s = along - width;
    }
  }
  qx = px + s * u.c;
  qy = py + s * u.s;
  dot = qx * wx + qy * wy;
  cross = qx * wy - qy * wx;
  norm = ik2d_hypot(dot, cross);
  if (!(norm > 0.0) || !isfinite(norm)) return false;
  *turn = ik2d_rot_of(dot / norm, cross / norm);
  return true;
}

/* A sweep of aim turns (CCD's, each joint by the turn that aims the ray
** from it, inside damping and limits), in the solver's sweep order;
** stops within tolerance.  Returns the target's distance from the ray. */
static double aim_sweep(ik2d_pose *pose, const ik2d_aim_def *aim, double tolerance) {
  int n = pose->count, k;
  double distance = HUGE_VAL;
  for (k = 0; k < n; k++) {
    int j = pose->settings->ccd.sweep == IK2D_SWEEP_TIP ? n - 1 - k : k;
    double ox, oy;
    ik2d_rot u, turn;
    aim_ray(pose, aim, &ox, &oy, &u);
    if (aim_joint_turn(pose->joint_x[j], pose->joint_y[j], ox, oy, u, pose->target_x,
                       pose->target_y, &turn)) {
      if (turn.c < pose->damping.c)
        turn = ik2d_rot_of(pose->damping.c, turn.s < 0.0 ? -pose->damping.s : pose->damping.s);
      pose->rot[j] = ik2d_rot_mul(pose->rot[j], turn);
      ik2d_pose_clamp(pose, j);
      /* a world-space limit below turned with this joint */
      if (pose->world_limits > j + 1) ik2d_pose_settle_world(pose, j + 1);
    }
    distance = aim_pose_distance(pose, aim);
    if (distance <= tolerance) break;
  }
  IK2D_STAT(pose->joint_updates += k < n ? k + 1 : n);
  pose->fresh = false;
  return distance;
}

/* How far the rotations rot are turned from from: the sum over the bones
** of 1 - cos of each turn (0 for none, growing with every turn). */
static double aim_turned(const ik2d_rot *from, const ik2d_rot *rot, int count) {
  double sum = 0.0;
  int i;
  for (i = 0; i < count; i++) sum += 1.0 - (from[i].c * rot[i].c + from[i].s * rot[i].s);
  return sum;
}

/* FABRIK aimed from the pose from (its start, the last solution as a
** rule), its result in the pose after used iterations.  The points of the
** ray that aim are a continuum, and FABRIK's pass from one of them can
** land far off the start when a limit holds it (a wrist at its limit:
** the whole arm thrown over in one frame for a target that moved a
** pixel).  Aim turns from the start (each joint turned so that the ray
** from it passes through the target) find an aiming pose near it: the
** one of the two turned less from the start is kept.  Returns the
** iterations used. */
static int aim_nearer(ik2d_pose *pose, const ik2d_aim_def *aim, const ik2d_rot *from, int used) {
  ik2d_rot found[IK2D_MAX_BONES];
  int budget = pose->iterations, k = used;
  double tolerance = pose->settings->tolerance, distance = HUGE_VAL, last = HUGE_VAL;
  ik2d_pose_save(pose, found);
  ik2d_pose_load(pose, from);
  while (k < budget) {
    distance = aim_sweep(pose, aim, tolerance);
    k++;
    if (distance <= tolerance || !(distance < last)) break;
    last = distance;
  }
  if (distance <= tolerance &&
      aim_turned(from, pose->rot, pose->count) < aim_turned(from, found, pose->count))
    return k;
  ik2d_pose_load(pose, found);
  return used;
}

int ik2d_aim_run(ik2d_pose *pose, const ik2d_aim_def *aim, int (*run)(ik2d_pose *pose)) {
  ik2d_rot best[IK2D_MAX_BONES], from[IK2D_MAX_BONES];
  int budget = pose->iterations, used;
  bool fabrik = pose->settings->method == IK2D_FABRIK;
  double tolerance = pose->settings->tolerance, distance, best_distance;
  if (fabrik) ik2d_pose_save(pose, from);
  used = aim_method(pose, aim, run);
  best_distance = aim_pose_distance(pose, aim);
  if (!(best_distance > tolerance))
    return fabrik && used < budget ? aim_nearer(pose, aim, from, used) : used;
  if (used >= budget) return used;
  /* short of it (a limit held the method off the point it was given,
  ** where another point of the ray is in reach): aim turns, joint by
  ** joint, while they gain; the best pose stays */
  ik2d_pose_save(pose, best);
  while (used < budget) {
    distance = aim_sweep(pose, aim, tolerance);
    used++;
    if (!(distance < best_distance)) break;
    best_distance = distance;
    ik2d_pose_save(pose, best);
    if (distance <= tolerance) break;
  }
  ik2d_pose_load(pose, best);
  return used;
}
