//! Differential test against ISL (islpy): random constraint systems from a
//! fixed seed, answered by lf-presburger and by `tests/isl_oracle.py`.
//!
//! For each system (1–6 dimensions, 0–2 symbols, 0–2 locals from
//! `floordiv`, 0–2 equalities, 1–8 inequalities, coefficients in -5..5 with
//! a few large ones, often a box around it) the test compares:
//! - integer emptiness;
//! - projection: lf's projected set, printed by its `Display`, must be
//!   `is_equal` in ISL to ISL's own projection;
//! - lexmin and lexmax of the dimensions and symbols (point, unbounded or
//!   empty);
//! - the integer minimum and maximum of one variable;
//! - `is_subset_of` against a second system (a relaxation of the first, or
//!   an unrelated one);
//! and checks lf's integer sample against the constraints.
//!
//! The ISL text of the inputs comes from this file's own writer, not from
//! lf's `Display` (which is tested through the projections).
//!
//! Without islpy (`python3 -c 'import islpy'` fails) the test prints
//! `SKIPPED: islpy not installed` and passes, unless `LF_REQUIRE_TOOLS=1`.
//! `LF_PRESBURGER_CASES` (default 2500) and `LF_PRESBURGER_SEED` change the
//! number of systems and the seed.
//!
//! `cargo test -p lf-presburger --test isl_oracle -- --nocapture`

use std::fmt::Write as _;
use std::io::Write as _;
use std::path::PathBuf;
use std::process::Command;

use lf_presburger::{IntegerRelation, Optimum};

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
    fn coeff(&mut self) -> i64 {
        if self.chance(3) {
            let big = if self.chance(20) {
                self.range(100_000, 1_000_000)
            } else {
                self.range(50, 1000)
            };
            if self.chance(50) {
                -big
            } else {
                big
            }
        } else if self.chance(45) {
            0
        } else {
            self.range(-5, 5)
        }
    }
}

/// One generated system: the parts from which both lf's system and the ISL
/// text are built.
#[derive(Clone)]
struct Spec {
    dims: usize,
    symbols: usize,
    /// `(dividend over dims, symbols, earlier locals, constant; divisor)`.
    locals: Vec<(Vec<i64>, i64)>,
    /// Rows over dims, symbols, all locals, constant.
    eqs: Vec<Vec<i64>>,
    ineqs: Vec<Vec<i64>>,
}

