/*
** ik2d: 2D inverse kinematics (CCD, FABRIK, two-bone) for games.
**
** The whole public C API.  The core has no Lua dependency, no global
** state and allocates nothing: the caller asks how many bytes an object
** of n bones takes, provides them (malloc, a pool, a Lua userdata) and
** initialises the object there from a def struct, as Box2D v3's defs go:
**
**   ik2d_bone_def bones[2];
**   ik2d_chain_def def = ik2d_default_chain_def();
**   bones[0] = bones[1] = ik2d_default_bone_def();
**   bones[0].length = 60;
**   bones[1].length = 50;
**   def.bone_count = 2;
**   def.bones = bones;
**   size_t size = ik2d_chain_size(2);
**   ik2d_chain *arm = malloc(size);
**   if (ik2d_chain_init(arm, size, &def) != IK2D_OK) ...
**
** Objects are opaque: read them with the getters.  They hold pointers
** into their own memory, so they are not copied or moved bytewise.
** Every function checks its input and either does what it documents or
** returns a status naming the problem (ik2d_status_message words it); a
** call that fails changes nothing.  Angles are radians, positive from +x
** toward +y; bone indices are 0-based here (the Lua API is 1-based).
*/
#ifndef IK2D_H
#define IK2D_H

#include <stdbool.h>
#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

/* generated from lua/ik2d/api.lua by make gen: constants */
#define IK2D_VERSION "0.3.0"
#define IK2D_MAX_BONES 64 /* the bones of a chain */
#define IK2D_MAX_SKELETON_BONES 256 /* the bones of a skeleton */
#define IK2D_MAX_SKELETON_SOLVERS 256 /* the solvers on one skeleton's chains */
#define IK2D_MAX_COLLIDERS 16 /* the colliders of a spring */
#define IK2D_MAX_SLOTS 1024 /* the slots of a rig */
/* end generated */

/* IK2D_API marks the public functions.  A Windows DLL build defines
** IK2D_BUILD_DLL, and programs using that DLL define IK2D_DLL; elsewhere
** they stay visible in a shared object built with -fvisibility=hidden
** (LuaJIT's FFI calls them there). */
#if defined(_WIN32) && defined(IK2D_BUILD_DLL)
#define IK2D_API __declspec(dllexport)
#elif defined(_WIN32) && defined(IK2D_DLL)
#define IK2D_API __declspec(dllimport)
#elif defined(__GNUC__)
#define IK2D_API __attribute__((visibility("default")))
#else
#define IK2D_API
#endif

/* generated from lua/ik2d/api.lua by make gen: statuses */
typedef enum ik2d_status {
  IK2D_OK = 0, /* done */
  IK2D_ERR_NULL, /* a pointer argument is NULL */
  IK2D_ERR_SIZE, /* the memory given is smaller than *_size() */
  IK2D_ERR_ALIGNMENT, /* the memory is not aligned for a double */
  IK2D_ERR_BONE_COUNT, /* bone count outside 1..IK2D_MAX_BONES */
  IK2D_ERR_LENGTH, /* a bone length not finite or <= 0 */
  IK2D_ERR_REACH, /* the lengths are finite but their sum is not */
  IK2D_ERR_REST, /* a rest angle not finite */
  IK2D_ERR_BASE_X, /* the base's x not finite */
  IK2D_ERR_BASE_Y, /* the base's y not finite */
  IK2D_ERR_BASE_ANGLE, /* the base's angle not finite */
  IK2D_ERR_POSE, /* a pose angle not finite */
  IK2D_ERR_TARGET_X, /* a target's x not finite */
  IK2D_ERR_TARGET_Y, /* a target's y not finite */
  IK2D_ERR_MIN, /* a limit's min not finite */
  IK2D_ERR_MAX, /* a limit's max not finite */
  IK2D_ERR_MIN_DEGREES, /* |min| > 2 pi: degrees, not radians */
  IK2D_ERR_MAX_DEGREES, /* |max| > 2 pi: degrees, not radians */
  IK2D_ERR_LIMIT_ORDER, /* min > max */
  IK2D_ERR_SPACE, /* not an ik2d_space */
  IK2D_ERR_INDEX, /* bone index out of range */
  IK2D_ERR_METHOD, /* not an ik2d_method */
  IK2D_ERR_TWO_BONE, /* method two_bone on a chain that is not 2 bones */
  IK2D_ERR_ITERATIONS, /* iterations < 1 */
  IK2D_ERR_TOLERANCE, /* tolerance negative or not finite */
  IK2D_ERR_WEIGHT, /* a solver's or spring's weight is NaN */
  IK2D_ERR_DAMPING, /* a solver's damping (radians) negative or not finite */
  IK2D_ERR_BEND, /* bend not 1 or -1 */
  IK2D_ERR_SOFTNESS, /* softness negative or not finite */
  IK2D_ERR_STRETCH, /* stretch below 1 or NaN */
  IK2D_ERR_SWEEP, /* not an ik2d_sweep */
  IK2D_ERR_TIP_ANGLE, /* tip angle not finite */
  IK2D_ERR_TIP_WEIGHT, /* tip weight outside [0, 1] or NaN */
  IK2D_ERR_POLE_X, /* a pole's x not finite */
  IK2D_ERR_POLE_Y, /* a pole's y not finite */
  IK2D_ERR_SOFTNESS_CURVE, /* not an ik2d_softness_curve */
  IK2D_ERR_COMPRESS, /* compress outside [0, 1] */
  IK2D_ERR_SKELETON_BONES, /* bone count outside 1..IK2D_MAX_SKELETON_BONES */
  IK2D_ERR_PIVOT_LENGTH, /* a skeleton bone's length not finite or < 0 */
  IK2D_ERR_PARENT, /* a parent that is not an earlier bone (or -1) */
  IK2D_ERR_ORIGIN_X, /* a bone origin's x not finite */
  IK2D_ERR_ORIGIN_Y, /* a bone origin's y not finite */
  IK2D_ERR_INHERIT, /* not an ik2d_inherit */
  IK2D_ERR_PATH, /* a chain's last bone does not descend from its first */
  /* a bone inheriting less than all (position only, no scale, ...) inside a
  ** chain */
  IK2D_ERR_PATH_INHERIT,
  IK2D_ERR_LINKED, /* the chain is a skeleton's path: edit the skeleton */
  IK2D_ERR_LINKED_STRETCH, /* stretch > 1 or compress < 1 on a skeleton chain */
  IK2D_ERR_PRIORITY, /* priority negative or not finite */
  IK2D_ERR_SKELETON_SOLVERS, /* more than IK2D_MAX_SKELETON_SOLVERS solvers */
  IK2D_ERR_SKELETON_SPACE, /* a world-space limit on a skeleton's bone */
  IK2D_ERR_LINKED_FOLLOW, /* method follow on a skeleton chain */
  IK2D_ERR_SPRING_STIFFNESS, /* a spring's stiffness negative or not finite */
  /* a spring's mass not > 0 and finite, or stiffness or damping over mass
  ** beyond the doubles */
  IK2D_ERR_SPRING_MASS,
  IK2D_ERR_GRAVITY_X, /* a spring's gravity x not finite */
  IK2D_ERR_GRAVITY_Y, /* a spring's gravity y not finite */
  IK2D_ERR_DT, /* a time step negative or NaN */
  /* a spring's damping (torque per rad/s) negative or not finite */
  IK2D_ERR_SPRING_DAMPING,
  /* a solver's target is on a bone that a solver running after it moves (each
  ** targeting a bone the other moves, outside a coupled solve) */
  IK2D_ERR_TARGET_CYCLE,
  IK2D_ERR_WIND_X, /* a spring's wind x not finite */
  IK2D_ERR_WIND_Y, /* a spring's wind y not finite */
  IK2D_ERR_COLLIDERS, /* more than IK2D_MAX_COLLIDERS colliders */
  IK2D_ERR_COLLIDER_SHAPE, /* not an ik2d_collider_shape */
  IK2D_ERR_CIRCLE_X, /* a circle's x not finite */
  IK2D_ERR_CIRCLE_Y, /* a circle's y not finite */
  IK2D_ERR_CIRCLE_RADIUS, /* a circle's radius negative or not finite */
  IK2D_ERR_SEGMENT_X1, /* a segment's x1 not finite */
  IK2D_ERR_SEGMENT_Y1, /* a segment's y1 not finite */
  IK2D_ERR_SEGMENT_X2, /* a segment's x2 not finite */
  IK2D_ERR_SEGMENT_Y2, /* a segment's y2 not finite */
  IK2D_ERR_AIM_X, /* an aim's origin x not finite */
  IK2D_ERR_AIM_Y, /* an aim's origin y not finite */
  IK2D_ERR_AIM_ANGLE, /* an aim's angle not finite */
  IK2D_ERR_AIM_METHOD, /* an aim with method follow */
  IK2D_ERR_AIM_TIP, /* an aim and a tip angle together */
  IK2D_ERR_SCALE_X, /* a bone's or skeleton's scale x zero or not finite */
  IK2D_ERR_SCALE_Y, /* a bone's or skeleton's scale y zero or not finite */
  IK2D_ERR_SHEAR_X, /* a bone's shear x not finite */
  IK2D_ERR_SHEAR_Y, /* a bone's shear y not finite */
  /* a transform constraint's bone count outside 1..IK2D_MAX_SKELETON_BONES */
  IK2D_ERR_CONSTRAINT_BONES,
  /* a transform constraint's bone or target not a bone of its skeleton */
  IK2D_ERR_CONSTRAINT_BONE,
  IK2D_ERR_CONSTRAINT_TWICE, /* a transform constraint's bone listed twice */
  IK2D_ERR_CONSTRAINT_TARGET, /* a transform constraint's target among its bones */
  IK2D_ERR_MIX, /* a transform constraint's mix not finite */
  IK2D_ERR_OFFSET, /* a transform constraint's offset not finite */
  /* more than IK2D_MAX_SKELETON_SOLVERS transform constraints on one skeleton */
  IK2D_ERR_SKELETON_CONSTRAINTS,
  /* an order step naming neither a solver nor a constraint of the skeleton,
  ** or both */
  IK2D_ERR_ORDER_STEP,
  IK2D_ERR_ORDER_TWICE, /* a solver or constraint listed twice in an order */
  IK2D_ERR_SLOT_COUNT, /* slot count outside 1..IK2D_MAX_SLOTS */
  IK2D_ERR_SLOT_BONE, /* a slot's bone not a bone of the skeleton */
  /* an attachment index outside the rig's attachments (-1 for none aside) */
  IK2D_ERR_ATTACHMENT,
  IK2D_ERR_COLOR, /* a colour's part not finite */
  IK2D_ERR_BLEND, /* not an ik2d_blend */
  IK2D_ERR_TIMELINE_TARGET, /* a timeline's channel unknown or target out of range */
  IK2D_ERR_KEY_COUNT, /* a timeline without keys */
  IK2D_ERR_KEY_TIME, /* a key time not finite, or not after the one before */
  IK2D_ERR_KEY_VALUE, /* a key value not finite, or outside its channel's values */
  /* a curve kind unknown, or its points not finite or outside their keys'
  ** times */
  IK2D_ERR_CURVE,
  IK2D_ERR_DURATION, /* a clip's duration */
  IK2D_ERR_TIME, /* a time not finite */
  IK2D_ERR_ALPHA, /* an alpha outside [0, 1] or NaN */
  IK2D_ERR_GEOMETRY /* an attachment def's geometry malformed */
} ik2d_status;
/* end generated */

