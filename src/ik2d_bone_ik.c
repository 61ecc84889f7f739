/*
** ik2d_bone_ik.c: one- and two-bone IK on the artist's bone model.
**
** Each bone turns in its turning space J (ik2d_bone_turn_frame): world =
** J R(angle - offset) K, K its own scale and shear.  Seen through J^-1,
** turning the bone is a plain rotation about its origin, whatever J's
** scale, shear or reflection, so the solves work there.
**
** One bone: the target at (u, v) = J^-1 (target - origin) is where the x
** axis must point: angle = atan2(v, u) + offset - shear x, turned half a
** turn for a bone reflected by its own scale x.  Its length in J's units
** is length * scale x; a target farther (stretch) or nearer (compress)
** scales x (and y, uniform) by the ratio, within the settings' bounds.
**
** Two bones, the parent p and its child c, both inheriting all: J is the
** grandparent's world map, the origin p's.  p's local map is R(r1) S1
** (its shear is dropped, as Spine does), S1 = R(o1) diag(sx, s2 sy) with
** sx, sy >= 0 (o1 = pi when p's scale x is negative; s2 = -1 when p
** reflects).  c's origin (cx, cy) lies at l1 from p's, at direction r1 +
** o1 + s2 q, q = atan2(cy, cx); c's tip adds l2 = length c.sx along c's x
** axis, whose direction r2 + c.shear_x + o2 (o2 = pi for c's negative
** scale x) turns with s2 through S1.  So, with a1 the direction of p's
** segment and a2 the turn from it to c's (J's angles):
**     r1 = a1 - s2 q - o1,   r2 = s2 a2 + q - c.shear_x - o2.
** With sx = sy (uniform) J's picture is a rigid triangle of sides l1,
** sx l2 and the target's distance: the law of cosines.  Otherwise c's tip
** runs on an ellipse of half-axes sx l2, sy l2 about c's origin (taken on
** p's x axis, cy = 0, as Spine does): its points at the target's distance
** solve a quadratic in their coordinate along p's axis; out of reach, the
** nearest or farthest point on it.  A stretch (the target beyond reach)
** scales p's x (and y, uniform), and cy is 0 there too.  The turns blend
** by the mix from the bones' angles, the shortest way.
*/
#include <math.h>

#include "ik2d_bone_ik.h"
#include "ik2d_math.h"

/* A bone shorter than this in its turning space does not stretch, and a
** child origin this near its parent's leaves the parent to aim alone. */
#define BONE_IK_SHORT 1e-4
/* Parent scales this near count as uniform. */
#define BONE_IK_UNIFORM 1e-4

/* How far short of the target a limb stops when the target is at
** distance d and full reach is reach: 0 before the softness starts, then
** the curve's ease (ik2d_two_bone.c's soft reach is d minus this). */
static double soft_shortfall(double d, double reach, double softness, ik2d_softness_curve curve) {
  double over = d - (reach - softness), p;
  if (softness <= 0.0 || over <= 0.0) return 0.0;
  if (curve == IK2D_SOFTNESS_SMOOTH) return over - softness * (1.0 - ik2d_exp(-over / softness));
  p = fmin(1.0, over / (softness * 2.0)) - 1.0;
  return over - softness * (1.0 - p * p);
}

/* The scale that takes a reach to a distance, kept within the bounds a
** stretch or compress allows (1 where neither applies), blended by mix. */
static double reach_scale(double distance, double reach, double low, double high, double mix) {
  double ratio = distance / reach;
  if (!(ratio > 1.0 && high > 1.0) && !(ratio < 1.0 && low < 1.0)) return 1.0;
  ratio = fmax(low, fmin(high, ratio));
  return (ratio - 1.0) * mix + 1.0;
}

