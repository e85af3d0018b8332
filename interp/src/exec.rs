//! The execution loop: runs the instructions of a stack of frames until it
//! returns, reaches a barrier or ends a kernel thread.

use crate::memory::{Access, BufKind, Desc, Memory, Shadow};
use crate::print::{fmt_g, print_memref};
use crate::profile::LoopEvent;
use crate::program::*;
use lf_dialects::arith::{CmpFPredicate, CmpIPredicate};
use lf_dialects::gpu::GpuBarrierOp;
use lf_dialects::memref::{MemrefAllocaOp, MemrefDimOp, MemrefGetGlobalOp, MemrefGlobalOp};
use lf_ir::view::OpView;
use rustc_hash::FxHashMap;
use std::io::Write;

/// The order in which the blocks of a launch run.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum BlockOrder {
    /// Block 0 first.
    Forward,
    /// The last block first.
    Reverse,
    /// A permutation drawn from this seed.
    Random(u64),
}

/// Execution options.
#[derive(Clone, Debug)]
pub struct ExecOptions {
    /// Instructions executed before the run stops with an error.
    pub max_steps: u64,
    /// Bytes of live memory allowed (8 per element).
    pub max_memory: u64,
    /// Report reads of memory never written.
    pub check_uninit: bool,
    /// Block order of launches.
    pub block_order: BlockOrder,
    /// Model host and device memory apart (`--separate-memory`): a
    /// `gpu.alloc` buffer is device memory, every other buffer host memory;
    /// kernels may touch only device memory (and their workgroup and
    /// private memory), host code only host memory (`gpu.memcpy` crosses);
    /// a `gpu.alloc` buffer starts uninitialised (reading an element no
    /// copy or kernel wrote is a fault).
    pub separate_memory: bool,
}

impl Default for ExecOptions {
    fn default() -> Self {
        ExecOptions {
            max_steps: 10_000_000_000,
            max_memory: 4 << 30,
            check_uninit: false,
            block_order: BlockOrder::Forward,
            separate_memory: false,
        }
    }
}

/// A fault: an error at an instruction, with notes.
#[derive(Clone, Debug)]
pub struct Fault {
    /// Where: function and instruction (none for errors outside any instruction).
    pub at: Option<(u32, u32)>,
    /// Message.
    pub msg: String,
    /// Notes, each with an optional place.
    pub notes: Vec<(Option<(u32, u32)>, String)>,
}

/// One activation of a function.
#[derive(Clone, Debug)]
pub struct Frame {
    /// Function.
    pub func: u32,
    /// Next instruction.
    pub pc: u32,
    /// Registers.
    pub regs: Vec<u64>,
    /// Where the caller wants the results (a list of the caller's function).
    pub rets: List,
    /// The buffers of the `memref.alloca`s this activation ran, released
    /// when it returns.
    pub allocas: Vec<u32>,
}

/// Why a run of frames stopped.
#[derive(Debug)]
pub enum Stop {
    /// The bottom frame returned these values.
    Return(Vec<u64>),
    /// A thread reached `gpu.barrier` (at this function and instruction, at this call depth).
    Barrier(u32, u32, usize),
    /// A kernel thread ended.
    End,
}

/// State of the launch being run.
#[derive(Debug, Default)]
pub struct GpuState {
    /// Grid sizes.
    pub grid: [i64; 3],
    /// Block sizes.
    pub block: [i64; 3],
    /// Current block id.
    pub bid: [i64; 3],
    /// Current thread id.
    pub tid: [i64; 3],
    /// Linear number of the current block.
    pub block_no: u32,
    /// Linear number of the current thread within the launch.
    pub thread_no: u32,
    /// Barrier phase of the current block.
    pub phase: u32,
    /// Shadow state per buffer touched in this launch.
    pub shadow: FxHashMap<u32, Vec<Shadow>>,
    /// Workgroup allocas of the current block, by instruction.
    pub wg_allocas: FxHashMap<(u32, u32), u64>,
}

impl GpuState {
    /// Thread coordinates of a linear launch-wide thread number.
    pub fn coords(&self, thread_no: u32) -> ([i64; 3], [i64; 3]) {
        let nt = (self.block[0] * self.block[1] * self.block[2]).max(1);
        let b = thread_no as i64 / nt;
        let t = thread_no as i64 % nt;
        (
            [
                t % self.block[0],
                (t / self.block[0]) % self.block[1],
                t / (self.block[0] * self.block[1]),
            ],
            [
                b % self.grid[0],
                (b / self.grid[0]) % self.grid[1],
                b / (self.grid[0] * self.grid[1]),
            ],
        )
    }

    /// "thread (x, y, z) of block (x, y, z)".
    pub fn describe(&self, thread_no: u32) -> String {
        let (t, b) = self.coords(thread_no);
        format!(
            "thread ({}, {}, {}) of block ({}, {}, {})",
            t[0], t[1], t[2], b[0], b[1], b[2]
        )
    }
}

/// State of the outermost parallel loop (`scf.parallel`, `affine.parallel`)
/// being run on the host: each iteration counts as a thread of one phase.
#[derive(Debug, Default)]
pub struct ParState {
    /// Iteration number, from 1 (0: before the first).
    pub iteration: u32,
    /// The induction variables of each iteration, flattened.
    pub ivs: Vec<i64>,
    /// Number of induction variables.
    pub dims: usize,
    /// Shadow state per buffer touched.
    pub shadow: FxHashMap<u32, Vec<Shadow>>,
}

impl ParState {
    /// "iteration (i, j)".
    pub fn describe(&self, it: u32) -> String {
        let k = (it as usize - 1) * self.dims;
        let v: Vec<String> = self.ivs[k..k + self.dims].iter().map(|x| x.to_string()).collect();
        format!("iteration ({})", v.join(", "))
    }
}

/// The machine: program, memory, output and launch state.
pub struct Machine<'p> {
    /// The program.
    pub prog: &'p Program,
    /// Memory.
    pub mem: Memory,
    /// Printed output not yet written.
    pub out: Vec<u8>,
    /// Write output to standard output as it comes (otherwise keep it in `out`).
    pub stream: bool,
    /// Instructions left.
    pub fuel: u64,
    /// Options.
    pub opts: ExecOptions,
    /// The launch being run.
    pub gpu: Option<GpuState>,
    /// Instances of `memref.global`s.
    pub globals: FxHashMap<u32, u64>,
    /// The outermost parallel loop being run, outside kernels.
    pub par: Option<ParState>,
    /// Nesting depth of parallel loops being run.
    pub par_depth: u32,
    /// Instructions executed.
    pub steps: u64,
    /// The device that runs `gpu.launch_func` kernels (`None`: the interpreter runs them).
    pub device: Option<Box<dyn crate::device::Device>>,
    /// The divergence profile (`--profile-divergence`; the program must be
    /// decoded with loop instrumentation).
    pub profile: Option<Box<crate::profile::Profiler>>,
    /// Per-thread store traces (`--compare-traces`; the program must be
    /// decoded with store instrumentation).
    pub trace: Option<Box<crate::trace::Tracer>>,
}

