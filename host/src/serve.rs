//! `tetrad tbp`: a plugin library served as a bot of the Tetris Bot Protocol on standard
//! input and output, so that any TBP frontend (or browser bridge) can play it.
//!
//! The library plays per tick, as in every game of tetrad's: at `suggest`, the position
//! the frontend gave is shown to a fresh tick loop (the falling piece at its entry, the
//! hold, up to the rules' preview of the queue, combo and back-to-back), each tick's
//! actions are applied by the shared model's [`step`], as the engine applies them, until
//! the piece locks; where it locked, and the T-spin its last move made, is the one move
//! suggested. `play` and `new_piece` keep the position as the protocol says. A new
//! instance of the library is made at every `start`, so a game starts fresh. Under the
//! library's own run, the same position shows it the same ticks: at a fixed search budget
//! it suggests the moves it plays there.

use crate::engine::Falling;
use crate::player::{Decision, Observation, Player};
use crate::plugin::tbp::location::{to_tbp, to_tetrad};
use crate::plugin::tbp::messages::{BotMessage, FrontendMessage, Move, Spin, Start};
use crate::plugin::Plugin;
use std::collections::VecDeque;
use std::io::{BufRead, Write};
use tetrad_plugin_api::abi::{TetradState, MAX_QUEUE, NO_PIECE};
use tetrad_plugin_api::{step, t_spin, Actions, Board, PieceId, PieceSet, Preset, Rules};

/// Ticks a piece may take before the server gives up on it (a plugin that never locks).
const TICKS_PER_PIECE: u32 = 2000;

