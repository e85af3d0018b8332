//! lf-interp: the interpreter behind `lf-run`.
//!
//! It parses and verifies a module, decodes every function once into a flat
//! instruction vector over register slots ([`program`], [`decode`]), and
//! executes it ([`exec`]): func, arith, math, scf, memref, affine and gpu ops,
//! with MLIR's runner-utils print functions ([`print`]). GPU launches run
//! block by block, the threads of a block phase by phase between barriers
//! ([`gpu`]), and the checkers report data races, out-of-bounds accesses,
//! divergent barriers and uninitialized reads as diagnostics at the op's
//! location. Kernel mode ([`kernel`]) fills memref arguments with
//! deterministic values and compares two programs. [`observe`] runs a
//! module held in a caller's context (lf-opt's `--verify-semantics`).

pub mod decode;
pub mod device;
pub mod exec;
pub mod gpu;
pub mod kernel;
pub mod memory;
pub mod observe;
pub mod print;
pub mod profile;
pub mod program;
pub mod trace;

use exec::{ExecOptions, Fault, Machine};
use lf_diag::{Diagnostic, SourceMgr};
use lf_ir::Context;
use program::{Instrument, Program};
use std::sync::Arc;
use std::time::Instant;

pub use device::DeviceBackend;
pub use exec::BlockOrder;

/// What to run.
#[derive(Clone, Debug, Default)]
pub struct Options {
    /// Execution limits and checks.
    pub exec: ExecOptions,
    /// The function to call.
    pub entry: String,
    /// Kernel mode: fill memref arguments from this seed and print checksums.
    pub random_inputs: Option<u64>,
    /// Kernel mode: values of scalar arguments, `(position, text)`.
    pub scalar_args: Vec<(usize, String)>,
    /// Relative tolerance of `--compare` for floats.
    pub rtol: f64,
    /// Absolute tolerance of `--compare` for floats.
    pub atol: f64,
    /// Print instruction count and time to standard error.
    pub stats: bool,
    /// Write the program's output to standard output as it comes.
    pub stream: bool,
    /// Where kernel launches run: `None` in the simulator, with its checks;
    /// else on a device backend (the `lf-devices` crate has them).
    pub gpu_backend: Option<Arc<dyn DeviceBackend>>,
    /// `--profile-divergence`: measure the SIMT efficiency of every loop
    /// run in a kernel ([`profile`]); the table is [`Outcome::profile`].
    pub profile_divergence: bool,
    /// `--compare-traces`: `--compare` also checks that every GPU thread
    /// makes the same stores in the same order ([`trace`]).
    pub compare_traces: bool,
}

impl Options {
    /// The instrumentation these options need.
    fn instrument(&self) -> Instrument {
        Instrument {
            loops: self.profile_divergence,
            stores: self.compare_traces,
        }
    }
}

/// The result of a run.
#[derive(Debug, Default)]
pub struct Outcome {
    /// What the program printed (what was not already streamed).
    pub stdout: Vec<u8>,
    /// Messages for standard error (rendered diagnostics).
    pub stderr: String,
    /// Exit status: 0 success, 1 an error in the program or its run.
    pub code: i32,
    /// Instructions executed.
    pub steps: u64,
    /// The divergence profile (`--profile-divergence`, after a run without
    /// errors; empty otherwise).
    pub profile: String,
}

/// A loaded program: its context (for locations), sources and decoded form.
pub struct Loaded {
    ctx: Context,
    sources: SourceMgr,
    /// The decoded program.
    pub prog: Program,
    /// The backend the kernel sources were made for (`None`: the simulator).
    backend: Option<Arc<dyn DeviceBackend>>,
    /// Emitted source of each kernel (by function index), for a device backend.
    kernels: rustc_hash::FxHashMap<u32, device::KernelSource>,
    /// The name the source was loaded under.
    name: String,
    /// The instrumentation it was decoded with.
    instr: Instrument,
}

/// Parses, verifies and decodes `text` (named `name`); an error is the
/// rendered diagnostic.
pub fn load(name: &str, text: &str) -> Result<Loaded, String> {
    load_for(name, text, None)
}

/// As [`load`], for a device backend (`None`: the simulator): the backend
/// prepares the module (outlines inline `gpu.launch` ops) and makes the
/// source of every kernel.
pub fn load_for(name: &str, text: &str, gpu: Option<Arc<dyn DeviceBackend>>) -> Result<Loaded, String> {
    load_with(name, text, gpu, Instrument::default())
}

