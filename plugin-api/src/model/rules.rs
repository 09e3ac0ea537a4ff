//! The rules a game is played under: a named preset and the parameters it leaves open.

use super::board::{Board, Lock, PiecePos, MAX_HEIGHT, MAX_WIDTH};
use super::piece::{PieceKind, PieceSet};
use std::fmt;
use std::str::FromStr;

/// A named set of rules; `docs/rules.md` gives each preset's exact tick order.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Preset {
    /// WinTetris demo mode: gravity, DROP then an optional slide, preview of one piece.
    Classic,
    /// The Leiden course skeleton: choose orientation and column in the top three rows,
    /// DROP falls and locks; any cell left in the lowest of those rows ends the game.
    Leiden,
    /// The research benchmark: choose orientation and column above the board, DROP falls
    /// and locks; a piece left above the board ends the game and clears nothing.
    Simplified,
}

impl Preset {
    /// Every preset, in the order `docs/rules.md` lists them.
    pub const ALL: [Preset; 3] = [Preset::Classic, Preset::Leiden, Preset::Simplified];

    /// The preset's name on the command line.
    pub fn name(self) -> &'static str {
        match self {
            Preset::Classic => "classic",
            Preset::Leiden => "leiden",
            Preset::Simplified => "simplified",
        }
    }

    /// The number carried in the ABI's game info.
    pub fn abi_id(self) -> u32 {
        match self {
            Preset::Classic => 0,
            Preset::Leiden => 1,
            Preset::Simplified => 2,
        }
    }

    /// The preset with this ABI number.
    pub fn from_abi_id(id: u32) -> Option<Preset> {
        Preset::ALL.into_iter().find(|p| p.abi_id() == id)
    }

    /// How a piece moves under this preset.
    #[inline]
    pub fn movement(self) -> Movement {
        match self {
            Preset::Classic => Movement::Gravity,
            Preset::Leiden | Preset::Simplified => Movement::DropOnly,
        }
    }

    fn width_range(self) -> (usize, usize) {
        match self {
            Preset::Leiden => (4, 20),
            Preset::Classic | Preset::Simplified => (4, MAX_WIDTH),
        }
    }

    fn height_range(self) -> (usize, usize) {
        match self {
            Preset::Leiden => (4, 15),
            Preset::Classic | Preset::Simplified => (4, MAX_HEIGHT),
        }
    }
}

impl fmt::Display for Preset {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl FromStr for Preset {
    type Err = RulesError;

    fn from_str(s: &str) -> Result<Preset, RulesError> {
        Preset::ALL
            .into_iter()
            .find(|p| p.name() == s)
            .ok_or_else(|| RulesError::UnknownPreset(s.to_string()))
    }
}

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
    #[error("unknown preset `{0}` (expected classic, leiden or simplified)")]
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
    /// How many next pieces the player sees (0 or 1).
    pub preview: usize,
    /// How pieces are drawn.
    pub randomizer: Randomizer,
}

impl Rules {
    /// Rows above the well under `leiden`; a cell left in the lowest of them ends the game.
    pub const LEIDEN_TOP_ROWS: usize = 3;

    /// The preset's defaults: `classic` 10x20 with preview 1, `leiden` 10x10 (7 rows of
    /// well), `simplified` 10x20; all uniform.
    pub fn preset(preset: Preset) -> Rules {
        let (height, preview) = match preset {
            Preset::Classic => (20, 1),
            Preset::Leiden => (10, 0),
            Preset::Simplified => (20, 0),
        };
        Rules {
            preset,
            width: 10,
            height,
            preview,
            randomizer: Randomizer::Uniform,
        }
    }

    /// How a piece moves under these rules.
    #[inline]
    pub fn movement(&self) -> Movement {
        self.preset.movement()
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
        let max_preview = if self.preset == Preset::Leiden { 0 } else { 1 };
        check("preview", self.preview, (0, max_preview))?;
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
    /// at its entry row.
    #[inline]
    pub fn spawn(&self, kind: &PieceKind) -> PiecePos {
        let x = (self.width as i8 - kind.box_size() as i8) / 2;
        PiecePos {
            orientation: 0,
            x,
            y: self.entry_row(kind, 0),
        }
    }

    /// Whether a lock that left `after` (rows already cleared) ends the game: a cell above
    /// the board under every preset, or, under `leiden`, any cell in the lowest of the
    /// three top rows. (A next piece that cannot enter also ends it; the engine checks
    /// that when the piece enters.)
    #[inline]
    pub fn lock_ends_game(&self, lock: &Lock, after: &Board) -> bool {
        lock.above_board || (self.preset == Preset::Leiden && after.rows()[Rules::LEIDEN_TOP_ROWS - 1] != 0)
    }

    /// The row a piece of this orientation enters at: its top cell on row 0 (`classic`),
    /// its bottom cell on row 2, the lowest of the three rows above the well (`leiden`), or
    /// its bottom cell just above row 0 (`simplified`).
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
        }
    }
}

impl Default for Rules {
    fn default() -> Rules {
        Rules::preset(Preset::Classic)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn presets_parse_and_validate() {
        let set = PieceSet::tetrominoes();
        for preset in Preset::ALL {
            assert_eq!(preset.name().parse::<Preset>(), Ok(preset));
            assert_eq!(Rules::preset(preset).validate(&set), Ok(()));
        }
        assert!("tengen".parse::<Preset>().is_err());
    }

    #[test]
    fn out_of_range_sizes_name_the_value() {
        let set = PieceSet::tetrominoes();
        let mut rules = Rules::preset(Preset::Leiden);
        rules.width = 21;
        let err = rules.validate(&set).unwrap_err();
        assert_eq!(err.to_string(), "width 21 is out of range 4..=20 for preset leiden");
        rules.width = 10;
        rules.preview = 1;
        assert!(rules.validate(&set).is_err());
    }

    #[test]
    fn a_rotation_box_wider_than_the_board_is_refused_by_name() {
        // A bar of 5 drawn in a box of 6: it fits a 5-wide board, its box does not.
        let cells = (1..6).map(|x| (x, 2)).collect();
        let set = PieceSet::new(vec![PieceKind::in_box("X", 6, cells)]);
        for preset in Preset::ALL {
            let mut rules = Rules::preset(preset);
            rules.width = 5;
            let err = rules.validate(&set).unwrap_err();
            assert_eq!(
                err.to_string(),
                "piece `X`: its rotations need a box of 6 columns, the board is 5 wide",
                "{preset}"
            );
            rules.width = 6;
            assert_eq!(rules.validate(&set), Ok(()), "{preset}");
        }
    }

    #[test]
    fn spawn_is_centred_with_the_top_cell_on_row_zero() {
        let set = PieceSet::tetrominoes();
        let rules = Rules::default();
        let i = set.kind(crate::model::piece::PieceId(0));
        let o = set.kind(crate::model::piece::PieceId(1));
        assert_eq!(
            rules.spawn(i),
            PiecePos {
                orientation: 0,
                x: 3,
                y: -1
            }
        );
        assert_eq!(
            rules.spawn(o),
            PiecePos {
                orientation: 0,
                x: 4,
                y: 0
            }
        );
        let simplified = Rules::preset(Preset::Simplified);
        assert_eq!(simplified.spawn(o).y, -2);
    }
}
