/*
** luaik_rig.c: ik2d.slots, ik2d.rig_targets and ik2d.clip, what a rig
** shows and how it moves (the core's slots and clips).
**
** Definitions come as Lua tables of plain arrays (1-based indices, as
** Lua counts); their numbers are copied into one scratch block (a
** userdata the collector frees) and the core checks them whole before
** anything is made.  Slots keep their skeleton alive; targets keep what
** they list alive; a clip keeps nothing (it is played on targets).
*/
#include <math.h>
#include <stddef.h>
#include <string.h>

#include "lua.h"
#include "lauxlib.h"

#include "luaik.h"

/* ------------------------------------------------------------------ */
/* reading arrays                                                       */
/* ------------------------------------------------------------------ */

/* The length of the array field key of the table at t (0 when absent),
** raising for anything else than a table or nil. */
static int array_length(lua_State *L, int t, const char *key, int arg, const char *owner) {
  int n = 0;
  luaik_rawfield(L, t, key);
  if (lua_istable(L, -1))
    n = (int)luaik_rawlen(L, -1);
  else if (!lua_isnil(L, -1))
    luaik_arg_errorf(L, arg, "%s%s: table expected, got %s", owner, key, luaik_typename(L, -1));
  lua_pop(L, 1);
  return n;
}

/* The number at index, item i of key of owner (named only in an error:
** no string is made for the good ones). */
static double number_in(lua_State *L, int index, int arg, const char *owner, const char *key,
                        int i) {
  int is_number = 0;
  double v = luaik_tonumberx(L, index, &is_number);
  if (!is_number)
    luaik_arg_errorf(L, arg, "%s%s[%d]: number expected, got %s", owner, key, i,
                     luaik_typename(L, index));
  return v;
}

/* A whole number at index (a field key of owner). */
static int whole_in(lua_State *L, int index, int arg, const char *owner, const char *key) {
  int is_number = 0;
  double v = luaik_tonumberx(L, index, &is_number);
  /* (the range first: a double no int holds has no cast) */
  if (!is_number || !(v >= -2147483648.0 && v <= 2147483647.0) || v != floor(v))
    luaik_arg_errorf(L, arg, "%s%s: whole number expected, got %s", owner, key,
                     is_number ? lua_tostring(L, index) : luaik_typename(L, index));
  return (int)v;
}

/* The choice at index (a field key of owner). */
static int choice_in(lua_State *L, int index, int arg, const char *owner, const char *key,
                     const char *const *choices) {
  int at = index < 0 ? lua_gettop(L) + index + 1 : index;
  return luaik_choice_at(L, at, arg, lua_pushfstring(L, "%s%s", owner, key), choices);
}

/* The n numbers of the array field key of the table at t into out, each
** plus add (a 1-based index made 0-based: -1). */
static void read_numbers(lua_State *L, int t, const char *key, int arg, const char *owner,
                         double *out, int n, double add) {
  int i;
  luaik_rawfield(L, t, key);
  for (i = 0; i < n; i++) {
    lua_rawgeti(L, -1, i + 1);
    out[i] = number_in(L, -1, arg, owner, key, i + 1) + add;
    lua_pop(L, 1);
  }
  lua_pop(L, 1);
}

/* Room for count bytes that lives until the call returns. */
static void *scratch(lua_State *L, size_t count) {
  void *p = luaik_newuserdata(L, count > 0 ? count : 1, 0);
  memset(p, 0, count > 0 ? count : 1);
  return p;
}

/* ------------------------------------------------------------------ */
/* ik2d.slots                                                           */
/* ------------------------------------------------------------------ */

static ik2d_slots *check_slots(lua_State *L, int arg) {
  return (ik2d_slots *)luaik_check_object(L, arg, LUAIK_SLOTS, "slots");
}

/* The skeleton slots at index s were made on (its anchor). */
static ik2d_skeleton *slots_skeleton(lua_State *L, int s) {
  ik2d_skeleton *sk;
  luaik_anchored(L, s);
  sk = luaik_check_skeleton(L, lua_gettop(L));
  lua_pop(L, 1);
  return sk;
}

/* A colour field (count numbers) of the table at t, or the fallback. */
static void read_color(lua_State *L, int t, const char *key, int arg, const char *owner,
                       double *out, int count) {
  int n = array_length(L, t, key, arg, owner);
  if (n == 0) return;
  if (n != count) luaik_arg_errorf(L, arg, "%s%s: %d numbers expected, got %d", owner, key, count, n);
  read_numbers(L, t, key, arg, owner, out, count, 0.0);
}

