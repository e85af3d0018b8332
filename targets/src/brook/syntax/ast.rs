//! The AST of the Brook+ subset: kernels (parsed) and host code (kept as
//! source ranges). Every node keeps the byte range it came from.

/// A byte range `start..end` of the source.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, Default)]
pub struct Span {
    /// First byte.
    pub start: u32,
    /// One past the last byte.
    pub end: u32,
}

impl Span {
    /// The range `start..end`.
    pub fn new(start: usize, end: usize) -> Span {
        Span {
            start: start as u32,
            end: end as u32,
        }
    }

    /// The smallest range covering `self` and `other`.
    pub fn to(self, other: Span) -> Span {
        Span {
            start: self.start.min(other.start),
            end: self.end.max(other.end),
        }
    }

    /// The text of this range in `src`.
    pub fn text(self, src: &str) -> &str {
        &src[self.start as usize..self.end as usize]
    }
}

/// A parsed `.br` file.
#[derive(Clone, Debug, PartialEq)]
pub struct Unit {
    /// Kernels and host code, in file order.
    pub items: Vec<Item>,
}

impl Unit {
    /// The kernels, in file order.
    pub fn kernels(&self) -> Vec<&Kernel> {
        self.items
            .iter()
            .filter_map(|i| match i {
                Item::Kernel(k) => Some(k),
                Item::Host(_) => None,
            })
            .collect()
    }
}

/// A top-level piece of a `.br` file.
#[derive(Clone, Debug, PartialEq)]
pub enum Item {
    /// Host code (C++), copied through: its source range.
    Host(Span),
    /// A kernel.
    Kernel(Kernel),
}

/// A name with its position.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Ident {
    /// The name.
    pub name: String,
    /// Where it is written.
    pub span: Span,
}

/// A scalar element type.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum Scalar {
    /// `char` (signed 8-bit).
    Char,
    /// `uchar`.
    UChar,
    /// `short`.
    Short,
    /// `ushort`.
    UShort,
    /// `int`.
    Int,
    /// `uint`.
    UInt,
    /// `float`.
    Float,
    /// `double`.
    Double,
}

impl Scalar {
    /// All scalars, in the order of their names.
    pub const ALL: [Scalar; 8] = [
        Scalar::Char,
        Scalar::UChar,
        Scalar::Short,
        Scalar::UShort,
        Scalar::Int,
        Scalar::UInt,
        Scalar::Float,
        Scalar::Double,
    ];

    /// The Brook+ name (`uint`, `float`, ...).
    pub fn name(self) -> &'static str {
        match self {
            Scalar::Char => "char",
            Scalar::UChar => "uchar",
            Scalar::Short => "short",
            Scalar::UShort => "ushort",
            Scalar::Int => "int",
            Scalar::UInt => "uint",
            Scalar::Float => "float",
            Scalar::Double => "double",
        }
    }

    /// True for `float` and `double`.
    pub fn is_float(self) -> bool {
        matches!(self, Scalar::Float | Scalar::Double)
    }

    /// True for the unsigned types.
    pub fn is_unsigned(self) -> bool {
        matches!(self, Scalar::UChar | Scalar::UShort | Scalar::UInt)
    }
}

/// A scalar or vector type: `float` is `(Float, 1)`, `double2` is `(Double, 2)`.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub struct Type {
    /// The element type.
    pub scalar: Scalar,
    /// 1 for scalars, 2 to 4 for vectors.
    pub width: u8,
}

impl Type {
    /// The scalar type `s`.
    pub fn scalar(s: Scalar) -> Type {
        Type { scalar: s, width: 1 }
    }

    /// Parses a type name: `uint`, `float4`, `double3` (any scalar with 2 to
    /// 4 components; the checker rejects the double vectors Brook+ lacks).
    pub fn from_name(name: &str) -> Option<Type> {
        let (base, width) = match name.as_bytes().last() {
            Some(d @ b'2'..=b'4') => (&name[..name.len() - 1], d - b'0'),
            _ => (name, 1),
        };
        Scalar::ALL
            .iter()
            .find(|s| s.name() == base)
            .map(|&scalar| Type { scalar, width })
    }

