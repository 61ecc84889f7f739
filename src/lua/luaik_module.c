/*
** luaik_module.c: the module ik2d.core: its functions, each type's
** metatable and methods, and the opener (luaopen_ik2d_core).  It sits
** above the type files, whose functions it registers; no binding file
** refers to it (Lua calls the opener), and it hands the lists it
** registers to the state, where an error looks up the running function's
** name, so the shared helpers under the type files need none of them.
*/
#if !defined(_WIN32) && !defined(_GNU_SOURCE)
#define _GNU_SOURCE /* dladdr (glibc) */
#endif
#include "lua.h"
#include "lauxlib.h"

#include "luaik.h"

#if defined(_WIN32)
#include <windows.h>
#elif defined(__unix__) || defined(__APPLE__)
#include <dlfcn.h>
#endif

/* ------------------------------------------------------------------ */
/* the module's functions                                               */
/* ------------------------------------------------------------------ */

/* The instruction sets by name, in ik2d_isa order from IK2D_ISA_AUTO. */
static const char *const isa_names[] = {"auto", "scalar", "sse2", "avx2", "avx512", NULL};

/* ik2d.use_isa(name): the set batches solve with from now on ("auto":
** the best this machine runs; an unsupported one: the best below it);
** returns the name of the one in use.  With no name, only returns it. */
static int module_use_isa(lua_State *L) {
  luaik_state *state = luaik_state_of(L);
  if (!lua_isnoneornil(L, 1)) {
    ik2d_isa isa = (ik2d_isa)(luaik_choice_at(L, 1, 1, "instruction set", isa_names) - 1);
    if (isa == IK2D_ISA_AUTO) isa = ik2d_isa_best();
    while (isa > IK2D_ISA_SCALAR && !ik2d_isa_supported(isa)) isa = (ik2d_isa)(isa - 1);
    state->isa = isa;
  }
  lua_pushstring(L, ik2d_isa_name(state->isa));
  return 1;
}

static const luaL_Reg module_functions[] = {
  {"use_isa", module_use_isa},
  {"chain", luaik_chain_new},
  {"constraint", luaik_constraint_new},
  {"solver", luaik_solver_new},
  {"group", luaik_group_new},
  {"skeleton", luaik_skeleton_new},
  {"spring", luaik_spring_new},
  {"transform_constraint", luaik_transform_constraint_new},
  {"slots", luaik_slots_new},
  {"rig_targets", luaik_rig_targets_new},
  {"clip", luaik_clip_new},
  {NULL, NULL}
};

/* Every list of functions the module registers, in the order an error
** looks the running one up by name (luaik_state.functions). */
static const luaik_function_list function_lists[] = {
  {module_functions, false},
  {luaik_chain_methods, true}, {luaik_chain_meta, false},
  {luaik_constraint_methods, true}, {luaik_constraint_meta, false},
  {luaik_solver_methods, true}, {luaik_solver_meta, false},
  {luaik_group_methods, true}, {luaik_group_meta, false},
  {luaik_skeleton_methods, true}, {luaik_skeleton_meta, false},
  {luaik_spring_methods, true}, {luaik_spring_meta, false},
  {luaik_transform_constraint_methods, true}, {luaik_transform_constraint_meta, false},
  {luaik_slots_methods, true}, {luaik_slots_meta, false},
  {luaik_rig_targets_methods, true}, {luaik_rig_targets_meta, false},
  {luaik_clip_methods, true}, {luaik_clip_meta, false},
  {NULL, false}
};

/* ------------------------------------------------------------------ */
/* the opener                                                           */
/* ------------------------------------------------------------------ */

/* Lua 5.1 and LuaJIT unload a C module (dlclose, from the finaliser of
** its loader's handle, and of the FFI's ffi.load handle) while lua_close
** still runs other finalisers: one that calls an ik2d method after that
** (a game object letting go of its chain at exit) jumps into unmapped
** code.  Lua 5.2+ finalise the handles last.  So the library pins itself
** in memory for the life of the process, with one more reference of its
** own that is never released. */
static const char pinned_here = 0;

static void pin_library(void) {
#if defined(_WIN32)
  HMODULE module;
  (void)GetModuleHandleExA(GET_MODULE_HANDLE_EX_FLAG_FROM_ADDRESS |
                               GET_MODULE_HANDLE_EX_FLAG_PIN,
                           &pinned_here, &module);
#elif defined(__unix__) || defined(__APPLE__)
  Dl_info info;
  if (dladdr(&pinned_here, &info) != 0 && info.dli_fname != NULL)
    (void)dlopen(info.dli_fname, RTLD_NOW | RTLD_NODELETE);
#endif
}