static void read_slot(lua_State *L, int sk, int t, int i, ik2d_slot_def *slot) {
  const char *owner = lua_pushfstring(L, "slots[%d]: ", i + 1);
  int top = lua_gettop(L);
  memset(slot, 0, sizeof *slot);
  slot->color[0] = slot->color[1] = slot->color[2] = slot->color[3] = 1.0;
  slot->attachment = -1;
  luaik_rawfield(L, t, "bone");
  slot->bone = whole_in(L, -1, 2, owner, "bone") - 1;
  if (slot->bone < 0 || slot->bone >= ik2d_skeleton_bone_count(luaik_check_skeleton(L, sk)))
    luaik_arg_errorf(L, 2, "%sbone index %d out of range (1..%d)", owner, slot->bone + 1,
                     ik2d_skeleton_bone_count(luaik_check_skeleton(L, sk)));
  luaik_rawfield(L, t, "attachment");
  if (!lua_isnil(L, -1))
    slot->attachment = whole_in(L, -1, 2, owner, "attachment") - 1;
  read_color(L, t, "color", 2, owner, slot->color, 4);
  slot->has_dark = array_length(L, t, "dark", 2, owner) > 0;
  read_color(L, t, "dark", 2, owner, slot->dark, 3);
  luaik_rawfield(L, t, "blend");
  if (!lua_isnil(L, -1))
    slot->blend = (ik2d_blend)choice_in(L, -1, 2, owner, "blend", luaik_blend_names);
  lua_settop(L, top - 1);
}

/* The doubles and ints attachment i's table (at t) holds in its arrays. */
static void attachment_counts(lua_State *L, int t, int i, long *doubles, long *ints) {
  const char *owner = lua_pushfstring(L, "attachments[%d]: ", i + 1);
  *doubles += array_length(L, t, "vertices", 2, owner);
  *doubles += array_length(L, t, "weights", 2, owner);
  *doubles += array_length(L, t, "uvs", 2, owner);
  *ints += array_length(L, t, "triangles", 2, owner);
  lua_pop(L, 1);
}

/* Attachment i (the table at t) into a, its arrays taken from *doubles
** and *ints on. */
static void read_attachment(lua_State *L, int t, int i, ik2d_attachment_def *a, double **doubles,
                            int **ints) {
  const char *owner = lua_pushfstring(L, "attachments[%d]: ", i + 1);
  int top = lua_gettop(L), k, n;
  memset(a, 0, sizeof *a);
  a->color[0] = a->color[1] = a->color[2] = a->color[3] = 1.0;
  a->deform = -1;
  luaik_rawfield(L, t, "kind");
  a->kind = (ik2d_attachment_kind)choice_in(L, -1, 2, owner, "kind", luaik_attachment_kind_names);
  n = array_length(L, t, "uvs", 2, owner);
  a->vertex_count = n / 2;
  a->uvs = *doubles;
  read_numbers(L, t, "uvs", 2, owner, *doubles, n, 0.0);
  *doubles += n;
  if ((n = array_length(L, t, "vertices", 2, owner)) > 0) {
    a->vertices = *doubles;
    read_numbers(L, t, "vertices", 2, owner, *doubles, n, 0.0);
    *doubles += n;
    /* the core reads 2 a vertex */
    if (n != 2 * a->vertex_count)
      luaik_arg_errorf(L, 2, "%svertices: %d numbers expected (2 a vertex, as many as the uvs), got %d",
                       owner, 2 * a->vertex_count, n);
  }
  if ((n = array_length(L, t, "weights", 2, owner)) > 0) {
    /* bones 1-based there: each entry's bone is its vertex's count + 1 on */
    double *w = *doubles;
    int at = 0;
    read_numbers(L, t, "weights", 2, owner, w, n, 0.0);
    /* each vertex: its count, then count (bone, x, y, weight) */
    while (at < n && w[at] >= 1.0 && w[at] <= IK2D_MAX_SKELETON_BONES) {
      int count = (int)w[at];
      for (k = 0; k < count && at + 1 + 4 * k < n; k++) w[at + 1 + 4 * k] -= 1.0;
      at += 1 + 4 * count;
    }
    a->weights = w;
    a->weight_count = n;
    *doubles += n;
  }
  n = array_length(L, t, "triangles", 2, owner);
  a->triangle_count = n / 3;
  a->triangles = *ints;
  {
    double index;
    luaik_rawfield(L, t, "triangles");
    for (k = 0; k < n; k++) {
      lua_rawgeti(L, -1, k + 1);
      index = number_in(L, -1, 2, owner, "triangles", k + 1);
      /* (int)index - 1, or -1 for a corner no int holds (no cast then) */
      (*ints)[k] = index > -2147483648.0 && index < 2147483648.0 ? (int)index - 1 : -1;
      lua_pop(L, 1);
    }
    lua_pop(L, 1);
  }
  *ints += n;
  read_color(L, t, "color", 2, owner, a->color, 4);
  luaik_rawfield(L, t, "deform");
  if (!lua_isnil(L, -1)) a->deform = whole_in(L, -1, 2, owner, "deform") - 1;
  lua_settop(L, top - 1);
}

