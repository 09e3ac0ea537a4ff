//! The rules a game is played under: a named preset and the parameters it leaves open.

use super::board::{Board, Lock, PiecePos};
use super::piece::{Orientation, PieceKind, PieceSet};
use super::rotation::RotationSystem;
use std::str::FromStr;

mod preset;
pub use preset::Preset;

/// How the falling piece moves between ticks.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Movement {
    /// One row down per tick; DROP falls to rest, and a resting piece locks on the next
    /// tick's gravity or DROP, so it may still slide for one tick.
    Gravity,
    /// No gravity: the piece hovers at its entry row while it turns and shifts; DROP
    /// falls and locks in the same tick.
    DropOnly,
}

/// How the next pieces are drawn.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Randomizer {
    /// Independent and uniform over the set.
    Uniform,
    /// Every piece of the set once, in random order, then again.
    Bag,
}

impl Randomizer {
    /// The randomizer's name on the command line.
    pub fn name(self) -> &'static str {
        match self {
            Randomizer::Uniform => "uniform",
            Randomizer::Bag => "bag",
        }
    }
}

impl FromStr for Randomizer {
    type Err = RulesError;

    fn from_str(s: &str) -> Result<Randomizer, RulesError> {
        match s {
            "uniform" => Ok(Randomizer::Uniform),
            "bag" | "7-bag" => Ok(Randomizer::Bag),
            _ => Err(RulesError::UnknownRandomizer(s.to_string())),
        }
    }
}

/// A rules value that cannot be played.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum RulesError {
    /// The preset name is not one of the known presets.
    #[error("unknown preset `{0}` (expected classic, leiden, simplified or guideline)")]
    UnknownPreset(String),
    /// The randomizer name is not known.
    #[error("unknown randomizer `{0}` (expected uniform or bag)")]
    UnknownRandomizer(String),
    /// A board dimension is out of the preset's range.
    #[error("{what} {value} is out of range {min}..={max} for preset {preset}")]
    OutOfRange {
        /// "width", "height" or "preview".
        what: &'static str,
        /// The rejected value.
        value: usize,
        /// Smallest accepted value.
        min: usize,
        /// Largest accepted value.
        max: usize,
        /// The preset whose range it is.
        preset: Preset,
    },
    /// A piece is wider or taller than the board can take.
    #[error("piece `{piece}` ({width}x{height}) does not fit a {board_width}x{board_height} board")]
    PieceTooLarge {
        /// The piece's name.
        piece: String,
        /// Its widest orientation.
        width: u8,
        /// Its tallest orientation.
        height: u8,
        /// The board's width.
        board_width: usize,
        /// The board's height.
        board_height: usize,
    },
    /// The guideline preset plays the seven tetrominoes (its kick tables are theirs).
    #[error("preset guideline plays the seven tetrominoes with their SRS kicks; a piece-set file cannot be used")]
    GuidelinePieces,
    /// A piece's orientations fit the board, but its rotation box is wider: the piece
    /// enters and turns with its box on the board, so it could never enter.
    #[error("piece `{piece}`: its rotations need a box of {box_size} columns, the board is {board_width} wide")]
    BoxTooWide {
        /// The piece's name.
        piece: String,
        /// The side of its rotation box.
        box_size: u8,
        /// The board's width.
        board_width: usize,
    },
}

/// Everything that decides how a game plays, but for the pieces and the seed.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Rules {
    /// The named preset.
    pub preset: Preset,
    /// Columns.
    pub width: usize,
    /// Rows; under `leiden` this includes the three rows above the well.
    pub height: usize,
    /// How many next pieces the player sees (0 or 1; up to 6 under `guideline`).
    pub preview: usize,
    /// How pieces are drawn.
    pub randomizer: Randomizer,
}

impl Rules {
    /// Rows above the well under `leiden`; a cell left in the lowest of them ends the game.
    pub const LEIDEN_TOP_ROWS: usize = 3;
    /// Rows of buffer above the visible field under `guideline`, counted in its height.
    pub const GUIDELINE_BUFFER_ROWS: usize = 20;
    /// The most next pieces any preset shows.
    pub const MAX_PREVIEW: usize = 6;

