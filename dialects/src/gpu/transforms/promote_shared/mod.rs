//! `gpu-promote-shared`: global arrays that the threads of a block read
//! many times over a loop are copied, a chunk of iterations at a time,
//! into shared memory by all the block's threads together, and read from
//! there (lf's step beyond seed 004; the shared-memory promotion of
//! polyhedral GPU compilers). See `docs/design/kernel-optimizer.md`.

pub mod plan;
pub mod rewrite;

use crate::gpu::GpuLaunchOp;
use lf_ir::diag::Diagnostic;
use lf_ir::view::{collect_ops, OpView};
use lf_ir::OpId;
use lf_pass::pass::{Anchor, OptionKind, Pass, PassInfo, PassOption, PassOptions, PassResult, PassTarget};
use lf_pass::AnalysisManager;
use plan::{plan_launch, LaunchPlan, PlanOptions};

/// The registration record of `gpu-promote-shared`.
pub static INFO: PassInfo = PassInfo {
    name: "gpu-promote-shared",
    summary: "Copy the global data a block reuses over a kernel loop into shared memory, a chunk of iterations at a time (lf)",
    description: "On every inline `gpu.launch` with a constant block size: for each `affine.for` with constant bounds that every \
thread of the block reaches (inside nothing but constant-bound `affine.for` loops), or that sits directly in a \
bound guard of the kernel (an `affine.if` without results or else block, directly in the kernel, with only \
side-effect-free ops before the loop: the loop and those ops then leave the guard, so every thread copies and \
waits at the barriers, the ops after the loop stay guarded; every memory access of the loop must then be a \
promoted load), \
and each global array that the kernel does not write (no op of the kernel writes it or has unknown \
effects), the `affine.load`s of the array directly in the loop's body are split per subscript into a part \
every thread shares (block ids, enclosing loops), the loop's index and a part in the thread ids and \
constants. When every load of the array has the same shared part and loop coefficient per subscript, the \
elements the block reads over a chunk of C iterations (C: `tile` when it divides the trip count, else its \
largest divisor up to `tile` when that is at least half of `tile`, else `tile` with a shorter last chunk) form one box. The loop is staged: an outer loop over chunks; at the top of each chunk all threads \
of the block copy the box into a workgroup buffer (element e of the box by thread `e mod P` in round \
`e / P`, P the threads of the block, the innermost side contiguous, so neighbouring threads read \
neighbouring elements), a `gpu.barrier`, an inner loop over the chunk's iterations with the loads reading \
the buffer, a second `gpu.barrier` before the next copy. With `vector-copy` (default), each thread copies 16 bytes per load \
(a `vector.load` of 4 f32 or 2 f64, its elements stored one by one) where the box's innermost side is a multiple \
of that and its start provably aligned in every block and chunk. With `thread-contiguous` (default), a side read \
at `t + S*r` (one thread id t of block size S, constant r, the loop not moving it) is stored innermost in the order \
that makes each thread's reads for 4 consecutive r neighbours (`(r/4)*4S + 4t + r%4`), which the device compiler \
reads as one 128-bit load; such a box is copied by runs: each thread loads the 4 elements one thread reads \
(`S` apart in the box) and stores them with one 16-byte store (`vector.store`), neighbouring threads to \
neighbouring runs (scattering a wide load's elements instead would put four threads on each shared-memory \
bank). With `pad` (default), the innermost side of a box \
of rank 2 or more gets one more element in shared memory (against bank conflicts and wide reads that \
tie up registers), four more when it is thread-contiguous (rows stay 16-byte aligned).\n\n\
When the box cannot be shown inside the array in every block and chunk (the grid \
is not constant, the position depends on a value from outside the launch, or an edge block's box reaches past \
the array: the copy reads elements that no load reads), each copied unit is loaded only where it lies inside \
the array, and zero is stored elsewhere (no thread reads those elements; nothing in shared memory stays \
unwritten).\n\n\
With `double-buffer`, a loop of two or more chunks gets two buffers per array and one barrier per chunk: the \
first chunk is copied before the loop; in each chunk the threads load the next chunk's elements into registers \
(under `affine.if (i + C*st < ub)`, zeros otherwise) before the computation, which reads the buffer of slot \
`(chunk index) mod 2`, then store them into the other slot, then wait at the barrier (the other slot was last \
read before the previous barrier). Single-buffered instead, with a remark: a loop of one chunk, copies that \
would hold more than 32 values per thread in registers, or second buffers beyond `max-shared-bytes`.\n\n\
Not promoted, with a remark at the first load: the block reads the box fewer than `min-reuse` times per \
element over a chunk (no reuse across threads or iterations: shared memory would only add a copy); the \
loads of the array differ by more than thread ids and constants; no subscript uses the loop's index; the \
loop is inside other control flow (or a guard it cannot leave) or has non-constant bounds; the array is \
written by the kernel; the buffers would exceed `max-shared-bytes` with the kernel's other workgroup buffers. A remark \
at the launch lists the staged loops, the boxes and their reuse.",
    anchor: Anchor::Op("func.func"),
    options: &[
        PassOption {
            name: "tile",
            kind: OptionKind::UInt,
            default: "8",
            help: "The most iterations of a loop one copy covers (a divisor of the trip count of at least half this, or this with a shorter last chunk)",
        },
        PassOption {
            name: "min-reuse",
            kind: OptionKind::UInt,
            default: "2",
            help: "Promote only boxes whose elements the block reads at least this many times each over a chunk",
        },
        PassOption {
            name: "max-shared-bytes",
            kind: OptionKind::UInt,
            default: "49152",
            help: "Shared-memory budget per block, the kernel's existing workgroup buffers included",
        },
        PassOption {
            name: "pad",
            kind: OptionKind::Bool,
            default: "true",
            help: "Pad the innermost side of boxes of rank 2 or more by one element",
        },
        PassOption {
            name: "thread-contiguous",
            kind: OptionKind::Bool,
            default: "true",
            help: "Store a side read at thread + multiples of the block size so that each thread's reads are neighbours (wide shared reads)",
        },
        PassOption {
            name: "vector-copy",
            kind: OptionKind::Bool,
            default: "true",
            help: "Copy 16 bytes per load (vector<4xf32>) where every copied run provably starts 16-byte aligned",
        },
        PassOption {
            name: "double-buffer",
            kind: OptionKind::Bool,
            default: "false",
            help: "Two buffers per array: the next chunk's loads in registers during the computation, one barrier per chunk",
        },
        PassOption {
            name: "remarks",
            kind: OptionKind::Bool,
            default: "true",
            help: "Emit the remarks (promotions, and loads left in global memory and why)",
        },
    ],
    create,
};

