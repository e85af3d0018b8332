//! Observers between passes (`PassManager::run_observed`): called after each
//! pass once it ran on every op it applies to, with positions in pipeline
//! order, whether the pass changed anything, and the power to stop the
//! pipeline.

use lf_diag::Diagnostic;
use lf_ir::{Context, OwnedOp, PrintOptions};
use lf_pass::pipeline::parse_pipeline;
use lf_pass::{ObservedPass, PassManager, PassObserver, RunOptions};

const INPUT: &str = r#"
func.func @a(%x: i32) -> i32 {
  %0 = arith.addi %x, %x : i32
  %1 = arith.addi %x, %x : i32
  return %1 : i32
}
func.func @b(%x: i32) -> i32 {
  %0 = arith.addi %x, %x : i32
  return %0 : i32
}
"#;

/// What the observer saw after one pass.
#[derive(Debug, PartialEq)]
struct Seen {
    position: usize,
    of: usize,
    name: &'static str,
    changed: bool,
    alone: String,
    /// `arith.subi` ops in the whole module at that point.
    subi: usize,
}

struct Recorder {
    seen: Vec<Seen>,
    fail_at: Option<usize>,
}

impl PassObserver for Recorder {
    fn after_pass(&mut self, ctx: &Context, root: &OwnedOp, pass: &ObservedPass<'_>) -> Result<(), Box<Diagnostic>> {
        let text = lf_ir::op_to_string(ctx, &root.body, root.op, &PrintOptions::default());
        self.seen.push(Seen {
            position: pass.position,
            of: pass.num_passes,
            name: pass.name(),
            changed: pass.changed,
            alone: pass.alone(),
            subi: text.matches("arith.subi").count(),
        });
        if self.fail_at == Some(pass.position) {
            return Err(Box::new(Diagnostic::error(None, format!("stop after {}", pass.name()))));
        }
        Ok(())
    }

    fn timing_name(&self) -> &str {
        "recorder"
    }
}

fn run(pipeline: &str, threads: usize, fail_at: Option<usize>, timing: bool) -> (Vec<Seen>, lf_pass::RunReport) {
    let ctx = Context::new();
    lf_dialects::register_all(&ctx);
    let reg = lf_transforms::all_passes();
    let pm = parse_pipeline(pipeline, &ctx, &reg).unwrap_or_else(|d| panic!("{d}"));
    let mut pm = PassManager::new(
        pm,
        RunOptions {
            threads,
            timing,
            ..RunOptions::default()
        },
    );
    let mut root = lf_ir::parse_source(&ctx, INPUT, "input.lfir").expect("input parses");
    let mut rec = Recorder {
        seen: Vec::new(),
        fail_at,
    };
    let report = pm.run_observed(&ctx, &mut root, &mut std::io::sink(), Some(&mut rec));
    (rec.seen, report)
}

#[test]
fn passes_are_observed_in_pipeline_order_over_the_whole_module() {
    for threads in [1, 2] {
        let (seen, report) = run(
            "builtin.module(func.func(test-print-loop-nest,test-break-semantics,cse),symbol-dce)",
            threads,
            None,
            false,
        );
        assert!(!report.failed);
        let summary: Vec<(usize, usize, &str, bool, usize)> = seen
            .iter()
            .map(|s| (s.position, s.of, s.name, s.changed, s.subi))
            .collect();
        assert_eq!(
            summary,
            vec![
                // Preserves every analysis: changed nothing.
                (1, 4, "test-print-loop-nest", false, 0),
                // Has run on both functions when observed.
                (2, 4, "test-break-semantics", true, 2),
                // cse erases @a's subtraction, now unused: a change.
                (3, 4, "cse", true, 1),
                // Nothing private to erase.
                (4, 4, "symbol-dce", false, 1),
            ],
            "threads={threads}"
        );
        assert_eq!(
            seen[1].alone,
            "builtin.module(func.func(test-break-semantics{race=false}))"
        );
        assert_eq!(seen[3].alone, "builtin.module(symbol-dce)");
    }
}

#[test]
fn an_observer_error_stops_the_pipeline() {
    let (seen, report) = run("builtin.module(func.func(test-break-semantics,cse))", 1, Some(1), false);
    assert_eq!(seen.len(), 1);
    assert!(report.failed);
    assert_eq!(
        report.diags.last().map(|d| d.message.as_str()),
        Some("stop after test-break-semantics")
    );
}

#[test]
fn observer_time_shows_after_each_pass() {
    let (_, report) = run("builtin.module(func.func(cse),symbol-dce)", 1, None, true);
    let names: Vec<(usize, &str)> = report.timing.lines().into_iter().map(|(d, n, _)| (d, n)).collect();
    assert_eq!(
        names,
        vec![
            (0, "'func.func' Pipeline"),
            (1, "cse"),
            (1, "(verify)"),
            (1, "(recorder)"),
            (0, "symbol-dce"),
            (0, "(verify)"),
            (0, "(recorder)"),
        ]
    );
}

#[test]
fn without_an_observer_the_timing_tree_is_unchanged() {
    let ctx = Context::new();
    lf_dialects::register_all(&ctx);
    let reg = lf_transforms::all_passes();
    let pm = parse_pipeline("builtin.module(symbol-dce)", &ctx, &reg).unwrap();
    let mut pm = PassManager::new(
        pm,
        RunOptions {
            timing: true,
            ..RunOptions::default()
        },
    );
    let mut root = lf_ir::parse_source(&ctx, INPUT, "input.lfir").unwrap();
    let report = pm.run(&ctx, &mut root, &mut std::io::sink());
    let names: Vec<&str> = report.timing.lines().into_iter().map(|(_, n, _)| n).collect();
    assert_eq!(names, vec!["symbol-dce", "(verify)"]);
}
