//! [`Mesh`]: triangles with normals and colours, built on the CPU, and the
//! few solids low-poly models are made of (boxes, ellipsoids, cones,
//! frusta, discs). Every solid is flat shaded: each triangle carries its
//! own face normal, computed from its winding (counter-clockwise seen from
//! outside), so a transformed or squashed solid is still lit right.
//!
//! A vertex colour's alpha says how much the instance colour tints it:
//! 255 takes the instance's colour (times the vertex colour), 0 keeps the
//! vertex colour (a beak, an eye).
//!
//! ```
//! use animkit_player::render::scene3d::{Mat4, Mesh};
//! let mut m = Mesh::new();
//! m.ellipsoid(&Mat4::scale(0.5), 8, 5, [255, 255, 255, 255]);
//! m.cone(&Mat4::IDENTITY, 6, [255, 150, 0, 0]);
//! assert_eq!(m.triangles(), 8 * 2 + 8 * 3 * 2 + 6 * 2);
//! assert!(m.vertices.iter().all(|v| v.normal.iter().all(|c| c.is_finite())));
//! ```

use super::math::{Mat4, cross, normalize};
use std::f32::consts::TAU;

/// One vertex: position, normal and RGBA8 colour (alpha: the instance
/// tint). 28 bytes.
#[repr(C)]
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct MeshVertex {
    /// Position in the mesh's frame.
    pub pos: [f32; 3],
    /// Unit normal.
    pub normal: [f32; 3],
    /// Colour; alpha = how much the instance colour tints it.
    pub color: [u8; 4],
}

/// Triangles, three vertices each, counter-clockwise seen from outside.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Mesh {
    /// The vertices, three per triangle.
    pub vertices: Vec<MeshVertex>,
}

fn sub(a: [f32; 3], b: [f32; 3]) -> [f32; 3] {
    [a[0] - b[0], a[1] - b[1], a[2] - b[2]]
}

impl Mesh {
    /// An empty mesh.
    pub fn new() -> Mesh {
        Mesh::default()
    }

    /// The number of triangles.
    pub fn triangles(&self) -> usize {
        self.vertices.len() / 3
    }

    /// Adds triangle `a b c` (counter-clockwise seen from outside) with
    /// its face normal; a degenerate one (no area) is left out.
    ///
    /// ```
    /// use animkit_player::render::scene3d::Mesh;
    /// let mut m = Mesh::new();
    /// m.triangle([0.0, 0.0, 0.0], [1.0, 0.0, 0.0], [0.0, 1.0, 0.0], [255; 4]);
    /// assert_eq!(m.vertices[0].normal, [0.0, 0.0, 1.0]);
    /// m.triangle([0.0, 0.0, 0.0], [1.0, 0.0, 0.0], [2.0, 0.0, 0.0], [255; 4]);
    /// assert_eq!(m.triangles(), 1);
    /// ```
    pub fn triangle(&mut self, a: [f32; 3], b: [f32; 3], c: [f32; 3], color: [u8; 4]) {
        let n = cross(sub(b, a), sub(c, a));
        if n.iter().map(|v| v * v).sum::<f32>() <= 1e-14 {
            return;
        }
        let normal = normalize(n);
        for pos in [a, b, c] {
            self.vertices.push(MeshVertex { pos, normal, color });
        }
    }

    /// Adds quad `a b c d` (counter-clockwise) as two triangles.
    pub fn quad(&mut self, a: [f32; 3], b: [f32; 3], c: [f32; 3], d: [f32; 3], color: [u8; 4]) {
        self.triangle(a, b, c, color);
        self.triangle(a, c, d, color);
    }

    /// A unit cube centred at the origin (side 1).
    ///
    /// ```
    /// assert_eq!(animkit_player::render::scene3d::Mesh::cube([255; 4]).triangles(), 12);
    /// ```
    pub fn cube(color: [u8; 4]) -> Mesh {
        let mut m = Mesh::new();
        m.cuboid(&Mat4::IDENTITY, color);
        m
    }