/* A short English description of a status, naming the setting, e.g.
** "iterations must be >= 1".  Never NULL. */
IK2D_API const char *ik2d_status_message(ik2d_status status);

/* ------------------------------------------------------------------ */
/* Constraint: the limits of a bone's local angle, relative to its rest */
/* angle, in the parent bone's space (so they follow the parents).  One */
/* constraint may be shared by many bones and chains; a change is seen  */
/* by each at its next solve.                                           */
/* ------------------------------------------------------------------ */
typedef struct ik2d_constraint ik2d_constraint;

/* generated from lua/ik2d/api.lua by make gen: enum space */
/* What a limit's angles are measured against. */
typedef enum ik2d_space {
  /* the bone's local angle: the limit follows the parents (an elbow) */
  IK2D_SPACE_PARENT = 0,
  /* the bone's world direction, whatever the parents do (a head that never
  ** looks past the vertical); mirrored when the chain is flipped */
  IK2D_SPACE_WORLD
} ik2d_space;
/* end generated */

/* generated from lua/ik2d/api.lua by make gen: constraint def */
/* A constraint's limits. */
typedef struct ik2d_constraint_def {
  /* radians from the rest angle, <= max, within [-2 pi, 2 pi] (larger ones
  ** are degrees by mistake); a range of 2 pi or more allows every angle. In
  ** world space the rest angle is read as a world direction; -pi */
  double min;
  /* as min; pi */
  double max;
  /* what the angles are measured against; parent */
  ik2d_space space;
  /* the allowed range is outside [min, max]; false */
  bool invert;
} ik2d_constraint_def;
/* end generated */

/* min = -pi, max = pi, not inverted, parent space: every angle
** allowed. */
IK2D_API ik2d_constraint_def ik2d_default_constraint_def(void);
IK2D_API size_t ik2d_constraint_size(void);
IK2D_API ik2d_status ik2d_constraint_init(ik2d_constraint *constraint, size_t size,
                                          const ik2d_constraint_def *def);
/* New limits for every bone sharing the constraint. */
IK2D_API ik2d_status ik2d_constraint_set_def(ik2d_constraint *constraint,
                                             const ik2d_constraint_def *def);
/* The def as last set (a zeroed def for NULL). */
IK2D_API ik2d_constraint_def ik2d_constraint_get_def(const ik2d_constraint *constraint);
/* The allowed local delta (angle - rest) nearest to delta, found in the
** frame centred on the range, so wrap-around never breaks a limit. */
IK2D_API double ik2d_constraint_clamp(const ik2d_constraint *constraint, double delta);
/* The allowed arc of deltas as [*from, *to], from <= to (an inverted
** range is given from max round to min + 2 pi); false, with nothing
** written, when every delta is allowed.  Draw limits from this. */
IK2D_API bool ik2d_constraint_arc(const ik2d_constraint *constraint, double *from,
                                  double *to);

/* ------------------------------------------------------------------ */
/* Chain: bones end to end from a base.  It keeps two poses: the pose   */
/* (the animated input, set_pose) and the result (what a solve wrote,   */
/* what is drawn: angles and joints).                                    */
/* ------------------------------------------------------------------ */
typedef struct ik2d_chain ik2d_chain;

/* generated from lua/ik2d/api.lua by make gen: chain defs */
/* A chain's bone. Its length has no default: 0 is refused (IK2D_ERR_LENGTH). */
typedef struct ik2d_bone_def {
  /* > 0 and finite; 0 */
  double length;
  /* rest local angle; 0 */
  double rest;
  /* NULL: free; not owned */
  const ik2d_constraint *constraint;
} ik2d_bone_def;

/* A chain: its bones, base first, and its base. */
typedef struct ik2d_chain_def {
  /* bone_count of them, base first */
  const ik2d_bone_def *bones;
  /* the base in world space; 0 */
  double x;
  /* the base in world space; 0 */
  double y;
  /* the base's direction in world space; 0 */
  double angle;
  /* 1..IK2D_MAX_BONES; 0 */
  int bone_count;
  /* mirrored about x = base x; false */
  bool flip;
} ik2d_chain_def;
/* end generated */

/* The defaults above (defs are zeroed first: a field added later is 0,
** false or NULL), for each bone and for the chain. */
IK2D_API ik2d_bone_def ik2d_default_bone_def(void);
IK2D_API ik2d_chain_def ik2d_default_chain_def(void);
/* The check ik2d_chain_init makes of each bone (length, rest), for a
** caller that reports which bone is wrong. */
IK2D_API ik2d_status ik2d_bone_def_check(const ik2d_bone_def *bone);
/* Bytes for a chain of bone_count bones; 0 outside 1..IK2D_MAX_BONES. */
IK2D_API size_t ik2d_chain_size(int bone_count);
/* Pose and result start at the rest angles. */
IK2D_API ik2d_status ik2d_chain_init(ik2d_chain *chain, size_t size,
                                     const ik2d_chain_def *def);

IK2D_API int ik2d_chain_bone_count(const ik2d_chain *chain);
/* The base's angle is kept wrapped to (-pi, pi]. */
IK2D_API ik2d_status ik2d_chain_set_base(ik2d_chain *chain, double x, double y,
                                         double angle);
/* Any output may be NULL (not written). */
IK2D_API void ik2d_chain_base(const ik2d_chain *chain, double *x, double *y,
                              double *angle);
IK2D_API ik2d_status ik2d_chain_set_flip(ik2d_chain *chain, bool flip);
IK2D_API bool ik2d_chain_flip(const ik2d_chain *chain);
/* The animated angle of bone i; the result shows the pose until the
** next solve. */
IK2D_API ik2d_status ik2d_chain_set_pose(ik2d_chain *chain, int i, double angle);
/* Shares constraint (NULL removes it); the chain does not own it. */
IK2D_API ik2d_status ik2d_chain_set_constraint(ik2d_chain *chain, int i,
                                               const ik2d_constraint *constraint);
/* Pose and result back to the rest angles (scale 1); nothing on a
** skeleton chain (reset the skeleton). */
IK2D_API void ik2d_chain_reset(ik2d_chain *chain);
/* Editing the rig at run time: bone i's length (> 0; the reach follows)
** and rest angle (the limits, relative to it, move with it; pose and
** result keep their angles).  A solver's warm start stays valid: it is
** rotations, clamped into the limits at the next solve. */
IK2D_API ik2d_status ik2d_chain_set_length(ik2d_chain *chain, int i, double length);
IK2D_API ik2d_status ik2d_chain_set_rest(ik2d_chain *chain, int i, double angle);

/* Per-bone reads; IK2D_ERR_INDEX (nothing written) outside 0..count-1. */
IK2D_API ik2d_status ik2d_chain_pose(const ik2d_chain *chain, int i, double *angle);
/* The result's local angle. */
IK2D_API ik2d_status ik2d_chain_angle(const ik2d_chain *chain, int i, double *angle);
/* The result's world direction (mirrored when flipped): draw with it. */
IK2D_API ik2d_status ik2d_chain_world_angle(const ik2d_chain *chain, int i,
                                            double *angle);
IK2D_API ik2d_status ik2d_chain_length(const ik2d_chain *chain, int i, double *length);
IK2D_API ik2d_status ik2d_chain_rest(const ik2d_chain *chain, int i, double *angle);
IK2D_API ik2d_status ik2d_chain_constraint(const ik2d_chain *chain, int i,
                                           const ik2d_constraint **constraint);
/* Joint i of the result, 0 = base, count = tip: IK2D_ERR_INDEX outside
** 0..count. */
IK2D_API ik2d_status ik2d_chain_joint(const ik2d_chain *chain, int i, double *x,
                                      double *y);
/* Every joint of the result as x, y pairs (2 * (count + 1) doubles),
** kept up to date by every call that changes the result; the same
** pointer for the chain's life. */
IK2D_API const double *ik2d_chain_joints(const ik2d_chain *chain);
/* Every result local angle (count doubles), likewise. */
IK2D_API const double *ik2d_chain_angles(const ik2d_chain *chain);
/* Sum of the bone lengths. */
IK2D_API double ik2d_chain_reach(const ik2d_chain *chain);
/* The result's bone scale: 1, or other when a solver stretched or
** compressed the bones; joints are length * scale apart. */
IK2D_API double ik2d_chain_scale(const ik2d_chain *chain);
/* Whether the last solve asked for the scale on both sprite axes (the
** solver's uniform setting). */
IK2D_API bool ik2d_chain_uniform(const ik2d_chain *chain);

/* ------------------------------------------------------------------ */
/* Solver: moves a chain's tip to a target.                             */
/* ------------------------------------------------------------------ */
typedef struct ik2d_solver ik2d_solver;

