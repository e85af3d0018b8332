//! Seeded random affine programs for differential tests against `mlir-opt`
//! (`affine-parallelize`, `test-memref-dependence-check`).
//!
//! [`function`] writes one `func.func` in MLIR's custom syntax: one to three
//! loop nests of depth 1 to 4 (perfect or not) over memrefs of rank 1 to 4
//! (static and dynamic sizes); loop bounds that are constants, symbols,
//! affine expressions of outer induction variables, or `max`/`min` maps
//! mixing dimensions, symbols and constants, written with
//! `affine_map<(d0, d1)[s0] -> (...)>(...)`; steps 1 to 3; subscripts that
//! are sums of terms with coefficients 2, 3 and -1 (`d0 * -1`), symbols and
//! constants, `floordiv`, `mod` and `ceildiv` of a dimension or of a sum
//! (plus a dimension); accesses in custom form or (see
//! [`Options::generic_access_percent`]) in generic form with their map;
//! `affine.apply` chains; `affine.if` with and without `else` (a load and
//! a store, or a loop nest), conditions of one or two inequalities or
//! equalities with `mod` and symbols; the odd `memref.load` (not an affine
//! access), local `memref.alloc`, and input `affine.parallel` ops; and
//! loops whose `iter_args` carry reductions of every `arith` kind (or
//! values that are not reductions), their results stored or unused.
//! [`module`] puts many functions in one module.
//!
//! Everything comes from a [`Rng`] seeded by the caller, so a failing
//! program is reproduced from its seed.

use std::fmt::Write;

/// A small deterministic generator (SplitMix64).
#[derive(Clone, Debug)]
pub struct Rng(u64);

impl Rng {
    /// A generator seeded with `seed`.
    pub fn new(seed: u64) -> Rng {
        Rng(seed ^ 0x9E37_79B9_7F4A_7C15)
    }

    /// The next 64 random bits.
    pub fn next_u64(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    /// A number in `0..n` (`n > 0`).
    pub fn below(&mut self, n: u64) -> u64 {
        self.next_u64() % n
    }

    /// A number in `lo..=hi`.
    pub fn range(&mut self, lo: i64, hi: i64) -> i64 {
        lo + self.below((hi - lo + 1) as u64) as i64
    }

    /// True with probability `percent` / 100.
    pub fn chance(&mut self, percent: u64) -> bool {
        self.below(100) < percent
    }

    /// One of `items`.
    pub fn pick<'a, T>(&mut self, items: &'a [T]) -> &'a T {
        &items[self.below(items.len() as u64) as usize]
    }
}

/// What to generate.
#[derive(Clone, Debug)]
pub struct Options {
    /// Reductions with kinds MLIR's `affine.parallel` verifier rejects
    /// (`xori`, `maxnumf`, `minsi`, index-typed sums, ...), in percent of
    /// reduction loops (mlir-opt fails on the function when it
    /// parallelizes such a loop).
    pub rejected_kinds_percent: u64,
    /// Ops that are not affine accesses (`memref.load`), in percent of statements.
    pub non_affine_percent: u64,
    /// Affine loads and stores in generic form (`"affine.load"(...) <{map =
    /// affine_map<(d0, d1)[s0] -> (...)>}>`), their subscripts written as a
    /// map, in percent of accesses.
    pub generic_access_percent: u64,
    /// Affine loads and stores per function after which no more statements
    /// are written (a reduction loop still loads its operands). The
    /// dependence check compares every pair of accesses at every depth, so
    /// its test keeps functions small; `usize::MAX` for no limit.
    pub max_accesses: usize,
    /// Input `affine.parallel` loops, in percent of loops (lf's
    /// `test-memref-dependence-check` does not count them as loops of the
    /// iteration domain the way mlir-opt does, so its test turns them off).
    pub parallel_percent: u64,
    /// Whether `affine.if` conditions may use `affine.apply` results, not
    /// only loop variables (lf's `test-memref-dependence-check` differs from
    /// mlir-opt there, so its test turns this off).
    pub conditions_on_applies: bool,
    /// Loads and stores that access an element an earlier access in scope
    /// accessed (same memref and subscripts), in percent of accesses: the
    /// store-to-load forwarding and redundant access cases of
    /// `affine-scalrep`. Off (0) by default, which leaves the programs of
    /// the other tests as they were.
    pub reuse_percent: u64,
    /// Whether every `affine.for` runs at least once, its bounds a constant
    /// range, a symbol to the symbol plus a constant, or a dimension to the
    /// dimension plus a constant (`affine-loop-invariant-code-motion` moves
    /// loads and stores only out of such loops in lf). Off by default.
    pub loops_run: bool,
}

