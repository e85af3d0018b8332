#!/usr/bin/env python3
"""The report of bench/gpu/mgrid.sh (issue 32, item 6): a markdown section for
bench/gpu/RESULTS.md (stdout) and a chart (PNG, with matplotlib).

usage: mgrid_report.py LOG [--env=ENV] [--anchors=ANCHORS_MD] [--png=PNG] [--prepared=DIR]

LOG holds the harness lines of bench/gpu/polybench.sh (PB|..., PBL|...,
SMALL|..., SKIP|...), ENV the run's env.txt, ANCHORS_MD the table of
../shared/anchors-gpu's report.py for the same run (roofline: the
device-to-device copy bandwidth).

Per workload (rprj3, interp) and thread granularity (n = N, n2 = 2N, n4 = 4N,
n8 = 8N): the kernels' time (the median over the instrumented calls of the
time charged to kernel launches), the speedup over n and over the single-core
CPU build (kernels only, and the whole emitted call with its device
allocation and copies, as the paper's speedups include the transfers), the
achieved bandwidth (each array the stencil touches read once, each written
array written once, 8-byte elements) and its share of the copy bandwidth, the
full-size check against n and the CPU build, and the reduced-size program;
from the prepared folder DIR (default bench/gpu/.mgrid, where the run also
leaves its builds in work/bin): the threads each variant launches (its
emitted W/V.cu) and the registers per thread ptxas gave its kernel (the
build log work/bin/W.V.build.log), the costs of a coarser granularity that
the paper names.
"""
import os
import re
import sys

from fusion_report import fmt, kernels, read_run  # the same log, env.txt and anchors table
from loopmerge_report import parse_extra, ratio  # the SKIP lines; a / b or None
from polybench_report import parse_ceilings  # the copy bandwidth of the anchors' roofline

ORDER = ["rprj3", "interp"]
LABEL = {"n": "N", "n2": "2N", "n4": "4N", "n8": "8N",  # n<F>v: the same, lanes' accesses as double2
         "n2v": "2N, double2 accesses", "n4v": "4N, double2 accesses", "n8v": "8N, double2 accesses"}

# the seed's claims (../shared/seeds/DIGEST.md §002.4; AMD Radeon HD 4870,
# Brook+, against one core of a Xeon E5405, ifort -O3; at the largest size)
SEED = {
    "rprj3": "5.37x over one CPU core at 128^3 (granularity not stated; at 128^3 the speedup falls as the "
             "granularity grows, so N is implied); best granularity 2N at 64^3 (6.01x)",
    "interp": "12.8x over one CPU core at 256^3, with 4N, 2.15x over N; the speedup peaks at 4N at every "
              "size and drops at 8N",
}


def touched_bytes(w, s):
    """Bytes the workload must move: every array element the stencil touches
    read once, every written one written once (f64)."""
    if w == "rprj3":  # r[1..MK-1)^3 read, s's interior written
        mk, mj = int(s["MK"]), int(s["MJ"])
        return 8.0 * ((mk - 1) ** 3 + (mj - 2) ** 3)
    if w == "interp":  # z read; u (all of it) read and written
        mm, mu = int(s["MM"]), int(s["MU"])
        return 8.0 * (mm ** 3 + 2 * mu ** 3)
    return None


def launched_threads(cu):
    """Threads of the launches in an emitted file (grid x block, summed), or None."""
    if not os.path.exists(cu):
        return None
    total = 0
    for m in re.finditer(r"<<<dim3\((\d+), (\d+), (\d+)\), dim3\((\d+), (\d+), (\d+)\)", open(cu).read()):
        g = [int(x) for x in m.groups()]
        total += g[0] * g[1] * g[2] * g[3] * g[4] * g[5]
    return total or None


def registers(log):
    """Registers per thread of the kernels in a build log (ptxas -v), "/"-joined, or None."""
    if not os.path.exists(log):
        return None
    regs = re.findall(r"Used (\d+) registers", open(log, errors="replace").read())
    return "/".join(regs) or None


def declined(remarks):
    """thread-granularity's reason for leaving a launch as it was, from a
    variant's remarks at prepare (its kernel is then n's), or None."""
    if not os.path.exists(remarks):
        return None
    m = re.search(r"not coarsened: ([^\n]*)", open(remarks, errors="replace").read())
    return m.group(1).strip() if m else None


def label(v):
    return "%s (%s)" % (v, LABEL[v]) if v in LABEL else v


def check_cell(r):
    text = "%s %s" % (r["status"], r["checks"])
    return text if r["status"] == "PASS" else "**%s**" % text


