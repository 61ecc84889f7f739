/*
** luaik_core.c: the binding's shared parts (objects, the per-state
** record, references, errors, conversions), under every type's file.
*/
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "lua.h"
#include "lauxlib.h"

#include "luaik.h"

#define ANCHORS_KEY "ik2d.anchors"
/* targets[solver] = the skeleton its target is on (weak keys, as anchors) */
#define TARGETS_KEY "ik2d.targets"
#define STATE_KEY "ik2d.state"

/* ------------------------------------------------------------------ */
/* objects                                                              */
/* ------------------------------------------------------------------ */

const char *const luaik_type_names[LUAIK_TYPES] = {
  "ik2d.Constraint", "ik2d.Chain", "ik2d.Solver", "ik2d.Group", "ik2d.Skeleton", "ik2d.Spring",
  "ik2d.TransformConstraint", "ik2d.Slots", "ik2d.RigTargets", "ik2d.Clip",
};

/* The types that keep references in a user value (luaik_keep). */
static int user_values_of(luaik_type type) {
  return type == LUAIK_SKELETON || type == LUAIK_TRANSFORM_CONSTRAINT || type == LUAIK_SLOTS;
}

void *luaik_new_object(lua_State *L, size_t size, luaik_type type) {
  char *memory = (char *)luaik_newuserdata(L, LUAIK_HEADER + size, user_values_of(type));
  memset(memory, 0, LUAIK_HEADER + size);
  luaL_getmetatable(L, luaik_type_names[type]);
  lua_setmetatable(L, -2);
  return memory + LUAIK_HEADER;
}

void *luaik_test_object(lua_State *L, int index, luaik_type type) {
  bool same = false;
  if (lua_type(L, index) == LUA_TUSERDATA && lua_getmetatable(L, index)) {
    same = lua_topointer(L, -1) == luaik_state_of(L)->metatable[type];
    lua_pop(L, 1);
  }
  return same ? (char *)lua_touserdata(L, index) + LUAIK_HEADER : NULL;
}

void *luaik_check_object(lua_State *L, int arg, luaik_type type,
                         const char *name) {
  void *object = luaik_test_object(L, arg, type);
  if (object == NULL) luaik_type_error(L, arg, luaik_type_names[type]);
  if (luaik_box_of(object)->collected)
    luaik_arg_errorf(L, arg, "%s was collected", name);
  return object;
}

int luaik_gc(lua_State *L) {
  luaik_box *box = (luaik_box *)lua_touserdata(L, 1);
  if (box != NULL && lua_type(L, 1) == LUA_TUSERDATA && !box->collected) {
    box->collected = 1;
    luaik_state_of(L)->finalised++;
    /* what it kept alive may go in the next cycle, as it would from a
    ** user value (LuaJIT's weak keys would keep it one cycle longer) */
    lua_getfield(L, LUA_REGISTRYINDEX, ANCHORS_KEY);
    lua_pushvalue(L, 1);
    lua_pushnil(L);
    lua_rawset(L, -3);
  }
  return 0;
}

void luaik_push_state(lua_State *L) {
  lua_getfield(L, LUA_REGISTRYINDEX, STATE_KEY);
}

luaik_state *luaik_state_of(lua_State *L) {
  luaik_state *state = (luaik_state *)lua_touserdata(L, lua_upvalueindex(1));
  if (state != NULL) return state;
  luaik_push_state(L);
  state = (luaik_state *)lua_touserdata(L, -1);
  lua_pop(L, 1);
  return state;
}

const char *luaik_typename(lua_State *L, int index) {
  const char *name = luaL_typename(L, index);
  if (lua_type(L, index) == LUA_TUSERDATA && luaL_getmetafield(L, index, "__name")) {
    if (lua_type(L, -1) == LUA_TSTRING) name = lua_tostring(L, -1);
    lua_pop(L, 1); /* the string stays alive in the metatable */
  }
  return name;
}

