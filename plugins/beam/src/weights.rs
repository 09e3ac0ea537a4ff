//! The evaluation's weights: one named field per term, each an option (`w_NAME=...`).

/// Declares [`Weights`] from one list of `name = default` pairs, so a term's field, its
/// option key and its default cannot drift apart.
macro_rules! weights {
    ($( $(#[$doc:meta])* $name:ident = $default:expr, )*) => {
        /// The weight of every term of the reward and of the board's value (the README
        /// names what each counts). The defaults start from Cold Clear 2's published
        /// ones, on its scale; eight were then tuned by `tetrad tune` in versus (the
        /// README has the run).
        #[derive(Clone, Copy, Debug, PartialEq)]
        pub struct Weights {
            $( $(#[$doc])* pub $name: f64, )*
        }

        impl Default for Weights {
            fn default() -> Weights {
                Weights { $( $name: $default, )* }
            }
        }

        impl Weights {
            /// The option key of each weight, in declaration order.
            pub const KEYS: &'static [&'static str] = &[$( concat!("w_", stringify!($name)), )*];

            /// Every weight with its name (the option is `w_` and the name).
            pub fn named_mut(&mut self) -> Vec<(&'static str, &mut f64)> {
                vec![$( (stringify!($name), &mut self.$name), )*]
            }
        }
    };
}

weights! {
    // The reward: what each lock of a node's path earns.
    /// Per row a clear sends by the guideline's table (on top of the clear's own term).
    attack = 0.0,
    /// A single.
    single = -2.0,
    /// A double.
    double = -1.5,
    /// A triple.
    triple = -1.0,
    /// Four lines.
    tetris = 2.6,
    /// A T-spin mini single.
    mini_single = -1.5,
    /// A T-spin mini double.
    mini_double = -1.0,
    /// A T-spin single.
    tspin_single = 1.0,
    /// A T-spin double.
    tspin_double = 4.0,
    /// A T-spin triple.
    tspin_triple = 6.0,
    /// A clear that earns back-to-back's extra row.
    b2b_clear = 1.0,
    /// Per row the combo adds to a clear.
    combo = 1.5,
    /// A perfect clear, in place of every other clear term.
    perfect_clear = 15.0,
    /// A T placed other than as a T-spin double or triple: a T spent.
    wasted_t = -1.5,
    // The value: terms of the board a node's path leaves.
    /// Back-to-back alive.
    b2b = 0.5,
    /// A T-spin slot a T dropped in would fill clearing no line.
    tslot_none = 0.1,
    /// ... clearing one line.
    tslot_single = 1.5,
    /// ... clearing two lines.
    tslot_double = 1.72,
    /// ... clearing three lines.
    tslot_triple = 4.0,
    /// Per row of the highest column.
    height = -0.38,
    /// Per row of the highest column above half the visible field.
    top_half = -1.48,
    /// Per row of the highest column above three quarters of the visible field.
    top_quarter = -5.0,
    /// Per hole: an empty cell with a filled cell above it in its column.
    holes = -1.16,
    /// Per hole, the rows from it to its column's top (the hole's own counted), at most six.
    coveredness = -0.55,
    /// Per change from filled to empty or back along a row (the walls count as filled).
    row_transitions = -0.38,
    /// Per row of the well (the lowest column) beside which every other column is full.
    well = 0.3,
    /// Per row of difference between neighbouring columns, the well's excluded.
    bumpiness = 0.0,
    /// Per squared row of that difference.
    bumpiness_sq = 0.0,
    /// Per row of incoming garbage not cancelled.
    incoming = -0.23,
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The defaults, as the tuning run left them (rounded to two places): a change is a
    /// new tuning run, and its result goes into the README with them.
    #[test]
    fn the_default_weights_are_the_tuned_ones() {
        let mut weights = Weights::default();
        let pinned = [
            ("attack", 0.0),
            ("single", -2.0),
            ("double", -1.5),
            ("triple", -1.0),
            ("tetris", 2.6),
            ("mini_single", -1.5),
            ("mini_double", -1.0),
            ("tspin_single", 1.0),
            ("tspin_double", 4.0),
            ("tspin_triple", 6.0),
            ("b2b_clear", 1.0),
            ("combo", 1.5),
            ("perfect_clear", 15.0),
            ("wasted_t", -1.5),
            ("b2b", 0.5),
            ("tslot_none", 0.1),
            ("tslot_single", 1.5),
            ("tslot_double", 1.72),
            ("tslot_triple", 4.0),
            ("height", -0.38),
            ("top_half", -1.48),
            ("top_quarter", -5.0),
            ("holes", -1.16),
            ("coveredness", -0.55),
            ("row_transitions", -0.38),
            ("well", 0.3),
            ("bumpiness", 0.0),
            ("bumpiness_sq", 0.0),
            ("incoming", -0.23),
        ];
        let named: Vec<(&str, f64)> = weights.named_mut().into_iter().map(|(n, w)| (n, *w)).collect();
        assert_eq!(named, pinned);
    }

    #[test]
    fn every_key_names_its_weight() {
        let mut weights = Weights::default();
        let named = weights.named_mut();
        assert_eq!(named.len(), Weights::KEYS.len());
        for ((name, _), key) in named.into_iter().zip(Weights::KEYS) {
            assert_eq!(*key, format!("w_{name}"));
        }
    }
}
