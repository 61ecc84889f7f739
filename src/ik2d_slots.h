/*
** ik2d_slots.h: slots inside the core (not installed).
*/
#ifndef IK2D_SLOTS_H
#define IK2D_SLOTS_H

#include "ik2d.h"

/* A slot's state: what it follows and shows, and how. */
typedef struct ik2d_slot_state {
  double color[4], dark[3];
  int bone, attachment;
  ik2d_blend blend;
  bool has_dark;
} ik2d_slot_state;

struct ik2d_slots {
  int count, attachments;
  ik2d_slot_state *setup, *state;
  int *order, *setup_order;     /* slot indices, first drawn first */
  int *deform_at, *deform_count;/* each attachment's offsets in deform */
  int deform_total;
  double *deform;
};

#endif
