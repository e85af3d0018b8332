//! Parsing `// expected-error {{...}}` comments for `--verify-diagnostics`.
//!
//! The syntax is mlir-opt 22's. Somewhere on a line (usually in a comment):
//!
//! ```text
//! expected-KIND[-re] [@DESIGNATOR] {{TEXT}}
//! ```
//!
//! - `KIND` is `error`, `warning`, `note` or `remark`.
//! - `@DESIGNATOR` says which line the diagnostic must be on: none means this
//!   line; `@+N` / `@-N` this line plus or minus `N`; `@above` the closest line
//!   above that is not itself an `expected-*` line; `@below` the closest such
//!   line below (a plain comment line counts as such a line); `@unknown` a
//!   diagnostic without a position (its line does not matter).
//! - `{{TEXT}}` runs from the first `{{` to the `}}` that ends the line
//!   (trailing spaces allowed). Without `-re`, `TEXT` must be a substring of
//!   the message (`{{}}` matches anything; `{{` inside `TEXT` is literal).
//!   With `-re`, `TEXT` is literal except for `{{REGEX}}` blocks, and the
//!   result is searched (not anchored) in the message:
//!   `expected-error-re {{op has {{[0-9]+}} operands}}`.
//! - There is no count (`expected-error 2 {{...}}`) in MLIR.
//!
//! Errors in the comments themselves are diagnostics, reported by
//! [`crate::verify()`] before anything else. Two come from mlir-opt:
//! `found start of regex with no end '}}'` and `invalid regex: ...`. The
//! others are lf's own (mlir-opt silently ignores such lines, which hides
//! typos): a line where `expected-KIND` is followed by `@`, `{` or a digit but
//! which is not a valid directive (`@+` without a number, `@foo`, a count,
//! text after the closing `}}`), a designator pointing before the first line
//! or past the last one, and a designator number with a leading zero
//! (`@+010`, which mlir-opt reads as octal 8).

use std::sync::{Arc, OnceLock};

use regex::Regex;

use crate::diagnostic::{Diagnostic, Severity, SourcePos};

/// One expected diagnostic.
#[derive(Clone, Debug)]
pub struct ExpectedDiag {
    /// The severity it must have.
    pub severity: Severity,
    /// The 1-based line the diagnostic must be on; `None` for `@unknown`
    /// (a diagnostic without a position).
    pub line: Option<u32>,
    /// The text between `{{` and `}}`, as written.
    pub text: String,
    /// For `expected-*-re`: the compiled pattern.
    pub regex: Option<Regex>,
    /// Where the comment's `expected-` starts (failures are reported here).
    pub pos: SourcePos,
}

impl ExpectedDiag {
    /// Whether a message satisfies this expectation (substring, or regex
    /// search for `-re`). The severity and line are checked by the caller.
    pub fn matches(&self, message: &str) -> bool {
        match &self.regex {
            Some(re) => re.is_match(message),
            None => message.contains(self.text.as_str()),
        }
    }
}

/// The expectations found in one buffer.
#[derive(Clone, Debug, Default)]
pub struct Expectations {
    /// The buffer's name: diagnostics positioned in this file are checked
    /// against `diags`.
    pub file: Arc<str>,
    /// The expected diagnostics, in file order.
    pub diags: Vec<ExpectedDiag>,
    /// Problems with the comments themselves (bad regexes, malformed lines).
    pub errors: Vec<Diagnostic>,
}

fn directive_re() -> &'static Regex {
    static RE: OnceLock<Regex> = OnceLock::new();
    RE.get_or_init(|| {
        Regex::new(r"expected-(error|note|remark|warning)(-re)? *(@([+-][0-9]+|above|below|unknown))? *\{\{(.*)\}\}$")
            .expect("valid regex")
    })
}

/// Looks like a directive (so a failure to parse is worth reporting).
fn attempt_re() -> &'static Regex {
    static RE: OnceLock<Regex> = OnceLock::new();
    RE.get_or_init(|| Regex::new(r"expected-(error|note|remark|warning)(-re)? *[@{0-9]").expect("valid regex"))
}

/// LLVM's `StringRef::rtrim()` set: space, `\t`, `\n`, `\v`, `\f`, `\r`.
fn rtrim(s: &str) -> &str {
    s.trim_end_matches([' ', '\t', '\n', '\x0b', '\x0c', '\r'])
}

