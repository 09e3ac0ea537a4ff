//! The two-piece search against the exhaustive one it replaced, kept here as the oracle:
//! the same placement, with the same value to the bit, on random boards and along seeded
//! games, under `simplified` and `classic`, both weight sets and both orders.

use super::*;
use crate::bound::Survivors;
use crate::rater::{shapes, Rater};
use crate::{evaluate, BCTS, DELLACHERIE};
use proptest::prelude::*;
use tetrad_plugin_api::{PieceSet, Preset, SeededRng};

/// The two-piece search as it was first written: every first placement locked on a copy
/// of the board and its columns rebuilt, every second placement rated.
fn exhaustive(c: &Context, board: &Board, piece: PieceId, start: PiecePos, next: PieceId) -> Option<(f64, Placement)> {
    let (rules, pieces, shapes, weights) = (c.rules, c.pieces, c.shapes, c.weights);
    let mut first = Vec::new();
    let mut second = Vec::new();
    let mut next_columns = Columns::empty();
    placements_into(rules, board, pieces.kind(piece), start, &mut first);
    if let Some(order) = c.order {
        order.sort(piece, &mut first);
    }
    let mut best = None;
    for placement in &first {
        let value = match evaluate(rules, pieces, board, piece, placement.pos, weights) {
            None => f64::NEG_INFINITY,
            Some((after, _)) => {
                next_columns.rebuild(&after);
                let rater = Rater::new(rules, pieces, shapes, weights, &after, &next_columns);
                let spawn = rules.spawn(pieces.kind(next));
                let mut follow_up = f64::NEG_INFINITY;
                let mut rate = |p: Placement| {
                    if let Some(value) = rater.value(next, p.pos) {
                        follow_up = follow_up.max(value);
                    }
                };
                if let Some(reaches) = c.drops.and_then(|drops| drops.from(next, spawn)) {
                    for reach in reaches {
                        for &x in reach.xs() {
                            rate(reach.land(x, spawn, |x| rater.columns.top(x)));
                        }
                    }
                } else {
                    placements_into(rules, &after, pieces.kind(next), spawn, &mut second);
                    second.iter().for_each(|&p| rate(p));
                }
                follow_up
            }
        };
        keep_best(&mut best, value, *placement);
    }
    best
}

/// Everything a [`Context`] borrows, for one game's rules.
struct Tables {
    rules: Rules,
    pieces: PieceSet,
    shapes: Shapes,
    drops: Option<Drops>,
    weights: Weights,
    order: Option<Order>,
    bound: Option<Bound>,
}

impl Tables {
    fn new(preset: Preset, width: usize, height: usize, weights: Weights, mdptetris: bool) -> Tables {
        let rules = Rules {
            width,
            height,
            preview: 1,
            ..Rules::preset(preset)
        };
        let pieces = PieceSet::tetrominoes();
        let order = if mdptetris {
            Order::parse("mdptetris", &pieces).expect("the tetrominoes")
        } else {
            None
        };
        let mut drops = Drops::new(&rules, &pieces);
        if let (Some(drops), Some(order)) = (&mut drops, &order) {
            drops.sort(order);
        }
        Tables {
            shapes: shapes(&pieces),
            drops,
            bound: Bound::new(&weights, &pieces),
            weights,
            order,
            rules,
            pieces,
        }
    }

    fn context(&self) -> Context<'_> {
        Context {
            rules: &self.rules,
            pieces: &self.pieces,
            shapes: &self.shapes,
            drops: self.drops.as_ref(),
            weights: &self.weights,
            order: self.order.as_ref(),
            bound: self.bound.as_ref(),
        }
    }

    /// The search's choice and its value's bits, and the oracle's.
    fn both(&self, board: &Board, piece: PieceId, next: PieceId) -> [Option<(u64, Placement)>; 2] {
        let context = self.context();
        let start = self.rules.spawn(self.pieces.kind(piece));
        let mut columns = Columns::empty();
        columns.rebuild(board);
        let best = context.rate(board, &columns, piece, start, next, &mut Scratch::new());
        let oracle = exhaustive(&context, board, piece, start, next);
        [best, oracle].map(|b| b.map(|(v, p)| (v.to_bits(), p)))
    }
}

