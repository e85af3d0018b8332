//! The affine expression tree: storage, structural queries and traversal.
//!
//! Construction with MLIR's simplification rules lives in [`crate::build`];
//! evaluation in [`crate::eval`]; flattening simplification in
//! [`crate::simplify`]; printing in [`crate::print`].

use crate::eval::gcd;
use std::fmt;
use std::hash::{Hash, Hasher};
use std::num::NonZeroUsize;
use std::sync::Arc;

/// The binary operators of affine expressions.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub enum BinaryOp {
    /// `lhs + rhs`.
    Add,
    /// `lhs * rhs`.
    Mul,
    /// `lhs mod rhs` (result has the sign of the divisor, so it is
    /// non-negative for a positive divisor).
    Mod,
    /// `lhs floordiv rhs` (rounds towards negative infinity).
    FloorDiv,
    /// `lhs ceildiv rhs` (rounds towards positive infinity).
    CeilDiv,
}

impl BinaryOp {
    /// The operator as MLIR spells it between operands: `+`, `*`, `mod`,
    /// `floordiv`, `ceildiv`.
    pub fn spelling(self) -> &'static str {
        match self {
            BinaryOp::Add => "+",
            BinaryOp::Mul => "*",
            BinaryOp::Mod => "mod",
            BinaryOp::FloorDiv => "floordiv",
            BinaryOp::CeilDiv => "ceildiv",
        }
    }
}

/// The kind of an affine expression node, as MLIR's `AffineExprKind`.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub enum AffineExprKind {
    /// Addition.
    Add,
    /// Multiplication.
    Mul,
    /// Modulo.
    Mod,
    /// Floor division.
    FloorDiv,
    /// Ceil division.
    CeilDiv,
    /// An integer constant.
    Constant,
    /// A dimension identifier `d<i>`.
    DimId,
    /// A symbol identifier `s<i>`.
    SymbolId,
}

/// A borrowed view of one node of an expression, for `match`ing.
#[derive(Clone, Copy, Debug)]
pub enum ExprView<'a> {
    /// Dimension `d<pos>`.
    Dim(u32),
    /// Symbol `s<pos>`.
    Symbol(u32),
    /// An integer constant.
    Constant(i64),
    /// A binary operation.
    Binary(BinaryOp, &'a AffineExpr, &'a AffineExpr),
}

/// An affine expression: a dimension `d<i>`, a symbol `s<i>`, an `i64`
/// constant, or a binary `+`, `*`, `mod`, `floordiv`, `ceildiv` of two
/// expressions.
///
/// Expressions are immutable trees whose operator nodes are reference
/// counted (as in an `Arc`) and whose leaves are stored inline in the handle,
/// so cloning is cheap and they can be shared between threads. Equality and hashing are
/// structural; each node caches its hash, depth and a few properties, so
/// comparing two different expressions is usually O(1).
///
/// Build expressions with [`AffineExpr::dim`], [`AffineExpr::symbol`],
/// [`AffineExpr::constant`] and the simplifying operators (`+`, `-`, `*`,
/// unary `-`, [`AffineExpr::floor_div`], [`AffineExpr::ceil_div`],
/// [`AffineExpr::modulo`]), which apply MLIR's construction-time rules.
pub struct AffineExpr(NonZeroUsize);

// The word of an `AffineExpr` is either a leaf, inline, or a pointer to a
// reference-counted `Node` (from `Arc::into_raw`, so aligned to 8 and with its
// low bit clear). A leaf word is `payload << 3 | kind << 1 | 1`; dimensions and
// symbols are always inline, constants when they fit in 61 bits (larger ones
// get a node). Every value has one representation, so equal leaves have
// equal words. Leaves used to be `Arc` nodes too, taken from a per-thread
// cache: cloning and dropping them (most of the handles ever made) were
// atomic read-modify-writes, full fences on x86 that waited for the
// outstanding cache misses of whatever ran before them.

const _: () = assert!(usize::BITS == 64, "inline leaves take a 64-bit word");

