/*
** ik2d_spring.c: secondary motion: the bones of a chain as a torsional
** spring chain (a shaft of discs) that feels gravity, the base's motion
** and the air, integrated substep by substep.
**
** Bone i's state is its direction x_i (world, chain space) and angular
** velocity v_i.  Joint i is a spring between bone i and its parent (the
** base for bone 0) toward the neutral local angle p_i; it carries the
** bones from i to the tip, so its stiffness is k_i = s_i (n - i), s_i
** bone i's stiffness: every joint then bends alike under a load on every
** bone (gravity, a base spinning up), and the chain's slowest mode stays
** near one bone's, whatever its length.  With m_i its mass, c_i its
** damping, e_i = wrap(x_i - x_(i-1) - p_i), d_i the bone's direction and
** L_i its length:
**
**   m_i x_i'' = -k_i e_i + k_(i+1) e_(i+1) - c_i x_i' + m_i (d_i x G_i) / L_i
**   G_i = g - A + gamma_i (W - V),   gamma_i = c_i / m_i
**
** a damped spring chain plus a pendulum per bone in the field G_i at its
** tip.  In the frame of the base, which moves at V and accelerates at A,
** every mass feels -A besides gravity g.  Damping is the air's drag on
** the tip, -c' (u - W) along its path, u = V + L x' t (t = d turned a
** quarter turn): its torque, with c = c' L^2, is -c x' - c (d x (V - W))
** / L, the damping and the drag of the air moving past the base (the
** wind W, the base's own motion).  Joints act on both bones they join,
** so the system is passive: with fixed neutral angles and field its
** energy, sum of m v^2 / 2 + k_i e_i^2 / 2, never grows, and decays with
** c > 0 (a one-way chain, each bone chasing its parent, resonates: its
** tip whipped round and round).
**
** The base's motion.  Its position moves linearly between the samples
** the updates see (as a neutral angle that changes frame after frame),
** so V is constant over a frame, (p - p_last) / dt, and A is an impulse at each
** frame's start where V jumps by dV: every bone's tip keeps its world
** velocity while its pivot's jumps, so v_i jumps by -(d_i x dV) / L_i.  A
** smooth path so gives the same motion at any frame rate, to the
** sampling's O((w dt)^2).  An update with dt = 0 takes the base's new
** position as a teleport (V kept), as it takes a neutral angle's change
** as a jump.
**
** Two integrators, chosen per update by Lambda h^2 (h the substep),
** Lambda = max over bones of (its joints' springs + its field's pull |G_i|
** / L_i over its mass, each spring counted twice: Gershgorin's bound on
** the fastest rate squared):
**
** - Up to SPRING_STIFF, each bone's oscillator exactly.  Over a substep each
**   bone sees its neighbours held (the parent where it is at the
**   substep's middle, as it was just stepped, the child where its
**   velocity takes it by then), and the field linearised around the
**   substep's start where it restores (less than 90 degrees from G_i: G
**   cos is added to the stiffness) and held where it does not; so each
**   bone solves u'' + gamma u' + K u = F, u(0) = 0, u'(0) = v exactly (u
**   its turn within the substep).  One bone is exact at any h; with
**   the neighbours held explicit a chain with no damping at all swings
**   up by at most 1.3e-4 of its amplitude a substep there (measured on
**   chains of 2 to 64 bones, even and uneven), which a damping / mass
**   of 0.2 / s outweighs at 720 substeps a second.
** - Above (a long frame: 64 substeps of up to 1 s; or a spring so stiff
**   that 1/720 s is long), where held neighbours would swing the chain
**   up without bound, the chain at once by backward Euler:
**   (M + h C + h^2 K) v' = M v + h F(x), x' = x + h v', K the joints'
**   springs and the field's pull (its slope where it restores, else its
**   secant sin(delta) / delta toward G).  Its matrix is tridiagonal and
**   diagonally dominant (solved without pivoting); the step never adds
**   energy at any h, and as h grows it lands on the equilibrium at rest,
**   so a frame of 100 s or of inf ends with the bones at rest.  A bone a
**   collider or limit then moves is held where it was put and the step
**   solved again, so its neighbours do not swing about it.
**
** Bones are then taken root to tip, each out of the colliders (a circle
** no joint enters: the directions in which the tip would be inside; a
** segment no bone crosses: those in which the bone's ray meets it; the
** bone back to the end of those directions it came in by, its turning
** into them stopped; all colliders together, spring_collide), then into
** its limits (which win over a collider): relative to where its parent
** went, or for a world-space limit its direction in chain space.
*/
#include <math.h>
#include <stddef.h>
#include <stdint.h>

#include "ik2d.h"
#include "ik2d_chain.h"
#include "ik2d_checks.h"
#include "ik2d_constraint.h"
#include "ik2d_math.h"
#include "ik2d_numbers.h"
#include "ik2d_skeleton.h"
#include "ik2d_spring.h"

/* The thresholds (substeps, free motion, backward Euler, a base's speed):
** src/ik2d_numbers.h.  No bone turns faster (rad/s): half a turn per
** substep at the rate. */
#define SPRING_MAX_SPEED (IK2D_SPRING_SUBSTEP_RATE * IK2D_PI)

/* ------------------------------------------------------------------ */
/* storage                                                              */
/* ------------------------------------------------------------------ */

typedef struct spring_layout {
  size_t world, velocity, neutral, written, stiffness, damping, mass, moving, size;
} spring_layout;

