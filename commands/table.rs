//! The Animator command table (the crate `animkit-commands`): one row per
//! command keyword. The grammar crate documents the rows
//! (`animkit_grammar::animator::commands`) and re-exports the macro.
//!
//! This file holds the table and nothing else, and depends on nothing: the
//! grammar crate reads it (its lexer, AST, reader, formatter, checker and,
//! through its build script, which reads this file as a module of its own,
//! the LALRPOP reference grammar), the compiler (the lowering's ops) and the
//! VM (`animkit_vm::engine::isa`'s Animator rows, from the `ops` column, and the
//! machine's dispatch, from each op's last column). A row's tokens mean
//! something only to the callback that reads them: the `ops` column's
//! names (`K`, `Free`, `PLAIN`, `N2`...) are the VM's `isa.rs`'s.

/// The Animator command table; see the grammar crate's `animator::commands`.
///
/// ```
/// // A throw-away callback: the keywords of the commands allowed in a macro body.
/// macro_rules! in_macro {
///     ($($k:ident $kw:tt { cmds: $c:tt, macro_body: $m:tt, $($rest:tt)* })*) => {
///         [$(($kw, $m > 0)),*].iter().filter(|r| r.1).map(|r| r.0).collect::<Vec<&str>>()
///     };
/// }
/// let in_macro = animkit_commands::animator_commands!(in_macro);
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
                lower: [Quit],
                ops: [
                    Quit = 0x30, "QUIT",       None, Free, ENDS, &[], "host.quit()", {machine};
                ]
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
                lower: [Keepalive],
                ops: [
                    Keepalive = 0x31, "KEEPALIVE",  K, Free, PLAIN, &[Bool], "host.keepalive(K)", {canvas.keepalive(flag 0)};
                ]
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
                lower: [Events],
                ops: [
                    Events = 0x32, "EVENTS",     K, Free, PLAIN, &[Bool], "event matrix := M; host.events(K, M)", {canvas.events(flag 0, matrix)};
                ]
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
                lower: [Resize],
                ops: [
                    Resize = 0x33, "RESIZE",     K, Heavy, PLAIN, &[Max(MAX_WINDOW), Max(MAX_WINDOW)], "host.resize(w, h)", {canvas.resize(uint 0, uint 1)};
                ]
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
                lower: [Warp, WarpArea],
                ops: [
                    Warp     = 0x34, "WARP",       K, Free, PLAIN, N2, "host.warp(M * (x, y))", {canvas.warp(pt 0)};
                    WarpArea = 0x35, "WARPAREA",   K, Free, PLAIN, &[Str], "host.warp_area(S[K])", {canvas.warp_area(str 0)?};
                ]
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
                lower: [Echo],
                ops: [
                    Echo = 0x36, "ECHO",       K, Text(0), PLAIN, &[Str], "host.echo(S[K])", {canvas.echo(str 0)};
                ]
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
                lower: [(EchoPt with points)],
                ops: [
                    EchoPt = 0x37, "ECHOPT",     K, Text(0), PLAIN, &[Str, Points], "host.echo_points(S[K], M * points)", {canvas.echo_points(str 0, pts 1)};
                ]
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
                lower: [Title],
                ops: [
                    Title = 0x38, "TITLE",      K, Text(0), PLAIN, &[Str], "host.title(S[K])", {canvas.title(str 0)};
                ]
            }
            Frame "frame" {
                cmds: [
                    /// `frame`
                    Frame(0) {}
                ],
                macro_body: 0,
                usage: "nothing",
                forms: [[]],
                lower: [Frame],
                ops: [
                    Frame = 0x39, "FRAME",      None, Heavy, PLAIN, &[], "reset pen; host.frame()", {machine};
                ]
            }
            Flush "flush" {
                cmds: [
                    /// `flush`
                    Flush(0) {}
                ],
                macro_body: 0,
                usage: "nothing",
                forms: [[]],
                lower: [Flush],
                ops: [
                    Flush = 0x3a, "FLUSH",      None, Heavy, PLAIN, &[], "host.flush()", {canvas.flush()?};
                ]
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
                lower: [Screenshot],
                ops: [
                    Screenshot = 0x3b, "SCREENSHOT", K, Heavy, PLAIN, &[Str], "host.screenshot(S[K])", {canvas.screenshot(str 0)?};
                ]
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
                lower: [(ScreendumpFile if file else Screendump)],
                ops: [
                    Screendump     = 0x3c, "SCREENDUMP", None, Heavy, PLAIN, &[], "host.screendump(default descriptor)", {canvas.screendump(descriptor)?};
                    ScreendumpFile = 0x3d, "SCREENDUMPF", K, Heavy, PLAIN, &[Str], "host.screendump(file S[K])", {canvas.screendump(file 0)?};
                ]
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
                lower: [Sleep],
                ops: [
                    Sleep = 0x3e, "SLEEP",      K, Heavy, PLAIN, &[Num], "host.sleep(K) (may suspend)", {return canvas.sleep(num 0)?};
                ]
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
                lower: [FlushDelay],
                ops: [
                    FlushDelay = 0x3f, "FLUSHDELAY", K, Heavy, PLAIN, &[Num], "host.flush_delay(K) (may suspend)", {return canvas.flush_delay(num 0)?};
                ]
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
                lower: [Aspect],
                ops: [
                    Aspect = 0x40, "ASPECT",     K, Free, PLAIN, &[Bool], "host.aspect(K)", {canvas.aspect(flag 0)};
                ]
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
                lower: [Bg],
                ops: [
                    Bg = 0x41, "BG",         K, Free, PLAIN, N3, "host.background(r, g, b)", {canvas.background(rgb 0)};
                ]
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
                lower: [Rotate],
                ops: [
                    Rotate = 0x42, "ROTATE",     K, Free, PLAIN, &[Num], "M := M * rotation(K degrees)", {machine};
                ]
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
                lower: [Scale],
                ops: [
                    Scale = 0x43, "SCALE",      K, Free, PLAIN, N2, "M := M * scaling(x, y)", {machine};
                ]
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
                lower: [Shift],
                ops: [
                    Shift = 0x44, "SHIFT",      K, Free, PLAIN, N2, "M := M * translation(x, y)", {machine};
                ]
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
                lower: [Viewport, Viewport, ViewportMacro],
                ops: [
                    Viewport      = 0x45, "VIEWPORT",   K, Free, PLAIN, N4, "M := M * map(l b r t -> -1 -1 1 1)", {machine};
                    ViewportMacro = 0x46, "VIEWPORTM", K, Measured, PLAIN, &[Str, Bool], "M := M * map(bbox(macro S[K]) -> -1 -1 1 1), keeping aspect if K+1", {machine};
                ]
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
                lower: [Mult],
                ops: [
                    Mult = 0x47, "MULT",       K, Free, PLAIN, &[Num, Num, Num, Num, Num, Num, Num, Num, Num], "M := M * K[0..9] (row-major)", {machine};
                ]
            }
            Push "push" {
                cmds: [
                    /// `push`
                    Push(0) {}
                ],
                macro_body: 16,
                usage: "nothing",
                forms: [[]],
                lower: [Push],
                ops: [
                    Push = 0x48, "PUSH",       None, Free, PLAIN, &[], "push a copy of M", {machine};
                ]
            }
            Pop "pop" {
                cmds: [
                    /// `pop`
                    Pop(0) {}
                ],
                macro_body: 17,
                usage: "nothing",
                forms: [[]],
                lower: [Pop],
                ops: [
                    Pop = 0x49, "POP",        None, Free, PLAIN, &[], "pop M (error if only the root is left)", {machine};
                ]
            }
            Ident "ident" {
                cmds: [
                    /// `ident`
                    Ident(0) {}
                ],
                macro_body: 23,
                usage: "nothing",
                forms: [[]],
                lower: [Ident],
                ops: [
                    Ident = 0x4a, "IDENT",      None, Free, PLAIN, &[], "M := identity", {machine};
                ]
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
                lower: [Clip, Clip],
                ops: [
                    Clip = 0x4b, "CLIP",       K, Free, PLAIN, N4, "host.clip(bbox(M * corners(l b r t)))", {machine};
                ]
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
                lower: [Color],
                ops: [
                    Color = 0x4c, "COLOR",      K, Free, PLAIN, N3, "pen.rgb := (r, g, b)", {machine};
                ]
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
                lower: [Alpha],
                ops: [
                    Alpha = 0x4d, "ALPHA",      K, Free, PLAIN, &[Num], "pen.alpha := K", {machine};
                ]
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
                lower: [Thick],
                ops: [
                    Thick = 0x4e, "THICK",      K, Free, PLAIN, &[Num], "pen.thick := K pixels", {machine};
                ]
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
                lower: [Dash],
                ops: [
                    Dash = 0x4f, "DASH",       K, Free, PLAIN, &[Max(MAX_DASH)], "pen.dash := K (16-bit pattern)", {machine};
                ]
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
                lower: [Dot],
                ops: [
                    Dot = 0x50, "DOT",        K, Free, PLAIN, N2, "host.dot(M * p)", {canvas.dot(pen, pt 0)};
                ]
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
                lower: [Line],
                ops: [
                    Line = 0x51, "LINE",       K, Free, PLAIN, N4, "host.stroke(M * [p0, p1])", {machine};
                ]
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
                lower: [Arrow],
                ops: [
                    Arrow = 0x52, "ARROW",      K, Free, PLAIN, N4, "host.arrow(M * p0, M * p1)", {canvas.arrow(pen, pt 0, pt 2)};
                ]
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
                lower: [Rect, Rect],
                ops: [
                    Rect = 0x53, "RECT",       K, Free, PLAIN, N4, "host.stroke(M * corners(x1 y1 x2 y2), closed)", {machine};
                ]
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
                lower: [FillRect, FillRect],
                ops: [
                    FillRect = 0x54, "FILLRECT",   K, Free, PLAIN, N4, "host.fill(M * corners(x1 y1 x2 y2), convex)", {machine};
                ]
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
                lower: [Text],
                ops: [
                    Text = 0x55, "TEXT",       K, Text(4), PLAIN, &[ALIGN, ALIGN, Num, Num, Str], "host.text(h, v, M * p, S)", {canvas.text(pen, pt 2, halign 0, valign 1, str 4)};
                ]
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
                lower: [Blit],
                ops: [
                    Blit = 0x56, "BLIT",       K, Free, PLAIN, &[ALIGN, ALIGN, Num, Num, Str], "host.blit(h, v, M * p, image S)", {canvas.blit(pen, pt 2, halign 0, valign 1, str 4)?};
                ]
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
                lower: [(Lines with points)],
                ops: [
                    Lines = 0x57, "LINES",      K, Free, PLAIN, &[Points], "host.stroke(M * points, open)", {canvas.stroke(pen, pts 0, open)};
                ]
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
                lower: [(Poly with points)],
                ops: [
                    Poly = 0x58, "POLY",       K, Free, PLAIN, &[Points], "host.fill(M * points, any polygon)", {canvas.fill(pen, pts 0, open)};
                ]
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
                lower: [Circle],
                ops: [
                    Circle = 0x59, "CIRCLE",     K, Count(3), PLAIN, &[Num, Num, Num, Max(MAX_CIRCLE_VERTICES)], "host.stroke(M * circle(x y r, n vertices), closed)", {machine};
                ]
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
                lower: [FillCircle],
                ops: [
                    FillCircle = 0x5a, "FILLCIRCLE", K, Count(3), PLAIN, &[Num, Num, Num, Max(MAX_CIRCLE_VERTICES)], "host.fill(M * circle(x y r, n vertices), convex)", {machine};
                ]
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
                lower: [Image, ImageNew],
                ops: [
                    Image    = 0x5b, "IMAGE",      K, Heavy, PLAIN, &[Str, Str], "host.load_image(name, path)", {machine};
                    ImageNew = 0x5c, "IMAGENEW",   K, Pixels(0, 1), PLAIN, &[Max(MAX_IMAGE), Max(MAX_IMAGE), Str], "host.create_image(name, w, h, background)", {machine};
                ]
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
                lower: [Colormap],
                ops: [
                    Colormap = 0x5d, "COLORMAP",   K, Free, PLAIN, &[CHAR, Num, Num, Num], "colormap[char K] := (r, g, b)", {machine};
                ]
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
                lower: [ImageSet],
                ops: [
                    ImageSet = 0x5e, "IMAGESET",   K, Bytes(3), PLAIN, &[Str, Max(MAX_IMAGE), Max(MAX_IMAGE), Str], "host.set_pixels(image, x, y, colormap(S))", {machine};
                ]
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
                lower: [(ImgPoly with points), (ImgPoly with points), (ImgPoly with points), (ImgPoly with points)],
                ops: [
                    ImgPoly = 0x5f, "IMGPOLY",    K, Free, PLAIN, &[Num, Num, Num, Num, Num, Num, Str, Points], "host.image_polygon(image, M*anchor, M*u, M*v, M * points)", {machine};
                ]
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
                lower: [(Area with points)],
                ops: [
                    Area = 0x60, "AREA",       K, Free, PLAIN, &[Str, Points], "host.area(name, M * points)", {machine};
                ]
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
                lower: [DelArea],
                ops: [
                    DelArea = 0x61, "DELAREA",    K, Free, PLAIN, &[Str], "host.delete_area(name)", {machine};
                ]
            }
            Killareas "killareas" {
                cmds: [
                    /// `killareas`
                    Killareas(0) {}
                ],
                macro_body: 0,
                usage: "nothing",
                forms: [[]],
                lower: [KillAreas],
                ops: [
                    KillAreas = 0x62, "KILLAREAS",  None, Free, PLAIN, &[], "host.kill_areas()", {machine};
                ]
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
                lower: [()],
                ops: []
            }
            Endmacro "endmacro" {
                cmds: [
                    /// `endmacro`
                    Endmacro(0) {}
                ],
                macro_body: 0,
                usage: "nothing",
                forms: [[]],
                lower: [()],
                ops: []
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
                lower: [CallN, (Push, Shift, CallN, Pop)],
                ops: []
            }
            Forget "forget" {
                cmds: [
                    /// `forget`
                    Forget(0) {}
                ],
                macro_body: 0,
                usage: "nothing",
                forms: [[]],
                lower: [Forget],
                ops: []
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
                lower: [DefCursor],
                ops: [
                    DefCursor = 0x63, "DEFCURSOR",  K, Free, PLAIN, &[Str, Str, Str, Max(MAX_CURSOR_HOT), Max(MAX_CURSOR_HOT)], "host.define_cursor(name, data, mask, col, row)", {machine};
                ]
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
                lower: [SetCursor],
                ops: [
                    SetCursor = 0x64, "SETCURSOR",  K, Free, PLAIN, &[Str], "host.set_cursor(name)", {canvas.set_cursor(str 0)?};
                ]
            }
            $($($extra)*)?
        }
    };
}
