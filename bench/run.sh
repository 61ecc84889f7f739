#!/bin/sh
# bench/run.sh: what `make bench` runs.  Builds ik2d for Lua 5.4 and LuaJIT
# and the C core bench, runs the frame loop bench (bench/frame_bench.lua) on
# both runtimes, the C bench (bench/core_bench.c) and callgrind on it, and
# prints markdown: the frame loop table, the C table, instructions per joint
# update, the pure-Lua core's rows, and the headline ratios; then the
# character scene (bench/character.sh, make bench-character).
# Logs and raw outputs stay in build/bench.  BENCH_TIME (seconds, default
# 0.2) sets how long each frame loop measurement runs, BENCH_REPEATS
# (default 3) how many rounds of them each row keeps the fastest of.
set -u
cd "$(dirname "$0")/.." || exit 1
MAKE=${MAKE:-make}
out=build/bench
mkdir -p "$out"

fail() {
  echo "bench: $1" >&2
  [ -n "${2:-}" ] && [ -f "$2" ] && tail -n 30 "$2" >&2
  exit 1
}

# --- builds ------------------------------------------------------------
for runtime in lua5.4 luajit; do
  $MAKE --no-print-directory all LUA=$runtime > "$out/build-$runtime.log" 2>&1 ||
    fail "build for $runtime failed" "$out/build-$runtime.log"
done
$MAKE --no-print-directory build/core_bench > "$out/build-core_bench.log" 2>&1 ||
  fail "build of build/core_bench failed" "$out/build-core_bench.log"

# --- frame loops on each runtime ----------------------------------------
for runtime in lua5.4 luajit; do
  command -v $runtime > /dev/null || fail "$runtime is not installed (make deps)"
  echo "bench: frame loops on $runtime (progress in $out/progress-$runtime.log)" >&2
  LUA_PATH='lua/?.lua;lua/?/init.lua' LUA_CPATH="build/$runtime/?.so" \
    $runtime bench/frame_bench.lua $runtime "$out/ratios-$runtime.md" "$out/pure-$runtime.md" \
    > "$out/frames-$runtime.md" 2> "$out/progress-$runtime.log" ||
    fail "frame_bench on $runtime failed" "$out/progress-$runtime.log"
done

# --- the C core alone ---------------------------------------------------
echo "bench: C core bench" >&2
build/core_bench > "$out/core_bench.md" || fail "build/core_bench failed"

# callgrind: the difference of two runs of the 3-bone random-target scene,
# textbook CCD (every iteration a sweep of joint updates), cancels
# start-up; core_bench prints "joint_updates K" (real CCD turns) on stderr
ir_per_update=""
solver_ir_per_update=""
if command -v valgrind > /dev/null; then
  echo "bench: callgrind on build/core_bench count N" >&2
  for n in 20000 60000; do
    valgrind --tool=callgrind --callgrind-out-file="$out/callgrind.$n.out" \
      --log-file="$out/callgrind.$n.log" build/core_bench count $n textbook \
      2> "$out/callgrind.$n.err" || fail "callgrind run failed" "$out/callgrind.$n.log"
    eval "ir_$n=\$(sed -n 's/.*Collected : *\([0-9]*\).*/\1/p' \"$out/callgrind.$n.log\")"
    eval "ju_$n=\$(sed -n 's/^joint_updates \([0-9]*\).*/\1/p' \"$out/callgrind.$n.err\")"
    # inclusive instructions of ik2d_solver_solve: the solver without the
    # bench's own target generation
    eval "solve_$n=\$(callgrind_annotate --inclusive=yes \"$out/callgrind.$n.out\" 2>/dev/null |
      sed -n 's/^ *\([0-9,]*\) .*:ik2d_solver_solve .*/\1/p' | head -n 1 | tr -d ,)"
  done
  # shellcheck disable=SC2154
  ir_per_update=$(awk -v a="$ir_20000" -v b="$ir_60000" -v j="$ju_20000" -v k="$ju_60000" \
    'BEGIN { if (a == "" || b == "" || k - j <= 0) exit; printf "%.1f", (b - a) / (k - j) }')
  # shellcheck disable=SC2154
  solver_ir_per_update=$(awk -v a="$solve_20000" -v b="$solve_60000" -v j="$ju_20000" -v k="$ju_60000" \
    'BEGIN { if (a == "" || b == "" || k - j <= 0) exit; printf "%.1f", (b - a) / (k - j) }')