/* ik2d.slots(sk, { slots = {...}, attachments = {...} }) */
int luaik_slots_new(lua_State *L) {
  ik2d_slots_def def;
  ik2d_slot_def *slots;
  ik2d_attachment_def *attachments;
  double *doubles;
  int *ints, i, bad = -1, n, count;
  long double_count = 0, int_count = 0;
  ik2d_slots *out;
  size_t size;
  ik2d_status status;
  memset(&def, 0, sizeof def);
  def.skeleton = luaik_check_skeleton(L, 1);
  luaik_check_table(L, 2);
  lua_settop(L, 2);
  n = array_length(L, 2, "slots", 2, "");
  count = array_length(L, 2, "attachments", 2, "");
  if (n < 1 || n > IK2D_MAX_SLOTS)
    luaik_arg_errorf(L, 2, "slots: %s", luaik_status_message(L, IK2D_ERR_SLOT_COUNT));
  slots = (ik2d_slot_def *)scratch(L, (size_t)n * sizeof *slots);
  attachments = (ik2d_attachment_def *)scratch(L, (size_t)count * sizeof *attachments);
  luaik_rawfield(L, 2, "slots");
  for (i = 0; i < n; i++) {
    lua_rawgeti(L, -1, i + 1);
    if (!lua_istable(L, -1))
      luaik_arg_errorf(L, 2, "slots[%d]: table expected, got %s", i + 1, luaik_typename(L, -1));
    read_slot(L, 1, lua_gettop(L), i, &slots[i]);
    lua_pop(L, 1);
  }
  luaik_rawfield(L, 2, "attachments");
  for (i = 0; i < count; i++) {
    lua_rawgeti(L, -1, i + 1);
    if (!lua_istable(L, -1))
      luaik_arg_errorf(L, 2, "attachments[%d]: table expected, got %s", i + 1, luaik_typename(L, -1));
    attachment_counts(L, lua_gettop(L), i, &double_count, &int_count);
    lua_pop(L, 1);
  }
  doubles = (double *)scratch(L, (size_t)double_count * sizeof(double));
  ints = (int *)scratch(L, (size_t)int_count * sizeof(int));
  for (i = 0; i < count; i++) {
    lua_rawgeti(L, -3, i + 1);
    read_attachment(L, lua_gettop(L), i, &attachments[i], &doubles, &ints);
    lua_pop(L, 1);
  }
  def.slot_count = n;
  def.slots = slots;
  def.attachment_count = count;
  def.attachments = attachments;
  /* checked first (into room too small, which only a good def reaches) */
  status = ik2d_slots_init((ik2d_slots *)scratch(L, 64), 0, &def, &bad);
  if (status != IK2D_ERR_SIZE) {
    if (bad >= 0)
      luaik_arg_errorf(L, 2, "%s[%d]: %s", status == IK2D_ERR_GEOMETRY ? "attachments" : "slots",
                       bad + 1, luaik_status_message(L, status));
    luaik_check_status(L, 2, status);
  }
  size = ik2d_slots_size(&def);
  out = (ik2d_slots *)luaik_new_object(L, size, LUAIK_SLOTS);
  luaik_check_status(L, 2, ik2d_slots_init(out, size, &def, NULL));
  luaik_anchor(L, -1, 1);
  return 1;
}

static int slot_arg(lua_State *L, const ik2d_slots *slots, int arg) {
  int i = luaik_check_whole(L, arg, "slot");
  if (i < 1 || i > ik2d_slots_count(slots)) luaik_index_error(L, arg, "slot", ik2d_slots_count(slots));
  return i - 1;
}

static int slots_len(lua_State *L) {
  lua_pushinteger(L, ik2d_slots_count(check_slots(L, 1)));
  return 1;
}

static int slots_to_setup(lua_State *L) {
  ik2d_slots_to_setup(check_slots(L, 1));
  return 0;
}

static int slots_attachment(lua_State *L) {
  ik2d_slots *slots = check_slots(L, 1);
  int a = ik2d_slots_attachment(slots, slot_arg(L, slots, 2));
  if (a < 0) lua_pushnil(L);
  else lua_pushinteger(L, a + 1);
  return 1;
}

static int slots_set_attachment(lua_State *L) {
  ik2d_slots *slots = check_slots(L, 1);
  int i = slot_arg(L, slots, 2);
  int a = lua_isnoneornil(L, 3) ? -1 : luaik_check_whole(L, 3, "attachment") - 1;
  luaik_check_status(L, 3, ik2d_slots_set_attachment(slots, i, a));
  return 0;
}

static int push_numbers(lua_State *L, const double *v, int n) {
  int k;
  for (k = 0; k < n; k++) lua_pushnumber(L, v[k]);
  return n;
}

static int slots_color(lua_State *L) {
  ik2d_slots *slots = check_slots(L, 1);
  double rgba[4];
  ik2d_slots_color(slots, slot_arg(L, slots, 2), rgba);
  return push_numbers(L, rgba, 4);
}

static int slots_tint(lua_State *L) {
  ik2d_slots *slots = check_slots(L, 1);
  double rgba[4];
  ik2d_slots_tint(slots, slot_arg(L, slots, 2), rgba);
  return push_numbers(L, rgba, 4);
}

