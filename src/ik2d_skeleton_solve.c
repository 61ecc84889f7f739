/*
** ik2d_skeleton_solve.c: every solve that knows skeletons: one solver's
** (its target on a bone resolved, its chain solved by the solver layer,
** a skeleton chain's result written back) and a list's, a whole skeleton
** in one call, and effectors that share bones solved together.
**
** Order.  Bones are stored parents first.  The solvers on a skeleton's
** chains form units: each group of solvers with `together` whose chains
** share bones (transitively) is one unit, and each solver with together
** = false is one.  A unit runs after every unit whose bones it hangs
** below (so it sees where they put its base), and a together = false
** solver after the group it shares bones with (it wins there, as every
** anchor's constraint applied in order does); otherwise in the order the
** solvers were made.  A unit of one solver is an ordinary solve of its
** chain, which writes its bones back and moves the bones below.
**
** The coupled solve.  Each effector k (a chain's tip, to reach its target
** t_k) weighs w_k = weight x priority.  The bones of the group whose turn
** moves one effector only are that effector's private part (a tail of
** its chain); the others, the shared bones, move several.  An iteration
**
**   1. turns every bone of the group at once by damped least squares
**      (Levenberg-Marquardt): with the tips' errors e (each weighted by
**      sqrt(w_k)) and their Jacobian J in the bones' turns (column j:
**      perp(tip - o_j)), the step d = J^T (J J^T + lambda I)^-1 e, each
**      bone clamped into its limits; bones held at a limit the error
**      pushes against stay out of it; a step that does not lower sum_k
**      w_k |t_k - tip_k|^2 is retried with more damping, one that does
**      lowers the damping;
**   2. solves each private part alone with its solver's own method and
**      settings (exact two-joint steps, two-bone's closed form...) from
**      where step 1 left its root; that never moves another effector.
**
** An attempt that stalls (3 iterations without lowering the objective by
** a tenth) starts again from the next start, the iterations shared:
**
**   - the warm start (each bone's from the last solve of a solver holding
**     it), then the same with the private parts solved first: the two
**     fall into different local minima of the limits;
**   - then, when the warm start is not the pose, the pose (the cold
**     start, as after forget()).  Warm starts alone could not get out:
**     a rifleman whose spine and back arm the warm start held on their
**     limits kept the back hand 13.4 px off its grip frame after frame,
**     where a solve from the pose reaches both hands;
**   - after a coupled solve that ended unreached (the group has stalled for
**     as many frames as its solvers count), the warm start and then a
**     scattered start instead: every bone of the group at a point of its
**     allowed arc (a free bone: anywhere around its pose) from a fixed
**     sequence seeded by that count, another each stalled frame.  Some
**     reachable pairs of targets are missed from the warm and the cold
**     start alike; random starts reach them more often than not, so a
**     stalled group gets out within a few frames: on random rifle scenes
**     with jumping targets (spec/skeleton_solve_spec.lua) the frames in
**     runs of more than 10 where a reachable pair of hands stayed
**     unreached went from 0.9% (warm starts only) to none.  One warm
**     start, not two, keeps a group whose targets are out of reach at
**     about the cost it had (6.7 iterations a frame where 5 were, on
**     such scenes with targets 1.6 times as far).
**
** A solve that reached costs nothing more: the first start that reaches
** ends it.  It ends when every effector with weight is within its
** tolerance or the iterations (the largest of the group's) run out, and
** keeps the best pose seen.  Measured on the goal case (README,
** "Skeletons": a torso of 2 bones and two 2-bone arms with limits, both
** hands' targets from a random pose, 20 iterations from the rest pose):
** this reaches both hands in 98-99.7% of cases; turning the shared bones
** one at a time by weighted least squares (the turn R maximising sum_k
** w_k (g_k - o) . R (p_k - o), atan2 of the weighted cross and dot
** products) with the same private solves reaches 74-87%.  That turn is
** kept for groups too big for the dense step (more than 16 effectors or
** 64 bones).
**
** Each bone then blends with its pose by the largest weight of the
** solvers whose chains hold it (a chain's bone blends by its solver's
** weight), and each solver keeps the coupled solution of its bones as its
** warm start and reports its own reached, distance and iterations, and
** limited when a joint of its chain ends on a limit.
*/
#include <math.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "ik2d.h"
#include "ik2d_batch.h"
#include "ik2d_bone_ik.h"
#include "ik2d_chain.h"
#include "ik2d_constraint.h"
#include "ik2d_math.h"
#include "ik2d_numbers.h"
#include "ik2d_skeleton.h"
#include "ik2d_solver.h"

#define MAX_SOLVERS IK2D_MAX_SKELETON_SOLVERS
#define MAX_BONES IK2D_MAX_SKELETON_BONES

/* ------------------------------------------------------------------ */
/* one solver, and lists of them                                        */
/* ------------------------------------------------------------------ */

/* A solver's target in world space: on a bone, the bone's point where the
** bone is now; else its point target. */
static inline void solver_target(const ik2d_solver *solver, double *x, double *y) {
  if (ik2d__solver_on_bone(solver)) {
    ik2d__skeleton_point(solver->target_skeleton, solver->target_bone, solver->target_x,
                         solver->target_y, x, y);
  } else {
    ik2d__solver_point_target(solver, x, y);
  }
}

/* The outcome measured where the solver's target is now. */
static bool solver_measure(ik2d_solver *solver) {
  double x, y;
  solver_target(solver, &x, &y);
  return ik2d__solver_measure(solver, x, y);
}

/* After a chain's solve: a skeleton chain's result written back (its
** bones, the bones below, the other chains), the outcome measured.
** Within a skeleton's solve (deferring) it is only written back: that
** solve measures every solver at its end.  Returns reached (false when
** deferring). */
static bool solver_written_back(ik2d_solver *solver) {
  ik2d_chain *chain = solver->chain;
  ik2d_skeleton *sk = chain->link != NULL ? chain->link->node.skeleton : NULL;
  if (sk != NULL && sk->deferring) {
    ik2d__skeleton_chain_push(chain, true);
    return false;
  }
  /* (measured before the push, which may move the chain's angles by an
  ** ulp, where an aim's distance reads them) */
  solver_measure(solver);
  if (sk == NULL) return solver->result.reached;
  ik2d__skeleton_chain_push(chain, true);
  /* a target on a bone of its own skeleton may have moved with it, and a
  ** general skeleton places the bones by its model, not by the chain's
  ** joints: the result describes where the tip (and that bone) ended */
  if (solver->target_skeleton == sk || sk->general) solver_measure(solver);
  return solver->result.reached;
}

/* The skeleton of a solver's chain, NULL for a standalone chain. */
static ik2d_skeleton *skeleton_of(const ik2d_solver *solver) {
  const ik2d_chain *chain = solver->chain;
  return chain->link != NULL ? chain->link->node.skeleton : NULL;
}

/* A skeleton chain's solver that scales its bones (stretch or compress)
** needs the general bone model. */
static bool scales_bones(const ik2d_solver *solver) {
  return solver->settings.two_bone.stretch > 1.0 || solver->settings.two_bone.compress < 1.0;
}

/* Does a bone IK solve a general skeleton's solver, as Spine's IK
** constraint does?  A chain of one bone, or of two with two_bone, with no
** pole, tip angle, aim or limits (the chain solve takes those). */
static bool bone_ik_takes(const ik2d_solver *solver) {
  const ik2d_chain *chain = solver->chain;
  const ik2d_solver_def *d = &solver->settings;
  int k;
  if (chain->count > 2 || d->pole.enabled || d->tip.enabled || d->aim.enabled) return false;
  if (chain->count == 2 && d->method != IK2D_TWO_BONE) return false;
  for (k = 0; k < chain->count; k++)
    if (chain->constraint[k] != NULL && !chain->constraint[k]->full) return false;
  return true;
}

/* A solver's settings as a bone IK takes them. */
static ik2d_bone_ik_def bone_ik_def_of(const ik2d_solver *solver) {
  const ik2d_solver_def *d = &solver->settings;
  ik2d_bone_ik_def def;
  def.mix = d->weight;
  def.softness = d->two_bone.softness;
  def.curve = d->two_bone.softness_curve;
  def.bend = d->two_bone.bend;
  def.stretch = d->two_bone.stretch;
  def.compress = d->two_bone.compress;
  def.uniform = d->two_bone.uniform;
  return def;
}

static bool local_finite(const ik2d_bone_local *l) {
  return isfinite(l->x) && isfinite(l->y) && isfinite(l->angle) && isfinite(l->scale_x) &&
         isfinite(l->scale_y) && isfinite(l->shear_x) && isfinite(l->shear_y);
}

/* A bone IK on the solver's bones, toward its target in the skeleton's
** space; the bones below follow, and the chains ending there.  A target
** beyond the doubles in the skeleton's space (a base near them,
** mirrored), or a solution that is not finite, leaves the bones as they
** were. */
static void bone_ik_solve(ik2d_solver *solver, ik2d_skeleton *sk, double x, double y) {
  const struct ik2d_chain_link *link = solver->chain->link;
  ik2d_bone_ik_def def = bone_ik_def_of(solver);
  int first = link->bones[0], second = -1;
  ik2d_bone_local a, b;
  if (sk->parent[first] >= 0) ik2d__skeleton_bone_ready(sk, sk->parent[first]);
  a = ik2d__skeleton_local(sk, first);
  ik2d__skeleton_unplace(sk, x, y, &x, &y);
  if (!isfinite(x) || !isfinite(y)) return;
  if (solver->chain->count == 1) {
    ik2d_bone_ik_one(ik2d__skeleton_parent_world(sk, first), (ik2d_inherit)sk->inherit[first],
                     sk->scale_x, sk->scale_y, &a, sk->length[first], x, y, &def);
  } else {
    b = ik2d__skeleton_local(sk, link->bones[1]);
    if (ik2d_bone_ik_two(ik2d__skeleton_parent_world(sk, first), (ik2d_inherit)sk->inherit[first],
                         (ik2d_inherit)sk->inherit[link->bones[1]], sk->scale_x, sk->scale_y, &a,
                         &b, sk->length[first], sk->length[link->bones[1]], x, y, &def))
      second = link->bones[1];
  }
  if (!local_finite(&a) || (second >= 0 && !local_finite(&b))) return;
  if (second >= 0) ik2d__skeleton_set_local(sk, second, &b);
  ik2d__skeleton_set_local(sk, first, &a);
  ik2d__skeleton_moved(sk, first);
}

