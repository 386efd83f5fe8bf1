//! The web benchmark's sprite loop natively, for `web_sprite_ns_per_tick_1e5`
//! like for like: `web_bench` builds it with the sprite-only page's own
//! profile (`cargo build --profile web-sprite --example sprite_ticks`:
//! opt-level 3, fat LTO, one codegen unit), so that wasm and native differ
//! in the target alone. Arguments: a bundle and the state to tick; prints
//! nanoseconds per tick, best of 5 samples of 20 x 10^5 ticks (the page's
//! loop in `web/www/player.js`), and the events of the last sample.
use animkit_web::sprite_only::SpritePlayer;

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let [bundle, state] = args.as_slice() else {
        eprintln!("usage: sprite_ticks BUNDLE STATE");
        std::process::exit(2);
    };
    let bytes = match std::fs::read(bundle) {
        Ok(b) => b,
        Err(e) => {
            eprintln!("sprite_ticks: {bundle}: {e}");
            std::process::exit(1);
        }
    };
    let mut p = match SpritePlayer::load(&bytes) {
        Ok(p) => p,
        Err(e) => {
            eprint!("sprite_ticks: {e}");
            std::process::exit(1);
        }
    };
    if let Err(e) = p.set_state(state) {
        eprintln!("sprite_ticks: {e}");
        std::process::exit(1);
    }
    let mut events = 0;
    let ns = (0..5)
        .map(|_| {
            let t = std::time::Instant::now();
            for _ in 0..20 {
                events = std::hint::black_box(p.run_ticks(100_000));
            }
            t.elapsed().as_secs_f64() * 1e9 / 2e6
        })
        .fold(f64::INFINITY, f64::min);
    println!("{ns:.3} {events}");
}
