//! The lexer of `.br` files: C-like tokens for kernels, permissive enough
//! that C++ host code (which is passed through, not parsed) always lexes.

use super::ast::Span;

/// What a token is.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum TokKind {
    /// An identifier or keyword (keywords are recognized by the parser, by
    /// their text, so that `float line;` parses and the checker can name the
    /// reserved word).
    Ident,
    /// An integer literal (`3`, `3u`, `0x1f`).
    Int,
    /// A floating-point literal (`2.0`, `2.0f`, `1e-3f`, `.5`).
    Float,
    /// A string literal `"..."` (host code only).
    Str,
    /// A character literal `'c'` (host code only).
    Char,
    /// A punctuator (`+=`, `<<`, `{`, ...), or a single character that is no
    /// C token (`@`, non-ASCII text outside comments).
    Punct,
    /// A preprocessor line (`#include ...`), up to its end of line.
    Directive,
    /// The end of the file.
    Eof,
}

/// One token: its kind and byte range in the source.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Token {
    /// What it is.
    pub kind: TokKind,
    /// Where it is.
    pub span: Span,
}

/// A lexical error: an unterminated comment, string or character literal.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LexError {
    /// Where the unterminated construct starts.
    pub at: u32,
    /// What is wrong.
    pub message: String,
}

/// Punctuators, longest first.
const PUNCTS: &[&str] = &[
    "<<=", ">>=", "...", "->", "++", "--", "<<", ">>", "<=", ">=", "==", "!=", "&&", "||", "+=", "-=", "*=", "/=",
    "%=", "&=", "|=", "^=", "::",
];

/// Splits `src` into tokens (comments and white space dropped), ending with
/// one [`TokKind::Eof`] token.
pub fn lex(src: &str) -> Result<Vec<Token>, LexError> {
    let b = src.as_bytes();
    let mut toks = Vec::new();
    let mut i = 0usize;
    // True while only white space has been seen on the current line.
    let mut line_start = true;
    while i < b.len() {
        let c = b[i];
        if c == b'\n' {
            line_start = true;
            i += 1;
            continue;
        }
        if c.is_ascii_whitespace() {
            i += 1;
            continue;
        }
        let start = i;
        if c == b'/' && b.get(i + 1) == Some(&b'/') {
            while i < b.len() && b[i] != b'\n' {
                i += 1;
            }
            continue;
        }
        if c == b'/' && b.get(i + 1) == Some(&b'*') {
            match src[i + 2..].find("*/") {
                Some(k) => i += k + 4,
                None => return Err(err(start, "unterminated /* comment")),
            }
            continue;
        }
        let was_line_start = line_start;
        line_start = false;
        let kind = if c == b'#' && was_line_start {
            // A directive runs to the end of the line, with `\` continuations.
            while i < b.len() && b[i] != b'\n' {
                if b[i] == b'\\' && b.get(i + 1) == Some(&b'\n') {
                    i += 1;
                }
                i += 1;
            }
            TokKind::Directive
        } else if c.is_ascii_alphabetic() || c == b'_' {
            while i < b.len() && (b[i].is_ascii_alphanumeric() || b[i] == b'_') {
                i += 1;
            }
            TokKind::Ident
        } else if c.is_ascii_digit() || (c == b'.' && b.get(i + 1).is_some_and(|d| d.is_ascii_digit())) {
            number(b, &mut i)
        } else if c == b'"' || c == b'\'' {
            quoted(b, &mut i, c)?;
            if c == b'"' {
                TokKind::Str
            } else {
                TokKind::Char
            }
        } else {
            match PUNCTS.iter().find(|p| src[i..].starts_with(*p)) {
                Some(p) => i += p.len(),
                None => {
                    // One character (all its UTF-8 bytes).
                    i += 1;
                    while i < b.len() && (b[i] & 0xc0) == 0x80 {
                        i += 1;
                    }
                }
            }
            TokKind::Punct
        };
        toks.push(Token {
            kind,
            span: Span::new(start, i),
        });
    }
    toks.push(Token {
        kind: TokKind::Eof,
        span: Span::new(b.len(), b.len()),
    });
    Ok(toks)
}

fn err(at: usize, message: &str) -> LexError {
    LexError {
        at: at as u32,
        message: message.to_string(),
    }
}

/// Scans a number starting at `*i`; returns whether it is an integer or a
/// floating-point literal. Suffix letters are part of the token.
fn number(b: &[u8], i: &mut usize) -> TokKind {
    let mut float = false;
    if b[*i] == b'0' && matches!(b.get(*i + 1), Some(b'x') | Some(b'X')) {
        *i += 2;
        while *i < b.len() && b[*i].is_ascii_alphanumeric() {
            *i += 1;
        }
        return TokKind::Int;
    }
    while *i < b.len() {
        let c = b[*i];
        if c.is_ascii_digit() {
            *i += 1;
        } else if c == b'.' {
            float = true;
            *i += 1;
        } else if (c == b'e' || c == b'E')
            && (b.get(*i + 1).is_some_and(|d| d.is_ascii_digit())
                || (matches!(b.get(*i + 1), Some(b'+') | Some(b'-'))
                    && b.get(*i + 2).is_some_and(|d| d.is_ascii_digit())))
        {
            float = true;
            *i += 2;
        } else if c.is_ascii_alphabetic() || c == b'_' {
            // Suffixes (`f`, `u`, `l`); the parser judges them.
            *i += 1;
        } else {
            break;
        }
    }
    if float {
        TokKind::Float
    } else {
        TokKind::Int
    }
}

/// Scans a string or character literal whose opening quote is at `*i`.
fn quoted(b: &[u8], i: &mut usize, q: u8) -> Result<(), LexError> {
    let start = *i;
    *i += 1;
    while *i < b.len() {
        match b[*i] {
            b'\\' => *i += 2,
            b'\n' => break,
            c if c == q => {
                *i += 1;
                return Ok(());
            }
            _ => *i += 1,
        }
    }
    Err(err(
        start,
        if q == b'"' {
            "unterminated string literal"
        } else {
            "unterminated character literal"
        },
    ))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn kinds(s: &str) -> Vec<(TokKind, String)> {
        lex(s)
            .unwrap()
            .into_iter()
            .map(|t| (t.kind, s[t.span.start as usize..t.span.end as usize].to_string()))
            .collect()
    }

    #[test]
    fn tokens() {
        let k = kinds("#include <a>\nx += 2.0f*.5e-3 /* c */ 3u; // d\n \"s\\\"\" 'c' a<>");
        let texts: Vec<&str> = k.iter().map(|(_, t)| t.as_str()).collect();
        assert_eq!(
            texts,
            [
                "#include <a>",
                "x",
                "+=",
                "2.0f",
                "*",
                ".5e-3",
                "3u",
                ";",
                "\"s\\\"\"",
                "'c'",
                "a",
                "<",
                ">",
                ""
            ]
        );
        assert_eq!(k[0].0, TokKind::Directive);
        assert_eq!(k[3].0, TokKind::Float);
        assert_eq!(k[6].0, TokKind::Int);
    }

    #[test]
    fn hash_mid_line_is_punct() {
        assert_eq!(kinds("a # b")[1].0, TokKind::Punct);
    }

    #[test]
    fn errors() {
        assert_eq!(lex("a /* b").unwrap_err().at, 2);
        assert_eq!(lex("x \"ab\n").unwrap_err().message, "unterminated string literal");
    }
}