/* Does every bone of the solver's chain map its space conformally (a
** rotation and a uniform scale, maybe a reflection)?  Then a chain turn is
** the bone's turn as drawn; a non-uniform scale or a shear bends it. */
static bool chain_conformal(const ik2d_solver *solver, const ik2d_skeleton *sk) {
  const struct ik2d_chain_link *link = solver->chain->link;
  int k;
  for (k = 0; k < solver->chain->count; k++) {
    const ik2d_affine *w = &sk->world[link->bones[k]];
    double x2 = w->a * w->a + w->c * w->c, y2 = w->b * w->b + w->d * w->d;
    double tolerance = IK2D_CONFORMAL_TOLERANCE * (x2 + y2);
    if (fabs(w->a * w->b + w->c * w->d) > tolerance || fabs(x2 - y2) > tolerance) return false;
  }
  return true;
}

/* Can a solver's chain be solved bone by bone in each bone's parent's
** space?  Every bone inheriting all (its angle turns it, and what hangs
** below, in its parent's space), free of limits, not scaled by the solve,
** and no pole, tip angle or aim (the chain's solve takes those). */
static bool bone_ccd_takes(const ik2d_solver *solver, const ik2d_skeleton *sk) {
  const ik2d_solver_def *d = &solver->settings;
  const struct ik2d_chain_link *link = solver->chain->link;
  int k;
  if (d->pole.enabled || d->tip.enabled || d->aim.enabled || scales_bones(solver)) return false;
  for (k = 0; k < solver->chain->count; k++) {
    int b = link->bones[k];
    if (sk->inherit[b] != IK2D_INHERIT_ALL) return false;
    if (sk->constraint[b] != NULL && !sk->constraint[b]->full) return false;
  }
  return true;
}

/* The turn of bone b that puts the chain's tip (tx, ty) on the ray from
** b's origin to (gx, gy), all in the skeleton's space.  A turn of b's
** angle by d turns the tip about b's origin by d in b's parent's space,
** the pre-image under its parent's linear map P (the skeleton's scale for
** a root): d is the angle between P^-1 (t - o) and P^-1 (g - o).  The
** adjugate of P stands for its inverse: both vectors scale by det P, which
** leaves their angle as it is. */
static double bone_ccd_turn(const ik2d_skeleton *sk, int b, double tx, double ty, double gx,
                            double gy) {
  const ik2d_affine *p = ik2d__skeleton_parent_world(sk, b), *w = &sk->world[b];
  double pa = sk->scale_x, pb = 0.0, pc = 0.0, pd = sk->scale_y, ux, uy, vx, vy;
  if (p != NULL) {
    pa = p->a;
    pb = p->b;
    pc = p->c;
    pd = p->d;
  }
  ux = pd * (tx - w->x) - pb * (ty - w->y);
  uy = pa * (ty - w->y) - pc * (tx - w->x);
  vx = pd * (gx - w->x) - pb * (gy - w->y);
  vy = pa * (gy - w->y) - pc * (gx - w->x);
  return ik2d_atan2(ux * vy - uy * vx, ux * vx + uy * vy);
}

/* The chain's tip in the skeleton's space: its last bone's length along
** its x axis. */
static void bone_ccd_tip(const ik2d_skeleton *sk, int last, double *x, double *y) {
  const ik2d_affine *w = &sk->world[last];
  *x = w->x + sk->length[last] * w->a;
  *y = w->y + sk->length[last] * w->c;
}

/* CCD on the bone model: sweeps from the tip's bone to the first, each
** bone turned in its parent's space to put the tip on the target's ray
** (exact wherever the maps are not conformal, where a chain's turns are
** not); at most the solver's iterations, until within its tolerance; the
** weight blends from where the bones were. */
static void bone_ccd_solve(ik2d_solver *solver, ik2d_skeleton *sk, double x, double y) {
  const struct ik2d_chain_link *link = solver->chain->link;
  const ik2d_solver_def *d = &solver->settings;
  double start[IK2D_MAX_BONES], tx, ty, dx, dy;
  int n = solver->chain->count, k, sweep;
  ik2d__skeleton_unplace(sk, x, y, &x, &y);
  if (!isfinite(x) || !isfinite(y)) return;
  for (k = 0; k < n; k++) start[k] = sk->angle[link->bones[k]];
  for (sweep = 0; sweep < d->iterations; sweep++) {
    bone_ccd_tip(sk, link->to, &tx, &ty);
    dx = x - tx;
    dy = y - ty;
    if (!(ik2d_hypot(dx, dy) > d->tolerance)) break;
    for (k = n - 1; k >= 0; k--) {
      int b = link->bones[k];
      double turn = bone_ccd_turn(sk, b, tx, ty, x, y);
      if (!isfinite(turn)) continue;
      sk->angle[b] = ik2d_wrap(sk->angle[b] + turn);
      ik2d__skeleton_place_below(sk, b);
      bone_ccd_tip(sk, link->to, &tx, &ty);
    }
  }
  solver->result.iterations = sweep;
  solver->result.limited = false;
  if (d->weight != 1.0)
    for (k = 0; k < n; k++) {
      int b = link->bones[k];
      sk->angle[b] = start[k] + d->weight * ik2d_wrap(sk->angle[b] - start[k]);
    }
  ik2d__skeleton_moved(sk, link->bones[0]);
}

/* A chain on bones that do not map conformally, solved as drawn, leaves
** its bones short of where its turns said: the chain is taken again from
** where they ended and solved again, while that brings the tip nearer (at
** full weight: a blend would compound). */
static void solve_again(ik2d_solver *solver, ik2d_skeleton *sk) {
  int pass;
  if (solver->settings.weight != 1.0 || chain_conformal(solver, sk)) return;
  for (pass = 1; pass < IK2D_GENERAL_PASSES && !solver->result.reached; pass++) {
    double before = solver->result.distance, x, y;
    solver_target(solver, &x, &y);
    ik2d__solver_solve_chain(solver, x, y);
    solver_written_back(solver);
    if (!(solver->result.distance < before)) return;
  }
}

bool ik2d_solver_solve(ik2d_solver *solver) {
  ik2d_skeleton *sk;
  double x, y;
  if (solver == NULL || solver->chain == NULL) return false;
  sk = skeleton_of(solver);
  if (sk != NULL && !sk->general && scales_bones(solver)) ik2d__skeleton_make_general(sk);
  solver_target(solver, &x, &y);
  if (sk != NULL && sk->general && bone_ik_takes(solver)) {
    /* (the weight 0 leaves the bones as they are, as a chain's solve does) */
    if (solver->settings.weight > 0.0) bone_ik_solve(solver, sk, x, y);
    if (sk->deferring) return false;
    return solver_measure(solver);
  }
  if (sk != NULL && sk->general && bone_ccd_takes(solver, sk)) {
    ik2d__skeleton_bone_ready(sk, solver->chain->link->to);
    if (!chain_conformal(solver, sk)) {
      bone_ccd_solve(solver, sk, x, y);
      if (sk->deferring) return false;
      return solver_measure(solver);
    }
  }
  ik2d__solver_solve_chain(solver, x, y);
  if (solver_written_back(solver)) return true;
  if (sk == NULL || !sk->general || sk->deferring) return false;
  solve_again(solver, sk);
  return solver->result.reached;
}

void ik2d_solver_target(const ik2d_solver *solver, double *x, double *y) {
  double tx = 0.0, ty = 0.0;
  if (solver != NULL) solver_target(solver, &tx, &ty);
  if (x != NULL) *x = tx;
  if (y != NULL) *y = ty;
}

int ik2d_solvers_solve_isa(ik2d_solver *const *solvers, int count, ik2d_isa isa) {
  ik2d_batch b;
  int i, reached = 0;
  if (solvers == NULL) return 0;
  ik2d_batch_begin(&b, isa, count, true);
  for (i = 0; i < count; i++) {
    ik2d_solver *solver = solvers[i];
    if (solver == NULL || solver->chain == NULL) continue;
    if (!ik2d_batch_list(&b, solver)) reached += ik2d_solver_solve(solver);
  }
  return reached + ik2d_batch_end(&b);
}

int ik2d_solvers_solve(ik2d_solver *const *solvers, int count) {
  return ik2d_solvers_solve_isa(solvers, count, IK2D_ISA_AUTO);
}

/* ------------------------------------------------------------------ */
/* paths                                                                */
/* ------------------------------------------------------------------ */

/* Is bone x on the path of a chain from..to? */
static bool on_path(const ik2d_skeleton *sk, int from, int to, int x) {
  int y = to;
  if (x < from || x > to) return false;
  while (y > x) y = sk->parent[y];
  return y == x;
}

static bool shares(const ik2d_skeleton *sk, const struct ik2d_chain_link *a,
                   const struct ik2d_chain_link *b) {
  return on_path(sk, a->from, a->to, b->from) || on_path(sk, b->from, b->to, a->from);
}

/* The deepest common ancestor-or-self of x and y, -1 for none. */
static int common_ancestor(const ik2d_skeleton *sk, int x, int y) {
  while (x != y && x >= 0 && y >= 0) {
    if (x > y) x = sk->parent[x];
    else y = sk->parent[y];
  }
  return x == y ? x : -1;
}

/* Does chain b hang below a bone of chain a (sharing none)? */
static bool below(const ik2d_skeleton *sk, const struct ik2d_chain_link *a,
                  const struct ik2d_chain_link *b) {
  int p = sk->parent[b->from];
  if (p < 0 || shares(sk, a, b)) return false;
  return common_ancestor(sk, p, a->to) >= a->from;
}

/* Does the solve of mover's chain move the bone target's target is on
** (a bone of this skeleton at or below the chain's first bone)? */
static bool moves_target(const ik2d_skeleton *sk, const ik2d_solver *mover,
                         const ik2d_solver *target) {
  int from = mover->chain->link->from, b;
  if (target->target_skeleton != sk) return false;
  /* parents come first: up from the bone until at or above from */
  for (b = target->target_bone; b > from; b = sk->parent[b]) continue;
  return b == from;
}

/* ------------------------------------------------------------------ */
/* the plan: units in order                                             */
/* ------------------------------------------------------------------ */

