/*
** ik2d_skeleton.h: skeletons inside the core (not installed).
**
** The skeleton layer sits on the solver layer: it keeps bones in a tree,
** their forward kinematics, the chains that are paths through it (each a
** real ik2d_chain, linked back to the skeleton) and the solvers on them.
** A chain's solve knows nothing of it: ik2d_skeleton_solve.c, above,
** resolves a target on a bone, solves, and writes a skeleton chain's
** result back (ik2d__skeleton_chain_push).
*/
#ifndef IK2D_SKELETON_H
#define IK2D_SKELETON_H

#include "ik2d.h"
#include "ik2d_bone.h"
#include "ik2d_chain.h"
#include "ik2d_constraint.h"
#include "ik2d_math.h"
#include "ik2d_solver.h"

#define IK2D_PLAN_KEPT 32   /* solvers of the largest plan a skeleton keeps */

/* A node of an intrusive list: no allocation, and an object unlinks
** itself in O(1) when it goes (a Lua __gc). */
typedef struct ik2d_skeleton_node {
  struct ik2d_skeleton_node *prev, *next;
  ik2d_skeleton *skeleton;        /* the list's owner; NULL: not linked */
  ik2d_chain *chain;              /* the chain (a solver's chain) */
} ik2d_skeleton_node;

/* A bone's world frame in the result, unflipped (the skeleton's own
** space; the transforms array holds the drawn, mirrored one). */
typedef struct ik2d_frame {
  double x, y;          /* origin */
  double angle;         /* world direction, wrapped to [-pi, pi) */
  ik2d_rot rot;         /* of angle; a NaN c: not found yet (ik2d_frame_rot) */
  double tip_x, tip_y;
} ik2d_frame;

/* A frame's rotation, its angle's: found when first read, since a pushed
** bone takes its tip from its chain's joints and its rotation is mostly
** never read (the trig of every turned bone, each solve). */
void ik2d_frame_rot_find(ik2d_frame *f);
static inline ik2d_rot ik2d_frame_rot(ik2d_frame *f) {
  if (f->rot.c != f->rot.c) ik2d_frame_rot_find(f);
  return f->rot;
}

/* A bone's local transform but its angle (which the arrays pose and angle
** keep, as the rigid bones' solves read them): its translation in the
** parent's bone space, its scale and shear. */
typedef struct ik2d_bone_shape {
  double x, y, scale_x, scale_y, shear_x, shear_y;
} ik2d_bone_shape;

/* The header of a skeleton; its per-bone arrays follow it in the same
** memory (ik2d_skeleton_size).
**
** Two ways to place bones.  The rigid one (general false): every bone
** unscaled and unsheared, inheriting all or position, at its origin,
** under a skeleton scale of 1: angles add up, a chain over a path is the
** same chain bit for bit.  The general one: the artist's bone model
** (ik2d_bone.h), each bone's map in the skeleton's space composed from its
** parent's.  A skeleton turns general for good the first time a bone or
** the skeleton is given a scale, shear, translation or inherit mode that
** the rigid way cannot place. */
struct ik2d_skeleton {
  int count;
  bool flip;
  bool general;                       /* placed by the bone model */
  double base_x, base_y, base_angle;  /* base_angle in (-pi, pi] */
  ik2d_rot base_rot;
  double scale_x, scale_y;            /* under the base */
  double *length;
  double *rest;
  ik2d_rot *rest_rot;
  double *origin;                     /* x, y pairs in the parent's space
                                         (kept up to date for at_tip) */
  double *pose, *angle;               /* animated and result local angles */
  ik2d_bone_shape *setup, *pose_shape, *shape;  /* the rest of the set-up,
                                         animated and result transforms */
  ik2d_affine *world;                 /* general: each bone's map in the
                                         skeleton's space (base not applied) */
  double *matrices;                   /* 6 a bone as drawn, made when asked */
  const ik2d_constraint **constraint;
  ik2d_frame *frame;                  /* the result, unflipped */
  double *transforms;                 /* the result as drawn: 5 a bone */
  int *parent;                        /* -1: the base */
  unsigned char *at_tip, *inherit;
  /* the bones in depth-first order (parents first, children in index
  ** order): the bones below b, b included, are order[position[b]] to
  ** order[last[b]], so that an edit or a push walks just them */
  unsigned char *order, *position, *last;
  /* Within a solve of the whole skeleton (deferring), a push leaves the
  ** bones below its path stale (frame and transform not yet placed) and
  ** the chains ending there to pull: ik2d_skeleton_solve places what a
  ** solve reads before it, and the rest once at the end. */
  bool deferring;
  unsigned char *stale;               /* by depth-first position */
  bool listed;                        /* within ik2d_skeletons_solve: met
                                         in its list; false between calls */
  ik2d_skeleton_node chains;          /* list head (sentinel) */
  int solver_count;
  /* the solvers on its chains, in the order made (ik2d_solver_init): kept
  ** here, not in a node of each solver, so that a solver stays small (a
  ** 3-bone chain and its solver under 1 KB, spec/memory_spec.lua) */
  ik2d_solver *solvers[IK2D_MAX_SKELETON_SOLVERS];
  /* The solve order of ik2d_skeleton_solve, kept between solves: planning
  ** is O(solvers^2) and a skeleton's solvers rarely change.  Kept only
  ** for plans of lone solves (no coupled unit) of at most IK2D_PLAN_KEPT
  ** solvers, so that it stays small; it holds while plan_kept does (the
  ** solver list's edits clear it) and while every solver's plan_key,
  ** what the plan reads of its settings, is the same. */
  bool plan_kept;
  unsigned char plan_key[IK2D_PLAN_KEPT][2];
  unsigned char plan_order[IK2D_PLAN_KEPT];  /* solver indices, in order */
  /* its transform constraints, in the order made (each begins with its
  ** skeleton's pointer, which a release of the skeleton clears) */
  int constraint_count;
  ik2d_transform_constraint *constraints[IK2D_MAX_SKELETON_SOLVERS];
  /* the steps of the order set (ik2d_skeleton_set_order): a solver's index, or -1 -
  ** a constraint's; kept in step with the lists' edits */
  int step_count;
  short steps[2 * IK2D_MAX_SKELETON_SOLVERS];
};