/// As [`load_for`], decoding with the instrumentation `instr` (profiling
/// and tracing instructions; none for an ordinary run).
pub fn load_with(
    name: &str,
    text: &str,
    gpu: Option<Arc<dyn DeviceBackend>>,
    instr: Instrument,
) -> Result<Loaded, String> {
    let ctx = Context::new();
    lf_dialects::register_all(&ctx);
    let mut sources = SourceMgr::new();
    sources.add(name, text);
    let mut owned = match lf_ir::parse_source(&ctx, text, name) {
        Ok(o) => o,
        Err(d) => return Err(lf_diag::render_all(&[*d], &sources)),
    };
    if let Err(d) = lf_ir::verify(&ctx, &owned.body, owned.op) {
        return Err(lf_diag::render_all(&[*d], &sources));
    }
    if let Some(dev) = &gpu {
        if let Err(d) = dev.prepare(&ctx, &mut owned) {
            return Err(format!(
                "{}lf-run: error: --gpu-backend={} runs outlined kernels, and gpu-kernel-outlining failed\n",
                lf_diag::render_all(&d, &sources),
                dev.name()
            ));
        }
    }
    let prog = decode::decode_module_with(&ctx, &owned.body, owned.op, instr);
    let kernels = match &gpu {
        Some(dev) => dev.kernels(&ctx, &owned.body, owned.op, &sources, &|n| prog.find(n)),
        None => Default::default(),
    };
    Ok(Loaded {
        ctx,
        sources,
        prog,
        backend: gpu,
        kernels,
        name: name.to_string(),
        instr,
    })
}

impl Loaded {
    /// The diagnostic of a fault.
    pub fn diagnostic(&self, f: &Fault) -> Diagnostic {
        observe::diagnostic(&self.ctx, &self.prog, f)
    }

    /// The source position of instruction `pc` of function `func`.
    fn source_pos(&self, (func, pc): (u32, u32)) -> Option<lf_diag::SourcePos> {
        let f = self.prog.funcs.get(func as usize)?;
        f.locs.get(pc as usize).copied().unwrap_or(f.loc).source_pos(&self.ctx)
    }

    /// Renders diagnostics with their source snippets.
    pub fn render(&self, diags: &[Diagnostic]) -> String {
        lf_diag::render_all(diags, &self.sources)
    }

    fn entry(&self, name: &str) -> Result<u32, String> {
        let i = self
            .prog
            .find(name)
            .ok_or_else(|| format!("lf-run: error: no function named '@{name}' (use --entry=NAME)"))?;
        if self.prog.funcs[i as usize].external.is_some() {
            return Err(format!("lf-run: error: '@{name}' is a declaration without a body"));
        }
        Ok(i)
    }

    /// The emitted source of kernel `module::name` for this program's device
    /// backend (`None` for `sim` or an unknown kernel); an error is the
    /// emitter's rendered diagnostics.
    pub fn kernel_source(&self, kernel: &str) -> Option<&device::KernelSource> {
        self.kernels.get(&self.prog.find(kernel)?)
    }

    /// A machine for this program, with the device of its backend opened.
    fn machine(&self, exec: &ExecOptions) -> Result<Machine<'_>, String> {
        let mut m = Machine::new(&self.prog, exec.clone());
        if let Some(dev) = &self.backend {
            m.device = Some(
                dev.open(self.kernels.clone())
                    .map_err(|e| format!("lf-run: error: {e}\n"))?,
            );
        }
        if self.instr.loops {
            m.profile = Some(Box::default());
        }
        if self.instr.stores {
            m.trace = Some(Box::default());
        }
        Ok(m)
    }
}

fn load_file(path: &str, gpu: Option<Arc<dyn DeviceBackend>>, instr: Instrument) -> Result<Loaded, String> {
    let text = std::fs::read(path).map_err(|e| format!("lf-run: error: could not open input file '{path}': {e}\n"))?;
    let text = String::from_utf8(text).map_err(|_| format!("lf-run: error: '{path}' is not valid UTF-8\n"))?;
    load_with(path, &text, gpu, instr)
}

fn failure(stderr: String) -> Outcome {
    Outcome {
        stderr,
        code: 1,
        ..Outcome::default()
    }
}

/// Runs `f` on a thread with a large stack (deeply nested input recurses);
/// a panic (a bug in lf-run) becomes exit status 2 with a message.
fn on_big_stack(f: impl FnOnce() -> Outcome + Send + 'static) -> Outcome {
    let handle = std::thread::Builder::new().stack_size(512 << 20).spawn(f);
    match handle.map(|h| h.join()) {
        Ok(Ok(out)) => out,
        _ => Outcome {
            stderr: "lf-run: internal error (please report this with the input that caused it)\n".into(),
            code: 2,
            ..Outcome::default()
        },
    }
}

