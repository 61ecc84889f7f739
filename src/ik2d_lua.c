/*
** ik2d_lua.c: the Lua binding, module ik2d.core.  Argument checking and
** conversion only: every computation is the core's (ik2d.h).
*/
#include <math.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>

#include "lua.h"
#include "lauxlib.h"

#include "ik2d.h"
#include "ik2d_compat.h"

#define CHAIN_TYPE "ik2d.Chain"
#define CONSTRAINT_TYPE "ik2d.Constraint"
#define SOLVER_TYPE "ik2d.Solver"
#define GROUP_TYPE "ik2d.Group"

#if defined(__GNUC__)
#define LUA_EXPORT __attribute__((visibility("default")))
#else
#define LUA_EXPORT
#endif

LUA_EXPORT int luaopen_ik2d_core(lua_State *L);

/* ------------------------------------------------------------------ */
/* argument checks                                                      */
/* ------------------------------------------------------------------ */

#define NAMES_KEY "ik2d.names"

/* "bad argument #arg to 'name' (message)" numbered as luaL_argerror
** numbers it (a colon call does not count self), but with the name taken
** from the table of our functions: the debug name is '?' under pcall. */
static int arg_error(lua_State *L, int arg, const char *message) {
  lua_Debug ar;
  const char *name = NULL;
  lua_getfield(L, LUA_REGISTRYINDEX, NAMES_KEY);
  if (lua_getstack(L, 0, &ar) && lua_getinfo(L, "nf", &ar)) {
    if (ar.namewhat != NULL && strcmp(ar.namewhat, "method") == 0) arg--;
    lua_rawget(L, -2);
    name = lua_tostring(L, -1);
  }
  luaL_where(L, 1);
  if (arg == 0) {
    /* self of a colon call, worded as luaL_argerror words it (not #0) */
    lua_pushfstring(L, "calling '%s' on bad self (%s)",
                    name != NULL ? name : "?", message);
    lua_concat(L, 2);
    return lua_error(L);
  }
  lua_pushfstring(L, "bad argument #%d to '%s' (%s)", arg,
                  name != NULL ? name : "?", message);
  lua_concat(L, 2);
  return lua_error(L);
}

static int type_error(lua_State *L, int arg, const char *expected) {
  return arg_error(L, arg, lua_pushfstring(L, "%s expected, got %s", expected,
                                           luaL_typename(L, arg)));
}

/* message, or "item N: message" for item N > 0 of a table argument */
static const char *item_message(lua_State *L, int item, const char *message) {
  return item > 0 ? lua_pushfstring(L, "item %d: %s", item, message) : message;
}

/* The number at index, checked as (part of) argument arg; item > 0 names
** the table item it was read from. */
static double number_at(lua_State *L, int index, int arg, int item) {
  if (!lua_isnumber(L, index))
    arg_error(L, arg, item_message(L, item, lua_pushfstring(L, "number expected, got %s",
                                                            luaL_typename(L, index))));
  return (double)lua_tonumber(L, index);
}

/* The same, and finite. */
static double finite_at(lua_State *L, int index, int arg, int item) {
  double value = number_at(L, index, arg, item);
  if (!isfinite(value)) {
    arg_error(L, arg, item_message(L, item, value != value ? "number must be finite, got nan"
                                                           : "number must be finite, got inf"));
  }
  return value;
}

static double check_number(lua_State *L, int arg) {
  return number_at(L, arg, arg, 0);
}

static void check_table(lua_State *L, int arg) {
  if (!lua_istable(L, arg)) type_error(L, arg, "table");
}

/* The userdata at index i if it is of the type, else NULL. */
static void *test_udata(lua_State *L, int i, const char *type) {
  void *p = lua_touserdata(L, i);
  int same = 0;
  if (p != NULL && lua_getmetatable(L, i)) {
    luaL_getmetatable(L, type);
    same = lua_rawequal(L, -1, -2);
    lua_pop(L, 2);
  }
  return same ? p : NULL;
}

static void *check_udata(lua_State *L, int arg, const char *type) {
  void *p = test_udata(L, arg, type);
  if (p == NULL) type_error(L, arg, type);
  return p;
}

static double check_finite(lua_State *L, int arg) {
  return finite_at(L, arg, arg, 0);
}

static double opt_finite(lua_State *L, int arg, double fallback) {
  return lua_isnoneornil(L, arg) ? fallback : check_finite(L, arg);
}

/* A whole number: luaL_checkinteger on 5.1 would truncate 1.5 silently. */
static int check_whole(lua_State *L, int arg, const char *what) {
  double value = check_number(L, arg);
  if (value != floor(value) || value < -2147483647.0 || value > 2147483647.0)
    return arg_error(L, arg, lua_pushfstring(L, "%s must be a whole number", what));
  return (int)value;
}

