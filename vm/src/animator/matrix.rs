//! 3x3 transformation matrices (row-major), applied to column vectors
//! `[x, y, 1]` with a perspective divide, as Animator's `mult` allows any
//! 3x3 matrix.

/// A point or vector in some 2D coordinate system.
pub type Point = [f64; 2];

/// A row-major 3x3 matrix.
///
/// ```
/// use animkit_vm::engine::animator::matrix::Matrix;
/// let m = Matrix::translation(1.0, 0.0).then(&Matrix::rotation_degrees(90.0));
/// let p = m.apply([1.0, 0.0]);
/// assert!((p[0] - 1.0).abs() < 1e-12 && (p[1] - 1.0).abs() < 1e-12);
/// ```
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Matrix(pub [f64; 9]);

impl Default for Matrix {
    fn default() -> Matrix {
        Matrix::IDENTITY
    }
}

impl Matrix {
    /// The identity.
    pub const IDENTITY: Matrix = Matrix([1.0, 0.0, 0.0, 0.0, 1.0, 0.0, 0.0, 0.0, 1.0]);

    /// Translation by `(x, y)`.
    pub fn translation(x: f64, y: f64) -> Matrix {
        Matrix([1.0, 0.0, x, 0.0, 1.0, y, 0.0, 0.0, 1.0])
    }

    /// Scaling by `sx` horizontally and `sy` vertically.
    pub fn scaling(sx: f64, sy: f64) -> Matrix {
        Matrix([sx, 0.0, 0.0, 0.0, sy, 0.0, 0.0, 0.0, 1.0])
    }

    /// Counter-clockwise rotation by `deg` degrees.
    pub fn rotation_degrees(deg: f64) -> Matrix {
        let (s, c) = deg.to_radians().sin_cos();
        Matrix([c, -s, 0.0, s, c, 0.0, 0.0, 0.0, 1.0])
    }

    /// The matrix mapping the box `l b .. r t` onto `-1 -1 .. 1 1`.
    ///
    /// ```
    /// use animkit_vm::engine::animator::matrix::Matrix;
    /// let m = Matrix::viewport(0.0, 0.0, 10.0, 20.0);
    /// assert_eq!(m.apply([10.0, 20.0]), [1.0, 1.0]);
    /// assert_eq!(m.apply([0.0, 0.0]), [-1.0, -1.0]);
    /// ```
    pub fn viewport(l: f64, b: f64, r: f64, t: f64) -> Matrix {
        let sx = 2.0 / (r - l);
        let sy = 2.0 / (t - b);
        Matrix([sx, 0.0, -1.0 - l * sx, 0.0, sy, -1.0 - b * sy, 0.0, 0.0, 1.0])
    }

    /// `self * other`: `other` applies first, then `self`. Animator's
    /// transformation commands post-multiply the current matrix, so they
    /// act in the current local coordinate system.
    pub fn then(&self, other: &Matrix) -> Matrix {
        let (a, b) = (&self.0, &other.0);
        let mut out = [0.0; 9];
        for r in 0..3 {
            for c in 0..3 {
                out[r * 3 + c] = a[r * 3] * b[c] + a[r * 3 + 1] * b[3 + c] + a[r * 3 + 2] * b[6 + c];
            }
        }
        Matrix(out)
    }

    /// The image of point `p`.
    #[inline]
    pub fn apply(&self, p: Point) -> Point {
        let m = &self.0;
        let x = m[0] * p[0] + m[1] * p[1] + m[2];
        let y = m[3] * p[0] + m[4] * p[1] + m[5];
        let w = m[6] * p[0] + m[7] * p[1] + m[8];
        if w == 1.0 { [x, y] } else { [x / w, y / w] }
    }

    /// The inverse, if the matrix is invertible.
    ///
    /// ```
    /// use animkit_vm::engine::animator::matrix::Matrix;
    /// let m = Matrix::scaling(2.0, 4.0);
    /// assert_eq!(m.inverse().unwrap().apply([2.0, 4.0]), [1.0, 1.0]);
    /// assert!(Matrix::scaling(0.0, 1.0).inverse().is_none());
    /// ```
    pub fn inverse(&self) -> Option<Matrix> {
        let m = &self.0;
        let c00 = m[4] * m[8] - m[5] * m[7];
        let c01 = m[5] * m[6] - m[3] * m[8];
        let c02 = m[3] * m[7] - m[4] * m[6];
        let det = m[0] * c00 + m[1] * c01 + m[2] * c02;
        if det == 0.0 || !det.is_finite() {
            return None;
        }
        let inv = 1.0 / det;
        Some(Matrix([
            c00 * inv,
            (m[2] * m[7] - m[1] * m[8]) * inv,
            (m[1] * m[5] - m[2] * m[4]) * inv,
            c01 * inv,
            (m[0] * m[8] - m[2] * m[6]) * inv,
            (m[2] * m[3] - m[0] * m[5]) * inv,
            c02 * inv,
            (m[1] * m[6] - m[0] * m[7]) * inv,
            (m[0] * m[4] - m[1] * m[3]) * inv,
        ]))
    }
}
