/*
** luaik_spring.c: ik2d.spring, secondary motion on a chain.
**
** Options (the rows of luaik_api.c: stiffness, damping, mass, gravity =
** {gx, gy}, weight) go into a copy of the core's def, which the core
** checks whole: a constructor,
** set_options and a setter accept the same values and word the same
** errors, and a refused call changes nothing.
*/
#include <stddef.h>

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
  size_t size = ik2d_spring_size(ik2d_chain_bone_count(chain));
  if (!lua_isnoneornil(L, 2)) {
    luaik_check_table(L, 2);
    luaik_read_options(L, 2, 2, luaik_spring_options, &def);
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
  luaik_check_status(L, status == IK2D_ERR_GRAVITY_Y ? 3 : 2, status);
  return 0;
}

static int spring_gravity(lua_State *L) {
  ik2d_spring_def def = ik2d_spring_get_def(luaik_check_spring(L, 1));
  lua_pushnumber(L, def.gravity_x);
  lua_pushnumber(L, def.gravity_y);
  return 2;
}

/* All or nothing: the options go into a copy of the def. */
static int spring_set_options(lua_State *L) {
  ik2d_spring *spring = luaik_check_spring(L, 1);
  ik2d_spring_def def = ik2d_spring_get_def(spring);
  luaik_check_table(L, 2);
  luaik_read_options(L, 2, 2, luaik_spring_options, &def);
  /* a spring finalised meanwhile raises rather than change */
  spring = luaik_check_spring(L, 1);
  luaik_check_status(L, 2, ik2d_spring_set_def(spring, &def));
  return 0;
}

/* Every option's value in t (or a new table); gravity in t.gravity when
** that is a table already, so a reused t makes no garbage. */
static int spring_options(lua_State *L) {
  ik2d_spring_def def = ik2d_spring_get_def(luaik_check_spring(L, 1));
  luaik_push_table_arg(L, 2);
  luaik_push_options(L, 2, luaik_spring_options, &def);
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
