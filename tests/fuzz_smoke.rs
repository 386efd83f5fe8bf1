//! The fuzz smoke run, on stable: the four fuzz targets' bodies
//! (`fuzz/src/targets.rs`, the same code `cargo +nightly fuzz run` drives)
//! fed the seed corpus and deterministic random mutations of it: bit
//! flips, interesting bytes, truncations, deleted and repeated ranges,
//! splices of two seeds, and tokens each language finds interesting
//! (keywords, huge and non-finite numbers, quotes, comments, macro
//! structure). Bundle mutations get their checksum fixed most of the time
//! so that they reach the decoder and the verifier.
//!
//! `FUZZ_SMOKE_ITERS=N` sets the mutations per target (by default 150 000,
//! 100 000, 20 000 and 40 000: about 10, 10, 25 and 15 seconds in a debug
//! build on one core), `FUZZ_SMOKE_SEED=S` the random seed. `cargo test -p animkit-tests --test toolchain -- --ignored fuzz_smoke::regenerate_corpus`
//! rewrites `fuzz/corpus/<target>/seed-*` from the sources listed below.
//! A failure prints the input (as a byte string) and its file under
//! `target/fuzz-smoke/`; `cargo +nightly fuzz run TARGET FILE` replays it.

use crate::common;
use crate::targets;

use animkit_compiler::{Options, Source, compile};
use animkit_test_support::alloc::measure;
use animkit_vm::engine::codec;
use std::path::PathBuf;

/// Decodes `data` (with its header's length and checksum fixed, as the
/// target does) and panics if that allocated more than a small multiple of
/// its size: a length the payload cannot hold must never be allocated.
fn decode_allocates_in_proportion(data: &[u8]) {
    let mut fixed = data.to_vec();
    codec::reseal(&mut fixed, codec::Reseal::LengthAndChecksum);
    // The bytes this thread allocates while decoding (the binary's counting
    // allocator, `animkit_test_support::alloc`).
    let (result, stats) = measure(|| codec::decode(&fixed));
    let allocated = stats.bytes;
    let bound = 64 * fixed.len() + (64 << 10);
    assert!(
        allocated <= bound,
        "decoding a {}-byte bundle allocated {allocated} bytes, more than {bound} ({:?})",
        fixed.len(),
        result.map(|_| "decoded")
    );
}

/// Sources every seed set starts from: the examples and the tests' inputs.
fn source_files(ext: &str) -> Vec<(String, Vec<u8>)> {
    let mut files = Vec::new();
    for dir in ["examples", "tests/ui/sprite", "tests/ui/animator", "tests/ui/slap", "tests/golden/animator"] {
        let Ok(entries) = std::fs::read_dir(common::path(dir)) else { continue };
        let mut paths: Vec<PathBuf> = entries.flatten().map(|e| e.path()).collect();
        paths.sort();
        for p in paths {
            if p.extension().is_some_and(|e| e == ext) {
                // Named by the path from the repository root, as the
                // committed corpus's `seed-*` files are.
                let name = p.strip_prefix(common::root()).unwrap_or(&p).to_string_lossy().replace(['/', '\\'], "_");
                files.push((name, std::fs::read(&p).unwrap()));
            }
        }
    }
    files
}

const SPRITE_SNIPPETS: &[&str] = &[
    "Idle: 5, _loop\n",
    "Walk[Move]: 2|step, 2, 2|step, 2, _loop\nRun[Move]: 1|3, 1, _pingpong\n",
    "A: 0|x, B\nB: 3|y|z, 0|w, _wait\n",
    "Hit: 1|7|_wait\n",
    "# comment\nA: 1,\n  2, 3|1|e, _pingpong|turn\n",
];

const ANIMATOR_SNIPPETS: &[&str] = &[
    "macro m\ncolor red\nline 0 0 1 1\nendmacro\ninvoke m\ninvoke 0.5 0.5 m\nviewport aspect m\nforget\n",
    "macro push m\nendmacro\nmacro push m\ndot 1 2\nendmacro\ninvoke m\n",
    "image 4 4 img\ncolormap x red\nimage_set img 0 0 xx.x\nimgpoly 0 0 1 0 0 1 img 0 0 1 0 1 1\nblit left top 0 0 img\n",
    "area a 0 0 1 0 1 1\nwarp area a\ndelarea a\nkillareas\nechopt \"p\" 1 2 3 4 .\n",
    "push\nrotate 30\nscale 2\nshift 1 -1\nmult 1 0 0 0 1 0 0 0 1\npop\nident\nclip 0 0 - 1 1\n",
    "text center top 0 0 \"hi \\\"there\\\"\"\nthick 3\ndash 0xff0f\nalpha .5\ncircle 0 0 1 12\n",
    "resize 100 80\ntitle t\nevents on\nkeepalive off\naspect off\nsleep 0\nflushdelay 0.01\nframe\nflush\n",
    "defcursor c 0000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000 0000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000 0 0\nsetcursor c\nquit\n",
];

