/*
** ik2d_two_bone.h: the closed-form two-bone solver (not installed).
*/
#ifndef IK2D_TWO_BONE_H
#define IK2D_TWO_BONE_H

#include "ik2d_pose.h"

/* Turns the pose of a 2-bone chain into the IK solution; returns the
** iterations used (0 when the tip already was there, else 1). */
int ik2d_two_bone_run(ik2d_pose *pose);

#endif