fi

# callgrind on batches: 1000 chains of 3 bones, textbook CCD, random
# targets, 2 and 6 frames, per instruction set (valgrind runs no AVX-512:
# under it that set falls back to AVX2, so it gets no row)
batch_ir=""
if command -v valgrind > /dev/null; then
  for isa in scalar sse2 avx2; do
    for n in 2 6; do
      valgrind --tool=callgrind --callgrind-out-file=/dev/null \
        --log-file="$out/callgrind.batch.$isa.$n.log" build/core_bench batch $n $isa textbook \
        2> "$out/callgrind.batch.$isa.$n.err" ||
        fail "callgrind batch run failed" "$out/callgrind.batch.$isa.$n.log"
      eval "bir_$n=\$(sed -n 's/.*Collected : *\([0-9]*\).*/\1/p' \"$out/callgrind.batch.$isa.$n.log\")"
      eval "bju_$n=\$(sed -n 's/^joint_updates \([0-9]*\).*/\1/p' \"$out/callgrind.batch.$isa.$n.err\")"
    done
    # shellcheck disable=SC2154
    per=$(awk -v a="$bir_2" -v b="$bir_6" -v j="$bju_2" -v k="$bju_6" \
      'BEGIN { if (a == "" || b == "" || k - j <= 0) exit; printf "%.1f", (b - a) / (k - j) }')
    batch_ir="$batch_ir $isa ${per:-?},"
  done
fi

