//! Command-line parsing shared by lf's tools. A command-line error (an
//! unknown flag, a bad value) is printed as clap words it and ends the
//! process with exit status 1, as every other error of the tools does
//! (clap's own status for these is 2); `--help` and `--version` print to
//! standard output and exit 0. An unknown flag gets a "did you mean" from
//! the tool's flags and any extra names (lf-opt's pass flags).

use clap::error::{ContextKind, ContextValue, ErrorKind};
use std::ffi::OsString;

/// Exit status of every error of lf's tools, command-line errors included.
pub const ERROR_EXIT: i32 = 1;

/// Parses `args` (the first is the program name) with `cmd` into `T`;
/// on an error prints it and exits (see the module docs). `extra_flags`
/// are further `--NAME` flags the tool accepts without declaring them to
/// clap (lf-opt's pass names), offered as suggestions.
pub fn parse_or_exit<T: clap::FromArgMatches>(cmd: clap::Command, args: Vec<OsString>, extra_flags: &[&str]) -> T {
    let result = cmd
        .clone()
        .try_get_matches_from(args)
        .and_then(|m| T::from_arg_matches(&m).map_err(|e| e.with_cmd(&cmd)));
    match result {
        Ok(t) => t,
        Err(e) => exit_with(e, &cmd, extra_flags),
    }
}

/// Prints a clap error (adding a suggestion to an unknown flag) and exits:
/// status 0 for `--help` and `--version`, [`ERROR_EXIT`] otherwise.
pub fn exit_with(mut e: clap::Error, cmd: &clap::Command, extra_flags: &[&str]) -> ! {
    if !e.use_stderr() {
        let _ = e.print();
        std::process::exit(0);
    }
    if e.kind() == ErrorKind::UnknownArgument && e.get(ContextKind::SuggestedArg).is_none() {
        if let Some(ContextValue::String(arg)) = e.get(ContextKind::InvalidArg) {
            if let Some(s) = suggest_flag(arg, cmd, extra_flags) {
                // Instead of clap's "to pass '--x' as a value, use '-- --x'".
                e.remove(ContextKind::Suggested);
                e.insert(ContextKind::SuggestedArg, ContextValue::String(s));
            }
        }
    }
    let _ = e.print();
    std::process::exit(ERROR_EXIT)
}

/// The flag nearest to the unknown `--NAME[=VALUE]` `arg`, among `cmd`'s
/// long flags and aliases and `extra_flags`, as `--FLAG`.
pub fn suggest_flag(arg: &str, cmd: &clap::Command, extra_flags: &[&str]) -> Option<String> {
    let name = arg.strip_prefix("--")?;
    let name = name.split_once('=').map_or(name, |(n, _)| n);
    let own = cmd.get_arguments().flat_map(|a| {
        a.get_long()
            .into_iter()
            .chain(a.get_all_aliases().into_iter().flatten())
    });
    let candidates: Vec<&str> = own.chain(extra_flags.iter().copied()).collect();
    lf_diag::suggest::nearest(name, candidates).map(|s| format!("--{s}"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn suggestions_come_from_flags_and_extra_names() {
        let cmd = clap::Command::new("t")
            .arg(clap::Arg::new("threads").long("threads"))
            .arg(clap::Arg::new("timing").long("timing").alias("mlir-timing"));
        assert_eq!(suggest_flag("--thread", &cmd, &[]).as_deref(), Some("--threads"));
        assert_eq!(
            suggest_flag("--mlir-timin=1", &cmd, &[]).as_deref(),
            Some("--mlir-timing")
        );
        assert_eq!(
            suggest_flag("--csee", &cmd, &["cse", "canonicalize"]).as_deref(),
            Some("--cse")
        );
        assert_eq!(suggest_flag("--zzzzzz", &cmd, &["cse"]), None);
        assert_eq!(suggest_flag("-x", &cmd, &["cse"]), None);
    }
}
