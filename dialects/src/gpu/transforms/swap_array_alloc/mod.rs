//! `swap-array-alloc`: the shared-memory swap arrays of fused launches
//! (DIGEST §000.6, §000.7 step 5; `docs/design/fusion-with-halo.md`).
//!
//! On every `gpu.launch` of the function whose workgroup attributions are
//! accessed only by loads and stores inside its top-level ops (the form
//! `affine-fusion-with-halo` produces, one buffer per definition): loads of
//! a thread's own slot become the value the producer phase yields
//! ([`registers`]), buffers left unread go, `reorder=true` reorders the
//! phases where that needs fewer arrays ([`reorder`]), the free-queue
//! allocation in textual order gives each buffer an array ([`allocate`]),
//! and the barriers are placed again
//! ([`crate::gpu::utils::phase_barriers`]).

pub mod allocate;
pub mod form;
pub mod registers;
pub mod reorder;

use crate::gpu::utils::phase_barriers::{analyze, place_barriers_ordering};
use crate::gpu::{GpuLaunchOp, WORKGROUP_ATTRIBUTIONS_ATTR};
use allocate::{allocate, LiveRange};
use lf_ir::builder::Builder;
use lf_ir::view::{collect_ops, OpView};
use lf_ir::{OpId, Type, Value};
use lf_pass::pass::{Anchor, OptionKind, Pass, PassInfo, PassOption, PassResult, PassTarget};
use lf_pass::AnalysisManager;
use std::collections::HashMap;

/// The registration record of `swap-array-alloc`.
pub static INFO: PassInfo = PassInfo {
    name: "swap-array-alloc",
    summary: "Share workgroup swap arrays between the definitions of a fused gpu.launch (free-queue allocation)",
    description: "On every `gpu.launch` of the function whose workgroup attributions are accessed only by \
`affine.load`, `affine.store`, `memref.load` and `memref.store` inside the top-level ops of its body (the \
phases `affine-fusion-with-halo` makes, one buffer per communicating definition; see \
`docs/design/fusion-with-halo.md`):\n\n\
1. **Zero-distance uses in registers.** A buffer stored by a single `affine.store` at the thread's own slot \
(`[%tx]`, `[%ty, %tx]`, `[%tz, %ty, %tx]`; the block has no thread dimension the buffer lacks, so that \
no other thread shares the slot) directly in the then block of a top-level `affine.if` without else \
(its producer phase) and loaded at the thread's own slot by an `affine.load` in a later top-level op: the \
producer `affine.if` yields the stored value (its new else block yields a zero of that type, which only \
threads that would have read an unwritten slot see) and the load is replaced by it.\n\
2. Buffers that no op loads any more lose their stores and their attribution.\n\
3. With `reorder=true`, when every top-level op other than constants, `affine.apply`s and barriers is an \
`affine.if` phase, the phases are reordered by a greedy list scheduling over their dependences (two phases \
touching a common memref, workgroup or global, where one writes keep their order; a phase using a value \
another yields comes after it) that prefers the ready phase freeing the most buffers minus those it makes \
live; the order is kept only if it needs fewer arrays.\n\
4. **The free-queue allocation** of DIGEST §000.6 in textual order of the top-level ops: a buffer is live \
from the first top-level op that accesses it (its definition) to the last; at each op the buffers it \
defines take an array from the free queue of their type (shape and element type) or a new one, then the \
arrays of the buffers it uses last go back (allocation before release). The number of arrays is the \
largest number of buffers of one type live at once. Each array is the attribution of its first buffer; \
the others' accesses are rewritten to it and their attributions erased.\n\
5. The `gpu.barrier`s at the top level of the body are placed again: one before a top-level op that reads \
a buffer written since the last barrier or writes one read or written since it; none before the first \
write to an array. A global memref written in one top-level op and accessed at another element (or \
through another view) in another is ordered the same way (a barrier orders global memory within a \
block too).\n\n\
A remark per launch says `swap arrays: N definitions in M arrays` and how many loads became registers. \
Launches without workgroup attributions are not touched. Left unchanged with a remark: private attributions, an attribution used by another op (a view, a call), a \
`gpu.barrier` nested in a top-level op, ops touching memory other than through those loads and stores. Views are traced to the memref they view; distinct \
function arguments are assumed not to alias.",
    anchor: Anchor::Op("func.func"),
    options: &[
        PassOption {
            name: "reorder",
            kind: OptionKind::Bool,
            default: "false",
            help: "Reorder the phases where legal when that needs fewer swap arrays",
        },
        PassOption {
            name: "remarks",
            kind: OptionKind::Bool,
            default: "true",
            help: "Emit a remark per launch (the allocation, or why the launch is left alone)",
        },
    ],
    create: |opts| {
        Ok(Box::new(SwapArrayAlloc {
            reorder: opts.bool("reorder"),
            remarks: opts.bool("remarks"),
        }))
    },
};

/// The `swap-array-alloc` pass.
pub struct SwapArrayAlloc {
    /// Whether phases may be reordered.
    pub reorder: bool,
    /// Whether remarks are emitted.
    pub remarks: bool,
}

impl Pass for SwapArrayAlloc {
    fn info(&self) -> &'static PassInfo {
        &INFO
    }

    fn run(&self, op: &mut PassTarget<'_>, _am: &mut AnalysisManager) -> PassResult {
        let regions = op.regions().to_vec();
        let mut b = op.builder();
        let launches = collect_ops::<GpuLaunchOp>(b.ctx(), b.body(), &regions);
        for launch in launches {
            if launch.workgroup_attributions(&b).is_empty() {
                continue;
            }
            let message = match alloc_launch(&mut b, launch, self.reorder) {
                Ok(summary) => summary,
                Err(why) => format!("swap arrays not allocated: {why}; the launch is left unchanged"),
            };
            if self.remarks {
                b.remark(launch.op(), message);
            }
        }
        Ok(())
    }
}

