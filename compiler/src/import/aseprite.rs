//! Aseprite's JSON sprite-sheet export turned into Sprite DSL source: one
//! state per tag, so that the result compiles to the behaviour Aseprite
//! plays. The mapping table, the rounding and what cannot be expressed are
//! in `docs/aseprite.md`; each loss is reported per tag as a warning.
//!
//! ```
//! use animkit_compiler::import::aseprite::{convert, AsepriteOptions};
//! let json = r#"{"frames": [
//!     {"filename": "hero 0", "frame": {"x": 0, "y": 0, "w": 16, "h": 16}, "duration": 100},
//!     {"filename": "hero 1", "frame": {"x": 16, "y": 0, "w": 16, "h": 16}, "duration": 100}],
//!   "meta": {"image": "hero.png", "frameTags": [
//!     {"name": "Walk", "from": 0, "to": 1, "direction": "pingpong", "data": "step"}]}}"#;
//! let out = convert("hero.json", json, &AsepriteOptions::default()).unwrap();
//! assert_eq!(out.text, "# Converted from hero.json (Aseprite export, 20 ms per tick).\nWalk[hero]: 5|0|step, 5|1, _pingpong\n");
//! assert!(out.warnings.is_empty());
//! assert_eq!(out.sheet.image, "hero.png");
//! ```

use super::aseprite_ranges::{Placed, Written, place};
use crate::diagnostic::{Diagnostic, Severity};
use animkit_grammar::Span;
use serde::Deserialize;
use serde::de::{Deserializer, MapAccess, SeqAccess, Visitor};
use std::collections::{HashMap, HashSet};
use std::fmt;

/// The most frames one converted state may show (a tag's frames times its
/// repeats).
const MAX_TAG_FRAMES: usize = 100_000;

/// The most frames the tags of one export may make (defined beside the
/// placing of tags' ranges, which stops looking frames up past it).
pub use super::aseprite_ranges::MAX_TOTAL_FRAMES;

/// The most warnings [`Converted::render_warnings`] prints; the rest are
/// counted on its closing line.
pub const MAX_SHOWN_WARNINGS: usize = 100;

/// State names handed out so far: a taken name gets the first free suffix
/// `_2`, `_3`, ... of its own, found in time linear in all the names (each
/// base remembers where its count stopped).
#[derive(Default)]
struct UniqueNames {
    taken: HashSet<String>,
    next: HashMap<String, u64>,
}

impl UniqueNames {
    fn unique(&mut self, base: String) -> String {
        if self.taken.insert(base.clone()) {
            return base;
        }
        let k = self.next.entry(base.clone()).or_insert(2);
        loop {
            let name = format!("{base}_{k}");
            *k += 1;
            if self.taken.insert(name.clone()) {
                return name;
            }
        }
    }
}

/// How the export is converted.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct AsepriteOptions {
    /// Milliseconds per tick (`animc --tick-ms`, default 20: 50 ticks per
    /// second).
    pub tick_ms: u32,
}

impl Default for AsepriteOptions {
    fn default() -> AsepriteOptions {
        AsepriteOptions { tick_ms: 20 }
    }
}

/// A frame's rectangle in the sheet image, in pixels.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Deserialize)]
pub struct Rect {
    /// Left edge.
    pub x: u32,
    /// Top edge.
    pub y: u32,
    /// Width.
    pub w: u32,
    /// Height.
    pub h: u32,
}

/// What a viewer needs to draw the converted states: the image and where
/// each Aseprite frame (the sprite index) is in it.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Sheet {
    /// `meta.image`, as written (relative to the export's folder).
    pub image: String,
    /// The category every converted state draws from (the image's stem).
    pub category: String,
    /// Frame `i`'s rectangle.
    pub frames: Vec<Rect>,
}

/// The converted source, its warnings (spans into the JSON text) and the
/// sheet.
#[derive(Clone, Debug)]
pub struct Converted {
    /// Sprite DSL source.
    pub text: String,
    /// One warning per loss, per tag: the first [`MAX_SHOWN_WARNINGS`]
    /// (held; the others only counted in `more_warnings`).
    pub warnings: Vec<Diagnostic>,
    /// How many warnings there were past those in `warnings`.
    pub more_warnings: usize,
    /// The sheet the frames come from.
    pub sheet: Sheet,
}

