//! `chasm`: the WinTetris demo.dll of seed 002. `create_list` lists every rotation at
//! every x-offset, dropped straight down; `rateBlock` scores each with the seed's
//! constants; the score of a move is its own plus the best of the next piece after it;
//! the list is rated over 4 ticks (`split`), and the placer matches rotation and x-offset,
//! then drops.
//!
//! Options, each overriding one constant of the seed: `hole=-500` (per empty square under
//! the block), `fill=0` (per square filled between two filled neighbours), `single=200`
//! (one line), `multi=500` (per line, for two or more), `highest=-150` and `lowest=-75`
//! (times the height of the block's highest and lowest square), `chasm=400` (per chasm
//! removed), and `split=4` (ticks the rating is spread over; 1 rates at once).
//!
//! # How the seed is read
//!
//! Every reading is pinned by a test with the value worked out by hand.
//!
//! - **The move list.** "All four rotations": 0 to 3 clockwise turns of the piece where
//!   it is when the list is made, so an O is listed four times and I, S, Z twice. A
//!   rotation that does not fit where the piece is gets no entries. "Moves the block to
//!   the far left", then "a certain number of spaces to the right": the piece is shifted
//!   left while it fits, then k = 0 .. width - 1 columns right, stopping at the first
//!   shift that does not fit; duplicates stay in the list. Each entry is dropped straight
//!   down from the piece's row. No slides.
//! - **Height.** Squares counted from the floor: a square on the bottom row has height 1
//!   (on 20 rows, row 0 at the top has height 20). "Penalise 150 points times the height
//!   of the tallest square" then makes high placements cost more, as intended.
//! - **Holes the block leaves underneath itself.** Each empty square directly under a
//!   square of the block, other than the block's own squares: one per column at most
//!   (a deeper empty square under that one is not counted again). The floor is not empty.
//! - **Squares filled in a vertical column.** A square of the block whose left and right
//!   neighbours were filled before the placement (a wall counts as filled); 0 points each,
//!   as the seed says, so it only matters when the option `fill` is set.
//! - **Lines.** Exactly one line: 200; more than one: 500 for each.
//! - **Chasms.** An empty square whose left and right neighbours are filled, a wall
//!   counting as filled (a one-wide well against a wall is a chasm, just as one between
//!   two stacks), counted over the whole field. "Before and after the placement": the
//!   field before, and the field after the block is placed and its lines are cleared, the
//!   field the next piece meets. The award is 400 x (before - after).
//! - **The sum.** A move's score is its rateBlock plus the highest rateBlock of the next
//!   piece (listed from its spawn position) on the field after the move. A move that
//!   would end the game (a square above the board, or the next piece unable to enter) is
//!   rated below every other, so it is played only when all are. The highest sum wins; a
//!   tie goes to the earlier entry in the list.
//! - **`split`.** The list is made on the piece's first tick, from where it is, and
//!   rated a quarter per tick, so the first three ticks return no action while the piece
//!   falls by gravity, and the fourth rates the last quarter and makes the first move.
//!   The field is the same on all four ticks, so the choice is the one an unsplit rating
//!   makes (tested); only the piece has fallen three rows meanwhile.
//! - **The placer.** Each tick: a clockwise turn if the orientation differs, a shift of
//!   one column toward the target x-offset (both in one tick, as the ORed result allows),
//!   and DROP once both match. Under `classic` the dropped piece rests and locks on the
//!   next tick, which drops again. If the piece has fallen past a ledge that changes
//!   where it lands, it lands there: the placer matches rotation and x-offset only.

mod movegen;
mod rate;
mod solver;

pub use movegen::{create_list, Block};
pub use rate::{chasms, measure, rate_block, Constants, Rating};
pub use solver::{move_piece, Planner, GAME_OVER};

use tetrad_plugin_api::{Actions, GameSetup, Info, Options, Solver, Tick};

/// The seed's `split`: ticks the rating is spread over.
pub const SPLIT: usize = 4;

/// Reads the constants and `split` from the options.
pub fn parse_options(options: &mut Options) -> Result<(Constants, usize), String> {
    let seed = Constants::SEED;
    let constants = Constants {
        hole: options.get("hole", seed.hole)?,
        fill: options.get("fill", seed.fill)?,
        single: options.get("single", seed.single)?,
        multi: options.get("multi", seed.multi)?,
        highest: options.get("highest", seed.highest)?,
        lowest: options.get("lowest", seed.lowest)?,
        chasm: options.get("chasm", seed.chasm)?,
    };
    let split: usize = options.get("split", SPLIT)?;
    if split == 0 {
        return Err("option `split`: must be at least 1".to_string());
    }
    Ok((constants, split))
}

/// The demo.dll player of one game.
pub struct Chasm {
    planner: Planner,
}

impl Solver for Chasm {
    const INFO: Info = Info {
        name: "chasm",
        version: env!("CARGO_PKG_VERSION"),
        author: "tetrad",
        description: "seed 002: WinTetris demo.dll, rateBlock over current + next piece, split over 4 ticks",
    };

    fn create(setup: &GameSetup, options: &mut Options) -> Result<Self, String> {
        let (constants, split) = parse_options(options)?;
        Ok(Chasm {
            planner: Planner::new(setup.rules, setup.pieces.clone(), constants, split),
        })
    }

    fn update(&mut self, tick: &Tick) -> Actions {
        match tick.current {
            Some(current) => self.planner.update(&tick.board, current, tick.next, tick.new_piece),
            None => Actions::NONE,
        }
    }
}

tetrad_plugin_api::export_solver!(Chasm);

#[cfg(test)]
mod tests;
