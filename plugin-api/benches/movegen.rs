//! Placements enumerated, and enumerated and evaluated, per second on one core.
//!
//! "Evaluated" means each placement is locked on a copy of the board (rows cleared) and
//! scored by holes and aggregate height: the work a one-piece evaluator does per leaf.
//!
//! Under `guideline`, the reachability search (turns with SRS kicks, shifts, soft drop):
//! every placement a piece can reach, spins and tucks included, each with its path; and
//! the column sweep, which finds the same placements without paths. Both on the boards of
//! Cold Clear 2's move generator benchmark too (`empty`, `tspin`, `dtd`, `terrible`), to
//! be timed side by side with its `find_moves`.

use criterion::{criterion_group, criterion_main, BenchmarkId, Criterion, Throughput};
use std::hint::black_box;
use tetrad_plugin_api::{
    placements_into, reachable, reachable_with_hold, sweep_into, Board, PieceId, PieceSet, Placement, Preset, Rules,
};

/// A mid-game board: a ragged stack of height 4 to 9 with a few holes.
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

fn evaluate(board: &Board, set: &PieceSet, piece: usize, placement: &Placement) -> i64 {
    let shape = set.kinds()[piece].orientation(placement.pos.orientation);
    let mut after = board.clone();
    let lock = after.lock(shape, placement.pos.x, placement.pos.y);
    let height: u32 = after.column_heights().iter().sum();
    i64::from(lock.lines) * 8 - i64::from(after.holes()) * 4 - i64::from(height)
}

fn bench(c: &mut Criterion) {
    let set = PieceSet::tetrominoes();
    let mut group = c.benchmark_group("placements");
    for preset in [Preset::Classic, Preset::Simplified] {
        let rules = Rules::preset(preset);
        let board = midgame(&rules);
        let mut out = Vec::new();
        // Count the placements of all seven pieces once, for the throughput figure.
        let total: usize = set
            .kinds()
            .iter()
            .map(|kind| {
                placements_into(&rules, &board, kind, rules.spawn(kind), &mut out);
                out.len()
            })
            .sum();
        group.throughput(Throughput::Elements(total as u64));
        group.bench_function(BenchmarkId::new("enumerate", preset.name()), |b| {
            b.iter(|| {
                for kind in set.kinds() {
                    placements_into(&rules, black_box(&board), kind, rules.spawn(kind), &mut out);
                    black_box(out.len());
                }
            })
        });
        group.bench_function(BenchmarkId::new("enumerate+evaluate", preset.name()), |b| {
            b.iter(|| {
                let mut best = i64::MIN;
                for (piece, kind) in set.kinds().iter().enumerate() {
                    placements_into(&rules, black_box(&board), kind, rules.spawn(kind), &mut out);
                    for placement in &out {
                        best = best.max(evaluate(&board, &set, piece, placement));
                    }
                }
                black_box(best)
            })
        });
    }
    group.finish();
}

/// A board of Cold Clear 2's benchmark (its `benches/movegen.rs`), given there as one
/// mask per column, bit `y` the row `y` from the bottom, on the guideline's 40 rows.
fn cold_clear(rules: &Rules, columns: [u64; 10]) -> Board {
    let mut board = Board::new(rules.width, rules.height);
    for (x, &column) in columns.iter().enumerate() {
        for y in (0..64).filter(|&y| column >> y & 1 == 1) {
            board.fill(x, rules.height - 1 - y);
        }
    }
    board
}

/// The guideline boards timed: an empty one, the mid-game one, and Cold Clear 2's three.
fn srs_boards(rules: &Rules) -> [(&'static str, Board); 5] {
    [
        ("empty", Board::new(rules.width, rules.height)),
        ("midgame", midgame(rules)),
        (
            "tspin",
            cold_clear(
                rules,
                [
                    0b00111111, 0b00111111, 0b00011111, 0b00000111, 0b00000001, 0b00000000, 0b00001101, 0b00011111,
                    0b00111111, 0b11111111,
                ],
            ),
        ),
        (
            "dtd",
            cold_clear(
                rules,
                [
                    0b111111111,
                    0b111111111,
                    0b011111111,
                    0b011111111,
                    0b000111111,
                    0b000100110,
                    0b010000001,
                    0b011110111,
                    0b011111111,
                    0b011111111,
                ],
            ),
        ),
        (
            "terrible",
            cold_clear(
                rules,
                [
                    0b000011111111,
                    0b000011000000,
                    0b110011000000,
                    0b110011001100,
                    0b110011001100,
                    0b110011001100,
                    0b110011001100,
                    0b110000001100,
                    0b110000001100,
                    0b111111111100,
                ],
            ),
        ),
    ]
}

fn bench_srs(c: &mut Criterion) {
    let set = PieceSet::srs();
    let rules = Rules::preset(Preset::Guideline);
    let mut group = c.benchmark_group("srs-reachable");
    for (name, board) in srs_boards(&rules) {
        let total: usize = set
            .kinds()
            .iter()
            .map(|kind| reachable(&rules, &board, kind, rules.spawn(kind)).len())
            .sum();
        group.throughput(Throughput::Elements(total as u64));
        group.bench_function(BenchmarkId::new("guideline", name), |b| {
            b.iter(|| {
                for kind in set.kinds() {
                    black_box(reachable(&rules, black_box(&board), kind, rules.spawn(kind)).len());
                }
            })
        });
    }
    group.finish();
}

/// The column sweep for the seven pieces, one buffer reused.
fn bench_sweep(c: &mut Criterion) {
    let set = PieceSet::srs();
    let rules = Rules::preset(Preset::Guideline);
    let mut group = c.benchmark_group("guideline-sweep");
    let mut out = Vec::new();
    for (name, board) in srs_boards(&rules) {
        let total: usize = set
            .kinds()
            .iter()
            .map(|kind| {
                sweep_into(&rules, &board, kind, rules.spawn(kind), &mut out);
                out.len()
            })
            .sum();
        group.throughput(Throughput::Elements(total as u64));
        group.bench_function(BenchmarkId::new("guideline", name), |b| {
            b.iter(|| {
                for kind in set.kinds() {
                    sweep_into(&rules, black_box(&board), kind, rules.spawn(kind), &mut out);
                    black_box(out.len());
                }
            })
        });
    }
    group.finish();
}

/// A decision that weighs holding: each SRS piece falling, with the piece three kinds on
/// (always another kind) to come in if it holds; both pieces' placements are found.
fn bench_srs_hold(c: &mut Criterion) {
    let set = PieceSet::srs();
    let rules = Rules::preset(Preset::Guideline);
    let count = set.len() as u8;
    let with_hold = |board: &Board, current: u8| {
        let kind = set.kind(PieceId(current));
        let swap = PieceId((current + 3) % count);
        reachable_with_hold(&rules, board, &set, PieceId(current), rules.spawn(kind), Some(swap))
    };
    let mut group = c.benchmark_group("srs-reachable-with-hold");
    for (name, board) in [
        ("empty", Board::new(rules.width, rules.height)),
        ("midgame", midgame(&rules)),
    ] {
        let total: usize = (0..count).map(|current| with_hold(&board, current).len()).sum();
        group.throughput(Throughput::Elements(total as u64));
        group.bench_function(BenchmarkId::new("guideline", name), |b| {
            b.iter(|| {
                for current in 0..count {
                    black_box(with_hold(black_box(&board), current).len());
                }
            })
        });
    }
    group.finish();
}

criterion_group!(benches, bench, bench_srs, bench_sweep, bench_srs_hold);
criterion_main!(benches);
