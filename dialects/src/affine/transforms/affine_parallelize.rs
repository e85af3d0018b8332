//! `affine-parallelize`: each parallel `affine.for` becomes a 1-D
//! `affine.parallel`, as `mlir-opt --affine-parallelize` does
//! (`AffineParallelize.cpp`, `affineParallelize` in `Affine/Utils`).
//!
//! The pass first decides, in a pre-order walk of the function, which
//! loops are parallel (outer loops first, on the IR as it was given:
//! [`is_parallel_cached`], or [`is_loop_parallel_with_reductions`] with
//! `parallel-reductions`), then converts them in that order, skipping a
//! loop once `max-nested` `affine.parallel` ops surround it (counted up to
//! the closest affine scope, the function's own `affine.parallel` ops
//! included). Dependences are decided as MLIR decides them
//! ([`Precision::MlirCompatible`]), so the output is `mlir-opt`'s.
//!
//! The `affine.parallel` takes the loop's bound maps and operands (a `max`
//! lower bound or `min` upper bound stays one), its step, its location and
//! its body. A reduction's combining op (`%s = arith.addf %acc, %x`) moves
//! right after the new op and combines the loop's initial value with the
//! parallel result (`arith.addf %init, %r`), replacing the loop's result;
//! the body yields the reduced value (`%x`) instead, and the carried block
//! arguments go.

use crate::affine::analysis::loop_parallel::{is_loop_parallel_with_reductions, is_parallel_cached};
use crate::affine::analysis::reductions::{loop_reduction, LoopReduction};
use crate::affine::analysis::{DependenceAnalysis, Precision};
use crate::affine::utils::validity::is_affine_scope;
use crate::affine::{AffineForOp, AffineIfOp, AffineLoadOp, AffineParallelOp, AffineStoreOp, AffineYieldOp};
use lf_ir::builder::Builder;
use lf_ir::diag::Diagnostic;
use lf_ir::interfaces::Effect;
use lf_ir::view::OpView;
use lf_ir::walk::{walk_regions, WalkControl, WalkOrder};
use lf_ir::{Body, Context, OpId, Type, Value};
use lf_pass::pass::{Anchor, OptionKind, Pass, PassInfo, PassOption, PassOptions, PassResult, PassTarget};
use lf_pass::AnalysisManager;

/// The registration record of `affine-parallelize`.
pub static INFO: PassInfo = PassInfo {
    name: "affine-parallelize",
    summary: "Convert affine.for ops into 1-D affine.parallel",
    description: "Turns every `affine.for` whose iterations are independent into a \
one-dimensional `affine.parallel` with the same bounds (a `max` lower bound or `min` upper \
bound stays one), step, location and body, as `mlir-opt --affine-parallelize` does; the output \
is mlir-opt's. A loop is independent when no memory dependence is carried by it (decided as \
MLIR's `isLoopMemoryParallel` decides: Fourier–Motzkin elimination on the affine accesses; an op \
with other memory effects, a `memref.load` for example, keeps the loop sequential; memrefs \
allocated inside the loop are ignored) and it carries no value from one iteration to the next. \
One difference on purpose: accesses through a view of a memref (`memref.subview`, `memref.cast`, \
`memref.reinterpret_cast`, `memref.view`) and through the memref itself, or through two \
`memref.get_global` of one global, are accesses to one memref for lf; mlir-opt takes them as \
independent and makes a racy parallel loop.\n\n\
With `parallel-reductions`, a loop whose `iter_args` are all reductions is parallelized too: \
each carried value must be used once, by an `arith` op with one other operand that is not a \
carried value (`addf`, `mulf`, `addi`, `muli`, `andi`, `ori`, `xori`, `minimumf`, \
`maximumf`, `minnumf`, `maxnumf`, `minsi`, `maxsi`, `minui`, `maxui`) whose only use is the \
loop's `affine.yield` at the same position. The `affine.parallel` reduces with that kind \
(`reduce (\"addf\")`) and yields the other operand; the combining op moves after the loop and \
combines the initial value with the parallel result. Where MLIR would build an \
`affine.parallel` that its own verifier rejects (kinds `xori`, `minnumf`, `maxnumf`, \
`minsi`/`maxsi`/`minui`/`maxui` on signless integers, or `index` and vector results: \
mlir-opt then fails with `result type cannot match reduction attribute`), lf leaves the loop \
as it is.\n\n\
Loops are chosen outer first on the IR as given, then converted in that order; a loop \
surrounded by `max-nested` or more `affine.parallel` ops (up to its affine scope, the input's \
own included) stays sequential. With `remarks`, each loop left sequential gets a remark saying \
why (lf only; off by default so that the output is mlir-opt's).",
    anchor: Anchor::Op("func.func"),
    options: &[
        PassOption {
            name: "max-nested",
            kind: OptionKind::UInt,
            default: "4294967295",
            help: "Maximum number of nested parallel loops to produce. Defaults to unlimited (UINT_MAX).",
        },
        PassOption {
            name: "parallel-reductions",
            kind: OptionKind::Bool,
            default: "false",
            help: "Whether to parallelize reduction loops. Defaults to false.",
        },
        PassOption {
            name: "remarks",
            kind: OptionKind::Bool,
            default: "false",
            help: "Remark on each loop left sequential, saying why (lf only)",
        },
    ],
    create,
};

