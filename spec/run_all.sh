#!/usr/bin/env bash
# make test-all, the long matrix (CI runs it from a clean clone, .ci/run):
#   make test with IK2D_LONG=1: the specs' long loops (every instruction
#     set, the 6000 differential sequences, the long property, garbage
#     and drift runs);
#   make test-windows: core.dll cross-built, link-checked, run in a
#     Windows LuaJIT under wine;
#   make test-platforms: the golden hash natively, without FMA, under wine
#     and under qemu-aarch64;
#   make test-asan and make test-valgrind: the suite on the core under
#     ASan+UBSan and under memcheck, a busted per spec file, JOBS at a time;
#   make fuzz: each libFuzzer target for FUZZ_SECONDS (60 s; CI gives 30).
# Each part's output as it comes; the last line is `N passed, N failed`,
# added up from the runners' own counts (a part that printed none counts
# as one failure).  Logs stay in build/logs-all.
set -u
cd "$(dirname "$0")/.." || exit 1
MAKE=${MAKE:-make}
JOBS=${JOBS:-$(nproc 2>/dev/null || echo 2)}
logs=build/logs-all
rm -rf "$logs"
mkdir -p "$logs"
passed=0
failed=0
began=$(date +%s)

# count KIND LOG STATUS: adds the counts a part printed, KIND "line" for
# `N passed, N failed`, "busted" for busted's summary (none printed: one
# failure), "status" for its exit status alone (one test); a part that
# exits non-zero with no failure in its count adds one
count() {
  local kind=$1 log=$2 status=$3 line before=$failed
  case $kind in
    line)
      line=$(grep -E '^[0-9]+ passed, [0-9]+ failed' "$log" | tail -n 1)
      if [ -n "$line" ]; then
        passed=$((passed + $(echo "$line" | sed -E 's/^([0-9]+) passed.*/\1/')))
        failed=$((failed + $(echo "$line" | sed -E 's/.* ([0-9]+) failed.*/\1/')))
      else
        failed=$((failed + 1))
      fi
      ;;
    busted)
      line=$(grep -E '^[0-9]+ successes? / [0-9]+ failures? / [0-9]+ errors?' "$log" | tail -n 1)
      if [ -n "$line" ]; then
        passed=$((passed + $(echo "$line" | sed -E 's/^([0-9]+) success.*/\1/')))
        failed=$((failed + $(echo "$line" |
          sed -E 's/^[0-9]+ successes? \/ ([0-9]+) failures? \/ ([0-9]+) errors?.*/\1 + \2/')))
      else
        failed=$((failed + 1))
      fi
      ;;
    status)
      if [ "$status" -eq 0 ]; then passed=$((passed + 1)); else failed=$((failed + 1)); fi
      ;;
  esac
  if [ "$status" -ne 0 ] && [ "$failed" -eq "$before" ]; then failed=$((failed + 1)); fi
}

# part NAME KIND COMMAND...: runs it, its output shown as it comes and kept
part() {
  local name=$1 kind=$2 status
  shift 2
  echo "== test-all: $name ($*)"
  local start
  start=$(date +%s)
  "$@" 2>&1 | tee "$logs/$name.log"
  status=${PIPESTATUS[0]}
  echo "== test-all: $name took $(($(date +%s) - start)) s (exit $status)"
  count "$kind" "$logs/$name.log" "$status"
}

part test line env IK2D_LONG=1 "$MAKE" --no-print-directory test JOBS="$JOBS"
part windows line "$MAKE" --no-print-directory test-windows
part platforms line "$MAKE" --no-print-directory test-platforms

part asan line "$MAKE" --no-print-directory test-asan JOBS="$JOBS"
part valgrind line "$MAKE" --no-print-directory test-valgrind JOBS="$JOBS"

# the fuzzer counts as one test: it passes when it finds nothing
part fuzz status "$MAKE" --no-print-directory fuzz FUZZ_SECONDS="${FUZZ_SECONDS:-60}"

echo "== test-all took $(($(date +%s) - began)) s"
echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
