//! The SLAP syntax tree. Every node keeps its byte span.
//!
//! The tree records what was written, not what it means: a directive is a
//! keyword and its arguments, whatever the keyword (`tiem 5` parses, so
//! that the checker can say "did you mean `time`"), attributes and define
//! names are arguments that happen to be bare names, and a `+` before an
//! argument (`time +10`) is kept wherever it was written. Parentheses are
//! nodes, so that the formatter prints what was written.

use crate::Span;

/// A whole `.slap` file: its lines in source order, and its comments. The
/// tree borrows its names, numbers and comments from the source text
/// (`'s`), so that parsing allocates only for lists and operators.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct File<'s> {
    /// One entry per line that holds a directive (blank and comment-only
    /// lines have none), including lines that failed to parse.
    pub lines: Vec<Line<'s>>,
    /// Every `# comment` (the text includes the `#`), kept for the
    /// formatter.
    pub comments: Vec<Comment<'s>>,
}

/// A line with a directive on it.
#[derive(Clone, Debug, PartialEq)]
pub enum Line<'s> {
    /// A directive that parsed.
    Directive(Directive<'s>),
    /// `include "file.slap"` or `include <polly>`.
    Include(Include<'s>),
    /// A line with a syntax error (reported by [`super::parse`]). What it
    /// seems to be is kept so that the checker does not pile errors onto
    /// it: a `define NAME ...` that failed leaves `NAME` defined, to an
    /// unknown value.
    Invalid(Invalid<'s>),
}

/// `KEYWORD ARG ARG ...`
#[derive(Clone, Debug, PartialEq)]
pub struct Directive<'s> {
    /// The first word, as written (`define`, `time`, `timep`, `actor`,
    /// `camera`, or anything else).
    pub keyword: Name<'s>,
    /// The whitespace-separated arguments.
    pub args: Vec<Arg<'s>>,
    /// From the keyword to the end of the last argument.
    pub span: Span,
}

/// `include "FILE"` (a path relative to the including file) or
/// `include <NAME>` (a file shipped with the compiler).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Include<'s> {
    /// The path or name, without its quotes or brackets.
    pub target: &'s str,
    /// True for `<NAME>`.
    pub builtin: bool,
    /// Where the quoted path or bracketed name is.
    pub target_span: Span,
    /// The whole directive.
    pub span: Span,
}

/// A line that did not parse.
#[derive(Clone, Debug, PartialEq)]
pub struct Invalid<'s> {
    /// Its first word, if it is a name.
    pub keyword: Option<Name<'s>>,
    /// Its second word, if it is a name on its own (`define NAME ...`).
    pub first: Option<Name<'s>>,
    /// The line, without surrounding whitespace and comment.
    pub span: Span,
}

/// One argument: an expression, possibly marked `+` (`time +10`).
#[derive(Clone, Debug, PartialEq)]
pub struct Arg<'s> {
    /// Where the leading `+` is, if one was written.
    pub plus: Option<Span>,
    /// The expression after it.
    pub expr: Expr<'s>,
    /// The whole argument, `+` included.
    pub span: Span,
}

impl<'s> Arg<'s> {
    /// The name, if the argument is a bare name (no `+`, no parentheses):
    /// the form that keyword positions (`define NAME`, `actor ID
    /// ATTRIBUTE`) take, and the only form in which a name that stands for
    /// several values expands.
    ///
    /// ```
    /// let (file, _) = animkit_grammar::slap::parse("actor 1 color red (red)\n");
    /// let animkit_grammar::slap::ast::Line::Directive(d) = &file.lines[0] else { panic!() };
    /// let names: Vec<_> = d.args.iter().map(|a| a.as_name().map(|n| n.text)).collect();
    /// assert_eq!(names, [None, Some("color"), Some("red"), None]);
    /// ```
    pub fn as_name(&self) -> Option<&Name<'s>> {
        match (&self.plus, &self.expr) {
            (None, Expr::Name(n)) => Some(n),
            _ => None,
        }
    }
}