void ik2d_bone_ik_one(const ik2d_affine *parent, ik2d_inherit inherit, double sx, double sy,
                      ik2d_bone_local *bone, double length, double tx, double ty,
                      const ik2d_bone_ik_def *def) {
  ik2d_affine frame;
  double offset, u, v, aim, reach, scale;
  ik2d_bone_turn_frame(parent, bone, inherit, sx, sy, &frame, &offset);
  ik2d_affine_solve(&frame, tx, ty, &u, &v);
  aim = ik2d_atan2(v, u) + offset - bone->shear_x;
  if (bone->scale_x < 0.0) aim = aim + IK2D_PI;
  bone->angle = bone->angle + ik2d_wrap(aim - bone->angle) * def->mix;
  /* (a bone reflected by its own scale x does not stretch, as in Spine) */
  reach = length * bone->scale_x;
  if (!(reach > BONE_IK_SHORT)) return;
  scale = reach_scale(sqrt(u * u + v * v), reach, def->compress, def->stretch, def->mix);
  bone->scale_x = bone->scale_x * scale;
  if (def->uniform) bone->scale_y = bone->scale_y * scale;
}

/* The parent's angle a1 and the ellipse's angle a2 for a target at
** (gx, gy) (squared distance dd), c's tip on the ellipse l1 + (ax cos t,
** ay sin t) about p's origin: x = l1 + ax cos t along p's axis solves
** (ay^2 - ax^2) x^2 - 2 ay^2 l1 x + ay^2 l1^2 + ax^2 dd - ax^2 ay^2 = 0. */
static void ellipse_angles(double l1, double ax, double ay, double sx, double sy, double gx,
                           double gy, double dd, int bend, double *a1, double *a2) {
  double aa = ax * ax, bb = ay * ay, toward = ik2d_atan2(gy, gx);
  double c0 = bb * l1 * l1 + aa * dd - aa * bb, c1 = -2.0 * bb * l1, c2 = bb - aa;
  double disc = c1 * c1 - 4.0 * c2 * c0;
  double near_t = IK2D_PI, near_x = l1 - ax, near_y = 0.0, near_d = near_x * near_x;
  double far_t = 0.0, far_x = l1 + ax, far_y = 0.0, far_d = far_x * far_x, c;
  if (disc >= 0.0 && c2 != 0.0) {
    /* the root of the smaller size, each computed without cancellation */
    double q = sqrt(disc), r0, r1, x;
    if (c1 < 0.0) q = -q;
    q = -(c1 + q) * 0.5;
    r0 = q / c2;
    r1 = q != 0.0 ? c0 / q : r0;
    x = fabs(r0) < fabs(r1) ? r0 : r1;
    if (x * x <= dd) {
      double y = sqrt(dd - x * x) * bend;
      *a1 = toward - ik2d_atan2(y, x);
      *a2 = ik2d_atan2(y / sy, (x - l1) / sx);
      return;
    }
  }
  /* out of reach: the ellipse's nearest or farthest point, at t = pi, 0
  ** or where the squared distance turns, cos t = -ax l1 / (ax^2 - ay^2) */
  c = c2 != 0.0 ? -ax * l1 / (aa - bb) : 2.0;
  if (c >= -1.0 && c <= 1.0) {
    double t = ik2d_acos(c), x = ax * ik2d_cos(t) + l1, y = ay * ik2d_sin(t);
    double d = x * x + y * y;
    if (d < near_d) {
      near_t = t, near_x = x, near_y = y, near_d = d;
    }
    if (d > far_d) {
      far_t = t, far_x = x, far_y = y, far_d = d;
    }
  }
  if (dd <= (near_d + far_d) * 0.5) {
    *a1 = toward - ik2d_atan2(near_y * bend, near_x);
    *a2 = near_t * bend;
  } else {
    *a1 = toward - ik2d_atan2(far_y * bend, far_x);
    *a2 = far_t * bend;
  }
}

/* The triangle of sides l1, l2 and the target's distance: the parent's
** direction a1 and the turn a2, and the stretch when out of reach. */
static void triangle_angles(double l1, double l2, double gx, double gy, double dd,
                            const ik2d_bone_ik_def *def, double *a1, double *a2,
                            double *stretch) {
  double cosine = (dd - l1 * l1 - l2 * l2) / (2.0 * l1 * l2), a, b;
  *stretch = 1.0;
  if (cosine < -1.0) {
    cosine = -1.0;
    *a2 = IK2D_PI * def->bend;
  } else if (cosine > 1.0) {
    cosine = 1.0;
    *a2 = 0.0;
    *stretch = reach_scale(sqrt(dd), l1 + l2, 1.0, def->stretch, def->mix);
  } else {
    *a2 = ik2d_acos(cosine) * def->bend;
  }
  a = l1 + l2 * cosine;
  b = l2 * ik2d_sin(*a2);
  *a1 = ik2d_atan2(gy * a - gx * b, gx * a + gy * b);
}

