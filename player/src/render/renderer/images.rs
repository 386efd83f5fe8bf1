//! The [`Renderer`]'s images: RGBA8 textures made from
//! [`RgbaImage`]s, PNG bytes or a fill colour, updated row by row, freed
//! by id, and bounded in size and in total pixels.

use super::{Renderer, gl_err, set_tex_params};
use crate::render::error::{RenderError, check_size};
use crate::render::image::RgbaImage;
use crate::render::types::{ImageId, Rgba, rgba_to_u8};
use glow::HasContext;
use std::path::Path;

/// A live image: its texture and size.
pub(super) struct Image {
    pub tex: glow::Texture,
    pub width: u32,
    pub height: u32,
}

impl Renderer {
    /// Creates a `width` x `height` image filled with `fill`. Sides must be
    /// `1..=8192`, and all live images together hold at most
    /// [`MAX_IMAGE_PIXELS`](crate::render::MAX_IMAGE_PIXELS) pixels.
    ///
    /// ```no_run
    /// # let mut r = animkit_player::render::HeadlessGl::new(8, 8)?.into_renderer()?;
    /// let img = r.create_image(16, 16, [1.0, 1.0, 1.0, 1.0])?;
    /// assert!(r.create_image(100_000, 1, [0.0; 4]).is_err());
    /// # Ok::<(), animkit_player::render::RenderError>(())
    /// ```
    pub fn create_image(&mut self, width: u32, height: u32, fill: Rgba) -> Result<ImageId, RenderError> {
        check_size(width.into(), height.into())?;
        self.check_image_memory(width, height)?;
        self.add_image(&RgbaImage::new(width, height, rgba_to_u8(fill)))
    }

    /// Creates an image from RGBA8 pixels (row 0 = top row).
    ///
    /// ```no_run
    /// # use animkit_player::render::*;
    /// # let mut r = HeadlessGl::new(8, 8)?.into_renderer()?;
    /// let img = r.add_image(&RgbaImage::new(2, 2, [255, 0, 0, 255]))?;
    /// # Ok::<(), RenderError>(())
    /// ```
    pub fn add_image(&mut self, image: &RgbaImage) -> Result<ImageId, RenderError> {
        check_size(image.width.into(), image.height.into())?;
        self.check_image_memory(image.width, image.height)?;
        if image.data.len() != image.width as usize * image.height as usize * 4 {
            return Err(RenderError::Png("pixel buffer has the wrong length".into()));
        }
        // SAFETY: current context; the data has exactly w*h*4 bytes.
        let tex = unsafe {
            let gl = &self.gl;
            let tex = gl.create_texture().map_err(gl_err("image texture"))?;
            gl.active_texture(glow::TEXTURE0);
            gl.bind_texture(glow::TEXTURE_2D, Some(tex));
            set_tex_params(gl, glow::REPEAT);
            gl.pixel_store_i32(glow::UNPACK_ALIGNMENT, 1);
            gl.tex_image_2d(
                glow::TEXTURE_2D,
                0,
                glow::RGBA8 as i32,
                image.width as i32,
                image.height as i32,
                0,
                glow::RGBA,
                glow::UNSIGNED_BYTE,
                glow::PixelUnpackData::Slice(Some(&image.data)),
            );
            tex
        };
        let id = ImageId(self.next_image);
        self.next_image += 1;
        self.images.insert(id, Image { tex, width: image.width, height: image.height });
        Ok(id)
    }

    /// Fails if a new `width` x `height` image would make the live images
    /// hold more than [`MAX_IMAGE_PIXELS`](crate::render::MAX_IMAGE_PIXELS).
    fn check_image_memory(&self, width: u32, height: u32) -> Result<(), RenderError> {
        let requested = u64::from(width) * u64::from(height);
        let held: u64 = self.images.values().map(|i| u64::from(i.width) * u64::from(i.height)).sum();
        if held + requested > self.image_pixel_limit {
            return Err(RenderError::ImageMemory { requested, held, limit: self.image_pixel_limit });
        }
        Ok(())
    }

    /// Lowers (or raises) the most pixels all live images may hold
    /// together, [`MAX_IMAGE_PIXELS`](crate::render::MAX_IMAGE_PIXELS) by default.
    ///
    /// ```no_run
    /// # let mut r = animkit_player::render::HeadlessGl::new(8, 8)?.into_renderer()?;
    /// r.set_image_pixel_limit(100);
    /// assert!(r.create_image(10, 10, [0.0; 4]).is_ok());
    /// assert!(r.create_image(1, 1, [0.0; 4]).is_err());
    /// # Ok::<(), animkit_player::render::RenderError>(())
    /// ```
    pub fn set_image_pixel_limit(&mut self, pixels: u64) {
        self.image_pixel_limit = pixels;
    }

    /// Loads a PNG file as a new image (see [`RgbaImage::decode_png`]).
    ///
    /// ```no_run
    /// # let mut r = animkit_player::render::HeadlessGl::new(8, 8)?.into_renderer()?;
    /// let sprite = r.load_png("sprite.png")?;
    /// # Ok::<(), animkit_player::render::RenderError>(())
    /// ```
    pub fn load_png(&mut self, path: impl AsRef<Path>) -> Result<ImageId, RenderError> {
        let img = RgbaImage::load_png(path)?;
        self.add_image(&img)
    }

