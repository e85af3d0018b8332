#!/usr/bin/env bash
# The GPU benchmark suite's PolyBench subset (issue 28, BENCHMARKS.md §2):
# gemm, 2mm, jacobi_2d, fdtd_2d, lu, correlation, doitgen at their LARGE-like
# sizes (examples/gen.py's `large` table), each through lf pipelines with no
# hand edits, emitted as CUDA, timed against its naive mapping and a
# single-core CPU build of the same source, in the same GPU run as the
# hand-written references and ceilings of ../shared/anchors-gpu.
#
#   bench/gpu/polybench.sh prepare     here (cargo, lf tools, mlir-runner's
#                                      expected outputs): writes bench/gpu/.pb/
#                                      and bench/gpu/.refs/ (both git-ignored)
#   bench/gpu/polybench.sh run         on the GPU machine (nvcc, g++, python3;
#                                      no Rust): builds, checks, times, runs the
#                                      anchors, writes the report into $OUT
#   bench/gpu/polybench.sh record DIR  here: copies DIR/polybench.png and
#                                      splices DIR/polybench.md into RESULTS.md
#   bench/gpu/polybench.sh build-check here, no GPU: builds every harness and
#                                      reduced-size GPU program (nvcc -arch=sm_90
#                                      if found; g++ for the CPU version), runs
#                                      the CPU harness at full
#                                      size, and the CPU-only translation of each
#                                      reduced-size driver against mlir-runner
#
# Variables (prepare):
#   VARIANTS         variants to build, each from a pipeline (default "naive
#                    ihop"); the first is the baseline (the others are checked
#                    against its results too)
#   PIPELINE_ihop    default builtin.module(ihop-gpu)
#   PIPELINE_naive   default: identity mapping, 256x1 blocks (below)
#   PIPELINE_<v>     for any other variant named in VARIANTS
#   PIPELINE_<v>_<w> variant v's pipeline for workload w only (e.g. PIPELINE_naive_lu)
#   WORKLOADS        default: the seven workloads
#   SIZES_<w>        override a workload's sizes (e.g. SIZES_lu="N=512")
#   SKIP_FAILED      1: a variant (not the first) whose full-size pipeline
#                    fails is skipped ("SKIP" line, bench/gpu/.../W/V.skipped;
#                    the run logs SKIP|W|V|reason) instead of failing prepare
#                    (default 0; e.g. a pass that is not merged yet)
#   CPU              0: no CPU version (not translated, built or run; the
#                    first variant is the reference), default 1
#   PRE_TRANSLATE    a pipeline run on every variant's output before
#                    lf-translate (default none; lf-translate has no affine.if,
#                    'builtin.module(lower-affine)' lowers it)
#   LF_BIN           folder of lf-opt, lf-translate, lf-run (default: build
#                    them with cargo into $CARGO_TARGET_DIR/debug)
# Variables (run): RUNS (timed calls per GPU variant, default 25), KRUNS
#   (instrumented calls that split a call into kernels and copies, default 3),
#   CPU_RUNS (default 5), LFB_CPU_BUDGET_S (seconds per CPU workload, default
#   8), SAN=0 to skip compute-sanitizer on the reduced-size programs,
#   SAN_TOOLS (default memcheck; e.g. "memcheck racecheck"), SAN_VARIANTS
#   (default: all), ANCHORS=0 to skip the anchors, ANCHOR_PROGS (default:
#   all of run_all.sh; e.g. "fig3 ll18": only these, built and run alone),
#   DEADLINE_S (default 570: the anchors get what is left of it), NVCC, CXX,
#   OUT (default bench/gpu/.pb/out).
# SUITE (default polybench; bench/gpu/fusion.sh sets fusion) names the
#   prepared folder (.pb, else .SUITE), the report script (SUITE_report.py),
#   the files in $OUT (SUITE.md, SUITE.png, SUITE.log) and the section of
#   RESULTS.md that record replaces.
set -u
HERE=$(cd "$(dirname "$0")" && pwd)
ROOT=$(cd "$HERE/../.." && pwd)
SUITE=${SUITE:-polybench}
if [ "$SUITE" = polybench ]; then PB=$HERE/.pb; else PB=$HERE/.$SUITE; fi
REFS=$HERE/.refs
DEFAULT_WORKLOADS="gemm 2mm jacobi_2d fdtd_2d lu correlation doitgen"
WORKLOADS=${WORKLOADS:-$DEFAULT_WORKLOADS}
VARIANTS=${VARIANTS:-naive ihop}
# (not ${X:=...}: a '}' in the default would end the expansion)
[ -n "${PIPELINE_ihop:-}" ] || PIPELINE_ihop='builtin.module(ihop-gpu)'
[ -n "${PIPELINE_naive:-}" ] ||
  PIPELINE_naive='builtin.module(func.func(gpu-map-loops{mapping=identity block-sizes=256,1},gpu-host-data-placement),gpu-kernel-outlining)'
