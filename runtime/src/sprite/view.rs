//! The sprite viewer: `animvm sprite.animb --sheet Category=sheet.png:COLSxROWS ... --state NAME`
//! plays a state at 50 ticks per second, drawing each frame's cell from the
//! category's sprite sheet (a grid of COLS x ROWS equal cells, numbered
//! left to right, top to bottom), scaled to fit the window. A category
//! without a sheet is drawn as its frame index in large text, so timing can
//! still be seen. An overlay names the state, category, frame, tick and the
//! events fired.

use crate::render::{HAlign, ImageId, PixelRect, Renderer, VAlign};
use animkit_vm::sprite::{SpriteInstance, Sprites};
use std::collections::HashMap;

/// Ticks per second of the viewer (the DSL's usual fixed update).
pub const TICKS_PER_SECOND: u32 = 50;

/// One `--sheet Category=path:COLSxROWS` option.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SheetSpec {
    /// The sprite category it serves.
    pub category: String,
    /// PNG path.
    pub path: String,
    /// Cells per row.
    pub cols: u32,
    /// Rows of cells.
    pub rows: u32,
}

impl SheetSpec {
    /// Parses `Category=path.png:4x2`.
    ///
    /// ```
    /// use animkit_runtime::sprite::view::SheetSpec;
    /// let s = SheetSpec::parse("Walk=art/walk.png:4x2").unwrap();
    /// assert_eq!((s.category.as_str(), s.path.as_str(), s.cols, s.rows), ("Walk", "art/walk.png", 4, 2));
    /// assert!(SheetSpec::parse("Walk=walk.png").is_err());
    /// ```
    pub fn parse(text: &str) -> Result<SheetSpec, String> {
        let bad = || format!("--sheet `{text}`: expected Category=sheet.png:COLSxROWS, e.g. Walk=walk.png:4x1");
        let (category, rest) = text.split_once('=').ok_or_else(bad)?;
        let (path, grid) = rest.rsplit_once(':').ok_or_else(bad)?;
        let (cols, rows) = grid.split_once(['x', 'X']).ok_or_else(bad)?;
        let cols: u32 = cols.parse().map_err(|_| bad())?;
        let rows: u32 = rows.parse().map_err(|_| bad())?;
        if category.is_empty() || path.is_empty() || cols == 0 || rows == 0 {
            return Err(bad());
        }
        Ok(SheetSpec { category: category.into(), path: path.into(), cols, rows })
    }
}

struct Sheet {
    image: ImageId,
    cols: u32,
    rows: u32,
    cell: (u32, u32),
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
    ) -> Result<SpriteView, String> {
        let instance = sprites.instance(state).map_err(|e| e.to_string())?;
        let mut loaded = HashMap::new();
        for s in sheets {
            let image = renderer.load_png(&s.path).map_err(|e| format!("--sheet {}: {e}", s.path))?;
            let (w, h) = renderer.image_size(image).unwrap_or((0, 0));
            if w < s.cols || h < s.rows {
                return Err(format!("--sheet {}: a {w}x{h} image cannot hold {}x{} cells", s.path, s.cols, s.rows));
            }
            loaded.insert(
                s.category.clone(),
                Sheet { image, cols: s.cols, rows: s.rows, cell: (w / s.cols, h / s.rows) },
            );
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

    /// Switches state (from a key press).
    pub fn set_state(&mut self, state: &str) -> Result<(), String> {
        self.instance.restart_state(state).map_err(|e| e.to_string())
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
        match self.sheets.get(category) {
            Some(sheet) if frame < sheet.cols * sheet.rows => {
                let (cw, ch) = sheet.cell;
                let src = PixelRect::new(
                    ((frame % sheet.cols) * cw) as i32,
                    ((frame / sheet.cols) * ch) as i32,
                    cw as i32,
                    ch as i32,
                );
                let scale = (area[2] / cw as f32).min(area[3] / ch as f32).floor().max(1.0);
                let (dw, dh) = (cw as f32 * scale, ch as f32 * scale);
                let dst = [(w as f32 - dw) / 2.0, (h as f32 - dh) / 2.0, dw, dh];
                let _ = r.blit_region(sheet.image, src, dst);
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
