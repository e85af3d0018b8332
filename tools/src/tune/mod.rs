//! `lf-tune`: autotuning over a grid of pipeline variables. For every point
//! of the grid ([`grid`]) the pipeline with the point's values is run on
//! the input and the result built with launch profiling ([`build`]), run
//! several times and timed ([`measure`]), its output checked against a
//! reference ([`reference`]); the rows make a table and a `best:` line
//! ([`report`]). [`tune`] drives it all.

pub mod build;
pub mod grid;
pub mod measure;
pub mod reference;
pub mod report;
pub mod toolchain;

use build::{Input, TranslateOptions};
use grid::Grid;
use reference::Reference;
use report::{Row, Status};
use std::io::Write;
use std::path::PathBuf;
use std::time::Duration;
use toolchain::{Backend, Toolchain};

/// What to tune.
#[derive(Clone, Debug)]
pub struct Config {
    /// The input program (with a `@main` that prints its results).
    pub input: PathBuf,
    /// The pipeline text, with `$NAME` where a grid variable's value goes.
    pub pipeline: String,
    /// The `--grid NAME=V1:V2:...` flags.
    pub grid: Vec<String>,
    /// Where the variants run.
    pub backend: Backend,
    /// How many times each variant runs.
    pub runs: usize,
    /// What every variant must print.
    pub reference: Reference,
    /// How far printed numbers may be from the reference's.
    pub tolerance: reference::Tolerance,
    /// Keep the sources and executables in this directory (else a
    /// temporary one, removed at the end).
    pub keep: Option<PathBuf>,
    /// The C compiler (OpenCL).
    pub cc: String,
    /// nvcc (CUDA); `None`: found as [`lf_targets::cuda::find_nvcc`] does.
    pub nvcc: Option<String>,
    /// nvcc's `-arch`.
    pub arch: String,
    /// How variants are translated.
    pub translate: TranslateOptions,
    /// A run taking longer than this is killed (and the variant failed).
    pub timeout: Duration,
}

/// The rows of a finished tuning run.
#[derive(Debug)]
pub struct Outcome {
    /// The grid's variable names (the table's first columns).
    pub names: Vec<String>,
    /// One row per variant, in grid order.
    pub rows: Vec<Row>,
}

/// Why tuning could not start: the text to print to stderr (rendered
/// diagnostics, or one `lf-tune: error: ...` line).
#[derive(Debug)]
pub struct SetupError(pub String);

impl SetupError {
    fn msg(m: impl std::fmt::Display) -> SetupError {
        SetupError(format!("lf-tune: error: {m}\n"))
    }
}

/// Checks the grid and the pipeline of every point (an error before
/// anything is built); returns the grid and each point with its pipeline.
pub fn variants(cfg: &Config) -> Result<(Grid, Vec<(grid::Point, String)>), SetupError> {
    let sm = grid::sources(&cfg.grid, &cfg.pipeline);
    let render = |d: Box<lf_diag::Diagnostic>| SetupError(lf_diag::render_all(&[*d], &sm));
    let g = Grid::parse(&cfg.grid).map_err(render)?;
    g.check_pipeline(&cfg.grid, &cfg.pipeline).map_err(render)?;
    let registry = lf_transforms::all_passes();
    let ctx = lf_ir::Context::new();
    lf_dialects::register_all(&ctx);
    let mut out = Vec::new();
    for point in g.points() {
        let text = grid::substitute(&cfg.pipeline, &point).map_err(render)?;
        if let Err(rendered) = build::parse_pipeline(&ctx, &registry, &text) {
            return Err(SetupError(format!(
                "{rendered}lf-tune: error: the pipeline of variant {} is not valid: '{text}'\n",
                point.label()
            )));
        }
        out.push((point, text));
    }
    Ok((g, out))
}

