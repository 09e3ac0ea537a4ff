//! Tests of the agent: the choice rules of `dosmartmove`, and whole games played with the
//! engine's own movement.

use super::*;
use tetrad_plugin_api::{step, PieceId, SeededRng};

fn target(choice: &Choice) -> (u8, i8) {
    (choice.orientation, choice.x)
}

const I: PieceId = PieceId(0);
const O: PieceId = PieceId(1);
const T: PieceId = PieceId(2);

fn solver(width: usize, height: usize) -> FlatStack {
    let setup = GameSetup {
        rules: Rules {
            width,
            height,
            ..Rules::preset(Preset::Leiden)
        },
        pieces: PieceSet::tetrominoes(),
        seed: 1,
    };
    FlatStack::new(&setup).unwrap()
}

fn spawn(solver: &FlatStack, id: PieceId) -> FallingPiece {
    FallingPiece {
        id,
        pos: solver.rules.spawn(solver.pieces.kind(id)),
    }
}

#[test]
fn only_the_leiden_preset_is_played() {
    let setup = GameSetup {
        rules: Rules::preset(Preset::Classic),
        pieces: PieceSet::tetrominoes(),
        seed: 1,
    };
    assert!(FlatStack::new(&setup).unwrap_err().contains("leiden"));
}

#[test]
fn a_t_on_an_empty_board_goes_flat_side_down_where_no_shaft_opens() {
    // 10x10 (h = 10). The skeleton's T orientations: 0 = flat side up (two closed
    // spaces), 1 = pointing right, 2 = flat side down, 3 = pointing left.
    // Flat side down lands with its top at row 8: h - highest = 10 - 1 = 9. At columns
    // 0 and 1 it leaves a 1-cell shaft against the left wall (score 8); at column 2 no
    // shaft opens: 9 + 0 - 0 + (0 - 0) = 9, the best any move reaches (a standing T
    // reaches row 7 and scores at most 8). Its number: 8 moves of orientation 0 (w-2),
    // 9 of orientation 1 (w-1), then column 2: move 19.
    let s = solver(10, 10);
    let board = Board::new(10, 10);
    let choice = s.choose(&board, spawn(&s, T)).unwrap();
    assert_eq!(choice.number, 19);
    let (outcome, score) = choice.scored.unwrap();
    assert_eq!(
        (outcome.top_row, outcome.closed, outcome.shafts_after, score),
        (8, 0, 0, 9)
    );
    // Engine orientation 0 is the T with its flat side down.
    assert_eq!(target(&choice), (0, 2));
}

#[test]
fn if_every_move_ends_the_game_move_zero_is_played() {
    // 6x7 with rows 4-6 filled but for column 1. An O lands with its top on row 2
    // wherever it goes: every move ends the game, so move 0 (column 0) is played.
    let s = solver(6, 7);
    let board = Board::from_text(6, 7, "#.####\n#.####\n#.####");
    let choice = s.choose(&board, spawn(&s, O)).unwrap();
    assert_eq!((choice.number, choice.scored), (0, None));
    assert_eq!(choice.x, 0);
    // A vertical I drops into column 1 (rows 3-6) and clears rows 4-6, leaving one cell
    // at row 6, column 1. Terms: 3 rows; top row 3 -> 7 - (7-1-3) = 4; closed 0; shafts
    // before 3 (column 1, rows 4-6), after 1 (column 0 beside the leftover cell).
    // 3 + 4 - 0 + (3 - 1) = 9, and it is chosen although it comes late in the order.
    let choice = s.choose(&board, spawn(&s, I)).unwrap();
    let (outcome, score) = choice.scored.unwrap();
    assert_eq!(
        (outcome.lines, outcome.top_row, outcome.shafts_after, score),
        (3, 3, 1, 9)
    );
    assert_eq!((choice.orientation, choice.number), (1, 3 + 1));
}

