//! Rules pinned on hand-drawn boards, and properties over random games.

use super::*;
use proptest::prelude::*;
use tetrad_plugin_api::{placements, PieceSet, Preset};

const I: PieceId = PieceId(0);
const O: PieceId = PieceId(1);
const T: PieceId = PieceId(2);

fn game(preset: Preset, board: &str) -> Game {
    let rules = Rules::preset(preset);
    let board = Board::from_text(rules.width, rules.height, board);
    Game::with_board(rules, Arc::new(PieceSet::tetrominoes()), 1, Some(board))
}

fn play(game: &mut Game, ticks: &[Actions]) -> Vec<TickReport> {
    ticks.iter().map(|&a| game.tick(a)).collect()
}

#[test]
fn classic_slide_after_drop_tucks_under_an_overhang() {
    let mut g = game(Preset::Classic, "....######\n..........\n..........");
    g.set_current(O);
    // O spawns at x = 4; two lefts (the second with DROP) reach the floor at x = 2,
    // then the slide right goes under the overhang and locks there, resting.
    let reports = play(&mut g, &[Actions::LEFT, Actions::LEFT | Actions::DROP, Actions::RIGHT]);
    assert_eq!(reports[1].locked, None, "DROP rests the piece, it does not lock it");
    let locked = reports[2].locked.expect("gravity locks the slid piece");
    assert_eq!(
        locked.pos,
        PiecePos {
            orientation: 0,
            x: 3,
            y: 18
        }
    );
    assert!(g.board().filled(3, 19) && g.board().filled(4, 18));
}

#[test]
fn classic_gravity_locks_a_resting_piece() {
    let mut g = game(Preset::Classic, "");
    g.set_current(O);
    // O enters at rows 0-1 and needs 18 ticks to reach the floor, the 19th locks it.
    let reports = play(&mut g, &[Actions::NONE; 19]);
    assert!(reports[..18].iter().all(|r| r.locked.is_none()));
    assert_eq!(reports[18].locked.map(|l| l.pos.y), Some(18));
    assert_eq!(g.stats().pieces, 1);
    assert!(g.is_new_piece());
}

#[test]
fn clears_of_one_to_four_rows_score_by_level() {
    let full_but_one = "#########.";
    for rows in 1..=4usize {
        let mut g = game(Preset::Classic, &vec![full_but_one; rows].join("\n"));
        g.set_current(I);
        // The vertical I enters at box x = 3 (cells in column 5); 4 rights put its
        // cells in column 9, then DROP falls and DROP again locks.
        let mut ticks = vec![Actions::CW | Actions::RIGHT];
        ticks.extend([Actions::RIGHT; 3]);
        ticks.extend([Actions::DROP, Actions::DROP]);
        let reports = play(&mut g, &ticks);
        let locked = reports.last().unwrap().locked.expect("locked");
        assert_eq!(locked.lines, rows as u32);
        assert_eq!(g.stats().lines, rows as u64);
        assert_eq!(g.stats().score, [40, 100, 300, 1200][rows - 1]);
        // What remains is the part of the I above the cleared rows.
        assert_eq!(g.board().filled_count(), 4 - rows as u32);
    }
    assert_eq!(super::scoring::points(2, 3), 400);
}

#[test]
fn classic_tops_out_when_the_next_piece_cannot_enter() {
    let mut board = String::new();
    for _ in 0..18 {
        board.push_str("....#.....\n");
    }
    let mut g = game(Preset::Classic, &board);
    g.set_current(O);
    // The O rests on the column at rows 0-1 and locks; the next piece cannot enter.
    let reports = play(&mut g, &[Actions::NONE, Actions::NONE]);
    assert!(reports.iter().any(|r| r.topped_out));
    assert!(g.is_over() && g.current().is_none());
    assert_eq!(
        g.tick(Actions::DROP),
        TickReport::default(),
        "a finished game stays finished"
    );
}

