//! The guideline's versus attack: rows a clear sends, and the streak (back-to-back,
//! combo) a lock carries to the next one.

use tetrad_plugin_api::{GuidelineAttack, Spin};

/// What the game's state adds to a clear.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Streak {
    /// The last clear was a difficult one (four lines, or a spin).
    pub back_to_back: bool,
    /// Line-clearing locks in a row before this one.
    pub combo: u32,
}

/// What one lock did, for the reward and the next streak.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Clear {
    /// Lines cleared.
    pub lines: u32,
    /// The T-spin it scored, if any.
    pub spin: Spin,
    /// The board is empty after it.
    pub perfect: bool,
}

impl Streak {
    /// Rows `clear` sends after this streak, by the guideline's table (the shared model's
    /// [`GuidelineAttack`], as the host sends them).
    pub fn attack(self, clear: Clear) -> u32 {
        let streak = tetrad_plugin_api::Streak {
            back_to_back: self.back_to_back,
            combo: self.combo,
        };
        GuidelineAttack::rows(clear.lines, clear.spin, streak, clear.perfect)
    }

    /// The streak after `clear`: a clear extends the combo and sets back-to-back by its
    /// difficulty; a lock that clears nothing ends the combo and keeps back-to-back.
    pub fn after(self, clear: Clear) -> Streak {
        if clear.lines == 0 {
            return Streak {
                back_to_back: self.back_to_back,
                combo: 0,
            };
        }
        Streak {
            back_to_back: difficult(clear),
            combo: self.combo + 1,
        }
    }
}

/// Four lines, or a spin that clears lines: what earns and keeps back-to-back.
fn difficult(clear: Clear) -> bool {
    clear.lines >= 4 || clear.spin != Spin::None
}

#[cfg(test)]
mod tests {
    use super::*;

    fn clear(lines: u32, spin: Spin) -> Clear {
        Clear {
            lines,
            spin,
            perfect: false,
        }
    }

    #[test]
    fn the_attack_follows_the_guideline_table() {
        let calm = Streak::default();
        assert_eq!(calm.attack(clear(0, Spin::Full)), 0);
        assert_eq!(calm.attack(clear(1, Spin::None)), 0);
        assert_eq!(calm.attack(clear(2, Spin::None)), 1);
        assert_eq!(calm.attack(clear(4, Spin::None)), 4);
        assert_eq!(calm.attack(clear(2, Spin::Full)), 4, "T-spin double");
        assert_eq!(calm.attack(clear(3, Spin::Full)), 6, "T-spin triple");
        assert_eq!(calm.attack(clear(2, Spin::Mini)), 1, "mini double");
        let hot = Streak {
            back_to_back: true,
            combo: 3,
        };
        assert_eq!(hot.attack(clear(4, Spin::None)), 4 + 1 + 2);
        assert_eq!(
            hot.attack(clear(2, Spin::None)),
            1 + 2,
            "a double earns no back-to-back"
        );
        let perfect = Clear {
            perfect: true,
            ..clear(4, Spin::None)
        };
        assert_eq!(calm.attack(perfect), 14);
    }

    #[test]
    fn the_streak_follows_the_clears() {
        let calm = Streak::default();
        let tsd = calm.after(clear(2, Spin::Full));
        assert_eq!(
            tsd,
            Streak {
                back_to_back: true,
                combo: 1
            }
        );
        let kept = tsd.after(clear(0, Spin::None));
        assert_eq!(
            kept,
            Streak {
                back_to_back: true,
                combo: 0
            },
            "no clear keeps back-to-back"
        );
        let broken = kept.after(clear(1, Spin::None));
        assert_eq!(
            broken,
            Streak {
                back_to_back: false,
                combo: 1
            }
        );
    }
}