typedef struct plan {
  int solvers;                       /* on the skeleton, in the order made */
  ik2d_solver *solver[MAX_SOLVERS];
  int unit_of[MAX_SOLVERS];          /* union-find, then the unit's index */
  int units;
  int unit_first[MAX_SOLVERS];       /* the unit's first solver */
  bool unit_group[MAX_SOLVERS];      /* solvers with together */
  int order[MAX_SOLVERS];            /* units in solving order */
  unsigned char before[MAX_SOLVERS][MAX_SOLVERS / 8];  /* before[u] has v:
                                        unit u runs before unit v */
} plan;

static const struct ik2d_chain_link *link_of(const plan *p, int i) {
  return p->solver[i]->chain->link;
}

/* Is solver i solved together with those it shares bones with?  An aimed
** one is not: the coupled step moves tips onto targets, and an aim puts a
** point of its ray there, which its own solve does (as together = false). */
static bool together(const plan *p, int i) {
  return p->solver[i]->settings.effector.together && !p->solver[i]->settings.aim.enabled;
}

static int find(plan *p, int i) {
  while (p->unit_of[i] != i) i = p->unit_of[i] = p->unit_of[p->unit_of[i]];
  return i;
}

static void set_before(plan *p, int u, int v) {
  p->before[u][v >> 3] = (unsigned char)(p->before[u][v >> 3] | (1u << (v & 7)));
}

static bool is_before(const plan *p, int u, int v) {
  return (p->before[u][v >> 3] >> (v & 7)) & 1u;
}

/* Must solver i's unit u run before solver j's unit v (u != v)? */
static bool precedes(const ik2d_skeleton *sk, const plan *p, int i, int j) {
  const struct ik2d_chain_link *a = link_of(p, i), *b = link_of(p, j);
  int u = p->unit_of[i], v = p->unit_of[j];
  /* j's target is where i's solve puts it */
  if (moves_target(sk, p->solver[i], p->solver[j])) return true;
  if (below(sk, a, b)) return true;
  if (!shares(sk, a, b)) return false;
  /* sharing across units: a together = false solver wins, after the
  ** group; two of them in the order made */
  if (p->unit_group[u] != p->unit_group[v]) return p->unit_group[u];
  return i < j;
}

/* Does unit u run before unit v, through other units maybe? */
static bool plan_reaches(const plan *p, int u, int v) {
  bool seen[MAX_SOLVERS];
  int stack[MAX_SOLVERS], top = 0, x, y;
  memset(seen, 0, (size_t)p->units * sizeof *seen);
  seen[u] = true;
  stack[top++] = u;
  while (top > 0) {
    x = stack[--top];
    if (x == v) return true;
    for (y = 0; y < p->units; y++) {
      if (!seen[y] && is_before(p, x, y)) {
        seen[y] = true;
        stack[top++] = y;
      }
    }
  }
  return false;
}

/* A cycle through a target: the first solver j (in the order made; only
** it when only is not NULL) whose target is on a bone that the first
** solver i of another unit moves, while j's unit must run before i's.
** Their indices into *a and *b. */
static bool plan_cycle(const ik2d_skeleton *sk, const plan *p, const ik2d_solver *only,
                       int *a, int *b) {
  int i, j;
  for (j = 0; j < p->solvers; j++) {
    if (p->solver[j]->target_skeleton != sk || (only != NULL && p->solver[j] != only))
      continue;
    for (i = 0; i < p->solvers; i++) {
      if (p->unit_of[i] != p->unit_of[j] && moves_target(sk, p->solver[i], p->solver[j]) &&
          plan_reaches(p, p->unit_of[j], p->unit_of[i])) {
        *a = j;
        *b = i;
        return true;
      }
    }
  }
  return false;
}

/* The units and which runs before which. */
static void plan_units(const ik2d_skeleton *sk, plan *p) {
  int root[MAX_SOLVERS], number[MAX_SOLVERS];
  int i, j, n;
  for (n = 0; n < sk->solver_count; n++) p->solver[n] = sk->solvers[n];
  p->solvers = n;
  /* groups: together solvers sharing bones */
  for (i = 0; i < n; i++) p->unit_of[i] = i;
  for (i = 0; i < n; i++) {
    if (!together(p, i)) continue;
    for (j = 0; j < i; j++) {
      if (together(p, j) && shares(sk, link_of(p, i), link_of(p, j))) {
        /* the root is the group's earliest solver */
        int a = find(p, i), b = find(p, j);
        p->unit_of[a > b ? a : b] = a < b ? a : b;
      }
    }
  }
  /* units numbered in the order of their first solver; unit_of becomes
  ** that number (a root comes first in its group: it is the earliest) */
  for (i = 0; i < n; i++) root[i] = find(p, i);
  p->units = 0;
  for (i = 0; i < n; i++) {
    if (root[i] == i) {
      p->unit_first[p->units] = i;
      p->unit_group[p->units] = together(p, i);
      number[i] = p->units++;
    }
    p->unit_of[i] = number[root[i]];
  }
  for (i = 0; i < p->units; i++) memset(p->before[i], 0, (size_t)(p->units + 7) / 8);
  for (i = 0; i < n; i++)
    for (j = 0; j < n; j++)
      if (p->unit_of[i] != p->unit_of[j] && precedes(sk, p, i, j))
        set_before(p, p->unit_of[i], p->unit_of[j]);
}

/* The plan; false, for a cycle through a target (plan_cycle), when there
** is none. */
static bool plan_make(const ik2d_skeleton *sk, plan *p) {
  bool done[MAX_SOLVERS], broken = false;
  int i, j, k, a, b;
  plan_units(sk, p);
  /* Kahn: the first unit (in the order made) whose predecessors have all
  ** run; a cycle (a group both above and sharing with a together = false
  ** solver) is broken at its first unit, unless it runs through a target
  ** (refused: every unit on a cycle is still there when the first is
  ** met) */
  for (i = 0; i < p->units; i++) done[i] = false;
  for (k = 0; k < p->units; k++) {
    int pick = -1;
    for (i = 0; i < p->units && pick < 0; i++) {
      bool ready = !done[i];
      for (j = 0; j < p->units && ready; j++)
        ready = done[j] || j == i || !is_before(p, j, i);
      if (ready) pick = i;
    }
    if (pick < 0 && !broken) {
      if (plan_cycle(sk, p, NULL, &a, &b)) return false;
      broken = true;
    }
    for (i = 0; i < p->units && pick < 0; i++)
      if (!done[i]) pick = i;
    done[pick] = true;
    p->order[k] = pick;
  }
  return true;
}

/* ------------------------------------------------------------------ */
/* the coupled solve                                                    */
/* ------------------------------------------------------------------ */

typedef struct effector {
  ik2d_solver *solver;
  ik2d_chain *chain;
  const struct ik2d_chain_link *link;
  double target_x, target_y;   /* unflipped, the skeleton's space */
  int target_bone;             /* -1; or the target moves with the group:
                                  the point (dx, dy) of this bone's
                                  working frame */
  double dx, dy;
  double weight;               /* the solver's, for the blend */
  double pull;                 /* weight x priority, for the coupled turns */
  double tolerance;
  int private_first;           /* chain index of its private part */
  double ring_low, ring_high;  /* what the private part reaches */
  double distance_sq;          /* of its tip in the working pose */
} effector;

typedef struct coupled {
  ik2d_skeleton *sk;
  int count;                   /* effectors */
  effector effector[MAX_SOLVERS];
  int first;                   /* the lowest bone of the group */
  unsigned char in[MAX_BONES]; /* bone in the group: 1 + whether shared */
  unsigned char carried[MAX_BONES]; /* not in the group, between a group
                                  bone and a moving target's bone: its
                                  working frame is kept too (its local
                                  rotation, its result, in rot) */
  int moving;                  /* effectors whose targets move */
  int moves[MAX_BONES];        /* effectors a bone moves, tip or target */
  double blend[MAX_BONES];     /* its largest weight */
  ik2d_rot rot[MAX_BONES];     /* the working pose: local rotations */
  ik2d_rot best[MAX_BONES];
  ik2d_rot trial[MAX_BONES];
  ik2d_rot start[MAX_BONES];
  ik2d_rot cold[MAX_BONES];    /* the start as after forget(): the pose */
  bool warm;                   /* the start is not the cold one */
  int stalls;                  /* coupled solves in a row that ended unreached */
  ik2d_frame frame[MAX_BONES]; /* its frames, no trig */
} coupled;

/* Working frames of the group's bones, from their rotations; the bones
** above the group keep the skeleton's frames. */
static void coupled_forward(coupled *w) {
  const ik2d_skeleton *sk = w->sk;
  int b, k;
  for (b = w->first; b < sk->count; b++) {
    int p = sk->parent[b];
    ik2d_frame *pf = p < 0                          ? NULL
                     : (w->in[p] | w->carried[p]) ? &w->frame[p]
                                                    : &sk->frame[p];
    ik2d_frame *f = &w->frame[b];
    ik2d_rot parent_rot;
    double px, py;
    if (!(w->in[b] | w->carried[b])) continue;
    parent_rot = pf != NULL ? ik2d_frame_rot(pf) : sk->base_rot;
    px = pf != NULL ? pf->x : sk->base_x;
    py = pf != NULL ? pf->y : sk->base_y;
    if (sk->at_tip[b]) {
      f->x = pf != NULL ? pf->tip_x : px;
      f->y = pf != NULL ? pf->tip_y : py;
    } else {
      double ox = sk->origin[2 * b], oy = sk->origin[2 * b + 1];
      f->x = px + (parent_rot.c * ox - parent_rot.s * oy);
      f->y = py + (parent_rot.s * ox + parent_rot.c * oy);
    }
    f->rot = ik2d_rot_mul(sk->inherit[b] == IK2D_INHERIT_ALL ? parent_rot : sk->base_rot,
                          w->rot[b]);
    f->tip_x = f->x + sk->length[b] * f->rot.c;
    f->tip_y = f->y + sk->length[b] * f->rot.s;
  }
  /* the targets that move with the group, where it puts them */
  for (k = 0; k < w->count && w->moving > 0; k++) {
    effector *e = &w->effector[k];
    if (e->target_bone >= 0)
      ik2d_frame_point(&w->frame[e->target_bone], e->dx, e->dy, &e->target_x, &e->target_y);
  }
}

