//! The `lf-opt` driver: read, parse, verify, print.

use clap::Parser as ClapParser;
use lf_diag::{Diagnostic, SourceMgr, SourcePos, Verifier, VerifyMode};
use lf_ir::{Context, ParseOptions, PrintOptions};
use memmap2::{Mmap, UncheckedAdvice};
use std::io::{Read, Write};
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::{Duration, Instant};

/// Command-line options of lf-opt.
#[derive(ClapParser, Debug)]
#[command(
    name = "lf-opt",
    version,
    about = "Parse, verify, transform and print lf IR (MLIR syntax).",
    long_about = "lf-opt reads IR in MLIR's textual syntax (.lfir), verifies it and prints it back, \
in the custom form by default or in MLIR's generic form. Errors are reported with the source \
line and a caret; the exit status is 1 and no output file is written when anything fails.\n\n\
Example: lf-opt examples/fig3_chain.lfir --print-op-generic -o out.lfir"
)]
pub struct OptArgs {
    /// Input file ('-' or nothing for standard input).
    #[arg(default_value = "-")]
    pub input: String,
    /// Output file ('-' for standard output). Written only if everything succeeds.
    #[arg(short = 'o', default_value = "-")]
    pub output: String,
    /// Print every op in MLIR's generic form.
    #[arg(long = "print-op-generic", visible_alias = "mlir-print-op-generic")]
    pub print_op_generic: bool,
    /// Print locations (`loc(...)`), as aliases defined at the end.
    #[arg(long = "print-debuginfo", visible_alias = "mlir-print-debuginfo")]
    pub print_debuginfo: bool,
    /// Accept ops, attributes and types of dialects lf does not know.
    #[arg(long = "allow-unregistered-dialect")]
    pub allow_unregistered_dialect: bool,
    /// Process each chunk between `// -----` lines separately.
    #[arg(long = "split-input-file")]
    pub split_input_file: bool,
    /// Check diagnostics against `// expected-error {{...}}` comments instead of printing them.
    #[arg(long = "verify-diagnostics")]
    pub verify_diagnostics: bool,
    /// Skip the verifier (for debugging lf itself).
    #[arg(long = "no-verify", hide = true)]
    pub no_verify: bool,
    /// Threads to use (parsing, verifying and printing functions in parallel);
    /// 1 does everything on one thread. The output is the same for any number.
    /// Default: the number of cores.
    #[arg(long = "threads", value_name = "N", value_parser = clap::value_parser!(u32).range(1..))]
    pub threads: Option<u32>,
    /// Print how long each phase (read, parse, verify, print) took to stderr.
    #[arg(long = "timing", visible_alias = "mlir-timing")]
    pub timing: bool,
}

/// Entry point of `lf-opt`: returns the process exit code.
pub fn main() -> i32 {
    let args = OptArgs::parse();
    let ctx = Context::new();
    lf_dialects::register_all(&ctx);
    main_with(ctx, args)
}

/// Runs lf-opt with a given context (which may have extra ops registered).
pub fn main_with(ctx: Context, args: OptArgs) -> i32 {
    // Deeply nested input recurses; give the work a large stack.
    let handle = std::thread::Builder::new()
        .stack_size(512 << 20)
        .spawn(move || run(&ctx, &args));
    match handle.map(|h| h.join()) {
        Ok(Ok(code)) => code,
        _ => {
            eprintln!("lf-opt: internal error (please report this with the input that caused it)");
            2
        }
    }
}

