/* generated from lua/ik2d/api.lua by make gen: src/lua/luaik_api.c */
/*
** luaik_api.c: the option tables luaik_api.h declares, and which argument
** a setter's status blames.
*/
#include <stddef.h>

#include "../ik2d.h"
#include "luaik_api.h"

const char *const luaik_space_names[] = {"parent", "world", NULL};
const char *const luaik_method_names[] = {"ccd", "fabrik", "two_bone", "follow", NULL};
const char *const luaik_sweep_names[] = {"root", "tip", NULL};
const char *const luaik_softness_curve_names[] = {"smooth", "spine", NULL};
const char *const luaik_inherit_names[] = {"all", "position", NULL};
const char *const luaik_collider_shape_names[] = {"circle", "segment", NULL};

const char *const luaik_constraint_fields[] = {"min", "max", "invert", "space", NULL};
const char *const luaik_bone_fields[] = {"length", "angle", "min", "max", "invert", "space", NULL};
const char *const luaik_chain_fields[] = {"x", "y", "angle", "flip", NULL};
const char *const luaik_skeleton_bone_fields[] = {"name", "parent", "length", "angle", "x", "y", "min", "max", "invert", "space", "inherit", NULL};
const char *const luaik_skeleton_fields[] = {"x", "y", "angle", "flip", NULL};
const char *const luaik_collider_fields[] = {"x", "y", "radius", "x1", "y1", "x2", "y2", NULL};

static int solver_get_method(const void *def) {
  return (int)((const ik2d_solver_def *)def)->method;
}
static void solver_set_method(void *def, int choice) {
  ((ik2d_solver_def *)def)->method = (ik2d_method)choice;
}
static int solver_get_sweep(const void *def) {
  return (int)((const ik2d_solver_def *)def)->ccd.sweep;
}
static void solver_set_sweep(void *def, int choice) {
  ((ik2d_solver_def *)def)->ccd.sweep = (ik2d_sweep)choice;
}
static int solver_get_softness_curve(const void *def) {
  return (int)((const ik2d_solver_def *)def)->two_bone.softness_curve;
}
static void solver_set_softness_curve(void *def, int choice) {
  ((ik2d_solver_def *)def)->two_bone.softness_curve = (ik2d_softness_curve)choice;
}

const luaik_option luaik_solver_options[] = {
  {"method", LUAIK_OPTION_CHOICE, offsetof(ik2d_solver_def, method),
   0, 0, 0, 0, luaik_method_names, solver_get_method, solver_set_method, 0, 0},
  {"iterations", LUAIK_OPTION_WHOLE, offsetof(ik2d_solver_def, iterations),
   0, 0, 0, 0, NULL, NULL, NULL, 0, 0},
  {"tolerance", LUAIK_OPTION_NUMBER, offsetof(ik2d_solver_def, tolerance),
   0, 0, 0, 0, NULL, NULL, NULL, 0, 0},
  {"weight", LUAIK_OPTION_NUMBER, offsetof(ik2d_solver_def, weight),
   0, 0, 0, 0, NULL, NULL, NULL, 0, 0},
  {"warm_start", LUAIK_OPTION_BOOLEAN, offsetof(ik2d_solver_def, warm_start),
   0, 0, 0, 0, NULL, NULL, NULL, 0, 0},
  {"damping", LUAIK_OPTION_NUMBER, offsetof(ik2d_solver_def, ccd.damping),
   0, 0, 0, 0, NULL, NULL, NULL, 0, 0},
  {"exact", LUAIK_OPTION_BOOLEAN, offsetof(ik2d_solver_def, ccd.exact),
   0, 0, 0, 0, NULL, NULL, NULL, 0, 0},
  {"sweep", LUAIK_OPTION_CHOICE, offsetof(ik2d_solver_def, ccd.sweep),
   0, 0, 0, 0, luaik_sweep_names, solver_get_sweep, solver_set_sweep, 0, 0},
  {"bend", LUAIK_OPTION_WHOLE, offsetof(ik2d_solver_def, two_bone.bend),
   0, 0, 0, 0, NULL, NULL, NULL, 0, 0},
  {"softness", LUAIK_OPTION_NUMBER, offsetof(ik2d_solver_def, two_bone.softness),
   0, 0, 0, 0, NULL, NULL, NULL, 0, 0},
  {"softness_curve", LUAIK_OPTION_CHOICE, offsetof(ik2d_solver_def, two_bone.softness_curve),
   0, 0, 0, 0, luaik_softness_curve_names, solver_get_softness_curve, solver_set_softness_curve, 0, 0},
  {"stretch", LUAIK_OPTION_NUMBER, offsetof(ik2d_solver_def, two_bone.stretch),
   0, 0, 0, 0, NULL, NULL, NULL, 0, 0},
  {"compress", LUAIK_OPTION_NUMBER, offsetof(ik2d_solver_def, two_bone.compress),
   0, 0, 0, 0, NULL, NULL, NULL, 0, 0},
  {"uniform", LUAIK_OPTION_BOOLEAN, offsetof(ik2d_solver_def, two_bone.uniform),
   0, 0, 0, 0, NULL, NULL, NULL, 0, 0},
  {"tip_angle", LUAIK_OPTION_ANGLE, offsetof(ik2d_solver_def, tip.angle),
   0, 0, 0, offsetof(ik2d_solver_def, tip.enabled), NULL, NULL, NULL, 0, 0},
  {"tip_weight", LUAIK_OPTION_NUMBER, offsetof(ik2d_solver_def, tip.weight),
   0, 0, 0, 0, NULL, NULL, NULL, 0, 0},
  {"pole", LUAIK_OPTION_POINT, offsetof(ik2d_solver_def, pole.enabled),
   offsetof(ik2d_solver_def, pole.x), offsetof(ik2d_solver_def, pole.y), 0, 0, NULL, NULL, NULL, 0, 0},
  {"priority", LUAIK_OPTION_NUMBER, offsetof(ik2d_solver_def, effector.priority),
   0, 0, 0, 0, NULL, NULL, NULL, 0, 0},
  {"together", LUAIK_OPTION_BOOLEAN, offsetof(ik2d_solver_def, effector.together),
   0, 0, 0, 0, NULL, NULL, NULL, 0, 0},
  {"aim", LUAIK_OPTION_RAY, offsetof(ik2d_solver_def, aim.enabled),
   offsetof(ik2d_solver_def, aim.x), offsetof(ik2d_solver_def, aim.y), offsetof(ik2d_solver_def, aim.angle), 0, NULL, NULL, NULL, 0, 0},
  {NULL, LUAIK_OPTION_NUMBER, 0, 0, 0, 0, 0, NULL, NULL, NULL, 0, 0}
};

