/*
** luaik_solver.c: ik2d.solver, its options and its setters.
**
** Options are table-driven: each has a name, a kind (how a Lua value
** becomes a C one) and the field of ik2d_solver_def it writes.  A setter
** (s:set_tolerance(t)) and an option (tolerance = t) convert the value
** with the same code and hand the def to the same core check, so they
** accept the same values and word the same errors.
*/
#include <stddef.h>
#include <string.h>

#include "lua.h"
#include "lauxlib.h"

#include "luaik.h"

ik2d_solver *luaik_check_solver(lua_State *L, int arg) {
  ik2d_solver *solver =
      (ik2d_solver *)luaik_check_object(L, arg, LUAIK_SOLVER, "solver");
  if (luaik_box_of(ik2d_solver_chain(solver))->collected)
    luaik_arg_error(L, arg, "chain was collected");
  return solver;
}

/* ------------------------------------------------------------------ */
/* options                                                              */
/* ------------------------------------------------------------------ */

typedef enum option_kind {
  OPTION_NUMBER,   /* a number or a numeric string, into a double */
  OPTION_WHOLE,    /* a whole number, into an int */
  OPTION_BOOLEAN,  /* true or false, into a bool */
  OPTION_CHOICE,   /* one of the choices' strings, into an enum */
  OPTION_ANGLE,    /* a number, or false for none: tip_angle */
  OPTION_POINT     /* {x, y} (or {x =, y =}), or false for none: pole */
} option_kind;

static const char *const method_names[] = {"ccd", "fabrik", "two_bone", "follow", NULL};
static const char *const sweep_names[] = {"root", "tip", NULL};
static const char *const curve_names[] = {"smooth", "spine", NULL};

typedef struct solver_option {
  const char *name;
  option_kind kind;
  size_t offset;                 /* of the field in ik2d_solver_def */
  const char *const *choices;    /* OPTION_CHOICE */
} solver_option;

