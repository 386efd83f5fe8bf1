//! The sprite viewer: `animvm sprite.animb --sheet Category=sheet.png:COLSxROWS ... --state NAME`
//! plays a state at 50 ticks per second, drawing each frame's cell from the
//! category's sprite sheet (a grid of COLS x ROWS equal cells, numbered
//! left to right, top to bottom), scaled to fit the window. An Aseprite
//! export (`animvm hero.json`) brings its own sheet: the image its
//! `meta.image` names, sliced by each frame's `frame` rectangle
//! ([`SheetSpec::from_aseprite`]). A category without a sheet is drawn as
//! its frame index in large text, so timing can still be seen. An overlay
//! names the state, category, frame, tick and the events fired.

use super::view_error::ViewError;
use crate::render::{HAlign, ImageId, PixelRect, Renderer, VAlign};
use animkit_vm::engine::sprite::{SpriteInstance, Sprites};
use std::collections::HashMap;

/// Ticks per second of the viewer (the DSL's usual fixed update).
pub const TICKS_PER_SECOND: u32 = 50;

/// One sprite sheet for the viewer: a `--sheet Category=path:COLSxROWS`
/// option, or the sheet of an Aseprite export.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SheetSpec {
    /// The sprite category it serves.
    pub category: String,
    /// PNG path.
    pub path: String,
    /// Where frame `i` is in the image.
    pub cells: Cells,
}

/// How a sheet's image is cut into frames.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Cells {
    /// A grid of equal cells, numbered left to right, top to bottom.
    Grid {
        /// Cells per row.
        cols: u32,
        /// Rows of cells.
        rows: u32,
    },
    /// Frame `i` is rectangle `i` (x, y, width, height in pixels), as an
    /// Aseprite export lists them.
    Rects(Vec<[u32; 4]>),
}

impl SheetSpec {
    /// Parses `Category=path.png:4x2`.
    ///
    /// ```
    /// use animkit_runtime::sprite::view::SheetSpec;
    /// let s = SheetSpec::parse("Walk=art/walk.png:4x2").unwrap();
    /// use animkit_runtime::sprite::view::Cells;
    /// assert_eq!((s.category.as_str(), s.path.as_str()), ("Walk", "art/walk.png"));
    /// assert_eq!(s.cells, Cells::Grid { cols: 4, rows: 2 });
    /// assert!(SheetSpec::parse("Walk=walk.png").is_err());
    /// ```
    pub fn parse(text: &str) -> Result<SheetSpec, ViewError> {
        let bad = || ViewError::BadSheet(text.into());
        let (category, rest) = text.split_once('=').ok_or_else(bad)?;
        let (path, grid) = rest.rsplit_once(':').ok_or_else(bad)?;
        let (cols, rows) = grid.split_once(['x', 'X']).ok_or_else(bad)?;
        let cols: u32 = cols.parse().map_err(|_| bad())?;
        let rows: u32 = rows.parse().map_err(|_| bad())?;
        if category.is_empty() || path.is_empty() || cols == 0 || rows == 0 {
            return Err(bad());
        }
        Ok(SheetSpec { category: category.into(), path: path.into(), cells: Cells::Grid { cols, rows } })
    }

