//! Shared by the host's benchmarks: seeded mid-game positions, and the ABI views of a
//! game that the runner passes to `update`.

#![allow(dead_code)] // each benchmark uses its own part

use std::sync::Arc;
use tetrad::engine::Game;
use tetrad_plugin_api::abi::{TetradField, TetradPiece};
use tetrad_plugin_api::{Board, FallingPiece, GameSetup, Options, PieceId, PieceSet, Rules, Solver, Tick};
use tetrad_plugin_bcts::Controller;

/// A position to decide on: the board, the piece to place and the previewed one.
pub struct Position {
    /// The board without the falling piece.
    pub board: Board,
    /// The piece to place.
    pub piece: PieceId,
    /// The next piece, if the rules show it.
    pub next: Option<PieceId>,
}

/// `count` mid-game positions: the board before every 20th piece from piece 40 on, in a
/// game under `rules` (seed 1) played by `bcts` linked in.
pub fn midgame_positions(rules: Rules, count: usize) -> Vec<Position> {
    let pieces = Arc::new(PieceSet::tetrominoes());
    let mut solver = linked_bcts(rules, &pieces, "");
    let mut game = Game::new(rules, pieces, 1);
    let mut positions = Vec::with_capacity(count);
    while positions.len() < count && !game.is_over() {
        let placed = game.stats().pieces;
        if game.is_new_piece() && placed >= 40 && placed.is_multiple_of(20) {
            let falling = game.current().expect("a game not over has a piece");
            positions.push(Position {
                board: game.board().clone(),
                piece: falling.piece,
                next: game.preview(),
            });
        }
        let actions = solver.update(&tick(&game));
        game.tick(actions);
    }
    assert_eq!(positions.len(), count, "the game ended before {count} positions");
    positions
}

/// `bcts` linked in as a crate, with `options`.
pub fn linked_bcts(rules: Rules, pieces: &PieceSet, options: &str) -> Controller {
    let setup = GameSetup {
        rules,
        pieces: pieces.clone(),
        seed: 0,
    };
    Controller::create(&setup, &mut Options::parse(options).expect("options parse")).expect("bcts creates")
}

/// What a linked-in solver is shown at this tick: the same as the SDK builds from the ABI.
pub fn tick(game: &Game) -> Tick {
    let current = game.current().map(|f| FallingPiece {
        id: f.piece,
        pos: f.pos,
    });
    Tick::new(game.board().clone(), current, game.preview(), game.is_new_piece())
}

/// The ABI view of the board, as the runner passes it.
pub fn field(board: &Board) -> TetradField {
    TetradField {
        width: board.width() as u32,
        height: board.height() as u32,
        rows: board.rows().as_ptr(),
    }
}

/// The ABI view of a piece at `rules`' spawn position.
pub fn spawned(rules: &Rules, pieces: &PieceSet, id: PieceId) -> TetradPiece {
    TetradPiece::falling(id, rules.spawn(pieces.kind(id)))
}

/// The ABI view of the falling piece of `game`, and of its preview.
pub fn pieces_of(game: &Game) -> (TetradPiece, TetradPiece) {
    let falling = game.current().expect("a game not over has a piece");
    (
        TetradPiece::falling(falling.piece, falling.pos),
        TetradPiece::next(game.preview()),
    )
}