/* generated from lua/ik2d/api.lua by make gen: enum method */
/* How a solver moves its chain's tip to the target. */
typedef enum ik2d_method {
  IK2D_CCD = 0, /* cyclic coordinate descent, with an exact two-joint step */
  IK2D_FABRIK, /* forward and backward reaching */
  IK2D_TWO_BONE, /* closed form, chains of 2 bones */
  /* follow the leader: no fixed base; the tip goes onto the target and each
  ** bone is dragged behind it (a rope), the base moves (ik2d_chain_base
  ** reports it) */
  IK2D_FOLLOW
} ik2d_method;
/* end generated */

/* generated from lua/ik2d/api.lua by make gen: enum sweep */
/* CCD's sweep order: root to tip (fewer iterations from cold starts, measured
** by bench/quality.c) or tip to root (textbook CCD). */
typedef enum ik2d_sweep {
  IK2D_SWEEP_ROOT = 0,
  IK2D_SWEEP_TIP
} ik2d_sweep;
/* end generated */

/* generated from lua/ik2d/api.lua by make gen: enum softness_curve */
/* How two_bone eases the limb in over the softness distance before full reach
** (target distance d, full reach R, softness s). */
typedef enum ik2d_softness_curve {
  /* R - s + s (1 - exp(-(d - R + s) / s)): the slope is continuous, full
  ** reach is never quite met */
  IK2D_SOFTNESS_SMOOTH = 0,
  /* Spine's: R - s (1 - (d - R + s) / 2s)^2 up to d = R + s, full reach from
  ** there */
  IK2D_SOFTNESS_SPINE
} ik2d_softness_curve;
/* end generated */

/* generated from lua/ik2d/api.lua by make gen: solver def */
/* A solver's settings: CCD (exact: FABRIK too). */
typedef struct ik2d_ccd_def {
  /* largest turn of a joint update, radians, 0 = none; 0 */
  double damping;
  /* root to tip or tip to root; root */
  ik2d_sweep sweep;
  /* each iteration first tries the exact two-joint step; FABRIK finishes with
  ** one; true */
  bool exact;
} ik2d_ccd_def;

/* A solver's settings: two_bone (stretch, compress and uniform: one-bone
** chains too). */
typedef struct ik2d_two_bone_def {
  /* distance before full reach over which the limb eases in, >= 0; 0 */
  double softness;
  /* largest bone scale toward a target beyond reach, >= 1 (HUGE_VAL: no
  ** bound; 1 = none); 1 */
  double stretch;
  /* one-bone chains: smallest bone scale toward a nearer target, in [0, 1]
  ** (0: no bound; 1 = none); 1 */
  double compress;
  /* +1 or -1, the sign of the elbow's local angle: with angles positive from
  ** +x to +y, +1 puts the elbow on the clockwise side of the base-to-target
  ** line (above it on a y-down screen, for a target to the right); 1 */
  int bend;
  /* the easing's shape; smooth */
  ik2d_softness_curve softness_curve;
  /* the scale applies to both sprite axes (a hint for drawing, see
  ** ik2d_chain_uniform); false */
  bool uniform;
} ik2d_two_bone_def;

/* A solver's settings: the last bone's direction. */
typedef struct ik2d_tip_def {
  /* the last bone's world direction as drawn (ik2d_chain_world_angle's, so
  ** flipped chains take it as given): the tip on the target, the rest of the
  ** chain solving for the last joint; 0 */
  double angle;
  /* in [0, 1]: 1 orients fully, less turns the last bone's direction in a
  ** free solve from the pose toward angle by that share; 1 */
  double weight;
  /* orient the last bone along angle; false */
  bool enabled;
} ik2d_tip_def;

/* A solver's settings: the side a limb bends to. */
typedef struct ik2d_pole_def {
  /* world space; 0 */
  double x;
  /* world space; 0 */
  double y;
  /* bend toward (x, y): two_bone takes the bend side that faces it (over
  ** bend); CCD and FABRIK turn their middle joints toward it, the tip kept;
  ** false */
  bool enabled;
} ik2d_pole_def;

/* A solver's settings: the solver as an effector of its skeleton's solve
** (ik2d_skeleton_solve): solvers on a skeleton's chains. */
typedef struct ik2d_effector_def {
  /* >= 0: weight x priority weighs this effector in a coupled solve; 1 */
  double priority;
  /* solved together with the solvers whose chains share bones with it (true),
  ** or after them, winning on the bones it touches (false); true */
  bool together;
} ik2d_effector_def;

/* A solver's settings: a ray fixed to the last bone, turned through the
** target. */
typedef struct ik2d_aim_def {
  /* the ray's origin along the last bone, from the last joint; 0 */
  double x;
  /* the ray's origin across the last bone (+y: angle +pi/2 from it); 0 */
  double y;
  /* the ray's direction from the last bone's, radians; 0 */
  double angle;
  /* turn the chain so that the ray from (x, y) along angle, both in the last
  ** bone's space, passes through the target (the tip goes where it must);
  ** methods ccd, fabrik and two_bone; false */
  bool enabled;
} ik2d_aim_def;

/* A solver's settings. The setters (ik2d_solver_set_*) change one each. */
typedef struct ik2d_solver_def {
  /* >= 0: the tip is there within it; 0.01 */
  double tolerance;
  /* clamped to [0, 1], NaN refused; 1 */
  double weight;
  /* how the tip goes to the target; ccd */
  ik2d_method method;
  /* >= 1; 10 */
  int iterations;
  /* start from the last IK solution (true) or from the pose; true */
  bool warm_start;
  ik2d_ccd_def ccd;
  ik2d_two_bone_def two_bone;
  ik2d_tip_def tip;
  ik2d_pole_def pole;
  ik2d_effector_def effector;
  ik2d_aim_def aim;
} ik2d_solver_def;
/* end generated */

/* The outcome of the last solve. */
typedef struct ik2d_result {
  bool reached;         /* the result tip is within tolerance */
  bool limited;         /* a limit changed the answer: a joint ends on one
                           of its limits, or the bend side or pole asked
                           for was not allowed */
  int iterations;       /* used; 0 when the tip already was there */
  double distance;      /* from the result tip to the target; aimed: from
                           the ray to the target (its origin's distance
                           for a target behind it) */
} ik2d_result;

/* Every setting at the default given above. */
IK2D_API ik2d_solver_def ik2d_default_solver_def(void);
/* Bytes for a solver of a chain of bone_count bones; 0 outside
** 1..IK2D_MAX_BONES. */
IK2D_API size_t ik2d_solver_size(int bone_count);
/* A solver for chain (which must outlive it); the target follows the
** chain's tip until the first ik2d_solver_set_target. */
IK2D_API ik2d_status ik2d_solver_init(ik2d_solver *solver, size_t size,
                                      ik2d_chain *chain, const ik2d_solver_def *def);
IK2D_API ik2d_chain *ik2d_solver_chain(const ik2d_solver *solver);
/* Every setting at once, all checked before any is kept. */
IK2D_API ik2d_status ik2d_solver_set_def(ik2d_solver *solver, const ik2d_solver_def *def);
/* The settings now (a default def for NULL). */
IK2D_API ik2d_solver_def ik2d_solver_get_def(const ik2d_solver *solver);
/* generated from lua/ik2d/api.lua by make gen: solver setters */
/* One setting each, or the fields set as one (an x and a y); a setter of a
** part with a switch (tip angle, pole, aim) turns it on, its clear function
** off. Each is checked as ik2d_solver_set_def checks it, with the rules that
** read it, then kept. */
IK2D_API ik2d_status ik2d_solver_set_method(ik2d_solver *solver, ik2d_method method);
IK2D_API ik2d_status ik2d_solver_set_iterations(ik2d_solver *solver, int iterations);
IK2D_API ik2d_status ik2d_solver_set_tolerance(ik2d_solver *solver, double tolerance);
IK2D_API ik2d_status ik2d_solver_set_weight(ik2d_solver *solver, double weight);
IK2D_API ik2d_status ik2d_solver_set_warm_start(ik2d_solver *solver, bool warm_start);
IK2D_API ik2d_status ik2d_solver_set_damping(ik2d_solver *solver, double damping);
IK2D_API ik2d_status ik2d_solver_set_exact(ik2d_solver *solver, bool exact);
IK2D_API ik2d_status ik2d_solver_set_sweep(ik2d_solver *solver, ik2d_sweep sweep);
IK2D_API ik2d_status ik2d_solver_set_bend(ik2d_solver *solver, int bend);
IK2D_API ik2d_status ik2d_solver_set_softness(ik2d_solver *solver, double softness);
IK2D_API ik2d_status ik2d_solver_set_softness_curve(ik2d_solver *solver,
                                                    ik2d_softness_curve softness_curve);
IK2D_API ik2d_status ik2d_solver_set_stretch(ik2d_solver *solver, double stretch);
IK2D_API ik2d_status ik2d_solver_set_compress(ik2d_solver *solver, double compress);
IK2D_API ik2d_status ik2d_solver_set_uniform(ik2d_solver *solver, bool uniform);
/* Orients the last bone (tip.angle, tip.weight); clear: free again. */
IK2D_API ik2d_status ik2d_solver_set_tip_angle(ik2d_solver *solver, double angle,
                                               double weight);
IK2D_API void ik2d_solver_clear_tip_angle(ik2d_solver *solver);
/* Bends toward the point (x, y); clear: bend as set again. */
IK2D_API ik2d_status ik2d_solver_set_pole(ik2d_solver *solver, double x, double y);
IK2D_API void ik2d_solver_clear_pole(ik2d_solver *solver);
IK2D_API ik2d_status ik2d_solver_set_priority(ik2d_solver *solver, double priority);
IK2D_API ik2d_status ik2d_solver_set_together(ik2d_solver *solver, bool together);
/* Aims the ray from (x, y) along angle, in the last bone's space, through the
** target (aim.x, aim.y, aim.angle); clear: the tip goes to the target again.
** Refused with method follow and with a tip angle. */
IK2D_API ik2d_status ik2d_solver_set_aim(ik2d_solver *solver, double x, double y,
                                         double angle);
