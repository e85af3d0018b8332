//! `--timing`: the wall time and the CPU time of each phase of lf-opt.
//!
//! The CPU time is the whole process's (user and system, all threads), so
//! on a multi-threaded run it shows how well a phase used the cores: a phase
//! that kept two threads busy shows about twice its wall time.

use std::time::{Duration, Instant};

/// The process's CPU time so far (user and system, all threads); zero where
/// the platform cannot tell.
fn process_cpu_time() -> Duration {
    #[cfg(unix)]
    {
        let mut ts = libc::timespec { tv_sec: 0, tv_nsec: 0 };
        // SAFETY: `ts` is a valid, writable timespec for the call's duration.
        if unsafe { libc::clock_gettime(libc::CLOCK_PROCESS_CPUTIME_ID, &mut ts) } == 0 {
            return Duration::new(ts.tv_sec as u64, ts.tv_nsec as u32);
        }
    }
    Duration::ZERO
}

/// A point in time on both clocks.
#[derive(Clone, Copy)]
struct Stamp {
    wall: Instant,
    cpu: Duration,
}

impl Stamp {
    fn now() -> Self {
        Stamp {
            wall: Instant::now(),
            cpu: process_cpu_time(),
        }
    }
}

/// The time spent in one phase.
#[derive(Clone, Copy, Default)]
struct Spent {
    wall: Duration,
    cpu: Duration,
}

/// Wall and CPU time per phase, printed by `--timing`.
pub(crate) struct Timing {
    pub(crate) enabled: bool,
    start: Stamp,
    last: Stamp,
    phases: Vec<(&'static str, Spent)>,
    /// The pass timing tree (depth, name, wall time), shown under "passes".
    pub(crate) pass_lines: Vec<(usize, String, Duration)>,
}

impl Timing {
    /// Starts the clocks (reading them only if `enabled`).
    pub(crate) fn new(enabled: bool) -> Self {
        let now = if enabled {
            Stamp::now()
        } else {
            Stamp {
                wall: Instant::now(),
                cpu: Duration::ZERO,
            }
        };
        Timing {
            enabled,
            start: now,
            last: now,
            phases: Vec::new(),
            pass_lines: Vec::new(),
        }
    }

    /// Ends the current phase, naming it `name` (phases with the same name add up).
    pub(crate) fn lap(&mut self, name: &'static str) {
        if !self.enabled {
            return;
        }
        let now = Stamp::now();
        let d = Spent {
            wall: now.wall - self.last.wall,
            cpu: now.cpu.saturating_sub(self.last.cpu),
        };
        self.last = now;
        match self.phases.iter_mut().find(|(n, _)| *n == name) {
            Some((_, t)) => {
                t.wall += d.wall;
                t.cpu += d.cpu;
            }
            None => self.phases.push((name, d)),
        }
    }

    /// Prints the report to stderr, in the layout of MLIR's `--mlir-timing`.
    /// `tool` names the tool in the title.
    pub(crate) fn report(&self, tool: &str) {
        if !self.enabled {
            return;
        }
        let total = Spent {
            wall: self.last.wall - self.start.wall,
            cpu: self.last.cpu.saturating_sub(self.start.cpu),
        };
        eprintln!("===-------------------------------------------------------------------------===");
        eprintln!("                        {tool} execution time report");
        eprintln!("===-------------------------------------------------------------------------===");
        eprintln!("  Total Execution Time: {:.4} seconds", total.wall.as_secs_f64());
        eprintln!();
        eprintln!("   ---User+System Time---   ---Wall Time---  --- Name ---");
        let pct = |d: Duration, of: Duration| {
            if of.is_zero() {
                0.0
            } else {
                100.0 * d.as_secs_f64() / of.as_secs_f64()
            }
        };
        let line = |s: Spent, name: &str| {
            eprintln!(
                "   {:.4} ({:5.1}%)          {:.4} ({:5.1}%)  {name}",
                s.cpu.as_secs_f64(),
                pct(s.cpu, total.cpu),
                s.wall.as_secs_f64(),
                pct(s.wall, total.wall)
            );
        };
        for (n, s) in &self.phases {
            line(*s, n);
            if *n == "passes" {
                // Passes are timed on the wall clock only: pad the CPU column.
                for (depth, name, d) in &self.pass_lines {
                    let indent = "  ".repeat(depth + 1);
                    eprintln!(
                        "   {:25}{:.4} ({:5.1}%)  {indent}{name}",
                        "",
                        d.as_secs_f64(),
                        pct(*d, total.wall)
                    );
                }
            }
        }
        line(total, "Total");
    }
}
