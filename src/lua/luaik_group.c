/*
** luaik_group.c: ik2d.group, many solvers (or whole skeletons) solved,
** targeted and read in one call each a frame.
**
** A group of skeletons is the flat list of their solvers (skeleton after
** skeleton, each's in the order made) for everything a group of solvers
** has (targets, joints, tip angles, poles), plus the skeletons' bases and
** transforms; its solve is ik2d_skeletons_solve, which has exactly the
** bits of solving them one by one in list order.
*/
#include <math.h>
#include <stddef.h>
#include <string.h>

#include "lua.h"
#include "lauxlib.h"

#include "luaik.h"

/* numbers a bone in ik2d_skeleton_transforms: x, y, angle, tip x, tip y */
#define GROUP_TRANSFORM 5
/* and in ik2d_skeleton_matrices: a, b, c, d, x, y */
#define GROUP_MATRIX 6

/* The members' solvers (and skeletons), the arrays and each member's
** offsets into them follow the header in the same object. */
typedef struct luaik_group {
  int count;           /* solvers */
  int skeleton_count;  /* 0: a group of solvers */
  ik2d_solver **solvers;
  ik2d_skeleton **skeletons;
  double *scratch;     /* a set_ call's numbers before the core checks and
                          keeps them: max(2 * count, 3 * skeleton_count) */
  double *targets;     /* 2 * count: the target array */
  double *tips;        /* count: the tip angle array */
  double *poles;       /* 2 * count: the pole array */
  double *bases;       /* 3 * skeleton_count: the base array */
  int *offsets;        /* count + 1: member i's joints start at
                          joints[offsets[i]], the last is the total */
  double *joints;      /* the joint array */
  const double **member_joints; /* count: each member's chain's joints (the
                                   same pointer for the chain's life) */
  int *bone_offsets;   /* skeleton_count + 1: skeleton i's transforms start
                          at transforms[bone_offsets[i]] */
  double *transforms;  /* the transform array */
  double *matrices;    /* the matrix array, 6 a bone where transforms has 5 */
  bool read_targets;   /* solve takes the targets from the target array */
  bool read_tips, read_poles, read_bases;  /* and these from theirs */
  bool write_joints;   /* solve writes the joint array */
  bool write_transforms;  /* and the transform array */
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
  for (i = 0; i < group->skeleton_count; i++)
    if (luaik_box_of(group->skeletons[i])->collected) return group->count + i + 1;
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
  if (dead > group->count)
    luaik_arg_errorf(L, arg, "skeleton %d was collected", dead - group->count);
  if (dead > 0) luaik_arg_errorf(L, arg, "solver %d was collected", dead);
  if (dead < 0) luaik_arg_errorf(L, arg, "solver %d: chain was collected", -dead);
  return group;
}

/* The group's object for count solvers, whose joints take joints
** numbers, and skeletons skeletons of bones bones in all. */
static luaik_group *group_alloc(lua_State *L, int count, size_t joints, int skeletons,
                                size_t bones) {
  size_t n = (size_t)count, k = (size_t)skeletons;
  size_t scratch = 2 * n > 3 * k ? 2 * n : 3 * k;
  size_t doubles = scratch + 5 * n + 3 * k + joints + (GROUP_TRANSFORM + GROUP_MATRIX) * bones;
  size_t size = sizeof(luaik_group) + doubles * sizeof(double) + (2 * n + k) * sizeof(void *) +
                (n + k + 2) * sizeof(int);
  luaik_group *group = (luaik_group *)luaik_new_object(L, size, LUAIK_GROUP);
  double *next = (double *)(void *)(group + 1);
  group->scratch = next;
  group->targets = next += scratch;
  group->tips = next += 2 * n;
  group->poles = next += n;
  group->bases = next += 2 * n;
  group->joints = next += 3 * k;
  group->transforms = next += joints;
  group->matrices = next += GROUP_TRANSFORM * bones;
  next += GROUP_MATRIX * bones;
  group->solvers = (ik2d_solver **)(void *)next;
  group->skeletons = (ik2d_skeleton **)(void *)(group->solvers + n);
  group->member_joints = (const double **)(void *)(group->skeletons + k);
  group->offsets = (int *)(void *)(group->member_joints + n);
  group->bone_offsets = group->offsets + n + 1;
  group->count = count;
  group->skeleton_count = skeletons;
  group->read_targets = group->read_tips = group->read_poles = group->read_bases = false;
  group->write_joints = group->write_transforms = false;
  group->state = luaik_state_of(L);
  group->checked = group->state->finalised;
  group->free_seen = false;
  return group;
}

