//! The `lf-filecheck` command line, spelled like LLVM FileCheck's (`-opt`, `--opt`,
//! `--opt=value`, `--opt value`, `-DVAR=VALUE`), plus the `FILECHECK_OPTS` variable.

use std::io::Read as _;

use super::{check, DumpFilter, DumpInput, Options};

/// A parsed `lf-filecheck` command line.
#[derive(Debug, Clone)]
pub struct Invocation {
    /// The check file (the positional argument).
    pub check_file: String,
    /// `--input-file` (`None` or `-`: standard input).
    pub input_file: Option<String>,
    /// Everything else.
    pub options: Options,
    /// `--help` was given.
    pub help: bool,
    /// `--dump-input=help` was given.
    pub dump_help: bool,
}

/// Options that take a value.
const VALUED: [&str; 8] = [
    "check-prefix",
    "check-prefixes",
    "comment-prefixes",
    "input-file",
    "implicit-check-not",
    "dump-input",
    "dump-input-filter",
    "dump-input-context",
];

/// The `--help` text.
pub fn usage(prog: &str) -> String {
    format!(
        "USAGE: {prog} [options] <check-file>\n\n\
         Checks the input (stdin, or --input-file) against the CHECK directives of <check-file>,\n\
         like LLVM FileCheck. Exit status: 0 match, 1 mismatch, 2 usage or check-file error.\n\n\
         OPTIONS:\n  \
         --check-prefix=P, --check-prefixes=A,B   directive prefixes (default CHECK)\n  \
         --comment-prefixes=A,B                  comment prefixes (default COM,RUN)\n  \
         --input-file=F                          file to check (default stdin)\n  \
         --implicit-check-not=PAT                a CHECK-NOT between all directives\n  \
         --strict-whitespace                     do not canonicalize horizontal whitespace\n  \
         --match-full-lines                      positive matches must match whole lines\n  \
         --ignore-case                           case-insensitive matching\n  \
         --enable-var-scope                      clear non-$ variables at each CHECK-LABEL\n  \
         --allow-empty                           accept empty input\n  \
         --allow-unused-prefixes                 some prefixes may be unused\n  \
         --allow-deprecated-dag-overlap          CHECK-DAG matches may overlap\n  \
         -DVAR=VALUE, -D#[%fmt,]VAR=VALUE         define a string / numeric variable\n  \
         --dump-input=never|fail|always          annotated input dump on stderr (default fail)\n  \
         --dump-input-filter=all|annotation-full|annotation|error\n  \
         --dump-input-context=N                  context lines in the dump (default 5)\n\n\
         Options are also read from the FILECHECK_OPTS environment variable.\n"
    )
}

/// What `--dump-input=help` prints: how to read the annotated input dump.
pub const DUMP_HELP: &str = "\
The input dump (--dump-input=fail by default, or always) shows the checked text with
numbered lines, each followed by annotations made by the directives that looked at it.

Options: --dump-input=never|fail|always, --dump-input-filter=all|annotation-full|
annotation|error (default: error on failure, all with always), --dump-input-context=N
(lines around each selected one, default 5), -v (also mark good matches). They can also
come from the FILECHECK_OPTS environment variable.

An annotation line starts with a label naming the directive: its kind (check, next, same,
not, dag, label, empty, count, eof) and its line in the check file, or imp1, imp2, ... for
--implicit-check-not patterns; 'N numbers the annotations of one directive. Then a mark
under the input columns concerned:
  ^~~   a good match (only with -v)
  !~~   a match that is an error: excluded (CHECK-NOT) or on the wrong line
  X~~   no match: the range searched (continued with ~ on the following lines)
  ?     the closest text to a pattern that did not match
A note after the line says what went wrong. Runs of unselected lines show as '.' lines.
";

