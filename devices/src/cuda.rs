//! The CUDA backend: each kernel's emitted CUDA is compiled by nvcc
//! (`-arch=sm_90 -cubin --fmad=false`; set `LF_CUDA_ARCH` for another arch) on its first
//! launch and loaded through the CUDA driver API, which is opened at run time
//! (`libcuda.so.1` with `libloading`): no CUDA is needed to build lf-run.

use lf_interp::device::{Device, KernelArg, KernelSource, Marshalled};
use libloading::Library;
use rustc_hash::FxHashMap;
use std::ffi::{c_char, c_int, c_uint, c_void, CStr, CString};
use std::path::PathBuf;
use std::process::Command;

type CuResult = c_int;
type CuDevice = c_int;
type CuContext = *mut c_void;
type CuModule = *mut c_void;
type CuFunction = *mut c_void;
type CuDevPtr = u64;

/// The driver API entry points lf-run uses.
struct Api {
    init: unsafe extern "C" fn(c_uint) -> CuResult,
    device_get: unsafe extern "C" fn(*mut CuDevice, c_int) -> CuResult,
    device_get_name: unsafe extern "C" fn(*mut c_char, c_int, CuDevice) -> CuResult,
    primary_ctx_retain: unsafe extern "C" fn(*mut CuContext, CuDevice) -> CuResult,
    ctx_set_current: unsafe extern "C" fn(CuContext) -> CuResult,
    module_load_data: unsafe extern "C" fn(*mut CuModule, *const c_void) -> CuResult,
    module_get_function: unsafe extern "C" fn(*mut CuFunction, CuModule, *const c_char) -> CuResult,
    mem_alloc: unsafe extern "C" fn(*mut CuDevPtr, usize) -> CuResult,
    mem_free: unsafe extern "C" fn(CuDevPtr) -> CuResult,
    memcpy_htod: unsafe extern "C" fn(CuDevPtr, *const c_void, usize) -> CuResult,
    memcpy_dtoh: unsafe extern "C" fn(*mut c_void, CuDevPtr, usize) -> CuResult,
    #[allow(clippy::type_complexity)]
    launch_kernel: unsafe extern "C" fn(
        CuFunction,
        c_uint,
        c_uint,
        c_uint,
        c_uint,
        c_uint,
        c_uint,
        c_uint,
        *mut c_void,
        *mut *mut c_void,
        *mut *mut c_void,
    ) -> CuResult,
    ctx_synchronize: unsafe extern "C" fn() -> CuResult,
    get_error_name: unsafe extern "C" fn(CuResult, *mut *const c_char) -> CuResult,
}

/// An open CUDA device (its primary context) with the kernels loaded so far.
pub struct CudaDevice {
    api: Api,
    /// Keeps the driver library loaded while `api` is used.
    _lib: Library,
    ctx: CuContext,
    /// The device's name (for messages).
    pub name: String,
    sources: FxHashMap<u32, KernelSource>,
    loaded: FxHashMap<u32, (CuModule, CuFunction)>,
    nvcc: Option<PathBuf>,
}

fn sym<T: Copy>(lib: &Library, name: &str) -> Result<T, String> {
    // SAFETY: the symbol is one of the CUDA driver API's, declared with its C signature in `Api`.
    unsafe { lib.get::<T>(name.as_bytes()) }
        .map(|s| *s)
        .map_err(|e| format!("--gpu-backend=cuda: the CUDA driver lacks {name}: {e}"))
}

/// nvcc, found as the emitter's tests find it.
pub use lf_targets::cuda::find_nvcc;

