/*
** ik2d_clip.c: clips, keyed timelines played on a rig.
**
** A clip is its timelines (ik2d_timeline.h's arithmetic) copied into one
** block after its header, each bound to a channel and a target.  Playing
** it at a time takes each timeline's value there and moves its target
** toward it by alpha: a bone's pose part (the skeleton's set-up combined
** with the key: rotation, shear and translation added, scale multiplied),
** a solver's or a transform constraint's setting (through their checked
** setters), a slot's attachment, colours, the drawing order, an
** attachment's deform.  Values switched whole (attachments, the order,
** stepped settings, inherit modes) switch where alpha reaches one half,
** the middle of a crossfade.
*/
#include <math.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "ik2d.h"
#include "ik2d_math.h"
#include "ik2d_skeleton.h"
#include "ik2d_slots.h"
#include "ik2d_timeline.h"

typedef struct clip_timeline {
  ik2d_channel channel;
  int target;
  int values;          /* a key's */
  int curve_values;    /* a curve's: each value's, but a deform's share */
  ik2d_timeline line;
} clip_timeline;

struct ik2d_clip {
  double duration;
  int timeline_count;
  clip_timeline *timelines;
};

static size_t round8(size_t n) { return (n + 7u) & ~(size_t)7u; }

/* ------------------------------------------------------------------ */
/* channels                                                             */
/* ------------------------------------------------------------------ */

typedef enum channel_kind { ON_BONE, ON_SOLVER, ON_CONSTRAINT, ON_SLOT, ON_ORDER, ON_DEFORM } channel_kind;

static channel_kind kind_of(ik2d_channel channel) {
  if (channel <= IK2D_CHANNEL_INHERIT) return ON_BONE;
  if (channel <= IK2D_CHANNEL_STRETCH) return ON_SOLVER;
  if (channel <= IK2D_CHANNEL_MIX_SHEAR_Y) return ON_CONSTRAINT;
  if (channel <= IK2D_CHANNEL_DARK) return ON_SLOT;
  return channel == IK2D_CHANNEL_DRAW_ORDER ? ON_ORDER : ON_DEFORM;
}

/* Switched whole, not blended: the key's value holds to the next key. */
static bool switched(ik2d_channel channel) {
  return channel == IK2D_CHANNEL_INHERIT || channel == IK2D_CHANNEL_BEND ||
         channel == IK2D_CHANNEL_COMPRESS || channel == IK2D_CHANNEL_STRETCH ||
         channel == IK2D_CHANNEL_ATTACHMENT || channel == IK2D_CHANNEL_DRAW_ORDER;
}

/* A key's values for the channel on targets, 0 for a bad channel or
** target. */
static int values_of(const ik2d_timeline_def *t, const ik2d_rig_targets *targets) {
  const ik2d_slots *slots = targets->slots;
  int n;
  if (t->channel < IK2D_CHANNEL_ROTATE || t->channel > IK2D_CHANNEL_DEFORM) return 0;
  switch (kind_of(t->channel)) {
  case ON_BONE: n = ik2d_skeleton_bone_count(targets->skeleton); break;
  case ON_SOLVER: n = targets->solver_count; break;
  case ON_CONSTRAINT: n = targets->constraint_count; break;
  case ON_SLOT: n = ik2d_slots_count(slots); break;
  case ON_ORDER: return ik2d_slots_count(slots);
  default: return t->target >= 0 && t->target < ik2d_slots_attachment_count(slots)
                      ? slots->attachments[t->target].deform_count : 0;
  }
  if (t->target < 0 || t->target >= n) return 0;
  if (t->channel == IK2D_CHANNEL_COLOR) return 4;
  return t->channel == IK2D_CHANNEL_RGB || t->channel == IK2D_CHANNEL_DARK ? 3 : 1;
}

static int curve_values_of(const ik2d_timeline_def *t, int values) {
  return t->channel == IK2D_CHANNEL_DEFORM ? 1 : switched(t->channel) ? 0 : values;
}

/* ------------------------------------------------------------------ */
/* checks                                                               */
/* ------------------------------------------------------------------ */

static bool whole_in(double v, double low, double high) {
  return v == floor(v) && v >= low && v <= high;
}

/* A draw order key: every slot once. */
static bool is_order(const double *v, int n) {
  bool seen[IK2D_MAX_SLOTS];
  int i;
  memset(seen, 0, sizeof seen);
  for (i = 0; i < n; i++) {
    if (!whole_in(v[i], 0, n - 1) || seen[(int)v[i]]) return false;
    seen[(int)v[i]] = true;
  }
  return true;
}