/// Parses every `expected-*` comment of a buffer. Never panics.
///
/// ```
/// use lf_diag::{parse_expected, Severity};
/// let e = parse_expected("a.mlir", "// expected-error @+1 {{bad op}}\n\"test.op\"() : () -> ()\n");
/// assert!(e.errors.is_empty());
/// assert_eq!(e.diags[0].severity, Severity::Error);
/// assert_eq!(e.diags[0].line, Some(2));
/// assert_eq!(e.diags[0].text, "bad op");
/// assert_eq!((e.diags[0].pos.line, e.diags[0].pos.col), (1, 4));
/// ```
pub fn parse_expected(file: impl Into<Arc<str>>, text: &str) -> Expectations {
    let file: Arc<str> = file.into();
    let mut out = Expectations {
        file: file.clone(),
        diags: Vec::new(),
        errors: Vec::new(),
    };
    let bytes = text.as_bytes();
    // Lines as LLVM's `split('\n')` sees them: a trailing '\n' gives an empty
    // last line.
    let line_count = memchr::memchr_iter(b'\n', bytes).count() + 1;

    // Indices into `out.diags` of `@below` expectations waiting for the next
    // non-directive line; 0-based index of the last non-directive line.
    let mut pending_below: Vec<usize> = Vec::new();
    let mut last_plain: usize = 0;
    // The line after the last line we looked at (0-based).
    let mut next_unseen: usize = 0;
    let mut line_no: usize = 0;
    let mut line_start: usize = 0;

    let finder = memchr::memmem::Finder::new("expected-");
    let mut search_from = 0;
    while let Some(rel) = finder.find(&bytes[search_from..]) {
        let hit = search_from + rel;
        // Advance to the line containing `hit`.
        line_no += memchr::memchr_iter(b'\n', &bytes[line_start..hit]).count();
        line_start = memchr::memrchr(b'\n', &bytes[..hit]).map_or(0, |i| i + 1);
        let line_end = memchr::memchr(b'\n', &bytes[hit..]).map_or(bytes.len(), |i| hit + i);
        search_from = line_end.min(bytes.len());
        if search_from < bytes.len() {
            search_from += 1;
        }

        // Lines between the previous directive candidate and this one are
        // plain lines.
        if next_unseen < line_no {
            plain_line(&mut out, &mut pending_below, &mut last_plain, next_unseen);
            last_plain = line_no - 1;
        }
        next_unseen = line_no + 1;

        let line = rtrim(&text[line_start..line_end]);
        let is_directive = parse_line(
            &mut out,
            &file,
            line,
            line_no,
            line_count,
            last_plain,
            &mut pending_below,
        );
        if !is_directive {
            plain_line(&mut out, &mut pending_below, &mut last_plain, line_no);
        }
        if search_from >= bytes.len() {
            break;
        }
    }
    if next_unseen < line_count {
        plain_line(&mut out, &mut pending_below, &mut last_plain, next_unseen);
    }
    // `@below` with no line below keeps its line (the last line, as in MLIR).
    out
}

/// Records that 0-based line `line_no` is not a directive line.
fn plain_line(out: &mut Expectations, pending: &mut Vec<usize>, last_plain: &mut usize, line_no: usize) {
    for i in pending.drain(..) {
        out.diags[i].line = Some(line_no as u32 + 1);
    }
    *last_plain = line_no;
}

