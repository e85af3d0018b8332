//! Watching a pipeline pass by pass: [`PassObserver`], called by
//! [`PassManager::run_observed`](crate::PassManager::run_observed) after
//! each pass has run on every op it applies to.
//!
//! The pass manager runs a pipeline pass by pass over the whole module
//! (`func.func(a,b)` is `a` on every function, then `b` on every function;
//! see [`crate::manager`]), so after pass N the module is exactly what the
//! first N passes of the pipeline make of it, and an observer can look at
//! the whole module between two passes. lf-opt's `--verify-semantics` is
//! such an observer: it runs the module in the interpreter after each pass
//! that changed it.

use crate::pipeline::{Nesting, PassEntry};
use lf_diag::Diagnostic;
use lf_ir::{Context, OwnedOp};

/// One pass of a running pipeline, as an observer sees it after the pass.
pub struct ObservedPass<'a> {
    /// Position of the pass in the pipeline, from 1: the passes are numbered
    /// in the order they appear in the pipeline text, nested ones included
    /// (in `builtin.module(func.func(canonicalize,cse),symbol-dce)`,
    /// `canonicalize` is 1, `cse` 2 and `symbol-dce` 3).
    pub position: usize,
    /// Number of passes in the pipeline.
    pub num_passes: usize,
    /// The pass and the options it was built from.
    pub entry: &'a PassEntry,
    /// The pass managers leading to the pass, outermost (the top-level op)
    /// first: `[builtin.module, func.func]`.
    pub nesting: &'a [&'a Nesting],
    /// Whether the pass may have changed the IR. False when the pass left
    /// every op it ran on with all its analyses preserved and their
    /// attributes as they were: as in MLIR, a pass that preserves every
    /// analysis promises that it changed nothing (the same promise
    /// `--verify-each` relies on).
    pub changed: bool,
}

impl ObservedPass<'_> {
    /// The pass's name (`cse`).
    pub fn name(&self) -> &'static str {
        self.entry.info().name
    }

    /// A pipeline that runs only this pass, with its options and in the
    /// nesting it had: `builtin.module(func.func(cse))`.
    pub fn alone(&self) -> String {
        let mut text = String::new();
        for level in self.nesting {
            text.push_str(level.as_str());
            text.push('(');
        }
        text.push_str(self.name());
        text.push_str(&self.entry.options.to_string());
        text.push_str(&")".repeat(self.nesting.len()));
        text
    }
}

/// Something that looks at the module after each pass of a pipeline (see
/// the module docs).
pub trait PassObserver {
    /// Called after pass `pass` ran (successfully, verified when
    /// `--verify-each` is on) on every op it applies to; `root` is the whole
    /// module at that point. An `Err` stops the pipeline: the run fails with
    /// that diagnostic as its error.
    fn after_pass(&mut self, ctx: &Context, root: &OwnedOp, pass: &ObservedPass<'_>) -> Result<(), Box<Diagnostic>>;

    /// The name of the observer's node in the `--timing` tree, shown in
    /// parentheses after each pass (`(verify-semantics)`).
    fn timing_name(&self) -> &str {
        "observe"
    }
}
