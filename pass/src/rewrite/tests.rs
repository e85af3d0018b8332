//! Tests of the rewriter, the greedy driver and the conversion helper.

use super::*;
use lf_dialects::arith::{ArithAddiOp, ArithMuliOp, ArithSubiOp};
use lf_ir::view::OpView;
use lf_ir::{op_to_string, parse_source, Body, Context, OpId, PrintOptions, Value};

fn setup(src: &str) -> (Context, lf_ir::OwnedOp) {
    let ctx = Context::new();
    lf_dialects::register_all(&ctx);
    let m = parse_source(&ctx, src, "t.lfir").expect("parses");
    (ctx, m)
}

/// Runs `f` on the body of the first function of the module.
fn with_func<R>(m: &mut lf_ir::OwnedOp, f: impl FnOnce(&mut Body, &[lf_ir::RegionId]) -> R) -> R {
    let module = m.body.nested_body_mut(m.op).expect("module body");
    let func = module.nested_bodies_mut().next().map(|(op, _)| op).expect("a function");
    let regions = module.regions(func).to_vec();
    f(module.nested_body_mut(func).unwrap(), &regions)
}

const SRC: &str = "func.func @f(%a: i32, %b: i32) -> i32 {\n  %0 = arith.addi %a, %b : i32\n  return %0 : i32\n}\n";

/// Swaps the operands of every `arith.addi`: never reaches a fixed point.
/// (It does not notify, so the op is seen once per iteration.)
fn swap(op: OpId, rw: &mut PatternRewriter<'_>) -> bool {
    let (a, b) = (rw.body().operand(op, 0), rw.body().operand(op, 1));
    rw.body_mut().set_operands(op, &[b, a]);
    true
}

#[test]
fn non_convergence_is_reported_with_the_bound() {
    let (ctx, mut m) = setup(SRC);
    let mut set = PatternSet::new();
    set.add(FnPattern::new("swap", Some(ArithAddiOp::def()), swap));
    let frozen = set.freeze(&ctx);
    let config = GreedyConfig {
        max_iterations: 3,
        ..GreedyConfig::default()
    };
    let r = with_func(&mut m, |body, regions| {
        apply_patterns_greedily(&ctx, body, regions, &frozen, &config)
    });
    assert!(!r.converged);
    assert_eq!(r.iterations, 3);
    let d = r
        .non_convergence(&ctx, lf_ir::Location::Unknown, "canonicalizer", &config)
        .expect("a diagnostic");
    assert_eq!(
        d.to_string(),
        "t.lfir:2:8: error: canonicalizer failed to converge within 3 iterations"
    );
}

#[test]
fn rewrite_bound_stops_the_driver() {
    let (ctx, mut m) = setup(SRC);
    let mut set = PatternSet::new();
    set.add(FnPattern::new("swap", Some(ArithAddiOp::def()), swap));
    let frozen = set.freeze(&ctx);
    let config = GreedyConfig {
        max_rewrites: Some(5),
        max_iterations: 100,
        ..GreedyConfig::default()
    };
    let r = with_func(&mut m, |body, regions| {
        apply_patterns_greedily(&ctx, body, regions, &frozen, &config)
    });
    assert!(!r.converged);
    assert_eq!(r.num_rewrites, 5);
    let d = r.non_convergence(&ctx, lf_ir::Location::Unknown, "x", &config).unwrap();
    assert!(d.message.ends_with("within 5 rewrites"), "{}", d.message);
}

#[test]
fn dead_ops_are_erased_and_fixed_point_is_reported() {
    let src = "func.func @f(%a: i32) -> i32 {\n  %0 = arith.muli %a, %a : i32\n  %1 = arith.addi %0, %a : i32\n  return %a : i32\n}\n";
    let (ctx, mut m) = setup(src);
    let frozen = PatternSet::new().freeze(&ctx);
    let r = with_func(&mut m, |body, regions| {
        apply_patterns_greedily(&ctx, body, regions, &frozen, &GreedyConfig::default())
    });
    assert!(r.converged && r.changed);
    assert_eq!(r.num_dead, 2);
    let text = op_to_string(&ctx, &m.body, m.op, &PrintOptions::default());
    assert!(!text.contains("arith."), "{text}");
}

