//! `my-opt`: lf-opt with the `demo` dialect and the `strength-reduce` pass.
//! Every lf-opt flag works (`--list-passes`, `--pass-pipeline`, `--strength-reduce`,
//! `--print-ir-after-all`, ...).

use lf_tools::opt::{main_with_registry, OptArgs};

fn main() {
    let registry = out_of_tree_pass::registry();
    // Parse the command line knowing our passes, so that `--strength-reduce` is a flag;
    // `--help` and the messages call the tool `my-opt`.
    let args = OptArgs::parse_tool_with_passes("my-opt", &registry);
    std::process::exit(main_with_registry(out_of_tree_pass::context(), registry, args));
}