# --- report -------------------------------------------------------------
cpu=$(sed -n 's/^model name[^:]*: *//p' /proc/cpuinfo 2>/dev/null | head -n 1)
echo "## ik2d benchmark ($(date -u +%Y-%m-%d), $(uname -m), ${cpu:-unknown CPU}, $(nproc 2>/dev/null || echo '?') cores)"
echo
echo "### Frame loop: set target, solve, read every joint, for every chain"
echo
cat "$out/frames-lua5.4.md"
tail -n +3 "$out/frames-luajit.md"
echo
cat <<'EOF'
How to read it: every row of a scene solves the same targets from the same
states (one frame count per scene), and every frame loop reads every
joint of every chain each frame.  `us/solve` is CPU time per chain per
frame, the whole frame loop included (setting the target, the solve,
reading the joints); `x peer` is the plain-Lua peer's time on the same
runtime divided by the row's time (above 1: faster than the peer).
`M joint upd/s` counts used iterations x bones, `upd/solve` the same per
solve.  `KB grown` is what the measured frames allocated (GC stopped while
measuring); under LuaJIT, traces compiled during the run count too.  The
machine is shared and noisy: read the ratios, not the absolute times.
The peer (bench/plain_ccd.lua) is ik2d's CCD with the textbook sweep (tip
to root) and no exact two-joint step, step for step: spec/plain_ccd_spec.lua
checks it gives the same joints and iteration counts.  ik2d runs with the
same settings (`sweep = "tip", exact = false`) in every row but those
marked "default", which run ik2d's defaults (root-to-tip sweep and the
exact step: fewer joint updates per solve).  "per chain" calls set_target,
solve and chain:joint(k) for every joint of every chain; "group tables"
fills one reused flat table with the targets, then calls
group:set_targets(t), group:solve() and group:joints(t) once a frame;
"group arrays" writes the targets into group:target_array() and reads the
joints from group:joint_array() (LuaJIT's FFI); a row naming an
instruction set solves with it (ik2d.use_isa), the others with the best
this machine runs; "classic" is LuaJIT with ik2d.use_ffi(false).
EOF
echo
echo "### The pure-Lua core against the plain-Lua peer and the C core"
echo
sed '/^$/,$d' "$out/pure-lua5.4.md"
sed '/^$/,$d' "$out/pure-luajit.md" | tail -n +3
echo
grep -h '^- ' "$out/pure-lua5.4.md" "$out/pure-luajit.md"
echo
cat <<'EOF'
The pure-Lua core (ik2d.pure.core, what IK2D_PURE=1 or a platform without
the C module loads) runs in the same process as the C core and the peer,
on the same scenes, in the same interleaved rounds (each row its fastest
round), at 1,000 and 10,000 chains.  Times are ms a frame of the whole
frame loop; pure / peer below 1 means the pure core is faster than the
plain-Lua peer running the same algorithm (textbook CCD: sweep = "tip",
exact = false, the peer's iterations and tolerance); C / pure is the C
core's time as a fraction of the pure core's in the same frame loop.  The
"default" rows run ik2d's default solver, another algorithm than the
peer's: for information, against the C core.
EOF
echo
echo "### C core alone (bench/core_bench.c, -O2)"
echo
cat "$out/core_bench.md"
echo
echo "\"textbook\" rows run CCD as the peer does (tip to root, no exact step), so every"
echo "iteration is a sweep of joint updates and ns per joint update measures the inner loop;"
echo "\"default\" rows run ik2d's defaults, which mostly land the target with exact two-joint"
echo "steps (few or no single-joint updates): compare those per solve."
echo
if [ -n "$ir_per_update" ]; then
  # shellcheck disable=SC2154
  echo "callgrind, \`core_bench count N\` for N = 20000 and 60000 (1 chain, 3 bones," \
    "random targets, textbook CCD): $ir_per_update instructions per joint update over the whole" \
    "run ($ir_20000 and $ir_60000 Ir for $ju_20000 and $ju_60000 joint updates)," \
    "${solver_ir_per_update:-?} inside ik2d_solver_solve (the bench's target generation left out)."
else
  echo "callgrind: valgrind is not installed (make deps), no instruction counts."
fi
echo
echo "callgrind, \`core_bench batch N isa textbook\` for N = 2 and 6 (1000 chains of 3 bones," \
  "random targets, textbook CCD, solved as a batch): instructions per joint update by instruction" \
  "set:${batch_ir:- valgrind not installed} (valgrind runs no AVX-512)."
echo
echo "### Headline ratios"
echo
cat "$out/ratios-lua5.4.md" "$out/ratios-luajit.md"
field() { # the ns/joint upd (or ns/solve) of a core_bench row: algorithm, scene, isa, chains
  awk -F'|' -v a="$1" -v s="$2" -v i="$3" -v c="$4" -v col="$5" \
    '$2 ~ a && $3 ~ s && $4 ~ i && $5 + 0 == c && $6 + 0 == 3 { gsub(/ /, "", $col); print $col; exit }' \
    "$out/core_bench.md"
}
avx2=$(field textbook "random targets, batch" avx2 1000 8)
sse2=$(field textbook "random targets, batch" sse2 1000 8)
single=$(field textbook "random targets, one by one" scalar 1 8)
default=$(field default "moving target, batch" "$(build/core_bench best)" 1000 7)
echo "C core, 3 bones:"
echo "- textbook CCD batched, 1000 chains, random targets: AVX2 ${avx2:-?} ns per joint update," \
  "SSE2 ${sse2:-?}"
echo "- one chain alone: ${single:-?} ns per joint update"
echo "- the default solver tracking a moving target, 1000 chains in a group: ${default:-?} ns a chain"
echo
MAKE="$MAKE" sh bench/character.sh || exit 1