    /// The preset's defaults: `classic` 10x20 with preview 1, `leiden` 10x10 (7 rows of
    /// well), `simplified` 10x20, all uniform; `guideline` 10 wide, 40 high (20 visible
    /// under 20 of buffer), six previews from a 7-bag.
    pub fn preset(preset: Preset) -> Rules {
        let (height, preview, randomizer) = match preset {
            Preset::Classic => (20, 1, Randomizer::Uniform),
            Preset::Leiden => (10, 0, Randomizer::Uniform),
            Preset::Simplified => (20, 0, Randomizer::Uniform),
            Preset::Guideline => (40, 6, Randomizer::Bag),
        };
        Rules {
            preset,
            width: 10,
            height,
            preview,
            randomizer,
        }
    }

    /// How a piece moves under these rules.
    #[inline]
    pub fn movement(&self) -> Movement {
        self.preset.movement()
    }

    /// How a piece turns under these rules.
    #[inline]
    pub fn rotation(&self) -> RotationSystem {
        self.preset.rotation()
    }

    /// Checks the sizes against the preset's ranges and that every piece fits the board:
    /// each orientation, and its rotation box too, since a piece enters with its box
    /// centred on the board ([`Rules::spawn`]) and turns inside it. A box wider than the
    /// board would put the piece's cells off the board, under every preset, and every game
    /// would end before its first piece.
    pub fn validate(&self, pieces: &PieceSet) -> Result<(), RulesError> {
        let check = |what, value: usize, (min, max): (usize, usize)| {
            if value < min || value > max {
                return Err(RulesError::OutOfRange {
                    what,
                    value,
                    min,
                    max,
                    preset: self.preset,
                });
            }
            Ok(())
        };
        check("width", self.width, self.preset.width_range())?;
        check("height", self.height, self.preset.height_range())?;
        check("preview", self.preview, (0, self.preset.max_preview()))?;
        if self.preset == Preset::Guideline && !pieces.is_srs() {
            return Err(RulesError::GuidelinePieces);
        }
        for kind in pieces.kinds() {
            let too_wide = kind.orientations().iter().any(|o| usize::from(o.width()) > self.width);
            let too_tall = usize::from(kind.box_size()) > self.height;
            if too_wide || too_tall {
                return Err(RulesError::PieceTooLarge {
                    piece: kind.name().to_string(),
                    width: kind.orientation(0).width(),
                    height: kind.orientation(0).height(),
                    board_width: self.width,
                    board_height: self.height,
                });
            }
            if usize::from(kind.box_size()) > self.width {
                return Err(RulesError::BoxTooWide {
                    piece: kind.name().to_string(),
                    box_size: kind.box_size(),
                    board_width: self.width,
                });
            }
        }
        Ok(())
    }

    /// Where a new piece appears: orientation 0, its rotation box centred (rounded left),
    /// at its entry row. Under `guideline` the piece then drops one row at once when it
    /// can: [`Rules::enter`] gives where it is after that.
    #[inline]
    pub fn spawn(&self, kind: &PieceKind) -> PiecePos {
        let x = (self.width as i8 - kind.box_size() as i8) / 2;
        PiecePos {
            orientation: 0,
            x,
            y: self.entry_row(kind, 0),
        }
    }

