//! [`Builder`]: the one way passes and rewrite patterns create and change
//! IR (MLIR's `OpBuilder` and `RewriterBase` in one type).
//!
//! A builder holds the context, the body being changed, an insertion point
//! (before an op, at the start or end of a block, or nowhere), the location
//! new ops get (as MLIR's `ImplicitLocOpBuilder`), and optionally a
//! [`Listener`] told of every change, which is how the pattern drivers keep
//! their worklists exact. Ops are created through the generated views'
//! builders (`ArithAddiOp::build(b, lhs, rhs)`), which put them at the
//! insertion point; the change primitives loop passes need are here:
//! replacing uses ([`Builder::replace_all_uses_with`],
//! [`Builder::replace_uses_if`], [`Builder::replace_all_uses_except`]),
//! moving code ([`Builder::splice`], [`Builder::inline_block_before`]),
//! cloning ([`Builder::clone_op`], [`Builder::clone_region_into`]),
//! erasing and replacing ops, and changing an op in place
//! ([`Builder::modify_in_place`]).

use crate::attrs::AttrData;
use crate::clone::{clone_op, ValueMap};
use crate::ods::{Arity, AttrDef};
use crate::view::Ir;
use crate::walk::{walk, WalkControl, WalkOrder};
use crate::{Attribute, BlockId, Body, Context, Location, OpDef, OpId, OperationState, RegionId, Type, Value};

/// Receives a notification for every change a [`Builder`] makes. All
/// methods do nothing by default.
pub trait Listener {
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
impl Listener for NoListener {}

/// Where a [`Builder`] puts new ops.
#[derive(Copy, Clone, PartialEq, Eq, Debug)]
pub enum InsertPoint {
    /// Nowhere: created ops stay detached.
    Detached,
    /// Right before an op.
    Before(OpId),
    /// At the end of a block.
    End(BlockId),
}

/// Creates and changes the IR of one body (see the module docs).
pub struct Builder<'a> {
    ctx: &'a Context,
    body: &'a mut Body,
    ip: InsertPoint,
    loc: Location,
    listener: Option<&'a mut dyn Listener>,
    /// Where [`Builder::remark`] puts its diagnostics (a pass's).
    diags: Option<&'a mut Vec<lf_diag::Diagnostic>>,
}

impl<'a> Ir<'a> for Builder<'a> {
    fn ctx(&self) -> &'a Context {
        self.ctx
    }
    fn body(&self) -> &Body {
        self.body
    }
}

impl<'a> Builder<'a> {
    /// A builder over `body` with no listener; ops are created detached at
    /// an unknown location until told otherwise.
    pub fn new(ctx: &'a Context, body: &'a mut Body) -> Self {
        Builder {
            ctx,
            body,
            ip: InsertPoint::Detached,
            loc: Location::Unknown,
            listener: None,
            diags: None,
        }
    }

    /// The same builder, putting the remarks of [`Builder::remark`] into
    /// `diags` (a pass's builder reports them: see lf-pass's `PassTarget::builder`).
    pub fn with_diagnostics(mut self, diags: &'a mut Vec<lf_diag::Diagnostic>) -> Self {
        self.diags = Some(diags);
        self
    }

    /// Reports a remark at `op` (MLIR's `op->emitRemark`): how a pass says
    /// why it left an op alone. Without a place for diagnostics
    /// ([`Builder::with_diagnostics`]) the remark is dropped.
    pub fn remark(&mut self, op: OpId, message: impl Into<String>) {
        let pos = self.body.op_loc(op).source_pos(self.ctx);
        if let Some(d) = self.diags.as_deref_mut() {
            d.push(lf_diag::Diagnostic::remark(pos, message));
        }
    }

    /// A builder over `body` that reports every change to `listener`.
    pub fn with_listener(ctx: &'a Context, body: &'a mut Body, listener: &'a mut dyn Listener) -> Self {
        Builder {
            listener: Some(listener),
            ..Builder::new(ctx, body)
        }
    }

