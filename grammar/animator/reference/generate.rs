//! The Animator reference grammar's commands, written from the command
//! table by the build script (`build.rs`; this file is the build script's
//! module, not the library's).
//!
//! For every row, one alternative per form, its symbols chosen as the
//! language's order of preference says (a string where another form takes
//! a number at the same place is a `Name`, which takes no number), and one
//! error alternative per point where a command can be cut (a prefix of
//! forms that no form completes), naming what the forms through it take
//! next; a point list has the alternatives of a list cut short or ending
//! in half a point. What is expected is computed here from the forms,
//! independently of the reader's threads, so `tests/animator_grammar.rs`
//! still compares two readings of the table.

// The names the table's `forms` column uses.
#[allow(unused_imports)]
use crate::elem::Elem::{
    self, ColorName, Dot, HAlign as HAl, Hex256, Int as I, Num as N, OnOff, Points, Sep, VAlign as VAl, Word,
};
use crate::elem::{AREA, CURSOR, FILE, FILE_OR_DASH, IMAGE, MACRO, STRING, describe};
use std::collections::BTreeSet;
use std::fmt::Write as _;

/// One field of a `Cmd` variant, as the table's `cmds` column writes it.
struct Field {
    name: &'static str,
    pre: bool,
    kind: &'static str,
    post: bool,
}

/// One `Cmd` variant, the forms it is read from and its fields.
struct Variant {
    name: &'static str,
    forms: Vec<usize>,
    fields: Vec<Field>,
}

/// One row of the table.
struct Row {
    key: &'static str,
    kw: &'static str,
    variants: Vec<Variant>,
    forms: Vec<Vec<Elem>>,
}