/* Raises a core status as an error on argument arg. */
static void check_status(lua_State *L, ik2d_status status, int arg) {
  if (status != IK2D_OK) arg_error(L, arg, ik2d_status_message(status));
}

/* Reads numeric field key of the table at index t (nil: fallback). */
static double field_number(lua_State *L, int t, const char *key,
                           double fallback, int arg, const char *owner) {
  double value = fallback;
  lua_getfield(L, t, key);
  if (!lua_isnil(L, -1)) {
    if (lua_type(L, -1) != LUA_TNUMBER)
      arg_error(L, arg, lua_pushfstring(L, "%s%s must be a number, got %s",
                                            owner, key, luaL_typename(L, -1)));
    value = (double)lua_tonumber(L, -1);
    if (!isfinite(value))
      arg_error(L, arg, lua_pushfstring(L, "%s%s must be finite", owner, key));
  }
  lua_pop(L, 1);
  return value;
}

static int field_present(lua_State *L, int t, const char *key) {
  int present;
  lua_getfield(L, t, key);
  present = !lua_isnil(L, -1);
  lua_pop(L, 1);
  return present;
}

static int field_boolean(lua_State *L, int t, const char *key, int fallback) {
  int value = fallback;
  lua_getfield(L, t, key);
  if (!lua_isnil(L, -1)) value = lua_toboolean(L, -1);
  lua_pop(L, 1);
  return value;
}


static void set_metatable(lua_State *L, const char *type) {
  luaL_getmetatable(L, type);
  lua_setmetatable(L, -2);
}

/* ------------------------------------------------------------------ */
/* constraints                                                          */
/* ------------------------------------------------------------------ */

static ik2d_constraint *check_constraint(lua_State *L, int arg) {
  return (ik2d_constraint *)check_udata(L, arg, CONSTRAINT_TYPE);
}

/* Pushes a new constraint built from the limit fields of table t. */
static ik2d_constraint *push_constraint(lua_State *L, int t, int arg,
                                        const char *owner) {
  double min, max;
  int invert;
  ik2d_constraint limits;
  ik2d_status status;
  if (!field_present(L, t, "min") || !field_present(L, t, "max"))
    arg_error(L, arg, lua_pushfstring(L, "%smin and max go together", owner));
  min = field_number(L, t, "min", 0.0, arg, owner);
  max = field_number(L, t, "max", 0.0, arg, owner);
  invert = field_boolean(L, t, "invert", 0);
  status = ik2d_constraint_set(&limits, min, max, invert);
  if (status != IK2D_OK)
    arg_error(L, arg, lua_pushfstring(L, "%s%s", owner, ik2d_status_message(status)));
  {
    ik2d_constraint *c = (ik2d_constraint *)lua_newuserdata(L, sizeof *c);
    *c = limits;
    set_metatable(L, CONSTRAINT_TYPE);
    return c;
  }
}

static int constraint_new(lua_State *L) {
  check_table(L, 1);
  push_constraint(L, 1, 1, "");
  return 1;
}

static int constraint_set_limits(lua_State *L) {
  ik2d_constraint *c = check_constraint(L, 1);
  double min = check_finite(L, 2), max = check_finite(L, 3);
  if (min > max) return arg_error(L, 2, "min > max");
  check_status(L, ik2d_constraint_set(c, min, max, c->invert), 2);
  return 0;
}

static int constraint_limits(lua_State *L) {
  ik2d_constraint *c = check_constraint(L, 1);
  lua_pushnumber(L, c->min);
  lua_pushnumber(L, c->max);
  lua_pushboolean(L, c->invert);
  return 3;
}

static int constraint_invert(lua_State *L) {
  lua_pushboolean(L, check_constraint(L, 1)->invert);
  return 1;
}

static int constraint_tostring(lua_State *L) {
  ik2d_constraint *c = check_constraint(L, 1);
  lua_pushfstring(L, "ik2d.Constraint(%f, %f%s)", c->min, c->max,
                  c->invert ? ", inverted" : "");
  return 1;
}

/* ------------------------------------------------------------------ */
/* chains                                                               */
/* ------------------------------------------------------------------ */

static ik2d_chain *check_chain(lua_State *L, int arg) {
  ik2d_chain *chain = (ik2d_chain *)check_udata(L, arg, CHAIN_TYPE);
  if (chain->count < 1) arg_error(L, arg, "chain was collected");
  return chain;
}

/* 1-based bone index at arg; returns it 0-based.  extra allows count+1
** (joints include the tip). */
static int check_bone(lua_State *L, int arg, const ik2d_chain *chain,
                      int extra) {
  int i = check_whole(L, arg, "bone index");
  int last = chain->count + extra;
  if (i < 1 || i > last)
    arg_error(L, arg, lua_pushfstring(L, "bone index out of range (1..%d)", last));
  return i - 1;
}

