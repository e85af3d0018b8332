//! `docs/passes.md` is generated from the pass registry. This test fails when
//! it is out of date; run `LF_UPDATE_DOCS=1 cargo test -p lf-transforms --test
//! pass_docs` to regenerate.

use std::path::PathBuf;

#[test]
fn pass_reference_is_up_to_date() {
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../docs/passes.md");
    let want = lf_transforms::all_passes().docs_markdown();
    let have = std::fs::read_to_string(&path).unwrap_or_default();
    if have != want {
        if std::env::var_os("LF_UPDATE_DOCS").is_some() {
            std::fs::write(&path, want).expect("write docs/passes.md");
            return;
        }
        panic!(
            "docs/passes.md is out of date; regenerate with LF_UPDATE_DOCS=1 cargo test -p lf-transforms --test pass_docs"
        );
    }
}

#[test]
fn every_pass_is_documented_and_its_defaults_parse() {
    for p in lf_transforms::all_passes().all() {
        assert!(!p.summary.is_empty(), "pass '{}' has no summary", p.name);
        assert!(!p.description.is_empty(), "pass '{}' has no description", p.name);
        let opts = lf_pass::PassOptions::defaults(p).unwrap_or_else(|e| panic!("pass '{}': {e}", p.name));
        for o in p.options {
            assert!(
                !o.help.is_empty(),
                "option '{}' of pass '{}' has no help",
                o.name,
                p.name
            );
        }
        // The default options print as a pipeline element that parses back.
        let pass = (p.create)(&opts).unwrap_or_else(|e| panic!("pass '{}': {e}", p.name));
        assert_eq!(pass.name(), p.name);
    }
}
