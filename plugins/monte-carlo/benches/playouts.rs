//! Random playouts per second (the agent's inner loop) and whole decisions, on one core.

use criterion::{criterion_group, criterion_main, BenchmarkId, Criterion, Throughput};
use std::hint::black_box;
use tetrad_plugin_api::{Board, FallingPiece, GameSetup, PieceId, PieceSet, Preset, Rules, SeededRng};
use tetrad_plugin_monte_carlo::sim::Sim;
use tetrad_plugin_monte_carlo::skeleton::MoveTable;
use tetrad_plugin_monte_carlo::MonteCarlo;

fn bench(c: &mut Criterion) {
    let pieces = PieceSet::tetrominoes();
    let mut group = c.benchmark_group("monte-carlo");
    // Height x width, as seed 003 writes board sizes.
    for (height, width) in [(10, 10), (15, 20)] {
        let table = MoveTable::new(&pieces, width);
        let empty = Sim::new(&vec![0; height], width);
        // Count the pieces of 1000 playouts once, for a pieces-per-second figure.
        let mut placed = 0;
        for seed in 0..1000 {
            placed += empty.clone().play_random(&table, 7, &mut SeededRng::new(seed)).1;
        }
        group.throughput(Throughput::Elements(placed));
        group.bench_function(BenchmarkId::new("1000-playouts", format!("{height}x{width}")), |b| {
            b.iter(|| {
                for seed in 0..1000 {
                    let mut sim = empty;
                    black_box(sim.play_random(&table, 7, &mut SeededRng::new(seed)));
                }
            })
        });
    }
    let rules = Rules {
        width: 10,
        height: 10,
        ..Rules::preset(Preset::Leiden)
    };
    let setup = GameSetup {
        rules,
        pieces: pieces.clone(),
        seed: 1,
    };
    let solver = MonteCarlo::new(&setup, 50).expect("leiden is supported");
    let board = Board::from_text(10, 10, "..##......\n#.###..#.#\n#####.####");
    let t = PieceId(2);
    let piece = FallingPiece {
        id: t,
        pos: rules.spawn(pieces.kind(t)),
    };
    group.throughput(Throughput::Elements(1));
    group.bench_function("decide/50-playouts/T/10x10", |b| {
        b.iter(|| black_box(solver.choose(black_box(&board), piece)))
    });
    group.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
