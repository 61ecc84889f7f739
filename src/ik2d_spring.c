/*
** ik2d_spring.c: secondary motion: the bones of a chain as a torsional
** spring chain (a shaft of discs), integrated exactly substep by substep.
**
** Bone i's state is its direction x_i (world, chain space) and angular
** velocity v_i.  Joint i is a spring between bone i and its parent (the
** base for bone 0) toward the target local angle p_i; it carries the
** bones from i to the tip, so its stiffness is k_i = stiffness * (n - i):
** every joint then bends alike under a load on every bone (gravity, a
** base spinning up), and the chain's slowest mode stays near one bone's,
** whatever its length.  With m the mass, c the damping, e_i = wrap(x_i -
** x_(i-1) - p_i) and d_i the bone's direction:
**
**   m x_i'' = -k_i e_i + k_(i+1) e_(i+1) - c x_i' + m (d_i x g) / L_i
**
** a damped spring chain plus a pendulum per bone (the last term: gravity
** at the bone's tip).  Joints act on both bones they join, so the system
** is passive: with fixed targets its energy, sum of m v^2 / 2 + k_i e_i^2
** / 2, never grows, and decays with c > 0 (a one-way chain, each bone
** chasing its parent, resonates: its tip whipped round and round).
**
** Over a substep of h seconds each bone sees its neighbours held (the
** parent where it is at the substep's middle, as it was just stepped, the
** child where its velocity takes it by then), and gravity linearised
** around the substep's start where it restores (less than 90 degrees
** from g: G cos is added to the stiffness) and held where it does not; so
** each bone solves
**
**   u'' + gamma u' + K u = F,   u(0) = 0, u'(0) = v
**
** exactly (u its turn within the substep).  The exact solution is stable
** for any h: it decays with gamma > 0 and never grows without a forcing
** that drives it.  Bones are stepped root to tip, each then turned into
** its limits: relative to where its parent went, or for a world-space
** limit its direction in chain space.
*/
#include <math.h>
#include <stddef.h>
#include <stdint.h>

#include "ik2d.h"
#include "ik2d_chain.h"
#include "ik2d_constraint.h"
#include "ik2d_math.h"
#include "ik2d_skeleton.h"
#include "ik2d_spring.h"

/* Substeps: at least SUBSTEP_RATE a second, at most MAX_SUBSTEPS an
** update, none longer than MAX_SUBSTEP seconds.  720 is a multiple of
** the usual frame rates (24, 30, 48, 60, 72, 90, 120, 144, 240, 360 Hz):
** at any of them a frame is whole substeps of 1/720 s, so a jolt gives
** the same motion to rounding. */
#define SPRING_SUBSTEP_RATE 720.0
#define SPRING_MAX_SUBSTEPS 64
#define SPRING_MAX_SUBSTEP 1.0
/* No bone turns faster (rad/s): half a turn per substep at the rate. */
#define SPRING_MAX_SPEED (SPRING_SUBSTEP_RATE * IK2D_PI)
/* Below this K h^2 the spring's pull over a substep is below 1e-8 of the
** forcing's: the substep is solved as free motion, where the oscillator's
** formula would cancel catastrophically. */
#define SPRING_FREE 1e-8

/* ------------------------------------------------------------------ */
/* storage                                                              */
/* ------------------------------------------------------------------ */

typedef struct spring_layout {
  size_t world, velocity, target, written, moving, size;
} spring_layout;

static spring_layout spring_layout_of(int n) {
  spring_layout l;
  size_t doubles = (size_t)n * sizeof(double);
  l.world = sizeof(ik2d_spring);
  l.velocity = l.world + doubles;
  l.target = l.velocity + doubles;
  l.written = l.target + doubles;
  l.moving = l.written + doubles;
  l.size = l.moving + (size_t)n * sizeof(bool);
  return l;
}

size_t ik2d_spring_size(int bone_count) {
  if (bone_count < 1 || bone_count > IK2D_MAX_BONES) return 0;
  return spring_layout_of(bone_count).size;
}

/* ------------------------------------------------------------------ */
/* settings                                                             */
/* ------------------------------------------------------------------ */

/* ik2d_default_spring_def: src/ik2d_api.c, from the description */

