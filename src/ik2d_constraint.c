/*
** ik2d_constraint.c: joint limits, wrap-safe.
*/
#include <math.h>
#include <stddef.h>
#include <stdint.h>

#include "ik2d.h"
#include "ik2d_checks.h"
#include "ik2d_constraint.h"
#include "ik2d_math.h"

size_t ik2d_constraint_size(void) { return sizeof(ik2d_constraint); }

/* min <= max (an inverted range is the outside of [min, max]) */
static bool limits_in_order(const ik2d_constraint_def *def) { return def->min <= def->max; }

/* generated from lua/ik2d/api.lua by make gen: constraint check */
/* ik2d_constraint_def's check as lua/ik2d/api.lua describes it: each field's,
** each rule, in its order; the first refused is the status. */
static ik2d_status constraint_def_check(const ik2d_constraint_def *def) {
  ik2d_status status;
  if (def == NULL) return IK2D_ERR_NULL;
  if ((status = ik2d__constraint_check_min(def->min)) != IK2D_OK) return status;
  if ((status = ik2d__constraint_check_max(def->max)) != IK2D_OK) return status;
  if ((status = ik2d__constraint_check_min_in_radians(def->min)) != IK2D_OK)
    return status;
  if ((status = ik2d__constraint_check_max_in_radians(def->max)) != IK2D_OK)
    return status;
  if (!limits_in_order(def)) return IK2D_ERR_LIMIT_ORDER;
  if ((status = ik2d__constraint_check_space(def->space)) != IK2D_OK) return status;
  return IK2D_OK;
}
/* end generated */

/* The arc from a checked def. */
static void constraint_derive(ik2d_constraint *c, const ik2d_constraint_def *def) {
  double min = def->min, max = def->max, low, high, width;
  c->def = *def;
  /* an inverted range allows the arc from max round to min + 2 pi */
  low = def->invert ? max : min;
  high = def->invert ? min + IK2D_TWO_PI : max;
  width = def->invert ? IK2D_TWO_PI - (max - min) : max - min;
  c->full = (width >= IK2D_TWO_PI);
  c->mid = 0.5 * low + 0.5 * high;
  /* an inverted range of more than 2 pi leaves no arc: pin the joint at
  ** the point the shrinking arc closed on (continuous in min and max),
  ** rather than a negative half-width the two clamps read differently */
  c->half = c->full ? IK2D_PI : width > 0.0 ? 0.5 * width : 0.0;
  c->mid_rot = ik2d_rot_angle(c->mid);
  c->half_rot = ik2d_rot_angle(c->half);
}

ik2d_status ik2d_constraint_init(ik2d_constraint *constraint, size_t size,
                                 const ik2d_constraint_def *def) {
  ik2d_status status;
  if (constraint == NULL) return IK2D_ERR_NULL;
  if (size < sizeof *constraint) return IK2D_ERR_SIZE;
  if ((uintptr_t)constraint % sizeof(double) != 0) return IK2D_ERR_ALIGNMENT;
  status = constraint_def_check(def);
  if (status == IK2D_OK) constraint_derive(constraint, def);
  return status;
}

ik2d_status ik2d_constraint_set_def(ik2d_constraint *constraint,
                                    const ik2d_constraint_def *def) {
  ik2d_status status;
  if (constraint == NULL) return IK2D_ERR_NULL;
  status = constraint_def_check(def);
  if (status == IK2D_OK) constraint_derive(constraint, def);
  return status;
}

ik2d_constraint_def ik2d_constraint_get_def(const ik2d_constraint *constraint) {
  ik2d_constraint_def def;
  if (constraint != NULL) return constraint->def;
  def.min = def.max = 0.0;
  def.invert = false;
  def.space = IK2D_SPACE_PARENT;
  return def;
}

double ik2d_constraint_clamp(const ik2d_constraint *c, double delta) {
  return ik2d__constraint_clamp_angle(c, delta);
}

bool ik2d_constraint_arc(const ik2d_constraint *c, double *from, double *to) {
  if (c == NULL || c->full || from == NULL || to == NULL) return false;
  *from = c->mid - c->half;
  *to = c->mid + c->half;
  return true;
}

bool ik2d__constraint_clamp_rot(const ik2d_constraint *c, ik2d_rot mid,
                                ik2d_rot *r) {
  return ik2d__constraint_clamp_rot_inline(c, mid, r);
}