    /// Decodes PNG bytes as a new image.
    ///
    /// ```no_run
    /// # let mut r = animkit_player::render::HeadlessGl::new(8, 8)?.into_renderer()?;
    /// let bytes = std::fs::read("sprite.png").unwrap();
    /// let sprite = r.load_png_bytes(&bytes)?;
    /// # Ok::<(), animkit_player::render::RenderError>(())
    /// ```
    pub fn load_png_bytes(&mut self, bytes: &[u8]) -> Result<ImageId, RenderError> {
        let img = RgbaImage::decode_png(bytes)?;
        self.add_image(&img)
    }

    /// `(width, height)` of a live image.
    ///
    /// ```no_run
    /// # let mut r = animkit_player::render::HeadlessGl::new(8, 8)?.into_renderer()?;
    /// let img = r.create_image(3, 2, [0.0; 4])?;
    /// assert_eq!(r.image_size(img), Some((3, 2)));
    /// # Ok::<(), animkit_player::render::RenderError>(())
    /// ```
    pub fn image_size(&self, id: ImageId) -> Option<(u32, u32)> {
        self.images.get(&id).map(|i| (i.width, i.height))
    }

    pub(super) fn image(&self, id: ImageId) -> Result<&Image, RenderError> {
        self.images.get(&id).ok_or(RenderError::UnknownImage(id))
    }

    /// Flushes if pending drawing samples image `id` (before it changes).
    fn flush_if_uses(&mut self, id: ImageId) {
        if self.geom.batches.iter().any(|b| b.image == Some(id)) {
            self.flush();
        }
    }

    /// Writes a run of pixels into row `y` (row 0 = top) of an image, starting
    /// at column `x`: `pixels[i]` goes to column `x + i`; `None` leaves that
    /// pixel as it is; pixels outside the image are ignored. Drawing already
    /// queued still sees the old pixels.
    ///
    /// ```no_run
    /// # let mut r = animkit_player::render::HeadlessGl::new(8, 8)?.into_renderer()?;
    /// let img = r.create_image(4, 4, [1.0; 4])?;
    /// let red = Some([255, 0, 0, 255]);
    /// r.set_pixels(img, 1, 0, &[red, None, red])?; // columns 1 and 3 of the top row
    /// # Ok::<(), animkit_player::render::RenderError>(())
    /// ```
    pub fn set_pixels(&mut self, id: ImageId, x: i64, y: i64, pixels: &[Option<[u8; 4]>]) -> Result<(), RenderError> {
        let (w, h) = {
            let img = self.image(id)?;
            (i64::from(img.width), i64::from(img.height))
        };
        if y < 0 || y >= h {
            return Ok(());
        }
        self.flush_if_uses(id);
        let tex = self.image(id)?.tex;
        let mut runs: Vec<(i64, Vec<u8>)> = Vec::new();
        let mut cur: Option<(i64, Vec<u8>)> = None;
        for (i, p) in pixels.iter().enumerate() {
            let col = x.saturating_add(i as i64);
            match p {
                Some(rgba) if (0..w).contains(&col) => match &mut cur {
                    Some((_, data)) => data.extend_from_slice(rgba),
                    None => cur = Some((col, rgba.to_vec())),
                },
                _ => runs.extend(cur.take()),
            }
        }
        runs.extend(cur.take());
        // SAFETY: current context; each run lies inside row y of the texture.
        unsafe {
            let gl = &self.gl;
            gl.active_texture(glow::TEXTURE0);
            gl.bind_texture(glow::TEXTURE_2D, Some(tex));
            gl.pixel_store_i32(glow::UNPACK_ALIGNMENT, 1);
            for (x0, data) in runs {
                gl.tex_sub_image_2d(
                    glow::TEXTURE_2D,
                    0,
                    x0 as i32,
                    y as i32,
                    (data.len() / 4) as i32,
                    1,
                    glow::RGBA,
                    glow::UNSIGNED_BYTE,
                    glow::PixelUnpackData::Slice(Some(&data)),
                );
            }
        }
        Ok(())
    }

    /// Frees an image; its id is never reused. Queued drawing that uses it is
    /// flushed first. Returns whether the id was live.
    ///
    /// ```no_run
    /// # let mut r = animkit_player::render::HeadlessGl::new(8, 8)?.into_renderer()?;
    /// let img = r.create_image(4, 4, [1.0; 4])?;
    /// assert!(r.delete_image(img));
    /// assert!(!r.delete_image(img));
    /// # Ok::<(), animkit_player::render::RenderError>(())
    /// ```
    pub fn delete_image(&mut self, id: ImageId) -> bool {
        if !self.images.contains_key(&id) {
            return false;
        }
        self.flush_if_uses(id);
        if let Some(img) = self.images.remove(&id) {
            // SAFETY: current context; no pending batch samples it any more.
            unsafe { self.gl.delete_texture(img.tex) };
        }
        true
    }
}
