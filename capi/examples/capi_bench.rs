//! `capi_sprite_ns_per_tick_1e6`: a C program (`capi/bench/bench.c`,
//! linked with `libanimkit.a`) ticks 10^6 instances of the benchmark
//! suite's walk (`Walk: 5, 5, 5, 5, _loop`, as `sprite_ns_per_tick_1e6`)
//! through the C ABI, tick + drain events; the same batch through the Rust
//! game API (`AnimationBatch`) runs in the same process as this driver.
//! Rounds alternate (C then Rust, then the other way round, over a pipe),
//! 11 of each, and the best round of each is reported.
//!
//! `cargo build --release -p animkit-capi && cargo run --release -p animkit-capi --example capi_bench [-- --json]`
//! (building an example builds the crate's rlib only: the first command
//! makes `libanimkit.a`).

use animkit_vm::game::{Bundle, InstanceEvent};
use std::io::{BufRead, BufReader, Write};
use std::path::PathBuf;
use std::process::{Command, Stdio};
use std::time::Instant;

const WALK: &str = "Walk: 5, 5, 5, 5, _loop\n";
const N: usize = 1_000_000;
const TICKS: usize = 100;
const ROUNDS: usize = 11;

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let json = std::env::args().any(|a| a == "--json");
    let sources = [animkit_compiler::Source::new("walk.anim".to_string(), WALK)];
    let program = animkit_compiler::compile(&sources, &Default::default()).map_err(|e| e.to_string())?;
    let bytes = animkit_vm::engine::codec::encode(&program);
    let dir = std::env::temp_dir().join(format!("animkit-capi-bench-{}", std::process::id()));
    std::fs::create_dir_all(&dir)?;
    let bundle_path = dir.join("walk.animb");
    std::fs::write(&bundle_path, &bytes)?;

    // The C side, against the staticlib of this profile.
    let exe = std::env::current_exe()?;
    let profile = exe.parent().and_then(|p| p.parent()).ok_or("target/PROFILE/examples/EXE")?;
    let lib = profile.join("libanimkit.a");
    if !lib.is_file() {
        return Err(format!("{} is missing: run `cargo build --release -p animkit-capi` first", lib.display()).into());
    }
    let capi = PathBuf::from(env!("CARGO_MANIFEST_DIR"));
    let bench = dir.join("bench");
    let cc = std::env::var("CC").unwrap_or_else(|_| "cc".into());
    let status = Command::new(cc)
        .args(["-std=c11", "-O2", "-Wall", "-Werror", "-I"])
        .arg(capi.join("include"))
        .arg(capi.join("bench/bench.c"))
        .arg("-o")
        .arg(&bench)
        .arg(&lib)
        .args(["-lpthread", "-ldl", "-lm"])
        .status()?;
    if !status.success() {
        return Err("cc failed on capi/bench/bench.c".into());
    }
    let mut child = Command::new(&bench)
        .arg(&bundle_path)
        .args(["walk", "Walk", &N.to_string(), &TICKS.to_string()])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()?;
    let mut to_c = child.stdin.take().ok_or("stdin")?;
    let mut from_c = BufReader::new(child.stdout.take().ok_or("stdout")?);
    let mut c_round = || -> Result<f64, Box<dyn std::error::Error>> {
        writeln!(to_c, "round")?;
        to_c.flush()?;
        let mut line = String::new();
        from_c.read_line(&mut line)?;
        Ok(line.trim().parse::<f64>()?)
    };

    // The Rust side: the game API's batch, the same workload.
    let bundle = Bundle::from_bytes(&bytes)?;
    let walk = bundle.sprite("walk")?;
    let state = walk.state("Walk")?;
    let mut batch = walk.batch();
    for _ in 0..N {
        batch.spawn(state);
    }
    let mut events = vec![InstanceEvent::default(); 4096];
    let mut tick = |batch: &mut animkit_vm::game::AnimationBatch| {
        batch.tick();
        while batch.drain_events(&mut events) == events.len() {}
    };
    for _ in 0..20 {
        tick(&mut batch);
    }
    let mut rust_round = || {
        let t = Instant::now();
        for _ in 0..TICKS {
            tick(&mut batch);
        }
        t.elapsed().as_secs_f64() * 1e9 / (N * TICKS) as f64
    };

    let (mut best_c, mut best_rust) = (f64::INFINITY, f64::INFINITY);
    for r in 0..ROUNDS {
        if r % 2 == 0 {
            best_c = best_c.min(c_round()?);
            best_rust = best_rust.min(rust_round());
        } else {
            best_rust = best_rust.min(rust_round());
            best_c = best_c.min(c_round()?);
        }
    }
    drop(to_c);
    child.wait()?;
    let _ = std::fs::remove_dir_all(&dir);
    if json {
        println!(
            "{{\"capi_sprite_ns_per_tick_1e6\":{best_c},\"embed_sprite_ns_per_tick_1e6\":{best_rust},\"capi_vs_embed_1e6\":{}}}",
            best_c / best_rust
        );
    } else {
        println!(
            "capi_sprite_ns_per_tick_1e6   {best_c:>8.4} ns  C through libanimkit.a, walk, 10^6 instances, per instance-tick"
        );
        println!(
            "embed_sprite_ns_per_tick_1e6  {best_rust:>8.4} ns  Rust game API (AnimationBatch), same workload, same run"
        );
        println!("capi_vs_embed_1e6             {:>8.3} x", best_c / best_rust);
    }
    Ok(())
}
