/*
** luaik_transform_constraint.c: ik2d.transform_constraint, a skeleton's
** transform constraint (Spine's): its bones and target named as the
** skeleton names them (or by index), its mixes, offsets and switches read
** by the rows of luaik_api.c.
**
** A constraint and its skeleton keep each other alive (each in the
** other's own table, luaik_keep, so that the collector takes the two
** together); its __gc takes it out of the skeleton's list and order.
** The core checks every value; when it refuses a mix or an offset (a
** status several options share), the option is found by handing the core
** each given one alone.
*/
#include "lua.h"
#include "lauxlib.h"

#include "luaik.h"

static ik2d_transform_constraint *check_constraint(lua_State *L, int arg) {
  return (ik2d_transform_constraint *)luaik_check_object(L, arg, LUAIK_TRANSFORM_CONSTRAINT,
                                                        "transform constraint");
}

/* The constraint, its skeleton not finalised (which lets it go). */
static ik2d_transform_constraint *check_live(lua_State *L, int arg) {
  ik2d_transform_constraint *tc = check_constraint(L, arg);
  if (ik2d_transform_constraint_skeleton(tc) == NULL)
    luaik_arg_error(L, arg, "skeleton was collected");
  return tc;
}

/* Pushes the skeleton of the constraint at index 1; returns its index. */
static int push_skeleton(lua_State *L, const ik2d_transform_constraint *tc) {
  lua_pushliteral(L, "skeleton");
  luaik_kept(L, 1, -1);
  lua_remove(L, -2);
  if (luaik_test_object(L, -1, LUAIK_SKELETON) != (void *)ik2d_transform_constraint_skeleton(tc))
    luaik_arg_error(L, 1, "its skeleton is out of reach (its user value was replaced)");
  return lua_gettop(L);
}

/* ------------------------------------------------------------------ */
/* options                                                              */
/* ------------------------------------------------------------------ */

/* The bones of the options' table at t (the skeleton at sk) into bones:
** how many; want, when not 0, is the count they must have. */
static int read_bones(lua_State *L, int sk, int t, int want, int *bones) {
  int top = lua_gettop(L), count, i;
  luaik_rawfield(L, t, "bones");
  if (!lua_istable(L, top + 1))
    luaik_arg_errorf(L, 2, "bones: table of bone names or indices expected, got %s",
                     luaik_typename(L, top + 1));
  count = (int)luaik_rawlen(L, top + 1);
  if (want > 0 && count != want)
    luaik_arg_errorf(L, 2, "bones: %d bones expected (as many as the constraint has), got %d",
                     want, count);
  if (count < 1 || count > IK2D_MAX_SKELETON_BONES)
    luaik_arg_errorf(L, 2, "bones: %s", luaik_status_message(L, IK2D_ERR_CONSTRAINT_BONES));
  for (i = 0; i < count; i++) {
    lua_rawgeti(L, top + 1, i + 1);
    bones[i] = luaik_bone_at(L, sk, top + 2, 2, lua_pushfstring(L, "bones[%d]", i + 1));
    lua_settop(L, top + 1);
  }
  lua_settop(L, top);
  return count;
}

static int read_target(lua_State *L, int sk, int t) {
  int top = lua_gettop(L), target;
  luaik_rawfield(L, t, "target");
  target = luaik_bone_at(L, sk, top + 1, 2, "target");
  lua_settop(L, top);
  return target;
}

/* Why the core refuses the bones or the target of def (status), naming
** the bone (the skeleton at sk): pushed. */
static const char *bones_refusal(lua_State *L, int sk, const ik2d_transform_constraint_def *def,
                                 ik2d_status status) {
  int i, j;
  if (status == IK2D_ERR_CONSTRAINT_TARGET)
    return lua_pushfstring(L, "target: bone \"%s\" is one of the constrained bones",
                           luaik_bone_name(L, sk, def->target));
  if (status == IK2D_ERR_CONSTRAINT_TWICE)
    for (i = 1; i < def->bone_count; i++)
      for (j = 0; j < i; j++)
        if (def->bones[i] == def->bones[j])
          return lua_pushfstring(L, "bones[%d]: bone \"%s\" is listed twice", i + 1,
                                 luaik_bone_name(L, sk, def->bones[i]));
  return lua_pushfstring(L, "%s", luaik_status_message(L, status));
}

