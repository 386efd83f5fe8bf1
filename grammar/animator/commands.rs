//! The Animator command table: one row per command keyword, the one place
//! that lists the commands.
//!
//! [`animator_commands!`](crate::animator_commands) is a callback macro:
//! `animator_commands!(callback)` expands to `callback! { rows }`
//! (`animator_commands!(callback; extra rows)` appends rows, for tests that
//! add a throw-away command), and each
//! consumer writes a `macro_rules!` callback that turns the rows into its
//! own code. A row reads
//!
//! ```text
//! Keyword "keyword" {
//!     cmds: [CmdVariant, ...],   // the ast::Cmd variants of its forms
//!     macro_body: n,             // 0: not allowed in a macro body; else its
//!                                // place (1-based) in animator.md's list
//!     usage: "...",              // what it takes, for "`kw` takes ...; found ..."
//!     forms: [[elem, ...], ...], // the reader's forms, in matching order
//!     lower: [entry, ...],       // per `cmds` variant, in order: its op(s)
//! }
//! ```
//!
//! A `lower` entry names ops of `animkit_vm::isa::Op` as identifiers (this
//! crate does not depend on the VM; the compiler expands them): `Op` (the
//! variant lowers to that one op, its constant block the op's signature),
//! `(Op with field)` (the same, and the signature's `Points` is the
//! variant's point list `field`), `(OpSome if field else OpNone)` (the op
//! depends on whether the optional `field` was written), `(Op, Op, ...)`
//! (a fixed sequence of ops, lowered by hand) and `()` (no op: the macro
//! recorder lowers it). The compiler checks each row against the ISA when
//! it builds (`compiler/src/animator/row_ops.rs`).
//!
//! The form elements are the reader's `Elem`s as `reader/forms.rs` names
//! them: `N` a number, `I` a whole number, `STRING`/`IMAGE`/`MACRO`/`AREA`/
//! `CURSOR`/`FILE`/`FILE_OR_DASH` a string, `Word("w")` a context word, `OnOff`,
//! `HAl`/`VAl` an alignment word, `Sep` a lone `-`, `Dot` a lone `.`,
//! `Points(n)` at least `n` pairs, `Elem::Char`, `ColorName`, `Hex256`.
//!
//! What is derived from it:
//!
//! | where | what |
//! | --- | --- |
//! | `lexer.rs` | the logos `#[token]` of every keyword (the `Tok` enum is generated), `Keyword`, `Keyword::ALL`, `Keyword::as_str` |
//! | `ast.rs` | `Cmd::command_keyword` (and so `Cmd::keyword`): an exhaustive match, so a `Cmd` variant in no row is a compile error |
//! | `commands.rs` | `Keyword::in_macro_body`, [`MACRO_BODY`](crate::animator::commands::MACRO_BODY) (the checker's allow list and its note) |
//! | `reader/forms.rs` | `signature` and `usage` |
//! | compiler `animator/row_ops.rs` | the op of each `Cmd` (`emit_command`'s plain ops) and the lowering's `constants()`, both from `lower` and the op's block in the ISA; a build-time check per row |
//!
//! Adding a command: a row here, its `Cmd` variant(s) in `ast.rs` (and
//! `without_spans`), and the per-variant code the compiler's exhaustive
//! matches then ask for; ARCHITECTURE.md "How to add an Animator command"
//! has the list.

use crate::animator::lexer::Keyword;

