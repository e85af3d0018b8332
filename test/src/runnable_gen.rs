//! Seeded random affine programs that `lf-run` can run, for property tests of
//! loop transformations: a transformation must keep what the program
//! computes.
//!
//! [`program`] writes one module with one public function `@k` that takes
//! static-shape `f32` memrefs and one `index` argument `%n` (lf-run's
//! `--random-inputs` gives it a value in `[0, 16)`). Its body is one to four
//! sibling loop nests of depth one to three, perfect or not: loop bounds that
//! are constants, outer loop variables, `%n`, and `max`/`min` maps of them;
//! steps one to three; statements `M[s] = f(loads)` whose subscripts are
//! affine in the surrounding loop variables (coefficients -1 to 2,
//! `floordiv`, `mod`), often on the memref the statement writes, at an
//! offset, so that loops carry dependences; reductions in `iter_args`
//! stored after their loop; statements under `affine.if`. Every access is in
//! bounds: the range of each loop variable is tracked, and each memref's
//! shape is made large enough for every subscript that touches it.

use crate::affine_gen::Rng;
use std::fmt::Write;

/// The largest value lf-run's `--random-inputs` gives an `index` argument.
const N_MAX: i64 = 15;

/// A loop variable in scope and the values it can take (inclusive).
#[derive(Clone)]
struct Iv {
    name: String,
    lo: i64,
    hi: i64,
}

/// A memref argument: its rank, and the largest subscript seen per dimension.
struct Memref {
    name: String,
    extent: Vec<i64>,
}

/// The placeholder of memref `k`'s type, replaced once its shape is known.
fn type_placeholder(k: usize) -> String {
    format!("@TYPE{k}@")
}

struct Gen {
    rng: Rng,
    out: String,
    next: usize,
    indent: usize,
    memrefs: Vec<Memref>,
}

impl Gen {
    fn fresh(&mut self, prefix: &str) -> String {
        self.next += 1;
        format!("%{prefix}{}", self.next)
    }

    fn line(&mut self, text: &str) {
        for _ in 0..self.indent {
            self.out.push_str("  ");
        }
        self.out.push_str(text);
        self.out.push('\n');
    }

    /// One subscript over `ivs`, in MLIR's custom syntax, and its range.
    fn subscript(&mut self, ivs: &[Iv]) -> (String, i64, i64) {
        if ivs.is_empty() || self.rng.chance(8) {
            let c = self.rng.range(0, 6);
            return (c.to_string(), c, c);
        }
        let iv = self.rng.pick(ivs).clone();
        match self.rng.below(10) {
            0 => {
                let d = self.rng.range(2, 3);
                (
                    format!("{} floordiv {d}", iv.name),
                    iv.lo.div_euclid(d),
                    iv.hi.div_euclid(d),
                )
            }
            1 => {
                let m = self.rng.range(2, 4);
                (format!("{} mod {m}", iv.name), 0, m - 1)
            }
            _ => {
                // A sum of up to two terms plus a constant, shifted to stay >= 0.
                let mut text = String::new();
                let (mut lo, mut hi) = (0i64, 0i64);
                let terms = if ivs.len() > 1 && self.rng.chance(30) { 2 } else { 1 };
                let mut used = Vec::new();
                for t in 0..terms {
                    let v = if t == 0 { iv.clone() } else { self.rng.pick(ivs).clone() };
                    if used.contains(&v.name) {
                        continue;
                    }
                    used.push(v.name.clone());
                    let c = *self.rng.pick(&[1, 1, 1, 1, 2, -1]);
                    if !text.is_empty() {
                        text.push_str(" + ");
                    }
                    if c == 1 {
                        text.push_str(&v.name);
                    } else {
                        let _ = write!(text, "{} * {c}", v.name);
                    }
                    let (a, b) = (c * v.lo, c * v.hi);
                    lo += a.min(b);
                    hi += a.max(b);
                }
                let mut k = self.rng.range(-1, 2);
                if lo + k < 0 {
                    k = -lo;
                }
                if k != 0 {
                    let _ = write!(text, " + {k}");
                }
                (text, lo + k, hi + k)
            }
        }
    }

    /// An access to memref `m`: its subscripts' text; widens its shape.
    fn access(&mut self, m: usize, ivs: &[Iv]) -> String {
        let rank = self.memrefs[m].extent.len();
        let mut subs = Vec::new();
        for d in 0..rank {
            let (text, _, hi) = self.subscript(ivs);
            let e = &mut self.memrefs[m].extent[d];
            *e = (*e).max(hi);
            subs.push(text);
        }
        format!("{}[{}]", self.memrefs[m].name, subs.join(", "))
    }

