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
use tetrad_plugin_api::abi::{GameInfoBuf, TetradPiece};
use tetrad_plugin_api::{PieceSet, Preset, Rules};

/// Every bundled plugin with the options it is benchmarked with: adding a plugin is one line.
const PLUGINS: &[(&str, &str)] = &[
    ("random", ""),
    ("tree-search", ""),
    ("bcts", ""),
    ("bcts", "controller=dellacherie"),
    ("bcts", "lookahead=2"),
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
            next: TetradPiece::next((rules.preview > 0).then_some(p.next)),
        })
        .collect()
}

fn decide(instance: &mut Instance, d: &Decision) -> u32 {
    instance
        .update(&field(&d.board), &d.current, &d.next, true)
        .expect("the plugin decides")
}

fn bench(c: &mut Criterion) {
    let pieces = PieceSet::tetrominoes();
    let positions = midgame_positions(POSITIONS);
    let mut group = c.benchmark_group("decision");
    for preset in [Preset::Classic, Preset::Simplified] {
        // Both presets with preview 1, so every plugin's options are valid.
        let rules = Rules {
            preview: 1,
            ..Rules::preset(preset)
        };
        let set = decisions(&rules, &pieces, &positions);
        for &(name, options) in PLUGINS {
            let plugin = Plugin::load(&resolve(name).expect("bundled plugin is built")).expect("loads");
            let info = GameInfoBuf::new(&rules, &pieces, 1);
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
                preset.name(),
                histogram.len(),
                histogram.value_at_quantile(0.5) as f64 / 1000.0,
                histogram.value_at_quantile(0.99) as f64 / 1000.0
            );
            let mut index = 0;
            group.bench_function(BenchmarkId::new(label, preset.name()), |b| {
                b.iter(|| {
                    index = (index + 1) % set.len();
                    decide(&mut instance, &set[index])
                })
            });
        }
    }
    group.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
