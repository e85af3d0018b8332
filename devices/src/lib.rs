//! lf-devices: the device backends of `lf-run --gpu-backend=opencl|cuda`.
//!
//! The host part of a program runs in the interpreter (lf-interp); each
//! `gpu.launch_func` runs the kernel as the emitters' source (lf-targets) on
//! a real device, through lf-interp's [`DeviceBackend`] interface.
//!
//! - [`kernels`] makes the source of every kernel of a module (after
//!   outlining inline launches with `gpu-kernel-outlining`).
//! - [`opencl`] and [`cuda`] open devices and run launches.

pub mod cuda;
pub mod kernels;
pub mod opencl;

use lf_diag::{Diagnostic, SourceMgr};
use lf_interp::device::{Device, KernelSource};
use lf_interp::DeviceBackend;
use lf_ir::{Body, Context, OpId, OwnedOp};
use rustc_hash::FxHashMap;
use std::sync::Arc;

/// Where kernel launches run, as `lf-run --gpu-backend` names it.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq)]
pub enum GpuBackend {
    /// In the interpreter, with race, bounds and barrier checking.
    #[default]
    Sim,
    /// As emitted OpenCL C on the first OpenCL device (through opencl3).
    OpenCl,
    /// As emitted CUDA, compiled by nvcc, through the CUDA driver API.
    Cuda,
}

impl GpuBackend {
    /// The name used on the command line.
    pub fn name(self) -> &'static str {
        match self {
            GpuBackend::Sim => "sim",
            GpuBackend::OpenCl => "opencl",
            GpuBackend::Cuda => "cuda",
        }
    }

    /// The backend named `s` on the command line.
    pub fn parse(s: &str) -> Result<GpuBackend, String> {
        match s {
            "sim" => Ok(GpuBackend::Sim),
            "opencl" => Ok(GpuBackend::OpenCl),
            "cuda" => Ok(GpuBackend::Cuda),
            _ => Err("expected sim, opencl or cuda".into()),
        }
    }

    /// The device backend for lf-interp's options (`None` for `sim`).
    pub fn device(self) -> Option<Arc<dyn DeviceBackend>> {
        match self {
            GpuBackend::Sim => None,
            GpuBackend::OpenCl | GpuBackend::Cuda => Some(Arc::new(Backend(self))),
        }
    }
}

/// A device backend: OpenCL or CUDA.
struct Backend(GpuBackend);

impl DeviceBackend for Backend {
    fn name(&self) -> &'static str {
        self.0.name()
    }

    fn prepare(&self, ctx: &Context, owned: &mut OwnedOp) -> Result<(), Vec<Diagnostic>> {
        lf_dialects::gpu::transforms::gpu_kernel_outlining::outline_module(ctx, owned)
    }

    fn kernels(
        &self,
        ctx: &Context,
        body: &Body,
        op: OpId,
        sources: &SourceMgr,
        find: &dyn Fn(&str) -> Option<u32>,
    ) -> FxHashMap<u32, KernelSource> {
        kernels::kernels(ctx, body, op, self.0, sources, find)
    }

    fn open(&self, kernels: FxHashMap<u32, KernelSource>) -> Result<Box<dyn Device>, String> {
        Ok(match self.0 {
            GpuBackend::OpenCl => Box::new(opencl::OpenClDevice::open(kernels)?),
            _ => Box::new(cuda::CudaDevice::open(kernels)?),
        })
    }
}
