//! One directive's pattern: literal text, `{{regex}}`, `[[VAR:regex]]` definitions,
//! `[[VAR]]` uses and `[[#...]]` numeric blocks, compiled to a regex and matched.

use std::cell::RefCell;
use std::collections::{HashMap, HashSet};

use super::check_type::{CheckKind, CheckType};
use super::numeric::{self, NumFormat};
use super::posix::translate_regex;
use super::template::{compile, group_of, regex_escape, Compiled, Piece, Template};
use super::vars::Vars;

/// Where a pattern (or a part of it) was written: a buffer index and a byte range there.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Loc {
    /// Index of the buffer: 0 is the check file, `1 + i` the `i`th implicit pattern.
    pub buffer: usize,
    /// Byte offset in that buffer.
    pub offset: usize,
    /// Length of the text (0 for a point).
    pub len: usize,
}

#[derive(Debug, Clone)]
enum Body {
    /// Matches the end of the searched text.
    Eof,
    /// `CHECK-EMPTY`: an empty line after the current one.
    Empty,
    /// A plain substring search.
    Fixed(String),
    /// Everything else.
    Regex(Template),
}

/// A successful match: byte range in the searched buffer.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Match {
    pub start: usize,
    pub end: usize,
}

/// Why a pattern could not be matched at all.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum MatchError {
    /// Uses of undefined variables: name and location of each.
    Undefined(Vec<(String, Loc)>),
    /// Another error (a bad numeric value, an invalid regex), at a location.
    Other(String, Loc),
}

/// A parse error: a message at a location.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct ParseError {
    pub loc: Loc,
    pub msg: String,
}

/// Settings that shape how patterns are parsed.
#[derive(Debug, Clone, Copy, Default)]
pub(crate) struct PatternOptions {
    pub strict_whitespace: bool,
    pub match_full_lines: bool,
    pub ignore_case: bool,
}

/// A parsed directive pattern.
#[derive(Debug, Clone)]
pub(crate) struct Pattern {
    pub ty: CheckType,
    /// Where the pattern text starts.
    pub loc: Loc,
    /// 1-based line of the directive in its buffer (`@LINE`).
    pub line: usize,
    body: Body,
    /// What the fuzzy matcher compares the input with.
    example: String,
}

impl Pattern {
    /// The implicit end-of-input pattern.
    pub fn eof(loc: Loc) -> Self {
        Pattern {
            ty: CheckType::new(CheckKind::Eof),
            loc,
            line: 0,
            body: Body::Eof,
            example: String::new(),
        }
    }

