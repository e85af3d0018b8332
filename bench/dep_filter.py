#!/usr/bin/env python3
"""Keep the functions of a generated program that mlir-opt's dependence check can finish.

    python3 bench/dep_filter.py IN.mlir OUT.mlir [--timeout S] [--mem-kb KB] [--jobs N]

MLIR's Fourier-Motzkin projection (`projectOut`, used for the distance bounds) has no
constraint-explosion guard: on a few loop nests of the generated benchmark programs
(`max`/`min` bounds, steps, `floordiv`/`mod` subscripts) it runs for minutes or aborts with
`LLVM ERROR: out of memory`, taking the whole run with it. This script runs
`mlir-opt --pass-pipeline='builtin.module(func.func(test-memref-dependence-check))'` on each
function alone (memory and time bounded) and writes the program without the functions it
could not finish, keeping the `#map` aliases and every other function as they were; it
prints the names of the dropped functions. Both tools are then timed on OUT.
Functions called by a kept function are kept too (as declarations would change the program).
"""
import argparse
import os
import re
import subprocess
import sys
import tempfile
from concurrent.futures import ThreadPoolExecutor

MLIR_OPT = os.environ.get("MLIR_OPT", "mlir-opt-22")


def split(text):
    """(header before the first func, [func texts], trailer) of a generated module."""
    lines = text.splitlines(keepends=True)
    starts = [i for i, l in enumerate(lines) if re.match(r"^\s*func\.func", l)]
    if not starts:
        return text, [], ""
    # Each function ends at the line before the next one starts; the last at the
    # module's closing brace (if any).
    end = len(lines)
    if lines and lines[-1].strip() == "}" and not lines[starts[0]].startswith("func.func"):
        end = len(lines) - 1
    funcs = []
    for k, s in enumerate(starts):
        e = starts[k + 1] if k + 1 < len(starts) else end
        funcs.append("".join(lines[s:e]))
    return "".join(lines[: starts[0]]), funcs, "".join(lines[end:])


def declaration(func):
    """`func.func private @name(types) -> results` for a function's first line."""
    first = func.splitlines()[0]
    m = re.match(r"\s*func\.func (?:private )?@([\w$.]+)\((.*)\)\s*(->\s*[^{]+)?\{?", first)
    name, args, res = m.group(1), m.group(2), (m.group(3) or "").strip()
    types = [a.split(":", 1)[1].strip() for a in re.split(r",\s*(?=%)", args) if ":" in a]
    return f"  func.func private @{name}({', '.join(types)}) {res}\n"


def ok(header, func, others, trailer, timeout, mem_kb, tmpdir):
    # This function, with the others as declarations (calls must resolve).
    text = header + "".join(others) + func + trailer
    fd, path = tempfile.mkstemp(suffix=".mlir", dir=tmpdir)
    with os.fdopen(fd, "w") as f:
        f.write(text)
    cmd = (f"ulimit -v {mem_kb}; exec timeout {timeout} {MLIR_OPT} --allow-unregistered-dialect "
           f"'--pass-pipeline=builtin.module(func.func(test-memref-dependence-check))' "
           f"'{path}' -o /dev/null")
    p = subprocess.run(["sh", "-c", cmd], capture_output=True, text=True)
    os.unlink(path)
    bad = p.returncode != 0 and ("LLVM ERROR" in p.stderr or p.returncode in (124, 134, 137, 139))
    return not bad


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("inp")
    ap.add_argument("out")
    ap.add_argument("--timeout", type=int, default=20)
    ap.add_argument("--mem-kb", type=int, default=3000000)
    ap.add_argument("--jobs", type=int, default=2)
    a = ap.parse_args()
    text = open(a.inp).read()
    header, funcs, trailer = split(text)
    with tempfile.TemporaryDirectory() as tmpdir:
        with ThreadPoolExecutor(a.jobs) as ex:
            decls = [declaration(f) for f in funcs]
            oks = list(ex.map(
                lambda k: ok(header, funcs[k], decls[:k] + decls[k + 1:], trailer, a.timeout, a.mem_kb, tmpdir),
                range(len(funcs))))
    dropped = [re.search(r"@([\w$.]+)", f).group(1) for f, k in zip(funcs, oks) if not k]
    kept_text = header + "".join(f for f, k in zip(funcs, oks) if k) + trailer
    # Keep callees of kept functions.
    names = {re.search(r"@([\w$.]+)", f).group(1): f for f in funcs}
    need = set(re.findall(r"call @([\w$.]+)", kept_text))
    back = [n for n in dropped if n in need]
    if back:
        kept_text = header + "".join(f for f, k in zip(funcs, oks) if k or re.search(r"@([\w$.]+)", f).group(1) in back) + trailer
    with open(a.out, "w") as f:
        f.write(kept_text)
    print(f"{a.inp}: kept {len(funcs) - len(dropped) + len(back)} of {len(funcs)} functions; "
          f"dropped (mlir-opt out of memory or time): {', '.join(n for n in dropped if n not in back) or 'none'}"
          + (f"; kept as callees: {', '.join(back)}" if back else ""), file=sys.stderr)


if __name__ == "__main__":
    main()