type Res<T> = Result<T, Fault>;

fn fault(func: u32, pc: u32, msg: impl Into<String>) -> Fault {
    Fault {
        at: Some((func, pc)),
        msg: msg.into(),
        notes: Vec::new(),
    }
}

/// A `gpu.barrier` reached outside a kernel.
#[cold]
fn barrier_outside_kernel(func: u32, pc: u32) -> Fault {
    fault(func, pc, format!("{} outside a kernel", GpuBarrierOp::def().name))
}

enum Next {
    Call(u32, List),
    Ret(List),
    Barrier,
    End,
    Launch(u32),
}

impl<'p> Machine<'p> {
    /// A machine for `prog`.
    pub fn new(prog: &'p Program, opts: ExecOptions) -> Self {
        Machine {
            prog,
            mem: Memory {
                limit: opts.max_memory,
                track_init: opts.check_uninit,
                ..Memory::default()
            },
            out: Vec::new(),
            stream: false,
            fuel: opts.max_steps,
            opts,
            gpu: None,
            globals: FxHashMap::default(),
            steps: 0,
            par: None,
            par_depth: 0,
            device: None,
            profile: None,
            trace: None,
        }
    }

    /// Writes pending output to standard output (when streaming).
    pub fn flush(&mut self) {
        if self.stream && !self.out.is_empty() {
            let mut so = std::io::stdout().lock();
            let _ = so.write_all(&self.out);
            let _ = so.flush();
            self.out.clear();
        }
    }

    /// A fresh frame of `func` with `args`.
    pub fn frame(&self, func: u32, args: &[u64]) -> Frame {
        let f = &self.prog.funcs[func as usize];
        let mut regs = f.init.clone();
        for (&p, &a) in f.params.iter().zip(args) {
            regs[p as usize] = a;
        }
        Frame {
            func,
            pc: 0,
            regs,
            rets: List::default(),
            allocas: Vec::new(),
        }
    }

    /// Calls `func` with `args` on the host; returns its results.
    pub fn call(&mut self, func: u32, args: &[u64]) -> Res<Vec<u64>> {
        let mut stack = vec![self.frame(func, args)];
        match self.run(&mut stack)? {
            Stop::Return(v) => Ok(v),
            Stop::Barrier(f, pc, _) => Err(barrier_outside_kernel(f, pc)),
            Stop::End => Err(fault(func, 0, "kernel terminator outside a kernel")),
        }
    }

    /// Runs the frames until the bottom one returns, or a barrier or kernel end.
    pub fn run(&mut self, stack: &mut Vec<Frame>) -> Res<Stop> {
        loop {
            let next = match self.run_top(stack.last_mut().expect("a frame")) {
                Ok(n) => n,
                Err(mut f) => {
                    for fr in stack.iter().rev().skip(1) {
                        f.notes.push((Some((fr.func, fr.pc - 1)), "called from here".into()));
                    }
                    return Err(f);
                }
            };
            match next {
                Next::Call(callee, args) => {
                    let top = stack.last().expect("a frame");
                    let f = &self.prog.funcs[top.func as usize];
                    let vals: Vec<u64> = f.lists[args.start as usize..(args.start + args.len) as usize]
                        .iter()
                        .map(|&r| top.regs[r as usize])
                        .collect();
                    let rets = match &f.code[top.pc as usize - 1] {
                        Inst::Call { rets, .. } => *rets,
                        _ => List::default(),
                    };
                    if stack.len() > 10_000 {
                        return Err(fault(
                            top.func,
                            top.pc - 1,
                            "call stack too deep (more than 10000 frames)",
                        ));
                    }
                    let mut fr = self.frame(callee, &vals);
                    fr.rets = rets;
                    stack.push(fr);
                }
                Next::Ret(vals) => {
                    let top = stack.pop().expect("a frame");
                    // Stack memory ends with its function: later accesses
                    // through a memref that escaped are faults.
                    for &buf in &top.allocas {
                        self.mem.free(buf);
                    }
                    let f = &self.prog.funcs[top.func as usize];
                    let v: Vec<u64> = f.lists[vals.start as usize..(vals.start + vals.len) as usize]
                        .iter()
                        .map(|&r| top.regs[r as usize])
                        .collect();
                    match stack.last_mut() {
                        None => {
                            if self.gpu.is_some() {
                                return Ok(Stop::End);
                            }
                            return Ok(Stop::Return(v));
                        }
                        Some(caller) => {
                            let cf = &self.prog.funcs[caller.func as usize];
                            let dsts = &cf.lists[top.rets.start as usize..(top.rets.start + top.rets.len) as usize];
                            for (&d, &x) in dsts.iter().zip(&v) {
                                caller.regs[d as usize] = x;
                            }
                        }
                    }
                }
                Next::Barrier => {
                    let top = stack.last().expect("a frame");
                    return Ok(Stop::Barrier(top.func, top.pc - 1, stack.len()));
                }
                Next::End => return Ok(Stop::End),
                Next::Launch(info) => {
                    let top = stack.last().expect("a frame");
                    let (func, pc) = (top.func, top.pc - 1);
                    let regs = top.regs.clone();
                    let par = self.par.take();
                    let launched = self.launch(info, &regs, func, pc);
                    self.par = par;
                    if let Err(mut f) = launched {
                        if f.at != Some((func, pc)) {
                            f.notes.push((Some((func, pc)), "in the kernel launched here".into()));
                        }
                        return Err(f);
                    }
                }
            }
        }
    }

