#!/usr/bin/env bash
# Compile-speed benchmark: lf-opt against mlir-opt on generated affine programs.
# See bench/README.md. Usage:
#   bash bench/throughput.sh [--sizes 10k,100k,1m] [--forms custom,generic]
#        [--workloads roundtrip,canon,parallel,startup] [--runs N] [--runs-large N] [--runs-startup N]
#        [--quick] [--mlir-only] [--seed S] [--timeout SECONDS] [--keep] [--out FILE]
# Environment: MLIR_OPT (default mlir-opt-22), LF_OPT (default target/release/lf-opt).
set -uo pipefail
export LC_ALL=C

ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
BENCH=$ROOT/bench
GEN=$BENCH/generated
OUTD=$BENCH/out
MLIR_OPT=${MLIR_OPT:-mlir-opt-22}
LF_OPT=${LF_OPT:-$ROOT/target/release/lf-opt}
PIPELINE='builtin.module(func.func(canonicalize,cse))'

SIZES=10k,100k,1m
FORMS=custom,generic
WORKLOADS=roundtrip,canon,parallel,startup
RUNS=5
RUNS_LARGE=3        # sizes above 100k ops
RUNS_STARTUP=20
SEED=1
TIMEOUT=600
KEEP=0
MLIR_ONLY=0
RESULTS=$BENCH/RESULTS.md
sizes_given=0
ARGS="$*"

usage() { sed -n '2,8p' "${BASH_SOURCE[0]}" | sed 's/^# \{0,1\}//'; exit "${1:-0}"; }
while [ $# -gt 0 ]; do
  case $1 in
    --sizes) SIZES=$2; sizes_given=1; shift ;;
    --forms) FORMS=$2; shift ;;
    --workloads) WORKLOADS=$2; shift ;;
    --runs) RUNS=$2; shift ;;
    --runs-large) RUNS_LARGE=$2; shift ;;
    --runs-startup) RUNS_STARTUP=$2; shift ;;
    --quick) QUICK=1 ;;
    --mlir-only) MLIR_ONLY=1 ;;
    --seed) SEED=$2; shift ;;
    --timeout) TIMEOUT=$2; shift ;;
    --keep) KEEP=1 ;;
    --out) RESULTS=$2; shift ;;
    -h|--help) usage 0 ;;
    *) echo "unknown argument: $1" >&2; usage 2 >&2 ;;
  esac
  shift
done
if [ "${QUICK:-0}" = 1 ]; then
  [ $sizes_given = 1 ] || SIZES=10k,100k
  RUNS=3; RUNS_LARGE=1; RUNS_STARTUP=10
fi

die() { echo "throughput.sh: $*" >&2; exit 1; }
log() { echo "[$(date +%H:%M:%S)] $*" >&2; }

# ----- tools ----------------------------------------------------------------------------------
[ -x /usr/bin/time ] || die "GNU time is missing (/usr/bin/time): install it with 'apt-get install -y time'"
command -v "$MLIR_OPT" >/dev/null || die "$MLIR_OPT not found (Debian package mlir-22-tools)"
command -v python3 >/dev/null || die "python3 not found"
HAVE_LF=0
LF_NOTE=""
if [ $MLIR_ONLY = 1 ]; then
  LF_NOTE="not run (--mlir-only)"
elif [ -x "$LF_OPT" ]; then
  HAVE_LF=1
else
  LF_NOTE="not built ($LF_OPT missing)"
  log "lf-opt: $LF_NOTE; measuring mlir-opt alone"
fi
LF_PIPELINE=0
if [ $HAVE_LF = 1 ]; then
  if "$LF_OPT" --help 2>&1 | grep -q -- 'pass-pipeline'; then LF_PIPELINE=1; fi
fi

mkdir -p "$GEN" "$OUTD"
TMPD=$(mktemp -d)
trap 'rm -rf "$TMPD"' EXIT
RAW=$OUTD/throughput-raw.tsv
printf 'workload\tsize\tform\ttool\trun\twall_us\tpeak_kb\trc\n' > "$RAW"

