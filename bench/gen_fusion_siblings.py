#!/usr/bin/env python3
"""One function with N sibling loop nests, for the affine-loop-fusion scaling benchmark.

    python3 bench/gen_fusion_siblings.py --nests 1000 -o bench/generated/fusion-siblings-1000.mlir

Every nest reads the shared inputs %A and %B (one load each: MLIR's sibling fusion wants one
load of the shared memref per nest) and writes a buffer of its
own (allocated at the top of the function), with the same bounds as the others: each nest is a
sibling of the one before, so MLIR's greedy fusion fuses them all into one nest, as lf does.
`--depth 2` makes 2-D nests.
"""
import argparse
import sys


def generate(nests: int, size: int, depth: int) -> str:
    shape = "x".join([str(size)] * depth)
    ty = f"memref<{shape}xf32>"
    ivs = ["%i", "%j", "%k"][:depth]
    out = [f"func.func @siblings(%A: {ty}, %B: {ty}) {{", "  %c = arith.constant 1.5 : f32"]
    for n in range(nests):
        out.append(f"  %o{n} = memref.alloc() : {ty}")
    idx = ", ".join(ivs)
    shifted = ", ".join(ivs[:-1] + [f"{ivs[-1]} + 1"])
    for n in range(nests):
        ind = "  "
        for iv in ivs:
            out.append(f"{ind}affine.for {iv} = 0 to {size - 1} {{")
            ind += "  "
        out.append(f"{ind}%a{n} = affine.load %A[{idx}] : {ty}")
        out.append(f"{ind}%b{n} = affine.load %B[{shifted}] : {ty}")
        out.append(f"{ind}%s{n} = arith.addf %a{n}, %b{n} : f32")
        out.append(f"{ind}%m{n} = arith.mulf %s{n}, %c : f32")
        out.append(f"{ind}affine.store %m{n}, %o{n}[{idx}] : {ty}")
        for _ in ivs:
            ind = ind[:-2]
            out.append(f"{ind}}}")
    out.append("  return")
    out.append("}")
    return "\n".join(out) + "\n"


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--nests", type=int, required=True)
    ap.add_argument("--size", type=int, default=64)
    ap.add_argument("--depth", type=int, default=1, choices=[1, 2, 3])
    ap.add_argument("-o", "--output", default="-")
    a = ap.parse_args()
    text = generate(a.nests, a.size, a.depth)
    if a.output == "-":
        sys.stdout.write(text)
    else:
        with open(a.output, "w") as f:
            f.write(text)


if __name__ == "__main__":
    main()
