/*
** ik2d: 2D inverse kinematics (CCD, FABRIK, two-bone) for games.
** The core has no Lua dependency, no global state and allocates nothing:
** the caller owns every struct.  Angles are radians; bone indices are
** 0-based here (the Lua binding is 1-based).
*/
#ifndef IK2D_H
#define IK2D_H

#define IK2D_VERSION "0.1.0"

/* The public functions stay visible in the Lua module's .so (built with
** -fvisibility=hidden) so that LuaJIT's FFI can call them directly. */
#if defined(__GNUC__)
#define IK2D_API __attribute__((visibility("default")))
#else
#define IK2D_API
#endif

#define IK2D_MAX_BONES 64

typedef enum ik2d_status {
  IK2D_OK = 0,
  IK2D_ERR_NULL,        /* a pointer argument is NULL */
  IK2D_ERR_BONE_COUNT,  /* bone count outside 1..IK2D_MAX_BONES */
  IK2D_ERR_LENGTH,      /* bone length not finite or <= 0 */
  IK2D_ERR_ANGLE,       /* angle not finite */
  IK2D_ERR_POSITION,    /* coordinate not finite */
  IK2D_ERR_LIMITS,      /* min > max (a limit that is not finite: ANGLE) */
  IK2D_ERR_INDEX,       /* bone index out of range */
  IK2D_ERR_ITERATIONS,  /* iterations < 1 */
  IK2D_ERR_TOLERANCE,   /* tolerance negative or not finite */
  IK2D_ERR_WEIGHT,      /* weight is NaN */
  IK2D_ERR_METHOD,      /* unknown method, or two_bone on a chain that is not 2 bones */
  IK2D_ERR_OPTION       /* damping / softness / bend out of range */
} ik2d_status;

/* A short English description of a status, e.g. "length must be > 0". */
IK2D_API const char *ik2d_status_message(ik2d_status status);

/* ------------------------------------------------------------------ */
/* Constraint: limits of a bone's local angle, relative to its rest    */
/* angle, measured in the parent bone's space (so they follow parents). */
/* One constraint may be shared by many bones and chains.               */
/* ------------------------------------------------------------------ */
typedef struct ik2d_constraint {
  double min, max;   /* as given, radians relative to the rest angle */
  int invert;        /* 1: the allowed range is outside [min, max] */
  /* derived by ik2d_constraint_set: the allowed arc as mid +- half */
  int full;          /* the arc covers the whole circle: no limit */
  double mid, half;
  double mid_cos, mid_sin, half_cos, half_sin;
} ik2d_constraint;

/* min <= max, both finite; a range of 2*pi or more (or an inverted empty
** one) allows every angle.  Fails without touching c on bad input. */
IK2D_API ik2d_status ik2d_constraint_set(ik2d_constraint *c, double min, double max,
                                int invert);

/* The allowed local delta (angle - rest) nearest to delta, in the frame
** centred on the range, so wrap-around never breaks a limit. */
IK2D_API double ik2d_constraint_clamp(const ik2d_constraint *c, double delta);

/* ------------------------------------------------------------------ */
/* Chain                                                                */
/* ------------------------------------------------------------------ */
typedef struct ik2d_chain {
  int count;                               /* bones, 1..IK2D_MAX_BONES */
  int flip;                                /* mirrored about x = base_x */
  double base_x, base_y, base_angle;
  double base_cos, base_sin;               /* of base_angle, for solves */
  double reach;                            /* sum of lengths (at rest) */
  double scale;                            /* result scale of every bone:
                                              1, or > 1 when a two-bone
                                              solve with stretch stretched
                                              the limb; joints use
                                              length[i] * scale */
  double length[IK2D_MAX_BONES];
  double rest[IK2D_MAX_BONES];             /* rest local angle */
  double rest_cos[IK2D_MAX_BONES];         /* of rest, for limits in solves */
  double rest_sin[IK2D_MAX_BONES];
  double pose[IK2D_MAX_BONES];             /* animated (input) local angle */
  double angle[IK2D_MAX_BONES];            /* result local angle */
  const ik2d_constraint *constraint[IK2D_MAX_BONES]; /* NULL: free */
  /* result joint positions in world space, 0 = base, count = tip;
  ** kept up to date by every call that changes the result */
  double joint_x[IK2D_MAX_BONES + 1];
  double joint_y[IK2D_MAX_BONES + 1];
} ik2d_chain;

/* count bones with the given lengths and rest angles (rest may be NULL:
** all zero).  Pose and result start at the rest angles, no constraints. */
IK2D_API ik2d_status ik2d_chain_init(ik2d_chain *chain, int count,
                            const double *lengths, const double *rests);
IK2D_API ik2d_status ik2d_chain_set_base(ik2d_chain *chain, double x, double y,
                                double angle);
