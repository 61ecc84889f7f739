#!/bin/sh
# Runs every test suite and the C example, and sums the runners' own
# counts into one line, `N passed, N failed`.  Exits non-zero when
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

for runtime in lua5.4 luajit; do
  echo "== busted on $runtime"
  busted --lua="$runtime" --cpath="build/$runtime/?.so" -o utfTerminal spec \
    > "$logs/busted-$runtime.log" 2>&1
  cat "$logs/busted-$runtime.log"
  count_busted "$logs/busted-$runtime.log"
done

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
# scripted test, and the shipping test (make love-dist's folder in a game,
# as a folder and as a .love)
for script in love_run.sh love_ship_run.sh; do
  if command -v love >/dev/null && command -v xvfb-run >/dev/null; then
    echo "== LOVE (headless): spec/$script"
    sh "spec/$script" > "$logs/$script.log" 2>&1
    cat "$logs/$script.log"
    line=$(grep -E '^love: [0-9]+ passed, [0-9]+ failed' "$logs/$script.log" | tail -n 1)
    if [ -z "$line" ]; then
      echo "run.sh: spec/$script printed no count" >&2
      failed=$((failed + 1))
    else
      passed=$((passed + $(echo "$line" | sed -E 's/^love: ([0-9]+) passed.*/\1/')))
      failed=$((failed + $(echo "$line" | sed -E 's/.* ([0-9]+) failed.*/\1/')))
    fi
  else
    echo "== LOVE test skipped (spec/$script): love or xvfb-run is not installed"
  fi
done

echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
