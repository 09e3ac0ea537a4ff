//! `eight-feature`: the searcher of seeds 000 and 001. A depth-first search over
//! orientation x column x slide for the current piece (shallow) or the current and the next
//! piece (deep), each leaf scored by E(b, b') = w1 F1(b) + w2 F2(b) + w3 F3(b) +
//! w4 F4(b') + ... + w8 F8(b'). Only the current piece's moves are played; the search runs
//! again for every new piece.
//!
//! Options: `w1=..,w2=..,...,w8=..` (numbers, any sign; defaults in [`Weights::DEFAULT`],
//! chosen with `tetrad tune`, see the README), `deep_limit=N` (the height, in
//! squares above the floor, at which a filled square switches to the shallow search;
//! default 14 on 20 rows, scaled to other heights), and `heights=top|floor` (how F6 and F7
//! count height: `top`, the seed's literal row numbers, is the default; `floor` is the
//! reading under which they do what the seed says they do, see below).
//!
//! # How the seeds are read
//!
//! Every reading is pinned by a test with the value worked out by hand.
//!
//! - **Rows.** Seed 001 counts rows "from 1 at the top to 20 at the bottom": row `y` of
//!   the model (0 at the top) is row number `y + 1`. F1 is the row number of the piece's
//!   lowest square (its "maximum depth"), F2 of its highest, F3 the mean of its squares'.
//! - **200.** The negations subtract from the number of squares of the board, width x
//!   height (200 on 10 x 20).
//! - **Height of a column (F6).** The row number of its topmost filled square; an empty
//!   column's surface is the floor, row height + 1 (21 on 20 rows), as if the floor were
//!   one more filled row. This keeps the sum continuous: one square on the floor is 20.
//! - **F6, literally.** Roughness = (h2 - h1) + |h2 - h3| + ... + |h8 - h9| + (h9 - h10)
//!   with h the row numbers above, the two end terms without absolute value (columns
//!   1, 2, w - 1, w for other widths). Read so, a wall column *taller* than its neighbour
//!   (smaller row number) adds to roughness, and a well at the wall subtracts: the
//!   opposite of the seed's stated intent ("encourages height against the walls"), which
//!   would hold for heights counted from the floor. The literal formula is well defined,
//!   so it is what F6 computes; roughness may be negative, so F6 = w x h - roughness may
//!   exceed w x h, and it stays positive (each of the w - 1 terms is at most h, so
//!   F6 >= h). The option `heights=floor` counts heights from the floor instead, which
//!   flips the sign of the two wall terms (and of each F7 term, below).
//! - **F7, literally.** For each column with a hole: (row number of the lowest space -
//!   row number of the topmost hole). The lowest space of such a column is the square
//!   just above its topmost filled square (row 0, the sky, if that square is on the top
//!   row), so each term is -(squares over the topmost hole + 1), never positive, and
//!   F7 = w x h - sum grows as squares pile over holes: the opposite of the name
//!   "negation of squares above holes". Again the literal formula is implemented; a
//!   negative w7 turns it into the intended penalty, and the weight search is free to
//!   choose the sign (it does: the default w7 is negative).
//! - **F8.** For each hole, the run of consecutive spaces (empty squares with no filled
//!   square above them) starting at the square directly left of it, plus the run starting
//!   directly right; a filled square, another hole or a wall ends a run.
//! - **F5 and the states.** F1-F3 are measured on b (the landing piece before its rows
//!   clear), F4 and F6-F8 on b' (after). In the deep search F1-F3 are those of the next
//!   (second) piece and F5 counts the rows of both pieces, 0 to 8.
//! - **Slides.** A slide is one column left or right after DROP (the `classic` preset's
//!   slide tick). It is searched only when the board the piece falls onto has a hole
//!   (b0 for the current piece, b1' for the next) and only where the slid piece rests;
//!   the shared move generator keeps only slides the host really plays through.
//! - **The deep-search limit.** "No filled square has a height >= 14" counts height in
//!   squares from the floor (1 for the bottom row): counted from the top, every stack
//!   would qualify and the deep search would never run. Other heights scale the limit to
//!   the nearest row, `round(14 x height / 20)` (7 on 10 rows, 15 on 22); the falling
//!   piece is not part of the board the host sends, so it never counts.
//! - **Nodes and ties.** Placements reaching the same square are searched once. The
//!   first leaf of the depth-first walk (orientation index, then drop column left to
//!   right, then slide left, none, right) wins a tie.
//! - **Game over.** A placement with a square above the board (it would end the game),
//!   or after which the next piece cannot enter, is no leaf; if no first placement has a
//!   leaf the shallow search decides, and if every placement ends the game the first is
//!   played.

mod features;
mod movegen;
mod search;
mod shape;

pub use features::{
    board_counts, column_counts, columns, counts_with, features, roughness, BoardCounts, Columns, DepthShape, Features,
    Heights, PieceDepths, Weights,
};
pub use movegen::Enumerator;
pub use search::{land, scaled_limit, Decision, Searcher, Settings, SEED_LIMIT};
pub use shape::Shape;

use tetrad_plugin_api::{Actions, GameSetup, Info, Options, Path, Solver, Tick};

/// The eight-feature player of one game.
pub struct EightFeature {
    searcher: Searcher,
    movement: tetrad_plugin_api::Movement,
    path: Option<Path>,
}

/// Reads `w1..w8`, `deep_limit` and `heights` from the options.
pub fn parse_options(setup: &GameSetup, options: &mut Options) -> Result<Settings, String> {
    const KEYS: [&str; 8] = ["w1", "w2", "w3", "w4", "w5", "w6", "w7", "w8"];
    let mut settings = Settings::defaults(setup.rules.height);
    for (weight, key) in settings.weights.0.iter_mut().zip(KEYS) {
        *weight = options.get(key, *weight)?;
        if !weight.is_finite() {
            return Err(format!("option `{key}`: {weight} is not a finite number"));
        }
    }
    settings.limit = options.get("deep_limit", settings.limit)?;
    settings.heights = match options.get("heights", "top".to_string())?.as_str() {
        "top" => Heights::FromTop,
        "floor" => Heights::FromFloor,
        other => return Err(format!("option `heights`: `{other}` is neither `top` nor `floor`")),
    };
    Ok(settings)
}

impl Solver for EightFeature {
    const INFO: Info = Info {
        name: "eight-feature",
        version: env!("CARGO_PKG_VERSION"),
        author: "tetrad",
        description: "seeds 000-001: shallow/deep search of orientation x column x slide, eight weighted features",
    };

    fn create(setup: &GameSetup, options: &mut Options) -> Result<Self, String> {
        let settings = parse_options(setup, options)?;
        Ok(EightFeature {
            searcher: Searcher::new(setup.rules, setup.pieces.clone(), settings),
            movement: setup.rules.movement(),
            path: None,
        })
    }

    fn update(&mut self, tick: &Tick) -> Actions {
        let Some(current) = tick.current else {
            return Actions::NONE;
        };
        if tick.new_piece || self.path.is_none() {
            self.path = self
                .searcher
                .decide(&tick.board, current, tick.next)
                .map(|d| d.placement.path(self.movement));
        }
        self.path.as_mut().and_then(Iterator::next).unwrap_or(Actions::DROP)
    }
}

tetrad_plugin_api::export_solver!(EightFeature);

#[cfg(test)]
mod tests;
