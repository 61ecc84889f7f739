/*
** ik2d_chain.c: chains, constraints and forward kinematics.
*/
#include <math.h>
#include <stddef.h>

#include "ik2d.h"
#include "ik2d_internal.h"

const char *ik2d_status_message(ik2d_status status) {
  switch (status) {
    case IK2D_OK: return "ok";
    case IK2D_ERR_NULL: return "missing object";
    case IK2D_ERR_BONE_COUNT: return "a chain needs 1 to 64 bones";
    case IK2D_ERR_LENGTH: return "length must be > 0 and finite";
    case IK2D_ERR_ANGLE: return "angle must be finite";
    case IK2D_ERR_POSITION: return "position must be finite";
    case IK2D_ERR_LIMITS: return "min > max";
    case IK2D_ERR_INDEX: return "bone index out of range";
    case IK2D_ERR_ITERATIONS: return "iterations must be >= 1";
    case IK2D_ERR_TOLERANCE: return "tolerance must be >= 0 and finite";
    case IK2D_ERR_WEIGHT: return "weight must be a number";
    case IK2D_ERR_METHOD: return "unknown method for this chain";
    case IK2D_ERR_OPTION: return "option out of range";
  }
  return "unknown status";
}

/* ------------------------------------------------------------------ */
/* angles                                                               */
/* ------------------------------------------------------------------ */


/* ------------------------------------------------------------------ */
/* constraints                                                          */
/* ------------------------------------------------------------------ */

ik2d_status ik2d_constraint_set(ik2d_constraint *c, double min, double max,
                                int invert) {
  double low, high, width;
  if (c == NULL) return IK2D_ERR_NULL;
  if (!isfinite(min) || !isfinite(max)) return IK2D_ERR_ANGLE;
  if (min > max) return IK2D_ERR_LIMITS;
  c->min = min;
  c->max = max;
  c->invert = invert ? 1 : 0;
  /* an inverted range allows the arc from max round to min + 2 pi */
  low = invert ? max : min;
  high = invert ? min + IK2D_TWO_PI : max;
  /* the width without adding 2 pi to min, which rounds it away when
  ** |min| > 1e16 (and an inverted empty range must stay full) */
  width = invert ? IK2D_TWO_PI - (max - min) : max - min;
  c->full = (width >= IK2D_TWO_PI);
  /* halves first: low + high overflows for limits near 1e308 */
  c->mid = 0.5 * low + 0.5 * high;
  /* an inverted range of more than 2 pi leaves no arc: pin the joint at
  ** the point the shrinking arc closed on (continuous in min and max),
  ** rather than a negative half-width the two clamps read differently */
  c->half = c->full ? IK2D_PI : width > 0.0 ? 0.5 * width : 0.0;
  c->mid_cos = cos(c->mid);
  c->mid_sin = sin(c->mid);
  c->half_cos = cos(c->half);
  c->half_sin = sin(c->half);
  return IK2D_OK;
}

double ik2d_constraint_clamp(const ik2d_constraint *c, double delta) {
  double centred;
  if (c == NULL || c->full) return delta;
  /* express delta in the frame centred on the range: wrap-safe */
  centred = c->mid + ik2d_wrap(delta - c->mid);
  if (centred > c->mid + c->half) return c->mid + c->half;
  if (centred < c->mid - c->half) return c->mid - c->half;
  return centred;
}

/* ------------------------------------------------------------------ */
/* chains                                                               */
/* ------------------------------------------------------------------ */

static int chain_valid_index(const ik2d_chain *chain, int i) {
  return chain != NULL && i >= 0 && i < chain->count;
}

