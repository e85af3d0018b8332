//! `coalesce-via-shared`: seed 004's Step 3 (DIGEST §004.4): global loads
//! that the half-warp rule finds not coalesced are read through shared
//! memory, loaded by coalesced G2S statements, and the block becomes one
//! half-warp. See `docs/design/kernel-optimizer.md`.

pub mod plan;
pub mod reblock;
pub mod rewrite;
pub mod swap;
pub mod transpose;

use crate::gpu::analysis::coalescing::HALF_WARP;
use crate::gpu::utils::workgroup_buffer::add_workgroup_buffer;
use crate::gpu::GpuLaunchOp;
use lf_ir::diag::Diagnostic;
use lf_ir::view::{collect_ops, OpView};
use lf_ir::OpId;
use lf_pass::pass::{Anchor, OptionKind, Pass, PassInfo, PassOption, PassOptions, PassResult, PassTarget};
use lf_pass::AnalysisManager;
use plan::{plan_launch, LaunchPlan, PlanOptions, Shape};

/// The registration record of `coalesce-via-shared`.
pub static INFO: PassInfo = PassInfo {
    name: "coalesce-via-shared",
    summary: "Read non-coalesced global loads of gpu.launch kernels through shared memory (seed 004, Step 3)",
    description: "Seed 004's conversion of non-coalesced accesses (DIGEST §004.4), on the inline \
`gpu.launch` ops of a function. Every global `affine.load` that `gpu-coalescing-analysis` finds not \
coalesced is converted when it sits directly in the body of an `affine.for` (constant bounds, inside \
nothing but such loops: the barriers are reached by every thread) and its loop index `i` occurs only \
in the innermost subscript as `m*i + n` (m counted in elements per iteration: the coefficient times \
the step): **case B**. The loop is unrolled by U = 16/gcd(m,16) (the largest over its loads) into \
the shape of the seed's Fig. 3a/3b: an outer loop stepping U iterations; in its body the G2S \
statements, a `gpu.barrier`, an inner `affine.for %k = 0 to U` holding the original body with the \
converted loads reading shared memory, a second `gpu.barrier`. Without `idx` in the subscripts (the \
16 lanes read one row: `a[idy][i]`, `b[i]`), the lcm(m,16)·(U/U_m)-element segment is loaded by \
m·U/16 coalesced statements `sA[16g + tidx] = A[..][m*i + n + 16g + tidx]` and copy k reads \
`sA[m*k]`; with `idx` (coefficient 1) in one higher dimension and m = 1 (`a[idx][i]`), the \
16-iteration loader `for l in 0..16: sA[l][tidx] = A[..(idx - tidx) + l..][i + n + tidx]` fills a \
16x17 tile (16x16 with `pad=false`; the padding avoids bank conflicts on the column reads) and copy \
k reads `sA[tidx][k]`. The block becomes 16 threads along x (a half-warp), the threads along y \
move to the grid (grid.x·bdx/16, grid.y·bdy); the kernel must read its ids only through the \
absolute ids `bidx*bdx + tidx`, `bidy*bdy + tidy` (as `gpu-map-loops` makes them), bdx a multiple \
of 16, bdz = 1.\n\n\
**Case A, the transposed tile**: a load with no loop index, `idx` (coefficient 1) in one \
subscript above the innermost and `idy` (coefficient 1) in the innermost (`A[idx][idy]`, the \
transpose): the segments `A[(idx - tidx) + l][(idy - tidy) + t]` form a TxT tile (T = `tile`, 16) \
shared by T neighbouring y-blocks, so the block becomes TxT (the y-block merge that realises the \
reuse: T² reads of T² loaded elements), each thread loads one element coalesced \
(`sT[tidy][tidx] = A[.. idx - tidx + tidy ..][idy - tidy + tidx]`, a Tx(T+1) workgroup tile), a \
`gpu.barrier`, and the access reads `sT[tidx][tidy]`. The load must sit directly in the kernel \
body or in the then block of a bound guard there (an `affine.if` on values affine in `idx` and \
`idy`, as `gpu-map-loops` adds): the loader then goes under the guard evaluated at the mirrored \
thread's ids (`idx - tidx + tidy`, `idy - tidy + tidx`) and the barrier before the guard, so every \
thread reaches it; not in a loop. The threads along x and y (grid times block) must be multiples \
of T, or every memory access of the kernel under such guards (without results or else blocks): \
the grid is then rounded up and each guard gets `idx < X`, `idy < Y` (the old extents). The array \
must not be written by the kernel; a kernel with case-B conversions keeps its 16x1 block and its \
transposed loads.\n\n\
Not converted, with a remark at the load: m > `max-stride` (8: little reuse across iterations); \
the reuse rule of §004.5 fails (over one fill, 16 lanes x U iterations, the segment must serve at \
least as many reads as elements it loads, and more than one of its elements must be read: case A \
accesses without a loop index and not of the transposed kind, `A[idy][0]` or `A[idx][c]`, never \
pass); a segment not 16-element aligned (n % 16 != 0 or a row pitch not a multiple of 16); a \
segment of the last iterations reaching past the array; a trip count not a multiple of U; a load \
under an `affine.if` (a bound guard) or any other op (a barrier there could diverge); an array \
the kernel also writes; indices of other loops or computed in the loop. Stores are never \
converted (a non-coalesced store gets a remark). Kernels that already use workgroup memory or \
barriers are left alone (re-blocking would split threads that share a block). A remark at the launch says what was converted, or why the kernel is left alone.\n\n\
First, with `swap` (default), the seed's idx/idy swap: when a global access indexed by both `idx` \
and `idy` in different subscripts (`A[idx][idy]`) is not coalesced, and exchanging the kernel's x and y \
roles (thread `(tx, ty)` of block `(bx, by)` becomes thread `(ty, tx)` of block `(by, bx)`, the \
launch's x and y sizes exchanged: every block keeps its threads, so it is always legal) makes \
strictly more global accesses coalesced, weighted by how often a thread executes each, or as many \
and fewer non-coalesced stores (a transpose with its store not coalesced: after the swap the load \
is, and the transposed tile converts it), the kernel is swapped, with a remark giving the counts.",
    anchor: Anchor::Op("func.func"),
    options: &[
        PassOption {
            name: "pad",
            kind: OptionKind::Bool,
            default: "true",
            help: "Pad 2-D shared tiles to 16x17 (no bank conflicts on column reads)",
        },
        PassOption {
            name: "max-stride",
            kind: OptionKind::UInt,
            default: "8",
            help: "The largest m (elements per iteration) converted; the seed's 8",
        },
        PassOption {
            name: "tile",
            kind: OptionKind::UInt,
            default: "16",
            help: "The side of case A's transposed tile and square block: 16 (the seed's half-warp) or 32 (a warp)",
        },
        PassOption {
            name: "swap",
            kind: OptionKind::Bool,
            default: "true",
            help: "The seed's idx/idy swap: exchange a kernel's x and y roles when that coalesces more accesses",
        },
        PassOption {
            name: "remarks",
            kind: OptionKind::Bool,
            default: "true",
            help: "Emit the remarks (conversions, loads left alone and why)",
        },
    ],
    create,
};

