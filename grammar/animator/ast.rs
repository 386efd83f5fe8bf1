//! The Animator syntax tree: one [`Command`] per command read, with typed,
//! spanned arguments.
//!
//! The tree records what was written and in which form: `rect x y w h` and
//! `rect x1 y1 - x2 y2` are different variants, and so are the four forms of
//! `imgpoly`. Where two forms have the same arguments and differ by one
//! context word, a flag says which was written (`macro push NAME`,
//! `viewport aspect NAME`). Defaults the spec gives are not filled in:
//! `scale 2` has `y: None`, `text 0 0 hi` has `align: None`.
//!
//! Whole-number parameters (vertex counts, pixel sizes, `resize` and `image`
//! sizes, `image_set` positions, the cursor hot spot, `dash`) are [`Int`]s.
//! Clients such as an Emacs binding print every number with `%f`, so an
//! integer-valued float (`25.000000`, `1e2`, `0x10`) is a whole number
//! there.
//!
//! Values are recorded as written, wrong ones included: a fraction where a
//! whole number goes ([`Int::not_int`]), `inf` and `nan`, a `#` colour with
//! the wrong number of digits, a cursor bitmap that is not 256 hex digits.
//! Every check that needs meaning (those, a circle with 2 vertices, a
//! negative size, an unknown colour name, a 17-bit dash pattern) belongs to
//! the compiler's checker, which explains it; the reader only refuses what
//! it cannot record (a `colormap` key that is not one character).

use crate::Span;

pub use super::pos::Pos;
use crate::animator::lexer::Keyword;

/// One command: what it is, where it is.
#[derive(Clone, Debug, PartialEq)]
pub struct Command {
    /// The command and its arguments.
    pub kind: Cmd,
    /// From the first byte of the keyword to the last byte of the last
    /// argument, in absolute offsets of the whole stream.
    pub span: Span,
    /// Where the keyword starts.
    pub pos: Pos,
}

/// A number as written.
///
/// Two numbers are equal when they are the same `f64`, bit for bit, at the
/// same place: a tree that records what was written has `nan` equal to
/// itself, and `-0` different from `0`.
#[derive(Clone, Copy, Debug)]
pub struct Num {
    /// Its value: infinite or NaN for `inf`, `1e999` or `nan`, which the
    /// checker rejects.
    pub value: f64,
    /// Where it is.
    pub span: Span,
}

/// A number where a whole number goes, as written (possibly as
/// `25.000000`). Equality compares `not_int` bit for bit, as [`Num`]'s.
///
/// ```
/// use animkit_grammar::animator::{ast::Cmd, parse};
/// let (cmds, _) = parse("thick 3.000000 thick 2.5");
/// let (Cmd::Thick { pixels: a }, Cmd::Thick { pixels: b }) = (&cmds[0].kind, &cmds[1].kind) else { panic!() };
/// assert_eq!((a.value, a.not_int), (3, None));
/// assert_eq!(b.not_int, Some(2.5));
/// ```
#[derive(Clone, Copy, Debug)]
pub struct Int {
    /// Its value, exact (`9007199254740993`, `0xffff`), when it is a whole
    /// number within `i64`; 0 otherwise.
    pub value: i64,
    /// Where it is.
    pub span: Span,
    /// `None` when `value` is the number written; otherwise the number
    /// written, which has no exact `i64` value: a fraction (`2.5`), a
    /// number out of range (`1e30`) or not finite (`inf`). The checker
    /// rejects it.
    pub not_int: Option<f64>,
}

impl PartialEq for Num {
    fn eq(&self, other: &Num) -> bool {
        self.value.to_bits() == other.value.to_bits() && self.span == other.span
    }
}

impl PartialEq for Int {
    fn eq(&self, other: &Int) -> bool {
        self.value == other.value
            && self.span == other.span
            && self.not_int.map(f64::to_bits) == other.not_int.map(f64::to_bits)
    }
}

impl Int {
    /// A whole number `value` written at `span`.
    pub const fn new(value: i64, span: Span) -> Int {
        Int { value, span, not_int: None }
    }
}

/// A string: a quoted string with its escapes replaced, or an unquoted word
/// (or number) as written.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Str {
    /// The text.
    pub text: String,
    /// The token, quotes included.
    pub span: Span,
}

/// The one character of `colormap`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Char {
    /// The character.
    pub value: char,
    /// The token it came from (`x`, `'x'`, `"x"`).
    pub span: Span,
}