const SLAP_SNIPPETS: &[&str] = &[
    "define PI 3.1416\ndefine halfpi PI/2\ndefine left -halfpi\nactor 1 direction left\n",
    "define red 1 0 0\ndefine pale red\nactor 1 color pale\nactor 2 color 1 (0.5 + 0.05) 0\n",
    "time 0.4\nactor 1 size .9\ntime +0.4\ntimep 0.4\ntime +(a + 1)*2\ntime 2.5\n",
    "define sec 30\ntimep sec/2\ntimep 2*sec\ntime 500\ntime 10 # back: a warning\n",
    "define mommy 1\nactor mommy position 1 2\nactor mommy position 1 2 3\nactor mommy action 2\nactor mommy size 0.5\n",
    "camera position 0 3 12\ncamera direction 0 -0.2 -1\ncamera direction PI/4 -0.1\n",
    "define x 1\ndefine x x+1\ndefine color 5\nactor x color color color color\n",
    "actor 1 size --2*-3/(1 - 2)\nactor 4294967295 action 11\ntime 16777215\n",
    "define PI 3.14159265358979\ndefine sprint 10\nactor 3 direction PI/2\nactor 3 action sprint\ntime 12.5\n\
     actor 3 direction -PI/4\ncamera direction 0.3 -0.1\ntime 4\nactor 3 position 1 0.5 -2\ntime +20\nactor 3 action 0\n",
    "define spot 2 (0.5 + 0.25)\ndefine high 1 2 3\nactor 0 position spot\nactor 7 position high\nactor 7 color high\n\
     actor 0 action 11\n\ttime\t3 # tab\r\nactor 0 action 11\nactor 7 action 1\ntimep 2.5\nactor 7 size 1/3\n",
    "actor 1 action 1\nactor 2 action 2\nactor 3 action 3\nactor 4 action 4\nactor 5 action 5\nactor 6 action 6\n\
     actor 7 action 7\nactor 8 action 8\nactor 9 action 9\ntime 30\nactor 1 action 10\nactor 2 size 1e-3\ntime 60\n",
];

/// The seed corpus of each target, by file name.
fn seeds(target: &str) -> Vec<(String, Vec<u8>)> {
    let mut out = Vec::new();
    match target {
        "sprite_front" => {
            out.extend(source_files("anim"));
            out.extend(
                SPRITE_SNIPPETS.iter().enumerate().map(|(i, s)| (format!("snippet{i}.anim"), s.as_bytes().to_vec())),
            );
        }
        "animator_front" => {
            let mut sources = source_files("draw");
            sources.extend(
                ANIMATOR_SNIPPETS.iter().enumerate().map(|(i, s)| (format!("snippet{i}.draw"), s.as_bytes().to_vec())),
            );
            // The first byte chooses the chunking: whole, and in pieces.
            for (name, text) in sources {
                for seed in [0u8, 7] {
                    let mut bytes = vec![seed];
                    bytes.extend_from_slice(&text);
                    out.push((format!("{name}.{seed}"), bytes));
                }
            }
        }
        "slap_front" => {
            out.extend(source_files("slap"));
            out.extend(
                SLAP_SNIPPETS.iter().enumerate().map(|(i, s)| (format!("snippet{i}.slap"), s.as_bytes().to_vec())),
            );
        }
        "load_bundle" => {
            let mut sources = source_files("anim");
            sources.extend(source_files("draw"));
            sources.extend(
                SPRITE_SNIPPETS.iter().enumerate().map(|(i, s)| (format!("snippet{i}.anim"), s.as_bytes().to_vec())),
            );
            sources.extend(
                ANIMATOR_SNIPPETS.iter().enumerate().map(|(i, s)| (format!("snippet{i}.draw"), s.as_bytes().to_vec())),
            );
            sources.extend(source_files("slap"));
            sources.extend(
                SLAP_SNIPPETS.iter().enumerate().map(|(i, s)| (format!("snippet{i}.slap"), s.as_bytes().to_vec())),
            );
            let mut good = Vec::new();
            for (name, text) in sources {
                let ext = [".anim", ".slap"].into_iter().find(|e| name.ends_with(e)).map_or("draw", |e| &e[1..]);
                let source = Source::new(format!("{name}.{ext}"), String::from_utf8_lossy(&text));
                // SLAP scenes also without constant folding: their bundles
                // then hold arithmetic for the VM.
                let folds: &[bool] = if ext == "slap" { &[true, false] } else { &[true] };
                for (strip, &fold) in [false, true].into_iter().flat_map(|s| folds.iter().map(move |f| (s, f))) {
                    if let Ok(p) = compile(std::slice::from_ref(&source), &Options { strip, fold, strict: false }) {
                        let how = format!("{}{}", if strip { ".strip" } else { "" }, if fold { "" } else { ".nofold" });
                        out.push((format!("{name}{how}.animb"), codec::encode(&p)));
                        good.push(source.clone());
                    }
                }
            }
            // One bundle of several modules.
            good.dedup_by(|a, b| a.path == b.path);
            good.truncate(6);
            if let Ok(p) = compile(&good, &Options::default()) {
                out.push(("several.animb".into(), codec::encode(&p)));
            }
        }
        _ => unreachable!("{target}"),
    }
    out
}

