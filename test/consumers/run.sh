#!/usr/bin/env bash
# Builds tiny consumer projects against libcollide2d in every supported way and runs them:
#   - standalone Meson builds with default_library static and shared, tests on (run) and off;
#   - the library as a Meson subproject: static, shared and both with tests off (only the
#     library is built, no test registered), and static with tests on (they run in the parent;
#     the standalone cases already cover the shared library's tests); in each, the library's
#     sources are compiled at -O2 under the parent's default build type (-O0);
#   - `meson install` into a temporary prefix, then: the CMake package (find_package, static
#     and shared), pkg-config (shared, and --static with -static: no libcollide2d.so needed),
#     and examples/pachinko.c built stand-alone as the README shows.
# One line per case; each case's output goes to build/test-consumers/<case>.log. The last
# line is "N passed, N failed"; the exit status is 0 when nothing failed.
#
# usage: test/consumers/run.sh [WORK-DIR]   (default build/test-consumers)
set -uo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
work=${1:-$root/build/test-consumers}
rm -rf "$work"
mkdir -p "$work"
work=$(cd "$work" && pwd)
consumers=$root/test/consumers
export CC=${CC:-gcc}
jobs=$(nproc 2>/dev/null || echo 2)
passed=0
failed=0

# run_case NAME COMMAND...: runs the command (a shell function below) with its output in the
# case's log; prints one line.
run_case() {
    local name=$1 log=$work/$1.log
    shift
    local start=$SECONDS
    if ("$@") >"$log" 2>&1; then
        passed=$((passed + 1))
        printf '  ok    %-34s %3ds\n' "$name" $((SECONDS - start))
    else
        failed=$((failed + 1))
        printf '  FAIL  %-34s %3ds  (log: %s)\n' "$name" $((SECONDS - start)) "${log#"$root"/}"
        tail -n 25 "$log" | sed 's/^/        /'
    fi
}

# needs_shared_lib PROGRAM yes|no: whether the program's dynamic dependencies include
# libcollide2d.so (a static program has none).
needs_shared_lib() {
    local deps
    deps=$(ldd "$1" 2>&1 || true)
    echo "ldd $1:"
    echo "$deps"
    if printf '%s\n' "$deps" | grep -q 'libcollide2d\.so'; then
        [ "$2" = yes ]
    else
        [ "$2" = no ]
    fi
}

# Standalone: KIND TESTS(enabled|disabled)
standalone() {
    local dir=$work/standalone-$1-$2
    set -x
    meson setup "$dir" "$root" -Ddefault_library="$1" -Dtests="$2" -Dbench=disabled || return 1
    ninja -C "$dir" -j "$jobs" || return 1
    if [ "$2" = enabled ]; then
        meson test -C "$dir" --num-processes "$jobs" --print-errorlogs || return 1
    else
        # no test is registered with tests disabled
        [ "$(meson introspect "$dir" --tests)" = "[]" ] || return 1
    fi
}

# Subproject: KIND TESTS(enabled|auto)
subproject_case() {
    local src=$work/subproject-$1-$2 dir=$work/subproject-$1-$2/build
    set -x
    mkdir -p "$src/subprojects"
    cp "$consumers/meson/meson.build" "$consumers/main.c" "$src/"
    ln -s "$root" "$src/subprojects/libcollide2d"
    meson setup "$dir" "$src" --force-fallback-for=collide2d \
        -Dlibcollide2d:default_library="$1" -Dlibcollide2d:tests="$2" || return 1
    ninja -C "$dir" -j "$jobs" || return 1
    # The parent builds at Meson's default, buildtype=debug (-O0); the library's sources are
    # compiled at -O2 all the same (option optimize_library), the parent's own code at -O0.
    python3 - "$dir/compile_commands.json" <<'PY' || return 1
import json, re, sys
bad = []
for c in json.load(open(sys.argv[1])):
    level = (re.findall(r" -O(\S*)", c["command"]) or ["none"])[-1]
    library = "subprojects/libcollide2d/src/" in c["file"]
    parent = "subprojects/" not in c["file"]
    if library and level != "2" or parent and level != "0":
        bad.append(f"{c['file']}: -O{level}")
print("\n".join(bad) or "library sources at -O2, the parent's at -O0")
sys.exit(1 if bad else 0)
PY
    local tests
    tests=$(meson introspect "$dir" --tests |
        python3 -c 'import json, sys; print(" ".join(t["name"] for t in json.load(sys.stdin)))')
    echo "registered tests: $tests"
    if [ "$2" = auto ]; then
        # the library only: no test of the subproject, no test or benchmark program built
        [ "$tests" = consumer ] || return 1
        ! find "$dir/subprojects" -name 'test-*' -type f | grep -q . || return 1
    else
        [[ " $tests " == *" batch-collide "* ]] || return 1
    fi
    meson test -C "$dir" --num-processes "$jobs" --print-errorlogs || return 1
    if [ "$1" = static ]; then needs_shared_lib "$dir/consumer" no; else needs_shared_lib "$dir/consumer" yes; fi
}

