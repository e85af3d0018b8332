//! Arguments of a lit driver run as a `harness = false` cargo test: test-name filters, and
//! libtest's own flags (`--nocapture`, `--test-threads=N`, `--list`, ...), which are
//! honoured where they make sense and ignored otherwise.

/// What the command line asks for.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct DriverArgs {
    /// Substring filters; a test runs if it matches any (all tests when empty).
    pub filters: Vec<String>,
    /// `--skip FILTER`: tests matching any of these do not run.
    pub skip: Vec<String>,
    /// `--exact`: filters must equal the test name.
    pub exact: bool,
    /// `--list`: print the tests and exit.
    pub list: bool,
    /// `--ignored`: run only ignored tests (the suite has none).
    pub ignored_only: bool,
    /// `--quiet`/`-q`: no line for passing tests.
    pub quiet: bool,
    /// `--test-threads=N`: how many tests run at once.
    pub threads: Option<usize>,
    /// `--help`.
    pub help: bool,
}

/// libtest flags that take a value.
const VALUED: [&str; 7] = [
    "--test-threads",
    "--color",
    "--format",
    "--logfile",
    "--skip",
    "--shuffle-seed",
    "-Z",
];

/// Parses the arguments after the program name.
pub fn parse_driver_args(args: &[String]) -> Result<DriverArgs, String> {
    let mut a = DriverArgs::default();
    let mut i = 0;
    while i < args.len() {
        let arg = args[i].as_str();
        i += 1;
        if !arg.starts_with('-') {
            a.filters.push(arg.to_string());
            continue;
        }
        let (name, inline) = match arg.split_once('=') {
            Some((n, v)) if n.starts_with("--") => (n, Some(v.to_string())),
            _ => (arg, None),
        };
        let value = if VALUED.contains(&name) {
            match inline {
                Some(v) => Some(v),
                None => {
                    i += 1;
                    Some(
                        args.get(i - 1)
                            .cloned()
                            .ok_or_else(|| format!("{name} requires a value"))?,
                    )
                }
            }
        } else {
            None
        };
        match name {
            "--test-threads" => {
                let v = value.unwrap_or_default();
                let n: usize = v.parse().map_err(|_| format!("--test-threads: invalid number '{v}'"))?;
                if n == 0 {
                    return Err("--test-threads must be at least 1".into());
                }
                a.threads = Some(n);
            }
            "--skip" => a.skip.extend(value),
            "--exact" => a.exact = true,
            "--list" => a.list = true,
            "--ignored" => a.ignored_only = true,
            "--quiet" | "-q" => a.quiet = true,
            "--help" | "-h" => a.help = true,
            // Everything else libtest knows is irrelevant here: --nocapture, --show-output,
            // --include-ignored, --color, --format, -Z, --test, --bench, ...
            _ => {}
        }
    }
    Ok(a)
}

/// Help for the driver's command line.
pub const HELP: &str = "\
Runs the lit tests (*.lfir files with RUN: lines).

usage: cargo test --test lit -- [FILTER...] [--skip FILTER] [--exact] [--list] [-q]
                                [--test-threads=N]

  FILTER            run the tests whose path contains FILTER (any of them)
  LF_LIT_FILTER     environment variable: a further substring every test must contain
  LF_LIT_TIMEOUT    environment variable: seconds per test (default 60)
  LF_REQUIRE_TOOLS  set to 1: a test that REQUIRES a missing feature fails instead of
                    being skipped
";

#[cfg(test)]
mod tests {
    use super::*;

    fn parse(s: &str) -> DriverArgs {
        let args: Vec<String> = s.split_whitespace().map(str::to_string).collect();
        parse_driver_args(&args).unwrap()
    }

    #[test]
    fn takes_filters_and_ignores_libtest_flags() {
        let a = parse("--nocapture affine --test-threads=3 --color always -Z unstable-options --format pretty loops");
        assert_eq!(a.filters, ["affine", "loops"]);
        assert_eq!(a.threads, Some(3));
        let a = parse("--quiet --skip slow --exact x --list --test-threads 2");
        assert!(a.quiet && a.exact && a.list);
        assert_eq!(a.skip, ["slow"]);
        assert_eq!(a.threads, Some(2));
        assert!(parse_driver_args(&["--test-threads=x".to_string()]).is_err());
    }
}