#[test]
fn leiden_ends_when_the_lowest_top_row_is_filled_after_clears() {
    // 10x10: rows 0-2 are the top rows, 3-9 the well. A vertical I on a column of
    // four cells fills rows 2-5.
    let mut g = game(Preset::Leiden, "#.........\n#.........\n#.........\n#.........");
    g.set_current(I);
    // The I enters at box x = 3; turned, its cells are in box column 2, so five lefts
    // bring them to column 0.
    let mut ticks = vec![Actions::CW | Actions::LEFT];
    ticks.extend([Actions::LEFT; 3]);
    ticks.push(Actions::LEFT | Actions::DROP);
    let reports = play(&mut g, &ticks);
    assert!(reports[..4].iter().all(|r| r.locked.is_none()));
    assert_eq!(reports[4].locked.map(|l| l.pos.y), Some(2));
    assert!(reports[4].topped_out, "row 2 holds a cell");

    // The same I clearing its rows leaves row 2 empty: the game goes on.
    let mut g = game(Preset::Leiden, ".#########\n.#########\n.#########\n.#########");
    g.set_current(I);
    let reports = play(&mut g, &ticks);
    assert_eq!(reports[4].locked.map(|l| l.lines), Some(4));
    assert!(!reports[4].topped_out && !g.is_over());
}

#[test]
fn leiden_has_no_gravity() {
    let mut g = game(Preset::Leiden, "");
    g.set_current(T);
    let before = g.current().unwrap().pos;
    let reports = play(&mut g, &[Actions::NONE; 30]);
    assert!(reports.iter().all(|r| r.locked.is_none()));
    assert_eq!(g.current().unwrap().pos, before);
    assert_eq!(g.piece_ticks(), 30);
}

#[test]
fn simplified_piece_left_above_the_board_ends_the_game_and_clears_nothing() {
    // Row 0 is filled under the O's columns, and rows 1-19 would be cleared by nothing:
    // the O cannot enter the board at all.
    let mut rows = vec!["....##...."; 1];
    rows.extend(vec!["#########."; 19]);
    let mut g = game(Preset::Simplified, &rows.join("\n"));
    g.set_current(O);
    let report = g.tick(Actions::DROP);
    assert!(report.topped_out);
    assert_eq!(report.locked.map(|l| l.lines), Some(0));
    assert_eq!(g.stats().lines, 0);
}

#[test]
fn simplified_drops_from_above_the_stack() {
    let mut g = game(Preset::Simplified, "");
    g.set_current(O);
    assert!(g.current().unwrap().pos.y < 0, "the piece waits above the board");
    let report = g.tick(Actions::DROP);
    assert_eq!(report.locked.map(|l| l.pos.y), Some(18));
    assert!(!report.topped_out);
}

#[test]
fn a_full_row_the_game_starts_with_is_cleared_by_the_first_lock() {
    // The full row lies below the O's rows: a lock that looks only at the piece's rows
    // would leave it.
    let mut g = game(Preset::Simplified, "##########\n#.........");
    g.set_current(O);
    let report = g.tick(Actions::DROP);
    assert_eq!(report.locked.map(|l| l.lines), Some(1));
    assert_eq!(g.board().rows()[19], 0b1);
    assert_eq!(g.board().rows()[18], 0b11_0000, "the O moved down a row");
}

/// Every enumerated path, played through the engine, locks where the model said.
fn check_paths_land(preset: Preset, board: Board, piece: PieceId) -> Result<(), TestCaseError> {
    let rules = Rules::preset(preset);
    let pieces = Arc::new(PieceSet::tetrominoes());
    let mut start = Game::with_board(rules, pieces.clone(), 0, Some(board));
    start.set_current(piece);
    let Some(falling) = start.current() else {
        return Ok(());
    };
    let kind = pieces.kind(piece);
    for placement in placements(&rules, start.board(), kind, falling.pos) {
        let mut g = start.clone();
        let mut landed = None;
        for actions in placement.path(rules.movement()) {
            if let Some(locked) = g.tick(actions).locked {
                landed = Some(locked.pos);
                break;
            }
        }
        prop_assert_eq!(landed, Some(placement.pos), "{:?} {:?}", preset, placement);
    }
    Ok(())
}

