//! [`Body`]: the arena that stores the operations, blocks, regions, values and
//! uses of one isolated-from-above scope.
//!
//! An op whose definition has the `IsolatedFromAbove` trait (a function, a
//! module) keeps its regions in a nested `Body` of its own. Values never cross
//! a body boundary, so two functions are two disjoint `&mut Body`: passes on
//! them can run in parallel with no locking and cannot reach sibling ops.
//!
//! Ops of a block form a doubly linked list (O(1) insert, erase and move);
//! each value keeps a doubly linked list of its uses (O(1) operand update,
//! O(uses) replace-all-uses).

use crate::attrs::OptAttr;
use crate::declared_ok::DeclaredOk;
use crate::entity::{opt, BlockId, OpId, RegionId, UseId, Value, NONE};
use crate::location::PackedLoc;
use crate::registry::OpName;
use crate::{Attribute, Location, Type};

/// Stored data of an operation: 72 bytes of `u32`s (every phase walks these
/// records, so their size is both memory and time).
#[derive(Debug, Clone)]
pub(crate) struct OpData {
    pub(crate) name: OpName,
    pub(crate) loc: PackedLoc,
    pub(crate) attrs: OptAttr,
    pub(crate) props: OptAttr,
    pub(crate) parent: u32,
    pub(crate) prev: u32,
    pub(crate) next: u32,
    pub(crate) operands_start: u32,
    pub(crate) num_operands: u32,
    pub(crate) results_start: u32,
    pub(crate) num_results: u32,
    pub(crate) regions_start: u32,
    pub(crate) num_regions: u32,
    pub(crate) successors_start: u32,
    pub(crate) num_successors: u32,
    /// [`NONE`], [`ERASED`], or the index of the op's nested body in
    /// [`Body::nested`] (an isolated op).
    pub(crate) nested: u32,
}

const _: () = assert!(std::mem::size_of::<OpData>() == 72);

/// [`OpData::nested`] of an erased op.
const ERASED: u32 = NONE - 1;

impl OpData {
    #[inline]
    pub(crate) fn is_erased(&self) -> bool {
        self.nested == ERASED
    }

    #[inline]
    fn nested_index(&self) -> Option<usize> {
        (self.nested < ERASED).then_some(self.nested as usize)
    }
}

/// The nested body of an isolated op, with the op's index.
#[derive(Debug, Clone)]
pub(crate) struct NestedBody {
    pub(crate) op: u32,
    /// `None` once the op is erased.
    pub(crate) body: Option<Box<Body>>,
}

#[derive(Debug, Clone)]
pub(crate) struct BlockData {
    pub(crate) parent: u32,
    pub(crate) prev: u32,
    pub(crate) next: u32,
    pub(crate) first_op: u32,
    pub(crate) last_op: u32,
    pub(crate) args: Vec<Value>,
    pub(crate) arg_locs: Vec<Location>,
}

#[derive(Debug, Clone)]
pub(crate) struct RegionData {
    /// The owning op in this body, or NONE for the root regions of a nested body.
    pub(crate) parent: u32,
    pub(crate) first_block: u32,
    pub(crate) last_block: u32,
}

const ARG_BIT: u32 = 1 << 31;

impl ValueData {
    /// Whether this is a block argument (owned by a block, not an op).
    #[inline]
    pub(crate) fn is_block_arg(&self) -> bool {
        self.index & ARG_BIT != 0
    }
}

#[derive(Debug, Clone)]
pub(crate) struct ValueData {
    pub(crate) ty: Type,
    pub(crate) owner: u32,
    /// Result or argument number; the top bit is set for block arguments.
    pub(crate) index: u32,
    pub(crate) first_use: u32,
}

#[derive(Debug, Clone)]
pub(crate) struct UseData {
    pub(crate) value: u32,
    pub(crate) owner: u32,
    pub(crate) prev: u32,
    pub(crate) next: u32,
}

/// Where a value comes from.
#[derive(Copy, Clone, PartialEq, Eq, Debug)]
pub enum ValueDef {
    /// Result `index` of `op`.
    OpResult {
        /// The defining op.
        op: OpId,
        /// Result number.
        index: u32,
    },
    /// Argument `index` of `block`.
    BlockArg {
        /// The block.
        block: BlockId,
        /// Argument number.
        index: u32,
    },
}

/// Everything needed to create an operation.
#[derive(Debug, Clone)]
pub struct OperationState {
    /// Its name.
    pub name: OpName,
    /// Its location.
    pub loc: Location,
    /// Operand values (successor operands included, as in MLIR's generic form).
    pub operands: Vec<Value>,
    /// Result types.
    pub result_types: Vec<Type>,
    /// Discardable attributes (a dictionary), if any.
    pub attrs: Option<Attribute>,
    /// Inherent attributes / properties (a dictionary), if any.
    pub props: Option<Attribute>,
    /// Successor blocks.
    pub successors: Vec<BlockId>,
    /// The op's regions, made beforehand with [`Body::create_region`] (in the
    /// current body, or in `nested` when the op is isolated from above).
    pub regions: Vec<RegionId>,
    /// The nested body holding the regions of an isolated op.
    pub nested: Option<Box<Body>>,
}

