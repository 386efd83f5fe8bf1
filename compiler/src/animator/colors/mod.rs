//! Animator colours: the named colour table and [`resolve`], which turns any
//! written [`Color`] into RGB in 0..1.
//!
//! # Names
//!
//! The table holds the 148 CSS Color Module Level 4 names (`darkgreen`,
//! `lightgrey` and `lightgray`, `rebeccapurple`, ...) and then every other
//! name of X.Org's `rgb.txt` (518 more: `navyblue`, `lightgoldenrod`,
//! `violetred`, `lightslateblue` and the numbered shades `red1`..`red4`,
//! `gray0`..`gray100`, ...), leaving out the Debian addition `debianred`.
//! Where CSS and X11 disagree (`gray`/`grey`, `green`, `maroon`, `purple`),
//! the CSS value wins, as it does in browsers and SVG.
//!
//! Lookup ignores case and spaces, so `DarkGreen`, `dark green` and
//! `darkgreen` are the same colour (X11 spells names both ways).
//!
//! An unknown name is an error with a suggestion, the known name nearest by
//! edit distance (CSS names preferred on ties), when one is close enough:
//! `darkgren` suggests `darkgreen`.
//!
//! # Other forms
//!
//! | written | means |
//! | --- | --- |
//! | `#rrggbb` | red, green, blue, 0-255 each |
//! | `#rgb` | each digit duplicated: `#f80` is `#ff8800` |
//! | `#gg` | grey level 0-255 |
//! | `#g` | grey, digit duplicated: `#8` is `#888888` |
//! | `r g b` | three numbers, 0..1 each |
//! | `g` | one number, a grey level 0..1 |
//!
//! Numbers outside 0..1 are clamped to it (`color 2 -1 0.5` is `1 0 0.5`),
//! as a display would saturate them; a NaN (which the reader never produces)
//! counts as 0.
//!
//! ```
//! use animkit_compiler::animator::colors::resolve;
//! use animkit_grammar::animator::{ast::{Cmd, Color}, parse};
//! let (cmds, _) = parse("color dark_green color \"Dark Green\" color #f80 color 0.5");
//! let Cmd::Color { color } = &cmds[1].kind else { panic!() };
//! assert_eq!(resolve(color), Ok([0.0, 100.0 / 255.0, 0.0]));
//! let Cmd::Color { color } = &cmds[0].kind else { panic!() };
//! let err = resolve(color).unwrap_err();
//! assert_eq!(err.message, "unknown colour `dark_green` (did you mean `darkgreen`?)");
//! let Cmd::Color { color } = &cmds[2].kind else { panic!() };
//! assert_eq!(resolve(color), Ok([1.0, 0x88 as f64 / 255.0, 0.0]));
//! let Cmd::Color { color } = &cmds[3].kind else { panic!() };
//! assert_eq!(resolve(color), Ok([0.5; 3]));
//! ```

use crate::suggest::{Costs, MAX_SUGGEST_LEN, distance_within};
use animkit_grammar::Span;
use animkit_grammar::animator::ast::{Color, Num};
use names::NAMED;
use std::fmt;

mod names;

/// A colour that cannot be resolved.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ColorError {
    /// Where the colour is written.
    pub span: Span,
    /// One line, suggestion included: "unknown colour `darkgren` (did you
    /// mean `darkgreen`?)".
    pub message: String,
    /// The suggested name, if one is close.
    pub suggestion: Option<&'static str>,
}

impl fmt::Display for ColorError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.message)
    }
}

impl std::error::Error for ColorError {}

/// RGB in 0..1 of any written colour (see the module docs for the forms).
pub fn resolve(color: &Color) -> Result<[f64; 3], ColorError> {
    match color {
        Color::Name(name) => match lookup(&name.text) {
            Some(rgb) => Ok(unit(rgb)),
            None => {
                let suggestion = suggest(&name.text);
                // A long name is quoted as an excerpt (its start and length).
                let mut message = format!("unknown colour {}", animkit_vm::engine::suggest::Quoted(&name.text));
                if let Some(s) = suggestion {
                    message.push_str(&format!(" (did you mean `{s}`?)"));
                }
                Err(ColorError { span: name.span, message, suggestion })
            }
        },
        Color::Hex(hex) => match parse_hex(&hex.text) {
            Some(rgb) => Ok(unit(rgb)),
            None => Err(ColorError {
                span: hex.span,
                message: format!("`{}` is not a hex colour (`#` takes 1, 2, 3 or 6 hex digits)", hex.text),
                suggestion: None,
            }),
        },
        Color::Rgb(r, g, b) => Ok([clamp(r), clamp(g), clamp(b)]),
        Color::Gray(g) => Ok([clamp(g); 3]),
    }
}

