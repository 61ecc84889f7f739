/*
** ik2d_solver.c: solver settings, the solve driver (start pose, method,
** weight blend, result) and the choice of method.
*/
#include <math.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "ik2d.h"
#include "ik2d_aim.h"
#include "ik2d_ccd.h"
#include "ik2d_chain.h"
#include "ik2d_checks.h"
#include "ik2d_fabrik.h"
#include "ik2d_follow.h"
#include "ik2d_math.h"
#include "ik2d_numbers.h"
#include "ik2d_pose.h"
#include "ik2d_solver.h"
#include "ik2d_two_bone.h"

/* ------------------------------------------------------------------ */
/* storage                                                              */
/* ------------------------------------------------------------------ */

typedef struct solver_layout {
  size_t solution, solution_angle, size;
} solver_layout;

static solver_layout solver_layout_of(int n) {
  solver_layout l;
  l.solution = offsetof(ik2d_solver, solution);
  l.solution_angle = l.solution + (size_t)n * sizeof(ik2d_rot);
  l.size = l.solution_angle + (size_t)n * sizeof(double);
  return l;
}

size_t ik2d_solver_size(int bone_count) {
  if (bone_count < 1 || bone_count > IK2D_MAX_BONES) return 0;
  return solver_layout_of(bone_count).size;
}

/* ------------------------------------------------------------------ */
/* settings: the rules of lua/ik2d/api.lua's solver, the check and the  */
/* setters made from it, the groups' arrays                             */
/* ------------------------------------------------------------------ */

/* ik2d_default_solver_def: src/ik2d_api.c, from the description */

/* two_bone needs a chain of 2 bones of length > 0: a skeleton chain's
** pivot leaves the triangle a side of 0. */
static bool two_bone_fits_chain(const ik2d_solver_def *def, const ik2d_chain *chain) {
  return def->method != IK2D_TWO_BONE ||
         (chain->count == 2 && chain->length[0] > 0.0 && chain->length[1] > 0.0);
}

/* follow moves the chain's base, which a skeleton owns */
static bool follow_off_skeleton(const ik2d_solver_def *def, const ik2d_chain *chain) {
  return def->method != IK2D_FOLLOW || chain->link == NULL;
}

/* An aim puts a point of its ray on the target, as the methods with a
** fixed base put a tip (follow moves the base instead), and it turns the
** last bone, which a tip angle would too. */
static bool aim_with_fixed_base(const ik2d_solver_def *def) {
  return def->method != IK2D_FOLLOW;
}

static bool aim_without_tip(const ik2d_solver_def *def) { return !def->tip.enabled; }

/* generated from lua/ik2d/api.lua by make gen: solver check */
/* ik2d_solver_def's check as lua/ik2d/api.lua describes it: each field's,
** each rule, in its order; the first refused is the status. chain: the
** solver's chain. */
static ik2d_status solver_def_check(const ik2d_solver_def *def, const ik2d_chain *chain) {
  ik2d_status status;
  if (def == NULL) return IK2D_ERR_NULL;
  if ((status = ik2d__solver_check_method(def->method)) != IK2D_OK) return status;
  if (!two_bone_fits_chain(def, chain)) return IK2D_ERR_TWO_BONE;
  if (!follow_off_skeleton(def, chain)) return IK2D_ERR_LINKED_FOLLOW;
  if ((status = ik2d__solver_check_iterations(def->iterations)) != IK2D_OK) return status;
  if ((status = ik2d__solver_check_tolerance(def->tolerance)) != IK2D_OK) return status;
  if ((status = ik2d__solver_check_weight(def->weight)) != IK2D_OK) return status;
  if ((status = ik2d__solver_check_damping(def->ccd.damping)) != IK2D_OK) return status;
  if ((status = ik2d__solver_check_sweep(def->ccd.sweep)) != IK2D_OK) return status;
  if ((status = ik2d__solver_check_bend(def->two_bone.bend)) != IK2D_OK) return status;
  if ((status = ik2d__solver_check_softness(def->two_bone.softness)) != IK2D_OK)
    return status;
  if ((status = ik2d__solver_check_softness_curve(def->two_bone.softness_curve)) != IK2D_OK)
    return status;
  if ((status = ik2d__solver_check_stretch(def->two_bone.stretch)) != IK2D_OK)
    return status;
  if ((status = ik2d__solver_check_compress(def->two_bone.compress)) != IK2D_OK)
    return status;
  if (def->tip.enabled &&
      (status = ik2d__solver_check_tip_angle(def->tip.angle)) != IK2D_OK)
    return status;
  if ((status = ik2d__solver_check_tip_weight(def->tip.weight)) != IK2D_OK) return status;
  if (def->pole.enabled) {
    if ((status = ik2d__solver_check_pole_x(def->pole.x)) != IK2D_OK) return status;
    if ((status = ik2d__solver_check_pole_y(def->pole.y)) != IK2D_OK) return status;
  }
  if ((status = ik2d__solver_check_priority(def->effector.priority)) != IK2D_OK)
    return status;
  if (def->aim.enabled) {
    if ((status = ik2d__solver_check_aim_x(def->aim.x)) != IK2D_OK) return status;
    if ((status = ik2d__solver_check_aim_y(def->aim.y)) != IK2D_OK) return status;
    if ((status = ik2d__solver_check_aim_angle(def->aim.angle)) != IK2D_OK) return status;
    if (!aim_with_fixed_base(def)) return IK2D_ERR_AIM_METHOD;
    if (!aim_without_tip(def)) return IK2D_ERR_AIM_TIP;
  }
  return IK2D_OK;
}
/* end generated */

