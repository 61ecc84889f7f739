/*
** luaik_skeleton.c: ik2d.skeleton, and chains over its paths.
**
** Bones have names here (the core numbers them): anchors[skeleton] is a
** table holding the names (info[i]), the index of each name
** (info.index[name] = i) and the constraints made from the bones' limits
** or shared with set_constraint (info.constraints[i]).  It refers to
** nothing that refers back, so it never keeps a skeleton alive.  The
** skeleton's chains and solvers are linked in its C lists without being
** anchored by it (a chain anchors its skeleton, and LuaJIT's weak-keyed
** tables do not collect cycles): their __gc unlinks them.  Its transform
** constraints are its for good: it keeps each alive, and each keeps it
** (both in the objects' own tables, luaik_keep).
*/
#include <string.h>

#include "lua.h"
#include "lauxlib.h"

#include "luaik.h"

ik2d_skeleton *luaik_check_skeleton(lua_State *L, int arg) {
  return (ik2d_skeleton *)luaik_check_object(L, arg, LUAIK_SKELETON, "skeleton");
}

/* ------------------------------------------------------------------ */
/* names                                                                */
/* ------------------------------------------------------------------ */

/* Pushes the skeleton's info table (the skeleton at index sk). */
static void push_info(lua_State *L, int sk) { luaik_anchored(L, sk); }

/* The name of 0-based bone i of the skeleton at index sk, pushed. */
const char *luaik_bone_name(lua_State *L, int sk, int i) {
  push_info(L, sk);
  lua_rawgeti(L, -1, i + 1);
  lua_replace(L, -2);
  return lua_tostring(L, -1);
}

int luaik_bone_at(lua_State *L, int sk, int index, int arg, const char *what) {
  const ik2d_skeleton *skeleton = (const ik2d_skeleton *)luaik_test_object(L, sk, LUAIK_SKELETON);
  int count = ik2d_skeleton_bone_count(skeleton), i;
  /* "what: " before each message (pushed: index must not be relative) */
  const char *owner = what != NULL ? lua_pushfstring(L, "%s: ", what) : "";
  if (lua_type(L, index) == LUA_TNUMBER) {
    i = luaik_whole_at(L, index, arg, lua_pushfstring(L, "%sbone index", owner));
    if (i < 1 || i > count)
      luaik_arg_errorf(L, arg, "%sbone index %d out of range (1..%d)", owner, i, count);
    lua_pop(L, what != NULL ? 2 : 1);
    return i - 1;
  }
  if (lua_type(L, index) != LUA_TSTRING)
    luaik_arg_errorf(L, arg, "%sbone name or index expected, got %s", owner,
                     luaik_typename(L, index));
  push_info(L, sk);
  lua_getfield(L, -1, "index");
  lua_pushvalue(L, index);
  lua_rawget(L, -2);
  if (lua_isnil(L, -1))
    luaik_arg_errorf(L, arg, "%sunknown bone \"%s\"", owner, lua_tostring(L, index));
  i = (int)lua_tointeger(L, -1);
  lua_pop(L, what != NULL ? 4 : 3);
  return i - 1;
}

/* The 0-based bone at argument arg: its name or its index. */
int luaik_bone_arg(lua_State *L, int sk, int arg) { return luaik_bone_at(L, sk, arg, arg, NULL); }

/* ------------------------------------------------------------------ */
/* ik2d.skeleton{ ... }                                                 */
/* ------------------------------------------------------------------ */