/* registry[key], a table with weak keys, made unless it is there */
static void weak_keyed(lua_State *L, const char *key) {
  lua_getfield(L, LUA_REGISTRYINDEX, key);
  if (!lua_istable(L, -1)) {
    lua_newtable(L);
    lua_createtable(L, 0, 1);
    lua_pushliteral(L, "k");
    lua_setfield(L, -2, "__mode");
    lua_setmetatable(L, -2);
    lua_setfield(L, LUA_REGISTRYINDEX, key);
  }
  lua_pop(L, 1);
}

luaik_state *luaik_open_state(lua_State *L) {
  luaik_state *state;
  /* one anchors table per Lua state, kept across reloads: weak keys, so
  ** an owner's entry goes with it (in 5.2+ an ephemeron) */
  weak_keyed(L, ANCHORS_KEY);
  weak_keyed(L, TARGETS_KEY);
  luaik_push_state(L);
  state = (luaik_state *)lua_touserdata(L, -1);
  if (lua_type(L, -1) != LUA_TUSERDATA) {
    state = (luaik_state *)luaik_newuserdata(L, sizeof *state, 0);
    state->finalised = 0;
    state->bone_targets = 0;
    state->isa = ik2d_isa_best();
    state->functions = NULL;
    lua_setfield(L, LUA_REGISTRYINDEX, STATE_KEY);
  }
  lua_pop(L, 1);
  return state;
}

/* ------------------------------------------------------------------ */
/* references                                                           */
/* ------------------------------------------------------------------ */

static void push_anchors(lua_State *L) {
  lua_getfield(L, LUA_REGISTRYINDEX, ANCHORS_KEY);
}

void luaik_anchor(lua_State *L, int owner, int value) {
  owner = owner < 0 ? lua_gettop(L) + owner + 1 : owner;
  value = value < 0 ? lua_gettop(L) + value + 1 : value;
  push_anchors(L);
  lua_pushvalue(L, owner);
  lua_pushvalue(L, value);
  lua_rawset(L, -3);
  lua_pop(L, 1);
}

void luaik_anchor_target(lua_State *L, int solver, int skeleton) {
  solver = solver < 0 ? lua_gettop(L) + solver + 1 : solver;
  skeleton = skeleton < 0 ? lua_gettop(L) + skeleton + 1 : skeleton;
  lua_getfield(L, LUA_REGISTRYINDEX, TARGETS_KEY);
  lua_pushvalue(L, solver);
  if (skeleton == 0) lua_pushnil(L);
  else lua_pushvalue(L, skeleton);
  lua_rawset(L, -3);
  lua_pop(L, 1);
}

void luaik_anchored_target(lua_State *L, int solver) {
  solver = solver < 0 ? lua_gettop(L) + solver + 1 : solver;
  lua_getfield(L, LUA_REGISTRYINDEX, TARGETS_KEY);
  lua_pushvalue(L, solver);
  lua_rawget(L, -2);
  lua_remove(L, -2);
}

/* The key that marks an owner's own table: a user value that lacks it
** (5.1's default environment, or one the debug library put there) is not
** the binding's, and is neither read nor written. */
static const char own_table_mark = 0;

/* Pushes owner's own table; with make, one is made and set when it has
** none (else nil is pushed). */
static void push_own_table(lua_State *L, int owner, bool make) {
  bool own;
  luaik_push_user_value(L, owner);
  own = lua_istable(L, -1);
  if (own) {
    lua_pushlightuserdata(L, (void *)&own_table_mark);
    lua_rawget(L, -2);
    own = lua_toboolean(L, -1);
    lua_pop(L, 1);
  }
  if (own) return;
  lua_pop(L, 1);
  if (!make) {
    lua_pushnil(L);
    return;
  }
  lua_createtable(L, 0, 2);
  lua_pushlightuserdata(L, (void *)&own_table_mark);
  lua_pushboolean(L, 1);
  lua_rawset(L, -3);
  lua_pushvalue(L, -1);
  luaik_set_user_value(L, owner);
}

