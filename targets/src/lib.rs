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

pub mod brook;
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
    /// Brook+ kernels (map-style) and C++ host code against the Brook+ runtime.
    Brook,
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
    /// CUDA and OpenCL host code times every kernel launch and prints
    /// `lf-profile: launch KERNEL ms=T` to stderr (`--profile-launches`);
    /// off, the output is unchanged.
    pub profile_launches: bool,
}

impl Options {
    /// Default options for a target (RV770 profile for OpenCL, everything emitted).
    pub fn new(target: Target) -> Options {
        Options {
            target,
            profile: OpenClProfile::Rv770,
            amd_fp64: false,
            emit: Emit::All,
            profile_launches: false,
        }
    }
}

/// Translates the module `op` (stored in `body`) to source text (see
/// [`translate_with_warnings`], whose warnings this drops).
pub fn translate(ctx: &Context, body: &Body, op: OpId, opts: &Options) -> Result<String, Vec<Diagnostic>> {
    translate_with_warnings(ctx, body, op, opts).map(|t| t.code)
}

/// What [`translate_with_warnings`] makes.
#[derive(Debug)]
pub struct Translation {
    /// The source text.
    pub code: String,
    /// Warnings about the input (the code is complete all the same).
    pub warnings: Vec<Diagnostic>,
}

/// Translates the module `op` (stored in `body`) to source text, with
/// warnings.
///
/// A module without GPU kernels (no `gpu.func` kernel, no inline launch
/// outlined into one) is CPU code. With `@main` it becomes a host program
/// that links and runs on the CPU (its `main` calls `@main`), with the
/// warning "no GPU kernels"; without `@main` there is nothing to run or
/// launch, and it is an error (a program without `main` would not link).
/// `--emit=kernels` of such a module is a warning and a file without kernels.
pub fn translate_with_warnings(
    ctx: &Context,
    body: &Body,
    op: OpId,
    opts: &Options,
) -> Result<Translation, Vec<Diagnostic>> {
    let program = module::Program::collect(ctx, body, op)?;
    // What cannot be emitted is reported first.
    let code = match opts.target {
        Target::Cuda => cuda::emit_program(ctx, &program, opts),
        Target::OpenCl => opencl::emit_program(ctx, &program, opts),
        Target::Brook => brook::emit_program(ctx, &program, opts.emit),
    }?;
    let mut warnings = Vec::new();
    if program.kernels.is_empty() {
        let pos = module_pos(ctx, body, op);
        let has_main = program.host_funcs.iter().any(|f| f.name == "main");
        match opts.emit {
            Emit::All if !has_main => {
                return Err(vec![Diagnostic::error(
                    pos,
                    "no GPU kernels and no @main: nothing to emit (lf-translate writes a GPU program, \
                     with kernels in gpu.modules or inline gpu.launch ops, or a host program whose `main` \
                     calls @main; lf-run runs CPU code as it is)",
                )]);
            }
            Emit::All => warnings.push(Diagnostic::warning(
                pos,
                "no GPU kernels: the program is host code only (its `main` calls @main on the CPU)",
            )),
            Emit::Kernels => warnings.push(Diagnostic::warning(pos, "no GPU kernels: the output holds no kernel")),
        }
    }
    Ok(Translation { code, warnings })
}

/// Where a diagnostic about the whole module `op` points: the module's
/// location, or the first line of its file when that is the file's `0:0`
/// (MLIR's location of an implicit module).
fn module_pos(ctx: &Context, body: &Body, op: OpId) -> Option<lf_diag::SourcePos> {
    module::op_pos(ctx, body, op).map(|mut p| {
        if p.line == 0 {
            p.line = 1;
            p.col = 1;
        }
        p
    })
}
