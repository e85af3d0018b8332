//! A lit-style test runner.
//!
//! Every `*.lfir` file under the suite root is a test (`Inputs` directories excepted). Its
//! `RUN:` lines run one by one through `bash -o pipefail -c` in the file's directory, with
//! `%s`, `%S`, `%t`, `%T` and `%%` substituted and the configured tools first on `PATH`;
//! the test passes when all of them exit with status 0. `REQUIRES:`/`UNSUPPORTED:` lines
//! name features; a test whose requirements are missing is skipped, loudly, or fails when
//! [`Config::require_features`] is set. Tests run in parallel; the report comes in path
//! order and ends with `lit: N passed, N failed, N skipped`.

pub mod cli;
pub mod discover;
pub mod exec;
pub mod report;
pub mod run_line;

use std::collections::{BTreeMap, BTreeSet};
use std::io::{self, Write};
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::sync::Mutex;
use std::time::{Duration, Instant};

use rayon::prelude::*;

use exec::Status;
pub use report::Summary;
use run_line::{RunLine, Substitutions};

/// How a suite runs.
#[derive(Debug, Clone)]
pub struct Config {
    /// The directory searched for tests.
    pub root: PathBuf,
    /// Extension of test files, without the dot (`lfir`).
    pub extension: String,
    /// Programs put on `PATH` under these names (e.g. `FileCheck` → the lf-filecheck
    /// binary, `mlir-opt` → `/usr/bin/mlir-opt-22`).
    pub tools: BTreeMap<String, PathBuf>,
    /// Features available to `REQUIRES:` and `UNSUPPORTED:`.
    pub features: BTreeSet<String>,
    /// Time allowed to each test (all its RUN lines together).
    pub timeout: Duration,
    /// Unmet `REQUIRES:` makes a test fail instead of being skipped (`LF_REQUIRE_TOOLS=1`).
    pub require_features: bool,
    /// Tests run at once (default: the number of CPUs).
    pub threads: Option<usize>,
    /// Test names are paths relative to this directory (default: the root's parent, so
    /// that names read `test/dialect/x.lfir`).
    pub display_base: Option<PathBuf>,
    /// No line for passing tests.
    pub quiet: bool,
}

impl Config {
    /// A configuration for the `*.lfir` tests under `root`, with no tools or features and a
    /// 60 s timeout.
    pub fn new(root: impl Into<PathBuf>) -> Self {
        Config {
            root: root.into(),
            extension: "lfir".into(),
            tools: BTreeMap::new(),
            features: BTreeSet::new(),
            timeout: Duration::from_secs(60),
            require_features: false,
            threads: None,
            display_base: None,
            quiet: false,
        }
    }

    /// The name a test is reported under.
    pub fn test_name(&self, path: &Path) -> String {
        let base = self
            .display_base
            .clone()
            .or_else(|| self.root.parent().map(Path::to_path_buf))
            .unwrap_or_default();
        path.strip_prefix(&base).unwrap_or(path).display().to_string()
    }
}

/// Why a test failed.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Failure {
    /// What went wrong, in a line.
    pub message: String,
    /// The failing RUN line, after substitution.
    pub command: Option<RunLine>,
    /// How the failing command ended.
    pub status: Option<Status>,
    /// Its standard output.
    pub stdout: String,
    /// Its standard error.
    pub stderr: String,
}

impl Failure {
    fn message(message: impl Into<String>) -> Self {
        Failure {
            message: message.into(),
            command: None,
            status: None,
            stdout: String::new(),
            stderr: String::new(),
        }
    }
}

/// The verdict on one test.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Outcome {
    /// Every RUN line succeeded.
    Pass,
    /// Something failed.
    Fail(Failure),
    /// Not run; the reason (e.g. `mlir-opt not installed`).
    Skip(String),
}

/// One test's result.
#[derive(Debug, Clone)]
pub struct TestResult {
    /// The test file.
    pub path: PathBuf,
    /// Its reported name (see [`Config::test_name`]).
    pub name: String,
    /// The verdict.
    pub outcome: Outcome,
    /// Time spent.
    pub elapsed: Duration,
}

/// Looks for the first of `names` on `PATH`.
pub fn find_program(names: &[&str]) -> Option<PathBuf> {
    let path = std::env::var_os("PATH")?;
    names.iter().find_map(|name| {
        std::env::split_paths(&path)
            .map(|dir| dir.join(name))
            .find(|p| p.is_file() && is_executable(p))
    })
}

