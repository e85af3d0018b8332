//! The compiler of a backend, found and probed once before any variant is
//! built: the C compiler and an OpenCL device (OpenCL), or nvcc and a CUDA
//! device (CUDA). Each problem is an error naming what is missing.

use std::path::{Path, PathBuf};
use std::process::Command;

/// Where the variants run.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Backend {
    /// OpenCL host C, built with a C compiler against `-lOpenCL`.
    OpenCl,
    /// One `.cu` file, built with nvcc.
    Cuda,
}

/// A compiler ready to build variants of one backend.
#[derive(Clone, Debug)]
pub struct Toolchain {
    /// The backend.
    pub backend: Backend,
    /// The compiler: the C compiler (OpenCL) or nvcc (CUDA).
    pub compiler: PathBuf,
    /// nvcc's `-arch` (CUDA only).
    pub arch: String,
}

/// Resolves a program name (`gcc`) on `PATH`, or a path as it is.
fn resolve(program: &str) -> Option<PathBuf> {
    if program.contains(std::path::MAIN_SEPARATOR) {
        let p = PathBuf::from(program);
        return p.is_file().then_some(p);
    }
    let path = std::env::var_os("PATH")?;
    std::env::split_paths(&path)
        .map(|d| d.join(program))
        .find(|p| p.is_file())
}

/// A C program that exits 0 if an OpenCL platform has a device.
const OPENCL_PROBE: &str = r#"#define CL_TARGET_OPENCL_VERSION 110
#include <CL/cl.h>
#include <stdio.h>
int main(void) {
  cl_platform_id p[16];
  cl_uint np = 0;
  if (clGetPlatformIDs(16, p, &np) != CL_SUCCESS || np == 0) { puts("no OpenCL platform"); return 1; }
  for (cl_uint i = 0; i < np; i++) {
    cl_uint nd = 0;
    cl_device_id d;
    if (clGetDeviceIDs(p[i], CL_DEVICE_TYPE_ALL, 1, &d, &nd) == CL_SUCCESS && nd > 0) return 0;
  }
  puts("OpenCL platforms without a device");
  return 1;
}
"#;

/// A CUDA program that exits 0 if there is a CUDA device.
const CUDA_PROBE: &str = r#"#include <cuda_runtime.h>
#include <stdio.h>
int main(void) {
  int n = 0;
  cudaError_t e = cudaGetDeviceCount(&n);
  if (e != cudaSuccess) { printf("%s\n", cudaGetErrorString(e)); return 1; }
  if (n == 0) { puts("no CUDA device"); return 1; }
  return 0;
}
"#;

/// The first lines of a command's output, for an error message.
fn excerpt(out: &std::process::Output) -> String {
    let text = format!(
        "{}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
    let lines: Vec<&str> = text.lines().filter(|l| !l.trim().is_empty()).take(6).collect();
    lines.join("\n  ")
}

impl Toolchain {
    /// Finds the compiler (`cc` for OpenCL, `nvcc` for CUDA: a name on
    /// `PATH` or a path; CUDA without one looks where
    /// [`lf_targets::cuda::find_nvcc`] does) and probes it in `dir`: a small
    /// program is compiled and run, which needs the headers, the library and
    /// a device.
    pub fn find(backend: Backend, cc: &str, nvcc: Option<&str>, arch: &str, dir: &Path) -> Result<Toolchain, String> {
        let compiler = match backend {
            Backend::OpenCl => resolve(cc).ok_or_else(|| {
                format!("the C compiler '{cc}' was not found (--cc names it: a program on PATH or a path)")
            })?,
            Backend::Cuda => match nvcc {
                Some(n) => resolve(n).ok_or_else(|| format!("nvcc '{n}' was not found (--nvcc PATH)"))?,
                None => lf_targets::cuda::find_nvcc().ok_or(
                    "nvcc was not found ($NVCC, PATH or the nvidia-cuda-nvcc pip package; --nvcc PATH names it)",
                )?,
            },
        };
        let tc = Toolchain {
            backend,
            compiler,
            arch: arch.to_string(),
        };
        tc.probe(dir)?;
        Ok(tc)
    }

    /// The file extension of this backend's sources.
    pub fn source_ext(&self) -> &'static str {
        match self.backend {
            Backend::OpenCl => "c",
            Backend::Cuda => "cu",
        }
    }

    /// Compiles `src` to the executable `exe`; an error is the compiler's
    /// first lines of output.
    pub fn compile(&self, src: &Path, exe: &Path) -> Result<(), String> {
        let mut cmd = Command::new(&self.compiler);
        match self.backend {
            Backend::OpenCl => cmd.arg("-O2").arg("-o").arg(exe).arg(src).args(["-lOpenCL", "-lm"]),
            Backend::Cuda => cmd
                .arg("-O3")
                .arg(format!("-arch={}", self.arch))
                .arg("-o")
                .arg(exe)
                .arg(src),
        };
        let out = cmd
            .output()
            .map_err(|e| format!("could not run {}: {e}", self.compiler.display()))?;
        if out.status.success() {
            Ok(())
        } else {
            Err(format!("{} failed:\n  {}", self.compiler.display(), excerpt(&out)))
        }
    }

    /// Compiles and runs the probe program of the backend.
    fn probe(&self, dir: &Path) -> Result<(), String> {
        let (text, what) = match self.backend {
            Backend::OpenCl => (
                OPENCL_PROBE,
                "OpenCL (headers CL/cl.h and libOpenCL: e.g. apt-get install ocl-icd-opencl-dev)",
            ),
            Backend::Cuda => (CUDA_PROBE, "CUDA"),
        };
        let src = dir.join(format!("probe.{}", self.source_ext()));
        let exe = dir.join("probe");
        std::fs::write(&src, text).map_err(|e| format!("could not write {}: {e}", src.display()))?;
        self.compile(&src, &exe)
            .map_err(|e| format!("cannot build {what} programs: {e}"))?;
        let out = Command::new(&exe)
            .output()
            .map_err(|e| format!("could not run the device probe {}: {e}", exe.display()))?;
        if !out.status.success() {
            let hint = match self.backend {
                Backend::OpenCl => "an OpenCL driver (ICD) such as PoCL: apt-get install pocl-opencl-icd",
                Backend::Cuda => "a CUDA GPU and its driver",
            };
            return Err(format!(
                "no {} device: the probe program says: {} (needs {hint})",
                match self.backend {
                    Backend::OpenCl => "OpenCL",
                    Backend::Cuda => "CUDA",
                },
                excerpt(&out)
            ));
        }
        Ok(())
    }
}
