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
# The same bits on every path: no contraction of a * b + c into an FMA.
FPFLAGS = -ffp-contract=off
CFLAGS_ALL = $(OPTFLAGS) $(WARNFLAGS) $(FPFLAGS) -fPIC -fvisibility=hidden $(CFLAGS)
LIBFLAG ?= -shared

BUILD = build/$(LUA)
# The core, layer by layer (README, "Architecture"), and apart from it the
# Lua binding.
CORE_SOURCES = src/ik2d_status.c src/ik2d_math.c src/ik2d_constraint.c \
               src/ik2d_chain.c src/ik2d_pose.c src/ik2d_ccd.c \
               src/ik2d_fabrik.c src/ik2d_follow.c src/ik2d_two_bone.c \
               src/ik2d_solver.c src/ik2d_spring.c \
               src/ik2d_isa.c src/ik2d_lanes_sse2.c src/ik2d_lanes_avx2.c \
               src/ik2d_lanes_avx512.c src/ik2d_batch.c \
               src/ik2d_skeleton.c src/ik2d_skeleton_solve.c
CORE_HEADERS = $(wildcard src/ik2d*.h)
BINDING_SOURCES = src/lua/luaik_core.c src/lua/luaik_chain.c \
                  src/lua/luaik_solver.c src/lua/luaik_group.c src/lua/luaik_ffi.c \
                  src/lua/luaik_skeleton.c src/lua/luaik_spring.c