/// The committed corpus of a target (seeds plus whatever was added), if any.
fn corpus(target: &str) -> Vec<(String, Vec<u8>)> {
    let dir = common::path("fuzz/corpus").join(target);
    let Ok(entries) = std::fs::read_dir(&dir) else { return Vec::new() };
    let mut files: Vec<(String, Vec<u8>)> = entries
        .flatten()
        .filter(|e| e.path().is_file())
        .map(|e| (e.file_name().to_string_lossy().into_owned(), std::fs::read(e.path()).unwrap()))
        .collect();
    files.sort();
    files
}

/// SplitMix64: small, deterministic, good enough to pick mutations.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }
    fn below(&mut self, n: usize) -> usize {
        if n == 0 { 0 } else { (self.next() % n as u64) as usize }
    }
    fn pick<'a, T>(&mut self, items: &'a [T]) -> &'a T {
        &items[self.below(items.len())]
    }
}

const COMMON_TOKENS: &[&str] = &[
    "\n",
    " ",
    "\"",
    "\\",
    "!",
    "#",
    "-",
    ".",
    ",",
    "|",
    ":",
    "0",
    "1",
    "-1",
    "65535",
    "65536",
    "2147483647",
    "4294967296",
    "16777215",
    "16777216",
    "1e309",
    "-1e309",
    "inf",
    "nan",
    "-0",
    "0x7fffffff",
    "1.5",
    ".5",
    "5.",
    "9999999999999999999999",
    "\u{0}",
    "\u{fffd}",
    "é",
    "\r\n",
    "\t",
];

const SPRITE_TOKENS: &[&str] = &[
    "_loop",
    "_wait",
    "_pingpong",
    "Idle",
    "[",
    "]",
    ": ",
    "|e",
    ", ",
    "_x",
    "A: 1, A\n",
    ", 3",
    ", 0|e",
    ", 2|7|go",
    "\nB: 1, _loop\n",
    "\nC[Idle]: 0, A\n",
    " # note\n",
];

const ANIMATOR_TOKENS: &[&str] = &[
    "macro m\n",
    "macro push m\n",
    "endmacro\n",
    "invoke m\n",
    "invoke 1 2 m\n",
    "forget\n",
    "viewport m\n",
    "viewport aspect m\n",
    "push\n",
    "pop\n",
    "frame\n",
    "flush\n",
    "quit\n",
    "lines 0 0 1 1 2 2",
    "poly 0 0 1 0 1 1",
    "circle 0 0 1 65536\n",
    "image 8192 8192 i\n",
    "image_set i 0 0 ",
    "colormap x ",
    "text 0 0 ",
    "echo ",
    "sleep 0\n",
    "area a 0 0 1 0 1 1\n",
    "rect 0 0 - 1 1\n",
    "color #fff\n",
    "color 1 0 0\n",
    "left",
    "top",
    "on",
    "off",
];

