/*
** luaik_solver.c: ik2d.solver, its options and its setters.
**
** Options are the rows of luaik_api.c (generated from lua/ik2d/api.lua),
** read by luaik_options.c: a setter (s:set_tolerance(t)) and an option
** (tolerance = t) convert the value with the same code and hand the def
** to the same core check, so they accept the same values and word the
** same errors.
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

/* s:set_<option>(value): one option, as set_options would take it. */
static int set_option(lua_State *L, int row) {
  ik2d_solver *solver = luaik_check_solver(L, 1);
  ik2d_solver_def def = ik2d_solver_get_def(solver);
  luaik_read_option(L, 2, 2, &luaik_solver_options[row], &def);
  luaik_check_status(L, 2, ik2d_solver_set_def(solver, &def));
  return 0;
}

static int get_option(lua_State *L, int row) {
  ik2d_solver_def def = ik2d_solver_get_def(luaik_check_solver(L, 1));
  luaik_push_option(L, &luaik_solver_options[row], &def);
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
    luaik_read_options(L, 2, 2, luaik_solver_options, &def, NULL);
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
  bool on_bone = ik2d_solver_target_bone(solver, NULL, NULL, NULL) >= 0;
  ik2d_status status = ik2d_solver_set_target(solver, x, y);
  luaik_check_status(L, status == IK2D_ERR_TARGET_Y ? 3 : 2, status);
  /* the bone's skeleton is no longer held */
  if (on_bone) luaik_anchor_target(L, 1, 0);
  return 0;
}

/* s:set_target_bone(sk, bone [, dx, dy]) */
static int solver_set_target_bone(lua_State *L) {
  ik2d_solver *solver = luaik_check_solver(L, 1), *other = NULL;
  ik2d_skeleton *sk = luaik_check_skeleton(L, 2);
  int bone = luaik_bone_arg(L, 2, 3);
  double dx = luaik_opt_number(L, 4, 0.0), dy = luaik_opt_number(L, 5, 0.0);
  ik2d_status status = ik2d_solver_set_target_bone(solver, sk, bone, dx, dy, &other);
  if (status == IK2D_ERR_TARGET_CYCLE) luaik_cycle_error(L, 2, 3, solver, other);
  luaik_check_status(L, status == IK2D_ERR_TARGET_Y ? 5 : 4, status);
  /* the solver holds the skeleton while its target is there */
  luaik_anchor_target(L, 1, 2);
  luaik_state_of(L)->bone_targets++;
  return 0;
}

/* sk, bone name, dx, dy; nothing for a world target */
static int solver_target_bone(lua_State *L) {
  ik2d_skeleton *sk = NULL;
  double dx = 0.0, dy = 0.0;
  int bone = ik2d_solver_target_bone(luaik_check_solver(L, 1), &sk, &dx, &dy);
  if (bone < 0) return 0;
  lua_settop(L, 1);
  luaik_anchored_target(L, 1);
  luaik_bone_name(L, 2, bone);
  lua_pushnumber(L, dx);
  lua_pushnumber(L, dy);
  return 4;
}

static int solver_clear_target_bone(lua_State *L) {
  ik2d_solver_clear_target_bone(luaik_check_solver(L, 1));
  luaik_anchor_target(L, 1, 0);
  return 0;
}

static int solver_target(lua_State *L) {
  double x, y;
  ik2d_solver_target(luaik_check_solver(L, 1), &x, &y);
  lua_pushnumber(L, x);
  lua_pushnumber(L, y);
  return 2;
}

static int solver_set_weight(lua_State *L) { return set_option(L, LUAIK_SOLVER_WEIGHT); }
static int solver_weight(lua_State *L) { return get_option(L, LUAIK_SOLVER_WEIGHT); }
static int solver_set_iterations(lua_State *L) {
  return set_option(L, LUAIK_SOLVER_ITERATIONS);
}
static int solver_iterations(lua_State *L) {
  return get_option(L, LUAIK_SOLVER_ITERATIONS);
}
static int solver_set_tolerance(lua_State *L) {
  return set_option(L, LUAIK_SOLVER_TOLERANCE);
}
static int solver_tolerance(lua_State *L) { return get_option(L, LUAIK_SOLVER_TOLERANCE); }
static int solver_method(lua_State *L) { return get_option(L, LUAIK_SOLVER_METHOD); }

