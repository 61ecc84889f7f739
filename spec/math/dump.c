/*
** dump.c: the core's own transcendentals (src/ik2d_math.c) at arguments
** of every scale, one line each, "name argument(s) = result", every
** number as the decimal integer of its bits (so any reader parses it
** exactly); spec/math_spec.lua computes the same with the pure-Lua core's
** copies (lua/ik2d/pure/math.lua) and compares the bits.
*/
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ik2d_math.h"

static uint64_t state = 0x243f6a8885a308d3ULL;
static double rnd(void) {
  state ^= state << 13;
  state ^= state >> 7;
  state ^= state << 17;
  return (double)(state >> 11) / 9007199254740992.0;
}

/* a double as two 32-bit halves, which Lua 5.1's numbers hold exactly */
static void put(double v) {
  uint64_t bits;
  memcpy(&bits, &v, sizeof bits);
  printf(" %lu %lu", (unsigned long)(bits >> 32), (unsigned long)(bits & 0xffffffffu));
}

static double scaled(int i) {
  switch (i % 5) {
    case 0: return (2.0 * rnd() - 1.0) * pow(10.0, 40.0 * rnd() - 20.0);
    case 1: return (2.0 * rnd() - 1.0) * pow(10.0, 308.0 * rnd());
    case 2: return (2.0 * rnd() - 1.0) * pow(10.0, -300.0 * rnd());
    case 3: return (double)(i / 5) * 1.5707963267948966;
    default: return 20.0 * rnd() - 10.0;
  }
}

int main(int argc, char **argv) {
  int i, n = argc > 1 ? atoi(argv[1]) : 2000;
  for (i = 0; i < n; i++) {
    double x = scaled(i), y = scaled(i + 1), e = 1500.0 * rnd() - 750.0, c = 2.0 * rnd() - 1.0;
    ik2d_rot r = ik2d_rot_angle(x);
    printf("rot");  put(x); put(r.c); put(r.s); printf("\n");
    printf("exp");  put(e); put(ik2d_exp(e)); printf("\n");
    printf("expm1"); put(e / 16.0); put(ik2d_expm1(e / 16.0)); printf("\n");
    printf("expm1"); put(x); put(ik2d_expm1(x)); printf("\n");
    printf("hypot"); put(x); put(y); put(ik2d_hypot(x, y)); printf("\n");
    printf("atan2"); put(x); put(y); put(ik2d_atan2(x, y)); printf("\n");
    printf("acos"); put(c); put(ik2d_acos(c)); printf("\n");
  }
  return 0;
}
