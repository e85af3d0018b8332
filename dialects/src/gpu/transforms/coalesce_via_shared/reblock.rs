//! The block becomes one half-warp: 16 threads along x, the threads along
//! y moved to the grid (DIGEST §004.4, property 1 after Step 3), or a
//! `T x T` square for the transposed tile of case A. Legal when
//! the kernel reads its ids only through the absolute ids `idx = bidx·bdx +
//! tidx`, `idy = bidy·bdy + tidy`, `idz = bidz` (`affine.apply` of ids and
//! constants, as `gpu-map-loops` makes them): each such apply is rewritten
//! on the new ids (`idx = 16·bidx + tidx`, `idy = bidy`; `idy = T·bidy +
//! tidy` for a square block), which keeps every thread's absolute ids and so
//! its work.

use crate::affine::AffineApplyOp;
use crate::arith::ArithConstantOp;
use crate::gpu::analysis::coalescing::HALF_WARP;
use crate::gpu::analysis::kernel_access::{linearize, LaunchIds, Term};
use crate::gpu::GpuLaunchOp;
use lf_ir::affine::{AffineExpr, AffineMap};
use lf_ir::builder::Builder;
use lf_ir::view::{Ir, OpView};
use lf_ir::OpId;

/// An `affine.apply` of ids rewritten on the new ids.
#[derive(Clone, Copy, Debug)]
pub struct IdApply {
    /// The op.
    pub op: OpId,
    /// Its value as `cx·idx + cy·idy + cz·idz + c`: `[cx, cy, cz, c]`.
    pub coefs: [i64; 4],
}

/// The re-blocking of one launch.
#[derive(Clone, Debug)]
pub struct Reblock {
    /// The block size before.
    pub old_block: [i64; 3],
    /// The grid size before.
    pub old_grid: [i64; 3],
    /// The block size after, along x and y (`[16, 1]`, or `[T, T]`).
    pub new_block: [i64; 2],
    /// The grid size after.
    pub new_grid: [i64; 3],
    /// The threads along x and y before (grid times block), when the new
    /// grid was rounded up past them (the extra threads must then be kept
    /// out of every memory access: `transpose::exclude_extra_threads`).
    pub rounded_up: Option<[i64; 2]>,
    /// The applies to rewrite.
    pub applies: Vec<IdApply>,
}

/// Whether `launch` can be re-blocked to `new_block` threads along x and
/// y, and how: `[16, 1]` needs `blockDim.x` a multiple of 16; any other
/// size needs the threads along each dimension (grid times block) to be a
/// multiple of it, or, with `round_up`, the grid is rounded up (the caller
/// keeps the extra threads out of the kernel's work).
pub fn reblock_plan<'c>(
    ir: &impl Ir<'c>,
    launch: GpuLaunchOp,
    ids: &LaunchIds,
    new_block: [i64; 2],
    round_up: bool,
) -> Result<Reblock, String> {
    let (ctx, body) = (ir.ctx(), ir.body());
    let mut block = [0i64; 3];
    let mut grid = [0i64; 3];
    for d in 0..3 {
        block[d] = ids.block_size[d].ok_or("a block size that is not a constant")?;
        grid[d] = ids.grid_size[d].ok_or("a grid size that is not a constant")?;
    }
    let (Some(tx), Some(ty)) = (grid[0].checked_mul(block[0]), grid[1].checked_mul(block[1])) else {
        return Err("the new grid size overflows".into());
    };
    let mut rounded_up = None;
    if new_block == [HALF_WARP, 1] {
        if block[0] % HALF_WARP != 0 {
            return Err(format!("blockDim.x = {} is not a multiple of 16", block[0]));
        }
    } else {
        for (d, (total, n)) in [(tx, new_block[0]), (ty, new_block[1])].into_iter().enumerate() {
            if total % n != 0 {
                if !round_up {
                    return Err(format!(
                        "the threads along {} ({total}) are not a multiple of the new block's {n}, and not every memory access of the kernel is under a bound guard without results or else block (extra threads could not be kept out)",
                        ["x", "y"][d]
                    ));
                }
                rounded_up = Some([tx, ty]);
            }
        }
    }
    let new_grid = [
        (tx + new_block[0] - 1) / new_block[0],
        (ty + new_block[1] - 1) / new_block[1],
        grid[2],
    ];
    let id_args: Vec<lf_ir::Value> = ids
        .thread
        .iter()
        .chain(&ids.block)
        .chain(&ids.block_dim)
        .chain(&ids.grid_dim)
        .copied()
        .collect();
    let mut applies: Vec<IdApply> = Vec::new();
    for &arg in &id_args {
        let users: Vec<OpId> = body.uses(arg).map(|u| body.use_owner(u)).collect();
        for user in users {
            if applies.iter().any(|a| a.op == user) {
                continue;
            }
            let Some(apply) = AffineApplyOp::cast(ir, user) else {
                return Err(format!(
                    "a thread or block id used by '{}', not through idx = bidx*bdx + tidx",
                    ctx.op_name_str(body.op_name(user))
                ));
            };
            if apply
                .map_operands(ir)
                .iter()
                .any(|v| !id_args.contains(v) && body.is_defined_inside(*v, launch.op()))
            {
                return Err("an affine.apply of ids and kernel values".into());
            }
            let l = linearize(ctx, body, ids, apply.result(ir));
            let l = l.linear().ok_or("a non-linear function of the ids")?;
            let mut coefs = [0i64; 4];
            for d in 0..3 {
                let (t, b) = (l.coef(Term::Thread(d)), l.coef(Term::Block(d)));
                coefs[d] = if block[d] == 1 {
                    b
                } else if b == block[d] * t {
                    t
                } else {
                    return Err("ids used other than as absolute ids (bidx*bdx + tidx)".into());
                };
            }
            if l.terms
                .iter()
                .any(|(t, _)| !matches!(t, Term::Thread(_) | Term::Block(_)))
            {
                return Err("an affine.apply of ids and other values".into());
            }
            coefs[3] = l.constant;
            if coefs[0].checked_mul(new_block[0]).is_none() || coefs[1].checked_mul(new_block[1]).is_none() {
                return Err("an id coefficient overflows".into());
            }
            applies.push(IdApply { op: user, coefs });
        }
    }
    Ok(Reblock {
        old_block: block,
        old_grid: grid,
        new_block,
        new_grid,
        rounded_up,
        applies,
    })
}