/// The 0-255 RGB of a colour name (case and spaces ignored).
///
/// ```
/// use animkit_compiler::animator::colors::lookup;
/// assert_eq!(lookup("LightGrey"), Some([211, 211, 211]));
/// assert_eq!(lookup("navy blue"), Some([0, 0, 128]));
/// assert_eq!(lookup("green"), Some([0, 128, 0])); // CSS, not X11's 0 255 0
/// assert_eq!(lookup("gray50"), Some([127, 127, 127]));
/// assert_eq!(lookup("bleu"), None);
/// ```
pub fn lookup(name: &str) -> Option<[u8; 3]> {
    let key = normalise(name);
    let i = NAMED.binary_search_by(|(n, _, _)| (*n).cmp(key.as_str())).ok()?;
    Some(rgb(NAMED[i].1))
}

/// Every known name (lower case, no spaces) with its 0-255 RGB, sorted by
/// name; `true` marks the 148 CSS names.
pub fn names() -> impl Iterator<Item = (&'static str, [u8; 3], bool)> {
    NAMED.iter().map(|&(n, v, css)| (n, rgb(v), css))
}

fn normalise(name: &str) -> String {
    name.chars().filter(|c| !c.is_whitespace()).flat_map(char::to_lowercase).collect()
}

fn rgb(v: u32) -> [u8; 3] {
    [(v >> 16) as u8, (v >> 8) as u8, v as u8]
}

fn unit(c: [u8; 3]) -> [f64; 3] {
    c.map(|v| f64::from(v) / 255.0)
}

/// A colour number clamped to 0..1 (a NaN counts as 0).
#[inline]
pub(crate) fn clamp(n: &Num) -> f64 {
    if n.value.is_nan() { 0.0 } else { n.value.clamp(0.0, 1.0) }
}

/// `#rrggbb`, `#rgb`, `#gg`, `#g` (the `#` optional).
fn parse_hex(text: &str) -> Option<[u8; 3]> {
    let digits = text.strip_prefix('#').unwrap_or(text);
    if !digits.bytes().all(|b| b.is_ascii_hexdigit()) {
        return None;
    }
    let d: Vec<u8> = digits.bytes().map(|b| (b as char).to_digit(16).unwrap_or(0) as u8).collect();
    match d[..] {
        [r1, r2, g1, g2, b1, b2] => Some([r1 * 16 + r2, g1 * 16 + g2, b1 * 16 + b2]),
        [r, g, b] => Some([r * 17, g * 17, b * 17]),
        [g1, g2] => Some([g1 * 16 + g2; 3]),
        [g] => Some([g * 17; 3]),
        _ => None,
    }
}

/// Twice the cost of each edit: a substitution weighs one and a half
/// edits, so a dropped letter wins over a wrong one (`darkgren` is
/// `darkgreen`, not `darkgrey`).
const COSTS: Costs = Costs { edit: 2, substitute: 3 };

/// The known name nearest to `name`, if it is close: at most one edit in
/// four characters, and at most three (see [`COSTS`]). A name over
/// [`MAX_SUGGEST_LEN`] characters gets none, and the bounded distance skips
/// the names out of reach by length alone, so a 4 MB name costs one pass.
fn suggest(name: &str) -> Option<&'static str> {
    let key = normalise(name);
    let len = animkit_vm::engine::suggest::char_count_within(&key, MAX_SUGGEST_LEN)?;
    if len == 0 {
        return None;
    }
    let limit = 2 * (len / 4).clamp(1, 3);
    NAMED
        .iter()
        .filter_map(|&(n, _, css)| Some((distance_within(&key, n, COSTS, limit)?, !css, n.len(), n)))
        .min()
        .map(|(.., n)| n)
}

#[cfg(test)]
mod tests {
    use super::*;
    use animkit_grammar::animator::ast::Str;

    fn name(text: &str) -> Color {
        Color::Name(Str { text: text.into(), span: Span::new(3, 3 + text.len()) })
    }

    fn hex(text: &str) -> Color {
        Color::Hex(Str { text: text.into(), span: Span::new(0, text.len()) })
    }

    fn num(value: f64) -> Num {
        Num { value, span: Span::default() }
    }

    #[test]
    fn table_is_sorted_unique_and_complete() {
        assert!(NAMED.windows(2).all(|w| w[0].0 < w[1].0));
        assert_eq!(NAMED.iter().filter(|n| n.2).count(), 148);
        for n in ["darkgreen", "lightgrey", "lightgray", "rebeccapurple", "aqua", "crimson", "navyblue", "gray100"] {
            assert!(lookup(n).is_some(), "{n}");
        }
        assert!(NAMED.iter().all(|(n, ..)| *n == normalise(n)));
    }

