//! The emitted code, checked for real:
//!
//! - every `.cu` that lf-translate emits for the lit tests and the GPU-level
//!   programs compiles with nvcc (`-arch=sm_90 -cubin`, and a full host link),
//!   with `--resource-usage` recorded in a snapshot;
//! - every `.cl` passes `clang-15 -cl-std=CL1.1 -target r600-- -mcpu=rv770 -Werror`;
//! - the OpenCL host programs of `test/gpu-programs/` run on the first OpenCL
//!   device (PoCL in CI) and print what mlir-runner prints for the CPU
//!   version (`NAME.expected`).
//!
//! - `test/Target/integer-min-max.lfir` (signed and unsigned integer min and
//!   max) runs on PoCL and prints what lf-run prints;
//! - the programs that use `arith.bitcast` (`targets/tests/programs/bitcast.lfir`,
//!   kernels and host code, and `test/Target/bitcast.lfir`, host code) run on
//!   PoCL as OpenCL programs and print what lf-run prints for them, compile
//!   with nvcc as CUDA, and their kernels pass the RV770 front end.
//!
//! A missing tool prints a loud `SKIPPED` line and passes, unless
//! `LF_REQUIRE_TOOLS=1`. nvcc is found as `$NVCC`, on `PATH`, or in the
//! `nvidia-cuda-nvcc` pip package.

use lf_lit::tools::{find_on_path, skip_or_fail};
use lf_targets::{Emit, Options, Target};
use std::path::{Path, PathBuf};
use std::process::Command;

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("..")
}

fn on_path(name: &str) -> Option<PathBuf> {
    find_on_path(&[name])
}

fn opencl_available() -> bool {
    Path::new("/usr/include/CL/cl.h").exists()
        && std::fs::read_dir("/etc/OpenCL/vendors").is_ok_and(|mut d| d.next().is_some())
        && on_path("gcc").is_some()
}

/// The `.lfir` files of a test directory.
fn lfir_files(dir: &str) -> Vec<PathBuf> {
    let mut v: Vec<PathBuf> = std::fs::read_dir(root().join(dir))
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "lfir"))
        .collect();
    v.sort();
    v
}

/// Translates a file as lf-translate does (inline `gpu.launch` ops are
/// outlined first); `None` if lf-translate refuses it (rejection tests).
fn translate(path: &Path, opts: &Options) -> Option<String> {
    let ctx = lf_ir::Context::new();
    lf_dialects::register_all(&ctx);
    ctx.set_allow_unregistered_dialects(true);
    let text = std::fs::read_to_string(path).unwrap();
    let mut owned = lf_ir::parse_source(&ctx, &text, &path.display().to_string()).ok()?;
    lf_ir::verify(&ctx, &owned.body, owned.op).ok()?;
    lf_dialects::gpu::transforms::gpu_kernel_outlining::outline_module(&ctx, &mut owned).ok()?;
    lf_targets::translate(&ctx, &owned.body, owned.op, opts).ok()
}

fn stem(p: &Path) -> String {
    p.file_stem().unwrap().to_string_lossy().into_owned()
}

fn all_inputs() -> Vec<PathBuf> {
    let mut v = lfir_files("test/gpu-programs");
    v.extend(lfir_files("test/Target"));
    v
}

