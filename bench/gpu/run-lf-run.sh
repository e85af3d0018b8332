#!/usr/bin/env bash
# Runs every GPU-level program of test/gpu-programs with a prebuilt lf-run,
# once with --gpu-backend=sim (the interpreter) and once with
# --gpu-backend=cuda (the emitted CUDA, compiled by nvcc, run through the
# CUDA driver API), compares the two outputs byte for byte and prints a table.
#
#   bench/gpu/run-lf-run.sh PATH/TO/lf-run [BACKEND] [PROGRAM.lfir...]
#
# BACKEND defaults to cuda (opencl works too). nvcc is found as lf-run finds
# it: $NVCC, PATH, or the pip package nvidia-cuda-nvcc (LF_CUDA_ARCH picks
# the -arch, default sm_90). Exit status 0 when every program matches.
set -u
if [ $# -lt 1 ] || [ ! -x "$1" ]; then
  echo "usage: $0 PATH/TO/lf-run [cuda|opencl] [PROGRAM.lfir...]" >&2
  exit 2
fi
LF_RUN=$(cd "$(dirname "$1")" && pwd)/$(basename "$1")
shift
BACKEND=cuda
if [ $# -ge 1 ] && { [ "$1" = cuda ] || [ "$1" = opencl ]; }; then
  BACKEND=$1
  shift
fi
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
if [ $# -ge 1 ]; then
  PROGRAMS=("$@")
else
  PROGRAMS=("$ROOT"/test/gpu-programs/*.lfir)
fi
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT

now() { date +%s.%N; }
secs() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.3f", b - a }'; }

if command -v nvidia-smi >/dev/null 2>&1; then
  echo "device: $(nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | head -1)"
fi
printf '%-28s %-8s %10s %10s  %s\n' program result "sim s" "$BACKEND s" note
fail=0
for p in "${PROGRAMS[@]}"; do
  name=$(basename "$p" .lfir)
  t0=$(now)
  "$LF_RUN" "$p" --gpu-backend=sim >"$TMP/$name.sim" 2>"$TMP/$name.sim.err"
  rs=$?
  t1=$(now)
  "$LF_RUN" "$p" --gpu-backend="$BACKEND" >"$TMP/$name.dev" 2>"$TMP/$name.dev.err"
  rd=$?
  t2=$(now)
  note=""
  if [ $rs -ne 0 ]; then
    result=SIM-FAIL
    note=$(head -1 "$TMP/$name.sim.err")
  elif [ $rd -ne 0 ]; then
    result=DEV-FAIL
    note=$(grep -m1 error "$TMP/$name.dev.err" || head -1 "$TMP/$name.dev.err")
  elif cmp -s "$TMP/$name.sim" "$TMP/$name.dev"; then
    result=SAME
    note="$(wc -l <"$TMP/$name.sim") lines"
  else
    result=DIFFERS
    note=$(cmp "$TMP/$name.sim" "$TMP/$name.dev" 2>&1 | head -1)
  fi
  [ "$result" = SAME ] || fail=1
  printf '%-28s %-8s %10s %10s  %s\n' "$name" "$result" "$(secs "$t0" "$t1")" "$(secs "$t1" "$t2")" "$note"
  if [ "$result" = DEV-FAIL ] && [ "$(wc -l <"$TMP/$name.dev.err")" -gt 1 ]; then
    sed 's/^/    /' "$TMP/$name.dev.err" | head -20
  fi
done
if [ $fail -eq 0 ]; then
  echo "all ${#PROGRAMS[@]} programs print the same with --gpu-backend=$BACKEND as with sim"
else
  echo "some programs differ or failed"
fi
exit $fail