static int chain_new(lua_State *L) {
  double lengths[IK2D_MAX_BONES], rests[IK2D_MAX_BONES];
  ik2d_chain *chain;
  int count, i;
  char owner[32];
  check_table(L, 1);
  count = (int)ik2d_rawlen(L, 1);
  if (count < 1 || count > IK2D_MAX_BONES)
    return arg_error(L, 1, ik2d_status_message(IK2D_ERR_BONE_COUNT));
  for (i = 0; i < count; i++) {
    snprintf(owner, sizeof owner, "bone %d: ", i + 1);
    lua_rawgeti(L, 1, i + 1);
    if (!lua_istable(L, -1))
      return arg_error(L, 1, lua_pushfstring(L, "%sa table expected, got %s",
                                                 owner, luaL_typename(L, -1)));
    if (!field_present(L, -1, "length"))
      return arg_error(L, 1, lua_pushfstring(L, "%slength must be > 0", owner));
    lengths[i] = field_number(L, lua_gettop(L), "length", 0.0, 1, owner);
    if (!(lengths[i] > 0.0))
      return arg_error(L, 1, lua_pushfstring(L, "%slength must be > 0", owner));
    rests[i] = field_number(L, lua_gettop(L), "angle", 0.0, 1, owner);
    lua_pop(L, 1);
  }
  chain = (ik2d_chain *)lua_newuserdata(L, sizeof *chain);
  chain->count = 0;
  set_metatable(L, CHAIN_TYPE);
  /* uservalue: bone index -> constraint userdata, keeps them alive */
  lua_newtable(L);
  ik2d_setuservalue(L, -2);
  check_status(L, ik2d_chain_init(chain, count, lengths, rests), 1);
  for (i = 0; i < count; i++) {
    lua_rawgeti(L, 1, i + 1);
    if (field_present(L, -1, "min") || field_present(L, -1, "max")) {
      ik2d_constraint *c;
      snprintf(owner, sizeof owner, "bone %d: ", i + 1);
      c = push_constraint(L, lua_gettop(L), 1, owner);
      ik2d_getuservalue(L, -3);
      lua_pushvalue(L, -2);
      lua_rawseti(L, -2, i + 1);
      lua_pop(L, 2);
      ik2d_chain_set_constraint(chain, i, c);
    }
    lua_pop(L, 1);
  }
  check_status(L, ik2d_chain_set_base(chain, field_number(L, 1, "x", 0.0, 1, ""),
                                      field_number(L, 1, "y", 0.0, 1, ""),
                                      field_number(L, 1, "angle", 0.0, 1, "")), 1);
  ik2d_chain_set_flip(chain, field_boolean(L, 1, "flip", 0));
  return 1;
}

static int chain_len(lua_State *L) {
  lua_pushinteger(L, check_chain(L, 1)->count);
  return 1;
}

static int chain_set_base(lua_State *L) {
  ik2d_chain *chain = check_chain(L, 1);
  double x = check_finite(L, 2), y = check_finite(L, 3);
  double angle = opt_finite(L, 4, chain->base_angle);
  check_status(L, ik2d_chain_set_base(chain, x, y, angle), 2);
  return 0;
}

static int chain_base(lua_State *L) {
  ik2d_chain *chain = check_chain(L, 1);
  lua_pushnumber(L, chain->base_x);
  lua_pushnumber(L, chain->base_y);
  lua_pushnumber(L, chain->base_angle);
  return 3;
}

static int chain_set_flip(lua_State *L) {
  ik2d_chain *chain = check_chain(L, 1);
  if (lua_isnone(L, 2)) type_error(L, 2, "boolean");
  ik2d_chain_set_flip(chain, lua_toboolean(L, 2));
  return 0;
}

static int chain_flip(lua_State *L) {
  lua_pushboolean(L, check_chain(L, 1)->flip);
  return 1;
}

static int chain_set_pose(lua_State *L) {
  ik2d_chain *chain = check_chain(L, 1);
  int i = check_bone(L, 2, chain, 0);
  double angle = check_finite(L, 3);
  check_status(L, ik2d_chain_set_pose(chain, i, angle), 3);
  return 0;
}

static int chain_pose(lua_State *L) {
  ik2d_chain *chain = check_chain(L, 1);
  lua_pushnumber(L, chain->pose[check_bone(L, 2, chain, 0)]);
  return 1;
}

static int chain_angle(lua_State *L) {
  ik2d_chain *chain = check_chain(L, 1);
  lua_pushnumber(L, chain->angle[check_bone(L, 2, chain, 0)]);
  return 1;
}