IK2D_API void ik2d_solver_clear_aim(ik2d_solver *solver);
/* end generated */

/* World space (a target on a bone, ik2d_solver_set_target_bone, is
** cleared). */
IK2D_API ik2d_status ik2d_solver_set_target(ik2d_solver *solver, double x, double y);
/* The target: the chain's result tip until the first set_target, the
** bone's point now for a target on a bone.  Any output may be NULL. */
IK2D_API void ik2d_solver_target(const ik2d_solver *solver, double *x, double *y);
/* Forget the warm start: the next solve starts from the pose. */
IK2D_API void ik2d_solver_forget(ik2d_solver *solver);

/* Solves and writes the chain's result: per bone
**   result = pose + weight * delta(ik - pose)
** (delta the turn inside the bone's limits), the scale 1 + weight *
** (stretch - 1); returns whether the result tip is within tolerance of
** the target (false for NULL). */
IK2D_API bool ik2d_solver_solve(ik2d_solver *solver);
/* The last solve's outcome; the same pointer for the solver's life. */
IK2D_API const ik2d_result *ik2d_solver_result(const ik2d_solver *solver);

/* The instruction sets a batch can solve CCD with, several chains in the
** lanes of one vector; every one gives the same bits. */
typedef enum ik2d_isa {
  IK2D_ISA_AUTO = -1,  /* the widest this machine runs */
  IK2D_ISA_SCALAR = 0, /* one chain at a time (4 interleaved): any machine */
  IK2D_ISA_SSE2,       /* 4 chains side by side, two vectors of 2 (every x86-64) */
  IK2D_ISA_AVX2,       /* 8 (two vectors of 4) */
  IK2D_ISA_AVX512      /* 8 */
} ik2d_isa;

/* Whether this build has the set and this processor runs it. */
IK2D_API bool ik2d_isa_supported(ik2d_isa isa);
/* The widest supported set (what IK2D_ISA_AUTO means). */
IK2D_API ik2d_isa ik2d_isa_best(void);
/* "scalar", "sse2", "avx2", "avx512" (and "auto"); NULL for no set. */
IK2D_API const char *ik2d_isa_name(ik2d_isa isa);

/* Solves count solvers with exactly the results ik2d_solver_solve gives
** each, in list order wherever it matters (solvers sharing a chain);
** NULL entries are skipped.  Returns how many reached. */
IK2D_API int ik2d_solvers_solve(ik2d_solver *const *solvers, int count);
/* The same with the given instruction set (IK2D_ISA_AUTO: the best); an
** unsupported one solves as the best supported below it does. */
IK2D_API int ik2d_solvers_solve_isa(ik2d_solver *const *solvers, int count, ik2d_isa isa);
/* Every solver's target from xy (x, y pairs, solver after solver), all
** checked before any is written; for a bad one, *bad (if not NULL) gets
** its index.  NULL entries are skipped. */
IK2D_API ik2d_status ik2d_solvers_set_targets(ik2d_solver *const *solvers, int count,
                                              const double *xy, int *bad);
/* ik2d_solvers_set_targets' check alone: writes nothing (so that several arrays
** can all be checked before any is written).  The same for the others. */
IK2D_API ik2d_status ik2d_solvers_check_targets(ik2d_solver *const *solvers, int count,
                                                const double *xy, int *bad);
IK2D_API ik2d_status ik2d_solvers_check_tip_angles(ik2d_solver *const *solvers, int count,
                                                   const double *angles, int *bad);
IK2D_API ik2d_status ik2d_solvers_check_poles(ik2d_solver *const *solvers, int count,
                                              const double *xy, int *bad);
/* Every solver's tip angle from angles (one a solver), for the solvers
** whose tip angle is on (each keeps its tip weight; the others' entries
** are not read), all checked before any is written; for a bad one, *bad
** (if not NULL) gets its index.  NULL entries are skipped. */
IK2D_API ik2d_status ik2d_solvers_set_tip_angles(ik2d_solver *const *solvers, int count,
                                                 const double *angles, int *bad);
/* Every solver's pole from xy (x, y pairs), for the solvers that have a
** pole (the others' entries are not read), as ik2d_solvers_set_tip_angles. */
IK2D_API ik2d_status ik2d_solvers_set_poles(ik2d_solver *const *solvers, int count,
                                            const double *xy, int *bad);

/* ------------------------------------------------------------------ */
/* Skeleton: bones in a tree, each with a parent (an earlier bone, or   */
/* the base), an origin in its parent's bone space, a length (0 for a   */
/* pivot), a rest angle, limits and an inherit mode.  Like a chain it   */
/* keeps a pose and a result, and the world transform of every bone.    */
/* Chains over its paths (ik2d_skeleton_chain_init) are real chains:    */
/* every solver works on them, and a solve writes the skeleton back.    */
/* ------------------------------------------------------------------ */
typedef struct ik2d_skeleton ik2d_skeleton;

/* generated from lua/ik2d/api.lua by make gen: enum inherit */
/* What a skeleton bone takes from its parent. */
typedef enum ik2d_inherit {
  IK2D_INHERIT_ALL = 0, /* the parent's position and rotation */
  /* its position only: the bone's angle is relative to the skeleton's base */
  IK2D_INHERIT_POSITION,
  /* its position, and its scale along its direction and across it: the bone's
  ** angle is relative to the skeleton's base, no shear or reflection of the
  ** parent's is taken */
  IK2D_INHERIT_NO_ROTATION_OR_REFLECTION,
  /* its position, rotation and reflection, not its scale or shear */
  IK2D_INHERIT_NO_SCALE,
  /* its position and rotation, not its scale, shear or reflection */
  IK2D_INHERIT_NO_SCALE_OR_REFLECTION
} ik2d_inherit;
/* end generated */

/* generated from lua/ik2d/api.lua by make gen: skeleton defs */
/* A skeleton's bone: by default a root bone at the base's origin, a pivot,
** free. */
typedef struct ik2d_skeleton_bone_def {
  /* >= 0 and finite; 0: a pivot; 0 */
  double length;
  /* rest local angle; 0 */
  double rest;
  /* else the origin, in the parent's bone space (+x along the bone); 0 */
  double x;
  /* as x; 0 */
  double y;
  /* the bone's scale along its x axis (negative: a reflection); 1 */
  double scale_x;
  /* the bone's scale along its y axis; 1 */
  double scale_y;
  /* radians the x axis turns past the bone's angle; 0 */
  double shear_x;
  /* radians the y axis turns past a quarter turn from the angle; 0 */
  double shear_y;
  /* NULL: free; not owned */
  const ik2d_constraint *constraint;
  /* an earlier bone, or -1: the base; -1 */
  int parent;
  /* what the bone takes from its parent; all */
  ik2d_inherit inherit;
  /* the origin is the parent's tip (the base for -1), and follows its length;
  ** true */
  bool at_tip;
} ik2d_skeleton_bone_def;

/* A skeleton bone's local transform, as its pose or its result holds it: its
** translation in its parent's bone space, its rotation, scale and shear
** (radians). */
typedef struct ik2d_bone_local {
  /* the origin in the parent's bone space (+x along the bone); 0 */
  double x;
  /* as x; 0 */
  double y;
  /* the rotation; 0 */
  double angle;
  /* scale along the x axis (negative: a reflection); 1 */
  double scale_x;
  /* scale along the y axis; 1 */
  double scale_y;
  /* the x axis' turn past the rotation; 0 */
  double shear_x;
  /* the y axis' turn past a quarter turn from the rotation; 0 */
  double shear_y;
} ik2d_bone_local;

/* A skeleton: its bones, parents first, its base and its scale. */
typedef struct ik2d_skeleton_def {
  /* parents first */
  const ik2d_skeleton_bone_def *bones;
  /* the base in world space; 0 */
  double x;
  /* the base in world space; 0 */
  double y;
  /* the base's direction in world space; 0 */
  double angle;
  /* the skeleton's scale x, under its base (-1: mirrored); 1 */
  double scale_x;
  /* the skeleton's scale y, under its base (-1: a y-up rig on a y-down
  ** screen); 1 */
  double scale_y;
  /* 1..IK2D_MAX_SKELETON_BONES; 0 */
  int bone_count;
  /* mirrored about x = base x; false */
  bool flip;
} ik2d_skeleton_def;
/* end generated */

/* A root bone at the base's origin: parent -1, length 0, rest 0, at the
** parent's tip, inheriting all, free. */
IK2D_API ik2d_skeleton_bone_def ik2d_default_skeleton_bone_def(void);
/* No bones, base at the origin, angle 0, not flipped. */
IK2D_API ik2d_skeleton_def ik2d_default_skeleton_def(void);
/* Bytes for a skeleton of bone_count bones; 0 outside
** 1..IK2D_MAX_SKELETON_BONES. */
IK2D_API size_t ik2d_skeleton_size(int bone_count);
/* Pose and result start at the rest angles.  For a bad bone, *bad (if
** not NULL) gets its index. */
IK2D_API ik2d_status ik2d_skeleton_init(ik2d_skeleton *skeleton, size_t size,
                                        const ik2d_skeleton_def *def, int *bad);
/* Detaches every chain and solver made on the skeleton (they keep their
** last values and no longer follow it); call it before the skeleton's
** memory goes.  The skeleton is not to be used afterwards. */
IK2D_API void ik2d_skeleton_release(ik2d_skeleton *skeleton);

IK2D_API int ik2d_skeleton_bone_count(const ik2d_skeleton *skeleton);
/* Base and flip, as for chains: flipped, the whole skeleton is mirrored
** about the vertical line through the base. */
IK2D_API ik2d_status ik2d_skeleton_set_base(ik2d_skeleton *skeleton, double x,
                                            double y, double angle);
IK2D_API void ik2d_skeleton_base(const ik2d_skeleton *skeleton, double *x,
                                 double *y, double *angle);
