//! `flat-stack`: seed 003's smart agent ("slimme agent"), exactly as its appendix code
//! `dosmartmove` defines it, on the `leiden` preset (the Kosters course skeleton).
//!
//! For the current piece only (no preview), every move is scored on a copy of the board:
//!
//! ```text
//! score = rows cleared + (h - highest row reached) - 4 x closed spaces
//!         + (shaft cells before - shaft cells after)
//! ```
//!
//! with the terms of [`eval::Outcome`] and the features of [`features`]. A move after
//! which `endofgame()` holds (a cell in the lowest of the three top rows) is never chosen,
//! unless every move ends the game; then move 0 is played, as `bestmove` starts at 0.
//! Otherwise the first move with a strictly higher score wins (`bestScore` starts at
//! `INT32_MIN`), in the skeleton's move order ([`skeleton`]).
//!
//! Only moves the host can carry out are considered ([`route`]). Under `leiden` that is
//! every one of the skeleton's moves, except a vertical I that cannot get to its column
//! because cells in row 3 (the top row of the well) are in the way: the skeleton starts a
//! vertical I across rows 0-3 without checking them, while the engine turns and shifts it
//! there only where it fits.

pub mod eval;
pub mod features;
pub mod route;
pub mod skeleton;

use eval::{Outcome, Position};
use route::{placement, Reach, Route, RouteActions};
use skeleton::MoveTable;
use tetrad_plugin_api::{
    Actions, Board, FallingPiece, GameSetup, Info, Options, PieceSet, Preset, Rules, Solver, Tick,
};

/// The smart agent.
#[derive(Debug)]
pub struct FlatStack {
    rules: Rules,
    pieces: PieceSet,
    table: MoveTable,
    /// Rows a piece may occupy while it hovers before its DROP.
    hover_rows: usize,
    path: Option<RouteActions>,
}

/// The move a decision picked.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Choice {
    /// The skeleton's move number.
    pub number: usize,
    /// The engine orientation of the move.
    pub orientation: u8,
    /// The box column of the move.
    pub x: i8,
    /// The actions that get the piece there from its current position.
    pub route: Route,
    /// The move's terms, and its score; `None` when every move ends the game.
    pub scored: Option<(Outcome, i32)>,
}

impl Solver for FlatStack {
    const INFO: Info = Info {
        name: "flat-stack",
        version: env!("CARGO_PKG_VERSION"),
        author: "tetrad",
        description: "seed 003's smart agent: rows + height - 4 x closed spaces + shaft change",
    };

    fn create(setup: &GameSetup, _options: &mut Options) -> Result<Self, String> {
        FlatStack::new(setup)
    }

    fn update(&mut self, tick: &Tick) -> Actions {
        let Some(current) = tick.current else {
            return Actions::NONE;
        };
        if tick.new_piece || self.path.is_none() {
            self.path = self
                .choose(&tick.board, current)
                .map(|choice| choice.route.into_actions());
        }
        self.path.as_mut().and_then(Iterator::next).unwrap_or(Actions::DROP)
    }
}

impl FlatStack {
    /// A solver for `setup`; only the `leiden` preset is played.
    pub fn new(setup: &GameSetup) -> Result<FlatStack, String> {
        if setup.rules.preset != Preset::Leiden {
            return Err(format!(
                "flat-stack plays seed 003's `leiden` preset only (got `{}`)",
                setup.rules.preset
            ));
        }
        let hover_rows = route::hover_rows(setup);
        Ok(FlatStack {
            rules: setup.rules,
            pieces: setup.pieces.clone(),
            table: MoveTable::new(&setup.pieces, setup.rules.width),
            hover_rows,
            path: None,
        })
    }

    /// `dosmartmove` for `piece` on `board`: the move to play, or `None` if the host can
    /// carry out no move at all.
    pub fn choose(&self, board: &Board, piece: FallingPiece) -> Option<Choice> {
        let kind = self.pieces.kind(piece.id);
        let moves = self.table.kind(piece.id.index());
        let position = Position::new(board.rows(), self.rules.width);
        let before = position.shafts_before();
        // With the hover rows empty, every move is reached directly; otherwise search.
        let hover_clear = board.rows()[..self.hover_rows].iter().all(|&row| row == 0);
        let reach = (!hover_clear).then(|| Reach::new(&self.rules, board, kind, piece.pos));
        let mut best: Option<usize> = None;
        let mut best_score = i32::MIN;
        let mut first_reachable = None;
        for (number, mv) in moves.moves.iter().enumerate() {
            let shape = &moves.shapes[usize::from(mv.shape)];
            let column = usize::from(mv.column);
            if reach
                .as_ref()
                .is_some_and(|r| !r.contains(shape.orientation, column as i8 - shape.left))
            {
                continue;
            }
            first_reachable.get_or_insert(number);
            // Game-ending moves give `None`; so does any score not above the best so far.
            if let Some(score) = position.score_above(shape, column, best_score) {
                best = Some(number);
                best_score = score;
            }
        }
        let number = best.or(first_reachable)?;
        let mv = moves.moves[number];
        let shape = &moves.shapes[usize::from(mv.shape)];
        let column = usize::from(mv.column);
        let scored = best.map(|_| {
            let outcome = position.evaluate(shape, column);
            (outcome, outcome.score(before))
        });
        let x = column as i8 - shape.left;
        let route = match &reach {
            Some(reach) => reach.route(shape.orientation, x)?,
            None => Route::Direct(placement(kind, piece.pos, shape, column)),
        };
        Some(Choice {
            number,
            orientation: shape.orientation,
            x,
            route,
            scored,
        })
    }
}

tetrad_plugin_api::export_solver!(FlatStack);

#[cfg(test)]
mod tests;