static int chain_world_angle(lua_State *L) {
  ik2d_chain *chain = check_chain(L, 1);
  lua_pushnumber(L, ik2d_chain_world_angle(chain, check_bone(L, 2, chain, 0)));
  return 1;
}

static int chain_length(lua_State *L) {
  ik2d_chain *chain = check_chain(L, 1);
  lua_pushnumber(L, chain->length[check_bone(L, 2, chain, 0)]);
  return 1;
}

static int chain_rest(lua_State *L) {
  ik2d_chain *chain = check_chain(L, 1);
  lua_pushnumber(L, chain->rest[check_bone(L, 2, chain, 0)]);
  return 1;
}

static int chain_reach(lua_State *L) {
  lua_pushnumber(L, check_chain(L, 1)->reach);
  return 1;
}

/* the result's bone scale: 1, or the two-bone stretch (scale sprites by it) */
static int chain_scale(lua_State *L) {
  lua_pushnumber(L, check_chain(L, 1)->scale);
  return 1;
}

static int chain_joint(lua_State *L) {
  ik2d_chain *chain = check_chain(L, 1);
  int i = check_bone(L, 2, chain, 1);
  lua_pushnumber(L, chain->joint_x[i]);
  lua_pushnumber(L, chain->joint_y[i]);
  return 2;
}

static int chain_tip(lua_State *L) {
  ik2d_chain *chain = check_chain(L, 1);
  lua_pushnumber(L, chain->joint_x[chain->count]);
  lua_pushnumber(L, chain->joint_y[chain->count]);
  return 2;
}

/* Writes the joints of chain as x, y pairs into the table at t from
** index first; returns the next free index. */
static int fill_joints(lua_State *L, int t, const ik2d_chain *chain,
                       int first) {
  int i;
  for (i = 0; i <= chain->count; i++) {
    lua_pushnumber(L, chain->joint_x[i]);
    lua_rawseti(L, t, first++);
    lua_pushnumber(L, chain->joint_y[i]);
    lua_rawseti(L, t, first++);
  }
  return first;
}

static int chain_joints(lua_State *L) {
  ik2d_chain *chain = check_chain(L, 1);
  if (lua_isnoneornil(L, 2)) {
    lua_settop(L, 1);
    lua_createtable(L, 2 * (chain->count + 1), 0);
  } else {
    check_table(L, 2);
    lua_settop(L, 2);
  }
  fill_joints(L, 2, chain, 1);
  return 1;
}

static int chain_reset(lua_State *L) {
  ik2d_chain_reset(check_chain(L, 1));
  return 0;
}

static int chain_set_constraint(lua_State *L) {
  ik2d_chain *chain = check_chain(L, 1);
  int i = check_bone(L, 2, chain, 0);
  ik2d_constraint *c = NULL;
  if (!lua_isnoneornil(L, 3)) c = check_constraint(L, 3);
  lua_settop(L, 3);
  ik2d_getuservalue(L, 1);
  lua_pushvalue(L, 3);
  lua_rawseti(L, -2, i + 1);
  ik2d_chain_set_constraint(chain, i, c);
  return 0;
}

static int chain_constraint(lua_State *L) {
  ik2d_chain *chain = check_chain(L, 1);
  int i = check_bone(L, 2, chain, 0);
  ik2d_getuservalue(L, 1);
  lua_rawgeti(L, -1, i + 1);
  return 1;
}

static int chain_tostring(lua_State *L) {
  ik2d_chain *chain = (ik2d_chain *)check_udata(L, 1, CHAIN_TYPE);
  if (chain->count < 1) {
    lua_pushliteral(L, "ik2d.Chain(collected)");
  } else {
    lua_pushfstring(L, "ik2d.Chain(%d bones, base %f, %f, tip %f, %f)",
                    chain->count, chain->base_x, chain->base_y,
                    chain->joint_x[chain->count], chain->joint_y[chain->count]);
  }
  return 1;
}

/* Idempotent: a finalised chain raises on use instead of being read. */
static int chain_gc(lua_State *L) {
  ik2d_chain *chain = (ik2d_chain *)check_udata(L, 1, CHAIN_TYPE);
  chain->count = 0;
  return 0;
}

/* ------------------------------------------------------------------ */
/* solvers                                                              */
/* ------------------------------------------------------------------ */

static ik2d_solver *check_solver(lua_State *L, int arg) {
  ik2d_solver *solver = (ik2d_solver *)check_udata(L, arg, SOLVER_TYPE);
  if (solver->chain == NULL || solver->chain->count < 1)
    arg_error(L, arg, "solver was collected");
  return solver;
}

static const char *const method_names[] = {"ccd", "fabrik", "two_bone", NULL};