/* Every skeleton's base from xya (x, y, angle, skeleton after
** skeleton), all checked before any is written; for a bad one, *bad (if
** not NULL) gets its index.  NULL entries are skipped. */
IK2D_API ik2d_status ik2d_skeletons_set_bases(ik2d_skeleton *const *skeletons, int count,
                                              const double *xya, int *bad);
IK2D_API ik2d_status ik2d_skeletons_check_bases(ik2d_skeleton *const *skeletons, int count,
                                                const double *xya, int *bad);
IK2D_API ik2d_status ik2d_skeleton_set_flip(ik2d_skeleton *skeleton, bool flip);
IK2D_API bool ik2d_skeleton_flip(const ik2d_skeleton *skeleton);
/* The animated local angle of bone i; the result shows it until the
** next solve. */
IK2D_API ik2d_status ik2d_skeleton_set_pose(ik2d_skeleton *skeleton, int i,
                                            double angle);
/* Bone i's length (>= 0: bones whose origin is its tip follow; a chain
** whose path has a pivot where two_bone ran falls back to ccd) and rest
** angle (limits follow, as for chains); every chain over it follows. */
IK2D_API ik2d_status ik2d_skeleton_set_length(ik2d_skeleton *skeleton, int i,
                                              double length);
IK2D_API ik2d_status ik2d_skeleton_set_rest(ik2d_skeleton *skeleton, int i,
                                            double angle);
/* Shares constraint (NULL removes it); the skeleton does not own it. */
IK2D_API ik2d_status ik2d_skeleton_set_constraint(ik2d_skeleton *skeleton, int i,
                                                  const ik2d_constraint *constraint);
/* ------------------------------------------------------------------ */
/* Transform constraint: bones of a skeleton take a target bone's       */
/* rotation, translation, scale and shear by mixes, with offsets, in    */
/* world or local space, absolute or relative (Spine's).  The skeleton  */
/* applies it in its order (ik2d_skeleton_set_order), the general bone  */
/* model's way (the skeleton turns general).                            */
/* ------------------------------------------------------------------ */
typedef struct ik2d_transform_constraint ik2d_transform_constraint;

/* generated from lua/ik2d/api.lua by make gen: transform_constraint def */
/* A transform constraint's bones, target, mixes and offsets. */
typedef struct ik2d_transform_constraint_def {
  /* bone_count bones of the skeleton, each once (read when the def is given,
  ** not kept) */
  const int *bones;
  /* how much of the target's rotation the bones take: 0 none, 1 all; 1 */
  double mix_rotate;
  /* how much of the target's x translation the bones take: 0 none, 1 all; 1 */
  double mix_x;
  /* how much of the target's y translation the bones take: 0 none, 1 all; 1 */
  double mix_y;
  /* how much of the target's x scale the bones take: 0 none, 1 all; 1 */
  double mix_scale_x;
  /* how much of the target's y scale the bones take: 0 none, 1 all; 1 */
  double mix_scale_y;
  /* how much of the target's y shear the bones take: 0 none, 1 all; 1 */
  double mix_shear_y;
  /* radians added to the target's rotation; 0 */
  double offset_rotation;
  /* added to the target's x (in its space, world mode); 0 */
  double offset_x;
  /* added to the target's y; 0 */
  double offset_y;
  /* added to the target's x scale; 0 */
  double offset_scale_x;
  /* added to the target's y scale; 0 */
  double offset_scale_y;
  /* radians added to the target's y shear; 0 */
  double offset_shear_y;
  /* 1..IK2D_MAX_SKELETON_BONES; 0 */
  int bone_count;
  /* the bone they follow, not one of them; 0 */
  int target;
  /* local transforms (the parents' own), not world ones; false */
  bool local_space;
  /* the target's transform added to the bones', not taken by them; false */
  bool relative;
} ik2d_transform_constraint_def;
/* end generated */

IK2D_API ik2d_transform_constraint_def ik2d_default_transform_constraint_def(void);
/* Bytes for a constraint of bone_count bones (0 outside
** 1..IK2D_MAX_SKELETON_BONES). */
IK2D_API size_t ik2d_transform_constraint_size(int bone_count);
/* Checked and joined to its skeleton's constraints, last. */
IK2D_API ik2d_status ik2d_transform_constraint_init(ik2d_transform_constraint *constraint,
                                                   size_t size, ik2d_skeleton *skeleton,
                                                   const ik2d_transform_constraint_def *def);
/* Leaves its skeleton (and its order); call it before the memory goes. */
IK2D_API void ik2d_transform_constraint_release(ik2d_transform_constraint *constraint);
/* Every setting at once (the bones and the target too), all checked
** before any is kept; the bone count is the constraint's own. */
IK2D_API ik2d_status ik2d_transform_constraint_set_def(ik2d_transform_constraint *constraint,
                                                      const ik2d_transform_constraint_def *def);
/* Its settings; bones points into the constraint's own memory. */
IK2D_API ik2d_transform_constraint_def ik2d_transform_constraint_get_def(
    const ik2d_transform_constraint *constraint);
IK2D_API ik2d_skeleton *ik2d_transform_constraint_skeleton(
    const ik2d_transform_constraint *constraint);
/* Applied now, as the skeleton's solve applies it in its order: the
** bones moved and the bones below placed again. */
IK2D_API void ik2d_transform_constraint_apply(ik2d_transform_constraint *constraint);

/* generated from lua/ik2d/api.lua by make gen: transform_constraint setters */
/* One setting each, or the fields set as one (an x and a y). Each is checked
** as ik2d_transform_constraint_set_def checks it, with the rules that read
** it, then kept. */
IK2D_API ik2d_status ik2d_transform_constraint_set_mix_rotate(ik2d_transform_constraint *transform_constraint,
                                                              double mix_rotate);
IK2D_API ik2d_status ik2d_transform_constraint_set_mix_x(ik2d_transform_constraint *transform_constraint,
                                                         double mix_x);
IK2D_API ik2d_status ik2d_transform_constraint_set_mix_y(ik2d_transform_constraint *transform_constraint,
                                                         double mix_y);
IK2D_API ik2d_status ik2d_transform_constraint_set_mix_scale_x(ik2d_transform_constraint *transform_constraint,
                                                               double mix_scale_x);
IK2D_API ik2d_status ik2d_transform_constraint_set_mix_scale_y(ik2d_transform_constraint *transform_constraint,
                                                               double mix_scale_y);
IK2D_API ik2d_status ik2d_transform_constraint_set_mix_shear_y(ik2d_transform_constraint *transform_constraint,
                                                               double mix_shear_y);
IK2D_API ik2d_status ik2d_transform_constraint_set_offset_rotation(ik2d_transform_constraint *transform_constraint,
                                                                   double offset_rotation);
IK2D_API ik2d_status ik2d_transform_constraint_set_offset_x(ik2d_transform_constraint *transform_constraint,
                                                            double offset_x);
IK2D_API ik2d_status ik2d_transform_constraint_set_offset_y(ik2d_transform_constraint *transform_constraint,
                                                            double offset_y);
IK2D_API ik2d_status ik2d_transform_constraint_set_offset_scale_x(ik2d_transform_constraint *transform_constraint,
                                                                  double offset_scale_x);
IK2D_API ik2d_status ik2d_transform_constraint_set_offset_scale_y(ik2d_transform_constraint *transform_constraint,
                                                                  double offset_scale_y);
IK2D_API ik2d_status ik2d_transform_constraint_set_offset_shear_y(ik2d_transform_constraint *transform_constraint,
                                                                  double offset_shear_y);
IK2D_API ik2d_status ik2d_transform_constraint_set_local(ik2d_transform_constraint *transform_constraint,
                                                         bool local_space);
IK2D_API ik2d_status ik2d_transform_constraint_set_relative(ik2d_transform_constraint *transform_constraint,
                                                            bool relative);
/* end generated */

/* A step of a skeleton's order: a solver or a transform constraint. */
typedef struct ik2d_step {
  ik2d_solver *solver;
  ik2d_transform_constraint *constraint;
} ik2d_step;

/* The order ik2d_skeleton_solve runs its solvers and transform
** constraints in, each reading what the ones before it left (Spine's
** constraint order); the solvers not in it then run as they would
** without one.  count 0 (steps may be NULL) clears it.  Each step is a
** solver on one of the skeleton's chains or one of its constraints, once;
** for a bad one, *bad (if not NULL) gets its index.  A solver or
** constraint released leaves the order. */
IK2D_API ik2d_status ik2d_skeleton_set_order(ik2d_skeleton *skeleton, const ik2d_step *steps,
                                             int count, int *bad);
/* The order's steps into steps (at most max), returns how many it has. */
IK2D_API int ik2d_skeleton_order(const ik2d_skeleton *skeleton, ik2d_step *steps, int max);
/* Its transform constraints, in the order made, into constraints (at most
** max); returns how many it has. */
IK2D_API int ik2d_skeleton_transform_constraints(const ik2d_skeleton *skeleton,
                                                 ik2d_transform_constraint **constraints, int max);

/* Pose and result back to the set-up (rest angles, set-up translations,
** scales and shears). */
IK2D_API void ik2d_skeleton_reset(ik2d_skeleton *skeleton);

/* The bone model (scale, shear, inherit modes beyond all and position, a
** skeleton scale): the whole animated local transform of bone i, checked
** (ik2d_bone_local's check) and shown by the result until the next solve;
** a value the bone has already changes nothing. */
IK2D_API ik2d_bone_local ik2d_default_bone_local(void);
IK2D_API ik2d_status ik2d_skeleton_set_pose_local(ik2d_skeleton *skeleton, int i,
                                                  const ik2d_bone_local *local);
/* Bone i's animated, result and set-up local transforms. */
IK2D_API ik2d_status ik2d_skeleton_pose_local(const ik2d_skeleton *skeleton, int i,
                                              ik2d_bone_local *local);
IK2D_API ik2d_status ik2d_skeleton_result_local(const ik2d_skeleton *skeleton, int i,
                                                ik2d_bone_local *local);
IK2D_API ik2d_status ik2d_skeleton_setup_local(const ik2d_skeleton *skeleton, int i,
                                               ik2d_bone_local *local);
