//! Typed op views: [`OpView`], the trait of the view types generated from
//! each op's declaration (`AffineForOp`, `ArithAddiOp`, `GpuLaunchOp`, ...,
//! see [`crate::ods::views`]), and [`Ir`], what their getters read from.
//!
//! A view is an [`OpId`] known to name an op of one kind: a `Copy` handle
//! that owns nothing. It is made by [`OpView::cast`] (MLIR's `dyn_cast`),
//! checked with [`OpView::isa`], and read through getters that take the
//! context and body the op lives in (anything implementing [`Ir`]: a
//! [`Builder`](crate::builder::Builder), an [`IrRef`], or a
//! `(&Context, &Body)` pair):
//!
//! ```ignore
//! if let Some(for_op) = AffineForOp::cast(&ir, op) {
//!     let step = for_op.step(&ir);            // i64
//!     let ub = for_op.upper_bound_map(&ir);   // &AffineMap
//!     let inits = for_op.inits(&ir);          // SmallVec of Values
//! }
//! ```
//!
//! Views of isolated ops (functions, modules) keep their regions in the
//! op's nested body: read those through [`Body::regions_body`].

use crate::{Body, Context, OpDef, OpId, Value};

/// Where a view's getters read from: the context and the body that holds
/// the op. `'c` is the context's lifetime, so that what a getter decodes
/// from a uniqued attribute (an `&AffineMap`, an `&str`) outlives the
/// borrow of a builder it was read through.
pub trait Ir<'c> {
    /// The context.
    fn ctx(&self) -> &'c Context;
    /// The body holding the ops being read.
    fn body(&self) -> &Body;
}

/// A context and a body, read-only: the [`Ir`] of analyses, emitters and
/// interpreters that do not change the IR.
#[derive(Copy, Clone)]
pub struct IrRef<'c, 'b> {
    /// The context.
    pub ctx: &'c Context,
    /// The body.
    pub body: &'b Body,
}

impl<'c, 'b> IrRef<'c, 'b> {
    /// The pair.
    pub fn new(ctx: &'c Context, body: &'b Body) -> Self {
        IrRef { ctx, body }
    }
}

impl<'c> Ir<'c> for IrRef<'c, '_> {
    fn ctx(&self) -> &'c Context {
        self.ctx
    }
    fn body(&self) -> &Body {
        self.body
    }
}

impl<'c> Ir<'c> for (&'c Context, &Body) {
    fn ctx(&self) -> &'c Context {
        self.0
    }
    fn body(&self) -> &Body {
        self.1
    }
}

impl<'c> Ir<'c> for (&'c Context, &mut Body) {
    fn ctx(&self) -> &'c Context {
        self.0
    }
    fn body(&self) -> &Body {
        self.1
    }
}

/// The values of an operand or result group, or of a block's arguments
/// (inline up to four: most groups are small).
pub type ValueList = smallvec::SmallVec<[Value; 4]>;

/// The arguments of the entry block of region `index` of `op` (none when
/// the region is empty; the block is in the op's nested body for an
/// isolated op).
pub fn entry_args<'c>(ir: &impl Ir<'c>, op: OpId, index: usize) -> ValueList {
    let body = ir.body();
    let rb = body.regions_body(op);
    rb.entry_block(body.region(op, index))
        .map_or_else(ValueList::new, |b| rb.block_args(b).iter().copied().collect())
}

/// A typed view of one kind of op, generated from its declaration.
pub trait OpView: Copy + Eq + std::hash::Hash + std::fmt::Debug + Sized {
    /// The op's declaration.
    fn def() -> &'static OpDef;

    /// The view of `op`, which the caller knows to be of this kind (see
    /// [`OpView::cast`] to check).
    fn from_op_unchecked(op: OpId) -> Self;

    /// The op.
    fn op(self) -> OpId;

    /// Whether `op` is of this kind (registered with this declaration).
    #[inline]
    fn isa<'c>(ir: &impl Ir<'c>, op: OpId) -> bool {
        is_op(ir.ctx(), ir.body(), op, Self::def())
    }

    /// The view of `op` if it is of this kind (MLIR's `dyn_cast`).
    #[inline]
    fn cast<'c>(ir: &impl Ir<'c>, op: OpId) -> Option<Self> {
        Self::isa(ir, op).then(|| Self::from_op_unchecked(op))
    }

    /// The view of the op defining `v`, if `v` is a result of an op of this kind.
    fn defining<'c>(ir: &impl Ir<'c>, v: Value) -> Option<Self> {
        Self::cast(ir, ir.body().defining_op(v)?)
    }

    /// The view of the op holding `op` in one of its regions, if that op is
    /// of this kind (in the same body).
    fn parent_of<'c>(ir: &impl Ir<'c>, op: OpId) -> Option<Self> {
        Self::cast(ir, ir.body().parent_op(op)?)
    }
}

/// Whether `op` of `body` is registered with the declaration `def`.
#[inline]
pub fn is_op(ctx: &Context, body: &Body, op: OpId, def: &'static OpDef) -> bool {
    ctx.op_def(body.op_name(op)).is_some_and(|d| std::ptr::eq(d, def))
}

/// The ops of kind `V` nested in `regions` of `body`, in pre-order (program
/// order, parents first): what a pass collects before changing the IR. Ops
/// stored in nested bodies of isolated ops (a function inside a module) are
/// not included: their ids name ops of another body.
pub fn collect_ops<V: OpView>(ctx: &Context, body: &Body, regions: &[crate::RegionId]) -> Vec<V> {
    use crate::walk::{walk_regions, WalkControl, WalkOrder};
    let mut out = Vec::new();
    walk_regions(body, regions, WalkOrder::PreOrder, &mut |b, op| {
        if !std::ptr::eq(b, body) {
            return WalkControl::Skip;
        }
        if is_op(ctx, b, op, V::def()) {
            out.push(V::from_op_unchecked(op));
        }
        WalkControl::Advance
    });
    out
}