fn create(opts: &PassOptions) -> Result<Box<dyn Pass>, String> {
    let max_nested = opts.int("max-nested");
    if max_nested > i64::from(u32::MAX) {
        return Err(format!(
            "max-nested: {max_nested} does not fit an unsigned 32-bit integer"
        ));
    }
    Ok(Box::new(AffineParallelize {
        max_nested: max_nested as usize,
        parallel_reductions: opts.bool("parallel-reductions"),
        remarks: opts.bool("remarks"),
    }))
}

/// The `affine-parallelize` pass.
pub struct AffineParallelize {
    /// The most `affine.parallel` ops a converted loop may be nested in.
    pub max_nested: usize,
    /// Whether loops whose carried values are all reductions are converted.
    pub parallel_reductions: bool,
    /// Whether loops left sequential get a remark saying why.
    pub remarks: bool,
}

/// A loop found parallel, with its reductions (one per carried value).
struct Candidate {
    for_op: AffineForOp,
    reductions: Vec<LoopReduction>,
}

impl AffineParallelize {
    /// The loops of the function (`body` with root `regions`) that are
    /// parallel, outer first, and the remarks on the others.
    fn candidates(
        &self,
        ctx: &Context,
        body: &Body,
        regions: &[lf_ir::RegionId],
        deps: &DependenceAnalysis,
        remarks: &mut Vec<(OpId, String)>,
    ) -> Vec<Candidate> {
        let mut loops = Vec::new();
        walk_regions(body, regions, WalkOrder::PreOrder, &mut |b, op| {
            if !std::ptr::eq(b, body) {
                return WalkControl::Skip;
            }
            if let Some(f) = AffineForOp::cast(&(ctx, b), op) {
                loops.push(f);
            }
            WalkControl::Advance
        });
        let ir = (ctx, body);
        let precision = Precision::MlirCompatible;
        let mut out = Vec::new();
        for for_op in loops {
            let found = if self.parallel_reductions {
                is_loop_parallel_with_reductions(&deps.accesses, &ir, for_op, precision)
            } else {
                is_parallel_cached(&deps.accesses, &ir, for_op, precision).then(Vec::new)
            };
            match found {
                Some(reductions) => out.push(Candidate { for_op, reductions }),
                None if self.remarks => remarks.push((for_op.op(), self.why_sequential(&ir, for_op, deps))),
                None => {}
            }
        }
        out
    }

    /// Why `for_op` was not found parallel (for a remark).
    fn why_sequential(&self, ir: &(&Context, &Body), for_op: AffineForOp, deps: &DependenceAnalysis) -> String {
        let carried = for_op.inits(ir).len();
        if carried > 0 && !self.parallel_reductions {
            return format!(
                "not parallelized: the loop carries {carried} value(s) (iter_args); see parallel-reductions"
            );
        }
        let reductions = crate::affine::analysis::reductions::supported_reductions(ir, for_op);
        if let Some(i) = (0..carried).find(|i| !reductions.iter().any(|r| r.iter_arg == *i)) {
            return format!("not parallelized: loop-carried value #{i} is not a supported reduction");
        }
        let _ = deps;
        if let Some(op) = effectful_op(ir, for_op) {
            let name = ir.0.op_name_str(ir.1.op_name(op));
            return format!("not parallelized: '{name}' in the loop touches memory and is not an affine access");
        }
        "not parallelized: a memory dependence may be carried by the loop".into()
    }
}

impl Pass for AffineParallelize {
    fn info(&self) -> &'static PassInfo {
        &INFO
    }

    fn run(&self, op: &mut PassTarget<'_>, am: &mut AnalysisManager) -> PassResult {
        let deps = am.get::<DependenceAnalysis>(op);
        let ctx = op.ctx();
        let regions = op.regions().to_vec();
        let mut remarks = Vec::new();
        let candidates = self.candidates(ctx, op.body(), &regions, &deps, &mut remarks);
        let mut converted = 0u64;
        {
            let (ctx, body) = op.parts();
            let mut b = Builder::new(ctx, body);
            for c in &candidates {
                if parallel_ancestors(&b, c.for_op.op()) >= self.max_nested {
                    if self.remarks {
                        remarks.push((
                            c.for_op.op(),
                            format!(
                                "not parallelized: nested in {} affine.parallel ops (max-nested)",
                                self.max_nested
                            ),
                        ));
                    }
                    continue;
                }
                match affine_parallelize(&mut b, c.for_op, &c.reductions) {
                    Some(_) => converted += 1,
                    None if self.remarks => remarks.push((
                        c.for_op.op(),
                        "not parallelized: affine.parallel cannot reduce a result of this type with this kind".into(),
                    )),
                    None => {}
                }
            }
        }
        for (at, message) in remarks {
            let pos = op.body().op_loc(at).source_pos(ctx);
            op.emit(Diagnostic::remark(pos, message));
        }
        op.add_statistic("num-parallelized", "Loops converted to affine.parallel", converted);
        if converted == 0 {
            am.preserve_all();
        }
        Ok(())
    }
}