/// Handles one line that contains `expected-`; returns whether MLIR counts it
/// as a directive line (one matching the directive syntax).
fn parse_line(
    out: &mut Expectations,
    file: &Arc<str>,
    line: &str,
    line_no: usize,
    line_count: usize,
    last_plain: usize,
    pending_below: &mut Vec<usize>,
) -> bool {
    let Some(caps) = directive_re().captures(line) else {
        check_malformed(out, file, line, line_no);
        return false;
    };
    let whole = caps.get(0).expect("group 0");
    let kind = caps.get(1).map_or("", |m| m.as_str());
    let severity = Severity::from_word(kind).unwrap_or(Severity::Error);
    let is_re = caps.get(2).is_some();
    let designator = caps.get(4).map(|m| m.as_str());
    let msg = caps.get(5).map_or("", |m| m.as_str());
    let pos = SourcePos::new(file.clone(), line_no as u32 + 1, whole.start() as u32 + 1);
    let width = msg.len() as u32;

    let regex = if is_re {
        match build_regex(msg) {
            Ok(re) => Some(re),
            Err(e) => {
                out.errors.push(Diagnostic::error(pos, e).with_width(width));
                return true;
            }
        }
    } else {
        None
    };

    let this_line = line_no as i64 + 1;
    let target: Option<u32> = match designator {
        None => Some(this_line as u32),
        Some("unknown") => None,
        Some("above") => Some(last_plain as u32 + 1),
        Some("below") => {
            pending_below.push(out.diags.len());
            // Dangling `@below` (no plain line after it): the last line.
            Some(line_count as u32)
        }
        Some(d) => {
            let (sign, digits) = d.split_at(1);
            if digits.len() > 1 && digits.starts_with('0') {
                out.errors.push(
                    Diagnostic::error(
                        pos,
                        format!(
                            "expected-{kind} designator '@{d}' has a leading zero (mlir-opt reads it as an octal number)"
                        ),
                    )
                    .with_width(2 + d.len() as u32),
                );
                return true;
            }
            // Saturate: a huge offset is simply out of range.
            let n = digits.parse::<i64>().unwrap_or(i64::MAX / 2);
            let t = if sign == "+" {
                this_line.saturating_add(n)
            } else {
                this_line.saturating_sub(n)
            };
            if t < 1 || t > line_count as i64 {
                let where_ = if t < 1 {
                    "before the first line of the file".to_string()
                } else {
                    format!("to line {t}, past the end of the file ({line_count} lines)")
                };
                out.errors.push(
                    Diagnostic::error(pos, format!("expected-{kind} designator '@{d}' points {where_}"))
                        .with_width(2 + d.len() as u32),
                );
                return true;
            }
            Some(t as u32)
        }
    };
    out.diags.push(ExpectedDiag {
        severity,
        line: target,
        text: msg.to_string(),
        regex,
        pos,
    });
    true
}

/// Turns `lit{{re}}lit` into a regex: literal parts escaped, `{{...}}` blocks
/// kept as groups. Errors carry mlir-opt's messages.
fn build_regex(text: &str) -> Result<Regex, String> {
    let mut pattern = String::new();
    let mut rest = text;
    loop {
        let Some(open) = rest.find("{{") else {
            pattern.push_str(&regex::escape(rest));
            break;
        };
        pattern.push_str(&regex::escape(&rest[..open]));
        rest = &rest[open + 2..];
        let Some(close) = rest.find("}}") else {
            return Err("found start of regex with no end '}}'".to_string());
        };
        let block = &rest[..close];
        if let Err(e) = Regex::new(block) {
            return Err(format!("invalid regex: {}", regex_error_summary(&e)));
        }
        pattern.push('(');
        pattern.push_str(block);
        pattern.push(')');
        rest = &rest[close + 2..];
    }
    Regex::new(&pattern).map_err(|e| format!("invalid regex: {}", regex_error_summary(&e)))
}

/// The one-line reason of a regex error (the crate's message spans lines).
fn regex_error_summary(e: &regex::Error) -> String {
    let s = e.to_string();
    let last = s.lines().rev().find(|l| !l.trim().is_empty()).unwrap_or("");
    last.trim().trim_start_matches("error: ").to_string()
}

