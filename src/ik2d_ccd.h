/*
** ik2d_ccd.h: cyclic coordinate descent (not installed).
*/
#ifndef IK2D_CCD_H
#define IK2D_CCD_H

#include "ik2d_pose.h"

/* Turns the pose's start rotations into an IK solution; returns the
** iterations used. */
int ik2d_ccd_run(ik2d_pose *pose);

/* Most chains ik2d_ccd_run_together solves at once: enough to hide the
** latency of one chain's turn behind the others' (a turn waits on a sqrt
** and a division); measured with bench/core_bench.c. */
#define IK2D_LOCKSTEP 4

/* CCD on count (1..IK2D_LOCKSTEP) poses at once, each with exactly the
** result ik2d_ccd_run gives it; used[k] gets pose k's iterations. */
void ik2d_ccd_run_together(ik2d_pose *const *poses, int *used, int count);

#endif
