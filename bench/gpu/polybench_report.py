#!/usr/bin/env python3
"""The report of bench/gpu/polybench.sh: a markdown section for
bench/gpu/RESULTS.md (stdout) and a bar chart (PNG, with matplotlib).

usage: polybench_report.py LOG [--env=ENV] [--anchors=ANCHORS_MD] [--png=PNG]

LOG holds the harness lines
  PB|workload|variant|median_ms|min_ms|kernel_ms|copy_ms|launches|runs|GFLOP/s|checks|status
and SMALL|workload|variant|same/DIFFERENT[|memcheck: ...] lines from the
reduced-size programs. ENV is the run's env.txt (device, flags, sizes);
ANCHORS_MD the anchors' results.md (its ceilings line gives the copy
bandwidth and the cuBLAS SGEMM rate measured in the same run).

Per (workload, variant): the median time of the whole emitted call (device
allocation, copies, launches), the kernels' share of it, the speedups over the
naive mapping (whole call and kernels only) and over the single-core CPU
build, and the kernels' rate as a share of a ceiling: % of cuBLAS SGEMM for
the compute-bound workloads (flops as PolyBench counts them), % of the
device-to-device copy bandwidth for the stencils (each array read once and
written once per nest and time step).
"""
import math
import os
import re
import sys

ORDER = ["gemm", "2mm", "jacobi_2d", "fdtd_2d", "lu", "correlation", "doitgen"]
STENCILS = ("jacobi_2d", "fdtd_2d")


def parse_log(path):
    rows, small = {}, {}
    for line in open(path, errors="replace"):
        p = line.rstrip("\n").split("|")
        if p[0] == "PB" and len(p) >= 12:
            rows[(p[1], p[2])] = dict(
                ms=float(p[3]), min_ms=float(p[4]), kernel_ms=float(p[5]), copy_ms=float(p[6]),
                launches=int(p[7]), runs=int(p[8]), gflops=float(p[9]), checks=p[10], status=p[11])
        elif p[0] in ("RUNFAIL", "NOBUILD") and len(p) >= 3:
            rows.setdefault((p[1], p[2]), dict(status=p[0]))
        elif p[0] == "SMALL" and len(p) >= 4:
            small[(p[1], p[2])] = "; ".join(p[3:])
    return rows, small


def parse_env(path):
    env, sizes = [], {}
    if path and os.path.exists(path):
        for line in open(path):
            line = line.rstrip("\n")
            env.append(line)
            m = re.match(r"sizes (\S+): (.*)", line)
            if m:
                sizes[m.group(1)] = dict(kv.split("=") for kv in m.group(2).split())
    return env, sizes


def parse_ceilings(path):
    bw = sgemm = None
    text = ""
    if path and os.path.exists(path):
        text = open(path).read()
        m = re.search(r"copy bandwidth = \*\*([0-9.]+) GB/s", text)
        bw = float(m.group(1)) if m else None
        m = re.search(r"SGEMM[^=]*= \*\*([0-9.]+) GFLOP/s", text)
        sgemm = float(m.group(1)) if m else None
    return bw, sgemm, text


def min_bytes(w, s):
    """Bytes a stencil workload must move: every array of a nest read once and
    written once, per nest and time step (f32)."""
    if w == "jacobi_2d":
        n, t = int(s["N"]), int(s["TS"])
        return 4.0 * t * 4 * n * n
    if w == "fdtd_2d":
        nx, ny, t = int(s["NX"]), int(s["NY"]), int(s["TM"])
        return 4.0 * t * (3 + 3 + 4) * nx * ny
    return None


def flops_of(w, r):
    return r["gflops"] * r["ms"] * 1e6  # the harness's count, times its time


def fmt(x, spec="%.3f"):
    return "-" if x is None or (isinstance(x, float) and math.isnan(x)) else spec % x


