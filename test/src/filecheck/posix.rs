//! FileCheck's regexes are POSIX EREs, where a negated bracket class never matches a
//! newline; the `regex` crate's do. This module validates a user regex and rewrites it so
//! that patterns stay on their line as in FileCheck.

use regex_syntax::ast;

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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn negated_classes_stop_at_newlines() {
        let re = translate_regex("[^;]*").unwrap();
        let re = regex::Regex::new(&re).unwrap();
        assert_eq!(re.find("ab\ncd;").unwrap().as_str(), "ab");
        // `]` first and `-` last in a class still work.
        let re = regex::Regex::new(&translate_regex("[^]a-]+").unwrap()).unwrap();
        assert_eq!(re.find("]xyz-").unwrap().as_str(), "xyz");
        // Nested negated classes too.
        let re = regex::Regex::new(&translate_regex("[a[^b]]+").unwrap()).unwrap();
        assert_eq!(re.find("ac\nd").unwrap().as_str(), "ac");
        assert!(translate_regex("(a").is_err());
    }
}