/* Keeps a checked def. */
static void solver_keep_def(ik2d_solver *solver, const ik2d_solver_def *def) {
  solver->settings = *def;
  solver->settings.weight = ik2d_clamp_weight(def->weight);
}

ik2d_status ik2d__solver_init_unlinked(ik2d_solver *solver, size_t size, ik2d_chain *chain,
                                       const ik2d_solver_def *def) {
  solver_layout l;
  ik2d_status status;
  if (solver == NULL || chain == NULL) return IK2D_ERR_NULL;
  if ((uintptr_t)solver % sizeof(double) != 0) return IK2D_ERR_ALIGNMENT;
  if (chain->count < 1 || chain->count > IK2D_MAX_BONES) return IK2D_ERR_BONE_COUNT;
  l = solver_layout_of(chain->count);
  if (size < l.size) return IK2D_ERR_SIZE;
  status = solver_def_check(def, chain);
  if (status != IK2D_OK) return status;
  solver->chain = chain;
  solver->target_skeleton = NULL;
  solver->target_bone = 0;
  solver_keep_def(solver, def);
  solver->target_x = solver->target_y = 0.0;
  solver->has_target = false;
  solver->have_solution = false;
  solver->angles_held = false;
  solver->coupled_stalls = 0;
  solver->result.reached = false;
  solver->result.limited = false;
  solver->result.iterations = 0;
  solver->result.distance = 0.0;
  IK2D_STAT(solver->joint_updates = 0;);
  return IK2D_OK;
}

ik2d_chain *ik2d_solver_chain(const ik2d_solver *solver) {
  return solver != NULL ? solver->chain : NULL;
}

ik2d_status ik2d_solver_set_def(ik2d_solver *solver, const ik2d_solver_def *def) {
  ik2d_status status;
  if (solver == NULL) return IK2D_ERR_NULL;
  status = solver_def_check(def, solver->chain);
  if (status == IK2D_OK) solver_keep_def(solver, def);
  return status;
}

ik2d_solver_def ik2d_solver_get_def(const ik2d_solver *solver) {
  return solver != NULL ? solver->settings : ik2d_default_solver_def();
}

/* generated from lua/ik2d/api.lua by make gen: solver setters */
/* A setter checks a copy of the settings with the new values: the checks of
** those fields and the rules that read them, in solver_def_check's order;
** then keeps it as a whole def is kept. A switch turned off needs no check. */

ik2d_status ik2d_solver_set_method(ik2d_solver *solver, ik2d_method method) {
  ik2d_solver_def def;
  ik2d_status status;
  if (solver == NULL) return IK2D_ERR_NULL;
  def = solver->settings;
  def.method = method;
  if ((status = ik2d__solver_check_method(def.method)) != IK2D_OK) return status;
  if (!two_bone_fits_chain(&def, solver->chain)) return IK2D_ERR_TWO_BONE;
  if (!follow_off_skeleton(&def, solver->chain)) return IK2D_ERR_LINKED_FOLLOW;
  if (def.aim.enabled && !aim_with_fixed_base(&def)) return IK2D_ERR_AIM_METHOD;
  solver_keep_def(solver, &def);
  return IK2D_OK;
}

ik2d_status ik2d_solver_set_iterations(ik2d_solver *solver, int iterations) {
  ik2d_solver_def def;
  ik2d_status status;
  if (solver == NULL) return IK2D_ERR_NULL;
  def = solver->settings;
  def.iterations = iterations;
  if ((status = ik2d__solver_check_iterations(def.iterations)) != IK2D_OK) return status;
  solver_keep_def(solver, &def);
  return IK2D_OK;
}

ik2d_status ik2d_solver_set_tolerance(ik2d_solver *solver, double tolerance) {
  ik2d_solver_def def;
  ik2d_status status;
  if (solver == NULL) return IK2D_ERR_NULL;
  def = solver->settings;
  def.tolerance = tolerance;
  if ((status = ik2d__solver_check_tolerance(def.tolerance)) != IK2D_OK) return status;
  solver_keep_def(solver, &def);
  return IK2D_OK;
}

ik2d_status ik2d_solver_set_weight(ik2d_solver *solver, double weight) {
  ik2d_solver_def def;
  ik2d_status status;
  if (solver == NULL) return IK2D_ERR_NULL;
  def = solver->settings;
  def.weight = weight;
  if ((status = ik2d__solver_check_weight(def.weight)) != IK2D_OK) return status;
  solver_keep_def(solver, &def);
  return IK2D_OK;
}

ik2d_status ik2d_solver_set_warm_start(ik2d_solver *solver, bool warm_start) {
  ik2d_solver_def def;
  if (solver == NULL) return IK2D_ERR_NULL;
  def = solver->settings;
  def.warm_start = warm_start;
  solver_keep_def(solver, &def);
  return IK2D_OK;
}

ik2d_status ik2d_solver_set_damping(ik2d_solver *solver, double damping) {
  ik2d_solver_def def;
  ik2d_status status;
  if (solver == NULL) return IK2D_ERR_NULL;
  def = solver->settings;
  def.ccd.damping = damping;
  if ((status = ik2d__solver_check_damping(def.ccd.damping)) != IK2D_OK) return status;
  solver_keep_def(solver, &def);
  return IK2D_OK;
}