static ik2d_status spring_check_gravity(double x, double y) {
  if (!isfinite(x)) return IK2D_ERR_GRAVITY_X;
  if (!isfinite(y)) return IK2D_ERR_GRAVITY_Y;
  return IK2D_OK;
}

static ik2d_status spring_check_def(const ik2d_spring_def *def) {
  if (def == NULL) return IK2D_ERR_NULL;
  if (!isfinite(def->stiffness) || def->stiffness < 0.0) return IK2D_ERR_SPRING_STIFFNESS;
  if (!isfinite(def->damping) || def->damping < 0.0) return IK2D_ERR_SPRING_DAMPING;
  /* the motion depends on stiffness / mass and damping / mass */
  if (!isfinite(def->mass) || !(def->mass > 0.0) ||
      !isfinite(def->stiffness / def->mass) || !isfinite(def->damping / def->mass))
    return IK2D_ERR_SPRING_MASS;
  if (isnan(def->weight)) return IK2D_ERR_WEIGHT;
  return spring_check_gravity(def->gravity_x, def->gravity_y);
}

static void spring_keep_def(ik2d_spring *spring, const ik2d_spring_def *def) {
  spring->settings = *def;
  spring->settings.weight = ik2d_clamp_weight(def->weight);
}

/* ------------------------------------------------------------------ */
/* the result                                                           */
/* ------------------------------------------------------------------ */

/* A result angle that is not what the spring wrote was written by
** someone else (set_pose, a solve, reset): it is the bone's new target. */
static void spring_take_targets(ik2d_spring *spring) {
  const ik2d_chain *chain = spring->chain;
  int i;
  for (i = 0; i < chain->count; i++)
    if (chain->angle[i] != spring->written[i]) spring->target[i] = chain->angle[i];
}

/* Bone i into its limits: relative to where its parent is (parent, its
** velocity parent_v), or for a world-space limit its direction itself; a
** bone held by a limit stops turning away from it. */
static void spring_limit(ik2d_spring *spring, int i, double parent, double parent_v) {
  const ik2d_chain *chain = spring->chain;
  const ik2d_constraint *limit = chain->constraint[i];
  bool world;
  double frame, frame_v, delta, allowed, centred;
  if (limit == NULL || limit->full) return;
  world = limit->def.space == IK2D_SPACE_WORLD;
  frame = world ? 0.0 : parent;
  frame_v = world ? 0.0 : parent_v;
  delta = ik2d_wrap(spring->world[i] - frame) - chain->rest[i];
  allowed = ik2d_constraint_clamp(limit, delta);
  centred = limit->mid + ik2d_wrap(delta - limit->mid);
  if (allowed != centred) {
    double relative = spring->velocity[i] - frame_v;
    spring->world[i] = ik2d_wrap(frame + chain->rest[i] + allowed);
    if ((allowed > limit->mid && relative > 0.0) ||
        (allowed < limit->mid && relative < 0.0) || limit->half == 0.0)
      spring->velocity[i] = frame_v;
  }
}

/* Every bone into its limits, root to tip: the limits or the state may
** have changed since the last substep (a reset, limits edited). */
static void spring_limit_all(ik2d_spring *spring) {
  double parent = spring->chain->base_angle, parent_v = 0.0;
  int i;
  for (i = 0; i < spring->chain->count; i++) {
    spring_limit(spring, i, parent, parent_v);
    parent = spring->world[i];
    parent_v = spring->velocity[i];
  }
}

/* result = target + weight * turn(target -> spring's local angle), as a
** solve blends; then the joints. */
static void spring_write(ik2d_spring *spring) {
  ik2d_chain *chain = spring->chain;
  double weight = spring->settings.weight, parent = chain->base_angle;
  int i;
  for (i = 0; i < chain->count; i++) {
    double target = spring->target[i];
    double local = ik2d_wrap(spring->world[i] - parent);
    double turn = ik2d_constraint_turn(chain->constraint[i], chain->rest[i], target, local);
    chain->angle[i] = weight == 1.0 ? target + turn : target + weight * turn;
    spring->written[i] = chain->angle[i];
    parent = spring->world[i];
  }
  ik2d_chain_update_joints(chain);
  /* a skeleton chain's bones are the skeleton's: it follows */
  if (chain->link != NULL) ik2d_skeleton_chain_push(chain, true);
}