impl CudaDevice {
    /// Opens device 0 through `libcuda.so.1`; an error says why it cannot.
    pub fn open(sources: FxHashMap<u32, KernelSource>) -> Result<CudaDevice, String> {
        // SAFETY: loading the CUDA driver runs its initializers, which is what it is for.
        let lib = unsafe { Library::new("libcuda.so.1") }.map_err(|e| {
            format!(
                "--gpu-backend=cuda: cannot load the CUDA driver (libcuda.so.1): {e}; \
                 this backend needs an NVIDIA GPU and its driver"
            )
        })?;
        let api = Api {
            init: sym(&lib, "cuInit")?,
            device_get: sym(&lib, "cuDeviceGet")?,
            device_get_name: sym(&lib, "cuDeviceGetName")?,
            primary_ctx_retain: sym(&lib, "cuDevicePrimaryCtxRetain")?,
            ctx_set_current: sym(&lib, "cuCtxSetCurrent")?,
            module_load_data: sym(&lib, "cuModuleLoadData")?,
            module_get_function: sym(&lib, "cuModuleGetFunction")?,
            mem_alloc: sym(&lib, "cuMemAlloc_v2")?,
            mem_free: sym(&lib, "cuMemFree_v2")?,
            memcpy_htod: sym(&lib, "cuMemcpyHtoD_v2")?,
            memcpy_dtoh: sym(&lib, "cuMemcpyDtoH_v2")?,
            launch_kernel: sym(&lib, "cuLaunchKernel")?,
            ctx_synchronize: sym(&lib, "cuCtxSynchronize")?,
            get_error_name: sym(&lib, "cuGetErrorName")?,
        };
        let mut dev = CudaDevice {
            api,
            _lib: lib,
            ctx: std::ptr::null_mut(),
            name: String::new(),
            sources,
            loaded: FxHashMap::default(),
            nvcc: None,
        };
        let mut d: CuDevice = 0;
        let mut name = [0 as c_char; 256];
        let mut ctx: CuContext = std::ptr::null_mut();
        // SAFETY: driver API calls with valid out-pointers.
        unsafe {
            dev.check((dev.api.init)(0), "cuInit")?;
            dev.check((dev.api.device_get)(&mut d, 0), "cuDeviceGet")?;
            dev.check((dev.api.device_get_name)(name.as_mut_ptr(), 255, d), "cuDeviceGetName")?;
            dev.check((dev.api.primary_ctx_retain)(&mut ctx, d), "cuDevicePrimaryCtxRetain")?;
            dev.check((dev.api.ctx_set_current)(ctx), "cuCtxSetCurrent")?;
            dev.name = CStr::from_ptr(name.as_ptr()).to_string_lossy().into_owned();
        }
        dev.ctx = ctx;
        Ok(dev)
    }

    fn check(&self, r: CuResult, what: &str) -> Result<(), String> {
        if r == 0 {
            return Ok(());
        }
        let mut p: *const c_char = std::ptr::null();
        // SAFETY: cuGetErrorName writes a pointer to a static string (or fails).
        let name = unsafe {
            if (self.api.get_error_name)(r, &mut p) == 0 && !p.is_null() {
                CStr::from_ptr(p).to_string_lossy().into_owned()
            } else {
                format!("error {r}")
            }
        };
        Err(format!("--gpu-backend=cuda: {what} failed: {name}"))
    }

    /// Compiles `src` (kernel `@name`, emitted as the C function `entry`)
    /// with nvcc to a cubin.
    fn compile(&mut self, src: &str, entry: &str, name: &str) -> Result<Vec<u8>, String> {
        if self.nvcc.is_none() {
            self.nvcc = find_nvcc();
        }
        let nvcc = self
            .nvcc
            .clone()
            .ok_or("--gpu-backend=cuda: nvcc not found (set NVCC, put it on PATH, or pip install nvidia-cuda-nvcc)")?;
        let dir = tempfile::tempdir().map_err(|e| format!("cannot create a temporary directory: {e}"))?;
        let cu = dir.path().join(format!("{entry}.cu"));
        let cubin = dir.path().join(format!("{entry}.cubin"));
        std::fs::write(&cu, src).map_err(|e| format!("cannot write {}: {e}", cu.display()))?;
        let arch = std::env::var("LF_CUDA_ARCH").unwrap_or_else(|_| "sm_90".into());
        let out = Command::new(&nvcc)
            .arg(format!("-arch={arch}"))
            .arg("-cubin")
            // No contraction of a * b + c into an FMA: the interpreter rounds
            // each op (an explicit arith.fma / math.fma is still fused).
            .arg("--fmad=false")
            .arg("-o")
            .arg(&cubin)
            .arg(&cu)
            .output()
            .map_err(|e| format!("cannot run {}: {e}", nvcc.display()))?;
        if !out.status.success() {
            return Err(format!(
                "nvcc failed on the CUDA of kernel @{name}:\n{}{}",
                String::from_utf8_lossy(&out.stdout),
                String::from_utf8_lossy(&out.stderr)
            ));
        }
        std::fs::read(&cubin).map_err(|e| format!("cannot read {}: {e}", cubin.display()))
    }

