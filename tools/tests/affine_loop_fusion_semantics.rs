//! `affine-loop-fusion` keeps the results of seeded random affine programs:
//! odd seeds are [`lf_lit::affine_gen`] programs (one to three generated
//! functions with the same arguments concatenated into one: up to nine
//! top-level nests over up to three memrefs; dynamic sizes made 16), even
//! seeds programs of two to six nests made for fusion here (shared memrefs,
//! halos, same and different bounds, dependences that forbid fusion). Each
//! function goes through the pass in every mode, and
//! `lf-run --compare` runs the original and the fused function on the same
//! random inputs and compares every memref argument afterwards, element for
//! element (exact).
//!
//! `LF_FUSION_PROGRAMS=N` sets how many programs (default: the CI count
//! below), `LF_FUSION_SEED=S` the first seed. A program the interpreter
//! cannot run as given (an out-of-bounds access on the random inputs, a
//! step limit) is skipped and counted; the test fails if too few programs
//! ran or if no fusion happened at all.

use lf_lit::affine_gen::{function, Options, Rng};
use rayon::prelude::*;
use std::path::Path;
use std::process::Command;

const LF_OPT: &str = env!("CARGO_BIN_EXE_lf-opt");
const LF_RUN: &str = env!("CARGO_BIN_EXE_lf-run");

/// Programs checked in CI (each in every mode).
const CI_PROGRAMS: usize = 120;

/// The pass's option sets.
const OPTION_SETS: [&str; 4] = ["", "mode=producer", "mode=sibling", "maximal=true"];

fn env_usize(name: &str, default: usize) -> usize {
    std::env::var(name).ok().and_then(|v| v.parse().ok()).unwrap_or(default)
}

/// Programs with many top-level nests over shared memrefs: several
/// generated functions' bodies concatenated into one function (each
/// generated function takes the same arguments).
fn program(seed: u64, opts: &Options) -> String {
    let mut rng = Rng::new(seed);
    let parts = 1 + (seed % 3) as usize;
    let first = function(&mut rng, 0, opts);
    if parts == 1 {
        return first;
    }
    // Same signature is not guaranteed (memref shapes are drawn per
    // function), so only the first function's arguments are used and the
    // later bodies are kept only when they use the same argument types.
    let header_end = first.find('\n').expect("a function header");
    let header = &first[..header_end];
    let mut body = first[header_end + 1..first.rfind("  return").expect("return")].to_string();
    for i in 1..parts {
        let f = function(&mut rng, i, opts);
        let h_end = f.find('\n').expect("header");
        let h = f[..h_end].replacen(&format!("@f{i}("), "@f0(", 1);
        if h == header {
            body.push_str(&f[h_end + 1..f.rfind("  return").expect("return")]);
        }
    }
    format!("{header}\n{body}  return\n}}\n")
}

/// The generator's dynamic sizes made static (kernel mode needs static
/// shapes): `?` becomes 16.
fn static_shapes(text: &str) -> String {
    text.replace("memref<?x", "memref<16x")
        .replace("x?x", "x16x")
        .replace("x?x", "x16x")
}

/// A program of two to six nests made for fusion: loops over `[1, 17)` (or
/// `[0, 18)`, or 2-D), each loading one to three of the memrefs `%A`..`%D`
/// (`memref<18x18xf32>`) at offsets -1, 0, 1 and storing one, often what an
/// earlier nest wrote or read: producer-consumer pairs with and without
/// halos, siblings, and anti and output dependences that forbid fusion.
fn fusion_program(seed: u64) -> String {
    let mut rng = Rng::new(seed ^ 0x5eed_f00d);
    let names = ["%A", "%B", "%C", "%D"];
    let ty = "memref<18x18xf32>";
    let mut out =
        format!("func.func @f0(%A: {ty}, %B: {ty}, %C: {ty}, %D: {ty}) {{\n  %two = arith.constant 2.0 : f32\n");
    let nests = rng.range(2, 6);
    let mut v = 0;
    for _ in 0..nests {
        let two_d = rng.chance(50);
        let (lo, hi) = *rng.pick(&[(1, 17), (1, 17), (0, 18), (2, 16)]);
        let (lo2, hi2) = *rng.pick(&[(1, 17), (1, 17), (0, 18)]);
        out.push_str(&format!("  affine.for %i = {lo} to {hi} {{\n"));
        let ind = if two_d {
            out.push_str(&format!("    affine.for %j = {lo2} to {hi2} {{\n"));
            "      "
        } else {
            "    "
        };
        let off = |rng: &mut Rng, base: i64| -> i64 {
            // Keep subscripts inside [0, 18).
            let o = *rng.pick(&[-1i64, 0, 0, 1]);
            if base + o < 0 {
                0
            } else {
                o
            }
        };
        let sub = |rng: &mut Rng, two_d: bool, lo: i64, lo2: i64, hi: i64, hi2: i64| -> String {
            let oi = if hi == 18 || lo == 0 { 0 } else { off(rng, lo) };
            let oj = if hi2 == 18 || lo2 == 0 { 0 } else { off(rng, lo2) };
            let term = |v: &str, o: i64| match o {
                0 => v.to_string(),
                o if o > 0 => format!("{v} + {o}"),
                o => format!("{v} - {}", -o),
            };
            if two_d {
                format!("[{}, {}]", term("%i", oi), term("%j", oj))
            } else {
                format!("[{}, 3]", term("%i", oi))
            }
        };
        let loads = rng.range(1, 3);
        let mut acc = String::new();
        for k in 0..loads {
            let m = *rng.pick(&names);
            let s = sub(&mut rng, two_d, lo, lo2, hi, hi2);
            out.push_str(&format!("{ind}%v{v} = affine.load {m}{s} : {ty}\n"));
            if k == 0 {
                acc = format!("%v{v}");
            } else {
                let op = *rng.pick(&["arith.addf", "arith.mulf", "arith.subf"]);
                out.push_str(&format!("{ind}%w{v} = {op} {acc}, %v{v} : f32\n"));
                acc = format!("%w{v}");
            }
            v += 1;
        }
        out.push_str(&format!("{ind}%r{v} = arith.mulf {acc}, %two : f32\n"));
        let m = *rng.pick(&names);
        let s = sub(&mut rng, two_d, lo, lo2, hi, hi2);
        out.push_str(&format!("{ind}affine.store %r{v}, {m}{s} : {ty}\n"));
        v += 1;
        if two_d {
            out.push_str("    }\n");
        }
        out.push_str("  }\n");
    }
    out.push_str("  return\n}\n");
    out
}

