//! A test file's lit directives: `RUN:` lines (with `\` continuations), `REQUIRES:` and
//! `UNSUPPORTED:` feature expressions; and the `%s`/`%S`/`%t`/`%T`/`%%` substitutions.

use std::collections::BTreeSet;
use std::path::Path;

/// One command to run, possibly assembled from several continued `RUN:` lines.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RunLine {
    /// 1-based line of its first `RUN:`.
    pub line: usize,
    /// The command, before substitution.
    pub command: String,
}

/// The lit directives of one test file.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct TestDirectives {
    /// The commands, in order.
    pub run_lines: Vec<RunLine>,
    /// `REQUIRES:` expressions; all must hold.
    pub requires: Vec<String>,
    /// `UNSUPPORTED:` expressions; none may hold.
    pub unsupported: Vec<String>,
}

/// Finds `keyword` (e.g. `RUN:`) in `line`, not preceded by a word character; returns the
/// text after it.
fn after_keyword<'a>(line: &'a str, keyword: &str) -> Option<&'a str> {
    let mut from = 0;
    while let Some(i) = line[from..].find(keyword).map(|i| i + from) {
        let before = line[..i].chars().next_back();
        if !before.is_some_and(|c| c.is_alphanumeric() || c == '_' || c == '-') {
            return Some(&line[i + keyword.len()..]);
        }
        from = i + keyword.len();
    }
    None
}

/// Reads the directives of a test file's text.
pub fn parse_directives(text: &str) -> Result<TestDirectives, String> {
    let mut d = TestDirectives::default();
    let mut pending: Option<RunLine> = None;
    for (i, line) in text.lines().enumerate() {
        let line_no = i + 1;
        if let Some(rest) = after_keyword(line, "RUN:") {
            let rest = rest.trim();
            let (part, continues) = match rest.strip_suffix('\\') {
                Some(p) => (p.trim_end(), true),
                None => (rest, false),
            };
            let run = pending.get_or_insert_with(|| RunLine {
                line: line_no,
                command: String::new(),
            });
            if !run.command.is_empty() && !part.is_empty() {
                run.command.push(' ');
            }
            run.command.push_str(part);
            if !continues {
                let run = pending.take().expect("pending RUN line");
                if run.command.is_empty() {
                    return Err(format!("line {}: empty RUN: line", run.line));
                }
                d.run_lines.push(run);
            }
            continue;
        }
        if let Some(run) = &pending {
            return Err(format!(
                "line {}: RUN: line ends with '\\' but line {} has no RUN: continuation",
                run.line, line_no
            ));
        }
        for (keyword, list) in [("REQUIRES:", &mut d.requires), ("UNSUPPORTED:", &mut d.unsupported)] {
            if let Some(rest) = after_keyword(line, keyword) {
                for item in rest.split(',') {
                    let item = item.trim();
                    if item.is_empty() {
                        return Err(format!("line {line_no}: empty {keyword} item"));
                    }
                    eval_feature_expr(item, &BTreeSet::new())
                        .map_err(|e| format!("line {line_no}: {keyword} {item}: {e}"))?;
                    list.push(item.to_string());
                }
            }
        }
    }
    if let Some(run) = pending {
        return Err(format!(
            "line {}: RUN: line ends with '\\' at the end of the file",
            run.line
        ));
    }
    Ok(d)
}

/// Evaluates a lit feature expression (`a`, `!a`, `a && b`, `a || (b && !c)`).
pub fn eval_feature_expr(expr: &str, features: &BTreeSet<String>) -> Result<bool, String> {
    let tokens = tokenize(expr)?;
    let mut p = ExprParser {
        tokens: &tokens,
        pos: 0,
        features,
    };
    let v = p.or()?;
    if p.pos != tokens.len() {
        return Err(format!("unexpected '{}'", tokens[p.pos]));
    }
    Ok(v)
}

/// The features an expression names, for messages.
pub fn feature_names(expr: &str) -> Vec<String> {
    tokenize(expr)
        .unwrap_or_default()
        .into_iter()
        .filter(|t| !matches!(t.as_str(), "&&" | "||" | "!" | "(" | ")"))
        .collect()
}

fn tokenize(expr: &str) -> Result<Vec<String>, String> {
    let mut tokens = Vec::new();
    let mut chars = expr.chars().peekable();
    while let Some(&c) = chars.peek() {
        match c {
            ' ' | '\t' => {
                chars.next();
            }
            '!' | '(' | ')' => {
                tokens.push(c.to_string());
                chars.next();
            }
            '&' | '|' => {
                chars.next();
                if chars.next() != Some(c) {
                    return Err(format!("expected '{c}{c}'"));
                }
                tokens.push(format!("{c}{c}"));
            }
            _ => {
                let mut word = String::new();
                while let Some(&c) = chars.peek() {
                    if matches!(c, ' ' | '\t' | '!' | '(' | ')' | '&' | '|') {
                        break;
                    }
                    word.push(c);
                    chars.next();
                }
                tokens.push(word);
            }
        }
    }
    if tokens.is_empty() {
        return Err("empty expression".into());
    }
    Ok(tokens)
}

