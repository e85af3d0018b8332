//! `docs/writing-a-pass.md` shows the files of the out-of-tree example crate
//! (`examples/out-of-tree-pass`, which CI builds and tests). Each code block
//! of the tutorial that comes right after a `<!-- file: PATH -->` line (PATH
//! relative to lf's root) must be that file, byte for byte; a `rust`, `toml`
//! or `mlir` block without such a line is an error. So the tutorial cannot
//! drift from code that builds and passes its tests. (The check is lf's, not
//! the example's: a copy of the example is a crate of its own.)

use std::path::Path;

const TUTORIAL: &str = "docs/writing-a-pass.md";

/// The fenced code blocks of `text`: (line of the opening fence, info string, body).
fn code_blocks(text: &str) -> Vec<(usize, String, String)> {
    let mut blocks = Vec::new();
    let mut open: Option<(usize, String, String)> = None;
    for (i, line) in text.lines().enumerate() {
        match (&mut open, line.strip_prefix("```")) {
            (None, Some(info)) => open = Some((i + 1, info.trim().to_string(), String::new())),
            (Some(_), Some("")) => blocks.push(open.take().expect("an open block")),
            (Some((_, _, body)), _) => {
                body.push_str(line);
                body.push('\n');
            }
            (None, None) => {}
        }
    }
    assert!(open.is_none(), "{TUTORIAL}: a code block is not closed");
    blocks
}

#[test]
fn tutorial_code_blocks_are_the_files_of_this_crate() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
    let text = std::fs::read_to_string(root.join("docs/writing-a-pass.md")).expect("read the tutorial");
    let lines: Vec<&str> = text.lines().collect();
    let mut checked = Vec::new();
    for (line, info, body) in code_blocks(&text) {
        // The marker: the last non-empty line before the fence.
        let marker = lines[..line - 1].iter().rev().find(|l| !l.trim().is_empty());
        let path = marker.and_then(|m| m.trim().strip_prefix("<!-- file: ")?.strip_suffix(" -->"));
        let Some(path) = path else {
            assert!(
                !matches!(info.as_str(), "rust" | "toml" | "mlir"),
                "{TUTORIAL}:{line}: a ```{info} block must follow a `<!-- file: PATH -->` line"
            );
            continue;
        };
        let file =
            std::fs::read_to_string(root.join(path)).unwrap_or_else(|e| panic!("{TUTORIAL}:{line}: {path}: {e}"));
        assert!(
            file == body,
            "{TUTORIAL}:{line}: the block differs from {path}; copy the file into the tutorial again"
        );
        checked.push(path.to_string());
    }
    for must in [
        "examples/out-of-tree-pass/src/strip_mine.rs",
        "examples/out-of-tree-pass/test/strip-mine.lfir",
        "examples/out-of-tree-pass/src/strength_reduce.rs",
    ] {
        assert!(checked.iter().any(|p| p == must), "{TUTORIAL}: {must} is not shown");
    }
}
