//! Decision latency of the deep search (current and next piece, up to 14,400 leaves).
//!
//! Boards: empty, and a mid-game board with holes (so slides are searched too). Pieces:
//! T then L, the pair with the most placements (34 x 34 on the empty board), and every
//! one of the 49 pairs in turn.

use criterion::{criterion_group, criterion_main, Criterion};
use std::hint::black_box;
use tetrad_plugin_api::{Board, FallingPiece, PieceId, PieceSet, Rules};
use tetrad_plugin_eight_feature::{Searcher, Settings};

/// A mid-game board: a ragged stack 4 to 9 rows high with five holes.
fn midgame(rules: &Rules) -> Board {
    Board::from_text(
        rules.width,
        rules.height,
        "
        ....#.....
        #...##...#
        ##.###..##
        ###.##.###
        ####.#####
        ##.#######
        #######.##
        ",
    )
}

fn bench(c: &mut Criterion) {
    let rules = Rules::default();
    let pieces = PieceSet::tetrominoes();
    let mut searcher = Searcher::new(rules, pieces.clone(), Settings::defaults(rules.height));
    let piece = |id: u8| FallingPiece {
        id: PieceId(id),
        pos: rules.spawn(pieces.kind(PieceId(id))),
    };
    let boards = [
        ("empty", Board::new(rules.width, rules.height)),
        ("midgame", midgame(&rules)),
    ];
    let mut group = c.benchmark_group("deep_search");
    for (name, board) in &boards {
        let leaves = searcher.deep(board, piece(2), PieceId(6)).map_or(0, |d| d.leaves);
        println!("{name}: T then L, {leaves} leaves");
        group.bench_function(format!("{name}/T-L"), |b| {
            b.iter(|| searcher.deep(black_box(board), piece(2), PieceId(6)))
        });
        group.bench_function(format!("{name}/all-49-pairs"), |b| {
            b.iter(|| {
                for current in 0..7 {
                    for next in 0..7 {
                        black_box(searcher.deep(black_box(board), piece(current), PieceId(next)));
                    }
                }
            })
        });
    }
    group.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