static int slots_set_color(lua_State *L) {
  ik2d_slots *slots = check_slots(L, 1);
  int i = slot_arg(L, slots, 2), k;
  double rgba[4];
  for (k = 0; k < 4; k++) rgba[k] = luaik_check_number(L, 3 + k);
  luaik_check_status(L, 3, ik2d_slots_set_color(slots, i, rgba));
  return 0;
}

static int slots_dark(lua_State *L) {
  ik2d_slots *slots = check_slots(L, 1);
  double rgb[3];
  if (!ik2d_slots_dark(slots, slot_arg(L, slots, 2), rgb)) {
    lua_pushnil(L);
    return 1;
  }
  return push_numbers(L, rgb, 3);
}

static int slots_draw_order(lua_State *L) {
  ik2d_slots *slots = check_slots(L, 1);
  const int *order = ik2d_slots_draw_order(slots);
  int k, n = ik2d_slots_count(slots);
  luaik_push_table_arg(L, 2);
  for (k = 0; k < n; k++) {
    lua_pushinteger(L, order[k] + 1);
    lua_rawseti(L, -2, k + 1);
  }
  luaik_trim(L, lua_gettop(L), n + 1);
  return 1;
}

static int slots_deform(lua_State *L) {
  ik2d_slots *slots = check_slots(L, 1);
  int a = luaik_check_whole(L, 2, "attachment"), n = 0;
  const double *d;
  if (a < 1 || a > ik2d_slots_attachment_count(slots))
    luaik_index_error(L, 2, "attachment", ik2d_slots_attachment_count(slots));
  d = ik2d_slots_deform(slots, a - 1, &n);
  if (d == NULL) {
    lua_pushnil(L);
    return 1;
  }
  luaik_push_table_arg(L, 3);
  luaik_trim(L, lua_gettop(L), luaik_fill(L, lua_gettop(L), 1, d, n));
  return 1;
}

/* slots:vertices(i [, t]) -> t (x, y pairs as drawn) or nil */
static int slots_vertices(lua_State *L) {
  ik2d_slots *slots = check_slots(L, 1);
  int i = slot_arg(L, slots, 2), n;
  ik2d_skeleton *sk = slots_skeleton(L, 1);
  double *out;
  n = ik2d_slots_vertices(slots, sk, i, NULL, 0);
  if (n == 0) {
    lua_pushnil(L);
    return 1;
  }
  luaik_push_table_arg(L, 3);
  /* the scratch above the table, alive while it is filled */
  out = (double *)scratch(L, 2 * (size_t)n * sizeof(double));
  ik2d_slots_vertices(slots, sk, i, out, 2 * n);
  luaik_trim(L, 3, luaik_fill(L, 3, 1, out, 2 * n));
  lua_settop(L, 3);
  return 1;
}

/* Room for count doubles kept with the slots at index s (grown, never
** shrunk: a frame loop asks for the same room and makes nothing). */
static double *kept_doubles(lua_State *L, int s, size_t count) {
  double *room;
  lua_pushliteral(L, "world vertices");
  luaik_kept(L, s, lua_gettop(L));
  if (lua_isuserdata(L, -1) && luaik_rawlen(L, -1) >= count * sizeof(double)) {
    room = (double *)lua_touserdata(L, -1);
    lua_pop(L, 2);
    return room;
  }
  lua_pop(L, 1);
  room = (double *)luaik_newuserdata(L, (count > 0 ? count : 1) * sizeof(double), 0);
  luaik_keep(L, s, -2, -1);
  lua_pop(L, 2);
  return room;
}

/* The table at lists[k] (made and set when absent). */
static int list_at(lua_State *L, int lists, int k) {
  lua_rawgeti(L, lists, k);
  if (!lua_istable(L, -1)) {
    lua_pop(L, 1);
    lua_newtable(L);
    lua_pushvalue(L, -1);
    lua_rawseti(L, lists, k);
  }
  return lua_gettop(L);
}

/* The k-th drawn slot's attachment index (1-based) into shown[k] and its
** tint into the table tints[k] (made when absent), for the tables at
** shown and tints (0: not asked for). */
static void drawn_extras(lua_State *L, const ik2d_slots *slots, int i, int k, int shown,
                         int tints) {
  if (shown != 0) {
    lua_pushinteger(L, ik2d_slots_attachment(slots, i) + 1);
    lua_rawseti(L, shown, k);
  }
  if (tints != 0) {
    double rgba[4];
    int tint = list_at(L, tints, k);
    ik2d_slots_tint(slots, i, rgba);
    luaik_fill(L, tint, 1, rgba, 4);
    lua_pop(L, 1);
  }
}

