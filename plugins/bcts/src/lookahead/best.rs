//! The best follow-up so far, what a bound must stay under to lose to it, and the order
//! the first placements are searched in.

use tetrad_plugin_api::Placement;

/// The best follow-up so far: its value, its first placement's index, and the placement.
pub(super) type Best = Option<(f64, u32, Placement)>;

/// Whether a first placement at `index` whose follow-up is at most `bound` cannot be the
/// first strict maximum, given the best so far.
#[cfg(test)]
pub(super) fn beaten(best: &Best, bound: f64, index: u32) -> bool {
    best.is_some_and(|(value, at, _)| bound < value || (bound <= value && index > at))
}

/// The most a bound on a first placement's follow-up can be and still lose to the best
/// so far, by the placement's index: the best value for a placement after the best one (a
/// tie loses), the next value below it for one before (a tie wins). When nothing can lose
/// (no best yet, or a placement before a best of minus infinity, which a follow-up of
/// minus infinity ties and so wins), the cut is NaN, which no bound is at most. So for
/// every bound, infinite ones included, `bound <= cuts.of(index)` is `beaten(best, bound,
/// index)`: one comparison instead of the tie rule's. (A cut of minus infinity there
/// would skip a first placement whose every follow-up ends the game, though it wins the
/// tie when every placement ends it.)
#[derive(Clone, Copy, Debug)]
pub(super) struct Cuts {
    at: u32,
    later: f64,
    earlier: f64,
}

impl Cuts {
    /// The cuts of the best follow-up so far.
    #[inline]
    pub(super) fn new(best: &Best) -> Cuts {
        match *best {
            Some((value, at, _)) => Cuts {
                at,
                later: value,
                earlier: if value == f64::NEG_INFINITY {
                    f64::NAN
                } else {
                    value.next_down()
                },
            },
            None => Cuts {
                at: u32::MAX,
                later: f64::NAN,
                earlier: f64::NAN,
            },
        }
    }

    /// The cut for the first placement at `index`.
    #[inline]
    pub(super) fn of(&self, index: u32) -> f64 {
        if index > self.at {
            self.later
        } else {
            self.earlier
        }
    }
}

/// The candidates put in order before the search; the others follow in the order a
/// selection leaves them. The order decides the cost alone (see the module note), and
/// once a strong follow-up is found most candidates are skipped whatever their order:
/// sorting them all cost more than it saved.
pub(super) const SORTED: usize = 4;

/// Bits of a rank that hold the candidate's index: more than a piece has placements on
/// the widest board (a polyomino's orientations times 32 columns).
pub(super) const INDEX_BITS: u32 = 16;

/// A first placement's place in the search: ordered as its one-piece `value` from the
/// highest (in [`f64::total_cmp`]'s order, to 2^-36 of its magnitude: values closer than
/// that count as equal), then its `index` from the lowest, which it holds in its low
/// [`INDEX_BITS`]. The order only decides how soon a strong follow-up is found, never
/// the choice (see the module note), and a word sorts faster than two.
#[inline]
pub(super) fn rank(value: f64, index: u32) -> u64 {
    // `total_cmp`'s key: the bits as a signed integer, the magnitude flipped for negative
    // values; offset to unsigned, then flipped again for the highest first.
    let bits = value.to_bits() as i64;
    let ordered = (bits ^ (((bits >> 63) as u64) >> 1) as i64) as u64 ^ (1 << 63);
    (!ordered & (u64::MAX << INDEX_BITS)) | u64::from(index)
}

/// Keeps the follow-up `value` of the first placement at `index` if it is better than the
/// best so far, or as good and earlier in the enumeration order; whether it did.
#[inline]
pub(super) fn keep(best: &mut Best, value: f64, index: u32, placement: Placement) -> bool {
    let better = best.is_none_or(|(score, at, _)| value > score || (value == score && index < at));
    if better {
        *best = Some((value, index, placement));
    }
    better
}