/// Runs the file at `path` with `opts`.
pub fn run_file(path: &str, opts: &Options) -> Outcome {
    let (path, opts) = (path.to_string(), opts.clone());
    on_big_stack(
        move || match load_file(&path, opts.gpu_backend.clone(), opts.instrument()) {
            Ok(l) => run_loaded(&l, &opts),
            Err(e) => failure(e),
        },
    )
}

/// Runs a loaded program.
pub fn run_loaded(l: &Loaded, opts: &Options) -> Outcome {
    let entry = match l.entry(&opts.entry) {
        Ok(e) => e,
        Err(m) => return failure(m + "\n"),
    };
    let mut m = match l.machine(&opts.exec) {
        Ok(m) => m,
        Err(e) => return failure(e),
    };
    m.stream = opts.stream;
    let start = Instant::now();
    let func = &l.prog.funcs[entry as usize];
    let args = match opts.random_inputs {
        Some(seed) => match kernel::make_inputs(&mut m, entry, seed, &opts.scalar_args) {
            Ok(a) => a,
            Err(f) => return failure(format!("lf-run: error: {}\n", f.msg)),
        },
        None if !func.params.is_empty() => {
            return failure(format!(
                "lf-run: error: '@{}' takes {} arguments; run it in kernel mode (--random-inputs=SEED)\n",
                opts.entry,
                func.params.len()
            ))
        }
        None => Vec::new(),
    };
    let result = m.call(entry, &args);
    m.flush();
    let mut out = Outcome {
        steps: opts.exec.max_steps - m.fuel,
        ..Outcome::default()
    };
    match result {
        Ok(_) => {
            if opts.random_inputs.is_some() {
                let s = kernel::checksums(&m, &args, func);
                m.out.extend_from_slice(s.as_bytes());
                m.flush();
            }
            if let Some(p) = &m.profile {
                out.profile = p.report(&l.ctx, &l.prog, &l.name);
            }
        }
        Err(f) => {
            out.stderr = l.render(&[l.diagnostic(&f)]);
            out.code = 1;
        }
    }
    if opts.stats {
        let t = start.elapsed().as_secs_f64();
        out.stderr.push_str(&format!(
            "lf-run: {} instructions in {:.3} s ({:.1} M/s)\n",
            out.steps,
            t,
            out.steps as f64 / t.max(1e-9) / 1e6
        ));
    }
    out.stdout = std::mem::take(&mut m.out);
    out
}

/// `--compare A B`: runs the entry of both on the same inputs and compares
/// every memref argument element by element.
pub fn compare_files(a: &str, b: &str, opts: &Options) -> Outcome {
    let (a, b, opts) = (a.to_string(), b.to_string(), opts.clone());
    on_big_stack(move || compare(&a, &b, &opts))
}

