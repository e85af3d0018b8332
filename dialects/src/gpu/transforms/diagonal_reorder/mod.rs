//! `diagonal-reorder`: diagonal block reordering of 2-D grids against
//! partition camping (DIGEST §004.8, method 2), in the general form that
//! is a permutation of the blocks on every grid, square or not
//! ([`mapping::general_maps`]); `docs/design/kernel-optimizer.md`.

pub mod mapping;

use crate::affine::AffineApplyOp;
use crate::gpu::analysis::kernel_access::LaunchIds;
use crate::gpu::GpuLaunchOp;
use lf_ir::builder::Builder;
use lf_ir::view::{collect_ops, OpView};
use lf_pass::pass::{Anchor, Pass, PassInfo, PassResult, PassTarget};
use lf_pass::AnalysisManager;

/// The registration record of `diagonal-reorder`.
pub static INFO: PassInfo = PassInfo {
    name: "diagonal-reorder",
    summary: "Diagonal block reordering of 2-D gpu.launch grids (seed 004, general bijective form)",
    description: "On every inline `gpu.launch` of the function with a 2-D grid (`gridDim.y > 1`) whose grid \
sizes `gx`, `gy` are constants: the block ids are renumbered along diagonals so that blocks running at the \
same time touch different memory partitions (DIGEST §004.8, after Ruetsch and Micikevicius). At the start \
of the kernel\n\n\
```\n\
bid     = bidx + gx * bidy\n\
newbidy = bid mod gy\n\
newbidx = ((bid floordiv gy) + newbidy) mod gx\n\
```\n\n\
are computed with two `affine.apply` ops and replace every use of `bidx` and `bidy` in the kernel. This is a \
permutation of the `gx × gy` blocks on every grid (the seed's form `newbidy = bidx`, `newbidx = (bidx + \
bidy) mod gx` is one only on square grids), so every tile is still computed exactly once; the launch \
configuration is unchanged. A remark per launch gives the grid. Left unchanged with a remark: grid sizes \
that are not constants, 1-D grids (use `gpu-partition-camping` there), kernels that do not use the block \
ids.",
    anchor: Anchor::Op("func.func"),
    options: &[],
    create: |_| Ok(Box::new(DiagonalReorder)),
};

/// The `diagonal-reorder` pass.
pub struct DiagonalReorder;

impl Pass for DiagonalReorder {
    fn info(&self) -> &'static PassInfo {
        &INFO
    }

    fn run(&self, op: &mut PassTarget<'_>, _am: &mut AnalysisManager) -> PassResult {
        let regions = op.regions().to_vec();
        let mut b = op.builder();
        let launches = collect_ops::<GpuLaunchOp>(b.ctx(), b.body(), &regions);
        for launch in launches {
            let message = match reorder_launch(&mut b, launch) {
                Ok(m) => m,
                Err(why) => format!("diagonal reordering not applied: {why}"),
            };
            b.remark(launch.op(), message);
        }
        Ok(())
    }
}

/// Reorders the blocks of one launch; the remark, or why it was left
/// unchanged.
pub fn reorder_launch(b: &mut Builder<'_>, launch: GpuLaunchOp) -> Result<String, String> {
    let ids = LaunchIds::of(b, launch);
    let (Some(gx), Some(gy)) = (ids.grid_size[0], ids.grid_size[1]) else {
        return Err("the grid size along x or y is not a constant".into());
    };
    if gy <= 1 {
        return Err(format!(
            "the grid is 1-D ({gx}x{gy}); diagonal reordering needs a 2-D grid"
        ));
    }
    let [bx, by, _] = ids.block;
    if !b.body().has_uses(bx) && !b.body().has_uses(by) {
        return Err("the kernel does not use the block ids".into());
    }
    let (map_x, map_y) = mapping::general_maps(gx, gy);
    let entry = b
        .body()
        .regions_body(launch.op())
        .entry_block(launch.body(b))
        .ok_or("the launch has no body")?;
    let (new_x, new_y) = b.guarded(|b| {
        b.set_insertion_point_to_start(entry);
        b.set_loc_of(launch.op());
        let new_y = AffineApplyOp::build(b, &[bx, by], map_y);
        let new_x = AffineApplyOp::build(b, &[bx, by], map_x);
        (new_x, new_y)
    });
    let (nx, ny) = (new_x.result(b), new_y.result(b));
    let own = [new_x.op(), new_y.op()];
    b.replace_uses_if(bx, nx, |_, user| !own.contains(&user));
    b.replace_uses_if(by, ny, |_, user| !own.contains(&user));
    Ok(format!(
        "diagonal block reordering on a {gx}x{gy} grid: newbidy = (bidx + {gx}*bidy) mod {gy}, newbidx = \
(((bidx + {gx}*bidy) floordiv {gy}) + newbidy) mod {gx}"
    ))
}