export PIPELINE_ihop PIPELINE_naive

die() { echo "$SUITE.sh: $*" >&2; exit 1; }
pipeline_of() { # variant [workload]: PIPELINE_<v>_<w>, else PIPELINE_<v>
  local v="PIPELINE_$1" vw="PIPELINE_$1_${2:-}"
  if [ -n "${2:-}" ] && [ -n "${!vw:-}" ]; then echo "${!vw}"; else echo "${!v:-}"; fi
}
sizes_of() { # workload -> "K=V ..." (the large sizes, or SIZES_<w>)
  local v="SIZES_$1"
  if [ -n "${!v:-}" ]; then python3 "$ROOT/examples/gen.py" sizes "$1" large ${!v}
  else python3 "$ROOT/examples/gen.py" sizes "$1" large; fi
}
dflags() { # "NI=1024 NJ=8" -> "-DLFB_NI=1024 -DLFB_NJ=8"
  local kv out=""
  for kv in $1; do out="$out -DLFB_$kv"; done
  echo "$out"
}
macro_of() { echo "LFB_$(echo "$1" | tr 'a-z' 'A-Z')"; } # 2mm -> LFB_2MM

# ------------------------------------------------------------------ prepare
prepare() {
  cd "$ROOT" || exit 1
  if [ -z "${LF_BIN:-}" ]; then
    cargo build -q -p lf-tools --bin lf-opt --bin lf-translate --bin lf-run || die "cargo build failed"
    LF_BIN=${CARGO_TARGET_DIR:-$ROOT/target}/debug
  fi
  local opt=$LF_BIN/lf-opt tr=$LF_BIN/lf-translate run=$LF_BIN/lf-run
  # FILE.mlir -> FILE.tr.mlir, what lf-translate reads (PRE_TRANSLATE, if set, first)
  pre_translate() {
    local f=$1 t=${1%.mlir}.tr.mlir
    if [ -n "${PRE_TRANSLATE:-}" ]; then
      "$opt" "$f" --pass-pipeline="$PRE_TRANSLATE" -o "$t" 2> "${f%.mlir}.pre-translate.log"
    else cp "$f" "$t"; fi
  }
  rm -rf "$PB" && mkdir -p "$PB"
  local status=0 w v p sizes d
  {
    echo "date (UTC): $(date -u '+%Y-%m-%d %H:%M:%S')"
    echo "lf commit: $(git rev-parse --short HEAD 2>/dev/null)$(git diff --quiet 2>/dev/null || echo ' (with uncommitted changes)')"
    echo "workloads: $WORKLOADS"
    echo "variants: $VARIANTS"
    for v in $VARIANTS; do
      echo "pipeline $v: $(pipeline_of "$v")"
      for w in $WORKLOADS; do
        [ "$(pipeline_of "$v" "$w")" = "$(pipeline_of "$v")" ] || echo "pipeline $v for $w: $(pipeline_of "$v" "$w")"
      done
    done
    [ -n "${PRE_TRANSLATE:-}" ] && echo "before lf-translate (every variant): $PRE_TRANSLATE"
    if [ "${CPU:-1}" != 0 ]; then
      echo "cpu: lf-translate --target=cuda of the source plus an empty @main (host code only), g++ -O3"
    else
      echo "cpu: none (CPU=0; the first variant is the reference)"
    fi
  } > "$PB/manifest.txt"
  for w in $WORKLOADS; do
    d=$PB/$w
    mkdir -p "$d"
    sizes=$(sizes_of "$w") || die "unknown workload $w"
    echo "$sizes" > "$d/sizes"
    echo "sizes $w: $sizes" >> "$PB/manifest.txt"
    # shellcheck disable=SC2086
    python3 examples/gen.py "$w" large $sizes > "$d/src.mlir" || die "gen.py $w"
    # the CPU version: the same source; lf-translate wants a @main for CPU-only code
    if [ "${CPU:-1}" != 0 ]; then
      { cat "$d/src.mlir"; printf 'func.func @main() {\n  return\n}\n'; } > "$d/cpu.mlir"
      if ! "$tr" "$d/cpu.mlir" --target=cuda -o "$d/cpu.cu" 2> "$d/cpu.translate.log"; then
        echo "FAIL $w cpu: lf-translate (see $d/cpu.translate.log)"; status=1
      fi
    fi
    cp "examples/run/expected/$w.out" "$d/small.expected"
    "$tr" "examples/run/$w.mlir" --target=cuda -o "$d/cpu.small.cu" 2> "$d/cpu.small.translate.log" ||
      { echo "FAIL $w cpu reduced size: lf-translate"; status=1; }
    for v in $VARIANTS; do
      p=$(pipeline_of "$v" "$w")
      [ -n "$p" ] || die "no pipeline for variant $v (set PIPELINE_$v)"
      # full size: pipeline, then CUDA
      if ! "$opt" "$d/src.mlir" --pass-pipeline="$p" -o "$d/$v.mlir" 2> "$d/$v.remarks" &&
         [ "${SKIP_FAILED:-0}" = 1 ] && [ "$v" != "${VARIANTS%% *}" ]; then
        # a pass that is not there yet, or fails: skip the variant, loudly
        local why
        why=$({ grep -m1 -E 'error' "$d/$v.remarks" || head -n1 "$d/$v.remarks"; } | cut -c1-200)
        echo "SKIP $w $v: the pipeline fails at prepare: ${why:-no message} (see $d/$v.remarks)"
        echo "${why:-no message}" > "$d/$v.skipped"
        rm -f "$d/$v.mlir" "$d/$v.cu"; continue
      fi
      if [ -s "$d/$v.mlir" ] && pre_translate "$d/$v.mlir" && "$tr" "$d/$v.tr.mlir" --target=cuda -o "$d/$v.cu" 2> "$d/$v.translate.log"; then
        local nk
        nk=$(grep -c '__global__' "$d/$v.cu")
        echo "ok   $w $v: $nk kernel(s), $(grep -c 'remark' "$d/$v.remarks") remark(s)"
        [ "$nk" -gt 0 ] || echo "     note: $w $v has no kernel (nothing was mapped)"
      else
        echo "FAIL $w $v: full-size pipeline or translation (see $d/$v.remarks, $d/$v.translate.log)"
        grep -q "'affine.if' is not supported" "$d/$v.translate.log" 2>/dev/null &&
          echo "     hint: lf-translate has no affine.if; PRE_TRANSLATE='builtin.module(lower-affine)' lowers it first"
        rm -f "$d/$v.cu"; status=1
      fi
      # reduced size: the driver of examples/run through the same pipeline,
      # checked by --verify-semantics and by lf-run against mlir-runner's output
      # (lf-run runs what lf-translate reads: after PRE_TRANSLATE, if set)
      if "$opt" "examples/run/$w.mlir" --pass-pipeline="$p" --verify-semantics -o "$d/$v.small.mlir" \
           2> "$d/$v.small.remarks" && pre_translate "$d/$v.small.mlir" &&
         "$run" "$d/$v.small.tr.mlir" > "$d/$v.small.lf-run" 2> "$d/$v.small.lf-run.err" &&
         cmp -s "$d/$v.small.lf-run" "$d/small.expected"; then
        echo "ok   $w $v reduced size: lf-run prints mlir-runner's output of the original"
      else
        echo "FAIL $w $v reduced size: lf-opt --verify-semantics, lf-run or the comparison failed (see $d/$v.small.*)"
        status=1
      fi
      if [ -s "$d/$v.small.tr.mlir" ]; then
        "$tr" "$d/$v.small.tr.mlir" --target=cuda -o "$d/$v.small.cu" 2> "$d/$v.small.translate.log" ||
          { echo "FAIL $w $v reduced size: lf-translate (see $d/$v.small.translate.log)"; status=1; }
      fi
    done
  done
  # the hand-written references, to run in the same GPU call (not part of the project)
  if [ -d "$ROOT/../shared/anchors-gpu" ]; then
    rm -rf "$REFS" && mkdir -p "$REFS"
    cp -r "$ROOT/../shared/anchors-gpu" "$REFS/anchors-gpu" && chmod -R u+w "$REFS"
    rm -rf "$REFS/anchors-gpu/bin" "$REFS/anchors-gpu/out"
    echo "ok   anchors copied to bench/gpu/.refs/anchors-gpu"
  else
    echo "note: ../shared/anchors-gpu not found: the run will have no anchors"
  fi
  local nskip
  nskip=$(find "$PB" -name '*.skipped' | wc -l)
  [ "$nskip" -gt 0 ] && echo "note: $nskip variant(s) skipped: their pipeline fails (SKIP lines above; the run logs them as SKIP)"
  echo "prepared $PB ($(du -sh "$PB" | cut -f1)); status $status"
  echo "on the GPU machine: bash bench/gpu/$SUITE.sh run   (carry bench/gpu/$(basename "$PB") and bench/gpu/.refs)"
  return $status
}

