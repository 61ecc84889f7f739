/*
** ik2d_chain.h: chains inside the core (not installed).
*/
#ifndef IK2D_CHAIN_H
#define IK2D_CHAIN_H

#include "ik2d.h"
#include "ik2d_constraint.h"
#include "ik2d_math.h"

/* The header of a chain; its per-bone arrays follow it in the same
** memory (ik2d_chain_size), each of count entries but joints. */
struct ik2d_chain {
  int count;                          /* bones, 1..IK2D_MAX_BONES */
  bool flip;                          /* mirrored about x = base_x */
  double base_x, base_y, base_angle;  /* base_angle in (-pi, pi] */
  ik2d_rot base_rot;                  /* of base_angle, for solves */
  double reach;                       /* sum of lengths */
  double scale;                       /* result bone scale (stretch or
                                         compress), 1 otherwise */
  bool uniform;                       /* the last solve asked for the
                                         scale on both sprite axes */
  bool queued;                        /* a batch holds a solver of it,
                                         unsolved (false between calls) */
  double *length;
  double *rest;                       /* rest local angle */
  ik2d_rot *rest_rot;                 /* of rest, for limits in solves */
  double *pose;                       /* animated (input) local angle */
  double *angle;                      /* result local angle */
  const ik2d_constraint **constraint; /* NULL: free */
  double *joints;                     /* result joints in world space as
                                         x, y pairs, 0 = base, count =
                                         tip: count + 1 of them */
};

/* Recomputes the joints from base, result angles and scale. */
void ik2d_chain_update_joints(ik2d_chain *chain);

#endif
