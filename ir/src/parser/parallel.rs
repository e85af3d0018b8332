//! Function-parallel parsing.
//!
//! The regions of an isolated-from-above op (a function) live in a body of
//! their own and see no name from outside, so they can be parsed on another
//! thread. When the parser reaches the region list `( {...} )` of such an op
//! in the generic form, it only finds the matching `)` with the lexer, hands
//! the span to a worker thread, and goes on with the rest of the file. Before
//! the body holding those ops is closed, the parsed bodies are installed into
//! their ops, in program order.
//!
//! The result is the same as a sequential parse, whatever the number of
//! threads: a worker runs the same code on the same text (aliases are shared
//! read-only; nothing else crosses a body boundary), arena ids of the outer
//! body follow program order, and the error reported is the first in program
//! order (a worker's error comes before any later error of the main thread).
//! If a worker ends its region list anywhere but where the bracket matching
//! said (which valid input never does), the whole file is parsed again
//! sequentially.
//!
//! The custom form works the same way: when the custom parser of an isolated
//! single-region op (`func.func`, `gpu.func`) asks for its region, the `{`
//! ... `}` goes to a worker with the entry block's arguments, and the custom
//! parser gets a placeholder region (which it must not look into; a region
//! with no content is never handed out, so `region_is_empty` stays exact).
//!
//! Long runs of alias definitions at the top of a file are split among the
//! threads too (`aliases.rs`).

use super::bracket_scan::{scan_braces, scan_region_list};
use super::lexer::Token;
use super::ops::PendingOp;
use super::ops::UnresolvedOperand;
use super::{AliasTables, Aliases, Memo, OwnedOp, ParseError, ParseOptions, ParseResult, Parser};
use crate::body::OperationState;
use crate::entity::NONE;
use crate::{Attribute, Body, Context, Location, OpId, RegionId, Type};
use lf_diag::Diagnostic;
use parking_lot::Mutex;
use rustc_hash::FxHashMap;
use std::collections::BTreeMap;
use std::sync::mpsc::{channel, sync_channel, Receiver, Sender, SyncSender, TryRecvError, TrySendError};
use std::sync::Arc;

mod aliases;

/// Bytes of text per op of a function body that no real text exceeds much
/// (the benchmark inputs have 112 in the generic form, 54 in the custom
/// form): the least number of ops a body parsed on a worker is sized for.
const MAX_BYTES_PER_OP: usize = 128;

/// Region lists queued for the workers before the main thread waits.
const QUEUE: usize = 64;
/// Stack of a worker thread (address space; pages are used as touched):
/// deep nesting recurses.
const WORKER_STACK: usize = 256 << 20;

/// What a task parses.
enum TaskKind<'a> {
    /// A generic op's region list `( {...}, ... )`.
    RegionList,
    /// A custom-form op's single region `{...}`, with the entry block's
    /// arguments.
    Region(Vec<(UnresolvedOperand<'a>, Type, Location)>),
    /// A run of alias definitions (`#name = ...`, `!name = ...`), one per
    /// line, from `open` up to `end` (see [`Parser::parse_alias_run`]).
    Aliases,
}

/// The region list of one isolated op, to be parsed by a worker.
pub(crate) struct Task<'a> {
    idx: usize,
    kind: TaskKind<'a>,
    /// The `(` opening the region list (the `{` opening the region).
    open: Token,
    /// Start of the token after the matching `)`.
    end: u32,
    depth: u32,
    state: OperationState,
    default_dialects: Vec<&'static str>,
    aliases: Arc<AliasTables<'a>>,
}

/// What a worker made of a task.
enum Outcome<'a> {
    Done {
        body: Box<Body>,
        regions: Vec<RegionId>,
        deferred: FxHashMap<&'a str, (Attribute, Token)>,
        max_depth: (u32, Token),
    },
    Failed(ParseError),
    /// The region list did not end where the bracket matching said.
    Mismatch,
    /// Not parsed (the workers are gone).
    Skipped,
    /// The alias definitions of an [`TaskKind::Aliases`] task; `None` when
    /// they did not parse on their own (an error, a use of an alias defined
    /// elsewhere, or an end not where the line scan said): the main thread
    /// then parses them itself.
    Aliases(Option<AliasTables<'a>>),
}