/* Every bone at rest on its target, the targets and the base still. */
static void spring_rest(ik2d_spring *spring) {
  const ik2d_chain *chain = spring->chain;
  double world = chain->base_angle;
  int i;
  for (i = 0; i < chain->count; i++) {
    world = ik2d_wrap(world + spring->target[i]);
    spring->world[i] = world;
    spring->velocity[i] = 0.0;
    spring->moving[i] = false;
  }
  spring->base = chain->base_angle;
  spring->base_moving = false;
}

/* ------------------------------------------------------------------ */
/* set-up                                                               */
/* ------------------------------------------------------------------ */

ik2d_status ik2d_spring_init(ik2d_spring *spring, size_t size, ik2d_chain *chain,
                             const ik2d_spring_def *def) {
  spring_layout l;
  char *memory = (char *)spring;
  ik2d_status status;
  int i;
  if (spring == NULL || chain == NULL) return IK2D_ERR_NULL;
  if ((uintptr_t)spring % sizeof(double) != 0) return IK2D_ERR_ALIGNMENT;
  if (chain->count < 1 || chain->count > IK2D_MAX_BONES) return IK2D_ERR_BONE_COUNT;
  l = spring_layout_of(chain->count);
  if (size < l.size) return IK2D_ERR_SIZE;
  status = spring_check_def(def);
  if (status != IK2D_OK) return status;
  spring->chain = chain;
  spring->world = (double *)(void *)(memory + l.world);
  spring->velocity = (double *)(void *)(memory + l.velocity);
  spring->target = (double *)(void *)(memory + l.target);
  spring->written = (double *)(void *)(memory + l.written);
  spring->moving = (bool *)(void *)(memory + l.moving);
  spring_keep_def(spring, def);
  for (i = 0; i < chain->count; i++)
    spring->target[i] = spring->written[i] = chain->angle[i];
  spring_rest(spring);
  return IK2D_OK;
}

ik2d_chain *ik2d_spring_chain(const ik2d_spring *spring) {
  return spring != NULL ? spring->chain : NULL;
}

ik2d_status ik2d_spring_set_def(ik2d_spring *spring, const ik2d_spring_def *def) {
  ik2d_status status;
  if (spring == NULL) return IK2D_ERR_NULL;
  status = spring_check_def(def);
  if (status == IK2D_OK) spring_keep_def(spring, def);
  return status;
}

ik2d_spring_def ik2d_spring_get_def(const ik2d_spring *spring) {
  return spring != NULL ? spring->settings : ik2d_default_spring_def();
}

ik2d_status ik2d_spring_set_weight(ik2d_spring *spring, double weight) {
  if (spring == NULL) return IK2D_ERR_NULL;
  if (isnan(weight)) return IK2D_ERR_WEIGHT;
  spring->settings.weight = ik2d_clamp_weight(weight);
  return IK2D_OK;
}

ik2d_status ik2d_spring_set_gravity(ik2d_spring *spring, double x, double y) {
  ik2d_status status;
  if (spring == NULL) return IK2D_ERR_NULL;
  status = spring_check_gravity(x, y);
  if (status != IK2D_OK) return status;
  spring->settings.gravity_x = x;
  spring->settings.gravity_y = y;
  return IK2D_OK;
}

ik2d_status ik2d_spring_velocity(const ik2d_spring *spring, int i, double *velocity) {
  if (spring == NULL || velocity == NULL) return IK2D_ERR_NULL;
  if (i < 0 || i >= spring->chain->count) return IK2D_ERR_INDEX;
  /* mirroring maps a direction phi to pi - phi: the turn reverses */
  *velocity = spring->chain->flip ? -spring->velocity[i] : spring->velocity[i];
  return IK2D_OK;
}

void ik2d_spring_reset(ik2d_spring *spring) {
  if (spring == NULL) return;
  spring_take_targets(spring);
  spring_rest(spring);
  spring_limit_all(spring);
  spring_write(spring);
}

/* ------------------------------------------------------------------ */
/* the motion                                                           */
/* ------------------------------------------------------------------ */