    /// Adds the unit cube (side 1, centred) mapped by `at`.
    pub fn cuboid(&mut self, at: &Mat4, color: [u8; 4]) {
        let p = |x: f32, y: f32, z: f32| at.transform_point([x * 0.5, y * 0.5, z * 0.5]);
        let faces = [
            [p(-1., -1., 1.), p(1., -1., 1.), p(1., 1., 1.), p(-1., 1., 1.)],
            [p(1., -1., -1.), p(-1., -1., -1.), p(-1., 1., -1.), p(1., 1., -1.)],
            [p(1., -1., 1.), p(1., -1., -1.), p(1., 1., -1.), p(1., 1., 1.)],
            [p(-1., -1., -1.), p(-1., -1., 1.), p(-1., 1., 1.), p(-1., 1., -1.)],
            [p(-1., 1., 1.), p(1., 1., 1.), p(1., 1., -1.), p(-1., 1., -1.)],
            [p(-1., -1., -1.), p(1., -1., -1.), p(1., -1., 1.), p(-1., -1., 1.)],
        ];
        for [a, b, c, d] in faces {
            self.quad(a, b, c, d, color);
        }
    }

    /// Adds the unit sphere (radius 1, centred) mapped by `at`, as
    /// `slices` around the y axis and `stacks` from pole to pole (a scaled
    /// `at` makes an ellipsoid).
    pub fn ellipsoid(&mut self, at: &Mat4, slices: u32, stacks: u32, color: [u8; 4]) {
        let (slices, stacks) = (slices.max(3), stacks.max(2));
        let point = |i: u32, j: u32| {
            let theta = std::f32::consts::PI * j as f32 / stacks as f32;
            let phi = TAU * i as f32 / slices as f32;
            let (st, ct) = theta.sin_cos();
            let (sp, cp) = phi.sin_cos();
            at.transform_point([st * sp, ct, st * cp])
        };
        for j in 0..stacks {
            for i in 0..slices {
                let (a, b) = (point(i, j), point(i + 1, j));
                let (c, d) = (point(i + 1, j + 1), point(i, j + 1));
                if j == 0 {
                    self.triangle(a, d, c, color);
                } else if j == stacks - 1 {
                    self.triangle(a, d, b, color);
                } else {
                    self.quad(a, d, c, b, color);
                }
            }
        }
    }

    /// Adds a cone with its base the unit disc at y = 0 and its apex at
    /// (0, 1, 0), `sides` around, mapped by `at`.
    pub fn cone(&mut self, at: &Mat4, sides: u32, color: [u8; 4]) {
        self.frustum(at, 1.0, 0.0, sides, color);
    }

    /// Adds a frustum (a cylinder when `top` = 1) between the disc of
    /// radius 1 at y = 0 and the disc of radius `top` at y = 1, `sides`
    /// around, capped, mapped by `at`.
    pub fn frustum(&mut self, at: &Mat4, bottom: f32, top: f32, sides: u32, color: [u8; 4]) {
        let sides = sides.max(3);
        let ring = |r: f32, y: f32, i: u32| {
            let (s, c) = (TAU * i as f32 / sides as f32).sin_cos();
            at.transform_point([r * s, y, r * c])
        };
        let (base, apex) = (at.transform_point([0.0, 0.0, 0.0]), at.transform_point([0.0, 1.0, 0.0]));
        for i in 0..sides {
            let (b0, b1) = (ring(bottom, 0.0, i), ring(bottom, 0.0, i + 1));
            let (t0, t1) = (ring(top, 1.0, i), ring(top, 1.0, i + 1));
            if top > 0.0 {
                self.quad(b0, b1, t1, t0, color);
                self.triangle(apex, t0, t1, color);
            } else {
                self.triangle(b0, b1, apex, color);
            }
            if bottom > 0.0 {
                self.triangle(base, b1, b0, color);
            }
        }
    }

