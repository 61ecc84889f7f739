# ik2d: `make` builds ik2d/core.so for Lua 5.4; `make LUA=luajit` (or
# LUA=lua5.1) builds for LuaJIT / Lua 5.1 into its own folder under build/.
# `make test` installs what is missing, builds both and runs every suite.

LUA ?= lua5.4
ifeq ($(LUA),luajit)
LUA_VERSION ?= 5.1
LUA_INCDIR ?= /usr/include/luajit-2.1
else ifeq ($(LUA),lua5.1)
LUA_VERSION ?= 5.1
LUA_INCDIR ?= /usr/include/lua5.1
else
LUA_VERSION ?= 5.4
LUA_INCDIR ?= /usr/include/lua5.4
endif

PREFIX ?= /usr/local
DESTDIR ?=
LUA_LIBDIR ?= $(PREFIX)/lib/lua/$(LUA_VERSION)
LUA_SHAREDIR ?= $(PREFIX)/share/lua/$(LUA_VERSION)

CC ?= cc
OPTFLAGS ?= -O2
WARNFLAGS = -std=c99 -Wall -Wextra -Werror -Wmissing-prototypes -Wshadow \
            -Wstrict-prototypes -Wpointer-arith
# The same bits on every path and platform: a * b + c never contracted
# into an FMA.  FPFLAGS come last on every line that compiles C, after
# OPTFLAGS and CFLAGS, so no flag given to make turns contraction back on;
# what they cannot undo (-ffast-math, -Ofast, -ffinite-math-only) stops the
# build with an #error from src/ik2d_fp.h, whose pragmas keep the bits in
# builds made without this Makefile too (docs/invariants.md).
FPFLAGS = -ffp-contract=off
CFLAGS_ALL = $(OPTFLAGS) $(WARNFLAGS) -fPIC -fvisibility=hidden $(CFLAGS) $(FPFLAGS)
LIBFLAG ?= -shared

BUILD = build/$(LUA)
# The core's objects do not depend on the Lua version: one set serves both
# runtimes' builds, the C example and the specs' C programs (build/core);
# a build elsewhere (BUILD=..., as make rock-install, test-asan and
# test-valgrind give) keeps its own, made with its own flags.
ifeq ($(BUILD),build/$(LUA))
CORE_BUILD = build/core
else
CORE_BUILD = $(BUILD)/core
endif
# The core, layer by layer (docs/architecture.md), and apart from it the
# Lua binding.
CORE_SOURCES = src/ik2d_api.c src/ik2d_math.c src/ik2d_bone.c src/ik2d_bone_ik.c \
               src/ik2d_transform.c src/ik2d_timeline.c src/ik2d_constraint.c \
               src/ik2d_chain.c src/ik2d_pose.c src/ik2d_ccd.c \
               src/ik2d_fabrik.c src/ik2d_follow.c src/ik2d_two_bone.c src/ik2d_aim.c \
               src/ik2d_solver.c src/ik2d_spring.c \
               src/ik2d_isa.c src/ik2d_lanes_sse2.c src/ik2d_lanes_avx2.c \
               src/ik2d_lanes_avx512.c src/ik2d_batch.c \
               src/ik2d_skeleton.c src/ik2d_transform_constraint.c src/ik2d_skeleton_solve.c \
               src/ik2d_slots.c src/ik2d_clip.c
CORE_HEADERS = $(wildcard src/ik2d*.h)
BINDING_SOURCES = src/lua/luaik_api.c src/lua/luaik_options.c src/lua/luaik_core.c src/lua/luaik_constraint.c src/lua/luaik_chain.c \
                  src/lua/luaik_solver.c src/lua/luaik_group.c src/lua/luaik_ffi.c \
                  src/lua/luaik_skeleton.c src/lua/luaik_spring.c \
                  src/lua/luaik_transform_constraint.c src/lua/luaik_rig.c src/lua/luaik_module.c
