//! The little linear algebra the 3D path needs: a column-major 4x4
//! [`Mat4`] (OpenGL's layout, uploaded as is), the transforms a host
//! composes (translation, rotations, scale), a perspective projection and
//! a look-direction view.
//!
//! Conventions: right-handed, y up; a view looks down its own -z; the
//! projection maps the view frustum to GL's clip cube (z in -1..1). Angles
//! are radians; a positive rotation turns counter-clockwise when its axis
//! points at the viewer.
//!
//! ```
//! use animkit_player::render::scene3d::Mat4;
//! let m = Mat4::translation([1.0, 2.0, 3.0]).mul(&Mat4::scale(2.0));
//! assert_eq!(m.transform_point([1.0, 1.0, 1.0]), [3.0, 4.0, 5.0]);
//! // A quarter turn about y takes +z to +x.
//! let r = Mat4::rotation_y(std::f32::consts::FRAC_PI_2).transform_point([0.0, 0.0, 1.0]);
//! assert!((r[0] - 1.0).abs() < 1e-6 && r[2].abs() < 1e-6);
//! ```

/// A 4x4 matrix, column-major: `cols[c][r]` is row `r` of column `c`.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Mat4 {
    /// The four columns; the last is the translation of an affine map.
    pub cols: [[f32; 4]; 4],
}

impl Mat4 {
    /// The identity.
    pub const IDENTITY: Mat4 =
        Mat4 { cols: [[1.0, 0.0, 0.0, 0.0], [0.0, 1.0, 0.0, 0.0], [0.0, 0.0, 1.0, 0.0], [0.0, 0.0, 0.0, 1.0]] };

    /// Moves by `t`.
    pub fn translation(t: [f32; 3]) -> Mat4 {
        let mut m = Mat4::IDENTITY;
        m.cols[3] = [t[0], t[1], t[2], 1.0];
        m
    }

    /// Scales uniformly by `s`.
    pub fn scale(s: f32) -> Mat4 {
        Mat4::scale3([s, s, s])
    }

    /// Scales each axis by its own factor.
    pub fn scale3(s: [f32; 3]) -> Mat4 {
        let mut m = Mat4::IDENTITY;
        for (i, &f) in s.iter().enumerate() {
            m.cols[i][i] = f;
        }
        m
    }

    /// Turns by `a` about +x (+y goes towards +z).
    ///
    /// ```
    /// use animkit_player::render::scene3d::Mat4;
    /// let p = Mat4::rotation_x(std::f32::consts::FRAC_PI_2).transform_point([0.0, 1.0, 0.0]);
    /// assert!(p[1].abs() < 1e-6 && (p[2] - 1.0).abs() < 1e-6);
    /// ```
    pub fn rotation_x(a: f32) -> Mat4 {
        let (s, c) = a.sin_cos();
        Mat4 { cols: [[1.0, 0.0, 0.0, 0.0], [0.0, c, s, 0.0], [0.0, -s, c, 0.0], [0.0, 0.0, 0.0, 1.0]] }
    }

    /// Turns by `a` about +y (+z goes towards +x).
    pub fn rotation_y(a: f32) -> Mat4 {
        let (s, c) = a.sin_cos();
        Mat4 { cols: [[c, 0.0, -s, 0.0], [0.0, 1.0, 0.0, 0.0], [s, 0.0, c, 0.0], [0.0, 0.0, 0.0, 1.0]] }
    }

    /// Turns by `a` about +z (+x goes towards +y).
    ///
    /// ```
    /// use animkit_player::render::scene3d::Mat4;
    /// let p = Mat4::rotation_z(std::f32::consts::FRAC_PI_2).transform_point([1.0, 0.0, 0.0]);
    /// assert!(p[0].abs() < 1e-6 && (p[1] - 1.0).abs() < 1e-6);
    /// ```
    pub fn rotation_z(a: f32) -> Mat4 {
        let (s, c) = a.sin_cos();
        Mat4 { cols: [[c, s, 0.0, 0.0], [-s, c, 0.0, 0.0], [0.0, 0.0, 1.0, 0.0], [0.0, 0.0, 0.0, 1.0]] }
    }