const luaik_option luaik_spring_options[] = {
  {"stiffness", LUAIK_OPTION_NUMBER_OR_ARRAY, offsetof(ik2d_spring_def, stiffness),
   0, 0, 0, 0, NULL, NULL, NULL, 0, offsetof(ik2d_spring_def, stiffness_per_bone)},
  {"damping", LUAIK_OPTION_NUMBER_OR_ARRAY, offsetof(ik2d_spring_def, damping),
   0, 0, 0, 0, NULL, NULL, NULL, 0, offsetof(ik2d_spring_def, damping_per_bone)},
  {"mass", LUAIK_OPTION_NUMBER_OR_ARRAY, offsetof(ik2d_spring_def, mass),
   0, 0, 0, 0, NULL, NULL, NULL, 0, offsetof(ik2d_spring_def, mass_per_bone)},
  {"gravity", LUAIK_OPTION_VECTOR, offsetof(ik2d_spring_def, gravity_x),
   offsetof(ik2d_spring_def, gravity_x), offsetof(ik2d_spring_def, gravity_y), 0, 0, NULL, NULL, NULL, 0, 0},
  {"wind", LUAIK_OPTION_VECTOR, offsetof(ik2d_spring_def, wind_x),
   offsetof(ik2d_spring_def, wind_x), offsetof(ik2d_spring_def, wind_y), 0, 0, NULL, NULL, NULL, 0, 0},
  {"weight", LUAIK_OPTION_NUMBER, offsetof(ik2d_spring_def, weight),
   0, 0, 0, 0, NULL, NULL, NULL, 0, 0},
  {NULL, LUAIK_OPTION_NUMBER, 0, 0, 0, 0, 0, NULL, NULL, NULL, 0, 0}
};

const luaik_option luaik_bone_options[] = {
  {"length", LUAIK_OPTION_NUMBER, offsetof(ik2d_bone_def, length),
   0, 0, 0, 0, NULL, NULL, NULL, 1, 0},
  {"angle", LUAIK_OPTION_NUMBER, offsetof(ik2d_bone_def, rest),
   0, 0, 0, 0, NULL, NULL, NULL, 0, 0},
  {NULL, LUAIK_OPTION_NUMBER, 0, 0, 0, 0, 0, NULL, NULL, NULL, 0, 0}
};

const luaik_option luaik_skeleton_bone_options[] = {
  {"length", LUAIK_OPTION_NUMBER, offsetof(ik2d_skeleton_bone_def, length),
   0, 0, 0, 0, NULL, NULL, NULL, 1, 0},
  {"angle", LUAIK_OPTION_NUMBER, offsetof(ik2d_skeleton_bone_def, rest),
   0, 0, 0, 0, NULL, NULL, NULL, 0, 0},
  {NULL, LUAIK_OPTION_NUMBER, 0, 0, 0, 0, 0, NULL, NULL, NULL, 0, 0}
};

int luaik_solver_tip_angle_arg(ik2d_status status) {
  switch (status) {
    case IK2D_ERR_TIP_ANGLE: return 2;
    case IK2D_ERR_TIP_WEIGHT: return 3;
    default: return 1;
  }
}

int luaik_solver_pole_arg(ik2d_status status) {
  switch (status) {
    case IK2D_ERR_POLE_X: return 2;
    case IK2D_ERR_POLE_Y: return 3;
    default: return 1;
  }
}

int luaik_solver_aim_arg(ik2d_status status) {
  switch (status) {
    case IK2D_ERR_AIM_X: return 2;
    case IK2D_ERR_AIM_Y: return 3;
    case IK2D_ERR_AIM_ANGLE: return 4;
    default: return 1;
  }
}

int luaik_spring_gravity_arg(ik2d_status status) {
  switch (status) {
    case IK2D_ERR_GRAVITY_X: return 2;
    case IK2D_ERR_GRAVITY_Y: return 3;
    default: return 1;
  }
}

int luaik_spring_wind_arg(ik2d_status status) {
  switch (status) {
    case IK2D_ERR_WIND_X: return 2;
    case IK2D_ERR_WIND_Y: return 3;
    default: return 1;
  }
}
