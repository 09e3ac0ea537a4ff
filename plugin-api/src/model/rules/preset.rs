//! The named presets: what each models and the parameters it fixes.

use super::{Movement, Rules, RulesError};
use crate::model::board::{MAX_HEIGHT, MAX_WIDTH};
use crate::model::piece::PieceSet;
use crate::model::rotation::RotationSystem;
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
    /// The modern guideline game: 20 visible rows under a 20-row buffer, SRS turns with
    /// wall kicks, a 7-bag and up to six previews; the piece spawns in the buffer, drops
    /// one row at once if it can, and hovers there; soft drop falls to rest, DROP (hard
    /// drop) falls and locks.
    Guideline,
}

impl Preset {
    /// Every preset, in the order `docs/rules.md` lists them.
    pub const ALL: [Preset; 4] = [Preset::Classic, Preset::Leiden, Preset::Simplified, Preset::Guideline];

    /// The preset's name on the command line.
    pub fn name(self) -> &'static str {
        match self {
            Preset::Classic => "classic",
            Preset::Leiden => "leiden",
            Preset::Simplified => "simplified",
            Preset::Guideline => "guideline",
        }
    }

    /// The number carried in the ABI's game info.
    pub fn abi_id(self) -> u32 {
        match self {
            Preset::Classic => 0,
            Preset::Leiden => 1,
            Preset::Simplified => 2,
            Preset::Guideline => 3,
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
            Preset::Leiden | Preset::Simplified | Preset::Guideline => Movement::DropOnly,
        }
    }

    /// The preset's own pieces: the seven tetrominoes, with their SRS states under
    /// `guideline`.
    pub fn pieces(self) -> PieceSet {
        match self {
            Preset::Guideline => PieceSet::srs(),
            Preset::Classic | Preset::Leiden | Preset::Simplified => PieceSet::tetrominoes(),
        }
    }

    /// How a piece turns under this preset.
    #[inline]
    pub fn rotation(self) -> RotationSystem {
        match self {
            Preset::Guideline => RotationSystem::Srs,
            Preset::Classic | Preset::Leiden | Preset::Simplified => RotationSystem::InBox,
        }
    }

    /// The widths the preset plays, least and most.
    pub(super) fn width_range(self) -> (usize, usize) {
        match self {
            Preset::Leiden => (4, 20),
            Preset::Classic | Preset::Simplified | Preset::Guideline => (4, MAX_WIDTH),
        }
    }

    /// The heights the preset plays, least and most.
    pub(super) fn height_range(self) -> (usize, usize) {
        match self {
            Preset::Leiden => (4, 15),
            Preset::Guideline => (Rules::GUIDELINE_BUFFER_ROWS + 4, MAX_HEIGHT),
            Preset::Classic | Preset::Simplified => (4, MAX_HEIGHT),
        }
    }

    /// The most previewed pieces the preset shows.
    pub(super) fn max_preview(self) -> usize {
        match self {
            Preset::Leiden => 0,
            Preset::Classic | Preset::Simplified => 1,
            Preset::Guideline => Rules::MAX_PREVIEW,
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
