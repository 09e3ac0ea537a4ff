//! The two-piece search's bounds against the values they bound, on seeded boards.

use super::*;

/// The bounds on a second placement that clears rows, its own (with the wells at their
/// floor) and the one on them all, are at least its value as the follow-up computes it, on seeded boards of rows that
/// lack one or two cells, some of them covered only by rows a clear takes away, between
/// rows drawn at random.
#[test]
fn the_clearing_bound_is_at_least_the_value() {
    let mut checked = 0;
    for (weights, width) in [(BCTS, 10), (DELLACHERIE, 10), (BCTS, 5), (DELLACHERIE, 12)] {
        let tables = Tables::new(Preset::Simplified, width, 20, Weights::new(weights), false);
        let (context, bound) = (tables.context(), tables.bound.as_ref().expect("the bound holds"));
        let drops = tables.drops.as_ref().expect("simplified");
        let mut rng = SeededRng::new(7);
        let mut columns = Columns::empty();
        for _ in 0..400 {
            let mut board = Board::new(width, 20);
            let stack = 1 + rng.below(12) as usize;
            for y in 20 - stack..20 {
                let row = if rng.below(3) == 0 {
                    rng.next_u32()
                } else {
                    !(1 << rng.below(width as u32) | 1 << rng.below(width as u32))
                };
                for x in (0..width).filter(|x| row >> x & 1 == 1) {
                    board.fill(x, y);
                }
            }
            board.clear_full_rows();
            columns.rebuild(&board);
            let features = columns.totals();
            let sizes = (width as u32, 20);
            let lowest = (0..width).map(|x| 20 - columns.top(x)).min().expect("a column");
            for next in (0..7).map(PieceId) {
                let spawn = tables.rules.spawn(tables.pieces.kind(next));
                let second = Second::new(&board, &columns, (next, spawn), f64::NEG_INFINITY);
                // The rows a drop could fill, found cell by cell, and what survives
                // their clear.
                let fillable = |y: usize| {
                    let gap: Vec<usize> = (0..width).filter(|&x| !board.filled(x, y)).collect();
                    gap.len() <= bound.widest_row(next) as usize && gap.iter().all(|&x| columns.top(x) as usize > y)
                };
                let open: Vec<usize> = (0..20).filter(|&y| fillable(y)).collect();
                let cleared = open.iter().fold(0u64, |bits, y| bits | 1 << y);
                let survivors = Survivors::of(board.rows(), cleared);
                let any = bound.clearing_any(
                    &features,
                    next,
                    (f64::from(lowest), open.len() as u32),
                    sizes,
                    &survivors,
                );
                for reach in drops.from(next, spawn).expect("from the spawn") {
                    let shape = &tables.shapes[next.index()][usize::from(reach.orientation())];
                    for &x in reach.xs() {
                        let placement = reach.land(x, spawn, |x| columns.top(x));
                        let Ok(top) = usize::try_from(i32::from(placement.pos.y) + i32::from(shape.top)) else {
                            continue;
                        };
                        let at = (top, reach.box_left(x));
                        let bounded = |cut| context.clearing_bound(bound, &second, &features, reach, at, (0.0, cut));
                        let Some(most) = bounded(f64::NEG_INFINITY) else {
                            continue;
                        };
                        // A cut settles the drop as the full bound does, the survivors
                        // read or not: at the bound, and just under it.
                        assert!(bounded(most).is_some_and(|settled| settled <= most));
                        let under = most.next_down();
                        assert!(bounded(under).is_some_and(|settled| settled > under));
                        let rated = evaluate(
                            &tables.rules,
                            &tables.pieces,
                            &board,
                            next,
                            placement.pos,
                            &tables.weights,
                        );
                        // With the wells at their floor, as the follow-ups take them.
                        let left = reach.box_left(x);
                        let own = match shape.columns.width {
                            1 => columns.wells_in::<1>(left),
                            2 => columns.wells_in::<2>(left),
                            3 => columns.wells_in::<3>(left),
                            _ => columns.wells_in::<4>(left),
                        };
                        let most = most + bound.wells(features.cumulative_wells - own);
                        if let Some((_, value)) = rated {
                            assert!(
                                value <= most,
                                "{value} > {most}: {next:?} at {placement:?} on\n{board:?}"
                            );
                            assert!(
                                value <= any,
                                "{value} > {any} (all): {next:?} at {placement:?} on\n{board:?}"
                            );
                            checked += 1;
                        }
                    }
                }
            }
        }
    }
    assert!(checked > 2_000, "only {checked} drops cleared rows");
}

