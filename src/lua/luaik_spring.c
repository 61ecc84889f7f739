/*
** luaik_spring.c: ik2d.spring, secondary motion on a chain.
**
** Options (the rows of luaik_api.c: stiffness, damping and mass, each a
** number or an array of one per bone, gravity = {gx, gy}, wind = {wx,
** wy}, weight) go into a copy of the core's def, which the core checks
** whole: a constructor, set_options and a setter accept the same values
** and word the same errors, and a refused call changes nothing.
** Colliders are read whole into an array before the core takes them.
*/
#include <stddef.h>
#include <string.h>

#include "lua.h"
#include "lauxlib.h"

#include "luaik.h"

ik2d_spring *luaik_check_spring(lua_State *L, int arg) {
  ik2d_spring *spring =
      (ik2d_spring *)luaik_check_object(L, arg, LUAIK_SPRING, "spring");
  if (luaik_box_of(ik2d_spring_chain(spring))->collected)
    luaik_arg_error(L, arg, "chain was collected");
  return spring;
}

/* ------------------------------------------------------------------ */
/* springs                                                              */
/* ------------------------------------------------------------------ */

int luaik_spring_new(lua_State *L) {
  ik2d_chain *chain = luaik_check_chain(L, 1);
  ik2d_spring_def def = ik2d_default_spring_def();
  ik2d_spring *spring;
  luaik_arrays arrays;
  size_t size = ik2d_spring_size(ik2d_chain_bone_count(chain));
  arrays.count = ik2d_chain_bone_count(chain);
  arrays.used = 0;
  if (!lua_isnoneornil(L, 2)) {
    luaik_check_table(L, 2);
    luaik_read_options(L, 2, 2, luaik_spring_options, &def, &arrays);
    /* still alive after the reading (nothing in it can run Lua today) */
    chain = luaik_check_chain(L, 1);
  }
  lua_settop(L, 1);
  spring = (ik2d_spring *)luaik_new_object(L, size, LUAIK_SPRING);
  luaik_check_status(L, 2, ik2d_spring_init(spring, size, chain, &def));
  /* the spring keeps its chain alive */
  luaik_anchor(L, 2, 1);
  return 1;
}

static int spring_chain(lua_State *L) {
  luaik_check_spring(L, 1);
  luaik_anchored(L, 1);
  return 1;
}

static int spring_update(lua_State *L) {
  ik2d_spring *spring = luaik_check_spring(L, 1);
  double dt = luaik_check_number(L, 2);
  luaik_check_value_status(L, 2, ik2d_spring_update(spring, dt), dt);
  return 0;
}

static int spring_reset(lua_State *L) {
  ik2d_spring_reset(luaik_check_spring(L, 1));
  return 0;
}

static int spring_set_weight(lua_State *L) {
  ik2d_spring *spring = luaik_check_spring(L, 1);
  ik2d_spring_def def = ik2d_spring_get_def(spring);
  luaik_read_option(L, 2, 2, &luaik_spring_options[LUAIK_SPRING_WEIGHT], &def);
  luaik_check_status(L, 2, ik2d_spring_set_def(spring, &def));
  return 0;
}

static int spring_weight(lua_State *L) {
  lua_pushnumber(L, ik2d_spring_get_def(luaik_check_spring(L, 1)).weight);
  return 1;
}

static int spring_set_gravity(lua_State *L) {
  ik2d_spring *spring = luaik_check_spring(L, 1);
  double x = luaik_check_number(L, 2), y = luaik_check_number(L, 3);
  ik2d_status status = ik2d_spring_set_gravity(spring, x, y);
  luaik_check_status(L, luaik_spring_gravity_arg(status), status);
  return 0;
}

static int spring_gravity(lua_State *L) {
  ik2d_spring_def def = ik2d_spring_get_def(luaik_check_spring(L, 1));
  lua_pushnumber(L, def.gravity_x);
  lua_pushnumber(L, def.gravity_y);
  return 2;
}

static int spring_set_wind(lua_State *L) {
  ik2d_spring *spring = luaik_check_spring(L, 1);
  double x = luaik_check_number(L, 2), y = luaik_check_number(L, 3);
  ik2d_status status = ik2d_spring_set_wind(spring, x, y);
  luaik_check_status(L, luaik_spring_wind_arg(status), status);
  return 0;
}