    fn load(&mut self, m: usize, ivs: &[Iv]) -> String {
        let v = self.fresh("v");
        let a = self.access(m, ivs);
        let line = format!("{v} = affine.load {a} : {}", type_placeholder(m));
        self.line(&line);
        v
    }

    fn constant(&mut self, value: &str) -> String {
        let c = self.fresh("c");
        self.line(&format!("{c} = arith.constant {value} : f32"));
        c
    }

    /// A value computed from one to three loads (often of `target`).
    fn value(&mut self, target: usize, ivs: &[Iv]) -> String {
        let count = self.rng.range(1, 3);
        let mut acc: Option<String> = None;
        for _ in 0..count {
            let m = if self.rng.chance(50) {
                target
            } else {
                self.rng.below(self.memrefs.len() as u64) as usize
            };
            let x = self.load(m, ivs);
            acc = Some(match acc {
                None => x,
                Some(a) => {
                    let r = self.fresh("v");
                    let op = *self
                        .rng
                        .pick(&["arith.addf", "arith.subf", "arith.maximumf", "arith.addf"]);
                    self.line(&format!("{r} = {op} {a}, {x} : f32"));
                    r
                }
            });
        }
        let mut v = acc.expect("at least one load");
        if self.rng.chance(40) {
            let factor = *self.rng.pick(&["5.000000e-01", "2.500000e-01", "1.500000e+00"]);
            let c = self.constant(factor);
            let r = self.fresh("v");
            self.line(&format!("{r} = arith.mulf {v}, {c} : f32"));
            v = r;
        }
        v
    }

    /// `M[s] = f(loads)`.
    fn statement(&mut self, ivs: &[Iv]) {
        let target = self.rng.below(self.memrefs.len() as u64) as usize;
        let v = self.value(target, ivs);
        let a = self.access(target, ivs);
        self.line(&format!("affine.store {v}, {a} : {}", type_placeholder(target)));
    }

    /// A statement under an `affine.if` on the loop variables.
    fn guarded_statement(&mut self, ivs: &[Iv]) {
        let names: Vec<&str> = ivs.iter().map(|v| v.name.as_str()).collect();
        let dims: Vec<String> = (0..ivs.len()).map(|i| format!("d{i}")).collect();
        let cond = match self.rng.below(3) {
            0 if ivs.len() > 1 => format!("d0 - d{} >= 0", ivs.len() - 1),
            1 => format!("d{} mod 2 == 0", ivs.len() - 1),
            _ => "s0 - d0 - 2 >= 0".to_string(),
        };
        self.line(&format!(
            "affine.if affine_set<({})[s0] : ({cond})>({})[%n] {{",
            dims.join(", "),
            names.join(", ")
        ));
        self.indent += 1;
        self.statement(ivs);
        self.indent -= 1;
        if self.rng.chance(40) {
            self.line("} else {");
            self.indent += 1;
            self.statement(ivs);
            self.indent -= 1;
        }
        self.line("}");
    }

    /// `M[s] = sum of loads` over a new innermost loop carried in `iter_args`.
    fn reduction(&mut self, ivs: &[Iv]) {
        let target = self.rng.below(self.memrefs.len() as u64) as usize;
        let zero = self.constant("0.000000e+00");
        let (bounds, iv) = self.bounds(ivs);
        let (acc, r) = (self.fresh("acc"), self.fresh("r"));
        self.line(&format!(
            "{r} = affine.for {} = {bounds} iter_args({acc} = {zero}) -> (f32) {{",
            iv.name
        ));
        self.indent += 1;
        let mut inner = ivs.to_vec();
        inner.push(iv);
        let src = self.rng.below(self.memrefs.len() as u64) as usize;
        let x = self.load(src, &inner);
        let s = self.fresh("v");
        self.line(&format!("{s} = arith.addf {acc}, {x} : f32"));
        self.line(&format!("affine.yield {s} : f32"));
        self.indent -= 1;
        self.line("}");
        let a = self.access(target, ivs);
        self.line(&format!("affine.store {r}, {a} : {}", type_placeholder(target)));
    }