    fn function(&mut self, kernel: u32, name: &str) -> Result<CuFunction, String> {
        if let Some(&(_, f)) = self.loaded.get(&kernel) {
            return Ok(f);
        }
        let code = match self.sources.get(&kernel) {
            Some(Ok(s)) => s.clone(),
            Some(Err(d)) => return Err(format!("the CUDA emitter cannot translate kernel @{name}:\n{d}")),
            None => return Err(format!("no CUDA source for kernel @{name}")),
        };
        // The file is named after the C name: a C identifier, whatever the
        // gpu.func's name holds.
        let cubin = self.compile(&code.source, &code.entry, name)?;
        let cname = CString::new(code.entry).map_err(|_| "kernel name with a NUL byte".to_string())?;
        let mut module: CuModule = std::ptr::null_mut();
        let mut func: CuFunction = std::ptr::null_mut();
        // SAFETY: the cubin image stays alive during the call; out-pointers are valid.
        unsafe {
            self.check(
                (self.api.module_load_data)(&mut module, cubin.as_ptr().cast()),
                "cuModuleLoadData",
            )?;
            self.check(
                (self.api.module_get_function)(&mut func, module, cname.as_ptr()),
                "cuModuleGetFunction",
            )?;
        }
        self.loaded.insert(kernel, (module, func));
        Ok(func)
    }
}

impl Device for CudaDevice {
    fn launch(
        &mut self,
        kernel: u32,
        name: &str,
        grid: [i64; 3],
        block: [i64; 3],
        args: &mut Marshalled,
    ) -> Result<(), String> {
        let func = self.function(kernel, name)?;
        lf_interp::device::work_sizes(grid, block)?;
        // SAFETY: the primary context was retained in `open`.
        self.check(unsafe { (self.api.ctx_set_current)(self.ctx) }, "cuCtxSetCurrent")?;
        let mut ptrs: Vec<CuDevPtr> = Vec::with_capacity(args.bufs.len());
        let result = (|| {
            for hb in &args.bufs {
                let mut p: CuDevPtr = 0;
                // SAFETY: allocation of at least one byte, then a copy of exactly the host bytes.
                unsafe {
                    self.check((self.api.mem_alloc)(&mut p, hb.bytes.len().max(1)), "cuMemAlloc")?;
                    ptrs.push(p);
                    self.check(
                        (self.api.memcpy_htod)(p, hb.bytes.as_ptr().cast(), hb.bytes.len()),
                        "cuMemcpyHtoD",
                    )?;
                }
            }
            // Parameter storage: each entry points at the argument's value.
            let mut scalars: Vec<[u8; 8]> = Vec::with_capacity(args.args.len());
            for a in &args.args {
                let mut v = [0u8; 8];
                match a {
                    KernelArg::Mem(j) => v = ptrs[*j].to_le_bytes(),
                    KernelArg::Scalar(b) => v[..b.len()].copy_from_slice(b),
                }
                scalars.push(v);
            }
            let mut params: Vec<*mut c_void> = scalars.iter_mut().map(|s| s.as_mut_ptr().cast()).collect();
            // SAFETY: `params` holds one valid pointer per kernel parameter, each to at
            // least as many bytes as the parameter's type.
            unsafe {
                self.check(
                    (self.api.launch_kernel)(
                        func,
                        grid[0] as c_uint,
                        grid[1] as c_uint,
                        grid[2] as c_uint,
                        block[0] as c_uint,
                        block[1] as c_uint,
                        block[2] as c_uint,
                        0,
                        std::ptr::null_mut(),
                        params.as_mut_ptr(),
                        std::ptr::null_mut(),
                    ),
                    &format!("cuLaunchKernel (kernel @{name})"),
                )?;
                self.check((self.api.ctx_synchronize)(), &format!("kernel @{name}"))?;
            }
            for (hb, &p) in args.bufs.iter_mut().zip(&ptrs) {
                // SAFETY: copy back exactly the bytes allocated.
                self.check(
                    unsafe { (self.api.memcpy_dtoh)(hb.bytes.as_mut_ptr().cast(), p, hb.bytes.len()) },
                    "cuMemcpyDtoH",
                )?;
            }
            Ok(())
        })();
        for p in ptrs {
            // SAFETY: each pointer came from cuMemAlloc and is freed once.
            unsafe { (self.api.mem_free)(p) };
        }
        result
    }
}
