//! `--gpu-backend=opencl`: every program of test/gpu-programs, the GPU-level
//! kernel-mode programs of test/Run whose launches the emitters support, and
//! inline launches (outlined first, with and without workgroup and private
//! attributions) print exactly what the interpreter (`sim`) prints. Without
//! an OpenCL platform these print a loud SKIPPED line and pass, unless
//! LF_REQUIRE_TOOLS=1. The diagnostic of the CUDA backend without a driver
//! is checked without any device.

use lf_devices::opencl::OpenClDevice;
use lf_devices::GpuBackend;
use lf_interp::{run_file, Options, Outcome};
use std::path::{Path, PathBuf};
use std::sync::{Mutex, MutexGuard};

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("..")
}

/// OpenCL runs one test at a time (a sequential run like lf-run's). Opening
/// devices from several threads at once crashed in the ICD loader's first
/// platform query; `OpenClDevice::open` now serializes that itself.
static OPENCL: Mutex<()> = Mutex::new(());

/// The OpenCL lock when a device can be opened; otherwise skips loudly (or
/// fails with LF_REQUIRE_TOOLS=1).
fn opencl_or_skip(test: &str) -> Option<MutexGuard<'static, ()>> {
    let guard = OPENCL.lock().unwrap_or_else(|e| e.into_inner());
    match OpenClDevice::open(Default::default()) {
        Ok(_) => Some(guard),
        Err(e) => {
            if std::env::var("LF_REQUIRE_TOOLS").is_ok_and(|v| v == "1") {
                panic!("{test}: no OpenCL device and LF_REQUIRE_TOOLS=1 ({e})");
            }
            eprintln!(
                "SKIPPED: no OpenCL device ({test}: {e}; apt-get install pocl-opencl-icd ocl-icd-opencl-dev; \
                 set LF_REQUIRE_TOOLS=1 to fail instead)"
            );
            None
        }
    }
}

fn run(path: &Path, backend: GpuBackend, entry: &str, seed: Option<u64>) -> Outcome {
    let opts = Options {
        entry: entry.into(),
        random_inputs: seed,
        gpu_backend: backend.device(),
        ..Options::default()
    };
    run_file(&path.display().to_string(), &opts)
}

/// Runs `path` on sim and OpenCL and asserts the same output and success.
fn same_as_sim(path: &Path, entry: &str, seed: Option<u64>) {
    let sim = run(path, GpuBackend::Sim, entry, seed);
    assert_eq!(sim.code, 0, "{} (sim): {}", path.display(), sim.stderr);
    let cl = run(path, GpuBackend::OpenCl, entry, seed);
    assert_eq!(cl.code, 0, "{} (opencl): {}", path.display(), cl.stderr);
    assert!(!sim.stdout.is_empty(), "{}: no output", path.display());
    assert_eq!(
        String::from_utf8_lossy(&cl.stdout),
        String::from_utf8_lossy(&sim.stdout),
        "{} @{entry}: --gpu-backend=opencl output differs from sim",
        path.display()
    );
    // The kernels really ran on the device: fewer interpreted instructions.
    let launches = std::fs::read_to_string(path).expect("input").contains("gpu.launch");
    assert!(
        cl.steps < sim.steps || !launches,
        "{}: opencl interpreted {} instructions, sim {}",
        path.display(),
        cl.steps,
        sim.steps
    );
}

#[test]
fn gpu_programs_match_sim_on_opencl() {
    let Some(_lock) = opencl_or_skip("gpu_programs_match_sim_on_opencl") else {
        return;
    };
    let mut files: Vec<PathBuf> = std::fs::read_dir(root().join("test/gpu-programs"))
        .expect("test/gpu-programs")
        .map(|e| e.expect("entry").path())
        .filter(|p| p.extension().is_some_and(|e| e == "lfir"))
        .collect();
    files.sort();
    assert!(files.len() >= 4, "expected the GPU-level programs of test/gpu-programs");
    for f in &files {
        same_as_sim(f, "main", None);
        // And what mlir-runner printed for the CPU version.
        let expected = f.with_extension("expected");
        if expected.exists() {
            let cl = run(f, GpuBackend::OpenCl, "main", None);
            assert_eq!(
                String::from_utf8_lossy(&cl.stdout),
                std::fs::read_to_string(&expected).expect("expected output"),
                "{}",
                f.display()
            );
        }
    }
}

