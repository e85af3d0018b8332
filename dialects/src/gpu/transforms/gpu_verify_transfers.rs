//! `gpu-verify-transfers`: checks that the `gpu.memcpy` ops of a function
//! keep every device buffer and its host memref coherent (the rule of
//! DIGEST §003.4), by the dataflow of [`crate::gpu::analysis::transfers`].

use crate::gpu::analysis::transfers::check;
use lf_ir::diag::Diagnostic;
use lf_pass::pass::{Anchor, Pass, PassInfo, PassOptions, PassResult, PassTarget};
use lf_pass::AnalysisManager;

/// The registration record of `gpu-verify-transfers`.
pub static INFO: PassInfo = PassInfo {
    name: "gpu-verify-transfers",
    summary: "Check that host/device copies keep every device buffer coherent with its host memref",
    description: "Checks the copy-correctness rule of IHOP (DIGEST §003.4): on every control-flow \
path from a statement that writes a buffer on one side (the host memref, or its device buffer) to a \
statement with an occurrence (a read or a write) of it on the other side, a `gpu.memcpy` in that \
direction must come, and before any copy in the opposite direction. A device buffer is a \
`gpu.alloc` result; its host memref is the memref (followed through `memref.subview`, `cast`, \
`reinterpret_cast` and `view` to the buffer it is a view of) at the other end of a `gpu.memcpy` to \
or from it: the pass pairs them through their copies, so it checks hand-written IR as well as \
`gpu-host-data-placement`'s output. Sides are buffers, not where an op runs: a kernel reading a \
host memref it captures is a host-side occurrence. Arguments and globals hold data on entry (the \
host side is newer until a host-to-device copy); `func.return` and calls read and write them.\n\n\
A forward dataflow over the structured control flow (the function body, `scf.for`, `scf.while`, \
`scf.if`, `scf.parallel`, `affine.for`, `affine.if`, `affine.parallel`; loops iterate to a fixed \
point and may run zero times, but an `affine.for` of constant positive trip count; any other op, a `gpu.launch` included, is one statement) tracks, per \
pair, which side may be newer and which write made it so. A violation is an error at the \
occurrence, naming the write and the structured path (branches taken, loop back edges) from it: a \
*stale use* (\"device buffer (gpu.alloc at L:C) read by the kernel at L:C may be stale: \
'affine.store' at L:C wrote it (path: ...) and no host-to-device copy follows\") or a *stale copy* \
(a copy that overwrites newer data of its destination). Functions with unstructured control flow \
(several blocks in a region) are checked block by block in order, which is exact only for \
structured code.",
    anchor: Anchor::Op("func.func"),
    options: &[],
    create,
};

fn create(_: &PassOptions) -> Result<Box<dyn Pass>, String> {
    Ok(Box::new(GpuVerifyTransfers))
}

/// The `gpu-verify-transfers` pass.
pub struct GpuVerifyTransfers;

impl Pass for GpuVerifyTransfers {
    fn info(&self) -> &'static PassInfo {
        &INFO
    }

    fn run(&self, op: &mut PassTarget<'_>, _: &mut AnalysisManager) -> PassResult {
        let ctx = op.ctx();
        let regions = op.regions().to_vec();
        let violations = check(ctx, op.body(), &regions);
        let mut diags: Vec<Diagnostic> = violations
            .iter()
            .map(|v| {
                let body = op.body();
                let mut d = Diagnostic::error(body.op_loc(v.at).source_pos(ctx), v.message.clone());
                if let Some(w) = v.write {
                    d = d.with_note(body.op_loc(w).source_pos(ctx), "the write");
                }
                d
            })
            .collect();
        let Some(last) = diags.pop() else { return Ok(()) };
        for d in diags {
            op.emit(d);
        }
        Err(Box::new(last))
    }
}
