/*
** ik2d_transform.c: a transform constraint's maths.
**
** World space works on the bones' world maps (x axis (a, c), y axis (b,
** d), origin): a map's rotation is its x axis' direction, its scales the
** axes' lengths, its shear the y axis' direction past a quarter turn from
** the x axis.  Absolute, each of them moves toward the target's (plus the
** offset) by its mix: the rotation turns both axes by mix times the
** shortest turn to the target's, the origin moves toward the target's
** point at the offset (x, y) of its space, an axis' length toward the
** target's plus the offset, the y axis' direction toward the target's
** turn from its x axis plus the offset.  Relative, each is added: the
** axes turn by the target's rotation, the origin moves by the target's
** point, the axes scale by (the target's length - 1 + offset), the y axis
** turns by the target's shear.  Angle offsets turn the other way when the
** target's map reflects, so that a mirrored rig mirrors them.
**
** Local space works on the local transforms the same way (angles, x, y,
** scales, shear y), the bone then placed from them by its parent.
*/
#include <math.h>

#include "ik2d_math.h"
#include "ik2d_transform.h"

/* m's axes turned by the angle (whose rotation is rot). */
static void turn_axes(ik2d_affine *m, ik2d_rot rot) {
  double a = m->a, b = m->b, c = m->c, d = m->d;
  m->a = rot.c * a - rot.s * c;
  m->b = rot.c * b - rot.s * d;
  m->c = rot.s * a + rot.c * c;
  m->d = rot.s * b + rot.c * d;
}

/* m's y axis at angle, its length kept. */
static void y_axis_at(ik2d_affine *m, double angle) {
  double length = sqrt(m->b * m->b + m->d * m->d);
  ik2d_rot rot = ik2d_rot_angle(angle);
  m->b = rot.c * length;
  m->d = rot.s * length;
}

static double x_length(const ik2d_affine *m) { return sqrt(m->a * m->a + m->c * m->c); }
static double y_length(const ik2d_affine *m) { return sqrt(m->b * m->b + m->d * m->d); }

/* An axis' length s taken toward (absolute) or scaled by (relative) the
** target's t: the factor for the axis. */
static double axis_factor(double s, double t, double offset, double mix, bool relative) {
  if (relative) return (t - 1.0 + offset) * mix + 1.0;
  return s != 0.0 ? (s + (t - s + offset) * mix) / s : 1.0;
}

static void world_rotate(const ik2d_affine *t, double offset, double mix, bool relative,
                         ik2d_affine *m) {
  double turn = ik2d_atan2(t->c, t->a) + offset;
  if (!relative) turn = turn - ik2d_atan2(m->c, m->a);
  turn_axes(m, ik2d_rot_angle(ik2d_wrap(turn) * mix));
}

static void world_shear(const ik2d_affine *t, double offset, double mix, bool relative,
                        ik2d_affine *m) {
  double y_angle = ik2d_atan2(m->d, m->b);
  double target = ik2d_atan2(t->d, t->b) - ik2d_atan2(t->c, t->a);
  if (relative) {
    y_axis_at(m, y_angle + (ik2d_wrap(target) - 0.5 * IK2D_PI + offset) * mix);
  } else {
    double own = y_angle - ik2d_atan2(m->c, m->a);
    y_axis_at(m, y_angle + (ik2d_wrap(target - own) + offset) * mix);
  }
}

void ik2d_transform_world(const ik2d_transform_mix *mix, const ik2d_transform_mix *offset,
                          bool relative, const ik2d_affine *target, ik2d_affine *bone) {
  double reflect = target->a * target->d - target->b * target->c > 0.0 ? 1.0 : -1.0;
  if (mix->rotate != 0.0) world_rotate(target, offset->rotate * reflect, mix->rotate, relative, bone);
  if (mix->x != 0.0 || mix->y != 0.0) {
    double x, y;
    ik2d_affine_point(target, offset->x, offset->y, &x, &y);
    if (!relative) {
      x = x - bone->x;
      y = y - bone->y;
    }
    bone->x = bone->x + x * mix->x;
    bone->y = bone->y + y * mix->y;
  }
  if (mix->scale_x != 0.0) {
    double f = axis_factor(x_length(bone), x_length(target), offset->scale_x, mix->scale_x, relative);
    bone->a = bone->a * f;
    bone->c = bone->c * f;
  }
  if (mix->scale_y != 0.0) {
    double f = axis_factor(y_length(bone), y_length(target), offset->scale_y, mix->scale_y, relative);
    bone->b = bone->b * f;
    bone->d = bone->d * f;
  }
  if (mix->shear_y != 0.0) world_shear(target, offset->shear_y * reflect, mix->shear_y, relative, bone);
}

void ik2d_transform_local(const ik2d_transform_mix *mix, const ik2d_transform_mix *offset,
                          bool relative, const ik2d_bone_local *target, ik2d_bone_local *bone) {
  if (relative) {
    bone->angle = bone->angle + (target->angle + offset->rotate) * mix->rotate;
    bone->x = bone->x + (target->x + offset->x) * mix->x;
    bone->y = bone->y + (target->y + offset->y) * mix->y;
    bone->scale_x = bone->scale_x * ((target->scale_x - 1.0 + offset->scale_x) * mix->scale_x + 1.0);
    bone->scale_y = bone->scale_y * ((target->scale_y - 1.0 + offset->scale_y) * mix->scale_y + 1.0);
    bone->shear_y = bone->shear_y + (target->shear_y + offset->shear_y) * mix->shear_y;
    return;
  }
  if (mix->rotate != 0.0)
    bone->angle = bone->angle + ik2d_wrap(target->angle - bone->angle + offset->rotate) * mix->rotate;
  bone->x = bone->x + (target->x - bone->x + offset->x) * mix->x;
  bone->y = bone->y + (target->y - bone->y + offset->y) * mix->y;
  bone->scale_x = bone->scale_x + (target->scale_x - bone->scale_x + offset->scale_x) * mix->scale_x;
  bone->scale_y = bone->scale_y + (target->scale_y - bone->scale_y + offset->scale_y) * mix->scale_y;
  if (mix->shear_y != 0.0)
    bone->shear_y = bone->shear_y + ik2d_wrap(target->shear_y - bone->shear_y + offset->shear_y) * mix->shear_y;
}
