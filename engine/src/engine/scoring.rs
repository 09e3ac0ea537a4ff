//! What a lock was worth: the kind of clear (lines, T-spin, combo, back-to-back, perfect
//! clear) and its points, by the seeds' table or, under `guideline`, the guideline's.

pub use tetrad_plugin_api::{t_spin, Spin};

/// One lock's clear.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Clear {
    /// Rows cleared.
    pub lines: u32,
    /// The T-spin it was, if any (only under `guideline`).
    pub spin: Spin,
    /// Clears in a row before this one: 0 for the first clear after a lock that cleared
    /// nothing, 1 for the second, and so on.
    pub combo: u32,
    /// A difficult clear (four lines, or a T-spin that cleared lines) right after another.
    pub back_to_back: bool,
    /// The board was empty after it.
    pub perfect: bool,
}

/// Points of the seeds' presets for clearing 0, 1, 2, 3 and 4 rows at level 0, times
/// level + 1. More than four rows at once (possible with larger pieces) score 1200 per
/// row beyond three.
pub fn points(lines: u32, level: u32) -> u64 {
    let base = match lines {
        0 => 0,
        1 => 40,
        2 => 100,
        3 => 300,
        n => 1200 * u64::from(n - 3),
    };
    base * u64::from(level + 1)
}

/// Points under `guideline`, times level + 1 (the guideline's levels count from 1):
/// single 100, double 300, triple 500, four lines 800; T-spin mini 100, mini single 200,
/// mini double 400; T-spin 400, single 800, double 1200, triple 1600; a back-to-back
/// clear half as much again; 50 per combo step; and a perfect clear 800, 1200, 1800 or
/// 2000 for 1 to 4 lines (3200 for a back-to-back four lines). No points for drops.
pub fn guideline_points(clear: &Clear, level: u32) -> u64 {
    let base: u64 = match (clear.spin, clear.lines) {
        (Spin::None, 0) => 0,
        (Spin::None, 1) => 100,
        (Spin::None, 2) => 300,
        (Spin::None, 3) => 500,
        (Spin::None, _) => 800,
        (Spin::Mini, 0) => 100,
        (Spin::Mini, 1) => 200,
        (Spin::Mini, _) => 400,
        (Spin::Full, 0) => 400,
        (Spin::Full, 1) => 800,
        (Spin::Full, 2) => 1200,
        (Spin::Full, _) => 1600,
    };
    let base = if clear.back_to_back { base * 3 / 2 } else { base };
    let combo = if clear.lines > 0 {
        50 * u64::from(clear.combo)
    } else {
        0
    };
    let perfect = match (clear.perfect, clear.lines) {
        (false, _) | (true, 0) => 0,
        (true, 1) => 800,
        (true, 2) => 1200,
        (true, 3) => 1800,
        (true, _) if clear.back_to_back => 3200,
        (true, _) => 2000,
    };
    (base + combo + perfect) * u64::from(level + 1)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_guideline_table_with_back_to_back_combo_and_perfect_clears() {
        let clear = |lines, spin| Clear {
            lines,
            spin,
            ..Clear::default()
        };
        assert_eq!(guideline_points(&clear(4, Spin::None), 0), 800);
        assert_eq!(guideline_points(&clear(2, Spin::Full), 1), 2400, "level 2");
        assert_eq!(guideline_points(&clear(0, Spin::Mini), 0), 100);
        let b2b = Clear {
            back_to_back: true,
            combo: 3,
            ..clear(3, Spin::Full)
        };
        assert_eq!(guideline_points(&b2b, 0), 1600 * 3 / 2 + 150);
        let perfect = Clear {
            perfect: true,
            ..clear(4, Spin::None)
        };
        assert_eq!(guideline_points(&perfect, 0), 800 + 2000);
        assert_eq!(points(4, 0), 1200);
    }
}