/// The Animator command table; see the [module docs](crate::animator::commands).
///
/// ```
/// // A throw-away callback: the keywords of the commands allowed in a macro body.
/// macro_rules! in_macro {
///     ($($k:ident $kw:tt { cmds: $c:tt, macro_body: $m:tt, $($rest:tt)* })*) => {
///         [$(($kw, $m > 0)),*].iter().filter(|r| r.1).map(|r| r.0).collect::<Vec<&str>>()
///     };
/// }
/// let in_macro = animkit_grammar::animator_commands!(in_macro);
/// assert_eq!(in_macro.len(), 27);
/// assert!(in_macro.contains(&"clip") && !in_macro.contains(&"frame"));
/// ```
#[macro_export]
macro_rules! animator_commands {
    ($callback:ident $(; $($extra:tt)*)?) => {
        $callback! {
            Quit "quit" { cmds: [Quit], macro_body: 0, usage: "nothing", forms: [[]], lower: [Quit] }
            Keepalive "keepalive" { cmds: [Keepalive], macro_body: 0, usage: "`on` or `off`", forms: [[OnOff]], lower: [Keepalive] }
            Events "events" { cmds: [Events], macro_body: 0, usage: "`on` or `off`", forms: [[OnOff]], lower: [Events] }
            Resize "resize" { cmds: [Resize], macro_body: 0, usage: "2 whole numbers, width height", forms: [[I, I]], lower: [Resize] }
            Warp "warp" {
                cmds: [Warp, WarpArea],
                macro_body: 0,
                usage: "2 numbers, X Y, or `area` and an area name",
                forms: [[N, N], [Word("area"), AREA]],
                lower: [Warp, WarpArea]
            }
            Echo "echo" { cmds: [Echo], macro_body: 0, usage: "a string", forms: [[STRING]], lower: [Echo] }
            Echopt "echopt" {
                cmds: [Echopt],
                macro_body: 0,
                usage: "a string, points and `.`, string [x y]* .",
                forms: [[STRING, Points(0), Dot]],
                lower: [(EchoPt with points)]
            }
            Title "title" { cmds: [Title], macro_body: 0, usage: "a string", forms: [[STRING]], lower: [Title] }
            Frame "frame" { cmds: [Frame], macro_body: 0, usage: "nothing", forms: [[]], lower: [Frame] }
            Flush "flush" { cmds: [Flush], macro_body: 0, usage: "nothing", forms: [[]], lower: [Flush] }
            Screenshot "screenshot" { cmds: [Screenshot], macro_body: 0, usage: "a file name", forms: [[FILE]], lower: [Screenshot] }
            Screendump "screendump" {
                cmds: [Screendump],
                macro_body: 0,
                usage: "a file name or `-`",
                forms: [[FILE_OR_DASH]],
                lower: [(ScreendumpFile if file else Screendump)]
            }
            Sleep "sleep" { cmds: [Sleep], macro_body: 0, usage: "a number, the seconds to sleep", forms: [[N]], lower: [Sleep] }
            Flushdelay "flushdelay" {
                cmds: [Flushdelay],
                macro_body: 0,
                usage: "a number, the seconds per frame",
                forms: [[N]],
                lower: [FlushDelay]
            }
            Aspect "aspect" { cmds: [Aspect], macro_body: 0, usage: "`on` or `off`", forms: [[OnOff]], lower: [Aspect] }
            Bg "bg" {
                cmds: [Bg],
                macro_body: 0,
                usage: "a colour: a name, `#` and hex digits, a grey level or red green blue",
                forms: [[ColorName], [N], [N, N, N]],
                lower: [Bg]
            }
            Rotate "rotate" { cmds: [Rotate], macro_body: 19, usage: "a number, the angle in degrees", forms: [[N]], lower: [Rotate] }
            Scale "scale" { cmds: [Scale], macro_body: 20, usage: "1 or 2 numbers, x [y]", forms: [[N], [N, N]], lower: [Scale] }
            Shift "shift" { cmds: [Shift], macro_body: 21, usage: "2 numbers, x y", forms: [[N, N]], lower: [Shift] }
            Viewport "viewport" {
                cmds: [Viewport, ViewportCorners, ViewportMacro],
                macro_body: 22,
                usage: "4 numbers, left bottom width height or left bottom - right top, or a macro name, [aspect] name",
                forms: [[N, N, N, N], [N, N, Sep, N, N], [Word("aspect"), MACRO], [MACRO]],
                lower: [Viewport, Viewport, ViewportMacro]
            }
            Mult "mult" {
                cmds: [Mult],
                macro_body: 18,
                usage: "9 numbers, a 3x3 matrix row by row",
                forms: [[N, N, N, N, N, N, N, N, N]],
                lower: [Mult]
            }
            Push "push" { cmds: [Push], macro_body: 16, usage: "nothing", forms: [[]], lower: [Push] }
            Pop "pop" { cmds: [Pop], macro_body: 17, usage: "nothing", forms: [[]], lower: [Pop] }
            Ident "ident" { cmds: [Ident], macro_body: 23, usage: "nothing", forms: [[]], lower: [Ident] }
            Clip "clip" {
                cmds: [Clip, ClipCorners],
                macro_body: 27,
                usage: "4 numbers, left bottom width height or left bottom - right top",
                forms: [[N, N, N, N], [N, N, Sep, N, N]],
                lower: [Clip, Clip]
            }
            Color "color" {
                cmds: [Color],
                macro_body: 1,
                usage: "a colour: a name, `#` and hex digits, a grey level or red green blue",
                forms: [[ColorName], [N], [N, N, N]],
                lower: [Color]
            }
            Alpha "alpha" { cmds: [Alpha], macro_body: 2, usage: "a number, alpha from 0 to 1", forms: [[N]], lower: [Alpha] }
            Thick "thick" { cmds: [Thick], macro_body: 3, usage: "a whole number, the thickness in pixels", forms: [[I]], lower: [Thick] }
            Dash "dash" { cmds: [Dash], macro_body: 4, usage: "a whole number, the dash pattern", forms: [[I]], lower: [Dash] }
            Dot "dot" { cmds: [Dot], macro_body: 5, usage: "2 numbers, x y", forms: [[N, N]], lower: [Dot] }
            Line "line" { cmds: [Line], macro_body: 6, usage: "4 numbers, x1 y1 x2 y2", forms: [[N, N, N, N]], lower: [Line] }
            Arrow "arrow" { cmds: [Arrow], macro_body: 7, usage: "4 numbers, x1 y1 x2 y2", forms: [[N, N, N, N]], lower: [Arrow] }
            Rect "rect" {
                cmds: [Rect, RectCorners],
                macro_body: 8,
                usage: "4 numbers, x y width height or x1 y1 - x2 y2",
                forms: [[N, N, N, N], [N, N, Sep, N, N]],
                lower: [Rect, Rect]
            }
            Fillrect "fillrect" {
                cmds: [FillRect, FillRectCorners],
                macro_body: 9,
                usage: "4 numbers, x y width height or x1 y1 - x2 y2",
                forms: [[N, N, N, N], [N, N, Sep, N, N]],
                lower: [FillRect, FillRect]
            }
            Text "text" {
                cmds: [Text],
                macro_body: 10,
                usage: "2 numbers and a string, [h v] x y text",
                forms: [[N, N, STRING], [HAl, VAl, N, N, STRING]],
                lower: [Text]
            }
            Blit "blit" {
                cmds: [Blit],
                macro_body: 11,
                usage: "2 numbers and an image name, [h v] x y image",
                forms: [[N, N, IMAGE], [HAl, VAl, N, N, IMAGE]],
                lower: [Blit]
            }
            Lines "lines" {
                cmds: [Lines],
                macro_body: 12,
                usage: "at least 2 points, x1 y1 x2 y2 [x3 y3]...",
                forms: [[Points(2)]],
                lower: [(Lines with points)]
            }
            Poly "poly" {
                cmds: [Poly],
                macro_body: 13,
                usage: "at least 3 points, x1 y1 x2 y2 x3 y3 [x4 y4]...",
                forms: [[Points(3)]],
                lower: [(Poly with points)]
            }
            Circle "circle" {
                cmds: [Circle],
                macro_body: 14,
                usage: "3 numbers and a whole number, x y r verts",
                forms: [[N, N, N, I]],
                lower: [Circle]
            }
            Fillcircle "fillcircle" {
                cmds: [FillCircle],
                macro_body: 15,
                usage: "3 numbers and a whole number, x y r verts",
                forms: [[N, N, N, I]],
                lower: [FillCircle]
            }
            Image "image" {
                cmds: [ImageLoad, ImageNew],
                macro_body: 0,
                usage: "an image name and a file name, or 2 whole numbers and an image name, width height name",
                forms: [[I, I, IMAGE], [IMAGE, FILE]],
                lower: [Image, ImageNew]
            }
            Colormap "colormap" {
                cmds: [Colormap],
                macro_body: 0,
                usage: "a character and a colour, c color",
                forms: [[Elem::Char, ColorName], [Elem::Char, N], [Elem::Char, N, N, N]],
                lower: [Colormap]
            }
            ImageSet "image_set" {
                cmds: [ImageSet],
                macro_body: 0,
                usage: "an image name, 2 whole numbers and a string, image x y string",
                forms: [[IMAGE, I, I, STRING]],
                lower: [ImageSet]
            }
            Imgpoly "imgpoly" {
                cmds: [ImgPoly, ImgPolyEdges, ImgPolyAxes, ImgPolyUnit],
                macro_body: 0,
                usage: "an image name and at least 3 points, [[ax ay] ux uy vx vy | ux vy] image x1 y1 x2 y2 x3 y3...",
                forms: [
                    [N, N, N, N, N, N, IMAGE, Points(3)],
                    [N, N, N, N, IMAGE, Points(3)],
                    [N, N, IMAGE, Points(3)],
                    [IMAGE, Points(3)]
                ],
                lower: [(ImgPoly with points), (ImgPoly with points), (ImgPoly with points), (ImgPoly with points)]
            }
            Area "area" {
                cmds: [Area],
                macro_body: 25,
                usage: "an area name and at least 3 points, name x1 y1 x2 y2 x3 y3 [x4 y4]...",
                forms: [[AREA, Points(3)]],
                lower: [(Area with points)]
            }
            Delarea "delarea" { cmds: [Delarea], macro_body: 26, usage: "an area name", forms: [[AREA]], lower: [DelArea] }
            Killareas "killareas" { cmds: [Killareas], macro_body: 0, usage: "nothing", forms: [[]], lower: [KillAreas] }
            Macro "macro" {
                cmds: [Macro],
                macro_body: 0,
                usage: "a macro name, [push] name",
                forms: [[Word("push"), MACRO], [MACRO]],
                lower: [()]
            }
            Endmacro "endmacro" { cmds: [Endmacro], macro_body: 0, usage: "nothing", forms: [[]], lower: [()] }
            Invoke "invoke" {
                cmds: [Invoke, InvokeAt],
                macro_body: 24,
                usage: "a macro name, [X Y] name",
                forms: [[N, N, MACRO], [MACRO]],
                lower: [CallN, (Push, Shift, CallN, Pop)]
            }
            Forget "forget" { cmds: [Forget], macro_body: 0, usage: "nothing", forms: [[]], lower: [Forget] }
            Defcursor "defcursor" {
                cmds: [Defcursor],
                macro_body: 0,
                usage: "a cursor name, 2 strings of 256 hex digits and 2 whole numbers, name data mask hot_col hot_row",
                forms: [[CURSOR, Hex256, Hex256, I, I]],
                lower: [DefCursor]
            }
            Setcursor "setcursor" { cmds: [Setcursor], macro_body: 0, usage: "a cursor name", forms: [[CURSOR]], lower: [SetCursor] }
            $($($extra)*)?
        }
    };
}