fn random_board(rules: Rules) -> impl Strategy<Value = Board> {
    // Stacks of random height with random holes, low enough that pieces can enter.
    let (w, h) = (rules.width, rules.height);
    prop::collection::vec((0..h - 4, any::<u64>()), w).prop_map(move |cols| {
        let mut board = Board::new(w, h);
        for (x, (height, bits)) in cols.into_iter().enumerate() {
            for y in h - height..h {
                if bits >> (y % 64) & 3 != 0 || y == h - height {
                    board.fill(x, y);
                }
            }
        }
        board.clear_full_rows();
        board
    })
}

fn tick_actions() -> impl Strategy<Value = Vec<u32>> {
    prop::collection::vec(0u32..32, 1..400)
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]

    #[test]
    fn classic_paths_land_where_the_model_says(board in random_board(Rules::preset(Preset::Classic)), piece in 0u8..7) {
        check_paths_land(Preset::Classic, board, PieceId(piece))?;
    }

    #[test]
    fn leiden_paths_land_where_the_model_says(board in random_board(Rules::preset(Preset::Leiden)), piece in 0u8..7) {
        check_paths_land(Preset::Leiden, board, PieceId(piece))?;
    }

    #[test]
    fn simplified_paths_land_where_the_model_says(board in random_board(Rules::preset(Preset::Simplified)), piece in 0u8..7) {
        check_paths_land(Preset::Simplified, board, PieceId(piece))?;
    }

    #[test]
    fn same_seed_and_actions_give_the_same_game(seed in any::<u64>(), ticks in tick_actions(), preset in 0u32..3) {
        let rules = Rules::preset(Preset::from_abi_id(preset).unwrap());
        let pieces = Arc::new(PieceSet::tetrominoes());
        let run = || {
            let mut g = Game::new(rules, pieces.clone(), seed);
            let reports: Vec<TickReport> = ticks
                .iter()
                .map(|&bits| Actions(bits))
                .filter(|a| !a.is_violation())
                .map(|a| g.tick(a))
                .collect();
            (reports, g.board().clone(), g.stats())
        };
        prop_assert_eq!(run(), run());
    }

    #[test]
    fn ticks_never_overlap_and_cells_change_only_by_locks_and_clears(seed in any::<u64>(), ticks in tick_actions(), preset in 0u32..3) {
        let rules = Rules::preset(Preset::from_abi_id(preset).unwrap());
        let pieces = Arc::new(PieceSet::tetrominoes());
        let mut g = Game::new(rules, pieces.clone(), seed);
        for bits in ticks {
            let actions = Actions(bits);
            if actions.is_violation() {
                continue;
            }
            let before = g.board().filled_count();
            let report = g.tick(actions);
            let after = g.board().filled_count();
            match report.locked {
                None => prop_assert_eq!(before, after),
                Some(_) if report.topped_out && after == before => {}
                Some(locked) => {
                    let cells = pieces.kind(locked.piece).cell_count() as u32;
                    prop_assert_eq!(after, before + cells - locked.lines * rules.width as u32);
                }
            }
            if let Some(falling) = g.current() {
                let shape = pieces.kind(falling.piece).orientation(falling.pos.orientation);
                prop_assert!(g.board().fits(shape, falling.pos.x, falling.pos.y), "falling piece overlaps");
            }
        }
    }
}

