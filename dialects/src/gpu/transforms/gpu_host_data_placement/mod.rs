//! `gpu-host-data-placement`: kernels read and write device buffers only
//! (IHOP's data placement, DIGEST §003.4; design note
//! `docs/design/host-data-placement.md`).
//!
//! The steps, each in its module: which memrefs each inline `gpu.launch`
//! shares with the host ([`classify`]); a device buffer per shared buffer,
//! allocated and freed by the stack/heap rules ([`alloc`]); the captured
//! memrefs replaced by their device buffers inside the placed launches; the
//! mixed scheme's copies, sunk and merged ([`copies`]); finally the
//! copy-correctness check of `gpu-verify-transfers` on the result — should
//! sinking ever break it, the copies go back where the mixed scheme put
//! them (correct by construction), with a remark.

pub mod alloc;
pub mod classify;
pub mod copies;

use crate::gpu::analysis::buffers::Key;
use crate::gpu::analysis::transfers::check;
use crate::gpu::GpuLaunchOp;
use lf_ir::view::OpView;
use lf_ir::walk::{walk_regions, WalkControl, WalkOrder};
use lf_ir::OpId;
use lf_pass::pass::{Anchor, OptionKind, Pass, PassInfo, PassOption, PassOptions, PassResult, PassTarget};
use lf_pass::AnalysisManager;

/// The registration record of `gpu-host-data-placement`.
pub static INFO: PassInfo = PassInfo {
    name: "gpu-host-data-placement",
    summary: "Give inline gpu.launch kernels device buffers, with gpu.alloc/gpu.dealloc and sunk host/device copies",
    description: "IHOP's data placement (DIGEST §003.4) for inline `gpu.launch` ops that use host \
memrefs directly (as `gpu-map-loops` makes them, anywhere in the function: in host loops, under \
`affine.if` guards). Per launch, the values it captures are classified: scalars (type 1) are \
passed by value and left alone; in SSA a scalar the kernel modifies (type 2) is a rank-0 or \
one-element memref and is placed like an array (type 3); memrefs in the workgroup or private \
address space, memrefs allocated inside the launch and `gpu.alloc` buffers (device memory \
already) are not shared. Each shared buffer (a \
function argument, `memref.alloc`, `memref.alloca` or `memref.get_global` result of identity \
layout) gets a device buffer: `gpu.alloc` (dynamic sizes from `memref.dim` of the host memref) \
and `gpu.dealloc` at the function's start and exits for arguments and globals, at the start and \
end of its block for `memref.alloca`, right after the `memref.alloc` and right after each of its \
`memref.dealloc` (with none: at the end of its block) for `memref.alloc`. Inside the launch the \
host memref is replaced by the device buffer.\n\n\
Copies (`gpu.memcpy`) follow IHOP's mixed scheme: host-to-device after every host statement that \
writes a shared buffer (and at the function's start for arguments and globals, whose host data \
exists on entry), device-to-host after every launch that writes it. Each copy then sinks: past \
ops with no occurrence (read, write, allocation, deallocation) of the buffer on its destination \
side, out of a loop with no such occurrence anywhere in it (back edges included), out of an \
`scf.if`/`affine.if` branch when no other branch writes the destination side; it stops at a \
deallocation of either side, at the end of the function, and at the end of the buffer's scope. \
`func.return` and calls read and write arguments and globals, so their copies back come before \
them. Identical copies that end next to each other are merged, and a copy whose destination is \
freed later in its block before any occurrence of it is removed. The result is checked as `gpu-verify-transfers` \
checks it; if sinking broke the rule, the copies stay where the scheme put them (with a remark).\n\n\
Left unchanged, with a remark saying why (and then a host statement for the copies of the \
others): a launch capturing a view of a buffer (`memref.subview`, `cast`, `reinterpret_cast`: \
placement copies whole buffers only), a memref of another origin (a call result, a loop's \
`iter_args`), one with a layout, one that escapes where the analysis cannot follow it (yielded \
from a region), an asynchronous launch, a kernel with a `memref.get_global` of its own. A function with unstructured control flow (a region of \
several blocks) is left unchanged. Like the seed, placement assumes no two buffers overlap.",
    anchor: Anchor::Op("func.func"),
    options: &[PassOption {
        name: "sink",
        kind: OptionKind::Bool,
        default: "true",
        help: "Sink and merge the copies (false: keep the mixed scheme's copies where it inserts them)",
    }],
    create,
};