const SLAP_TOKENS: &[&str] = &[
    "define ",
    "define x ",
    "define red 1 0 0\n",
    "time ",
    "time +",
    "timep ",
    "actor ",
    "actor 1 ",
    "camera ",
    "camera direction ",
    "camera position ",
    "action ",
    "direction ",
    "position ",
    "color ",
    "size ",
    "red",
    "PI",
    "x",
    "(",
    ")",
    "( ",
    " )",
    "+",
    "*",
    "/",
    "/0",
    "*1e308",
    "--",
    "-(",
    "((((((((((((((((((((((((((((((((",
    "1e400",
    "1e-400",
    "4294967295",
    "16777215",
    "0.5",
    ".5",
    "2.5",
    "11",
    "12",
    " # c\n",
    "\ntime +10\n",
    "\nactor 1 action 2\n",
];

/// One random change to `data` (`others`: seeds to splice with).
fn mutate(rng: &mut Rng, data: &mut Vec<u8>, others: &[(String, Vec<u8>)], tokens: &[&str]) {
    let len = data.len();
    match rng.below(9) {
        0 if len > 0 => {
            let i = rng.below(len);
            data[i] ^= 1 << rng.below(8);
        }
        1 if len > 0 => {
            let i = rng.below(len);
            data[i] = *rng.pick(&[0u8, 1, 0x7f, 0x80, 0xfe, 0xff, b'"', b'\n', b'9']);
        }
        2 => data.truncate(rng.below(len + 1)),
        3 if len > 0 => {
            let a = rng.below(len);
            let b = (a + 1 + rng.below(16.min(len - a))).min(len);
            data.drain(a..b);
        }
        4 if len > 0 => {
            let a = rng.below(len);
            let b = (a + 1 + rng.below(64.min(len - a))).min(len);
            let piece = data[a..b].to_vec();
            let at = rng.below(len + 1);
            for _ in 0..1 + rng.below(4) {
                data.splice(at..at, piece.iter().copied());
            }
        }
        5 if !others.is_empty() => {
            let other = &rng.pick(others).1;
            let cut = rng.below(len + 1);
            let from = rng.below(other.len() + 1);
            data.truncate(cut);
            data.extend_from_slice(&other[from..]);
        }
        6 | 7 => {
            let token =
                if rng.below(2) == 0 || tokens.is_empty() { *rng.pick(COMMON_TOKENS) } else { *rng.pick(tokens) };
            let at = rng.below(len + 1);
            data.splice(at..at, token.bytes());
        }
        _ if len > 0 => {
            // A number rewritten: the run of digits at a random place.
            let i = rng.below(len);
            let (mut a, mut b) = (i, i);
            while a > 0 && data[a - 1].is_ascii_digit() {
                a -= 1;
            }
            while b < len && data[b].is_ascii_digit() {
                b += 1;
            }
            let n = *rng.pick(&["0", "4294967295", "16777216", "99999999999999999999", "1e400", "65537"]);
            data.splice(a..b, n.bytes());
        }
        _ => data.push(rng.next() as u8),
    }
}

/// Reads a bincode varint at `*i`.
fn bincode_varint(bytes: &[u8], i: &mut usize) -> Option<u64> {
    let tag = *bytes.get(*i)?;
    let width = match tag {
        0..=250 => {
            *i += 1;
            return Some(tag as u64);
        }
        251 => 2,
        252 => 4,
        253 => 8,
        _ => return None,
    };
    let raw = bytes.get(*i + 1..*i + 1 + width)?;
    let mut b = [0u8; 8];
    b[..width].copy_from_slice(raw);
    *i += 1 + width;
    Some(u64::from_le_bytes(b))
}