    /// Parses `text`, the pattern of a directive of type `ty` written at `loc` (line `line`).
    pub fn parse(ty: CheckType, text: &str, loc: Loc, line: usize, opts: PatternOptions) -> Result<Self, ParseError> {
        let err = |at: usize, msg: String| ParseError {
            loc: Loc {
                buffer: loc.buffer,
                offset: loc.offset + at,
                len: 0,
            },
            msg,
        };
        let full_lines = opts.match_full_lines && ty.kind != CheckKind::Not;
        let mk = |body, example| Pattern {
            ty,
            loc,
            line,
            body,
            example,
        };
        if ty.kind == CheckKind::Empty {
            // FileCheck's regex for an empty line, which its fuzzy matcher compares with.
            return Ok(mk(Body::Empty, "(\n$)".to_string()));
        }
        let simple = ty.literal || (!text.contains("{{") && !text.contains("[["));
        if simple && !full_lines && !opts.ignore_case {
            return Ok(mk(Body::Fixed(text.to_string()), text.to_string()));
        }
        let mut pieces = Vec::new();
        if ty.literal {
            pieces.push(Piece::Literal(text.to_string()));
        } else {
            let mut defined_here: HashMap<String, String> = HashMap::new();
            let mut numeric_here: HashSet<String> = HashSet::new();
            let mut i = 0;
            while i < text.len() {
                let rest = &text[i..];
                if let Some(body) = rest.strip_prefix("{{") {
                    let end = body
                        .find("}}")
                        .ok_or_else(|| err(i, "found start of regex string with no end '}}'".into()))?;
                    let orig = body[..end].to_string();
                    let re = translate_regex(&orig).map_err(|e| err(i + 2, format!("invalid regex: {e}")))?;
                    pieces.push(Piece::Regex { re, orig });
                    i += end + 4;
                } else if let Some(body) = rest.strip_prefix("[[") {
                    let end = find_var_end(body).map_err(|(at, m)| err(i + 2 + at, m))?;
                    let end = end.ok_or_else(|| err(i, "Invalid substitution block, no ]] found".into()))?;
                    let inner = &body[..end];
                    let inner_loc = Loc {
                        buffer: loc.buffer,
                        offset: loc.offset + i + 2,
                        len: inner.len(),
                    };
                    let group = format!("lfcheck{}", pieces.len());
                    let piece = if let Some(num) = inner.strip_prefix('#') {
                        let block = numeric::parse_block(num, &numeric_here).map_err(|m| err(i + 3, m))?;
                        if let Some(d) = &block.def {
                            numeric_here.insert(d.clone());
                        }
                        let group = block.def.as_ref().map(|_| group);
                        Piece::Num {
                            block,
                            group,
                            loc: inner_loc,
                            raw: inner.to_string(),
                        }
                    } else if inner.starts_with('@') {
                        let block = numeric::parse_legacy_line(inner).map_err(|m| err(i + 2, m))?;
                        Piece::Num {
                            block,
                            group: None,
                            loc: inner_loc,
                            raw: inner.to_string(),
                        }
                    } else {
                        let n = numeric::var_name_len(inner);
                        let (name, after) = inner.split_at(n);
                        if n == 0 {
                            return Err(err(i + 2, format!("invalid variable name in '{inner}'")));
                        }
                        if let Some(orig) = after.strip_prefix(':') {
                            let re =
                                translate_regex(orig).map_err(|e| err(i + 3 + n, format!("invalid regex: {e}")))?;
                            defined_here.insert(name.to_string(), group.clone());
                            Piece::Def {
                                name: name.to_string(),
                                group,
                                regex: re,
                                orig: orig.to_string(),
                            }
                        } else if !after.is_empty() {
                            return Err(err(i + 2 + n, format!("invalid name in string variable use '{inner}'")));
                        } else if let Some(g) = defined_here.get(name) {
                            Piece::Backref { group: g.clone() }
                        } else {
                            Piece::Use {
                                name: name.to_string(),
                                loc: inner_loc,
                            }
                        }
                    };
                    pieces.push(piece);
                    i += end + 4;
                } else {
                    let next = [rest[1..].find("{{"), rest[1..].find("[[")]
                        .into_iter()
                        .flatten()
                        .min()
                        .map_or(rest.len(), |n| n + 1);
                    pieces.push(Piece::Literal(rest[..next].to_string()));
                    i += next;
                }
            }
        }
        let fancy = pieces.iter().any(|p| matches!(p, Piece::Backref { .. }));
        let dynamic = pieces.iter().any(|p| match p {
            Piece::Use { .. } => true,
            Piece::Num { block, .. } => block.expr.is_some(),
            _ => false,
        });
        let mut template = Template {
            pieces,
            full_lines,
            strict: opts.strict_whitespace,
            ignore_case: opts.ignore_case,
            fancy,
            fixed: None,
            cache: RefCell::new(None),
        };
        let full = template.render(&mut |_| Ok("(?:)".to_string())).unwrap_or_default();
        if !dynamic {
            let compiled = compile(&full, fancy).map_err(|e| err(0, format!("invalid regex: {e}")))?;
            template.fixed = Some(compiled);
        }
        let example = template.example();
        Ok(mk(Body::Regex(template), example))
    }

    /// Whether the pattern defines or uses variables (forbidden in `CHECK-LABEL`).
    pub fn has_variables(&self) -> bool {
        match &self.body {
            Body::Regex(t) => t.pieces.iter().any(|p| match p {
                Piece::Def { .. } | Piece::Use { .. } | Piece::Backref { .. } => true,
                Piece::Num { block, .. } => {
                    let mut used = Vec::new();
                    if let Some(e) = &block.expr {
                        e.vars(&mut used);
                    }
                    block.def.is_some() || !used.is_empty()
                }
                _ => false,
            }),
            _ => false,
        }
    }

    /// Searches `buf` (the text from the search start to the end of the region) for the
    /// first match, defining the pattern's variables on success. Offsets are within `buf`.
    pub fn find(&self, buf: &str, vars: &mut Vars) -> Result<Option<Match>, MatchError> {
        match &self.body {
            Body::Eof => Ok(Some(Match {
                start: buf.len(),
                end: buf.len(),
            })),
            Body::Fixed(s) => Ok(buf.find(s.as_str()).map(|start| Match {
                start,
                end: start + s.len(),
            })),
            Body::Empty => {
                // A newline followed by the end of a line; the match starts after it.
                let bytes = buf.as_bytes();
                let mut from = 0;
                while let Some(i) = buf[from..].find('\n').map(|i| i + from) {
                    if i + 1 == bytes.len() || bytes[i + 1] == b'\n' {
                        return Ok(Some(Match {
                            start: i + 1,
                            end: i + 1,
                        }));
                    }
                    from = i + 1;
                }
                Ok(None)
            }
            Body::Regex(t) => self.find_regex(t, buf, vars),
        }
    }

