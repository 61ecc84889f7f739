/*
** ik2d_slots.c: what a rig draws, slot by slot, and where.
**
** The slots and their state live after the header in one block: the
** set-up and the current state of each slot, the drawing order, the
** attachments (their vertices, weights and uvs in one pool of doubles,
** their triangles in one of ints) and each deformed mesh's offsets.
**
** Skinning: a vertex on one bone is that bone's map of it, (a x + b y +
** x0, c x + d y + y0); a weighted one the sum over its bones of each
** one's map of its own position times its weight.  A mesh's deform
** offsets move the vertex (each bone's position, when weighted) before
** it is mapped.  The maps are the skeleton's as drawn (ik2d_skeleton_matrix).
*/
#include <math.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "ik2d_fp.h"
#include "ik2d.h"
#include "ik2d_slots.h"

#define MAX_VERTICES 65536

static size_t round8(size_t n) { return (n + 7u) & ~(size_t)7u; }

/* ------------------------------------------------------------------ */
/* sizes                                                                */
/* ------------------------------------------------------------------ */

/* The doubles an attachment puts in the pool and in the deform pool, and
** the ints in the triangles' pool (a def already checked). */
typedef struct attachment_sizes {
  long pool, deform, triangles;
} attachment_sizes;

/* A weighted mesh's bone entries (each deformed by 2 offsets). */
static long weight_entries(const ik2d_attachment_def *a) {
  long entries = 0;
  int at = 0, v;
  for (v = 0; v < a->vertex_count && at < a->weight_count; v++) {
    /* a count beyond what is left is no count (the check refuses it):
    ** stop before a cast or a sum it would overflow */
    double count = a->weights[at];
    int n;
    if (!(count >= 0.0 && count <= (double)(a->weight_count - at))) break;
    n = (int)count;
    entries += n;
    at += 1 + 4 * n;
  }
  return entries;
}

static long own_deform(const ik2d_attachment_def *a, int index) {
  if (a->kind != IK2D_ATTACHMENT_MESH || a->deform != index) return 0;
  return a->weights != NULL ? 2 * weight_entries(a) : 2 * (long)a->vertex_count;
}

static attachment_sizes sizes_of(const ik2d_slots_def *def) {
  attachment_sizes s = {0, 0, 0};
  int i;
  for (i = 0; i < def->attachment_count; i++) {
    const ik2d_attachment_def *a = &def->attachments[i];
    if (a->kind == IK2D_ATTACHMENT_HIDDEN) continue;
    s.pool += (a->weights != NULL ? a->weight_count : 2 * a->vertex_count) + 2 * a->vertex_count;
    s.triangles += 3 * (long)a->triangle_count;
    s.deform += own_deform(a, i);
  }
  return s;
}

typedef struct slots_layout {
  size_t setup, state, order, attachments, pool, triangles, deform, size;
} slots_layout;

static slots_layout slots_layout_of(const ik2d_slots_def *def) {
  attachment_sizes s = sizes_of(def);
  size_t n = (size_t)def->slot_count;
  slots_layout l;
  l.setup = round8(sizeof(ik2d_slots));
  l.state = l.setup + n * sizeof(ik2d_slot_state);
  l.order = l.state + n * sizeof(ik2d_slot_state);
  l.attachments = l.order + round8(2 * n * sizeof(int));
  l.pool = l.attachments + round8((size_t)def->attachment_count * sizeof(ik2d_attachment));
  l.triangles = l.pool + (size_t)s.pool * sizeof(double);
  l.deform = l.triangles + round8((size_t)s.triangles * sizeof(int));
  l.size = l.deform + (size_t)s.deform * sizeof(double);
  return l;
}

/* ------------------------------------------------------------------ */
/* checks                                                               */
/* ------------------------------------------------------------------ */

static bool all_finite(const double *v, long n) {
  long i;
  if (v == NULL) return n == 0;
  for (i = 0; i < n; i++)
    if (!isfinite(v[i])) return false;
  return true;
}

