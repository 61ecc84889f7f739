/*
** ik2d_skeleton.c: skeletons, their forward kinematics, and the chains
** that are paths through them.
**
** Bones are stored parents first, so one pass in index order is the
** forward kinematics of the whole tree, and the bones below bone b are
** exactly those after it whose parent is b or below it.  A bone's frame
** follows its parent's: its origin is the parent's tip (at_tip) or the
** point (x, y) of the parent's bone space, and its world direction is
** the parent's (inherit all) or the base's (inherit position) plus its
** own angle, wrapped at each step as a chain's are.  The formulas are a
** chain's, term for term, so a skeleton that is one path of bones at
** their parents' tips has a chain's bits.
**
** A skeleton chain over the path b_0 .. b_m-1 is a real ik2d_chain: chain
** bone k runs from b_k's origin to b_k+1's (the last to its tip).  When
** b_k+1 starts at s = (x, y) in b_k's space, that is a bone of length
** |s| pointing phi_k = atan2(y, x) off b_k, so its chain angle is b_k's
** angle shifted by phi_k - phi_k-1 (phi_-1 = 0), rest included; limits,
** relative to the rest, are the same.  With origins at the tips every
** phi is exactly 0 and the angles are the skeleton's, bit for bit.
**
** Flip: a flipped chain mirrors about its own base, and the chain's base
** is from's origin as drawn (mirrored about the skeleton's base), so the
** two mirrors agree.
**
** The skeleton keeps its chains in sync: an edit recomputes the frames
** below the bone it touched and every chain ending below it takes the
** new state (ik2d__skeleton_chain_pull), so a chain's joints can be read
** at any time; a solve of a chain writes its bones back
** (ik2d__skeleton_chain_push).
*/
#include <math.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "ik2d.h"
#include "ik2d_chain.h"
#include "ik2d_checks.h"
#include "ik2d_math.h"
#include "ik2d_skeleton.h"
#include "ik2d_solver.h"

static void skeleton_pull_all(ik2d_skeleton *sk);

/* ------------------------------------------------------------------ */
/* storage                                                              */
/* ------------------------------------------------------------------ */

typedef struct skeleton_layout {
  size_t length, rest, rest_rot, origin, pose, angle, constraint, frame,
      transforms, parent, at_tip, inherit, order, position, last, stale, setup, pose_shape,
      shape, world, matrices, size;
} skeleton_layout;

/* 8-byte entries first, then ints and bytes, each array rounded up to 8
** bytes so that the next stays aligned. */
static size_t round8(size_t n) { return (n + 7u) & ~(size_t)7u; }

static skeleton_layout skeleton_layout_of(int n) {
  skeleton_layout l;
  size_t bones = (size_t)n, doubles = bones * sizeof(double);
  l.length = sizeof(ik2d_skeleton);
  l.rest = l.length + doubles;
  l.rest_rot = l.rest + doubles;
  l.origin = l.rest_rot + bones * sizeof(ik2d_rot);
  l.pose = l.origin + 2 * doubles;
  l.angle = l.pose + doubles;
  l.constraint = l.angle + doubles;
  l.frame = l.constraint + bones * sizeof(const ik2d_constraint *);
  l.transforms = l.frame + bones * sizeof(ik2d_frame);
  l.parent = l.transforms + IK2D_TRANSFORM * doubles;
  l.at_tip = l.parent + round8(bones * sizeof(int));
  l.inherit = l.at_tip + round8(bones);
  l.order = l.inherit + round8(bones);
  l.position = l.order + round8(bones);
  l.last = l.position + round8(bones);
  l.stale = l.last + round8(bones);
  /* the bone model's arrays last: the rigid bones' stay as close */
  l.setup = l.stale + round8(bones);
  l.pose_shape = l.setup + bones * sizeof(ik2d_bone_shape);
  l.shape = l.pose_shape + bones * sizeof(ik2d_bone_shape);
  l.world = l.shape + bones * sizeof(ik2d_bone_shape);
  l.matrices = l.world + bones * sizeof(ik2d_affine);
  l.size = l.matrices + 6 * doubles;
  return l;
}

size_t ik2d_skeleton_size(int bone_count) {
  if (bone_count < 1 || bone_count > IK2D_MAX_SKELETON_BONES) return 0;
  return skeleton_layout_of(bone_count).size;
}

/* ------------------------------------------------------------------ */
/* lists                                                                */
/* ------------------------------------------------------------------ */

static void node_clear(ik2d_skeleton_node *node) {
  node->prev = node->next = node;
  node->skeleton = NULL;
}

static void node_link(ik2d_skeleton *skeleton, ik2d_skeleton_node *list,
                      ik2d_skeleton_node *node) {
  node->prev = list->prev;
  node->next = list;
  list->prev->next = node;
  list->prev = node;
  node->skeleton = skeleton;
}

static void node_unlink(ik2d_skeleton_node *node) {
  if (node->skeleton == NULL) return;
  node->prev->next = node->next;
  node->next->prev = node->prev;
  node->prev = node->next = node;
  node->skeleton = NULL;
}

static ik2d_chain *chain_of_node(ik2d_skeleton_node *node) { return node->chain; }

/* ------------------------------------------------------------------ */
/* solvers on its chains                                                */
/* ------------------------------------------------------------------ */

/* Adds a solver to the skeleton of its chain, last (nothing for a
** standalone or released chain); false when the skeleton has
** IK2D_MAX_SKELETON_SOLVERS already. */
static bool skeleton_link_solver(ik2d_chain *chain, ik2d_solver *solver) {
  ik2d_skeleton *skeleton;
  if (chain->link == NULL) return true;
  skeleton = chain->link->node.skeleton;
  if (skeleton == NULL) return true;
  if (skeleton->solver_count >= IK2D_MAX_SKELETON_SOLVERS) return false;
  skeleton->solvers[skeleton->solver_count++] = solver;
  skeleton->plan_kept = false;
  return true;
}

/* The order without the entry of value gone (a solver's index, or -1 -
** a constraint's), the later ones of its list a place down with it. */
static void order_drop(ik2d_skeleton *sk, int gone) {
  int k, n = 0;
  for (k = 0; k < sk->step_count; k++) {
    int v = sk->steps[k];
    if (v == gone) continue;
    if (gone >= 0 && v > gone) v--;
    if (gone < 0 && v < gone) v++;
    sk->steps[n++] = (short)v;
  }
  sk->step_count = n;
}

/* Solver k out of sk's solvers, the later ones moved down a place. */
static void skeleton_drop_solver(ik2d_skeleton *sk, int k) {
  order_drop(sk, k);
  for (; k + 1 < sk->solver_count; k++) sk->solvers[k] = sk->solvers[k + 1];
  sk->solver_count--;
  sk->plan_kept = false;
}

bool ik2d__skeleton_link_constraint(ik2d_skeleton *sk, ik2d_transform_constraint *tc) {
  if (sk->constraint_count >= IK2D_MAX_SKELETON_SOLVERS) return false;
  sk->constraints[sk->constraint_count++] = tc;
  return true;
}

void ik2d__skeleton_unlink_constraint(ik2d_skeleton *sk, ik2d_transform_constraint *tc) {
  int k;
  for (k = 0; k < sk->constraint_count; k++) {
    if (sk->constraints[k] != tc) continue;
    order_drop(sk, -1 - k);
    for (; k + 1 < sk->constraint_count; k++) sk->constraints[k] = sk->constraints[k + 1];
    sk->constraint_count--;
    return;
  }
}

/* The index in sk's list of a step's solver, or -1 - its constraint's;
** IK2D_MAX_SKELETON_SOLVERS when it names neither or both. */
static int order_value(const ik2d_skeleton *sk, const ik2d_step *step) {
  int k;
  if ((step->solver == NULL) == (step->constraint == NULL)) return IK2D_MAX_SKELETON_SOLVERS;
  for (k = 0; k < sk->solver_count; k++)
    if (step->solver != NULL && sk->solvers[k] == step->solver) return k;
  for (k = 0; k < sk->constraint_count; k++)
    if (step->constraint != NULL && sk->constraints[k] == step->constraint) return -1 - k;
  return IK2D_MAX_SKELETON_SOLVERS;
}

/* The values of steps, checked: each a solver or constraint of sk, once. */
static ik2d_status order_values(const ik2d_skeleton *sk, const ik2d_step *steps, int count,
                                short *values, int *bad) {
  bool solver_in[IK2D_MAX_SKELETON_SOLVERS], constraint_in[IK2D_MAX_SKELETON_SOLVERS];
  int i;
  memset(solver_in, 0, sizeof solver_in);
  memset(constraint_in, 0, sizeof constraint_in);
  for (i = 0; i < count; i++) {
    int v = order_value(sk, &steps[i]);
    bool *in = v >= 0 ? &solver_in[v] : &constraint_in[-1 - v];
    ik2d_status status = v == IK2D_MAX_SKELETON_SOLVERS ? IK2D_ERR_ORDER_STEP
                         : *in                          ? IK2D_ERR_ORDER_TWICE
                                                        : IK2D_OK;
    if (status != IK2D_OK) {
      if (bad != NULL) *bad = i;
      return status;
    }
    *in = true;
    values[i] = (short)v;
  }
  return IK2D_OK;
}

ik2d_status ik2d_skeleton_set_order(ik2d_skeleton *sk, const ik2d_step *steps, int count,
                                    int *bad) {
  short values[2 * IK2D_MAX_SKELETON_SOLVERS];
  ik2d_status status;
  if (sk == NULL || (steps == NULL && count > 0)) return IK2D_ERR_NULL;
  if (count < 0 || count > 2 * IK2D_MAX_SKELETON_SOLVERS) return IK2D_ERR_ORDER_STEP;
  status = order_values(sk, steps, count, values, bad);
  if (status != IK2D_OK) return status;
  memcpy(sk->steps, values, (size_t)count * sizeof(short));
  sk->step_count = count;
  /* the plan a group would solve it by is no longer its solve */
  sk->plan_kept = false;
  return IK2D_OK;
}