struct ExprParser<'a> {
    tokens: &'a [String],
    pos: usize,
    features: &'a BTreeSet<String>,
}

impl<'a> ExprParser<'a> {
    fn peek(&self) -> Option<&'a str> {
        self.tokens.get(self.pos).map(String::as_str)
    }

    fn or(&mut self) -> Result<bool, String> {
        let mut v = self.and()?;
        while self.peek() == Some("||") {
            self.pos += 1;
            v |= self.and()?;
        }
        Ok(v)
    }

    fn and(&mut self) -> Result<bool, String> {
        let mut v = self.not()?;
        while self.peek() == Some("&&") {
            self.pos += 1;
            v &= self.not()?;
        }
        Ok(v)
    }

    fn not(&mut self) -> Result<bool, String> {
        match self.peek() {
            Some("!") => {
                self.pos += 1;
                Ok(!self.not()?)
            }
            Some("(") => {
                self.pos += 1;
                let v = self.or()?;
                if self.peek() != Some(")") {
                    return Err("missing ')'".into());
                }
                self.pos += 1;
                Ok(v)
            }
            Some(t) if !matches!(t, "&&" | "||" | ")") => {
                self.pos += 1;
                Ok(self.features.contains(t))
            }
            Some(t) => Err(format!("unexpected '{t}'")),
            None => Err("unexpected end of expression".into()),
        }
    }
}

/// The values of a test's substitutions.
#[derive(Debug, Clone)]
pub struct Substitutions {
    /// `%s`: the test file's absolute path.
    pub source: String,
    /// `%S`: its directory.
    pub source_dir: String,
    /// `%t`: a temporary path unique to the test.
    pub temp: String,
    /// `%T`: a temporary directory unique to the test.
    pub temp_dir: String,
}

impl Substitutions {
    /// The substitutions of test `file` whose private temporary directory is `temp_dir`.
    pub fn new(file: &Path, temp_dir: &Path) -> Self {
        let name = file
            .file_name()
            .map(|n| n.to_string_lossy().into_owned())
            .unwrap_or_default();
        Substitutions {
            source: file.display().to_string(),
            source_dir: file.parent().map(|p| p.display().to_string()).unwrap_or_default(),
            temp: temp_dir.join(format!("{name}.tmp")).display().to_string(),
            temp_dir: temp_dir.display().to_string(),
        }
    }

    /// Replaces `%s`, `%S`, `%p` (same as `%S`), `%t`, `%T` and `%%` in one pass; any other
    /// `%` is kept.
    pub fn apply(&self, command: &str) -> String {
        let mut out = String::with_capacity(command.len());
        let mut chars = command.chars().peekable();
        while let Some(c) = chars.next() {
            if c != '%' {
                out.push(c);
                continue;
            }
            let value = match chars.peek() {
                Some('s') => &self.source,
                Some('S') | Some('p') => &self.source_dir,
                Some('t') => &self.temp,
                Some('T') => &self.temp_dir,
                Some('%') => "%",
                _ => {
                    out.push('%');
                    continue;
                }
            };
            out.push_str(value);
            chars.next();
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_run_lines_with_continuations() {
        let d = parse_directives(
            "// RUN: lf-opt %s \\\n// RUN:   --pass | FileCheck %s\nfunc\n  // RUN: true\n// XRUN: no\n",
        )
        .unwrap();
        assert_eq!(
            d.run_lines,
            [
                RunLine {
                    line: 1,
                    command: "lf-opt %s --pass | FileCheck %s".into()
                },
                RunLine {
                    line: 4,
                    command: "true".into()
                },
            ]
        );
    }

    #[test]
    fn rejects_dangling_continuations() {
        assert!(parse_directives("// RUN: a \\\nfoo\n").is_err());
        assert!(parse_directives("// RUN: a \\\n").is_err());
        assert!(parse_directives("// RUN:\n").is_err());
    }

    #[test]
    fn reads_feature_lines() {
        let d = parse_directives("// REQUIRES: mlir-opt, x && !y\n// UNSUPPORTED: windows\n").unwrap();
        assert_eq!(d.requires, ["mlir-opt", "x && !y"]);
        assert_eq!(d.unsupported, ["windows"]);
        assert!(parse_directives("// REQUIRES: a &&\n").is_err());
    }

    #[test]
    fn evaluates_feature_expressions() {
        let f: BTreeSet<String> = ["a".to_string(), "b".to_string()].into();
        assert_eq!(eval_feature_expr("a && b", &f), Ok(true));
        assert_eq!(eval_feature_expr("a && !b", &f), Ok(false));
        assert_eq!(eval_feature_expr("c || (a && !c)", &f), Ok(true));
        assert!(eval_feature_expr("a b", &f).is_err());
        assert_eq!(feature_names("a && !mlir-opt"), ["a", "mlir-opt"]);
    }

    #[test]
    fn substitutes_in_one_pass() {
        let s = Substitutions::new(Path::new("/x/y/t.lfir"), Path::new("/tmp/7"));
        assert_eq!(
            s.apply("cat %s %S/Inputs %t %T %% %%s 100%"),
            "cat /x/y/t.lfir /x/y/Inputs /tmp/7/t.lfir.tmp /tmp/7 % %s 100%"
        );
    }
}