BINDING_HEADERS = src/lua/luaik.h src/lua/luaik_compat.h
LUA_MODULES = $(wildcard lua/ik2d/*.lua)
PURE_MODULES = $(wildcard lua/ik2d/pure/*.lua)

.PHONY: all deps test lint demo install uninstall clean

all: $(BUILD)/ik2d/core.so

$(BUILD)/ik2d/core.so: $(CORE_SOURCES) $(BINDING_SOURCES) $(CORE_HEADERS) $(BINDING_HEADERS)
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS_ALL) -I$(LUA_INCDIR) $(LIBFLAG) -o $@ $(CORE_SOURCES) $(BINDING_SOURCES) $(LDFLAGS) -lm

# --- dependencies: Debian packages --------------------------------------
# love and xvfb run the headless LOVE test; clang, its runtime and valgrind
# serve make fuzz, test-asan and test-valgrind.
DEB_PACKAGES = lua5.4 liblua5.4-dev luajit libluajit-5.1-dev lua5.1 \
               liblua5.1-0-dev lua-busted luarocks lua-check gcc make \
               love xvfb clang libclang-rt-14-dev valgrind
DEB_COMMANDS = lua5.4 luajit busted luarocks luacheck cc love xvfb-run \
               clang valgrind

deps:
	@missing=""; for c in $(DEB_COMMANDS); do command -v $$c >/dev/null || missing="$$missing $$c"; done; \
	for h in /usr/include/lua5.4/lua.h /usr/include/luajit-2.1/lua.h /usr/include/lua5.1/lua.h; do \
	  [ -f $$h ] || missing="$$missing $$h"; done; \
	ls /usr/lib/llvm-*/lib/clang/*/lib/linux/libclang_rt.fuzzer-x86_64.a >/dev/null 2>&1 || \
	  missing="$$missing libclang-rt"; \
	if [ -z "$$missing" ]; then exit 0; fi; \
	echo "deps: missing:$$missing"; \
	if ! command -v apt-get >/dev/null; then \
	  echo "deps: no apt-get here; install: $(DEB_PACKAGES)"; exit 1; fi; \
	SUDO=; [ "$$(id -u)" = 0 ] || SUDO=sudo; \
	$$SUDO apt-get update -qq && \
	DEBIAN_FRONTEND=noninteractive $$SUDO apt-get install -y -qq $(DEB_PACKAGES)

# --- tests --------------------------------------------------------------
# spec/run.sh runs every suite (busted on both runtimes, the C example
# built as C99 and as C++, then the headless LOVE test when love and
# xvfb-run are here) and ends with one line `N passed, N failed` added up
# from the runners' own counts.
test: deps
	@$(MAKE) --no-print-directory all LUA=lua5.4
	@$(MAKE) --no-print-directory all LUA=luajit
	@$(MAKE) --no-print-directory example-c
	@sh spec/run.sh

lint:
	luacheck lua spec examples bench

# The demo game; with no display it runs under Xvfb for a few seconds,
# saves a screenshot and prints its path.
demo:
	@$(MAKE) --no-print-directory all LUA=luajit
	@if [ -n "$$DISPLAY" ]; then love examples/love; \
	else xvfb-run -a -s "-screen 0 1280x720x24" love examples/love --screenshot; fi

# --- the C example --------------------------------------------------------
# examples/c/arm.c uses src/ik2d.h alone: built as C99 with $(CC) and as
# C++ with $(CXX) (-x c++), both linked with the core compiled as C, both
# strict (-Wall -Wextra -pedantic -Werror); `make test` builds them and
# spec/run.sh runs and counts them.
EXAMPLE_BUILD = build/examples
CORE_OBJECTS = $(patsubst src/%.c,$(EXAMPLE_BUILD)/core/%.o,$(CORE_SOURCES))
EXAMPLE_FLAGS = -Wall -Wextra -pedantic -Werror -Isrc

.PHONY: example-c
example-c: $(EXAMPLE_BUILD)/arm-c99 $(EXAMPLE_BUILD)/arm-c++

$(EXAMPLE_BUILD)/core/%.o: src/%.c $(CORE_HEADERS)
	@mkdir -p $(dir $@)
	$(CC) $(OPTFLAGS) $(WARNFLAGS) $(FPFLAGS) $(CFLAGS) -c -o $@ $<

$(EXAMPLE_BUILD)/arm-c99: examples/c/arm.c src/ik2d.h $(CORE_OBJECTS)
	$(CC) -std=c99 $(EXAMPLE_FLAGS) -o $@ examples/c/arm.c $(CORE_OBJECTS) $(LDFLAGS) -lm

$(EXAMPLE_BUILD)/arm-c++: examples/c/arm.c src/ik2d.h $(CORE_OBJECTS)
	$(CXX) $(EXAMPLE_FLAGS) -o $@ -x c++ examples/c/arm.c -x none $(CORE_OBJECTS) $(LDFLAGS) -lm

# --- install: the same files as the rockspec ----------------------------
install: all
	install -d $(DESTDIR)$(LUA_LIBDIR)/ik2d $(DESTDIR)$(LUA_SHAREDIR)/ik2d/pure
	install -m 755 $(BUILD)/ik2d/core.so $(DESTDIR)$(LUA_LIBDIR)/ik2d/core.so
	install -m 644 $(LUA_MODULES) $(DESTDIR)$(LUA_SHAREDIR)/ik2d/
	install -m 644 $(PURE_MODULES) $(DESTDIR)$(LUA_SHAREDIR)/ik2d/pure/

uninstall:
	rm -f $(DESTDIR)$(LUA_LIBDIR)/ik2d/core.so
	rm -f $(addprefix $(DESTDIR)$(LUA_SHAREDIR)/ik2d/,$(notdir $(LUA_MODULES)))
	rm -f $(addprefix $(DESTDIR)$(LUA_SHAREDIR)/ik2d/pure/,$(notdir $(PURE_MODULES)))

clean:
	rm -rf build

# --- benchmark ----------------------------------------------------------
# `make bench` (bench/run.sh) builds both runtimes and the C core bench, runs
# the frame loop bench on Lua 5.4 and LuaJIT, the C bench and callgrind, and
# prints the tables and the goals of issue 4 as markdown.
.PHONY: bench
build/core_bench: bench/core_bench.c $(CORE_SOURCES) $(CORE_HEADERS)
	@mkdir -p $(dir $@)
	$(CC) -O2 $(WARNFLAGS) $(CFLAGS) -Isrc -o $@ bench/core_bench.c $(CORE_SOURCES) $(LDFLAGS) -lm

bench:
	@MAKE="$(MAKE)" sh bench/run.sh

# --- skeleton bench (issue 12) -------------------------------------------
# `make bench-skeleton`: 100 characters of 20 bones with 5 solvers each,
# sk:solve() for all of them a frame, on LuaJIT (FFI and classic) and Lua 5.4.
.PHONY: bench-skeleton
bench-skeleton:
	@$(MAKE) --no-print-directory all LUA=luajit
	@$(MAKE) --no-print-directory all LUA=lua5.4
	@luajit bench/skeleton_bench.lua
	@IK2D_NO_FFI=1 luajit bench/skeleton_bench.lua
	@lua5.4 bench/skeleton_bench.lua

# --- solve quality benchmark ----------------------------------------------
# `make bench-quality`: convergence, tracking and jitter of ik2d's CCD and
# FABRIK against textbook CCD (bench/quality.c, fixed seed; issue 6).
.PHONY: bench-quality
build/bench/quality: bench/quality.c $(CORE_SOURCES) $(CORE_HEADERS)
	@mkdir -p $(dir $@)
	$(CC) -O2 $(WARNFLAGS) $(CFLAGS) -Isrc -o $@ bench/quality.c $(CORE_SOURCES) $(LDFLAGS) -lm

bench-quality: build/bench/quality
	@./build/bench/quality

# --- hardening: fuzzing, sanitizers, valgrind (issue 5) -------------------
# `make fuzz` builds the libFuzzer targets spec/fuzz/ik2d_fuzz.c and
# skeleton_fuzz.c over the C core (clang -fsanitize=fuzzer,address,undefined)
# and runs each for FUZZ_SECONDS: seeds from spec/fuzz/corpus and spec/fuzz/regressions, new
# inputs to build/fuzz/corpus, a breaking input to build/fuzz/crash-* (and
# a non-zero exit).  Add such an input to spec/fuzz/regressions/, which
# `make test` replays (spec/fuzz/replay_spec.lua).
# `make test-asan`: the busted suite on Lua 5.4 against the module built with
# -fsanitize=address,undefined (build/asan), the ASan runtime preloaded into
# the uninstrumented interpreter.  Leak checking is off there (LSan would
# report the interpreter's and the spawned compilers' deliberate leaks at
# exit); leaks are test-valgrind's job.
# `make test-valgrind`: the same suite under valgrind memcheck; any error or
# definitely lost byte fails it, in the child interpreters the specs start
# as well (IK2D_CHILD_WRAPPER).
# Debian packages: clang, libclang-rt-14-dev (the runtimes of the installed
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

build/fuzz/ik2d_fuzz: spec/fuzz/ik2d_fuzz.c $(CORE_SOURCES) $(CORE_HEADERS)
	@mkdir -p $(dir $@)
	$(FUZZ_CC) $(FUZZ_FLAGS) -Isrc -o $@ spec/fuzz/ik2d_fuzz.c $(CORE_SOURCES) -lm

# the skeleton target (issue 12) includes ik2d_fuzz.c for its reader and checks
build/fuzz/skeleton_fuzz: spec/fuzz/skeleton_fuzz.c spec/fuzz/ik2d_fuzz.c $(CORE_SOURCES) $(CORE_HEADERS)
	@mkdir -p $(dir $@)
	$(FUZZ_CC) $(FUZZ_FLAGS) -Isrc -o $@ spec/fuzz/skeleton_fuzz.c $(CORE_SOURCES) -lm

fuzz: build/fuzz/ik2d_fuzz build/fuzz/skeleton_fuzz
	@mkdir -p build/fuzz/corpus build/fuzz/skeleton_corpus
	cd build/fuzz && ./ik2d_fuzz -max_total_time=$(FUZZ_SECONDS) -timeout=20 \
	  -print_final_stats=1 -artifact_prefix=./ \
	  corpus ../../spec/fuzz/corpus ../../spec/fuzz/regressions
	cd build/fuzz && ./skeleton_fuzz -max_total_time=$(FUZZ_SECONDS) -timeout=20 \
	  -print_final_stats=1 -artifact_prefix=./skeleton- \
	  skeleton_corpus ../../spec/fuzz/skeleton_corpus ../../spec/fuzz/skeleton_regressions

test-asan:
	@$(MAKE) --no-print-directory all LUA=lua5.4 BUILD=build/asan CC=$(SAN_CC) \
	  OPTFLAGS="$(SAN_OPTFLAGS)" LDFLAGS="-fsanitize=address,undefined"
	@runtime=$$($(SAN_CC) -print-file-name=libclang_rt.asan-$$(uname -m).so); \
	if [ ! -f "$$runtime" ]; then \
	  echo "test-asan: no ASan runtime ($$runtime): install libclang-rt-14-dev"; exit 1; fi; \
	echo "== busted on lua5.4 with $$runtime preloaded"; \
	ASAN_OPTIONS=detect_leaks=0:halt_on_error=1:abort_on_error=1 \
	UBSAN_OPTIONS=halt_on_error=1:print_stacktrace=1 \
	LD_PRELOAD="$$runtime" lua5.4 "$$(command -v busted)" \
	  --cpath='build/asan/?.so' -o utfTerminal $(HARDEN_SPECS)

test-valgrind:
	@$(MAKE) --no-print-directory all LUA=lua5.4 BUILD=build/valgrind OPTFLAGS="-O2 -g"
	@echo "== busted on lua5.4 under valgrind memcheck"
	@IK2D_CHILD_WRAPPER="$(VALGRIND)" $(VALGRIND) lua5.4 "$$(command -v busted)" \
	  --cpath='build/valgrind/?.so' -o utfTerminal $(HARDEN_SPECS)