    /// The sheet of the Aseprite export `json`, read from `path`: the
    /// image `meta.image` names (relative to the export's folder) and each
    /// frame's `frame` rectangle, for the category the converted states
    /// draw from (`animkit_compiler::import::aseprite`).
    ///
    /// ```
    /// use animkit_runtime::sprite::view::{Cells, SheetSpec};
    /// let json = r#"{"frames": [{"frame": {"x": 0, "y": 0, "w": 16, "h": 8}, "duration": 100},
    ///                           {"frame": {"x": 16, "y": 0, "w": 16, "h": 8}, "duration": 100}],
    ///               "meta": {"image": "hero.png"}}"#;
    /// let s = SheetSpec::from_aseprite("art/hero.json", json).unwrap();
    /// assert_eq!((s.category.as_str(), s.path.as_str()), ("hero", "art/hero.png"));
    /// assert_eq!(s.cells, Cells::Rects(vec![[0, 0, 16, 8], [16, 0, 16, 8]]));
    /// ```
    pub fn from_aseprite(path: &str, json: &str) -> Result<SheetSpec, ViewError> {
        let options = animkit_compiler::import::aseprite::AsepriteOptions::default();
        let sheet =
            animkit_compiler::import::aseprite::convert(path, json, &options).map_err(ViewError::Aseprite)?.sheet;
        if sheet.image.is_empty() {
            return Err(ViewError::NoImage(path.into()));
        }
        let dir = std::path::Path::new(path).parent().unwrap_or(std::path::Path::new(""));
        Ok(SheetSpec {
            category: sheet.category,
            path: dir.join(&sheet.image).to_string_lossy().into_owned(),
            cells: Cells::Rects(sheet.frames.iter().map(|r| [r.x, r.y, r.w, r.h]).collect()),
        })
    }
}

struct Sheet {
    image: ImageId,
    /// Frame `i`'s rectangle in the image.
    cells: Vec<PixelRect>,
}

/// A sprite instance drawn every tick.
pub struct SpriteView {
    sprites: Sprites,
    instance: SpriteInstance,
    sheets: HashMap<String, Sheet>,
    tick: u64,
    recent_events: Vec<String>,
}

impl SpriteView {
    /// Loads the sheets into `renderer` and starts `state`.
    pub fn new(
        sprites: Sprites,
        state: &str,
        sheets: &[SheetSpec],
        renderer: &mut Renderer,
    ) -> Result<SpriteView, ViewError> {
        Self::with_loader(sprites, state, sheets, renderer, |r, s| r.load_png(&s.path))
    }

    /// [`new`](Self::new), each sheet's image made by `load` (the web
    /// player decodes PNG bytes fetched from a URL: `path` is then that
    /// URL, for messages).
    pub fn with_loader(
        sprites: Sprites,
        state: &str,
        sheets: &[SheetSpec],
        renderer: &mut Renderer,
        mut load: impl FnMut(&mut Renderer, &SheetSpec) -> Result<ImageId, crate::render::RenderError>,
    ) -> Result<SpriteView, ViewError> {
        let instance = sprites.instance(state).map_err(ViewError::State)?;
        let mut loaded = HashMap::new();
        for s in sheets {
            let image = load(renderer, s).map_err(|e| ViewError::Load {
                path: s.path.clone(),
                export: matches!(s.cells, Cells::Rects(_)),
                kind: match &e {
                    crate::render::RenderError::Io { source, .. } => Some(source.kind()),
                    _ => None,
                },
                reason: e.to_string(),
            })?;
            let (w, h) = renderer.image_size(image).unwrap_or((0, 0));
            let cells = match &s.cells {
                &Cells::Grid { cols, rows } => {
                    if w < cols || h < rows {
                        return Err(ViewError::Grid { path: s.path.clone(), size: (w, h), grid: (cols, rows) });
                    }
                    let (cw, ch) = (w / cols, h / rows);
                    (0..cols * rows)
                        .map(|i| {
                            PixelRect::new(((i % cols) * cw) as i32, ((i / cols) * ch) as i32, cw as i32, ch as i32)
                        })
                        .collect()
                }
                Cells::Rects(rects) => {
                    // A rectangle outside the image would sample nothing:
                    // the export does not belong to this image.
                    if let Some((i, r)) = rects.iter().enumerate().find(|(_, r)| {
                        r[2] == 0
                            || r[3] == 0
                            || r[0] as u64 + r[2] as u64 > w as u64
                            || r[1] as u64 + r[3] as u64 > h as u64
                    }) {
                        return Err(ViewError::Rect { path: s.path.clone(), frame: i, rect: *r, size: (w, h) });
                    }
                    rects.iter().map(|r| PixelRect::new(r[0] as i32, r[1] as i32, r[2] as i32, r[3] as i32)).collect()
                }
            };
            loaded.insert(s.category.clone(), Sheet { image, cells });
        }
        Ok(SpriteView { sprites, instance, sheets: loaded, tick: 0, recent_events: Vec::new() })
    }