    /// Runs the top frame until it calls, returns, or stops.
    fn run_top(&mut self, fr: &mut Frame) -> Res<Next> {
        let prog: &'p Program = self.prog;
        let fid = fr.func;
        let func = &prog.funcs[fid as usize];
        let code = &func.code[..];
        let lists = &func.lists[..];
        let regs = &mut fr.regs[..];
        let mut pc = fr.pc as usize;
        macro_rules! r {
            ($x:expr) => {
                regs[$x as usize]
            };
        }
        macro_rules! list {
            ($l:expr) => {
                &lists[$l.start as usize..($l.start + $l.len) as usize]
            };
        }
        loop {
            if self.fuel == 0 {
                fr.pc = pc as u32;
                return Err(fault(
                    fid,
                    pc as u32,
                    format!(
                        "step limit exceeded: {} instructions executed (--max-steps)",
                        self.opts.max_steps
                    ),
                ));
            }
            self.fuel -= 1;
            let inst = &code[pc];
            let here = pc as u32;
            pc += 1;
            match *inst {
                Inst::Const { dst, bits } => r!(dst) = bits,
                Inst::Mov { dst, src } => r!(dst) = r!(src),
                Inst::ParMove { pairs } => {
                    let l = list!(pairs);
                    let mut tmp = [0u64; 16];
                    if l.len() / 2 <= 16 {
                        for (k, p) in l.chunks_exact(2).enumerate() {
                            tmp[k] = r!(p[1]);
                        }
                        for (k, p) in l.chunks_exact(2).enumerate() {
                            r!(p[0]) = tmp[k];
                        }
                    } else {
                        let v: Vec<u64> = l.chunks_exact(2).map(|p| r!(p[1])).collect();
                        for (k, p) in l.chunks_exact(2).enumerate() {
                            r!(p[0]) = v[k];
                        }
                    }
                }
                Inst::IBin { op, shift, dst, a, b } => {
                    r!(dst) = int_bin(op, r!(a), r!(b), shift).map_err(|m| fault(fid, here, m))?;
                }
                Inst::IBinImm { op, dst, a, imm } => {
                    r!(dst) = int_bin(op, r!(a), imm as u64, 0).map_err(|m| fault(fid, here, m))?;
                }
                Inst::CmpI { pred, shift, dst, a, b } => r!(dst) = cmp_i(pred, r!(a), r!(b), shift),
                Inst::F32Bin { op, dst, a, b } => {
                    let (x, y) = (f32::from_bits(r!(a) as u32), f32::from_bits(r!(b) as u32));
                    r!(dst) = f32_bin(op, x, y).to_bits() as u64;
                }
                Inst::F64Bin { op, dst, a, b } => {
                    let (x, y) = (f64::from_bits(r!(a)), f64::from_bits(r!(b)));
                    r!(dst) = f64_bin(op, x, y).to_bits();
                }
                Inst::F32Un { op, dst, a } => {
                    r!(dst) = f32_un(op, f32::from_bits(r!(a) as u32)).to_bits() as u64;
                }
                Inst::F64Un { op, dst, a } => r!(dst) = f64_un(op, f64::from_bits(r!(a))).to_bits(),
                Inst::Fma32 { dst, a, b, c } => {
                    let f = |x: u64| f32::from_bits(x as u32);
                    r!(dst) = f(r!(a)).mul_add(f(r!(b)), f(r!(c))).to_bits() as u64;
                }
                Inst::Fma64 { dst, a, b, c } => {
                    let f = f64::from_bits;
                    r!(dst) = f(r!(a)).mul_add(f(r!(b)), f(r!(c))).to_bits();
                }
                Inst::CmpF32 { pred, dst, a, b } => {
                    let (x, y) = (f32::from_bits(r!(a) as u32) as f64, f32::from_bits(r!(b) as u32) as f64);
                    r!(dst) = cmp_f(pred, x, y);
                }
                Inst::CmpF64 { pred, dst, a, b } => r!(dst) = cmp_f(pred, f64::from_bits(r!(a)), f64::from_bits(r!(b))),
                Inst::AbsI { shift, dst, a } => r!(dst) = sext((r!(a) as i64).wrapping_abs() as u64, shift),
                Inst::Conv {
                    conv,
                    src_shift,
                    dst_shift,
                    dst,
                    a,
                } => r!(dst) = convert(conv, r!(a), src_shift, dst_shift),
                Inst::Select { dst, c, a, b } => r!(dst) = if r!(c) != 0 { r!(a) } else { r!(b) },
                Inst::Jump { target } => pc = target as usize,
                Inst::JumpIfZero { cond, target } => {
                    if r!(cond) == 0 {
                        pc = target as usize
                    }
                }
                Inst::JumpIfLt { a, b, target } => {
                    if (r!(a) as i64) < (r!(b) as i64) {
                        pc = target as usize
                    }
                }
                Inst::LoopNext { iv, step, ub, target } => {
                    let n = (r!(iv) as i64).wrapping_add(r!(step) as i64);
                    r!(iv) = n as u64;
                    if n < r!(ub) as i64 {
                        pc = target as usize
                    }
                }
                Inst::LoopNextWrap {
                    iv,
                    step,
                    ub,
                    target,
                    shift,
                } => {
                    let n = sext(r!(iv).wrapping_add(r!(step)), shift) as i64;
                    r!(iv) = n as u64;
                    if n < r!(ub) as i64 {
                        pc = target as usize
                    }
                }
                Inst::StepCheck { step } => {
                    if (r!(step) as i64) <= 0 {
                        return Err(fault(
                            fid,
                            here,
                            format!("loop step must be positive, got {}", r!(step) as i64),
                        ));
                    }
                }
                Inst::Load { dst, mem, idx } => {
                    let (buf, pos) = self.address(fid, here, r!(mem), list!(idx), regs)?;
                    self.check_access(fid, here, buf, pos, false)?;
                    r!(dst) = self.mem.bufs[buf as usize].data[pos];
                }
                Inst::Store { val, mem, idx } => {
                    let (buf, pos) = self.address(fid, here, r!(mem), list!(idx), regs)?;
                    self.check_access(fid, here, buf, pos, true)?;
                    self.mem.bufs[buf as usize].data[pos] = r!(val);
                }
                Inst::VLoad { dst, mem, idx, width } => {
                    let (buf, pos) = self.vector_address(fid, here, r!(mem), list!(idx), regs, width)?;
                    for k in 0..width as usize {
                        self.check_access(fid, here, buf, pos + k, false)?;
                        regs[dst as usize + k] = self.mem.bufs[buf as usize].data[pos + k];
                    }
                }
                Inst::VStore { val, mem, idx, width } => {
                    let (buf, pos) = self.vector_address(fid, here, r!(mem), list!(idx), regs, width)?;
                    for k in 0..width as usize {
                        self.check_access(fid, here, buf, pos + k, true)?;
                        self.mem.bufs[buf as usize].data[pos + k] = regs[val as usize + k];
                    }
                }
                Inst::Alloc {
                    dst,
                    ty,
                    dyn_sizes,
                    stack,
                    device,
                } => {
                    let t = &prog.types[ty as usize];
                    let mut dyns = list!(dyn_sizes).iter();
                    let sizes: Vec<i64> = t
                        .shape
                        .iter()
                        .map(|s| s.unwrap_or_else(|| dyns.next().map_or(0, |&r| regs[r as usize] as i64)))
                        .collect();
                    let per_block = t.space == Space::Workgroup;
                    if let (true, Some(g)) = (per_block, &self.gpu) {
                        if let Some(&d) = g.wg_allocas.get(&(fid, here)) {
                            r!(dst) = d;
                            continue;
                        }
                    }
                    let d = self.mem.alloc(t, sizes, t.space).map_err(|m| fault(fid, here, m))?;
                    if device && self.opts.separate_memory {
                        let buf = &mut self.mem.bufs[self.mem.descs[d as usize].buf as usize];
                        buf.device = true;
                        buf.init = Some(vec![false; buf.data.len()]);
                    }
                    if stack {
                        let buf = self.mem.descs[d as usize].buf;
                        self.mem.bufs[buf as usize].kind = BufKind::Stack { func: fid, pc: here };
                        // Workgroup memory lives as long as its block, not
                        // as the thread's function.
                        if !(per_block && self.gpu.is_some()) {
                            fr.allocas.push(buf);
                        }
                    }
                    if let (true, Some(g)) = (per_block, &mut self.gpu) {
                        g.wg_allocas.insert((fid, here), d);
                    }
                    r!(dst) = d;
                }
                Inst::Dealloc { mem } => {
                    let buf = self.desc(fid, here, r!(mem))?.buf;
                    let b = &self.mem.bufs[buf as usize];
                    if b.kind != BufKind::Heap {
                        return Err(self.bad_dealloc(fid, here, buf));
                    }
                    if b.freed {
                        return Err(fault(fid, here, "memref deallocated twice"));
                    }
                    self.mem.free(buf);
                }
                Inst::Dim { dst, mem, index } => {
                    let d = self.desc(fid, here, r!(mem))?;
                    let i = r!(index) as i64;
                    if i < 0 || i as usize >= d.sizes.len() {
                        return Err(fault(
                            fid,
                            here,
                            format!(
                                "{} index {i} out of range for rank {}",
                                MemrefDimOp::def().name,
                                d.sizes.len()
                            ),
                        ));
                    }
                    r!(dst) = d.sizes[i as usize] as u64;
                }
                Inst::Copy { src, dst, gpu } => self.copy(fid, here, r!(src), r!(dst), gpu)?,
                Inst::Memset { dst, val } => {
                    let d = self.desc(fid, here, r!(dst))?.clone();
                    if self.opts.separate_memory && self.gpu.is_none() {
                        // gpu.memset: device memory only.
                        if !self.mem.bufs[d.buf as usize].device {
                            return Err(fault(
                                fid,
                                here,
                                "gpu.memset of host memory (--separate-memory: its destination must be a gpu.alloc buffer)",
                            ));
                        }
                    }
                    let v = r!(val);
                    for p in self.mem.positions(&d) {
                        self.check_pos(fid, here, d.buf, p)?;
                        self.mem.bufs[d.buf as usize].data[p as usize] = v;
                        if let Some(i) = &mut self.mem.bufs[d.buf as usize].init {
                            i[p as usize] = true;
                        }
                    }
                }
                Inst::View {
                    dst,
                    src,
                    info,
                    reinterpret,
                } => {
                    let d = self.view(fid, here, r!(src), &prog.views[info as usize], reinterpret, regs)?;
                    r!(dst) = d;
                }
                Inst::GetGlobal { dst, global } => {
                    r!(dst) = self.global(fid, here, global)?;
                }
                Inst::Call { func: callee, args, .. } => {
                    fr.pc = pc as u32;
                    return Ok(Next::Call(callee, args));
                }
                Inst::Ext { ext, args } => {
                    let a: Vec<u64> = list!(args).iter().map(|&x| regs[x as usize]).collect();
                    self.external(fid, here, ext, &a)?;
                }
                Inst::Return { vals } => {
                    fr.pc = pc as u32;
                    return Ok(Next::Ret(vals));
                }
                Inst::Launch { info } => {
                    fr.pc = pc as u32;
                    return Ok(Next::Launch(info));
                }
                Inst::GpuId { id, dim, dst } => {
                    let Some(g) = &self.gpu else {
                        return Err(fault(fid, here, "GPU id read outside a kernel"));
                    };
                    let d = dim as usize;
                    r!(dst) = match id {
                        GpuId::Thread => g.tid[d],
                        GpuId::Block => g.bid[d],
                        GpuId::BlockDim => g.block[d],
                        GpuId::GridDim => g.grid[d],
                        GpuId::Global => g.bid[d] * g.block[d] + g.tid[d],
                        GpuId::Lane => (g.tid[0] + g.block[0] * (g.tid[1] + g.block[1] * g.tid[2])) % 32,
                    } as u64;
                }
                Inst::Barrier => {
                    if self.gpu.is_none() {
                        return Err(barrier_outside_kernel(fid, here));
                    }
                    fr.pc = pc as u32;
                    return Ok(Next::Barrier);
                }
                Inst::KernelEnd => {
                    fr.pc = pc as u32;
                    return Ok(Next::End);
                }
                Inst::ParBegin => {
                    if self.par_depth == 0 && self.gpu.is_none() {
                        self.par = Some(ParState::default());
                    }
                    self.par_depth += 1;
                }
                Inst::ParIter { ivs } => {
                    if self.par_depth == 1 {
                        if let Some(p) = &mut self.par {
                            if p.iteration == u32::MAX {
                                return Err(fault(fid, here, "too many iterations in a parallel loop"));
                            }
                            p.iteration += 1;
                            p.dims = ivs.len as usize;
                            for &r in list!(ivs) {
                                p.ivs.push(regs[r as usize] as i64);
                            }
                        }
                    }
                }
                Inst::ParEnd => {
                    self.par_depth = self.par_depth.saturating_sub(1);
                    if self.par_depth == 0 {
                        self.par = None;
                    }
                }
                Inst::Trap { msg } => return Err(fault(fid, here, prog.messages[msg as usize].clone())),
                Inst::LoopEnter { id } => self.loop_event(id, LoopEvent::Enter),
                Inst::LoopIter { id } => self.loop_event(id, LoopEvent::Iter),
                Inst::LoopExit { id } => self.loop_event(id, LoopEvent::Exit),
                Inst::TraceStore { val, mem, idx } => self.trace_store((fid, here), r!(mem), list!(idx), regs, val, 1),
                Inst::TraceVStore { val, mem, idx, width } => {
                    self.trace_store((fid, here), r!(mem), list!(idx), regs, val, width)
                }
            }
        }
    }

