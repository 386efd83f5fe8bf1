//! The programs the Animator properties run: a structured description
//! ([`Program`]: top-level commands, macro definitions, `forget`) over small
//! pools of names, colours, texts and numbers, its proptest strategies, and
//! the tree it prints (see the parent module's documentation).

use super::*;

// ----- building the tree --------------------------------------------------

pub(super) fn n(value: f64) -> Num {
    Num { value, span: Span::default() }
}

pub(super) fn int(value: i64) -> Int {
    Int::new(value, Span::default())
}

pub(super) fn s(text: &str) -> Str {
    Str { text: text.to_string(), span: Span::default() }
}

pub(super) fn pt((x, y): (f64, f64)) -> Point {
    Point { x: n(x), y: n(y) }
}

pub(super) fn command(kind: Cmd) -> Command {
    Command { kind, span: Span::default(), pos: Pos::START }
}

// ----- pools ---------------------------------------------------------------

pub(super) const IMAGES: [&str; 4] = ["img", "tex", "7", "two words"];
/// Macro `i` may invoke or measure macros `0..i` only.
pub(super) const MACROS: [&str; 4] = ["m", "push", "3", "big one"];
pub(super) const AREAS: [&str; 3] = ["b1", "on", "left"];
pub(super) const CURSORS: [&str; 2] = ["hand", "x y"];
pub(super) const TEXTS: [&str; 14] = [
    "hi",
    "two words",
    "frame",
    "25.000000",
    "-",
    ".",
    "",
    "a!b",
    "q\"uote",
    "back\\slash",
    "tab\tnew\nline",
    "é ü",
    "left",
    "#fff",
];
pub(super) const FILES: [&str; 4] = ["shot.png", "out dir/x.png", "/dev/stdout", "-x"];
pub(super) const DUMPS: [&str; 2] = ["dump.raw", "./-"];
pub(super) const PATHS: [&str; 2] = ["a.png", "art/pic 1.png"];
pub(super) const COLOR_NAMES: [&str; 7] =
    ["red", "darkgreen", "LightGrey", "dark green", "rebeccapurple", "navyblue", "gray50"];
pub(super) const HEX: [&str; 5] = ["#ff8000", "#f80", "#80", "#8", "#FFF"];
pub(super) const CHARS: [char; 10] = ['x', '.', '!', '"', ' ', '1', '-', 'é', '\'', '\\'];

// ----- numbers -------------------------------------------------------------

/// `x` as C's `%f` prints it, read back.
pub(super) fn printf(x: f64) -> f64 {
    parse_number(format!("{x:.6}").as_bytes())
}

/// Coordinates: small decimals mostly, `%f` values, integers, large
/// coordinates (`100300.000000`), signed zeros, extreme magnitudes and the
/// odd arbitrary finite double.
pub(super) fn coord() -> BoxedStrategy<f64> {
    Union::new_weighted(vec![
        (6, (-4000i32..4000).prop_map(|k| f64::from(k) / 1000.0).boxed()),
        (3, (-1000.0f64..1000.0).prop_map(printf).boxed()),
        (2, (-100i32..100).prop_map(f64::from).boxed()),
        (1, (100_000i64..10_000_000).prop_map(|k| k as f64).boxed()),
        (1, select(vec![0.0, -0.0]).boxed()),
        (1, (-1.0f64..1.0, -20i32..20).prop_map(|(m, e)| m * 10f64.powi(e)).boxed()),
        (1, any::<f64>().prop_filter("finite", |v| v.is_finite()).boxed()),
    ])
    .boxed()
}

pub(super) fn nonzero() -> BoxedStrategy<f64> {
    coord().prop_filter("not zero", |v| *v != 0.0).boxed()
}

pub(super) fn angle() -> BoxedStrategy<f64> {
    Union::new_weighted(vec![
        (3, (-360i32..360).prop_map(f64::from).boxed()),
        (2, (-720.0f64..720.0).prop_map(printf).boxed()),
        (1, coord()),
    ])
    .boxed()
}

/// Colour components and alpha: 0..1 mostly, sometimes outside.
pub(super) fn unit() -> BoxedStrategy<f64> {
    Union::new_weighted(vec![
        (4, (0u32..=1000).prop_map(|k| f64::from(k) / 1000.0).boxed()),
        (2, (0.0f64..1.0).prop_map(printf).boxed()),
        (1, (-2.0f64..2.0).boxed()),
    ])
    .boxed()
}

