/*
** luaik_group.c: ik2d.group, many solvers solved, targeted and read in
** one call each a frame.
*/
#include <stddef.h>

#include "lua.h"
#include "lauxlib.h"

#include "luaik.h"

/* The members' solvers and a scratch of their targets follow the header
** in the same object. */
typedef struct luaik_group {
  int count;
  ik2d_solver **solvers;
  double *targets;     /* 2 * count: set_targets' numbers before the core
                          checks and keeps them */
  const unsigned long *finalised;  /* the state's count (luaik_finalised) */
  unsigned long checked;           /* its value when every member was
                                      last seen alive */
} luaik_group;

static luaik_group *check_group(lua_State *L, int arg) {
  return (luaik_group *)luaik_check_object(L, arg, LUAIK_GROUP, "group");
}

/* 0 if every member and its chain are alive, else the first finalised
** member's 1-based index, negated when the member is alive and its
** chain is not (a finaliser may run before the group's, at lua_close or
** when an object is resurrected).  The members are looked at only when
** the state has finalised something since they last were. */
static int group_dead_member(luaik_group *group) {
  unsigned long now = *group->finalised;
  int i;
  if (now == group->checked) return 0;
  for (i = 0; i < group->count; i++) {
    const ik2d_solver *solver = group->solvers[i];
    if (luaik_box_of(solver)->collected) return i + 1;
    if (luaik_box_of(ik2d_solver_chain(solver))->collected) return -(i + 1);
  }
  group->checked = now;
  return 0;
}

/* The group, its members all alive. */
static luaik_group *check_live_group(lua_State *L, int arg) {
  luaik_group *group = check_group(L, arg);
  int dead = group_dead_member(group);
  if (dead > 0) luaik_arg_errorf(L, arg, "solver %d was collected", dead);
  if (dead < 0) luaik_arg_errorf(L, arg, "solver %d: chain was collected", -dead);
  return group;
}

int luaik_group_new(lua_State *L) {
  luaik_group *group;
  int count, i;
  luaik_check_table(L, 1);
  lua_settop(L, 1);
  count = (int)luaik_rawlen(L, 1);
  /* every item a live solver, none twice (t[solver] = index) */
  lua_createtable(L, 0, count);
  for (i = 1; i <= count; i++) {
    lua_rawgeti(L, 1, i);
    if (luaik_test_object(L, 3, LUAIK_SOLVER) == NULL)
      luaik_arg_errorf(L, 1, "item %d: ik2d.Solver expected, got %s", i,
                       luaik_typename(L, 3));
    luaik_check_solver(L, 3);
    lua_pushvalue(L, 3);
    lua_rawget(L, 2);
    if (!lua_isnil(L, -1))
      luaik_arg_errorf(L, 1, "item %d: the solver of item %d again", i,
                       (int)lua_tointeger(L, -1));
    lua_pop(L, 1);
    lua_pushinteger(L, i);
    lua_rawset(L, 2);
  }
  group = (luaik_group *)luaik_new_object(
      L, sizeof(luaik_group) + (size_t)count * (sizeof(ik2d_solver *) + 2 * sizeof(double)),
      LUAIK_GROUP);
  group->count = count;
  group->finalised = luaik_finalised(L);
  group->checked = *group->finalised;
  group->targets = (double *)(void *)(group + 1);
  group->solvers = (ik2d_solver **)(void *)(group->targets + 2 * count);
  /* anchors[group] = a copy of the list: the group keeps its solvers */
  lua_createtable(L, count, 0);
  for (i = 1; i <= count; i++) {
    lua_rawgeti(L, 1, i);
    group->solvers[i - 1] = (ik2d_solver *)luaik_test_object(L, -1, LUAIK_SOLVER);
    lua_rawseti(L, -2, i);
  }
  luaik_anchor(L, 3, 4);
  lua_settop(L, 3);
  return 1;
}

static int group_len(lua_State *L) {
  lua_pushinteger(L, check_group(L, 1)->count);
  return 1;
}

