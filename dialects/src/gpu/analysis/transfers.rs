//! The copy-correctness rule of DIGEST §003.4, checked by a forward
//! dataflow over structured control flow (the analysis behind
//! `gpu-verify-transfers`, also run by `gpu-host-data-placement` on its own
//! output).
//!
//! **Pairs.** A device buffer is the result of a `gpu.alloc`; its host
//! memref is the buffer ([`Key`]) at the other end of a `gpu.memcpy` to or
//! from it. Each (host, device) pair found that way is checked; a device
//! buffer never copied is not paired with anything (nothing to check).
//!
//! **States.** Per pair, the set of states the two copies may be in at a
//! program point: in sync, host newer (the host wrote it at some op, or it
//! held data on entry: an argument or a global), or device newer (an op
//! wrote the device buffer). An op is a statement on the host side of a pair
//! when it (or an op nested in it) touches the host memref, on the device side
//! when it touches the device buffer ([`access`]): sides are buffers, not
//! where the op runs. A `gpu.memcpy` host-to-device makes the pair in sync,
//! and is itself wrong (a *stale copy*) when the device may be newer; the
//! other direction likewise. Any other access to one side while the other
//! may be newer breaks the rule: on that path, a write on one side reaches
//! an occurrence on the other with no copy between.
//!
//! **Control flow.** Function body, `scf.for`, `scf.while`, `scf.if`,
//! `scf.parallel`, `affine.for`, `affine.if`, `affine.parallel` are followed
//! (a loop may run zero times, and its body's exit flows back to its head
//! until the state sets stop growing); any other op (a `gpu.launch`
//! included) is one statement, with the accesses of the ops nested in it.

use super::buffers::{access, is_memref, key, line_col, Access, Key};
use crate::affine::{AffineForOp, AffineIfOp, AffineParallelOp};
use crate::gpu::{GpuAllocOp, GpuLaunchOp, GpuMemcpyOp};
use crate::scf::{ScfForOp, ScfIfOp, ScfParallelOp, ScfWhileOp};
use lf_ir::view::OpView;
use lf_ir::walk::{walk_regions, WalkControl, WalkOrder};
use lf_ir::{Body, Context, OpId, RegionId};

/// A (host memref, device buffer) pair.
#[derive(Clone, Debug)]
pub struct Pair {
    /// The host buffer.
    pub host: Key,
    /// The device buffer (a `gpu.alloc` result).
    pub device: Key,
    /// Whether the host buffer holds data on entry (an argument, a global).
    pub host_on_entry: bool,
    /// The `gpu.alloc` of the device buffer.
    pub alloc: OpId,
}

/// Which side may be newer.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
enum Kind {
    Sync,
    HostNewer,
    DeviceNewer,
}

/// One possible state: its kind, the write that made it (`None`: the host
/// data on entry), and the structured path taken since.
#[derive(Clone, Debug)]
struct Fact {
    kind: Kind,
    write: Option<OpId>,
    path: Vec<String>,
}

type Facts = Vec<Fact>;

/// A broken rule, reported at `at`.
#[derive(Clone, Debug)]
pub struct Violation {
    /// The op that reads or writes stale data (or the stale copy).
    pub at: OpId,
    /// The message.
    pub message: String,
    /// The write it comes from (`None`: the host data on entry).
    pub write: Option<OpId>,
}

