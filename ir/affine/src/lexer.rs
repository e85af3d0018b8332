//! A small lexer for affine map, integer set and SSA-id expression text,
//! following the token rules of MLIR's lexer for the tokens that can occur
//! there. It works on bytes and never allocates.

/// Token kinds.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub(crate) enum Tok {
    /// A bare identifier `[a-zA-Z_][a-zA-Z0-9_$.]*`; keywords such as
    /// `floordiv` or `symbol` are identifiers too and are told apart by the
    /// parser from their spelling and position.
    Ident,
    /// An SSA name: `%` then digits or `[a-zA-Z$._-][a-zA-Z0-9$._-]*`,
    /// optionally followed by `#<digits>` (a result number).
    SsaId,
    /// A decimal or `0x` hexadecimal integer literal.
    Integer,
    /// A floating point literal such as `1.5` (never valid in affine text).
    Float,
    LParen,
    RParen,
    LSquare,
    RSquare,
    Comma,
    Plus,
    Minus,
    Star,
    Colon,
    /// `->`.
    Arrow,
    /// `=`; `==` is two of them, as in MLIR.
    Equal,
    /// `>`; `>=` is `>` then `=`, as in MLIR.
    Greater,
    /// `<`; `<=` is `<` then `=`, as in MLIR.
    Less,
    /// Any other ASCII punctuation character (one byte).
    Punct,
    /// The end of the text.
    Eof,
    /// A byte that cannot start a token (including `%` without a name).
    Error,
}

/// A token: its kind and its byte range in the text.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Token {
    pub kind: Tok,
    pub start: usize,
    pub end: usize,
}

/// The lexer: a cursor over the text.
pub(crate) struct Lexer<'a> {
    src: &'a [u8],
    pos: usize,
}

#[inline]
fn is_ident_start(b: u8) -> bool {
    b.is_ascii_alphabetic() || b == b'_'
}

#[inline]
fn is_ident_continue(b: u8) -> bool {
    b.is_ascii_alphanumeric() || matches!(b, b'_' | b'$' | b'.')
}

#[inline]
fn is_ssa_continue(b: u8) -> bool {
    b.is_ascii_alphanumeric() || matches!(b, b'_' | b'$' | b'.' | b'-')
}

/// The end of the SSA name whose `%` is just before `start` in `bytes`
/// (its `#n` suffix included); `None` where no name starts there.
pub(crate) fn ssa_name_end(bytes: &[u8], start: usize) -> Option<usize> {
    let at = |k: usize| bytes.get(k).copied().unwrap_or(0);
    let first = at(start);
    let mut i = start;
    if first.is_ascii_digit() {
        while at(i).is_ascii_digit() {
            i += 1;
        }
    } else if first.is_ascii_alphabetic() || matches!(first, b'_' | b'$' | b'.' | b'-') {
        while is_ssa_continue(at(i)) {
            i += 1;
        }
    } else {
        return None;
    }
    if at(i) == b'#' && at(i + 1).is_ascii_digit() {
        i += 1;
        while at(i).is_ascii_digit() {
            i += 1;
        }
    }
    Some(i)
}

