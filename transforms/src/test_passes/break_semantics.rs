//! `test-break-semantics`: a pass that changes what a program computes, on
//! purpose, so that `lf-opt --verify-semantics` and its tests have a known
//! culprit.

use lf_dialects::arith::{ArithAddfOp, ArithAddiOp, ArithSubfOp, ArithSubiOp};
use lf_dialects::gpu::GpuBarrierOp;
use lf_ir::view::{is_op, OpView};
use lf_ir::{Body, Context, OpDef, OpId, OperationState, RegionId};
use lf_pass::analysis::AnalysisManager;
use lf_pass::pass::{Anchor, OptionKind, Pass, PassInfo, PassOption, PassResult, PassTarget};

/// Registration of `test-break-semantics`.
pub static BREAK_SEMANTICS: PassInfo = PassInfo {
    name: "test-break-semantics",
    summary:
        "Break the program on purpose: the first arith.addf becomes arith.subf (race=true: the first gpu.barrier goes)",
    description: "A test of `lf-opt --verify-semantics`, which must name this pass. In the op it runs on, \
looking in program order through everything nested in it (functions in a module, kernels in a `gpu.module`), \
the first `arith.addf` becomes `arith.subf`; if there is none, the first `arith.addi` becomes `arith.subi`. \
With `race=true` it removes the first `gpu.barrier` instead, which in a kernel that needs the barrier is a data \
race the interpreter reports. The anchor is any op, so that it can run on host functions \
(`func.func(test-break-semantics)`) as well as on kernels (`gpu.module(gpu.func(test-break-semantics{race=true}))`); \
as a flag (`--test-break-semantics`) it runs once on the module and breaks only the first op found there. \
An op with nothing to break is left as it was (every analysis preserved). Statistic: `num-broken`.",
    anchor: Anchor::Any,
    options: &[PassOption {
        name: "race",
        kind: OptionKind::Bool,
        default: "false",
        help: "Remove the first gpu.barrier instead of changing an addition",
    }],
    create: |o| Ok(Box::new(BreakSemantics { race: o.bool("race") })),
};

struct BreakSemantics {
    race: bool,
}

impl Pass for BreakSemantics {
    fn info(&self) -> &'static PassInfo {
        &BREAK_SEMANTICS
    }

    fn run(&self, op: &mut PassTarget<'_>, am: &mut AnalysisManager) -> PassResult {
        let regions = op.regions().to_vec();
        let (ctx, body) = op.parts();
        let broken = if self.race {
            match find_first(ctx, body, &regions, GpuBarrierOp::def()) {
                Some((path, barrier)) => {
                    body_at(body, &path).erase_op(barrier);
                    true
                }
                None => false,
            }
        } else {
            let found = find_first(ctx, body, &regions, ArithAddfOp::def())
                .map(|f| (f, ArithSubfOp::def()))
                .or_else(|| find_first(ctx, body, &regions, ArithAddiOp::def()).map(|f| (f, ArithSubiOp::def())));
            match found {
                Some(((path, add), sub)) => {
                    replace_name(ctx, body_at(body, &path), add, sub);
                    true
                }
                None => false,
            }
        };
        op.add_statistic("num-broken", "Number of ops changed or removed", u64::from(broken));
        if !broken {
            am.preserve_all();
        }
        Ok(())
    }
}

/// The first op declared by `def` in `regions` of `body` and everything nested
/// in them (pre-order, program order), with the isolated ops whose nested
/// bodies lead to it.
fn find_first(ctx: &Context, body: &Body, regions: &[RegionId], def: &'static OpDef) -> Option<(Vec<OpId>, OpId)> {
    let mut path = Vec::new();
    find_in(ctx, body, regions, def, &mut path).map(|op| (path, op))
}

fn find_in(
    ctx: &Context,
    body: &Body,
    regions: &[RegionId],
    def: &'static OpDef,
    path: &mut Vec<OpId>,
) -> Option<OpId> {
    for &r in regions {
        for b in body.region_blocks(r) {
            for op in body.block_ops(b) {
                if is_op(ctx, body, op, def) {
                    return Some(op);
                }
                let isolated = body.nested_body(op).is_some();
                if isolated {
                    path.push(op);
                }
                if let Some(found) = find_in(ctx, body.regions_body(op), body.regions(op), def, path) {
                    return Some(found);
                }
                if isolated {
                    path.pop();
                }
            }
        }
    }
    None
}

/// The body reached from `body` through the nested bodies of `path`.
fn body_at<'b>(mut body: &'b mut Body, path: &[OpId]) -> &'b mut Body {
    for &op in path {
        body = body
            .nested_body_mut(op)
            .expect("the path was found through nested bodies");
    }
    body
}

/// Replaces `op` by an op declared by `def` with the same operands, result
/// types, attributes and properties.
fn replace_name(ctx: &Context, body: &mut Body, op: OpId, def: &'static OpDef) {
    let mut st = OperationState::new(ctx.op_name(def.name), body.op_loc(op));
    st.operands = body.operands(op).collect();
    st.result_types = body.results(op).map(|v| body.value_type(v)).collect();
    st.attrs = body.op_attrs(op);
    st.props = body.op_props(op);
    let new = body.create_op(st);
    body.insert_op_before(op, new);
    for (old, new) in body.results(op).zip(body.results(new)).collect::<Vec<_>>() {
        body.replace_all_uses(old, new);
    }
    body.erase_op(op);
}
