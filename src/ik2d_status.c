/*
** ik2d_status.c: the words for every status the core returns.
*/
#include "ik2d.h"

/* a limit's number in its message, from the constant that sets it */
#define STRING(n) STRING_(n)
#define STRING_(n) #n

const char *ik2d_status_message(ik2d_status status) {
  switch (status) {
    case IK2D_OK: return "ok";
    case IK2D_ERR_NULL: return "missing object";
    case IK2D_ERR_SIZE: return "memory smaller than the object's size";
    case IK2D_ERR_ALIGNMENT: return "memory not aligned for a double";
    case IK2D_ERR_BONE_COUNT: return "a chain needs 1 to 64 bones";
    case IK2D_ERR_LENGTH: return "length must be > 0 and finite";
    case IK2D_ERR_REACH: return "the bone lengths add up beyond the largest number";
    case IK2D_ERR_REST: return "rest angle must be finite";
    case IK2D_ERR_BASE_X: return "base x must be finite";
    case IK2D_ERR_BASE_Y: return "base y must be finite";
    case IK2D_ERR_BASE_ANGLE: return "base angle must be finite";
    case IK2D_ERR_POSE: return "pose angle must be finite";
    case IK2D_ERR_TARGET_X: return "target x must be finite";
    case IK2D_ERR_TARGET_Y: return "target y must be finite";
    case IK2D_ERR_MIN: return "min must be finite";
    case IK2D_ERR_MAX: return "max must be finite";
    case IK2D_ERR_MIN_DEGREES:
      return "min must be within [-2 pi, 2 pi]: limits are radians, not degrees";
    case IK2D_ERR_MAX_DEGREES:
      return "max must be within [-2 pi, 2 pi]: limits are radians, not degrees";
    case IK2D_ERR_LIMIT_ORDER: return "min > max";
    case IK2D_ERR_SPACE: return "space must be parent or world";
    case IK2D_ERR_INDEX: return "index out of range";
    case IK2D_ERR_METHOD: return "method must be ccd, fabrik, two_bone or follow";
    case IK2D_ERR_TWO_BONE: return "method two_bone needs a chain of 2 bones of length > 0";
    case IK2D_ERR_ITERATIONS: return "iterations must be >= 1";
    case IK2D_ERR_TOLERANCE: return "tolerance must be >= 0 and finite";
    case IK2D_ERR_WEIGHT: return "weight must not be nan";
    case IK2D_ERR_DAMPING: return "damping must be >= 0 and finite";
    case IK2D_ERR_BEND: return "bend must be 1 or -1";
    case IK2D_ERR_SOFTNESS: return "softness must be >= 0 and finite";
    case IK2D_ERR_STRETCH: return "stretch must be >= 1";
    case IK2D_ERR_SWEEP: return "sweep must be root or tip";
    case IK2D_ERR_TIP_ANGLE: return "tip angle must be finite";
    case IK2D_ERR_TIP_WEIGHT: return "tip weight must be within [0, 1]";
    case IK2D_ERR_POLE_X: return "pole x must be finite";
    case IK2D_ERR_POLE_Y: return "pole y must be finite";
    case IK2D_ERR_SOFTNESS_CURVE: return "softness curve must be smooth or spine";
    case IK2D_ERR_COMPRESS: return "compress must be within [0, 1]";
    case IK2D_ERR_SKELETON_BONES: return "a skeleton needs 1 to 256 bones";
    case IK2D_ERR_PIVOT_LENGTH: return "length must be >= 0 and finite";
    case IK2D_ERR_PARENT: return "parent must be an earlier bone";
    case IK2D_ERR_ORIGIN_X: return "origin x must be finite";
    case IK2D_ERR_ORIGIN_Y: return "origin y must be finite";
    case IK2D_ERR_INHERIT: return "inherit must be all or position";
    case IK2D_ERR_PATH: return "the last bone does not descend from the first";
    case IK2D_ERR_PATH_INHERIT:
      return "a bone that inherits position only can only start a chain";
    case IK2D_ERR_LINKED:
      return "the chain is a path of a skeleton: edit the skeleton's bones instead";
    case IK2D_ERR_LINKED_STRETCH:
      return "stretch and compress are not available on a skeleton chain";
    case IK2D_ERR_PRIORITY: return "priority must be >= 0 and finite";
    case IK2D_ERR_SKELETON_SOLVERS:
      return "the chain's skeleton already has " STRING(IK2D_MAX_SKELETON_SOLVERS)
             " solvers, the most a skeleton takes";
    case IK2D_ERR_LINKED_FOLLOW:
      return "method follow moves the chain's base, which the skeleton owns";
    case IK2D_ERR_SKELETON_SPACE:
      return "a skeleton's limits are in parent space (inherit = \"position\" keeps a world angle)";
    case IK2D_ERR_STIFFNESS: return "stiffness must be >= 0 and finite";
    case IK2D_ERR_MASS:
      return "mass must be > 0 and finite, with stiffness / mass and damping / mass finite";
    case IK2D_ERR_GRAVITY_X: return "gravity x must be finite";
    case IK2D_ERR_GRAVITY_Y: return "gravity y must be finite";
    case IK2D_ERR_DT: return "dt must be >= 0 (seconds)";
  }
  return "unknown status";
}