fn run(cmd: &mut Command, what: &str) -> std::process::Output {
    let out = cmd.output().unwrap_or_else(|e| panic!("{what}: could not run: {e}"));
    assert!(
        out.status.success(),
        "{what} failed:\n{}\n{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
    out
}

#[test]
fn cuda_compiles_with_nvcc() {
    let Some(nvcc) = lf_targets::cuda::find_nvcc() else {
        return skip_or_fail(
            "cuda_compiles_with_nvcc",
            "nvcc",
            "pip install nvidia-cuda-nvcc nvidia-cuda-runtime",
        );
    };
    let dir = tempfile::tempdir().unwrap();
    let mut usage = String::new();
    let mut compiled = 0;
    for input in all_inputs() {
        let Some(cu) = translate(&input, &Options::new(Target::Cuda)) else {
            continue;
        };
        let name = stem(&input);
        let file = dir.path().join(format!("{name}.cu"));
        std::fs::write(&file, &cu).unwrap();
        let out = run(
            Command::new(&nvcc)
                .args([
                    "-arch=sm_90",
                    "-cubin",
                    "--resource-usage",
                    "-Werror",
                    "all-warnings",
                    "-o",
                ])
                .arg(dir.path().join(format!("{name}.cubin")))
                .arg(&file),
            &format!("nvcc -cubin {name}.cu"),
        );
        // A full host build: an executable when there is a main, else an object.
        let has_main = cu.contains("\nint main(void)");
        let mut link = Command::new(&nvcc);
        link.arg("-arch=sm_90");
        if !has_main {
            link.arg("-c");
        }
        run(
            link.arg("-o").arg(dir.path().join(&name)).arg(&file),
            &format!("nvcc (host link) {name}.cu"),
        );
        let log = String::from_utf8_lossy(&out.stderr).into_owned() + &String::from_utf8_lossy(&out.stdout);
        let mut kernel = String::new();
        for line in log.lines() {
            if let Some(k) = line.split("Function properties for ").nth(1) {
                kernel = k.trim().to_string();
            }
            if let Some(u) = line.split("ptxas info    : ").nth(1).filter(|u| u.starts_with("Used")) {
                usage.push_str(&format!("{name} @{kernel}: {u}\n"));
            }
        }
        compiled += 1;
    }
    assert!(compiled >= 5, "only {compiled} programs compiled");
    insta::assert_snapshot!("cuda_resource_usage", usage);
}

#[test]
fn opencl_kernels_pass_the_rv770_front_end() {
    let Some(clang) = on_path("clang-15") else {
        return skip_or_fail(
            "opencl_kernels_pass_the_rv770_front_end",
            "clang-15",
            "apt-get install clang-15",
        );
    };
    let dir = tempfile::tempdir().unwrap();
    let mut checked = 0;
    for input in all_inputs() {
        let mut opts = Options::new(Target::OpenCl);
        opts.emit = Emit::Kernels;
        let Some(cl) = translate(&input, &opts) else { continue };
        let file = dir.path().join(format!("{}.cl", stem(&input)));
        std::fs::write(&file, &cl).unwrap();
        run(
            Command::new(&clang)
                .args([
                    "-cl-std=CL1.1",
                    "-Xclang",
                    "-finclude-default-header",
                    "-target",
                    "r600--",
                    "-mcpu=rv770",
                    "-Werror",
                    "-fsyntax-only",
                ])
                .arg(&file),
            &format!("clang-15 (r600, rv770) {}", file.display()),
        );
        checked += 1;
    }
    assert!(checked >= 5, "only {checked} kernels checked");
}

#[test]
fn opencl_programs_run_on_pocl_like_mlir_runner() {
    if !opencl_available() {
        return skip_or_fail(
            "opencl_programs_run_on_pocl_like_mlir_runner",
            "an OpenCL ICD (PoCL) with headers and gcc",
            "apt-get install pocl-opencl-icd ocl-icd-opencl-dev",
        );
    }
    let dir = tempfile::tempdir().unwrap();
    let mut ran = 0;
    for input in lfir_files("test/gpu-programs") {
        let name = stem(&input);
        let expected_file = input.with_extension("expected");
        let expected = std::fs::read_to_string(&expected_file)
            .unwrap_or_else(|_| panic!("{} has no {}", input.display(), expected_file.display()));
        let c = translate(&input, &Options::new(Target::OpenCl)).unwrap_or_else(|| panic!("{name} does not translate"));
        let file = dir.path().join(format!("{name}.c"));
        std::fs::write(&file, &c).unwrap();
        let exe = dir.path().join(&name);
        run(
            Command::new("gcc")
                .args(["-std=c99", "-Wall", "-Werror", "-Wno-unused-function", "-o"])
                .arg(&exe)
                .arg(&file)
                .args(["-lOpenCL", "-lm"]),
            &format!("gcc {name}.c"),
        );
        let out = run(&mut Command::new(&exe), &format!("running {name} on OpenCL"));
        let got = String::from_utf8_lossy(&out.stdout);
        let got = normalize(&got);
        assert_eq!(
            got, expected,
            "{name}: OpenCL output differs from mlir-runner's CPU version"
        );
        ran += 1;
    }
    assert!(ran >= 4);
}

/// Replaces printed base addresses by `0x0`, as the `.expected` files have them.
fn normalize(s: &str) -> String {
    let mut out = String::new();
    for line in s.lines() {
        match line.find("base@ = 0x") {
            Some(i) => {
                let rest = &line[i + "base@ = 0x".len()..];
                let end = rest.find(|c: char| !c.is_ascii_hexdigit()).unwrap_or(rest.len());
                out.push_str(&line[..i]);
                out.push_str("base@ = 0x0");
                out.push_str(&rest[end..]);
            }
            None => out.push_str(line),
        }
        out.push('\n');
    }
    out
}

#[test]
fn bench_gpu_emitted_is_current() {
    // bench/gpu/run.sh runs these files on the GPU machine (no Rust there):
    // they must be what lf-translate emits now (refresh: bench/gpu/emit.sh).
    for input in lfir_files("test/gpu-programs") {
        let name = stem(&input);
        let cu = translate(&input, &Options::new(Target::Cuda)).unwrap();
        let path = root().join(format!("bench/gpu/emitted/{name}.cu"));
        let on_disk = std::fs::read_to_string(&path).unwrap_or_default();
        assert!(
            on_disk == cu,
            "{} is out of date: run bench/gpu/emit.sh",
            path.display()
        );
        let exp = root().join(format!("bench/gpu/emitted/{name}.expected"));
        assert_eq!(
            std::fs::read_to_string(&exp).unwrap_or_default(),
            std::fs::read_to_string(input.with_extension("expected")).unwrap(),
            "{} is out of date: run bench/gpu/emit.sh",
            exp.display()
        );
    }
}

#[test]
fn cpu_examples_as_host_c_match_mlir_runner() {
    // The host side of the emitter on its own: the seed workloads of
    // examples/run (affine loops, math, printing) translated to host C print
    // what mlir-runner prints for them (examples/run/expected).
    if !opencl_available() {
        return skip_or_fail(
            "cpu_examples_as_host_c_match_mlir_runner",
            "an OpenCL ICD (PoCL) with headers and gcc",
            "apt-get install pocl-opencl-icd ocl-icd-opencl-dev",
        );
    }
    let dir = tempfile::tempdir().unwrap();
    let mut inputs: Vec<PathBuf> = std::fs::read_dir(root().join("examples/run"))
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "mlir"))
        .collect();
    inputs.sort();
    assert!(inputs.len() >= 10);
    for input in inputs {
        let name = stem(&input);
        let expected = std::fs::read_to_string(root().join(format!("examples/run/expected/{name}.out"))).unwrap();
        let c = translate(&input, &Options::new(Target::OpenCl)).unwrap_or_else(|| panic!("{name} does not translate"));
        let file = dir.path().join(format!("{name}.c"));
        std::fs::write(&file, &c).unwrap();
        let exe = dir.path().join(&name);
        run(
            Command::new("gcc")
                .args(["-std=c99", "-O1", "-Wall", "-Werror", "-Wno-unused-function", "-o"])
                .arg(&exe)
                .arg(&file)
                .args(["-lOpenCL", "-lm"]),
            &format!("gcc {name}.c"),
        );
        let out = run(&mut Command::new(&exe), &format!("running {name}"));
        assert_eq!(
            normalize(&String::from_utf8_lossy(&out.stdout)),
            expected,
            "{name}: differs from mlir-runner"
        );
    }
}