    /// The descriptor of a memref register value.
    pub fn desc(&self, fid: u32, pc: u32, v: u64) -> Res<&Desc> {
        self.mem
            .descs
            .get(v as usize)
            .ok_or_else(|| fault(fid, pc, "use of an uninitialized memref value"))
    }

    #[inline]
    pub(crate) fn address(&self, fid: u32, pc: u32, mem: u64, idx: &[Reg], regs: &[u64]) -> Res<(u32, usize)> {
        let d = self.desc(fid, pc, mem)?;
        if idx.len() != d.sizes.len() {
            return Err(fault(
                fid,
                pc,
                format!(
                    "access with {} indices to a memref of rank {}",
                    idx.len(),
                    d.sizes.len()
                ),
            ));
        }
        let mut pos = d.offset;
        for (k, &r) in idx.iter().enumerate() {
            let i = regs[r as usize] as i64;
            if i < 0 || i >= d.sizes[k] {
                return Err(self.oob(fid, pc, d, idx, regs, k));
            }
            pos += i * d.strides[k];
        }
        let buf = d.buf;
        self.check_pos(fid, pc, buf, pos)?;
        Ok((buf, pos as usize))
    }

    /// The buffer and first element of a `width`-element vector access at
    /// `idx`: the whole vector within the innermost dimension, which is
    /// contiguous, and the flat element offset a multiple of `width` (the
    /// alignment CUDA's `float2`/`float4` and OpenCL's `vloadn` require).
    fn vector_address(&self, fid: u32, pc: u32, mem: u64, idx: &[Reg], regs: &[u64], width: u8) -> Res<(u32, usize)> {
        let (buf, pos) = self.address(fid, pc, mem, idx, regs)?;
        let d = self.desc(fid, pc, mem)?;
        let w = width as i64;
        let last = d.sizes.len() - 1;
        let i = regs[idx[last] as usize] as i64;
        let mut msg = if i + w > d.sizes[last] {
            let ix: Vec<String> = idx.iter().map(|&r| (regs[r as usize] as i64).to_string()).collect();
            let sh: Vec<String> = d.sizes.iter().map(|s| s.to_string()).collect();
            format!(
                "out-of-bounds access: a vector of {w} elements at index [{}] is outside the shape [{}] \
                 (dimension {last})",
                ix.join(", "),
                sh.join(", ")
            )
        } else if d.strides[last] != 1 {
            format!(
                "vector access along an innermost dimension of stride {} (it must be contiguous)",
                d.strides[last]
            )
        } else if pos as i64 % w != 0 {
            format!("misaligned vector access: flat element offset {pos} is not a multiple of the vector width {w}")
        } else {
            return Ok((buf, pos));
        };
        if let Some(g) = &self.gpu {
            msg.push_str(&format!(" in {}", g.describe(g.thread_no)));
        }
        Err(fault(fid, pc, msg))
    }

