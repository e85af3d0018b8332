//! `--compare-traces`: the sequence of stores each GPU thread makes, so two
//! programs can be shown to do the same work in the same order in every
//! thread (what loop merging must keep), not only to end with the same
//! memory.
//!
//! The decoder adds a `TraceStore` (`TraceVStore`) after every store only
//! when tracing ([`crate::program::Instrument`]). A record names the store
//! instruction, the buffer (its allocation number: kernel-mode arguments
//! are allocated first, in argument order, so equal numbers are the same
//! argument in both programs), the element and the bits stored. Stores to
//! private memory are not recorded: no other thread can see them.

use crate::exec::{GpuState, Machine};
use crate::program::{Reg, Scalar, Space};
use rustc_hash::FxHashMap;

/// One store of a thread.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct StoreRec {
    /// Function and instruction of the store.
    pub at: (u32, u32),
    /// Buffer (allocation number).
    pub buf: u32,
    /// Element position in the buffer.
    pub pos: u64,
    /// Bits stored.
    pub val: u64,
    /// Element kind.
    pub elem: Scalar,
}

/// The stores of one launch.
#[derive(Debug, Default)]
pub struct LaunchTrace {
    /// The launch op: function and instruction.
    pub at: (u32, u32),
    /// Grid and block sizes.
    pub grid: [i64; 3],
    /// Block sizes.
    pub block: [i64; 3],
    /// Stores by launch-wide thread number.
    pub threads: FxHashMap<u32, Vec<StoreRec>>,
}

impl LaunchTrace {
    /// "thread (x, y, z) of block (x, y, z)".
    pub fn describe(&self, thread: u32) -> String {
        GpuState {
            grid: self.grid,
            block: self.block,
            ..GpuState::default()
        }
        .describe(thread)
    }
}

/// The traces of a run, and what names its buffers.
#[derive(Debug, Default)]
pub struct Tracer {
    /// Launches, in order.
    pub launches: Vec<LaunchTrace>,
    /// Names of buffers ("arg1 (memref<4x8xf32>)", "a 4xf32 buffer (allocation 3)"),
    /// with their shapes; filled by [`Tracer::name_buffers`].
    pub names: FxHashMap<u32, (String, Box<[i64]>)>,
}

/// The first place where two traces differ.
#[derive(Debug)]
pub enum Mismatch {
    /// The programs made different numbers of launches.
    Launches(usize, usize),
    /// Store `index` of `thread` in launch `launch` differs (`None`: that
    /// program's thread made only `index` stores).
    Store {
        /// Launch number.
        launch: usize,
        /// Launch-wide thread number.
        thread: u32,
        /// Position in the thread's sequence.
        index: usize,
        /// The store of the first program.
        a: Option<StoreRec>,
        /// The store of the second program.
        b: Option<StoreRec>,
    },
}

impl Tracer {
    /// Names every buffer the traces mention: `args` are the kernel-mode
    /// argument buffers with their names.
    pub fn name_buffers(&mut self, m: &Machine, args: &[(u32, String)]) {
        for l in &self.launches {
            for recs in l.threads.values() {
                for r in recs {
                    self.names.entry(r.buf).or_insert_with(|| {
                        let b = &m.mem.bufs[r.buf as usize];
                        let name = match args.iter().position(|a| a.0 == r.buf) {
                            Some(k) => args[k].1.clone(),
                            None => format!("{} (allocation {})", b.name(), r.buf),
                        };
                        (name, b.shape.clone())
                    });
                }
            }
        }
    }

    /// "V to element [i, j] of arg1 (memref<...>)".
    pub fn describe(&self, r: &StoreRec) -> String {
        let (name, shape) = self.names.get(&r.buf).cloned().unwrap_or_default();
        let idx: Vec<String> = crate::kernel::unflatten(r.pos as usize, &shape)
            .iter()
            .map(|v| v.to_string())
            .collect();
        format!(
            "{} to element [{}] of {name}",
            crate::kernel::show(r.val, r.elem),
            idx.join(", ")
        )
    }
}