/// `n thing` or `n things`.
fn plural(n: usize, thing: &str) -> String {
    format!("{n} {thing}{}", if n == 1 { "" } else { "s" })
}

/// Runs the pass on one launch; the remark, or why it was left alone
/// (then unchanged).
pub fn alloc_launch(b: &mut Builder<'_>, launch: GpuLaunchOp, reorder: bool) -> Result<String, String> {
    let (info, _) = form::check(b.ctx(), b.body(), launch)?;
    let registers = registers::forward_zero_distance(b, launch, &info);
    let info = analyze(b.ctx(), b.body(), launch)?;
    let dead = registers::drop_unread(b, launch, &info);
    let mut note = String::new();
    if reorder {
        note = reorder_phases(b, launch)?;
    }
    let (defs, count) = share_arrays(b, launch)?;
    erase_unused_attributions(b, launch);
    let globals = form::ordered_globals(b.ctx(), b.body(), launch)?;
    place_barriers_ordering(b, launch, &globals)?;
    let mut text = format!(
        "swap arrays: {} in {}",
        plural(defs, "definition"),
        plural(count, "array")
    );
    if registers > 0 || !dead.is_empty() {
        text += &format!(
            "; {} in registers, {} removed",
            plural(registers, "zero-distance load"),
            plural(dead.len(), "buffer")
        );
    }
    Ok(text + &note)
}

/// The workgroup buffers of the launch, each with its type and the
/// positions (in `tops`) of the top-level ops that access it; buffers
/// without accesses are left out.
fn buffer_uses(b: &Builder<'_>, launch: GpuLaunchOp, tops: &[OpId]) -> Result<Vec<(Value, Type, Vec<usize>)>, String> {
    let info = analyze(b.ctx(), b.body(), launch)?;
    let position: HashMap<OpId, usize> = tops.iter().enumerate().map(|(k, &t)| (t, k)).collect();
    let mut out = Vec::new();
    for buffer in launch.workgroup_attributions(b) {
        let mut touch: Vec<usize> = info
            .accesses
            .iter()
            .filter(|a| a.buffer == buffer)
            .filter_map(|a| position.get(&a.top).copied())
            .collect();
        touch.sort_unstable();
        touch.dedup();
        if !touch.is_empty() {
            out.push((buffer, b.body().value_type(buffer), touch));
        }
    }
    Ok(out)
}

/// `reorder=true`: reorders the phases when that lowers the array count;
/// returns the remark's note.
fn reorder_phases(b: &mut Builder<'_>, launch: GpuLaunchOp) -> Result<String, String> {
    let (info, effects) = form::check(b.ctx(), b.body(), launch)?;
    let phases = match reorder::phases(b, launch, &info.tops, &effects) {
        Ok(p) => p,
        Err(why) => return Ok(format!("; not reordered: {why}")),
    };
    let buffers: Vec<(Type, Vec<usize>)> = buffer_uses(b, launch, &phases.ops)?
        .into_iter()
        .map(|(_, ty, touch)| (ty, touch))
        .collect();
    let Some((order, before, after)) = reorder::better_order(&phases.preds, &buffers) else {
        return Ok("; no legal reordering needs fewer arrays".into());
    };
    let terminator = *info.tops.last().ok_or("the launch body is empty")?;
    reorder::apply(b, terminator, &phases.ops, &order);
    Ok(format!(
        "; phases reordered ({} instead of {} in textual order)",
        plural(after, "array"),
        plural(before, "array")
    ))
}

/// The free-queue allocation: rewrites every buffer's accesses to its
/// array's attribution (the first buffer given that array); returns the
/// number of buffers (definitions) and of arrays.
fn share_arrays(b: &mut Builder<'_>, launch: GpuLaunchOp) -> Result<(usize, usize), String> {
    let info = analyze(b.ctx(), b.body(), launch)?;
    let buffers = buffer_uses(b, launch, &info.tops)?;
    let ranges: Vec<LiveRange<Type>> = buffers
        .iter()
        .map(|(_, ty, touch)| LiveRange {
            ty: *ty,
            first: touch[0],
            last: touch[touch.len() - 1],
        })
        .collect();
    let (arrays, count) = allocate(&ranges);
    let mut representative: HashMap<usize, Value> = HashMap::new();
    for ((buffer, _, _), &array) in buffers.iter().zip(&arrays) {
        match representative.get(&array) {
            Some(&rep) => b.replace_all_uses_with(*buffer, rep),
            None => {
                representative.insert(array, *buffer);
            }
        }
    }
    Ok((buffers.len(), count))
}

/// Erases the launch's workgroup attributions that nothing uses, keeping
/// the `workgroup_attributions` count right; returns how many went.
fn erase_unused_attributions(b: &mut Builder<'_>, launch: GpuLaunchOp) -> usize {
    let Some(block) = b.body().entry_block(launch.body(b)) else {
        return 0;
    };
    let all = launch.workgroup_attributions(b);
    let unused: Vec<usize> = all
        .iter()
        .filter(|&&v| !b.body().has_uses(v))
        .filter_map(|&v| b.body().block_args(block).iter().position(|&a| a == v))
        .collect();
    for &index in unused.iter().rev() {
        b.body_mut().erase_block_arg(block, index);
    }
    let ctx = b.ctx();
    let count = ctx.integer_attr((all.len() - unused.len()) as i128, ctx.common().i64);
    b.set_discardable_attr(launch.op(), WORKGROUP_ATTRIBUTIONS_ATTR, Some(count));
    unused.len()
}
