//! Common type and attribute constraints, named and described as in MLIR
//! (the descriptions appear in verifier messages and the op reference).

use super::{AttrConstraint, AttrKind, IntWidth, TypeConstraint};
use crate::attrs::AttrData;
use crate::types::Signedness;
use crate::{Attribute, Context, Type, TypeData};

/// The element type of a vector or tensor, or the type itself.
pub fn element_or_self(ctx: &Context, t: Type) -> Type {
    match ctx.type_data(t) {
        TypeData::Vector { element, .. } | TypeData::Tensor { element, .. } | TypeData::UnrankedTensor { element } => {
            *element
        }
        _ => t,
    }
}

/// Whether `t` is a signless integer.
pub fn is_signless_int(ctx: &Context, t: Type) -> bool {
    matches!(
        ctx.type_data(t),
        TypeData::Integer {
            signedness: Signedness::Signless,
            ..
        }
    )
}

/// Whether `t` is a signless integer or `index`.
pub fn is_signless_int_or_index(ctx: &Context, t: Type) -> bool {
    is_signless_int(ctx, t) || ctx.type_data(t).is_index()
}

/// Whether `t` is `i1`.
pub fn is_i1(ctx: &Context, t: Type) -> bool {
    t == ctx.common().i1
}

macro_rules! type_constraint {
    ($(#[$m:meta])* $name:ident, $summary:expr, $check:expr) => {
        $(#[$m])*
        pub static $name: TypeConstraint = TypeConstraint {
            summary: $summary,
            check: $check,
            build: None,
        };
    };
    ($(#[$m:meta])* $name:ident, $summary:expr, $check:expr, $build:expr) => {
        $(#[$m])*
        pub static $name: TypeConstraint = TypeConstraint {
            summary: $summary,
            check: $check,
            build: Some($build),
        };
    };
}

type_constraint!(
    /// Any type.
    ANY_TYPE,
    "any type",
    |_, _| true
);
type_constraint!(
    /// `index`.
    INDEX,
    "index",
    |ctx, t| ctx.type_data(t).is_index(),
    |ctx| ctx.common().index
);
type_constraint!(
    /// `i1`.
    I1,
    "1-bit signless integer",
    is_i1,
    |ctx| ctx.common().i1
);
type_constraint!(
    /// A signless integer.
    SIGNLESS_INTEGER,
    "signless integer",
    is_signless_int
);
type_constraint!(
    /// A signless integer or `index`.
    SIGNLESS_INTEGER_OR_INDEX,
    "signless integer or index",
    is_signless_int_or_index
);
type_constraint!(
    /// Any integer (signless, signed or unsigned).
    ANY_INTEGER,
    "integer",
    |ctx, t| ctx.type_data(t).is_integer()
);
type_constraint!(
    /// A signless integer or index, or a vector/tensor of them.
    SIGNLESS_INTEGER_LIKE,
    "signless-integer-like",
    |ctx, t| is_signless_int_or_index(ctx, element_or_self(ctx, t))
);
type_constraint!(
    /// A signless integer (not index), or a vector/tensor of them.
    SIGNLESS_FIXED_INTEGER_LIKE,
    "signless-fixed-width-integer-like",
    |ctx, t| is_signless_int(ctx, element_or_self(ctx, t))
);
type_constraint!(
    /// `i1`, or a vector/tensor of `i1`.
    BOOL_LIKE,
    "bool-like",
    |ctx, t| is_i1(ctx, element_or_self(ctx, t))
);
type_constraint!(
    /// A float, or a vector/tensor of floats.
    FLOAT_LIKE,
    "floating-point-like",
    |ctx, t| ctx.type_data(element_or_self(ctx, t)).is_float()
);
type_constraint!(
    /// A float.
    ANY_FLOAT,
    "floating-point",
    |ctx, t| ctx.type_data(t).is_float()
);
type_constraint!(
    /// Any signless integer, index or float, or a vector/tensor of them.
    SIGNLESS_INTEGER_OR_FLOAT_LIKE,
    "signless-integer-or-float-like",
    |ctx, t| {
        let e = element_or_self(ctx, t);
        is_signless_int_or_index(ctx, e) || ctx.type_data(e).is_float()
    }
);
type_constraint!(
    /// A ranked or unranked memref.
    ANY_MEMREF,
    "memref of any type values",
    |ctx, t| matches!(
        ctx.type_data(t),
        TypeData::MemRef { .. } | TypeData::UnrankedMemRef { .. }
    )
);
type_constraint!(
    /// A ranked memref.
    RANKED_MEMREF,
    "ranked memref of any type values",
    |ctx, t| matches!(ctx.type_data(t), TypeData::MemRef { .. })
);
type_constraint!(
    /// A function type.
    FUNCTION_TYPE,
    "function type",
    |ctx, t| matches!(ctx.type_data(t), TypeData::Function { .. })
);
type_constraint!(
    /// A vector.
    ANY_VECTOR,
    "vector of any type values",
    |ctx, t| matches!(ctx.type_data(t), TypeData::Vector { .. })
);

macro_rules! attr_constraint {
    ($(#[$m:meta])* $name:ident, $summary:expr, $kind:ident $(($arg:expr))?, $check:expr) => {
        $(#[$m])*
        pub static $name: AttrConstraint = AttrConstraint {
            summary: $summary,
            check: $check,
            parse: None,
            print: None,
            is_unit: false,
            kind: AttrKind::$kind $(($arg))?,
        };
    };
}

attr_constraint!(
    /// Any attribute.
    ANY_ATTR,
    "any attribute",
    Any,
    |_, _| true
);
attr_constraint!(
    /// An attribute with a type (integer, float, dense elements).
    TYPED_ATTR,
    "TypedAttr instance",
    Any,
    |ctx, a| matches!(
        ctx.attr_data(a),
        AttrData::Integer { .. } | AttrData::Float { .. } | AttrData::DenseElements { .. }
    )
);
attr_constraint!(
    /// A string.
    STRING_ATTR,
    "string attribute",
    Str,
    |ctx, a| matches!(ctx.attr_data(a), AttrData::String { .. })
);
attr_constraint!(
    /// A symbol reference without nested references (`@f`).
    FLAT_SYMBOL_REF,
    "flat symbol reference attribute",
    FlatSymbolRef,
    |ctx, a| matches!(ctx.attr_data(a), AttrData::SymbolRef { nested, .. } if nested.is_empty())
);
attr_constraint!(
    /// Any symbol reference (`@m::@f`).
    SYMBOL_REF,
    "symbol reference attribute",
    Any,
    |ctx, a| matches!(ctx.attr_data(a), AttrData::SymbolRef { .. })
);
attr_constraint!(
    /// A function type, as a type attribute.
    FUNCTION_TYPE_ATTR,
    "type attribute of function type",
    Type,
    |ctx, a| matches!(ctx.attr_data(a), AttrData::Type(t) if matches!(ctx.type_data(*t), TypeData::Function { .. }))
);
attr_constraint!(
    /// Any type attribute.
    TYPE_ATTR,
    "any type attribute",
    Type,
    |ctx, a| matches!(ctx.attr_data(a), AttrData::Type(_))
);
attr_constraint!(
    /// A 64-bit signless integer.
    I64_ATTR,
    "64-bit signless integer attribute",
    Int(IntWidth::I64),
    |ctx, a| matches!(ctx.attr_data(a), AttrData::Integer { ty, .. } if *ty == ctx.common().i64)
);
attr_constraint!(
    /// A 32-bit signless integer.
    I32_ATTR,
    "32-bit signless integer attribute",
    Int(IntWidth::I32),
    |ctx, a| matches!(ctx.attr_data(a), AttrData::Integer { ty, .. } if *ty == ctx.common().i32)
);
attr_constraint!(
    /// An integer of type `index`.
    INDEX_ATTR,
    "index attribute",
    Int(IntWidth::Index),
    |ctx, a| matches!(ctx.attr_data(a), AttrData::Integer { ty, .. } if *ty == ctx.common().index)
);
attr_constraint!(
    /// `true` or `false`.
    BOOL_ATTR,
    "bool attribute",
    Bool,
    |ctx, a| matches!(ctx.attr_data(a), AttrData::Integer { ty, .. } if *ty == ctx.common().i1)
);
attr_constraint!(
    /// An array.
    ARRAY_ATTR,
    "array attribute",
    Any,
    |ctx, a| matches!(ctx.attr_data(a), AttrData::Array(_))
);
attr_constraint!(
    /// An array of dictionaries (argument and result attributes).
    DICT_ARRAY_ATTR,
    "Array of dictionary attributes",
    Any,
    |ctx, a| matches!(ctx.attr_data(a), AttrData::Array(v) if v.iter().all(|x| matches!(ctx.attr_data(*x), AttrData::Dictionary(_))))
);
attr_constraint!(
    /// An affine map.
    AFFINE_MAP_ATTR,
    "AffineMap attribute",
    AffineMap,
    |ctx, a| matches!(ctx.attr_data(a), AttrData::AffineMap(_))
);
attr_constraint!(
    /// An integer set.
    INTEGER_SET_ATTR,
    "IntegerSet attribute",
    IntegerSet,
    |ctx, a| matches!(ctx.attr_data(a), AttrData::IntegerSet(_))
);
attr_constraint!(
    /// A `array<i64: ...>`.
    DENSE_I64_ARRAY_ATTR,
    "i64 dense array attribute",
    DenseIntArray(IntWidth::I64),
    |ctx, a| matches!(ctx.attr_data(a), AttrData::DenseArray { element, .. } if *element == ctx.common().i64)
);
attr_constraint!(
    /// A `array<i32: ...>`.
    DENSE_I32_ARRAY_ATTR,
    "i32 dense array attribute",
    DenseIntArray(IntWidth::I32),
    |ctx, a| matches!(ctx.attr_data(a), AttrData::DenseArray { element, .. } if *element == ctx.common().i32)
);

/// The `unit` attribute, as a flag.
pub static UNIT_ATTR: AttrConstraint = AttrConstraint {
    summary: "unit attribute",
    check: |ctx, a| matches!(ctx.attr_data(a), AttrData::Unit),
    parse: None,
    print: None,
    is_unit: true,
    kind: AttrKind::Unit,
};

/// Whether an attribute is an integer attribute; returns its value.
pub fn int_value(ctx: &Context, a: Attribute) -> Option<i128> {
    match ctx.attr_data(a) {
        AttrData::Integer { value, .. } => Some(*value),
        _ => None,
    }
}