/// The (host, device) pairs of the function whose regions are `regions`,
/// found through its `gpu.memcpy` ops.
pub fn pairs(ctx: &Context, body: &Body, regions: &[RegionId]) -> Vec<Pair> {
    let ir = (ctx, body);
    let mut out: Vec<Pair> = Vec::new();
    walk_regions(body, regions, WalkOrder::PreOrder, &mut |b, op| {
        if !std::ptr::eq(b, body) {
            return WalkControl::Skip;
        }
        let Some(c) = GpuMemcpyOp::cast(&ir, op) else {
            return WalkControl::Advance;
        };
        let (dst, src) = (c.dst(&ir), c.src(&ir));
        let alloc_of = |v| {
            let r = super::buffers::root(ctx, body, v);
            body.defining_op(r).filter(|&o| GpuAllocOp::isa(&ir, o))
        };
        let (dev, host, alloc) = match (alloc_of(dst), alloc_of(src)) {
            (Some(a), None) => (dst, src, a),
            (None, Some(a)) => (src, dst, a),
            _ => return WalkControl::Advance,
        };
        let (Some(hk), Some(dk)) = (key(ctx, body, host), key(ctx, body, dev)) else {
            return WalkControl::Advance;
        };
        if out.iter().any(|p| p.host == hk && p.device == dk) {
            return WalkControl::Advance;
        }
        let host_on_entry = match &hk {
            Key::Global(_) => true,
            Key::Value(v) => body.defining_op(*v).is_none(),
        };
        out.push(Pair {
            host: hk,
            device: dk,
            host_on_entry,
            alloc,
        });
        WalkControl::Advance
    });
    out
}

/// Checks the copy-correctness rule on the function whose regions are
/// `regions` (the function body: one block); returns the violations, one
/// per (use, write) in program order of discovery.
pub fn check(ctx: &Context, body: &Body, regions: &[RegionId]) -> Vec<Violation> {
    let pairs = pairs(ctx, body, regions);
    if pairs.is_empty() {
        return Vec::new();
    }
    let mut flow = Flow {
        ctx,
        body,
        pairs: &pairs,
        violations: Vec::new(),
    };
    let mut st: Vec<Facts> = pairs
        .iter()
        .map(|p| {
            vec![Fact {
                kind: if p.host_on_entry { Kind::HostNewer } else { Kind::Sync },
                write: None,
                path: Vec::new(),
            }]
        })
        .collect();
    for &r in regions {
        flow.region(r, &mut st);
    }
    flow.violations
}

struct Flow<'a> {
    ctx: &'a Context,
    body: &'a Body,
    pairs: &'a [Pair],
    violations: Vec<Violation>,
}

fn join(a: &mut Facts, b: &Facts) {
    for f in b {
        if !a.iter().any(|g| g.kind == f.kind && g.write == f.write) {
            a.push(f.clone());
        }
    }
}

fn same(a: &[Facts], b: &[Facts]) -> bool {
    a.iter().zip(b).all(|(x, y)| {
        x.len() == y.len()
            && x.iter()
                .all(|f| y.iter().any(|g| g.kind == f.kind && g.write == f.write))
    })
}

fn with_event(st: &[Facts], event: &str) -> Vec<Facts> {
    st.iter()
        .map(|fs| {
            fs.iter()
                .map(|f| {
                    let mut f = f.clone();
                    if f.kind != Kind::Sync && f.path.len() < 8 && f.path.last().map(String::as_str) != Some(event) {
                        f.path.push(event.to_string());
                    }
                    f
                })
                .collect()
        })
        .collect()
}

