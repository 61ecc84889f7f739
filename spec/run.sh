#!/usr/bin/env bash
# make test's runner: every spec file on its own busted, once per runtime
# (lua5.4, luajit) and core (the C core, and IK2D_PURE=1 the pure-Lua
# core; specs about the C core alone say so and skip in that pass), then
# luacheck, the layers check, the C example and the headless LOVE tests;
# IK2D_JOBS (else the number of cores) at a time, the LOVE tests beside
# them (they mostly wait on their frames).  A line per file as it ends,
#   [luajit c] 12/48 spec/chain_spec.lua: 35 ok, 0 failed, 0 pending (0.4 s)
# a failure's output in full, a line naming what runs whenever 10 s pass
# without one, and at the end one line `N passed, N failed` added up from
# the runners' own counts.  Exits non-zero when anything failed or a
# runner did not report.  Logs stay in build/logs, each file's time in
# build/spec-times (the next run starts the slowest first).
# IK2D_LONG=1 in the environment runs the specs' long loops (make test-all).
# make test-asan and test-valgrind run it on their builds:
#   IK2D_RUN_NAME     the run's name (its logs: build/logs-NAME)
#   IK2D_RUN_PASSES   runtime:core pairs (default: all four)
#   IK2D_RUN_BUILD    the folder of ik2d/core.so (default build/RUNTIME)
#   IK2D_RUN_WRAP     words before the interpreter (valgrind, env ...)
#   IK2D_RUN_EXTRAS=0 no luacheck, layers check, C example or LOVE tests
#   IK2D_RUN_SPECS    the spec files or folders (default spec)
#   IK2D_RUN_SKIP     spec files left out (words)
set -u
cd "$(dirname "$0")/.." || exit 1
name=${IK2D_RUN_NAME:-test}
passes=${IK2D_RUN_PASSES:-lua5.4:c lua5.4:lua luajit:c luajit:lua}
extras=${IK2D_RUN_EXTRAS:-1}
if [ "$name" = test ]; then
  logs=build/logs times=build/spec-times tag=""
else
  logs=build/logs-$name times=build/spec-times-$name tag="$name "
fi

# say LINE...: one line, written at once (the runners print side by side)
say() { printf '%s\n' "$*"; touch "$logs/said"; }

# --- one task: `bash spec/run.sh --task KIND ...` (xargs runs these) -----
# Each leaves "$logs/counts/ID" holding "passed failed" and prints its
# line; a task that fails prints its log.
busted_task() {
  local runtime=$1 core=$2 file=$3 position=$4
  local id="$runtime-$core-$(echo "$file" | tr '/' '_')"
  local log="$logs/tasks/$id.log" pure=""
  [ "$core" = lua ] && pure=1
  echo "$tag$runtime $core|$file|$(date +%s)" > "$logs/running/$id"
  # time (GNU time, where installed): wall and CPU seconds, children's too
  local timer=()
  [ -x /usr/bin/time ] && timer=(/usr/bin/time -f '%e %U %S' -o "$logs/times/$id.cpu")
  local build=${IK2D_RUN_BUILD:-build/$runtime} wrap=()
  read -r -a wrap <<< "${IK2D_RUN_WRAP:-}"
  IK2D_PURE=$pure IK2D_PROGRESS_LABEL="$tag$runtime $core" IK2D_PROGRESS_POSITION="$position" \
    IK2D_PROGRESS_STATUS="$logs/running/$id.test" \
    "${timer[@]}" "${wrap[@]}" "$runtime" "$(command -v busted)" --cpath="$build/?.so" \
    -o spec/progress.lua "$file" > "$log" 2>&1
  local rc=$?
  rm -f "$logs/running/$id" "$logs/running/$id.test"
  # "runtime core file wall cpu"
  local wall=0 cpu=0 user sys
  if [ -f "$logs/times/$id.cpu" ]; then
    read -r wall user sys < <(tail -n 1 "$logs/times/$id.cpu")
    cpu=$(echo "$user + $sys" | bc)
  fi
  echo "$runtime $core $file $wall $cpu" > "$logs/times/$id"
  rm -f "$logs/times/$id.cpu"
  local line ok bad
  line=$(grep -E '^[0-9]+ successes? / [0-9]+ failures? / [0-9]+ errors?' "$log" | tail -n 1)
  if [ -z "$line" ]; then
    echo "0 1" > "$logs/counts/$id"
    say "[$tag$runtime $core] $position $file: busted printed no summary (exit $rc):
$(cat "$log")"
    return
  fi
  ok=$(echo "$line" | sed -E 's/^([0-9]+) success.*/\1/')
  bad=$(echo "$line" | sed -E 's/^[0-9]+ successes? \/ ([0-9]+) failures? \/ ([0-9]+) errors?.*/\1 + \2/')
  bad=$((bad))
  [ "$rc" -ne 0 ] && [ "$bad" -eq 0 ] && bad=1
  echo "$ok $bad" > "$logs/counts/$id"
  if [ "$bad" -eq 0 ]; then
    say "$(grep -F "[$tag$runtime $core] $position " "$log")"
  else
    say "$(grep -vE '^[0-9]+ successes? / ' "$log")"
  fi
}