static double effector_distance_sq(const coupled *w, const effector *e) {
  const ik2d_frame *f = &w->frame[e->link->to];
  double dx = e->target_x - f->tip_x, dy = e->target_y - f->tip_y;
  return dx * dx + dy * dy;
}

/* The weighted objective; and whether every effector with weight is
** within its tolerance. */
static double coupled_measure(coupled *w, bool *reached) {
  double sum = 0.0;
  int k;
  *reached = true;
  for (k = 0; k < w->count; k++) {
    effector *e = &w->effector[k];
    e->distance_sq = effector_distance_sq(w, e);
    if (e->weight > 0.0) {
      sum += e->pull * e->distance_sq;
      *reached = *reached && e->distance_sq <= e->tolerance * e->tolerance;
    }
  }
  return sum;
}

/* Rotation *r of bone b turned into its limits (in the skeleton's
** angles). */
static void coupled_clamp_rot(const coupled *w, int b, ik2d_rot *r) {
  const ik2d_constraint *limit = w->sk->constraint[b];
  if (limit != NULL && !limit->full)
    ik2d__constraint_clamp_rot(limit, ik2d_rot_mul(w->sk->rest_rot[b], limit->mid_rot), r);
}

/* Bone b of the working pose turned into its limits. */
static void coupled_clamp(coupled *w, int b) {
  coupled_clamp_rot(w, b, &w->rot[b]);
}

/* Whether bone b of the working pose ends on an edge of its limits; *side
** is its angle from the middle of the allowed arc. */
static bool coupled_on_limit(const coupled *w, int b, double *side) {
  const ik2d_constraint *limit = w->sk->constraint[b];
  ik2d_rot rel;
  if (limit == NULL || limit->full) return false;
  rel = ik2d_rot_inv_mul(ik2d_rot_mul(w->sk->rest_rot[b], limit->mid_rot), w->rot[b]);
  *side = ik2d_atan2(rel.s, rel.c);
  return fabs(*side) >= limit->half - IK2D_ON_LIMIT;
}

/* For groups too big for the dense step: effector e's pull on the shared
** bone at (ox, oy), weighted, into sums: its private part's root r (its
** tip when it has none) to r + (t - tip), where the tail as its own
** solve left it would put the tip on the target. */
static void coupled_pull(const coupled *w, const effector *e, double ox, double oy,
                         double *dot, double *cross) {
  const ik2d_frame *tip = &w->frame[e->link->to];
  const ik2d_frame *root = e->private_first < e->chain->count
                               ? &w->frame[e->link->bones[e->private_first]] : NULL;
  double px = root != NULL ? root->x : tip->tip_x, py = root != NULL ? root->y : tip->tip_y;
  double gx = px + (e->target_x - tip->tip_x), gy = py + (e->target_y - tip->tip_y);
  double ax = gx - ox, ay = gy - oy, cx = px - ox, cy = py - oy;
  *dot += e->pull * (cx * ax + cy * ay);
  *cross += e->pull * (cx * ay - cy * ax);
}

/* Each shared bone, root to tip, turned by weighted least squares. */
static void coupled_sweep(coupled *w) {
  const ik2d_skeleton *sk = w->sk;
  int b, k;
  for (b = w->first; b < sk->count; b++) {
    double dot = 0.0, cross = 0.0, norm;
    const ik2d_frame *f = &w->frame[b];
    if (w->in[b] != 2) continue;
    for (k = 0; k < w->count; k++) {
      const effector *e = &w->effector[k];
      if (e->pull > 0.0 && common_ancestor(sk, b, e->link->to) == b)
        coupled_pull(w, e, f->x, f->y, &dot, &cross);
    }
    norm = sqrt(dot * dot + cross * cross);
    if (!(norm > IK2D_TURN_NORM_MIN && norm < IK2D_TURN_NORM_MAX)) norm = ik2d_hypot(dot, cross);
    if (!(norm > 0.0) || !isfinite(norm)) continue;
    w->rot[b] = ik2d_rot_mul(w->rot[b], ik2d_rot_of(dot / norm, cross / norm));
    coupled_clamp(w, b);
    coupled_forward(w);
    for (k = 0; k < w->count; k++)
      w->effector[k].distance_sq = effector_distance_sq(w, &w->effector[k]);
  }
}

static void coupled_save(coupled *w, ik2d_rot *to) {
  int b;
  for (b = w->first; b < w->sk->count; b++)
    if (w->in[b]) to[b] = w->rot[b];
}

static void coupled_load(coupled *w, const ik2d_rot *from) {
  int b;
  for (b = w->first; b < w->sk->count; b++)
    if (w->in[b]) w->rot[b] = from[b];
  coupled_forward(w);
}

/* The start of a group that has stalled for w->stalls > 0 frames: every
** bone of the group at a point of its allowed arc (a free bone: of the
** circle around its pose) drawn from a fixed sequence seeded by the
** count (seed), so that each stalled frame tries another basin. */
static void coupled_scatter(coupled *w, int seed) {
  const ik2d_skeleton *sk = w->sk;
  uint64_t state = ((uint64_t)seed % (IK2D_SCATTER_MODULUS - 1u) + 1u) * IK2D_SCATTER_SEED %
                   IK2D_SCATTER_MODULUS;
  int b;
  for (b = w->first; b < sk->count; b++) {
    const ik2d_constraint *limit = sk->constraint[b];
    double v;
    if (!w->in[b]) continue;
    state = state * IK2D_SCATTER_STEP % IK2D_SCATTER_MODULUS;
    v = 2.0 * ((double)state / (double)IK2D_SCATTER_MODULUS) - 1.0;   /* in (-1, 1) */
    if (limit != NULL && !limit->full) {
      w->rot[b] = ik2d_rot_mul(ik2d_rot_mul(sk->rest_rot[b], limit->mid_rot),
                               ik2d_rot_angle(v * limit->half));
    } else {
      w->rot[b] = ik2d_rot_angle(sk->pose[b] + IK2D_PI * v);
    }
  }
  coupled_forward(w);
}

/* Solves the m x m symmetric positive definite system a y = b in place
** (Cholesky); false when it is not positive definite. */
static bool dls_cholesky(double a[IK2D_DLS_ROWS][IK2D_DLS_ROWS], double *b, int m) {
  int i, j, k;
  for (j = 0; j < m; j++) {
    double d = a[j][j];
    for (k = 0; k < j; k++) d -= a[j][k] * a[j][k];
    if (!(d > 0.0)) return false;
    a[j][j] = sqrt(d);
    for (i = j + 1; i < m; i++) {
      double v = a[i][j];
      for (k = 0; k < j; k++) v -= a[i][k] * a[j][k];
      a[i][j] = v / a[j][j];
    }
  }
  for (i = 0; i < m; i++) {
    for (k = 0; k < i; k++) b[i] -= a[i][k] * b[k];
    b[i] /= a[i][i];
  }
  for (i = m - 1; i >= 0; i--) {
    for (k = i + 1; k < m; k++) b[i] -= a[k][i] * b[k];
    b[i] /= a[i][i];
  }
  return true;
}

/* The system of a damped least squares step: the Jacobian's columns
** (the group's bones) and rows (a pair per pulling effector), the errors,
** all in units of the group's size. */
typedef struct dls {
  int m, n;                    /* rows, columns */
  double scale;                /* the group's size */
  double jacobian[IK2D_DLS_ROWS][IK2D_DLS_COLUMNS];
  double error[IK2D_DLS_ROWS];
  int column_of[MAX_BONES];    /* a group bone's column */
  int bone_of[IK2D_DLS_COLUMNS];
} dls;

/* The columns, the rows' count and the group's size; false when the group
** is too big for the dense step. */
static bool dls_size(const coupled *w, dls *d) {
  const ik2d_skeleton *sk = w->sk;
  int b, k;
  d->m = d->n = 0;
  d->scale = 0.0;
  for (b = w->first; b < sk->count; b++) {
    if (!w->in[b]) continue;
    if (d->n == IK2D_DLS_COLUMNS) return false;
    d->column_of[b] = d->n;
    d->bone_of[d->n++] = b;
    d->scale += sk->length[b] + fabs(sk->origin[2 * b]) + fabs(sk->origin[2 * b + 1]);
  }
  for (k = 0; k < w->count; k++) d->m += w->effector[k].pull > 0.0 ? 2 : 0;
  return d->m <= IK2D_DLS_ROWS;
}

/* Rows i, i + 1: pulling effector e's error, weighted by root, and its
** tip's derivatives; with a target moving with the group, the target's
** come off them (the error is the target less the tip). */
static void dls_rows_of(const coupled *w, dls *d, const effector *e, int i, double root) {
  const ik2d_skeleton *sk = w->sk;
  const ik2d_frame *tip = &w->frame[e->link->to];
  double qx = tip->tip_x, qy = tip->tip_y;
  int b, j;
  d->error[i] = root * (e->target_x - qx);
  d->error[i + 1] = root * (e->target_y - qy);
  for (j = 0; j < d->n; j++) d->jacobian[i][j] = d->jacobian[i + 1][j] = 0.0;
  for (b = e->link->to; b >= w->first; b = sk->parent[b]) {
    const ik2d_frame *f = &w->frame[b];
    if (!w->in[b]) continue;
    d->jacobian[i][d->column_of[b]] = -root * (qy - f->y);
    d->jacobian[i + 1][d->column_of[b]] = root * (qx - f->x);
    /* below a position-only bone the tip only moves along */
    if (sk->inherit[b] == IK2D_INHERIT_POSITION) {
      qx = f->x;
      qy = f->y;
    }
  }
  if (e->target_bone < 0) return;
  qx = e->target_x;
  qy = e->target_y;
  for (b = e->target_bone; b >= w->first; b = sk->parent[b]) {
    const ik2d_frame *f = &w->frame[b];
    if (!(w->in[b] | w->carried[b])) continue;
    if (w->in[b]) {
      d->jacobian[i][d->column_of[b]] += root * (qy - f->y);
      d->jacobian[i + 1][d->column_of[b]] -= root * (qx - f->x);
    }
    if (sk->inherit[b] == IK2D_INHERIT_POSITION) {
      qx = f->x;
      qy = f->y;
    }
  }
}