    /// The instance being shown.
    pub fn instance(&mut self) -> &mut SpriteInstance {
        &mut self.instance
    }

    /// The module.
    pub fn sprites(&self) -> &Sprites {
        &self.sprites
    }

    /// Moves the instance onto `new`, a new build of its module
    /// (`--watch`), saying so on `stderr`.
    #[cfg(feature = "desktop")]
    pub fn reload(&mut self, new: &Sprites, file: &str, stderr: &mut dyn std::io::Write) {
        if super::reload::reload_instance(&mut self.instance, new, file, stderr).is_some() {
            self.sprites = new.clone();
        }
    }

    /// Switches state (from a key press).
    pub fn set_state(&mut self, state: &str) -> Result<(), ViewError> {
        self.instance.restart_state(state).map_err(ViewError::State)
    }

    /// Ticks drawn so far.
    pub fn ticks(&self) -> u64 {
        self.tick
    }

    /// Advances one tick and remembers its events for the overlay.
    pub fn tick(&mut self) {
        self.instance.tick();
        let events: Vec<String> = {
            let s = self.sprites.clone();
            self.instance.drain_events().map(|e| s.event_name(e).to_string()).collect()
        };
        if !events.is_empty() {
            self.recent_events = events;
        }
        self.tick += 1;
    }

    /// Draws the current frame and the overlay.
    pub fn draw(&self, r: &mut Renderer) {
        let (w, h) = r.size();
        r.clear([0.16, 0.17, 0.2, 1.0]);
        let frame = self.instance.frame();
        let category = self.instance.category();
        let area = [w as f32 * 0.1, h as f32 * 0.12, w as f32 * 0.8, h as f32 * 0.76];
        let cell = self.sheets.get(category).map(|s| (s.image, s.cells.get(frame as usize)));
        match cell {
            Some((image, Some(&src))) => {
                let (cw, ch) = (src.w, src.h);
                let scale = (area[2] / cw as f32).min(area[3] / ch as f32).floor().max(1.0);
                let (dw, dh) = (cw as f32 * scale, ch as f32 * scale);
                let dst = [(w as f32 - dw) / 2.0, (h as f32 - dh) / 2.0, dw, dh];
                let _ = r.blit_region(image, src, dst);
            }
            other => {
                let centre = [w as f32 / 2.0, h as f32 / 2.0];
                let note = if other.is_some() { " (beyond the sheet)" } else { "" };
                r.fill_convex(
                    &[
                        [area[0], area[1]],
                        [area[0] + area[2], area[1]],
                        [area[0] + area[2], area[1] + area[3]],
                        [area[0], area[1] + area[3]],
                    ],
                    [0.25, 0.27, 0.32, 1.0],
                );
                r.text(
                    centre,
                    HAlign::Center,
                    VAlign::Center,
                    &format!("{category} #{frame}{note}"),
                    [1.0, 0.85, 0.3, 1.0],
                );
            }
        }
        let status = format!(
            "{} [{}]  frame {}  tick {}{}",
            self.instance.state_name(),
            category,
            frame,
            self.tick.saturating_sub(1),
            if self.instance.is_waiting() { "  (waiting)" } else { "" }
        );
        r.text([6.0, 6.0], HAlign::Left, VAlign::Top, &status, [1.0, 1.0, 1.0, 1.0]);
        if !self.recent_events.is_empty() {
            let text = format!("events: {}", self.recent_events.join(" "));
            r.text([6.0, h as f32 - 6.0], HAlign::Left, VAlign::Bottom, &text, [0.6, 0.9, 0.6, 1.0]);
        }
        r.flush();
    }
}
