//! Cloning operations with a value mapping, within a body or into another.

use crate::body::OperationState;
use crate::{BlockId, Body, OpId, RegionId, Value};
use rustc_hash::FxHashMap;

/// Maps values (and blocks) of the source to their clones. Values without a
/// mapping are used as they are (they must be visible where the clone goes).
#[derive(Default, Debug, Clone)]
pub struct ValueMap {
    values: FxHashMap<Value, Value>,
    blocks: FxHashMap<BlockId, BlockId>,
    /// An emptied op state whose lists keep their room: each clone refills
    /// it instead of allocating its operand and result-type lists.
    scratch: Option<Box<OperationState>>,
}

impl ValueMap {
    /// An empty map with room for `values` value mappings (cloning a body of
    /// known size maps each result once: no rehashing on the way).
    pub fn with_capacity(values: usize) -> ValueMap {
        ValueMap {
            values: FxHashMap::with_capacity_and_hasher(values, Default::default()),
            ..ValueMap::default()
        }
    }

    /// Maps `from` to `to`.
    pub fn map(&mut self, from: Value, to: Value) {
        self.values.insert(from, to);
    }
    /// The mapped value, or `v` itself.
    pub fn lookup(&self, v: Value) -> Value {
        self.values.get(&v).copied().unwrap_or(v)
    }
    /// The mapped value if any.
    pub fn get(&self, v: Value) -> Option<Value> {
        self.values.get(&v).copied()
    }
    /// Maps block `from` to `to` (successors of cloned ops follow it).
    pub fn map_block(&mut self, from: BlockId, to: BlockId) {
        self.blocks.insert(from, to);
    }
    /// The mapped block, or `b` itself.
    pub fn block(&self, b: BlockId) -> BlockId {
        self.blocks.get(&b).copied().unwrap_or(b)
    }
}

/// Clones `op` of `src` (with its regions) into `dst` as a detached op.
/// Results of the original map to results of the clone in `map`.
pub fn clone_op_into(src: &Body, op: OpId, dst: &mut Body, map: &mut ValueMap) -> OpId {
    let mut st = OperationState::new(src.op_name(op), src.op_loc(op));
    st.operands = src.operands(op).map(|v| map.lookup(v)).collect();
    st.result_types = src.results(op).map(|v| src.value_type(v)).collect();
    st.attrs = src.op_attrs(op);
    st.props = src.op_props(op);
    if let Some(nested) = src.nested_body(op) {
        // An isolated op's contents reference nothing outside: copy wholesale.
        st.nested = Some(Box::new(nested.clone()));
        st.regions = src.regions(op).to_vec();
    } else {
        // Create the successor and region blocks first so branches can refer to them.
        let regions: Vec<RegionId> = src.regions(op).to_vec();
        for r in regions {
            let nr = dst.create_region();
            clone_region_into(src, r, dst, nr, map);
            st.regions.push(nr);
        }
    }
    st.successors = src.successors(op).iter().map(|b| map.block(*b)).collect();
    let new = dst.create_op(st);
    for (a, b) in src.results(op).zip(dst.results(new)) {
        map.map(a, b);
    }
    new
}

/// Clones `op` within one body, in O(size of `op`).
pub fn clone_op(body: &mut Body, op: OpId, map: &mut ValueMap) -> OpId {
    let mut st = match map.scratch.take() {
        Some(mut st) => {
            st.name = body.op_name(op);
            st.loc = body.op_loc(op);
            st
        }
        None => Box::new(OperationState::new(body.op_name(op), body.op_loc(op))),
    };
    st.attrs = body.op_attrs(op);
    st.props = body.op_props(op);
    st.nested = body.nested_body(op).map(|b| Box::new(b.clone()));
    st.operands.extend(body.operands(op).map(|v| map.lookup(v)));
    st.result_types.extend(body.results(op).map(|v| body.value_type(v)));
    let same_operand_types = body
        .operands(op)
        .zip(&st.operands)
        .all(|(a, &b)| body.value_type(a) == body.value_type(b));
    let regions: Vec<RegionId> = body.regions(op).to_vec();
    if st.nested.is_some() {
        st.regions = regions;
    } else {
        for r in regions {
            let nr = body.create_region();
            clone_region_within(body, r, nr, map);
            st.regions.push(nr);
        }
    }
    st.successors.extend(body.successors(op).iter().map(|b| map.block(*b)));
    // Leaves `st` empty with its lists' room (regions of nested clones took
    // a scratch state of their own meanwhile).
    let new = body.create_op_from(&mut st);
    map.scratch = Some(st);
    // The copy has the op's name, counts, properties and result types: with
    // operands of the same types it passes the declared checks exactly when
    // the op does (see `crate::declared_ok`), so the verifier after a pass
    // that copies ops (unrolling) need not check the copies again.
    if same_operand_types {
        body.declared_ok.copy_bit(op.0, new.0);
    }
    for (a, b) in body.results(op).zip(body.results(new)) {
        map.map(a, b);
    }
    new
}

/// Clones the blocks of region `src` of `body` to the end of region `dst`
/// of the same body, mapping values and blocks through `map` (the blocks'
/// arguments map to the clones' arguments); returns the new blocks.
pub fn clone_region_within(body: &mut Body, src: RegionId, dst: RegionId, map: &mut ValueMap) -> Vec<BlockId> {
    let blocks: Vec<BlockId> = body.region_blocks(src).collect();
    let mut new_blocks = Vec::with_capacity(blocks.len());
    for &b in &blocks {
        let nb = body.create_block();
        map.blocks.insert(b, nb);
        let args: Vec<Value> = body.block_args(b).to_vec();
        for (i, a) in args.into_iter().enumerate() {
            let (ty, loc) = (body.value_type(a), body.block_arg_loc(b, i));
            let na = body.add_block_arg(nb, ty, loc);
            map.map(a, na);
        }
        body.append_block(dst, nb);
        new_blocks.push(nb);
    }
    for &b in &blocks {
        let nb = map.block(b);
        let ops: Vec<OpId> = body.block_ops(b).collect();
        for o in ops {
            let c = clone_op(body, o, map);
            body.append_op(nb, c);
        }
    }
    new_blocks
}

fn clone_region_into(src: &Body, r: RegionId, dst: &mut Body, nr: RegionId, map: &mut ValueMap) {
    let blocks: Vec<BlockId> = src.region_blocks(r).collect();
    for &b in &blocks {
        let nb = dst.create_block();
        map.blocks.insert(b, nb);
        for (i, &a) in src.block_args(b).iter().enumerate() {
            let na = dst.add_block_arg(nb, src.value_type(a), src.block_arg_loc(b, i));
            map.map(a, na);
        }
        dst.append_block(nr, nb);
    }
    for &b in &blocks {
        let nb = map.block(b);
        for o in src.block_ops(b) {
            let c = clone_op_into(src, o, dst, map);
            dst.append_op(nb, c);
        }
    }
}