/* Reads bone i (0-based) of the table at index 1 into bone; the info
** table at info gets its name.  Leaves its constraint (or nil) pushed. */
static void read_bone(lua_State *L, int info, int i, const ik2d_skeleton_bone_def *bones,
                      ik2d_skeleton_bone_def *bone) {
  int top = lua_gettop(L), t = top + 1, index, x, y;
  const char *owner;
  ik2d_constraint_def limits;
  lua_rawgeti(L, 1, i + 1);
  if (!lua_istable(L, t))
    luaik_arg_errorf(L, 1, "bone %d: table expected, got %s", i + 1, luaik_typename(L, t));
  luaik_rawfield(L, t, "name");
  if (lua_type(L, -1) != LUA_TSTRING)
    luaik_arg_errorf(L, 1, "bone %d: name must be a string, got %s", i + 1,
                     luaik_typename(L, -1));
  owner = lua_pushfstring(L, "bone \"%s\": ", lua_tostring(L, -1));
  luaik_check_keys(L, t, 1, owner, "field", luaik_skeleton_bone_fields, 0);
  /* unique: info.index[name] */
  lua_getfield(L, info, "index");
  index = lua_gettop(L);
  lua_pushvalue(L, top + 2);
  lua_rawget(L, index);
  if (!lua_isnil(L, -1))
    luaik_arg_errorf(L, 1, "bone %d: duplicate name \"%s\" (bone %d has it)", i + 1,
                     lua_tostring(L, top + 2), (int)lua_tointeger(L, -1));
  lua_pop(L, 1);
  *bone = ik2d_default_skeleton_bone_def();
  luaik_rawfield(L, t, "parent");
  if (!lua_isnil(L, -1)) {
    if (lua_type(L, -1) != LUA_TSTRING)
      luaik_arg_errorf(L, 1, "%sparent must be a bone name, got %s", owner, luaik_typename(L, -1));
    lua_pushvalue(L, -1);
    lua_rawget(L, index);
    if (lua_isnil(L, -1)) {
      /* not yet: a name given later, or none */
      int k, later = 0;
      for (k = i + 2; later == 0 && k <= (int)luaik_rawlen(L, 1); k++) {
        lua_rawgeti(L, 1, k);
        if (lua_istable(L, -1)) {
          luaik_rawfield(L, -1, "name");
          if (lua_rawequal(L, -1, -4)) later = k;
          lua_pop(L, 1);
        }
        lua_pop(L, 1);
      }
      if (later > 0)
        luaik_arg_errorf(L, 1, "%sparent \"%s\" is not defined earlier (it is bone %d: "
                         "parents come first)", owner, lua_tostring(L, -2), later);
      luaik_arg_errorf(L, 1, "%sparent \"%s\" is not defined earlier", owner, lua_tostring(L, -2));
    }
    bone->parent = (int)lua_tointeger(L, -1) - 1;
    lua_pop(L, 1);
  }
  lua_pop(L, 1);
  luaik_read_fields(L, t, 1, owner, luaik_skeleton_bone_options, bone);
  /* an origin given: at (x, y), x defaulting to the parent's tip */
  luaik_rawfield(L, t, "x");
  x = lua_gettop(L);
  luaik_rawfield(L, t, "y");
  y = lua_gettop(L);
  if (!lua_isnil(L, x) || !lua_isnil(L, y)) {
    bone->at_tip = false;
    bone->x = bone->parent >= 0 ? bones[bone->parent].length : 0.0;
    if (!lua_isnil(L, x)) bone->x = luaik_number_at(L, x, 1, lua_pushfstring(L, "%sx", owner));
    if (!lua_isnil(L, y)) bone->y = luaik_number_at(L, y, 1, lua_pushfstring(L, "%sy", owner));
  }
  lua_settop(L, index);
  luaik_rawfield(L, t, "inherit");
  if (!lua_isnil(L, -1))
    bone->inherit = (ik2d_inherit)luaik_choice_at(L, index + 1, 1,
                                                  lua_pushfstring(L, "%sinherit", owner),
                                                  luaik_inherit_names);
  lua_settop(L, index);
  if (luaik_read_limits(L, t, 1, owner, &limits)) {
    bone->constraint = luaik_push_constraint(L, 1, owner, &limits);
  } else {
    lua_pushnil(L);
  }
  /* the name, taken: info[i + 1], info.index[name] = i + 1 */
  lua_pushvalue(L, top + 2);
  lua_rawseti(L, info, i + 1);
  lua_pushvalue(L, top + 2);
  lua_pushinteger(L, i + 1);
  lua_rawset(L, index);
  /* leave only the constraint (or nil) */
  lua_replace(L, t);
  lua_settop(L, t);
}

int luaik_skeleton_new(lua_State *L) {
  ik2d_skeleton_bone_def bones[IK2D_MAX_SKELETON_BONES];
  ik2d_skeleton_def def = ik2d_default_skeleton_def();
  ik2d_skeleton *sk;
  ik2d_status status;
  size_t size;
  int count, i, info, constraints, first, bad = -1;
  luaik_check_table(L, 1);
  lua_settop(L, 1);
  count = (int)luaik_rawlen(L, 1);
  if (count < 1 || count > IK2D_MAX_SKELETON_BONES)
    luaik_check_status(L, 1, IK2D_ERR_SKELETON_BONES);
  luaik_check_keys(L, 1, 1, "", "field", luaik_skeleton_fields, count);
  /* a slot per bone for its constraint, and room for reading one */
  luaL_checkstack(L, count + LUA_MINSTACK, "too many bones");
  lua_createtable(L, count, 2);
  info = lua_gettop(L);
  lua_createtable(L, 0, count);
  lua_setfield(L, info, "index");
  /* the bones' constraints go on the stack from first */
  first = info + 1;
  for (i = 0; i < count; i++) read_bone(L, info, i, bones, &bones[i]);
  for (i = 0; i < count; i++)
    bones[i].constraint = (const ik2d_constraint *)luaik_test_object(L, first + i, LUAIK_CONSTRAINT);
  def.bone_count = count;
  def.bones = bones;
  def.x = luaik_number_field(L, 1, 1, "x", "x", 0.0);
  def.y = luaik_number_field(L, 1, 1, "y", "y", 0.0);
  def.angle = luaik_number_field(L, 1, 1, "angle", "angle", 0.0);
  def.scale_x = luaik_number_field(L, 1, 1, "scale_x", "scale_x", 1.0);
  def.scale_y = luaik_number_field(L, 1, 1, "scale_y", "scale_y", 1.0);
  luaik_rawfield(L, 1, "flip");
  def.flip = !lua_isnil(L, -1) && luaik_boolean_at(L, -1, 1, "flip");
  lua_pop(L, 1);
  size = ik2d_skeleton_size(count);
  sk = (ik2d_skeleton *)luaik_new_object(L, size, LUAIK_SKELETON);
  status = ik2d_skeleton_init(sk, size, &def, &bad);
  if (status != IK2D_OK && bad >= 0) {
    lua_rawgeti(L, info, bad + 1);
    luaik_arg_errorf(L, 1, "bone \"%s\": %s", lua_tostring(L, -1), luaik_status_message(L, status));
  }
  luaik_check_status(L, 1, status);
  /* info.constraints = { [bone] = constraint } */
  lua_createtable(L, count, 0);
  constraints = lua_gettop(L);
  for (i = 0; i < count; i++) {
    lua_pushvalue(L, first + i);
    lua_rawseti(L, constraints, i + 1);
  }
  lua_setfield(L, info, "constraints");
  luaik_anchor(L, -1, info);
  return 1;
}