# ------------------------------------------------------------ build helpers
find_tool() { # name, fallbacks...
  local t
  for t in "$(command -v "$1" 2>/dev/null)" "${@:2}"; do
    [ -n "$t" ] && [ -x "$t" ] && { echo "$t"; return; }
  done
  echo ""
}
cuda_include() { # the folder of cuda_runtime.h next to nvcc
  local n=$1 d
  for d in "$(dirname "$n")/../include" "$(dirname "$n")/../targets/x86_64-linux/include" \
           /usr/local/cuda/include /usr/include; do
    [ -f "$d/cuda_runtime.h" ] && { (cd "$d" && pwd); return; }
  done
}

# build_one W VARIANT OUTDIR [reduced]: the harness binary for one variant
build_one() {
  local w=$1 v=$2 bd=$3 d=$PB/$1 sizes flags
  sizes=$(cat "$d/sizes")
  flags="-std=c++17 -I$HERE/harness -D$(macro_of "$w") $(dflags "$sizes")"
  if [ "$v" = cpu ]; then
    # shellcheck disable=SC2086
    $CXX -O3 -x c++ $flags -DLFB_CPU "-DLFB_SRC=\"$d/cpu.cu\"" ${CUDA_INC:+-I"$CUDA_INC"} -w \
      -o "$bd/$w.cpu" "$HERE/harness/harness.cu" -lm > "$bd/$w.cpu.build.log" 2>&1
  else
    # shellcheck disable=SC2086
    $NVCC -O3 -arch=sm_90 $flags "-DLFB_SRC=\"$d/$v.cu\"" -Xptxas -v \
      -o "$bd/$w.$v" "$HERE/harness/harness.cu" > "$bd/$w.$v.build.log" 2>&1
  fi
}

