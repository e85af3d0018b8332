//! Differential test of `test-memref-dependence-check` against mlir-opt-22.
//!
//! A seeded generator writes random functions of affine loop nests (depth
//! 1-4, imperfect, several nests per function; bounds that are constants,
//! symbols, `max`/`min` maps of outer loop variables, `floordiv`/`ceildiv`
//! expressions; steps 1-3; `affine.if` conditions with `mod`, equalities
//! and symbols, with `else` branches; `affine.apply` chains; loads and
//! stores of one to three memrefs of rank 1-4 with subscripts using
//! `floordiv`, `mod`, `ceildiv`, symbols and constants). Each file of
//! functions goes through
//! `mlir-opt-22 --pass-pipeline='builtin.module(func.func(test-memref-dependence-check))'`
//! and `lf-opt --test-memref-dependence-check`; the remark and error lines
//! (`file:line:col: remark: text`, in order) must be identical.
//!
//! `LF_DEP_FILES` (default 6) files of `LF_DEP_FUNCS` (default 20)
//! functions each, from seed `LF_DEP_SEED` (default 1): run many more
//! locally with e.g. `LF_DEP_FILES=400`. Without mlir-opt the test says
//! `SKIPPED` and passes, unless `LF_REQUIRE_TOOLS=1`.
//!
//! `cargo test -p lf-tools --test dependence_oracle`

use std::fmt::Write as _;
use std::io::Write as _;
use std::path::{Path, PathBuf};
use std::process::Command;

const LF_OPT: &str = env!("CARGO_BIN_EXE_lf-opt");

fn mlir_opt() -> Option<PathBuf> {
    let path = std::env::var_os("PATH")?;
    ["mlir-opt-22", "mlir-opt"]
        .iter()
        .find_map(|name| std::env::split_paths(&path).map(|d| d.join(name)).find(|p| p.is_file()))
}

/// A small deterministic generator (xorshift64*).
struct Rng(u64);

impl Rng {
    fn new(seed: u64) -> Rng {
        Rng(seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1)
    }
    fn next(&mut self) -> u64 {
        let mut x = self.0;
        x ^= x >> 12;
        x ^= x << 25;
        x ^= x >> 27;
        self.0 = x;
        x.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }
    /// Uniform in `lo..=hi`.
    fn range(&mut self, lo: i64, hi: i64) -> i64 {
        lo + (self.next() % ((hi - lo + 1) as u64)) as i64
    }
    fn chance(&mut self, percent: u64) -> bool {
        self.next() % 100 < percent
    }
    fn pick<'a, T>(&mut self, xs: &'a [T]) -> &'a T {
        &xs[(self.next() % xs.len() as u64) as usize]
    }
}

struct Memref {
    name: String,
    ty: String,
    rank: usize,
}

struct Gen<'a> {
    rng: &'a mut Rng,
    out: String,
    memrefs: Vec<Memref>,
    syms: Vec<String>,
    next_id: usize,
    accesses: usize,
}