/* Is v a value the channel takes? */
static bool value_valid(ik2d_channel channel, double v, const ik2d_rig_targets *targets) {
  /* (stretch switches, not blends: HUGE_VAL, Spine's unbounded stretch) */
  if (channel == IK2D_CHANNEL_STRETCH) return v == HUGE_VAL || (isfinite(v) && v >= 1.0);
  if (!isfinite(v)) return false;
  switch (channel) {
  case IK2D_CHANNEL_INHERIT: return whole_in(v, 0, IK2D_INHERIT_NO_SCALE_OR_REFLECTION);
  case IK2D_CHANNEL_BEND: return v == 1.0 || v == -1.0;
  case IK2D_CHANNEL_SOFTNESS: return v >= 0.0;
  case IK2D_CHANNEL_COMPRESS: return v >= 0.0 && v <= 1.0;
  case IK2D_CHANNEL_ATTACHMENT:
    return whole_in(v, -1, ik2d_slots_attachment_count(targets->slots) - 1);
  default: return true;
  }
}

/* The keys' times increasing and their values valid. */
static ik2d_status keys_check(const ik2d_timeline_def *t, int values,
                              const ik2d_rig_targets *targets) {
  int k, c;
  if (t->key_count < 1) return IK2D_ERR_KEY_COUNT;
  if (t->times == NULL || t->values == NULL) return IK2D_ERR_NULL;
  for (k = 0; k < t->key_count; k++) {
    const double *v = &t->values[(size_t)k * (size_t)values];
    if (!isfinite(t->times[k]) || (k > 0 && !(t->times[k] > t->times[k - 1])))
      return IK2D_ERR_KEY_TIME;
    if (t->channel == IK2D_CHANNEL_DRAW_ORDER) {
      if (!is_order(v, values)) return IK2D_ERR_KEY_VALUE;
      continue;
    }
    for (c = 0; c < values; c++)
      if (!value_valid(t->channel, v[c], targets)) return IK2D_ERR_KEY_VALUE;
  }
  return IK2D_OK;
}

/* Each curve one of the kinds, its points finite and in time between its
** keys; the number of points in all. */
static ik2d_status curves_check(const ik2d_timeline_def *t, int curve_values, long *points) {
  const double *p = t->points;
  int k, c, i;
  *points = 0;
  if (t->curves == NULL) return IK2D_OK;
  for (k = 0; k < t->key_count; k++) {
    int kind = t->curves[k];
    if (kind > IK2D_CURVE_POINTS) return IK2D_ERR_CURVE;
    if (kind != IK2D_CURVE_POINTS || curve_values == 0) continue;
    if (t->point_counts == NULL || t->points == NULL || k == t->key_count - 1)
      return IK2D_ERR_CURVE;
    for (c = 0; c < curve_values; c++) {
      int n = t->point_counts[(size_t)k * (size_t)curve_values + (size_t)c];
      if (n < 0 || n > 1024) return IK2D_ERR_CURVE;
      for (i = 0; i < n; i++, p += 2) {
        if (!isfinite(p[0]) || !isfinite(p[1]) || p[0] < t->times[k] || p[0] > t->times[k + 1])
          return IK2D_ERR_CURVE;
      }
      *points += n;
    }
  }
  return IK2D_OK;
}

/* A timeline's status, and its values a key and points. */
static ik2d_status timeline_check(const ik2d_timeline_def *t, const ik2d_rig_targets *targets,
                                  int *values, long *points) {
  ik2d_status status;
  *values = values_of(t, targets);
  if (*values == 0) return IK2D_ERR_TIMELINE_TARGET;
  status = keys_check(t, *values, targets);
  if (status != IK2D_OK) return status;
  return curves_check(t, curve_values_of(t, *values), points);
}