    /// The context.
    pub fn ctx(&self) -> &'a Context {
        self.ctx
    }

    /// The body being changed, read-only.
    pub fn body(&self) -> &Body {
        self.body
    }

    /// The body, mutably, for changes the builder has no method for. Call
    /// [`Builder::notify_modified`] on every op changed this way (a
    /// listener relies on it).
    pub fn body_mut(&mut self) -> &mut Body {
        self.body
    }

    /// A builder over the nested body of the isolated op `op` (a function's
    /// body), at the same location, with no listener and no insertion point.
    pub fn nested(&mut self, op: OpId) -> Option<Builder<'_>> {
        let loc = self.loc;
        let ctx = self.ctx;
        let body = self.body.nested_body_mut(op)?;
        let mut b = Builder::new(ctx, body);
        b.loc = loc;
        b.diags = self.diags.as_deref_mut();
        Some(b)
    }

    // ------------------------------------------------------- where and how

    /// The location new ops get.
    pub fn loc(&self) -> Location {
        self.loc
    }

    /// Sets the location new ops get.
    pub fn set_loc(&mut self, loc: Location) {
        self.loc = loc;
    }

    /// New ops get the location of `op`.
    pub fn set_loc_of(&mut self, op: OpId) {
        self.loc = self.body.op_loc(op);
    }

    /// The current insertion point.
    pub fn insertion_point(&self) -> InsertPoint {
        self.ip
    }

    /// Sets the insertion point (one saved with [`Builder::insertion_point`]).
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

    /// Runs `f` and restores the insertion point and location afterwards
    /// (MLIR's `OpBuilder::InsertionGuard`).
    pub fn guarded<R>(&mut self, f: impl FnOnce(&mut Self) -> R) -> R {
        let (ip, loc) = (self.ip, self.loc);
        let r = f(self);
        self.ip = ip;
        self.loc = loc;
        r
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
        let Some(listener) = self.listener.as_deref_mut() else {
            return;
        };
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

    /// Starts the state of an op declared by `def`, at the builder's
    /// location (what the generated views' builders use).
    pub fn op_state(&self, def: &'static OpDef) -> OpState {
        OpState {
            def,
            state: OperationState::new(self.ctx.op_name(def.name), self.loc),
            operand_segments: Vec::new(),
            result_segments: Vec::new(),
            props: Vec::new(),
            region_count: 0,
        }
    }

    /// Creates a block with arguments of `types` (at the builder's
    /// location) at the end of `region`.
    pub fn create_block(&mut self, region: RegionId, types: &[Type]) -> BlockId {
        let b = self.body.create_block();
        for &t in types {
            self.body.add_block_arg(b, t, self.loc);
        }
        self.body.append_block(region, b);
        b
    }

    /// Fills `block` (at its end): `body` builds the ops and returns the
    /// values the block ends with, `terminator` builds the terminator that
    /// passes them on (`affine.yield`, `scf.yield`). The insertion point and
    /// location are restored afterwards.
    pub fn fill_block(
        &mut self,
        block: BlockId,
        body: impl FnOnce(&mut Self) -> crate::view::ValueList,
        terminator: impl FnOnce(&mut Self, &[Value]),
    ) {
        self.guarded(|b| {
            b.set_insertion_point_to_end(block);
            let values = body(b);
            terminator(b, &values);
        });
    }

    /// Clones `op` (with its regions) at the insertion point, mapping
    /// operands through `map` (results of the original map to the clone's).
    pub fn clone_op(&mut self, op: OpId, map: &mut ValueMap) -> OpId {
        let c = clone_op(self.body, op, map);
        self.insert(c)
    }

    /// Clones the blocks of `src` (in this body) to the end of `dst`,
    /// mapping values through `map` (block arguments of the originals map to
    /// the clones' arguments); returns the cloned blocks.
    pub fn clone_region_into(&mut self, src: RegionId, dst: RegionId, map: &mut ValueMap) -> Vec<BlockId> {
        let blocks = crate::clone::clone_region_within(self.body, src, dst, map);
        for &b in &blocks {
            let ops: Vec<OpId> = self.body.block_ops(b).collect();
            for op in ops {
                self.notify_inserted_recursively(op);
            }
        }
        blocks
    }

    /// Clones the ops of `block` (all but its terminator when
    /// `skip_terminator`) to the insertion point, mapping values through
    /// `map` (map the block's arguments first); returns the clones.
    pub fn clone_block_ops(&mut self, block: BlockId, map: &mut ValueMap, skip_terminator: bool) -> Vec<OpId> {
        let mut ops: Vec<OpId> = self.body.block_ops(block).collect();
        if skip_terminator {
            ops.pop();
        }
        ops.into_iter().map(|o| self.clone_op(o, map)).collect()
    }

    // ---------------------------------------------------------------- change

    /// Replaces every use of `from` with `to`, notifying each user.
    pub fn replace_all_uses_with(&mut self, from: Value, to: Value) {
        self.replace_uses_if(from, to, |_, _| true);
    }

    /// Replaces the uses of `from` whose owner op satisfies `pred` with `to`,
    /// notifying each changed user.
    pub fn replace_uses_if(&mut self, from: Value, to: Value, mut pred: impl FnMut(&Body, OpId) -> bool) {
        if from == to {
            return;
        }
        let mut users: smallvec::SmallVec<[OpId; 8]> = smallvec::SmallVec::new();
        self.body.replace_uses_if(from, to, |b, owner| {
            let yes = pred(b, owner);
            if yes {
                users.push(owner);
            }
            yes
        });
        if let Some(l) = self.listener.as_deref_mut() {
            for u in users {
                l.op_modified(self.body, u);
            }
        }
    }

    /// Replaces every use of `from` with `to` except the uses by `except`
    /// itself (MLIR's `replaceAllUsesExcept`: ops nested in `except` are
    /// other users; the usual case: `except` is the op that computes `to`
    /// from `from`, or a loop whose bounds read `from`).
    pub fn replace_all_uses_except(&mut self, from: Value, to: Value, except: OpId) {
        self.replace_uses_if(from, to, |_, owner| owner != except);
    }

    /// Replaces the results of `op` with `values` (one each) and erases it.
    pub fn replace_op(&mut self, op: OpId, values: &[Value]) {
        assert_eq!(values.len(), self.body.num_results(op), "replace_op: result count");
        if let Some(l) = self.listener.as_deref_mut() {
            l.op_replaced(self.body, op, values);
        }
        let results: Vec<Value> = self.body.results(op).collect();
        for (r, v) in results.into_iter().zip(values) {
            self.replace_all_uses_with(r, *v);
        }
        self.erase_op(op);
    }

    /// Replaces the results of `op` with those of `with` and erases `op`.
    pub fn replace_op_with_op(&mut self, op: OpId, with: OpId) {
        let values: Vec<Value> = self.body.results(with).collect();
        self.replace_op(op, &values);
    }

    /// Erases `op` (its results must be unused) and everything nested in it.
    pub fn erase_op(&mut self, op: OpId) {
        if let Some(listener) = self.listener.as_deref_mut() {
            let body: &Body = self.body;
            walk(body, op, WalkOrder::PostOrder, &mut |b, o| {
                if std::ptr::eq(b, body) {
                    listener.op_erased(b, o);
                }
                WalkControl::Advance
            });
        }
        self.body.erase_op(op);
    }

    /// Changes `op` in place with `f`, then notifies: the op is modified,
    /// and each value it no longer uses lost a use.
    pub fn modify_in_place<R>(&mut self, op: OpId, f: impl FnOnce(&Context, &mut Body) -> R) -> R {
        if self.listener.is_none() {
            return f(self.ctx, self.body);
        }
        // Inline for the usual few operands: this runs on every in-place change.
        let before: smallvec::SmallVec<[Value; 8]> = self.body.operands(op).collect();
        let r = f(self.ctx, self.body);
        let l = self.listener.as_deref_mut().expect("checked above");
        l.op_modified(self.body, op);
        for (i, &v) in before.iter().enumerate() {
            if !before[..i].contains(&v) && !self.body.operands(op).any(|o| o == v) {
                l.use_dropped(self.body, v);
            }
        }
        r
    }

    /// Sets the discardable attribute `name` of `op` to `value`, or removes
    /// it when `value` is `None` (MLIR's `Operation::setAttr` and
    /// `removeAttr` for names that are not inherent: `gpu.kernel`,
    /// `gpu.container_module`); the dictionary stays sorted by name.
    pub fn set_discardable_attr(&mut self, op: OpId, name: &str, value: Option<Attribute>) {
        self.modify_in_place(op, |ctx, body| {
            let key = ctx.intern(name);
            let mut entries: crate::DictEntries = body
                .op_attrs(op)
                .map(|d| {
                    ctx.attr_data(d)
                        .dict_entries()
                        .iter()
                        .copied()
                        .filter(|(k, _)| *k != key)
                        .collect()
                })
                .unwrap_or_default();
            entries.extend(value.map(|v| (key, v)));
            let attrs = (!entries.is_empty()).then(|| ctx.dict_attr_from(entries));
            body.set_op_attrs(op, attrs);
        });
    }

    /// Tells the listener that `op` changed (after a change through
    /// [`Builder::body_mut`]).
    pub fn notify_modified(&mut self, op: OpId) {
        if let Some(l) = self.listener.as_deref_mut() {
            l.op_modified(self.body, op);
        }
    }

    fn notify_moved(&mut self, op: OpId) {
        if let Some(l) = self.listener.as_deref_mut() {
            l.op_moved(self.body, op);
        }
    }

    /// Moves `op` right before `anchor`.
    pub fn move_op_before(&mut self, op: OpId, anchor: OpId) {
        self.body.move_op_before(op, anchor);
        self.notify_moved(op);
    }

    /// Moves `op` right after `anchor`.
    pub fn move_op_after(&mut self, op: OpId, anchor: OpId) {
        self.body.detach_op(op);
        self.body.insert_op_after(anchor, op);
        self.notify_moved(op);
    }

    /// Moves `op` to the end of `block`.
    pub fn move_op_to_end(&mut self, op: OpId, block: BlockId) {
        self.body.move_op_to_end(op, block);
        self.notify_moved(op);
    }

    /// Moves `op` to the insertion point.
    pub fn move_op_to_insertion_point(&mut self, op: OpId) {
        match self.ip {
            InsertPoint::Detached => self.body.detach_op(op),
            InsertPoint::Before(a) => self.body.move_op_before(op, a),
            InsertPoint::End(b) => self.body.move_op_to_end(op, b),
        }
        self.notify_moved(op);
    }

    /// Moves the ops from `first` to `last` (inclusive, in one block, in
    /// order) to the insertion point, in O(number of ops) (MLIR's
    /// `Block::getOperations().splice`). The insertion point must not be
    /// among them.
    pub fn splice(&mut self, first: OpId, last: OpId) {
        let mut ops = vec![first];
        let mut cur = first;
        while cur != last {
            cur = self
                .body
                .next_op(cur)
                .expect("splice: `last` follows `first` in its block");
            ops.push(cur);
        }
        for op in ops {
            self.move_op_to_insertion_point(op);
        }
    }

    /// Moves the ops of `block` from `from` (inclusive) to the end of the
    /// block, stopping before its terminator when `keep_terminator`, to the
    /// insertion point.
    pub fn splice_rest_of_block(&mut self, from: OpId, keep_terminator: bool) {
        let block = self.body.op_block(from).expect("splice: op is in a block");
        let Some(mut last) = self.body.last_op(block) else {
            return;
        };
        if keep_terminator {
            if last == from {
                return;
            }
            last = self.body.prev_op(last).expect("a terminator after `from`");
        }
        self.splice(from, last);
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

/// The state of an op being built from its declaration: operands and
/// results by group (so that `operandSegmentSizes` is made right),
/// properties by declared attribute, and a number of empty regions. Made by
/// [`Builder::op_state`]; the generated views' builders fill it.
pub struct OpState {
    def: &'static OpDef,
    /// The state itself.
    pub state: OperationState,
    operand_segments: Vec<usize>,
    result_segments: Vec<usize>,
    props: Vec<(&'static str, Attribute)>,
    region_count: usize,
}

impl OpState {
    /// Adds the next operand group.
    pub fn operands(&mut self, values: &[Value]) -> &mut Self {
        self.state.operands.extend_from_slice(values);
        self.operand_segments.push(values.len());
        self
    }

    /// Adds the next result group.
    pub fn results(&mut self, types: &[Type]) -> &mut Self {
        self.state.result_types.extend_from_slice(types);
        self.result_segments.push(types.len());
        self
    }

    /// Sets the inherent attribute `attr` (one of the declaration's).
    pub fn property(&mut self, attr: &'static AttrDef, value: Attribute) -> &mut Self {
        self.props.push((attr.name, value));
        self
    }

    /// Gives the op `n` empty regions.
    pub fn regions(&mut self, n: usize) -> &mut Self {
        self.region_count = n;
        self
    }

    /// Gives the op regions made beforehand (detached, in the builder's
    /// body: a lowering moves a block into one before creating the op).
    pub fn existing_regions(&mut self, regions: &[RegionId]) -> &mut Self {
        self.state.regions.extend_from_slice(regions);
        self
    }

    /// Sets the discardable attributes (a dictionary).
    pub fn attrs(&mut self, attrs: Option<Attribute>) -> &mut Self {
        self.state.attrs = attrs;
        self
    }

    /// The type of result group `group` as the declaration's type rules
    /// derive it from the operands added so far (see
    /// [`crate::ods::access::inferable_result`]).
    pub fn inferred_result(&self, ctx: &Context, body: &Body, group: usize) -> Type {
        crate::ods::access::infer_result(ctx, body, self.def, &self.state.operands, &self.operand_segments, group)
            .unwrap_or_else(|| {
                panic!(
                    "'{}': the type of result '{}' cannot be derived from these operands",
                    self.def.name, self.def.results[group].name
                )
            })
    }

    /// Creates the op at the builder's insertion point.
    pub fn create(mut self, b: &mut Builder<'_>) -> OpId {
        let ctx = b.ctx;
        let segment_prop =
            |groups: &[crate::ods::ArgDef]| groups.iter().filter(|g| g.arity != Arity::Single).count() > 1;
        if segment_prop(self.def.operands) {
            self.props.push((
                "operandSegmentSizes",
                crate::ods::segment_sizes_attr(ctx, &self.operand_segments),
            ));
        }
        if segment_prop(self.def.results) {
            self.props.push((
                "resultSegmentSizes",
                crate::ods::segment_sizes_attr(ctx, &self.result_segments),
            ));
        }
        if !self.props.is_empty() {
            let entries = self.props.iter().map(|(k, v)| (ctx.intern(k), *v)).collect();
            self.state.props = Some(ctx.dict_attr(entries));
        }
        if self.def.has(crate::Traits::ISOLATED_FROM_ABOVE) && self.region_count > 0 {
            let mut nested = Body::new();
            for _ in 0..self.region_count {
                self.state.regions.push(nested.create_region());
            }
            self.state.nested = Some(Box::new(nested));
        } else {
            for _ in 0..self.region_count {
                self.state.regions.push(b.body.create_region());
            }
        }
        b.create(self.state)
    }
}

/// Adds the declared default of every default-valued inherent attribute
/// missing from `state.props`.
pub fn fill_default_props(ctx: &Context, state: &mut OperationState) {
    let Some(def) = ctx.op_def(state.name) else {
        return;
    };
    if !def.attributes.iter().any(|a| a.default.is_some()) {
        return;
    }
    let mut entries: crate::DictEntries = state
        .props
        .map(|d| ctx.attr_data(d).dict_entries().iter().copied().collect())
        .unwrap_or_default();
    if crate::ods::add_missing_defaults(ctx, def, &mut entries) {
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