fn is_executable(p: &Path) -> bool {
    use std::os::unix::fs::PermissionsExt as _;
    std::fs::metadata(p).is_ok_and(|m| m.permissions().mode() & 0o111 != 0)
}

/// Runs `tests` (paths of test files) and writes each result to `out` as soon as it and
/// all tests before it are done. Results come back in the order of `tests`.
pub fn run_tests(config: &Config, tests: &[PathBuf], out: &mut (dyn Write + Send)) -> io::Result<Vec<TestResult>> {
    let scratch = tempfile::Builder::new().prefix("lf-lit-").tempdir()?;
    let bin = scratch.path().join("bin");
    std::fs::create_dir(&bin)?;
    for (name, target) in &config.tools {
        let target = std::path::absolute(target)?;
        std::os::unix::fs::symlink(&target, bin.join(name))?;
    }
    let mut path_env = bin.display().to_string();
    if let Some(p) = std::env::var_os("PATH") {
        path_env.push(':');
        path_env.push_str(&p.to_string_lossy());
    }
    let threads = config
        .threads
        .unwrap_or_else(|| std::thread::available_parallelism().map_or(1, |n| n.get()));
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(threads)
        .build()
        .map_err(io::Error::other)?;

    struct Printer<'w> {
        next: usize,
        ready: BTreeMap<usize, String>,
        out: &'w mut (dyn Write + Send),
    }
    let printer = Mutex::new(Printer {
        next: 0,
        ready: BTreeMap::new(),
        out,
    });
    let results: Vec<TestResult> = pool.install(|| {
        tests
            .par_iter()
            .enumerate()
            .map(|(i, path)| {
                let result = run_test(config, path, &scratch.path().join(i.to_string()), &path_env);
                let text = report::format_result(&result, config.quiet);
                let mut p = printer.lock().unwrap_or_else(|e| e.into_inner());
                p.ready.insert(i, text);
                loop {
                    let next = p.next;
                    let Some(text) = p.ready.remove(&next) else { break };
                    let _ = p.out.write_all(text.as_bytes());
                    p.next += 1;
                }
                let _ = p.out.flush();
                result
            })
            .collect()
    });
    Ok(results)
}

/// Runs one test; `temp_dir` is its private scratch directory (`%T`), `path_env` the
/// `PATH` its commands see.
pub fn run_test(config: &Config, path: &Path, temp_dir: &Path, path_env: &str) -> TestResult {
    let start = Instant::now();
    let outcome = test_outcome(config, path, temp_dir, path_env, start);
    TestResult {
        path: path.to_path_buf(),
        name: config.test_name(path),
        outcome,
        elapsed: start.elapsed(),
    }
}

fn test_outcome(config: &Config, path: &Path, temp_dir: &Path, path_env: &str, start: Instant) -> Outcome {
    let text = match std::fs::read(path) {
        Ok(b) => String::from_utf8_lossy(&b).into_owned(),
        Err(e) => return Outcome::Fail(Failure::message(format!("cannot read the test file: {e}"))),
    };
    let directives = match run_line::parse_directives(&text) {
        Ok(d) => d,
        Err(e) => return Outcome::Fail(Failure::message(format!("invalid lit directives: {e}"))),
    };
    let holds = |e: &String| run_line::eval_feature_expr(e, &config.features).unwrap_or(false);
    let unmet: Vec<&String> = directives.requires.iter().filter(|e| !holds(e)).collect();
    if !unmet.is_empty() {
        let mut missing: Vec<String> = unmet
            .iter()
            .flat_map(|e| run_line::feature_names(e))
            .filter(|f| !config.features.contains(f))
            .collect();
        missing.dedup();
        let what = if missing.is_empty() {
            unmet.iter().map(|e| e.as_str()).collect::<Vec<_>>().join(", ")
        } else {
            missing.join(", ")
        };
        if config.require_features {
            return Outcome::Fail(Failure::message(format!(
                "REQUIRES: {what} not installed, and LF_REQUIRE_TOOLS=1 makes that a failure"
            )));
        }
        return Outcome::Skip(format!("{what} not installed"));
    }
    let unsupported: Vec<&str> = directives
        .unsupported
        .iter()
        .filter(|e| holds(e))
        .map(String::as_str)
        .collect();
    if !unsupported.is_empty() {
        return Outcome::Skip(format!("UNSUPPORTED: {}", unsupported.join(", ")));
    }
    if directives.run_lines.is_empty() {
        return Outcome::Fail(Failure::message("the test has no RUN: line"));
    }
    if let Err(e) = std::fs::create_dir_all(temp_dir) {
        return Outcome::Fail(Failure::message(format!("cannot create {}: {e}", temp_dir.display())));
    }
    let abs = std::path::absolute(path).unwrap_or_else(|_| path.to_path_buf());
    let subst = Substitutions::new(&abs, temp_dir);
    let cwd = abs.parent().unwrap_or(Path::new("/"));
    for run in &directives.run_lines {
        let command = subst.apply(&run.command);
        let remaining = config.timeout.saturating_sub(start.elapsed());
        let result = match exec::run_shell(&command, cwd, Some(path_env), remaining) {
            Ok(r) => r,
            Err(e) => return Outcome::Fail(Failure::message(format!("cannot run bash: {e}"))),
        };
        if !result.status.success() {
            let how = report::describe_status(result.status, config.timeout.as_secs());
            return Outcome::Fail(Failure {
                message: format!("Command failed: {how}"),
                command: Some(RunLine {
                    line: run.line,
                    command,
                }),
                status: Some(result.status),
                stdout: result.stdout,
                stderr: result.stderr,
            });
        }
    }
    Outcome::Pass
}

