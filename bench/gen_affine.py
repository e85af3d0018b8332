#!/usr/bin/env python3
"""Generate realistic affine programs for lf's compile-speed benchmark.

    python3 bench/gen_affine.py --ops 100000 --seed 1 --form custom -o bench/generated/x.mlir
    python3 bench/gen_affine.py --ops 100000 --seed 1 --form generic -o bench/generated/y.mlir
    python3 bench/gen_affine.py --count FILE        # count the ops of a generic-form file

The program is a `module` of many `func.func`s (tens to a few hundred ops each) made of nested
`affine.for` loops (constant bounds, symbolic bounds, `max`/`min` bound maps, tiled loops,
steps, `iter_args` reductions), `affine.load`/`affine.store` with non-trivial subscripts,
`affine.apply`, `affine.if` (with and without results), `arith` ops, `memref.alloc`/`dealloc`,
the odd `scf.for` with `memref.load`/`store`, and `func.call`s between functions. `#map` and
`#set` aliases are declared at the top.

The custom form is written by this script. The generic form is the custom form printed by
`mlir-opt-22 --mlir-print-op-generic` (so it is exactly what MLIR prints); `--from CUSTOM`
converts an existing custom file, otherwise the custom text is generated in memory.

Op counting: every operation, including the implicit terminators that the custom form elides
(`affine.yield` of an `affine.for`/`affine.if` region, `scf.yield`) and the `builtin.module`
itself, counts as one -- what `mlir-opt --print-op-stats` reports. The generator counts while
it writes; the count of a generic file is the number of lines that start an op, i.e. match
`^\\s*(%name(:N)?(, %name)* = )?"`. For generic output the two are checked to agree.

Outputs are cached: next to FILE, FILE.meta records the generator's hash, the arguments and
the op count; a matching FILE.meta makes the run a no-op (use --force to regenerate).
"""
import argparse
import hashlib
import json
import os
import random
import re
import subprocess
import sys

MLIR_OPT = os.environ.get("MLIR_OPT", "mlir-opt-22")

# (type, shape); None is a dynamic dimension (its size comes from an index argument).
MEMREF_TYPES = [
    ("memref<64x64xf32>", (64, 64)),
    ("memref<128xf32>", (128,)),
    ("memref<32x32x32xf32>", (32, 32, 32)),
    ("memref<256x16xf32>", (256, 16)),
    ("memref<?x64xf32>", (None, 64)),
    ("memref<512xf32>", (512,)),
]

OP_LINE = re.compile(rb'^\s*(?:%[^\s=]+(?:, %[^\s=]+)* = )?"')


def count_generic_ops(path):
    """Number of ops in a generic-form file: lines that begin an op."""
    n = 0
    with open(path, "rb") as f:
        for line in f:
            if OP_LINE.match(line):
                n += 1
    return n


def fmt_f32(v):
    return f"{v:.6e}"


class Func:
    def __init__(self, name, memrefs, nidx, has_f32, returns):
        self.name = name
        self.memrefs = memrefs  # list of memref type strings
        self.nidx = nidx
        self.has_f32 = has_f32
        self.returns = returns  # bool: returns f32

    def arg_types(self):
        t = list(self.memrefs) + ["index"] * self.nidx
        if self.has_f32:
            t.append("f32")
        return t