IK2D_API ik2d_status ik2d_chain_set_flip(ik2d_chain *chain, int flip);
/* Writes the animated angle of bone i; the result shows the pose until
** the next solve. */
IK2D_API ik2d_status ik2d_chain_set_pose(ik2d_chain *chain, int i, double angle);
/* Shares c (may be NULL to remove); the chain does not own it. */
IK2D_API ik2d_status ik2d_chain_set_constraint(ik2d_chain *chain, int i,
                                      const ik2d_constraint *c);
/* Pose and result back to the rest angles (scale 1). */
IK2D_API void ik2d_chain_reset(ik2d_chain *chain);
/* World direction of bone i in the result pose (mirrored when flipped). */
IK2D_API double ik2d_chain_world_angle(const ik2d_chain *chain, int i);
/* Recomputes joint_x/joint_y from base, result angles and scale. */
IK2D_API void ik2d_chain_update_joints(ik2d_chain *chain);

/* ------------------------------------------------------------------ */
/* Solver                                                               */
/* ------------------------------------------------------------------ */
typedef enum ik2d_method {
  IK2D_CCD = 0,
  IK2D_FABRIK,
  IK2D_TWO_BONE
} ik2d_method;

/* CCD sweep order: root to tip (default: fewer iterations from cold
** starts, measured in bench/quality.c) or tip to root (textbook). */
#define IK2D_SWEEP_ROOT 0
#define IK2D_SWEEP_TIP 1

typedef struct ik2d_solver {
  ik2d_chain *chain;
  ik2d_method method;
  int iterations;          /* >= 1, default 10 */
  double tolerance;        /* >= 0, default 0.01 */
  double weight;           /* [0, 1], default 1 */
  double target_x, target_y;
  double damping;          /* CCD: largest turn per joint update, radians;
                              0 = none (default) */
  int warm_start;          /* 1 (default): start from the previous IK
                              solution; 0: from the animated pose */
  int bend;                /* two-bone: +1 or -1 */
  double softness;         /* two-bone: ease-in distance before full reach */
  double stretch;          /* two-bone: largest bone scale toward a target
                              beyond reach; 1 = no stretch (default) */
  int exact;               /* CCD: 1 (default): each iteration first tries
                              the exact two-joint step (law of cosines on
                              the best pair of joints); 0: sweeps only */
  int sweep;               /* CCD sweep order: IK2D_SWEEP_ROOT (default)
                              or IK2D_SWEEP_TIP (textbook CCD) */
  /* warm-start state: the last IK solution as unit complex rotations */
  int have_solution;
  double solution_cos[IK2D_MAX_BONES];
  double solution_sin[IK2D_MAX_BONES];
  double solution_angle[IK2D_MAX_BONES]; /* their angles, in [-pi, pi] */
  double damping_cos, damping_sin;
  /* outcome of the last solve */
  int reached;
  double distance;
  int used_iterations;
  int joint_updates;       /* CCD turns of single joints in the last solve */
} ik2d_solver;

/* Defaults as above; the target starts at the chain's current tip. */
IK2D_API ik2d_status ik2d_solver_init(ik2d_solver *solver, ik2d_chain *chain);
IK2D_API ik2d_status ik2d_solver_set_method(ik2d_solver *solver, ik2d_method method);
IK2D_API ik2d_status ik2d_solver_set_target(ik2d_solver *solver, double x, double y);
/* Clamped to [0, 1]; NaN is an error. */
IK2D_API ik2d_status ik2d_solver_set_weight(ik2d_solver *solver, double weight);
IK2D_API ik2d_status ik2d_solver_set_iterations(ik2d_solver *solver, int iterations);
IK2D_API ik2d_status ik2d_solver_set_tolerance(ik2d_solver *solver, double tolerance);
IK2D_API ik2d_status ik2d_solver_set_damping(ik2d_solver *solver, double damping);
IK2D_API ik2d_status ik2d_solver_set_bend(ik2d_solver *solver, int bend);
IK2D_API ik2d_status ik2d_solver_set_softness(ik2d_solver *solver, double softness);
/* >= 1 and finite (IK2D_ERR_OPTION otherwise); only method two_bone. */
IK2D_API ik2d_status ik2d_solver_set_stretch(ik2d_solver *solver, double stretch);
/* Forget the warm-start state: the next solve starts from the pose. */
IK2D_API void ik2d_solver_forget(ik2d_solver *solver);

/* Solves and writes the chain's result angles and joints:
** result = pose + weight * delta(ik - pose), and chain->scale =
** 1 + weight * (k - 1) for a two-bone stretch k.  Returns 1 if the result
** tip is within tolerance of the target; distance and used_iterations
** are stored in the solver. */
IK2D_API int ik2d_solver_solve(ik2d_solver *solver);

/* Solves count solvers (each as ik2d_solver_solve would, with the same
** results) and returns how many reached their targets.  NULL entries are
** skipped. */
IK2D_API int ik2d_solve_batch(ik2d_solver *const *solvers, int count);

#endif
