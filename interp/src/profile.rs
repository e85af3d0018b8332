//! `--profile-divergence`: the SIMT efficiency that warps of 32 threads
//! would have in each loop of a kernel, under reconvergence at the
//! immediate post-dominator (PDOM) of the loop.
//!
//! The decoder adds `LoopEnter`, `LoopIter` and `LoopExit` instructions
//! around every loop only when profiling ([`crate::program::Instrument`]),
//! so an ordinary run executes none of this. Each thread keeps a stack of
//! the loops it is in, with their iteration numbers. A loop *instance* of a
//! thread is named by its dynamic context: the loop, the enclosing loops
//! (each with its entry number and current iteration) and the number of
//! times the thread entered this loop before in that context. Threads of
//! one warp (32 consecutive linear thread ids of a block, x fastest) with
//! the same instance run it together: the warp issues the largest iteration
//! count of its lanes, and each lane is active for its own count. A lane
//! that never reaches the instance, or a missing lane of a partial warp, is
//! inactive throughout.

use crate::exec::Machine;
use crate::program::Program;
use lf_ir::Context;
use rustc_hash::FxHashMap;

/// Lanes of a warp.
pub const WARP: u64 = 32;

/// A loop event (which profiling instruction ran).
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum LoopEvent {
    /// The thread enters the loop.
    Enter,
    /// An iteration starts.
    Iter,
    /// The thread leaves the loop.
    Exit,
}

/// One loop a thread is in (or the thread itself, at the bottom).
#[derive(Clone, Debug)]
struct Level {
    /// The loop (`u32::MAX` at the bottom).
    id: u32,
    /// The thread's entry number of this loop in the enclosing context.
    entry: u32,
    /// Iterations started so far.
    iter: u64,
    /// How often each inner loop was entered in the current iteration.
    entries: Vec<(u32, u32)>,
}

/// An instance of a loop in one warp: loop, warp, the enclosing levels
/// (loop, entry, iteration) and the entry number.
type Instance = (u32, u32, Vec<(u32, u32, u64)>, u32);

/// A row of the report: the source position to sort by (file, line,
/// column) and the cells.
type Row = (Option<(String, u32, u32)>, [String; 6]);

/// What one loop added up to.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq)]
pub struct LoopTotals {
    /// Warp-iterations issued: per instance, the largest count of a lane.
    pub issued: u64,
    /// Lane-iterations active: the sum of the lanes' counts.
    pub active: u64,
    /// Instances (warp and dynamic context).
    pub instances: u64,
}

impl LoopTotals {
    /// `active / (32 * issued)`, in percent; `None` when nothing was issued.
    pub fn efficiency(&self) -> Option<f64> {
        (self.issued > 0).then(|| 100.0 * self.active as f64 / (WARP * self.issued) as f64)
    }
}

/// The profile of a run.
#[derive(Debug, Default)]
pub struct Profiler {
    /// Loop stacks of the threads of the current block (by launch-wide number).
    threads: FxHashMap<u32, Vec<Level>>,
    /// Instances of the current block: largest and summed lane counts.
    instances: FxHashMap<Instance, (u64, u64)>,
    /// Totals by loop id.
    pub totals: Vec<LoopTotals>,
}

impl Profiler {
    /// Records `ev` of loop `id` in thread `thread` of warp `warp`.
    pub fn event(&mut self, thread: u32, warp: u32, id: u32, ev: LoopEvent) {
        let stack = self.threads.entry(thread).or_insert_with(|| {
            vec![Level {
                id: u32::MAX,
                entry: 0,
                iter: 0,
                entries: Vec::new(),
            }]
        });
        match ev {
            LoopEvent::Enter => {
                let top = stack.last_mut().expect("the bottom level");
                let entry = match top.entries.iter_mut().find(|e| e.0 == id) {
                    Some(e) => {
                        e.1 += 1;
                        e.1 - 1
                    }
                    None => {
                        top.entries.push((id, 1));
                        0
                    }
                };
                stack.push(Level {
                    id,
                    entry,
                    iter: 0,
                    entries: Vec::new(),
                });
            }
            LoopEvent::Iter => {
                if let Some(top) = stack.last_mut().filter(|l| l.id == id) {
                    top.iter += 1;
                    top.entries.clear();
                }
            }
            LoopEvent::Exit => {
                if stack.len() < 2 || stack.last().is_some_and(|l| l.id != id) {
                    return;
                }
                let top = stack.pop().expect("a loop level");
                let ctx = stack[1..].iter().map(|l| (l.id, l.entry, l.iter)).collect();
                let e = self.instances.entry((id, warp, ctx, top.entry)).or_default();
                e.0 = e.0.max(top.iter);
                e.1 += top.iter;
            }
        }
    }

