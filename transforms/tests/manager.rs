//! The pass manager on real IR: pipelines parse and print back, passes see
//! only their op and may update its attributes, failures and verifier errors
//! stop the pipeline with the first error in program order whatever the
//! thread count, and analyses are cached and invalidated.

use lf_diag::Diagnostic;
use lf_ir::{Context, OwnedOp, PrintOptions};
use lf_pass::pipeline::{parse_pipeline, pipeline_from_flags, OpPassManager};
use lf_pass::{
    AnalysisManager, Anchor, DominanceInfo, LoopNestInfo, Pass, PassInfo, PassManager, PassRegistry, PassResult,
    PassTarget, RunOptions,
};

const INPUT: &str = r#"
func.func @a(%x: i32) -> i32 {
  %0 = arith.addi %x, %x : i32
  %1 = arith.addi %x, %x : i32
  %2 = arith.addi %0, %1 : i32
  return %2 : i32
}
func.func @bad1(%x: i32) -> i32 {
  return %x : i32
}
func.func @b(%x: i32) -> i32 {
  return %x : i32
}
func.func @bad2(%x: i32) -> i32 {
  return %x : i32
}
"#;

fn setup() -> (Context, PassRegistry) {
    let ctx = Context::new();
    lf_dialects::register_all(&ctx);
    let mut reg = lf_transforms::all_passes();
    reg.register(&TAG);
    reg.register(&FAIL_BAD);
    reg.register(&BREAK);
    reg.register(&BREAK_QUIETLY);
    reg.register(&DROP_PROPS);
    (ctx, reg)
}

fn parse(ctx: &Context) -> OwnedOp {
    lf_ir::parse_source(ctx, INPUT, "input.lfir").expect("input parses")
}

fn print(ctx: &Context, m: &OwnedOp) -> String {
    lf_ir::op_to_string(ctx, &m.body, m.op, &PrintOptions::default())
}

fn run(ctx: &Context, reg: &PassRegistry, pipeline: &str, threads: usize) -> (OwnedOp, lf_pass::RunReport) {
    let pm = parse_pipeline(pipeline, ctx, reg).unwrap_or_else(|d| panic!("{d}"));
    let mut pm = PassManager::new(
        pm,
        RunOptions {
            threads,
            statistics: true,
            ..RunOptions::default()
        },
    );
    let mut m = parse(ctx);
    let mut sink = Vec::new();
    let report = pm.run(ctx, &mut m, &mut sink);
    (m, report)
}

/// Sets `tagged = <symbol name>` on its function (an update of the op's own record).
static TAG: PassInfo = PassInfo {
    name: "test-tag",
    summary: "Tag functions",
    description: "Test pass.",
    anchor: Anchor::Op("func.func"),
    options: &[],
    create: |_| Ok(Box::new(Tag)),
};
struct Tag;
impl Pass for Tag {
    fn info(&self) -> &'static PassInfo {
        &TAG
    }
    fn run(&self, op: &mut PassTarget<'_>, am: &mut AnalysisManager) -> PassResult {
        let ctx = op.ctx();
        let name = ctx.ident_str(op.symbol_name().expect("functions have names"));
        let entry = (ctx.intern("tagged"), ctx.string_attr(name));
        let mut entries: Vec<_> = op
            .attrs()
            .map(|a| ctx.attr_data(a).dict_entries().to_vec())
            .unwrap_or_default();
        entries.push(entry);
        op.set_attrs(Some(ctx.dict_attr(entries)));
        am.preserve_all();
        Ok(())
    }
}

/// Fails on functions whose name starts with `bad`.
static FAIL_BAD: PassInfo = PassInfo {
    name: "test-fail-bad",
    summary: "Fail on @bad*",
    description: "Test pass.",
    anchor: Anchor::Op("func.func"),
    options: &[],
    create: |_| Ok(Box::new(FailBad)),
};
struct FailBad;
impl Pass for FailBad {
    fn info(&self) -> &'static PassInfo {
        &FAIL_BAD
    }
    fn run(&self, op: &mut PassTarget<'_>, _am: &mut AnalysisManager) -> PassResult {
        let ctx = op.ctx();
        let name = ctx.ident_str(op.symbol_name().expect("named")).to_string();
        if name.starts_with("bad") {
            op.emit(Diagnostic::warning(None, format!("about to fail on @{name}")));
            return Err(Box::new(Diagnostic::error(
                op.loc().source_pos(ctx),
                format!("failed on @{name}"),
            )));
        }
        Ok(())
    }
}

/// Erases the terminator of each function whose name starts with `b`
/// (@bad1, @b, @bad2): the verifier must catch it.
static BREAK: PassInfo = PassInfo {
    name: "test-break",
    summary: "Break @b*",
    description: "Test pass.",
    anchor: Anchor::Op("func.func"),
    options: &[],
    create: |_| Ok(Box::new(Break { claim_unchanged: false })),
};

