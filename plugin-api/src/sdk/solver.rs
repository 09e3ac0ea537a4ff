//! What a plugin author implements and reads: the [`Solver`] trait, the plugin's [`Info`],
//! the game's [`GameSetup`] and each [`Tick`].

use crate::model::board::{Board, PiecePos};
use crate::model::motion::Actions;
use crate::model::piece::{PieceId, PieceSet};
use crate::model::rules::Rules;
use crate::options::Options;

/// A plugin's description of itself.
#[derive(Clone, Copy, Debug)]
pub struct Info {
    /// Short name, as users type it after `--plugin`.
    pub name: &'static str,
    /// Version.
    pub version: &'static str,
    /// Author.
    pub author: &'static str,
    /// One-line description.
    pub description: &'static str,
}

/// What a solver learns at creation: the rules, the piece set and a seed of its own.
#[derive(Clone, Debug)]
pub struct GameSetup {
    /// The rules of the game (the randomizer is not told to plugins; it reads the preset's
    /// own: `Bag` under `guideline`, `Uniform` otherwise).
    pub rules: Rules,
    /// The piece set, with the same orientations the host uses.
    pub pieces: PieceSet,
    /// A seed for the solver's own randomness.
    pub seed: u64,
}

/// The falling piece.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct FallingPiece {
    /// Which kind it is.
    pub id: PieceId,
    /// Where it is.
    pub pos: PiecePos,
}

/// What the host shows the solver at one tick. Made with [`Tick::new`]: fields may be added
/// (a hold piece, a longer queue) without breaking a plugin's own tests.
#[derive(Clone, Debug)]
#[non_exhaustive]
pub struct Tick {
    /// The board without the falling piece.
    pub board: Board,
    /// The falling piece.
    pub current: Option<FallingPiece>,
    /// The next piece, when the preview is on.
    pub next: Option<PieceId>,
    /// True on the first tick of each piece.
    pub new_piece: bool,
}

impl Tick {
    /// A tick showing `board`, the falling piece `current`, the previewed piece `next`, and
    /// whether the piece is new this tick.
    pub fn new(board: Board, current: Option<FallingPiece>, next: Option<PieceId>, new_piece: bool) -> Tick {
        Tick {
            board,
            current,
            next,
            new_piece,
        }
    }
}

/// A Tetris solver. One value plays one game; the host creates one per game.
pub trait Solver: Send + Sized + 'static {
    /// The plugin's name, version, author and description.
    const INFO: Info;

    /// Creates a solver for one game. Take your options from `options`; keys you do not
    /// take are reported to the user as unknown. An `Err` is shown to the user verbatim.
    fn create(setup: &GameSetup, options: &mut Options) -> Result<Self, String>;

    /// Called once per tick: the actions to apply to the falling piece.
    fn update(&mut self, tick: &Tick) -> Actions;
}
