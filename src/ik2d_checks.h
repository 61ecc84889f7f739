/* generated from lua/ik2d/api.lua by make gen: src/ik2d_checks.h */
/*
** ik2d_checks.h: each field's check, as lua/ik2d/api.lua describes it:
** IK2D_OK for a value the field takes, else the status that refuses it.
** The checks of whole defs and the setters (each in its object's file,
** generated too) call them, and so do the group setters.
*/
#ifndef IK2D_CHECKS_H
#define IK2D_CHECKS_H

#include <math.h>

#include "ik2d.h"
#include "ik2d_math.h"

/* ik2d_constraint_def's min: finite */
static inline ik2d_status ik2d__constraint_check_min(double min) {
  return isfinite(min) ? IK2D_OK : IK2D_ERR_MIN;
}

/* ik2d_constraint_def's max: finite */
static inline ik2d_status ik2d__constraint_check_max(double max) {
  return isfinite(max) ? IK2D_OK : IK2D_ERR_MAX;
}

/* ik2d_constraint_def's min: within [-2 pi, 2 pi] (larger ones are degrees by
** mistake) */
static inline ik2d_status ik2d__constraint_check_min_in_radians(double min) {
  return min >= -IK2D_TWO_PI && min <= IK2D_TWO_PI ? IK2D_OK : IK2D_ERR_MIN_DEGREES;
}

/* ik2d_constraint_def's max: within [-2 pi, 2 pi] (larger ones are degrees by
** mistake) */
static inline ik2d_status ik2d__constraint_check_max_in_radians(double max) {
  return max >= -IK2D_TWO_PI && max <= IK2D_TWO_PI ? IK2D_OK : IK2D_ERR_MAX_DEGREES;
}

/* ik2d_constraint_def's space: one of ik2d_space's choices */
static inline ik2d_status ik2d__constraint_check_space(ik2d_space space) {
  if (space == IK2D_SPACE_PARENT || space == IK2D_SPACE_WORLD)
    return IK2D_OK;
  return IK2D_ERR_SPACE;
}

/* ik2d_bone_def's length: finite, > 0 */
static inline ik2d_status ik2d__bone_check_length(double length) {
  return isfinite(length) && length > 0.0 ? IK2D_OK : IK2D_ERR_LENGTH;
}

/* ik2d_bone_def's rest: finite */
static inline ik2d_status ik2d__bone_check_rest(double rest) {
  return isfinite(rest) ? IK2D_OK : IK2D_ERR_REST;
}

/* ik2d_chain_def's bone_count: within [1, IK2D_MAX_BONES] */
static inline ik2d_status ik2d__chain_check_bone_count(int bone_count) {
  return bone_count >= 1 && bone_count <= IK2D_MAX_BONES ? IK2D_OK : IK2D_ERR_BONE_COUNT;
}

/* ik2d_chain_def's x: finite */
static inline ik2d_status ik2d__chain_check_x(double x) {
  return isfinite(x) ? IK2D_OK : IK2D_ERR_BASE_X;
}

/* ik2d_chain_def's y: finite */
static inline ik2d_status ik2d__chain_check_y(double y) {
  return isfinite(y) ? IK2D_OK : IK2D_ERR_BASE_Y;
}

/* ik2d_chain_def's angle: finite */
static inline ik2d_status ik2d__chain_check_angle(double angle) {
  return isfinite(angle) ? IK2D_OK : IK2D_ERR_BASE_ANGLE;
}

/* ik2d_solver_def's method: one of ik2d_method's choices */
static inline ik2d_status ik2d__solver_check_method(ik2d_method method) {
  if (method == IK2D_CCD || method == IK2D_FABRIK || method == IK2D_TWO_BONE ||
      method == IK2D_FOLLOW)
    return IK2D_OK;
  return IK2D_ERR_METHOD;
}

/* ik2d_solver_def's iterations: >= 1 */
static inline ik2d_status ik2d__solver_check_iterations(int iterations) {
  return iterations >= 1 ? IK2D_OK : IK2D_ERR_ITERATIONS;
}

/* ik2d_solver_def's tolerance: finite, >= 0 */
static inline ik2d_status ik2d__solver_check_tolerance(double tolerance) {
  return isfinite(tolerance) && tolerance >= 0.0 ? IK2D_OK : IK2D_ERR_TOLERANCE;
}

/* ik2d_solver_def's weight: not NaN (any other number is kept, clamped) */
static inline ik2d_status ik2d__solver_check_weight(double weight) {
  return !isnan(weight) ? IK2D_OK : IK2D_ERR_WEIGHT;
}

/* ik2d_solver_def's ccd.damping: finite, >= 0 */
static inline ik2d_status ik2d__solver_check_damping(double damping) {
  return isfinite(damping) && damping >= 0.0 ? IK2D_OK : IK2D_ERR_DAMPING;
}

/* ik2d_solver_def's ccd.sweep: one of ik2d_sweep's choices */
static inline ik2d_status ik2d__solver_check_sweep(ik2d_sweep sweep) {
  return sweep == IK2D_SWEEP_ROOT || sweep == IK2D_SWEEP_TIP ? IK2D_OK : IK2D_ERR_SWEEP;
}