/* slots:world_vertices(lists, drawn [, shown [, tints]]) -> n: every
** drawn slot's world vertices in drawing order by one core call, the
** k-th into lists[k] (x, y pairs; a table made when absent), its slot's
** index into drawn[k], its attachment's into shown[k] and its tint (the
** slot's colour times the attachment's) into tints[k] (a table r, g, b,
** a); n, how many slots drew.  The entries past n are left as they were. */
static int slots_world_vertices(lua_State *L) {
  ik2d_slots *slots = check_slots(L, 1);
  ik2d_skeleton *sk = slots_skeleton(L, 1);
  int n = ik2d_slots_count(slots), k, at = 0, count, *drawn, shown = 0, tints = 0;
  size_t room = 0;
  double *out;
  luaik_check_table(L, 2);
  luaik_check_table(L, 3);
  if (!lua_isnoneornil(L, 4)) {
    luaik_check_table(L, 4);
    shown = 4;
  }
  if (!lua_isnoneornil(L, 5)) {
    luaik_check_table(L, 5);
    tints = 5;
  }
  for (k = 0; k < n; k++) room += 2 * (size_t)ik2d_slots_vertices(slots, sk, k, NULL, 0);
  out = kept_doubles(L, 1, room + (size_t)n);
  drawn = (int *)(void *)(out + room);
  count = ik2d_slots_all_vertices(slots, sk, out, (int)room, drawn);
  if (count < 0) count = 0;
  for (k = 0; k < count; k++) {
    int vertices = 2 * ik2d_slots_vertices(slots, sk, drawn[k], NULL, 0);
    int list = list_at(L, 2, k + 1);
    luaik_trim(L, list, luaik_fill(L, list, 1, out + at, vertices));
    lua_pop(L, 1);
    at += vertices;
    lua_pushinteger(L, drawn[k] + 1);
    lua_rawseti(L, 3, k + 1);
    drawn_extras(L, slots, drawn[k], k + 1, shown, tints);
  }
  lua_pushinteger(L, count);
  return 1;
}

/* slots:skeleton() -> the skeleton the slots were made on */
static int slots_skeleton_method(lua_State *L) {
  check_slots(L, 1);
  luaik_anchored(L, 1);
  return 1;
}

const luaL_Reg luaik_slots_methods[] = {
  {"skeleton", slots_skeleton_method},
  {"to_setup", slots_to_setup},
  {"attachment", slots_attachment},
  {"set_attachment", slots_set_attachment},
  {"color", slots_color},
  {"set_color", slots_set_color},
  {"tint", slots_tint},
  {"dark", slots_dark},
  {"draw_order", slots_draw_order},
  {"deform", slots_deform},
  {"vertices", slots_vertices},
  {"world_vertices", slots_world_vertices},
  {NULL, NULL}
};

const luaL_Reg luaik_slots_meta[] = {
  {"__len", slots_len},
  {"__gc", luaik_gc},
  {NULL, NULL}
};

/* ------------------------------------------------------------------ */
/* ik2d.rig_targets                                                     */
/* ------------------------------------------------------------------ */

/* The core's targets, and room for its lists. */
typedef struct rig_targets {
  ik2d_rig_targets targets;
  ik2d_solver *solvers[IK2D_MAX_SKELETON_SOLVERS];
  ik2d_transform_constraint *constraints[IK2D_MAX_SKELETON_SOLVERS];
  /* the settings targets:keep_setup() kept, in a userdata the anchor
  ** table keeps alive (NULL before) */
  ik2d_solver_def *solver_setup;
  ik2d_transform_constraint_def *constraint_setup;
} rig_targets;

static rig_targets *check_targets(lua_State *L, int arg) {
  return (rig_targets *)luaik_check_object(L, arg, LUAIK_RIG_TARGETS, "rig targets");
}

/* The list field key of the table at t: its objects of type into out
** (at most max), their Lua values appended to the anchor table at a. */
static int read_objects(lua_State *L, int t, const char *key, luaik_type type, void **out, int max,
                        int a) {
  int n = array_length(L, t, key, 1, ""), i;
  if (n > max) luaik_arg_errorf(L, 1, "%s: at most %d, got %d", key, max, n);
  luaik_rawfield(L, t, key);
  for (i = 0; i < n; i++) {
    lua_rawgeti(L, -1, i + 1);
    out[i] = luaik_test_object(L, -1, type);
    if (out[i] == NULL || luaik_box_of(out[i])->collected)
      luaik_arg_errorf(L, 1, "%s[%d]: %s expected, got %s", key, i + 1, luaik_type_names[type],
                       luaik_typename(L, -1));
    lua_rawseti(L, a, (int)luaik_rawlen(L, a) + 1);
  }
  lua_pop(L, 1);
  return n;
}

