//! What a time control costs, and how finely its clock measures:
//!
//! - the update timer's resolution: the smallest non-zero step between two reads of
//!   [`tetrad::watch::clock`] (`quanta`), printed before the benchmarks;
//! - `clock/read-pair`: two reads and their difference, as every decision is timed;
//! - `clock/referee-per-decision`: what the referee's clock adds to a decision (the charge,
//!   a piece's increment, the next budget);
//! - `clock/host-per-tick/*`: the host's whole cost per tick of a player that does nothing
//!   (`testkit` in `stall` mode on 32x64, 768 ticks a game), without a time control and
//!   under `--tc 40/60+0.5`.

use criterion::{criterion_group, criterion_main, BenchmarkId, Criterion, Throughput};
use std::hint::black_box;
use std::path::PathBuf;
use std::sync::Arc;
use tetrad::plugin::Plugin;
use tetrad::referee::{SeatClock, TimeControl};
use tetrad::runner::{play_game, RunSpec};
use tetrad::setup::Setup;
use tetrad::watch::clock;
use tetrad_plugin_api::{PieceSet, Preset, Rules};

/// The test plugin, built next to the benchmark as a dev-dependency.
fn testkit() -> PathBuf {
    let exe = std::env::current_exe().expect("the benchmark's path");
    let deps = exe.parent().expect("the benchmark's folder");
    let file = libloading::library_filename("tetrad_testkit");
    [deps.join(&file), deps.join("..").join(&file)]
        .into_iter()
        .find(|p| p.is_file())
        .expect("the testkit plugin is built")
}

/// The smallest non-zero difference between two consecutive reads of the update timer over
/// `pairs` pairs, and how many pairs read the same value.
fn resolution(pairs: u32) -> (u64, u32) {
    let clock = clock();
    let (mut smallest, mut equal) = (u64::MAX, 0);
    for _ in 0..pairs {
        let start = clock.raw();
        match clock.delta_as_nanos(start, clock.raw()) {
            0 => equal += 1,
            step => smallest = smallest.min(step),
        }
    }
    (smallest, equal)
}

fn bench(c: &mut Criterion) {
    let pairs = 1_000_000;
    let (smallest, equal) = resolution(pairs);
    println!("update timer: smallest non-zero step {smallest} ns; {equal} of {pairs} read pairs equal");
    let control = TimeControl::parse_tc("40/60+0.5").expect("a valid time control");

    let mut group = c.benchmark_group("clock");
    let timer = clock();
    group.bench_function("read-pair", |b| {
        b.iter(|| {
            let start = timer.raw();
            black_box(timer.delta_as_nanos(start, timer.raw()))
        })
    });
    group.bench_function("referee-per-decision", |b| {
        let mut seat = SeatClock::new(control);
        let mut pieces = 0;
        b.iter(|| {
            black_box(seat.charge(black_box(1_000)));
            pieces += 1;
            seat.after_tick(pieces);
            black_box(seat.budget())
        })
    });

    let stall = Plugin::load(&testkit()).expect("testkit loads");
    let rules = Rules {
        width: 32,
        height: 64,
        ..Rules::preset(Preset::Simplified)
    };
    for (name, time_control) in [("none", None), ("tc-40-60+0.5", Some(control))] {
        let mut setup = Setup::new(rules, Arc::new(PieceSet::tetrominoes())).expect("valid rules");
        setup.limits.time_control = time_control;
        let spec = RunSpec {
            setup,
            games: 1,
            seed: 1,
            sequences: None,
            jobs: 1,
            options: "mode=stall".to_string(),
            watch: None,
            pieces_played: None,
        };
        let ticks = play_game(&stall, &spec, 0).expect("plays").ticks;
        group.throughput(Throughput::Elements(ticks));
        group.bench_function(BenchmarkId::new("host-per-tick/testkit-stall-32x64", name), |b| {
            b.iter(|| play_game(&stall, &spec, 0).expect("plays").ticks)
        });
    }
    group.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
