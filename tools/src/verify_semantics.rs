//! `lf-opt --verify-semantics[=MODE]`: translation validation by execution.
//!
//! The module runs in lf-run's interpreter before the pipeline and again
//! after each pass that changed it (once the pass has run over the whole
//! module: see [`lf_pass::observe`]); the first pass after which the
//! results differ, or after which the program faults where it did not
//! before (a data race, an out-of-bounds access, ...), stops lf-opt with an
//! error naming the pass, its position in the pipeline, the function and
//! the first differing value. `--verify-semantics-dump=DIR` writes the IR
//! just before and just after that pass.
//!
//! What is compared depends on the mode:
//!
//! - `main` (the default when the module has a `@main` without arguments):
//!   everything `@main` prints (and what it returns);
//! - `random:SEED`: every public function with arguments, each called on
//!   inputs made from SEED as `lf-run --random-inputs=SEED` makes them: its
//!   memref arguments after the call, its results and what it prints;
//! - `entry:NAME`: the function NAME, called with no arguments when it
//!   takes none, else on the inputs of seed 1.

use lf_diag::{Diagnostic, SourcePos};
use lf_interp::exec::ExecOptions;
use lf_interp::observe::{first_difference, Entry, EntryRun, Module, RunError, Tolerance};
use lf_ir::{Context, OwnedOp, PrintOptions};
use lf_pass::{ObservedPass, PassObserver};
use std::path::{Path, PathBuf};

/// The default of `--verify-semantics-max-steps`: instructions per run of
/// an entry function (about 10 s of interpretation).
pub const DEFAULT_MAX_STEPS: u64 = 1_000_000_000;

/// Which functions run, and how (`--verify-semantics=MODE`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Mode {
    /// `--verify-semantics` alone: `main` if the module has a `@main`
    /// without arguments, else an error suggesting the other modes.
    Default,
    /// `main`: what `@main` prints.
    Main,
    /// `random:SEED`: every public function with arguments, on random inputs.
    Random(u64),
    /// `entry:NAME`: one function.
    Entry(String),
}

impl Mode {
    /// Parses the text after `--verify-semantics=` (empty: [`Mode::Default`]).
    pub fn parse(text: &str) -> Result<Mode, String> {
        let expected = "expected 'main', 'random:SEED' or 'entry:NAME'";
        if text.is_empty() {
            return Ok(Mode::Default);
        }
        if text == "main" {
            return Ok(Mode::Main);
        }
        if let Some(seed) = text.strip_prefix("random:") {
            return seed.parse().map(Mode::Random).map_err(|_| {
                format!("--verify-semantics={text}: the seed must be an unsigned integer, as in 'random:1'")
            });
        }
        if let Some(name) = text.strip_prefix("entry:") {
            let name = name.strip_prefix('@').unwrap_or(name);
            if name.is_empty() {
                return Err(format!(
                    "--verify-semantics={text}: expected a function name after 'entry:'"
                ));
            }
            return Ok(Mode::Entry(name.to_string()));
        }
        Err(format!("--verify-semantics={text}: unknown mode; {expected}"))
    }
}

/// The options of `--verify-semantics`.
#[derive(Clone, Debug)]
pub struct SemanticsOptions {
    /// Which functions run.
    pub mode: Mode,
    /// Float tolerance of the comparison (`--verify-semantics-rtol/atol`).
    pub tolerance: Tolerance,
    /// Instructions allowed to each run of a function.
    pub max_steps: u64,
    /// Where to write the IR before and after the pass that changed the results.
    pub dump: Option<PathBuf>,
    /// How the dumps print the IR (lf-opt's output options).
    pub print: PrintOptions,
    /// Whether the checker must verify the IR itself before running it (the
    /// pass manager's `--verify-each` is off, or the input was not verified).
    pub verify: bool,
}

