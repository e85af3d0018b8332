//! Running kernel launches on a device instead of the simulator: the
//! interface the device backends implement ([`DeviceBackend`], [`Device`]),
//! and how launch arguments move between the interpreter's memory and
//! device buffers ([`marshal`] / [`unmarshal`]: memref arguments are copied
//! element by element, row-major, packed to the kernel's C element type,
//! `i1` as one byte holding 0 or 1; scalar arguments are passed by value).
//!
//! The backends themselves (OpenCL through opencl3, CUDA through nvcc and
//! the driver API) live in the `lf-devices` crate, which makes each kernel's
//! source with lf-targets' emitters; `lf-run --gpu-backend=opencl|cuda`
//! picks one.

use crate::memory::Memory;
use crate::program::{Func, Scalar};
use lf_diag::{Diagnostic, SourceMgr};
use lf_ir::{Body, Context, OpId, OwnedOp};
use rustc_hash::FxHashMap;

/// The source of one kernel for a backend, or why there is none (rendered
/// emitter diagnostics).
pub type KernelSource = Result<KernelCode, String>;

/// The emitted code of one kernel.
#[derive(Clone, Debug)]
pub struct KernelCode {
    /// The source to build (the kernel and the helpers it needs).
    pub source: String,
    /// The name of the kernel's function in `source`, which the emitter
    /// may have renamed (a `gpu.func` named like a C or CUDA built-in).
    pub entry: String,
}

/// A device backend: prepares a module's kernels and opens a device that
/// runs them. Launches of a program loaded for a backend run there (see
/// [`crate::load_for`]).
pub trait DeviceBackend: Send + Sync {
    /// The backend's name on the command line (`opencl`, `cuda`).
    fn name(&self) -> &'static str;
    /// Changes a verified module into the form the device runs (inline
    /// `gpu.launch` ops outlined into kernels).
    fn prepare(&self, ctx: &Context, owned: &mut OwnedOp) -> Result<(), Vec<Diagnostic>>;
    /// The source of every kernel of the prepared module `op` of `body`, by
    /// the decoded program's function index (`find` maps `module::name` to it).
    fn kernels(
        &self,
        ctx: &Context,
        body: &Body,
        op: OpId,
        sources: &SourceMgr,
        find: &dyn Fn(&str) -> Option<u32>,
    ) -> FxHashMap<u32, KernelSource>;
    /// Opens the device with the kernels' sources; an error message (without
    /// the `lf-run: error:` prefix) says why none can be opened.
    fn open(&self, kernels: FxHashMap<u32, KernelSource>) -> Result<Box<dyn Device>, String>;
}

impl std::fmt::Debug for dyn DeviceBackend {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "DeviceBackend({})", self.name())
    }
}

/// A device that runs kernel launches.
pub trait Device {
    /// Runs kernel `kernel` (a function index; `name` is the `gpu.func`'s
    /// name in the source) on `grid` blocks of `block` threads, with the
    /// marshalled arguments; device buffers are read back into `args`.
    fn launch(
        &mut self,
        kernel: u32,
        name: &str,
        grid: [i64; 3],
        block: [i64; 3],
        args: &mut Marshalled,
    ) -> Result<(), String>;
}

/// A memref argument's elements, packed for the device.
#[derive(Debug)]
pub struct HostBuf {
    /// The interpreter's descriptor.
    pub desc: u64,
    /// Element kind.
    pub elem: Scalar,
    /// Packed elements, row-major, little-endian.
    pub bytes: Vec<u8>,
}

/// One kernel argument.
#[derive(Debug)]
pub enum KernelArg {
    /// A memref: an index into [`Marshalled::bufs`].
    Mem(usize),
    /// A scalar's bytes (as the kernel's C type).
    Scalar(Vec<u8>),
}

/// A launch's arguments, ready for a device.
#[derive(Debug, Default)]
pub struct Marshalled {
    /// Distinct memref arguments.
    pub bufs: Vec<HostBuf>,
    /// Arguments in order.
    pub args: Vec<KernelArg>,
}

/// Bytes of an element (or scalar) of `kind` in device code.
fn device_size(kind: Scalar, memref: bool) -> Result<usize, String> {
    match kind {
        Scalar::F32 => Ok(4),
        Scalar::F64 => Ok(8),
        Scalar::Int(w @ (8 | 16 | 32 | 64)) => Ok(w as usize / 8),
        // An i1 element is one byte holding 0 or 1 (lf-targets' layout).
        Scalar::Int(1) if memref => Ok(1),
        Scalar::Index if !memref => Ok(4),
        k => Err(format!(
            "{} {} is not supported by the device backends",
            if memref {
                "a memref of"
            } else {
                "a scalar argument of type"
            },
            crate::print::elem_name(k)
        )),
    }
}

