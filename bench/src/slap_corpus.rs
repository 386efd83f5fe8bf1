//! A deterministic generator of realistic SLAP scenes, written the way
//! `examples/story.slap` is: a comment header, the twelve action defines,
//! `PI` and angles derived from it, colours of three values, actors named
//! by defines (three to a dozen), a camera, then the story: `time`,
//! `time +`, `timep` with fractions of a second (`timep sec/2`), actors
//! turning, walking, running and stopping, teleporting with two- or
//! three-value positions, changing colour and size, the camera moving, and
//! comments on their own lines and after commands. Half of the scenes take
//! PI and the actions from `include <polly>`, and some use the extensions
//! (functions in positions and sizes, `camera lookat`, `camera follow`), so
//! the compile figures cover them; no scene includes a file of its own (the
//! corpus lives in memory).
//!
//! Every generated scene compiles without errors or warnings (a test checks
//! it). The compile and bundle figures of the `slap` group use it.

use crate::corpus::Rng;
use std::fmt::Write;

/// Seed of the SLAP corpus the suite measures.
pub const SEED: u64 = 0x51a9_5ce7_e5ca_11ed;

/// SLAP scene files: `(path, text)`.
#[derive(Clone, Debug)]
pub struct SlapCorpus {
    /// The files, in generation order.
    pub files: Vec<(String, String)>,
}

impl SlapCorpus {
    /// Scenes from `seed` until their total reaches `min_bytes`.
    pub fn generate(seed: u64, min_bytes: usize) -> SlapCorpus {
        let mut rng = Rng::new(seed);
        let mut files = Vec::new();
        let mut total = 0;
        while total < min_bytes {
            let name = format!("scene{:05}", files.len());
            let text = scene(&mut rng, &name);
            total += text.len();
            files.push((format!("corpus/{name}.slap"), text));
        }
        SlapCorpus { files }
    }

    /// Total source bytes.
    pub fn bytes(&self) -> usize {
        self.files.iter().map(|(_, t)| t.len()).sum()
    }

    /// All sources concatenated (what `gzip -9` of the corpus compresses).
    pub fn concatenated(&self) -> Vec<u8> {
        self.files.iter().flat_map(|(_, t)| t.bytes()).collect()
    }
}

const ACTIONS: [&str; 12] =
    ["idle", "scamper", "swagger", "broadjump", "prowl", "lumber", "dejected", "no", "yes", "hotfeet", "sprint", "hop"];
/// Actions that move, and the ones that stay in place.
const MOVING: &[&str] = &["scamper", "swagger", "broadjump", "prowl", "lumber", "dejected", "sprint", "hop"];
const STILL: &[&str] = &["idle", "no", "yes", "hotfeet"];
const NAMES: &[&str] =
    &["mommy", "daddy", "chick1", "chick2", "chick3", "fox", "owl", "duck", "goose", "hen", "rooster", "crow"];
const COLORS: &[(&str, &str)] = &[
    ("white", "1 1 1"),
    ("yellow", "1 0.9 0.2"),
    ("orange", "1 (0.5 + 0.05) 0"),
    ("rust", "0.7 0.25 0.05"),
    ("brown", "0.45 0.3 0.15"),
    ("grey", "0.5 0.5 0.5"),
    ("black", "0.1 0.1 0.1"),
];
const HEADINGS: &[&str] = &["right", "left", "away", "towards", "PI/4", "-PI/4", "3*PI/4", "halfpi/2", "-halfpi/3"];
const COMMENTS: &[&str] = &[
    "everyone waits",
    "the chase begins",
    "a look around",
    "back home",
    "the fox gives up",
    "lunch time",
    "a short rest",
    "they meet again",
];

/// A number with one or two decimals, as people write them.
fn decimal(rng: &mut Rng, lo: i32, hi: i32) -> String {
    let whole = lo + rng.range(0, (hi - lo) as u32) as i32;
    match rng.range(0, 3) {
        0 => whole.to_string(),
        1 => format!("{whole}.{}", rng.range(1, 9)),
        _ => format!("{whole}.{:02}", rng.range(1, 99)),
    }
}