/* Weights: per vertex a count >= 1, then that many bones of the skeleton
** with finite positions and weights, every double used. */
static bool weights_valid(const ik2d_attachment_def *a, int bones) {
  int at = 0, v, k;
  if (!all_finite(a->weights, a->weight_count)) return false;
  for (v = 0; v < a->vertex_count; v++) {
    double n = at < a->weight_count ? a->weights[at] : 0.0;
    if (!(n >= 1.0 && n <= bones && n == floor(n))) return false;
    at++;
    for (k = 0; k < (int)n; k++, at += 4) {
      double b = at + 3 < a->weight_count ? a->weights[at] : -1.0;
      if (!(b >= 0.0 && b < bones && b == floor(b))) return false;
    }
  }
  return at == a->weight_count;
}

static bool triangles_valid(const ik2d_attachment_def *a) {
  int i;
  if (a->triangle_count < 0 || a->triangle_count > MAX_VERTICES) return false;
  if (a->triangle_count > 0 && a->triangles == NULL) return false;
  for (i = 0; i < 3 * a->triangle_count; i++)
    if (a->triangles[i] < 0 || a->triangles[i] >= a->vertex_count) return false;
  return true;
}

/* Attachment i's geometry: a region's 4 vertices, a mesh's on one bone or
** weighted, uvs for each, triangles within them, a deform that is its own
** or another mesh's of as many offsets. */
static bool attachment_valid(const ik2d_slots_def *def, int i, int bones) {
  const ik2d_attachment_def *a = &def->attachments[i];
  if (a->kind == IK2D_ATTACHMENT_HIDDEN) return true;
  if (a->kind != IK2D_ATTACHMENT_REGION && a->kind != IK2D_ATTACHMENT_MESH) return false;
  if (!all_finite(a->color, 4)) return false;
  if (a->vertex_count < 1 || a->vertex_count > MAX_VERTICES) return false;
  if (a->kind == IK2D_ATTACHMENT_REGION && (a->vertex_count != 4 || a->weights != NULL))
    return false;
  if (a->weights != NULL ? !weights_valid(a, bones) : !all_finite(a->vertices, 2L * a->vertex_count))
    return false;
  if (a->vertices == NULL && a->weights == NULL) return false;
  if (a->uvs == NULL || !all_finite(a->uvs, 2L * a->vertex_count) || !triangles_valid(a))
    return false;
  if (a->deform == -1 || a->deform == i) return true;
  if (a->deform < -1 || a->deform >= def->attachment_count) return false;
  return own_deform(&def->attachments[a->deform], a->deform) ==
         (a->weights != NULL ? 2 * weight_entries(a) : 2L * a->vertex_count);
}

/* A slot def's status: its bone the skeleton's, its attachment one of the
** rig's or none, its colours finite, its blend one of the choices. */
static ik2d_status slot_check(const ik2d_slot_def *slot, int bones, int attachments) {
  if (slot->bone < 0 || slot->bone >= bones) return IK2D_ERR_SLOT_BONE;
  if (slot->attachment < -1 || slot->attachment >= attachments) return IK2D_ERR_ATTACHMENT;
  if (!all_finite(slot->color, 4) || (slot->has_dark && !all_finite(slot->dark, 3)))
    return IK2D_ERR_COLOR;
  if (slot->blend != IK2D_BLEND_NORMAL && slot->blend != IK2D_BLEND_ADDITIVE &&
      slot->blend != IK2D_BLEND_MULTIPLY && slot->blend != IK2D_BLEND_SCREEN)
    return IK2D_ERR_BLEND;
  return IK2D_OK;
}

static ik2d_status refused(ik2d_status status, int index, int *bad) {
  if (bad != NULL) *bad = index;
  return status;
}

static ik2d_status slots_check(const ik2d_slots_def *def, int *bad) {
  int i, bones;
  if (def == NULL || def->skeleton == NULL || def->slots == NULL) return IK2D_ERR_NULL;
  if (def->slot_count < 1 || def->slot_count > IK2D_MAX_SLOTS) return IK2D_ERR_SLOT_COUNT;
  if (def->attachment_count < 0 || def->attachment_count > MAX_VERTICES ||
      (def->attachment_count > 0 && def->attachments == NULL))
    return IK2D_ERR_ATTACHMENT;
  bones = ik2d_skeleton_bone_count(def->skeleton);
  for (i = 0; i < def->slot_count; i++) {
    ik2d_status status = slot_check(&def->slots[i], bones, def->attachment_count);
    if (status != IK2D_OK) return refused(status, i, bad);
  }
  for (i = 0; i < def->attachment_count; i++)
    if (!attachment_valid(def, i, bones)) return refused(IK2D_ERR_GEOMETRY, i, bad);
  return IK2D_OK;
}

