/*
** sizes.c: objects sized to the chain.
**
** A chain or solver of n bones takes memory that grows linearly with n:
** size(n) = a + b n for n in 1..64, 0 outside.  A 3-bone chain and its
** solver take at most 768 bytes in the core, so that with what Lua adds
** per object (userdata headers, the binding's box and its reference) the
** pair stays under the 1 KB goal (spec/memory_spec.lua measures that).
** And the sizes are true: each object works in exactly its size, between
** guard bytes that a solve leaves untouched, and refuses one byte less.
*/
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ik2d.h"

#define GUARD 64

static int failures = 0;

static void check(int ok, const char *what) {
  printf("%s %s\n", ok ? "ok" : "not ok", what);
  if (!ok) failures++;
}

/* Whether size(n) = size(1) + (n - 1) * step for n = 1..64, and 0 for 0,
** -1 and 65; the step in *step. */
static int linear(size_t (*size)(int), size_t *step) {
  int n;
  *step = size(2) - size(1);
  if (size(0) != 0 || size(-1) != 0 || size(IK2D_MAX_BONES + 1) != 0) return 0;
  for (n = 1; n <= IK2D_MAX_BONES; n++)
    if (size(n) != size(1) + (size_t)(n - 1) * *step) return 0;
  return *step > 0;
}

/* Every byte of the guards still 0xA5. */
static int guards_intact(const unsigned char *block, size_t size) {
  size_t k;
  for (k = 0; k < GUARD; k++)
    if (block[k] != 0xA5 || block[GUARD + size + k] != 0xA5) return 0;
  return 1;
}

/* A chain of n bones and its solver, each in exactly its size between
** guards, solved toward targets in and out of reach by every method;
** the guards must stay untouched, and one byte less must be refused. */
static int exact_fit(int n) {
  ik2d_bone_def bones[IK2D_MAX_BONES];
  ik2d_constraint_def limits = ik2d_default_constraint_def();
  ik2d_chain_def def = ik2d_default_chain_def();
  ik2d_solver_def settings = ik2d_default_solver_def();
  size_t chain_size = ik2d_chain_size(n), solver_size = ik2d_solver_size(n);
  size_t constraint_size = ik2d_constraint_size();
  /* double-aligned blocks: guards of 64 bytes keep the objects aligned */
  double *chain_block = malloc(chain_size + 2 * GUARD);
  double *solver_block = malloc(solver_size + 2 * GUARD);
  double *constraint_block = malloc(constraint_size + 2 * GUARD);
  ik2d_chain *chain;
  ik2d_solver *solver;
  ik2d_constraint *constraint;
  int ok = 1, i, frame;
  if (chain_block == NULL || solver_block == NULL || constraint_block == NULL) {
    free(chain_block);
    free(solver_block);
    free(constraint_block);
    return 0;
  }
  memset(chain_block, 0xA5, chain_size + 2 * GUARD);
  memset(solver_block, 0xA5, solver_size + 2 * GUARD);
  memset(constraint_block, 0xA5, constraint_size + 2 * GUARD);
  chain = (ik2d_chain *)(void *)((unsigned char *)chain_block + GUARD);
  solver = (ik2d_solver *)(void *)((unsigned char *)solver_block + GUARD);
  constraint = (ik2d_constraint *)(void *)((unsigned char *)constraint_block + GUARD);
  limits.min = -1.0;
  limits.max = 1.5;
  ok = ok && ik2d_constraint_init(constraint, constraint_size - 1, &limits) == IK2D_ERR_SIZE;
  ok = ok && ik2d_constraint_init(constraint, constraint_size, &limits) == IK2D_OK;
  for (i = 0; i < n; i++) {
    bones[i].length = 1.0 + 0.25 * (double)(i % 3);
    bones[i].rest = 0.1;
    bones[i].constraint = i % 2 == 1 ? constraint : NULL;
  }
  def.bone_count = n;
  def.bones = bones;
  ok = ok && ik2d_chain_init(chain, chain_size - 1, &def) == IK2D_ERR_SIZE;
  ok = ok && ik2d_chain_init(chain, chain_size, &def) == IK2D_OK;
  ok = ok && ik2d_solver_init(solver, solver_size - 1, chain, &settings) == IK2D_ERR_SIZE;
  ok = ok && ik2d_solver_init(solver, solver_size, chain, &settings) == IK2D_OK;
  for (frame = 0; ok && frame < 60; frame++) {
    double reach = ik2d_chain_reach(chain), turn = 0.37 * (double)frame;
    double radius = reach * (frame % 4 == 3 ? 1.5 : 0.2 + 0.2 * (double)(frame % 4));
    settings.method = n == 2 && frame % 3 == 2 ? IK2D_TWO_BONE
                                              : frame % 3 == 1 ? IK2D_FABRIK : IK2D_CCD;
    settings.two_bone.stretch = frame % 5 == 0 ? 1.5 : 1.0;
    settings.ccd.sweep = frame % 2 == 0 ? IK2D_SWEEP_ROOT : IK2D_SWEEP_TIP;
    ok = ik2d_solver_set_def(solver, &settings) == IK2D_OK &&
         ik2d_solver_set_target(solver, radius * cos(turn), radius * sin(turn)) == IK2D_OK;
    ik2d_solver_solve(solver);
    if (frame % 7 == 0) ik2d_solver_forget(solver);
  }
  ok = ok && guards_intact((const unsigned char *)chain_block, chain_size) &&
       guards_intact((const unsigned char *)solver_block, solver_size) &&
       guards_intact((const unsigned char *)constraint_block, constraint_size);
  free(chain_block);
  free(solver_block);
  free(constraint_block);
  return ok;
}

int main(void) {
  char line[160];
  size_t chain_step = 0, solver_step = 0, pair = ik2d_chain_size(3) + ik2d_solver_size(3);
  int n, fits = 1, chain_linear, solver_linear;

  snprintf(line, sizeof line, "a 3-bone chain and its solver take %u + %u = %u bytes, at most 768",
           (unsigned)ik2d_chain_size(3), (unsigned)ik2d_solver_size(3), (unsigned)pair);
  check(pair > 0 && pair <= 768, line);

  chain_linear = linear(ik2d_chain_size, &chain_step);
  solver_linear = linear(ik2d_solver_size, &solver_step);
  check(chain_linear && solver_linear,
        "chain and solver sizes are 0 outside 1..64 bones and linear inside");
  snprintf(line, sizeof line, "each bone adds %u bytes to a chain and %u to a solver, "
           "multiples of a double's size; 64 bones take %u + %u", (unsigned)chain_step, (unsigned)solver_step,
           (unsigned)ik2d_chain_size(64), (unsigned)ik2d_solver_size(64));
  check(chain_step % sizeof(double) == 0 && solver_step % sizeof(double) == 0 &&
            ik2d_chain_size(1) % sizeof(double) == 0 && ik2d_solver_size(1) % sizeof(double) == 0,
        line);

  for (n = 1; n <= IK2D_MAX_BONES; n++) fits = fits && exact_fit(n);
  check(fits, "for 1..64 bones each object works in exactly its size (guards untouched by "
              "60 solves) and refuses one byte less");

  return failures == 0 ? 0 : 1;
}
