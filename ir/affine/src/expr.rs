//! The affine expression tree: storage, structural queries and traversal.
//!
//! Construction with MLIR's simplification rules lives in [`crate::build`];
//! evaluation in [`crate::eval`]; flattening simplification in
//! [`crate::simplify`]; printing in [`crate::print`].

use crate::eval::gcd;
use std::fmt;
use std::hash::{Hash, Hasher};
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
/// Expressions are immutable, reference counted (`Arc`) trees, so cloning is
/// cheap and they can be shared between threads. Equality and hashing are
/// structural; each node caches its hash, depth and a few properties, so
/// comparing two different expressions is usually O(1).
///
/// Build expressions with [`AffineExpr::dim`], [`AffineExpr::symbol`],
/// [`AffineExpr::constant`] and the simplifying operators (`+`, `-`, `*`,
/// unary `-`, [`AffineExpr::floor_div`], [`AffineExpr::ceil_div`],
/// [`AffineExpr::modulo`]), which apply MLIR's construction-time rules.
#[derive(Clone)]
pub struct AffineExpr(pub(crate) Arc<Node>);

pub(crate) struct Node {
    hash: u64,
    /// Largest known divisor (MLIR's `getLargestKnownDivisor`, with its
    /// wrapping `i64` arithmetic); 0 for the constant 0.
    lkd: i64,
    depth: u32,
    flags: u8,
    pub(crate) data: Data,
}

pub(crate) enum Data {
    Dim(u32),
    Symbol(u32),
    Constant(i64),
    Binary(BinaryOp, AffineExpr, AffineExpr),
}

/// Dimensions and symbols below this position are shared per thread.
const CACHED_IDS: u32 = 16;
const CACHED_CONST_MIN: i64 = -16;
const CACHED_CONST_MAX: i64 = 64;

/// Frequently used leaves, allocated once per thread so that building an
/// expression mostly allocates its operator nodes only. (Per thread rather
/// than global, so that threads do not contend on the reference counts.)
struct LeafCache {
    dims: Vec<AffineExpr>,
    symbols: Vec<AffineExpr>,
    constants: Vec<AffineExpr>,
}