/* The block's size for def on targets, or 0 when one is bad (its status
** in *status, its index in *bad). */
static size_t clip_size_of(const ik2d_clip_def *def, const ik2d_rig_targets *targets,
                           ik2d_status *status, int *bad) {
  size_t size;
  int i;
  *status = IK2D_ERR_NULL;
  if (def == NULL || targets == NULL || targets->skeleton == NULL) return 0;
  if (def->timeline_count < 0 || (def->timeline_count > 0 && def->timelines == NULL)) return 0;
  *status = IK2D_ERR_DURATION;
  if (!isfinite(def->duration) || def->duration < 0.0) return 0;
  size = round8(sizeof(ik2d_clip)) + round8((size_t)def->timeline_count * sizeof(clip_timeline));
  for (i = 0; i < def->timeline_count; i++) {
    const ik2d_timeline_def *t = &def->timelines[i];
    int values;
    long points;
    *status = timeline_check(t, targets, &values, &points);
    if (*status != IK2D_OK) {
      if (bad != NULL) *bad = i;
      return 0;
    }
    size += (size_t)t->key_count * ((size_t)values + 1) * sizeof(double) +
            round8((size_t)t->key_count) +
            2 * round8((size_t)t->key_count * (size_t)curve_values_of(t, values) * sizeof(int)) +
            (size_t)points * 2 * sizeof(double);
  }
  return size;
}

size_t ik2d_clip_size(const ik2d_clip_def *def, const ik2d_rig_targets *targets) {
  ik2d_status status;
  return clip_size_of(def, targets, &status, NULL);
}

/* ------------------------------------------------------------------ */
/* the copy                                                             */
/* ------------------------------------------------------------------ */

/* Copies timeline t into the block at *at: its arrays and points, the
** start of each curve's points. */
static void timeline_copy(clip_timeline *out, const ik2d_timeline_def *t, int values,
                          char **at) {
  int curve_values = curve_values_of(t, values), k, c;
  size_t keys = (size_t)t->key_count, entries = keys * (size_t)curve_values;
  double *times = (double *)(void *)*at, *vals = times + keys, *points;
  unsigned char *curves = (unsigned char *)(vals + keys * (size_t)values);
  int *first = (int *)(void *)(curves + round8(keys)), *count;
  int at_point = 0;
  count = (int *)(void *)((char *)first + round8(entries * sizeof(int)));
  points = (double *)(void *)((char *)count + round8(entries * sizeof(int)));
  memcpy(times, t->times, keys * sizeof(double));
  memcpy(vals, t->values, keys * (size_t)values * sizeof(double));
  for (k = 0; k < t->key_count; k++) {
    int kind = t->curves != NULL ? t->curves[k] : IK2D_CURVE_LINEAR;
    curves[k] = (unsigned char)(switched(t->channel) ? IK2D_CURVE_STEPPED : kind);
    for (c = 0; c < curve_values; c++) {
      size_t e = (size_t)k * (size_t)curve_values + (size_t)c;
      int n = kind == IK2D_CURVE_POINTS && t->point_counts != NULL ? t->point_counts[e] : 0;
      first[e] = 2 * at_point;
      count[e] = n;
      if (n > 0) memcpy(points + 2 * at_point, t->points + 2 * at_point, (size_t)n * 2 * sizeof(double));
      at_point += n;
    }
  }
  out->channel = t->channel;
  out->target = t->target;
  out->values = values;
  out->curve_values = curve_values;
  out->line.key_count = t->key_count;
  out->line.channels = curve_values > 0 ? curve_values : 1;
  out->line.times = times;
  out->line.values = vals;
  out->line.curves = curves;
  out->line.first = first;
  out->line.count = count;
  out->line.points = points;
  *at = (char *)(points + 2 * at_point);
}

ik2d_status ik2d_clip_init(ik2d_clip *clip, size_t size, const ik2d_clip_def *def,
                           const ik2d_rig_targets *targets, int *bad) {
  ik2d_status status;
  size_t needed;
  char *at;
  int i;
  if (clip == NULL) return IK2D_ERR_NULL;
  if ((uintptr_t)clip % sizeof(double) != 0) return IK2D_ERR_ALIGNMENT;
  needed = clip_size_of(def, targets, &status, bad);
  if (needed == 0) return status;
  if (size < needed) return IK2D_ERR_SIZE;
  clip->duration = def->duration;
  clip->timeline_count = def->timeline_count;
  at = (char *)clip + round8(sizeof(ik2d_clip));
  clip->timelines = (clip_timeline *)(void *)at;
  at += round8((size_t)def->timeline_count * sizeof(clip_timeline));
  for (i = 0; i < def->timeline_count; i++)
    timeline_copy(&clip->timelines[i], &def->timelines[i], values_of(&def->timelines[i], targets),
                  &at);
  return IK2D_OK;
}