/// Runs the whole tuning: checks, toolchain probe, reference, then each
/// variant in turn, with a progress line per variant (and the variant's
/// diagnostics) on `progress`.
pub fn tune(cfg: &Config, progress: &mut dyn Write) -> Result<Outcome, SetupError> {
    let (g, variants) = variants(cfg)?;
    let text = std::fs::read_to_string(&cfg.input)
        .map_err(|e| SetupError::msg(format!("could not open input file '{}': {e}", cfg.input.display())))?;
    let input = Input {
        name: cfg.input.display().to_string(),
        text,
    };
    let temp;
    let dir = match &cfg.keep {
        Some(d) => {
            std::fs::create_dir_all(d).map_err(|e| SetupError::msg(format!("--keep {}: {e}", d.display())))?;
            d.clone()
        }
        None => {
            temp = tempfile::tempdir().map_err(|e| SetupError::msg(format!("no temporary directory: {e}")))?;
            temp.path().to_path_buf()
        }
    };
    let toolchain =
        Toolchain::find(cfg.backend, &cfg.cc, cfg.nvcc.as_deref(), &cfg.arch, &dir).map_err(SetupError::msg)?;
    let mut expected = reference::load(&cfg.reference, &cfg.input).map_err(SetupError::msg)?;
    let registry = lf_transforms::all_passes();
    let n = variants.len();
    let mut rows = Vec::new();
    for (i, (point, pipeline)) in variants.iter().enumerate() {
        let label = if point.values.is_empty() {
            "(no variables)".to_string()
        } else {
            point.label()
        };
        let (times, status, details) =
            match build::build(&input, &registry, pipeline, &toolchain, &cfg.translate, &dir, i + 1) {
                Err(f) => (None, Status::Failed(f.reason), f.details),
                Ok(built) => {
                    let (times, status) = run_variant(&built.exe, cfg, &mut expected);
                    (times, status, built.messages)
                }
            };
        let mut line = format!("[{}/{n}] {label}: ", i + 1);
        if let Some(t) = times {
            line.push_str(&format!("built, {} runs, median {:.3} ms", cfg.runs, t.median_ms));
        }
        match &status {
            Status::Ok => {}
            Status::Wrong(d) => line.push_str(&format!(", WRONG: {d}")),
            Status::Failed(r) => line.push_str(&format!("failed: {r}")),
        }
        let _ = writeln!(progress, "{line}");
        if !details.is_empty() {
            let _ = write!(progress, "{details}");
            if !details.ends_with('\n') {
                let _ = writeln!(progress);
            }
        }
        rows.push(Row {
            values: point.values.iter().map(|(_, v)| v.clone()).collect(),
            label: point.label(),
            times,
            status,
        });
    }
    Ok(Outcome {
        names: g.vars.iter().map(|v| v.name.clone()).collect(),
        rows,
    })
}

/// Runs a built variant `cfg.runs` times: its times, and whether every run
/// printed `expected` (which the first variant that runs sets, with
/// `--reference first`).
fn run_variant(
    exe: &std::path::Path,
    cfg: &Config,
    expected: &mut Option<Vec<u8>>,
) -> (Option<measure::Stats>, Status) {
    let mut times = Vec::new();
    let mut wrong = None;
    for r in 1..=cfg.runs {
        let run = match measure::run_once(exe, r, cfg.timeout) {
            Ok(run) => run,
            Err(e) => return (None, Status::Failed(e)),
        };
        if run.launches == 0 {
            return (
                None,
                Status::Failed("no kernel launch was timed (the program ran no kernel)".to_string()),
            );
        }
        times.push(run.kernel_ms);
        let reference = expected.get_or_insert_with(|| run.stdout.clone());
        if wrong.is_none() {
            wrong = reference::difference(reference, &run.stdout, cfg.tolerance);
        }
    }
    let status = match wrong {
        Some(d) => Status::Wrong(d),
        None => Status::Ok,
    };
    (measure::stats(&times), status)
}
