//! `eight-feature`: the searcher of seeds 000 and 001. A depth-first search over
//! orientation x column x slide for the current piece (shallow) or the current and the next
//! piece (deep), each leaf scored by E(b, b') = w1 F1(b) + w2 F2(b) + w3 F3(b) +
//! w4 F4(b') + ... + w8 F8(b'). Only the current piece's moves are played; the search runs
//! again for every new piece.
//!
//! Options: `w1=..,w2=..,...,w8=..` (numbers, any sign; defaults in [`Weights::DEFAULT`],
//! chosen with `tetrad tune`, see the README), `deep_limit=N` (the height, in
//! squares above the floor, at which a filled square switches to the shallow search;
//! default 14 on 20 rows, scaled to other heights), `heights=floor|top` (how F6 and F7
//! count height: `floor`, the default, is the reading under which they do what the seed
//! says they do; `top` is the row numbers its formulas are written in, see below) and
//! `walls=clip|signed` (whether F6's two wall terms count when negative: `clip`, the
//! default, does not; `signed` is the formula as written). The letter of the seed is
//! `heights=top,walls=signed`.
//!
//! # How the seeds are read
//!
//! Every reading is pinned by a test with the value worked out by hand. Where the
//! seed's formula and its stated purpose disagree (F6 and F7), the purpose is the default
//! and the formula as written is the option `heights=top,walls=signed`.
//!
//! - **Rows.** Seed 001 counts rows "from 1 at the top to 20 at the bottom": row `y` of
//!   the model (0 at the top) is row number `y + 1`. F1 is the row number of the piece's
//!   lowest square (its "maximum depth"), F2 of its highest, F3 the mean of its squares'.
//!   F1-F3 are depths and the seed means them so; only F6 and F7 are read from the floor.
//! - **200.** The negations subtract from the number of squares of the board, width x
//!   height (200 on 10 x 20).
//! - **F6.** Roughness = (h2 - h1) + |h2 - h3| + ... + |h8 - h9| + (h9 - h10), the two
//!   end terms without absolute value (columns 1, 2, w - 1, w for other widths). The
//!   seed says of it "the definition encourages height to accumulate against the walls
//!   ... This is intentional": that holds only when h is a height counted from the floor
//!   (a column's number of rows up to its topmost filled square, 0 for an empty column),
//!   since then a wall column taller than its neighbour makes its end term negative. So
//!   by default h is that height.
//! - **F6 under `heights=top`.** The seed's formula also says "hi is the height (row
//!   number, from 1 at the top to 20 at the bottom)". Read so (an empty column's surface
//!   is the floor, row height + 1), a wall column *taller* than its neighbour adds to
//!   roughness and a well at the wall subtracts: the opposite of the stated intent. The
//!   inner terms are the same in both readings; the two end terms change sign.
//! - **F6's wall terms.** Counted from the floor and taken as written, a negative wall
//!   term pays for more than the wall's height: a one-column canyon beside a wall column
//!   taller than it costs nothing, its inner term |h2 - h3| cancelled by (h2 - h1), and
//!   the roughness goes negative. Yet the seed calls roughness "the sum of surface
//!   height differences" and gives F6 the purpose of counteracting "deep canyons that
//!   can only be filled by" the long piece. So by default (`walls=clip`) a wall term
//!   counts only when positive: a wall column lower than its neighbour counts the step,
//!   a taller one counts nothing. Height still gathers against the walls (a tall column
//!   there costs nothing, elsewhere it costs both of its sides) and a canyon costs its
//!   depth at least. `walls=signed` keeps the terms as written (roughness may then be
//!   negative, and F6 exceed w x h by up to 2 x h). In games the difference is large:
//!   the crate README has the figures. Under `heights=top` clipping keeps the positive
//!   terms of that count (a wall column taller than its neighbour); the seed's letter is
//!   `heights=top,walls=signed`.
//! - **F7.** "F7 = negation of squares above holes": for each column with a hole,
//!   (height of the lowest space - height of the topmost hole), summed and subtracted
//!   from w x h. The lowest space of such a column is the square just above its topmost
//!   filled square (the sky, one above the top row, if that square is on the top row).
//!   Counted from the floor each term is the squares over the topmost hole plus one, so
//!   F7 falls as squares pile over holes, as its name says; by default heights are so
//!   counted.
//! - **F7 under `heights=top`.** With the seed's row numbers (1 at the top, the sky 0)
//!   each term is -(squares over the topmost hole + 1), never positive, and F7 *grows* as
//!   squares pile over holes: the opposite of the name. Only a negative w7 makes it a
//!   penalty.
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
    Heights, PieceDepths, Walls, Weights,
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
    settings.heights = match options.get("heights", "floor".to_string())?.as_str() {
        "top" => Heights::FromTop,
        "floor" => Heights::FromFloor,
        other => return Err(format!("option `heights`: `{other}` is neither `top` nor `floor`")),
    };
    settings.walls = match options.get("walls", "clip".to_string())?.as_str() {
        "clip" => Walls::Clipped,
        "signed" => Walls::Signed,
        other => return Err(format!("option `walls`: `{other}` is neither `clip` nor `signed`")),
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