pub(super) fn point() -> BoxedStrategy<Point> {
    (coord(), coord()).prop_map(pt).boxed()
}

pub(super) fn points(min: usize, max: usize) -> BoxedStrategy<Vec<Point>> {
    proptest::collection::vec(point(), min..=max).boxed()
}

pub(super) fn name(pool: &'static [&'static str]) -> BoxedStrategy<Str> {
    select(pool).prop_map(s).boxed()
}

pub(super) fn color() -> BoxedStrategy<Color> {
    Union::new_weighted(vec![
        (3, select(&COLOR_NAMES[..]).prop_map(|c| Color::Name(s(c))).boxed()),
        (3, select(&HEX[..]).prop_map(|c| Color::Hex(s(c))).boxed()),
        (2, (unit(), unit(), unit()).prop_map(|(r, g, b)| Color::Rgb(n(r), n(g), n(b))).boxed()),
        (2, unit().prop_map(|g| Color::Gray(n(g))).boxed()),
    ])
    .boxed()
}

pub(super) fn align() -> BoxedStrategy<Option<Align>> {
    proptest::option::of(
        (
            select(vec![HAlign::Left, HAlign::Center, HAlign::Right]),
            select(vec![VAlign::Bottom, VAlign::Center, VAlign::Top]),
        )
            .prop_map(|(h, v)| Align { h, v, span: Span::default() }),
    )
    .boxed()
}

pub(super) fn mult() -> BoxedStrategy<Cmd> {
    let small = || {
        Union::new_weighted(vec![
            (3, (-2i32..=2).prop_map(f64::from).boxed()),
            (1, (-20i32..20).prop_map(|k| f64::from(k) / 8.0).boxed()),
        ])
    };
    (proptest::collection::vec(small(), 9), proptest::bool::weighted(0.2))
        .prop_map(|(mut k, projective)| {
            if !projective {
                k[6] = 0.0;
                k[7] = 0.0;
                k[8] = 1.0;
            }
            Cmd::Mult { matrix: std::array::from_fn(|i| n(k[i])) }
        })
        .boxed()
}

// ----- commands ----------------------------------------------------------