# anchor_progs (in the anchors' folder; OUT, NVCC, ANCHOR_PROGS set): only the
# anchor programs named in ANCHOR_PROGS, as run_all.sh runs each (its env.txt,
# log.txt and results.md), without the sanitizer runs
anchor_progs() {
  mkdir -p "$OUT"
  {
    echo "date (UTC): $(date -u '+%Y-%m-%d %H:%M:%S')"
    nvidia-smi --query-gpu=name,driver_version,memory.total,clocks.sm,clocks.max.sm,clocks.mem,clocks.max.mem,power.limit \
      --format=csv,noheader 2>&1 | sed 's/^/gpu: /'
    echo "nvcc: $($NVCC --version 2>&1 | grep -o 'release [0-9.]*, V[0-9.]*')"
    echo "flags: nvcc -O3 -arch=sm_90 -std=c++17 -lineinfo"
    echo "programs: $ANCHOR_PROGS (of run_all.sh's)"
  } > "$OUT/env.txt"
  local p rc t0
  # shellcheck disable=SC2046
  make -j8 NVCC="$NVCC" $(printf 'bin/%s ' $ANCHOR_PROGS) > "$OUT/build.log" 2>&1 ||
    { echo "BUILD FAILED"; grep -i error "$OUT/build.log" | head -20; }
  : > "$OUT/log.txt"
  for p in $ANCHOR_PROGS; do
    echo "== $p" >> "$OUT/log.txt"
    t0=$(date +%s)
    timeout 150 "./bin/$p" >> "$OUT/log.txt" 2>&1
    rc=$?
    echo "== $p rc=$rc ($(( $(date +%s) - t0 )) s)" | tee -a "$OUT/log.txt"
  done
  python3 report.py "$OUT/log.txt" "$OUT/env.txt" --csv="$OUT/results.csv" > "$OUT/results.md"
}