/// Whether a test named `name` (path relative to the root: `rel`) is selected.
fn selected(args: &cli::DriverArgs, env_filter: Option<&str>, name: &str, rel: &str) -> bool {
    let matches = |f: &String| {
        if args.exact {
            name == f || rel == f
        } else {
            name.contains(f.as_str())
        }
    };
    (args.filters.is_empty() || args.filters.iter().any(matches))
        && !args.skip.iter().any(|s| name.contains(s.as_str()))
        && env_filter.is_none_or(|f| name.contains(f))
}

/// The whole driver: reads `args` (see [`cli::HELP`]) and the environment (`LF_LIT_FILTER`,
/// `LF_LIT_TIMEOUT`, `LF_REQUIRE_TOOLS`), runs the selected tests, prints the report on
/// stdout and returns failure if any test failed.
pub fn run_main(mut config: Config, args: &[String]) -> ExitCode {
    let args = match cli::parse_driver_args(args) {
        Ok(a) => a,
        Err(e) => {
            eprintln!("lit: {e}\n\n{}", cli::HELP);
            return ExitCode::from(2);
        }
    };
    if args.help {
        print!("{}", cli::HELP);
        return ExitCode::SUCCESS;
    }
    if std::env::var("LF_REQUIRE_TOOLS").is_ok_and(|v| v == "1") {
        config.require_features = true;
    }
    if let Ok(t) = std::env::var("LF_LIT_TIMEOUT") {
        match t.parse::<u64>() {
            Ok(s) if s > 0 => config.timeout = Duration::from_secs(s),
            _ => {
                eprintln!("lit: LF_LIT_TIMEOUT must be a positive number of seconds, not '{t}'");
                return ExitCode::from(2);
            }
        }
    }
    config.threads = args.threads.or(config.threads);
    config.quiet |= args.quiet;
    let all = match discover::discover(&config.root, &config.extension) {
        Ok(t) => t,
        Err(e) => {
            eprintln!("lit: cannot search {}: {e}", config.root.display());
            return ExitCode::from(2);
        }
    };
    let env_filter = std::env::var("LF_LIT_FILTER").ok().filter(|f| !f.is_empty());
    let tests: Vec<PathBuf> = all
        .iter()
        .filter(|p| {
            let rel = p.strip_prefix(&config.root).unwrap_or(p).display().to_string();
            !args.ignored_only && selected(&args, env_filter.as_deref(), &config.test_name(p), &rel)
        })
        .cloned()
        .collect();
    if args.list {
        for t in &tests {
            println!("{}: test", config.test_name(t));
        }
        return ExitCode::SUCCESS;
    }
    let features: Vec<&str> = config.features.iter().map(String::as_str).collect();
    println!(
        "lit: running {} of {} tests in {} (features: {})",
        tests.len(),
        all.len(),
        config.root.display(),
        if features.is_empty() {
            "none".to_string()
        } else {
            features.join(", ")
        }
    );
    let mut stdout = io::stdout();
    let results = match run_tests(&config, &tests, &mut stdout) {
        Ok(r) => r,
        Err(e) => {
            eprintln!("lit: cannot set up the test run: {e}");
            return ExitCode::from(2);
        }
    };
    print!("{}", report::format_summary(&results));
    if Summary::of(&results).failed > 0 {
        ExitCode::FAILURE
    } else {
        ExitCode::SUCCESS
    }
}

#[cfg(test)]
mod tests;