/// [`BREAK`], but claiming to preserve every analysis, that is to have
/// changed nothing.
static BREAK_QUIETLY: PassInfo = PassInfo {
    name: "test-break-quietly",
    summary: "Break @b* and claim not to",
    description: "Test pass.",
    anchor: Anchor::Op("func.func"),
    options: &[],
    create: |_| Ok(Box::new(Break { claim_unchanged: true })),
};

struct Break {
    claim_unchanged: bool,
}
impl Pass for Break {
    fn info(&self) -> &'static PassInfo {
        if self.claim_unchanged {
            &BREAK_QUIETLY
        } else {
            &BREAK
        }
    }
    fn run(&self, op: &mut PassTarget<'_>, am: &mut AnalysisManager) -> PassResult {
        let ctx = op.ctx();
        if self.claim_unchanged {
            am.preserve_all();
        }
        if !ctx.ident_str(op.symbol_name().expect("named")).starts_with('b') {
            return Ok(());
        }
        let r = op.regions()[0];
        let body = op.body_mut();
        let entry = body.entry_block(r).expect("entry");
        let ret = body.terminator(entry).expect("return");
        body.erase_op(ret);
        Ok(())
    }
}

/// Drops the properties of @b (its name and type): the op itself, not its
/// body, no longer verifies.
static DROP_PROPS: PassInfo = PassInfo {
    name: "test-drop-props",
    summary: "Drop @b's properties",
    description: "Test pass.",
    anchor: Anchor::Op("func.func"),
    options: &[],
    create: |_| Ok(Box::new(DropProps)),
};
struct DropProps;
impl Pass for DropProps {
    fn info(&self) -> &'static PassInfo {
        &DROP_PROPS
    }
    fn run(&self, op: &mut PassTarget<'_>, am: &mut AnalysisManager) -> PassResult {
        if op.ctx().ident_str(op.symbol_name().expect("named")) == "b" {
            op.set_props(None);
        } else {
            am.preserve_all();
        }
        Ok(())
    }
}

#[test]
fn pipeline_text_prints_back_and_reparses() {
    let (ctx, reg) = setup();
    for text in [
        "builtin.module(func.func(cse,test-print-loop-nest{min-depth=2 ops=scf.for,affine.for}),symbol-dce)",
        "builtin.module()",
        "builtin.module(any(cse),func.func(),dce)",
    ] {
        let pm = parse_pipeline(text, &ctx, &reg).unwrap_or_else(|d| panic!("{text}: {d}"));
        let printed = pm.to_string();
        let again = parse_pipeline(&printed, &ctx, &reg).expect("printed pipeline parses");
        assert_eq!(again.to_string(), printed);
    }
    // MLIR's dump: one element a line, options sorted, lists in braces.
    let pm = parse_pipeline(
        "builtin.module(func.func(test-print-loop-nest{ops=a,\"b c\"}),any())",
        &ctx,
        &reg,
    )
    .unwrap();
    assert_eq!(
        pm.dump_text(),
        "Pass Manager with 2 passes:\nbuiltin.module(\n  func.func(\n    \
         test-print-loop-nest{min-depth=1 ops={a,\"b c\"}}\n  ),\n  any(\n\n  )\n)\n\n"
    );
    let again = parse_pipeline(&pm.to_string(), &ctx, &reg).unwrap();
    assert_eq!(again.to_string(), pm.to_string());
    let pm = parse_pipeline("builtin.module(func.func(test-print-loop-nest))", &ctx, &reg).unwrap();
    assert_eq!(
        pm.to_string(),
        "builtin.module(func.func(test-print-loop-nest{min-depth=1 }))"
    );
}

#[test]
fn flags_nest_under_their_anchor() {
    let (ctx, reg) = setup();
    let opts = |n: &str| reg.lookup(n).unwrap().default_options();
    let pm: OpPassManager = pipeline_from_flags(
        &ctx,
        "builtin.module",
        vec![
            opts("cse"),
            opts("test-tag"),
            opts("test-print-loop-nest"),
            opts("symbol-dce"),
        ],
    )
    .unwrap();
    assert_eq!(
        pm.to_string(),
        "builtin.module(cse,func.func(test-tag,test-print-loop-nest{min-depth=1 }),symbol-dce)"
    );
    // A gpu.func pass goes through gpu.module.
    let path = lf_pass::pipeline::anchor_path(&ctx, "builtin.module", Anchor::Op("gpu.func")).unwrap();
    assert_eq!(path, vec!["gpu.module".to_string(), "gpu.func".to_string()]);
}

