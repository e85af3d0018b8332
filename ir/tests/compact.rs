//! `Body::compact`: after ops are erased and operand lists move, compacting
//! keeps the IR (ops in program order, operands, results, use lists, nested
//! regions) and leaves only live op records, numbered densely in their old
//! order.

use lf_ir::{BlockId, Body, Context, Location, OpId, OperationState, RegionId, Value};

/// One op as seen in program order: name, operands, results, and for each
/// result the program-order positions of its users (sorted, once per use).
type OpView = (String, Vec<Value>, Vec<Value>, Vec<Vec<usize>>);

/// The ops of `region`, nested regions included, in program order.
fn program_order(body: &Body, region: RegionId, out: &mut Vec<OpId>) {
    for b in body.region_blocks(region) {
        for op in body.block_ops(b) {
            out.push(op);
            for &r in body.regions(op) {
                program_order(body, r, out);
            }
        }
    }
}

/// What a user of the IR can observe, independent of op ids.
fn view(ctx: &Context, body: &Body, region: RegionId) -> Vec<OpView> {
    let mut ops = Vec::new();
    program_order(body, region, &mut ops);
    let position = |op: OpId| ops.iter().position(|&o| o == op).expect("a user in the region");
    ops.iter()
        .map(|&op| {
            let users = body
                .results(op)
                .map(|r| {
                    let mut u: Vec<usize> = body.uses(r).map(|u| position(body.use_owner(u))).collect();
                    u.sort();
                    u
                })
                .collect();
            (
                ctx.op_name_str(body.op_name(op)).to_string(),
                body.operands(op).collect(),
                body.results(op).collect(),
                users,
            )
        })
        .collect()
}

/// Creates `name` with `operands` and one `i32` result (and `regions`) at
/// the end of `block`.
fn append(
    ctx: &Context,
    body: &mut Body,
    block: BlockId,
    name: &str,
    operands: &[Value],
    regions: Vec<RegionId>,
) -> OpId {
    let mut st = OperationState::new(ctx.op_name(name), Location::Unknown);
    st.operands = operands.to_vec();
    st.result_types = vec![ctx.common().i32];
    st.regions = regions;
    let op = body.create_op(st);
    body.append_op(block, op);
    op
}

#[test]
fn compaction_keeps_the_ir_and_drops_erased_records() {
    let ctx = Context::new();
    let i32t = ctx.common().i32;
    let mut body = Body::default();
    let top = body.create_region();
    let entry = body.create_block();
    body.append_block(top, entry);
    let arg = body.add_block_arg(entry, i32t, Location::Unknown);

    // A chain of ops, some holding a region with ops of their own.
    let mut last = arg;
    let mut ops = Vec::new();
    for i in 0..40 {
        let regions = if i % 5 == 0 {
            let r = body.create_region();
            let b = body.create_block();
            body.append_block(r, b);
            let inner = append(&ctx, &mut body, b, "test.inner", &[last, arg], Vec::new());
            let inner_result = body.result(inner, 0);
            append(&ctx, &mut body, b, "test.yield", &[inner_result], Vec::new());
            vec![r]
        } else {
            Vec::new()
        };
        let op = append(&ctx, &mut body, entry, &format!("test.op{i}"), &[last, arg], regions);
        last = body.result(op, 0);
        ops.push(op);
    }
    // Erase every third op that has no users left after rewiring its users
    // to its first operand, and grow some operand lists (moving them).
    for (i, &op) in ops.iter().enumerate() {
        if i % 3 == 1 {
            let replacement = body.operand(op, 0);
            body.replace_all_uses(body.result(op, 0), replacement);
            body.erase_op(op);
        } else if i % 4 == 0 && !body.is_erased(op) {
            let mut longer: Vec<Value> = body.operands(op).collect();
            longer.extend([arg, arg, arg]);
            body.set_operands(op, &longer);
        }
    }
    let before = view(&ctx, &body, top);
    let live_before = body.live_ops().count();

    body.compact();

    assert_eq!(view(&ctx, &body, top), before, "the IR is unchanged by compaction");
    let live: Vec<usize> = body.live_ops().map(|o| o.index()).collect();
    assert_eq!(
        live,
        (0..live_before).collect::<Vec<_>>(),
        "live ops are numbered densely"
    );
    // The body stays usable: a new op's operands join the use lists.
    let first = body.block_ops(entry).next().expect("ops left");
    let first_result = body.result(first, 0);
    let extra = append(&ctx, &mut body, entry, "test.extra", &[first_result], Vec::new());
    assert!(body.uses(first_result).any(|u| body.use_owner(u) == extra));
    assert!(body.compact_if_wasteful() || body.live_ops().count() == live_before + 1);
}

#[test]
fn an_unchanged_body_is_not_compacted() {
    let ctx = Context::new();
    let mut body = Body::default();
    let top = body.create_region();
    let entry = body.create_block();
    body.append_block(top, entry);
    let arg = body.add_block_arg(entry, ctx.common().i32, Location::Unknown);
    for i in 0..16 {
        append(&ctx, &mut body, entry, &format!("test.op{i}"), &[arg], Vec::new());
    }
    body.compact();
    assert!(!body.compact_if_wasteful(), "nothing left to drop");
}