/// Where the payload of `bundle` keeps its lengths and counts (offsets in
/// `bundle`): the string table's count and each string's length, the
/// constant pool's, the module list's count, each module's function count,
/// each function's code and debug lines, each module's states and source
/// path, following the records of `vm/src/codec/mod.rs`. `None` once the
/// bytes stop following them (an input mutated already).
fn length_fields(bundle: &[u8]) -> Option<Vec<usize>> {
    let mut at = Vec::new();
    let mut i = codec::HEADER_LEN;
    let bytes = |i: &mut usize, at: &mut Vec<usize>| -> Option<()> {
        at.push(*i);
        let n = bincode_varint(bundle, i)? as usize;
        *i = i.checked_add(n).filter(|&e| e <= bundle.len())?;
        Some(())
    };
    let count = |i: &mut usize, at: &mut Vec<usize>| -> Option<u64> {
        at.push(*i);
        bincode_varint(bundle, i).filter(|&n| n <= bundle.len() as u64)
    };
    for _ in 0..count(&mut i, &mut at)? {
        bytes(&mut i, &mut at)?;
    }
    bytes(&mut i, &mut at)?;
    for _ in 0..count(&mut i, &mut at)? {
        bincode_varint(bundle, &mut i)?; // name
        i += 1; // language
        for _ in 0..count(&mut i, &mut at)? {
            bincode_varint(bundle, &mut i)?; // name
            i += 1; // nregs
            bytes(&mut i, &mut at)?; // code
            bincode_varint(bundle, &mut i)?; // const_start
            bincode_varint(bundle, &mut i)?; // const_len
            bytes(&mut i, &mut at)?; // debug lines
        }
        bytes(&mut i, &mut at)?; // states
        if *bundle.get(i)? == 1 {
            i += 1;
            bincode_varint(bundle, &mut i)?; // entry
        } else {
            i += 1;
        }
        if *bundle.get(i)? == 1 {
            i += 1;
            match bincode_varint(bundle, &mut i)? {
                0 | 2 => bytes(&mut i, &mut at)?, // Path, InDir
                _ => {}
            }
        } else {
            i += 1;
        }
    }
    Some(at)
}

/// A length from 1 MiB to 256 MiB, the range only the bytes present can
/// tell a lie in, as bincode writes it.
fn claimed_length(rng: &mut Rng) -> Vec<u8> {
    const EDGES: [u32; 6] = [1 << 20, (1 << 20) + 1, 64 << 20, 200 << 20, (256 << 20) - 1, 256 << 20];
    let n = if rng.below(2) == 0 { *rng.pick(&EDGES) } else { (1 << 20) + rng.below(255 << 20) as u32 };
    [vec![0xfc], n.to_le_bytes().to_vec()].concat()
}

/// Bundles: mutate inside the payload now and then, and fix the checksum
/// most of the time.
fn mutate_bundle(rng: &mut Rng, data: &mut Vec<u8>, others: &[(String, Vec<u8>)]) {
    let fields = if rng.below(4) == 0 { length_fields(data).filter(|f| !f.is_empty()) } else { None };
    if let Some(fields) = fields {
        // A length or count that claims 1 MiB to 256 MiB.
        let i = *rng.pick(&fields);
        let mut end = i;
        bincode_varint(data, &mut end);
        data.splice(i..end.max(i + 1).min(data.len()), claimed_length(rng));
    } else if data.len() > codec::HEADER_LEN && rng.below(3) == 0 {
        // A varint-sized field: write a huge LEB128 / bincode length.
        let i = codec::HEADER_LEN + rng.below(data.len() - codec::HEADER_LEN);
        const HUGE: [&[u8]; 4] =
            [&[0xfb, 0xff, 0xff], &[0xfc, 0xff, 0xff, 0xff, 0x7f], &[0xfd, 0, 0, 0, 0, 0, 0, 0, 1], &[0xff; 9]];
        let huge = *rng.pick(&HUGE);
        let end = (i + huge.len()).min(data.len());
        data.splice(i..end, huge.iter().copied());
    } else {
        mutate(rng, data, others, &[]);
    }
    if rng.below(10) < 8 {
        let what = if rng.below(4) != 0 { codec::Reseal::LengthAndChecksum } else { codec::Reseal::Checksum };
        codec::reseal(data, what);
    }
}

fn iterations(default: usize) -> usize {
    std::env::var("FUZZ_SMOKE_ITERS").ok().and_then(|v| v.parse().ok()).unwrap_or(default)
}

/// Runs `body` on one input; on a panic, saves the input and fails with it.
fn run_one(target: &str, body: fn(&[u8]), input: &[u8], what: &str) {
    if let Err(e) = std::panic::catch_unwind(|| body(input)) {
        let dir = common::path("target/fuzz-smoke").join(target);
        let _ = std::fs::create_dir_all(&dir);
        let file = dir.join(format!("crash-{:016x}", fnv(input)));
        let _ = std::fs::write(&file, input);
        let message = e.downcast_ref::<String>().cloned().or_else(|| e.downcast_ref::<&str>().map(|s| s.to_string()));
        let shown: String = input.escape_ascii().to_string().chars().take(2000).collect();
        panic!(
            "{target} failed on {what} (saved as {}): {}\ninput: b\"{shown}\"",
            file.display(),
            message.unwrap_or_default()
        );
    }
}