/* ------------------------------------------------------------------ */
/* methods                                                              */
/* ------------------------------------------------------------------ */

/* A core status for bone i at argument arg: "bone \"x\": <message>". */
static void check_bone_status(lua_State *L, int arg, int i, ik2d_status status) {
  if (status != IK2D_OK)
    luaik_arg_errorf(L, arg, "bone \"%s\": %s", luaik_bone_name(L, 1, i),
                     luaik_status_message(L, status));
}

static int skeleton_len(lua_State *L) {
  lua_pushinteger(L, ik2d_skeleton_bone_count(luaik_check_skeleton(L, 1)));
  return 1;
}

static int skeleton_bone(lua_State *L) {
  luaik_check_skeleton(L, 1);
  if (lua_type(L, 2) != LUA_TSTRING) luaik_type_error(L, 2, "string");
  push_info(L, 1);
  lua_getfield(L, -1, "index");
  lua_pushvalue(L, 2);
  lua_rawget(L, -2);
  return 1;
}

static int skeleton_name(lua_State *L) {
  int i;
  luaik_check_skeleton(L, 1);
  /* the bone first: the info pushed would stand for a missing argument */
  i = luaik_bone_arg(L, 1, 2);
  push_info(L, 1);
  lua_rawgeti(L, -1, i + 1);
  return 1;
}

static int skeleton_set_base(lua_State *L) {
  ik2d_skeleton *sk = luaik_check_skeleton(L, 1);
  double x, y, angle;
  ik2d_skeleton_base(sk, NULL, NULL, &angle);
  luaik_base_args(L, &x, &y, &angle);
  luaik_check_base_status(L, ik2d_skeleton_set_base(sk, x, y, angle));
  return 0;
}

static int skeleton_base(lua_State *L) {
  double x, y, angle;
  ik2d_skeleton_base(luaik_check_skeleton(L, 1), &x, &y, &angle);
  return luaik_push_xya(L, x, y, angle);
}

static int skeleton_set_flip(lua_State *L) {
  ik2d_skeleton *sk = luaik_check_skeleton(L, 1);
  ik2d_skeleton_set_flip(sk, luaik_boolean_at(L, 2, 2, "flip"));
  return 0;
}

static int skeleton_flip(lua_State *L) {
  lua_pushboolean(L, ik2d_skeleton_flip(luaik_check_skeleton(L, 1)));
  return 1;
}

/* sk:f(bone, value) for a per-bone edit of the core */
typedef ik2d_status (*bone_write)(ik2d_skeleton *, int, double);

static int set_bone_value(lua_State *L, bone_write write) {
  ik2d_skeleton *sk = luaik_check_skeleton(L, 1);
  int i = luaik_bone_arg(L, 1, 2);
  double value = luaik_check_number(L, 3);
  check_bone_status(L, 3, i, write(sk, i, value));
  return 0;
}

/* sk:set_pose(bone, angle, x, y, scale_x, scale_y, shear_x, shear_y): the
** argument each part of the local transform comes from (a nil one keeps
** the pose's), and the one a status of ik2d_bone_local's check blames. */
static int pose_arg_of(ik2d_status status) {
  switch (status) {
  case IK2D_ERR_ORIGIN_X: return 4;
  case IK2D_ERR_ORIGIN_Y: return 5;
  case IK2D_ERR_SCALE_X: return 6;
  case IK2D_ERR_SCALE_Y: return 7;
  case IK2D_ERR_SHEAR_X: return 8;
  case IK2D_ERR_SHEAR_Y: return 9;
  default: return 3;
  }
}