static int group_solver(lua_State *L) {
  luaik_group *group = check_group(L, 1);
  int i = luaik_check_whole(L, 2, "solver index");
  if (i < 1 || i > group->count) luaik_index_error(L, 2, "solver", group->count);
  luaik_anchored(L, 1);
  lua_rawgeti(L, -1, i);
  return 1;
}

static int group_solve(lua_State *L) {
  luaik_group *group = check_live_group(L, 1);
  lua_pushinteger(L, ik2d_solve_batch(group->solvers, group->count));
  return 1;
}

/* For the FFI path (lua/ik2d/ffi.lua), given the group's userdata:
** luaik_group_members gives the members and the targets scratch;
** luaik_group_live whether the group and every member are alive (when
** not, the FFI path calls the classic method, which raises). */
LUAIK_EXPORT ik2d_solver *const *luaik_group_members(void *box, int *count,
                                                     double **targets);
LUAIK_EXPORT bool luaik_group_live(void *box);

ik2d_solver *const *luaik_group_members(void *box, int *count, double **targets) {
  luaik_group *group = (luaik_group *)(void *)((char *)box + LUAIK_HEADER);
  *count = group->count;
  *targets = group->targets;
  return group->solvers;
}

bool luaik_group_live(void *box) {
  luaik_group *group = (luaik_group *)(void *)((char *)box + LUAIK_HEADER);
  return !((luaik_box *)box)->collected && group_dead_member(group) == 0;
}

/* Every member's target from t = { x1, y1, x2, y2, ... }: one call a
** frame.  The table is checked whole (its length, every item a number),
** then the core checks every target before it keeps any, so a failed
** call changes nothing. */
static int group_set_targets(lua_State *L) {
  luaik_group *group = check_live_group(L, 1);
  int i, n = 2 * group->count, length, bad = 0;
  ik2d_status status;
  luaik_check_table(L, 2);
  length = (int)luaik_rawlen(L, 2);
  if (length != n)
    luaik_arg_errorf(L, 2, "%d numbers expected (x, y for each of %d solvers), got %d",
                     n, group->count, length);
  lua_settop(L, 2);
  for (i = 0; i < n; i++) {
    lua_rawgeti(L, 2, i + 1);
    if (!lua_isnumber(L, 3)) luaik_number_at(L, 3, 2, lua_pushfstring(L, "item %d", i + 1));
    group->targets[i] = (double)lua_tonumber(L, 3);
    lua_pop(L, 1);
  }
  status = ik2d_set_targets(group->solvers, group->count, group->targets, &bad);
  if (status != IK2D_OK)
    luaik_arg_errorf(L, 2, "item %d: %s", 2 * bad + (status == IK2D_ERR_TARGET_Y ? 2 : 1),
                     luaik_status_message(L, status));
  return 0;
}

/* Fills t with every member's joints, x, y pairs, member after member. */
static int group_joints(lua_State *L) {
  luaik_group *group = check_live_group(L, 1);
  int i, next = 1;
  luaik_push_table_arg(L, 2);
  for (i = 0; i < group->count; i++) {
    const ik2d_chain *chain = ik2d_solver_chain(group->solvers[i]);
    next = luaik_fill(L, 2, next, ik2d_chain_joints(chain),
                      2 * (ik2d_chain_bone_count(chain) + 1));
  }
  luaik_trim(L, 2, next);
  return 1;
}

static int group_tostring(lua_State *L) {
  luaik_group *group = (luaik_group *)luaik_test_object(L, 1, LUAIK_GROUP);
  if (group == NULL || luaik_box_of(group)->collected) {
    lua_pushliteral(L, "ik2d.Group(collected)");
  } else {
    lua_pushfstring(L, "ik2d.Group(%d solvers)", group->count);
  }
  return 1;
}

const luaL_Reg luaik_group_methods[] = {
  {"solver", group_solver},
  {"solve", group_solve},
  {"set_targets", group_set_targets},
  {"joints", group_joints},
  {NULL, NULL}
};

const luaL_Reg luaik_group_meta[] = {
  {"__len", group_len},
  {"__tostring", group_tostring},
  {"__gc", luaik_gc},
  {NULL, NULL}
};
