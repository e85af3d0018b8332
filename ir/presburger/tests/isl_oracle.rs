//! Differential test against ISL (islpy): random constraint systems from a
//! fixed seed, answered by lf-presburger and by `tests/isl_oracle.py`.
//!
//! Each system has 1–6 dimensions, 0–2 symbols, 0–2 locals from
//! `floordiv`, `ceildiv` or `mod` (nested ones too), sometimes an
//! existential without a definition, 0–2 equalities and 1–8 inequalities
//! with coefficients mostly in -5..5 and a few large ones (up to 10^6),
//! bounded by a box or not. The ISL text of a system is written by this
//! file, with ISL's own `floor`, `ceil` and `mod` for the locals, so ISL
//! reads the divisions independently of how lf encodes them. For every
//! system the test compares:
//! - integer emptiness;
//! - projection: lf projects out a range of dimensions or of symbols; its
//!   result, printed by lf's `Display` (so the printer is checked too), must
//!   be `is_equal` in ISL to ISL's own projection;
//! - lexmin and lexmax of the dimensions and symbols (a point, unbounded or
//!   empty);
//! - the integer minimum and maximum of one variable (`optimize_var`,
//!   behind `constant_bound`);
//! - for 40% of the systems, `is_subset_of` against a second system (a
//!   relaxation of the first, or an unrelated one);
//!
//! and checks lf's integer sample against the constraints.
//!
//! ISL answers every question but not always fast: on a few percent of the
//! projections (large coefficients on existential variables) its set
//! difference takes seconds to minutes. The oracle gives each question a
//! time limit (`LF_PRESBURGER_ISL_LIMIT`, seconds, default 0.2); a question
//! ISL does not answer in time is not compared and is counted. The test
//! fails unless at least 2000 systems are compared for each of emptiness,
//! projection and lexmin (and lf answers every system: no limit error).
//!
//! Without islpy (`python3 -c 'import islpy'` fails) the test prints
//! `SKIPPED: islpy not installed` and passes, unless `LF_REQUIRE_TOOLS=1`.
//! `LF_PRESBURGER_CASES` (default 2600) and `LF_PRESBURGER_SEED` change the
//! number of systems and the seed; `LF_PRESBURGER_JOBS` the number of
//! oracle processes (default: the available parallelism, at most 4);
//! `LF_PRESBURGER_DUMP=FILE` writes the oracle's input to FILE
//! (`python3 tests/isl_oracle.py 0.5 < FILE` answers it again).
//!
//! `cargo test -p lf-presburger --test isl_oracle -- --nocapture`; for a
//! large local run, `LF_PRESBURGER_CASES=50000 cargo test --release -p
//! lf-presburger --test isl_oracle -- --nocapture`.

use std::collections::HashMap;
use std::fmt::Write as _;
use std::io::{Read as _, Write as _};
use std::path::PathBuf;
use std::process::{Command, Stdio};

use lf_presburger::{Error, IntegerRelation, Limit, Optimum, VarKind};

/// Writes to the real stderr, past the test harness's capture.
macro_rules! loud {
    ($($arg:tt)*) => {{
        let _ = writeln!(std::io::stderr(), $($arg)*);
    }};
}

/// Whether islpy can be imported; otherwise says loudly that the test is
/// skipped (or fails, with `LF_REQUIRE_TOOLS=1`).
fn require_islpy(test: &str) -> bool {
    let ok = Command::new("python3")
        .args(["-c", "import islpy"])
        .output()
        .is_ok_and(|o| o.status.success());
    if ok {
        return true;
    }
    if std::env::var("LF_REQUIRE_TOOLS").is_ok_and(|v| v == "1") {
        panic!("{test}: python3 cannot import islpy and LF_REQUIRE_TOOLS=1 (python3 -m pip install islpy)");
    }
    loud!("SKIPPED: islpy not installed ({test}; python3 -m pip install islpy, or set LF_REQUIRE_TOOLS=1 to fail instead)");
    false
}