/// The programs that use `arith.bitcast`: kernels and host code, then host
/// code alone (also a lit test, which checks the shape of the code).
fn bitcast_programs() -> [PathBuf; 2] {
    [
        root().join("targets/tests/programs/bitcast.lfir"),
        root().join("test/Target/bitcast.lfir"),
    ]
}

/// What `lf-run FILE` prints for `path` (kernels in the simulator).
fn lf_run(path: &Path) -> String {
    let text = std::fs::read_to_string(path).unwrap();
    let loaded = lf_interp::load(&path.display().to_string(), &text).unwrap_or_else(|e| panic!("{e}"));
    let opts = lf_interp::Options {
        entry: "main".into(),
        ..lf_interp::Options::default()
    };
    let out = lf_interp::run_loaded(&loaded, &opts);
    assert_eq!(out.code, 0, "lf-run {}: {}", path.display(), out.stderr);
    normalize(&String::from_utf8(out.stdout).unwrap())
}

#[test]
fn bitcast_program_runs_under_lf_run_as_expected() {
    // The reference the emitted programs are compared with: lf-run prints
    // bitcast.expected, whose values come from Python's struct module.
    let program = root().join("targets/tests/programs/bitcast.lfir");
    let expected = std::fs::read_to_string(program.with_extension("expected")).unwrap();
    assert_eq!(
        lf_run(&program),
        expected,
        "lf-run output differs from bitcast.expected"
    );
}

