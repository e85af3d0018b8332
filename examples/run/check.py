#!/usr/bin/env python3
"""Checks the drivers of this folder against independent plain-Python references.

  ./check.py                 run each driver with ./run.sh and compare its output
  ./check.py NAME...         only these drivers
  ./check.py --from DIR      compare DIR/NAME.out instead (the format that
                             `./run.sh -o DIR` writes, i.e. printMemref output),
                             e.g. to check another executor such as lf's interpreter

The references recompute each kernel in Python doubles from the same fill
formulas as the drivers' @main; the drivers compute in f32 (f64 for rprj3 and
interp), and printMemref prints 6 significant digits, so values are compared
with |got - want| <= 1e-4 * max(1, |want|). Exit status 1 on any mismatch.
"""
import itertools
import os
import re
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))


# ----------------------------------------------------------------- helpers

def fill(shape, spec, integer=False):
    """The drivers' fill: ((sum_d c_d * i_d + c0) mod p + off) / 4 (not / 4 for
    integers); spec None: zeros."""
    def rec(prefix, dims):
        if not dims:
            if spec is None:
                return 0 if integer else 0.0
            coeffs, c0, p, off = spec
            h = (sum(c * i for c, i in zip(coeffs, prefix)) + c0) % p + off
            return h if integer else h / 4.0
        return [rec(prefix + [i], dims[1:]) for i in range(dims[0])]
    return rec([], list(shape))


def zeros(*shape):
    return fill(shape, None)


STD = ([7, 3], 0, 13, 0)


def flat(x):
    if isinstance(x, list):
        return [v for e in x for v in flat(e)]
    return [x]


# ------------------------------------------------------------- references

def ref_fig3_chain():
    n = 16
    X = fill([n], ([7], 3, 13, 0))
    B = [2.0 * x for x in X]
    A = zeros(n)
    for i in range(1, n - 1):
        A[i] = B[i - 1] + B[i + 1]
    return [B, A]


def ref_fig3_dead():
    # fig3_chain with B local: only A is printed
    return ref_fig3_chain()[1:]


def ref_ll18():
    n = 8
    specs = {"za": ([3, 5], 1, 11, 0), "zb": ([5, 3], 2, 11, 0), "zp": ([7, 3], 0, 13, 0),
             "zq": ([2, 9], 4, 13, 0), "zr": ([4, 7], 1, 17, 0), "zm": ([3, 2], 0, 7, 1),
             "zu": ([1, 1], 0, 5, 0), "zv": ([2, 1], 1, 5, 0), "zz": ([6, 5], 3, 19, 0)}
    z = {k: fill([n, n], v) for k, v in specs.items()}
    za, zb, zp, zq, zr, zm, zu, zv, zz = (z[k] for k in
                                         ["za", "zb", "zp", "zq", "zr", "zm", "zu", "zv", "zz"])
    t, s = 0.0037, 0.0041
    rng = range(1, n - 1)
    for k in rng:
        for j in rng:
            za[k][j] = ((zp[k + 1][j - 1] + zq[k + 1][j - 1] - zp[k][j - 1] - zq[k][j - 1])
                        * (zr[k][j] + zr[k][j - 1]) / (zm[k][j - 1] + zm[k + 1][j - 1]))
            zb[k][j] = ((zp[k][j - 1] + zq[k][j - 1] - zp[k][j] - zq[k][j])
                        * (zr[k][j] + zr[k - 1][j]) / (zm[k][j] + zm[k][j - 1]))
    for k in rng:
        for j in rng:
            zu[k][j] += s * (za[k][j] * (zz[k][j] - zz[k][j + 1])
                             - za[k][j - 1] * (zz[k][j] - zz[k][j - 1])
                             - zb[k][j] * (zz[k][j] - zz[k - 1][j])
                             + zb[k + 1][j] * (zz[k][j] - zz[k + 1][j]))
            zv[k][j] += s * (za[k][j] * (zr[k][j] - zr[k][j + 1])
                             - za[k][j - 1] * (zr[k][j] - zr[k][j - 1])
                             - zb[k][j] * (zr[k][j] - zr[k - 1][j])
                             + zb[k + 1][j] * (zr[k][j] - zr[k + 1][j]))
    for k in rng:
        for j in rng:
            zr[k][j] = zr[k][j] + t * zu[k][j]
            zz[k][j] = zz[k][j] + t * zv[k][j]
    return [za, zb, zu, zv, zr, zz]