/// A random polyomino of 1 to 8 cells, grown cell by cell from one cell (so connected).
fn polyomino() -> impl Strategy<Value = Vec<(i8, i8)>> {
    prop::collection::vec((0usize..64, 0usize..4), 0..8).prop_map(|steps| {
        let mut cells = vec![(0i8, 0i8)];
        for (from, dir) in steps {
            let (x, y) = cells[from % cells.len()];
            let next = [(x + 1, y), (x - 1, y), (x, y + 1), (x, y - 1)][dir];
            let fits = {
                let xs = cells.iter().map(|c| c.0).chain([next.0]);
                let ys = cells.iter().map(|c| c.1).chain([next.1]);
                xs.clone().max().unwrap() - xs.min().unwrap() < 8 && ys.clone().max().unwrap() - ys.min().unwrap() < 8
            };
            if fits && !cells.contains(&next) {
                cells.push(next);
            }
        }
        cells
    })
}

fn random_set() -> impl Strategy<Value = PieceSet> {
    prop::collection::vec(polyomino(), 1..6).prop_map(|shapes| {
        PieceSet::new(
            shapes
                .iter()
                .enumerate()
                .map(|(i, cells)| tetrad_plugin_api::PieceKind::from_cells(format!("p{i}"), cells))
                .collect(),
        )
    })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(48))]

    #[test]
    fn any_size_and_piece_set_keeps_the_invariants_and_paths_land(
        preset in 0u32..3,
        width in 4usize..=32,
        height in 4usize..=64,
        pieces in random_set(),
        seed in any::<u64>(),
        choices in prop::collection::vec(any::<u32>(), 1..40),
    ) {
        let preset = Preset::from_abi_id(preset).unwrap();
        let limits = if preset == Preset::Leiden { (20, 15) } else { (32, 64) };
        let rules = Rules { width: width.min(limits.0), height: height.min(limits.1), ..Rules::preset(preset) };
        prop_assume!(rules.validate(&pieces).is_ok());
        let pieces = Arc::new(pieces);
        let mut game = Game::new(rules, pieces.clone(), seed);
        // Play each piece along one of its enumerated paths; it must land as predicted.
        for choice in choices {
            let Some(falling) = game.current() else { break };
            let kind = pieces.kind(falling.piece);
            let options = placements(&rules, game.board(), kind, falling.pos);
            if options.is_empty() {
                break;
            }
            let placement = options[choice as usize % options.len()];
            let before = game.board().filled_count();
            let mut landed = None;
            for actions in placement.path(rules.movement()) {
                let report = game.tick(actions);
                if let Some(locked) = report.locked {
                    landed = Some((locked, report.topped_out));
                    break;
                }
            }
            let (locked, topped_out) = landed.expect("the path locks the piece");
            prop_assert_eq!(locked.pos, placement.pos);
            let after = game.board().filled_count();
            if !(topped_out && after == before) {
                prop_assert_eq!(after, before + kind.cell_count() as u32 - locked.lines * rules.width as u32);
            }
            if let Some(next) = game.current() {
                let shape = pieces.kind(next.piece).orientation(next.pos.orientation);
                prop_assert!(game.board().fits(shape, next.pos.x, next.pos.y));
            }
        }
    }
}

/// Drops the falling piece straight down until it locks (simplified: one tick).
fn lock_one(game: &mut Game) -> TickReport {
    loop {
        let report = game.tick(Actions::DROP);
        if report.locked.is_some() || game.is_over() {
            return report;
        }
    }
}

#[test]
fn garbage_waits_for_the_lock_then_rises_under_the_piece() {
    let mut g = game(Preset::Simplified, "");
    g.enable_garbage(AttackTable::default(), 4);
    g.set_current(O);
    g.receive(2);
    assert_eq!(g.garbage().map(Garbage::pending), Some(2));
    assert_eq!(g.board().surface(), 20, "nothing rises before the lock");
    lock_one(&mut g);
    let rows = g.board().rows();
    // The O landed on the floor, then two garbage rows (9 cells, one hole, the same
    // column in both) pushed it up two rows.
    assert_eq!(rows[19].count_ones(), 9);
    assert_eq!(rows[18], rows[19]);
    assert_eq!(rows[17].count_ones() + rows[16].count_ones(), 4);
    assert_eq!((g.garbage().unwrap().received, g.garbage().unwrap().pending()), (2, 0));
    assert!(!g.is_over());
}

