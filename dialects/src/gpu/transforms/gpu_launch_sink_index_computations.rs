//! `gpu-launch-sink-index-computations`: MLIR's pass of that name. The
//! constants, `memref.dim`, `arith.cmpi` and `arith.select` ops that a
//! `gpu.launch` body uses from above (with the ops of those kinds their
//! operands need) are cloned at the start of the body, so that outlining
//! does not pass them as kernel arguments and the device compiler sees
//! them as constants (loop bounds and steps it can unroll by, coefficients
//! it can fold).

use crate::arith::{ArithCmpiOp, ArithConstantOp, ArithSelectOp};
use crate::gpu::utils::launch_inputs::{clone_into_body, used_values_defined_above};
use crate::gpu::GpuLaunchOp;
use crate::memref::MemrefDimOp;
use lf_ir::builder::Builder;
use lf_ir::view::{collect_ops, OpView};
use lf_ir::{OpId, Value};
use lf_pass::pass::{Anchor, Pass, PassInfo, PassResult, PassTarget};
use lf_pass::rewrite::for_each_body_par;
use lf_pass::AnalysisManager;
use rustc_hash::FxHashSet;

/// The registration record of `gpu-launch-sink-index-computations`.
pub static INFO: PassInfo = PassInfo {
    name: "gpu-launch-sink-index-computations",
    summary: "Sink index computations into gpu.launch body",
    description: "For each `gpu.launch`, the values its body uses from above that an `arith.constant`, \
`memref.dim`, `arith.cmpi` or `arith.select` defines are computed at the start of the body instead (clones, \
operands first; an operand that is neither defined by such an op nor used by the body itself keeps the op \
outside), as `mlir-opt --gpu-launch-sink-index-computations`: in the order a post-order walk of the body \
first uses them (MLIR's `getUsedValuesDefinedAbove`), only the uses inside the body replaced. Run before \
`gpu-kernel-outlining`, the sunk values are no longer kernel arguments. On a module, the launches of its \
functions are handled too.",
    anchor: Anchor::Any,
    options: &[],
    create: |_| Ok(Box::new(SinkIndexComputations)),
};

/// The `gpu-launch-sink-index-computations` pass.
pub struct SinkIndexComputations;

impl Pass for SinkIndexComputations {
    fn info(&self) -> &'static PassInfo {
        &INFO
    }

    fn run(&self, op: &mut PassTarget<'_>, _am: &mut AnalysisManager) -> PassResult {
        let ctx = op.ctx();
        let regions = op.regions().to_vec();
        // The op's body and, as MLIR walks into them, the bodies of the
        // isolated ops in it (the functions of a module).
        let done: Result<Vec<()>, ()> = for_each_body_par(op.body_mut(), &regions, &|body, regions| {
            let mut b = Builder::new(ctx, body);
            for launch in collect_ops::<GpuLaunchOp>(ctx, b.body(), regions) {
                sink(&mut b, launch);
            }
            Ok(())
        });
        let _ = done;
        Ok(())
    }
}

/// Whether MLIR sinks ops of this kind.
fn is_beneficiary(b: &Builder<'_>, op: OpId) -> bool {
    ArithConstantOp::isa(b, op) || MemrefDimOp::isa(b, op) || ArithCmpiOp::isa(b, op) || ArithSelectOp::isa(b, op)
}

/// Adds `op` and the beneficiary ops its operands need to `sunk` (operands
/// first) when it can be sunk: every operand is available (sunk already),
/// sinkable, or used by the body itself (it stays an input of the body).
fn extract(
    b: &Builder<'_>,
    op: OpId,
    inputs: &FxHashSet<Value>,
    sunk: &mut Vec<OpId>,
    available: &mut FxHashSet<Value>,
) -> bool {
    if sunk.contains(&op) {
        return true;
    }
    if !is_beneficiary(b, op) {
        return false;
    }
    let operands: Vec<Value> = b.body().operands(op).collect();
    for v in operands {
        if available.contains(&v) {
            continue;
        }
        let sinkable = b
            .body()
            .defining_op(v)
            .is_some_and(|d| extract(b, d, inputs, sunk, available));
        if !sinkable && !inputs.contains(&v) {
            return false;
        }
    }
    sunk.push(op);
    available.extend(b.body().results(op));
    true
}

/// Sinks the beneficiary inputs of `launch` into its body.
fn sink(b: &mut Builder<'_>, launch: GpuLaunchOp) {
    let candidates = used_values_defined_above(b.ctx(), b.body(), launch);
    let inputs: FxHashSet<Value> = candidates.iter().copied().collect();
    let mut sunk = Vec::new();
    let mut available = FxHashSet::default();
    for v in &candidates {
        if let Some(d) = b.body().defining_op(*v) {
            extract(b, d, &inputs, &mut sunk, &mut available);
        }
    }
    clone_into_body(b, launch, &sunk);
}