ik2d_status ik2d_solver_set_exact(ik2d_solver *solver, bool exact) {
  ik2d_solver_def def;
  if (solver == NULL) return IK2D_ERR_NULL;
  def = solver->settings;
  def.ccd.exact = exact;
  solver_keep_def(solver, &def);
  return IK2D_OK;
}

ik2d_status ik2d_solver_set_sweep(ik2d_solver *solver, ik2d_sweep sweep) {
  ik2d_solver_def def;
  ik2d_status status;
  if (solver == NULL) return IK2D_ERR_NULL;
  def = solver->settings;
  def.ccd.sweep = sweep;
  if ((status = ik2d__solver_check_sweep(def.ccd.sweep)) != IK2D_OK) return status;
  solver_keep_def(solver, &def);
  return IK2D_OK;
}

ik2d_status ik2d_solver_set_bend(ik2d_solver *solver, int bend) {
  ik2d_solver_def def;
  ik2d_status status;
  if (solver == NULL) return IK2D_ERR_NULL;
  def = solver->settings;
  def.two_bone.bend = bend;
  if ((status = ik2d__solver_check_bend(def.two_bone.bend)) != IK2D_OK) return status;
  solver_keep_def(solver, &def);
  return IK2D_OK;
}

ik2d_status ik2d_solver_set_softness(ik2d_solver *solver, double softness) {
  ik2d_solver_def def;
  ik2d_status status;
  if (solver == NULL) return IK2D_ERR_NULL;
  def = solver->settings;
  def.two_bone.softness = softness;
  if ((status = ik2d__solver_check_softness(def.two_bone.softness)) != IK2D_OK)
    return status;
  solver_keep_def(solver, &def);
  return IK2D_OK;
}

ik2d_status ik2d_solver_set_softness_curve(ik2d_solver *solver,
                                           ik2d_softness_curve softness_curve) {
  ik2d_solver_def def;
  ik2d_status status;
  if (solver == NULL) return IK2D_ERR_NULL;
  def = solver->settings;
  def.two_bone.softness_curve = softness_curve;
  if ((status = ik2d__solver_check_softness_curve(def.two_bone.softness_curve)) != IK2D_OK)
    return status;
  solver_keep_def(solver, &def);
  return IK2D_OK;
}

ik2d_status ik2d_solver_set_stretch(ik2d_solver *solver, double stretch) {
  ik2d_solver_def def;
  ik2d_status status;
  if (solver == NULL) return IK2D_ERR_NULL;
  def = solver->settings;
  def.two_bone.stretch = stretch;
  if ((status = ik2d__solver_check_stretch(def.two_bone.stretch)) != IK2D_OK)
    return status;
  solver_keep_def(solver, &def);
  return IK2D_OK;
}

ik2d_status ik2d_solver_set_compress(ik2d_solver *solver, double compress) {
  ik2d_solver_def def;
  ik2d_status status;
  if (solver == NULL) return IK2D_ERR_NULL;
  def = solver->settings;
  def.two_bone.compress = compress;
  if ((status = ik2d__solver_check_compress(def.two_bone.compress)) != IK2D_OK)
    return status;
  solver_keep_def(solver, &def);
  return IK2D_OK;
}

ik2d_status ik2d_solver_set_uniform(ik2d_solver *solver, bool uniform) {
  ik2d_solver_def def;
  if (solver == NULL) return IK2D_ERR_NULL;
  def = solver->settings;
  def.two_bone.uniform = uniform;
  solver_keep_def(solver, &def);
  return IK2D_OK;
}

ik2d_status ik2d_solver_set_tip_angle(ik2d_solver *solver, double angle, double weight) {
  ik2d_solver_def def;
  ik2d_status status;
  if (solver == NULL) return IK2D_ERR_NULL;
  def = solver->settings;
  def.tip.enabled = true;
  def.tip.angle = angle;
  def.tip.weight = weight;
  if ((status = ik2d__solver_check_tip_angle(def.tip.angle)) != IK2D_OK) return status;
  if ((status = ik2d__solver_check_tip_weight(def.tip.weight)) != IK2D_OK) return status;
  if (def.aim.enabled && !aim_without_tip(&def)) return IK2D_ERR_AIM_TIP;
  solver_keep_def(solver, &def);
  return IK2D_OK;
}

void ik2d_solver_clear_tip_angle(ik2d_solver *solver) {
  if (solver != NULL) solver->settings.tip.enabled = false;
}

ik2d_status ik2d_solver_set_pole(ik2d_solver *solver, double x, double y) {
  ik2d_solver_def def;
  ik2d_status status;
  if (solver == NULL) return IK2D_ERR_NULL;
  def = solver->settings;
  def.pole.enabled = true;
  def.pole.x = x;
  def.pole.y = y;
  if ((status = ik2d__solver_check_pole_x(def.pole.x)) != IK2D_OK) return status;
  if ((status = ik2d__solver_check_pole_y(def.pole.y)) != IK2D_OK) return status;
  solver_keep_def(solver, &def);
  return IK2D_OK;
}

void ik2d_solver_clear_pole(ik2d_solver *solver) {
  if (solver != NULL) solver->settings.pole.enabled = false;
}

ik2d_status ik2d_solver_set_priority(ik2d_solver *solver, double priority) {
  ik2d_solver_def def;
  ik2d_status status;
  if (solver == NULL) return IK2D_ERR_NULL;
  def = solver->settings;
  def.effector.priority = priority;
  if ((status = ik2d__solver_check_priority(def.effector.priority)) != IK2D_OK)
    return status;
  solver_keep_def(solver, &def);
  return IK2D_OK;
}

