//! `tutorial-strip-mine`: a loop of step `s` becomes a loop of step `s * factor` around one of step `s`.
use lf_dialects::affine::{AffineBound, AffineForOp};
use lf_ir::{
    affine::AffineExpr, affine::AffineMap, builder::Builder, view::collect_ops, view::OpView, view::ValueList,
};
use lf_pass::{AnalysisManager, Anchor, OptionKind, Pass, PassInfo, PassOption, PassResult, PassTarget};

pub static INFO: PassInfo = PassInfo {
    name: "tutorial-strip-mine",
    summary: "Strip-mine affine.for loops by a factor (the tutorial's loop pass)",
    description: "`for %i = lb to ub step s {B}` -> `for %i = lb to ub step s*f { for %ii = %i to min(%i + s*f, ub) step s {B} }`",
    anchor: Anchor::Op("func.func"),
    options: &[PassOption { name: "factor", kind: OptionKind::Int, default: "4", help: "Iterations per strip" }],
    create: |opts| Ok(Box::new(StripMine(opts.int("factor")))),
};
struct StripMine(i64);
impl Pass for StripMine {
    fn info(&self) -> &'static PassInfo {
        &INFO
    }
    fn run(&self, op: &mut PassTarget<'_>, _: &mut AnalysisManager) -> PassResult {
        let (regions, mut b) = (op.regions().to_vec(), op.builder());
        for outer in collect_ops::<AffineForOp>(b.ctx(), b.body(), &regions) {
            match outer.inits(&b).as_slice() {
                [] => drop(strip_mine(&mut b, outer, self.0)),
                _ => b.remark(outer.op(), "not strip-mined: the loop carries values (iter_args)"),
            }
        }
        Ok(())
    }
}

/// Strip-mines `outer` in place; returns the new inner loop.
pub fn strip_mine(b: &mut Builder<'_>, outer: AffineForOp, factor: i64) -> AffineForOp {
    let (step, ub, iv) = (outer.step(b), outer.upper_bound(b), outer.iv(b));
    outer.set_step(b, step * factor);
    let results = [&[AffineExpr::dim(0).add_const(step * factor)], ub.map.shift_dims(1, 0).results()].concat();
    let inner_ub = AffineMap::new(ub.map.num_dims() + 1, ub.map.num_symbols(), results); // min(%i + s*f, ub)
    let inner_ub = AffineBound::map(inner_ub, &[&[iv][..], &ub.operands].concat());
    let first = b.body().first_op(outer.region_block(b)).expect("the body ends with affine.yield");
    b.set_insertion_point_before(first);
    let inner = AffineForOp::build(b, AffineBound::value(iv), inner_ub, step, &[], |_, _, _| ValueList::new());
    b.set_insertion_point_before(inner.yield_op(b).op());
    b.splice_rest_of_block(first, true); // the old body, less its affine.yield, moves into the inner loop
    b.replace_all_uses_except(iv, inner.iv(b), inner.op()); // the body now reads the inner loop's variable
    inner
}
