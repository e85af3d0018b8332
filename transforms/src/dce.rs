//! `dce`: dead code elimination of trivially dead operations.

use lf_ir::{BlockId, Body, Context, OpId, RegionId};
use lf_pass::analysis::AnalysisManager;
use lf_pass::pass::{Anchor, Pass, PassInfo, PassResult, PassTarget};

/// Registration of `dce`.
pub static INFO: PassInfo = PassInfo {
    name: "dce",
    summary: "Erase operations whose results are unused and that have no side effects",
    description: "Erases trivially dead operations: no result is used, the operation is not a terminator \
or a symbol, and it has no side effects other than reading memory or allocating (pure, a load, an allocation, or a \
loop or `scf.if` whose nested operations are all of these). Each block is swept from its end, nested regions first, so chains of \
dead operations go in one run. Functions nested in the op the pass runs on are processed too. \
Blocks and their arguments are kept.\n\nStatistic: `num-erased`.",
    anchor: Anchor::Any,
    options: &[],
    create: |_| Ok(Box::new(Dce)),
};

/// The `dce` pass.
pub struct Dce;

impl Pass for Dce {
    fn info(&self) -> &'static PassInfo {
        &INFO
    }

    fn run(&self, op: &mut PassTarget<'_>, am: &mut AnalysisManager) -> PassResult {
        let regions = op.regions().to_vec();
        let (ctx, body) = op.parts();
        let n = dce_body(ctx, body, &regions);
        op.add_statistic("num-erased", "Number of operations erased", n);
        if n == 0 {
            am.preserve_all();
        } else {
            am.preserve::<lf_pass::DominanceInfo>();
        }
        Ok(())
    }
}

/// Erases the trivially dead ops of the regions `roots` of `body` (and of
/// the bodies nested in it); returns how many were erased.
pub fn dce_body(ctx: &Context, body: &mut Body, roots: &[RegionId]) -> u64 {
    let mut n = 0;
    for &r in roots {
        n += dce_region(ctx, body, r);
    }
    let nested: Vec<(OpId, Vec<RegionId>)> = body
        .nested_bodies_mut()
        .map(|(op, _)| op)
        .collect::<Vec<_>>()
        .into_iter()
        .map(|op| (op, body.regions(op).to_vec()))
        .collect();
    for (op, regions) in nested {
        if let Some(nb) = body.nested_body_mut(op) {
            n += dce_body(ctx, nb, &regions);
        }
    }
    n
}

fn dce_region(ctx: &Context, body: &mut Body, r: RegionId) -> u64 {
    let blocks: Vec<BlockId> = body.region_blocks(r).collect();
    let mut n = 0;
    // Later blocks use values of earlier ones: sweep them last to first.
    for b in blocks.into_iter().rev() {
        let mut cur = body.last_op(b);
        while let Some(op) = cur {
            cur = body.prev_op(op);
            if body.nested_body(op).is_none() {
                for sub in body.regions(op).to_vec() {
                    n += dce_region(ctx, body, sub);
                }
            }
            if lf_pass::rewrite::effects::is_trivially_dead(ctx, body, op) {
                body.erase_op(op);
                n += 1;
            }
        }
    }
    n
}
