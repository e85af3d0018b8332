#!/usr/bin/env python3
"""Generates the seed-workload examples: examples/*.lfir and the drivers
examples/run/*.mlir. Each kernel comes from one template, instantiated at the
example's size and at the driver's small size, so the two cannot drift apart.
Edit this script and rerun it rather than editing the generated files; it can
also print a kernel at other sizes (e.g. the GPU benchmark sizes): see USAGE."""
import os
import sys
from string import Template

EX = os.path.dirname(os.path.abspath(__file__))
RUN = os.path.join(EX, "run")


def T(_tmpl, **kw):
    return Template(_tmpl).substitute(**kw)


def mr(shape, elt="f32"):
    return "memref<" + "x".join(str(d) for d in shape) + "x" + elt + ">"


# ---------------------------------------------------------------- kernels

def k_fig3(N):
    m = mr([N])
    return T("""func.func @fig3_chain(%X: $m, %B: $m, %A: $m) {
  %two = arith.constant 2.000000e+00 : f32
  // L1: B[i] = f(X[i])
  affine.for %i = 0 to $N {
    %x = affine.load %X[%i] : $m
    %f = arith.mulf %x, %two : f32
    affine.store %f, %B[%i] : $m
  }
  // L2: A[i] = B[i-1] + B[i+1]
  affine.for %i = 1 to $Nm1 {
    %l = affine.load %B[%i - 1] : $m
    %r = affine.load %B[%i + 1] : $m
    %s = arith.addf %l, %r : f32
    affine.store %s, %A[%i] : $m
  }
  return
}
""", m=m, N=N, Nm1=N - 1)


def k_fig3_dead(N):
    m = mr([N])
    return T("""func.func @fig3_dead(%X: $m, %A: $m) {
  %two = arith.constant 2.000000e+00 : f32
  // B is local: dead after the chain
  %B = memref.alloc() : $m
  // L1: B[i] = f(X[i])
  affine.for %i = 0 to $N {
    %x = affine.load %X[%i] : $m
    %f = arith.mulf %x, %two : f32
    affine.store %f, %B[%i] : $m
  }
  // L2: A[i] = B[i-1] + B[i+1]
  affine.for %i = 1 to $Nm1 {
    %l = affine.load %B[%i - 1] : $m
    %r = affine.load %B[%i + 1] : $m
    %s = arith.addf %l, %r : f32
    affine.store %s, %A[%i] : $m
  }
  memref.dealloc %B : $m
  return
}
""", m=m, N=N, Nm1=N - 1)


def k_ll18(N):
    m = mr([N, N])

    def nest2_stmt(out, q, p):
        # out[k][j] += s * (za[k][j]*(q[k][j]-q[k][j+1]) - za[k][j-1]*(q[k][j]-q[k][j-1])
        #                  - zb[k][j]*(q[k][j]-q[k-1][j]) + zb[k+1][j]*(q[k][j]-q[k+1][j]))
        return T("""      // $out[k][j] += s * (za[k][j] * ($q[k][j] - $q[k][j+1]) - za[k][j-1] * ($q[k][j] - $q[k][j-1])
      //                 - zb[k][j] * ($q[k][j] - $q[k-1][j]) + zb[k+1][j] * ($q[k][j] - $q[k+1][j]))
      %${p}0 = affine.load %za[%k, %j] : $m
      %${p}1 = affine.load %$q[%k, %j] : $m
      %${p}2 = affine.load %$q[%k, %j + 1] : $m
      %${p}3 = arith.subf %${p}1, %${p}2 : f32
      %${p}4 = arith.mulf %${p}0, %${p}3 : f32
      %${p}5 = affine.load %za[%k, %j - 1] : $m
      %${p}6 = affine.load %$q[%k, %j] : $m
      %${p}7 = affine.load %$q[%k, %j - 1] : $m
      %${p}8 = arith.subf %${p}6, %${p}7 : f32
      %${p}9 = arith.mulf %${p}5, %${p}8 : f32
      %${p}10 = arith.subf %${p}4, %${p}9 : f32
      %${p}11 = affine.load %zb[%k, %j] : $m
      %${p}12 = affine.load %$q[%k, %j] : $m
      %${p}13 = affine.load %$q[%k - 1, %j] : $m
      %${p}14 = arith.subf %${p}12, %${p}13 : f32
      %${p}15 = arith.mulf %${p}11, %${p}14 : f32
      %${p}16 = arith.subf %${p}10, %${p}15 : f32
      %${p}17 = affine.load %zb[%k + 1, %j] : $m
      %${p}18 = affine.load %$q[%k, %j] : $m
      %${p}19 = affine.load %$q[%k + 1, %j] : $m
      %${p}20 = arith.subf %${p}18, %${p}19 : f32
      %${p}21 = arith.mulf %${p}17, %${p}20 : f32
      %${p}22 = arith.addf %${p}16, %${p}21 : f32
      %${p}23 = arith.mulf %s, %${p}22 : f32
      %${p}24 = affine.load %$out[%k, %j] : $m
      %${p}25 = arith.addf %${p}24, %${p}23 : f32
      affine.store %${p}25, %$out[%k, %j] : $m
""", out=out, q=q, p=p, m=m)

    args = ", ".join("%" + a + ": " + m for a in
                     ["za", "zb", "zp", "zq", "zr", "zm", "zu", "zv", "zz"])
    return T("""func.func @ll18($args) {
  %t = arith.constant 3.700000e-03 : f32
  %s = arith.constant 4.100000e-03 : f32
  // nest 1: za, zb
  affine.for %k = 1 to $Nm1 {
    affine.for %j = 1 to $Nm1 {
      // za[k][j] = (zp[k+1][j-1] + zq[k+1][j-1] - zp[k][j-1] - zq[k][j-1])
      //          * (zr[k][j] + zr[k][j-1]) / (zm[k][j-1] + zm[k+1][j-1])
      %a0 = affine.load %zp[%k + 1, %j - 1] : $m
      %a1 = affine.load %zq[%k + 1, %j - 1] : $m
      %a2 = arith.addf %a0, %a1 : f32
      %a3 = affine.load %zp[%k, %j - 1] : $m
      %a4 = arith.subf %a2, %a3 : f32
      %a5 = affine.load %zq[%k, %j - 1] : $m
      %a6 = arith.subf %a4, %a5 : f32
      %a7 = affine.load %zr[%k, %j] : $m
      %a8 = affine.load %zr[%k, %j - 1] : $m
      %a9 = arith.addf %a7, %a8 : f32
      %a10 = arith.mulf %a6, %a9 : f32
      %a11 = affine.load %zm[%k, %j - 1] : $m
      %a12 = affine.load %zm[%k + 1, %j - 1] : $m
      %a13 = arith.addf %a11, %a12 : f32
      %a14 = arith.divf %a10, %a13 : f32
      affine.store %a14, %za[%k, %j] : $m
      // zb[k][j] = (zp[k][j-1] + zq[k][j-1] - zp[k][j] - zq[k][j])
      //          * (zr[k][j] + zr[k-1][j]) / (zm[k][j] + zm[k][j-1])
      %b0 = affine.load %zp[%k, %j - 1] : $m
      %b1 = affine.load %zq[%k, %j - 1] : $m
      %b2 = arith.addf %b0, %b1 : f32
      %b3 = affine.load %zp[%k, %j] : $m
      %b4 = arith.subf %b2, %b3 : f32
      %b5 = affine.load %zq[%k, %j] : $m
      %b6 = arith.subf %b4, %b5 : f32
      %b7 = affine.load %zr[%k, %j] : $m
      %b8 = affine.load %zr[%k - 1, %j] : $m
      %b9 = arith.addf %b7, %b8 : f32
      %b10 = arith.mulf %b6, %b9 : f32
      %b11 = affine.load %zm[%k, %j] : $m
      %b12 = affine.load %zm[%k, %j - 1] : $m
      %b13 = arith.addf %b11, %b12 : f32
      %b14 = arith.divf %b10, %b13 : f32
      affine.store %b14, %zb[%k, %j] : $m
    }
  }
  // nest 2: zu, zv
  affine.for %k = 1 to $Nm1 {
    affine.for %j = 1 to $Nm1 {
$s_u$s_v    }
  }
  // nest 3: zr, zz
  affine.for %k = 1 to $Nm1 {
    affine.for %j = 1 to $Nm1 {
      // zr[k][j] = zr[k][j] + t * zu[k][j]
      %e0 = affine.load %zr[%k, %j] : $m
      %e1 = affine.load %zu[%k, %j] : $m
      %e2 = arith.mulf %t, %e1 : f32
      %e3 = arith.addf %e0, %e2 : f32
      affine.store %e3, %zr[%k, %j] : $m
      // zz[k][j] = zz[k][j] + t * zv[k][j]
      %f0 = affine.load %zz[%k, %j] : $m
      %f1 = affine.load %zv[%k, %j] : $m
      %f2 = arith.mulf %t, %f1 : f32
      %f3 = arith.addf %f0, %f2 : f32
      affine.store %f3, %zz[%k, %j] : $m
    }
  }
  return
}
""", args=args, m=m, Nm1=N - 1, s_u=nest2_stmt("zu", "zz", "c"),
             s_v=nest2_stmt("zv", "zr", "d"))


def k_stencil4(N, dead=False):
    """dead: A1..A3 are local allocations (dead after the chain), A0 and A4
    the arguments (@stencil4_dead)."""
    m = mr([N, N])
    args = ", ".join("%A" + str(i) + ": " + m for i in ((0, 4) if dead else range(5)))
    body = ""
    if dead:
        body += "  // the intermediates are local: dead after the chain\n"
        body += "".join("  %%A%d = memref.alloc() : %s\n" % (i, m) for i in range(1, 4))
    for s in range(1, 5):
        body += T("""  // stage $s: A$s[i][j] = 0.2 * (A$p[i][j] + A$p[i-1][j] + A$p[i+1][j] + A$p[i][j-1] + A$p[i][j+1]),
  //          i, j in [$s, $hi)
  affine.for %i = $s to $hi {
    affine.for %j = $s to $hi {
      %c = affine.load %A$p[%i, %j] : $m
      %n = affine.load %A$p[%i - 1, %j] : $m
      %s0 = arith.addf %c, %n : f32
      %so = affine.load %A$p[%i + 1, %j] : $m
      %s1 = arith.addf %s0, %so : f32
      %w = affine.load %A$p[%i, %j - 1] : $m
      %s2 = arith.addf %s1, %w : f32
      %e = affine.load %A$p[%i, %j + 1] : $m
      %s3 = arith.addf %s2, %e : f32
      %v = arith.mulf %fifth, %s3 : f32
      affine.store %v, %A$s[%i, %j] : $m
    }
  }
""", s=s, p=s - 1, hi=N - s, m=m)
    if dead:
        body += "".join("  memref.dealloc %%A%d : %s\n" % (i, m) for i in range(1, 4))
    return T("""func.func @$name($args) {
  %fifth = arith.constant 2.000000e-01 : f32
$body  return
}
""", name="stencil4_dead" if dead else "stencil4_chain", args=args, body=body)


