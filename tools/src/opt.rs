//! The `lf-opt` driver: read, parse, verify, print.

use crate::timing::Timing;
use crate::verify_semantics::{Mode, SemanticsChecker, SemanticsOptions};
use clap::Parser as ClapParser;
use lf_diag::{Diagnostic, SourceMgr, SourcePos, Verifier, VerifyMode};
use lf_ir::{Context, ParseOptions, PrintOptions};
use lf_pass::{PassManager, PassRegistry, RunOptions};
use memmap2::{Mmap, UncheckedAdvice};
use std::io::{Read, Write};
use std::path::PathBuf;
use std::sync::Arc;

/// The most threads lf-opt uses: a larger `--threads` (or number of cores)
/// counts as this many. The threads are started up front (the pool that
/// verifies, transforms and prints, the parser's workers), and thousands of
/// them took seconds to start and stop even for `module {}`.
pub const MAX_THREADS: usize = 256;

/// Command-line options of lf-opt.
#[derive(ClapParser, Debug)]
#[command(
    name = "lf-opt",
    version,
    about = "Parse, verify, transform and print lf IR (MLIR syntax).",
    long_about = "lf-opt reads IR in MLIR's textual syntax (.lfir), verifies it and prints it back, \
in the custom form by default or in MLIR's generic form. Errors are reported with the source \
line and a caret; the exit status is 1 and no output file is written when anything fails.\n\n\
Example: lf-opt examples/fig3_chain.lfir --print-op-generic -o out.lfir"
)]
pub struct OptArgs {
    /// Input file ('-' or nothing for standard input).
    #[arg(default_value = "-")]
    pub input: String,
    /// Output file ('-' for standard output). Written only if everything succeeds.
    #[arg(short = 'o', default_value = "-")]
    pub output: String,
    /// Print every op in MLIR's generic form.
    #[arg(long = "print-op-generic", visible_alias = "mlir-print-op-generic")]
    pub print_op_generic: bool,
    /// Print locations (`loc(...)`), as aliases defined at the end.
    #[arg(long = "print-debuginfo", visible_alias = "mlir-print-debuginfo")]
    pub print_debuginfo: bool,
    /// Print in MLIR's local scope: no alias definitions (`#map`, `#loc`),
    /// every attribute and location written where it is used.
    #[arg(long = "print-local-scope", visible_alias = "mlir-print-local-scope")]
    pub print_local_scope: bool,
    /// Accept ops, attributes and types of dialects lf does not know.
    #[arg(long = "allow-unregistered-dialect")]
    pub allow_unregistered_dialect: bool,
    /// Process each chunk between `// -----` lines separately.
    #[arg(long = "split-input-file")]
    pub split_input_file: bool,
    /// Check diagnostics against `// expected-error {{...}}` comments instead of printing them.
    #[arg(long = "verify-diagnostics")]
    pub verify_diagnostics: bool,
    /// Skip the verifier (for debugging lf itself).
    #[arg(long = "no-verify", hide = true)]
    pub no_verify: bool,
    /// Threads to use (parsing, verifying and printing functions in parallel);
    /// 1 does everything on one thread. The output is the same for any number.
    /// Default: the number of cores. At most 256 are used (a larger N counts
    /// as 256).
    #[arg(long = "threads", value_name = "N", value_parser = clap::value_parser!(u32).range(1..))]
    pub threads: Option<u32>,
    /// Do everything on one thread (as --threads=1, which it overrides).
    #[arg(long = "disable-threading", visible_alias = "mlir-disable-threading")]
    pub disable_threading: bool,
    /// Print how long each phase (read, parse, verify, passes, print) took to
    /// stderr, with a tree of the wall time of each pass.
    #[arg(long = "timing", visible_alias = "mlir-timing")]
    pub timing: bool,
    /// The pass pipeline to run, in MLIR's syntax:
    /// 'builtin.module(func.func(cse,canonicalize{max-iterations=5}),symbol-dce)'.
    /// Passes can also be given as flags (--cse, --canonicalize='max-iterations=5'),
    /// which nest each pass under the op it runs on.
    #[arg(long = "pass-pipeline", value_name = "PIPELINE")]
    pub pass_pipeline: Option<String>,
    /// List the passes with their summaries and options, and exit.
    #[arg(long = "list-passes")]
    pub list_passes: bool,
    /// Print the pipeline with its options to stderr before running it, as
    /// mlir-opt prints it: a form that --pass-pipeline accepts, and mlir-opt
    /// too when the passes are MLIR's (an option lf adds to one of MLIR's
    /// passes is shown only when not at its default).
    #[arg(long = "dump-pass-pipeline")]
    pub dump_pass_pipeline: bool,
    /// Verify the IR after each pass (on by default; --verify-each=false to skip).
    #[arg(long = "verify-each", value_name = "BOOL", default_value_t = true, num_args = 0..=1,
          default_missing_value = "true", action = clap::ArgAction::Set)]
    pub verify_each: bool,
    /// Print the IR before each run of these passes (comma-separated or repeated).
    #[arg(
        long = "print-ir-before",
        visible_alias = "mlir-print-ir-before",
        value_name = "PASS",
        value_delimiter = ','
    )]
    pub print_ir_before: Vec<String>,
    /// Print the IR after each run of these passes (comma-separated or repeated).
    #[arg(
        long = "print-ir-after",
        visible_alias = "mlir-print-ir-after",
        value_name = "PASS",
        value_delimiter = ','
    )]
    pub print_ir_after: Vec<String>,
    /// Print the IR before every pass (to stderr).
    #[arg(long = "print-ir-before-all", visible_alias = "mlir-print-ir-before-all")]
    pub print_ir_before_all: bool,
    /// Print the IR after every pass (to stderr).
    #[arg(long = "print-ir-after-all", visible_alias = "mlir-print-ir-after-all")]
    pub print_ir_after_all: bool,
    /// Print the IR after a pass only where the pass changed it.
    #[arg(long = "print-ir-after-change", visible_alias = "mlir-print-ir-after-change")]
    pub print_ir_after_change: bool,
    /// IR dumps print the whole module, their header naming the op the pass
    /// ran on (`('func.func' operation: @f)`), as the module is once the
    /// pass ran on every op. mlir-opt also asks for
    /// --mlir-disable-threading; lf does not.
    #[arg(long = "print-ir-module-scope", visible_alias = "mlir-print-ir-module-scope")]
    pub print_ir_module_scope: bool,
    /// Write the IR after each pass, one file per pass per op, under DIR
    /// (DIR/builtin_module_no-symbol-name/func_func_NAME/INDEX_PASS.lfir).
    #[arg(
        long = "print-ir-tree-dir",
        visible_alias = "mlir-print-ir-tree-dir",
        value_name = "DIR"
    )]
    pub print_ir_tree_dir: Option<PathBuf>,
    /// Print the statistics of each pass to stderr.
    #[arg(long = "pass-statistics", visible_alias = "mlir-pass-statistics")]
    pub pass_statistics: bool,
    /// Check that the output parses back to the same IR, in the custom and
    /// the generic form.
    #[arg(long = "verify-roundtrip")]
    pub verify_roundtrip: bool,
    /// Run the program in lf-run's interpreter before the passes and after
    /// each pass that changed it, and fail naming the first pass after which
    /// its results differ or it faults (a race, an out-of-bounds access).
    /// MODE: main (what @main prints; the default when there is a @main
    /// without arguments), random:SEED (every public function with
    /// arguments, on random inputs: memref arguments after the call and
    /// results), entry:NAME (one function).
    #[arg(long = "verify-semantics", value_name = "MODE", num_args = 0..=1, require_equals = true,
          default_missing_value = "")]
    pub verify_semantics: Option<String>,
    /// --verify-semantics: relative tolerance for floats (default 0: exact).
    #[arg(long = "verify-semantics-rtol", value_name = "X")]
    pub verify_semantics_rtol: Option<f64>,
    /// --verify-semantics: absolute tolerance for floats (default 0: exact).
    #[arg(long = "verify-semantics-atol", value_name = "X")]
    pub verify_semantics_atol: Option<f64>,
    /// --verify-semantics: instructions allowed to each run of a function
    /// (default 1000000000).
    #[arg(long = "verify-semantics-max-steps", value_name = "N",
          value_parser = clap::value_parser!(u64).range(1..))]
    pub verify_semantics_max_steps: Option<u64>,
    /// --verify-semantics: write the IR just before and just after the pass
    /// that changed the results to DIR (N-PASS.before.lfir, N-PASS.after.lfir).
    #[arg(long = "verify-semantics-dump", value_name = "DIR")]
    pub verify_semantics_dump: Option<PathBuf>,
    /// Passes given as flags (`--cse`, `--canonicalize=OPTIONS`), in order;
    /// filled by [`OptArgs::parse_with_passes`].
    #[arg(skip)]
    pub pass_flags: Vec<(String, Option<String>)>,
    /// The tool's name in its messages (`lf-opt: error: ...`), `--help` and
    /// `--timing` report: `lf-opt`, or the name an out-of-tree tool built on
    /// this driver gives itself ([`OptArgs::parse_tool_with_passes`]).
    #[arg(skip = "lf-opt")]
    pub tool: &'static str,
}

