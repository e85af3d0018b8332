#!/bin/sh
# Re-emits bench/gpu/emitted/ from test/gpu-programs/ with lf-translate (run
# here, where the Rust toolchain is; the GPU machine only needs run.sh and
# emitted/). targets/tests/programs.rs fails when emitted/ is out of date.
set -eu
cd "$(dirname "$0")/../.."
cargo build -q -p lf-tools --bin lf-translate
bin=${CARGO_TARGET_DIR:-target}/debug/lf-translate
for f in test/gpu-programs/*.lfir; do
  name=$(basename "$f" .lfir)
  "$bin" "$f" --target=cuda -o "bench/gpu/emitted/$name.cu"
  cp "test/gpu-programs/$name.expected" "bench/gpu/emitted/$name.expected"
  echo "emitted bench/gpu/emitted/$name.cu"
done
