/*
** ik2d_two_bone.c: the analytic two-bone solver (law of cosines), with a
** bend direction and a softness distance that eases the limb in before
** full extension so it does not snap straight.  When a limit forbids the
** exact answer, CCD iterations carry on from it inside the limits.
*/
#include <math.h>

#include "ik2d.h"
#include "ik2d_internal.h"

/* Distance the limb actually reaches toward a target at distance d:
** d itself, except within softness of full reach, where it approaches
** full reach smoothly (same value and slope where the ease starts). */
static double two_bone_soft_reach(double d, double reach, double softness) {
  double start = reach - softness;
  if (softness <= 0.0 || d <= start) return d;
  return start + softness * (1.0 - exp(-(d - start) / softness));
}

int ik2d_two_bone_run(ik2d_work *work, const ik2d_solver *solver) {
  const ik2d_chain *chain = work->chain;
  double a = chain->length[0], b = chain->length[1];
  double dx = work->target_x - chain->base_x;
  double dy = work->target_y - chain->base_y;
  double d = sqrt(dx * dx + dy * dy);
  double reach, cos_elbow, elbow, aim, shoulder;
  int clamped;
  if (work->count != 2) return ik2d_ccd_run(work, solver);
  ik2d_work_forward(work);
  if (ik2d_work_tip_distance_sq(work) <= work->tolerance_sq) return 0;
  if (d > 0.0) {
    aim = atan2(dy, dx);
  } else {
    /* target on the base: keep the upper bone where it points */
    aim = atan2(work->joint_y[1] - chain->base_y,
                work->joint_x[1] - chain->base_x);
  }
  reach = two_bone_soft_reach(d, a + b, solver->softness);
  if (reach > a + b) reach = a + b;
  if (reach < fabs(a - b)) reach = fabs(a - b);
  cos_elbow = (reach * reach - a * a - b * b) / (2.0 * a * b);
  cos_elbow = cos_elbow > 1.0 ? 1.0 : cos_elbow < -1.0 ? -1.0 : cos_elbow;
  elbow = solver->bend * acos(cos_elbow);
  shoulder = aim - atan2(b * sin(elbow), a + b * cos(elbow));
  work->rot_cos[0] = cos(shoulder - chain->base_angle);
  work->rot_sin[0] = sin(shoulder - chain->base_angle);
  work->rot_cos[1] = cos(elbow);
  work->rot_sin[1] = sin(elbow);
  clamped = ik2d_work_clamp(work, 0) | ik2d_work_clamp(work, 1);
  if (!clamped) return 1;
  /* nearest allowed pose: iterate inside the limits from here */
  return 1 + ik2d_ccd_run(work, solver);
}
