#!/bin/sh
# Runs every test suite (busted on each runtime with the C core and with
# the pure-Lua core) and the C example, and sums the runners' own counts
# into one line, `N passed, N failed`.  Exits non-zero when
# anything failed or a runner did not report.  Logs stay in build/logs.
logs=build/logs
mkdir -p "$logs"
rm -f "$logs"/*.log
passed=0
failed=0

# busted's summary: "N successes / N failures / N errors / N pending"
count_busted() {
  line=$(grep -E '[0-9]+ successes? / [0-9]+ failures? / [0-9]+ errors?' "$1" | tail -n 1)
  if [ -z "$line" ]; then
    echo "run.sh: $1: busted printed no summary" >&2
    failed=$((failed + 1))
    return
  fi
  ok=$(echo "$line" | sed -E 's/^[^0-9]*([0-9]+) success.*/\1/')
  bad=$(echo "$line" | sed -E 's/.* ([0-9]+) failures? \/ ([0-9]+) errors?.*/\1 \2/')
  passed=$((passed + ok))
  for n in $bad; do failed=$((failed + n)); done
}

# every spec on both cores: the C core, and (IK2D_PURE=1) the pure-Lua
# core, which runs where native code cannot load; specs about the C core
# alone say so and skip in the second pass.  The two passes of a runtime
# run side by side (nothing in them measures time); their logs are shown
# and counted one after the other.
for runtime in lua5.4 luajit; do
  busted --lua="$runtime" --cpath="build/$runtime/?.so" -o utfTerminal spec \
    > "$logs/busted-$runtime-c.log" 2>&1 &
  IK2D_PURE=1 busted --lua="$runtime" --cpath="build/$runtime/?.so" -o utfTerminal spec \
    > "$logs/busted-$runtime-lua.log" 2>&1 &
  wait
  for core in c lua; do
    if [ "$core" = c ]; then
      echo "== busted on $runtime"
    else
      echo "== busted on $runtime, pure-Lua core (IK2D_PURE=1)"
    fi
    cat "$logs/busted-$runtime-$core.log"
    count_busted "$logs/busted-$runtime-$core.log"
  done
done

# luacheck over the Lua side, specs, examples and benches (make lint):
# one check, failed by any warning
echo "== luacheck (make lint)"
if command -v luacheck >/dev/null; then
  if luacheck lua spec examples bench > "$logs/luacheck.log" 2>&1; then
    passed=$((passed + 1))
  else
    failed=$((failed + 1))
  fi
  tail -n 1 "$logs/luacheck.log"
else
  echo "run.sh: luacheck is not installed" >&2
  failed=$((failed + 1))
fi

# the C example (make example-c built it as C99 and as C++): each run must
# exit 0, and the C++ build print what the C99 build prints
echo "== C example (examples/c/arm.c)"
for lang in c99 c++; do
  program="build/examples/arm-$lang"
  if [ -x "$program" ] && "$program" > "$logs/example-$lang.log" 2>&1 &&
     { [ "$lang" = c99 ] || cmp -s "$logs/example-c99.log" "$logs/example-$lang.log"; }; then
    passed=$((passed + 1))
    echo "ok   examples/c/arm.c built as $lang runs"
  else
    failed=$((failed + 1))
    echo "FAIL examples/c/arm.c built as $lang (missing, failed or printed otherwise):"
    cat "$logs/example-$lang.log" 2>/dev/null
  fi
done

# the headless LOVE tests, where LOVE and Xvfb are installed: the demo's
# scripted test with the C core and with the pure-Lua core (a .love
# file's case), and the shipping test (make love-dist's folder in a game,
# as a folder and as a .love)
count_love() {
  line=$(grep -E '^love: [0-9]+ passed, [0-9]+ failed' "$1" | tail -n 1)
  if [ -z "$line" ]; then
    echo "run.sh: $1: the LOVE test printed no count" >&2
    failed=$((failed + 1))
  else
    passed=$((passed + $(echo "$line" | sed -E 's/^love: ([0-9]+) passed.*/\1/')))
    failed=$((failed + $(echo "$line" | sed -E 's/.* ([0-9]+) failed.*/\1/')))
  fi
}
if command -v love >/dev/null && command -v xvfb-run >/dev/null; then
  echo "== LOVE (headless): the demo's test"
  sh spec/love_run.sh > "$logs/love-c.log" 2>&1
  cat "$logs/love-c.log"
  count_love "$logs/love-c.log"
  echo "== LOVE (headless): the demo's test, pure-Lua core (IK2D_PURE=1)"
  IK2D_PURE=1 sh spec/love_run.sh > "$logs/love-lua.log" 2>&1
  cat "$logs/love-lua.log"
  count_love "$logs/love-lua.log"
  echo "== LOVE (headless): shipping (spec/love_ship_run.sh)"
  sh spec/love_ship_run.sh > "$logs/love-ship.log" 2>&1
  cat "$logs/love-ship.log"
  count_love "$logs/love-ship.log"
else
  echo "== LOVE tests skipped: love or xvfb-run is not installed"
fi

echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