def main():
    args = [a for a in sys.argv[1:] if not a.startswith("--")]
    opts = dict(a[2:].split("=", 1) for a in sys.argv[1:] if a.startswith("--") and "=" in a)
    rows, small = parse_log(args[0])
    env, sizes = parse_env(opts.get("env"))
    bw, sgemm, anchors = parse_ceilings(opts.get("anchors"))
    workloads = [w for w in ORDER if any(k[0] == w for k in rows)]
    workloads += sorted({k[0] for k in rows} - set(workloads))
    variants = []
    for (_, v) in rows:
        if v != "cpu" and v not in variants:
            variants.append(v)
    variants.sort(key=lambda v: (v != "naive", v))

    out = ["## PolyBench subset (issue 28): lf's generated CUDA", ""]
    device = next((l[5:] for l in env if l.startswith("gpu: ")), "unknown")
    out.append("Device: **%s**. Produced by `bench/gpu/polybench.sh run` (one GPU call); "
               "the environment and pipelines:" % device)
    out += ["", "```"] + env + ["```", ""]
    if bw or sgemm:
        out.append("Ceilings measured in the same run (anchors' roofline): copy bandwidth %s GB/s, "
                   "cuBLAS SGEMM %s GFLOP/s." % (fmt(bw, "%.0f"), fmt(sgemm, "%.0f")))
        out.append("")
    out.append("Times are medians in ms. *call*: the emitted host function as a whole (device "
               "allocation, host-device copies, launches); *kernels*: the part of it spent in "
               "kernels (an event after every launch and copy, 3 instrumented calls; each launch "
               "is charged from the previous event to its end, so launch gaps count); *copies*: "
               "the host-device copies likewise. Speedups over "
               "the naive mapping (identity γ, 256x1 blocks) and over one CPU core (g++ -O3 on "
               "the CPU-only translation of the same source). *% ceiling*: kernels' rate as a "
               "share of cuBLAS SGEMM (flops) or, for the stencils, of the copy bandwidth "
               "(minimal bytes). *check*: relative L2 error against the CPU and naive results "
               "at full size (<= 1e-4 passes, NaN = an output element never written); "
               "*reduced*: the reduced-size program's printed output against mlir-runner's, "
               "and compute-sanitizer memcheck.")
    out.append("")
    hdr = ["workload", "sizes", "variant", "call ms", "kernels ms", "copies ms", "launches",
           "x naive (call)", "x naive (kernels)", "x 1 CPU core", "% ceiling", "check", "reduced"]
    out.append("| " + " | ".join(hdr) + " |")
    out.append("|" + "---|" * len(hdr))
    chart = {}
    verdicts = []
    for w in workloads:
        s = sizes.get(w, {})
        sz = " ".join("%s=%s" % kv for kv in s.items()) or "-"
        cpu = rows.get((w, "cpu"))
        naive = rows.get((w, "naive"))
        for v in ["cpu"] + variants:
            r = rows.get((w, v))
            if r is None:
                continue
            if "ms" not in r:
                out.append("| %s | %s | %s | %s |%s" % (w, sz, v, r["status"], " |" * (len(hdr) - 4)))
                continue
            xn = xnk = xc = ceil = None
            if v != "cpu":
                if naive and "ms" in naive:
                    xn = naive["ms"] / r["ms"]
                    if r["kernel_ms"] > 0 and not math.isnan(naive["kernel_ms"]):
                        xnk = naive["kernel_ms"] / r["kernel_ms"]
                if cpu and "ms" in cpu:
                    xc = cpu["ms"] / r["ms"]
                kt = r["kernel_ms"]
                if kt and kt > 0 and not math.isnan(kt):
                    mb = min_bytes(w, s) if s else None
                    if w in STENCILS and mb and bw:
                        ceil = "%.1f%% copy BW" % (100.0 * mb / (kt * 1e6) / bw)
                    elif sgemm:
                        ceil = "%.2f%% SGEMM" % (100.0 * flops_of(w, r) / (kt * 1e6) / sgemm)
                chart.setdefault(w, {})[v] = (xn, xc)
            red = small.get((w, v), "-")
            out.append("| " + " | ".join([
                w, sz, v, fmt(r["ms"]), fmt(r["kernel_ms"]), fmt(r["copy_ms"]),
                str(r["launches"]) if v != "cpu" else "-", fmt(xn, "%.2fx"), fmt(xnk, "%.2fx"),
                fmt(xc, "%.1fx"), ceil or "-", "%s %s" % (r["status"], r["checks"]), red]) + " |")
        for v in variants:
            if v == "naive":
                continue
            r = rows.get((w, v))
            if r and "ms" in r and naive and "ms" in naive:
                kr, kn = r["kernel_ms"], naive["kernel_ms"]
                if kr > 0 and kn > 0:  # NaN compares false
                    faster = kr <= kn
                    verdicts.append("- %s: %s's kernels are %s than naive's (%.2fx; whole call %.2fx)" % (
                        w, v, "faster" if faster else "**slower**", kn / kr, naive["ms"] / r["ms"]))
                else:
                    faster = r["ms"] <= naive["ms"]
                    verdicts.append("- %s: %s is %s than naive (%.2fx, whole call)" % (
                        w, v, "faster" if faster else "**slower**", naive["ms"] / r["ms"]))
    out.append("")
    if verdicts:
        out.append("Against the naive mapping:")
        out.append("")
        out += verdicts
        out.append("")
    png = opts.get("png")
    if png and chart:
        if chart_png(png, chart, variants, device):
            out.append("![speedups](%s)" % os.path.basename(png))
        else:
            out.append("(no chart: matplotlib is not available where the report ran)")
        out.append("")
    if anchors:
        out.append("### Hand-written references and ceilings, same run (../shared/anchors-gpu)")
        out.append("")
        out.append(anchors.rstrip("\n"))
        out.append("")
    print("\n".join(out))


def chart_png(path, chart, variants, device):
    try:
        import matplotlib
        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except Exception:  # noqa: BLE001 - any import failure means no chart
        return False
    ws = [w for w in ORDER if w in chart] + sorted(set(chart) - set(ORDER))
    fig, axes = plt.subplots(1, 2, figsize=(13, 4.5))
    width = 0.8 / max(1, len(variants))
    for ax, idx, title in ((axes[0], 0, "speedup over the naive mapping (whole call)"),
                           (axes[1], 1, "speedup over one CPU core (g++ -O3)")):
        for k, v in enumerate(variants):
            vals = [chart[w].get(v, (None, None))[idx] or 0 for w in ws]
            xs = [i + (k - (len(variants) - 1) / 2) * width for i in range(len(ws))]
            bars = ax.bar(xs, vals, width, label=v)
            for b, val in zip(bars, vals):
                if val:
                    ax.annotate("%.3g" % val, (b.get_x() + b.get_width() / 2, val), ha="center",
                                va="bottom", fontsize=7)
        ax.set_xticks(range(len(ws)))
        ax.set_xticklabels(ws, rotation=20)
        ax.set_title(title, fontsize=10)
        if idx == 1:
            ax.set_yscale("log")
        else:
            ax.axhline(1.0, color="grey", lw=0.8)
        ax.legend(fontsize=8)
    fig.suptitle("lf issue 28, PolyBench subset on %s" % device.split(",")[0], fontsize=11)
    fig.tight_layout()
    fig.savefig(path, dpi=110)
    return True


if __name__ == "__main__":
    main()
