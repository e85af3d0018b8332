//! The typed op views in `dialects/src/<dialect>/ir/views.rs` are generated
//! from the op declarations (`lf_ir::ods::views`). This test fails when one
//! is out of date; `LF_UPDATE_VIEWS=1 cargo test -p lf-dialects --test
//! generated_views` writes them.

use std::path::PathBuf;

#[test]
fn views_are_up_to_date() {
    let update = std::env::var_os("LF_UPDATE_VIEWS").is_some();
    let mut stale = Vec::new();
    for d in lf_dialects::DIALECTS {
        let path = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join(format!("src/{}/ir/views.rs", d.name));
        let want = lf_dialects::dialect_views(d);
        let have = std::fs::read_to_string(&path).unwrap_or_default();
        if have != want {
            if update {
                std::fs::write(&path, want).expect("write views");
            } else {
                stale.push(path.display().to_string());
            }
        }
    }
    assert!(
        stale.is_empty(),
        "generated views out of date: {stale:?}\nregenerate with LF_UPDATE_VIEWS=1 cargo test -p lf-dialects --test generated_views"
    );
}
