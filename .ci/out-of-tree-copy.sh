#!/usr/bin/env bash
# The out-of-tree example copied out of lf, as docs/writing-a-pass.md and
# its README say to start a project: a directory elsewhere, the `path`
# dependencies of its Cargo.toml pointed at this checkout, the package
# renamed (`out_of_tree_pass::` in src/bin/my-opt.rs with it) and nothing
# else changed. The copy must build, pass its own tests and
# call its tool my-opt. Run after the example's own build (.ci/run), whose
# compiled lf crates it reuses through CARGO_TARGET_DIR.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
export CARGO_TARGET_DIR="${CARGO_TARGET_DIR:-$root/target}"
tmp="$(mktemp -d)"
trap 'rm -rf "$tmp"' EXIT
copy="$tmp/my-project"
mkdir "$copy"
# The crate's files as git has them (no build output).
(cd "$root" && git ls-files -co --exclude-standard examples/out-of-tree-pass) | while read -r f; do
  mkdir -p "$copy/$(dirname "${f#examples/out-of-tree-pass/}")"
  cp "$root/$f" "$copy/${f#examples/out-of-tree-pass/}"
done
sed -i "s|path = \"\.\./\.\./|path = \"$root/|" "$copy/Cargo.toml"
# Renamed, as a project of one's own is (and so that its build output, in
# the shared target directory, does not take the place of the example's).
sed -i 's|^name = "out-of-tree-pass"|name = "my-project"|' "$copy/Cargo.toml"
grep -rl 'out_of_tree_pass' "$copy/src" | xargs -r sed -i 's/out_of_tree_pass/my_project/g'
grep -q '^name = "my-project"' "$copy/Cargo.toml"
# Nothing else may reach into lf's tree by a relative path.
if grep -rn '\.\./\.\.' "$copy" --include='*.rs' --include='*.toml' --include='*.lfir'; then
  echo "out-of-tree-copy: the copied crate still refers to lf's tree by a relative path" >&2
  exit 1
fi
cd "$copy"
cargo test
# The tool is the copy's own my-opt.
help="$("$CARGO_TARGET_DIR/debug/my-opt" --help)"
grep -q '^Usage: my-opt ' <<<"$help" || { echo "out-of-tree-copy: my-opt --help does not say my-opt" >&2; exit 1; }
echo "out-of-tree-copy: the copy in $copy builds and passes its tests"