def ref_stencil4_chain():
    n = 12
    A = [fill([n, n], STD)] + [zeros(n, n) for _ in range(4)]
    for s in range(1, 5):
        P, Q = A[s - 1], A[s]
        for i in range(s, n - s):
            for j in range(s, n - s):
                Q[i][j] = 0.2 * (P[i][j] + P[i - 1][j] + P[i + 1][j] + P[i][j - 1] + P[i][j + 1])
    return [A[1], A[4]]


def ref_stencil4_dead():
    # stencil4_chain with A1..A3 local: only A4 is printed
    return ref_stencil4_chain()[1:]


def ref_matmul():
    M, N, K = 6, 8, 10
    A = fill([M, K], STD)
    B = fill([K, N], ([5, 11], 2, 17, 0))
    C = [[sum(A[i][k] * B[k][j] for k in range(K)) for j in range(N)] for i in range(M)]
    return [C]


def ref_matvec():
    M, N = 6, 10
    A = fill([M, N], STD)
    b = fill([N], ([5], 1, 11, 0))
    return [[sum(A[i][j] * b[j] for j in range(N)) for i in range(M)]]


def ref_transpose():
    M, N = 6, 10
    a = fill([M, N], ([10, 1], 0, 61, 0))
    return [[[a[i][j] for i in range(M)] for j in range(N)]]


def ref_complex_scale():
    n = 6
    x = fill([2 * n], ([7], 3, 13, 0))
    re_, im = 0.6, 0.8
    y = []
    for i in range(n):
        y += [re_ * x[2 * i] - im * x[2 * i + 1], re_ * x[2 * i + 1] + im * x[2 * i]]
    return [y]


def ref_lu():
    n = 8
    A = fill([n, n], STD)
    for i in range(n):
        A[i][i] += 16.0
    for k in range(n):
        for j in range(k + 1, n):
            A[k][j] = A[k][j] / A[k][k]
        for i in range(k + 1, n):
            for j in range(k + 1, n):
                A[i][j] = A[i][j] - A[i][k] * A[k][j]
    return [A]


def ref_syn_lm():
    T, O = 8, 4
    trips = fill([T, O], ([7, 3], 0, 9, 0), integer=True)
    X = fill([T], ([5], 1, 7, 0))
    Y = []
    for t in range(T):
        x = X[t]
        v, acc = x, 0.0
        for o in range(O):
            for _ in range(trips[t][o]):
                v = v * 0.875 + x
                v = v * 1.125 - 0.5
                v = v * 0.9375 + 0.25
                v = v * 1.0625 - x
            acc += v
        Y.append(acc)
    return [Y]


