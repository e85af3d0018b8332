//! The annotated input dump printed after a failure (`--dump-input=fail`), in the layout of
//! LLVM FileCheck: numbered input lines with `^~~`, `X~~ error: no match found`, ... marks.

use std::collections::HashMap;
use std::fmt::Write as _;

use super::pattern::Pattern;
use super::source::SourceFile;

/// What happened at an annotated place.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Mark {
    /// A directive matched here.
    Good,
    /// A directive was searched for from here and not found.
    NoMatch,
    /// The most similar text to a directive that was not found.
    Fuzzy,
    /// A `CHECK-NOT` pattern matched here.
    Excluded,
    /// A `-NEXT`/`-SAME`/`-EMPTY` directive matched on the wrong line.
    WrongLine,
    /// A directive could not be matched (e.g. undefined variable).
    InvalidPattern,
    /// The error that made a pattern invalid: no mark, the message after the line.
    PatternError,
}

impl Mark {
    fn lead(self) -> char {
        match self {
            Mark::Good => '^',
            Mark::NoMatch | Mark::InvalidPattern => 'X',
            Mark::Fuzzy => '?',
            Mark::Excluded | Mark::WrongLine => '!',
            Mark::PatternError => ' ',
        }
    }

    fn note(self) -> &'static str {
        match self {
            Mark::Good => "",
            Mark::NoMatch => "error: no match found",
            Mark::Fuzzy => "possible intended match",
            Mark::Excluded => "error: no match expected",
            Mark::WrongLine => "error: match on wrong line",
            Mark::InvalidPattern => "error: match failed for invalid pattern",
            Mark::PatternError => "",
        }
    }

    /// Whether `--dump-input-filter=error` shows the line (fuzzy matches belong to errors).
    fn is_error(self) -> bool {
        self != Mark::Good
    }
}

/// One mark on the input, made by one directive.
#[derive(Debug, Clone)]
pub(crate) struct Annotation {
    /// The directive's location (buffer, offset), identifying it.
    key: (usize, usize),
    abbrev: &'static str,
    /// Line of the directive in the check file, or `None` for implicit patterns.
    check_line: Option<usize>,
    /// Index of the implicit pattern (1-based) when `check_line` is `None`.
    imp: usize,
    start: usize,
    end: usize,
    /// What happened.
    pub mark: Mark,
    /// The message of a [`Mark::PatternError`].
    message: Option<String>,
}

impl Annotation {
    /// A mark for `pat` over input bytes `[start, end)`.
    pub fn new(pat: &Pattern, start: usize, end: usize, mark: Mark) -> Self {
        let implicit = pat.loc.buffer != 0;
        Annotation {
            key: (pat.loc.buffer, pat.loc.offset),
            abbrev: pat.ty.abbrev(),
            check_line: (!implicit).then_some(pat.line),
            imp: pat.loc.buffer,
            start,
            end,
            mark,
            message: None,
        }
    }

    /// A [`Mark::PatternError`] for `pat` at input byte `at`, carrying `message`.
    pub fn pattern_error(pat: &Pattern, at: usize, message: String) -> Self {
        Annotation {
            message: Some(message),
            ..Annotation::new(pat, at, at, Mark::PatternError)
        }
    }
}

/// Which input lines the dump shows.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum DumpFilter {
    /// Every line.
    All,
    /// Lines touched by an annotation.
    AnnotationFull,
    /// Lines where an annotation starts.
    Annotation,
    /// Lines where an error annotation starts.
    Error,
}

/// One rendered annotation line, attached to an input line.
struct Row {
    line: usize,
    label: String,
    start_col: usize,
    /// Exclusive end column; `None` runs to the end of the line.
    end_col: Option<usize>,
    lead: char,
    note: String,
    starts_here: bool,
    error: bool,
}

/// How much of the input the dump shows.
#[derive(Debug, Clone, Copy)]
pub(crate) struct DumpSettings {
    /// Which lines are shown (with `context` lines around them).
    pub filter: DumpFilter,
    /// Lines shown before and after each line the filter selects.
    pub context: usize,
    /// Also mark good matches.
    pub verbose: bool,
}

