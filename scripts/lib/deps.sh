# Installs missing Debian packages (sourced by the scripts in scripts/).
#
#   need_packages PKG...   installs the packages that are not installed yet, as root with
#                          apt-get; otherwise prints the apt-get line and exits 1.
#   need_arm64             adds the arm64 architecture (for libcmocka-dev:arm64 and
#                          libbenchmark-dev:arm64) when it is missing; without root it prints
#                          the line to run, and the next need_packages stops after printing
#                          its own, so one run shows everything to install.
# Set C2D_NO_INSTALL=1 to only check.

c2d_missing_packages() {
    local p missing=()
    for p in "$@"; do
        dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'install ok installed' ||
            missing+=("$p")
    done
    echo "${missing[@]}"
}

c2d_apt_updated=0
c2d_arch_missing=0 # need_arm64 printed its line without root: need_packages stops after its own
need_packages() {
    local missing
    missing=$(c2d_missing_packages "$@")
    if [ -z "$missing" ]; then
        [ "$c2d_arch_missing" = 0 ] && return 0
        exit 1
    fi
    if [ "$(id -u)" != 0 ] || [ "${C2D_NO_INSTALL:-0}" = 1 ]; then
        echo "missing packages; install them with:" >&2
        echo "  sudo apt-get install -y $missing" >&2
        exit 1
    fi
    # apt-get and dpkg print hundreds of progress lines: they go to a log, the terminal gets one
    # line (and the log's end when the install fails).
    mkdir -p build
    local log=build/apt-get.log
    printf 'installing %s (log: %s) ... ' "$missing" "$log" >&2
    export DEBIAN_FRONTEND=noninteractive
    {
        if [ "$c2d_apt_updated" = 0 ]; then
            apt-get update -qq && c2d_apt_updated=1
        fi
        # shellcheck disable=SC2086
        apt-get install -y -qq --no-install-recommends $missing
    } >>"$log" 2>&1 || {
        echo "FAILED" >&2
        tail -n 20 "$log" >&2
        exit 1
    }
    echo "done" >&2
}

need_arm64() {
    dpkg --print-foreign-architectures | grep -qx arm64 && return 0
    if [ "$(id -u)" != 0 ] || [ "${C2D_NO_INSTALL:-0}" = 1 ]; then
        echo "the arm64 architecture is missing; add it first with:" >&2
        echo "  sudo dpkg --add-architecture arm64 && sudo apt-get update" >&2
        c2d_arch_missing=1 # the packages' line follows (need_packages), then the script stops
        return 0
    fi
    dpkg --add-architecture arm64
    c2d_apt_updated=0
}

# Packages every build needs.
C2D_BUILD_PACKAGES="meson ninja-build pkg-config gcc libc6-dev libsimde-dev"
