//! The lexer: MLIR's token set, by hand for speed.
//!
//! The lexical grammar is also written as a pest grammar (`tokens.pest`); a
//! differential test checks that both agree on every test input. See
//! `docs/design/parser.md` for why the hot path is hand-written (pest measured
//! at 170-400 ns per token here, about 20 MB/s, below the throughput goal).

/// Kinds of tokens.
#[derive(Copy, Clone, PartialEq, Eq, Debug, Hash)]
pub enum TokenKind {
    /// End of input.
    Eof,
    /// A character that starts no token, or an unterminated string.
    Error,
    /// `foo`, `f32`, `x4xf32`, `affine_map`.
    BareIdent,
    /// `%name`.
    PercentIdent,
    /// `^name`.
    CaretIdent,
    /// `@name` or `@"name"`.
    AtIdent,
    /// `#name`.
    HashIdent,
    /// `!name`.
    BangIdent,
    /// `42`, `0x2A`.
    Integer,
    /// `1.5`, `1.0e-3`.
    Float,
    /// `"text"`.
    String,
    /// `(`
    LParen,
    /// `)`
    RParen,
    /// `{`
    LBrace,
    /// `}`
    RBrace,
    /// `[`
    LSquare,
    /// `]`
    RSquare,
    /// `<`
    Less,
    /// `>`
    Greater,
    /// `,`
    Comma,
    /// `=`
    Equal,
    /// `:`
    Colon,
    /// `::`
    ColonColon,
    /// `?`
    Question,
    /// `+`
    Plus,
    /// `-`
    Minus,
    /// `*`
    Star,
    /// `->`
    Arrow,
    /// `|`
    Vertical,
    /// `...`
    Ellipsis,
    /// `{-#`
    FileMetadataBegin,
    /// `#-}`
    FileMetadataEnd,
}

/// A token: its kind and byte span, plus the 1-based line and column of its start.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Token {
    /// Kind.
    pub kind: TokenKind,
    /// Start byte offset.
    pub start: u32,
    /// End byte offset (exclusive).
    pub end: u32,
    /// 1-based line of `start`.
    pub line: u32,
    /// 1-based column (in bytes) of `start`.
    pub col: u32,
}

/// Streams tokens from a source text.
#[derive(Clone)]
pub struct Lexer<'a> {
    src: &'a [u8],
    pos: usize,
    line: u32,
    line_start: usize,
}

/// Set in [`CHAR_CLASS`] for the bytes of bare identifiers after the first.
const ID_CHAR: u8 = 1;
/// Set in [`CHAR_CLASS`] for the bytes of the names after `%`, `^`, `!`, `#`, `@`.
const SUFFIX_CHAR: u8 = 2;

/// The classes of each byte: one load per byte in the loops that scan
/// names (the comparisons they replace were most of the lexer's work).
static CHAR_CLASS: [u8; 256] = {
    let mut t = [0u8; 256];
    let mut c = 0;
    while c < 256 {
        let b = c as u8;
        if b.is_ascii_alphanumeric() || matches!(b, b'_' | b'$' | b'.') {
            t[c] = ID_CHAR | SUFFIX_CHAR;
        } else if b == b'-' {
            t[c] = SUFFIX_CHAR;
        }
        c += 1;
    }
    t
};

#[inline]
fn is_id_char(c: u8) -> bool {
    CHAR_CLASS[c as usize] & ID_CHAR != 0
}

#[inline]
fn is_suffix_char(c: u8) -> bool {
    CHAR_CLASS[c as usize] & SUFFIX_CHAR != 0
}

impl<'a> Lexer<'a> {
    /// A lexer at the start of `src`.
    pub fn new(src: &'a str) -> Self {
        Lexer {
            src: src.as_bytes(),
            pos: 0,
            line: 1,
            line_start: 0,
        }
    }

    /// Current byte offset (after the last token).
    pub fn pos(&self) -> usize {
        self.pos
    }

    /// Moves the lexer to byte offset `pos` on 1-based `line` which starts at
    /// `line_start` (used after a sub-parser consumed raw text).
    pub fn reset(&mut self, pos: usize, line: u32, line_start: usize) {
        self.pos = pos;
        self.line = line;
        self.line_start = line_start;
    }

    /// Moves the lexer forward to `pos`, counting the newlines skipped.
    pub fn advance_to(&mut self, pos: usize) {
        let end = pos.min(self.src.len());
        if end <= self.pos {
            return;
        }
        // Most skips (an op's trailing type, an affine map) stay on one
        // line: one search from the end instead of a test per byte.
        let skipped = &self.src[self.pos..end];
        if let Some(last) = memchr::memrchr(b'\n', skipped) {
            self.line += memchr::memchr_iter(b'\n', skipped).count() as u32;
            self.line_start = self.pos + last + 1;
        }
        self.pos = end;
    }

    /// Current line and its start offset.
    pub fn line_info(&self) -> (u32, usize) {
        (self.line, self.line_start)
    }