#[test]
fn passes_update_their_own_op_record() {
    let (ctx, reg) = setup();
    for threads in [1, 4] {
        let (m, report) = run(&ctx, &reg, "builtin.module(func.func(test-tag,cse))", threads);
        assert!(!report.failed, "{:?}", report.diags);
        let out = print(&ctx, &m);
        assert!(
            out.contains("func.func @a(%arg0: i32) -> i32 attributes {tagged = \"a\"}"),
            "{out}"
        );
        assert!(out.contains("attributes {tagged = \"bad2\"}"), "{out}");
        assert_eq!(report.statistics.get("cse", "num-cse'd"), Some(1));
    }
}

#[test]
fn first_failure_in_program_order_whatever_the_threads() {
    let (ctx, reg) = setup();
    for threads in [1, 2, 8] {
        let (m, report) = run(&ctx, &reg, "builtin.module(func.func(test-fail-bad,test-tag))", threads);
        assert!(report.failed);
        let msgs: Vec<String> = report.diags.iter().map(|d| d.to_string()).collect();
        assert_eq!(
            msgs,
            vec![
                "<unknown>:0: warning: about to fail on @bad1",
                "<unknown>:0: warning: about to fail on @bad2",
                "input.lfir:8:1: error: failed on @bad1",
            ],
            "threads={threads}"
        );
        // The pipeline stopped: test-tag did not run.
        assert!(!print(&ctx, &m).contains("tagged"));
    }
}

#[test]
fn verify_each_catches_a_broken_pass() {
    let (ctx, reg) = setup();
    // Three functions are broken; the error is about the first of them
    // (@bad1, line 8), whatever the thread count.
    for threads in [1, 2, 8] {
        let (_, report) = run(&ctx, &reg, "builtin.module(func.func(test-break))", threads);
        assert!(report.failed);
        let last = report.diags.last().unwrap().to_string();
        assert!(last.contains("verification failed after pass 'test-break'"), "{last}");
        assert!(last.starts_with("input.lfir:8:"), "threads={threads}: {last}");
    }
}

/// A pass may change the record of the op it ran on (its attributes and
/// properties): the op is verified once the record is written back.
#[test]
fn verify_each_checks_the_op_a_pass_ran_on() {
    let (ctx, reg) = setup();
    for threads in [1, 2] {
        let (_, report) = run(&ctx, &reg, "builtin.module(func.func(test-drop-props))", threads);
        assert!(report.failed);
        let last = report.diags.last().unwrap().to_string();
        assert!(
            last.starts_with("input.lfir:11:1: error: 'func.func' op requires attribute"),
            "{last}"
        );
        assert!(
            last.contains("(verification failed after pass 'test-drop-props')"),
            "{last}"
        );
    }
}

/// As MLIR's pass manager, the verifier skips the ops a pass left with
/// every analysis preserved: such a pass claims it changed nothing.
#[test]
fn verify_each_trusts_a_pass_that_preserved_everything() {
    let (ctx, reg) = setup();
    for threads in [1, 2] {
        let (m, report) = run(&ctx, &reg, "builtin.module(func.func(test-break-quietly))", threads);
        assert!(!report.failed, "{:?}", report.diags);
        // Verifying the module afterwards does see the damage.
        assert!(lf_ir::verify(&ctx, &m.body, m.op).is_err());
    }
}

#[test]
fn analyses_are_cached_and_invalidated() {
    let (ctx, _) = setup();
    let mut m = parse(&ctx);
    let regions = m.body.regions(m.op).to_vec();
    let record = lf_pass::OpRecord::of(&m.body, m.op);
    let body = m.body.nested_body_mut(m.op).unwrap();
    let target = PassTarget::new(&ctx, body, record);
    assert_eq!(regions, target.regions());
    let mut am = AnalysisManager::new();
    am.begin_pass();
    let _ = am.get::<DominanceInfo>(&target);
    let _ = am.get::<LoopNestInfo>(&target);
    let _ = am.get::<DominanceInfo>(&target);
    assert_eq!(am.num_computed(), 2);
    am.preserve::<DominanceInfo>();
    assert!(!am.end_pass());
    assert!(am.cached::<DominanceInfo>().is_some());
    assert!(am.cached::<LoopNestInfo>().is_none());
    am.begin_pass();
    am.preserve_all();
    assert!(am.end_pass());
    assert_eq!(am.num_cached(), 1);
}

#[test]
fn output_is_the_same_for_any_thread_count() {
    let (ctx, reg) = setup();
    let pipeline = "builtin.module(func.func(cse,dce,test-tag),symbol-dce)";
    let (m1, _) = run(&ctx, &reg, pipeline, 1);
    let (m8, _) = run(&ctx, &reg, pipeline, 8);
    assert_eq!(print(&ctx, &m1), print(&ctx, &m8));
}