/* Every pulling effector's rows; then the bones held at a limit that the
** error pushes against out of the step (their turn would be clamped
** away, and the others would not make up for it). */
static void dls_rows(const coupled *w, dls *d) {
  int i, j, k;
  for (i = 0, k = 0; k < w->count; k++) {
    const effector *e = &w->effector[k];
    if (!(e->pull > 0.0)) continue;
    dls_rows_of(w, d, e, i, sqrt(e->pull) / d->scale);
    i += 2;
  }
  for (j = 0; j < d->n; j++) {
    double gradient = 0.0, side = 0.0;
    if (!coupled_on_limit(w, d->bone_of[j], &side)) continue;
    for (i = 0; i < d->m; i++) gradient += d->jacobian[i][j] * d->error[i];
    if (gradient * side > 0.0)
      for (i = 0; i < d->m; i++) d->jacobian[i][j] = 0.0;
  }
}

/* The step d = J^T (J J^T + lambda I)^-1 e, its largest turn at most
** IK2D_DLS_MAX_TURN, each bone turned by it into its limits; false when
** there is none (the system not positive definite, or the step beyond
** the doubles). */
static bool dls_turn(coupled *w, const dls *d, double lambda) {
  double a[IK2D_DLS_ROWS][IK2D_DLS_ROWS], y[IK2D_DLS_ROWS], step[IK2D_DLS_COLUMNS];
  double largest = 0.0;
  int i, j, k;
  for (i = 0; i < d->m; i++) {
    for (j = 0; j <= i; j++) {
      double v = 0.0;
      for (k = 0; k < d->n; k++) v += d->jacobian[i][k] * d->jacobian[j][k];
      a[i][j] = a[j][i] = v;
    }
    a[i][i] += lambda;
    y[i] = d->error[i];
  }
  if (!dls_cholesky(a, y, d->m)) return false;
  for (j = 0; j < d->n; j++) {
    double v = 0.0;
    for (i = 0; i < d->m; i++) v += d->jacobian[i][j] * y[i];
    step[j] = v;
    if (fabs(v) > largest) largest = fabs(v);
  }
  if (!(largest < 1e300)) return false;
  for (j = 0; j < d->n; j++) {
    double t = largest > IK2D_DLS_MAX_TURN ? step[j] * (IK2D_DLS_MAX_TURN / largest) : step[j];
    int b = d->bone_of[j];
    w->rot[b] = ik2d_rot_mul(w->rot[b], ik2d_rot_angle(t));
    coupled_clamp(w, b);
  }
  return true;
}

/* Damped least squares (Levenberg-Marquardt) over every bone of the
** group at once: the tips' errors e, weighted by sqrt(pull) and measured
** in units of the group's size, and the Jacobian J of the tips in the
** bones' turns (column j, row pair k: perp(q - o_j), o_j the bone's
** origin, q the tip, or the origin of the first position-only bone
** between, below which the tip only moves along).  The step
** d = J^T (J J^T + lambda I)^-1 e is the least-squares turn of every
** bone, damped; a step that does not lower the objective is retried with
** more damping, one that does lowers the damping.  Returns false when the
** group is too big for it (then the shared bones turn one at a time).
** Its sizes, tries, largest turn and first damping: IK2D_DLS_* in
** ik2d_numbers.h. */
static bool coupled_dls(coupled *w, double *lambda, double *objective) {
  dls d;
  int tries;
  if (!dls_size(w, &d)) return false;
  if (!(d.scale > 1e-150 && d.scale < 1e150) || d.m == 0) return true;
  dls_rows(w, &d);
  coupled_save(w, w->trial);
  for (tries = 0; tries < IK2D_DLS_TRIES; tries++) {
    double measured;
    bool reached;
    if (!dls_turn(w, &d, *lambda)) return true;
    coupled_forward(w);
    measured = coupled_measure(w, &reached);
    if (measured < *objective) {
      *objective = measured;
      *lambda = *lambda * 0.3 > 1e-12 ? *lambda * 0.3 : 1e-12;
      return true;
    }
    coupled_load(w, w->trial);
    coupled_measure(w, &reached);
    *lambda *= 8.0;
  }
  return true;
}

/* Room for a solver of IK2D_MAX_BONES bones, as doubles. */
#define SOLVER_DOUBLES \
  ((sizeof(ik2d_solver) + IK2D_MAX_BONES * (sizeof(ik2d_rot) + sizeof(double))) / \
       sizeof(double) + 1)

/* Effector e's private part as a chain of its own: a view over its
** chain's arrays from bone first on (sharing them, with its own pose and
** result in angles, its joints in joints), based where the working pose
** puts the part's root. */
static void private_view(const coupled *w, const effector *e, ik2d_chain *view, double *angles,
                         double *joints) {
  const ik2d_chain *chain = e->chain;
  const struct ik2d_chain_link *link = e->link;
  int first = e->private_first, n = chain->count - first, i;
  const ik2d_frame *root = &w->frame[link->bones[first]];
  ik2d_rot base = w->frame[link->bones[first - 1]].rot;
  /* the chain's direction before its private part: the bone's, turned
  ** by the segment's phi */
  if (link->phi[first - 1] != 0.0)
    base = ik2d_rot_mul(base, ik2d_rot_angle(link->phi[first - 1]));
  *view = *chain;
  view->count = n;
  view->flip = false;
  view->link = NULL;
  view->scale = 1.0;
  view->base_x = root->x;
  view->base_y = root->y;
  view->base_rot = base;
  view->base_angle = ik2d_atan2(base.s, base.c);
  view->length = chain->length + first;
  view->rest = chain->rest + first;
  view->rest_rot = chain->rest_rot + first;
  view->constraint = chain->constraint + first;
  view->pose = view->angle = angles;
  view->joints = joints;
  view->reach = 0.0;
  for (i = 0; i < n; i++) {
    view->reach += view->length[i];
    angles[i] = 0.0;
  }
}

/* The settings its solver solves the view with: its own, warm-started
** (from the working rotations), unblended, unstretched, and CCD where
** two_bone has not two bones of length. */
static ik2d_solver_def private_def(const effector *e, const ik2d_chain *view) {
  ik2d_solver_def def = e->solver->settings;
  def.weight = 1.0;
  def.warm_start = true;
  def.two_bone.stretch = 1.0;
  if (def.method == IK2D_TWO_BONE &&
      (view->count != 2 || !(view->length[0] > 0.0 && view->length[1] > 0.0)))
    def.method = IK2D_CCD;
  return def;
}

/* Effector e's private part solved alone from where its root is, with its
** solver's method and settings on its view, warm-started from the working
** rotations, which take its solution. */
static void coupled_private(coupled *w, effector *e) {
  const struct ik2d_chain_link *link = e->link;
  int first = e->private_first, n = e->chain->count - first, i;
  double angles[IK2D_MAX_BONES], joints[2 * (IK2D_MAX_BONES + 1)];
  double memory[SOLVER_DOUBLES];
  ik2d_solver *solver = (ik2d_solver *)(void *)memory;
  ik2d_solver_def def;
  ik2d_chain view;
  /* (every member of a group has a shared bone: first > 0) */
  if (n <= 0 || first == 0 || !(e->weight > 0.0)) return;
  private_view(w, e, &view, angles, joints);
  def = private_def(e, &view);
  if (ik2d__solver_init_unlinked(solver, sizeof memory, &view, &def) != IK2D_OK) return;
  for (i = 0; i < n; i++) {
    ik2d_rot r = w->rot[link->bones[first + i]];
    double shift = link->shift[first + i];
    solver->solution[i] = shift == 0.0 ? r : ik2d_rot_mul(r, ik2d_rot_angle(shift));
  }
  solver->have_solution = true;
  solver->angles_held = false; /* rotations without their angles */
  ik2d_solver_set_target(solver, e->target_x, e->target_y);
  ik2d_solver_solve(solver);
  for (i = 0; i < n; i++) {
    ik2d_rot r = solver->solution[i];
    double shift = link->shift[first + i];
    w->rot[link->bones[first + i]] = shift == 0.0 ? r : ik2d_rot_inv_mul(ik2d_rot_angle(shift), r);
  }
  coupled_forward(w);
  e->distance_sq = effector_distance_sq(w, e);
}

static void coupled_privates(coupled *w) {
  int k;
  if (w->moving == 0) {
    for (k = 0; k < w->count; k++) coupled_private(w, &w->effector[k]);
    return;
  }
  /* a private part may move another effector's target (the front arm's
  ** tail, the rifle the back hand holds): the effectors whose targets
  ** move go after the others, to where these put them */
  for (k = 0; k < w->count; k++)
    if (w->effector[k].target_bone < 0) coupled_private(w, &w->effector[k]);
  for (k = 0; k < w->count; k++)
    if (w->effector[k].target_bone >= 0) coupled_private(w, &w->effector[k]);
}

static bool coupled_sane(const coupled *w) {
  const ik2d_skeleton *sk = w->sk;
  int b;
  for (b = w->first; b < sk->count; b++) {
    double norm;
    if (!w->in[b]) continue;
    norm = w->rot[b].c * w->rot[b].c + w->rot[b].s * w->rot[b].s;
    if (ik2d_rot_broken(norm)) return false;
  }
  return true;
}

/* Effector e for solver s: its target (unflipped: the skeleton's space),
** weight, pull and tolerance. */
static void effector_init(effector *e, ik2d_solver *s, const ik2d_skeleton *sk) {
  double tx, ty;
  e->solver = s;
  e->chain = s->chain;
  e->link = s->chain->link;
  solver_target(s, &tx, &ty);
  e->target_x = sk->flip ? 2.0 * sk->base_x - tx : tx;
  e->target_y = ty;
  e->weight = s->settings.weight;
  e->pull = s->settings.weight * s->settings.effector.priority;
  e->tolerance = s->settings.tolerance;
}

/* The group's effectors, the solvers of the plan's unit u, and its bones
** (in) down from its lowest; returns the iterations, the largest of its
** solvers'. */
static int coupled_effectors(coupled *w, ik2d_skeleton *sk, const plan *p, int u) {
  int i, k, iterations = 1;
  w->sk = sk;
  w->count = 0;
  w->first = sk->count;
  w->moving = 0;
  memset(w->in, 0, (size_t)sk->count);
  memset(w->carried, 0, (size_t)sk->count);
  for (i = 0; i < p->solvers; i++) {
    ik2d_solver *s = p->solver[i];
    effector *e;
    if (p->unit_of[i] != u) continue;
    e = &w->effector[w->count++];
    effector_init(e, s, sk);
    if (s->settings.iterations > iterations) iterations = s->settings.iterations;
    if (e->link->from < w->first) w->first = e->link->from;
    for (k = 0; k < e->chain->count; k++) w->in[e->link->bones[k]] = 1;
  }
  /* one effector alone pulls by its weight (priority weighs effectors
  ** against each other) */
  if (w->count == 1) w->effector[0].pull = w->effector[0].weight;
  return iterations;
}