/// Packs the launch arguments `vals` of kernel `kernel` from `mem`.
pub fn marshal(mem: &Memory, kernel: &Func, vals: &[u64]) -> Result<Marshalled, String> {
    let mut m = Marshalled::default();
    for (k, &v) in vals.iter().enumerate() {
        let kind = kernel.param_kinds.get(k).copied().unwrap_or(Scalar::Index);
        if kernel.param_types.get(k).is_none_or(|t| t.is_none()) {
            let n = device_size(kind, false)?;
            if kind == Scalar::Index && i32::try_from(v as i64).is_err() {
                return Err(format!(
                    "kernel argument {k} = {} does not fit the kernel's 32-bit index type",
                    v as i64
                ));
            }
            m.args.push(KernelArg::Scalar(v.to_le_bytes()[..n].to_vec()));
            continue;
        }
        let n = device_size(kind, true)?;
        let d = mem.descs.get(v as usize).ok_or("invalid memref argument")?;
        if let Some(i) = m.bufs.iter().position(|b| {
            let o = &mem.descs[b.desc as usize];
            o.buf == d.buf && o.offset == d.offset && o.sizes == d.sizes && o.strides == d.strides
        }) {
            m.args.push(KernelArg::Mem(i));
            continue;
        }
        if m.bufs.iter().any(|b| mem.descs[b.desc as usize].buf == d.buf) {
            return Err(format!(
                "kernel argument {k} is another view of a buffer passed in an earlier argument: \
                 aliasing views are not supported by the device backends"
            ));
        }
        let buf = &mem.bufs[d.buf as usize];
        if buf.freed {
            return Err(format!("kernel argument {k} is a deallocated buffer"));
        }
        let pos = mem.positions(d);
        let mut bytes = Vec::with_capacity(pos.len() * n);
        for p in pos {
            let x = usize::try_from(p)
                .ok()
                .and_then(|p| buf.data.get(p))
                .ok_or_else(|| format!("kernel argument {k} is a view outside its buffer"))?;
            if kind == Scalar::Int(1) {
                bytes.push((x & 1) as u8);
            } else {
                bytes.extend_from_slice(&x.to_le_bytes()[..n]);
            }
        }
        m.bufs.push(HostBuf {
            desc: v,
            elem: kind,
            bytes,
        });
        m.args.push(KernelArg::Mem(m.bufs.len() - 1));
    }
    Ok(m)
}

/// Writes the device results in `m` back into the interpreter's memory.
pub fn unmarshal(mem: &mut Memory, m: &Marshalled) {
    for hb in &m.bufs {
        let d = mem.descs[hb.desc as usize].clone();
        let n = device_size(hb.elem, true).unwrap_or(8);
        let pos = mem.positions(&d);
        let buf = &mut mem.bufs[d.buf as usize];
        for (p, chunk) in pos.iter().zip(hb.bytes.chunks_exact(n)) {
            let mut raw = [0u8; 8];
            raw[..n].copy_from_slice(chunk);
            let bits = u64::from_le_bytes(raw);
            let v = match hb.elem {
                Scalar::F32 | Scalar::F64 => bits,
                // Any nonzero byte is true: i1 true is all ones in a register.
                Scalar::Int(1) => crate::program::sext((bits != 0) as u64, 63),
                _ => crate::program::sext(bits, (64 - 8 * n) as u8),
            };
            if let Some(x) = buf.data.get_mut(*p as usize) {
                *x = v;
            }
            if let Some(init) = &mut buf.init {
                if let Some(b) = init.get_mut(*p as usize) {
                    *b = true;
                }
            }
        }
    }
}

