//! One directive's pattern: literal text, `{{regex}}`, `[[VAR:regex]]` definitions,
//! `[[VAR]]` uses and `[[#...]]` numeric blocks, compiled to a regex and matched.

use std::cell::RefCell;
use std::collections::{HashMap, HashSet};

use regex_syntax::ast;

use super::numeric::{self, NumBlock, NumFormat};

/// What a directive asks for.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub(crate) enum CheckKind {
    /// `CHECK:` (and `CHECK-COUNT-N:`)
    Plain,
    /// `CHECK-NEXT:`
    Next,
    /// `CHECK-SAME:`
    Same,
    /// `CHECK-NOT:`
    Not,
    /// `CHECK-DAG:`
    Dag,
    /// `CHECK-LABEL:`
    Label,
    /// `CHECK-EMPTY:`
    Empty,
    /// The implicit end-of-input check that carries trailing DAG/NOT directives.
    Eof,
}

/// A directive's kind with its count and modifiers.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct CheckType {
    pub kind: CheckKind,
    /// `N` of `-COUNT-N` (1 otherwise).
    pub count: usize,
    /// `{LITERAL}` modifier.
    pub literal: bool,
}

impl CheckType {
    /// A plain type of `kind` without count or modifiers.
    pub fn new(kind: CheckKind) -> Self {
        CheckType {
            kind,
            count: 1,
            literal: false,
        }
    }

    /// The directive's name as FileCheck prints it: `CHECK-NEXT`, `CHECK-COUNT`, ...
    pub fn describe(&self, prefix: &str) -> String {
        let suffix = match self.kind {
            CheckKind::Plain if self.count > 1 => "-COUNT",
            CheckKind::Plain => "",
            CheckKind::Next => "-NEXT",
            CheckKind::Same => "-SAME",
            CheckKind::Not => "-NOT",
            CheckKind::Dag => "-DAG",
            CheckKind::Label => "-LABEL",
            CheckKind::Empty => "-EMPTY",
            CheckKind::Eof => return "implicit EOF".to_string(),
        };
        let modifiers = if self.literal { "{LITERAL}" } else { "" };
        format!("{prefix}{suffix}{modifiers}")
    }

    /// The short name used to label input-dump annotations.
    pub fn abbrev(&self) -> &'static str {
        match self.kind {
            CheckKind::Plain if self.count > 1 => "count",
            CheckKind::Plain => "check",
            CheckKind::Next => "next",
            CheckKind::Same => "same",
            CheckKind::Not => "not",
            CheckKind::Dag => "dag",
            CheckKind::Label => "label",
            CheckKind::Empty => "empty",
            CheckKind::Eof => "eof",
        }
    }
}

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

/// The variables known while matching.
#[derive(Debug, Default, Clone)]
pub(crate) struct Vars {
    strings: HashMap<String, String>,
    numbers: HashMap<String, (i128, NumFormat)>,
}

impl Vars {
    /// Defines string variable `name`.
    pub fn set_string(&mut self, name: &str, value: String) {
        self.strings.insert(name.to_string(), value);
    }

    /// Defines numeric variable `name`.
    pub fn set_number(&mut self, name: &str, value: i128, format: NumFormat) {
        self.numbers.insert(name.to_string(), (value, format));
    }

    fn number(&self, name: &str) -> Option<(i128, NumFormat)> {
        self.numbers.get(name).copied()
    }

    /// Forgets every variable whose name does not start with `$` (`--enable-var-scope`).
    pub fn clear_locals(&mut self) {
        self.strings.retain(|k, _| k.starts_with('$'));
        self.numbers.retain(|k, _| k.starts_with('$'));
    }
}