/* ik2d_solver_def's two_bone.bend: 1 or -1 */
static inline ik2d_status ik2d__solver_check_bend(int bend) {
  return bend == 1 || bend == -1 ? IK2D_OK : IK2D_ERR_BEND;
}

/* ik2d_solver_def's two_bone.softness: finite, >= 0 */
static inline ik2d_status ik2d__solver_check_softness(double softness) {
  return isfinite(softness) && softness >= 0.0 ? IK2D_OK : IK2D_ERR_SOFTNESS;
}

/* ik2d_solver_def's two_bone.softness_curve: one of ik2d_softness_curve's
** choices */
static inline ik2d_status ik2d__solver_check_softness_curve(ik2d_softness_curve value) {
  if (value == IK2D_SOFTNESS_SMOOTH || value == IK2D_SOFTNESS_SPINE)
    return IK2D_OK;
  return IK2D_ERR_SOFTNESS_CURVE;
}

/* ik2d_solver_def's two_bone.stretch: >= 1 */
static inline ik2d_status ik2d__solver_check_stretch(double stretch) {
  return stretch >= 1.0 ? IK2D_OK : IK2D_ERR_STRETCH;
}

/* ik2d_solver_def's two_bone.compress: within [0, 1] */
static inline ik2d_status ik2d__solver_check_compress(double compress) {
  return compress >= 0.0 && compress <= 1.0 ? IK2D_OK : IK2D_ERR_COMPRESS;
}

/* ik2d_solver_def's tip.angle: finite (checked while tip is on) */
static inline ik2d_status ik2d__solver_check_tip_angle(double angle) {
  return isfinite(angle) ? IK2D_OK : IK2D_ERR_TIP_ANGLE;
}

/* ik2d_solver_def's tip.weight: within [0, 1] */
static inline ik2d_status ik2d__solver_check_tip_weight(double weight) {
  return weight >= 0.0 && weight <= 1.0 ? IK2D_OK : IK2D_ERR_TIP_WEIGHT;
}

/* ik2d_solver_def's pole.x: finite (checked while pole is on) */
static inline ik2d_status ik2d__solver_check_pole_x(double x) {
  return isfinite(x) ? IK2D_OK : IK2D_ERR_POLE_X;
}

/* ik2d_solver_def's pole.y: finite (checked while pole is on) */
static inline ik2d_status ik2d__solver_check_pole_y(double y) {
  return isfinite(y) ? IK2D_OK : IK2D_ERR_POLE_Y;
}

/* ik2d_solver_def's effector.priority: finite, >= 0 */
static inline ik2d_status ik2d__solver_check_priority(double priority) {
  return isfinite(priority) && priority >= 0.0 ? IK2D_OK : IK2D_ERR_PRIORITY;
}

/* ik2d_solver_def's aim.x: finite (checked while aim is on) */
static inline ik2d_status ik2d__solver_check_aim_x(double x) {
  return isfinite(x) ? IK2D_OK : IK2D_ERR_AIM_X;
}

/* ik2d_solver_def's aim.y: finite (checked while aim is on) */
static inline ik2d_status ik2d__solver_check_aim_y(double y) {
  return isfinite(y) ? IK2D_OK : IK2D_ERR_AIM_Y;
}

/* ik2d_solver_def's aim.angle: finite (checked while aim is on) */
static inline ik2d_status ik2d__solver_check_aim_angle(double angle) {
  return isfinite(angle) ? IK2D_OK : IK2D_ERR_AIM_ANGLE;
}

/* ik2d_spring_def's stiffness: finite, >= 0 */
static inline ik2d_status ik2d__spring_check_stiffness(double stiffness) {
  return isfinite(stiffness) && stiffness >= 0.0 ? IK2D_OK : IK2D_ERR_SPRING_STIFFNESS;
}

/* ik2d_spring_def's damping: finite, >= 0 */
static inline ik2d_status ik2d__spring_check_damping(double damping) {
  return isfinite(damping) && damping >= 0.0 ? IK2D_OK : IK2D_ERR_SPRING_DAMPING;
}

/* ik2d_spring_def's mass: finite, > 0 */
static inline ik2d_status ik2d__spring_check_mass(double mass) {
  return isfinite(mass) && mass > 0.0 ? IK2D_OK : IK2D_ERR_SPRING_MASS;
}

/* ik2d_spring_def's weight: not NaN (any other number is kept, clamped) */
static inline ik2d_status ik2d__spring_check_weight(double weight) {
  return !isnan(weight) ? IK2D_OK : IK2D_ERR_WEIGHT;
}

/* ik2d_spring_def's gravity_x: finite */
static inline ik2d_status ik2d__spring_check_gravity_x(double gravity_x) {
  return isfinite(gravity_x) ? IK2D_OK : IK2D_ERR_GRAVITY_X;
}

/* ik2d_spring_def's gravity_y: finite */
static inline ik2d_status ik2d__spring_check_gravity_y(double gravity_y) {
  return isfinite(gravity_y) ? IK2D_OK : IK2D_ERR_GRAVITY_Y;
}

