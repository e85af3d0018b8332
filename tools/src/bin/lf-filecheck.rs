//! `lf-filecheck`: LLVM's FileCheck for lf's tests. The lit suite also runs it under the
//! name `FileCheck`. All the work is in [`lf_lit::filecheck`].

fn main() {
    let args: Vec<String> = std::env::args_os().map(|a| a.to_string_lossy().into_owned()).collect();
    std::process::exit(lf_lit::filecheck::main(args));
}
