//! The op reference in `docs/dialects/` is generated from the op
//! declarations. This test fails when it is out of date; run
//! `LF_UPDATE_DOCS=1 cargo test -p lf-dialects --test op_docs` to regenerate.

use std::path::PathBuf;

fn docs_dir() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../docs/dialects")
}

#[test]
fn op_reference_is_up_to_date() {
    let update = std::env::var_os("LF_UPDATE_DOCS").is_some();
    let mut stale = Vec::new();
    for d in lf_dialects::DIALECTS {
        let path = docs_dir().join(format!("{}.md", d.name));
        let want = lf_dialects::dialect_doc(d);
        let have = std::fs::read_to_string(&path).unwrap_or_default();
        if have != want {
            if update {
                std::fs::create_dir_all(docs_dir()).expect("create docs/dialects");
                std::fs::write(&path, want).expect("write op reference");
            } else {
                stale.push(path.display().to_string());
            }
        }
    }
    assert!(
        stale.is_empty(),
        "op reference out of date: {stale:?}\nregenerate with LF_UPDATE_DOCS=1 cargo test -p lf-dialects --test op_docs"
    );
}

#[test]
fn every_op_is_documented_and_registers() {
    let ctx = lf_ir::Context::new();
    lf_dialects::register_all(&ctx);
    for d in lf_dialects::DIALECTS {
        for op in d.ops {
            assert!(
                op.name.starts_with(&format!("{}.", d.name)),
                "{} is not in {}",
                op.name,
                d.name
            );
            assert!(!op.summary.is_empty(), "{} has no summary", op.name);
            assert!(!op.description.is_empty(), "{} has no description", op.name);
            assert!(
                op.parse.is_some() || op.format.is_some(),
                "{} has no custom syntax",
                op.name
            );
            assert!(ctx.op_def(ctx.op_name(op.name)).is_some());
        }
    }
}
