//! Every driver in examples/run/ runs under lf-interp and prints exactly what
//! mlir-runner printed for it (examples/run/expected/, base addresses shown as
//! 0x0). When mlir-opt and mlir-runner (MLIR 22) are installed, the drivers are
//! also lowered and run live and compared byte for byte; otherwise that part is
//! skipped loudly (and fails with LF_REQUIRE_TOOLS=1).

use lf_interp::{load, run_loaded, Options};
use std::path::{Path, PathBuf};
use std::process::Command;

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("..")
}

fn drivers() -> Vec<PathBuf> {
    let mut v: Vec<PathBuf> = std::fs::read_dir(root().join("examples/run"))
        .expect("examples/run")
        .map(|e| e.expect("entry").path())
        .filter(|p| p.extension().is_some_and(|e| e == "mlir"))
        .collect();
    v.sort();
    v
}

fn lf_run(path: &Path) -> String {
    let text = std::fs::read_to_string(path).expect("driver");
    let l = match load(&path.display().to_string(), &text) {
        Ok(l) => l,
        Err(e) => panic!("{e}"),
    };
    let opts = Options {
        entry: "main".into(),
        ..Options::default()
    };
    let out = run_loaded(&l, &opts);
    assert_eq!(out.code, 0, "{}: {}", path.display(), out.stderr);
    String::from_utf8(out.stdout).expect("utf-8")
}

#[test]
fn examples_match_expected_output() {
    let ds = drivers();
    assert!(ds.len() >= 14, "expected the 14 drivers of examples/run");
    for d in ds {
        let name = d.file_stem().unwrap().to_string_lossy().to_string();
        let want = std::fs::read_to_string(root().join(format!("examples/run/expected/{name}.out"))).expect("expected");
        let got = lf_run(&d);
        assert_eq!(got, want, "{name}: lf-run output differs from expected/{name}.out");
    }
}

fn tool(names: &[&str]) -> Option<PathBuf> {
    for n in names {
        for dir in ["/usr/bin", "/usr/lib/llvm-22/bin", "/usr/local/bin"] {
            let p = Path::new(dir).join(n);
            if p.exists() {
                return Some(p);
            }
        }
    }
    None
}

fn lib(name: &str) -> Option<PathBuf> {
    let dir = Path::new("/usr/lib/llvm-22/lib");
    let mut v: Vec<PathBuf> = std::fs::read_dir(dir)
        .ok()?
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| {
            p.file_name()
                .is_some_and(|f| f.to_string_lossy().starts_with(&format!("{name}.so")))
        })
        .collect();
    v.sort();
    v.into_iter().next()
}

/// Lowers and runs `src` with mlir-opt and mlir-runner; `None` when they are missing.
pub fn mlir_runner(src: &Path) -> Option<String> {
    let opt = tool(&["mlir-opt-22", "mlir-opt"]);
    let runner = tool(&["mlir-runner-22", "mlir-runner"]);
    let libs = (lib("libmlir_runner_utils"), lib("libmlir_c_runner_utils"));
    let (Some(opt), Some(runner), (Some(l1), Some(l2))) = (opt, runner, libs) else {
        if std::env::var("LF_REQUIRE_TOOLS").is_ok_and(|v| v == "1") {
            panic!("mlir-opt/mlir-runner (MLIR 22) are required (LF_REQUIRE_TOOLS=1) but missing");
        }
        eprintln!("SKIPPED: mlir-opt-22 / mlir-runner / libmlir_c_runner_utils not installed; live comparison not run");
        return None;
    };
    let lowered = Command::new(opt)
        .arg(src)
        .args([
            "--lower-affine",
            "--convert-scf-to-cf",
            "--convert-math-to-llvm",
            "--convert-arith-to-llvm",
            "--finalize-memref-to-llvm",
            "--convert-func-to-llvm",
            "--convert-cf-to-llvm",
            "--reconcile-unrealized-casts",
        ])
        .output()
        .expect("mlir-opt runs");
    assert!(lowered.status.success(), "mlir-opt failed on {}", src.display());
    let tmp = std::env::temp_dir().join(format!(
        "lf-interp-{}-{}.mlir",
        std::process::id(),
        src.file_stem().unwrap().to_string_lossy()
    ));
    std::fs::write(&tmp, &lowered.stdout).expect("write");
    let out = Command::new(runner)
        .arg(&tmp)
        .args(["-e", "main", "-entry-point-result=void"])
        .arg(format!("-shared-libs={},{}", l1.display(), l2.display()))
        .output()
        .expect("mlir-runner runs");
    let _ = std::fs::remove_file(&tmp);
    assert!(out.status.success(), "mlir-runner failed on {}", src.display());
    Some(normalize(&String::from_utf8_lossy(&out.stdout)))
}

/// Replaces printed base addresses by 0x0.
pub fn normalize(s: &str) -> String {
    let mut out = String::new();
    let mut rest = s;
    while let Some(i) = rest.find("base@ = 0x") {
        out.push_str(&rest[..i + 10]);
        rest = &rest[i + 10..];
        let n = rest.find(|c: char| !c.is_ascii_hexdigit()).unwrap_or(rest.len());
        out.push('0');
        rest = &rest[n..];
    }
    out.push_str(rest);
    out
}

#[test]
fn examples_match_live_mlir_runner() {
    for d in drivers() {
        let Some(want) = mlir_runner(&d) else { return };
        assert_eq!(lf_run(&d), want, "{}: lf-run and mlir-runner differ", d.display());
    }
}

/// The programs of interp/tests/inputs (runner-utils prints, arithmetic
/// semantics, memref ops, parallel loops, loops with narrow induction
/// variables) against mlir-runner's output recorded next to them
/// (NAME.out), and live when mlir-runner is installed.
#[test]
fn semantics_programs_match_mlir_runner() {
    let dir = root().join("interp/tests/inputs");
    let mut n = 0;
    for name in ["prints", "arith", "memref", "parallel", "narrow_loops"] {
        let src = dir.join(format!("{name}.mlir"));
        let got = lf_run(&src);
        let want = std::fs::read_to_string(dir.join(format!("{name}.out"))).expect("expected");
        assert_eq!(got, want, "{name}: lf-run differs from the recorded mlir-runner output");
        if let Some(live) = mlir_runner(&src) {
            assert_eq!(got, live, "{name}: lf-run differs from live mlir-runner output");
        }
        n += 1;
    }
    assert_eq!(n, 5);
}