void luaik_keep(lua_State *L, int owner, int key, int value) {
  owner = owner < 0 ? lua_gettop(L) + owner + 1 : owner;
  key = key < 0 ? lua_gettop(L) + key + 1 : key;
  value = value < 0 ? lua_gettop(L) + value + 1 : value;
  push_own_table(L, owner, true);
  lua_pushvalue(L, key);
  lua_pushvalue(L, value);
  lua_rawset(L, -3);
  lua_pop(L, 1);
}

void luaik_kept(lua_State *L, int owner, int key) {
  owner = owner < 0 ? lua_gettop(L) + owner + 1 : owner;
  key = key < 0 ? lua_gettop(L) + key + 1 : key;
  push_own_table(L, owner, false);
  if (lua_isnil(L, -1)) return;
  lua_pushvalue(L, key);
  lua_rawget(L, -2);
  lua_remove(L, -2);
}

void luaik_anchored(lua_State *L, int owner) {
  owner = owner < 0 ? lua_gettop(L) + owner + 1 : owner;
  push_anchors(L);
  lua_pushvalue(L, owner);
  lua_rawget(L, -2);
  lua_remove(L, -2);
}

/* ------------------------------------------------------------------ */
/* errors                                                               */
/* ------------------------------------------------------------------ */

/* The name of f, and whether it is a method: by its C pointer, which
** stays the same whatever Lua did with the function object (pcall, the
** FFI path's tail call, a reload), in the lists the module registered
** (the state's; the first list naming f gives its name). */
static const char *function_name(lua_State *L, lua_CFunction f, bool *method) {
  const luaik_state *state = luaik_state_of(L);
  const luaik_function_list *lists;
  int list, k;
  *method = false;
  if (f == NULL || state == NULL || state->functions == NULL) return NULL;
  lists = state->functions;
  for (list = 0; lists[list].functions != NULL; list++) {
    for (k = 0; lists[list].functions[k].name != NULL; k++) {
      if (lists[list].functions[k].func == f) {
        *method = lists[list].methods;
        return lists[list].functions[k].name;
      }
    }
  }
  return NULL;
}

#if LUA_VERSION_NUM < 502
/* Is the value on top the running function (at index f) or an ik2d
** method named name (the FFI path's, which hands a failure on to this
** one by a tail call)?  Pops it. */
static bool is_this_function(lua_State *L, int f, const char *name) {
  int k, value = lua_gettop(L);
  bool same = lua_rawequal(L, value, f) != 0;
  for (k = 0; k < LUAIK_TYPES && !same && lua_isfunction(L, value); k++) {
    luaL_getmetatable(L, luaik_type_names[k]);
    if (lua_istable(L, -1)) {
      lua_pushliteral(L, "__index");
      lua_rawget(L, -2);
      if (lua_istable(L, -1)) {
        lua_pushstring(L, name);
        lua_rawget(L, -2);
        same = lua_rawequal(L, -1, value) != 0;
      }
    }
    lua_settop(L, value);
  }
  lua_settop(L, value - 1);
  return same;
}

