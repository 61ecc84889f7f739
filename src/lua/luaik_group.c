/*
** luaik_group.c: ik2d.group, many solvers solved, targeted and read in
** one call each a frame.
*/
#include <stddef.h>
#include <string.h>

#include "lua.h"
#include "lauxlib.h"

#include "luaik.h"

/* The members' solvers, their targets, the 0-based index of each one's
** first joint in the joint array and that array follow the header in the
** same object. */
typedef struct luaik_group {
  int count;
  ik2d_solver **solvers;
  double *scratch;     /* 2 * count: set_targets' numbers before the core
                          checks and keeps them */
  double *targets;     /* 2 * count: the target array */
  int *offsets;        /* count + 1: member i's joints start at
                          joints[offsets[i]], the last is the total */
  double *joints;      /* the joint array */
  bool read_targets;   /* solve takes the targets from the target array */
  bool write_joints;   /* solve writes the joint array */
  luaik_state *state;  /* the finalised count, the instruction set */
  unsigned long checked;  /* the finalised count when every member was
                             last seen alive */
  unsigned long free_targets; /* the state's bone target count when no
                                 member's target was last seen on a bone */
  bool free_seen;         /* free_targets holds such a count */
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
  unsigned long now = group->state->finalised;
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
  {
    /* the joint array's layout: each member's joints, x, y pairs */
    size_t total = 0, size;
    for (i = 1; i <= count; i++) {
      lua_rawgeti(L, 1, i);
      total += 2 * (size_t)(ik2d_chain_bone_count(ik2d_solver_chain(
                                (ik2d_solver *)luaik_test_object(L, -1, LUAIK_SOLVER))) + 1);
      lua_pop(L, 1);
    }
    size = sizeof(luaik_group) + (size_t)count * sizeof(ik2d_solver *) +
           (4 * (size_t)count + total) * sizeof(double) + ((size_t)count + 1) * sizeof(int);
    group = (luaik_group *)luaik_new_object(L, size, LUAIK_GROUP);
    group->scratch = (double *)(void *)(group + 1);
    group->targets = group->scratch + 2 * count;
    group->joints = group->targets + 2 * count;
    group->solvers = (ik2d_solver **)(void *)(group->joints + total);
    group->offsets = (int *)(void *)(group->solvers + count);
  }
  group->count = count;
  group->read_targets = group->write_joints = false;
  group->state = luaik_state_of(L);
  group->checked = group->state->finalised;
  group->free_seen = false;
  /* anchors[group] = a copy of the list: the group keeps its solvers */
  lua_createtable(L, count, 0);
  group->offsets[0] = 0;
  for (i = 1; i <= count; i++) {
    lua_rawgeti(L, 1, i);
    group->solvers[i - 1] = (ik2d_solver *)luaik_test_object(L, -1, LUAIK_SOLVER);
    group->offsets[i] = group->offsets[i - 1] +
                        2 * (ik2d_chain_bone_count(ik2d_solver_chain(group->solvers[i - 1])) + 1);
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

/* Every member's joints into the joint array. */
static void group_copy_joints(luaik_group *group) {
  int i;
  for (i = 0; i < group->count; i++) {
    const ik2d_chain *chain = ik2d_solver_chain(group->solvers[i]);
    memcpy(group->joints + group->offsets[i], ik2d_chain_joints(chain),
           (size_t)(group->offsets[i + 1] - group->offsets[i]) * sizeof(double));
  }
}

/* The solve, the arrays' part of it included: IK2D_OK and *reached, or
** the status of a bad target in the target array (*bad its member),
** nothing changed. */
static ik2d_status group_run(luaik_group *group, int *reached, int *bad) {
  if (group->read_targets) {
    ik2d_status status = ik2d_set_targets(group->solvers, group->count, group->targets, bad);
    if (status != IK2D_OK) return status;
  }
  *reached = ik2d_solve_batch_isa(group->solvers, group->count, group->state->isa);
  if (group->write_joints) group_copy_joints(group);
  return IK2D_OK;
}

/* Whether a member's target is on a bone: world targets for every member
** clear it, and the member's hold on the bone's skeleton goes with it,
** which only the classic methods (with the Lua state) can let go.  The
** members are looked at only when a target was put on a bone since none
** of theirs was seen on one. */
static bool group_bone_targets(luaik_group *group) {
  unsigned long now = group->state->bone_targets;
  int i;
  if (group->free_seen && group->free_targets == now) return false;
  for (i = 0; i < group->count; i++)
    if (ik2d_solver_target_bone(group->solvers[i], NULL, NULL, NULL) >= 0) return true;
  group->free_targets = now;
  group->free_seen = true;
  return false;
}

/* After world targets were set: the holds of the members (the group at
** index g) whose targets are no longer on bones go. */
static void group_release_targets(lua_State *L, int g, const luaik_group *group) {
  int i;
  luaik_anchored(L, g);
  for (i = 0; i < group->count; i++) {
    if (ik2d_solver_target_bone(group->solvers[i], NULL, NULL, NULL) >= 0) continue;
    lua_rawgeti(L, -1, i + 1);
    luaik_anchor_target(L, -1, 0);
    lua_pop(L, 1);
  }
  lua_pop(L, 1);
}

static int group_solve(lua_State *L) {
  luaik_group *group = check_live_group(L, 1);
  int reached = 0, bad = 0;
  bool bone_targets = group->read_targets && group_bone_targets(group);
  ik2d_status status = group_run(group, &reached, &bad);
  if (status != IK2D_OK)
    luaik_arg_errorf(L, 1, "target array [%d]: %s",
                     2 * bad + (status == IK2D_ERR_TARGET_Y ? 1 : 0),
                     luaik_status_message(L, status));
  if (bone_targets) group_release_targets(L, 1, group);
  lua_pushinteger(L, reached);
  return 1;
}

/* For the FFI path (lua/ik2d/ffi.lua), given the group's userdata:
** luaik_group_members gives the members and the targets scratch, and
** luaik_group_set_targets sets the targets from it (-1: a bad one, and
** the classic method raises; or a member's target on a bone, and the
** classic method sets them);
** luaik_group_live whether the group and every member are alive (when
** not, the FFI path calls the classic method, which raises);
** luaik_group_solve the solve, or -1 for a bad target in the target array
** (the classic method then raises) or a member's target on a bone that
** the target array replaces (the classic method solves); luaik_group_target_array and
** luaik_group_joint_array the arrays, read and written by every solve
** from the first time they are asked for (when they are filled with the
** targets and joints of then). */
LUAIK_EXPORT ik2d_solver *const *luaik_group_members(void *box, int *count,
                                                     double **scratch);
LUAIK_EXPORT int luaik_group_set_targets(void *box);
LUAIK_EXPORT bool luaik_group_live(void *box);
LUAIK_EXPORT int luaik_group_solve(void *box);
LUAIK_EXPORT double *luaik_group_target_array(void *box);
LUAIK_EXPORT const double *luaik_group_joint_array(void *box);

static luaik_group *group_of_box(void *box) {
  return (luaik_group *)(void *)((char *)box + LUAIK_HEADER);
}

ik2d_solver *const *luaik_group_members(void *box, int *count, double **scratch) {
  luaik_group *group = group_of_box(box);
  *count = group->count;
  *scratch = group->scratch;
  return group->solvers;
}

/* The targets in the scratch, checked by the core before it keeps any;
** the target array follows them. */
static ik2d_status group_take_targets(luaik_group *group, int *bad) {
  ik2d_status status = ik2d_set_targets(group->solvers, group->count, group->scratch, bad);
  if (status == IK2D_OK && group->read_targets)
    memcpy(group->targets, group->scratch, 2 * (size_t)group->count * sizeof(double));
  return status;
}

int luaik_group_set_targets(void *box) {
  luaik_group *group = group_of_box(box);
  int bad = 0;
  if (group_bone_targets(group)) return -1;
  return group_take_targets(group, &bad) == IK2D_OK ? 0 : -1;
}

bool luaik_group_live(void *box) {
  return !((luaik_box *)box)->collected && group_dead_member(group_of_box(box)) == 0;
}

int luaik_group_solve(void *box) {
  luaik_group *group = group_of_box(box);
  int reached = 0, bad = 0;
  if (group->read_targets && group_bone_targets(group)) return -1;
  return group_run(group, &reached, &bad) == IK2D_OK ? reached : -1;
}

double *luaik_group_target_array(void *box) {
  luaik_group *group = group_of_box(box);
  int i;
  if (!group->read_targets) {
    for (i = 0; i < group->count; i++)
      ik2d_solver_target(group->solvers[i], &group->targets[2 * i], &group->targets[2 * i + 1]);
    group->read_targets = true;
  }
  return group->targets;
}

const double *luaik_group_joint_array(void *box) {
  luaik_group *group = group_of_box(box);
  if (!group->write_joints) {
    group_copy_joints(group);
    group->write_joints = true;
  }
  return group->joints;
}

/* Every member's target from t = { x1, y1, x2, y2, ... }: one call a
** frame.  The table is checked whole (its length, every item a number),
** then the core checks every target before it keeps any, so a failed
** call changes nothing. */
static int group_set_targets(lua_State *L) {
  luaik_group *group = check_live_group(L, 1);
  int i, n = 2 * group->count, length, bad = 0;
  bool bone_targets;
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
    group->scratch[i] = (double)lua_tonumber(L, 3);
    lua_pop(L, 1);
  }
  bone_targets = group_bone_targets(group);
  status = group_take_targets(group, &bad);
  if (status != IK2D_OK)
    luaik_arg_errorf(L, 2, "item %d: %s", 2 * bad + (status == IK2D_ERR_TARGET_Y ? 2 : 1),
                     luaik_status_message(L, status));
  if (bone_targets) group_release_targets(L, 1, group);
  return 0;
}

/* The 0-based index of member i's first joint x in the joint array (and,
** plus one, in the table joints fills). */
static int group_joint_offset(lua_State *L) {
  luaik_group *group = check_group(L, 1);
  int i = luaik_check_whole(L, 2, "solver index");
  if (i < 1 || i > group->count) luaik_index_error(L, 2, "solver", group->count);
  lua_pushinteger(L, group->offsets[i - 1]);
  return 1;
}

/* The arrays are FFI pointers: only LuaJIT's FFI can make them (under
** LuaJIT lua/ik2d/ffi.lua replaces these). */
static int group_no_ffi(lua_State *L) {
  check_live_group(L, 1);
  return luaik_call_error(L, "needs LuaJIT's FFI, which " LUA_VERSION " does not have");
}

/* two functions, so that each error names its own method */
static int group_target_array(lua_State *L) { return group_no_ffi(L); }
static int group_joint_array(lua_State *L) { return group_no_ffi(L); }

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
  {"joint_offset", group_joint_offset},
  {"target_array", group_target_array},
  {"joint_array", group_joint_array},
  {NULL, NULL}
};

const luaL_Reg luaik_group_meta[] = {
  {"__len", group_len},
  {"__tostring", group_tostring},
  {"__gc", luaik_gc},
  {NULL, NULL}
};