/// Set in the word of an inline leaf.
const LEAF_BIT: usize = 1;
/// Where an inline leaf's kind sits (two bits).
const LEAF_KIND_SHIFT: u32 = 1;
/// Where an inline leaf's payload starts.
const LEAF_PAYLOAD_SHIFT: u32 = 3;
const LEAF_DIM: usize = 0;
const LEAF_SYMBOL: usize = 1;
const LEAF_CONSTANT: usize = 2;

// SAFETY: an `AffineExpr` is either plain data or an `Arc<Node>` handle, and
// `Node` holds nothing but plain data and `AffineExpr`s.
unsafe impl Send for AffineExpr {}
// SAFETY: as for `Send`; nodes are never changed after construction.
unsafe impl Sync for AffineExpr {}

/// An inline leaf, decoded.
#[derive(Clone, Copy)]
enum Leaf {
    Dim(u32),
    Symbol(u32),
    Constant(i64),
}

/// What an [`AffineExpr`] handle holds.
enum Repr<'a> {
    Leaf(Leaf),
    Node(&'a Node),
}

pub(crate) struct Node {
    hash: u64,
    /// Largest known divisor (MLIR's `getLargestKnownDivisor`, with its
    /// wrapping `i64` arithmetic); 0 for the constant 0.
    lkd: i64,
    depth: u32,
    /// How deeply the print nests (see [`AffineExpr::nesting`]), saturated.
    nest: u16,
    flags: u8,
    /// A binary operation, or a constant too large for an inline leaf.
    pub(crate) data: Data,
}

pub(crate) enum Data {
    Constant(i64),
    Binary(BinaryOp, AffineExpr, AffineExpr),
}

impl Clone for AffineExpr {
    #[inline]
    fn clone(&self) -> Self {
        if let Some(p) = self.node_ptr() {
            // SAFETY: `p` came from `Arc::into_raw` and this handle keeps one
            // count of it alive.
            unsafe { Arc::increment_strong_count(p) };
        }
        AffineExpr(self.0)
    }
}

impl Drop for AffineExpr {
    #[inline]
    fn drop(&mut self) {
        if let Some(p) = self.node_ptr() {
            // SAFETY: `p` came from `Arc::into_raw`; this handle owns one count.
            unsafe { Arc::decrement_strong_count(p) };
        }
    }
}

/// The hash, properties and largest known divisor of a leaf.
#[inline]
fn leaf_facts(leaf: Leaf) -> (u64, u8, i64) {
    match leaf {
        Leaf::Dim(p) => (mix(1, p as u64), PURE_AFFINE, 1),
        Leaf::Symbol(p) => (mix(2, p as u64), PURE_AFFINE | SYMBOLIC_OR_CONSTANT, 1),
        Leaf::Constant(c) => (mix(3, c as u64), PURE_AFFINE | SYMBOLIC_OR_CONSTANT, c.wrapping_abs()),
    }
}

/// Slots of the per-thread cache of recently built binary nodes (a power of two).
const RECENT_NODES: usize = 4096;

thread_local! {
    /// Binary nodes built lately on this thread, by their structural hash
    /// (direct-mapped). Building `lhs op rhs` again, with the very same
    /// `lhs` and `rhs` nodes, shares the node made before instead of
    /// allocating an equal one. Besides the allocation, this saves the walk
    /// that comparing two equal trees takes: shared nodes compare equal by
    /// address. An entry keeps its node (and so its operands) alive, so an
    /// operand's address cannot be reused while the entry names it.
    static RECENT: std::cell::RefCell<Vec<Option<AffineExpr>>> =
        std::cell::RefCell::new(vec![None; RECENT_NODES]);
}

const SYMBOLIC_OR_CONSTANT: u8 = 1;
const PURE_AFFINE: u8 = 2;
/// The node or one below it is a `floordiv`, `ceildiv` or `mod` by a
/// positive constant.
const DIVIDES_BY_CONSTANT: u8 = 4;

#[inline]
fn mix(a: u64, b: u64) -> u64 {
    (a.rotate_left(23) ^ b).wrapping_mul(0x9e37_79b9_7f4a_7c15)
}