/* Does the variable the call site names (ar: the running function's
** frame), a local, an upvalue or a global of the calling function, hold
** the running function (at index f) or its method of that name?  Then
** the call site called it, with no tail call in between.  A field is
** not looked up (its table is gone): false. */
static bool site_holds(lua_State *L, const lua_Debug *ar, int f, const char *name) {
  lua_Debug caller;
  const char *found;
  int n, top = lua_gettop(L);
  bool same = false;
  /* the caller's function, its env, a value, a metatable and a method */
  if (!lua_checkstack(L, 5) || !lua_getstack(L, 1, &caller)) return false;
  if (strcmp(ar->namewhat, "local") == 0) {
    for (n = 1; !same && (found = lua_getlocal(L, &caller, n)) != NULL; n++) {
      if (strcmp(found, ar->name) == 0) same = is_this_function(L, f, name);
      else lua_pop(L, 1);
    }
  } else if (strcmp(ar->namewhat, "upvalue") == 0 || strcmp(ar->namewhat, "global") == 0) {
    if (!lua_getinfo(L, "f", &caller)) return false;
    if (ar->namewhat[0] == 'u') {
      for (n = 1; !same && (found = lua_getupvalue(L, top + 1, n)) != NULL; n++) {
        if (strcmp(found, ar->name) == 0) same = is_this_function(L, f, name);
        else lua_pop(L, 1);
      }
    } else {
      lua_getfenv(L, top + 1);
      lua_pushstring(L, ar->name);
      lua_rawget(L, -2);
      same = is_this_function(L, f, name);
    }
  }
  lua_settop(L, top);
  return same;
}
#endif

/* Was the running function (at index f) called as a method (obj:f())?
** Lua knows from the call site.  LuaJIT has no call site for a function
** reached by a tail call (return obj:f()): it reports the call site of a
** frame further out, which names another function.  A method so reached
** counts as called with a colon, as ik2d's methods are written (and as
** Lua 5.4 sees that tail call); a module function does not.  A call
** through a variable of another name (local f = s.weight; f(x)) is no
** tail call: the variable holds the method. */
static bool called_as_method(lua_State *L, const lua_Debug *ar, int f, const char *name,
                             bool method) {
  if (ar->namewhat != NULL && strcmp(ar->namewhat, "method") == 0) return true;
#if LUA_VERSION_NUM < 502
  if (method && ar->namewhat != NULL && ar->namewhat[0] != '\0' && ar->name != NULL &&
      name != NULL && strcmp(ar->name, name) != 0)
    return !site_holds(L, ar, f, name);
#else
  (void)L;
  (void)f;
  (void)name;
  (void)method;
#endif
  return false;
}

int luaik_arg_error(lua_State *L, int arg, const char *message) {
  lua_Debug ar;
  const char *name = NULL;
  bool method;
  if (lua_getstack(L, 0, &ar) && lua_getinfo(L, "nf", &ar)) {
    name = function_name(L, lua_tocfunction(L, -1), &method);
    if (called_as_method(L, &ar, lua_gettop(L), name, method)) arg--;
    lua_pop(L, 1);
  }
  if (name == NULL) name = "?";
  luaL_where(L, 1);
  if (arg == 0) {
    /* self of a colon call, worded as luaL_argerror words it (not #0) */
    lua_pushfstring(L, "calling '%s' on bad self (%s)", name, message);
  } else {
    lua_pushfstring(L, "bad argument #%d to '%s' (%s)", arg, name, message);
  }
  lua_concat(L, 2);
  return lua_error(L);
}

int luaik_call_error(lua_State *L, const char *message) {
  lua_Debug ar;
  const char *name = NULL;
  bool method;
  if (lua_getstack(L, 0, &ar) && lua_getinfo(L, "f", &ar)) {
    name = function_name(L, lua_tocfunction(L, -1), &method);
    lua_pop(L, 1);
  }
  luaL_where(L, 1);
  lua_pushfstring(L, "bad call to '%s' (%s)", name != NULL ? name : "?", message);
  lua_concat(L, 2);
  return lua_error(L);
}

int luaik_arg_errorf(lua_State *L, int arg, const char *format, ...) {
  const char *message;
  va_list args;
  va_start(args, format);
  message = lua_pushvfstring(L, format, args);
  va_end(args);
  return luaik_arg_error(L, arg, message);
}

int luaik_type_error(lua_State *L, int arg, const char *expected) {
  return luaik_arg_errorf(L, arg, "%s expected, got %s", expected,
                          luaik_typename(L, arg));
}