/* Applies the options table at index t; on error nothing is kept, as the
** caller works on a copy. */
static void solver_apply_options(lua_State *L, ik2d_solver *solver, int t) {
  const int arg = 2;
  if (field_present(L, t, "method")) {
    int method = 0;
    const char *name;
    lua_getfield(L, t, "method");
    name = lua_tostring(L, -1);
    while (name != NULL && method_names[method] != NULL &&
           strcmp(method_names[method], name) != 0)
      method++;
    if (name == NULL || method_names[method] == NULL)
      arg_error(L, arg, "method must be \"ccd\", \"fabrik\" or \"two_bone\"");
    lua_pop(L, 1);
    if (ik2d_solver_set_method(solver, (ik2d_method)method) != IK2D_OK)
      arg_error(L, arg, "method two_bone needs a chain of 2 bones");
  }
  if (field_present(L, t, "iterations")) {
    double n = field_number(L, t, "iterations", 0.0, arg, "");
    if (n != floor(n) || n < 1.0 || n > 1e9)
      arg_error(L, arg, "iterations must be a whole number >= 1");
    ik2d_solver_set_iterations(solver, (int)n);
  }
  if (field_present(L, t, "tolerance"))
    check_status(L, ik2d_solver_set_tolerance(
                        solver, field_number(L, t, "tolerance", 0.0, arg, "")), arg);
  if (field_present(L, t, "weight")) {
    /* clamped like set_weight: only nan is an error */
    lua_getfield(L, t, "weight");
    if (lua_type(L, -1) != LUA_TNUMBER)
      arg_error(L, arg, lua_pushfstring(L, "weight must be a number, got %s",
                                        luaL_typename(L, -1)));
    if (ik2d_solver_set_weight(solver, (double)lua_tonumber(L, -1)) != IK2D_OK)
      arg_error(L, arg, "weight must not be nan");
    lua_pop(L, 1);
  }
  if (field_present(L, t, "damping")) {
    if (ik2d_solver_set_damping(solver, field_number(L, t, "damping", 0.0, arg, "")))
      arg_error(L, arg, "damping must be >= 0");
  }
  if (field_present(L, t, "softness")) {
    if (ik2d_solver_set_softness(solver, field_number(L, t, "softness", 0.0, arg, "")))
      arg_error(L, arg, "softness must be >= 0");
  }
  if (field_present(L, t, "stretch")) {
    if (ik2d_solver_set_stretch(solver, field_number(L, t, "stretch", 1.0, arg, "")))
      arg_error(L, arg, "stretch must be >= 1");
  }
  if (field_present(L, t, "bend")) {
    double bend = field_number(L, t, "bend", 0.0, arg, "");
    if (ik2d_solver_set_bend(solver, bend == 1.0 ? 1 : bend == -1.0 ? -1 : 0))
      arg_error(L, arg, "bend must be 1 or -1");
  }
  solver->warm_start = field_boolean(L, t, "warm_start", solver->warm_start);
  /* CCD: exact two-joint step on/off, sweep order "root" or "tip" */
  solver->exact = field_boolean(L, t, "exact", solver->exact);
  if (field_present(L, t, "sweep")) {
    const char *sweep;
    lua_getfield(L, t, "sweep");
    sweep = lua_type(L, -1) == LUA_TSTRING ? lua_tostring(L, -1) : "";
    if (strcmp(sweep, "root") == 0) {
      solver->sweep = IK2D_SWEEP_ROOT;
    } else if (strcmp(sweep, "tip") == 0) {
      solver->sweep = IK2D_SWEEP_TIP;
    } else {
      arg_error(L, arg, "sweep must be \"root\" or \"tip\"");
    }
    lua_pop(L, 1);
  }
}

static int solver_new(lua_State *L) {
  ik2d_chain *chain = check_chain(L, 1);
  ik2d_solver settings, *solver;
  check_status(L, ik2d_solver_init(&settings, chain), 1);
  if (!lua_isnoneornil(L, 2)) {
    check_table(L, 2);
    solver_apply_options(L, &settings, 2);
  }
  solver = (ik2d_solver *)lua_newuserdata(L, sizeof *solver);
  *solver = settings;
  set_metatable(L, SOLVER_TYPE);
  /* uservalue {chain}: the solver keeps its chain alive */
  lua_createtable(L, 1, 0);
  lua_pushvalue(L, 1);
  lua_rawseti(L, -2, 1);
  ik2d_setuservalue(L, -2);
  return 1;
}

static int solver_chain(lua_State *L) {
  check_solver(L, 1);
  ik2d_getuservalue(L, 1);
  lua_rawgeti(L, -1, 1);
  return 1;
}

static int solver_set_target(lua_State *L) {
  ik2d_solver *solver = check_solver(L, 1);
  double x = check_finite(L, 2), y = check_finite(L, 3);
  check_status(L, ik2d_solver_set_target(solver, x, y), 2);
  return 0;
}

