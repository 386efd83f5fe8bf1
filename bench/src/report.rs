//! The figures of one run: JSON and a readable table.

use std::fmt::Write;

/// One measured figure.
#[derive(Clone, Debug, PartialEq)]
pub struct Figure {
    /// JSON key, e.g. `sprite_ns_per_tick_1e6`.
    pub key: String,
    /// The value.
    pub value: f64,
    /// Unit shown in the table (`ns`, `x`, `MB/s`, ...).
    pub unit: &'static str,
    /// One line saying what it is.
    pub what: String,
}

/// Every figure of a run, in the order measured.
#[derive(Clone, Debug, Default)]
pub struct Report {
    /// The figures.
    pub figures: Vec<Figure>,
}

impl Report {
    /// Adds a figure.
    pub fn add(&mut self, key: impl Into<String>, value: f64, unit: &'static str, what: impl Into<String>) {
        self.figures.push(Figure { key: key.into(), value, unit, what: what.into() });
    }

    /// The value of `key`, if measured.
    pub fn get(&self, key: &str) -> Option<f64> {
        self.figures.iter().find(|f| f.key == key).map(|f| f.value)
    }

    /// One JSON object, keys in the order measured. Non-finite values
    /// (a figure that could not be measured) are `null`.
    pub fn to_json(&self) -> String {
        let mut s = String::from("{");
        for (i, f) in self.figures.iter().enumerate() {
            if i > 0 {
                s.push_str(", ");
            }
            let _ = write!(s, "\"{}\": ", f.key);
            if f.value.is_finite() {
                let _ = write!(s, "{}", round_sig(f.value));
            } else {
                s.push_str("null");
            }
        }
        s.push('}');
        s
    }

    /// A readable table.
    pub fn to_table(&self) -> String {
        let kw = self.figures.iter().map(|f| f.key.len()).max().unwrap_or(6).max(6);
        let mut s = String::new();
        let _ = writeln!(s, "{:<kw$}  {:>12}  {:<6}  what", "figure", "value", "unit");
        let _ = writeln!(s, "{}", "-".repeat(kw + 2 + 12 + 2 + 6 + 2 + 40));
        for f in &self.figures {
            let v = if f.value.is_finite() { format!("{}", round_sig(f.value)) } else { "n/a".into() };
            let _ = writeln!(s, "{:<kw$}  {:>12}  {:<6}  {}", f.key, v, f.unit, f.what);
        }
        s
    }
}

/// Rounds to 4 significant digits (the noise of this machine is larger).
pub fn round_sig(v: f64) -> f64 {
    if v == 0.0 || !v.is_finite() {
        return v;
    }
    let mag = v.abs().log10().floor() as i32;
    let scale = 10f64.powi(3 - mag);
    (v * scale).round() / scale
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn json_is_one_object_in_order() {
        let mut r = Report::default();
        r.add("b", 1.23456, "ns", "x");
        r.add("a", f64::NAN, "x", "y");
        assert_eq!(r.to_json(), "{\"b\": 1.235, \"a\": null}");
        assert!(r.to_table().contains("n/a"));
    }
}