macro_rules! rows_from_table {
    ($($k:ident $kw:tt {
        cmds: [$($(#[$vm:meta])* $v:ident ($($fi:literal),*) {
            $($(#[$fm:meta])* $f:ident : $($pre:literal)? $kind:ident $(($karg:literal))? $($post:literal)?),*
        }),*],
        macro_body: $m:tt,
        usage: $u:literal,
        forms: [$([$($el:expr),*]),*],
        $($rest:tt)*
    })*) => {
        fn rows() -> Vec<Row> {
            vec![$(Row {
                key: stringify!($k),
                kw: $kw,
                variants: vec![$(Variant {
                    name: stringify!($v),
                    forms: vec![$($fi),*],
                    fields: vec![$(Field {
                        name: stringify!($f),
                        pre: false $(|| { let _: &str = $pre; true })?,
                        kind: stringify!($kind),
                        post: false $(|| { let _: &str = $post; true })?,
                    }),*],
                }),*],
                forms: vec![$(vec![$($el),*]),*],
            }),*]
        }
    };
}

crate::animator_commands!(rows_from_table);

/// The grammar: `template` with its markers replaced.
pub fn grammar(template: &str) -> String {
    let rows = rows();
    let mut keywords = String::new();
    let mut names = Vec::new();
    let mut rules = String::new();
    let mut lists = BTreeSet::new();
    for row in &rows {
        let _ = writeln!(keywords, "        \"{}\" => T::Kw(Keyword::{}),", row.kw, row.key);
        names.push(format!("Row{}", row.key));
        rules.push_str(&row_rules(row, &rows, &mut lists));
    }
    let mut points = String::new();
    for n in lists {
        points.push_str(&point_rules(n));
    }
    let replace = |text: String, marker: &str, with: &str| {
        assert!(text.contains(marker), "the template lacks {marker}");
        text.replace(marker, with)
    };
    let text = replace(template.to_string(), "        // @keywords\n", &keywords);
    let text = replace(text, "// @commands", &names.join(", "));
    let text = replace(text, "// @points\n", &points);
    replace(text, "// @rules\n", &rules)
}

/// The grammar symbol of element `e` of a form, `name` when a string there
/// must not take a number (another form takes one there).
fn symbol(e: Elem, name: bool, rows: &[Row]) -> String {
    match e {
        N => "N".into(),
        I => "I".into(),
        Elem::Str(_) if name => "Name".into(),
        Elem::Str(_) => "S".into(),
        Word(w) => {
            // A context word is a keyword's terminal (`warp area`).
            assert!(rows.iter().any(|r| r.kw == w), "context word `{w}` is no keyword");
            format!("\"{w}\"")
        }
        OnOff => "Switch".into(),
        HAl => "H".into(),
        VAl => "V".into(),
        Sep => "Sep".into(),
        Dot => "\".\"".into(),
        Points(n) => format!("Pts{n}"),
        Elem::Char => "Key".into(),
        ColorName => "ColorName".into(),
        Hex256 => "Hex".into(),
    }
}

/// Each form's symbols: a string is a `Name` where another form with the
/// same symbols so far takes a number next.
fn symbols(row: &Row, rows: &[Row]) -> Vec<Vec<String>> {
    let mut syms: Vec<Vec<String>> = vec![Vec::new(); row.forms.len()];
    let longest = row.forms.iter().map(Vec::len).max().unwrap_or(0);
    for i in 0..longest {
        let next: Vec<Option<String>> = (0..row.forms.len())
            .map(|f| {
                let e = *row.forms[f].get(i)?;
                let number_competes = (0..row.forms.len()).any(|g| {
                    g != f
                        && syms[g].len() == i
                        && syms[g] == syms[f]
                        && matches!(row.forms[g].get(i), Some(N | I | Points(_)))
                });
                Some(symbol(e, number_competes, rows))
            })
            .collect();
        for (f, s) in next.into_iter().enumerate() {
            if let Some(s) = s {
                syms[f].push(s);
            }
        }
    }
    syms
}

/// A `Want` for the error alternatives: what messages say is expected
/// (`items`, each once, in the order of the forms), whether a string is
/// among it, whether one character goes there.
fn want(next: &[Elem]) -> String {
    let mut items: Vec<&str> = Vec::new();
    for &e in next {
        for item in describe(e) {
            if !items.contains(item) {
                items.push(item);
            }
        }
    }
    // A colour may be a number too; the message says colour.
    if items.contains(&"a colour") {
        items.retain(|&i| i != "a number");
    }
    let string = next.iter().any(|e| matches!(e, Elem::Str(_) | ColorName | Hex256));
    let char = next.iter().any(|e| matches!(e, Elem::Char));
    let items: Vec<String> = items.iter().map(|i| format!("{i:?}")).collect();
    format!("{{ const W: Want = Want::new(&[{}], {string}, {char}); &W }}", items.join(", "))
}

/// `<l:@L> "kw"` and the symbols `syms`, unbound.
fn head(row: &Row, syms: &[String]) -> String {
    let mut s = format!("    <l:@L> \"{}\"", row.kw);
    for sym in syms {
        s.push(' ');
        s.push_str(sym);
    }
    s
}

/// The rules of one row.
fn row_rules(row: &Row, rows: &[Row], lists: &mut BTreeSet<u8>) -> String {
    let syms = symbols(row, rows);
    let kw = format!("Keyword::{}", row.key);
    let mut alts: Vec<String> = Vec::new();
    let mut push = |alt: String| {
        if !alts.contains(&alt) {
            alts.push(alt);
        }
    };
    // The forms.
    for (f, form) in row.forms.iter().enumerate() {
        let variant = row.variants.iter().find(|v| v.forms.contains(&f));
        let variant = variant.unwrap_or_else(|| panic!("`{}`: form {f} has no variant", row.kw));
        let mut alt = format!("    <l:@L> \"{}\"", row.kw);
        let value = construct(variant, form);
        for (i, sym) in syms[f].iter().enumerate() {
            let bound = value.match_indices(&format!("a{i}")).any(|(at, m)| {
                !value[at + m.len()..].starts_with(|c: char| c.is_ascii_digit())
                    && !value[..at].ends_with(|c: char| c.is_alphanumeric() || c == '_')
            });
            if bound {
                let _ = write!(alt, " <a{i}:{sym}>");
            } else {
                let _ = write!(alt, " {sym}");
            }
        }
        let _ = write!(alt, " <r:@R> => ok(l, r, {value}),");
        push(alt);
    }
    // The cuts: every prefix of a form that no form completes.
    for (f, form) in row.forms.iter().enumerate() {
        for i in 0..form.len() {
            let prefix = &syms[f][..i];
            let through: Vec<usize> =
                (0..row.forms.len()).filter(|&g| syms[g].len() >= i && syms[g][..i] == *prefix).collect();
            if through.iter().any(|&g| syms[g].len() == i) {
                continue;
            }
            let next: Vec<Elem> = through.iter().map(|&g| row.forms[g][i]).collect();
            if let Points(min) = form[i] {
                assert!(
                    next.iter().all(|e| *e == Points(min)),
                    "`{}`: a point list where another form goes on",
                    row.kw
                );
                let h = head(row, prefix);
                if i + 1 == form.len() && min > 0 {
                    lists.insert(min);
                    push(format!(
                        "{h} <k:@R> <p:Short{min}> <e:!> => Err(cut_short(src, {kw}, l, l, short({i}, k, p, {{ const W: Want = Want::at_least({min}); &W }}, e))),"
                    ));
                    push(format!("{h} <o:Odd{min}> <e:!> => Err(cut_short(src, {kw}, l, l, odd({i}, o, e))),"));
                } else if i + 2 == form.len() && min == 0 {
                    let w = want(&[Points(0), form[i + 1]]);
                    push(format!(
                        "{h} <k:@R> <p:Pts0> <e:!> => Err(cut_short(src, {kw}, l, l, short({i}, k, p, {w}, e))),"
                    ));
                    push(format!("{h} <p:Pts0> <x:N> <e:!> => Err(cut_short(src, {kw}, l, l, odd({i}, (p, x), e))),"));
                } else {
                    panic!("`{}`: a point list the grammar writer does not know", row.kw);
                }
                // What follows a point list is cut with it.
                break;
            } else {
                assert!(!next.iter().any(|e| matches!(e, Points(_))), "`{}`: a point list beside another form", row.kw);
                let taken = prefix.len();
                push(format!(
                    "{} <k:@R> <e:!> => after(src, {kw}, l, {taken}, k, {}, e),",
                    head(row, prefix),
                    want(&next)
                ));
            }
        }
        for e in form {
            if let Points(n) = e {
                lists.insert(*n);
            }
        }
    }
    format!("Row{}: Item = {{\n{}\n}};\n\n", row.key, alts.join("\n"))
}

/// The `Cmd` that form `form` of `variant` builds from its symbols'
/// values `a0`, `a1`... (a field per kind, as the reader's `build` takes
/// them).
fn construct(variant: &Variant, form: &[Elem]) -> String {
    if variant.fields.is_empty() {
        return format!("Cmd::{}", variant.name);
    }
    let mut e = 0;
    let mut fields = Vec::new();
    for field in &variant.fields {
        if field.pre {
            e += 1;
        }
        let a = |i: usize| format!("a{i}");
        let value = match field.kind {
            "Num" | "Int" | "Bits" | "Str" | "Name" | "Hex" | "Points" | "On" | "Char" => {
                e += 1;
                a(e - 1)
            }
            "OptStr" => {
                e += 1;
                format!("if a{0}.text == \"-\" {{ None }} else {{ Some(a{0}) }}", e - 1)
            }
            "Point" => {
                e += 2;
                format!("Point {{ x: {}, y: {} }}", a(e - 2), a(e - 1))
            }
            "Nums" => {
                let n = form[e..].iter().take_while(|x| **x == N).count();
                e += n;
                format!("[{}]", (e - n..e).map(a).collect::<Vec<_>>().join(", "))
            }
            "OptNum" if form.get(e) == Some(&N) => {
                e += 1;
                format!("Some({})", a(e - 1))
            }
            "OptAlign" if form.get(e) == Some(&HAl) => {
                e += 2;
                format!("Some(align({}, {}))", a(e - 2), a(e - 1))
            }
            "OptNum" | "OptAlign" => "None".into(),
            "Flag" if matches!(form.get(e), Some(Word(_))) => {
                e += 1;
                "true".into()
            }
            "Flag" => "false".into(),
            "Color" => match (form.get(e), form.get(e + 1)) {
                (Some(N), Some(N)) => {
                    e += 3;
                    format!("Color::Rgb({}, {}, {})", a(e - 3), a(e - 2), a(e - 1))
                }
                (Some(N), _) => {
                    e += 1;
                    format!("Color::Gray({})", a(e - 1))
                }
                _ => {
                    e += 1;
                    a(e - 1)
                }
            },
            other => panic!("`{}`: unknown field kind {other}", variant.name),
        };
        if field.post {
            e += 1;
        }
        fields.push(format!("{}: {value}", field.name));
    }
    assert_eq!(e, form.len(), "`{}`: the fields do not take the form", variant.name);
    format!("Cmd::{} {{ {} }}", variant.name, fields.join(", "))
}

/// A point list of at least `n` points (`Pts{n}`), the lists with fewer
/// (`Short{n}`) and the lists ending in half a point (`Odd{n}`).
fn point_rules(n: u8) -> String {
    let n = usize::from(n);
    let pts = |k: usize| (0..k).map(|i| format!("<p{i}:Pt>")).collect::<Vec<_>>().join(" ");
    let vec = |k: usize| format!("vec![{}]", (0..k).map(|i| format!("p{i}")).collect::<Vec<_>>().join(", "));
    let mut s = format!("Pts{n}: Vec<Point> = {{\n");
    if n == 0 {
        s.push_str("    => Vec::new(),\n");
    } else {
        let _ = writeln!(s, "    {} => {},", pts(n), vec(n));
    }
    let _ = writeln!(s, "    <mut v:Pts{n}> <p:Pt> => {{ v.push(p); v }},\n}};");
    if n > 0 {
        let _ = writeln!(s, "Short{n}: Vec<Point> = {{");
        for k in 0..n {
            let _ = writeln!(s, "    {} => {},", pts(k), vec(k));
        }
        let _ = writeln!(s, "}};\nOdd{n}: (Vec<Point>, Num) = {{");
        for k in 0..n {
            let _ = writeln!(s, "    {} <x:N> => ({}, x),", pts(k), vec(k));
        }
        let _ = writeln!(s, "    <v:Pts{n}> <x:N> => (v, x),\n}};");
    }
    s
}
