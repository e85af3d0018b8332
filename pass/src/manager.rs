//! Running a pipeline: [`PassManager`].
//!
//! The pipeline is a tree of [`OpPassManager`]s. It runs pass by pass, in
//! pipeline order: for each pass, the ops it applies to are found by
//! following the nesting from the top-level op (`builtin.module` →
//! `func.func`: every function directly in the module), and the pass runs on
//! all of them, in parallel with rayon when there are several and more than
//! one thread. Sibling ops are independent (each pass gets the nested body of
//! its own op), so running `func.func(a,b)` as "a on every function, then b
//! on every function" gives the same IR as running both on one function
//! after the other, and the result does not depend on the thread count.
//! Errors and dumps come out in program order.
//!
//! After each pass the instrumentation runs (see [`RunOptions`]): the
//! verifier on each op the pass ran on, IR dumps, timing and statistics;
//! then the observer, if any ([`PassManager::run_observed`]), which sees the
//! whole module as the passes so far left it.

use crate::analysis::AnalysisManager;
use crate::instrument::{IrDumper, Statistics, TimingTree};
use crate::observe::{ObservedPass, PassObserver};
use crate::pass::{OpRecord, PassTarget, TargetOutcome};
use crate::pipeline::{Nesting, OpPassManager, PassEntry, PipelineItem};
use lf_diag::Diagnostic;
use lf_ir::{Body, Context, OpId, OwnedOp, PrintOptions};
use rayon::prelude::*;
use rustc_hash::FxHashMap;
use std::io::Write;
use std::path::PathBuf;
use std::time::Instant;

/// What to do around the passes.
#[derive(Clone, Debug)]
pub struct RunOptions {
    /// Threads for running a pass on sibling ops; 1 runs them one by one.
    pub threads: usize,
    /// Verify each op a pass ran on after the pass (`--verify-each`).
    pub verify_each: bool,
    /// Print the op before each run of these passes (`--print-ir-before`).
    pub print_before: Vec<String>,
    /// Print before every pass (`--print-ir-before-all`).
    pub print_before_all: bool,
    /// Print the op after each run of these passes (`--print-ir-after`).
    pub print_after: Vec<String>,
    /// Print after every pass (`--print-ir-after-all`).
    pub print_after_all: bool,
    /// Print after a pass only the ops it changed (`--print-ir-after-change`).
    pub print_after_change: bool,
    /// Write the op after each pass to a file in this directory (`--print-ir-tree-dir`).
    pub print_tree_dir: Option<PathBuf>,
    /// Dumps print the whole top-level op, their header naming the op the
    /// pass ran on (`--mlir-print-ir-module-scope`).
    pub print_module_scope: bool,
    /// How dumps print the IR.
    pub print_options: PrintOptions,
    /// Measure wall time per pass (`--timing`).
    pub timing: bool,
    /// Collect pass statistics (`--pass-statistics`).
    pub statistics: bool,
    /// Compact the bodies the last pass of the pipeline changed (see
    /// `Body::compact_if_wasteful`). A tool that prints the IR and exits
    /// right after the run turns this off: the copy would only cost time.
    pub compact_after_last_pass: bool,
}

impl Default for RunOptions {
    fn default() -> Self {
        RunOptions {
            threads: 1,
            verify_each: true,
            print_before: Vec::new(),
            print_before_all: false,
            print_after: Vec::new(),
            print_after_all: false,
            print_after_change: false,
            print_tree_dir: None,
            print_module_scope: false,
            print_options: PrintOptions::default(),
            timing: false,
            statistics: false,
            compact_after_last_pass: true,
        }
    }
}

/// What a run produced besides the IR.
#[derive(Default)]
pub struct RunReport {
    /// Diagnostics, in order: warnings and remarks of passes, then the error
    /// that stopped the pipeline, if any.
    pub diags: Vec<Diagnostic>,
    /// Whether a pass or the verifier failed.
    pub failed: bool,
    /// Wall time per pass (with `timing`).
    pub timing: TimingTree,
    /// Pass statistics (with `statistics`).
    pub statistics: Statistics,
}

/// A pipeline with the options to run it.
pub struct PassManager {
    /// The top-level pass manager; its nesting must match the top-level op.
    pub pipeline: OpPassManager,
    /// Instrumentation and threading.
    pub options: RunOptions,
    /// Cached analyses, by path of op ids from the top-level op.
    analyses: FxHashMap<Vec<OpId>, AnalysisManager>,
}