    /// Adds the side of the unit cylinder (radius 1, from y = 0 to y = 1)
    /// without its caps, `sides` around, mapped by `at`: for a piece whose
    /// ends are always hidden inside others (a coarse leg).
    ///
    /// ```
    /// let mut m = animkit_player::render::scene3d::Mesh::new();
    /// m.tube(&animkit_player::render::scene3d::Mat4::IDENTITY, 3, [255; 4]);
    /// assert_eq!(m.triangles(), 6);
    /// ```
    pub fn tube(&mut self, at: &Mat4, sides: u32, color: [u8; 4]) {
        let sides = sides.max(3);
        let ring = |y: f32, i: u32| {
            let (s, c) = (TAU * i as f32 / sides as f32).sin_cos();
            at.transform_point([s, y, c])
        };
        for i in 0..sides {
            self.quad(ring(0.0, i), ring(0.0, i + 1), ring(1.0, i + 1), ring(1.0, i), color);
        }
    }

    /// Adds a disc of radius 1 in the plane y = 0, facing +y, `sides`
    /// around, mapped by `at`.
    pub fn disc(&mut self, at: &Mat4, sides: u32, color: [u8; 4]) {
        let sides = sides.max(3);
        let centre = at.transform_point([0.0, 0.0, 0.0]);
        let ring = |i: u32| {
            let (s, c) = (TAU * i as f32 / sides as f32).sin_cos();
            at.transform_point([s, 0.0, c])
        };
        for i in 0..sides {
            self.triangle(centre, ring(i), ring(i + 1), color);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Twice the signed volume enclosed, from the divergence theorem: positive
    /// when every face is wound counter-clockwise seen from outside.
    fn volume(m: &Mesh) -> f32 {
        m.vertices.chunks(3).map(|t| dot(t[0].pos, cross(t[1].pos, t[2].pos))).sum::<f32>() / 6.0
    }

    fn dot(a: [f32; 3], b: [f32; 3]) -> f32 {
        a[0] * b[0] + a[1] * b[1] + a[2] * b[2]
    }

    #[test]
    fn solids_are_closed_and_wound_outwards() {
        let white = [255; 4];
        let mut cube = Mesh::cube(white);
        assert!((volume(&cube) - 1.0).abs() < 1e-5);
        let mut sphere = Mesh::new();
        sphere.ellipsoid(&Mat4::IDENTITY, 24, 16, white);
        let v = volume(&sphere);
        assert!(v > 3.8 && v < 4.0 * std::f32::consts::PI / 3.0, "{v}");
        let mut cyl = Mesh::new();
        cyl.frustum(&Mat4::IDENTITY, 1.0, 1.0, 32, white);
        assert!((volume(&cyl) - std::f32::consts::PI).abs() < 0.03);
        let mut cone = Mesh::new();
        cone.cone(&Mat4::IDENTITY, 32, white);
        assert!((volume(&cone) - std::f32::consts::PI / 3.0).abs() < 0.01);
        // Normals point away from the centre for a sphere.
        assert!(sphere.vertices.iter().all(|v| dot(v.normal, v.pos) > 0.0));
        // A mirrored map would turn them inside out; a rotation does not.
        cube.vertices.clear();
        cube.cuboid(&Mat4::rotation_y(1.0).mul(&Mat4::scale3([1.0, 2.0, 3.0])), white);
        assert!((volume(&cube) - 6.0).abs() < 1e-4);
    }

    #[test]
    fn a_disc_faces_up() {
        let mut d = Mesh::new();
        d.disc(&Mat4::IDENTITY, 12, [0; 4]);
        assert_eq!(d.triangles(), 12);
        assert!(d.vertices.iter().all(|v| (v.normal[1] - 1.0).abs() < 1e-6));
    }
}