size_t ik2d_slots_size(const ik2d_slots_def *def) {
  if (slots_check(def, NULL) != IK2D_OK) return 0;
  return slots_layout_of(def).size;
}

/* ------------------------------------------------------------------ */
/* making                                                               */
/* ------------------------------------------------------------------ */

static void state_of(const ik2d_slot_def *d, ik2d_slot_state *s) {
  s->bone = d->bone;
  s->attachment = d->attachment;
  memcpy(s->color, d->color, sizeof s->color);
  memcpy(s->dark, d->dark, sizeof s->dark);
  s->has_dark = d->has_dark;
  s->blend = d->blend;
}

/* n doubles of from into the pool at *at (none for NULL): their offset,
** -1 for none. */
static int pool_put(double *pool, long *at, const double *from, long n) {
  long start = *at;
  if (from == NULL) return -1;
  memcpy(pool + start, from, (size_t)n * sizeof(double));
  *at = start + n;
  return (int)start;
}

/* Attachment i of def into the block: its arrays into the pools. */
static void attachment_copy(ik2d_slots *slots, const ik2d_slots_def *def, int i, long *pool,
                            long *triangles, long *deform) {
  const ik2d_attachment_def *d = &def->attachments[i];
  ik2d_attachment *a = &slots->attachments[i];
  memset(a, 0, sizeof *a);
  a->kind = d->kind;
  a->vertices = a->weights = a->uvs = a->deform = -1;
  if (d->kind == IK2D_ATTACHMENT_HIDDEN) return;
  memcpy(a->color, d->color, sizeof a->color);
  a->vertex_count = d->vertex_count;
  a->weight_count = d->weights != NULL ? d->weight_count : 0;
  a->triangle_count = d->triangle_count;
  a->weights = pool_put(slots->pool, pool, d->weights, a->weight_count);
  if (d->weights == NULL) a->vertices = pool_put(slots->pool, pool, d->vertices, 2L * d->vertex_count);
  a->uvs = pool_put(slots->pool, pool, d->uvs, 2L * d->vertex_count);
  a->triangles = (int)*triangles;
  if (d->triangle_count > 0)
    memcpy(slots->triangle_pool + *triangles, d->triangles, 3 * (size_t)d->triangle_count * sizeof(int));
  *triangles += 3L * d->triangle_count;
  a->deform = d->deform;
  a->deform_at = (int)*deform;
  a->deform_count = (int)own_deform(d, i);
  *deform += a->deform_count;
}

static void slots_arrays(ik2d_slots *slots, const ik2d_slots_def *def) {
  slots_layout l = slots_layout_of(def);
  char *memory = (char *)slots;
  long pool = 0, triangles = 0, deform = 0;
  int i;
  slots->count = def->slot_count;
  slots->attachment_count = def->attachment_count;
  slots->setup = (ik2d_slot_state *)(void *)(memory + l.setup);
  slots->state = (ik2d_slot_state *)(void *)(memory + l.state);
  slots->order = (int *)(void *)(memory + l.order);
  slots->setup_order = slots->order + def->slot_count;
  slots->attachments = (ik2d_attachment *)(void *)(memory + l.attachments);
  slots->pool = (double *)(void *)(memory + l.pool);
  slots->triangle_pool = (int *)(void *)(memory + l.triangles);
  slots->deform = (double *)(void *)(memory + l.deform);
  for (i = 0; i < def->attachment_count; i++)
    attachment_copy(slots, def, i, &pool, &triangles, &deform);
  slots->deform_total = (int)deform;
}