def k_stencil4_dead(N):
    return k_stencil4(N, dead=True)


def k_matmul(M, N, K):
    a, b, c = mr([M, K]), mr([K, N]), mr([M, N])
    return T("""func.func @matmul(%A: $a, %B: $b, %C: $c) {
  %zero = arith.constant 0.000000e+00 : f32
  affine.for %i = 0 to $M {
    affine.for %j = 0 to $N {
      // sum = 0; for k: sum += A[i][k] * B[k][j]; C[i][j] = sum
      %sum = affine.for %k = 0 to $K iter_args(%acc = %zero) -> (f32) {
        %x = affine.load %A[%i, %k] : $a
        %y = affine.load %B[%k, %j] : $b
        %p = arith.mulf %x, %y : f32
        %s = arith.addf %acc, %p : f32
        affine.yield %s : f32
      }
      affine.store %sum, %C[%i, %j] : $c
    }
  }
  return
}
""", a=a, b=b, c=c, M=M, N=N, K=K)


def k_matvec(M, N):
    a, b, c = mr([M, N]), mr([N]), mr([M])
    return T("""func.func @matvec(%A: $a, %b: $b, %c: $c) {
  %zero = arith.constant 0.000000e+00 : f32
  affine.for %i = 0 to $M {
    // sum = 0; for j: sum += A[i][j] * b[j]; c[i] = sum
    %sum = affine.for %j = 0 to $N iter_args(%acc = %zero) -> (f32) {
      %x = affine.load %A[%i, %j] : $a
      %y = affine.load %b[%j] : $b
      %p = arith.mulf %x, %y : f32
      %s = arith.addf %acc, %p : f32
      affine.yield %s : f32
    }
    affine.store %sum, %c[%i] : $c
  }
  return
}
""", a=a, b=b, c=c, M=M, N=N)


def k_transpose(M, N):
    a, b = mr([M, N]), mr([N, M])
    return T("""func.func @transpose(%in: $a, %out: $b) {
  // out[j][i] = in[i][j]
  affine.for %i = 0 to $M {
    affine.for %j = 0 to $N {
      %v = affine.load %in[%i, %j] : $a
      affine.store %v, %out[%j, %i] : $b
    }
  }
  return
}
""", a=a, b=b, M=M, N=N)


def k_complex_scale(N):
    v = mr([2 * N])
    return T("""func.func @complex_scale(%x: $v, %y: $v) {
  // (re, im) = (0.6, 0.8): y = (re + i im) * x for each of the N complex numbers
  %re = arith.constant 6.000000e-01 : f32
  %im = arith.constant 8.000000e-01 : f32
  affine.for %i = 0 to $N {
    %xr = affine.load %x[2 * %i] : $v
    %xi = affine.load %x[2 * %i + 1] : $v
    %a = arith.mulf %re, %xr : f32
    %b = arith.mulf %im, %xi : f32
    %yr = arith.subf %a, %b : f32
    %c = arith.mulf %re, %xi : f32
    %d = arith.mulf %im, %xr : f32
    %yi = arith.addf %c, %d : f32
    affine.store %yr, %y[2 * %i] : $v
    affine.store %yi, %y[2 * %i + 1] : $v
  }
  return
}
""", v=v, N=N)


def k_lu(N):
    m = mr([N, N])
    return T("""func.func @lu(%A: $m) {
  affine.for %k = 0 to $N {
    // for j in [k+1, N): A[k][j] = A[k][j] / A[k][k]
    affine.for %j = affine_map<(d0) -> (d0 + 1)>(%k) to $N {
      %x = affine.load %A[%k, %j] : $m
      %p = affine.load %A[%k, %k] : $m
      %d = arith.divf %x, %p : f32
      affine.store %d, %A[%k, %j] : $m
    }
    // for i, j in [k+1, N): A[i][j] = A[i][j] - A[i][k] * A[k][j]
    affine.for %i = affine_map<(d0) -> (d0 + 1)>(%k) to $N {
      affine.for %j = affine_map<(d0) -> (d0 + 1)>(%k) to $N {
        %x = affine.load %A[%i, %j] : $m
        %l = affine.load %A[%i, %k] : $m
        %u = affine.load %A[%k, %j] : $m
        %p = arith.mulf %l, %u : f32
        %s = arith.subf %x, %p : f32
        affine.store %s, %A[%i, %j] : $m
      }
    }
  }
  return
}
""", m=m, N=N)


def k_syn_lm(TH, O):
    tr, v = mr([TH, O], "i32"), mr([TH])
    return T("""func.func @syn_lm(%trips: $tr, %X: $v, %Y: $v) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %zero = arith.constant 0.000000e+00 : f32
  %k0 = arith.constant 8.750000e-01 : f32
  %k1 = arith.constant 1.125000e+00 : f32
  %k2 = arith.constant -5.000000e-01 : f32
  %k3 = arith.constant 9.375000e-01 : f32
  %k4 = arith.constant 2.500000e-01 : f32
  %k5 = arith.constant 1.062500e+00 : f32
  // one GPU thread per t
  affine.for %t = 0 to $TH {
    %x = affine.load %X[%t] : $v
    %nx = arith.negf %x : f32
    // outer loop: uniform trip count
    %r:2 = affine.for %o = 0 to $O iter_args(%v0 = %x, %sum0 = %zero) -> (f32, f32) {
      // inner prologue: the trip count is data dependent (differs between threads)
      %n32 = affine.load %trips[%t, %o] : $tr
      %n = arith.index_cast %n32 : i32 to index
      // divergent inner loop, body of 4 FMAs
      %v = scf.for %i = %c0 to %n step %c1 iter_args(%w = %v0) -> (f32) {
        %w1 = math.fma %w, %k0, %x : f32
        %w2 = math.fma %w1, %k1, %k2 : f32
        %w3 = math.fma %w2, %k3, %k4 : f32
        %w4 = math.fma %w3, %k5, %nx : f32
        scf.yield %w4 : f32
      }
      // inner epilogue
      %sum = arith.addf %sum0, %v : f32
      affine.yield %v, %sum : f32, f32
    }
    affine.store %r#1, %Y[%t] : $v
  }
  return
}
""", tr=tr, v=v, TH=TH, O=O)


# the SYN-LM benchmark rows (bench/gpu/loopmerge.sh): (FMAs per inner
# iteration, VAR) of each workload syn_lm_f<FMAS>_var<VAR>
SYN_LM_BENCH = {"syn_lm_f%d_var%d" % (f, var): (f, var) for f in (4, 32) for var in (0, 5, 10)}

# the anchor's hash2 (../shared/anchors-gpu/synlm.cu); the generated code
# multiplies by the constants' signed 32-bit values (|k| < 2^31) in i64 and
# masks to 32 bits: the same low 32 bits, and no signed overflow (undefined
# in the C that lf-translate writes)
HASH_K = [0x9E3779B1, 0x7F4A7C15, 0x85EBCA77, 0x2C1B3C6D, 0x297A2D39]


def i32c(k):
    """k (an unsigned 32-bit value) as a signed 32-bit value."""
    return k - (1 << 32) if k >= 1 << 31 else k


def syn_lm_hash(t, o):
    """n(t, o)'s hash: the i32 arithmetic of k_syn_lm_bench, in Python (for
    examples/run/check.py)."""
    m = 0xFFFFFFFF
    h = ((t * HASH_K[0]) & m) ^ (((o + HASH_K[1]) * HASH_K[2]) & m)
    h ^= h >> 15
    h = (h * HASH_K[3]) & m
    h ^= h >> 12
    h = (h * HASH_K[4]) & m
    h ^= h >> 15
    return h


def syn_lm_trips(t, o, var):
    """The inner trip count of thread t in outer iteration o: uniform on
    [20 - var, 20 + var]."""
    return 20 - var + syn_lm_hash(t, o) % (2 * var + 1)