/// Two coordinates.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Point {
    /// Horizontal.
    pub x: Num,
    /// Vertical.
    pub y: Num,
}

impl Point {
    /// From the first byte of `x` to the last of `y`.
    pub fn span(&self) -> Span {
        self.x.span.to(self.y.span)
    }
}

/// A colour, in the form it was written.
#[derive(Clone, Debug, PartialEq)]
pub enum Color {
    /// A colour name (`black`, `"dark green"`), not checked here.
    Name(Str),
    /// Any word starting with `#`, with the `#`: `#rrggbb`, `#rgb`, `#gg` or
    /// `#g` (the checker checks the digits).
    Hex(Str),
    /// Red, green and blue, nominally 0..1.
    Rgb(Num, Num, Num),
    /// A grey level, nominally 0..1.
    Gray(Num),
}

impl Color {
    /// Where the colour was written.
    pub fn span(&self) -> Span {
        match self {
            Color::Name(s) | Color::Hex(s) => s.span,
            Color::Rgb(r, _, b) => r.span.to(b.span),
            Color::Gray(g) => g.span,
        }
    }
}

/// Horizontal alignment of `text` and `blit`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum HAlign {
    /// `left`
    Left,
    /// `center`
    Center,
    /// `right`
    Right,
}

/// Vertical alignment of `text` and `blit`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum VAlign {
    /// `bottom`
    Bottom,
    /// `center`
    Center,
    /// `top`
    Top,
}

/// An explicit alignment, `left top` and the like.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Align {
    /// The first word.
    pub h: HAlign,
    /// The second word.
    pub v: VAlign,
    /// Both words.
    pub span: Span,
}

/// The Rust type of a field of kind `$kind` (the command table's `cmds`
/// column, `commands.rs`).
macro_rules! field_type {
    (Num) => { Num };
    (Int) => { Int };
    (Bits) => { Int };
    (Str) => { Str };
    (Name) => { Str };
    (Hex) => { Str };
    (OptStr) => { Option<Str> };
    (Point) => { Point };
    (Points) => { Vec<Point> };
    (Nums $n:literal) => { [Num; $n] };
    (OptNum) => { Option<Num> };
    (On) => { bool };
    (Flag $w:literal) => { bool };
    (Color) => { Color };
    (Char) => { Char };
    (OptAlign) => { Option<Align> };
}