impl OptArgs {
    /// Parses the command line, taking `--NAME[=OPTIONS]` for each pass
    /// NAME of `registry` as a pass flag (lf-opt's own flags win). A
    /// command-line error is printed (an unknown flag with the nearest flag
    /// or pass) and ends the process with exit status 1 (see [`crate::cli`]).
    pub fn parse_with_passes(registry: &PassRegistry) -> OptArgs {
        Self::parse_from_with_passes(std::env::args_os(), registry)
    }

    /// [`OptArgs::parse_with_passes`] for a tool of its own built on
    /// lf-opt's driver (an out-of-tree `my-opt`): `--help`, command-line
    /// errors and the tool's messages name it `tool`, not lf-opt.
    pub fn parse_tool_with_passes(tool: &'static str, registry: &PassRegistry) -> OptArgs {
        Self::parse_tool_from_with_passes(tool, std::env::args_os(), registry)
    }

    /// [`OptArgs::parse_with_passes`] on a given argument list (the first
    /// item is the program name).
    pub fn parse_from_with_passes<I, T>(args: I, registry: &PassRegistry) -> OptArgs
    where
        I: IntoIterator<Item = T>,
        T: Into<std::ffi::OsString>,
    {
        Self::parse_tool_from_with_passes("lf-opt", args, registry)
    }

