//! Runs the lit tests in `test/` (`cargo test`, or `cargo test --test lit -- FILTER`): each
//! `*.lfir` file's `RUN:` lines, with `my-opt`, `FileCheck` and, when it is found, `lf-run` on
//! `PATH`. Tests that need `lf-run` say `REQUIRES: lf-run`; they are skipped (loudly) when it
//! is missing, and fail instead with `LF_REQUIRE_TOOLS=1`. Put lf's `lf-run` on `PATH`
//! (`cargo build -p lf-tools --bin lf-run` in lf) or name it with `LF_RUN=/path/to/lf-run`.

use lf_lit::lit::{find_program, run_main, Config};
use std::path::PathBuf;
use std::process::ExitCode;

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().collect();
    // This test binary is also the `FileCheck` the RUN lines call (lit puts
    // tools on PATH as links named after them): then it runs lf's FileCheck.
    if args[0].ends_with("FileCheck") {
        std::process::exit(lf_lit::filecheck::main(args));
    }
    let mut config = Config::new(PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("test"));
    config.tools.insert("my-opt".into(), env!("CARGO_BIN_EXE_my-opt").into());
    config.tools.insert("FileCheck".into(), std::env::current_exe().expect("the test binary's path"));
    let lf_run = std::env::var_os("LF_RUN").map(PathBuf::from).or_else(|| find_program(&["lf-run"]));
    if let Some(lf_run) = lf_run {
        config.tools.insert("lf-run".into(), lf_run);
        config.features.insert("lf-run".into());
    }
    run_main(config, &args[1..])
}
