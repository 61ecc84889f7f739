/*
** luaik_constraint.c: ik2d.constraint, and the limits a bone table gives
** (min, max, invert, space), read for chains and skeletons alike: the
** layer both luaik_chain.c and luaik_skeleton.c stand on.
*/
#include <string.h>

#include "lua.h"
#include "lauxlib.h"

#include "luaik.h"

/* ------------------------------------------------------------------ */
/* constraints                                                          */
/* ------------------------------------------------------------------ */

ik2d_constraint *luaik_check_constraint(lua_State *L, int arg) {
  return (ik2d_constraint *)luaik_check_object(L, arg, LUAIK_CONSTRAINT,
                                               "constraint");
}


/* Reads a constraint def from the limit fields of the table at t, named
** by owner ("" or "bone 2: ") in errors; returns false when the table
** has neither min nor max.  Leaves the stack as it found it. */
bool luaik_read_limits(lua_State *L, int t, int arg, const char *owner,
                       ik2d_constraint_def *def) {
  int top = lua_gettop(L), min = top + 1, max = top + 2, invert = top + 3, space = top + 4;
  luaik_rawfield(L, t, "min");
  luaik_rawfield(L, t, "max");
  luaik_rawfield(L, t, "invert");
  luaik_rawfield(L, t, "space");
  if (lua_isnil(L, min) && lua_isnil(L, max)) {
    if (!lua_isnil(L, invert)) luaik_arg_errorf(L, arg, "%sinvert needs min and max", owner);
    if (!lua_isnil(L, space)) luaik_arg_errorf(L, arg, "%sspace needs min and max", owner);
    lua_settop(L, top);
    return false;
  }
  if (lua_isnil(L, min) || lua_isnil(L, max))
    luaik_arg_errorf(L, arg, "%smin and max go together", owner);
  def->min = luaik_number_at(L, min, arg, lua_pushfstring(L, "%smin", owner));
  def->max = luaik_number_at(L, max, arg, lua_pushfstring(L, "%smax", owner));
  def->invert = !lua_isnil(L, invert) &&
                luaik_boolean_at(L, invert, arg, lua_pushfstring(L, "%sinvert", owner));
  def->space = lua_isnil(L, space)
                   ? IK2D_SPACE_PARENT
                   : (ik2d_space)luaik_choice_at(L, space, arg,
                                                 lua_pushfstring(L, "%sspace", owner),
                                                 luaik_space_names);
  lua_settop(L, top);
  return true;
}

ik2d_constraint *luaik_push_constraint(lua_State *L, int arg, const char *owner,
                                       const ik2d_constraint_def *def) {
  size_t size = ik2d_constraint_size();
  ik2d_constraint *c = (ik2d_constraint *)luaik_new_object(L, size, LUAIK_CONSTRAINT);
  ik2d_status status = ik2d_constraint_init(c, size, def);
  if (status != IK2D_OK)
    luaik_arg_errorf(L, arg, "%s%s", owner, luaik_status_message(L, status));
  return c;
}

int luaik_constraint_new(lua_State *L) {
  ik2d_constraint_def def = ik2d_default_constraint_def();
  luaik_check_table(L, 1);
  luaik_check_keys(L, 1, 1, "", "field", luaik_constraint_fields, 0);
  if (!luaik_read_limits(L, 1, 1, "", &def)) luaik_arg_error(L, 1, "min and max go together");
  luaik_push_constraint(L, 1, "", &def);
  return 1;
}

static int constraint_set_limits(lua_State *L) {
  ik2d_constraint *c = luaik_check_constraint(L, 1);
  ik2d_constraint_def def = ik2d_constraint_get_def(c);
  def.min = luaik_check_number(L, 2);
  def.max = luaik_check_number(L, 3);
  ik2d_status status;
  if (!lua_isnoneornil(L, 4)) def.invert = luaik_boolean_at(L, 4, 4, "invert");
  status = ik2d_constraint_set_def(c, &def);
  luaik_check_status(L, status == IK2D_ERR_MAX || status == IK2D_ERR_MAX_DEGREES ? 3 : 2,
                     status);
  return 0;
}

static int constraint_limits(lua_State *L) {
  ik2d_constraint_def def = ik2d_constraint_get_def(luaik_check_constraint(L, 1));
  lua_pushnumber(L, def.min);
  lua_pushnumber(L, def.max);
  lua_pushboolean(L, def.invert);
  return 3;
}

static int constraint_invert(lua_State *L) {
  lua_pushboolean(L, ik2d_constraint_get_def(luaik_check_constraint(L, 1)).invert);
  return 1;
}

static int constraint_space(lua_State *L) {
  lua_pushstring(L, luaik_space_names[ik2d_constraint_get_def(luaik_check_constraint(L, 1)).space]);
  return 1;
}

/* from, to: the allowed deltas from the rest angle; nil: no limit */
static int constraint_arc(lua_State *L) {
  double from, to;
  if (!ik2d_constraint_arc(luaik_check_constraint(L, 1), &from, &to)) return 0;
  lua_pushnumber(L, from);
  lua_pushnumber(L, to);
  return 2;
}

static int constraint_tostring(lua_State *L) {
  ik2d_constraint *c = (ik2d_constraint *)luaik_test_object(L, 1, LUAIK_CONSTRAINT);
  if (c == NULL || luaik_box_of(c)->collected) {
    lua_pushliteral(L, "ik2d.Constraint(collected)");
  } else {
    ik2d_constraint_def def = ik2d_constraint_get_def(c);
    lua_pushfstring(L, "ik2d.Constraint(%f, %f%s%s)", def.min, def.max,
                    def.invert ? ", inverted" : "",
                    def.space == IK2D_SPACE_WORLD ? ", world space" : "");
  }
  return 1;
}

const luaL_Reg luaik_constraint_methods[] = {
  {"set_limits", constraint_set_limits},
  {"limits", constraint_limits},
  {"invert", constraint_invert},
  {"space", constraint_space},
  {"arc", constraint_arc},
  {NULL, NULL}
};

const luaL_Reg luaik_constraint_meta[] = {
  {"__tostring", constraint_tostring},
  {"__gc", luaik_gc},
  {NULL, NULL}
};

double luaik_number_field(lua_State *L, int t, int arg, const char *key,
                          const char *what, double fallback) {
  double value = fallback;
  luaik_rawfield(L, t, key);
  if (!lua_isnil(L, -1)) value = luaik_number_at(L, -1, arg, what);
  lua_pop(L, 1);
  return value;
}

/* A skeleton chain's constraint of chain bone i: the skeleton's, kept in
** its info table (the skeleton anchored by the chain, its info by it). */
void luaik_push_path_constraint(lua_State *L, int chain, const ik2d_chain *c, int i) {
  int bone = 0, top = lua_gettop(L);
  ik2d_skeleton_chain_bone(c, i, &bone);
  luaik_anchored(L, chain);
  lua_getfield(L, -1, "skeleton");
  luaik_anchored(L, -1);          /* its info */
  if (lua_istable(L, -1)) {
    lua_getfield(L, -1, "constraints");
    lua_rawgeti(L, -1, bone + 1);
  } else {
    lua_pushnil(L);
  }
  lua_replace(L, top + 1);
  lua_settop(L, top + 1);
}