#[test]
fn a_clear_cancels_waiting_garbage_before_it_rises() {
    // Two rows wait for an I that completes a double: the double's one row cancels one,
    // the other rises, and nothing goes out.
    let mut g = game(Preset::Simplified, "#########.\n#########.");
    g.enable_garbage(AttackTable::default(), 4);
    g.receive(2);
    g.set_current(I);
    // A vertical I in the last column: turn, then move right until it stops.
    g.tick(Actions::CW);
    for _ in 0..6 {
        g.tick(Actions::RIGHT);
    }
    let report = lock_one(&mut g);
    assert_eq!(report.locked.map(|l| l.lines), Some(2));
    let garbage = g.garbage().unwrap();
    assert_eq!((garbage.sent, garbage.received, garbage.pending()), (0, 1, 0));
    assert_eq!(g.take_outgoing(), 0);
}

#[test]
fn garbage_that_pushes_a_cell_off_the_top_ends_the_game() {
    let mut g = game(Preset::Simplified, "#.........\n#.........\n#.........");
    g.enable_garbage(AttackTable::default(), 4);
    g.receive(18);
    g.set_current(O);
    let report = lock_one(&mut g);
    assert!(report.topped_out && g.is_over());
}

/// A guideline game on `board` (its bottom rows, drawn from the top).
fn guideline(board: &str) -> Game {
    let rules = Rules::preset(Preset::Guideline);
    let board = Board::from_text(rules.width, rules.height, board);
    let mut g = Game::with_board(rules, Arc::new(PieceSet::srs()), 1, Some(board));
    g.enable_garbage(AttackTable::guideline(), 1);
    g
}

/// Plays the reachability search's path to `target` for the falling piece, and returns
/// the lock.
fn place(g: &mut Game, target: PiecePos) -> Locked {
    let falling = g.current().unwrap();
    let kind = g.pieces().kind(falling.piece).clone();
    let reached = tetrad_plugin_api::reachable(g.rules(), g.board(), &kind, falling.pos);
    let found = reached
        .iter()
        .filter(|r| r.pos == target)
        .max_by_key(|r| r.last_kick.is_some())
        .unwrap_or_else(|| panic!("{target:?} is not reachable"));
    let reports = play(g, &found.path);
    reports.last().and_then(|r| r.locked).expect("the path locks")
}

#[test]
fn guideline_four_lines_twice_is_back_to_back_a_combo_and_a_perfect_clear() {
    let mut g = guideline(&["#########."; 8].join("\n"));
    let standing_in_the_last_column = PiecePos {
        orientation: 1,
        x: 7,
        y: 36,
    };
    g.set_current(I);
    let first = place(&mut g, standing_in_the_last_column);
    assert_eq!(
        first.clear,
        Clear {
            lines: 4,
            ..Clear::default()
        }
    );
    assert_eq!((g.stats().score, g.take_outgoing()), (800, 4));
    g.set_current(I);
    let second = place(&mut g, standing_in_the_last_column);
    assert_eq!(
        second.clear,
        Clear {
            lines: 4,
            spin: Spin::None,
            combo: 1,
            back_to_back: true,
            perfect: true
        }
    );
    // 800 x 1.5 for back-to-back, 50 for the combo, 3200 for a back-to-back perfect clear.
    assert_eq!(g.stats().score, 800 + 1200 + 50 + 3200);
    // 4, +1 back-to-back, +1 for the second clear in a row, +10 for the perfect clear.
    assert_eq!(g.take_outgoing(), 16);
}

