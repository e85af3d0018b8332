//! `affine-loop-unroll`: unrolls the innermost `affine.for` loops of a
//! function, as `mlir-opt --affine-loop-unroll` does (MLIR's
//! `LoopUnroll.cpp`; the utilities are in [`crate::affine::utils::loop_unroll`]).

use crate::affine::utils::loop_unroll::{loop_unroll_by_factor, loop_unroll_full, loop_unroll_up_to_factor, Declined};
use crate::affine::utils::trip_count_bound::constant_trip_count;
use crate::affine::AffineForOp;
use lf_ir::builder::Builder;
use lf_ir::view::OpView;
use lf_ir::walk::{walk_regions, WalkControl, WalkOrder};
use lf_ir::{Body, Context, OpId, RegionId};
use lf_pass::pass::{Anchor, OptionKind, Pass, PassInfo, PassOption, PassOptions, PassResult, PassTarget};
use lf_pass::AnalysisManager;

/// The registration record of `affine-loop-unroll`.
pub static INFO: PassInfo = PassInfo {
    name: "affine-loop-unroll",
    summary: "Unroll affine loops",
    description: "Unrolls every innermost `affine.for` (one with no `affine.for` inside) by \
`unroll-factor`, as `mlir-opt --affine-loop-unroll` does; the output is mlir-opt's. The step is \
multiplied by the factor and the body holds that many copies, copy `i` reading `iv + i * step` \
(an `affine.apply`) and the values the previous copy yields (`iter_args`). When the factor may \
not divide the trip count, the last iterations go to a cleanup loop after it (same body, lower \
bound `lb + (tc - tc mod factor) * step` for the trip count `tc`, which may be symbolic); a loop \
or cleanup loop left with one iteration is replaced by its body. With `unroll-up-to-factor`, a \
loop with a smaller constant trip count is unrolled fully; with `cleanup-unroll`, a loop that would \
need a cleanup loop is unrolled fully instead when its trip count is constant. `unroll-factor=-1` \
unrolls every innermost loop with a constant trip count fully; with `unroll-full-threshold` too, \
every loop (inner loops first) whose constant trip count is at most the threshold. \
`unroll-num-reps` repeats the innermost-loop unrolling (the loops innermost after each round).\n\n\
Left alone, with a remark at the loop: a loop whose constant trip count is below the factor \
(without `cleanup-unroll`), a loop whose trip count may not be a multiple of the factor and \
whose lower bound is a `max` or upper bound a `min` (no affine cleanup bound), and for full \
unrolling a loop without a constant trip count. Unrolling is always legal: the copies run in \
the original order.",
    anchor: Anchor::Op("func.func"),
    options: &[
        PassOption {
            name: "unroll-factor",
            kind: OptionKind::Int,
            default: "4",
            help: "Use this unroll factor for all loops being unrolled, set it to -1, and it will fully unroll.",
        },
        PassOption {
            name: "unroll-up-to-factor",
            kind: OptionKind::Bool,
            default: "false",
            help: "Allow unrolling up to the factor specified",
        },
        PassOption {
            name: "unroll-num-reps",
            kind: OptionKind::UInt,
            default: "1",
            help: "Unroll innermost loops repeatedly this many times",
        },
        PassOption {
            name: "unroll-full-threshold",
            kind: OptionKind::UInt,
            default: "1",
            help: "Unroll all loops with trip count less than or equal to this",
        },
        PassOption {
            name: "cleanup-unroll",
            kind: OptionKind::Bool,
            default: "false",
            help: "Fully unroll the cleanup loop when possible.",
        },
        PassOption {
            name: "assume-nonnegative-trip-count",
            kind: OptionKind::Bool,
            default: "false",
            help: "Start cleanup loops at MLIR's bound, which is wrong when a symbolic upper bound is below the lower bound (lf only; default: never below the loop's lower bound)",
        },
    ],
    create,
};

fn create(opts: &PassOptions) -> Result<Box<dyn Pass>, String> {
    let factor = opts.int("unroll-factor");
    if !(factor > 0 || factor == -1) {
        return Err("Invalid option: 'unroll-factor' should be greater than 0 or equal to -1".into());
    }
    for name in ["unroll-num-reps", "unroll-full-threshold"] {
        let v = opts.int(name);
        if v > i64::from(u32::MAX) {
            return Err(format!("{name}: {v} does not fit an unsigned 32-bit integer"));
        }
    }
    Ok(Box::new(AffineLoopUnroll {
        factor: (factor > 0).then_some(factor as u64),
        up_to_factor: opts.bool("unroll-up-to-factor"),
        num_reps: opts.int("unroll-num-reps") as u64,
        full_threshold: opts
            .is_explicit("unroll-full-threshold")
            .then(|| opts.int("unroll-full-threshold") as u64),
        cleanup_unroll: opts.bool("cleanup-unroll"),
        assume_nonnegative: opts.bool("assume-nonnegative-trip-count"),
    }))
}

