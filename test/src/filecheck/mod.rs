//! A FileCheck implementation: LLVM FileCheck's directives, pattern syntax, matching rules,
//! exit statuses and diagnostics.
//!
//! ```
//! use lf_lit::filecheck::{check, Options};
//! let checks = "// CHECK-LABEL: func @f\n// CHECK-NEXT: return [[V:%[0-9]+]]\n";
//! let out = check("f.check", checks, "<stdin>", "func @f\nreturn %0\n", &Options::default());
//! assert_eq!(out.status, 0, "{}", out.stderr);
//! ```

mod check_type;
mod cli;
mod directive;
mod dump;
mod matcher;
mod numeric;
mod pattern;
mod posix;
mod source;
mod template;
mod vars;

pub use cli::{main, parse_args, usage, Invocation, DUMP_HELP};
pub use dump::DumpFilter;

use check_type::{CheckKind, CheckType};
use directive::ReadOptions;
use matcher::{MatchOptions, Matcher};
use pattern::{Loc, Pattern, PatternOptions};
use source::{canonicalize, SourceFile};
use vars::Vars;

/// When to print the annotated input dump.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum DumpInput {
    /// Never.
    Never,
    /// When the check fails (FileCheck's default).
    Fail,
    /// Always.
    Always,
}

/// FileCheck's options (the command line of `lf-filecheck` without the file names).
#[derive(Debug, Clone)]
pub struct Options {
    /// `--check-prefix`/`--check-prefixes` (default `CHECK`).
    pub check_prefixes: Vec<String>,
    /// `--comment-prefixes` (default `COM`, `RUN`).
    pub comment_prefixes: Vec<String>,
    /// `--implicit-check-not` patterns.
    pub implicit_check_not: Vec<String>,
    /// `--strict-whitespace`: do not canonicalize horizontal whitespace.
    pub strict_whitespace: bool,
    /// `--match-full-lines`: positive matches must cover whole lines.
    pub match_full_lines: bool,
    /// `--ignore-case`.
    pub ignore_case: bool,
    /// `--enable-var-scope`: variables not starting with `$` die at each `CHECK-LABEL`.
    pub enable_var_scope: bool,
    /// `--allow-empty`: accept an empty input.
    pub allow_empty: bool,
    /// `--allow-unused-prefixes`.
    pub allow_unused_prefixes: bool,
    /// `--allow-deprecated-dag-overlap`.
    pub allow_deprecated_dag_overlap: bool,
    /// `-DVAR=VALUE` string variables.
    pub defines: Vec<(String, String)>,
    /// `-D#VAR=VALUE` numeric variables (value, and format given as `%x` etc. or empty).
    pub numeric_defines: Vec<(String, String)>,
    /// `--dump-input`.
    pub dump_input: DumpInput,
    /// `--dump-input-filter` (`None`: `error` for failures, `all` with `always`).
    pub dump_input_filter: Option<DumpFilter>,
    /// `--dump-input-context` (default 5).
    pub dump_input_context: usize,
    /// `-v`: also mark good matches in the input dump.
    pub verbose: bool,
}

impl Default for Options {
    fn default() -> Self {
        Options {
            check_prefixes: vec!["CHECK".into()],
            comment_prefixes: vec!["COM".into(), "RUN".into()],
            implicit_check_not: Vec::new(),
            strict_whitespace: false,
            match_full_lines: false,
            ignore_case: false,
            enable_var_scope: false,
            allow_empty: false,
            allow_unused_prefixes: false,
            allow_deprecated_dag_overlap: false,
            defines: Vec::new(),
            numeric_defines: Vec::new(),
            dump_input: DumpInput::Fail,
            dump_input_filter: None,
            dump_input_context: 5,
            verbose: false,
        }
    }
}

/// The result of a check.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Outcome {
    /// FileCheck's exit status: 0 matched, 1 did not match, 2 bad usage or check file.
    pub status: i32,
    /// What FileCheck prints on stderr (diagnostics and the input dump).
    pub stderr: String,
}

fn valid_prefix(p: &str) -> bool {
    let mut b = p.bytes();
    b.next().is_some_and(|c| c.is_ascii_alphabetic()) && b.all(|c| c.is_ascii_alphanumeric() || c == b'-' || c == b'_')
}