static int spring_wind(lua_State *L) {
  ik2d_spring_def def = ik2d_spring_get_def(luaik_check_spring(L, 1));
  lua_pushnumber(L, def.wind_x);
  lua_pushnumber(L, def.wind_y);
  return 2;
}

/* All or nothing: the options go into a copy of the def. */
static int spring_set_options(lua_State *L) {
  ik2d_spring *spring = luaik_check_spring(L, 1);
  ik2d_spring_def def = ik2d_spring_get_def(spring);
  luaik_arrays arrays;
  arrays.count = ik2d_chain_bone_count(ik2d_spring_chain(spring));
  arrays.used = 0;
  luaik_check_table(L, 2);
  luaik_read_options(L, 2, 2, luaik_spring_options, &def, &arrays);
  /* a spring finalised meanwhile raises rather than change */
  spring = luaik_check_spring(L, 1);
  luaik_check_status(L, 2, ik2d_spring_set_def(spring, &def));
  return 0;
}

/* Every option's value in t (or a new table); gravity in t.gravity when
** that is a table already, so a reused t makes no garbage. */
static int spring_options(lua_State *L) {
  ik2d_spring *spring = luaik_check_spring(L, 1);
  ik2d_spring_def def = ik2d_spring_get_def(spring);
  luaik_push_table_arg(L, 2);
  luaik_push_options(L, 2, luaik_spring_options, &def,
                     ik2d_chain_bone_count(ik2d_spring_chain(spring)));
  return 1;
}

/* ------------------------------------------------------------------ */
/* colliders                                                            */
/* ------------------------------------------------------------------ */

static const char *const no_keys[] = {NULL};

/* the number field key of the collider table at t, named owner.key */
static double collider_number(lua_State *L, int t, const char *owner, const char *key) {
  int top = lua_gettop(L);
  double value;
  luaik_rawfield(L, t, key);
  value = luaik_number_at(L, top + 1, 2, lua_pushfstring(L, "%s.%s", owner, key));
  lua_settop(L, top);
  return value;
}

/* colliders[k + 1] (a circle {x =, y =, radius =} or a segment {x1 =,
** y1 =, x2 =, y2 =}) of the list at 2 into c, checked */
static void read_collider(lua_State *L, int k, ik2d_collider *c) {
  int top = lua_gettop(L), t = top + 1;
  const char *owner;
  bool circle, segment;
  ik2d_status status;
  lua_rawgeti(L, 2, k + 1);
  owner = lua_pushfstring(L, "colliders[%d]", k + 1);
  if (!lua_istable(L, t))
    luaik_arg_errorf(L, 2, "%s: table expected, got %s", owner, luaik_typename(L, t));
  luaik_check_keys(L, t, 2, lua_pushfstring(L, "%s: ", owner), "field", luaik_collider_fields, 0);
  circle = luaik_rawfield(L, t, "x") != LUA_TNIL || luaik_rawfield(L, t, "y") != LUA_TNIL ||
           luaik_rawfield(L, t, "radius") != LUA_TNIL;
  segment = luaik_rawfield(L, t, "x1") != LUA_TNIL || luaik_rawfield(L, t, "y1") != LUA_TNIL ||
            luaik_rawfield(L, t, "x2") != LUA_TNIL || luaik_rawfield(L, t, "y2") != LUA_TNIL;
  if (circle == segment)
    luaik_arg_errorf(L, 2, "%s: a circle {x =, y =, radius =} or a segment {x1 =, y1 =, x2 =, "
                     "y2 =} expected%s", owner, circle ? ", not both" : "");
  *c = ik2d_default_collider();
  if (circle) {
    c->x = collider_number(L, t, owner, "x");
    c->y = collider_number(L, t, owner, "y");
    c->radius = collider_number(L, t, owner, "radius");
  } else {
    c->shape = IK2D_SEGMENT;
    c->x1 = collider_number(L, t, owner, "x1");
    c->y1 = collider_number(L, t, owner, "y1");
    c->x2 = collider_number(L, t, owner, "x2");
    c->y2 = collider_number(L, t, owner, "y2");
  }
  status = ik2d_collider_check(c);
  if (status != IK2D_OK)
    luaik_arg_errorf(L, 2, "%s: %s", owner, luaik_status_message(L, status));
  lua_settop(L, top);
}