static void pose_part(lua_State *L, int arg, double *part) {
  if (!lua_isnoneornil(L, arg)) *part = luaik_check_number(L, arg);
}

static int skeleton_set_pose(lua_State *L) {
  ik2d_skeleton *sk;
  ik2d_bone_local local;
  ik2d_status status;
  int i;
  if (lua_gettop(L) <= 3) return set_bone_value(L, ik2d_skeleton_set_pose);
  sk = luaik_check_skeleton(L, 1);
  i = luaik_bone_arg(L, 1, 2);
  ik2d_skeleton_pose_local(sk, i, &local);
  local.angle = luaik_check_number(L, 3);
  pose_part(L, 4, &local.x);
  pose_part(L, 5, &local.y);
  pose_part(L, 6, &local.scale_x);
  pose_part(L, 7, &local.scale_y);
  pose_part(L, 8, &local.shear_x);
  pose_part(L, 9, &local.shear_y);
  status = ik2d_skeleton_set_pose_local(sk, i, &local);
  check_bone_status(L, pose_arg_of(status), i, status);
  return 0;
}

/* The 7 parts of a local transform, angle first. */
static int push_local(lua_State *L, const ik2d_bone_local *l) {
  lua_pushnumber(L, l->angle);
  lua_pushnumber(L, l->x);
  lua_pushnumber(L, l->y);
  lua_pushnumber(L, l->scale_x);
  lua_pushnumber(L, l->scale_y);
  lua_pushnumber(L, l->shear_x);
  lua_pushnumber(L, l->shear_y);
  return 7;
}

typedef ik2d_status (*local_read)(const ik2d_skeleton *, int, ik2d_bone_local *);

static int push_bone_local(lua_State *L, local_read read) {
  ik2d_skeleton *sk = luaik_check_skeleton(L, 1);
  ik2d_bone_local local = ik2d_default_bone_local();
  read(sk, luaik_bone_arg(L, 1, 2), &local);
  return push_local(L, &local);
}

static int skeleton_pose(lua_State *L) { return push_bone_local(L, ik2d_skeleton_pose_local); }
static int skeleton_result(lua_State *L) { return push_bone_local(L, ik2d_skeleton_result_local); }
static int skeleton_setup(lua_State *L) { return push_bone_local(L, ik2d_skeleton_setup_local); }

static int skeleton_set_scale(lua_State *L) {
  ik2d_skeleton *sk = luaik_check_skeleton(L, 1);
  double sx = luaik_check_number(L, 2), sy = luaik_check_number(L, 3);
  ik2d_status status = ik2d_skeleton_set_scale(sk, sx, sy);
  luaik_check_status(L, status == IK2D_ERR_SCALE_Y ? 3 : 2, status);
  return 0;
}

static int skeleton_scale(lua_State *L) {
  double sx, sy;
  ik2d_skeleton_scale(luaik_check_skeleton(L, 1), &sx, &sy);
  return luaik_push_xy(L, sx, sy);
}

static int skeleton_matrix(lua_State *L) {
  ik2d_skeleton *sk = luaik_check_skeleton(L, 1);
  double m[6] = {1.0, 0.0, 0.0, 1.0, 0.0, 0.0};
  int k;
  ik2d_skeleton_matrix(sk, luaik_bone_arg(L, 1, 2), m);
  for (k = 0; k < 6; k++) lua_pushnumber(L, m[k]);
  return 6;
}

static int skeleton_matrices(lua_State *L) {
  ik2d_skeleton *sk = luaik_check_skeleton(L, 1);
  int n = ik2d_skeleton_bone_count(sk);
  luaik_push_table_arg(L, 2);
  luaik_trim(L, 2, luaik_fill(L, 2, 1, ik2d_skeleton_matrices(sk), 6 * n));
  return 1;
}

/* The FFI path (lua/ik2d/ffi.lua) puts the real one in place. */
static int skeleton_matrix_array(lua_State *L) {
  luaik_check_skeleton(L, 1);
  return luaik_arg_error(L, 1, "matrix_array needs LuaJIT's FFI (the ik2d.ffi fast path is "
                         "off or not available: use matrices)");
}
static int skeleton_set_length(lua_State *L) {
  return set_bone_value(L, ik2d_skeleton_set_length);
}
static int skeleton_set_rest(lua_State *L) { return set_bone_value(L, ik2d_skeleton_set_rest); }

/* sk:f(bone) for a per-bone read of the core */
typedef ik2d_status (*bone_read)(const ik2d_skeleton *, int, double *);

static int push_bone_value(lua_State *L, bone_read read) {
  ik2d_skeleton *sk = luaik_check_skeleton(L, 1);
  double value = 0.0;
  read(sk, luaik_bone_arg(L, 1, 2), &value);
  lua_pushnumber(L, value);
  return 1;
}