fn run(ctx: &Context, args: &OptArgs) -> i32 {
    ctx.set_allow_unregistered_dialects(args.allow_unregistered_dialect);
    let threads = args
        .threads
        .map(|n| n as usize)
        .unwrap_or_else(|| std::thread::available_parallelism().map_or(1, |n| n.get()));
    // Verification and printing use rayon's global pool. Deep nesting recurses,
    // so its threads get large stacks (address space; used as touched). It can
    // only be set up once per process: a second call keeps the first pool.
    let _ = rayon::ThreadPoolBuilder::new()
        .num_threads(threads)
        .stack_size(256 << 20)
        .build_global();
    let mut timing = Timing::new(args.timing);
    let (name, input) = match read_input(&args.input) {
        Ok(x) => x,
        Err(e) => {
            eprintln!("lf-opt: error: could not open input file '{}': {e}", args.input);
            return 1;
        }
    };
    let text: &str = match input.validate_utf8() {
        Ok(t) => t,
        Err(valid) => {
            let raw = input.bytes();
            let lossy = String::from_utf8_lossy(raw).into_owned();
            let before = &raw[..valid];
            let line = before.iter().filter(|&&b| b == b'\n').count() as u32 + 1;
            let col = (valid - before.iter().rposition(|&b| b == b'\n').map_or(0, |i| i + 1)) as u32 + 1;
            let mut sm = SourceMgr::new();
            sm.add(name.as_str(), lossy);
            let d = Diagnostic::error(SourcePos::new(name.as_str(), line, col), "input is not valid UTF-8");
            let _ = lf_diag::emit_to_stderr(&[d], &sm);
            return 1;
        }
    };
    timing.lap("read");
    // The source manager (a copy of the text) is only needed for diagnostics.
    let source_mgr = || {
        let mut sm = SourceMgr::new();
        sm.add(name.as_str(), text);
        sm
    };
    let opts = PrintOptions {
        generic: args.print_op_generic,
        debuginfo: args.print_debuginfo,
    };
    let chunks: Vec<(&str, u32)> = if args.split_input_file {
        let split = lf_diag::split_input_file_checked(text, lf_diag::DEFAULT_SPLIT_MARKER);
        let warnings = split.near_miss_warnings(&name, text);
        if !warnings.is_empty() && !args.verify_diagnostics {
            let _ = lf_diag::emit_to_stderr(&warnings, &source_mgr());
        }
        split.chunks.iter().map(|c| (c.text, c.line)).collect()
    } else {
        vec![(text, 1)]
    };
    // Output goes straight to its destination (a temporary file renamed into
    // place at the end), except on standard output with several chunks, where
    // it is held until every chunk succeeded.
    let mut sink = Sink::new(&args.output, chunks.len() > 1);
    let separator = format!("{}\n", lf_diag::DEFAULT_OUTPUT_SPLIT_MARKER);
    let mut diags: Vec<Diagnostic> = Vec::new();
    let mut failed = false;
    for (chunk, first_line) in &chunks {
        let popts = ParseOptions {
            first_line: *first_line,
            on_progress: input.release_hook(text, chunk),
            threads,
        };
        match parse_and_verify(ctx, chunk, &name, &popts, !args.no_verify, &mut timing) {
            Ok(owned) => {
                let written = sink.begin_part(separator.as_bytes()).and_then(|mut w| {
                    lf_ir::print_op(ctx, &owned.body, owned.op, &opts, &mut w)?;
                    w.flush()
                });
                timing.lap("print");
                if let Err(e) = written {
                    eprintln!("lf-opt: error: could not write output file '{}': {e}", args.output);
                    return 1;
                }
                if chunks.len() == 1 {
                    // The process ends right after: no need to free the IR piece by piece.
                    std::mem::forget(owned);
                }
            }
            Err(d) => {
                failed = true;
                diags.push(*d);
            }
        }
    }
    if args.verify_diagnostics {
        let sm = source_mgr();
        let mut v = Verifier::new(VerifyMode::All);
        v.add_all(&sm);
        v.check_all(diags.iter());
        let problems = v.finish();
        if !problems.is_empty() {
            let _ = lf_diag::emit_to_stderr(&problems, &sm);
            return 1;
        }
        failed = false;
    } else if !diags.is_empty() {
        let _ = lf_diag::emit_to_stderr(&diags, &source_mgr());
    }
    if failed {
        return 1;
    }
    let code = match sink.finish() {
        Ok(()) => 0,
        Err(e) => {
            eprintln!("lf-opt: error: could not write output file '{}': {e}", args.output);
            1
        }
    };
    timing.lap("write");
    timing.report();
    code
}