/// Appends the annotated dump of `input` to `out`.
pub(crate) fn dump(
    out: &mut String,
    input: &SourceFile,
    check_name: &str,
    annotations: &[Annotation],
    settings: DumpSettings,
) {
    let DumpSettings {
        filter,
        context,
        verbose,
    } = settings;
    let input_name = &input.name;
    let annotations: Vec<&Annotation> = annotations.iter().filter(|a| verbose || a.mark != Mark::Good).collect();
    let _ = write!(
        out,
        "\nInput file: {input_name}\nCheck file: {check_name}\n\n\
         -dump-input=help explains the following input dump.\n\nInput was:\n<<<<<<\n"
    );
    // Labels: `check:12`, with `'N` when a directive made several marks.
    let mut per_key: HashMap<(usize, usize), usize> = HashMap::new();
    for a in &annotations {
        *per_key.entry(a.key).or_default() += 1;
    }
    let mut seen: HashMap<(usize, usize), usize> = HashMap::new();
    let nlines = input.line_count().max(1);
    let mut rows: Vec<Row> = Vec::new();
    for a in &annotations {
        let mut label = match a.check_line {
            Some(l) => format!("{}:{}", a.abbrev, l),
            None => format!("{}:imp{}", a.abbrev, a.imp),
        };
        if per_key[&a.key] > 1 {
            let n = seen.entry(a.key).or_default();
            label.push_str(&format!("'{n}"));
            *n += 1;
        }
        let (first, first_col) = clamp(input, a.start);
        let (last, last_col) = if a.end > a.start {
            clamp(input, a.end - 1)
        } else {
            (first, first_col)
        };
        for line in first..=last {
            let start_col = if line == first { first_col } else { 0 };
            let end_col = if line == last {
                Some(last_col.max(start_col) + 1)
            } else {
                None
            };
            rows.push(Row {
                line,
                label: label.clone(),
                start_col,
                end_col,
                lead: if line == first { a.mark.lead() } else { '~' },
                note: match (&a.message, line == first) {
                    (Some(m), true) => m.clone(),
                    (None, true) => a.mark.note().to_string(),
                    (_, false) => String::new(),
                },
                starts_here: line == first,
                error: a.mark.is_error(),
            });
        }
    }
    rows.sort_by_key(|r| r.line);

    let mut shown = vec![filter == DumpFilter::All; nlines];
    for r in &rows {
        let wanted = match filter {
            DumpFilter::All | DumpFilter::AnnotationFull => true,
            DumpFilter::Annotation => r.starts_here,
            DumpFilter::Error => r.starts_here && r.error,
        };
        if wanted {
            let lo = r.line.saturating_sub(context);
            let hi = (r.line + context).min(nlines - 1);
            shown[lo..=hi].iter_mut().for_each(|s| *s = true);
        }
    }
    let digits = nlines.to_string().len();
    let width = rows.iter().map(|r| r.label.len()).max().unwrap_or(0).max(digits) + 3;
    let mut row = rows.iter().peekable();
    // Hidden lines are buffered: an ellipsis replaces them only when it is shorter.
    let mut hidden = String::new();
    for (line, show) in shown.iter().enumerate() {
        let mut block = String::new();
        let (ls, le) = input.line_range(line.min(input.line_count().saturating_sub(1)));
        let text = if line < input.line_count() {
            &input.text[ls..le]
        } else {
            ""
        };
        // A line's newline shows as a space, so that marks on it are visible.
        let has_newline = le < input.text.len();
        let _ = writeln!(
            block,
            "{:>width$}: {}{}",
            line + 1,
            text,
            if has_newline { " " } else { "" }
        );
        let line_width = text.len() + usize::from(has_newline);
        while let Some(r) = row.next_if(|r| r.line == line) {
            let mut s = format!("{:<width$}  ", r.label);
            s.push_str(&" ".repeat(r.start_col));
            s.push(r.lead);
            // `end` is exclusive; `col` counts the columns written so far.
            let end = r.end_col.unwrap_or(line_width).min(line_width.max(r.start_col + 1));
            let mut col = r.start_col + 1;
            while col < end {
                s.push('~');
                col += 1;
            }
            if !r.note.is_empty() {
                while col < line_width {
                    s.push(' ');
                    col += 1;
                }
                s.push(' ');
                s.push_str(&r.note);
            }
            block.push_str(s.trim_end());
            block.push('\n');
        }
        if *show {
            flush_hidden(out, &mut hidden, width);
            out.push_str(&block);
        } else {
            hidden.push_str(&block);
        }
    }
    flush_hidden(out, &mut hidden, width);
    out.push_str(">>>>>>\n");
}

/// Prints the buffered hidden lines, or a three-line ellipsis when that is shorter.
fn flush_hidden(out: &mut String, hidden: &mut String, width: usize) {
    if hidden.matches('\n').count() > 3 {
        for _ in 0..3 {
            let _ = writeln!(out, "{:>width$}", ".");
        }
    } else {
        out.push_str(hidden);
    }
    hidden.clear();
}

/// Line index and column of byte `offset`, attaching the end of the input to the last line.
fn clamp(input: &SourceFile, offset: usize) -> (usize, usize) {
    let line = input.line_index(offset);
    let lines = input.line_count().max(1);
    if line < lines {
        let (start, _) = input.line_range(line);
        return (line, offset - start);
    }
    let (start, end) = input.line_range(lines - 1);
    (lines - 1, end - start)
}
