//! Placements enumerated and evaluated per second on one core by the real one-piece
//! controllers: `Controller::choose` (enumerate every placement, lock it, compute the
//! features, keep the best) for all seven tetrominoes on each of 16 mid-game boards.

use criterion::{criterion_group, criterion_main, BenchmarkId, Criterion, Throughput};
use std::hint::black_box;
use tetrad_plugin_api::{placements, Board, GameSetup, Options, PieceId, PieceSet, Preset, Rules, SeededRng, Solver};
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
/// BCTS controller under `rules`.
fn midgame_boards(rules: Rules, count: usize) -> Vec<Board> {
    let pieces = PieceSet::tetrominoes();
    let mut player = controller(rules, "");
    let mut rng = SeededRng::new(1);
    let mut board = Board::new(rules.width, rules.height);
    let mut boards = Vec::with_capacity(count);
    for placed in 0u32.. {
        if boards.len() == count {
            break;
        }
        if placed >= 40 && placed.is_multiple_of(20) {
            boards.push(board.clone());
        }
        let piece = PieceId(rng.below(7) as u8);
        let kind = pieces.kind(piece);
        let choice = player
            .choose(&board, piece, rules.spawn(kind), None)
            .expect("a placement");
        let lock = board.lock(kind.orientation(choice.pos.orientation), choice.pos.x, choice.pos.y);
        assert!(!lock.above_board, "the game lasts");
    }
    boards
}

fn bench(c: &mut Criterion) {
    let pieces = PieceSet::tetrominoes();
    let mut group = c.benchmark_group("choose");
    for preset in [Preset::Simplified, Preset::Classic] {
        let rules = Rules::preset(preset);
        let boards = midgame_boards(rules, 16);
        let total: usize = boards
            .iter()
            .flat_map(|board| pieces.kinds().iter().map(move |kind| (board, kind)))
            .map(|(board, kind)| placements(&rules, board, kind, rules.spawn(kind)).len())
            .sum();
        group.throughput(Throughput::Elements(total as u64));
        for options in ["controller=dellacherie", "controller=bcts", "controller=tuned"] {
            let mut player = controller(rules, options);
            group.bench_function(BenchmarkId::new(options, preset.name()), |b| {
                b.iter(|| {
                    for board in &boards {
                        for piece in pieces.ids() {
                            let start = rules.spawn(pieces.kind(piece));
                            black_box(player.choose(black_box(board), piece, start, None));
                        }
                    }
                })
            });
        }
    }
    group.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