impl AffineExpr {
    /// The inline leaf of `kind` with `payload` (which must fit in 61 bits).
    #[inline]
    fn inline_leaf(kind: usize, payload: u64) -> AffineExpr {
        let word = (payload as usize) << LEAF_PAYLOAD_SHIFT | kind << LEAF_KIND_SHIFT | LEAF_BIT;
        AffineExpr(NonZeroUsize::new(word).expect("the leaf bit is set"))
    }

    /// A handle to a new node.
    fn from_node(node: Node) -> AffineExpr {
        let p = Arc::into_raw(Arc::new(node)) as usize;
        debug_assert_eq!(p & LEAF_BIT, 0, "nodes are aligned");
        AffineExpr(NonZeroUsize::new(p).expect("an Arc is never null"))
    }

    /// The node this handle points to, if it is not an inline leaf.
    #[inline]
    fn node_ptr(&self) -> Option<*const Node> {
        let w = self.0.get();
        (w & LEAF_BIT == 0).then_some(w as *const Node)
    }

    /// What this handle is: an inline leaf, decoded, or the node it points to.
    #[inline]
    fn repr(&self) -> Repr<'_> {
        let w = self.0.get();
        if w & LEAF_BIT == 0 {
            // SAFETY: the node lives at least as long as this handle's count.
            return Repr::Node(unsafe { &*(w as *const Node) });
        }
        let payload = (w as u64) >> LEAF_PAYLOAD_SHIFT;
        Repr::Leaf(match (w >> LEAF_KIND_SHIFT) & 3 {
            LEAF_DIM => Leaf::Dim(payload as u32),
            LEAF_SYMBOL => Leaf::Symbol(payload as u32),
            // Arithmetic shift: the sign comes back.
            _ => Leaf::Constant((w as i64) >> LEAF_PAYLOAD_SHIFT),
        })
    }

    /// The node this handle points to, if it is not an inline leaf.
    #[inline]
    fn node(&self) -> Option<&Node> {
        match self.repr() {
            Repr::Node(n) => Some(n),
            Repr::Leaf(_) => None,
        }
    }

    /// The inline leaf, if this is one.
    #[inline]
    fn leaf(&self) -> Option<Leaf> {
        match self.repr() {
            Repr::Leaf(l) => Some(l),
            Repr::Node(_) => None,
        }
    }

    /// The dimension identifier `d<pos>`.
    #[inline]
    pub fn dim(pos: u32) -> AffineExpr {
        AffineExpr::inline_leaf(LEAF_DIM, u64::from(pos))
    }

    /// The symbol identifier `s<pos>`.
    #[inline]
    pub fn symbol(pos: u32) -> AffineExpr {
        AffineExpr::inline_leaf(LEAF_SYMBOL, u64::from(pos))
    }

    /// The integer constant `value`.
    #[inline]
    pub fn constant(value: i64) -> AffineExpr {
        let shifted = value << LEAF_PAYLOAD_SHIFT;
        if shifted >> LEAF_PAYLOAD_SHIFT == value {
            return AffineExpr::inline_leaf(LEAF_CONSTANT, value as u64 & (u64::MAX >> LEAF_PAYLOAD_SHIFT));
        }
        let (hash, flags, lkd) = leaf_facts(Leaf::Constant(value));
        AffineExpr::from_node(Node {
            hash,
            lkd,
            depth: 1,
            nest: 1,
            flags,
            data: Data::Constant(value),
        })
    }

    /// The structural hash kept in the node (what [`Hash`] feeds a hasher):
    /// equal expressions have equal hashes.
    #[inline]
    pub(crate) fn structural_hash(&self) -> u64 {
        match self.repr() {
            Repr::Leaf(l) => leaf_facts(l).0,
            Repr::Node(n) => n.hash,
        }
    }

    /// The properties bits ([`PURE_AFFINE`], ...).
    #[inline]
    fn flags(&self) -> u8 {
        match self.repr() {
            Repr::Leaf(l) => leaf_facts(l).1,
            Repr::Node(n) => n.flags,
        }
    }

    /// Creates the binary node `lhs op rhs` exactly as given, without any
    /// simplification. Only the construction rules in [`crate::build`] use
    /// this; everything else goes through them, like MLIR.
    pub(crate) fn raw_binary(op: BinaryOp, lhs: AffineExpr, rhs: AffineExpr) -> AffineExpr {
        let hash = mix(mix(mix(4 + op as u64, lhs.structural_hash()), rhs.structural_hash()), 5);
        let slot = (hash ^ (hash >> 32)) as usize % RECENT_NODES;
        let recent = RECENT.try_with(|cache| {
            let cache = cache.borrow();
            match &cache[slot] {
                Some(e) => match e.as_binary() {
                    Some((o, l, r)) if o == op && l.ptr_eq(&lhs) && r.ptr_eq(&rhs) => Some(e.clone()),
                    _ => None,
                },
                None => None,
            }
        });
        if let Ok(Some(e)) = recent {
            return e;
        }
        let e = Self::new_binary(hash, op, lhs, rhs);
        let _ = RECENT.try_with(|cache| cache.borrow_mut()[slot] = Some(e.clone()));
        e
    }

    /// Allocates the binary node `lhs op rhs` whose structural hash is `hash`.
    fn new_binary(hash: u64, op: BinaryOp, lhs: AffineExpr, rhs: AffineExpr) -> AffineExpr {
        let (l_flags, r_flags) = (lhs.flags(), rhs.flags());
        let (l_lkd, r_lkd) = (lhs.get_largest_known_divisor(), rhs.get_largest_known_divisor());
        let symbolic = l_flags & r_flags & SYMBOLIC_OR_CONSTANT;
        let both_pure = l_flags & r_flags & PURE_AFFINE != 0;
        let r_constant = rhs.as_constant();
        let (l_const, r_const) = (lhs.is_constant(), r_constant.is_some());
        let pure = match op {
            BinaryOp::Add => both_pure,
            BinaryOp::Mul => both_pure && (l_const || r_const),
            BinaryOp::Mod | BinaryOp::FloorDiv | BinaryOp::CeilDiv => l_flags & PURE_AFFINE != 0 && r_const,
        };
        // MLIR's rules and its wrapping `int64_t` arithmetic. A wrapped
        // product only arises when every non-zero value of the product
        // overflows, so claims based on it hold whenever evaluation succeeds.
        let lkd = match op {
            BinaryOp::Mul => l_lkd.wrapping_mul(r_lkd),
            BinaryOp::Add | BinaryOp::Mod => gcd(l_lkd as u64, r_lkd as u64) as i64,
            BinaryOp::FloorDiv | BinaryOp::CeilDiv => match r_constant {
                Some(c) if c != 0 && l_lkd.wrapping_rem(c) == 0 => l_lkd.wrapping_div(c).wrapping_abs(),
                _ => 1,
            },
        };
        let depth = lhs.depth().max(rhs.depth()).saturating_add(1);
        let nest = lhs.nest().max(rhs.nest());
        let nest = if op == BinaryOp::Add {
            nest
        } else {
            nest.saturating_add(1)
        };
        let divides_here = matches!(op, BinaryOp::Mod | BinaryOp::FloorDiv | BinaryOp::CeilDiv)
            && matches!(r_constant, Some(c) if c > 0);
        let divides = if divides_here {
            DIVIDES_BY_CONSTANT
        } else {
            (l_flags | r_flags) & DIVIDES_BY_CONSTANT
        };
        let flags = symbolic | divides | if pure { PURE_AFFINE } else { 0 };
        AffineExpr::from_node(Node {
            hash,
            lkd,
            depth,
            nest,
            flags,
            data: Data::Binary(op, lhs, rhs),
        })
    }

    /// A borrowed view of this node for pattern matching.
    #[inline]
    pub fn view(&self) -> ExprView<'_> {
        match self.repr() {
            Repr::Leaf(Leaf::Dim(p)) => ExprView::Dim(p),
            Repr::Leaf(Leaf::Symbol(p)) => ExprView::Symbol(p),
            Repr::Leaf(Leaf::Constant(c)) => ExprView::Constant(c),
            Repr::Node(n) => match &n.data {
                Data::Binary(op, l, r) => ExprView::Binary(*op, l, r),
                Data::Constant(c) => ExprView::Constant(*c),
            },
        }
    }

    /// The kind of this node.
    pub fn kind(&self) -> AffineExprKind {
        match self.view() {
            ExprView::Dim(_) => AffineExprKind::DimId,
            ExprView::Symbol(_) => AffineExprKind::SymbolId,
            ExprView::Constant(_) => AffineExprKind::Constant,
            ExprView::Binary(op, _, _) => match op {
                BinaryOp::Add => AffineExprKind::Add,
                BinaryOp::Mul => AffineExprKind::Mul,
                BinaryOp::Mod => AffineExprKind::Mod,
                BinaryOp::FloorDiv => AffineExprKind::FloorDiv,
                BinaryOp::CeilDiv => AffineExprKind::CeilDiv,
            },
        }
    }

    /// The position if this is a dimension `d<pos>`.
    #[inline]
    pub fn as_dim(&self) -> Option<u32> {
        match self.leaf() {
            Some(Leaf::Dim(p)) => Some(p),
            _ => None,
        }
    }

    /// The position if this is a symbol `s<pos>`.
    #[inline]
    pub fn as_symbol(&self) -> Option<u32> {
        match self.leaf() {
            Some(Leaf::Symbol(p)) => Some(p),
            _ => None,
        }
    }

    /// The value if this is a constant.
    #[inline]
    pub fn as_constant(&self) -> Option<i64> {
        match self.view() {
            ExprView::Constant(c) => Some(c),
            _ => None,
        }
    }

    /// The operator and operands if this is a binary expression.
    #[inline]
    pub fn as_binary(&self) -> Option<(BinaryOp, &AffineExpr, &AffineExpr)> {
        match self.node().map(|n| &n.data) {
            Some(Data::Binary(op, l, r)) => Some((*op, l, r)),
            _ => None,
        }
    }

    /// The operands if this is a binary expression with operator `op`.
    #[inline]
    pub(crate) fn as_op(&self, op: BinaryOp) -> Option<(&AffineExpr, &AffineExpr)> {
        match self.as_binary() {
            Some((o, l, r)) if o == op => Some((l, r)),
            _ => None,
        }
    }

    /// The left operand of a binary expression.
    pub fn lhs(&self) -> Option<&AffineExpr> {
        self.as_binary().map(|(_, l, _)| l)
    }

    /// The right operand of a binary expression.
    pub fn rhs(&self) -> Option<&AffineExpr> {
        self.as_binary().map(|(_, _, r)| r)
    }

    /// True for a constant node.
    #[inline]
    pub fn is_constant(&self) -> bool {
        self.as_constant().is_some()
    }

    /// True if the expression is made of symbols and constants only (no
    /// dimension), as MLIR's `isSymbolicOrConstant`.
    #[inline]
    pub fn is_symbolic_or_constant(&self) -> bool {
        self.flags() & SYMBOLIC_OR_CONSTANT != 0
    }

    /// True if this is a pure affine expression: multiplication only with a
    /// constant operand, and `floordiv`, `ceildiv`, `mod` only by a constant
    /// (MLIR's `isPureAffine`). Other expressions are "semi-affine".
    #[inline]
    pub fn is_pure_affine(&self) -> bool {
        self.flags() & PURE_AFFINE != 0
    }

    /// True if this expression has a `floordiv`, `ceildiv` or `mod` by a
    /// positive constant (O(1): kept in the node).
    #[inline]
    pub fn divides_by_constant(&self) -> bool {
        self.flags() & DIVIDES_BY_CONSTANT != 0
    }

    /// The depth of the expression tree (1 for a leaf).
    #[inline]
    pub fn depth(&self) -> u32 {
        match self.repr() {
            Repr::Leaf(_) => 1,
            Repr::Node(n) => n.depth,
        }
    }

    /// How deeply the expression nests, not counting sums: 1 for a leaf,
    /// the larger of the operands' for `+`, one more than that for the
    /// other operators (saturating at `u16::MAX`). Its print, in MLIR's
    /// layout, nests parentheses at most `nesting() - 1` deep, whereas a
    /// flat sum of many terms is deep as a tree ([`AffineExpr::depth`]) but
    /// prints without parentheses.
    #[inline]
    pub fn nesting(&self) -> u32 {
        u32::from(self.nest())
    }

    #[inline]
    fn nest(&self) -> u16 {
        match self.repr() {
            Repr::Leaf(_) => 1,
            Repr::Node(n) => n.nest,
        }
    }

    /// The greatest integer known to divide every value of this expression,
    /// as MLIR's `getLargestKnownDivisor`: 1 for dims and symbols, `|c|` for
    /// a constant (so 0 for the constant 0), the product for `*`, the gcd for
    /// `+` and `mod`, and `|lhs divisor / c|` for a division by a constant
    /// `c` that divides the left divisor. Computed once at construction.
    ///
    /// Like MLIR, this uses wrapping `i64` arithmetic, so the value is only
    /// meaningful (positive) when the true divisor fits in `i64`; products
    /// of divisors that overflow only occur in expressions whose non-zero
    /// values all overflow.
    #[inline]
    pub fn get_largest_known_divisor(&self) -> i64 {
        match self.repr() {
            Repr::Leaf(l) => leaf_facts(l).2,
            Repr::Node(n) => n.lkd,
        }
    }

    /// True if every value of this expression is known to be a multiple of
    /// `factor` (from [`AffineExpr::get_largest_known_divisor`]). Always true
    /// for `factor` 1 or -1; false for `factor` 0 unless the expression is 0.
    pub fn is_multiple_of(&self, factor: i64) -> bool {
        let lkd = self.get_largest_known_divisor();
        if factor == 0 {
            return lkd == 0;
        }
        lkd.wrapping_rem(factor) == 0
    }

    /// True if dimension `pos` occurs in the expression.
    pub fn is_function_of_dim(&self, pos: u32) -> bool {
        match self.view() {
            ExprView::Dim(p) => p == pos,
            ExprView::Binary(_, l, r) => l.is_function_of_dim(pos) || r.is_function_of_dim(pos),
            _ => false,
        }
    }

    /// True if symbol `pos` occurs in the expression.
    pub fn is_function_of_symbol(&self, pos: u32) -> bool {
        match self.view() {
            ExprView::Symbol(p) => p == pos,
            ExprView::Binary(_, l, r) => l.is_function_of_symbol(pos) || r.is_function_of_symbol(pos),
            _ => false,
        }
    }

    /// Calls `f` on every node, children before parents (post-order, left
    /// operand first), like MLIR's `AffineExpr::walk`.
    pub fn walk(&self, f: &mut impl FnMut(&AffineExpr)) {
        if let Some((_, l, r)) = self.as_binary() {
            l.walk(f);
            r.walk(f);
        }
        f(self);
    }

    /// One past the largest dimension position used, or 0 if none is used.
    pub fn num_dims_used(&self) -> u32 {
        let mut n = 0;
        self.walk(&mut |e| {
            if let Some(p) = e.as_dim() {
                n = n.max(p + 1);
            }
        });
        n
    }

    /// One past the largest symbol position used, or 0 if none is used.
    pub fn num_symbols_used(&self) -> u32 {
        let mut n = 0;
        self.walk(&mut |e| {
            if let Some(p) = e.as_symbol() {
                n = n.max(p + 1);
            }
        });
        n
    }

    /// Marks in `dims` (indexed by position) every dimension used by the
    /// expression; positions beyond `dims.len()` are ignored.
    pub fn mark_used_dims(&self, dims: &mut [bool]) {
        self.walk(&mut |e| {
            if let Some(slot) = e.as_dim().and_then(|p| dims.get_mut(p as usize)) {
                *slot = true;
            }
        });
    }

    /// Marks in `symbols` (indexed by position) every symbol used by the
    /// expression; positions beyond `symbols.len()` are ignored.
    pub fn mark_used_symbols(&self, symbols: &mut [bool]) {
        self.walk(&mut |e| {
            if let Some(slot) = e.as_symbol().and_then(|p| symbols.get_mut(p as usize)) {
                *slot = true;
            }
        });
    }

    /// True if both handles point to the same node (cheaper than `==`).
    #[inline]
    pub fn ptr_eq(&self, other: &AffineExpr) -> bool {
        self.0 == other.0
    }
}