# ----- helpers --------------------------------------------------------------------------------
size_ops() {  # 10k -> 10000, 1m -> 1000000
  local s=${1,,}
  case $s in
    *k) echo $(( ${s%k} * 1000 )) ;;
    *m) echo $(( ${s%m} * 1000000 )) ;;
    *) echo "$s" ;;
  esac
}
median() { printf '%s\n' "$@" | sort -g | awk '{a[NR]=$1} END{if (NR%2) print a[(NR+1)/2]; else print (a[NR/2]+a[NR/2+1])/2}'; }
maxof() { printf '%s\n' "$@" | sort -g | tail -1; }
minof() { printf '%s\n' "$@" | sort -g | head -1; }
meta() { python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))[sys.argv[2]])' "$1.meta" "$2"; }
fmt() { awk -v x="$1" -v f="$2" 'BEGIN{printf f, x}'; }

# run_one LABEL... -- CMD...: one timed run; sets WALL_US, PEAK_KB, RC; stderr kept in $TMPD/err
run_one() {
  local tf=$TMPD/time t0 t1
  : > "$tf"
  t0=${EPOCHREALTIME/./}
  RC=0
  timeout "$TIMEOUT" /usr/bin/time -f '%e %M' -o "$tf" "$@" >/dev/null 2>"$TMPD/err" || RC=$?
  t1=${EPOCHREALTIME/./}
  WALL_US=$((t1 - t0))
  PEAK_KB=$(awk 'NF==2 && $2 ~ /^[0-9]+$/ {m=$2} END{print m+0}' "$tf")
}
first_err() { grep -m1 -v '^\s*$' "$TMPD/err" | cut -c1-160 | sed 's/|/\\|/g'; }

# ----- machine --------------------------------------------------------------------------------
CPU=$(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2- | sed 's/^ *//')
NPROC=$(nproc)
MEM=$(awk '/MemTotal/{printf "%.1f GiB", $2/1048576}' /proc/meminfo)
LOAD0=$(cut -d' ' -f1-3 /proc/loadavg)
MLIR_VER=$("$MLIR_OPT" --version 2>&1 | grep -m1 -i version | sed 's/^ *//')
if [ $HAVE_LF = 1 ]; then
  LF_VER=$("$LF_OPT" --version 2>/dev/null | head -1)
  [ -n "$LF_VER" ] || LF_VER="(no --version)"
  LF_VER="$LF_VER, $(cd "$ROOT" && git rev-parse --short HEAD 2>/dev/null)$(cd "$ROOT" && git diff --quiet HEAD -- 2>/dev/null || echo '+dirty'), built $(date -r "$LF_OPT" '+%F %T')"
else
  LF_VER=$LF_NOTE
fi

# ----- inputs ---------------------------------------------------------------------------------
IFS=, read -ra SIZE_LIST <<< "$SIZES"
IFS=, read -ra FORM_LIST <<< "$FORMS"
IFS=, read -ra WL_LIST <<< "$WORKLOADS"
has_wl() { [[ ",$WORKLOADS," == *",$1,"* ]]; }

declare -A INPUT OPS BYTES
INPUT_ROWS=()
for size in "${SIZE_LIST[@]}"; do
  size=${size,,}
  n=$(size_ops "$size")
  c=$GEN/affine-$size.custom.mlir
  g=$GEN/affine-$size.generic.mlir
  log "input $size: generating (cached when up to date)"
  python3 "$BENCH/gen_affine.py" --ops "$n" --seed "$SEED" --form custom -o "$c" || die "generator failed"
  python3 "$BENCH/gen_affine.py" --ops "$n" --seed "$SEED" --form generic --from "$c" -o "$g" || die "generic conversion failed"
  for form in "${FORM_LIST[@]}"; do
    f=$GEN/affine-$size.$form.mlir
    INPUT[$size.$form]=$f
    OPS[$size.$form]=$(meta "$g" count)   # the same program: the generic file's count is exact
    BYTES[$size.$form]=$(stat -c %s "$f")
    INPUT_ROWS+=("| $size | $form | \`bench/generated/$(basename "$f")\` | ${OPS[$size.$form]} | $(awk -v b="${BYTES[$size.$form]}" 'BEGIN{printf "%.1f", b/1e6}') | $(awk -v b="${BYTES[$size.$form]}" -v o="${OPS[$size.$form]}" 'BEGIN{printf "%.0f", b/o}') |")
  done
done

