#!/bin/sh
# Fails unless every dynamic symbol the shared library defines starts with c2d_.
# usage: check_exports.sh NM LIBRARY
nm_tool=$1 lib=$2
symbols=$("$nm_tool" -D --defined-only "$lib" | awk 'NF >= 3 { print $3 }')
[ -n "$symbols" ] || { echo "no exported symbols found in $lib"; exit 1; }
bad=$(printf '%s\n' "$symbols" | grep -v '^c2d_' || true)
if [ -n "$bad" ]; then
    echo "symbols outside the c2d_ prefix:"; printf '%s\n' "$bad"; exit 1
fi
echo "$(printf '%s\n' "$symbols" | wc -l) symbols, all c2d_*"
