/*
** ik2d_slots.c: what a rig draws, slot by slot.
**
** The slots and their state live after the header in one block: the
** set-up and the current state of each slot, the drawing order, and each
** deformed attachment's offsets (their places found once from the sizes).
** Nothing here places bones or vertices: the slots say what is shown and
** how; the skinning reads them with the skeleton's maps.
*/
#include <math.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "ik2d.h"
#include "ik2d_slots.h"

static size_t round8(size_t n) { return (n + 7u) & ~(size_t)7u; }

typedef struct slots_layout {
  size_t setup, state, order, deform_at, deform_count, deform, size;
} slots_layout;

/* The doubles of every attachment's deform, or -1 for a bad size. */
static long deform_total(const ik2d_slots_def *def) {
  long total = 0;
  int a;
  if (def->deform_sizes == NULL) return 0;
  for (a = 0; a < def->attachment_count; a++) {
    int n = def->deform_sizes[a];
    if (n < 0 || n > 2 * 65536) return -1;
    total += n;
  }
  return total;
}

static slots_layout slots_layout_of(int slots, int attachments, long deform) {
  slots_layout l;
  size_t n = (size_t)slots;
  l.setup = round8(sizeof(ik2d_slots));
  l.state = l.setup + n * sizeof(ik2d_slot_state);
  l.order = l.state + n * sizeof(ik2d_slot_state);
  l.deform_at = l.order + round8(2 * n * sizeof(int));
  l.deform_count = l.deform_at + round8((size_t)attachments * sizeof(int));
  l.deform = l.deform_count + round8((size_t)attachments * sizeof(int));
  l.size = l.deform + (size_t)deform * sizeof(double);
  return l;
}

static bool counts_valid(const ik2d_slots_def *def) {
  return def != NULL && def->slot_count >= 1 && def->slot_count <= IK2D_MAX_SLOTS &&
         def->attachment_count >= 0 && def->attachment_count <= 65536 && deform_total(def) >= 0;
}

size_t ik2d_slots_size(const ik2d_slots_def *def) {
  if (!counts_valid(def)) return 0;
  return slots_layout_of(def->slot_count, def->attachment_count, deform_total(def)).size;
}

/* A slot def's status: its bone the skeleton's, its attachment one of the
** rig's or none, its colours finite, its blend one of the choices. */
static ik2d_status slot_check(const ik2d_slot_def *slot, int bones, int attachments) {
  int k;
  if (slot->bone < 0 || slot->bone >= bones) return IK2D_ERR_SLOT_BONE;
  if (slot->attachment < -1 || slot->attachment >= attachments) return IK2D_ERR_ATTACHMENT;
  for (k = 0; k < 4; k++)
    if (!isfinite(slot->color[k])) return IK2D_ERR_COLOR;
  for (k = 0; k < 3; k++)
    if (slot->has_dark && !isfinite(slot->dark[k])) return IK2D_ERR_COLOR;
  if (slot->blend != IK2D_BLEND_NORMAL && slot->blend != IK2D_BLEND_ADDITIVE &&
      slot->blend != IK2D_BLEND_MULTIPLY && slot->blend != IK2D_BLEND_SCREEN)
    return IK2D_ERR_BLEND;
  return IK2D_OK;
}

static ik2d_status slots_check(const ik2d_slots_def *def, int *bad) {
  int i, bones;
  if (def == NULL || def->skeleton == NULL || def->slots == NULL) return IK2D_ERR_NULL;
  if (def->slot_count < 1 || def->slot_count > IK2D_MAX_SLOTS) return IK2D_ERR_SLOT_COUNT;
  if (!counts_valid(def)) return IK2D_ERR_ATTACHMENT;
  bones = ik2d_skeleton_bone_count(def->skeleton);
  for (i = 0; i < def->slot_count; i++) {
    ik2d_status status = slot_check(&def->slots[i], bones, def->attachment_count);
    if (status != IK2D_OK) {
      if (bad != NULL) *bad = i;
      return status;
    }
  }
  return IK2D_OK;
}

static void state_of(const ik2d_slot_def *d, ik2d_slot_state *s) {
  s->bone = d->bone;
  s->attachment = d->attachment;
  memcpy(s->color, d->color, sizeof s->color);
  memcpy(s->dark, d->dark, sizeof s->dark);
  s->has_dark = d->has_dark;
  s->blend = d->blend;
}

/* The arrays after the header, and each attachment's deform place. */
static void slots_arrays(ik2d_slots *slots, const ik2d_slots_def *def) {
  slots_layout l = slots_layout_of(def->slot_count, def->attachment_count, deform_total(def));
  char *memory = (char *)slots;
  int a, at = 0;
  slots->count = def->slot_count;
  slots->attachments = def->attachment_count;
  slots->setup = (ik2d_slot_state *)(void *)(memory + l.setup);
  slots->state = (ik2d_slot_state *)(void *)(memory + l.state);
  slots->order = (int *)(void *)(memory + l.order);
  slots->setup_order = slots->order + def->slot_count;
  slots->deform_at = (int *)(void *)(memory + l.deform_at);
  slots->deform_count = (int *)(void *)(memory + l.deform_count);
  slots->deform = (double *)(void *)(memory + l.deform);
  for (a = 0; a < def->attachment_count; a++) {
    slots->deform_at[a] = at;
    slots->deform_count[a] = def->deform_sizes != NULL ? def->deform_sizes[a] : 0;
    at += slots->deform_count[a];
  }
  slots->deform_total = at;
}

ik2d_status ik2d_slots_init(ik2d_slots *slots, size_t size, const ik2d_slots_def *def,
                            int *bad) {
  ik2d_status status;
  int i;
  if (slots == NULL) return IK2D_ERR_NULL;
  if ((uintptr_t)slots % sizeof(double) != 0) return IK2D_ERR_ALIGNMENT;
  status = slots_check(def, bad);
  if (status != IK2D_OK) return status;
  if (size < ik2d_slots_size(def)) return IK2D_ERR_SIZE;
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

int ik2d_slots_count(const ik2d_slots *slots) { return slots != NULL ? slots->count : 0; }

int ik2d_slots_attachment_count(const ik2d_slots *slots) {
  return slots != NULL ? slots->attachments : 0;
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
  if (attachment < -1 || attachment >= slots->attachments) return IK2D_ERR_ATTACHMENT;
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
  int k;
  if (slots == NULL || rgba == NULL) return IK2D_ERR_NULL;
  if (!has_slot(slots, i)) return IK2D_ERR_INDEX;
  for (k = 0; k < 4; k++)
    if (!isfinite(rgba[k])) return IK2D_ERR_COLOR;
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
  int n;
  if (slots == NULL || attachment < 0 || attachment >= slots->attachments) {
    if (count != NULL) *count = 0;
    return NULL;
  }
  n = slots->deform_count[attachment];
  if (count != NULL) *count = n;
  return n > 0 ? slots->deform + slots->deform_at[attachment] : NULL;
}
