//! Registered pipelines (MLIR's `PassPipelineRegistration`): a name that
//! expands in place inside `--pass-pipeline` and as a flag, checked against
//! its anchor, with errors that name the pipeline.

use lf_ir::Context;
use lf_pass::pipeline::{parse_pipeline, pipeline_flag_passes, pipeline_from_flags};
use lf_pass::registry::PipelineInfo;
use lf_pass::{Anchor, PassRegistry};

static CLEANUP: PipelineInfo = PipelineInfo {
    name: "test-cleanup",
    summary: "cse then canonicalize",
    description: "",
    anchor: Anchor::Op("func.func"),
    pipeline: "cse,canonicalize{max-iterations=3}",
};

static TWICE: PipelineInfo = PipelineInfo {
    name: "test-cleanup-twice",
    summary: "a pipeline naming another",
    description: "",
    anchor: Anchor::Op("func.func"),
    pipeline: "test-cleanup, test-cleanup",
};

static SELF: PipelineInfo = PipelineInfo {
    name: "test-self",
    summary: "a pipeline naming itself",
    description: "",
    anchor: Anchor::Op("func.func"),
    pipeline: "cse,test-self",
};

static MISSING: PipelineInfo = PipelineInfo {
    name: "test-missing",
    summary: "a pipeline naming a pass that is not registered",
    description: "",
    anchor: Anchor::Op("func.func"),
    pipeline: "cse,no-such-pass",
};

static NESTED: PipelineInfo = PipelineInfo {
    name: "test-nested",
    summary: "a module pipeline with a nested pass manager",
    description: "",
    anchor: Anchor::Op("builtin.module"),
    pipeline: "func.func(cse),symbol-dce",
};

fn parse(ctx: &Context, reg: &PassRegistry, text: &str) -> lf_pass::OpPassManager {
    parse_pipeline(text, ctx, reg).unwrap_or_else(|d| panic!("{text}: {d}"))
}

/// The error of a pipeline that must not parse.
fn error(ctx: &Context, reg: &PassRegistry, text: &str) -> lf_diag::Diagnostic {
    match parse_pipeline(text, ctx, reg) {
        Ok(pm) => panic!("{text} parsed as {pm}"),
        Err(d) => *d,
    }
}

fn setup() -> (Context, PassRegistry) {
    let ctx = Context::new();
    lf_dialects::register_all(&ctx);
    let mut reg = lf_transforms::all_passes();
    for p in [&CLEANUP, &TWICE, &SELF, &MISSING, &NESTED] {
        reg.register_pipeline(p);
    }
    (ctx, reg)
}

#[test]
fn a_pipeline_expands_in_place() {
    let (ctx, reg) = setup();
    let pm = parse(&ctx, &reg, "builtin.module(func.func(dce,test-cleanup,dce))");
    assert_eq!(
        pm.to_string(),
        format!("builtin.module(func.func(dce,cse,{},dce))", canonicalize_3(&ctx, &reg))
    );
    let pm = parse(&ctx, &reg, "builtin.module(func.func(test-cleanup-twice))");
    assert_eq!(pm.num_passes(), 4);
    let pm = parse(&ctx, &reg, "builtin.module(test-nested)");
    assert_eq!(pm.to_string(), "builtin.module(func.func(cse),symbol-dce)");
}

/// `canonicalize{max-iterations=3}` as the pipeline printer writes it.
fn canonicalize_3(ctx: &Context, reg: &PassRegistry) -> String {
    let pm = parse(ctx, reg, "builtin.module(func.func(canonicalize{max-iterations=3}))");
    let s = pm.to_string();
    s["builtin.module(func.func(".len()..s.len() - 2].to_string()
}

#[test]
fn a_pipeline_is_checked_against_its_anchor() {
    let (ctx, reg) = setup();
    let e = error(&ctx, &reg, "builtin.module(test-cleanup)");
    assert!(
        e.message.contains(
            "pipeline 'test-cleanup' runs on 'func.func' ops, but it is placed in the pass manager of 'builtin.module'"
        ),
        "{}",
        e.message
    );
    assert_eq!(e.pos.unwrap().col, 16);
}

#[test]
fn pipeline_errors_name_the_pipeline() {
    let (ctx, reg) = setup();
    let e = error(&ctx, &reg, "builtin.module(func.func(test-missing))");
    assert!(
        e.message
            .starts_with("in pipeline 'test-missing' (= 'cse,no-such-pass'): unknown pass 'no-such-pass'"),
        "{}",
        e.message
    );
    let e = error(&ctx, &reg, "builtin.module(func.func(test-self))");
    assert!(e.message.contains("expands into itself"), "{}", e.message);
    let e = error(&ctx, &reg, "builtin.module(func.func(test-cleanup{x=1}))");
    assert!(
        e.message.contains("pipeline 'test-cleanup' takes no options"),
        "{}",
        e.message
    );
}

#[test]
fn a_pipeline_flag_gives_its_passes() {
    let (ctx, reg) = setup();
    let passes = pipeline_flag_passes(&ctx, &reg, &TWICE).unwrap();
    let names: Vec<&str> = passes.iter().map(|o| o.info().name).collect();
    assert_eq!(names, ["cse", "canonicalize", "cse", "canonicalize"]);
    let pm = pipeline_from_flags(&ctx, "builtin.module", passes).unwrap();
    assert_eq!(pm.num_passes(), 4);
    assert!(pipeline_flag_passes(&ctx, &reg, &NESTED)
        .unwrap_err()
        .contains("nests pass managers"));
    assert!(pipeline_flag_passes(&ctx, &reg, &MISSING)
        .unwrap_err()
        .contains("unknown pass 'no-such-pass'"));
}

#[test]
fn pipelines_are_listed() {
    let (_, reg) = setup();
    let text = reg.list_text();
    assert!(text.contains("Available pass pipelines"));
    assert!(text.contains(
        "  test-cleanup [func.func]\n      cse then canonicalize\n      = cse,canonicalize{max-iterations=3}\n"
    ));
    assert!(reg.lookup_pipeline("ihop-pre").is_some());
    assert_eq!(reg.suggest("test-cleanp"), Some("test-cleanup"));
}
