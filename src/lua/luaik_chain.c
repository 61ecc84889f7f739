/*
** luaik_chain.c: ik2d.chain (over luaik_constraint.c: its limits).
*/
#include <string.h>

#include "lua.h"
#include "lauxlib.h"

#include "luaik.h"

/* ------------------------------------------------------------------ */
/* chains                                                               */
/* ------------------------------------------------------------------ */

ik2d_chain *luaik_check_chain(lua_State *L, int arg) {
  return (ik2d_chain *)luaik_check_object(L, arg, LUAIK_CHAIN, "chain");
}



/* Reads bone i of the chain table at index 1 into bone; pushes its
** constraint (or nil). */
static void read_bone(lua_State *L, int i, ik2d_bone_def *bone) {
  int top = lua_gettop(L), t = top + 1, owner_index = top + 2;
  const char *owner;
  ik2d_constraint_def limits;
  ik2d_status status;
  lua_rawgeti(L, 1, i + 1);
  owner = lua_pushfstring(L, "bone %d: ", i + 1);
  if (!lua_istable(L, t))
    luaik_arg_errorf(L, 1, "%stable expected, got %s", owner, luaik_typename(L, t));
  luaik_check_keys(L, t, 1, owner, "field", luaik_bone_fields, 0);
  *bone = ik2d_default_bone_def();
  luaik_read_fields(L, t, 1, owner, luaik_bone_options, bone);
  status = ik2d_bone_def_check(bone);
  if (status != IK2D_OK) luaik_arg_errorf(L, 1, "%s%s", owner, luaik_status_message(L, status));
  lua_settop(L, owner_index);
  if (luaik_read_limits(L, t, 1, owner, &limits)) {
    bone->constraint = luaik_push_constraint(L, 1, owner, &limits);
  } else {
    lua_pushnil(L);
  }
  /* leave only the constraint (or nil) */
  lua_replace(L, t);
  lua_settop(L, t);
}

int luaik_chain_new(lua_State *L) {
  ik2d_bone_def bones[IK2D_MAX_BONES];
  ik2d_chain_def def = ik2d_default_chain_def();
  ik2d_chain *chain;
  bool limited = false;
  size_t size;
  int count, i, first;
  luaik_check_table(L, 1);
  lua_settop(L, 1);
  count = (int)luaik_rawlen(L, 1);
  if (count < 1 || count > IK2D_MAX_BONES)
    luaik_check_status(L, 1, IK2D_ERR_BONE_COUNT);
  luaik_check_keys(L, 1, 1, "", "field", luaik_chain_fields, count);
  /* a slot per bone for its constraint (64 is more than Lua promises a C
  ** function), and room for reading one */
  luaL_checkstack(L, count + LUA_MINSTACK, "too many bones");
  /* the bones' constraints go on the stack from index 2 */
  first = lua_gettop(L) + 1;
  for (i = 0; i < count; i++) {
    read_bone(L, i, &bones[i]);
    limited = limited || bones[i].constraint != NULL;
  }
  def.bone_count = count;
  def.bones = bones;
  def.x = luaik_number_field(L, 1, 1, "x", "x", 0.0);
  def.y = luaik_number_field(L, 1, 1, "y", "y", 0.0);
  def.angle = luaik_number_field(L, 1, 1, "angle", "angle", 0.0);
  luaik_rawfield(L, 1, "flip");
  def.flip = !lua_isnil(L, -1) && luaik_boolean_at(L, -1, 1, "flip");
  lua_pop(L, 1);
  size = ik2d_chain_size(count);
  chain = (ik2d_chain *)luaik_new_object(L, size, LUAIK_CHAIN);
  luaik_check_status(L, 1, ik2d_chain_init(chain, size, &def));
  if (limited) {
    /* anchors[chain] = { [bone] = constraint } keeps them alive */
    lua_createtable(L, count, 0);
    for (i = 0; i < count; i++) {
      lua_pushvalue(L, first + i);
      lua_rawseti(L, -2, i + 1);
    }
    luaik_anchor(L, -2, -1);
    lua_pop(L, 1);
  }
  return 1;
}

/* 0-based bone index i at arg checked by the core: raises naming what
** ("bone" or "joint") and the range. */
static void check_index(lua_State *L, int arg, const ik2d_chain *chain,
                        ik2d_status status, const char *what, int extra) {
  if (status == IK2D_ERR_INDEX)
    luaik_index_error(L, arg, what, ik2d_chain_bone_count(chain) + extra);
  luaik_check_status(L, arg, status);
}

static int bone_arg(lua_State *L, int arg) {
  return luaik_check_whole(L, arg, "bone index") - 1;
}