int ik2d_skeleton_order(const ik2d_skeleton *sk, ik2d_step *steps, int max) {
  int k;
  if (sk == NULL) return 0;
  for (k = 0; k < sk->step_count && k < max && steps != NULL; k++) {
    int v = sk->steps[k];
    steps[k].solver = v >= 0 ? sk->solvers[v] : NULL;
    steps[k].constraint = v < 0 ? sk->constraints[-1 - v] : NULL;
  }
  return sk->step_count;
}

int ik2d_skeleton_transform_constraints(const ik2d_skeleton *sk,
                                        ik2d_transform_constraint **constraints, int max) {
  int k;
  if (sk == NULL) return 0;
  for (k = 0; k < sk->constraint_count && k < max && constraints != NULL; k++)
    constraints[k] = sk->constraints[k];
  return sk->constraint_count;
}

/* (here, above the solvers: a solver on a skeleton chain joins the
** skeleton's solvers) */
ik2d_status ik2d_solver_init(ik2d_solver *solver, size_t size, ik2d_chain *chain,
                             const ik2d_solver_def *def) {
  ik2d_status status = ik2d__solver_init_unlinked(solver, size, chain, def);
  if (status != IK2D_OK) return status;
  if (!skeleton_link_solver(chain, solver)) return IK2D_ERR_SKELETON_SOLVERS;
  return IK2D_OK;
}

/* Takes the solver out of its chain's skeleton's solvers, the others
** kept in order (nothing when it is not there). */
void ik2d_solver_release(ik2d_solver *solver) {
  ik2d_skeleton *sk;
  int k;
  if (solver == NULL || solver->chain == NULL || solver->chain->link == NULL) return;
  sk = solver->chain->link->node.skeleton;
  if (sk == NULL) return;
  for (k = 0; k < sk->solver_count; k++) {
    if (sk->solvers[k] == solver) {
      skeleton_drop_solver(sk, k);
      return;
    }
  }
}

/* ------------------------------------------------------------------ */
/* forward kinematics                                                   */
/* ------------------------------------------------------------------ */

void ik2d_frame_rot_find(ik2d_frame *f) { f->rot = ik2d_rot_angle(f->angle); }

/* Bone b's origin from its parent's frame (or the base), unflipped. */
IK2D_INLINE void skeleton_origin(const ik2d_skeleton *sk, int b, double *x, double *y) {
  int p = sk->parent[b];
  double px = sk->base_x, py = sk->base_y;
  ik2d_rot parent_rot = sk->base_rot;
  if (sk->at_tip[b]) {
    *x = p >= 0 ? sk->frame[p].tip_x : px;
    *y = p >= 0 ? sk->frame[p].tip_y : py;
  } else {
    double ox = sk->origin[2 * b], oy = sk->origin[2 * b + 1];
    if (p >= 0) {
      ik2d_frame *pf = &sk->frame[p];
      px = pf->x;
      py = pf->y;
      parent_rot = ik2d_frame_rot(pf);
    }
    *x = px + (parent_rot.c * ox - parent_rot.s * oy);
    *y = py + (parent_rot.s * ox + parent_rot.c * oy);
  }
}

/* Bone b's world direction (angle and rot) from its parent's. */
IK2D_INLINE void skeleton_turn(ik2d_skeleton *sk, int b) {
  int p = sk->parent[b];
  ik2d_frame *f = &sk->frame[b];
  double parent_angle = p >= 0 ? sk->frame[p].angle : sk->base_angle;
  double w;
  /* wrapped at each step, as a chain's world angles are */
  w = ik2d_wrap((sk->inherit[b] == IK2D_INHERIT_ALL ? parent_angle : sk->base_angle) +
                sk->angle[b]);
  /* a new angle's rotation found when read (ik2d_frame_rot): a frame's
  ** rot is always its angle's, and a base that only moves, or a bone
  ** whose own and parent's angles stay, keeps it.  Bits compared: -0.0
  ** is not 0.0 */
  if (memcmp(&w, &f->angle, sizeof w) != 0) {
    f->angle = w;
    f->rot.c = NAN;
  }
}

/* Bone b's frame from its parent's (or the base), unflipped: the rigid
** way. */
IK2D_INLINE void rigid_frame(ik2d_skeleton *sk, int b) {
  ik2d_frame *f = &sk->frame[b];
  double length = sk->length[b];
  ik2d_rot rot;
  skeleton_origin(sk, b, &f->x, &f->y);
  skeleton_turn(sk, b);
  rot = ik2d_frame_rot(f);
  f->tip_x = f->x + length * rot.c;
  f->tip_y = f->y + length * rot.s;
}

ik2d_bone_local ik2d__skeleton_local(const ik2d_skeleton *sk, int b) {
  const ik2d_bone_shape *shape = &sk->shape[b];
  ik2d_bone_local l;
  l.x = shape->x;
  l.y = shape->y;
  l.angle = sk->angle[b];
  l.scale_x = shape->scale_x;
  l.scale_y = shape->scale_y;
  l.shear_x = shape->shear_x;
  l.shear_y = shape->shear_y;
  return l;
}

void ik2d__skeleton_set_local(ik2d_skeleton *sk, int b, const ik2d_bone_local *local) {
  ik2d_bone_shape *shape = &sk->shape[b];
  shape->x = local->x;
  shape->y = local->y;
  sk->angle[b] = local->angle;
  shape->scale_x = local->scale_x;
  shape->scale_y = local->scale_y;
  shape->shear_x = local->shear_x;
  shape->shear_y = local->shear_y;
}

void ik2d__skeleton_to_pose(ik2d_skeleton *sk) {
  int b;
  for (b = 0; b < sk->count; b++) {
    sk->angle[b] = sk->pose[b];
    sk->shape[b] = sk->pose_shape[b];
  }
  /* every bone placed and every chain pulled below: nothing left stale */
  sk->deferring = false;
  memset(sk->stale, 0, (size_t)sk->count);
  ik2d__skeleton_forward(sk, 0, NULL);
  skeleton_pull_all(sk);
}

/* (x, y) of the skeleton's space in the world, unflipped: its base's
** turn and move. */
static void skeleton_to_world(const ik2d_skeleton *sk, double x, double y, double *wx,
                              double *wy) {
  *wx = sk->base_x + (sk->base_rot.c * x - sk->base_rot.s * y);
  *wy = sk->base_y + (sk->base_rot.s * x + sk->base_rot.c * y);
}

/* Bone b's frame from its map in the skeleton's space (the general way):
** its direction is its x axis', its tip its length along that axis
** (scaled with it).  general_frame places the map from its parent's
** first. */
static void world_frame(ik2d_skeleton *sk, int b) {
  const ik2d_affine *m = &sk->world[b];
  ik2d_frame *f = &sk->frame[b];
  double ax, ay, angle;
  skeleton_to_world(sk, m->x, m->y, &f->x, &f->y);
  ax = sk->base_rot.c * m->a - sk->base_rot.s * m->c;
  ay = sk->base_rot.s * m->a + sk->base_rot.c * m->c;
  angle = ik2d_wrap(ik2d_atan2(ay, ax));
  if (memcmp(&angle, &f->angle, sizeof angle) != 0) {
    f->angle = angle;
    f->rot.c = NAN;
  }
  f->tip_x = f->x + sk->length[b] * ax;
  f->tip_y = f->y + sk->length[b] * ay;
}

static void general_frame(ik2d_skeleton *sk, int b) {
  ik2d_bone_local local = ik2d__skeleton_local(sk, b);
  ik2d_bone_place(ik2d__skeleton_parent_world(sk, b), &local, (ik2d_inherit)sk->inherit[b],
                  sk->scale_x, sk->scale_y, &sk->world[b]);
  world_frame(sk, b);
}

IK2D_INLINE void skeleton_frame(ik2d_skeleton *sk, int b) {
  if (sk->general)
    general_frame(sk, b);
  else
    rigid_frame(sk, b);
}

void ik2d__skeleton_general_point(const ik2d_skeleton *sk, int b, double dx, double dy,
                                 double *x, double *y) {
  double u, v, px, py;
  ik2d_affine_point(&sk->world[b], dx, dy, &u, &v);
  skeleton_to_world(sk, u, v, &px, &py);
  if (!isfinite(px) || !isfinite(py)) {
    px = sk->frame[b].x;
    py = sk->frame[b].y;
  }
  *x = sk->flip ? 2.0 * sk->base_x - px : px;
  *y = py;
}

void ik2d__skeleton_unplace(const ik2d_skeleton *sk, double x, double y, double *sx,
                           double *sy) {
  double dx = (sk->flip ? 2.0 * sk->base_x - x : x) - sk->base_x, dy = y - sk->base_y;
  *sx = sk->base_rot.c * dx + sk->base_rot.s * dy;
  *sy = sk->base_rot.c * dy - sk->base_rot.s * dx;
}

void ik2d__skeleton_make_general(ik2d_skeleton *sk) {
  if (sk->general) return;
  ik2d__skeleton_settle(sk);
  sk->general = true;
  sk->plan_kept = false;
  ik2d__skeleton_forward(sk, 0, NULL);
  skeleton_pull_all(sk);
}

/* Bone b's origin x as drawn: mirrored about the base when flipped (a
** root bone at the base's origin stays exactly there, as a chain's
** joint 1 does; on a general skeleton its pose may have moved it off). */
IK2D_INLINE double skeleton_drawn_x(const ik2d_skeleton *sk, int b, double x) {
  if (!sk->flip) return x;
  if (sk->parent[b] < 0 && sk->at_tip[b] && (!sk->general || x == sk->base_x)) return sk->base_x;
  return 2.0 * sk->base_x - x;
}

/* A world angle as drawn. */
IK2D_INLINE double skeleton_drawn_angle(const ik2d_skeleton *sk, double angle) {
  return sk->flip ? ik2d_wrap(IK2D_PI - angle) : angle;
}

/* Bone b's transform as drawn (mirrored about the base when flipped). */
IK2D_INLINE void skeleton_transform(ik2d_skeleton *sk, int b) {
  const ik2d_frame *f = &sk->frame[b];
  double *t = &sk->transforms[IK2D_TRANSFORM * b];
  t[0] = skeleton_drawn_x(sk, b, f->x);
  t[2] = skeleton_drawn_angle(sk, f->angle);
  t[3] = sk->flip ? 2.0 * sk->base_x - f->tip_x : f->tip_x;
  t[1] = f->y;
  t[4] = f->tip_y;
}

