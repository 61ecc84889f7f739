/*
** ik2d_bone.c: the artist's bone model.
**
** A child bone's origin is always its local (x, y) in its parent's bone
** space.  Its linear part depends on what it inherits (Spine's five
** modes; DragonBones' flags map onto them).  With P the parent's linear
** part, S = diag(sx, sy) the skeleton scale and L the bone's local map:
**
**   all                        P L: everything.
**   position                   S L: the rotation is relative to the
**                              skeleton, the parent adds nothing.
**   no rotation or reflection  S Q L(r - t): P without the skeleton's
**                              scale is P' = R(t) K (t its x axis's
**                              direction, K upper triangular); the bone
**                              keeps its rotation relative to the skeleton
**                              and takes P's scale along t and across it,
**                              Q = R(t) diag(|x'|, |det P'| / |x'|): no
**                              rotation, reflection or shear of P.
**   no scale (or reflection)   S F G: the direction P' gives the bone's
**                              rotation, u = P' (cos r, sin r) / |.|, makes
**                              the frame F = [u, +-u turned a quarter]
**                              (its y axis reversed when P' reflects, for
**                              no scale), and G is the bone's own scale
**                              and shear: no scale or shear of P.
**
** The skeleton's scale is divided out of the parent and applied again so
** that a skeleton scale of (-1, 1) mirrors every mode, and (1, -1) shows
** a y-up rig on a y-down screen, whatever the bones inherit.  A root takes
** the skeleton's scale alone: S L, its origin S (x, y).
*/
#include <math.h>

#include "ik2d_bone.h"
#include "ik2d_math.h"

/* A parent axis this short (squared) has no direction to keep or drop,
** and one this short (no scale) is not normalised: a bone animated down
** to nothing. */
#define BONE_AXIS_VANISHED 1e-4
#define BONE_DIRECTION_VANISHED 1e-5

/* L with rotation angle (the local's own, or another). */
static void local_matrix_at(const ik2d_bone_local *l, double angle, ik2d_affine *out) {
  ik2d_rot ax = ik2d_rot_angle(angle + l->shear_x);
  ik2d_rot ay = l->shear_y == l->shear_x ? ax : ik2d_rot_angle(angle + l->shear_y);
  out->a = ax.c * l->scale_x;
  out->c = ax.s * l->scale_x;
  out->b = -ay.s * l->scale_y;
  out->d = ay.c * l->scale_y;
  out->x = l->x;
  out->y = l->y;
}

void ik2d_bone_local_matrix(const ik2d_bone_local *local, ik2d_affine *out) {
  local_matrix_at(local, local->angle, out);
}

void ik2d_affine_mul(const ik2d_affine *m, const ik2d_affine *q, ik2d_affine *p) {
  ik2d_affine r;
  r.a = m->a * q->a + m->b * q->c;
  r.b = m->a * q->b + m->b * q->d;
  r.c = m->c * q->a + m->d * q->c;
  r.d = m->c * q->b + m->d * q->d;
  r.x = m->a * q->x + m->b * q->y + m->x;
  r.y = m->c * q->x + m->d * q->y + m->y;
  *p = r;
}

bool ik2d_affine_solve(const ik2d_affine *m, double x, double y, double *u, double *v) {
  double det = m->a * m->d - m->b * m->c, dx = x - m->x, dy = y - m->y;
  if (det == 0.0 || !isfinite(det)) {
    *u = *v = 0.0;
    return false;
  }
  /* Cramer's rule */
  *u = (dx * m->d - dy * m->b) / det;
  *v = (dy * m->a - dx * m->c) / det;
  return true;
}

/* S m (linear part only: the skeleton scale on rows). */
static void scale_rows(ik2d_affine *m, double sx, double sy) {
  m->a = sx * m->a;
  m->b = sx * m->b;
  m->c = sy * m->c;
  m->d = sy * m->d;
}