/// The commands a macro body may hold (`animator.md`'s list), for the body
/// of macro `refs` (which may invoke or measure macros `0..refs`).
pub(super) fn drawing(refs: usize) -> BoxedStrategy<Cmd> {
    let rect = || (point(), coord(), coord());
    let corners = || (coord(), coord(), nonzero(), nonzero());
    let mut v: Vec<(u32, BoxedStrategy<Cmd>)> = vec![
        (3, color().prop_map(|color| Cmd::Color { color }).boxed()),
        (1, unit().prop_map(|a| Cmd::Alpha { alpha: n(a) }).boxed()),
        (1, (0i64..=20).prop_map(|t| Cmd::Thick { pixels: int(t) }).boxed()),
        (1, (0i64..=0xffff).prop_map(|d| Cmd::Dash { pattern: int(d) }).boxed()),
        (2, point().prop_map(|at| Cmd::Dot { at }).boxed()),
        (2, (point(), point()).prop_map(|(from, to)| Cmd::Line { from, to }).boxed()),
        (1, (point(), point()).prop_map(|(from, to)| Cmd::Arrow { from, to }).boxed()),
        (2, rect().prop_map(|(corner, w, h)| Cmd::Rect { corner, width: n(w), height: n(h) }).boxed()),
        (1, (point(), point()).prop_map(|(from, to)| Cmd::RectCorners { from, to }).boxed()),
        (1, rect().prop_map(|(corner, w, h)| Cmd::FillRect { corner, width: n(w), height: n(h) }).boxed()),
        (1, (point(), point()).prop_map(|(from, to)| Cmd::FillRectCorners { from, to }).boxed()),
        (2, (align(), point(), name(&TEXTS)).prop_map(|(align, at, text)| Cmd::Text { align, at, text }).boxed()),
        (2, (align(), point(), name(&IMAGES)).prop_map(|(align, at, image)| Cmd::Blit { align, at, image }).boxed()),
        (2, points(2, 5).prop_map(|points| Cmd::Lines { points }).boxed()),
        (1, points(3, 5).prop_map(|points| Cmd::Poly { points }).boxed()),
        (
            1,
            (point(), coord(), 0i64..=40)
                .prop_map(|(c, r, k)| Cmd::Circle { center: c, radius: n(r), vertices: int(k) })
                .boxed(),
        ),
        (
            1,
            (point(), coord(), 0i64..=40)
                .prop_map(|(c, r, k)| Cmd::FillCircle { center: c, radius: n(r), vertices: int(k) })
                .boxed(),
        ),
        (2, Just(Cmd::Push).boxed()),
        (2, Just(Cmd::Pop).boxed()),
        (1, mult()),
        (2, angle().prop_map(|a| Cmd::Rotate { degrees: n(a) }).boxed()),
        (1, (coord(), proptest::option::of(coord())).prop_map(|(x, y)| Cmd::Scale { x: n(x), y: y.map(n) }).boxed()),
        (2, (coord(), coord()).prop_map(|(x, y)| Cmd::Shift { x: n(x), y: n(y) }).boxed()),
        (
            1,
            corners()
                .prop_map(|(l, b, w, h)| Cmd::Viewport { left: n(l), bottom: n(b), width: n(w), height: n(h) })
                .boxed(),
        ),
        (
            1,
            corners()
                .prop_map(|(l, b, w, h)| Cmd::ViewportCorners {
                    left: n(l),
                    bottom: n(b),
                    right: n(l + w),
                    top: n(b + h),
                })
                .boxed(),
        ),
        (1, Just(Cmd::Ident).boxed()),
        (1, (name(&AREAS), points(3, 5)).prop_map(|(name, points)| Cmd::Area { name, points }).boxed()),
        (1, name(&AREAS).prop_map(|name| Cmd::Delarea { name }).boxed()),
        (
            1,
            (coord(), coord(), coord(), coord())
                .prop_map(|(l, b, w, h)| Cmd::Clip { left: n(l), bottom: n(b), width: n(w), height: n(h) })
                .boxed(),
        ),
        (
            1,
            (coord(), coord(), coord(), coord())
                .prop_map(|(l, b, r, t)| Cmd::ClipCorners { left: n(l), bottom: n(b), right: n(r), top: n(t) })
                .boxed(),
        ),
    ];
    if refs > 0 {
        let macro_name = move || (0..refs).prop_map(|j| s(MACROS[j]));
        v.push((3, macro_name().prop_map(|name| Cmd::Invoke { name }).boxed()));
        v.push((2, (point(), macro_name()).prop_map(|(at, name)| Cmd::InvokeAt { at, name }).boxed()));
        v.push((
            2,
            (macro_name(), any::<bool>())
                .prop_map(|(name, keep_aspect)| Cmd::ViewportMacro { name, keep_aspect })
                .boxed(),
        ));
    }
    Union::new_weighted(v).boxed()
}