/* Targets on bones the group moves move with it (target_bone): the bones
** between such a bone and the group's topmost bone above it are carried,
** their working rotations their results. */
static void coupled_moving_targets(coupled *w) {
  const ik2d_skeleton *sk = w->sk;
  int b, k;
  for (k = 0; k < w->count; k++) {
    effector *e = &w->effector[k];
    const ik2d_solver *s = e->solver;
    int top = -1;
    e->target_bone = -1;
    if (s->target_skeleton != sk) continue;
    for (b = s->target_bone; b >= 0; b = sk->parent[b])
      if (w->in[b]) top = b;
    if (top < 0) continue;
    e->target_bone = s->target_bone;
    e->dx = s->target_x;
    e->dy = s->target_y;
    w->moving++;
    for (b = s->target_bone; b > top; b = sk->parent[b])
      if (!w->in[b]) w->carried[b] = 1;
  }
  for (b = w->first; b < sk->count; b++)
    if (w->carried[b]) w->rot[b] = ik2d_rot_angle(sk->angle[b]);
}

/* The effectors each bone moves, and each bone's blend weight (the
** largest of the effectors whose chains hold it): a bone moving both the
** tip and the target of one effector counts twice (a private part's solve
** holds its target still).  The bones moving several are shared ones. */
static void coupled_shares(coupled *w) {
  const ik2d_skeleton *sk = w->sk;
  int b, i, k;
  for (b = w->first; b < sk->count; b++) {
    w->moves[b] = 0;
    w->blend[b] = 0.0;
  }
  for (k = 0; k < w->count; k++) {
    effector *e = &w->effector[k];
    for (b = e->link->to; b >= w->first; b = sk->parent[b])
      if (w->in[b]) w->moves[b]++;
    for (b = e->target_bone; b >= w->first; b = sk->parent[b])
      if (w->in[b] && common_ancestor(sk, b, e->link->to) == b) w->moves[b]++;
    for (i = 0; i < e->chain->count; i++) {
      b = e->link->bones[i];
      if (e->weight > w->blend[b]) w->blend[b] = e->weight;
    }
  }
  for (b = w->first; b < sk->count; b++)
    if (w->in[b] && w->moves[b] > 1) w->in[b] = 2;
}

/* Each effector's private part: its chain's tail of bones that move it
** alone, and the ring its bones reach: [max(0, 2 longest - sum), sum]. */
static void coupled_private_parts(coupled *w) {
  int i, k;
  for (k = 0; k < w->count; k++) {
    effector *e = &w->effector[k];
    double sum = 0.0, longest = 0.0;
    int first = e->chain->count;
    while (first > 0 && w->in[e->link->bones[first - 1]] == 1) first--;
    e->private_first = first;
    for (i = first; i < e->chain->count; i++) {
      sum += e->chain->length[i];
      if (e->chain->length[i] > longest) longest = e->chain->length[i];
    }
    e->ring_high = sum;
    e->ring_low = 2.0 * longest - sum > 0.0 ? 2.0 * longest - sum : 0.0;
  }
}

/* The start: each bone's warm start from a solver holding it (the first,
** in the order made, that has one), else its pose; and the cold start,
** the pose; both within the limits, w->warm when they differ. */
static void coupled_start(coupled *w) {
  const ik2d_skeleton *sk = w->sk;
  int b, i, k;
  for (b = w->first; b < sk->count; b++)
    if (w->in[b]) w->cold[b] = w->rot[b] = ik2d_rot_angle(sk->pose[b]);
  for (k = w->count - 1; k >= 0; k--) {
    const effector *e = &w->effector[k];
    if (!e->solver->settings.warm_start || !e->solver->have_solution) continue;
    for (i = 0; i < e->chain->count; i++) {
      double angle = ik2d_solution_angle(e->solver)[i] - e->link->shift[i];
      b = e->link->bones[i];
      w->rot[b] = e->link->shift[i] == 0.0 ? e->solver->solution[i] : ik2d_rot_angle(angle);
    }
  }
  w->warm = false;
  for (b = w->first; b < sk->count; b++) {
    bool same;
    if (!w->in[b]) continue;
    same = w->rot[b].c == w->cold[b].c && w->rot[b].s == w->cold[b].s;
    coupled_clamp(w, b);
    if (same) {
      w->cold[b] = w->rot[b];
    } else {
      coupled_clamp_rot(w, b, &w->cold[b]);
      w->warm = true;
    }
  }
}

/* How long the group has stalled: the longest of its solvers' counts (a
** solver that joined it since, or forgot, has 0). */
static int coupled_stalls_of(const coupled *w) {
  int k, stalls = 0;
  for (k = 0; k < w->count; k++)
    if (w->effector[k].solver->coupled_stalls > stalls)
      stalls = w->effector[k].solver->coupled_stalls;
  return stalls;
}

/* The group of the plan's unit u, ready to solve: its effectors, bones
** and start pose with its frames; returns its iterations. */
static int coupled_begin(coupled *w, ik2d_skeleton *sk, const plan *p, int u) {
  int iterations = coupled_effectors(w, sk, p, u);
  coupled_moving_targets(w);
  coupled_shares(w);
  coupled_private_parts(w);
  coupled_start(w);
  coupled_forward(w);
  w->stalls = coupled_stalls_of(w);
  return iterations;
}

/* The working pose into the skeleton's angles: each bone back on unit
** length (the coupled turns are products of unit turns, a few ulps off
** each) and into its limits, as solve_sane does, then blended with its
** pose by its weight, as a chain's solve blends. */
static void coupled_blend(coupled *w) {
  ik2d_skeleton *sk = w->sk;
  int b;
  for (b = w->first; b < sk->count; b++) {
    const ik2d_constraint *limit = sk->constraint[b];
    double ik, pose = sk->pose[b], weight = w->blend[b], delta;
    double c = w->rot[b].c, s = w->rot[b].s, norm = c * c + s * s;
    if (!w->in[b]) continue;
    if (ik2d_rot_drifted(norm)) {
      norm = sqrt(norm);
      w->rot[b] = ik2d_rot_of(c / norm, s / norm);
      coupled_clamp(w, b);
    }
    ik = ik2d_atan2(w->rot[b].s, w->rot[b].c);
    if (limit != NULL && !limit->full) {
      double rest = sk->rest[b];
      delta = ik2d_constraint_clamp(limit, ik - rest) -
              (limit->mid + ik2d_wrap(pose - rest - limit->mid));
    } else {
      delta = ik2d_wrap(ik - pose);
    }
    sk->angle[b] = weight == 1.0 ? pose + delta : pose + weight * delta;
  }
}

/* Effector e's solver keeps the coupled solution of its bones as its warm
** start, and its outcome but the measure. */
static void coupled_keep(const coupled *w, const effector *e, int used, bool stalled) {
  ik2d_solver *s = e->solver;
  bool limited = false;
  int i;
  for (i = 0; i < e->chain->count; i++) {
    double shift = e->link->shift[i], side;
    ik2d_rot r = w->rot[e->link->bones[i]];
    limited = limited || coupled_on_limit(w, e->link->bones[i], &side);
    if (shift != 0.0) r = ik2d_rot_mul(r, ik2d_rot_angle(shift));
    s->solution[i] = r;
    ik2d_solution_angle(s)[i] = ik2d_atan2(r.s, r.c);
  }
  s->have_solution = true;
  IK2D_STAT(s->joint_updates = 0);
  s->result.iterations = used;
  /* limited as a chain's solve says it: a joint of its chain ends on a
  ** limit (weight 0: the pose, no limit changed it) */
  s->result.limited = e->weight > 0.0 && limited;
  s->coupled_stalls = (unsigned short)(!stalled                                 ? 0
                                       : w->stalls < IK2D_COUPLED_STALLS_MAX ? w->stalls + 1
                                                                              : 1);
}

/* The IK solution into the skeleton (its bones and those below them, the
** chains ending there), the solvers' warm starts and outcomes; returns
** how many reached. */
static int coupled_finish(coupled *w, int used, bool stalled) {
  ik2d_skeleton *sk = w->sk;
  ik2d_skeleton_node *node;
  bool mask[MAX_BONES];
  int k, reached = 0;
  coupled_blend(w);
  memset(mask, 0, (size_t)sk->count * sizeof *mask);
  for (k = 0; k < w->count; k++) {
    const effector *e = &w->effector[k];
    if (!mask[e->link->from]) ik2d__skeleton_subtree(sk, e->link->from, mask);
  }
  ik2d__skeleton_forward(sk, w->first, mask);
  for (k = 0; k < w->count; k++) coupled_keep(w, &w->effector[k], used, stalled);
  for (node = sk->chains.next; node != &sk->chains; node = node->next)
    if (mask[node->chain->link->to]) ik2d__skeleton_chain_pull(node->chain);
  for (k = 0; k < w->count; k++) reached += solver_measure(w->effector[k].solver);
  return reached;
}

/* The starts a coupled solve tries, and how many at most. */
enum { START_WARM, START_WARM_PRIVATES, START_COLD, START_SCATTERED };
#define COUPLED_STARTS 8

/* The starts (the iterations shared): the warm start; then, after a
** solve that reached, the warm start with the private parts solved
** first, and the cold start when it is another; after one that did not,
** a scattered start, another each frame the group stays stalled.  Returns
** how many. */
static int coupled_starts(const coupled *w, int start[COUPLED_STARTS]) {
  int attempts = 0;
  start[attempts++] = START_WARM;
  if (w->stalls > 0) {
    start[attempts++] = START_SCATTERED;
  } else if (w->moving > 0) {
    /* a target moving with the group: the warm start, then scattered
    ** starts while the iterations last.  Solutions hug the limits there
    ** (the back arm straight, the torso turned just enough), and the
    ** warm start follows them into dead ends that the other starts
    ** rarely leave within the iterations */
    while (attempts < COUPLED_STARTS) start[attempts++] = START_SCATTERED;
  } else {
    start[attempts++] = START_WARM_PRIVATES;
    if (w->warm) start[attempts++] = START_COLD;
  }
  return attempts;
}

