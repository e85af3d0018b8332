#!/usr/bin/env python3
"""The report of bench/gpu/kernels.sh (issue 30, item 9): a markdown section
for bench/gpu/RESULTS.md (stdout) and a chart (PNG, with matplotlib).

usage: kernels_report.py LOG [--env=ENV] [--anchors=ANCHORS_MD] [--png=PNG]

LOG holds the harness lines of bench/gpu/polybench.sh (PB|... and SMALL|...),
ENV the run's env.txt, ANCHORS_MD the table of ../shared/anchors-gpu's
report.py for the same run (roofline, matmul, matvec, transpose, fig3).

lf's compared number is the kernels' time (the emitted host function also
allocates and copies, which the hand-written programs do not time). Each
variant is a step of the pipeline on top of the previous one; *x naive* is
the naive kernel's time over the row's, *x prev* the previous step's.
"""
import os

from fusion_report import fmt, kernels, read_run  # the same log, env.txt, anchors table and kernel times

ORDER = ["matmul", "matvec", "transpose", "complex_scale", "fig3_dead"]

# the anchors' rows shown next to each workload
ANCHOR_ROWS = {
    "matmul": ("matmul", ["naive", "tiled16", "reg4x4", "reg4x4_db", "reg8x8_db", "cublas"]),
    "matvec": ("matvec", ["naive", "smem_transpose", "warp_per_row", "cublas"]),
    "transpose": ("transpose", None),  # every row of the bench
    "fig3_dead": ("fig3", ["slk", "mlk", "mlk_v4"]),
}


def anchor_rows(anchors, bench, names):
    rows = [(v, anchors[(b, v)]) for (b, v) in anchors if b == bench]
    if names is None:
        return rows
    return [(v, anchors[(bench, v)]) for v in names if (bench, v) in anchors]


def bytes_moved(w, sizes):
    """The compulsory global-memory bytes of one call (each array read or
    written once), for the bandwidth goals."""
    s = {k: int(v) for k, v in sizes.get(w, {}).items()}
    if w == "matvec":
        return 4 * (s["M"] * s["N"] + s["N"] + s["M"])
    if w == "transpose":
        return 4 * 2 * s["M"] * s["N"]
    if w == "complex_scale":
        return 4 * 2 * 2 * s["N"]
    if w == "fig3_dead":
        return 4 * 2 * s["N"]
    return None


def gb_per_s(w, sizes, k):
    """The compulsory bytes of `w` over `k` milliseconds, in GB/s."""
    return bytes_moved(w, sizes) / (k * 1e-3) / 1e9


def copy_share_goal(w, sizes, k, copy_bw, goal):
    """`k` ms as a share of the copy bandwidth, with the goal's verdict."""
    pct = 100.0 * gb_per_s(w, sizes, k) / copy_bw
    return "; %.1f%% of copy bandwidth (goal >= %d%%: %s)" % (pct, goal, "met" if pct >= goal else "**not met**")


