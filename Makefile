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
CFLAGS_ALL = $(OPTFLAGS) $(WARNFLAGS) -fPIC -fvisibility=hidden $(CFLAGS)
LIBFLAG ?= -shared

BUILD = build/$(LUA)
CORE_SOURCES = src/ik2d_chain.c src/ik2d_solver.c src/ik2d_ccd.c \
               src/ik2d_fabrik.c src/ik2d_two_bone.c src/ik2d_batch.c
CORE_HEADERS = src/ik2d.h src/ik2d_internal.h
BINDING_SOURCES = src/ik2d_lua.c
LUA_MODULES = $(wildcard lua/ik2d/*.lua)

.PHONY: all deps test lint install uninstall clean

all: $(BUILD)/ik2d/core.so

$(BUILD)/ik2d/core.so: $(CORE_SOURCES) $(BINDING_SOURCES) $(CORE_HEADERS) src/ik2d_compat.h
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
# spec/run.sh runs every suite (busted on both runtimes, then the headless
# LOVE test when love and xvfb-run are here) and ends with one line
# `N passed, N failed` added up from the runners' own counts.
test: deps
	@$(MAKE) --no-print-directory all LUA=lua5.4
	@$(MAKE) --no-print-directory all LUA=luajit
	@sh spec/run.sh

lint:
	luacheck lua spec examples bench

# --- install: the same files as the rockspec ----------------------------
install: all
	install -d $(DESTDIR)$(LUA_LIBDIR)/ik2d $(DESTDIR)$(LUA_SHAREDIR)/ik2d
	install -m 755 $(BUILD)/ik2d/core.so $(DESTDIR)$(LUA_LIBDIR)/ik2d/core.so
	install -m 644 $(LUA_MODULES) $(DESTDIR)$(LUA_SHAREDIR)/ik2d/

uninstall:
	rm -f $(DESTDIR)$(LUA_LIBDIR)/ik2d/core.so
	rm -f $(addprefix $(DESTDIR)$(LUA_SHAREDIR)/ik2d/,$(notdir $(LUA_MODULES)))

clean:
	rm -rf build
