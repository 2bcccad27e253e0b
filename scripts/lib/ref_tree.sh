# The sources of another commit beside the work tree, for scripts/compare and scripts/ab
# (sourced). `git archive`, so the work tree is not touched.
#
#   ref_sources SHA SRC BUILD   SRC holds commit SHA's files (extracted again only when SRC
#                               holds another commit; BUILD, its build tree, is then removed)

ref_sources() {
    local sha=$1 src=$2 build=$3
    [ "$(cat "$src/.commit" 2>/dev/null)" = "$sha" ] && return 0
    rm -rf "$src" "$build"
    mkdir -p "$src"
    git archive "$sha" | tar -x -C "$src"
    echo "$sha" >"$src/.commit"
}
