/*
** luaik_options.c: option tables (ik2d.solver's, ik2d.spring's) read
** into a def and pushed back, from the rows of luaik_api.c.
**
** A constructor, set_options and a setter all convert a value here and
** hand the whole def to the core's check, so they accept the same values
** and word the same errors.  Options are read in the description's
** order, after every key has been checked: the first error is the same
** whatever order the table iterates in (the pure core reads alike).
** A number_or_array option's table goes into a slot of the caller's
** luaik_arrays, which the def then points at.
*/
#include <string.h>

#include "lua.h"
#include "lauxlib.h"

#include "luaik.h"

const luaik_option *luaik_find_option(const luaik_option *options, const char *name) {
  const luaik_option *o;
  for (o = options; o->name != NULL; o++)
    if (strcmp(o->name, name) == 0) return o;
  return NULL;
}

#define FIELD(def, offset, type) (*(type *)(void *)((char *)(def) + (offset)))
#define CFIELD(def, offset, type) (*(const type *)(const void *)((const char *)(def) + (offset)))
/* a per-bone array's pointer field */
typedef const double *doubles;

/* false given for an optional setting: switched off */
static bool is_false(lua_State *L, int index) {
  return lua_isboolean(L, index) && !lua_toboolean(L, index);
}

/* The table at index, named what, has no key but names and 1..count, as
** a collider's has none but its fields. */
static void check_pair_keys(lua_State *L, int index, int arg, const char *what,
                            const char *const *names, int count) {
  int top = lua_gettop(L);
  luaik_check_keys(L, index, arg, lua_pushfstring(L, "%s: ", what), "field", names, count);
  lua_settop(L, top);
}

/* {x, y} or {x =, y =} (point) or {x, y} (vector) at index, named what */
static void read_pair(lua_State *L, int index, int arg, const luaik_option *o,
                      const char *what, void *def) {
  static const char *const point_names[] = {"x", "y", NULL}, *const no_names[] = {NULL};
  int top = lua_gettop(L);
  bool point = o->kind == LUAIK_OPTION_POINT;
  if (!lua_istable(L, index)) {
    if (point)
      luaik_arg_errorf(L, arg, "%s: {x, y} or false expected, got %s", what,
                       luaik_typename(L, index));
    luaik_arg_errorf(L, arg, "%s: table {x, y} expected, got %s", what,
                     luaik_typename(L, index));
  }
  check_pair_keys(L, index, arg, what, point ? point_names : no_names, 2);
  lua_rawgeti(L, index, 1);
  if (point && lua_isnil(L, -1)) {
    lua_pop(L, 1);
    luaik_rawfield(L, index, "x");
  }
  lua_rawgeti(L, index, 2);
  if (point && lua_isnil(L, -1)) {
    lua_pop(L, 1);
    luaik_rawfield(L, index, "y");
  }
  FIELD(def, o->x, double) = luaik_number_at(
      L, top + 1, arg, lua_pushfstring(L, point ? "%s x" : "%s[1]", what));
  FIELD(def, o->y, double) = luaik_number_at(
      L, top + 2, arg, lua_pushfstring(L, point ? "%s y" : "%s[2]", what));
  lua_settop(L, top);
}

/* the table at index, arrays->count numbers, into a slot of arrays that
** row o's array field of def then points at */
static void read_array(lua_State *L, int index, int arg, const luaik_option *o,
                       const char *what, void *def, luaik_arrays *arrays) {
  double *slot;
  int i;
  if (arrays == NULL || arrays->used >= LUAIK_ARRAYS)
    luaik_arg_errorf(L, arg, "%s: number expected, got table", what);
  if (luaik_rawlen(L, index) != (size_t)arrays->count)
    luaik_arg_errorf(L, arg, "%s: %d numbers expected (one per bone), got %d", what,
                     arrays->count, (int)luaik_rawlen(L, index));
  slot = arrays->slot[arrays->used++];
  for (i = 0; i < arrays->count; i++) {
    int top = lua_gettop(L);
    lua_rawgeti(L, index, i + 1);
    slot[i] = luaik_number_at(L, top + 1, arg, lua_pushfstring(L, "%s[%d]", what, i + 1));
    lua_settop(L, top);
  }
  FIELD(def, o->array, doubles) = slot;
}

/* {x =, y =, angle =} or {x, y, angle} (a ray) at index, named what; a
** named field first, its position where that is nil */
static void read_ray(lua_State *L, int index, int arg, const luaik_option *o,
                     const char *what, void *def) {
  static const char *const names[] = {"x", "y", "angle", NULL};
  size_t offsets[3];
  int top = lua_gettop(L), k;
  if (!lua_istable(L, index))
    luaik_arg_errorf(L, arg, "%s: {x =, y =, angle =} or false expected, got %s", what,
                     luaik_typename(L, index));
  check_pair_keys(L, index, arg, what, names, 3);
  offsets[0] = o->x;
  offsets[1] = o->y;
  offsets[2] = o->angle;
  for (k = 0; k < 3; k++) {
    if (luaik_rawfield(L, index, names[k]) == LUA_TNIL) {
      lua_pop(L, 1);
      lua_rawgeti(L, index, k + 1);
    }
    FIELD(def, offsets[k], double) = luaik_number_at(
        L, top + 1, arg, lua_pushfstring(L, "%s %s", what, names[k]));
    lua_settop(L, top);
  }
}