fn env_or<T: std::str::FromStr>(name: &str, default: T) -> T {
    std::env::var(name).ok().and_then(|v| v.parse().ok()).unwrap_or(default)
}

/// splitmix64.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }
    /// Uniform in `lo..=hi`.
    fn range(&mut self, lo: i64, hi: i64) -> i64 {
        lo + (self.next() % ((hi - lo + 1) as u64)) as i64
    }
    /// True with probability `percent`%.
    fn chance(&mut self, percent: u64) -> bool {
        self.next() % 100 < percent
    }
    fn pick<T: Copy>(&mut self, xs: &[T]) -> T {
        xs[self.range(0, xs.len() as i64 - 1) as usize]
    }
    /// A constraint coefficient: mostly small, sometimes 0, now and then
    /// large (50..1000) or huge (10^5..10^6).
    fn coeff(&mut self) -> i64 {
        let v = if self.chance(3) {
            if self.chance(25) {
                self.range(100_000, 1_000_000)
            } else {
                self.range(50, 1000)
            }
        } else if self.chance(45) {
            0
        } else {
            self.range(1, 5)
        };
        if self.chance(50) {
            -v
        } else {
            v
        }
    }
}

/// How a local is defined.
#[derive(Clone, Copy, Debug, PartialEq)]
enum LocalKind {
    FloorDiv,
    CeilDiv,
    /// `floor(e / d)`, with a constraint on `e mod d` added.
    Mod,
    /// An existential without a definition.
    Exists,
}

#[derive(Clone, Debug)]
struct Local {
    kind: LocalKind,
    /// Over the dims, symbols and earlier locals, then the constant.
    dividend: Vec<i64>,
    divisor: i64,
    /// For `Mod`: `e mod d == c` (true) or `e mod d >= c` (false), and `c`.
    mod_eq: bool,
    mod_c: i64,
}

/// One generated system: the parts from which both lf's system and the ISL
/// text are built.
#[derive(Clone, Debug)]
struct Spec {
    dims: usize,
    symbols: usize,
    locals: Vec<Local>,
    /// Rows over dims, symbols, all locals, constant.
    eqs: Vec<Vec<i64>>,
    ineqs: Vec<Vec<i64>>,
}

impl Spec {
    fn random(rng: &mut Rng, dims: usize, symbols: usize) -> Spec {
        let n = dims + symbols;
        let mut locals = Vec::new();
        let ndiv = rng.pick(&[0, 0, 0, 1, 1, 2]);
        for l in 0..ndiv {
            let kind = rng.pick(&[LocalKind::FloorDiv, LocalKind::CeilDiv, LocalKind::Mod]);
            let mut dividend: Vec<i64> = (0..n + l)
                .map(|_| if rng.chance(40) { 0 } else { rng.range(-3, 3) })
                .collect();
            dividend.push(rng.range(-5, 5));
            let divisor = rng.range(2, 6);
            locals.push(Local {
                kind,
                dividend,
                divisor,
                mod_eq: rng.chance(60),
                mod_c: rng.range(0, divisor - 1),
            });
        }
        if rng.chance(15) {
            locals.push(Local {
                kind: LocalKind::Exists,
                dividend: Vec::new(),
                divisor: 1,
                mod_eq: false,
                mod_c: 0,
            });
        }
        let cols = n + locals.len() + 1;
        let row = |rng: &mut Rng| -> Vec<i64> {
            let mut r: Vec<i64> = (0..cols - 1).map(|_| rng.coeff()).collect();
            r.push(if rng.chance(10) {
                rng.range(-1000, 1000)
            } else {
                rng.range(-10, 10)
            });
            r
        };
        let ne = rng.pick(&[0, 0, 0, 0, 1, 1, 1, 2]);
        let eqs = (0..ne).map(|_| row(rng)).collect();
        let ni = rng.range(1, 8) as usize;
        let mut ineqs: Vec<Vec<i64>> = (0..ni).map(|_| row(rng)).collect();
        let boxed = rng.range(0, 9);
        if boxed < 6 {
            // A box around the dims and symbols (bounded)...
            for v in 0..n {
                let (lo, hi) = (rng.range(-10, 0), rng.range(0, 10));
                let mut r = vec![0; cols];
                r[v] = 1;
                r[cols - 1] = -lo;
                ineqs.push(r.clone());
                r[v] = -1;
                r[cols - 1] = hi;
                ineqs.push(r);
            }
        } else if boxed < 8 {
            // ... or lower bounds only (a lexmin may exist, a lexmax not).
            for v in 0..n {
                let mut r = vec![0; cols];
                r[v] = 1;
                r[cols - 1] = rng.range(0, 10);
                ineqs.push(r);
            }
        }
        Spec {
            dims,
            symbols,
            locals,
            eqs,
            ineqs,
        }
    }