def main():
    opts, rows, small, env, sizes, anchors, anchor_device, workloads = read_run(ORDER)
    variants = []
    for line in env:
        if line.startswith("variants: "):
            variants = line.split(": ", 1)[1].split()
    for (_, v) in rows:
        if v != "cpu" and v not in variants:
            variants.append(v)
    base = variants[0] if variants else "naive"
    device = next((l[5:] for l in env if l.startswith("gpu: ")), "unknown")
    copy_bw = None
    for (b, v), (ms, _check, _note) in anchors.items():
        if b == "roofline" and v == "copy_kernel_1GiB_flat":
            copy_bw = 2 * (1 << 30) / (ms * 1e-3) / 1e9
    cublas = anchors.get(("matmul", "cublas"), (None,))[0]

    out = ["## Kernel optimizer (issue 30): the seed-004 rows", ""]
    out.append("Device: **%s**. Produced by `bench/gpu/kernels.sh run` (one GPU call: lf's variants, then "
               "the hand-written references of ../shared/anchors-gpu); the environment and pipelines:" % device)
    if anchor_device and anchor_device != device:
        out += ["", "(the anchors' environment names the GPU as %s)" % anchor_device]
    out += ["", "```"] + env + ["```", ""]
    out.append("Each variant is one more step of the pipeline (a step that does not apply leaves the kernel "
               "as it was: same time within noise). *kernels ms*: the median over the instrumented calls of "
               "the time charged to kernel launches; *x naive* / *x prev*: the naive / previous step's "
               "kernels time over the row's; *check*: relative L2 error of the output against the CPU build "
               "and the naive variant at full size; *reduced*: the reduced-size program against "
               "mlir-runner's output, and compute-sanitizer on it.")
    out.append("")
    hdr = ["workload", "sizes", "variant", "kernels ms", "x naive", "x prev", "GFLOP/s or GB/s", "check",
           "reduced"]
    out.append("| " + " | ".join(hdr) + " |")
    out.append("|" + "---|" * len(hdr))
    best = {}
    for w in workloads:
        sz = " ".join("%s=%s" % kv for kv in sizes.get(w, {}).items()) or "-"
        b = kernels(rows.get((w, base)))
        prev = None
        for v in variants:
            r = rows.get((w, v))
            if r is None:
                continue
            if "ms" not in r:
                out.append("| %s | %s | %s | %s |%s %s |" % (w, sz, v, r["status"], " |" * (len(hdr) - 5),
                                                              small.get((w, v), "-")))
                continue
            k = kernels(r)
            rate = "-"
            if k and w == "matmul":
                rate = "%.0f GFLOP/s" % (r["gflops"] * (r["ms"] / k)) if r.get("gflops") else "-"
            elif k and bytes_moved(w, sizes):
                rate = "%.0f GB/s" % gb_per_s(w, sizes, k)
            out.append("| " + " | ".join([
                w, sz, v, fmt(k), fmt(b / k if b and k else None, "%.2fx"),
                fmt(prev / k if prev and k else None, "%.2fx"), rate,
                "%s %s" % (r["status"], r["checks"]), small.get((w, v), "-")]) + " |")
            if k and r.get("status") == "PASS" and (w not in best or k < best[w][1]):
                best[w] = (v, k)
            prev = k or prev
    out.append("")

    out.append("### The hand-written kernels of the same run")
    out.append("")
    out.append("| workload | row | ms | note |")
    out.append("|---|---|---|---|")
    for w in workloads:
        if w not in ANCHOR_ROWS:
            continue
        bench, names = ANCHOR_ROWS[w]
        for v, (ms, check, note) in anchor_rows(anchors, bench, names):
            out.append("| %s | %s %s | %s | %s (%s) |" % (w, bench, v, fmt(ms), note, check))
    if copy_bw:
        out.append("| (ceiling) | roofline copy_kernel_1GiB_flat | | %.0f GB/s copy bandwidth |" % copy_bw)
    out.append("")

    verdicts = []
    for w in workloads:
        if w not in best:
            verdicts.append("- **%s**: no passing variant" % w)
            continue
        v, k = best[w]
        b = kernels(rows.get((w, base)))
        line = "- **%s**: best lf variant `%s`, %.2fx over naive" % (w, v, b / k if b else float("nan"))
        if w == "matmul" and cublas:
            pct = 100.0 * cublas / k
            line += "; %.1f%% of cuBLAS SGEMM (goal >= 85%%: %s)" % (pct, "met" if pct >= 85 else "**not met**")
        if w in ("matvec",) and copy_bw:
            line += copy_share_goal(w, sizes, k, copy_bw, 95)
        if w == "transpose" and b:
            # The goal is the hand-written references' 6.4x of a shared tile over the seed's
            # naive kernel (coalesced reads, strided writes); lf's naive kernel is
            # gpu-map-loops', whose cost model already avoids the strided writes.
            seed_naive = anchors.get(("transpose", "naive"), (None,))[0]
            tiled = anchors.get(("transpose", "tiled"), (None,))[0]
            if seed_naive:
                line += "; %.2fx over the seed's naive kernel (hand-written `naive`, goal >= 6x: %s)" % (
                    seed_naive / k, "met" if seed_naive / k >= 6 else "**not met**")
            if tiled:
                line += "; hand-written tiled / lf best %.2fx" % (tiled / k)
        if w == "fig3_dead":
            # BENCHMARKS.md: the speedup over one kernel per nest (lf's naive, timed in this
            # harness like the fused kernels) and the share of the copy bandwidth.
            if b:
                line += " (one kernel per nest; goal >= 3.0x: %s)" % ("met" if b / k >= 3.0 else "**not met**")
            if copy_bw:
                line += copy_share_goal(w, sizes, k, copy_bw, 90)
            hw = anchors.get(("fig3", "slk"), (None,))[0]
            v4 = anchors.get(("fig3", "mlk_v4"), (None,))[0]
            if hw and v4:
                line += "; hand-written slk / mlk_v4 %.2fx, slk / lf best %.2fx (the hand-written kernels are timed back to back by their own harness)" % (hw / v4, hw / k)
        verdicts.append(line)
    if verdicts:
        out.append("Issue 30's goals (from the kernels' times of this run):")
        out.append("")
        out += verdicts
        out.append("")
    png = opts.get("png")
    if png and rows:
        if chart_png(png, rows, workloads, variants, base, device):
            out.append("![kernel optimizer steps](%s)" % os.path.basename(png))
        else:
            out.append("(no chart: matplotlib is not available where the report ran)")
        out.append("")
    print("\n".join(out))


def chart_png(path, rows, workloads, variants, base, device):
    try:
        import matplotlib
        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except Exception:  # noqa: BLE001 - any import failure means no chart
        return False
    fig, ax = plt.subplots(figsize=(9, 4))
    width = 0.8 / max(1, len(variants))
    for j, v in enumerate(variants):
        vals = []
        for w in workloads:
            b, k = kernels(rows.get((w, base))), kernels(rows.get((w, v)))
            vals.append(b / k if b and k else 0)
        xs = [i + (j - (len(variants) - 1) / 2) * width for i in range(len(workloads))]
        ax.bar(xs, vals, width, label=v)
    ax.set_xticks(range(len(workloads)))
    ax.set_xticklabels(workloads, fontsize=8)
    ax.axhline(1.0, color="grey", lw=0.8)
    ax.set_ylabel("speedup over the naive kernel (kernels)")
    ax.legend(fontsize=8)
    ax.set_title("lf issue 30, seed-004 steps on %s" % device.split(",")[0], fontsize=10)
    fig.tight_layout()
    fig.savefig(path, dpi=110)
    return True


if __name__ == "__main__":
    main()
