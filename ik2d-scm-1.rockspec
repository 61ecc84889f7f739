rockspec_format = "3.0"
package = "ik2d"
version = "scm-1"
source = {
  url = "git+https://example.invalid/ik2d.git",
}
description = {
  summary = "2D inverse kinematics (CCD, FABRIK, two-bone) with a C core, for LOVE and Lua",
  detailed = [[
Chains of bones with per-joint limits in parent space, weights that blend
with the animated pose, and solvers that run in C. Works on Lua 5.1-5.4
and LuaJIT (LOVE 11); a pure-Lua core with the same API and results takes
over where native code cannot load.
]],
  license = "MIT",
}
dependencies = {
  "lua >= 5.1, < 5.5",
}
build = {
  -- Unix: the Makefile builds in a temporary folder and installs from it
  -- (make rock-install), leaving nothing in the source tree; elsewhere
  -- (Windows) the builtin backend, whose objects and ./ik2d/core.dll stay
  -- beside the sources until `make clean` or a fresh checkout.
  platforms = {
    unix = {
      type = "make",
      build_pass = false,
      install_target = "rock-install",
      variables = {
        CC = "$(CC)",
        CFLAGS = "$(CFLAGS)",
        LIBFLAG = "$(LIBFLAG)",
        LUA_INCDIR = "$(LUA_INCDIR)",
        LUA_LIBDIR = "$(LIBDIR)",
        LUA_SHAREDIR = "$(LUADIR)",
      },
    },
  },
  type = "builtin",
  modules = {
    -- generated from lua/ik2d/api.lua by make gen: modules
    ["ik2d.core"] = {
      sources = {
        "src/ik2d_api.c",
        "src/ik2d_math.c",
        "src/ik2d_bone.c",
        "src/ik2d_bone_ik.c",
        "src/ik2d_transform.c",
        "src/ik2d_timeline.c",
        "src/ik2d_constraint.c",
        "src/ik2d_chain.c",
        "src/ik2d_pose.c",
        "src/ik2d_ccd.c",
        "src/ik2d_fabrik.c",
        "src/ik2d_follow.c",
        "src/ik2d_two_bone.c",
        "src/ik2d_aim.c",
        "src/ik2d_solver.c",
        "src/ik2d_spring.c",
        "src/ik2d_isa.c",
        "src/ik2d_lanes_sse2.c",
        "src/ik2d_lanes_avx2.c",
        "src/ik2d_lanes_avx512.c",
        "src/ik2d_batch.c",
        "src/ik2d_skeleton.c",
        "src/ik2d_transform_constraint.c",
        "src/ik2d_skeleton_solve.c",
        "src/ik2d_slots.c",
        "src/ik2d_clip.c",
        "src/lua/luaik_api.c",
        "src/lua/luaik_options.c",
        "src/lua/luaik_core.c",
        "src/lua/luaik_constraint.c",
        "src/lua/luaik_chain.c",
        "src/lua/luaik_solver.c",
        "src/lua/luaik_group.c",
        "src/lua/luaik_ffi.c",
        "src/lua/luaik_skeleton.c",
        "src/lua/luaik_spring.c",
        "src/lua/luaik_module.c",
      },
      incdirs = { "src" },
    },
    ["ik2d"] = "lua/ik2d/init.lua",
    ["ik2d.api"] = "lua/ik2d/api.lua",
    ["ik2d.attach"] = "lua/ik2d/attach.lua",
    ["ik2d.behaviour"] = "lua/ik2d/behaviour.lua",
    ["ik2d.blend"] = "lua/ik2d/blend.lua",
    ["ik2d.common"] = "lua/ik2d/common.lua",
    ["ik2d.ffi"] = "lua/ik2d/ffi.lua",
    ["ik2d.follow"] = "lua/ik2d/follow.lua",
    ["ik2d.gait"] = "lua/ik2d/gait.lua",
    ["ik2d.love"] = "lua/ik2d/love.lua",
    ["ik2d.mirror"] = "lua/ik2d/mirror.lua",
    ["ik2d.smooth"] = "lua/ik2d/smooth.lua",
    ["ik2d.pure.aim"] = "lua/ik2d/pure/aim.lua",
    ["ik2d.pure.binding"] = "lua/ik2d/pure/binding.lua",
    ["ik2d.pure.binding_chain"] = "lua/ik2d/pure/binding_chain.lua",
    ["ik2d.pure.binding_skeleton"] = "lua/ik2d/pure/binding_skeleton.lua",
    ["ik2d.pure.binding_solver"] = "lua/ik2d/pure/binding_solver.lua",
    ["ik2d.pure.binding_spring"] = "lua/ik2d/pure/binding_spring.lua",
    ["ik2d.pure.binding_transform_constraint"] = "lua/ik2d/pure/binding_transform_constraint.lua",
    ["ik2d.pure.bone"] = "lua/ik2d/pure/bone.lua",
    ["ik2d.pure.bone_ik"] = "lua/ik2d/pure/bone_ik.lua",
    ["ik2d.pure.ccd"] = "lua/ik2d/pure/ccd.lua",
    ["ik2d.pure.chain"] = "lua/ik2d/pure/chain.lua",
    ["ik2d.pure.checks"] = "lua/ik2d/pure/checks.lua",
    ["ik2d.pure.constraint"] = "lua/ik2d/pure/constraint.lua",
    ["ik2d.pure.core"] = "lua/ik2d/pure/core.lua",
    ["ik2d.pure.defs"] = "lua/ik2d/pure/defs.lua",
    ["ik2d.pure.fabrik"] = "lua/ik2d/pure/fabrik.lua",
    ["ik2d.pure.follow"] = "lua/ik2d/pure/follow.lua",
    ["ik2d.pure.group"] = "lua/ik2d/pure/group.lua",
    ["ik2d.pure.kernel"] = "lua/ik2d/pure/kernel.lua",
    ["ik2d.pure.math"] = "lua/ik2d/pure/math.lua",
    ["ik2d.pure.numbers"] = "lua/ik2d/pure/numbers.lua",
    ["ik2d.pure.objects"] = "lua/ik2d/pure/objects.lua",
    ["ik2d.pure.options"] = "lua/ik2d/pure/options.lua",
    ["ik2d.pure.pose"] = "lua/ik2d/pure/pose.lua",
    ["ik2d.pure.skeleton"] = "lua/ik2d/pure/skeleton.lua",
    ["ik2d.pure.skeleton_solve"] = "lua/ik2d/pure/skeleton_solve.lua",
    ["ik2d.pure.solver"] = "lua/ik2d/pure/solver.lua",
    ["ik2d.pure.spring"] = "lua/ik2d/pure/spring.lua",
    ["ik2d.pure.timeline"] = "lua/ik2d/pure/timeline.lua",
    ["ik2d.pure.transform"] = "lua/ik2d/pure/transform.lua",
    ["ik2d.pure.transform_constraint"] = "lua/ik2d/pure/transform_constraint.lua",
    ["ik2d.pure.two_bone"] = "lua/ik2d/pure/two_bone.lua",
    ["ik2d.rig.check"] = "lua/ik2d/rig/check.lua",
    ["ik2d.rig.curves"] = "lua/ik2d/rig/curves.lua",
    ["ik2d.rig.dragonbones"] = "lua/ik2d/rig/dragonbones.lua",
    ["ik2d.rig.dragonbones_clip"] = "lua/ik2d/rig/dragonbones_clip.lua",
    ["ik2d.rig.dragonbones_data"] = "lua/ik2d/rig/dragonbones_data.lua",
    ["ik2d.rig.float32"] = "lua/ik2d/rig/float32.lua",
    ["ik2d.rig.json"] = "lua/ik2d/rig/json.lua",
    ["ik2d.rig.source"] = "lua/ik2d/rig/source.lua",
    ["ik2d.rig.spine"] = "lua/ik2d/rig/spine.lua",
    ["ik2d.rig.spine_animations"] = "lua/ik2d/rig/spine_animations.lua",
    ["ik2d.rig.spine_skins"] = "lua/ik2d/rig/spine_skins.lua",
    ["ik2d.rig.spine_units"] = "lua/ik2d/rig/spine_units.lua",
    ["ik2d.vendor.dkjson"] = "lua/ik2d/vendor/dkjson.lua",
    -- end generated
  },
}
