//! lf-targets: source emitters that turn gpu-dialect IR (outlined kernels in
//! `gpu.module`s plus host `func.func`s) into CUDA or OpenCL C.
//!
//! - [`translate`]: a whole module to one CUDA `.cu` file or one OpenCL host
//!   C file (with the kernels embedded), or the kernels alone.
//! - [`opencl::kernel_source`]: the OpenCL C of one `gpu.func`, for running a
//!   single launch from Rust.
//! - [`rv770`]: the RV770 profile checks applied to OpenCL output.
//!
//! Errors are [`Diagnostic`]s at the offending op's location; nothing is
//! emitted for IR that a target cannot represent.

mod ctypes;
pub mod cuda;
mod emit;
mod expr;
mod host;
mod kernel;
pub mod module;
mod names;
pub mod opencl;
mod runtime;
pub mod rv770;

pub use lf_diag::Diagnostic;
use lf_ir::{Body, Context, OpId};

/// The language to emit.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Target {
    /// One CUDA C++ `.cu` file: kernels and host code.
    Cuda,
    /// OpenCL C 1.1 kernels and host C against the OpenCL API.
    OpenCl,
}

/// An OpenCL device profile whose rules the emitter enforces.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum OpenClProfile {
    /// No rules beyond OpenCL C 1.1.
    Generic,
    /// AMD RV770-class GPUs (Radeon HD 4870/4850), see [`rv770`].
    Rv770,
}

/// Which part of the program to emit.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Emit {
    /// A complete program: kernels and host code.
    All,
    /// The device code only (CUDA kernels, or the `.cl` source).
    Kernels,
}

/// Translation options.
#[derive(Clone, Debug)]
pub struct Options {
    /// The target language.
    pub target: Target,
    /// The OpenCL profile (ignored for CUDA).
    pub profile: OpenClProfile,
    /// Allow `f64` in OpenCL kernels through the `cl_amd_fp64` extension.
    pub amd_fp64: bool,
    /// Which part to emit.
    pub emit: Emit,
}

impl Options {
    /// Default options for a target (RV770 profile for OpenCL, everything emitted).
    pub fn new(target: Target) -> Options {
        Options {
            target,
            profile: OpenClProfile::Rv770,
            amd_fp64: false,
            emit: Emit::All,
        }
    }
}

/// Translates the module `op` (stored in `body`) to source text.
pub fn translate(ctx: &Context, body: &Body, op: OpId, opts: &Options) -> Result<String, Vec<Diagnostic>> {
    let program = module::Program::collect(ctx, body, op)?;
    match opts.target {
        Target::Cuda => cuda::emit_program(ctx, &program, opts.emit),
        Target::OpenCl => opencl::emit_program(ctx, &program, opts),
    }
}
