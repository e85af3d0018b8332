//! Declarative assembly formats, in MLIR's notation.
//!
//! An op's `format` string (for example
//! ``$lhs `,` $rhs (`overflow` `` $overflowFlags^)? attr-dict `:` type($result)``)
//! is compiled once, when the op is registered, into a [`Format`]; the
//! [`parse`] and [`print`] interpreters then give the op its custom syntax.
//!
//! Supported: literals (keywords and punctuation, `` ` ` `` for a space and
//! ``` `` ``` for none), `$operand`/`$attribute`/`$region`/`$successor`
//! variables, `type(...)`, `functional-type(..., ...)`, `operands`,
//! `results`, `regions`, `attr-dict`, `attr-dict-with-keyword`,
//! `custom<Name>(...)`, `qualified(...)`, and optional groups
//! `( ... ^ ... )?` with an optional else group `( ... ) : ( ... )?`.
//!
//! Spacing follows MLIR's generated printers exactly: whether a space goes
//! before an element is decided statically, walking the format in order
//! (also through optional groups), from the same rules as `mlir-tblgen`.

mod parse;
mod print;

pub use parse::{parse_with_format, CustomParseFn, FormatState, GroupTypes, OperandRefs, PerGroup};
pub use print::{print_with_format, CustomPrintFn};

use crate::OpDef;

/// What a `type(...)` or `functional-type(...)` argument refers to.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum TypeTarget {
    /// Operand group `i`.
    Operand(usize),
    /// Result group `i`.
    Result(usize),
    /// All operands (`operands`).
    AllOperands,
    /// All results (`results`).
    AllResults,
}

/// A reference passed to a `custom<...>` directive.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum CustomArg {
    /// Operand group `i`.
    Operand(usize),
    /// Attribute `i`.
    Attr(usize),
    /// Region `i`.
    Region(usize),
    /// The type(s) of a target.
    Type(TypeTarget),
    /// `attr-dict`.
    AttrDict,
}

/// An element of a compiled format.
#[derive(Clone, Debug)]
pub enum Element {
    /// A keyword or punctuation literal.
    Literal {
        /// The text.
        text: &'static str,
        /// Whether the printer writes a space before it.
        space: bool,
    },
    /// `` ` ` `` (prints one space) or ``` `` ``` (prints nothing); never parsed.
    Whitespace {
        /// Whether it prints a space.
        space: bool,
    },
    /// `$name` of an operand group.
    Operand {
        /// The group.
        group: usize,
        /// Whether the printer writes a space before it.
        space: bool,
    },
    /// `operands`.
    AllOperands {
        /// Whether the printer writes a space before it.
        space: bool,
    },
    /// `$name` of an attribute.
    Attr {
        /// The attribute.
        index: usize,
        /// Whether the printer writes a space before it.
        space: bool,
    },
    /// `$name` of a region.
    Region {
        /// The region.
        index: usize,
        /// Whether the printer writes a space before it.
        space: bool,
    },
    /// `regions`.
    AllRegions {
        /// Whether the printer writes a space before it.
        space: bool,
    },
    /// `type(...)`.
    Type {
        /// Whose type.
        target: TypeTarget,
        /// Whether the printer writes a space before it.
        space: bool,
    },
    /// `functional-type(inputs, results)`.
    FunctionalType {
        /// The inputs.
        inputs: TypeTarget,
        /// The results.
        results: TypeTarget,
        /// Whether the printer writes a space before it.
        space: bool,
    },
    /// `attr-dict` or `attr-dict-with-keyword`.
    AttrDict {
        /// With the `attributes` keyword.
        with_keyword: bool,
    },
    /// `custom<Name>(args)`.
    Custom {
        /// Index into the op's `custom_directives`.
        directive: usize,
        /// The arguments.
        args: Vec<CustomArg>,
        /// Whether the printer writes a space before it.
        space: bool,
    },
    /// `( ... )?` or `( ... ) : ( ... )?`.
    Optional {
        /// Elements printed/parsed when the anchor is present.
        then: Vec<Element>,
        /// Elements printed/parsed otherwise.
        els: Vec<Element>,
        /// The anchor (the element marked `^`), as an index into `then`.
        anchor: usize,
    },
}

/// A compiled format.
#[derive(Clone, Debug)]
pub struct Format {
    /// The top-level elements.
    pub elements: Vec<Element>,
    /// The names of the attributes the format prints itself, and the
    /// segment sizes: what its `attr-dict` leaves out.
    pub printed_attrs: Vec<&'static str>,
    /// The groups that each of the op's type rules names, in the order of
    /// `def.type_rules`, found once here rather than by name for every op
    /// parsed.
    pub rule_groups: Vec<RuleGroups>,
}