void ik2d__skeleton_forward(ik2d_skeleton *sk, int first, const bool *mask) {
  int b;
  for (b = first; b < sk->count; b++) {
    if (mask != NULL && !mask[b]) continue;
    skeleton_frame(sk, b);
    skeleton_transform(sk, b);
  }
}

void ik2d__skeleton_subtree(const ik2d_skeleton *sk, int bone, bool *mask) {
  int b;
  mask[bone] = true;
  for (b = bone + 1; b < sk->count; b++) {
    int p = sk->parent[b];
    if (p >= bone && mask[p]) mask[b] = true;
  }
}

/* ------------------------------------------------------------------ */
/* skeleton chains: geometry, pull and push                             */
/* ------------------------------------------------------------------ */

/* Does chain k's path hold skeleton bone b?  Then its index, else -1. */
static int chain_bone_of(const ik2d_chain *chain, int b) {
  const struct ik2d_chain_link *link = chain->link;
  int k;
  if (b < link->from || b > link->to) return -1;
  for (k = 0; k < chain->count; k++)
    if (link->bones[k] == b) return k;
  return -1;
}

/* The path child of chain bone k starts at s in the bone's space: the
** chain bone's length |s| and direction phi.  The last bone runs to its
** own tip.  An s along +x (every origin at a tip) is exact: |s| = x and
** phi = 0, no rounding. */
static void chain_segment(const ik2d_skeleton *sk, const struct ik2d_chain_link *link,
                          int n, int k, double *length, double *phi) {
  double x, y;
  if (k == n - 1) {
    x = sk->length[link->bones[k]];
    y = 0.0;
  } else {
    int child = link->bones[k + 1];
    x = sk->origin[2 * child];
    y = sk->origin[2 * child + 1];
  }
  if (y == 0.0 && x >= 0.0) {
    *length = x;
    *phi = 0.0;
  } else {
    *length = ik2d_hypot(x, y);
    *phi = ik2d_atan2(y, x);
  }
}

/* a + b, with b = 0 giving a's bits (-0.0 + 0.0 would be +0.0) */
static double shifted(double a, double b) { return b == 0.0 ? a : a + b; }

/* Lengths, shifts, rest angles and reach of a chain from its skeleton
** (after a length or rest edit).  The shifts only change with origins,
** which no edit moves but a length at a tip, whose phi stays 0. */
static void chain_geometry(ik2d_chain *chain) {
  struct ik2d_chain_link *link = chain->link;
  const ik2d_skeleton *sk = link->node.skeleton;
  double previous = 0.0, reach = 0.0;
  int k;
  for (k = 0; k < chain->count; k++) {
    int b = link->bones[k];
    double length, phi;
    chain_segment(sk, link, chain->count, k, &length, &phi);
    link->phi[k] = phi;
    link->shift[k] = phi - previous;
    previous = phi;
    chain->length[k] = length;
    reach += length;
    if (link->shift[k] == 0.0) {
      chain->rest[k] = sk->rest[b];
      chain->rest_rot[k] = sk->rest_rot[b];
    } else {
      chain->rest[k] = sk->rest[b] + link->shift[k];
      chain->rest_rot[k] = ik2d_rot_angle(chain->rest[k]);
    }
  }
  chain->reach = reach;
}

/* The base of a chain starting at bone from: its origin as drawn, and its
** parent's world direction (the base's for a root or position-only bone),
** with that direction's rotation. */
static double chain_base_angle_of(const ik2d_skeleton *sk, int from, ik2d_frame **frame) {
  int p = sk->parent[from];
  if (p < 0 || sk->inherit[from] == IK2D_INHERIT_POSITION) {
    *frame = NULL;
    return sk->base_angle;
  }
  *frame = &sk->frame[p];
  return sk->frame[p].angle;
}

/* A chain's state but its joints, its base at (x, y) (drawn). */
IK2D_INLINE void chain_pull_state(ik2d_chain *chain, const ik2d_skeleton *sk, double x, double y) {
  const struct ik2d_chain_link *link = chain->link;
  double angle, kept;
  ik2d_frame *frame;
  int k;
  angle = chain_base_angle_of(sk, link->from, &frame);
  kept = ik2d_base_angle(angle);
  /* the base rotation's trig only when the angle changed, and not even
  ** then when the angle is kept as it is: the frame's or the base's
  ** rotation is already its rotation */
  if (memcmp(&kept, &chain->base_angle, sizeof kept) == 0) {
    chain->base_x = x;
    chain->base_y = y;
  } else if (memcmp(&kept, &angle, sizeof kept) == 0) {
    chain->base_x = x;
    chain->base_y = y;
    chain->base_angle = kept;
    chain->base_rot = frame != NULL ? ik2d_frame_rot(frame) : sk->base_rot;
  } else {
    ik2d__chain_keep_base(chain, x, y, angle);
  }
  chain->flip = sk->flip;
  chain->scale = 1.0;
  for (k = 0; k < chain->count; k++) {
    int b = link->bones[k];
    chain->constraint[k] = sk->constraint[b];
    chain->pose[k] = shifted(sk->pose[b], link->shift[k]);
    chain->angle[k] = shifted(sk->angle[b], link->shift[k]);
  }
}

/* A chain's joints from its skeleton's transforms: its bones' origins and
** the last one's tip. */
static void pull_joints(ik2d_chain *chain, const ik2d_skeleton *sk) {
  const struct ik2d_chain_link *link = chain->link;
  const double *t = sk->transforms;
  int k, n = chain->count;
  for (k = 0; k < n; k++) {
    int b = link->bones[k];
    chain->joints[2 * k] = t[IK2D_TRANSFORM * b];
    chain->joints[2 * k + 1] = t[IK2D_TRANSFORM * b + 1];
  }
  chain->joints[2 * n] = t[IK2D_TRANSFORM * link->to + 3];
  chain->joints[2 * n + 1] = t[IK2D_TRANSFORM * link->to + 4];
}

/* How bone b's direction as drawn turns with its angle on a general
** skeleton: with its turning space (ik2d_bone_turn_frame), the other way
** where that reflects, and the other way again when flipped. */
static double general_turn(const ik2d_skeleton *sk, int b) {
  const ik2d_affine *p = ik2d__skeleton_parent_world(sk, b);
  int inherit = sk->inherit[b];
  double det;
  if (p == NULL || inherit == IK2D_INHERIT_POSITION ||
      inherit == IK2D_INHERIT_NO_ROTATION_OR_REFLECTION)
    det = sk->scale_x * sk->scale_y;
  else
    det = p->a * p->d - p->b * p->c;
  return (det < 0.0) != sk->flip ? -1.0 : 1.0;
}

/* Chain bone k's limit: its bone's, mirrored where the bone turns the
** other way as drawn (a chain angle is -1 times the bone's there). */
static const ik2d_constraint *general_limit(struct ik2d_chain_link *link, int k,
                                            const ik2d_constraint *limit) {
  ik2d_constraint_def def;
  if (limit == NULL || link->turn[k] > 0.0) return limit;
  def = limit->def;
  def.min = -limit->def.max;
  def.max = -limit->def.min;
  ik2d_constraint_init(&link->mirrored[k], sizeof link->mirrored[k], &def);
  return &link->mirrored[k];
}

/* A chain over a general skeleton's path is its bones as drawn, whatever
** their scales: chain bone k runs from its bone's origin to the next one's
** (the last to its tip), the base at from's origin with angle 0 and no
** flip, so that chain angles are the turns between those segments' drawn
** directions.  Turning bone k by d turns its segment and everything below
** by turn_k d (exactly where its space and those below scale uniformly):
** chain angle = turn_k angle + offset_k, the rest likewise; the pose the
** result blends from is the bones' result (what came before this solve). */
static void general_pull(ik2d_chain *chain, const ik2d_skeleton *sk) {
  struct ik2d_chain_link *link = chain->link;
  double previous = 0.0, reach = 0.0;
  int k;
  pull_joints(chain, sk);
  ik2d__chain_keep_base(chain, chain->joints[0], chain->joints[1], 0.0);
  chain->flip = false;
  chain->scale = 1.0;
  for (k = 0; k < chain->count; k++) {
    int b = link->bones[k];
    double dx = chain->joints[2 * k + 2] - chain->joints[2 * k];
    double dy = chain->joints[2 * k + 3] - chain->joints[2 * k + 1];
    double length = ik2d_hypot(dx, dy);
    double direction = length > 0.0 ? ik2d_atan2(dy, dx) : sk->transforms[IK2D_TRANSFORM * b + 2];
    double theta;
    if (!isfinite(length)) {
      /* joints beyond the doubles (a base near the largest, mirrored):
      ** the bone's own direction and scaled length, which stay finite */
      length = sk->length[b] * ik2d_hypot(sk->world[b].a, sk->world[b].c);
      direction = sk->transforms[IK2D_TRANSFORM * b + 2];
    }
    theta = ik2d_wrap(direction - previous);
    previous = direction;
    link->turn[k] = general_turn(sk, b);
    link->offset[k] = theta - link->turn[k] * sk->angle[b];
    chain->length[k] = length;
    reach += length;
    chain->angle[k] = chain->pose[k] = theta;
    chain->rest[k] = link->turn[k] * sk->rest[b] + link->offset[k];
    chain->rest_rot[k] = ik2d_rot_angle(chain->rest[k]);
    chain->constraint[k] = general_limit(link, k, sk->constraint[b]);
  }
  chain->reach = reach;
  link->stale = false;
}

void ik2d__skeleton_chain_pull(ik2d_chain *chain) {
  struct ik2d_chain_link *link = chain->link;
  const ik2d_skeleton *sk = link != NULL ? link->node.skeleton : NULL;
  const double *t;
  if (sk == NULL) return;
  if (sk->general) {
    general_pull(chain, sk);
    return;
  }
  t = sk->transforms;
  chain_pull_state(chain, sk, t[IK2D_TRANSFORM * link->from], t[IK2D_TRANSFORM * link->from + 1]);
  pull_joints(chain, sk);
  link->stale = false;
}

