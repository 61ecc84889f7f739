#!/bin/sh
# make test-windows: the Windows core.dll (make windows, shipped by make
# love-dist) in a Windows LuaJIT under wine.  LuaJIT for Windows is built
# with mingw-w64 from Debian's own luajit source package, fetched by
# apt-get source through a private copy of this machine's apt sources
# turned into deb-src lines (the system's apt configuration stays as it
# is), into build/windows/luajit once.  spec/windows/solve.lua runs first
# on this machine's LuaJIT for the reference, then in the Windows LuaJIT
# with ik2d beside luajit.exe.  Prints its checks and `N passed, N failed`.
# Needs network access to the Debian mirror the first time.
cd "$(dirname "$0")/.." || exit 1
top=$(pwd)
win=$top/build/windows
cross=${WIN_CROSS:-x86_64-w64-mingw32-}

fail() {
  echo "windows_run.sh: $1" >&2
  echo "0 passed, 1 failed"
  exit 1
}

[ -f build/love-dist/ik2d/core.dll ] || fail "build/love-dist/ik2d/core.dll is missing: make windows love-dist"

# --- LuaJIT for Windows, from Debian's source package ------------------------
luajit_src=$win/luajit/src
if [ ! -f "$luajit_src/src/luajit.exe" ]; then
  apt=$win/luajit/apt
  rm -rf "$win/luajit" && mkdir -p "$apt/lists/partial" "$apt/cache" "$apt/sources.list.d" || exit 1
  for f in /etc/apt/sources.list /etc/apt/sources.list.d/*.list; do
    [ -f "$f" ] && sed -n 's/^deb /deb-src /p' "$f"
  done > "$apt/sources.list"
  for f in /etc/apt/sources.list.d/*.sources; do
    [ -f "$f" ] && sed 's/^Types:.*/Types: deb-src/' "$f" > "$apt/sources.list.d/$(basename "$f")"
  done
  set -- -o Dir::State::Lists="$apt/lists" -o Dir::Cache="$apt/cache" \
         -o Dir::Etc::SourceList="$apt/sources.list" -o Dir::Etc::SourceParts="$apt/sources.list.d"
  echo "== apt-get source luajit (deb-src lines from /etc/apt, in $apt)"
  apt-get "$@" -qq update > "$win/luajit/apt.log" 2>&1
  (cd "$win/luajit" && apt-get "$@" -qq source luajit >> apt.log 2>&1) ||
    { cat "$win/luajit/apt.log"; fail "apt-get source luajit failed"; }
  mv "$win/luajit"/luajit-*/ "$luajit_src" || fail "apt-get source luajit unpacked nothing"
  echo "== LuaJIT for Windows (mingw-w64, lua51.dll as LOVE ships it)"
  make -C "$luajit_src" HOST_CC=gcc CROSS="$cross" TARGET_SYS=Windows BUILDMODE=dynamic \
    > "$win/luajit/build.log" 2>&1 || { tail -n 30 "$win/luajit/build.log"; fail "LuaJIT did not build"; }
fi

# --- the check ---------------------------------------------------------------
run=$win/run
rm -rf "$run" && mkdir -p "$run" || exit 1
# as a fused game keeps them, on LuaJIT's default paths: the library in
# ik2d\ beside the executable (!\?.dll), the Lua side in lua\ik2d\
mkdir -p "$run/ik2d" "$run/lua" &&
cp "$luajit_src/src/luajit.exe" "$luajit_src/src/lua51.dll" spec/windows/solve.lua "$run/" &&
cp build/love-dist/ik2d/core.dll "$run/ik2d/" &&
cp -R build/love-dist/ik2d "$run/lua/" && rm "$run/lua/ik2d"/core.* || fail "cannot lay out $run"

echo "== reference: spec/windows/solve.lua on $(luajit -v)"
LUA_PATH="build/love-dist/?.lua;build/love-dist/?/init.lua" LUA_CPATH="build/love-dist/?.so" \
  luajit spec/windows/solve.lua "$run/reference.txt" > "$run/reference.log" 2>&1 ||
  { cat "$run/reference.log"; fail "the reference run failed"; }

echo "== spec/windows/solve.lua in Windows LuaJIT under $(wine --version 2>/dev/null)"
cd "$run" || exit 1
env -u LUA_PATH -u LUA_CPATH -u LUA_INIT -u DISPLAY WINEPREFIX="$win/wine" WINEDEBUG=-all \
  WINEDLLOVERRIDES="mscoree,mshtml=" timeout 600 wine luajit.exe solve.lua out.txt reference.txt \
  > wine.log 2>&1
status=$?
# wine's own notices (prefix set-up) are not the script's lines
grep -E '^(ok  |FAIL|[0-9]+ passed, [0-9]+ failed)' wine.log || { cat wine.log; fail "wine printed no count (status $status)"; }
grep -qE '^[0-9]+ passed, [0-9]+ failed' wine.log || { cat wine.log; fail "wine luajit.exe stopped (status $status)"; }
exit "$status"