# luacheck over the Lua side, specs, examples and benches (make lint): one
# check, failed by any warning
luacheck_task() {
  if ! command -v luacheck >/dev/null; then
    echo "0 1" > "$logs/counts/luacheck"
    say "[luacheck] luacheck is not installed"
  elif luacheck --no-color lua spec examples bench > "$logs/luacheck.log" 2>&1; then
    echo "1 0" > "$logs/counts/luacheck"
    say "[luacheck] $(tail -n 1 "$logs/luacheck.log")"
  else
    echo "0 1" > "$logs/counts/luacheck"
    say "[luacheck] FAILED:
$(cat "$logs/luacheck.log")"
  fi
}

# the layers check (make layers, spec/layers.lua) over each runtime's
# build: no link cycle among the C files, no long function in the core's
# solve paths; its own count of checks
layers_task() {
  local runtime passed=0 failed=0 line p b lines=""
  for runtime in lua5.4 luajit; do
    "${MAKE:-make}" --no-print-directory -s layers LUA="$runtime" > "$logs/layers-$runtime.log" 2>&1
    line=$(grep -E '^layers: [0-9]+ passed, [0-9]+ failed' "$logs/layers-$runtime.log" | tail -n 1)
    if [ -z "$line" ]; then
      failed=$((failed + 1))
      lines="$lines
$runtime: printed no count:
$(cat "$logs/layers-$runtime.log")"
      continue
    fi
    read -r p b < <(echo "$line" | sed -E 's/^layers: ([0-9]+) passed, ([0-9]+) failed.*/\1 \2/')
    passed=$((passed + p))
    failed=$((failed + b))
    if [ "$b" -eq 0 ]; then
      lines="$lines $runtime: $p passed ($(grep -c '^layers: known' "$logs/layers-$runtime.log") known);"
    else
      lines="$lines
$runtime:
$(cat "$logs/layers-$runtime.log")"
    fi
  done
  echo "$passed $failed" > "$logs/counts/layers"
  say "[layers] link cycles and long functions (make layers):$lines"
}

# the C example (make example-c built it as C99 and as C++): each run must
# exit 0, and the C++ build print what the C99 build prints
example_task() {
  local passed=0 failed=0 lang program lines=""
  for lang in c99 c++; do
    program="build/examples/arm-$lang"
    if [ -x "$program" ] && "$program" > "$logs/example-$lang.log" 2>&1 &&
       { [ "$lang" = c99 ] || cmp -s "$logs/example-c99.log" "$logs/example-$lang.log"; }; then
      passed=$((passed + 1))
      lines="$lines ok: $lang"
    else
      failed=$((failed + 1))
      lines="$lines
FAIL examples/c/arm.c built as $lang (missing, failed or printed otherwise):
$(cat "$logs/example-$lang.log" 2>/dev/null)"
    fi
  done
  echo "$passed $failed" > "$logs/counts/example"
  say "[C example] examples/c/arm.c built as C99 and as C++:$lines"
}

# the headless LOVE tests, one after the other: the demo's scripted test
# with the C core and with the pure-Lua core (a .love file's case), the
# shipping test (make love-dist's folder in a game, as a folder and as a
# .love), the spider's 40 s walk (examples/spider --test), the
# rifleman (examples/rifleman --test), the rig viewer on the hero
# (examples/viewer --test) and the hero's walk (examples/hero_walk
# --test); each prints `love: N passed, N failed` (the examples
# `spider: ...`, `rifleman: ...`, `viewer: ...`, `hero_walk: ...`)
love_task() {
  local name what script pure line game
  for name in love-c love-lua love-ship love-spider love-rifleman love-viewer love-hero-walk; do
    game=""
    case $name in
      love-c) what="the demo's test"; script=spec/love_run.sh; pure="" ;;
      love-lua) what="the demo's test, pure-Lua core"; script=spec/love_run.sh; pure=1 ;;
      love-ship) what="shipping"; script=spec/love_ship_run.sh; pure="" ;;
      love-spider) what="the spider's walk"; script=spec/love_run.sh; pure=""; game=examples/spider ;;
      love-rifleman) what="the rifleman"; script=spec/love_run.sh; pure=""; game=examples/rifleman ;;
      love-viewer) what="the rig viewer"; script=spec/love_run.sh; pure=""; game=examples/viewer ;;
      love-hero-walk) what="the hero's walk"; script=spec/love_run.sh; pure=""; game=examples/hero_walk ;;
    esac
    echo "LOVE|$what|$(date +%s)" > "$logs/running/$name"
    # shellcheck disable=SC2086
    IK2D_PURE=$pure sh "$script" $game > "$logs/$name.log" 2>&1
    rm -f "$logs/running/$name"
    line=$(grep -E '^(love|spider|rifleman|viewer|hero_walk): [0-9]+ passed, [0-9]+ failed' \
           "$logs/$name.log" | tail -n 1 | sed -E 's/^(spider|rifleman|viewer|hero_walk):/love:/')
    if [ -z "$line" ]; then
      echo "0 1" > "$logs/counts/$name"
      say "[LOVE] $what: printed no count:
$(cat "$logs/$name.log")"
    else
      echo "$line" | sed -E 's/^love: ([0-9]+) passed, ([0-9]+) failed.*/\1 \2/' > "$logs/counts/$name"
      if echo "$line" | grep -q ' 0 failed'; then
        say "[LOVE] $what (headless): $line"
      else
        say "[LOVE] $what (headless): $line
$(cat "$logs/$name.log")"
      fi
    fi
  done
}

if [ "${1:-}" = --task ]; then
  shift
  kind=$1
  shift
  "${kind}_task" "$@"
  exit 0
fi

# --- the run --------------------------------------------------------------
if ! command -v busted >/dev/null; then
  echo "run.sh: busted is not installed (make deps)"
  echo "0 passed, 1 failed"
  exit 1
fi
jobs=${IK2D_JOBS:-$(nproc 2>/dev/null || echo 2)}
rm -rf "$logs"
mkdir -p "$logs/tasks" "$logs/counts" "$logs/running" "$logs/times"
touch "$logs/said"
began=$(date +%s)
# shellcheck disable=SC2086
specs=$(find ${IK2D_RUN_SPECS:-spec} -name '*_spec.lua' | LC_ALL=C sort)
for skip in ${IK2D_RUN_SKIP:-}; do
  specs=$(echo "$specs" | grep -vxF "$skip")
done
total=$(echo "$specs" | wc -l)
echo "== $name: $total spec files x ($passes), $jobs at a time" \
     "${IK2D_LONG:+(IK2D_LONG=1: the long loops)}"

# the task list: luacheck and the example first (short), then every
# (runtime, core, file), the slowest of the last run first (with no last
# run, these known slow ones first)
slow_first=" spec/pure_diff_spec.lua spec/install_spec.lua spec/memory_spec.lua spec/quality_spec.lua "
{
  if [ "$extras" = 1 ]; then
    echo "luacheck"
    echo "layers"
    echo "example"
  fi
  for pass in $passes; do
    runtime=${pass%%:*} core=${pass#*:}
    (
      n=0
      for file in $specs; do
        n=$((n + 1))
        last=$(awk -v r="$runtime" -v c="$core" -v f="$file" \
                 '$1 == r && $2 == c && $3 == f { print $4 }' "$times" 2>/dev/null)
        if [ -z "$last" ]; then
          case $slow_first in *" $file "*) last=1 ;; *) last=0 ;; esac
        fi
        echo "$last busted $runtime $core $file $n/$total"
      done
    )
  done | sort -s -k1,1 -g -r | cut -d' ' -f2-
} > "$logs/task-list"

# a heartbeat: whenever 10 s pass without a line, what runs and for how long
heartbeat() {
  local now said f label file since test
  while sleep 1; do
    now=$(date +%s)
    said=$(stat -c %Y "$logs/said" 2>/dev/null || echo "$now")
    [ $((now - said)) -lt 8 ] && continue
    for f in "$logs"/running/*; do
      case $f in *.test | *'*') continue ;; esac
      IFS='|' read -r label file since < "$f" 2>/dev/null || continue
      test=$(cat "$f.test" 2>/dev/null)
      say "[$label] ... $file running for $((now - since)) s${test:+: $test}"
    done
  done
}
heartbeat &
beat=$!

love=""
if [ "$extras" != 1 ]; then
  :
elif command -v love >/dev/null && command -v xvfb-run >/dev/null; then
  bash "$0" --task love &
  love=$!
else
  echo "== LOVE tests skipped: love or xvfb-run is not installed"
fi

xargs -P "$jobs" -L 1 bash "$0" --task < "$logs/task-list"
[ -n "$love" ] && wait "$love"
kill "$beat" 2>/dev/null
wait "$beat" 2>/dev/null

# each file's time, for the next run's order
cat "$logs"/times/* > "$times" 2>/dev/null

passed=0
failed=0
tasks=$(wc -l < "$logs/task-list")
counted=0
for f in "$logs"/counts/*; do
  [ -f "$f" ] || continue
  read -r p b < "$f"
  passed=$((passed + p))
  failed=$((failed + b))
  case $f in */counts/love-*) ;; *) counted=$((counted + 1)) ;; esac
done
if [ "$counted" -lt "$tasks" ]; then
  echo "run.sh: $((tasks - counted)) of $tasks runs reported nothing"
  failed=$((failed + tasks - counted))
fi
if [ "$failed" -ne 0 ]; then
  echo "== failed (logs in $logs):"
  for f in "$logs"/counts/*; do
    read -r p b < "$f"
    [ "$b" -ne 0 ] && echo "  $(basename "$f")"
  done
fi
echo "== $name took $(($(date +%s) - began)) s"
echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
