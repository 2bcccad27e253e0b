#!/bin/sh
# WebAssembly builds: fails if the library holds a relaxed-SIMD or fused instruction (they may
# round differently from the scalar reference: docs/design.md section 6), or if the
# wasm_simd128 kernels hold no SIMD128 arithmetic (the backend would be scalar in disguise).
# usage: check_wasm_simd.sh LLVM_OBJDUMP LIBRARY KERNELS
objdump_tool=$1 lib=$2 kernels=$3
found=$("$objdump_tool" -d "$lib" | grep -E '\s(relaxed_[a-z0-9_.]*|[a-z0-9]+x[0-9]+\.(q?fma|q?fms|relaxed[a-z0-9_]*))(\s|$)' | head)
if [ -n "$found" ]; then
    echo "forbidden instructions:"; printf '%s\n' "$found"; exit 1
fi
simd=$("$objdump_tool" -d "$kernels" | grep -cE '\sf32x4\.(add|sub|mul|div|min|max|pmin|pmax|le|lt|ge|gt)(\s|$)')
if [ "$simd" -lt 100 ]; then
    echo "only $simd f32x4 arithmetic instructions in $kernels"; exit 1
fi
echo "no relaxed or fused instructions in $lib; $simd f32x4 arithmetic instructions in $kernels"