#[test]
fn run_kernel_mode_programs_match_sim_on_opencl() {
    let Some(_lock) = opencl_or_skip("run_kernel_mode_programs_match_sim_on_opencl") else {
        return;
    };
    // Outlined (launch_func, workgroup attributions) and inline launches
    // without attributions; inline launches with attributions are in
    // inline_launch_with_attributions_matches_sim.
    for (file, entry, seed) in [
        ("test/Run/matmul-tiled.lfir", "matmul", 1),
        ("test/Run/matmul-tiled.lfir", "matmul", 2),
        ("test/Run/fault-global-race.lfir", "norace", 3),
    ] {
        same_as_sim(&root().join(file), entry, Some(seed));
    }
}

#[test]
fn inline_launch_is_outlined_and_matches_sim() {
    let Some(_lock) = opencl_or_skip("inline_launch_is_outlined_and_matches_sim") else {
        return;
    };
    let f = root().join("interp/tests/inputs/gpu_inline.lfir");
    same_as_sim(&f, "main", None);
    let cl = run(&f, GpuBackend::OpenCl, "main", None);
    let out = String::from_utf8_lossy(&cl.stdout);
    assert!(out.contains("[[1,   3.5,   6,   8.5]"), "{out}");
    assert!(out.contains("-110]"), "{out}");
}

#[test]
fn scalar_and_memref_argument_kinds_match_sim() {
    let Some(_lock) = opencl_or_skip("scalar_and_memref_argument_kinds_match_sim") else {
        return;
    };
    let f = root().join("interp/tests/inputs/gpu_args.lfir");
    same_as_sim(&f, "main", None);
    let cl = run(&f, GpuBackend::OpenCl, "main", None);
    let out = String::from_utf8_lossy(&cl.stdout);
    // index, i32 and i64 scalars; the i64 buffer; f64 scalar and buffer;
    // the f32 memref passed twice is one buffer (x scaled in place).
    assert!(out.contains("[9999999991,  9999999988,"), "{out}");
    assert!(out.contains("[0.9,  1.2,  1.5,"), "{out}");
    assert!(out.contains("[0,  0.1,  0.2,  0.3,"), "{out}");
}

#[test]
fn i1_buffers_match_sim() {
    // i1 elements travel as one byte each, 0 or 1, both ways.
    let Some(_lock) = opencl_or_skip("i1_buffers_match_sim") else {
        return;
    };
    let f = root().join("targets/tests/programs/i1_buffers.lfir");
    same_as_sim(&f, "main", None);
    let cl = run(&f, GpuBackend::OpenCl, "main", None);
    let out = String::from_utf8_lossy(&cl.stdout);
    assert!(out.contains("[-1,  11,  -1,  13,"), "{out}");
}

#[test]
fn renamed_and_same_named_kernels_match_sim() {
    // Kernels named like C built-ins (loaded under the emitted name), and
    // inline launches outlined into kernels of one name in several modules.
    let Some(_lock) = opencl_or_skip("renamed_and_same_named_kernels_match_sim") else {
        return;
    };
    for p in [
        "targets/tests/programs/names.lfir",
        "targets/tests/programs/two_launches.lfir",
    ] {
        let f = root().join(p);
        same_as_sim(&f, "main", None);
        let cl = run(&f, GpuBackend::OpenCl, "main", None);
        let expected = std::fs::read_to_string(f.with_extension("expected")).expect("expected");
        assert_eq!(String::from_utf8_lossy(&cl.stdout), expected, "{p}");
    }
}