/* The chain at argument 1, not a skeleton's path (whose base, flip, pose
** and bones are the skeleton's: edits go there). */
static ik2d_chain *check_own_chain(lua_State *L) {
  ik2d_chain *chain = luaik_check_chain(L, 1);
  if (ik2d_chain_skeleton(chain, NULL, NULL) != NULL) luaik_check_status(L, 1, IK2D_ERR_LINKED);
  return chain;
}

static int chain_len(lua_State *L) {
  lua_pushinteger(L, ik2d_chain_bone_count(luaik_check_chain(L, 1)));
  return 1;
}

static int chain_set_base(lua_State *L) {
  ik2d_chain *chain = check_own_chain(L);
  double x, y, angle;
  ik2d_chain_base(chain, NULL, NULL, &angle);
  luaik_base_args(L, &x, &y, &angle);
  luaik_check_base_status(L, ik2d_chain_set_base(chain, x, y, angle));
  return 0;
}

static int chain_base(lua_State *L) {
  double x, y, angle;
  ik2d_chain_base(luaik_check_chain(L, 1), &x, &y, &angle);
  return luaik_push_xya(L, x, y, angle);
}

static int chain_set_flip(lua_State *L) {
  ik2d_chain *chain = check_own_chain(L);
  luaik_check_status(L, 2, ik2d_chain_set_flip(chain, luaik_boolean_at(L, 2, 2, "flip")));
  return 0;
}

static int chain_flip(lua_State *L) {
  lua_pushboolean(L, ik2d_chain_flip(luaik_check_chain(L, 1)));
  return 1;
}

static int chain_set_pose(lua_State *L) {
  ik2d_chain *chain = check_own_chain(L);
  int i = bone_arg(L, 2);
  double angle = luaik_check_number(L, 3);
  ik2d_status status = ik2d_chain_set_pose(chain, i, angle);
  check_index(L, status == IK2D_ERR_INDEX ? 2 : 3, chain, status, "bone", 0);
  return 0;
}

/* chain:f(i) for a per-bone read of the core */
typedef ik2d_status (*bone_read)(const ik2d_chain *, int, double *);

static int push_bone_value(lua_State *L, bone_read read) {
  ik2d_chain *chain = luaik_check_chain(L, 1);
  double value;
  check_index(L, 2, chain, read(chain, bone_arg(L, 2), &value), "bone", 0);
  lua_pushnumber(L, value);
  return 1;
}

static int chain_pose(lua_State *L) { return push_bone_value(L, ik2d_chain_pose); }
static int chain_angle(lua_State *L) { return push_bone_value(L, ik2d_chain_angle); }
static int chain_world_angle(lua_State *L) {
  return push_bone_value(L, ik2d_chain_world_angle);
}
static int chain_length(lua_State *L) { return push_bone_value(L, ik2d_chain_length); }
static int chain_rest(lua_State *L) { return push_bone_value(L, ik2d_chain_rest); }

static int chain_reach(lua_State *L) {
  lua_pushnumber(L, ik2d_chain_reach(luaik_check_chain(L, 1)));
  return 1;
}

static int chain_scale(lua_State *L) {
  lua_pushnumber(L, ik2d_chain_scale(luaik_check_chain(L, 1)));
  return 1;
}

/* whether sprites take the scale on both axes (the solver's uniform) */
static int chain_uniform(lua_State *L) {
  lua_pushboolean(L, ik2d_chain_uniform(luaik_check_chain(L, 1)));
  return 1;
}

static int chain_joint(lua_State *L) {
  ik2d_chain *chain = luaik_check_chain(L, 1);
  double x, y;
  int i = luaik_check_whole(L, 2, "joint index") - 1;
  check_index(L, 2, chain, ik2d_chain_joint(chain, i, &x, &y), "joint", 1);
  lua_pushnumber(L, x);
  lua_pushnumber(L, y);
  return 2;
}

static int chain_tip(lua_State *L) {
  ik2d_chain *chain = luaik_check_chain(L, 1);
  const double *joints = ik2d_chain_joints(chain);
  int n = ik2d_chain_bone_count(chain);
  lua_pushnumber(L, joints[2 * n]);
  lua_pushnumber(L, joints[2 * n + 1]);
  return 2;
}

static int chain_joints(lua_State *L) {
  ik2d_chain *chain = luaik_check_chain(L, 1);
  int n = ik2d_chain_bone_count(chain);
  luaik_push_table_arg(L, 2);
  luaik_trim(L, 2, luaik_fill(L, 2, 1, ik2d_chain_joints(chain), 2 * (n + 1)));
  return 1;
}

static int chain_reset(lua_State *L) {
  ik2d_chain_reset(check_own_chain(L));
  return 0;
}

