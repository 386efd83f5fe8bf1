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
//!     cmds: [/// doc
//!            CmdVariant(form, ...) { /// doc
//!                                    field: Kind, ... }, ...],
//!                                // the ast::Cmd variants, each with its
//!                                // docs, the forms it is read from and
//!                                // its fields in the order written, with
//!                                // their docs and kinds
//!     macro_body: n,             // 0: not allowed in a macro body; else its
//!                                // place (1-based) in animator.md's list
//!     usage: "...",              // what it takes, for "`kw` takes ...; found ..."
//!     forms: [[elem, ...], ...], // the reader's forms, in matching order
//!     lower: [entry, ...],       // per `cmds` variant, in order: its op(s)
//! }
//! ```
//!
//! A `cmds` entry lists every field of its variant (the generated matches
//! name them all, so a field out of step does not compile), in the order
//! the text has them, each with its kind: `Num`, `Int`, `Bits` (a whole
//! number formatted in hex), `Str`, `Name` (a macro name), `Hex` (256 hex
//! digits), `OptStr` (`None` where `-` was written), `Point`, `Points`,
//! `Nums(n)` (`n` numbers), `OptNum` (there when the form has it), `On`,
//! `Flag("w")` (whether the form has the context word `w`), `Color`, `Char`
//! and `OptAlign`. A context word written before or after a field is a
//! string there: `right: "-" Num`, `points: Points "."`. The form numbers
//! index `forms` and must name each form once (a build-time check). The
//! `ast::Cmd` enum is this column written out: a variant without fields is
//! a unit variant, a field's type follows from its kind (`Int` and `Bits`:
//! `ast::Int`; `Str`, `Name` and `Hex`: `ast::Str`; `OptStr`: `Option<Str>`;
//! `Points`: `Vec<Point>`; `Nums(n)`: `[Num; n]`; `On` and `Flag`: `bool`;
//! `OptNum`/`OptAlign`: `Option<Num>`/`Option<Align>`), and the `///` docs
//! written here are the enum's.
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
//! | `ast.rs` | the `Cmd` enum itself (its variants, fields, field types and docs) |
//! | `ast.rs` | `Cmd::command_keyword` (and so `Cmd::keyword`) |
//! | `commands.rs` | `Keyword::in_macro_body`, [`MACRO_BODY`](crate::animator::commands::MACRO_BODY) (the checker's allow list and its note) |
//! | `ast.rs` | `Cmd::without_spans` |
//! | `fields.rs` | `Cmd::try_fields`: each argument with its kind, in the order written; the compiler's checker (`written.rs`, `meaning.rs`), formatter and lowering (`write_block`) walk it |
//! | `reader/forms.rs` | `signature`, `usage` and `build` (a matched form to its `Cmd`) |
//! | compiler `animator/row_ops.rs` | the op of each `Cmd` (`emit_command`'s plain ops) and the lowering's `constants()`, both from `lower` and the op's block in the ISA; a build-time check per row |
//!
//! Adding a command: a row here (its `Cmd` variants come with it), and
//! what the grammar, the ISA and the machine then ask for; a command with a check or a
//! block layout of its own adds an arm to `meaning.rs`'s `own_checks` or
//! `lower.rs`'s `write_block`. ARCHITECTURE.md "How to add an Animator
//! command" has the list.

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
            Quit "quit" {
                cmds: [
                    /// `quit`
                    Quit(0) {}
                ],
                macro_body: 0,
                usage: "nothing",
                forms: [[]],
                lower: [Quit]
            }
            Keepalive "keepalive" {
                cmds: [
                    /// `keepalive on|off`
                    Keepalive(0) {
                        /// `on`
                        on: On
                    }
                ],
                macro_body: 0,
                usage: "`on` or `off`",
                forms: [[OnOff]],
                lower: [Keepalive]
            }
            Events "events" {
                cmds: [
                    /// `events on|off`
                    Events(0) {
                        /// `on`
                        on: On
                    }
                ],
                macro_body: 0,
                usage: "`on` or `off`",
                forms: [[OnOff]],
                lower: [Events]
            }
            Resize "resize" {
                cmds: [
                    /// `resize width height`
                    Resize(0) {
                        /// Pixels.
                        width: Int,
                        /// Pixels.
                        height: Int
                    }
                ],
                macro_body: 0,
                usage: "2 whole numbers, width height",
                forms: [[I, I]],
                lower: [Resize]
            }
            Warp "warp" {
                cmds: [
                    /// `warp X Y`
                    Warp(0) {
                        /// In the current coordinate system.
                        at: Point
                    },
                    /// `warp area name`
                    WarpArea(1) {
                        /// The area.
                        area: "area" Str
                    }
                ],
                macro_body: 0,
                usage: "2 numbers, X Y, or `area` and an area name",
                forms: [[N, N], [Word("area"), AREA]],
                lower: [Warp, WarpArea]
            }
            Echo "echo" {
                cmds: [
                    /// `echo string`
                    Echo(0) {
                        /// Printed with a newline.
                        text: Str
                    }
                ],
                macro_body: 0,
                usage: "a string",
                forms: [[STRING]],
                lower: [Echo]
            }
            Echopt "echopt" {
                cmds: [
                    /// `echopt string [x y]* .`
                    Echopt(0) {
                        /// Printed first.
                        text: Str,
                        /// Printed in screen coordinates; possibly none.
                        points: Points "."
                    }
                ],
                macro_body: 0,
                usage: "a string, points and `.`, string [x y]* .",
                forms: [[STRING, Points(0), Dot]],
                lower: [(EchoPt with points)]
            }
            Title "title" {
                cmds: [
                    /// `title string`
                    Title(0) {
                        /// The window title.
                        text: Str
                    }
                ],
                macro_body: 0,
                usage: "a string",
                forms: [[STRING]],
                lower: [Title]
            }
            Frame "frame" {
                cmds: [
                    /// `frame`
                    Frame(0) {}
                ],
                macro_body: 0,
                usage: "nothing",
                forms: [[]],
                lower: [Frame]
            }
            Flush "flush" {
                cmds: [
                    /// `flush`
                    Flush(0) {}
                ],
                macro_body: 0,
                usage: "nothing",
                forms: [[]],
                lower: [Flush]
            }
            Screenshot "screenshot" {
                cmds: [
                    /// `screenshot filename`
                    Screenshot(0) {
                        /// Where the PNG goes (`/dev/stdout` included).
                        file: Str
                    }
                ],
                macro_body: 0,
                usage: "a file name",
                forms: [[FILE]],
                lower: [Screenshot]
            }
            Screendump "screendump" {
                cmds: [
                    /// `screendump -` (`file: None`, standard output) or
                    /// `screendump filename`. A quoted `"-"` also means standard output, as
                    /// the original compared the string; write `./-` for a file named `-`.
                    Screendump(0) {
                        /// The file, or `None` for `-`.
                        file: OptStr
                    }
                ],
                macro_body: 0,
                usage: "a file name or `-`",
                forms: [[FILE_OR_DASH]],
                lower: [(ScreendumpFile if file else Screendump)]
            }
            Sleep "sleep" {
                cmds: [
                    /// `sleep N`
                    Sleep(0) {
                        /// Seconds.
                        seconds: Num
                    }
                ],
                macro_body: 0,
                usage: "a number, the seconds to sleep",
                forms: [[N]],
                lower: [Sleep]
            }
            Flushdelay "flushdelay" {
                cmds: [
                    /// `flushdelay s`
                    Flushdelay(0) {
                        /// Seconds per frame.
                        seconds: Num
                    }
                ],
                macro_body: 0,
                usage: "a number, the seconds per frame",
                forms: [[N]],
                lower: [FlushDelay]
            }
            Aspect "aspect" {
                cmds: [
                    /// `aspect on|off`
                    Aspect(0) {
                        /// `on`
                        on: On
                    }
                ],
                macro_body: 0,
                usage: "`on` or `off`",
                forms: [[OnOff]],
                lower: [Aspect]
            }
            Bg "bg" {
                cmds: [
                    /// `bg color`
                    Bg(0, 1, 2) {
                        /// The background.
                        color: Color
                    }
                ],
                macro_body: 0,
                usage: "a colour: a name, `#` and hex digits, a grey level or red green blue",
                forms: [[ColorName], [N], [N, N, N]],
                lower: [Bg]
            }
            Rotate "rotate" {
                cmds: [
                    /// `rotate angle`
                    Rotate(0) {
                        /// Degrees, counter-clockwise.
                        degrees: Num
                    }
                ],
                macro_body: 19,
                usage: "a number, the angle in degrees",
                forms: [[N]],
                lower: [Rotate]
            }
            Scale "scale" {
                cmds: [
                    /// `scale x [y]`
                    Scale(0, 1) {
                        /// Horizontal factor.
                        x: Num,
                        /// Vertical factor; `None` means "same as x".
                        y: OptNum
                    }
                ],
                macro_body: 20,
                usage: "1 or 2 numbers, x [y]",
                forms: [[N], [N, N]],
                lower: [Scale]
            }
            Shift "shift" {
                cmds: [
                    /// `shift x y`
                    Shift(0) {
                        /// Horizontal.
                        x: Num,
                        /// Vertical.
                        y: Num
                    }
                ],
                macro_body: 21,
                usage: "2 numbers, x y",
                forms: [[N, N]],
                lower: [Shift]
            }
            Viewport "viewport" {
                cmds: [
                    /// `viewport left bottom width height`
                    Viewport(0) {
                        /// Left edge.
                        left: Num,
                        /// Bottom edge.
                        bottom: Num,
                        /// Width.
                        width: Num,
                        /// Height.
                        height: Num
                    },
                    /// `viewport left bottom - right top`
                    ViewportCorners(1) {
                        /// Left edge.
                        left: Num,
                        /// Bottom edge.
                        bottom: Num,
                        /// Right edge.
                        right: "-" Num,
                        /// Top edge.
                        top: Num
                    },
                    /// `viewport name` (`keep_aspect: false`) or `viewport aspect name`.
                    ViewportMacro(2, 3) {
                        /// `aspect` was written.
                        keep_aspect: Flag("aspect"),
                        /// The macro whose bounding box is mapped to -1..1.
                        name: Name
                    }
                ],
                macro_body: 22,
                usage: "4 numbers, left bottom width height or left bottom - right top, or a macro name, [aspect] name",
                forms: [[N, N, N, N], [N, N, Sep, N, N], [Word("aspect"), MACRO], [MACRO]],
                lower: [Viewport, Viewport, ViewportMacro]
            }
            Mult "mult" {
                cmds: [
                    /// `mult` and 9 numbers, row-major.
                    Mult(0) {
                        /// The matrix.
                        matrix: Nums(9)
                    }
                ],
                macro_body: 18,
                usage: "9 numbers, a 3x3 matrix row by row",
                forms: [[N, N, N, N, N, N, N, N, N]],
                lower: [Mult]
            }
            Push "push" {
                cmds: [
                    /// `push`
                    Push(0) {}
                ],
                macro_body: 16,
                usage: "nothing",
                forms: [[]],
                lower: [Push]
            }
            Pop "pop" {
                cmds: [
                    /// `pop`
                    Pop(0) {}
                ],
                macro_body: 17,
                usage: "nothing",
                forms: [[]],
                lower: [Pop]
            }
            Ident "ident" {
                cmds: [
                    /// `ident`
                    Ident(0) {}
                ],
                macro_body: 23,
                usage: "nothing",
                forms: [[]],
                lower: [Ident]
            }
            Clip "clip" {
                cmds: [
                    /// `clip left bottom width height`
                    Clip(0) {
                        /// Left edge.
                        left: Num,
                        /// Bottom edge.
                        bottom: Num,
                        /// Width.
                        width: Num,
                        /// Height.
                        height: Num
                    },
                    /// `clip left bottom - right top`
                    ClipCorners(1) {
                        /// Left edge.
                        left: Num,
                        /// Bottom edge.
                        bottom: Num,
                        /// Right edge.
                        right: "-" Num,
                        /// Top edge.
                        top: Num
                    }
                ],
                macro_body: 27,
                usage: "4 numbers, left bottom width height or left bottom - right top",
                forms: [[N, N, N, N], [N, N, Sep, N, N]],
                lower: [Clip, Clip]
            }
            Color "color" {
                cmds: [
                    /// `color color`
                    Color(0, 1, 2) {
                        /// The drawing colour.
                        color: Color
                    }
                ],
                macro_body: 1,
                usage: "a colour: a name, `#` and hex digits, a grey level or red green blue",
                forms: [[ColorName], [N], [N, N, N]],
                lower: [Color]
            }
            Alpha "alpha" {
                cmds: [
                    /// `alpha alpha`
                    Alpha(0) {
                        /// 0 invisible .. 1 opaque.
                        alpha: Num
                    }
                ],
                macro_body: 2,
                usage: "a number, alpha from 0 to 1",
                forms: [[N]],
                lower: [Alpha]
            }
            Thick "thick" {
                cmds: [
                    /// `thick number`
                    Thick(0) {
                        /// Pixels.
                        pixels: Int
                    }
                ],
                macro_body: 3,
                usage: "a whole number, the thickness in pixels",
                forms: [[I]],
                lower: [Thick]
            }
            Dash "dash" {
                cmds: [
                    /// `dash 0xffff`
                    Dash(0) {
                        /// The bit pattern.
                        pattern: Bits
                    }
                ],
                macro_body: 4,
                usage: "a whole number, the dash pattern",
                forms: [[I]],
                lower: [Dash]
            }
            Dot "dot" {
                cmds: [
                    /// `dot x y`
                    Dot(0) {
                        /// The pixel.
                        at: Point
                    }
                ],
                macro_body: 5,
                usage: "2 numbers, x y",
                forms: [[N, N]],
                lower: [Dot]
            }
            Line "line" {
                cmds: [
                    /// `line x1 y1 x2 y2`
                    Line(0) {
                        /// First end.
                        from: Point,
                        /// Second end.
                        to: Point
                    }
                ],
                macro_body: 6,
                usage: "4 numbers, x1 y1 x2 y2",
                forms: [[N, N, N, N]],
                lower: [Line]
            }
            Arrow "arrow" {
                cmds: [
                    /// `arrow x1 y1 x2 y2`
                    Arrow(0) {
                        /// Tail.
                        from: Point,
                        /// Head.
                        to: Point
                    }
                ],
                macro_body: 7,
                usage: "4 numbers, x1 y1 x2 y2",
                forms: [[N, N, N, N]],
                lower: [Arrow]
            }
            Rect "rect" {
                cmds: [
                    /// `rect x y width height`
                    Rect(0) {
                        /// The corner at `x, y`.
                        corner: Point,
                        /// Width.
                        width: Num,
                        /// Height.
                        height: Num
                    },
                    /// `rect x1 y1 - x2 y2`
                    RectCorners(1) {
                        /// One corner.
                        from: Point,
                        /// The opposite corner.
                        to: "-" Point
                    }
                ],
                macro_body: 8,
                usage: "4 numbers, x y width height or x1 y1 - x2 y2",
                forms: [[N, N, N, N], [N, N, Sep, N, N]],
                lower: [Rect, Rect]
            }
            Fillrect "fillrect" {
                cmds: [
                    /// `fillrect x y width height`
                    FillRect(0) {
                        /// The corner at `x, y`.
                        corner: Point,
                        /// Width.
                        width: Num,
                        /// Height.
                        height: Num
                    },
                    /// `fillrect x1 y1 - x2 y2`
                    FillRectCorners(1) {
                        /// One corner.
                        from: Point,
                        /// The opposite corner.
                        to: "-" Point
                    }
                ],
                macro_body: 9,
                usage: "4 numbers, x y width height or x1 y1 - x2 y2",
                forms: [[N, N, N, N], [N, N, Sep, N, N]],
                lower: [FillRect, FillRect]
            }
            Text "text" {
                cmds: [
                    /// `text [h v] x y text`
                    Text(0, 1) {
                        /// The alignment if written (the default is center center).
                        align: OptAlign,
                        /// The anchor.
                        at: Point,
                        /// The text.
                        text: Str
                    }
                ],
                macro_body: 10,
                usage: "2 numbers and a string, [h v] x y text",
                forms: [[N, N, STRING], [HAl, VAl, N, N, STRING]],
                lower: [Text]
            }
            Blit "blit" {
                cmds: [
                    /// `blit [h v] x y image`
                    Blit(0, 1) {
                        /// The alignment if written (the default is center center).
                        align: OptAlign,
                        /// The anchor.
                        at: Point,
                        /// The image name.
                        image: Str
                    }
                ],
                macro_body: 11,
                usage: "2 numbers and an image name, [h v] x y image",
                forms: [[N, N, IMAGE], [HAl, VAl, N, N, IMAGE]],
                lower: [Blit]
            }
            Lines "lines" {
                cmds: [
                    /// `lines x1 y1 x2 y2 [x3 y3]...`
                    Lines(0) {
                        /// At least 2.
                        points: Points
                    }
                ],
                macro_body: 12,
                usage: "at least 2 points, x1 y1 x2 y2 [x3 y3]...",
                forms: [[Points(2)]],
                lower: [(Lines with points)]
            }
            Poly "poly" {
                cmds: [
                    /// `poly x1 y1 x2 y2 x3 y3 [x4 y4]...`
                    Poly(0) {
                        /// At least 3.
                        points: Points
                    }
                ],
                macro_body: 13,
                usage: "at least 3 points, x1 y1 x2 y2 x3 y3 [x4 y4]...",
                forms: [[Points(3)]],
                lower: [(Poly with points)]
            }
            Circle "circle" {
                cmds: [
                    /// `circle x y r verts`
                    Circle(0) {
                        /// Centre.
                        center: Point,
                        /// Radius.
                        radius: Num,
                        /// Number of vertices.
                        vertices: Int
                    }
                ],
                macro_body: 14,
                usage: "3 numbers and a whole number, x y r verts",
                forms: [[N, N, N, I]],
                lower: [Circle]
            }
            Fillcircle "fillcircle" {
                cmds: [
                    /// `fillcircle x y r verts`
                    FillCircle(0) {
                        /// Centre.
                        center: Point,
                        /// Radius.
                        radius: Num,
                        /// Number of vertices.
                        vertices: Int
                    }
                ],
                macro_body: 15,
                usage: "3 numbers and a whole number, x y r verts",
                forms: [[N, N, N, I]],
                lower: [FillCircle]
            }
            Image "image" {
                cmds: [
                    /// `image name path`
                    ImageLoad(1) {
                        /// The image's name.
                        name: Str,
                        /// The file to load.
                        path: Str
                    },
                    /// `image width height name`
                    ImageNew(0) {
                        /// Pixels.
                        width: Int,
                        /// Pixels.
                        height: Int,
                        /// The image's name.
                        name: Str
                    }
                ],
                macro_body: 0,
                usage: "an image name and a file name, or 2 whole numbers and an image name, width height name",
                forms: [[I, I, IMAGE], [IMAGE, FILE]],
                lower: [Image, ImageNew]
            }
            Colormap "colormap" {
                cmds: [
                    /// `colormap c color`. `!` starts a comment and `"` a string even here,
                    /// so those two are written quoted: `colormap "!" red`,
                    /// `colormap "\"" blue`.
                    Colormap(0, 1, 2) {
                        /// The character being mapped.
                        ch: Char,
                        /// Its colour.
                        color: Color
                    }
                ],
                macro_body: 0,
                usage: "a character and a colour, c color",
                forms: [[Elem::Char, ColorName], [Elem::Char, N], [Elem::Char, N, N, N]],
                lower: [Colormap]
            }
            ImageSet "image_set" {
                cmds: [
                    /// `image_set image x y string`
                    ImageSet(0) {
                        /// The image.
                        image: Str,
                        /// First column.
                        x: Int,
                        /// Row.
                        y: Int,
                        /// One pixel per character, through the colormap.
                        pixels: Str
                    }
                ],
                macro_body: 0,
                usage: "an image name, 2 whole numbers and a string, image x y string",
                forms: [[IMAGE, I, I, STRING]],
                lower: [ImageSet]
            }
            Imgpoly "imgpoly" {
                cmds: [
                    /// `imgpoly ax ay ux uy vx vy image polygon...`
                    ImgPoly(0) {
                        /// Where the texture's lower left corner is fixed.
                        anchor: Point,
                        /// Horizontal edge vector of one repeat.
                        u: Point,
                        /// Vertical edge vector of one repeat.
                        v: Point,
                        /// The texture.
                        image: Str,
                        /// At least 3.
                        points: Points
                    },
                    /// `imgpoly ux uy vx vy image polygon...` (anchored at the first point)
                    ImgPolyEdges(1) {
                        /// Horizontal edge vector of one repeat.
                        u: Point,
                        /// Vertical edge vector of one repeat.
                        v: Point,
                        /// The texture.
                        image: Str,
                        /// At least 3.
                        points: Points
                    },
                    /// `imgpoly ux vy image polygon...` (`uy` and `vx` are 0)
                    ImgPolyAxes(2) {
                        /// Width of one repeat.
                        ux: Num,
                        /// Height of one repeat.
                        vy: Num,
                        /// The texture.
                        image: Str,
                        /// At least 3.
                        points: Points
                    },
                    /// `imgpoly image polygon...` (edge vectors 1,0 and 0,1)
                    ImgPolyUnit(3) {
                        /// The texture.
                        image: Str,
                        /// At least 3.
                        points: Points
                    }
                ],
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
                cmds: [
                    /// `area name x1 y1 x2 y2 x3 y3 [x4 y4]...`
                    Area(0) {
                        /// The area's name.
                        name: Str,
                        /// At least 3.
                        points: Points
                    }
                ],
                macro_body: 25,
                usage: "an area name and at least 3 points, name x1 y1 x2 y2 x3 y3 [x4 y4]...",
                forms: [[AREA, Points(3)]],
                lower: [(Area with points)]
            }
            Delarea "delarea" {
                cmds: [
                    /// `delarea name`
                    Delarea(0) {
                        /// The area.
                        name: Str
                    }
                ],
                macro_body: 26,
                usage: "an area name",
                forms: [[AREA]],
                lower: [DelArea]
            }
            Killareas "killareas" {
                cmds: [
                    /// `killareas`
                    Killareas(0) {}
                ],
                macro_body: 0,
                usage: "nothing",
                forms: [[]],
                lower: [KillAreas]
            }
            Macro "macro" {
                cmds: [
                    /// `macro name` (`push: false`) or `macro push name`.
                    Macro(0, 1) {
                        /// `push` was written: extend an existing macro.
                        push: Flag("push"),
                        /// The macro.
                        name: Name
                    }
                ],
                macro_body: 0,
                usage: "a macro name, [push] name",
                forms: [[Word("push"), MACRO], [MACRO]],
                lower: [()]
            }
            Endmacro "endmacro" {
                cmds: [
                    /// `endmacro`
                    Endmacro(0) {}
                ],
                macro_body: 0,
                usage: "nothing",
                forms: [[]],
                lower: [()]
            }
            Invoke "invoke" {
                cmds: [
                    /// `invoke name`
                    Invoke(1) {
                        /// The macro.
                        name: Name
                    },
                    /// `invoke X Y name`
                    InvokeAt(0) {
                        /// The shift applied around the macro.
                        at: Point,
                        /// The macro.
                        name: Name
                    }
                ],
                macro_body: 24,
                usage: "a macro name, [X Y] name",
                forms: [[N, N, MACRO], [MACRO]],
                lower: [CallN, (Push, Shift, CallN, Pop)]
            }
            Forget "forget" {
                cmds: [
                    /// `forget`
                    Forget(0) {}
                ],
                macro_body: 0,
                usage: "nothing",
                forms: [[]],
                lower: [Forget]
            }
            Defcursor "defcursor" {
                cmds: [
                    /// `defcursor name data mask hot_col hot_row`
                    Defcursor(0) {
                        /// The cursor.
                        name: Str,
                        /// 256 hex digits (checked by the checker).
                        data: Hex,
                        /// 256 hex digits (checked by the checker).
                        mask: Hex,
                        /// Hot spot column, 0-based.
                        hot_col: Int,
                        /// Hot spot row, 0-based.
                        hot_row: Int
                    }
                ],
                macro_body: 0,
                usage: "a cursor name, 2 strings of 256 hex digits and 2 whole numbers, name data mask hot_col hot_row",
                forms: [[CURSOR, Hex256, Hex256, I, I]],
                lower: [DefCursor]
            }
            Setcursor "setcursor" {
                cmds: [
                    /// `setcursor name`
                    Setcursor(0) {
                        /// The cursor.
                        name: Str
                    }
                ],
                macro_body: 0,
                usage: "a cursor name",
                forms: [[CURSOR]],
                lower: [SetCursor]
            }
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