/// Reports a line that starts a directive but does not follow the syntax.
fn check_malformed(out: &mut Expectations, file: &Arc<str>, line: &str, line_no: usize) {
    let Some(m) = attempt_re().find(line) else { return };
    let start = m.start();
    let after_kw = {
        let s = &line[start..];
        // `expected-KIND` and an optional `-re`.
        let kw_len = s
            .find(|c: char| c == ' ' || c == '@' || c == '{' || c.is_ascii_digit())
            .unwrap_or(s.len());
        &s[..kw_len]
    };
    let kw = after_kw;
    let mut rest = line[start + kw.len()..].trim_start_matches(' ');
    let pos = SourcePos::new(file.clone(), line_no as u32 + 1, start as u32 + 1);
    let msg = 'msg: {
        if let Some(r) = rest.strip_prefix('@') {
            let tok_len = r.find([' ', '{']).unwrap_or(r.len());
            let tok = &r[..tok_len];
            let ok = matches!(tok, "above" | "below" | "unknown")
                || (tok.len() > 1
                    && (tok.starts_with('+') || tok.starts_with('-'))
                    && tok[1..].bytes().all(|b| b.is_ascii_digit()));
            if !ok {
                break 'msg format!(
                    "invalid designator '@{tok}' in '{kw}' (expected @+N, @-N, @above, @below or @unknown)"
                );
            }
            rest = r[tok_len..].trim_start_matches(' ');
        }
        if !rest.starts_with("{{") {
            let found: String = rest.chars().take(10).collect();
            let hint = if rest.starts_with(|c: char| c.is_ascii_digit()) {
                " (a count is not supported)"
            } else {
                ""
            };
            break 'msg format!("expected '{{{{' after '{kw}', found '{found}'{hint}");
        }
        if !rest.ends_with("}}") || rest.len() < 4 {
            break 'msg format!("'{kw}' must end with '}}}}' at the end of the line");
        }
        format!("malformed '{kw}' comment")
    };
    out.errors.push(Diagnostic::error(pos, msg).with_width(kw.len() as u32));
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parse(text: &str) -> Expectations {
        parse_expected("t.mlir", text)
    }

    fn summary(e: &Expectations) -> Vec<(Severity, Option<u32>, String, bool)> {
        e.diags
            .iter()
            .map(|d| (d.severity, d.line, d.text.clone(), d.regex.is_some()))
            .collect()
    }

    fn errors(e: &Expectations) -> Vec<String> {
        e.errors.iter().map(|d| d.to_string()).collect()
    }

    #[test]
    fn each_form() {
        let text = "\
a // expected-error {{same line}}
// expected-warning @+2 {{plus two}}
b
c
// expected-note @-3 {{minus three}}
// expected-remark @above {{above}}
// expected-error@below{{below}}
// expected-error @below {{below too}}
d
// expected-error @unknown {{nowhere}}
e // expected-error-re {{a {{[0-9]+}} b}}   \r
";
        let e = parse(text);
        assert_eq!(errors(&e), Vec::<String>::new());
        use Severity::*;
        assert_eq!(
            summary(&e),
            vec![
                (Error, Some(1), "same line".into(), false),
                (Warning, Some(4), "plus two".into(), false),
                (Note, Some(2), "minus three".into(), false),
                (Remark, Some(4), "above".into(), false),
                (Error, Some(9), "below".into(), false),
                (Error, Some(9), "below too".into(), false),
                (Error, None, "nowhere".into(), false),
                (Error, Some(11), "a {{[0-9]+}} b".into(), true),
            ]
        );
        assert_eq!((e.diags[0].pos.line, e.diags[0].pos.col), (1, 6));
        assert_eq!((e.diags[4].pos.line, e.diags[4].pos.col), (7, 4));
        let re = &e.diags[7];
        assert!(re.matches("x a 123 b y"));
        assert!(!re.matches("a b"));
        assert!(!re.matches("a 12x b"));
    }

    #[test]
    fn above_and_below_count_plain_comment_lines() {
        // mlir-opt: `@below` binds to the next line that is not an
        // expected-* line, even a comment; `@above` likewise.
        let e =
            parse("x\n// expected-error @below {{a}}\n// just a comment\ny\n// c\n// expected-error @above {{b}}\n");
        assert_eq!(e.diags[0].line, Some(3));
        assert_eq!(e.diags[1].line, Some(5));
        // `@above` on the first line points at line 1; dangling `@below`
        // points at the last line.
        let e = parse("// expected-error @above {{a}}\n// expected-error @below {{b}}");
        assert_eq!(e.diags[0].line, Some(1));
        assert_eq!(e.diags[1].line, Some(2));
        // With a trailing newline, the empty last line is the one below.
        let e = parse("// expected-error @below {{b}}\n");
        assert_eq!(e.diags[0].line, Some(2));
    }

    #[test]
    fn substring_semantics() {
        let e = parse("// expected-error {{}}\n// expected-error {{a {{b}} c}}\n// expected-error {{x}} {{y}}\n");
        assert!(e.diags[0].matches("anything"));
        assert_eq!(e.diags[1].text, "a {{b}} c");
        assert!(e.diags[1].matches("1 a {{b}} c 2"));
        assert!(!e.diags[1].matches("a b c"));
        // Greedy: from the first `{{` to the last `}}`.
        assert_eq!(e.diags[2].text, "x}} {{y");
    }

    #[test]
    fn regex_forms_and_errors() {
        let e = parse(
            "\
// expected-error-re {{^lit$ {{.*}}}}
// expected-error-re @+1 {{op has {{[0-9+ operands}}
// expected-error-re @+1 {{op has {{[0-9}} operands}}
// expected-error-re {{{{a|b}}c}}
",
        );
        // `^` and `$` outside a block are literal.
        assert!(e.diags[0].matches("^lit$ tail"));
        assert!(!e.diags[0].matches("lit "));
        // The alternation is grouped.
        assert!(e.diags[1].matches("ac") && e.diags[1].matches("bc") && !e.diags[1].matches("a"));
        assert_eq!(e.diags.len(), 2);
        assert_eq!(e.errors.len(), 2);
        assert_eq!(
            e.errors[0].to_string(),
            "t.mlir:2:4: error: found start of regex with no end '}}'"
        );
        assert_eq!(e.errors[0].width, "op has {{[0-9+ operands".len() as u32);
        assert!(
            e.errors[1]
                .to_string()
                .starts_with("t.mlir:3:4: error: invalid regex: "),
            "{}",
            e.errors[1]
        );
    }

    #[test]
    fn not_directives() {
        // mlir-opt ignores these lines entirely; so do we (no error).
        let e = parse("expected-errors {{x}}\nexpected-error: x\nunexpected-thing\nexpected-\nexpected-error\n");
        assert!(e.diags.is_empty() && e.errors.is_empty(), "{:?}", e);
    }

    #[test]
    fn malformed_directives_are_reported() {
        let e = parse(
            "\
// expected-error @+ {{no number}}
// expected-error @foo {{bad}}
// expected-error @+1 2 {{count}}
// expected-warning {{unterminated
// expected-note {{x}} trailing
// expected-error @+50 {{past end}}
// expected-error @-50 {{before start}}
// expected-remark-re @ {{x}}
// expected-error @+01 {{octal}}
// expected-error @+1 x {{y}}
x
",
        );
        assert!(e.diags.is_empty(), "{:?}", e.diags);
        assert_eq!(
            errors(&e),
            vec![
                "t.mlir:1:4: error: invalid designator '@+' in 'expected-error' (expected @+N, @-N, @above, @below or @unknown)",
                "t.mlir:2:4: error: invalid designator '@foo' in 'expected-error' (expected @+N, @-N, @above, @below or @unknown)",
                "t.mlir:3:4: error: expected '{{' after 'expected-error', found '2 {{count}' (a count is not supported)",
                "t.mlir:4:4: error: 'expected-warning' must end with '}}' at the end of the line",
                "t.mlir:5:4: error: 'expected-note' must end with '}}' at the end of the line",
                "t.mlir:6:4: error: expected-error designator '@+50' points to line 56, past the end of the file (12 lines)",
                "t.mlir:7:4: error: expected-error designator '@-50' points before the first line of the file",
                "t.mlir:8:4: error: invalid designator '@' in 'expected-remark-re' (expected @+N, @-N, @above, @below or @unknown)",
                "t.mlir:9:4: error: expected-error designator '@+01' has a leading zero (mlir-opt reads it as an octal number)",
                "t.mlir:10:4: error: expected '{{' after 'expected-error', found 'x {{y}}'",
            ]
        );
    }

    #[test]
    fn malformed_lines_are_plain_lines_for_above_below() {
        // As in mlir-opt, a line that is not a valid directive is a target
        // for `@below` / `@above`.
        let e = parse("// expected-error @below {{a}}\n// expected-error @+ {{b}}\n// expected-error @above {{c}}\n");
        assert_eq!(e.diags[0].line, Some(2));
        assert_eq!(e.diags[1].line, Some(2));
        assert_eq!(e.errors.len(), 1);
    }

    #[test]
    fn positions_on_long_files() {
        let mut text = String::new();
        for i in 0..1000 {
            if i % 100 == 0 {
                text.push_str(&format!("// expected-error @+1 {{{{e{i}}}}}\n"));
            } else {
                text.push_str("\"test.op\"() : () -> ()\n");
            }
        }
        let e = parse(&text);
        assert_eq!(e.diags.len(), 10);
        for (k, d) in e.diags.iter().enumerate() {
            assert_eq!(d.pos.line as usize, k * 100 + 1);
            assert_eq!(d.line, Some(k as u32 * 100 + 2));
            assert_eq!(d.text, format!("e{}", k * 100));
        }
    }

    #[test]
    fn several_directives_on_one_line_use_the_first_valid_one() {
        let e = parse("// expected-error {{a}} expected-error {{b}}\n");
        assert_eq!(e.diags.len(), 1);
        assert_eq!(e.diags[0].text, "a}} expected-error {{b");
    }
}