/* The option of the table at t that the core refuses alone, from kept
** (the constraint's settings, which it takes): its name, the constraint
** left with kept. */
static const char *refused_option(lua_State *L, ik2d_transform_constraint *tc, int t,
                                  const ik2d_transform_constraint_def *kept) {
  const luaik_option *o;
  for (o = luaik_transform_constraint_options; o->name != NULL; o++) {
    ik2d_transform_constraint_def one = *kept;
    ik2d_status status;
    if (luaik_rawfield(L, t, o->name) != LUA_TNIL) luaik_read_option(L, -1, 2, o, &one);
    lua_pop(L, 1);
    status = ik2d_transform_constraint_set_def(tc, &one);
    ik2d_transform_constraint_set_def(tc, kept);
    if (status != IK2D_OK) return o->name;
  }
  return NULL;
}

/* def (read from the table at t, the skeleton at sk) kept by the
** constraint, whose settings are kept: NULL; or, refused, why (pushed),
** the constraint as it was. */
static const char *keep_def(lua_State *L, ik2d_transform_constraint *tc, int sk, int t,
                            const ik2d_transform_constraint_def *def,
                            const ik2d_transform_constraint_def *kept) {
  ik2d_status status = ik2d_transform_constraint_set_def(tc, def);
  const char *name;
  if (status == IK2D_OK) return NULL;
  if (status != IK2D_ERR_MIX && status != IK2D_ERR_OFFSET) return bones_refusal(L, sk, def, status);
  name = refused_option(L, tc, t, kept);
  if (name != NULL) return lua_pushfstring(L, "%s: %s", name, luaik_status_message(L, status));
  return lua_pushfstring(L, "%s", luaik_status_message(L, status));
}

/* ------------------------------------------------------------------ */
/* ik2d.transform_constraint(sk, options)                               */
/* ------------------------------------------------------------------ */

/* The constraint on the stack's top, made on the skeleton at index 1 from
** def's bones and target (its mixes and offsets the defaults); raises
** for a refused bone, target or skeleton. */
static ik2d_transform_constraint *make(lua_State *L, ik2d_skeleton *sk,
                                       const ik2d_transform_constraint_def *def) {
  ik2d_transform_constraint_def first = ik2d_default_transform_constraint_def();
  size_t size = ik2d_transform_constraint_size(def->bone_count);
  ik2d_transform_constraint *tc = (ik2d_transform_constraint *)luaik_new_object(
      L, size, LUAIK_TRANSFORM_CONSTRAINT);
  ik2d_status status;
  first.bones = def->bones;
  first.bone_count = def->bone_count;
  first.target = def->target;
  status = ik2d_transform_constraint_init(tc, size, sk, &first);
  if (status == IK2D_ERR_SKELETON_CONSTRAINTS) luaik_check_status(L, 1, status);
  if (status != IK2D_OK) luaik_arg_error(L, 2, bones_refusal(L, 1, def, status));
  return tc;
}

int luaik_transform_constraint_new(lua_State *L) {
  int bones[IK2D_MAX_SKELETON_BONES];
  ik2d_transform_constraint_def def = ik2d_default_transform_constraint_def(), kept;
  ik2d_skeleton *sk = luaik_check_skeleton(L, 1);
  ik2d_transform_constraint *tc;
  const char *refused;
  luaik_check_table(L, 2);
  lua_settop(L, 2);
  luaik_check_option_names(L, 2, 2, luaik_transform_constraint_fields);
  def.bones = bones;
  def.bone_count = read_bones(L, 1, 2, 0, bones);
  def.target = read_target(L, 1, 2);
  luaik_read_rows(L, 2, 2, luaik_transform_constraint_options, &def);
  tc = make(L, sk, &def);
  kept = ik2d_transform_constraint_get_def(tc);
  refused = keep_def(L, tc, 1, 2, &def, &kept);
  if (refused != NULL) {
    /* the skeleton as it was: without it */
    ik2d_transform_constraint_release(tc);
    luaik_arg_error(L, 2, refused);
  }
  lua_pushliteral(L, "skeleton");
  luaik_keep(L, 3, -1, 1);
  lua_pop(L, 1);
  luaik_skeleton_keep_constraint(L, 1, 3);
  return 1;
}

/* ------------------------------------------------------------------ */
/* methods                                                              */
/* ------------------------------------------------------------------ */

