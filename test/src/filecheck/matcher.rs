//! FileCheck's matching algorithm: `CHECK-LABEL` blocks, then each directive in order with
//! its `CHECK-DAG` groups and `CHECK-NOT` exclusions, `-NEXT`/`-SAME`/`-EMPTY` line rules
//! and `-COUNT` repetitions.

use super::check_type::CheckKind;
use super::directive::CheckString;
use super::dump::{Annotation, Mark};
use super::pattern::{Loc, MatchError, Pattern};
use super::source::{Severity, SourceFile};
use super::vars::Vars;

/// Settings of the matching phase.
#[derive(Debug, Clone, Copy, Default)]
pub(crate) struct MatchOptions {
    pub enable_var_scope: bool,
    pub allow_deprecated_dag_overlap: bool,
}

/// Runs the check strings over the input, writing diagnostics and collecting annotations.
pub(crate) struct Matcher<'a> {
    buffers: &'a [SourceFile],
    input: &'a SourceFile,
    opts: MatchOptions,
    /// Variables defined so far.
    pub vars: Vars,
    /// Diagnostics printed so far.
    pub out: String,
    /// Marks for the input dump.
    pub annotations: Vec<Annotation>,
}

impl<'a> Matcher<'a> {
    /// A matcher for `input`; `buffers[0]` is the check file, the rest implicit patterns.
    pub fn new(buffers: &'a [SourceFile], input: &'a SourceFile, vars: Vars, opts: MatchOptions) -> Self {
        Matcher {
            buffers,
            input,
            opts,
            vars,
            out: String::new(),
            annotations: Vec::new(),
        }
    }