/* ik2d.rig_targets{ skeleton =, solvers = {...}, constraints = {...},
** slots = } */
int luaik_rig_targets_new(lua_State *L) {
  rig_targets *r;
  int a;
  luaik_check_table(L, 1);
  lua_settop(L, 1);
  r = (rig_targets *)luaik_new_object(L, sizeof(rig_targets), LUAIK_RIG_TARGETS);
  lua_newtable(L);
  a = lua_gettop(L);
  luaik_rawfield(L, 1, "skeleton");
  r->targets.skeleton = (ik2d_skeleton *)luaik_test_object(L, -1, LUAIK_SKELETON);
  if (r->targets.skeleton == NULL || luaik_box_of(r->targets.skeleton)->collected)
    luaik_arg_errorf(L, 1, "skeleton: ik2d.Skeleton expected, got %s", luaik_typename(L, -1));
  lua_rawseti(L, a, 1);
  r->targets.solver_count =
      read_objects(L, 1, "solvers", LUAIK_SOLVER, (void **)r->solvers, IK2D_MAX_SKELETON_SOLVERS, a);
  r->targets.constraint_count = read_objects(L, 1, "constraints", LUAIK_TRANSFORM_CONSTRAINT,
                                             (void **)r->constraints, IK2D_MAX_SKELETON_SOLVERS, a);
  r->targets.solvers = r->solvers;
  r->targets.constraints = r->constraints;
  luaik_rawfield(L, 1, "slots");
  if (!lua_isnil(L, -1)) {
    r->targets.slots = (ik2d_slots *)luaik_test_object(L, -1, LUAIK_SLOTS);
    if (r->targets.slots == NULL)
      luaik_arg_errorf(L, 1, "slots: ik2d.Slots expected, got %s", luaik_typename(L, -1));
  }
  lua_rawseti(L, a, (int)luaik_rawlen(L, a) + 1);
  luaik_anchor(L, 2, a);
  lua_settop(L, 2);
  return 1;
}

/* Are every one of the targets' objects alive (none finalised)? */
static bool targets_alive(const rig_targets *r) {
  int i;
  if (luaik_box_of(r->targets.skeleton)->collected) return false;
  if (r->targets.slots != NULL && luaik_box_of(r->targets.slots)->collected) return false;
  for (i = 0; i < r->targets.solver_count; i++)
    if (luaik_box_of(r->solvers[i])->collected) return false;
  for (i = 0; i < r->targets.constraint_count; i++)
    if (luaik_box_of(r->constraints[i])->collected) return false;
  return true;
}

static const rig_targets *live_targets(lua_State *L, int arg) {
  const rig_targets *r = check_targets(L, arg);
  if (!targets_alive(r)) luaik_arg_error(L, arg, "an object of the targets was collected");
  return r;
}

/* targets:keep_setup(): the solvers' and constraints' settings now are
** what to_setup puts back */
static int targets_keep_setup(lua_State *L) {
  rig_targets *r = (rig_targets *)live_targets(L, 1);
  int n = r->targets.solver_count, m = r->targets.constraint_count, i;
  size_t solvers = (size_t)n * sizeof(ik2d_solver_def);
  char *room = (char *)luaik_newuserdata(
      L, solvers + (size_t)m * sizeof(ik2d_transform_constraint_def) + 1, 0);
  luaik_anchored(L, 1);
  lua_pushliteral(L, "setup");
  lua_pushvalue(L, -3);
  lua_rawset(L, -3);
  r->solver_setup = (ik2d_solver_def *)(void *)room;
  r->constraint_setup = (ik2d_transform_constraint_def *)(void *)(room + solvers);
  for (i = 0; i < n; i++) r->solver_setup[i] = ik2d_solver_get_def(r->solvers[i]);
  for (i = 0; i < m; i++) r->constraint_setup[i] = ik2d_transform_constraint_get_def(r->constraints[i]);
  return 0;
}

/* targets:to_setup(): the skeleton's bones, the slots, and the solvers'
** and constraints' kept settings back to the set-up, in one call; the
** bones placed by the skeleton's next solve */
static int targets_to_setup(lua_State *L) {
  const rig_targets *r = live_targets(L, 1);
  int i;
  (void)ik2d_rig_targets_to_setup(&r->targets);
  if (r->solver_setup == NULL) return 0;
  for (i = 0; i < r->targets.solver_count; i++)
    (void)ik2d_solver_set_def(r->solvers[i], &r->solver_setup[i]);
  for (i = 0; i < r->targets.constraint_count; i++)
    (void)ik2d_transform_constraint_set_def(r->constraints[i], &r->constraint_setup[i]);
  return 0;
}

const luaL_Reg luaik_rig_targets_methods[] = {
  {"keep_setup", targets_keep_setup},
  {"to_setup", targets_to_setup},
  {NULL, NULL}
};

const luaL_Reg luaik_rig_targets_meta[] = {
  {"__gc", luaik_gc},
  {NULL, NULL}
};

/* ------------------------------------------------------------------ */
/* ik2d.clip                                                            */
/* ------------------------------------------------------------------ */

static ik2d_clip *check_clip(lua_State *L, int arg) {
  return (ik2d_clip *)luaik_check_object(L, arg, LUAIK_CLIP, "clip");
}

/* What one timeline's table asks of the scratch: doubles and ints. */
typedef struct clip_counts {
  long doubles, ints, bytes;
} clip_counts;

