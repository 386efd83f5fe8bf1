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

use animkit_grammar::Span;
use animkit_grammar::animator::ast::{Color, Num};
use std::fmt;

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
                let mut message = format!("unknown colour `{}`", name.text);
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

fn clamp(n: &Num) -> f64 {
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

/// The known name nearest to `name`, if it is close: at most one edit in
/// four characters, and at most three. A substitution weighs one and a half
/// edits, so a dropped letter wins over a wrong one (`darkgren` is
/// `darkgreen`, not `darkgrey`).
fn suggest(name: &str) -> Option<&'static str> {
    let key = normalise(name);
    if key.is_empty() {
        return None;
    }
    let limit = 2 * (key.chars().count() / 4).clamp(1, 3);
    NAMED
        .iter()
        .map(|&(n, _, css)| (edit_distance(&key, n), !css, n.len(), n))
        .filter(|&(d, ..)| d <= limit)
        .min()
        .map(|(.., n)| n)
}

/// Twice the edit distance by characters, where inserting, deleting or
/// swapping two neighbours costs one edit and substituting one and a half.
fn edit_distance(a: &str, b: &str) -> usize {
    let a: Vec<char> = a.chars().collect();
    let b: Vec<char> = b.chars().collect();
    let width = b.len() + 1;
    let mut d = vec![0usize; (a.len() + 1) * width];
    for (j, cell) in d.iter_mut().take(width).enumerate() {
        *cell = 2 * j;
    }
    for i in 1..=a.len() {
        d[i * width] = 2 * i;
        for j in 1..=b.len() {
            let cost = 3 * usize::from(a[i - 1] != b[j - 1]);
            let mut best =
                (d[(i - 1) * width + j] + 2).min(d[i * width + j - 1] + 2).min(d[(i - 1) * width + j - 1] + cost);
            if i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1] {
                best = best.min(d[(i - 2) * width + j - 2] + 2);
            }
            d[i * width + j] = best;
        }
    }
    d[a.len() * width + b.len()]
}

