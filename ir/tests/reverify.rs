//! Verifying again after changes: an op that passed its declaration's checks
//! is skipped only while it is unchanged. Every way of changing what those
//! checks read (an operand, a property, a value's type, a compaction that
//! renumbers the ops) must make the next verification look at it again.

use lf_ir::ods::constraints::{I64_ATTR, INDEX};
use lf_ir::ods::{ArgDef, AttrDef};
use lf_ir::{Body, Context, OpDef, OpId, OwnedOp, Value};

/// `%r = "rv.use"(%x) <{k = N : i64}> : (index) -> index`, N not 7.
static USE: OpDef = OpDef {
    operands: &[ArgDef::one("x", &INDEX)],
    results: &[ArgDef::one("r", &INDEX)],
    attributes: &[AttrDef::required("k", &I64_ATTR)],
    verify_local: Some(k_is_not_seven),
    ..OpDef::declared("rv.use")
};

thread_local! {
    /// How many times this thread ran `rv.use`'s local verifier.
    static LOCAL_CHECKS: std::cell::Cell<usize> = const { std::cell::Cell::new(0) };
}

/// `rv.use`'s `verify_local`: reads only its property.
fn k_is_not_seven(ctx: &Context, body: &Body, op: OpId) -> Result<(), lf_ir::diag::Diagnostic> {
    LOCAL_CHECKS.set(LOCAL_CHECKS.get() + 1);
    let k = lf_ir::ods::prop(ctx, body, op, "k").map(|a| ctx.attr_data(a).clone());
    match k {
        Some(lf_ir::attrs::AttrData::Integer { value: 7, .. }) => Err(lf_ir::diag::Diagnostic::error(
            body.op_loc(op).source_pos(ctx),
            "'rv.use' op k must not be 7".to_string(),
        )),
        _ => Ok(()),
    }
}

const SRC: &str = r#""builtin.module"() ({
  %0 = "test.def"() : () -> index
  %1 = "test.def"() : () -> f32
  %2 = "rv.use"(%0) <{k = 1 : i64}> : (index) -> index
  %3 = "rv.use"(%2) <{k = 2 : i64}> : (index) -> index
  %4 = "rv.use"(%0) <{k = 3 : i64}> : (index) -> index
}) : () -> ()
"#;

fn context() -> Context {
    let ctx = Context::new();
    ctx.register_op(&USE);
    ctx.set_allow_unregistered_dialects(true);
    ctx
}

fn parse(ctx: &Context) -> OwnedOp {
    let owned = lf_ir::parse_source(ctx, SRC, "in.mlir").expect("parses");
    verify(ctx, &owned).expect("valid at first");
    owned
}

fn verify(ctx: &Context, owned: &OwnedOp) -> Result<(), String> {
    lf_ir::verify(ctx, &owned.body, owned.op).map_err(|d| d.message.clone())
}

/// Verification fails with a message holding `expected`.
fn assert_fails(ctx: &Context, owned: &OwnedOp, why: &str, expected: &str) {
    let err = verify(ctx, owned).expect_err(why);
    assert!(err.contains(expected), "{why}: {err}");
}

/// The module's body and its ops in order.
fn module(owned: &mut OwnedOp) -> (&mut Body, Vec<OpId>) {
    let body = owned.body.nested_body_mut(owned.op).expect("a module has a body");
    let block = body.region_blocks(body_region(body)).next().expect("one block");
    let ops = body.block_ops(block).collect();
    (body, ops)
}

fn body_region(body: &Body) -> lf_ir::RegionId {
    let op = body.live_ops().next().expect("an op");
    let block = body.op_block(op).expect("in a block");
    body.block_region(block).expect("in a region")
}

fn result(body: &Body, op: OpId) -> Value {
    body.result(op, 0)
}

#[test]
fn a_replaced_operand_is_checked_again() {
    let ctx = context();
    let mut owned = parse(&ctx);
    let (body, ops) = module(&mut owned);
    let (f32_value, user) = (result(body, ops[1]), ops[3]);
    body.set_operand(user, 0, f32_value);
    assert_fails(&ctx, &owned, "an f32 operand", "operand #0 must be index");
    let (body, ops) = module(&mut owned);
    let good = result(body, ops[2]);
    body.set_operand(ops[3], 0, good);
    verify(&ctx, &owned).expect("valid again");
}

#[test]
fn replaced_uses_are_checked_again() {
    let ctx = context();
    let mut owned = parse(&ctx);
    let (body, ops) = module(&mut owned);
    let (index_value, f32_value) = (result(body, ops[0]), result(body, ops[1]));
    body.replace_all_uses(index_value, f32_value);
    assert_fails(&ctx, &owned, "f32 operands", "operand #0 must be index");
}

#[test]
fn changed_properties_are_checked_again() {
    let ctx = context();
    let mut owned = parse(&ctx);
    let (body, ops) = module(&mut owned);
    let k = ctx.intern("k");
    let wrong = ctx.dict_attr(vec![(k, ctx.string_attr("one"))]);
    body.set_op_props(ops[4], Some(wrong));
    assert_fails(&ctx, &owned, "a string property", "'k'");
}

