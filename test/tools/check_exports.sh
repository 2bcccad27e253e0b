#!/bin/sh
# Fails unless every symbol the library exports starts with c2d_.
# usage: check_exports.sh NM LIBRARY [shared|static]
#   shared (default): the dynamic symbols the shared object defines;
#   static: the global symbols the archive's objects define (what a static link can clash with).
nm_tool=$1 lib=$2 kind=${3:-shared}
if [ "$kind" = static ]; then
    symbols=$("$nm_tool" -g --defined-only "$lib" | awk 'NF >= 3 { print $3 }')
else
    symbols=$("$nm_tool" -D --defined-only "$lib" | awk 'NF >= 3 { print $3 }')
fi
[ -n "$symbols" ] || { echo "no exported symbols found in $lib"; exit 1; }
bad=$(printf '%s\n' "$symbols" | grep -v '^c2d_' || true)
if [ -n "$bad" ]; then
    echo "symbols outside the c2d_ prefix:"; printf '%s\n' "$bad"; exit 1
fi
echo "$(printf '%s\n' "$symbols" | wc -l) $kind-library symbols, all c2d_*"
