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
  bool uniform;                       /* the last solve asked for the
                                         scale on both sprite axes */
  double base_x, base_y, base_angle;  /* base_angle in (-pi, pi] */
  ik2d_rot base_rot;                  /* of base_angle, for solves */
  double reach;                       /* sum of lengths */
  double scale;                       /* result bone scale (stretch or
                                         compress), 1 otherwise */
  double *length;
  double *rest;                       /* rest local angle */
  ik2d_rot *rest_rot;                 /* of rest, for limits in solves */
  double *pose;                       /* animated (input) local angle */
  double *angle;                      /* result local angle */
  const ik2d_constraint **constraint; /* NULL: free */
  double *joints;                     /* result joints in world space as
                                         x, y pairs, 0 = base, count =
                                         tip: count + 1 of them */
  struct ik2d_chain_link *link;       /* NULL: standalone; else the path
                                         of a skeleton this chain is
                                         (ik2d_skeleton.h), which owns its
                                         base, flip, pose and bones */
};

/* Recomputes the joints from base, result angles and scale. */
void ik2d__chain_update_joints(ik2d_chain *chain);

/* For skeleton chains (ik2d_skeleton.c): ik2d_chain_init that also
** takes bones of length 0 (pivots), and the base as ik2d_chain_set_base
** keeps it (angle wrapped to (-pi, pi], its rotation), joints untouched. */
ik2d_status ik2d__chain_init_pivots(ik2d_chain *chain, size_t size,
                                    const ik2d_chain_def *def);
void ik2d__chain_keep_base(ik2d_chain *chain, double x, double y, double angle);
/* The status of a base (x, y, angle) for chains and skeletons: each
** finite. */
ik2d_status ik2d__chain_check_base(double x, double y, double angle);

/* A base angle as chains and skeletons keep it: wrapped to (-pi, pi],
** the range it reads best in (inline: every pull of a skeleton chain
** asks). */
static inline double ik2d_base_angle(double angle) {
  double wrapped = ik2d_wrap(angle);
  return wrapped == -IK2D_PI ? IK2D_PI : wrapped;
}

#endif