/* A skeleton chain's link (after its chain arrays, ik2d_skeleton_chain_size). */
struct ik2d_chain_link {
  ik2d_skeleton_node node;  /* in the skeleton's chains */
  int from, to;
  int *bones;               /* the skeleton bone of each chain bone */
  double *phi;              /* direction of the path child's origin in
                               each bone's space (0 at the tip) */
  double *shift;            /* chain angle - skeleton angle: phi_k - phi_k-1 */
  /* On a general skeleton, a chain angle is turn * the bone's angle +
  ** offset (turn -1 where the bone turns the other way as drawn: its
  ** space reflects), and its limit is the bone's, mirrored there. */
  double *turn, *offset;
  ik2d_constraint *mirrored;
  bool stale;               /* to pull (its skeleton deferring) */
  bool others_below;        /* another chain of the skeleton ends at or
                               below from (skeleton_chains_below) */
};

#define IK2D_TRANSFORM 5    /* doubles a bone in the transforms */

/* The point (dx, dy) of a bone's space in its frame f (unflipped); the
** bone's origin where that point is beyond the doubles (a finite dx of
** 1e308 off a bone far out), so that a target is always finite. */
static inline void ik2d_frame_point(ik2d_frame *f, double dx, double dy, double *x,
                                    double *y) {
  ik2d_rot rot = ik2d_frame_rot(f);
  double px = f->x + (rot.c * dx - rot.s * dy);
  double py = f->y + (rot.s * dx + rot.c * dy);
  bool finite = isfinite(px) && isfinite(py);
  *x = finite ? px : f->x;
  *y = finite ? py : f->y;
}

/* The point (dx, dy) of bone b's space in the result, as drawn (mirrored
** about the base when flipped, with the bone). */
void ik2d__skeleton_general_point(const ik2d_skeleton *sk, int b, double dx, double dy,
                                  double *x, double *y);
static inline void ik2d__skeleton_point(const ik2d_skeleton *sk, int b, double dx, double dy,
                                        double *x, double *y) {
  double px;
  if (sk->general) {
    ik2d__skeleton_general_point(sk, b, dx, dy, x, y);
    return;
  }
  ik2d_frame_point(&sk->frame[b], dx, dy, &px, y);
  if (sk->flip) {
    px = 2.0 * sk->base_x - px;
    /* (mirrored beyond the doubles: the origin as drawn) */
    if (!isfinite(px)) {
      px = sk->transforms[IK2D_TRANSFORM * b];
      *y = sk->transforms[IK2D_TRANSFORM * b + 1];
    }
  }
  *x = px;
}