#[test]
fn bitcast_programs_run_on_pocl_like_lf_run() {
    if !opencl_available() {
        return skip_or_fail(
            "bitcast_programs_run_on_pocl_like_lf_run",
            "an OpenCL ICD (PoCL) with headers and gcc",
            "apt-get install pocl-opencl-icd ocl-icd-opencl-dev",
        );
    }
    let dir = tempfile::tempdir().unwrap();
    for input in bitcast_programs() {
        let name = stem(&input);
        let c = translate(&input, &Options::new(Target::OpenCl)).unwrap_or_else(|| panic!("{name} does not translate"));
        assert!(c.contains("union {"), "{name}: no host bitcast in the OpenCL program");
        let file = dir.path().join(format!("{name}.c"));
        std::fs::write(&file, &c).unwrap();
        let exe = dir.path().join(&name);
        run(
            Command::new("gcc")
                .args([
                    "-std=c99",
                    "-O1",
                    "-Wall",
                    "-Wextra",
                    "-pedantic",
                    "-Werror",
                    "-Wno-unused-function",
                ])
                .args(["-Wno-unused-parameter", "-Wno-overlength-strings", "-o"])
                .arg(&exe)
                .arg(&file)
                .args(["-lOpenCL", "-lm"]),
            &format!("gcc {name}.c"),
        );
        let out = run(&mut Command::new(&exe), &format!("running {name} on OpenCL"));
        assert_eq!(
            normalize(&String::from_utf8_lossy(&out.stdout)),
            lf_run(&input),
            "{name}: the OpenCL program's output differs from lf-run's"
        );
    }
}

#[test]
fn unsigned_min_max_run_on_pocl_like_lf_run() {
    // arith.maxui/minui compare as unsigned in the emitted C (-1 is the
    // largest value), as lf-run does.
    if !opencl_available() {
        return skip_or_fail(
            "unsigned_min_max_run_on_pocl_like_lf_run",
            "an OpenCL ICD (PoCL) with headers and gcc",
            "apt-get install pocl-opencl-icd ocl-icd-opencl-dev",
        );
    }
    let input = root().join("test/Target/integer-min-max.lfir");
    assert_eq!(
        run_opencl_program(&input, &Options::new(Target::OpenCl)),
        lf_run(&input),
        "the OpenCL program's output differs from lf-run's"
    );
}