fn create(opts: &PassOptions) -> Result<Box<dyn Pass>, String> {
    let max_stride = opts.int("max-stride");
    if !(1..=HALF_WARP).contains(&max_stride) {
        return Err("max-stride: between 1 and 16".into());
    }
    let tile = opts.int("tile");
    if tile != HALF_WARP && tile != 2 * HALF_WARP {
        return Err("tile: 16 or 32".into());
    }
    Ok(Box::new(CoalesceViaShared {
        pad: opts.bool("pad"),
        max_stride,
        tile,
        swap: opts.bool("swap"),
        remarks: opts.bool("remarks"),
    }))
}

/// The `coalesce-via-shared` pass.
pub struct CoalesceViaShared {
    /// Pad 2-D tiles to 16x17.
    pub pad: bool,
    /// The largest m converted.
    pub max_stride: i64,
    /// The side of a transposed tile (16 or 32).
    pub tile: i64,
    /// Whether the idx/idy swap is tried first.
    pub swap: bool,
    /// Whether remarks are emitted.
    pub remarks: bool,
}

/// The remark of a converted launch.
fn describe(plan: &LaunchPlan, pad: bool) -> String {
    let [bx, by, _] = plan.reblock.old_block;
    let [nx, ny] = plan.reblock.new_block;
    if !plan.tiles.is_empty() {
        let guarded = plan.tiles.iter().filter(|t| t.guard.is_some()).count();
        let mut notes = String::new();
        if guarded > 0 {
            notes.push_str(&format!(
                "; {guarded} loader(s) under the mirrored bound guard, the barrier before the guard"
            ));
        }
        if let Some([x, y]) = plan.reblock.rounded_up {
            let [gx, gy, _] = plan.reblock.new_grid;
            notes.push_str(&format!(
                "; grid rounded up to {gx}x{gy} blocks, the guards given idx < {x}, idy < {y}"
            ));
        }
        return format!(
            "coalesced via shared memory: {} load(s) through a transposed {nx}x{nx} tile ({nx}x{} in shared memory, one element loaded per thread); block {bx}x{by}x1 -> {nx}x{ny}x1{notes}",
            plan.tiles.len(),
            nx + i64::from(pad)
        );
    }
    let loops: Vec<String> = plan
        .loops
        .iter()
        .map(|l| {
            let convs: Vec<String> = l
                .conversions
                .iter()
                .map(|c| match c.shape {
                    Shape::Row => format!("m = {}: {} G2S statement(s)", c.m, c.m * l.unroll / HALF_WARP),
                    Shape::Tile { .. } => "a 16-iteration tile loader".to_string(),
                })
                .collect();
            format!("unroll {} ({})", l.unroll, convs.join(", "))
        })
        .collect();
    format!(
        "coalesced via shared memory: {} load(s); {}; block {bx}x{by}x1 -> 16x1x1",
        plan.loops.iter().map(|l| l.conversions.len()).sum::<usize>(),
        loops.join("; ")
    )
}