/// Parses FileCheck's arguments (without the program name).
pub fn parse_args(args: &[String]) -> Result<Invocation, String> {
    let mut o = Options {
        check_prefixes: Vec::new(),
        ..Options::default()
    };
    let mut check_file = None;
    let mut input_file = None;
    let mut help = false;
    let mut dump_help = false;
    let mut dump: Option<DumpInput> = None;
    let mut filter: Option<DumpFilter> = None;
    let mut comment_prefixes: Option<Vec<String>> = None;
    let mut i = 0;
    while i < args.len() {
        let arg = &args[i];
        i += 1;
        if arg == "-" || !arg.starts_with('-') {
            if check_file.replace(arg.clone()).is_some() {
                return Err(format!("Too many positional arguments specified! (extra: '{arg}')"));
            }
            continue;
        }
        let body = arg.strip_prefix("--").unwrap_or(&arg[1..]);
        if let Some(def) = body.strip_prefix('D') {
            let def = if def.is_empty() {
                i += 1;
                args.get(i - 1).cloned().ok_or("-D requires a value")?
            } else {
                def.to_string()
            };
            let (name, value) = def
                .split_once('=')
                .ok_or_else(|| format!("missing equal sign in global definition '{def}'"))?;
            match name.strip_prefix('#') {
                Some(num) => o.numeric_defines.push((num.to_string(), value.to_string())),
                None => o.defines.push((name.to_string(), value.to_string())),
            }
            continue;
        }
        let (name, inline) = match body.split_once('=') {
            Some((n, v)) => (n, Some(v.to_string())),
            None => (body, None),
        };
        let value = if VALUED.contains(&name) {
            match inline {
                Some(v) => v,
                None => {
                    i += 1;
                    args.get(i - 1).cloned().ok_or_else(|| {
                        format!("Not enough positional command line arguments specified! ('{arg}' requires a value)")
                    })?
                }
            }
        } else {
            if let Some(v) = &inline {
                if !matches!(name, "color") && v != "true" && v != "1" {
                    return Err(format!("Unknown value '{v}' for option '{arg}'"));
                }
            }
            String::new()
        };
        let list = |v: &str| v.split(',').map(str::to_string).collect::<Vec<_>>();
        match name {
            "check-prefix" => o.check_prefixes.push(value),
            "check-prefixes" => o.check_prefixes.extend(list(&value)),
            "comment-prefixes" => comment_prefixes.get_or_insert_with(Vec::new).extend(list(&value)),
            "input-file" => input_file = Some(value),
            "implicit-check-not" => o.implicit_check_not.push(value),
            "dump-input" => {
                let d = match value.as_str() {
                    "help" => {
                        dump_help = true;
                        continue;
                    }
                    "always" => DumpInput::Always,
                    "fail" => DumpInput::Fail,
                    "never" => DumpInput::Never,
                    _ => return Err(format!("Cannot find option named '{value}'! (for --dump-input)")),
                };
                // Earliest in always > fail > never wins.
                let rank = |d: DumpInput| match d {
                    DumpInput::Always => 0,
                    DumpInput::Fail => 1,
                    DumpInput::Never => 2,
                };
                if dump.is_none_or(|cur| rank(d) < rank(cur)) {
                    dump = Some(d);
                }
            }
            "dump-input-filter" => {
                let f = match value.as_str() {
                    "all" => DumpFilter::All,
                    "annotation-full" => DumpFilter::AnnotationFull,
                    "annotation" => DumpFilter::Annotation,
                    "error" => DumpFilter::Error,
                    _ => return Err(format!("Cannot find option named '{value}'! (for --dump-input-filter)")),
                };
                let rank = |f: DumpFilter| f as u8;
                if filter.is_none_or(|cur| rank(f) < rank(cur)) {
                    filter = Some(f);
                }
            }
            "dump-input-context" => {
                let n: usize = value
                    .parse()
                    .map_err(|_| format!("'{value}' value invalid for uint argument!"))?;
                o.dump_input_context = o.dump_input_context.max(n);
            }
            "strict-whitespace" => o.strict_whitespace = true,
            "match-full-lines" => o.match_full_lines = true,
            "ignore-case" => o.ignore_case = true,
            "enable-var-scope" => o.enable_var_scope = true,
            "allow-empty" => o.allow_empty = true,
            "allow-unused-prefixes" => o.allow_unused_prefixes = true,
            "allow-deprecated-dag-overlap" => o.allow_deprecated_dag_overlap = true,
            "v" | "vv" => o.verbose = true,
            "color" | "no-color" => {}
            "help" | "h" => help = true,
            _ => return Err(format!("Unknown command line argument '{arg}'.")),
        }
    }
    if o.check_prefixes.is_empty() {
        o.check_prefixes.push("CHECK".into());
    }
    if let Some(c) = comment_prefixes {
        o.comment_prefixes = c;
    }
    o.dump_input = dump.unwrap_or(DumpInput::Fail);
    o.dump_input_filter = filter;
    let check_file =
        match check_file {
            Some(f) => f,
            None if help || dump_help => String::new(),
            None => return Err(
                "Not enough positional command line arguments specified!\nMust specify at least 1 positional argument"
                    .into(),
            ),
        };
    Ok(Invocation {
        check_file,
        input_file,
        options: o,
        help,
        dump_help,
    })
}