static int skeleton_angle(lua_State *L) { return push_bone_value(L, ik2d_skeleton_angle); }
static int skeleton_length(lua_State *L) { return push_bone_value(L, ik2d_skeleton_length); }
static int skeleton_rest(lua_State *L) { return push_bone_value(L, ik2d_skeleton_rest); }

static int skeleton_world(lua_State *L) {
  ik2d_skeleton *sk = luaik_check_skeleton(L, 1);
  double x = 0.0, y = 0.0, angle = 0.0;
  ik2d_skeleton_world(sk, luaik_bone_arg(L, 1, 2), &x, &y, &angle);
  return luaik_push_xya(L, x, y, angle);
}

/* sk:f(bone) -> x, y for a per-bone point of the core */
typedef ik2d_status (*bone_point)(const ik2d_skeleton *, int, double *, double *);

static int push_bone_point(lua_State *L, bone_point read) {
  ik2d_skeleton *sk = luaik_check_skeleton(L, 1);
  double x = 0.0, y = 0.0;
  read(sk, luaik_bone_arg(L, 1, 2), &x, &y);
  return luaik_push_xy(L, x, y);
}

static int skeleton_tip(lua_State *L) { return push_bone_point(L, ik2d_skeleton_tip); }
static int skeleton_origin(lua_State *L) { return push_bone_point(L, ik2d_skeleton_origin); }

/* sk:point(bone, x, y) -> the world point of (x, y) in the bone's space */
static int skeleton_point(lua_State *L) {
  ik2d_skeleton *sk = luaik_check_skeleton(L, 1);
  int bone = luaik_bone_arg(L, 1, 2);
  double x = luaik_check_number(L, 3), y = luaik_check_number(L, 4), wx = 0.0, wy = 0.0;
  ik2d_skeleton_point(sk, bone, x, y, &wx, &wy);
  return luaik_push_xy(L, wx, wy);
}

static int skeleton_parent(lua_State *L) {
  ik2d_skeleton *sk = luaik_check_skeleton(L, 1);
  int parent = -1;
  ik2d_skeleton_parent(sk, luaik_bone_arg(L, 1, 2), &parent);
  if (parent < 0) return 0;
  lua_pushinteger(L, parent + 1);
  return 1;
}

static int skeleton_at_tip(lua_State *L) {
  ik2d_skeleton *sk = luaik_check_skeleton(L, 1);
  bool at_tip = true;
  ik2d_skeleton_at_tip(sk, luaik_bone_arg(L, 1, 2), &at_tip);
  lua_pushboolean(L, at_tip);
  return 1;
}

static int skeleton_inherit(lua_State *L) {
  ik2d_skeleton *sk = luaik_check_skeleton(L, 1);
  ik2d_inherit inherit = IK2D_INHERIT_ALL;
  ik2d_skeleton_inherit(sk, luaik_bone_arg(L, 1, 2), &inherit);
  lua_pushstring(L, luaik_inherit_names[inherit]);
  return 1;
}

static int skeleton_constraint(lua_State *L) {
  ik2d_skeleton *sk = luaik_check_skeleton(L, 1);
  int i = luaik_bone_arg(L, 1, 2);
  (void)sk;
  push_info(L, 1);
  lua_getfield(L, -1, "constraints");
  lua_rawgeti(L, -1, i + 1);
  return 1;
}

static int skeleton_set_constraint(lua_State *L) {
  ik2d_skeleton *sk = luaik_check_skeleton(L, 1);
  int i = luaik_bone_arg(L, 1, 2);
  const ik2d_constraint *c = NULL;
  if (!lua_isnoneornil(L, 3)) c = luaik_check_constraint(L, 3);
  lua_settop(L, 3);
  /* the core checks it (the stack keeps c alive meanwhile), then
  ** info.constraints[i + 1] = c keeps it for as long as the core holds
  ** its pointer */
  luaik_check_status(L, 3, ik2d_skeleton_set_constraint(sk, i, c));
  push_info(L, 1);
  lua_getfield(L, -1, "constraints");
  lua_pushvalue(L, 3);
  lua_rawseti(L, -2, i + 1);
  return 0;
}

static int skeleton_reset(lua_State *L) {
  ik2d_skeleton_reset(luaik_check_skeleton(L, 1));
  return 0;
}

static int skeleton_transforms(lua_State *L) {
  ik2d_skeleton *sk = luaik_check_skeleton(L, 1);
  int n = ik2d_skeleton_bone_count(sk);
  luaik_push_table_arg(L, 2);
  luaik_trim(L, 2, luaik_fill(L, 2, 1, ik2d_skeleton_transforms(sk), 5 * n));
  return 1;
}

/* The FFI path (lua/ik2d/ffi.lua) puts the real one in place. */
static int skeleton_transform_array(lua_State *L) {
  luaik_check_skeleton(L, 1);
  return luaik_arg_error(L, 1, "transform_array needs LuaJIT's FFI (the ik2d.ffi fast path is "
                         "off or not available: use transforms)");
}

