//! The OpenCL backend: each kernel's emitted OpenCL C is built once (on its
//! first launch) for the first device of the first OpenCL platform that has
//! one, through the `opencl3` crate (which loads libOpenCL at run time).

use lf_interp::device::{Device, KernelArg, KernelSource, Marshalled};
use opencl3::command_queue::CommandQueue;
use opencl3::context::Context;
use opencl3::device::{Device as ClDevice, CL_DEVICE_TYPE_ALL};
use opencl3::kernel::Kernel;
use opencl3::memory::{Buffer, ClMem, CL_MEM_READ_WRITE};
use opencl3::program::Program;
use opencl3::types::{cl_mem, CL_BLOCKING};
use rustc_hash::FxHashMap;

/// An open OpenCL device with its built kernels.
/// Fields drop in order: kernels and programs, then the queue, then the context.
pub struct OpenClDevice {
    built: FxHashMap<u32, (Program, Kernel)>,
    queue: CommandQueue,
    context: Context,
    /// The device's name (for messages).
    pub name: String,
    sources: FxHashMap<u32, KernelSource>,
}

impl OpenClDevice {
    /// Opens the first OpenCL device; an error says why there is none.
    pub fn open(sources: FxHashMap<u32, KernelSource>) -> Result<OpenClDevice, String> {
        // The ICD loader's first platform query is not safe to run from two
        // threads at once: serialize opening.
        static OPENING: std::sync::Mutex<()> = std::sync::Mutex::new(());
        let _guard = OPENING.lock().unwrap_or_else(|e| e.into_inner());
        let platforms = opencl3::platform::get_platforms()
            .map_err(|e| format!("--gpu-backend=opencl: no OpenCL platform is available ({e})"))?;
        let id = platforms
            .iter()
            .find_map(|p| p.get_devices(CL_DEVICE_TYPE_ALL).ok().and_then(|d| d.first().copied()))
            .ok_or("--gpu-backend=opencl: no OpenCL device found (install an OpenCL driver, e.g. pocl-opencl-icd)")?;
        let device = ClDevice::new(id);
        let name = device.name().unwrap_or_else(|_| "OpenCL device".into());
        let context = Context::from_device(&device)
            .map_err(|e| format!("--gpu-backend=opencl: cannot create a context on '{name}': {e}"))?;
        #[allow(deprecated)]
        let queue = CommandQueue::create_default(&context, 0)
            .map_err(|e| format!("--gpu-backend=opencl: cannot create a command queue on '{name}': {e}"))?;
        Ok(OpenClDevice {
            context,
            queue,
            name,
            sources,
            built: FxHashMap::default(),
        })
    }

    fn build(&mut self, kernel: u32, name: &str) -> Result<(), String> {
        if self.built.contains_key(&kernel) {
            return Ok(());
        }
        let code = match self.sources.get(&kernel) {
            Some(Ok(s)) => s,
            Some(Err(diags)) => return Err(format!("the OpenCL emitter cannot translate kernel @{name}:\n{diags}")),
            None => return Err(format!("no OpenCL source for kernel @{name}")),
        };
        // No contraction of a * b + c into an FMA: the interpreter rounds each op.
        let src = format!("#pragma OPENCL FP_CONTRACT OFF\n{}", code.source);
        let program = Program::create_and_build_from_source(&self.context, &src, "-cl-std=CL1.1").map_err(|log| {
            format!(
                "building the OpenCL C of kernel @{name} failed on '{}':\n{log}",
                self.name
            )
        })?;
        let k = Kernel::create(&program, &code.entry).map_err(|e| format!("OpenCL kernel @{name}: {e}"))?;
        self.built.insert(kernel, (program, k));
        Ok(())
    }
}

impl Device for OpenClDevice {
    fn launch(
        &mut self,
        kernel: u32,
        name: &str,
        grid: [i64; 3],
        block: [i64; 3],
        args: &mut Marshalled,
    ) -> Result<(), String> {
        self.build(kernel, name)?;
        let (global, local) = lf_interp::device::work_sizes(grid, block)?;
        let cl = |what: &str| {
            let what = what.to_string();
            move |e: opencl3::error_codes::ClError| format!("OpenCL error {e} in {what} (kernel @{name})")
        };
        let mut bufs = Vec::with_capacity(args.bufs.len());
        for hb in &args.bufs {
            // SAFETY: a fresh buffer of at least one byte, no host pointer.
            let mut b = unsafe {
                Buffer::<u8>::create(
                    &self.context,
                    CL_MEM_READ_WRITE,
                    hb.bytes.len().max(1),
                    std::ptr::null_mut(),
                )
            }
            .map_err(cl("clCreateBuffer"))?;
            if !hb.bytes.is_empty() {
                // SAFETY: blocking write of exactly the buffer's bytes.
                unsafe { self.queue.enqueue_write_buffer(&mut b, CL_BLOCKING, 0, &hb.bytes, &[]) }
                    .map_err(cl("clEnqueueWriteBuffer"))?;
            }
            bufs.push(b);
        }
        let k = &self.built[&kernel].1;
        for (i, a) in args.args.iter().enumerate() {
            let i = i as u32;
            // SAFETY: each argument has the size of the kernel parameter's C type
            // (marshal packs scalars to it; buffers are cl_mem).
            let r = unsafe {
                match a {
                    KernelArg::Mem(j) => {
                        let m: cl_mem = bufs[*j].get();
                        k.set_arg(i, &m)
                    }
                    KernelArg::Scalar(b) => match b.len() {
                        1 => k.set_arg(i, &b[0]),
                        2 => k.set_arg(i, &u16::from_le_bytes([b[0], b[1]])),
                        4 => k.set_arg(i, &u32::from_le_bytes(b[..4].try_into().expect("4 bytes"))),
                        _ => k.set_arg(i, &u64::from_le_bytes(b[..8].try_into().expect("8 bytes"))),
                    },
                }
            };
            r.map_err(cl(&format!("clSetKernelArg({i})")))?;
        }
        // SAFETY: arguments are set; the size arrays have 3 entries.
        unsafe {
            self.queue
                .enqueue_nd_range_kernel(k.get(), 3, std::ptr::null(), global.as_ptr(), local.as_ptr(), &[])
        }
        .map_err(cl("clEnqueueNDRangeKernel"))?;
        self.queue.finish().map_err(cl("clFinish"))?;
        for (hb, b) in args.bufs.iter_mut().zip(&bufs) {
            if !hb.bytes.is_empty() {
                // SAFETY: blocking read of exactly the buffer's bytes.
                unsafe { self.queue.enqueue_read_buffer(b, CL_BLOCKING, 0, &mut hb.bytes, &[]) }
                    .map_err(cl("clEnqueueReadBuffer"))?;
            }
        }
        Ok(())
    }
}