/// Why serving stopped.
#[derive(Debug, thiserror::Error)]
pub enum ServeError {
    /// Standard input or output failed.
    #[error("tbp: {0}")]
    Io(#[from] std::io::Error),
    /// A message could not be written.
    #[error("tbp: {0}")]
    Json(#[from] serde_json::Error),
}

/// The position the frontend gave, kept up to date by `play` and `new_piece`.
struct Position {
    board: Board,
    hold: Option<PieceId>,
    /// The falling piece first.
    queue: VecDeque<PieceId>,
    combo: u32,
    back_to_back: bool,
}

/// The server of one plugin.
pub struct Server<'a> {
    plugin: &'a Plugin,
    options: String,
    seed: u64,
    rules: Rules,
    pieces: PieceSet,
    player: Option<Player>,
    position: Option<Position>,
}

impl<'a> Server<'a> {
    /// A server of `plugin`, each game's instance made with `options` and `seed`.
    pub fn new(plugin: &'a Plugin, options: &str, seed: u64) -> Server<'a> {
        Server {
            plugin,
            options: options.to_string(),
            seed,
            rules: Rules::preset(Preset::Guideline),
            pieces: PieceSet::srs(),
            player: None,
            position: None,
        }
    }

    /// Speaks the protocol on `input` and `output` until `quit` or the end of input. A
    /// line that is no message of the protocol's is ignored, as the protocol asks.
    pub fn serve(&mut self, input: impl BufRead, mut output: impl Write) -> Result<(), ServeError> {
        let info = self.plugin.info();
        send(
            &mut output,
            &BotMessage::Info {
                name: info.name.clone(),
                version: info.version.clone(),
                author: info.author.clone(),
                features: Vec::new(),
            },
        )?;
        for line in input.lines() {
            let Ok(message) = serde_json::from_str::<FrontendMessage>(&line?) else {
                continue;
            };
            match message {
                FrontendMessage::Rules { .. } => {
                    let answer = match self.create() {
                        Ok(player) => {
                            self.player = Some(player);
                            BotMessage::Ready
                        }
                        Err(reason) => BotMessage::Error { reason },
                    };
                    send(&mut output, &answer)?;
                }
                FrontendMessage::Start(start) => {
                    self.player = self.create().ok();
                    self.position = self.read(&start);
                }
                FrontendMessage::Stop => self.position = None,
                FrontendMessage::Suggest => {
                    let moves = self.suggest().into_iter().collect();
                    send(&mut output, &BotMessage::Suggestion { moves, move_info: None })?;
                }
                FrontendMessage::Play { played } => self.play(&played),
                FrontendMessage::NewPiece { piece } => {
                    let id = self.piece(&piece);
                    if let (Some(position), Some(id)) = (&mut self.position, id) {
                        position.queue.push_back(id);
                    }
                }
                FrontendMessage::Quit => break,
            }
        }
        Ok(())
    }

    /// A fresh instance of the plugin, or why it refuses the guideline's rules.
    fn create(&self) -> Result<Player, String> {
        Player::library(self.plugin, &self.rules, &self.pieces, self.seed, &self.options).map_err(|e| e.message)
    }

    fn piece(&self, name: &str) -> Option<PieceId> {
        let index = self.pieces.kinds().iter().position(|kind| kind.name() == name)?;
        Some(PieceId(u8::try_from(index).ok()?))
    }

    /// The position a `start` gives; `None` if it names a piece that is not one.
    fn read(&self, start: &Start) -> Option<Position> {
        let mut board = Board::new(self.rules.width, self.rules.height);
        // TBP's rows go from the bottom up.
        for (from_bottom, row) in start.board.iter().enumerate().take(self.rules.height) {
            let y = self.rules.height - 1 - from_bottom;
            for (x, cell) in row.iter().enumerate().take(self.rules.width) {
                if cell.is_some() {
                    board.fill(x, y);
                }
            }
        }
        let hold = match &start.hold {
            Some(name) => Some(self.piece(name)?),
            None => None,
        };
        let queue = start.queue.iter().map(|name| self.piece(name)).collect::<Option<_>>()?;
        Some(Position {
            board,
            hold,
            queue,
            combo: start.combo,
            back_to_back: start.back_to_back,
        })
    }

    /// The plugin's move from the position: its ticks played until the piece locks.
    fn suggest(&mut self) -> Option<Move> {
        let (player, position) = (self.player.as_mut()?, self.position.as_ref()?);
        let (rules, pieces) = (&self.rules, &self.pieces);
        let mut queue = position.queue.clone();
        let mut hold = position.hold;
        let enter = |piece: PieceId| Falling {
            piece,
            pos: rules.enter(&position.board, pieces.kind(piece)),
        };
        let mut falling = enter(queue.pop_front()?);
        let (mut hold_available, mut new_piece, mut last_kick) = (true, true, None);
        let clock = crate::watch::clock();
        for _ in 0..TICKS_PER_PIECE {
            let kind = pieces.kind(falling.piece);
            if !position
                .board
                .fits(kind.orientation(falling.pos.orientation), falling.pos.x, falling.pos.y)
            {
                return None;
            }
            let mut state = TetradState {
                hold: hold.map_or(NO_PIECE, |p| i32::from(p.0)),
                hold_available: u32::from(hold_available),
                combo: position.combo,
                back_to_back: u32::from(position.back_to_back),
                ..TetradState::EMPTY
            };
            for (slot, piece) in state
                .queue
                .iter_mut()
                .zip(queue.iter().take(rules.preview.min(MAX_QUEUE)))
            {
                *slot = i32::from(piece.0);
                state.queue_len += 1;
            }
            let seen = Observation {
                rules,
                board: &position.board,
                current: Some(falling),
                next: queue.front().copied(),
                new_piece,
                more: crate::player::More::Given(&state),
            };
            let Ok(Decision::Actions(actions)) = player.decide(&seen, clock, None).decision else {
                return None;
            };
            new_piece = false;
            if actions.contains(Actions::HOLD) && hold_available {
                let out = falling.piece;
                falling = enter(match hold {
                    Some(held) => held,
                    None => queue.pop_front()?,
                });
                hold = Some(out);
                (hold_available, new_piece, last_kick) = (false, true, None);
                continue;
            }
            let moved = step(rules, &position.board, kind, &mut falling.pos, actions);
            if moved.shifted || moved.fell {
                last_kick = None;
            } else if moved.turned {
                last_kick = Some(moved.kick);
            }
            if moved.locked {
                let spin = match kind.name() {
                    "T" => match t_spin(&position.board, falling.pos, last_kick) {
                        tetrad_plugin_api::Spin::None => Spin::None,
                        tetrad_plugin_api::Spin::Mini => Spin::Mini,
                        tetrad_plugin_api::Spin::Full => Spin::Full,
                    },
                    _ => Spin::None,
                };
                let location = to_tbp(pieces, falling.piece, falling.pos, rules.height)?;
                return Some(Move { location, spin });
            }
        }
        None
    }

    /// Advances the position by the move played; forgets it if the move names no piece.
    fn play(&mut self, played: &Move) {
        let Some(position) = &mut self.position else {
            return;
        };
        match to_tetrad(&self.pieces, &played.location, self.rules.height) {
            Some((piece, pos)) => position.play(&self.pieces, piece, pos, played.spin),
            None => self.position = None,
        }
    }
}

impl Position {
    /// The position after `piece` locks at `pos` with `spin`: a hold first when it is not
    /// the falling piece (into an empty hold, the next piece came in too), the lock and
    /// its clears, the combo and back-to-back as the engine keeps them.
    fn play(&mut self, pieces: &PieceSet, piece: PieceId, pos: tetrad_plugin_api::PiecePos, spin: Spin) {
        let falling = self.queue.pop_front();
        if falling != Some(piece) {
            if self.hold.is_none() {
                self.queue.pop_front();
            }
            self.hold = falling;
        }
        let shape = pieces.kind(piece).orientation(pos.orientation);
        let lines = self.board.lock(shape, pos.x, pos.y).lines;
        if lines == 0 {
            self.combo = 0;
        } else {
            self.combo += 1;
            self.back_to_back = lines >= 4 || spin != Spin::None;
        }
    }
}

fn send(output: &mut impl Write, message: &BotMessage) -> Result<(), ServeError> {
    let mut line = serde_json::to_string(message)?;
    line.push('\n');
    output.write_all(line.as_bytes())?;
    output.flush()?;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use tetrad_plugin_api::PiecePos;

    fn id(pieces: &PieceSet, name: &str) -> PieceId {
        PieceId(pieces.kinds().iter().position(|k| k.name() == name).unwrap() as u8)
    }

    fn position(board: Board, hold: Option<PieceId>, queue: &[PieceId]) -> Position {
        Position {
            board,
            hold,
            queue: queue.iter().copied().collect(),
            combo: 0,
            back_to_back: false,
        }
    }

    #[test]
    fn a_hold_into_an_empty_slot_takes_the_next_piece_too() {
        let pieces = PieceSet::srs();
        let [t, i, o, s] = ["T", "I", "O", "S"].map(|n| id(&pieces, n));
        let rules = Rules::preset(Preset::Guideline);
        let mut p = position(Board::new(10, 40), None, &[t, i, o, s]);
        // The I placed while the T falls: the T is held, the I came in and locked.
        let flat = PiecePos {
            orientation: 0,
            x: 0,
            y: 37,
        };
        p.play(&pieces, i, flat, Spin::None);
        assert_eq!(
            (p.hold, p.queue.iter().copied().collect::<Vec<_>>()),
            (Some(t), vec![o, s])
        );
        // From a full hold, the held T comes out and the O goes in.
        let t_pos = rules.enter(&p.board, pieces.kind(t));
        let t_down = PiecePos {
            y: p.board.drop_row(pieces.kind(t).orientation(0), t_pos.x, t_pos.y),
            ..t_pos
        };
        p.play(&pieces, t, t_down, Spin::None);
        assert_eq!(
            (p.hold, p.queue.iter().copied().collect::<Vec<_>>()),
            (Some(o), vec![s])
        );
    }

    #[test]
    fn clears_keep_the_combo_and_back_to_back_as_the_engine_does() {
        let pieces = PieceSet::srs();
        let i = id(&pieces, "I");
        let mut rows = vec![0u32; 36];
        rows.extend([0b01_1111_1111; 4]);
        let board = Board::from_rows(10, 40, &rows);
        let mut p = position(board, None, &[i, i, i]);
        // A vertical I in the well at column 9: four lines.
        let upright = PiecePos {
            orientation: 1,
            x: 7,
            y: 36,
        };
        p.play(&pieces, i, upright, Spin::None);
        assert_eq!((p.combo, p.back_to_back), (1, true));
        assert_eq!(p.board.surface(), p.board.height(), "a perfect clear");
        let flat = PiecePos {
            orientation: 0,
            x: 0,
            y: 37,
        };
        p.play(&pieces, i, flat, Spin::None);
        assert_eq!(
            (p.combo, p.back_to_back),
            (0, true),
            "no clear: the combo ends, back-to-back stays"
        );
    }
}
