//! Differential test of `test-memref-dependence-check` against mlir-opt-22.
//!
//! Random functions come from [`lf_lit::affine_gen`] (shared with the
//! `affine-parallelize` differential test): affine loop nests (depth 1-4,
//! imperfect, several nests per function, the odd `affine.parallel` and
//! reduction loop with `iter_args`); bounds that are constants, symbols,
//! maps of outer loop variables and `max`/`min` maps mixing symbols;
//! steps 1-3; `affine.if` conditions with equalities, `mod` and symbols,
//! with `else` branches; `affine.apply` chains; loads and stores of one to
//! three memrefs of rank 1-4 (and of local allocs), in custom form or in
//! generic form with a map, whose subscripts are sums with negative
//! coefficients, `floordiv`/`mod`/`ceildiv` of sums plus a dimension,
//! symbols and constants. Functions stop growing after
//! [`Options::max_accesses`] accesses (see [`options`]). Each file of
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

use lf_lit::affine_gen::{function, Options, Rng};
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

/// The generator's options here: small functions (every pair of accesses
/// is checked at every depth), half of the accesses in generic form with
/// their subscripts as maps.
fn options() -> Options {
    Options {
        generic_access_percent: 50,
        max_accesses: 6,
        // Input affine.parallel ops make mlir-opt's Fourier-Motzkin explode
        // (out of memory, past the time limit) on too many of the CI run's
        // functions; LF_DEP_PARALLEL=5 turns them on (480 functions ran
        // locally with them on 2026-11-28, none different).
        parallel_percent: env_num("LF_DEP_PARALLEL", 0),
        ..Options::default()
    }
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
    let opts = options();
    std::thread::scope(|s| {
        for _ in 0..2 {
            s.spawn(|| loop {
                let f = next.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
                if f >= files {
                    break;
                }
                let mut rng = Rng::new(seed.wrapping_mul(1_000_003).wrapping_add(f));
                let fs: Vec<String> = (0..funcs).map(|k| function(&mut rng, k, &opts)).collect();
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