impl<'a> Lexer<'a> {
    /// A lexer at byte `pos` of `text`.
    pub fn new(text: &'a str, pos: usize) -> Lexer<'a> {
        Lexer {
            src: text.as_bytes(),
            pos,
        }
    }

    #[inline]
    fn peek(&self, at: usize) -> u8 {
        self.src.get(at).copied().unwrap_or(0)
    }

    /// Skips whitespace and `//` comments.
    fn skip_trivia(&mut self) {
        loop {
            match self.peek(self.pos) {
                b' ' | b'\t' | b'\n' | b'\r' => self.pos += 1,
                b'/' if self.peek(self.pos + 1) == b'/' => {
                    while self.pos < self.src.len() && !matches!(self.src[self.pos], b'\n' | b'\r') {
                        self.pos += 1;
                    }
                }
                _ => return,
            }
        }
    }

    /// Lexes the next token.
    pub fn next_token(&mut self) -> Token {
        self.skip_trivia();
        let start = self.pos;
        let Some(&b) = self.src.get(start) else {
            return Token {
                kind: Tok::Eof,
                start,
                end: start,
            };
        };
        self.pos += 1;
        let kind = match b {
            b'(' => Tok::LParen,
            b')' => Tok::RParen,
            b'[' => Tok::LSquare,
            b']' => Tok::RSquare,
            b',' => Tok::Comma,
            b'+' => Tok::Plus,
            b'*' => Tok::Star,
            b':' => Tok::Colon,
            b'=' => Tok::Equal,
            b'>' => Tok::Greater,
            b'<' => Tok::Less,
            b'-' => {
                if self.peek(self.pos) == b'>' {
                    self.pos += 1;
                    Tok::Arrow
                } else {
                    Tok::Minus
                }
            }
            b'%' => self.lex_ssa_id(),
            b'0'..=b'9' => self.lex_number(b),
            _ if is_ident_start(b) => {
                while is_ident_continue(self.peek(self.pos)) {
                    self.pos += 1;
                }
                Tok::Ident
            }
            _ if b.is_ascii_punctuation() => Tok::Punct,
            _ => {
                // Consume a whole UTF-8 character so that the token text is
                // a valid `str` slice.
                while self.pos < self.src.len() && (self.src[self.pos] & 0xC0) == 0x80 {
                    self.pos += 1;
                }
                Tok::Error
            }
        };
        Token {
            kind,
            start,
            end: self.pos,
        }
    }

    fn lex_ssa_id(&mut self) -> Tok {
        match ssa_name_end(self.src, self.pos) {
            Some(end) => {
                self.pos = end;
                Tok::SsaId
            }
            None => Tok::Error,
        }
    }

    fn lex_number(&mut self, first: u8) -> Tok {
        if first == b'0' && self.peek(self.pos) == b'x' && self.peek(self.pos + 1).is_ascii_hexdigit() {
            self.pos += 1;
            while self.peek(self.pos).is_ascii_hexdigit() {
                self.pos += 1;
            }
            return Tok::Integer;
        }
        while self.peek(self.pos).is_ascii_digit() {
            self.pos += 1;
        }
        if self.peek(self.pos) != b'.' {
            return Tok::Integer;
        }
        // A float literal: digits '.' digits* ([eE][+-]?digits)?
        self.pos += 1;
        while self.peek(self.pos).is_ascii_digit() {
            self.pos += 1;
        }
        if matches!(self.peek(self.pos), b'e' | b'E') {
            let sign = matches!(self.peek(self.pos + 1), b'+' | b'-') as usize;
            if self.peek(self.pos + 1 + sign).is_ascii_digit() {
                self.pos += 1 + sign;
                while self.peek(self.pos).is_ascii_digit() {
                    self.pos += 1;
                }
            }
        }
        Tok::Float
    }
}

/// The value of an integer token (decimal or `0x` hexadecimal), if it fits
/// in `u64`.
pub(crate) fn integer_value(spelling: &str) -> Option<u64> {
    if let Some(hex) = spelling.strip_prefix("0x") {
        return u64::from_str_radix(hex, 16).ok();
    }
    let mut v: u64 = 0;
    for b in spelling.bytes() {
        v = v.checked_mul(10)?.checked_add(u64::from(b - b'0'))?;
    }
    Some(v)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn kinds(text: &str) -> Vec<(Tok, &str)> {
        let mut lx = Lexer::new(text, 0);
        let mut out = Vec::new();
        loop {
            let t = lx.next_token();
            if t.kind == Tok::Eof {
                return out;
            }
            out.push((t.kind, &text[t.start..t.end]));
        }
    }

    #[test]
    fn tokens() {
        use Tok::*;
        assert_eq!(
            kinds("(d0.x, a$b)[s_0] -> (d0 floordiv 0x1F, %i#2 + %arg0 - 12) // c\n>= == <= 1.5e3 ]"),
            vec![
                (LParen, "("),
                (Ident, "d0.x"),
                (Comma, ","),
                (Ident, "a$b"),
                (RParen, ")"),
                (LSquare, "["),
                (Ident, "s_0"),
                (RSquare, "]"),
                (Arrow, "->"),
                (LParen, "("),
                (Ident, "d0"),
                (Ident, "floordiv"),
                (Integer, "0x1F"),
                (Comma, ","),
                (SsaId, "%i#2"),
                (Plus, "+"),
                (SsaId, "%arg0"),
                (Minus, "-"),
                (Integer, "12"),
                (RParen, ")"),
                (Greater, ">"),
                (Equal, "="),
                (Equal, "="),
                (Equal, "="),
                (Less, "<"),
                (Equal, "="),
                (Float, "1.5e3"),
                (RSquare, "]"),
            ]
        );
        assert_eq!(kinds("% é"), vec![(Error, "%"), (Error, "é")]);
        assert_eq!(kinds("--3"), vec![(Minus, "-"), (Minus, "-"), (Integer, "3")]);
    }

    #[test]
    fn integers() {
        assert_eq!(integer_value("0"), Some(0));
        assert_eq!(integer_value("18446744073709551615"), Some(u64::MAX));
        assert_eq!(integer_value("18446744073709551616"), None);
        assert_eq!(integer_value("0x10"), Some(16));
    }
}
