/*
** ik2d_aim.h: aiming a held object (not installed): a ray fixed to the
** last bone, turned through the target.
*/
#ifndef IK2D_AIM_H
#define IK2D_AIM_H

#include "ik2d.h"
#include "ik2d_chain.h"
#include "ik2d_math.h"
#include "ik2d_pose.h"

/* The target's distance from the aim's ray on the chain's result (angles
** and joints, as drawn); the target in world space. */
double ik2d_aim_chain_distance(const ik2d_chain *chain, const ik2d_aim_def *aim,
                               double target_x, double target_y);

/* An aimed run: run (the method, and the bend toward a pole) on the pose
** with its last bone swapped for the aim's virtual bone, whose tip is the
** point of the ray the solve puts on the target, the last bone's rotation
** back after it; then, when the ray still misses by more than the
** tolerance (a limit), aim turns while they gain and iterations last.
** Returns the iterations used. */
int ik2d_aim_run(ik2d_pose *pose, const ik2d_aim_def *aim, int (*run)(ik2d_pose *pose));

#endif