/// One step of the flattened pipeline: a pass and the nesting that leads to it.
struct Step<'p> {
    entry: &'p PassEntry,
    levels: Vec<&'p Nesting>,
    /// The pass's node in the timing tree.
    timing_node: usize,
    /// The node of the verifier run after it.
    verify_node: Option<usize>,
    /// The node of the observer called after it (`run_observed`).
    observe_node: Option<usize>,
    /// Whether the bodies it changed are compacted after it (see
    /// [`RunOptions::compact_after_last_pass`]).
    compact: bool,
}

/// What running a pass on one target gave.
struct TargetRun {
    result: Result<(), Box<Diagnostic>>,
    outcome: TargetOutcome,
    /// Whether the pass may have changed the target (it did not preserve
    /// every analysis).
    changed: bool,
    /// The first error in the target's nested body after the pass, checked
    /// in the task that ran it.
    nested_failure: Option<Box<Diagnostic>>,
    /// Time spent in the pass and in that check (with `timing`).
    pass_time: std::time::Duration,
    verify_time: std::time::Duration,
}

/// An op a pass runs on, found by following the nesting.
struct Target<'b> {
    key: Vec<OpId>,
    body: &'b mut Body,
    record: OpRecord,
}

impl PassManager {
    /// A pass manager for a pipeline.
    pub fn new(pipeline: OpPassManager, options: RunOptions) -> PassManager {
        PassManager {
            pipeline,
            options,
            analyses: FxHashMap::default(),
        }
    }

    /// Runs the pipeline on `root`; IR dumps go to `dump`.
    pub fn run(&mut self, ctx: &Context, root: &mut OwnedOp, dump: &mut dyn Write) -> RunReport {
        self.run_observed(ctx, root, dump, None)
    }

    /// [`PassManager::run`], calling `observer` (if any) after each pass,
    /// once the pass has run on every op it applies to (see
    /// [`crate::observe`]). An observer's error stops the pipeline and is
    /// the run's error. With `timing`, the observer's time shows in the
    /// timing tree after each pass, under the name the observer gives
    /// ([`PassObserver::timing_name`]).
    pub fn run_observed(
        &mut self,
        ctx: &Context,
        root: &mut OwnedOp,
        dump: &mut dyn Write,
        mut observer: Option<&mut dyn PassObserver>,
    ) -> RunReport {
        let mut report = RunReport::default();
        // Cached analyses belong to the IR of one run (op ids of another
        // buffer may coincide).
        self.analyses.clear();
        let root_name = ctx.op_name_str(root.body.op_name(root.op)).to_string();
        if !self.pipeline.nesting.matches(&root_name) {
            report.failed = true;
            report.diags.push(Diagnostic::error(
                root.body.op_loc(root.op).source_pos(ctx),
                format!(
                    "the pass pipeline runs on '{}' ops, but the top-level op is '{root_name}': \
                         start the pipeline with '{root_name}(...)'",
                    self.pipeline.nesting.as_str()
                ),
            ));
            return report;
        }
        let mut steps = Vec::new();
        let pipeline = std::mem::replace(&mut self.pipeline, OpPassManager::new("any"));
        let verify = self.options.verify_each;
        let observe = observer.as_ref().map(|o| o.timing_name());
        flatten(
            &pipeline,
            vec![&pipeline.nesting],
            &mut report.timing,
            None,
            (verify, observe),
            &mut steps,
        );
        if let Some(last) = steps.last_mut() {
            last.compact = self.options.compact_after_last_pass;
        }
        let mut dumper = IrDumper::new(&self.options, dump);
        for (index, step) in steps.iter().enumerate() {
            let Some(changed) = self.run_step(ctx, root, step, index, &mut dumper, &mut report) else {
                report.failed = true;
                break;
            };
            if let Some(observer) = observer.as_deref_mut() {
                let start = Instant::now();
                let pass = ObservedPass {
                    position: index + 1,
                    num_passes: steps.len(),
                    entry: step.entry,
                    nesting: &step.levels,
                    changed,
                };
                let result = observer.after_pass(ctx, root, &pass);
                if let (true, Some(node)) = (self.options.timing, step.observe_node) {
                    report.timing.add_time(node, start.elapsed());
                }
                if let Err(d) = result {
                    report.diags.push(*d);
                    report.failed = true;
                    break;
                }
            }
        }
        self.pipeline = pipeline;
        report
    }