    fn check_pos(&self, fid: u32, pc: u32, buf: u32, pos: i64) -> Res<()> {
        let b = &self.mem.bufs[buf as usize];
        if b.freed {
            return Err(self.use_after_free(fid, pc, buf, "access to"));
        }
        if pos < 0 || pos as usize >= b.data.len() {
            return Err(fault(
                fid,
                pc,
                format!(
                    "out-of-bounds access: element {pos} of a buffer of {} elements (through a view)",
                    b.data.len()
                ),
            ));
        }
        Ok(())
    }

    /// `what` ("access to", "printing") a memref whose buffer `buf` is
    /// freed: after a dealloc, or after the return of the function whose
    /// `memref.alloca` made it (with a note there).
    #[cold]
    fn use_after_free(&self, fid: u32, pc: u32, buf: u32, what: &str) -> Fault {
        match self.mem.bufs[buf as usize].kind {
            BufKind::Stack { func, pc: at } => {
                let mut f = fault(
                    fid,
                    pc,
                    format!(
                        "{what} memory of a '{}' after its function returned (stack memory is released \
                         on return)",
                        MemrefAllocaOp::def().name
                    ),
                );
                f.notes.push((Some((func, at)), "allocated here".into()));
                f
            }
            _ => fault(fid, pc, format!("{what} a memref after its deallocation")),
        }
    }

    /// A dealloc of buffer `buf`, which no dealloc may free: stack memory
    /// (`memref.alloca`) or a `memref.global`.
    #[cold]
    fn bad_dealloc(&self, fid: u32, pc: u32, buf: u32) -> Fault {
        match self.mem.bufs[buf as usize].kind {
            BufKind::Stack { func, pc: at } => {
                let mut f = fault(
                    fid,
                    pc,
                    format!(
                        "deallocation of memory allocated by '{}' (undefined behaviour: stack memory is \
                         released when its function returns)",
                        MemrefAllocaOp::def().name
                    ),
                );
                f.notes.push((Some((func, at)), "allocated here".into()));
                f
            }
            _ => fault(
                fid,
                pc,
                format!(
                    "deallocation of a '{}' (undefined behaviour: the memref of '{}' is not heap memory)",
                    MemrefGlobalOp::def().name,
                    MemrefGetGlobalOp::def().name
                ),
            ),
        }
    }

    #[cold]
    fn oob(&self, fid: u32, pc: u32, d: &Desc, idx: &[Reg], regs: &[u64], k: usize) -> Fault {
        let ix: Vec<String> = idx.iter().map(|&r| (regs[r as usize] as i64).to_string()).collect();
        let sh: Vec<String> = d.sizes.iter().map(|s| s.to_string()).collect();
        let mut msg = format!(
            "out-of-bounds access: index [{}] is outside the shape [{}] (dimension {k})",
            ix.join(", "),
            sh.join(", ")
        );
        if let Some(g) = &self.gpu {
            msg.push_str(&format!(" in {}", g.describe(g.thread_no)));
        }
        fault(fid, pc, msg)
    }

    /// Under `--separate-memory`, a fault when the current code may not
    /// touch buffer `buf`: a kernel and host memory, host code and device
    /// memory. `what` says how it touches it ("reads", "writes", "copies").
    #[cold]
    fn wrong_memory(&self, fid: u32, pc: u32, buf: u32, what: &str) -> Option<Fault> {
        let b = &self.mem.bufs[buf as usize];
        if let Some(g) = &self.gpu {
            if !b.device && b.space == Space::Global {
                return Some(fault(
                    fid,
                    pc,
                    format!(
                        "a kernel {what} host memory: {} that is not from gpu.alloc, in {} (--separate-memory: \
                         kernels see device memory only; copy it with gpu.memcpy to a gpu.alloc buffer)",
                        b.name(),
                        g.describe(g.thread_no)
                    ),
                ));
            }
        } else if b.device {
            return Some(fault(
                fid,
                pc,
                format!(
                    "host code {what} device memory: {} from gpu.alloc (--separate-memory: the host sees \
                     host memory only; copy it with gpu.memcpy)",
                    b.name()
                ),
            ));
        }
        None
    }

