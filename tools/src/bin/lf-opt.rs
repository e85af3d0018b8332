//! `lf-opt`: parse, verify, transform and print lf IR.

fn main() {
    std::process::exit(lf_tools::opt::main());
}