    fn text(&self) -> &'a str {
        &self.input.text
    }

    fn pattern_message(&mut self, loc: Loc, msg: &str) {
        self.buffers[loc.buffer].message(&mut self.out, loc.offset, Severity::Error, msg, None);
    }

    fn input_message(&mut self, at: usize, msg: &str, range: Option<(usize, usize)>) {
        self.input.message(&mut self.out, at, Severity::Note, msg, range);
    }

    fn annotate(&mut self, pat: &Pattern, start: usize, end: usize, mark: Mark) {
        self.annotations.push(Annotation::new(pat, start, end, mark));
    }

    /// Checks the whole input; `true` when every directive held.
    pub fn check_input(&mut self, strings: &[CheckString]) -> bool {
        let text_len = self.text().len();
        let mut buffer_start = 0;
        let mut failed = false;
        let (mut i, mut j) = (0, 0);
        loop {
            let region;
            if j == strings.len() {
                region = (buffer_start, text_len);
            } else {
                if strings[j].pat.ty.kind != CheckKind::Label {
                    j += 1;
                    continue;
                }
                let Some((pos, len)) = self.check_string(&strings[j], buffer_start, text_len, true) else {
                    return false;
                };
                region = (buffer_start, pos + len);
                buffer_start = pos + len;
                j += 1;
            }
            if i != 0 && self.opts.enable_var_scope {
                self.vars.clear_locals();
            }
            let mut from = region.0;
            while i != j {
                match self.check_string(&strings[i], from, region.1, false) {
                    Some((pos, len)) => from = pos + len,
                    None => {
                        failed = true;
                        i = j;
                        break;
                    }
                }
                i += 1;
            }
            if j == strings.len() {
                break;
            }
        }
        !failed
    }

    /// Matches one check string in `[start, end)`; returns the match position and length
    /// (from the first to the last match of a `-COUNT`).
    fn check_string(&mut self, cs: &CheckString, start: usize, end: usize, label_scan: bool) -> Option<(usize, usize)> {
        let pat = &cs.pat;
        let mut nots: Vec<&Pattern> = Vec::new();
        let last_pos = if label_scan {
            start
        } else {
            self.check_dag(cs, start, end, &mut nots)?
        };
        let mut last_match_end = last_pos;
        let mut first_match = last_pos;
        for n in 1..=pat.ty.count {
            let buf = &self.text()[last_match_end..end];
            match pat.find(buf, &mut self.vars) {
                Err(e) => {
                    self.report_pattern_error(pat, &e, last_match_end, end, true);
                    return None;
                }
                Ok(None) => {
                    self.report_no_match(pat, &cs.prefix, n, last_match_end, end);
                    return None;
                }
                Ok(Some(m)) => {
                    let (s, e) = (last_match_end + m.start, last_match_end + m.end);
                    if !label_scan && pat.ty.kind != CheckKind::Eof {
                        self.annotate(pat, s, e, Mark::Good);
                    }
                    if n == 1 {
                        first_match = s;
                    }
                    last_match_end = e;
                }
            }
        }
        if !label_scan {
            if self.check_next(pat, &cs.prefix, last_pos, first_match)
                || self.check_same(pat, &cs.prefix, last_pos, first_match)
            {
                if let Some(a) = self.annotations.last_mut() {
                    a.mark = Mark::WrongLine;
                }
                return None;
            }
            if self.check_not(&cs.prefix, &nots, last_pos, first_match) {
                return None;
            }
        }
        Some((first_match, last_match_end - first_match))
    }

    /// Matches the DAG groups of `cs` from `start`, collecting the NOT patterns that are
    /// still to be checked before the positive directive. Returns where that one searches.
    fn check_dag<'p>(
        &mut self,
        cs: &'p CheckString,
        start: usize,
        end: usize,
        nots: &mut Vec<&'p Pattern>,
    ) -> Option<usize> {
        if cs.dag_nots.is_empty() {
            return Some(start);
        }
        let mut start_pos = start;
        // Sorted, non-overlapping ranges of the current group's matches.
        let mut ranges: Vec<(usize, usize)> = Vec::new();
        for (idx, pat) in cs.dag_nots.iter().enumerate() {
            if pat.ty.kind == CheckKind::Not {
                nots.push(pat);
                continue;
            }
            let mut match_pos = start_pos;
            let mut mi = 0;
            loop {
                let buf = &self.text()[match_pos..end];
                let m = match pat.find(buf, &mut self.vars) {
                    Err(e) => {
                        self.report_pattern_error(pat, &e, match_pos, end, true);
                        return None;
                    }
                    Ok(None) => {
                        self.report_no_match(pat, &cs.prefix, 1, match_pos, end);
                        return None;
                    }
                    Ok(Some(m)) => (match_pos + m.start, match_pos + m.end),
                };
                if self.opts.allow_deprecated_dag_overlap {
                    let at = ranges.partition_point(|r| r.0 <= m.0);
                    ranges.insert(at, m);
                    self.annotate(pat, m.0, m.1, Mark::Good);
                    break;
                }
                let mut overlap = false;
                while mi < ranges.len() {
                    if m.0 < ranges[mi].1 {
                        overlap = ranges[mi].0 < m.1;
                        break;
                    }
                    mi += 1;
                }
                if !overlap {
                    ranges.insert(mi, m);
                    self.annotate(pat, m.0, m.1, Mark::Good);
                    break;
                }
                match_pos = ranges[mi].1;
                mi += 1;
            }
            let group_ends = cs
                .dag_nots
                .get(idx + 1)
                .is_none_or(|next| next.ty.kind == CheckKind::Not);
            if group_ends {
                if !nots.is_empty() {
                    let first = ranges.first().map_or(start_pos, |r| r.0);
                    if self.check_not(&cs.prefix, nots, start_pos, first) {
                        return None;
                    }
                    nots.clear();
                }
                start_pos = ranges.iter().map(|r| r.1).max().unwrap_or(start_pos);
                ranges.clear();
            }
        }
        Some(start_pos)
    }

    /// Verifies that no NOT pattern matches in `[from, to)`; `true` on failure.
    fn check_not(&mut self, prefix: &str, nots: &[&Pattern], from: usize, to: usize) -> bool {
        let mut failed = false;
        for pat in nots {
            let buf = &self.text()[from..to];
            match pat.find(buf, &mut self.vars) {
                Err(e) => {
                    self.report_pattern_error(pat, &e, from, to, false);
                    failed = true;
                }
                Ok(None) => {}
                Ok(Some(m)) => {
                    let (s, e) = (from + m.start, from + m.end);
                    let msg = format!("{}: excluded string found in input", pat.ty.describe(prefix));
                    self.pattern_message(pat.loc, &msg);
                    self.input_message(s, "found here", Some((s, e)));
                    for note in pat.substitution_notes(&self.vars) {
                        self.input_message(s, &note, None);
                    }
                    self.annotate(pat, s, e, Mark::Excluded);
                    failed = true;
                }
            }
        }
        failed
    }

    /// For `-NEXT` and `-EMPTY`: exactly one newline between `prev_end` and `match_start`.
    fn check_next(&mut self, pat: &Pattern, prefix: &str, prev_end: usize, match_start: usize) -> bool {
        let suffix = match pat.ty.kind {
            CheckKind::Next => "-NEXT",
            CheckKind::Empty => "-EMPTY",
            _ => return false,
        };
        let name = format!("{prefix}{suffix}");
        let (count, first_line) = count_newlines(&self.text()[prev_end..match_start]);
        if count == 1 {
            return false;
        }
        let msg = if count == 0 {
            format!("{name}: is on the same line as previous match")
        } else {
            format!("{name}: is not on the line after the previous match")
        };
        self.pattern_message(pat.loc, &msg);
        self.input_message(match_start, "'next' match was here", None);
        self.input_message(prev_end, "previous match ended here", None);
        if count > 1 {
            let at = prev_end + first_line.expect("a newline was counted");
            self.input_message(at, "non-matching line after previous match is here", None);
        }
        true
    }

    /// For `-SAME`: no newline between `prev_end` and `match_start`.
    fn check_same(&mut self, pat: &Pattern, prefix: &str, prev_end: usize, match_start: usize) -> bool {
        if pat.ty.kind != CheckKind::Same {
            return false;
        }
        if count_newlines(&self.text()[prev_end..match_start]).0 == 0 {
            return false;
        }
        let msg = format!("{prefix}-SAME: is not on the same line as the previous match");
        self.pattern_message(pat.loc, &msg);
        self.input_message(match_start, "'next' match was here", None);
        self.input_message(prev_end, "previous match ended here", None);
        true
    }

    /// Reports a pattern that could not be matched at all (e.g. an undefined variable);
    /// `expected` for positive directives, which also get a fuzzy-match note.
    fn report_pattern_error(&mut self, pat: &Pattern, e: &MatchError, from: usize, end: usize, expected: bool) {
        match e {
            MatchError::Undefined(uses) => {
                for (name, loc) in uses {
                    self.pattern_message(*loc, &format!("undefined variable: {name}"));
                }
                for note in pat.substitution_notes(&self.vars) {
                    self.input_message(from, &note, None);
                }
            }
            MatchError::Other(msg, loc) => self.pattern_message(*loc, msg),
        }
        self.annotate(pat, from, end, Mark::InvalidPattern);
        let messages: Vec<String> = match e {
            MatchError::Undefined(uses) => uses.iter().map(|(n, _)| format!("undefined variable: {n}")).collect(),
            MatchError::Other(msg, _) => vec![msg.clone()],
        };
        for m in messages {
            self.annotations.push(Annotation::pattern_error(pat, from, m));
        }
        if expected {
            self.report_fuzzy_match(pat, from, end);
        }
    }

    /// Reports that `pat` (its `n`th repetition) was not found in `[from, end)`.
    fn report_no_match(&mut self, pat: &Pattern, prefix: &str, n: usize, from: usize, end: usize) {
        let mut msg = format!("{}: expected string not found in input", pat.ty.describe(prefix));
        if pat.ty.count > 1 {
            msg.push_str(&format!(" ({} out of {})", n, pat.ty.count));
        }
        self.pattern_message(pat.loc, &msg);
        let scan = from;
        self.input_message(scan, "scanning from here", None);
        for note in pat.substitution_notes(&self.vars) {
            self.input_message(scan, &note, None);
        }
        self.annotate(pat, scan, end, Mark::NoMatch);
        self.report_fuzzy_match(pat, scan, end);
    }

    /// Notes the place in `[scan, end)` most similar to `pat` (within 4096 bytes of
    /// `scan`), if it is similar enough and not `scan` itself.
    fn report_fuzzy_match(&mut self, pat: &Pattern, scan: usize, end: usize) {
        let buf = &self.text()[scan..end];
        let mut best: Option<(usize, f64)> = None;
        let mut lines = 0usize;
        for (i, b) in buf.bytes().enumerate().take(4096) {
            if b == b'\n' {
                lines += 1;
            }
            if b == b' ' || b == b'\t' || !buf.is_char_boundary(i) {
                continue;
            }
            let quality = pat.match_distance(&buf[i..]) as f64 + lines as f64 / 100.0;
            if best.is_none_or(|(_, q)| quality < q) {
                best = Some((i, quality));
            }
        }
        if let Some((i, q)) = best {
            if i != 0 && q < 50.0 {
                self.input_message(scan + i, "possible intended match here", None);
                self.annotate(pat, scan + i, scan + i, Mark::Fuzzy);
            }
        }
    }
}

/// Counts line breaks (`\n`, `\r`, and `\r\n`/`\n\r` pairs as one) in `s`; also returns
/// the offset just after the first one.
fn count_newlines(s: &str) -> (usize, Option<usize>) {
    let b = s.as_bytes();
    let (mut count, mut first, mut i) = (0, None, 0);
    while i < b.len() {
        if b[i] == b'\n' || b[i] == b'\r' {
            count += 1;
            if i + 1 < b.len() && (b[i + 1] == b'\n' || b[i + 1] == b'\r') && b[i] != b[i + 1] {
                i += 1;
            }
            if count == 1 {
                first = Some(i + 1);
            }
        }
        i += 1;
    }
    (count, first)
}