/// Global and local work sizes of a launch, checked to fit `usize`/`u32`.
pub fn work_sizes(grid: [i64; 3], block: [i64; 3]) -> Result<([usize; 3], [usize; 3]), String> {
    let mut g = [0usize; 3];
    let mut l = [0usize; 3];
    for i in 0..3 {
        let total = grid[i].checked_mul(block[i]).filter(|&t| t <= u32::MAX as i64);
        let (Some(t), Ok(b)) = (total, usize::try_from(block[i])) else {
            return Err("launch too large for the device".into());
        };
        g[i] = t as usize;
        l[i] = b;
    }
    Ok((g, l))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::memory::Desc;
    use crate::program::{MemTy, Space};

    fn f32_vec(n: i64) -> MemTy {
        MemTy {
            shape: vec![Some(n)],
            elem: Scalar::F32,
            space: Space::Global,
            strided: None,
        }
    }

    fn kernel(params: Vec<(Option<MemTy>, Scalar)>) -> Func {
        Func {
            param_types: params.iter().map(|p| p.0.clone()).collect(),
            param_kinds: params.iter().map(|p| p.1).collect(),
            ..Func::default()
        }
    }

    fn memory() -> Memory {
        Memory {
            limit: 1 << 20,
            ..Memory::default()
        }
    }

    #[test]
    fn packs_views_and_writes_back() {
        let mut mem = memory();
        mem.alloc(&f32_vec(4), vec![4], Space::Global).unwrap();
        for (i, x) in mem.bufs[0].data.iter_mut().enumerate() {
            *x = (i as f32 + 0.5).to_bits() as u64;
        }
        // A strided view: elements 1 and 3.
        let v = mem.push_desc(Desc {
            buf: 0,
            offset: 1,
            sizes: vec![2].into(),
            strides: vec![2].into(),
        });
        let k = kernel(vec![(Some(f32_vec(2)), Scalar::F32), (None, Scalar::Int(32))]);
        let mut m = marshal(&mem, &k, &[v, (-7i64) as u64]).unwrap();
        assert_eq!(m.bufs[0].bytes, [1.5f32.to_le_bytes(), 3.5f32.to_le_bytes()].concat());
        assert!(matches!(&m.args[1], KernelArg::Scalar(b) if b == &(-7i32).to_le_bytes()));
        m.bufs[0].bytes = [9.0f32.to_le_bytes(), (-2.0f32).to_le_bytes()].concat();
        unmarshal(&mut mem, &m);
        let got: Vec<f32> = mem.bufs[0].data.iter().map(|&x| f32::from_bits(x as u32)).collect();
        assert_eq!(got, [0.5, 9.0, 2.5, -2.0]);
    }

    #[test]
    fn same_memref_twice_is_one_buffer_other_views_are_refused() {
        let mut mem = memory();
        let d = mem.alloc(&f32_vec(4), vec![4], Space::Global).unwrap();
        let k = kernel(vec![(Some(f32_vec(4)), Scalar::F32), (Some(f32_vec(4)), Scalar::F32)]);
        let m = marshal(&mem, &k, &[d, d]).unwrap();
        assert_eq!(m.bufs.len(), 1);
        let v = mem.push_desc(Desc {
            buf: 0,
            offset: 2,
            sizes: vec![2].into(),
            strides: vec![1].into(),
        });
        let e = marshal(&mem, &k, &[d, v]).unwrap_err();
        assert!(e.contains("aliasing views are not supported"), "{e}");
    }

    #[test]
    fn i1_elements_are_bytes() {
        let mut mem = memory();
        let ty = MemTy {
            shape: vec![Some(3)],
            elem: Scalar::Int(1),
            space: Space::Global,
            strided: None,
        };
        let d = mem.alloc(&ty, vec![3], Space::Global).unwrap();
        // Registers hold i1 sign-extended: true is all ones.
        mem.bufs[0].data = vec![u64::MAX, 0, u64::MAX];
        let k = kernel(vec![(Some(ty), Scalar::Int(1))]);
        let mut m = marshal(&mem, &k, &[d]).unwrap();
        assert_eq!(m.bufs[0].bytes, [1, 0, 1]);
        m.bufs[0].bytes = vec![0, 1, 1];
        unmarshal(&mut mem, &m);
        assert_eq!(mem.bufs[0].data, [0, u64::MAX, u64::MAX]);
    }

    #[test]
    fn refuses_what_the_device_cannot_take() {
        let mem = memory();
        let e = marshal(&mem, &kernel(vec![(None, Scalar::Int(1))]), &[1]).unwrap_err();
        assert!(e.contains("a scalar argument of type i1 is not supported"), "{e}");
        let e = marshal(&mem, &kernel(vec![(None, Scalar::Index)]), &[1 << 40]).unwrap_err();
        assert!(e.contains("does not fit the kernel's 32-bit index type"), "{e}");
        assert_eq!(work_sizes([2, 1, 1], [64, 1, 1]).unwrap(), ([128, 1, 1], [64, 1, 1]));
        assert!(work_sizes([1 << 30, 1, 1], [64, 1, 1]).is_err());
    }
}