impl Gen<'_> {
    fn fresh(&mut self, p: &str) -> String {
        self.next_id += 1;
        format!("%{p}{}", self.next_id)
    }

    /// An affine expression of dims `d0..dn` and symbols `s0..sm` (map syntax).
    fn expr(&mut self, nd: usize, ns: usize, depth: u32) -> String {
        let mut terms = Vec::new();
        let nterms = self.rng.range(1, 2);
        for _ in 0..nterms {
            let t = if nd > 0 && (ns == 0 || self.rng.chance(80)) {
                let d = format!("d{}", self.rng.range(0, nd as i64 - 1));
                match self.rng.range(0, 9) {
                    0 => format!("{d} * {}", self.rng.range(2, 3)),
                    1 => format!("{d} * -1"),
                    _ => d,
                }
            } else if ns > 0 {
                format!("s{}", self.rng.range(0, ns as i64 - 1))
            } else {
                format!("{}", self.rng.range(0, 5))
            };
            terms.push(t);
        }
        let mut e = terms.join(" + ");
        if self.rng.chance(50) {
            e = format!("{e} + {}", self.rng.range(-2, 3));
        }
        if depth > 0 && self.rng.chance(22) {
            let k = self.rng.range(2, 4);
            e = match self.rng.range(0, 2) {
                0 => format!("({e}) floordiv {k}"),
                1 => format!("({e}) mod {k}"),
                _ => format!("({e}) ceildiv {k}"),
            };
            if self.rng.chance(40) {
                e = format!("{e} + d{}", self.rng.range(0, nd.max(1) as i64 - 1));
            }
        }
        if nd == 0 && e.contains('d') {
            return "0".into();
        }
        e
    }

    /// `#map(dims)[syms]` text with the given operands.
    fn map_use(&mut self, exprs: &[String], dims: &[String], syms: &[String]) -> String {
        let ds: Vec<String> = (0..dims.len()).map(|i| format!("d{i}")).collect();
        let ss: Vec<String> = (0..syms.len()).map(|i| format!("s{i}")).collect();
        let mut s = format!(
            "affine_map<({})[{}] -> ({})>",
            ds.join(", "),
            ss.join(", "),
            exprs.join(", ")
        );
        write!(s, "({})", dims.join(", ")).unwrap();
        if !syms.is_empty() {
            write!(s, "[{}]", syms.join(", ")).unwrap();
        }
        s
    }

    fn lower_bound(&mut self, ivs: &[String]) -> String {
        match self.rng.range(0, 9) {
            0..=3 => format!("{}", self.rng.range(0, 3)),
            4 if !self.syms.is_empty() => self.rng.pick(&self.syms).clone(),
            5 | 6 if !ivs.is_empty() => {
                let n = if ivs.len() >= 2 {
                    1
                } else {
                    self.rng.range(1, 2) as usize
                };
                let mut es = Vec::new();
                for _ in 0..n {
                    let e = self.expr(ivs.len(), 0, 1);
                    es.push(e);
                }
                let m = self.map_use(&es, ivs, &[]);
                if n > 1 {
                    format!("max {m}")
                } else {
                    m
                }
            }
            7 if ivs.len() == 1 && !self.syms.is_empty() => {
                let s = vec![self.rng.pick(&self.syms).clone()];
                let m = self.map_use(&["d0".into(), "s0".into()], &ivs[..1], &s);
                format!("max {m}")
            }
            _ => format!("{}", self.rng.range(0, 2)),
        }
    }

    fn upper_bound(&mut self, ivs: &[String]) -> String {
        match self.rng.range(0, 9) {
            0..=3 => format!("{}", self.rng.range(4, 24)),
            4 if !self.syms.is_empty() => self.rng.pick(&self.syms).clone(),
            5 | 6 if !ivs.is_empty() => {
                let n = self.rng.range(1, 2) as usize;
                let mut es = Vec::new();
                for _ in 0..n {
                    let e = self.expr(ivs.len(), 0, 1);
                    es.push(format!("{e} + {}", self.rng.range(2, 12)));
                }
                if n > 1 || self.rng.chance(50) {
                    es.push(format!("{}", self.rng.range(8, 30)));
                    let m = self.map_use(&es, ivs, &[]);
                    format!("min {m}")
                } else {
                    self.map_use(&es, ivs, &[])
                }
            }
            7 if !self.syms.is_empty() => {
                let s = vec![self.rng.pick(&self.syms).clone()];
                let k = self.rng.range(6, 20);
                let m = self.map_use(&["s0".into(), format!("{k}")], &[], &s);
                format!("min {m}")
            }
            _ => format!("{}", self.rng.range(6, 40)),
        }
    }

    fn access(&mut self, ivs: &[String], extra: &[String], indent: usize) {
        let mi = self.rng.range(0, self.memrefs.len() as i64 - 1) as usize;
        let rank = self.memrefs[mi].rank;
        let dims: Vec<String> = ivs.iter().chain(extra).cloned().collect();
        let syms: Vec<String> = if self.rng.chance(30) {
            vec![self.rng.pick(&self.syms).clone()]
        } else {
            Vec::new()
        };
        let mut exprs = Vec::new();
        for _ in 0..rank {
            let e = if dims.is_empty() {
                format!("{}", self.rng.range(0, 3))
            } else {
                self.expr(dims.len(), syms.len(), 1)
            };
            exprs.push(e);
        }
        // The generic form carries the map as an attribute.
        let (name, ty) = (self.memrefs[mi].name.clone(), self.memrefs[mi].ty.clone());
        let operands: Vec<String> = dims.iter().chain(&syms).cloned().collect();
        let ds: Vec<String> = (0..dims.len()).map(|i| format!("d{i}")).collect();
        let ss: Vec<String> = (0..syms.len()).map(|i| format!("s{i}")).collect();
        let attr = format!(
            "affine_map<({})[{}] -> ({})>",
            ds.join(", "),
            ss.join(", "),
            exprs.join(", ")
        );
        let pad = " ".repeat(indent);
        let mut ops = vec![name.clone()];
        ops.extend(operands.iter().cloned());
        self.accesses += 1;
        if self.rng.chance(45) {
            let v = self.fresh("v");
            let _ = writeln!(
                self.out,
                "{pad}{v} = \"affine.load\"({}) <{{map = {attr}}}> : ({ty}{}) -> f32",
                ops.join(", "),
                ", index".repeat(operands.len())
            );
        } else {
            let _ = writeln!(
                self.out,
                "{pad}\"affine.store\"(%cst, {}) <{{map = {attr}}}> : (f32, {ty}{}) -> ()",
                ops.join(", "),
                ", index".repeat(operands.len())
            );
        }
    }

    fn block(&mut self, ivs: &mut Vec<String>, extra: &mut Vec<String>, depth: usize, max_depth: usize, indent: usize) {
        let pad = " ".repeat(indent);
        let scope = extra.len();
        self.block_items(ivs, extra, depth, max_depth, indent, &pad);
        extra.truncate(scope);
    }

    fn block_items(
        &mut self,
        ivs: &mut Vec<String>,
        extra: &mut Vec<String>,
        depth: usize,
        max_depth: usize,
        indent: usize,
        pad: &str,
    ) {
        let n = self.rng.range(1, 3);
        for _ in 0..n {
            if self.accesses > 9 {
                return;
            }
            let choice = self.rng.range(0, 9);
            if depth < max_depth && choice <= 3 {
                let iv = self.fresh("i");
                let lb = self.lower_bound(ivs);
                let ub = self.upper_bound(ivs);
                let step = if self.rng.chance(15) {
                    format!(" step {}", self.rng.range(2, 3))
                } else {
                    String::new()
                };
                let _ = writeln!(self.out, "{pad}affine.for {iv} = {lb} to {ub}{step} {{");
                ivs.push(iv);
                self.block(ivs, extra, depth + 1, max_depth, indent + 2);
                ivs.pop();
                let _ = writeln!(self.out, "{pad}}}");
            } else if choice == 4 && !ivs.is_empty() {
                // affine.if
                let nd = ivs.len().min(2);
                let dims: Vec<String> = ivs[ivs.len() - nd..].to_vec();
                let syms: Vec<String> = if self.rng.chance(40) {
                    vec![self.rng.pick(&self.syms).clone()]
                } else {
                    Vec::new()
                };
                let mut cs = Vec::new();
                for _ in 0..self.rng.range(1, 2) {
                    let e = self.expr(nd, syms.len(), 1);
                    let c = match self.rng.range(0, 5) {
                        0 => format!("{e} == 0"),
                        1 => "(d0) mod 2 == 0".to_string(),
                        2 if !syms.is_empty() => "s0 - d0 - 1 >= 0".to_string(),
                        _ => format!("{e} >= 0"),
                    };
                    cs.push(c);
                }
                let ds: Vec<String> = (0..nd).map(|i| format!("d{i}")).collect();
                let ss: Vec<String> = (0..syms.len()).map(|i| format!("s{i}")).collect();
                let mut set = format!(
                    "affine_set<({})[{}] : ({})>({})",
                    ds.join(", "),
                    ss.join(", "),
                    cs.join(", "),
                    dims.join(", ")
                );
                if !syms.is_empty() {
                    write!(set, "[{}]", syms.join(", ")).unwrap();
                }
                let _ = writeln!(self.out, "{pad}affine.if {set} {{");
                self.block(ivs, extra, depth, max_depth, indent + 2);
                if self.rng.chance(40) {
                    let _ = writeln!(self.out, "{pad}}} else {{");
                    self.block(ivs, extra, depth, max_depth, indent + 2);
                }
                let _ = writeln!(self.out, "{pad}}}");
            } else if choice == 5 && !ivs.is_empty() {
                // affine.apply chain
                let a = self.fresh("a");
                let e = self.expr(ivs.len(), 0, 1);
                let m = self.map_use(&[e], ivs, &[]);
                let _ = writeln!(self.out, "{pad}{a} = affine.apply {m}");
                extra.push(a.clone());
                if self.rng.chance(50) {
                    let b = self.fresh("a");
                    let s = vec![self.rng.pick(&self.syms).clone()];
                    let m = self.map_use(&["d0 * 2 + s0".into()], &[a], &s);
                    let _ = writeln!(self.out, "{pad}{b} = affine.apply {m}");
                    extra.push(b);
                }
                self.access(ivs, extra, indent);
            } else {
                self.access(ivs, extra, indent);
            }
        }
    }
}