/* The group of the solvers in the list at index 3 and of the skeletons
** at 1 (none for a group of solvers): it keeps them all, anchors[group]
** = { solvers..., skeletons... }. */
static int group_make(lua_State *L, int skeletons) {
  int count = (int)luaik_rawlen(L, 3), i;
  size_t joints = 0, bones = 0;
  luaik_group *group;
  for (i = 1; i <= count; i++) {
    lua_rawgeti(L, 3, i);
    joints += 2 * (size_t)(ik2d_chain_bone_count(ik2d_solver_chain(
                              (ik2d_solver *)luaik_test_object(L, -1, LUAIK_SOLVER))) + 1);
    lua_pop(L, 1);
  }
  for (i = 1; i <= skeletons; i++) {
    lua_rawgeti(L, 1, i);
    bones += (size_t)ik2d_skeleton_bone_count(
        (ik2d_skeleton *)luaik_test_object(L, -1, LUAIK_SKELETON));
    lua_pop(L, 1);
  }
  lua_settop(L, 3);
  group = group_alloc(L, count, joints, skeletons, bones);
  lua_createtable(L, count + skeletons, 0);
  group->offsets[0] = 0;
  for (i = 1; i <= count; i++) {
    lua_rawgeti(L, 3, i);
    group->solvers[i - 1] = (ik2d_solver *)luaik_test_object(L, -1, LUAIK_SOLVER);
    group->member_joints[i - 1] = ik2d_chain_joints(ik2d_solver_chain(group->solvers[i - 1]));
    group->offsets[i] = group->offsets[i - 1] +
                        2 * (ik2d_chain_bone_count(ik2d_solver_chain(group->solvers[i - 1])) + 1);
    lua_rawseti(L, 5, i);
  }
  group->bone_offsets[0] = 0;
  for (i = 1; i <= skeletons; i++) {
    lua_rawgeti(L, 1, i);
    group->skeletons[i - 1] = (ik2d_skeleton *)luaik_test_object(L, -1, LUAIK_SKELETON);
    group->bone_offsets[i] = group->bone_offsets[i - 1] +
                             GROUP_TRANSFORM * ik2d_skeleton_bone_count(group->skeletons[i - 1]);
    lua_rawseti(L, 5, count + i);
  }
  luaik_anchor(L, 4, 5);
  lua_settop(L, 4);
  return 1;
}