    /// Adds the instances of the block that ended to the totals.
    pub fn end_block(&mut self) {
        self.threads.clear();
        for ((id, ..), (max, sum)) in self.instances.drain() {
            let id = id as usize;
            if self.totals.len() <= id {
                self.totals.resize(id + 1, LoopTotals::default());
            }
            let t = &mut self.totals[id];
            t.issued += max;
            t.active += sum;
            t.instances += 1;
        }
    }

    /// The table of the loops that ran in a kernel, by source position:
    /// a title line naming `file`, a header, one row per loop.
    pub fn report(&self, ctx: &Context, prog: &Program, file: &str) -> String {
        let mut rows: Vec<Row> = Vec::new();
        for (id, t) in self.totals.iter().enumerate() {
            if t.instances == 0 {
                continue;
            }
            let info = &prog.loops[id];
            let pos = info.loc.source_pos(ctx).map(|p| (p.file.to_string(), p.line, p.col));
            let at = pos
                .as_ref()
                .map_or_else(|| "unknown location".to_string(), |(f, l, c)| format!("{f}:{l}:{c}"));
            let eff = t.efficiency().map_or_else(|| "-".to_string(), |e| format!("{e:.2}%"));
            rows.push((
                pos,
                [
                    at,
                    info.name.to_string(),
                    t.instances.to_string(),
                    t.issued.to_string(),
                    t.active.to_string(),
                    eff,
                ],
            ));
        }
        // Known positions first, in file, line and column order.
        rows.sort_by(|a, b| (a.0.is_none(), &a.0).cmp(&(b.0.is_none(), &b.0)));
        let header = ["location", "loop", "instances", "issued", "active", "efficiency"].map(String::from);
        let mut width = header.clone().map(|h| h.len());
        for (_, r) in &rows {
            for (w, c) in width.iter_mut().zip(r) {
                *w = (*w).max(c.len());
            }
        }
        let line = |r: &[String; 6]| {
            let mut s = format!("{:<w0$}  {:<w1$}", r[0], r[1], w0 = width[0], w1 = width[1]);
            for k in 2..6 {
                s.push_str(&format!("  {:>w$}", r[k], w = width[k]));
            }
            s + "\n"
        };
        let mut out = format!("lf-run: divergence profile of '{file}' (warps of {WARP} lanes, PDOM reconvergence)\n");
        out.push_str(&line(&header));
        for (_, r) in &rows {
            out.push_str(&line(r));
        }
        if rows.is_empty() {
            out.push_str("(no loop ran in a kernel)\n");
        }
        out
    }
}

impl Machine<'_> {
    /// A profiling instruction: loop `id` had event `ev` in the current
    /// kernel thread (nothing outside kernels or without a profiler).
    #[inline(never)]
    pub(crate) fn loop_event(&mut self, id: u32, ev: LoopEvent) {
        let (Some(p), Some(g)) = (&mut self.profile, &self.gpu) else {
            return;
        };
        let linear = g.tid[0] + g.block[0] * (g.tid[1] + g.block[1] * g.tid[2]);
        p.event(g.thread_no, (linear as u64 / WARP) as u32, id, ev);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Two lanes of one warp running 3 and 1 iterations of an inner loop in
    /// each of two outer iterations: 2 instances, 6 issued, 8 active.
    #[test]
    fn instances_follow_the_outer_iteration() {
        let mut p = Profiler::default();
        for (thread, n) in [(0u32, 3u64), (1, 1)] {
            p.event(thread, 0, 0, LoopEvent::Enter);
            for _ in 0..2 {
                p.event(thread, 0, 0, LoopEvent::Iter);
                p.event(thread, 0, 1, LoopEvent::Enter);
                for _ in 0..n {
                    p.event(thread, 0, 1, LoopEvent::Iter);
                }
                p.event(thread, 0, 1, LoopEvent::Exit);
            }
            p.event(thread, 0, 0, LoopEvent::Exit);
        }
        p.end_block();
        assert_eq!(
            p.totals[0],
            LoopTotals {
                issued: 2,
                active: 4,
                instances: 1
            }
        );
        assert_eq!(
            p.totals[1],
            LoopTotals {
                issued: 6,
                active: 8,
                instances: 2
            }
        );
        assert_eq!(p.totals[1].efficiency(), Some(100.0 * 8.0 / (32.0 * 6.0)));
    }
}