/// The fewest bytes of alias definitions worth splitting among the threads.
const MIN_PARALLEL_ALIAS_BYTES: usize = 64 << 10;

/// State shared by the main thread and the workers.
#[derive(Default)]
struct Shared {
    /// Start offsets of the tasks not finished yet, by task number.
    pending: Mutex<BTreeMap<usize, u32>>,
    /// Memo tables not in use (each worker takes one per task).
    memos: Mutex<Vec<Memo>>,
}

/// An op whose regions a worker parses.
struct Spawned {
    /// `bodies.len()` of the parser when the op was made (which body holds it).
    level: usize,
    op: OpId,
    idx: usize,
    regions: usize,
}

/// The main thread's side of a parallel parse.
pub(crate) struct Par<'a> {
    tasks: Option<SyncSender<Box<Task<'a>>>>,
    /// The workers' end of `tasks`, from which the main thread takes tasks
    /// while it waits for a result.
    queue: Arc<Mutex<Receiver<Box<Task<'a>>>>>,
    /// The options, for the tasks the main thread runs itself.
    opts: ParseOptions,
    results: Receiver<(usize, Outcome<'a>)>,
    received: FxHashMap<usize, Outcome<'a>>,
    shared: Arc<Shared>,
    next_idx: usize,
    spawned: Vec<Spawned>,
    /// Errors of installed tasks, by task number.
    failed: BTreeMap<usize, ParseError>,
    mismatch: bool,
}

/// A task handed out but not yet attached to its op.
pub(crate) struct SpawnedTask {
    idx: usize,
    regions: usize,
}

impl<'a> Par<'a> {
    /// Start offset of the oldest region list still being parsed.
    pub(crate) fn oldest_pending(&self) -> Option<u32> {
        self.shared.pending.lock().values().next().copied()
    }

