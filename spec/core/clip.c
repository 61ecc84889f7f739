/*
** clip.c: clips and slots over the core alone, against values worked out
** by hand: keys on bones (relative to the set-up: rotation and translation
** added, scale multiplied), each curve (linear, stepped, a line through
** points), alpha's blend (a rotation the short way), a solver's settings,
** slots' attachments, colours, drawing order and an attachment's deform
** (its curve a share), and what init and apply refuse.
*/
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ik2d.h"

#define PI 3.14159265358979323846

static int failed;

static void check(int ok, const char *what, double value) {
  printf("%s %s (%.17g)\n", ok ? "ok" : "not ok", what, value);
  if (!ok) failed = 1;
}

static void near(double expected, double got, const char *what) {
  check(fabs(expected - got) <= 1e-12, what, got);
}

static void *memory(size_t size) {
  void *p = calloc(1, size);
  if (p == NULL) abort();
  return p;
}

/* a root at the origin and a child at (10, 0) of its space, general (the
** child scaled 2 in x), a solver on the pair, two slots and 3 attachments,
** attachment 1 deformed (4 doubles: 2 vertices) */
typedef struct rig {
  ik2d_skeleton *sk;
  ik2d_chain *chain;
  ik2d_solver *solver;
  ik2d_slots *slots;
  ik2d_rig_targets targets;
} rig;

static void rig_make(rig *r) {
  ik2d_skeleton_bone_def bones[2];
  ik2d_skeleton_def def = ik2d_default_skeleton_def();
  ik2d_slot_def slot[2];
  ik2d_slots_def slots = {0};
  static ik2d_attachment_def attachments[3];
  static const double quad[] = {0, 0, 0, 1, 1, 1, 1, 0}, pair[] = {0, 0, 1, 0};
  static const int tri[] = {0, 1, 1};
  int k;
  size_t size;
  bones[0] = ik2d_default_skeleton_bone_def();
  bones[0].length = 10;
  bones[0].rest = 0.5;
  bones[1] = ik2d_default_skeleton_bone_def();
  bones[1].parent = 0;
  bones[1].length = 5;
  bones[1].at_tip = false;
  bones[1].x = 10;
  bones[1].scale_x = 2;
  def.bones = bones;
  def.bone_count = 2;
  r->sk = memory(ik2d_skeleton_size(2));
  check(ik2d_skeleton_init(r->sk, ik2d_skeleton_size(2), &def, NULL) == IK2D_OK, "skeleton", 0);
  size = ik2d_skeleton_chain_size(2);
  r->chain = memory(size);
  ik2d_skeleton_chain_init(r->chain, size, r->sk, 0, 1, NULL);
  {
    ik2d_solver_def sd = ik2d_default_solver_def();
    sd.method = IK2D_TWO_BONE;
    size = ik2d_solver_size(2);
    r->solver = memory(size);
    check(ik2d_solver_init(r->solver, size, r->chain, &sd) == IK2D_OK, "solver", 0);
  }
  for (k = 0; k < 2; k++) {
    memset(&slot[k], 0, sizeof slot[k]);
    slot[k].bone = k;
    slot[k].attachment = k == 0 ? 0 : -1;
    slot[k].color[0] = slot[k].color[1] = slot[k].color[2] = slot[k].color[3] = 1.0;
  }
  slots.skeleton = r->sk;
  slots.slot_count = 2;
  slots.slots = slot;
  for (k = 0; k < 3; k++) {
    ik2d_attachment_def *a = &attachments[k];
    memset(a, 0, sizeof *a);
    a->kind = k == 1 ? IK2D_ATTACHMENT_MESH : IK2D_ATTACHMENT_REGION;
    a->vertex_count = k == 1 ? 2 : 4;
    a->vertices = a->uvs = k == 1 ? pair : quad;
    a->triangle_count = k == 1 ? 1 : 0;
    a->triangles = tri;
    a->color[0] = a->color[1] = a->color[2] = a->color[3] = 1.0;
    a->deform = k == 1 ? 1 : -1;
  }
  slots.attachment_count = 3;
  slots.attachments = attachments;
  size = ik2d_slots_size(&slots);
  r->slots = memory(size);
  check(ik2d_slots_init(r->slots, size, &slots, NULL) == IK2D_OK, "slots", 0);
  r->targets.skeleton = r->sk;
  r->targets.solver_count = 1;
  r->targets.solvers = &r->solver;
  r->targets.constraint_count = 0;
  r->targets.constraints = NULL;
  r->targets.slots = r->slots;
}

static ik2d_clip *clip_make(rig *r, const ik2d_timeline_def *t, int n) {
  ik2d_clip_def def;
  ik2d_clip *clip;
  size_t size;
  def.duration = 2;
  def.timeline_count = n;
  def.timelines = t;
  size = ik2d_clip_size(&def, &r->targets);
  check(size > 0, "clip sized", (double)size);
  clip = memory(size);
  check(ik2d_clip_init(clip, size, &def, &r->targets, NULL) == IK2D_OK, "clip made", 0);
  return clip;
}