impl Default for Options {
    fn default() -> Options {
        Options {
            rejected_kinds_percent: 0,
            non_affine_percent: 3,
            generic_access_percent: 10,
            max_accesses: usize::MAX,
            parallel_percent: 5,
            conditions_on_applies: true,
            reuse_percent: 0,
            loops_run: false,
        }
    }
}

/// A memref argument: its name, shape (`-1` dynamic) and element type.
struct Memref {
    name: String,
    shape: Vec<i64>,
}

impl Memref {
    fn ty(&self) -> String {
        let dims: Vec<String> = self
            .shape
            .iter()
            .map(|d| if *d < 0 { "?".into() } else { d.to_string() })
            .collect();
        format!("memref<{}xf32>", dims.join("x"))
    }
}

/// A reduction element type: its name, its memref of values, its initial value.
struct Scalar {
    ty: &'static str,
    memref: &'static str,
    init: &'static str,
    float: bool,
}

const SCALARS: [Scalar; 4] = [
    Scalar {
        ty: "f32",
        memref: "%xf",
        init: "%zf",
        float: true,
    },
    Scalar {
        ty: "f64",
        memref: "%xd",
        init: "%zd",
        float: true,
    },
    Scalar {
        ty: "i32",
        memref: "%xi",
        init: "%zi",
        float: false,
    },
    Scalar {
        ty: "i64",
        memref: "%xl",
        init: "%zl",
        float: false,
    },
];

const FLOAT_KINDS: [&str; 4] = ["arith.addf", "arith.mulf", "arith.maximumf", "arith.minimumf"];
const INT_KINDS: [&str; 4] = ["arith.addi", "arith.muli", "arith.andi", "arith.ori"];
const REJECTED_FLOAT_KINDS: [&str; 2] = ["arith.maxnumf", "arith.minnumf"];
const REJECTED_INT_KINDS: [&str; 5] = ["arith.xori", "arith.maxsi", "arith.minsi", "arith.maxui", "arith.minui"];

struct Gen<'o> {
    rng: Rng,
    opts: &'o Options,
    out: String,
    next: usize,
    memrefs: Vec<Memref>,
    /// Stored results of reductions go to `%of`, `%od`, `%oi`, `%ol`.
    indent: usize,
    /// Affine loads and stores written so far.
    accesses: usize,
    /// Accesses in custom form so far (for [`Options::reuse_percent`]):
    /// memref index, subscripts, the dimensions in scope then.
    recent: Vec<(usize, String, Vec<String>)>,
}

/// A loop induction variable or an `affine.apply` of them: usable as a dimension.
type Dims = Vec<String>;