/// The first difference between traces `a` and `b`: launches in order,
/// threads in launch-wide order, stores in program order. Stored floats
/// compare with the tolerances of `--compare`.
pub fn first_mismatch(a: &Tracer, b: &Tracer, rtol: f64, atol: f64) -> Option<Mismatch> {
    if a.launches.len() != b.launches.len() {
        return Some(Mismatch::Launches(a.launches.len(), b.launches.len()));
    }
    let same = |x: &StoreRec, y: &StoreRec| {
        x.buf == y.buf
            && x.pos == y.pos
            && x.elem == y.elem
            && crate::kernel::first_difference(&[x.val], &[y.val], x.elem, rtol, atol).is_none()
    };
    for (launch, (la, lb)) in a.launches.iter().zip(&b.launches).enumerate() {
        let mut threads: Vec<u32> = la.threads.keys().chain(lb.threads.keys()).copied().collect();
        threads.sort_unstable();
        threads.dedup();
        let none = Vec::new();
        for thread in threads {
            let sa = la.threads.get(&thread).unwrap_or(&none);
            let sb = lb.threads.get(&thread).unwrap_or(&none);
            let n = sa.len().max(sb.len());
            for index in 0..n {
                let (x, y) = (sa.get(index), sb.get(index));
                if !matches!((x, y), (Some(x), Some(y)) if same(x, y)) {
                    return Some(Mismatch::Store {
                        launch,
                        thread,
                        index,
                        a: x.copied(),
                        b: y.copied(),
                    });
                }
            }
        }
    }
    None
}

impl Machine<'_> {
    /// Starts the trace of a launch by instruction `at`.
    pub(crate) fn trace_launch(&mut self, at: (u32, u32), grid: [i64; 3], block: [i64; 3]) {
        if let Some(t) = &mut self.trace {
            t.launches.push(LaunchTrace {
                at,
                grid,
                block,
                threads: FxHashMap::default(),
            });
        }
    }

    /// A tracing instruction after a store of `width` registers from `val`
    /// at `idx` of memref `mem`, which succeeded: records it in the current
    /// kernel thread's trace (nothing outside kernels or without a tracer).
    #[inline(never)]
    pub(crate) fn trace_store(&mut self, at: (u32, u32), mem: u64, idx: &[Reg], regs: &[u64], val: Reg, width: u8) {
        if self.trace.is_none() || self.gpu.is_none() {
            return;
        }
        let Ok((buf, pos)) = self.address(at.0, at.1, mem, idx, regs) else {
            return;
        };
        let b = &self.mem.bufs[buf as usize];
        if b.space == Space::Private {
            return;
        }
        let elem = b.elem;
        let thread = self.gpu.as_ref().map_or(0, |g| g.thread_no);
        let Some(l) = self.trace.as_mut().and_then(|t| t.launches.last_mut()) else {
            return;
        };
        let recs = l.threads.entry(thread).or_default();
        for k in 0..width as usize {
            recs.push(StoreRec {
                at,
                buf,
                pos: (pos + k) as u64,
                val: regs[val as usize + k],
                elem,
            });
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn rec(pos: u64, val: f32) -> StoreRec {
        StoreRec {
            at: (0, 0),
            buf: 0,
            pos,
            val: val.to_bits() as u64,
            elem: Scalar::F32,
        }
    }

    fn tracer(launches: &[&[(u32, Vec<StoreRec>)]]) -> Tracer {
        Tracer {
            launches: launches
                .iter()
                .map(|ts| LaunchTrace {
                    threads: ts.iter().cloned().collect(),
                    ..LaunchTrace::default()
                })
                .collect(),
            names: FxHashMap::default(),
        }
    }

    #[test]
    fn first_mismatch_orders_threads_and_stores() {
        let a = tracer(&[&[(3, vec![rec(0, 1.0), rec(1, 2.0)]), (1, vec![rec(5, 1.0)])]]);
        // Thread 3 differs at store 1, thread 1 at store 0: thread 1 comes first.
        let b = tracer(&[&[(3, vec![rec(0, 1.0), rec(1, 2.5)]), (1, vec![rec(6, 1.0)])]]);
        match first_mismatch(&a, &b, 0.0, 0.0) {
            Some(Mismatch::Store {
                thread: 1, index: 0, ..
            }) => {}
            m => panic!("{m:?}"),
        }
        // Equal apart from a value within the tolerance of --compare.
        let c = tracer(&[&[(3, vec![rec(0, 1.0), rec(1, 2.0)]), (1, vec![rec(5, 1.0 + 1e-6)])]]);
        assert!(first_mismatch(&a, &c, 0.0, 0.0).is_some());
        assert!(first_mismatch(&a, &c, 0.0, 1e-3).is_none());
        // A missing store, and a missing launch.
        let d = tracer(&[&[(3, vec![rec(0, 1.0)]), (1, vec![rec(5, 1.0)])]]);
        match first_mismatch(&a, &d, 0.0, 0.0) {
            Some(Mismatch::Store {
                thread: 3,
                index: 1,
                b: None,
                ..
            }) => {}
            m => panic!("{m:?}"),
        }
        assert!(matches!(
            first_mismatch(&a, &tracer(&[]), 0.0, 0.0),
            Some(Mismatch::Launches(1, 0))
        ));
    }
}