ik2d_status ik2d_solver_set_together(ik2d_solver *solver, bool together) {
  ik2d_solver_def def;
  if (solver == NULL) return IK2D_ERR_NULL;
  def = solver->settings;
  def.effector.together = together;
  solver_keep_def(solver, &def);
  return IK2D_OK;
}

ik2d_status ik2d_solver_set_aim(ik2d_solver *solver, double x, double y, double angle) {
  ik2d_solver_def def;
  ik2d_status status;
  if (solver == NULL) return IK2D_ERR_NULL;
  def = solver->settings;
  def.aim.enabled = true;
  def.aim.x = x;
  def.aim.y = y;
  def.aim.angle = angle;
  if ((status = ik2d__solver_check_aim_x(def.aim.x)) != IK2D_OK) return status;
  if ((status = ik2d__solver_check_aim_y(def.aim.y)) != IK2D_OK) return status;
  if ((status = ik2d__solver_check_aim_angle(def.aim.angle)) != IK2D_OK) return status;
  if (!aim_with_fixed_base(&def)) return IK2D_ERR_AIM_METHOD;
  if (!aim_without_tip(&def)) return IK2D_ERR_AIM_TIP;
  solver_keep_def(solver, &def);
  return IK2D_OK;
}

void ik2d_solver_clear_aim(ik2d_solver *solver) {
  if (solver != NULL) solver->settings.aim.enabled = false;
}
/* end generated */

/* A tip angle as ik2d_solver_set_tip_angle checks it, with the weight
** kept. */
static ik2d_status check_tip(double angle, double weight) {
  ik2d_status status = ik2d__solver_check_tip_angle(angle);
  return status != IK2D_OK ? status : ik2d__solver_check_tip_weight(weight);
}

static ik2d_status check_pole(double x, double y) {
  ik2d_status status = ik2d__solver_check_pole_x(x);
  return status != IK2D_OK ? status : ik2d__solver_check_pole_y(y);
}

ik2d_status ik2d_solvers_check_tip_angles(ik2d_solver *const *solvers, int count,
                                          const double *angles, int *bad) {
  int i;
  if (solvers == NULL || angles == NULL) return IK2D_ERR_NULL;
  for (i = 0; i < count; i++) {
    const ik2d_solver *s = solvers[i];
    ik2d_status status;
    if (s == NULL || !s->settings.tip.enabled) continue;
    status = check_tip(angles[i], s->settings.tip.weight);
    if (status != IK2D_OK) {
      if (bad != NULL) *bad = i;
      return status;
    }
  }
  return IK2D_OK;
}

ik2d_status ik2d_solvers_set_tip_angles(ik2d_solver *const *solvers, int count,
                                        const double *angles, int *bad) {
  int i;
  ik2d_status status = ik2d_solvers_check_tip_angles(solvers, count, angles, bad);
  if (status != IK2D_OK) return status;
  for (i = 0; i < count; i++)
    if (solvers[i] != NULL && solvers[i]->settings.tip.enabled)
      solvers[i]->settings.tip.angle = angles[i];
  return IK2D_OK;
}

ik2d_status ik2d_solvers_check_poles(ik2d_solver *const *solvers, int count, const double *xy,
                                     int *bad) {
  int i;
  if (solvers == NULL || xy == NULL) return IK2D_ERR_NULL;
  for (i = 0; i < count; i++) {
    ik2d_status status;
    if (solvers[i] == NULL || !solvers[i]->settings.pole.enabled) continue;
    status = check_pole(xy[2 * i], xy[2 * i + 1]);
    if (status != IK2D_OK) {
      if (bad != NULL) *bad = i;
      return status;
    }
  }
  return IK2D_OK;
}

ik2d_status ik2d_solvers_set_poles(ik2d_solver *const *solvers, int count, const double *xy,
                                   int *bad) {
  int i;
  ik2d_status status = ik2d_solvers_check_poles(solvers, count, xy, bad);
  if (status != IK2D_OK) return status;
  for (i = 0; i < count; i++) {
    if (solvers[i] == NULL || !solvers[i]->settings.pole.enabled) continue;
    solvers[i]->settings.pole.x = xy[2 * i];
    solvers[i]->settings.pole.y = xy[2 * i + 1];
  }
  return IK2D_OK;
}

ik2d_status ik2d_solver_set_target(ik2d_solver *solver, double x, double y) {
  ik2d_status status;
  if (solver == NULL) return IK2D_ERR_NULL;
  status = ik2d__solver_check_target(x, y);
  if (status != IK2D_OK) return status;
  ik2d__solver_keep_target(solver, x, y);
  return IK2D_OK;
}

void ik2d_solver_forget(ik2d_solver *solver) {
  if (solver != NULL) {
    solver->have_solution = false;
    solver->coupled_stalls = 0;
  }
}

const ik2d_result *ik2d_solver_result(const ik2d_solver *solver) {
  static const ik2d_result none = {false, false, 0, 0.0};
  return solver != NULL ? &solver->result : &none;
}

#ifdef IK2D_STATS
int ik2d__solver_joint_updates(const ik2d_solver *solver) {
  return solver != NULL ? solver->joint_updates : 0;
}
#endif

/* ------------------------------------------------------------------ */
/* the solve: start, run, finish                                        */
/* ------------------------------------------------------------------ */

