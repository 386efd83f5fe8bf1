//! The arguments of a [`Cmd`] one by one, in the order they are written,
//! each with its kind: the command table's `cmds` column
//! (`commands.rs`) turned into [`Cmd::try_fields`], which the compiler's
//! checker, formatter and lowering walk instead of matching every variant.
//!
//! The walk is a generated `match` ([`Cmd::sink_fields`]) that hands each
//! field to a [`FieldSink`]. A sink whose [`FieldSink::field`] is
//! `#[inline(always)]` (the lowering's `write_block`) gets its `match` over
//! [`Field`] inlined at every field of every variant, where it folds into
//! straight code (no call per field, no allocation, no dynamic dispatch);
//! [`Cmd::try_fields`] takes a closure instead, which the compiler may call
//! out of line (the checker and formatter, off the stream's hot path).

use crate::animator::ast::{Align, Char, Cmd, Color, Int, Num, Point, Str};

/// One argument of a command, as the table's `cmds` column names its kind.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Field<'a> {
    /// A context word written before or after an argument (`-` between
    /// corners, `area`, the `.` that ends `echopt`'s points).
    Word(&'static str),
    /// `Num`: a number.
    Num(&'a Num),
    /// `Int`: a whole number.
    Int(&'a Int),
    /// `Bits`: a whole number that is a bit pattern (`dash`; formatted in hex).
    Bits(&'a Int),
    /// `Str`: a string (a text, a file, an image, area or cursor name).
    Str(&'a Str),
    /// `Name`: a macro name (the lowering interns it as a name).
    Name(&'a Str),
    /// `Hex`: a string of 256 hex digits (a cursor bitmap).
    Hex(&'a Str),
    /// `OptStr`: a string, or `None` where `-` was written.
    OptStr(&'a Option<Str>),
    /// `Point`: two numbers.
    Point(&'a Point),
    /// `Points`: a point list.
    Points(&'a [Point]),
    /// `Nums`: a fixed number of numbers (`mult`'s matrix).
    Nums(&'a [Num]),
    /// `OptNum`: a number the last form may leave out.
    OptNum(&'a Option<Num>),
    /// `On`: `on` or `off`.
    On(bool),
    /// `Flag("w")`: whether the context word `w` was written.
    Flag(&'static str, bool),
    /// `Color`: a colour in any of its forms.
    Color(&'a Color),
    /// `Char`: one character.
    Char(&'a Char),
    /// `OptAlign`: two alignment words, if written.
    OptAlign(&'a Option<Align>),
}

/// What [`Cmd::sink_fields`] hands each field to.
pub trait FieldSink {
    /// What stops the walk.
    type Error;
    /// Takes the next field, in the order written.
    fn field(&mut self, f: Field<'_>) -> Result<(), Self::Error>;
}

/// A closure as a [`FieldSink`] ([`Cmd::try_fields`]).
struct FnSink<F>(F);

impl<E, F: FnMut(Field<'_>) -> Result<(), E>> FieldSink for FnSink<F> {
    type Error = E;
    #[inline(always)]
    fn field(&mut self, f: Field<'_>) -> Result<(), E> {
        (self.0)(f)
    }
}

/// The [`Field`] of field `$f` of kind `$kind`.
macro_rules! field {
    ($f:ident Nums $n:literal) => {
        Field::Nums(&$f[..])
    };
    ($f:ident Points) => {
        Field::Points(&$f[..])
    };
    ($f:ident On) => {
        Field::On(*$f)
    };
    ($f:ident Flag $w:literal) => {
        Field::Flag($w, *$f)
    };
    ($f:ident $kind:ident) => {
        Field::$kind($f)
    };
}

/// [`Cmd::sink_fields`] from the table.
macro_rules! fields_from_table {
    ($($k:ident $kw:tt {
        cmds: [$($(#[$vm:meta])* $v:ident $vforms:tt {
            $($(#[$fm:meta])* $f:ident : $($pre:literal)? $kind:ident $(($karg:literal))? $($post:literal)?),*
        }),*],
        $($rest:tt)*
    })*) => {
        impl Cmd {
            /// Calls `f` with each argument, in the order written (context
            /// words included), stopping at the first error.
            ///
            /// ```
            /// use animkit_grammar::animator::{fields::Field, parse};
            /// let (cmds, _) = parse("rect 0 0 - 2 3");
            /// let mut words = Vec::new();
            /// let _ = cmds[0].kind.try_fields(|f| {
            ///     words.push(match f { Field::Word(w) => w, Field::Point(_) => "point", _ => "other" });
            ///     Ok::<(), ()>(())
            /// });
            /// assert_eq!(words, ["point", "-", "point"]);
            /// ```
            #[inline(always)]
            pub fn try_fields<E>(&self, f: impl FnMut(Field<'_>) -> Result<(), E>) -> Result<(), E> {
                self.sink_fields(&mut FnSink(f))
            }

            /// Hands `sink` each argument, in the order written (context
            /// words included), stopping at the first error: the walk of
            /// [`Cmd::try_fields`], for a sink whose `field` is inlined at
            /// every field.
            #[inline(always)]
            #[allow(unused_variables)]
            pub fn sink_fields<S: FieldSink>(&self, sink: &mut S) -> Result<(), S::Error> {
                match self {
                    $($(Cmd::$v { $($f),* } => {
                        $(
                            $(sink.field(Field::Word($pre))?;)?
                            sink.field(field!($f $kind $($karg)?))?;
                            $(sink.field(Field::Word($post))?;)?
                        )*
                    })*)*
                }
                Ok(())
            }
        }
    };
}

crate::animator_commands!(fields_from_table);