/// An arithmetic expression.
#[derive(Clone, Debug, PartialEq)]
pub enum Expr<'s> {
    /// A number as written (no sign: `-1` is a negation).
    Number(Number<'s>),
    /// A defined name.
    Name(Name<'s>),
    /// `-operand`
    Neg {
        /// The operand.
        operand: Box<Expr<'s>>,
        /// From the `-` to the end of the operand.
        span: Span,
    },
    /// `lhs op rhs`
    Binary {
        /// Which operator.
        op: BinOp,
        /// Where the operator is.
        op_span: Span,
        /// Left operand.
        lhs: Box<Expr<'s>>,
        /// Right operand.
        rhs: Box<Expr<'s>>,
        /// From the start of `lhs` to the end of `rhs`.
        span: Span,
    },
    /// `name(arg, ...)`: a function call (`sin(PI/4)`, `atan2(y, x)`).
    /// Which names are functions, and how many arguments each takes, is
    /// the checker's business.
    Call {
        /// The function's name.
        name: Name<'s>,
        /// The arguments, in order (none for `f()`).
        args: Vec<Expr<'s>>,
        /// From the name to the `)`.
        span: Span,
    },
    /// `(inner)`
    Paren {
        /// The expression inside.
        inner: Box<Expr<'s>>,
        /// From `(` to `)`.
        span: Span,
    },
}

impl<'s> Expr<'s> {
    /// The expression's span.
    pub fn span(&self) -> Span {
        match self {
            Expr::Number(n) => n.span,
            Expr::Name(n) => n.span,
            Expr::Neg { span, .. } | Expr::Binary { span, .. } | Expr::Paren { span, .. } | Expr::Call { span, .. } => {
                *span
            }
        }
    }

    fn without_spans(&self) -> Expr<'s> {
        let z = Span::default();
        match self {
            Expr::Number(n) => Expr::Number(Number { text: n.text, span: z }),
            Expr::Name(n) => Expr::Name(Name { text: n.text, span: z }),
            Expr::Neg { operand, .. } => Expr::Neg { operand: Box::new(operand.without_spans()), span: z },
            Expr::Binary { op, lhs, rhs, .. } => Expr::Binary {
                op: *op,
                op_span: z,
                lhs: Box::new(lhs.without_spans()),
                rhs: Box::new(rhs.without_spans()),
                span: z,
            },
            Expr::Paren { inner, .. } => Expr::Paren { inner: Box::new(inner.without_spans()), span: z },
            Expr::Call { name, args, .. } => Expr::Call {
                name: Name { text: name.text, span: z },
                args: args.iter().map(Expr::without_spans).collect(),
                span: z,
            },
        }
    }
}

/// The four arithmetic operators.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum BinOp {
    /// `+`
    Add,
    /// `-`
    Sub,
    /// `*`
    Mul,
    /// `/`
    Div,
}

impl BinOp {
    /// The operator as written.
    ///
    /// ```
    /// assert_eq!(animkit_grammar::slap::ast::BinOp::Div.symbol(), '/');
    /// ```
    pub const fn symbol(self) -> char {
        match self {
            BinOp::Add => '+',
            BinOp::Sub => '-',
            BinOp::Mul => '*',
            BinOp::Div => '/',
        }
    }
}

/// A name as written.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Name<'s> {
    /// The name's text.
    pub text: &'s str,
    /// Where it is.
    pub span: Span,
}

/// A number as written.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Number<'s> {
    /// The digits, fraction and exponent, exactly as in the source.
    pub text: &'s str,
    /// Where it is.
    pub span: Span,
}

/// A `# comment`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Comment<'s> {
    /// The text, from `#` to the end of the line, trailing whitespace
    /// removed.
    pub text: &'s str,
    /// Where it is.
    pub span: Span,
}

impl<'s> File<'s> {
    /// The same tree with every span set to `0..0`, to compare trees
    /// regardless of layout (the formatter's round-trip property).
    ///
    /// ```
    /// let (a, _) = animkit_grammar::slap::parse("time +( a+1 )*2 # x\n");
    /// let (b, _) = animkit_grammar::slap::parse("  time\t+(a + 1)*2  # x");
    /// assert_ne!(a, b);
    /// assert_eq!(a.without_spans(), b.without_spans());
    /// ```
    pub fn without_spans(&self) -> File<'s> {
        let z = Span::default();
        let name = |n: &Name<'s>| Name { text: n.text, span: z };
        File {
            lines: self
                .lines
                .iter()
                .map(|l| match l {
                    Line::Directive(d) => Line::Directive(Directive {
                        keyword: name(&d.keyword),
                        args: d
                            .args
                            .iter()
                            .map(|a| Arg { plus: a.plus.map(|_| z), expr: a.expr.without_spans(), span: z })
                            .collect(),
                        span: z,
                    }),
                    Line::Include(i) => Line::Include(Include { span: z, target_span: z, ..i.clone() }),
                    Line::Invalid(i) => Line::Invalid(Invalid {
                        keyword: i.keyword.as_ref().map(name),
                        first: i.first.as_ref().map(name),
                        span: z,
                    }),
                })
                .collect(),
            comments: self.comments.iter().map(|c| Comment { text: c.text, span: z }).collect(),
        }
    }
}
