#!/bin/sh
# Builds and runs the emitted CUDA of the GPU-level test programs on an NVIDIA
# GPU, checks each output against the expected one (mlir-runner's output for
# the CPU version, base addresses as 0x0), and runs compute-sanitizer
# racecheck and memcheck on the programs whose kernels use shared memory.
#
#   bench/gpu/run.sh [OUTDIR]       (default OUTDIR: bench/gpu/results)
#
# Needs nvcc and compute-sanitizer (NVCC, COMPUTE_SANITIZER override them);
# no Rust toolchain and no network: the .cu files in emitted/ come from
# bench/gpu/emit.sh. Writes OUTDIR/summary.md (a table for RESULTS.md) and one
# log per step. The exit status is 1 if any build, run, comparison or
# sanitizer check failed.
set -u
here=$(cd "$(dirname "$0")" && pwd)
out=${1:-$here/results}
mkdir -p "$out"
out=$(cd "$out" && pwd)
NVCC=${NVCC:-$(command -v nvcc || echo /usr/local/cuda/bin/nvcc)}
SAN=${COMPUTE_SANITIZER:-$(command -v compute-sanitizer || echo /usr/local/cuda/bin/compute-sanitizer)}
ARCH=${ARCH:-sm_90}

now_ms() { date +%s%N | cut -c1-13; }
status=0
summary="$out/summary.md"
{
  echo "# bench/gpu results"
  echo
  echo "- date: $(date -u '+%Y-%m-%d %H:%M UTC')"
  echo "- device: $(nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv,noheader 2>/dev/null || echo unknown)"
  echo "- nvcc: $("$NVCC" --version 2>/dev/null | tail -n 2 | head -n 1)"
  echo "- flags: -arch=$ARCH -O3"
  echo
  echo "| program | build | registers / smem | run (ms) | output | racecheck | memcheck |"
  echo "| --- | --- | --- | --- | --- | --- | --- |"
} > "$summary"

for cu in "$here"/emitted/*.cu; do
  name=$(basename "$cu" .cu)
  exe="$out/$name"
  build=ok; usage=-; runms=-; result=-; race=-; mem=-
  if "$NVCC" -arch="$ARCH" -O3 --resource-usage -o "$exe" "$cu" > "$out/$name.build.log" 2>&1; then
    usage=$(grep -o 'Used [0-9]* registers.*' "$out/$name.build.log" | sed 's/, used [0-9]* barriers//' | tr '\n' ';' | sed 's/;$//')
    t0=$(now_ms)
    if "$exe" > "$out/$name.out" 2> "$out/$name.err"; then
      t1=$(now_ms)
      runms=$((t1 - t0))
      sed 's/base@ = 0x[0-9a-f]*/base@ = 0x0/' "$out/$name.out" > "$out/$name.norm"
      if cmp -s "$out/$name.norm" "$here/emitted/$name.expected"; then
        result=same
      else
        result=DIFFERENT; status=1
        diff "$here/emitted/$name.expected" "$out/$name.norm" | head -n 20 > "$out/$name.diff"
      fi
    else
      result="RUN FAILED ($(head -c 200 "$out/$name.err"))"; status=1
    fi
    if grep -q '__shared__' "$cu"; then
      if "$SAN" --tool racecheck --racecheck-report all --error-exitcode 1 "$exe" > "$out/$name.racecheck.log" 2>&1; then
        race="$(grep -o 'RACECHECK SUMMARY.*' "$out/$name.racecheck.log" | head -n 1)"
        race=${race:-clean}
      else
        race="FAILED ($(grep -o 'RACECHECK SUMMARY.*' "$out/$name.racecheck.log" | head -n 1))"; status=1
      fi
      if "$SAN" --tool memcheck --error-exitcode 1 "$exe" > "$out/$name.memcheck.log" 2>&1; then
        mem="$(grep -o 'ERROR SUMMARY.*' "$out/$name.memcheck.log" | head -n 1)"
        mem=${mem:-clean}
      else
        mem="FAILED ($(grep -o 'ERROR SUMMARY.*' "$out/$name.memcheck.log" | head -n 1))"; status=1
      fi
    fi
  else
    build=FAILED; status=1
  fi
  echo "| $name | $build | $usage | $runms | $result | $race | $mem |" >> "$summary"
  echo "$name: build=$build run_ms=$runms output=$result racecheck=$race memcheck=$mem"
done
echo
cat "$summary"
exit $status
