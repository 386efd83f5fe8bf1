//! A deterministic generator of realistic sprite files: one character per
//! file, a dozen to thirty states each, written the way `examples/hero.anim`
//! is: comments, loops with footstep events, ping-pong idles, jump chains
//! with sprite-category aliases (`Fall[Jump]`), attack combos with events
//! and transitions, waits, explicit sprite indices, zero-duration event
//! frames and the occasional frame list continued on the next line.
//!
//! Every generated file compiles (a test checks it).

use std::fmt::Write;

/// Seed of the corpus the suite measures.
pub const SEED: u64 = 0x5eed_a11e_cafe_f00d;
/// Size of the full corpus: at least 10 MB of source text.
pub const FULL_BYTES: usize = 10 * 1024 * 1024;

/// splitmix64: small, fast, deterministic everywhere.
#[derive(Clone, Debug)]
pub struct Rng(u64);

impl Rng {
    /// A generator from `seed`.
    pub fn new(seed: u64) -> Rng {
        Rng(seed)
    }
    /// Next 64 random bits.
    pub fn next_u64(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }
    /// Uniform in `lo..=hi`.
    pub fn range(&mut self, lo: u32, hi: u32) -> u32 {
        lo + (self.next_u64() % (hi - lo + 1) as u64) as u32
    }
    /// True with probability `p`.
    pub fn chance(&mut self, p: f64) -> bool {
        (self.next_u64() >> 11) as f64 / (1u64 << 53) as f64 <= p
    }
    /// One element of `xs`.
    pub fn pick<'a, T: ?Sized>(&mut self, xs: &[&'a T]) -> &'a T {
        xs[(self.next_u64() % xs.len() as u64) as usize]
    }
}

/// Source files: `(path, text)`.
#[derive(Clone, Debug)]
pub struct Corpus {
    /// The files, in generation order.
    pub files: Vec<(String, String)>,
}

impl Corpus {
    /// Files from `seed` until their total reaches `min_bytes`.
    pub fn generate(seed: u64, min_bytes: usize) -> Corpus {
        let mut rng = Rng::new(seed);
        let mut files = Vec::new();
        let mut total = 0;
        while total < min_bytes {
            let n = files.len();
            let kind = rng.pick(KINDS);
            let name = format!("{kind}{n:05}");
            let text = character(&mut rng, &name, kind);
            total += text.len();
            files.push((format!("corpus/{name}.anim"), text));
        }
        Corpus { files }
    }

    /// Total source bytes.
    pub fn bytes(&self) -> usize {
        self.files.iter().map(|(_, t)| t.len()).sum()
    }

    /// All sources concatenated (what `gzip -9` of the corpus compresses).
    pub fn concatenated(&self) -> Vec<u8> {
        let mut v = Vec::with_capacity(self.bytes());
        for (_, t) in &self.files {
            v.extend_from_slice(t.as_bytes());
        }
        v
    }
}

const KINDS: &[&str] = &["knight", "archer", "slime", "wizard", "robot", "bat", "ghost", "miner", "ninja", "frog"];
const ROLES: &[&str] = &[
    "the player character",
    "a patrolling enemy",
    "a boss",
    "a friendly villager",
    "a flying enemy",
    "a summoned minion",
];
const STEP_EVENTS: &[&str] = &["step", "footstep", "stepSound", "stepL", "stepR"];
const SWING_EVENTS: &[&str] = &["swingStart", "swing", "swingSound", "whoosh", "windUp"];
const HIT_EVENTS: &[&str] = &["hitFrame", "hit", "impact", "damage", "hitSound"];
const VFX: &[&str] = &["dust", "vfxRun", "sparkle", "trail", "glow", "smoke"];

fn durations(rng: &mut Rng, n: u32, lo: u32, hi: u32) -> Vec<u32> {
    let d = rng.range(lo, hi);
    (0..n).map(|_| if rng.chance(0.2) { rng.range(lo, hi) } else { d }).collect()
}

/// Writes `Name[Alias]: frames, end` with optional events, wrapping long
/// lists after a comma as people do.
fn state(out: &mut String, head: &str, frames: &[String], end: &str) {
    let _ = write!(out, "{head}: ");
    let mut col = head.len() + 2;
    for f in frames.iter().map(String::as_str).chain(std::iter::once(end)) {
        if col > 72 {
            out.push_str("\n    ");
            col = 4;
        }
        out.push_str(f);
        col += f.len();
        if f != end {
            out.push_str(", ");
            col += 2;
        }
    }
    out.push('\n');
}

fn timed(ds: &[u32], events: &[(usize, &str)]) -> Vec<String> {
    ds.iter()
        .enumerate()
        .map(|(i, d)| {
            let mut s = d.to_string();
            for (_, e) in events.iter().filter(|(k, _)| *k == i) {
                s.push('|');
                s.push_str(e);
            }
            s
        })
        .collect()
}