impl OperationState {
    /// A state with a name and location and nothing else.
    pub fn new(name: OpName, loc: Location) -> Self {
        OperationState {
            name,
            loc,
            operands: Vec::new(),
            result_types: Vec::new(),
            attrs: None,
            props: None,
            successors: Vec::new(),
            regions: Vec::new(),
            nested: None,
        }
    }

    /// Empties the state (name and location stay), keeping its lists' room.
    pub fn clear(&mut self) {
        self.operands.clear();
        self.result_types.clear();
        self.attrs = None;
        self.props = None;
        self.successors.clear();
        self.regions.clear();
        self.nested = None;
    }
}

/// The arena of one isolated-from-above scope. See the module docs.
#[derive(Debug, Clone, Default)]
pub struct Body {
    pub(crate) ops: Vec<OpData>,
    pub(crate) blocks: Vec<BlockData>,
    pub(crate) regions: Vec<RegionData>,
    pub(crate) values: Vec<ValueData>,
    pub(crate) uses: Vec<UseData>,
    pub(crate) successors: Vec<BlockId>,
    pub(crate) region_lists: Vec<RegionId>,
    /// The nested bodies of this body's isolated ops, in creation order.
    pub(crate) nested: Vec<NestedBody>,
    /// The arenas were sized to fit (parsed, then shrunk, or compacted):
    /// from then on they grow by a quarter, not double (see [`make_room`]).
    pub(crate) sized: bool,
    /// The ops that passed their declaration's checks and have not changed
    /// since (see [`crate::declared_ok`]).
    pub(crate) declared_ok: DeclaredOk,
    /// Order numbers of ops in their blocks (see [`crate::order`]).
    pub(crate) order: crate::order::OpOrder,
}

/// Makes room in an arena vector for `additional` more entries: doubling
/// it while the body is being built, growing it by a quarter of its length
/// once it is `sized` (see [`Body::shrink_to_fit`]).
///
/// Bodies are sized exactly when parsed, and a pass that adds a few ops to
/// a function (a hoisted constant, a composed `affine.apply`) would otherwise
/// double every arena of that function and keep the room: on the benchmark's
/// 1M-op program, canonicalize+cse peaked 36 MB higher that way. A quarter
/// keeps appends amortized O(1). While parsing, a quarter would copy each
/// arena about four times over instead of once.
#[inline]
fn make_room<T>(arena: &mut Vec<T>, additional: usize, sized: bool) {
    if arena.capacity() - arena.len() < additional {
        if sized {
            arena.reserve_exact(additional.max(arena.len() / 4).max(8));
        } else {
            arena.reserve(additional);
        }
    }
}

impl Body {
    /// An empty body.
    pub fn new() -> Self {
        Self::default()
    }

    /// Creates a detached, empty region (to be given to an op through
    /// [`OperationState::regions`]).
    pub fn create_region(&mut self) -> RegionId {
        let id = self.regions.len() as u32;
        make_room(&mut self.regions, 1, self.sized);
        self.regions.push(RegionData {
            parent: NONE,
            first_block: NONE,
            last_block: NONE,
        });
        RegionId(id)
    }

    /// Reserves room for about `ops` more operations, with a result and
    /// two operands each, and a region and block for one in eight (the
    /// parser sizes a function's body from its text instead of growing it
    /// by doubling). The body counts as sized from then on: past the
    /// estimate, arenas grow by a quarter.
    pub fn reserve_ops(&mut self, ops: usize) {
        self.sized = true;
        self.ops.reserve(ops);
        self.values.reserve(ops);
        self.uses.reserve(2 * ops);
        // About one op in eight holds a region (loops, conditionals): without
        // room, these arenas would grow from nothing by steps of eight.
        let with_regions = ops / 8 + 1;
        self.regions.reserve(with_regions);
        self.blocks.reserve(with_regions);
        self.region_lists.reserve(with_regions);
    }

    /// Number of operation slots in this body's arena: the live operations
    /// and the erased ones not compacted away (nested bodies not counted).
    /// Unlike [`Body::num_ops`], no scan.
    pub fn op_slots(&self) -> usize {
        self.ops.len()
    }

    /// Number of live operations in this body (nested bodies not counted).
    pub fn num_ops(&self) -> usize {
        self.live_ops().count()
    }

    /// False when this body surely holds fewer than two isolated ops (ops
    /// with a nested body, such as functions): the printer's parallel paths
    /// are not worth taking then. (Erased ops may still have an entry, so
    /// true does not promise two.)
    pub(crate) fn may_hold_several_isolated_ops(&self) -> bool {
        self.nested.len() >= 2
    }