#[test]
fn bitcast_programs_compile_with_nvcc() {
    let Some(nvcc) = lf_targets::cuda::find_nvcc() else {
        return skip_or_fail(
            "bitcast_programs_compile_with_nvcc",
            "nvcc",
            "pip install nvidia-cuda-nvcc nvidia-cuda-runtime",
        );
    };
    let dir = tempfile::tempdir().unwrap();
    for input in bitcast_programs() {
        let name = stem(&input);
        let cu = translate(&input, &Options::new(Target::Cuda)).unwrap_or_else(|| panic!("{name} does not translate"));
        assert!(cu.contains("memcpy(&"), "{name}: no host bitcast in the CUDA program");
        let file = dir.path().join(format!("{name}.cu"));
        std::fs::write(&file, &cu).unwrap();
        run(
            Command::new(&nvcc)
                .args(["-arch=sm_90", "-cubin", "-Werror", "all-warnings", "-o"])
                .arg(dir.path().join(format!("{name}.cubin")))
                .arg(&file),
            &format!("nvcc -cubin {name}.cu"),
        );
        run(
            Command::new(&nvcc)
                .args([
                    "-arch=sm_90",
                    "-Werror",
                    "all-warnings",
                    "-Xcompiler",
                    "-Wall,-Wextra,-Werror",
                    "-o",
                ])
                .arg(dir.path().join(&name))
                .arg(&file),
            &format!("nvcc (host link) {name}.cu"),
        );
    }
}

#[test]
fn bitcast_kernels_pass_the_rv770_front_end() {
    let Some(clang) = on_path("clang-15") else {
        return skip_or_fail(
            "bitcast_kernels_pass_the_rv770_front_end",
            "clang-15",
            "apt-get install clang-15",
        );
    };
    let dir = tempfile::tempdir().unwrap();
    let input = root().join("targets/tests/programs/bitcast.lfir");
    let mut opts = Options::new(Target::OpenCl);
    opts.emit = Emit::Kernels;
    let cl = translate(&input, &opts).unwrap();
    assert!(
        cl.contains("as_int(") && cl.contains("as_float("),
        "no bitcast in the kernel"
    );
    let file = dir.path().join("bitcast.cl");
    std::fs::write(&file, &cl).unwrap();
    run(
        Command::new(&clang)
            .args([
                "-cl-std=CL1.1",
                "-Xclang",
                "-finclude-default-header",
                "-target",
                "r600--",
                "-mcpu=rv770",
                "-Werror",
                "-fsyntax-only",
            ])
            .arg(&file),
        "clang-15 (r600, rv770) bitcast.cl",
    );
}

/// A program with `i1` buffers on the host and in a kernel (loads, stores,
/// copies both ways): one byte per element everywhere.
fn i1_program() -> PathBuf {
    root().join("targets/tests/programs/i1_buffers.lfir")
}

#[test]
fn i1_buffer_program_runs_under_lf_run_as_expected() {
    let program = i1_program();
    let expected = std::fs::read_to_string(program.with_extension("expected")).unwrap();
    assert_eq!(
        lf_run(&program),
        expected,
        "lf-run output differs from i1_buffers.expected"
    );
}

#[test]
fn i1_buffer_program_runs_on_pocl_like_lf_run() {
    if !opencl_available() {
        return skip_or_fail(
            "i1_buffer_program_runs_on_pocl_like_lf_run",
            "an OpenCL ICD (PoCL) with headers and gcc",
            "apt-get install pocl-opencl-icd ocl-icd-opencl-dev",
        );
    }
    let input = i1_program();
    let mut opts = Options::new(Target::OpenCl);
    opts.profile = lf_targets::OpenClProfile::Generic;
    let c = translate(&input, &opts).expect("i1_buffers translates");
    assert!(
        c.contains("__global uchar* arg0") && c.contains("uint8_t* alloc = (uint8_t*)lf_host_alloc"),
        "i1 buffers are not bytes on both sides:\n{c}"
    );
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("i1_buffers.c");
    std::fs::write(&file, &c).unwrap();
    let exe = dir.path().join("i1_buffers");
    run(
        Command::new("gcc")
            .args(["-std=c99", "-O1", "-Wall", "-Werror", "-Wno-unused-function", "-o"])
            .arg(&exe)
            .arg(&file)
            .args(["-lOpenCL", "-lm"]),
        "gcc i1_buffers.c",
    );
    let out = run(&mut Command::new(&exe), "running i1_buffers on OpenCL");
    assert_eq!(
        normalize(&String::from_utf8_lossy(&out.stdout)),
        lf_run(&input),
        "the OpenCL program's output differs from lf-run's"
    );
}

