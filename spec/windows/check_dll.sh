#!/bin/sh
# The link check of the Windows core.dll (make windows): it exports
# luaopen_ik2d_core and every C function lua/ik2d/ffi.lua calls, and it
# imports only lua51.dll (LOVE's LuaJIT), KERNEL32.dll and msvcrt.dll, so
# it loads in LOVE for Windows with nothing beside it.
# Usage: sh spec/windows/check_dll.sh CROSS-PREFIX path/to/core.dll
cross=$1
dll=$2
ffi_lua="$(dirname "$0")/../../lua/ik2d/ffi.lua"
dump=$("${cross}objdump" -p "$dll") || exit 1
status=0

imports=$(echo "$dump" | sed -n 's/^[[:space:]]*DLL Name: //p' | sort | tr '\n' ' ')
if [ "$imports" != "KERNEL32.dll lua51.dll msvcrt.dll " ]; then
  echo "check_dll: $dll imports $imports(only KERNEL32.dll lua51.dll msvcrt.dll may be)"
  status=1
fi

exports=$(echo "$dump" | sed -n 's/^[[:space:]]*\[ *[0-9]*\] //p')
needed="luaopen_ik2d_core $(grep -oE '\b(ik2d|luaik)_[a-z0-9_]+ *\(' "$ffi_lua" | tr -d ' (' | sort -u)"
for name in $needed; do
  if ! echo "$exports" | grep -qx "$name"; then
    echo "check_dll: $dll does not export $name"
    status=1
  fi
done

[ "$status" -eq 0 ] && echo "check_dll: $dll exports luaopen_ik2d_core and the $(($(echo "$needed" | wc -w) - 1)) functions ffi.lua calls; imports $imports"
exit "$status"