# Install (default_library=both) into a temporary prefix, with the default (multiarch) libdir.
prefix=$work/prefix
install_lib() {
    set -x
    meson setup "$work/install-build" "$root" --prefix="$prefix" -Dtests=disabled \
        -Dbench=disabled -Dexamples=false || return 1
    ninja -C "$work/install-build" -j "$jobs" || return 1
    meson install -C "$work/install-build" || return 1
    find "$prefix" -type f -o -type l | sort
}
libdir() { dirname "$(find "$prefix" -name collide2d.pc | head -n 1)" | xargs dirname; }

pkgconfig_case() {
    set -x
    local lib
    lib=$(libdir)
    export PKG_CONFIG_PATH=$lib/pkgconfig
    if [ "$1" = shared ]; then
        # shellcheck disable=SC2046
        $CC -std=c11 -o "$work/pc-shared" "$consumers/main.c" $(pkg-config --cflags --libs collide2d) || return 1
        LD_LIBRARY_PATH=$lib "$work/pc-shared" || return 1
        needs_shared_lib "$work/pc-shared" yes
    else
        pkg-config --static --libs collide2d
        # shellcheck disable=SC2046
        $CC -std=c11 -static -o "$work/pc-static" "$consumers/main.c" \
            $(pkg-config --static --cflags --libs collide2d) || return 1
        "$work/pc-static" || return 1
        needs_shared_lib "$work/pc-static" no
    fi
}

cmake_case() {
    set -x
    local dir=$work/cmake-$1 src=$work/cmake-src-$1 static=OFF
    [ "$1" = static ] && static=ON
    mkdir -p "$src"
    cp "$consumers/cmake/CMakeLists.txt" "$consumers/main.c" "$src/"
    cmake -S "$src" -B "$dir" -DCMAKE_PREFIX_PATH="$prefix" -Dcollide2d_USE_STATIC_LIBS=$static \
        -DCMAKE_C_COMPILER="$CC" || return 1
    cmake --build "$dir" || return 1
    LD_LIBRARY_PATH=$(libdir) "$dir/consumer" || return 1
    if [ "$1" = static ]; then needs_shared_lib "$dir/consumer" no; else needs_shared_lib "$dir/consumer" yes; fi
}

example_case() {
    set -x
    local lib
    lib=$(libdir)
    export PKG_CONFIG_PATH=$lib/pkgconfig
    # shellcheck disable=SC2046
    $CC -std=c11 -O2 -Wall -Wextra -Werror -o "$work/pachinko" "$root/examples/pachinko.c" \
        $(pkg-config --cflags --libs collide2d) -Wl,-rpath,"$lib" || return 1
    "$work/pachinko" # the rpath finds libcollide2d.so.0, as in the README
}

echo "consumer projects (logs: ${work#"$root"/}/*.log)"
run_case standalone-static-tests standalone static enabled
run_case standalone-shared-tests standalone shared enabled
run_case standalone-static-no-tests standalone static disabled
run_case subproject-static subproject_case static auto
run_case subproject-shared subproject_case shared auto
run_case subproject-both subproject_case both auto
run_case subproject-static-tests subproject_case static enabled
if run_case install install_lib; then :; fi
if [ -f "$(libdir)/pkgconfig/collide2d.pc" ] 2>/dev/null; then
    run_case pkg-config-shared pkgconfig_case shared
    run_case pkg-config-static pkgconfig_case static
    run_case cmake-shared cmake_case shared
    run_case cmake-static cmake_case static
    run_case example-standalone example_case
fi
echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
