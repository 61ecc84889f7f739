--- ik2d.api: the one description of ik2d's API.
--
-- Everything that more than one file must agree on is said here once:
-- the version and the limits, the statuses and their words, the choices
-- (enums), the defs (the solver's and the spring's settings, a
-- collider, a constraint, a chain and its bones, a skeleton and its
-- bones) with their C fields, types, defaults, checks and the statuses
-- that refuse them, each def's rules across fields, the options and the
-- fields a bone table takes, and the modules.
--
-- `make gen` (src/gen.lua) writes from it the generated regions of
-- src/ik2d.h (with the setters' prototypes), src/ik2d_checks.h (each
-- field's check), each def's check and setters in its object's file,
-- src/ik2d_api.c (the status words and the default defs),
-- src/lua/luaik_api.c/.h (the binding's option tables, the argument a
-- setter's status blames), the rockspec's module lists and docs/api.md's
-- option tables; spec/api_spec.lua fails when one of them is stale.  The
-- pure core and the helpers read this table at load (statuses, options,
-- defaults, checks, the version).
--
-- Plain data only: no functions, so a generator on any Lua reads it.
local api = {}

api.version = "0.3.0"

--- #define IK2D_<name> <value>; `{NAME}` in a status's words is its value
api.constants = {
  { name = "MAX_BONES", value = 64, doc = "the bones of a chain" },
  { name = "MAX_SKELETON_BONES", value = 256, doc = "the bones of a skeleton" },
  { name = "MAX_SKELETON_SOLVERS", value = 256, doc = "the solvers on one skeleton's chains" },
  { name = "MAX_COLLIDERS", value = 16, doc = "the colliders of a spring" },
  { name = "MAX_SLOTS", value = 1024, doc = "the slots of a rig" },
}

--- IK2D_OK, then IK2D_ERR_<name> in this order (their numbers are the
-- C ABI: new ones go last).  `words` is what ik2d_status_message gives
-- and every backend's error says; `doc` the header's comment.
api.statuses = {
  { name = "OK", words = "ok", doc = "done" },
  { name = "NULL", words = "missing object", doc = "a pointer argument is NULL" },
  { name = "SIZE", words = "memory smaller than the object's size",
    doc = "the memory given is smaller than *_size()" },
  { name = "ALIGNMENT", words = "memory not aligned for a double",
    doc = "the memory is not aligned for a double" },
  { name = "BONE_COUNT", words = "a chain needs 1 to {MAX_BONES} bones",
    doc = "bone count outside 1..IK2D_MAX_BONES" },
  { name = "LENGTH", words = "length must be > 0 and finite", doc = "a bone length not finite or <= 0" },
  { name = "REACH", words = "the bone lengths add up beyond the largest number",
    doc = "the lengths are finite but their sum is not" },
  { name = "REST", words = "rest angle must be finite", doc = "a rest angle not finite" },
  { name = "BASE_X", words = "base x must be finite", doc = "the base's x not finite" },
  { name = "BASE_Y", words = "base y must be finite", doc = "the base's y not finite" },
  { name = "BASE_ANGLE", words = "base angle must be finite", doc = "the base's angle not finite" },
  { name = "POSE", words = "pose angle must be finite", doc = "a pose angle not finite" },
  { name = "TARGET_X", words = "target x must be finite", doc = "a target's x not finite" },
  { name = "TARGET_Y", words = "target y must be finite", doc = "a target's y not finite" },
  { name = "MIN", words = "min must be finite", doc = "a limit's min not finite" },
  { name = "MAX", words = "max must be finite", doc = "a limit's max not finite" },
  { name = "MIN_DEGREES", words = "min must be within [-2 pi, 2 pi]: limits are radians, not degrees",
    doc = "|min| > 2 pi: degrees, not radians" },
  { name = "MAX_DEGREES", words = "max must be within [-2 pi, 2 pi]: limits are radians, not degrees",
    doc = "|max| > 2 pi: degrees, not radians" },
  { name = "LIMIT_ORDER", words = "min > max", doc = "min > max" },
  { name = "SPACE", words = "space must be parent or world", doc = "not an ik2d_space" },
  { name = "INDEX", words = "index out of range", doc = "bone index out of range" },
  { name = "METHOD", words = "method must be ccd, fabrik, two_bone or follow", doc = "not an ik2d_method" },
  { name = "TWO_BONE", words = "method two_bone needs a chain of 2 bones of length > 0",
    doc = "method two_bone on a chain that is not 2 bones" },
  { name = "ITERATIONS", words = "iterations must be >= 1", doc = "iterations < 1" },
  { name = "TOLERANCE", words = "tolerance must be >= 0 and finite",
    doc = "tolerance negative or not finite" },
  { name = "WEIGHT", words = "weight must not be nan", doc = "a solver's or spring's weight is NaN" },
  { name = "DAMPING", words = "damping must be >= 0 and finite",
    doc = "a solver's damping (radians) negative or not finite" },
  { name = "BEND", words = "bend must be 1 or -1", doc = "bend not 1 or -1" },
  { name = "SOFTNESS", words = "softness must be >= 0 and finite",
    doc = "softness negative or not finite" },
  { name = "STRETCH", words = "stretch must be >= 1", doc = "stretch below 1 or NaN" },
  { name = "SWEEP", words = "sweep must be root or tip", doc = "not an ik2d_sweep" },
  { name = "TIP_ANGLE", words = "tip angle must be finite", doc = "tip angle not finite" },
  { name = "TIP_WEIGHT", words = "tip weight must be within [0, 1]",
    doc = "tip weight outside [0, 1] or NaN" },
  { name = "POLE_X", words = "pole x must be finite", doc = "a pole's x not finite" },
  { name = "POLE_Y", words = "pole y must be finite", doc = "a pole's y not finite" },
  { name = "SOFTNESS_CURVE", words = "softness curve must be smooth or spine",
    doc = "not an ik2d_softness_curve" },
  { name = "COMPRESS", words = "compress must be within [0, 1]", doc = "compress outside [0, 1]" },
  { name = "SKELETON_BONES", words = "a skeleton needs 1 to {MAX_SKELETON_BONES} bones",
    doc = "bone count outside 1..IK2D_MAX_SKELETON_BONES" },
  { name = "PIVOT_LENGTH", words = "length must be >= 0 and finite",
    doc = "a skeleton bone's length not finite or < 0" },
  { name = "PARENT", words = "parent must be an earlier bone",
    doc = "a parent that is not an earlier bone (or -1)" },
  { name = "ORIGIN_X", words = "origin x must be finite", doc = "a bone origin's x not finite" },
  { name = "ORIGIN_Y", words = "origin y must be finite", doc = "a bone origin's y not finite" },
  { name = "INHERIT",
    words = "inherit must be all, position, no_rotation_or_reflection, no_scale or no_scale_or_reflection",
    doc = "not an ik2d_inherit" },
  { name = "PATH", words = "the last bone does not descend from the first",
    doc = "a chain's last bone does not descend from its first" },
  { name = "PATH_INHERIT", words = "a bone that inherits less than all can only start a chain",
    doc = "a bone inheriting less than all (position only, no scale, ...) inside a chain" },
  { name = "LINKED", words = "the chain is a path of a skeleton: edit the skeleton's bones instead",
    doc = "the chain is a skeleton's path: edit the skeleton" },
  { name = "LINKED_STRETCH", words = "stretch and compress are not available on a skeleton chain",
    doc = "stretch > 1 or compress < 1 on a skeleton chain" },
  { name = "PRIORITY", words = "priority must be >= 0 and finite",
    doc = "priority negative or not finite" },
  { name = "SKELETON_SOLVERS",
    words = "the chain's skeleton already has {MAX_SKELETON_SOLVERS} solvers, the most a skeleton takes",
    doc = "more than IK2D_MAX_SKELETON_SOLVERS solvers" },
  { name = "SKELETON_SPACE",
    words = "a skeleton's limits are in parent space (inherit = \"position\" keeps a world angle)",
    doc = "a world-space limit on a skeleton's bone" },
  { name = "LINKED_FOLLOW", words = "method follow moves the chain's base, which the skeleton owns",
    doc = "method follow on a skeleton chain" },
  { name = "SPRING_STIFFNESS", words = "stiffness must be >= 0 and finite",
    doc = "a spring's stiffness negative or not finite" },
  { name = "SPRING_MASS",
    words = "mass must be > 0 and finite, with stiffness / mass and damping / mass finite",
    doc = "a spring's mass not > 0 and finite, or stiffness or damping over mass beyond the doubles" },
  { name = "GRAVITY_X", words = "gravity x must be finite", doc = "a spring's gravity x not finite" },
  { name = "GRAVITY_Y", words = "gravity y must be finite", doc = "a spring's gravity y not finite" },
  { name = "DT", words = "dt must be >= 0 (seconds)", doc = "a time step negative or NaN" },
  { name = "SPRING_DAMPING", words = "damping must be >= 0 and finite",
    doc = "a spring's damping (torque per rad/s) negative or not finite" },
  { name = "TARGET_CYCLE",
    words = "the first's target is on a bone the second moves, which must run after it (a cycle): "
      .. "solve them together (chains sharing bones, together = true) or target a world point",
    doc = "a solver's target is on a bone that a solver running after it moves (each targeting "
      .. "a bone the other moves, outside a coupled solve)" },
  { name = "WIND_X", words = "wind x must be finite", doc = "a spring's wind x not finite" },
  { name = "WIND_Y", words = "wind y must be finite", doc = "a spring's wind y not finite" },
  { name = "COLLIDERS", words = "a spring takes at most {MAX_COLLIDERS} colliders",
    doc = "more than IK2D_MAX_COLLIDERS colliders" },
  { name = "COLLIDER_SHAPE", words = "shape must be circle or segment", doc = "not an ik2d_collider_shape" },
  { name = "CIRCLE_X", words = "circle x must be finite", doc = "a circle's x not finite" },
  { name = "CIRCLE_Y", words = "circle y must be finite", doc = "a circle's y not finite" },
  { name = "CIRCLE_RADIUS", words = "circle radius must be >= 0 and finite",
    doc = "a circle's radius negative or not finite" },
  { name = "SEGMENT_X1", words = "segment x1 must be finite", doc = "a segment's x1 not finite" },
  { name = "SEGMENT_Y1", words = "segment y1 must be finite", doc = "a segment's y1 not finite" },
  { name = "SEGMENT_X2", words = "segment x2 must be finite", doc = "a segment's x2 not finite" },
  { name = "SEGMENT_Y2", words = "segment y2 must be finite", doc = "a segment's y2 not finite" },
  { name = "AIM_X", words = "aim x must be finite", doc = "an aim's origin x not finite" },
  { name = "AIM_Y", words = "aim y must be finite", doc = "an aim's origin y not finite" },
  { name = "AIM_ANGLE", words = "aim angle must be finite", doc = "an aim's angle not finite" },
  { name = "AIM_METHOD", words = "aim needs method ccd, fabrik or two_bone",
    doc = "an aim with method follow" },
  { name = "AIM_TIP", words = "aim and tip angle both orient the last bone: clear one first",
    doc = "an aim and a tip angle together" },
  { name = "SCALE_X", words = "scale_x must be non-zero and finite",
    doc = "a bone's or skeleton's scale x zero or not finite" },
  { name = "SCALE_Y", words = "scale_y must be non-zero and finite",
    doc = "a bone's or skeleton's scale y zero or not finite" },
  { name = "SHEAR_X", words = "shear_x must be finite", doc = "a bone's shear x not finite" },
  { name = "SHEAR_Y", words = "shear_y must be finite", doc = "a bone's shear y not finite" },
  { name = "CONSTRAINT_BONES", words = "a transform constraint needs 1 to {MAX_SKELETON_BONES} bones",
    doc = "a transform constraint's bone count outside 1..IK2D_MAX_SKELETON_BONES" },
  { name = "CONSTRAINT_BONE", words = "bone index out of range",
    doc = "a transform constraint's bone or target not a bone of its skeleton" },
  { name = "CONSTRAINT_TWICE", words = "a bone is listed twice",
    doc = "a transform constraint's bone listed twice" },
  { name = "CONSTRAINT_TARGET", words = "the target is one of the constrained bones",
    doc = "a transform constraint's target among its bones" },
  { name = "MIX", words = "mix must be finite", doc = "a transform constraint's mix not finite" },
  { name = "OFFSET", words = "offset must be finite", doc = "a transform constraint's offset not finite" },
  { name = "SKELETON_CONSTRAINTS",
    words = "the skeleton already has {MAX_SKELETON_SOLVERS} transform constraints, the most a skeleton takes",
    doc = "more than IK2D_MAX_SKELETON_SOLVERS transform constraints on one skeleton" },
  { name = "ORDER_STEP",
    words = "a step of the order must be a solver or a transform constraint of the skeleton",
    doc = "an order step naming neither a solver nor a constraint of the skeleton, or both" },
  { name = "ORDER_TWICE", words = "a solver or constraint is in the order twice",
    doc = "a solver or constraint listed twice in an order" },
  { name = "SLOT_COUNT", words = "a rig needs 1 to {MAX_SLOTS} slots", doc = "slot count outside 1..IK2D_MAX_SLOTS" },
  { name = "SLOT_BONE", words = "bone index out of range", doc = "a slot's bone not a bone of the skeleton" },
  { name = "ATTACHMENT", words = "attachment index out of range",
    doc = "an attachment index outside the rig's attachments (-1 for none aside)" },
  { name = "COLOR", words = "colour must be finite", doc = "a colour's part not finite" },
  { name = "BLEND", words = "blend must be normal, additive, multiply or screen", doc = "not an ik2d_blend" },
  { name = "TIMELINE_TARGET", words = "the timeline's target is not in the rig",
    doc = "a timeline's channel unknown or target out of range" },
  { name = "KEY_COUNT", words = "a timeline needs at least one key", doc = "a timeline without keys" },
  { name = "KEY_TIME", words = "key times must be finite and increasing",
    doc = "a key time not finite, or not after the one before" },
  { name = "KEY_VALUE", words = "a key value is not finite or not one its channel takes",
    doc = "a key value not finite, or outside its channel's values" },
  { name = "CURVE", words = "a curve must be linear, stepped or points in order between its keys",
    doc = "a curve kind unknown, or its points not finite or outside their keys' times" },
  { name = "DURATION", words = "duration must be >= 0 and finite", doc = "a clip's duration" },
  { name = "TIME", words = "time must be finite (seconds)", doc = "a time not finite" },
  { name = "ALPHA", words = "alpha must be within [0, 1]", doc = "an alpha outside [0, 1] or NaN" },
  { name = "GEOMETRY",
    words = "an attachment's vertices, weights, uvs or triangles are missing, not finite or out of range",
    doc = "an attachment def's geometry malformed" },
}

--- The choices: a Lua string each, a C enum value each (in order: 0, 1, ...).
api.enums = {
  { name = "space", c = "ik2d_space", doc = "What a limit's angles are measured against.",
    values = {
      { "parent", "IK2D_SPACE_PARENT", doc = "the bone's local angle: the limit follows the parents (an elbow)" },
      { "world", "IK2D_SPACE_WORLD", doc = "the bone's world direction, whatever the parents do (a head "
        .. "that never looks past the vertical); mirrored when the chain is flipped" },
    } },
  { name = "method", c = "ik2d_method", doc = "How a solver moves its chain's tip to the target.",
    values = {
      { "ccd", "IK2D_CCD", doc = "cyclic coordinate descent, with an exact two-joint step" },
      { "fabrik", "IK2D_FABRIK", doc = "forward and backward reaching" },
      { "two_bone", "IK2D_TWO_BONE", doc = "closed form, chains of 2 bones" },
      { "follow", "IK2D_FOLLOW", doc = "follow the leader: no fixed base; the tip goes onto the target "
        .. "and each bone is dragged behind it (a rope), the base moves (ik2d_chain_base reports it)" },
    } },
  { name = "sweep", c = "ik2d_sweep",
    doc = "CCD's sweep order: root to tip (fewer iterations from cold starts, measured by "
      .. "bench/quality.c) or tip to root (textbook CCD).",
    values = { { "root", "IK2D_SWEEP_ROOT" }, { "tip", "IK2D_SWEEP_TIP" } } },
  { name = "softness_curve", c = "ik2d_softness_curve",
    doc = "How two_bone eases the limb in over the softness distance before full reach (target "
      .. "distance d, full reach R, softness s).",
    values = {
      { "smooth", "IK2D_SOFTNESS_SMOOTH", doc = "R - s + s (1 - exp(-(d - R + s) / s)): the slope is "
        .. "continuous, full reach is never quite met" },
      { "spine", "IK2D_SOFTNESS_SPINE", doc = "Spine's: R - s (1 - (d - R + s) / 2s)^2 up to d = R + s, "
        .. "full reach from there" },
    } },
  { name = "inherit", c = "ik2d_inherit", doc = "What a skeleton bone takes from its parent.",
    values = {
      { "all", "IK2D_INHERIT_ALL", doc = "the parent's position and rotation" },
      { "position", "IK2D_INHERIT_POSITION", doc = "its position only: the bone's angle is relative "
        .. "to the skeleton's base" },
      { "no_rotation_or_reflection", "IK2D_INHERIT_NO_ROTATION_OR_REFLECTION",
        doc = "its position, and its scale along its direction and across it: the bone's angle is "
          .. "relative to the skeleton's base, no shear or reflection of the parent's is taken" },
      { "no_scale", "IK2D_INHERIT_NO_SCALE", doc = "its position, rotation and reflection, not its "
        .. "scale or shear" },
      { "no_scale_or_reflection", "IK2D_INHERIT_NO_SCALE_OR_REFLECTION",
        doc = "its position and rotation, not its scale, shear or reflection" },
    } },
  { name = "channel", c = "ik2d_channel",
    doc = "What a clip's timeline keys: a bone's local transform (rotate, shear and x, y added to "
      .. "the set-up's, scale multiplied with it), a solver's or a transform constraint's settings, "
      .. "a slot's attachment and colours, the draw order, an attachment's deform.",
    values = {
      { "rotate", "IK2D_CHANNEL_ROTATE" }, { "x", "IK2D_CHANNEL_X" }, { "y", "IK2D_CHANNEL_Y" },
      { "scale_x", "IK2D_CHANNEL_SCALE_X" }, { "scale_y", "IK2D_CHANNEL_SCALE_Y" },
      { "shear_x", "IK2D_CHANNEL_SHEAR_X" }, { "shear_y", "IK2D_CHANNEL_SHEAR_Y" },
      { "inherit", "IK2D_CHANNEL_INHERIT", doc = "stepped: an ik2d_inherit" },
      { "weight", "IK2D_CHANNEL_WEIGHT" }, { "softness", "IK2D_CHANNEL_SOFTNESS" },
      { "bend", "IK2D_CHANNEL_BEND", doc = "stepped" },
      { "compress", "IK2D_CHANNEL_COMPRESS", doc = "stepped" },
      { "stretch", "IK2D_CHANNEL_STRETCH", doc = "stepped" },
      { "mix_rotate", "IK2D_CHANNEL_MIX_ROTATE" }, { "mix_x", "IK2D_CHANNEL_MIX_X" },
      { "mix_y", "IK2D_CHANNEL_MIX_Y" }, { "mix_scale_x", "IK2D_CHANNEL_MIX_SCALE_X" },
      { "mix_scale_y", "IK2D_CHANNEL_MIX_SCALE_Y" }, { "mix_shear_y", "IK2D_CHANNEL_MIX_SHEAR_Y" },
      { "attachment", "IK2D_CHANNEL_ATTACHMENT", doc = "stepped: an attachment's index, -1 none" },
      { "color", "IK2D_CHANNEL_COLOR", doc = "4 channels: r, g, b, a" },
      { "rgb", "IK2D_CHANNEL_RGB", doc = "3 channels" },
      { "alpha", "IK2D_CHANNEL_ALPHA" },
      { "dark", "IK2D_CHANNEL_DARK", doc = "3 channels: the dark colour of a two-colour tint" },
      { "draw_order", "IK2D_CHANNEL_DRAW_ORDER",
        doc = "stepped: a key's values are every slot's index in drawing order" },
      { "deform", "IK2D_CHANNEL_DEFORM",
        doc = "a key's values are an attachment's vertex offsets; its curve gives the share" },
    } },
  { name = "attachment_kind", c = "ik2d_attachment_kind", doc = "What an attachment draws.",
    values = {
      { "region", "IK2D_ATTACHMENT_REGION", doc = "an image's rectangle on one bone: 4 vertices" },
      { "mesh", "IK2D_ATTACHMENT_MESH", doc = "triangles on one bone, or weighted on several" },
      { "hidden", "IK2D_ATTACHMENT_HIDDEN",
        doc = "nothing drawn (a point, a bounding box, a clipping or path attachment)" },
    } },
  { name = "blend", c = "ik2d_blend", doc = "How a slot's attachment blends with what is behind it.",
    values = {
      { "normal", "IK2D_BLEND_NORMAL" }, { "additive", "IK2D_BLEND_ADDITIVE" },
      { "multiply", "IK2D_BLEND_MULTIPLY" }, { "screen", "IK2D_BLEND_SCREEN" },
    } },
  { name = "collider_shape", c = "ik2d_collider_shape", doc = "A spring's collider's shape.",
    values = {
      { "circle", "IK2D_CIRCLE", doc = "a disc no joint enters" },
      { "segment", "IK2D_SEGMENT", doc = "a wall no bone crosses" },
    } },
}

--- A setting of a def.  `name` is the Lua option; `member` the C field
-- (default: name) in the C struct, or in the group's nested struct;
-- `type` the C type; `default` as Lua gives it (a string names a choice
-- of `enum`); `status` the status that refuses a bad value; `kind` how a
-- Lua value becomes it: "number", "whole", "boolean", "choice",
-- "number_or_array" (a number, or a table of one number per bone into the
-- per-bone pointer field named `array`: the binding checks the count), or for
-- settings switched on and off together, "angle" (a number, or false for
-- none), "point" ({x, y} or {x =, y =}, or false) and "ray" ({x =, y =,
-- angle =} or {x, y, angle}, or false) whose switch is the group's
-- `enabled` field.
--
-- `check`: what a def's check asks of the field (refusing it with
-- `status`), in the def's check function (C: generated into the def's
-- file; the pure core: built from these rows at load):
--   finite = true        not infinite, not NaN
--   min, max = v         v <= value, value <= v (closed ends)
--   above, below = v     v < value, value < v (open ends)
--                        (v a number or a constant's name, "MAX_BONES"; any
--                        end refuses NaN, and +-inf passes unless finite)
--   not_nan = true       NaN alone refused (the weight: any other number is
--                        clamped when kept)
--   one_of = { ... }     one of these numbers
--   choice = true        one of the enum's choices
--   whole = true         a whole number (C: the int it is)
--   when = { f = v }     checked only while field f (a switch, a choice) is v
--   after = name         checked after that field's check or rule, not in
--                        the fields' order (the first refused is the status)
-- A def's `rules` check what no one field says: in list order, each
-- after the field or rule it names (`after`), with the field checks in
-- the fields' order around them.  A rule with a `check` is one more test
-- of its `field`; the others are hand-written functions of their name in
-- C (the def's file, before its generated check) and in the pure core,
-- given the def (and `checked_with`, what else the check needs, when
-- `reads` names it), true when the def passes, else `status` refuses it
-- (or, with `nested`, returning the status of that def's check of each
-- element: a def's bones).  `reads`: the fields a rule reads, so that a
-- setter of one of them checks it too.
--
-- Setters (a def with `setters`): ik2d_<prefix>_set_<name>(object,
-- value...) for each option (a field with a `kind`; a vector sets both
-- of its fields, a group with `setter` its fields but the switch, which
-- it turns on, and ik2d_<prefix>_clear_<setter> turns it off; per-bone
-- arrays have none): a copy of the object's `settings` with the new
-- values, checked by the checks of those fields and the rules that read
-- them (given checked_with's `setter`), in the def's order, then kept by
-- <prefix>_keep_def as a whole def is.  In the bindings a setter's
-- status blames the argument of its field, a rule's the object.
api.solver = {
  c = "ik2d_solver_def", prefix = "solver", setters = true,
  checked_with = { name = "chain", type = "const ik2d_chain *", doc = "the solver's chain",
                   setter = "solver->chain" },
  doc = "A solver's settings.  The setters (ik2d_solver_set_*) change one each.",
  fields = {
    { name = "method",
      type = "ik2d_method", kind = "choice", enum = "method", default = "ccd",
      readme = "`\"ccd\"`, `\"fabrik\"`, `\"two_bone\"` (2-bone chains), `\"follow\"` (no fixed base: below)",
      status = "METHOD", check = { choice = true }, doc = "how the tip goes to the target" },
    { name = "iterations",
      type = "int", kind = "whole", default = 10, status = "ITERATIONS",
      check = { whole = true, min = 1 },
      readme = "whole, >= 1",
      doc = ">= 1" },
    { name = "tolerance",
      type = "double", kind = "number", default = 0.01, status = "TOLERANCE",
      check = { finite = true, min = 0 },
      readme = ">= 0: the tip is there within it",
      doc = ">= 0: the tip is there within it" },
    { name = "weight",
      type = "double", kind = "number", default = 1, status = "WEIGHT",
      check = { not_nan = true },
      readme = "clamped to [0, 1]; NaN is an error",
      doc = "clamped to [0, 1], NaN refused" },
    { name = "warm_start",
      type = "bool", kind = "boolean", default = true,
      readme = "start from the previous IK solution; false: from the pose every solve",
      doc = "start from the last IK solution (true) or from the pose" },
  },
  groups = {
    { name = "ccd", c = "ik2d_ccd_def", doc = "CCD (exact: FABRIK too)",
      fields = {
        { name = "damping",
          type = "double", kind = "number", default = 0, status = "DAMPING",
          check = { finite = true, min = 0 },
          readme = "CCD: the largest turn of one joint update in radians, 0 = none",
          doc = "largest turn of a joint update, radians, 0 = none" },
        { name = "exact",
          type = "bool", kind = "boolean", default = true,
          readme = "CCD: each iteration first tries the exact two-joint step, and a run that crawls far "
            .. "from a reachable target hands its remaining iterations to FABRIK; FABRIK finishes "
            .. "with an exact step. `false` with `sweep = \"tip\"` is textbook CCD",
          doc = "each iteration first tries the exact two-joint step; FABRIK finishes with one" },
        { name = "sweep",
          type = "ik2d_sweep", kind = "choice", enum = "sweep", default = "root",
          readme = "CCD: `\"root\"` sweeps root to tip; `\"tip\"` is textbook",
          status = "SWEEP", check = { choice = true }, doc = "root to tip or tip to root" },
      } },
    { name = "two_bone", c = "ik2d_two_bone_def",
      doc = "two_bone (stretch, compress and uniform: one-bone chains too)",
      fields = {
        { name = "bend",
          type = "int", kind = "whole", default = 1, status = "BEND",
          check = { whole = true, one_of = { 1, -1 } },
          readme = "two_bone: 1 or -1, the sign of the elbow's local angle: 1 puts the elbow clockwise of "
            .. "the base→target line, which on LÖVE's y-down screen is above it for a target to the "
            .. "right",
          doc = "+1 or -1, the sign of the elbow's local angle: with angles positive from +x to +y, "
            .. "+1 puts the elbow on the clockwise side of the base-to-target line (above it on a "
            .. "y-down screen, for a target to the right)" },
        { name = "softness",
          type = "double", kind = "number", default = 0, status = "SOFTNESS",
          check = { finite = true, min = 0 },
          readme = "two_bone: the distance before full reach over which the limb eases in instead of "
            .. "snapping straight",
          doc = "distance before full reach over which the limb eases in, >= 0" },
        { name = "softness_curve",
          type = "ik2d_softness_curve", kind = "choice",
          readme = "`\"smooth\"` never quite straightens; `\"spine\"` is Spine's ease, full reach at "
            .. "target distance reach + softness (reach 100, softness 10: 97.5 at 100, 100 at 110), "
            .. "the same as Spine's IK constraint to 1e-9",
          enum = "softness_curve", default = "smooth", status = "SOFTNESS_CURVE",
          check = { choice = true },
          doc = "the easing's shape" },
        { name = "stretch",
          type = "double", kind = "number", default = 1, status = "STRETCH",
          check = { min = 1 },
          readme = "two_bone and one-bone chains: the largest bone scale toward a target beyond reach (1 "
            .. "= off, `math.huge` = no bound, Spine's `stretch = true`); see `chain:scale()`",
          doc = "largest bone scale toward a target beyond reach, >= 1 (HUGE_VAL: no bound; "
            .. "1 = none)" },
        { name = "compress",
          type = "double", kind = "number", default = 1, status = "COMPRESS",
          check = { min = 0, max = 1 },
          readme = "one-bone chains: the smallest bone scale toward a nearer target, in [0, 1] (1 = off, "
            .. "0 = no bound)",
          doc = "one-bone chains: smallest bone scale toward a nearer target, in [0, 1] (0: no "
            .. "bound; 1 = none)" },
        { name = "uniform",
          type = "bool", kind = "boolean", default = false,
          readme = "sprites scale both axes by `chain:scale()` (`ik2d.love`)",
          doc = "the scale applies to both sprite axes (a hint for drawing, see ik2d_chain_uniform)" },
      } },
    { name = "tip", c = "ik2d_tip_def", doc = "the last bone's direction",
      setter = "tip_angle", setter_doc = "Orients the last bone (tip.angle, tip.weight); clear: free again.",
      fields = {
        { name = "tip", member = "enabled", type = "bool", default = false,
          doc = "orient the last bone along angle" },
        { name = "tip_angle",
      member = "angle", type = "double", kind = "angle", default = 0,
      readme = "the last bone's direction on screen (as `world_angle`), as `s:set_tip_angle`; `false` clears",
          status = "TIP_ANGLE", switch = "tip", check = { finite = true, when = { tip = true } },
          doc = "the last bone's world direction as drawn (ik2d_chain_world_angle's, so flipped "
            .. "chains take it as given): the tip on the target, the rest of the chain solving for "
            .. "the last joint" },
        { name = "tip_weight",
      member = "weight", type = "double", kind = "number", default = 1,
      readme = "in [0, 1]: how far the last bone turns toward `tip_angle`, as `s:set_tip_angle`",
          status = "TIP_WEIGHT", check = { min = 0, max = 1 },
          doc = "in [0, 1]: 1 orients fully, less turns the last bone's direction in a free solve "
            .. "from the pose toward angle by that share" },
      } },
    { name = "pole", c = "ik2d_pole_def", doc = "the side a limb bends to",
      setter = "pole", setter_doc = "Bends toward the point (x, y); clear: bend as set again.",
      fields = {
        { name = "pole", member = "enabled",
          type = "bool", kind = "point", default = false,
          readme = "`{x, y}` (or `{x =, y =}`), as `s:set_pole`; `false` clears",
          status = "POLE_X", point = { "pole_x", "pole_y" },
          doc = "bend toward (x, y): two_bone takes the bend side that faces it (over bend); CCD "
            .. "and FABRIK turn their middle joints toward it, the tip kept" },
        { name = "pole_x", member = "x", type = "double", default = 0, status = "POLE_X",
          check = { finite = true, when = { pole = true } }, doc = "world space" },
        { name = "pole_y", member = "y", type = "double", default = 0, status = "POLE_Y",
          check = { finite = true, when = { pole = true } }, doc = "world space" },
      } },
    { name = "effector", c = "ik2d_effector_def",
      doc = "the solver as an effector of its skeleton's solve (ik2d_skeleton_solve): solvers on a "
        .. "skeleton's chains",
      fields = {
        { name = "priority",
          type = "double", kind = "number", default = 1, status = "PRIORITY",
          check = { finite = true, min = 0 },
          readme = "solvers on a skeleton's chains: >= 0, weight x priority weighs the effector in a "
            .. "coupled solve",
          doc = ">= 0: weight x priority weighs this effector in a coupled solve" },
        { name = "together",
          type = "bool", kind = "boolean", default = true,
          readme = "solvers on a skeleton's chains: solved together with the solvers whose chains share "
            .. "bones; false: after them, winning on the bones it touches",
          doc = "solved together with the solvers whose chains share bones with it (true), or after "
            .. "them, winning on the bones it touches (false)" },
      } },
    { name = "aim", c = "ik2d_aim_def", doc = "a ray fixed to the last bone, turned through the target",
      setter = "aim", setter_doc = "Aims the ray from (x, y) along angle, in the last bone's space, through "
        .. "the target (aim.x, aim.y, aim.angle); clear: the tip goes to the target again.  Refused with "
        .. "method follow and with a tip angle.",
      fields = {
        { name = "aim", member = "enabled",
          type = "bool", kind = "ray", default = false,
          readme = "`{x =, y =, angle =}` (or `{x, y, angle}`), as `s:set_aim`: a ray fixed to the last "
            .. "bone (origin and direction in its space) that the solve points through the target "
            .. "instead of putting the tip on it (below); `false` clears",
          status = "AIM_X", ray = { "aim_x", "aim_y", "aim_angle" },
          doc = "turn the chain so that the ray from (x, y) along angle, both in the last bone's "
            .. "space, passes through the target (the tip goes where it must); methods ccd, fabrik "
            .. "and two_bone" },
        { name = "aim_x", member = "x", type = "double", default = 0, status = "AIM_X",
          check = { finite = true, when = { aim = true } },
          doc = "the ray's origin along the last bone, from the last joint" },
        { name = "aim_y", member = "y", type = "double", default = 0, status = "AIM_Y",
          check = { finite = true, when = { aim = true } },
          doc = "the ray's origin across the last bone (+y: angle +pi/2 from it)" },
        { name = "aim_angle", member = "angle", type = "double", default = 0, status = "AIM_ANGLE",
          check = { finite = true, when = { aim = true } },
          doc = "the ray's direction from the last bone's, radians" },
      } },
  },
  rules = {
    { name = "two_bone_fits_chain", after = "method", reads = { "method", "chain" }, status = "TWO_BONE",
      doc = "two_bone needs a chain of 2 bones of length > 0 (a skeleton chain's pivot leaves "
        .. "the triangle a side of 0)" },
    { name = "follow_off_skeleton", after = "method", reads = { "method", "chain" },
      status = "LINKED_FOLLOW",
      doc = "follow moves the chain's base, which a skeleton owns" },
    { name = "aim_with_fixed_base", after = "aim_angle", when = { aim = true }, reads = { "method" },
      status = "AIM_METHOD",
      doc = "an aim puts a point of its ray on the target, as the methods with a fixed base put a "
        .. "tip (follow moves the base instead)" },
    { name = "aim_without_tip", after = "aim_with_fixed_base", when = { aim = true }, reads = { "tip" },
      status = "AIM_TIP", doc = "an aim turns the last bone, which a tip angle would too" },
  },
}

api.spring = {
  c = "ik2d_spring_def", prefix = "spring", setters = true,
  checked_with = { name = "bone_count", type = "int", doc = "the chain's bones",
                   setter = "spring->chain->count" },
  doc = "A spring's settings.",
  fields = {
    { name = "stiffness",
      type = "double", kind = "number_or_array", array = "stiffness_per_bone", default = 100,
      status = "SPRING_STIFFNESS", check = { finite = true, min = 0 },
      readme = ">= 0, or an array of one per bone: the last joint's spring, torque per radian of turn "
        .. "from the neutral angle. Joint i of n carries the bones from i to the tip and has `(n - i + 1) * "
        .. "stiffness` (its bone's), so every joint bends alike under a load on every bone (gravity, "
        .. "the base spinning up), and a long tail settles about as fast as one bone",
      doc = ">= 0: the last joint's spring, torque per radian of its bone's turn from its neutral "
        .. "angle; "
        .. "joint i of n has (n - i) times it" },
    { name = "damping",
      type = "double", kind = "number_or_array", array = "damping_per_bone", default = 10,
      status = "SPRING_DAMPING", check = { finite = true, min = 0 },
      readme = ">= 0, or an array of one per bone: torque per rad/s of every bone's turning through "
        .. "the air, and the drag of the air moving past it (`wind`, the base running)",
      doc = ">= 0: torque per rad/s of every bone's turning through the air (air drag), which also "
        .. "drags it along with the air moving past it (wind, the base's motion)" },
    { name = "mass",
      type = "double", kind = "number_or_array", array = "mass_per_bone", default = 1,
      status = "SPRING_MASS", check = { finite = true, above = 0 },
      readme = "> 0, or an array of one per bone: every bone's inertia. One bone alone swings at "
        .. "`sqrt(stiffness / mass)` rad/s with damping ratio `damping / (2 sqrt(stiffness * mass))` "
        .. "(the defaults: 10 rad/s, 0.5); `stiffness / mass` and `damping / mass` must be finite (a "
        .. "bone's own and its child's stiffness over its mass)",
      doc = "> 0: every bone's inertia.  One bone alone swings at sqrt(stiffness / mass) rad/s "
        .. "with a damping ratio damping / (2 sqrt(stiffness mass))" },
    { name = "gravity_x", option = "gravity", readme_default = "`{0, 0}`", type = "double",
      kind = "vector", default = 0,
      readme = "`{gx, gy}`, world acceleration at each bone's tip (px/s², y down in LÖVE, so `{0, 980}` "
        .. "pulls down): a bone of length L alone swings like a pendulum of that length. Mirrored "
        .. "bones feel it mirrored: it is world space",
      status = "GRAVITY_X", check = { finite = true }, vector = { "gravity_x", "gravity_y" },
      doc = "world acceleration at each bone's tip (px/s^2, y down in LOVE): a bone of length L "
        .. "alone swings like a pendulum, g / L rad/s^2 toward g" },
    { name = "gravity_y", type = "double", default = 0, status = "GRAVITY_Y", check = { finite = true },
      doc = "see gravity_x" },
    { name = "wind_x", option = "wind", readme_default = "`{0, 0}`", type = "double",
      kind = "vector", default = 0,
      readme = "`{wx, wy}`, the air's world velocity (px/s): each bone's tip is dragged toward moving "
        .. "with it, `damping / mass` per second, so a hanging tail bends downwind, and one whose "
        .. "base runs through still air trails",
      status = "WIND_X", check = { finite = true }, vector = { "wind_x", "wind_y" },
      doc = "the air's world velocity (px/s): each bone's tip is dragged by damping toward moving "
        .. "with it (the base's own motion counts against it)" },
    { name = "wind_y", type = "double", default = 0, status = "WIND_Y", check = { finite = true },
      doc = "see wind_x" },
    { name = "weight",
      type = "double", kind = "number", default = 1, status = "WEIGHT",
      check = { not_nan = true, after = "mass_ratios_finite" },
      readme = "clamped to [0, 1], NaN is an error: `result = neutral + weight * delta(spring - neutral)`, "
        .. "as a solve blends (inside the limits); the motion runs the same at any weight, so a "
        .. "weight blend in is smooth",
      doc = "clamped to [0, 1], NaN refused" },
    { name = "stiffness_per_bone", type = "const double *", default = nil,
      doc = "NULL: stiffness for every bone; else one per bone of the chain, base first (read when "
        .. "the def is given, not kept)" },
    { name = "damping_per_bone", type = "const double *", default = nil,
      doc = "NULL: damping for every bone; else one per bone, as stiffness_per_bone" },
    { name = "mass_per_bone", type = "const double *", default = nil,
      doc = "NULL: mass for every bone; else one per bone, as stiffness_per_bone" },
  },
  rules = {
    { name = "mass_ratios_finite", after = "mass", reads = { "stiffness", "damping", "mass", "bone_count" },
      status = "SPRING_MASS",
      doc = "the motion depends on stiffness / mass and damping / mass: a bone's and its child's "
        .. "stiffness over its mass, and its damping over it, finite" },
  },
}

--- A spring's collider (ik2d_spring_set_colliders), world space.  Lua
-- gives a circle as { x =, y =, radius = } and a segment as { x1 =, y1 =,
-- x2 =, y2 = }.
api.collider = {
  c = "ik2d_collider", prefix = "collider", check_function = "ik2d_collider_check",
  doc = "A spring's collider in world space: a circle (x, y, radius) no joint enters, or a segment "
    .. "(x1, y1)-(x2, y2) no bone crosses.",
  lua = { "x", "y", "radius", "x1", "y1", "x2", "y2" },
  fields = {
    { name = "shape", type = "ik2d_collider_shape", enum = "collider_shape", default = "circle",
      status = "COLLIDER_SHAPE", check = { choice = true }, doc = "circle or segment" },
    { name = "x", type = "double", default = 0, status = "CIRCLE_X",
      check = { finite = true, when = { shape = "circle" } }, doc = "a circle's centre" },
    { name = "y", type = "double", default = 0, status = "CIRCLE_Y",
      check = { finite = true, when = { shape = "circle" } }, doc = "a circle's centre" },
    { name = "radius", type = "double", default = 0, status = "CIRCLE_RADIUS",
      check = { finite = true, min = 0, when = { shape = "circle" } }, doc = "a circle's radius, >= 0" },
    { name = "x1", type = "double", default = 0, status = "SEGMENT_X1",
      check = { finite = true, when = { shape = "segment" } }, doc = "a segment's first end" },
    { name = "y1", type = "double", default = 0, status = "SEGMENT_Y1",
      check = { finite = true, when = { shape = "segment" } }, doc = "a segment's first end" },
    { name = "x2", type = "double", default = 0, status = "SEGMENT_X2",
      check = { finite = true, when = { shape = "segment" } }, doc = "a segment's second end" },
    { name = "y2", type = "double", default = 0, status = "SEGMENT_Y2",
      check = { finite = true, when = { shape = "segment" } }, doc = "a segment's second end" },
  },
}

--- The definitions of the objects made from tables: their C structs and
-- defaults, and the field names (`lua`) a Lua table for them may have.
-- A field with a `kind` is read from that table by the rows both
-- bindings share (under its `lua` name; `required`: even when nil); the
-- others (a skeleton bone's name, parent and origin, the limits) have
-- their own readers.
api.constraint = {
  c = "ik2d_constraint_def", prefix = "constraint",
  doc = "A constraint's limits.",
  lua = { "min", "max", "invert", "space" },
  fields = {
    { name = "min", type = "double", default = -math.pi, status = "MIN", check = { finite = true },
      doc = "radians from the rest angle, <= max, within [-2 pi, 2 pi] (larger ones are degrees by "
        .. "mistake); a range of 2 pi or more allows every angle.  In world space the rest angle is "
        .. "read as a world direction" },
    { name = "max", type = "double", default = math.pi, status = "MAX", check = { finite = true },
      doc = "as min" },
    { name = "invert", type = "bool", default = false,
      doc = "the allowed range is outside [min, max]" },
    { name = "space", type = "ik2d_space", enum = "space", default = "parent", status = "SPACE",
      check = { choice = true }, doc = "what the angles are measured against" },
  },
  rules = {
    { name = "min_in_radians", after = "max", field = "min",
      check = { min = -2 * math.pi, max = 2 * math.pi }, status = "MIN_DEGREES",
      doc = "larger ones are degrees by mistake" },
    { name = "max_in_radians", after = "min_in_radians", field = "max",
      check = { min = -2 * math.pi, max = 2 * math.pi }, status = "MAX_DEGREES",
      doc = "larger ones are degrees by mistake" },
    { name = "limits_in_order", after = "max_in_radians", reads = { "min", "max" },
      status = "LIMIT_ORDER", doc = "min <= max" },
  },
}

api.bone = {
  c = "ik2d_bone_def", prefix = "bone", check_function = "ik2d_bone_def_check",
  doc = "A chain's bone.  Its length has no default: 0 is refused (IK2D_ERR_LENGTH).",
  lua = { "length", "angle", "min", "max", "invert", "space" },
  fields = {
    { name = "length", type = "double", kind = "number", required = true, default = 0,
      status = "LENGTH", check = { finite = true, above = 0 }, doc = "> 0 and finite" },
    { name = "rest", type = "double", kind = "number", default = 0, status = "REST", lua = "angle",
      check = { finite = true }, doc = "rest local angle" },
    { name = "constraint", type = "const ik2d_constraint *", default = nil,
      doc = "NULL: free; not owned" },
  },
}

api.chain = {
  c = "ik2d_chain_def", prefix = "chain",
  doc = "A chain: its bones, base first, and its base.",
  lua = { "x", "y", "angle", "flip" },
  fields = {
    { name = "bone_count", type = "int", default = 0, status = "BONE_COUNT",
      check = { whole = true, min = 1, max = "MAX_BONES" }, doc = "1..IK2D_MAX_BONES" },
    { name = "bones", type = "const ik2d_bone_def *", default = nil,
      doc = "bone_count of them, base first" },
    { name = "x", type = "double", default = 0, status = "BASE_X", check = { finite = true },
      doc = "the base in world space" },
    { name = "y", type = "double", default = 0, status = "BASE_Y", check = { finite = true },
      doc = "the base in world space" },
    { name = "angle", type = "double", default = 0, status = "BASE_ANGLE", check = { finite = true },
      doc = "the base's direction in world space" },
    { name = "flip", type = "bool", default = false, doc = "mirrored about x = base x" },
  },
  checked_with = { name = "pivots", type = "bool", doc = "bones of length 0 are allowed (a skeleton's chains)" },
  rules = {
    { name = "chain_bones_valid", after = "bone_count", nested = "bone", reads = { "bones", "pivots" },
      doc = "every bone as its def's check checks it (a pivot's length 0 allowed with pivots)" },
    { name = "chain_reach_finite", after = "chain_bones_valid", reads = { "bones" }, status = "REACH",
      doc = "the lengths add up to a finite reach" },
  },
}

api.skeleton_bone = {
  c = "ik2d_skeleton_bone_def", prefix = "skeleton_bone",
  doc = "A skeleton's bone: by default a root bone at the base's origin, a pivot, free.",
  lua = { "name", "parent", "length", "angle", "x", "y", "scale_x", "scale_y", "shear_x", "shear_y",
    "min", "max", "invert", "space", "inherit" },
  fields = {
    { name = "parent", type = "int", default = -1, status = "PARENT",
      doc = "an earlier bone, or -1: the base" },
    { name = "length", type = "double", kind = "number", required = true, default = 0,
      status = "PIVOT_LENGTH", check = { finite = true, min = 0 }, doc = ">= 0 and finite; 0: a pivot" },
    { name = "rest", type = "double", kind = "number", default = 0, status = "REST", lua = "angle",
      check = { finite = true }, doc = "rest local angle" },
    { name = "at_tip", type = "bool", default = true,
      doc = "the origin is the parent's tip (the base for -1), and follows its length" },
    { name = "x", type = "double", default = 0, status = "ORIGIN_X",
      check = { finite = true, when = { at_tip = false } },
      doc = "else the origin, in the parent's bone space (+x along the bone)" },
    { name = "y", type = "double", default = 0, status = "ORIGIN_Y",
      check = { finite = true, when = { at_tip = false } }, doc = "as x" },
    { name = "scale_x", type = "double", kind = "number", default = 1, status = "SCALE_X",
      check = { finite = true, nonzero = true },
      doc = "the bone's scale along its x axis (negative: a reflection)" },
    { name = "scale_y", type = "double", kind = "number", default = 1, status = "SCALE_Y",
      check = { finite = true, nonzero = true }, doc = "the bone's scale along its y axis" },
    { name = "shear_x", type = "double", kind = "number", default = 0, status = "SHEAR_X",
      check = { finite = true }, doc = "radians the x axis turns past the bone's angle" },
    { name = "shear_y", type = "double", kind = "number", default = 0, status = "SHEAR_Y",
      check = { finite = true }, doc = "radians the y axis turns past a quarter turn from the angle" },
    { name = "inherit", type = "ik2d_inherit", enum = "inherit", default = "all", status = "INHERIT",
      check = { choice = true }, doc = "what the bone takes from its parent" },
    { name = "constraint", type = "const ik2d_constraint *", default = nil,
      doc = "NULL: free; not owned" },
  },
  checked_with = { name = "index", type = "int", doc = "the bone's index in its skeleton" },
  rules = {
    { name = "parent_earlier", after = "parent", reads = { "parent", "index" }, status = "PARENT",
      doc = "the parent is an earlier bone, or the base" },
    { name = "limit_in_parent_space", after = "constraint", reads = { "constraint" },
      status = "SKELETON_SPACE",
      doc = "a skeleton's coupled solve turns bones in their parents' frames (a bone that should keep "
        .. "a world angle inherits position only, or its chain's solver orients the tip)" },
  },
}

api.bone_local = {
  c = "ik2d_bone_local", prefix = "bone_local",
  doc = "A skeleton bone's local transform, as its pose or its result holds it: its translation in "
    .. "its parent's bone space, its rotation, scale and shear (radians).",
  fields = {
    { name = "x", type = "double", default = 0, status = "ORIGIN_X", check = { finite = true },
      doc = "the origin in the parent's bone space (+x along the bone)" },
    { name = "y", type = "double", default = 0, status = "ORIGIN_Y", check = { finite = true },
      doc = "as x" },
    { name = "angle", type = "double", default = 0, status = "POSE", check = { finite = true },
      doc = "the rotation" },
    { name = "scale_x", type = "double", default = 1, status = "SCALE_X",
      check = { finite = true, nonzero = true }, doc = "scale along the x axis (negative: a reflection)" },
    { name = "scale_y", type = "double", default = 1, status = "SCALE_Y",
      check = { finite = true, nonzero = true }, doc = "scale along the y axis" },
    { name = "shear_x", type = "double", default = 0, status = "SHEAR_X", check = { finite = true },
      doc = "the x axis' turn past the rotation" },
    { name = "shear_y", type = "double", default = 0, status = "SHEAR_Y", check = { finite = true },
      doc = "the y axis' turn past a quarter turn from the rotation" },
  },
}

--- A transform constraint (Spine's): its bones take its target bone's
-- rotation, translation, scale and shear by the mixes, plus the offsets,
-- in world or local space, absolute or relative.  The skeleton applies it
-- in the order its rig sets (ik2d_skeleton_set_order).
api.transform_constraint = {
  c = "ik2d_transform_constraint_def", prefix = "transform_constraint", setters = true,
  checked_with = { name = "skeleton", type = "const ik2d_skeleton *", doc = "its skeleton",
                   setter = "transform_constraint->skeleton" },
  doc = "A transform constraint's bones, target, mixes and offsets.",
  lua = { "bones", "target", "mix_rotate", "mix_x", "mix_y", "mix_scale_x", "mix_scale_y",
    "mix_shear_y", "offset_rotation", "offset_x", "offset_y", "offset_scale_x", "offset_scale_y",
    "offset_shear_y", "local", "relative" },
  fields = {
    { name = "bone_count", type = "int", default = 0, status = "CONSTRAINT_BONES",
      check = { whole = true, min = 1, max = "MAX_SKELETON_BONES" }, doc = "1..IK2D_MAX_SKELETON_BONES" },
    { name = "bones", type = "const int *", default = nil,
      doc = "bone_count bones of the skeleton, each once (read when the def is given, not kept)" },
    { name = "target", type = "int", default = 0, doc = "the bone they follow, not one of them" },
    { name = "mix_rotate", type = "double", kind = "number", default = 1, status = "MIX",
      check = { finite = true }, doc = "how much of the target's rotation the bones take: 0 none, 1 all" },
    { name = "mix_x", type = "double", kind = "number", default = 1, status = "MIX",
      check = { finite = true }, doc = "how much of the target's x translation the bones take: 0 none, 1 all" },
    { name = "mix_y", type = "double", kind = "number", default = 1, status = "MIX",
      check = { finite = true }, doc = "how much of the target's y translation the bones take: 0 none, 1 all" },
    { name = "mix_scale_x", type = "double", kind = "number", default = 1, status = "MIX",
      check = { finite = true }, doc = "how much of the target's x scale the bones take: 0 none, 1 all" },
    { name = "mix_scale_y", type = "double", kind = "number", default = 1, status = "MIX",
      check = { finite = true }, doc = "how much of the target's y scale the bones take: 0 none, 1 all" },
    { name = "mix_shear_y", type = "double", kind = "number", default = 1, status = "MIX",
      check = { finite = true }, doc = "how much of the target's y shear the bones take: 0 none, 1 all" },
    { name = "offset_rotation", type = "double", kind = "number", default = 0, status = "OFFSET",
      check = { finite = true }, doc = "radians added to the target's rotation" },
    { name = "offset_x", type = "double", kind = "number", default = 0, status = "OFFSET",
      check = { finite = true }, doc = "added to the target's x (in its space, world mode)" },
    { name = "offset_y", type = "double", kind = "number", default = 0, status = "OFFSET",
      check = { finite = true }, doc = "added to the target's y" },
    { name = "offset_scale_x", type = "double", kind = "number", default = 0, status = "OFFSET",
      check = { finite = true }, doc = "added to the target's x scale" },
    { name = "offset_scale_y", type = "double", kind = "number", default = 0, status = "OFFSET",
      check = { finite = true }, doc = "added to the target's y scale" },
    { name = "offset_shear_y", type = "double", kind = "number", default = 0, status = "OFFSET",
      check = { finite = true }, doc = "radians added to the target's y shear" },
    { name = "local", member = "local_space", type = "bool", kind = "boolean", default = false,
      doc = "local transforms (the parents' own), not world ones" },
    { name = "relative", type = "bool", kind = "boolean", default = false,
      doc = "the target's transform added to the bones', not taken by them" },
  },
  rules = {
    { name = "constraint_bones_valid", after = "bones", nested = "transform_constraint",
      reads = { "bone_count", "bones", "target", "skeleton" },
      doc = "each bone and the target a bone of the skeleton, no bone twice, the target not one" },
  },
}

api.skeleton = {
  c = "ik2d_skeleton_def", prefix = "skeleton",
  doc = "A skeleton: its bones, parents first, its base and its scale.",
  lua = { "x", "y", "angle", "flip", "scale_x", "scale_y" },
  fields = {
    { name = "bone_count", type = "int", default = 0, status = "SKELETON_BONES",
      check = { whole = true, min = 1, max = "MAX_SKELETON_BONES" }, doc = "1..IK2D_MAX_SKELETON_BONES" },
    { name = "bones", type = "const ik2d_skeleton_bone_def *", default = nil, doc = "parents first" },
    { name = "x", type = "double", default = 0, status = "BASE_X", check = { finite = true },
      doc = "the base in world space" },
    { name = "y", type = "double", default = 0, status = "BASE_Y", check = { finite = true },
      doc = "the base in world space" },
    { name = "angle", type = "double", default = 0, status = "BASE_ANGLE", check = { finite = true },
      doc = "the base's direction in world space" },
    { name = "flip", type = "bool", default = false, doc = "mirrored about x = base x" },
    { name = "scale_x", type = "double", default = 1, status = "SCALE_X",
      check = { finite = true, nonzero = true },
      doc = "the skeleton's scale x, under its base (-1: mirrored)" },
    { name = "scale_y", type = "double", default = 1, status = "SCALE_Y",
      check = { finite = true, nonzero = true },
      doc = "the skeleton's scale y, under its base (-1: a y-up rig on a y-down screen)" },
  },
  checked_with = { name = "bad", type = "int *", doc = "gets the index of a bone refused" },
  rules = {
    { name = "skeleton_bones_valid", after = "bone_count", nested = "skeleton_bone",
      reads = { "bones", "bad" },
      doc = "every bone as its def's check checks it, given its index" },
    { name = "skeleton_extent_finite", after = "skeleton_bones_valid", reads = { "bones" },
      status = "REACH",
      doc = "every length and origin offset, summed: while finite, every position the bones reach is" },
  },
}

--- The modules: the C core's sources (layer by layer), the Lua
-- binding's, and the Lua modules; the rockspec's builtin lists come from
-- these, and spec/api_spec.lua holds them to the files there are.
api.modules = {
  core = {
    "src/ik2d_api.c", "src/ik2d_math.c", "src/ik2d_bone.c", "src/ik2d_bone_ik.c",
    "src/ik2d_transform.c", "src/ik2d_timeline.c", "src/ik2d_constraint.c", "src/ik2d_chain.c",
    "src/ik2d_pose.c", "src/ik2d_ccd.c", "src/ik2d_fabrik.c", "src/ik2d_follow.c",
    "src/ik2d_two_bone.c", "src/ik2d_aim.c", "src/ik2d_solver.c", "src/ik2d_spring.c", "src/ik2d_isa.c",
    "src/ik2d_lanes_sse2.c", "src/ik2d_lanes_avx2.c", "src/ik2d_lanes_avx512.c",
    "src/ik2d_batch.c", "src/ik2d_skeleton.c", "src/ik2d_transform_constraint.c",
    "src/ik2d_skeleton_solve.c", "src/ik2d_slots.c", "src/ik2d_clip.c",
  },
  binding = {
    "src/lua/luaik_api.c", "src/lua/luaik_options.c", "src/lua/luaik_core.c",
    "src/lua/luaik_constraint.c", "src/lua/luaik_chain.c", "src/lua/luaik_solver.c",
    "src/lua/luaik_group.c", "src/lua/luaik_ffi.c", "src/lua/luaik_skeleton.c",
    "src/lua/luaik_spring.c", "src/lua/luaik_transform_constraint.c", "src/lua/luaik_rig.c",
    "src/lua/luaik_module.c",
  },
  lua = {
    "ik2d", "ik2d.api", "ik2d.attach", "ik2d.behaviour", "ik2d.blend", "ik2d.common",
    "ik2d.ffi", "ik2d.follow", "ik2d.gait", "ik2d.love", "ik2d.love_rig", "ik2d.mirror",
    "ik2d.player",
    "ik2d.rig", "ik2d.smooth",
    "ik2d.pure.aim", "ik2d.pure.binding", "ik2d.pure.binding_chain", "ik2d.pure.binding_rig",
    "ik2d.pure.binding_skeleton",
    "ik2d.pure.binding_solver", "ik2d.pure.binding_spring",
    "ik2d.pure.binding_transform_constraint", "ik2d.pure.bone",
    "ik2d.pure.bone_ik", "ik2d.pure.ccd", "ik2d.pure.chain", "ik2d.pure.checks", "ik2d.pure.clip",
    "ik2d.pure.constraint", "ik2d.pure.core", "ik2d.pure.defs", "ik2d.pure.fabrik", "ik2d.pure.follow",
    "ik2d.pure.group", "ik2d.pure.kernel", "ik2d.pure.math", "ik2d.pure.numbers", "ik2d.pure.objects",
    "ik2d.pure.options",
    "ik2d.pure.pose", "ik2d.pure.skeleton", "ik2d.pure.skeleton_solve", "ik2d.pure.slots",
    "ik2d.pure.solver",
    "ik2d.pure.spring", "ik2d.pure.timeline", "ik2d.pure.transform",
    "ik2d.pure.transform_constraint", "ik2d.pure.two_bone",
    "ik2d.rig.atlas", "ik2d.rig.build", "ik2d.rig.check", "ik2d.rig.curves", "ik2d.rig.dragonbones",
    "ik2d.rig.dragonbones_clip",
    "ik2d.rig.dragonbones_data", "ik2d.rig.dragonbones_pose", "ik2d.rig.fade", "ik2d.rig.file",
    "ik2d.rig.file_clips", "ik2d.rig.file_read", "ik2d.rig.file_values", "ik2d.rig.float32",
    "ik2d.rig.from_code", "ik2d.rig.json", "ik2d.rig.source", "ik2d.rig.spine",
    "ik2d.rig.spine_animations", "ik2d.rig.spine_skins", "ik2d.rig.spine_units",
    "ik2d.vendor.dkjson",
  },
}

--- What the FFI path (lua/ik2d/ffi.lua) declares: these types, and the
-- prototypes of these functions as src/ik2d.h (IK2D_API) and the binding
-- (LUAIK_EXPORT) declare them.
api.ffi = {
  types = {
    "typedef struct ik2d_chain ik2d_chain;",
    "typedef struct ik2d_solver ik2d_solver;",
    "typedef struct ik2d_spring ik2d_spring;",
    "typedef struct ik2d_skeleton ik2d_skeleton;",
    "typedef struct ik2d_slots ik2d_slots;",
    "typedef int ik2d_status;",
  },
  functions = {
    "ik2d_chain_bone_count", "ik2d_chain_joints", "ik2d_chain_pose", "ik2d_chain_angle",
    "ik2d_chain_base", "ik2d_solver_chain", "ik2d_solver_set_target", "ik2d_solver_target",
    "ik2d_solver_solve", "ik2d_solver_set_tip_angle", "ik2d_solver_set_pole",
    "ik2d_solver_target_bone",
    "ik2d_spring_update", "ik2d_skeleton_bone_count", "ik2d_skeleton_transforms",
    "ik2d_skeleton_solve", "ik2d_skeleton_base", "ik2d_skeleton_set_base",
    "ik2d_skeleton_matrix", "ik2d_skeleton_matrices",
    "ik2d_slots_count", "ik2d_slots_attachment", "ik2d_slots_tint", "ik2d_slots_vertices",
    "ik2d_slots_all_vertices",
    "luaik_group_members", "luaik_group_live", "luaik_group_set_targets", "luaik_group_solve",
    "luaik_group_target_array", "luaik_group_joint_array", "luaik_group_tip_angle_array",
    "luaik_group_pole_array", "luaik_group_base_array", "luaik_group_transform_array",
    "luaik_group_matrix_array", "luaik_group_matrices",
    "luaik_chain_live",
    "luaik_solver_live", "luaik_spring_live", "luaik_skeleton_live", "luaik_result", "luaik_read",
    "luaik_skeleton_matrices",
  },
}

return api