#[derive(Default)]
struct Log(Vec<String>);
impl RewriteListener for Log {
    fn op_inserted(&mut self, _: &Body, op: OpId) {
        self.0.push(format!("insert {}", op.index()));
    }
    fn op_erased(&mut self, _: &Body, op: OpId) {
        self.0.push(format!("erase {}", op.index()));
    }
    fn op_modified(&mut self, _: &Body, op: OpId) {
        self.0.push(format!("modify {}", op.index()));
    }
}

#[test]
fn rewriter_notifies_every_change() {
    let (ctx, mut m) = setup(SRC);
    let log = with_func(&mut m, |body, regions| {
        let block = body.entry_block(regions[0]).unwrap();
        let add = body.first_op(block).unwrap();
        let ret = body.next_op(add).unwrap();
        let mut log = Log::default();
        let mut rw = PatternRewriter::with_listener(&ctx, body, &mut log);
        rw.set_insertion_point_before(add);
        let a = rw.body().operand(add, 0);
        let i32t = rw.body().value_type(a);
        let _ = i32t;
        let sub = ArithSubiOp::build(&mut rw, a, a).op();
        let s = rw.body().result(sub, 0);
        rw.replace_op(add, &[s]);
        assert_eq!(rw.body().operand(ret, 0), s);
        (log.0, sub.index(), add.index(), ret.index())
    });
    let (events, sub, add, ret) = log;
    assert_eq!(
        events,
        vec![format!("insert {sub}"), format!("modify {ret}"), format!("erase {add}")]
    );
    let text = op_to_string(&ctx, &m.body, m.op, &PrintOptions::default());
    assert!(text.contains("arith.subi %arg0, %arg0"), "{text}");
    // Default-valued properties are filled in, as the parser does.
    let generic = op_to_string(
        &ctx,
        &m.body,
        m.op,
        &PrintOptions {
            generic: true,
            ..Default::default()
        },
    );
    assert!(generic.contains("overflowFlags = #arith.overflow<none>"), "{generic}");
}

#[test]
fn full_conversion_reports_the_op_it_cannot_legalize() {
    let (ctx, mut m) = setup(SRC);
    let target = ConversionTarget::new().legal_dialects(&["func"]);
    let frozen = PatternSet::new().freeze(&ctx);
    let err = with_func(&mut m, |body, regions| {
        apply_conversion(&ctx, body, regions, &target, &frozen, ConversionMode::Full)
    })
    .unwrap_err();
    assert_eq!(
        err.to_string(),
        "t.lfir:2:8: error: failed to legalize operation 'arith.addi'"
    );
    // A partial conversion leaves ops the target says nothing about.
    let n = with_func(&mut m, |body, regions| {
        apply_conversion(&ctx, body, regions, &target, &frozen, ConversionMode::Partial)
    })
    .unwrap();
    assert_eq!(n, 0);
}

#[test]
fn conversion_applies_patterns_and_legalizes_new_ops() {
    let (ctx, mut m) = setup(SRC);
    // addi -> subi -> muli: the op a pattern creates is legalized too.
    fn to_sub(op: OpId, rw: &mut PatternRewriter<'_>) -> bool {
        let ops: Vec<_> = rw.body().operands(op).collect();
        let v = ArithSubiOp::build(rw, ops[0], ops[1]).result(rw);
        rw.replace_op(op, &[v]);
        true
    }
    fn to_mul(op: OpId, rw: &mut PatternRewriter<'_>) -> bool {
        let ops: Vec<_> = rw.body().operands(op).collect();
        let v = ArithMuliOp::build(rw, ops[0], ops[1]).result(rw);
        rw.replace_op(op, &[v]);
        true
    }
    let mut set = PatternSet::new();
    set.add(FnPattern::new("a", Some(ArithAddiOp::def()), to_sub));
    set.add(FnPattern::new("b", Some(ArithSubiOp::def()), to_mul));
    let frozen = set.freeze(&ctx);
    let target = ConversionTarget::new()
        .legal_dialects(&["func", "arith"])
        .illegal_ops(&[ArithAddiOp::def(), ArithSubiOp::def()]);
    let n = with_func(&mut m, |body, regions| {
        apply_conversion(&ctx, body, regions, &target, &frozen, ConversionMode::Partial)
    })
    .unwrap();
    assert_eq!(n, 2);
    let text = op_to_string(&ctx, &m.body, m.op, &PrintOptions::default());
    assert!(text.contains("arith.muli %arg0, %arg1"), "{text}");
}