# ----- throughput workloads -------------------------------------------------------------------
declare -A ROWS
bench_config() {  # workload size form
  local wl=$1 size=$2 form=$3
  local in=${INPUT[$size.$form]} ops=${OPS[$size.$form]} bytes=${BYTES[$size.$form]}
  local n=$RUNS; [ "$(size_ops "$size")" -gt 100000 ] && n=$RUNS_LARGE
  local mout=$OUTD/$wl-$size-$form.mlir-opt.mlir lout=$OUTD/$wl-$size-$form.lf-opt.mlir
  local margs=("$in" -o "$mout") largs=("$in" -o "$lout")
  [ "$form" = generic ] && { margs+=(--mlir-print-op-generic); largs+=(--print-op-generic); }
  if [ "$wl" = canon ]; then margs+=("--pass-pipeline=$PIPELINE"); largs+=("--pass-pipeline=$PIPELINE"); fi
  local notes=() lf=$HAVE_LF
  if [ $lf = 1 ] && [ "$wl" = canon ] && [ $LF_PIPELINE = 0 ]; then lf=0; notes+=("lf-opt: n/a (no --pass-pipeline in --help)"); fi

  log "$wl $size $form: warm-up ($n timed runs follow)"
  run_one "$MLIR_OPT" "${margs[@]}"
  if [ $RC != 0 ]; then
    notes+=("mlir-opt failed (rc $RC): $(first_err)")
    ROWS[$wl]+="| $size | $form | $ops | FAIL |$(printf ' |%.0s' {1..11}) ${notes[*]} |"$'\n'
    return
  fi
  if [ $lf = 1 ]; then
    run_one "$LF_OPT" "${largs[@]}"
    if [ $RC != 0 ] && [ "$form" = generic ]; then
      local e1; e1=$(first_err)
      largs+=(--allow-unregistered-dialect)
      run_one "$LF_OPT" "${largs[@]}"
      if [ $RC = 0 ]; then notes+=("lf-opt needed --allow-unregistered-dialect (without: $e1)"); fi
    fi
    if [ $RC != 0 ]; then
      [ $RC = 124 ] && notes+=("lf-opt timed out after ${TIMEOUT}s") || notes+=("lf-opt failed (rc $RC): $(first_err)")
      lf=0
    fi
  fi

  local mw=() mp=() lw=() lp=() r
  for ((r = 1; r <= n; r++)); do
    local order=(m l); (( r % 2 == 0 )) && order=(l m)
    for t in "${order[@]}"; do
      if [ "$t" = m ]; then
        run_one "$MLIR_OPT" "${margs[@]}"; mw+=("$WALL_US"); mp+=("$PEAK_KB")
        printf '%s\t%s\t%s\tmlir-opt\t%d\t%d\t%d\t%d\n' "$wl" "$size" "$form" "$r" "$WALL_US" "$PEAK_KB" "$RC" >> "$RAW"
        [ $RC = 0 ] || notes+=("mlir-opt run $r failed (rc $RC)")
      elif [ $lf = 1 ]; then
        run_one "$LF_OPT" "${largs[@]}"; lw+=("$WALL_US"); lp+=("$PEAK_KB")
        printf '%s\t%s\t%s\tlf-opt\t%d\t%d\t%d\t%d\n' "$wl" "$size" "$form" "$r" "$WALL_US" "$PEAK_KB" "$RC" >> "$RAW"
        [ $RC = 0 ] || notes+=("lf-opt run $r failed (rc $RC)")
      fi
    done
  done

  local m_s m_pk m_ops m_mbs row
  m_s=$(median "${mw[@]}" | awk '{printf "%.4f", $1/1e6}')
  m_pk=$(maxof "${mp[@]}" | awk '{printf "%.1f", $1/1024}')
  m_ops=$(awk -v o="$ops" -v s="$m_s" 'BEGIN{printf "%.0f", o/s}')
  m_mbs=$(awk -v b="$bytes" -v s="$m_s" 'BEGIN{printf "%.2f", b/1e6/s}')
  row="| $size | $form | $ops | $(fmt "$m_s" '%.3f') | $m_ops | $m_mbs | $m_pk |"
  if [ $lf = 1 ]; then
    local l_s l_pk l_ops l_mbs sr mr valid goals
    l_s=$(median "${lw[@]}" | awk '{printf "%.4f", $1/1e6}')
    l_pk=$(maxof "${lp[@]}" | awk '{printf "%.1f", $1/1024}')
    l_ops=$(awk -v o="$ops" -v s="$l_s" 'BEGIN{printf "%.0f", o/s}')
    l_mbs=$(awk -v b="$bytes" -v s="$l_s" 'BEGIN{printf "%.2f", b/1e6/s}')
    sr=$(awk -v a="$m_s" -v b="$l_s" 'BEGIN{printf "%.2f", a/b}')
    mr=$(awk -v a="$l_pk" -v b="$m_pk" 'BEGIN{printf "%.2f", a/b}')
    # is lf-opt's output accepted by mlir-opt, and does mlir-opt then print what it printed itself?
    local norm=$OUTD/$wl-$size-$form.lf-opt.reprinted.mlir nargs=()
    [ "$form" = generic ] && nargs=(--mlir-print-op-generic)
    log "$wl $size $form: checking lf-opt's output with mlir-opt"
    if timeout "$TIMEOUT" "$MLIR_OPT" "$lout" -o "$norm" "${nargs[@]}" 2>"$TMPD/err"; then
      # mlir-opt's own output is not always a fixed point of print(parse(.)) (after canonicalize
      # it prints affine terms like `(x floordiv 8) * -8` that its parser re-simplifies), so on
      # a mismatch compare against mlir-opt's output re-printed by mlir-opt as well
      if cmp -s "$norm" "$mout"; then valid="yes (= mlir-opt)"
      elif "$MLIR_OPT" "$mout" -o "$mout.reprinted" "${nargs[@]}" 2>/dev/null && cmp -s "$norm" "$mout.reprinted"; then
        valid="yes (= mlir-opt)"
      else
        valid="yes (differs from mlir-opt)"
        diff "$mout.reprinted" "$norm" | head -40 > "$OUTD/$wl-$size-$form.diff"
        notes+=("first differences: bench/out/$wl-$size-$form.diff")
      fi
    else
      valid="**NO**"; notes+=("mlir-opt rejects lf-opt's output: $(first_err)")
    fi
    goals=$(awk -v s="$sr" -v m="$mr" 'BEGIN{printf "%s %s", (s>=5?"speed ok":"speed <5x"), (m<=0.5?"mem ok":"mem >0.5x")}')
    row+=" $(fmt "$l_s" '%.3f') | $l_ops | $l_mbs | $l_pk | $sr | $mr | $valid | $goals |"
  else
    row+=" — | — | — | — | — | — | — | — |"
  fi
  row+=" ${notes[*]:-} |"
  ROWS[$wl]+="$row"$'\n'
  echo "$row" >&2
  if [ $KEEP = 0 ]; then rm -f "$mout" "$mout.reprinted" "$lout" "$OUTD/$wl-$size-$form.lf-opt.reprinted.mlir"; fi
}