/* The skeleton turns general (nothing moves: the rigid way's bones are the
** general way's too). */
void ik2d__skeleton_make_general(ik2d_skeleton *skeleton);
/* The pose of bones changed in place (a clip): every bone stale and every
** chain to pull, deferring, as after ik2d__skeleton_set_base_deferred. */
void ik2d__skeleton_posed(ik2d_skeleton *skeleton);
/* Every bone's pose and result back to its set-up, placed later: posed. */
void ik2d__skeleton_setup_posed(ik2d_skeleton *skeleton);
/* Every bone's result back to its pose (angle and shape), placed, the
** chains pulled. */
void ik2d__skeleton_to_pose(ik2d_skeleton *skeleton);
/* A world point as drawn, in the skeleton's space (its base and flip undone). */
void ik2d__skeleton_unplace(const ik2d_skeleton *skeleton, double x, double y, double *sx,
                           double *sy);
/* Bone b and those below it placed again (their frames, transforms and
** world maps), and the chains ending there pulled. */
void ik2d__skeleton_moved(ik2d_skeleton *skeleton, int b);
/* The same placing, the chains left to pull (ik2d__skeleton_moved after
** a run of such). */
void ik2d__skeleton_place_below(ik2d_skeleton *skeleton, int b);
/* A transform constraint joins its skeleton's (false: it has the most it
** takes), and leaves it (and the order). */
bool ik2d__skeleton_link_constraint(ik2d_skeleton *skeleton, ik2d_transform_constraint *tc);
void ik2d__skeleton_unlink_constraint(ik2d_skeleton *skeleton, ik2d_transform_constraint *tc);
/* After a constraint set the world maps of the bones kept marks: their
** frames from those maps, the bones below placed again from them, the
** chains they moved pulled. */
void ik2d__skeleton_worlds_moved(ik2d_skeleton *skeleton, const bool *kept);
/* Bone b's parent's world map in the skeleton's space (NULL for a root). */
static inline const ik2d_affine *ik2d__skeleton_parent_world(const ik2d_skeleton *sk, int b) {
  return sk->parent[b] >= 0 ? &sk->world[sk->parent[b]] : NULL;
}
/* Bone b's result as a local transform (angle and shape). */
ik2d_bone_local ik2d__skeleton_local(const ik2d_skeleton *skeleton, int b);
void ik2d__skeleton_set_local(ik2d_skeleton *skeleton, int b, const ik2d_bone_local *local);

/* Frames and transforms of the bones from first on that mask marks (the
** caller marks the descendants of a bone it marks), or of every bone
** from first when mask is NULL. */
void ik2d__skeleton_forward(ik2d_skeleton *skeleton, int first, const bool *mask);
/* Marks bone and its descendants in mask (entries bone..count-1; the
** marks there already stay). */
void ik2d__skeleton_subtree(const ik2d_skeleton *skeleton, int bone, bool *mask);
/* A skeleton chain takes its skeleton's state: base, flip, constraints,
** pose and result (shifted), joints (from the transforms). */
void ik2d__skeleton_chain_pull(ik2d_chain *chain);
/* A skeleton chain's solve, written back: its bones take its result
** angles (shift undone), its joints, and the bones below follow.  With
** pull_others, every other chain on the skeleton then pulls (a solve on
** its own); ik2d_skeleton_solve pulls each chain before solving it. */
void ik2d__skeleton_chain_push(ik2d_chain *chain, bool pull_others);

/* Deferring (see ik2d_skeleton): from ik2d__skeleton_defer to
** ik2d__skeleton_settle, which places the stale bones and pulls the stale
** chains, everything then as without it.  In between, bone_ready places
** bone b (and the stale bones above it) before it is read, and
** chain_ready pulls a stale chain before its solve: all of it, or with
** joints false (the solve writes them all before it reads them: its
** target is not its tip) all but its joints. */
void ik2d__skeleton_defer(ik2d_skeleton *skeleton);
void ik2d__skeleton_place_stale(ik2d_skeleton *skeleton, int b);
static inline void ik2d__skeleton_bone_ready(ik2d_skeleton *skeleton, int b) {
  if (skeleton->stale[skeleton->position[b]]) ik2d__skeleton_place_stale(skeleton, b);
}
void ik2d__skeleton_chain_ready(ik2d_chain *chain, bool joints);
void ik2d__skeleton_settle(ik2d_skeleton *skeleton);
/* The base set as ik2d_skeleton_set_base sets it (checked by the
** caller), every bone then stale and every chain to pull, deferring: for
** a solve that follows at once and places what it reads (then settles). */
void ik2d__skeleton_set_base_deferred(ik2d_skeleton *skeleton, double x, double y,
                                      double angle);

#endif