    fn find_regex(&self, t: &Template, buf: &str, vars: &mut Vars) -> Result<Option<Match>, MatchError> {
        let other = |msg: String| MatchError::Other(msg, self.loc);
        let mut undefined = Vec::new();
        let text = t.render(&mut |p| match p {
            Piece::Use { name, loc } => match vars.string(name) {
                Some(v) => Ok(regex_escape(v, t.fancy)),
                None => {
                    undefined.push((name.clone(), Loc { len: 0, ..*loc }));
                    Ok(String::new())
                }
            },
            Piece::Num { block, loc, raw, .. } => {
                let Some(expr) = &block.expr else {
                    unreachable!("wildcard numeric blocks render statically")
                };
                let lookup = |n: &str| vars.number(n);
                match expr.eval(self.line, &lookup) {
                    Ok(v) => {
                        let fmt = block.format.unwrap_or_else(|| implicit_format(expr, vars));
                        let s = fmt.format(v).map_err(|m| MatchError::Other(m, *loc))?;
                        Ok(regex_escape(&s, t.fancy))
                    }
                    Err(numeric::EvalError::Undefined(n)) => {
                        let at = raw.rfind(n.as_str()).unwrap_or(0);
                        undefined.push((
                            n.clone(),
                            Loc {
                                offset: loc.offset + at,
                                len: 0,
                                ..*loc
                            },
                        ));
                        Ok(String::new())
                    }
                    Err(numeric::EvalError::Other(m)) => Err(MatchError::Other(m, *loc)),
                }
            }
            _ => unreachable!(),
        })?;
        if !undefined.is_empty() {
            return Err(MatchError::Undefined(undefined));
        }
        let compiled;
        let re = match &t.fixed {
            Some(re) => re,
            None => {
                let mut cache = t.cache.borrow_mut();
                if cache.as_ref().is_none_or(|(s, _)| *s != text) {
                    let c = compile(&text, t.fancy).map_err(|e| other(format!("invalid regex: {e}")))?;
                    *cache = Some((text.clone(), c));
                }
                compiled = cache.as_ref().expect("cached").1.clone();
                &compiled
            }
        };
        let mut defs: Vec<(usize, String)> = Vec::new();
        let m = match re {
            Compiled::Std(re) => {
                let Some(caps) = re.captures(buf) else { return Ok(None) };
                for (i, p) in t.pieces.iter().enumerate() {
                    if let Some(g) = group_of(p) {
                        if let Some(c) = caps.name(g) {
                            defs.push((i, c.as_str().to_string()));
                        }
                    }
                }
                let all = caps.get(0).expect("group 0");
                Match {
                    start: all.start(),
                    end: all.end(),
                }
            }
            Compiled::Fancy(re) => {
                let caps = re.captures(buf).map_err(|e| other(format!("regex error: {e}")))?;
                let Some(caps) = caps else { return Ok(None) };
                for (i, p) in t.pieces.iter().enumerate() {
                    if let Some(g) = group_of(p) {
                        if let Some(c) = caps.name(g) {
                            defs.push((i, c.as_str().to_string()));
                        }
                    }
                }
                let all = caps.get(0).expect("group 0");
                Match {
                    start: all.start(),
                    end: all.end(),
                }
            }
        };
        for (i, value) in defs {
            match &t.pieces[i] {
                Piece::Def { name, .. } => vars.set_string(name, value),
                Piece::Num { block, loc, .. } => {
                    let name = block.def.as_ref().expect("numeric group has a definition");
                    let fmt = match &block.expr {
                        Some(e) => block.format.unwrap_or_else(|| implicit_format(e, vars)),
                        None => block.format.unwrap_or_default(),
                    };
                    let v = fmt
                        .parse(&value)
                        .ok_or_else(|| MatchError::Other(format!("unable to read numeric value '{value}'"), *loc))?;
                    vars.set_number(name, v, fmt);
                }
                _ => {}
            }
        }
        Ok(Some(m))
    }