static ik2d_timeline_def timeline(ik2d_channel channel, int target, int keys, const double *times,
                                  const double *values) {
  ik2d_timeline_def t;
  memset(&t, 0, sizeof t);
  t.channel = channel;
  t.target = target;
  t.key_count = keys;
  t.times = times;
  t.values = values;
  return t;
}

/* rotate keys (added to the rest 0.5): 0 at 0 s, 1 at 1 s linear, then
** stepped to 3 at 2 s; the child's scale x keys 1.5 (times its set-up 2)
** through a curve's point (0.5 s, 1.25): at 0.25 s halfway to it,
** 1.125; x keys 4 (added to 10) */
static void bone_keys(void) {
  rig r;
  static const double times[] = {0, 1, 2}, rot[] = {0, 1, 3};
  static const unsigned char rot_curves[] = {0, 1, 0};
  static const double stimes[] = {0, 1}, svals[] = {1, 1.5}, spoints[] = {0.5, 1.25};
  static const unsigned char scurves[] = {2, 0};
  static const int scounts[] = {1, 0};
  static const double xtimes[] = {0.5}, xvals[] = {4};
  ik2d_timeline_def t[3];
  ik2d_bone_local l;
  ik2d_clip *clip;
  double angle;
  rig_make(&r);
  t[0] = timeline(IK2D_CHANNEL_ROTATE, 0, 3, times, rot);
  t[0].curves = rot_curves;
  t[1] = timeline(IK2D_CHANNEL_SCALE_X, 1, 2, stimes, svals);
  t[1].curves = scurves;
  t[1].point_counts = scounts;
  t[1].points = spoints;
  t[2] = timeline(IK2D_CHANNEL_X, 1, 1, xtimes, xvals);
  clip = clip_make(&r, t, 3);
  ik2d_clip_apply(clip, &r.targets, 0.25, 1.0);
  ik2d_skeleton_pose(r.sk, 0, &angle);
  near(0.5 + 0.25, angle, "rotate: linear a quarter of the way, plus the rest");
  ik2d_skeleton_pose_local(r.sk, 1, &l);
  near(2 * 1.125, l.scale_x, "scale x: the curve's first segment, times the set-up");
  near(10, l.x, "x before its first key: the set-up");
  ik2d_clip_apply(clip, &r.targets, 1.5, 1.0);
  ik2d_skeleton_pose(r.sk, 0, &angle);
  near(0.5 + 1, angle, "rotate: stepped holds the key");
  ik2d_skeleton_pose_local(r.sk, 1, &l);
  near(2 * 1.5, l.scale_x, "scale x after the last key: the last");
  near(14, l.x, "x: the key added to the set-up");
  ik2d_clip_apply(clip, &r.targets, 5, 1.0);
  ik2d_skeleton_pose(r.sk, 0, &angle);
  near(0.5 + 3, angle, "rotate after the last key");
  /* alpha: from what it is (3.5) toward 0.5 + 0 at 0 s, the short way:
  ** 3.5 - 0.5 = 3 < pi: halfway is 2.0 */
  ik2d_clip_apply(clip, &r.targets, 0, 0.5);
  ik2d_skeleton_pose(r.sk, 0, &angle);
  near(2.0, angle, "alpha 0.5 halfway");
  ik2d_skeleton_solve(r.sk);
  {
    double m[6];
    ik2d_skeleton_matrix(r.sk, 0, m);
    near(cos(2.0), m[0], "placed at the solve");
  }
}