    /// An affine map from its three axis columns and its translation.
    ///
    /// ```
    /// use animkit_player::render::scene3d::Mat4;
    /// let m = Mat4::from_axes([0.0, 1.0, 0.0], [-1.0, 0.0, 0.0], [0.0, 0.0, 1.0], [5.0, 0.0, 0.0]);
    /// assert_eq!(m.transform_point([1.0, 0.0, 0.0]), [5.0, 1.0, 0.0]);
    /// ```
    pub fn from_axes(x: [f32; 3], y: [f32; 3], z: [f32; 3], t: [f32; 3]) -> Mat4 {
        Mat4 {
            cols: [[x[0], x[1], x[2], 0.0], [y[0], y[1], y[2], 0.0], [z[0], z[1], z[2], 0.0], [t[0], t[1], t[2], 1.0]],
        }
    }

    /// `self * other`: `other` applies first.
    pub fn mul(&self, other: &Mat4) -> Mat4 {
        let mut out = [[0.0f32; 4]; 4];
        for (c, col) in out.iter_mut().enumerate() {
            for (r, v) in col.iter_mut().enumerate() {
                *v = (0..4).map(|k| self.cols[k][r] * other.cols[c][k]).sum();
            }
        }
        Mat4 { cols: out }
    }

    /// The image of point `p` under an affine map (the last row ignored).
    pub fn transform_point(&self, p: [f32; 3]) -> [f32; 3] {
        let c = &self.cols;
        [0, 1, 2].map(|r| c[0][r] * p[0] + c[1][r] * p[1] + c[2][r] * p[2] + c[3][r])
    }

    /// The image of direction `v` (no translation).
    pub fn transform_vector(&self, v: [f32; 3]) -> [f32; 3] {
        let c = &self.cols;
        [0, 1, 2].map(|r| c[0][r] * v[0] + c[1][r] * v[1] + c[2][r] * v[2])
    }

    /// `self * (p, 1)`: homogeneous clip coordinates of `p` under a
    /// projection.
    pub fn project(&self, p: [f32; 3]) -> [f32; 4] {
        let c = &self.cols;
        [0, 1, 2, 3].map(|r| c[0][r] * p[0] + c[1][r] * p[1] + c[2][r] * p[2] + c[3][r])
    }

    /// The three rows of an affine map's upper 3x4 part, as the instance
    /// data of a mesh draw holds it ([`Instance`](super::Instance)).
    pub fn affine_rows(&self) -> [[f32; 4]; 3] {
        let c = &self.cols;
        [0, 1, 2].map(|r| [c[0][r], c[1][r], c[2][r], c[3][r]])
    }

    /// A perspective projection: vertical field of view `fovy` (radians),
    /// `aspect` = width / height, clip planes at `near` and `far` (> 0).
    ///
    /// ```
    /// use animkit_player::render::scene3d::Mat4;
    /// let p = Mat4::perspective(std::f32::consts::FRAC_PI_2, 1.0, 1.0, 100.0);
    /// let c = p.project([0.0, 0.0, -1.0]);
    /// assert!((c[2] / c[3] + 1.0).abs() < 1e-6); // the near plane is z = -1 in clip space
    /// let c = p.project([1.0, 0.0, -1.0]);
    /// assert!((c[0] / c[3] - 1.0).abs() < 1e-6); // 45 degrees right: the right edge
    /// ```
    pub fn perspective(fovy: f32, aspect: f32, near: f32, far: f32) -> Mat4 {
        let f = 1.0 / (fovy / 2.0).tan();
        let d = near - far;
        Mat4 {
            cols: [
                [f / aspect, 0.0, 0.0, 0.0],
                [0.0, f, 0.0, 0.0],
                [0.0, 0.0, (far + near) / d, -1.0],
                [0.0, 0.0, 2.0 * far * near / d, 0.0],
            ],
        }
    }