/// Any command outside a macro definition.
pub(super) fn top() -> BoxedStrategy<Cmd> {
    let imgpoly = || (name(&IMAGES), points(3, 5));
    let pixels = proptest::collection::vec(select(&CHARS[..]), 0..6).prop_map(|cs| s(&String::from_iter(cs)));
    let bits = || any::<u64>().prop_map(|x| s(&format!("{x:016x}").repeat(16)));
    Union::new_weighted(vec![
        (40, drawing(MACROS.len())),
        (1, Just(Cmd::Quit).boxed()),
        (1, any::<bool>().prop_map(|on| Cmd::Keepalive { on }).boxed()),
        (1, any::<bool>().prop_map(|on| Cmd::Events { on }).boxed()),
        (1, (1i64..2000, 1i64..2000).prop_map(|(w, h)| Cmd::Resize { width: int(w), height: int(h) }).boxed()),
        (1, point().prop_map(|at| Cmd::Warp { at }).boxed()),
        (1, name(&AREAS).prop_map(|area| Cmd::WarpArea { area }).boxed()),
        (1, name(&TEXTS).prop_map(|text| Cmd::Echo { text }).boxed()),
        (1, (name(&TEXTS), points(0, 3)).prop_map(|(text, points)| Cmd::Echopt { text, points }).boxed()),
        (1, name(&TEXTS).prop_map(|text| Cmd::Title { text }).boxed()),
        (3, Just(Cmd::Frame).boxed()),
        (2, Just(Cmd::Flush).boxed()),
        (1, name(&FILES).prop_map(|file| Cmd::Screenshot { file }).boxed()),
        (1, proptest::option::of(name(&DUMPS)).prop_map(|file| Cmd::Screendump { file }).boxed()),
        (1, unit().prop_map(|t| Cmd::Sleep { seconds: n(t) }).boxed()),
        (1, unit().prop_map(|t| Cmd::Flushdelay { seconds: n(t) }).boxed()),
        (1, any::<bool>().prop_map(|on| Cmd::Aspect { on }).boxed()),
        (1, color().prop_map(|color| Cmd::Bg { color }).boxed()),
        (1, (name(&IMAGES), name(&PATHS)).prop_map(|(name, path)| Cmd::ImageLoad { name, path }).boxed()),
        (
            1,
            (1i64..=64, 1i64..=64, name(&IMAGES))
                .prop_map(|(w, h, name)| Cmd::ImageNew { width: int(w), height: int(h), name })
                .boxed(),
        ),
        (
            2,
            (select(&CHARS[..]), color())
                .prop_map(|(c, color)| Cmd::Colormap { ch: Char { value: c, span: Span::default() }, color })
                .boxed(),
        ),
        (
            2,
            (name(&IMAGES), 0i64..8, 0i64..8, pixels)
                .prop_map(|(image, x, y, pixels)| Cmd::ImageSet { image, x: int(x), y: int(y), pixels })
                .boxed(),
        ),
        (
            1,
            (point(), point(), point(), imgpoly())
                .prop_map(|(anchor, u, v, (image, points))| Cmd::ImgPoly { anchor, u, v, image, points })
                .boxed(),
        ),
        (
            1,
            (point(), point(), imgpoly())
                .prop_map(|(u, v, (image, points))| Cmd::ImgPolyEdges { u, v, image, points })
                .boxed(),
        ),
        (
            1,
            (coord(), coord(), imgpoly())
                .prop_map(|(ux, vy, (image, points))| Cmd::ImgPolyAxes { ux: n(ux), vy: n(vy), image, points })
                .boxed(),
        ),
        (1, imgpoly().prop_map(|(image, points)| Cmd::ImgPolyUnit { image, points }).boxed()),
        (1, Just(Cmd::Killareas).boxed()),
        (
            1,
            (name(&CURSORS), bits(), bits(), 0i64..32, 0i64..32)
                .prop_map(|(name, data, mask, c, r)| Cmd::Defcursor {
                    name,
                    data,
                    mask,
                    hot_col: int(c),
                    hot_row: int(r),
                })
                .boxed(),
        ),
        (1, name(&CURSORS).prop_map(|name| Cmd::Setcursor { name }).boxed()),
    ])
    .boxed()
}

/// One element of a program.
#[derive(Clone, Debug)]
pub(super) enum Item {
    Top(Cmd),
    /// `macro [push] MACROS[index]`, the body, `endmacro`.
    Define {
        index: usize,
        push: bool,
        body: Vec<Cmd>,
    },
    Forget,
}

pub(super) fn define(index: usize, push: bool, body: Vec<Cmd>) -> Item {
    // An empty body is only allowed as `macro push NAME` + `endmacro`.
    Item::Define { index, push: push || body.is_empty(), body }
}

/// Most macros defined first, in order, so that most uses find them.
pub(super) fn prelude() -> BoxedStrategy<Vec<Item>> {
    (0..MACROS.len())
        .map(|i| proptest::option::weighted(0.85, proptest::collection::vec(drawing(i), 1..5)))
        .collect::<Vec<_>>()
        .prop_map(|bodies| {
            bodies.into_iter().enumerate().filter_map(|(i, body)| Some(define(i, false, body?))).collect()
        })
        .boxed()
}

pub(super) fn item() -> BoxedStrategy<Item> {
    let define = (0..MACROS.len())
        .prop_flat_map(|i| (Just(i), any::<bool>(), proptest::collection::vec(drawing(i), 0..5)))
        .prop_map(|(index, push, body)| define(index, push, body));
    // Uses of macros at the top level (any macro, defined or not).
    let macro_name = || (0..MACROS.len()).prop_map(|j| s(MACROS[j]));
    let uses = Union::new_weighted(vec![
        (3, macro_name().prop_map(|name| Cmd::Invoke { name }).boxed()),
        (2, (point(), macro_name()).prop_map(|(at, name)| Cmd::InvokeAt { at, name }).boxed()),
        (
            1,
            (macro_name(), any::<bool>())
                .prop_map(|(name, keep_aspect)| Cmd::ViewportMacro { name, keep_aspect })
                .boxed(),
        ),
    ]);
    Union::new_weighted(vec![
        (20, top().prop_map(Item::Top).boxed()),
        (4, define.boxed()),
        (8, uses.prop_map(Item::Top).boxed()),
        (1, Just(Item::Forget).boxed()),
    ])
    .boxed()
}

