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

/* An attachment, its arrays in the slots' pools. */
typedef struct ik2d_attachment {
  double color[4];
  ik2d_attachment_kind kind;
  int vertex_count, weight_count, triangle_count;
  int vertices, weights, uvs;   /* offsets in the doubles' pool (-1: none) */
  int triangles;                /* offset in the triangles' pool */
  int deform;                   /* the attachment whose offsets it takes, -1 */
  int deform_at, deform_count;  /* its own offsets in the deform pool */
} ik2d_attachment;

struct ik2d_slots {
  int count, attachment_count;
  ik2d_slot_state *setup, *state;
  int *order, *setup_order;     /* slot indices, first drawn first */
  ik2d_attachment *attachments;
  double *pool;                 /* vertices, weights, uvs */
  int *triangle_pool;
  int deform_total;
  double *deform;
};

#endif
