//! Claims of the docs checked against what the tools do: a claim that went
//! stale (the tool changed, the text did not) fails here.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("..")
}

fn read(rel: &str) -> String {
    std::fs::read_to_string(root().join(rel)).unwrap_or_else(|e| panic!("{rel}: {e}"))
}

fn run(tool: &str, args: &[&str]) -> Output {
    Command::new(tool)
        .args(args)
        .current_dir(root())
        .output()
        .unwrap_or_else(|e| panic!("{tool}: {e}"))
}

/// The text of `doc` from the heading `heading` to the next heading of its level.
fn section(doc: &str, heading: &str) -> String {
    let text = read(doc);
    let start = text
        .find(heading)
        .unwrap_or_else(|| panic!("{doc}: no heading '{heading}'"));
    let level = heading.chars().take_while(|c| *c == '#').count();
    let rest = &text[start + heading.len()..];
    let next = format!("\n{} ", "#".repeat(level));
    rest[..rest.find(&next).unwrap_or(rest.len())].to_string()
}

#[test]
fn targets_md_says_what_lf_translate_does_with_an_inline_launch() {
    let out = run(
        env!("CARGO_BIN_EXE_lf-translate"),
        &["test/Target/inline-launch.lfir", "--target=cuda"],
    );
    assert!(out.status.success(), "lf-translate refuses an inline gpu.launch");
    let doc = read("docs/targets.md").replace('\n', " ");
    assert!(
        !doc.contains("inline `gpu.launch` is an error"),
        "docs/targets.md says an inline gpu.launch is an error, but lf-translate outlines it"
    );
    assert!(
        doc.contains("outlines inline `gpu.launch`") || doc.contains("inline `gpu.launch` is outlined"),
        "docs/targets.md: say that lf-translate outlines an inline gpu.launch"
    );
}

#[test]
fn examples_readme_says_lf_opt_reads_the_examples_as_they_are() {
    let mut files: Vec<PathBuf> = std::fs::read_dir(root().join("examples"))
        .expect("examples/")
        .flatten()
        .map(|e| e.path())
        .filter(|p| p.extension().is_some_and(|x| x == "lfir"))
        .collect();
    files.sort();
    assert!(files.len() > 5, "the seed examples are there");
    for f in &files {
        let out = run(env!("CARGO_BIN_EXE_lf-opt"), &[f.to_str().expect("a UTF-8 path")]);
        assert!(
            out.status.success(),
            "lf-opt {}: {}",
            f.display(),
            String::from_utf8_lossy(&out.stderr)
        );
    }
    let readme = read("examples/README.md").replace('\n', " ");
    assert!(
        !readme.contains("only in generic form"),
        "examples/README.md says lf-opt reads the examples only in generic form, but it reads them as they are"
    );
}

#[test]
fn passes_md_says_lower_affine_leaves_affine_parallel_when_it_does() {
    let dir = tempfile::tempdir().expect("a temporary directory");
    let file = dir.path().join("parallel.lfir");
    std::fs::write(
        &file,
        "func.func @p(%A: memref<16xf32>) {\n  affine.parallel (%i) = (0) to (16) {\n    \
         %v = affine.load %A[%i] : memref<16xf32>\n    affine.store %v, %A[%i] : memref<16xf32>\n  }\n  \
         return\n}\n",
    )
    .expect("write the input");
    let out = run(
        env!("CARGO_BIN_EXE_lf-opt"),
        &[file.to_str().expect("a UTF-8 path"), "--lower-affine"],
    );
    let doc = section("docs/passes.md", "## `lower-affine`");
    if !out.status.success() {
        assert!(
            doc.contains("`affine.parallel` is not lowered"),
            "lower-affine fails on affine.parallel, but docs/passes.md does not say so:\n{doc}"
        );
    } else {
        assert!(
            !doc.contains("`affine.parallel` is not lowered"),
            "lower-affine lowers affine.parallel now: docs/passes.md still says it does not"
        );
    }
}

