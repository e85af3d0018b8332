//! Scalar types in C, per dialect of C.

use lf_ir::{Context, FloatKind, Type, TypeData};

/// The C dialect being written.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Flavor {
    /// CUDA device code.
    CudaDevice,
    /// C++ host code of a `.cu` file.
    CudaHost,
    /// OpenCL C 1.1 kernels.
    OclDevice,
    /// C host code against the OpenCL API.
    OclHost,
    /// Brook+ kernels (C89 with Brook+'s types: no 64-bit integers, no
    /// pointers; see `docs/design/brook.md`).
    BrookKernel,
    /// C++ host code against the Brook+ runtime (`brook::Stream<T>`).
    BrookHost,
}

impl Flavor {
    /// Whether this is device code.
    pub fn is_device(self) -> bool {
        matches!(self, Flavor::CudaDevice | Flavor::OclDevice | Flavor::BrookKernel)
    }
}

/// The C spelling of a scalar type, or `None` if the target has none. An
/// `i1` value is a `bool` in kernels (the GPU compiler keeps a loop-carried
/// flag in a predicate register) and an `int` in host code.
pub fn scalar(ctx: &Context, t: Type, flavor: Flavor) -> Option<&'static str> {
    if flavor == Flavor::BrookKernel {
        return brook_scalar(ctx, t);
    }
    let ocl = flavor == Flavor::OclDevice;
    Some(match ctx.type_data(t) {
        TypeData::Index => {
            if flavor.is_device() {
                "int"
            } else {
                "int64_t"
            }
        }
        TypeData::Integer { width: 1, .. } => {
            if ocl || flavor == Flavor::CudaDevice {
                "bool"
            } else {
                "int"
            }
        }
        TypeData::Integer { width, .. } => match (width, ocl) {
            (8, true) => "char",
            (16, true) => "short",
            (32, true) => "int",
            (64, true) => "long",
            (8, false) => "int8_t",
            (16, false) => "int16_t",
            (32, false) => "int32_t",
            (64, false) => "int64_t",
            _ => return None,
        },
        TypeData::Float(FloatKind::F32) => "float",
        TypeData::Float(FloatKind::F64) => "double",
        TypeData::Vector { .. } if flavor.is_device() => return vector(ctx, t),
        _ => return None,
    })
}

/// Brook+'s spelling of a scalar or vector type: `index`, `i1` and `i32`
/// are `int`; there are no 64-bit integers.
fn brook_scalar(ctx: &Context, t: Type) -> Option<&'static str> {
    Some(match ctx.type_data(t) {
        TypeData::Index => "int",
        TypeData::Integer { width: 1 | 32, .. } => "int",
        TypeData::Integer { width: 16, .. } => "short",
        TypeData::Integer { width: 8, .. } => "char",
        TypeData::Float(FloatKind::F32) => "float",
        TypeData::Float(FloatKind::F64) => "double",
        TypeData::Vector { .. } => return vector(ctx, t),
        _ => return None,
    })
}

/// The CUDA and OpenCL C vector type of a 1-D vector: `float2`, `float4`,
/// `double2`; `None` for other vectors.
pub fn vector(ctx: &Context, t: Type) -> Option<&'static str> {
    let (n, e) = lf_dialects::vector::vector_shape(ctx, t)?;
    Some(match (ctx.type_data(e), n) {
        (TypeData::Float(FloatKind::F32), 2) => "float2",
        (TypeData::Float(FloatKind::F32), 4) => "float4",
        (TypeData::Float(FloatKind::F64), 2) => "double2",
        _ => return None,
    })
}

/// The lane count of a vector type the emitters support (see [`vector`]).
pub fn lanes(ctx: &Context, t: Type) -> Option<usize> {
    vector(ctx, t)?;
    lf_dialects::vector::vector_shape(ctx, t).map(|(n, _)| n as usize)
}

/// The component of lane `k` (`.x`, `.y`, `.z`, `.w`).
pub fn component(k: usize) -> &'static str {
    ["x", "y", "z", "w"][k]
}

/// The C spelling of the elements of a memref of `t` (a buffer, a
/// workgroup or private array): the scalar's, except `i1`, which is one
/// byte holding 0 or 1 in every buffer, on the host and in kernels, in CUDA
/// and OpenCL alike (`uint8_t`; `uchar` in OpenCL C, where `bool` has no
/// defined size and may not be a kernel argument's pointee). This is MLIR's
/// layout of `memref<...xi1>` too (LLVM stores an `i1` in a byte). A
/// loaded element converts to the scalar `i1` type (`int` or `bool`)
/// unchanged; a stored `i1` is 0 or 1.
pub fn element(ctx: &Context, t: Type, flavor: Flavor) -> Option<&'static str> {
    match ctx.type_data(t) {
        TypeData::Integer { width: 1, .. } if matches!(flavor, Flavor::OclDevice | Flavor::BrookKernel) => {
            Some("uchar")
        }
        TypeData::Integer { width: 1, .. } => Some("uint8_t"),
        _ => scalar(ctx, t, flavor),
    }
}

/// The unsigned spelling of an integer type (for unsigned compares, divisions, shifts).
pub fn unsigned(ctx: &Context, t: Type, flavor: Flavor) -> Option<&'static str> {
    if flavor == Flavor::BrookKernel {
        return Some(match ctx.type_data(t) {
            TypeData::Index | TypeData::Integer { width: 1 | 32, .. } => "uint",
            TypeData::Integer { width: 16, .. } => "ushort",
            TypeData::Integer { width: 8, .. } => "uchar",
            _ => return None,
        });
    }
    let ocl = flavor == Flavor::OclDevice;
    Some(match ctx.type_data(t) {
        TypeData::Index if flavor.is_device() => "unsigned int",
        TypeData::Index => "uint64_t",
        TypeData::Integer { width, .. } => match (width, ocl) {
            (1, _) => "unsigned int",
            (8, true) => "uchar",
            (16, true) => "ushort",
            (32, true) => "uint",
            (64, true) => "ulong",
            (8, false) => "uint8_t",
            (16, false) => "uint16_t",
            (32, false) => "uint32_t",
            (64, false) => "uint64_t",
            _ => return None,
        },
        _ => return None,
    })
}

/// Size in bytes of a scalar element type.
pub fn byte_size(ctx: &Context, t: Type) -> Option<u64> {
    Some(match ctx.type_data(t) {
        TypeData::Index => 8,
        TypeData::Integer { width, .. } => (*width as u64).div_ceil(8),
        TypeData::Float(k) => k.width() as u64 / 8,
        _ => return None,
    })
}

/// Whether `t` is `f64`.
pub fn is_f64(ctx: &Context, t: Type) -> bool {
    matches!(ctx.type_data(t), TypeData::Float(FloatKind::F64))
}

/// Whether `t` is a float type.
pub fn is_float(ctx: &Context, t: Type) -> bool {
    matches!(ctx.type_data(t), TypeData::Float(_))
}
