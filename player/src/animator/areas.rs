//! Named areas: polygons (kept in root coordinates, so a resize needs no
//! work) hit-tested with the even-odd rule.

use animkit_vm::engine::animator::Point;

/// The areas defined so far, in definition order.
///
/// ```
/// use animkit_player::animator::areas::Areas;
/// let mut a = Areas::default();
/// a.define("box", &[[0.0, 0.0], [1.0, 0.0], [1.0, 1.0], [0.0, 1.0]]);
/// assert_eq!(a.at([0.5, 0.5]).collect::<Vec<_>>(), ["box"]);
/// assert!(a.at([2.0, 0.5]).next().is_none());
/// let inside = a.interior_point("box").unwrap();
/// assert_eq!(a.at(inside).collect::<Vec<_>>(), ["box"]);
/// ```
#[derive(Clone, Debug, Default)]
pub struct Areas {
    list: Vec<(String, Vec<Point>)>,
}

impl Areas {
    /// Defines `name`, or redefines it in place.
    pub fn define(&mut self, name: &str, points: &[Point]) {
        match self.list.iter_mut().find(|(n, _)| n == name) {
            Some((_, p)) => *p = points.to_vec(),
            None => self.list.push((name.to_string(), points.to_vec())),
        }
    }

    /// Deletes `name`; false if there was no such area.
    pub fn delete(&mut self, name: &str) -> bool {
        let before = self.list.len();
        self.list.retain(|(n, _)| n != name);
        self.list.len() != before
    }

    /// Deletes every area.
    pub fn clear(&mut self) {
        self.list.clear();
    }

    /// Names of the areas containing `p`, in definition order.
    pub fn at(&self, p: Point) -> impl Iterator<Item = &str> {
        self.list.iter().filter(move |(_, poly)| contains(poly, p)).map(|(n, _)| n.as_str())
    }

    /// A point inside area `name`: the middle of the widest span of the
    /// polygon on the horizontal line through its vertical middle (or the
    /// first vertex of a degenerate polygon).
    pub fn interior_point(&self, name: &str) -> Option<Point> {
        let poly = &self.list.iter().find(|(n, _)| n == name)?.1;
        let first = *poly.first()?;
        let (lo, hi) = poly.iter().fold((f64::INFINITY, f64::NEG_INFINITY), |(l, h), p| (l.min(p[1]), h.max(p[1])));
        let y = (lo + hi) / 2.0;
        let mut xs: Vec<f64> = Vec::new();
        for i in 0..poly.len() {
            let (a, b) = (poly[i], poly[(i + 1) % poly.len()]);
            if (a[1] > y) != (b[1] > y) {
                xs.push(a[0] + (y - a[1]) / (b[1] - a[1]) * (b[0] - a[0]));
            }
        }
        xs.sort_by(f64::total_cmp);
        let best = xs.chunks_exact(2).max_by(|p, q| (p[1] - p[0]).total_cmp(&(q[1] - q[0])));
        Some(best.map_or(first, |s| [(s[0] + s[1]) / 2.0, y]))
    }
}

/// Even-odd point-in-polygon test.
pub fn contains(poly: &[Point], p: Point) -> bool {
    let mut inside = false;
    for i in 0..poly.len() {
        let (a, b) = (poly[i], poly[(i + 1) % poly.len()]);
        if (a[1] > p[1]) != (b[1] > p[1]) && p[0] < a[0] + (p[1] - a[1]) / (b[1] - a[1]) * (b[0] - a[0]) {
            inside = !inside;
        }
    }
    inside
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn self_intersecting_areas_hit_test_by_the_fill_rule() {
        // The renderer fills polygons even-odd (`render/fill.rs`); areas
        // take the same rule, so what is drawn empty is not in the area.
        let star: Vec<Point> = (0..5)
            .map(|i| {
                let a = f64::from(i * 2) / 5.0 * std::f64::consts::TAU + std::f64::consts::FRAC_PI_2;
                [a.cos(), a.sin()]
            })
            .collect();
        assert!(!contains(&star, [0.0, 0.0]), "the pentagram's centre");
        assert!(contains(&star, [0.0, 0.8]), "an arm");
        // An outer square, then an inner one wound the same way.
        let overlap =
            [[-2.0, -2.0], [2.0, -2.0], [2.0, 2.0], [-2.0, 2.0], [-1.0, -1.0], [1.0, -1.0], [1.0, 1.0], [-1.0, 1.0]];
        assert!(!contains(&overlap, [0.0, 0.0]), "the hole");
        assert!(contains(&overlap, [1.5, 0.0]));
    }
}