    /// Where a new piece is once it has entered `board`: its [spawn](Rules::spawn), and
    /// under `guideline` one row lower if it fits there too. The guideline spawns a piece
    /// in the two buffer rows over the field and drops it one row at once when nothing
    /// blocks it, so on a free board it hovers with its bottom cell in the field's top row
    /// (TBP's "y=19"). Where it does not fit at its spawn, it stays there: the game is
    /// over (block out), and the caller checks [`Board::fits`]. The other presets enter at
    /// the spawn itself.
    ///
    /// This is where a search for the falling piece's placements starts, and where the
    /// piece a hold brings in (or the next piece, on the board its lock leaves) starts.
    /// Always inlined: the engine calls it for every piece, and the preset's test then
    /// folds into its caller's.
    #[inline(always)]
    pub fn enter(&self, board: &Board, kind: &PieceKind) -> PiecePos {
        let spawn = self.spawn(kind);
        if self.preset != Preset::Guideline {
            return spawn;
        }
        let shape = kind.orientation(spawn.orientation);
        if board.fits(shape, spawn.x, spawn.y) && board.fits(shape, spawn.x, spawn.y + 1) {
            PiecePos {
                y: spawn.y + 1,
                ..spawn
            }
        } else {
            spawn
        }
    }

    /// Whether a lock that left `after` (rows already cleared) ends the game: a cell above
    /// the board under every preset, or, under `leiden`, any cell in the lowest of the
    /// three top rows. (A next piece that cannot enter also ends it; the engine checks
    /// that when the piece enters. Under `guideline` a piece that locks wholly in the
    /// buffer ends it too: see [`Rules::locks_out`].)
    #[inline]
    pub fn lock_ends_game(&self, lock: &Lock, after: &Board) -> bool {
        lock.above_board || (self.preset == Preset::Leiden && after.rows()[Rules::LEIDEN_TOP_ROWS - 1] != 0)
    }

    /// The rows worth showing on a screen: all of them, but under `guideline` only the
    /// visible field and the two buffer rows over it where pieces spawn.
    pub fn shown_rows(&self) -> std::ops::Range<usize> {
        self.buffer_rows().saturating_sub(2)..self.height
    }

    /// Whether a player may hold a piece: under `guideline`.
    pub fn has_hold(&self) -> bool {
        self.preset == Preset::Guideline
    }

    /// Rows of buffer above the visible field: 20 under `guideline`, none otherwise.
    pub fn buffer_rows(&self) -> usize {
        match self.preset {
            Preset::Guideline => Rules::GUIDELINE_BUFFER_ROWS,
            Preset::Classic | Preset::Leiden | Preset::Simplified => 0,
        }
    }

    /// The guideline's lock out: a piece of this shape locking at row `y` has no cell in
    /// the visible field, all of them in the buffer above it.
    #[inline]
    pub fn locks_out(&self, shape: &Orientation, y: i8) -> bool {
        let bottom = i32::from(y) + i32::from(shape.top()) + i32::from(shape.height()) - 1;
        self.preset == Preset::Guideline && bottom < Rules::GUIDELINE_BUFFER_ROWS as i32
    }

    /// The row a piece of this orientation enters at: its top cell on row 0 (`classic`),
    /// its bottom cell on row 2, the lowest of the three rows above the well (`leiden`),
    /// its bottom cell just above row 0 (`simplified`), or its bottom cell in the buffer
    /// row just above the visible field (`guideline`: rows 21 and 22 counted from the
    /// bottom of the visible field, where the guideline's later games spawn; the piece then
    /// drops one row at once when it can, see [`Rules::enter`]).
    ///
    /// Under `leiden` a hovering piece so never touches the well: the Kosters skeleton
    /// places a piece at its column without a path, and a vertical I turned or shifted
    /// across rows 0-3 would otherwise be stopped by a cell in row 3 that the skeleton
    /// never checks. Pieces up to three rows tall still enter with their top on row 0.
    #[inline]
    pub fn entry_row(&self, kind: &PieceKind, orientation: u8) -> i8 {
        let o = kind.orientation(orientation);
        match self.preset {
            Preset::Classic => -o.top(),
            Preset::Leiden => (Rules::LEIDEN_TOP_ROWS as i8 - 1) - (o.top() + o.height() as i8 - 1),
            Preset::Simplified => -(o.top() + o.height() as i8),
            Preset::Guideline => Rules::GUIDELINE_BUFFER_ROWS as i8 - (o.top() + o.height() as i8),
        }
    }
}

impl Default for Rules {
    fn default() -> Rules {
        Rules::preset(Preset::Classic)
    }
}

#[cfg(test)]
mod tests;