#[test]
fn a_changed_value_type_rechecks_its_definition_and_its_users() {
    let ctx = context();
    let mut owned = parse(&ctx);
    let (body, ops) = module(&mut owned);
    // %2's type: its definition's result and %3's operand.
    let v = result(body, ops[2]);
    let f32_type = body.value_type(result(body, ops[1]));
    body.set_value_type(v, f32_type);
    assert_fails(&ctx, &owned, "an f32 result and operand", "must be index");
    // Back to index: both are checked again, and pass.
    let (body, ops) = module(&mut owned);
    let index_type = body.value_type(result(body, ops[0]));
    body.set_value_type(v, index_type);
    verify(&ctx, &owned).expect("valid again");
}

#[test]
fn compacted_bodies_keep_each_op_its_own_mark() {
    let ctx = context();
    let mut owned = parse(&ctx);
    let (body, ops) = module(&mut owned);
    // Erase %4 and %3 (the last users first), then compact: %2 keeps its
    // place in order but not necessarily its id.
    body.erase_op(ops[4]);
    body.erase_op(ops[3]);
    body.compact();
    verify(&ctx, &owned).expect("still valid");
    let (body, ops) = module(&mut owned);
    assert_eq!(ops.len(), 3);
    let f32_value = result(body, ops[1]);
    body.set_operand(ops[2], 0, f32_value);
    assert_fails(
        &ctx,
        &owned,
        "an f32 operand after compaction",
        "operand #0 must be index",
    );
}

/// An op changed before a compaction that gives it the id of an op that
/// passed is still checked.
#[test]
fn an_op_changed_before_a_compaction_is_checked_after_it() {
    let ctx = context();
    let mut owned = parse(&ctx);
    let (body, ops) = module(&mut owned);
    // %4 becomes wrong, then %3 (one id lower, passed) goes: compacting
    // moves %4 down to %3's id.
    let f32_value = result(body, ops[1]);
    body.set_operand(ops[4], 0, f32_value);
    body.erase_op(ops[3]);
    body.compact();
    assert_fails(&ctx, &owned, "%4's operand is an f32", "operand #0 must be index");
}

#[test]
fn a_new_registration_forgets_what_was_verified() {
    /// `rv.use` declared again, now wanting an f32 operand.
    static USE_F32: OpDef = OpDef {
        operands: &[ArgDef::one("x", &lf_ir::ods::constraints::ANY_FLOAT)],
        results: &[ArgDef::one("r", &INDEX)],
        attributes: &[AttrDef::required("k", &I64_ATTR)],
        ..OpDef::declared("rv.use")
    };
    let ctx = context();
    let owned = parse(&ctx);
    let before = ctx.verify_epoch();
    ctx.register_op(&USE_F32);
    assert_ne!(ctx.verify_epoch(), before);
    assert_fails(
        &ctx,
        &owned,
        "index operands, now wrong",
        "operand #0 must be floating-point",
    );
}

/// The local verifier runs with the declared checks: once for each op
/// (verification on the same thread, as the module's own ops are), not
/// again while the op is unchanged, and again once it changed.
#[test]
fn the_local_verifier_is_remembered_with_the_declared_checks() {
    let ctx = context();
    LOCAL_CHECKS.set(0);
    let mut owned = parse(&ctx);
    // Three `rv.use` ops with distinct properties: three checks.
    assert_eq!(LOCAL_CHECKS.get(), 3);
    verify(&ctx, &owned).expect("still valid");
    assert_eq!(LOCAL_CHECKS.get(), 3, "unchanged ops are not checked again");
    let (body, ops) = module(&mut owned);
    let k = ctx.intern("k");
    let seven = ctx.dict_attr(vec![(k, ctx.integer_attr(7, ctx.integer_type(64)))]);
    body.set_op_props(ops[4], Some(seven));
    assert_fails(&ctx, &owned, "k = 7", "k must not be 7");
    assert_eq!(LOCAL_CHECKS.get(), 4, "only the changed op is checked");
    let (body, ops) = module(&mut owned);
    let five = ctx.dict_attr(vec![(k, ctx.integer_attr(5, ctx.integer_type(64)))]);
    body.set_op_props(ops[4], Some(five));
    verify(&ctx, &owned).expect("valid again");
    assert_eq!(LOCAL_CHECKS.get(), 5);
}

/// A copy of an op that passed (`clone_op`) keeps its original's mark only
/// while its operands have the original's operand types: a copy whose
/// operand maps to a value of another type is checked, and fails. (That
/// the valid copy is not checked again shows in instruction counts only:
/// the thread's memory of the ops that passed lately spares it too.)
#[test]
fn clones_keep_the_result_only_with_the_same_operand_types() {
    let ctx = context();
    let mut owned = parse(&ctx);
    let (body, ops) = module(&mut owned);
    let block = body.op_block(ops[2]).expect("in a block");
    // A copy of `%2 = rv.use(%0)` using `%4` (index).
    let mut map = lf_ir::clone::ValueMap::default();
    map.map(result(body, ops[0]), result(body, ops[4]));
    let copy = lf_ir::clone::clone_op(body, ops[2], &mut map);
    body.append_op(block, copy);
    verify(&ctx, &owned).expect("a copy with the same operand types is valid");
    // A copy using `%1` (f32): checked, and the declared check fails.
    let (body, ops) = module(&mut owned);
    let mut map = lf_ir::clone::ValueMap::default();
    map.map(result(body, ops[0]), result(body, ops[1]));
    let copy = lf_ir::clone::clone_op(body, ops[2], &mut map);
    body.append_op(block, copy);
    assert_fails(&ctx, &owned, "a copy with an f32 operand", "operand #0 must be index");
}