ik2d_status ik2d_chain_init(ik2d_chain *chain, int count,
                            const double *lengths, const double *rests) {
  int i;
  double reach = 0.0;
  if (chain == NULL || lengths == NULL) return IK2D_ERR_NULL;
  if (count < 1 || count > IK2D_MAX_BONES) return IK2D_ERR_BONE_COUNT;
  /* validate everything before writing anything */
  for (i = 0; i < count; i++) {
    if (!isfinite(lengths[i]) || !(lengths[i] > 0.0)) return IK2D_ERR_LENGTH;
    if (rests != NULL && !isfinite(rests[i])) return IK2D_ERR_ANGLE;
    reach += lengths[i];
  }
  if (!isfinite(reach)) return IK2D_ERR_LENGTH;
  chain->count = count;
  chain->flip = 0;
  chain->base_x = chain->base_y = chain->base_angle = 0.0;
  chain->base_cos = 1.0;
  chain->base_sin = 0.0;
  chain->reach = reach;
  for (i = 0; i < count; i++) {
    chain->length[i] = lengths[i];
    chain->rest[i] = rests != NULL ? rests[i] : 0.0;
    chain->rest_cos[i] = cos(chain->rest[i]);
    chain->rest_sin[i] = sin(chain->rest[i]);
    chain->constraint[i] = NULL;
  }
  ik2d_chain_reset(chain);
  return IK2D_OK;
}

ik2d_status ik2d_chain_set_base(ik2d_chain *chain, double x, double y,
                                double angle) {
  if (chain == NULL) return IK2D_ERR_NULL;
  if (!isfinite(x) || !isfinite(y)) return IK2D_ERR_POSITION;
  if (!isfinite(angle)) return IK2D_ERR_ANGLE;
  chain->base_x = x;
  chain->base_y = y;
  chain->base_angle = angle;
  chain->base_cos = cos(angle);
  chain->base_sin = sin(angle);
  ik2d_chain_update_joints(chain);
  return IK2D_OK;
}

ik2d_status ik2d_chain_set_flip(ik2d_chain *chain, int flip) {
  if (chain == NULL) return IK2D_ERR_NULL;
  chain->flip = flip ? 1 : 0;
  ik2d_chain_update_joints(chain);
  return IK2D_OK;
}

ik2d_status ik2d_chain_set_pose(ik2d_chain *chain, int i, double angle) {
  if (chain == NULL) return IK2D_ERR_NULL;
  if (!chain_valid_index(chain, i)) return IK2D_ERR_INDEX;
  if (!isfinite(angle)) return IK2D_ERR_ANGLE;
  chain->pose[i] = angle;
  chain->angle[i] = angle;
  chain->scale = 1.0;
  ik2d_chain_update_joints(chain);
  return IK2D_OK;
}

ik2d_status ik2d_chain_set_constraint(ik2d_chain *chain, int i,
                                      const ik2d_constraint *c) {
  if (chain == NULL) return IK2D_ERR_NULL;
  if (!chain_valid_index(chain, i)) return IK2D_ERR_INDEX;
  chain->constraint[i] = c;
  return IK2D_OK;
}

void ik2d_chain_reset(ik2d_chain *chain) {
  int i;
  if (chain == NULL) return;
  for (i = 0; i < chain->count; i++) {
    chain->pose[i] = chain->rest[i];
    chain->angle[i] = chain->rest[i];
  }
  chain->scale = 1.0;
  ik2d_chain_update_joints(chain);
}

double ik2d_chain_world_angle(const ik2d_chain *chain, int i) {
  double world;
  int k;
  if (!chain_valid_index(chain, i)) return 0.0;
  world = chain->base_angle;
  /* wrapped at each step: rest angles near 1e308 would sum to inf */
  for (k = 0; k <= i; k++) world = ik2d_wrap(world + chain->angle[k]);
  /* mirroring about a vertical line maps a direction phi to pi - phi */
  return chain->flip ? ik2d_wrap(IK2D_PI - world) : world;
}

void ik2d_chain_update_joints(ik2d_chain *chain) {
  int i;
  double x, y, world, scale;
  if (chain == NULL) return;
  scale = chain->scale;
  x = chain->base_x;
  y = chain->base_y;
  world = chain->base_angle;
  chain->joint_x[0] = x;
  chain->joint_y[0] = y;
  for (i = 0; i < chain->count; i++) {
    world = ik2d_wrap(world + chain->angle[i]);
    x += chain->length[i] * scale * cos(world);
    y += chain->length[i] * scale * sin(world);
    chain->joint_x[i + 1] = x;
    chain->joint_y[i + 1] = y;
  }
  if (chain->flip) {
    for (i = 1; i <= chain->count; i++)
      chain->joint_x[i] = 2.0 * chain->base_x - chain->joint_x[i];
  }
}
