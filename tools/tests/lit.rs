//! The lit suite: every `test/**/*.lfir` file, its `RUN:` lines run by `lf_lit::lit` with
//! `lf-opt`, `FileCheck`/`lf-filecheck` (and `mlir-opt` when installed) on `PATH`.
//!
//! `cargo test -p lf-tools --test lit -- [FILTER...]`; see `lf_lit::lit::cli::HELP` for the
//! flags and the `LF_LIT_FILTER`, `LF_LIT_TIMEOUT` and `LF_REQUIRE_TOOLS` variables.

use std::path::PathBuf;
use std::process::ExitCode;

use lf_lit::lit::{find_program, run_main, Config};

fn main() -> ExitCode {
    let root = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../test");
    let root = root.canonicalize().unwrap_or(root);
    let mut config = Config::new(root);
    let filecheck = PathBuf::from(env!("CARGO_BIN_EXE_lf-filecheck"));
    config
        .tools
        .insert("lf-opt".into(), env!("CARGO_BIN_EXE_lf-opt").into());
    config
        .tools
        .insert("lf-run".into(), env!("CARGO_BIN_EXE_lf-run").into());
    config
        .tools
        .insert("lf-translate".into(), env!("CARGO_BIN_EXE_lf-translate").into());
    config.tools.insert("FileCheck".into(), filecheck.clone());
    config.tools.insert("lf-filecheck".into(), filecheck);
    // Tests that compare with MLIR say `// REQUIRES: mlir-opt`.
    if let Some(mlir_opt) = find_program(&["mlir-opt-22", "mlir-opt"]) {
        config.tools.insert("mlir-opt".into(), mlir_opt);
        config.features.insert("mlir-opt".into());
    }
    // Tests that run kernels on OpenCL (PoCL in CI) say `// REQUIRES: opencl`.
    if lf_devices::opencl::OpenClDevice::open(Default::default()).is_ok() {
        config.features.insert("opencl".into());
    }
    // `// REQUIRES: pass-NAME`: a test that needs a pass (or named pipeline)
    // that may not be registered yet.
    let registry = lf_transforms::all_passes();
    for p in registry.all() {
        config.features.insert(format!("pass-{}", p.name));
    }
    for p in registry.all_pipelines() {
        config.features.insert(format!("pass-{}", p.name));
    }
    let args: Vec<String> = std::env::args().skip(1).collect();
    run_main(config, &args)
}