    /// The `with "X" equal to "V"` notes for this pattern's substitutions, given the
    /// variables' current values.
    pub fn substitution_notes(&self, vars: &Vars) -> Vec<String> {
        let Body::Regex(t) = &self.body else { return Vec::new() };
        let mut notes = Vec::new();
        for p in &t.pieces {
            match p {
                Piece::Use { name, .. } => {
                    if let Some(v) = vars.string(name) {
                        notes.push(format!("with \"{}\" equal to \"{}\"", name, escape_note(v)));
                    }
                }
                Piece::Num { block, .. } => {
                    if let Some(expr) = &block.expr {
                        let lookup = |n: &str| vars.number(n);
                        if let Ok(v) = expr.eval(self.line, &lookup) {
                            let fmt = block.format.unwrap_or_else(|| implicit_format(expr, vars));
                            if let Ok(s) = fmt.format(v) {
                                notes.push(format!("with \"{}\" equal to \"{}\"", block.expr_text, s));
                            }
                        }
                    }
                }
                _ => {}
            }
        }
        notes
    }

    /// Levenshtein distance between the pattern's example text and the start of `buf`'s
    /// first line, as FileCheck's fuzzy "possible intended match" search uses it.
    pub fn match_distance(&self, buf: &str) -> usize {
        let n = self.example.len().min(buf.len());
        let mut end = n;
        while !buf.is_char_boundary(end) {
            end -= 1;
        }
        let prefix = buf[..end].split('\n').next().unwrap_or("");
        edit_distance(prefix.as_bytes(), self.example.as_bytes())
    }
}

/// The format of a numeric expression without an explicit one: that of its first variable.
fn implicit_format(expr: &numeric::Expr, vars: &Vars) -> NumFormat {
    let mut used = Vec::new();
    expr.vars(&mut used);
    used.iter()
        .find_map(|v| vars.number(v).map(|(_, f)| f))
        .unwrap_or_default()
}

/// Finds the `]]` closing a substitution block, skipping nested `[...]` and escaped
/// characters. `Err` carries an offset and a message for an unbalanced `]`.
fn find_var_end(s: &str) -> Result<Option<usize>, (usize, String)> {
    let b = s.as_bytes();
    let mut depth = 0usize;
    let mut i = 0;
    while i < b.len() {
        if depth == 0 && b[i..].starts_with(b"]]") {
            return Ok(Some(i));
        }
        match b[i] {
            b'\\' => i += 1,
            b'[' => depth += 1,
            b']' => {
                if depth == 0 {
                    return Err((i, "missing closing \"]\" for regex variable".into()));
                }
                depth -= 1;
            }
            _ => {}
        }
        i += 1;
    }
    Ok(None)
}

/// Escapes a value for a note the way LLVM's `write_escaped` does.
fn escape_note(s: &str) -> String {
    let mut out = String::new();
    for b in s.bytes() {
        match b {
            b'\\' => out.push_str("\\\\"),
            b'"' => out.push_str("\\\""),
            b'\t' => out.push_str("\\t"),
            b'\n' => out.push_str("\\n"),
            0x20..=0x7e => out.push(b as char),
            _ => out.push_str(&format!("\\{b:03o}")),
        }
    }
    out
}

/// Levenshtein distance over bytes.
fn edit_distance(a: &[u8], b: &[u8]) -> usize {
    let mut prev: Vec<usize> = (0..=b.len()).collect();
    let mut cur = vec![0; b.len() + 1];
    for (i, &ca) in a.iter().enumerate() {
        cur[0] = i + 1;
        for (j, &cb) in b.iter().enumerate() {
            let subst = prev[j] + usize::from(ca != cb);
            cur[j + 1] = subst.min(prev[j + 1] + 1).min(cur[j] + 1);
        }
        std::mem::swap(&mut prev, &mut cur);
    }
    prev[b.len()]
}

#[cfg(test)]
mod tests {
    use super::*;

    fn pat(text: &str) -> Pattern {
        let loc = Loc {
            buffer: 0,
            offset: 0,
            len: 0,
        };
        Pattern::parse(
            CheckType::new(CheckKind::Plain),
            text,
            loc,
            1,
            PatternOptions::default(),
        )
        .unwrap()
    }

    #[test]
    fn same_line_backreference() {
        let p = pat("op [[R:r[0-9]+]], [[R]]");
        let mut vars = Vars::default();
        assert!(p.find("op r1, r2", &mut vars).unwrap().is_none());
        let m = p.find("x op r3, r3", &mut vars).unwrap().unwrap();
        assert_eq!((m.start, m.end), (2, 11));
        assert_eq!(vars.string("R"), Some("r3"));
    }

    #[test]
    fn undefined_use_is_an_error() {
        let p = pat("a [[X]]");
        let err = p.find("a b", &mut Vars::default()).unwrap_err();
        assert!(matches!(err, MatchError::Undefined(v) if v[0].0 == "X" && v[0].1.offset == 4));
    }

    #[test]
    fn edit_distance_counts_edits() {
        assert_eq!(edit_distance(b"kitten", b"sitting"), 3);
        assert_eq!(edit_distance(b"", b"abc"), 3);
    }
}
