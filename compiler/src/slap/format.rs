//! The SLAP formatter behind `animc --fmt`: one directive per line, its
//! keyword and arguments separated by single spaces, no indentation.
//!
//! - Expressions are printed as written, parentheses included (they are
//!   nodes of the tree), numbers and names in their own text: outside
//!   parentheses without spaces (`-PI/2`, `2*sec`, `+10`), inside them
//!   with a space on each side of a binary operator (`(a + b)*2`,
//!   `((x - 1) / 2)`). Unary minus never takes a space. A call's
//!   arguments are inside its parentheses, separated by `, `
//!   (`atan2(y - 1, x)*2`). Printed so, every
//!   expression reads back to the same tree.
//! - With the source text, comments are kept: a comment on a directive's
//!   line stays after it (one space before the `#`); a comment on a line of
//!   its own stays on its own line. One blank line is kept wherever the
//!   source had any.
//!
//! ```
//! let src = "# scene\n  time   +( a+1 )*2   # later\n\n\nactor 1  color red\n";
//! let (file, _) = animkit_grammar::slap::parse(src);
//! assert_eq!(
//!     animkit_compiler::slap::format::format(&file, Some(src)),
//!     "# scene\ntime +(a + 1)*2 # later\n\nactor 1 color red\n"
//! );
//! ```

use animkit_grammar::Span;
use animkit_grammar::slap::ast::{Arg, Comment, Directive, Expr, File, Line};

/// `e` as text; `inside` is true within parentheses.
fn expr(e: &Expr<'_>, inside: bool, out: &mut String) {
    match e {
        Expr::Number(n) => out.push_str(n.text),
        Expr::Name(n) => out.push_str(n.text),
        Expr::Neg { operand, .. } => {
            out.push('-');
            expr(operand, inside, out);
        }
        Expr::Binary { op, lhs, rhs, .. } => {
            expr(lhs, inside, out);
            if inside {
                out.push(' ');
                out.push(op.symbol());
                out.push(' ');
            } else {
                out.push(op.symbol());
            }
            expr(rhs, inside, out);
        }
        Expr::Call { name, args, .. } => {
            out.push_str(name.text);
            out.push('(');
            for (i, a) in args.iter().enumerate() {
                if i > 0 {
                    out.push_str(", ");
                }
                expr(a, true, out);
            }
            out.push(')');
        }
        Expr::Paren { inner, .. } => {
            out.push('(');
            expr(inner, true, out);
            out.push(')');
        }
    }
}

/// One argument as text.
///
/// ```
/// let (file, _) = animkit_grammar::slap::parse("time +( a+-1 )/2\n");
/// let animkit_grammar::slap::ast::Line::Directive(d) = &file.lines[0] else { panic!() };
/// assert_eq!(animkit_compiler::slap::format::arg(&d.args[0]), "+(a + -1)/2");
/// ```
pub fn arg(a: &Arg<'_>) -> String {
    let mut out = String::new();
    if a.plus.is_some() {
        out.push('+');
    }
    expr(&a.expr, false, &mut out);
    out
}

/// One directive as a line (without comment or newline).
pub fn directive_line(d: &Directive<'_>) -> String {
    let mut out = d.keyword.text.to_string();
    for a in &d.args {
        out.push(' ');
        out.push_str(&arg(a));
    }
    out
}

enum Item<'a> {
    Line(&'a Line<'a>),
    Comment(&'a Comment<'a>),
}

impl Item<'_> {
    fn span(&self) -> Span {
        match self {
            Item::Line(Line::Directive(d)) => d.span,
            Item::Line(Line::Invalid(i)) => i.span,
            Item::Line(Line::Include(i)) => i.span,
            Item::Comment(c) => c.span,
        }
    }
}

/// Formats `file`. With the source text, blank lines between items are
/// kept (one at most), trailing comments stay on their directive's line,
/// and a line that did not parse is copied as it was written (without the
/// source it is left out; `animc --fmt` formats only files without syntax
/// errors).
pub fn format(file: &File<'_>, src: Option<&str>) -> String {
    let mut items: Vec<Item<'_>> = file.lines.iter().map(Item::Line).collect();
    items.extend(file.comments.iter().map(Item::Comment));
    items.sort_by_key(|i| i.span().start);
    let mut out = String::new();
    let mut prev_end: Option<usize> = None;
    let mut i = 0;
    while i < items.len() {
        let span = items[i].span();
        if let (Some(end), Some(src)) = (prev_end, src) {
            if src.get(end..span.start).is_some_and(|gap| gap.matches('\n').count() >= 2) {
                out.push('\n');
            }
        }
        prev_end = Some(span.end);
        match items[i] {
            Item::Comment(c) => out.push_str(c.text),
            Item::Line(Line::Directive(d)) => out.push_str(&directive_line(d)),
            Item::Line(Line::Include(inc)) => {
                let (open, close) = if inc.builtin { ('<', '>') } else { ('"', '"') };
                out.push_str(&format!("include {open}{}{close}", inc.target));
            }
            Item::Line(Line::Invalid(bad)) => match src.and_then(|s| s.get(bad.span.range())) {
                Some(text) => out.push_str(text),
                None => {
                    i += 1;
                    continue;
                }
            },
        }
        if let (Some(Item::Comment(c)), Some(src), Item::Line(_)) = (items.get(i + 1), src, &items[i]) {
            if src.get(span.end..c.span.start).is_some_and(|gap| !gap.contains('\n')) {
                out.push(' ');
                out.push_str(c.text);
                prev_end = Some(c.span.end);
                i += 1;
            }
        }
        out.push('\n');
        i += 1;
    }
    out
}