/* u'' + gamma u' + k u = f for h seconds from u = 0, u' = *v, solved
** exactly: returns u(h) and leaves u'(h) in *v.  k, gamma >= 0, h > 0
** and finite.  With E the response to a unit start velocity, P its
** velocity and I its integral (the response to a unit forcing):
** u = v E + f I, u' = v P + f E. */
static double spring_step(double k, double gamma, double f, double h, double *v) {
  double v0 = *v, a = 0.5 * gamma, e, p, integral;
  if (k * h * h > SPRING_FREE) {
    /* e^(-a h) times C = cos(w h) or cosh(r h), and times S = sin(w h) / w
    ** or sinh(r h) / r, with w^2 = -r^2 = k - a^2; one_minus_c is 1 -
    ** e^(-a h) C without cancellation */
    double q = k - a * a, c, one_minus_c;
    if (q > 0.0) {
      double w = sqrt(q), decay = ik2d_exp(-a * h), half = ik2d_sin(0.5 * w * h);
      ik2d_rot turn = ik2d_rot_angle(w * h);
      c = decay * turn.c;
      e = decay * turn.s / w;
      one_minus_c = -ik2d_expm1(-a * h) + decay * 2.0 * half * half;
    } else if (q < 0.0) {
      /* the roots -a +- r, the small one without cancellation */
      double r = sqrt(-q), slow = -k / (a + r), fast = -(a + r);
      double e_slow = ik2d_exp(slow * h), e_fast = ik2d_exp(fast * h);
      c = 0.5 * (e_slow + e_fast);
      e = 2.0 * r * h < 1.0 ? e_fast * ik2d_expm1(2.0 * r * h) / (2.0 * r)
                            : (e_slow - e_fast) / (2.0 * r);
      one_minus_c = -0.5 * (ik2d_expm1(slow * h) + ik2d_expm1(fast * h));
    } else {
      c = ik2d_exp(-a * h);
      e = c * h;
      one_minus_c = -ik2d_expm1(-a * h);
    }
    p = c - a * e;
    /* P' = -gamma P - k E, so k I = 1 - P - gamma E = 1 - C - a E */
    integral = (one_minus_c - a * e) / k;
  } else if (gamma * h > 1e-4) {
    /* free: E = (1 - e^(-gamma h)) / gamma, I = (h - E) / gamma */
    e = -ik2d_expm1(-gamma * h) / gamma;
    p = ik2d_exp(-gamma * h);
    integral = (h - e) / gamma;
  } else {
    /* free and all but undamped: the series, to (gamma h)^2 */
    double g = gamma * h;
    e = h * (1.0 - g * (0.5 - g / 6.0));
    p = 1.0 - g * (1.0 - 0.5 * g);
    integral = h * h * (0.5 - g * (1.0 / 6.0 - g / 24.0));
  }
  *v = v0 * p + f * e;
  return v0 * e + f * integral;
}

/* What drives an update: gravity in chain space, and each target and
** the base angle over the frame, at s in [0, 1] from + s * turn.  A
** value that changes frame after frame is taken as moving linearly
** between its samples; one that changes after a frame without change as
** a step at the frame's start (turn 0), so a jolt starts at the same
** time at any frame rate, and so does a steady motion. */
typedef struct spring_inputs {
  double gx, gy;
  double base_from, base_turn;
  double from[IK2D_MAX_BONES], turn[IK2D_MAX_BONES];
} spring_inputs;

/* Reads the inputs of an update and notes which of them are moving. */
static void spring_inputs_of(ik2d_spring *spring, spring_inputs *in) {
  const ik2d_chain *chain = spring->chain;
  double base = chain->base_angle;
  int i;
  in->gx = chain->flip ? -spring->settings.gravity_x : spring->settings.gravity_x;
  in->gy = spring->settings.gravity_y;
  for (i = 0; i < chain->count; i++) {
    double before = spring->target[i];
    in->from[i] = spring->target[i];
    in->turn[i] = 0.0;
    if (chain->angle[i] != spring->written[i]) spring->target[i] = chain->angle[i];
    if (spring->moving[i]) {
      in->turn[i] = ik2d_wrap(spring->target[i] - before);
    } else {
      in->from[i] = spring->target[i];
    }
    spring->moving[i] = spring->target[i] != before;
  }
  in->base_from = spring->base_moving ? spring->base : base;
  in->base_turn = spring->base_moving ? ik2d_wrap(base - spring->base) : 0.0;
  spring->base_moving = base != spring->base;
  spring->base = base;
}