/* tc:set_options(t): the options t gives (bones and target by name or
** index, as many bones as it has); a refused one changes nothing. */
static int constraint_set_options(lua_State *L) {
  int bones[IK2D_MAX_SKELETON_BONES];
  ik2d_transform_constraint *tc = check_live(L, 1);
  ik2d_transform_constraint_def def = ik2d_transform_constraint_get_def(tc), kept = def;
  const char *refused;
  int sk, i;
  luaik_check_table(L, 2);
  lua_settop(L, 2);
  sk = push_skeleton(L, tc);
  luaik_check_option_names(L, 2, 2, luaik_transform_constraint_fields);
  for (i = 0; i < def.bone_count; i++) bones[i] = def.bones[i];
  def.bones = bones;
  if (luaik_rawfield(L, 2, "bones") != LUA_TNIL) read_bones(L, sk, 2, def.bone_count, bones);
  if (luaik_rawfield(L, 2, "target") != LUA_TNIL) def.target = read_target(L, sk, 2);
  lua_settop(L, sk);
  luaik_read_rows(L, 2, 2, luaik_transform_constraint_options, &def);
  refused = keep_def(L, tc, sk, 2, &def, &kept);
  if (refused != NULL) luaik_arg_error(L, 2, refused);
  return 0;
}

/* The names of def's bones into t.bones (the table there reused). */
static void push_bone_names(lua_State *L, int sk, int t, const ik2d_transform_constraint_def *def) {
  int i;
  if (luaik_rawfield(L, t, "bones") != LUA_TTABLE) {
    lua_pop(L, 1);
    lua_createtable(L, def->bone_count, 0);
    lua_pushvalue(L, -1);
    luaik_rawsetfield(L, t, "bones");
  }
  for (i = 0; i < def->bone_count; i++) {
    luaik_bone_name(L, sk, def->bones[i]);
    lua_rawseti(L, -2, i + 1);
  }
  luaik_trim(L, lua_gettop(L), def->bone_count + 1);
  lua_pop(L, 1);
}

/* tc:options([t]) -> t: every option, bones and target as names. */
static int constraint_options(lua_State *L) {
  ik2d_transform_constraint *tc = check_live(L, 1);
  ik2d_transform_constraint_def def = ik2d_transform_constraint_get_def(tc);
  int sk;
  luaik_push_table_arg(L, 2);
  sk = push_skeleton(L, tc);
  push_bone_names(L, sk, 2, &def);
  luaik_bone_name(L, sk, def.target);
  luaik_rawsetfield(L, 2, "target");
  luaik_push_options(L, 2, luaik_transform_constraint_options, &def, 0);
  lua_settop(L, 2);
  return 1;
}

static int constraint_skeleton(lua_State *L) {
  push_skeleton(L, check_live(L, 1));
  return 1;
}

/* tc:apply(): now, as the skeleton's solve applies it in its order. */
static int constraint_apply(lua_State *L) {
  ik2d_transform_constraint_apply(check_live(L, 1));
  return 0;
}

static int constraint_gc(lua_State *L) {
  ik2d_transform_constraint *tc =
      (ik2d_transform_constraint *)luaik_test_object(L, 1, LUAIK_TRANSFORM_CONSTRAINT);
  if (tc != NULL && !luaik_box_of(tc)->collected) ik2d_transform_constraint_release(tc);
  return luaik_gc(L);
}

static int constraint_tostring(lua_State *L) {
  ik2d_transform_constraint *tc =
      (ik2d_transform_constraint *)luaik_test_object(L, 1, LUAIK_TRANSFORM_CONSTRAINT);
  if (tc == NULL || luaik_box_of(tc)->collected) {
    lua_pushliteral(L, "ik2d.TransformConstraint(collected)");
  } else {
    ik2d_transform_constraint_def def = ik2d_transform_constraint_get_def(tc);
    lua_pushfstring(L, "ik2d.TransformConstraint(%d bones%s)", def.bone_count,
                    ik2d_transform_constraint_skeleton(tc) == NULL ? ", skeleton collected" : "");
  }
  return 1;
}

const luaL_Reg luaik_transform_constraint_methods[] = {
  {"set_options", constraint_set_options},
  {"options", constraint_options},
  {"skeleton", constraint_skeleton},
  {"apply", constraint_apply},
  {NULL, NULL}
};

const luaL_Reg luaik_transform_constraint_meta[] = {
  {"__tostring", constraint_tostring},
  {"__gc", constraint_gc},
  {NULL, NULL}
};