# ----------------------------------------------------------------------- run
run_gpu() {
  local T0; T0=$(date +%s)
  [ -d "$PB" ] || die "no bench/gpu/$(basename "$PB"): run '$SUITE.sh prepare' here first and carry bench/gpu/$(basename "$PB")"
  NVCC=${NVCC:-$(find_tool nvcc /usr/local/cuda/bin/nvcc)}
  [ -n "$NVCC" ] || die "nvcc not found"
  CXX=${CXX:-g++}
  CUDA_INC=${CUDA_INC:-$(cuda_include "$NVCC")}
  SANITIZER=$(find_tool compute-sanitizer /usr/local/cuda/bin/compute-sanitizer)
  OUT=${OUT:-$PB/out}
  mkdir -p "$OUT"
  local WORK=$PB/work LOG=$OUT/$SUITE.log ENVF=$OUT/env.txt
  rm -rf "$WORK" && mkdir -p "$WORK/bin" "$WORK/data"
  RUNS=${RUNS:-25}
  KRUNS=${KRUNS:-3}
  CPU_RUNS=${CPU_RUNS:-5}
  export LFB_CPU_BUDGET_S=${LFB_CPU_BUDGET_S:-8}
  local workloads variants base w v tool
  workloads=$(ls -d "$PB"/*/ | xargs -n1 basename | grep -vx 'work\|out\|check' | tr '\n' ' ')
  # keep the prepared order (the manifest's), then the suite's
  local ordered=""
  for w in $(sed -n 's/^workloads: //p' "$PB/manifest.txt") $DEFAULT_WORKLOADS; do
    case " $workloads " in *" $w "*) case " $ordered " in *" $w "*) ;; *) ordered="$ordered $w";; esac;; esac
  done
  for w in $workloads; do case " $ordered " in *" $w "*) ;; *) ordered="$ordered $w";; esac; done
  variants=$(sed -n 's/^variants: //p' "$PB/manifest.txt")
  base=${variants%% *}
  {
    echo "date (UTC): $(date -u '+%Y-%m-%d %H:%M:%S')"
    nvidia-smi --query-gpu=name,driver_version,memory.total,clocks.sm,clocks.max.sm --format=csv,noheader 2>&1 | sed 's/^/gpu: /'
    echo "nvcc: $($NVCC --version 2>&1 | grep -o 'release [0-9.]*, V[0-9.]*')"
    echo "g++: $($CXX --version 2>&1 | head -n 1)"
    echo "cpu: $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ //'), $(nproc) cores (the CPU baseline uses one)"
    echo "flags: GPU nvcc -O3 -arch=sm_90; CPU g++ -O3 (one thread); reduced-size programs nvcc -O3 -arch=sm_90 --fmad=false"
    echo "timing: CUDA events around the emitted host function (device allocation, copies, launches), $RUNS calls after a warm-up, median; kernels and copies: $KRUNS instrumented calls, median; CPU: std::chrono, up to $CPU_RUNS calls or ${LFB_CPU_BUDGET_S} s"
    cat "$PB/manifest.txt"
  } > "$ENVF"
  cat "$ENVF"
  : > "$LOG"

  echo "== build (parallel)"
  local jobs=() bd=$WORK/bin
  for w in $ordered; do
    for v in cpu $variants; do
      [ "$v" = cpu ] && [ ! -f "$PB/$w/cpu.cu" ] && continue
      [ "$v" = cpu ] || [ -f "$PB/$w/$v.cu" ] || continue
      echo "$w $v"
    done
  done > "$WORK/builds.txt"
  export -f build_one macro_of dflags
  export PB HERE NVCC CXX CUDA_INC
  xargs -P "$(nproc)" -L 1 bash -c 'build_one "$0" "$1" '"$bd"' || echo "BUILD FAILED: $0 $1"' < "$WORK/builds.txt" | tee -a "$LOG"
  # the reduced-size programs (complete programs that print, as mlir-runner does)
  for w in $ordered; do
    for v in $variants; do
      [ -f "$PB/$w/$v.small.cu" ] && echo "$PB/$w/$v.small.cu $bd/$w.$v.small"
    done
  done | xargs -P "$(nproc)" -L 1 bash -c '"'"$NVCC"'" -O3 -arch=sm_90 --fmad=false -o "$1" "$0" > "$1.build.log" 2>&1 || echo "BUILD FAILED: $0"' | tee -a "$LOG"
  echo "built in $(( $(date +%s) - T0 )) s"

  local i=0 n; n=$(echo $ordered | wc -w)
  for w in $ordered; do
    i=$((i + 1))
    local dd=$WORK/data line prog refs=""
    # CPU, then each variant; each later one is checked against the earlier ones
    if [ -x "$bd/$w.cpu" ]; then
      timeout 300 "$bd/$w.cpu" cpu "$dd/$w.cpu.bin" --runs="$CPU_RUNS" >> "$LOG" 2>&1 || echo "RUNFAIL|$w|cpu" >> "$LOG"
      refs="--ref=cpu:$dd/$w.cpu.bin"
    fi
    for v in $variants; do
      if [ -f "$PB/$w/$v.skipped" ]; then
        echo "SKIP|$w|$v|the pipeline fails at prepare: $(head -n1 "$PB/$w/$v.skipped" | tr '|' '/')" >> "$LOG"
        continue
      elif [ -x "$bd/$w.$v" ]; then
        timeout 300 "$bd/$w.$v" "$v" "$dd/$w.$v.bin" --runs="$RUNS" --kruns="$KRUNS" $refs >> "$LOG" 2>&1 || echo "RUNFAIL|$w|$v" >> "$LOG"
        [ "$v" = "$base" ] && refs="$refs --ref=$v:$dd/$w.$v.bin"
      else
        echo "NOBUILD|$w|$v" >> "$LOG"
      fi
      # reduced size: the emitted program prints what mlir-runner printed for the original
      prog=$bd/$w.$v.small
      if [ -x "$prog" ]; then
        if timeout 60 "$prog" 2>&1 | sed 's/base@ = 0x[0-9a-f]*/base@ = 0x0/' | cmp -s - "$PB/$w/small.expected"; then
          line="SMALL|$w|$v|same"
        else
          line="SMALL|$w|$v|DIFFERENT"
        fi
        if [ "${SAN:-1}" != 0 ] && [ -n "$SANITIZER" ] && case " ${SAN_VARIANTS:-$v} " in *" $v "*) true;; *) false;; esac; then
          local s
          for tool in ${SAN_TOOLS:-memcheck}; do
            # racecheck as run.sh runs it: every hazard reported (errors and warnings)
            s=$(timeout 120 "$SANITIZER" --tool "$tool" $([ "$tool" = racecheck ] && echo --racecheck-report all) \
                  --error-exitcode 1 "$prog" 2>&1 | grep -o '[A-Z]* SUMMARY.*' | head -n 1)
            line="$line|$tool: ${s:-no summary}"
          done
        fi
        echo "$line" >> "$LOG"
      fi
    done
    # the progress line
    echo "[$i/$n] $w: $(grep -E "^(PB|RUNFAIL|NOBUILD|SMALL|SKIP)\|$w\|" "$LOG" | awk -F'|' '
      $1=="PB" {printf "%s %.3f ms %s (%s); ", $3, $4, $12, $11}
      $1=="SMALL" {printf "%s reduced %s; ", $3, $4}
      $1=="SKIP" {printf "%s skipped; ", $3}
      $1!="PB" && $1!="SMALL" && $1!="SKIP" {printf "%s %s; ", $3, $1}') ($(( $(date +%s) - T0 )) s)"
  done

  # the report without the anchors first: the call's time limit may cut them short
  local rep=(python3 "$HERE/${SUITE}_report.py" "$LOG" --env="$ENVF" --png="$OUT/$SUITE.png")
  MPLBACKEND=Agg "${rep[@]}" > "$OUT/$SUITE.md" 2> "$WORK/report.err" || cat "$WORK/report.err"

  if [ "${ANCHORS:-1}" != 0 ] && [ -d "$REFS/anchors-gpu" ]; then
    # the whole call must end within the device tool's 600 s (DEADLINE_S)
    local left=$(( ${DEADLINE_S:-570} - ($(date +%s) - T0) ))
    [ "$left" -lt 60 ] && left=60
    echo "== anchors (hand-written references and ceilings, ../shared/anchors-gpu${ANCHOR_PROGS:+: $ANCHOR_PROGS}; at most $left s)"
    rm -rf "$WORK/anchors"
    if [ -n "${ANCHOR_PROGS:-}" ]; then
      (cd "$REFS/anchors-gpu" && OUT="$WORK/anchors" NVCC="$NVCC" ANCHOR_PROGS="$ANCHOR_PROGS" timeout "$left" bash -c "$(declare -f anchor_progs); anchor_progs") > "$WORK/anchors.txt" 2>&1
    else
      (cd "$REFS/anchors-gpu" && SKIP_SAN=1 OUT="$WORK/anchors" NVCC="$NVCC" timeout "$left" bash run_all.sh) > "$WORK/anchors.txt" 2>&1
    fi
    echo "anchors: rc=$? ($(( $(date +%s) - T0 )) s)"
    grep -E "^== .* rc=|FAILED|failed" "$WORK/anchors.txt" | head -20
    # cut short: the table of what ran
    if [ ! -s "$WORK/anchors/results.md" ] && [ -s "$WORK/anchors/log.txt" ]; then
      (cd "$REFS/anchors-gpu" && python3 report.py "$WORK/anchors/log.txt" "$WORK/anchors/env.txt" \
        --csv="$WORK/anchors/results.csv" > "$WORK/anchors/results.md" 2>/dev/null)
    fi
    cp "$WORK/anchors/results.md" "$OUT/anchors.md" 2>/dev/null
    cp "$WORK/anchors/log.txt" "$OUT/anchors-log.txt" 2>/dev/null
  else
    echo "== anchors skipped"
  fi

  [ -f "$OUT/anchors.md" ] && rep+=(--anchors="$OUT/anchors.md")
  MPLBACKEND=Agg "${rep[@]}" > "$OUT/$SUITE.md" 2> "$WORK/report.err" || cat "$WORK/report.err"
  cat "$OUT/$SUITE.md"
  echo "== total $(( $(date +%s) - T0 )) s; files in $OUT: $(ls "$OUT" | tr '\n' ' ')"
  if grep -qE '^(RUNFAIL|NOBUILD|BUILD FAILED)|\|FAIL$|^SMALL\|.*\|DIFFERENT' "$LOG"; then return 1; fi
  return 0
}

