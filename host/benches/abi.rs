//! The ABI's cost: the same `bcts` solver playing the same seeded game tick by tick,
//! (a) linked in as a crate and called through `Solver::update` with a `Tick`, and
//! (b) loaded from its shared library and called through `tetrad::plugin::Instance`.
//! The ratio of the two times is the ABI overhead.

mod common;

use common::{field, linked_bcts, pieces_of, tick};
use criterion::{criterion_group, criterion_main, BenchmarkId, Criterion, Throughput};
use std::sync::Arc;
use tetrad::engine::Game;
use tetrad::player::Observation;
use tetrad::plugin::{resolve, Plugin};
use tetrad_plugin_api::abi::{GameInfoBuf, TetradState, ABI_VERSION};
use tetrad_plugin_api::{Actions, PieceSet, Preset, Rules, Solver};

/// Pieces per game.
const PIECES: u64 = 1000;

/// The game's seed.
const SEED: u64 = 1;

/// Plays the seeded game with `bcts` linked in; returns (pieces, lines, ticks).
fn linked(rules: Rules, pieces: &Arc<PieceSet>, options: &str) -> (u64, u64, u64) {
    let mut solver = linked_bcts(rules, pieces, options);
    let mut game = Game::new(rules, pieces.clone(), SEED);
    while !game.is_over() && game.stats().pieces < PIECES {
        let actions = solver.update(&tick(&game));
        game.tick(actions);
    }
    let stats = game.stats();
    (stats.pieces, stats.lines, stats.ticks)
}

/// Plays the seeded game with `bcts` loaded from its library; returns (pieces, lines, ticks).
fn loaded(plugin: &Plugin, rules: Rules, pieces: &Arc<PieceSet>, options: &str) -> (u64, u64, u64) {
    let info = GameInfoBuf::new(&rules, pieces, 0, ABI_VERSION);
    let mut instance = plugin.create(&info, options).expect("creates");
    let wants_state = instance.wants_state();
    let mut state = TetradState::EMPTY;
    let mut game = Game::new(rules, pieces.clone(), SEED);
    while !game.is_over() && game.stats().pieces < PIECES {
        let (current, next) = pieces_of(&game);
        // The state is kept as the host's player keeps it for a version 2 plugin: built on
        // a new piece, its pending garbage refreshed on the other ticks.
        let seen = Observation::of(&game, false);
        if wants_state {
            if seen.new_piece {
                state = seen.state();
            } else {
                state.pending_garbage = seen.pending_garbage();
            }
        }
        let bits = instance
            .update(&field(game.board()), &current, &next, &state, game.is_new_piece())
            .expect("bcts decides");
        game.tick(Actions(bits));
    }
    let stats = game.stats();
    (stats.pieces, stats.lines, stats.ticks)
}

fn bench(c: &mut Criterion) {
    let plugin = Plugin::load(&resolve("bcts").expect("bcts is built")).expect("loads");
    let pieces = Arc::new(PieceSet::tetrominoes());
    let mut group = c.benchmark_group("abi");
    group.throughput(Throughput::Elements(PIECES));
    for (preset, options) in [(Preset::Simplified, "controller=dellacherie"), (Preset::Simplified, "")] {
        let rules = Rules::preset(preset);
        let same = linked(rules, &pieces, options);
        assert_eq!(
            same,
            loaded(&plugin, rules, &pieces, options),
            "both play the same game"
        );
        assert_eq!(same.0, PIECES, "the game lasts {PIECES} pieces");
        let label = format!(
            "{}/{}",
            preset.name(),
            if options.is_empty() { "bcts" } else { options }
        );
        group.bench_function(BenchmarkId::new("linked", &label), |b| {
            b.iter(|| linked(rules, &pieces, options))
        });
        group.bench_function(BenchmarkId::new("loaded", &label), |b| {
            b.iter(|| loaded(&plugin, rules, &pieces, options))
        });
    }
    group.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