    fn skip_trivia(&mut self) {
        let s = self.src;
        while self.pos < s.len() {
            match s[self.pos] {
                b' ' => self.pos = skip_spaces(s, self.pos + 1),
                b'\t' | b'\r' => self.pos += 1,
                b'\n' => {
                    self.pos += 1;
                    self.line += 1;
                    self.line_start = self.pos;
                }
                b'/' if s.get(self.pos + 1) == Some(&b'/') => {
                    while self.pos < s.len() && s[self.pos] != b'\n' {
                        self.pos += 1;
                    }
                }
                _ => break,
            }
        }
    }

    /// Lexes the next token.
    pub fn next_token(&mut self) -> Token {
        self.skip_trivia();
        let start = self.pos;
        let line = self.line;
        let col = (start - self.line_start) as u32 + 1;
        let s = self.src;
        let make = |kind, end: usize| Token {
            kind,
            start: start as u32,
            end: end as u32,
            line,
            col,
        };
        if start >= s.len() {
            return make(TokenKind::Eof, start);
        }
        let c = s[start];
        let mut p = start + 1;
        let kind = match c {
            b'(' => TokenKind::LParen,
            b')' => TokenKind::RParen,
            b'{' => {
                if s.get(p) == Some(&b'-') && s.get(p + 1) == Some(&b'#') {
                    p += 2;
                    TokenKind::FileMetadataBegin
                } else {
                    TokenKind::LBrace
                }
            }
            b'}' => TokenKind::RBrace,
            b'[' => TokenKind::LSquare,
            b']' => TokenKind::RSquare,
            b'<' => TokenKind::Less,
            b'>' => TokenKind::Greater,
            b',' => TokenKind::Comma,
            b'=' => TokenKind::Equal,
            b':' => {
                if s.get(p) == Some(&b':') {
                    p += 1;
                    TokenKind::ColonColon
                } else {
                    TokenKind::Colon
                }
            }
            b'?' => TokenKind::Question,
            b'+' => TokenKind::Plus,
            b'*' => TokenKind::Star,
            b'|' => TokenKind::Vertical,
            b'-' => {
                if s.get(p) == Some(&b'>') {
                    p += 1;
                    TokenKind::Arrow
                } else {
                    TokenKind::Minus
                }
            }
            b'.' => {
                if s.get(p) == Some(&b'.') && s.get(p + 1) == Some(&b'.') {
                    p += 2;
                    TokenKind::Ellipsis
                } else {
                    TokenKind::Error
                }
            }
            b'"' => {
                let mut ok = false;
                while p < s.len() {
                    match s[p] {
                        b'"' => {
                            p += 1;
                            ok = true;
                            break;
                        }
                        b'\\' => p += 2,
                        b'\n' => break,
                        _ => p += 1,
                    }
                }
                if ok && p <= s.len() {
                    TokenKind::String
                } else {
                    p = p.min(s.len());
                    TokenKind::Error
                }
            }
            b'%' | b'^' | b'!' | b'#' | b'@' => {
                if c == b'#' && s.get(p) == Some(&b'-') && s.get(p + 1) == Some(&b'}') {
                    p += 2;
                    TokenKind::FileMetadataEnd
                } else if c == b'@' && s.get(p) == Some(&b'"') {
                    // @"quoted symbol"
                    let mut sub = Lexer {
                        src: s,
                        pos: p,
                        line,
                        line_start: self.line_start,
                    };
                    let t = sub.next_token();
                    p = t.end as usize;
                    if t.kind == TokenKind::String {
                        TokenKind::AtIdent
                    } else {
                        TokenKind::Error
                    }
                } else {
                    let q = p;
                    if p < s.len() && s[p].is_ascii_digit() {
                        while p < s.len() && s[p].is_ascii_digit() {
                            p += 1;
                        }
                    } else {
                        while p < s.len() && is_suffix_char(s[p]) {
                            p += 1;
                        }
                    }
                    if p == q {
                        TokenKind::Error
                    } else {
                        match c {
                            b'%' => TokenKind::PercentIdent,
                            b'^' => TokenKind::CaretIdent,
                            b'!' => TokenKind::BangIdent,
                            b'#' => TokenKind::HashIdent,
                            _ => TokenKind::AtIdent,
                        }
                    }
                }
            }
            b'0'..=b'9' => {
                if c == b'0' && s.get(p) == Some(&b'x') && s.get(p + 1).is_some_and(|d| d.is_ascii_hexdigit()) {
                    p += 1;
                    while p < s.len() && s[p].is_ascii_hexdigit() {
                        p += 1;
                    }
                    TokenKind::Integer
                } else {
                    while p < s.len() && s[p].is_ascii_digit() {
                        p += 1;
                    }
                    if s.get(p) == Some(&b'.') {
                        p += 1;
                        while p < s.len() && s[p].is_ascii_digit() {
                            p += 1;
                        }
                        if matches!(s.get(p), Some(b'e' | b'E')) {
                            let mut q = p + 1;
                            if matches!(s.get(q), Some(b'+' | b'-')) {
                                q += 1;
                            }
                            if s.get(q).is_some_and(|d| d.is_ascii_digit()) {
                                p = q;
                                while p < s.len() && s[p].is_ascii_digit() {
                                    p += 1;
                                }
                            }
                        }
                        TokenKind::Float
                    } else {
                        TokenKind::Integer
                    }
                }
            }
            c if c.is_ascii_alphabetic() || c == b'_' => {
                while p < s.len() && is_id_char(s[p]) {
                    p += 1;
                }
                TokenKind::BareIdent
            }
            _ => {
                // Skip one whole UTF-8 character so spans stay on char boundaries.
                while p < s.len() && (s[p] & 0xC0) == 0x80 {
                    p += 1;
                }
                TokenKind::Error
            }
        };
        self.pos = p.min(s.len());
        make(kind, self.pos)
    }
}

