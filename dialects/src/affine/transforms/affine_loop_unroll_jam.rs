//! `affine-loop-unroll-jam`: unroll-and-jam of the first loop nest of a
//! function, as `mlir-opt --affine-loop-unroll-jam` does (MLIR's
//! `LoopUnrollAndJam.cpp`; the utility is
//! [`crate::affine::utils::loop_unroll_jam`]), declining where a dependence
//! would be reversed.

use crate::affine::analysis::DependenceAnalysis;
use crate::affine::utils::loop_unroll_jam::loop_unroll_jam_by_factor;
use crate::affine::AffineForOp;
use lf_ir::view::OpView;
use lf_pass::pass::{Anchor, OptionKind, Pass, PassInfo, PassOption, PassOptions, PassResult, PassTarget};
use lf_pass::AnalysisManager;

/// The registration record of `affine-loop-unroll-jam`.
pub static INFO: PassInfo = PassInfo {
    name: "affine-loop-unroll-jam",
    summary: "Unroll and jam affine loops",
    description: "Unroll-and-jams the outermost loop of the function's first loop nest (the first \
op of the entry block, when it is an `affine.for`) by `unroll-jam-factor`, as `mlir-opt \
--affine-loop-unroll-jam` does; the output is mlir-opt's. The step is multiplied by the factor; \
each run of ops without an `affine.for` in the loop's body, and in the bodies of the loops nested \
in it, holds that many copies, copy `i` reading `iv + i * step`; nested loops stay single loops \
carrying a copy of their `iter_args` per copy. The iterations the factor may not divide go to a \
cleanup loop; the loop's own reductions (`iter_args` combined by `arith.addf` and the like) are \
carried per copy and combined after the loop; a loop left with one iteration is replaced by its \
body.\n\n\
Left alone, with a remark at the loop: a trip count below the factor, a nested loop whose bounds \
depend on a value defined in the loop, a trip count that may not be a multiple of the factor with \
a `max` lower bound or `min` upper bound, and (lf only, where mlir-opt 22 produces a wrong \
program) a loop-carried value that is not a reduction the copies' results can be combined with \
exactly (kept: `max`/`min` kinds, `andi`, `ori`, and `addi`/`muli` from their neutral constant; \
declined: `addf` and `mulf`, whose rounding would change, `xori`, and other carried values, \
which mlir-opt restarts in every copy), an op touching memory that is not an affine access, and \
a memory dependence between iterations less than `factor * step` apart that the jammed loop \
would reverse (decided exactly with lf's dependence analysis).",
    anchor: Anchor::Op("func.func"),
    options: &[
        PassOption {
            name: "unroll-jam-factor",
            kind: OptionKind::UInt,
            default: "4",
            help: "Use this unroll jam factor for all loops (default 4)",
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
    let factor = opts.int("unroll-jam-factor");
    if factor > i64::from(u32::MAX) {
        return Err(format!(
            "unroll-jam-factor: {factor} does not fit an unsigned 32-bit integer"
        ));
    }
    if factor == 0 {
        return Err("unroll-jam-factor: the factor must be positive".into());
    }
    Ok(Box::new(AffineLoopUnrollJam {
        factor: factor as u64,
        assume_nonnegative: opts.bool("assume-nonnegative-trip-count"),
    }))
}

/// The `affine-loop-unroll-jam` pass.
pub struct AffineLoopUnrollJam {
    /// The unroll-jam factor.
    pub factor: u64,
    /// Cleanup loops start at MLIR's bound (see
    /// [`crate::affine::utils::loop_unroll::generate_cleanup_loop`]).
    pub assume_nonnegative: bool,
}

impl Pass for AffineLoopUnrollJam {
    fn info(&self) -> &'static PassInfo {
        &INFO
    }

    fn run(&self, op: &mut PassTarget<'_>, am: &mut AnalysisManager) -> PassResult {
        let regions = op.regions().to_vec();
        let first = regions.first().and_then(|&r| {
            let body = op.body();
            body.entry_block(r).and_then(|b| body.first_op(b))
        });
        let Some(for_op) = first.and_then(|o| AffineForOp::cast(&(op.ctx(), op.body()), o)) else {
            am.preserve_all();
            return Ok(());
        };
        let deps = am.get::<DependenceAnalysis>(op);
        let mut b = op.builder();
        if let Err(why) =
            loop_unroll_jam_by_factor(&mut b, for_op, self.factor, &deps.accesses, self.assume_nonnegative)
        {
            b.remark(for_op.op(), why);
            am.preserve_all();
        }
        Ok(())
    }
}