    /// Checks an access in a launch (races) and uninitialized reads.
    #[inline]
    fn check_access(&mut self, fid: u32, pc: u32, buf: u32, pos: usize, write: bool) -> Res<()> {
        if self.opts.separate_memory {
            let b = &self.mem.bufs[buf as usize];
            if b.device != self.gpu.is_some() && (b.device || b.space == Space::Global) {
                let what = if write { "writes" } else { "reads" };
                if let Some(f) = self.wrong_memory(fid, pc, buf, what) {
                    return Err(f);
                }
            }
        }
        if let Some(init) = &mut self.mem.bufs[buf as usize].init {
            if write {
                init[pos] = true;
            } else if !init[pos] {
                let b = &self.mem.bufs[buf as usize];
                let mut m = if b.device {
                    format!(
                        "read of uninitialised device memory: {} from gpu.alloc, which no gpu.memcpy or \
                         kernel has written (--separate-memory)",
                        b.describe(pos)
                    )
                } else {
                    format!("read of uninitialized memory: {}", b.describe(pos))
                };
                if let Some(g) = &self.gpu {
                    m.push_str(&format!(" in {}", g.describe(g.thread_no)));
                }
                return Err(fault(fid, pc, m));
            }
        }
        if (self.gpu.is_some() || self.par.is_some()) && self.mem.bufs[buf as usize].space != Space::Private {
            self.race(fid, pc, buf, pos, write)?;
        }
        Ok(())
    }

    fn race(&mut self, fid: u32, pc: u32, buf: u32, pos: usize, write: bool) -> Res<()> {
        let len = self.mem.bufs[buf as usize].data.len();
        let space = self.mem.bufs[buf as usize].space;
        let (me, shadow) = if let Some(g) = &mut self.gpu {
            let me = Access {
                thread: g.thread_no + 1,
                block: g.block_no,
                phase: g.phase,
                func: fid,
                pc,
            };
            (me, &mut g.shadow)
        } else if let Some(p) = &mut self.par {
            let me = Access {
                thread: p.iteration,
                block: 0,
                phase: 0,
                func: fid,
                pc,
            };
            (me, &mut p.shadow)
        } else {
            return Ok(());
        };
        if me.thread == 0 {
            return Ok(());
        }
        let sh = shadow.entry(buf).or_insert_with(|| vec![Shadow::default(); len]);
        let s = &mut sh[pos];
        let other = if write {
            if s.write.conflicts(&me) {
                Some((s.write, true))
            } else if s.read1.conflicts(&me) {
                Some((s.read1, false))
            } else if s.read2.conflicts(&me) {
                Some((s.read2, false))
            } else {
                s.write = me;
                None
            }
        } else if s.write.conflicts(&me) {
            Some((s.write, true))
        } else {
            if s.read1.thread != me.thread {
                s.read2 = s.read1;
            }
            s.read1 = me;
            None
        };
        let Some((o, o_write)) = other else { return Ok(()) };
        let element = self.mem.bufs[buf as usize].describe(pos);
        let (doing, did) = (
            if write { "writes" } else { "reads" },
            if o_write { "wrote" } else { "read" },
        );
        let (msg, other_desc) = if let Some(g) = &self.gpu {
            let kind = if space == Space::Workgroup {
                "workgroup"
            } else {
                "global"
            };
            let when = if o.block == me.block {
                "in the same barrier phase"
            } else {
                "in another block of the same launch"
            };
            (
                format!(
                    "data race on {kind} memory: {} {doing} {element}, which {} {did} {when}",
                    g.describe(me.thread - 1),
                    g.describe(o.thread - 1),
                ),
                g.describe(o.thread - 1),
            )
        } else {
            let p = self.par.as_ref().expect("in a parallel loop");
            (
                format!(
                    "data race between iterations of a parallel loop: {} {doing} {element}, which {} {did}",
                    p.describe(me.thread),
                    p.describe(o.thread),
                ),
                p.describe(o.thread),
            )
        };
        let mut f = fault(fid, pc, msg);
        f.notes
            .push((Some((o.func, o.pc)), format!("the other access, by {other_desc}")));
        Err(f)
    }

    fn copy(&mut self, fid: u32, pc: u32, src: u64, dst: u64, gpu: bool) -> Res<()> {
        let s = self.desc(fid, pc, src)?.clone();
        let d = self.desc(fid, pc, dst)?.clone();
        if self.opts.separate_memory && !(gpu && self.gpu.is_none()) {
            for (buf, what) in [(s.buf, "copies from"), (d.buf, "copies to")] {
                if let Some(f) = self.wrong_memory(fid, pc, buf, what) {
                    return Err(f);
                }
            }
        }
        if s.sizes != d.sizes {
            return Err(fault(
                fid,
                pc,
                format!(
                    "copy between memrefs of different shapes {:?} and {:?}",
                    s.sizes, d.sizes
                ),
            ));
        }
        let ps = self.mem.positions(&s);
        let pd = self.mem.positions(&d);
        for (&a, &b) in ps.iter().zip(&pd) {
            self.check_pos(fid, pc, s.buf, a)?;
            self.check_pos(fid, pc, d.buf, b)?;
            let v = self.mem.bufs[s.buf as usize].data[a as usize];
            let init = self.mem.bufs[s.buf as usize]
                .init
                .as_ref()
                .is_none_or(|i| i[a as usize]);
            let db = &mut self.mem.bufs[d.buf as usize];
            db.data[b as usize] = v;
            if let Some(i) = &mut db.init {
                i[b as usize] = init;
            }
        }
        Ok(())
    }

    fn view(&mut self, fid: u32, pc: u32, src: u64, info: &ViewInfo, reinterpret: bool, regs: &[u64]) -> Res<u64> {
        let s = self.desc(fid, pc, src)?.clone();
        let val = |o: &Operand| match *o {
            Operand::Const(c) => c,
            Operand::Reg(r) => regs[r as usize] as i64,
        };
        let offs: Vec<i64> = info.offsets.iter().map(val).collect();
        let sizes: Vec<i64> = info.sizes.iter().map(val).collect();
        let strides: Vec<i64> = info.strides.iter().map(val).collect();
        let d = if reinterpret {
            let d = Desc {
                buf: s.buf,
                offset: offs.first().copied().unwrap_or(0),
                sizes: sizes.into(),
                strides: strides.into(),
            };
            let len = self.mem.bufs[s.buf as usize].data.len() as i64;
            let hi: i64 = d.offset
                + d.sizes
                    .iter()
                    .zip(d.strides.iter())
                    .map(|(n, st)| (n - 1).max(0) * st)
                    .sum::<i64>();
            if d.sizes.iter().all(|&n| n > 0) && (d.offset < 0 || hi >= len) {
                return Err(fault(
                    fid,
                    pc,
                    format!("reinterpret_cast reaches element {hi} of a buffer of {len}"),
                ));
            }
            d
        } else {
            if offs.len() != s.sizes.len() || sizes.len() != s.sizes.len() || strides.len() != s.sizes.len() {
                return Err(fault(fid, pc, "subview rank does not match its source"));
            }
            let mut offset = s.offset;
            let (mut ns, mut nt) = (Vec::new(), Vec::new());
            for k in 0..s.sizes.len() {
                if offs[k] < 0 || (sizes[k] > 0 && offs[k] + (sizes[k] - 1) * strides[k] >= s.sizes[k]) {
                    return Err(fault(
                        fid,
                        pc,
                        format!(
                            "out-of-bounds subview: offsets {:?}, sizes {:?}, strides {:?} of a memref of shape {:?}",
                            offs, sizes, strides, s.sizes
                        ),
                    ));
                }
                offset += offs[k] * s.strides[k];
                if info.keep[k] {
                    ns.push(sizes[k]);
                    nt.push(strides[k] * s.strides[k]);
                }
            }
            Desc {
                buf: s.buf,
                offset,
                sizes: ns.into(),
                strides: nt.into(),
            }
        };
        Ok(self.mem.push_desc(d))
    }

