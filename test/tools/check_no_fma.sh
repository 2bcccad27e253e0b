#!/bin/sh
# Fails if the library contains a fused multiply-add or a reciprocal / square-root estimate:
# either would make SIMD results differ from the scalar reference (docs/design.md section 6).
# usage: check_no_fma.sh OBJDUMP LIBRARY
objdump_tool=$1 lib=$2
found=$("$objdump_tool" -d --no-show-raw-insn "$lib" |
    grep -E '\s(v?fn?m(add|sub)[0-9a-z]*|fml[as]|v?rsqrt[0-9a-z]*|v?rcp[0-9a-z]*|frecpe|frsqrte)\s' | head)
if [ -n "$found" ]; then
    echo "forbidden instructions:"; printf '%s\n' "$found"; exit 1
fi
echo "no FMA, rcp or rsqrt instructions in $lib"