    /// Runs one pass on every op it applies to; `None` if the pipeline must
    /// stop, else whether the pass may have changed the IR (it did not
    /// preserve every analysis of some op, or changed an op's attributes).
    fn run_step(
        &mut self,
        ctx: &Context,
        root: &mut OwnedOp,
        step: &Step<'_>,
        index: usize,
        dumper: &mut IrDumper<'_>,
        report: &mut RunReport,
    ) -> Option<bool> {
        let info = step.entry.info();
        let opts = &self.options;
        // Before: dumps and the text to compare with after.
        let before: Vec<Option<String>> = {
            let ops = visit_targets(ctx, root, &step.levels);
            dumper.before(ctx, root, &*step.entry.pass, &ops)
        };
        let start = Instant::now();
        let mut targets = collect_targets(ctx, root, &step.levels);
        let mut ams: Vec<AnalysisManager> = targets
            .iter()
            .map(|t| self.analyses.remove(&t.key).unwrap_or_default())
            .collect();
        let pass = &*step.entry.pass;
        let (verify_each, timing) = (opts.verify_each, opts.timing);
        let run_one = |(t, am): (&mut Target<'_>, &mut AnalysisManager)| -> TargetRun {
            let pass_start = timing.then(Instant::now);
            let mut target = PassTarget::new(ctx, t.body, t.record.clone());
            am.begin_pass();
            let result = pass.run(&mut target, am);
            let outcome = target.finish();
            let pass_time = pass_start.map(|s| s.elapsed()).unwrap_or_default();
            // As MLIR, a pass that preserved every analysis changed nothing:
            // what it ran on needs no new check.
            let changed = !am.all_preserved();
            // The body the pass changed is checked here, while it is in
            // cache; the op itself once its record is written back.
            let verify_start = timing.then(Instant::now);
            let nested_failure = (verify_each && changed && result.is_ok() && t.key.len() > 1)
                .then(|| lf_ir::verify_nested_body(ctx, t.record.name, t.record.loc, t.body).err())
                .flatten();
            let verify_time = verify_start.map(|s| s.elapsed()).unwrap_or_default();
            // A changed nested body drops the op records and use slots the
            // pass left behind (op ids change: its analyses go too).
            if step.compact && changed && result.is_ok() && t.key.len() > 1 && t.body.compact_if_wasteful() {
                am.clear();
            }
            TargetRun {
                result,
                outcome,
                changed,
                nested_failure,
                pass_time,
                verify_time,
            }
        };
        let runs: Vec<TargetRun> = if opts.threads > 1 && targets.len() > 1 {
            targets
                .par_iter_mut()
                .zip(ams.par_iter_mut())
                .with_max_len(1)
                .map(run_one)
                .collect()
        } else {
            targets.iter_mut().zip(ams.iter_mut()).map(run_one).collect()
        };
        let keys: Vec<Vec<OpId>> = targets.into_iter().map(|t| t.key).collect();
        // Split the wall time of the parallel part between the pass and the
        // verifier by their shares of the time the tasks spent on each.
        let wall = start.elapsed();
        let (spent_pass, spent_verify) = runs.iter().fold((0.0, 0.0), |(p, v), r| {
            (p + r.pass_time.as_secs_f64(), v + r.verify_time.as_secs_f64())
        });
        let pass_share = if spent_pass + spent_verify > 0.0 {
            spent_pass / (spent_pass + spent_verify)
        } else {
            1.0
        };
        let pass_time = wall.mul_f64(pass_share);
        let nested_verify_time = wall - pass_time;
        // Analyses: drop what the pass did not preserve, here and below
        // (one sweep for all targets: the ops below a target have keys that
        // start with its key).
        let mut changed: rustc_hash::FxHashSet<&[OpId]> = rustc_hash::FxHashSet::default();
        for (key, am) in keys.iter().zip(ams.iter_mut()) {
            if !am.end_pass() {
                changed.insert(key);
            }
        }
        if !changed.is_empty() {
            self.analyses
                .retain(|k, _| !(0..k.len()).any(|n| changed.contains(&k[..n])));
        }
        for (key, am) in keys.iter().cloned().zip(ams) {
            self.analyses.insert(key, am);
        }
        let any_changed = runs.iter().any(|r| r.changed || r.outcome.record.is_some());
        // Write back changed op records; gather diagnostics and statistics.
        let mut error = None;
        let mut checks: Vec<(usize, Option<Box<Diagnostic>>)> = Vec::new();
        let mut outputs = Vec::new();
        for (i, (key, run)) in keys.iter().zip(runs).enumerate() {
            outputs.extend(run.outcome.outputs);
            if let Some((attrs, props)) = run.outcome.record {
                if let Some((parent, op)) = parent_body_mut(root, key) {
                    parent.set_op_attrs(op, attrs);
                    parent.set_op_props(op, props);
                }
            }
            report.diags.extend(run.outcome.diags);
            if opts.statistics {
                report.statistics.add(index, info.name, &step.levels, run.outcome.stats);
            }
            if let Err(d) = run.result {
                error.get_or_insert(d);
            }
            if run.changed {
                checks.push((i, run.nested_failure));
            }
        }
        if opts.timing {
            report.timing.add_time(step.timing_node, pass_time);
        }
        if let Err(e) = write_outputs(outputs) {
            error.get_or_insert(Box::new(Diagnostic::error(
                None,
                format!("pass '{}' could not write its output: {e}", info.name),
            )));
        }
        if let Some(d) = error {
            report.diags.push(*d);
            return None;
        }
        // After: verification of each op the pass changed (the op itself;
        // what is nested in it was verified by the task that ran the pass),
        // in parallel: an op's own checks may walk its body (`func.func`
        // checks the calls in it against the symbol table). The error
        // reported is the first in program order, as if run in sequence.
        if opts.verify_each {
            let vstart = Instant::now();
            let root_ref = &*root;
            let failures: Vec<Option<Box<Diagnostic>>> = checks
                .into_par_iter()
                .with_max_len(1)
                .map(|(i, nested_failure)| {
                    let key = &keys[i];
                    let own = match key.len() {
                        1 => lf_ir::verify(ctx, &root_ref.body, root_ref.op),
                        _ => body_holding(root_ref, key).map_or(Ok(()), |parent| {
                            lf_ir::verify_isolated_op(ctx, parent, key[key.len() - 1])
                        }),
                    };
                    own.err().or(nested_failure)
                })
                .collect();
            let failure = failures.into_iter().flatten().next();
            if let (true, Some(node)) = (opts.timing, step.verify_node) {
                report.timing.add_time(node, nested_verify_time + vstart.elapsed());
            }
            if let Some(d) = failure {
                let mut d = *d;
                d.message = format!("{} (verification failed after pass '{}')", d.message, info.name);
                report.diags.push(d);
                return None;
            }
        }
        let ops = visit_targets(ctx, root, &step.levels);
        if let Err(e) = dumper.after(ctx, root, &*step.entry.pass, index, &ops, &before) {
            report
                .diags
                .push(Diagnostic::error(None, format!("could not write an IR dump: {e}")));
            return None;
        }
        Some(any_changed)
    }
}

