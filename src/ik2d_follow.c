/*
** ik2d_follow.c: follow the leader (ropes, snakes, tentacles): a chain
** with no fixed base.  The tip goes onto the target and each joint, tip
** to base, is dragged after the joint ahead of it: it ends on the line
** from where it was to where that joint went, one bone length behind.
** While dragging, each bone's direction is turned so that the bone
** ahead of it keeps its local angle (relative to this bone) inside its
** limits, and into its own limits when they are world-space ones; last,
** every limit once more root to tip (bone 0's relative to the base
** angle, which follow never changes; a world-space one from where its
** parent ended), turning the chain about the tip.  The base ends one
** chain behind the tip (pose->base_x/y), and the solve moves the chain's
** base there.
*/
#include <math.h>
#include <stdbool.h>

#include "ik2d_follow.h"
#include "ik2d_pose.h"

/* The unit direction from (x0, y0) to (x1, y1) into *dir; *dir is kept
** when the points coincide.  Scaled before squaring, so nothing overflows
** or underflows, and taken from halves when the difference overflows. */
static void follow_direction(double x0, double y0, double x1, double y1,
                             ik2d_rot *dir) {
  double dx = x1 - x0, dy = y1 - y0, m, norm;
  if (!isfinite(dx) || !isfinite(dy)) {
    dx = 0.5 * x1 - 0.5 * x0;
    dy = 0.5 * y1 - 0.5 * y0;
  }
  m = fmax(fabs(dx), fabs(dy));
  if (!(m > 0.0) || !isfinite(m)) return;
  dx /= m;
  dy /= m;
  norm = sqrt(dx * dx + dy * dy);
  *dir = ik2d_rot_of(dx / norm, dy / norm);
}

/* Is bone i's limit a world-space one? */
static bool follow_world_limited(const ik2d_pose *pose, int i) {
  const ik2d_constraint *limit = pose->chain->constraint[i];
  return limit != NULL && !limit->full && limit->def.space == IK2D_SPACE_WORLD;
}

int ik2d_follow_run(ik2d_pose *pose) {
  const double *length = pose->chain->length;
  ik2d_rot dir[IK2D_MAX_BONES], start[IK2D_MAX_BONES], world;
  double x = pose->target_x, y = pose->target_y;
  int n = pose->count, i;
  ik2d_pose_save(pose, start);
  ik2d_pose_forward(pose);
  /* each bone's direction now: where it points when its joints coincide */
  world = pose->base;
  for (i = 0; i < n; i++) {
    world = ik2d_rot_mul(world, pose->rot[i]);
    dir[i] = world;
  }
  /* the drag, tip to base: (x, y) is where the joint ahead went */
  for (i = n - 1; i >= 0; i--) {
    follow_direction(pose->joint_x[i], pose->joint_y[i], x, y, &dir[i]);
    if (follow_world_limited(pose, i))
      ik2d__constraint_clamp_rot(pose->chain->constraint[i], pose->limit_mid[i], &dir[i]);
    if (i + 1 < n && !follow_world_limited(pose, i + 1)) {
      pose->rot[i + 1] = ik2d_rot_inv_mul(dir[i], dir[i + 1]);
      if (ik2d_pose_clamp(pose, i + 1)) {
        ik2d_rot r = pose->rot[i + 1];
        dir[i] = ik2d_rot_mul(dir[i + 1], ik2d_rot_of(r.c, -r.s));
      }
    }
    x -= length[i] * dir[i].c;
    y -= length[i] * dir[i].s;
  }
  /* the rotations as dragged, then every limit root to tip */
  pose->rot[0] = ik2d_rot_inv_mul(pose->base, dir[0]);
  for (i = 1; i < n; i++) pose->rot[i] = ik2d_rot_inv_mul(dir[i - 1], dir[i]);
  for (i = 0; i < n; i++) ik2d_pose_clamp(pose, i);
  if (!ik2d_follow_place(pose)) ik2d_pose_load(pose, start);
  return 1;
}

bool ik2d_follow_place(ik2d_pose *pose) {
  double x, y;
  /* the tip from where the base is, then the base moved by what the tip
  ** is off */
  ik2d_pose_forward(pose);
  x = pose->base_x + (pose->target_x - pose->joint_x[pose->count]);
  y = pose->base_y + (pose->target_y - pose->joint_y[pose->count]);
  pose->fresh = false;
  /* beyond the largest double, here or mirrored back into world space */
  if (!isfinite(x) || !isfinite(y) ||
      (pose->chain->flip && !isfinite(2.0 * pose->chain->base_x - x)))
    return false;
  pose->base_x = x;
  pose->base_y = y;
  return true;
}
