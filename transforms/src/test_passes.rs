//! Passes for testing the infrastructure: they report what analyses see as
//! remarks, so that lit tests can check analyses, caching and options; and
//! one that breaks programs on purpose ([`break_semantics`]), for
//! `lf-opt --verify-semantics`.

pub mod break_semantics;
pub mod memref_dependence_check;

use lf_diag::Diagnostic;
use lf_pass::analysis::{AnalysisManager, LoopNestInfo};
use lf_pass::pass::{Anchor, OptionKind, Pass, PassInfo, PassOption, PassResult, PassTarget};
use lf_pass::PassRegistry;

/// Registers the test passes.
pub fn register(r: &mut PassRegistry) {
    r.register(&PRINT_LOOP_NEST);
    r.register(&PRINT_TO_STDERR);
    r.register(&break_semantics::BREAK_SEMANTICS);
    r.register(&memref_dependence_check::MEMREF_DEPENDENCE_CHECK);
}

/// Registration of `test-print-to-stderr`.
pub static PRINT_TO_STDERR: PassInfo = PassInfo {
    name: "test-print-to-stderr",
    summary: "Print each function's name straight to stderr, from the thread that runs the pass",
    description: "A test of debug output from passes: writes `test-print-to-stderr: @NAME` to stderr with \
`eprintln!`, as a pass author debugging a pass would, from whichever worker thread runs it (functions run \
in parallel with `--threads` above 1). It changes nothing and preserves every analysis.",
    anchor: Anchor::Op("func.func"),
    options: &[],
    create: |_| Ok(Box::new(PrintToStderr)),
};

struct PrintToStderr;

impl Pass for PrintToStderr {
    fn info(&self) -> &'static PassInfo {
        &PRINT_TO_STDERR
    }

    fn run(&self, op: &mut PassTarget<'_>, am: &mut AnalysisManager) -> PassResult {
        let name = op.symbol_name().map_or("", |n| op.ctx().ident_str(n));
        eprintln!("test-print-to-stderr: @{name}");
        am.preserve_all();
        Ok(())
    }
}

/// Registration of `test-print-loop-nest`.
pub static PRINT_LOOP_NEST: PassInfo = PassInfo {
    name: "test-print-loop-nest",
    summary: "Report each loop of a function with its depth (a remark per loop)",
    description: "A test of the loop-nest analysis and the analysis manager: emits a remark at each loop \
(`scf.for`, `scf.while`, `scf.parallel`, `affine.for`, `affine.parallel`) of the function giving its depth \
and the number of loops directly inside. It changes nothing and preserves every analysis. \
Statistics: `num-loops`, and `num-analyses-computed` (0 when the analysis was cached by an earlier run).",
    anchor: Anchor::Op("func.func"),
    options: &[
        PassOption {
            name: "min-depth",
            kind: OptionKind::UInt,
            default: "1",
            help: "Report only loops at this depth or deeper",
        },
        PassOption {
            name: "ops",
            kind: OptionKind::List(&OptionKind::String),
            default: "",
            help: "Report only loops with these op names (all when empty)",
        },
    ],
    create: |o| {
        Ok(Box::new(PrintLoopNest {
            min_depth: o.int("min-depth") as u32,
            ops: o.strings("ops"),
        }))
    },
};

struct PrintLoopNest {
    min_depth: u32,
    ops: Vec<String>,
}

impl Pass for PrintLoopNest {
    fn info(&self) -> &'static PassInfo {
        &PRINT_LOOP_NEST
    }

    fn run(&self, op: &mut PassTarget<'_>, am: &mut AnalysisManager) -> PassResult {
        let before = am.num_computed();
        let nest = am.get::<LoopNestInfo>(op);
        let ctx = op.ctx();
        let mut remarks = Vec::new();
        for l in nest.loops() {
            let name = ctx.op_name_str(op.body().op_name(l.op));
            if l.depth < self.min_depth || (!self.ops.is_empty() && !self.ops.iter().any(|o| o == name)) {
                continue;
            }
            remarks.push(Diagnostic::remark(
                op.body().op_loc(l.op).source_pos(ctx),
                format!(
                    "'{name}' loop at depth {}, {} loop(s) directly inside",
                    l.depth,
                    l.children.len()
                ),
            ));
        }
        for r in remarks {
            op.emit(r);
        }
        op.add_statistic("num-loops", "Number of loops", nest.loops().len() as u64);
        op.add_statistic(
            "num-analyses-computed",
            "Number of analyses computed (not cached)",
            am.num_computed() - before,
        );
        am.preserve_all();
        Ok(())
    }
}