fn structural_eq(a: &AffineExpr, b: &AffineExpr) -> bool {
    if a.ptr_eq(b) {
        return true;
    }
    // Equal leaves have equal words, and a leaf never equals a node.
    let (Some(x), Some(y)) = (a.node(), b.node()) else {
        return false;
    };
    if x.hash != y.hash || x.depth != y.depth {
        return false;
    }
    match (&x.data, &y.data) {
        (Data::Constant(p), Data::Constant(q)) => p == q,
        (Data::Binary(o1, l1, r1), Data::Binary(o2, l2, r2)) => {
            o1 == o2 && structural_eq(l1, l2) && structural_eq(r1, r2)
        }
        _ => false,
    }
}

impl PartialEq for AffineExpr {
    #[inline]
    fn eq(&self, other: &AffineExpr) -> bool {
        structural_eq(self, other)
    }
}

impl Eq for AffineExpr {}

impl Hash for AffineExpr {
    #[inline]
    fn hash<H: Hasher>(&self, state: &mut H) {
        state.write_u64(self.structural_hash());
    }
}

impl fmt::Debug for AffineExpr {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "AffineExpr({self})")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Constants at and around the edge of the inline range keep their
    /// value, compare and hash by value whichever way they are stored.
    #[test]
    fn constants_round_trip_inline_and_boxed() {
        let edge = 1i64 << 60;
        for c in [
            0,
            1,
            -1,
            63,
            -64,
            edge - 1,
            -edge,
            edge,
            -edge - 1,
            i64::MAX,
            i64::MIN,
            i64::MIN + 1,
        ] {
            let e = AffineExpr::constant(c);
            assert_eq!(e.as_constant(), Some(c), "{c}");
            assert_eq!(e.depth(), 1);
            assert_eq!(e.get_largest_known_divisor(), c.wrapping_abs());
            let inline = (-edge..edge).contains(&c);
            assert_eq!(e.node().is_none(), inline, "{c}");
            let again = AffineExpr::constant(c);
            assert!(e == again && e.structural_hash() == again.structural_hash());
            assert!(e != AffineExpr::constant(c.wrapping_add(1)));
            assert!(e.is_symbolic_or_constant() && e.is_pure_affine());
        }
        for p in [0, 1, 7, u32::MAX] {
            assert_eq!(AffineExpr::dim(p).as_dim(), Some(p));
            assert_eq!(AffineExpr::symbol(p).as_symbol(), Some(p));
            assert!(AffineExpr::dim(p) != AffineExpr::symbol(p));
            assert!(AffineExpr::dim(p).ptr_eq(&AffineExpr::dim(p)));
        }
    }

    /// Nodes are freed when their last handle goes, and not before: a
    /// node shared by many trees and threads outlives all but one of them.
    #[test]
    fn nodes_live_as_long_as_their_handles() {
        let big = AffineExpr::constant(i64::MAX);
        let node = AffineExpr::dim(0) * AffineExpr::constant(3) + big.clone();
        let p = node.node_ptr().expect("a binary node");
        // SAFETY: `node` holds a count.
        let count = || unsafe {
            Arc::increment_strong_count(p);
            let a = Arc::from_raw(p);
            Arc::strong_count(&a) - 1
        };
        let base = count();
        let copies: Vec<AffineExpr> = (0..1000).map(|_| node.clone()).collect();
        assert_eq!(count(), base + 1000);
        // Joined one by one: a scope's end does not wait for the threads'
        // thread-locals (the cache of recent nodes holds counts) to go.
        std::thread::scope(|s| {
            let threads: Vec<_> = copies
                .chunks(250)
                .map(|chunk| {
                    let chunk = chunk.to_vec();
                    s.spawn(move || {
                        let more: Vec<AffineExpr> = chunk
                            .iter()
                            .map(|e| AffineExpr::raw_binary(BinaryOp::Add, e.clone(), AffineExpr::dim(1)))
                            .collect();
                        assert!(more.iter().all(|e| e.lhs().is_some_and(|l| l.ptr_eq(&chunk[0]))));
                    })
                })
                .collect();
            for t in threads {
                t.join().expect("no panic");
            }
        });
        drop(copies);
        assert_eq!(count(), base);
        assert_eq!(node.rhs().and_then(AffineExpr::as_constant), Some(i64::MAX));
    }
}