double ik2d_clip_duration(const ik2d_clip *clip) { return clip != NULL ? clip->duration : 0.0; }

/* ------------------------------------------------------------------ */
/* playing                                                              */
/* ------------------------------------------------------------------ */

/* From current toward target by alpha (alpha 1: target, not a rounding
** off it); an angle the short way. */
static double blend(double current, double target, double alpha) {
  return alpha == 1.0 ? target : current + (target - current) * alpha;
}

static double blend_angle(double current, double target, double alpha) {
  return alpha == 1.0 ? target : current + ik2d_wrap(target - current) * alpha;
}

/* Channel c's value at time (key k): a switched one's is its key's. */
static double value_at(const clip_timeline *tl, int k, int c, double time) {
  if (tl->curve_values == 0) return tl->line.values[(size_t)k * (size_t)tl->values + (size_t)c];
  return ik2d_timeline_value(&tl->line, k, c, time);
}

/* A bone's pose part toward the set-up combined with the key. */
static void bone_apply(ik2d_skeleton *sk, const clip_timeline *tl, double v, double alpha) {
  int b = tl->target;
  ik2d_bone_shape *pose = &sk->pose_shape[b];
  const ik2d_bone_shape *setup = &sk->setup[b];
  switch (tl->channel) {
  case IK2D_CHANNEL_ROTATE:
    sk->pose[b] = sk->angle[b] = blend_angle(sk->pose[b], sk->rest[b] + v, alpha);
    return;
  case IK2D_CHANNEL_X: pose->x = blend(pose->x, setup->x + v, alpha); break;
  case IK2D_CHANNEL_Y: pose->y = blend(pose->y, setup->y + v, alpha); break;
  case IK2D_CHANNEL_SCALE_X: pose->scale_x = blend(pose->scale_x, setup->scale_x * v, alpha); break;
  case IK2D_CHANNEL_SCALE_Y: pose->scale_y = blend(pose->scale_y, setup->scale_y * v, alpha); break;
  case IK2D_CHANNEL_SHEAR_X: pose->shear_x = blend(pose->shear_x, setup->shear_x + v, alpha); break;
  case IK2D_CHANNEL_SHEAR_Y: pose->shear_y = blend(pose->shear_y, setup->shear_y + v, alpha); break;
  default:
    if (alpha >= 0.5) sk->inherit[b] = (unsigned char)v;
    break;
  }
  sk->shape[b] = *pose;
}

static void solver_apply(ik2d_solver *s, ik2d_channel channel, double v, double alpha) {
  ik2d_solver_def d = ik2d_solver_get_def(s);
  switch (channel) {
  case IK2D_CHANNEL_WEIGHT: ik2d_solver_set_weight(s, blend(d.weight, v, alpha)); break;
  case IK2D_CHANNEL_SOFTNESS:
    ik2d_solver_set_softness(s, blend(d.two_bone.softness, v, alpha));
    break;
  case IK2D_CHANNEL_BEND: if (alpha >= 0.5) ik2d_solver_set_bend(s, (int)v); break;
  case IK2D_CHANNEL_COMPRESS: if (alpha >= 0.5) ik2d_solver_set_compress(s, v); break;
  default: if (alpha >= 0.5) ik2d_solver_set_stretch(s, v); break;
  }
}

static void constraint_apply(ik2d_transform_constraint *tc, ik2d_channel channel, double v,
                             double alpha) {
  ik2d_transform_constraint_def d = ik2d_transform_constraint_get_def(tc);
  double *mix[] = {&d.mix_rotate, &d.mix_x, &d.mix_y, &d.mix_scale_x, &d.mix_scale_y,
                   &d.mix_shear_y};
  double *m = mix[channel - IK2D_CHANNEL_MIX_ROTATE];
  *m = blend(*m, v, alpha);
  ik2d_transform_constraint_set_def(tc, &d);
}

/* A slot's attachment, colours: the key's values from channel 0 on. */
static void slot_apply(ik2d_slots *slots, const clip_timeline *tl, int k, double time,
                       double alpha) {
  ik2d_slot_state *state = &slots->state[tl->target];
  double *parts = state->color;
  int c, first = 0;
  if (tl->channel == IK2D_CHANNEL_ATTACHMENT) {
    if (alpha >= 0.5) state->attachment = (int)value_at(tl, k, 0, time);
    return;
  }
  if (tl->channel == IK2D_CHANNEL_DARK) parts = state->dark;
  if (tl->channel == IK2D_CHANNEL_ALPHA) first = 3;
  for (c = 0; c < tl->values; c++)
    parts[first + c] = blend(parts[first + c], value_at(tl, k, c, time), alpha);
}