/* ik2d_pose_clamp with the clamp inline, for the loops over every bone
** at a solve's start and end. */
static inline bool solve_clamp(ik2d_pose *pose, int i) {
  const ik2d_constraint *limit = pose->chain->constraint[i];
  if (limit == NULL) return false;
  return ik2d__constraint_clamp_rot_inline(limit, ik2d_pose_limit_mid(pose, i), &pose->rot[i]);
}

/* The pose's fields but its rotations, toward the target (target_x,
** target_y), world space: mirrored about x = base_x into chain space when
** the chain is flipped. */
IK2D_INLINE void solve_prepare_fields(ik2d_pose *pose, const ik2d_solver *solver,
                                      double target_x, double target_y) {
  const ik2d_chain *chain = solver->chain;
  pose->chain = chain;
  pose->settings = &solver->settings;
  pose->count = chain->count;
  pose->iterations = solver->settings.iterations;
  pose->reach = chain->reach;
  pose->target_x = chain->flip ? 2.0 * chain->base_x - target_x : target_x;
  pose->target_y = target_y;
  pose->pole = solver->settings.pole.enabled;
  pose->pole_x = chain->flip ? 2.0 * chain->base_x - solver->settings.pole.x
                             : solver->settings.pole.x;
  pose->pole_y = solver->settings.pole.y;
  pose->limited = false;
  pose->world_limits = 0;
  pose->tolerance_sq = solver->settings.tolerance * solver->settings.tolerance;
  pose->damping = ik2d__solver_damping(solver);
  pose->scale = 1.0;
  pose->fresh = false;
  IK2D_STAT(pose->joint_updates = 0;);
  pose->base = chain->base_rot;
  pose->base_x = chain->base_x;
  pose->base_y = chain->base_y;
}

/* The pose's rotations from the chain's animated pose, within limits
** (what a cold start starts from). */
static void solve_from_pose(ik2d_pose *pose) {
  int i;
  for (i = 0; i < pose->count; i++) {
    pose->rot[i] = ik2d__chain_pose_rot(pose->chain, i);
    ik2d_pose_clamp(pose, i);
  }
}

/* The pose a solve starts from: chain space, the warm start or the pose,
** within limits. */
IK2D_INLINE void solve_prepare(ik2d_pose *pose, const ik2d_solver *solver, double target_x,
                               double target_y) {
  const ik2d_chain *chain = solver->chain;
  bool warm = ik2d__solver_starts_warm(solver);
  int i;
  solve_prepare_fields(pose, solver, target_x, target_y);
  for (i = 0; i < chain->count; i++) {
    const ik2d_constraint *limit = chain->constraint[i];
    pose->rot[i] = ik2d__solver_start_rot(solver, warm, i);
    if (limit != NULL && !limit->full) {
      pose->limit_mid[i] = ik2d__chain_limit_mid(chain, i);
      if (limit->def.space == IK2D_SPACE_WORLD) pose->world_limits = i + 1;
      solve_clamp(pose, i);
    }
  }
}

/* (the extern halves wrap inline ones, which ik2d__solver_solve_chain runs
** without the calls) */
IK2D_INLINE bool solve_start(ik2d_solver *solver, ik2d_pose *pose, ik2d_rot *start,
                             double target_x, double target_y) {
  if (!(solver->settings.weight > 0.0)) return false;
  solve_prepare(pose, solver, target_x, target_y);
  ik2d_pose_save(pose, start);
  return true;
}

bool ik2d__solver_solve_start(ik2d_solver *solver, ik2d_pose *pose, ik2d_rot *start,
                              double target_x, double target_y) {
  return solve_start(solver, pose, start, target_x, target_y);
}

int ik2d__solver_ccd_fallback(ik2d_pose *pose, int used) {
  double dx = pose->target_x - pose->chain->base_x;
  double dy = pose->target_y - pose->chain->base_y;
  if (!pose->settings->ccd.exact) return used;
  if (!pose->fresh) ik2d_pose_forward(pose);
  pose->fresh = true;
  if (!(ik2d_pose_tip_distance_sq(pose) > pose->tolerance_sq)) return used;
  /* only a target the chain can reach: beyond, the straight pose (or
  ** the limits) is the answer already */
  if (!(sqrt(dx * dx + dy * dy) < pose->reach)) return used;
  pose->fresh = false;
  pose->iterations -= used;
  if (pose->iterations < 1) return used;
  return used + ik2d_fabrik_run(pose);
}

/* The method on the pose's bones: two_bone needs 2 (a tip angle leaves
** one: CCD turns it). */
static int solve_method(ik2d_pose *pose) {
  switch (pose->settings->method) {
    case IK2D_FABRIK: return ik2d_fabrik_run(pose);
    case IK2D_FOLLOW: return ik2d_follow_run(pose);
    case IK2D_TWO_BONE:
      /* its closed-form limit search works in parent space: with a
      ** world-space limit, CCD (whose exact step is the same law of
      ** cosines) solves the limb; so it does for a skeleton bone set to
      ** length 0 after the method was chosen */
      if (pose->count == 2 && pose->world_limits == 0 && pose->chain->length[0] > 0.0 &&
          pose->chain->length[1] > 0.0)
        return ik2d_two_bone_run(pose);
      return ik2d__solver_ccd_fallback(pose, ik2d_ccd_run(pose));
    default: return ik2d__solver_ccd_fallback(pose, ik2d_ccd_run(pose));
  }
}

/* The method, then the bend toward the pole (two_bone chooses its side
** itself). */
static int solve_bent(ik2d_pose *pose) {
  int used = solve_method(pose);
  if (pose->pole && !(pose->settings->method == IK2D_TWO_BONE && pose->count == 2 &&
                      pose->world_limits == 0))
    ik2d_pose_toward_pole(pose);
  return used;
}