    /// Whether a constraint has a coefficient of 10^5 or more.
    fn has_huge_coefficient(&self) -> bool {
        self.eqs.iter().chain(&self.ineqs).flatten().any(|c| c.abs() >= 100_000)
    }

    /// The same system with some constraints dropped (a superset).
    fn relaxed(&self, rng: &mut Rng) -> Spec {
        let mut s = self.clone();
        s.eqs.retain(|_| rng.chance(50));
        s.ineqs.retain(|_| rng.chance(60));
        for l in &mut s.locals {
            if l.kind == LocalKind::Mod && rng.chance(50) {
                // e mod d == c relaxes to e mod d >= c.
                l.mod_eq = false;
            }
        }
        s
    }

    fn build(&self) -> Result<IntegerRelation, Error> {
        let n = self.dims + self.symbols;
        let mut rel = IntegerRelation::new(self.dims, self.symbols);
        let mut mod_rows = Vec::new();
        for l in &self.locals {
            // The dividend over the columns so far.
            let mut e = vec![0; rel.num_cols()];
            if l.kind != LocalKind::Exists {
                let k = l.dividend.len() - 1;
                e[..k].copy_from_slice(&l.dividend[..k]);
                *e.last_mut().unwrap() = l.dividend[k];
            }
            match l.kind {
                LocalKind::FloorDiv => {
                    rel.add_local_floordiv(&e, l.divisor)?;
                }
                LocalKind::CeilDiv => {
                    rel.add_local_ceildiv(&e, l.divisor)?;
                }
                LocalKind::Mod => {
                    let m = rel.add_local_mod(&e, l.divisor)?;
                    mod_rows.push((m, l.mod_eq, l.mod_c));
                }
                LocalKind::Exists => {
                    rel.append_vars(VarKind::Local, 1);
                }
            }
        }
        let cols = rel.num_cols();
        for (m, eq, c) in mod_rows {
            // m is over the columns up to its local: widen, subtract c.
            let mut r = vec![0; cols];
            let k = m.len() - 1;
            r[..k].copy_from_slice(&m[..k]);
            r[cols - 1] = m[k] - c;
            if eq {
                rel.add_equality(&r);
            } else {
                rel.add_inequality(&r);
            }
        }
        debug_assert_eq!(cols, n + self.locals.len() + 1);
        for r in &self.eqs {
            rel.add_equality(r);
        }
        for r in &self.ineqs {
            rel.add_inequality(r);
        }
        Ok(rel)
    }

    /// The ISL expression of each local: `floor(...)`, `ceil(...)` or an
    /// existential's name.
    fn local_exprs(&self, names: &[String]) -> Vec<String> {
        let n = self.dims + self.symbols;
        let mut out: Vec<String> = Vec::new();
        for (i, l) in self.locals.iter().enumerate() {
            let s = match l.kind {
                LocalKind::Exists => format!("x{i}"),
                _ => {
                    let mut terms: Vec<String> = names.to_vec();
                    terms.truncate(n);
                    terms.extend(out.iter().cloned());
                    let e = affine(&l.dividend, &terms);
                    match l.kind {
                        LocalKind::CeilDiv => format!("ceil(({e})/{})", l.divisor),
                        _ => format!("floor(({e})/{})", l.divisor),
                    }
                }
            };
            out.push(s);
        }
        out
    }