/// Runs `lf-filecheck` with `args` (program name first); returns the exit status.
/// Diagnostics go to stderr.
pub fn main(args: Vec<String>) -> i32 {
    let prog = args
        .first()
        .map(|a| a.rsplit('/').next().unwrap_or(a).to_string())
        .unwrap_or_else(|| "lf-filecheck".into());
    let mut all: Vec<String> = std::env::var("FILECHECK_OPTS")
        .map(|v| v.split_whitespace().map(str::to_string).collect())
        .unwrap_or_default();
    all.extend(args.iter().skip(1).cloned());
    let inv = match parse_args(&all) {
        Ok(inv) => inv,
        Err(msg) => {
            eprintln!("{prog}: {msg}  Try: '{prog} --help'");
            return 2;
        }
    };
    if inv.help {
        print!("{}", usage(&prog));
        return 0;
    }
    if inv.dump_help {
        print!("{DUMP_HELP}");
        return 0;
    }
    let check_text = match std::fs::read(&inv.check_file) {
        Ok(b) => String::from_utf8_lossy(&b).into_owned(),
        Err(e) => {
            eprintln!("Could not open check file '{}': {}", inv.check_file, e);
            return 2;
        }
    };
    let (input_name, input) = match inv.input_file.as_deref() {
        None | Some("-") => {
            let mut b = Vec::new();
            if let Err(e) = std::io::stdin().read_to_end(&mut b) {
                eprintln!("Could not read standard input: {e}");
                return 2;
            }
            ("<stdin>".to_string(), b)
        }
        Some(path) => match std::fs::read(path) {
            Ok(b) => (path.to_string(), b),
            Err(e) => {
                eprintln!("Could not open input file '{path}': {e}");
                return 2;
            }
        },
    };
    let input = String::from_utf8_lossy(&input);
    let outcome = check(&inv.check_file, &check_text, &input_name, &input, &inv.options);
    eprint!("{}", outcome.stderr);
    if outcome.status == 2 && input.is_empty() && !inv.options.allow_empty {
        eprintln!("FileCheck command line:  {}", args.join(" "));
    }
    outcome.status
}

#[cfg(test)]
mod tests {
    use super::*;

    fn args(s: &str) -> Vec<String> {
        s.split_whitespace().map(str::to_string).collect()
    }

    #[test]
    fn parses_llvm_style_options() {
        let inv = parse_args(&args(
            "f.mlir -check-prefix=A --check-prefixes B,C --input-file in.txt -DX=1 -D#%x,N=0x10 \
             --implicit-check-not=warning --dump-input=never --match-full-lines --strict-whitespace",
        ))
        .unwrap();
        assert_eq!(inv.check_file, "f.mlir");
        assert_eq!(inv.input_file.as_deref(), Some("in.txt"));
        assert_eq!(inv.options.check_prefixes, ["A", "B", "C"]);
        assert_eq!(inv.options.defines, [("X".to_string(), "1".to_string())]);
        assert_eq!(inv.options.numeric_defines, [("%x,N".to_string(), "0x10".to_string())]);
        assert_eq!(inv.options.implicit_check_not, ["warning"]);
        assert_eq!(inv.options.dump_input, DumpInput::Never);
        assert!(inv.options.match_full_lines && inv.options.strict_whitespace);
    }

    #[test]
    fn rejects_bad_command_lines() {
        assert!(parse_args(&args("")).is_err());
        assert!(parse_args(&args("a b")).is_err());
        assert!(parse_args(&args("a --bogus")).is_err());
        assert!(parse_args(&args("a --dump-input=sometimes")).is_err());
        assert!(parse_args(&args("a --input-file")).is_err());
    }
}