/// `arith.addi %x, %y` where `%y` is an `arith.muli`: use the muli's first
/// operand instead (in place), leaving the muli unused.
fn bypass_muli(op: OpId, rw: &mut PatternRewriter<'_>) -> bool {
    let rhs = rw.body().operand(op, 1);
    let Some(mul) = rw.body().defining_op(rhs) else {
        return false;
    };
    if !ArithMuliOp::isa(rw, mul) {
        return false;
    }
    let (lhs, inner) = (rw.body().operand(op, 0), rw.body().operand(mul, 0));
    rw.modify_in_place(op, |_, body| body.set_operands(op, &[lhs, inner]));
    true
}

#[test]
fn a_definition_left_unused_by_an_in_place_change_goes_in_the_same_iteration() {
    // The muli comes before the addi, so the top-down sweep has passed it
    // when the addi stops using it: only the dropped use brings it back.
    let src = "func.func @f(%a: i32) -> i32 {\n  %0 = arith.muli %a, %a : i32\n  %1 = arith.addi %a, %0 : i32\n  return %1 : i32\n}\n";
    let (ctx, mut m) = setup(src);
    let mut set = PatternSet::new();
    set.add(FnPattern::new("bypass", Some(ArithAddiOp::def()), bypass_muli));
    let frozen = set.freeze(&ctx);
    let r = with_func(&mut m, |body, regions| {
        apply_patterns_greedily(&ctx, body, regions, &frozen, &GreedyConfig::default())
    });
    assert!(r.converged);
    assert_eq!((r.num_rewrites, r.num_dead), (1, 1));
    // One iteration that changes, one that finds nothing left to do.
    assert_eq!(r.iterations, 2);
    let text = op_to_string(&ctx, &m.body, m.op, &PrintOptions::default());
    assert!(
        !text.contains("arith.muli") && text.contains("arith.addi %arg0, %arg0"),
        "{text}"
    );
}

#[test]
fn modify_in_place_reports_each_value_no_longer_used_once() {
    #[derive(Default)]
    struct Dropped(Vec<Value>);
    impl RewriteListener for Dropped {
        fn use_dropped(&mut self, _: &Body, v: Value) {
            self.0.push(v);
        }
    }
    let src = "func.func @f(%a: i32, %b: i32) -> i32 {\n  %0 = arith.addi %a, %a : i32\n  %1 = arith.addi %b, %0 : i32\n  return %1 : i32\n}\n";
    let (ctx, mut m) = setup(src);
    let (dropped, a, zero) = with_func(&mut m, |body, regions| {
        let block = body.entry_block(regions[0]).unwrap();
        let first = body.first_op(block).unwrap();
        let second = body.next_op(first).unwrap();
        let a = body.operand(first, 0);
        let (b, zero) = (body.operand(second, 0), body.operand(second, 1));
        let mut log = Dropped::default();
        let mut rw = PatternRewriter::with_listener(&ctx, body, &mut log);
        // %a twice -> %b twice: %a reported once; %b kept: not reported.
        rw.modify_in_place(first, |_, body| body.set_operands(first, &[b, b]));
        // (%b, %0) -> (%0, %b): same values, nothing dropped.
        rw.modify_in_place(second, |_, body| body.set_operands(second, &[zero, b]));
        (log.0, a, zero)
    });
    assert_eq!(dropped, vec![a]);
    assert_ne!(a, zero);
}