    #[test]
    fn names_resolve_case_and_space_insensitively() {
        assert_eq!(resolve(&name("black")), Ok([0.0; 3]));
        assert_eq!(resolve(&name("White")), Ok([1.0; 3]));
        assert_eq!(resolve(&name("dark green")), Ok([0.0, 100.0 / 255.0, 0.0]));
        assert_eq!(resolve(&name("DARKGREEN")), resolve(&name("darkgreen")));
        assert_eq!(
            resolve(&name("rebeccapurple")),
            Ok([0x66 as f64 / 255.0, 0x33 as f64 / 255.0, 0x99 as f64 / 255.0])
        );
        assert_eq!(lookup("purple"), Some([128, 0, 128]));
        assert_eq!(lookup("maroon"), Some([128, 0, 0]));
        assert_eq!(lookup("grey"), lookup("gray"));
        assert_eq!(lookup("violet red"), Some([208, 32, 144]));
        assert_eq!(lookup("grey0"), Some([0, 0, 0]));
    }

    #[test]
    fn unknown_names_suggest_the_nearest() {
        let err = resolve(&name("darkgren")).unwrap_err();
        assert_eq!(err.message, "unknown colour `darkgren` (did you mean `darkgreen`?)");
        assert_eq!(err.suggestion, Some("darkgreen"));
        assert_eq!(err.span, Span::new(3, 11));
        assert_eq!(resolve(&name("bleu")).unwrap_err().suggestion, Some("blue"));
        assert_eq!(resolve(&name("lightgrye")).unwrap_err().suggestion, Some("lightgrey"));
        assert_eq!(resolve(&name("red5")).unwrap_err().suggestion, Some("red"));
        let far = resolve(&name("xyzzy")).unwrap_err();
        assert_eq!((far.message.as_str(), far.suggestion), ("unknown colour `xyzzy`", None));
        assert_eq!(resolve(&name("")).unwrap_err().suggestion, None);
    }

    #[test]
    fn hex_forms() {
        assert_eq!(resolve(&hex("#ff0000")), Ok([1.0, 0.0, 0.0]));
        assert_eq!(resolve(&hex("#00FF80")), Ok([0.0, 1.0, 128.0 / 255.0]));
        assert_eq!(resolve(&hex("#f80")), resolve(&hex("#ff8800")));
        assert_eq!(resolve(&hex("#80")), Ok([128.0 / 255.0; 3]));
        assert_eq!(resolve(&hex("#8")), resolve(&hex("#888888")));
        assert_eq!(resolve(&hex("#0")), Ok([0.0; 3]));
        for bad in ["#", "#1234", "#12345", "#ggg", "#1234567"] {
            let err = resolve(&hex(bad)).unwrap_err();
            assert_eq!(err.message, format!("`{bad}` is not a hex colour (`#` takes 1, 2, 3 or 6 hex digits)"));
        }
    }

    #[test]
    fn numbers_are_clamped() {
        assert_eq!(resolve(&Color::Rgb(num(0.25), num(0.5), num(1.0))), Ok([0.25, 0.5, 1.0]));
        assert_eq!(resolve(&Color::Rgb(num(2.0), num(-1.0), num(0.5))), Ok([1.0, 0.0, 0.5]));
        assert_eq!(resolve(&Color::Gray(num(0.5))), Ok([0.5; 3]));
        assert_eq!(resolve(&Color::Gray(num(7.0))), Ok([1.0; 3]));
        assert_eq!(resolve(&Color::Gray(num(f64::NAN))), Ok([0.0; 3]));
    }

    #[test]
    fn every_colour_form_from_source() {
        use animkit_grammar::animator::{ast::Cmd, parse};
        let (cmds, errors) = parse("color red bg \"Lime Green\" color #123 color 0 0.5 1 bg 0.25 colormap x #fff");
        assert!(errors.is_empty(), "{errors:?}");
        let colors: Vec<[f64; 3]> = cmds
            .iter()
            .map(|c| match &c.kind {
                Cmd::Color { color } | Cmd::Bg { color } | Cmd::Colormap { color, .. } => resolve(color).unwrap(),
                other => panic!("{other:?}"),
            })
            .collect();
        assert_eq!(colors[0], [1.0, 0.0, 0.0]);
        assert_eq!(colors[1], unit([50, 205, 50]));
        assert_eq!(colors[2], unit([0x11, 0x22, 0x33]));
        assert_eq!(colors[3], [0.0, 0.5, 1.0]);
        assert_eq!(colors[4], [0.25; 3]);
        assert_eq!(colors[5], [1.0; 3]);
    }
}