fn create(opts: &PassOptions) -> Result<Box<dyn Pass>, String> {
    let tile = opts.int("tile");
    if !(1..=1024).contains(&tile) {
        return Err(format!("tile: between 1 and 1024, got {tile}"));
    }
    let min_reuse = opts.int("min-reuse");
    if min_reuse < 1 {
        return Err("min-reuse: at least 1".into());
    }
    Ok(Box::new(GpuPromoteShared {
        options: PlanOptions {
            tile,
            min_reuse,
            max_shared_bytes: opts.int("max-shared-bytes"),
            pad: opts.bool("pad"),
            thread_contiguous: opts.bool("thread-contiguous"),
            vector_copy: opts.bool("vector-copy"),
            double_buffer: opts.bool("double-buffer"),
        },
        remarks: opts.bool("remarks"),
    }))
}

/// The `gpu-promote-shared` pass.
pub struct GpuPromoteShared {
    /// The planning options.
    pub options: PlanOptions,
    /// Whether remarks are emitted.
    pub remarks: bool,
}

/// The remark of a rewritten launch.
fn describe(plan: &LaunchPlan) -> String {
    let loops: Vec<String> = plan
        .loops
        .iter()
        .map(|l| {
            let arrays: Vec<String> = l
                .arrays
                .iter()
                .map(|p| {
                    let sides: Vec<String> = p.sides.iter().map(|s| s.extent.to_string()).collect();
                    let shape: Vec<String> = p.buffer_shape.iter().map(|s| s.to_string()).collect();
                    let layout = match p.contiguous {
                        Some(c) => format!(
                            ", side {} thread-contiguous: {} neighbours per thread, each thread's run copied with one wide store",
                            c.side, c.width
                        ),
                        None => String::new(),
                    };
                    let layout = if p.copy_width > 1 {
                        format!("{layout}, copied {} elements per vector load", p.copy_width)
                    } else {
                        layout
                    };
                    let layout = if p.bounds_guard {
                        format!("{layout}, the copy guarded by the array's bounds (zero outside)")
                    } else {
                        layout
                    };
                    format!(
                        "{} load(s) from a {} box ({} in shared memory{layout}, {:.1} reads per element)",
                        p.loads.len(),
                        sides.join("x"),
                        shape.join("x"),
                        p.reuse
                    )
                })
                .collect();
            let guard = if l.guard.is_some() {
                " (taken out of its bound guard: every thread copies and waits at the barriers; the ops after it stay guarded)"
            } else {
                ""
            };
            let buffering = if l.double_buffered {
                " (double-buffered: the next chunk's loads in registers during the computation, one barrier per chunk)"
            } else {
                ""
            };
            format!("a loop staged by {} iterations{guard}{buffering}: {}", l.chunk, arrays.join(", "))
        })
        .collect();
    let [x, y, z] = plan.block;
    format!(
        "promoted to shared memory, copied by the block's {} threads ({x}x{y}x{z}): {}",
        x * y * z,
        loops.join("; ")
    )
}

impl Pass for GpuPromoteShared {
    fn info(&self) -> &'static PassInfo {
        &INFO
    }

    fn run(&self, op: &mut PassTarget<'_>, am: &mut AnalysisManager) -> PassResult {
        let ctx = op.ctx();
        let regions = op.regions().to_vec();
        let mut remarks: Vec<(OpId, String)> = Vec::new();
        let mut plans = Vec::new();
        {
            let ir = (ctx, op.body());
            for launch in collect_ops::<GpuLaunchOp>(ctx, op.body(), &regions) {
                match plan_launch(&ir, launch, self.options, &mut remarks) {
                    Ok(p) => {
                        remarks.push((launch.op(), describe(&p)));
                        plans.push(p);
                    }
                    Err(why) => remarks.push((launch.op(), format!("kernel not changed: {why}"))),
                }
            }
        }
        let remarks: Vec<_> = remarks
            .into_iter()
            .map(|(o, m)| (op.body().op_loc(o).source_pos(ctx), m))
            .collect();
        {
            let mut b = op.builder();
            for p in &plans {
                rewrite::rewrite_launch(&mut b, p);
            }
        }
        if self.remarks {
            for (pos, m) in remarks {
                op.emit(Diagnostic::remark(pos, m));
            }
        }
        op.add_statistic(
            "num-promoted-arrays",
            "Arrays of kernel loops read through shared-memory copies",
            plans.iter().flat_map(|p| &p.loops).map(|l| l.arrays.len() as u64).sum(),
        );
        if plans.is_empty() {
            am.preserve_all();
        }
        Ok(())
    }
}