impl Gen<'_> {
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

    /// An affine expression over `dims` (as SSA names, MLIR's custom
    /// subscript syntax) and the symbols `%n`, `%m`.
    fn expr(&mut self, dims: &[String]) -> String {
        if dims.is_empty() || self.rng.chance(10) {
            return match self.rng.below(3) {
                0 => self.rng.range(0, 7).to_string(),
                1 => "symbol(%n)".into(),
                _ => "symbol(%m) - 1".into(),
            };
        }
        let d = self.rng.pick(dims).clone();
        match self.rng.below(14) {
            0..=2 => d,
            3 => format!("{d} + {}", self.rng.range(1, 3)),
            4 => format!("{d} - {}", self.rng.range(1, 2)),
            5 => format!("{d} * {}", self.rng.range(2, 3)),
            6 => format!("{d} floordiv {}", self.rng.range(2, 4)),
            7 => format!("{d} mod {}", self.rng.range(2, 4)),
            8 => {
                let e = self.rng.pick(dims).clone();
                format!("{d} + {e}")
            }
            9 => format!("{d} + symbol(%n)"),
            10 => format!("{d} ceildiv {}", self.rng.range(2, 4)),
            11 | 12 => self.sum(dims, &ssa_symbols()),
            _ => self.divided(dims, &ssa_symbols()),
        }
    }

    /// A sum of one or two terms (a dimension of `dims`, maybe times 2, 3
    /// or -1; a symbol of `syms`; a constant), maybe plus a constant (from
    /// -2 to 3). The names are written as given: SSA names or `d0`, `s0`.
    fn sum(&mut self, dims: &[String], syms: &[String]) -> String {
        let mut terms = Vec::new();
        for _ in 0..self.rng.range(1, 2) {
            let t = if !dims.is_empty() && (syms.is_empty() || self.rng.chance(80)) {
                let d = self.rng.pick(dims).clone();
                match self.rng.below(10) {
                    0 => format!("{d} * {}", self.rng.range(2, 3)),
                    1 => format!("{d} * -1"),
                    _ => d,
                }
            } else if !syms.is_empty() {
                self.rng.pick(syms).clone()
            } else {
                self.rng.range(0, 5).to_string()
            };
            terms.push(t);
        }
        let mut e = terms.join(" + ");
        if self.rng.chance(50) {
            let _ = write!(e, " + {}", self.rng.range(-2, 3));
        }
        e
    }

    /// The `floordiv`, `mod` or `ceildiv` (by 2 to 4) of a [`Gen::sum`],
    /// maybe plus a dimension.
    fn divided(&mut self, dims: &[String], syms: &[String]) -> String {
        let e = self.sum(dims, syms);
        let op = *self.rng.pick(&["floordiv", "mod", "ceildiv"]);
        let mut e = format!("({e}) {op} {}", self.rng.range(2, 4));
        if !dims.is_empty() && self.rng.chance(40) {
            let d = self.rng.pick(dims).clone();
            let _ = write!(e, " + {d}");
        }
        e
    }

    /// A [`Gen::sum`], or (one time in five) a [`Gen::divided`] one.
    fn compound(&mut self, dims: &[String], syms: &[String]) -> String {
        if self.rng.chance(22) {
            self.divided(dims, syms)
        } else {
            self.sum(dims, syms)
        }
    }

    fn subscripts(&mut self, rank: usize, dims: &[String]) -> String {
        (0..rank).map(|_| self.expr(dims)).collect::<Vec<_>>().join(", ")
    }

    /// A loop bound: a constant, a symbol, or a map of the dimensions in
    /// scope and the symbols (`max` for a lower bound, `min` for an upper one).
    fn lower_bound(&mut self, dims: &[String]) -> String {
        match self.rng.below(10) {
            0..=3 => self.rng.range(0, 2).to_string(),
            4 => "%n".into(),
            5 if !dims.is_empty() => {
                let d = self.rng.pick(dims).clone();
                format!("affine_map<(d0) -> (d0 + {})>({d})", self.rng.range(0, 2))
            }
            6 if !dims.is_empty() => {
                let d = self.rng.pick(dims).clone();
                format!("max affine_map<(d0)[s0] -> (d0, s0 - 4)>({d})[%n]")
            }
            7 | 8 if !dims.is_empty() => {
                // One compound expression, or the `max` of two when a single
                // dimension is in scope (more would make Fourier-Motzkin
                // elimination explode).
                let n = if dims.len() >= 2 { 1 } else { self.rng.range(1, 2) };
                let ds = map_names("d", dims.len());
                let es: Vec<String> = (0..n).map(|_| self.compound(&ds, &[])).collect();
                let m = map_use(&es, dims, &[]);
                if n > 1 {
                    format!("max {m}")
                } else {
                    m
                }
            }
            _ => "max affine_map<()[s0, s1] -> (s0, s1 floordiv 2)>()[%n, %m]".into(),
        }
    }

    /// The bounds of an `affine.for` (see [`Options::loops_run`]).
    fn bounds(&mut self, dims: &[String]) -> (String, String) {
        let (lb, ub) = (self.lower_bound(dims), self.upper_bound(dims));
        if !self.opts.loops_run {
            return (lb, ub);
        }
        let c = self.rng.range(1, 12);
        match self.rng.below(4) {
            0 => ("%n".into(), format!("affine_map<()[s0] -> (s0 + {c})>()[%n]")),
            1 if !dims.is_empty() => {
                let d = self.rng.pick(dims).clone();
                (
                    format!("affine_map<(d0) -> (d0)>({d})"),
                    format!("affine_map<(d0) -> (d0 + {c})>({d})"),
                )
            }
            _ => ("0".into(), (c + 3).to_string()),
        }
    }

    fn upper_bound(&mut self, dims: &[String]) -> String {
        match self.rng.below(10) {
            0..=3 => self.rng.range(4, 16).to_string(),
            4 => "%m".into(),
            5 if !dims.is_empty() => {
                let d = self.rng.pick(dims).clone();
                format!("affine_map<(d0) -> (d0 + {})>({d})", self.rng.range(2, 8))
            }
            6 if !dims.is_empty() => {
                let d = self.rng.pick(dims).clone();
                format!("min affine_map<(d0)[s0] -> (d0 + 8, s0)>({d})[%m]")
            }
            7 | 8 if !dims.is_empty() => {
                let n = self.rng.range(1, 2);
                let ds = map_names("d", dims.len());
                let mut es = Vec::new();
                for _ in 0..n {
                    let e = self.compound(&ds, &[]);
                    es.push(format!("{e} + {}", self.rng.range(2, 12)));
                }
                if n > 1 || self.rng.chance(50) {
                    es.push(self.rng.range(8, 30).to_string());
                    format!("min {}", map_use(&es, dims, &[]))
                } else {
                    map_use(&es, dims, &[])
                }
            }
            _ => format!("min affine_map<()[s0] -> (s0, {})>()[%m]", self.rng.range(6, 20)),
        }
    }

    /// The operands and map of an access in generic form: `(operands, map)`,
    /// the subscripts compound expressions of the dimensions in scope and
    /// (sometimes) a symbol.
    fn access_map(&mut self, rank: usize, dims: &[String]) -> (Vec<String>, String) {
        let syms: Vec<String> = if self.rng.chance(30) {
            vec![self.rng.pick(&["%n", "%m"]).to_string()]
        } else {
            Vec::new()
        };
        let (ds, ss) = (map_names("d", dims.len()), map_names("s", syms.len()));
        let exprs: Vec<String> = (0..rank)
            .map(|_| {
                if dims.is_empty() {
                    self.rng.range(0, 3).to_string()
                } else {
                    self.compound(&ds, &ss)
                }
            })
            .collect();
        let map = format!(
            "affine_map<({})[{}] -> ({})>",
            ds.join(", "),
            ss.join(", "),
            exprs.join(", ")
        );
        (dims.iter().chain(&syms).cloned().collect(), map)
    }

    /// With [`Options::reuse_percent`], an earlier access whose subscripts
    /// are valid here (every dimension it used is in scope): its memref and
    /// subscripts.
    fn reuse(&mut self, dims: &[String]) -> Option<(usize, String)> {
        if self.opts.reuse_percent == 0 || !self.rng.chance(self.opts.reuse_percent) {
            return None;
        }
        let valid: Vec<usize> = (0..self.recent.len())
            .filter(|&i| self.recent[i].2.iter().all(|d| dims.contains(d)))
            .collect();
        if valid.is_empty() {
            return None;
        }
        let (m, subs, _) = self.recent[*self.rng.pick(&valid)].clone();
        Some((m, subs))
    }

    /// Remembers an access for [`Gen::reuse`].
    fn remember(&mut self, m: usize, subs: &str, dims: &[String]) {
        if self.opts.reuse_percent > 0 {
            self.recent.push((m, subs.to_string(), dims.to_vec()));
        }
    }

    /// A value of `f32` computed from loads in scope.
    fn value(&mut self, dims: &[String]) -> String {
        if let Some((m, subs)) = self.reuse(dims) {
            let (name, ty) = (self.memrefs[m].name.clone(), self.memrefs[m].ty());
            let v = self.fresh("v");
            self.accesses += 1;
            self.line(&format!("{v} = affine.load {name}[{subs}] : {ty}"));
            return v;
        }
        let m = self.rng.below(self.memrefs.len() as u64) as usize;
        let rank = self.memrefs[m].shape.len();
        let (name, ty) = (self.memrefs[m].name.clone(), self.memrefs[m].ty());
        let v = self.fresh("v");
        if self.rng.chance(self.opts.non_affine_percent) && !dims.is_empty() {
            let idx: Vec<String> = (0..rank).map(|_| self.rng.pick(dims).clone()).collect();
            self.line(&format!("{v} = memref.load {name}[{}] : {ty}", idx.join(", ")));
        } else if self.rng.chance(self.opts.generic_access_percent) {
            self.accesses += 1;
            let (operands, map) = self.access_map(rank, dims);
            self.line(&format!(
                "{v} = \"affine.load\"({name}{}) <{{map = {map}}}> : ({ty}{}) -> f32",
                operands.iter().map(|o| format!(", {o}")).collect::<String>(),
                ", index".repeat(operands.len())
            ));
        } else {
            self.accesses += 1;
            let subs = self.subscripts(rank, dims);
            self.line(&format!("{v} = affine.load {name}[{subs}] : {ty}"));
            self.remember(m, &subs, dims);
        }
        if self.rng.chance(30) {
            let w = self.fresh("v");
            self.line(&format!("{w} = arith.addf {v}, %zf : f32"));
            return w;
        }
        v
    }

    fn store(&mut self, v: &str, dims: &[String]) {
        if let Some((m, subs)) = self.reuse(dims) {
            let (name, ty) = (self.memrefs[m].name.clone(), self.memrefs[m].ty());
            self.accesses += 1;
            self.line(&format!("affine.store {v}, {name}[{subs}] : {ty}"));
            return;
        }
        let m = self.rng.below(self.memrefs.len() as u64) as usize;
        let rank = self.memrefs[m].shape.len();
        let (name, ty) = (self.memrefs[m].name.clone(), self.memrefs[m].ty());
        self.accesses += 1;
        if self.rng.chance(self.opts.generic_access_percent) {
            let (operands, map) = self.access_map(rank, dims);
            self.line(&format!(
                "\"affine.store\"({v}, {name}{}) <{{map = {map}}}> : (f32, {ty}{}) -> ()",
                operands.iter().map(|o| format!(", {o}")).collect::<String>(),
                ", index".repeat(operands.len())
            ));
        } else {
            let subs = self.subscripts(rank, dims);
            self.line(&format!("affine.store {v}, {name}[{subs}] : {ty}"));
            self.remember(m, &subs, dims);
        }
    }

    /// An `affine.if` condition on the last (up to) two dimensions in scope
    /// and maybe a symbol: one or two constraints, inequalities or
    /// equalities of compound expressions, `mod` tests, bounds by a symbol.
    fn condition(&mut self, dims: &[String]) -> String {
        let ivs: Vec<String>;
        let dims = if self.opts.conditions_on_applies {
            dims
        } else {
            ivs = dims.iter().filter(|d| !d.starts_with("%a")).cloned().collect();
            &ivs[..]
        };
        if self.rng.chance(30) {
            let d = self.rng.pick(dims).clone();
            let c = self.rng.range(0, 4);
            return format!("affine_set<(d0)[s0] : (d0 - {c} >= 0, s0 - d0 - 1 >= 0)>({d})[%n]");
        }
        let nd = dims.len().min(2);
        let operands = &dims[dims.len() - nd..];
        let syms: Vec<String> = if self.rng.chance(40) {
            vec![self.rng.pick(&["%n", "%m"]).to_string()]
        } else {
            Vec::new()
        };
        let (ds, ss) = (map_names("d", nd), map_names("s", syms.len()));
        let mut cs = Vec::new();
        for _ in 0..self.rng.range(1, 2) {
            let e = self.compound(&ds, &ss);
            cs.push(match self.rng.below(6) {
                0 => format!("{e} == 0"),
                1 => format!("d0 mod {} == 0", self.rng.range(2, 3)),
                2 if !syms.is_empty() => "s0 - d0 - 1 >= 0".to_string(),
                _ => format!("{e} >= 0"),
            });
        }
        let mut set = format!(
            "affine_set<({})[{}] : ({})>({})",
            ds.join(", "),
            ss.join(", "),
            cs.join(", "),
            operands.join(", ")
        );
        if !syms.is_empty() {
            let _ = write!(set, "[{}]", syms.join(", "));
        }
        set
    }

    /// The body of an `affine.if` branch: a load and a store, or a loop nest.
    fn branch(&mut self, dims: &mut Dims, depth_left: usize) {
        self.indent += 1;
        if depth_left > 0 && self.rng.chance(25) {
            self.nest(dims, depth_left);
        } else {
            let v = self.value(dims);
            self.store(&v, dims);
        }
        self.indent -= 1;
    }

    /// A few statements at the current point.
    fn statements(&mut self, dims: &mut Dims, depth_left: usize) {
        let n = self.rng.range(1, 3);
        for _ in 0..n {
            if self.accesses >= self.opts.max_accesses {
                return;
            }
            match self.rng.below(12) {
                0 if !dims.is_empty() => {
                    let a = self.fresh("a");
                    if self.rng.chance(50) {
                        let d = self.rng.pick(dims).clone();
                        let k = self.rng.range(2, 3);
                        self.line(&format!("{a} = affine.apply affine_map<(d0) -> (d0 * {k} + 1)>({d})"));
                    } else {
                        let ds = map_names("d", dims.len());
                        let e = self.compound(&ds, &[]);
                        let m = map_use(&[e], dims, &[]);
                        self.line(&format!("{a} = affine.apply {m}"));
                    }
                    if self.rng.chance(30) {
                        // A chain: an apply of an apply and a symbol.
                        let b = self.fresh("a");
                        let s = self.rng.pick(&["%n", "%m"]).to_string();
                        let m = map_use(&["d0 * 2 + s0".into()], std::slice::from_ref(&a), &[s]);
                        self.line(&format!("{b} = affine.apply {m}"));
                        dims.push(a);
                        dims.push(b);
                    } else {
                        dims.push(a);
                    }
                }
                1 if dims.iter().any(|d| !d.starts_with("%a")) => {
                    let set = self.condition(dims);
                    self.line(&format!("affine.if {set} {{"));
                    let mark = dims.len();
                    self.branch(dims, depth_left);
                    if self.rng.chance(40) {
                        self.line("} else {");
                        self.branch(dims, depth_left);
                    }
                    dims.truncate(mark);
                    self.line("}");
                }
                2 if self.rng.chance(30) => {
                    let t = self.fresh("t");
                    self.line(&format!("{t} = memref.alloc() : memref<4xf32>"));
                    let c = self.rng.range(0, 3);
                    self.accesses += 1;
                    self.line(&format!("affine.store %zf, {t}[{c}] : memref<4xf32>"));
                    self.line(&format!("memref.dealloc {t} : memref<4xf32>"));
                }
                3..=6 => {
                    let v = self.value(dims);
                    self.store(&v, dims);
                }
                7 if depth_left > 0 && self.rng.chance(20) => self.reduction_loop(dims, depth_left),
                _ => {
                    let _ = self.value(dims);
                }
            }
        }
    }

    /// `affine.for` (or, rarely, an input `affine.parallel`) with a body.
    fn nest(&mut self, dims: &mut Dims, depth_left: usize) {
        if depth_left == 0 {
            return;
        }
        if self.rng.chance(15) {
            return self.reduction_loop(dims, depth_left);
        }
        let iv = self.fresh("i");
        if self.rng.chance(self.opts.parallel_percent) {
            let ub = self.rng.range(4, 12);
            self.line(&format!("affine.parallel ({iv}) = (0) to ({ub}) {{"));
        } else {
            let (lb, ub) = self.bounds(dims);
            let step = match self.rng.below(6) {
                0 => " step 2".to_string(),
                1 => " step 3".to_string(),
                _ => String::new(),
            };
            self.line(&format!("affine.for {iv} = {lb} to {ub}{step} {{"));
        }
        self.indent += 1;
        let mark = dims.len();
        dims.push(iv);
        if self.rng.chance(40) {
            self.statements(dims, 0);
        }
        let inner = if depth_left > 1 { self.rng.range(1, 2) } else { 0 };
        for _ in 0..inner {
            self.nest(dims, depth_left - 1);
        }
        if inner == 0 || self.rng.chance(30) {
            self.statements(dims, depth_left - 1);
        }
        dims.truncate(mark);
        self.indent -= 1;
        self.line("}");
    }

    /// A loop with one to three `iter_args`, reductions of random kinds or
    /// not reductions at all.
    fn reduction_loop(&mut self, dims: &mut Dims, depth_left: usize) {
        let iv = self.fresh("i");
        let count = self.rng.range(1, 3) as usize;
        let rejected = self.rng.chance(self.opts.rejected_kinds_percent);
        let mut carried = Vec::new();
        for _ in 0..count {
            let s = self.rng.below(SCALARS.len() as u64) as usize;
            carried.push((self.fresh("acc"), s));
        }
        let (lb, ub) = self.bounds(dims);
        let step = if self.rng.chance(20) { " step 2" } else { "" };
        let results = self.fresh("r");
        let inits: Vec<String> = carried
            .iter()
            .map(|(a, s)| format!("{a} = {}", SCALARS[*s].init))
            .collect();
        let types: Vec<&str> = carried.iter().map(|(_, s)| SCALARS[*s].ty).collect();
        let lhs = if count == 1 {
            results.clone()
        } else {
            format!("{results}:{count}")
        };
        self.line(&format!(
            "{lhs} = affine.for {iv} = {lb} to {ub}{step} iter_args({}) -> ({}) {{",
            inits.join(", "),
            types.join(", ")
        ));
        self.indent += 1;
        let mark = dims.len();
        dims.push(iv.clone());
        if depth_left > 1 && self.rng.chance(30) {
            self.nest(dims, depth_left - 1);
        }
        if self.rng.chance(30) {
            self.statements(dims, 0);
        }
        let mut yielded = Vec::new();
        for (k, (acc, s)) in carried.iter().enumerate() {
            let sc = &SCALARS[*s];
            let sub = self.expr(dims);
            let x = self.fresh("x");
            self.accesses += 1;
            self.line(&format!(
                "{x} = affine.load {}[{sub}] : memref<64x{}>",
                sc.memref, sc.ty
            ));
            let kind: &str = match (rejected && k == 0, sc.float) {
                (true, true) => self.rng.pick::<&str>(&REJECTED_FLOAT_KINDS),
                (true, false) => self.rng.pick::<&str>(&REJECTED_INT_KINDS),
                (false, true) => self.rng.pick::<&str>(&FLOAT_KINDS),
                (false, false) => self.rng.pick::<&str>(&INT_KINDS),
            };
            let c = self.fresh("c");
            let (a, b) = if self.rng.chance(50) {
                (acc.as_str(), x.as_str())
            } else {
                (x.as_str(), acc.as_str())
            };
            let flags = match (sc.float, self.rng.below(8)) {
                (true, 0) => " fastmath<fast>",
                (false, 0) if kind == "arith.addi" || kind == "arith.muli" => " overflow<nsw>",
                _ => "",
            };
            match self.rng.below(14) {
                // Not a reduction: the carried value is used twice.
                0 => {
                    let d = self.fresh("c");
                    self.line(&format!("{d} = {kind} {acc}, {acc}{flags} : {}", sc.ty));
                    self.line(&format!("{c} = {kind} {a}, {b}{flags} : {}", sc.ty));
                    let e = self.fresh("c");
                    self.line(&format!("{e} = {kind} {c}, {d} : {}", sc.ty));
                    yielded.push(e);
                }
                // Not a reduction: carried unchanged, or combined with another carried value.
                1 => yielded.push(acc.clone()),
                2 if sc.float => {
                    self.line(&format!("{c} = arith.subf {a}, {b} : {}", sc.ty));
                    yielded.push(c);
                }
                _ => {
                    self.line(&format!("{c} = {kind} {a}, {b}{flags} : {}", sc.ty));
                    yielded.push(c);
                }
            }
        }
        dims.truncate(mark);
        self.line(&format!("affine.yield {} : {}", yielded.join(", "), types.join(", ")));
        self.indent -= 1;
        self.line("}");
        if self.rng.chance(50) {
            let k = self.rng.below(count as u64) as usize;
            let r = if count == 1 {
                results.clone()
            } else {
                format!("{results}#{k}")
            };
            let sc = &SCALARS[carried[k].1];
            let sub = self.expr(dims);
            let out = format!("%o{}", &sc.memref[2..]);
            self.accesses += 1;
            self.line(&format!("affine.store {r}, {out}[{sub}] : memref<64x{}>", sc.ty));
        }
    }
}

