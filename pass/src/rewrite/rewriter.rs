//! [`PatternRewriter`]: the one way patterns change the IR. Every change
//! (insert, erase, replace, modify in place, move) is reported to a
//! [`RewriteListener`], so that a driver can keep its worklist exact.

use lf_ir::attrs::AttrData;
use lf_ir::clone::{clone_op, ValueMap};
use lf_ir::walk::{walk, WalkControl, WalkOrder};
use lf_ir::{Attribute, BlockId, Body, Context, Location, OpId, OperationState, Type, Value};

/// Receives a notification for every change a [`PatternRewriter`] makes.
/// All methods do nothing by default.
pub trait RewriteListener {
    /// `op` was created and inserted (or moved to a new place).
    fn op_inserted(&mut self, _body: &Body, _op: OpId) {}
    /// `op` was moved to another place in its body (by default: as inserted).
    fn op_moved(&mut self, body: &Body, op: OpId) {
        self.op_inserted(body, op);
    }
    /// `op` is about to be erased (called for nested ops too, inner first).
    fn op_erased(&mut self, _body: &Body, _op: OpId) {}
    /// `op` was changed in place (operands, attributes, regions).
    fn op_modified(&mut self, _body: &Body, _op: OpId) {}
    /// The results of `op` are about to be replaced by `with`.
    fn op_replaced(&mut self, _body: &Body, _op: OpId, _with: &[Value]) {}
    /// An op changed in place no longer uses `value` (its definition may
    /// now be dead, or have one user left to simplify with).
    fn use_dropped(&mut self, _body: &Body, _value: Value) {}
}

/// A listener that ignores everything.
pub struct NoListener;
impl RewriteListener for NoListener {}

/// Where [`PatternRewriter::insert`] puts new ops.
#[derive(Copy, Clone, PartialEq, Eq, Debug)]
pub enum InsertPoint {
    /// Nowhere: created ops stay detached.
    Detached,
    /// Right before an op.
    Before(OpId),
    /// At the end of a block.
    End(BlockId),
}

/// Changes the IR of one body on behalf of a pattern, notifying a listener.
pub struct PatternRewriter<'a> {
    ctx: &'a Context,
    body: &'a mut Body,
    ip: InsertPoint,
    listener: &'a mut dyn RewriteListener,
}

impl<'a> PatternRewriter<'a> {
    /// A rewriter over `body` that reports to `listener`.
    pub fn new(ctx: &'a Context, body: &'a mut Body, listener: &'a mut dyn RewriteListener) -> Self {
        PatternRewriter {
            ctx,
            body,
            ip: InsertPoint::Detached,
            listener,
        }
    }