/* All or nothing: the options go into a copy of the def, which the core
** checks whole. */
static int solver_set_options(lua_State *L) {
  ik2d_solver *solver = luaik_check_solver(L, 1);
  ik2d_solver_def def = ik2d_solver_get_def(solver);
  luaik_check_table(L, 2);
  luaik_read_options(L, 2, 2, luaik_solver_options, &def, NULL);
  /* a solver finalised meanwhile raises rather than change */
  solver = luaik_check_solver(L, 1);
  luaik_check_status(L, 2, ik2d_solver_set_def(solver, &def));
  return 0;
}

/* Every option's value, in t (or a new table). */
static int solver_options(lua_State *L) {
  ik2d_solver_def def = ik2d_solver_get_def(luaik_check_solver(L, 1));
  luaik_push_table_arg(L, 2);
  luaik_push_options(L, 2, luaik_solver_options, &def, 0);
  return 1;
}

/* s:set_tip_angle(a [, weight]): the core's statuses name which is off
** (an aim set already: the solver) */
static int solver_set_tip_angle(lua_State *L) {
  ik2d_solver *solver = luaik_check_solver(L, 1);
  double angle = luaik_check_number(L, 2), weight = luaik_opt_number(L, 3, 1.0);
  ik2d_status status = ik2d_solver_set_tip_angle(solver, angle, weight);
  luaik_check_status(L, luaik_solver_tip_angle_arg(status), status);
  return 0;
}

/* a, weight; nil when the last bone is free */
static int solver_tip_angle(lua_State *L) {
  ik2d_solver_def def = ik2d_solver_get_def(luaik_check_solver(L, 1));
  if (!def.tip.enabled) return 0;
  lua_pushnumber(L, def.tip.angle);
  lua_pushnumber(L, def.tip.weight);
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
  luaik_check_status(L, luaik_solver_pole_arg(status), status);
  return 0;
}

/* x, y; nil when there is none */
static int solver_pole(lua_State *L) {
  ik2d_solver_def def = ik2d_solver_get_def(luaik_check_solver(L, 1));
  if (!def.pole.enabled) return 0;
  lua_pushnumber(L, def.pole.x);
  lua_pushnumber(L, def.pole.y);
  return 2;
}

static int solver_clear_pole(lua_State *L) {
  ik2d_solver_clear_pole(luaik_check_solver(L, 1));
  return 0;
}

/* s:set_aim(x, y, angle): the argument that is off, or the solver when
** its method or tip angle forbids an aim */
static int solver_set_aim(lua_State *L) {
  ik2d_solver *solver = luaik_check_solver(L, 1);
  double x = luaik_check_number(L, 2), y = luaik_check_number(L, 3);
  double angle = luaik_check_number(L, 4);
  ik2d_status status = ik2d_solver_set_aim(solver, x, y, angle);
  luaik_check_status(L, luaik_solver_aim_arg(status), status);
  return 0;
}

/* x, y, angle; nil when there is none */
static int solver_aim(lua_State *L) {
  ik2d_solver_def def = ik2d_solver_get_def(luaik_check_solver(L, 1));
  if (!def.aim.enabled) return 0;
  lua_pushnumber(L, def.aim.x);
  lua_pushnumber(L, def.aim.y);
  lua_pushnumber(L, def.aim.angle);
  return 3;
}

static int solver_clear_aim(lua_State *L) {
  ik2d_solver_clear_aim(luaik_check_solver(L, 1));
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
                    luaik_solver_options[LUAIK_SOLVER_METHOD].choices[def.method], x, y, def.weight);
  }
  return 1;
}

const luaL_Reg luaik_solver_methods[] = {
  {"chain", solver_chain},
  {"set_target", solver_set_target},
  {"target", solver_target},
  {"set_target_bone", solver_set_target_bone},
  {"target_bone", solver_target_bone},
  {"clear_target_bone", solver_clear_target_bone},
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
  {"set_aim", solver_set_aim},
  {"aim", solver_aim},
  {"clear_aim", solver_clear_aim},
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