/// Parses and verifies one buffer.
fn parse_and_verify(
    ctx: &Context,
    text: &str,
    name: &str,
    popts: &ParseOptions,
    verify: bool,
    timing: &mut Timing,
) -> Result<lf_ir::OwnedOp, Box<Diagnostic>> {
    let owned = lf_ir::parse_source_with(ctx, text, name, popts)?;
    timing.lap("parse");
    if verify {
        lf_ir::verify(ctx, &owned.body, owned.op)?;
        timing.lap("verify");
    }
    Ok(owned)
}

/// Wall time per phase, printed by `--timing`.
struct Timing {
    enabled: bool,
    start: Instant,
    last: Instant,
    phases: Vec<(&'static str, Duration)>,
}

impl Timing {
    fn new(enabled: bool) -> Self {
        let now = Instant::now();
        Timing {
            enabled,
            start: now,
            last: now,
            phases: Vec::new(),
        }
    }

    /// Ends the current phase, naming it `name` (phases with the same name add up).
    fn lap(&mut self, name: &'static str) {
        if !self.enabled {
            return;
        }
        let now = Instant::now();
        let d = now - self.last;
        self.last = now;
        match self.phases.iter_mut().find(|(n, _)| *n == name) {
            Some((_, t)) => *t += d,
            None => self.phases.push((name, d)),
        }
    }

    fn report(&self) {
        if !self.enabled {
            return;
        }
        let total = self.last - self.start;
        eprintln!("===-------------------------------------------------------------------------===");
        eprintln!("                        lf-opt execution time report");
        eprintln!("===-------------------------------------------------------------------------===");
        eprintln!("  Total Execution Time: {:.4} seconds", total.as_secs_f64());
        eprintln!();
        eprintln!("   ---Wall Time---  --- Name ---");
        for (n, d) in &self.phases {
            let pct = if total.is_zero() {
                0.0
            } else {
                100.0 * d.as_secs_f64() / total.as_secs_f64()
            };
            eprintln!("   {:.4} ({pct:5.1}%)  {n}", d.as_secs_f64());
        }
        eprintln!("   {:.4} (100.0%)  Total", total.as_secs_f64());
    }
}

/// The input text: a read-only mapping of the file, or the bytes read from a
/// pipe or standard input.
enum Input {
    Mapped(Arc<Mmap>),
    Owned(Vec<u8>),
}

/// How much of the input is validated (or parsed) before the pages behind
/// are handed back to the OS.
const RELEASE_STEP: usize = 4 << 20;

impl Input {
    fn bytes(&self) -> &[u8] {
        match self {
            Input::Mapped(m) => m,
            Input::Owned(v) => v,
        }
    }

    /// Checks that the input is UTF-8, a few MiB at a time, letting the OS
    /// drop the pages already checked; on failure returns the offset of the
    /// first invalid byte.
    fn validate_utf8(&self) -> Result<&str, usize> {
        let b = self.bytes();
        let mut pos = 0;
        while pos < b.len() {
            let mut end = (pos + RELEASE_STEP).min(b.len());
            // End the chunk at the start of a character.
            while end < b.len() && end > pos && (b[end] & 0xC0) == 0x80 {
                end -= 1;
            }
            if let Err(e) = std::str::from_utf8(&b[pos..end]) {
                return Err(pos + e.valid_up_to());
            }
            if let Input::Mapped(m) = self {
                release_pages(m, pos, end);
            }
            pos = end;
        }
        // SAFETY: the whole buffer was checked above, chunk by chunk, and the
        // chunks split it at character boundaries.
        Ok(unsafe { std::str::from_utf8_unchecked(b) })
    }