    /// The bounds of a new loop under `ivs` (`LB to UB step S`) and its variable.
    fn bounds(&mut self, ivs: &[Iv]) -> (String, Iv) {
        let name = self.fresh("i");
        let outer = if ivs.is_empty() {
            None
        } else {
            Some(self.rng.pick(ivs).clone())
        };
        let (lb, lb_lo, lb_hi) = match (&outer, self.rng.below(10)) {
            (Some(o), 0 | 1) => (format!("affine_map<(d0) -> (d0)>({})", o.name), o.lo, o.hi),
            (Some(o), 2) => (
                format!("max affine_map<(d0) -> (d0 - 1, 0)>({})", o.name),
                (o.lo - 1).max(0),
                (o.hi - 1).max(0),
            ),
            _ => {
                let c = self.rng.range(0, 2);
                (c.to_string(), c, c)
            }
        };
        let (ub, ub_hi) = match (&outer, self.rng.below(10)) {
            (_, 0 | 1) => ("%n".to_string(), N_MAX),
            (Some(o), 2 | 3) => {
                let k = self.rng.range(1, 4);
                (format!("affine_map<(d0) -> (d0 + {k})>({})", o.name), o.hi + k)
            }
            (Some(o), 4) => {
                let k = self.rng.range(2, 5);
                (
                    format!("min affine_map<(d0)[s0] -> (d0 + {k}, s0)>({})[%n]", o.name),
                    (o.hi + k).min(N_MAX),
                )
            }
            _ => {
                let c = self.rng.range(lb_hi.max(1) + 1, lb_hi.max(1) + 9);
                (c.to_string(), c)
            }
        };
        let step = *self.rng.pick(&[1, 1, 1, 1, 2, 3]);
        let text = if step == 1 {
            format!("{lb} to {ub}")
        } else {
            format!("{lb} to {ub} step {step}")
        };
        let _ = lb_hi;
        (
            text,
            Iv {
                name,
                lo: lb_lo,
                hi: (ub_hi - 1).max(lb_lo),
            },
        )
    }

    /// A loop nest of `depth` loops under `ivs`, with statements before,
    /// between and after the inner loops.
    fn nest(&mut self, ivs: &[Iv], depth: usize) {
        let (bounds, iv) = self.bounds(ivs);
        self.line(&format!("affine.for {} = {bounds} {{", iv.name));
        self.indent += 1;
        let mut inner = ivs.to_vec();
        inner.push(iv);
        let imperfect = self.rng.chance(30);
        if depth > 1 && imperfect {
            self.statement(&inner);
        }
        if depth > 1 {
            let children = if self.rng.chance(20) { 2 } else { 1 };
            for _ in 0..children {
                self.nest(&inner, depth - 1);
            }
        } else {
            let count = self.rng.range(1, 3);
            for _ in 0..count {
                match self.rng.below(10) {
                    0 => self.guarded_statement(&inner),
                    1 => self.reduction(&inner),
                    _ => self.statement(&inner),
                }
            }
        }
        if depth > 1 && imperfect && self.rng.chance(50) {
            self.statement(&inner);
        }
        self.indent -= 1;
        self.line("}");
    }
}

/// One random runnable module from `seed`: `func.func @k(...)` (see the
/// module docs).
pub fn program(seed: u64) -> String {
    let mut g = Gen {
        rng: Rng::new(seed),
        out: String::new(),
        next: 0,
        indent: 1,
        memrefs: Vec::new(),
    };
    let count = g.rng.range(2, 4) as usize;
    for k in 0..count {
        let rank = g.rng.range(1, 3) as usize;
        g.memrefs.push(Memref {
            name: format!("%{}", ["A", "B", "C", "D"][k]),
            extent: vec![0; rank],
        });
    }
    let nests = g.rng.range(1, 4);
    for _ in 0..nests {
        let depth = g.rng.range(1, 3) as usize;
        g.nest(&[], depth);
    }
    let mut body = std::mem::take(&mut g.out);
    let mut args = Vec::new();
    for (k, m) in g.memrefs.iter().enumerate() {
        let dims: Vec<String> = m.extent.iter().map(|e| (e + 1).to_string()).collect();
        let ty = format!("memref<{}xf32>", dims.join("x"));
        body = body.replace(&type_placeholder(k), &ty);
        args.push(format!("{}: {ty}", m.name));
    }
    args.push("%n: index".into());
    format!("func.func @k({}) {{\n{body}  return\n}}\n", args.join(", "))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn deterministic_and_varied() {
        assert_eq!(program(3), program(3));
        assert_ne!(program(3), program(4));
        let all: String = (0..200).map(program).collect();
        for needle in [
            "iter_args",
            "affine.if",
            "} else {",
            "floordiv",
            "mod",
            "max affine_map",
            "min affine_map",
            "step 2",
            "to %n",
        ] {
            assert!(all.contains(needle), "no program has {needle}");
        }
    }
}