class Gen:
    def __init__(self, seed):
        self.rng = random.Random(seed)
        self.lines = []
        self.count = 0
        self.funcs = []
        self.make_aliases()

    # ----- header aliases -------------------------------------------------------------
    def make_aliases(self):
        r = self.rng
        self.header = []
        # affine.apply maps: (name, ndims, nsyms)
        self.apply_maps = []
        k = 0
        for nd in (1, 2, 3):
            for ns in (0, 1):
                for _ in range(3):
                    dims = [f"d{i}" for i in range(nd)]
                    syms = [f"s{i}" for i in range(ns)]
                    e = self.expr(dims, syms, sym_p=0.8 if ns else 0)
                    name = f"#map{k}"
                    k += 1
                    self.header.append(
                        f"{name} = affine_map<({', '.join(dims)}){self.symlist(syms)} -> ({e})>")
                    self.apply_maps.append((name, nd, ns))
        # bound maps with two results: lower (max) and upper (min), (d0)[s0]
        self.lb_maps, self.ub_maps = [], []
        for i in range(3):
            c = r.choice([0, 1, 2])
            self.header.append(f"#lb{i} = affine_map<(d0)[s0] -> (d0 + {c}, s0 floordiv {r.choice([2, 4])})>"
                               if c else f"#lb{i} = affine_map<(d0)[s0] -> (d0, s0 floordiv {r.choice([2, 4])})>")
            self.lb_maps.append(f"#lb{i}")
            self.header.append(f"#ub{i} = affine_map<(d0)[s0] -> (d0 + {r.choice([8, 16, 32])}, s0)>")
            self.ub_maps.append(f"#ub{i}")
        # tiling
        self.header.append("#tile_lb = affine_map<(d0) -> (d0)>")
        self.header.append("#tile_ub = affine_map<(d0) -> (d0 + 32)>")
        # integer sets: (name, ndims, nsyms)
        self.sets = [
            ("#set0", 2, 1, "(d0, d1)[s0] : (d0 - d1 >= 0, s0 - d0 - 1 >= 0)"),
            ("#set1", 1, 0, "(d0) : (d0 - 4 >= 0)"),
            ("#set2", 1, 1, "(d0)[s0] : (s0 - d0 * 2 >= 0, d0 mod 2 == 0)"),
            ("#set3", 2, 0, "(d0, d1) : (d0 + d1 - 8 >= 0, -d0 + 30 >= 0)"),
        ]
        for name, _, _, body in self.sets:
            self.header.append(f"{name} = affine_set<{body}>")

    @staticmethod
    def symlist(syms):
        return f"[{', '.join(syms)}]" if syms else ""

    def expr(self, dims, syms, sym_p=0.2):
        """A random affine expression over `dims` (strings) and `syms` (strings)."""
        r = self.rng
        terms = []
        if dims:
            for d in r.sample(dims, min(len(dims), r.choice([1, 1, 1, 2]))):
                terms.append((d, r.choice([1, 1, 1, 1, 2, 2, 3, -1])))
        if syms and (not terms or r.random() < sym_p):
            terms.append((r.choice(syms), r.choice([1, 1, 2])))
        if not terms:
            return str(r.randrange(0, 8))
        terms.sort(key=lambda t: t[1] < 0)  # a positive term first when there is one
        out = ""
        for i, (v, c) in enumerate(terms):
            t = v if abs(c) == 1 else f"{v} * {abs(c)}"
            if i == 0:
                out = t if c > 0 else f"-{t}"
            else:
                out += f" + {t}" if c > 0 else f" - {t}"
        c = r.choice([0, 0, 0, 1, 1, 2, -1])
        if c > 0:
            out += f" + {c}"
        elif c < 0:
            out += f" - {-c}"
        x = r.random()
        if x < 0.07:
            out = (f"({out})" if len(terms) > 1 or c else out) + f" floordiv {r.choice([2, 4])}"
        elif x < 0.12:
            out = (f"({out})" if len(terms) > 1 or c else out) + f" mod {r.choice([4, 8])}"
        return out

    # ----- emission -------------------------------------------------------------------
    def emit(self, text, ops=1):
        self.lines.append("  " * self.depth + text)
        self.count += ops

    def fresh(self, prefix="v"):
        self.nval += 1
        return f"%{prefix}{self.nval}"

    def push(self):
        self.scopes.append({t: list(v) for t, v in self.pool.items()})
        self.iv_stack.append(list(self.ivs))

    def pop(self):
        self.pool = self.scopes.pop()
        self.ivs = self.iv_stack.pop()

    def add(self, name, ty):
        self.pool.setdefault(ty, []).append(name)

    def pick(self, ty, recent=6):
        vs = self.pool.get(ty)
        if not vs:
            return None
        r = self.rng
        # prefer recent values (realistic def-use distances), and values not used yet (little
        # dead code: canonicalize should have folding to do, not mostly deletion)
        fresh = [v for v in vs[-recent:] if v not in self.used]
        if fresh and r.random() < 0.95:
            v = r.choice(fresh)
        else:
            v = r.choice(vs[-recent:]) if r.random() < 0.8 else r.choice(vs)
        self.used.add(v)
        return v

    # ----- leaf ops ---------------------------------------------------------------------
    def subscripts(self, rank):
        dims = self.ivs + self.pool.get("dim", [])[-3:]
        syms = [f"symbol({s})" for s in self.syms]
        return ", ".join(self.expr(dims, syms, sym_p=0.15) for _ in range(rank))

    def op_load(self):
        m, ty, shape = self.rng.choice(self.memrefs)
        v = self.fresh()
        self.emit(f"{v} = affine.load {m}[{self.subscripts(len(shape))}] : {ty}")
        self.add(v, "f32")
        return v

    def op_store(self, v=None):
        v = v or self.pick("f32")
        if v is None:
            return
        m, ty, shape = self.rng.choice(self.memrefs)
        self.emit(f"affine.store {v}, {m}[{self.subscripts(len(shape))}] : {ty}")
        self.used.add(v)

    def op_arith_f(self):
        a, b = self.pick("f32"), self.pick("f32")
        if a is None:
            return self.op_load()
        op = self.rng.choice(["addf", "addf", "mulf", "mulf", "subf"])
        v = self.fresh()
        self.emit(f"{v} = arith.{op} {a}, {b} : f32")
        self.add(v, "f32")
        if self.rng.random() < 0.04:  # a redundant copy for CSE to find
            w = self.fresh()
            self.emit(f"{w} = arith.{op} {a}, {b} : f32")
            self.add(w, "f32")
        return v

    def op_select_f(self):
        a, b = self.pick("f32"), self.pick("f32")
        if a is None:
            return self.op_load()
        c = self.fresh("cmp")
        self.emit(f"{c} = arith.cmpf {self.rng.choice(['olt', 'ogt', 'oge'])}, {a}, {b} : f32")
        v = self.fresh()
        self.emit(f"{v} = arith.select {c}, {a}, {b} : f32")
        self.add(v, "f32")
        return v

    def op_int_chain(self):
        """index_cast of an induction variable, integer arithmetic, cmpi, select, sitofp."""
        r = self.rng
        src = r.choice(self.ivs) if self.ivs else (r.choice(self.syms) if self.syms else None)
        if src is None:
            return self.op_arith_f()
        x = self.fresh("i")
        self.emit(f"{x} = arith.index_cast {src} : index to i32")
        k = self.pick("i32") or self.const_i32
        y = self.fresh("i")
        self.emit(f"{y} = arith.{r.choice(['addi', 'muli', 'muli'])} {x}, {k} : i32")
        self.add(y, "i32")
        if r.random() < 0.6:
            c = self.fresh("cmp")
            self.emit(f"{c} = arith.cmpi {r.choice(['slt', 'sgt', 'eq', 'ne'])}, {y}, {x} : i32")
            z = self.fresh("i")
            self.emit(f"{z} = arith.select {c}, {y}, {x} : i32")
            y = z
            self.add(z, "i32")
        f = self.fresh()
        self.emit(f"{f} = arith.sitofp {y} : i32 to f32")
        self.add(f, "f32")

    def op_apply(self):
        r = self.rng
        nd = len(self.ivs)
        if nd == 0:
            return self.op_arith_f()
        cands = [m for m in self.apply_maps if m[1] <= nd and (m[2] == 0 or self.syms)]
        v = self.fresh("a")
        if r.random() < 0.7:
            name, d, s = r.choice(cands)
            ops = ", ".join(r.sample(self.ivs, d))
            sy = f"[{r.choice(self.syms)}]" if s else ""
            self.emit(f"{v} = affine.apply {name}({ops}){sy}")
        else:  # inline map
            d = r.randint(1, min(2, nd))
            dims = [f"d{i}" for i in range(d)]
            self.emit(f"{v} = affine.apply affine_map<({', '.join(dims)}) -> ({self.expr(dims, [])})>"
                      f"({', '.join(r.sample(self.ivs, d))})")
        self.add(v, "dim")  # a valid affine dim: usable in subscripts

    def compute(self, n):
        """About n ops of straight-line code in the current (affine) scope."""
        start = self.count
        r = self.rng
        if not self.pool.get("f32"):
            self.op_load()
        n0 = len(self.pool["f32"])
        while self.count - start < n:
            x = r.random()
            if getattr(self, "dense", False):
                # Mostly accesses: loads and stores, with index arithmetic.
                if x < 0.45:
                    self.op_load()
                elif x < 0.80:
                    self.op_store()
                elif x < 0.90:
                    self.op_apply()
                else:
                    self.op_arith_f()
                continue
            if x < 0.33:
                self.op_load()
            elif x < 0.72:
                self.op_arith_f()
            elif x < 0.81:
                self.op_int_chain()
            elif x < 0.89:
                self.op_apply()
            elif x < 0.95:
                self.op_select_f()
            else:
                self.op_store()
        # store what is still unused, so that little of it is dead code
        for v in [v for v in self.pool["f32"][n0:] if v not in self.used]:
            self.op_store(v)

    # ----- structured ops -------------------------------------------------------------
    def bounds(self):
        """Returns (text after `affine.for %iv = `, is_tile_outer)."""
        r = self.rng
        x = r.random()
        if self.ivs and self.syms and x < 0.12:
            o = r.choice(self.ivs)
            s = r.choice(self.syms)
            return f"max {r.choice(self.lb_maps)}({o})[{s}] to min {r.choice(self.ub_maps)}({o})[{s}]", False
        if self.tile_iv is not None and x < 0.5:
            t = self.tile_iv
            self.tile_iv = None
            return f"#tile_lb({t}) to #tile_ub({t})", False
        if x < 0.22 and self.syms:
            return f"0 to {r.choice(self.syms)}", False
        if x < 0.30:
            return "0 to 256 step 32", True
        lb = r.choice([0, 0, 0, 1])
        ub = r.choice([8, 16, 16, 32, 32, 64, 100])
        step = r.choice([1, 1, 1, 1, 1, 1, 2, 4])
        return f"{lb} to {ub}" + (f" step {step}" if step > 1 else ""), False

    def nest(self, depth, n):
        r = self.rng
        iv = self.fresh("i")
        b, is_tile = self.bounds()
        red = depth == 1 and r.random() < 0.12 and self.pool.get("f32")
        if red:  # reduction with iter_args
            init = self.pick("f32")
            res = self.fresh("r")
            acc = self.fresh("acc")
            self.emit(f"{res} = affine.for {iv} = {b} iter_args({acc} = {init}) -> (f32) {{")
        else:
            self.emit(f"affine.for {iv} = {b} {{")
        self.push()
        self.depth += 1
        self.ivs.append(iv)
        if is_tile:
            self.tile_iv = iv
        if red:
            self.add(acc, "f32")
            v = self.op_load()
            self.compute(max(2, n - 3))
            s = self.fresh()
            self.emit(f"{s} = arith.addf {acc}, {v} : f32")
            self.emit(f"affine.yield {s} : f32")
        elif depth == 1:
            self.compute(max(3, n))
            if r.random() < 0.15:
                self.if_op(max(2, n // 4))
        else:
            if r.random() < 0.3:
                self.compute(r.randint(2, 6))
            kids = 1 if r.random() < 0.75 else 2
            for _ in range(kids):
                self.nest(depth - 1, max(3, n // kids))
            if r.random() < 0.2:
                self.if_op(r.randint(2, 6))
            elif r.random() < 0.2:
                self.compute(r.randint(2, 5))
        self.depth -= 1
        self.tile_iv = None
        self.pop()
        if red:
            self.lines.append("  " * self.depth + "}")
            self.add(res, "f32")
            if r.random() < 0.7:
                self.op_store(res)
        else:
            self.lines.append("  " * self.depth + "}")
            self.count += 1  # implicit affine.yield

    def if_op(self, n):
        r = self.rng
        cands = [s for s in self.sets if s[1] <= len(self.ivs) and (s[2] == 0 or self.syms)]
        if not cands:
            return
        name, nd, ns, _ = r.choice(cands)
        args = f"({', '.join(r.sample(self.ivs, nd))})" + (f"[{r.choice(self.syms)}]" if ns else "")
        with_result = r.random() < 0.3 and self.pool.get("f32")
        has_else = with_result or r.random() < 0.5
        if with_result:
            res = self.fresh("r")
            self.emit(f"{res} = affine.if {name}{args} -> f32 {{")
        else:
            self.emit(f"affine.if {name}{args} {{")
        for region in range(2 if has_else else 1):
            if region == 1:
                self.lines.append("  " * self.depth + "} else {")
            self.push()
            self.depth += 1
            if with_result:
                v = self.op_load() if r.random() < 0.5 else self.pick("f32")
                if r.random() < 0.6:
                    w = self.fresh()
                    self.emit(f"{w} = arith.mulf {v}, {self.pick('f32')} : f32")
                    v = w
                self.emit(f"affine.yield {v} : f32")
            else:
                self.compute(max(2, n // (2 if has_else else 1)))
                self.count += 1  # implicit affine.yield
            self.depth -= 1
            self.pop()
        self.lines.append("  " * self.depth + "}")
        if with_result:
            self.add(res, "f32")
            self.op_store(res)

    def scf_loop(self):
        r = self.rng
        iv = self.fresh("s")
        ub = r.choice(self.syms)
        self.emit(f"scf.for {iv} = {self.c0} to {ub} step {self.c1} {{")
        self.push()
        self.depth += 1
        m, ty, shape = r.choice(self.memrefs)
        idx = ", ".join(iv if i == 0 else r.choice([self.c0, self.c1, iv]) for i in range(len(shape)))
        v = self.fresh()
        self.emit(f"{v} = memref.load {m}[{idx}] : {ty}")
        w = self.fresh()
        self.emit(f"{w} = arith.mulf {v}, {self.pick('f32')} : f32")
        if r.random() < 0.5:
            x = self.fresh()
            self.emit(f"{x} = arith.addf {w}, {v} : f32")
            w = x
        self.emit(f"memref.store {w}, {m}[{idx}] : {ty}")
        self.depth -= 1
        self.pop()
        self.lines.append("  " * self.depth + "}")
        self.count += 1  # implicit scf.yield

    def alloc(self, ty, shape):
        a = self.fresh("m")
        if None in shape:
            self.emit(f"{a} = memref.alloc({self.rng.choice(self.syms)}) : {ty}")
        else:
            self.emit(f"{a} = memref.alloc() : {ty}")
        self.memrefs.append((a, ty, shape))
        self.allocs.append((a, ty))
        return a

    def call(self):
        r = self.rng
        callee = self.funcs[max(0, len(self.funcs) - 1 - int(r.expovariate(0.2)))]
        args = []
        for ty in callee.memrefs:
            have = [m for m, t, _ in self.memrefs if t == ty]
            if have:
                args.append(r.choice(have))
            else:
                args.append(self.alloc(ty, dict(MEMREF_TYPES)[ty]))
        args += [r.choice(self.syms) for _ in range(callee.nidx)]
        if callee.has_f32:
            args.append(self.pick("f32"))
        sig = f"({', '.join(callee.arg_types())}) -> {'f32' if callee.returns else '()'}"
        if callee.returns:
            v = self.fresh("r")
            self.emit(f"{v} = func.call @{callee.name}({', '.join(args)}) : {sig}")
            self.add(v, "f32")
        else:
            self.emit(f"func.call @{callee.name}({', '.join(args)}) : {sig}")

    # ----- functions ------------------------------------------------------------------
    def function(self, idx, budget):
        r = self.rng
        self.depth = 1
        self.nval = 0
        self.pool = {}
        self.scopes, self.iv_stack = [], []
        self.ivs = []
        self.tile_iv = None
        self.used = set()
        start = self.count
        nmem = r.choice([1, 2, 2, 3, 3])
        mts = [r.choice(MEMREF_TYPES) for _ in range(nmem)]
        nidx = r.choice([1, 1, 2])
        has_f32 = r.random() < 0.7
        returns = r.random() < 0.5
        f = Func(f"f{idx}", [t for t, _ in mts], nidx, has_f32, returns)
        names = "ABCD"
        self.memrefs = [(f"%{names[i]}", t, s) for i, (t, s) in enumerate(mts)]
        self.syms = ["%n", "%m"][:nidx]
        params = [f"%{names[i]}: {t}" for i, (t, _) in enumerate(mts)]
        params += [f"{s}: index" for s in self.syms]
        if has_f32:
            params.append("%x: f32")
            self.add("%x", "f32")
        self.emit(f"func.func @{f.name}({', '.join(params)}){' -> f32' if returns else ''} {{", 0)
        self.count += 1  # func.func
        self.depth = 2
        # prologue: constants, allocations, symbols
        self.allocs = []
        self.c0, self.c1 = "%c0", "%c1"
        self.emit("%c0 = arith.constant 0 : index")
        self.emit("%c1 = arith.constant 1 : index")
        for _ in range(r.choice([1, 1, 2, 3])):
            c = self.fresh("cst")
            self.emit(f"{c} = arith.constant {fmt_f32(r.choice([0.5, 1.0, 2.0, 0.25, 3.0, -1.0, 1.5]))} : f32")
            self.add(c, "f32")
        self.const_i32 = "%ci"
        self.emit(f"%ci = arith.constant {r.choice([1, 2, 3, 7, 16])} : i32")
        for _ in range(r.choice([0, 1, 1, 2])):
            self.alloc(*r.choice(MEMREF_TYPES))
        if r.random() < 0.3:
            s = self.fresh("sym")
            self.emit(f"{s} = affine.apply affine_map<()[s0] -> (s0 floordiv 2)>()[{self.syms[0]}]")
            self.syms.append(s)
        # body
        while self.count - start < budget:
            x = r.random()
            if x < 0.72:
                d = r.choices([1, 2, 3, 4], [0.22, 0.42, 0.26, 0.10])[0]
                self.nest(d, min(budget - (self.count - start), r.randint(6, 40)))
            elif x < 0.80:
                self.scf_loop()
            elif x < 0.92 and self.funcs:
                self.call()
            else:
                self.op_load()
        for a, ty in self.allocs:
            self.emit(f"memref.dealloc {a} : {ty}")
        if returns:
            self.emit(f"return {self.pick('f32')} : f32")
        else:
            self.emit("return")
        self.depth = 1
        self.lines.append("  }")
        self.funcs.append(f)

    def program(self, target):
        self.count = 1  # builtin.module
        self.lines.append("module {")
        i = 0
        while self.count < target:
            left = target - self.count
            budget = min(left, int(self.rng.choice([
                self.rng.randint(20, 80), self.rng.randint(40, 160), self.rng.randint(100, 350)])))
            if left - budget < 20:
                budget = left
            self.function(i, max(budget - 12, 8))
            i += 1
        self.lines.append("}")
        return "\n".join(self.header) + "\n" + "\n".join(self.lines) + "\n"


def gen_hash():
    with open(__file__, "rb") as f:
        return hashlib.sha256(f.read()).hexdigest()[:16]


def read_meta(path):
    try:
        with open(path + ".meta") as f:
            return json.load(f)
    except (OSError, ValueError):
        return None


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--ops", type=int, help="target number of operations")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--form", choices=["custom", "generic"], default="custom")
    ap.add_argument("-o", dest="out", help="output file")
    ap.add_argument("--from", dest="src", help="generic form: convert this custom file")
    ap.add_argument("--force", action="store_true", help="ignore the cache")
    ap.add_argument("--count", metavar="FILE", help="print the op count of a generic-form file")
    ap.add_argument("--dense-accesses", action="store_true",
                    help="straight-line code made mostly of affine.load/affine.store (many accesses "
                         "per nest: the dependence-analysis workload)")
    a = ap.parse_args()

    if a.count:
        print(count_generic_ops(a.count))
        return
    if not a.out or (a.ops is None and not a.src):
        ap.error("need --ops N (or --from FILE) and -o FILE")

    key = {"gen": gen_hash(), "ops": a.ops, "seed": a.seed, "form": a.form}
    if a.dense_accesses:
        key["dense"] = True
    if a.src:
        sm = read_meta(a.src)
        key["src"] = sm and {k: sm.get(k) for k in ("gen", "ops", "seed", "bytes")}
    old = read_meta(a.out)
    if not a.force and old and os.path.exists(a.out) and {k: old.get(k) for k in key} == key \
            and old.get("bytes") == os.path.getsize(a.out):
        print(f"{a.out}: cached, {old['count']} ops", file=sys.stderr)
        return

    os.makedirs(os.path.dirname(os.path.abspath(a.out)), exist_ok=True)
    if a.form == "custom":
        g = Gen(a.seed)
        g.dense = a.dense_accesses
        text = g.program(a.ops)
        with open(a.out, "w") as f:
            f.write(text)
        count = g.count
    else:
        if a.src:
            cmd = [MLIR_OPT, "--mlir-print-op-generic", a.src, "-o", a.out]
            gen_count = (read_meta(a.src) or {}).get("count")
            inp = None
        else:
            g = Gen(a.seed)
            g.dense = a.dense_accesses
            inp = g.program(a.ops).encode()
            gen_count = g.count
            cmd = [MLIR_OPT, "--mlir-print-op-generic", "-", "-o", a.out]
        p = subprocess.run(cmd, input=inp, stderr=subprocess.PIPE)
        if p.returncode:
            sys.stderr.write(p.stderr.decode(errors="replace")[:4000])
            sys.exit(f"{MLIR_OPT} rejected the generated program")
        count = count_generic_ops(a.out)
        if gen_count is not None and gen_count != count:
            print(f"warning: generator counted {gen_count} ops, generic file has {count}",
                  file=sys.stderr)
    key["count"] = count
    key["bytes"] = os.path.getsize(a.out)
    with open(a.out + ".meta", "w") as f:
        json.dump(key, f)
    print(f"{a.out}: {count} ops, {key['bytes']} bytes", file=sys.stderr)


if __name__ == "__main__":
    main()