    /// The ISL text, written independently of lf's printer.
    fn isl(&self) -> String {
        let n = self.dims + self.symbols;
        let mut names: Vec<String> = (0..self.dims).map(|i| format!("d{i}")).collect();
        names.extend((0..self.symbols).map(|i| format!("s{i}")));
        let mut terms = names.clone();
        terms.extend(self.local_exprs(&names));
        let mut cons = Vec::new();
        for (i, l) in self.locals.iter().enumerate() {
            if l.kind == LocalKind::Mod {
                let mut t = names.clone();
                t.extend(terms[n..n + i].iter().cloned());
                let e = affine(&l.dividend, &t);
                let op = if l.mod_eq { "=" } else { ">=" };
                cons.push(format!("({e}) mod {} {op} {}", l.divisor, l.mod_c));
            }
        }
        cons.extend(self.eqs.iter().map(|r| format!("{} = 0", affine(r, &terms))));
        cons.extend(self.ineqs.iter().map(|r| format!("{} >= 0", affine(r, &terms))));
        if cons.is_empty() {
            cons.push("0 = 0".into());
        }
        let exists: Vec<String> = self
            .locals
            .iter()
            .enumerate()
            .filter(|(_, l)| l.kind == LocalKind::Exists)
            .map(|(i, _)| format!("x{i}"))
            .collect();
        let mut text = String::new();
        if self.symbols > 0 {
            write!(text, "[{}] -> ", names[self.dims..n].join(", ")).unwrap();
        }
        write!(text, "{{ [{}] : ", names[..self.dims].join(", ")).unwrap();
        if exists.is_empty() {
            write!(text, "{} }}", cons.join(" and ")).unwrap();
        } else {
            write!(text, "exists ({} : {}) }}", exists.join(", "), cons.join(" and ")).unwrap();
        }
        text
    }
}

/// `c0*t0 + c1*t1 + ... + k` for a row over `terms` then the constant.
fn affine(row: &[i64], terms: &[String]) -> String {
    let mut s = String::new();
    for (c, t) in row.iter().zip(terms) {
        if *c != 0 {
            write!(s, "{c}*{t} + ").unwrap();
        }
    }
    write!(s, "{}", row[row.len() - 1]).unwrap();
    s
}

fn opt_str(o: &Optimum<Vec<i64>>) -> String {
    match o {
        Optimum::Empty => "E".into(),
        Optimum::Unbounded => "U".into(),
        Optimum::Bounded(p) => p.iter().map(|v| v.to_string()).collect::<Vec<_>>().join(","),
    }
}

fn val_str(o: &Optimum<i64>) -> String {
    match o {
        Optimum::Empty => "E".into(),
        Optimum::Unbounded => "U".into(),
        Optimum::Bounded(v) => v.to_string(),
    }
}

/// Whether `point` (all columns) satisfies every row of `rel`.
fn satisfies(rel: &IntegerRelation, point: &[i64]) -> bool {
    let eval = |r: &[i64]| -> i128 {
        r[..point.len()]
            .iter()
            .zip(point)
            .map(|(&a, &x)| a as i128 * x as i128)
            .sum::<i128>()
            + r[point.len()] as i128
    };
    rel.equalities().all(|r| eval(r) == 0) && rel.inequalities().all(|r| eval(r) >= 0)
}

/// The questions asked of both, in the oracle's names.
const QUESTIONS: [&str; 7] = ["empty", "proj", "lexmin", "lexmax", "min", "max", "subset"];

