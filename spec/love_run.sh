#!/bin/sh
# The headless LOVE test: runs a game's --test mode in real LOVE 11 under
# Xvfb against the in-tree LuaJIT build (the demo's, examples/love/
# autotest.lua, by default; another example's folder when given), prints
# its lines and its count (`love: N passed, N failed`; the examples say
# `spider: ...`, `rifleman: ...`, `viewer: ...`, `hero_walk: ...`), and
# exits with its status (non-zero on any failure, or when it cannot run).
# Usage: sh spec/love_run.sh [game folder]   (from anywhere; `make test`
# runs it)
cd "$(dirname "$0")/.." || exit 1
game=${1:-examples/love}

fail() {
  echo "love_run.sh: $1" >&2
  echo "love: 0 passed, 1 failed"
  exit 1
}

command -v love >/dev/null 2>&1 || fail "love is not installed (make deps)"
[ -f build/luajit/ik2d/core.so ] || fail "build/luajit/ik2d/core.so is missing: run make LUA=luajit"

run() {
  if command -v timeout >/dev/null 2>&1; then
    timeout 300 "$@"
  else
    "$@"
  fi
}

if command -v xvfb-run >/dev/null 2>&1; then
  # 24-bit screen: xvfb-run's default is 8-bit
  run xvfb-run -a -s "-screen 0 1280x720x24" love "$game" --test
elif [ -n "$DISPLAY" ]; then
  run love "$game" --test
else
  fail "neither xvfb-run nor a display is available (make deps)"
fi
status=$?
[ "$status" -eq 124 ] && echo "love_run.sh: timed out after 300 s" >&2
exit "$status"