const SHAPES: &[(&str, usize)] = &[
    ("memref<64xf32>", 1),
    ("memref<?xf32>", 1),
    ("memref<32x32xf32>", 2),
    ("memref<16x16x16xf32>", 3),
    ("memref<8x8x8x8xf32>", 4),
];

fn function(rng: &mut Rng, k: usize) -> String {
    let nmem = rng.range(1, 3) as usize;
    let mut memrefs = Vec::new();
    let mut args = Vec::new();
    for m in 0..nmem {
        let (ty, rank) = *rng.pick(SHAPES);
        memrefs.push(Memref {
            name: format!("%m{m}"),
            ty: ty.to_string(),
            rank,
        });
        args.push(format!("%m{m}: {ty}"));
    }
    let syms = vec!["%N".to_string(), "%M".to_string()];
    args.push("%N: index".into());
    args.push("%M: index".into());
    let mut g = Gen {
        rng,
        out: String::new(),
        memrefs,
        syms,
        next_id: 0,
        accesses: 0,
    };
    let _ = writeln!(g.out, "func.func @f{k}({}) {{", args.join(", "));
    let _ = writeln!(g.out, "  %cst = arith.constant 1.0 : f32");
    let nests = g.rng.range(1, 3);
    for _ in 0..nests {
        let max_depth = if g.rng.chance(25) {
            4
        } else {
            g.rng.range(1, 3) as usize
        };
        let iv = g.fresh("i");
        let lb = g.lower_bound(&[]);
        let ub = g.upper_bound(&[]);
        let step = if g.rng.chance(20) {
            format!(" step {}", g.rng.range(2, 3))
        } else {
            String::new()
        };
        let _ = writeln!(g.out, "  affine.for {iv} = {lb} to {ub}{step} {{");
        let mut ivs = vec![iv];
        let mut extra = Vec::new();
        g.block(&mut ivs, &mut extra, 1, max_depth, 4);
        let _ = writeln!(g.out, "  }}");
    }
    let _ = writeln!(g.out, "  return\n}}");
    g.out
}

