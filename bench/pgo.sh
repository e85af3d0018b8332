#!/usr/bin/env bash
# A profile-guided (PGO) release build of lf-opt. Usage:
#   bash bench/pgo.sh              builds target/pgo/release/lf-opt
#   bash bench/pgo.sh --train-only (re)makes target/pgo/lf-opt.profdata only
# Three steps: an instrumented release build (target/pgo/gen), lf-opt run on
# the training inputs, then the release build with the merged profile
# (target/pgo/release/lf-opt; same sources, same Cargo profile, same output
# as `cargo build --release`). Then, e.g.:
#   LF_OPT=target/pgo/release/lf-opt bash bench/loop-passes.sh
# The training inputs are the repository's own programs: every .mlir and
# .lfir file under test/ and examples/, each through the round trip (both
# forms) and the loop passes that bench/ measures, plus the examples'
# kernels at their benchmark sizes (examples/gen.py NAME large). Never the
# benchmark programs (bench/gen_affine.py): the profile must not know them.
# Needs llvm-profdata of the LLVM that rustc uses (`rustc -vV`), e.g.
# `apt-get install llvm-22` for rustc 1.95 (LLVM 22); the script says so
# when it is missing and installs nothing.
set -euo pipefail
ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
cd "$ROOT"
TRAIN_ONLY=0
case "${1:-}" in
  --train-only) TRAIN_ONLY=1 ;;
  -h|--help) sed -n '2,17p' "${BASH_SOURCE[0]}" | sed 's/^# \{0,1\}//'; exit 0 ;;
  "") ;;
  *) echo "unknown option $1" >&2; exit 2 ;;
esac

llvm_major=$(rustc -vV | sed -n 's/^LLVM version: \([0-9]*\).*/\1/p')
PROFDATA=""
for c in "llvm-profdata-$llvm_major" "/usr/lib/llvm-$llvm_major/bin/llvm-profdata"; do
  if command -v "$c" >/dev/null 2>&1; then PROFDATA=$c; break; fi
done
if [ -z "$PROFDATA" ]; then
  echo "bench/pgo.sh: needs llvm-profdata of LLVM $llvm_major (rustc's); on Debian: apt-get install llvm-$llvm_major" >&2
  exit 1
fi

OUT=$ROOT/target/pgo
RAW=$OUT/raw
PROFILE=$OUT/lf-opt.profdata
mkdir -p "$OUT"

echo "== instrumented build (target/pgo/gen)" >&2
rm -rf "$RAW"
RUSTFLAGS="-Cprofile-generate=$RAW" CARGO_TARGET_DIR=$OUT/gen \
  cargo build --release -p lf-tools --bin lf-opt >&2
GEN=$OUT/gen/release/lf-opt

echo "== training" >&2
TMPD=$(mktemp -d)
trap 'rm -rf "$TMPD"' EXIT
# The examples' kernels at their benchmark sizes: the only large inputs.
for name in $(python3 examples/gen.py --help 2>&1 | awk '/^sizes/{s=1; next} s && NF {print $1}' | sort -u); do
  python3 examples/gen.py "$name" large > "$TMPD/$name.lfir" 2>/dev/null || rm -f "$TMPD/$name.lfir"
done
runs=0
while IFS= read -r f; do
  for flags in "" "--print-op-generic" "--affine-loop-normalize" "--affine-loop-invariant-code-motion" \
    "--affine-scalrep" "--affine-parallelize" "--test-memref-dependence-check" \
    "--pass-pipeline=builtin.module(func.func(affine-loop-unroll))" \
    "--pass-pipeline=builtin.module(func.func(affine-loop-unroll-jam))" \
    "--pass-pipeline=builtin.module(func.func(canonicalize,cse))"; do
    # Inputs that lf-opt rejects (the error tests) train the error paths.
    timeout 60 "$GEN" "$f" $flags -o /dev/null >/dev/null 2>&1 || true
    runs=$((runs + 1))
  done
done < <(find test examples "$TMPD" -name '*.mlir' -o -name '*.lfir' | sort)
echo "$runs runs" >&2
"$PROFDATA" merge -o "$PROFILE" "$RAW"
echo "profile: $PROFILE" >&2
[ "$TRAIN_ONLY" = 1 ] && exit 0

echo "== build with the profile (target/pgo/release)" >&2
# Functions changed since the profile was made are built without it; no
# warning for them.
RUSTFLAGS="-Cprofile-use=$PROFILE -Cllvm-args=-no-pgo-warn-mismatch" CARGO_TARGET_DIR=$OUT \
  cargo build --release -p lf-tools --bin lf-opt >&2
echo "$OUT/release/lf-opt"