/// One case: its ISL text, the line given to the oracle, and lf's answers
/// (question name to answer text).
struct Case {
    text: String,
    line: String,
    lf: HashMap<&'static str, String>,
}

/// What lf could not answer.
#[derive(Default)]
struct Failures {
    /// Errors that fail the test.
    errors: Vec<String>,
    /// Systems with a huge coefficient (10^5 or more) on which a query
    /// reached the documented 128-bit limit (`Limit::Overflow`).
    overflow_cases: Vec<usize>,
    /// Subset tests against a system with an existential that is not a
    /// division (`Error::Unsupported`).
    unsupported: usize,
}

/// lf's answers to one random system.
fn answer(id: usize, rng: &mut Rng, failures: &mut Failures) -> Option<Case> {
    let dims = rng.range(1, 6) as usize;
    let symbols = rng.pick(&[0, 0, 1, 1, 2]);
    let spec = Spec::random(rng, dims, symbols);
    let text = spec.isl();
    let huge = spec.has_huge_coefficient();
    let mut overflowed = false;
    let mut err = |what: &str, e: Error| {
        if huge && e == Error::LimitExceeded(Limit::Overflow) {
            overflowed = true;
        } else {
            failures.errors.push(format!("case {id} {what}: {e} on {text}"));
        }
    };
    let rel = match spec.build() {
        Ok(r) => r,
        Err(e) => {
            err("build", e);
            return None;
        }
    };
    let mut lf: HashMap<&'static str, String> = HashMap::new();
    match rel.is_empty() {
        Ok(b) => {
            lf.insert("empty", if b { "1" } else { "0" }.into());
            match rel.find_integer_sample() {
                Ok(Some(p)) => {
                    assert!(!b, "case {id}: sample {p:?} of an empty set {text}");
                    assert!(satisfies(&rel, &p), "case {id}: sample {p:?} violates {text}");
                }
                Ok(None) => assert!(b, "case {id}: no sample of a non-empty set {text}"),
                Err(e) => err("find_integer_sample", e),
            }
        }
        Err(e) => err("is_empty", e),
    }
    // Projection of a range of dims, or of symbols.
    let by_symbol = symbols > 0 && rng.chance(25);
    let (kind_len, offset, ptype) = if by_symbol {
        (symbols, dims, "param")
    } else {
        (dims, 0, "set")
    };
    let pstart = rng.range(0, kind_len as i64 - 1) as usize;
    let pn = rng.range(1, (kind_len - pstart) as i64) as usize;
    let mut projected = rel.clone();
    let proj_text = match projected.project_out(offset + pstart, offset + pstart + pn) {
        Ok(()) => {
            lf.insert("proj", "1".into());
            projected.to_string()
        }
        Err(e) => {
            err("project_out", e);
            "-".into()
        }
    };
    let var = rng.range(0, (dims + symbols) as i64 - 1) as usize;
    match rel.lexmin() {
        Ok(o) => drop(lf.insert("lexmin", opt_str(&o))),
        Err(e) => err("lexmin", e),
    }
    match rel.lexmax() {
        Ok(o) => drop(lf.insert("lexmax", opt_str(&o))),
        Err(e) => err("lexmax", e),
    }
    match rel.optimize_var(var, false) {
        Ok(o) => drop(lf.insert("min", val_str(&o))),
        Err(e) => err("min", e),
    }
    match rel.optimize_var(var, true) {
        Ok(o) => drop(lf.insert("max", val_str(&o))),
        Err(e) => err("max", e),
    }
    let other = if rng.chance(40) {
        Some(if rng.chance(50) {
            spec.relaxed(rng)
        } else {
            Spec::random(rng, dims, symbols)
        })
    } else {
        None
    };
    let other_text = match &other {
        None => "-".to_string(),
        Some(o) => match o.build().and_then(|o| rel.is_subset_of(&o)) {
            Ok(b) => {
                lf.insert("subset", if b { "1" } else { "0" }.into());
                o.isl()
            }
            Err(Error::Unsupported(_)) => {
                failures.unsupported += 1;
                "-".to_string()
            }
            Err(e) => {
                err("is_subset_of", e);
                "-".to_string()
            }
        },
    };
    if overflowed {
        failures.overflow_cases.push(id);
    }
    let ptype = if proj_text == "-" { "-" } else { ptype };
    let line = format!("{id}\t{text}\t{ptype}\t{pstart}\t{pn}\t{proj_text}\t{var}\t{other_text}");
    let text = format!("{text}\n  projected ({ptype} {pstart} {pn}): {proj_text}\n  other: {other_text}");
    Some(Case { text, line, lf })
}