/// Lists the passes of a pipeline with their nesting, and builds the timing
/// tree (with a node for the verifier and one for the observer, by its
/// timing name, after each pass when asked).
fn flatten<'p>(
    pm: &'p OpPassManager,
    levels: Vec<&'p Nesting>,
    timing: &mut TimingTree,
    parent: Option<usize>,
    (verify, observe): (bool, Option<&str>),
    out: &mut Vec<Step<'p>>,
) {
    for item in &pm.items {
        match item {
            PipelineItem::Pass(entry) => {
                let timing_node = timing.add_node(parent, entry.info().name);
                let verify_node = verify.then(|| timing.add_node(parent, "(verify)"));
                let observe_node = observe.map(|name| timing.add_node(parent, format!("({name})")));
                out.push(Step {
                    entry,
                    levels: levels.clone(),
                    timing_node,
                    verify_node,
                    observe_node,
                    compact: true,
                })
            }
            PipelineItem::Nested(child) => {
                let node = timing.add_node(parent, format!("'{}' Pipeline", child.nesting.as_str()));
                let mut l = levels.clone();
                l.push(&child.nesting);
                flatten(child, l, timing, Some(node), (verify, observe), out);
            }
        }
    }
}

/// The isolated ops directly in the regions `roots` of `body` that
/// `nesting` matches, in program order.
fn direct_children(ctx: &Context, body: &Body, roots: &[lf_ir::RegionId], nesting: &Nesting) -> Vec<OpId> {
    let mut out = Vec::new();
    for &r in roots {
        for b in body.region_blocks(r) {
            for op in body.block_ops(b) {
                if body.nested_body(op).is_some() && nesting.matches(ctx.op_name_str(body.op_name(op))) {
                    out.push(op);
                }
            }
        }
    }
    out
}