    /// [`OptArgs::parse_tool_with_passes`] on a given argument list (the
    /// first item is the program name).
    pub fn parse_tool_from_with_passes<I, T>(tool: &'static str, args: I, registry: &PassRegistry) -> OptArgs
    where
        I: IntoIterator<Item = T>,
        T: Into<std::ffi::OsString>,
    {
        use clap::CommandFactory;
        let mut cmd = OptArgs::command();
        if tool != "lf-opt" {
            cmd = cmd.name(tool).bin_name(tool).long_about(format!(
                "{tool} is built on lf-opt's driver: it reads IR in MLIR's textual syntax, verifies it, \
runs passes and prints it back, in the custom form by default or in MLIR's generic form. \
Errors are reported with the source line and a caret; the exit status is 1 and no output file \
is written when anything fails."
            ));
        }
        let own: Vec<String> = cmd
            .get_arguments()
            .flat_map(|a| {
                let mut v: Vec<String> = a.get_long().map(str::to_string).into_iter().collect();
                v.extend(a.get_all_aliases().into_iter().flatten().map(str::to_string));
                v
            })
            .collect();
        let mut rest = Vec::new();
        let mut flags = Vec::new();
        let mut after_dashdash = false;
        for a in args {
            let a: std::ffi::OsString = a.into();
            if let (false, Some(text)) = (after_dashdash, a.to_str()) {
                if text == "--" {
                    after_dashdash = true;
                } else if let Some(flag) = text.strip_prefix("--") {
                    let (name, value) = match flag.split_once('=') {
                        Some((n, v)) => (n, Some(v.to_string())),
                        None => (flag, None),
                    };
                    let known = registry.lookup(name).is_some() || registry.lookup_pipeline(name).is_some();
                    if known && !own.iter().any(|o| o == name) {
                        flags.push((name.to_string(), value));
                        continue;
                    }
                }
            }
            rest.push(a);
        }
        let passes = registry.all();
        let pipelines = registry.all_pipelines();
        let pass_names: Vec<&str> = passes
            .iter()
            .map(|p| p.name)
            .chain(pipelines.iter().map(|p| p.name))
            .collect();
        let mut args: OptArgs = crate::cli::parse_or_exit(cmd, rest, &pass_names);
        args.pass_flags = flags;
        args.tool = tool;
        args
    }
}

/// Entry point of `lf-opt`: returns the process exit code.
pub fn main() -> i32 {
    let registry = lf_transforms::all_passes();
    let args = OptArgs::parse_with_passes(&registry);
    let ctx = Context::new();
    lf_dialects::register_all(&ctx);
    main_with_registry(ctx, registry, args)
}

/// Runs lf-opt with a given context (which may have extra ops registered)
/// and lf's passes.
pub fn main_with(ctx: Context, args: OptArgs) -> i32 {
    main_with_registry(ctx, lf_transforms::all_passes(), args)
}

/// Runs lf-opt with a given context and pass registry: an out-of-tree
/// `my-opt` registers its ops in `ctx` and its passes in `registry` (on top of
/// [`lf_transforms::all_passes`]) and parses its command line with
/// [`OptArgs::parse_tool_with_passes`].
///
/// The context is not freed: this is the body of a tool's `main`, and the
/// process ends right after (freeing a million ops' worth of uniqued
/// attributes piece by piece takes longer than printing them).
pub fn main_with_registry(ctx: Context, registry: PassRegistry, args: OptArgs) -> i32 {
    // Deeply nested input recurses; give the work a large stack.
    let tool = args.tool;
    let handle = std::thread::Builder::new().stack_size(512 << 20).spawn(move || {
        let code = run(&ctx, &registry, &args);
        std::mem::forget(ctx);
        code
    });
    match handle.map(|h| h.join()) {
        Ok(Ok(code)) => code,
        _ => {
            eprintln!("{tool}: internal error (please report this with the input that caused it)");
            2
        }
    }
}

fn run(ctx: &Context, registry: &PassRegistry, args: &OptArgs) -> i32 {
    ctx.set_allow_unregistered_dialects(args.allow_unregistered_dialect);
    if args.list_passes {
        print!("{}", registry.list_text());
        return 0;
    }
    let threads = args
        .threads
        .map(|n| n as usize)
        .filter(|_| !args.disable_threading)
        .or(args.disable_threading.then_some(1))
        .unwrap_or_else(|| std::thread::available_parallelism().map_or(1, |n| n.get()))
        .min(MAX_THREADS);
    // Verification and printing use rayon's global pool. Deep nesting recurses,
    // so its threads get large stacks (address space; used as touched). It can
    // only be set up once per process: a second call keeps the first pool.
    // With one worker per allowed CPU, each keeps to its own (see
    // `affinity`): the kernel may otherwise stack them on one.
    let cpus = crate::affinity::allowed_cpus();
    let _ = rayon::ThreadPoolBuilder::new()
        .num_threads(threads)
        .stack_size(256 << 20)
        .start_handler(move |i| {
            if let Some(cpu) = crate::affinity::worker_cpu(&cpus, threads, i) {
                crate::affinity::pin_current_thread(cpu);
            }
        })
        .build_global();
    let mut pipeline = match build_pipeline(ctx, registry, args, threads) {
        Ok(p) => p,
        Err(()) => return 1,
    };
    if args.dump_pass_pipeline {
        // As mlir-opt prints it (and pasted into mlir-opt's
        // --pass-pipeline when it has only MLIR's passes).
        match &pipeline {
            Some(pm) => eprint!("{}", pm.pipeline.dump_text()),
            None => eprint!("{}", lf_pass::OpPassManager::new("builtin.module").dump_text()),
        }
    }
    let semantics = match semantics_options(args) {
        Ok(s) => s,
        Err(msg) => {
            eprintln!("{}: error: {msg}", args.tool);
            return 1;
        }
    };
    let mut timing = Timing::new(args.timing);
    let (name, input) = match read_input(&args.input) {
        Ok(x) => x,
        Err(e) => {
            eprintln!("{}: error: could not open input file '{}': {e}", args.tool, args.input);
            return 1;
        }
    };
    let text: &str = match input.validate_utf8() {
        Ok(t) => t,
        Err(valid) => {
            let raw = input.bytes();
            let lossy = String::from_utf8_lossy(raw).into_owned();
            let before = &raw[..valid];
            let line = before.iter().filter(|&&b| b == b'\n').count() as u32 + 1;
            let col = (valid - before.iter().rposition(|&b| b == b'\n').map_or(0, |i| i + 1)) as u32 + 1;
            let mut sm = SourceMgr::new();
            sm.add(name.as_str(), lossy);
            let d = Diagnostic::error(SourcePos::new(name.as_str(), line, col), "input is not valid UTF-8");
            let _ = lf_diag::emit_to_stderr(&[d], &sm);
            return 1;
        }
    };
    timing.lap("read");
    // The source manager (a copy of the text) is only needed for
    // diagnostics; the pipeline's text is there for those that point into it.
    let source_mgr = || {
        let mut sm = SourceMgr::new();
        sm.add(name.as_str(), text);
        if let Some(p) = &args.pass_pipeline {
            sm.add(lf_pass::pipeline::PIPELINE_FILE, p.as_str());
        }
        sm
    };
    let chunks: Vec<(&str, u32)> = if args.split_input_file {
        let split = lf_diag::split_input_file_checked(text, lf_diag::DEFAULT_SPLIT_MARKER);
        let warnings = split.near_miss_warnings(&name, text);
        if !warnings.is_empty() && !args.verify_diagnostics {
            let _ = lf_diag::emit_to_stderr(&warnings, &source_mgr());
        }
        split.chunks.iter().map(|c| (c.text, c.line)).collect()
    } else {
        vec![(text, 1)]
    };
    // Output goes straight to its destination (a temporary file renamed into
    // place at the end), except on standard output with several chunks, where
    // it is held until every chunk succeeded.
    let mut sink = crate::output::Sink::new(&args.output, chunks.len() > 1);
    let opts = PrintOptions {
        generic: args.print_op_generic,
        debuginfo: args.print_debuginfo,
        local_scope: args.print_local_scope,
        spill_dir: Some(sink.spill_dir()),
    };
    let separator = format!("{}\n", lf_diag::DEFAULT_OUTPUT_SPLIT_MARKER);
    let mut diags: Vec<Diagnostic> = Vec::new();
    let mut failed = false;
    for (chunk_no, (chunk, first_line)) in chunks.iter().enumerate() {
        let semantics_chunk = (chunks.len() > 1).then_some(chunk_no + 1);
        let popts = ParseOptions {
            first_line: *first_line,
            on_progress: input.release_hook(text, chunk),
            threads,
        };
        let parsed = parse_and_verify(ctx, chunk, &name, &popts, !args.no_verify, &mut timing).and_then(|mut owned| {
            if let Some(pm) = pipeline.as_mut() {
                if let Some(text) = &args.pass_pipeline {
                    check_pipeline_root(ctx, registry, pm, &owned, text)?;
                }
                let semantics = semantics.as_ref().map(|s| (s, semantics_chunk));
                run_passes(ctx, pm, &mut owned, &mut timing, &mut diags, semantics)?;
            } else if let Some(s) = &semantics {
                // No pass to check: the program must still run as the mode says.
                crate::verify_semantics::SemanticsChecker::start(ctx, &owned, s, semantics_chunk)?;
                timing.lap("verify-semantics");
            }
            if args.verify_roundtrip {
                verify_roundtrip(ctx, &owned, &name, &opts)?;
                timing.lap("roundtrip");
            }
            Ok(owned)
        });
        match parsed {
            Ok(owned) => {
                let written = sink.begin_part(separator.as_bytes()).and_then(|mut w| {
                    lf_ir::print_op(ctx, &owned.body, owned.op, &opts, &mut w)?;
                    w.flush()
                });
                timing.lap("print");
                if let Err(e) = written {
                    eprintln!(
                        "{}: error: could not write output file '{}': {e}",
                        args.tool, args.output
                    );
                    return 1;
                }
                if chunks.len() == 1 {
                    // The process ends right after: no need to free the IR piece by piece.
                    std::mem::forget(owned);
                }
            }
            Err(d) => {
                failed = true;
                diags.push(*d);
            }
        }
    }
    if args.verify_diagnostics {
        let sm = source_mgr();
        let mut v = Verifier::new(VerifyMode::All);
        v.add_all(&sm);
        v.check_all(diags.iter());
        let problems = v.finish();
        if !problems.is_empty() {
            let _ = lf_diag::emit_to_stderr(&problems, &sm);
            return 1;
        }
        failed = false;
    } else if !diags.is_empty() {
        let _ = lf_diag::emit_to_stderr(&diags, &source_mgr());
    }
    if failed {
        return 1;
    }
    let code = match sink.finish() {
        Ok(()) => 0,
        Err(e) => {
            eprintln!(
                "{}: error: could not write output file '{}': {e}",
                args.tool, args.output
            );
            1
        }
    };
    timing.lap("write");
    timing.report(args.tool);
    code
}

/// Parses and verifies one buffer.
fn parse_and_verify(
    ctx: &Context,
    text: &str,
    name: &str,
    popts: &ParseOptions,
    verify: bool,
    timing: &mut Timing,
) -> Result<lf_ir::OwnedOp, Box<Diagnostic>> {
    let owned = lf_ir::parse_source_with(ctx, text, name, popts)?;
    timing.lap("parse");
    if verify {
        lf_ir::verify(ctx, &owned.body, owned.op)?;
        timing.lap("verify");
    }
    Ok(owned)
}

/// Builds the pass manager from `--pass-pipeline` or the pass flags (`None`
/// when no pass is asked for); errors are printed here.
fn build_pipeline(
    ctx: &Context,
    registry: &PassRegistry,
    args: &OptArgs,
    threads: usize,
) -> Result<Option<PassManager>, ()> {
    let options = RunOptions {
        threads,
        verify_each: args.verify_each && !args.no_verify,
        print_before: args.print_ir_before.clone(),
        print_after: args.print_ir_after.clone(),
        print_before_all: args.print_ir_before_all,
        print_after_all: args.print_ir_after_all,
        print_module_scope: args.print_ir_module_scope,
        print_after_change: args.print_ir_after_change,
        print_tree_dir: args.print_ir_tree_dir.clone(),
        print_options: PrintOptions {
            generic: args.print_op_generic,
            debuginfo: args.print_debuginfo,
            local_scope: args.print_local_scope,
            ..PrintOptions::default()
        },
        timing: args.timing,
        statistics: args.pass_statistics,
        // The IR is printed and dropped after the run.
        compact_after_last_pass: false,
    };
    for name in args.print_ir_before.iter().chain(&args.print_ir_after) {
        if registry.lookup(name).is_none() {
            let hint = registry
                .suggest(name)
                .map(|s| format!("; did you mean '{s}'?"))
                .unwrap_or_default();
            eprintln!(
                "{}: error: --print-ir-before/--print-ir-after: unknown pass '{name}'{hint}",
                args.tool
            );
            return Err(());
        }
    }
    let report = |d: Box<Diagnostic>, file: &str, text: &str| {
        let mut sm = SourceMgr::new();
        sm.add(file, text);
        let _ = lf_diag::emit_to_stderr(&[*d], &sm);
    };
    let pipeline = match (&args.pass_pipeline, args.pass_flags.is_empty()) {
        (Some(_), false) => {
            eprintln!("{}: error: --pass-pipeline cannot be combined with pass flags such as --{}; put every pass in the pipeline", args.tool, args.pass_flags[0].0);
            return Err(());
        }
        (Some(text), true) => match lf_pass::parse_pipeline(text, ctx, registry) {
            Ok(pm) => pm,
            Err(d) => {
                report(d, lf_pass::pipeline::PIPELINE_FILE, text);
                return Err(());
            }
        },
        (None, true) => return Ok(None),
        (None, false) => {
            let mut passes = Vec::new();
            for (name, value) in &args.pass_flags {
                let Some(info) = registry.lookup(name) else {
                    // A named pipeline: its passes, as flags.
                    let pipeline = registry
                        .lookup_pipeline(name)
                        .expect("flags are registered passes or pipelines");
                    if value.is_some() {
                        eprintln!("{}: error: --{name}: pipeline '{name}' takes no options", args.tool);
                        return Err(());
                    }
                    match lf_pass::pipeline::pipeline_flag_passes(ctx, registry, pipeline) {
                        Ok(list) => passes.extend(list),
                        Err(e) => {
                            eprintln!("{}: error: --{name}: {e}", args.tool);
                            return Err(());
                        }
                    }
                    continue;
                };
                let parsed = match value {
                    Some(v) => lf_pass::pipeline::parse_options_text(info, v),
                    None => Ok(info.default_options()),
                };
                match parsed {
                    Ok(o) => passes.push(o),
                    Err(d) => {
                        report(d, &format!("--{name}"), value.as_deref().unwrap_or(""));
                        return Err(());
                    }
                }
            }
            match lf_pass::pipeline::pipeline_from_flags(ctx, "builtin.module", passes) {
                Ok(pm) => pm,
                Err(e) => {
                    eprintln!("{}: error: {e}", args.tool);
                    return Err(());
                }
            }
        }
    };
    Ok(Some(PassManager::new(pipeline, options)))
}

/// Checks that the top-level op of `--pass-pipeline=text` is the parsed
/// op's, with an error pointing into the pipeline text (the input's
/// top-level op, usually the implicit module, has no position of its own to
/// show) that suggests the pipeline nested in the right op when that is
/// valid, and a note at the op when it was written in the input.
fn check_pipeline_root(
    ctx: &Context,
    registry: &PassRegistry,
    pm: &PassManager,
    owned: &lf_ir::OwnedOp,
    text: &str,
) -> Result<(), Box<Diagnostic>> {
    let root = ctx.op_name_str(owned.body.op_name(owned.op));
    let nesting = &pm.pipeline.nesting;
    if nesting.matches(root) {
        return Ok(());
    }
    let top = nesting.as_str();
    let nested = format!("{root}({})", text.trim());
    let fix = if lf_pass::parse_pipeline(&nested, ctx, registry).is_ok() {
        format!("write '{nested}'")
    } else {
        format!("start the pipeline with '{root}(...)'")
    };
    let start = text.len() - text.trim_start().len();
    let mut d = Diagnostic::error(
        SourcePos::new(lf_pass::pipeline::PIPELINE_FILE, 1, start as u32 + 1),
        format!("the pass pipeline runs on '{top}' ops, but the top-level op is '{root}': {fix}"),
    )
    .with_width(top.len() as u32);
    if let Some(pos) = owned.body.op_loc(owned.op).source_pos(ctx).filter(|p| p.line > 0) {
        d = d.with_note(Some(pos), format!("the top-level '{root}' op"));
    }
    Err(Box::new(d))
}

/// Runs the passes on one parsed buffer; warnings go to `diags`. With
/// `semantics` (`--verify-semantics`, and the part of a split file), the
/// program runs before the passes and after each one.
fn run_passes(
    ctx: &Context,
    pm: &mut PassManager,
    owned: &mut lf_ir::OwnedOp,
    timing: &mut Timing,
    diags: &mut Vec<Diagnostic>,
    semantics: Option<(&SemanticsOptions, Option<usize>)>,
) -> Result<(), Box<Diagnostic>> {
    let mut checker = match semantics {
        Some((s, chunk)) => {
            let checker = SemanticsChecker::start(ctx, owned, s, chunk)?;
            timing.lap("verify-semantics");
            Some(checker)
        }
        None => None,
    };
    // Not locked for the whole run: a pass running on a worker thread may
    // print to stderr itself (a pass author's debug output), and would wait
    // forever for a lock this thread holds while it waits for the pass.
    let observer = checker.as_mut().map(|c| c as &mut dyn lf_pass::PassObserver);
    let report = pm.run_observed(ctx, owned, &mut std::io::stderr(), observer);
    timing.lap("passes");
    if timing.enabled {
        // Split input files run the same pipeline on each part: add up.
        let lines = report.timing.lines();
        if timing.pass_lines.len() == lines.len() {
            for (l, (_, _, d)) in timing.pass_lines.iter_mut().zip(lines) {
                l.2 += d;
            }
        } else {
            timing.pass_lines = lines
                .into_iter()
                .map(|(depth, n, d)| (depth, n.to_string(), d))
                .collect();
        }
    }
    if pm.options.statistics {
        eprint!("{}", report.statistics.report());
    }
    let mut rest = report.diags;
    if report.failed {
        let err = rest.pop();
        diags.extend(rest);
        return Err(Box::new(
            err.unwrap_or_else(|| Diagnostic::error(None, "pass pipeline failed")),
        ));
    }
    diags.extend(rest);
    Ok(())
}

/// The options of `--verify-semantics` (`None` without it); an error for a
/// bad mode or tolerance, or a `--verify-semantics-*` option without it.
fn semantics_options(args: &OptArgs) -> Result<Option<SemanticsOptions>, String> {
    let Some(mode) = &args.verify_semantics else {
        let given = [
            ("rtol", args.verify_semantics_rtol.is_some()),
            ("atol", args.verify_semantics_atol.is_some()),
            ("max-steps", args.verify_semantics_max_steps.is_some()),
            ("dump", args.verify_semantics_dump.is_some()),
        ];
        if let Some((name, _)) = given.iter().find(|(_, g)| *g) {
            return Err(format!(
                "--verify-semantics-{name} is an option of --verify-semantics, which is not given"
            ));
        }
        return Ok(None);
    };
    let mode = Mode::parse(mode)?;
    let tol = |name: &str, v: Option<f64>| match v {
        Some(x) if !(x.is_finite() && x >= 0.0) => Err(format!(
            "--verify-semantics-{name}={x}: a tolerance is a finite number, 0 or more"
        )),
        v => Ok(v.unwrap_or(0.0)),
    };
    Ok(Some(SemanticsOptions {
        mode,
        tolerance: lf_interp::observe::Tolerance {
            rtol: tol("rtol", args.verify_semantics_rtol)?,
            atol: tol("atol", args.verify_semantics_atol)?,
        },
        max_steps: args
            .verify_semantics_max_steps
            .unwrap_or(crate::verify_semantics::DEFAULT_MAX_STEPS),
        dump: args.verify_semantics_dump.clone(),
        print: PrintOptions {
            generic: args.print_op_generic,
            debuginfo: args.print_debuginfo,
            ..PrintOptions::default()
        },
        verify: args.no_verify || !args.verify_each,
    }))
}

/// `--verify-roundtrip`: the output, printed in custom and generic form,
/// must parse back and print the same.
fn verify_roundtrip(
    ctx: &Context,
    owned: &lf_ir::OwnedOp,
    name: &str,
    opts: &PrintOptions,
) -> Result<(), Box<Diagnostic>> {
    for generic in [false, true] {
        let popts = PrintOptions {
            generic,
            debuginfo: opts.debuginfo,
            ..PrintOptions::default()
        };
        let form = if generic { "generic" } else { "custom" };
        let first = lf_ir::op_to_string(ctx, &owned.body, owned.op, &popts);
        let again = lf_ir::parse_source(ctx, &first, name).map_err(|d| {
            Box::new(Diagnostic::error(
                None,
                format!(
                    "--verify-roundtrip: the output in {form} form does not parse back: {}",
                    d.message
                ),
            ))
        })?;
        let second = lf_ir::op_to_string(ctx, &again.body, again.op, &popts);
        if first != second {
            let line = first
                .lines()
                .zip(second.lines())
                .position(|(a, b)| a != b)
                .map_or(first.lines().count().min(second.lines().count()) + 1, |i| i + 1);
            return Err(Box::new(Diagnostic::error(
                None,
                format!(
                    "--verify-roundtrip: the output in {form} form prints differently after parsing it back (first difference at line {line} of the {form} output)"
                ),
            )));
        }
    }
    Ok(())
}

/// The input text: a read-only mapping of the file, or the bytes read from a
/// pipe or standard input.
enum Input {
    Mapped(Arc<Mmap>),
    Owned(Vec<u8>),
}

/// How much of the input is validated (or parsed) before the pages behind
/// are handed back to the OS.
const RELEASE_STEP: usize = 4 << 20;

impl Input {
    fn bytes(&self) -> &[u8] {
        match self {
            Input::Mapped(m) => m,
            Input::Owned(v) => v,
        }
    }