ik2d_status ik2d_slots_init(ik2d_slots *slots, size_t size, const ik2d_slots_def *def,
                            int *bad) {
  ik2d_status status;
  int i;
  if (slots == NULL) return IK2D_ERR_NULL;
  if ((uintptr_t)slots % sizeof(double) != 0) return IK2D_ERR_ALIGNMENT;
  status = slots_check(def, bad);
  if (status != IK2D_OK) return status;
  if (size < slots_layout_of(def).size) return IK2D_ERR_SIZE;
  slots_arrays(slots, def);
  for (i = 0; i < def->slot_count; i++) {
    state_of(&def->slots[i], &slots->setup[i]);
    slots->setup_order[i] = i;
  }
  ik2d_slots_to_setup(slots);
  return IK2D_OK;
}

void ik2d_slots_to_setup(ik2d_slots *slots) {
  if (slots == NULL) return;
  memcpy(slots->state, slots->setup, (size_t)slots->count * sizeof(ik2d_slot_state));
  memcpy(slots->order, slots->setup_order, (size_t)slots->count * sizeof(int));
  memset(slots->deform, 0, (size_t)slots->deform_total * sizeof(double));
}

/* ------------------------------------------------------------------ */
/* state                                                                */
/* ------------------------------------------------------------------ */

int ik2d_slots_count(const ik2d_slots *slots) { return slots != NULL ? slots->count : 0; }

int ik2d_slots_attachment_count(const ik2d_slots *slots) {
  return slots != NULL ? slots->attachment_count : 0;
}

static bool has_slot(const ik2d_slots *slots, int i) {
  return slots != NULL && i >= 0 && i < slots->count;
}

int ik2d_slots_attachment(const ik2d_slots *slots, int i) {
  return has_slot(slots, i) ? slots->state[i].attachment : -1;
}

ik2d_status ik2d_slots_set_attachment(ik2d_slots *slots, int i, int attachment) {
  if (slots == NULL) return IK2D_ERR_NULL;
  if (!has_slot(slots, i)) return IK2D_ERR_INDEX;
  if (attachment < -1 || attachment >= slots->attachment_count) return IK2D_ERR_ATTACHMENT;
  slots->state[i].attachment = attachment;
  return IK2D_OK;
}

ik2d_status ik2d_slots_color(const ik2d_slots *slots, int i, double *rgba) {
  if (slots == NULL || rgba == NULL) return IK2D_ERR_NULL;
  if (!has_slot(slots, i)) return IK2D_ERR_INDEX;
  memcpy(rgba, slots->state[i].color, 4 * sizeof(double));
  return IK2D_OK;
}

ik2d_status ik2d_slots_set_color(ik2d_slots *slots, int i, const double *rgba) {
  if (slots == NULL || rgba == NULL) return IK2D_ERR_NULL;
  if (!has_slot(slots, i)) return IK2D_ERR_INDEX;
  if (!all_finite(rgba, 4)) return IK2D_ERR_COLOR;
  memcpy(slots->state[i].color, rgba, 4 * sizeof(double));
  return IK2D_OK;
}

bool ik2d_slots_dark(const ik2d_slots *slots, int i, double *rgb) {
  if (!has_slot(slots, i) || !slots->state[i].has_dark) return false;
  if (rgb != NULL) memcpy(rgb, slots->state[i].dark, 3 * sizeof(double));
  return true;
}

const int *ik2d_slots_draw_order(const ik2d_slots *slots) {
  return slots != NULL ? slots->order : NULL;
}

const double *ik2d_slots_deform(const ik2d_slots *slots, int attachment, int *count) {
  const ik2d_attachment *a;
  if (slots == NULL || attachment < 0 || attachment >= slots->attachment_count) {
    if (count != NULL) *count = 0;
    return NULL;
  }
  a = &slots->attachments[attachment];
  if (count != NULL) *count = a->deform_count;
  return a->deform_count > 0 ? slots->deform + a->deform_at : NULL;
}