    /// The Brook+ name (`float4`).
    pub fn name(self) -> String {
        if self.width == 1 {
            self.scalar.name().to_string()
        } else {
            format!("{}{}", self.scalar.name(), self.width)
        }
    }
}

/// A type as written.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TypeName {
    /// The type.
    pub ty: Type,
    /// Where it is written.
    pub span: Span,
}

/// A kernel: `kernel void NAME(PARAMS) { BODY }` or `reduce void ...`.
#[derive(Clone, Debug, PartialEq)]
pub struct Kernel {
    /// True for a `reduce` kernel.
    pub reduce: bool,
    /// The `kernel` / `reduce` keyword.
    pub keyword: Span,
    /// The kernel's name.
    pub name: Ident,
    /// Its parameters.
    pub params: Vec<Param>,
    /// Its body.
    pub body: Block,
    /// From the keyword to the closing brace.
    pub span: Span,
}

/// How a kernel parameter is passed.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum ParamKind {
    /// `T a<>`: an input stream.
    Stream,
    /// `T g[]...`: a gather array with this many dimensions.
    Gather(u8),
    /// `T s`: a scalar.
    Scalar,
    /// `out T b<>`: an output stream.
    OutStream,
    /// `out T o[]...`: a scatter output with this many dimensions.
    Scatter(u8),
    /// `reduce T r<>` or `reduce T r`: the result of a reduce kernel.
    Reduce,
}

/// A kernel parameter.
#[derive(Clone, Debug, PartialEq)]
pub struct Param {
    /// How it is passed.
    pub kind: ParamKind,
    /// Its element type.
    pub ty: TypeName,
    /// Its name.
    pub name: Ident,
    /// A `const` qualifier, if written (refused by the checker).
    pub const_kw: Option<Span>,
    /// A `*`, if written (refused by the checker).
    pub pointer: Option<Span>,
    /// The whole parameter.
    pub span: Span,
}

/// A `{ ... }` block.
#[derive(Clone, Debug, PartialEq)]
pub struct Block {
    /// Declarations and statements, in order.
    pub items: Vec<BlockItem>,
    /// From `{` to `}`.
    pub span: Span,
}

/// A declaration or a statement.
#[derive(Clone, Debug, PartialEq)]
pub enum BlockItem {
    /// `T a = e, b;`
    Decl(Decl),
    /// A statement.
    Stmt(Stmt),
}

/// A local declaration: `T a;`, `T a = e;` (several declarators allowed).
#[derive(Clone, Debug, PartialEq)]
pub struct Decl {
    /// The declared type.
    pub ty: TypeName,
    /// The declared names with their initializers.
    pub vars: Vec<(Ident, Option<Expr>)>,
    /// A `*`, if written (refused by the checker).
    pub pointer: Option<Span>,
    /// The whole declaration.
    pub span: Span,
}

/// An assignment operator: `=` or a compound one.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum AssignOp {
    /// `=`
    Set,
    /// `op=`: the binary operator applied.
    Compound(BinOp),
}

/// A statement.
#[derive(Clone, Debug, PartialEq)]
pub struct Stmt {
    /// What it is.
    pub kind: StmtKind,
    /// Where it is.
    pub span: Span,
}

/// The statement forms.
#[derive(Clone, Debug, PartialEq)]
pub enum StmtKind {
    /// `lhs op rhs;` (`op_span` is the operator).
    Assign {
        /// The assigned place.
        lhs: Expr,
        /// `=` or `+=` etc.
        op: AssignOp,
        /// The operator's position.
        op_span: Span,
        /// The value.
        rhs: Expr,
    },
    /// `if (cond) then [else els]`
    If {
        /// The condition.
        cond: Expr,
        /// The then branch.
        then: Box<Stmt>,
        /// The else branch.
        els: Option<Box<Stmt>>,
    },
    /// `while (cond) body`
    While {
        /// The condition.
        cond: Expr,
        /// The body.
        body: Box<Stmt>,
    },
    /// `for (init; cond; step) body`
    For {
        /// The initialization: an assignment, or a declaration (refused).
        init: Option<Box<BlockItem>>,
        /// The condition (none: forever).
        cond: Option<Expr>,
        /// The step, an assignment.
        step: Option<Box<Stmt>>,
        /// The body.
        body: Box<Stmt>,
    },
    /// `{ ... }`
    Block(Block),
    /// `break;`
    Break,
    /// `continue;`
    Continue,
    /// `return;`
    Return,
    /// `;`
    Empty,
    /// `goto label;` or `label:` (refused by the checker).
    Goto,
    /// `switch (...) ...`, `case`, `default:` (refused by the checker; the
    /// statement is skipped).
    Switch,
}

