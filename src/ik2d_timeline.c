/*
** ik2d_timeline.c: keyed values over time.
**
** Between two points (x0, y0) and (x1, y1) of a curve the value at time t
** is y0 + (t - x0) / (x1 - x0) (y1 - y0); a segment of no duration gives
** its end.  Before the first key a timeline has no value (its target
** keeps what it had); from the last key on, the last key's.
*/
#include <stddef.h>

#include "ik2d_fp.h"
#include "ik2d_timeline.h"

int ik2d_timeline_key(const ik2d_timeline *timeline, double time) {
  int low = 0, high = timeline->key_count - 1;
  if (!(time >= timeline->times[0])) return -1;
  /* the last key at or before time: times[low] <= time throughout */
  while (low < high) {
    int mid = low + (high - low + 1) / 2;
    if (timeline->times[mid] <= time)
      low = mid;
    else
      high = mid - 1;
  }
  return low;
}

static double segment(double x0, double y0, double x1, double y1, double t) {
  if (!(x1 > x0)) return y1;
  return y0 + (t - x0) / (x1 - x0) * (y1 - y0);
}

/* On the line through the points from (x0, y0) to (x1, y1): the segment
** whose end is the first point at or after t. */
static double through_points(const double *points, int count, double x0, double y0, double x1,
                             double y1, double t) {
  int i;
  for (i = 0; i < count; i++) {
    double px = points[2 * i], py = points[2 * i + 1];
    if (px >= t) return segment(x0, y0, px, py, t);
    x0 = px;
    y0 = py;
  }
  return segment(x0, y0, x1, y1, t);
}

double ik2d_timeline_value(const ik2d_timeline *timeline, int k, int c, double time) {
  int channels = timeline->channels, at = k * channels + c;
  double v0 = timeline->values[at], v1;
  ik2d_curve curve;
  if (k >= timeline->key_count - 1) return v0;
  curve = timeline->curves != NULL ? (ik2d_curve)timeline->curves[k] : IK2D_CURVE_LINEAR;
  if (curve == IK2D_CURVE_STEPPED) return v0;
  v1 = timeline->values[at + channels];
  if (curve == IK2D_CURVE_POINTS)
    return through_points(timeline->points + timeline->first[at], timeline->count[at],
                          timeline->times[k], v0, timeline->times[k + 1], v1, time);
  return segment(timeline->times[k], v0, timeline->times[k + 1], v1, time);
}

double ik2d_timeline_share(const ik2d_timeline *timeline, int k, double time) {
  int at = k * timeline->channels;
  ik2d_curve curve;
  if (k >= timeline->key_count - 1) return 1.0;
  curve = timeline->curves != NULL ? (ik2d_curve)timeline->curves[k] : IK2D_CURVE_LINEAR;
  if (curve == IK2D_CURVE_STEPPED) return 0.0;
  if (curve == IK2D_CURVE_POINTS)
    return through_points(timeline->points + timeline->first[at], timeline->count[at],
                          timeline->times[k], 0.0, timeline->times[k + 1], 1.0, time);
  return segment(timeline->times[k], 0.0, timeline->times[k + 1], 1.0, time);
}