/* Q of no rotation or reflection (linear part), in the skeleton's
** unscaled space, and its direction t. */
static void no_rotation_frame(const ik2d_affine *p, double sx, double sy, ik2d_affine *q,
                              double *t) {
  double xa = p->a / sx, xc = p->c / sy;
  double length2 = xa * xa + xc * xc;
  q->x = q->y = 0.0;
  if (length2 > BONE_AXIS_VANISHED) {
    /* |det P'| / |x'|^2: Q's y axis is x' turned a quarter, |det P'| / |x'| long */
    double k = fabs((p->a * p->d - p->b * p->c) / (sx * sy)) / length2;
    q->a = xa;
    q->c = xc;
    q->b = -xc * k;
    q->d = xa * k;
    *t = ik2d_atan2(xc, xa);
  } else {
    /* the x axis vanished: the y axis, a quarter turn past t, remains */
    q->a = q->c = 0.0;
    q->b = p->b / sx;
    q->d = p->d / sy;
    *t = ik2d_atan2(q->d, q->b) - 0.5 * IK2D_PI;
  }
}

/* F of the no-scale modes for rotation angle (linear part), in the
** skeleton's unscaled space. */
static void no_scale_frame(const ik2d_affine *p, ik2d_inherit inherit, double angle, double sx,
                           double sy, ik2d_affine *f) {
  ik2d_rot r = ik2d_rot_angle(angle);
  double ux = (p->a * r.c + p->b * r.s) / sx;
  double uy = (p->c * r.c + p->d * r.s) / sy;
  double length = sqrt(ux * ux + uy * uy), side = 1.0;
  if (length > BONE_DIRECTION_VANISHED) {
    ux = ux / length;
    uy = uy / length;
  }
  /* P' = S^-1 P reflects when P's determinant and S's have other signs */
  if (inherit == IK2D_INHERIT_NO_SCALE && (p->a * p->d - p->b * p->c < 0.0) != ((sx < 0.0) != (sy < 0.0)))
    side = -1.0;
  f->a = ux;
  f->c = uy;
  f->b = -side * uy;
  f->d = side * ux;
  f->x = f->y = 0.0;
}

static void place_linear(const ik2d_affine *p, const ik2d_bone_local *l, ik2d_inherit inherit,
                         double sx, double sy, ik2d_affine *out) {
  ik2d_affine local, frame;
  double t;
  switch (inherit) {
  case IK2D_INHERIT_POSITION:
    local_matrix_at(l, l->angle, out);
    scale_rows(out, sx, sy);
    return;
  case IK2D_INHERIT_NO_ROTATION_OR_REFLECTION:
    no_rotation_frame(p, sx, sy, &frame, &t);
    local_matrix_at(l, l->angle - t, &local);
    break;
  case IK2D_INHERIT_NO_SCALE:
  case IK2D_INHERIT_NO_SCALE_OR_REFLECTION:
    no_scale_frame(p, inherit, l->angle, sx, sy, &frame);
    local_matrix_at(l, 0.0, &local);
    break;
  default:
    local_matrix_at(l, l->angle, &local);
    ik2d_affine_mul(p, &local, out);
    return;
  }
  local.x = local.y = 0.0;
  ik2d_affine_mul(&frame, &local, out);
  scale_rows(out, sx, sy);
}

void ik2d_bone_place(const ik2d_affine *parent, const ik2d_bone_local *local,
                     ik2d_inherit inherit, double sx, double sy, ik2d_affine *out) {
  double x, y;
  if (parent == NULL) {
    local_matrix_at(local, local->angle, out);
    scale_rows(out, sx, sy);
    out->x = sx * local->x;
    out->y = sy * local->y;
    return;
  }
  ik2d_affine_point(parent, local->x, local->y, &x, &y);
  place_linear(parent, local, inherit, sx, sy, out);
  out->x = x;
  out->y = y;
}

void ik2d_bone_turn_frame(const ik2d_affine *parent, const ik2d_bone_local *local,
                          ik2d_inherit inherit, double sx, double sy, ik2d_affine *frame,
                          double *offset) {
  double x, y;
  *offset = 0.0;
  if (parent == NULL) {
    x = sx * local->x;
    y = sy * local->y;
  } else {
    ik2d_affine_point(parent, local->x, local->y, &x, &y);
  }
  if (parent == NULL || inherit == IK2D_INHERIT_POSITION) {
    frame->a = sx;
    frame->d = sy;
    frame->b = frame->c = 0.0;
  } else if (inherit == IK2D_INHERIT_NO_ROTATION_OR_REFLECTION) {
    no_rotation_frame(parent, sx, sy, frame, offset);
    scale_rows(frame, sx, sy);
  } else {
    *frame = *parent;
  }
  frame->x = x;
  frame->y = y;
}