impl Converted {
    /// The warnings as `animc` prints them (`path` and `json` are the
    /// export's), then one closing line with their count; empty when there
    /// are none. At most [`MAX_SHOWN_WARNINGS`] are shown: past them the
    /// closing line says how many were left out.
    pub fn render_warnings(&self, path: &str, json: &str) -> String {
        let shown = self.warnings.len();
        let n = shown + self.more_warnings;
        if n == 0 {
            return String::new();
        }
        let mut out = crate::diagnostic::render(path, json, &self.warnings);
        let s = if n == 1 { "" } else { "s" };
        if self.more_warnings > 0 {
            out.push_str(&format!(
                "warning: {n} warnings emitted, the first {shown} shown ({} more not shown)\n",
                self.more_warnings
            ));
        } else {
            out.push_str(&format!("warning: {n} warning{s} emitted\n"));
        }
        out
    }
}

#[derive(Deserialize)]
struct Export {
    frames: Frames,
    meta: Meta,
}

#[derive(Deserialize)]
struct Meta {
    #[serde(default)]
    image: String,
    #[serde(default, rename = "frameTags")]
    frame_tags: Vec<Tag>,
}

#[derive(Deserialize)]
struct Frame {
    /// The frame's name: `filename` in the array form, the key in the map.
    #[serde(default)]
    filename: String,
    frame: Rect,
    duration: u32,
    #[serde(default)]
    rotated: bool,
    #[serde(default)]
    trimmed: bool,
}

#[derive(Deserialize)]
struct Tag {
    name: String,
    from: usize,
    to: usize,
    #[serde(default = "forward")]
    direction: String,
    #[serde(default)]
    repeat: Option<Repeat>,
    #[serde(default)]
    data: Option<String>,
}

fn forward() -> String {
    "forward".into()
}

/// `repeat`: Aseprite writes it as a string ("3"); a number is taken too.
#[derive(Deserialize)]
#[serde(untagged)]
enum Repeat {
    Text(String),
    Number(u64),
}

/// The frames, in order, from either form: an array, or a map from file
/// names to frames (whose order is the order in the file, not the names').
struct Frames(Vec<Frame>);

impl<'de> Deserialize<'de> for Frames {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Frames, D::Error> {
        struct V;
        impl<'de> Visitor<'de> for V {
            type Value = Frames;
            fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str("an array of frames or a map of frames by file name")
            }
            fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Frames, A::Error> {
                let mut v = Vec::new();
                while let Some(f) = seq.next_element()? {
                    v.push(f);
                }
                Ok(Frames(v))
            }
            fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Frames, A::Error> {
                let mut v = Vec::new();
                while let Some((name, mut f)) = map.next_entry::<String, Frame>()? {
                    f.filename = name;
                    v.push(f);
                }
                Ok(Frames(v))
            }
        }
        d.deserialize_any(V)
    }
}

/// A name usable as a DSL state or event name: ASCII letters, digits and
/// `_`, not starting with a digit or `_` (reserved).
fn identifier(raw: &str) -> String {
    let mut s: String = raw.chars().map(|c| if c.is_ascii_alphanumeric() || c == '_' { c } else { '_' }).collect();
    let s2 = s.trim_start_matches('_').to_string();
    s = if s2.is_empty() { "Tag".into() } else { s2 };
    if s.starts_with(|c: char| c.is_ascii_digit()) {
        s.insert(0, 'T');
    }
    s
}