/// Rewrites the launch configuration and the id applies.
pub fn reblock(b: &mut Builder<'_>, launch: GpuLaunchOp, plan: &Reblock) {
    let [nx, ny] = plan.new_block;
    b.set_insertion_point_before(launch.op());
    b.set_loc_of(launch.op());
    let grid: Vec<_> = plan.new_grid.iter().map(|&n| ArithConstantOp::index(b, n)).collect();
    let block_x = ArithConstantOp::index(b, nx);
    let one = ArithConstantOp::index(b, 1);
    let block_y = if ny == 1 { one } else { ArithConstantOp::index(b, ny) };
    launch.set_sizes(b, [grid[0], grid[1], grid[2]], [block_x, block_y, one]);
    let [tx, ty, _] = launch.thread_ids(b);
    let [bidx, bidy, bidz] = launch.block_ids(b);
    let mut operands = vec![bidx, tx, bidy, bidz];
    if ny != 1 {
        // tidy is 0 in a block of one row: only a taller block reads it.
        operands.push(ty);
    }
    rewrite_id_applies(b, &plan.applies, &operands, |[cx, cy, cz, c]| {
        let expr = AffineExpr::dim(0)
            .mul_const(cx * nx)
            .add(&AffineExpr::dim(1).mul_const(cx))
            .add(&AffineExpr::dim(2).mul_const(cy * ny))
            .add(&AffineExpr::dim(3).mul_const(cz))
            .add_const(c);
        if ny != 1 {
            expr.add(&AffineExpr::dim(4).mul_const(cy))
        } else {
            expr
        }
    });
}

/// Replaces each of `applies` by an `affine.apply` of `operands` (the new
/// ids, as dimensions in order) computing `expr_of` of its coefficients
/// `[cx, cy, cz, c]` (its value was `cx·idx + cy·idy + cz·idz + c` on the
/// old ids): the one step of every re-blocking, whatever the new layout.
pub fn rewrite_id_applies(
    b: &mut Builder<'_>,
    applies: &[IdApply],
    operands: &[lf_ir::Value],
    expr_of: impl Fn([i64; 4]) -> AffineExpr,
) {
    for a in applies {
        let map = AffineMap::new(operands.len() as u32, 0, vec![expr_of(a.coefs)]);
        b.set_insertion_point_before(a.op);
        b.set_loc_of(a.op);
        let new = AffineApplyOp::build(b, operands, map).result(b);
        let old = AffineApplyOp::from_op_unchecked(a.op).result(b);
        b.replace_all_uses_with(old, new);
        b.erase_op(a.op);
    }
}
