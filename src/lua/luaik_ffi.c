/*
** luaik_ffi.c: what lua/ik2d/ffi.lua calls besides the core's C API: the
** binding's lifetime state and a solver's outcome as plain numbers, so
** that the FFI path handles no pointer it did not cache (a fresh one
** costs an allocation whenever LuaJIT runs the code in its interpreter,
** or carries it into another trace).
*/
#include "luaik.h"

LUAIK_EXPORT bool luaik_chain_live(const ik2d_chain *chain);
LUAIK_EXPORT bool luaik_solver_live(const ik2d_solver *solver);
LUAIK_EXPORT void luaik_result(const ik2d_solver *solver, double *out);
LUAIK_EXPORT bool luaik_skeleton_live(const ik2d_skeleton *skeleton);
LUAIK_EXPORT bool luaik_spring_live(const ik2d_spring *spring);
LUAIK_EXPORT void luaik_skeleton_matrices(ik2d_skeleton *skeleton);
LUAIK_EXPORT double luaik_read(const double *from, int i);

/* The chain's box is not finalised. */
bool luaik_chain_live(const ik2d_chain *chain) {
  return !luaik_box_of(chain)->collected;
}

/* Neither the solver's box nor its chain's is finalised. */
bool luaik_solver_live(const ik2d_solver *solver) {
  return !luaik_box_of(solver)->collected &&
         !luaik_box_of(ik2d_solver_chain(solver))->collected;
}

/* Neither the spring's box nor its chain's is finalised. */
bool luaik_spring_live(const ik2d_spring *spring) {
  return !luaik_box_of(spring)->collected &&
         !luaik_box_of(ik2d_spring_chain(spring))->collected;
}

/* out[0..3]: reached (0 or 1), distance, iterations, limited (0 or 1). */
void luaik_result(const ik2d_solver *solver, double *out) {
  const ik2d_result *result = ik2d_solver_result(solver);
  out[0] = result->reached;
  out[1] = result->distance;
  out[2] = result->iterations;
  out[3] = result->limited;
}

/* The skeleton's box is not finalised. */
bool luaik_skeleton_live(const ik2d_skeleton *skeleton) {
  return !luaik_box_of(skeleton)->collected;
}

/* The skeleton's matrices made again, where ik2d_skeleton_matrices gave
** them (the FFI path keeps that pointer, read once). */
void luaik_skeleton_matrices(ik2d_skeleton *skeleton) { (void)ik2d_skeleton_matrices(skeleton); }

/* from[i], read when called.  LuaJIT 2.1.0-beta3's x64 backend may fuse a
** load from an FFI buffer into a later instruction as a memory operand,
** past a C call that wrote the buffer again: two reads of one buffer in
** one expression then see the second call's value.  A value returned by
** a call is in a register, read when the call ran. */
double luaik_read(const double *from, int i) { return from[i]; }