/// The groups ([`crate::ods::group_named`]) a [`crate::ods::TypeRule`] names: `None` for a name that is
/// neither an operand nor a result group (an operand group when both are).
#[derive(Clone, Debug)]
pub enum RuleGroups {
    /// The groups of a [`crate::ods::TypeRule::AllMatch`].
    AllMatch(Vec<Option<crate::ods::GroupRef>>),
    /// The target and source groups of a [`crate::ods::TypeRule::Derived`].
    Derived {
        /// The group whose type is computed.
        target: Option<crate::ods::GroupRef>,
        /// The group it is computed from.
        source: Option<crate::ods::GroupRef>,
    },
}

/// The groups each of `def`'s type rules names.
fn rule_groups(def: &OpDef) -> Vec<RuleGroups> {
    def.type_rules
        .iter()
        .map(|rule| match rule {
            crate::ods::TypeRule::AllMatch(names) => {
                RuleGroups::AllMatch(names.iter().map(|n| crate::ods::group_named(def, n)).collect())
            }
            crate::ods::TypeRule::Derived { target, source, .. } => RuleGroups::Derived {
                target: crate::ods::group_named(def, target),
                source: crate::ods::group_named(def, source),
            },
        })
        .collect()
}

/// The compiled format of `def` (compiled once per process and kept).
pub fn compiled(def: &'static OpDef) -> Result<Option<&'static Format>, String> {
    use std::collections::HashMap;
    use std::sync::{Mutex, OnceLock};
    static CACHE: OnceLock<Mutex<HashMap<usize, Option<&'static Format>>>> = OnceLock::new();
    let key = def as *const OpDef as usize;
    let mut cache = CACHE
        .get_or_init(Default::default)
        .lock()
        .unwrap_or_else(|e| e.into_inner());
    if let Some(f) = cache.get(&key) {
        return Ok(*f);
    }
    let f = compile(def)?.map(|f| &*Box::leak(Box::new(f)));
    cache.insert(key, f);
    Ok(f)
}

/// Compiles `def.format`. Errors describe the problem in the format string
/// (a bug in the op declaration, reported when the op is registered).
pub fn compile(def: &'static OpDef) -> Result<Option<Format>, String> {
    let Some(src) = def.format else { return Ok(None) };
    let toks = tokenize(src)?;
    let mut c = Compiler {
        def,
        toks,
        pos: 0,
        space: true,
        last_punct: false,
    };
    let elements = c.elements(false)?;
    if c.pos != c.toks.len() {
        return Err(format!("{}: unexpected '{}' in format", def.name, c.toks[c.pos]));
    }
    let printed_attrs = print::format_attr_names(def, &elements);
    Ok(Some(Format {
        elements,
        printed_attrs,
        rule_groups: rule_groups(def),
    }))
}

fn tokenize(src: &'static str) -> Result<Vec<&'static str>, String> {
    let mut out = Vec::new();
    let b = src.as_bytes();
    let mut i = 0;
    while i < b.len() {
        let c = b[i];
        if c.is_ascii_whitespace() {
            i += 1;
        } else if c == b'`' {
            let end = src[i + 1..]
                .find('`')
                .ok_or_else(|| "unterminated literal in format".to_string())?;
            out.push(&src[i..i + end + 2]);
            i += end + 2;
        } else if c == b'$' || c.is_ascii_alphabetic() {
            let start = i;
            i += 1;
            while i < b.len() && (b[i].is_ascii_alphanumeric() || b[i] == b'_' || b[i] == b'-') {
                i += 1;
            }
            out.push(&src[start..i]);
        } else {
            out.push(&src[i..i + 1]);
            i += 1;
        }
    }
    Ok(out)
}

struct Compiler {
    def: &'static OpDef,
    toks: Vec<&'static str>,
    pos: usize,
    /// mlir-tblgen's `shouldEmitSpace`.
    space: bool,
    /// mlir-tblgen's `lastWasPunctuation`.
    last_punct: bool,
}

impl Compiler {
    fn peek(&self) -> Option<&'static str> {
        self.toks.get(self.pos).copied()
    }

    fn next(&mut self) -> Result<&'static str, String> {
        let t = self
            .peek()
            .ok_or_else(|| format!("{}: format ends early", self.def.name))?;
        self.pos += 1;
        Ok(t)
    }

    fn expect(&mut self, t: &str) -> Result<(), String> {
        let got = self.next()?;
        if got != t {
            return Err(format!("{}: expected '{t}' in format, found '{got}'", self.def.name));
        }
        Ok(())
    }

    /// The space decision for a non-literal element, updating the state.
    fn element_space(&mut self) -> bool {
        let s = self.space || !self.last_punct;
        self.last_punct = false;
        self.space = true;
        s
    }

    fn elements(&mut self, in_group: bool) -> Result<Vec<Element>, String> {
        let mut out = Vec::new();
        while let Some(t) = self.peek() {
            if in_group && (t == ")" || t == "^") {
                break;
            }
            out.push(self.element()?);
            if in_group && self.peek() == Some("^") {
                // The anchor marker follows the element it marks.
                break;
            }
        }
        Ok(out)
    }

    fn element(&mut self) -> Result<Element, String> {
        let t = self.next()?;
        if let Some(lit) = t.strip_prefix('`').and_then(|x| x.strip_suffix('`')) {
            return Ok(self.literal(lit));
        }
        if let Some(name) = t.strip_prefix('$') {
            return self.variable(name);
        }
        match t {
            "(" => self.optional_group(),
            "attr-dict" | "attr-dict-with-keyword" => {
                self.last_punct = false;
                Ok(Element::AttrDict {
                    with_keyword: t == "attr-dict-with-keyword",
                })
            }
            "type" | "qualified" => {
                self.expect("(")?;
                let target = self.type_target()?;
                self.expect(")")?;
                let space = self.element_space();
                Ok(Element::Type { target, space })
            }
            "functional-type" => {
                self.expect("(")?;
                let inputs = self.type_target()?;
                self.expect(",")?;
                let results = self.type_target()?;
                self.expect(")")?;
                let space = self.element_space();
                Ok(Element::FunctionalType { inputs, results, space })
            }
            "operands" => {
                let space = self.element_space();
                Ok(Element::AllOperands { space })
            }
            "regions" => {
                let space = self.element_space();
                Ok(Element::AllRegions { space })
            }
            "custom" => self.custom(),
            _ => Err(format!("{}: unknown format element '{t}'", self.def.name)),
        }
    }

    fn literal(&mut self, lit: &'static str) -> Element {
        if lit.is_empty() || lit == " " {
            let space = lit == " ";
            self.last_punct = !space;
            self.space = false;
            return Element::Whitespace { space };
        }
        let first = lit.as_bytes()[0];
        // mlir-tblgen: a space only if `shouldEmitSpace` and `shouldEmitSpaceBefore`.
        let space = self.space
            && if lit.len() != 1 && lit != "->" {
                true
            } else if self.last_punct {
                !b">)}],".contains(&first)
            } else {
                !b"<>(){}[],".contains(&first)
            };
        self.space = lit.len() != 1 || !b"<({[".contains(&first);
        self.last_punct = first != b'_' && !first.is_ascii_alphabetic();
        Element::Literal { text: lit, space }
    }

    fn variable(&mut self, name: &str) -> Result<Element, String> {
        let def = self.def;
        // A unit attribute that anchors an optional group prints nothing, and
        // mlir-tblgen skips it entirely (no effect on spacing).
        let unit_anchor =
            self.peek() == Some("^") && def.attributes.iter().any(|a| a.name == name && a.constraint.is_unit);
        let space = if unit_anchor { false } else { self.element_space() };
        if let Some(group) = def.operands.iter().position(|g| g.name == name) {
            return Ok(Element::Operand { group, space });
        }
        if let Some(index) = def.attributes.iter().position(|a| a.name == name) {
            return Ok(Element::Attr { index, space });
        }
        if let Some(index) = def.regions.iter().position(|r| r.name == name) {
            return Ok(Element::Region { index, space });
        }
        Err(format!(
            "{}: format variable '${name}' is not an operand, attribute or region",
            def.name
        ))
    }

    fn type_target(&mut self) -> Result<TypeTarget, String> {
        let t = self.next()?;
        let def = self.def;
        match t {
            "operands" => Ok(TypeTarget::AllOperands),
            "results" => Ok(TypeTarget::AllResults),
            _ => {
                let name = t
                    .strip_prefix('$')
                    .ok_or_else(|| format!("{}: expected a variable in type(...)", def.name))?;
                if let Some(i) = def.operands.iter().position(|g| g.name == name) {
                    Ok(TypeTarget::Operand(i))
                } else if let Some(i) = def.results.iter().position(|g| g.name == name) {
                    Ok(TypeTarget::Result(i))
                } else {
                    Err(format!("{}: '${name}' is not an operand or result", def.name))
                }
            }
        }
    }

    fn custom(&mut self) -> Result<Element, String> {
        let def = self.def;
        self.expect("<")?;
        let name = self.next()?;
        self.expect(">")?;
        let directive = def
            .custom_directives
            .iter()
            .position(|d| d.name == name)
            .ok_or_else(|| format!("{}: no custom directive '{name}' declared", def.name))?;
        self.expect("(")?;
        let mut args = Vec::new();
        loop {
            let t = self.next()?;
            let arg = match t {
                "type" | "ref" | "qualified" => {
                    self.expect("(")?;
                    let inner = if t == "type" {
                        CustomArg::Type(self.type_target()?)
                    } else {
                        self.custom_var()?
                    };
                    self.expect(")")?;
                    inner
                }
                "attr-dict" => CustomArg::AttrDict,
                _ => {
                    self.pos -= 1;
                    self.custom_var()?
                }
            };
            args.push(arg);
            if self.peek() == Some(",") {
                self.pos += 1;
                continue;
            }
            self.expect(")")?;
            break;
        }
        let space = self.element_space();
        Ok(Element::Custom { directive, args, space })
    }

    fn custom_var(&mut self) -> Result<CustomArg, String> {
        let def = self.def;
        let t = self.next()?;
        if t == "type" {
            self.expect("(")?;
            let target = self.type_target()?;
            self.expect(")")?;
            return Ok(CustomArg::Type(target));
        }
        let name = t
            .strip_prefix('$')
            .ok_or_else(|| format!("{}: expected a variable in custom<...>, found '{t}'", def.name))?;
        if let Some(i) = def.operands.iter().position(|g| g.name == name) {
            return Ok(CustomArg::Operand(i));
        }
        if let Some(i) = def.attributes.iter().position(|a| a.name == name) {
            return Ok(CustomArg::Attr(i));
        }
        if let Some(i) = def.regions.iter().position(|r| r.name == name) {
            return Ok(CustomArg::Region(i));
        }
        if let Some(i) = def.results.iter().position(|r| r.name == name) {
            return Ok(CustomArg::Type(TypeTarget::Result(i)));
        }
        Err(format!("{}: '${name}' is not a known variable", def.name))
    }

    fn optional_group(&mut self) -> Result<Element, String> {
        let mut then = Vec::new();
        let mut anchor = None;
        loop {
            let part = self.elements(true)?;
            then.extend(part);
            match self.peek() {
                Some("^") => {
                    self.pos += 1;
                    if then.is_empty() || anchor.is_some() {
                        return Err(format!("{}: misplaced '^' in format", self.def.name));
                    }
                    anchor = Some(then.len() - 1);
                }
                Some(")") => {
                    self.pos += 1;
                    break;
                }
                _ => return Err(format!("{}: unterminated optional group", self.def.name)),
            }
        }
        let anchor = anchor.ok_or_else(|| format!("{}: optional group without an anchor '^'", self.def.name))?;
        let mut els = Vec::new();
        if self.peek() == Some(":") {
            self.pos += 1;
            self.expect("(")?;
            els = self.elements(true)?;
            self.expect(")")?;
        }
        self.expect("?")?;
        Ok(Element::Optional { then, els, anchor })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ods::constraints::{ANY_TYPE, UNIT_ATTR};
    use crate::ods::{ArgDef, AttrDef};

    static CALL: OpDef = OpDef {
        operands: &[ArgDef::variadic("operands", &ANY_TYPE)],
        results: &[ArgDef::variadic("results", &ANY_TYPE)],
        attributes: &[AttrDef::optional("flag", &UNIT_ATTR)],
        format: Some("`(` $operands `)` (`flagged` $flag^)? attr-dict `:` functional-type($operands, results)"),
        ..OpDef::declared("t.call")
    };

    static BAD_VAR: OpDef = OpDef {
        format: Some("$nope attr-dict"),
        ..OpDef::declared("t.bad")
    };

    static NO_ANCHOR: OpDef = OpDef {
        operands: &[ArgDef::optional("x", &ANY_TYPE)],
        format: Some("(`x` $x)? attr-dict"),
        ..OpDef::declared("t.noanchor")
    };

    fn spaces(elems: &[Element]) -> Vec<(String, bool)> {
        let mut out = Vec::new();
        for e in elems {
            match e {
                Element::Literal { text, space } => out.push((text.to_string(), *space)),
                Element::Operand { space, .. } => out.push(("$operand".into(), *space)),
                Element::Attr { space, .. } => out.push(("$attr".into(), *space)),
                Element::FunctionalType { space, .. } => out.push(("functional-type".into(), *space)),
                Element::Optional { then, .. } => out.extend(spaces(then)),
                _ => {}
            }
        }
        out
    }

    #[test]
    fn spacing_follows_mlir_tblgen() {
        let f = compile(&CALL).unwrap().unwrap();
        let got = spaces(&f.elements);
        let want: Vec<(String, bool)> = [
            ("(", false),
            ("$operand", false),
            (")", false),
            ("flagged", true),
            ("$attr", false),
            (":", true),
            ("functional-type", true),
        ]
        .iter()
        .map(|(t, s)| (t.to_string(), *s))
        .collect();
        assert_eq!(got, want);
    }

    #[test]
    fn malformed_formats_are_reported() {
        let e = compile(&BAD_VAR).unwrap_err();
        assert!(e.contains("'$nope' is not an operand"), "{e}");
        let e = compile(&NO_ANCHOR).unwrap_err();
        assert!(e.contains("without an anchor"), "{e}");
    }
}
