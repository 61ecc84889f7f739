/*
** ik2d_two_bone.c: the analytic two-bone solver (law of cosines), with a
** bend direction and a softness distance that eases the limb in before
** full extension so it does not snap straight, and an optional stretch
** that scales both bones (up to the stretch setting times) to meet a goal
** beyond full reach, as Spine's IK stretch does.
**
** Limits: when a limit forbids the exact answer, the result is the
** allowed pose whose tip is nearest the (softened) target, found in
** closed form.  The allowed poses form a rectangle of (shoulder, elbow)
** angles; the distance has its minimum either inside it (the tip on the
** target, or the limb straight or folded toward it) or on an edge, where
** one angle sits on a limit and the best value of the other is the one
** pointing the limb at the target, clamped into its range.  A handful of candidates covers all of
** these; the nearest wins, the asked-for bend first on a tie.
*/
#include <math.h>
#include <stddef.h>

#include "ik2d_pose.h"
#include "ik2d_two_bone.h"

/* Distance the limb actually reaches toward a target at distance d: d
** itself, except within softness of full reach, where it eases in.
** Smooth: start + s (1 - e^-(d - start) / s), with start = reach - s:
** the same value and slope where the ease starts, and full reach only
** approached.  Spine's: with sd = d - start, the limb falls short of the
** target by sd - s (1 - p^2), p = min(1, sd / 2s) - 1, which is
** reach - s p^2: full reach at d = reach + s and beyond (written as Spine
** computes it, so that a rig moved from Spine agrees to rounding). */
static double two_bone_soft_reach(double d, double reach, double softness,
                                  ik2d_softness_curve curve) {
  double start = reach - softness, p;
  if (softness <= 0.0 || d <= start) return d;
  if (curve == IK2D_SOFTNESS_SMOOTH)
    return start + softness * (1.0 - ik2d_exp(-(d - start) / softness));
  p = fmin(1.0, (d - start) / (softness * 2.0)) - 1.0;
  return d - ((d - start) - softness * (1.0 - p * p));
}

typedef struct two_bone {
  const ik2d_chain *chain;
  double a, b;              /* bone lengths */
  double goal_x, goal_y;    /* the softened target, chain space */
  double shoulder, elbow;   /* best local angles so far */
  double best;              /* their tip's distance to the goal */
  double tie;               /* gains below this are ties (rounding) */
} two_bone;

/* The allowed local angle of bone i nearest to angle. */
static double two_bone_allowed(const ik2d_chain *chain, int i, double angle) {
  const ik2d_constraint *limit = chain->constraint[i];
  if (limit == NULL || limit->full) return angle;
  return chain->rest[i] + ik2d_constraint_clamp(limit, angle - chain->rest[i]);
}

static int two_bone_inside(const ik2d_chain *chain, int i, double angle) {
  return fabs(ik2d_wrap(two_bone_allowed(chain, i, angle) - angle)) <= 1e-12;
}

/* Keeps (shoulder, elbow) when its tip is nearer the goal than the best. */
static void two_bone_consider(two_bone *tb, double shoulder, double elbow) {
  const ik2d_chain *chain = tb->chain;
  double w1 = chain->base_angle + shoulder, w2 = w1 + elbow;
  ik2d_rot r1 = ik2d_rot_angle(w1), r2 = ik2d_rot_angle(w2);
  double x = chain->base_x + tb->a * r1.c + tb->b * r2.c;
  double y = chain->base_y + tb->a * r1.s + tb->b * r2.s;
  /* hypot: squares of 1e200 bones overflow */
  double distance = ik2d_hypot(tb->goal_x - x, tb->goal_y - y);
  if (distance < tb->best - tb->tie) {
    tb->best = distance;
    tb->shoulder = shoulder;
    tb->elbow = elbow;
  }
}

/* Local shoulder angle that points the limb, bent by elbow, at the goal. */
static double two_bone_shoulder(const two_bone *tb, double bearing, double elbow) {
  ik2d_rot bent = ik2d_rot_angle(elbow);
  return bearing - tb->chain->base_angle - ik2d_atan2(tb->b * bent.s, tb->a + tb->b * bent.c);
}

