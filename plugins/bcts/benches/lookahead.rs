//! Decisions per second of the two-piece search (`lookahead=2`) beside the one-piece
//! controller on the same positions, so their ratio is measured in one run:
//! `Controller::choose` for each of the seven tetrominoes, with a seeded previewed piece,
//! on each of 16 mid-game boards of a game played by the two-piece search itself.

use criterion::{criterion_group, criterion_main, BenchmarkId, Criterion, Throughput};
use std::hint::black_box;
use tetrad_plugin_api::{Board, GameSetup, Options, PieceId, PieceSet, Preset, Rules, SeededRng, Solver};
use tetrad_plugin_bcts::Controller;

fn controller(rules: Rules, options: &str) -> Controller {
    let setup = GameSetup {
        rules,
        pieces: PieceSet::tetrominoes(),
        seed: 0,
    };
    Controller::create(&setup, &mut Options::parse(options).expect("parses")).expect("creates")
}

/// The board before every 20th piece from piece 40 on, in a game (seed 1) played by the
/// two-piece BCTS search under `rules`.
fn midgame_boards(rules: Rules, count: usize) -> Vec<Board> {
    let pieces = PieceSet::tetrominoes();
    let mut player = controller(rules, "lookahead=2");
    let mut rng = SeededRng::new(1);
    let mut draw = || PieceId(rng.below(7) as u8);
    let mut board = Board::new(rules.width, rules.height);
    let mut boards = Vec::with_capacity(count);
    let (mut current, mut next) = (draw(), draw());
    for placed in 0u32.. {
        if boards.len() == count {
            break;
        }
        if placed >= 40 && placed.is_multiple_of(20) {
            boards.push(board.clone());
        }
        let kind = pieces.kind(current);
        let choice = player
            .choose(&board, current, rules.spawn(kind), Some(next))
            .expect("a placement");
        let lock = board.lock(kind.orientation(choice.pos.orientation), choice.pos.x, choice.pos.y);
        assert!(!lock.above_board, "the game lasts");
        current = next;
        next = draw();
    }
    boards
}

fn bench(c: &mut Criterion) {
    let pieces = PieceSet::tetrominoes();
    let mut group = c.benchmark_group("lookahead");
    for (preset, width, height) in [(Preset::Simplified, 10, 10), (Preset::Classic, 10, 20)] {
        let rules = Rules {
            width,
            height,
            preview: 1,
            ..Rules::preset(preset)
        };
        let boards = midgame_boards(rules, 16);
        let mut rng = SeededRng::new(2);
        let positions: Vec<(&Board, PieceId, PieceId)> = boards
            .iter()
            .flat_map(|board| pieces.ids().map(move |piece| (board, piece)))
            .map(|(board, piece)| (board, piece, PieceId(rng.below(7) as u8)))
            .collect();
        group.throughput(Throughput::Elements(positions.len() as u64));
        let board_name = format!("{}-{width}x{height}", preset.name());
        for (name, options, lookahead) in [("one-piece", "", false), ("two-piece", "lookahead=2", true)] {
            let mut player = controller(rules, options);
            group.bench_function(BenchmarkId::new(name, &board_name), |b| {
                b.iter(|| {
                    for &(board, piece, next) in &positions {
                        let start = rules.spawn(pieces.kind(piece));
                        let next = lookahead.then_some(next);
                        black_box(player.choose(black_box(board), piece, start, next));
                    }
                })
            });
        }
    }
    group.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