/* Turns p alone at the target (its child's origin on its own), the
** child's angle then 0: no triangle to solve. */
static void two_bone_degenerate(const ik2d_affine *grandparent, double sx, double sy,
                                ik2d_bone_local *parent, ik2d_bone_local *child,
                                double parent_length, double tx, double ty,
                                const ik2d_bone_ik_def *def, double cy) {
  ik2d_bone_ik_def alone = *def;
  alone.compress = 1.0;
  alone.uniform = false;
  ik2d_bone_ik_one(grandparent, IK2D_INHERIT_ALL, sx, sy, parent, parent_length, tx, ty, &alone);
  child->angle = 0.0;
  child->y = cy;
}

bool ik2d_bone_ik_two(const ik2d_affine *grandparent, ik2d_inherit parent_inherit,
                      ik2d_inherit child_inherit, double sx, double sy,
                      ik2d_bone_local *parent, ik2d_bone_local *child, double parent_length,
                      double child_length, double tx, double ty, const ik2d_bone_ik_def *def) {
  ik2d_affine frame, world;
  double offset, psx = parent->scale_x, psy = parent->scale_y, csx = child->scale_x;
  double o1 = 0.0, o2 = 0.0, s2 = 1.0, cx = child->x, cy = child->y;
  double wx, wy, dx, dy, gx, gy, l1, l2, dd, a1, a2, stretch = 1.0, q;
  bool uniform;
  if (parent_inherit != IK2D_INHERIT_ALL || child_inherit != IK2D_INHERIT_ALL) return false;
  if (psx < 0.0) psx = -psx, o1 = IK2D_PI, s2 = -1.0;
  if (psy < 0.0) psy = -psy, s2 = -s2;
  if (csx < 0.0) csx = -csx, o2 = IK2D_PI;
  uniform = fabs(psx - psy) <= BONE_IK_UNIFORM;
  if (!uniform || def->stretch > 1.0) cy = 0.0;
  ik2d_bone_place(grandparent, parent, IK2D_INHERIT_ALL, sx, sy, &world);
  ik2d_bone_turn_frame(grandparent, parent, IK2D_INHERIT_ALL, sx, sy, &frame, &offset);
  ik2d_affine_point(&world, cx, cy, &wx, &wy);
  ik2d_affine_solve(&frame, wx, wy, &dx, &dy);
  l1 = sqrt(dx * dx + dy * dy);
  l2 = child_length * csx;
  if (l1 < BONE_IK_SHORT) {
    two_bone_degenerate(grandparent, sx, sy, parent, child, parent_length, tx, ty, def, cy);
    return true;
  }
  ik2d_affine_solve(&frame, tx, ty, &gx, &gy);
  dd = gx * gx + gy * gy;
  if (def->softness != 0.0) {
    double d = sqrt(dd);
    double softness = def->softness * psx * (csx + 1.0) * 0.5;
    double p = soft_shortfall(d, l1 + l2 * psx, softness, def->curve) / d;
    gx = gx - p * gx;
    gy = gy - p * gy;
    dd = gx * gx + gy * gy;
  }
  if (uniform)
    triangle_angles(l1, l2 * psx, gx, gy, dd, def, &a1, &a2, &stretch);
  else
    ellipse_angles(l1, psx * l2, psy * l2, psx, psy, gx, gy, dd, def->bend, &a1, &a2);
  q = ik2d_atan2(cy, cx);
  parent->angle = parent->angle + ik2d_wrap(a1 - s2 * q - o1 - parent->angle) * def->mix;
  parent->scale_x = parent->scale_x * stretch;
  if (def->uniform) parent->scale_y = parent->scale_y * stretch;
  parent->shear_x = parent->shear_y = 0.0;
  child->angle = child->angle + ik2d_wrap(s2 * a2 + q - child->shear_x - o2 - child->angle) * def->mix;
  child->y = cy;
  return true;
}
