//! Finding the directives of a check file: prefixes, suffixes (`-NEXT`, `-COUNT-3`,
//! `{LITERAL}`), comment directives, and grouping `DAG`/`NOT` directives with the positive
//! directive that follows them.

use super::check_type::{CheckKind, CheckType};
use super::pattern::{Loc, Pattern, PatternOptions};
use super::source::{Severity, SourceFile};

/// A positive directive with the `CHECK-DAG`/`CHECK-NOT` directives written before it.
#[derive(Debug)]
pub(crate) struct CheckString {
    /// The positive pattern (or the implicit end-of-input pattern).
    pub pat: Pattern,
    /// The prefix it was written with; FileCheck names its DAG and NOT directives with it
    /// too (the first prefix for the end-of-input pattern).
    pub prefix: String,
    /// The DAG and NOT patterns to verify before it, in order.
    pub dag_nots: Vec<Pattern>,
}

/// Everything the directive reader needs to know.
pub(crate) struct ReadOptions<'a> {
    pub check_prefixes: &'a [String],
    pub comment_prefixes: &'a [String],
    pub allow_unused_prefixes: bool,
    pub pattern: PatternOptions,
}

/// What follows a prefix.
enum Found {
    /// Not a directive after all.
    None,
    /// A comment directive (`COM:`, `RUN:`); the rest of the line is ignored.
    Comment,
    /// A directive of this type whose pattern starts at the given offset.
    Directive(CheckType, usize),
    /// `-NOT` combined with another suffix.
    BadNot,
    /// A malformed `-COUNT-N`; the offset where parsing stopped.
    BadCount(usize),
    /// `PREFIX_NEXT:` and the like.
    Misspelled(usize),
}

fn is_part_of_word(b: u8) -> bool {
    b.is_ascii_alphanumeric() || b == b'-' || b == b'_'
}

/// Works out the directive at `at` (just after `prefix`) in `text`.
fn check_type(text: &str, at: usize, is_comment: bool) -> Found {
    let rest = &text[at..];
    if is_comment {
        return if rest.starts_with(':') {
            Found::Comment
        } else {
            Found::None
        };
    }
    let with_modifiers = |mut ty: CheckType, rest: &str| -> Found {
        let consumed = text.len() - rest.len();
        if rest.starts_with(':') {
            return Found::Directive(ty, consumed + 1);
        }
        let Some(mut r) = rest.strip_prefix('{') else {
            return Found::None;
        };
        loop {
            r = r.trim_start();
            let Some(after) = r.strip_prefix("LITERAL") else {
                return Found::None;
            };
            ty.literal = true;
            r = after.trim_start();
            match r.strip_prefix(',') {
                Some(after) => r = after,
                None => break,
            }
        }
        match r.strip_prefix("}:") {
            Some(after) => Found::Directive(ty, text.len() - after.len()),
            None => Found::None,
        }
    };
    if rest.starts_with(':') || rest.starts_with('{') {
        return with_modifiers(CheckType::new(CheckKind::Plain), rest);
    }
    let (misspelled, rest) = if let Some(r) = rest.strip_prefix('_') {
        (true, r)
    } else if let Some(r) = rest.strip_prefix('-') {
        (false, r)
    } else {
        return Found::None;
    };
    let found = if let Some(r) = rest.strip_prefix("COUNT-") {
        let digits = r.bytes().take_while(u8::is_ascii_digit).count();
        let count: Option<usize> = r[..digits].parse().ok().filter(|c| *c > 0 && *c <= i32::MAX as usize);
        let after = &r[digits..];
        match count {
            Some(count) if after.starts_with(':') || after.starts_with('{') => {
                let ty = CheckType {
                    kind: CheckKind::Plain,
                    count,
                    literal: false,
                };
                with_modifiers(ty, after)
            }
            _ => return Found::BadCount(text.len() - after.len()),
        }
    } else {
        const BAD_NOT: [&str; 8] = [
            "DAG-NOT:",
            "NOT-DAG:",
            "NEXT-NOT:",
            "NOT-NEXT:",
            "SAME-NOT:",
            "NOT-SAME:",
            "EMPTY-NOT:",
            "NOT-EMPTY:",
        ];
        if BAD_NOT.iter().any(|b| rest.starts_with(b)) {
            return Found::BadNot;
        }
        const SUFFIXES: [(&str, CheckKind); 6] = [
            ("NEXT", CheckKind::Next),
            ("SAME", CheckKind::Same),
            ("NOT", CheckKind::Not),
            ("DAG", CheckKind::Dag),
            ("LABEL", CheckKind::Label),
            ("EMPTY", CheckKind::Empty),
        ];
        match SUFFIXES.iter().find(|(s, _)| rest.starts_with(s)) {
            Some((s, kind)) => with_modifiers(CheckType::new(*kind), &rest[s.len()..]),
            None => Found::None,
        }
    };
    match found {
        Found::Directive(_, end) if misspelled => Found::Misspelled(end),
        other => other,
    }
}