    /// Every live operation of this body, attached or not, in the order they
    /// were created (not program order; nested bodies not included). A
    /// linear scan of the arena: the quickest way to ask whether a body
    /// holds an op of some kind at all.
    pub fn live_ops(&self) -> impl Iterator<Item = OpId> + '_ {
        (0..self.ops.len() as u32)
            .filter(|&i| !self.ops[i as usize].is_erased())
            .map(OpId)
    }

    // ----------------------------------------------------------------- ops

    /// Creates a detached operation (not in any block) from `state`.
    pub fn create_op(&mut self, mut state: OperationState) -> OpId {
        self.create_op_from(&mut state)
    }

    /// Creates a detached operation (not in any block) from `state`, which
    /// is left empty (no operands, results, successors, regions, attributes
    /// or nested body) with its lists' room kept, to be refilled for the next
    /// op without allocating (the parser does this).
    pub fn create_op_from(&mut self, state: &mut OperationState) -> OpId {
        let id = self.ops.len() as u32;
        let operands_start = self.uses.len() as u32;
        make_room(&mut self.uses, state.operands.len(), self.sized);
        for v in &state.operands {
            self.push_use(*v, id);
        }
        let results_start = self.values.len() as u32;
        make_room(&mut self.values, state.result_types.len(), self.sized);
        for (i, ty) in state.result_types.iter().enumerate() {
            self.values.push(ValueData {
                ty: *ty,
                owner: id,
                index: i as u32,
                first_use: NONE,
            });
        }
        let successors_start = self.successors.len() as u32;
        make_room(&mut self.successors, state.successors.len(), self.sized);
        self.successors.extend_from_slice(&state.successors);
        let regions_start = self.region_lists.len() as u32;
        make_room(&mut self.region_lists, state.regions.len(), self.sized);
        self.region_lists.extend_from_slice(&state.regions);
        if state.nested.is_none() {
            for r in &state.regions {
                debug_assert_eq!(self.regions[r.index()].parent, NONE, "region already owned");
                self.regions[r.index()].parent = id;
            }
        }
        let nested = match state.nested.take() {
            Some(body) => {
                self.nested.push(NestedBody {
                    op: id,
                    body: Some(body),
                });
                (self.nested.len() - 1) as u32
            }
            None => NONE,
        };
        make_room(&mut self.ops, 1, self.sized);
        self.declared_ok.grow_to(id);
        self.ops.push(OpData {
            name: state.name,
            loc: PackedLoc::new(state.loc),
            attrs: OptAttr::new(state.attrs),
            props: OptAttr::new(state.props),
            parent: NONE,
            prev: NONE,
            next: NONE,
            operands_start,
            num_operands: state.operands.len() as u32,
            results_start,
            num_results: state.result_types.len() as u32,
            regions_start,
            num_regions: state.regions.len() as u32,
            successors_start,
            num_successors: state.successors.len() as u32,
            nested,
        });
        state.clear();
        OpId(id)
    }

    fn push_use(&mut self, value: Value, owner: u32) -> u32 {
        let u = self.uses.len() as u32;
        let head = self.values[value.index()].first_use;
        make_room(&mut self.uses, 1, self.sized);
        self.uses.push(UseData {
            value: value.0,
            owner,
            prev: NONE,
            next: head,
        });
        if head != NONE {
            self.uses[head as usize].prev = u;
        }
        self.values[value.index()].first_use = u;
        u
    }

    fn unlink_use(&mut self, u: u32) {
        let UseData { value, prev, next, .. } = self.uses[u as usize];
        if value == NONE {
            return;
        }
        if prev != NONE {
            self.uses[prev as usize].next = next;
        } else {
            self.values[value as usize].first_use = next;
        }
        if next != NONE {
            self.uses[next as usize].prev = prev;
        }
        let d = &mut self.uses[u as usize];
        d.value = NONE;
        d.prev = NONE;
        d.next = NONE;
    }

    fn link_use(&mut self, u: u32, value: Value) {
        let head = self.values[value.index()].first_use;
        {
            let d = &mut self.uses[u as usize];
            self.declared_ok.clear(d.owner);
            d.value = value.0;
            d.prev = NONE;
            d.next = head;
        }
        if head != NONE {
            self.uses[head as usize].prev = u;
        }
        self.values[value.index()].first_use = u;
    }

    /// The op's name.
    #[inline]
    pub fn op_name(&self, op: OpId) -> OpName {
        self.ops[op.index()].name
    }

    /// The op's location.
    #[inline]
    pub fn op_loc(&self, op: OpId) -> Location {
        self.ops[op.index()].loc.get()
    }

    /// Sets the op's location.
    pub fn set_op_loc(&mut self, op: OpId, loc: Location) {
        self.ops[op.index()].loc = PackedLoc::new(loc);
    }

    /// The op's discardable attributes (a dictionary), if any.
    #[inline]
    pub fn op_attrs(&self, op: OpId) -> Option<Attribute> {
        self.ops[op.index()].attrs.get()
    }

    /// Replaces the op's discardable attribute dictionary.
    pub fn set_op_attrs(&mut self, op: OpId, attrs: Option<Attribute>) {
        self.declared_ok.clear(op.0);
        self.ops[op.index()].attrs = OptAttr::new(attrs);
    }

    /// The op's inherent attributes / properties (a dictionary), if any.
    #[inline]
    pub fn op_props(&self, op: OpId) -> Option<Attribute> {
        self.ops[op.index()].props.get()
    }

    /// Replaces the op's properties dictionary.
    pub fn set_op_props(&mut self, op: OpId, props: Option<Attribute>) {
        self.declared_ok.clear(op.0);
        self.ops[op.index()].props = OptAttr::new(props);
    }

    /// Whether the op was erased.
    pub fn is_erased(&self, op: OpId) -> bool {
        self.ops[op.index()].is_erased()
    }

    /// The op's operand values.
    pub fn operands(&self, op: OpId) -> impl ExactSizeIterator<Item = Value> + Clone + '_ {
        let d = &self.ops[op.index()];
        let s = d.operands_start as usize;
        self.uses[s..s + d.num_operands as usize].iter().map(|u| Value(u.value))
    }

    /// Number of operands.
    #[inline]
    pub fn num_operands(&self, op: OpId) -> usize {
        self.ops[op.index()].num_operands as usize
    }

    /// Operand `i`.
    #[inline]
    pub fn operand(&self, op: OpId, i: usize) -> Value {
        let d = &self.ops[op.index()];
        assert!(i < d.num_operands as usize, "operand index out of range");
        Value(self.uses[d.operands_start as usize + i].value)
    }

    /// The use (operand slot) `i` of `op`.
    pub fn operand_use(&self, op: OpId, i: usize) -> UseId {
        let d = &self.ops[op.index()];
        assert!(i < d.num_operands as usize, "operand index out of range");
        UseId(d.operands_start + i as u32)
    }

    /// Sets operand `i` of `op` to `value`.
    pub fn set_operand(&mut self, op: OpId, i: usize, value: Value) {
        let u = self.operand_use(op, i).0;
        self.unlink_use(u);
        self.link_use(u, value);
    }

    /// Replaces all operands of `op`.
    pub fn set_operands(&mut self, op: OpId, values: &[Value]) {
        self.declared_ok.clear(op.0);
        let d = &self.ops[op.index()];
        let (start, n) = (d.operands_start, d.num_operands);
        for i in 0..n {
            self.unlink_use(start + i);
        }
        if values.len() <= n as usize {
            // Reuse the op's use slots (a pass that shortens many operand
            // lists would otherwise grow the arena); those past the new
            // count stay unlinked.
            for (i, v) in values.iter().enumerate() {
                self.link_use(start + i as u32, *v);
            }
        } else {
            let new_start = self.uses.len() as u32;
            for v in values {
                self.push_use(*v, op.0);
            }
            self.ops[op.index()].operands_start = new_start;
        }
        self.ops[op.index()].num_operands = values.len() as u32;
    }

    /// The op's results.
    pub fn results(&self, op: OpId) -> impl ExactSizeIterator<Item = Value> + Clone {
        let d = &self.ops[op.index()];
        (d.results_start..d.results_start + d.num_results).map(Value)
    }

    /// Number of results.
    #[inline]
    pub fn num_results(&self, op: OpId) -> usize {
        self.ops[op.index()].num_results as usize
    }

    /// Result `i`.
    #[inline]
    pub fn result(&self, op: OpId, i: usize) -> Value {
        let d = &self.ops[op.index()];
        assert!(i < d.num_results as usize, "result index out of range");
        Value(d.results_start + i as u32)
    }

    /// The op's successor blocks.
    pub fn successors(&self, op: OpId) -> &[BlockId] {
        let d = &self.ops[op.index()];
        let s = d.successors_start as usize;
        &self.successors[s..s + d.num_successors as usize]
    }

    /// Number of regions of the op.
    #[inline]
    pub fn num_regions(&self, op: OpId) -> usize {
        self.ops[op.index()].num_regions as usize
    }

    /// The op's regions; they live in [`Body::regions_body`] of the op.
    pub fn regions(&self, op: OpId) -> &[RegionId] {
        let d = &self.ops[op.index()];
        let s = d.regions_start as usize;
        &self.region_lists[s..s + d.num_regions as usize]
    }

    /// Region `i` of the op (in [`Body::regions_body`]).
    pub fn region(&self, op: OpId, i: usize) -> RegionId {
        self.regions(op)[i]
    }

    /// The body holding the op's regions: its nested body if the op is
    /// isolated from above, else `self`.
    #[inline]
    pub fn regions_body(&self, op: OpId) -> &Body {
        self.nested_body(op).unwrap_or(self)
    }

    /// The nested body of an isolated op.
    #[inline]
    pub fn nested_body(&self, op: OpId) -> Option<&Body> {
        let i = self.ops[op.index()].nested_index()?;
        self.nested[i].body.as_deref()
    }

    /// The nested body of an isolated op, mutably.
    pub fn nested_body_mut(&mut self, op: OpId) -> Option<&mut Body> {
        let i = self.ops[op.index()].nested_index()?;
        self.nested[i].body.as_deref_mut()
    }

    /// All isolated ops of this body with their nested bodies, mutably and
    /// disjointly (the basis of function-parallel passes).
    pub fn nested_bodies_mut(&mut self) -> impl Iterator<Item = (OpId, &mut Body)> {
        self.nested
            .iter_mut()
            .filter_map(|n| n.body.as_deref_mut().map(|b| (OpId(n.op), b)))
    }

    /// The block containing the op.
    #[inline]
    pub fn op_block(&self, op: OpId) -> Option<BlockId> {
        opt(self.ops[op.index()].parent, BlockId)
    }

    /// The op after `op` in its block.
    #[inline]
    pub fn next_op(&self, op: OpId) -> Option<OpId> {
        opt(self.ops[op.index()].next, OpId)
    }

    /// The op before `op` in its block.
    #[inline]
    pub fn prev_op(&self, op: OpId) -> Option<OpId> {
        opt(self.ops[op.index()].prev, OpId)
    }

    /// The op owning the region that contains `op` (None at a body's root).
    pub fn parent_op(&self, op: OpId) -> Option<OpId> {
        let b = self.op_block(op)?;
        self.region_parent(self.block_region(b)?)
    }

    /// Whether `ancestor` is `op` or holds `op` in one of its regions (in
    /// this body).
    pub fn is_ancestor(&self, ancestor: OpId, op: OpId) -> bool {
        let mut cur = Some(op);
        while let Some(o) = cur {
            if o == ancestor {
                return true;
            }
            cur = self.parent_op(o);
        }
        false
    }

    /// Whether `v` is defined inside `op`: by an op nested in it or as an
    /// argument of a block of its regions (in this body).
    pub fn is_defined_inside(&self, v: Value, op: OpId) -> bool {
        let inner = match self.value_def(v) {
            ValueDef::OpResult { op: d, .. } => self.parent_op(d),
            ValueDef::BlockArg { block, .. } => self.block_region(block).and_then(|r| self.region_parent(r)),
        };
        inner.is_some_and(|p| self.is_ancestor(op, p))
    }

    fn unlink_op(&mut self, op: OpId) {
        let OpData { parent, prev, next, .. } = *self.op_header(op);
        if parent == NONE {
            return;
        }
        if prev != NONE {
            self.ops[prev as usize].next = next;
        } else {
            self.blocks[parent as usize].first_op = next;
        }
        if next != NONE {
            self.ops[next as usize].prev = prev;
        } else {
            self.blocks[parent as usize].last_op = prev;
        }
        let d = &mut self.ops[op.index()];
        d.parent = NONE;
        d.prev = NONE;
        d.next = NONE;
    }

    fn op_header(&self, op: OpId) -> &OpData {
        &self.ops[op.index()]
    }

    /// Appends a detached op at the end of `block`.
    pub fn append_op(&mut self, block: BlockId, op: OpId) {
        debug_assert_eq!(self.ops[op.index()].parent, NONE, "op is already in a block");
        let last = self.blocks[block.index()].last_op;
        {
            let d = &mut self.ops[op.index()];
            d.parent = block.0;
            d.prev = last;
            d.next = NONE;
        }
        if last != NONE {
            self.ops[last as usize].next = op.0;
        } else {
            self.blocks[block.index()].first_op = op.0;
        }
        self.blocks[block.index()].last_op = op.0;
        self.order.inserted(block, op, opt(last, OpId), None);
    }

    /// Inserts a detached op right before `anchor`.
    pub fn insert_op_before(&mut self, anchor: OpId, op: OpId) {
        let a = &self.ops[anchor.index()];
        let (block, prev) = (a.parent, a.prev);
        assert_ne!(block, NONE, "anchor is not in a block");
        {
            let d = &mut self.ops[op.index()];
            d.parent = block;
            d.prev = prev;
            d.next = anchor.0;
        }
        self.ops[anchor.index()].prev = op.0;
        if prev != NONE {
            self.ops[prev as usize].next = op.0;
        } else {
            self.blocks[block as usize].first_op = op.0;
        }
        self.order.inserted(BlockId(block), op, opt(prev, OpId), Some(anchor));
    }

    /// Inserts a detached op right after `anchor`.
    pub fn insert_op_after(&mut self, anchor: OpId, op: OpId) {
        match self.next_op(anchor) {
            Some(n) => self.insert_op_before(n, op),
            None => {
                let b = self.op_block(anchor).expect("anchor is not in a block");
                self.append_op(b, op)
            }
        }
    }

    /// Inserts a detached op at the start of `block`.
    pub fn prepend_op(&mut self, block: BlockId, op: OpId) {
        match self.first_op(block) {
            Some(f) => self.insert_op_before(f, op),
            None => self.append_op(block, op),
        }
    }

    /// Moves `op` (with its regions) to right before `anchor`, in O(1).
    pub fn move_op_before(&mut self, op: OpId, anchor: OpId) {
        self.unlink_op(op);
        self.insert_op_before(anchor, op);
    }

    /// Moves `op` to the end of `block`, in O(1).
    pub fn move_op_to_end(&mut self, op: OpId, block: BlockId) {
        self.unlink_op(op);
        self.append_op(block, op);
    }

    /// Removes `op` from its block without destroying it.
    pub fn detach_op(&mut self, op: OpId) {
        self.unlink_op(op);
    }

    /// Erases `op` and everything nested in it. Its results must be unused
    /// (panics otherwise: erasing a used value is a bug in the caller).
    pub fn erase_op(&mut self, op: OpId) {
        for r in self.results(op) {
            assert!(!self.has_uses(r), "erasing an op whose results are still used");
        }
        self.unlink_op(op);
        self.drop_op_storage(op);
    }

    fn drop_op_storage(&mut self, op: OpId) {
        let d = &self.ops[op.index()];
        let (start, n) = (d.operands_start, d.num_operands);
        for i in 0..n {
            self.unlink_use(start + i);
        }
        match self.ops[op.index()].nested_index() {
            // An isolated op's regions live in its nested body: drop it whole.
            Some(i) => self.nested[i].body = None,
            None => {
                let regions: Vec<RegionId> = self.regions(op).to_vec();
                for r in regions {
                    self.clear_region(r);
                }
            }
        }
        let d = &mut self.ops[op.index()];
        d.nested = ERASED;
        d.num_operands = 0;
    }

    /// Erases all blocks (and their ops) of a region of this body.
    pub fn clear_region(&mut self, region: RegionId) {
        // Drop all uses first so that ops may be erased in any order.
        let blocks: Vec<BlockId> = self.region_blocks(region).collect();
        let mut ops = Vec::new();
        for &b in &blocks {
            ops.extend(self.block_ops(b));
        }
        for &op in &ops {
            let d = &self.ops[op.index()];
            let (start, n) = (d.operands_start, d.num_operands);
            for i in 0..n {
                self.unlink_use(start + i);
            }
        }
        for op in ops {
            self.drop_op_storage(op);
            let d = &mut self.ops[op.index()];
            d.parent = NONE;
            d.prev = NONE;
            d.next = NONE;
        }
        for b in blocks {
            let d = &mut self.blocks[b.index()];
            d.parent = NONE;
            d.first_op = NONE;
            d.last_op = NONE;
        }
        let r = &mut self.regions[region.index()];
        r.first_block = NONE;
        r.last_block = NONE;
    }

    // -------------------------------------------------------------- values

    /// The type of a value.
    #[inline]
    pub fn value_type(&self, v: Value) -> Type {
        self.values[v.index()].ty
    }

    /// Changes the type of a value.
    pub fn set_value_type(&mut self, v: Value, ty: Type) {
        // The defining op's result types and the users' operand types change.
        if let Some(def) = self.defining_op(v) {
            self.declared_ok.clear(def.0);
        }
        let mut cur = self.values[v.index()].first_use;
        while cur != NONE {
            let u = &self.uses[cur as usize];
            cur = u.next;
            self.declared_ok.clear(u.owner);
        }
        self.values[v.index()].ty = ty;
    }

    /// What defines a value.
    #[inline]
    pub fn value_def(&self, v: Value) -> ValueDef {
        let d = &self.values[v.index()];
        if d.index & ARG_BIT != 0 {
            ValueDef::BlockArg {
                block: BlockId(d.owner),
                index: d.index & !ARG_BIT,
            }
        } else {
            ValueDef::OpResult {
                op: OpId(d.owner),
                index: d.index,
            }
        }
    }

    /// The op defining `v`, if it is a result.
    pub fn defining_op(&self, v: Value) -> Option<OpId> {
        match self.value_def(v) {
            ValueDef::OpResult { op, .. } => Some(op),
            ValueDef::BlockArg { .. } => None,
        }
    }

    /// The block in which `v` is defined.
    pub fn value_block(&self, v: Value) -> Option<BlockId> {
        match self.value_def(v) {
            ValueDef::OpResult { op, .. } => self.op_block(op),
            ValueDef::BlockArg { block, .. } => Some(block),
        }
    }

    /// Whether `v` has any use.
    #[inline]
    pub fn has_uses(&self, v: Value) -> bool {
        self.values[v.index()].first_use != NONE
    }

    /// The uses of `v` (most recent first).
    pub fn uses(&self, v: Value) -> UseIter<'_> {
        UseIter {
            body: self,
            cur: self.values[v.index()].first_use,
        }
    }

    /// The op that owns a use.
    #[inline]
    pub fn use_owner(&self, u: UseId) -> OpId {
        OpId(self.uses[u.index()].owner)
    }

    /// The operand number of a use in its owner.
    pub fn use_operand_index(&self, u: UseId) -> usize {
        let owner = &self.ops[self.uses[u.index()].owner as usize];
        (u.0 - owner.operands_start) as usize
    }

    /// Replaces every use of `from` with `to`.
    pub fn replace_all_uses(&mut self, from: Value, to: Value) {
        if from == to {
            return;
        }
        let mut cur = self.values[from.index()].first_use;
        while cur != NONE {
            let next = self.uses[cur as usize].next;
            self.unlink_use(cur);
            self.link_use(cur, to);
            cur = next;
        }
    }

    /// Replaces every use of `from` for which `pred(owner op)` holds.
    pub fn replace_uses_if(&mut self, from: Value, to: Value, mut pred: impl FnMut(&Body, OpId) -> bool) {
        let mut cur = self.values[from.index()].first_use;
        while cur != NONE {
            let next = self.uses[cur as usize].next;
            if pred(self, OpId(self.uses[cur as usize].owner)) {
                self.unlink_use(cur);
                self.link_use(cur, to);
            }
            cur = next;
        }
    }

    // -------------------------------------------------------------- blocks

    /// Creates a detached, empty block.
    pub fn create_block(&mut self) -> BlockId {
        let id = self.blocks.len() as u32;
        make_room(&mut self.blocks, 1, self.sized);
        self.blocks.push(BlockData {
            parent: NONE,
            prev: NONE,
            next: NONE,
            first_op: NONE,
            last_op: NONE,
            args: Vec::new(),
            arg_locs: Vec::new(),
        });
        BlockId(id)
    }

    /// Adds an argument to a block.
    pub fn add_block_arg(&mut self, block: BlockId, ty: Type, loc: Location) -> Value {
        let v = Value(self.values.len() as u32);
        let index = self.blocks[block.index()].args.len() as u32;
        make_room(&mut self.values, 1, self.sized);
        self.values.push(ValueData {
            ty,
            owner: block.0,
            index: index | ARG_BIT,
            first_use: NONE,
        });
        let b = &mut self.blocks[block.index()];
        b.args.push(v);
        b.arg_locs.push(loc);
        v
    }

    /// Erases argument `index` of a block; it must be unused.
    pub fn erase_block_arg(&mut self, block: BlockId, index: usize) {
        let v = self.blocks[block.index()].args[index];
        assert!(!self.has_uses(v), "erasing a used block argument");
        let b = &mut self.blocks[block.index()];
        b.args.remove(index);
        b.arg_locs.remove(index);
        let rest: Vec<Value> = b.args[index..].to_vec();
        for (k, a) in rest.into_iter().enumerate() {
            self.values[a.index()].index = (index + k) as u32 | ARG_BIT;
        }
    }

    /// The arguments of a block.
    #[inline]
    pub fn block_args(&self, block: BlockId) -> &[Value] {
        &self.blocks[block.index()].args
    }

    /// The location of argument `i` of a block.
    pub fn block_arg_loc(&self, block: BlockId, i: usize) -> Location {
        self.blocks[block.index()].arg_locs[i]
    }

    /// The region containing a block.
    #[inline]
    pub fn block_region(&self, block: BlockId) -> Option<RegionId> {
        opt(self.blocks[block.index()].parent, RegionId)
    }

    /// The first op of a block.
    #[inline]
    pub fn first_op(&self, block: BlockId) -> Option<OpId> {
        opt(self.blocks[block.index()].first_op, OpId)
    }

    /// The last op of a block.
    #[inline]
    pub fn last_op(&self, block: BlockId) -> Option<OpId> {
        opt(self.blocks[block.index()].last_op, OpId)
    }

    /// The ops of a block, in order.
    pub fn block_ops(&self, block: BlockId) -> OpIter<'_> {
        OpIter {
            body: self,
            cur: self.blocks[block.index()].first_op,
        }
    }

    /// The next block in the region.
    pub fn next_block(&self, block: BlockId) -> Option<BlockId> {
        opt(self.blocks[block.index()].next, BlockId)
    }

    /// Appends a detached block to a region.
    pub fn append_block(&mut self, region: RegionId, block: BlockId) {
        let last = self.regions[region.index()].last_block;
        {
            let d = &mut self.blocks[block.index()];
            d.parent = region.0;
            d.prev = last;
            d.next = NONE;
        }
        if last != NONE {
            self.blocks[last as usize].next = block.0;
        } else {
            self.regions[region.index()].first_block = block.0;
        }
        self.regions[region.index()].last_block = block.0;
    }

    /// Unlinks a block from its region, leaving it detached (its ops stay in
    /// it, unreachable from the region).
    pub fn detach_block(&mut self, block: BlockId) {
        let BlockData { parent, prev, next, .. } = self.blocks[block.index()];
        if parent == NONE {
            return;
        }
        let region = &mut self.regions[parent as usize];
        if region.first_block == block.0 {
            region.first_block = next;
        }
        if region.last_block == block.0 {
            region.last_block = prev;
        }
        if prev != NONE {
            self.blocks[prev as usize].next = next;
        }
        if next != NONE {
            self.blocks[next as usize].prev = prev;
        }
        let d = &mut self.blocks[block.index()];
        d.parent = NONE;
        d.prev = NONE;
        d.next = NONE;
    }

    /// Whether the block is the first of its region.
    pub fn is_entry_block(&self, block: BlockId) -> bool {
        match self.block_region(block) {
            Some(r) => self.regions[r.index()].first_block == block.0,
            None => false,
        }
    }

    /// The terminator (last op) of a block, if any.
    pub fn terminator(&self, block: BlockId) -> Option<OpId> {
        self.last_op(block)
    }

    // ------------------------------------------------------------- regions

    /// The blocks of a region, in order.
    pub fn region_blocks(&self, region: RegionId) -> BlockIter<'_> {
        BlockIter {
            body: self,
            cur: self.regions[region.index()].first_block,
        }
    }

    /// The first block of a region.
    pub fn entry_block(&self, region: RegionId) -> Option<BlockId> {
        opt(self.regions[region.index()].first_block, BlockId)
    }

    /// Whether a region has no blocks.
    pub fn region_is_empty(&self, region: RegionId) -> bool {
        self.regions[region.index()].first_block == NONE
    }

    /// The op owning a region, `None` for the root regions of a nested body.
    pub fn region_parent(&self, region: RegionId) -> Option<OpId> {
        opt(self.regions[region.index()].parent, OpId)
    }

    /// Region number of `region` within its parent op (for the root regions
    /// of a nested body: its position among them).
    pub fn region_index(&self, region: RegionId) -> usize {
        match self.region_parent(region) {
            Some(op) => self.regions(op).iter().position(|r| *r == region).unwrap_or(0),
            None => self.regions[..region.index()]
                .iter()
                .filter(|r| r.parent == NONE)
                .count(),
        }
    }
}