for size in "${SIZE_LIST[@]}"; do
  size=${size,,}
  for wl in roundtrip canon; do
    has_wl $wl || continue
    for form in "${FORM_LIST[@]}"; do
      bench_config "$wl" "$size" "$form"
    done
  done
done

# ----- function-parallel pipeline: lf-opt --threads=1 against --threads=2 --------------------
PARALLEL_TABLE=""
if has_wl parallel && [ $HAVE_LF = 1 ]; then
  psize=${SIZE_LIST[-1],,}
  pin=${INPUT[$psize.custom]:-${INPUT[$psize.generic]}}
  pops=${OPS[$psize.custom]:-${OPS[$psize.generic]}}
  n=$RUNS; [ "$(size_ops "$psize")" -gt 100000 ] && n=$RUNS_LARGE
  log "parallel $psize: lf-opt --threads=1 and --threads=2, $n runs each"
  pargs=("$pin" -o "$OUTD/parallel.lf-opt.mlir" "--pass-pipeline=$PIPELINE")
  run_one "$LF_OPT" "${pargs[@]}" --threads=1
  if [ $RC = 0 ]; then
    t1w=() t2w=()
    for ((r = 1; r <= n; r++)); do
      order=(1 2); (( r % 2 == 0 )) && order=(2 1)
      for t in "${order[@]}"; do
        run_one "$LF_OPT" "${pargs[@]}" --threads=$t
        [ "$t" = 1 ] && t1w+=("$WALL_US") || t2w+=("$WALL_US")
        printf 'parallel	%s	custom	lf-opt-t%s	%d	%d	%d	%d
' "$psize" "$t" "$r" "$WALL_US" "$PEAK_KB" "$RC" >> "$RAW"
      done
    done
    s1=$(median "${t1w[@]}" | awk '{printf "%.3f", $1/1e6}')
    s2=$(median "${t2w[@]}" | awk '{printf "%.3f", $1/1e6}')
    pr=$(awk -v a="$s1" -v b="$s2" 'BEGIN{printf "%.2f", a/b}')
    pg=$(awk -v r="$pr" 'BEGIN{print (r >= 1.7 ? "ok" : "missed")}')
    PARALLEL_TABLE="| size | ops | --threads=1 s | --threads=2 s | speed-up | goal (>= 1.7x) |