/// Runs the oracle on `lines` in `jobs` processes; returns its answer lines.
fn run_oracle(lines: &[&str], jobs: usize, limit: f64) -> Vec<String> {
    let script = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/isl_oracle.py");
    let jobs = jobs.clamp(1, lines.len().max(1));
    std::thread::scope(|scope| {
        let handles: Vec<_> = (0..jobs)
            .map(|j| {
                let input: String = lines.iter().skip(j).step_by(jobs).map(|l| format!("{l}\n")).collect();
                let script = &script;
                scope.spawn(move || {
                    let mut child = Command::new("python3")
                        .arg(script)
                        .arg(limit.to_string())
                        .stdin(Stdio::piped())
                        .stdout(Stdio::piped())
                        .stderr(Stdio::piped())
                        .spawn()
                        .expect("spawn python3 isl_oracle.py");
                    let mut stdin = child.stdin.take().unwrap();
                    let writer = std::thread::spawn(move || stdin.write_all(input.as_bytes()));
                    let mut out = String::new();
                    child.stdout.take().unwrap().read_to_string(&mut out).unwrap();
                    let status = child.wait_with_output().unwrap();
                    writer.join().unwrap().unwrap();
                    assert!(
                        status.status.success(),
                        "isl_oracle.py failed: {}",
                        String::from_utf8_lossy(&status.stderr)
                    );
                    out
                })
            })
            .collect();
        handles
            .into_iter()
            .flat_map(|h| h.join().unwrap().lines().map(str::to_string).collect::<Vec<_>>())
            .collect()
    })
}

