#!/bin/sh
# make test-platforms: the golden program (spec/golden/golden.c) built
# and run on every platform this machine can reach, each part of its hash
# compared with the one expected value in spec/golden/expected:
#   native       this machine (x86-64: glibc's FMA variants of libm)
#   no-fma       the same binary with glibc's FMA variants off, as on a
#                CPU without FMA (GLIBC_TUNABLES)
#   clang-fast   built by clang with -O2 -ffp-contract=fast -march=native
#                after the project's flags, as a user's own build may do:
#                the sources alone must keep FMA out (src/ik2d_fp.h)
#   windows      built with mingw-w64 (msvcrt's maths) as the Makefile
#                builds core.dll (AVX2 and AVX-512 kernels on), under wine
#   windows-sse2 the same with mingw-w64's default flags: the core then
#                leaves out its AVX kernels (src/ik2d_isa.h), under wine
#   aarch64      built static for Linux aarch64, run under qemu-aarch64
# A platform whose tools are missing is reported and counted as failed:
# make deps-platforms installs them.  Ends with `N passed, N failed`.
cd "$(dirname "$0")/../.." || exit 1
out=build/platforms
mkdir -p "$out"
passed=0
failed=0
flags="-std=c99 -O2 -Wall -Wextra -Werror -Isrc"
# the project's floating-point flags (the Makefile's FPFLAGS)
fpflags="-ffp-contract=off"
sources="spec/golden/golden.c $(ls src/ik2d_*.c | tr '\n' ' ')"

# check NAME COMMAND...: runs the program, compares each part
check() {
  name=$1
  shift
  if ! "$@" > "$out/$name.txt" 2> "$out/$name.err"; then
    echo "FAIL $name: the program did not run ($*)"
    cat "$out/$name.err"
    failed=$((failed + 1))
    return
  fi
  if ! grep -q '^total' "$out/$name.txt"; then
    echo "FAIL $name: the program printed no hash ($*)"
    failed=$((failed + 1))
    return
  fi
  bad=""
  while read -r part value; do
    got=$(tr -d '\r' < "$out/$name.txt" | sed -n "s/^$part[[:space:]]*//p")
    [ "$got" = "$value" ] || bad="$bad $part ($got, expected $value)"
  done < spec/golden/expected
  if [ -z "$bad" ]; then
    echo "ok   $name: $(tr -d '\r' < "$out/$name.txt" | sed -n 's/^total[[:space:]]*//p')"
    passed=$((passed + 1))
  else
    echo "FAIL $name: the parts that changed:$bad"
    failed=$((failed + 1))
  fi
}

# build NAME COMPILER [FLAGS...]: builds $out/NAME with the flags and
# then the project's floating-point flags, or reports why not
build() {
  name=$1
  compiler=$2
  shift 2
  # shellcheck disable=SC2086
  compile "$name" "$compiler" "$@" $fpflags
}

# build_as_user NAME COMPILER [FLAGS...]: the same with the flags last
build_as_user() {
  name=$1
  compiler=$2
  shift 2
  # shellcheck disable=SC2086
  compile "$name" "$compiler" $fpflags "$@"
}

compile() {
  name=$1
  compiler=$2
  shift 2
  if ! command -v "$compiler" > /dev/null; then
    echo "FAIL $name: $compiler is not installed (make deps-platforms)"
    failed=$((failed + 1))
    return 1
  fi
  # shellcheck disable=SC2086
  if ! "$compiler" $flags "$@" -o "$out/$name" $sources -lm > "$out/$name.build" 2>&1; then
    echo "FAIL $name: the build failed"
    cat "$out/$name.build"
    failed=$((failed + 1))
    return 1
  fi
}

needs() {
  command -v "$1" > /dev/null && return 0
  echo "FAIL $2: $1 is not installed (make deps-platforms)"
  failed=$((failed + 1))
  return 1
}

echo "== the golden hash on every platform (spec/golden/expected)"
if build native "${CC:-cc}"; then
  check native "$out/native"
  check no-fma env GLIBC_TUNABLES=glibc.cpu.hwcaps=-FMA,-AVX2,-FMA4,-AVX512F "$out/native"
fi
if build_as_user clang-fast clang -O2 -ffp-contract=fast -march=native; then
  check clang-fast "$out/clang-fast"
fi
mkdir -p "$out/wine"
if build windows.exe x86_64-w64-mingw32-gcc -Wa,-muse-unaligned-vector-move -DIK2D_UNALIGNED_VECTOR_MOVES &&
   needs wine windows; then
  check windows env WINEDEBUG=-all WINEPREFIX="$(pwd)/$out/wine" wine "$out/windows.exe"
fi
if build windows-sse2.exe x86_64-w64-mingw32-gcc && needs wine windows-sse2; then
  check windows-sse2 env WINEDEBUG=-all WINEPREFIX="$(pwd)/$out/wine" wine "$out/windows-sse2.exe"
fi
if build aarch64 aarch64-linux-gnu-gcc -static && needs qemu-aarch64 aarch64; then
  check aarch64 qemu-aarch64 "$out/aarch64"
fi
echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