static int solver_target(lua_State *L) {
  ik2d_solver *solver = check_solver(L, 1);
  lua_pushnumber(L, solver->target_x);
  lua_pushnumber(L, solver->target_y);
  return 2;
}

static int solver_set_weight(lua_State *L) {
  ik2d_solver *solver = check_solver(L, 1);
  double weight = check_number(L, 2);
  if (weight != weight) return arg_error(L, 2, "weight must not be nan");
  ik2d_solver_set_weight(solver, weight);
  return 0;
}

static int solver_weight(lua_State *L) {
  lua_pushnumber(L, check_solver(L, 1)->weight);
  return 1;
}

static int solver_set_iterations(lua_State *L) {
  ik2d_solver *solver = check_solver(L, 1);
  int n = check_whole(L, 2, "iterations");
  check_status(L, ik2d_solver_set_iterations(solver, n), 2);
  return 0;
}

static int solver_iterations(lua_State *L) {
  lua_pushinteger(L, check_solver(L, 1)->iterations);
  return 1;
}

static int solver_set_tolerance(lua_State *L) {
  ik2d_solver *solver = check_solver(L, 1);
  double tolerance = check_finite(L, 2);
  check_status(L, ik2d_solver_set_tolerance(solver, tolerance), 2);
  return 0;
}

static int solver_tolerance(lua_State *L) {
  lua_pushnumber(L, check_solver(L, 1)->tolerance);
  return 1;
}

static int solver_set_options(lua_State *L) {
  ik2d_solver *solver = check_solver(L, 1);
  ik2d_solver settings = *solver;
  check_table(L, 2);
  solver_apply_options(L, &settings, 2);
  *solver = settings;
  return 0;
}

static int solver_method(lua_State *L) {
  lua_pushstring(L, method_names[check_solver(L, 1)->method]);
  return 1;
}

static int solver_forget(lua_State *L) {
  ik2d_solver_forget(check_solver(L, 1));
  return 0;
}

static int push_outcome(lua_State *L, const ik2d_solver *solver) {
  lua_pushboolean(L, solver->reached);
  lua_pushnumber(L, solver->distance);
  lua_pushinteger(L, solver->used_iterations);
  return 3;
}

static int solver_solve(lua_State *L) {
  ik2d_solver *solver = check_solver(L, 1);
  ik2d_solver_solve(solver);
  return push_outcome(L, solver);
}

static int solver_result(lua_State *L) {
  return push_outcome(L, check_solver(L, 1));
}

static int solver_tostring(lua_State *L) {
  ik2d_solver *solver = (ik2d_solver *)check_udata(L, 1, SOLVER_TYPE);
  if (solver->chain == NULL) {
    lua_pushliteral(L, "ik2d.Solver(collected)");
  } else {
    lua_pushfstring(L, "ik2d.Solver(%s, target %f, %f, weight %f)",
                    method_names[solver->method], solver->target_x,
                    solver->target_y, solver->weight);
  }
  return 1;
}

static int solver_gc(lua_State *L) {
  ik2d_solver *solver = (ik2d_solver *)check_udata(L, 1, SOLVER_TYPE);
  solver->chain = NULL;
  return 0;
}

/* ------------------------------------------------------------------ */
/* groups: many solvers solved and read in one call                     */
/* ------------------------------------------------------------------ */

/* The solver pointers live in the same userdata, after the header. */
typedef struct lua_group {
  int count;
  ik2d_solver **solvers;
} lua_group;

/* count -1 marks a finalised group (0 is a legal empty one): it raises
** on use, as chains and solvers do, instead of acting empty. */
static lua_group *check_group(lua_State *L, int arg) {
  lua_group *group = (lua_group *)check_udata(L, arg, GROUP_TYPE);
  if (group->count < 0) arg_error(L, arg, "group was collected");
  return group;
}

static int group_new(lua_State *L) {
  lua_group *group;
  int count, i;
  check_table(L, 1);
  count = (int)ik2d_rawlen(L, 1);
  for (i = 1; i <= count; i++) {
    lua_rawgeti(L, 1, i);
    if (test_udata(L, -1, SOLVER_TYPE) == NULL)
      arg_error(L, 1, lua_pushfstring(L, "item %d: ik2d.Solver expected, got %s",
                                      i, luaL_typename(L, -1)));
    lua_pop(L, 1);
  }
  group = (lua_group *)lua_newuserdata(
      L, sizeof(lua_group) + (size_t)count * sizeof(ik2d_solver *));
  group->count = count;
  group->solvers = (ik2d_solver **)(void *)(group + 1);
  set_metatable(L, GROUP_TYPE);
  /* uservalue: a copy of the list keeps the solvers alive */
  lua_createtable(L, count, 0);
  for (i = 1; i <= count; i++) {
    lua_rawgeti(L, 1, i);
    group->solvers[i - 1] = (ik2d_solver *)lua_touserdata(L, -1);
    lua_rawseti(L, -2, i);
  }
  ik2d_setuservalue(L, -2);
  return 1;
}