thread_local! {
    static LEAVES: LeafCache = LeafCache {
        dims: (0..CACHED_IDS).map(|p| AffineExpr::leaf(Data::Dim(p))).collect(),
        symbols: (0..CACHED_IDS).map(|p| AffineExpr::leaf(Data::Symbol(p))).collect(),
        constants: (CACHED_CONST_MIN..=CACHED_CONST_MAX)
            .map(|c| AffineExpr::leaf(Data::Constant(c)))
            .collect(),
    };
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
    fn leaf(data: Data) -> AffineExpr {
        let (hash, flags, lkd) = match data {
            Data::Dim(p) => (mix(1, p as u64), PURE_AFFINE, 1),
            Data::Symbol(p) => (mix(2, p as u64), PURE_AFFINE | SYMBOLIC_OR_CONSTANT, 1),
            Data::Constant(c) => (mix(3, c as u64), PURE_AFFINE | SYMBOLIC_OR_CONSTANT, c.wrapping_abs()),
            Data::Binary(..) => unreachable!("leaf() is only called for leaves"),
        };
        AffineExpr(Arc::new(Node {
            hash,
            lkd,
            depth: 1,
            flags,
            data,
        }))
    }

    /// The dimension identifier `d<pos>`.
    pub fn dim(pos: u32) -> AffineExpr {
        if pos < CACHED_IDS {
            if let Ok(e) = LEAVES.try_with(|c| c.dims[pos as usize].clone()) {
                return e;
            }
        }
        AffineExpr::leaf(Data::Dim(pos))
    }

    /// The symbol identifier `s<pos>`.
    pub fn symbol(pos: u32) -> AffineExpr {
        if pos < CACHED_IDS {
            if let Ok(e) = LEAVES.try_with(|c| c.symbols[pos as usize].clone()) {
                return e;
            }
        }
        AffineExpr::leaf(Data::Symbol(pos))
    }

    /// The integer constant `value`.
    pub fn constant(value: i64) -> AffineExpr {
        if (CACHED_CONST_MIN..=CACHED_CONST_MAX).contains(&value) {
            let i = (value - CACHED_CONST_MIN) as usize;
            if let Ok(e) = LEAVES.try_with(|c| c.constants[i].clone()) {
                return e;
            }
        }
        AffineExpr::leaf(Data::Constant(value))
    }

    /// The structural hash kept in the node (what [`Hash`] feeds a hasher):
    /// equal expressions have equal hashes.
    #[inline]
    pub(crate) fn structural_hash(&self) -> u64 {
        self.0.hash
    }

    /// Creates the binary node `lhs op rhs` exactly as given, without any
    /// simplification. Only the construction rules in [`crate::build`] use
    /// this; everything else goes through them, like MLIR.
    pub(crate) fn raw_binary(op: BinaryOp, lhs: AffineExpr, rhs: AffineExpr) -> AffineExpr {
        let hash = mix(mix(mix(4 + op as u64, lhs.0.hash), rhs.0.hash), 5);
        let slot = (hash ^ (hash >> 32)) as usize % RECENT_NODES;
        let recent = RECENT.try_with(|cache| {
            let cache = cache.borrow();
            match &cache[slot] {
                Some(e) => match &e.0.data {
                    Data::Binary(o, l, r) if *o == op && l.ptr_eq(&lhs) && r.ptr_eq(&rhs) => Some(e.clone()),
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
        let (l, r) = (&*lhs.0, &*rhs.0);
        let symbolic = l.flags & r.flags & SYMBOLIC_OR_CONSTANT;
        let both_pure = l.flags & r.flags & PURE_AFFINE != 0;
        let l_const = matches!(l.data, Data::Constant(_));
        let r_const = matches!(r.data, Data::Constant(_));
        let pure = match op {
            BinaryOp::Add => both_pure,
            BinaryOp::Mul => both_pure && (l_const || r_const),
            BinaryOp::Mod | BinaryOp::FloorDiv | BinaryOp::CeilDiv => l.flags & PURE_AFFINE != 0 && r_const,
        };
        // MLIR's rules and its wrapping `int64_t` arithmetic. A wrapped
        // product only arises when every non-zero value of the product
        // overflows, so claims based on it hold whenever evaluation succeeds.
        let lkd = match op {
            BinaryOp::Mul => l.lkd.wrapping_mul(r.lkd),
            BinaryOp::Add | BinaryOp::Mod => gcd(l.lkd as u64, r.lkd as u64) as i64,
            BinaryOp::FloorDiv | BinaryOp::CeilDiv => match r.data {
                Data::Constant(c) if c != 0 && l.lkd.wrapping_rem(c) == 0 => l.lkd.wrapping_div(c).wrapping_abs(),
                _ => 1,
            },
        };
        let depth = l.depth.max(r.depth).saturating_add(1);
        let divides_here = matches!(op, BinaryOp::Mod | BinaryOp::FloorDiv | BinaryOp::CeilDiv)
            && matches!(r.data, Data::Constant(c) if c > 0);
        let divides = if divides_here {
            DIVIDES_BY_CONSTANT
        } else {
            (l.flags | r.flags) & DIVIDES_BY_CONSTANT
        };
        let flags = symbolic | divides | if pure { PURE_AFFINE } else { 0 };
        AffineExpr(Arc::new(Node {
            hash,
            lkd,
            depth,
            flags,
            data: Data::Binary(op, lhs, rhs),
        }))
    }

    /// A borrowed view of this node for pattern matching.
    #[inline]
    pub fn view(&self) -> ExprView<'_> {
        match &self.0.data {
            Data::Dim(p) => ExprView::Dim(*p),
            Data::Symbol(p) => ExprView::Symbol(*p),
            Data::Constant(c) => ExprView::Constant(*c),
            Data::Binary(op, l, r) => ExprView::Binary(*op, l, r),
        }
    }

    /// The kind of this node.
    pub fn kind(&self) -> AffineExprKind {
        match &self.0.data {
            Data::Dim(_) => AffineExprKind::DimId,
            Data::Symbol(_) => AffineExprKind::SymbolId,
            Data::Constant(_) => AffineExprKind::Constant,
            Data::Binary(op, _, _) => match op {
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
        match self.0.data {
            Data::Dim(p) => Some(p),
            _ => None,
        }
    }

    /// The position if this is a symbol `s<pos>`.
    #[inline]
    pub fn as_symbol(&self) -> Option<u32> {
        match self.0.data {
            Data::Symbol(p) => Some(p),
            _ => None,
        }
    }

    /// The value if this is a constant.
    #[inline]
    pub fn as_constant(&self) -> Option<i64> {
        match self.0.data {
            Data::Constant(c) => Some(c),
            _ => None,
        }
    }

    /// The operator and operands if this is a binary expression.
    #[inline]
    pub fn as_binary(&self) -> Option<(BinaryOp, &AffineExpr, &AffineExpr)> {
        match &self.0.data {
            Data::Binary(op, l, r) => Some((*op, l, r)),
            _ => None,
        }
    }

    /// The operands if this is a binary expression with operator `op`.
    #[inline]
    pub(crate) fn as_op(&self, op: BinaryOp) -> Option<(&AffineExpr, &AffineExpr)> {
        match &self.0.data {
            Data::Binary(o, l, r) if *o == op => Some((l, r)),
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
        matches!(self.0.data, Data::Constant(_))
    }

    /// True if the expression is made of symbols and constants only (no
    /// dimension), as MLIR's `isSymbolicOrConstant`.
    #[inline]
    pub fn is_symbolic_or_constant(&self) -> bool {
        self.0.flags & SYMBOLIC_OR_CONSTANT != 0
    }

    /// True if this is a pure affine expression: multiplication only with a
    /// constant operand, and `floordiv`, `ceildiv`, `mod` only by a constant
    /// (MLIR's `isPureAffine`). Other expressions are "semi-affine".
    #[inline]
    pub fn is_pure_affine(&self) -> bool {
        self.0.flags & PURE_AFFINE != 0
    }

    /// True if this expression has a `floordiv`, `ceildiv` or `mod` by a
    /// positive constant (O(1): kept in the node).
    #[inline]
    pub fn divides_by_constant(&self) -> bool {
        self.0.flags & DIVIDES_BY_CONSTANT != 0
    }

    /// The depth of the expression tree (1 for a leaf).
    #[inline]
    pub fn depth(&self) -> u32 {
        self.0.depth
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
        self.0.lkd
    }

    /// True if every value of this expression is known to be a multiple of
    /// `factor` (from [`AffineExpr::get_largest_known_divisor`]). Always true
    /// for `factor` 1 or -1; false for `factor` 0 unless the expression is 0.
    pub fn is_multiple_of(&self, factor: i64) -> bool {
        if factor == 0 {
            return self.0.lkd == 0;
        }
        self.0.lkd.wrapping_rem(factor) == 0
    }

    /// True if dimension `pos` occurs in the expression.
    pub fn is_function_of_dim(&self, pos: u32) -> bool {
        match &self.0.data {
            Data::Dim(p) => *p == pos,
            Data::Binary(_, l, r) => l.is_function_of_dim(pos) || r.is_function_of_dim(pos),
            _ => false,
        }
    }

    /// True if symbol `pos` occurs in the expression.
    pub fn is_function_of_symbol(&self, pos: u32) -> bool {
        match &self.0.data {
            Data::Symbol(p) => *p == pos,
            Data::Binary(_, l, r) => l.is_function_of_symbol(pos) || r.is_function_of_symbol(pos),
            _ => false,
        }
    }

    /// Calls `f` on every node, children before parents (post-order, left
    /// operand first), like MLIR's `AffineExpr::walk`.
    pub fn walk(&self, f: &mut impl FnMut(&AffineExpr)) {
        if let Data::Binary(_, l, r) = &self.0.data {
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
        Arc::ptr_eq(&self.0, &other.0)
    }
}

fn structural_eq(a: &AffineExpr, b: &AffineExpr) -> bool {
    if Arc::ptr_eq(&a.0, &b.0) {
        return true;
    }
    let (x, y) = (&*a.0, &*b.0);
    if x.hash != y.hash || x.depth != y.depth {
        return false;
    }
    match (&x.data, &y.data) {
        (Data::Dim(p), Data::Dim(q)) | (Data::Symbol(p), Data::Symbol(q)) => p == q,
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
        state.write_u64(self.0.hash);
    }
}

impl fmt::Debug for AffineExpr {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "AffineExpr({self})")
    }
}