/// The bound on a follow-up that clears no row is at least the value of every second
/// placement that clears none, and the least landing height is at most every second
/// placement's, after every first placement that clears no row, on seeded boards.
#[test]
fn the_follow_up_bound_is_at_least_the_value() {
    let mut checked = 0;
    for (weights, width) in [(BCTS, 10), (DELLACHERIE, 10), (BCTS, 6)] {
        let tables = Tables::new(Preset::Simplified, width, 20, Weights::new(weights), false);
        let (context, bound) = (tables.context(), tables.bound.as_ref().expect("the bound holds"));
        let drops = tables.drops.as_ref().expect("simplified");
        let cells = |board: &Board| board.rows().iter().map(|r| r.count_ones()).sum::<u32>();
        let mut rng = SeededRng::new(11);
        let (mut columns, mut after_columns) = (Columns::empty(), Columns::empty());
        for _ in 0..8 {
            let mut board = Board::new(width, 20);
            let stack = rng.below(14) as usize;
            for y in 20 - stack..20 {
                let row = rng.next_u32() | rng.next_u32();
                (0..width).filter(|x| row >> x & 1 == 1).for_each(|x| board.fill(x, y));
            }
            board.clear_full_rows();
            columns.rebuild(&board);
            for (piece, next) in (0..7).flat_map(|p| (0..7).map(move |n| (PieceId(p), PieceId(n)))) {
                let (start, spawn) = (
                    tables.rules.spawn(tables.pieces.kind(piece)),
                    tables.rules.spawn(tables.pieces.kind(next)),
                );
                let reaches = drops.from(next, spawn).expect("from the spawn");
                let (reach, landing) = context.reach(&columns, width, next, reaches, bound);
                for first in drops.from(piece, start).expect("from the spawn") {
                    for &x in first.xs() {
                        let placement = first.land(x, start, |x| columns.top(x));
                        let Some((after, _)) = evaluate(
                            &tables.rules,
                            &tables.pieces,
                            &board,
                            piece,
                            placement.pos,
                            &tables.weights,
                        ) else {
                            continue;
                        };
                        if cells(&after) != cells(&board) + 4 {
                            continue;
                        }
                        after_columns.rebuild(&after);
                        let limit = bound.follow_up(&after_columns.totals(), reach);
                        for second in reaches {
                            let shape = &tables.shapes[next.index()][usize::from(second.orientation())];
                            for &x in second.xs() {
                                let p = second.land(x, spawn, |x| after_columns.top(x));
                                let rated =
                                    evaluate(&tables.rules, &tables.pieces, &after, next, p.pos, &tables.weights);
                                let Some((last, value)) = rated else { continue };
                                let box_top = i32::from(p.pos.y) + i32::from(shape.top);
                                let bottom = 20 - (box_top + shape.height as i32);
                                assert!(f64::from(bottom) + (shape.height - 1) as f64 / 2.0 >= landing);
                                if cells(&last) == cells(&after) + 4 {
                                    assert!(value <= limit, "{value} > {limit}: {next:?} at {p:?} on\n{after:?}");
                                    checked += 1;
                                }
                            }
                        }
                    }
                }
            }
        }
    }
    assert!(checked > 300_000, "only {checked} second placements");
}
