#!/usr/bin/env python3
"""Drop from a generated program the functions on which MLIR's dependence check explodes.

    python3 bench/dep_filter.py IN.mlir OUT.mlir

MLIR's Fourier-Motzkin projection (`projectOut`, used for the distance bounds of
`test-memref-dependence-check`) has no constraint-explosion guard: on some loop nests of the
generated benchmark programs (`max`/`min` bounds, steps, `floordiv`/`mod` subscripts) one
elimination step asks for millions of rows, and mlir-opt runs for minutes or aborts with
`LLVM ERROR: out of memory`, taking the whole run (and its output) with it. lf stops such a
step at its documented limit (FM_MAX_ROWS) and says so in a note. This script runs lf-opt
once, finds the functions where it hit that limit, and writes the program with those
functions turned into declarations (`func.func private @f(types) -> results`, so that calls
still resolve); it prints their names. Both tools are then timed on OUT and must print the
same remarks (see bench/dependence.sh).
"""
import os
import re
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
LF_OPT = os.environ.get("LF_OPT", os.path.join(ROOT, "target/release/lf-opt"))


def declaration(first_line):
    m = re.match(r"(\s*)func\.func (?:private )?@([\w$.]+)\((.*)\)\s*(->\s*[^{]+)?\{?", first_line)
    indent, name, args, res = m.group(1), m.group(2), m.group(3), (m.group(4) or "").strip()
    types = [a.split(":", 1)[1].strip() for a in re.split(r",\s*(?=%)", args) if ":" in a]
    return f"{indent}func.func private @{name}({', '.join(types)}) {res}".rstrip() + "\n"


def main():
    inp, out = sys.argv[1], sys.argv[2]
    lines = open(inp).read().splitlines(keepends=True)
    starts = [i for i, l in enumerate(lines) if re.match(r"^\s*func\.func", l)]
    p = subprocess.run([LF_OPT, "--test-memref-dependence-check", inp, "-o", "/dev/null"],
                       capture_output=True, text=True)
    bad_lines = set()
    for l in p.stderr.splitlines():
        m = re.match(r"^[^ ]+:(\d+):\d+: note: because Fourier-Motzkin elimination would create", l)
        if m:
            bad_lines.add(int(m.group(1)) - 1)
    drop = set()
    for b in bad_lines:
        k = max(i for i, s in enumerate(starts) if s <= b)
        drop.add(k)
    res = lines[: starts[0]]
    names = []
    for k, s in enumerate(starts):
        e = starts[k + 1] if k + 1 < len(starts) else len(lines) - 1
        if k in drop:
            res.append(declaration(lines[s]))
            names.append(re.search(r"@([\w$.]+)", lines[s]).group(1))
        else:
            res.extend(lines[s:e])
    res.extend(lines[starts[-1] + (len(lines) - 1 - starts[-1]) :] if False else lines[len(lines) - 1 :])
    with open(out, "w") as f:
        f.write("".join(res))
    print(f"{inp}: {len(starts) - len(drop)} of {len(starts)} functions kept; turned into declarations "
          f"(FM explosion): {', '.join(names) or 'none'}", file=sys.stderr)


if __name__ == "__main__":
    main()