/// Converts the export `json` (read from `path`) into Sprite DSL source. A
/// malformed export is an error naming `path:line:col` (or the tag) and
/// what was expected.
pub fn convert(path: &str, json: &str, options: &AsepriteOptions) -> Result<Converted, String> {
    let export: Export = serde_json::from_str(json).map_err(|e| {
        // The position leads the message, as in every animkit error.
        let mut what = e.to_string();
        if let Some(k) = what.rfind(" at line ") {
            what.truncate(k);
        }
        format!("{path}:{}:{}: error: not an Aseprite JSON export: {what}", e.line(), e.column())
    })?;
    let tick = options.tick_ms.max(1);
    let frames = &export.frames.0;
    if frames.is_empty() {
        return Err(format!("{path}: error: the export has no frames"));
    }
    let stem = std::path::Path::new(&export.meta.image).file_stem().and_then(|s| s.to_str()).unwrap_or("");
    let category = if stem.is_empty() { "Sheet".to_string() } else { identifier(stem) };
    let mut tags = export.meta.frame_tags;
    let tagged = !tags.is_empty();
    if tags.is_empty() {
        // No tags: the whole animation, forward, as Aseprite plays it.
        tags.push(Tag {
            name: "Animation".into(),
            from: 0,
            to: frames.len() - 1,
            direction: forward(),
            repeat: None,
            data: None,
        });
    }
    if tags.len() > animkit_vm::engine::limits::MAX_STATES {
        return Err(format!(
            "{path}: error: too many states: at most {} fit in one sprite file, and the export has {} tags (a state each)",
            animkit_vm::engine::limits::MAX_STATES,
            tags.len()
        ));
    }
    // Where each tag's frames are: the frames' names may say better than
    // `from`/`to` (aseprite_ranges).
    let placed = if tagged {
        let names: Vec<String> = frames.iter().map(|f| f.filename.clone()).collect();
        let written: Vec<Written<'_>> =
            tags.iter().map(|t| Written { name: &t.name, from: t.from, to: t.to }).collect();
        place(&names, &written).map_err(|e| format!("{path}: error: {e}"))?
    } else {
        vec![Placed { runs: vec![(0, frames.len() - 1)], warning: None }]
    };
    // First what each tag will make, counted without building it: the
    // errors of a tag in order, then the total over all tags.
    let mut plans = Vec::with_capacity(tags.len());
    let mut total: u64 = 0;
    for (tag, at) in tags.iter().zip(&placed) {
        let repeat = match &tag.repeat {
            None => 0,
            Some(Repeat::Number(n)) => *n,
            Some(Repeat::Text(t)) if t.trim().is_empty() => 0,
            Some(Repeat::Text(t)) => t
                .trim()
                .parse()
                .map_err(|_| format!("{path}: error: tag `{}`: `repeat` is `{t}`, not a count", tag.name))?,
        };
        let (reverse, pingpong) = match tag.direction.as_str() {
            "forward" => (false, false),
            "reverse" => (true, false),
            "pingpong" => (false, true),
            "pingpong_reverse" => (true, true),
            other => {
                return Err(format!(
                    "{path}: error: tag `{}`: unknown direction `{other}` (expected forward, reverse, pingpong or pingpong_reverse)",
                    tag.name
                ));
            }
        };
        let n = at.len() as u64;
        let too_many =
            || format!("{path}: error: tag `{}`: repeat {repeat} makes more than {MAX_TAG_FRAMES} frames", tag.name);
        // The frames one pass shows (see below).
        let len = match (pingpong, repeat) {
            (_, 0) => n,
            (_, r) if n.saturating_mul(r) > MAX_TAG_FRAMES as u64 + 1 => return Err(too_many()),
            (false, r) => n * r,
            (true, r) => 1 + r * (n - 1),
        };
        if len > MAX_TAG_FRAMES as u64 {
            return Err(too_many());
        }
        total += len;
        plans.push((repeat, reverse, pingpong));
    }
    if total > MAX_TOTAL_FRAMES {
        return Err(format!(
            "{path}: error: the tags make {total} frames in all (each tag's frames times its repeats; tags that \
             overlap each make their own), more than the {MAX_TOTAL_FRAMES} one export may convert to"
        ));
    }
    let mut text = format!("# Converted from {path} (Aseprite export, {tick} ms per tick).\n");
    let mut warnings = Vec::new();
    let mut more_warnings = 0;
    let mut names = UniqueNames::default();
    let spans = tag_name_spans(json);
    // Where a tag whose name was not found points (searched once).
    let tags_at = json.find("\"frameTags\"").unwrap_or(0);
    for (k, ((tag, &(repeat, reverse, pingpong)), at)) in tags.iter().zip(&plans).zip(&placed).enumerate() {
        let span = spans.get(k).copied().unwrap_or(Span::new(tags_at, tags_at));
        let mut warn = |message: String| {
            if warnings.len() < MAX_SHOWN_WARNINGS {
                let mut d = Diagnostic::error(span, message, "in this tag");
                d.severity = Severity::Warning;
                warnings.push(d);
            } else {
                more_warnings += 1;
            }
        };
        let name = names.unique(identifier(&tag.name));
        if name != tag.name {
            warn(format!("tag `{}` is named `{name}` (state names are letters, digits and `_`, and unique)", tag.name));
        }
        if let Some(w) = &at.warning {
            warn(w.clone());
        }
        let forward: Vec<usize> = at.frames().collect();
        let order = if reverse { forward.into_iter().rev().collect() } else { forward };
        // The frames one pass shows, and the end of the state (their
        // number checked above).
        let (pass, end): (Vec<usize>, &str) = match (pingpong, repeat, order.len()) {
            (false, 0, _) => (order.clone(), "_loop"),
            (true, 0, n) if n >= 2 => (order.clone(), "_pingpong"),
            (true, 0, _) => (order.clone(), "_loop"),
            (false, r, _) => (order.iter().copied().cycle().take(order.len() * r as usize).collect(), "_wait"),
            (true, r, _) => {
                // Aseprite counts each direction of a ping-pong as one
                // repeat, sharing the turning frames: 0 1 2 for r = 1,
                // 0 1 2 1 0 for r = 2, 0 1 2 1 0 1 2 for r = 3; then it
                // stays on the last frame shown.
                let mut p = vec![order[0]];
                for k in 0..r {
                    if k % 2 == 0 {
                        p.extend(order.iter().skip(1));
                    } else {
                        p.extend(order.iter().rev().skip(1));
                    }
                }
                (p, "_wait")
            }
        };
        let mut lossy = Vec::new();
        let mut seen_lossy = HashSet::new();
        let (mut rotated, mut trimmed) = (false, false);
        let mut parts = Vec::with_capacity(pass.len() + 1);
        for (k, &i) in pass.iter().enumerate() {
            let f = &frames[i];
            rotated |= f.rotated;
            trimmed |= f.trimmed;
            let ticks = ((f.duration as u64 + tick as u64 / 2) / tick as u64).max(1);
            if ticks * tick as u64 != f.duration as u64 && seen_lossy.insert(i) {
                lossy.push((i, f.duration, ticks));
            }
            let mut part = format!("{ticks}|{i}");
            if k == 0 {
                for e in events(tag.data.as_deref()) {
                    match e {
                        Ok(e) => part.push_str(&format!("|{e}")),
                        Err(bad) => {
                            warn(format!("user data `{bad}` of tag `{}` is not an event name: dropped", tag.name))
                        }
                    }
                }
            }
            parts.push(part);
        }
        for (i, ms, ticks) in lossy {
            warn(format!(
                "tag `{}`: frame {i} lasts {ms} ms, shown for {ticks} tick{} of {tick} ms ({} ms)",
                tag.name,
                if ticks == 1 { "" } else { "s" },
                ticks * tick as u64
            ));
        }
        if rotated {
            warn(format!("tag `{}` has frames packed rotated: the viewer draws them as packed", tag.name));
        }
        if trimmed {
            warn(format!(
                "tag `{}` has trimmed frames: the viewer draws each without its offset in `sourceSize`",
                tag.name
            ));
        }
        if pingpong && order.len() < 2 && repeat == 0 {
            warn(format!("tag `{}` ping-pongs over one frame: it loops", tag.name));
        }
        parts.push(end.to_string());
        text.push_str(&format!("{name}[{category}]: {}\n", parts.join(", ")));
    }
    let sheet = Sheet { image: export.meta.image.clone(), category, frames: frames.iter().map(|f| f.frame).collect() };
    Ok(Converted { text, warnings, more_warnings, sheet })
}

