//! `affine-loop-strip-mine{factor=F depth=D}` (lf's own pass, MLIR has the
//! utility only): strip-mines the loop at depth `D` of the outermost
//! perfect band of every loop nest at the top of a function by `F`, with
//! the bounds `affine-loop-tile` gives a tiled loop
//! ([`crate::affine::utils::tiling::strip_mine`]).

use crate::affine::utils::loop_bands::top_level_bands;
use crate::affine::utils::tiling::strip_mine;
use crate::affine::AffineForOp;
use lf_ir::view::OpView;
use lf_pass::pass::{Anchor, OptionKind, Pass, PassInfo, PassOption, PassOptions, PassResult, PassTarget};
use lf_pass::AnalysisManager;

/// The registration record of `affine-loop-strip-mine`.
pub static INFO: PassInfo = PassInfo {
    name: "affine-loop-strip-mine",
    summary: "Strip-mine one loop of each outermost perfect affine loop band",
    description: "For every `affine.for` at the top level of the function, takes its maximal perfect \
band (the loop, the loop that is alone in its body, and so on) and strip-mines the loop at \
`depth` (0: the outermost) by `factor`: `affine.for %i = lb to ub step s { B }` becomes \
`affine.for %i = lb to ub step s*factor { affine.for %ii = %i to UB step s { B[%ii/%i] } }`, \
where `UB` is `%i + factor*s` when `factor` divides the trip count, `%i + tc*s` when the \
constant trip count `tc` is smaller than `factor`, and `min(%i + factor*s, ub)` otherwise: \
exactly what `affine-loop-tile` does to a band of one loop (the strip-mining it is made of): \
on a band of one loop at depth 0 the output is `affine-loop-tile{tile-size=factor}`'s. The \
loop keeps its operation (and location); the new loop takes the same location. Only the \
loops at the top level of the function start bands, as for `affine-loop-tile`. The order of \
iterations does not change, so the transformation is always legal. Bands with `depth` loops \
or fewer are left alone (no remark); a loop that carries values (`iter_args`), or whose step \
times `factor` overflows, is left alone with a remark. `factor` must be at least 1 (1 adds \
a one-iteration inner loop); anything else is an error naming the option.",
    anchor: Anchor::Op("func.func"),
    options: &[
        PassOption {
            name: "factor",
            kind: OptionKind::Int,
            default: "4",
            help: "Strip-mining factor: iterations of the original loop per strip",
        },
        PassOption {
            name: "depth",
            kind: OptionKind::UInt,
            default: "0",
            help: "Depth, in the outermost perfect band, of the loop to strip-mine (0: outermost)",
        },
    ],
    create,
};

fn create(opts: &PassOptions) -> Result<Box<dyn Pass>, String> {
    let factor = opts.int("factor");
    if factor < 1 {
        return Err(format!(
            "factor: the strip-mining factor must be at least 1, found {factor}"
        ));
    }
    Ok(Box::new(AffineLoopStripMine {
        factor: factor as u64,
        depth: opts.int("depth") as usize,
    }))
}

/// The `affine-loop-strip-mine` pass.
pub struct AffineLoopStripMine {
    /// Iterations per strip.
    pub factor: u64,
    /// Which loop of the band (0: outermost).
    pub depth: usize,
}

impl Pass for AffineLoopStripMine {
    fn info(&self) -> &'static PassInfo {
        &INFO
    }

    fn run(&self, op: &mut PassTarget<'_>, am: &mut AnalysisManager) -> PassResult {
        let regions = op.regions().to_vec();
        let targets: Vec<AffineForOp> = {
            let ir = (op.ctx(), op.body());
            top_level_bands(&ir, &regions)
                .into_iter()
                .filter_map(|band| band.get(self.depth).copied())
                .collect()
        };
        let mut done = 0u64;
        {
            let mut b = op.builder();
            for l in targets {
                if !l.inits(&b).is_empty() {
                    b.remark(l.op(), "not strip-mined: the loop carries values (iter_args)");
                    continue;
                }
                match strip_mine(&mut b, l, self.factor) {
                    Some(_) => done += 1,
                    None => b.remark(
                        l.op(),
                        "not strip-mined: the factor times the loop's step overflows 64 bits",
                    ),
                }
            }
        }
        op.add_statistic("num-strip-mined", "Loops strip-mined", done);
        if done == 0 {
            am.preserve_all();
        }
        Ok(())
    }
}