| --- | ---: | ---: | ---: | ---: | --- |
| $psize | $pops | $s1 | $s2 | $pr | $pg |"
  else
    PARALLEL_TABLE="lf-opt failed (rc $RC): $(first_err)"
  fi
  echo "$PARALLEL_TABLE" >&2
  rm -f "$OUTD/parallel.lf-opt.mlir"
fi

# ----- start-up -------------------------------------------------------------------------------
STARTUP_TABLE=""
if has_wl startup; then
  empty=$GEN/empty.mlir
  echo 'module {}' > "$empty"
  log "startup: $RUNS_STARTUP runs each"
  bw=() mw=() mp=() lw=() lp=() snote=""
  lf=$HAVE_LF
  if [ $lf = 1 ]; then
    run_one "$LF_OPT" "$empty" -o "$OUTD/empty.lf-opt.mlir"
    [ $RC = 0 ] || { lf=0; snote="lf-opt failed on an empty module (rc $RC): $(first_err)"; }
  fi
  run_one "$MLIR_OPT" "$empty" -o "$OUTD/empty.mlir-opt.mlir"
  for ((r = 1; r <= RUNS_STARTUP; r++)); do
    run_one /bin/true; bw+=("$WALL_US")
    run_one "$MLIR_OPT" "$empty" -o "$OUTD/empty.mlir-opt.mlir"; mw+=("$WALL_US"); mp+=("$PEAK_KB")
    printf 'startup\t-\tcustom\tmlir-opt\t%d\t%d\t%d\t%d\n' "$r" "$WALL_US" "$PEAK_KB" "$RC" >> "$RAW"
    if [ $lf = 1 ]; then
      run_one "$LF_OPT" "$empty" -o "$OUTD/empty.lf-opt.mlir"; lw+=("$WALL_US"); lp+=("$PEAK_KB")
      printf 'startup\t-\tcustom\tlf-opt\t%d\t%d\t%d\t%d\n' "$r" "$WALL_US" "$PEAK_KB" "$RC" >> "$RAW"
    fi
  done
  ms() { awk -v u="$1" 'BEGIN{printf "%.2f", u/1000}'; }
  b_med=$(median "${bw[@]}"); m_med=$(median "${mw[@]}"); m_min=$(minof "${mw[@]}")
  m_pk=$(maxof "${mp[@]}" | awk '{printf "%.1f", $1/1024}')
  if [ $lf = 1 ]; then
    l_med=$(median "${lw[@]}"); l_min=$(minof "${lw[@]}")
    l_pk=$(maxof "${lp[@]}" | awk '{printf "%.1f", $1/1024}')
    sr=$(awk -v a="$m_med" -v b="$l_med" 'BEGIN{printf "%.2f", a/b}')
    mr=$(awk -v a="$l_pk" -v b="$m_pk" 'BEGIN{printf "%.2f", a/b}')
    goal=$(awk -v l="$l_med" -v b="$b_med" 'BEGIN{n=(l-b)/1000; printf "%s: %.2f ms net of the floor", (n < 10 ? "ok" : "missed"), n}')
    lcols="$(ms "$l_med") | $(ms "$l_min") | $l_pk | $sr | $mr | $goal"
  else
    lcols="— | — | — | — | — | ${snote:-lf-opt $LF_NOTE}"
  fi
  STARTUP_TABLE="| runs | floor ms (\`timeout time true\`) | mlir-opt median ms | mlir-opt min ms | mlir-opt peak MB | lf-opt median ms | lf-opt min ms | lf-opt peak MB | speed ratio | memory ratio | goal |
| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |
| $RUNS_STARTUP | $(ms "$b_med") | $(ms "$m_med") | $(ms "$m_min") | $m_pk | $lcols |"
  echo "$STARTUP_TABLE" >&2
  [ $KEEP = 1 ] || rm -f "$OUTD/empty.mlir-opt.mlir" "$OUTD/empty.lf-opt.mlir"
fi