static void order_apply(ik2d_slots *slots, const clip_timeline *tl, int k, double alpha) {
  const double *v = &tl->line.values[(size_t)k * (size_t)tl->values];
  int i;
  if (alpha < 0.5) return;
  for (i = 0; i < tl->values; i++) slots->order[i] = (int)v[i];
}

/* An attachment's offsets toward the keys' (key k's to the next's by the
** curve's share). */
static void deform_apply(ik2d_slots *slots, const clip_timeline *tl, int k, double time,
                         double alpha) {
  double *out = slots->deform + slots->attachments[tl->target].deform_at;
  const double *from = &tl->line.values[(size_t)k * (size_t)tl->values];
  double share = ik2d_timeline_share(&tl->line, k, time);
  int i;
  if (k >= tl->line.key_count - 1) share = 0.0;
  for (i = 0; i < tl->values; i++) {
    double v = from[i];
    if (share != 0.0) v = v + (from[tl->values + i] - v) * share;
    out[i] = blend(out[i], v, alpha);
  }
}

/* Do the targets still take every timeline of the clip (as at init)? */
static bool targets_fit(const ik2d_clip *clip, const ik2d_rig_targets *targets) {
  int i;
  for (i = 0; i < clip->timeline_count; i++) {
    ik2d_timeline_def t;
    const clip_timeline *tl = &clip->timelines[i];
    t.channel = tl->channel;
    t.target = tl->target;
    if (values_of(&t, targets) != tl->values) return false;
  }
  return true;
}

/* One timeline at time on targets; true when it keyed a bone. */
static bool timeline_apply(const clip_timeline *tl, const ik2d_rig_targets *targets,
                           double time, double alpha) {
  int k = ik2d_timeline_key(&tl->line, time);
  if (k < 0) return false;
  switch (kind_of(tl->channel)) {
  case ON_BONE: bone_apply(targets->skeleton, tl, value_at(tl, k, 0, time), alpha); return true;
  case ON_SOLVER:
    solver_apply(targets->solvers[tl->target], tl->channel, value_at(tl, k, 0, time), alpha);
    return false;
  case ON_CONSTRAINT:
    constraint_apply(targets->constraints[tl->target], tl->channel, value_at(tl, k, 0, time),
                     alpha);
    return false;
  case ON_SLOT: slot_apply(targets->slots, tl, k, time, alpha); return false;
  case ON_ORDER: order_apply(targets->slots, tl, k, alpha); return false;
  default: deform_apply(targets->slots, tl, k, time, alpha); return false;
  }
}

/* A bone timeline the rigid way cannot place (all but rotations)? */
static bool needs_general(const ik2d_clip *clip) {
  int i;
  for (i = 0; i < clip->timeline_count; i++)
    if (kind_of(clip->timelines[i].channel) == ON_BONE &&
        clip->timelines[i].channel != IK2D_CHANNEL_ROTATE)
      return true;
  return false;
}

ik2d_status ik2d_clip_apply(const ik2d_clip *clip, const ik2d_rig_targets *targets,
                            double time, double alpha) {
  bool posed = false;
  int i;
  if (clip == NULL || targets == NULL || targets->skeleton == NULL) return IK2D_ERR_NULL;
  if (!isfinite(time)) return IK2D_ERR_TIME;
  if (!(alpha >= 0.0 && alpha <= 1.0)) return IK2D_ERR_ALPHA;
  if (!targets_fit(clip, targets)) return IK2D_ERR_TIMELINE_TARGET;
  if (needs_general(clip)) ik2d__skeleton_make_general(targets->skeleton);
  for (i = 0; i < clip->timeline_count; i++)
    posed = timeline_apply(&clip->timelines[i], targets, time, alpha) || posed;
  if (posed) ik2d__skeleton_posed(targets->skeleton);
  return IK2D_OK;
}

ik2d_status ik2d_rig_targets_to_setup(const ik2d_rig_targets *targets) {
  if (targets == NULL || targets->skeleton == NULL) return IK2D_ERR_NULL;
  ik2d__skeleton_setup_posed(targets->skeleton);
  if (targets->slots != NULL) ik2d_slots_to_setup(targets->slots);
  return IK2D_OK;
}