/* slots: attachment keys 2 (index 1) at 0.5 s, none at 1 s; colour
** rgba linear from (1, 1, 1, 1) to (0, 0.5, 1, 0); drawing order (1, 0);
** deform of attachment 1 from 0 to (2, 4, 6, 8) by a share through the
** point (0.5, 0.9) */
static void slot_keys(void) {
  rig r;
  static const double at_times[] = {0.5, 1}, at_values[] = {1, -1};
  static const double ctimes[] = {0, 1}, cvalues[] = {1, 1, 1, 1, 0, 0.5, 1, 0};
  static const double otimes[] = {0}, ovalues[] = {1, 0};
  static const double dtimes[] = {0, 1}, dvalues[] = {0, 0, 0, 0, 2, 4, 6, 8};
  static const unsigned char dcurves[] = {2, 0};
  static const int dcounts[] = {1, 0};
  static const double dpoints[] = {0.5, 0.9};
  ik2d_timeline_def t[4];
  ik2d_clip *clip;
  const double *d;
  double rgba[4];
  int n;
  rig_make(&r);
  t[0] = timeline(IK2D_CHANNEL_ATTACHMENT, 1, 2, at_times, at_values);
  t[1] = timeline(IK2D_CHANNEL_COLOR, 0, 2, ctimes, cvalues);
  t[2] = timeline(IK2D_CHANNEL_DRAW_ORDER, 0, 1, otimes, ovalues);
  t[3] = timeline(IK2D_CHANNEL_DEFORM, 1, 2, dtimes, dvalues);
  t[3].curves = dcurves;
  t[3].point_counts = dcounts;
  t[3].points = dpoints;
  clip = clip_make(&r, t, 4);
  ik2d_clip_apply(clip, &r.targets, 0.25, 1.0);
  check(ik2d_slots_attachment(r.slots, 1) == -1, "attachment before its first key: set-up", 0);
  ik2d_slots_color(r.slots, 0, rgba);
  near(0.75, rgba[0], "red a quarter of the way");
  near(0.875, rgba[1], "green");
  near(0.75, rgba[3], "alpha");
  check(ik2d_slots_draw_order(r.slots)[0] == 1, "drawing order keyed", 0);
  d = ik2d_slots_deform(r.slots, 1, &n);
  /* share at 0.25 s: halfway to the point's 0.9: 0.45 */
  near(2 * 0.45, d[0], "deform: the share's curve");
  near(8 * 0.45, d[3], "deform: every offset");
  ik2d_clip_apply(clip, &r.targets, 0.75, 1.0);
  check(ik2d_slots_attachment(r.slots, 1) == 1, "attachment keyed", 0);
  ik2d_clip_apply(clip, &r.targets, 1.0, 0.4);
  check(ik2d_slots_attachment(r.slots, 1) == 1, "alpha below a half: no switch", 0);
  ik2d_clip_apply(clip, &r.targets, 1.0, 0.5);
  check(ik2d_slots_attachment(r.slots, 1) == -1, "alpha a half: the switch", 0);
  ik2d_slots_to_setup(r.slots);
  check(ik2d_slots_draw_order(r.slots)[0] == 0, "to set-up: order", 0);
  check(ik2d_slots_deform(r.slots, 1, &n)[2] == 0.0, "to set-up: no deform", 0);
}

/* a solver's weight keyed 0.25 -> 0.75, its bend stepped to -1 */
static void solver_keys(void) {
  rig r;
  static const double times[] = {0, 1}, weights[] = {0.25, 0.75}, bends[] = {-1, 1};
  ik2d_timeline_def t[2];
  ik2d_solver_def d;
  ik2d_clip *clip;
  rig_make(&r);
  t[0] = timeline(IK2D_CHANNEL_WEIGHT, 0, 2, times, weights);
  t[1] = timeline(IK2D_CHANNEL_BEND, 0, 2, times, bends);
  clip = clip_make(&r, t, 2);
  ik2d_clip_apply(clip, &r.targets, 0.5, 1.0);
  d = ik2d_solver_get_def(r.solver);
  near(0.5, d.weight, "weight halfway");
  check(d.two_bone.bend == -1, "bend stepped", d.two_bone.bend);
}

static void refusals(void) {
  rig r;
  static const double times[] = {1, 1}, values[] = {0, 0}, bad_at[] = {5};
  static const double one[] = {0}, nan_time[] = {0};
  ik2d_timeline_def t[2];
  ik2d_clip_def def;
  ik2d_clip *clip;
  int bad = -1;
  rig_make(&r);
  def.duration = 1;
  def.timelines = t;
  def.timeline_count = 2;
  t[0] = timeline(IK2D_CHANNEL_ROTATE, 0, 1, one, values);
  t[1] = timeline(IK2D_CHANNEL_ROTATE, 0, 2, times, values);
  clip = memory(4096);
  check(ik2d_clip_init(clip, 4096, &def, &r.targets, &bad) == IK2D_ERR_KEY_TIME && bad == 1,
        "keys at one time refused, naming the timeline", bad);
  t[1] = timeline(IK2D_CHANNEL_ATTACHMENT, 0, 1, one, bad_at);
  check(ik2d_clip_init(clip, 4096, &def, &r.targets, &bad) == IK2D_ERR_KEY_VALUE,
        "an attachment out of range refused", bad);
  t[1] = timeline(IK2D_CHANNEL_ROTATE, 7, 1, one, values);
  check(ik2d_clip_init(clip, 4096, &def, &r.targets, &bad) == IK2D_ERR_TIMELINE_TARGET,
        "a bone out of range refused", bad);
  def.timeline_count = 1;
  check(ik2d_clip_init(clip, 4096, &def, &r.targets, &bad) == IK2D_OK, "made", 0);
  check(ik2d_clip_apply(clip, &r.targets, NAN, 1) == IK2D_ERR_TIME, "a NaN time refused", 0);
  check(ik2d_clip_apply(clip, &r.targets, 0, 1.5) == IK2D_ERR_ALPHA, "alpha 1.5 refused", 0);
  (void)nan_time;
}

int main(void) {
  bone_keys();
  slot_keys();
  solver_keys();
  refusals();
  return failed;
}