/// A piece of a regex pattern.
#[derive(Debug, Clone)]
enum Piece {
    /// Text to match literally.
    Literal(String),
    /// A user regex (from `{{...}}`), already translated.
    Regex { re: String, orig: String },
    /// `[[NAME:regex]]`: captures into group `group`.
    Def {
        name: String,
        group: String,
        regex: String,
        orig: String,
    },
    /// `[[NAME]]` of a variable defined on an earlier line.
    Use { name: String, loc: Loc },
    /// `[[NAME]]` of a variable defined earlier on the same line: a backreference.
    Backref { group: String },
    /// `[[#...]]` or `[[@LINE...]]`.
    Num {
        block: NumBlock,
        group: Option<String>,
        loc: Loc,
        raw: String,
    },
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

#[derive(Debug, Clone)]
struct Template {
    pieces: Vec<Piece>,
    full_lines: bool,
    strict: bool,
    ignore_case: bool,
    /// Needs backreferences (fancy-regex).
    fancy: bool,
    /// Compiled once when the regex does not depend on variable values.
    fixed: Option<Compiled>,
    /// Last compiled regex for variable-dependent patterns.
    cache: RefCell<Option<(String, Compiled)>>,
}

#[derive(Debug, Clone)]
enum Compiled {
    Std(regex::Regex),
    Fancy(Box<fancy_regex::Regex>),
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
            Piece::Use { name, loc } => match vars.strings.get(name) {
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
                    if let Some(v) = vars.strings.get(name) {
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

fn group_of(p: &Piece) -> Option<&str> {
    match p {
        Piece::Def { group, .. } => Some(group),
        Piece::Num { group: Some(g), .. } => Some(g),
        _ => None,
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

impl Template {
    /// Builds the regex text; `dynamic` renders `Use` pieces and numeric expressions.
    fn render(&self, dynamic: &mut dyn FnMut(&Piece) -> Result<String, MatchError>) -> Result<String, MatchError> {
        let mut s = String::from("(?m)");
        if self.ignore_case {
            s.push_str("(?i)");
        }
        if self.full_lines {
            s.push('^');
            if !self.strict {
                s.push_str(" *");
            }
        }
        for p in &self.pieces {
            match p {
                Piece::Literal(l) => s.push_str(&regex_escape(l, self.fancy)),
                Piece::Regex { re: r, .. } => {
                    s.push_str("(?:");
                    s.push_str(r);
                    s.push(')');
                }
                Piece::Def { group, regex, .. } => {
                    s.push_str(&format!("(?P<{group}>{regex})"));
                }
                Piece::Backref { group } => s.push_str(&format!("\\k<{group}>")),
                Piece::Use { .. } => {
                    s.push_str("(?:");
                    s.push_str(&dynamic(p)?);
                    s.push(')');
                }
                Piece::Num { block, group, .. } => {
                    let inner = match &block.expr {
                        None => block.format.unwrap_or_default().wildcard(),
                        Some(_) => dynamic(p)?,
                    };
                    match group {
                        Some(g) => s.push_str(&format!("(?P<{g}>{inner})")),
                        None => {
                            s.push_str("(?:");
                            s.push_str(&inner);
                            s.push(')');
                        }
                    }
                }
            }
        }
        if self.full_lines {
            if !self.strict {
                s.push_str(" *");
            }
            s.push('$');
        }
        Ok(s)
    }
}

impl Template {
    /// The regex as FileCheck would have written it (POSIX style, no substitutions), which
    /// its fuzzy matcher compares with the input.
    fn example(&self) -> String {
        let mut s = String::new();
        if self.full_lines {
            s.push_str(if self.strict { "^" } else { "^ *" });
        }
        let mut group = 0;
        for p in &self.pieces {
            match p {
                Piece::Literal(l) => {
                    for c in l.chars() {
                        if "()^$|*+?.[]\\{}".contains(c) {
                            s.push('\\');
                        }
                        s.push(c);
                    }
                }
                Piece::Regex { orig, .. } | Piece::Def { orig, .. } => {
                    group += 1;
                    s.push('(');
                    s.push_str(orig);
                    s.push(')');
                }
                Piece::Backref { .. } => s.push_str(&format!("\\{}", group.max(1))),
                Piece::Num { block, group: g, .. } => {
                    if g.is_some() && block.expr.is_none() {
                        group += 1;
                        s.push('(');
                        s.push_str(&block.format.unwrap_or_default().wildcard());
                        s.push(')');
                    }
                }
                Piece::Use { .. } => {}
            }
        }
        if self.full_lines {
            s.push_str(if self.strict { "$" } else { " *$" });
        }
        s
    }
}

fn regex_escape(s: &str, fancy: bool) -> String {
    if fancy {
        fancy_regex::escape(s).into_owned()
    } else {
        regex::escape(s)
    }
}

fn compile(text: &str, fancy: bool) -> Result<Compiled, String> {
    if fancy {
        fancy_regex::Regex::new(text)
            .map(|r| Compiled::Fancy(Box::new(r)))
            .map_err(|e| e.to_string())
    } else {
        regex::Regex::new(text).map(Compiled::Std).map_err(|e| e.to_string())
    }
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

/// Checks a user regex and makes negated bracket classes (`[^x]`) not match a newline,
/// as in FileCheck's POSIX regexes, so that a pattern never runs into the next line
/// unless it says `\n` or `[[:space:]]`.
pub(crate) fn translate_regex(re: &str) -> Result<String, String> {
    let mut parsed = ast::parse::Parser::new().parse(re).map_err(|e| e.kind().to_string())?;
    // Validate the whole regex (groups, repetitions, classes) before rewriting it.
    regex_syntax::hir::translate::Translator::new()
        .translate(re, &parsed)
        .map_err(|e| e.kind().to_string())?;
    exclude_newline(&mut parsed);
    let mut out = String::new();
    ast::print::Printer::new()
        .print(&parsed, &mut out)
        .map_err(|e| e.to_string())?;
    Ok(out)
}

fn exclude_newline(a: &mut ast::Ast) {
    match a {
        ast::Ast::ClassBracketed(c) => {
            let span = c.span;
            let old = std::mem::replace(
                &mut **c,
                ast::ClassBracketed {
                    span,
                    negated: false,
                    kind: ast::ClassSet::Item(ast::ClassSetItem::Empty(span)),
                },
            );
            **c = fix_class(old);
        }
        ast::Ast::Repetition(r) => exclude_newline(&mut r.ast),
        ast::Ast::Group(g) => exclude_newline(&mut g.ast),
        ast::Ast::Alternation(alt) => alt.asts.iter_mut().for_each(exclude_newline),
        ast::Ast::Concat(c) => c.asts.iter_mut().for_each(exclude_newline),
        _ => {}
    }
}

/// `[^X]` becomes `[[^X]&&[^\n]]`; nested classes are rewritten too.
fn fix_class(mut c: ast::ClassBracketed) -> ast::ClassBracketed {
    fix_set(&mut c.kind);
    if !c.negated {
        return c;
    }
    let span = c.span;
    let newline = ast::ClassBracketed {
        span,
        negated: true,
        kind: ast::ClassSet::Item(ast::ClassSetItem::Literal(ast::Literal {
            span,
            kind: ast::LiteralKind::Special(ast::SpecialLiteralKind::LineFeed),
            c: '\n',
        })),
    };
    ast::ClassBracketed {
        span,
        negated: false,
        kind: ast::ClassSet::BinaryOp(ast::ClassSetBinaryOp {
            span,
            kind: ast::ClassSetBinaryOpKind::Intersection,
            lhs: Box::new(ast::ClassSet::Item(ast::ClassSetItem::Bracketed(Box::new(c)))),
            rhs: Box::new(ast::ClassSet::Item(ast::ClassSetItem::Bracketed(Box::new(newline)))),
        }),
    }
}

fn fix_set(s: &mut ast::ClassSet) {
    match s {
        ast::ClassSet::Item(item) => fix_item(item),
        ast::ClassSet::BinaryOp(op) => {
            fix_set(&mut op.lhs);
            fix_set(&mut op.rhs);
        }
    }
}

fn fix_item(item: &mut ast::ClassSetItem) {
    match item {
        ast::ClassSetItem::Bracketed(b) => {
            let span = b.span;
            let old = std::mem::replace(
                &mut **b,
                ast::ClassBracketed {
                    span,
                    negated: false,
                    kind: ast::ClassSet::Item(ast::ClassSetItem::Empty(span)),
                },
            );
            **b = fix_class(old);
        }
        ast::ClassSetItem::Union(u) => u.items.iter_mut().for_each(fix_item),
        _ => {}
    }
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
    fn negated_classes_stop_at_newlines() {
        let re = translate_regex("[^;]*").unwrap();
        let re = regex::Regex::new(&re).unwrap();
        assert_eq!(re.find("ab\ncd;").unwrap().as_str(), "ab");
        // Positive classes and escapes are unchanged; `]` first and `-` last still work.
        let re = regex::Regex::new(&translate_regex("[^]a-]+").unwrap()).unwrap();
        assert_eq!(re.find("]xyz-").unwrap().as_str(), "xyz");
        assert!(translate_regex("(a").is_err());
    }

    #[test]
    fn same_line_backreference() {
        let p = pat("op [[R:r[0-9]+]], [[R]]");
        let mut vars = Vars::default();
        assert!(p.find("op r1, r2", &mut vars).unwrap().is_none());
        let m = p.find("x op r3, r3", &mut vars).unwrap().unwrap();
        assert_eq!((m.start, m.end), (2, 11));
        assert_eq!(vars.strings["R"], "r3");
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