/// A generated program; its `Debug` is its text, so that proptest shows
/// counterexamples as programs.
#[derive(Clone)]
pub(super) struct Program {
    pub(super) items: Vec<Item>,
    pub(super) numbers: Numbers,
}

/// The image a command draws with or writes to, if any.
pub(super) fn image_used(c: &Cmd) -> Option<&str> {
    match c {
        Cmd::Blit { image, .. }
        | Cmd::ImageSet { image, .. }
        | Cmd::ImgPoly { image, .. }
        | Cmd::ImgPolyEdges { image, .. }
        | Cmd::ImgPolyAxes { image, .. }
        | Cmd::ImgPolyUnit { image, .. } => Some(&image.text),
        _ => None,
    }
}

impl Program {
    /// The commands, with `image 2 2 NAME` inserted before the first item
    /// that uses an image no command has created yet, and likewise a
    /// `defcursor` before the first `setcursor` of a cursor; `warp area
    /// NAME` is preceded by the area's definition (fixed cases test the
    /// failures).
    pub(super) fn commands(&self) -> Vec<Command> {
        let mut out = Vec::new();
        let mut images: HashSet<String> = HashSet::new();
        let mut cursors: HashSet<String> = HashSet::new();
        for item in &self.items {
            let cmds: Vec<Cmd> = match item {
                Item::Top(c) => vec![c.clone()],
                Item::Define { index, push, body } => {
                    let mut v = vec![Cmd::Macro { name: s(MACROS[*index]), push: *push }];
                    v.extend(body.iter().cloned());
                    v.push(Cmd::Endmacro);
                    v
                }
                Item::Forget => vec![Cmd::Forget],
            };
            for c in &cmds {
                if let Some(image) = image_used(c) {
                    if images.insert(image.to_string()) {
                        out.push(command(Cmd::ImageNew { width: int(2), height: int(2), name: s(image) }));
                    }
                }
                match c {
                    Cmd::ImageNew { name, .. } | Cmd::ImageLoad { name, .. } => {
                        images.insert(name.text.clone());
                    }
                    Cmd::Defcursor { name, .. } => {
                        cursors.insert(name.text.clone());
                    }
                    Cmd::Setcursor { name } if cursors.insert(name.text.clone()) => {
                        let (data, mask) = (s(&"0f".repeat(128)), s(&"ff".repeat(128)));
                        let (hot_col, hot_row) = (int(0), int(0));
                        out.push(command(Cmd::Defcursor { name: name.clone(), data, mask, hot_col, hot_row }));
                    }
                    Cmd::WarpArea { area } => {
                        let points = vec![pt((0.0, 0.0)), pt((1.0, 0.0)), pt((0.0, 1.0))];
                        out.push(command(Cmd::Area { name: area.clone(), points }));
                    }
                    _ => {}
                }
            }
            out.extend(cmds.into_iter().map(command));
        }
        out
    }

    pub(super) fn text(&self) -> String {
        format_with(&self.commands(), None, self.numbers)
    }
}

impl fmt::Debug for Program {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "\n{}", self.text())
    }
}

pub(super) fn compiles(text: &str) -> bool {
    compile(&[Source::new("p.draw", text)], &Options::default()).is_ok()
}

pub(super) fn program() -> impl Strategy<Value = Program> {
    (
        prelude(),
        proptest::collection::vec(item(), 0..30),
        select(vec![Numbers::Shortest, Numbers::Shortest, Numbers::Printf]),
    )
        .prop_map(|(mut items, more, numbers)| {
            items.extend(more);
            Program { items, numbers }
        })
        // A safety net: the generators aim at programs the compiler takes.
        // It is also what keeps the round-trip properties honest where a
        // generator can overstep: `viewport` corners are `l + w` of two
        // random finite coordinates, which can overflow to infinity (the
        // formatter then writes `inf`, which the reader refuses).
        .prop_filter("rejected by the compiler", |p| compiles(&p.text()))
}
