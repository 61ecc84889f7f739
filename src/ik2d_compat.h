/*
** ik2d_compat.h: one source for Lua 5.1 / LuaJIT 2.1 and Lua 5.2-5.4.
** Shims carry their own names: LuaJIT 2.1 already declares luaL_setfuncs
** and luaL_testudata, and redefining them breaks its build.
*/
#ifndef IK2D_COMPAT_H
#define IK2D_COMPAT_H

#include "lua.h"
#include "lauxlib.h"

#if LUA_VERSION_NUM < 502
#define ik2d_setfuncs(L, l) luaL_register((L), NULL, (l))
#define ik2d_rawlen(L, i) lua_objlen((L), (i))
/* 5.1 keeps a userdata's uservalue as its environment, which must be a
** table: every uservalue here is one. */
#define ik2d_getuservalue(L, i) lua_getfenv((L), (i))
#define ik2d_setuservalue(L, i) lua_setfenv((L), (i))
#else
#define ik2d_setfuncs(L, l) luaL_setfuncs((L), (l), 0)
#define ik2d_rawlen(L, i) lua_rawlen((L), (i))
#define ik2d_getuservalue(L, i) ((void)lua_getuservalue((L), (i)))
#define ik2d_setuservalue(L, i) ((void)lua_setuservalue((L), (i)))
#endif

#endif