/* the value at index into row o's field of def, named what in errors */
static void read_value(lua_State *L, int index, int arg, const luaik_option *o,
                       const char *what, void *def, luaik_arrays *arrays) {
  switch (o->kind) {
    case LUAIK_OPTION_NUMBER:
      FIELD(def, o->field, double) = luaik_number_at(L, index, arg, what);
      break;
    case LUAIK_OPTION_WHOLE:
      FIELD(def, o->field, int) = luaik_whole_at(L, index, arg, what);
      break;
    case LUAIK_OPTION_BOOLEAN:
      FIELD(def, o->field, bool) = luaik_boolean_at(L, index, arg, what);
      break;
    case LUAIK_OPTION_CHOICE:
      o->set_choice(def, luaik_choice_at(L, index, arg, what, o->choices));
      break;
    case LUAIK_OPTION_ANGLE:
      FIELD(def, o->on, bool) = !is_false(L, index);
      if (!is_false(L, index))
        FIELD(def, o->field, double) = luaik_number_at(L, index, arg, what);
      break;
    case LUAIK_OPTION_POINT:
      FIELD(def, o->field, bool) = !is_false(L, index);
      if (!is_false(L, index)) read_pair(L, index, arg, o, what, def);
      break;
    case LUAIK_OPTION_VECTOR:
      read_pair(L, index, arg, o, what, def);
      break;
    case LUAIK_OPTION_NUMBER_OR_ARRAY:
      if (lua_istable(L, index)) {
        read_array(L, index, arg, o, what, def, arrays);
        break;
      }
      FIELD(def, o->field, double) = luaik_number_at(L, index, arg, what);
      FIELD(def, o->array, doubles) = NULL;
      break;
    case LUAIK_OPTION_RAY:
      FIELD(def, o->field, bool) = !is_false(L, index);
      if (!is_false(L, index)) read_ray(L, index, arg, o, what, def);
      break;
  }
}

void luaik_read_option(lua_State *L, int index, int arg, const luaik_option *o, void *def) {
  read_value(L, index, arg, o, o->name, def, NULL);
}

void luaik_read_fields(lua_State *L, int t, int arg, const char *owner,
                       const luaik_option *rows, void *def) {
  const luaik_option *o;
  for (o = rows; o->name != NULL; o++) {
    int top = lua_gettop(L);
    if (luaik_rawfield(L, t, o->name) != LUA_TNIL || o->required)
      read_value(L, top + 1, arg, o, lua_pushfstring(L, "%s%s", owner, o->name), def, NULL);
    lua_settop(L, top);
  }
}

/* a ray's x, y and angle into the table on top */
static void set_ray(lua_State *L, const luaik_option *o, const void *def) {
  lua_pushnumber(L, CFIELD(def, o->x, double));
  luaik_rawsetfield(L, -2, "x");
  lua_pushnumber(L, CFIELD(def, o->y, double));
  luaik_rawsetfield(L, -2, "y");
  lua_pushnumber(L, CFIELD(def, o->angle, double));
  luaik_rawsetfield(L, -2, "angle");
}

/* row o's field of def as a Lua value; a per-bone array's count numbers */
static void push_value(lua_State *L, const luaik_option *o, const void *def, int count) {
  switch (o->kind) {
    case LUAIK_OPTION_NUMBER: lua_pushnumber(L, CFIELD(def, o->field, double)); break;
    case LUAIK_OPTION_WHOLE: lua_pushinteger(L, CFIELD(def, o->field, int)); break;
    case LUAIK_OPTION_BOOLEAN: lua_pushboolean(L, CFIELD(def, o->field, bool)); break;
    case LUAIK_OPTION_CHOICE: lua_pushstring(L, o->choices[o->get_choice(def)]); break;
    case LUAIK_OPTION_ANGLE:
      if (CFIELD(def, o->on, bool)) lua_pushnumber(L, CFIELD(def, o->field, double));
      else lua_pushboolean(L, 0);
      break;
    case LUAIK_OPTION_POINT:
    case LUAIK_OPTION_VECTOR:
      if (o->kind == LUAIK_OPTION_POINT && !CFIELD(def, o->field, bool)) {
        lua_pushboolean(L, 0);
        break;
      }
      lua_createtable(L, 2, 0);
      lua_pushnumber(L, CFIELD(def, o->x, double));
      lua_rawseti(L, -2, 1);
      lua_pushnumber(L, CFIELD(def, o->y, double));
      lua_rawseti(L, -2, 2);
      break;
    case LUAIK_OPTION_NUMBER_OR_ARRAY:
      if (CFIELD(def, o->array, doubles) == NULL) {
        lua_pushnumber(L, CFIELD(def, o->field, double));
      } else {
        const double *values = CFIELD(def, o->array, doubles);
        int i;
        lua_createtable(L, count, 0);
        for (i = 0; i < count; i++) {
          lua_pushnumber(L, values[i]);
          lua_rawseti(L, -2, i + 1);
        }
      }
      break;
    case LUAIK_OPTION_RAY:
      if (!CFIELD(def, o->field, bool)) {
        lua_pushboolean(L, 0);
        break;
      }
      lua_createtable(L, 0, 3);
      set_ray(L, o, def);
      break;
  }
}

