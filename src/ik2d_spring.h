/*
** ik2d_spring.h: springs inside the core (not installed).
**
** A layer above the chain: a spring reads and writes one chain, and no
** solver knows of it.
*/
#ifndef IK2D_SPRING_H
#define IK2D_SPRING_H

#include "ik2d.h"
#include "ik2d_chain.h"

/* The header of a spring; its per-bone arrays follow it in the same
** memory (ik2d_spring_size), one entry per bone of its chain. */
struct ik2d_spring {
  ik2d_chain *chain;
  ik2d_spring_def settings;  /* as set, checked, weight clamped; a per-bone
                                pointer is the spring's own array below,
                                or NULL */
  double base;       /* the base angle the last update saw */
  bool base_moving;  /* and whether it had changed then */
  double base_x, base_y;    /* the base's position the last update with
                               time (dt > 0) saw, world space */
  double base_vx, base_vy;  /* its velocity over that frame, world space */
  int collider_count;
  ik2d_collider colliders[IK2D_MAX_COLLIDERS];
  double *world;     /* each bone's simulated direction in chain space
                        (the chain unflipped), wrapped to [-pi, pi) */
  double *velocity;  /* its angular velocity, rad/s, chain space */
  double *neutral;   /* each bone's neutral local angle */
  double *written;   /* the result angles the spring wrote last: a
                        result angle that differs was written by someone
                        else (set_pose, a solve) and is the new neutral angle */
  double *stiffness; /* each bone's stiffness, damping and mass (the    */
  double *damping;   /* setting's number, or its entry of the per-bone  */
  double *mass;      /* array)                                          */
  bool *moving;      /* whether the neutral angle changed at the last update */
};

#endif