#[test]
fn agrees_with_isl_on_random_systems() {
    if !require_islpy("agrees_with_isl_on_random_systems") {
        return;
    }
    let cases: usize = env_or("LF_PRESBURGER_CASES", 2600);
    let seed: u64 = env_or("LF_PRESBURGER_SEED", 0x5eed_1f00_d15c_0001);
    let limit: f64 = env_or("LF_PRESBURGER_ISL_LIMIT", 0.2);
    let jobs: usize = env_or(
        "LF_PRESBURGER_JOBS",
        std::thread::available_parallelism().map_or(1, |n| n.get()).min(4),
    );
    let mut rng = Rng(seed);
    let mut failures = Failures::default();
    let start = std::time::Instant::now();
    let mut all: Vec<Option<Case>> = Vec::with_capacity(cases);
    for id in 0..cases {
        if std::env::var("LF_PRESBURGER_TRACE").is_ok() {
            loud!("case {id}");
        }
        let t = std::time::Instant::now();
        all.push(answer(id, &mut rng, &mut failures));
        if std::env::var("LF_PRESBURGER_SLOW").is_ok() && t.elapsed().as_millis() > 20 {
            loud!("slow case {id}: {:.2?}", t.elapsed());
        }
    }
    let lf_time = start.elapsed();
    let lines: Vec<&str> = all.iter().flatten().map(|c| c.line.as_str()).collect();
    if let Ok(path) = std::env::var("LF_PRESBURGER_DUMP") {
        // The oracle's input, to run `isl_oracle.py` by hand.
        std::fs::write(&path, lines.iter().map(|l| format!("{l}\n")).collect::<String>()).unwrap();
    }
    let start = std::time::Instant::now();
    let result = run_oracle(&lines, jobs, limit);
    let isl_time = start.elapsed();

    // Per question: compared, agreed, ISL timed out.
    let mut compared: HashMap<&str, usize> = HashMap::new();
    let mut timed_out: HashMap<&str, usize> = HashMap::new();
    let mut mismatches: Vec<String> = Vec::new();
    let mut stats: HashMap<String, usize> = HashMap::new();
    for line in &result {
        let f: Vec<&str> = line.split('\t').collect();
        assert_eq!(f.len(), 3, "oracle line {line:?}");
        let id: usize = f[0].parse().unwrap();
        let case = all[id].as_ref().expect("the oracle answers only the cases given");
        let (q, isl) = (f[1], f[2]);
        if isl == "T" {
            *timed_out
                .entry(QUESTIONS.iter().find(|&&x| x == q).copied().unwrap_or("parse"))
                .or_default() += 1;
            continue;
        }
        if let Some(msg) = isl.strip_prefix("X:") {
            mismatches.push(format!("case {id}: ISL failed on {q}: {msg}\n  {}", case.text));
            continue;
        }
        let Some(q) = QUESTIONS.iter().find(|&&x| x == q).copied() else {
            panic!("oracle line {line:?}");
        };
        // A question lf did not answer (an error, reported above) is not
        // compared.
        let Some(lf) = case.lf.get(q).map(String::as_str) else {
            continue;
        };
        *compared.entry(q).or_default() += 1;
        let agree = match q {
            "proj" => isl == "1",
            _ => isl == lf,
        };
        if !agree {
            mismatches.push(format!("case {id}: {q}: isl {isl} lf {lf}\n  {}", case.text));
        }
        match q {
            "empty" => *stats.entry(format!("empty={isl}")).or_default() += 1,
            "lexmin" | "lexmax" => {
                let kind = match isl {
                    "U" => "unbounded",
                    "E" => "empty",
                    _ => "point",
                };
                *stats.entry(format!("{q} {kind}")).or_default() += 1;
            }
            "subset" => *stats.entry(format!("subset={isl}")).or_default() += 1,
            _ => {}
        }
    }
    let get = |m: &HashMap<&str, usize>, q: &str| m.get(q).copied().unwrap_or(0);
    let mut summary = String::new();
    for q in QUESTIONS {
        write!(summary, " {q} {} (T {})", get(&compared, q), get(&timed_out, q)).unwrap();
    }
    let mut stats: Vec<_> = stats.into_iter().collect();
    stats.sort();
    loud!(
        "isl_oracle: {cases} systems (seed {seed:#x}), compared with islpy per question (ISL timed out):{summary}; \
         {stats:?}; {} subset tests unsupported by lf; {} systems with a huge coefficient over lf's 128-bit limit \
         ({:?}); {} mismatches; {} lf errors; lf {lf_time:.2?}, islpy {isl_time:.2?} ({jobs} processes, limit {limit} s)",
        failures.unsupported,
        failures.overflow_cases.len(),
        failures.overflow_cases,
        mismatches.len(),
        failures.errors.len(),
    );
    for e in &failures.errors {
        loud!("  lf error: {e}");
    }
    assert!(
        mismatches.is_empty(),
        "{} disagreements with ISL:\n{}",
        mismatches.len(),
        mismatches.iter().take(30).cloned().collect::<Vec<_>>().join("\n")
    );
    assert!(
        failures.errors.is_empty(),
        "lf could not answer {} questions",
        failures.errors.len()
    );
    assert!(
        failures.overflow_cases.len() * 100 <= cases,
        "{} of {cases} systems over the 128-bit limit (more than 1%)",
        failures.overflow_cases.len()
    );
    if cases >= 2600 {
        for q in ["empty", "proj", "lexmin"] {
            assert!(
                get(&compared, q) >= 2000,
                "only {} systems compared for {q}",
                get(&compared, q)
            );
        }
    }
}
