/*
** luaik_compat.h: one source for Lua 5.1 / LuaJIT 2.1 and Lua 5.2-5.4.
** Shims carry their own names: LuaJIT 2.1 already declares luaL_setfuncs
** and luaL_testudata, and redefining them breaks its build.
*/
#ifndef LUAIK_COMPAT_H
#define LUAIK_COMPAT_H

#include "lua.h"
#include "lauxlib.h"

#if LUA_VERSION_NUM < 502
#define luaik_rawlen(L, i) lua_objlen((L), (i))
/* 5.1 gives every userdata an environment table (the creating function's
** globals): only a skeleton and a transform constraint keep a table of
** their own there (luaik_keep, luaik_core.c); the others' references live
** in the anchors table */
#define luaik_newuserdata(L, size, user_values) ((void)(user_values), lua_newuserdata((L), (size)))
#define luaik_push_user_value(L, i) lua_getfenv((L), (i))
#define luaik_set_user_value(L, i) lua_setfenv((L), (i))
#else
#define luaik_rawlen(L, i) lua_rawlen((L), (i))
#if LUA_VERSION_NUM >= 504
/* user_values: 1 for a skeleton and a transform constraint, else 0 */
#define luaik_newuserdata(L, size, user_values) lua_newuserdatauv((L), (size), (user_values))
#define luaik_push_user_value(L, i) ((void)lua_getiuservalue((L), (i), 1))
#define luaik_set_user_value(L, i) ((void)lua_setiuservalue((L), (i), 1))
#else
#define luaik_newuserdata(L, size, user_values) ((void)(user_values), lua_newuserdata((L), (size)))
#define luaik_push_user_value(L, i) ((void)lua_getuservalue((L), (i)))
#define luaik_set_user_value(L, i) lua_setuservalue((L), (i))
#endif
#endif

/* The number at index and whether it is one (or a string convertible to
** one), in one call where the API has it. */
static inline lua_Number luaik_tonumberx(lua_State *L, int index, int *is_number) {
#if LUA_VERSION_NUM >= 502
  return lua_tonumberx(L, index, is_number);
#else
  *is_number = lua_isnumber(L, index);
  return lua_tonumber(L, index);
#endif
}

#endif
