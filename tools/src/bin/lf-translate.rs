//! `lf-translate`: emit CUDA, OpenCL C or Brook+ from gpu-dialect IR.

use clap::{CommandFactory, Parser, ValueEnum};
use lf_diag::{Diagnostic, SourceMgr};
use lf_ir::Context;
use lf_targets::{Emit, OpenClProfile, Options, Target};
use std::io::{Read, Write};

#[derive(Copy, Clone, Debug, ValueEnum)]
enum TargetArg {
    /// One .cu file: kernels and host C++.
    Cuda,
    /// OpenCL C 1.1 kernels and host C (OpenCL API).
    Opencl,
    /// One .br file: Brook+ kernels (map-style) and host C++ (Brook+ runtime).
    Brook,
}

#[derive(Copy, Clone, Debug, ValueEnum)]
enum ProfileArg {
    /// AMD RV770-class GPUs (Radeon HD 4870/4850): work-group, atomics, store and fp64 rules.
    Rv770,
    /// Plain OpenCL C 1.1, no device rules.
    Generic,
}

#[derive(Copy, Clone, Debug, ValueEnum)]
enum EmitArg {
    /// The complete program (kernels and host code).
    All,
    /// The device code only (for OpenCL: the .cl source).
    Kernels,
}

/// Command-line options of lf-translate.
#[derive(Parser, Debug)]
#[command(
    name = "lf-translate",
    version,
    about = "Translate gpu-dialect IR (kernels + host functions) to CUDA, OpenCL C or Brook+.",
    long_about = "lf-translate reads gpu-dialect IR (inline gpu.launch ops are outlined first, as \
lf-opt's gpu-kernel-outlining does; or gpu.module with gpu.func kernels and host func.func with \
gpu.launch_func) and writes CUDA (--target=cuda: one .cu file) or OpenCL \
(--target=opencl: host C with the OpenCL C 1.1 kernels embedded; --emit=kernels for the .cl alone) \
or Brook+ (--target=brook: one .br file with the map-style kernels and the C++ host code; \
--emit=kernels for the kernels alone; see docs/design/brook.md). \
On any error the exit status is 1, diagnostics carry file:line:col, and no output file is written.\n\n\
Example: lf-translate test/gpu-programs/matmul_tiled.lfir --target=cuda -o matmul.cu"
)]
struct Args {
    /// Input file ('-' for standard input).
    #[arg(default_value = "-")]
    input: String,
    /// Output file ('-' for standard output). Written only if everything succeeds.
    #[arg(short = 'o', default_value = "-")]
    output: String,
    /// The language to emit.
    #[arg(long, value_enum, required_unless_present_any = ["check_brook", "brook_to_cpp"])]
    target: Option<TargetArg>,
    /// The OpenCL device profile whose rules are enforced.
    #[arg(long = "opencl-profile", value_enum, default_value = "rv770")]
    opencl_profile: ProfileArg,
    /// Allow f64 in OpenCL kernels through the cl_amd_fp64 extension.
    #[arg(long = "opencl-amd-fp64")]
    opencl_amd_fp64: bool,
    /// Which part to emit.
    #[arg(long, value_enum, default_value = "all")]
    emit: EmitArg,
    /// Accept ops, attributes and types of dialects lf does not know.
    #[arg(long = "allow-unregistered-dialect")]
    allow_unregistered_dialect: bool,
    /// Check a Brook+ file against Brook+'s rules (docs/design/brook.md); exit 1 on any violation.
    #[arg(long = "check-brook", value_name = "FILE.br", conflicts_with_all = ["brook_to_cpp", "target"])]
    check_brook: Option<String>,
    /// Translate a Brook+ file to C++ against lf's Brook+ runtime emulation (brook/Stream.h), to -o.
    #[arg(long = "brook-to-cpp", value_name = "FILE.br", conflicts_with = "target")]
    brook_to_cpp: Option<String>,
    /// CUDA and OpenCL: the host code times every kernel launch and prints
    /// `lf-profile: launch KERNEL ms=T` to stderr (CUDA events; OpenCL: clFinish and CLOCK_MONOTONIC).
    #[arg(long = "profile-launches")]
    profile_launches: bool,
}

fn main() {
    let args: Args = lf_tools::cli::parse_or_exit(Args::command(), std::env::args_os().collect(), &[]);
    std::process::exit(run(args));
}

