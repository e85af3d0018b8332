//! IHOP's second kind of fragment (DIGEST §003.2): straight-line host
//! statements that touch data the kernels use run as single-thread
//! kernels, so that the data need not travel back to the host for them.

use crate::arith::ArithConstantOp;
use crate::gpu::transforms::gpu_host_data_placement::classify::captured_memrefs;
use crate::gpu::GpuLaunchOp;
use lf_ir::builder::Builder;
use lf_ir::interfaces::{memory_effects, Effect};
use lf_ir::registry::Traits;
use lf_ir::view::OpView;
use lf_ir::walk::{walk_regions, WalkControl, WalkOrder};
use lf_ir::{BlockId, Body, Context, OpId, RegionId, Value};
use std::collections::HashSet;

/// Wraps each run of straight-line host statements of the function
/// (`regions`) that touches a memref one of `launches` uses into a
/// one-thread `gpu.launch`; returns how many it made.
pub fn wrap_straight_line(b: &mut Builder<'_>, regions: &[RegionId], launches: &[OpId]) -> u64 {
    let ctx = b.ctx();
    let device: HashSet<Value> = launches
        .iter()
        .flat_map(|&l| captured_memrefs(ctx, b.body(), l))
        .collect();
    let mut blocks: Vec<BlockId> = Vec::new();
    walk_regions(b.body(), regions, WalkOrder::PreOrder, &mut |body, op| {
        if GpuLaunchOp::isa(&(ctx, body), op) {
            return WalkControl::Skip;
        }
        for &r in body.regions(op) {
            blocks.extend(body.region_blocks(r));
        }
        WalkControl::Advance
    });
    for &r in regions {
        blocks.extend(b.body().region_blocks(r));
    }
    let mut made = 0;
    for block in blocks {
        for run in runs(ctx, b.body(), block, &device) {
            wrap(b, &run);
            made += 1;
        }
    }
    made
}

/// Whether `op` may move into a kernel: no regions, not a terminator, known
/// effects that neither allocate nor free.
fn movable(ctx: &Context, body: &Body, op: OpId) -> bool {
    body.regions(op).is_empty()
        && !ctx.op_def(body.op_name(op)).is_some_and(|d| d.has(Traits::TERMINATOR))
        && memory_effects(ctx, body, op)
            .is_some_and(|e| e.iter().all(|e| !matches!(e.effect, Effect::Alloc | Effect::Free)))
}

/// The runs of `block` to wrap: from the first to the last op touching a
/// device memref within a stretch of movable ops, when no value made in
/// the run is used after it.
fn runs(ctx: &Context, body: &Body, block: BlockId, device: &HashSet<Value>) -> Vec<Vec<OpId>> {
    let touches = |op: OpId| {
        memory_effects(ctx, body, op).is_some_and(|e| {
            e.iter().any(|e| {
                matches!(e.effect, Effect::Read | Effect::Write) && e.value.is_some_and(|v| device.contains(&v))
            })
        })
    };
    let mut out = Vec::new();
    let mut stretch: Vec<OpId> = Vec::new();
    let mut flush = |stretch: &mut Vec<OpId>| {
        let first = stretch.iter().position(|&o| touches(o));
        let last = stretch.iter().rposition(|&o| touches(o));
        if let (Some(f), Some(l)) = (first, last) {
            let run: Vec<OpId> = stretch[f..=l].to_vec();
            let inside: HashSet<OpId> = run.iter().copied().collect();
            let escapes = run.iter().any(|&o| {
                body.results(o)
                    .any(|r| body.uses(r).any(|u| !inside.contains(&body.use_owner(u))))
            });
            if !escapes {
                out.push(run);
            }
        }
        stretch.clear();
    };
    for op in body.block_ops(block) {
        if movable(ctx, body, op) {
            stretch.push(op);
        } else {
            flush(&mut stretch);
        }
    }
    flush(&mut stretch);
    out
}

/// Moves `run` into a new one-thread `gpu.launch` at its place.
fn wrap(b: &mut Builder<'_>, run: &[OpId]) {
    b.set_insertion_point_before(run[0]);
    b.set_loc_of(run[0]);
    let one = ArithConstantOp::index(b, 1);
    let launch = GpuLaunchOp::build(b, [one; 3], [one; 3], |_, _| {});
    let block = b.body().entry_block(launch.body(b)).expect("a launch has a body");
    let end = b
        .body()
        .terminator(block)
        .expect("a launch body ends in gpu.terminator");
    for &op in run {
        b.move_op_before(op, end);
    }
}