/* The working pose of attempt's start. */
static void coupled_load_start(coupled *w, int start, int attempt) {
  switch (start) {
    case START_WARM_PRIVATES:
      coupled_load(w, w->start);
      coupled_privates(w);
      break;
    case START_COLD: coupled_load(w, w->cold); break;
    /* (the ones in one solve seeded past any count of stalled frames) */
    case START_SCATTERED:
      coupled_scatter(w, w->stalls > 0 ? w->stalls : IK2D_COUPLED_STALLS_MAX + attempt);
      break;
    default: coupled_load(w, w->start); break;
  }
}

/* A coupled solve's progress over its attempts. */
typedef struct coupled_run {
  int iterations;  /* the budget, the largest of the group's */
  int used;        /* so far, every attempt's */
  double best;     /* the lowest objective met; its pose in w->best */
  bool reached;    /* by the working pose */
} coupled_run;

/* One attempt from the working pose: each iteration turns every bone of
** the group at once (coupled_dls; too big for it, coupled_sweep), then solves
** the private parts; until every effector is reached, the iterations run
** out, the pose breaks or the attempt stalls. */
static void coupled_attempt(coupled *w, coupled_run *run) {
  double objective = coupled_measure(w, &run->reached), attempt_best = objective;
  double lambda = IK2D_DLS_LAMBDA;
  int stalled = 0;
  while (!run->reached && run->used < run->iterations) {
    run->used++;
    if (!coupled_dls(w, &lambda, &objective)) coupled_sweep(w);
    coupled_privates(w);
    objective = coupled_measure(w, &run->reached);
    if (!coupled_sane(w)) break;
    if (objective < run->best) {
      run->best = objective;
      coupled_save(w, w->best);
    }
    stalled = objective < 0.9 * attempt_best ? 0 : stalled + 1;
    if (objective < attempt_best) attempt_best = objective;
    if (stalled >= IK2D_COUPLED_STALL) break;
  }
}

/* Whether an effector of the group has weight (else the solve is the
** pose). */
static bool coupled_weighted(const coupled *w) {
  int k;
  for (k = 0; k < w->count; k++)
    if (w->effector[k].weight > 0.0) return true;
  return false;
}

/* Unit u, a group of two solvers or more, solved together: the attempts
** from each start in turn until one reaches; the best pose seen kept. */
static int coupled_solve(ik2d_skeleton *sk, const plan *p, int u, coupled *w) {
  int start[COUPLED_STARTS], attempts, attempt;
  coupled_run run;
  run.iterations = coupled_begin(w, sk, p, u);
  run.used = 0;
  if (!coupled_weighted(w)) return coupled_finish(w, 0, false); /* weight 0: the pose */
  run.best = coupled_measure(w, &run.reached);
  if (run.reached) return coupled_finish(w, 0, false);
  coupled_save(w, w->best);
  coupled_save(w, w->start);
  attempts = coupled_starts(w, start);
  for (attempt = 0; attempt < attempts && !run.reached && run.used < run.iterations; attempt++) {
    coupled_load_start(w, start[attempt], attempt);
    coupled_attempt(w, &run);
  }
  if (!run.reached || !coupled_sane(w)) coupled_load(w, w->best);
  return coupled_finish(w, run.used, !run.reached);
}

/* ------------------------------------------------------------------ */
/* the whole skeleton                                                   */
/* ------------------------------------------------------------------ */

int ik2d_skeleton_solvers(const ik2d_skeleton *sk, ik2d_solver **solvers, int max) {
  int n;
  if (sk == NULL) return 0;
  for (n = 0; n < sk->solver_count && n < max && solvers != NULL; n++) solvers[n] = sk->solvers[n];
  return sk->solver_count;
}

/* What the plan reads of solver i's settings: whether it solves together,
** the bone of this skeleton its target is on, and whether it scales its
** bones (which turns the skeleton general: no plan is kept then). */
static void plan_key_of(const ik2d_skeleton *sk, int i, unsigned char key[2]) {
  const ik2d_solver *s = sk->solvers[i];
  bool on_sk = s->target_skeleton == sk;
  key[0] = (unsigned char)((s->settings.effector.together && !s->settings.aim.enabled) |
                           (on_sk << 1) | (scales_bones(s) << 2));
  key[1] = on_sk ? s->target_bone : 0;
}

/* Does the kept plan still hold? */
static bool plan_holds(const ik2d_skeleton *sk) {
  int i;
  if (!sk->plan_kept) return false;
  for (i = 0; i < sk->solver_count; i++) {
    unsigned char key[2];
    plan_key_of(sk, i, key);
    if (key[0] != sk->plan_key[i][0] || key[1] != sk->plan_key[i][1]) return false;
  }
  return true;
}

/* Keeps plan p in the skeleton when it is small and made of lone solves
** (a coupled unit is planned again each solve: its solve reads the plan),
** of a rigid skeleton with no order (whose solve is the plan's alone: a
** group solves a skeleton with a kept plan a step at a time, by it). */
static void plan_keep(ik2d_skeleton *sk, const plan *p) {
  int k;
  sk->plan_kept = false;
  if (sk->general || sk->step_count > 0 || p->solvers > IK2D_PLAN_KEPT || p->units != p->solvers)
    return;
  for (k = 0; k < p->solvers; k++) {
    const ik2d_solver *s = p->solver[k];
    if (moves_target(sk, s, s) || scales_bones(s)) return;
    plan_key_of(sk, k, sk->plan_key[k]);
    /* one solver a unit: unit u is solver u */
    sk->plan_order[k] = (unsigned char)p->unit_first[p->order[k]];
  }
  sk->plan_kept = true;
}

/* A lone solve within a deferring solve of sk: what it reads placed first,
** its target's bone (not below its chain: that is a coupled solve) and its
** chain, all of it when its target is its tip. */
static void lone_ready(ik2d_skeleton *sk, ik2d_solver *s) {
  if (s->target_skeleton == sk) ik2d__skeleton_bone_ready(sk, s->target_bone);
  ik2d__skeleton_chain_ready(s->chain, s->target_skeleton == NULL && !s->has_target);
}

static void lone_solve(ik2d_skeleton *sk, ik2d_solver *s) {
  lone_ready(sk, s);
  ik2d_solver_solve(s);
}

/* Unit u of plan p: one solver alone, unless its solve moves its own
** target: then the coupled solve, which moves the target with it (on the
** skeleton as without deferring). */
static void unit_solve(ik2d_skeleton *sk, const plan *p, int u, coupled *w) {
  ik2d_solver *first = p->solver[p->unit_first[u]];
  int i, members = 0;
  for (i = 0; i < p->solvers; i++) members += p->unit_of[i] == u;
  if (members == 1 && !moves_target(sk, first, first)) {
    lone_solve(sk, first);
    return;
  }
  ik2d__skeleton_settle(sk);
  coupled_solve(sk, p, u, w);
  ik2d__skeleton_defer(sk);
}

/* The units of plan p in its order. */
static void plan_run(ik2d_skeleton *sk, const plan *p) {
  coupled w;
  int k;
  for (k = 0; k < p->units; k++) unit_solve(sk, p, p->order[k], &w);
}

/* The solvers in the kept plan's order, each alone. */
static void kept_run(ik2d_skeleton *sk) {
  int k;
  for (k = 0; k < sk->solver_count; k++) lone_solve(sk, sk->solvers[sk->plan_order[k]]);
}

/* The end of a deferring solve of sk: the bones placed, every solver
** measured where its tip and target are now (a later unit, a together =
** false solver on its bones, may have moved a tip); how many reached. */
static int solve_end(ik2d_skeleton *sk) {
  int k, reached = 0;
  ik2d__skeleton_settle(sk);
  for (k = 0; k < sk->solver_count; k++) reached += solver_measure(sk->solvers[k]);
  return reached;
}

/* A general skeleton's solve (the bone model): every bone's result back
** to its pose first, as an animation runtime starts each frame from the
** animated pose (a stretch or a transform constraint would otherwise add
** up frame after frame), then its units in the plan's order, each solver
** alone: a joint unit's solvers one after another (the joint solve turns
** rigid bones; on scaled ones the solvers run as constraints in order). */
static int general_solve(ik2d_skeleton *sk) {
  plan p;
  int k, i, reached = 0;
  if (!plan_make(sk, &p)) return -1;
  ik2d__skeleton_to_pose(sk);
  for (k = 0; k < p.units; k++)
    for (i = 0; i < p.solvers; i++)
      if (p.unit_of[i] == p.order[k]) ik2d_solver_solve(p.solver[i]);
  for (k = 0; k < sk->solver_count; k++) reached += solver_measure(sk->solvers[k]);
  return reached;
}

/* Is solver i of sk a step of its order? */
static bool in_order(const ik2d_skeleton *sk, int i) {
  int k;
  for (k = 0; k < sk->step_count; k++)
    if (sk->steps[k] == i) return true;
  return false;
}

/* Has sk's order a transform constraint? */
static bool order_constrains(const ik2d_skeleton *sk) {
  int k;
  for (k = 0; k < sk->step_count; k++)
    if (sk->steps[k] < 0) return true;
  return false;
}

/* A skeleton's solve in the order its rig sets: each step reads what the
** ones before it left (a transform constraint needs the general bone
** model); then the solvers not in it, by the plan, each alone. */
static int ordered_solve(ik2d_skeleton *sk) {
  plan p;
  int k, i, reached = 0;
  if (!plan_make(sk, &p)) return -1;
  if (order_constrains(sk)) ik2d__skeleton_make_general(sk);
  /* to_pose places every bone: what a deferring solve left stale too */
  if (sk->general)
    ik2d__skeleton_to_pose(sk);
  else
    ik2d__skeleton_settle(sk);
  for (k = 0; k < sk->step_count; k++) {
    int v = sk->steps[k];
    if (v >= 0)
      ik2d_solver_solve(sk->solvers[v]);
    else
      ik2d_transform_constraint_apply(sk->constraints[-1 - v]);
  }
  for (k = 0; k < p.units; k++)
    for (i = 0; i < p.solvers; i++)
      if (p.unit_of[i] == p.order[k] && !in_order(sk, i)) ik2d_solver_solve(p.solver[i]);
  for (k = 0; k < sk->solver_count; k++) reached += solver_measure(sk->solvers[k]);
  return reached;
}