fn fnv(bytes: &[u8]) -> u64 {
    bytes.iter().fold(0xcbf2_9ce4_8422_2325u64, |h, &b| (h ^ b as u64).wrapping_mul(0x0100_0000_01b3))
}

fn smoke(target: &str, body: fn(&[u8]), default_iterations: usize) {
    let mut inputs = seeds(target);
    inputs.extend(corpus(target));
    assert!(inputs.len() >= 5, "{target}: too few seeds");
    for (name, data) in &inputs {
        run_one(target, body, data, &format!("seed {name}"));
        if target == "load_bundle" {
            run_one(target, decode_allocates_in_proportion, data, &format!("seed {name}"));
        }
    }
    let seed = std::env::var("FUZZ_SMOKE_SEED").ok().and_then(|v| v.parse().ok()).unwrap_or(0x5eed);
    let mut rng = Rng(seed ^ fnv(target.as_bytes()));
    let tokens = match target {
        "sprite_front" => SPRITE_TOKENS,
        "slap_front" => SLAP_TOKENS,
        _ => ANIMATOR_TOKENS,
    };
    for i in 0..iterations(default_iterations) {
        let (name, base) = rng.pick(&inputs);
        let mut data = base.clone();
        // Mostly one or two changes, so that many inputs still get far.
        let changes = [1, 1, 1, 2, 2, 3, 4, 8][rng.below(8)];
        for _ in 0..changes {
            if target == "load_bundle" {
                mutate_bundle(&mut rng, &mut data, &inputs);
            } else {
                mutate(&mut rng, &mut data, &inputs, tokens);
            }
        }
        run_one(target, body, &data, &format!("mutation {i} of {name}"));
        if target == "load_bundle" {
            run_one(target, decode_allocates_in_proportion, &data, &format!("mutation {i} of {name}"));
        }
    }
}

#[test]
fn length_fields_are_found_in_every_seed_bundle() {
    // The walk follows the records, so the mutation above reaches every
    // length field: in a bundle of one Animator module with debug info,
    // the string table (its count and each string), the pool, the module
    // list, the module's functions, each function's code and lines, the
    // states and the source path.
    let source = Source::new("dir/m.draw", "macro a\nline 0 0 1 1\nendmacro\ninvoke a\n");
    let program = compile(&[source], &Options::default()).unwrap();
    let bundle = codec::encode(&program);
    let fields = length_fields(&bundle).unwrap();
    let functions = program.modules[0].functions.len();
    assert_eq!(fields.len(), 1 + program.strings.len() + 1 + 1 + 1 + 2 * functions + 1 + 1, "{fields:?}");
    for (name, data) in seeds("load_bundle") {
        assert!(length_fields(&data).is_some_and(|f| f.len() >= 5), "{name}");
    }
    // Each claims 1 MiB to 256 MiB and is reported, not allocated.
    let mut rng = Rng(1);
    for &i in &fields {
        let mut lie = bundle.clone();
        let mut end = i;
        bincode_varint(&lie, &mut end);
        lie.splice(i..end, claimed_length(&mut rng));
        decode_allocates_in_proportion(&lie);
    }
}

#[test]
fn load_bundle() {
    smoke("load_bundle", targets::load_bundle, 150_000);
}

#[test]
fn sprite_front() {
    smoke("sprite_front", targets::sprite_front, 100_000);
}

#[test]
fn animator_front() {
    smoke("animator_front", targets::animator_front, 20_000);
}

#[test]
fn slap_front() {
    smoke("slap_front", targets::slap_front, 40_000);
}

#[test]
#[ignore = "writes fuzz/corpus/<target>/seed-*; run with --ignored when the examples or tests change"]
fn regenerate_corpus() {
    for target in ["load_bundle", "sprite_front", "animator_front", "slap_front"] {
        let dir = common::path("fuzz/corpus").join(target);
        std::fs::create_dir_all(&dir).unwrap();
        for entry in std::fs::read_dir(&dir).unwrap().flatten() {
            if entry.file_name().to_string_lossy().starts_with("seed-") {
                std::fs::remove_file(entry.path()).unwrap();
            }
        }
        for (name, data) in seeds(target) {
            std::fs::write(dir.join(format!("seed-{name}")), data).unwrap();
        }
    }
}