/// A board whose lowest `stack` rows are filled where the bits of `cells` say, full rows
/// cleared.
fn stacked_board(width: usize, height: usize, cells: &[u32], stack: usize) -> Board {
    let mut board = Board::new(width, height);
    for (y, &row) in cells.iter().enumerate().take(height).skip(height - stack.min(height)) {
        for x in (0..width).filter(|x| row >> x & 1 == 1) {
            board.fill(x, y);
        }
    }
    board.clear_full_rows();
    board
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(300))]

    /// On random boards (sparse and dense, low and high stacks), every pair of pieces.
    #[test]
    fn the_search_chooses_as_the_exhaustive_search(
        cells in prop::collection::vec(any::<u32>(), 20),
        dense in any::<bool>(),
        stack in 0usize..=20,
        classic in any::<bool>(),
        dellacherie in any::<bool>(),
        surface in any::<bool>(),
        mdptetris in any::<bool>(),
        piece in 0u8..7,
        next in 0u8..7,
        width in 4usize..=12,
    ) {
        let preset = if classic { Preset::Classic } else { Preset::Simplified };
        let weights = Weights::new(if dellacherie { DELLACHERIE } else { BCTS });
        // Weight on the surface features turns the bound off: every first placement searched.
        let weights = if surface { weights.with_surface(crate::tests::SOME_SURFACE, width, 20) } else { weights };
        let tables = Tables::new(preset, width, 20, weights, mdptetris);
        let cells: Vec<u32> = if dense {
            cells.iter().map(|&c| c | c.rotate_left(7)).collect()
        } else {
            cells
        };
        let board = stacked_board(width, 20, &cells, stack);
        let [search, oracle] = tables.both(&board, PieceId(piece), PieceId(next));
        prop_assert_eq!(search, oracle);
    }
}

/// On a board as wide as the I, an I can fill a row above every column, a row the
/// search looks at when it looks for second placements that clear rows (there the
/// bound on those that clear none is the higher anyway).
#[test]
fn an_i_as_wide_as_the_board_fills_an_empty_row() {
    for weights in [BCTS, DELLACHERIE] {
        let tables = Tables::new(Preset::Simplified, 4, 20, Weights::new(weights), false);
        for stack in ["", "###.\n#.##\n##.#", "..##\n#.##\n##.#", "#...\n##.#\n#.##"] {
            let board = if stack.is_empty() {
                Board::new(4, 20)
            } else {
                Board::from_text(4, 20, stack)
            };
            for piece in 0..7 {
                let [search, oracle] = tables.both(&board, PieceId(piece), PieceId(0));
                assert_eq!(search, oracle, "{stack:?} {piece}");
            }
        }
    }
}

/// When every placement ends the game, or every follow-up does, all are worth minus
/// infinity and the first in enumeration order is kept, as the oracle keeps it: none may
/// be skipped for a bound of minus infinity before a best is known.
#[test]
fn every_placement_ending_the_game_keeps_the_first() {
    // A stack to the top (no row full: nothing fits, nothing clears), and one whose
    // every first placement leaves no room for the second piece.
    let full = "#.#.#\n.#.#.\n".repeat(10);
    let nearly = format!(".....\n{}", ".#.#.\n#.#.#\n".repeat(9) + ".#.#.\n");
    for weights in [BCTS, DELLACHERIE] {
        let tables = Tables::new(Preset::Simplified, 5, 20, Weights::new(weights), false);
        for stack in [&full, &nearly] {
            let board = Board::from_text(5, 20, stack);
            for (piece, next) in (0..7).flat_map(|piece| (0..7).map(move |next| (piece, next))) {
                let [search, oracle] = tables.both(&board, PieceId(piece), PieceId(next));
                assert_eq!(search, oracle, "{stack:?} {piece} {next}");
            }
        }
    }
}