/* The skeleton's scale, under its base: (1, -1) shows a y-up rig on a
** y-down screen, (-1, 1) mirrors it (as a flip does). */
IK2D_API ik2d_status ik2d_skeleton_set_scale(ik2d_skeleton *skeleton, double sx, double sy);
IK2D_API void ik2d_skeleton_scale(const ik2d_skeleton *skeleton, double *sx, double *sy);
/* Whether the skeleton places its bones by the general bone model (a
** bone or the skeleton was given a scale, shear, translation or inherit
** mode the rigid way cannot place; it stays so). */
IK2D_API bool ik2d_skeleton_general(const ik2d_skeleton *skeleton);
/* Bone i's world map as drawn, 6 doubles: a, b, c, d, x, y (x axis (a, c),
** y axis (b, d), origin (x, y)), as Spine's bone has it. */
IK2D_API ik2d_status ik2d_skeleton_matrix(const ik2d_skeleton *skeleton, int i, double *m);
/* Every bone's, 6 doubles a bone in bone order, made now into the
** skeleton's memory (the same pointer for its life, made again by each
** call). */
IK2D_API const double *ik2d_skeleton_matrices(ik2d_skeleton *skeleton);

/* Per-bone reads; IK2D_ERR_INDEX (nothing written) outside 0..count-1. */
IK2D_API ik2d_status ik2d_skeleton_parent(const ik2d_skeleton *skeleton, int i,
                                          int *parent);
IK2D_API ik2d_status ik2d_skeleton_pose(const ik2d_skeleton *skeleton, int i,
                                        double *angle);
/* The result's local angle. */
IK2D_API ik2d_status ik2d_skeleton_angle(const ik2d_skeleton *skeleton, int i,
                                         double *angle);
IK2D_API ik2d_status ik2d_skeleton_length(const ik2d_skeleton *skeleton, int i,
                                          double *length);
IK2D_API ik2d_status ik2d_skeleton_rest(const ik2d_skeleton *skeleton, int i,
                                        double *angle);
IK2D_API ik2d_status ik2d_skeleton_constraint(const ik2d_skeleton *skeleton, int i,
                                              const ik2d_constraint **constraint);
IK2D_API ik2d_status ik2d_skeleton_inherit(const ik2d_skeleton *skeleton, int i,
                                           ik2d_inherit *inherit);
/* The origin in the parent's bone space (the parent's tip when at_tip). */
IK2D_API ik2d_status ik2d_skeleton_origin(const ik2d_skeleton *skeleton, int i,
                                          double *x, double *y);
/* Whether the origin is the parent's tip (at_tip: it follows the parent's
** length), not a point given in the parent's space. */
IK2D_API ik2d_status ik2d_skeleton_at_tip(const ik2d_skeleton *skeleton, int i, bool *at_tip);
/* Bone i in the result, in world space (mirrored when flipped): its
** origin and world direction, and its tip. */
IK2D_API ik2d_status ik2d_skeleton_world(const ik2d_skeleton *skeleton, int i,
                                         double *x, double *y, double *angle);
IK2D_API ik2d_status ik2d_skeleton_tip(const ik2d_skeleton *skeleton, int i,
                                       double *x, double *y);
/* The point (x, y) of bone i's space in the result, in world space: as
** the bone is drawn (its scale and shear with it, mirrored when flipped),
** the point a target on the bone at (x, y) reaches; the bone's origin
** where that point is beyond the doubles. */
IK2D_API ik2d_status ik2d_skeleton_point(const ik2d_skeleton *skeleton, int i, double x,
                                         double y, double *world_x, double *world_y);
/* Every bone's world transform as 5 doubles (origin x, y, world angle,
** tip x, y), bone after bone, kept up to date by every call that changes
** the result; the same pointer for the skeleton's life. */
IK2D_API const double *ik2d_skeleton_transforms(const ik2d_skeleton *skeleton);

/* The chain over the path from bone from down to bone to: its size (the
** number of bones on the path is ik2d_skeleton_path), and its
** initialisation.  A bone on the path whose path child starts at s = (x,
** y) in its space is a chain bone of length |s|, its angles shifted by
** the direction of s (none for origins at the tips); the chain's base is
** from's origin, its angle from's parent's world direction (the
** skeleton's base angle for a bone inheriting position only, which may
** only start a chain).  For a bad path, *bad (if not NULL) gets the bone
** at fault. */
IK2D_API ik2d_status ik2d_skeleton_path(const ik2d_skeleton *skeleton, int from,
                                        int to, int *bone_count, int *bad);
IK2D_API size_t ik2d_skeleton_chain_size(int bone_count);
IK2D_API ik2d_status ik2d_skeleton_chain_init(ik2d_chain *chain, size_t size,
                                              ik2d_skeleton *skeleton, int from,
                                              int to, int *bad);
/* The skeleton a chain is a path of, and its first and last bones; NULL
** (nothing written) for a standalone or released chain. */
IK2D_API ik2d_skeleton *ik2d_chain_skeleton(const ik2d_chain *chain, int *from,
                                            int *to);
/* The skeleton bone of a skeleton chain's bone i. */
IK2D_API ik2d_status ik2d_skeleton_chain_bone(const ik2d_chain *chain, int i, int *bone);
/* Unlinks a skeleton chain, and every solver on it, from the skeleton
** (no-op for others): call before their memory goes.  Such a chain or
** solver is not to be used afterwards. */
IK2D_API void ik2d_chain_release(ik2d_chain *chain);
IK2D_API void ik2d_solver_release(ik2d_solver *solver);

/* Solves every solver on the skeleton's chains and updates every bone's
** world transform.  A solver whose chain lies below another's bones runs
** after it, and so does one whose target is on a bone another's solve
** moves (ik2d_solver_set_target_bone); solvers with together whose chains
** share bones are solved together, over all their effectors weighted by
** weight x priority, a target on a bone the group moves moving with it,
** and each keeps its own result; a solver with together = false runs
** after the coupled solve of the bones it shares.  Returns how many
** reached, or -1, solving nothing, when two solvers (or units) each
** target a bone the other moves outside a coupled solve
** (ik2d_skeleton_cycle names them). */
IK2D_API int ik2d_skeleton_solve(ik2d_skeleton *skeleton);
/* ik2d_skeleton_set_base, then ik2d_skeleton_solve, in one call: the
** same bits and the same state after, without placing the bones and
** pulling the chains for the new base before the solve places them
** again.  A bad base: its status, nothing changed; a cycle
** (ik2d_skeleton_solve's -1): IK2D_ERR_TARGET_CYCLE, the base set and
** nothing solved; else IK2D_OK and *reached (if not NULL) how many
** reached. */
IK2D_API ik2d_status ik2d_skeleton_solve_at(ik2d_skeleton *skeleton, double x, double y,
                                            double angle, int *reached);
/* Each skeleton of the list solved as ik2d_skeleton_solve solves it, one
** after another in list order, or, with bases (x, y, angle a skeleton),
** as ik2d_skeleton_solve_at: the same bits and the same state after.
** Skeletons there once each, none of whose solvers reads another's bones
** (a target on one), are solved a step at a time together, each in its
** own order, the plain CCD solves of a step (ik2d_solvers_solve's) through
** the lanes: the limbs of a crowd built from one rig side by side.  NULL
** entries are skipped; a skeleton whose solve refuses (a cycle) solves
** nothing (with bases: its base set) and adds nothing.  IK2D_OK and
** *reached (if not NULL) how many solvers reached; a bad base: its
** status, *bad (if not NULL) its index, nothing changed. */
IK2D_API ik2d_status ik2d_skeletons_solve(ik2d_skeleton *const *skeletons, int count,
                                          const double *bases, int *reached, int *bad);
/* The same with the given instruction set, as ik2d_solvers_solve_isa. */
IK2D_API ik2d_status ik2d_skeletons_solve_isa(ik2d_skeleton *const *skeletons, int count,
                                              const double *bases, int *reached, int *bad,
                                              ik2d_isa isa);
/* IK2D_ERR_TARGET_CYCLE when ik2d_skeleton_solve refuses: *a (if not
** NULL) gets a solver whose target is on a bone that *b's solve moves,
** while *a's unit must run before *b's (through other solvers, maybe);
** else IK2D_OK, nothing written. */
IK2D_API ik2d_status ik2d_skeleton_cycle(const ik2d_skeleton *skeleton, ik2d_solver **a,
                                         ik2d_solver **b);
/* The solvers on the skeleton's chains in the order they were made: up
** to max of them into solvers; returns how many there are. */
IK2D_API int ik2d_skeleton_solvers(const ik2d_skeleton *skeleton,
                                   ik2d_solver **solvers, int max);

/* A target on a bone: the point (dx, dy) of bone's space (x along the
** bone from its origin, y across; mirrored with a flipped skeleton, as
** the bone is drawn) in the skeleton's result, read where the bone is
** whenever the target is: at each solve of the solver, by
** ik2d_solver_target and ik2d_solver_result's distance.  The skeleton
** may be the solver's chain's own or another; it must outlive the
** target (clear it, or set a world target, before its memory goes).
** ik2d_skeleton_solve orders its solvers so that one whose target is on
** a bone another's solve moves runs after it, or solves them together
** with the target moving with the bones (a back hand on a rifle the
** front hand holds); another skeleton's bone, or a plain chain's target,
** is read where that skeleton is when the solver solves (solve that
** skeleton first).  IK2D_ERR_INDEX for a bone outside the skeleton,
** IK2D_ERR_TARGET_X or _Y for dx or dy not finite, IK2D_ERR_TARGET_CYCLE
** when the solver is on the skeleton and this target would make a cycle
** with the solver *other (if not NULL) names (ik2d_skeleton_cycle);
** nothing changes then.  ik2d_solver_set_target sets a world target
** again. */
IK2D_API ik2d_status ik2d_solver_set_target_bone(ik2d_solver *solver, ik2d_skeleton *skeleton,
                                                 int bone, double dx, double dy,
                                                 ik2d_solver **other);
