//! A thread-safe collector of diagnostics.

use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Mutex, MutexGuard};

use crate::diagnostic::{Diagnostic, Severity};

/// Collects diagnostics; `Send + Sync`, so passes running on rayon worker
/// threads can emit into one shared engine through `&DiagEngine`.
///
/// **Order.** [`DiagEngine::take`] returns diagnostics in the order `emit` was
/// called. When several threads emit, that order depends on scheduling; to get
/// output that does not depend on the number of threads, either
/// - call [`DiagEngine::take_sorted`], which orders by position (file name,
///   line, column; unknown positions last) and keeps emission order among
///   equal positions, or
/// - give each parallel work item its own `DiagEngine` and, once the items are
///   done, [`DiagEngine::extend`] the shared one with their diagnostics in item
///   order (what MLIR's `ParallelDiagnosticHandler` achieves).
///
/// ```
/// use lf_diag::{DiagEngine, Diagnostic, SourcePos};
/// let engine = DiagEngine::new();
/// std::thread::scope(|s| {
///     for line in [3, 1, 2] {
///         let engine = &engine;
///         s.spawn(move || engine.emit(Diagnostic::error(SourcePos::new("a", line, 1), "bad")));
///     }
/// });
/// assert_eq!(engine.error_count(), 3);
/// let lines: Vec<u32> = engine.take_sorted().iter().map(|d| d.pos.as_ref().unwrap().line).collect();
/// assert_eq!(lines, [1, 2, 3]);
/// assert!(engine.is_empty());
/// ```
#[derive(Debug, Default)]
pub struct DiagEngine {
    diags: Mutex<Vec<Diagnostic>>,
    errors: AtomicUsize,
}

impl DiagEngine {
    /// An empty engine.
    pub fn new() -> DiagEngine {
        DiagEngine::default()
    }

    fn lock(&self) -> MutexGuard<'_, Vec<Diagnostic>> {
        // A panic while holding the lock cannot leave the Vec half-updated.
        self.diags.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// Records a diagnostic.
    pub fn emit(&self, diag: Diagnostic) {
        if diag.severity == Severity::Error {
            self.errors.fetch_add(1, Ordering::Relaxed);
        }
        self.lock().push(diag);
    }

    /// Records diagnostics in the given order (e.g. the ones a parallel work
    /// item collected in its own engine).
    pub fn extend(&self, diags: impl IntoIterator<Item = Diagnostic>) {
        let mut v = self.lock();
        for d in diags {
            if d.severity == Severity::Error {
                self.errors.fetch_add(1, Ordering::Relaxed);
            }
            v.push(d);
        }
    }

    /// Number of errors emitted since creation (not reset by `take`).
    pub fn error_count(&self) -> usize {
        self.errors.load(Ordering::Relaxed)
    }

    /// True when an error was emitted since creation.
    pub fn has_errors(&self) -> bool {
        self.error_count() > 0
    }

    /// Number of diagnostics currently held.
    pub fn len(&self) -> usize {
        self.lock().len()
    }

    /// True when no diagnostic is held.
    pub fn is_empty(&self) -> bool {
        self.lock().is_empty()
    }

    /// A copy of the held diagnostics, in emission order.
    pub fn snapshot(&self) -> Vec<Diagnostic> {
        self.lock().clone()
    }

    /// Removes and returns the held diagnostics, in emission order.
    pub fn take(&self) -> Vec<Diagnostic> {
        std::mem::take(&mut *self.lock())
    }

    /// Removes and returns the held diagnostics sorted by position (see the
    /// type's documentation).
    pub fn take_sorted(&self) -> Vec<Diagnostic> {
        let mut v = self.take();
        sort_by_position(&mut v);
        v
    }
}

/// Stable sort by (file name, line, column); diagnostics without a position
/// go last, in their original order.
pub fn sort_by_position(diags: &mut [Diagnostic]) {
    diags.sort_by(|a, b| match (&a.pos, &b.pos) {
        (Some(p), Some(q)) => (&p.file, p.line, p.col).cmp(&(&q.file, q.line, q.col)),
        (Some(_), None) => std::cmp::Ordering::Less,
        (None, Some(_)) => std::cmp::Ordering::Greater,
        (None, None) => std::cmp::Ordering::Equal,
    });
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::SourcePos;

    #[test]
    fn collects_in_order_and_counts_errors() {
        let e = DiagEngine::new();
        e.emit(Diagnostic::warning(SourcePos::new("a", 2, 1), "w"));
        e.emit(Diagnostic::error(SourcePos::new("a", 1, 1), "e"));
        e.extend([Diagnostic::remark(None, "r"), Diagnostic::error(None, "e2")]);
        assert_eq!(e.len(), 4);
        assert_eq!(e.error_count(), 2);
        assert!(e.has_errors());
        let msgs: Vec<_> = e.snapshot().into_iter().map(|d| d.message).collect();
        assert_eq!(msgs, ["w", "e", "r", "e2"]);
        let msgs: Vec<_> = e.take_sorted().into_iter().map(|d| d.message).collect();
        assert_eq!(msgs, ["e", "w", "r", "e2"]);
        assert!(e.is_empty());
        assert_eq!(e.error_count(), 2);
    }

    #[test]
    fn parallel_emission_sorted_is_deterministic() {
        let e = DiagEngine::new();
        std::thread::scope(|s| {
            for t in 0..8u32 {
                let e = &e;
                s.spawn(move || {
                    for i in 0..100u32 {
                        e.emit(Diagnostic::error(
                            SourcePos::new("f", i * 8 + t + 1, 1),
                            format!("{t}/{i}"),
                        ));
                    }
                });
            }
        });
        let v = e.take_sorted();
        assert_eq!(v.len(), 800);
        for (k, d) in v.iter().enumerate() {
            assert_eq!(d.pos.as_ref().unwrap().line as usize, k + 1);
        }
    }
}