/// The event names in a tag's user data: words separated by spaces or
/// commas; `Err` for a word that cannot be an event name.
fn events(data: Option<&str>) -> Vec<Result<String, String>> {
    let Some(data) = data else { return Vec::new() };
    data.split(|c: char| c.is_whitespace() || c == ',')
        .filter(|w| !w.is_empty())
        .map(|w| {
            let ok = w.starts_with(|c: char| c.is_ascii_alphabetic())
                && w.chars().all(|c| c.is_ascii_alphanumeric() || c == '_');
            if ok { Ok(w.to_string()) } else { Err(w.to_string()) }
        })
        .collect()
}

/// Where each tag's name is written in the JSON text (the string value of
/// `"name"` in each object of the top-level `meta.frameTags` array), in
/// order, for the warnings' carets: one pass over the text.
fn tag_name_spans(json: &str) -> Vec<Span> {
    let b = json.as_bytes();
    // Each open container: whether it is an object, and the key it is the
    // value of; `key` is the last key read in the innermost object.
    let mut path: Vec<(bool, Option<(usize, usize)>)> = Vec::new();
    let mut key: Option<(usize, usize)> = None;
    let mut expect_key = false;
    let mut spans = Vec::new();
    let text = |r: Option<(usize, usize)>| r.map(|(s, e)| &json[s..e]);
    let mut i = 0;
    while i < b.len() {
        match b[i] {
            b'"' => {
                let start = i;
                i += 1;
                while i < b.len() && b[i] != b'"' {
                    i += if b[i] == b'\\' { 2 } else { 1 };
                }
                let end = (i + 1).min(b.len());
                if expect_key {
                    key = Some((start + 1, end.saturating_sub(1).max(start + 1)));
                } else if text(key) == Some("name")
                    && path.len() == 4
                    && path[3].0
                    && text(path[1].1) == Some("meta")
                    && text(path[2].1) == Some("frameTags")
                    && !path[2].0
                {
                    spans.push(Span::new(start, end));
                }
            }
            b'{' | b'[' => {
                let object = b[i] == b'{';
                path.push((object, key));
                key = None;
                expect_key = object;
            }
            b'}' | b']' => {
                if let Some((_, k)) = path.pop() {
                    key = k;
                }
                expect_key = false;
            }
            b':' => expect_key = false,
            b',' => expect_key = path.last().is_some_and(|p| p.0),
            _ => {}
        }
        i += 1;
    }
    spans
}