fn create(opts: &PassOptions) -> Result<Box<dyn Pass>, String> {
    Ok(Box::new(GpuHostDataPlacement {
        sink: opts.bool("sink"),
    }))
}

/// The `gpu-host-data-placement` pass.
pub struct GpuHostDataPlacement {
    /// Whether copies are sunk and merged.
    pub sink: bool,
}

impl Pass for GpuHostDataPlacement {
    fn info(&self) -> &'static PassInfo {
        &INFO
    }

    fn run(&self, op: &mut PassTarget<'_>, _: &mut AnalysisManager) -> PassResult {
        let ctx = op.ctx();
        let regions = op.regions().to_vec();
        let mut b = op.builder();
        let Some(entry) = regions.first().and_then(|&r| b.body().entry_block(r)) else {
            return Ok(());
        };
        // The outermost launches, and whether control flow is structured.
        let mut launches = Vec::new();
        let mut unstructured = false;
        {
            let body = b.body();
            let ir = (ctx, body);
            walk_regions(body, &regions, WalkOrder::PreOrder, &mut |bb, o| {
                if !std::ptr::eq(bb, body) {
                    return WalkControl::Skip;
                }
                if let Some(l) = GpuLaunchOp::cast(&ir, o) {
                    launches.push(l);
                    return WalkControl::Skip;
                }
                unstructured |= body.regions(o).iter().any(|&r| body.region_blocks(r).count() > 1);
                WalkControl::Advance
            });
            unstructured |= regions.iter().any(|&r| body.region_blocks(r).count() > 1);
        }
        if launches.is_empty() {
            return Ok(());
        }
        if unstructured {
            for l in launches {
                b.remark(
                    l.op(),
                    "not placed: the function has unstructured control flow (a region of several blocks)",
                );
            }
            return Ok(());
        }
        let cls = classify::classify(ctx, b.body(), entry, &launches);
        for (l, why) in &cls.declined {
            b.remark(*l, why.clone());
        }
        if cls.plans.is_empty() {
            return Ok(());
        }
        // Device buffers.
        let mut entry_after = None;
        let devices: Vec<alloc::Device> = cls
            .shared
            .iter()
            .map(|s| alloc::create(&mut b, entry, s, &mut entry_after))
            .collect();
        // Kernels use the device buffers.
        for plan in &cls.plans {
            let l = plan.launch.op();
            for &(v, i) in &plan.captured {
                b.replace_uses_if(v, devices[i].buf, |body, user| body.is_ancestor(l, user));
            }
        }
        let keys: Vec<(Key, Key)> = devices
            .iter()
            .map(|d| {
                (
                    copies::key_of(ctx, b.body(), d.host),
                    copies::key_of(ctx, b.body(), d.buf),
                )
            })
            .collect();
        let placed: Vec<OpId> = cls.plans.iter().map(|p| p.launch.op()).collect();
        let all = copies::insert_initial(&mut b, &regions, &devices, &keys, &placed);
        if self.sink {
            copies::sink_all(&mut b, &all, &devices, &keys);
            if !check(ctx, b.body(), &regions).is_empty() {
                copies::unsink(&mut b, &all);
                b.remark(
                    placed[0],
                    "copies not sunk: sinking gave a placement that breaks the copy rule; the copies stay where \
                     the mixed scheme put them",
                );
            }
            copies::merge(&mut b, &all, &devices, &keys);
        }
        Ok(())
    }
}