def syn_lm_bench(fmas, var):
    """The SYN-LM benchmark drivers (syn_lm_f<FMAS>_var<VAR>): trip counts from
    gen.py's hash (its own Python copy is the reference for the i32 arithmetic
    of the driver), four accumulators, acc += w after each inner loop."""
    sys.path.insert(0, os.path.dirname(HERE))
    from gen import syn_lm_trips
    T, O = 64, 8
    X = fill([T], ([5], 1, 7, 0))
    Y = []
    for t in range(T):
        x, y, z, w, acc = X[t], 0.2, 0.3, 0.4, 0.0
        for o in range(O):
            for _ in range(syn_lm_trips(t, o, var) * (fmas // 4)):
                x = x * 0.5 + y
                y = y + 0.25
                z = z * 0.5 + x
                w = w * 0.25 + z
            acc += w
        Y.append(acc)
    return [Y]


for _f in (4, 32):
    for _v in (0, 5, 10):
        globals()["ref_syn_lm_f%d_var%d" % (_f, _v)] = (lambda f, v: lambda: syn_lm_bench(f, v))(_f, _v)


def ref_rprj3():
    MK, MJ = 10, 6
    r = fill([MK] * 3, ([3, 5, 7], 1, 13, 0))
    s = zeros(MJ, MJ, MJ)
    w = {0: 0.5, 1: 0.25, 2: 0.125, 3: 0.0625}
    for j3, j2, j1 in itertools.product(range(1, MJ - 1), repeat=3):
        acc = 0.0
        for d3, d2, d1 in itertools.product((-1, 0, 1), repeat=3):
            nz = (d3 != 0) + (d2 != 0) + (d1 != 0)
            acc += w[nz] * r[2 * j3 + d3][2 * j2 + d2][2 * j1 + d1]
        s[j3][j2][j1] = acc
    return [s]


def ref_interp():
    MM, MU = 4, 6
    z = fill([MM] * 3, ([3, 5, 7], 1, 13, 0))
    u = fill([MU] * 3, ([2, 1, 3], 0, 5, 0))
    # trilinear interpolation, written independently of mgrid's z1/z2/z3 form:
    # fine point (2i + a) gets the average of the coarse corners selected by a
    for i3, i2, i1 in itertools.product(range(MM - 1), repeat=3):
        for a3, a2, a1 in itertools.product((0, 1), repeat=3):
            pts = [(i3 + b3, i2 + b2, i1 + b1)
                   for b3 in ((0, 1) if a3 else (0,))
                   for b2 in ((0, 1) if a2 else (0,))
                   for b1 in ((0, 1) if a1 else (0,))]
            u[2 * i3 + a3][2 * i2 + a2][2 * i1 + a1] += sum(z[p][q][r] for p, q, r in pts) / len(pts)
    return [u]


def ref_gemm():
    NI, NJ, NK = 6, 8, 5
    alpha, beta = 1.5, 1.25
    C = fill([NI, NJ], ([1, 2], 0, 7, 0))
    A = fill([NI, NK], STD)
    B = fill([NK, NJ], ([5, 11], 2, 17, 0))
    for i in range(NI):
        for j in range(NJ):
            C[i][j] *= beta
            for k in range(NK):
                C[i][j] += alpha * A[i][k] * B[k][j]
    return [C]


def ref_jacobi_2d():
    n, TS = 10, 3
    A = fill([n, n], STD)
    B = zeros(n, n)
    for _ in range(TS):
        for i in range(1, n - 1):
            for j in range(1, n - 1):
                B[i][j] = 0.2 * (A[i][j] + A[i][j - 1] + A[i][j + 1] + A[i + 1][j] + A[i - 1][j])
        for i in range(1, n - 1):
            for j in range(1, n - 1):
                A[i][j] = B[i][j]
    return [A, B]


def ref_fdtd_2d():
    NX, NY, TM = 6, 8, 3
    ex = fill([NX, NY], STD)
    ey = fill([NX, NY], ([5, 11], 2, 17, 0))
    hz = fill([NX, NY], ([3, 5], 1, 11, 0))
    fict = fill([TM], ([1], 0, 100, 0))
    for t in range(TM):
        for j in range(NY):
            ey[0][j] = fict[t]
        for i in range(1, NX):
            for j in range(NY):
                ey[i][j] = ey[i][j] - 0.5 * (hz[i][j] - hz[i - 1][j])
        for i in range(NX):
            for j in range(1, NY):
                ex[i][j] = ex[i][j] - 0.5 * (hz[i][j] - hz[i][j - 1])
        for i in range(NX - 1):
            for j in range(NY - 1):
                hz[i][j] = hz[i][j] - 0.7 * (ex[i][j + 1] - ex[i][j] + ey[i + 1][j] - ey[i][j])
    return [ex, ey, hz]


def ref_correlation():
    N, M = 12, 6
    float_n = 12.0
    data = fill([N, M], STD)
    mean = [sum(data[i][j] for i in range(N)) / float_n for j in range(M)]
    stddev = []
    for j in range(M):
        sd = (sum((data[i][j] - mean[j]) ** 2 for i in range(N)) / float_n) ** 0.5
        stddev.append(1.0 if sd <= 0.1 else sd)
    for i in range(N):
        for j in range(M):
            data[i][j] = (data[i][j] - mean[j]) / (float_n ** 0.5 * stddev[j])
    sym = zeros(M, M)
    for j1 in range(M):
        sym[j1][j1] = 1.0
        for j2 in range(j1 + 1, M):
            sym[j1][j2] = sym[j2][j1] = sum(data[i][j1] * data[i][j2] for i in range(N))
    return [sym, mean, stddev]


def ref_two_mm():
    NI, NJ, NK, NL = 6, 8, 5, 7
    alpha, beta = 1.5, 1.25
    A = fill([NI, NK], STD)
    B = fill([NK, NJ], ([5, 11], 2, 17, 0))
    C = fill([NJ, NL], ([3, 5], 1, 11, 0))
    D = fill([NI, NL], ([1, 2], 0, 7, 0))
    tmp = [[sum(alpha * A[i][k] * B[k][j] for k in range(NK)) for j in range(NJ)] for i in range(NI)]
    for i in range(NI):
        for j in range(NL):
            D[i][j] = beta * D[i][j] + sum(tmp[i][k] * C[k][j] for k in range(NJ))
    return [tmp, D]


def ref_doitgen():
    NR, NQ, NP = 4, 3, 5
    A = fill([NR, NQ, NP], ([3, 5, 7], 1, 13, 0))
    C4 = fill([NP, NP], ([5, 11], 2, 17, 0))
    total = [[zeros(NP) for _ in range(NQ)] for _ in range(NR)]
    for r in range(NR):
        for q in range(NQ):
            total[r][q] = [sum(A[r][q][s] * C4[s][p] for s in range(NP)) for p in range(NP)]
            A[r][q] = list(total[r][q])
    return [A, total]


REFS = {k[4:]: v for k, v in globals().items() if k.startswith("ref_")}
# a Python name cannot start with a digit
REFS["2mm"] = REFS.pop("two_mm")

# ------------------------------------------------------------------ driver

NUM = re.compile(r"[-+]?(?:nan|inf|\d+(?:\.\d*)?(?:[eE][-+]?\d+)?)")


def parse(text):
    """The data of each printMemref in `text`, flattened, in print order."""
    out = []
    for chunk in text.split("Unranked Memref")[1:]:
        data = chunk.split("data =", 1)[1]
        data = data.split("==", 1)[0]
        out.append([float(x) for x in NUM.findall(data)])
    return out


def check(name, text):
    want = [flat(x) for x in REFS[name]()]
    got = parse(text)
    if len(got) != len(want):
        return "expected %d printed memrefs, got %d" % (len(want), len(got))
    bad = []
    for k, (g, w) in enumerate(zip(got, want)):
        if len(g) != len(w):
            return "memref %d: expected %d values, got %d" % (k, len(w), len(g))
        for idx, (a, b) in enumerate(zip(g, w)):
            if not abs(a - b) <= 1e-4 * max(1.0, abs(b)):
                bad.append("memref %d, element %d: got %g, want %g" % (k, idx, a, b))
        if all(v == 0.0 for v in g):
            bad.append("memref %d is all zeros" % k)
    return "; ".join(bad[:5]) + (" (%d mismatches)" % len(bad) if len(bad) > 5 else "") if bad else None


def main(argv):
    src = None
    if argv[:1] == ["--from"]:
        src, argv = argv[1], argv[2:]
    names = argv or sorted(REFS)
    failed = 0
    for name in names:
        if name not in REFS:
            print("FAIL %s: no reference" % name)
            failed += 1
            continue
        if src:
            with open(os.path.join(src, name + ".out")) as f:
                text = f.read()
        else:
            p = subprocess.run([os.path.join(HERE, "run.sh"), name], capture_output=True, text=True)
            if p.returncode != 0:
                print("FAIL %s: run.sh failed\n%s" % (name, p.stderr))
                failed += 1
                continue
            text = p.stdout
        err = check(name, text)
        if err:
            print("FAIL %s: %s" % (name, err))
            failed += 1
        else:
            n = sum(len(flat(x)) for x in REFS[name]())
            print("ok   %s (%d values)" % (name, n))
    print("%d of %d drivers match their reference" % (len(names) - failed, len(names)))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