/// The `affine-loop-unroll` pass.
pub struct AffineLoopUnroll {
    /// The unroll factor; `None` unrolls fully (`unroll-factor=-1`).
    pub factor: Option<u64>,
    /// Unroll a loop with a smaller constant trip count by that count.
    pub up_to_factor: bool,
    /// How many rounds of innermost-loop unrolling.
    pub num_reps: u64,
    /// With full unrolling, unroll every loop (not only innermost ones)
    /// whose constant trip count is at most this (MLIR: only when the
    /// option is given).
    pub full_threshold: Option<u64>,
    /// Unroll a loop fully instead of making a cleanup loop.
    pub cleanup_unroll: bool,
    /// Cleanup loops start at MLIR's bound (see
    /// [`crate::affine::utils::loop_unroll::generate_cleanup_loop`]).
    pub assume_nonnegative: bool,
}

impl AffineLoopUnroll {
    /// Unrolls one loop as the options say (MLIR's `runOnAffineForOp`).
    fn unroll(&self, b: &mut Builder<'_>, for_op: AffineForOp) -> Result<(), Declined> {
        match self.factor {
            None => loop_unroll_full(b, for_op),
            Some(f) if self.up_to_factor => loop_unroll_up_to_factor(b, for_op, f, self.assume_nonnegative),
            Some(f) => loop_unroll_by_factor(b, for_op, f, self.cleanup_unroll, self.assume_nonnegative),
        }
    }
}

impl Pass for AffineLoopUnroll {
    fn info(&self) -> &'static PassInfo {
        &INFO
    }

    fn run(&self, op: &mut PassTarget<'_>, am: &mut AnalysisManager) -> PassResult {
        let regions = op.regions().to_vec();
        let mut b = op.builder();
        let mut declined: Vec<(OpId, Declined)> = Vec::new();
        let mut unrolled_any = false;
        if let (None, Some(threshold)) = (self.factor, self.full_threshold) {
            let loops = short_loops(b.ctx(), b.body(), &regions, threshold);
            for l in loops {
                match loop_unroll_full(&mut b, l) {
                    Ok(()) => unrolled_any = true,
                    Err(why) => declined.push((l.op(), why)),
                }
            }
        } else {
            for _ in 0..self.num_reps {
                let loops = innermost_loops(b.ctx(), b.body(), &regions);
                if loops.is_empty() {
                    break;
                }
                let mut unrolled = false;
                for l in loops {
                    match self.unroll(&mut b, l) {
                        Ok(()) => unrolled = true,
                        Err(why) => declined.push((l.op(), why)),
                    }
                }
                unrolled_any |= unrolled;
                if !unrolled {
                    break;
                }
            }
        }
        let mut seen = rustc_hash::FxHashSet::default();
        for (at, why) in declined {
            if !b.body().is_erased(at) && seen.insert(at) {
                b.remark(at, why);
            }
        }
        if !unrolled_any {
            am.preserve_all();
        }
        Ok(())
    }
}

/// The `affine.for` ops with no `affine.for` inside, in post-order (MLIR's
/// `gatherInnermostLoops`), in one walk: each loop marks the loops around
/// it as not innermost.
pub fn innermost_loops(ctx: &Context, body: &Body, regions: &[RegionId]) -> Vec<AffineForOp> {
    let mut loops = Vec::new();
    let mut outer: rustc_hash::FxHashSet<OpId> = rustc_hash::FxHashSet::default();
    walk_regions(body, regions, WalkOrder::PostOrder, &mut |b, op| {
        if !std::ptr::eq(b, body) {
            return WalkControl::Skip;
        }
        if let Some(f) = AffineForOp::cast(&(ctx, b), op) {
            loops.push(f);
            let mut cur = body.parent_op(op);
            while let Some(p) = cur {
                if AffineForOp::isa(&(ctx, b), p) && !outer.insert(p) {
                    break;
                }
                cur = body.parent_op(p);
            }
        }
        WalkControl::Advance
    });
    loops.retain(|l| !outer.contains(&l.op()));
    loops
}

/// The `affine.for` ops whose constant trip count is at most `threshold`,
/// in post-order (inner loops first).
fn short_loops(ctx: &Context, body: &Body, regions: &[RegionId], threshold: u64) -> Vec<AffineForOp> {
    let mut out = Vec::new();
    walk_regions(body, regions, WalkOrder::PostOrder, &mut |b, op| {
        if !std::ptr::eq(b, body) {
            return WalkControl::Skip;
        }
        if let Some(f) = AffineForOp::cast(&(ctx, b), op) {
            if constant_trip_count(&(ctx, body), f).is_some_and(|tc| tc <= threshold) {
                out.push(f);
            }
        }
        WalkControl::Advance
    });
    out
}
