//! The evaluation's weights: one named field per term, each an option (`w_NAME=...`).

/// The weight of every term of the evaluation and of the reward (see the README for what
/// each term counts). The defaults are set by hand, on the scale of `attack` = 100 per
/// row sent; `tetrad tune` can tune each through its option.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Weights {
    /// Reward per row a clear sends by the guideline's table.
    pub attack: f64,
    /// Reward per line a full T-spin clears, beyond its attack.
    pub tspin: f64,
    /// Reward for a perfect clear, beyond its attack.
    pub perfect_clear: f64,
    /// Reward for placing a T that clears nothing by a spin: negative, a T spent.
    pub wasted_t: f64,
    /// Reward per line a clear that sends nothing clears: a single, negative.
    pub clear: f64,
    /// Back-to-back alive on the final board.
    pub b2b: f64,
    /// Per clear in a row up to the final board.
    pub combo: f64,
    /// Per T-spin double slot on the final board.
    pub tspin_setup: f64,
    /// Per row of the highest column (incoming garbage counted).
    pub height: f64,
    /// Per cell of a column above half the visible field.
    pub top_half: f64,
    /// Per cell of a column above three quarters of the visible field.
    pub top_quarter: f64,
    /// Per hole: an empty cell with a filled cell above it.
    pub holes: f64,
    /// Per filled cell above a hole in its column.
    pub covered: f64,
    /// Per row of difference between neighbouring columns, the well's excluded.
    pub bumpiness: f64,
    /// Per squared row of that difference.
    pub bumpiness_sq: f64,
    /// Per row of depth of the well (the lowest column), up to four.
    pub well: f64,
    /// Per row of incoming garbage not cancelled.
    pub incoming: f64,
}

impl Default for Weights {
    fn default() -> Weights {
        Weights {
            attack: 100.0,
            tspin: 40.0,
            perfect_clear: 500.0,
            wasted_t: -60.0,
            clear: -30.0,
            b2b: 80.0,
            combo: 20.0,
            tspin_setup: 120.0,
            height: -8.0,
            top_half: -30.0,
            top_quarter: -120.0,
            holes: -80.0,
            covered: -12.0,
            bumpiness: -12.0,
            bumpiness_sq: -3.0,
            well: 15.0,
            incoming: -20.0,
        }
    }
}

impl Weights {
    /// Every weight with its name (the option is `w_` and the name).
    pub fn named_mut(&mut self) -> [(&'static str, &mut f64); 17] {
        [
            ("attack", &mut self.attack),
            ("tspin", &mut self.tspin),
            ("perfect_clear", &mut self.perfect_clear),
            ("wasted_t", &mut self.wasted_t),
            ("clear", &mut self.clear),
            ("b2b", &mut self.b2b),
            ("combo", &mut self.combo),
            ("tspin_setup", &mut self.tspin_setup),
            ("height", &mut self.height),
            ("top_half", &mut self.top_half),
            ("top_quarter", &mut self.top_quarter),
            ("holes", &mut self.holes),
            ("covered", &mut self.covered),
            ("bumpiness", &mut self.bumpiness),
            ("bumpiness_sq", &mut self.bumpiness_sq),
            ("well", &mut self.well),
            ("incoming", &mut self.incoming),
        ]
    }

    /// The option key of each weight.
    pub const KEYS: [&'static str; 17] = [
        "w_attack",
        "w_tspin",
        "w_perfect_clear",
        "w_wasted_t",
        "w_clear",
        "w_b2b",
        "w_combo",
        "w_tspin_setup",
        "w_height",
        "w_top_half",
        "w_top_quarter",
        "w_holes",
        "w_covered",
        "w_bumpiness",
        "w_bumpiness_sq",
        "w_well",
        "w_incoming",
    ];
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_key_names_its_weight() {
        let mut weights = Weights::default();
        for ((name, _), key) in weights.named_mut().into_iter().zip(Weights::KEYS) {
            assert_eq!(key, format!("w_{name}"));
        }
    }
}
