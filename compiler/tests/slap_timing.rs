//! A rough timing of SLAP's front end (parse + check) over a generated
//! corpus of realistic scenes: the front half of the 30 MB/s compile
//! target. Not a benchmark (the bench crate's `slap` group measures the
//! whole compile, `compile_mb_s_slap`); ignored by default:
//!
//! ```sh
//! cargo test --release -p animkit-compiler --test compiler slap_timing:: -- --ignored --nocapture
//! ```
//!
//! Also run, un-ignored and small, as a check that every generated scene
//! checks clean.

use std::time::Instant;

/// A small deterministic generator (xorshift).
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }

    fn below(&mut self, n: u64) -> u64 {
        self.next() % n
    }

    fn pick<'a>(&mut self, items: &[&'a str]) -> &'a str {
        items[self.below(items.len() as u64) as usize]
    }
}

const ACTIONS: [&str; 12] =
    ["idle", "scamper", "swagger", "broadjump", "prowl", "lumber", "dejected", "no", "yes", "hotfeet", "sprint", "hop"];

/// One scene of about `lines` lines: the action and angle defines, named
/// actors, colours, then time points with actor and camera commands.
fn scene(rng: &mut Rng, lines: usize) -> String {
    let mut s = String::from("# generated scene\n");
    for (i, a) in ACTIONS.iter().enumerate() {
        s.push_str(&format!("define {a} {i}\n"));
    }
    s.push_str("define PI 3.1416\ndefine halfpi PI/2\ndefine left -halfpi\ndefine right halfpi\ndefine sec 30\n");
    s.push_str("define red 1 0 0\ndefine green 0 1 0\ndefine white 1 1 1\ndefine skin 0.9 0.75 0.6\n");
    let names = ["mommy", "daddy", "chick1", "chick2", "fox", "owl"];
    for (i, n) in names.iter().enumerate() {
        s.push_str(&format!("define {n} {}\n", i + 1));
    }
    s.push_str("time 0\ncamera position 0 3 12\ncamera direction 0 -0.2 -1\n");
    for n in names {
        s.push_str(&format!(
            "actor {n} position {} {}\nactor {n} color skin\nactor {n} size .9\n",
            rng.below(9),
            rng.below(5)
        ));
    }
    let mut written = s.lines().count();
    while written < lines {
        match rng.below(4) {
            0 => s.push_str(&format!("timep {}*sec\n", 1 + rng.below(4))),
            1 => s.push_str(&format!("time +{}\n", 10 + rng.below(90))),
            _ => s.push_str(&format!("timep sec/{}\n", 1 + rng.below(3))),
        }
        written += 1;
        for _ in 0..1 + rng.below(4) {
            let who = rng.pick(&names);
            let line = match rng.below(10) {
                0..=3 => format!("actor {who} action {}\n", rng.pick(&ACTIONS)),
                4 | 5 => format!(
                    "actor {who} direction {}\n",
                    rng.pick(&["left", "right", "PI/4", "-PI/2", "PI", "0", "halfpi/3"])
                ),
                6 => format!("actor {who} position {}.{} {} # teleport\n", rng.below(10), rng.below(10), rng.below(7)),
                7 => format!(
                    "actor {who} color {}\n",
                    rng.pick(&["red", "green", "white", "0.5 0.5 1", "(0.2 + 0.1) 0 1"])
                ),
                8 => format!("actor {who} size {}\n", rng.pick(&[".9", "0.6", "1.2", "(1 + 0.5)/2"])),
                _ => format!("camera position {} {} {}\n", rng.below(5), 2 + rng.below(3), 8 + rng.below(6)),
            };
            s.push_str(&line);
            written += 1;
        }
    }
    s
}

fn corpus(bytes: usize) -> Vec<String> {
    let mut rng = Rng(0x9e37_79b9_7f4a_7c15);
    let mut out = Vec::new();
    let mut total = 0;
    while total < bytes {
        let lines = 100 + rng.below(900) as usize;
        let s = scene(&mut rng, lines);
        total += s.len();
        out.push(s);
    }
    out
}

#[test]
fn generated_scenes_check_clean() {
    for src in corpus(200_000) {
        if let Err(d) = animkit_compiler::slap::front(&src) {
            panic!("{}", animkit_compiler::diagnostic::render("gen.slap", &src, &d));
        }
    }
}

#[test]
#[ignore]
fn front_end_throughput() {
    let corpus = corpus(10 << 20);
    let bytes: usize = corpus.iter().map(String::len).sum();
    for round in 0..3 {
        let start = Instant::now();
        let mut commands = 0;
        for src in &corpus {
            commands += animkit_compiler::slap::front(src).map(|c| c.ir.commands.len()).unwrap_or(0);
        }
        let parse_start = Instant::now();
        for src in &corpus {
            std::hint::black_box(animkit_grammar::slap::parse(src));
        }
        let parse = parse_start.elapsed().as_secs_f64();
        let lex_start = Instant::now();
        let mut tokens = 0;
        for src in &corpus {
            tokens += animkit_grammar::slap::lexer::tokens(src).count();
        }
        let lex = lex_start.elapsed().as_secs_f64();
        let (trees, _): (Vec<_>, Vec<_>) = corpus.iter().map(|s| animkit_grammar::slap::parse(s)).unzip();
        let check_start = Instant::now();
        for t in &trees {
            std::hint::black_box(animkit_compiler::slap::check::check(t).is_ok());
        }
        let check = check_start.elapsed().as_secs_f64();
        println!(
            "  lex alone {:.1} MB/s ({tokens} tokens), check alone {:.1} MB/s",
            bytes as f64 / 1e6 / lex,
            bytes as f64 / 1e6 / check
        );
        let all = parse_start.duration_since(start).as_secs_f64();
        println!(
            "round {round}: {} scenes, {:.1} MB, {commands} commands: parse+check {:.1} MB/s, parse alone {:.1} MB/s",
            corpus.len(),
            bytes as f64 / 1e6,
            bytes as f64 / 1e6 / all,
            bytes as f64 / 1e6 / parse
        );
    }
}

/// The front end alone over the corpus, once (for `perf stat`).
#[test]
#[ignore]
fn front_end_once() {
    let corpus = corpus(10 << 20);
    let start = Instant::now();
    let mut commands = 0;
    for src in &corpus {
        commands += animkit_compiler::slap::front(src).map(|c| c.ir.commands.len()).unwrap_or(0);
    }
    println!("{commands} commands in {:.3} s", start.elapsed().as_secs_f64());
}
