//! `lf-run`: runs CPU- and GPU-level IR with race, bounds and barrier checking.
//! The work is done by the `lf-interp` crate; see docs/lf-run.md.

use clap::{CommandFactory, Parser};
use lf_devices::GpuBackend;
use lf_interp::{BlockOrder, Options};
use std::io::Write;
use std::process::ExitCode;

/// Command-line options of lf-run.
#[derive(Parser, Debug)]
#[command(
    name = "lf-run",
    version,
    about = "Run lf IR (func/arith/math/scf/memref/affine/gpu) on the CPU, checking GPU kernels for races, \
             out-of-bounds accesses and divergent barriers.",
    long_about = "lf-run parses and verifies FILE, then calls its @main (or --entry=NAME). The runner-utils \
functions (printMemrefF32, printF32, printNewline, ...) print what mlir-runner prints. Faults are reported \
as diagnostics at the op's location, with exit status 1.\n\n\
Kernel mode: `lf-run FILE --entry=K --random-inputs=SEED` fills K's memref arguments and prints a \
checksum per argument; `lf-run --compare A B --entry=K` runs K of both files on the same inputs and \
reports the first element that differs."
)]
struct Args {
    /// Input file.
    #[arg(required_unless_present = "compare")]
    input: Option<String>,
    /// The function to call.
    #[arg(long, default_value = "main")]
    entry: String,
    /// Kernel mode: fill memref arguments deterministically from SEED and print checksums.
    #[arg(long = "random-inputs", value_name = "SEED")]
    random_inputs: Option<u64>,
    /// Kernel mode: the value of scalar argument N (repeatable; default: drawn from the seed).
    #[arg(long = "arg", value_name = "N:VALUE", value_parser = parse_arg)]
    args: Vec<(usize, String)>,
    /// Run the entry of A and B on the same inputs and compare the memref arguments afterwards.
    #[arg(long, num_args = 2, value_names = ["A", "B"])]
    compare: Option<Vec<String>>,
    /// Relative tolerance for floats in --compare (default: exact).
    #[arg(long, default_value_t = 0.0)]
    rtol: f64,
    /// Absolute tolerance for floats in --compare (default: exact).
    #[arg(long, default_value_t = 0.0)]
    atol: f64,
    /// Order in which the blocks of a launch run: forward, reverse or random:SEED.
    #[arg(long = "block-order", default_value = "forward", value_parser = parse_order)]
    block_order: BlockOrder,
    /// Report reads of memory that was never written.
    #[arg(long = "check-uninit")]
    check_uninit: bool,
    /// Model host and device memory apart: a gpu.alloc buffer is device memory, every other
    /// buffer host memory. A kernel touching host memory, host code (loads, stores, copies,
    /// printing; gpu.memcpy excepted) touching device memory, and a read of a gpu.alloc
    /// element no gpu.memcpy or kernel has written are faults. Default: one memory shared by
    /// host and device (unified memory), as kernels before gpu-host-data-placement need.
    #[arg(long = "separate-memory")]
    separate_memory: bool,
    /// Stop with an error after this many instructions.
    #[arg(long = "max-steps", default_value_t = 10_000_000_000)]
    max_steps: u64,
    /// Stop with an error when live memory would exceed this many bytes (8 per element).
    #[arg(long = "max-memory", default_value_t = 4 << 30)]
    max_memory: u64,
    /// Print the number of instructions executed and the time taken to standard error.
    #[arg(long)]
    stats: bool,
    /// Where kernel launches run: sim (the interpreter, with its checks), opencl (the emitted
    /// OpenCL C on the first OpenCL device) or cuda (the emitted CUDA, nvcc and the driver API).
    #[arg(long = "gpu-backend", default_value = "sim", value_parser = parse_backend)]
    gpu_backend: GpuBackend,
    /// Per loop run in a kernel, the SIMT efficiency of warps of 32 lanes (active lanes per
    /// issued iteration, PDOM reconvergence): a table on standard error (or --profile-out).
    /// With --compare, both programs are profiled.
    #[arg(long = "profile-divergence")]
    profile_divergence: bool,
    /// Write the --profile-divergence table to PATH instead of standard error.
    #[arg(long = "profile-out", value_name = "PATH", requires = "profile_divergence")]
    profile_out: Option<String>,
    /// With --compare: also check that every GPU thread makes the same stores (buffer,
    /// element, value) in the same order in A and B; report the first that differs.
    #[arg(long = "compare-traces", requires = "compare")]
    compare_traces: bool,
}

fn parse_backend(s: &str) -> Result<GpuBackend, String> {
    GpuBackend::parse(s)
}

fn parse_arg(s: &str) -> Result<(usize, String), String> {
    let (n, v) = s.split_once(':').ok_or("expected N:VALUE")?;
    let n = n.parse().map_err(|_| format!("'{n}' is not an argument position"))?;
    Ok((n, v.to_string()))
}

fn parse_order(s: &str) -> Result<BlockOrder, String> {
    match s {
        "forward" => Ok(BlockOrder::Forward),
        "reverse" => Ok(BlockOrder::Reverse),
        _ => s
            .strip_prefix("random:")
            .and_then(|n| n.parse().ok())
            .map(BlockOrder::Random)
            .ok_or_else(|| "expected forward, reverse or random:SEED".to_string()),
    }
}

pub fn main() -> ExitCode {
    let a: Args = lf_tools::cli::parse_or_exit(Args::command(), std::env::args_os().collect(), &[]);
    if (a.profile_divergence || a.compare_traces) && a.gpu_backend.device().is_some() {
        eprintln!("lf-run: error: --profile-divergence and --compare-traces need --gpu-backend=sim (the simulator)");
        return ExitCode::from(1);
    }
    let opts = Options {
        exec: lf_interp::exec::ExecOptions {
            max_steps: a.max_steps,
            max_memory: a.max_memory,
            check_uninit: a.check_uninit,
            block_order: a.block_order,
            separate_memory: a.separate_memory,
        },
        entry: a.entry.clone(),
        random_inputs: a.random_inputs,
        scalar_args: a.args.clone(),
        rtol: a.rtol,
        atol: a.atol,
        stats: a.stats,
        stream: true,
        gpu_backend: a.gpu_backend.device(),
        profile_divergence: a.profile_divergence,
        compare_traces: a.compare_traces,
    };
    // Open the profile's file first: a path that cannot be written is an
    // error before anything runs.
    let mut profile_file = match &a.profile_out {
        Some(path) => match std::fs::File::create(path) {
            Ok(f) => Some((path, f)),
            Err(e) => {
                eprintln!("lf-run: error: could not write the profile to '{path}': {e}");
                return ExitCode::from(1);
            }
        },
        None => None,
    };
    let out = match (&a.compare, &a.input) {
        (Some(files), _) => lf_interp::compare_files(&files[0], &files[1], &opts),
        (None, Some(input)) => lf_interp::run_file(input, &opts),
        (None, None) => unreachable!("clap requires an input"),
    };
    let _ = std::io::stdout().write_all(&out.stdout);
    let _ = std::io::stdout().flush();
    eprint!("{}", out.stderr);
    if !out.profile.is_empty() {
        match &mut profile_file {
            Some((path, f)) => {
                if let Err(e) = f.write_all(out.profile.as_bytes()) {
                    eprintln!("lf-run: error: could not write the profile to '{path}': {e}");
                    return ExitCode::from(1);
                }
            }
            None => eprint!("{}", out.profile),
        }
    }
    ExitCode::from(out.code as u8)
}