/* The last bone along dir (chain space), the others solving for the
** joint that puts the tip on the target: the target less the last bone.
** A limit of the last bone that forbids dir leaves the nearest allowed
** direction, and the others solve again for it while iterations last. */
static int solve_oriented(ik2d_pose *pose, ik2d_rot dir) {
  const ik2d_chain *chain = pose->chain;
  int n = pose->count, used = 0, budget = pose->iterations, round;
  double length = chain->length[n - 1], target_x = pose->target_x;
  double target_y = pose->target_y, reach = pose->reach;
  for (round = 1;; round++) {
    ik2d_rot parent = pose->base;
    bool clamped, others_fresh;
    if (n > 1) {
      pose->count = n - 1;
      pose->reach = reach - length;
      pose->target_x = target_x - length * dir.c;
      pose->target_y = target_y - length * dir.s;
      pose->iterations = budget - used;
      pose->fresh = false;
      used += solve_bent(pose);
      pose->count = n;
      pose->reach = reach;
      pose->target_x = target_x;
      pose->target_y = target_y;
      parent = ik2d_pose_world(pose, n - 2);
    }
    /* the others' joints, from their solve's last forward pass */
    others_fresh = n > 1 && pose->fresh;
    pose->rot[n - 1] = ik2d_rot_inv_mul(parent, dir);
    clamped = ik2d_pose_clamp(pose, n - 1);
    pose->limited = pose->limited || clamped;
    pose->fresh = false;
    if (!clamped || n == 1 || used >= budget || round == IK2D_ORIENT_ROUNDS) {
      if (others_fresh) {
        /* the tip as a forward pass places it: parent is its running
        ** product up to bone n - 2, joint n - 1 its running sum */
        ik2d_rot world = ik2d_rot_mul(parent, pose->rot[n - 1]);
        pose->joint_x[n] = pose->joint_x[n - 1] + length * world.c;
        pose->joint_y[n] = pose->joint_y[n - 1] + length * world.s;
        pose->fresh = true;
      }
      return used > 0 ? used : 1;
    }
    dir = ik2d_rot_mul(parent, pose->rot[n - 1]);
  }
}

/* One bone stretched or compressed toward the target along its
** direction, within [compress, stretch], as Spine's one-bone IK does. */
static void solve_one_bone_scale(ik2d_pose *pose) {
  const ik2d_chain *chain = pose->chain;
  ik2d_rot world = ik2d_rot_mul(pose->base, pose->rot[0]);
  double along = (pose->target_x - chain->base_x) * world.c +
                 (pose->target_y - chain->base_y) * world.s;
  double scale = along / chain->length[0];
  if (!(scale == scale)) return;
  /* compared, not fmin and fmax: which zero those give for 0 and -0 is
  ** left open, and gcc passes their arguments in either order (the pure-
  ** Lua core must know which); these keep the bits gcc 12 gave */
  scale = scale < pose->settings->two_bone.stretch ? scale : pose->settings->two_bone.stretch;
  pose->scale = scale > pose->settings->two_bone.compress ? scale : pose->settings->two_bone.compress;
  if (pose->scale != 1.0) pose->fresh = false;
}

/* An aimed run (ik2d_aim.c): the method and the pole on the chain whose
** last bone ends at the point of the ray that goes onto the target.
** Stretch, compress and softness do not apply: they scale or ease a limb
** toward a tip, and the ray reaches by turning. */
static int solve_aimed(ik2d_pose *pose) {
  const ik2d_solver_def *settings = pose->settings;
  ik2d_solver_def aimed = *settings;
  int used;
  aimed.two_bone.stretch = 1.0;
  aimed.two_bone.compress = 1.0;
  aimed.two_bone.softness = 0.0;
  pose->settings = &aimed;
  used = ik2d_aim_run(pose, &aimed.aim, solve_bent);
  pose->settings = settings;
  return used;
}

/* A tip angle of weight below 1: the last bone's direction in the free
** solve turned toward dir by the weight, from the free solve's.  The free
** solve starts from the pose, not the warm start (whose last bone the
** last blend turned already: every frame would turn it further).  The
** oriented solve starts from the warm start when that reaches the target
** (a blend tracks from frame to frame, and at weight 0 the free solve
** keeps it), else from the free solution: from a start short of the
** target the other bones could settle on another way to reach, and
** weights near 0 would not give the free pose.  Returns the direction,
** the pose ready for the oriented solve. */
static ik2d_rot solve_tip_blended(ik2d_pose *pose, ik2d_rot dir) {
  const ik2d_solver_def *settings = pose->settings;
  ik2d_rot warm[IK2D_MAX_BONES], free_dir;
  double turn;
  bool warm_reaches, pole = pose->pole;
  ik2d_pose_save(pose, warm);
  ik2d_pose_forward(pose);
  warm_reaches = ik2d_pose_tip_distance_sq(pose) <= pose->tolerance_sq;
  /* the free solve without the pole, which bends the bones the oriented
  ** solve leaves free, not the last */
  solve_from_pose(pose);
  pose->fresh = false;
  pose->pole = false;
  solve_method(pose);
  free_dir = ik2d_pose_world(pose, pose->count - 1);
  if (warm_reaches) ik2d_pose_load(pose, warm);
  pose->pole = pole;
  pose->fresh = false;
  pose->limited = false;
  turn = ik2d_atan2(ik2d_rot_inv_mul(free_dir, dir).s, ik2d_rot_inv_mul(free_dir, dir).c);
  turn *= settings->tip.weight;
  pose->iterations = settings->iterations;
  return ik2d_rot_mul(free_dir, ik2d_rot_angle(turn));
}

