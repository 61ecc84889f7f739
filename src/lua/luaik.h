/*
** luaik.h: the Lua binding's shared parts (module ik2d.core).
**
** The binding converts Lua values to C ones, calls the core (../ik2d.h)
** and turns a status into a Lua error: every check of a value's meaning
** is the core's.  It owns what the core knows nothing of: the lifetime
** of each object (a finalised object raises on use, as Lua's liolib does
** for a closed file) and the references between objects (a solver keeps
** its chain alive, a chain its constraints, a group its solvers), held
** in a weak-keyed registry table rather than in user values that the
** debug library could replace.  A skeleton and its transform constraints
** keep each other alive: a cycle that weak keys cannot collect under
** LuaJIT (whose weak-keyed tables mark their values), so those two
** references alone live in the objects' own user values (luaik_keep);
** either side's __gc unlinks it from the other in the core, so a user
** value replaced through the debug library can end a life early, never
** leave a pointer to freed memory.
*/
#ifndef LUAIK_H
#define LUAIK_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "lua.h"
#include "lauxlib.h"

#include "../ik2d.h"
#include "luaik_api.h"
#include "luaik_compat.h"

/* The binding's object types; luaik_type_names[type] is the name their
** metatables are registered under ("ik2d.Chain", ...). */
typedef enum luaik_type {
  LUAIK_CONSTRAINT,
  LUAIK_CHAIN,
  LUAIK_SOLVER,
  LUAIK_GROUP,
  LUAIK_SKELETON,
  LUAIK_SPRING,
  LUAIK_TRANSFORM_CONSTRAINT,
  LUAIK_SLOTS,
  LUAIK_RIG_TARGETS,
  LUAIK_CLIP,
  LUAIK_TYPES
} luaik_type;
extern const char *const luaik_type_names[LUAIK_TYPES];

/* Functions LuaJIT's FFI (lua/ik2d/ffi.lua) calls besides the core's. */
#if defined(_WIN32)
#define LUAIK_EXPORT __declspec(dllexport)
#elif defined(__GNUC__)
#define LUAIK_EXPORT __attribute__((visibility("default")))
#else
#define LUAIK_EXPORT
#endif

/* ------------------------------------------------------------------ */
/* objects: a box header, then the core object                          */
/* ------------------------------------------------------------------ */

typedef struct luaik_box {
  int collected;   /* set by __gc: every method raises from then on */
} luaik_box;

/* The header's size: the core object after it stays aligned for a
** double, all the core asks (the lanes load and store unaligned). */
#define LUAIK_HEADER 8

/* Pushes a new userdata of type holding size bytes of object; returns
** the object, zeroed. */
void *luaik_new_object(lua_State *L, size_t size, luaik_type type);
static inline luaik_box *luaik_box_of(const void *object) {
  return (luaik_box *)((uintptr_t)object - LUAIK_HEADER);
}
/* The object at index if it is a userdata of type (collected or not),
** else NULL. */
void *luaik_test_object(lua_State *L, int index, luaik_type type);
/* The object at argument arg, or an error: "<type> expected, got <what
** it is>", or "<name> was collected". */
void *luaik_check_object(lua_State *L, int arg, luaik_type type, const char *name);
/* The __gc of every type: marks the box (idempotent) and counts it in
** the state's finalised. */
int luaik_gc(lua_State *L);
/* A list of functions the module registers, and whether they are
** methods (called obj:f(): an error does not count self). */
typedef struct luaik_function_list {
  const luaL_Reg *functions; /* NULL: the end of a list of lists */
  bool methods;
} luaik_function_list;
/* What the binding keeps per Lua state (the registry holds it, so it
** lives as long as the state): how many ik2d objects the state has
** finalised (a group re-checks its members only when that has changed),
** and the instruction set its batches solve with (ik2d.use_isa). */
typedef struct luaik_state {
  unsigned long finalised;
  unsigned long bone_targets; /* targets put on bones: groups look at
                                 their members again only after one */
  ik2d_isa isa;
  /* each type's metatable (lua_topointer), what luaik_test_object
  ** compares an object's with */
  const void *metatable[LUAIK_TYPES];
  /* every function the module registers (its opener sets them), how an
  ** error names the running one */
  const luaik_function_list *functions;
} luaik_state;
/* The state: upvalue 1 of every function the binding registers, so that
** a method finds it, and through it its type's metatable, without a
** lookup by name; else the registry's. */
luaik_state *luaik_state_of(lua_State *L);
/* The registry's state, pushed. */
void luaik_push_state(lua_State *L);
/* For the opener: the registry's entries (the anchors and targets
** tables, the state), made at a Lua state's first open and kept across
** reloads; returns the state. */
luaik_state *luaik_open_state(lua_State *L);
/* The type name of the value at index: its metatable's __name (so an
** ik2d.Chain is named so), else Lua's type name. */
const char *luaik_typename(lua_State *L, int index);