/* "solver <i> (chain "<from>".."<to>")", pushed: the solver's place in
** sk:solvers() of the skeleton at index sk, and its chain's ends. */
static const char *solver_label(lua_State *L, int sk, const ik2d_solver *solver) {
  ik2d_solver *list[IK2D_MAX_SKELETON_SOLVERS];
  int n = ik2d_skeleton_solvers(luaik_check_skeleton(L, sk), list, IK2D_MAX_SKELETON_SOLVERS);
  int k, from = 0, to = 0, top = lua_gettop(L);
  for (k = 0; k < n && list[k] != solver; k++) continue;
  ik2d_chain_skeleton(ik2d_solver_chain(solver), &from, &to);
  luaik_bone_name(L, sk, from);
  luaik_bone_name(L, sk, to);
  lua_pushfstring(L, "solver %d (chain \"%s\"..\"%s\")", k + 1, lua_tostring(L, top + 1),
                  lua_tostring(L, top + 2));
  lua_replace(L, top + 1);
  lua_settop(L, top + 1);
  return lua_tostring(L, -1);
}

void luaik_cycle_error(lua_State *L, int sk, int arg, const ik2d_solver *a,
                       const ik2d_solver *b) {
  const char *first = solver_label(L, sk, a), *second = solver_label(L, sk, b);
  const char *message = lua_pushfstring(L, "%s and %s: %s", first, second,
                                        luaik_status_message(L, IK2D_ERR_TARGET_CYCLE));
  if (arg == 0) luaik_call_error(L, message);
  luaik_arg_error(L, arg, message);
}

static int skeleton_solve(lua_State *L) {
  ik2d_skeleton *sk = luaik_check_skeleton(L, 1);
  int reached = ik2d_skeleton_solve(sk);
  if (reached < 0) {
    ik2d_solver *a = NULL, *b = NULL;
    ik2d_skeleton_cycle(sk, &a, &b);
    luaik_cycle_error(L, 1, 0, a, b);
  }
  lua_pushinteger(L, reached);
  return 1;
}

/* ------------------------------------------------------------------ */
/* chains over paths, and the solvers on them                           */
/* ------------------------------------------------------------------ */

#define OBJECTS_KEY "ik2d.skeleton_solvers"

/* registry[OBJECTS_KEY][solver's address] = the solver: weak values, so
** that sk:solvers() can give back the Lua objects of the core's list. */
static void push_objects(lua_State *L) {
  lua_getfield(L, LUA_REGISTRYINDEX, OBJECTS_KEY);
  if (lua_istable(L, -1)) return;
  lua_pop(L, 1);
  lua_newtable(L);
  lua_createtable(L, 0, 1);
  lua_pushliteral(L, "v");
  lua_setfield(L, -2, "__mode");
  lua_setmetatable(L, -2);
  lua_pushvalue(L, -1);
  lua_setfield(L, LUA_REGISTRYINDEX, OBJECTS_KEY);
}

static int skeleton_chain(lua_State *L) {
  ik2d_skeleton *sk = luaik_check_skeleton(L, 1);
  int from = luaik_bone_arg(L, 1, 2), to = luaik_bone_arg(L, 1, 3), count = 0, bad = -1;
  ik2d_status status = ik2d_skeleton_path(sk, from, to, &count, &bad);
  ik2d_chain *chain;
  size_t size;
  if (status == IK2D_ERR_PATH) {
    const char *name = luaik_bone_name(L, 1, to);
    luaik_arg_errorf(L, 3, "bone \"%s\" does not descend from bone \"%s\"", name,
                     luaik_bone_name(L, 1, from));
  }
  if (status == IK2D_ERR_PATH_INHERIT) {
    ik2d_inherit inherit = IK2D_INHERIT_POSITION;
    ik2d_skeleton_inherit(sk, bad, &inherit);
    luaik_arg_errorf(L, 3, "bone \"%s\" inherits %s: it can only start a chain",
                     luaik_bone_name(L, 1, bad),
                     inherit == IK2D_INHERIT_POSITION ? "position only" : luaik_inherit_names[inherit]);
  }
  if (status == IK2D_ERR_BONE_COUNT)
    luaik_arg_errorf(L, 3, "%s (the path has more)", luaik_status_message(L, status));
  luaik_check_status(L, 3, status);
  lua_settop(L, 3);
  size = ik2d_skeleton_chain_size(count);
  chain = (ik2d_chain *)luaik_new_object(L, size, LUAIK_CHAIN);
  luaik_check_status(L, 3, ik2d_skeleton_chain_init(chain, size, sk, from, to, NULL));
  /* the chain keeps its skeleton alive (and not the other way):
  ** anchors[chain] = { skeleton = sk }, a table as a chain's anchor is */
  lua_createtable(L, 0, 1);
  lua_pushvalue(L, 1);
  lua_setfield(L, -2, "skeleton");
  luaik_anchor(L, 4, 5);
  lua_pop(L, 1);
  return 1;
}