/// `Keyword::in_macro_body` and [`MACRO_BODY`] from the table's
/// `macro_body` column.
macro_rules! macro_body_from_table {
    ($($k:ident $kw:tt { cmds: $cmds:tt, macro_body: $m:literal, $($rest:tt)* })*) => {
        /// Each keyword and its place in `animator.md`'s list of the
        /// commands a macro body may hold (0: not allowed).
        const MACRO_PLACES: [(Keyword, u8); Keyword::ALL.len()] = [$((Keyword::$k, $m)),*];

        impl Keyword {
            /// True for a command a macro body may hold (`animator.md`).
            ///
            /// ```
            /// use animkit_grammar::animator::lexer::Keyword;
            /// assert!(Keyword::Clip.in_macro_body());
            /// assert!(!Keyword::Frame.in_macro_body());
            /// ```
            pub const fn in_macro_body(self) -> bool {
                match self {
                    $(Keyword::$k => $m > 0,)*
                }
            }
        }
    };
}

crate::animator_commands!(macro_body_from_table);
#[cfg(test)]
pub(crate) use macro_body_from_table;

/// How many commands a macro body may hold.
const MACRO_BODY_LEN: usize = {
    let mut n = 0;
    let mut i = 0;
    while i < MACRO_PLACES.len() {
        if MACRO_PLACES[i].1 > 0 {
            n += 1;
        }
        i += 1;
    }
    n
};

/// The commands a macro body may hold, in the order `animator.md` lists
/// them (the order of the checker's note). The table's `macro_body` places
/// must be 1..=n, each once: anything else does not compile.
///
/// ```
/// use animkit_grammar::animator::{commands::MACRO_BODY, lexer::Keyword};
/// assert_eq!(MACRO_BODY.len(), 27);
/// assert_eq!((MACRO_BODY[0], MACRO_BODY[26]), (Keyword::Color, Keyword::Clip));
/// ```
pub const MACRO_BODY: [Keyword; MACRO_BODY_LEN] = {
    let mut out = [Keyword::Quit; MACRO_BODY_LEN];
    let mut filled = [false; MACRO_BODY_LEN];
    let mut i = 0;
    while i < MACRO_PLACES.len() {
        let (k, place) = MACRO_PLACES[i];
        if place > 0 {
            let at = place as usize - 1;
            assert!(at < MACRO_BODY_LEN && !filled[at], "macro_body places must be 1..=n, each once");
            out[at] = k;
            filled[at] = true;
        }
        i += 1;
    }
    out
};
