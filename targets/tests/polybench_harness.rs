//! The GPU suite's timing harness (`bench/gpu/harness/`) against the code
//! lf-translate emits, without a GPU: for every PolyBench workload of
//! `bench/gpu/polybench.sh`, every seed-000 workload of `bench/gpu/fusion.sh`
//! every SYN-LM workload of `bench/gpu/loopmerge.sh` and the fp64 mgrid workloads of
//! `bench/gpu/mgrid.sh`, `examples/gen.py` prints the kernel (at the
//! example's size), lf-translate turns it (plus an empty `@main`) into host
//! code, and the harness built around it with `g++ -O3 -DLFB_CPU` (its CPU
//! mode, the suite's CPU baseline) runs one call: every output written (the
//! output-only arrays start as NaN), the result line well formed. This keeps
//! `harness/specs.h` (arrays, argument order) in step with `gen.py`.
//!
//! Needs python3, g++ and `cuda_runtime.h` (the emitted host code includes
//! it; found next to nvcc, as in `programs.rs`): a missing tool prints
//! `SKIPPED`, or fails under `LF_REQUIRE_TOOLS=1`.

use lf_targets::{Options, Target};
use std::path::{Path, PathBuf};
use std::process::Command;

/// The suite's workloads (`DEFAULT_WORKLOADS` in `bench/gpu/polybench.sh`,
/// then the default `WORKLOADS` of `bench/gpu/fusion.sh`, of
/// `bench/gpu/loopmerge.sh` and of `bench/gpu/mgrid.sh`).
const WORKLOADS: [&str; 20] = [
    "gemm",
    "2mm",
    "jacobi_2d",
    "fdtd_2d",
    "lu",
    "correlation",
    "doitgen",
    "fig3_chain",
    "fig3_dead",
    "ll18",
    "stencil4_chain",
    "stencil4_dead",
    "syn_lm_f4_var0",
    "syn_lm_f4_var5",
    "syn_lm_f4_var10",
    "syn_lm_f32_var0",
    "syn_lm_f32_var5",
    "syn_lm_f32_var10",
    "rprj3",
    "interp",
];

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("..")
}

fn skip_or_fail(tool: &str) {
    lf_lit::tools::skip_or_fail("polybench_harness", tool, "bench/gpu/README.md says how to install it");
}

fn output(cmd: &mut Command, what: &str) -> String {
    let out = cmd.output().unwrap_or_else(|e| panic!("{what}: could not run: {e}"));
    assert!(
        out.status.success(),
        "{what} failed:\n{}\n{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8_lossy(&out.stdout).into_owned()
}

/// Host code for a CPU-only module, as `lf-translate --target=cuda` writes it.
fn translate_cpu(text: &str, name: &str) -> String {
    let ctx = lf_ir::Context::new();
    lf_dialects::register_all(&ctx);
    let owned = lf_ir::parse_source(&ctx, text, name).unwrap_or_else(|e| panic!("{name}: {e:?}"));
    lf_ir::verify(&ctx, &owned.body, owned.op).unwrap_or_else(|e| panic!("{name}: {e:?}"));
    lf_targets::translate(&ctx, &owned.body, owned.op, &Options::new(Target::Cuda))
        .unwrap_or_else(|e| panic!("{name}: lf-translate refused it: {e:?}"))
}

/// The folder of `cuda_runtime.h`, next to nvcc.
fn cuda_include() -> Option<PathBuf> {
    let nvcc = lf_targets::cuda::find_nvcc()?;
    let dir = nvcc.parent()?.parent()?.join("include");
    dir.join("cuda_runtime.h").is_file().then_some(dir)
}

fn have(tool: &str) -> bool {
    Command::new(tool)
        .arg("--version")
        .output()
        .is_ok_and(|o| o.status.success())
}

#[test]
fn cpu_harness_runs_every_workload() {
    for tool in ["python3", "g++"] {
        if !have(tool) {
            return skip_or_fail(tool);
        }
    }
    let Some(inc) = cuda_include() else {
        return skip_or_fail("cuda_runtime.h (pip install nvidia-cuda-nvcc nvidia-cuda-runtime)");
    };
    let dir = tempfile::tempdir().unwrap();
    let harness = root().join("bench/gpu/harness");
    let gen = root().join("examples/gen.py");
    for w in WORKLOADS {
        let kernel = output(Command::new("python3").arg(&gen).arg(w), &format!("gen.py {w}"));
        let sizes = output(
            Command::new("python3").arg(&gen).args(["sizes", w]),
            &format!("gen.py sizes {w}"),
        );
        let cu = translate_cpu(&format!("{kernel}func.func @main() {{\n  return\n}}\n"), w);
        let src = dir.path().join(format!("{w}.cu"));
        std::fs::write(&src, cu).unwrap();
        let exe = dir.path().join(w);
        let mut cmd = Command::new("g++");
        cmd.args(["-O3", "-x", "c++", "-std=c++17", "-w", "-DLFB_CPU"])
            .arg(format!("-DLFB_{}", w.to_uppercase()))
            .args(sizes.split_whitespace().map(|kv| format!("-DLFB_{kv}")))
            .arg(format!("-DLFB_SRC=\"{}\"", src.display()))
            .arg(format!("-I{}", harness.display()))
            .arg(format!("-I{}", inc.display()))
            .arg("-o")
            .arg(&exe)
            .arg(harness.join("harness.cu"))
            .arg("-lm");
        output(&mut cmd, &format!("g++ harness for {w}"));
        let dump = dir.path().join(format!("{w}.bin"));
        let line = output(
            Command::new(&exe).arg("cpu").arg(&dump).arg("--runs=1"),
            &format!("the CPU harness of {w}"),
        );
        let fields: Vec<&str> = line.trim().split('|').collect();
        assert_eq!(fields.len(), 12, "{w}: {line}");
        assert_eq!(&fields[..3], &["PB", w, "cpu"], "{w}: {line}");
        assert_eq!(fields[11], "PASS", "{w}: {line}");
        let ms: f64 = fields[3].parse().unwrap_or_else(|_| panic!("{w}: {line}"));
        assert!(ms > 0.0, "{w}: {line}");
        assert!(dump_is_finite(&dump, w), "{w}: the dump holds a NaN or nothing");
    }
}

/// The workloads whose arrays are fp64 (`LFB_ELEM double` in `specs.h`).
const FP64: [&str; 2] = ["rprj3", "interp"];

/// Whether the harness's dump of `w` holds elements, all finite.
fn dump_is_finite(path: &Path, w: &str) -> bool {
    let bytes = std::fs::read(path).unwrap();
    let width = if FP64.contains(&w) { 8 } else { 4 };
    !bytes.is_empty()
        && bytes.len().is_multiple_of(width)
        && bytes.chunks_exact(width).all(|c| match c.try_into() {
            Ok(b) => f64::from_le_bytes(b).is_finite(),
            Err(_) => f32::from_le_bytes([c[0], c[1], c[2], c[3]]).is_finite(),
        })
}