/* A run with a tip angle: the last bone along it (blended: toward it),
** the others solving for the joint that puts the tip on the target. */
static int solve_tipped(ik2d_pose *pose) {
  const ik2d_solver_def *settings = pose->settings;
  /* the tip angle in chain space: mirrored when flipped */
  double angle = pose->chain->flip ? IK2D_PI - settings->tip.angle : settings->tip.angle;
  ik2d_rot dir = ik2d_rot_angle(angle);
  if (settings->tip.weight < 1.0) dir = solve_tip_blended(pose, dir);
  return solve_oriented(pose, dir);
}

/* The whole run of a solve: the method, a tip angle and a pole when set,
** and for one bone its scale; or an aimed run. */
static int solve_run(ik2d_pose *pose) {
  const ik2d_solver_def *settings = pose->settings;
  int used;
  if (settings->aim.enabled) return solve_aimed(pose);
  /* weight 0: the free solve itself, as with no tip angle */
  if (!settings->tip.enabled || settings->tip.weight == 0.0) used = solve_bent(pose);
  else used = solve_tipped(pose);
  /* follow reaches every target by moving the base, never the length
  ** (ik2d__solver_solve_finish places it, on the rotations it keeps) */
  if (settings->method != IK2D_FOLLOW && pose->count == 1 &&
      (settings->two_bone.stretch > 1.0 || settings->two_bone.compress < 1.0))
    solve_one_bone_scale(pose);
  return used;
}

static void solve_copy_joints(ik2d_chain *chain, ik2d_pose *pose) {
  int i;
  if (!pose->fresh) ik2d_pose_forward(pose);
  for (i = 0; i <= chain->count; i++) {
    chain->joints[2 * i] = chain->flip ? 2.0 * chain->base_x - pose->joint_x[i]
                                       : pose->joint_x[i];
    chain->joints[2 * i + 1] = pose->joint_y[i];
  }
}

/* Follow moves the base: the chain's base goes weight of the way to where
** the solution put it (mirrored back into world space when flipped; the
** base angle stays).  Returns whether it moved. */
static bool solve_move_base(ik2d_chain *chain, const ik2d_pose *pose, double weight) {
  double x, y, dx, dy;
  if (pose->base_x == chain->base_x && pose->base_y == chain->base_y) return false;
  x = chain->flip ? 2.0 * chain->base_x - pose->base_x : pose->base_x;
  y = pose->base_y;
  if (weight != 1.0) {
    dx = x - chain->base_x;
    dy = y - chain->base_y;
    /* on halves where the way overflows */
    x = isfinite(dx) ? chain->base_x + weight * dx
                     : 2.0 * (0.5 * chain->base_x + weight * (0.5 * x - 0.5 * chain->base_x));
    y = isfinite(dy) ? chain->base_y + weight * dy
                     : 2.0 * (0.5 * chain->base_y + weight * (0.5 * y - 0.5 * chain->base_y));
  }
  if (!isfinite(x) || !isfinite(y)) return false;
  chain->base_x = x;
  chain->base_y = y;
  return true;
}

/* A method that meets numbers doubles cannot hold (dot products of
** 1e200 vectors overflow, of 1e-160 ones underflow into denormals) can
** leave rotations that are NaN, zero or not quite unit: a NaN pose, or
** bones that shrink, kept as warm start for every later solve.  Such a
** run is dropped and the start (pose or warm start, within limits) kept
** instead.  Rotations merely off unit length are put back on it: a turn
** leaves a rotation a few ulps off, and forward passes do not renormalise,
** so this is where it happens once the length is off by more than IK2D_ROT_DRIFT
** (for a unit-scale chain, a few solves of drift; a rotation built from
** denormal dot products can be off by 1e-4).  The threshold is that low
** because the rotations' errors compound along the chain into the world
** directions the joints come from.  Returns false for a broken run; else
** *on_limit is ik2d_pose_on_limit of the rotations it leaves, from the
** clamps' own relative rotations: a bone's limit middle reads only the
** bones before it, which the loop has left as they end. */
IK2D_INLINE bool solve_sane(ik2d_pose *pose, bool *on_limit) {
  int i;
  *on_limit = false;
  for (i = 0; i < pose->count; i++) {
    const ik2d_constraint *limit = pose->chain->constraint[i];
    double c = pose->rot[i].c, s = pose->rot[i].s;
    double norm = c * c + s * s;
    ik2d_rot mid, rel;
    if (ik2d_rot_broken(norm)) return false;
    if (ik2d_rot_drifted(norm)) {
      norm = sqrt(norm);
      pose->fresh = false;
      pose->rot[i] = ik2d_rot_of(c / norm, s / norm);
    }
    if (limit == NULL || limit->full) continue;
    /* the limits once more, on the unit rotation: the methods' tests saw
    ** rotations up to 1e-8 long (denormal norms) and let a joint 1e-8 rad
    ** outside through (the blend clamps the angle, but the joints come
    ** from these rotations); a no-op for a rotation inside */
    mid = ik2d_pose_limit_mid(pose, i);
    rel = ik2d_rot_inv_mul(mid, pose->rot[i]);
    if (ik2d__constraint_clamp_rel_inline(limit, mid, rel, &pose->rot[i])) {
      pose->fresh = false;
      rel = ik2d_rot_inv_mul(mid, pose->rot[i]);
    }
    if (!*on_limit) *on_limit = ik2d_pose_rel_on_limit(limit, rel);
  }
  return true;
}