/* Every chain on the skeleton pulls (after an edit of the skeleton). */
static void skeleton_pull_all(ik2d_skeleton *sk) {
  ik2d_skeleton_node *node;
  for (node = sk->chains.next; node != &sk->chains; node = node->next)
    ik2d__skeleton_chain_pull(chain_of_node(node));
}

/* Is bone x below bone b (or b)? */
static bool skeleton_below(const ik2d_skeleton *sk, int b, int x) {
  return sk->position[x] >= sk->position[b] && sk->position[x] <= sk->last[b];
}

/* Every chain ending below bone b takes the skeleton's state. */
static void skeleton_pull_below(ik2d_skeleton *sk, int b, const ik2d_chain *except) {
  ik2d_skeleton_node *node;
  for (node = sk->chains.next; node != &sk->chains; node = node->next) {
    ik2d_chain *chain = chain_of_node(node);
    if (chain != except && skeleton_below(sk, b, chain->link->to))
      ik2d__skeleton_chain_pull(chain);
  }
}

/* Frames and transforms of bone b and those below it, parents first. */
static void skeleton_forward_below(ik2d_skeleton *sk, int b) {
  int i;
  for (i = sk->position[b]; i <= sk->last[b]; i++) {
    skeleton_frame(sk, sk->order[i]);
    skeleton_transform(sk, sk->order[i]);
  }
}

void ik2d__skeleton_worlds_moved(ik2d_skeleton *sk, const bool *kept) {
  bool moved[IK2D_MAX_SKELETON_BONES];
  ik2d_skeleton_node *node;
  int b;
  for (b = 0; b < sk->count; b++) {
    int p = sk->parent[b];
    moved[b] = kept[b] || (p >= 0 && moved[p]);
    if (!moved[b]) continue;
    if (kept[b])
      world_frame(sk, b);
    else
      general_frame(sk, b);
    skeleton_transform(sk, b);
  }
  /* a chain moved where its last bone did: a move anywhere on its path or
  ** above it moves that bone too, and nothing else enters its pull */
  for (node = sk->chains.next; node != &sk->chains; node = node->next)
    if (moved[node->chain->link->to]) ik2d__skeleton_chain_pull(chain_of_node(node));
}

/* ------------------------------------------------------------------ */
/* deferred frames and pulls, within a skeleton's solve                 */
/* ------------------------------------------------------------------ */

void ik2d__skeleton_defer(ik2d_skeleton *sk) { sk->deferring = true; }

void ik2d__skeleton_place_stale(ik2d_skeleton *sk, int b) {
  int up[IK2D_MAX_SKELETON_BONES], n = 0;
  /* a stale bone's parent may be stale too: the bones up to the first
  ** fresh one, placed from the top down */
  for (; b >= 0 && sk->stale[sk->position[b]]; b = sk->parent[b]) up[n++] = b;
  while (n > 0) {
    b = up[--n];
    skeleton_frame(sk, b);
    skeleton_transform(sk, b);
    sk->stale[sk->position[b]] = 0;
  }
}

void ik2d__skeleton_chain_ready(ik2d_chain *chain, bool joints) {
  struct ik2d_chain_link *link = chain->link;
  ik2d_skeleton *sk = link != NULL ? link->node.skeleton : NULL;
  double x, y;
  if (sk == NULL || !link->stale) return;
  if (sk->parent[link->from] >= 0) ik2d__skeleton_bone_ready(sk, sk->parent[link->from]);
  if (joints || sk->general) {
    ik2d__skeleton_bone_ready(sk, link->to);
    ik2d__skeleton_chain_pull(chain);
    return;
  }
  /* the base is from's origin, which its parent's frame gives: from's own
  ** frame (its trig) is left to the push after the solve */
  if (sk->stale[sk->position[link->from]]) {
    skeleton_origin(sk, link->from, &x, &y);
    x = skeleton_drawn_x(sk, link->from, x);
  } else {
    x = sk->transforms[IK2D_TRANSFORM * link->from];
    y = sk->transforms[IK2D_TRANSFORM * link->from + 1];
  }
  chain_pull_state(chain, sk, x, y);
  link->stale = false;
}

void ik2d__skeleton_settle(ik2d_skeleton *sk) {
  ik2d_skeleton_node *node;
  int i;
  if (!sk->deferring) return;
  sk->deferring = false;
  /* in depth-first order: parents first */
  for (i = 0; i < sk->count; i++) {
    if (!sk->stale[i]) continue;
    skeleton_frame(sk, sk->order[i]);
    skeleton_transform(sk, sk->order[i]);
    sk->stale[i] = 0;
  }
  for (node = sk->chains.next; node != &sk->chains; node = node->next)
    if (node->chain->link->stale) ik2d__skeleton_chain_pull(node->chain);
}

/* Bone b of the path of chain, its k-th: its frame and transform, on the
** chain's joints (its position and, where it is the chain's, its tip:
** only its direction is the skeleton's). */
IK2D_INLINE void push_place(ik2d_skeleton *sk, const ik2d_chain *chain, int k, int b) {
  const struct ik2d_chain_link *link = chain->link;
  ik2d_frame *f = &sk->frame[b];
  double *t = &sk->transforms[IK2D_TRANSFORM * b];
  int n = chain->count;
  skeleton_turn(sk, b);
  t[2] = skeleton_drawn_angle(sk, f->angle);
  t[0] = chain->joints[2 * k];
  t[1] = chain->joints[2 * k + 1];
  f->x = sk->flip ? 2.0 * sk->base_x - t[0] : t[0];
  f->y = t[1];
  if (k == n - 1 || sk->at_tip[link->bones[k + 1]]) {
    t[3] = chain->joints[2 * k + 2];
    t[4] = chain->joints[2 * k + 3];
    f->tip_x = sk->flip ? 2.0 * sk->base_x - t[3] : t[3];
    f->tip_y = t[4];
  } else {
    ik2d_rot rot = ik2d_frame_rot(f);
    f->tip_x = f->x + sk->length[b] * rot.c;
    f->tip_y = f->y + sk->length[b] * rot.s;
    t[3] = sk->flip ? 2.0 * sk->base_x - f->tip_x : f->tip_x;
    t[4] = f->tip_y;
  }
}

/* Each chain's others_below, after a chain joined or left sk. */
static void skeleton_chains_below(ik2d_skeleton *sk) {
  ik2d_skeleton_node *a, *b;
  for (a = sk->chains.next; a != &sk->chains; a = a->next) {
    struct ik2d_chain_link *link = a->chain->link;
    link->others_below = false;
    for (b = sk->chains.next; b != &sk->chains; b = b->next)
      if (b != a && skeleton_below(sk, link->from, b->chain->link->to))
        link->others_below = true;
  }
}

/* Bone b of the path of chain, its k-th, takes the chain's angle. */
IK2D_INLINE void push_angle(ik2d_skeleton *sk, ik2d_chain *chain, int k, int b) {
  double shift = chain->link->shift[k];
  if (shift == 0.0) {
    sk->angle[b] = chain->angle[k];
  } else {
    /* and back, so that the chain reads as a pull would write it (the
    ** round trip can move the angle by an ulp) */
    sk->angle[b] = chain->angle[k] - shift;
    chain->angle[k] = sk->angle[b] + shift;
  }
}

/* A push while deferring: the path's frames now (they take the chain's
** joints), the bones below it and the chains ending there marked stale,
** placed and pulled when read or when the solve ends; a later solve in
** it may well move them again. */
static void push_deferred(ik2d_skeleton *sk, ik2d_chain *chain, bool pull_others) {
  struct ik2d_chain_link *link = chain->link;
  ik2d_skeleton_node *node;
  int k, from = link->from;
  if (sk->parent[from] >= 0) ik2d__skeleton_bone_ready(sk, sk->parent[from]);
  memset(sk->stale + sk->position[from], 1, (size_t)(sk->last[from] - sk->position[from] + 1));
  for (k = 0; k < chain->count; k++) {
    int b = link->bones[k];
    push_angle(sk, chain, k, b);
    push_place(sk, chain, k, b);
    sk->stale[sk->position[b]] = 0;
  }
  if (!pull_others || !link->others_below) return;
  for (node = sk->chains.next; node != &sk->chains; node = node->next)
    if (node->chain != chain && skeleton_below(sk, from, node->chain->link->to))
      node->chain->link->stale = true;
}

/* A general skeleton's chain written back: each bone's angle from its
** chain angle (kept where the solve left the chain angle as pulled, so
** that nothing moves by a rounding), the bones from from down placed
** again (the chain's joints are where uniform scales put them: the
** bones' own placing says where they are), the chain pulled as placed. */
static void general_push(ik2d_chain *chain, ik2d_skeleton *sk, bool pull_others) {
  struct ik2d_chain_link *link = chain->link;
  ik2d_skeleton_node *node;
  int k, from = link->from;
  for (k = 0; k < chain->count; k++)
    if (chain->angle[k] != chain->pose[k])
      sk->angle[link->bones[k]] = link->turn[k] * (chain->angle[k] - link->offset[k]);
  if (sk->parent[from] >= 0) ik2d__skeleton_bone_ready(sk, sk->parent[from]);
  skeleton_forward_below(sk, from);
  if (sk->deferring)
    memset(sk->stale + sk->position[from], 0, (size_t)(sk->last[from] - sk->position[from] + 1));
  general_pull(chain, sk);
  if (!pull_others) return;
  for (node = sk->chains.next; node != &sk->chains; node = node->next) {
    if (node->chain == chain || !skeleton_below(sk, from, node->chain->link->to)) continue;
    if (sk->deferring)
      node->chain->link->stale = true;
    else
      ik2d__skeleton_chain_pull(node->chain);
  }
}

void ik2d__skeleton_chain_push(ik2d_chain *chain, bool pull_others) {
  struct ik2d_chain_link *link = chain->link;
  ik2d_skeleton *sk = link != NULL ? link->node.skeleton : NULL;
  int k, b, i, n = chain->count;
  if (sk == NULL) return;
  if (sk->general) {
    general_push(chain, sk, pull_others);
    return;
  }
  if (sk->deferring) {
    push_deferred(sk, chain, pull_others);
    return;
  }
  for (k = 0; k < n; k++) push_angle(sk, chain, k, link->bones[k]);
  /* the frames below from, parents first (the path's in its order); the
  ** path's positions are the chain's joints (a weight-1 solve builds them
  ** from its rotations, a hair off the trig), taken before the bones
  ** below them are placed, so that everything agrees with them: a
  ** one-path skeleton then reads exactly as the same chain would */
  for (i = sk->position[link->from], k = 0; i <= sk->last[link->from]; i++) {
    b = sk->order[i];
    if (k < n && link->bones[k] == b) {
      push_place(sk, chain, k++, b);
    } else {
      skeleton_frame(sk, b);
      skeleton_transform(sk, b);
    }
  }
  if (pull_others) skeleton_pull_below(sk, link->from, chain);
}

