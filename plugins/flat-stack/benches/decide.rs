//! Decisions per second of the smart agent alone (one core): `choose` on positions taken
//! from its own games, so the boards, pieces and line clears are the ones it really meets.

use criterion::{criterion_group, criterion_main, BenchmarkId, Criterion, Throughput};
use std::hint::black_box;
use tetrad_plugin_api::{step, Board, FallingPiece, GameSetup, PieceId, PieceSet, Preset, Rules, SeededRng};
use tetrad_plugin_flat_stack::FlatStack;

/// `count` positions (board and piece) from games of the agent under `leiden`.
fn positions(solver: &FlatStack, rules: &Rules, pieces: &PieceSet, count: usize) -> Vec<(Board, FallingPiece)> {
    let mut rng = SeededRng::new(7);
    let mut out = Vec::with_capacity(count);
    let mut board = Board::new(rules.width, rules.height);
    while out.len() < count {
        let id = PieceId(rng.below(pieces.len() as u32) as u8);
        let kind = pieces.kind(id);
        let piece = FallingPiece {
            id,
            pos: rules.spawn(kind),
        };
        out.push((board.clone(), piece));
        let choice = solver.choose(&board, piece).expect("a move");
        let mut pos = piece.pos;
        for actions in choice.route.into_actions() {
            step(rules, &board, kind, &mut pos, actions);
        }
        board.lock(kind.orientation(pos.orientation), pos.x, pos.y);
        if board.rows()[2] != 0 {
            board = Board::new(rules.width, rules.height);
        }
    }
    out
}

fn bench(c: &mut Criterion) {
    let pieces = PieceSet::tetrominoes();
    let mut group = c.benchmark_group("flat-stack");
    // Height x width, as seed 003 writes board sizes.
    for (height, width) in [(10, 10), (15, 10), (15, 20)] {
        let rules = Rules {
            width,
            height,
            ..Rules::preset(Preset::Leiden)
        };
        let setup = GameSetup {
            rules,
            pieces: pieces.clone(),
            seed: 1,
        };
        let solver = FlatStack::new(&setup).expect("leiden is supported");
        let games = positions(&solver, &rules, &pieces, 1000);
        group.throughput(Throughput::Elements(games.len() as u64));
        group.bench_function(BenchmarkId::new("decide", format!("{height}x{width}")), |b| {
            b.iter(|| {
                for (board, piece) in &games {
                    black_box(solver.choose(black_box(board), *piece));
                }
            })
        });
    }
    group.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