#[test]
fn a_vertical_i_passes_over_cells_in_row_three() {
    // Column 5 (the I's spawn column when turned) is filled up to row 3. The I hovers
    // above the well (bottom on row 2), so it turns where it enters, shifts over, and
    // drops into column 0 by the direct path, clearing rows 6-9 (h - highest = 10 - 3 =
    // 7; 4 rows).
    let s = solver(10, 10);
    let mut drawing = vec![".....#...."; 2];
    drawing.extend([".#########"; 5]);
    let board = Board::from_text(10, 10, &drawing.join("\n"));
    let choice = s.choose(&board, spawn(&s, I)).unwrap();
    assert_eq!(target(&choice), (1, -2));
    assert_eq!(choice.scored.unwrap().0.lines, 4);
    assert!(matches!(choice.route, Route::Direct(_)));
}

#[test]
fn a_vertical_i_reaches_column_zero_over_a_filled_row_three() {
    // Row 3 is filled in column 1. The I hovers above the well (bottom on row 2), so it
    // reaches column 0 anyway and plays the four-row clear the skeleton plays.
    let s = solver(10, 10);
    let mut drawing = vec![".#........"];
    drawing.extend([".#########"; 6]);
    let board = Board::from_text(10, 10, &drawing.join("\n"));
    let choice = s.choose(&board, spawn(&s, I)).unwrap();
    assert_eq!(target(&choice), (1, -2));
    assert_eq!(choice.scored.unwrap().0.lines, 4);
}

/// The first strictly best non-ending move, by brute force over `features`.
fn brute_force(s: &FlatStack, board: &Board, id: PieceId) -> usize {
    let moves = s.table.kind(id.index());
    let rows = board.rows();
    let before = features::shaft_cells(rows, board.width()) as i32;
    let mut best: Option<(usize, i32)> = None;
    for (number, mv) in moves.moves.iter().enumerate() {
        let shape = &moves.shapes[usize::from(mv.shape)];
        let out = Position::new(rows, board.width()).evaluate(shape, usize::from(mv.column));
        if out.ends {
            continue;
        }
        let score =
            out.lines as i32 + out.top_row as i32 + 1 - 4 * out.closed as i32 + before - out.shafts_after as i32;
        if best.is_none_or(|(_, b)| score > b) {
            best = Some((number, score));
        }
    }
    best.map_or(0, |b| b.0)
}

#[test]
fn whole_games_land_where_the_choice_says_and_follow_the_rules() {
    // Play games with the engine's movement: every path must end in a lock at the chosen
    // placement, every choice must be the brute-force first best, and games end only
    // when row 2 holds a cell.
    let mut rng = SeededRng::new(5);
    for (width, height) in [(6, 7), (10, 10), (12, 15)] {
        let s = solver(width, height);
        for _ in 0..3 {
            let mut board = Board::new(width, height);
            let mut pieces = 0;
            loop {
                let id = PieceId(rng.below(7) as u8);
                let piece = spawn(&s, id);
                let choice = s.choose(&board, piece).unwrap();
                if board.rows()[..4].iter().all(|&r| r == 0) {
                    assert_eq!(choice.number, brute_force(&s, &board, id));
                }
                let kind = s.pieces.kind(id);
                let mut pos = piece.pos;
                let mut locked = false;
                for actions in choice.route.clone().into_actions() {
                    locked = step(&s.rules, &board, kind, &mut pos, actions).locked;
                }
                assert!(locked);
                assert_eq!((pos.orientation, pos.x), target(&choice));
                let shape = kind.orientation(pos.orientation);
                let lines = board.lock(shape, pos.x, pos.y).lines;
                if let Some((outcome, _)) = choice.scored {
                    assert_eq!(outcome.lines, lines);
                }
                pieces += 1;
                if board.rows()[2] != 0 {
                    break;
                }
                assert!(pieces < 1_000_000);
            }
        }
    }
}

#[test]
fn update_plays_the_path_then_drops() {
    let mut s = solver(10, 10);
    let piece = spawn(&s, T);
    let tick = Tick::new(Board::new(10, 10), Some(piece), None, true);
    // Move 19 (see above): engine orientation 0 at box x 2 from the spawn at x 3 -> one
    // LEFT with the DROP.
    assert_eq!(s.update(&tick), Actions::LEFT | Actions::DROP);
}
