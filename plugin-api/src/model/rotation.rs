//! How pieces turn: in their box with no kicks (the seeds' presets), or by the Super
//! Rotation System of the guideline, which tries up to five offsets in order and takes
//! the first where the turned piece fits.
//!
//! The kick tables are those of the guideline's SRS as TetrisWiki's "Super Rotation
//! System" page gives them: J, L, S, T and Z share one table, I has its own, and O does
//! not kick. That page counts y upwards; the tables here are in the model's coordinates,
//! y growing downwards, so every vertical offset has the opposite sign of the page's.

/// How a piece turns.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum RotationSystem {
    /// Inside its rotation box, in place: the turn happens only if the turned piece fits.
    InBox,
    /// The Super Rotation System: inside the box, then up to four kicked offsets.
    Srs,
}

/// Offsets tried in order, (dx, dy) with y down, for one turn of a 3x3 piece (J, L, S,
/// T, Z), indexed by [`transition`].
const JLSTZ: [[(i8, i8); 5]; 8] = [
    [(0, 0), (-1, 0), (-1, -1), (0, 2), (-1, 2)],  // 0 -> R
    [(0, 0), (1, 0), (1, 1), (0, -2), (1, -2)],    // R -> 0
    [(0, 0), (1, 0), (1, 1), (0, -2), (1, -2)],    // R -> 2
    [(0, 0), (-1, 0), (-1, -1), (0, 2), (-1, 2)],  // 2 -> R
    [(0, 0), (1, 0), (1, -1), (0, 2), (1, 2)],     // 2 -> L
    [(0, 0), (-1, 0), (-1, 1), (0, -2), (-1, -2)], // L -> 2
    [(0, 0), (-1, 0), (-1, 1), (0, -2), (-1, -2)], // L -> 0
    [(0, 0), (1, 0), (1, -1), (0, 2), (1, 2)],     // 0 -> L
];

/// The same for the I piece (4x4 box).
const I: [[(i8, i8); 5]; 8] = [
    [(0, 0), (-2, 0), (1, 0), (-2, 1), (1, -2)], // 0 -> R
    [(0, 0), (2, 0), (-1, 0), (2, -1), (-1, 2)], // R -> 0
    [(0, 0), (-1, 0), (2, 0), (-1, -2), (2, 1)], // R -> 2
    [(0, 0), (1, 0), (-2, 0), (1, 2), (-2, -1)], // 2 -> R
    [(0, 0), (2, 0), (-1, 0), (2, -1), (-1, 2)], // 2 -> L
    [(0, 0), (-2, 0), (1, 0), (-2, 1), (1, -2)], // L -> 2
    [(0, 0), (1, 0), (-2, 0), (1, 2), (-2, -1)], // L -> 0
    [(0, 0), (-1, 0), (2, 0), (-1, -2), (2, 1)], // 0 -> L
];

/// The row of a kick table for a turn from state `from` (0 spawn, 1 R, 2, 3 L) in
/// `direction` (+1 clockwise, -1 counter-clockwise).
fn transition(from: u8, direction: i8) -> usize {
    let from = usize::from(from % 4);
    match direction {
        1 => 2 * from,
        // Counter-clockwise from state s is the row "s -> s-1": R->0 is row 1, 2->R row
        // 3, L->2 row 5, 0->L row 7.
        _ => (2 * from + 7) % 8,
    }
}

impl RotationSystem {
    /// The offsets to try, in order, when a piece in a rotation box of `box_size` turns
    /// from state `from` in `direction`; the first is always no offset.
    pub fn kicks(self, box_size: u8, from: u8, direction: i8) -> &'static [(i8, i8)] {
        match (self, box_size) {
            (RotationSystem::InBox, _) | (RotationSystem::Srs, 2) => &[(0, 0)],
            (RotationSystem::Srs, 4) => &I[transition(from, direction)],
            (RotationSystem::Srs, _) => &JLSTZ[transition(from, direction)],
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// TetrisWiki's table as printed (y up), row by row, for comparison.
    const PRINTED_JLSTZ: [(&str, [(i8, i8); 5]); 8] = [
        ("0->R", [(0, 0), (-1, 0), (-1, 1), (0, -2), (-1, -2)]),
        ("R->0", [(0, 0), (1, 0), (1, -1), (0, 2), (1, 2)]),
        ("R->2", [(0, 0), (1, 0), (1, -1), (0, 2), (1, 2)]),
        ("2->R", [(0, 0), (-1, 0), (-1, 1), (0, -2), (-1, -2)]),
        ("2->L", [(0, 0), (1, 0), (1, 1), (0, -2), (1, -2)]),
        ("L->2", [(0, 0), (-1, 0), (-1, -1), (0, 2), (-1, 2)]),
        ("L->0", [(0, 0), (-1, 0), (-1, -1), (0, 2), (-1, 2)]),
        ("0->L", [(0, 0), (1, 0), (1, 1), (0, -2), (1, -2)]),
    ];
    const PRINTED_I: [(&str, [(i8, i8); 5]); 8] = [
        ("0->R", [(0, 0), (-2, 0), (1, 0), (-2, -1), (1, 2)]),
        ("R->0", [(0, 0), (2, 0), (-1, 0), (2, 1), (-1, -2)]),
        ("R->2", [(0, 0), (-1, 0), (2, 0), (-1, 2), (2, -1)]),
        ("2->R", [(0, 0), (1, 0), (-2, 0), (1, -2), (-2, 1)]),
        ("2->L", [(0, 0), (2, 0), (-1, 0), (2, 1), (-1, -2)]),
        ("L->2", [(0, 0), (-2, 0), (1, 0), (-2, -1), (1, 2)]),
        ("L->0", [(0, 0), (1, 0), (-2, 0), (1, -2), (-2, 1)]),
        ("0->L", [(0, 0), (-1, 0), (2, 0), (-1, 2), (2, -1)]),
    ];

    fn state(name: char) -> u8 {
        match name {
            '0' => 0,
            'R' => 1,
            '2' => 2,
            _ => 3,
        }
    }

    #[test]
    fn every_kick_is_the_printed_table_with_y_flipped() {
        for (box_size, printed) in [(3, PRINTED_JLSTZ), (4, PRINTED_I)] {
            for (name, offsets) in printed {
                let mut chars = name.chars();
                let from = state(chars.next().unwrap());
                let to = state(chars.last().unwrap());
                let direction = if (from + 1) % 4 == to { 1 } else { -1 };
                let flipped: Vec<(i8, i8)> = offsets.iter().map(|&(x, y)| (x, -y)).collect();
                let kicks = RotationSystem::Srs.kicks(box_size, from, direction);
                assert_eq!(kicks, flipped.as_slice(), "box {box_size}, {name}");
            }
        }
    }

    #[test]
    fn o_and_in_box_turns_never_kick() {
        for from in 0..4 {
            for direction in [1, -1] {
                assert_eq!(RotationSystem::Srs.kicks(2, from, direction), [(0, 0)]);
                assert_eq!(RotationSystem::InBox.kicks(3, from, direction), [(0, 0)]);
            }
        }
    }
}