/// The first op in `for_op` with memory effects that the dependence
/// analysis does not look into (not an affine load or store, nor an
/// allocation), if any: such an op keeps the loop sequential.
fn effectful_op(ir: &(&Context, &Body), for_op: AffineForOp) -> Option<OpId> {
    let (ctx, body) = *ir;
    let mut found = None;
    lf_ir::walk::walk(body, for_op.op(), WalkOrder::PreOrder, &mut |b, op| {
        let ir = (ctx, b);
        if op == for_op.op() || AffineLoadOp::isa(&ir, op) || AffineStoreOp::isa(&ir, op) {
            return WalkControl::Advance;
        }
        let own = lf_ir::interfaces::memory_effects(ctx, b, op);
        let suspicious = match own {
            None => !AffineForOp::isa(&ir, op) && !AffineIfOp::isa(&ir, op) && !AffineYieldOp::isa(&ir, op),
            Some(effects) => effects.iter().any(|e| e.effect != Effect::Alloc),
        };
        if suspicious && std::ptr::eq(b, body) {
            found = Some(op);
            return WalkControl::Interrupt;
        }
        WalkControl::Advance
    });
    found
}

/// How many `affine.parallel` ops surround `op` up to its affine scope.
fn parallel_ancestors(b: &Builder<'_>, op: OpId) -> usize {
    let (ctx, body) = (b.ctx(), b.body());
    let mut n = 0;
    let mut cur = body.parent_op(op);
    while let Some(p) = cur {
        if is_affine_scope(ctx, body, p) {
            break;
        }
        if AffineParallelOp::isa(b, p) {
            n += 1;
        }
        cur = body.parent_op(p);
    }
    n
}

/// Replaces `for_op` by a 1-D `affine.parallel` reducing `reductions` (one
/// per carried value, as [`is_loop_parallel_with_reductions`] finds them),
/// as MLIR's `affineParallelize`. `None` (and nothing changed) when the
/// reductions are not those of the loop's carried values, in order (as
/// [`loop_reduction`] finds them), or `affine.parallel` would not accept a
/// result's type for its kind. Whether the loop is parallel is the
/// caller's question.
pub fn affine_parallelize(
    b: &mut Builder<'_>,
    for_op: AffineForOp,
    reductions: &[LoopReduction],
) -> Option<AffineParallelOp> {
    let ctx = b.ctx();
    let inits = for_op.inits(b);
    if reductions.len() != inits.len() {
        return None;
    }
    // The reductions must be this loop's, one per carried value in order,
    // as they are now (a stale list would leave used block arguments).
    if reductions
        .iter()
        .enumerate()
        .any(|(i, r)| loop_reduction(b, for_op, i) != Some(*r))
    {
        return None;
    }
    let types: Vec<Type> = reductions.iter().map(|r| b.body().value_type(r.value)).collect();
    if reductions
        .iter()
        .zip(&types)
        .any(|(r, t)| !r.kind.matches_type(ctx, *t))
    {
        return None;
    }
    let kinds: Vec<i64> = reductions.iter().map(|r| r.kind.value()).collect();
    let (lb, ub, step) = (for_op.lower_bound(b), for_op.upper_bound(b), for_op.step(b));
    let block = for_op.region_block(b);
    let yield_op = for_op.yield_op(b).op();
    let results: Vec<Value> = b.body().results(for_op.op()).collect();
    b.guarded(|b| {
        let loc = b.body().op_loc(for_op.op());
        b.set_loc(loc);
        b.set_insertion_point_before(for_op.op());
        let par = AffineParallelOp::build_with_block(
            b,
            &types,
            &kinds,
            &[lb.map],
            &lb.operands,
            &[ub.map],
            &ub.operands,
            &[step],
            block,
        );
        let par_results: Vec<Value> = b.body().results(par.op()).collect();
        for (i, r) in reductions.iter().enumerate() {
            let combiner = r.combiner;
            b.move_op_before(combiner, for_op.op());
            b.modify_in_place(combiner, |_, body| {
                body.set_operands(combiner, &[inits[i], par_results[i]])
            });
            let combined = b.body().result(combiner, 0);
            b.replace_all_uses_with(results[i], combined);
        }
        let values: Vec<Value> = reductions.iter().map(|r| r.value).collect();
        b.modify_in_place(yield_op, |_, body| body.set_operands(yield_op, &values));
        b.modify_in_place(par.op(), |_, body| {
            for _ in 0..reductions.len() {
                body.erase_block_arg(block, 1);
            }
        });
        b.erase_op(for_op.op());
        Some(par)
    })
}
