#!/usr/bin/env bash
# Makes the pictures of the docs: each docs/images/*.dot is lf-opt's output
# (tools/tests/docs_images.rs checks that it is up to date), rendered to SVG
# with Graphviz's `dot` (needed only here, not to use lf).
# Usage: docs/images/build.sh   (after `cargo build -p lf-tools`)
set -euo pipefail
cd "$(dirname "$0")/../.."
lf_opt="${CARGO_TARGET_DIR:-target}/debug/lf-opt"
"$lf_opt" examples/stencil4_chain.lfir -o /dev/null \
  --pass-pipeline='builtin.module(func.func(print-dependence-graph{granularity=loop out=docs/images/stencil4_chain-loops.dot}))'
"$lf_opt" examples/fig3_chain.lfir -o /dev/null \
  --pass-pipeline='builtin.module(func.func(print-dependence-graph{out=docs/images/fig3_chain-statements.dot}))'
for f in docs/images/*.dot; do
  dot -Tsvg "$f" -o "${f%.dot}.svg"
done