static spring_layout spring_layout_of(int n) {
  spring_layout l;
  size_t doubles = (size_t)n * sizeof(double);
  l.world = sizeof(ik2d_spring);
  l.velocity = l.world + doubles;
  l.neutral = l.velocity + doubles;
  l.written = l.neutral + doubles;
  l.stiffness = l.written + doubles;
  l.damping = l.stiffness + doubles;
  l.mass = l.damping + doubles;
  l.moving = l.mass + doubles;
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

/* bone i's value of a setting: its entry of the per-bone array, or the
** number */
static double spring_of_bone(double value, const double *per_bone, int i) {
  return per_bone != NULL ? per_bone[i] : value;
}

/* The motion depends on stiffness / mass and damping / mass: a bone's
** and its child's stiffness over its mass, and its damping over it. */
static bool mass_ratios_finite(const ik2d_spring_def *def, int bone_count) {
  int i;
  for (i = 0; i < bone_count; i++) {
    double mass = spring_of_bone(def->mass, def->mass_per_bone, i);
    double s = spring_of_bone(def->stiffness, def->stiffness_per_bone, i);
    double c = spring_of_bone(def->damping, def->damping_per_bone, i);
    if (!isfinite(s / mass) || !isfinite(c / mass)) return false;
    if (i + 1 < bone_count &&
        !isfinite(spring_of_bone(def->stiffness, def->stiffness_per_bone, i + 1) / mass))
      return false;
  }
  return true;
}

/* generated from lua/ik2d/api.lua by make gen: spring check */
/* ik2d_spring_def's check as lua/ik2d/api.lua describes it: each field's,
** each rule, in its order; the first refused is the status. bone_count: the
** chain's bones. */
static ik2d_status spring_def_check(const ik2d_spring_def *def, int bone_count) {
  ik2d_status status;
  int i;
  if (def == NULL) return IK2D_ERR_NULL;
  for (i = 0; i < bone_count; i++) {
    double stiffness =
        def->stiffness_per_bone != NULL ? def->stiffness_per_bone[i] : def->stiffness;
    if ((status = ik2d__spring_check_stiffness(stiffness)) != IK2D_OK) return status;
  }
  for (i = 0; i < bone_count; i++) {
    double damping =
        def->damping_per_bone != NULL ? def->damping_per_bone[i] : def->damping;
    if ((status = ik2d__spring_check_damping(damping)) != IK2D_OK) return status;
  }
  for (i = 0; i < bone_count; i++) {
    double mass = def->mass_per_bone != NULL ? def->mass_per_bone[i] : def->mass;
    if ((status = ik2d__spring_check_mass(mass)) != IK2D_OK) return status;
  }
  if (!mass_ratios_finite(def, bone_count)) return IK2D_ERR_SPRING_MASS;
  if ((status = ik2d__spring_check_weight(def->weight)) != IK2D_OK) return status;
  if ((status = ik2d__spring_check_gravity_x(def->gravity_x)) != IK2D_OK) return status;
  if ((status = ik2d__spring_check_gravity_y(def->gravity_y)) != IK2D_OK) return status;
  if ((status = ik2d__spring_check_wind_x(def->wind_x)) != IK2D_OK) return status;
  if ((status = ik2d__spring_check_wind_y(def->wind_y)) != IK2D_OK) return status;
  return IK2D_OK;
}
/* end generated */

/* The settings, each per-bone array into the spring's own (a def that
** came from the spring holds those: copied onto themselves). */
static void spring_keep_def(ik2d_spring *spring, const ik2d_spring_def *def) {
  int i, n = spring->chain->count;
  for (i = 0; i < n; i++) {
    spring->stiffness[i] = spring_of_bone(def->stiffness, def->stiffness_per_bone, i);
    spring->damping[i] = spring_of_bone(def->damping, def->damping_per_bone, i);
    spring->mass[i] = spring_of_bone(def->mass, def->mass_per_bone, i);
  }
  spring->settings = *def;
  spring->settings.weight = ik2d_clamp_weight(def->weight);
  spring->settings.stiffness_per_bone = def->stiffness_per_bone != NULL ? spring->stiffness : NULL;
  spring->settings.damping_per_bone = def->damping_per_bone != NULL ? spring->damping : NULL;
  spring->settings.mass_per_bone = def->mass_per_bone != NULL ? spring->mass : NULL;
}

/* ------------------------------------------------------------------ */
/* the result                                                           */
/* ------------------------------------------------------------------ */

/* A result angle that is not what the spring wrote was written by
** someone else (set_pose, a solve, reset): it is the bone's new neutral
** angle. */
static void spring_take_neutral(ik2d_spring *spring) {
  const ik2d_chain *chain = spring->chain;
  int i;
  for (i = 0; i < chain->count; i++)
    if (chain->angle[i] != spring->written[i]) spring->neutral[i] = chain->angle[i];
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

/* result = neutral + weight * turn(neutral -> spring's local angle), as a
** solve blends; then the joints. */
static void spring_write(ik2d_spring *spring) {
  ik2d_chain *chain = spring->chain;
  double weight = spring->settings.weight, parent = chain->base_angle;
  int i;
  for (i = 0; i < chain->count; i++) {
    double neutral = spring->neutral[i];
    double local = ik2d_wrap(spring->world[i] - parent);
    double turn = ik2d__constraint_turn(chain->constraint[i], chain->rest[i], neutral, local);
    chain->angle[i] = weight == 1.0 ? neutral + turn : neutral + weight * turn;
    spring->written[i] = chain->angle[i];
    parent = spring->world[i];
  }
  ik2d__chain_update_joints(chain);
  /* a skeleton chain's bones are the skeleton's: it follows */
  if (chain->link != NULL) ik2d__skeleton_chain_push(chain, true);
}

/* Every bone at rest at its neutral angle, the neutral angles and the
** base still. */
static void spring_rest(ik2d_spring *spring) {
  const ik2d_chain *chain = spring->chain;
  double world = chain->base_angle;
  int i;
  for (i = 0; i < chain->count; i++) {
    world = ik2d_wrap(world + spring->neutral[i]);
    spring->world[i] = world;
    spring->velocity[i] = 0.0;
    spring->moving[i] = false;
  }
  spring->base = chain->base_angle;
  spring->base_moving = false;
  spring->base_x = chain->base_x;
  spring->base_y = chain->base_y;
  spring->base_vx = 0.0;
  spring->base_vy = 0.0;
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
  status = spring_def_check(def, chain->count);
  if (status != IK2D_OK) return status;
  spring->chain = chain;
  spring->world = (double *)(void *)(memory + l.world);
  spring->velocity = (double *)(void *)(memory + l.velocity);
  spring->neutral = (double *)(void *)(memory + l.neutral);
  spring->written = (double *)(void *)(memory + l.written);
  spring->stiffness = (double *)(void *)(memory + l.stiffness);
  spring->damping = (double *)(void *)(memory + l.damping);
  spring->mass = (double *)(void *)(memory + l.mass);
  spring->moving = (bool *)(void *)(memory + l.moving);
  spring->collider_count = 0;
  spring_keep_def(spring, def);
  for (i = 0; i < chain->count; i++)
    spring->neutral[i] = spring->written[i] = chain->angle[i];
  spring_rest(spring);
  return IK2D_OK;
}

ik2d_chain *ik2d_spring_chain(const ik2d_spring *spring) {
  return spring != NULL ? spring->chain : NULL;
}

ik2d_status ik2d_spring_set_def(ik2d_spring *spring, const ik2d_spring_def *def) {
  ik2d_status status;
  if (spring == NULL) return IK2D_ERR_NULL;
  status = spring_def_check(def, spring->chain->count);
  if (status == IK2D_OK) spring_keep_def(spring, def);
  return status;
}

ik2d_spring_def ik2d_spring_get_def(const ik2d_spring *spring) {
  return spring != NULL ? spring->settings : ik2d_default_spring_def();
}

/* generated from lua/ik2d/api.lua by make gen: spring setters */
/* A setter checks a copy of the settings with the new values: the checks of
** those fields and the rules that read them, in spring_def_check's order;
** then keeps it as a whole def is kept. A switch turned off needs no check. */

ik2d_status ik2d_spring_set_gravity(ik2d_spring *spring, double gravity_x,
                                    double gravity_y) {
  ik2d_spring_def def;
  ik2d_status status;
  if (spring == NULL) return IK2D_ERR_NULL;
  def = spring->settings;
  def.gravity_x = gravity_x;
  def.gravity_y = gravity_y;
  if ((status = ik2d__spring_check_gravity_x(def.gravity_x)) != IK2D_OK) return status;
  if ((status = ik2d__spring_check_gravity_y(def.gravity_y)) != IK2D_OK) return status;
  spring_keep_def(spring, &def);
  return IK2D_OK;
}

ik2d_status ik2d_spring_set_wind(ik2d_spring *spring, double wind_x, double wind_y) {
  ik2d_spring_def def;
  ik2d_status status;
  if (spring == NULL) return IK2D_ERR_NULL;
  def = spring->settings;
  def.wind_x = wind_x;
  def.wind_y = wind_y;
  if ((status = ik2d__spring_check_wind_x(def.wind_x)) != IK2D_OK) return status;
  if ((status = ik2d__spring_check_wind_y(def.wind_y)) != IK2D_OK) return status;
  spring_keep_def(spring, &def);
  return IK2D_OK;
}

ik2d_status ik2d_spring_set_weight(ik2d_spring *spring, double weight) {
  ik2d_spring_def def;
  ik2d_status status;
  if (spring == NULL) return IK2D_ERR_NULL;
  def = spring->settings;
  def.weight = weight;
  if ((status = ik2d__spring_check_weight(def.weight)) != IK2D_OK) return status;
  spring_keep_def(spring, &def);
  return IK2D_OK;
}
/* end generated */

ik2d_status ik2d_spring_velocity(const ik2d_spring *spring, int i, double *velocity) {
  if (spring == NULL || velocity == NULL) return IK2D_ERR_NULL;
  if (i < 0 || i >= spring->chain->count) return IK2D_ERR_INDEX;
  /* mirroring maps a direction phi to pi - phi: the turn reverses */
  *velocity = spring->chain->flip ? -spring->velocity[i] : spring->velocity[i];
  return IK2D_OK;
}

void ik2d_spring_reset(ik2d_spring *spring) {
  if (spring == NULL) return;
  spring_take_neutral(spring);
  spring_rest(spring);
  spring_limit_all(spring);
  spring_write(spring);
}

/* ------------------------------------------------------------------ */
/* colliders                                                            */
/* ------------------------------------------------------------------ */

/* generated from lua/ik2d/api.lua by make gen: collider check */
/* ik2d_collider's check as lua/ik2d/api.lua describes it: each field's, each
** rule, in its order; the first refused is the status. */
ik2d_status ik2d_collider_check(const ik2d_collider *def) {
  ik2d_status status;
  if (def == NULL) return IK2D_ERR_NULL;
  if ((status = ik2d__collider_check_shape(def->shape)) != IK2D_OK) return status;
  if (def->shape == IK2D_CIRCLE) {
    if ((status = ik2d__collider_check_x(def->x)) != IK2D_OK) return status;
    if ((status = ik2d__collider_check_y(def->y)) != IK2D_OK) return status;
    if ((status = ik2d__collider_check_radius(def->radius)) != IK2D_OK) return status;
  }
  if (def->shape == IK2D_SEGMENT) {
    if ((status = ik2d__collider_check_x1(def->x1)) != IK2D_OK) return status;
    if ((status = ik2d__collider_check_y1(def->y1)) != IK2D_OK) return status;
    if ((status = ik2d__collider_check_x2(def->x2)) != IK2D_OK) return status;
    if ((status = ik2d__collider_check_y2(def->y2)) != IK2D_OK) return status;
  }
  return IK2D_OK;
}
/* end generated */

ik2d_status ik2d_spring_set_colliders(ik2d_spring *spring, const ik2d_collider *colliders,
                                      int count) {
  int k;
  if (spring == NULL || (colliders == NULL && count > 0)) return IK2D_ERR_NULL;
  if (count < 0 || count > IK2D_MAX_COLLIDERS) return IK2D_ERR_COLLIDERS;
  for (k = 0; k < count; k++) {
    ik2d_status status = ik2d_collider_check(&colliders[k]);
    if (status != IK2D_OK) return status;
  }
  for (k = 0; k < count; k++) spring->colliders[k] = colliders[k];
  spring->collider_count = count;
  return IK2D_OK;
}

int ik2d_spring_colliders(const ik2d_spring *spring, ik2d_collider *colliders, int max) {
  int k;
  if (spring == NULL) return 0;
  for (k = 0; k < spring->collider_count && k < max && colliders != NULL; k++)
    colliders[k] = spring->colliders[k];
  return spring->collider_count;
}

/* The segments' sides along the chain (spring_line_side). */
typedef struct spring_sides {
  double side[IK2D_MAX_COLLIDERS];
} spring_sides;

/* Bone i, its direction (x0 at the substep's start) and velocity, against
** the forbidden directions psi + (lo, hi): a bone found inside goes back
** to the end it came in by (the nearer end if it started inside: its
** pivot moved), and one that passed right through stops at the end it
** met; turning into the collider stops.  With a way (+1 or -1, not 0),
** a bone found inside goes on that way, to the end there (another
** collider pushed it in: spring_collide). */
static void spring_push_out(ik2d_spring *spring, int i, double x0, double psi, double lo,
                            double hi, int way) {
  double x = spring->world[i], v;
  double delta = ik2d_wrap(x - psi), delta0 = ik2d_wrap(x0 - psi);
  bool start_inside = lo < delta0 && delta0 < hi, found = false;
  double edge = lo;
  if (way != 0) {
    if (!(lo < delta && delta < hi)) return;
    found = true;
    edge = way > 0 ? hi : lo;
  } else if (lo < delta && delta < hi) {
    found = true;
    if (start_inside) edge = delta - lo <= hi - delta ? lo : hi;
    else edge = ik2d_wrap(x - x0) > 0.0 ? lo : hi;
  } else if (!start_inside) {
    /* through it within the substep: the arc from delta0 crosses an end */
    double turned = ik2d_wrap(x - x0), to = delta0 + turned;
    if (turned > 0.0 && ((lo > delta0 && lo < to) ||
                         (lo + IK2D_TWO_PI > delta0 && lo + IK2D_TWO_PI < to))) {
      found = true;
      edge = lo;
    } else if (turned < 0.0 && ((hi < delta0 && hi > to) ||
                                (hi - IK2D_TWO_PI < delta0 && hi - IK2D_TWO_PI > to))) {
      found = true;
      edge = hi;
    }
  }
  if (!found) return;
  spring->world[i] = ik2d_wrap(psi + edge);
  v = spring->velocity[i];
  if ((edge == lo && v > 0.0) || (edge == hi && v < 0.0)) spring->velocity[i] = 0.0;
}

/* The directions in which bone i (pivot px, py, length l) would put its
** tip inside a circle (centre cx, cy in chain space): psi +- beta, from
** |tip - centre|^2 = l^2 + D^2 - 2 l D cos(x - psi) < R^2. */
static void spring_circle(ik2d_spring *spring, int i, double x0, double px, double py,
                          double l, double cx, double cy, double radius, int way) {
  double dx = cx - px, dy = cy - py, d, beta = IK2D_PI;
  /* out of reach on either axis: no need of D */
  if (fabs(dx) - radius >= l || fabs(dy) - radius >= l) return;
  d = ik2d_hypot(dx, dy);
  /* the tip's distance from the centre ranges over [|l - D|, l + D] */
  if (!(fabs(l - d) < radius)) return;
  if (l + d > radius) {
    double kappa = 0.5 * (l / d + d / l - (radius / l) * (radius / d));
    if (!(kappa < 1.0)) return;
    if (kappa > -1.0) beta = ik2d_acos(kappa);
  }
  spring_push_out(spring, i, x0, ik2d_atan2(dy, dx), -beta, beta, way);
}

/* The line of segment (ax, ay)-(bx, by) seen from (px, py): the signed
** distance (positive to the left of a to b, chain space) into *signed and
** the unit normal to the left into *nx, *ny; false for a segment of no
** length.  The side of collider k kept in sides: the point's, or while
** the point lies on the line (rounding moves a joint off it by far less
** than the tolerance) the last one's along the chain. */
static bool spring_line_side(spring_sides *sides, int k, double px, double py, double ax,
                             double ay, double bx, double by, double *signed_distance,
                             double *nx, double *ny) {
  double sx = bx - ax, sy = by - ay, length = ik2d_hypot(sx, sy), tolerance;
  if (!(length > 0.0 && isfinite(length))) return false;
  *nx = -sy / length;
  *ny = sx / length;
  *signed_distance = (px - ax) * *nx + (py - ay) * *ny;
  tolerance = IK2D_SPRING_ON_LINE * (fabs(px) + fabs(py) + fabs(ax) + fabs(ay) + length);
  if (*signed_distance > tolerance) sides->side[k] = 1.0;
  else if (*signed_distance < -tolerance) sides->side[k] = -1.0;
  return true;
}

/* The directions in which bone i would cross segment (ax, ay)-(bx, by):
** from the pivot's side, those whose ray meets the segment within l:
** toward the line (n, at distance d), |x - psi| < acos(d / l), and
** between the directions of the two ends. */
static void spring_segment(ik2d_spring *spring, spring_sides *sides, int i, double x0,
                           double px, double py, double l, double ax, double ay, double bx,
                           double by, int k, int way) {
  double signed_distance, nx, ny, side, d, a1x, a1y, a2x, a2y, a1, a2, beta, lo, hi;
  bool line;
  /* out of reach of the segment's box: no side needed either (a pivot on
  ** the line has its parent within reach) */
  if (px + l < (ax < bx ? ax : bx) || px - l > (ax < bx ? bx : ax) ||
      py + l < (ay < by ? ay : by) || py - l > (ay < by ? by : ay))
    return;
  line = spring_line_side(sides, k, px, py, ax, ay, bx, by, &signed_distance, &nx, &ny);
  side = sides->side[k];
  if (!line || side == 0.0) return;
  d = side * signed_distance;
  if (d < 0.0) d = 0.0;
  if (!(d < l)) return;
  /* n toward the line; each end's direction from it */
  nx = -side * nx;
  ny = -side * ny;
  a1x = ax - px;
  a1y = ay - py;
  a2x = bx - px;
  a2y = by - py;
  a1 = ik2d_atan2(a1y * nx - a1x * ny, a1x * nx + a1y * ny);
  a2 = ik2d_atan2(a2y * nx - a2x * ny, a2x * nx + a2y * ny);
  beta = ik2d_acos(d / l);
  lo = a2 < a1 ? a2 : a1;
  hi = a2 < a1 ? a1 : a2;
  if (lo < -beta) lo = -beta;
  if (hi > beta) hi = beta;
  if (lo < hi) spring_push_out(spring, i, x0, ik2d_atan2(ny, nx), lo, hi, way);
}

/* Every collider on bone i whose pivot is (px, py), colliders in chain
** space (mirrored about the base's x, mirror / 2, when the chain is
** flipped), once, pushing out as spring_push_out does with way. */
static void spring_collide_once(ik2d_spring *spring, spring_sides *sides, int i, double x0,
                                double px, double py, double mirror, int way) {
  const ik2d_chain *chain = spring->chain;
  double l = chain->length[i] * chain->scale;
  int k;
  for (k = 0; k < spring->collider_count; k++) {
    const ik2d_collider *c = &spring->colliders[k];
    if (c->shape == IK2D_CIRCLE) {
      spring_circle(spring, i, x0, px, py, l, chain->flip ? mirror - c->x : c->x, c->y,
                    c->radius, way);
    } else {
      double ax = chain->flip ? mirror - c->x1 : c->x1, bx = chain->flip ? mirror - c->x2 : c->x2;
      spring_segment(spring, sides, i, x0, px, py, l, ax, c->y1, bx, c->y2, k, way);
    }
  }
}

/* The colliders together: one pushing bone i out may push it into
** another (a circle overlapping a segment, circles side by side).  Taken
** once, the way the bone went then (back the way it came, as a rule) is
** kept: each collider the bone is then found in pushes it on that way,
** until none holds it (the edge of their union; as many passes as
** colliders at most, should their union be every direction). */
static void spring_collide(ik2d_spring *spring, spring_sides *sides, int i, double x0,
                           double px, double py, double mirror) {
  double start = spring->world[i], turned;
  int pass, way;
  spring_collide_once(spring, sides, i, x0, px, py, mirror, 0);
  turned = ik2d_wrap(spring->world[i] - start);
  if (turned == 0.0) return;
  way = turned > 0.0 ? 1 : -1;
  for (pass = 0; pass < spring->collider_count; pass++) {
    double before = spring->world[i];
    spring_collide_once(spring, sides, i, x0, px, py, mirror, way);
    if (spring->world[i] == before) return;
  }
}

/* The side of each segment the chain's base (px, py) is on, 0 on its
** line. */
static void spring_base_sides(const ik2d_spring *spring, spring_sides *sides, double px,
                              double py, double mirror) {
  const ik2d_chain *chain = spring->chain;
  int k;
  for (k = 0; k < spring->collider_count; k++) {
    const ik2d_collider *c = &spring->colliders[k];
    sides->side[k] = 0.0;
    if (c->shape == IK2D_SEGMENT) {
      double signed_distance, nx, ny;
      double ax = chain->flip ? mirror - c->x1 : c->x1, bx = chain->flip ? mirror - c->x2 : c->x2;
      (void)spring_line_side(sides, k, px, py, ax, c->y1, bx, c->y2, &signed_distance, &nx, &ny);
    }
  }
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
  if (k * h * h > IK2D_SPRING_FREE) {
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
  } else if (gamma * h > IK2D_SPRING_SERIES) {
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

/* What drives an update: gravity in chain space, each neutral angle and the
** base angle over the frame, at s in [0, 1] from + s * turn, the base's
** position over it (x0 + s * dx), the air's velocity past the base and
** the jump of the base's velocity at the frame's start (chain space).
** A value that changes frame after frame is taken as moving linearly
** between its samples; an angle that changes after a frame without
** change as a step at the frame's start (turn 0), so a jolt starts at
** the same time at any frame rate, and so does a steady motion.  And
** each bone's coefficients: its spring and its child's over its mass,
** its damping over its mass, the field it feels. */
typedef struct spring_inputs {
  double gx, gy;
  double base_from, base_turn;
  double x0, y0, dx, dy;
  double air_x, air_y, kick_x, kick_y;
  double from[IK2D_MAX_BONES], turn[IK2D_MAX_BONES];
  double w2[IK2D_MAX_BONES], w2_child[IK2D_MAX_BONES], gamma[IK2D_MAX_BONES];
  double field_x[IK2D_MAX_BONES], field_y[IK2D_MAX_BONES];
} spring_inputs;

/* the speed of a base that moved by d in dt seconds, bounded */
static double spring_speed(double d, double dt) {
  double v;
  if (dt == HUGE_VAL) return 0.0;
  v = d / dt;
  if (v > IK2D_SPRING_MAX_BASE_SPEED) return IK2D_SPRING_MAX_BASE_SPEED;
  if (v < -IK2D_SPRING_MAX_BASE_SPEED) return -IK2D_SPRING_MAX_BASE_SPEED;
  return v;
}

/* Reads the inputs of an update and notes which of them are moving; the
** base's position is a sample of its motion only when the frame has time
** (dt > 0): an update of no time takes it as a jump (a teleport, the
** base's speed kept), as it takes a neutral angle's change. */
static void spring_inputs_of(ik2d_spring *spring, spring_inputs *in, double dt) {
  const ik2d_chain *chain = spring->chain;
  double base = chain->base_angle, air_x, air_y;
  int i;
  in->gx = chain->flip ? -spring->settings.gravity_x : spring->settings.gravity_x;
  in->gy = spring->settings.gravity_y;
  for (i = 0; i < chain->count; i++) {
    double before = spring->neutral[i];
    in->from[i] = spring->neutral[i];
    in->turn[i] = 0.0;
    if (chain->angle[i] != spring->written[i]) spring->neutral[i] = chain->angle[i];
    if (spring->moving[i]) {
      in->turn[i] = ik2d_wrap(spring->neutral[i] - before);
    } else {
      in->from[i] = spring->neutral[i];
    }
    spring->moving[i] = spring->neutral[i] != before;
  }
  in->base_from = spring->base_moving ? spring->base : base;
  in->base_turn = spring->base_moving ? ik2d_wrap(base - spring->base) : 0.0;
  spring->base_moving = base != spring->base;
  spring->base = base;
  in->x0 = spring->base_x;
  in->y0 = spring->base_y;
  in->dx = in->dy = 0.0;
  in->kick_x = in->kick_y = 0.0;
  if (dt > 0.0) {
    double x = chain->base_x, y = chain->base_y;
    double vx = spring_speed(x - spring->base_x, dt), vy = spring_speed(y - spring->base_y, dt);
    in->dx = x - spring->base_x;
    in->dy = y - spring->base_y;
    in->kick_x = vx - spring->base_vx;
    in->kick_y = vy - spring->base_vy;
    spring->base_vx = vx;
    spring->base_vy = vy;
  }
  spring->base_x = chain->base_x;
  spring->base_y = chain->base_y;
  /* the air's velocity past the base, world then chain space */
  air_x = spring->settings.wind_x - spring->base_vx;
  air_y = spring->settings.wind_y - spring->base_vy;
  if (chain->flip) {
    in->air_x = -air_x;
    in->kick_x = -in->kick_x;
  } else {
    in->air_x = air_x;
  }
  in->air_y = air_y;
}

/* Each bone's coefficients for an update; returns Lambda, a bound on the
** chain's fastest rate squared (Gershgorin's, over every joint and the
** field's pull). */
static double spring_coefficients(const ik2d_spring *spring, spring_inputs *in) {
  const ik2d_chain *chain = spring->chain;
  int i, n = chain->count;
  bool air = in->air_x != 0.0 || in->air_y != 0.0;
  double lambda = 0.0;
  for (i = 0; i < n; i++) {
    double bx = in->gx, by = in->gy, carried = (double)(n - i), k, k_child, row;
    in->w2[i] = spring->stiffness[i] / spring->mass[i];
    in->w2_child[i] = i + 1 < n ? spring->stiffness[i + 1] / spring->mass[i] : 0.0;
    in->gamma[i] = spring->damping[i] / spring->mass[i];
    if (air) {
      bx = in->gx + in->gamma[i] * in->air_x;
      by = in->gy + in->gamma[i] * in->air_y;
    }
    in->field_x[i] = bx;
    in->field_y[i] = by;
    k = in->w2[i] * carried;
    k_child = in->w2_child[i] * (carried - 1.0);
    row = k + k_child + k_child;
    if (i > 0) row = row + k;
    if (bx != 0.0 || by != 0.0) row = row + ik2d_hypot(bx, by) / chain->length[i];
    if (!(row <= lambda)) lambda = row;
  }
  return lambda;
}

/* The jump of the base's velocity: each bone's tip keeps its world
** velocity while its pivot's jumps, -(d x dV) / L rad/s. */
static void spring_kick(ik2d_spring *spring, const spring_inputs *in) {
  const ik2d_chain *chain = spring->chain;
  double kx = in->kick_x, ky = in->kick_y;
  int i;
  if (kx == 0.0 && ky == 0.0) return;
  for (i = 0; i < chain->count; i++) {
    ik2d_rot d = ik2d_rot_angle(spring->world[i]);
    double v = spring->velocity[i] - (d.c * ky - d.s * kx) / chain->length[i];
    if (v > SPRING_MAX_SPEED) v = SPRING_MAX_SPEED;
    if (v < -SPRING_MAX_SPEED) v = -SPRING_MAX_SPEED;
    if (isnan(v)) v = 0.0;
    spring->velocity[i] = v;
  }
}

/* A bone's new direction x and velocity v (from x0, toward phi should
** doubles not hold them): bounded, kept, pushed out of the colliders and
** into its limits; returns whether those moved it. */
static bool spring_settle(ik2d_spring *spring, spring_sides *sides, int i, double x0,
                          double x, double v, double phi, double parent_to, double parent_v,
                          double px, double py, double mirror) {
  if (v > SPRING_MAX_SPEED) v = SPRING_MAX_SPEED;
  if (v < -SPRING_MAX_SPEED) v = -SPRING_MAX_SPEED;
  if (!isfinite(x) || !isfinite(v)) {
    /* a step doubles cannot hold (a denormal bone under gravity, a
    ** stiffness near the largest double): the bone rests at its neutral
    ** angle */
    x = ik2d_wrap(phi);
    v = 0.0;
  }
  spring->world[i] = x;
  spring->velocity[i] = v;
  if (spring->collider_count > 0) spring_collide(spring, sides, i, x0, px, py, mirror);
  spring_limit(spring, i, parent_to, parent_v);
  return spring->world[i] != x;
}

/* the next pivot: bone i's tip */
static void spring_tip(const ik2d_spring *spring, int i, double *px, double *py) {
  const ik2d_chain *chain = spring->chain;
  ik2d_rot d = ik2d_rot_angle(spring->world[i]);
  double l = chain->length[i] * chain->scale;
  *px = *px + l * d.c;
  *py = *py + l * d.s;
}

/* One substep of h seconds, from s0 to s1 of the frame, every bone root
** to tip, each solved exactly with its neighbours held. */
static void spring_substep(ik2d_spring *spring, const spring_inputs *in, double h,
                           double s0, double s1) {
  const ik2d_chain *chain = spring->chain;
  /* the parent's direction at the substep's middle and end, its velocity */
  double s = 0.5 * s0 + 0.5 * s1, parent_mid = in->base_from + s * in->base_turn;
  double parent_to = in->base_from + s1 * in->base_turn, parent_v = 0.0;
  double px = in->x0 + s1 * in->dx, py = in->y0 + s1 * in->dy, mirror = 2.0 * px;
  bool colliding = spring->collider_count > 0;
  spring_sides sides;
  int i;
  if (colliding) spring_base_sides(spring, &sides, px, py, mirror);
  for (i = 0; i < chain->count; i++) {
    double x0 = spring->world[i], v = spring->velocity[i], x;
    double phi = parent_mid + in->from[i] + s * in->turn[i];
    /* joint i carries the bones from i to the tip: its spring is w2 times
    ** their count, so every joint bends alike under a load on every bone */
    double carried = (double)(chain->count - i);
    double k = in->w2[i] * carried, f = -k * ik2d_wrap(x0 - phi);
    double gx = in->field_x[i], gy = in->field_y[i];
    if (i + 1 < chain->count) {
      /* the child's joint pulls back: its turn from its own neutral angle, the
      ** child held where it is at the substep's middle */
      double child = spring->world[i + 1] + 0.5 * h * spring->velocity[i + 1];
      double k_child = in->w2_child[i] * (carried - 1.0);
      k += k_child;
      f += k_child * ik2d_wrap(child - x0 - (in->from[i + 1] + s * in->turn[i + 1]));
    }
    if (gx != 0.0 || gy != 0.0) {
      /* G cos and G sin of the angle from the bone to G, over L */
      ik2d_rot at = ik2d_rot_angle(x0);
      double c = at.c, sn = at.s, length = chain->length[i];
      double along = (gx * c + gy * sn) / length, across = (gy * c - gx * sn) / length;
      f += across;
      if (along > 0.0) k += along;
    }
    x = ik2d_wrap(x0 + spring_step(k, in->gamma[i], f, h, &v));
    (void)spring_settle(spring, &sides, i, x0, x, v, phi, parent_to, parent_v, px, py, mirror);
    x = spring->world[i];
    parent_mid = x0 + 0.5 * ik2d_wrap(x - x0);
    parent_to = x;
    parent_v = spring->velocity[i];
    if (colliding) spring_tip(spring, i, &px, &py);
  }
}

/* A substep of backward Euler: its rows, the state it starts from and
** the bones a collider or limit held. */
typedef struct spring_system {
  double sub[IK2D_MAX_BONES], diag[IK2D_MAX_BONES], sup[IK2D_MAX_BONES], rhs[IK2D_MAX_BONES];
  double start[IK2D_MAX_BONES], start_v[IK2D_MAX_BONES], put[IK2D_MAX_BONES];
  bool held[IK2D_MAX_BONES];
} spring_system;

/* The rows of backward Euler for the chain from its state, the neutral angles
** and the base where they are at s1:
**   (M + h C + h^2 K) v' = M v + h F(x),  x' = x + h v'
** row i over m_i, tridiagonal and diagonally dominant (every row's
** diagonal is 1 + h gamma_i + its off-diagonals' sum or more), so solved
** without pivoting. */
static void spring_implicit_rows(const ik2d_spring *spring, const spring_inputs *in, double h,
                                 double s1, spring_system *sys) {
  const ik2d_chain *chain = spring->chain;
  int i, n = chain->count;
  double error[IK2D_MAX_BONES];
  double h2 = h * h, parent = in->base_from + s1 * in->base_turn;
  for (i = 0; i < n; i++) {
    error[i] = ik2d_wrap(spring->world[i] - parent - (in->from[i] + s1 * in->turn[i]));
    parent = spring->world[i];
  }
  for (i = 0; i < n; i++) {
    double carried = (double)(n - i);
    double k = in->w2[i] * carried, k_child = in->w2_child[i] * (carried - 1.0);
    double f = -k * error[i], stiff = k + k_child;
    double gx = in->field_x[i], gy = in->field_y[i];
    if (i + 1 < n) f = f + k_child * error[i + 1];
    if (gx != 0.0 || gy != 0.0) {
      /* the field's pull, linearised: its slope where it restores, else
      ** its secant toward the field (sin(delta) / delta of it) */
      ik2d_rot at = ik2d_rot_angle(spring->world[i]);
      double c = at.c, sn = at.s, length = chain->length[i];
      double along = (gx * c + gy * sn) / length, across = (gy * c - gx * sn) / length;
      f = f + across;
      if (along > 0.0) stiff = stiff + along;
      else if (across != 0.0) stiff = stiff + across / ik2d_atan2(across, along);
    }
    sys->sub[i] = -h2 * k;
    sys->sup[i] = -h2 * k_child;
    sys->diag[i] = 1.0 + h * in->gamma[i] + h2 * stiff;
    sys->rhs[i] = spring->velocity[i] + h * f;
  }
}

/* Thomas: forward elimination (sup and rhs scaled), back substitution;
** leaves v' in rhs. */
static void spring_implicit_solve(spring_system *sys, int n) {
  int i;
  for (i = 0; i < n; i++) {
    double pivot = sys->diag[i];
    if (i > 0) {
      pivot = pivot - sys->sub[i] * sys->sup[i - 1];
      sys->rhs[i] = sys->rhs[i] - sys->sub[i] * sys->rhs[i - 1];
    }
    sys->sup[i] = sys->sup[i] / pivot;
    sys->rhs[i] = sys->rhs[i] / pivot;
  }
  for (i = n - 2; i >= 0; i--) sys->rhs[i] = sys->rhs[i] - sys->sup[i] * sys->rhs[i + 1];
}

/* Every bone from its start by its solved velocity, root to tip,
** settled; held marks the bones a collider or limit moved; returns
** whether any. */
static bool spring_implicit_settle(ik2d_spring *spring, const spring_inputs *in, double h,
                                   double s1, spring_system *sys) {
  const ik2d_chain *chain = spring->chain;
  double px = in->x0 + s1 * in->dx, py = in->y0 + s1 * in->dy, mirror = 2.0 * px;
  double parent = in->base_from + s1 * in->base_turn, parent_v = 0.0;
  bool colliding = spring->collider_count > 0, any = false;
  spring_sides sides;
  int i;
  if (colliding) spring_base_sides(spring, &sides, px, py, mirror);
  for (i = 0; i < chain->count; i++) {
    double x0 = sys->start[i], v = sys->rhs[i];
    sys->held[i] = spring_settle(spring, &sides, i, x0, ik2d_wrap(x0 + h * v), v,
                                 parent + in->from[i] + s1 * in->turn[i], parent, parent_v, px,
                                 py, mirror);
    any = any || sys->held[i];
    parent = spring->world[i];
    parent_v = spring->velocity[i];
    if (colliding) spring_tip(spring, i, &px, &py);
  }
  return any;
}

/* One substep of backward Euler for the chain at once
** (spring_implicit_rows).  A bone a collider or limit then moves was
** solved as if free: the step is solved again from the start with those
** bones held where they were put, so the others move as their
** neighbours do (not into a two-step swing about the contact). */
static void spring_substep_implicit(ik2d_spring *spring, const spring_inputs *in, double h,
                                    double s1) {
  spring_system sys;
  int i, n = spring->chain->count;
  for (i = 0; i < n; i++) {
    sys.start[i] = spring->world[i];
    sys.start_v[i] = spring->velocity[i];
  }
  spring_implicit_rows(spring, in, h, s1, &sys);
  spring_implicit_solve(&sys, n);
  if (!spring_implicit_settle(spring, in, h, s1, &sys)) return;
  for (i = 0; i < n; i++) {
    sys.put[i] = spring->world[i];
    spring->world[i] = sys.start[i];
    spring->velocity[i] = sys.start_v[i];
  }
  spring_implicit_rows(spring, in, h, s1, &sys);
  for (i = 0; i < n; i++) {
    if (sys.held[i]) {
      sys.sub[i] = 0.0;
      sys.sup[i] = 0.0;
      sys.diag[i] = 1.0;
      sys.rhs[i] = ik2d_wrap(sys.put[i] - sys.start[i]) / h;
    }
  }
  spring_implicit_solve(&sys, n);
  (void)spring_implicit_settle(spring, in, h, s1, &sys);
}

ik2d_status ik2d_spring_update(ik2d_spring *spring, double dt) {
  spring_inputs in;
  double steps, h, lambda;
  int n, k;
  if (spring == NULL) return IK2D_ERR_NULL;
  if (isnan(dt) || dt < 0.0) return IK2D_ERR_DT;
  spring_inputs_of(spring, &in, dt);
  if (dt > 0.0) {
    /* 1/60 s is 12 substeps, not 13 for the rounding of dt * 720 */
    steps = dt * IK2D_SPRING_SUBSTEP_RATE;
    n = steps <= 1.0 ? 1
      : steps >= IK2D_SPRING_MAX_SUBSTEPS ? IK2D_SPRING_MAX_SUBSTEPS
                                          : (int)ceil(steps - IK2D_SPRING_SUBSTEP_SLACK);
    h = dt / n;
    if (h > IK2D_SPRING_MAX_SUBSTEP) h = IK2D_SPRING_MAX_SUBSTEP;
    lambda = spring_coefficients(spring, &in);
    spring_kick(spring, &in);
    if (lambda * h * h <= IK2D_SPRING_STIFF) {
      for (k = 0; k < n; k++) spring_substep(spring, &in, h, (double)k / n, (k + 1.0) / n);
    } else {
      for (k = 0; k < n; k++) spring_substep_implicit(spring, &in, h, (k + 1.0) / n);
    }
  }
  spring_limit_all(spring);
  spring_write(spring);
  return IK2D_OK;
}
