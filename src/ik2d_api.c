/* generated from lua/ik2d/api.lua by make gen: src/ik2d_api.c */
/*
** ik2d_api.c: the words of every status and the default defs, as
** lua/ik2d/api.lua describes them.  Edit that file, then make gen.
*/
/* the core's floating-point rules, as in every source of the core */
#include "ik2d_fp.h"

#include <math.h>
#include <string.h>

#include "ik2d.h"

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
    case IK2D_ERR_TWO_BONE:
      return "method two_bone needs a chain of 2 bones of length > 0";
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
    case IK2D_ERR_INHERIT:
      return "inherit must be all, position, no_rotation_or_reflection, no_scale or no_scale_or_reflection";
    case IK2D_ERR_PATH: return "the last bone does not descend from the first";
    case IK2D_ERR_PATH_INHERIT:
      return "a bone that inherits less than all can only start a chain";
    case IK2D_ERR_LINKED:
      return "the chain is a path of a skeleton: edit the skeleton's bones instead";
    case IK2D_ERR_LINKED_STRETCH:
      return "stretch and compress are not available on a skeleton chain";
    case IK2D_ERR_PRIORITY: return "priority must be >= 0 and finite";
    case IK2D_ERR_SKELETON_SOLVERS:
      return "the chain's skeleton already has 256 solvers, the most a skeleton takes";
    case IK2D_ERR_SKELETON_SPACE:
      return "a skeleton's limits are in parent space (inherit = \"position\" keeps a world angle)";
    case IK2D_ERR_LINKED_FOLLOW:
      return "method follow moves the chain's base, which the skeleton owns";
    case IK2D_ERR_SPRING_STIFFNESS: return "stiffness must be >= 0 and finite";
    case IK2D_ERR_SPRING_MASS:
      return "mass must be > 0 and finite, with stiffness / mass and damping / mass finite";
    case IK2D_ERR_GRAVITY_X: return "gravity x must be finite";
    case IK2D_ERR_GRAVITY_Y: return "gravity y must be finite";
    case IK2D_ERR_DT: return "dt must be >= 0 (seconds)";
    case IK2D_ERR_SPRING_DAMPING: return "damping must be >= 0 and finite";
    case IK2D_ERR_TARGET_CYCLE:
      return "the first's target is on a bone the second moves, which must run after it (a cycle): solve them together (chains sharing bones, together = true) or target a world point";
    case IK2D_ERR_WIND_X: return "wind x must be finite";
    case IK2D_ERR_WIND_Y: return "wind y must be finite";
    case IK2D_ERR_COLLIDERS: return "a spring takes at most 16 colliders";
    case IK2D_ERR_COLLIDER_SHAPE: return "shape must be circle or segment";
    case IK2D_ERR_CIRCLE_X: return "circle x must be finite";
    case IK2D_ERR_CIRCLE_Y: return "circle y must be finite";
    case IK2D_ERR_CIRCLE_RADIUS: return "circle radius must be >= 0 and finite";
    case IK2D_ERR_SEGMENT_X1: return "segment x1 must be finite";
    case IK2D_ERR_SEGMENT_Y1: return "segment y1 must be finite";
    case IK2D_ERR_SEGMENT_X2: return "segment x2 must be finite";
    case IK2D_ERR_SEGMENT_Y2: return "segment y2 must be finite";
    case IK2D_ERR_AIM_X: return "aim x must be finite";
    case IK2D_ERR_AIM_Y: return "aim y must be finite";
    case IK2D_ERR_AIM_ANGLE: return "aim angle must be finite";
    case IK2D_ERR_AIM_METHOD: return "aim needs method ccd, fabrik or two_bone";
    case IK2D_ERR_AIM_TIP:
      return "aim and tip angle both orient the last bone: clear one first";
    case IK2D_ERR_SCALE_X: return "scale_x must be non-zero and finite";
    case IK2D_ERR_SCALE_Y: return "scale_y must be non-zero and finite";
    case IK2D_ERR_SHEAR_X: return "shear_x must be finite";
    case IK2D_ERR_SHEAR_Y: return "shear_y must be finite";
    case IK2D_ERR_CONSTRAINT_BONES: return "a transform constraint needs 1 to 256 bones";
    case IK2D_ERR_CONSTRAINT_BONE: return "bone index out of range";
    case IK2D_ERR_CONSTRAINT_TWICE: return "a bone is listed twice";
    case IK2D_ERR_CONSTRAINT_TARGET: return "the target is one of the constrained bones";
    case IK2D_ERR_MIX: return "mix must be finite";
    case IK2D_ERR_OFFSET: return "offset must be finite";
    case IK2D_ERR_SKELETON_CONSTRAINTS:
      return "the skeleton already has 256 transform constraints, the most a skeleton takes";
    case IK2D_ERR_ORDER_STEP:
      return "a step of the order must be a solver or a transform constraint of the skeleton";
    case IK2D_ERR_ORDER_TWICE: return "a solver or constraint is in the order twice";
    case IK2D_ERR_SLOT_COUNT: return "a rig needs 1 to 1024 slots";
    case IK2D_ERR_SLOT_BONE: return "bone index out of range";
    case IK2D_ERR_ATTACHMENT: return "attachment index out of range";
    case IK2D_ERR_COLOR: return "colour must be finite";
    case IK2D_ERR_BLEND: return "blend must be normal, additive, multiply or screen";
    case IK2D_ERR_TIMELINE_TARGET: return "the timeline's target is not in the rig";
    case IK2D_ERR_KEY_COUNT: return "a timeline needs at least one key";
    case IK2D_ERR_KEY_TIME: return "key times must be finite and increasing";
    case IK2D_ERR_KEY_VALUE:
      return "a key value is not finite or not one its channel takes";
    case IK2D_ERR_CURVE:
      return "a curve must be linear, stepped or points in order between its keys";
    case IK2D_ERR_DURATION: return "duration must be >= 0 and finite";
    case IK2D_ERR_TIME: return "time must be finite (seconds)";
    case IK2D_ERR_ALPHA: return "alpha must be within [0, 1]";
    case IK2D_ERR_GEOMETRY:
      return "an attachment's vertices, weights, uvs or triangles are missing, not finite or out of range";
  }
  return "unknown status";
}