/* anchors[owner] = value (owner and value stack indices): the value
** lives as long as the owner; luaik_anchored pushes it (nil if none). */
void luaik_anchor(lua_State *L, int owner, int value);
void luaik_anchored(lua_State *L, int owner);
/* The solver at index solver keeps the skeleton at index skeleton alive
** while its target is on one of its bones (skeleton 0: none now). */
void luaik_anchor_target(lua_State *L, int solver, int skeleton);
/* Pushes that skeleton (nil if none). */
void luaik_anchored_target(lua_State *L, int solver);
/* owner's own table (its user value: a skeleton's or a transform
** constraint's)[key] = value (key and value stack indices): the value
** lives as long as the owner, as an ordinary reference that the
** collector follows, so that a cycle through it is collected.
** luaik_kept pushes owner's own table[key] (nil if none). */
void luaik_keep(lua_State *L, int owner, int key, int value);
void luaik_kept(lua_State *L, int owner, int key);

/* ------------------------------------------------------------------ */
/* errors                                                               */
/* ------------------------------------------------------------------ */

/* "bad argument #arg to 'name' (message)", at the caller's line, with
** the name of the running ik2d function and the argument numbered as
** Lua numbers it (a colon call does not count self). */
int luaik_arg_error(lua_State *L, int arg, const char *message);
/* "bad call to 'name' (message)": a call that cannot be made at all. */
int luaik_call_error(lua_State *L, const char *message);
/* luaik_arg_error with a pushed formatted message. */
int luaik_arg_errorf(lua_State *L, int arg, const char *format, ...);
int luaik_type_error(lua_State *L, int arg, const char *expected);
/* A core status as an error on argument arg; nothing when IK2D_OK. */
void luaik_check_status(lua_State *L, int arg, ik2d_status status);
/* The same for a status about the number value given at arg, which the
** message shows: "<words>, got -1". */
void luaik_check_value_status(lua_State *L, int arg, ik2d_status status, double value);
/* The core's words for a status, with a hint for Lua where one helps. */
const char *luaik_status_message(lua_State *L, ik2d_status status);
/* An IK2D_ERR_INDEX as "<what> index <i> out of range (1..last)", i the
** whole number at argument arg (already checked as one). */
int luaik_index_error(lua_State *L, int arg, const char *what, int last);

/* ------------------------------------------------------------------ */
/* conversions: Lua value -> C value, or an error naming the argument   */
/* ------------------------------------------------------------------ */

/* A number, or a string Lua converts to one (luaL_checknumber's rule). */
double luaik_check_number(lua_State *L, int arg);
double luaik_opt_number(lua_State *L, int arg, double fallback);
/* A whole number that fits an int; what names it in the error. */
int luaik_check_whole(lua_State *L, int arg, const char *what);
void luaik_check_table(lua_State *L, int arg);
/* Pushes t[key] read raw and returns its type.  Every table a caller
** gives (options, definitions, a pole) is read raw: no metamethod runs
** inside an ik2d call, so none can finalise the object in use or yield
** half-way; the pure core reads them with rawget alike. */
int luaik_rawfield(lua_State *L, int t, const char *key);
/* t[key] = the value on top (popped), written raw. */
void luaik_rawsetfield(lua_State *L, int t, const char *key);