/* Best allowed elbow with the shoulder fixed: bone 2 pointed at the goal,
** clamped into its range. */
static void two_bone_from_shoulder(two_bone *tb, double shoulder) {
  const ik2d_chain *chain = tb->chain;
  double w1 = chain->base_angle + shoulder;
  ik2d_rot r1 = ik2d_rot_angle(w1);
  double jx = chain->base_x + tb->a * r1.c;
  double jy = chain->base_y + tb->a * r1.s;
  double dx = tb->goal_x - jx, dy = tb->goal_y - jy;
  double elbow = (dx != 0.0 || dy != 0.0) ? ik2d_atan2(dy, dx) - w1 : 0.0;
  two_bone_consider(tb, shoulder, two_bone_allowed(chain, 1, elbow));
}

/* Best allowed shoulder with the elbow fixed: the limb pointed at the goal,
** clamped into the shoulder's range. */
static void two_bone_from_elbow(two_bone *tb, double bearing, double elbow) {
  double shoulder = two_bone_shoulder(tb, bearing, elbow);
  two_bone_consider(tb, two_bone_allowed(tb->chain, 0, shoulder), elbow);
}

/* The bend side: the one facing the pole when there is one (the elbow
** of bend +1 lies clockwise of the base-to-target line, so a pole
** anticlockwise of it asks for -1), else the setting. */
static int two_bone_bend(const ik2d_pose *pose, int bend) {
  const ik2d_chain *chain = pose->chain;
  double side;
  if (!pose->pole) return bend;
  side = (pose->target_x - chain->base_x) * (pose->pole_y - chain->base_y) -
         (pose->target_y - chain->base_y) * (pose->pole_x - chain->base_x);
  return side > 0.0 ? -1 : side < 0.0 ? 1 : bend;
}

/* The elbow that puts the tip at distance reach from the base, bent to
** side bend.  Straight and folded exactly: the law of cosines there is
** acos of 1 - eps or -1 + eps, which is off by sqrt(2 eps) (2e-8 rad for
** a limb just out of reach). */
static double two_bone_elbow(const two_bone *tb, double reach, int bend) {
  double cos_elbow;
  if (reach >= tb->a + tb->b) return 0.0;
  if (reach <= fabs(tb->a - tb->b)) return bend * IK2D_PI;
  cos_elbow = (reach * reach - tb->a * tb->a - tb->b * tb->b) / (2.0 * tb->a * tb->b);
  cos_elbow = cos_elbow > 1.0 ? 1.0 : cos_elbow < -1.0 ? -1.0 : cos_elbow;
  return bend * ik2d_acos(cos_elbow);
}

/* A limit forbids (*shoulder, *elbow), pointed along bearing: the nearest
** allowed pose instead (the file's header).  The answer clamped into the
** limits stands if no candidate measures better (as when every distance
** overflows). */
static void two_bone_nearest(two_bone *tb, double bearing, double *shoulder, double *elbow) {
  const ik2d_chain *chain = tb->chain;
  const ik2d_constraint *limit;
  int side;
  tb->shoulder = two_bone_allowed(chain, 0, *shoulder);
  tb->elbow = two_bone_allowed(chain, 1, *elbow);
  tb->best = HUGE_VAL;
  tb->tie = 1e-12 * (tb->a + tb->b);
  /* the other bend, when it is allowed (reaches just as far) */
  if (two_bone_inside(chain, 0, two_bone_shoulder(tb, bearing, -*elbow)) &&
      two_bone_inside(chain, 1, -*elbow))
    two_bone_consider(tb, two_bone_shoulder(tb, bearing, -*elbow), -*elbow);
  /* the elbow at the allowed angle nearest the answer, straight, folded
  ** and at its limits; the shoulder at its limits */
  two_bone_from_elbow(tb, bearing, two_bone_allowed(chain, 1, *elbow));
  two_bone_from_elbow(tb, bearing, two_bone_allowed(chain, 1, 0.0));
  two_bone_from_elbow(tb, bearing, two_bone_allowed(chain, 1, IK2D_PI));
  for (side = 0; side < 2; side++) {
    limit = chain->constraint[1];
    if (limit != NULL && !limit->full)
      two_bone_from_elbow(tb, bearing, chain->rest[1] + limit->mid +
                                       (side ? limit->half : -limit->half));
    limit = chain->constraint[0];
    if (limit != NULL && !limit->full)
      two_bone_from_shoulder(tb, chain->rest[0] + limit->mid +
                                     (side ? limit->half : -limit->half));
  }
  *shoulder = tb->shoulder;
  *elbow = tb->elbow;
}