/* ------------------------------------------------------------------ */
/* set-up                                                               */
/* ------------------------------------------------------------------ */



/* A skeleton's limits are in parent space: its coupled solve turns bones
** in their parents' frames (a bone that should keep a world angle
** inherits position only, or its chain's solver orients the tip). */
static ik2d_status skeleton_check_limit(const ik2d_constraint *limit) {
  return limit != NULL && limit->def.space != IK2D_SPACE_PARENT ? IK2D_ERR_SKELETON_SPACE
                                                                 : IK2D_OK;
}

static bool limit_in_parent_space(const ik2d_skeleton_bone_def *def) {
  return skeleton_check_limit(def->constraint) == IK2D_OK;
}

/* the parent is an earlier bone, or the base (-1) */
static bool parent_earlier(const ik2d_skeleton_bone_def *def, int index) {
  return def->parent >= -1 && def->parent < index;
}

/* generated from lua/ik2d/api.lua by make gen: skeleton bone check */
/* ik2d_skeleton_bone_def's check as lua/ik2d/api.lua describes it: each
** field's, each rule, in its order; the first refused is the status. index:
** the bone's index in its skeleton. */
static ik2d_status skeleton_bone_def_check(const ik2d_skeleton_bone_def *def, int index) {
  ik2d_status status;
  if (def == NULL) return IK2D_ERR_NULL;
  if (!parent_earlier(def, index)) return IK2D_ERR_PARENT;
  if ((status = ik2d__skeleton_bone_check_length(def->length)) != IK2D_OK) return status;
  if ((status = ik2d__skeleton_bone_check_rest(def->rest)) != IK2D_OK) return status;
  if (!def->at_tip) {
    if ((status = ik2d__skeleton_bone_check_x(def->x)) != IK2D_OK) return status;
    if ((status = ik2d__skeleton_bone_check_y(def->y)) != IK2D_OK) return status;
  }
  if ((status = ik2d__skeleton_bone_check_scale_x(def->scale_x)) != IK2D_OK)
    return status;
  if ((status = ik2d__skeleton_bone_check_scale_y(def->scale_y)) != IK2D_OK)
    return status;
  if ((status = ik2d__skeleton_bone_check_shear_x(def->shear_x)) != IK2D_OK)
    return status;
  if ((status = ik2d__skeleton_bone_check_shear_y(def->shear_y)) != IK2D_OK)
    return status;
  if ((status = ik2d__skeleton_bone_check_inherit(def->inherit)) != IK2D_OK)
    return status;
  if (!limit_in_parent_space(def)) return IK2D_ERR_SKELETON_SPACE;
  return IK2D_OK;
}
/* end generated */

/* Every length and origin offset, summed: while finite, every position
** the bones reach is (as a chain's reach). */
static double skeleton_extent(const ik2d_skeleton_def *def, int changed,
                              double length) {
  double extent = 0.0;
  int i;
  for (i = 0; i < def->bone_count; i++) {
    const ik2d_skeleton_bone_def *bone = &def->bones[i];
    extent += i == changed ? length : bone->length;
    if (!bone->at_tip) extent += fabs(bone->x) + fabs(bone->y);
  }
  return extent;
}

/* Every bone as skeleton_bone_def_check checks it; bad gets the index of
** one refused. */
static ik2d_status skeleton_bones_valid(const ik2d_skeleton_def *def, int *bad) {
  int i;
  if (def->bones == NULL) return IK2D_ERR_NULL;
  for (i = 0; i < def->bone_count; i++) {
    ik2d_status status = skeleton_bone_def_check(&def->bones[i], i);
    if (status != IK2D_OK) {
      if (bad != NULL) *bad = i;
      return status;
    }
  }
  return IK2D_OK;
}

static bool skeleton_extent_finite(const ik2d_skeleton_def *def) {
  return isfinite(skeleton_extent(def, -1, 0.0));
}

/* generated from lua/ik2d/api.lua by make gen: bone local check */
/* ik2d_bone_local's check as lua/ik2d/api.lua describes it: each field's,
** each rule, in its order; the first refused is the status. */
static ik2d_status bone_local_def_check(const ik2d_bone_local *def) {
  ik2d_status status;
  if (def == NULL) return IK2D_ERR_NULL;
  if ((status = ik2d__bone_local_check_x(def->x)) != IK2D_OK) return status;
  if ((status = ik2d__bone_local_check_y(def->y)) != IK2D_OK) return status;
  if ((status = ik2d__bone_local_check_angle(def->angle)) != IK2D_OK) return status;
  if ((status = ik2d__bone_local_check_scale_x(def->scale_x)) != IK2D_OK) return status;
  if ((status = ik2d__bone_local_check_scale_y(def->scale_y)) != IK2D_OK) return status;
  if ((status = ik2d__bone_local_check_shear_x(def->shear_x)) != IK2D_OK) return status;
  if ((status = ik2d__bone_local_check_shear_y(def->shear_y)) != IK2D_OK) return status;
  return IK2D_OK;
}
/* end generated */

/* generated from lua/ik2d/api.lua by make gen: skeleton check */
/* ik2d_skeleton_def's check as lua/ik2d/api.lua describes it: each field's,
** each rule, in its order; the first refused is the status. bad: gets the
** index of a bone refused. */
static ik2d_status skeleton_def_check(const ik2d_skeleton_def *def, int *bad) {
  ik2d_status status;
  if (def == NULL) return IK2D_ERR_NULL;
  if ((status = ik2d__skeleton_check_bone_count(def->bone_count)) != IK2D_OK)
    return status;
  if ((status = skeleton_bones_valid(def, bad)) != IK2D_OK) return status;
  if (!skeleton_extent_finite(def)) return IK2D_ERR_REACH;
  if ((status = ik2d__skeleton_check_x(def->x)) != IK2D_OK) return status;
  if ((status = ik2d__skeleton_check_y(def->y)) != IK2D_OK) return status;
  if ((status = ik2d__skeleton_check_angle(def->angle)) != IK2D_OK) return status;
  if ((status = ik2d__skeleton_check_scale_x(def->scale_x)) != IK2D_OK) return status;
  if ((status = ik2d__skeleton_check_scale_y(def->scale_y)) != IK2D_OK) return status;
  return IK2D_OK;
}
/* end generated */

/* The depth-first order: each bone's subtree size from its children's
** (children come after their parent), then each bone placed after its
** parent and its earlier siblings' subtrees. */
static void skeleton_order(ik2d_skeleton *sk) {
  int size[IK2D_MAX_SKELETON_BONES], next[IK2D_MAX_SKELETON_BONES];
  int b, roots = 0;
  for (b = 0; b < sk->count; b++) size[b] = 1;
  for (b = sk->count - 1; b >= 0; b--)
    if (sk->parent[b] >= 0) size[sk->parent[b]] += size[b];
  for (b = 0; b < sk->count; b++) {
    int p = sk->parent[b], at;
    if (p < 0) {
      at = roots;
      roots += size[b];
    } else {
      at = next[p];
      next[p] += size[b];
    }
    next[b] = at + 1;
    sk->position[b] = (unsigned char)at;
    sk->last[b] = (unsigned char)(at + size[b] - 1);
    sk->order[at] = (unsigned char)b;
  }
}

/* The per-bone arrays of a skeleton of n bones, after its header. */
static void skeleton_arrays(ik2d_skeleton *sk, int n) {
  skeleton_layout l = skeleton_layout_of(n);
  char *memory = (char *)sk;
  sk->count = n;
  sk->length = (double *)(void *)(memory + l.length);
  sk->rest = (double *)(void *)(memory + l.rest);
  sk->rest_rot = (ik2d_rot *)(void *)(memory + l.rest_rot);
  sk->origin = (double *)(void *)(memory + l.origin);
  sk->pose = (double *)(void *)(memory + l.pose);
  sk->angle = (double *)(void *)(memory + l.angle);
  sk->constraint = (const ik2d_constraint **)(void *)(memory + l.constraint);
  sk->frame = (ik2d_frame *)(void *)(memory + l.frame);
  sk->transforms = (double *)(void *)(memory + l.transforms);
  sk->parent = (int *)(void *)(memory + l.parent);
  sk->at_tip = (unsigned char *)(memory + l.at_tip);
  sk->inherit = (unsigned char *)(memory + l.inherit);
  sk->order = (unsigned char *)(memory + l.order);
  sk->position = (unsigned char *)(memory + l.position);
  sk->last = (unsigned char *)(memory + l.last);
  sk->stale = (unsigned char *)(memory + l.stale);
  sk->setup = (ik2d_bone_shape *)(void *)(memory + l.setup);
  sk->pose_shape = (ik2d_bone_shape *)(void *)(memory + l.pose_shape);
  sk->shape = (ik2d_bone_shape *)(void *)(memory + l.shape);
  sk->world = (ik2d_affine *)(void *)(memory + l.world);
  sk->matrices = (double *)(void *)(memory + l.matrices);
}