static int chain_set_constraint(lua_State *L) {
  ik2d_chain *chain = check_own_chain(L);
  int i = bone_arg(L, 2);
  const ik2d_constraint *old, *c = NULL;
  if (!lua_isnoneornil(L, 3)) c = luaik_check_constraint(L, 3);
  check_index(L, 2, chain, ik2d_chain_constraint(chain, i, &old), "bone", 0);
  lua_settop(L, 3);
  /* anchors[chain][i + 1] = c, before the core holds its pointer */
  luaik_anchored(L, 1);
  if (lua_isnil(L, -1)) {
    lua_pop(L, 1);
    lua_newtable(L);
    luaik_anchor(L, 1, -1);
  }
  lua_pushvalue(L, 3);
  lua_rawseti(L, -2, i + 1);
  ik2d_chain_set_constraint(chain, i, c);
  return 0;
}

/* chain:skeleton() -> sk, first bone's name, last bone's name; nothing
** for a standalone chain. */
static int chain_skeleton(lua_State *L) {
  ik2d_chain *chain = luaik_check_chain(L, 1);
  int from = 0, to = 0;
  if (ik2d_chain_skeleton(chain, &from, &to) == NULL) return 0;
  lua_settop(L, 1);
  luaik_anchored(L, 1);
  /* (raw: the anchor is the binding's own table, or gone when the debug
  ** library replaced it; then the skeleton is not the binding's to give) */
  if (!lua_istable(L, 2)) return 0;
  lua_pushliteral(L, "skeleton");
  lua_rawget(L, 2);
  if (luaik_test_object(L, 3, LUAIK_SKELETON) == NULL) return 0;
  luaik_bone_name(L, 3, from);
  luaik_bone_name(L, 3, to);
  return 3;
}

static int chain_constraint(lua_State *L) {
  ik2d_chain *chain = luaik_check_chain(L, 1);
  const ik2d_constraint *c;
  int i = bone_arg(L, 2);
  check_index(L, 2, chain, ik2d_chain_constraint(chain, i, &c), "bone", 0);
  if (c == NULL) return 0;
  if (ik2d_chain_skeleton(chain, NULL, NULL) != NULL) {
    luaik_push_path_constraint(L, 1, chain, i);
    return 1;
  }
  luaik_anchored(L, 1);
  lua_rawgeti(L, -1, i + 1);
  return 1;
}

/* chain:set_length(i, L), chain:set_rest(i, angle) */
typedef ik2d_status (*bone_write)(ik2d_chain *, int, double);

static int set_bone_value(lua_State *L, bone_write write) {
  ik2d_chain *chain = check_own_chain(L);
  int i = bone_arg(L, 2);
  double value = luaik_check_number(L, 3);
  ik2d_status status = write(chain, i, value);
  check_index(L, status == IK2D_ERR_INDEX ? 2 : 3, chain, status, "bone", 0);
  return 0;
}

static int chain_set_length(lua_State *L) { return set_bone_value(L, ik2d_chain_set_length); }
static int chain_set_rest(lua_State *L) { return set_bone_value(L, ik2d_chain_set_rest); }

int luaik_chain_gc(lua_State *L) {
  ik2d_chain *chain = (ik2d_chain *)luaik_test_object(L, 1, LUAIK_CHAIN);
  if (chain != NULL && !luaik_box_of(chain)->collected) ik2d_chain_release(chain);
  return luaik_gc(L);
}

static int chain_tostring(lua_State *L) {
  ik2d_chain *chain = (ik2d_chain *)luaik_test_object(L, 1, LUAIK_CHAIN);
  if (chain == NULL || luaik_box_of(chain)->collected) {
    lua_pushliteral(L, "ik2d.Chain(collected)");
  } else {
    const double *joints = ik2d_chain_joints(chain);
    int n = ik2d_chain_bone_count(chain);
    lua_pushfstring(L, "ik2d.Chain(%d bones, base %f, %f, tip %f, %f)", n,
                    joints[0], joints[1], joints[2 * n], joints[2 * n + 1]);
  }
  return 1;
}

const luaL_Reg luaik_chain_methods[] = {
  {"set_base", chain_set_base},
  {"base", chain_base},
  {"set_flip", chain_set_flip},
  {"flip", chain_flip},
  {"set_pose", chain_set_pose},
  {"pose", chain_pose},
  {"angle", chain_angle},
  {"world_angle", chain_world_angle},
  {"length", chain_length},
  {"set_length", chain_set_length},
  {"rest", chain_rest},
  {"set_rest", chain_set_rest},
  {"reach", chain_reach},
  {"scale", chain_scale},
  {"uniform", chain_uniform},
  {"joint", chain_joint},
  {"tip", chain_tip},
  {"joints", chain_joints},
  {"reset", chain_reset},
  {"set_constraint", chain_set_constraint},
  {"constraint", chain_constraint},
  {"skeleton", chain_skeleton},
  {NULL, NULL}
};

const luaL_Reg luaik_chain_meta[] = {
  {"__len", chain_len},
  {"__tostring", chain_tostring},
  {"__gc", luaik_chain_gc},
  {NULL, NULL}
};
