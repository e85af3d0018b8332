//! Property test: random affine programs ([`lf_lit::affine_gen`]) through
//! random sequences of `affine-loop-distribute` and `affine-loop-interchange`
//! (and `ihop-pre` once all its passes are registered) keep their results:
//! `lf-opt --verify-semantics=random:SEED` runs every function on random
//! inputs before the pipeline and after each pass that changed it, and
//! fails on the first pass after which a memref, result or printed value
//! differs (or the program faults where it did not before).
//!
//! `LF_LOOP_PROPERTY_PROGRAMS=N` sets how many functions (default: the CI
//! count below), `LF_LOOP_PROPERTY_SEED=S` the first seed; the test stops
//! starting new batches after [`TIME_BUDGET`].

use lf_lit::affine_gen::{function, Options, Rng};
use std::path::PathBuf;
use std::process::Command;
use std::time::{Duration, Instant};

const LF_OPT: &str = env!("CARGO_BIN_EXE_lf-opt");

/// Functions checked in CI.
const CI_PROGRAMS: usize = 480;

/// Functions per module.
const BATCH: usize = 8;

/// No new batch starts after this long (the batches done must be at least
/// one).
const TIME_BUDGET: Duration = Duration::from_secs(120);

/// The passes a sequence is drawn from.
const STEPS: &[&str] = &[
    "affine-loop-distribute",
    "affine-loop-distribute{mode=one-statement}",
    "affine-loop-interchange{auto=true}",
    "affine-loop-interchange{permutation=1,0}",
    "affine-loop-interchange{permutation=1,2,0}",
    "affine-loop-interchange{permutation=2,0,1}",
];

fn env_usize(name: &str, default: usize) -> usize {
    std::env::var(name).ok().and_then(|v| v.parse().ok()).unwrap_or(default)
}

/// Runs `pipeline` with `--verify-semantics=random:SEED` on the module of
/// `functions`; a function that cannot run on random inputs even before
/// the passes (an out-of-bounds access of the generated program) is dropped
/// and the rest run again. Returns the number of functions checked and the
/// failure, if any.
fn check_batch(
    path: &std::path::Path,
    functions: &mut Vec<(usize, String)>,
    pipeline: &str,
    seed: u64,
) -> (usize, Option<String>) {
    for _ in 0..functions.len() + 1 {
        if functions.is_empty() {
            return (0, None);
        }
        let text: String = functions.iter().map(|(_, f)| f.as_str()).collect();
        std::fs::write(path, &text).unwrap();
        let out = Command::new(LF_OPT)
            .arg(path)
            .arg(format!("--pass-pipeline={pipeline}"))
            .arg(format!("--verify-semantics=random:{seed}"))
            .args(["-o", "/dev/null"])
            .output()
            .expect("lf-opt runs");
        if out.status.success() {
            return (functions.len(), None);
        }
        let stderr = String::from_utf8_lossy(&out.stderr).into_owned();
        // "@f12 (on random inputs, seed 3) cannot be run before any pass"
        let unrunnable = stderr.lines().find_map(|l| {
            let at = l.find("cannot be run before any pass")?;
            let name = l[..at].rsplit('@').next()?;
            name.strip_prefix('f')?.split(' ').next()?.parse::<usize>().ok()
        });
        match unrunnable {
            Some(index) if functions.iter().any(|(i, _)| *i == index) => functions.retain(|(i, _)| *i != index),
            _ => {
                let error: Vec<&str> = stderr
                    .lines()
                    .skip_while(|l| !l.contains(": error:"))
                    .take(24)
                    .collect();
                return (
                    functions.len(),
                    Some(format!("{} with {pipeline}:\n{}", path.display(), error.join("\n"))),
                );
            }
        }
    }
    (0, None)
}

#[test]
fn random_programs_keep_their_results() {
    let count = env_usize("LF_LOOP_PROPERTY_PROGRAMS", CI_PROGRAMS);
    let seed = env_usize("LF_LOOP_PROPERTY_SEED", 27) as u64;
    let opts = Options {
        max_accesses: 12,
        ..Options::default()
    };
    let registry = lf_transforms::all_passes();
    let with_pipeline =
        registry.lookup_pipeline("ihop-pre").is_some() && registry.lookup("affine-loop-normalize").is_some();
    let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("loop_transforms_semantics");
    std::fs::create_dir_all(&dir).unwrap();
    let start = Instant::now();
    let mut rng = Rng::new(seed);
    let mut failures = Vec::new();
    let (mut generated, mut checked) = (0, 0);
    for batch in 0..count.div_ceil(BATCH) {
        if batch > 0 && start.elapsed() > TIME_BUDGET {
            eprintln!("time budget spent after {generated} functions");
            break;
        }
        let n = BATCH.min(count - batch * BATCH);
        let mut functions: Vec<(usize, String)> = (0..n)
            .map(|i| (batch * BATCH + i, function(&mut rng, batch * BATCH + i, &opts)))
            .collect();
        generated += n;
        // Random inputs need static shapes.
        functions.retain(|(_, f)| !f.lines().next().unwrap_or("").contains('?'));
        // A sequence of one to three steps.
        let len = 1 + rng.below(3) as usize;
        let mut steps: Vec<&str> = (0..len).map(|_| *rng.pick(STEPS)).collect();
        if with_pipeline && rng.chance(30) {
            steps.push("ihop-pre");
        }
        let pipeline = format!("builtin.module(func.func({}))", steps.join(","));
        let path = dir.join(format!("batch{batch}.lfir"));
        let (done, failure) = check_batch(&path, &mut functions, &pipeline, seed + batch as u64);
        checked += done;
        failures.extend(failure);
    }
    assert!(
        failures.is_empty(),
        "{} batch(es) failed:\n{}",
        failures.len(),
        failures.join("\n\n")
    );
    eprintln!("{checked} of {generated} generated functions checked (the others cannot run on random inputs)");
    assert!(
        checked * 10 >= generated,
        "too few runnable functions: {checked} of {generated}"
    );
}
