/* generated from lua/ik2d/api.lua by make gen: src/lua/luaik_api.h */
/*
** luaik_api.h: the options of ik2d.solver, ik2d.spring and
** ik2d.transform_constraint (its plain ones), one row each,
** as lua/ik2d/api.lua describes them: the Lua name, how a Lua value
** becomes the C field (luaik_option_kind) and where the field is.
*/
#ifndef LUAIK_API_H
#define LUAIK_API_H

#include <stddef.h>

#include "../ik2d.h"

typedef enum luaik_option_kind {
  LUAIK_OPTION_NUMBER,  /* a number or a numeric string, into a double */
  LUAIK_OPTION_WHOLE,   /* a whole number, into an int */
  LUAIK_OPTION_BOOLEAN, /* true or false, into a bool */
  LUAIK_OPTION_CHOICE,  /* one of the choices' strings, into an enum */
  LUAIK_OPTION_ANGLE,   /* a number into field, or false: the switch off */
  LUAIK_OPTION_POINT,   /* {x, y} or {x =, y =} into x, y, or false: the switch off */
  LUAIK_OPTION_VECTOR,  /* {x, y} into x, y */
  LUAIK_OPTION_RAY,     /* {x =, y =, angle =} or {x, y, angle} into x, y, angle, or
                           false: the switch off */
  /* a number into field (array NULL), or a table of one number per bone:
  ** array points at them (a luaik_arrays slot) */
  LUAIK_OPTION_NUMBER_OR_ARRAY
} luaik_option_kind;

typedef struct luaik_option {
  const char *name;
  luaik_option_kind kind;
  size_t field;                      /* the double, int or bool; a point's or ray's switch */
  size_t x, y;                       /* a point's, vector's or ray's doubles */
  size_t angle;                      /* a ray's angle (a double) */
  size_t on;                         /* an angle's switch (a bool) */
  const char *const *choices;        /* a choice's names, NULL-ended */
  int (*get_choice)(const void *def);
  void (*set_choice)(void *def, int choice);
  int required;                      /* a bone field read even when nil */
  size_t array;                      /* a number_or_array's const double * */
} luaik_option;

/* the most number_or_array options one def has */
#define LUAIK_ARRAYS 3

/* each choice's Lua names, in the order of its C enum, NULL-ended */
extern const char *const luaik_space_names[];
extern const char *const luaik_method_names[];
extern const char *const luaik_sweep_names[];
extern const char *const luaik_softness_curve_names[];
extern const char *const luaik_inherit_names[];
extern const char *const luaik_channel_names[];
extern const char *const luaik_attachment_kind_names[];
extern const char *const luaik_blend_names[];
extern const char *const luaik_collider_shape_names[];
/* the fields a table for each def may have, NULL-ended */
extern const char *const luaik_constraint_fields[];
extern const char *const luaik_bone_fields[];
extern const char *const luaik_chain_fields[];
extern const char *const luaik_skeleton_bone_fields[];
extern const char *const luaik_skeleton_fields[];
extern const char *const luaik_collider_fields[];
extern const char *const luaik_transform_constraint_fields[];

/* NULL-name-ended */
extern const luaik_option luaik_solver_options[];
extern const luaik_option luaik_spring_options[];
/* the plain fields of a chain's and a skeleton's bone tables */
extern const luaik_option luaik_bone_options[];
extern const luaik_option luaik_skeleton_bone_options[];
/* a transform constraint's plain options (its bones and target are names) */
extern const luaik_option luaik_transform_constraint_options[];

/* each option's row */
enum {
  LUAIK_SOLVER_METHOD,
  LUAIK_SOLVER_ITERATIONS,
  LUAIK_SOLVER_TOLERANCE,
  LUAIK_SOLVER_WEIGHT,
  LUAIK_SOLVER_WARM_START,
  LUAIK_SOLVER_DAMPING,
  LUAIK_SOLVER_EXACT,
  LUAIK_SOLVER_SWEEP,
  LUAIK_SOLVER_BEND,
  LUAIK_SOLVER_SOFTNESS,
  LUAIK_SOLVER_SOFTNESS_CURVE,
  LUAIK_SOLVER_STRETCH,
  LUAIK_SOLVER_COMPRESS,
  LUAIK_SOLVER_UNIFORM,
  LUAIK_SOLVER_TIP_ANGLE,
  LUAIK_SOLVER_TIP_WEIGHT,
  LUAIK_SOLVER_POLE,
  LUAIK_SOLVER_PRIORITY,
  LUAIK_SOLVER_TOGETHER,
  LUAIK_SOLVER_AIM
};
enum {
  LUAIK_SPRING_STIFFNESS,
  LUAIK_SPRING_DAMPING,
  LUAIK_SPRING_MASS,
  LUAIK_SPRING_GRAVITY,
  LUAIK_SPRING_WIND,
  LUAIK_SPRING_WEIGHT
};

/* The argument a status of a setter of several values blames: a field's
** status its argument's (2 for the setter's first), a rule's the object's
** (1). */
int luaik_solver_tip_angle_arg(ik2d_status status);
int luaik_solver_pole_arg(ik2d_status status);
int luaik_solver_aim_arg(ik2d_status status);
int luaik_spring_gravity_arg(ik2d_status status);
int luaik_spring_wind_arg(ik2d_status status);

#endif
