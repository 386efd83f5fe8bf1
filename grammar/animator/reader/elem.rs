//! What one argument position of a form takes (the command table's
//! `forms` column is written with these names) and what messages call it.
//!
//! Shared by the reader and, through `#[path]`, by the build script that
//! writes the LALRPOP reference from the table (`build.rs`): the names and
//! their wording are the language's, one list for both.

/// What one argument position takes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Elem {
    /// A finite number.
    Num,
    /// A whole number (an integer-valued float such as `25.000000` included).
    Int,
    /// A string: quoted, or a bare word (or number, `-`, `.`) that is not a
    /// command keyword. The text names it in messages.
    Str(&'static str),
    /// A context word, bare.
    Word(&'static str),
    /// `on` or `off`.
    OnOff,
    /// `left`, `center` or `right`.
    HAlign,
    /// `bottom`, `center` or `top`.
    VAlign,
    /// A lone `-`.
    Sep,
    /// A lone `.`.
    Dot,
    /// Pairs of numbers, at least this many pairs, as many as follow.
    Points(u8),
    /// One character: the whole token, a quoted string's text, or `'c'`.
    Char,
    /// A colour name or `#` and 1, 2, 3 or 6 hex digits (the numeric colour
    /// forms are forms of their own).
    ColorName,
    /// 32x32 bits: 256 hex digits.
    Hex256,
}

pub(super) use Elem::{
    ColorName, Dot, HAlign as HAl, Hex256, Int as I, Num as N, OnOff, Points, Sep, Str as S, VAlign as VAl, Word,
};

pub(super) const IMAGE: Elem = S("an image name");
pub(super) const MACRO: Elem = S("a macro name");
pub(super) const AREA: Elem = S("an area name");
pub(super) const CURSOR: Elem = S("a cursor name");
pub(super) const STRING: Elem = S("a string");
pub(super) const FILE: Elem = S("a file name");
pub(super) const FILE_OR_DASH: Elem = S("a file name or `-`");

/// What an argument kind is called in messages.
pub(super) fn describe(e: Elem) -> &'static [&'static str] {
    match e {
        N | Points(_) => &["a number"],
        I => &["a whole number"],
        S("a string") => &["a string"],
        S("a file name") => &["a file name"],
        S("a file name or `-`") => &["a file name or `-`"],
        S("an image name") => &["an image name"],
        S("a macro name") => &["a macro name"],
        S("an area name") => &["an area name"],
        S("a cursor name") => &["a cursor name"],
        S(_) => &["a string"],
        Word("area") => &["`area`"],
        Word("aspect") => &["`aspect`"],
        Word("push") => &["`push`"],
        Word(_) => &["a word"],
        OnOff => &["`on`", "`off`"],
        HAl => &["`left`", "`center`", "`right`"],
        VAl => &["`bottom`", "`center`", "`top`"],
        Sep => &["`-`"],
        Dot => &["`.`"],
        Elem::Char => &["a single character"],
        ColorName => &["a colour"],
        Hex256 => &["256 hex digits"],
    }
}