# ------------------------------------------------------------ build-check
# Here, without a GPU: every harness compiles (nvcc from pip, if found; g++
# for the CPU version), the CPU harness runs at full size (fills, checks for
# unwritten outputs, dumps, times), and the CPU-only translation of each
# reduced-size driver (examples/run/W.mlir), built with g++ -O3, prints what
# mlir-runner printed for it.
build_check() {
  [ -d "$PB" ] || die "run prepare first"
  NVCC=${NVCC:-$(find_tool nvcc /usr/local/cuda/bin/nvcc \
    "$(python3 -c 'import nvidia,os;print(os.path.join(nvidia.__path__[0],"cu13/bin/nvcc"))' 2>/dev/null)")}
  CXX=${CXX:-g++}
  CUDA_INC=${CUDA_INC:-$( [ -n "$NVCC" ] && cuda_include "$NVCC")}
  local bd=${TMPDIR:-/tmp}/$SUITE-check status=0 w v
  rm -rf "$bd" && mkdir -p "$bd"
  for w in $(ls -d "$PB"/*/ | xargs -n1 basename | grep -vx 'work\|out\|check'); do
    if [ ! -f "$PB/$w/cpu.cu" ]; then
      echo "note $w cpu: no CPU version (CPU=0 at prepare)"
    elif build_one "$w" cpu "$bd"; then
      echo "ok   $w cpu: g++ -O3 builds the harness"
      if "$bd/$w.cpu" cpu "$bd/$w.cpu.bin" --runs=1 > "$bd/$w.cpu.run.log" 2>&1; then
        echo "ok   $w cpu: $(cat "$bd/$w.cpu.run.log")"
      else echo "FAIL $w cpu: the harness run: $(cat "$bd/$w.cpu.run.log")"; status=1; fi
    else echo "FAIL $w cpu: g++"; tail -5 "$bd/$w.cpu.build.log"; status=1; fi
    # shellcheck disable=SC2086
    if $CXX -O3 -x c++ -w ${CUDA_INC:+-I"$CUDA_INC"} -include "$HERE/harness/cpu_stub.h" \
         -o "$bd/$w.cpu.small" "$PB/$w/cpu.small.cu" -lm \
         > "$bd/$w.cpu.small.build.log" 2>&1 &&
       "$bd/$w.cpu.small" | sed 's/base@ = 0x[0-9a-f]*/base@ = 0x0/' | cmp -s - "$PB/$w/small.expected"; then
      echo "ok   $w cpu reduced size: the g++ build prints mlir-runner's output"
    else echo "FAIL $w cpu reduced size (see $bd/$w.cpu.small.build.log)"; status=1; fi
    if [ -n "$NVCC" ]; then
      for v in $(sed -n 's/^variants: //p' "$PB/manifest.txt"); do
        [ -f "$PB/$w/$v.cu" ] || continue
        if build_one "$w" "$v" "$bd"; then echo "ok   $w $v: nvcc -arch=sm_90 builds the harness"
        else echo "FAIL $w $v: nvcc"; grep -m5 error "$bd/$w.$v.build.log"; status=1; fi
        [ -f "$PB/$w/$v.small.cu" ] || continue
        if $NVCC -O3 -arch=sm_90 --fmad=false -o "$bd/$w.$v.small" "$PB/$w/$v.small.cu" > "$bd/$w.$v.small.build.log" 2>&1; then
          echo "ok   $w $v reduced size: nvcc -arch=sm_90 builds the program"
        else echo "FAIL $w $v reduced size: nvcc"; grep -m5 error "$bd/$w.$v.small.build.log"; status=1; fi
      done
    fi
  done
  [ -n "$NVCC" ] || echo "note: no nvcc: only the CPU harnesses were built"
  return $status
}

# ------------------------------------------------------------------ record
record() {
  local dir=${1:-}
  [ -n "$dir" ] && [ -f "$dir/$SUITE.md" ] || die "usage: $SUITE.sh record DIR (DIR holds $SUITE.md)"
  [ -f "$dir/$SUITE.png" ] && cp "$dir/$SUITE.png" "$HERE/$SUITE.png"
  python3 - "$HERE/RESULTS.md" "$dir/$SUITE.md" "$SUITE" <<'EOF'
import sys
path, new = sys.argv[1], open(sys.argv[2]).read().rstrip("\n")
begin, end = "<!-- %s:begin -->" % sys.argv[3], "<!-- %s:end -->" % sys.argv[3]
text = open(path).read()
block = begin + "\n" + new + "\n" + end
if begin in text and end in text:
    text = text[:text.index(begin)] + block + text[text.index(end) + len(end):]
else:
    text = text.rstrip("\n") + "\n\n" + block + "\n"
open(path, "w").write(text)
EOF
  echo "recorded into bench/gpu/RESULTS.md (and bench/gpu/$SUITE.png, if the run made one)"
}

case "${1:-}" in
  prepare) prepare ;;
  run) run_gpu ;;
  build-check) build_check ;;
  record) shift; record "$@" ;;
  *) sed -n '2,/^set -u/p' "$HERE/polybench.sh" | sed '$d'; exit 2 ;;
esac
