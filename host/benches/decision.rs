//! Decision latency of every bundled plugin: one `update` with `new_piece = true` on each
//! of a fixed set of mid-game positions, through the real loader and the ABI.
//!
//! Criterion reports the mean time per decision over the set (its median estimate). Before
//! the criterion runs, each plugin's decisions are also timed one by one into a histogram,
//! and the median and 99th percentile are printed.

mod common;

use common::{field, midgame_positions, spawned, Position};
use criterion::{criterion_group, criterion_main, BenchmarkId, Criterion};
use std::hint::black_box;
use std::time::Instant;
use tetrad::plugin::{resolve, Instance, Plugin};
use tetrad_plugin_api::abi::{GameInfoBuf, TetradPiece, TetradState, ABI_VERSION};
use tetrad_plugin_api::{PieceSet, Preset, Rules};

/// Every bundled plugin with the options it is benchmarked with, under `classic` and
/// `simplified` (both with preview 1): adding a plugin is one line.
const PLUGINS: &[(&str, &str)] = &[
    ("random", ""),
    ("tree-search", ""),
    ("bcts", ""),
    ("bcts", "controller=dellacherie"),
    ("bcts", "lookahead=2"),
    ("eight-feature", ""),
    // The first of the ticks over which `split` spreads a rating (see its README).
    ("chasm", ""),
];

/// The plugins that play seed 003's `leiden` preset only, benchmarked on 10x12 + 3 (with
/// `random` and `bcts` beside them for scale). Monte-Carlo on one thread, so that every
/// figure is one core's.
const LEIDEN_PLUGINS: &[(&str, &str)] = &[
    ("random", ""),
    ("bcts", ""),
    ("flat-stack", ""),
    ("monte-carlo", "threads=1"),
];

/// Positions in the set.
const POSITIONS: usize = 32;

/// Rounds of the whole set timed one decision at a time for the printed percentiles.
const ROUNDS: usize = 200;

/// Everything one decision needs, in the ABI's terms.
struct Decision {
    board: tetrad_plugin_api::Board,
    current: TetradPiece,
    next: TetradPiece,
}

fn decisions(rules: &Rules, pieces: &PieceSet, positions: &[Position]) -> Vec<Decision> {
    positions
        .iter()
        .map(|p| Decision {
            board: p.board.clone(),
            current: spawned(rules, pieces, p.piece),
            next: TetradPiece::next(p.next.filter(|_| rules.preview > 0)),
        })
        .collect()
}

fn decide(instance: &mut Instance, d: &Decision) -> u32 {
    // The seeds' presets hold nothing: the state shows the next piece alone.
    let mut state = TetradState::EMPTY;
    if d.next.kind >= 0 {
        state.queue[0] = d.next.kind;
        state.queue_len = 1;
    }
    instance
        .update(&field(&d.board), &d.current, &d.next, &state, true)
        .expect("the plugin decides")
}

fn bench(c: &mut Criterion) {
    let pieces = PieceSet::tetrominoes();
    let mut group = c.benchmark_group("decision");
    // Both presets with preview 1, so every plugin's options are valid; the positions come
    // from a `simplified` game, whose boards are valid under `classic` too.
    let simplified = Rules {
        preview: 1,
        ..Rules::preset(Preset::Simplified)
    };
    let positions = midgame_positions(simplified, POSITIONS);
    for preset in [Preset::Classic, Preset::Simplified] {
        let rules = Rules {
            preview: 1,
            ..Rules::preset(preset)
        };
        bench_plugins(&mut group, &rules, &pieces, &positions, PLUGINS);
    }
    let leiden = Rules {
        height: 15,
        ..Rules::preset(Preset::Leiden)
    };
    let positions = midgame_positions(leiden, POSITIONS);
    bench_plugins(&mut group, &leiden, &pieces, &positions, LEIDEN_PLUGINS);
    group.finish();
}

/// Times every plugin of `plugins` on `positions` under `rules`: first one decision at a
/// time into a histogram (median and p99 printed), then criterion's mean.
fn bench_plugins(
    group: &mut criterion::BenchmarkGroup<criterion::measurement::WallTime>,
    rules: &Rules,
    pieces: &PieceSet,
    positions: &[Position],
    plugins: &[(&str, &str)],
) {
    let set = decisions(rules, pieces, positions);
    for &(name, options) in plugins {
        let plugin = Plugin::load(&resolve(name).expect("bundled plugin is built")).expect("loads");
        let info = GameInfoBuf::new(rules, pieces, 1, ABI_VERSION);
        let mut instance = plugin.create(&info, options).expect("creates");
        let label = if options.is_empty() {
            name.to_string()
        } else {
            format!("{name}@{options}")
        };
        let mut histogram = hdrhistogram::Histogram::<u64>::new(3).expect("valid precision");
        for _ in 0..ROUNDS {
            for d in &set {
                let started = Instant::now();
                black_box(decide(&mut instance, d));
                let _ = histogram.record(started.elapsed().as_nanos() as u64);
            }
        }
        println!(
            "decision/{label}/{}: {} decisions, median {:.2} µs, p99 {:.2} µs",
            rules.preset.name(),
            histogram.len(),
            histogram.value_at_quantile(0.5) as f64 / 1000.0,
            histogram.value_at_quantile(0.99) as f64 / 1000.0
        );
        let mut index = 0;
        group.bench_function(BenchmarkId::new(label, rules.preset.name()), |b| {
            b.iter(|| {
                index = (index + 1) % set.len();
                decide(&mut instance, &set[index])
            })
        });
    }
}

criterion_group!(benches, bench);
criterion_main!(benches);