    /// The context.
    pub fn ctx(&self) -> &'a Context {
        self.ctx
    }

    /// The body being rewritten, read-only. Changes go through the rewriter.
    pub fn body(&self) -> &Body {
        self.body
    }

    /// The body, mutably, for changes the rewriter has no method for. Call
    /// [`PatternRewriter::notify_modified`] on every op changed this way.
    pub fn body_mut(&mut self) -> &mut Body {
        self.body
    }

    // ------------------------------------------------------- insertion point

    /// The current insertion point.
    pub fn insertion_point(&self) -> InsertPoint {
        self.ip
    }

    /// Sets the insertion point.
    pub fn set_insertion_point(&mut self, ip: InsertPoint) {
        self.ip = ip;
    }

    /// New ops go right before `op`.
    pub fn set_insertion_point_before(&mut self, op: OpId) {
        self.ip = InsertPoint::Before(op);
    }

    /// New ops go right after `op`.
    pub fn set_insertion_point_after(&mut self, op: OpId) {
        self.ip = match self.body.next_op(op) {
            Some(n) => InsertPoint::Before(n),
            None => InsertPoint::End(self.body.op_block(op).expect("op is in a block")),
        };
    }

    /// New ops go at the start of `block`.
    pub fn set_insertion_point_to_start(&mut self, block: BlockId) {
        self.ip = match self.body.first_op(block) {
            Some(f) => InsertPoint::Before(f),
            None => InsertPoint::End(block),
        };
    }

    /// New ops go at the end of `block`.
    pub fn set_insertion_point_to_end(&mut self, block: BlockId) {
        self.ip = InsertPoint::End(block);
    }

    // -------------------------------------------------------------- creation

    /// Places a detached op at the insertion point and notifies.
    pub fn insert(&mut self, op: OpId) -> OpId {
        match self.ip {
            InsertPoint::Detached => return op,
            InsertPoint::Before(a) => self.body.insert_op_before(a, op),
            InsertPoint::End(b) => self.body.append_op(b, op),
        }
        self.notify_inserted_recursively(op);
        op
    }

    fn notify_inserted_recursively(&mut self, op: OpId) {
        let listener = &mut *self.listener;
        let body: &Body = self.body;
        walk(body, op, WalkOrder::PreOrder, &mut |b, o| {
            if std::ptr::eq(b, body) {
                listener.op_inserted(b, o);
                WalkControl::Advance
            } else {
                WalkControl::Skip
            }
        });
    }

    /// Creates an op from `state` at the insertion point. Inherent
    /// attributes with a declared default that `state` lacks take it (as
    /// MLIR materializes default-valued properties).
    pub fn create(&mut self, mut state: OperationState) -> OpId {
        fill_default_props(self.ctx, &mut state);
        let op = self.body.create_op(state);
        self.insert(op)
    }

    /// Creates an op named `name` at the insertion point, with operands,
    /// result types and inherent attributes (properties) given by name.
    pub fn build(
        &mut self,
        name: &str,
        loc: Location,
        operands: &[Value],
        result_types: &[Type],
        props: &[(&str, Attribute)],
    ) -> OpId {
        let mut st = OperationState::new(self.ctx.op_name(name), loc);
        st.operands = operands.to_vec();
        st.result_types = result_types.to_vec();
        if !props.is_empty() {
            let entries = props.iter().map(|(k, v)| (self.ctx.intern(k), *v)).collect();
            st.props = Some(self.ctx.dict_attr(entries));
        }
        self.create(st)
    }

    /// Creates `arith.constant` of `value` (its type is the value's own) at
    /// the insertion point; returns its result.
    pub fn constant(&mut self, loc: Location, value: Attribute) -> Value {
        let ty = attr_type(self.ctx, value).expect("a typed constant attribute");
        let op = self.build("arith.constant", loc, &[], &[ty], &[("value", value)]);
        self.body.result(op, 0)
    }

    /// `arith.constant N : index` at the insertion point.
    pub fn constant_index(&mut self, loc: Location, n: i64) -> Value {
        let ty = self.ctx.common().index;
        let a = self.ctx.integer_attr(n as i128, ty);
        self.constant(loc, a)
    }

    /// Clones `op` (with its regions) at the insertion point, mapping
    /// operands through `map`.
    pub fn clone_op(&mut self, op: OpId, map: &mut ValueMap) -> OpId {
        let c = clone_op(self.body, op, map);
        self.insert(c)
    }

    // ---------------------------------------------------------------- change

    /// Replaces every use of `from` with `to`, notifying each user.
    pub fn replace_all_uses_with(&mut self, from: Value, to: Value) {
        if from == to {
            return;
        }
        let users: Vec<OpId> = self.body.uses(from).map(|u| self.body.use_owner(u)).collect();
        self.body.replace_all_uses(from, to);
        for u in users {
            self.listener.op_modified(self.body, u);
        }
    }

    /// Replaces the results of `op` with `values` (one each) and erases it.
    pub fn replace_op(&mut self, op: OpId, values: &[Value]) {
        assert_eq!(values.len(), self.body.num_results(op), "replace_op: result count");
        self.listener.op_replaced(self.body, op, values);
        let results: Vec<Value> = self.body.results(op).collect();
        for (r, v) in results.into_iter().zip(values) {
            self.replace_all_uses_with(r, *v);
        }
        self.erase_op(op);
    }

    /// Erases `op` (its results must be unused) and everything nested in it.
    pub fn erase_op(&mut self, op: OpId) {
        let listener = &mut *self.listener;
        let body: &Body = self.body;
        walk(body, op, WalkOrder::PostOrder, &mut |b, o| {
            if std::ptr::eq(b, body) {
                listener.op_erased(b, o);
            }
            WalkControl::Advance
        });
        self.body.erase_op(op);
    }

    /// Changes `op` in place with `f`, then notifies: the op is modified,
    /// and each value it no longer uses lost a use.
    pub fn modify_in_place<R>(&mut self, op: OpId, f: impl FnOnce(&mut Body) -> R) -> R {
        // Inline for the usual few operands: this runs on every in-place change.
        let before: smallvec::SmallVec<[Value; 8]> = self.body.operands(op).collect();
        let r = f(self.body);
        self.listener.op_modified(self.body, op);
        for (i, &v) in before.iter().enumerate() {
            if !before[..i].contains(&v) && !self.body.operands(op).any(|o| o == v) {
                self.listener.use_dropped(self.body, v);
            }
        }
        r
    }

    /// Tells the listener that `op` changed (after a change through
    /// [`PatternRewriter::body_mut`]).
    pub fn notify_modified(&mut self, op: OpId) {
        self.listener.op_modified(self.body, op);
    }

    /// Moves `op` right before `anchor`.
    pub fn move_op_before(&mut self, op: OpId, anchor: OpId) {
        self.body.move_op_before(op, anchor);
        self.listener.op_moved(self.body, op);
    }

    /// Moves `op` to the end of `block`.
    pub fn move_op_to_end(&mut self, op: OpId, block: BlockId) {
        self.body.move_op_to_end(op, block);
        self.listener.op_moved(self.body, op);
    }

    /// Moves the ops of `block` (all but its terminator when `skip_terminator`)
    /// right before `anchor`, replacing uses of the block's arguments with
    /// `args`. Returns the terminator if it was skipped (still in `block`).
    pub fn inline_block_before(
        &mut self,
        block: BlockId,
        anchor: OpId,
        args: &[Value],
        skip_terminator: bool,
    ) -> Option<OpId> {
        let bargs: Vec<Value> = self.body.block_args(block).to_vec();
        assert_eq!(bargs.len(), args.len(), "inline_block_before: argument count");
        for (a, v) in bargs.into_iter().zip(args) {
            self.replace_all_uses_with(a, *v);
        }
        let ops: Vec<OpId> = self.body.block_ops(block).collect();
        let term = if skip_terminator { ops.last().copied() } else { None };
        for op in ops {
            if Some(op) == term {
                break;
            }
            self.move_op_before(op, anchor);
        }
        term
    }
}

/// Adds the declared default of every default-valued inherent attribute
/// missing from `state.props`.
pub fn fill_default_props(ctx: &Context, state: &mut OperationState) {
    let Some(def) = ctx.op_def(state.name) else {
        return;
    };
    let mut entries: lf_ir::DictEntries = state
        .props
        .map(|d| ctx.attr_data(d).dict_entries().iter().copied().collect())
        .unwrap_or_default();
    if lf_ir::ods::add_missing_defaults(ctx, def, &mut entries) {
        state.props = Some(ctx.dict_attr_from(entries));
    }
}

/// The type of a typed attribute (integer, float, dense elements, typed string).
pub fn attr_type(ctx: &Context, a: Attribute) -> Option<Type> {
    match ctx.attr_data(a) {
        AttrData::Integer { ty, .. } | AttrData::Float { ty, .. } | AttrData::DenseElements { ty, .. } => Some(*ty),
        AttrData::String { ty, .. } => *ty,
        _ => None,
    }
}