/// Checks a module pass by pass: runs it before the pipeline
/// ([`SemanticsChecker::start`]), then after each pass that changed it (as
/// a [`PassObserver`]).
pub struct SemanticsChecker {
    opts: SemanticsOptions,
    /// Where the messages point: the module.
    module_pos: Option<SourcePos>,
    /// The runs before the pipeline, one per entry.
    baseline: Vec<EntryRun>,
    /// The IR as the last checked pass left it (kept only for dumps).
    last_ir: Option<String>,
    /// The part of a split input file (`--split-input-file`), for dump names.
    chunk: Option<usize>,
}

impl SemanticsChecker {
    /// Chooses the functions to run and runs them on the module as it is
    /// (before any pass). An error when the mode does not fit the module, or
    /// when the program cannot run (it faults, or calls what the interpreter
    /// lacks). `chunk` numbers the part of a split input file.
    pub fn start(
        ctx: &Context,
        root: &OwnedOp,
        opts: &SemanticsOptions,
        chunk: Option<usize>,
    ) -> Result<SemanticsChecker, Box<Diagnostic>> {
        let module_pos = root.body.op_loc(root.op).source_pos(ctx);
        if opts.verify {
            lf_ir::verify(ctx, &root.body, root.op)?;
        }
        let module = Module::decode(ctx, &root.body, root.op);
        let entries = choose_entries(&module, &opts.mode).map_err(|(msg, at)| {
            let pos = at
                .and_then(|f| module.function(&f))
                .and_then(|f| module.position(f.loc));
            Box::new(Diagnostic::error(pos.or(module_pos.clone()), msg))
        })?;
        let exec = exec_options(opts);
        let mut baseline = Vec::new();
        for entry in &entries {
            let pos = module.function(&entry.name).and_then(|f| module.position(f.loc));
            let what = describe(entry);
            match module.run(entry, &exec) {
                Ok(run) => baseline.push(run),
                Err(RunError::Setup(msg)) => {
                    return Err(Box::new(Diagnostic::error(pos, format!("--verify-semantics: {msg}"))))
                }
                Err(RunError::Fault { diag, step_limit }) => {
                    let msg = if step_limit {
                        format!(
                            "{what} does not finish within {} instructions before any pass, so the passes cannot \
                             be checked; --verify-semantics-max-steps=N raises the limit",
                            opts.max_steps
                        )
                    } else {
                        format!(
                            "{what} cannot be run before any pass, so the passes cannot be checked: {}",
                            diag.message
                        )
                    };
                    let mut d = Diagnostic::error(pos, format!("--verify-semantics: {msg}"));
                    push_fault_notes(&mut d, diag);
                    return Err(Box::new(d));
                }
            }
        }
        let last_ir = opts
            .dump
            .is_some()
            .then(|| lf_ir::op_to_string(ctx, &root.body, root.op, &opts.print));
        Ok(SemanticsChecker {
            opts: opts.clone(),
            module_pos,
            baseline,
            last_ir,
            chunk,
        })
    }

