//! A game as a bot sees it, built from the bot protocol's messages (what `tetrad.bot`
//! asks of `Game`).

use super::PyGame;
use crate::setup::{self, refused, Deal, ProtocolPieces};
use pyo3::prelude::*;
use std::sync::Arc;
use tetrad_engine::engine::{Game, PieceQueue};
use tetrad_engine::setup::Setup;
use tetrad_plugin_api::{Actions, Board, PieceId, Preset};

impl PyGame {
    /// Gives a game of given pieces more of them, dealt after those it has (`_give`).
    pub(super) fn give(&mut self, pieces: Vec<u8>) -> PyResult<()> {
        let count = self.setup.pieces.len();
        if let Some(&bad) = pieces.iter().find(|&&p| usize::from(p) >= count) {
            return Err(refused(format!("piece {bad} is not in the set of {count}")));
        }
        let pieces: Vec<PieceId> = pieces.into_iter().map(PieceId).collect();
        if !self.play.game.give_pieces(&pieces) {
            return Err(refused("a seeded game deals its own pieces"));
        }
        self.moved();
        Ok(())
    }

    /// A game at the start of a piece: the protocol's rules (the preset, then width,
    /// height and preview) and `pieces`, the board's `rows`, then the falling piece, the
    /// queue (ending with the preview) and the hold; `carried` are the totals so far.
    pub(super) fn observed(
        preset: &str,
        (width, height, preview): (usize, usize, usize),
        pieces: ProtocolPieces,
        rows: Vec<u32>,
        (current, queue, hold): (u8, Vec<u8>, Option<u8>),
        carried: [u64; 3],
    ) -> PyResult<PyGame> {
        let setup = protocol_setup(preset, width, height, preview, pieces)?;
        let count = setup.pieces.len();
        let known = |p: u8| {
            if usize::from(p) < count {
                Ok(PieceId(p))
            } else {
                Err(refused(format!("piece {p} is not in the set of {count}")))
            }
        };
        let mut dealt: Vec<PieceId> = hold.into_iter().map(known).collect::<PyResult<_>>()?;
        dealt.push(known(current)?);
        for piece in queue {
            dealt.push(known(piece)?);
        }
        let board = Board::from_rows(width, height, &rows);
        let mut game = Game::with_queue(
            setup.rules,
            setup.pieces.clone(),
            PieceQueue::given(Arc::from(dealt)),
            Some(board),
        );
        if hold.is_some() {
            game.tick(Actions::HOLD);
        }
        let mut made = PyGame::from_parts(Arc::new(setup), game, None, 0, Deal::Given(Arc::from(Vec::new())));
        made.carried = carried;
        Ok(made)
    }

    /// The game a bot has played so far, under the protocol's rules (as for
    /// [`PyGame::observed`]): the pieces `dealt` in order and every tick's actions
    /// (`ticks`), played from an empty board.
    pub(super) fn replayed(
        preset: &str,
        (width, height, preview): (usize, usize, usize),
        pieces: ProtocolPieces,
        dealt: Vec<u8>,
        ticks: Vec<u32>,
    ) -> PyResult<PyGame> {
        let setup = protocol_setup(preset, width, height, preview, pieces)?;
        let count = setup.pieces.len();
        if let Some(&bad) = dealt.iter().find(|&&p| usize::from(p) >= count) {
            return Err(refused(format!("piece {bad} is not in the set of {count}")));
        }
        let dealt: Vec<PieceId> = dealt.into_iter().map(PieceId).collect();
        let game = Game::with_queue(
            setup.rules,
            setup.pieces.clone(),
            PieceQueue::given(Arc::from(dealt)),
            None,
        );
        let mut made = PyGame::from_parts(Arc::new(setup), game, None, 0, Deal::Given(Arc::from(Vec::new())));
        for bits in ticks {
            made.play.game.tick(Actions(bits));
        }
        Ok(made)
    }
}

/// The setup a bot protocol `start` describes, checked.
fn protocol_setup(
    preset: &str,
    width: usize,
    height: usize,
    preview: usize,
    pieces: ProtocolPieces,
) -> PyResult<Setup> {
    let rules = setup::rules(preset, Some(width), Some(height), Some(preview), None)?;
    let set = setup::protocol_pieces(rules.preset, pieces);
    if rules.preset == Preset::Guideline && !set.is_srs() {
        return Err(refused(tetrad_plugin_api::RulesError::GuidelinePieces));
    }
    Setup::new(rules, Arc::new(set)).map_err(refused)
}