    /// The outcome of task `idx`. While it is not there, the main thread
    /// runs queued tasks itself rather than leave the workers to drain the
    /// queue alone (at the end of a file the queue holds up to [`QUEUE`]
    /// functions).
    fn result(&mut self, idx: usize, ctx: &'a Context, src: &'a str, file_name: &'a str) -> Outcome<'a> {
        loop {
            if let Some(r) = self.received.remove(&idx) {
                return r;
            }
            match self.results.try_recv() {
                Ok((i, r)) => {
                    self.received.insert(i, r);
                    continue;
                }
                Err(TryRecvError::Disconnected) => return Outcome::Skipped,
                Err(TryRecvError::Empty) => {}
            }
            // A worker waiting for a task holds the lock, but then the queue
            // is empty.
            let queued = self.queue.try_lock().and_then(|q| q.try_recv().ok());
            if let Some(task) = queued {
                self.run_here(ctx, src, file_name, *task);
                continue;
            }
            match self.results.recv() {
                Ok((i, r)) => {
                    self.received.insert(i, r);
                }
                Err(_) => return Outcome::Skipped,
            }
        }
    }

    /// Runs `task` on the main thread and keeps its outcome.
    fn run_here(&mut self, ctx: &'a Context, src: &'a str, file_name: &'a str, task: Task<'a>) {
        let idx = task.idx;
        let outcome = run_task(ctx, src, file_name, &self.opts, &self.shared, task);
        self.received.insert(idx, outcome);
    }

    /// Stops the workers and returns whether the parse must be redone
    /// sequentially, and the first error of a task, if any.
    fn finish(mut self) -> (bool, Option<ParseError>) {
        self.tasks = None;
        for (i, r) in self.results.iter() {
            self.received.insert(i, r);
        }
        let mut mismatch = self.mismatch;
        for (i, r) in self.received.drain() {
            match r {
                Outcome::Failed(e) => {
                    self.failed.insert(i, e);
                }
                Outcome::Mismatch => mismatch = true,
                _ => {}
            }
        }
        (mismatch, self.failed.into_iter().next().map(|(_, e)| e))
    }
}

/// Parses with `opts.threads` worker threads; see the module docs.
pub(crate) fn parse(ctx: &Context, src: &str, file_name: &str, opts: &ParseOptions) -> ParseResult<OwnedOp> {
    let shared = Arc::new(Shared::default());
    let (task_tx, task_rx) = sync_channel::<Box<Task<'_>>>(QUEUE);
    let (res_tx, res_rx) = channel::<(usize, Outcome<'_>)>();
    let task_rx = Arc::new(Mutex::new(task_rx));
    let (result, redo) = std::thread::scope(|s| {
        let mut workers = 0;
        // The main thread is one of the threads: it parses a task itself
        // whenever the queue is full, and while it waits for a result.
        for _ in 1..opts.threads {
            let (res_tx, task_rx, shared) = (res_tx.clone(), &*task_rx, Arc::clone(&shared));
            let spawned = std::thread::Builder::new()
                .name("lf-parse".into())
                .stack_size(WORKER_STACK)
                .spawn_scoped(s, move || worker(ctx, src, file_name, opts, &shared, task_rx, &res_tx));
            workers += spawned.is_ok() as usize;
        }
        drop(res_tx);
        let mut p = Parser::new(ctx, src, file_name, opts);
        if workers > 0 {
            p.par = Some(Par {
                opts: opts.clone(),
                tasks: Some(task_tx),
                queue: Arc::clone(&task_rx),
                results: res_rx,
                received: FxHashMap::default(),
                shared: Arc::clone(&shared),
                next_idx: 0,
                spawned: Vec::new(),
                failed: BTreeMap::new(),
                mismatch: false,
            });
        }
        let r = p.parse_top_level();
        let (mismatch, task_err) = p.par.take().map_or((false, None), Par::finish);
        match (r, task_err) {
            (_, _) if mismatch => (None, true),
            // A worker's error lies before anything the main thread parsed after it.
            (Err(_), Some(e)) => (Some(Err(e)), false),
            (r, _) => (Some(r), false),
        }
    });
    match result {
        Some(r) if !redo => r,
        _ => {
            let sequential = ParseOptions {
                threads: 1,
                ..opts.clone()
            };
            Parser::new(ctx, src, file_name, &sequential).parse_top_level()
        }
    }
}

fn worker<'a>(
    ctx: &'a Context,
    src: &'a str,
    file_name: &'a str,
    opts: &ParseOptions,
    shared: &Shared,
    tasks: &Mutex<Receiver<Box<Task<'a>>>>,
    results: &Sender<(usize, Outcome<'a>)>,
) {
    loop {
        let task = tasks.lock().recv();
        let Ok(task) = task else { return };
        let idx = task.idx;
        // Every task runs, even after the main thread failed: its error may
        // come before the main thread's.
        let outcome = run_task(ctx, src, file_name, opts, shared, *task);
        if results.send((idx, outcome)).is_err() {
            return;
        }
    }
}

/// Parses the region list of one task, as the main thread would have, and
/// takes it off the pending tasks.
fn run_task<'a>(
    ctx: &'a Context,
    src: &'a str,
    file_name: &'a str,
    opts: &ParseOptions,
    shared: &Shared,
    task: Task<'a>,
) -> Outcome<'a> {
    let mut p = Parser::new(ctx, src, file_name, opts);
    let open = task.open;
    p.lexer.reset(
        open.start as usize,
        open.line,
        open.start as usize - (open.col as usize - 1),
    );
    p.bump();
    let entry_args = match task.kind {
        TaskKind::Aliases => {
            let chunk = p.parse_alias_chunk(task.end);
            shared.pending.lock().remove(&task.idx);
            return Outcome::Aliases(chunk);
        }
        TaskKind::RegionList => None,
        TaskKind::Region(args) => Some(args),
    };
    p.depth = task.depth;
    p.max_depth = (0, open);
    p.default_dialects = task.default_dialects;
    p.aliases = Aliases::Shared(task.aliases);
    p.memo = shared.memos.lock().pop().unwrap_or_default();
    let mut pending = PendingOp {
        state: task.state,
        attrs: Vec::new(),
        props: crate::DictEntries::new(),
        isolated: true,
        spawnable: false,
        spawned: None,
    };
    // Size the body from the text: printed IR has an op per line in both
    // forms (closing braces and block labels make it a slight overestimate,
    // which the body gives back when it is shrunk after parsing), so that
    // the arenas need not grow, and copy themselves, while it is parsed.
    let mut nested = Box::<Body>::default();
    let text = &src.as_bytes()[open.start as usize..task.end as usize];
    let lines = memchr::memchr_iter(b'\n', text).count();
    nested.reserve_ops(lines.max(text.len() / MAX_BYTES_PER_OP));
    pending.state.nested = Some(nested);
    let r = match &entry_args {
        None => p.parse_region_list(&mut pending),
        Some(entry_args) => p.parse_region_for(&mut pending, entry_args).map(|r| {
            pending.state.regions.push(r);
        }),
    };
    shared.memos.lock().push(std::mem::take(&mut p.memo));
    shared.pending.lock().remove(&task.idx);
    match r {
        Err(e) => Outcome::Failed(p.lexer_error().unwrap_or(e)),
        Ok(()) if p.tok.start != task.end => Outcome::Mismatch,
        Ok(()) => Outcome::Done {
            body: pending.state.nested.unwrap_or_default(),
            regions: pending.state.regions,
            deferred: std::mem::take(&mut p.deferred_locs),
            max_depth: p.max_depth,
        },
    }
}