/* Back to a world target: where the bone's point is now (nothing for a
** solver without a bone target); where that point is not finite (its
** skeleton beyond the doubles), the chain's tip, as before a first
** target.  The skeleton is let go either way. */
IK2D_API void ik2d_solver_clear_target_bone(ik2d_solver *solver);
/* The bone the target is on, -1 for a world target; its skeleton, dx
** and dy into the outputs that are not NULL (nothing written for -1). */
IK2D_API int ik2d_solver_target_bone(const ik2d_solver *solver, ik2d_skeleton **skeleton,
                                     double *dx, double *dy);
/* Spring: secondary motion (tails, hair, capes, antennae).  The bones  */
/* of its chain swing like a chain of damped torsional springs: each    */
/* joint pulls its bone toward its neutral local angle, and its parent  */
/* the other way; so a bone lags in world space when its neutral angle, */
/* its parent or the base turns or the base runs, jumps and stops,      */
/* swings back, hangs under gravity and bends with the wind, all inside */
/* its limits and out of the spring's colliders.  Joint i's spring is   */
/* its bone's stiffness times the number of bones from it to the tip    */
/* (the bones it carries), so every joint bends alike under a load on   */
/* every bone.  The neutral angle of bone i (where its joint's spring   */
/* is slack) is the chain's result angle as the spring finds it at an   */
/* update: the pose, or what a solver wrote since (so a spring updated  */
/* after a solve lags behind the IK); while nothing but the spring      */
/* writes the result, it stays the last one seen.  Each update writes   */
/* the result                                                           */
/*   result = neutral + weight * delta(spring - neutral)                */
/* as a solve does, and its joints.  src/ik2d_spring.c derives the      */
/* model.                                                               */
/* ------------------------------------------------------------------ */
typedef struct ik2d_spring ik2d_spring;

/* generated from lua/ik2d/api.lua by make gen: spring def */
/* A spring's settings. */
typedef struct ik2d_spring_def {
  /* >= 0: the last joint's spring, torque per radian of its bone's turn from
  ** its neutral angle; joint i of n has (n - i) times it; 100 */
  double stiffness;
  /* >= 0: torque per rad/s of every bone's turning through the air (air
  ** drag), which also drags it along with the air moving past it (wind, the
  ** base's motion); 10 */
  double damping;
  /* > 0: every bone's inertia. One bone alone swings at sqrt(stiffness /
  ** mass) rad/s with a damping ratio damping / (2 sqrt(stiffness mass)); 1 */
  double mass;
  /* world acceleration at each bone's tip (px/s^2, y down in LOVE): a bone of
  ** length L alone swings like a pendulum, g / L rad/s^2 toward g; 0 */
  double gravity_x;
  /* see gravity_x; 0 */
  double gravity_y;
  /* the air's world velocity (px/s): each bone's tip is dragged by damping
  ** toward moving with it (the base's own motion counts against it); 0 */
  double wind_x;
  /* see wind_x; 0 */
  double wind_y;
  /* clamped to [0, 1], NaN refused; 1 */
  double weight;
  /* NULL: stiffness for every bone; else one per bone of the chain, base
  ** first (read when the def is given, not kept) */
  const double *stiffness_per_bone;
  /* NULL: damping for every bone; else one per bone, as stiffness_per_bone */
  const double *damping_per_bone;
  /* NULL: mass for every bone; else one per bone, as stiffness_per_bone */
  const double *mass_per_bone;
} ik2d_spring_def;
/* end generated */

/* generated from lua/ik2d/api.lua by make gen: enum collider_shape */
/* A spring's collider's shape. */
typedef enum ik2d_collider_shape {
  IK2D_CIRCLE = 0, /* a disc no joint enters */
  IK2D_SEGMENT /* a wall no bone crosses */
} ik2d_collider_shape;
/* end generated */

/* generated from lua/ik2d/api.lua by make gen: collider def */
/* A spring's collider in world space: a circle (x, y, radius) no joint
** enters, or a segment (x1, y1)-(x2, y2) no bone crosses. */
typedef struct ik2d_collider {
  /* a circle's centre; 0 */
  double x;
  /* a circle's centre; 0 */
  double y;
  /* a circle's radius, >= 0; 0 */
  double radius;
  /* a segment's first end; 0 */
  double x1;
  /* a segment's first end; 0 */
  double y1;
  /* a segment's second end; 0 */
  double x2;
  /* a segment's second end; 0 */
  double y2;
  /* circle or segment; circle */
  ik2d_collider_shape shape;
} ik2d_collider;
/* end generated */

/* The defaults above. */
IK2D_API ik2d_spring_def ik2d_default_spring_def(void);
/* Bytes for a spring of a chain of bone_count bones; 0 outside
** 1..IK2D_MAX_BONES. */
IK2D_API size_t ik2d_spring_size(int bone_count);
/* A spring on chain (which must outlive it), at rest on the chain's
** result as it is. */
IK2D_API ik2d_status ik2d_spring_init(ik2d_spring *spring, size_t size,
                                      ik2d_chain *chain, const ik2d_spring_def *def);
IK2D_API ik2d_chain *ik2d_spring_chain(const ik2d_spring *spring);
/* Every setting at once, all checked before any is kept; the motion goes
** on from where it is. */
IK2D_API ik2d_status ik2d_spring_set_def(ik2d_spring *spring, const ik2d_spring_def *def);
/* The settings now (a default def for NULL). */
IK2D_API ik2d_spring_def ik2d_spring_get_def(const ik2d_spring *spring);
/* generated from lua/ik2d/api.lua by make gen: spring setters */
/* One setting each, or the fields set as one (an x and a y). Each is checked
** as ik2d_spring_set_def checks it, with the rules that read it, then kept. */
IK2D_API ik2d_status ik2d_spring_set_gravity(ik2d_spring *spring, double gravity_x,
                                             double gravity_y);
IK2D_API ik2d_status ik2d_spring_set_wind(ik2d_spring *spring, double wind_x,
                                          double wind_y);
IK2D_API ik2d_status ik2d_spring_set_weight(ik2d_spring *spring, double weight);
/* end generated */
/* Defaults: a circle at the origin of radius 0. */
IK2D_API ik2d_collider ik2d_default_collider(void);
/* IK2D_OK, or the status of what is wrong with collider. */
IK2D_API ik2d_status ik2d_collider_check(const ik2d_collider *collider);
/* The spring's colliders, world space (copied; count 0 clears them):
** none of its joints enters a circle, none of its bones crosses a
** segment (a bone found inside goes back out the way it came in, its
** turning into the collider stopped; a limit wins over a collider).
** All checked before any is kept: IK2D_ERR_COLLIDERS for a count above
** IK2D_MAX_COLLIDERS, else the first bad collider's status. */
IK2D_API ik2d_status ik2d_spring_set_colliders(ik2d_spring *spring,
                                               const ik2d_collider *colliders, int count);
/* Up to max of the spring's colliders into colliders (may be NULL for
** max 0); returns how many it has. */
IK2D_API int ik2d_spring_colliders(const ik2d_spring *spring, ik2d_collider *colliders,
                                   int max);
/* Advances the motion by dt seconds (>= 0; inf is the longest step
** below) and writes the chain's result.  The same motion at any frame
** rate: substeps of at most 1/720 s (whole ones at 24..360 Hz frames),
** each integrated exactly for the linear damped oscillator with its
** forcing held over it; a neutral or base angle that changes frame
** after frame moves linearly between its samples, one that changes after a
** frame without change jumps at the frame's start; the base's position
** moves linearly between the samples of the updates with dt > 0 (its
** velocity jumps at a frame's start: the bones feel that as an impulse),
** and an update with dt = 0 takes its move as a jump (a teleport: the
** base keeps its speed).
** Stable for any dt and any stiffness: at most 64 substeps of at most
** 1 s each (a longer frame is a hitch, not time to catch up), and where
** a substep is long for the chain's fastest rate (Lambda h^2 > 1/4, see
** src/ik2d_spring.c) the chain goes by backward Euler, which never adds
** energy and lands at rest on the equilibrium as the step grows (a frame
** of 100 s ends at rest); no bone turns faster than 720 pi rad/s.
** IK2D_ERR_DT, changing nothing, for a negative or NaN dt. */
IK2D_API ik2d_status ik2d_spring_update(ik2d_spring *spring, double dt);
/* At rest: every bone at its neutral angle, no velocity; writes the
** result. */
IK2D_API void ik2d_spring_reset(ik2d_spring *spring);
/* The angular velocity of bone i in rad/s, in the sense of
** ik2d_chain_world_angle (mirrored when flipped). */
IK2D_API ik2d_status ik2d_spring_velocity(const ik2d_spring *spring, int i,
                                          double *velocity);

/* ------------------------------------------------------------------ */
/* Slots: what a rig draws.  Each slot follows a bone of a skeleton and */
/* shows one attachment (an index into the rig's attachments) or none,  */
/* with a colour (and a dark colour for a two-colour tint) and a blend; */
/* the slots draw in an order; an attachment may be deformed (offsets   */
/* added to its vertices).  The set-up is kept to go back to.           */
/* ------------------------------------------------------------------ */
typedef struct ik2d_slots ik2d_slots;

/* generated from lua/ik2d/api.lua by make gen: enum blend */
/* How a slot's attachment blends with what is behind it. */
typedef enum ik2d_blend {
  IK2D_BLEND_NORMAL = 0,
  IK2D_BLEND_ADDITIVE,
  IK2D_BLEND_MULTIPLY,
  IK2D_BLEND_SCREEN
} ik2d_blend;
/* end generated */

typedef struct ik2d_slot_def {
  int bone;              /* the skeleton bone it follows */
  int attachment;        /* its set-up attachment, -1: none */
  double color[4];       /* r, g, b, a, each in [0, 1] */
  double dark[3];        /* the dark colour (two-colour tint), with has_dark */
  ik2d_blend blend;
  bool has_dark;
} ik2d_slot_def;