/// The ops a step runs on, with the body holding each (for verification
/// and printing), in program order.
fn visit_targets<'b>(ctx: &Context, root: &'b OwnedOp, levels: &[&Nesting]) -> Vec<(Vec<OpId>, &'b Body, OpId)> {
    let mut out = vec![(vec![root.op], &root.body, root.op)];
    for level in &levels[1..] {
        let mut next = Vec::new();
        for (key, body, op) in out {
            let Some(nb) = body.nested_body(op) else { continue };
            for child in direct_children(ctx, nb, body.regions(op), level) {
                let mut k = key.clone();
                k.push(child);
                next.push((k, nb, child));
            }
        }
        out = next;
    }
    out
}

/// The ops a step runs on, each with its nested body borrowed mutably.
fn collect_targets<'b>(ctx: &Context, root: &'b mut OwnedOp, levels: &[&Nesting]) -> Vec<Target<'b>> {
    let record = OpRecord::of(&root.body, root.op);
    let key = vec![root.op];
    let body: &'b mut Body = if root.body.nested_body(root.op).is_some() {
        root.body.nested_body_mut(root.op).expect("checked")
    } else {
        &mut root.body
    };
    let mut out = vec![Target { key, body, record }];
    for level in &levels[1..] {
        let mut next = Vec::new();
        for t in out {
            let order = direct_children(ctx, t.body, &t.record.regions, level);
            let records: FxHashMap<OpId, (usize, OpRecord)> = order
                .iter()
                .enumerate()
                .map(|(i, &op)| (op, (i, OpRecord::of(t.body, op))))
                .collect();
            let mut found: Vec<(usize, Target<'b>)> = Vec::new();
            for (op, nb) in t.body.nested_bodies_mut() {
                if let Some((pos, rec)) = records.get(&op) {
                    let mut key = t.key.clone();
                    key.push(op);
                    found.push((
                        *pos,
                        Target {
                            key,
                            body: nb,
                            record: rec.clone(),
                        },
                    ));
                }
            }
            found.sort_by_key(|(p, _)| *p);
            next.extend(found.into_iter().map(|(_, t)| t));
        }
        out = next;
    }
    out
}

/// The body holding the op at the end of `key`.
fn body_holding<'b>(root: &'b OwnedOp, key: &[OpId]) -> Option<&'b Body> {
    let (_, path) = key.split_last()?;
    let mut body = &root.body;
    for &op in path {
        body = body.nested_body(op)?;
    }
    Some(body)
}

/// The body holding the op at the end of `key`, mutably, and that op.
fn parent_body_mut<'b>(root: &'b mut OwnedOp, key: &[OpId]) -> Option<(&'b mut Body, OpId)> {
    let (&last, path) = key.split_last()?;
    let mut body = &mut root.body;
    for &op in path {
        body = body.nested_body_mut(op)?;
    }
    Some((body, last))
}

/// Writes what the targets of one pass run wrote ([`PassTarget::write_output`]),
/// in target order: stderr texts at once, each file's texts concatenated into
/// the file (created or replaced). The error names the file.
fn write_outputs(outputs: Vec<crate::pass::PassOutput>) -> Result<(), String> {
    let mut files: Vec<(std::path::PathBuf, String)> = Vec::new();
    for out in outputs {
        match out.path {
            None => {
                let mut err = std::io::stderr().lock();
                // A closed stderr is not the pass's failure.
                let _ = err.write_all(out.text.as_bytes());
            }
            Some(path) => match files.iter_mut().find(|(p, _)| *p == path) {
                Some((_, text)) => text.push_str(&out.text),
                None => files.push((path, out.text)),
            },
        }
    }
    for (path, text) in files {
        std::fs::write(&path, text).map_err(|e| format!("{}: {e}", path.display()))?;
    }
    Ok(())
}