/* A curve of a key: "linear", "stepped", or a list per channel of point
** lists; its kind, and its points counted (with want, written: counts
** into *counts, points into *points). */
static int curve_kind(lua_State *L, int arg, const char *owner, int k, long *point_doubles) {
  int kind = 0;
  if (lua_type(L, -1) == LUA_TSTRING) {
    const char *s = lua_tostring(L, -1);
    if (strcmp(s, "linear") == 0) return 0;
    if (strcmp(s, "stepped") == 0) return 1;
    luaik_arg_errorf(L, arg, "%scurves[%d]: \"linear\", \"stepped\" or a table expected, got \"%s\"",
                     owner, k + 1, s);
  }
  if (lua_isnil(L, -1)) return 0;
  if (!lua_istable(L, -1))
    luaik_arg_errorf(L, arg, "%scurves[%d]: \"linear\", \"stepped\" or a table expected, got %s",
                     owner, k + 1, luaik_typename(L, -1));
  kind = 2;
  {
    int c, channels = (int)luaik_rawlen(L, -1);
    for (c = 0; c < channels; c++) {
      lua_rawgeti(L, -1, c + 1);
      if (!lua_istable(L, -1))
        luaik_arg_errorf(L, arg, "%scurves[%d][%d]: table expected, got %s", owner, k + 1, c + 1,
                         luaik_typename(L, -1));
      *point_doubles += (long)luaik_rawlen(L, -1);
      lua_pop(L, 1);
    }
  }
  return kind;
}

/* The i-th timeline (the table at t) read into out, its arrays taken
** from the scratch's pools. */
typedef struct clip_pools {
  double *doubles;
  int *ints;
  unsigned char *bytes;
} clip_pools;

static void read_curves(lua_State *L, int t, const char *owner, ik2d_timeline_def *out,
                        clip_pools *pools, int values) {
  int k, c, keys = out->key_count;
  long ignored = 0;
  luaik_rawfield(L, t, "curves");
  if (lua_isnil(L, -1)) {
    lua_pop(L, 1);
    return;
  }
  out->curves = pools->bytes;
  out->point_counts = pools->ints;
  out->points = pools->doubles;
  for (k = 0; k < keys; k++) {
    lua_rawgeti(L, -1, k + 1);
    pools->bytes[k] = (unsigned char)curve_kind(L, 2, owner, k, &ignored);
    for (c = 0; c < values; c++) {
      int n = 0, p;
      if (pools->bytes[k] == 2) {
        lua_rawgeti(L, -1, c + 1);
        n = lua_istable(L, -1) ? (int)luaik_rawlen(L, -1) : 0;
        for (p = 0; p < n; p++) {
          lua_rawgeti(L, -1, p + 1);
          *pools->doubles++ = number_in(L, -1, 2, owner, "curves[k][c]", p + 1);
          lua_pop(L, 1);
        }
        lua_pop(L, 1);
      }
      pools->ints[(size_t)k * (size_t)values + (size_t)c] = n / 2;
    }
    lua_pop(L, 1);
  }
  pools->ints += (size_t)keys * (size_t)values;
  pools->bytes += keys;
  lua_pop(L, 1);
}

/* The values a key of the timeline takes on targets (0: not known, its
** target not in the rig, which the core refuses). */
static int values_a_key(const ik2d_timeline_def *t, const ik2d_rig_targets *targets) {
  int count = 0;
  switch (t->channel) {
  case IK2D_CHANNEL_COLOR: return 4;
  case IK2D_CHANNEL_RGB:
  case IK2D_CHANNEL_DARK: return 3;
  case IK2D_CHANNEL_DRAW_ORDER: return ik2d_slots_count(targets->slots);
  case IK2D_CHANNEL_DEFORM: ik2d_slots_deform(targets->slots, t->target, &count); return count;
  default: return 1;
  }
}

/* The values each key's curve has: a deform's one (its share), else its
** values a key (at most 4: a draw order's are stepped). */
static int curve_values(ik2d_channel channel, int per_key) {
  if (channel == IK2D_CHANNEL_DEFORM) return 1;
  return per_key > 4 ? 1 : per_key;
}

static void read_timeline(lua_State *L, int t, int i, ik2d_timeline_def *out, clip_pools *pools,
                          const ik2d_rig_targets *targets) {
  const char *owner = lua_pushfstring(L, "timelines[%d]: ", i + 1);
  int top = lua_gettop(L), keys, n, per_key;
  double add = 0.0;
  memset(out, 0, sizeof *out);
  luaik_rawfield(L, t, "channel");
  out->channel = (ik2d_channel)choice_in(L, -1, 2, owner, "channel", luaik_channel_names);
  luaik_rawfield(L, t, "target");
  if (!lua_isnil(L, -1))
    out->target = whole_in(L, -1, 2, owner, "target") - 1;
  keys = array_length(L, t, "times", 2, owner);
  n = array_length(L, t, "values", 2, owner);
  out->key_count = keys;
  out->times = pools->doubles;
  read_numbers(L, t, "times", 2, owner, pools->doubles, keys, 0.0);
  pools->doubles += keys;
  /* attachments and slots 1-based here, 0-based in the core (0: none) */
  if (out->channel == IK2D_CHANNEL_ATTACHMENT || out->channel == IK2D_CHANNEL_DRAW_ORDER) add = -1.0;
  out->values = pools->doubles;
  read_numbers(L, t, "values", 2, owner, pools->doubles, n, add);
  pools->doubles += n;
  /* the core reads as many as the keys take */
  per_key = values_a_key(out, targets);
  if (per_key > 0 && n != keys * per_key)
    luaik_arg_errorf(L, 2, "%svalues: %d numbers expected (%d keys of %d), got %d", owner,
                     keys * per_key, keys, per_key, n);
  if (keys > 0) read_curves(L, t, owner, out, pools, curve_values(out->channel, n / keys));
  lua_settop(L, top - 1);
}