fn remark_lines(text: &str) -> Vec<String> {
    text.lines()
        .filter(|l| l.contains(": remark: ") || l.contains(": error: "))
        .filter(|l| !l.starts_with(' '))
        .map(str::to_string)
        .collect()
}

fn run(cmd: &mut Command) -> (bool, String) {
    let out = cmd.output().expect("run tool");
    (out.status.success(), String::from_utf8_lossy(&out.stderr).into_owned())
}

fn env_num(name: &str, default: u64) -> u64 {
    std::env::var(name).ok().and_then(|v| v.parse().ok()).unwrap_or(default)
}

/// What mlir-opt said about one file: its remark lines, or that it crashed
/// (ran out of memory, gave up after the time limit) without answering.
fn mlir_remarks(mlir: &Path, path: &Path) -> Result<Vec<String>, String> {
    // MLIR's projectOut has no constraint-explosion guard: on some systems
    // Fourier-Motzkin grows until the allocator gives up. Bound its memory
    // and time so that such a case is a crash we can skip, not a stuck CI.
    let script = format!(
        "ulimit -v 3000000; exec timeout 10 '{}' '--pass-pipeline=builtin.module(func.func(test-memref-dependence-check))' '{}' -o /dev/null",
        mlir.display(),
        path.display()
    );
    let (ok, m) = run(Command::new("sh").arg("-c").arg(script));
    if !ok && !m.contains("dependence check failed") {
        let why = m
            .lines()
            .find(|l| l.contains("ERROR") || l.contains("error:"))
            .unwrap_or("crashed or timed out");
        return Err(why.to_string());
    }
    if !ok && m.contains("LLVM ERROR") {
        return Err("LLVM ERROR".to_string());
    }
    Ok(remark_lines(&m))
}

/// lf-opt's remark lines, and whether it stopped at the Fourier-Motzkin
/// row limit (`FM_MAX_ROWS`) somewhere.
fn lf_remarks(path: &Path) -> (Vec<String>, bool) {
    let (_, l) = run(Command::new(LF_OPT)
        .arg("--test-memref-dependence-check")
        .arg(path)
        .arg("-o")
        .arg("/dev/null"));
    (remark_lines(&l), l.contains("Fourier-Motzkin elimination would create"))
}

fn describe_diff(path: &Path, ml: &[String], ll: &[String]) -> String {
    let first = ml
        .iter()
        .zip(ll)
        .position(|(a, b)| a != b)
        .unwrap_or(ml.len().min(ll.len()));
    format!(
        "{}: remarks differ at line {first} (mlir-opt {} lines, lf-opt {} lines)\n  mlir-opt: {}\n  lf-opt:   {}",
        path.display(),
        ml.len(),
        ll.len(),
        ml.get(first).map_or("<end>", |s| s.as_str()),
        ll.get(first).map_or("<end>", |s| s.as_str()),
    )
}