/* Remembers a solver made on a skeleton chain (luaik_solver_new). */
static void remember_solver(lua_State *L, int solver) {
  const void *address = lua_touserdata(L, solver);
  push_objects(L);
  lua_pushlightuserdata(L, (void *)(uintptr_t)address);
  lua_pushvalue(L, solver);
  lua_rawset(L, -3);
  lua_pop(L, 1);
}

/* Pushes the Lua object of a solver on a skeleton's chains; false when
** it is being collected. */
static bool push_solver(lua_State *L, ik2d_solver *solver) {
  push_objects(L);
  lua_pushlightuserdata(L, (void *)luaik_box_of(solver));
  lua_rawget(L, -2);
  lua_remove(L, -2);
  if (!lua_isnil(L, -1)) return true;
  lua_pop(L, 1);
  return false;
}

int luaik_skeleton_push_solvers(lua_State *L, int sk, int t, int next) {
  ik2d_solver *list[IK2D_MAX_SKELETON_SOLVERS];
  int n = ik2d_skeleton_solvers(luaik_check_skeleton(L, sk), list, IK2D_MAX_SKELETON_SOLVERS), k;
  for (k = 0; k < n; k++)
    if (push_solver(L, list[k])) lua_rawseti(L, t, next++);
  return next;
}

/* sk:solvers([t]) -> t: every solver on the skeleton's chains, in the
** order made (the skeleton's own list; one being collected is left out). */
static int skeleton_solvers(lua_State *L) {
  luaik_check_skeleton(L, 1);
  luaik_push_table_arg(L, 2);
  luaik_trim(L, 2, luaik_skeleton_push_solvers(L, 1, 2, 1));
  return 1;
}

/* ------------------------------------------------------------------ */
/* transform constraints and the order                                  */
/* ------------------------------------------------------------------ */

void luaik_skeleton_keep_constraint(lua_State *L, int sk, int tc) {
  sk = sk < 0 ? lua_gettop(L) + sk + 1 : sk;
  tc = tc < 0 ? lua_gettop(L) + tc + 1 : tc;
  lua_pushlightuserdata(L, lua_touserdata(L, tc));
  luaik_keep(L, sk, -1, tc);
  lua_pop(L, 1);
}

/* Pushes the Lua object of the skeleton's (at index sk) transform
** constraint tc; false when it has none (its own table replaced). */
static bool push_constraint(lua_State *L, int sk, ik2d_transform_constraint *tc) {
  lua_pushlightuserdata(L, (void *)luaik_box_of(tc));
  luaik_kept(L, sk, -1);
  lua_remove(L, -2);
  if (!lua_isnil(L, -1)) return true;
  lua_pop(L, 1);
  return false;
}

/* sk:constraints([t]) -> t: its transform constraints, in the order made. */
static int skeleton_constraints(lua_State *L) {
  ik2d_transform_constraint *list[IK2D_MAX_SKELETON_SOLVERS];
  int n = ik2d_skeleton_transform_constraints(luaik_check_skeleton(L, 1), list,
                                              IK2D_MAX_SKELETON_SOLVERS);
  int k, next = 1;
  luaik_push_table_arg(L, 2);
  for (k = 0; k < n; k++)
    if (push_constraint(L, 1, list[k])) lua_rawseti(L, 2, next++);
  luaik_trim(L, 2, next);
  return 1;
}

/* The step at index (item i of the order's table) into step, checked: a
** live solver or transform constraint (the core says whether it is the
** skeleton's). */
static void read_step(lua_State *L, int index, int i, ik2d_step *step) {
  step->solver = (ik2d_solver *)luaik_test_object(L, index, LUAIK_SOLVER);
  step->constraint = step->solver != NULL ? NULL
                     : (ik2d_transform_constraint *)luaik_test_object(
                           L, index, LUAIK_TRANSFORM_CONSTRAINT);
  if (step->solver == NULL && step->constraint == NULL)
    luaik_arg_errorf(L, 2, "step %d: ik2d.Solver or ik2d.TransformConstraint expected, got %s", i,
                     luaik_typename(L, index));
  if (luaik_box_of(step->solver != NULL ? (void *)step->solver : (void *)step->constraint)
          ->collected)
    luaik_arg_errorf(L, 2, "step %d: %s was collected", i,
                     step->solver != NULL ? "solver" : "transform constraint");
}