    /// The view of an eye at the origin looking along `dir` with +y up
    /// (a rotation only: scenes are drawn relative to the eye, so that far
    /// coordinates keep their precision). Looking straight down, the top of
    /// the picture is -z (into the scene); straight up, +z.
    ///
    /// ```
    /// use animkit_player::render::scene3d::Mat4;
    /// let v = Mat4::look_along([1.0, 0.0, 0.0]);
    /// let p = v.transform_point([2.0, 0.0, 0.0]);
    /// assert!((p[2] + 2.0).abs() < 1e-6); // in front of the eye: view -z
    /// ```
    pub fn look_along(dir: [f32; 3]) -> Mat4 {
        let f = normalize(dir);
        let up = if f[0].abs() < 1e-6 && f[2].abs() < 1e-6 { [0.0, 0.0, f[1].signum()] } else { [0.0, 1.0, 0.0] };
        let s = normalize(cross(f, up));
        let u = cross(s, f);
        Mat4 {
            cols: [[s[0], u[0], -f[0], 0.0], [s[1], u[1], -f[1], 0.0], [s[2], u[2], -f[2], 0.0], [0.0, 0.0, 0.0, 1.0]],
        }
    }
}

/// `a x b`.
pub fn cross(a: [f32; 3], b: [f32; 3]) -> [f32; 3] {
    [a[1] * b[2] - a[2] * b[1], a[2] * b[0] - a[0] * b[2], a[0] * b[1] - a[1] * b[0]]
}

/// `v` scaled to length 1 (the zero vector stays zero).
pub fn normalize(v: [f32; 3]) -> [f32; 3] {
    let n = (v[0] * v[0] + v[1] * v[1] + v[2] * v[2]).sqrt();
    if n > 0.0 { [v[0] / n, v[1] / n, v[2] / n] } else { v }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn close(a: [f32; 3], b: [f32; 3]) -> bool {
        a.iter().zip(b).all(|(x, y)| (x - y).abs() < 1e-5)
    }

    #[test]
    fn rotations_follow_the_right_hand_rule() {
        let q = std::f32::consts::FRAC_PI_2;
        assert!(close(Mat4::rotation_x(q).transform_point([0.0, 0.0, 1.0]), [0.0, -1.0, 0.0]));
        assert!(close(Mat4::rotation_y(q).transform_point([1.0, 0.0, 0.0]), [0.0, 0.0, -1.0]));
        assert!(close(Mat4::rotation_z(q).transform_point([0.0, 1.0, 0.0]), [-1.0, 0.0, 0.0]));
    }

    #[test]
    fn mul_applies_the_right_operand_first() {
        let m = Mat4::translation([1.0, 0.0, 0.0]).mul(&Mat4::rotation_z(std::f32::consts::FRAC_PI_2));
        assert!(close(m.transform_point([1.0, 0.0, 0.0]), [1.0, 1.0, 0.0]));
        assert_eq!(Mat4::IDENTITY.mul(&m), m);
    }

    #[test]
    fn look_along_keeps_up_and_handles_vertical_views() {
        let v = Mat4::look_along([0.0, -1.0, -4.0]);
        // Up stays up on screen (positive view y) for a point above the line of sight.
        assert!(v.transform_point([0.0, 1.0, -4.0])[1] > 0.0);
        // The right of the screen is +x when looking along -z.
        assert!(v.transform_point([1.0, 0.0, -4.0])[0] > 0.0);
        let down = Mat4::look_along([0.0, -1.0, 0.0]);
        assert!(close(down.transform_point([0.0, -3.0, 0.0]), [0.0, 0.0, -3.0]));
        // Looking down, the top of the picture is into the scene and its right +x.
        assert!(close(down.transform_point([1.0, -3.0, -1.0]), [1.0, 1.0, -3.0]));
        assert!(down.cols.iter().flatten().all(|v| v.is_finite()));
    }

    #[test]
    fn affine_rows_are_the_transposed_upper_part() {
        let m = Mat4::translation([1.0, 2.0, 3.0]).mul(&Mat4::scale3([4.0, 5.0, 6.0]));
        assert_eq!(m.affine_rows(), [[4.0, 0.0, 0.0, 1.0], [0.0, 5.0, 0.0, 2.0], [0.0, 0.0, 6.0, 3.0]]);
    }
}