    fn global(&mut self, fid: u32, pc: u32, g: u32) -> Res<u64> {
        if let Some(&d) = self.globals.get(&g) {
            return Ok(d);
        }
        let gl = &self.prog.globals[g as usize];
        let sizes: Vec<i64> = gl.ty.shape.iter().map(|s| s.unwrap_or(0)).collect();
        let d = self
            .mem
            .alloc(&gl.ty, sizes, Space::Global)
            .map_err(|m| fault(fid, pc, m))?;
        let buf = self.mem.descs[d as usize].buf;
        self.mem.bufs[buf as usize].kind = BufKind::Global;
        if let Some(init) = &gl.init {
            let data = &mut self.mem.bufs[buf as usize].data;
            if init.len() == 1 {
                data.iter_mut().for_each(|x| *x = init[0]);
            } else {
                for (x, &v) in data.iter_mut().zip(init) {
                    *x = v;
                }
            }
            self.mem.mark_init(buf);
        }
        self.globals.insert(g, d);
        Ok(d)
    }

    fn external(&mut self, fid: u32, pc: u32, ext: Extern, a: &[u64]) -> Res<()> {
        let arg = |i: usize| a.get(i).copied().unwrap_or(0);
        match ext {
            Extern::PrintMemref(elem) => {
                let d = self.desc(fid, pc, arg(0))?.clone();
                if self.opts.separate_memory {
                    if let Some(f) = self.wrong_memory(fid, pc, d.buf, "prints") {
                        return Err(f);
                    }
                }
                let b = &self.mem.bufs[d.buf as usize];
                if b.freed {
                    return Err(self.use_after_free(fid, pc, d.buf, "printing"));
                }
                if b.elem != elem && !(b.elem.width() == elem.width() && !b.elem.is_float() && !elem.is_float()) {
                    return Err(fault(fid, pc, "printMemref function does not match the element type"));
                }
                for p in self.mem.positions(&d) {
                    self.check_pos(fid, pc, d.buf, p)?;
                }
                let mut s = String::new();
                print_memref(&mut s, &d, &self.mem.bufs[d.buf as usize].data, elem);
                self.out.extend_from_slice(s.as_bytes());
            }
            Extern::PrintF32 => {
                let s = fmt_g(f32::from_bits(arg(0) as u32) as f64);
                self.out.extend_from_slice(s.as_bytes());
            }
            Extern::PrintF64 => {
                let s = fmt_g(f64::from_bits(arg(0)));
                self.out.extend_from_slice(s.as_bytes());
            }
            Extern::PrintI64 => self.out.extend_from_slice((arg(0) as i64).to_string().as_bytes()),
            Extern::PrintU64 => self.out.extend_from_slice(arg(0).to_string().as_bytes()),
            Extern::PrintNewline => self.out.push(b'\n'),
            Extern::PrintComma => self.out.extend_from_slice(b", "),
            Extern::PrintOpen => self.out.extend_from_slice(b"( "),
            Extern::PrintClose => self.out.extend_from_slice(b" )"),
        }
        if self.out.len() > 1 << 16 {
            self.flush();
        }
        Ok(())
    }
}

/// `a op b` on integers of width `64 - shift`.
#[inline]
pub fn int_bin(op: IOp, a: u64, b: u64, shift: u8) -> Result<u64, &'static str> {
    let (sa, sb) = (a as i64, b as i64);
    let (ua, ub) = (zext(a, shift), zext(b, shift));
    let width = 64 - shift as u64;
    let min = sext(1u64 << (63 - shift), shift) as i64;
    let r: u64 = match op {
        IOp::Add => a.wrapping_add(b),
        IOp::Sub => a.wrapping_sub(b),
        IOp::Mul => a.wrapping_mul(b),
        IOp::And => a & b,
        IOp::Or => a | b,
        IOp::Xor => a ^ b,
        IOp::Shl | IOp::ShrS | IOp::ShrU if ub >= width => {
            return Err("shift amount is not less than the bit width (poison)")
        }
        IOp::Shl => a << ub,
        IOp::ShrS => (sa >> ub) as u64,
        IOp::ShrU => ua >> ub,
        IOp::DivS | IOp::RemS | IOp::FloorDivS | IOp::CeilDivS | IOp::AffMod if sb == 0 => {
            return Err("integer division by zero")
        }
        IOp::DivU | IOp::RemU | IOp::CeilDivU if ub == 0 => return Err("integer division by zero"),
        IOp::DivS | IOp::RemS | IOp::FloorDivS | IOp::CeilDivS if sa == min && sb == -1 => {
            return Err("signed integer division overflow")
        }
        IOp::DivS => (sa / sb) as u64,
        IOp::RemS => (sa % sb) as u64,
        IOp::DivU => ua / ub,
        IOp::RemU => ua % ub,
        IOp::FloorDivS => lf_affine::floor_div(sa, sb).ok_or("signed integer division overflow")? as u64,
        IOp::CeilDivS => lf_affine::ceil_div(sa, sb).ok_or("signed integer division overflow")? as u64,
        IOp::CeilDivU => ua.div_ceil(ub),
        IOp::AffMod => lf_affine::modulo(sa, sb).ok_or("integer division by zero")? as u64,
        IOp::MaxS => sa.max(sb) as u64,
        IOp::MinS => sa.min(sb) as u64,
        IOp::MaxU => ua.max(ub),
        IOp::MinU => ua.min(ub),
    };
    Ok(sext(r, shift))
}

/// `arith.cmpi` on two integers kept sign-extended from the width `64 - shift`
/// ([`CmpIPredicate::holds`] on their signed and unsigned values at that
/// width: for such registers, equal values are equal registers); true is all
/// ones.
#[inline]
pub fn cmp_i(pred: CmpIPredicate, a: u64, b: u64, shift: u8) -> u64 {
    let signed = (a as i64 as i128, b as i64 as i128);
    let unsigned = (zext(a, shift) as u128, zext(b, shift) as u128);
    if pred.holds(signed, unsigned) {
        u64::MAX
    } else {
        0
    }
}

/// `arith.cmpf` ([`CmpFPredicate::holds`]); true is all ones.
#[inline]
pub fn cmp_f(pred: CmpFPredicate, a: f64, b: f64) -> u64 {
    if pred.holds(a, b) {
        u64::MAX
    } else {
        0
    }
}