impl Spec {
    fn random(rng: &mut Rng, dims: usize, symbols: usize) -> Spec {
        let mut locals = Vec::new();
        let nl = [0, 0, 0, 1, 1, 2][rng.range(0, 5) as usize];
        for l in 0..nl {
            let mut e: Vec<i64> = (0..dims + symbols + l).map(|_| rng.range(-3, 3)).collect();
            e.push(rng.range(-5, 5));
            locals.push((e, rng.range(2, 5)));
        }
        let cols = dims + symbols + nl + 1;
        let row = |rng: &mut Rng| -> Vec<i64> {
            let mut r: Vec<i64> = (0..cols - 1).map(|_| rng.coeff()).collect();
            r.push(if rng.chance(10) {
                rng.range(-1000, 1000)
            } else {
                rng.range(-10, 10)
            });
            r
        };
        let ne = [0, 0, 0, 0, 1, 1, 1, 2][rng.range(0, 7) as usize];
        let eqs = (0..ne).map(|_| row(rng)).collect();
        let ni = rng.range(1, 8) as usize;
        let mut ineqs: Vec<Vec<i64>> = (0..ni).map(|_| row(rng)).collect();
        if rng.chance(60) {
            // A box around the dims and symbols.
            for v in 0..dims + symbols {
                let (lo, hi) = (rng.range(-10, 0), rng.range(0, 10));
                let mut r = vec![0; cols];
                r[v] = 1;
                r[cols - 1] = -lo;
                ineqs.push(r.clone());
                r[v] = -1;
                r[cols - 1] = hi;
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

    /// The same system with some constraints dropped (a superset).
    fn relaxed(&self, rng: &mut Rng) -> Spec {
        let mut s = self.clone();
        s.eqs.retain(|_| rng.chance(50));
        s.ineqs.retain(|_| rng.chance(60));
        s
    }

    fn build(&self) -> IntegerRelation {
        let mut rel = IntegerRelation::new(self.dims, self.symbols);
        for (e, d) in &self.locals {
            rel.add_local_floordiv(e, *d).expect("small coefficients");
        }
        for r in &self.eqs {
            rel.add_equality(r);
        }
        for r in &self.ineqs {
            rel.add_inequality(r);
        }
        rel
    }

    fn names(&self) -> Vec<String> {
        let mut v: Vec<String> = (0..self.dims).map(|i| format!("d{i}")).collect();
        v.extend((0..self.symbols).map(|i| format!("s{i}")));
        v.extend((0..self.locals.len()).map(|i| format!("e{i}")));
        v
    }

    /// The ISL text, written independently of lf's printer.
    fn isl(&self) -> String {
        let names = self.names();
        let expr = |r: &[i64]| -> String {
            let mut s = String::new();
            for (c, name) in r.iter().zip(&names) {
                if *c != 0 {
                    write!(s, "{c}*{name} + ").unwrap();
                }
            }
            write!(s, "{}", r[r.len() - 1]).unwrap();
            s
        };
        let mut cons = Vec::new();
        let n = self.dims + self.symbols;
        for (l, (e, d)) in self.locals.iter().enumerate() {
            // e - d q >= 0 and -e + d q + d - 1 >= 0, over all columns.
            let mut lo = vec![0; n + self.locals.len() + 1];
            lo[..n + l].copy_from_slice(&e[..n + l]);
            lo[n + l] = -d;
            *lo.last_mut().unwrap() = e[e.len() - 1];
            let hi: Vec<i64> = lo
                .iter()
                .enumerate()
                .map(|(i, &v)| if i == lo.len() - 1 { -v + d - 1 } else { -v })
                .collect();
            cons.push(format!("{} >= 0", expr(&lo)));
            cons.push(format!("{} >= 0", expr(&hi)));
        }
        cons.extend(self.eqs.iter().map(|r| format!("{} = 0", expr(r))));
        cons.extend(self.ineqs.iter().map(|r| format!("{} >= 0", expr(r))));
        let mut text = String::new();
        if self.symbols > 0 {
            write!(text, "[{}] -> ", names[self.dims..n].join(", ")).unwrap();
        }
        write!(text, "{{ [{}] : ", names[..self.dims].join(", ")).unwrap();
        if self.locals.is_empty() {
            write!(text, "{} }}", cons.join(" and ")).unwrap();
        } else {
            write!(text, "exists ({} : {}) }}", names[n..].join(", "), cons.join(" and ")).unwrap();
        }
        text
    }
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

/// lf's answers for one case, in the oracle's output format (without id).
struct Answers {
    empty: String,
    lexmin: String,
    lexmax: String,
    min: String,
    max: String,
    subset: String,
}

#[test]
fn agrees_with_isl_on_random_systems() {
    if !require_islpy("agrees_with_isl_on_random_systems") {
        return;
    }
    let cases: usize = std::env::var("LF_PRESBURGER_CASES")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(2500);
    let seed: u64 = std::env::var("LF_PRESBURGER_SEED")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(0x5eed_1f00_d15c_0001);
    let mut rng = Rng(seed);
    let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("presburger-isl-oracle");
    std::fs::create_dir_all(&dir).unwrap();
    let (input, output) = (dir.join("cases.tsv"), dir.join("answers.tsv"));

    let mut lines = String::new();
    let mut answers: Vec<Answers> = Vec::new();
    let mut texts: Vec<String> = Vec::new();
    let mut projections = 0usize;
    let mut errors: Vec<String> = Vec::new();
    let start = std::time::Instant::now();
    for id in 0..cases {
        let dims = rng.range(1, 6) as usize;
        let symbols = rng.range(0, 2) as usize;
        let spec = Spec::random(&mut rng, dims, symbols);
        let rel = spec.build();
        let text = spec.isl();
        if std::env::var("LF_PRESBURGER_TRACE").is_ok() {
            loud!("case {id}: {text}");
        }
        let err = |what: &str, e: lf_presburger::Error| format!("case {id} {what}: {e} on {text}");

        let empty = match rel.is_empty() {
            Ok(b) => b,
            Err(e) => {
                errors.push(err("is_empty", e));
                continue;
            }
        };
        match rel.find_integer_sample() {
            Ok(Some(p)) => {
                assert!(!empty, "case {id}: sample {p:?} of an empty set {text}");
                assert!(satisfies(&rel, &p), "case {id}: sample {p:?} violates {text}");
            }
            Ok(None) => assert!(empty, "case {id}: no sample of a non-empty set {text}"),
            Err(e) => errors.push(err("find_integer_sample", e)),
        }
        // Projection of a range of dims, or of symbols.
        let (ptype, pstart, pn, projected) = if rng.chance(75) {
            let by_symbol = symbols > 0 && rng.chance(30);
            let (kind_len, offset, ptype) = if by_symbol {
                (symbols, dims, "param")
            } else {
                (dims, 0, "set")
            };
            let s = rng.range(0, kind_len as i64 - 1) as usize;
            let n = rng.range(1, (kind_len - s) as i64) as usize;
            let mut p = rel.clone();
            match p.project_out(offset + s, offset + s + n) {
                Ok(()) => {
                    projections += 1;
                    (ptype, s, n, p.to_string())
                }
                Err(e) => {
                    errors.push(err("project_out", e));
                    ("-", 0, 0, "-".to_string())
                }
            }
        } else {
            ("-", 0, 0, "-".to_string())
        };
        let var = rng.range(0, (dims + symbols) as i64 - 1) as usize;
        let other = if rng.chance(40) {
            Some(if rng.chance(50) {
                spec.relaxed(&mut rng)
            } else {
                Spec::random(&mut rng, dims, symbols)
            })
        } else {
            None
        };
        let lexmin = rel.lexmin().map_err(|e| err("lexmin", e));
        let lexmax = rel.lexmax().map_err(|e| err("lexmax", e));
        let min = rel.optimize_var(var, false).map_err(|e| err("min", e));
        let max = rel.optimize_var(var, true).map_err(|e| err("max", e));
        let subset = match &other {
            None => Ok("-".to_string()),
            Some(o) => rel
                .is_subset_of(&o.build())
                .map(|b| if b { "1" } else { "0" }.to_string())
                .map_err(|e| err("is_subset_of", e)),
        };
        let (lexmin, lexmax, min, max, subset) = match (lexmin, lexmax, min, max, subset) {
            (Ok(a), Ok(b), Ok(c), Ok(d), Ok(e)) => (opt_str(&a), opt_str(&b), val_str(&c), val_str(&d), e),
            (a, b, c, d, e) => {
                for r in [a.err(), b.err(), c.err(), d.err(), e.err()].into_iter().flatten() {
                    errors.push(r);
                }
                continue;
            }
        };
        let other_text = other.as_ref().map_or("-".to_string(), |o| o.isl());
        writeln!(
            lines,
            "{}\t{text}\t{ptype}\t{pstart}\t{pn}\t{projected}\t{var}\t{other_text}",
            answers.len()
        )
        .unwrap();
        texts.push(format!(
            "{text}\n  projected ({ptype} {pstart} {pn}): {projected}\n  other: {other_text}"
        ));
        answers.push(Answers {
            empty: if empty { "1" } else { "0" }.into(),
            lexmin,
            lexmax,
            min,
            max,
            subset,
        });
    }
    let lf_time = start.elapsed();
    std::fs::write(&input, lines).unwrap();
    let script = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/isl_oracle.py");
    let start = std::time::Instant::now();
    let out = Command::new("python3")
        .arg(&script)
        .arg(&input)
        .arg(&output)
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "isl_oracle.py failed: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    let isl_time = start.elapsed();
    let result = std::fs::read_to_string(&output).unwrap();

    let mut mismatches = Vec::new();
    let (mut n_empty, mut n_lex_bounded, mut n_lex_unbounded, mut n_subset, mut n_subset_true, mut n_proj_checked) =
        (0, 0, 0, 0, 0, 0);
    let mut checked = 0;
    for line in result.lines() {
        let f: Vec<&str> = line.split('\t').collect();
        let id: usize = f[0].parse().unwrap();
        let a = &answers[id];
        checked += 1;
        let mut bad = Vec::new();
        if f[1] != a.empty {
            bad.push(format!("empty: isl {} lf {}", f[1], a.empty));
        }
        if f[2] == "0" {
            bad.push("projection differs".to_string());
        }
        if f[3] != a.lexmin {
            bad.push(format!("lexmin: isl {} lf {}", f[3], a.lexmin));
        }
        if f[4] != a.lexmax {
            bad.push(format!("lexmax: isl {} lf {}", f[4], a.lexmax));
        }
        if f[5] != a.min {
            bad.push(format!("min: isl {} lf {}", f[5], a.min));
        }
        if f[6] != a.max {
            bad.push(format!("max: isl {} lf {}", f[6], a.max));
        }
        if f[7] != a.subset {
            bad.push(format!("subset: isl {} lf {}", f[7], a.subset));
        }
        n_empty += (f[1] == "1") as usize;
        n_proj_checked += (f[2] != "-") as usize;
        n_lex_bounded += (f[3] != "U" && f[3] != "E") as usize;
        n_lex_unbounded += (f[3] == "U") as usize;
        n_subset += (f[7] != "-") as usize;
        n_subset_true += (f[7] == "1") as usize;
        if !bad.is_empty() {
            mismatches.push(format!("case {id}: {}\n  {}", bad.join("; "), texts[id]));
        }
    }
    assert_eq!(checked, answers.len(), "the oracle answered every case");
    loud!(
        "isl_oracle: {checked} systems checked against islpy (seed {seed:#x}): {n_empty} empty, {} non-empty; \
         {n_proj_checked} projections compared ({projections} made); lexmin bounded {n_lex_bounded}, unbounded \
         {n_lex_unbounded}; {n_subset} subset tests ({n_subset_true} true); {} mismatches; {} lf errors; \
         lf {:.2?}, islpy {:.2?}",
        checked - n_empty,
        mismatches.len(),
        errors.len(),
        lf_time,
        isl_time
    );
    for e in &errors {
        loud!("  lf error: {e}");
    }
    assert!(
        mismatches.is_empty(),
        "{} of {checked} systems disagree with ISL:\n{}",
        mismatches.len(),
        mismatches.iter().take(10).cloned().collect::<Vec<_>>().join("\n")
    );
    assert!(errors.is_empty(), "lf could not answer {} systems", errors.len());
    assert!(checked >= 2000, "at least 2000 systems checked");
}