    /// A parse-progress hook that lets the OS drop the pages of `chunk` (a
    /// part of `text`, this input) that the parser has gone past. Dropped
    /// pages of a file mapping are read again from the file if touched later
    /// (a diagnostic's snippet, a name kept in a table), so this only lowers
    /// the resident memory.
    fn release_hook(&self, text: &str, chunk: &str) -> Option<lf_ir::ProgressHook> {
        let Input::Mapped(m) = self else { return None };
        // Chunks are slices of the text.
        let base = (chunk.as_ptr() as usize).saturating_sub(text.as_ptr() as usize);
        let m = Arc::clone(m);
        Some(lf_ir::ProgressHook::new(move |from, to| {
            release_pages(&m, base + from, base + to)
        }))
    }
}

/// Gives the pages lying wholly inside `[from, to)` of the mapping back to the OS.
fn release_pages(m: &Mmap, from: usize, to: usize) {
    const PAGE: usize = 4096;
    let start = from.div_ceil(PAGE) * PAGE;
    let end = (to / PAGE) * PAGE;
    if end > start && end <= m.len() {
        // SAFETY: the mapping is a read-only shared mapping of a file; after
        // MADV_DONTNEED its pages are filled again from the file on the next
        // access, so every borrowed byte keeps its value.
        let _ = unsafe { m.unchecked_advise_range(UncheckedAdvice::DontNeed, start, end - start) };
    }
}

fn read_input(input: &str) -> std::io::Result<(String, Input)> {
    if input == "-" {
        let mut v = Vec::new();
        std::io::stdin().read_to_end(&mut v)?;
        return Ok(("<stdin>".to_string(), Input::Owned(v)));
    }
    let mut file = std::fs::File::open(input)?;
    let meta = file.metadata()?;
    if meta.is_file() && meta.len() > 0 {
        // SAFETY: the mapping is read-only; lf-opt's input must not be
        // modified while it runs (as for mlir-opt, which maps its input too).
        if let Ok(m) = unsafe { Mmap::map(&file) } {
            return Ok((input.to_string(), Input::Mapped(Arc::new(m))));
        }
    }
    let mut v = Vec::new();
    file.read_to_end(&mut v)?;
    Ok((input.to_string(), Input::Owned(v)))
}

/// Where the printed output goes. Nothing appears at the destination unless
/// every chunk succeeded: a file is written through a temporary file renamed
/// into place by [`Sink::finish`].
enum Sink {
    /// Standard output, written as printed (a single chunk).
    Stdout { parts: usize },
    /// Standard output with several chunks: held until all succeeded.
    Held { buf: Vec<u8>, parts: usize },
    /// A file; the temporary file (and the thread writing it) is created
    /// with the first part.
    File {
        path: PathBuf,
        tmp: Option<(tempfile::NamedTempFile, BackgroundWriter)>,
        parts: usize,
    },
}

impl Sink {
    fn new(output: &str, several_parts: bool) -> Sink {
        match output {
            "-" if several_parts => Sink::Held {
                buf: Vec::new(),
                parts: 0,
            },
            "-" => Sink::Stdout { parts: 0 },
            _ => Sink::File {
                path: PathBuf::from(output),
                tmp: None,
                parts: 0,
            },
        }
    }

    /// Starts the next part (writing `separator` before all but the first)
    /// and returns the writer to print it to.
    fn begin_part(&mut self, separator: &[u8]) -> std::io::Result<Box<dyn Write + '_>> {
        let (parts, w): (&mut usize, Box<dyn Write + '_>) = match self {
            Sink::Stdout { parts } => (parts, Box::new(std::io::stdout().lock())),
            Sink::Held { buf, parts } => (parts, Box::new(buf)),
            Sink::File { path, tmp, parts } => {
                if tmp.is_none() {
                    let dir = path
                        .parent()
                        .filter(|p| !p.as_os_str().is_empty())
                        .unwrap_or(Path::new("."));
                    let t = tempfile::NamedTempFile::new_in(dir)?;
                    let w = BackgroundWriter::new(t.as_file().try_clone()?);
                    *tmp = Some((t, w));
                }
                let w = &mut tmp.as_mut().expect("temporary file").1;
                (parts, Box::new(w))
            }
        };
        let mut w = w;
        if *parts > 0 {
            w.write_all(separator)?;
        }
        *parts += 1;
        Ok(w)
    }