/* The bones of a checked def, their pose and result at rest. */
static void skeleton_bones(ik2d_skeleton *sk, const ik2d_skeleton_def *def) {
  int i;
  for (i = 0; i < sk->count; i++) {
    const ik2d_skeleton_bone_def *bone = &def->bones[i];
    sk->parent[i] = bone->parent;
    sk->length[i] = bone->length;
    sk->rest[i] = bone->rest;
    sk->rest_rot[i] = ik2d_rot_angle(bone->rest);
    sk->at_tip[i] = bone->at_tip;
    sk->inherit[i] = (unsigned char)bone->inherit;
    sk->constraint[i] = bone->constraint;
    /* at the tip: the parent's length along its +x (0, 0 for a root) */
    sk->origin[2 * i] = !bone->at_tip ? bone->x
                        : bone->parent >= 0 ? def->bones[bone->parent].length : 0.0;
    sk->origin[2 * i + 1] = bone->at_tip ? 0.0 : bone->y;
    sk->pose[i] = sk->angle[i] = sk->rest[i];
    sk->setup[i].x = sk->origin[2 * i];
    sk->setup[i].y = sk->origin[2 * i + 1];
    sk->setup[i].scale_x = bone->scale_x;
    sk->setup[i].scale_y = bone->scale_y;
    sk->setup[i].shear_x = bone->shear_x;
    sk->setup[i].shear_y = bone->shear_y;
    sk->pose_shape[i] = sk->shape[i] = sk->setup[i];
    /* no angle yet: skeleton_frame's trig runs (a world angle is finite) */
    sk->frame[i].angle = NAN;
  }
}

/* Can the rigid way place a bone of this shape and inherit mode, whose
** origin is (x, y)?  Unit scale, no shear, at its origin, all or position. */
static bool shape_rigid(const ik2d_bone_shape *shape, int inherit, double x, double y) {
  return shape->scale_x == 1.0 && shape->scale_y == 1.0 && shape->shear_x == 0.0 &&
         shape->shear_y == 0.0 && shape->x == x && shape->y == y &&
         (inherit == IK2D_INHERIT_ALL || inherit == IK2D_INHERIT_POSITION);
}

/* Whether a new skeleton needs the general way: a bone or its scale. */
static bool skeleton_needs_general(const ik2d_skeleton *sk) {
  int i;
  if (sk->scale_x != 1.0 || sk->scale_y != 1.0) return true;
  for (i = 0; i < sk->count; i++)
    if (!shape_rigid(&sk->setup[i], sk->inherit[i], sk->origin[2 * i], sk->origin[2 * i + 1]))
      return true;
  return false;
}

ik2d_status ik2d_skeleton_init(ik2d_skeleton *sk, size_t size,
                               const ik2d_skeleton_def *def, int *bad) {
  ik2d_status status;
  if (sk == NULL || def == NULL) return IK2D_ERR_NULL;
  if ((uintptr_t)sk % sizeof(double) != 0) return IK2D_ERR_ALIGNMENT;
  status = skeleton_def_check(def, bad);
  if (status != IK2D_OK) return status;
  if (size < skeleton_layout_of(def->bone_count).size) return IK2D_ERR_SIZE;
  skeleton_arrays(sk, def->bone_count);
  memset(sk->stale, 0, (size_t)sk->count);
  sk->deferring = false;
  sk->listed = false;
  skeleton_bones(sk, def);
  skeleton_order(sk);
  sk->flip = def->flip;
  sk->base_x = def->x;
  sk->base_y = def->y;
  sk->base_angle = ik2d_base_angle(def->angle);
  sk->base_rot = ik2d_rot_angle(sk->base_angle);
  sk->scale_x = def->scale_x;
  sk->scale_y = def->scale_y;
  sk->general = skeleton_needs_general(sk);
  node_clear(&sk->chains);
  sk->solver_count = 0;
  sk->plan_kept = false;
  sk->constraint_count = 0;
  sk->step_count = 0;
  ik2d__skeleton_forward(sk, 0, NULL);
  return IK2D_OK;
}

void ik2d_skeleton_release(ik2d_skeleton *sk) {
  /* (zeroed memory, as a refused init leaves a Lua object's, has no lists) */
  if (sk == NULL || sk->chains.next == NULL) return;
  while (sk->chains.next != &sk->chains) node_unlink(sk->chains.next);
  sk->solver_count = 0;
  sk->plan_kept = false;
  /* a constraint begins with its skeleton's pointer: cleared, it has none */
  while (sk->constraint_count > 0)
    *(ik2d_skeleton **)(void *)sk->constraints[--sk->constraint_count] = NULL;
  sk->step_count = 0;
}

/* ------------------------------------------------------------------ */
/* edits                                                                */
/* ------------------------------------------------------------------ */

static bool has_bone(const ik2d_skeleton *sk, int i) {
  return sk != NULL && i >= 0 && i < sk->count;
}

int ik2d_skeleton_bone_count(const ik2d_skeleton *sk) {
  return sk != NULL ? sk->count : 0;
}

/* Bone i and those below it moved: their frames, and the chains ending
** there (every other chain is untouched by the change). */
static void skeleton_moved(ik2d_skeleton *sk, int i) {
  ik2d__skeleton_moved(sk, i);
}

void ik2d__skeleton_place_below(ik2d_skeleton *sk, int i) { skeleton_forward_below(sk, i); }

void ik2d__skeleton_moved(ik2d_skeleton *sk, int i) {
  skeleton_forward_below(sk, i);
  skeleton_pull_below(sk, i, NULL);
}

/* Everything moved (base, flip, reset). */
static void skeleton_moved_all(ik2d_skeleton *sk) {
  ik2d__skeleton_forward(sk, 0, NULL);
  skeleton_pull_all(sk);
}

/* The base's fields; its rotation's trig only for a new angle (the
** rotation is always its angle's: the same bits). */
static void skeleton_keep_base(ik2d_skeleton *sk, double x, double y, double angle) {
  double kept = ik2d_base_angle(angle);
  sk->base_x = x;
  sk->base_y = y;
  if (memcmp(&kept, &sk->base_angle, sizeof kept) != 0) {
    sk->base_angle = kept;
    sk->base_rot = ik2d_rot_angle(kept);
  }
}

/* Whether the base (x, y, angle) is the one sk has, to the bit: set
** again, it places nothing (a placing from the angles may differ from a
** solve's by an ulp). */
static bool skeleton_has_base(const ik2d_skeleton *sk, double x, double y, double angle) {
  return ik2d_same_bits(x, sk->base_x) && ik2d_same_bits(y, sk->base_y) &&
         ik2d_same_bits(ik2d_base_angle(angle), sk->base_angle);
}

ik2d_status ik2d_skeleton_set_base(ik2d_skeleton *sk, double x, double y,
                                   double angle) {
  ik2d_status status;
  if (sk == NULL) return IK2D_ERR_NULL;
  status = ik2d__chain_check_base(x, y, angle);
  if (status != IK2D_OK) return status;
  if (skeleton_has_base(sk, x, y, angle)) return IK2D_OK;
  skeleton_keep_base(sk, x, y, angle);
  skeleton_moved_all(sk);
  return IK2D_OK;
}

void ik2d__skeleton_set_base_deferred(ik2d_skeleton *sk, double x, double y, double angle) {
  if (skeleton_has_base(sk, x, y, angle)) return;
  skeleton_keep_base(sk, x, y, angle);
  ik2d__skeleton_posed(sk);
}

void ik2d__skeleton_posed(ik2d_skeleton *sk) {
  ik2d_skeleton_node *node;
  sk->deferring = true;
  memset(sk->stale, 1, (size_t)sk->count);
  for (node = sk->chains.next; node != &sk->chains; node = node->next)
    node->chain->link->stale = true;
}

ik2d_status ik2d_skeletons_check_bases(ik2d_skeleton *const *skeletons, int count,
                                       const double *xya, int *bad) {
  int i;
  if (skeletons == NULL || xya == NULL) return IK2D_ERR_NULL;
  for (i = 0; i < count; i++) {
    ik2d_status status = ik2d__chain_check_base(xya[3 * i], xya[3 * i + 1], xya[3 * i + 2]);
    if (skeletons[i] != NULL && status != IK2D_OK) {
      if (bad != NULL) *bad = i;
      return status;
    }
  }
  return IK2D_OK;
}

ik2d_status ik2d_skeletons_set_bases(ik2d_skeleton *const *skeletons, int count,
                                     const double *xya, int *bad) {
  int i;
  ik2d_status status = ik2d_skeletons_check_bases(skeletons, count, xya, bad);
  if (status != IK2D_OK) return status;
  for (i = 0; i < count; i++)
    if (skeletons[i] != NULL)
      ik2d_skeleton_set_base(skeletons[i], xya[3 * i], xya[3 * i + 1], xya[3 * i + 2]);
  return IK2D_OK;
}

void ik2d_skeleton_base(const ik2d_skeleton *sk, double *x, double *y,
                        double *angle) {
  if (x != NULL) *x = sk != NULL ? sk->base_x : 0.0;
  if (y != NULL) *y = sk != NULL ? sk->base_y : 0.0;
  if (angle != NULL) *angle = sk != NULL ? sk->base_angle : 0.0;
}

ik2d_status ik2d_skeleton_set_flip(ik2d_skeleton *sk, bool flip) {
  if (sk == NULL) return IK2D_ERR_NULL;
  if (flip == sk->flip) return IK2D_OK;
  sk->flip = flip;
  skeleton_moved_all(sk);
  return IK2D_OK;
}

bool ik2d_skeleton_flip(const ik2d_skeleton *sk) { return sk != NULL && sk->flip; }

/* The shape of a local transform (all of it but its angle). */
static ik2d_bone_shape shape_of(const ik2d_bone_local *local) {
  ik2d_bone_shape shape;
  shape.x = local->x;
  shape.y = local->y;
  shape.scale_x = local->scale_x;
  shape.scale_y = local->scale_y;
  shape.shear_x = local->shear_x;
  shape.shear_y = local->shear_y;
  return shape;
}

/* A local transform from an angle and a shape. */
static void local_of(double angle, const ik2d_bone_shape *shape, ik2d_bone_local *out) {
  out->x = shape->x;
  out->y = shape->y;
  out->angle = angle;
  out->scale_x = shape->scale_x;
  out->scale_y = shape->scale_y;
  out->shear_x = shape->shear_x;
  out->shear_y = shape->shear_y;
}