    /// Runs the module as `pass` left it and compares with the baseline.
    fn check(&mut self, ctx: &Context, root: &OwnedOp, pass: &ObservedPass<'_>) -> Result<(), Box<Diagnostic>> {
        let label = format!(
            "pass {} of {} in the pipeline, '{}',",
            pass.position,
            pass.num_passes,
            pass.name()
        );
        if self.opts.verify {
            if let Err(d) = lf_ir::verify(ctx, &root.body, root.op) {
                let mut d = *d;
                d.message = format!(
                    "--verify-semantics: {label} left IR that does not verify, so it cannot be run: {}",
                    d.message
                );
                return Err(Box::new(d));
            }
        }
        let module = Module::decode(ctx, &root.body, root.op);
        let exec = exec_options(&self.opts);
        let mut failure = None;
        for before in &self.baseline {
            let entry = &before.entry;
            let what = describe(entry);
            let pos = module
                .function(&entry.name)
                .and_then(|f| module.position(f.loc))
                .or(self.module_pos.clone());
            let d = match module.run(entry, &exec) {
                Ok(after) => match first_difference(before, &after, self.opts.tolerance) {
                    None => continue,
                    Some(diff) => Diagnostic::error(
                        pos,
                        format!(
                            "--verify-semantics: {label} changed the results of {what}: {}: {} before the pass, {} after it",
                            diff.what, diff.before, diff.after
                        ),
                    ),
                },
                Err(RunError::Setup(msg)) => Diagnostic::error(
                    pos,
                    format!("--verify-semantics: after {label} {what} cannot be run as before: {msg}"),
                ),
                Err(RunError::Fault { step_limit: true, .. }) => Diagnostic::error(
                    pos,
                    format!(
                        "--verify-semantics: after {label} {what} does not finish within {} instructions \
                         (before the pass it took {}; --verify-semantics-max-steps=N raises the limit)",
                        self.opts.max_steps, before.steps
                    ),
                ),
                Err(RunError::Fault { diag, .. }) => {
                    let mut d = Diagnostic::error(
                        pos,
                        format!(
                            "--verify-semantics: {label} introduced a fault in {what}, which ran without one \
                             before the pass: {}",
                            diag.message
                        ),
                    );
                    push_fault_notes(&mut d, diag);
                    d
                }
            };
            failure = Some(d);
            break;
        }
        let Some(mut d) = failure else {
            if self.last_ir.is_some() {
                self.last_ir = Some(lf_ir::op_to_string(ctx, &root.body, root.op, &self.opts.print));
            }
            return Ok(());
        };
        d.add_note(None, format!("the pass alone: --pass-pipeline='{}'", pass.alone()));
        match &self.opts.dump {
            Some(dir) => {
                let after = lf_ir::op_to_string(ctx, &root.body, root.op, &self.opts.print);
                let before = self.last_ir.take().unwrap_or_default();
                match self.write_dumps(dir, pass, &before, &after) {
                    Ok((b, a)) => d.add_note(
                        None,
                        format!(
                            "the IR just before and just after the pass: {} and {}",
                            b.display(),
                            a.display()
                        ),
                    ),
                    Err(e) => d.add_note(
                        None,
                        format!(
                            "could not write the IR before and after the pass to '{}': {e}",
                            dir.display()
                        ),
                    ),
                };
            }
            None => {
                d.add_note(
                    None,
                    "--verify-semantics-dump=DIR writes the IR just before and just after the pass",
                );
            }
        }
        Err(Box::new(d))
    }

    /// Writes `DIR/[chunkK-]N-PASS.before.lfir` and `.after.lfir`.
    fn write_dumps(
        &self,
        dir: &Path,
        pass: &ObservedPass<'_>,
        before: &str,
        after: &str,
    ) -> std::io::Result<(PathBuf, PathBuf)> {
        std::fs::create_dir_all(dir)?;
        let chunk = self.chunk.map(|k| format!("chunk{k}-")).unwrap_or_default();
        let stem = format!("{chunk}{}-{}", pass.position, pass.name());
        let (b, a) = (
            dir.join(format!("{stem}.before.lfir")),
            dir.join(format!("{stem}.after.lfir")),
        );
        std::fs::write(&b, before)?;
        std::fs::write(&a, after)?;
        Ok((b, a))
    }
}

impl PassObserver for SemanticsChecker {
    fn after_pass(&mut self, ctx: &Context, root: &OwnedOp, pass: &ObservedPass<'_>) -> Result<(), Box<Diagnostic>> {
        if !pass.changed {
            // The pass left every op as it was: the results cannot have changed.
            return Ok(());
        }
        self.check(ctx, root, pass)
    }

    fn timing_name(&self) -> &str {
        "verify-semantics"
    }
}

/// The interpreter's limits for one run.
fn exec_options(opts: &SemanticsOptions) -> ExecOptions {
    ExecOptions {
        max_steps: opts.max_steps,
        ..ExecOptions::default()
    }
}