# ----- RESULTS.md -----------------------------------------------------------------------------
LOAD1=$(cut -d' ' -f1-3 /proc/loadavg)
HDR="| size | form | ops | mlir-opt s | mlir-opt ops/s | mlir-opt MB/s | mlir-opt peak MB | lf-opt s | lf-opt ops/s | lf-opt MB/s | lf-opt peak MB | speed ratio | memory ratio | lf output valid | goals | notes |
| --- | --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | --- | --- | --- |"
{
  echo "# Compile-speed results: lf-opt vs mlir-opt"
  echo
  echo "Written by \`bash bench/throughput.sh${ARGS:+ $ARGS}\` on $(date '+%F %T %Z'). How to read it: bench/README.md."
  echo
  echo "- Machine: $NPROC cores (\`nproc\`), $CPU, $MEM; load average $LOAD0 at the start, $LOAD1 at the end (shared machine: compare the ratios, not the absolute times)."
  echo "- mlir-opt: \`$MLIR_OPT\`, $MLIR_VER. lf-opt: $LF_VER."
  echo "- Each time is the median of $RUNS runs ($RUNS_LARGE above 100k ops) after one warm-up run, the two tools alternated (ABBA); peak MB is the largest maximum RSS over the runs (GNU time \`%M\`, MiB). ops/s and MB/s are the input's ops and bytes over the median time."
  echo "- Speed ratio = lf-opt ops/s ÷ mlir-opt ops/s (= mlir-opt time ÷ lf-opt time); memory ratio = lf-opt peak ÷ mlir-opt peak. Both tools run with their default threading."
  echo "- Goals (shared/BENCHMARKS.md §1): speed ratio ≥ 5 on the round trip and on canonicalize+cse, memory ratio ≤ 0.5, start-up under 10 ms, and ≥ 1.7x from the second core on the function-parallel pipeline (lf-opt \`--threads=2\` against \`--threads=1\`)."
  echo "- \"lf output valid\": \`$MLIR_OPT\` accepts lf-opt's output; \"= mlir-opt\" when mlir-opt then prints it exactly as it printed its own output."
  echo
  echo "## Inputs"
  echo
  echo "Generated by \`bench/gen_affine.py --seed $SEED\`; the generic form is the custom form printed by \`$MLIR_OPT --mlir-print-op-generic\`. ops counted as \`mlir-opt --print-op-stats\` counts them (README)."
  echo
  echo "| size | form | file | ops | MB | bytes/op |"
  echo "| --- | --- | --- | ---: | ---: | ---: |"
  printf '%s\n' "${INPUT_ROWS[@]}"
  for wl in roundtrip canon; do
    has_wl $wl || continue
    echo
    if [ $wl = roundtrip ]; then
      echo "## Parse + verify + print (same form)"
      echo
      echo "mlir-opt: \`$MLIR_OPT IN -o OUT [--mlir-print-op-generic]\`; lf-opt: \`lf-opt IN -o OUT [--print-op-generic]\`."
    else
      echo "## \`$PIPELINE\`"
      echo
      echo "mlir-opt: \`$MLIR_OPT IN -o OUT --pass-pipeline='$PIPELINE' [--mlir-print-op-generic]\`; lf-opt likewise. ops/s counts the input's ops."
    fi
    echo
    echo "$HDR"
    printf '%s' "${ROWS[$wl]:-}"
  done
  if [ -n "$PARALLEL_TABLE" ]; then
    echo
    echo "## Function-parallel pipeline: \`--threads=1\` against \`--threads=2\`"
    echo
    echo "\`lf-opt IN -o OUT --pass-pipeline='$PIPELINE' --threads=N\` on the largest custom-form input (the functions are canonicalized and CSE'd in parallel; parsing, verifying and printing also use the threads). Median of the runs, alternated."
    echo
    echo "$PARALLEL_TABLE"
  fi
  if [ -n "$STARTUP_TABLE" ]; then
    echo
    echo "## Start-up on an empty module"
    echo
    echo "\`TOOL bench/generated/empty.mlir -o OUT\` on \`module {}\`. Times are wall-clock around \`/usr/bin/time TOOL\`, so they include starting \`timeout\` and GNU time; the floor column is the same wrappers around \`/bin/true\`, and the goal (< 10 ms) is checked on lf-opt's median minus the floor."
    echo
    echo "$STARTUP_TABLE"
  fi
  echo
  echo "Raw per-run measurements of this run: \`bench/out/throughput-raw.tsv\` (not in git)."
} > "$RESULTS"
log "wrote $RESULTS"