def main():
    opts, rows, small, env, sizes, _anchors, _anchor_device, workloads = read_run(ORDER)
    args = [a for a in sys.argv[1:] if not a.startswith("--")]
    _launches, skipped = parse_extra(args[0])
    for (w, _v) in skipped:
        if w not in workloads:
            workloads.append(w)
    variants = next((l.split(": ", 1)[1].split() for l in env if l.startswith("variants: ")), [])
    for (_, v) in list(rows) + list(skipped):
        if v != "cpu" and v not in variants:
            variants.append(v)
    base = variants[0] if variants else "n"
    device = next((l[5:] for l in env if l.startswith("gpu: ")), "unknown")
    bw, _sgemm, _text = parse_ceilings(opts.get("anchors"))

    out = ["## Thread granularity (issue 32): the seed-002 mgrid rows", ""]
    out.append("Device: **%s**. Produced by `bench/gpu/mgrid.sh run` (one GPU call: lf's variants, the "
               "single-core CPU build, then the copy-bandwidth ceiling of ../shared/anchors-gpu's "
               "roofline); the environment and pipelines:" % device)
    out += ["", "```"] + env + ["```", ""]
    out.append("Copy bandwidth measured in the same run: %s GB/s." % fmt(bw, "%.0f") if bw else
               "No copy bandwidth in this run (the anchors' roofline did not run or did not finish).")
    out.append("")
    out.append("Workloads (fp64, `examples/gen.py rprj3|interp large`, ghost layer included): **rprj3** "
               "restricts a 128^3 fine-grid interior (MK = 130) onto a 64^3 coarse one (MJ = 66): the "
               "paper's \"128^3\" for Rprj3 is its problem size, the fine grid; **interp** adds the "
               "trilinear interpolation of a 128^3 coarse interior (MM = 130) to a 256^3 fine grid "
               "(MU = 258). Granularities as the paper's: N one point per thread (`n`), 2N `double2` "
               "(`n2`: thread-granularity factor 2, vector width 2), 4N `double2` x 2 output streams "
               "(`n4`), 8N `double2` x 4 output streams (`n8`); where the run has them, `n2v`, `n4v` and `n8v` "
               "are the same followed by vectorize-access{width=2} (a thread's two lanes loaded and stored as "
               "one double2 where aligned: the paper's packed vector memory instructions).")
    out.append("")
    out.append("*cpu (one core)*: the CPU build's median time (g++ -O3, one thread, the same source), its "
               "own checks (no NaN left); *kernels ms*: the median over the instrumented calls of the time charged to kernel "
               "launches (an event after every launch and copy); *call ms*: the whole emitted function "
               "(device allocation, copies both ways, launches), median of the timed calls; *x n*: n's "
               "kernels time over the row's; *x CPU*: the CPU build's time (g++ -O3, one core, the same "
               "source) over the row's kernels time, and over its whole call (the paper's speedups include "
               "the transfers); *GB/s*: the bytes the stencil must move (each array element it touches "
               "read once, each written element written once, 8 bytes) over the kernels time, and their "
               "share of the copy bandwidth; *threads*: the threads the kernel launch starts (grid x block, "
               "guarded-off ones included), *regs*: registers per thread (ptxas -v of the build). *check*: the full-size result against n's (bit-identical "
               "required: every variant computes each point with the same f64 operations in the same "
               "order, so one differing element fails) and against the CPU build's (each element within "
               "1e-12 of it relative to max(1, |ref|): nvcc contracts multiply-adds into FMAs, g++ does "
               "not); relative L2 error / elements outside the tolerance. *reduced*: the reduced-size "
               "program (examples/run/W.mlir through the same pipeline) against mlir-runner's output, "
               "and compute-sanitizer memcheck on it.")
    out.append("")

    prepared = opts.get("prepared", os.path.join(os.path.dirname(os.path.abspath(__file__)), ".mgrid"))
    hdr = ["workload", "variant", "kernels ms", "x n", "x CPU (kernels)", "x CPU (call)", "call ms",
           "GB/s", "% copy bw", "threads", "regs", "launches", "check", "reduced"]
    out.append("| " + " | ".join(hdr) + " |")
    out.append("|" + "---|" * len(hdr))
    wrong, best, chart, declines = [], {}, {}, []
    for w in workloads:
        cpu = rows.get((w, "cpu"))
        cpu_ms = cpu.get("ms") if cpu else None
        if cpu:
            cells = [w, "cpu (one core)", fmt(cpu_ms, "%.2f") if cpu_ms else cpu["status"]] + [""] * (len(hdr) - 3)
            cells[hdr.index("check")] = check_cell(cpu) if cpu_ms else ""
            out.append("| " + " | ".join(cells) + " |")
        nbytes = touched_bytes(w, sizes.get(w, {})) if w in sizes else None
        b = kernels(rows.get((w, base)))
        chart[w] = {}
        for v in variants:
            r = rows.get((w, v))
            if (w, v) in skipped:
                out.append("| %s | %s | skipped: %s |%s" % (w, label(v), skipped[(w, v)], " |" * (len(hdr) - 3)))
                continue
            if r is None:
                continue
            if "ms" not in r:
                out.append("| %s | %s | %s |%s %s |" % (w, label(v), r["status"], " |" * (len(hdr) - 4),
                                                         small.get((w, v), "-")))
                wrong.append("%s %s (%s)" % (w, v, r["status"]))
                continue
            k = kernels(r)
            why = declined(os.path.join(prepared, w, v + ".remarks"))
            if why:
                declines.append("%s %s: %s" % (w, v, why))
            if r["status"] != "PASS":
                wrong.append("%s %s (check %s)" % (w, v, r["checks"]))
            gbs = nbytes / (k * 1e6) if nbytes and k else None
            out.append("| " + " | ".join([
                w, label(v) + (" (declined)" if why else ""), fmt(k), fmt(ratio(b, k), "%.2fx"), fmt(ratio(cpu_ms, k), "%.2fx"),
                fmt(ratio(cpu_ms, r["ms"]), "%.2fx"), fmt(r["ms"], "%.2f"), fmt(gbs, "%.0f"),
                fmt(100.0 * gbs / bw if gbs and bw else None, "%.0f%%"),
                fmt(launched_threads(os.path.join(prepared, w, v + ".cu")), "%d"),
                registers(os.path.join(prepared, "work", "bin", "%s.%s.build.log" % (w, v))) or "-",
                str(r["launches"]), check_cell(r),
                small.get((w, v), "-")]) + " |")
            if r["status"] == "PASS" and k:
                chart[w][v] = ratio(b, k)
                if not why and (w not in best or k < best[w][1]):
                    best[w] = (v, k)
    out.append("")
    if declines:
        out.append("thread-granularity left these kernels as they were (the rows time n's kernel again): %s."
                   % "; ".join(declines))
        out.append("")
    if wrong:
        out.append("**WRONG OR MISSING RESULTS: %s. The times of a variant whose check failed are not the "
                   "times of a correct program.**" % "; ".join(wrong))
        out.append("")

    out.append("Best granularity (the fastest variant whose checks passed and whose kernel was coarsened), beside the seed's claims (AMD "
               "Radeon HD 4870, Brook+, against one core of a Xeon E5405; ../shared/seeds/DIGEST.md §002.4):")
    out.append("")
    for w in workloads:
        cpu_ms = (rows.get((w, "cpu")) or {}).get("ms")
        if w in best:
            v, k = best[w]
            r = rows[(w, v)]
            line = "- **%s**: %s, %.4f ms, %s over n, %s over one CPU core (kernels; %s with the call's " \
                   "allocation and copies)" % (w, label(v), k, fmt(ratio(kernels(rows.get((w, base))), k), "%.2fx"),
                                               fmt(ratio(cpu_ms, k), "%.1fx"), fmt(ratio(cpu_ms, r["ms"]), "%.1fx"))
        else:
            line = "- **%s**: no variant passed its checks" % w
        if w in SEED:
            line += ". Seed: %s." % SEED[w]
        out.append(line)
    out.append("")
    png = opts.get("png")
    if png and any(chart.values()):
        if chart_png(png, chart, workloads, variants, device):
            out.append("![thread granularity speedups](%s)" % os.path.basename(png))
        else:
            out.append("(no chart: matplotlib is not available where the report ran)")
        out.append("")
    print("\n".join(out))


def chart_png(path, chart, workloads, variants, device):
    """Bars: each granularity's speedup over n, per workload (the variants
    whose checks passed)."""
    try:
        import matplotlib
        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except Exception:  # noqa: BLE001 - any import failure means no chart
        return False
    fig, ax = plt.subplots(figsize=(7, 4))
    width = 0.8 / max(1, len(variants))
    for j, v in enumerate(variants):
        vals = [chart[w].get(v) or 0 for w in workloads]
        ax.bar([i + (j - (len(variants) - 1) / 2) * width for i in range(len(workloads))], vals, width,
               label=LABEL.get(v, v))
    ax.set_xticks(range(len(workloads)))
    ax.set_xticklabels(workloads)
    ax.axhline(1.0, color="grey", lw=0.8)
    ax.set_ylabel("speedup over N (kernels)")
    ax.legend(fontsize=8, title="granularity")
    ax.set_title("lf issue 32, mgrid thread granularity on %s" % device.split(",")[0], fontsize=10)
    fig.tight_layout()
    fig.savefig(path, dpi=110)
    return True


if __name__ == "__main__":
    main()
