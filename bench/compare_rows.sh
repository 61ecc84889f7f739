#!/bin/sh
# bench/compare_rows.sh BEFORE AFTER [RUNTIME...]: instructions per frame
# of make bench's frame loops (bench/frame_rows.lua, 1,000 chains; the
# pure core's at COUNT_PURE, default 200) in two checkouts, each built
# (make all), counted by callgrind as the difference of 50 and 10 frames,
# over 40 (fewer let a collector cycle's timing move Lua 5.4's rows by
# several per cent).
# Prints one line a row: runtime mode bones targets before after after/before.
# Instruction counts do not move with a shared machine's load, as times
# do; they are not times either (memory, the trace compiler's choices:
# under LuaJIT a row's count moves by 1-2% from run to run).
set -u
before=$1 after=$2
shift 2
runtimes=${*:-luajit lua5.4}
here=$(cd "$(dirname "$0")" && pwd)
count() { # tree runtime mode bones kind frames
  (cd "$1" && COUNT=$count LUA_PATH='lua/?.lua;lua/?/init.lua' LUA_CPATH="build/$2/?.so" \
    valgrind --tool=callgrind --callgrind-out-file=/dev/null \
    "$2" "$here/frame_rows.lua" "$3" "$4" "$5" "$6" 2>&1 > /dev/null |
    sed -n 's/.*Collected : *\([0-9]*\).*/\1/p')
}
per_frame() { # tree runtime mode bones kind
  a=$(count "$@" 10) b=$(count "$@" 50)
  echo $(( (b - a) / 40 ))
}
for runtime in $runtimes; do
  modes="chain chain_default tables tables_default"
  [ "$runtime" = luajit ] && modes="$modes chain_classic arrays arrays_default"
  modes="$modes pure_chain pure_chain_default pure_tables pure_tables_default"
  for mode in $modes; do
    count=1000
    case $mode in pure_*) count=${COUNT_PURE:-200} ;; esac
    for bones in 3 10; do
      for kind in moving random; do
        b=$(per_frame "$before" "$runtime" "$mode" "$bones" "$kind")
        a=$(per_frame "$after" "$runtime" "$mode" "$bones" "$kind")
        echo "$runtime $mode $bones $kind $b $a $(echo "scale=4; $a / $b" | bc)"
      done
    done
  done
done