fn compare(a: &str, b: &str, opts: &Options) -> Outcome {
    let (la, lb) = match (
        load_file(a, opts.gpu_backend.clone(), opts.instrument()),
        load_file(b, opts.gpu_backend.clone(), opts.instrument()),
    ) {
        (Ok(x), Ok(y)) => (x, y),
        (Err(e), _) | (_, Err(e)) => return failure(e),
    };
    let seed = opts.random_inputs.unwrap_or(1);
    let mut results = Vec::new();
    let mut traces = Vec::new();
    let mut profile = String::new();
    for (l, path) in [(&la, a), (&lb, b)] {
        let entry = match l.entry(&opts.entry) {
            Ok(e) => e,
            Err(m) => return failure(format!("{m} in '{path}'\n")),
        };
        let mut m = match l.machine(&opts.exec) {
            Ok(m) => m,
            Err(e) => return failure(e),
        };
        let args = match kernel::make_inputs(&mut m, entry, seed, &opts.scalar_args) {
            Ok(a) => a,
            Err(f) => return failure(format!("lf-run: error: {} ('{path}')\n", f.msg)),
        };
        if let Err(f) = m.call(entry, &args) {
            return failure(l.render(&[l.diagnostic(&f)]));
        }
        let f = &l.prog.funcs[entry as usize];
        if let Some(p) = &m.profile {
            profile.push_str(&p.report(&l.ctx, &l.prog, &l.name));
        }
        if let Some(mut t) = m.trace.take() {
            let bufs: Vec<(u32, String)> = args
                .iter()
                .enumerate()
                .map(|(k, &d)| match f.param_types[k] {
                    Some(_) => (
                        m.mem.descs[d as usize].buf,
                        format!("arg{k} (memref<{}>)", kernel::shape_str(&m, d, f.param_kinds[k])),
                    ),
                    None => (u32::MAX, String::new()),
                })
                .collect();
            t.name_buffers(&m, &bufs);
            traces.push(t);
        }
        let mems: Vec<usize> = (0..args.len()).filter(|&k| f.param_types[k].is_some()).collect();
        let kinds: Vec<_> = mems.iter().map(|&k| f.param_kinds[k]).collect();
        let vals: Vec<(String, Vec<u64>, Vec<i64>)> = mems
            .iter()
            .map(|&k| (args[k], f.param_kinds[k]))
            .map(|(d, k)| {
                (
                    kernel::shape_str(&m, d, k),
                    kernel::elements(&m, d),
                    m.mem.descs[d as usize].sizes.to_vec(),
                )
            })
            .collect();
        results.push((vals, kinds));
    }
    let (ra, ka) = &results[0];
    let (rb, kb) = &results[1];
    if ka != kb || ra.iter().zip(rb).any(|(x, y)| x.0 != y.0) || ra.len() != rb.len() {
        let sig = |r: &Vec<(String, Vec<u64>, Vec<i64>)>| r.iter().map(|x| x.0.clone()).collect::<Vec<_>>().join(", ");
        return failure(format!(
            "lf-run: error: @{} has different arguments in '{a}' ({}) and '{b}' ({})\n",
            opts.entry,
            sig(ra),
            sig(rb)
        ));
    }
    let mut total = 0;
    for (k, ((x, y), &kind)) in ra.iter().zip(rb).zip(ka.iter()).enumerate() {
        total += x.1.len();
        if let Some(i) = kernel::first_difference(&x.1, &y.1, kind, opts.rtol, opts.atol) {
            let idx = kernel::unflatten(i, &x.2);
            let idx: Vec<String> = idx.iter().map(|v| v.to_string()).collect();
            return failure(format!(
                "lf-run: error: memref argument {k} (memref<{}>) differs at [{}]: '{a}' has {}, '{b}' has {}\n",
                x.0,
                idx.join(", "),
                kernel::show(x.1[i], kind),
                kernel::show(y.1[i], kind)
            ));
        }
    }
    let mut agree = format!(
        "lf-run: '{a}' and '{b}' agree: @{} on seed {seed}, {} memref arguments, {total} elements",
        opts.entry,
        ra.len()
    );
    if let [ta, tb] = &traces[..] {
        if let Some(mm) = trace::first_mismatch(ta, tb, opts.rtol, opts.atol) {
            return failure(trace_mismatch(&mm, (&la, ta), (&lb, tb)));
        }
        let threads: usize = ta.launches.iter().map(|l| l.threads.len()).sum();
        let stores: usize = ta.launches.iter().flat_map(|l| l.threads.values()).map(Vec::len).sum();
        agree.push_str(&format!(
            "; per-thread store traces agree: {} launches, {threads} threads, {stores} stores",
            ta.launches.len()
        ));
    }
    Outcome {
        stdout: (agree + "\n").into_bytes(),
        profile,
        ..Outcome::default()
    }
}

/// The report of `--compare-traces` for the first difference `mm` between
/// the traces of programs `a` and `b`: an error at the store of `a`, a note
/// at the store of `b` (at the launch for a thread that made fewer stores).
fn trace_mismatch(mm: &trace::Mismatch, a: (&Loaded, &trace::Tracer), b: (&Loaded, &trace::Tracer)) -> String {
    let (launch, thread, index, sa, sb) = match *mm {
        trace::Mismatch::Launches(na, nb) => {
            return format!(
                "lf-run: error: per-thread store traces differ: '{}' makes {na} kernel launches, '{}' makes {nb}\n",
                a.0.name, b.0.name
            )
        }
        trace::Mismatch::Store {
            launch,
            thread,
            index,
            a,
            b,
        } => (launch, thread, index, a, b),
    };
    let who = a.1.launches[launch].describe(thread);
    let what = |(l, t): (&Loaded, &trace::Tracer), r: Option<trace::StoreRec>| match r {
        Some(r) => format!("'{}' stores {}", l.name, t.describe(&r)),
        None => format!("'{}' makes only {index} stores in this thread", l.name),
    };
    let mut out = String::new();
    for (k, (side, r)) in [(a, sa), (b, sb)].into_iter().enumerate() {
        let (l, t) = side;
        let at = r.map_or(t.launches[launch].at, |r| r.at);
        let pos = l.source_pos(at);
        let d = if k == 0 {
            Diagnostic::error(
                pos,
                format!(
                    "per-thread store traces differ: {who} of launch {launch}, store {index} (from 0): {}",
                    what(side, r)
                ),
            )
        } else {
            Diagnostic::note(pos, what(side, r))
        };
        out.push_str(&l.render(&[d]));
    }
    out
}