/// Reads the directives of `buffers[0]` (the check file). `implicit` are the parsed
/// `--implicit-check-not` patterns. Diagnostics go to `out`; `Err` means exit status 2.
pub(crate) fn read_check_file(
    buffers: &[SourceFile],
    implicit: &[Pattern],
    opts: &ReadOptions,
    out: &mut String,
) -> Result<Vec<CheckString>, ()> {
    let check = &buffers[0];
    let text = check.text.as_str();
    let mut all: Vec<(&str, bool)> = opts
        .check_prefixes
        .iter()
        .map(|p| (p.as_str(), false))
        .chain(opts.comment_prefixes.iter().map(|p| (p.as_str(), true)))
        .collect();
    // Longest first, so that the leftmost match is also the longest.
    all.sort_by_key(|(p, _)| std::cmp::Reverse(p.len()));
    let alternation: Vec<String> = all.iter().map(|(p, _)| regex::escape(p)).collect();
    let prefix_re = regex::Regex::new(&alternation.join("|")).expect("escaped prefixes");
    let strict_full = opts.pattern.strict_whitespace && opts.pattern.match_full_lines;

    let error = |out: &mut String, offset: usize, msg: &str| {
        check.message(out, offset, Severity::Error, msg, None);
    };
    let mut used = vec![false; opts.check_prefixes.len()];
    let mut strings: Vec<CheckString> = Vec::new();
    let mut dag_nots: Vec<Pattern> = implicit.to_vec();
    let mut pos = 0;
    while let Some(m) = prefix_re.find_at(text, pos) {
        let (start, prefix) = (m.start(), m.as_str());
        let is_comment = all.iter().any(|(p, c)| *p == prefix && *c);
        let standalone = start == 0 || !is_part_of_word(text.as_bytes()[start - 1]);
        let found = if standalone {
            check_type(text, m.end(), is_comment)
        } else {
            Found::None
        };
        let after = match found {
            Found::None => {
                pos = m.end() + text[m.end()..].bytes().take_while(|b| is_part_of_word(*b)).count();
                continue;
            }
            Found::BadNot => {
                error(
                    out,
                    m.end() + 1,
                    &format!("unsupported -NOT combo on prefix '{prefix}'"),
                );
                return Err(());
            }
            Found::BadCount(at) => {
                error(
                    out,
                    at,
                    &format!("invalid count in -COUNT specification on prefix '{prefix}'"),
                );
                return Err(());
            }
            Found::Misspelled(end) => {
                error(out, start, &format!("misspelled directive '{}'", &text[start..end]));
                return Err(());
            }
            Found::Comment => {
                pos = text[m.end()..].find('\n').map_or(text.len(), |i| m.end() + i);
                continue;
            }
            Found::Directive(ty, after) => (ty, after),
        };
        let (ty, mut pat_start) = after;
        if let Some(i) = opts.check_prefixes.iter().position(|p| p == prefix) {
            used[i] = true;
        }
        if !strict_full {
            pat_start += text[pat_start..]
                .bytes()
                .take_while(|b| *b == b' ' || *b == b'\t')
                .count();
        }
        let eol = text[pat_start..]
            .find(['\n', '\r'])
            .map_or(text.len(), |i| pat_start + i);
        let mut pat_text = &text[pat_start..eol];
        if !strict_full {
            pat_text = pat_text.trim_end_matches([' ', '\t']);
        }
        pos = eol;
        let line = check.line_col(pat_start).0;
        if pat_text.is_empty() && ty.kind != CheckKind::Empty {
            error(
                out,
                pat_start,
                &format!("found empty check string with prefix '{prefix}:'"),
            );
            return Err(());
        }
        if !pat_text.is_empty() && ty.kind == CheckKind::Empty {
            error(
                out,
                pat_start,
                &format!("found non-empty check string for empty check with prefix '{prefix}:'"),
            );
            return Err(());
        }
        let loc = Loc {
            buffer: 0,
            offset: pat_start,
            len: pat_text.len(),
        };
        let pat = match Pattern::parse(ty, pat_text, loc, line, opts.pattern) {
            Ok(p) => p,
            Err(e) => {
                buffers[e.loc.buffer].message(out, e.loc.offset, Severity::Error, &e.msg, None);
                return Err(());
            }
        };
        if ty.kind == CheckKind::Label && pat.has_variables() {
            error(
                out,
                start,
                &format!("found '{prefix}-LABEL:' with variable definition or use"),
            );
            return Err(());
        }
        if matches!(ty.kind, CheckKind::Next | CheckKind::Same | CheckKind::Empty) && strings.is_empty() {
            let name = match ty.kind {
                CheckKind::Next => "NEXT",
                CheckKind::Same => "SAME",
                _ => "EMPTY",
            };
            error(
                out,
                start,
                &format!("found '{prefix}-{name}' without previous '{prefix}: line"),
            );
            return Err(());
        }
        if matches!(ty.kind, CheckKind::Dag | CheckKind::Not) {
            dag_nots.push(pat);
            continue;
        }
        let pending = std::mem::replace(&mut dag_nots, implicit.to_vec());
        strings.push(CheckString {
            pat,
            prefix: prefix.to_string(),
            dag_nots: pending,
        });
    }
    if !dag_nots.is_empty() {
        let loc = Loc {
            buffer: 0,
            offset: text.len(),
            len: 0,
        };
        let prefix = opts.check_prefixes[0].clone();
        strings.push(CheckString {
            pat: Pattern::eof(loc),
            prefix,
            dag_nots,
        });
    }
    let unused: Vec<&String> = opts
        .check_prefixes
        .iter()
        .zip(&used)
        .filter(|(_, u)| !**u)
        .map(|(p, _)| p)
        .collect();
    let report_unused = if opts.allow_unused_prefixes {
        unused.len() == opts.check_prefixes.len()
    } else {
        !unused.is_empty()
    };
    if report_unused {
        let list: Vec<String> = unused.iter().map(|p| format!("'{p}:'")).collect();
        let plural = if unused.len() > 1 { "es" } else { "" };
        out.push_str(&format!(
            "error: no check strings found with prefix{plural} {}\n",
            list.join(", ")
        ));
        return Err(());
    }
    Ok(strings)
}