void luaik_push_option(lua_State *L, const luaik_option *o, const void *def) {
  push_value(L, o, def, 0);
}

static void read_rows(lua_State *L, int t, int arg, const luaik_option *options, void *def,
                      luaik_arrays *arrays) {
  const luaik_option *o;
  for (o = options; o->name != NULL; o++) {
    if (luaik_rawfield(L, t, o->name) != LUA_TNIL)
      read_value(L, lua_gettop(L), arg, o, o->name, def, arrays);
    lua_pop(L, 1);
  }
}

/* Is the string on top one of names (NULL-ended)? */
static bool named(lua_State *L, const char *const *names) {
  const char *key = lua_tostring(L, -1);
  for (; *names != NULL; names++)
    if (strcmp(*names, key) == 0) return true;
  return false;
}

/* Raises for a key of the table at t that is no option: a row's name
** (options) or one of names (NULL-ended), whichever is not NULL. */
static void check_names(lua_State *L, int t, int arg, const luaik_option *options,
                        const char *const *names) {
  lua_pushnil(L);
  while (lua_next(L, t) != 0) {
    lua_pop(L, 1);
    if (lua_type(L, -1) != LUA_TSTRING)
      luaik_arg_errorf(L, arg, "option names are strings, got %s", luaik_typename(L, -1));
    /* a name with a NUL inside is no option's, though %s shows it cut */
    if ((options != NULL ? luaik_find_option(options, lua_tostring(L, -1)) == NULL
                         : !named(L, names)) ||
        strlen(lua_tostring(L, -1)) != luaik_rawlen(L, -1))
      luaik_arg_errorf(L, arg, "unknown option '%s'", lua_tostring(L, -1));
  }
}

void luaik_check_option_names(lua_State *L, int t, int arg, const char *const *names) {
  check_names(L, t, arg, NULL, names);
}

void luaik_read_options(lua_State *L, int t, int arg, const luaik_option *options,
                        void *def, luaik_arrays *arrays) {
  check_names(L, t, arg, options, NULL);
  read_rows(L, t, arg, options, def, arrays);
}

void luaik_read_rows(lua_State *L, int t, int arg, const luaik_option *options, void *def) {
  read_rows(L, t, arg, options, def, NULL);
}

/* A point, vector, ray or per-bone array goes into the table t holds
** under its name already, when there is one: options(t) with a reused t
** makes no garbage. */
void luaik_push_options(lua_State *L, int t, const luaik_option *options, const void *def,
                        int count) {
  const luaik_option *o;
  for (o = options; o->name != NULL; o++) {
    bool pair = o->kind == LUAIK_OPTION_VECTOR ||
                (o->kind == LUAIK_OPTION_POINT && CFIELD(def, o->field, bool));
    bool array = o->kind == LUAIK_OPTION_NUMBER_OR_ARRAY &&
                 CFIELD(def, o->array, doubles) != NULL;
    if (array && luaik_rawfield(L, t, o->name) == LUA_TTABLE) {
      const double *values = CFIELD(def, o->array, doubles);
      int i;
      for (i = 0; i < count; i++) {
        lua_pushnumber(L, values[i]);
        lua_rawseti(L, -2, i + 1);
      }
      /* a longer table than the bones: its tail cleared (as far as it goes) */
      for (i = count + 1;; i++) {
        bool more;
        lua_rawgeti(L, -1, i);
        more = !lua_isnil(L, -1);
        lua_pop(L, 1);
        if (!more) break;
        lua_pushnil(L);
        lua_rawseti(L, -2, i);
      }
      lua_pop(L, 1);
      continue;
    }
    if (array) lua_pop(L, 1);
    bool ray = o->kind == LUAIK_OPTION_RAY && CFIELD(def, o->field, bool);
    if (ray && luaik_rawfield(L, t, o->name) == LUA_TTABLE) {
      set_ray(L, o, def);
      lua_pop(L, 1);
      continue;
    }
    if (ray) lua_pop(L, 1);
    if (pair && luaik_rawfield(L, t, o->name) == LUA_TTABLE) {
      lua_pushnumber(L, CFIELD(def, o->x, double));
      lua_rawseti(L, -2, 1);
      lua_pushnumber(L, CFIELD(def, o->y, double));
      lua_rawseti(L, -2, 2);
      lua_pop(L, 1);
      continue;
    }
    if (pair) lua_pop(L, 1);
    push_value(L, o, def, count);
    luaik_rawsetfield(L, t, o->name);
  }
}