/* The value at index, as (part of) argument arg, named by what (an
** option or field name): each raises "<what>: number expected, got
** <type>", "<what> must be a whole number", "<what> must be true or
** false", "<what> must be \"a\" or \"b\"". */
double luaik_number_at(lua_State *L, int index, int arg, const char *what);
int luaik_whole_at(lua_State *L, int index, int arg, const char *what);
bool luaik_boolean_at(lua_State *L, int index, int arg, const char *what);
/* The index in choices (NULL-terminated) of the string at index. */
int luaik_choice_at(lua_State *L, int index, int arg, const char *what,
                    const char *const *choices);

/* Where the per-bone arrays an option table gives go (its options of
** kind number_or_array, each a table of count numbers: one per bone of
** the object's chain), until the core copies them. */
typedef struct luaik_arrays {
  int count, used;
  double slot[LUAIK_ARRAYS][IK2D_MAX_BONES];
} luaik_arrays;

/* Options (luaik_options.c), by the rows of luaik_api.c: every option
** of the table at t into def (unknown names raise; nothing else is
** written when one raises only if def is a copy; arrays NULL: no option
** takes an array), one option's value at index, an option's value
** pushed, every option into the table at t (count: the numbers of a
** per-bone array). */
const luaik_option *luaik_find_option(const luaik_option *options, const char *name);
void luaik_read_options(lua_State *L, int t, int arg, const luaik_option *options,
                        void *def, luaik_arrays *arrays);
void luaik_read_option(lua_State *L, int index, int arg, const luaik_option *o, void *def);
void luaik_push_option(lua_State *L, const luaik_option *o, const void *def);
void luaik_push_options(lua_State *L, int t, const luaik_option *options, const void *def,
                        int count);
/* The plain fields of a bone table at t (the rows of luaik_api.c for its
** def) into def, each named "<owner><field>" in errors; a row that is
** required is read even when nil ("number expected, got nil"). */
void luaik_read_fields(lua_State *L, int t, int arg, const char *owner,
                       const luaik_option *rows, void *def);

/* Raises "<owner>unknown <kind> '<key>'" (owner "" or e.g. "bone 2: ")
** for the first key of the table at t that is not in names
** (NULL-terminated); integer keys 1..skip are allowed (a chain's bones). */
void luaik_check_keys(lua_State *L, int t, int arg, const char *owner,
                      const char *kind, const char *const *names, int skip);

/* obj:set_base(x, y [, angle]) for a chain or a skeleton: reads x, y and
** the angle (angle, the current one, when left out) at 2..4; and raises a
** status the core gave for them on the argument it is about. */
void luaik_base_args(lua_State *L, double *x, double *y, double *angle);
void luaik_check_base_status(lua_State *L, ik2d_status status);
/* The options of the table at t that the rows name (the other keys are
** the caller's to check), in the rows' order, into def; and the check of
** the table's keys that luaik_read_options makes, against names
** (NULL-ended) instead of rows. */
void luaik_read_rows(lua_State *L, int t, int arg, const luaik_option *options, void *def);
void luaik_check_option_names(lua_State *L, int t, int arg, const char *const *names);

/* Pushes 2 or 3 numbers (a point, a point and an angle); returns how many. */
int luaik_push_xy(lua_State *L, double x, double y);
int luaik_push_xya(lua_State *L, double x, double y, double angle);

/* Fills the table at t (a fresh one when t is none or nil) from index
** first with count doubles, clears what follows up to the first nil,
** and leaves it on top; returns the next free index. */
void luaik_push_table_arg(lua_State *L, int arg);
int luaik_fill(lua_State *L, int t, int first, const double *values, int count);
void luaik_trim(lua_State *L, int t, int first);

/* ------------------------------------------------------------------ */
/* the types                                                            */
/* ------------------------------------------------------------------ */

