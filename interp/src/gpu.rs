//! Launches: every block runs (in the chosen order); inside a block all
//! threads run to their next `gpu.barrier`, phase after phase. Workgroup
//! memory is allocated per block, private memory per thread.

use crate::exec::{BlockOrder, Fault, Frame, GpuState, Machine, Stop};
use crate::program::{LaunchInfo, List, Space};
use lf_dialects::gpu::GpuLaunchOp;
use lf_ir::view::OpView;

enum ThreadState {
    Running,
    AtBarrier(u32, u32, usize),
    Done,
}

impl Machine<'_> {
    /// Runs launch `info`, issued by instruction `pc` of `func` whose registers are `host`.
    pub(crate) fn launch(&mut self, info: u32, host: &[u64], func: u32, pc: u32) -> Result<(), Fault> {
        let prog = self.prog;
        let li = &prog.launches[info as usize];
        let err = |m: String| Fault {
            at: Some((func, pc)),
            msg: m,
            notes: Vec::new(),
        };
        if self.gpu.is_some() {
            return Err(err("a launch inside a kernel is not supported".into()));
        }
        let d: Vec<i64> = li.dims.iter().map(|&r| host[r as usize] as i64).collect();
        if d.iter().any(|&x| x <= 0) {
            return Err(err(format!(
                "launch with a non-positive size: grid ({}, {}, {}), block ({}, {}, {})",
                d[0], d[1], d[2], d[3], d[4], d[5]
            )));
        }
        let nb = d[0].checked_mul(d[1]).and_then(|x| x.checked_mul(d[2]));
        let nt = d[3].checked_mul(d[4]).and_then(|x| x.checked_mul(d[5]));
        let (Some(nb), Some(nt)) = (nb, nt) else {
            return Err(err("launch size overflows".into()));
        };
        if nt > 1 << 16 || nb.checked_mul(nt).is_none_or(|x| x > u32::MAX as i64 / 2) {
            return Err(err(format!("launch too large: {nb} blocks of {nt} threads")));
        }
        if self.device.is_some() {
            return self
                .launch_on_device(li, host, func, [d[0], d[1], d[2]], [d[3], d[4], d[5]])
                .map_err(err);
        }
        let mut order: Vec<i64> = (0..nb).collect();
        match self.opts.block_order {
            BlockOrder::Forward => {}
            BlockOrder::Reverse => order.reverse(),
            BlockOrder::Random(seed) => {
                let mut s = seed ^ 0x9e37_79b9_7f4a_7c15;
                for i in (1..order.len()).rev() {
                    s = crate::kernel::splitmix(s);
                    order.swap(i, (s % (i as u64 + 1)) as usize);
                }
            }
        }
        self.trace_launch((func, pc), [d[0], d[1], d[2]], [d[3], d[4], d[5]]);
        self.gpu = Some(GpuState {
            grid: [d[0], d[1], d[2]],
            block: [d[3], d[4], d[5]],
            ..GpuState::default()
        });
        let r = (|| {
            for &b in &order {
                self.run_block(info, host, func, b, nt)?;
            }
            Ok(())
        })();
        self.gpu = None;
        r
    }

    /// Runs an outlined launch on the device backend.
    fn launch_on_device(
        &mut self,
        li: &LaunchInfo,
        host: &[u64],
        func: u32,
        grid: [i64; 3],
        block: [i64; 3],
    ) -> Result<(), String> {
        let Some((k, args)) = li.kernel else {
            return Err(format!(
                "an inline {} cannot run on a device backend (it was not outlined)",
                GpuLaunchOp::def().name
            ));
        };
        let prog = self.prog;
        let hf = &prog.funcs[func as usize];
        let vals: Vec<u64> = hf.lists[args.start as usize..(args.start + args.len) as usize]
            .iter()
            .map(|&r| host[r as usize])
            .collect();
        let kf = &prog.funcs[k as usize];
        let name = kf.name.rsplit("::").next().unwrap_or(&kf.name);
        let mut data = crate::device::marshal(&self.mem, kf, &vals)?;
        let mut dev = self.device.take().expect("a device");
        let r = dev.launch(k, name, grid, block, &mut data);
        self.device = Some(dev);
        r?;
        crate::device::unmarshal(&mut self.mem, &data);
        Ok(())
    }

    fn run_block(&mut self, info: u32, host: &[u64], func: u32, b: i64, nt: i64) -> Result<(), Fault> {
        let prog = self.prog;
        let li = &prog.launches[info as usize];
        let err = |m: String| Fault {
            at: Some((func, 0)),
            msg: m,
            notes: Vec::new(),
        };
        {
            let g = self.gpu.as_mut().expect("launch");
            g.bid = [b % g.grid[0], (b / g.grid[0]) % g.grid[1], b / (g.grid[0] * g.grid[1])];
            g.block_no = b as u32;
            g.phase = 0;
            g.wg_allocas.clear();
        }
        let mut to_free = Vec::new();
        // Workgroup attributions: one buffer per block.
        let (wg, pv) = match li.kernel {
            Some((k, _)) => (&prog.funcs[k as usize].workgroup, &prog.funcs[k as usize].private),
            None => (&li.workgroup, &li.private),
        };
        let mut wg_vals = Vec::new();
        for (r, t) in wg {
            let sizes = t.shape.iter().map(|s| s.unwrap_or(0)).collect();
            let dsc = self.mem.alloc(t, sizes, Space::Workgroup).map_err(err)?;
            to_free.push(self.mem.descs[dsc as usize].buf);
            wg_vals.push((*r, dsc));
        }
        let mut threads: Vec<(Vec<Frame>, ThreadState)> = Vec::with_capacity(nt as usize);
        let g = self.gpu.as_ref().expect("launch");
        let block = g.block;
        for t in 0..nt {
            let mut fr = match li.kernel {
                Some((k, args)) => {
                    let hf = &prog.funcs[func as usize];
                    let vals: Vec<u64> = hf.lists[args.start as usize..(args.start + args.len) as usize]
                        .iter()
                        .map(|&r| host[r as usize])
                        .collect();
                    self.frame(k, &vals)
                }
                None => {
                    let (start, ids) = li.inline.expect("inline launch");
                    let mut regs = host.to_vec();
                    let g = self.gpu.as_ref().expect("launch");
                    let tid = [t % block[0], (t / block[0]) % block[1], t / (block[0] * block[1])];
                    let vals = [
                        g.bid[0], g.bid[1], g.bid[2], tid[0], tid[1], tid[2], g.grid[0], g.grid[1], g.grid[2],
                        block[0], block[1], block[2],
                    ];
                    for (r, v) in ids.iter().zip(vals) {
                        regs[*r as usize] = v as u64;
                    }
                    Frame {
                        func,
                        pc: start,
                        regs,
                        rets: List::default(),
                        allocas: Vec::new(),
                    }
                }
            };
            for &(r, dsc) in &wg_vals {
                fr.regs[r as usize] = dsc;
            }
            for (r, ty) in pv {
                let sizes = ty.shape.iter().map(|s| s.unwrap_or(0)).collect();
                let dsc = self.mem.alloc(ty, sizes, Space::Private).map_err(err)?;
                to_free.push(self.mem.descs[dsc as usize].buf);
                fr.regs[*r as usize] = dsc;
            }
            threads.push((vec![fr], ThreadState::Running));
        }
        let result = self.phases(&mut threads, b as u32, nt);
        if let Some(p) = &mut self.profile {
            p.end_block();
        }
        for buf in to_free {
            self.mem.free(buf);
        }
        let wg: Vec<u64> = self
            .gpu
            .as_ref()
            .map(|g| g.wg_allocas.values().copied().collect())
            .unwrap_or_default();
        for d in wg {
            let buf = self.mem.descs[d as usize].buf;
            self.mem.free(buf);
        }
        result
    }

    fn phases(&mut self, threads: &mut [(Vec<Frame>, ThreadState)], b: u32, nt: i64) -> Result<(), Fault> {
        loop {
            for (t, (stack, state)) in threads.iter_mut().enumerate() {
                if matches!(state, ThreadState::Done) {
                    continue;
                }
                {
                    let g = self.gpu.as_mut().expect("launch");
                    let t = t as i64;
                    g.tid = [
                        t % g.block[0],
                        (t / g.block[0]) % g.block[1],
                        t / (g.block[0] * g.block[1]),
                    ];
                    g.thread_no = (b as i64 * nt + t) as u32;
                }
                *state = match self.run(stack)? {
                    Stop::Barrier(f, pc, depth) => ThreadState::AtBarrier(f, pc, depth),
                    Stop::End | Stop::Return(_) => ThreadState::Done,
                };
            }
            let first_wait = threads
                .iter()
                .position(|(_, s)| matches!(s, ThreadState::AtBarrier(..)));
            let Some(w) = first_wait else { return Ok(()) };
            let ThreadState::AtBarrier(f, pc, depth) = threads[w].1 else {
                unreachable!()
            };
            let g = self.gpu.as_ref().expect("launch");
            let tno = |t: usize| (b as i64 * nt + t as i64) as u32;
            for (t, (_, s)) in threads.iter().enumerate() {
                match *s {
                    ThreadState::Done => {
                        return Err(Fault {
                            at: Some((f, pc)),
                            msg: format!(
                                "divergent barrier: {} waits at this barrier, but {} has left the kernel without \
                                 reaching it",
                                g.describe(tno(w)),
                                g.describe(tno(t))
                            ),
                            notes: Vec::new(),
                        })
                    }
                    ThreadState::AtBarrier(f2, pc2, d2) if (f2, pc2, d2) != (f, pc, depth) => {
                        return Err(Fault {
                            at: Some((f, pc)),
                            msg: format!(
                                "divergent barrier: {} waits at this barrier, but {} waits at another one",
                                g.describe(tno(w)),
                                g.describe(tno(t))
                            ),
                            notes: vec![(Some((f2, pc2)), format!("the barrier {} waits at", g.describe(tno(t))))],
                        })
                    }
                    _ => {}
                }
            }
            self.gpu.as_mut().expect("launch").phase += 1;
            for (_, s) in threads.iter_mut() {
                *s = ThreadState::Running;
            }
        }
    }
}