/* ik2d_spring_def's wind_x: finite */
static inline ik2d_status ik2d__spring_check_wind_x(double wind_x) {
  return isfinite(wind_x) ? IK2D_OK : IK2D_ERR_WIND_X;
}

/* ik2d_spring_def's wind_y: finite */
static inline ik2d_status ik2d__spring_check_wind_y(double wind_y) {
  return isfinite(wind_y) ? IK2D_OK : IK2D_ERR_WIND_Y;
}

/* ik2d_collider's shape: one of ik2d_collider_shape's choices */
static inline ik2d_status ik2d__collider_check_shape(ik2d_collider_shape shape) {
  if (shape == IK2D_CIRCLE || shape == IK2D_SEGMENT)
    return IK2D_OK;
  return IK2D_ERR_COLLIDER_SHAPE;
}

/* ik2d_collider's x: finite (checked while shape is circle) */
static inline ik2d_status ik2d__collider_check_x(double x) {
  return isfinite(x) ? IK2D_OK : IK2D_ERR_CIRCLE_X;
}

/* ik2d_collider's y: finite (checked while shape is circle) */
static inline ik2d_status ik2d__collider_check_y(double y) {
  return isfinite(y) ? IK2D_OK : IK2D_ERR_CIRCLE_Y;
}

/* ik2d_collider's radius: finite, >= 0 (checked while shape is circle) */
static inline ik2d_status ik2d__collider_check_radius(double radius) {
  return isfinite(radius) && radius >= 0.0 ? IK2D_OK : IK2D_ERR_CIRCLE_RADIUS;
}

/* ik2d_collider's x1: finite (checked while shape is segment) */
static inline ik2d_status ik2d__collider_check_x1(double x1) {
  return isfinite(x1) ? IK2D_OK : IK2D_ERR_SEGMENT_X1;
}

/* ik2d_collider's y1: finite (checked while shape is segment) */
static inline ik2d_status ik2d__collider_check_y1(double y1) {
  return isfinite(y1) ? IK2D_OK : IK2D_ERR_SEGMENT_Y1;
}

/* ik2d_collider's x2: finite (checked while shape is segment) */
static inline ik2d_status ik2d__collider_check_x2(double x2) {
  return isfinite(x2) ? IK2D_OK : IK2D_ERR_SEGMENT_X2;
}

/* ik2d_collider's y2: finite (checked while shape is segment) */
static inline ik2d_status ik2d__collider_check_y2(double y2) {
  return isfinite(y2) ? IK2D_OK : IK2D_ERR_SEGMENT_Y2;
}

/* ik2d_skeleton_bone_def's length: finite, >= 0 */
static inline ik2d_status ik2d__skeleton_bone_check_length(double length) {
  return isfinite(length) && length >= 0.0 ? IK2D_OK : IK2D_ERR_PIVOT_LENGTH;
}

/* ik2d_skeleton_bone_def's rest: finite */
static inline ik2d_status ik2d__skeleton_bone_check_rest(double rest) {
  return isfinite(rest) ? IK2D_OK : IK2D_ERR_REST;
}

/* ik2d_skeleton_bone_def's x: finite (checked while at_tip is off) */
static inline ik2d_status ik2d__skeleton_bone_check_x(double x) {
  return isfinite(x) ? IK2D_OK : IK2D_ERR_ORIGIN_X;
}

/* ik2d_skeleton_bone_def's y: finite (checked while at_tip is off) */
static inline ik2d_status ik2d__skeleton_bone_check_y(double y) {
  return isfinite(y) ? IK2D_OK : IK2D_ERR_ORIGIN_Y;
}

/* ik2d_skeleton_bone_def's inherit: one of ik2d_inherit's choices */
static inline ik2d_status ik2d__skeleton_bone_check_inherit(ik2d_inherit inherit) {
  if (inherit == IK2D_INHERIT_ALL || inherit == IK2D_INHERIT_POSITION)
    return IK2D_OK;
  return IK2D_ERR_INHERIT;
}

/* ik2d_skeleton_def's bone_count: within [1, IK2D_MAX_SKELETON_BONES] */
static inline ik2d_status ik2d__skeleton_check_bone_count(int bone_count) {
  if (bone_count >= 1 && bone_count <= IK2D_MAX_SKELETON_BONES)
    return IK2D_OK;
  return IK2D_ERR_SKELETON_BONES;
}

/* ik2d_skeleton_def's x: finite */
static inline ik2d_status ik2d__skeleton_check_x(double x) {
  return isfinite(x) ? IK2D_OK : IK2D_ERR_BASE_X;
}

/* ik2d_skeleton_def's y: finite */
static inline ik2d_status ik2d__skeleton_check_y(double y) {
  return isfinite(y) ? IK2D_OK : IK2D_ERR_BASE_Y;
}

/* ik2d_skeleton_def's angle: finite */
static inline ik2d_status ik2d__skeleton_check_angle(double angle) {
  return isfinite(angle) ? IK2D_OK : IK2D_ERR_BASE_ANGLE;
}

#endif
