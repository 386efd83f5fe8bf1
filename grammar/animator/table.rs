//! The Animator command table itself (documented in
//! [`commands`](crate::animator::commands)): one row per command keyword.
//!
//! This file holds the table and nothing else: the build script reads it
//! too (as a module of its own, `build.rs`), to write the LALRPOP reference
//! grammar's commands from it.

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