/// `@main`, or `@f (on random inputs, seed 3)`.
fn describe(entry: &Entry) -> String {
    match entry.seed {
        Some(seed) => format!("@{} (on random inputs, seed {seed})", entry.name),
        None => format!("@{}", entry.name),
    }
}

/// The fault, and its notes, as notes of `d`.
fn push_fault_notes(d: &mut Diagnostic, fault: Diagnostic) {
    let notes = fault.notes;
    d.notes
        .push(Diagnostic::note(fault.pos, fault.message).with_width(fault.width));
    d.notes.extend(notes);
}

/// The functions a mode runs, and how; an error names the function it is
/// about, if any.
fn choose_entries(module: &Module<'_>, mode: &Mode) -> Result<Vec<Entry>, (String, Option<String>)> {
    let main = module.function("main").filter(|f| f.has_body);
    match mode {
        Mode::Default | Mode::Main => {
            let flag = if *mode == Mode::Main {
                "--verify-semantics=main"
            } else {
                "--verify-semantics"
            };
            let hint = "; --verify-semantics=random:SEED runs every public function on random inputs, \
                        --verify-semantics=entry:NAME runs function NAME";
            match main {
                Some(f) if f.num_args == 0 => Ok(vec![Entry {
                    name: "main".into(),
                    seed: None,
                }]),
                Some(f) => Err((
                    format!(
                        "{flag} runs @main, which takes {} argument(s), so it cannot be run as a program{hint}",
                        f.num_args
                    ),
                    Some("main".into()),
                )),
                None => Err((
                    format!("{flag} runs @main, and the module has no @main with a body{hint}"),
                    None,
                )),
            }
        }
        Mode::Entry(name) => {
            let flag = format!("--verify-semantics=entry:{name}");
            let Some(f) = module.function(name) else {
                return Err((format!("{flag}: the module has no function @{name}"), None));
            };
            if !f.has_body {
                let msg = format!("{flag}: @{name} is a declaration without a body");
                return Err((msg, Some(name.clone())));
            }
            if let (true, Err(e)) = (f.num_args > 0, &f.random_inputs) {
                let msg = format!("{flag}: @{name} cannot be run on random inputs: {e}");
                return Err((msg, Some(name.clone())));
            }
            Ok(vec![Entry {
                name: name.clone(),
                seed: (f.num_args > 0).then_some(1),
            }])
        }
        Mode::Random(seed) => {
            let mut entries = Vec::new();
            let mut skipped = Vec::new();
            for f in module.functions() {
                if !f.public || !f.has_body || f.num_args == 0 {
                    continue;
                }
                match &f.random_inputs {
                    Ok(()) => entries.push(Entry {
                        name: f.name.clone(),
                        seed: Some(*seed),
                    }),
                    Err(e) => skipped.push(format!("@{} ({e})", f.name)),
                }
            }
            if entries.is_empty() {
                let why = if skipped.is_empty() {
                    String::new()
                } else {
                    format!("; not runnable on random inputs: {}", skipped.join(", "))
                };
                let msg = format!(
                    "--verify-semantics=random:{seed} runs every public function that takes arguments on random \
                     inputs, and the module has none that can be run so{why}"
                );
                return Err((msg, None));
            }
            Ok(entries)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::Mode;

    #[test]
    fn modes() {
        assert_eq!(Mode::parse(""), Ok(Mode::Default));
        assert_eq!(Mode::parse("main"), Ok(Mode::Main));
        assert_eq!(Mode::parse("random:42"), Ok(Mode::Random(42)));
        assert_eq!(Mode::parse("entry:@k"), Ok(Mode::Entry("k".into())));
        assert_eq!(Mode::parse("entry:k"), Ok(Mode::Entry("k".into())));
        assert!(Mode::parse("random:x").unwrap_err().contains("unsigned integer"));
        assert!(Mode::parse("entry:").is_err());
        assert!(Mode::parse("mian").unwrap_err().contains("unknown mode"));
    }
}