    /// Makes the output appear at its destination.
    fn finish(self) -> std::io::Result<()> {
        match self {
            Sink::Stdout { .. } => Ok(()),
            Sink::Held { buf, .. } => {
                let mut out = std::io::stdout().lock();
                out.write_all(&buf)?;
                out.flush()
            }
            Sink::File { path, tmp, .. } => {
                let tmp = match tmp {
                    Some((t, mut w)) => {
                        w.finish()?;
                        t
                    }
                    None => {
                        // Nothing printed (no chunk): still write an empty file.
                        let dir = path
                            .parent()
                            .filter(|p| !p.as_os_str().is_empty())
                            .unwrap_or(Path::new("."));
                        tempfile::NamedTempFile::new_in(dir)?
                    }
                };
                tmp.persist(&path).map_err(|e| e.error)?;
                Ok(())
            }
        }
    }
}

/// Size of the buffers handed to the writing thread.
const WRITE_CHUNK: usize = 1 << 20;

/// A writer that hands full buffers to a thread that writes them to a file,
/// so that the kernel's copying overlaps the printing. Buffers go back to the
/// printer for reuse. A write error is returned by [`BackgroundWriter::finish`]
/// (or by the next write after the thread stopped).
struct BackgroundWriter {
    buf: Vec<u8>,
    to_thread: Option<std::sync::mpsc::SyncSender<Vec<u8>>>,
    recycled: std::sync::mpsc::Receiver<Vec<u8>>,
    thread: Option<std::thread::JoinHandle<std::io::Result<()>>>,
}

impl BackgroundWriter {
    fn new(mut file: std::fs::File) -> Self {
        let (to_thread, from_printer) = std::sync::mpsc::sync_channel::<Vec<u8>>(2);
        let (give_back, recycled) = std::sync::mpsc::channel::<Vec<u8>>();
        let thread = std::thread::spawn(move || -> std::io::Result<()> {
            for mut chunk in from_printer {
                file.write_all(&chunk)?;
                chunk.clear();
                let _ = give_back.send(chunk);
            }
            file.flush()
        });
        BackgroundWriter {
            buf: Vec::with_capacity(WRITE_CHUNK),
            to_thread: Some(to_thread),
            recycled,
            thread: Some(thread),
        }
    }

    /// Hands the current buffer to the thread.
    fn send(&mut self) -> std::io::Result<()> {
        if self.buf.is_empty() {
            return Ok(());
        }
        let next = self
            .recycled
            .try_recv()
            .unwrap_or_else(|_| Vec::with_capacity(WRITE_CHUNK));
        let full = std::mem::replace(&mut self.buf, next);
        match self.to_thread.as_ref().map(|t| t.send(full)) {
            Some(Ok(())) => Ok(()),
            // The thread stopped on an error: `finish` reports it.
            _ => Err(self
                .join()
                .err()
                .unwrap_or_else(|| std::io::Error::other("writer thread stopped"))),
        }
    }

    fn join(&mut self) -> std::io::Result<()> {
        self.to_thread = None;
        match self.thread.take().map(|t| t.join()) {
            None => Ok(()),
            Some(Ok(r)) => r,
            Some(Err(_)) => Err(std::io::Error::other("writer thread panicked")),
        }
    }

    /// Writes what is left and waits for the thread.
    fn finish(&mut self) -> std::io::Result<()> {
        self.send()?;
        self.join()
    }
}

impl Write for BackgroundWriter {
    fn write(&mut self, data: &[u8]) -> std::io::Result<usize> {
        self.write_all(data)?;
        Ok(data.len())
    }

    fn write_all(&mut self, mut data: &[u8]) -> std::io::Result<()> {
        while !data.is_empty() {
            let room = WRITE_CHUNK - self.buf.len().min(WRITE_CHUNK);
            let n = room.min(data.len());
            self.buf.extend_from_slice(&data[..n]);
            data = &data[n..];
            if self.buf.len() >= WRITE_CHUNK {
                self.send()?;
            }
        }
        Ok(())
    }

    /// Hands the buffered bytes to the thread (without waiting for the write).
    fn flush(&mut self) -> std::io::Result<()> {
        self.send()
    }
}