impl Pass for CoalesceViaShared {
    fn info(&self) -> &'static PassInfo {
        &INFO
    }

    fn run(&self, op: &mut PassTarget<'_>, am: &mut AnalysisManager) -> PassResult {
        let ctx = op.ctx();
        let regions = op.regions().to_vec();
        let mut remarks: Vec<(OpId, String)> = Vec::new();
        let mut swapped = 0u64;
        if self.swap {
            for launch in collect_ops::<GpuLaunchOp>(ctx, op.body(), &regions) {
                match swap::plan_swap(&(ctx, op.body()), launch) {
                    Ok(Some(s)) => {
                        swap::apply_swap(&mut op.builder(), launch);
                        swapped += 1;
                        let mut why = format!(
                            "swapped idx and idy (x and y roles exchanged): coalesced global accesses, weighted by executions per thread, {} -> {}",
                            s.before, s.after
                        );
                        if s.after == s.before {
                            why.push_str(&format!(
                                "; non-coalesced stores {} -> {} (a load can be read through shared memory, a store cannot)",
                                s.stores_before, s.stores_after
                            ));
                        }
                        remarks.push((launch.op(), why));
                    }
                    Ok(None) => {}
                    Err(why) => remarks.push((launch.op(), why)),
                }
            }
        }
        let mut plans = Vec::new();
        {
            let body = op.body();
            let ir = (ctx, body);
            for launch in collect_ops::<GpuLaunchOp>(ctx, body, &regions) {
                let mut launch_remarks = Vec::new();
                match plan_launch(
                    &ir,
                    launch,
                    PlanOptions {
                        max_stride: self.max_stride,
                        tile: self.tile,
                    },
                    &mut launch_remarks,
                ) {
                    Ok(p) => {
                        remarks.push((launch.op(), describe(&p, self.pad)));
                        plans.push(p);
                    }
                    Err(why) => remarks.push((launch.op(), format!("kernel not changed: {why}"))),
                }
                remarks.extend(launch_remarks);
            }
        }
        let remarks: Vec<_> = remarks
            .into_iter()
            .map(|(o, m)| (op.body().op_loc(o).source_pos(ctx), m))
            .collect();
        {
            let mut b = op.builder();
            for p in &plans {
                // One buffer per conversion.
                let mut buffers = Vec::new();
                for l in &p.loops {
                    let mut bufs = Vec::new();
                    for c in &l.conversions {
                        let shape = match c.shape {
                            Shape::Row => vec![c.m * l.unroll],
                            Shape::Tile { .. } => vec![HALF_WARP, HALF_WARP + i64::from(self.pad)],
                        };
                        let memref = c.load.memref(&b);
                        bufs.push(add_workgroup_buffer(&mut b, p.launch, memref, &shape));
                    }
                    buffers.push(bufs);
                }
                let side = p.reblock.new_block[0];
                let tile_bufs: Vec<_> = p
                    .tiles
                    .iter()
                    .map(|t| {
                        let memref = t.load.memref(&b);
                        add_workgroup_buffer(&mut b, p.launch, memref, &[side, side + i64::from(self.pad)])
                    })
                    .collect();
                reblock::reblock(&mut b, p.launch, &p.reblock);
                for (l, bufs) in p.loops.iter().zip(&buffers) {
                    rewrite::rewrite_loop(&mut b, p.launch, l, bufs);
                }
                let mut tiles = p.tiles.clone();
                if let Some(extents) = p.reblock.rounded_up {
                    transpose::exclude_extra_threads(&mut b, p.launch, extents, &mut tiles);
                }
                for (t, &buf) in tiles.iter().zip(&tile_bufs) {
                    transpose::rewrite_transpose(&mut b, p.launch, t, buf);
                }
            }
        }
        if self.remarks {
            for (pos, m) in remarks {
                op.emit(Diagnostic::remark(pos, m));
            }
        }
        op.add_statistic(
            "num-converted-kernels",
            "Kernels whose loads were coalesced through shared memory",
            plans.len() as u64,
        );
        op.add_statistic(
            "num-swapped-kernels",
            "Kernels whose x and y roles were exchanged",
            swapped,
        );
        if plans.is_empty() && swapped == 0 {
            am.preserve_all();
        }
        Ok(())
    }
}
