//! `Body::set_operands`: the op's operands and every value's use list are
//! exact after replacing an op's operands with a shorter, an equally long
//! and a longer list (a shorter or equal list reuses the op's use slots).

use lf_ir::{Body, Context, Location, OpId, OperationState, Value};

/// The ops using `v`, sorted, once per use.
fn users(body: &Body, v: Value) -> Vec<OpId> {
    let mut ops: Vec<OpId> = body.uses(v).map(|u| body.use_owner(u)).collect();
    ops.sort();
    ops
}

#[test]
fn use_lists_follow_operand_replacement() {
    let ctx = Context::new();
    let i32t = ctx.common().i32;
    let mut body = Body::default();
    let block = body.create_block();
    let [a, b, c] = [0, 1, 2].map(|_| body.add_block_arg(block, i32t, Location::Unknown));
    let make = |body: &mut Body, operands: &[Value]| {
        let mut st = OperationState::new(ctx.op_name("test.op"), Location::Unknown);
        st.operands = operands.to_vec();
        let op = body.create_op(st);
        body.append_op(block, op);
        op
    };
    let x = make(&mut body, &[a, b, c]);
    let y = make(&mut body, &[b, a]);

    // Shorter: `c` loses its only use, `b` keeps y's.
    body.set_operands(x, &[b]);
    assert_eq!(body.operands(x).collect::<Vec<_>>(), [b]);
    assert_eq!(users(&body, a), [y]);
    assert_eq!(users(&body, b), [x, y]);
    assert!(users(&body, c).is_empty());

    // As long, with a repeated value.
    body.set_operands(x, &[c]);
    body.set_operands(y, &[c, c]);
    assert_eq!(body.operands(y).collect::<Vec<_>>(), [c, c]);
    assert!(users(&body, a).is_empty() && users(&body, b).is_empty());
    assert_eq!(users(&body, c), [x, y, y]);

    // Longer than ever, then empty.
    body.set_operands(x, &[a, b, c, a]);
    assert_eq!(body.operands(x).collect::<Vec<_>>(), [a, b, c, a]);
    assert_eq!(users(&body, a), [x, x]);
    assert_eq!(users(&body, c), [x, y, y]);
    body.set_operands(y, &[]);
    assert_eq!(body.num_operands(y), 0);
    assert_eq!(users(&body, c), [x]);
    assert_eq!(users(&body, b), [x]);
}
