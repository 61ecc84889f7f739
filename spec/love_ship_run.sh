#!/bin/sh
# The shipping test in real LOVE 11 under Xvfb (make test runs it): a game
# (spec/love_ship/) that vendors build/love-dist/ik2d as `make love-dist`
# wrote it, run three ways, each with a save folder of its own:
#   folder  the game folder with ik2d/core.so: the native core, FFI on
#   save    the library in the game's save folder instead: the same
#   .love   the folder zipped: the library cannot load from the zip, and
#           the pure-Lua core answers, with the native core's bits
# each started from an empty folder (see play), each reading a Spine rig
# (rig.json) through love.filesystem and the vendored dkjson.
# Prints the game's lines and `love: N passed, N failed` summed.
cd "$(dirname "$0")/.." || exit 1
top=$(pwd)
dist=$top/build/love-dist/ik2d

fail() {
  echo "love_ship_run.sh: $1" >&2
  echo "love: 0 passed, 1 failed"
  exit 1
}

command -v love >/dev/null 2>&1 || fail "love is not installed (make deps)"
command -v xvfb-run >/dev/null 2>&1 || fail "xvfb-run is not installed (make deps)"
command -v zip >/dev/null 2>&1 || fail "zip is not installed (make deps)"
[ -f "$dist/core.so" ] || fail "$dist/core.so is missing: run make love-dist"

work=$(mktemp -d) || exit 1
trap 'rm -rf "$work"' EXIT
passed=0
failed=0

# play NAME GAME BACKEND: runs GAME expecting BACKEND, with save folders
# under $work/NAME (XDG_DATA_HOME), and adds its count.  It runs from an
# empty folder: started from inside the game's folder, LuaJIT's ./?.so
# would load ik2d/core.so, and a .love's fallback would go untested.
play() {
  echo "== LOVE shipping test: $1"
  (cd "$work/elsewhere" && XDG_DATA_HOME="$work/$1" timeout 120 xvfb-run -a -s "-screen 0 640x480x24" \
    love "$2" "$3" "$work/tips.txt") > "$work/$1.log" 2>&1
  cat "$work/$1.log"
  line=$(grep -E '^love: [0-9]+ passed, [0-9]+ failed' "$work/$1.log" | tail -n 1)
  if [ -z "$line" ]; then
    echo "love_ship_run.sh: the $1 run printed no count" >&2
    failed=$((failed + 1))
    return
  fi
  passed=$((passed + $(echo "$line" | sed -E 's/^love: ([0-9]+) passed.*/\1/')))
  failed=$((failed + $(echo "$line" | sed -E 's/.* ([0-9]+) failed.*/\1/')))
}

mkdir -p "$work/elsewhere" || fail "cannot make an empty folder to run from"
game=$work/game
mkdir -p "$game" && cp -R spec/love_ship/. "$game/" && cp -R "$dist" "$game/ik2d" &&
  cp spec/rigs/constraints.json "$game/rig.json" ||
  fail "cannot lay out the game"
play folder "$game" ffi

mkdir -p "$work/save/love/ik2d-ship-test/ik2d" && cp "$dist/core.so" "$work/save/love/ik2d-ship-test/ik2d/" &&
  cp -R "$game" "$work/game-save" && rm "$work/game-save/ik2d/core.so" || fail "cannot lay out the save run"
play save "$work/game-save" ffi

(cd "$game" && zip -qr "$work/game.love" .) || fail "cannot zip the game"
play love "$work/game.love" lua

echo "love: $passed passed, $failed failed"
[ "$failed" -eq 0 ]