/// Iterator over the ops of a block.
#[derive(Clone)]
pub struct OpIter<'a> {
    body: &'a Body,
    cur: u32,
}

impl Iterator for OpIter<'_> {
    type Item = OpId;
    #[inline]
    fn next(&mut self) -> Option<OpId> {
        if self.cur == NONE {
            return None;
        }
        let op = OpId(self.cur);
        self.cur = self.body.ops[op.index()].next;
        Some(op)
    }
}

/// Iterator over the blocks of a region.
#[derive(Clone)]
pub struct BlockIter<'a> {
    body: &'a Body,
    cur: u32,
}

impl Iterator for BlockIter<'_> {
    type Item = BlockId;
    #[inline]
    fn next(&mut self) -> Option<BlockId> {
        if self.cur == NONE {
            return None;
        }
        let b = BlockId(self.cur);
        self.cur = self.body.blocks[b.index()].next;
        Some(b)
    }
}

/// Iterator over the uses of a value.
#[derive(Clone)]
pub struct UseIter<'a> {
    body: &'a Body,
    cur: u32,
}

impl Iterator for UseIter<'_> {
    type Item = UseId;
    #[inline]
    fn next(&mut self) -> Option<UseId> {
        if self.cur == NONE {
            return None;
        }
        let u = UseId(self.cur);
        self.cur = self.body.uses[u.index()].next;
        Some(u)
    }
}