/* m as rotation, scale x and y and shear y, shear x 0: x axis m1 = (a, c)
** = sx (cos r, sin r) with sx >= 0, and y axis m2 = (b, d) = sy (-sin(r +
** hy), cos(r + hy)), sy taking det's sign.  Turned back by r, m2 / sy is
** (-sin hy, cos hy): its parts are -(m1 . m2) / (sx sy) and det / (sx sy),
** so hy = atan2(-(m1 . m2) sign(det), |det|). */
static void decompose(const ik2d_affine *m, ik2d_bone_local *out) {
  double sx = sqrt(m->a * m->a + m->c * m->c);
  double det = m->a * m->d - m->b * m->c;
  double sign = det < 0.0 ? -1.0 : 1.0;
  double sy = sqrt(m->b * m->b + m->d * m->d);
  out->shear_x = 0.0;
  if (sx > 0.0) {
    out->angle = ik2d_atan2(m->c, m->a);
    out->scale_x = sx;
    out->scale_y = sign * sy;
    out->shear_y = ik2d_atan2(-(m->a * m->b + m->c * m->d) * sign, fabs(det));
  } else {
    /* no x axis: the y axis is a quarter turn past the rotation */
    out->angle = ik2d_atan2(m->d, m->b) - 0.5 * IK2D_PI;
    out->scale_x = 0.0;
    out->scale_y = sy;
    out->shear_y = 0.0;
  }
}

/* j^-1 w, linear parts (j singular: w itself). */
static void linear_solve(const ik2d_affine *j, const ik2d_affine *w, ik2d_affine *m) {
  double det = j->a * j->d - j->b * j->c;
  if (det == 0.0 || !isfinite(det)) {
    *m = *w;
    return;
  }
  m->a = (j->d * w->a - j->b * w->c) / det;
  m->b = (j->d * w->b - j->b * w->d) / det;
  m->c = (j->a * w->c - j->c * w->a) / det;
  m->d = (j->a * w->d - j->c * w->b) / det;
  m->x = m->y = 0.0;
}

/* The no-scale modes: w's x axis, seen in the parent's space, gives the
** rotation r whose frame F(r) carries it; F(r)^-1 S^-1 w is the bone's
** own scale and shear, its x axis' direction the shear x. */
static void no_scale_local(const ik2d_affine *p, const ik2d_affine *w, ik2d_inherit inherit,
                           double sx, double sy, ik2d_bone_local *out) {
  ik2d_affine f, own, unscaled = *w;
  double u, v, angle;
  ik2d_affine origin_free = *p;
  origin_free.x = origin_free.y = 0.0;
  angle = ik2d_affine_solve(&origin_free, w->a, w->c, &u, &v) ? ik2d_atan2(v, u) : 0.0;
  no_scale_frame(p, inherit, angle, sx, sy, &f);
  unscaled.a = w->a / sx;
  unscaled.b = w->b / sx;
  unscaled.c = w->c / sy;
  unscaled.d = w->d / sy;
  linear_solve(&f, &unscaled, &own);
  decompose(&own, out);
  out->shear_x = out->angle;
  out->shear_y = out->shear_y + out->angle;
  out->angle = angle;
}

void ik2d_bone_local_from_world(const ik2d_affine *parent, const ik2d_affine *world,
                                ik2d_inherit inherit, double sx, double sy,
                                const ik2d_bone_local *current, ik2d_bone_local *out) {
  ik2d_affine frame, m;
  double offset, x, y;
  ik2d_bone_local at = *current;
  if (parent == NULL) {
    x = world->x / sx;
    y = world->y / sy;
  } else {
    ik2d_affine_solve(parent, world->x, world->y, &x, &y);
  }
  if (parent != NULL && (inherit == IK2D_INHERIT_NO_SCALE ||
                         inherit == IK2D_INHERIT_NO_SCALE_OR_REFLECTION)) {
    no_scale_local(parent, world, inherit, sx, sy, out);
  } else {
    ik2d_bone_turn_frame(parent, &at, parent == NULL ? IK2D_INHERIT_POSITION : inherit, sx, sy,
                         &frame, &offset);
    linear_solve(&frame, world, &m);
    decompose(&m, out);
    out->angle = out->angle + offset;
  }
  out->x = x;
  out->y = y;
}