/* luaL_setfuncs with the state (on the stack's top) as each function's
** upvalue (luaik_state_of); pops the state. */
static void set_functions(lua_State *L, const luaL_Reg *functions) {
  for (; functions->name != NULL; functions++) {
    lua_pushvalue(L, -1);
    lua_pushcclosure(L, functions->func, 1);
    lua_setfield(L, -3, functions->name);
  }
  lua_pop(L, 1);
}

/* Creates or (after a reload of the module) refills the metatable, and
** keeps its address in the state (the same across reloads).
** __metatable: getmetatable(obj) gives the type's name, never this table,
** whose __gc a script could otherwise call or replace (an object freed
** while its skeleton still lists it). */
static void register_type(lua_State *L, luaik_state *state, luaik_type type,
                          const luaL_Reg *methods, const luaL_Reg *meta) {
  const char *name = luaik_type_names[type];
  luaL_newmetatable(L, name);
  state->metatable[type] = lua_topointer(L, -1);
  luaik_push_state(L);
  set_functions(L, meta);
  lua_newtable(L);
  luaik_push_state(L);
  set_functions(L, methods);
  lua_setfield(L, -2, "__index");
  lua_pushstring(L, name);
  lua_setfield(L, -2, "__name");
  lua_pushstring(L, name);
  lua_setfield(L, -2, "__metatable");
  lua_pop(L, 1);
}

static void push_methods(lua_State *L, luaik_type type, const char *key) {
  luaL_getmetatable(L, luaik_type_names[type]);
  lua_getfield(L, -1, "__index");
  lua_setfield(L, -3, key);
  lua_pop(L, 1);
}

LUAIK_EXPORT int luaopen_ik2d_core(lua_State *L);

LUAIK_EXPORT int luaopen_ik2d_core(lua_State *L) {
  luaik_state *state;
  pin_library();
  state = luaik_open_state(L);
  state->functions = function_lists;
  register_type(L, state, LUAIK_CONSTRAINT, luaik_constraint_methods, luaik_constraint_meta);
  register_type(L, state, LUAIK_CHAIN, luaik_chain_methods, luaik_chain_meta);
  register_type(L, state, LUAIK_SOLVER, luaik_solver_methods, luaik_solver_meta);
  register_type(L, state, LUAIK_GROUP, luaik_group_methods, luaik_group_meta);
  register_type(L, state, LUAIK_SKELETON, luaik_skeleton_methods, luaik_skeleton_meta);
  register_type(L, state, LUAIK_SPRING, luaik_spring_methods, luaik_spring_meta);
  register_type(L, state, LUAIK_TRANSFORM_CONSTRAINT, luaik_transform_constraint_methods,
                luaik_transform_constraint_meta);
  register_type(L, state, LUAIK_SLOTS, luaik_slots_methods, luaik_slots_meta);
  register_type(L, state, LUAIK_RIG_TARGETS, luaik_rig_targets_methods, luaik_rig_targets_meta);
  register_type(L, state, LUAIK_CLIP, luaik_clip_methods, luaik_clip_meta);
  lua_newtable(L);
  luaik_push_state(L);
  set_functions(L, module_functions);
  lua_pushliteral(L, IK2D_VERSION);
  lua_setfield(L, -2, "_VERSION");
  lua_pushinteger(L, IK2D_MAX_BONES);
  lua_setfield(L, -2, "MAX_BONES");
  lua_pushinteger(L, IK2D_MAX_SKELETON_BONES);
  lua_setfield(L, -2, "MAX_SKELETON_BONES");
  /* for lua/ik2d/ffi.lua: the method tables it may speed up and where a
  ** box's object starts */
  lua_newtable(L);
  push_methods(L, LUAIK_CHAIN, "Chain");
  push_methods(L, LUAIK_CONSTRAINT, "Constraint");
  push_methods(L, LUAIK_SOLVER, "Solver");
  push_methods(L, LUAIK_GROUP, "Group");
  push_methods(L, LUAIK_SKELETON, "Skeleton");
  push_methods(L, LUAIK_SPRING, "Spring");
  push_methods(L, LUAIK_TRANSFORM_CONSTRAINT, "TransformConstraint");
  push_methods(L, LUAIK_SLOTS, "Slots");
  lua_setfield(L, -2, "_methods");
  lua_pushinteger(L, LUAIK_HEADER);
  lua_setfield(L, -2, "_header");
  return 1;
}