const char *luaik_status_message(lua_State *L, ik2d_status status) {
  if (status == IK2D_ERR_MIN_DEGREES || status == IK2D_ERR_MAX_DEGREES)
    return lua_pushfstring(L, "%s (math.rad converts degrees)",
                           ik2d_status_message(status));
  return ik2d_status_message(status);
}

void luaik_check_status(lua_State *L, int arg, ik2d_status status) {
  if (status != IK2D_OK) luaik_arg_error(L, arg, luaik_status_message(L, status));
}

void luaik_check_value_status(lua_State *L, int arg, ik2d_status status, double value) {
  char shown[32];
  if (status == IK2D_OK) return;
  /* %.14g as Lua prints numbers; "nan" for every NaN (glibc prints -nan) */
  if (isnan(value)) strcpy(shown, "nan");
  else snprintf(shown, sizeof shown, "%.14g", value);
  luaik_arg_errorf(L, arg, "%s, got %s", luaik_status_message(L, status), shown);
}

int luaik_index_error(lua_State *L, int arg, const char *what, int last) {
  /* the core words IK2D_ERR_INDEX for bones; joints and solvers are
  ** numbered too.  The index at arg was read as a whole number in int
  ** range (luaik_whole_at): it converts back exactly. */
  return luaik_arg_errorf(L, arg, "%s index %d out of range (1..%d)", what,
                          (int)lua_tonumber(L, arg), last);
}

/* ------------------------------------------------------------------ */
/* conversions                                                          */
/* ------------------------------------------------------------------ */

/* "<what>: <message>" for a named value, or the message alone. */
static int value_error(lua_State *L, int arg, const char *what, const char *message) {
  if (what == NULL) return luaik_arg_error(L, arg, message);
  return luaik_arg_errorf(L, arg, "%s: %s", what, message);
}

double luaik_number_at(lua_State *L, int index, int arg, const char *what) {
  int is_number;
  double value = (double)luaik_tonumberx(L, index, &is_number);
  if (is_number) return value;
  value_error(L, arg, what, lua_pushfstring(L, "number expected, got %s",
                                            luaik_typename(L, index)));
  return 0.0;
}

int luaik_whole_at(lua_State *L, int index, int arg, const char *what) {
  double value = luaik_number_at(L, index, arg, what);
  /* within the int range the cast is exact for a whole value and
  ** changes any other (NaN fails the range test) */
  if (fabs(value) <= 2147483647.0 && value == (double)(int)value) return (int)value;
  if (!isfinite(value) || value != floor(value))
    luaik_arg_errorf(L, arg, "%s must be a whole number", what);
  return luaik_arg_errorf(L, arg, "%s must be a whole number within +-2147483647", what);
}

bool luaik_boolean_at(lua_State *L, int index, int arg, const char *what) {
  if (!lua_isboolean(L, index))
    luaik_arg_errorf(L, arg, "%s must be true or false, got %s", what,
                     luaik_typename(L, index));
  return lua_toboolean(L, index) != 0;
}

int luaik_choice_at(lua_State *L, int index, int arg, const char *what,
                    const char *const *choices) {
  luaL_Buffer b;
  int k;
  if (lua_type(L, index) == LUA_TSTRING) {
    size_t length;
    const char *s = lua_tolstring(L, index, &length);
    /* the whole string: "fabrik\0junk" is not "fabrik" */
    for (k = 0; choices[k] != NULL; k++)
      if (strlen(choices[k]) == length && memcmp(choices[k], s, length) == 0) return k;
  }
  luaL_buffinit(L, &b);
  luaL_addstring(&b, what);
  luaL_addstring(&b, " must be ");
  for (k = 0; choices[k] != NULL; k++) {
    if (k > 0) luaL_addstring(&b, choices[k + 1] == NULL ? " or " : ", ");
    luaL_addchar(&b, '"');
    luaL_addstring(&b, choices[k]);
    luaL_addchar(&b, '"');
  }
  luaL_pushresult(&b);
  return luaik_arg_error(L, arg, lua_tostring(L, -1));
}

