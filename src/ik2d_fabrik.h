/*
** ik2d_fabrik.h: forward and backward reaching (not installed).
*/
#ifndef IK2D_FABRIK_H
#define IK2D_FABRIK_H

#include "ik2d_pose.h"

/* Turns the pose's start rotations into an IK solution; returns the
** iterations used. */
int ik2d_fabrik_run(ik2d_pose *pose);

#endif