#[test]
fn compare_runs_on_opencl() {
    let Some(_lock) = opencl_or_skip("compare_runs_on_opencl") else {
        return;
    };
    let opts = Options {
        entry: "matmul".into(),
        gpu_backend: GpuBackend::OpenCl.device(),
        ..Options::default()
    };
    let a = root().join("test/Run/matmul-tiled.lfir");
    let b = root().join("test/Run/Inputs/matmul_cpu.lfir");
    let out = lf_interp::compare_files(&a.display().to_string(), &b.display().to_string(), &opts);
    assert_eq!(out.code, 0, "{}", out.stderr);
    assert!(String::from_utf8_lossy(&out.stdout).contains("agree"));
}

#[test]
fn inline_launch_with_attributions_matches_sim() {
    let Some(_lock) = opencl_or_skip("inline_launch_with_attributions_matches_sim") else {
        return;
    };
    // Inline launches with workgroup attributions (and a private one in the
    // outlining test), outlined by gpu-kernel-outlining into kernels with
    // the same attributions before they run on the device.
    for (file, entry, seed) in [
        ("test/Run/transpose.lfir", "transpose", 1),
        ("test/Run/fused-halo.lfir", "stencil", 2),
        ("test/Transforms/gpu-kernel-outlining-attributions.lfir", "transpose", 3),
    ] {
        same_as_sim(&root().join(file), entry, Some(seed));
    }
    // A program: a block-level sum through a workgroup array and a private one.
    let f = root().join("test/gpu-programs/block_reduce.lfir");
    same_as_sim(&f, "main", None);
    let cl = run(&f, GpuBackend::OpenCl, "main", None);
    let out = String::from_utf8_lossy(&cl.stdout);
    assert!(out.contains("[3800,  3840,  3880,  3803]"), "{out}");
}

#[test]
fn cuda_without_driver_is_a_clear_error() {
    let _lock = OPENCL.lock().unwrap_or_else(|e| e.into_inner());
    let f = root().join("test/gpu-programs/matmul_tiled.lfir");
    let out = run(&f, GpuBackend::Cuda, "main", None);
    // SAFETY: only probes whether the driver library exists.
    let have_driver = unsafe { libloading::Library::new("libcuda.so.1") }.is_ok();
    if have_driver {
        eprintln!("note: libcuda.so.1 is present; the no-driver diagnostic is not checked here");
        return;
    }
    assert_eq!(out.code, 1);
    assert!(out.stdout.is_empty());
    assert!(
        out.stderr
            .starts_with("lf-run: error: --gpu-backend=cuda: cannot load the CUDA driver (libcuda.so.1)"),
        "{}",
        out.stderr
    );
}

#[test]
fn kernel_sources_are_the_emitters() {
    // No device needed: the source each backend builds for a kernel.
    let path = root().join("test/gpu-programs/matmul_tiled.lfir");
    let text = std::fs::read_to_string(&path).expect("input");
    let name = path.display().to_string();
    let cuda = lf_interp::load_for(&name, &text, GpuBackend::Cuda.device()).expect("loads");
    let src = cuda
        .kernel_source("kernels::matmul_tiled")
        .expect("a kernel")
        .as_ref()
        .expect("emitted")
        .source
        .clone();
    assert!(src.contains("#include <cuda_runtime.h>"), "{src}");
    assert!(
        src.contains("extern \"C\" __global__ void matmul_tiled(float* arg0, float* arg1, float* arg2)"),
        "{src}"
    );
    let cl = lf_interp::load_for(&name, &text, GpuBackend::OpenCl.device()).expect("loads");
    let src = cl
        .kernel_source("kernels::matmul_tiled")
        .expect("a kernel")
        .as_ref()
        .expect("emitted")
        .source
        .clone();
    assert!(src.contains("__kernel void matmul_tiled(__global float* arg0"), "{src}");
    assert!(
        src.contains("__local float arg3[64] __attribute__((aligned(16)));"),
        "{src}"
    );
    let sim = lf_interp::load_for(&name, &text, GpuBackend::Sim.device()).expect("loads");
    assert!(sim.kernel_source("kernels::matmul_tiled").is_none());
}