#define OPTION(name, kind, choices) \
  {#name, kind, offsetof(ik2d_solver_def, name), choices}

static const solver_option options[] = {
  OPTION(method, OPTION_CHOICE, method_names),
  OPTION(iterations, OPTION_WHOLE, NULL),
  OPTION(tolerance, OPTION_NUMBER, NULL),
  OPTION(weight, OPTION_NUMBER, NULL),
  OPTION(damping, OPTION_NUMBER, NULL),
  OPTION(warm_start, OPTION_BOOLEAN, NULL),
  OPTION(exact, OPTION_BOOLEAN, NULL),
  OPTION(sweep, OPTION_CHOICE, sweep_names),
  OPTION(bend, OPTION_WHOLE, NULL),
  OPTION(softness, OPTION_NUMBER, NULL),
  OPTION(softness_curve, OPTION_CHOICE, curve_names),
  OPTION(stretch, OPTION_NUMBER, NULL),
  OPTION(compress, OPTION_NUMBER, NULL),
  OPTION(uniform, OPTION_BOOLEAN, NULL),
  OPTION(tip_angle, OPTION_ANGLE, NULL),
  OPTION(tip_weight, OPTION_NUMBER, NULL),
  OPTION(pole, OPTION_POINT, NULL),
  OPTION(priority, OPTION_NUMBER, NULL),
  OPTION(together, OPTION_BOOLEAN, NULL),
  {NULL, OPTION_NUMBER, 0, NULL}
};

enum { OPT_METHOD, OPT_ITERATIONS, OPT_TOLERANCE, OPT_WEIGHT };

static const solver_option *find_option(const char *name) {
  const solver_option *o;
  for (o = options; o->name != NULL; o++)
    if (strcmp(o->name, name) == 0) return o;
  return NULL;
}

/* The enum field behind a choice option, by the index of its name. */
static void set_choice(ik2d_solver_def *def, const solver_option *o, int k) {
  if (o->choices == method_names) def->method = (ik2d_method)k;
  else if (o->choices == sweep_names) def->sweep = (ik2d_sweep)k;
  else def->softness_curve = (ik2d_softness_curve)k;
}

static int get_choice(const ik2d_solver_def *def, const solver_option *o) {
  if (o->choices == method_names) return (int)def->method;
  if (o->choices == sweep_names) return (int)def->sweep;
  return (int)def->softness_curve;
}

/* {x, y} or {x =, y =} at index into *x, *y. */
static void read_point(lua_State *L, int index, int arg, const char *what, double *x,
                       double *y) {
  int top = lua_gettop(L);
  lua_rawgeti(L, index, 1);
  if (lua_isnil(L, -1)) {
    lua_pop(L, 1);
    luaik_rawfield(L, index, "x");
  }
  lua_rawgeti(L, index, 2);
  if (lua_isnil(L, -1)) {
    lua_pop(L, 1);
    luaik_rawfield(L, index, "y");
  }
  *x = luaik_number_at(L, top + 1, arg, lua_pushfstring(L, "%s x", what));
  *y = luaik_number_at(L, top + 2, arg, lua_pushfstring(L, "%s y", what));
  lua_settop(L, top);
}

/* Converts the value at index into option o's field of def. */
static void read_option(lua_State *L, int index, int arg, const solver_option *o,
                        ik2d_solver_def *def) {
  char *field = (char *)def + o->offset;
  switch (o->kind) {
    case OPTION_NUMBER:
      *(double *)(void *)field = luaik_number_at(L, index, arg, o->name);
      break;
    case OPTION_WHOLE:
      *(int *)(void *)field = luaik_whole_at(L, index, arg, o->name);
      break;
    case OPTION_BOOLEAN:
      *(bool *)(void *)field = luaik_boolean_at(L, index, arg, o->name);
      break;
    case OPTION_CHOICE:
      set_choice(def, o, luaik_choice_at(L, index, arg, o->name, o->choices));
      break;
    case OPTION_ANGLE:
      def->tip = !(lua_isboolean(L, index) && !lua_toboolean(L, index));
      if (def->tip) def->tip_angle = luaik_number_at(L, index, arg, o->name);
      break;
    case OPTION_POINT:
      def->pole = !(lua_isboolean(L, index) && !lua_toboolean(L, index));
      if (!def->pole) break;
      if (!lua_istable(L, index))
        luaik_arg_errorf(L, arg, "%s: {x, y} or false expected, got %s", o->name,
                         luaik_typename(L, index));
      read_point(L, index, arg, o->name, &def->pole_x, &def->pole_y);
      break;
  }
}

/* Pushes option o's field of def as a Lua value. */
static void push_option(lua_State *L, const solver_option *o,
                        const ik2d_solver_def *def) {
  const char *field = (const char *)def + o->offset;
  switch (o->kind) {
    case OPTION_NUMBER: lua_pushnumber(L, *(const double *)(const void *)field); break;
    case OPTION_WHOLE: lua_pushinteger(L, *(const int *)(const void *)field); break;
    case OPTION_BOOLEAN: lua_pushboolean(L, *(const bool *)(const void *)field); break;
    case OPTION_CHOICE: lua_pushstring(L, o->choices[get_choice(def, o)]); break;
    case OPTION_ANGLE:
      if (def->tip) lua_pushnumber(L, def->tip_angle);
      else lua_pushboolean(L, 0);
      break;
    case OPTION_POINT:
      if (!def->pole) {
        lua_pushboolean(L, 0);
        break;
      }
      lua_createtable(L, 2, 0);
      lua_pushnumber(L, def->pole_x);
      lua_rawseti(L, -2, 1);
      lua_pushnumber(L, def->pole_y);
      lua_rawseti(L, -2, 2);
      break;
  }
}

/* Every option of the table at t into def; unknown names raise. */
static void read_options(lua_State *L, int t, int arg, ik2d_solver_def *def) {
  lua_pushnil(L);
  while (lua_next(L, t) != 0) {
    const solver_option *o = NULL;
    if (lua_type(L, -2) == LUA_TSTRING) o = find_option(lua_tostring(L, -2));
    if (o == NULL) {
      if (lua_type(L, -2) == LUA_TSTRING)
        luaik_arg_errorf(L, arg, "unknown option '%s'", lua_tostring(L, -2));
      luaik_arg_errorf(L, arg, "option names are strings, got %s",
                       luaik_typename(L, -2));
    }
    read_option(L, lua_gettop(L), arg, o, def);
    lua_pop(L, 1);
  }
}

/* s:set_<option>(value): one option, as set_options would take it. */
static int set_option(lua_State *L, const solver_option *o) {
  ik2d_solver *solver = luaik_check_solver(L, 1);
  ik2d_solver_def def = ik2d_solver_get_def(solver);
  read_option(L, 2, 2, o, &def);
  luaik_check_status(L, 2, ik2d_solver_set_def(solver, &def));
  return 0;
}

static int get_option(lua_State *L, const solver_option *o) {
  ik2d_solver_def def = ik2d_solver_get_def(luaik_check_solver(L, 1));
  push_option(L, o, &def);
  return 1;
}

/* ------------------------------------------------------------------ */
/* solvers                                                              */
/* ------------------------------------------------------------------ */

int luaik_solver_new(lua_State *L) {
  ik2d_chain *chain = luaik_check_chain(L, 1);
  ik2d_solver_def def = ik2d_default_solver_def();
  ik2d_solver *solver;
  ik2d_status status;
  size_t size = ik2d_solver_size(ik2d_chain_bone_count(chain));
  if (!lua_isnoneornil(L, 2)) {
    luaik_check_table(L, 2);
    read_options(L, 2, 2, &def);
    /* still alive after the reading (nothing in it can run Lua today) */
    chain = luaik_check_chain(L, 1);
  }
  lua_settop(L, 1);
  solver = (ik2d_solver *)luaik_new_object(L, size, LUAIK_SOLVER);
  status = ik2d_solver_init(solver, size, chain, &def);
  /* a full skeleton is the chain's doing, not the options' */
  luaik_check_status(L, status == IK2D_ERR_SKELETON_SOLVERS ? 1 : 2, status);
  /* the solver keeps its chain alive */
  luaik_anchor(L, 2, 1);
  luaik_skeleton_solver_made(L, chain);
  return 1;
}

static int solver_chain(lua_State *L) {
  luaik_check_solver(L, 1);
  luaik_anchored(L, 1);
  return 1;
}

static int solver_set_target(lua_State *L) {
  ik2d_solver *solver = luaik_check_solver(L, 1);
  double x = luaik_check_number(L, 2), y = luaik_check_number(L, 3);
  ik2d_status status = ik2d_solver_set_target(solver, x, y);
  luaik_check_status(L, status == IK2D_ERR_TARGET_Y ? 3 : 2, status);
  return 0;
}

static int solver_target(lua_State *L) {
  double x, y;
  ik2d_solver_target(luaik_check_solver(L, 1), &x, &y);
  lua_pushnumber(L, x);
  lua_pushnumber(L, y);
  return 2;
}

static int solver_set_weight(lua_State *L) { return set_option(L, &options[OPT_WEIGHT]); }
static int solver_weight(lua_State *L) { return get_option(L, &options[OPT_WEIGHT]); }
static int solver_set_iterations(lua_State *L) {
  return set_option(L, &options[OPT_ITERATIONS]);
}
static int solver_iterations(lua_State *L) {
  return get_option(L, &options[OPT_ITERATIONS]);
}
static int solver_set_tolerance(lua_State *L) {
  return set_option(L, &options[OPT_TOLERANCE]);
}
static int solver_tolerance(lua_State *L) { return get_option(L, &options[OPT_TOLERANCE]); }
static int solver_method(lua_State *L) { return get_option(L, &options[OPT_METHOD]); }

/* All or nothing: the options go into a copy of the def, which the core
** checks whole. */
static int solver_set_options(lua_State *L) {
  ik2d_solver *solver = luaik_check_solver(L, 1);
  ik2d_solver_def def = ik2d_solver_get_def(solver);
  luaik_check_table(L, 2);
  read_options(L, 2, 2, &def);
  /* a solver finalised meanwhile raises rather than change */
  solver = luaik_check_solver(L, 1);
  luaik_check_status(L, 2, ik2d_solver_set_def(solver, &def));
  return 0;
}

/* Every option's value, in t (or a new table). */
static int solver_options(lua_State *L) {
  ik2d_solver_def def = ik2d_solver_get_def(luaik_check_solver(L, 1));
  const solver_option *o;
  luaik_push_table_arg(L, 2);
  for (o = options; o->name != NULL; o++) {
    push_option(L, o, &def);
    luaik_rawsetfield(L, 2, o->name);
  }
  return 1;
}

/* s:set_tip_angle(a [, weight]): the core's statuses name which is off */
static int solver_set_tip_angle(lua_State *L) {
  ik2d_solver *solver = luaik_check_solver(L, 1);
  double angle = luaik_check_number(L, 2), weight = luaik_opt_number(L, 3, 1.0);
  ik2d_status status = ik2d_solver_set_tip_angle(solver, angle, weight);
  luaik_check_status(L, status == IK2D_ERR_TIP_WEIGHT ? 3 : 2, status);
  return 0;
}

/* a, weight; nil when the last bone is free */
static int solver_tip_angle(lua_State *L) {
  ik2d_solver_def def = ik2d_solver_get_def(luaik_check_solver(L, 1));
  if (!def.tip) return 0;
  lua_pushnumber(L, def.tip_angle);
  lua_pushnumber(L, def.tip_weight);
  return 2;
}

static int solver_clear_tip_angle(lua_State *L) {
  ik2d_solver_clear_tip_angle(luaik_check_solver(L, 1));
  return 0;
}

static int solver_set_pole(lua_State *L) {
  ik2d_solver *solver = luaik_check_solver(L, 1);
  double x = luaik_check_number(L, 2), y = luaik_check_number(L, 3);
  ik2d_status status = ik2d_solver_set_pole(solver, x, y);
  luaik_check_status(L, status == IK2D_ERR_POLE_Y ? 3 : 2, status);
  return 0;
}

/* x, y; nil when there is none */
static int solver_pole(lua_State *L) {
  ik2d_solver_def def = ik2d_solver_get_def(luaik_check_solver(L, 1));
  if (!def.pole) return 0;
  lua_pushnumber(L, def.pole_x);
  lua_pushnumber(L, def.pole_y);
  return 2;
}

static int solver_clear_pole(lua_State *L) {
  ik2d_solver_clear_pole(luaik_check_solver(L, 1));
  return 0;
}

static int solver_forget(lua_State *L) {
  ik2d_solver_forget(luaik_check_solver(L, 1));
  return 0;
}

static int push_result(lua_State *L, const ik2d_solver *solver) {
  const ik2d_result *result = ik2d_solver_result(solver);
  lua_pushboolean(L, result->reached);
  lua_pushnumber(L, result->distance);
  lua_pushinteger(L, result->iterations);
  lua_pushboolean(L, result->limited);
  return 4;
}

static int solver_solve(lua_State *L) {
  ik2d_solver *solver = luaik_check_solver(L, 1);
  ik2d_solver_solve(solver);
  return push_result(L, solver);
}

static int solver_result(lua_State *L) {
  return push_result(L, luaik_check_solver(L, 1));
}

int luaik_solver_gc(lua_State *L) {
  ik2d_solver *solver = (ik2d_solver *)luaik_test_object(L, 1, LUAIK_SOLVER);
  if (solver != NULL && !luaik_box_of(solver)->collected) ik2d_solver_release(solver);
  return luaik_gc(L);
}

static int solver_tostring(lua_State *L) {
  ik2d_solver *solver = (ik2d_solver *)luaik_test_object(L, 1, LUAIK_SOLVER);
  if (solver == NULL || luaik_box_of(solver)->collected) {
    lua_pushliteral(L, "ik2d.Solver(collected)");
  } else {
    ik2d_solver_def def = ik2d_solver_get_def(solver);
    double x, y;
    ik2d_solver_target(solver, &x, &y);
    lua_pushfstring(L, "ik2d.Solver(%s, target %f, %f, weight %f)",
                    method_names[def.method], x, y, def.weight);
  }
  return 1;
}

const luaL_Reg luaik_solver_methods[] = {
  {"chain", solver_chain},
  {"set_target", solver_set_target},
  {"target", solver_target},
  {"set_weight", solver_set_weight},
  {"weight", solver_weight},
  {"set_iterations", solver_set_iterations},
  {"iterations", solver_iterations},
  {"set_tolerance", solver_set_tolerance},
  {"tolerance", solver_tolerance},
  {"set_options", solver_set_options},
  {"options", solver_options},
  {"method", solver_method},
  {"set_tip_angle", solver_set_tip_angle},
  {"tip_angle", solver_tip_angle},
  {"clear_tip_angle", solver_clear_tip_angle},
  {"set_pole", solver_set_pole},
  {"pole", solver_pole},
  {"clear_pole", solver_clear_pole},
  {"forget", solver_forget},
  {"solve", solver_solve},
  {"result", solver_result},
  {NULL, NULL}
};

const luaL_Reg luaik_solver_meta[] = {
  {"__tostring", solver_tostring},
  {"__gc", luaik_solver_gc},
  {NULL, NULL}
};