/* The solution, the chain's result and the outcome but its measure, with
** on_limit ik2d_pose_on_limit(pose) found.  The angle of each bone's IK
** rotation is found first, in the same loop: into ik2d_solution_angle,
** always derived from the rotation, never the last angle plus the small
** turn since, so that no rounding accumulates over frames (a bone
** turning 2.5e-16 rad a frame would drift from its drawn direction by
** 1e-9 rad in 1e7 frames).  A rotation the last solution holds to the bit
** (a bone the run left as it started) has its angle there already. */
IK2D_INLINE void solve_commit(ik2d_solver *solver, ik2d_pose *pose, int used, bool on_limit) {
  ik2d_chain *chain = solver->chain;
  double weight = solver->settings.weight, *angle = ik2d_solution_angle(solver);
  bool held = solver->angles_held;
  int i;
  IK2D_STAT(solver->joint_updates = pose->joint_updates;);
  solver->result.limited = pose->limited || on_limit;
  for (i = 0; i < chain->count; i++) {
    if (!(held && memcmp(&pose->rot[i], &solver->solution[i], sizeof(ik2d_rot)) == 0))
      angle[i] = ik2d_atan2(pose->rot[i].s, pose->rot[i].c);
    solver->solution[i] = pose->rot[i];
    chain->angle[i] = ik2d__chain_blend_bone(chain, i, angle[i], weight);
  }
  solver->have_solution = true;
  solver->angles_held = true;
  chain->uniform = solver->settings.two_bone.uniform;
  /* the stretch blends as the angles do */
  chain->scale = weight == 1.0 ? pose->scale : 1.0 + weight * (pose->scale - 1.0);
  if (solve_move_base(chain, pose, weight)) {
    ik2d__chain_update_joints(chain);
  } else if (weight == 1.0 && chain->scale == 1.0) {
    /* the result is the IK solution: its joints need no trig */
    solve_copy_joints(chain, pose);
  } else {
    ik2d__chain_update_joints(chain);
  }
  solver->result.iterations = used;
}

/* Weight 0: the pose exactly, and no solving work. */
static void solve_keep_pose(ik2d_solver *solver, int used) {
  ik2d_chain *chain = solver->chain;
  int i;
  solver->result.limited = false;
  for (i = 0; i < chain->count; i++) chain->angle[i] = chain->pose[i];
  chain->scale = 1.0;
  IK2D_STAT(solver->joint_updates = 0;);
  ik2d__chain_update_joints(chain);
  solver->result.iterations = used;
}

IK2D_INLINE void solve_finish(ik2d_solver *solver, ik2d_pose *pose, const ik2d_rot *start,
                              int used) {
  bool on_limit;
  if (!(solver->settings.weight > 0.0)) {
    solve_keep_pose(solver, used);
    return;
  }
  if (!solve_sane(pose, &on_limit)) {
    /* a broken run is dropped: the start, unstretched */
    ik2d_pose_load(pose, start);
    pose->scale = 1.0;
    on_limit = ik2d_pose_on_limit(pose);
  }
  /* follow: the base one chain behind the target, placed last, on the
  ** rotations as they are now (after a tip angle or a pole turned bones
  ** after the drag, and after solve_sane put them back on unit length:
  ** a pole's mirrors, products of products, left rotations 7e-12 off
  ** it, and a base placed before that renormalising left the tip of a
  ** chain of 1e6 bones 2.8e-5 off the target) */
  if (solver->settings.method == IK2D_FOLLOW) ik2d_follow_place(pose);
  solve_commit(solver, pose, used, on_limit);
}

void ik2d__solver_solve_finish(ik2d_solver *solver, ik2d_pose *pose, const ik2d_rot *start,
                               int used) {
  solve_finish(solver, pose, start, used);
}

void ik2d__solver_solve_chain(ik2d_solver *solver, double target_x, double target_y) {
  ik2d_pose pose;
  ik2d_rot start[IK2D_MAX_BONES];
  int used = 0;
  if (solve_start(solver, &pose, start, target_x, target_y)) used = solve_run(&pose);
  solve_finish(solver, &pose, start, used);
}

/* ------------------------------------------------------------------ */
/* the outcome                                                          */
/* ------------------------------------------------------------------ */

bool ik2d__solver_measure(ik2d_solver *solver, double target_x, double target_y) {
  const ik2d_chain *chain = solver->chain;
  double dx, dy, squared;
  if (solver->settings.aim.enabled) {
    solver->result.distance =
        ik2d_aim_chain_distance(chain, &solver->settings.aim, target_x, target_y);
    solver->result.reached = solver->result.distance <= solver->settings.tolerance;
    return solver->result.reached;
  }
  dx = target_x - chain->joints[2 * chain->count];
  dy = target_y - chain->joints[2 * chain->count + 1];
  /* hypot only where the squares overflow or underflow (a tip 1e155
  ** away): it costs several times a sqrt */
  squared = dx * dx + dy * dy;
  solver->result.distance = squared < 1e300 && squared > 1e-300 ? sqrt(squared)
                                                                : ik2d_hypot(dx, dy);
  solver->result.reached = solver->result.distance <= solver->settings.tolerance;
  return solver->result.reached;
}
