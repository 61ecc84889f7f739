/*
** ik2d_follow.h: follow the leader, chains without a fixed base (not
** installed).
*/
#ifndef IK2D_FOLLOW_H
#define IK2D_FOLLOW_H

#include "ik2d_pose.h"

/* Drags the pose's start rotations after the target and moves
** pose->base_x/y where the drag leaves the base; returns the iterations
** used (1). */
int ik2d_follow_run(ik2d_pose *pose);

/* Puts pose->base_x/y one chain behind the target along the rotations as
** they are, so that the tip is on it; ik2d__solver_solve_finish calls it last,
** once a tip angle or a pole turned bones after the drag and the
** rotations are back on unit length; false, with nothing changed, when
** that base is beyond the largest double (here or mirrored back into
** world space). */
bool ik2d_follow_place(ik2d_pose *pose);

#endif