fn run(cmd: &mut Command) -> (bool, String) {
    let out = cmd.output().expect("the tool runs");
    let text = format!(
        "{}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
    (out.status.success(), text)
}

/// What happened to one program.
enum Outcome {
    Skipped(String),
    Checked { fused: u64 },
}

fn check(seed: u64, dir: &Path) -> Result<Outcome, String> {
    let opts = Options {
        parallel_percent: 0,
        ..Options::default()
    };
    let text = if seed.is_multiple_of(2) {
        fusion_program(seed)
    } else {
        static_shapes(&program(seed, &opts))
    };
    let orig = dir.join(format!("f{seed}.mlir"));
    std::fs::write(&orig, &text).expect("write the program");
    // The original must run on the random inputs.
    let (ok, why) = run(Command::new(LF_RUN).arg("--compare").arg(&orig).arg(&orig).args([
        "--entry=f0",
        &format!("--random-inputs={seed}"),
        "--max-steps=20000000",
    ]));
    if !ok {
        return Ok(Outcome::Skipped(why));
    }
    let mut fused = 0;
    for (k, o) in OPTION_SETS.iter().enumerate() {
        let out = dir.join(format!("f{seed}.{k}.mlir"));
        let (ok, msg) = run(Command::new(LF_OPT)
            .arg(&orig)
            .arg(format!(
                "--pass-pipeline=builtin.module(func.func(affine-loop-fusion{{{o}}}))"
            ))
            .arg("--pass-statistics")
            .arg("-o")
            .arg(&out));
        if !ok {
            return Err(format!(
                "seed {seed}: lf-opt failed with affine-loop-fusion{{{o}}}:\n{msg}\n{text}"
            ));
        }
        fused += msg
            .lines()
            .find(|l| l.contains("num-fused"))
            .and_then(|l| l.split_whitespace().nth(1))
            .and_then(|n| n.parse::<u64>().ok())
            .unwrap_or(0);
        let (same, msg) = run(Command::new(LF_RUN).arg("--compare").arg(&orig).arg(&out).args([
            "--entry=f0",
            &format!("--random-inputs={seed}"),
            "--max-steps=20000000",
        ]));
        if !same {
            let fused_text = std::fs::read_to_string(&out).unwrap_or_default();
            return Err(format!(
                "seed {seed}: affine-loop-fusion{{{o}}} changed the results:\n{msg}\n--- original\n{text}\n--- fused\n{fused_text}"
            ));
        }
    }
    Ok(Outcome::Checked { fused })
}

#[test]
fn fusion_keeps_results_of_random_programs() {
    let count = env_usize("LF_FUSION_PROGRAMS", CI_PROGRAMS);
    let first = env_usize("LF_FUSION_SEED", 1) as u64;
    let dir = std::env::temp_dir().join(format!("lf-fusion-sem-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    let results: Vec<Result<Outcome, String>> = (first..first + count as u64)
        .into_par_iter()
        .map(|seed| check(seed, &dir))
        .collect();
    let _ = std::fs::remove_dir_all(&dir);
    let mut checked = 0;
    let mut fused = 0;
    let mut failures = Vec::new();
    for r in results {
        match r {
            Ok(Outcome::Checked { fused: f }) => {
                checked += 1;
                fused += f;
            }
            Ok(Outcome::Skipped(why)) => {
                if std::env::var("LF_FUSION_VERBOSE").is_ok() {
                    eprintln!("skipped: {why}");
                }
            }
            Err(e) => failures.push(e),
        }
    }
    eprintln!(
        "affine-loop-fusion: {checked} of {count} programs checked in {} modes, {fused} fusions",
        OPTION_SETS.len()
    );
    assert!(failures.is_empty(), "{}", failures.join("\n\n"));
    assert!(checked * 3 >= count, "only {checked} of {count} programs could run");
    assert!(fused > 0, "no fusion happened on {checked} programs");
}
