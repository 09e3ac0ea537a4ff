//! How a setup writes its rules and its piece set: the rules by name and size, and each
//! piece by its first orientation in its rotation box, checked when read back (its other
//! orientations turned from the first as the rules' rotation system turns them).

use serde::{Deserialize, Serialize};
use tetrad_plugin_api::{PieceKind, PieceSet, RotationSystem, Rules, MAX_PIECE_SIZE};

/// The rules, by name and size.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct RulesRecord {
    /// `classic`, `leiden` or `simplified`.
    pub preset: String,
    /// Board columns.
    pub width: usize,
    /// Board rows.
    pub height: usize,
    /// Next pieces shown.
    pub preview: usize,
    /// `uniform` or `bag`.
    pub randomizer: String,
}

/// One piece kind: its first orientation, from which the others are generated.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct PieceRecord {
    /// The piece's name.
    pub name: String,
    /// Side of its square rotation box.
    #[serde(rename = "box")]
    pub box_size: u8,
    /// Orientation 0's cells as `[x, y]` within the box.
    pub cells: Vec<[i8; 2]>,
}

impl PieceRecord {
    /// The piece kind, with its orientations generated as from a piece-set file, or under
    /// SRS as its four rotation states (I, S and Z keep four).
    pub(super) fn kind(&self, rotation: RotationSystem) -> Result<PieceKind, String> {
        let bad = |problem: &str| format!("piece `{}`: {problem}", crate::input::printable(self.name.clone()));
        if self.name.is_empty() || self.name.chars().any(char::is_control) {
            // As in a piece-set file: a name is printed, on screens and in reports.
            return Err(bad("the name must be non-empty text"));
        }
        if self.box_size == 0 || usize::from(self.box_size) > MAX_PIECE_SIZE {
            return Err(bad(&format!(
                "box {} is out of range 1..={MAX_PIECE_SIZE}",
                self.box_size
            )));
        }
        if self.cells.is_empty() {
            return Err(bad("no cells"));
        }
        let size = self.box_size as i8;
        let mut cells: Vec<(i8, i8)> = Vec::with_capacity(self.cells.len());
        for &[x, y] in &self.cells {
            if !(0..size).contains(&x) || !(0..size).contains(&y) {
                return Err(bad(&format!("cell [{x}, {y}] is outside its {size}x{size} box")));
            }
            if cells.contains(&(x, y)) {
                return Err(bad(&format!("cell [{x}, {y}] is listed twice")));
            }
            cells.push((x, y));
        }
        Ok(match rotation {
            RotationSystem::Srs => PieceKind::srs(self.name.clone(), self.box_size, cells),
            RotationSystem::InBox => PieceKind::in_box(self.name.clone(), self.box_size, cells),
        })
    }
}

impl RulesRecord {
    /// The record of `rules`.
    pub fn of(rules: &Rules) -> RulesRecord {
        RulesRecord {
            preset: rules.preset.name().to_string(),
            width: rules.width,
            height: rules.height,
            preview: rules.preview,
            randomizer: rules.randomizer.name().to_string(),
        }
    }

    /// The rules back (not yet checked against a piece set).
    pub(super) fn rules(&self) -> Result<Rules, String> {
        Ok(Rules {
            preset: self.preset.parse().map_err(|e| format!("{e}"))?,
            width: self.width,
            height: self.height,
            preview: self.preview,
            randomizer: self.randomizer.parse().map_err(|e| format!("{e}"))?,
        })
    }
}

impl PieceRecord {
    /// The records of every piece of `pieces`, in piece-index order.
    pub fn all(pieces: &PieceSet) -> Vec<PieceRecord> {
        pieces
            .kinds()
            .iter()
            .map(|kind| PieceRecord {
                name: kind.name().to_string(),
                box_size: kind.box_size(),
                cells: kind.orientation(0).cells().iter().map(|&(x, y)| [x, y]).collect(),
            })
            .collect()
    }

    /// The piece set of `records`, turned by `rotation`: 1 to 255 pieces, each checked.
    pub(super) fn set(records: &[PieceRecord], rotation: RotationSystem) -> Result<PieceSet, String> {
        if records.is_empty() || records.len() > 255 {
            return Err(format!("{} pieces; 1 to 255 are needed", records.len()));
        }
        let kinds = records
            .iter()
            .map(|record| record.kind(rotation))
            .collect::<Result<Vec<_>, _>>()?;
        Ok(PieceSet::new(kinds))
    }
}