#[test]
fn guideline_t_spin_triple_through_the_fifth_kick_scores_and_sends_six() {
    let mut g = guideline("###.......\n##........\n##.#######\n##..######\n##.#######");
    g.set_current(T);
    let slot = PiecePos {
        orientation: 1,
        x: 1,
        y: 37,
    };
    let locked = place(&mut g, slot);
    assert_eq!((locked.clear.lines, locked.clear.spin), (3, Spin::Full));
    assert_eq!(g.stats().score, 1600);
    assert_eq!(g.take_outgoing(), 6);
    // A T hard-dropped flat onto an empty floor is no spin at all.
    let mut flat = guideline("");
    flat.set_current(T);
    let lock = play(&mut flat, &[Actions::DROP])[0].locked.unwrap();
    assert_eq!(lock.clear.spin, Spin::None);
}

#[test]
fn guideline_lock_out_ends_the_game_and_the_queue_shows_six_from_a_bag() {
    // Every row of the field filled but the last column: an O can only lock in the
    // buffer above it.
    let mut g = guideline(&vec!["#########."; 20].join("\n"));
    g.set_current(O);
    let report = g.tick(Actions::DROP);
    assert!(report.topped_out && g.is_over(), "lock out");
    let fresh = Game::new(Rules::preset(Preset::Guideline), Arc::new(PieceSet::srs()), 5);
    let mut first_bag: Vec<PieceId> = fresh
        .current()
        .map(|f| f.piece)
        .into_iter()
        .chain(fresh.queue())
        .collect();
    assert_eq!(first_bag.len(), 7, "the falling piece and six previews");
    first_bag.sort();
    first_bag.dedup();
    assert_eq!(first_bag.len(), 7, "one bag: every piece once");
}

#[test]
fn guideline_hold_swaps_once_per_piece() {
    let mut g = guideline("");
    let first = g.current().unwrap().piece;
    let second = g.preview().unwrap();
    let third = g.queue().nth(1).unwrap();
    let report = g.tick(Actions::HOLD | Actions::LEFT);
    assert_eq!(report.locked, None);
    assert_eq!(g.held(), Some(first), "the falling piece is held");
    let falling = g.current().unwrap();
    assert_eq!(falling.piece, second, "the next one comes in");
    assert_eq!(
        falling.pos,
        g.rules().enter(g.board(), g.pieces().kind(second)),
        "where a piece enters: the shift was not played"
    );
    assert!(g.is_new_piece());
    assert_eq!(g.preview(), Some(third), "the queue moved on");
    // A second hold before the piece locks is refused.
    g.tick(Actions::HOLD);
    assert_eq!((g.held(), g.current().unwrap().piece), (Some(first), second));
    // After a lock, the held piece comes back for the next one.
    g.tick(Actions::DROP);
    let now = g.current().unwrap().piece;
    assert_eq!(now, third);
    g.tick(Actions::HOLD);
    assert_eq!((g.held(), g.current().unwrap().piece), (Some(third), first));
    // Outside the guideline the bit does nothing.
    let mut classic = game(Preset::Classic, "");
    let piece = classic.current().unwrap().piece;
    classic.tick(Actions::HOLD);
    assert_eq!((classic.held(), classic.current().unwrap().piece), (None, piece));
}

#[test]
fn the_next_guideline_piece_enters_on_the_board_the_lock_left() {
    // A T locked flat on an empty floor leaves the next piece a free board: it drops one
    // row as it enters. The seeds' presets enter at the spawn, as before.
    let mut g = guideline("");
    g.tick(Actions::DROP);
    let next = g.current().unwrap();
    let spawn = g.rules().spawn(g.pieces().kind(next.piece));
    assert_eq!(
        next.pos,
        PiecePos {
            y: spawn.y + 1,
            ..spawn
        }
    );
    for preset in [Preset::Classic, Preset::Leiden, Preset::Simplified] {
        let g = game(preset, "");
        let falling = g.current().unwrap();
        assert_eq!(falling.pos, g.rules().spawn(g.pieces().kind(falling.piece)), "{preset}");
    }
}