fn run(args: Args) -> i32 {
    if args.check_brook.is_some() || args.brook_to_cpp.is_some() {
        return run_brook(&args);
    }
    let ctx = Context::new();
    lf_dialects::register_all(&ctx);
    ctx.set_allow_unregistered_dialects(args.allow_unregistered_dialect);
    let (name, text) = if args.input == "-" {
        let mut s = String::new();
        if let Err(e) = std::io::stdin().read_to_string(&mut s) {
            eprintln!("lf-translate: error: could not read standard input: {e}");
            return 1;
        }
        ("<stdin>".to_string(), s)
    } else {
        match std::fs::read_to_string(&args.input) {
            Ok(s) => (args.input.clone(), s),
            Err(e) => {
                eprintln!("lf-translate: error: could not open input file '{}': {e}", args.input);
                return 1;
            }
        }
    };
    let report = |diags: &[Diagnostic]| {
        let mut sm = SourceMgr::new();
        sm.add(name.as_str(), text.as_str());
        let _ = lf_diag::emit_to_stderr(diags, &sm);
    };
    let mut owned = match lf_ir::parse_source(&ctx, &text, &name) {
        Ok(o) => o,
        Err(d) => {
            report(&[*d]);
            return 1;
        }
    };
    if let Err(d) = lf_ir::verify(&ctx, &owned.body, owned.op) {
        report(&[*d]);
        return 1;
    }
    if let Err(diags) = lf_dialects::gpu::transforms::gpu_kernel_outlining::outline_module(&ctx, &mut owned) {
        report(&diags);
        return 1;
    }
    let opts = Options {
        target: match args.target {
            Some(TargetArg::Cuda) => Target::Cuda,
            Some(TargetArg::Opencl) => Target::OpenCl,
            Some(TargetArg::Brook) => Target::Brook,
            None => unreachable!("clap requires --target without --check-brook/--brook-to-cpp"),
        },
        profile: match args.opencl_profile {
            ProfileArg::Rv770 => OpenClProfile::Rv770,
            ProfileArg::Generic => OpenClProfile::Generic,
        },
        amd_fp64: args.opencl_amd_fp64,
        emit: match args.emit {
            EmitArg::All => Emit::All,
            EmitArg::Kernels => Emit::Kernels,
        },
        profile_launches: args.profile_launches,
    };
    let code = match lf_targets::translate_with_warnings(&ctx, &owned.body, owned.op, &opts) {
        Ok(t) => {
            // Warnings (a module without GPU kernels) go to stderr; the code
            // is complete all the same.
            if !t.warnings.is_empty() {
                report(&t.warnings);
            }
            t.code
        }
        Err(mut diags) => {
            lf_diag::sort_by_position(&mut diags);
            report(&diags);
            return 1;
        }
    };
    if args.output == "-" {
        let mut out = std::io::stdout().lock();
        if out.write_all(code.as_bytes()).and_then(|_| out.flush()).is_err() {
            return 1;
        }
        return 0;
    }
    // A regular file is written next to the destination and renamed into
    // place: no partial file on failure.
    let written = lf_tools::output::write_file(std::path::Path::new(&args.output), code.as_bytes());
    match written {
        Ok(()) => 0,
        Err(e) => {
            eprintln!(
                "lf-translate: error: could not write output file '{}': {e}",
                args.output
            );
            1
        }
    }
}

/// `--check-brook FILE.br` (diagnostics, exit 1 on any) and `--brook-to-cpp
/// FILE.br -o OUT.cpp` (nothing written on error).
fn run_brook(args: &Args) -> i32 {
    let path = args
        .check_brook
        .as_ref()
        .or(args.brook_to_cpp.as_ref())
        .expect("a Brook+ flag");
    let text = match std::fs::read_to_string(path) {
        Ok(s) => s,
        Err(e) => {
            eprintln!("lf-translate: error: could not open input file '{path}': {e}");
            return 1;
        }
    };
    let report = |diags: &[Diagnostic]| {
        let mut sm = SourceMgr::new();
        sm.add(path.as_str(), text.as_str());
        let _ = lf_diag::emit_to_stderr(diags, &sm);
    };
    if args.check_brook.is_some() {
        let diags = lf_targets::brook::check::check(&text, path);
        if diags.is_empty() {
            eprintln!("{path}: ok");
            return 0;
        }
        report(&diags);
        return 1;
    }
    let code = match lf_targets::brook::cpp::to_cpp(&text, path) {
        Ok(c) => c,
        Err(diags) => {
            report(&diags);
            return 1;
        }
    };
    if args.output == "-" {
        let mut out = std::io::stdout().lock();
        return i32::from(out.write_all(code.as_bytes()).and_then(|_| out.flush()).is_err());
    }
    match lf_tools::output::write_file(std::path::Path::new(&args.output), code.as_bytes()) {
        Ok(()) => 0,
        Err(e) => {
            eprintln!(
                "lf-translate: error: could not write output file '{}': {e}",
                args.output
            );
            1
        }
    }
}