impl Body {
    /// Frees the spare capacity of the arenas (after parsing a body whose
    /// size will not change much: a function among thousands).
    pub(crate) fn shrink_to_fit(&mut self) {
        self.sized = true;
        self.ops.shrink_to_fit();
        self.blocks.shrink_to_fit();
        self.regions.shrink_to_fit();
        self.values.shrink_to_fit();
        self.uses.shrink_to_fit();
        self.successors.shrink_to_fit();
        self.region_lists.shrink_to_fit();
        self.nested.shrink_to_fit();
    }

    /// Gives an isolated op, created with placeholder region ids, its nested
    /// body and the ids of its regions in it (for the parallel parser).
    pub(crate) fn install_nested(&mut self, op: OpId, nested: Box<Body>, regions: &[RegionId]) {
        self.declared_ok.clear(op.0);
        let d = &mut self.ops[op.index()];
        assert_eq!(
            d.num_regions as usize,
            regions.len(),
            "region count of an installed body"
        );
        match d.nested_index() {
            Some(i) => self.nested[i].body = Some(nested),
            None => {
                d.nested = self.nested.len() as u32;
                self.nested.push(NestedBody {
                    op: op.0,
                    body: Some(nested),
                });
            }
        }
        let d = &self.ops[op.index()];
        let s = d.regions_start as usize;
        self.region_lists[s..s + regions.len()].copy_from_slice(regions);
    }

    /// Creates a value defined by nothing (a parser placeholder for a use
    /// before definition). It must be replaced with RAUW before verification.
    pub(crate) fn create_placeholder(&mut self, ty: Type) -> Value {
        let v = Value(self.values.len() as u32);
        make_room(&mut self.values, 1, self.sized);
        self.values.push(ValueData {
            ty,
            owner: NONE,
            index: 0,
            first_use: NONE,
        });
        v
    }
}