/// One character file.
pub fn character(rng: &mut Rng, name: &str, kind: &str) -> String {
    let mut s = String::with_capacity(2048);
    let role = rng.pick(ROLES);
    let _ = writeln!(s, "# {name}.anim: sprite states of {name}, {role} ({kind}).");
    let _ = writeln!(s, "# Durations are fixed-update ticks (50 per second); `|name` fires an event.\n");

    // Locomotion.
    let _ = writeln!(s, "# Locomotion.");
    let n = rng.range(4, 6);
    let idle: Vec<String> = timed(&durations(rng, n, 8, 20), &[]);
    let end = if rng.chance(0.5) { "_pingpong" } else { "_loop" };
    state(&mut s, "Idle", &idle, end);
    let step = rng.pick(STEP_EVENTS);
    for (st, lo, hi) in [("Walk", 5, 8), ("Run", 3, 5)] {
        let n = rng.range(4, 8);
        let evs: Vec<(usize, &str)> = (0..n as usize).filter(|i| i % 2 == 0).map(|i| (i, step)).collect();
        let end = if st == "Run" && rng.chance(0.5) { format!("_loop|{}", rng.pick(VFX)) } else { "_loop".into() };
        state(&mut s, st, &timed(&durations(rng, n, lo, hi), &evs), &end);
    }
    if rng.chance(0.5) {
        state(&mut s, "Sprint[Run]", &timed(&durations(rng, 4, 2, 3), &[(0, step), (2, step)]), "_loop");
    }
    if rng.chance(0.4) {
        state(&mut s, "Crouch", &timed(&durations(rng, 2, 3, 4), &[]), "CrouchIdle");
        state(&mut s, "CrouchIdle[Crouch]", &["30|1".to_string(), "30|2".to_string()], "_pingpong");
    }

    // Airborne: a chain through aliases, waiting for the game to land.
    let _ = writeln!(s, "\n# Jumping: take off, rise, then fall until the game says we landed.");
    let (a, b) = (rng.range(2, 4), rng.range(3, 5));
    state(
        &mut s,
        "Jump",
        &[format!("{a}|0|jumpSound"), format!("{a}|1"), format!("{b}|2")],
        if rng.chance(0.8) { "Fall" } else { "_wait" },
    );
    state(&mut s, "Fall[Jump]", &[format!("{b}|3"), format!("{b}|4")], "_wait");
    state(&mut s, "Land[Jump]", &[format!("{a}|5|landSound"), format!("{a}|6")], "Idle");
    if rng.chance(0.5) {
        state(&mut s, "DoubleJump[Jump]", &[format!("2|0|{}", rng.pick(VFX)), "2|1".into(), "3|2".into()], "Fall");
    }

    // Combat: combos that chain into each other and back to Idle.
    let _ = writeln!(s, "\n# Combat.");
    let combos = rng.range(1, 4);
    for c in 1..=combos {
        let n = rng.range(3, 6);
        let mut evs = vec![(0, rng.pick(SWING_EVENTS)), (n as usize / 2, rng.pick(HIT_EVENTS))];
        if rng.chance(0.3) {
            evs.push((n as usize - 1, "recover"));
        }
        let mut frames = timed(&durations(rng, n, 2, 5), &evs);
        if rng.chance(0.4) {
            frames.push(format!("0|attack{c}Done"));
        }
        let next = if c < combos && rng.chance(0.6) { format!("Attack{}", c + 1) } else { "Idle".into() };
        let head = if c > 1 && rng.chance(0.5) { format!("Attack{c}[Attack1]") } else { format!("Attack{c}") };
        state(&mut s, &head, &frames, &next);
    }
    if rng.chance(0.5) {
        let frames = vec![format!("4|0|{}", rng.pick(SWING_EVENTS)), "4|1".into(), "6|2|charged".into()];
        state(&mut s, "Charge", &frames, "ChargeHold");
        state(&mut s, "ChargeHold[Charge]", &["3|3".into(), "3|4".into()], "_pingpong|chargeHum");
    }
    let h = rng.range(1, 3);
    state(&mut s, "Hurt", &[format!("{h}|0|hurtSound"), format!("{h}|1"), format!("{h}|0"), format!("{h}|1")], "Idle");
    let n = rng.range(4, 7);
    let mut death = timed(&durations(rng, n, 4, 8), &[(0, "deathSound")]);
    death.push("0|dead".into());
    state(&mut s, "Death", &death, "_wait");

    // Odds and ends some characters have.
    let extras = rng.range(0, 4);
    if extras > 0 {
        let _ = writeln!(s, "\n# Extras.");
    }
    for e in 0..extras {
        match rng.range(0, 4) {
            0 => {
                let frames: Vec<String> =
                    (0..rng.range(3, 6)).map(|i| format!("{}|{}", rng.range(3, 8), i * 2)).collect();
                state(&mut s, &format!("Special{e}"), &frames, "_loop");
            }
            1 => state(&mut s, &format!("Blink{e}[Idle]"), &["40|0".into(), "2|7|blink".into()], "_loop"),
            2 => state(
                &mut s,
                &format!("Emote{e}"),
                &timed(&durations(rng, 6, 4, 10), &[(0, "emote"), (3, "laugh")]),
                "Idle",
            ),
            _ => state(
                &mut s,
                &format!("Climb{e}"),
                &timed(&durations(rng, 4, 5, 7), &[(1, "grab"), (3, "grab")]),
                "_loop",
            ),
        }
    }
    s
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn generation_is_deterministic() {
        let a = Corpus::generate(7, 20_000);
        let b = Corpus::generate(7, 20_000);
        assert_eq!(a.files, b.files);
        assert!(a.bytes() >= 20_000);
    }

    #[test]
    fn every_file_compiles() {
        let c = Corpus::generate(SEED, 300_000);
        let sources: Vec<_> =
            c.files.iter().map(|(p, t)| animkit_compiler::Source::new(p.clone(), t.clone())).collect();
        let program =
            animkit_compiler::compile_jobs(&sources, &Default::default(), 2).unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(program.modules.len(), c.files.len());
        let one = animkit_compiler::compile_jobs(&sources, &Default::default(), 1).unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(program, one, "the program does not depend on the number of threads");
    }
}