/// The symbols as written in subscripts (MLIR's custom syntax).
fn ssa_symbols() -> [String; 2] {
    ["symbol(%n)".into(), "symbol(%m)".into()]
}

/// `d0, d1, ...` (or `s0, ...`): `count` names of map dimensions (symbols).
fn map_names(prefix: &str, count: usize) -> Vec<String> {
    (0..count).map(|i| format!("{prefix}{i}")).collect()
}

/// `affine_map<(d0, ...)[s0, ...] -> (exprs)>(dims)[syms]`.
fn map_use(exprs: &[String], dims: &[String], syms: &[String]) -> String {
    let mut s = format!(
        "affine_map<({})[{}] -> ({})>({})",
        map_names("d", dims.len()).join(", "),
        map_names("s", syms.len()).join(", "),
        exprs.join(", "),
        dims.join(", ")
    );
    if !syms.is_empty() {
        let _ = write!(s, "[{}]", syms.join(", "));
    }
    s
}

/// One random function `@f{index}` (see the module docs).
pub fn function(rng: &mut Rng, index: usize, opts: &Options) -> String {
    let mut g = Gen {
        rng: rng.clone(),
        opts,
        out: String::new(),
        next: 0,
        memrefs: Vec::new(),
        indent: 1,
        accesses: 0,
        recent: Vec::new(),
    };
    let count = g.rng.range(1, 3);
    for k in 0..count {
        let rank = g.rng.range(1, 4) as usize;
        let shape = (0..rank).map(|_| *g.rng.pick(&[8, 16, 16, 32, -1])).collect();
        g.memrefs.push(Memref {
            name: format!("%{}", ["A", "B", "C"][k as usize]),
            shape,
        });
    }
    let mut args: Vec<String> = g.memrefs.iter().map(|m| format!("{}: {}", m.name, m.ty())).collect();
    for s in &SCALARS {
        args.push(format!("{}: memref<64x{}>", s.memref, s.ty));
        args.push(format!("%o{}: memref<64x{}>", &s.memref[2..], s.ty));
        args.push(format!("{}: {}", s.init, s.ty));
    }
    args.push("%n: index".into());
    args.push("%m: index".into());
    let nests = g.rng.range(1, 3);
    for _ in 0..nests {
        let depth = g.rng.range(1, 4) as usize;
        let mut dims = Vec::new();
        g.nest(&mut dims, depth);
    }
    *rng = g.rng;
    let mut text = String::new();
    let _ = writeln!(text, "func.func @f{index}({}) {{", args.join(", "));
    text.push_str(&g.out);
    text.push_str("  return\n}\n");
    text
}

