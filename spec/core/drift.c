/*
** drift.c: angles are derived from the solution, never accumulated.
**
** A 1-bone chain tracks a target out of its reach that turns 2.5e-16 rad
** a frame, with the default tolerance and warm starts, for 1e6 frames
** (1e7 with IK2D_LONG=1 in the environment, make test-all): each solve
** turns the bone by a hair.  An angle kept as "last angle plus the small
** turn" rounds the same way every frame (from a heading of 1 rad it
** drifted 2.8e-11 rad from the bone's drawn direction in 1e7 frames: a
** drift that grows with the frames is still 2.8e-12 in 1e6); derived from
** the rotation it stays within 1e-12 rad of it.
*/
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ik2d.h"

int main(void) {
  ik2d_bone_def bone = {1.0, 0.0, NULL};
  ik2d_chain_def def = ik2d_default_chain_def();
  ik2d_solver_def settings = ik2d_default_solver_def();
  size_t chain_size = ik2d_chain_size(1), solver_size = ik2d_solver_size(1);
  ik2d_chain *chain = malloc(chain_size);
  ik2d_solver *solver = malloc(solver_size);
  static const double starts[4] = {0.3, 1.0, 2.0, 3.0};
  const double *joints;
  double worst = 0.0, heading, angle, drawn;
  const char *long_run = getenv("IK2D_LONG");
  long frames = long_run != NULL && strcmp(long_run, "1") == 0 ? 10000000L : 1000000L;
  long frame;
  int k;
  def.bone_count = 1;
  def.bones = &bone;
  if (chain == NULL || solver == NULL || ik2d_chain_init(chain, chain_size, &def) != IK2D_OK ||
      ik2d_solver_init(solver, solver_size, chain, &settings) != IK2D_OK) {
    printf("not ok set-up\n");
    return 1;
  }
  joints = ik2d_chain_joints(chain);
  for (k = 0; k < 4; k++) {
    ik2d_solver_forget(solver);
    for (frame = 0; frame < frames; frame++) {
      heading = starts[k] + 2.5e-16 * (double)frame;
      ik2d_solver_set_target(solver, 10.0 * cos(heading), 10.0 * sin(heading));
      ik2d_solver_solve(solver);
      if (frame % 100000 == 99999) {
        ik2d_chain_angle(chain, 0, &angle);
        drawn = atan2(joints[3] - joints[1], joints[2] - joints[0]);
        if (fabs(angle - drawn) > worst) worst = fabs(angle - drawn);
      }
    }
  }
  printf("%s the angle stays within 1e-12 rad of the drawn bone over %ld warm solves"
         " (worst %.3g rad)\n", worst <= 1e-12 ? "ok" : "not ok", frames, worst);
  free(solver);
  free(chain);
  return worst <= 1e-12 ? 0 : 1;
}
