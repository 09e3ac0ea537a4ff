//! The guideline's versus attack table: the rows a clear sends by its lines and spin, and
//! what back-to-back, a combo and a perfect clear add. One table for the host's garbage and
//! every bot that weighs an attack.

use super::spin::Spin;

/// The guideline's versus table, part by part, and the rows a clear sends by it.
#[derive(Clone, Copy, Debug)]
pub struct GuidelineAttack;

impl GuidelineAttack {
    /// Rows sent for clearing 1, 2, 3 and 4 lines without a spin.
    pub const LINES: [u32; 4] = [0, 1, 2, 4];
    /// Rows sent for a T-spin single, double and triple.
    pub const SPINS: [u32; 3] = [2, 4, 6];
    /// Rows sent for a T-spin mini single and mini double.
    pub const MINIS: [u32; 2] = [0, 1];
    /// Rows added to a difficult clear (four lines, or a spin) after a difficult clear.
    pub const BACK_TO_BACK: u32 = 1;
    /// Rows added by the clears in a row before this one: none, one, two, ... (beyond the
    /// table, its last entry).
    pub const COMBO: [u32; 11] = [0, 1, 1, 2, 2, 3, 3, 4, 4, 4, 5];
    /// Rows added by a clear that leaves the board empty.
    pub const PERFECT_CLEAR: u32 = 10;

    /// Rows sent by clearing `lines` lines with `spin` after `streak`, leaving the board
    /// empty if `perfect`. A lock that clears nothing sends nothing, a spin included; a
    /// clear of more than the table's lines sends its last entry.
    pub fn rows(lines: u32, spin: Spin, streak: Streak, perfect: bool) -> u32 {
        if lines == 0 {
            return 0;
        }
        let by_lines = |table: &[u32]| table[(lines as usize).min(table.len()) - 1];
        let base = match spin {
            Spin::None => by_lines(&Self::LINES),
            Spin::Mini => by_lines(&Self::MINIS),
            Spin::Full => by_lines(&Self::SPINS),
        };
        let back_to_back = match streak.back_to_back && Self::difficult(lines, spin) {
            true => Self::BACK_TO_BACK,
            false => 0,
        };
        let combo = Self::COMBO[(streak.combo as usize).min(Self::COMBO.len() - 1)];
        let perfect = if perfect { Self::PERFECT_CLEAR } else { 0 };
        base + back_to_back + combo + perfect
    }

    /// Whether a clear of `lines` with `spin` is difficult (four lines or more, or a spin
    /// that clears lines): what earns and keeps back-to-back.
    pub fn difficult(lines: u32, spin: Spin) -> bool {
        lines > 0 && (lines >= 4 || spin != Spin::None)
    }
}

/// What the game's state adds to the next clear.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Streak {
    /// The last clear was a difficult one.
    pub back_to_back: bool,
    /// Line-clearing locks in a row before the next one.
    pub combo: u32,
}

#[cfg(test)]
mod tests {
    use super::*;

    fn rows(lines: u32, spin: Spin, back_to_back: bool, combo: u32, perfect: bool) -> u32 {
        GuidelineAttack::rows(lines, spin, Streak { back_to_back, combo }, perfect)
    }

    #[test]
    fn a_clear_sends_by_its_lines_and_spin() {
        let calm = |lines, spin| rows(lines, spin, false, 0, false);
        assert_eq!(calm(0, Spin::Full), 0, "no lines, no attack");
        assert_eq!(calm(0, Spin::None), 0);
        assert_eq!(calm(1, Spin::None), 0);
        assert_eq!(calm(2, Spin::None), 1);
        assert_eq!(calm(3, Spin::None), 2);
        assert_eq!(calm(4, Spin::None), 4);
        assert_eq!(calm(1, Spin::Full), 2, "T-spin single");
        assert_eq!(calm(2, Spin::Full), 4, "T-spin double");
        assert_eq!(calm(3, Spin::Full), 6, "T-spin triple");
        assert_eq!(calm(1, Spin::Mini), 0, "mini single");
        assert_eq!(calm(2, Spin::Mini), 1, "mini double");
        assert_eq!(calm(6, Spin::None), 4, "beyond the table, its last entry");
    }

    #[test]
    fn back_to_back_combos_and_perfect_clears_add_rows() {
        assert_eq!(rows(4, Spin::None, true, 3, false), 4 + 1 + 2);
        assert_eq!(
            rows(2, Spin::Full, true, 4, false),
            4 + 1 + 2,
            "TSD, 5th clear in a row"
        );
        assert_eq!(
            rows(2, Spin::None, true, 3, false),
            1 + 2,
            "a double earns no back-to-back"
        );
        assert_eq!(
            rows(1, Spin::None, false, 40, false),
            5,
            "beyond the combo table, its last entry"
        );
        assert_eq!(rows(4, Spin::None, false, 0, true), 14, "a perfect clear");
        assert!(GuidelineAttack::difficult(4, Spin::None) && GuidelineAttack::difficult(1, Spin::Mini));
        assert!(!GuidelineAttack::difficult(3, Spin::None) && !GuidelineAttack::difficult(0, Spin::Full));
    }
}