/// One scene: header, defines, the cast, then the story.
pub fn scene(rng: &mut Rng, name: &str) -> String {
    let mut s = String::with_capacity(16 * 1024);
    if rng.chance(0.5) {
        let _ = writeln!(s, "# {name}: a generated SLAP scene\ninclude <polly>   # PI and the twelve actions");
        s.push_str("\ndefine halfpi PI/2\ndefine right halfpi   # +x\n");
    } else {
        let _ = writeln!(s, "# {name}: a generated SLAP scene\n# Polly's actions.");
        for (i, a) in ACTIONS.iter().enumerate() {
            let _ = writeln!(s, "define {a} {i}");
        }
        s.push_str("\ndefine PI 3.14159265358979\ndefine halfpi PI/2\ndefine right halfpi   # +x\n");
    }
    s.push_str("define left -halfpi\ndefine away PI\ndefine towards 0\ndefine sec 30   # frames per second\n\n");
    for (c, rgb) in COLORS {
        let _ = writeln!(s, "define {c} {rgb}");
    }
    let cast = rng.range(3, NAMES.len() as u32) as usize;
    let start = rng.range(0, (NAMES.len() - cast) as u32) as usize;
    let cast = &NAMES[start..start + cast];
    s.push_str("\n# The cast.\n");
    for (i, who) in cast.iter().enumerate() {
        let _ = writeln!(s, "define {who} {}", i + 1);
    }
    s.push_str("\ntime 0\n");
    let _ = writeln!(s, "camera position 0 {} {}", rng.range(2, 5), rng.range(8, 14));
    s.push_str("camera direction 0 -0.2 -1\n");
    for who in cast {
        if rng.chance(0.3) {
            // On a circle, as scenes place a ring of actors.
            let (r, a) = (rng.range(2, 6), rng.pick(&["PI/5", "2*PI/3", "-PI/7", "halfpi/3", "atan2(1, 2)"]));
            let _ = writeln!(s, "actor {who} position {r}*cos({a}) {r}*sin({a})");
        } else {
            let _ = writeln!(s, "actor {who} position {} {}", decimal(rng, -6, 6), decimal(rng, -4, 4));
        }
        let _ = writeln!(s, "actor {who} color {}", COLORS[rng.range(0, COLORS.len() as u32 - 1) as usize].0);
        let _ = writeln!(s, "actor {who} size {}", rng.pick(&[".9", "1", "0.6", ".75", "1.2"]));
        let _ = writeln!(s, "actor {who} direction {}", rng.pick(HEADINGS));
        let _ = writeln!(s, "actor {who} action idle");
    }
    let scenes = rng.range(20, 120);
    let mut now = 0u32;
    for _ in 0..scenes {
        s.push('\n');
        if rng.chance(0.3) {
            let _ = writeln!(s, "# {}", rng.pick(COMMENTS));
        }
        match rng.range(0, 5) {
            0 => {
                now += 30 * rng.range(1, 6);
                let _ = writeln!(s, "time {now}");
            }
            1 => {
                let d = rng.range(5, 200);
                now += d;
                let _ = writeln!(s, "time +{d}   # {d} frames later");
            }
            2 => {
                let k = rng.range(1, 4);
                now += 30 * k;
                let _ = writeln!(s, "timep {k}*sec");
            }
            3 => {
                now += 15;
                s.push_str("timep sec/2\n");
            }
            _ => {
                let d = rng.range(1, 90);
                now += d;
                let _ = writeln!(s, "time +{d}");
            }
        }
        for _ in 0..rng.range(1, 6) {
            let who = rng.pick(cast);
            match rng.range(0, 11) {
                0..=2 => {
                    let _ = writeln!(s, "actor {who} direction {}", rng.pick(HEADINGS));
                    let _ = writeln!(s, "actor {who} action {}", rng.pick(MOVING));
                }
                3 | 4 => {
                    let _ = writeln!(s, "actor {who} action {}", rng.pick(STILL));
                }
                5 => {
                    let _ = writeln!(s, "actor {who} action {} # off it goes", rng.pick(MOVING));
                }
                6 => {
                    let (x, z) = (decimal(rng, -8, 8), decimal(rng, -8, 8));
                    let _ = if rng.chance(0.5) {
                        writeln!(s, "actor {who} position {x} {z}")
                    } else {
                        writeln!(s, "actor {who} position {x} {} {z}   # up in the air", decimal(rng, 0, 2))
                    };
                }
                7 => {
                    let _ = if rng.chance(0.6) {
                        writeln!(s, "actor {who} color {}", COLORS[rng.range(0, COLORS.len() as u32 - 1) as usize].0)
                    } else {
                        writeln!(s, "actor {who} color {} 0.{} 0.{}", rng.range(0, 1), rng.range(1, 9), rng.range(1, 9))
                    };
                }
                8 => {
                    let _ = writeln!(
                        s,
                        "actor {who} size {}",
                        rng.pick(&["0.8", "1.1", "(1 + 0.25)/2", ".5", "2", "max(0.5, abs(sin(PI/9)))", "sqrt(2)"])
                    );
                }
                9 => {
                    let _ =
                        writeln!(s, "camera position {} {} {}", decimal(rng, -4, 4), rng.range(1, 6), rng.range(6, 16));
                    if rng.chance(0.4) {
                        // The camera stands at least 1 above the ground, so
                        // a point on it is never where it stands.
                        let _ = writeln!(s, "camera lookat {} 0 {}", decimal(rng, -4, 4), decimal(rng, -4, 4));
                    }
                }
                10 if rng.chance(0.3) => {
                    let _ = if rng.chance(0.5) {
                        writeln!(s, "camera follow {who}")
                    } else {
                        writeln!(s, "camera follow {who} {} {}", rng.range(4, 9), decimal(rng, 1, 3))
                    };
                }
                _ => {
                    let _ = if rng.chance(0.5) {
                        writeln!(s, "camera direction {} -0.{} -1", decimal(rng, -1, 1), rng.range(1, 5))
                    } else {
                        writeln!(
                            s,
                            "camera direction {} -PI/{}",
                            rng.pick(&["0", "PI/8", "-PI/8", "PI/12"]),
                            rng.range(8, 24)
                        )
                    };
                }
            }
        }
    }
    let _ = writeln!(s, "\n# The end.\ntime +{}", rng.range(30, 120));
    for who in cast {
        let _ = writeln!(s, "actor {who} action idle");
    }
    s
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_scene_compiles_clean_and_generation_is_deterministic() {
        let c = SlapCorpus::generate(SEED, 400_000);
        assert_eq!(c.files, SlapCorpus::generate(SEED, 400_000).files);
        let sources: Vec<_> =
            c.files.iter().map(|(p, t)| animkit_compiler::Source::new(p.clone(), t.clone())).collect();
        let compiled =
            animkit_compiler::compile_with_warnings(&sources, &Default::default()).unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(compiled.warning_count(), 0, "{}", compiled.render_warnings());
        assert_eq!(compiled.program.modules.len(), c.files.len());
        // Realistic: defines, several actors, both time forms and timep,
        // every attribute, both camera forms, comments.
        let all = String::from_utf8(c.concatenated()).unwrap();
        for needle in [
            "timep sec/2",
            "time +",
            "timep 2*sec",
            "position",
            "color yellow",
            "size (1 + 0.25)/2",
            "camera direction 0 -0.",
            "camera direction PI/8 -PI/",
            "# up in the air",
            "action sprint",
            "include <polly>",
            "*cos(",
            "size max(0.5, abs(sin(PI/9)))",
            "camera lookat ",
            "camera follow ",
        ] {
            assert!(all.contains(needle), "{needle}");
        }
    }
}
