//! Builtin attributes: their data, uniqued in the [`Context`](crate::Context).

use crate::affine::{AffineMap, IntegerSet};
use crate::{Context, Ident, Type};

/// A uniqued attribute. Two attributes are equal exactly when their ids are equal.
#[derive(Copy, Clone, PartialEq, Eq, Hash, PartialOrd, Ord, Debug)]
pub struct Attribute(pub(crate) u32);

/// An `Option<Attribute>` in 4 bytes (ops store two).
#[derive(Copy, Clone, Debug)]
pub(crate) struct OptAttr(u32);

impl OptAttr {
    #[inline]
    pub(crate) fn new(a: Option<Attribute>) -> OptAttr {
        match a {
            Some(a) => {
                debug_assert!(a.0 != u32::MAX, "attribute id out of range");
                OptAttr(a.0)
            }
            None => OptAttr(u32::MAX),
        }
    }

    #[inline]
    pub(crate) fn get(self) -> Option<Attribute> {
        (self.0 != u32::MAX).then_some(Attribute(self.0))
    }
}

/// The element values of a `dense<...>` attribute, in row-major order.
#[derive(Clone, PartialEq, Eq, Hash, Debug)]
pub enum DenseValues {
    /// Integer elements (sign- or zero-extended per the element type).
    Int(Box<[i128]>),
    /// Float elements as their bits in the element type's own format
    /// (an `f32` element keeps its 32 bits, zero-extended).
    Float(Box<[u64]>),
}

/// The data of a location (MLIR's `LocationAttr` kinds).
#[derive(Clone, PartialEq, Eq, Hash, Debug)]
pub enum LocationData {
    /// `loc(unknown)`.
    Unknown,
    /// `loc("file":line:col)`.
    FileLineCol {
        /// File name.
        file: Ident,
        /// 1-based line.
        line: u32,
        /// 1-based column.
        col: u32,
    },
    /// `loc("name")` or `loc("name"(child))`.
    Name {
        /// The name.
        name: Ident,
        /// The child location, if any.
        child: Option<Attribute>,
    },
    /// `loc(callsite(callee at caller))`.
    CallSite {
        /// The callee location.
        callee: Attribute,
        /// The caller location.
        caller: Attribute,
    },
    /// `loc(fused<metadata>[a, b])`.
    Fused {
        /// Optional metadata attribute.
        metadata: Option<Attribute>,
        /// The fused locations.
        locations: Box<[Attribute]>,
    },
}

/// The data of an attribute.
#[derive(Clone, PartialEq, Eq, Hash, Debug)]
pub enum AttrData {
    /// `unit`.
    Unit,
    /// `42 : i32`; `true`/`false` are integers of type `i1`. The value is
    /// sign-extended for signless and signed types, zero-extended for unsigned.
    Integer {
        /// The value.
        value: i128,
        /// Its type (an integer type or `index`).
        ty: Type,
    },
    /// `1.5 : f32`; the value is kept as its bits in the type's own format.
    Float {
        /// The value's bits in its type's format (zero-extended to 64 bits).
        bits: u64,
        /// Its type (a float type).
        ty: Type,
    },
    /// `"text"`, optionally typed (`"text" : i32`).
    String {
        /// The text (unescaped).
        value: Box<str>,
        /// Optional type.
        ty: Option<Type>,
    },
    /// `[a, b]`.
    Array(Box<[Attribute]>),
    /// `{a = 1, b}`, sorted by name.
    Dictionary(DictEntries),
    /// `array<i32: 1, 2>`.
    DenseArray {
        /// Element type.
        element: Type,
        /// Values (floats as `f64` bits).
        values: DenseValues,
    },
    /// `dense<...> : tensor<...>`.
    DenseElements {
        /// The shaped type.
        ty: Type,
        /// The elements; one element means a splat.
        values: DenseValues,
    },
    /// A type used as an attribute.
    Type(Type),
    /// `@root::@nested`.
    SymbolRef {
        /// The root symbol.
        root: Ident,
        /// Nested references.
        nested: Box<[Ident]>,
    },
    /// `affine_map<...>`.
    AffineMap(AffineMap),
    /// `affine_set<...>`.
    IntegerSet(IntegerSet),
    /// `strided<[s0, s1], offset: o>`, [`DYNAMIC`](crate::DYNAMIC) for `?`.
    Strided {
        /// Strides.
        strides: Box<[i64]>,
        /// Offset.
        offset: i64,
    },
    /// A location.
    Location(LocationData),
    /// An attribute of another dialect kept as text: `#dialect<body>` or
    /// `#dialect.mnemonic<body>`; `body` is everything after the dialect name.
    Dialect {
        /// The dialect namespace.
        dialect: Ident,
        /// The rest of the spelling.
        body: Box<str>,
    },
}

impl Attribute {
    /// The attribute's data.
    #[inline]
    pub fn data(self, ctx: &Context) -> &AttrData {
        ctx.attr_data(self)
    }
    /// The raw id, for dense side tables.
    pub fn id(self) -> u32 {
        self.0
    }
}

/// The entries of a dictionary attribute. Most dictionaries (an op's
/// properties) have up to four: those live inline, so reading an op's
/// property is one memory access fewer.
pub type DictEntries = smallvec::SmallVec<[(Ident, Attribute); 4]>;

impl AttrData {
    /// The entries of a dictionary attribute (empty for any other kind).
    pub fn dict_entries(&self) -> &[(Ident, Attribute)] {
        match self {
            AttrData::Dictionary(entries) => entries,
            _ => &[],
        }
    }
    /// Whether this is a location.
    pub fn is_location(&self) -> bool {
        matches!(self, AttrData::Location(_))
    }
}