ik2d_chain *luaik_check_chain(lua_State *L, int arg);
ik2d_constraint *luaik_check_constraint(lua_State *L, int arg);
ik2d_solver *luaik_check_solver(lua_State *L, int arg);
ik2d_skeleton *luaik_check_skeleton(lua_State *L, int arg);
/* Appends the Lua objects of the skeleton at index sk's solvers (in the
** order made; one being collected is left out) to the table at index t
** from index next; returns the next free index. */
int luaik_skeleton_push_solvers(lua_State *L, int sk, int t, int next);
/* The 0-based bone of the skeleton at index sk that argument arg names
** (a name or a 1-based index), or an error. */
int luaik_bone_arg(lua_State *L, int sk, int arg);
/* The same for the value at index (a table's item), named what in the
** errors ("bones[2]: unknown bone \"x\""), as part of argument arg. */
int luaik_bone_at(lua_State *L, int sk, int index, int arg, const char *what);
/* The name of 0-based bone i of the skeleton at index sk, pushed. */
const char *luaik_bone_name(lua_State *L, int sk, int i);
/* The skeleton at index sk keeps the transform constraint at index tc
** (made on it) alive, and finds it again for sk:constraints() and
** sk:order(). */
void luaik_skeleton_keep_constraint(lua_State *L, int sk, int tc);
/* IK2D_ERR_TARGET_CYCLE as an error on argument arg (0: the call itself,
** "bad call to") naming solvers a and b of the skeleton at index sk:
** "solver 1 (chain "a".."b") and ...". */
void luaik_cycle_error(lua_State *L, int sk, int arg, const ik2d_solver *a,
                       const ik2d_solver *b);

/* Reads a constraint def from the limit fields (min, max, invert) of the
** table at t, naming owner ("" or "bone 2: ") in errors; false when the
** table has neither min nor max.  Leaves the stack as it found it. */
bool luaik_read_limits(lua_State *L, int t, int arg, const char *owner,
                       ik2d_constraint_def *def);
/* Pushes a new constraint from def, or raises naming owner. */
ik2d_constraint *luaik_push_constraint(lua_State *L, int arg, const char *owner,
                                       const ik2d_constraint_def *def);
/* The optional number field key of the table at t (fallback if nil). */
double luaik_number_field(lua_State *L, int t, int arg, const char *key,
                          const char *what, double fallback);
/* A skeleton chain's constraint of chain bone i (0-based), pushed (nil
** for none): the skeleton's, which sk:set_constraint may have changed. */
void luaik_push_path_constraint(lua_State *L, int chain, const ik2d_chain *c, int i);
/* ik2d.solver on a skeleton chain: the solver (on top) is remembered for
** sk:solvers(). */
void luaik_skeleton_solver_made(lua_State *L, const ik2d_chain *chain);
/* Chains and solvers made on a skeleton: unlinked at __gc. */
int luaik_chain_gc(lua_State *L);
int luaik_solver_gc(lua_State *L);
ik2d_spring *luaik_check_spring(lua_State *L, int arg);

/* Each file's functions, which the module (luaik_module.c) registers. */
extern const luaL_Reg luaik_chain_methods[], luaik_chain_meta[];
extern const luaL_Reg luaik_constraint_methods[], luaik_constraint_meta[];
extern const luaL_Reg luaik_solver_methods[], luaik_solver_meta[];
extern const luaL_Reg luaik_group_methods[], luaik_group_meta[];
extern const luaL_Reg luaik_skeleton_methods[], luaik_skeleton_meta[];
extern const luaL_Reg luaik_spring_methods[], luaik_spring_meta[];
extern const luaL_Reg luaik_transform_constraint_methods[], luaik_transform_constraint_meta[];
extern const luaL_Reg luaik_slots_methods[], luaik_slots_meta[];
extern const luaL_Reg luaik_rig_targets_methods[], luaik_rig_targets_meta[];
extern const luaL_Reg luaik_clip_methods[], luaik_clip_meta[];
/* The module's functions: ik2d.chain, ik2d.constraint, ... */
int luaik_chain_new(lua_State *L);
int luaik_constraint_new(lua_State *L);
int luaik_solver_new(lua_State *L);
int luaik_group_new(lua_State *L);
int luaik_skeleton_new(lua_State *L);
int luaik_spring_new(lua_State *L);
int luaik_transform_constraint_new(lua_State *L);
int luaik_slots_new(lua_State *L);
int luaik_rig_targets_new(lua_State *L);
int luaik_clip_new(lua_State *L);

#endif