/* Every def at its defaults: all zero (a field added later is 0, false or
** NULL), then the fields whose default is not. */

ik2d_constraint_def ik2d_default_constraint_def(void) {
  ik2d_constraint_def def;
  memset(&def, 0, sizeof def);
  def.min = -3.141592653589793;
  def.max = 3.141592653589793;
  def.space = IK2D_SPACE_PARENT;
  return def;
}

ik2d_bone_def ik2d_default_bone_def(void) {
  ik2d_bone_def def;
  memset(&def, 0, sizeof def);
  return def;
}

ik2d_chain_def ik2d_default_chain_def(void) {
  ik2d_chain_def def;
  memset(&def, 0, sizeof def);
  return def;
}

ik2d_solver_def ik2d_default_solver_def(void) {
  ik2d_solver_def def;
  memset(&def, 0, sizeof def);
  def.method = IK2D_CCD;
  def.iterations = 10;
  def.tolerance = 0.01;
  def.weight = 1.0;
  def.warm_start = true;
  def.ccd.exact = true;
  def.ccd.sweep = IK2D_SWEEP_ROOT;
  def.two_bone.bend = 1;
  def.two_bone.softness_curve = IK2D_SOFTNESS_SMOOTH;
  def.two_bone.stretch = 1.0;
  def.two_bone.compress = 1.0;
  def.tip.weight = 1.0;
  def.effector.priority = 1.0;
  def.effector.together = true;
  return def;
}

ik2d_spring_def ik2d_default_spring_def(void) {
  ik2d_spring_def def;
  memset(&def, 0, sizeof def);
  def.stiffness = 100.0;
  def.damping = 10.0;
  def.mass = 1.0;
  def.weight = 1.0;
  return def;
}

ik2d_collider ik2d_default_collider(void) {
  ik2d_collider def;
  memset(&def, 0, sizeof def);
  def.shape = IK2D_CIRCLE;
  return def;
}

ik2d_skeleton_bone_def ik2d_default_skeleton_bone_def(void) {
  ik2d_skeleton_bone_def def;
  memset(&def, 0, sizeof def);
  def.parent = -1;
  def.at_tip = true;
  def.scale_x = 1.0;
  def.scale_y = 1.0;
  def.inherit = IK2D_INHERIT_ALL;
  return def;
}

ik2d_bone_local ik2d_default_bone_local(void) {
  ik2d_bone_local def;
  memset(&def, 0, sizeof def);
  def.scale_x = 1.0;
  def.scale_y = 1.0;
  return def;
}

ik2d_skeleton_def ik2d_default_skeleton_def(void) {
  ik2d_skeleton_def def;
  memset(&def, 0, sizeof def);
  def.scale_x = 1.0;
  def.scale_y = 1.0;
  return def;
}

ik2d_transform_constraint_def ik2d_default_transform_constraint_def(void) {
  ik2d_transform_constraint_def def;
  memset(&def, 0, sizeof def);
  def.mix_rotate = 1.0;
  def.mix_x = 1.0;
  def.mix_y = 1.0;
  def.mix_scale_x = 1.0;
  def.mix_scale_y = 1.0;
  def.mix_shear_y = 1.0;
  return def;
}
