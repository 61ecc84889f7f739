/*
** examples/c/arm.c: ik2d from C (or C++), without Lua.
**
** A two-bone arm and a three-bone leg whose knee has limits, each with a
** solver, solved toward a few targets one by one and then together as a
** group; prints the joints.  Everything comes from src/ik2d.h: the sizes
** of the objects, def structs with defaults, statuses and their words.
**
**   cc -std=c99 -Isrc examples/c/arm.c src/ik2d_*.c -lm -o arm && ./arm
**
** Exits 0 when every call did what it should (make test runs it, built
** as C99 and as C++).
*/
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "ik2d.h"

static int failures = 0;

/* A status that should be IK2D_OK, reported in the core's words. */
static void expect_ok(ik2d_status status, const char *what) {
  if (status != IK2D_OK) {
    printf("%s: %s\n", what, ik2d_status_message(status));
    failures++;
  }
}

/* The objects live in memory the caller provides: here, malloc. */
static void *memory(size_t size) {
  void *block = malloc(size);
  if (block == NULL) {
    printf("out of memory\n");
    exit(1);
  }
  return block;
}

/* bone i of lengths and rests, free (ik2d_default_bone_def: no limits) */
static void set_bones(ik2d_bone_def *bones, const double *lengths, const double *rests, int count) {
  int i;
  for (i = 0; i < count; i++) {
    bones[i] = ik2d_default_bone_def();
    bones[i].length = lengths[i];
    bones[i].rest = rests[i];
  }
}

static ik2d_chain *new_chain(const ik2d_bone_def *bones, int count, double x, double y) {
  ik2d_chain_def def = ik2d_default_chain_def();
  size_t size = ik2d_chain_size(count);
  ik2d_chain *chain = (ik2d_chain *)memory(size);
  def.bone_count = count;
  def.bones = bones;
  def.x = x;
  def.y = y;
  expect_ok(ik2d_chain_init(chain, size, &def), "chain");
  return chain;
}

static ik2d_solver *new_solver(ik2d_chain *chain, const ik2d_solver_def *def) {
  size_t size = ik2d_solver_size(ik2d_chain_bone_count(chain));
  ik2d_solver *solver = (ik2d_solver *)memory(size);
  expect_ok(ik2d_solver_init(solver, size, chain, def), "solver");
  return solver;
}

static void print_joints(const char *name, const ik2d_chain *chain) {
  const double *joints = ik2d_chain_joints(chain); /* x, y pairs, base to tip */
  int i;
  printf("  %s:", name);
  for (i = 0; i <= ik2d_chain_bone_count(chain); i++)
    printf(" (%.2f, %.2f)", joints[2 * i], joints[2 * i + 1]);
  printf("\n");
}

static void solve_toward(ik2d_solver *solver, const char *name, double x, double y) {
  const ik2d_result *result;
  expect_ok(ik2d_solver_set_target(solver, x, y), "target");
  ik2d_solver_solve(solver);
  result = ik2d_solver_result(solver);
  printf("%s toward (%.0f, %.0f): %s, %.4f away, %d iterations\n", name, x, y,
         result->reached ? "reached" : "not reached", result->distance, result->iterations);
  print_joints(name, ik2d_solver_chain(solver));
}

int main(void) {
  /* the arm: two bones from a shoulder at (0, 0), solved in closed form */
  static const double arm_lengths[2] = {60.0, 50.0}, arm_rests[2] = {0.0, 0.0};
  /* the leg: hip, knee, ankle; the knee bends one way only, up to 150 deg */
  static const double pi = 3.14159265358979323846;
  const double leg_lengths[3] = {45.0, 45.0, 12.0}, leg_rests[3] = {0.5 * pi, 0.0, 0.0};
  ik2d_bone_def arm_bones[2], leg_bones[3];
  ik2d_constraint_def knee_limits = ik2d_default_constraint_def();
  size_t knee_size = ik2d_constraint_size();
  ik2d_constraint *knee = (ik2d_constraint *)memory(knee_size);
  ik2d_solver_def arm_def = ik2d_default_solver_def(), leg_def = ik2d_default_solver_def();
  ik2d_chain *arm, *leg;
  ik2d_solver *arm_solver, *leg_solver;
  ik2d_solver *group[2];
  double targets[4] = {-30.0, 70.0, 80.0, 85.0}, knee_angle;
  int bad = -1, reached;
  ik2d_status status;

  set_bones(arm_bones, arm_lengths, arm_rests, 2);
  set_bones(leg_bones, leg_lengths, leg_rests, 3);
  knee_limits.min = -150.0 * pi / 180.0; /* radians, from the rest angle */
  knee_limits.max = 0.0;
  expect_ok(ik2d_constraint_init(knee, knee_size, &knee_limits), "knee");
  leg_bones[1].constraint = knee;

  arm = new_chain(arm_bones, 2, 0.0, 0.0);
  leg = new_chain(leg_bones, 3, 100.0, 0.0);
  arm_def.method = IK2D_TWO_BONE;
  arm_def.two_bone.bend = -1;
  leg_def.iterations = 20;
  leg_def.tolerance = 0.001;
  arm_solver = new_solver(arm, &arm_def);
  leg_solver = new_solver(leg, &leg_def);

  /* one by one */
  solve_toward(arm_solver, "arm", 70.0, 40.0);
  solve_toward(arm_solver, "arm", 200.0, 0.0); /* beyond reach: straight toward it */
  solve_toward(leg_solver, "leg", 130.0, 80.0);
  expect_ok(ik2d_chain_angle(leg, 1, &knee_angle), "knee angle");
  printf("  the knee turned %.1f degrees, inside [-150, 0]\n", knee_angle * 180.0 / pi);
  if (knee_angle < knee_limits.min - 1e-9 || knee_angle > knee_limits.max + 1e-9) failures++;

  /* a bad setting is refused, named, and changes nothing */
  status = ik2d_solver_set_iterations(leg_solver, 0);
  printf("iterations 0: %s\n", ik2d_status_message(status));
  if (status != IK2D_ERR_ITERATIONS || ik2d_solver_get_def(leg_solver).iterations != 20) failures++;

  /* both at once: every target checked before any is set, then one batch */
  group[0] = arm_solver;
  group[1] = leg_solver;
  expect_ok(ik2d_solvers_set_targets(group, 2, targets, &bad), "targets");
  reached = ik2d_solvers_solve(group, 2);
  printf("the group reached %d of 2 targets\n", reached);
  print_joints("arm", arm);
  print_joints("leg", leg);
  if (reached != 2) failures++;

  free(leg_solver);
  free(arm_solver);
  free(leg);
  free(arm);
  free(knee);
  return failures == 0 ? 0 : 1;
}