/// A unary operator.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum UnOp {
    /// `-e`
    Neg,
    /// `+e`
    Plus,
    /// `!e`
    Not,
    /// `~e`
    BitNot,
    /// `*e` (refused: no pointers)
    Deref,
    /// `&e` (refused: no pointers)
    AddrOf,
}

/// A binary operator.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum BinOp {
    /// `*`
    Mul,
    /// `/`
    Div,
    /// `%`
    Rem,
    /// `+`
    Add,
    /// `-`
    Sub,
    /// `<<`
    Shl,
    /// `>>`
    Shr,
    /// `<`
    Lt,
    /// `<=`
    Le,
    /// `>`
    Gt,
    /// `>=`
    Ge,
    /// `==`
    Eq,
    /// `!=`
    Ne,
    /// `&`
    BitAnd,
    /// `^`
    BitXor,
    /// `|`
    BitOr,
    /// `&&`
    And,
    /// `||`
    Or,
}

impl BinOp {
    /// The C spelling.
    pub fn text(self) -> &'static str {
        match self {
            BinOp::Mul => "*",
            BinOp::Div => "/",
            BinOp::Rem => "%",
            BinOp::Add => "+",
            BinOp::Sub => "-",
            BinOp::Shl => "<<",
            BinOp::Shr => ">>",
            BinOp::Lt => "<",
            BinOp::Le => "<=",
            BinOp::Gt => ">",
            BinOp::Ge => ">=",
            BinOp::Eq => "==",
            BinOp::Ne => "!=",
            BinOp::BitAnd => "&",
            BinOp::BitXor => "^",
            BinOp::BitOr => "|",
            BinOp::And => "&&",
            BinOp::Or => "||",
        }
    }

    /// True for the comparisons (their result is `int`).
    pub fn is_comparison(self) -> bool {
        matches!(
            self,
            BinOp::Lt | BinOp::Le | BinOp::Gt | BinOp::Ge | BinOp::Eq | BinOp::Ne
        )
    }
}

/// An expression.
#[derive(Clone, Debug, PartialEq)]
pub struct Expr {
    /// What it is.
    pub kind: ExprKind,
    /// Where it is.
    pub span: Span,
}

/// The expression forms.
#[derive(Clone, Debug, PartialEq)]
pub enum ExprKind {
    /// An integer literal (`u` suffix: `uint`).
    Int {
        /// Its value.
        value: u64,
        /// True with a `u` suffix.
        unsigned: bool,
    },
    /// A floating-point literal as written (`f` suffix: `float`, else `double`).
    Float {
        /// The spelling, suffix included.
        text: String,
        /// True with an `f` suffix.
        single: bool,
    },
    /// A name.
    Name(String),
    /// `op e`
    Unary(UnOp, Box<Expr>),
    /// `a op b` (`Span` is the operator).
    Binary(BinOp, Span, Box<Expr>, Box<Expr>),
    /// `c ? a : b` (`Span` is the `?`).
    Cond(Span, Box<Expr>, Box<Expr>, Box<Expr>),
    /// `(T)e`
    Cast(TypeName, Box<Expr>),
    /// `f(args)` of a built-in (or an unknown function).
    Call(Ident, Vec<Expr>),
    /// `float4(a, b, c, d)`
    Construct(TypeName, Vec<Expr>),
    /// `a[i]`
    Index(Box<Expr>, Box<Expr>),
    /// `v.xy`
    Member(Box<Expr>, Ident),
    /// `p->m` (refused: no pointers)
    Arrow(Box<Expr>, Ident),
}