#[test]
fn readme_exit_statuses_are_the_tools() {
    let bad_ir = "test/IR/rejected-as-mlir.lfir";
    for (tool, args) in [
        (env!("CARGO_BIN_EXE_lf-opt"), vec!["--no-such-flag"]),
        (env!("CARGO_BIN_EXE_lf-opt"), vec!["--threads=0"]),
        (env!("CARGO_BIN_EXE_lf-opt"), vec!["no-such-file.lfir"]),
        (env!("CARGO_BIN_EXE_lf-opt"), vec![bad_ir]),
        (env!("CARGO_BIN_EXE_lf-translate"), vec!["--no-such-flag"]),
        (
            env!("CARGO_BIN_EXE_lf-translate"),
            vec!["no-such-file.lfir", "--target=cuda"],
        ),
        (env!("CARGO_BIN_EXE_lf-translate"), vec![bad_ir, "--target=cuda"]),
        (env!("CARGO_BIN_EXE_lf-run"), vec!["--no-such-flag"]),
        (env!("CARGO_BIN_EXE_lf-run"), vec!["no-such-file.lfir"]),
        (env!("CARGO_BIN_EXE_lf-run"), vec![bad_ir]),
    ] {
        let out = run(tool, &args);
        assert_eq!(
            out.status.code(),
            Some(1),
            "{tool} {args:?}: the README says errors exit 1"
        );
    }
    let readme = read("README.md").replace('\n', " ");
    assert!(
        readme.contains("On any error, a command-line error too, the exit status is 1"),
        "README: say that every error, a command-line error too, exits 1"
    );
    assert!(
        readme.contains("is a bug in lf"),
        "README: say what another exit status (an internal error: 2) means"
    );
}

/// The packages an `install` line of `.ci/run` names (`apt-get install -y
/// -qq A B >/dev/null`, `pip install -q A B`): the words after `install`
/// that are not options, up to a redirection or the end of the command.
fn installed_by_ci(text: &str) -> Vec<String> {
    let mut out = Vec::new();
    for line in text.lines() {
        let code = line.split('#').next().unwrap_or("");
        if !(code.contains("apt-get install") || code.contains("pip install")) {
            continue;
        }
        let Some((_, rest)) = code.split_once(" install ") else {
            continue;
        };
        for word in rest.split_whitespace() {
            if word.starts_with('>') || word == "||" || word == "&&" {
                break;
            }
            if !word.starts_with('-') {
                out.push(word.to_string());
            }
        }
    }
    out.sort();
    out.dedup();
    out
}

#[test]
fn readme_says_what_a_fresh_machine_needs() {
    let need = section("README.md", "## What a fresh machine needs");
    let cargo_toml = read("Cargo.toml");
    let rust = cargo_toml
        .lines()
        .find_map(|l| l.trim().strip_prefix("rust-version = "))
        .map(|v| v.trim_matches('"').to_string())
        .expect("Cargo.toml declares rust-version");
    assert!(
        need.contains(&format!("Rust {rust}")),
        "README: say that lf needs Rust {rust} (Cargo.toml's rust-version)"
    );
    if read("tools/Cargo.toml").contains("tikv-jemallocator") {
        assert!(
            need.contains("C compiler") && need.contains("jemalloc"),
            "README: say that building lf-opt's allocator, jemalloc, needs a C compiler"
        );
    }
    let packages = installed_by_ci(&read(".ci/run"));
    assert!(
        packages.len() >= 8,
        ".ci/run installs the tools of the tests: {packages:?}"
    );
    for p in &packages {
        assert!(
            need.contains(p.as_str()),
            "README: '{p}', which .ci/run installs, is not named"
        );
    }
    assert!(
        need.contains("first build"),
        "README: say how long the first build takes"
    );
}

/// The example table of lf-run.md's "Divergence profile" is what lf-run
/// prints for the command shown there.
#[test]
fn lf_run_md_divergence_profile_example_is_lf_runs_output() {
    let doc = section("docs/lf-run.md", "## Divergence profile");
    let block = doc
        .split("```")
        .skip(1)
        .step_by(2)
        .find(|b| b.contains("--profile-divergence") && b.contains("efficiency"))
        .expect("an example with a profile table");
    let out = run(
        env!("CARGO_BIN_EXE_lf-run"),
        &[
            "--compare",
            "test/Run/profile-divergence-merge.lfir",
            "test/Run/Inputs/merged_while.lfir",
            "--entry=nest",
            "--compare-traces",
            "--profile-divergence",
        ],
    );
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let stderr = String::from_utf8_lossy(&out.stderr);
    let table: Vec<&str> = block
        .lines()
        .skip_while(|l| !l.starts_with("lf-run: divergence profile"))
        .filter(|l| !l.trim().is_empty())
        .collect();
    let printed: Vec<&str> = stderr.lines().collect();
    assert_eq!(
        table, printed,
        "docs/lf-run.md's example table differs from lf-run's output"
    );
}