/* Does a solver of sk need the general bone model (and sk is rigid)? */
static bool needs_general(const ik2d_skeleton *sk) {
  int k;
  if (sk->general) return false;
  for (k = 0; k < sk->solver_count; k++)
    if (scales_bones(sk->solvers[k])) return true;
  return false;
}

/* The plan (kept, or made and kept when it may be), its units run while
** the skeleton defers its placing, then the end. */
int ik2d_skeleton_solve(ik2d_skeleton *sk) {
  plan p;
  if (sk == NULL) return 0;
  if (needs_general(sk)) {
    /* a cycle through targets refuses the solve before anything changes */
    if (!plan_make(sk, &p)) return -1;
    ik2d__skeleton_make_general(sk);
  }
  if (sk->step_count > 0) return ordered_solve(sk);
  if (sk->general) return general_solve(sk);
  if (plan_holds(sk)) {
    ik2d__skeleton_defer(sk);
    kept_run(sk);
  } else {
    if (!plan_make(sk, &p)) return -1;
    plan_keep(sk, &p);
    ik2d__skeleton_defer(sk);
    plan_run(sk, &p);
  }
  return solve_end(sk);
}

ik2d_status ik2d_skeleton_solve_at(ik2d_skeleton *sk, double x, double y, double angle,
                                   int *reached) {
  ik2d_status status;
  int n;
  if (sk == NULL) return IK2D_ERR_NULL;
  status = ik2d__chain_check_base(x, y, angle);
  if (status != IK2D_OK) return status;
  ik2d__skeleton_set_base_deferred(sk, x, y, angle);
  n = ik2d_skeleton_solve(sk);
  /* a refused solve placed nothing: the base's move, as set_base's */
  ik2d__skeleton_settle(sk);
  if (n < 0) return IK2D_ERR_TARGET_CYCLE;
  if (reached != NULL) *reached = n;
  return IK2D_OK;
}

/* ------------------------------------------------------------------ */
/* many skeletons                                                       */
/* ------------------------------------------------------------------ */

/* Does a solver of sk read another skeleton's bones (a target on one)? */
static bool reads_other(const ik2d_skeleton *sk) {
  int i;
  for (i = 0; i < sk->solver_count; i++) {
    const ik2d_skeleton *on = sk->solvers[i]->target_skeleton;
    if (on != NULL && on != sk) return true;
  }
  return false;
}

/* Can the list's skeletons be solved step by step together?  Only when
** each is there once and none reads another's bones: then solving them
** one after another or interleaved gives each the same bits. */
static bool skeletons_apart(ik2d_skeleton *const *skeletons, int count) {
  bool apart = true;
  int i;
  for (i = 0; i < count && apart; i++) {
    ik2d_skeleton *sk = skeletons[i];
    if (sk == NULL) continue;
    apart = !sk->listed && !reads_other(sk);
    sk->listed = true;
  }
  for (i = 0; i < count; i++)
    if (skeletons[i] != NULL) skeletons[i]->listed = false;
  return apart;
}

/* One skeleton's whole solve: how many reached (none when it refuses). */
static int solve_alone(ik2d_skeleton *sk, const double *base) {
  int n = 0;
  if (base == NULL) return (n = ik2d_skeleton_solve(sk)) < 0 ? 0 : n;
  ik2d_skeleton_solve_at(sk, base[0], base[1], base[2], &n);
  return n;
}

/* Skeletons a step runs over at once: enough that a step's limbs fill
** the lanes many times over, few enough that the skeletons' objects (a
** 20-bone character's, with its chains and solvers, some 13 KB) stay in
** the caches from one step to the next, whatever the crowd's size. */
#define SKELETON_TILE 32

/* Step k of the count skeletons of tile: each one's solve k of its kept
** plan (their solves stay in its plan's order), the lanes taking the
** solves of plain CCD, on chains of distinct skeletons; then the chains
** they solved written back. */
static void tile_step(ik2d_batch *b, ik2d_skeleton *const *tile, int count, int k) {
  ik2d_solver *queued[SKELETON_TILE];
  int i, n = 0;
  for (i = 0; i < count; i++) {
    ik2d_skeleton *sk = tile[i];
    ik2d_solver *s;
    if (k >= sk->solver_count) continue;
    s = sk->solvers[sk->plan_order[k]];
    lone_ready(sk, s);
    if (ik2d_batch_takes_solve(s)) {
      ik2d_batch_queue(b, s);
      queued[n++] = s;
    } else {
      ik2d_solver_solve(s);
    }
  }
  ik2d_batch_end(b);
  for (i = 0; i < n; i++) ik2d__skeleton_chain_push(queued[i]->chain, true);
}

/* ik2d_skeleton_solve of the count skeletons of tile, whose kept plans
** hold, a step at a time together; returns how many reached. */
static int solve_tile(ik2d_skeleton *const *tile, int count, ik2d_isa isa) {
  ik2d_batch b;
  int i, k, steps = 0, reached = 0;
  if (count == 0) return 0;
  for (i = 0; i < count; i++) {
    ik2d__skeleton_defer(tile[i]);
    if (tile[i]->solver_count > steps) steps = tile[i]->solver_count;
  }
  /* the lanes' solves measured by solve_end, once all are placed */
  ik2d_batch_begin(&b, isa, 0, false);
  for (k = 0; k < steps; k++) tile_step(&b, tile, count, k);
  for (i = 0; i < count; i++) reached += solve_end(tile[i]);
  return reached;
}

ik2d_status ik2d_skeletons_solve_isa(ik2d_skeleton *const *skeletons, int count,
                                     const double *bases, int *reached, int *bad,
                                     ik2d_isa isa) {
  ik2d_skeleton *tile[SKELETON_TILE];
  int i, tiled = 0, total = 0;
  bool apart;
  if (skeletons == NULL) return IK2D_ERR_NULL;
  if (bases != NULL) {
    ik2d_status status = ik2d_skeletons_check_bases(skeletons, count, bases, bad);
    if (status != IK2D_OK) return status;
  }
  apart = skeletons_apart(skeletons, count);
  for (i = 0; i < count; i++) {
    ik2d_skeleton *sk = skeletons[i];
    const double *base = bases != NULL ? &bases[3 * i] : NULL;
    if (sk == NULL) continue;
    /* a skeleton without a kept plan solves alone (and keeps its plan
    ** for the next call), as do all when they are not apart */
    if (!apart || !plan_holds(sk)) {
      total += solve_alone(sk, base);
      continue;
    }
    /* ik2d_skeleton_solve_at's start: the base's move deferred */
    if (base != NULL) ik2d__skeleton_set_base_deferred(sk, base[0], base[1], base[2]);
    tile[tiled++] = sk;
    if (tiled == SKELETON_TILE) {
      total += solve_tile(tile, tiled, isa);
      tiled = 0;
    }
  }
  total += solve_tile(tile, tiled, isa);
  if (reached != NULL) *reached = total;
  return IK2D_OK;
}

ik2d_status ik2d_skeletons_solve(ik2d_skeleton *const *skeletons, int count,
                                 const double *bases, int *reached, int *bad) {
  return ik2d_skeletons_solve_isa(skeletons, count, bases, reached, bad, IK2D_ISA_AUTO);
}

ik2d_status ik2d_skeleton_cycle(const ik2d_skeleton *sk, ik2d_solver **a, ik2d_solver **b) {
  plan p;
  int i, j;
  if (sk == NULL) return IK2D_ERR_NULL;
  plan_units(sk, &p);
  if (!plan_cycle(sk, &p, NULL, &j, &i)) return IK2D_OK;
  if (a != NULL) *a = p.solver[j];
  if (b != NULL) *b = p.solver[i];
  return IK2D_ERR_TARGET_CYCLE;
}

/* (here, above the solvers: the check is the plan's) */
ik2d_status ik2d_solver_set_target_bone(ik2d_solver *solver, ik2d_skeleton *sk, int bone,
                                        double dx, double dy, ik2d_solver **other) {
  ik2d_skeleton *kept_skeleton;
  int kept_bone, i, j;
  double kept_x, kept_y;
  plan p;
  if (solver == NULL || sk == NULL) return IK2D_ERR_NULL;
  if (bone < 0 || bone >= sk->count) return IK2D_ERR_INDEX;
  if (!isfinite(dx)) return IK2D_ERR_TARGET_X;
  if (!isfinite(dy)) return IK2D_ERR_TARGET_Y;
  kept_skeleton = solver->target_skeleton;
  kept_bone = solver->target_bone;
  kept_x = solver->target_x;
  kept_y = solver->target_y;
  solver->target_skeleton = sk;
  solver->target_bone = (unsigned char)bone;
  solver->target_x = dx;
  solver->target_y = dy;
  /* on the skeleton's own chains: refused now if it makes a cycle that
  ** every solve would refuse */
  if (solver->chain->link != NULL && solver->chain->link->node.skeleton == sk) {
    plan_units(sk, &p);
    if (plan_cycle(sk, &p, solver, &j, &i)) {
      solver->target_skeleton = kept_skeleton;
      solver->target_bone = (unsigned char)kept_bone;
      solver->target_x = kept_x;
      solver->target_y = kept_y;
      if (other != NULL) *other = p.solver[i];
      return IK2D_ERR_TARGET_CYCLE;
    }
  }
  return IK2D_OK;
}

void ik2d_solver_clear_target_bone(ik2d_solver *solver) {
  double x, y;
  if (solver == NULL || !ik2d__solver_on_bone(solver)) return;
  /* where the point is now: nothing jumps */
  solver_target(solver, &x, &y);
  if (ik2d_solver_set_target(solver, x, y) == IK2D_OK) return;
  /* the point beyond the doubles (its skeleton is): the chain's tip, as
  ** before a first target; the skeleton is let go all the same */
  solver->target_skeleton = NULL;
  solver->target_bone = 0;
  solver->has_target = false;
}

int ik2d_solver_target_bone(const ik2d_solver *solver, ik2d_skeleton **skeleton,
                            double *dx, double *dy) {
  if (solver == NULL || !ik2d__solver_on_bone(solver)) return -1;
  if (skeleton != NULL) *skeleton = solver->target_skeleton;
  if (dx != NULL) *dx = solver->target_x;
  if (dy != NULL) *dy = solver->target_y;
  return solver->target_bone;
}