double luaik_check_number(lua_State *L, int arg) {
  return luaik_number_at(L, arg, arg, NULL);
}

double luaik_opt_number(lua_State *L, int arg, double fallback) {
  return lua_isnoneornil(L, arg) ? fallback : luaik_check_number(L, arg);
}

int luaik_check_whole(lua_State *L, int arg, const char *what) {
  return luaik_whole_at(L, arg, arg, what);
}

void luaik_check_table(lua_State *L, int arg) {
  if (!lua_istable(L, arg)) luaik_type_error(L, arg, "table");
}

int luaik_rawfield(lua_State *L, int t, const char *key) {
  t = t < 0 && t > LUA_REGISTRYINDEX ? lua_gettop(L) + t + 1 : t;
  lua_pushstring(L, key);
  lua_rawget(L, t);
  return lua_type(L, -1);
}

void luaik_rawsetfield(lua_State *L, int t, const char *key) {
  t = t < 0 && t > LUA_REGISTRYINDEX ? lua_gettop(L) + t + 1 : t;
  lua_pushstring(L, key);
  lua_insert(L, -2);
  lua_rawset(L, t);
}

void luaik_check_keys(lua_State *L, int t, int arg, const char *owner,
                      const char *kind, const char *const *names, int skip) {
  lua_pushnil(L);
  while (lua_next(L, t) != 0) {
    bool known = false;
    int k;
    lua_pop(L, 1);
    if (lua_type(L, -1) == LUA_TSTRING) {
      const char *key = lua_tostring(L, -1);
      for (k = 0; names[k] != NULL && !known; k++) known = strcmp(names[k], key) == 0;
      if (!known) luaik_arg_errorf(L, arg, "%sunknown %s '%s'", owner, kind, key);
    } else if (lua_type(L, -1) == LUA_TNUMBER) {
      double i = (double)lua_tonumber(L, -1);
      if (!(i >= 1.0 && i <= skip && i == floor(i)))
        luaik_arg_errorf(L, arg, "%sunknown %s [%s]", owner, kind, lua_tostring(L, -1));
    } else {
      luaik_arg_errorf(L, arg, "%sunknown %s of type %s", owner, kind, luaik_typename(L, -1));
    }
  }
}

void luaik_base_args(lua_State *L, double *x, double *y, double *angle) {
  *x = luaik_check_number(L, 2);
  *y = luaik_check_number(L, 3);
  *angle = luaik_opt_number(L, 4, *angle);
}

void luaik_check_base_status(lua_State *L, ik2d_status status) {
  luaik_check_status(L, status == IK2D_ERR_BASE_X ? 2 : status == IK2D_ERR_BASE_Y ? 3 : 4, status);
}

int luaik_push_xy(lua_State *L, double x, double y) {
  lua_pushnumber(L, x);
  lua_pushnumber(L, y);
  return 2;
}

int luaik_push_xya(lua_State *L, double x, double y, double angle) {
  luaik_push_xy(L, x, y);
  lua_pushnumber(L, angle);
  return 3;
}

void luaik_push_table_arg(lua_State *L, int arg) {
  if (lua_isnoneornil(L, arg)) {
    lua_settop(L, arg - 1);
    lua_newtable(L);
  } else {
    luaik_check_table(L, arg);
    lua_settop(L, arg);
  }
}

int luaik_fill(lua_State *L, int t, int first, const double *values, int count) {
  int k;
  for (k = 0; k < count; k++) {
    lua_pushnumber(L, values[k]);
    lua_rawseti(L, t, first + k);
  }
  return first + count;
}

void luaik_trim(lua_State *L, int t, int first) {
  for (;; first++) {
    bool empty;
    lua_rawgeti(L, t, first);
    empty = lua_isnil(L, -1);
    lua_pop(L, 1);
    if (empty) return;
    lua_pushnil(L);
    lua_rawseti(L, t, first);
  }
}
