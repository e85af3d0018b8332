//! The lf-run binary built from this crate alone (tools/src/bin/lf-run.rs), for
//! this crate's tests and benchmarks when the tools crate is not built.
#[path = "../../tools/src/bin/lf-run.rs"]
mod lf_run;

fn main() -> std::process::ExitCode {
    lf_run::main()
}
