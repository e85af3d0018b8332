//! Memory: buffers (one per allocation), memref descriptors (a view of a
//! buffer: offset, sizes, strides) and the shadow state of the checkers.

use crate::program::{MemTy, Scalar, Space};

/// What made a buffer, for the operations only some allocations allow.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum BufKind {
    /// `memref.alloc`, `gpu.alloc`, a kernel-mode input: freed by a dealloc.
    Heap,
    /// `memref.alloca` at instruction `pc` of function `func`: released
    /// when that function returns; a dealloc of it is undefined behaviour.
    Stack {
        /// The function of the `memref.alloca`.
        func: u32,
        /// Its instruction.
        pc: u32,
    },
    /// A `memref.global` (through `memref.get_global`): lives as long as
    /// the program; a dealloc of it is undefined behaviour.
    Global,
}

/// One allocation.
#[derive(Debug)]
pub struct Buffer {
    /// Elements, as 64-bit register values.
    pub data: Vec<u64>,
    /// Element kind.
    pub elem: Scalar,
    /// Memory space.
    pub space: Space,
    /// Freed by a dealloc, or (stack memory) by the return of its function.
    pub freed: bool,
    /// What made it.
    pub kind: BufKind,
    /// Which elements were written (only with `--check-uninit`).
    pub init: Option<Vec<bool>>,
    /// The shape it was allocated with.
    pub shape: Box<[i64]>,
    /// Device memory (a `gpu.alloc` under `--separate-memory`).
    pub device: bool,
}

impl Buffer {
    /// "a 4x8xf32 buffer".
    pub fn name(&self) -> String {
        let shape: String = self.shape.iter().map(|v| format!("{v}x")).collect();
        format!("a {shape}{} buffer", crate::print::elem_name(self.elem))
    }

    /// "element [i, j] of a 4x8xf32 buffer" for position `pos`.
    pub fn describe(&self, pos: usize) -> String {
        let idx = crate::kernel::unflatten(pos, &self.shape);
        let idx: Vec<String> = idx.iter().map(|v| v.to_string()).collect();
        let shape: String = self.shape.iter().map(|v| format!("{v}x")).collect();
        format!(
            "element [{}] of a {shape}{} buffer",
            idx.join(", "),
            crate::print::elem_name(self.elem)
        )
    }
}

/// A memref value: a view of a buffer.
#[derive(Clone, Debug)]
pub struct Desc {
    /// The buffer.
    pub buf: u32,
    /// Offset in elements.
    pub offset: i64,
    /// Sizes.
    pub sizes: Box<[i64]>,
    /// Strides in elements.
    pub strides: Box<[i64]>,
}

/// Row-major strides of a shape.
pub fn row_major(sizes: &[i64]) -> Box<[i64]> {
    let mut strides = vec![1i64; sizes.len()];
    for i in (0..sizes.len().saturating_sub(1)).rev() {
        strides[i] = strides[i + 1].saturating_mul(sizes[i + 1].max(0));
    }
    strides.into()
}

/// All memory of a run.
#[derive(Debug, Default)]
pub struct Memory {
    /// Buffers by id.
    pub bufs: Vec<Buffer>,
    /// Descriptors by id (a memref register holds a descriptor id).
    pub descs: Vec<Desc>,
    /// Bytes of live buffers (8 per element, as stored).
    pub live_bytes: u64,
    /// Limit on `live_bytes`.
    pub limit: u64,
    /// Keep per-element "written" bits.
    pub track_init: bool,
}

impl Memory {
    /// Allocates a buffer for `ty` with `sizes`; returns the new descriptor id.
    pub fn alloc(&mut self, ty: &MemTy, sizes: Vec<i64>, space: Space) -> Result<u64, String> {
        let mut n: u64 = 1;
        for &s in &sizes {
            if s < 0 {
                return Err(format!("negative size {s} in allocation"));
            }
            n = n.checked_mul(s as u64).ok_or("allocation size overflows")?;
        }
        let bytes = n.checked_mul(8).ok_or("allocation size overflows")?;
        if self.live_bytes.saturating_add(bytes) > self.limit {
            return Err(format!(
                "memory limit exceeded: allocating {} more bytes with {} live would pass the limit of {} bytes \
                 (--max-memory)",
                bytes, self.live_bytes, self.limit
            ));
        }
        self.live_bytes += bytes;
        let n = n as usize;
        self.bufs.push(Buffer {
            data: vec![0; n],
            elem: ty.elem,
            space,
            freed: false,
            kind: BufKind::Heap,
            init: self.track_init.then(|| vec![false; n]),
            shape: sizes.clone().into(),
            device: false,
        });
        let strides = row_major(&sizes);
        let buf = (self.bufs.len() - 1) as u32;
        Ok(self.push_desc(Desc {
            buf,
            offset: 0,
            sizes: sizes.into(),
            strides,
        }))
    }

    /// Adds a descriptor; returns its id.
    pub fn push_desc(&mut self, d: Desc) -> u64 {
        self.descs.push(d);
        (self.descs.len() - 1) as u64
    }

    /// Frees a buffer.
    pub fn free(&mut self, buf: u32) {
        let b = &mut self.bufs[buf as usize];
        if !b.freed {
            b.freed = true;
            self.live_bytes -= b.data.len() as u64 * 8;
            b.data = Vec::new();
            b.init = None;
        }
    }

    /// Marks every element of a buffer as written.
    pub fn mark_init(&mut self, buf: u32) {
        if let Some(i) = &mut self.bufs[buf as usize].init {
            i.iter_mut().for_each(|x| *x = true);
        }
    }

    /// The linear positions of all elements of a descriptor, row-major.
    pub fn positions(&self, d: &Desc) -> Vec<i64> {
        let mut out = Vec::new();
        let rank = d.sizes.len();
        if d.sizes.iter().any(|&s| s <= 0) {
            return out;
        }
        let mut idx = vec![0i64; rank];
        loop {
            out.push(d.offset + idx.iter().zip(d.strides.iter()).map(|(i, s)| i * s).sum::<i64>());
            let mut k = rank;
            loop {
                if k == 0 {
                    return out;
                }
                k -= 1;
                idx[k] += 1;
                if idx[k] < d.sizes[k] {
                    break;
                }
                idx[k] = 0;
            }
        }
    }
}

/// The shadow of one element during a launch: its last writer and up to two readers.
#[derive(Copy, Clone, Default, Debug)]
pub struct Shadow {
    /// Last write.
    pub write: Access,
    /// Last read.
    pub read1: Access,
    /// An earlier read by another thread.
    pub read2: Access,
}

/// One recorded access.
#[derive(Copy, Clone, Default, Debug)]
pub struct Access {
    /// Thread number in the launch, plus one (0: none).
    pub thread: u32,
    /// Block number (linear).
    pub block: u32,
    /// Barrier phase within the block.
    pub phase: u32,
    /// Function and instruction of the access.
    pub func: u32,
    /// Instruction.
    pub pc: u32,
}

impl Access {
    /// Whether this access may run concurrently with an access by `other`
    /// (different threads, and not separated by a barrier of one block).
    pub fn conflicts(&self, other: &Access) -> bool {
        self.thread != 0 && self.thread != other.thread && (self.block != other.block || self.phase == other.phase)
    }
}
