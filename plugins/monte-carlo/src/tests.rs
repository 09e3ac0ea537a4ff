//! Tests of the agent: options, the choice on boards with a clear best move, the game's
//! counts carried into the playouts, and the same choice for any number of threads.

use super::*;
use tetrad_plugin_api::{PieceId, SeededRng};

const I: PieceId = PieceId(0);

fn setup(width: usize, height: usize) -> GameSetup {
    GameSetup {
        rules: Rules {
            width,
            height,
            ..Rules::preset(Preset::Leiden)
        },
        pieces: PieceSet::tetrominoes(),
        seed: 7,
    }
}

fn spawn(setup: &GameSetup, id: PieceId) -> FallingPiece {
    FallingPiece {
        id,
        pos: setup.rules.spawn(setup.pieces.kind(id)),
    }
}

#[test]
fn options_are_checked() {
    let s = setup(10, 10);
    let made = MonteCarlo::create(&s, &mut Options::parse("").unwrap()).unwrap();
    assert_eq!((made.playouts, made.ties), (50, Ties::Appendix));
    let made = MonteCarlo::create(&s, &mut Options::parse("playouts=1000,threads=3,ties=means").unwrap()).unwrap();
    assert_eq!((made.playouts, made.threads, made.ties), (1000, 3, Ties::Means));
    assert!(MonteCarlo::create(&s, &mut Options::parse("playouts=0").unwrap()).is_err());
    assert!(MonteCarlo::create(&s, &mut Options::parse("ties=never").unwrap())
        .unwrap_err()
        .contains("ties"));
    let classic = GameSetup {
        rules: Rules::preset(Preset::Classic),
        ..s
    };
    assert!(MonteCarlo::new(&classic, 50).unwrap_err().contains("leiden"));
}

#[test]
fn a_vertical_i_into_a_four_deep_well_wins_on_rows() {
    // Rows 6-9 full but for column 0: the vertical I there clears 4 rows, so each of its
    // playouts counts at least 4 rows. No other move clears a row, and random games
    // from the resulting tall stacks almost never do.
    let s = setup(10, 10);
    let board = Board::from_text(10, 10, &[".#########"; 4].join("\n"));
    let mc = MonteCarlo::new(&s, 50).unwrap();
    let choice = mc.choose(&board, spawn(&s, I)).unwrap();
    // I moves: 7 horizontal (w-3), then vertical at columns 0..: move 7.
    assert_eq!((choice.number, choice.lines), (7, 4));
    assert!(choice.totals.rows >= 4 * 50);
}

#[test]
fn the_game_so_far_is_carried_into_every_playout() {
    let s = setup(10, 10);
    let board = Board::new(10, 10);
    let mut mc = MonteCarlo::new(&s, 10).unwrap();
    let fresh = mc.choose(&board, spawn(&s, I)).unwrap();
    mc.set_so_far(SoFar { rows: 5, pieces: 0 });
    let later = mc.choose(&board, spawn(&s, I)).unwrap();
    // Same seeds (piece 0), so the same playouts: 5 more rows in each of the 10.
    assert_eq!(later.totals.rows, fresh.totals.rows + 50);
}

#[test]
fn the_same_decision_for_one_or_two_threads() {
    let s = setup(10, 12);
    let mut rng = SeededRng::new(3);
    let mut one = MonteCarlo::new(&s, 30).unwrap();
    let mut two = MonteCarlo::new(&s, 30).unwrap();
    two.set_threads(2);
    let mut board = Board::new(10, 12);
    for n in 0..25u64 {
        let piece = spawn(&s, PieceId(rng.below(7) as u8));
        one.set_so_far(SoFar { rows: n / 4, pieces: n });
        two.set_so_far(SoFar { rows: n / 4, pieces: n });
        let a = one.choose(&board, piece).unwrap();
        assert_eq!(two.choose(&board, piece).as_ref(), Some(&a));
        let kind = s.pieces.kind(piece.id);
        let shape = kind.orientation(a.orientation);
        let y = board.drop_row(shape, a.x, s.rules.entry_row(kind, a.orientation));
        board.lock(shape, a.x, y);
        if board.rows()[2] != 0 {
            board = Board::new(10, 12);
        }
    }
}

#[test]
fn update_counts_pieces_and_rows_of_the_game() {
    let s = setup(10, 10);
    let mut mc = MonteCarlo::new(&s, 5).unwrap();
    let board = Board::from_text(10, 10, &[".#########"; 4].join("\n"));
    let tick = Tick::new(board, Some(spawn(&s, I)), None, true);
    let first = mc.update(&tick);
    assert!(
        first.contains(Actions::CW),
        "the I turns to stand in the well: {first:?}"
    );
    assert_eq!(mc.so_far, SoFar { rows: 4, pieces: 1 });
}
