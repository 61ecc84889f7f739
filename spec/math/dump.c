/*
** dump.c: the core's own transcendentals (src/ik2d_math.c) at arguments
** of every scale, one line each, "name argument(s) = result", every
** number as the decimal integer of its bits (so any reader parses it
** exactly); spec/math_spec.lua computes the same with the pure-Lua core's
** copies (lua/ik2d/pure/math.lua) and compares the bits.  After the n
** lines of every function at random arguments, the edges of rot's and
** atan2's cases, and last "lines N", the count of lines before it.
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

static void put_rot(double x) {
  ik2d_rot r = ik2d_rot_angle(x);
  printf("rot");  put(x); put(r.c); put(r.s); printf("\n");
}

/* the edges of ik2d_rot_angle's and ik2d_atan2's cases, and a few
** doubles either side: the zeros, 2^-27, pi/4, multiples of pi/2,
** MEDIUM_MAX, the largest, the infinities and NaN */
static const double edges[] = {
  0.0, 4.9406564584124654e-324, 2.2250738585072014e-308, 1e-300, 7.450580596923828e-9,
  0.5, 0.7853981633974483, 1.0, 1.5707963267948966, 3.141592653589793, 4.71238898038469,
  6.283185307179586, 1e3, 1.6e6, 1e300, 1.7976931348623157e308, HUGE_VAL
};
#define EDGES ((int)(sizeof edges / sizeof edges[0]))

static int dump_edges(void) {
  int lines = 0, i, j, k;
  double x;
  for (i = 0; i < EDGES; i++) {
    for (k = -3; k <= 3; k++) {
      x = edges[i];
      for (j = 0; j < (k < 0 ? -k : k); j++) x = nextafter(x, k < 0 ? -HUGE_VAL : HUGE_VAL);
      put_rot(x);
      put_rot(-x);
      lines += 2;
    }
  }
  put_rot(NAN);
  lines++;
  /* pi/4, where the reduction starts, densely */
  for (i = 0, x = 0.7853981633974483; i < 2000; i++) x = nextafter(x, 0.0);
  for (i = 0; i < 4000; i++, x = nextafter(x, 1.0)) {
    put_rot(x);
    lines++;
  }
  for (i = 0; i < EDGES; i++) {
    for (j = 0; j < EDGES; j++) {
      for (k = 0; k < 4; k++) {
        double y = k & 1 ? -edges[i] : edges[i], z = k & 2 ? -edges[j] : edges[j];
        printf("atan2"); put(y); put(z); put(ik2d_atan2(y, z)); printf("\n");
        lines++;
      }
    }
    printf("atan2"); put(edges[i]); put(NAN); put(ik2d_atan2(edges[i], NAN)); printf("\n");
    printf("atan2"); put(NAN); put(edges[i]); put(ik2d_atan2(NAN, edges[i])); printf("\n");
    lines += 2;
  }
  return lines;
}

int main(int argc, char **argv) {
  int i, n = argc > 1 ? atoi(argv[1]) : 2000;
  for (i = 0; i < n; i++) {
    double x = scaled(i), y = scaled(i + 1), e = 1500.0 * rnd() - 750.0, c = 2.0 * rnd() - 1.0;
    put_rot(x);
    printf("exp");  put(e); put(ik2d_exp(e)); printf("\n");
    printf("expm1"); put(e / 16.0); put(ik2d_expm1(e / 16.0)); printf("\n");
    printf("expm1"); put(x); put(ik2d_expm1(x)); printf("\n");
    printf("hypot"); put(x); put(y); put(ik2d_hypot(x, y)); printf("\n");
    printf("atan2"); put(x); put(y); put(ik2d_atan2(x, y)); printf("\n");
    printf("acos"); put(c); put(ik2d_acos(c)); printf("\n");
  }
  printf("lines %d\n", 7 * n + dump_edges());
  return 0;
}