/* generated from lua/ik2d/api.lua by make gen: enum attachment_kind */
/* What an attachment draws. */
typedef enum ik2d_attachment_kind {
  IK2D_ATTACHMENT_REGION = 0, /* an image's rectangle on one bone: 4 vertices */
  IK2D_ATTACHMENT_MESH, /* triangles on one bone, or weighted on several */
  /* nothing drawn (a point, a bounding box, a clipping or path attachment) */
  IK2D_ATTACHMENT_HIDDEN
} ik2d_attachment_kind;
/* end generated */

/* An attachment: a region (4 vertices: bottom-left, top-left, top-right,
** bottom-right, in its bone's space, worked out from the image's place)
** or a mesh, on its slot's bone (vertices, 2 a vertex) or weighted on
** several (weights: per vertex n, then n times a 0-based bone, x, y in
** that bone's space and a weight); its uvs (2 a vertex), its triangles
** (0-based, 3 a triangle), its colour.  A mesh's deform offsets (2 a
** vertex, or 2 a weight entry when weighted) are added to its vertices
** before they are placed; a linked mesh takes another's (deform: that
** attachment's index). */
typedef struct ik2d_attachment_def {
  ik2d_attachment_kind kind;
  int vertex_count;
  const double *vertices;      /* NULL for a weighted mesh */
  int weight_count;            /* the doubles of weights */
  const double *weights;       /* NULL for a region or unweighted mesh */
  const double *uvs;
  int triangle_count;
  const int *triangles;
  double color[4];
  int deform;                  /* the attachment whose offsets it takes: itself,
                                  another (a linked mesh), or -1: none */
} ik2d_attachment_def;

typedef struct ik2d_slots_def {
  const ik2d_skeleton *skeleton;
  int slot_count;                         /* 1..IK2D_MAX_SLOTS */
  const ik2d_slot_def *slots;             /* in set-up drawing order */
  int attachment_count;                   /* >= 0 */
  const ik2d_attachment_def *attachments; /* what slots show, by index */
} ik2d_slots_def;

/* Bytes for slots of def (0 for a def ik2d_slots_init would refuse for
** its counts). */
IK2D_API size_t ik2d_slots_size(const ik2d_slots_def *def);
/* Checked (bones of the skeleton, attachments in range, colours finite);
** for a bad slot, *bad (if not NULL) gets its index. */
IK2D_API ik2d_status ik2d_slots_init(ik2d_slots *slots, size_t size, const ik2d_slots_def *def,
                                     int *bad);
/* Back to the set-up: attachments, colours, drawing order, no deform. */
IK2D_API void ik2d_slots_to_setup(ik2d_slots *slots);
IK2D_API int ik2d_slots_count(const ik2d_slots *slots);
IK2D_API int ik2d_slots_attachment_count(const ik2d_slots *slots);
/* Slot i's attachment (-1: none), colour, dark colour (false: none). */
IK2D_API int ik2d_slots_attachment(const ik2d_slots *slots, int i);
IK2D_API ik2d_status ik2d_slots_set_attachment(ik2d_slots *slots, int i, int attachment);
IK2D_API ik2d_status ik2d_slots_color(const ik2d_slots *slots, int i, double *rgba);
IK2D_API ik2d_status ik2d_slots_set_color(ik2d_slots *slots, int i, const double *rgba);
IK2D_API bool ik2d_slots_dark(const ik2d_slots *slots, int i, double *rgb);
/* The slots in drawing order (slot_count indices, first drawn first). */
IK2D_API const int *ik2d_slots_draw_order(const ik2d_slots *slots);
/* Attachment a's deform offsets (NULL for one not deformed) and their
** count. */
IK2D_API const double *ik2d_slots_deform(const ik2d_slots *slots, int attachment, int *count);
/* Slot i's colour times its attachment's (what a renderer tints with). */
IK2D_API ik2d_status ik2d_slots_tint(const ik2d_slots *slots, int i, double *rgba);
/* The world vertices (x, y pairs, as drawn) of what slot i shows on the
** skeleton now: a region's 4 or a mesh's, its deform added; how many
** vertices (0: nothing drawn), written when they fit in max doubles. */
IK2D_API int ik2d_slots_vertices(const ik2d_slots *slots, ik2d_skeleton *skeleton, int i,
                                 double *out, int max);
/* Every drawn slot's, in drawing order, one after another into out (room
** for max doubles): drawn[k] (room for the slot count) gets the k-th drawn
** slot; returns how many slots drew (-1 when out is too small). */
IK2D_API int ik2d_slots_all_vertices(const ik2d_slots *slots, ik2d_skeleton *skeleton,
                                     double *out, int max, int *drawn);

/* ------------------------------------------------------------------ */
/* Clips: keyed timelines on a rig's bones, solvers, transform           */
/* constraints and slots, played at a time (seconds).  Between keys a    */
/* curve: linear, stepped, or a line through points (absolute time and   */
/* value): readers turn their formats' curves into points the way their   */
/* runtimes sample them.                                                  */
/* ------------------------------------------------------------------ */
typedef struct ik2d_clip ik2d_clip;

/* generated from lua/ik2d/api.lua by make gen: enum channel */
/* What a clip's timeline keys: a bone's local transform (rotate, shear and x,
** y added to the set-up's, scale multiplied with it), a solver's or a
** transform constraint's settings, a slot's attachment and colours, the draw
** order, an attachment's deform. */
typedef enum ik2d_channel {
  IK2D_CHANNEL_ROTATE = 0,
  IK2D_CHANNEL_X,
  IK2D_CHANNEL_Y,
  IK2D_CHANNEL_SCALE_X,
  IK2D_CHANNEL_SCALE_Y,
  IK2D_CHANNEL_SHEAR_X,
  IK2D_CHANNEL_SHEAR_Y,
  IK2D_CHANNEL_INHERIT, /* stepped: an ik2d_inherit */
  IK2D_CHANNEL_WEIGHT,
  IK2D_CHANNEL_SOFTNESS,
  IK2D_CHANNEL_BEND, /* stepped */
  IK2D_CHANNEL_COMPRESS, /* stepped */
  IK2D_CHANNEL_STRETCH, /* stepped */
  IK2D_CHANNEL_MIX_ROTATE,
  IK2D_CHANNEL_MIX_X,
  IK2D_CHANNEL_MIX_Y,
  IK2D_CHANNEL_MIX_SCALE_X,
  IK2D_CHANNEL_MIX_SCALE_Y,
  IK2D_CHANNEL_MIX_SHEAR_Y,
  IK2D_CHANNEL_ATTACHMENT, /* stepped: an attachment's index, -1 none */
  IK2D_CHANNEL_COLOR, /* 4 channels: r, g, b, a */
  IK2D_CHANNEL_RGB, /* 3 channels */
  IK2D_CHANNEL_ALPHA,
  IK2D_CHANNEL_DARK, /* 3 channels: the dark colour of a two-colour tint */
  /* stepped: a key's values are every slot's index in drawing order */
  IK2D_CHANNEL_DRAW_ORDER,
  /* a key's values are an attachment's vertex offsets; its curve gives the
  ** share */
  IK2D_CHANNEL_DEFORM
} ik2d_channel;
/* end generated */

/* What a clip plays on; solvers and constraints are indexed by a
** timeline's target, so is the skeleton's bones, the slots and their
** attachments. */
typedef struct ik2d_rig_targets {
  ik2d_skeleton *skeleton;
  int solver_count;
  ik2d_solver *const *solvers;
  int constraint_count;
  ik2d_transform_constraint *const *constraints;
  ik2d_slots *slots;                 /* NULL: none */
} ik2d_rig_targets;

/* A timeline: key_count keys, each a time and its values (1 for most
** channels, 4 for color, 3 for rgb and dark, the slot count for
** draw_order, the deform size for deform); between a key and the next,
** curves[k]: 0 linear, 1 stepped, 2 a line through points, each of the
** channel's values (a deform's share from 0 to 1) with point_counts[k *
** values_per_curve + c] (t, v) pairs taken in order from points. */
typedef struct ik2d_timeline_def {
  ik2d_channel channel;
  int target;                     /* bone, solver, constraint, slot or
                                     attachment (deform); unused for
                                     draw_order */
  int key_count;                  /* >= 1 */
  const double *times;            /* increasing (seconds) */
  const double *values;
  const unsigned char *curves;    /* NULL: every key linear */
  const int *point_counts;        /* NULL: no points */
  const double *points;
} ik2d_timeline_def;

typedef struct ik2d_clip_def {
  double duration;                /* seconds, >= 0 */
  int timeline_count;
  const ik2d_timeline_def *timelines;
} ik2d_clip_def;

/* Bytes for a clip of def on targets (0 for a def ik2d_clip_init would
** refuse). */
IK2D_API size_t ik2d_clip_size(const ik2d_clip_def *def, const ik2d_rig_targets *targets);
/* The clip's own copy of def, checked against targets (each target in
** range, keys in order, values finite and valid for their channel, curves
** and points well formed); for a bad timeline, *bad gets its index. */
IK2D_API ik2d_status ik2d_clip_init(ik2d_clip *clip, size_t size, const ik2d_clip_def *def,
                                    const ik2d_rig_targets *targets, int *bad);
IK2D_API double ik2d_clip_duration(const ik2d_clip *clip);
/* The clip at time (seconds, not looped) on targets, each keyed value
** taken by alpha from what it is now (1: the key's; a rotation the short
** way; attachments, draw order and stepped settings switch at alpha >=
** 0.5).  A bone's key is relative to its set-up (rotation, shear and
** translation added, scale multiplied); a timeline before its first key
** leaves its target.  The skeleton's bones are placed at its next solve
** (a pose set by a clip is deferred, as ik2d_skeleton_solve_at's base). */
IK2D_API ik2d_status ik2d_clip_apply(const ik2d_clip *clip, const ik2d_rig_targets *targets,
                                     double time, double alpha);
/* The skeleton's bones (pose and result) and the slots back to their
** set-up, as ik2d_skeleton_reset and ik2d_slots_to_setup, the bones placed
** at the skeleton's next solve as after ik2d_clip_apply: a frame that
** plays clips over the set-up places the bones at its solve alone. */
IK2D_API ik2d_status ik2d_rig_targets_to_setup(const ik2d_rig_targets *targets);

#ifdef __cplusplus
}
#endif

#endif
