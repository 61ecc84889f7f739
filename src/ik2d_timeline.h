/*
** ik2d_timeline.h: keyed values over time (not installed).
**
** A timeline is keys (a time and a value per channel) and, between a key
** and the next, a curve: straight (linear), held (stepped), or a line
** through points given in absolute time and value.  Readers of animation
** files turn their formats' curves into points the way the formats'
** runtimes sample them (Spine's Bezier at nine parameters, DragonBones'
** eases), so that playing them is the same arithmetic for every format:
** straight lines between points.
*/
#ifndef IK2D_TIMELINE_H
#define IK2D_TIMELINE_H

#include <stdbool.h>

typedef enum ik2d_curve {
  IK2D_CURVE_LINEAR = 0,
  IK2D_CURVE_STEPPED = 1,
  IK2D_CURVE_POINTS = 2
} ik2d_curve;

/* A timeline's arrays (not owned). */
typedef struct ik2d_timeline {
  int key_count;          /* >= 1 */
  int channels;           /* values a key, >= 1 */
  const double *times;    /* key_count, non-decreasing */
  const double *values;   /* key_count x channels */
  const unsigned char *curves;  /* key_count ik2d_curve (NULL: all linear) */
  /* with IK2D_CURVE_POINTS at key k: channel c's points start at
  ** points[first[k * channels + c]], count[...] (t, v) pairs of them */
  const int *first, *count;
  const double *points;
} ik2d_timeline;

/* The key at or before time: -1 before the first key. */
int ik2d_timeline_key(const ik2d_timeline *timeline, double time);

/* Channel c's value at time, from key k = ik2d_timeline_key(time) >= 0. */
double ik2d_timeline_value(const ik2d_timeline *timeline, int k, int c, double time);
/* How far from key k (0) to the next (1) the value is at time, by channel
** 0's curve: for values too many to key one by one (a deform's). */
double ik2d_timeline_share(const ik2d_timeline *timeline, int k, double time);

#endif
