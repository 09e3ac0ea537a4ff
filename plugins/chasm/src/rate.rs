//! `rateBlock`: the seed's objective function, term by term, with its constants.

use crate::movegen::Block;
use tetrad_plugin_api::{Board, PieceKind};

/// The constants of `rateBlock`, as points per unit (a penalty is negative).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Constants {
    /// Per empty square directly under a square of the placed block: -500.
    pub hole: i64,
    /// Per square the block fills that had filled neighbours on both sides: 0.
    pub fill: i64,
    /// For a placement that clears exactly one line: +200.
    pub single: i64,
    /// Per line, for a placement that clears more than one: +500.
    pub multi: i64,
    /// Times the height of the block's highest square: -150.
    pub highest: i64,
    /// Times the height of the block's lowest square: -75.
    pub lowest: i64,
    /// Per chasm fewer after the placement than before: +400.
    pub chasm: i64,
}

impl Constants {
    /// The seed's constants.
    pub const SEED: Constants = Constants {
        hole: -500,
        fill: 0,
        single: 200,
        multi: 500,
        highest: -150,
        lowest: -75,
        chasm: 400,
    };

    /// The score of a placement with these measurements.
    pub fn score(&self, r: &Rating) -> i64 {
        let lines = match r.lines {
            0 => 0,
            1 => self.single,
            n => self.multi * i64::from(n),
        };
        self.hole * i64::from(r.holes_under)
            + self.fill * i64::from(r.fills_between)
            + lines
            + self.highest * i64::from(r.highest)
            + self.lowest * i64::from(r.lowest)
            + self.chasm * (i64::from(r.chasms_before) - i64::from(r.chasms_after))
    }
}

impl Default for Constants {
    fn default() -> Constants {
        Constants::SEED
    }
}

/// What `rateBlock` measures about one placement.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Rating {
    /// Empty squares directly under a square of the block (not under another of its own).
    pub holes_under: u32,
    /// Squares of the block whose left and right neighbours were filled (walls count).
    pub fills_between: u32,
    /// Lines the placement clears.
    pub lines: u32,
    /// Height of the block's highest square: rows from the floor, the bottom row is 1.
    pub highest: u32,
    /// Height of the block's lowest square.
    pub lowest: u32,
    /// Chasms on the field before the placement.
    pub chasms_before: u32,
    /// Chasms after the placement, its lines cleared.
    pub chasms_after: u32,
}

/// Measures `block` of `kind` placed on `field`, and returns the field after it (lines
/// cleared); `None` if a square of the block lies above the board (the game would end).
pub fn measure(field: &Board, kind: &PieceKind, block: &Block) -> Option<(Rating, Board)> {
    let shape = kind.orientation(block.pos.orientation);
    let mut after = field.clone();
    if !after.place(shape, block.pos.x, block.pos.y) {
        return None;
    }
    let height = field.height() as i32;
    let cells: Vec<(i32, i32)> = shape
        .cells()
        .iter()
        .map(|&(dx, dy)| (i32::from(block.pos.x + dx), i32::from(block.pos.y + dy)))
        .collect();
    let filled = |x: i32, y: i32| field.filled(x as usize, y as usize);
    let wall_or_filled = |x: i32, y: i32| x < 0 || x >= field.width() as i32 || filled(x, y);
    let mut rating = Rating {
        highest: (height - cells.iter().map(|c| c.1).min().unwrap_or(0)) as u32,
        lowest: (height - cells.iter().map(|c| c.1).max().unwrap_or(0)) as u32,
        chasms_before: chasms(field),
        ..Rating::default()
    };
    for &(x, y) in &cells {
        let below = (x, y + 1);
        if below.1 < height && !cells.contains(&below) && !filled(below.0, below.1) {
            rating.holes_under += 1;
        }
        if wall_or_filled(x - 1, y) && wall_or_filled(x + 1, y) {
            rating.fills_between += 1;
        }
    }
    rating.lines = after.clear_full_rows();
    rating.chasms_after = chasms(&after);
    Some((rating, after))
}

/// `rateBlock`: the score of `block` placed on `field` under `constants`, and the field
/// after it; `None` if the placement would end the game.
pub fn rate_block(constants: &Constants, field: &Board, kind: &PieceKind, block: &Block) -> Option<(i64, Board)> {
    measure(field, kind, block).map(|(rating, after)| (constants.score(&rating), after))
}

/// Chasms: empty squares whose left and right neighbours are both filled, a wall counting
/// as filled.
pub fn chasms(field: &Board) -> u32 {
    let full = field.full_row();
    let right_wall = 1u32 << (field.width() - 1);
    field
        .rows()
        .iter()
        .map(|&row| {
            let left_filled = (row << 1) | 1;
            let right_filled = (row >> 1) | right_wall;
            (!row & full & left_filled & right_filled).count_ones()
        })
        .sum()
}

#[cfg(test)]
mod tests;