/// (name, 0xRRGGBB, is a CSS name), sorted by name. Generated from the CSS
/// Color 4 list and X.Org's `rgb.txt` (names lower-cased, spaces removed).
#[rustfmt::skip]
static NAMED: [(&str, u32, bool); 666] = [
    ("aliceblue", 0xf0f8ff, true),
    ("antiquewhite", 0xfaebd7, true),
    ("antiquewhite1", 0xffefdb, false),
    ("antiquewhite2", 0xeedfcc, false),
    ("antiquewhite3", 0xcdc0b0, false),
    ("antiquewhite4", 0x8b8378, false),
    ("aqua", 0x00ffff, true),
    ("aquamarine", 0x7fffd4, true),
    ("aquamarine1", 0x7fffd4, false),
    ("aquamarine2", 0x76eec6, false),
    ("aquamarine3", 0x66cdaa, false),
    ("aquamarine4", 0x458b74, false),
    ("azure", 0xf0ffff, true),
    ("azure1", 0xf0ffff, false),
    ("azure2", 0xe0eeee, false),
    ("azure3", 0xc1cdcd, false),
    ("azure4", 0x838b8b, false),
    ("beige", 0xf5f5dc, true),
    ("bisque", 0xffe4c4, true),
    ("bisque1", 0xffe4c4, false),
    ("bisque2", 0xeed5b7, false),
    ("bisque3", 0xcdb79e, false),
    ("bisque4", 0x8b7d6b, false),
    ("black", 0x000000, true),
    ("blanchedalmond", 0xffebcd, true),
    ("blue", 0x0000ff, true),
    ("blue1", 0x0000ff, false),
    ("blue2", 0x0000ee, false),
    ("blue3", 0x0000cd, false),
    ("blue4", 0x00008b, false),
    ("blueviolet", 0x8a2be2, true),
    ("brown", 0xa52a2a, true),
    ("brown1", 0xff4040, false),
    ("brown2", 0xee3b3b, false),
    ("brown3", 0xcd3333, false),
    ("brown4", 0x8b2323, false),
    ("burlywood", 0xdeb887, true),
    ("burlywood1", 0xffd39b, false),
    ("burlywood2", 0xeec591, false),
    ("burlywood3", 0xcdaa7d, false),
    ("burlywood4", 0x8b7355, false),
    ("cadetblue", 0x5f9ea0, true),
    ("cadetblue1", 0x98f5ff, false),
    ("cadetblue2", 0x8ee5ee, false),
    ("cadetblue3", 0x7ac5cd, false),
    ("cadetblue4", 0x53868b, false),
    ("chartreuse", 0x7fff00, true),
    ("chartreuse1", 0x7fff00, false),
    ("chartreuse2", 0x76ee00, false),
    ("chartreuse3", 0x66cd00, false),
    ("chartreuse4", 0x458b00, false),
    ("chocolate", 0xd2691e, true),
    ("chocolate1", 0xff7f24, false),
    ("chocolate2", 0xee7621, false),
    ("chocolate3", 0xcd661d, false),
    ("chocolate4", 0x8b4513, false),
    ("coral", 0xff7f50, true),
    ("coral1", 0xff7256, false),
    ("coral2", 0xee6a50, false),
    ("coral3", 0xcd5b45, false),
    ("coral4", 0x8b3e2f, false),
    ("cornflowerblue", 0x6495ed, true),
    ("cornsilk", 0xfff8dc, true),
    ("cornsilk1", 0xfff8dc, false),
    ("cornsilk2", 0xeee8cd, false),
    ("cornsilk3", 0xcdc8b1, false),
    ("cornsilk4", 0x8b8878, false),
    ("crimson", 0xdc143c, true),
    ("cyan", 0x00ffff, true),
    ("cyan1", 0x00ffff, false),
    ("cyan2", 0x00eeee, false),
    ("cyan3", 0x00cdcd, false),
    ("cyan4", 0x008b8b, false),
    ("darkblue", 0x00008b, true),
    ("darkcyan", 0x008b8b, true),
    ("darkgoldenrod", 0xb8860b, true),
    ("darkgoldenrod1", 0xffb90f, false),
    ("darkgoldenrod2", 0xeead0e, false),
    ("darkgoldenrod3", 0xcd950c, false),
    ("darkgoldenrod4", 0x8b6508, false),
    ("darkgray", 0xa9a9a9, true),
    ("darkgreen", 0x006400, true),
    ("darkgrey", 0xa9a9a9, true),
    ("darkkhaki", 0xbdb76b, true),
    ("darkmagenta", 0x8b008b, true),
    ("darkolivegreen", 0x556b2f, true),
    ("darkolivegreen1", 0xcaff70, false),
    ("darkolivegreen2", 0xbcee68, false),
    ("darkolivegreen3", 0xa2cd5a, false),
    ("darkolivegreen4", 0x6e8b3d, false),
    ("darkorange", 0xff8c00, true),
    ("darkorange1", 0xff7f00, false),
    ("darkorange2", 0xee7600, false),
    ("darkorange3", 0xcd6600, false),
    ("darkorange4", 0x8b4500, false),
    ("darkorchid", 0x9932cc, true),
    ("darkorchid1", 0xbf3eff, false),
    ("darkorchid2", 0xb23aee, false),
    ("darkorchid3", 0x9a32cd, false),
    ("darkorchid4", 0x68228b, false),
    ("darkred", 0x8b0000, true),
    ("darksalmon", 0xe9967a, true),
    ("darkseagreen", 0x8fbc8f, true),
    ("darkseagreen1", 0xc1ffc1, false),
    ("darkseagreen2", 0xb4eeb4, false),
    ("darkseagreen3", 0x9bcd9b, false),
    ("darkseagreen4", 0x698b69, false),
    ("darkslateblue", 0x483d8b, true),
    ("darkslategray", 0x2f4f4f, true),
    ("darkslategray1", 0x97ffff, false),
    ("darkslategray2", 0x8deeee, false),
    ("darkslategray3", 0x79cdcd, false),
    ("darkslategray4", 0x528b8b, false),
    ("darkslategrey", 0x2f4f4f, true),
    ("darkturquoise", 0x00ced1, true),
    ("darkviolet", 0x9400d3, true),
    ("deeppink", 0xff1493, true),
    ("deeppink1", 0xff1493, false),
    ("deeppink2", 0xee1289, false),
    ("deeppink3", 0xcd1076, false),
    ("deeppink4", 0x8b0a50, false),
    ("deepskyblue", 0x00bfff, true),
    ("deepskyblue1", 0x00bfff, false),
    ("deepskyblue2", 0x00b2ee, false),
    ("deepskyblue3", 0x009acd, false),
    ("deepskyblue4", 0x00688b, false),
    ("dimgray", 0x696969, true),
    ("dimgrey", 0x696969, true),
    ("dodgerblue", 0x1e90ff, true),
    ("dodgerblue1", 0x1e90ff, false),
    ("dodgerblue2", 0x1c86ee, false),
    ("dodgerblue3", 0x1874cd, false),
    ("dodgerblue4", 0x104e8b, false),
    ("firebrick", 0xb22222, true),
    ("firebrick1", 0xff3030, false),
    ("firebrick2", 0xee2c2c, false),
    ("firebrick3", 0xcd2626, false),
    ("firebrick4", 0x8b1a1a, false),
    ("floralwhite", 0xfffaf0, true),
    ("forestgreen", 0x228b22, true),
    ("fuchsia", 0xff00ff, true),
    ("gainsboro", 0xdcdcdc, true),
    ("ghostwhite", 0xf8f8ff, true),
    ("gold", 0xffd700, true),
    ("gold1", 0xffd700, false),
    ("gold2", 0xeec900, false),
    ("gold3", 0xcdad00, false),
    ("gold4", 0x8b7500, false),
    ("goldenrod", 0xdaa520, true),
    ("goldenrod1", 0xffc125, false),
    ("goldenrod2", 0xeeb422, false),
    ("goldenrod3", 0xcd9b1d, false),
    ("goldenrod4", 0x8b6914, false),
    ("gray", 0x808080, true),
    ("gray0", 0x000000, false),
    ("gray1", 0x030303, false),
    ("gray10", 0x1a1a1a, false),
    ("gray100", 0xffffff, false),
    ("gray11", 0x1c1c1c, false),
    ("gray12", 0x1f1f1f, false),
    ("gray13", 0x212121, false),
    ("gray14", 0x242424, false),
    ("gray15", 0x262626, false),
    ("gray16", 0x292929, false),
    ("gray17", 0x2b2b2b, false),
    ("gray18", 0x2e2e2e, false),
    ("gray19", 0x303030, false),
    ("gray2", 0x050505, false),
    ("gray20", 0x333333, false),
    ("gray21", 0x363636, false),
    ("gray22", 0x383838, false),
    ("gray23", 0x3b3b3b, false),
    ("gray24", 0x3d3d3d, false),
    ("gray25", 0x404040, false),
    ("gray26", 0x424242, false),
    ("gray27", 0x454545, false),
    ("gray28", 0x474747, false),
    ("gray29", 0x4a4a4a, false),
    ("gray3", 0x080808, false),
    ("gray30", 0x4d4d4d, false),
    ("gray31", 0x4f4f4f, false),
    ("gray32", 0x525252, false),
    ("gray33", 0x545454, false),
    ("gray34", 0x575757, false),
    ("gray35", 0x595959, false),
    ("gray36", 0x5c5c5c, false),
    ("gray37", 0x5e5e5e, false),
    ("gray38", 0x616161, false),
    ("gray39", 0x636363, false),
    ("gray4", 0x0a0a0a, false),
    ("gray40", 0x666666, false),
    ("gray41", 0x696969, false),
    ("gray42", 0x6b6b6b, false),
    ("gray43", 0x6e6e6e, false),
    ("gray44", 0x707070, false),
    ("gray45", 0x737373, false),
    ("gray46", 0x757575, false),
    ("gray47", 0x787878, false),
    ("gray48", 0x7a7a7a, false),
    ("gray49", 0x7d7d7d, false),
    ("gray5", 0x0d0d0d, false),
    ("gray50", 0x7f7f7f, false),
    ("gray51", 0x828282, false),
    ("gray52", 0x858585, false),
    ("gray53", 0x878787, false),
    ("gray54", 0x8a8a8a, false),
    ("gray55", 0x8c8c8c, false),
    ("gray56", 0x8f8f8f, false),
    ("gray57", 0x919191, false),
    ("gray58", 0x949494, false),
    ("gray59", 0x969696, false),
    ("gray6", 0x0f0f0f, false),
    ("gray60", 0x999999, false),
    ("gray61", 0x9c9c9c, false),
    ("gray62", 0x9e9e9e, false),
    ("gray63", 0xa1a1a1, false),
    ("gray64", 0xa3a3a3, false),
    ("gray65", 0xa6a6a6, false),
    ("gray66", 0xa8a8a8, false),
    ("gray67", 0xababab, false),
    ("gray68", 0xadadad, false),
    ("gray69", 0xb0b0b0, false),
    ("gray7", 0x121212, false),
    ("gray70", 0xb3b3b3, false),
    ("gray71", 0xb5b5b5, false),
    ("gray72", 0xb8b8b8, false),
    ("gray73", 0xbababa, false),
    ("gray74", 0xbdbdbd, false),
    ("gray75", 0xbfbfbf, false),
    ("gray76", 0xc2c2c2, false),
    ("gray77", 0xc4c4c4, false),
    ("gray78", 0xc7c7c7, false),
    ("gray79", 0xc9c9c9, false),
    ("gray8", 0x141414, false),
    ("gray80", 0xcccccc, false),
    ("gray81", 0xcfcfcf, false),
    ("gray82", 0xd1d1d1, false),
    ("gray83", 0xd4d4d4, false),
    ("gray84", 0xd6d6d6, false),
    ("gray85", 0xd9d9d9, false),
    ("gray86", 0xdbdbdb, false),
    ("gray87", 0xdedede, false),
    ("gray88", 0xe0e0e0, false),
    ("gray89", 0xe3e3e3, false),
    ("gray9", 0x171717, false),
    ("gray90", 0xe5e5e5, false),
    ("gray91", 0xe8e8e8, false),
    ("gray92", 0xebebeb, false),
    ("gray93", 0xededed, false),
    ("gray94", 0xf0f0f0, false),
    ("gray95", 0xf2f2f2, false),
    ("gray96", 0xf5f5f5, false),
    ("gray97", 0xf7f7f7, false),
    ("gray98", 0xfafafa, false),
    ("gray99", 0xfcfcfc, false),
    ("green", 0x008000, true),
    ("green1", 0x00ff00, false),
    ("green2", 0x00ee00, false),
    ("green3", 0x00cd00, false),
    ("green4", 0x008b00, false),
    ("greenyellow", 0xadff2f, true),
    ("grey", 0x808080, true),
    ("grey0", 0x000000, false),
    ("grey1", 0x030303, false),
    ("grey10", 0x1a1a1a, false),
    ("grey100", 0xffffff, false),
    ("grey11", 0x1c1c1c, false),
    ("grey12", 0x1f1f1f, false),
    ("grey13", 0x212121, false),
    ("grey14", 0x242424, false),
    ("grey15", 0x262626, false),
    ("grey16", 0x292929, false),
    ("grey17", 0x2b2b2b, false),
    ("grey18", 0x2e2e2e, false),
    ("grey19", 0x303030, false),
    ("grey2", 0x050505, false),
    ("grey20", 0x333333, false),
    ("grey21", 0x363636, false),
    ("grey22", 0x383838, false),
    ("grey23", 0x3b3b3b, false),
    ("grey24", 0x3d3d3d, false),
    ("grey25", 0x404040, false),
    ("grey26", 0x424242, false),
    ("grey27", 0x454545, false),
    ("grey28", 0x474747, false),
    ("grey29", 0x4a4a4a, false),
    ("grey3", 0x080808, false),
    ("grey30", 0x4d4d4d, false),
    ("grey31", 0x4f4f4f, false),
    ("grey32", 0x525252, false),
    ("grey33", 0x545454, false),
    ("grey34", 0x575757, false),
    ("grey35", 0x595959, false),
    ("grey36", 0x5c5c5c, false),
    ("grey37", 0x5e5e5e, false),
    ("grey38", 0x616161, false),
    ("grey39", 0x636363, false),
    ("grey4", 0x0a0a0a, false),
    ("grey40", 0x666666, false),
    ("grey41", 0x696969, false),
    ("grey42", 0x6b6b6b, false),
    ("grey43", 0x6e6e6e, false),
    ("grey44", 0x707070, false),
    ("grey45", 0x737373, false),
    ("grey46", 0x757575, false),
    ("grey47", 0x787878, false),
    ("grey48", 0x7a7a7a, false),
    ("grey49", 0x7d7d7d, false),
    ("grey5", 0x0d0d0d, false),
    ("grey50", 0x7f7f7f, false),
    ("grey51", 0x828282, false),
    ("grey52", 0x858585, false),
    ("grey53", 0x878787, false),
    ("grey54", 0x8a8a8a, false),
    ("grey55", 0x8c8c8c, false),
    ("grey56", 0x8f8f8f, false),
    ("grey57", 0x919191, false),
    ("grey58", 0x949494, false),
    ("grey59", 0x969696, false),
    ("grey6", 0x0f0f0f, false),
    ("grey60", 0x999999, false),
    ("grey61", 0x9c9c9c, false),
    ("grey62", 0x9e9e9e, false),
    ("grey63", 0xa1a1a1, false),
    ("grey64", 0xa3a3a3, false),
    ("grey65", 0xa6a6a6, false),
    ("grey66", 0xa8a8a8, false),
    ("grey67", 0xababab, false),
    ("grey68", 0xadadad, false),
    ("grey69", 0xb0b0b0, false),
    ("grey7", 0x121212, false),
    ("grey70", 0xb3b3b3, false),
    ("grey71", 0xb5b5b5, false),
    ("grey72", 0xb8b8b8, false),
    ("grey73", 0xbababa, false),
    ("grey74", 0xbdbdbd, false),
    ("grey75", 0xbfbfbf, false),
    ("grey76", 0xc2c2c2, false),
    ("grey77", 0xc4c4c4, false),
    ("grey78", 0xc7c7c7, false),
    ("grey79", 0xc9c9c9, false),
    ("grey8", 0x141414, false),
    ("grey80", 0xcccccc, false),
    ("grey81", 0xcfcfcf, false),
    ("grey82", 0xd1d1d1, false),
    ("grey83", 0xd4d4d4, false),
    ("grey84", 0xd6d6d6, false),
    ("grey85", 0xd9d9d9, false),
    ("grey86", 0xdbdbdb, false),
    ("grey87", 0xdedede, false),
    ("grey88", 0xe0e0e0, false),
    ("grey89", 0xe3e3e3, false),
    ("grey9", 0x171717, false),
    ("grey90", 0xe5e5e5, false),
    ("grey91", 0xe8e8e8, false),
    ("grey92", 0xebebeb, false),
    ("grey93", 0xededed, false),
    ("grey94", 0xf0f0f0, false),
    ("grey95", 0xf2f2f2, false),
    ("grey96", 0xf5f5f5, false),
    ("grey97", 0xf7f7f7, false),
    ("grey98", 0xfafafa, false),
    ("grey99", 0xfcfcfc, false),
    ("honeydew", 0xf0fff0, true),
    ("honeydew1", 0xf0fff0, false),
    ("honeydew2", 0xe0eee0, false),
    ("honeydew3", 0xc1cdc1, false),
    ("honeydew4", 0x838b83, false),
    ("hotpink", 0xff69b4, true),
    ("hotpink1", 0xff6eb4, false),
    ("hotpink2", 0xee6aa7, false),
    ("hotpink3", 0xcd6090, false),
    ("hotpink4", 0x8b3a62, false),
    ("indianred", 0xcd5c5c, true),
    ("indianred1", 0xff6a6a, false),
    ("indianred2", 0xee6363, false),
    ("indianred3", 0xcd5555, false),
    ("indianred4", 0x8b3a3a, false),
    ("indigo", 0x4b0082, true),
    ("ivory", 0xfffff0, true),
    ("ivory1", 0xfffff0, false),
    ("ivory2", 0xeeeee0, false),
    ("ivory3", 0xcdcdc1, false),
    ("ivory4", 0x8b8b83, false),
    ("khaki", 0xf0e68c, true),
    ("khaki1", 0xfff68f, false),
    ("khaki2", 0xeee685, false),
    ("khaki3", 0xcdc673, false),
    ("khaki4", 0x8b864e, false),
    ("lavender", 0xe6e6fa, true),
    ("lavenderblush", 0xfff0f5, true),
    ("lavenderblush1", 0xfff0f5, false),
    ("lavenderblush2", 0xeee0e5, false),
    ("lavenderblush3", 0xcdc1c5, false),
    ("lavenderblush4", 0x8b8386, false),
    ("lawngreen", 0x7cfc00, true),
    ("lemonchiffon", 0xfffacd, true),
    ("lemonchiffon1", 0xfffacd, false),
    ("lemonchiffon2", 0xeee9bf, false),
    ("lemonchiffon3", 0xcdc9a5, false),
    ("lemonchiffon4", 0x8b8970, false),
    ("lightblue", 0xadd8e6, true),
    ("lightblue1", 0xbfefff, false),
    ("lightblue2", 0xb2dfee, false),
    ("lightblue3", 0x9ac0cd, false),
    ("lightblue4", 0x68838b, false),
    ("lightcoral", 0xf08080, true),
    ("lightcyan", 0xe0ffff, true),
    ("lightcyan1", 0xe0ffff, false),
    ("lightcyan2", 0xd1eeee, false),
    ("lightcyan3", 0xb4cdcd, false),
    ("lightcyan4", 0x7a8b8b, false),
    ("lightgoldenrod", 0xeedd82, false),
    ("lightgoldenrod1", 0xffec8b, false),
    ("lightgoldenrod2", 0xeedc82, false),
    ("lightgoldenrod3", 0xcdbe70, false),
    ("lightgoldenrod4", 0x8b814c, false),
    ("lightgoldenrodyellow", 0xfafad2, true),
    ("lightgray", 0xd3d3d3, true),
    ("lightgreen", 0x90ee90, true),
    ("lightgrey", 0xd3d3d3, true),
    ("lightpink", 0xffb6c1, true),
    ("lightpink1", 0xffaeb9, false),
    ("lightpink2", 0xeea2ad, false),
    ("lightpink3", 0xcd8c95, false),
    ("lightpink4", 0x8b5f65, false),
    ("lightsalmon", 0xffa07a, true),
    ("lightsalmon1", 0xffa07a, false),
    ("lightsalmon2", 0xee9572, false),
    ("lightsalmon3", 0xcd8162, false),
    ("lightsalmon4", 0x8b5742, false),
    ("lightseagreen", 0x20b2aa, true),
    ("lightskyblue", 0x87cefa, true),
    ("lightskyblue1", 0xb0e2ff, false),
    ("lightskyblue2", 0xa4d3ee, false),
    ("lightskyblue3", 0x8db6cd, false),
    ("lightskyblue4", 0x607b8b, false),
    ("lightslateblue", 0x8470ff, false),
    ("lightslategray", 0x778899, true),
    ("lightslategrey", 0x778899, true),
    ("lightsteelblue", 0xb0c4de, true),
    ("lightsteelblue1", 0xcae1ff, false),
    ("lightsteelblue2", 0xbcd2ee, false),
    ("lightsteelblue3", 0xa2b5cd, false),
    ("lightsteelblue4", 0x6e7b8b, false),
    ("lightyellow", 0xffffe0, true),
    ("lightyellow1", 0xffffe0, false),
    ("lightyellow2", 0xeeeed1, false),
    ("lightyellow3", 0xcdcdb4, false),
    ("lightyellow4", 0x8b8b7a, false),
    ("lime", 0x00ff00, true),
    ("limegreen", 0x32cd32, true),
    ("linen", 0xfaf0e6, true),
    ("magenta", 0xff00ff, true),
    ("magenta1", 0xff00ff, false),
    ("magenta2", 0xee00ee, false),
    ("magenta3", 0xcd00cd, false),
    ("magenta4", 0x8b008b, false),
    ("maroon", 0x800000, true),
    ("maroon1", 0xff34b3, false),
    ("maroon2", 0xee30a7, false),
    ("maroon3", 0xcd2990, false),
    ("maroon4", 0x8b1c62, false),
    ("mediumaquamarine", 0x66cdaa, true),
    ("mediumblue", 0x0000cd, true),
    ("mediumorchid", 0xba55d3, true),
    ("mediumorchid1", 0xe066ff, false),
    ("mediumorchid2", 0xd15fee, false),
    ("mediumorchid3", 0xb452cd, false),
    ("mediumorchid4", 0x7a378b, false),
    ("mediumpurple", 0x9370db, true),
    ("mediumpurple1", 0xab82ff, false),
    ("mediumpurple2", 0x9f79ee, false),
    ("mediumpurple3", 0x8968cd, false),
    ("mediumpurple4", 0x5d478b, false),
    ("mediumseagreen", 0x3cb371, true),
    ("mediumslateblue", 0x7b68ee, true),
    ("mediumspringgreen", 0x00fa9a, true),
    ("mediumturquoise", 0x48d1cc, true),
    ("mediumvioletred", 0xc71585, true),
    ("midnightblue", 0x191970, true),
    ("mintcream", 0xf5fffa, true),
    ("mistyrose", 0xffe4e1, true),
    ("mistyrose1", 0xffe4e1, false),
    ("mistyrose2", 0xeed5d2, false),
    ("mistyrose3", 0xcdb7b5, false),
    ("mistyrose4", 0x8b7d7b, false),
    ("moccasin", 0xffe4b5, true),
    ("navajowhite", 0xffdead, true),
    ("navajowhite1", 0xffdead, false),
    ("navajowhite2", 0xeecfa1, false),
    ("navajowhite3", 0xcdb38b, false),
    ("navajowhite4", 0x8b795e, false),
    ("navy", 0x000080, true),
    ("navyblue", 0x000080, false),
    ("oldlace", 0xfdf5e6, true),
    ("olive", 0x808000, true),
    ("olivedrab", 0x6b8e23, true),
    ("olivedrab1", 0xc0ff3e, false),
    ("olivedrab2", 0xb3ee3a, false),
    ("olivedrab3", 0x9acd32, false),
    ("olivedrab4", 0x698b22, false),
    ("orange", 0xffa500, true),
    ("orange1", 0xffa500, false),
    ("orange2", 0xee9a00, false),
    ("orange3", 0xcd8500, false),
    ("orange4", 0x8b5a00, false),
    ("orangered", 0xff4500, true),
    ("orangered1", 0xff4500, false),
    ("orangered2", 0xee4000, false),
    ("orangered3", 0xcd3700, false),
    ("orangered4", 0x8b2500, false),
    ("orchid", 0xda70d6, true),
    ("orchid1", 0xff83fa, false),
    ("orchid2", 0xee7ae9, false),
    ("orchid3", 0xcd69c9, false),
    ("orchid4", 0x8b4789, false),
    ("palegoldenrod", 0xeee8aa, true),
    ("palegreen", 0x98fb98, true),
    ("palegreen1", 0x9aff9a, false),
    ("palegreen2", 0x90ee90, false),
    ("palegreen3", 0x7ccd7c, false),
    ("palegreen4", 0x548b54, false),
    ("paleturquoise", 0xafeeee, true),
    ("paleturquoise1", 0xbbffff, false),
    ("paleturquoise2", 0xaeeeee, false),
    ("paleturquoise3", 0x96cdcd, false),
    ("paleturquoise4", 0x668b8b, false),
    ("palevioletred", 0xdb7093, true),
    ("palevioletred1", 0xff82ab, false),
    ("palevioletred2", 0xee799f, false),
    ("palevioletred3", 0xcd6889, false),
    ("palevioletred4", 0x8b475d, false),
    ("papayawhip", 0xffefd5, true),
    ("peachpuff", 0xffdab9, true),
    ("peachpuff1", 0xffdab9, false),
    ("peachpuff2", 0xeecbad, false),
    ("peachpuff3", 0xcdaf95, false),
    ("peachpuff4", 0x8b7765, false),
    ("peru", 0xcd853f, true),
    ("pink", 0xffc0cb, true),
    ("pink1", 0xffb5c5, false),
    ("pink2", 0xeea9b8, false),
    ("pink3", 0xcd919e, false),
    ("pink4", 0x8b636c, false),
    ("plum", 0xdda0dd, true),
    ("plum1", 0xffbbff, false),
    ("plum2", 0xeeaeee, false),
    ("plum3", 0xcd96cd, false),
    ("plum4", 0x8b668b, false),
    ("powderblue", 0xb0e0e6, true),
    ("purple", 0x800080, true),
    ("purple1", 0x9b30ff, false),
    ("purple2", 0x912cee, false),
    ("purple3", 0x7d26cd, false),
    ("purple4", 0x551a8b, false),
    ("rebeccapurple", 0x663399, true),
    ("red", 0xff0000, true),
    ("red1", 0xff0000, false),
    ("red2", 0xee0000, false),
    ("red3", 0xcd0000, false),
    ("red4", 0x8b0000, false),
    ("rosybrown", 0xbc8f8f, true),
    ("rosybrown1", 0xffc1c1, false),
    ("rosybrown2", 0xeeb4b4, false),
    ("rosybrown3", 0xcd9b9b, false),
    ("rosybrown4", 0x8b6969, false),
    ("royalblue", 0x4169e1, true),
    ("royalblue1", 0x4876ff, false),
    ("royalblue2", 0x436eee, false),
    ("royalblue3", 0x3a5fcd, false),
    ("royalblue4", 0x27408b, false),
    ("saddlebrown", 0x8b4513, true),
    ("salmon", 0xfa8072, true),
    ("salmon1", 0xff8c69, false),
    ("salmon2", 0xee8262, false),
    ("salmon3", 0xcd7054, false),
    ("salmon4", 0x8b4c39, false),
    ("sandybrown", 0xf4a460, true),
    ("seagreen", 0x2e8b57, true),
    ("seagreen1", 0x54ff9f, false),
    ("seagreen2", 0x4eee94, false),
    ("seagreen3", 0x43cd80, false),
    ("seagreen4", 0x2e8b57, false),
    ("seashell", 0xfff5ee, true),
    ("seashell1", 0xfff5ee, false),
    ("seashell2", 0xeee5de, false),
    ("seashell3", 0xcdc5bf, false),
    ("seashell4", 0x8b8682, false),
    ("sienna", 0xa0522d, true),
    ("sienna1", 0xff8247, false),
    ("sienna2", 0xee7942, false),
    ("sienna3", 0xcd6839, false),
    ("sienna4", 0x8b4726, false),
    ("silver", 0xc0c0c0, true),
    ("skyblue", 0x87ceeb, true),
    ("skyblue1", 0x87ceff, false),
    ("skyblue2", 0x7ec0ee, false),
    ("skyblue3", 0x6ca6cd, false),
    ("skyblue4", 0x4a708b, false),
    ("slateblue", 0x6a5acd, true),
    ("slateblue1", 0x836fff, false),
    ("slateblue2", 0x7a67ee, false),
    ("slateblue3", 0x6959cd, false),
    ("slateblue4", 0x473c8b, false),
    ("slategray", 0x708090, true),
    ("slategray1", 0xc6e2ff, false),
    ("slategray2", 0xb9d3ee, false),
    ("slategray3", 0x9fb6cd, false),
    ("slategray4", 0x6c7b8b, false),
    ("slategrey", 0x708090, true),
    ("snow", 0xfffafa, true),
    ("snow1", 0xfffafa, false),
    ("snow2", 0xeee9e9, false),
    ("snow3", 0xcdc9c9, false),
    ("snow4", 0x8b8989, false),
    ("springgreen", 0x00ff7f, true),
    ("springgreen1", 0x00ff7f, false),
    ("springgreen2", 0x00ee76, false),
    ("springgreen3", 0x00cd66, false),
    ("springgreen4", 0x008b45, false),
    ("steelblue", 0x4682b4, true),
    ("steelblue1", 0x63b8ff, false),
    ("steelblue2", 0x5cacee, false),
    ("steelblue3", 0x4f94cd, false),
    ("steelblue4", 0x36648b, false),
    ("tan", 0xd2b48c, true),
    ("tan1", 0xffa54f, false),
    ("tan2", 0xee9a49, false),
    ("tan3", 0xcd853f, false),
    ("tan4", 0x8b5a2b, false),
    ("teal", 0x008080, true),
    ("thistle", 0xd8bfd8, true),
    ("thistle1", 0xffe1ff, false),
    ("thistle2", 0xeed2ee, false),
    ("thistle3", 0xcdb5cd, false),
    ("thistle4", 0x8b7b8b, false),
    ("tomato", 0xff6347, true),
    ("tomato1", 0xff6347, false),
    ("tomato2", 0xee5c42, false),
    ("tomato3", 0xcd4f39, false),
    ("tomato4", 0x8b3626, false),
    ("turquoise", 0x40e0d0, true),
    ("turquoise1", 0x00f5ff, false),
    ("turquoise2", 0x00e5ee, false),
    ("turquoise3", 0x00c5cd, false),
    ("turquoise4", 0x00868b, false),
    ("violet", 0xee82ee, true),
    ("violetred", 0xd02090, false),
    ("violetred1", 0xff3e96, false),
    ("violetred2", 0xee3a8c, false),
    ("violetred3", 0xcd3278, false),
    ("violetred4", 0x8b2252, false),
    ("wheat", 0xf5deb3, true),
    ("wheat1", 0xffe7ba, false),
    ("wheat2", 0xeed8ae, false),
    ("wheat3", 0xcdba96, false),
    ("wheat4", 0x8b7e66, false),
    ("white", 0xffffff, true),
    ("whitesmoke", 0xf5f5f5, true),
    ("yellow", 0xffff00, true),
    ("yellow1", 0xffff00, false),
    ("yellow2", 0xeeee00, false),
    ("yellow3", 0xcdcd00, false),
    ("yellow4", 0x8b8b00, false),
    ("yellowgreen", 0x9acd32, true),
];

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