/// Along seeded games played by the two-piece search itself, every decision is the
/// oracle's: boards as the controller meets them, where near-ties are common.
#[test]
fn the_search_chooses_as_the_exhaustive_search_along_games() {
    for (preset, width, height, pieces) in [
        (Preset::Simplified, 10, 10, 600),
        (Preset::Simplified, 10, 20, 300),
        (Preset::Classic, 10, 20, 150),
    ] {
        for (weights, mdptetris) in [(BCTS, false), (BCTS, true), (DELLACHERIE, false)] {
            let tables = Tables::new(preset, width, height, Weights::new(weights), mdptetris);
            let mut rng = SeededRng::new(5);
            let mut draw = || PieceId(rng.below(7) as u8);
            let mut board = Board::new(width, height);
            let (mut current, mut next) = (draw(), draw());
            for _ in 0..pieces {
                let [search, oracle] = tables.both(&board, current, next);
                assert_eq!(search, oracle, "{preset:?} {width}x{height}");
                let Some((_, choice)) = search else { break };
                let kind = tables.pieces.kind(current);
                let lock = board.lock(kind.orientation(choice.pos.orientation), choice.pos.x, choice.pos.y);
                if tables.rules.lock_ends_game(&lock, &board) {
                    break;
                }
                current = next;
                next = draw();
            }
        }
    }
}

proptest::proptest! {
    /// The cut is the tie rule in one comparison: a bound, infinite or not, is at most
    /// the cut exactly when the best so far beats it (best values of minus and plus
    /// infinity included).
    #[test]
    fn a_bound_at_most_the_cut_is_beaten(
        value in proptest::prelude::any::<f64>(),
        at in 0u32..4,
        index in 0u32..4,
        step in -3i64..4,
        some in proptest::prelude::any::<bool>(),
    ) {
        // A value to the last bit, or an infinity (as a follow-up that ends the game is).
        let value = match value {
            value if value.is_nan() => 0.0,
            value if step == 3 => f64::NEG_INFINITY.copysign(value),
            value => value,
        };
        let placement = Placement {
            pos: PiecePos { orientation: 0, x: 0, y: 0 },
            turns: 0,
            shifts: 0,
            slide: 0,
        };
        let best: Best = some.then_some((value, at, placement));
        // Bounds at and around the value, to the last bit, and far from it.
        let near = f64::from_bits((value.to_bits() as i64).wrapping_add(step) as u64);
        let far = [0.0, -1e300, 1e300, f64::MAX, f64::MIN, f64::INFINITY, f64::NEG_INFINITY];
        for bound in [near, value].into_iter().chain(far).filter(|bound| !bound.is_nan()) {
            proptest::prop_assert_eq!(bound <= Cuts::new(&best).of(index), beaten(&best, bound, index), "{}", bound);
        }
    }

    /// The ranks put the candidates in the order of their values, highest first (in
    /// `total_cmp`'s order, infinities and signed zeros included, values closer than 2^-36
    /// of their size counted as equal), ties by index.
    #[test]
    fn ranks_order_as_the_values_then_the_indices(
        picks in proptest::collection::vec((0usize..10, proptest::prelude::any::<f64>()), 1..40),
    ) {
        const SPECIAL: [f64; 9] =
            [f64::NEG_INFINITY, f64::INFINITY, -0.0, 0.0, -1.5, 2.25, -1e300, -1.5 - 1e-12, 2.25 + 1e-9];
        // Few distinct values, so ties are common; some drawn at random.
        let values: Vec<f64> = picks
            .iter()
            .map(|&(k, random)| if k < SPECIAL.len() { SPECIAL[k] } else { random })
            .collect();
        let mut ranks: Vec<u64> = values.iter().enumerate().map(|(i, &v)| rank(v, i as u32)).collect();
        ranks.sort_unstable();
        let got: Vec<usize> = ranks.iter().map(|&r| (r & ((1 << INDEX_BITS) - 1)) as usize).collect();
        let mut seen = got.clone();
        seen.sort_unstable();
        proptest::prop_assert_eq!(seen, (0..values.len()).collect::<Vec<_>>());
        for pair in got.windows(2) {
            let (a, b) = (values[pair[0]], values[pair[1]]);
            match a.total_cmp(&b) {
                std::cmp::Ordering::Greater => {}
                std::cmp::Ordering::Equal => proptest::prop_assert!(pair[0] < pair[1], "ties by index"),
                std::cmp::Ordering::Less => {
                    let close = a.is_finite() && (b - a).abs() <= b.abs() * 2f64.powi(-36);
                    proptest::prop_assert!(close && pair[0] < pair[1], "{a} before {b}");
                }
            }
        }
    }
}

mod bounds;