ik2d_status ik2d_skeleton_set_pose_local(ik2d_skeleton *sk, int i, const ik2d_bone_local *local) {
  ik2d_status status;
  ik2d_bone_shape shape;
  if (sk == NULL) return IK2D_ERR_NULL;
  if (!has_bone(sk, i)) return IK2D_ERR_INDEX;
  if ((status = bone_local_def_check(local)) != IK2D_OK) return status;
  shape = shape_of(local);
  /* the value it has: nothing to place again (not a bit moves) */
  if (memcmp(&sk->pose[i], &local->angle, sizeof(double)) == 0 &&
      memcmp(&sk->angle[i], &local->angle, sizeof(double)) == 0 &&
      memcmp(&sk->pose_shape[i], &shape, sizeof shape) == 0 &&
      memcmp(&sk->shape[i], &shape, sizeof shape) == 0)
    return IK2D_OK;
  if (!shape_rigid(&shape, sk->inherit[i], sk->origin[2 * i], sk->origin[2 * i + 1]))
    ik2d__skeleton_make_general(sk);
  sk->pose[i] = sk->angle[i] = local->angle;
  sk->pose_shape[i] = sk->shape[i] = shape;
  skeleton_moved(sk, i);
  return IK2D_OK;
}

/* One of a bone's local transforms: of its angles and shapes. */
static ik2d_status skeleton_local_read(const ik2d_skeleton *sk, int i, const double *angles,
                                       const ik2d_bone_shape *shapes, ik2d_bone_local *out) {
  if (sk == NULL || out == NULL) return IK2D_ERR_NULL;
  if (!has_bone(sk, i)) return IK2D_ERR_INDEX;
  local_of(angles[i], &shapes[i], out);
  return IK2D_OK;
}

ik2d_status ik2d_skeleton_pose_local(const ik2d_skeleton *sk, int i, ik2d_bone_local *out) {
  return skeleton_local_read(sk, i, sk != NULL ? sk->pose : NULL,
                             sk != NULL ? sk->pose_shape : NULL, out);
}

ik2d_status ik2d_skeleton_result_local(const ik2d_skeleton *sk, int i, ik2d_bone_local *out) {
  return skeleton_local_read(sk, i, sk != NULL ? sk->angle : NULL, sk != NULL ? sk->shape : NULL,
                             out);
}

ik2d_status ik2d_skeleton_setup_local(const ik2d_skeleton *sk, int i, ik2d_bone_local *out) {
  return skeleton_local_read(sk, i, sk != NULL ? sk->rest : NULL, sk != NULL ? sk->setup : NULL,
                             out);
}

ik2d_status ik2d_skeleton_set_scale(ik2d_skeleton *sk, double sx, double sy) {
  ik2d_status status;
  if (sk == NULL) return IK2D_ERR_NULL;
  if ((status = ik2d__skeleton_check_scale_x(sx)) != IK2D_OK) return status;
  if ((status = ik2d__skeleton_check_scale_y(sy)) != IK2D_OK) return status;
  if (memcmp(&sx, &sk->scale_x, sizeof sx) == 0 && memcmp(&sy, &sk->scale_y, sizeof sy) == 0)
    return IK2D_OK;
  if (sx != 1.0 || sy != 1.0) ik2d__skeleton_make_general(sk);
  sk->scale_x = sx;
  sk->scale_y = sy;
  skeleton_moved_all(sk);
  return IK2D_OK;
}

void ik2d_skeleton_scale(const ik2d_skeleton *sk, double *sx, double *sy) {
  if (sx != NULL) *sx = sk != NULL ? sk->scale_x : 1.0;
  if (sy != NULL) *sy = sk != NULL ? sk->scale_y : 1.0;
}

bool ik2d_skeleton_general(const ik2d_skeleton *sk) { return sk != NULL && sk->general; }

/* Bone b's map as drawn: x axis (m[0], m[2]), y axis (m[1], m[3]), origin
** (m[4], m[5]).  A rigid bone's is its rotation's; a general one's, its
** map in the skeleton's space turned by the base; mirrored when flipped. */
static void skeleton_matrix_of(const ik2d_skeleton *sk, int b, double *m) {
  const double *t = &sk->transforms[IK2D_TRANSFORM * b];
  double a, c, yb, yd;
  if (sk->general) {
    const ik2d_affine *w = &sk->world[b];
    ik2d_rot r = sk->base_rot;
    a = r.c * w->a - r.s * w->c;
    c = r.s * w->a + r.c * w->c;
    yb = r.c * w->b - r.s * w->d;
    yd = r.s * w->b + r.c * w->d;
  } else {
    const ik2d_frame *f = &sk->frame[b];
    ik2d_rot r = f->rot.c == f->rot.c ? f->rot : ik2d_rot_angle(f->angle);
    a = r.c;
    c = r.s;
    yb = -r.s;
    yd = r.c;
  }
  m[0] = sk->flip ? -a : a;
  m[1] = sk->flip ? -yb : yb;
  m[2] = c;
  m[3] = yd;
  m[4] = t[0];
  m[5] = t[1];
}

ik2d_status ik2d_skeleton_matrix(const ik2d_skeleton *sk, int i, double *m) {
  if (sk == NULL || m == NULL) return IK2D_ERR_NULL;
  if (!has_bone(sk, i)) return IK2D_ERR_INDEX;
  skeleton_matrix_of(sk, i, m);
  return IK2D_OK;
}

const double *ik2d_skeleton_matrices(ik2d_skeleton *sk) {
  int b;
  if (sk == NULL) return NULL;
  for (b = 0; b < sk->count; b++) skeleton_matrix_of(sk, b, &sk->matrices[6 * b]);
  return sk->matrices;
}

ik2d_status ik2d_skeleton_set_pose(ik2d_skeleton *sk, int i, double angle) {
  if (sk == NULL) return IK2D_ERR_NULL;
  if (!has_bone(sk, i)) return IK2D_ERR_INDEX;
  if (!isfinite(angle)) return IK2D_ERR_POSE;
  /* the value it has: nothing to place again (not a bit moves) */
  if (ik2d_same_bits(sk->pose[i], angle) && ik2d_same_bits(sk->angle[i], angle)) return IK2D_OK;
  sk->pose[i] = angle;
  sk->angle[i] = angle;
  skeleton_moved(sk, i);
  return IK2D_OK;
}

/* The chains over bone i take its new geometry (lengths, rest angles). */
static void skeleton_regeometry(ik2d_skeleton *sk, int i) {
  ik2d_skeleton_node *node;
  for (node = sk->chains.next; node != &sk->chains; node = node->next) {
    ik2d_chain *chain = chain_of_node(node);
    /* bone i's segment: its length (the last bone's, or its path child's
    ** origin at its tip) or its rest */
    if (chain_bone_of(chain, i) >= 0) chain_geometry(chain);
  }
}

ik2d_status ik2d_skeleton_set_length(ik2d_skeleton *sk, int i, double length) {
  double extent = 0.0;
  int b;
  if (sk == NULL) return IK2D_ERR_NULL;
  if (!has_bone(sk, i)) return IK2D_ERR_INDEX;
  if (ik2d__skeleton_bone_check_length(length) != IK2D_OK) return IK2D_ERR_PIVOT_LENGTH;
  if (ik2d_same_bits(sk->length[i], length)) return IK2D_OK;
  for (b = 0; b < sk->count; b++) {
    extent += b == i ? length : sk->length[b];
    if (!sk->at_tip[b]) extent += fabs(sk->origin[2 * b]) + fabs(sk->origin[2 * b + 1]);
  }
  if (!isfinite(extent)) return IK2D_ERR_REACH;
  sk->length[i] = length;
  /* the children at its tip follow (their translation with them) */
  for (b = i + 1; b < sk->count; b++) {
    if (sk->parent[b] != i || !sk->at_tip[b]) continue;
    sk->origin[2 * b] = length;
    sk->setup[b].x = sk->pose_shape[b].x = sk->shape[b].x = length;
  }
  skeleton_regeometry(sk, i);
  skeleton_moved(sk, i);
  return IK2D_OK;
}

ik2d_status ik2d_skeleton_set_rest(ik2d_skeleton *sk, int i, double angle) {
  if (sk == NULL) return IK2D_ERR_NULL;
  if (!has_bone(sk, i)) return IK2D_ERR_INDEX;
  if (ik2d__skeleton_bone_check_rest(angle) != IK2D_OK) return IK2D_ERR_REST;
  if (ik2d_same_bits(sk->rest[i], angle)) return IK2D_OK;
  sk->rest[i] = angle;
  sk->rest_rot[i] = ik2d_rot_angle(angle);
  skeleton_regeometry(sk, i);
  /* the angles stay; the transforms are made theirs again (a solve's
  ** come from its rotations, which a rest of 1e300 rad left the blended
  ** angles nothing of) */
  skeleton_moved(sk, i);
  return IK2D_OK;
}

ik2d_status ik2d_skeleton_set_constraint(ik2d_skeleton *sk, int i,
                                         const ik2d_constraint *constraint) {
  ik2d_skeleton_node *node;
  if (sk == NULL) return IK2D_ERR_NULL;
  if (!has_bone(sk, i)) return IK2D_ERR_INDEX;
  if (skeleton_check_limit(constraint) != IK2D_OK) return IK2D_ERR_SKELETON_SPACE;
  sk->constraint[i] = constraint;
  for (node = sk->chains.next; node != &sk->chains; node = node->next) {
    ik2d_chain *chain = chain_of_node(node);
    int k = chain_bone_of(chain, i);
    if (k >= 0) chain->constraint[k] = constraint;
  }
  return IK2D_OK;
}

static void skeleton_to_setup(ik2d_skeleton *sk) {
  int i;
  for (i = 0; i < sk->count; i++) {
    sk->pose[i] = sk->angle[i] = sk->rest[i];
    sk->pose_shape[i] = sk->shape[i] = sk->setup[i];
  }
}

void ik2d_skeleton_reset(ik2d_skeleton *sk) {
  if (sk == NULL) return;
  skeleton_to_setup(sk);
  skeleton_moved_all(sk);
}

void ik2d__skeleton_setup_posed(ik2d_skeleton *sk) {
  skeleton_to_setup(sk);
  ik2d__skeleton_posed(sk);
}

/* ------------------------------------------------------------------ */
/* reads                                                                */
/* ------------------------------------------------------------------ */

static ik2d_status skeleton_read(const ik2d_skeleton *sk, int i,
                                 const double *array_of_skeleton, double *out) {
  if (sk == NULL || out == NULL) return IK2D_ERR_NULL;
  if (!has_bone(sk, i)) return IK2D_ERR_INDEX;
  *out = array_of_skeleton[i];
  return IK2D_OK;
}

