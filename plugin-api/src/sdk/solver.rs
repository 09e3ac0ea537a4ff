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

/// What the host shows the solver at one tick. Made with [`Tick::new`] and the `with_`
/// methods: fields may be added without breaking a plugin's own tests.
#[derive(Clone, Debug)]
#[non_exhaustive]
pub struct Tick {
    /// The board without the falling piece.
    pub board: Board,
    /// The falling piece.
    pub current: Option<FallingPiece>,
    /// The next piece, when the preview is on.
    pub next: Option<PieceId>,
    /// True on the first tick of each piece (a piece that enters from the hold slot is
    /// new too).
    pub new_piece: bool,
    /// Every previewed piece, the next one first (`queue[0]` is `next`): as many as the
    /// rules' `preview`, fewer at the end of a given sequence.
    pub queue: Vec<PieceId>,
    /// The held piece, under rules with hold.
    pub hold: Option<PieceId>,
    /// Whether [`Actions::HOLD`](crate::Actions::HOLD) would act this tick: the rules
    /// have hold and the falling piece did not come out of a hold.
    pub hold_available: bool,
    /// Line-clearing locks in a row up to the last lock (0 when it cleared nothing).
    pub combo: u32,
    /// The last clear was a difficult one (four lines, or a spin that cleared lines), so
    /// another earns the back-to-back bonus.
    pub back_to_back: bool,
    /// Garbage rows that rise when this piece locks unless its clears cancel them
    /// (versus only).
    pub pending_garbage: u32,
    /// Under the host's time control, on a piece's first tick: the time this piece's
    /// decision may take, its share of the clock. Every update of the piece is charged to
    /// the clock, and an update cannot be stopped, so a solver that searches stops well
    /// within it. `None` without a time control, on later ticks, or from a host that does
    /// not give it.
    pub think_budget: Option<std::time::Duration>,
}

impl Tick {
    /// A tick showing `board`, the falling piece `current`, the previewed piece `next`, and
    /// whether the piece is new this tick; nothing held, nothing pending.
    pub fn new(board: Board, current: Option<FallingPiece>, next: Option<PieceId>, new_piece: bool) -> Tick {
        Tick {
            think_budget: None,
            board,
            current,
            next,
            new_piece,
            queue: next.into_iter().collect(),
            hold: None,
            hold_available: false,
            combo: 0,
            back_to_back: false,
            pending_garbage: 0,
        }
    }

    /// The piece a hold now would bring in: the held piece, or else the next one; `None`
    /// when a hold would not act (or nothing is known to come in, the preview off).
    pub fn hold_swap(&self) -> Option<PieceId> {
        if self.hold_available {
            self.hold.or(self.next)
        } else {
            None
        }
    }

    /// The same tick with this preview `queue` (its first piece becomes `next`).
    pub fn with_queue(mut self, queue: &[PieceId]) -> Tick {
        self.next = queue.first().copied();
        self.queue = queue.to_vec();
        self
    }

    /// The same tick with `hold` in the hold slot, and a hold possible this tick or not.
    pub fn with_hold(mut self, hold: Option<PieceId>, available: bool) -> Tick {
        self.hold = hold;
        self.hold_available = available;
        self
    }

    /// The same tick with this think budget (see [`Tick::think_budget`]).
    pub fn with_think_budget(mut self, budget: Option<std::time::Duration>) -> Tick {
        self.think_budget = budget;
        self
    }

    /// The same tick with this scoring and garbage state.
    pub fn with_scoring(mut self, combo: u32, back_to_back: bool, pending_garbage: u32) -> Tick {
        self.combo = combo;
        self.back_to_back = back_to_back;
        self.pending_garbage = pending_garbage;
        self
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