/// [`Cmd`] written out one variant at a time (`[variants so far] rest of
/// the table's `cmds` entries`): a variant without fields is a unit
/// variant, the others have their fields with the types of their kinds.
macro_rules! cmd_enum {
    ([$($done:tt)*] $(,)?) => {
        /// Every command of `animator.md`, one variant per command and per
        /// form: the `cmds` column of the command table (`commands.rs`), with
        /// its docs.
        ///
        /// Field names follow the spec's argument names.
        #[derive(Clone, Debug, PartialEq)]
        pub enum Cmd {
            $($done)*
        }
    };
    ([$($done:tt)*] $(#[$m:meta])* $v:ident $vforms:tt {} $(, $($rest:tt)*)?) => {
        cmd_enum!([$($done)* $(#[$m])* $v,] $($($rest)*)?);
    };
    ([$($done:tt)*] $(#[$m:meta])* $v:ident $vforms:tt {
        $($(#[$fm:meta])* $f:ident : $($pre:literal)? $kind:ident $(($karg:literal))? $($post:literal)?),+
    } $(, $($rest:tt)*)?) => {
        cmd_enum!([$($done)* $(#[$m])* $v { $($(#[$fm])* $f: field_type!($kind $($karg)?),)+ },] $($($rest)*)?);
    };
}

/// [`Cmd`] from the command table: every row's `cmds` entries, in order.
macro_rules! cmd_from_table {
    ($($k:ident $kw:tt { cmds: [$($entry:tt)*], $($rest:tt)* })*) => {
        cmd_enum!([] $($($entry)* ,)*);
    };
}

crate::animator_commands!(cmd_from_table);

/// `Cmd::command_keyword` from the command table (`commands.rs`): one arm
/// per row, listing the row's variants; the match is exhaustive, so a
/// variant no row names does not compile.
macro_rules! cmd_keyword_from_table {
    ($($k:ident $kw:tt { cmds: [$($(#[$vm:meta])* $v:ident $vforms:tt $vfields:tt),*], $($rest:tt)* })*) => {
        impl Cmd {
            /// The command's keyword.
            ///
            /// ```
            /// use animkit_grammar::animator::{ast::Cmd, lexer::Keyword};
            /// assert_eq!(Cmd::Pop.command_keyword(), Keyword::Pop);
            /// ```
            pub const fn command_keyword(&self) -> Keyword {
                match self {
                    $($(Cmd::$v { .. })|* => Keyword::$k,)*
                }
            }
        }
    };
}

crate::animator_commands!(cmd_keyword_from_table);

impl Cmd {
    /// The command's keyword, as written.
    ///
    /// ```
    /// use animkit_grammar::animator::ast::Cmd;
    /// assert_eq!(Cmd::Flush.keyword(), "flush");
    /// ```
    pub const fn keyword(&self) -> &'static str {
        self.command_keyword().as_str()
    }
}

impl Command {
    /// The same command with every span zeroed and the position set to
    /// [`Pos::START`], to compare commands regardless of layout (the
    /// formatter's round-trip property).
    ///
    /// ```
    /// use animkit_grammar::animator::parse;
    /// let (a, _) = parse("line 0 0 1 1\n");
    /// let (b, _) = parse("\n  line 0.0 0 1e0   1 ! diagonal");
    /// assert_ne!(a, b);
    /// assert_eq!(a[0].without_spans(), b[0].without_spans());
    /// ```
    pub fn without_spans(&self) -> Command {
        Command { kind: self.kind.without_spans(), span: Span::default(), pos: Pos::START }
    }
}

/// Zeroes the spans inside an argument.
trait Unspanned {
    fn unspanned(&self) -> Self;
}

impl Unspanned for bool {
    fn unspanned(&self) -> bool {
        *self
    }
}

impl Unspanned for Num {
    fn unspanned(&self) -> Num {
        Num { value: self.value, span: Span::default() }
    }
}

impl Unspanned for Int {
    fn unspanned(&self) -> Int {
        Int { span: Span::default(), ..*self }
    }
}

impl Unspanned for Str {
    fn unspanned(&self) -> Str {
        Str { text: self.text.clone(), span: Span::default() }
    }
}

impl Unspanned for Char {
    fn unspanned(&self) -> Char {
        Char { value: self.value, span: Span::default() }
    }
}

impl Unspanned for Point {
    fn unspanned(&self) -> Point {
        Point { x: self.x.unspanned(), y: self.y.unspanned() }
    }
}

impl Unspanned for Align {
    fn unspanned(&self) -> Align {
        Align { h: self.h, v: self.v, span: Span::default() }
    }
}

impl Unspanned for Color {
    fn unspanned(&self) -> Color {
        match self {
            Color::Name(s) => Color::Name(s.unspanned()),
            Color::Hex(s) => Color::Hex(s.unspanned()),
            Color::Rgb(r, g, b) => Color::Rgb(r.unspanned(), g.unspanned(), b.unspanned()),
            Color::Gray(g) => Color::Gray(g.unspanned()),
        }
    }
}

impl<T: Unspanned> Unspanned for Option<T> {
    fn unspanned(&self) -> Option<T> {
        self.as_ref().map(T::unspanned)
    }
}

impl<T: Unspanned> Unspanned for Vec<T> {
    fn unspanned(&self) -> Vec<T> {
        self.iter().map(T::unspanned).collect()
    }
}

impl<T: Unspanned, const N: usize> Unspanned for [T; N] {
    fn unspanned(&self) -> [T; N] {
        std::array::from_fn(|i| self[i].unspanned())
    }
}

/// `Cmd::without_spans` from the command table's `cmds` column: one arm
/// per variant, naming every field (the match is exhaustive and the
/// patterns complete, so a variant or field out of step with its row does
/// not compile).
macro_rules! unspan_from_table {
    ($($k:ident $kw:tt {
        cmds: [$($(#[$vm:meta])* $v:ident $vforms:tt {
            $($(#[$fm:meta])* $f:ident : $($pre:literal)? $kind:ident $(($karg:literal))? $($post:literal)?),*
        }),*],
        $($rest:tt)*
    })*) => {
        impl Cmd {
            /// The same command with every span inside it zeroed.
            pub fn without_spans(&self) -> Cmd {
                match self {
                    $($(Cmd::$v { $($f),* } => Cmd::$v { $($f: $f.unspanned()),* },)*)*
                }
            }
        }
    };
}

crate::animator_commands!(unspan_from_table);