ik2d_status ik2d_skeleton_pose(const ik2d_skeleton *sk, int i, double *angle) {
  return skeleton_read(sk, i, sk != NULL ? sk->pose : NULL, angle);
}

ik2d_status ik2d_skeleton_angle(const ik2d_skeleton *sk, int i, double *angle) {
  return skeleton_read(sk, i, sk != NULL ? sk->angle : NULL, angle);
}

ik2d_status ik2d_skeleton_length(const ik2d_skeleton *sk, int i, double *length) {
  return skeleton_read(sk, i, sk != NULL ? sk->length : NULL, length);
}

ik2d_status ik2d_skeleton_rest(const ik2d_skeleton *sk, int i, double *angle) {
  return skeleton_read(sk, i, sk != NULL ? sk->rest : NULL, angle);
}

ik2d_status ik2d_skeleton_parent(const ik2d_skeleton *sk, int i, int *parent) {
  if (sk == NULL || parent == NULL) return IK2D_ERR_NULL;
  if (!has_bone(sk, i)) return IK2D_ERR_INDEX;
  *parent = sk->parent[i];
  return IK2D_OK;
}

ik2d_status ik2d_skeleton_constraint(const ik2d_skeleton *sk, int i,
                                     const ik2d_constraint **constraint) {
  if (sk == NULL || constraint == NULL) return IK2D_ERR_NULL;
  if (!has_bone(sk, i)) return IK2D_ERR_INDEX;
  *constraint = sk->constraint[i];
  return IK2D_OK;
}

ik2d_status ik2d_skeleton_inherit(const ik2d_skeleton *sk, int i,
                                  ik2d_inherit *inherit) {
  if (sk == NULL || inherit == NULL) return IK2D_ERR_NULL;
  if (!has_bone(sk, i)) return IK2D_ERR_INDEX;
  *inherit = (ik2d_inherit)sk->inherit[i];
  return IK2D_OK;
}

ik2d_status ik2d_skeleton_origin(const ik2d_skeleton *sk, int i, double *x,
                                 double *y) {
  if (sk == NULL || x == NULL || y == NULL) return IK2D_ERR_NULL;
  if (!has_bone(sk, i)) return IK2D_ERR_INDEX;
  *x = sk->origin[2 * i];
  *y = sk->origin[2 * i + 1];
  return IK2D_OK;
}

ik2d_status ik2d_skeleton_at_tip(const ik2d_skeleton *sk, int i, bool *at_tip) {
  if (sk == NULL || at_tip == NULL) return IK2D_ERR_NULL;
  if (!has_bone(sk, i)) return IK2D_ERR_INDEX;
  *at_tip = sk->at_tip[i] != 0;
  return IK2D_OK;
}

ik2d_status ik2d_skeleton_world(const ik2d_skeleton *sk, int i, double *x,
                                double *y, double *angle) {
  const double *t;
  if (sk == NULL || x == NULL || y == NULL || angle == NULL) return IK2D_ERR_NULL;
  if (!has_bone(sk, i)) return IK2D_ERR_INDEX;
  t = &sk->transforms[IK2D_TRANSFORM * i];
  *x = t[0];
  *y = t[1];
  *angle = t[2];
  return IK2D_OK;
}

ik2d_status ik2d_skeleton_tip(const ik2d_skeleton *sk, int i, double *x, double *y) {
  const double *t;
  if (sk == NULL || x == NULL || y == NULL) return IK2D_ERR_NULL;
  if (!has_bone(sk, i)) return IK2D_ERR_INDEX;
  t = &sk->transforms[IK2D_TRANSFORM * i];
  *x = t[3];
  *y = t[4];
  return IK2D_OK;
}

ik2d_status ik2d_skeleton_point(const ik2d_skeleton *sk, int i, double x, double y,
                                double *world_x, double *world_y) {
  if (sk == NULL || world_x == NULL || world_y == NULL) return IK2D_ERR_NULL;
  if (!has_bone(sk, i)) return IK2D_ERR_INDEX;
  ik2d__skeleton_point(sk, i, x, y, world_x, world_y);
  return IK2D_OK;
}

const double *ik2d_skeleton_transforms(const ik2d_skeleton *sk) {
  return sk != NULL ? sk->transforms : NULL;
}

/* ------------------------------------------------------------------ */
/* chains over paths                                                    */
/* ------------------------------------------------------------------ */

ik2d_status ik2d_skeleton_path(const ik2d_skeleton *sk, int from, int to,
                               int *bone_count, int *bad) {
  int b, count = 1;
  if (sk == NULL) return IK2D_ERR_NULL;
  if (!has_bone(sk, from)) {
    if (bad != NULL) *bad = from;
    return IK2D_ERR_INDEX;
  }
  if (!has_bone(sk, to)) {
    if (bad != NULL) *bad = to;
    return IK2D_ERR_INDEX;
  }
  for (b = to; b > from; b = sk->parent[b]) {
    if (sk->inherit[b] != IK2D_INHERIT_ALL) {
      if (bad != NULL) *bad = b;
      return IK2D_ERR_PATH_INHERIT;
    }
    count++;
  }
  if (b != from) {
    if (bad != NULL) *bad = to;
    return IK2D_ERR_PATH;
  }
  if (count > IK2D_MAX_BONES) {
    if (bad != NULL) *bad = to;
    return IK2D_ERR_BONE_COUNT;
  }
  if (bone_count != NULL) *bone_count = count;
  return IK2D_OK;
}

/* The link after the chain's arrays: the header, the bones (ints, padded
** to 8 bytes), phi and shift. */
typedef struct link_layout {
  size_t link, bones, phi, shift, turn, offset, mirrored, size;
} link_layout;

static link_layout link_layout_of(int n) {
  link_layout l;
  size_t doubles = (size_t)n * sizeof(double);
  l.link = round8(ik2d_chain_size(n));
  l.bones = l.link + round8(sizeof(struct ik2d_chain_link));
  l.phi = l.bones + round8((size_t)n * sizeof(int));
  l.shift = l.phi + doubles;
  l.turn = l.shift + doubles;
  l.offset = l.turn + doubles;
  l.mirrored = l.offset + doubles;
  l.size = l.mirrored + (size_t)n * sizeof(ik2d_constraint);
  return l;
}

size_t ik2d_skeleton_chain_size(int bone_count) {
  if (bone_count < 1 || bone_count > IK2D_MAX_BONES) return 0;
  return link_layout_of(bone_count).size;
}

ik2d_status ik2d_skeleton_chain_init(ik2d_chain *chain, size_t size,
                                     ik2d_skeleton *sk, int from, int to, int *bad) {
  ik2d_bone_def bones[IK2D_MAX_BONES];
  ik2d_chain_def def = ik2d_default_chain_def();
  struct ik2d_chain_link *link;
  link_layout l;
  char *memory = (char *)chain;
  ik2d_status status;
  int n = 0, k, b;
  if (chain == NULL || sk == NULL) return IK2D_ERR_NULL;
  if ((uintptr_t)chain % sizeof(double) != 0) return IK2D_ERR_ALIGNMENT;
  status = ik2d_skeleton_path(sk, from, to, &n, bad);
  if (status != IK2D_OK) return status;
  l = link_layout_of(n);
  if (size < l.size) return IK2D_ERR_SIZE;
  /* the link first (its bones and segments), then the chain over it */
  link = (struct ik2d_chain_link *)(void *)(memory + l.link);
  link->bones = (int *)(void *)(memory + l.bones);
  link->phi = (double *)(void *)(memory + l.phi);
  link->shift = (double *)(void *)(memory + l.shift);
  link->turn = (double *)(void *)(memory + l.turn);
  link->offset = (double *)(void *)(memory + l.offset);
  link->mirrored = (ik2d_constraint *)(void *)(memory + l.mirrored);
  link->from = from;
  link->to = to;
  for (k = n - 1, b = to; k >= 0; k--, b = sk->parent[b]) link->bones[k] = b;
  for (k = 0; k < n; k++) {
    double phi, previous = k > 0 ? link->phi[k - 1] : 0.0;
    chain_segment(sk, link, n, k, &bones[k].length, &phi);
    link->phi[k] = phi;
    link->shift[k] = phi - previous;
    bones[k].rest = shifted(sk->rest[link->bones[k]], link->shift[k]);
    bones[k].constraint = sk->constraint[link->bones[k]];
  }
  def.bone_count = n;
  def.bones = bones;
  status = ik2d__chain_init_pivots(chain, size, &def);
  if (status != IK2D_OK) {
    if (bad != NULL) *bad = to;
    return status;
  }
  chain->link = link;
  link->stale = false;
  node_clear(&link->node);
  link->node.chain = chain;
  node_link(sk, &sk->chains, &link->node);
  skeleton_chains_below(sk);
  ik2d__skeleton_chain_pull(chain);
  return IK2D_OK;
}

ik2d_skeleton *ik2d_chain_skeleton(const ik2d_chain *chain, int *from, int *to) {
  const struct ik2d_chain_link *link;
  if (chain == NULL || chain->link == NULL || chain->link->node.skeleton == NULL)
    return NULL;
  link = chain->link;
  if (from != NULL) *from = link->from;
  if (to != NULL) *to = link->to;
  return link->node.skeleton;
}

ik2d_status ik2d_skeleton_chain_bone(const ik2d_chain *chain, int i, int *bone) {
  if (chain == NULL || bone == NULL || chain->link == NULL) return IK2D_ERR_NULL;
  if (i < 0 || i >= chain->count) return IK2D_ERR_INDEX;
  *bone = chain->link->bones[i];
  return IK2D_OK;
}

void ik2d_chain_release(ik2d_chain *chain) {
  ik2d_skeleton *sk;
  int k;
  if (chain == NULL || chain->link == NULL) return;
  sk = chain->link->node.skeleton;
  if (sk == NULL) return;
  /* its solvers go with it: a skeleton never solves a released chain */
  for (k = sk->solver_count - 1; k >= 0; k--)
    if (sk->solvers[k]->chain == chain) skeleton_drop_solver(sk, k);
  node_unlink(&chain->link->node);
  skeleton_chains_below(sk);
}