macro_rules! float_ops {
    ($bin:ident, $bin_raw:ident, $un:ident, $un_raw:ident, $t:ty) => {
        /// A binary float op in this type. A NaN made from non-NaN operands
        /// is the positive quiet NaN (what LLVM's constant folder makes).
        #[inline]
        pub fn $bin(op: FOp, x: $t, y: $t) -> $t {
            let r = $bin_raw(op, x, y);
            if r.is_nan() && !x.is_nan() && !y.is_nan() {
                <$t>::NAN
            } else {
                r
            }
        }

        #[inline]
        fn $bin_raw(op: FOp, x: $t, y: $t) -> $t {
            match op {
                FOp::Add => x + y,
                FOp::Sub => x - y,
                FOp::Mul => x * y,
                FOp::Div => x / y,
                FOp::Rem => x % y,
                FOp::Maximum => {
                    if x.is_nan() || y.is_nan() {
                        <$t>::NAN
                    } else if x == y {
                        if x.is_sign_negative() {
                            y
                        } else {
                            x
                        }
                    } else {
                        x.max(y)
                    }
                }
                FOp::Minimum => {
                    if x.is_nan() || y.is_nan() {
                        <$t>::NAN
                    } else if x == y {
                        if x.is_sign_negative() {
                            x
                        } else {
                            y
                        }
                    } else {
                        x.min(y)
                    }
                }
                FOp::MaxNum => x.max(y),
                FOp::MinNum => x.min(y),
                FOp::Pow => x.powf(y),
            }
        }

        /// A unary float op in this type (a NaN made from a non-NaN operand is positive).
        #[inline]
        pub fn $un(op: FUn, x: $t) -> $t {
            let r = $un_raw(op, x);
            if r.is_nan() && !x.is_nan() {
                <$t>::NAN
            } else {
                r
            }
        }

        #[inline]
        fn $un_raw(op: FUn, x: $t) -> $t {
            match op {
                FUn::Neg => -x,
                FUn::Abs => x.abs(),
                FUn::Ceil => x.ceil(),
                FUn::Floor => x.floor(),
                FUn::Sqrt => x.sqrt(),
                FUn::Rsqrt => 1.0 / x.sqrt(),
                FUn::Exp => x.exp(),
                FUn::Exp2 => x.exp2(),
                FUn::Log => x.ln(),
                FUn::Log2 => x.log2(),
                FUn::Sin => x.sin(),
                FUn::Cos => x.cos(),
                FUn::Tanh => x.tanh(),
            }
        }
    };
}

float_ops!(f32_bin, f32_bin_raw, f32_un, f32_un_raw, f32);
float_ops!(f64_bin, f64_bin_raw, f64_un, f64_un_raw, f64);

/// A conversion of register value `a`.
pub fn convert(conv: Conv, a: u64, src_shift: u8, dst_shift: u8) -> u64 {
    let f32b = |x: f32| x.to_bits() as u64;
    let from32 = |x: u64| f32::from_bits(x as u32);
    match conv {
        Conv::IntS => sext(a, dst_shift),
        Conv::IntU => sext(zext(a, src_shift), dst_shift),
        Conv::SiToF32 => f32b(a as i64 as f32),
        Conv::SiToF64 => (a as i64 as f64).to_bits(),
        Conv::UiToF32 => f32b(zext(a, src_shift) as f32),
        Conv::UiToF64 => (zext(a, src_shift) as f64).to_bits(),
        Conv::F32ToSi => sext(from32(a) as i64 as u64, dst_shift),
        Conv::F64ToSi => sext(f64::from_bits(a) as i64 as u64, dst_shift),
        Conv::F32ToUi => sext(from32(a) as u64, dst_shift),
        Conv::F64ToUi => sext(f64::from_bits(a) as u64, dst_shift),
        Conv::F32ToF64 => (from32(a) as f64).to_bits(),
        Conv::F64ToF32 => f32b(f64::from_bits(a) as f32),
        Conv::BitsF32ToI => sext(a & 0xffff_ffff, dst_shift),
        Conv::BitsIToF32 => a & 0xffff_ffff,
        Conv::Same => a,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The interpreter's comparisons before they moved to the dialect's
    /// predicate semantics: the results must stay the same bit for bit.
    fn old_cmp_i(pred: i64, a: u64, b: u64, shift: u8) -> u64 {
        let (sa, sb) = (a as i64, b as i64);
        let (ua, ub) = (zext(a, shift), zext(b, shift));
        let t = match pred {
            0 => a == b,
            1 => a != b,
            2 => sa < sb,
            3 => sa <= sb,
            4 => sa > sb,
            5 => sa >= sb,
            6 => ua < ub,
            7 => ua <= ub,
            8 => ua > ub,
            _ => ua >= ub,
        };
        if t {
            u64::MAX
        } else {
            0
        }
    }

    fn old_cmp_f(pred: i64, a: f64, b: f64) -> u64 {
        let uno = a.is_nan() || b.is_nan();
        let t = match pred {
            0 => false,
            1 => !uno && a == b,
            2 => !uno && a > b,
            3 => !uno && a >= b,
            4 => !uno && a < b,
            5 => !uno && a <= b,
            6 => !uno && a != b,
            7 => !uno,
            8 => uno || a == b,
            9 => uno || a > b,
            10 => uno || a >= b,
            11 => uno || a < b,
            12 => uno || a <= b,
            13 => uno || a != b,
            14 => uno,
            _ => true,
        };
        if t {
            u64::MAX
        } else {
            0
        }
    }

    #[test]
    fn integer_comparisons_are_unchanged() {
        let samples: [i64; 9] = [0, 1, -1, 2, -2, 127, -128, i64::MAX, i64::MIN];
        for width in [1u32, 8, 16, 32, 64] {
            let shift = (64 - width) as u8;
            for pred in CmpIPredicate::ALL {
                for &x in &samples {
                    for &y in &samples {
                        // Registers hold integers sign-extended from their width.
                        let (a, b) = (sext(x as u64, shift), sext(y as u64, shift));
                        assert_eq!(
                            cmp_i(pred, a, b, shift),
                            old_cmp_i(pred.value(), a, b, shift),
                            "{pred:?} i{width} {x} {y}"
                        );
                    }
                }
            }
        }
    }

    #[test]
    fn float_comparisons_are_unchanged() {
        let samples = [
            0.0,
            -0.0,
            1.0,
            -1.5,
            f64::INFINITY,
            f64::NEG_INFINITY,
            f64::NAN,
            f64::MIN_POSITIVE,
        ];
        for pred in CmpFPredicate::ALL {
            for &x in &samples {
                for &y in &samples {
                    assert_eq!(cmp_f(pred, x, y), old_cmp_f(pred.value(), x, y), "{pred:?} {x} {y}");
                }
            }
        }
    }
}
