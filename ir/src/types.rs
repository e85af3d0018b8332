//! Builtin types: their data, uniqued in the [`Context`](crate::Context).

use crate::{Attribute, Context, Ident};

/// A uniqued type. Two types are equal exactly when their ids are equal.
#[derive(Copy, Clone, PartialEq, Eq, Hash, PartialOrd, Ord, Debug)]
pub struct Type(pub(crate) u32);

/// Signedness of an integer type: `i32` (signless), `si32`, `ui32`.
#[derive(Copy, Clone, PartialEq, Eq, Hash, Debug)]
pub enum Signedness {
    /// `iN`
    Signless,
    /// `siN`
    Signed,
    /// `uiN`
    Unsigned,
}

/// Floating-point formats.
#[derive(Copy, Clone, PartialEq, Eq, Hash, Debug)]
pub enum FloatKind {
    /// `f16`, IEEE half.
    F16,
    /// `bf16`, bfloat16.
    BF16,
    /// `f32`.
    F32,
    /// `f64`.
    F64,
}

impl FloatKind {
    /// The keyword MLIR uses for this format.
    pub fn keyword(self) -> &'static str {
        match self {
            FloatKind::F16 => "f16",
            FloatKind::BF16 => "bf16",
            FloatKind::F32 => "f32",
            FloatKind::F64 => "f64",
        }
    }
    /// Width in bits.
    pub fn width(self) -> u32 {
        match self {
            FloatKind::F16 | FloatKind::BF16 => 16,
            FloatKind::F32 => 32,
            FloatKind::F64 => 64,
        }
    }
}

/// Marker for a dynamic size (`?`) in a shape, as in MLIR.
pub const DYNAMIC: i64 = i64::MIN;

/// The data of a type.
#[derive(Clone, PartialEq, Eq, Hash, Debug)]
pub enum TypeData {
    /// `iN`, `siN`, `uiN`.
    Integer {
        /// Bit width (1 to 128 here; MLIR allows more).
        width: u32,
        /// Signedness.
        signedness: Signedness,
    },
    /// `index`.
    Index,
    /// A float type.
    Float(FloatKind),
    /// `none`.
    None,
    /// `(inputs) -> results`.
    Function {
        /// Argument types.
        inputs: Box<[Type]>,
        /// Result types.
        results: Box<[Type]>,
    },
    /// `memref<4x?xf32, layout, space>`.
    MemRef {
        /// Sizes, [`DYNAMIC`] for `?`.
        shape: Box<[i64]>,
        /// Element type.
        element: Type,
        /// Layout attribute (affine map or strided), if any.
        layout: Option<Attribute>,
        /// Memory space attribute, if any.
        memory_space: Option<Attribute>,
    },
    /// `memref<*xf32, space>`.
    UnrankedMemRef {
        /// Element type.
        element: Type,
        /// Memory space attribute, if any.
        memory_space: Option<Attribute>,
    },
    /// `vector<4x[8]xf32>`.
    Vector {
        /// Sizes.
        shape: Box<[i64]>,
        /// Which dimensions are scalable (`[8]`).
        scalable: Box<[bool]>,
        /// Element type.
        element: Type,
    },
    /// `tensor<4x?xf32, encoding>`.
    Tensor {
        /// Sizes, [`DYNAMIC`] for `?`.
        shape: Box<[i64]>,
        /// Element type.
        element: Type,
        /// Encoding attribute, if any.
        encoding: Option<Attribute>,
    },
    /// `tensor<*xf32>`.
    UnrankedTensor {
        /// Element type.
        element: Type,
    },
    /// `tuple<i32, f32>`.
    Tuple(Box<[Type]>),
    /// `complex<f32>`.
    Complex(Type),
    /// A type of another dialect, kept as text: `!dialect<body>` or
    /// `!dialect.mnemonic<body>`; `body` is everything after the dialect name.
    Dialect {
        /// The dialect namespace.
        dialect: Ident,
        /// The rest of the spelling, e.g. `.ptr` or `<"opaque">`.
        body: Box<str>,
    },
}

impl Type {
    /// The type's data.
    #[inline]
    pub fn data(self, ctx: &Context) -> &TypeData {
        ctx.type_data(self)
    }
    /// The raw id, for dense side tables.
    pub fn id(self) -> u32 {
        self.0
    }
}

impl TypeData {
    /// Whether this is an integer type (of any signedness).
    pub fn is_integer(&self) -> bool {
        matches!(self, TypeData::Integer { .. })
    }
    /// Whether this is `index`.
    pub fn is_index(&self) -> bool {
        matches!(self, TypeData::Index)
    }
    /// Whether this is a float type.
    pub fn is_float(&self) -> bool {
        matches!(self, TypeData::Float(_))
    }
    /// The shape of a shaped type (memref, vector, tensor), if ranked.
    pub fn shape(&self) -> Option<&[i64]> {
        match self {
            TypeData::MemRef { shape, .. } | TypeData::Vector { shape, .. } | TypeData::Tensor { shape, .. } => {
                Some(shape)
            }
            _ => None,
        }
    }
    /// The element type of a shaped type.
    pub fn element_type(&self) -> Option<Type> {
        match self {
            TypeData::MemRef { element, .. }
            | TypeData::UnrankedMemRef { element, .. }
            | TypeData::Vector { element, .. }
            | TypeData::Tensor { element, .. }
            | TypeData::UnrankedTensor { element }
            | TypeData::Complex(element) => Some(*element),
            _ => None,
        }
    }
}
