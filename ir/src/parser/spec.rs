//! The lexical grammar as a pest grammar (`tokens.pest`), the specification
//! that the hand-written [`lexer`](super::lexer) is tested against.

use super::lexer::{Lexer, TokenKind};
use pest::Parser as _;

/// The pest parser generated from `tokens.pest`.
#[derive(pest_derive::Parser)]
#[grammar = "parser/tokens.pest"]
pub struct TokenGrammar;

fn kind_of(rule: Rule, text: &str) -> TokenKind {
    match rule {
        Rule::string => TokenKind::String,
        Rule::percent_ident => TokenKind::PercentIdent,
        Rule::caret_ident => TokenKind::CaretIdent,
        Rule::bang_ident => TokenKind::BangIdent,
        Rule::hash_ident => TokenKind::HashIdent,
        Rule::at_ident => TokenKind::AtIdent,
        Rule::float => TokenKind::Float,
        Rule::integer => TokenKind::Integer,
        Rule::bare_ident => TokenKind::BareIdent,
        Rule::file_metadata_begin => TokenKind::FileMetadataBegin,
        Rule::file_metadata_end => TokenKind::FileMetadataEnd,
        Rule::arrow => TokenKind::Arrow,
        Rule::colon_colon => TokenKind::ColonColon,
        Rule::ellipsis => TokenKind::Ellipsis,
        _ => match text {
            "(" => TokenKind::LParen,
            ")" => TokenKind::RParen,
            "{" => TokenKind::LBrace,
            "}" => TokenKind::RBrace,
            "[" => TokenKind::LSquare,
            "]" => TokenKind::RSquare,
            "<" => TokenKind::Less,
            ">" => TokenKind::Greater,
            "," => TokenKind::Comma,
            "=" => TokenKind::Equal,
            ":" => TokenKind::Colon,
            "?" => TokenKind::Question,
            "+" => TokenKind::Plus,
            "-" => TokenKind::Minus,
            "*" => TokenKind::Star,
            _ => TokenKind::Vertical,
        },
    }
}

/// Tokens of `src` per the pest grammar: `Ok` with (kind, start, end) for a
/// fully lexable input, `Err` with the byte offset where lexing fails.
pub fn spec_tokens(src: &str) -> Result<Vec<(TokenKind, usize, usize)>, usize> {
    match TokenGrammar::parse(Rule::tokens, src) {
        Ok(mut pairs) => {
            let top = pairs.next().expect("tokens rule");
            Ok(top
                .into_inner()
                .filter(|p| p.as_rule() != Rule::EOI)
                .map(|p| (kind_of(p.as_rule(), p.as_str()), p.as_span().start(), p.as_span().end()))
                .collect())
        }
        Err(e) => Err(match e.location {
            pest::error::InputLocation::Pos(p) => p,
            pest::error::InputLocation::Span((s, _)) => s,
        }),
    }
}

/// Tokens of `src` per the hand-written lexer, in the same shape as
/// [`spec_tokens`]: `Err` with the offset of the first error token.
pub fn lexer_tokens(src: &str) -> Result<Vec<(TokenKind, usize, usize)>, usize> {
    let mut l = Lexer::new(src);
    let mut out = Vec::new();
    loop {
        let t = l.next_token();
        match t.kind {
            TokenKind::Eof => return Ok(out),
            TokenKind::Error => return Err(t.start as usize),
            k => out.push((k, t.start as usize, t.end as usize)),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lexer_agrees_with_grammar_on_samples() {
        let samples = [
            r#"%0:2 = "t.op"(%a#1) <{p = 1}> ({^bb0(%x: i32): "t.y"() : () -> ()}) : (i32) -> f32 // c"#,
            "memref<4x?xf32, affine_map<(d0) -> (d0 + 1)>, 3> @\"a b\" @f::@g !llvm.ptr #map1 {-# x #-} ... -1.5e-3 0x1F",
            "loc(\"f\":1:2) dense<[1, 2]> array<i32: 1> ^bb12 %arg0 | * + ?",
        ];
        for s in samples {
            assert_eq!(lexer_tokens(s), spec_tokens(s), "input: {s}");
        }
    }

    #[test]
    fn lexer_agrees_with_grammar_on_mutations() {
        // Deterministic pseudo-random strings over MLIR's character set.
        let alphabet: Vec<char> = "%^!#@\"\\ \n\t()<>{}[],=:?+-*|.0123456789xabcdefE_$/".chars().collect();
        let mut state = 0x2545F4914F6CDD1Du64;
        for _ in 0..3000 {
            let len = (state % 24) as usize;
            let mut s = String::new();
            for _ in 0..len {
                state ^= state << 13;
                state ^= state >> 7;
                state ^= state << 17;
                s.push(alphabet[(state % alphabet.len() as u64) as usize]);
            }
            let (a, b) = (lexer_tokens(&s), spec_tokens(&s));
            match (&a, &b) {
                (Ok(x), Ok(y)) => assert_eq!(x, y, "input: {s:?}"),
                (Err(_), Err(_)) => {}
                _ => panic!("lexer and grammar disagree on {s:?}: {a:?} vs {b:?}"),
            }
        }
    }
}