def k_syn_lm_bench(TH, O, FMAS, VAR):
    """SYN-LM as ../shared/anchors-gpu/synlm.cu measures it: the trip-count
    table trips[o][t] (i8, as the anchor's uint8 table, o-major so that the
    threads of a warp read neighbouring bytes) is filled inside the function by
    an affine nest (the anchor's lm_gen: an integer hash of (t, o)), then the
    nest: per thread four accumulators, FMAS / 4 repetitions of the anchor's
    four FMAs per inner iteration (y's with 1.0 for the anchor's 0.75: a
    counter, so that the result depends on every trip count), acc += w after
    each inner loop."""
    assert FMAS % 4 == 0 and 0 <= VAR < 20
    tr, v = mr([O, TH], "i8"), mr([TH])
    body, cur = "", ["%x0", "%y0", "%z0", "%w0"]
    for r in range(FMAS // 4):
        x, y, z, w = cur
        body += T("""        %x$r = math.fma $x, %half, $y : f32
        %y$r = math.fma $y, %one, %k025 : f32
        %z$r = math.fma $z, %half, %x$r : f32
        %w$r = math.fma $w, %k025, %z$r : f32
""", r=r + 1, x=x, y=y, z=z, w=w)
        cur = ["%%%s%d" % (c, r + 1) for c in "xyzw"]
    hk = [i32c(k) for k in HASH_K]
    return T("""func.func @syn_lm_f${FMAS}_var${VAR}(%X: $v, %Y: $v) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %zero = arith.constant 0.000000e+00 : f32
  %half = arith.constant 5.000000e-01 : f32
  %one = arith.constant 1.000000e+00 : f32
  %k025 = arith.constant 2.500000e-01 : f32
  %y00 = arith.constant 2.000000e-01 : f32
  %z00 = arith.constant 3.000000e-01 : f32
  %w00 = arith.constant 4.000000e-01 : f32
  %h0 = arith.constant $h0 : i64
  %h1 = arith.constant $h1 : i64
  %h2 = arith.constant $h2 : i64
  %h3 = arith.constant $h3 : i64
  %h4 = arith.constant $h4 : i64
  %mask = arith.constant 4294967295 : i64
  %s12 = arith.constant 12 : i64
  %s15 = arith.constant 15 : i64
  %lo = arith.constant $lo : i64
  %span = arith.constant $span : i64
  // the inner trip counts: trips[o][t] = 20 - VAR + hash(t, o) mod (2 VAR + 1),
  // hash the reference's 32-bit hash2(t, o), computed in i64 with each product
  // masked to 32 bits (no product overflows i64: |constant| < 2^31)
  %trips = memref.alloc() : $tr
  affine.for %o = 0 to $O {
    affine.for %t = 0 to $TH {
      %ti = arith.index_cast %t : index to i64
      %oi = arith.index_cast %o : index to i64
      %a0 = arith.muli %ti, %h0 : i64
      %a1 = arith.andi %a0, %mask : i64
      %b0 = arith.addi %oi, %h1 : i64
      %b1 = arith.muli %b0, %h2 : i64
      %b2 = arith.andi %b1, %mask : i64
      %g0 = arith.xori %a1, %b2 : i64
      %g1 = arith.shrui %g0, %s15 : i64
      %g2 = arith.xori %g0, %g1 : i64
      %g3 = arith.muli %g2, %h3 : i64
      %g4 = arith.andi %g3, %mask : i64
      %g5 = arith.shrui %g4, %s12 : i64
      %g6 = arith.xori %g4, %g5 : i64
      %g7 = arith.muli %g6, %h4 : i64
      %g8 = arith.andi %g7, %mask : i64
      %g9 = arith.shrui %g8, %s15 : i64
      %g10 = arith.xori %g8, %g9 : i64
      %m = arith.remui %g10, %span : i64
      %n = arith.addi %m, %lo : i64
      %n8 = arith.trunci %n : i64 to i8
      affine.store %n8, %trips[%o, %t] : $tr
    }
  }
  // one GPU thread per t
  affine.for %t = 0 to $TH {
    %x00 = affine.load %X[%t] : $v
    // outer loop: uniform trip count
    %r:5 = affine.for %o = 0 to $O iter_args(%x = %x00, %y = %y00, %z = %z00, %w = %w00, %acc0 = %zero)
        -> (f32, f32, f32, f32, f32) {
      // inner prologue: the trip count is data dependent (differs between threads)
      %n8 = affine.load %trips[%o, %t] : $tr
      %n32 = arith.extui %n8 : i8 to i32
      %n = arith.index_cast %n32 : i32 to index
      // divergent inner loop, body of $FMAS FMAs
      %b:4 = scf.for %i = %c0 to %n step %c1 iter_args(%x0 = %x, %y0 = %y, %z0 = %z, %w0 = %w)
          -> (f32, f32, f32, f32) {
$body        scf.yield $cur : f32, f32, f32, f32
      }
      // inner epilogue
      %acc = arith.addf %acc0, %b#3 : f32
      affine.yield %b#0, %b#1, %b#2, %b#3, %acc : f32, f32, f32, f32, f32
    }
    affine.store %r#4, %Y[%t] : $v
  }
  memref.dealloc %trips : $tr
  return
}
""", v=v, tr=tr, TH=TH, O=O, FMAS=FMAS, VAR=VAR, body=body, cur=", ".join(cur),
             h0=hk[0], h1=hk[1], h2=hk[2], h3=hk[3], h4=hk[4], lo=20 - VAR, span=2 * VAR + 1)


def bench_syn_lm(name):
    f, var = SYN_LM_BENCH[name]
    return lambda TH, O: k_syn_lm_bench(TH, O, f, var)


def offs():
    for d3 in (-1, 0, 1):
        for d2 in (-1, 0, 1):
            for d1 in (-1, 0, 1):
                yield (d3, d2, d1)


def aff(var, scale, d):
    e = "%" + var + " * " + str(scale) if scale != 1 else "%" + var
    if d > 0:
        e += " + " + str(d)
    elif d < 0:
        e += " - " + str(-d)
    return e


def k_rprj3(MK, MJ):
    r, s = mr([MK] * 3, "f64"), mr([MJ] * 3, "f64")
    groups = {0: [], 1: [], 2: [], 3: []}
    for o in offs():
        groups[sum(1 for x in o if x != 0)].append(o)
    names = {0: "center", 1: "faces", 2: "edges", 3: "corners"}
    weights = {0: "%w0", 1: "%w1", 2: "%w2", 3: "%w3"}
    body = ""
    tot = []
    for g in range(4):
        body += "        // %s (%d point%s)\n" % (names[g], len(groups[g]), "s" if len(groups[g]) > 1 else "")
        prev = None
        for n, (d3, d2, d1) in enumerate(groups[g]):
            nm = "%%g%d_%d" % (g, n)
            body += "        %s = affine.load %%r[%s, %s, %s] : %s\n" % (
                nm, aff("j3", 2, d3), aff("j2", 2, d2), aff("j1", 2, d1), r)
            if prev is None:
                prev = nm
            else:
                acc = "%%g%d_s%d" % (g, n)
                body += "        %s = arith.addf %s, %s : f64\n" % (acc, prev, nm)
                prev = acc
        t = "%%t%d" % g
        body += "        %s = arith.mulf %s, %s : f64\n" % (t, weights[g], prev)
        tot.append(t)
    body += "        %%u1 = arith.addf %s, %s : f64\n" % (tot[0], tot[1])
    body += "        %%u2 = arith.addf %%u1, %s : f64\n" % tot[2]
    body += "        %%u3 = arith.addf %%u2, %s : f64\n" % tot[3]
    body += "        affine.store %%u3, %%s[%%j3, %%j2, %%j1] : %s\n" % s
    return T("""func.func @rprj3(%r: $r, %s: $s) {
  %w0 = arith.constant 5.000000e-01 : f64
  %w1 = arith.constant 2.500000e-01 : f64
  %w2 = arith.constant 1.250000e-01 : f64
  %w3 = arith.constant 6.250000e-02 : f64
  // s[j3][j2][j1] = 0.5 * r[c] + 0.25 * sum(6 faces) + 0.125 * sum(12 edges)
  //               + 0.0625 * sum(8 corners),   c = (2*j3, 2*j2, 2*j1)
  affine.for %j3 = 1 to $MJm1 {
    affine.for %j2 = 1 to $MJm1 {
      affine.for %j1 = 1 to $MJm1 {
$body      }
    }
  }
  return
}
""", r=r, s=s, MJm1=MJ - 1, body=body)


def k_interp(MM, MU):
    z, u = mr([MM] * 3, "f64"), mr([MU] * 3, "f64")
    return T("""func.func @interp(%z: $z, %u: $u) {
  %half = arith.constant 5.000000e-01 : f64
  %quarter = arith.constant 2.500000e-01 : f64
  %eighth = arith.constant 1.250000e-01 : f64
  affine.for %i3 = 0 to $MMm1 {
    affine.for %i2 = 0 to $MMm1 {
      affine.for %i1 = 0 to $MMm1 {
        // the 2x2x2 corner values of coarse cell (i3, i2, i1); zABC = z[i3+A][i2+B][i1+C]
        %z000 = affine.load %z[%i3, %i2, %i1] : $z
        %z001 = affine.load %z[%i3, %i2, %i1 + 1] : $z
        %z010 = affine.load %z[%i3, %i2 + 1, %i1] : $z
        %z011 = affine.load %z[%i3, %i2 + 1, %i1 + 1] : $z
        %z100 = affine.load %z[%i3 + 1, %i2, %i1] : $z
        %z101 = affine.load %z[%i3 + 1, %i2, %i1 + 1] : $z
        %z110 = affine.load %z[%i3 + 1, %i2 + 1, %i1] : $z
        %z111 = affine.load %z[%i3 + 1, %i2 + 1, %i1 + 1] : $z
        // mgrid's z1, z2, z3 at i1 (suffix a) and i1 + 1 (suffix b)
        %z1a = arith.addf %z010, %z000 : f64
        %z1b = arith.addf %z011, %z001 : f64
        %z2a = arith.addf %z100, %z000 : f64
        %z2b = arith.addf %z101, %z001 : f64
        %z3t = arith.addf %z110, %z100 : f64
        %z3a = arith.addf %z3t, %z1a : f64
        %z3u = arith.addf %z111, %z101 : f64
        %z3b = arith.addf %z3u, %z1b : f64
        // u[2i3][2i2][2i1] += z000
        %u0 = affine.load %u[%i3 * 2, %i2 * 2, %i1 * 2] : $u
        %n0 = arith.addf %u0, %z000 : f64
        affine.store %n0, %u[%i3 * 2, %i2 * 2, %i1 * 2] : $u
        // u[2i3][2i2][2i1+1] += 0.5 * (z001 + z000)
        %v1 = arith.addf %z001, %z000 : f64
        %h1 = arith.mulf %half, %v1 : f64
        %u1 = affine.load %u[%i3 * 2, %i2 * 2, %i1 * 2 + 1] : $u
        %n1 = arith.addf %u1, %h1 : f64
        affine.store %n1, %u[%i3 * 2, %i2 * 2, %i1 * 2 + 1] : $u
        // u[2i3][2i2+1][2i1] += 0.5 * z1a
        %h2 = arith.mulf %half, %z1a : f64
        %u2 = affine.load %u[%i3 * 2, %i2 * 2 + 1, %i1 * 2] : $u
        %n2 = arith.addf %u2, %h2 : f64
        affine.store %n2, %u[%i3 * 2, %i2 * 2 + 1, %i1 * 2] : $u
        // u[2i3][2i2+1][2i1+1] += 0.25 * (z1a + z1b)
        %v3 = arith.addf %z1a, %z1b : f64
        %h3 = arith.mulf %quarter, %v3 : f64
        %u3 = affine.load %u[%i3 * 2, %i2 * 2 + 1, %i1 * 2 + 1] : $u
        %n3 = arith.addf %u3, %h3 : f64
        affine.store %n3, %u[%i3 * 2, %i2 * 2 + 1, %i1 * 2 + 1] : $u
        // u[2i3+1][2i2][2i1] += 0.5 * z2a
        %h4 = arith.mulf %half, %z2a : f64
        %u4 = affine.load %u[%i3 * 2 + 1, %i2 * 2, %i1 * 2] : $u
        %n4 = arith.addf %u4, %h4 : f64
        affine.store %n4, %u[%i3 * 2 + 1, %i2 * 2, %i1 * 2] : $u
        // u[2i3+1][2i2][2i1+1] += 0.25 * (z2a + z2b)
        %v5 = arith.addf %z2a, %z2b : f64
        %h5 = arith.mulf %quarter, %v5 : f64
        %u5 = affine.load %u[%i3 * 2 + 1, %i2 * 2, %i1 * 2 + 1] : $u
        %n5 = arith.addf %u5, %h5 : f64
        affine.store %n5, %u[%i3 * 2 + 1, %i2 * 2, %i1 * 2 + 1] : $u
        // u[2i3+1][2i2+1][2i1] += 0.25 * z3a
        %h6 = arith.mulf %quarter, %z3a : f64
        %u6 = affine.load %u[%i3 * 2 + 1, %i2 * 2 + 1, %i1 * 2] : $u
        %n6 = arith.addf %u6, %h6 : f64
        affine.store %n6, %u[%i3 * 2 + 1, %i2 * 2 + 1, %i1 * 2] : $u
        // u[2i3+1][2i2+1][2i1+1] += 0.125 * (z3a + z3b)
        %v7 = arith.addf %z3a, %z3b : f64
        %h7 = arith.mulf %eighth, %v7 : f64
        %u7 = affine.load %u[%i3 * 2 + 1, %i2 * 2 + 1, %i1 * 2 + 1] : $u
        %n7 = arith.addf %u7, %h7 : f64
        affine.store %n7, %u[%i3 * 2 + 1, %i2 * 2 + 1, %i1 * 2 + 1] : $u
      }
    }
  }
  return
}
""", z=z, u=u, MMm1=MM - 1)


def k_gemm(NI, NJ, NK):
    c, a, b = mr([NI, NJ]), mr([NI, NK]), mr([NK, NJ])
    return T("""func.func @gemm(%alpha: f32, %beta: f32, %C: $c, %A: $a, %B: $b) {
  affine.for %i = 0 to $NI {
    affine.for %j = 0 to $NJ {
      // C[i][j] *= beta
      %c0 = affine.load %C[%i, %j] : $c
      %c1 = arith.mulf %c0, %beta : f32
      affine.store %c1, %C[%i, %j] : $c
      // for k: C[i][j] += alpha * A[i][k] * B[k][j]
      affine.for %k = 0 to $NK {
        %x = affine.load %A[%i, %k] : $a
        %ax = arith.mulf %alpha, %x : f32
        %y = affine.load %B[%k, %j] : $b
        %p = arith.mulf %ax, %y : f32
        %c2 = affine.load %C[%i, %j] : $c
        %c3 = arith.addf %c2, %p : f32
        affine.store %c3, %C[%i, %j] : $c
      }
    }
  }
  return
}
""", a=a, b=b, c=c, NI=NI, NJ=NJ, NK=NK)


def k_jacobi(N, TS):
    m = mr([N, N])
    return T("""func.func @jacobi_2d(%A: $m, %B: $m) {
  %fifth = arith.constant 2.000000e-01 : f32
  affine.for %t = 0 to $TS {
    // B[i][j] = 0.2 * (A[i][j] + A[i][j-1] + A[i][j+1] + A[i+1][j] + A[i-1][j])
    affine.for %i = 1 to $Nm1 {
      affine.for %j = 1 to $Nm1 {
        %a0 = affine.load %A[%i, %j] : $m
        %a1 = affine.load %A[%i, %j - 1] : $m
        %s1 = arith.addf %a0, %a1 : f32
        %a2 = affine.load %A[%i, %j + 1] : $m
        %s2 = arith.addf %s1, %a2 : f32
        %a3 = affine.load %A[%i + 1, %j] : $m
        %s3 = arith.addf %s2, %a3 : f32
        %a4 = affine.load %A[%i - 1, %j] : $m
        %s4 = arith.addf %s3, %a4 : f32
        %v = arith.mulf %fifth, %s4 : f32
        affine.store %v, %B[%i, %j] : $m
      }
    }
    // A[i][j] = B[i][j]
    affine.for %i = 1 to $Nm1 {
      affine.for %j = 1 to $Nm1 {
        %b = affine.load %B[%i, %j] : $m
        affine.store %b, %A[%i, %j] : $m
      }
    }
  }
  return
}
""", m=m, Nm1=N - 1, TS=TS)


def k_fdtd(NX, NY, TM):
    m, f = mr([NX, NY]), mr([TM])
    return T("""func.func @fdtd_2d(%ex: $m, %ey: $m, %hz: $m, %fict: $f) {
  %half = arith.constant 5.000000e-01 : f32
  %c07 = arith.constant 0.699999988 : f32
  affine.for %t = 0 to $TM {
    // ey[0][j] = fict[t]
    affine.for %j = 0 to $NY {
      %f = affine.load %fict[%t] : $f
      affine.store %f, %ey[0, %j] : $m
    }
    // ey[i][j] = ey[i][j] - 0.5 * (hz[i][j] - hz[i-1][j])
    affine.for %i = 1 to $NX {
      affine.for %j = 0 to $NY {
        %e = affine.load %ey[%i, %j] : $m
        %h0 = affine.load %hz[%i, %j] : $m
        %h1 = affine.load %hz[%i - 1, %j] : $m
        %d = arith.subf %h0, %h1 : f32
        %p = arith.mulf %half, %d : f32
        %v = arith.subf %e, %p : f32
        affine.store %v, %ey[%i, %j] : $m
      }
    }
    // ex[i][j] = ex[i][j] - 0.5 * (hz[i][j] - hz[i][j-1])
    affine.for %i = 0 to $NX {
      affine.for %j = 1 to $NY {
        %e = affine.load %ex[%i, %j] : $m
        %h0 = affine.load %hz[%i, %j] : $m
        %h1 = affine.load %hz[%i, %j - 1] : $m
        %d = arith.subf %h0, %h1 : f32
        %p = arith.mulf %half, %d : f32
        %v = arith.subf %e, %p : f32
        affine.store %v, %ex[%i, %j] : $m
      }
    }
    // hz[i][j] = hz[i][j] - 0.7 * (ex[i][j+1] - ex[i][j] + ey[i+1][j] - ey[i][j])
    affine.for %i = 0 to $NXm1 {
      affine.for %j = 0 to $NYm1 {
        %h = affine.load %hz[%i, %j] : $m
        %x1 = affine.load %ex[%i, %j + 1] : $m
        %x0 = affine.load %ex[%i, %j] : $m
        %d0 = arith.subf %x1, %x0 : f32
        %y1 = affine.load %ey[%i + 1, %j] : $m
        %d1 = arith.addf %d0, %y1 : f32
        %y0 = affine.load %ey[%i, %j] : $m
        %d2 = arith.subf %d1, %y0 : f32
        %p = arith.mulf %c07, %d2 : f32
        %v = arith.subf %h, %p : f32
        affine.store %v, %hz[%i, %j] : $m
      }
    }
  }
  return
}
""", m=m, f=f, NX=NX, NY=NY, NXm1=NX - 1, NYm1=NY - 1, TM=TM)


def k_corr(N, M):
    d, s, v = mr([N, M]), mr([M, M]), mr([M])
    return T("""func.func @correlation(%float_n: f32, %data: $d, %symmat: $s, %mean: $v, %stddev: $v) {
  %zero = arith.constant 0.000000e+00 : f32
  %one = arith.constant 1.000000e+00 : f32
  %eps = arith.constant 1.000000e-01 : f32
  // mean of the column vectors
  affine.for %j = 0 to $M {
    affine.store %zero, %mean[%j] : $v
    affine.for %i = 0 to $N {
      %m = affine.load %mean[%j] : $v
      %x = affine.load %data[%i, %j] : $d
      %s = arith.addf %m, %x : f32
      affine.store %s, %mean[%j] : $v
    }
    %m = affine.load %mean[%j] : $v
    %q = arith.divf %m, %float_n : f32
    affine.store %q, %mean[%j] : $v
  }
  // standard deviations of the column vectors
  affine.for %j = 0 to $M {
    affine.store %zero, %stddev[%j] : $v
    affine.for %i = 0 to $N {
      %x = affine.load %data[%i, %j] : $d
      %m = affine.load %mean[%j] : $v
      %c = arith.subf %x, %m : f32
      %c2 = arith.mulf %c, %c : f32
      %s = affine.load %stddev[%j] : $v
      %a = arith.addf %s, %c2 : f32
      affine.store %a, %stddev[%j] : $v
    }
    %s0 = affine.load %stddev[%j] : $v
    %q = arith.divf %s0, %float_n : f32
    affine.store %q, %stddev[%j] : $v
    %s1 = affine.load %stddev[%j] : $v
    %r = math.sqrt %s1 : f32
    affine.store %r, %stddev[%j] : $v
    // stddev[j] = stddev[j] <= eps ? 1.0 : stddev[j]
    %s2 = affine.load %stddev[%j] : $v
    %le = arith.cmpf ole, %s2, %eps : f32
    %sel = arith.select %le, %one, %s2 : f32
    affine.store %sel, %stddev[%j] : $v
  }
  // center and reduce the column vectors
  affine.for %i = 0 to $N {
    affine.for %j = 0 to $M {
      %x = affine.load %data[%i, %j] : $d
      %m = affine.load %mean[%j] : $v
      %c = arith.subf %x, %m : f32
      affine.store %c, %data[%i, %j] : $d
      %y = affine.load %data[%i, %j] : $d
      %sn = math.sqrt %float_n : f32
      %sd = affine.load %stddev[%j] : $v
      %den = arith.mulf %sn, %sd : f32
      %r = arith.divf %y, %den : f32
      affine.store %r, %data[%i, %j] : $d
    }
  }
  // the M x M correlation matrix
  affine.for %j1 = 0 to $Mm1 {
    affine.store %one, %symmat[%j1, %j1] : $s
    affine.for %j2 = affine_map<(d0) -> (d0 + 1)>(%j1) to $M {
      affine.store %zero, %symmat[%j1, %j2] : $s
      affine.for %i = 0 to $N {
        %a = affine.load %data[%i, %j1] : $d
        %b = affine.load %data[%i, %j2] : $d
        %p = arith.mulf %a, %b : f32
        %c = affine.load %symmat[%j1, %j2] : $s
        %q = arith.addf %c, %p : f32
        affine.store %q, %symmat[%j1, %j2] : $s
      }
      %x = affine.load %symmat[%j1, %j2] : $s
      affine.store %x, %symmat[%j2, %j1] : $s
    }
  }
  affine.store %one, %symmat[$Mm1, $Mm1] : $s
  return
}
""", d=d, s=s, v=v, N=N, M=M, Mm1=M - 1)


def k_2mm(NI, NJ, NK, NL):
    tm, a, b, c, d = mr([NI, NJ]), mr([NI, NK]), mr([NK, NJ]), mr([NJ, NL]), mr([NI, NL])
    return T("""func.func @kernel_2mm(%alpha: f32, %beta: f32, %tmp: $tm, %A: $a, %B: $b, %C: $c, %D: $d) {
  %zero = arith.constant 0.000000e+00 : f32
  // tmp = alpha * A * B
  affine.for %i = 0 to $NI {
    affine.for %j = 0 to $NJ {
      // tmp[i][j] = 0
      affine.store %zero, %tmp[%i, %j] : $tm
      // for k: tmp[i][j] += alpha * A[i][k] * B[k][j]
      affine.for %k = 0 to $NK {
        %x = affine.load %A[%i, %k] : $a
        %ax = arith.mulf %alpha, %x : f32
        %y = affine.load %B[%k, %j] : $b
        %p = arith.mulf %ax, %y : f32
        %t0 = affine.load %tmp[%i, %j] : $tm
        %t1 = arith.addf %t0, %p : f32
        affine.store %t1, %tmp[%i, %j] : $tm
      }
    }
  }
  // D = beta * D + tmp * C
  affine.for %i = 0 to $NI {
    affine.for %j = 0 to $NL {
      // D[i][j] *= beta
      %d0 = affine.load %D[%i, %j] : $d
      %d1 = arith.mulf %d0, %beta : f32
      affine.store %d1, %D[%i, %j] : $d
      // for k: D[i][j] += tmp[i][k] * C[k][j]
      affine.for %k = 0 to $NJ {
        %x = affine.load %tmp[%i, %k] : $tm
        %y = affine.load %C[%k, %j] : $c
        %p = arith.mulf %x, %y : f32
        %d2 = affine.load %D[%i, %j] : $d
        %d3 = arith.addf %d2, %p : f32
        affine.store %d3, %D[%i, %j] : $d
      }
    }
  }
  return
}
""", tm=tm, a=a, b=b, c=c, d=d, NI=NI, NJ=NJ, NK=NK, NL=NL)


def k_doitgen(NR, NQ, NP):
    a, c4, s = mr([NR, NQ, NP]), mr([NP, NP]), mr([NR, NQ, NP])
    return T("""func.func @doitgen(%A: $a, %C4: $c4, %sum: $s) {
  %zero = arith.constant 0.000000e+00 : f32
  affine.for %r = 0 to $NR {
    affine.for %q = 0 to $NQ {
      affine.for %p = 0 to $NP {
        // sum[r][q][p] = 0
        affine.store %zero, %sum[%r, %q, %p] : $s
        // for s: sum[r][q][p] += A[r][q][s] * C4[s][p]
        affine.for %s = 0 to $NP {
          %x = affine.load %A[%r, %q, %s] : $a
          %y = affine.load %C4[%s, %p] : $c4
          %m = arith.mulf %x, %y : f32
          %s0 = affine.load %sum[%r, %q, %p] : $s
          %s1 = arith.addf %s0, %m : f32
          affine.store %s1, %sum[%r, %q, %p] : $s
        }
      }
      // A[r][q][p] = sum[r][q][p]
      affine.for %p = 0 to $NP {
        %v = affine.load %sum[%r, %q, %p] : $s
        affine.store %v, %A[%r, %q, %p] : $a
      }
    }
  }
  return
}
""", a=a, c4=c4, s=s, NR=NR, NQ=NQ, NP=NP)


# ---------------------------------------------------------------- drivers

def fill_loop(name, shape, elt, fill):
    """fill = (coeffs, c0, p, off): v = ((sum c_d * i_d + c0) mod p + off), then / 4
    for floats; for i32 the integer itself. fill None: zeros."""
    ty = mr(shape, elt)
    ivs = ["%%i%d" % d for d in range(len(shape))]
    ind = "  "
    out = ""
    for d, n in enumerate(shape):
        out += ind + "affine.for %s = 0 to %d {\n" % (ivs[d], n)
        ind += "  "
    if fill is None:
        z = "%zero" if elt == "f32" else "%zero64"
        out += ind + "affine.store %s, %%%s[%s] : %s\n" % (z, name, ", ".join(ivs), ty)
    else:
        coeffs, c0, p, off = fill
        dims = ", ".join("d%d" % d for d in range(len(shape)))
        terms = " + ".join("d%d * %d" % (d, c) if c != 1 else "d%d" % d
                           for d, c in enumerate(coeffs) if c != 0)
        if c0:
            terms += " + %d" % c0
        expr = "(%s) mod %d" % (terms, p)
        if off:
            expr = "(%s) + %d" % (expr, off)
        out += ind + "%%h = affine.apply affine_map<(%s) -> (%s)>(%s)\n" % (dims, expr, ", ".join(ivs))
        out += ind + "%hi = arith.index_cast %h : index to i32\n"
        if elt == "i32":
            out += ind + "affine.store %%hi, %%%s[%s] : %s\n" % (name, ", ".join(ivs), ty)
        else:
            four = "%four" if elt == "f32" else "%four64"
            out += ind + "%%hf = arith.sitofp %%hi : i32 to %s\n" % elt
            out += ind + "%%v = arith.divf %%hf, %s : %s\n" % (four, elt)
            out += ind + "affine.store %%v, %%%s[%s] : %s\n" % (name, ", ".join(ivs), ty)
    for d in range(len(shape)):
        ind = ind[:-2]
        out += ind + "}\n"
    return out


def driver(name, kernel, arrays, scalars, call_args, prints, extra="", lead=None):
    """arrays: [(name, shape, elt, fill)], scalars: [(name, value, elt)],
    call_args: names (arrays or scalars) in kernel order, prints: array names;
    lead: the first comment line (default: the driver of ../NAME.lfir)."""
    ty = {a[0]: mr(a[1], a[2]) for a in arrays}
    for s in scalars:
        ty[s[0]] = s[2]
    out = lead or "// Driver for ../%s.lfir: the same kernel at small sizes, plus a @main that fills the\n" % name
    out += "// inputs with deterministic values, calls it and prints the results. Run: ./run.sh;\n"
    out += "// compare against the Python reference: ./check.py.\n"
    out += kernel + "\n"
    pelts = []
    for p in prints:
        e = "f64" if "f64" in ty[p] else "f32"
        if e not in pelts:
            pelts.append(e)
    for e in pelts:
        out += "func.func private @printMemref%s(memref<*x%s>) attributes {llvm.emit_c_interface}\n" % (e.upper(), e)
    out += "\nfunc.func @main() {\n"
    if any(a[3] is None and a[2] == "f32" for a in arrays):
        out += "  %zero = arith.constant 0.000000e+00 : f32\n"
    if any(a[3] is not None and a[2] == "f32" for a in arrays):
        out += "  %four = arith.constant 4.000000e+00 : f32\n"
    if any(a[3] is None and a[2] == "f64" for a in arrays):
        out += "  %zero64 = arith.constant 0.000000e+00 : f64\n"
    if any(a[3] is not None and a[2] == "f64" for a in arrays):
        out += "  %four64 = arith.constant 4.000000e+00 : f64\n"
    for s in scalars:
        out += "  %%%s = arith.constant %s : %s\n" % s
    for a in arrays:
        out += "  %%%s = memref.alloc() : %s\n" % (a[0], ty[a[0]])
    for a in arrays:
        out += fill_loop(*a)
    out += extra
    out += "  call @%s(%s) : (%s) -> ()\n" % (
        kernel.split("@")[1].split("(")[0], ", ".join("%" + c for c in call_args),
        ", ".join(ty[c] for c in call_args))
    for p in prints:
        elt = "f64" if "f64" in ty[p] else "f32"
        out += "  %%p_%s = memref.cast %%%s : %s to memref<*x%s>\n" % (p, p, ty[p], elt)
        out += "  call @printMemref%s(%%p_%s) : (memref<*x%s>) -> ()\n" % (elt.upper(), p, elt)
    for a in arrays:
        out += "  memref.dealloc %%%s : %s\n" % (a[0], ty[a[0]])
    out += "  return\n}\n"
    return out


HEAD = {}
HEAD["fig3_chain"] = """// Source: seed 000 (Yang, Cui, Feng, "GPU-oriented loop fusion", ICT-CAS 2012),
// Fig. 1(a) and Fig. 3(a); ../shared/seeds/DIGEST.md §000.4 and §000.8.
// Benchmark: BENCHMARKS.md §2, row "fig3 chain" (64M floats there; N = 1024 here).
//
//   L1: for i in [0, N):    B[i] = f(X[i])          with f(x) = 2 * x
//   L2: for i in [1, N-1):  A[i] = B[i-1] + B[i+1]
//
// Two doall loops with flow dependences of distance -1 and +1 (halo 1 on each
// side when fused). Arguments: X (input), B (intermediate), A (output).
"""
HEAD["fig3_dead"] = """// Source: seed 000 (Yang, Cui, Feng, "GPU-oriented loop fusion", ICT-CAS 2012),
// Fig. 1(a) and Fig. 3(a); ../shared/seeds/DIGEST.md §000.4 and §000.8: fig3_chain
// with the intermediate B a local allocation, dead after the chain, so that a
// fusing compiler need not store it (the hand-written reference's `mlk` row; in
// fig3_chain B is an argument, live after the call: `mlk_storeB`). Benchmark:
// BENCHMARKS.md §2, row "fig3 chain" (64M floats there; N = 1024 here).
//
//   B = alloc(N)
//   L1: for i in [0, N):    B[i] = f(X[i])          with f(x) = 2 * x
//   L2: for i in [1, N-1):  A[i] = B[i-1] + B[i+1]
//   dealloc(B)
//
// Arguments: X (input), A (output).
"""
HEAD["ll18"] = """// Source: Livermore loop 18 ("2-D explicit hydrodynamics fragment"), the LL18
// program of seed 000 (Yang, Cui, Feng 2012), Table 1 / Table 2; ../shared/seeds/
// DIGEST.md §000.10. Benchmark: BENCHMARKS.md §2, row "Livermore loop 18"
// (4096 x 4096 there; N = 256 here). C version of the kernel (lloops.c), with the
// k bound (kn = 6 in the original) and the j bound both set to N - 1:
//
//   nest 1: for k, j in [1, N-1):  za[k][j] = ...;  zb[k][j] = ...
//   nest 2: for k, j in [1, N-1):  zu[k][j] += s * (...);  zv[k][j] += s * (...)
//   nest 3: for k, j in [1, N-1):  zr[k][j] += t * zu[k][j];  zz[k][j] += t * zv[k][j]
//
// t = 0.0037, s = 0.0041. Each source statement is written with its own loads (no
// value is shared between two statements), as a C front end would produce, so
// loop distribution needs no recomputation. zm must be non-zero (it divides).
"""
HEAD["stencil4_chain"] = """// Source: seed 000 (Yang, Cui, Feng 2012): four chained 5-point stencils, the
// stand-in for the hydro2d `filter` program of Table 1 / Table 2 (a 10-loop chain
// with halo 4); ../shared/seeds/DIGEST.md §000.9 and §000.10. Benchmark:
// BENCHMARKS.md §2, row "4 chained 5-point stencils" (8192 x 8192 there; 256 x 256 here).
//
//   for s in 1..4:  for i, j in [s, N-s):
//     A_s[i][j] = 0.2 * (A_{s-1}[i][j] + A_{s-1}[i-1][j] + A_{s-1}[i+1][j]
//                        + A_{s-1}[i][j-1] + A_{s-1}[i][j+1])
//
// Each stage's domain shrinks by one, so every read of an intermediate reads a
// value the previous stage wrote. Fused over strips of A4, A3 needs halo 1,
// A2 halo 2, A1 halo 3, and A0 is read with halo 4 (Table 1's "4" for filter).
// A0 is the input, A1..A3 are intermediates, A4 is the output.
"""
HEAD["stencil4_dead"] = """// Source: seed 000 (Yang, Cui, Feng 2012): stencil4_chain with the intermediates
// A1..A3 local allocations, dead after the chain, so that a fusing compiler need
// not store them (as the hand-written fused kernels of ../shared/anchors-gpu,
// stencil.cu, keep them in shared memory only); ../shared/seeds/DIGEST.md §000.9
// and §000.10. Benchmark: BENCHMARKS.md §2, row "4 chained 5-point stencils"
// (8192 x 8192 there; 256 x 256 here).
//
//   A1, A2, A3 = alloc(N, N)
//   for s in 1..4:  for i, j in [s, N-s):
//     A_s[i][j] = 0.2 * (A_{s-1}[i][j] + A_{s-1}[i-1][j] + A_{s-1}[i+1][j]
//                        + A_{s-1}[i][j-1] + A_{s-1}[i][j+1])
//   dealloc(A1, A2, A3)
//
// Each stage reads only what the previous stage wrote (the domains shrink), so
// the allocations' unwritten borders are never read. A0 is the input, A4 the output.
"""
HEAD["matmul"] = """// Source: seed 004 (Yang, Xiang, Kong, Zhou, "A GPGPU compiler for memory
// optimization and parallelism management", PLDI 2010), the naive mm kernel of
// Fig. 2a; ../shared/seeds/DIGEST.md §004.1 and §004.4-004.6. Benchmark:
// BENCHMARKS.md §2, row "matmul fp32" (4096^3 there; 256^3 here).
//
//   for i, j:  sum = 0;  for k: sum += A[i][k] * B[k][j];  C[i][j] = sum
//
// One GPU thread per (i, j) in the naive mapping; the sum is a loop-carried
// value (iter_args), as the register `sum` of the CUDA kernel.
"""
HEAD["matvec"] = """// Source: seed 004 (Yang, Xiang, Kong, Zhou, PLDI 2010), the naive mv kernel of
// Fig. 2b; ../shared/seeds/DIGEST.md §004.1, §004.4 and §004.8 (partition camping).
// Benchmark: BENCHMARKS.md §2, row "matrix-vector" (16384 x 16384 there; 512 x 512 here).
//
//   for i:  sum = 0;  for j: sum += A[i][j] * b[j];  c[i] = sum
"""
HEAD["transpose"] = """// Source: seed 004 (Yang, Xiang, Kong, Zhou, PLDI 2010), §3.5 partition camping
// and diagonal block reordering (after Ruetsch & Micikevicius, "Optimizing matrix
// transpose in CUDA"); ../shared/seeds/DIGEST.md §004.8. Benchmark: BENCHMARKS.md
// §2, row "transpose" (8192 x 8192 there; 512 x 512 here; diagonal reordering
// needs a square grid).
//
//   for i, j:  out[j][i] = in[i][j]
//
// Reads are contiguous along the inner loop j, writes are strided.
"""
HEAD["complex_scale"] = """// Source: seed 004 (Yang, Xiang, Kong, Zhou, PLDI 2010), §3.2: the float2 rule is
// aimed at complex numbers stored as real part next to imaginary part;
// ../shared/seeds/DIGEST.md §004.2. Benchmark: BENCHMARKS.md §2 / issue 30, the
// complex-scale row (32M complex numbers there; 1024 here).
//
//   for i:  y[2i] = re*x[2i] - im*x[2i+1];  y[2i+1] = re*x[2i+1] + im*x[2i]
//
// One thread per complex number: each reads and writes two neighbouring floats,
// A[2*idx] and A[2*idx + 1], which the strict rule makes one float2 access.
"""
HEAD["lu"] = """// Source: seed 003 (Allazov, Guda, Morylev, "Interactive CUDA code generator",
// 2017), the LU decomposition worked example of §003.5 (the same kernel as
// PolyBench 3.2 `lu`); ../shared/seeds/DIGEST.md §003.5. Benchmark: BENCHMARKS.md
// §2, row "Polybench subset" (lu; LARGE there; N = 128 here).
//
//   for k in [0, N):
//     for j in [k+1, N):     A[k][j] = A[k][j] / A[k][k]       (fragment 1)
//     for i, j in [k+1, N):  A[i][j] = A[i][j] - A[i][k] * A[k][j]   (fragment 2)
//
// In place; no pivoting, so A must have non-zero pivots (e.g. diagonally dominant).
"""
HEAD["syn_lm"] = """// Source: seed 001 (Han & Abdelrahman, "Reducing divergence in GPGPU programs
// with loop merging", GPGPU-6 2013), the synthetic benchmark SYN-LM of §5 (paper
// Fig. 3a nest shape); ../shared/seeds/DIGEST.md §001.3 and §001.8. Benchmark:
// BENCHMARKS.md §2, row "divergent nest, SYN-LM" (1M threads, outer 1000, inner
// avg 20 there; 1024 threads, outer 32 here; inner trip counts come from `trips`).
//
//   for t (one GPU thread each):
//     v = X[t];  sum = 0
//     for o in [0, OUTER_TC):          // uniform outer loop
//       n = trips[t][o]                // inner prologue: data-dependent trip count
//       for i in [0, n):               // divergent inner loop, INNER_SIZE = 4 FMAs
//         v = fma(v, 0.875, x); v = fma(v, 1.125, -0.5);
//         v = fma(v, 0.9375, 0.25); v = fma(v, 1.0625, -x)
//       sum += v                       // inner epilogue
//     Y[t] = sum
//
// The inner bound is loaded from memory, so it is not an affine symbol: the inner
// loop is an scf.for (the only non-affine loop among the examples).
"""
SYN_LM_BENCH_HEAD = """// Source: seed 001 (Han & Abdelrahman, GPGPU-6 2013), the synthetic benchmark
// SYN-LM as the hand-written reference measures it (../shared/anchors-gpu/synlm.cu);
// ../shared/seeds/DIGEST.md §001.3 and §001.8. Benchmark: BENCHMARKS.md §2, row
// "divergent nest, SYN-LM" (1M threads, outer 1000 there; 64 threads, outer 8 here),
// bench/gpu/loopmerge.sh. examples/syn_lm.lfir is the same nest with the trip
// counts an argument; here they are made inside the function, as the reference's
// lm_gen does, so that the benchmark needs no 1 GB input:
//
//   trips[o][t] = 20 - VAR + hash(t, o) mod (2 VAR + 1)    (i8; uniform, mean 20)
//   for t (one GPU thread each):
//     x = X[t]; y = 0.2; z = 0.3; w = 0.4; acc = 0
//     for o in [0, OUTER):                  // uniform outer loop
//       for i in [0, trips[o][t]):          // divergent inner loop
//         FMAS / 4 times: x = fma(x, 0.5, y); y = fma(y, 1.0, 0.25);
//                         z = fma(z, 0.5, x); w = fma(w, 0.25, z)
//       acc += w                            // inner epilogue
//     Y[t] = acc
//
// The reference's y is fma(y, 0.75, 0.25): there x, y, z, w reach a fixed point
// within a few outer iterations and Y hardly depends on the trip counts; here y
// counts the bodies run (0.25 each), so Y depends on every trip count and a
// merged loop that runs one body too many or too few gives another Y. Same
// operations and dependences otherwise (nvcc may make y's FMA an add).
"""
HEAD.update({name: SYN_LM_BENCH_HEAD for name in SYN_LM_BENCH})
HEAD["rprj3"] = """// Source: seed 002 (Fang, Tang, Wang, Tang, "Stencil applications on GPUs", NUDT
// 2011): Mgrid's Rprj3 (fine-to-coarse restriction); ../shared/seeds/DIGEST.md
// §002.4. The stencil is RPRJ3 of SPEC CPU2000 172.mgrid / NPB MG (unit strides),
// written as the plain 27-point weighted sum without mgrid's x1/y1 temporaries.
// Benchmark: BENCHMARKS.md §2, row "mgrid rprj3" (128^3 fp64 there; fine grid
// 66^3 -> coarse grid 34^3 here, i.e. 64^3 and 32^3 interiors plus a ghost layer).
//
//   for j3, j2, j1 in [1, MJ-1):     (memref index [j3][j2][j1]; j1 contiguous)
//     s[j3][j2][j1] = 0.5 * r[2j3][2j2][2j1] + 0.25 * (6 face neighbours)
//                   + 0.125 * (12 edge neighbours) + 0.0625 * (8 corner neighbours)
//
// fp64, as in the paper (double / double2 granularities).
"""
HEAD["interp"] = """// Source: seed 002 (Fang, Tang, Wang, Tang, "Stencil applications on GPUs", NUDT
// 2011): Mgrid's Interp (coarse-to-fine prolongation); ../shared/seeds/DIGEST.md
// §002.4. The stencil is INTERP of SPEC CPU2000 172.mgrid / NPB MG (unit strides),
// with mgrid's z1/z2/z3 temporaries kept as SSA values. Benchmark: BENCHMARKS.md
// §2, row "mgrid interp" (256^3 fp64 there; coarse grid 34^3 -> fine grid 66^3 here).
//
//   for i3, i2, i1 in [0, MM-1):     (memref index [i3][i2][i1]; i1 contiguous)
//     add the trilinear interpolation of coarse cell (i3, i2, i1) to the eight fine
//     points u[2i3 + a][2i2 + b][2i1 + c], a, b, c in {0, 1}
//
// Every iteration updates its own 2x2x2 block of u, so the nest is fully parallel.
// fp64, as in the paper.
"""
HEAD["gemm"] = """// Source: PolyBench 3.2 `gemm`, one of the benchmarks of seed 003 (Allazov,
// Guda, Morylev 2017, §4 / Fig. 2, "used as-is"); ../shared/seeds/DIGEST.md §003.7.
// Benchmark: BENCHMARKS.md §2, row "Polybench subset" (LARGE there; NI x NJ x NK =
// 256 x 192 x 128 here).
//
//   for i, j:  C[i][j] *= beta;  for k: C[i][j] += alpha * A[i][k] * B[k][j]
"""
HEAD["jacobi_2d"] = """// Source: PolyBench 3.2 `jacobi-2d-imper`, one of the benchmarks of seed 003
// (Allazov, Guda, Morylev 2017, §4 / Fig. 2, "used as-is"); ../shared/seeds/
// DIGEST.md §003.7. Benchmark: BENCHMARKS.md §2, row "Polybench subset" (jacobi-2d;
// LARGE there; N = 256, TSTEPS = 10 here).
//
//   for t in [0, TSTEPS):
//     for i, j in [1, N-1):  B[i][j] = 0.2 * (A[i][j] + A[i][j-1] + A[i][j+1] + A[i+1][j] + A[i-1][j])
//     for i, j in [1, N-1):  A[i][j] = B[i][j]
"""
HEAD["fdtd_2d"] = """// Source: PolyBench 3.2 `fdtd-2d`, one of the benchmarks of seed 003 (Allazov,
// Guda, Morylev 2017, §4 / Fig. 2, "used as-is"); ../shared/seeds/DIGEST.md §003.7.
// Benchmark: BENCHMARKS.md §2, row "Polybench subset" (LARGE there; NX x NY =
// 256 x 192, TMAX = 16 here).
//
//   for t in [0, TMAX):
//     for j:                   ey[0][j] = fict[t]
//     for i in [1, NX), j:     ey[i][j] = ey[i][j] - 0.5 * (hz[i][j] - hz[i-1][j])
//     for i, j in [1, NY):     ex[i][j] = ex[i][j] - 0.5 * (hz[i][j] - hz[i][j-1])
//     for i < NX-1, j < NY-1:  hz[i][j] = hz[i][j] - 0.7 * (ex[i][j+1] - ex[i][j] + ey[i+1][j] - ey[i][j])
"""
HEAD["correlation"] = """// Source: PolyBench 3.2 `correlation`, one of the benchmarks of seed 003
// (Allazov, Guda, Morylev 2017, §4 / Fig. 2; IHOP split its last loop, peeling
// `symmat[j1][j1] = 1`; this is the original form); ../shared/seeds/DIGEST.md
// §003.7. Benchmark: BENCHMARKS.md §2, row "Polybench subset" (LARGE there;
// N = 256 observations x M = 128 variables here).
//
//   mean[j]   = sum_i data[i][j] / float_n
//   stddev[j] = sqrt(sum_i (data[i][j] - mean[j])^2 / float_n), 1.0 where <= 0.1
//   data[i][j] = (data[i][j] - mean[j]) / (sqrt(float_n) * stddev[j])
//   symmat[j1][j2] = symmat[j2][j1] = sum_i data[i][j1] * data[i][j2],  symmat[j][j] = 1
//
// float_n is a kernel argument, as in PolyBench (the driver passes N).
"""

HEAD["2mm"] = """// Source: PolyBench 3.2 `2mm`, one of the benchmarks of seed 003 (Allazov,
// Guda, Morylev 2017, §4 / Fig. 2, "used as-is"); ../shared/seeds/DIGEST.md §003.7.
// Benchmark: BENCHMARKS.md §2, row "Polybench subset" (LARGE there; NI x NJ x NK x
// NL = 128 x 96 x 64 x 80 here). The function is @kernel_2mm (PolyBench's name: a
// symbol cannot start with a digit).
//
//   for i, j:  tmp[i][j] = 0;  for k: tmp[i][j] += alpha * A[i][k] * B[k][j]
//   for i, j:  D[i][j] *= beta;  for k: D[i][j] += tmp[i][k] * C[k][j]
//
// i.e. D = alpha * A * B * C + beta * D; tmp (NI x NJ) is an argument, as in PolyBench.
"""
HEAD["doitgen"] = """// Source: PolyBench `doitgen` (multi-resolution analysis kernel, MADNESS), one of
// the benchmarks of seed 003 (Allazov, Guda, Morylev 2017, §4 / Fig. 2);
// ../shared/seeds/DIGEST.md §003.7. Written as PolyBench 3.2 (the seed's version)
// writes it, with a sum[r][q][p] array (PolyBench 4 reuses a one-dimensional sum[p],
// which keeps the r and q loops sequential). Benchmark: BENCHMARKS.md §2, row
// "Polybench subset" (LARGE there; NR x NQ x NP = 32 x 24 x 16 here).
//
//   for r, q:
//     for p:  sum[r][q][p] = 0;  for s: sum[r][q][p] += A[r][q][s] * C4[s][p]
//     for p:  A[r][q][p] = sum[r][q][p]
//
// An imperfect nest; IHOP distributes it into perfect 3-D nests (DIGEST §003.7).
"""


def F(c, c0, p, off=0):
    return (c, c0, p, off)


STD = F([7, 3], 0, 13)


KERNELS = {"fig3_chain": k_fig3, "fig3_dead": k_fig3_dead, "ll18": k_ll18, "stencil4_chain": k_stencil4,
           "stencil4_dead": k_stencil4_dead,
           "matmul": k_matmul, "matvec": k_matvec, "transpose": k_transpose, "complex_scale": k_complex_scale, "lu": k_lu,
           "syn_lm": k_syn_lm, "rprj3": k_rprj3, "interp": k_interp, "gemm": k_gemm,
           "jacobi_2d": k_jacobi, "fdtd_2d": k_fdtd, "correlation": k_corr,
           "2mm": k_2mm, "doitgen": k_doitgen}
KERNELS.update({name: bench_syn_lm(name) for name in SYN_LM_BENCH})

# the sizes of the examples/*.lfir files
EXAMPLE = {"fig3_chain": dict(N=1024), "fig3_dead": dict(N=1024), "ll18": dict(N=256), "stencil4_chain": dict(N=256),
           "stencil4_dead": dict(N=256),
           "matmul": dict(M=256, N=256, K=256), "matvec": dict(M=512, N=512),
           "transpose": dict(M=512, N=512), "complex_scale": dict(N=1024), "lu": dict(N=128), "syn_lm": dict(TH=1024, O=32),
           "rprj3": dict(MK=66, MJ=34), "interp": dict(MM=34, MU=66),
           "gemm": dict(NI=256, NJ=192, NK=128), "jacobi_2d": dict(N=256, TS=10),
           "fdtd_2d": dict(NX=256, NY=192, TM=16), "correlation": dict(N=256, M=128),
           "2mm": dict(NI=128, NJ=96, NK=64, NL=80), "doitgen": dict(NR=32, NQ=24, NP=16)}
# the SYN-LM benchmark workloads have no .lfir: these are the sizes of their
# drivers (examples/run/syn_lm_f*_var*.mlir), two warps of threads
EXAMPLE.update({name: dict(TH=64, O=8) for name in SYN_LM_BENCH})

# the GPU benchmark suite's sizes (bench/gpu/polybench.sh): "LARGE-like", chosen
# so that every array is far larger than the GPU's L2 cache where the workload
# streams, and the single-core CPU baseline takes seconds, not minutes; the
# seed-000 fusion rows (bench/gpu/fusion.sh) at BENCHMARKS.md's sizes (64M floats,
# 4096^2, 8192^2: the sizes of the hand-written references in ../shared/anchors-gpu)
LARGE = {"fig3_chain": dict(N=64 << 20), "fig3_dead": dict(N=64 << 20), "ll18": dict(N=4096),
         "stencil4_chain": dict(N=8192), "stencil4_dead": dict(N=8192),
         "matmul": dict(M=4096, N=4096, K=4096), "matvec": dict(M=16384, N=16384),
         "transpose": dict(M=8192, N=8192), "complex_scale": dict(N=32 << 20),
         "gemm": dict(NI=1024, NJ=1024, NK=1024), "2mm": dict(NI=1024, NJ=1024, NK=1024, NL=1024),
         "jacobi_2d": dict(N=4096, TS=50), "fdtd_2d": dict(NX=4096, NY=4096, TM=50),
         "lu": dict(N=2048), "correlation": dict(N=1024, M=1024), "doitgen": dict(NR=128, NQ=128, NP=128)}
# the SYN-LM rows (bench/gpu/loopmerge.sh), BENCHMARKS.md's sizes: 1M threads, outer 1000
LARGE.update({name: dict(TH=1 << 20, O=1000) for name in SYN_LM_BENCH})
# the seed-002 mgrid rows (bench/gpu/mgrid.sh), BENCHMARKS.md's sizes, ghost layer
# included: rprj3 restricts a 128^3 fine-grid interior to a 64^3 coarse one (the
# paper's "128^3" is the problem size of Rprj3), interp prolongs a 128^3 coarse
# interior onto a 256^3 fine one
LARGE.update({"rprj3": dict(MK=130, MJ=66), "interp": dict(MM=130, MU=258)})


def mgrid_driver_spec(name, sizes):
    """The driver arrays of rprj3 or interp at `sizes` (their fill patterns
    are the examples' own, so every size prints deterministic values)."""
    if name == "rprj3":
        mk, mj = sizes["MK"], sizes["MJ"]
        return dict(arrays=[("r", [mk] * 3, "f64", F([3, 5, 7], 1, 13)), ("s", [mj] * 3, "f64", None)],
                    scalars=[], call_args=["r", "s"], prints=["s"])
    mm, mu = sizes["MM"], sizes["MU"]
    return dict(arrays=[("z", [mm] * 3, "f64", F([3, 5, 7], 1, 13)), ("u", [mu] * 3, "f64", F([2, 1, 3], 0, 5))],
                scalars=[], call_args=["z", "u"], prints=["u"])


def regenerate():
    W = {}
    # name: (example kernel, run kernel, driver spec)
    W["fig3_chain"] = (k_fig3(**EXAMPLE["fig3_chain"]), k_fig3(16), dict(
        arrays=[("X", [16], "f32", F([7], 3, 13)), ("B", [16], "f32", None), ("A", [16], "f32", None)],
        scalars=[], call_args=["X", "B", "A"], prints=["B", "A"]))
    W["fig3_dead"] = (k_fig3_dead(**EXAMPLE["fig3_dead"]), k_fig3_dead(16), dict(
        arrays=[("X", [16], "f32", F([7], 3, 13)), ("A", [16], "f32", None)],
        scalars=[], call_args=["X", "A"], prints=["A"]))
    n = 8
    names = ["za", "zb", "zp", "zq", "zr", "zm", "zu", "zv", "zz"]
    fills = [F([3, 5], 1, 11), F([5, 3], 2, 11), F([7, 3], 0, 13), F([2, 9], 4, 13), F([4, 7], 1, 17),
             F([3, 2], 0, 7, 1), F([1, 1], 0, 5), F([2, 1], 1, 5), F([6, 5], 3, 19)]
    W["ll18"] = (k_ll18(**EXAMPLE["ll18"]), k_ll18(n), dict(
        arrays=[(a, [n, n], "f32", f) for a, f in zip(names, fills)],
        scalars=[], call_args=names, prints=["za", "zb", "zu", "zv", "zr", "zz"]))
    n = 12
    W["stencil4_chain"] = (k_stencil4(**EXAMPLE["stencil4_chain"]), k_stencil4(n), dict(
        arrays=[("A0", [n, n], "f32", STD)] + [("A%d" % i, [n, n], "f32", None) for i in range(1, 5)],
        scalars=[], call_args=["A0", "A1", "A2", "A3", "A4"], prints=["A1", "A4"]))
    W["stencil4_dead"] = (k_stencil4_dead(**EXAMPLE["stencil4_dead"]), k_stencil4_dead(n), dict(
        arrays=[("A0", [n, n], "f32", STD), ("A4", [n, n], "f32", None)],
        scalars=[], call_args=["A0", "A4"], prints=["A4"]))
    W["matmul"] = (k_matmul(**EXAMPLE["matmul"]), k_matmul(6, 8, 10), dict(
        arrays=[("A", [6, 10], "f32", STD), ("B", [10, 8], "f32", F([5, 11], 2, 17)), ("C", [6, 8], "f32", None)],
        scalars=[], call_args=["A", "B", "C"], prints=["C"]))
    W["matvec"] = (k_matvec(**EXAMPLE["matvec"]), k_matvec(6, 10), dict(
        arrays=[("A", [6, 10], "f32", STD), ("b", [10], "f32", F([5], 1, 11)), ("c", [6], "f32", None)],
        scalars=[], call_args=["A", "b", "c"], prints=["c"]))
    W["transpose"] = (k_transpose(**EXAMPLE["transpose"]), k_transpose(6, 10), dict(
        arrays=[("in", [6, 10], "f32", F([10, 1], 0, 61)), ("out", [10, 6], "f32", None)],
        scalars=[], call_args=["in", "out"], prints=["out"]))
    W["complex_scale"] = (k_complex_scale(**EXAMPLE["complex_scale"]), k_complex_scale(6), dict(
        arrays=[("x", [12], "f32", F([7], 3, 13)), ("y", [12], "f32", None)],
        scalars=[], call_args=["x", "y"], prints=["y"]))
    n = 8
    lu_extra = T("""  %diag = arith.constant 1.600000e+01 : f32
  affine.for %i = 0 to $n {
    %x = affine.load %A[%i, %i] : $m
    %y = arith.addf %x, %diag : f32
    affine.store %y, %A[%i, %i] : $m
  }
""", n=n, m=mr([n, n]))
    W["lu"] = (k_lu(**EXAMPLE["lu"]), k_lu(n), dict(
        arrays=[("A", [n, n], "f32", STD)], scalars=[], call_args=["A"], prints=["A"], extra=lu_extra))
    W["syn_lm"] = (k_syn_lm(**EXAMPLE["syn_lm"]), k_syn_lm(8, 4), dict(
        arrays=[("trips", [8, 4], "i32", F([7, 3], 0, 9)), ("X", [8], "f32", F([5], 1, 7)), ("Y", [8], "f32", None)],
        scalars=[], call_args=["trips", "X", "Y"], prints=["Y"]))
    W["rprj3"] = (k_rprj3(**EXAMPLE["rprj3"]), k_rprj3(10, 6), mgrid_driver_spec("rprj3", dict(MK=10, MJ=6)))
    W["interp"] = (k_interp(**EXAMPLE["interp"]), k_interp(4, 6), mgrid_driver_spec("interp", dict(MM=4, MU=6)))
    W["gemm"] = (k_gemm(**EXAMPLE["gemm"]), k_gemm(6, 8, 5), dict(
        arrays=[("C", [6, 8], "f32", F([1, 2], 0, 7)), ("A", [6, 5], "f32", STD), ("B", [5, 8], "f32", F([5, 11], 2, 17))],
        scalars=[("alpha", "1.500000e+00", "f32"), ("beta", "1.250000e+00", "f32")],
        call_args=["alpha", "beta", "C", "A", "B"], prints=["C"]))
    W["jacobi_2d"] = (k_jacobi(**EXAMPLE["jacobi_2d"]), k_jacobi(10, 3), dict(
        arrays=[("A", [10, 10], "f32", STD), ("B", [10, 10], "f32", None)],
        scalars=[], call_args=["A", "B"], prints=["A", "B"]))
    W["fdtd_2d"] = (k_fdtd(**EXAMPLE["fdtd_2d"]), k_fdtd(6, 8, 3), dict(
        arrays=[("ex", [6, 8], "f32", STD), ("ey", [6, 8], "f32", F([5, 11], 2, 17)),
                ("hz", [6, 8], "f32", F([3, 5], 1, 11)), ("fict", [3], "f32", F([1], 0, 100))],
        scalars=[], call_args=["ex", "ey", "hz", "fict"], prints=["ex", "ey", "hz"]))
    W["correlation"] = (k_corr(**EXAMPLE["correlation"]), k_corr(12, 6), dict(
        arrays=[("data", [12, 6], "f32", STD), ("symmat", [6, 6], "f32", None),
                ("mean", [6], "f32", None), ("stddev", [6], "f32", None)],
        scalars=[("float_n", "1.200000e+01", "f32")],
        call_args=["float_n", "data", "symmat", "mean", "stddev"], prints=["symmat", "mean", "stddev"]))

    W["2mm"] = (k_2mm(**EXAMPLE["2mm"]), k_2mm(6, 8, 5, 7), dict(
        arrays=[("tmp", [6, 8], "f32", None), ("A", [6, 5], "f32", STD), ("B", [5, 8], "f32", F([5, 11], 2, 17)),
                ("C", [8, 7], "f32", F([3, 5], 1, 11)), ("D", [6, 7], "f32", F([1, 2], 0, 7))],
        scalars=[("alpha", "1.500000e+00", "f32"), ("beta", "1.250000e+00", "f32")],
        call_args=["alpha", "beta", "tmp", "A", "B", "C", "D"], prints=["tmp", "D"]))
    W["doitgen"] = (k_doitgen(**EXAMPLE["doitgen"]), k_doitgen(4, 3, 5), dict(
        arrays=[("A", [4, 3, 5], "f32", F([3, 5, 7], 1, 13)), ("C4", [5, 5], "f32", F([5, 11], 2, 17)),
                ("sum", [4, 3, 5], "f32", None)],
        scalars=[], call_args=["A", "C4", "sum"], prints=["A", "sum"]))

    os.makedirs(RUN, exist_ok=True)
    for name, (ek, rk, spec) in W.items():
        with open(os.path.join(EX, name + ".lfir"), "w") as f:
            f.write(HEAD[name] + ek)
        with open(os.path.join(RUN, name + ".mlir"), "w") as f:
            f.write(driver(name, rk, **spec))
    # the SYN-LM benchmark workloads: a driver each (the reduced size of
    # bench/gpu/loopmerge.sh), no .lfir
    for name in SYN_LM_BENCH:
        n = EXAMPLE[name]["TH"]
        with open(os.path.join(RUN, name + ".mlir"), "w") as f:
            f.write(driver(name, HEAD[name] + KERNELS[name](**EXAMPLE[name]), arrays=[
                ("X", [n], "f32", F([5], 1, 7)), ("Y", [n], "f32", None)],
                scalars=[], call_args=["X", "Y"], prints=["Y"],
                lead="// Driver for `examples/gen.py %s large` (bench/gpu/loopmerge.sh): the same kernel at\n"
                     "// small sizes, plus a @main that fills the\n" % name))


USAGE = """usage: gen.py                  regenerate examples/*.lfir and examples/run/*.mlir
       gen.py NAME [K=V ...]   print NAME's kernel to stdout at other sizes, e.g.
                               gen.py matmul M=4096 N=4096 K=4096
       gen.py NAME large [K=V ...]
                               the same, starting from the GPU benchmark's size
       gen.py sizes NAME [large] [K=V ...]
       gen.py driver rprj3|interp [large] [K=V ...]
                               the example's driver (a @main that fills, calls
                               and prints) at other sizes, for lf-tune
                               print the sizes only ("NI=1024 NJ=1024 ...")
sizes (with the examples' values):
""" + "\n".join("  %-15s %s" % (k, " ".join("%s=%d" % kv for kv in v.items()))
                for k, v in EXAMPLE.items()) + """
rprj3 needs MK = 2 * MJ - 2 and interp MU = 2 * MM - 2 (ghost layer included).
large (bench/gpu/polybench.sh, fusion.sh, kernels.sh, loopmerge.sh, mgrid.sh):
""" + "\n".join("  %-15s %s" % (k, " ".join("%s=%d" % kv for kv in v.items()))
                for k, v in LARGE.items())


def main(argv):
    if not argv:
        regenerate()
        return 0
    cmd = " ".join(argv)
    only_sizes = argv[0] == "sizes"
    with_driver = argv[0] == "driver"
    if only_sizes or with_driver:
        argv = argv[1:]
    if with_driver and argv[:1] not in (["rprj3"], ["interp"]):
        print("gen.py: `driver` makes the drivers of rprj3 and interp at other sizes", file=sys.stderr)
        return 2
    if not argv or argv[0] not in KERNELS:
        print(USAGE, file=sys.stderr)
        return 2
    name, sizes = argv[0], dict(EXAMPLE[argv[0]])
    if argv[1:2] == ["large"]:
        if name not in LARGE:
            print("gen.py: %s has no large size (the GPU suite's workloads: %s)"
                  % (name, " ".join(LARGE)), file=sys.stderr)
            return 2
        sizes = dict(LARGE[name])
        argv = argv[:1] + argv[2:]
    for kv in argv[1:]:
        k, _, v = kv.partition("=")
        if k not in sizes:
            print(USAGE, file=sys.stderr)
            return 2
        sizes[k] = int(v)
    if only_sizes:
        print(" ".join("%s=%d" % kv for kv in sizes.items()))
        return 0
    if with_driver:
        lead = "// Driver for `examples/gen.py %s` (lf-tune): the same kernel, plus a @main that fills the\n" % cmd
        sys.stdout.write(driver(name, KERNELS[name](**sizes), lead=lead, **mgrid_driver_spec(name, sizes)))
        return 0
    sys.stdout.write("// Generated by examples/gen.py %s; the header below names the\n"
                     "// example's own sizes.\n" % cmd + HEAD[name] + KERNELS[name](**sizes))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