/* The scratch a clip def's tables need. */
static void clip_sizes(lua_State *L, int list, int count, clip_counts *c) {
  int i, k;
  for (i = 0; i < count; i++) {
    int keys, values;
    const char *owner;
    lua_rawgeti(L, list, i + 1);
    if (!lua_istable(L, -1))
      luaik_arg_errorf(L, 2, "timelines[%d]: table expected, got %s", i + 1, luaik_typename(L, -1));
    owner = lua_pushfstring(L, "timelines[%d]: ", i + 1);
    keys = array_length(L, -2, "times", 2, owner);
    values = array_length(L, -2, "values", 2, owner);
    c->doubles += keys + values;
    c->bytes += keys;
    c->ints += (long)keys * 4 + (long)keys;
    luaik_rawfield(L, -2, "curves");
    if (!lua_isnil(L, -1) && !lua_istable(L, -1))
      luaik_arg_errorf(L, 2, "%scurves: table expected, got %s", owner, luaik_typename(L, -1));
    for (k = 0; lua_istable(L, -1) && k < keys; k++) {
      long points = 0;
      lua_rawgeti(L, -1, k + 1);
      curve_kind(L, 2, owner, k, &points);
      c->doubles += points;
      lua_pop(L, 1);
    }
    lua_pop(L, 3);
  }
}

/* ik2d.clip(targets, { duration =, timelines = {...} }) */
int luaik_clip_new(lua_State *L) {
  const rig_targets *r = live_targets(L, 1);
  ik2d_clip_def def;
  ik2d_timeline_def *timelines;
  clip_counts counts = {0, 0, 0};
  clip_pools pools;
  ik2d_status status;
  ik2d_clip *clip;
  size_t size;
  int list, count, i, bad = -1;
  luaik_check_table(L, 2);
  lua_settop(L, 2);
  def.duration = luaik_number_field(L, 2, 2, "duration", "duration", 0.0);
  count = array_length(L, 2, "timelines", 2, "");
  luaik_rawfield(L, 2, "timelines");
  list = lua_gettop(L);
  clip_sizes(L, list, count, &counts);
  timelines = (ik2d_timeline_def *)scratch(L, (size_t)count * sizeof *timelines);
  pools.doubles = (double *)scratch(L, (size_t)counts.doubles * sizeof(double));
  pools.ints = (int *)scratch(L, (size_t)counts.ints * sizeof(int));
  pools.bytes = (unsigned char *)scratch(L, (size_t)counts.bytes);
  for (i = 0; i < count; i++) {
    lua_rawgeti(L, list, i + 1);
    read_timeline(L, lua_gettop(L), i, &timelines[i], &pools, &r->targets);
    lua_pop(L, 1);
  }
  def.timeline_count = count;
  def.timelines = timelines;
  size = ik2d_clip_size(&def, &r->targets);
  if (size == 0) {
    status = ik2d_clip_init((ik2d_clip *)scratch(L, 64), 0, &def, &r->targets, &bad);
    if (bad >= 0) luaik_arg_errorf(L, 2, "timelines[%d]: %s", bad + 1, luaik_status_message(L, status));
    luaik_check_status(L, 2, status);
  }
  clip = (ik2d_clip *)luaik_new_object(L, size, LUAIK_CLIP);
  luaik_check_status(L, 2, ik2d_clip_init(clip, size, &def, &r->targets, &bad));
  return 1;
}

/* clip:apply(targets, time [, alpha]) */
static int clip_apply(lua_State *L) {
  ik2d_clip *clip = check_clip(L, 1);
  const rig_targets *r = live_targets(L, 2);
  double time = luaik_check_number(L, 3), alpha = luaik_opt_number(L, 4, 1.0);
  ik2d_status status = ik2d_clip_apply(clip, &r->targets, time, alpha);
  luaik_check_status(L, status == IK2D_ERR_ALPHA ? 4 : status == IK2D_ERR_TIME ? 3 : 2, status);
  return 0;
}

static int clip_duration(lua_State *L) {
  lua_pushnumber(L, ik2d_clip_duration(check_clip(L, 1)));
  return 1;
}

const luaL_Reg luaik_clip_methods[] = {
  {"apply", clip_apply},
  {"duration", clip_duration},
  {NULL, NULL}
};

const luaL_Reg luaik_clip_meta[] = {
  {"__gc", luaik_gc},
  {NULL, NULL}
};
