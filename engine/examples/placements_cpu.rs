//! Placements played per CPU-second on one thread, as the Python package's batch plays
//! them (the benches' `placements` without criterion): the falling piece's placements
//! enumerated by the move generator, one chosen at random and landed at once
//! ([`Game::land`]), the next seed's game after each that ends. Timed by the thread's own
//! CPU time (Linux's `/proc/thread-self/schedstat`), which a loaded machine disturbs less
//! than the wall clock.
//!
//! ```text
//! cargo run --release -p tetrad-engine --example placements_cpu -- classic 1000000
//! ```

use std::sync::Arc;
use tetrad_engine::engine::Game;
use tetrad_plugin_api::{placements_into, PieceSet, Placement, Preset, Rules, SeededRng};

/// Nanoseconds this thread has run, if the system says.
fn cpu_nanos() -> Option<u64> {
    let stat = std::fs::read_to_string("/proc/thread-self/schedstat").ok()?;
    stat.split_whitespace().next()?.parse().ok()
}

fn main() {
    let mut args = std::env::args().skip(1);
    let preset: Preset = match args.next().unwrap_or_else(|| "classic".into()).parse() {
        Ok(preset) => preset,
        Err(e) => {
            eprintln!("placements_cpu: {e}");
            std::process::exit(2);
        }
    };
    let count: u64 = match args.next().map_or(Ok(1_000_000), |n| n.parse()) {
        Ok(count) => count,
        Err(e) => {
            eprintln!("placements_cpu: the count of placements: {e}");
            std::process::exit(2);
        }
    };
    let rules = Rules::preset(preset);
    let pieces = Arc::new(PieceSet::tetrominoes());
    let mut game = Game::new(rules, pieces.clone(), 0);
    let (mut seed, mut found, mut listed) = (0, Vec::<Placement>::with_capacity(256), 0usize);
    let mut rng = SeededRng::new(1);
    let before = cpu_nanos();
    for _ in 0..count {
        let falling = match game.current().filter(|_| !game.is_over()) {
            Some(falling) => falling,
            None => {
                seed += 1;
                game = Game::new(rules, pieces.clone(), seed);
                game.current().expect("a new game has a piece")
            }
        };
        placements_into(
            &rules,
            game.board(),
            pieces.kind(falling.piece),
            falling.pos,
            &mut found,
        );
        listed += found.len();
        let placement = found[rng.below(found.len() as u32) as usize];
        std::hint::black_box(game.land(&placement));
    }
    let seconds = before.zip(cpu_nanos()).map(|(a, b)| (b - a) as f64 / 1e9);
    println!("{preset}: {count} placements in {} games, {listed} listed", seed + 1);
    match seconds {
        Some(s) => println!("{:.3} CPU-seconds, {:.0} placements a CPU-second", s, count as f64 / s),
        None => println!("no CPU time on this system"),
    }
}