#[test]
fn i1_buffer_program_compiles_with_nvcc() {
    let Some(nvcc) = lf_targets::cuda::find_nvcc() else {
        return skip_or_fail(
            "i1_buffer_program_compiles_with_nvcc",
            "nvcc",
            "pip install nvidia-cuda-nvcc nvidia-cuda-runtime",
        );
    };
    let cu = translate(&i1_program(), &Options::new(Target::Cuda)).expect("i1_buffers translates");
    assert!(
        cu.contains("pick(uint8_t* arg0, int32_t* arg1, uint8_t* arg2)")
            && cu.contains("cudaMalloc((void**)&memref, (size_t)(16) * sizeof(uint8_t))"),
        "i1 buffers are not bytes on both sides:\n{cu}"
    );
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("i1_buffers.cu");
    std::fs::write(&file, &cu).unwrap();
    run(
        Command::new(&nvcc)
            .args(["-arch=sm_90", "-Werror", "all-warnings", "-o"])
            .arg(dir.path().join("i1_buffers"))
            .arg(&file),
        "nvcc i1_buffers.cu",
    );
}

/// Builds the OpenCL program of `input` (`opts`) with gcc, runs it on the
/// first OpenCL device and returns what it printed (base addresses as 0x0).
fn run_opencl_program(input: &Path, opts: &Options) -> String {
    let name = stem(input);
    let c = translate(input, opts).unwrap_or_else(|| panic!("{name} does not translate"));
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join(format!("{name}.c"));
    std::fs::write(&file, &c).unwrap();
    let exe = dir.path().join(&name);
    run(
        Command::new("gcc")
            .args(["-std=c99", "-O1", "-Wall", "-Werror", "-Wno-unused-function", "-o"])
            .arg(&exe)
            .arg(&file)
            .args(["-lOpenCL", "-lm"]),
        &format!("gcc {name}.c"),
    );
    let out = run(&mut Command::new(&exe), &format!("running {name} on OpenCL"));
    normalize(&String::from_utf8_lossy(&out.stdout))
}

/// Compiles and links the CUDA program of `input` with nvcc (warnings are
/// errors, host code with `-Wall -Wextra`).
fn compile_cuda_program(nvcc: &Path, input: &Path) {
    let name = stem(input);
    let cu = translate(input, &Options::new(Target::Cuda)).unwrap_or_else(|| panic!("{name} does not translate"));
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join(format!("{name}.cu"));
    std::fs::write(&file, &cu).unwrap();
    run(
        Command::new(nvcc)
            .args([
                "-arch=sm_90",
                "-Werror",
                "all-warnings",
                "-Xcompiler",
                "-Wall,-Wextra,-Werror",
                "-o",
            ])
            .arg(dir.path().join(&name))
            .arg(&file),
        &format!("nvcc {name}.cu"),
    );
}

/// Kernels and host functions named like C, C++, CUDA and OpenCL
/// identifiers (`size_t`, `true`, `NULL`, `float4`, `memcpy`, `dim3`,
/// `cudaMalloc`, `LF_CUDA_CHECK`, `main`, ...; `printF32` with a body).
fn names_program() -> PathBuf {
    root().join("targets/tests/programs/names.lfir")
}

#[test]
fn names_program_runs_under_lf_run_as_expected() {
    let program = names_program();
    let expected = std::fs::read_to_string(program.with_extension("expected")).unwrap();
    assert_eq!(lf_run(&program), expected, "lf-run output differs from names.expected");
}

