//! The pictures of the docs are lf-opt's output: each `docs/images/*.dot`
//! must be what `docs/images/build.sh` makes today (the SVGs are rendered
//! from them with Graphviz by that script).

use std::path::PathBuf;
use std::process::Command;

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("..")
}

/// Runs `print-dependence-graph` with `options` on `example` and compares
/// the dot it writes with the checked-in `docs/images/<image>`.
fn check(example: &str, options: &str, image: &str) {
    let dir = tempfile::tempdir().expect("temp dir");
    let out = dir.path().join(image);
    let status = Command::new(env!("CARGO_BIN_EXE_lf-opt"))
        .current_dir(root())
        .arg(format!("examples/{example}"))
        .arg("-o")
        .arg("/dev/null")
        .arg(format!(
            "--pass-pipeline=builtin.module(func.func(print-dependence-graph{{{options} out={}}}))",
            out.display()
        ))
        .status()
        .expect("run lf-opt");
    assert!(status.success(), "lf-opt failed on {example}");
    let got = std::fs::read_to_string(&out).expect("read the graph");
    let want = std::fs::read_to_string(root().join("docs/images").join(image)).expect("read docs/images");
    assert_eq!(
        got, want,
        "docs/images/{image} is out of date: run docs/images/build.sh"
    );
}

#[test]
fn loop_graph_picture_is_current() {
    check("stencil4_chain.lfir", "granularity=loop", "stencil4_chain-loops.dot");
}

#[test]
fn statement_graph_picture_is_current() {
    check("fig3_chain.lfir", "granularity=statement", "fig3_chain-statements.dot");
}