/// Checks `input` against the directives in `check_text`.
///
/// `check_name` and `input_name` are the names printed in diagnostics (FileCheck prints
/// `<stdin>` for its standard input). Empty input fails unless `opts.allow_empty`; the
/// caller reports that case (see [`main`]) as FileCheck does, so here it is status 2.
pub fn check(check_name: &str, check_text: &str, input_name: &str, input: &str, opts: &Options) -> Outcome {
    let mut out = String::new();
    let usage_error = |out: String| Outcome { status: 2, stderr: out };

    let mut seen = std::collections::HashSet::new();
    for p in opts.check_prefixes.iter().chain(&opts.comment_prefixes) {
        if !valid_prefix(p) {
            out.push_str(&format!(
                "error: supplied check prefix must start with a letter and contain only \
                 alphanumeric characters, hyphens, and underscores: '{p}'\n"
            ));
            return usage_error(out);
        }
        if !seen.insert(p.as_str()) {
            out.push_str(&format!(
                "error: supplied check prefix must be unique among check and comment prefixes: '{p}'\n"
            ));
            return usage_error(out);
        }
    }
    if opts.check_prefixes.is_empty() {
        out.push_str("error: no check prefixes given\n");
        return usage_error(out);
    }

    let strict = opts.strict_whitespace;
    let pattern_opts = PatternOptions {
        strict_whitespace: strict,
        match_full_lines: opts.match_full_lines,
        ignore_case: opts.ignore_case,
    };
    let mut buffers = vec![SourceFile::new(check_name, canonicalize(check_text, strict))];
    let mut implicit = Vec::new();
    for (i, pat) in opts.implicit_check_not.iter().enumerate() {
        const OPEN: &str = "-implicit-check-not='";
        let text = canonicalize(pat, strict);
        buffers.push(SourceFile::new("command line", format!("{OPEN}{text}'")));
        let loc = Loc {
            buffer: i + 1,
            offset: OPEN.len(),
            len: text.len(),
        };
        let ty = CheckType::new(CheckKind::Not);
        match Pattern::parse(ty, &text, loc, 1, pattern_opts) {
            Ok(p) => implicit.push(p),
            Err(e) => {
                buffers[e.loc.buffer].message(&mut out, e.loc.offset, source::Severity::Error, &e.msg, None);
                return usage_error(out);
            }
        }
    }
    let read = ReadOptions {
        check_prefixes: &opts.check_prefixes,
        comment_prefixes: &opts.comment_prefixes,
        allow_unused_prefixes: opts.allow_unused_prefixes,
        pattern: pattern_opts,
    };
    let Ok(strings) = directive::read_check_file(&buffers, &implicit, &read, &mut out) else {
        return usage_error(out);
    };

    let mut vars = Vars::default();
    for (name, value) in &opts.defines {
        vars.set_string(name, value.clone());
    }
    for (name, value) in &opts.numeric_defines {
        match numeric_define(name, value) {
            Ok((name, v, fmt)) => vars.set_number(&name, v, fmt),
            Err(msg) => {
                out.push_str(&format!("error: invalid -D# definition '{name}={value}': {msg}\n"));
                return usage_error(out);
            }
        }
    }

    if input.is_empty() && !opts.allow_empty {
        out.push_str(&format!("FileCheck error: '{input_name}' is empty.\n"));
        return usage_error(out);
    }
    let input_file = SourceFile::new(input_name, canonicalize(input, strict));
    let match_opts = MatchOptions {
        enable_var_scope: opts.enable_var_scope,
        allow_deprecated_dag_overlap: opts.allow_deprecated_dag_overlap,
    };
    let mut matcher = Matcher::new(&buffers, &input_file, vars, match_opts);
    let ok = matcher.check_input(&strings);
    out.push_str(&matcher.out);
    let dump = match opts.dump_input {
        DumpInput::Always => true,
        DumpInput::Fail => !ok,
        DumpInput::Never => false,
    };
    if dump {
        let default_filter = if opts.dump_input == DumpInput::Always {
            DumpFilter::All
        } else {
            DumpFilter::Error
        };
        let settings = dump::DumpSettings {
            filter: opts.dump_input_filter.unwrap_or(default_filter),
            context: opts.dump_input_context,
            verbose: opts.verbose,
        };
        dump::dump(&mut out, &input_file, check_name, &matcher.annotations, settings);
    }
    Outcome {
        status: if ok { 0 } else { 1 },
        stderr: out,
    }
}

/// Parses the `NAME` (possibly `%fmt,NAME`) and value of a `-D#` definition.
fn numeric_define(lhs: &str, value: &str) -> Result<(String, i128, numeric::NumFormat), String> {
    let block = numeric::parse_block(&format!("{lhs}: {value}"), &Default::default())?;
    let name = block.def.ok_or("missing variable name")?;
    let expr = block.expr.ok_or("missing value")?;
    let v = expr
        .eval(0, &|_| None)
        .map_err(|_| "the value must be a constant expression".to_string())?;
    Ok((name, v, block.format.unwrap_or_default()))
}

#[cfg(test)]
mod tests;