#[test]
fn names_program_runs_on_pocl_like_lf_run() {
    if !opencl_available() {
        return skip_or_fail(
            "names_program_runs_on_pocl_like_lf_run",
            "an OpenCL ICD (PoCL) with headers and gcc",
            "apt-get install pocl-opencl-icd ocl-icd-opencl-dev",
        );
    }
    let input = names_program();
    let mut opts = Options::new(Target::OpenCl);
    opts.profile = lf_targets::OpenClProfile::Generic;
    assert_eq!(run_opencl_program(&input, &opts), lf_run(&input));
}

#[test]
fn names_program_compiles_with_nvcc() {
    let Some(nvcc) = lf_targets::cuda::find_nvcc() else {
        return skip_or_fail(
            "names_program_compiles_with_nvcc",
            "nvcc",
            "pip install nvidia-cuda-nvcc nvidia-cuda-runtime",
        );
    };
    compile_cuda_program(&nvcc, &names_program());
}

/// Three inline launches in one function and two in another.
fn two_launches_program() -> PathBuf {
    root().join("targets/tests/programs/two_launches.lfir")
}

/// mlir-opt's `--gpu-kernel-outlining` of `input`, written into `dir`;
/// `None` (after a `SKIPPED` line, or a failure under `LF_REQUIRE_TOOLS=1`)
/// when mlir-opt is missing.
fn mlir_opt_outlined(test: &str, input: &Path, dir: &Path) -> Option<PathBuf> {
    let Some(mlir_opt) = on_path("mlir-opt-22").or_else(|| on_path("mlir-opt")) else {
        skip_or_fail(test, "mlir-opt", "apt-get install mlir-22-tools");
        return None;
    };
    let out = run(
        Command::new(mlir_opt).arg("--gpu-kernel-outlining").arg(input),
        "mlir-opt --gpu-kernel-outlining",
    );
    let path = dir.join(format!("{}.mlir-outlined.lfir", stem(input)));
    std::fs::write(&path, &out.stdout).unwrap();
    Some(path)
}

#[test]
fn two_launches_program_runs_under_lf_run_as_expected() {
    let program = two_launches_program();
    let expected = std::fs::read_to_string(program.with_extension("expected")).unwrap();
    assert_eq!(
        lf_run(&program),
        expected,
        "lf-run output differs from two_launches.expected"
    );
}

#[test]
fn two_launches_program_runs_on_pocl_like_lf_run() {
    if !opencl_available() {
        return skip_or_fail(
            "two_launches_program_runs_on_pocl_like_lf_run",
            "an OpenCL ICD (PoCL) with headers and gcc",
            "apt-get install pocl-opencl-icd ocl-icd-opencl-dev",
        );
    }
    let input = two_launches_program();
    let expected = lf_run(&input);
    // Outlined by lf (as lf-translate does), then by mlir-opt.
    assert_eq!(run_opencl_program(&input, &Options::new(Target::OpenCl)), expected);
    let dir = tempfile::tempdir().unwrap();
    let Some(outlined) = mlir_opt_outlined("two_launches_program_runs_on_pocl_like_lf_run", &input, dir.path()) else {
        return;
    };
    let text = std::fs::read_to_string(&outlined).unwrap();
    assert!(
        text.contains("gpu.module @fig3_kernel_0") && text.contains("@fig3_kernel_0::@fig3_kernel"),
        "mlir-opt outlined differently:\n{text}"
    );
    assert_eq!(run_opencl_program(&outlined, &Options::new(Target::OpenCl)), expected);
}

#[test]
fn two_launches_program_compiles_with_nvcc() {
    let Some(nvcc) = lf_targets::cuda::find_nvcc() else {
        return skip_or_fail(
            "two_launches_program_compiles_with_nvcc",
            "nvcc",
            "pip install nvidia-cuda-nvcc nvidia-cuda-runtime",
        );
    };
    let input = two_launches_program();
    compile_cuda_program(&nvcc, &input);
    let dir = tempfile::tempdir().unwrap();
    if let Some(outlined) = mlir_opt_outlined("two_launches_program_compiles_with_nvcc", &input, dir.path()) {
        compile_cuda_program(&nvcc, &outlined);
    }
}