    /// Checks that the input is UTF-8, a few MiB at a time, letting the OS
    /// drop the pages already checked; on failure returns the offset of the
    /// first invalid byte.
    fn validate_utf8(&self) -> Result<&str, usize> {
        let b = self.bytes();
        let mut pos = 0;
        while pos < b.len() {
            let mut end = (pos + RELEASE_STEP).min(b.len());
            // End the chunk at the start of a character.
            while end < b.len() && end > pos && (b[end] & 0xC0) == 0x80 {
                end -= 1;
            }
            if let Err(e) = std::str::from_utf8(&b[pos..end]) {
                return Err(pos + e.valid_up_to());
            }
            if let Input::Mapped(m) = self {
                release_pages(m, pos, end);
            }
            pos = end;
        }
        // SAFETY: the whole buffer was checked above, chunk by chunk, and the
        // chunks split it at character boundaries.
        Ok(unsafe { std::str::from_utf8_unchecked(b) })
    }

    /// A parse-progress hook that lets the OS drop the pages of `chunk` (a
    /// part of `text`, this input) that the parser has gone past. Dropped
    /// pages of a file mapping are read again from the file if touched later
    /// (a diagnostic's snippet, a name kept in a table), so this only lowers
    /// the resident memory.
    fn release_hook(&self, text: &str, chunk: &str) -> Option<lf_ir::ProgressHook> {
        let Input::Mapped(m) = self else { return None };
        // Chunks are slices of the text.
        let base = (chunk.as_ptr() as usize).saturating_sub(text.as_ptr() as usize);
        let m = Arc::clone(m);
        Some(lf_ir::ProgressHook::new(move |from, to| {
            release_pages(&m, base + from, base + to)
        }))
    }
}

/// Gives the pages lying wholly inside `[from, to)` of the mapping back to the OS.
fn release_pages(m: &Mmap, from: usize, to: usize) {
    const PAGE: usize = 4096;
    let start = from.div_ceil(PAGE) * PAGE;
    let end = (to / PAGE) * PAGE;
    if end > start && end <= m.len() {
        // SAFETY: the mapping is a read-only shared mapping of a file; after
        // MADV_DONTNEED its pages are filled again from the file on the next
        // access, so every borrowed byte keeps its value.
        let _ = unsafe { m.unchecked_advise_range(UncheckedAdvice::DontNeed, start, end - start) };
    }
}

fn read_input(input: &str) -> std::io::Result<(String, Input)> {
    if input == "-" {
        let mut v = Vec::new();
        std::io::stdin().read_to_end(&mut v)?;
        return Ok(("<stdin>".to_string(), Input::Owned(v)));
    }
    let mut file = std::fs::File::open(input)?;
    let meta = file.metadata()?;
    if meta.is_file() && meta.len() > 0 {
        // SAFETY: the mapping is read-only; lf-opt's input must not be
        // modified while it runs (as for mlir-opt, which maps its input too).
        if let Ok(m) = unsafe { Mmap::map(&file) } {
            return Ok((input.to_string(), Input::Mapped(Arc::new(m))));
        }
    }
    let mut v = Vec::new();
    file.read_to_end(&mut v)?;
    Ok((input.to_string(), Input::Owned(v)))
}