/// Checks one file of functions: `Ok((remark lines compared, functions
/// skipped with the reason))`. A function is skipped only when mlir-opt
/// crashes or runs past the time limit on it (its Fourier-Motzkin
/// elimination has no explosion guard in `projectOut`), or when lf-opt
/// stops at its documented row limit there (the same explosion, which
/// mlir-opt goes through for minutes).
fn check_file(mlir: &Path, path: &Path, funcs: &[String]) -> Result<(usize, Vec<String>), String> {
    if let Ok(ml) = mlir_remarks(mlir, path) {
        let (ll, _) = lf_remarks(path);
        if ml == ll {
            return Ok((ml.len(), Vec::new()));
        }
    }
    let (mut n, mut skipped) = (0, Vec::new());
    for (k, f) in funcs.iter().enumerate() {
        let one = path.with_extension(format!("f{k}.mlir"));
        std::fs::write(&one, f).unwrap();
        match mlir_remarks(mlir, &one) {
            Ok(ml) => {
                let (ll, limit) = lf_remarks(&one);
                if ml == ll {
                    n += ml.len();
                } else if limit {
                    skipped.push(format!(
                        "{} function {k}: lf-opt stopped at FM_MAX_ROWS",
                        path.display()
                    ));
                } else {
                    return Err(describe_diff(&one, &ml, &ll));
                }
            }
            Err(why) => skipped.push(format!("{} function {k}: mlir-opt: {why}", path.display())),
        }
        let _ = std::fs::remove_file(&one);
    }
    Ok((n, skipped))
}

#[test]
fn test_memref_dependence_check_matches_mlir_opt() {
    let Some(mlir) = mlir_opt() else {
        if std::env::var("LF_REQUIRE_TOOLS").is_ok_and(|v| v == "1") {
            panic!("mlir-opt-22 (or mlir-opt) is not on PATH and LF_REQUIRE_TOOLS=1");
        }
        let _ = writeln!(std::io::stderr(), "SKIPPED: mlir-opt not installed (dependence_oracle)");
        return;
    };
    let files = env_num("LF_DEP_FILES", 6);
    let funcs = env_num("LF_DEP_FUNCS", 20) as usize;
    let seed = env_num("LF_DEP_SEED", 1);
    let dir = std::env::temp_dir().join(format!("lf-dep-oracle-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let failures = std::sync::Mutex::new(Vec::new());
    let skipped = std::sync::Mutex::new(Vec::new());
    let total = std::sync::atomic::AtomicUsize::new(0);
    let next = std::sync::atomic::AtomicU64::new(0);
    std::thread::scope(|s| {
        for _ in 0..2 {
            s.spawn(|| loop {
                let f = next.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
                if f >= files {
                    break;
                }
                let mut rng = Rng::new(seed.wrapping_mul(1_000_003).wrapping_add(f));
                let fs: Vec<String> = (0..funcs).map(|k| function(&mut rng, k)).collect();
                let path = dir.join(format!("seed{seed}-file{f}.mlir"));
                std::fs::write(&path, fs.concat()).unwrap();
                match check_file(&mlir, &path, &fs) {
                    Ok((n, skips)) => {
                        total.fetch_add(n, std::sync::atomic::Ordering::Relaxed);
                        skipped.lock().unwrap().extend(skips);
                        let _ = std::fs::remove_file(&path);
                    }
                    Err(e) => failures.lock().unwrap().push(e),
                }
            });
        }
    });
    let failures = failures.into_inner().unwrap();
    let skipped = skipped.into_inner().unwrap();
    for s in &skipped {
        let _ = writeln!(
            std::io::stderr(),
            "skipped (Fourier-Motzkin explosion, see docs/design/dependence.md): {s}"
        );
    }
    let _ = writeln!(
        std::io::stderr(),
        "dependence_oracle: {} functions in {files} files, {} skipped (Fourier-Motzkin explosion), {} remark lines compared, {} files differ",
        files as usize * funcs,
        skipped.len(),
        total.into_inner(),
        failures.len()
    );
    // A crash of mlir-opt is rare; many would mean the generator drifted.
    assert!(
        skipped.len() * 10 <= files as usize * funcs,
        "too many functions skipped"
    );
    assert!(
        failures.is_empty(),
        "{}",
        failures.iter().take(8).cloned().collect::<Vec<_>>().join("\n\n")
    );
    let _ = std::fs::remove_dir_all(&dir);
}