/* All or nothing: every collider read and checked before the core takes
** them; nil or none clears. */
static int spring_set_colliders(lua_State *L) {
  ik2d_spring *spring = luaik_check_spring(L, 1);
  ik2d_collider colliders[IK2D_MAX_COLLIDERS];
  int count = 0, k;
  if (!lua_isnoneornil(L, 2)) {
    size_t given;
    luaik_check_table(L, 2);
    given = luaik_rawlen(L, 2);
    if (given > IK2D_MAX_COLLIDERS)
      luaik_arg_errorf(L, 2, "%s, got %d", luaik_status_message(L, IK2D_ERR_COLLIDERS),
                       (int)given);
    count = (int)given;
    luaik_check_keys(L, 2, 2, "colliders: ", "key", no_keys, count);
    lua_settop(L, 2);
    for (k = 0; k < count; k++) read_collider(L, k, &colliders[k]);
  }
  spring = luaik_check_spring(L, 1);
  luaik_check_status(L, 2, ik2d_spring_set_colliders(spring, colliders, count));
  return 0;
}

static void set_number(lua_State *L, const char *key, double value) {
  lua_pushnumber(L, value);
  luaik_rawsetfield(L, -2, key);
}

/* The colliders as set_colliders takes them, into t (or a new table). */
static int spring_colliders(lua_State *L) {
  ik2d_spring *spring = luaik_check_spring(L, 1);
  ik2d_collider colliders[IK2D_MAX_COLLIDERS];
  int count = ik2d_spring_colliders(spring, colliders, IK2D_MAX_COLLIDERS), k;
  luaik_push_table_arg(L, 2);
  for (k = 0; k < count; k++) {
    const ik2d_collider *c = &colliders[k];
    lua_createtable(L, 0, 4);
    if (c->shape == IK2D_CIRCLE) {
      set_number(L, "x", c->x);
      set_number(L, "y", c->y);
      set_number(L, "radius", c->radius);
    } else {
      set_number(L, "x1", c->x1);
      set_number(L, "y1", c->y1);
      set_number(L, "x2", c->x2);
      set_number(L, "y2", c->y2);
    }
    lua_rawseti(L, 2, k + 1);
  }
  luaik_trim(L, 2, count + 1);
  lua_settop(L, 2);
  return 1;
}

static int spring_velocity(lua_State *L) {
  ik2d_spring *spring = luaik_check_spring(L, 1);
  int i = luaik_check_whole(L, 2, "bone index");
  double velocity;
  if (ik2d_spring_velocity(spring, i - 1, &velocity) != IK2D_OK)
    luaik_index_error(L, 2, "bone", ik2d_chain_bone_count(ik2d_spring_chain(spring)));
  lua_pushnumber(L, velocity);
  return 1;
}

static int spring_tostring(lua_State *L) {
  ik2d_spring *spring = (ik2d_spring *)luaik_test_object(L, 1, LUAIK_SPRING);
  if (spring == NULL || luaik_box_of(spring)->collected) {
    lua_pushliteral(L, "ik2d.Spring(collected)");
  } else {
    ik2d_spring_def def = ik2d_spring_get_def(spring);
    lua_pushfstring(L, "ik2d.Spring(stiffness %f, damping %f, mass %f, weight %f)",
                    def.stiffness, def.damping, def.mass, def.weight);
  }
  return 1;
}

const luaL_Reg luaik_spring_methods[] = {
  {"chain", spring_chain},
  {"update", spring_update},
  {"reset", spring_reset},
  {"set_weight", spring_set_weight},
  {"weight", spring_weight},
  {"set_gravity", spring_set_gravity},
  {"gravity", spring_gravity},
  {"set_wind", spring_set_wind},
  {"wind", spring_wind},
  {"set_colliders", spring_set_colliders},
  {"colliders", spring_colliders},
  {"set_options", spring_set_options},
  {"options", spring_options},
  {"velocity", spring_velocity},
  {NULL, NULL}
};

const luaL_Reg luaik_spring_meta[] = {
  {"__tostring", spring_tostring},
  {"__gc", luaik_gc},
  {NULL, NULL}
};