impl Flow<'_> {
    fn block(&mut self, b: lf_ir::BlockId, st: &mut Vec<Facts>) {
        let ops: Vec<OpId> = self.body.block_ops(b).collect();
        for op in ops {
            self.op(op, st);
        }
    }

    /// The blocks of `r` in order (exact for the single-block regions of
    /// structured code).
    fn region(&mut self, r: RegionId, st: &mut Vec<Facts>) {
        let blocks: Vec<lf_ir::BlockId> = self.body.region_blocks(r).collect();
        for b in blocks {
            self.block(b, st);
        }
    }

    fn op(&mut self, op: OpId, st: &mut Vec<Facts>) {
        let (ctx, body) = (self.ctx, self.body);
        let ir = (ctx, body);
        let loop_like = AffineForOp::isa(&ir, op)
            || ScfForOp::isa(&ir, op)
            || AffineParallelOp::isa(&ir, op)
            || ScfParallelOp::isa(&ir, op);
        if GpuLaunchOp::isa(&ir, op) || body.nested_body(op).is_some() {
            self.atomic(op, st);
        } else if loop_like || ScfWhileOp::isa(&ir, op) {
            self.atomic_operands(op, st);
            let at = format!("the next iteration of the loop at {}", line_col(ctx, body, op));
            let entry = st.clone();
            let mut head = entry.clone();
            let regions: Vec<RegionId> = body.regions(op).to_vec();
            let mut out = entry.clone();
            for _ in 0..64 {
                let mut s = head.clone();
                for &r in &regions {
                    self.region(r, &mut s);
                }
                out = s.clone();
                let mut next = entry.clone();
                for (n, o) in next.iter_mut().zip(with_event(&s, &at)) {
                    join(n, &o);
                }
                if same(&next, &head) {
                    break;
                }
                head = next;
            }
            // Leaving after any iteration, or (unless the loop surely runs)
            // after none.
            let runs = AffineForOp::cast(&ir, op)
                .and_then(|f| f.constant_trip_count(&ir))
                .is_some_and(|n| n > 0);
            let mut exit = if runs { out.clone() } else { entry.clone() };
            for (e, o) in exit.iter_mut().zip(&out) {
                join(e, o);
            }
            if !runs {
                for (e, h) in exit.iter_mut().zip(&head) {
                    join(e, h);
                }
            }
            *st = exit;
        } else if ScfIfOp::isa(&ir, op) || AffineIfOp::isa(&ir, op) {
            self.atomic_operands(op, st);
            let regions: Vec<RegionId> = body.regions(op).to_vec();
            let mut merged: Option<Vec<Facts>> = None;
            let mut has_else = false;
            for (i, &r) in regions.iter().enumerate() {
                if body.entry_block(r).is_none() {
                    continue;
                }
                has_else |= i > 0;
                let name = if i == 0 { "then" } else { "else" };
                let mut s = st.clone();
                self.region(r, &mut s);
                let s = with_event(
                    &s,
                    &format!("the {name} branch of the if at {}", line_col(ctx, body, op)),
                );
                match &mut merged {
                    None => merged = Some(s),
                    Some(m) => m.iter_mut().zip(&s).for_each(|(a, b)| join(a, b)),
                }
            }
            let mut m = merged.unwrap_or_else(|| st.clone());
            if !has_else {
                let skip = with_event(st, &format!("no branch of the if at {}", line_col(ctx, body, op)));
                // (the if's condition false: the state before it)
                m.iter_mut().zip(&skip).for_each(|(a, b)| join(a, b));
            }
            *st = m;
        } else {
            self.atomic(op, st);
        }
    }

    /// The op's own operands of a structured op (none are memrefs in
    /// practice): nothing to do but stay conservative if one is.
    fn atomic_operands(&mut self, op: OpId, st: &mut [Facts]) {
        let body = self.body;
        if body.operands(op).any(|v| is_memref(self.ctx, body, v)) {
            self.transfer(op, st, true);
        }
    }

    fn atomic(&mut self, op: OpId, st: &mut [Facts]) {
        self.transfer(op, st, false);
    }

    fn transfer(&mut self, op: OpId, st: &mut [Facts], shallow: bool) {
        let (ctx, body) = (self.ctx, self.body);
        let ir = (ctx, body);
        let copy = GpuMemcpyOp::cast(&ir, op).map(|c| (key(ctx, body, c.dst(&ir)), key(ctx, body, c.src(&ir))));
        for (i, p) in self.pairs.iter().enumerate() {
            let facts = &mut st[i];
            if op == p.alloc {
                if p.host_on_entry {
                    *facts = vec![Fact {
                        kind: Kind::HostNewer,
                        write: None,
                        path: Vec::new(),
                    }];
                }
                continue;
            }
            if let Some((dst, src)) = &copy {
                let h2d = dst.as_ref() == Some(&p.device) && src.as_ref() == Some(&p.host);
                let d2h = dst.as_ref() == Some(&p.host) && src.as_ref() == Some(&p.device);
                if h2d || d2h {
                    let bad = if h2d { Kind::DeviceNewer } else { Kind::HostNewer };
                    for f in facts.iter().filter(|f| f.kind == bad) {
                        let v = self.stale_copy(op, p, f, h2d);
                        push(&mut self.violations, v);
                    }
                    *facts = vec![Fact {
                        kind: Kind::Sync,
                        write: None,
                        path: Vec::new(),
                    }];
                    continue;
                }
            }
            let acc = |k: &Key| {
                if shallow {
                    super::buffers::shallow_access(ctx, body, op, k)
                } else {
                    access(ctx, body, op, k)
                }
            };
            let (ha, da) = (acc(&p.host), acc(&p.device));
            if is_def_of(body, op, &p.host) {
                *facts = vec![Fact {
                    kind: Kind::Sync,
                    write: None,
                    path: Vec::new(),
                }];
                continue;
            }
            let mut found = Vec::new();
            for f in facts.iter() {
                if (f.kind == Kind::HostNewer && touches(da)) || (f.kind == Kind::DeviceNewer && touches(ha)) {
                    found.push(self.stale_use(op, p, f, if f.kind == Kind::HostNewer { da } else { ha }));
                }
            }
            for v in found {
                push(&mut self.violations, v);
            }
            if ha.write || da.write {
                *facts = vec![Fact {
                    kind: if ha.write { Kind::HostNewer } else { Kind::DeviceNewer },
                    write: Some(op),
                    path: Vec::new(),
                }];
            }
        }
    }

    fn what(&self, op: OpId) -> String {
        let ir = (self.ctx, self.body);
        let at = line_col(self.ctx, self.body, op);
        if GpuLaunchOp::isa(&ir, op) {
            format!("the kernel at {at}")
        } else {
            format!("'{}' at {at}", self.ctx.op_name_str(self.body.op_name(op)))
        }
    }

    fn write_desc(&self, p: &Pair, f: &Fact) -> String {
        let path = if f.path.is_empty() {
            String::new()
        } else {
            format!(" (path: {})", f.path.join(", then "))
        };
        match f.write {
            None => format!(
                "the host memref {} holds data on entry{path}",
                match &p.host {
                    Key::Global(g) => format!("@{g}"),
                    Key::Value(_) => "(a function argument)".into(),
                }
            ),
            Some(w) => format!("{} wrote it{path}", self.what(w)),
        }
    }

    fn stale_use(&self, op: OpId, p: &Pair, f: &Fact, a: Access) -> Violation {
        let verb = if a.read { "read" } else { "written" };
        let alloc = line_col(self.ctx, self.body, p.alloc);
        let message = if f.kind == Kind::HostNewer {
            format!(
                "device buffer (gpu.alloc at {alloc}) {verb} by {} may be stale: {} and no host-to-device copy follows",
                self.what(op),
                self.write_desc(p, f)
            )
        } else {
            format!(
                "host memref {verb} by {} may be stale: its device buffer (gpu.alloc at {alloc}) is newer, {} and no \
                 device-to-host copy follows",
                self.what(op),
                self.write_desc(p, f)
            )
        };
        Violation {
            at: op,
            message,
            write: f.write,
        }
    }

    fn stale_copy(&self, op: OpId, p: &Pair, f: &Fact, h2d: bool) -> Violation {
        let alloc = line_col(self.ctx, self.body, p.alloc);
        let (dir, newer, back) = if h2d {
            ("host-to-device", "device buffer", "device-to-host")
        } else {
            ("device-to-host", "host memref", "host-to-device")
        };
        Violation {
            at: op,
            message: format!(
                "stale copy: this {dir} copy (device buffer: gpu.alloc at {alloc}) overwrites newer data of the \
                 {newer}: {} and no {back} copy came before",
                self.write_desc(p, f)
            ),
            write: f.write,
        }
    }
}

fn touches(a: Access) -> bool {
    a.read || a.write
}

fn is_def_of(body: &Body, op: OpId, k: &Key) -> bool {
    match k {
        Key::Value(v) => body.defining_op(*v) == Some(op),
        Key::Global(_) => false,
    }
}

fn push(out: &mut Vec<Violation>, v: Violation) {
    if !out
        .iter()
        .any(|w| w.at == v.at && w.write == v.write && w.message == v.message)
    {
        out.push(v);
    }
}