int ik2d_two_bone_run(ik2d_pose *pose) {
  const ik2d_chain *chain = pose->chain;
  const ik2d_solver_def *settings = pose->settings;
  two_bone tb;
  double dx, dy, d, reach, elbow, bearing, shoulder;
  ik2d_rot bearing_rot;
  int used;
  tb.chain = chain;
  tb.a = chain->length[0];
  tb.b = chain->length[1];
  dx = pose->target_x - chain->base_x;
  dy = pose->target_y - chain->base_y;
  d = sqrt(dx * dx + dy * dy);
  /* the goal distance: the target's, or with softness the eased one
  ** (never beyond full reach) */
  reach = two_bone_soft_reach(d, tb.a + tb.b, settings->two_bone.softness,
                              settings->two_bone.softness_curve);
  /* stretch: a goal beyond full reach is met by the limb straight at it,
  ** both bones scaled (at most by stretch), when the limits allow the
  ** straight pose.  The closed form runs on every solve, whatever the
  ** tolerance: a bend changed, or a target moving by less than the
  ** tolerance, shows at once (only the count says the tip was there). */
  ik2d_pose_forward(pose);
  used = ik2d_pose_tip_distance_sq(pose) <= pose->tolerance_sq ? 0 : 1;
  if (settings->two_bone.stretch > 1.0 && reach > tb.a + tb.b && ik2d_pose_straighten(pose)) {
    pose->scale = fmin(reach / (tb.a + tb.b), settings->two_bone.stretch);
    return used;
  }
  /* the target's direction from the base (a target on the base: keep the
  ** upper bone where it points) */
  bearing = d > 0.0 ? ik2d_atan2(dy, dx)
                : ik2d_atan2(pose->joint_y[1] - chain->base_y, pose->joint_x[1] - chain->base_x);
  /* the goal: the target, or with softness the eased point before it */
  bearing_rot = ik2d_rot_angle(bearing);
  tb.goal_x = chain->base_x + reach * bearing_rot.c;
  tb.goal_y = chain->base_y + reach * bearing_rot.s;
  elbow = two_bone_elbow(&tb, reach, two_bone_bend(pose, settings->two_bone.bend));
  /* on the base the limb folds and any shoulder does as well: keep it.
  ** Pointing along the upper bone's own direction turned it by the rounding
  ** of the atan2 term (6e-16 rad) on every solve, a creep that never
  ** settled. */
  shoulder = d > 0.0 ? two_bone_shoulder(&tb, bearing, elbow)
                     : ik2d_atan2(pose->rot[0].s, pose->rot[0].c);
  if (!two_bone_inside(chain, 0, shoulder) || !two_bone_inside(chain, 1, elbow)) {
    pose->limited = true;
    two_bone_nearest(&tb, bearing, &shoulder, &elbow);
  }
  pose->rot[0] = ik2d_rot_angle(shoulder);
  pose->rot[1] = ik2d_rot_angle(elbow);
  /* the limits decided in rotation space, as every method ends: the
  ** angle-space clamp above can sit a rounding outside */
  ik2d_pose_clamp(pose, 0);
  ik2d_pose_clamp(pose, 1);
  return used;
}