ik2d_status ik2d_slots_tint(const ik2d_slots *slots, int i, double *rgba) {
  const ik2d_slot_state *s;
  int k;
  if (slots == NULL || rgba == NULL) return IK2D_ERR_NULL;
  if (!has_slot(slots, i)) return IK2D_ERR_INDEX;
  s = &slots->state[i];
  for (k = 0; k < 4; k++)
    rgba[k] = s->attachment >= 0 ? s->color[k] * slots->attachments[s->attachment].color[k]
                                 : s->color[k];
  return IK2D_OK;
}

/* ------------------------------------------------------------------ */
/* skinning                                                             */
/* ------------------------------------------------------------------ */

/* The deform offsets attachment a takes, or NULL. */
static const double *deform_of(const ik2d_slots *slots, const ik2d_attachment *a) {
  const ik2d_attachment *owner;
  if (a->deform < 0) return NULL;
  owner = &slots->attachments[a->deform];
  return owner->deform_count > 0 ? slots->deform + owner->deform_at : NULL;
}

/* Vertices on one bone of map m. */
static void on_bone(const double *v, const double *deform, int n, const double *m, double *out) {
  int i;
  for (i = 0; i < n; i++) {
    double x = v[2 * i], y = v[2 * i + 1];
    if (deform != NULL) {
      x = x + deform[2 * i];
      y = y + deform[2 * i + 1];
    }
    out[2 * i] = m[0] * x + m[1] * y + m[4];
    out[2 * i + 1] = m[2] * x + m[3] * y + m[5];
  }
}

/* Weighted vertices on the maps of every bone. */
static void weighted(const double *w, const double *deform, int n, const double *maps,
                     double *out) {
  int i, j, at = 0, d = 0;
  for (i = 0; i < n; i++) {
    int count = (int)w[at++];
    double wx = 0.0, wy = 0.0;
    for (j = 0; j < count; j++, at += 4, d += 2) {
      const double *m = &maps[6 * (int)w[at]];
      double x = w[at + 1], y = w[at + 2], weight = w[at + 3];
      if (deform != NULL) {
        x = x + deform[d];
        y = y + deform[d + 1];
      }
      wx += (m[0] * x + m[1] * y + m[4]) * weight;
      wy += (m[2] * x + m[3] * y + m[5]) * weight;
    }
    out[2 * i] = wx;
    out[2 * i + 1] = wy;
  }
}

/* Slot i's attachment's vertices on maps (the skeleton's as drawn), or 0
** when it draws nothing or they do not fit in max doubles. */
static int slot_vertices(const ik2d_slots *slots, int i, const double *maps, double *out,
                         int max) {
  const ik2d_slot_state *s = &slots->state[i];
  const ik2d_attachment *a;
  if (s->attachment < 0) return 0;
  a = &slots->attachments[s->attachment];
  if (a->kind == IK2D_ATTACHMENT_HIDDEN) return 0;
  if (out == NULL || 2 * a->vertex_count > max) return a->vertex_count;
  if (a->weights >= 0)
    weighted(slots->pool + a->weights, deform_of(slots, a), a->vertex_count, maps, out);
  else
    on_bone(slots->pool + a->vertices, deform_of(slots, a), a->vertex_count, &maps[6 * s->bone],
            out);
  return a->vertex_count;
}

int ik2d_slots_vertices(const ik2d_slots *slots, ik2d_skeleton *skeleton, int i, double *out,
                        int max) {
  if (!has_slot(slots, i) || skeleton == NULL) return 0;
  /* a count alone needs no maps: making them costs the whole skeleton */
  return slot_vertices(slots, i, out != NULL ? ik2d_skeleton_matrices(skeleton) : NULL, out, max);
}

int ik2d_slots_all_vertices(const ik2d_slots *slots, ik2d_skeleton *skeleton, double *out,
                            int max, int *drawn) {
  const double *maps;
  int k, at = 0, count = 0;
  if (slots == NULL || skeleton == NULL || out == NULL || drawn == NULL) return -1;
  maps = ik2d_skeleton_matrices(skeleton);
  for (k = 0; k < slots->count; k++) {
    int i = slots->order[k];
    int n = slot_vertices(slots, i, maps, out + at, max - at);
    if (n == 0) continue;
    if (2 * n > max - at) return -1;
    drawn[count++] = i;
    at += 2 * n;
  }
  return count;
}