static int group_len(lua_State *L) {
  lua_pushinteger(L, check_group(L, 1)->count);
  return 1;
}

static int group_solver(lua_State *L) {
  lua_group *group = check_group(L, 1);
  int i = check_whole(L, 2, "solver index");
  if (i < 1 || i > group->count)
    return arg_error(L, 2, lua_pushfstring(L, "solver index out of range (1..%d)",
                                           group->count));
  ik2d_getuservalue(L, 1);
  lua_rawgeti(L, -1, i);
  return 1;
}

static int group_solve(lua_State *L) {
  lua_group *group = check_group(L, 1);
  lua_pushinteger(L, ik2d_solve_batch(group->solvers, group->count));
  return 1;
}

/* t[i] (t at index arg), a finite number, or an error naming the item. */
static double group_item(lua_State *L, int arg, int i) {
  double value;
  lua_rawgeti(L, arg, i);
  value = finite_at(L, -1, arg, i);
  lua_pop(L, 1);
  return value;
}

/* Every member's target from t = { x1, y1, x2, y2, ... }, member after
** member: one call a frame instead of one per solver.  Every item is
** checked before any target is written, so a failed call changes
** nothing. */
static int group_set_targets(lua_State *L) {
  lua_group *group = check_group(L, 1);
  int i;
  check_table(L, 2);
  for (i = 1; i <= 2 * group->count; i++) group_item(L, 2, i);
  for (i = 0; i < group->count; i++) {
    lua_rawgeti(L, 2, 2 * i + 1);
    lua_rawgeti(L, 2, 2 * i + 2);
    ik2d_solver_set_target(group->solvers[i], (double)lua_tonumber(L, -2),
                           (double)lua_tonumber(L, -1));
    lua_pop(L, 2);
  }
  return 0;
}

/* Fills t with every chain's joints, x, y pairs, chain after chain. */
static int group_joints(lua_State *L) {
  lua_group *group = check_group(L, 1);
  int i, next = 1;
  if (lua_isnoneornil(L, 2)) {
    lua_settop(L, 1);
    lua_newtable(L);
  } else {
    check_table(L, 2);
    lua_settop(L, 2);
  }
  for (i = 0; i < group->count; i++) {
    /* a member finalised before the group (its __gc called by hand, or
    ** in a finaliser at lua_close) has no chain: raise, not crash */
    const ik2d_chain *chain = group->solvers[i]->chain;
    if (chain == NULL || chain->count < 1)
      return arg_error(L, 1, lua_pushfstring(L, "solver %d was collected", i + 1));
    next = fill_joints(L, 2, chain, next);
  }
  return 1;
}

static int group_tostring(lua_State *L) {
  lua_group *group = (lua_group *)check_udata(L, 1, GROUP_TYPE);
  if (group->count < 0) lua_pushliteral(L, "ik2d.Group(collected)");
  else lua_pushfstring(L, "ik2d.Group(%d solvers)", group->count);
  return 1;
}

static int group_gc(lua_State *L) {
  ((lua_group *)check_udata(L, 1, GROUP_TYPE))->count = -1;
  return 0;
}

/* ------------------------------------------------------------------ */
/* module                                                               */
/* ------------------------------------------------------------------ */

/* Records the name of every function in the table on top for arg_error.
** It reads the stored objects: LuaJIT makes a new one per push. */
static void register_names(lua_State *L) {
  lua_getfield(L, LUA_REGISTRYINDEX, NAMES_KEY);
  lua_pushnil(L);
  while (lua_next(L, -3) != 0) {
    if (lua_iscfunction(L, -1)) {
      lua_pushvalue(L, -2);
      lua_rawset(L, -4);
    } else {
      lua_pop(L, 1);
    }
  }
  lua_pop(L, 1);
}

static void register_type(lua_State *L, const char *type,
                          const luaL_Reg *methods, const luaL_Reg *meta) {
  luaL_newmetatable(L, type);
  ik2d_setfuncs(L, meta);
  register_names(L);
  lua_newtable(L);
  ik2d_setfuncs(L, methods);
  register_names(L);
  lua_setfield(L, -2, "__index");
  lua_pushstring(L, type);
  lua_setfield(L, -2, "__name");
  lua_pop(L, 1);
}

static const luaL_Reg constraint_methods[] = {
  {"set_limits", constraint_set_limits},
  {"limits", constraint_limits},
  {"invert", constraint_invert},
  {NULL, NULL}
};

static const luaL_Reg constraint_meta[] = {
  {"__tostring", constraint_tostring},
  {NULL, NULL}
};