/* One substep of h seconds, from s0 to s1 of the frame, every bone root
** to tip. */
static void spring_substep(ik2d_spring *spring, const spring_inputs *in, double h,
                           double s0, double s1) {
  const ik2d_chain *chain = spring->chain;
  double w2 = spring->settings.stiffness / spring->settings.mass;
  double gamma = spring->settings.damping / spring->settings.mass;
  double gx = in->gx, gy = in->gy;
  bool gravity = gx != 0.0 || gy != 0.0;
  /* the parent's direction at the substep's middle and end, its velocity */
  double s = 0.5 * s0 + 0.5 * s1, parent_mid = in->base_from + s * in->base_turn;
  double parent_to = in->base_from + s1 * in->base_turn, parent_v = 0.0;
  int i;
  for (i = 0; i < chain->count; i++) {
    double x0 = spring->world[i], v = spring->velocity[i], x;
    double phi = parent_mid + in->from[i] + s * in->turn[i];
    /* joint i carries the bones from i to the tip: its spring is w2 times
    ** their count, so every joint bends alike under a load on every bone */
    double carried = (double)(chain->count - i);
    double k = w2 * carried, f = -k * ik2d_wrap(x0 - phi);
    if (i + 1 < chain->count) {
      /* the child's joint pulls back: its turn from its own target, the
      ** child held where it is at the substep's middle */
      double child = spring->world[i + 1] + 0.5 * h * spring->velocity[i + 1];
      double k_child = w2 * (carried - 1.0);
      k += k_child;
      f += k_child * ik2d_wrap(child - x0 - (in->from[i + 1] + s * in->turn[i + 1]));
    }
    if (gravity) {
      /* G cos and G sin of the angle from the bone to g, G = |g| / L */
      ik2d_rot at = ik2d_rot_angle(x0);
      double c = at.c, sn = at.s, length = chain->length[i];
      double along = (gx * c + gy * sn) / length, across = (gy * c - gx * sn) / length;
      f += across;
      if (along > 0.0) k += along;
    }
    x = ik2d_wrap(x0 + spring_step(k, gamma, f, h, &v));
    if (v > SPRING_MAX_SPEED) v = SPRING_MAX_SPEED;
    if (v < -SPRING_MAX_SPEED) v = -SPRING_MAX_SPEED;
    if (!isfinite(x) || !isfinite(v)) {
      /* a step doubles cannot hold (a denormal bone under gravity, a
      ** stiffness near the largest double): the bone rests on its target */
      x = ik2d_wrap(phi);
      v = 0.0;
    }
    spring->world[i] = x;
    spring->velocity[i] = v;
    spring_limit(spring, i, parent_to, parent_v);
    x = spring->world[i];
    v = spring->velocity[i];
    parent_mid = x0 + 0.5 * ik2d_wrap(x - x0);
    parent_to = x;
    parent_v = v;
  }
}

ik2d_status ik2d_spring_update(ik2d_spring *spring, double dt) {
  spring_inputs in;
  double steps, h;
  int n, k;
  if (spring == NULL) return IK2D_ERR_NULL;
  if (isnan(dt) || dt < 0.0) return IK2D_ERR_DT;
  spring_inputs_of(spring, &in);
  if (dt > 0.0) {
    /* 1/60 s is 12 substeps, not 13 for the rounding of dt * 720 */
    steps = dt * SPRING_SUBSTEP_RATE;
    n = steps <= 1.0 ? 1
      : steps >= SPRING_MAX_SUBSTEPS ? SPRING_MAX_SUBSTEPS : (int)ceil(steps - 1e-9);
    h = dt / n;
    if (h > SPRING_MAX_SUBSTEP) h = SPRING_MAX_SUBSTEP;
    for (k = 0; k < n; k++) spring_substep(spring, &in, h, (double)k / n, (k + 1.0) / n);
  }
  spring_limit_all(spring);
  spring_write(spring);
  return IK2D_OK;
}