BINDING_HEADERS = src/lua/luaik_api.h src/lua/luaik.h src/lua/luaik_compat.h
# the Lua side, its folders too (the pure-Lua core in lua/ik2d/pure/)
LUA_MODULES = $(patsubst lua/%,%,$(wildcard lua/ik2d/*.lua lua/ik2d/*/*.lua))
# the JSON decoder shipped for games without one (ik2d.rig.json) has its
# licence beside it
VENDOR_LICENCE = ik2d/vendor/dkjson-LICENSE.txt

.PHONY: all deps deps-dev test lint gen demo install uninstall clean

# any Lua runs the generator
LUA_FOR_GEN = $(firstword $(shell command -v lua5.4 luajit lua5.1 lua 2>/dev/null))

all: $(BUILD)/ik2d/core.so

CORE_OBJECTS = $(patsubst src/%.c,$(CORE_BUILD)/%.o,$(CORE_SOURCES))
BINDING_OBJECTS = $(patsubst src/lua/%.c,$(BUILD)/obj/%.o,$(BINDING_SOURCES))

$(CORE_BUILD)/%.o: src/%.c $(CORE_HEADERS)
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS_ALL) -c -o $@ $<

$(BUILD)/obj/%.o: src/lua/%.c $(CORE_HEADERS) $(BINDING_HEADERS)
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS_ALL) -I$(LUA_INCDIR) -c -o $@ $<

$(BUILD)/ik2d/core.so: $(CORE_OBJECTS) $(BINDING_OBJECTS)
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS_ALL) $(LIBFLAG) -o $@ $(CORE_OBJECTS) $(BINDING_OBJECTS) $(LDFLAGS) -lm