/* Every item a live solver, none twice (t[solver] = index). */
static int group_of_solvers(lua_State *L, int items) {
  int i;
  lua_createtable(L, 0, items);
  for (i = 1; i <= items; i++) {
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
  lua_pushvalue(L, 1);
  return group_make(L, 0);
}

/* Every item a live skeleton, none twice; the solvers theirs. */
static int group_of_skeletons(lua_State *L, int items) {
  int i, next = 1;
  lua_createtable(L, 0, items);
  lua_newtable(L);
  for (i = 1; i <= items; i++) {
    lua_rawgeti(L, 1, i);
    if (luaik_test_object(L, 4, LUAIK_SKELETON) == NULL)
      luaik_arg_errorf(L, 1, "item %d: ik2d.Skeleton expected (item 1 is one), got %s", i,
                       luaik_typename(L, 4));
    luaik_check_skeleton(L, 4);
    lua_pushvalue(L, 4);
    lua_rawget(L, 2);
    if (!lua_isnil(L, -1))
      luaik_arg_errorf(L, 1, "item %d: the skeleton of item %d again", i,
                       (int)lua_tointeger(L, -1));
    lua_pop(L, 1);
    lua_pushvalue(L, 4);
    lua_pushinteger(L, i);
    lua_rawset(L, 2);
    next = luaik_skeleton_push_solvers(L, 4, 3, next);
    lua_pop(L, 1);
  }
  return group_make(L, items);
}

int luaik_group_new(lua_State *L) {
  int items;
  bool skeletons;
  luaik_check_table(L, 1);
  lua_settop(L, 1);
  items = (int)luaik_rawlen(L, 1);
  lua_rawgeti(L, 1, 1);
  skeletons = luaik_test_object(L, 2, LUAIK_SKELETON) != NULL;
  lua_settop(L, 1);
  return skeletons ? group_of_skeletons(L, items) : group_of_solvers(L, items);
}

/* #g: the items given, solvers or skeletons */
static int group_len(lua_State *L) {
  luaik_group *group = check_group(L, 1);
  lua_pushinteger(L, group->skeleton_count > 0 ? group->skeleton_count : group->count);
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

/* g:solvers([t]) -> t: the members, or the skeletons' solvers */
static int group_solvers(lua_State *L) {
  luaik_group *group = check_group(L, 1);
  int i;
  luaik_push_table_arg(L, 2);
  luaik_anchored(L, 1);
  for (i = 1; i <= group->count; i++) {
    lua_rawgeti(L, 3, i);
    lua_rawseti(L, 2, i);
  }
  lua_pop(L, 1);
  luaik_trim(L, 2, group->count + 1);
  return 1;
}

/* A group of solvers has no bases or transforms (NULL arrays). */
static bool group_of_solvers_only(const luaik_group *group) {
  return group->skeleton_count == 0 && group->count > 0;
}

/* The group, made of skeletons: what the skeletons alone have (bases,
** transforms) raises on a group of solvers. */
static luaik_group *skeletons_only(lua_State *L, luaik_group *group) {
  if (group_of_solvers_only(group))
    luaik_call_error(L, "a group of solvers: only a group of skeletons has it");
  return group;
}

static luaik_group *check_skeleton_group(lua_State *L, int arg) {
  return skeletons_only(L, check_live_group(L, arg));
}

static int group_skeleton(lua_State *L) {
  luaik_group *group = skeletons_only(L, check_group(L, 1));
  int i = luaik_check_whole(L, 2, "skeleton index");
  if (i < 1 || i > group->skeleton_count)
    luaik_index_error(L, 2, "skeleton", group->skeleton_count);
  luaik_anchored(L, 1);
  lua_rawgeti(L, -1, group->count + i);
  return 1;
}

/* Every member's joints into the joint array. */
static void group_copy_joints(luaik_group *group) {
  int i;
  for (i = 0; i < group->count; i++)
    memcpy(group->joints + group->offsets[i], group->member_joints[i],
           (size_t)(group->offsets[i + 1] - group->offsets[i]) * sizeof(double));
}

/* Every skeleton's transforms into the transform array. */
static void group_copy_transforms(luaik_group *group) {
  int i;
  for (i = 0; i < group->skeleton_count; i++)
    memcpy(group->transforms + group->bone_offsets[i],
           ik2d_skeleton_transforms(group->skeletons[i]),
           (size_t)(group->bone_offsets[i + 1] - group->bone_offsets[i]) * sizeof(double));
}

/* Every skeleton's matrices, made now, into the matrix array. */
static void group_make_matrices(luaik_group *group) {
  int i;
  for (i = 0; i < group->skeleton_count; i++) {
    int first = group->bone_offsets[i] / GROUP_TRANSFORM;
    int bones = group->bone_offsets[i + 1] / GROUP_TRANSFORM - first;
    memcpy(group->matrices + GROUP_MATRIX * first, ik2d_skeleton_matrices(group->skeletons[i]),
           (size_t)(GROUP_MATRIX * bones) * sizeof(double));
  }
}

/* The arrays a solve reads, in the order their errors are looked for. */
typedef enum group_input { INPUT_BASES, INPUT_TARGETS, INPUT_TIPS, INPUT_POLES } group_input;

static const char *const input_names[] = { "base array", "target array", "tip angle array",
                                           "pole array" };

/* The 0-based entry of a bad number: item bad of the array, the status
** naming its part. */
static int input_entry(group_input input, int bad, ik2d_status status) {
  switch (input) {
    case INPUT_BASES:
      return 3 * bad + (status == IK2D_ERR_BASE_Y ? 1 : status == IK2D_ERR_BASE_ANGLE ? 2 : 0);
    case INPUT_TARGETS: return 2 * bad + (status == IK2D_ERR_TARGET_Y ? 1 : 0);
    case INPUT_TIPS: return bad;
    default: return 2 * bad + (status == IK2D_ERR_POLE_Y ? 1 : 0);
  }
}

/* Whether a member's target (or, in a group of skeletons, any of their
** solvers') is on a bone: world targets for every member
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
  /* and the skeletons' solvers made after the group, which their solves
  ** solve too */
  for (i = 0; i < group->skeleton_count; i++) {
    ik2d_solver *list[IK2D_MAX_SKELETON_SOLVERS];
    int k, n = ik2d_skeleton_solvers(group->skeletons[i], list, IK2D_MAX_SKELETON_SOLVERS);
    for (k = 0; k < n; k++)
      if (ik2d_solver_target_bone(list[k], NULL, NULL, NULL) >= 0) return true;
  }
  group->free_targets = now;
  group->free_seen = true;
  return false;
}

/* Every array the solve reads checked before any is kept (a refused
** solve changes nothing), then kept: IK2D_OK, or the status of the first
** bad number (*input its array, *bad its member).  *moved_bases: the
** bases are left to the skeletons' solves (ik2d_skeleton_solve_at). */
static ik2d_status group_take_inputs(luaik_group *group, group_input *input, int *bad,
                                     bool *moved_bases) {
  ik2d_status status = IK2D_OK;
  *moved_bases = false;
  /* the target array alone: ik2d_solvers_set_targets checks it before it keeps
  ** any (one pass over it, not a check and then a checked set) */
  if (group->read_targets && !group->read_bases && !group->read_tips && !group->read_poles) {
    *input = INPUT_TARGETS;
    return ik2d_solvers_set_targets(group->solvers, group->count, group->targets, bad);
  }
  if (group->read_bases) {
    *input = INPUT_BASES;
    status = ik2d_skeletons_check_bases(group->skeletons, group->skeleton_count, group->bases, bad);
  }
  if (status == IK2D_OK && group->read_targets) {
    *input = INPUT_TARGETS;
    status = ik2d_solvers_check_targets(group->solvers, group->count, group->targets, bad);
  }
  if (status == IK2D_OK && group->read_tips) {
    *input = INPUT_TIPS;
    status = ik2d_solvers_check_tip_angles(group->solvers, group->count, group->tips, bad);
  }
  if (status == IK2D_OK && group->read_poles) {
    *input = INPUT_POLES;
    status = ik2d_solvers_check_poles(group->solvers, group->count, group->poles, bad);
  }
  if (status != IK2D_OK) return status;
  /* each base set by its skeleton's solve (ik2d_skeleton_solve_at: the
  ** same bits, the bones placed once), unless a target on a bone may read
  ** a skeleton's bones before its own solve: then all first, as the
  ** calls one by one would */
  *moved_bases = group->read_bases && group->skeleton_count > 0 &&
                 (group->read_targets || !group_bone_targets(group));
  if (group->read_bases && !*moved_bases)
    ik2d_skeletons_set_bases(group->skeletons, group->skeleton_count, group->bases, NULL);
  if (group->read_targets)
    ik2d_solvers_set_targets(group->solvers, group->count, group->targets, NULL);
  if (group->read_tips)
    ik2d_solvers_set_tip_angles(group->solvers, group->count, group->tips, NULL);
  if (group->read_poles) ik2d_solvers_set_poles(group->solvers, group->count, group->poles, NULL);
  return IK2D_OK;
}

/* The first skeleton (1-based) whose solve would refuse for a cycle
** through targets on bones, or 0.  Only targets on bones make cycles, and
** the target array replaces every member's. */
static int group_cycle(luaik_group *group) {
  int i;
  if (group->skeleton_count == 0 || group->read_targets || !group_bone_targets(group)) return 0;
  for (i = 0; i < group->skeleton_count; i++)
    if (ik2d_skeleton_cycle(group->skeletons[i], NULL, NULL) != IK2D_OK) return i + 1;
  return 0;
}

/* The solve, the arrays' part of it included: IK2D_OK and *reached, or
** the status of a bad number in an array (*input, *bad as above), or
** IK2D_ERR_TARGET_CYCLE (*bad the 0-based skeleton), nothing changed. */
static ik2d_status group_run(luaik_group *group, int *reached, group_input *input, int *bad) {
  ik2d_status status;
  bool moved_bases = false;
  int cycle = group_cycle(group);
  if (cycle > 0) {
    *bad = cycle - 1;
    return IK2D_ERR_TARGET_CYCLE;
  }
  status = group_take_inputs(group, input, bad, &moved_bases);
  if (status != IK2D_OK) return status;
  if (group->skeleton_count > 0) {
    /* (the bases were checked with the other inputs) */
    ik2d_skeletons_solve_isa(group->skeletons, group->skeleton_count,
                             moved_bases ? group->bases : NULL, reached, NULL,
                             group->state->isa);
  } else {
    *reached = ik2d_solvers_solve_isa(group->solvers, group->count, group->state->isa);
  }
  if (group->write_joints) group_copy_joints(group);
  if (group->write_transforms) group_copy_transforms(group);
  return IK2D_OK;
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
  group_input input = INPUT_TARGETS;
  bool bone_targets = group->read_targets && group_bone_targets(group);
  ik2d_status status = group_run(group, &reached, &input, &bad);
  if (status == IK2D_ERR_TARGET_CYCLE) {
    ik2d_solver *a = NULL, *b = NULL;
    ik2d_skeleton_cycle(group->skeletons[bad], &a, &b);
    luaik_anchored(L, 1);
    lua_rawgeti(L, -1, group->count + bad + 1);
    luaik_cycle_error(L, lua_gettop(L), 0, a, b);
  }
  if (status != IK2D_OK)
    luaik_arg_errorf(L, 1, "%s [%d]: %s", input_names[input], input_entry(input, bad, status),
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
** luaik_group_solve the solve, or -1 for a bad number in an array or a
** cycle (the classic method then raises) or a member's target on a bone
** that the target array replaces (the classic method solves); the
** _array functions the arrays, read or written by every solve from the
** first time they are asked for (when they are filled with the state of
** then). */
LUAIK_EXPORT ik2d_solver *const *luaik_group_members(void *box, int *count,
                                                     double **scratch);
LUAIK_EXPORT int luaik_group_set_targets(void *box);
LUAIK_EXPORT bool luaik_group_live(void *box);
LUAIK_EXPORT int luaik_group_solve(void *box);
LUAIK_EXPORT double *luaik_group_target_array(void *box);
LUAIK_EXPORT const double *luaik_group_joint_array(void *box);
LUAIK_EXPORT double *luaik_group_tip_angle_array(void *box);
LUAIK_EXPORT double *luaik_group_pole_array(void *box);
LUAIK_EXPORT double *luaik_group_base_array(void *box);
LUAIK_EXPORT const double *luaik_group_transform_array(void *box);
LUAIK_EXPORT const double *luaik_group_matrix_array(void *box);
LUAIK_EXPORT void luaik_group_matrices(void *box);

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
  ik2d_status status = ik2d_solvers_set_targets(group->solvers, group->count, group->scratch, bad);
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
  group_input input;
  if (group->read_targets && group_bone_targets(group)) return -1;
  return group_run(group, &reached, &input, &bad) == IK2D_OK ? reached : -1;
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

/* A member without a tip angle (or pole) shows NaN in its entries: the
** solves do not read them. */
static void group_fill_tips(luaik_group *group, double *tips) {
  int i;
  for (i = 0; i < group->count; i++) {
    ik2d_solver_def def = ik2d_solver_get_def(group->solvers[i]);
    tips[i] = def.tip.enabled ? def.tip.angle : (double)NAN;
  }
}

static void group_fill_poles(luaik_group *group, double *poles) {
  int i;
  for (i = 0; i < group->count; i++) {
    ik2d_solver_def def = ik2d_solver_get_def(group->solvers[i]);
    poles[2 * i] = def.pole.enabled ? def.pole.x : (double)NAN;
    poles[2 * i + 1] = def.pole.enabled ? def.pole.y : (double)NAN;
  }
}

double *luaik_group_tip_angle_array(void *box) {
  luaik_group *group = group_of_box(box);
  if (!group->read_tips) {
    group_fill_tips(group, group->tips);
    group->read_tips = true;
  }
  return group->tips;
}

double *luaik_group_pole_array(void *box) {
  luaik_group *group = group_of_box(box);
  if (!group->read_poles) {
    group_fill_poles(group, group->poles);
    group->read_poles = true;
  }
  return group->poles;
}

double *luaik_group_base_array(void *box) {
  luaik_group *group = group_of_box(box);
  int i;
  if (group_of_solvers_only(group)) return NULL;
  if (!group->read_bases) {
    for (i = 0; i < group->skeleton_count; i++)
      ik2d_skeleton_base(group->skeletons[i], &group->bases[3 * i], &group->bases[3 * i + 1],
                         &group->bases[3 * i + 2]);
    group->read_bases = true;
  }
  return group->bases;
}

const double *luaik_group_transform_array(void *box) {
  luaik_group *group = group_of_box(box);
  if (group_of_solvers_only(group)) return NULL;
  if (!group->write_transforms) {
    group_copy_transforms(group);
    group->write_transforms = true;
  }
  return group->transforms;
}

/* The matrix array (NULL for a group of solvers), which
** luaik_group_matrices makes again: each g:matrix_array() call does. */
const double *luaik_group_matrix_array(void *box) {
  luaik_group *group = group_of_box(box);
  return group_of_solvers_only(group) ? NULL : group->matrices;
}

void luaik_group_matrices(void *box) { group_make_matrices(group_of_box(box)); }

/* n numbers from the table at index 2 into the scratch: the table is
** checked whole (its length, every item a number) before the core looks
** at them.  what: what each of the members gives, for the message (made
** only then: a frame's call makes no garbage). */
static void group_read_table(lua_State *L, luaik_group *group, int n, const char *what,
                             int members) {
  int i, length;
  luaik_check_table(L, 2);
  length = (int)luaik_rawlen(L, 2);
  if (length != n) {
    lua_pushfstring(L, what, members);
    luaik_arg_errorf(L, 2, "%d numbers expected (%s), got %d", n, lua_tostring(L, -1), length);
  }
  lua_settop(L, 2);
  for (i = 0; i < n; i++) {
    int is_number;
    lua_rawgeti(L, 2, i + 1);
    group->scratch[i] = (double)luaik_tonumberx(L, 3, &is_number);
    if (!is_number) luaik_number_at(L, 3, 2, lua_pushfstring(L, "item %d", i + 1));
    lua_pop(L, 1);
  }
}

static void group_table_error(lua_State *L, group_input input, int bad, ik2d_status status) {
  luaik_arg_errorf(L, 2, "item %d: %s", input_entry(input, bad, status) + 1,
                   luaik_status_message(L, status));
}

/* Every member's target from t = { x1, y1, x2, y2, ... }: one call a
** frame.  The core checks every target before it keeps any, so a failed
** call changes nothing. */
static int group_set_targets(lua_State *L) {
  luaik_group *group = check_live_group(L, 1);
  int bad = 0;
  bool bone_targets;
  ik2d_status status;
  group_read_table(L, group, 2 * group->count, "x, y for each of %d solvers", group->count);
  bone_targets = group_bone_targets(group);
  status = group_take_targets(group, &bad);
  if (status != IK2D_OK) group_table_error(L, INPUT_TARGETS, bad, status);
  if (bone_targets) group_release_targets(L, 1, group);
  return 0;
}

/* The tip angles of the members that have one from t (one number a
** member; the others' are not read). */
static int group_set_tip_angles(lua_State *L) {
  luaik_group *group = check_live_group(L, 1);
  int bad = 0;
  ik2d_status status;
  group_read_table(L, group, group->count, "an angle for each of %d solvers", group->count);
  status = ik2d_solvers_set_tip_angles(group->solvers, group->count, group->scratch, &bad);
  if (status != IK2D_OK) group_table_error(L, INPUT_TIPS, bad, status);
  if (group->read_tips) memcpy(group->tips, group->scratch, (size_t)group->count * sizeof(double));
  return 0;
}

static int group_set_poles(lua_State *L) {
  luaik_group *group = check_live_group(L, 1);
  int bad = 0;
  ik2d_status status;
  group_read_table(L, group, 2 * group->count, "x, y for each of %d solvers", group->count);
  status = ik2d_solvers_set_poles(group->solvers, group->count, group->scratch, &bad);
  if (status != IK2D_OK) group_table_error(L, INPUT_POLES, bad, status);
  if (group->read_poles)
    memcpy(group->poles, group->scratch, 2 * (size_t)group->count * sizeof(double));
  return 0;
}

/* Every skeleton's base from t = { x1, y1, angle1, x2, ... }. */
static int group_set_bases(lua_State *L) {
  luaik_group *group = check_skeleton_group(L, 1);
  int bad = 0, n = group->skeleton_count;
  ik2d_status status;
  group_read_table(L, group, 3 * n, "x, y, angle for each of %d skeletons", n);
  status = ik2d_skeletons_set_bases(group->skeletons, n, group->scratch, &bad);
  if (status != IK2D_OK) group_table_error(L, INPUT_BASES, bad, status);
  if (group->read_bases) memcpy(group->bases, group->scratch, 3 * (size_t)n * sizeof(double));
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

/* The same for skeleton i's first bone in the transform array. */
static int group_transform_offset(lua_State *L) {
  luaik_group *group = skeletons_only(L, check_group(L, 1));
  int i = luaik_check_whole(L, 2, "skeleton index");
  if (i < 1 || i > group->skeleton_count)
    luaik_index_error(L, 2, "skeleton", group->skeleton_count);
  lua_pushinteger(L, group->bone_offsets[i - 1]);
  return 1;
}

/* The arrays are FFI pointers: only LuaJIT's FFI can make them (under
** LuaJIT lua/ik2d/ffi.lua replaces these). */
static int group_no_ffi(lua_State *L) {
  check_live_group(L, 1);
  return luaik_call_error(L, "needs LuaJIT's FFI, which " LUA_VERSION " does not have");
}

static int group_no_ffi_skeletons(lua_State *L) {
  check_skeleton_group(L, 1);
  return group_no_ffi(L);
}

/* a function each, so that each error names its own method */
static int group_target_array(lua_State *L) { return group_no_ffi(L); }
static int group_joint_array(lua_State *L) { return group_no_ffi(L); }
static int group_tip_angle_array(lua_State *L) { return group_no_ffi(L); }
static int group_pole_array(lua_State *L) { return group_no_ffi(L); }
static int group_base_array(lua_State *L) { return group_no_ffi_skeletons(L); }
static int group_transform_array(lua_State *L) { return group_no_ffi_skeletons(L); }
static int group_matrix_array(lua_State *L) { return group_no_ffi_skeletons(L); }

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

/* Fills t with every skeleton's transforms, skeleton after skeleton. */
static int group_transforms(lua_State *L) {
  luaik_group *group = check_skeleton_group(L, 1);
  int i, next = 1;
  luaik_push_table_arg(L, 2);
  for (i = 0; i < group->skeleton_count; i++)
    next = luaik_fill(L, 2, next, ik2d_skeleton_transforms(group->skeletons[i]),
                      group->bone_offsets[i + 1] - group->bone_offsets[i]);
  luaik_trim(L, 2, next);
  return 1;
}

/* Fills t with every skeleton's matrices (6 a bone, as drawn now),
** skeleton after skeleton. */
static int group_matrices(lua_State *L) {
  luaik_group *group = check_skeleton_group(L, 1);
  int i, next = 1;
  luaik_push_table_arg(L, 2);
  for (i = 0; i < group->skeleton_count; i++) {
    int bones = (group->bone_offsets[i + 1] - group->bone_offsets[i]) / GROUP_TRANSFORM;
    next = luaik_fill(L, 2, next, ik2d_skeleton_matrices(group->skeletons[i]),
                      GROUP_MATRIX * bones);
  }
  luaik_trim(L, 2, next);
  return 1;
}

static int group_tostring(lua_State *L) {
  luaik_group *group = (luaik_group *)luaik_test_object(L, 1, LUAIK_GROUP);
  if (group == NULL || luaik_box_of(group)->collected) {
    lua_pushliteral(L, "ik2d.Group(collected)");
  } else if (group->skeleton_count > 0) {
    lua_pushfstring(L, "ik2d.Group(%d skeletons, %d solvers)", group->skeleton_count,
                    group->count);
  } else {
    lua_pushfstring(L, "ik2d.Group(%d solvers)", group->count);
  }
  return 1;
}

const luaL_Reg luaik_group_methods[] = {
  {"solver", group_solver},
  {"solvers", group_solvers},
  {"skeleton", group_skeleton},
  {"solve", group_solve},
  {"set_targets", group_set_targets},
  {"set_tip_angles", group_set_tip_angles},
  {"set_poles", group_set_poles},
  {"set_bases", group_set_bases},
  {"joints", group_joints},
  {"transforms", group_transforms},
  {"matrices", group_matrices},
  {"joint_offset", group_joint_offset},
  {"transform_offset", group_transform_offset},
  {"target_array", group_target_array},
  {"joint_array", group_joint_array},
  {"tip_angle_array", group_tip_angle_array},
  {"pole_array", group_pole_array},
  {"base_array", group_base_array},
  {"transform_array", group_transform_array},
  {"matrix_array", group_matrix_array},
  {NULL, NULL}
};

const luaL_Reg luaik_group_meta[] = {
  {"__len", group_len},
  {"__gc", luaik_gc},
  {"__tostring", group_tostring},
  {NULL, NULL}
};