/* sk:set_order(steps): the solvers (of its chains) and transform
** constraints its solve runs first, in that order; nil or {} clears it. */
static int skeleton_set_order(lua_State *L) {
  ik2d_step steps[2 * IK2D_MAX_SKELETON_SOLVERS];
  ik2d_skeleton *sk = luaik_check_skeleton(L, 1);
  int count = 0, i, bad = -1;
  ik2d_status status;
  if (!lua_isnoneornil(L, 2)) {
    luaik_check_table(L, 2);
    count = (int)luaik_rawlen(L, 2);
    lua_settop(L, 2);
    if (count > 2 * IK2D_MAX_SKELETON_SOLVERS)
      luaik_arg_errorf(L, 2, "%d steps, more than the %d solvers and constraints a skeleton has",
                       count, 2 * IK2D_MAX_SKELETON_SOLVERS);
    for (i = 0; i < count; i++) {
      lua_rawgeti(L, 2, i + 1);
      read_step(L, 3, i + 1, &steps[i]);
      lua_pop(L, 1);
    }
  }
  status = ik2d_skeleton_set_order(sk, steps, count, &bad);
  if (status != IK2D_OK)
    luaik_arg_errorf(L, 2, "step %d: %s", bad + 1, luaik_status_message(L, status));
  return 0;
}

/* sk:order([t]) -> t: the order's steps, solvers and transform
** constraints (one being collected is left out). */
static int skeleton_order(lua_State *L) {
  ik2d_step steps[2 * IK2D_MAX_SKELETON_SOLVERS];
  int n = ik2d_skeleton_order(luaik_check_skeleton(L, 1), steps, 2 * IK2D_MAX_SKELETON_SOLVERS);
  int k, next = 1;
  luaik_push_table_arg(L, 2);
  for (k = 0; k < n; k++) {
    bool found = steps[k].solver != NULL ? push_solver(L, steps[k].solver)
                                         : push_constraint(L, 1, steps[k].constraint);
    if (found) lua_rawseti(L, 2, next++);
  }
  luaik_trim(L, 2, next);
  return 1;
}

void luaik_skeleton_solver_made(lua_State *L, const ik2d_chain *chain) {
  if (ik2d_chain_skeleton(chain, NULL, NULL) != NULL) remember_solver(L, lua_gettop(L));
}

/* The chains it lets go keep pointing at the bones' constraints: its info
** (info.constraints) stays as long as it does, and each of those chains
** keeps it alive. */
static int skeleton_gc(lua_State *L) {
  ik2d_skeleton *sk = (ik2d_skeleton *)luaik_test_object(L, 1, LUAIK_SKELETON);
  if (sk == NULL || luaik_box_of(sk)->collected) return luaik_gc(L);
  ik2d_skeleton_release(sk);
  lua_settop(L, 1);
  push_info(L, 1);
  luaik_gc(L);
  if (lua_istable(L, 2)) luaik_anchor(L, 1, 2);
  return 0;
}

static int skeleton_tostring(lua_State *L) {
  ik2d_skeleton *sk = (ik2d_skeleton *)luaik_test_object(L, 1, LUAIK_SKELETON);
  if (sk == NULL || luaik_box_of(sk)->collected) {
    lua_pushliteral(L, "ik2d.Skeleton(collected)");
  } else {
    double x, y, angle;
    ik2d_skeleton_base(sk, &x, &y, &angle);
    lua_pushfstring(L, "ik2d.Skeleton(%d bones, base %f, %f)", ik2d_skeleton_bone_count(sk), x, y);
  }
  return 1;
}

const luaL_Reg luaik_skeleton_methods[] = {
  {"bone", skeleton_bone},
  {"name", skeleton_name},
  {"parent", skeleton_parent},
  {"set_base", skeleton_set_base},
  {"base", skeleton_base},
  {"set_flip", skeleton_set_flip},
  {"flip", skeleton_flip},
  {"set_length", skeleton_set_length},
  {"length", skeleton_length},
  {"set_rest", skeleton_set_rest},
  {"rest", skeleton_rest},
  {"origin", skeleton_origin},
  {"at_tip", skeleton_at_tip},
  {"inherit", skeleton_inherit},
  {"set_constraint", skeleton_set_constraint},
  {"constraint", skeleton_constraint},
  {"set_pose", skeleton_set_pose},
  {"pose", skeleton_pose},
  {"angle", skeleton_angle},
  {"result", skeleton_result},
  {"setup", skeleton_setup},
  {"set_scale", skeleton_set_scale},
  {"scale", skeleton_scale},
  {"matrix", skeleton_matrix},
  {"matrices", skeleton_matrices},
  {"matrix_array", skeleton_matrix_array},
  {"world", skeleton_world},
  {"tip", skeleton_tip},
  {"point", skeleton_point},
  {"reset", skeleton_reset},
  {"transforms", skeleton_transforms},
  {"transform_array", skeleton_transform_array},
  {"chain", skeleton_chain},
  {"solvers", skeleton_solvers},
  {"constraints", skeleton_constraints},
  {"set_order", skeleton_set_order},
  {"order", skeleton_order},
  {"solve", skeleton_solve},
  {NULL, NULL}
};

const luaL_Reg luaik_skeleton_meta[] = {
  {"__len", skeleton_len},
  {"__tostring", skeleton_tostring},
  {"__gc", skeleton_gc},
  {NULL, NULL}
};
