//! `lf-tune`: run a pipeline over a grid of option values, build each
//! variant for a GPU backend, time its kernel launches and check its output
//! (see `lf_tools::tune`).

use clap::{CommandFactory, Parser, ValueEnum};
use lf_targets::OpenClProfile;
use lf_tools::tune::build::TranslateOptions;
use lf_tools::tune::reference::{Reference, Tolerance};
use lf_tools::tune::toolchain::Backend;
use lf_tools::tune::{report, tune, Config};
use std::path::PathBuf;
use std::time::Duration;

#[derive(Copy, Clone, Debug, ValueEnum)]
enum BackendArg {
    /// OpenCL host C built with --cc and -lOpenCL, run on the first OpenCL device.
    Opencl,
    /// CUDA built with nvcc -O3 -arch=ARCH.
    Cuda,
}

#[derive(Copy, Clone, Debug, ValueEnum)]
enum ReferenceArg {
    /// The input's @main run by lf's interpreter (as lf-run prints it).
    #[value(name = "lf-run")]
    LfRun,
    /// The output of the first variant that runs.
    First,
}

#[derive(Copy, Clone, Debug, ValueEnum)]
enum ProfileArg {
    /// AMD RV770-class GPUs: work-group, atomics, store and fp64 rules.
    Rv770,
    /// Plain OpenCL C 1.1, no device rules.
    Generic,
}

/// Command-line options of lf-tune.
#[derive(Parser, Debug)]
#[command(
    name = "lf-tune",
    version,
    about = "Tune pass options: run a pipeline over a grid of values, build and time each variant on a GPU.",
    long_about = "lf-tune runs the pass pipeline on INPUT once per point of the grid (each --grid NAME=V1:V2:... \
variable's value written where the pipeline says $NAME or ${NAME}; '$$' is a '$'), translates each result with \
launch profiling (lf-translate --profile-launches), builds it for the backend and runs it --runs times. A run's \
time is the sum of its kernel launch times; each variant gets the median and minimum. Every run's output must \
equal the reference (the input's @main under lf's interpreter by default), else the variant is WRONG and never \
the best. Progress goes to stderr, one line per variant; the table (markdown) and the best line to stdout.\n\n\
Exit status: 0 when some variant is ok (the best exists); 1 for a bad grid or pipeline, a missing compiler or \
device, a reference that cannot be made, or no variant ok.\n\n\
Example: lf-tune examples/run/jacobi_2d.mlir --backend opencl \
--pipeline 'builtin.module(func.func(gpu-map-loops{block-sizes=$B},gpu-host-data-placement))' \
--grid B=8,8:16,8:32,4"
)]
struct Args {
    /// The input program; its @main prints the results.
    input: PathBuf,
    /// The pass pipeline in MLIR's syntax, with $NAME for the grid's variables.
    #[arg(long)]
    pipeline: String,
    /// A variable and its values: NAME=V1:V2:... (values separated by ':', as they may hold commas).
    /// Repeat for more variables; the variants are every combination, the last variable varying fastest.
    #[arg(long = "grid", value_name = "NAME=V1:V2:...")]
    grid: Vec<String>,
    /// Where the variants run.
    #[arg(long, value_enum)]
    backend: BackendArg,
    /// Runs per variant.
    #[arg(long, default_value_t = 5, value_parser = clap::value_parser!(u32).range(1..))]
    runs: u32,
    /// What every variant must print.
    #[arg(long, value_enum, default_value = "lf-run")]
    reference: ReferenceArg,
    /// Compare every variant's output with this file instead (overrides --reference).
    #[arg(long = "reference-file", value_name = "PATH")]
    reference_file: Option<PathBuf>,
    /// Relative tolerance for printed numbers (default 0: the output must be the same text).
    #[arg(long, value_name = "X", default_value_t = 0.0, value_parser = tolerance)]
    rtol: f64,
    /// Absolute tolerance for printed numbers (default 0).
    #[arg(long, value_name = "X", default_value_t = 0.0, value_parser = tolerance)]
    atol: f64,
    /// Keep the variants' sources (variant-N.c/.cu), executables and outputs in DIR.
    #[arg(long, value_name = "DIR")]
    keep: Option<PathBuf>,
    /// The C compiler for --backend opencl (a name on PATH or a path).
    #[arg(long, default_value = "cc")]
    cc: String,
    /// nvcc for --backend cuda (default: $NVCC, nvcc on PATH, or the nvidia-cuda-nvcc pip package).
    #[arg(long, value_name = "PATH")]
    nvcc: Option<String>,
    /// The GPU architecture for nvcc's -arch.
    #[arg(long, default_value = "sm_90")]
    arch: String,
    /// The OpenCL device profile whose rules the emitter enforces.
    #[arg(long = "opencl-profile", value_enum, default_value = "rv770")]
    opencl_profile: ProfileArg,
    /// A run taking longer than this many seconds is stopped and its variant failed.
    #[arg(long = "run-timeout", value_name = "SECONDS", default_value_t = 60,
          value_parser = clap::value_parser!(u64).range(1..))]
    run_timeout: u64,
}

/// A tolerance: a finite number, 0 or more.
fn tolerance(s: &str) -> Result<f64, String> {
    match s.parse::<f64>() {
        Ok(x) if x.is_finite() && x >= 0.0 => Ok(x),
        _ => Err(format!("'{s}' is not a tolerance (a finite number, 0 or more)")),
    }
}

fn main() {
    let a: Args = lf_tools::cli::parse_or_exit(Args::command(), std::env::args_os().collect(), &[]);
    let cfg = Config {
        input: a.input,
        pipeline: a.pipeline,
        grid: a.grid,
        backend: match a.backend {
            BackendArg::Opencl => Backend::OpenCl,
            BackendArg::Cuda => Backend::Cuda,
        },
        runs: a.runs as usize,
        reference: match (a.reference_file, a.reference) {
            (Some(p), _) => Reference::File(p),
            (None, ReferenceArg::LfRun) => Reference::Interpreter,
            (None, ReferenceArg::First) => Reference::First,
        },
        tolerance: Tolerance {
            rtol: a.rtol,
            atol: a.atol,
        },
        keep: a.keep,
        cc: a.cc,
        nvcc: a.nvcc,
        arch: a.arch,
        translate: TranslateOptions {
            profile: match a.opencl_profile {
                ProfileArg::Rv770 => OpenClProfile::Rv770,
                ProfileArg::Generic => OpenClProfile::Generic,
            },
        },
        timeout: Duration::from_secs(a.run_timeout),
    };
    let outcome = match tune(&cfg, &mut std::io::stderr()) {
        Ok(o) => o,
        Err(e) => {
            eprint!("{}", e.0);
            std::process::exit(1);
        }
    };
    print!("{}", report::table(&outcome.names, &outcome.rows));
    println!();
    println!("{}", report::best_line(&outcome.rows));
    let code = if report::best(&outcome.rows).is_some() { 0 } else { 1 };
    std::process::exit(code);
}