/// The offset of the first byte at or after `p` that is not a space,
/// eight bytes at a time (indentation is the longest run of trivia).
#[inline]
fn skip_spaces(s: &[u8], mut p: usize) -> usize {
    const SPACES: u64 = u64::from_le_bytes([b' '; 8]);
    while let Some(chunk) = s.get(p..p + 8) {
        let word = u64::from_le_bytes(chunk.try_into().expect("eight bytes"));
        let differs = word ^ SPACES;
        if differs != 0 {
            return p + (differs.trailing_zeros() / 8) as usize;
        }
        p += 8;
    }
    while s.get(p) == Some(&b' ') {
        p += 1;
    }
    p
}

#[cfg(test)]
mod tests {
    use super::*;

    fn kinds(s: &str) -> Vec<TokenKind> {
        let mut l = Lexer::new(s);
        let mut v = Vec::new();
        loop {
            let t = l.next_token();
            if t.kind == TokenKind::Eof {
                return v;
            }
            v.push(t.kind);
        }
    }

    #[test]
    fn lexes_generic_op() {
        use TokenKind::*;
        assert_eq!(
            kinds(r#"%0:2 = "t.op"(%a#1) <{p = 1}> : (i32) -> f32 // c"#),
            vec![
                PercentIdent,
                Colon,
                Integer,
                Equal,
                String,
                LParen,
                PercentIdent,
                HashIdent,
                RParen,
                Less,
                LBrace,
                BareIdent,
                Equal,
                Integer,
                RBrace,
                Greater,
                Colon,
                LParen,
                BareIdent,
                RParen,
                Arrow,
                BareIdent
            ]
        );
    }

    #[test]
    fn lexes_numbers_and_ids() {
        use TokenKind::*;
        assert_eq!(
            kinds("4x?xf32 1.5e-3 0x1F 2."),
            vec![Integer, BareIdent, Question, BareIdent, Float, Integer, Float]
        );
        assert_eq!(
            kinds("@\"q s\" ^bb0 !t.x #map1 {-# #-}"),
            vec![
                AtIdent,
                CaretIdent,
                BangIdent,
                HashIdent,
                FileMetadataBegin,
                FileMetadataEnd
            ]
        );
        assert_eq!(kinds("\"unterminated"), vec![Error]);
        assert_eq!(kinds("é"), vec![Error]);
    }

    #[test]
    fn tracks_lines_and_columns() {
        let mut l = Lexer::new("a\n  b // x\n\tc");
        let t = [l.next_token(), l.next_token(), l.next_token()];
        assert_eq!((t[0].line, t[0].col), (1, 1));
        assert_eq!((t[1].line, t[1].col), (2, 3));
        assert_eq!((t[2].line, t[2].col), (3, 2));
    }

    #[test]
    fn skips_runs_of_spaces_of_any_length() {
        // Runs shorter than, as long as and longer than a word, at the end
        // of the text too, and a run cut by a tab.
        for n in [0usize, 1, 7, 8, 9, 16, 17, 40] {
            let text = format!("a\n{}b{} \t c{}", " ".repeat(n), " ".repeat(n), " ".repeat(n));
            let mut l = Lexer::new(&text);
            let t = [l.next_token(), l.next_token(), l.next_token(), l.next_token()];
            assert_eq!((t[1].line, t[1].col), (2, n as u32 + 1), "{n} spaces");
            assert_eq!(t[2].col, 2 * n as u32 + 5, "{n} spaces");
            assert_eq!(t[3].kind, TokenKind::Eof);
            assert_eq!(t[3].start as usize, text.len());
        }
    }

    #[test]
    fn advancing_counts_the_lines_skipped() {
        let text = "ab\ncd\n\nefgh ij";
        let mut l = Lexer::new(text);
        l.advance_to(1);
        assert_eq!((l.pos(), l.line_info()), (1, (1, 0)));
        l.advance_to(8);
        assert_eq!((l.pos(), l.line_info()), (8, (4, 7)));
        // Backwards and past the end: no move, then the end.
        l.advance_to(2);
        assert_eq!(l.pos(), 8);
        l.advance_to(100);
        assert_eq!((l.pos(), l.line_info()), (text.len(), (4, 7)));
        let t = Lexer::new(text).next_token();
        assert_eq!(t.line, 1);
    }
}