static const luaL_Reg chain_methods[] = {
  {"set_base", chain_set_base},
  {"base", chain_base},
  {"set_flip", chain_set_flip},
  {"flip", chain_flip},
  {"set_pose", chain_set_pose},
  {"pose", chain_pose},
  {"angle", chain_angle},
  {"world_angle", chain_world_angle},
  {"length", chain_length},
  {"rest", chain_rest},
  {"reach", chain_reach},
  {"scale", chain_scale},
  {"joint", chain_joint},
  {"tip", chain_tip},
  {"joints", chain_joints},
  {"reset", chain_reset},
  {"set_constraint", chain_set_constraint},
  {"constraint", chain_constraint},
  {NULL, NULL}
};

static const luaL_Reg chain_meta[] = {
  {"__len", chain_len},
  {"__tostring", chain_tostring},
  {"__gc", chain_gc},
  {NULL, NULL}
};

static const luaL_Reg solver_methods[] = {
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
  {"method", solver_method},
  {"forget", solver_forget},
  {"solve", solver_solve},
  {"result", solver_result},
  {NULL, NULL}
};

static const luaL_Reg solver_meta[] = {
  {"__tostring", solver_tostring},
  {"__gc", solver_gc},
  {NULL, NULL}
};

static const luaL_Reg group_methods[] = {
  {"solver", group_solver},
  {"solve", group_solve},
  {"set_targets", group_set_targets},
  {"joints", group_joints},
  {NULL, NULL}
};

static const luaL_Reg group_meta[] = {
  {"__len", group_len},
  {"__tostring", group_tostring},
  {"__gc", group_gc},
  {NULL, NULL}
};

static const luaL_Reg module_functions[] = {
  {"group", group_new},
  {"chain", chain_new},
  {"constraint", constraint_new},
  {"solver", solver_new},
  {NULL, NULL}
};

static void push_methods(lua_State *L, const char *type, const char *key) {
  luaL_getmetatable(L, type);
  lua_getfield(L, -1, "__index");
  lua_setfield(L, -3, key);
  lua_pop(L, 1);
}

static void set_layout(lua_State *L, const char *key, size_t value) {
  lua_pushinteger(L, (lua_Integer)value);
  lua_setfield(L, -2, key);
}

LUA_EXPORT int luaopen_ik2d_core(lua_State *L) {
  lua_newtable(L);
  lua_setfield(L, LUA_REGISTRYINDEX, NAMES_KEY);
  register_type(L, CONSTRAINT_TYPE, constraint_methods, constraint_meta);
  register_type(L, CHAIN_TYPE, chain_methods, chain_meta);
  register_type(L, SOLVER_TYPE, solver_methods, solver_meta);
  register_type(L, GROUP_TYPE, group_methods, group_meta);
  lua_newtable(L);
  ik2d_setfuncs(L, module_functions);
  register_names(L);
  lua_pushliteral(L, IK2D_VERSION);
  lua_setfield(L, -2, "_VERSION");
  lua_pushinteger(L, IK2D_MAX_BONES);
  lua_setfield(L, -2, "MAX_BONES");
  /* for lua/ik2d/ffi.lua: the method tables it may speed up, and the
  ** struct layout it must agree with before it touches any memory */
  lua_newtable(L);
  push_methods(L, CHAIN_TYPE, "Chain");
  push_methods(L, CONSTRAINT_TYPE, "Constraint");
  push_methods(L, SOLVER_TYPE, "Solver");
  push_methods(L, GROUP_TYPE, "Group");
  lua_setfield(L, -2, "_methods");
  lua_newtable(L);
  set_layout(L, "chain.count", offsetof(ik2d_chain, count));
  set_layout(L, "chain.base_x", offsetof(ik2d_chain, base_x));
  set_layout(L, "chain.pose", offsetof(ik2d_chain, pose));
  set_layout(L, "chain.angle", offsetof(ik2d_chain, angle));
  set_layout(L, "chain.joint_x", offsetof(ik2d_chain, joint_x));
  set_layout(L, "chain.joint_y", offsetof(ik2d_chain, joint_y));
  set_layout(L, "solver.chain", offsetof(ik2d_solver, chain));
  set_layout(L, "solver.target_x", offsetof(ik2d_solver, target_x));
  set_layout(L, "solver.weight", offsetof(ik2d_solver, weight));
  set_layout(L, "solver.reached", offsetof(ik2d_solver, reached));
  set_layout(L, "solver.distance", offsetof(ik2d_solver, distance));
  set_layout(L, "solver.used_iterations", offsetof(ik2d_solver, used_iterations));
  set_layout(L, "group.count", offsetof(lua_group, count));
  set_layout(L, "group.solvers", offsetof(lua_group, solvers));
  lua_setfield(L, -2, "_layout");
  return 1;
}