impl<'a> Parser<'a> {
    /// At the `(` of the region list of an isolated generic op: if this is a
    /// parallel parse and the list is bracket-balanced, hands it to a worker,
    /// moves past it and sets up `pending` with placeholder regions.
    pub(crate) fn spawn_regions(&mut self, pending: &mut PendingOp) -> Option<SpawnedTask> {
        if !pending.isolated || self.par.is_none() {
            return None;
        }
        let open = self.tok;
        let (line, line_start) = (open.line, open.start as usize - (open.col as usize - 1));
        let (end, regions, line, line_start) =
            scan_region_list(self.src.as_bytes(), open.end as usize, line, line_start)?;
        if regions == 0 {
            return None;
        }
        self.lexer.reset(end, line, line_start);
        self.bump();
        let state = OperationState::new(pending.state.name, pending.state.loc);
        let idx = self.hand_out(open, self.tok.start, state, TaskKind::RegionList)?;
        pending.state.regions = vec![RegionId(NONE); regions];
        pending.state.nested = Some(Box::default());
        Some(SpawnedTask { idx, regions })
    }

    /// At the `{` of the single region of an isolated custom-form op (see
    /// `PendingOp::spawnable`): if this is a parallel parse, the region has
    /// content and is bracket-balanced, hands it to a worker with the entry
    /// block's arguments and moves past it.
    pub(crate) fn spawn_custom_region(
        &mut self,
        pending: &mut PendingOp,
        entry_args: &[(UnresolvedOperand<'a>, Type, Location)],
    ) -> Option<SpawnedTask> {
        if self.par.is_none() || self.tok.kind != super::lexer::TokenKind::LBrace {
            return None;
        }
        let open = self.tok;
        let src = self.src.as_bytes();
        if !has_content(src, open.end as usize) {
            return None;
        }
        let (line, line_start) = (open.line, open.start as usize - (open.col as usize - 1));
        let (end, line, line_start) = scan_braces(src, open.end as usize, line, line_start)?;
        self.lexer.reset(end, line, line_start);
        self.bump();
        let state = OperationState::new(pending.state.name, pending.state.loc);
        let idx = self.hand_out(open, self.tok.start, state, TaskKind::Region(entry_args.to_vec()))?;
        pending.state.nested = Some(Box::default());
        Some(SpawnedTask { idx, regions: 1 })
    }

    /// Queues the task of `kind` from `open` to `end`, whose op starts as
    /// `state`, or runs it here when the queue is full; returns its number.
    fn hand_out(&mut self, open: Token, end: u32, state: OperationState, kind: TaskKind<'a>) -> Option<usize> {
        let par = self.par.as_mut()?;
        let idx = par.next_idx;
        par.next_idx += 1;
        par.shared.pending.lock().insert(idx, open.start);
        let task = Task {
            idx,
            kind,
            open,
            end,
            depth: self.depth,
            state,
            default_dialects: self.default_dialects.clone(),
            aliases: self.aliases.share(),
        };
        match par.tasks.as_ref().map(|t| t.try_send(Box::new(task))) {
            Some(Ok(())) => {}
            Some(Err(TrySendError::Full(task))) => {
                // The workers are busy: take a turn.
                let (ctx, src, file_name) = (self.ctx, self.src, self.file_name);
                self.par.as_mut()?.run_here(ctx, src, file_name, *task);
            }
            // The workers are gone: parse the rest as usual, then redo.
            _ => par.mismatch = true,
        }
        Some(idx)
    }

    fn par_mut(&mut self) -> &mut Par<'a> {
        self.par.as_mut().expect("parallel parse")
    }

    /// Records the op made for a spawned region list.
    pub(crate) fn note_spawned(&mut self, op: OpId, task: SpawnedTask) {
        let level = self.bodies.len();
        if let Some(par) = self.par.as_mut() {
            par.spawned.push(Spawned {
                level,
                op,
                idx: task.idx,
                regions: task.regions,
            });
        }
    }

    /// Installs the bodies parsed by workers for the ops of the current body,
    /// in program order; fails with the first task's error.
    pub(crate) fn install_spawned(&mut self) -> ParseResult<()> {
        let level = self.bodies.len();
        let Some(par) = self.par.as_mut() else { return Ok(()) };
        let first = par
            .spawned
            .iter()
            .position(|s| s.level >= level)
            .unwrap_or(par.spawned.len());
        let mine: Vec<Spawned> = par.spawned.drain(first..).collect();
        for s in mine {
            let (ctx, src, file_name) = (self.ctx, self.src, self.file_name);
            let outcome = self
                .par
                .as_mut()
                .expect("parallel parse")
                .result(s.idx, ctx, src, file_name);
            match outcome {
                Outcome::Done {
                    body,
                    regions,
                    deferred,
                    max_depth,
                } => {
                    if regions.len() != s.regions {
                        self.par_mut().mismatch = true;
                        return Err(internal());
                    }
                    for (name, (a, tok)) in deferred {
                        let e = self.deferred_locs.entry(name).or_insert((a, tok));
                        if tok.start < e.1.start {
                            *e = (a, tok);
                        }
                    }
                    let (d, tok) = max_depth;
                    if d > self.max_depth.0 || (d == self.max_depth.0 && tok.start < self.max_depth.1.start) {
                        self.max_depth = (d, tok);
                    }
                    self.body().install_nested(s.op, body, &regions);
                }
                Outcome::Failed(e) => {
                    self.par_mut().failed.insert(s.idx, e);
                    return Err(internal());
                }
                Outcome::Mismatch | Outcome::Skipped | Outcome::Aliases(_) => {
                    self.par_mut().mismatch = true;
                    return Err(internal());
                }
            }
        }
        Ok(())
    }
}

/// Whether anything but white space and comments follows offset `i` before
/// the next `}` (a region `{ }` with no content is parsed in place).
fn has_content(src: &[u8], mut i: usize) -> bool {
    while i < src.len() {
        match src[i] {
            b' ' | b'\t' | b'\r' | b'\n' => i += 1,
            b'/' if src.get(i + 1) == Some(&b'/') => {
                i = memchr::memchr(b'\n', &src[i..]).map_or(src.len(), |k| i + k);
            }
            b'}' => return false,
            _ => return true,
        }
    }
    false
}

/// Stands for an error that [`parse`] replaces (a task's error, or a redo).
fn internal() -> ParseError {
    Box::new(Diagnostic::error(None, "internal: parallel parse".to_string()))
}