/// A module of `count` random functions from `seed`.
pub fn module(seed: u64, count: usize, opts: &Options) -> String {
    let mut rng = Rng::new(seed);
    let mut text = String::new();
    for i in 0..count {
        text.push_str(&function(&mut rng, i, opts));
    }
    text
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn deterministic_and_varied() {
        let opts = Options::default();
        let a = module(7, 20, &opts);
        assert_eq!(a, module(7, 20, &opts));
        assert_ne!(a, module(8, 20, &opts));
        for needle in [
            "affine.for",
            "iter_args",
            "floordiv",
            "mod",
            "affine.if",
            "max affine_map",
            "min affine_map",
            "step",
            "ceildiv",
            ") floordiv",
            ") mod",
            ") ceildiv",
            " * -1",
            " == 0",
            "} else {",
            "\"affine.load\"",
            "\"affine.store\"",
            "memref.load",
            "memref.alloc",
            "affine.parallel",
        ] {
            assert!(a.contains(needle), "{needle} in\n{a}");
        }
    }

    #[test]
    fn reuse_repeats_accesses() {
        let opts = Options {
            reuse_percent: 40,
            ..Options::default()
        };
        let text = module(7, 20, &opts);
        let lines: Vec<&str> = text.lines().map(str::trim).collect();
        let subscripts = |l: &str| l.split_once(" = affine.load ").map(|(_, r)| r.to_string());
        let loads: Vec<String> = lines.iter().filter_map(|l| subscripts(l)).collect();
        let unique: std::collections::HashSet<&String> = loads.iter().collect();
        assert!(unique.len() < loads.len(), "no load repeats an access");
        assert_eq!(
            module(7, 20, &Options::default()),
            module(
                7,
                20,
                &Options {
                    reuse_percent: 0,
                    ..opts
                }
            )
        );
    }

    #[test]
    fn access_limit() {
        let opts = Options {
            max_accesses: 4,
            ..Options::default()
        };
        let small = module(7, 20, &opts);
        let count = |m: &str| m.matches("affine.load").count() + m.matches("affine.store").count();
        assert!(count(&small) < count(&module(7, 20, &Options::default())));
    }
}
