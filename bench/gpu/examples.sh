#!/bin/bash
# Every example driver (examples/run/*.mlir) through a GPU pipeline (ihop-gpu by
# default, fuse-halo-gpu for issue 29), emitted as CUDA and run on the GPU: its printed
# output must be mlir-runner's for the original program (examples/run/expected), and
# compute-sanitizer memcheck (and racecheck, with RACECHECK=1) must find no error
# (issues 28 and 29, "on the GPU, recorded in bench/gpu/RESULTS.md").
#
#   bench/gpu/examples.sh prepare          # here (cargo): bench/gpu/.ex/NAME.cu + NAME.expected
#   bash bench/gpu/examples.sh run         # on the GPU machine (carry bench/gpu/.ex):
#                                          # builds, runs, compares, memcheck; $OUT/examples.md
#   bench/gpu/examples.sh record DIR       # here: DIR/examples.md into bench/gpu/RESULTS.md
#
# Environment: PIPELINE (default builtin.module(ihop-gpu)), LF_BIN (folder of lf-opt and
# lf-translate; default: built with cargo), NVCC, SANITIZER, RACECHECK=1 (run), SECTION
# (record: the RESULTS.md section, default examples; examples-fusion for fuse-halo-gpu).
set -u
cd "$(dirname "$0")/../.."
EX=bench/gpu/.ex
PIPELINE=${PIPELINE:-builtin.module(ihop-gpu)}

prepare() {
  if [ -z "${LF_BIN:-}" ]; then
    cargo build -q -p lf-tools --bin lf-opt --bin lf-translate --bin lf-run || exit 1
    LF_BIN=${CARGO_TARGET_DIR:-target}/debug
  fi
  rm -rf "$EX" && mkdir -p "$EX"
  echo "pipeline: $PIPELINE" > "$EX/manifest.txt"
  echo "lf commit: $(git rev-parse --short HEAD)" >> "$EX/manifest.txt"
  status=0
  for f in examples/run/*.mlir; do
    n=$(basename "$f" .mlir)
    if "$LF_BIN/lf-opt" "$f" --pass-pipeline="$PIPELINE" -o "$EX/$n.mlir" 2>/dev/null \
      && "$LF_BIN/lf-run" --separate-memory "$EX/$n.mlir" | cmp -s - "examples/run/expected/$n.out" \
      && "$LF_BIN/lf-translate" "$EX/$n.mlir" --target=cuda -o "$EX/$n.cu"; then
      cp "examples/run/expected/$n.out" "$EX/$n.expected"
      echo "ok   $n: $(grep -c 'gpu.launch_func' "$EX/$n.mlir") launch site(s)"
    else
      echo "FAIL $n (lf-opt, lf-run --separate-memory against expected, or lf-translate)"
      status=1
    fi
  done
  echo "prepared $EX; status $status"
  exit $status
}

run() {
  NVCC=${NVCC:-$(command -v nvcc || echo /usr/local/cuda/bin/nvcc)}
  SANITIZER=${SANITIZER:-$(command -v compute-sanitizer || echo /usr/local/cuda/bin/compute-sanitizer)}
  OUTDIR=${OUT:-/tmp/examples-out}
  BUILD=$(mktemp -d)
  mkdir -p "$OUTDIR"
  md="$OUTDIR/examples.md"
  {
    echo "### Every example driver through $(sed -n 's/^pipeline: //p' "$EX/manifest.txt") on the GPU"
    echo
    echo "Device: **$(nvidia-smi --query-gpu=name,driver_version --format=csv,noheader 2>&1 | head -n 1)**, $("$NVCC" --version | grep -o 'release [0-9.]*'), \`nvcc -O3 -arch=sm_90 --fmad=false\`; $(grep -h 'lf commit\|pipeline' "$EX/manifest.txt" | tr '\n' ';' | sed 's/;$//; s/;/; /g')."
    echo "Each driver of \`examples/run\` goes through the pipeline and \`lf-translate --target=cuda\` (\`bench/gpu/examples.sh\`); *output*: the program's printed output against mlir-runner's for the original program (\`examples/run/expected\`, base addresses as 0x0); *memcheck*: compute-sanitizer's summary."
    echo
    if [ "${RACECHECK:-0}" = 1 ]; then
      echo "| driver | output | memcheck | racecheck |"
      echo "|---|---|---|---|"
    else
      echo "| driver | output | memcheck |"
      echo "|---|---|---|"
    fi
  } > "$md"
  status=0
  for cu in "$EX"/*.cu; do
    n=$(basename "$cu" .cu)
    bin="$BUILD/$n.bin"
    if ! "$NVCC" -O3 -arch=sm_90 --fmad=false -o "$bin" "$cu" > "$BUILD/$n.build.log" 2>&1; then
      echo "| $n | BUILD FAILED | - |" >> "$md"; echo "FAIL $n: build"; status=1; continue
    fi
    if timeout 120 "$bin" 2>&1 | sed 's/base@ = 0x[0-9a-f]*/base@ = 0x0/' | cmp -s - "$EX/$n.expected"; then
      out=same
    else
      out=DIFFERS; status=1
    fi
    mc=$(timeout 300 "$SANITIZER" --tool memcheck --error-exitcode 1 "$bin" 2>&1 | grep -o 'ERROR SUMMARY.*' | head -n 1)
    if [ "${RACECHECK:-0}" = 1 ]; then
      rc=$(timeout 300 "$SANITIZER" --tool racecheck --racecheck-report all --error-exitcode 1 "$bin" 2>&1 | grep -o 'RACECHECK SUMMARY.*' | head -n 1)
      echo "| $n | $out | ${mc:-no summary} | ${rc:-no summary} |" >> "$md"
    else
      echo "| $n | $out | ${mc:-no summary} |" >> "$md"
    fi
    echo "$out $n: ${mc:-no summary} ${rc:-}"
  done
  echo "status $status"
  exit $status
}

record() {
  dir=${1:?the folder the files came back to}
  res=bench/gpu/RESULTS.md
  python3 - "$res" "$dir/examples.md" "${SECTION:-examples}" <<'PY'
import sys
res, new = sys.argv[1], open(sys.argv[2]).read().rstrip() + "\n"
s = open(res).read()
b, e = "<!-- %s:begin -->" % sys.argv[3], "<!-- %s:end -->" % sys.argv[3]
if b in s:
    s = s[:s.index(b) + len(b)] + "\n" + new + s[s.index(e):]
else:
    s = s.rstrip() + "\n\n" + b + "\n" + new + e + "\n"
open(res, "w").write(s)
PY
  echo "recorded into $res"
}

case "${1:-}" in
  prepare) prepare ;;
  run) run ;;
  record) shift; record "$@" ;;
  *) sed -n '2,13p' "$0"; exit 2 ;;
esac
