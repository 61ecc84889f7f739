#!/bin/sh
# bench/character.sh: what `make bench-character` runs, and the last part
# of `make bench`.  Builds ik2d for Lua 5.4 and LuaJIT and the C character
# bench, runs the character scene (bench/character_bench.lua) on both
# runtimes and through the C API (bench/character_bench.c), and prints
# markdown: the table and each row against its goal speed.  Raw outputs
# stay in build/bench (character-*).  BENCH_TIME and BENCH_REPEATS as
# for bench/character_bench.lua.
set -u
cd "$(dirname "$0")/.." || exit 1
MAKE=${MAKE:-make}
out=build/bench
mkdir -p "$out"

fail() {
  echo "bench-character: $1" >&2
  [ -n "${2:-}" ] && [ -f "$2" ] && tail -n 30 "$2" >&2
  exit 1
}

for runtime in lua5.4 luajit; do
  $MAKE --no-print-directory all LUA=$runtime > "$out/build-$runtime.log" 2>&1 ||
    fail "build for $runtime failed" "$out/build-$runtime.log"
done
$MAKE --no-print-directory build/bench/character > "$out/build-character.log" 2>&1 ||
  fail "build of build/bench/character failed" "$out/build-character.log"

# one run: name, runtime, then the environment's extra words
bench_run() {
  name=$1 runtime=$2
  shift 2
  command -v $runtime > /dev/null || fail "$runtime is not installed (make deps)"
  echo "bench-character: the character scene on $runtime ($name)" >&2
  env "$@" LUA_PATH='lua/?.lua;lua/?/init.lua' LUA_CPATH="build/$runtime/?.so" \
    $runtime bench/character_bench.lua $runtime "$out/character-goals-$name.md" \
    > "$out/character-$name.md" 2> "$out/character-progress-$name.log" ||
    fail "character_bench on $runtime failed" "$out/character-progress-$name.log"
}
# Under LuaJIT the pure core's rows run in a process of their own, with a
# peer row of their own: the pure core's traces fill the machine code area
# and each flush makes every row compile again.
bench_run luajit luajit BENCH_ROWS=peer,ffi_array,ffi_table,classic,group_array,group_table
bench_run luajit-pure luajit BENCH_ROWS=peer,pure,pure_group BENCH_NO_HEADER=1
# and again with the machine code area a game may raise (docs/api.md)
bench_run luajit-pure-mcode luajit BENCH_ROWS=peer,pure,pure_group BENCH_NO_HEADER=1 \
  BENCH_MAXMCODE=4096
bench_run lua5.4 lua5.4 BENCH_ROWS=peer,c,group_table,pure,pure_group BENCH_NO_HEADER=1
echo "bench-character: the character scene through the C API" >&2
build/bench/character > "$out/character-c.md" || fail "build/bench/character failed"

cpu=$(sed -n 's/^model name[^:]*: *//p' /proc/cpuinfo 2>/dev/null | head -n 1)
echo "### Characters ($(date -u +%Y-%m-%d), $(uname -m), ${cpu:-unknown CPU}, $(nproc 2>/dev/null || echo '?') cores)"
echo
cat "$out/character-luajit.md" "$out/character-luajit-pure.md" \
  "$out/character-luajit-pure-mcode.md" "$out/character-lua5.4.md"
echo
echo "The C API alone, each row the median of 5 runs:"
echo
cat "$out/character-c.md"
echo
cat "$out/character-goals-luajit.md" "$out/character-goals-luajit-pure.md" \
  "$out/character-goals-luajit-pure-mcode.md" "$out/character-goals-lua5.4.md"
awk -F'|' '$2 ~ /C/ && $3 + 0 > 0 { us = $6 + 0;
    printf "- C, %d characters: %.3f us a character in the solves (%.3f the whole frame), goal 0.8 us: %s\n",
      $3, us, $5 + 0, us <= 0.8 ? "holds" : sprintf("missed, %.1f times too slow", us / 0.8) }' \
  "$out/character-c.md"
