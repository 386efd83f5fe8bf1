//! Event lines, as `animator` prints them on standard output.
//!
//! Numbers are printed with up to six decimals and no trailing zeros
//! (`0.5`, `-1`, `0.333333`).

use std::fmt::Write;

/// Formats a coordinate or duration.
///
/// ```
/// use animkit_player::animator::events::num;
/// assert_eq!(num(0.5), "0.5");
/// assert_eq!(num(-1.0), "-1");
/// assert_eq!(num(1.0 / 3.0), "0.333333");
/// assert_eq!(num(-0.0000001), "0");
/// ```
pub fn num(v: f64) -> String {
    let mut s = format!("{v:.6}");
    if s.contains('.') {
        while s.ends_with('0') {
            s.pop();
        }
        if s.ends_with('.') {
            s.pop();
        }
    }
    if s == "-0" {
        s = "0".into();
    }
    s
}

/// `PRESS button x y [area ...]`, `RELEASE ...` or `MOTION mask x y [area ...]`.
///
/// ```
/// use animkit_player::animator::events::pointer_line;
/// assert_eq!(pointer_line("PRESS", 1, [0.25, -1.0], ["a", "b"]), "PRESS 1 0.25 -1 a b");
/// ```
pub fn pointer_line<'a>(kind: &str, button: u32, p: [f64; 2], areas: impl IntoIterator<Item = &'a str>) -> String {
    let mut s = format!("{kind} {button} {} {}", num(p[0]), num(p[1]));
    for a in areas {
        let _ = write!(s, " {a}");
    }
    s
}

/// `RESIZE width height left bottom right top`.
///
/// ```
/// assert_eq!(animkit_player::animator::events::resize_line(640, 480, [-4.0/3.0, -1.0, 4.0/3.0, 1.0]),
///     "RESIZE 640 480 -1.333333 -1 1.333333 1");
/// ```
pub fn resize_line(width: u32, height: u32, bounds: [f64; 4]) -> String {
    format!("RESIZE {width} {height} {} {} {} {}", num(bounds[0]), num(bounds[1]), num(bounds[2]), num(bounds[3]))
}

/// `KEYDOWN mod_mask unicode keyname`.
pub fn keydown_line(mods: u32, unicode: u32, name: &str) -> String {
    format!("KEYDOWN {mods} {unicode} {name}")
}

/// `KEYUP mod_mask keyname`.
pub fn keyup_line(mods: u32, name: &str) -> String {
    format!("KEYUP {mods} {name}")
}

/// `FLUSHDELAY dt`.
pub fn flushdelay_line(dt: f64) -> String {
    format!("FLUSHDELAY {}", num(dt))
}
