//! Finding the tests: every file with the suite's extension under a directory tree, in
//! sorted order, skipping `Inputs` directories (helper files of tests) and hidden ones.

use std::io;
use std::path::{Path, PathBuf};

/// Directories with this name hold inputs of other tests, not tests.
pub const INPUTS_DIR: &str = "Inputs";

/// All files under `root` whose extension is `ext` (without the dot), sorted by path.
pub fn discover(root: &Path, ext: &str) -> io::Result<Vec<PathBuf>> {
    let mut found = Vec::new();
    walk(root, ext, &mut found)?;
    found.sort();
    Ok(found)
}

fn walk(dir: &Path, ext: &str, found: &mut Vec<PathBuf>) -> io::Result<()> {
    for entry in std::fs::read_dir(dir)? {
        let entry = entry?;
        let path = entry.path();
        let name = entry.file_name();
        let name = name.to_string_lossy();
        if name.starts_with('.') {
            continue;
        }
        // Follows symlinks, like lit.
        let Ok(meta) = std::fs::metadata(&path) else { continue };
        if meta.is_dir() {
            if name != INPUTS_DIR {
                walk(&path, ext, found)?;
            }
        } else if path.extension().is_some_and(|e| e == ext) {
            found.push(path);
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn finds_sorted_tests_outside_inputs_dirs() {
        let dir = tempfile::tempdir().unwrap();
        let root = dir.path();
        for f in [
            "b.lfir",
            "a/z.lfir",
            "a/y.txt",
            "a/Inputs/x.lfir",
            ".hidden/h.lfir",
            "a.lfir",
        ] {
            let p = root.join(f);
            std::fs::create_dir_all(p.parent().unwrap()).unwrap();
            std::fs::write(p, "").unwrap();
        }
        let found: Vec<_> = discover(root, "lfir")
            .unwrap()
            .into_iter()
            .map(|p| p.strip_prefix(root).unwrap().to_string_lossy().into_owned())
            .collect();
        // Sorted by path components: a directory's tests come together.
        assert_eq!(found, ["a/z.lfir", "a.lfir", "b.lfir"]);
    }
}
