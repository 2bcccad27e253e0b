# shellcheck shell=bash
# Builds cmocka for wasm32 with emcc (sourced by scripts/wasm). Debian ships no wasm cmocka:
# its source package is fetched with a private apt configuration (a deb-src entry for the
# machine's own Debian mirror and release, lists in a scratch folder; the system's apt state is
# not touched), and cmocka.c is compiled with a config.h written here (cmocka 1.1.5 is one C
# file; emcmake's configure checks alone took minutes).
#
#   wasm_cmocka DIR    leaves DIR/lib/libcmocka.a, DIR/include/cmocka.h and
#                      DIR/pkgconfig/cmocka.pc (kept: the next run reuses them)
#
# Built with -pthread, like every object of the test tree (cross/wasm32-node.txt).

# The URI of the machine's Debian archive and its release, from its apt sources.
wasm_debian_source() {
    local uri="" suite
    . /etc/os-release
    suite=${VERSION_CODENAME:-bookworm}
    if compgen -G '/etc/apt/sources.list.d/*.sources' >/dev/null; then
        uri=$(awk '/^URIs:/ && $2 ~ /debian\/?$/ { print $2; exit }' /etc/apt/sources.list.d/*.sources)
    fi
    if [ -z "$uri" ] && [ -f /etc/apt/sources.list ]; then
        uri=$(awk '$1 == "deb" && $2 ~ /debian\/?$/ { print $2; exit }' /etc/apt/sources.list)
    fi
    [ -n "$uri" ] || return 1
    echo "$uri $suite"
}

wasm_cmocka() {
    local dir work apt uri suite tarball
    [ -f "$1/lib/libcmocka.a" ] && [ -f "$1/pkgconfig/cmocka.pc" ] && return 0
    mkdir -p "$1"
    dir=$(realpath "$1") # apt takes absolute paths
    work=$dir/src apt=$dir/apt
    rm -rf "$work" "$apt"
    mkdir -p "$work" "$apt/sources" "$apt/lists/partial" "$apt/archives/partial" "$dir/lib" \
        "$dir/include" "$dir/pkgconfig"
    : >"$apt/sources.list"
    read -r uri suite < <(wasm_debian_source) || {
        echo "no Debian archive in the apt sources" >&2
        return 1
    }
    printf 'Types: deb-src\nURIs: %s\nSuites: %s\nComponents: main\nSigned-By: %s\n' \
        "$uri" "$suite" /usr/share/keyrings/debian-archive-keyring.gpg >"$apt/sources/src.sources"
    local opts=(-o "Dir::Etc::sourcelist=$apt/sources.list" -o "Dir::Etc::sourceparts=$apt/sources"
        -o "Dir::State::lists=$apt/lists" -o "Dir::Cache::archives=$apt/archives"
        -o APT::Sandbox::User=root)
    apt-get "${opts[@]}" update -qq || return 1
    (cd "$work" && apt-get "${opts[@]}" source --download-only cmocka) || return 1
    tarball=$(find "$work" -maxdepth 1 -name 'cmocka_*.orig.tar.*' ! -name '*.asc' | head -n 1)
    tar -xf "$tarball" -C "$work" || return 1
    local src
    src=$(find "$work" -mindepth 1 -maxdepth 1 -type d -name 'cmocka-*' | head -n 1)
    cat >"$src/config.h" <<'EOF'
/* cmocka's config.h for emscripten (what its CMake checks find there). */
#define HAVE_ASSERT_H 1
#define HAVE_INTTYPES_H 1
#define HAVE_MALLOC_H 1
#define HAVE_MEMORY_H 1
#define HAVE_SETJMP_H 1
#define HAVE_SIGNAL_H 1
#define HAVE_STDARG_H 1
#define HAVE_STDDEF_H 1
#define HAVE_STDINT_H 1
#define HAVE_STDIO_H 1
#define HAVE_STDLIB_H 1
#define HAVE_STRINGS_H 1
#define HAVE_STRING_H 1
#define HAVE_SYS_STAT_H 1
#define HAVE_SYS_TYPES_H 1
#define HAVE_TIME_H 1
#define HAVE_UNISTD_H 1
#define HAVE_STRUCT_TIMESPEC 1
#define HAVE_CALLOC 1
#define HAVE_FPRINTF 1
#define HAVE_SNPRINTF 1
#define HAVE_VSNPRINTF 1
#define HAVE_FREE 1
#define HAVE_MALLOC 1
#define HAVE_MEMCPY 1
#define HAVE_MEMSET 1
#define HAVE_PRINTF 1
#define HAVE_SETJMP 1
#define HAVE_SIGNAL 1
#define HAVE_STRCMP 1
#define HAVE_STRSIGNAL 1
#define HAVE_CLOCK_GETTIME 1
#define HAVE_GCC_THREAD_LOCAL_STORAGE 1
#define HAVE_CLOCK_REALTIME 1
#define WORDS_SIZEOF_VOID_P 4
EOF
    # cmocka.h defines uintptr_t itself unless _UINTPTR_T says it exists (musl names it
    # otherwise): every user of the header gets the define through the .pc file.
    emcc -O2 -pthread -D_UINTPTR_T -DHAVE_CONFIG_H -I"$src" -I"$src/include" \
        -c "$src/src/cmocka.c" -o "$work/cmocka.o" || return 1
    rm -f "$dir/lib/libcmocka.a"
    emar rcs "$dir/lib/libcmocka.a" "$work/cmocka.o" || return 1
    cp "$src/include/cmocka.h" "$dir/include/"
    local version
    version=$(basename "$src" | sed 's/^cmocka-//')
    printf 'Name: cmocka\nDescription: cmocka built for wasm32 by scripts/wasm\nVersion: %s\nLibs: -L%s -lcmocka\nCflags: -D_UINTPTR_T -isystem %s\n' \
        "$version" "$(realpath "$dir/lib")" "$(realpath "$dir/include")" >"$dir/pkgconfig/cmocka.pc"
}
