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
/* 5.1 gives every userdata an environment table; ik2d keeps nothing
** there (references live in the anchors table, luaik_core.c) */
#define luaik_newuserdata(L, size) lua_newuserdata((L), (size))
#else
#define luaik_rawlen(L, i) lua_rawlen((L), (i))
#if LUA_VERSION_NUM >= 504
/* no user values: ik2d keeps nothing there */
#define luaik_newuserdata(L, size) lua_newuserdatauv((L), (size), 0)
#else
#define luaik_newuserdata(L, size) lua_newuserdata((L), (size))
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