# --- dependencies: Debian packages --------------------------------------
# $(call debs,PACKAGES,NEEDS) installs the Debian packages when one of the
# needs (commands, or files by absolute path) is missing.
debs = missing=""; for n in $(2); do \
	  case $$n in /*) [ -e $$n ];; *) command -v $$n >/dev/null;; esac || missing="$$missing $$n"; \
	done; \
	[ -z "$$missing" ] && exit 0; \
	echo "deps: missing:$$missing"; \
	if ! command -v apt-get >/dev/null; then echo "deps: no apt-get here; install: $(1)"; exit 1; fi; \
	SUDO=; [ "$$(id -u)" = 0 ] || SUDO=sudo; \
	$$SUDO apt-get update -qq && \
	DEBIAN_FRONTEND=noninteractive $$SUDO apt-get install -y -qq $(1)

# make deps: what make test and make demo need (love and xvfb run the LOVE
# tests and the demo, zip makes the .love of the shipping test, node and
# npm the DragonBones runtime the reader's specs compare with: deps-node;
# clang builds the core as a user's clang would, spec/fp_flags_spec.lua)
DEB_PACKAGES = lua5.4 liblua5.4-dev luajit libluajit-5.1-dev lua5.1 \
               liblua5.1-0-dev lua-busted luarocks lua-check gcc g++ clang \
               make love xvfb zip nodejs npm
DEB_NEEDS = lua5.4 luajit busted luarocks luacheck cc c++ clang objdump love \
            xvfb-run zip node npm \
            /usr/include/lua5.4/lua.h /usr/include/luajit-2.1/lua.h \
            /usr/include/lua5.1/lua.h
# make deps-dev adds the hardening tools (make fuzz, test-asan,
# test-valgrind): the compiler-rt runtimes of the clang installed
# (libclang-rt-N-dev for its major version N), valgrind.
DEV_PACKAGES = valgrind
FUZZ_RUNTIME = libclang_rt.fuzzer-$$(uname -m).a

deps:
	@$(call debs,$(DEB_PACKAGES),$(DEB_NEEDS))
	@$(MAKE) --no-print-directory deps-node

# make deps-node: the DragonBones runtime (the npm package
# pixi-dragonbones-runtime, its DragonBones core without pixi.js) in
# build/npm, where spec/dragonbones/reference.js runs it under node; from
# the npm registry, once (again when the version asked for changes).
DRAGONBONES_RUNTIME_VERSION = 8.0.3
NPM_PREFIX = build/npm
.PHONY: deps-node
deps-node:
	@pkg=$(NPM_PREFIX)/node_modules/pixi-dragonbones-runtime/package.json; \
	grep -q '"version": "$(DRAGONBONES_RUNTIME_VERSION)"' $$pkg 2>/dev/null || \
	  npm install --prefix $(NPM_PREFIX) --no-save --omit=peer --ignore-scripts \
	    --no-audit --no-fund pixi-dragonbones-runtime@$(DRAGONBONES_RUNTIME_VERSION)

deps-dev: deps
	@$(call debs,$(DEV_PACKAGES),valgrind)
	@$(call debs,libclang-rt-$$(clang -dumpversion | cut -d. -f1)-dev,$$(clang -print-file-name=$(FUZZ_RUNTIME)))

# --- tests --------------------------------------------------------------
# `make test` (a few minutes on 2 cores): builds both runtimes, the C
# example and the LOVE folder, JOBS at a time, then spec/run.sh runs every
# spec file on its own, JOBS at a time, once per runtime (lua5.4, luajit)
# and core (the C core, LuaJIT's FFI path with it; IK2D_PURE=1, the
# pure-Lua core), with a line per file as it ends; then luacheck, make
# layers, the C example built as C99 and as C++, and the headless LOVE
# tests when love and xvfb-run are here.  It ends with one line `N
# passed, N failed` added up from the runners' own counts.  The specs' C programs link the
# core's objects this build made (IK2D_CORE_OBJECTS).
# `make test-all` (spec/run_all.sh, what CI runs): the same with
# IK2D_LONG=1 (the long loops: every instruction set, all of the
# differential sequences, the long property runs), then test-windows,
# test-platforms, test-asan, test-valgrind and fuzz, added up into one
# line `N passed, N failed`.
JOBS ?= $(shell nproc 2>/dev/null || echo 2)
.PHONY: test-build build-lua5.4 build-luajit test-all
build-lua5.4 build-luajit: $(CORE_OBJECTS)
	@$(MAKE) --no-print-directory all LUA=$(@:build-%=%)
test-build: build-lua5.4 build-luajit example-c

test: deps
	@$(MAKE) --no-print-directory -j$(JOBS) test-build
	@$(MAKE) --no-print-directory love-dist
	@IK2D_CORE_OBJECTS=$(CORE_BUILD) IK2D_JOBS=$(JOBS) bash spec/run.sh

test-all: deps-dev
	@MAKE="$(MAKE)" JOBS=$(JOBS) FUZZ_SECONDS=$(FUZZ_SECONDS) bash spec/run_all.sh

lint:
	luacheck lua spec examples bench src/gen.lua

# `make layers` (spec/layers.lua; make test runs it for both runtimes):
# fails on a link cycle among the C files (an object refers to another
# when it leaves undefined a symbol the other defines: a call, or a
# function's address in a table) and on a function over 80 lines in the
# core's solve paths.  spec/layers_known.txt lists the breaches known
# until their fix lands.
.PHONY: layers
layers: $(CORE_OBJECTS) $(BINDING_OBJECTS)
	@$(LUA_FOR_GEN) spec/layers.lua $(CORE_OBJECTS) $(BINDING_OBJECTS)

# The files and regions made from the one description of the API
# (lua/ik2d/api.lua): src/gen.lua rewrites them; spec/api_spec.lua fails
# while one is stale.
gen:
	@$(LUA_FOR_GEN) src/gen.lua

# The demo game; with no display it runs under Xvfb for a few seconds,
# saves a screenshot and prints its path.
demo: deps
	@$(MAKE) --no-print-directory all LUA=luajit
	@if [ -n "$$DISPLAY" ]; then love examples/love; \
	else xvfb-run -a -s "-screen 0 1280x720x24" love examples/love --screenshot; fi

# --- shipping a LOVE game ---------------------------------------------------
# `make love-dist` writes build/love-dist/ik2d/, the folder to drop into a
# game: the Lua side and the LuaJIT build of the core for this platform,
# and the Windows core.dll when `make windows` has built it.  In a .love,
# on Android, iOS and the web the core cannot load, and `require "ik2d"`
# takes the pure-Lua core in the same folder (docs/api.md, "Shipping").
LOVE_DIST = build/love-dist
.PHONY: love-dist
love-dist:
	@$(MAKE) --no-print-directory all LUA=luajit
	@rm -rf $(LOVE_DIST) && mkdir -p $(LOVE_DIST)/ik2d
	@cp -R lua/ik2d/. $(LOVE_DIST)/ik2d/
	@cp build/luajit/ik2d/core.so $(LOVE_DIST)/ik2d/
	@if [ -f $(WIN_BUILD)/ik2d/core.dll ]; then cp $(WIN_BUILD)/ik2d/core.dll $(LOVE_DIST)/ik2d/; fi
	@echo "love-dist: $(LOVE_DIST)/ik2d, with" $$(cd $(LOVE_DIST)/ik2d && ls core.*)

# --- Windows: core.dll for LOVE's LuaJIT ------------------------------------
# `make windows` cross-builds build/windows/ik2d/core.dll with Debian's
# mingw-w64, linked against lua51.dll (LOVE's LuaJIT) through an import
# library made from the Lua API functions the objects call, and checks the
# DLL (spec/windows/check_dll.sh: its exports, and that it imports only
# lua51.dll, KERNEL32 and msvcrt).  `make test-windows` runs spec/windows/
# solve.lua in a Windows LuaJIT, built from Debian's luajit source package,
# under wine.
WIN_CROSS ?= x86_64-w64-mingw32-
WIN_BUILD = build/windows
WIN_LUA_INCDIR ?= /usr/include/luajit-2.1
WIN_OBJECTS = $(patsubst src/%.c,$(WIN_BUILD)/obj/%.o,$(CORE_SOURCES) $(BINDING_SOURCES))
# GCC's 64-bit Windows target keeps the stack 16-byte aligned but spills
# AVX vectors with aligned moves (GCC bug 54412): the assembler writes
# every aligned vector move as an unaligned one, and the core, told so,
# builds its AVX2 and AVX-512 kernels (src/ik2d_isa.h).
WIN_VECTOR_FLAGS = -Wa,-muse-unaligned-vector-move -DIK2D_UNALIGNED_VECTOR_MOVES
WIN_CFLAGS = $(OPTFLAGS) $(WARNFLAGS) -DIK2D_BUILD_DLL \
             $(WIN_VECTOR_FLAGS) -I$(WIN_LUA_INCDIR) $(FPFLAGS)
.PHONY: windows deps-windows test-windows

deps-windows: deps
	@$(call debs,gcc-mingw-w64-x86-64,$(WIN_CROSS)gcc $(WIN_CROSS)dlltool $(WIN_CROSS)objdump)

windows: deps-windows
	@$(MAKE) --no-print-directory $(WIN_BUILD)/ik2d/core.dll
	@sh spec/windows/check_dll.sh $(WIN_CROSS) $(WIN_BUILD)/ik2d/core.dll

$(WIN_BUILD)/obj/%.o: src/%.c $(CORE_HEADERS) $(BINDING_HEADERS)
	@mkdir -p $(dir $@)
	$(WIN_CROSS)gcc $(WIN_CFLAGS) -c -o $@ $<

# lua51.dll's import library: the lua_* and luaL_* functions the objects use
$(WIN_BUILD)/liblua51.a: $(WIN_OBJECTS)
	{ echo "LIBRARY lua51.dll"; echo "EXPORTS"; \
	  $(WIN_CROSS)nm -u $(WIN_OBJECTS) | awk '$$2 ~ /^luaL?_/ { print $$2 }' | sort -u; } \
	  > $(WIN_BUILD)/lua51.def
	$(WIN_CROSS)dlltool -d $(WIN_BUILD)/lua51.def -l $@

$(WIN_BUILD)/ik2d/core.dll: $(WIN_OBJECTS) $(WIN_BUILD)/liblua51.a
	@mkdir -p $(dir $@)
	$(WIN_CROSS)gcc -shared -o $@ $(WIN_OBJECTS) -L$(WIN_BUILD) -llua51 -Wl,--no-undefined

test-windows: windows
	@$(call debs,wine64 wine dpkg-dev,wine dpkg-source)
	@$(MAKE) --no-print-directory love-dist
	@sh spec/windows_run.sh

# --- the same bits on every platform ----------------------------------------
# `make test-platforms` (spec/golden/platforms.sh): the golden program built
# and run natively, natively with glibc's FMA variants off, natively by
# clang with -O2 -ffp-contract=fast -march=native (after the project's
# flags, as a user's build would), for Windows with mingw-w64 under wine,
# and for Linux aarch64 under qemu; every part of its hash must equal the
# one value in spec/golden/expected.
# `make deps-platforms` installs the cross compilers and emulators.
PLATFORM_PACKAGES = gcc-mingw-w64-x86-64 wine64 wine gcc-aarch64-linux-gnu \
                    libc6-dev-arm64-cross qemu-user
.PHONY: deps-platforms test-platforms
deps-platforms: deps
	@$(call debs,$(PLATFORM_PACKAGES),$(WIN_CROSS)gcc wine aarch64-linux-gnu-gcc qemu-aarch64 /usr/aarch64-linux-gnu/lib/libm.a)

test-platforms: deps-platforms
	@sh spec/golden/platforms.sh

# --- the C example --------------------------------------------------------
# examples/c/arm.c uses src/ik2d.h alone: built as C99 with $(CC) and as
# C++ with $(CXX) (-x c++), both linked with the core compiled as C, both
# strict (-Wall -Wextra -pedantic -Werror); `make test` builds them and
# spec/run.sh runs and counts them.
EXAMPLE_BUILD = build/examples
EXAMPLE_FLAGS = -Wall -Wextra -pedantic -Werror -Isrc

.PHONY: example-c
example-c: $(EXAMPLE_BUILD)/arm-c99 $(EXAMPLE_BUILD)/arm-c++

$(EXAMPLE_BUILD)/arm-c99: examples/c/arm.c src/ik2d.h $(CORE_OBJECTS)
	@mkdir -p $(dir $@)
	$(CC) -std=c99 $(EXAMPLE_FLAGS) $(FPFLAGS) -o $@ examples/c/arm.c $(CORE_OBJECTS) $(LDFLAGS) -lm

$(EXAMPLE_BUILD)/arm-c++: examples/c/arm.c src/ik2d.h $(CORE_OBJECTS)
	@mkdir -p $(dir $@)
	$(CXX) $(EXAMPLE_FLAGS) $(FPFLAGS) -o $@ -x c++ examples/c/arm.c -x none $(CORE_OBJECTS) $(LDFLAGS) -lm

# --- install: the same files as the rockspec ----------------------------
install: all
	install -d $(DESTDIR)$(LUA_LIBDIR)/ik2d
	install -m 755 $(BUILD)/ik2d/core.so $(DESTDIR)$(LUA_LIBDIR)/ik2d/core.so
	for f in $(LUA_MODULES); do install -D -m 644 lua/$$f $(DESTDIR)$(LUA_SHAREDIR)/$$f || exit 1; done
	install -m 644 lua/$(VENDOR_LICENCE) $(DESTDIR)$(LUA_SHAREDIR)/$(VENDOR_LICENCE)

# `luarocks make` on Unix (the rockspec's make backend): builds in a
# temporary folder and installs from it, so nothing is left in the tree
# (luarocks' builtin backend writes src/*.o and ./ik2d/core.so, which
# shadows other builds for an interpreter started here).
.PHONY: rock-install
rock-install:
	@tmp=$$(mktemp -d) && trap 'rm -rf "$$tmp"' EXIT && \
	$(MAKE) --no-print-directory install BUILD="$$tmp"

uninstall:
	rm -f $(DESTDIR)$(LUA_LIBDIR)/ik2d/core.so
	rm -f $(addprefix $(DESTDIR)$(LUA_SHAREDIR)/,$(LUA_MODULES) $(VENDOR_LICENCE))

# build/ holds every build; the rest is what an older `luarocks make`
# (the builtin backend: objects beside the sources, the module in ./ik2d)
# left in the tree, where ./ik2d/core.so shadows other builds.
clean:
	rm -rf build
	rm -f src/*.o src/lua/*.o ik2d/core.so ik2d/core.dll
	rmdir ik2d 2>/dev/null || true

# --- benchmark ----------------------------------------------------------
# `make bench` (bench/run.sh) builds both runtimes and the C core bench, runs
# the frame loop bench on Lua 5.4 and LuaJIT, the C bench and callgrind, and
# prints the tables and the headline ratios as markdown; then the character
# scene (make bench-character).
.PHONY: bench
build/core_bench: bench/core_bench.c $(CORE_SOURCES) $(CORE_HEADERS)
	@mkdir -p $(dir $@)
	$(CC) -O2 $(WARNFLAGS) -DIK2D_STATS $(CFLAGS) $(FPFLAGS) -Isrc -o $@ bench/core_bench.c $(CORE_SOURCES) $(LDFLAGS) -lm

bench:
	@MAKE="$(MAKE)" sh bench/run.sh

# --- skeleton bench -----------------------------------------------------
# `make bench-skeleton`: 100 characters of 20 bones with 5 solvers each,
# sk:solve() for all of them a frame, on LuaJIT (FFI and classic) and Lua 5.4.
.PHONY: bench-skeleton
bench-skeleton:
	@$(MAKE) --no-print-directory all LUA=luajit
	@$(MAKE) --no-print-directory all LUA=lua5.4
	@luajit bench/skeleton_bench.lua
	@IK2D_NO_FFI=1 luajit bench/skeleton_bench.lua
	@lua5.4 bench/skeleton_bench.lua

# --- character bench ----------------------------------------------------
# `make bench-character` (bench/character.sh, also the end of `make bench`):
# crowds of 100 and 1,000 20-bone characters (torso, arms, legs with tip
# angles and poles), one sk:solve() a character, every transform read, on
# LuaJIT (FFI and classic), Lua 5.4, the pure-Lua core and the C API,
# against a plain-Lua peer measured in the same rounds.
.PHONY: bench-character
build/bench/character: bench/character_bench.c $(CORE_SOURCES) $(CORE_HEADERS)
	@mkdir -p $(dir $@)
	$(CC) -O2 $(WARNFLAGS) $(CFLAGS) $(FPFLAGS) -Isrc -o $@ bench/character_bench.c $(CORE_SOURCES) $(LDFLAGS) -lm

bench-character:
	@MAKE="$(MAKE)" sh bench/character.sh

# --- rig loading bench ----------------------------------------------------
# `make bench-rig`: a generated 67-bone Spine rig of 11 animations (about
# 1 MB of JSON, bench/spine_rig_gen.lua) decoded with each JSON library
# there is and read to its rig description, on LuaJIT and Lua 5.4; then
# the hero a frame (bench/rig_frame.lua: clip, constraints, world
# matrices, every attachment's world vertices) for 1 and 100 characters
# against a plain-Lua runtime of the same playback, on LuaJIT (FFI and
# classic), Lua 5.4 and the pure core.
.PHONY: bench-rig
bench-rig:
	@$(MAKE) --no-print-directory all LUA=luajit
	@$(MAKE) --no-print-directory all LUA=lua5.4
	@luajit bench/rig_load.lua
	@lua5.4 bench/rig_load.lua
	@luajit bench/rig_frame.lua
	@IK2D_NO_FFI=1 luajit bench/rig_frame.lua
	@lua5.4 bench/rig_frame.lua
	@IK2D_PURE=1 luajit bench/rig_frame.lua
	@IK2D_PURE=1 lua5.4 bench/rig_frame.lua

# --- solve quality benchmark ----------------------------------------------
# `make bench-quality`: convergence, tracking and jitter of ik2d's CCD and
# FABRIK against textbook CCD (bench/quality.c, fixed seed).
.PHONY: bench-quality
build/bench/quality: bench/quality.c $(CORE_SOURCES) $(CORE_HEADERS)
	@mkdir -p $(dir $@)
	$(CC) -O2 $(WARNFLAGS) $(CFLAGS) $(FPFLAGS) -Isrc -o $@ bench/quality.c $(CORE_SOURCES) $(LDFLAGS) -lm

bench-quality: build/bench/quality
	@./build/bench/quality

# --- hardening: fuzzing, sanitizers, valgrind ----------------------------
# `make fuzz` builds the libFuzzer targets spec/fuzz/ik2d_fuzz.c and
# skeleton_fuzz.c over the C core (clang -fsanitize=fuzzer,address,undefined)
# and runs each for FUZZ_SECONDS: seeds from spec/fuzz/corpus and spec/fuzz/regressions, new
# inputs to build/fuzz/corpus, a breaking input to build/fuzz/crash-* (and
# a non-zero exit).  Add such an input to spec/fuzz/regressions/, which
# `make test` replays (spec/fuzz/replay_spec.lua).
# `make test-asan`: the busted suite on Lua 5.4 against the module built with
# -fsanitize=address,undefined (build/asan), the ASan runtime preloaded into
# the uninstrumented interpreter, a busted per spec file, JOBS at a time
# (spec/run.sh, which ends with `N passed, N failed`).  Leak checking is off there (LSan would
# report the interpreter's and the spawned compilers' deliberate leaks at
# exit); leaks are test-valgrind's job.
# `make test-valgrind`: the same suite under valgrind memcheck, the same
# way; any error or definitely lost byte fails it, in the child
# interpreters the specs start as well (IK2D_CHILD_WRAPPER).
# `make deps-dev` installs clang, libclang-rt-N-dev (the runtimes of the installed
# clang version), valgrind.
.PHONY: fuzz test-asan test-valgrind
FUZZ_SECONDS ?= 60
FUZZ_CC ?= clang
SAN_CC ?= clang
FUZZ_FLAGS = -g -O1 -std=c99 -fsanitize=fuzzer,address,undefined \
             -fno-sanitize-recover=all
SAN_OPTFLAGS = -g -O1 -fno-omit-frame-pointer -fsanitize=address,undefined \
               -fno-sanitize-recover=all
VALGRIND = valgrind -q --error-exitcode=99 --leak-check=full \
           --errors-for-leak-kinds=definite --show-leak-kinds=definite \
           --num-callers=30
HARDEN_SPECS ?= spec
# what the sanitizers cannot watch: the rock built by luarocks without
# them (in children that inherit the ASan runtime, each compile 10x slower)
HARDEN_SKIP ?= spec/install_spec.lua

build/fuzz/ik2d_fuzz: spec/fuzz/ik2d_fuzz.c $(CORE_SOURCES) $(CORE_HEADERS)
	@mkdir -p $(dir $@)
	$(FUZZ_CC) $(FUZZ_FLAGS) $(FPFLAGS) -Isrc -o $@ spec/fuzz/ik2d_fuzz.c $(CORE_SOURCES) -lm

# the skeleton target includes ik2d_fuzz.c for its reader and checks
build/fuzz/skeleton_fuzz: spec/fuzz/skeleton_fuzz.c spec/fuzz/ik2d_fuzz.c $(CORE_SOURCES) $(CORE_HEADERS)
	@mkdir -p $(dir $@)
	$(FUZZ_CC) $(FUZZ_FLAGS) $(FPFLAGS) -Isrc -o $@ spec/fuzz/skeleton_fuzz.c $(CORE_SOURCES) -lm

fuzz: deps-dev build/fuzz/ik2d_fuzz build/fuzz/skeleton_fuzz
	@mkdir -p build/fuzz/corpus build/fuzz/skeleton_corpus
	cd build/fuzz && ./ik2d_fuzz -max_total_time=$(FUZZ_SECONDS) -timeout=20 \
	  -print_final_stats=1 -artifact_prefix=./ \
	  corpus ../../spec/fuzz/corpus ../../spec/fuzz/regressions
	cd build/fuzz && ./skeleton_fuzz -max_total_time=$(FUZZ_SECONDS) -timeout=20 \
	  -print_final_stats=1 -artifact_prefix=./skeleton- \
	  skeleton_corpus ../../spec/fuzz/skeleton_corpus ../../spec/fuzz/skeleton_regressions

test-asan: deps-dev
	@$(MAKE) --no-print-directory all LUA=lua5.4 BUILD=build/asan CC=$(SAN_CC) \
	  OPTFLAGS="$(SAN_OPTFLAGS)" LDFLAGS="-fsanitize=address,undefined"
	@runtime=$$($(SAN_CC) -print-file-name=libclang_rt.asan-$$(uname -m).so); \
	if [ ! -f "$$runtime" ]; then \
	  echo "test-asan: no ASan runtime ($$runtime): run make deps-dev"; exit 1; fi; \
	echo "== busted on lua5.4 with $$runtime preloaded"; \
	ASAN_OPTIONS=detect_leaks=0:halt_on_error=1:abort_on_error=1 \
	UBSAN_OPTIONS=halt_on_error=1:print_stacktrace=1 \
	IK2D_RUN_NAME=asan IK2D_RUN_PASSES=lua5.4:c IK2D_RUN_BUILD=build/asan IK2D_RUN_EXTRAS=0 \
	IK2D_RUN_WRAP="env LD_PRELOAD=$$runtime" IK2D_RUN_SPECS="$(HARDEN_SPECS)" IK2D_RUN_SKIP="$(HARDEN_SKIP)" IK2D_JOBS=$(JOBS) \
	  bash spec/run.sh

# Under valgrind the whole interpreter runs ~20x slower: the specs run
# their short loops, as make test (the differential spec's 300 sequences
# call every C function of the API; its pure-Lua half, most of its time
# here, is nothing memcheck watches; make test-all draws 6000 without it).
# The rig file's and the JSON and DragonBones readers' specs are skipped
# there: their time is Lua decoding, writing and placing, and the C they
# call (slots, clips, rig targets) is what the rig play, slots and rig
# differential specs drive under memcheck.
VALGRIND_SKIP ?= $(HARDEN_SKIP) spec/rig_file_spec.lua spec/rig_json_spec.lua \
                 spec/rig_dragonbones_spec.lua spec/rig_dragonbones_reference_spec.lua
test-valgrind: deps-dev
	@$(MAKE) --no-print-directory all LUA=lua5.4 BUILD=build/valgrind OPTFLAGS="-O2 -g"
	@echo "== busted on lua5.4 under valgrind memcheck"
	@IK2D_CHILD_WRAPPER="$(VALGRIND)" \
	IK2D_RUN_NAME=valgrind IK2D_RUN_PASSES=lua5.4:c IK2D_RUN_BUILD=build/valgrind IK2D_RUN_EXTRAS=0 \
	IK2D_RUN_WRAP="$(VALGRIND)" IK2D_RUN_SPECS="$(HARDEN_SPECS)" IK2D_RUN_SKIP="$(VALGRIND_SKIP)" IK2D_JOBS=$(JOBS) \
	  bash spec/run.sh
