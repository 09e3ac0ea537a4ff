//! A seat's decision durations, counted in the update-time histogram's own buckets while
//! the game runs and handed over as that histogram when it ends.
//!
//! `Histogram::record` costs about 85 instructions; a game records every decision, 2.6 a
//! piece in a placement preset. Here a duration costs one bucket index and one increment.
//! The buckets are the histogram's (see [`new_histogram`]: 2 significant figures, a unit
//! of 1 ns, so 128 half-buckets of 128 sub-buckets), and every value the histogram reports
//! (its counts, `len`, `max`, `min_nz`, quantiles, mean, the recorded values it iterates)
//! depends on a value's bucket alone, so recording each bucket's lowest value with its count
//! gives the same histogram as recording the durations one by one.

use crate::runner::new_histogram;
use hdrhistogram::Histogram;

/// Half-buckets kept here: durations up to 2^32 ns (4.3 s); longer ones, rare, go straight
/// to the histogram.
const BUCKETS: u32 = 32 - 8 + 1;
/// Counts kept here: the first bucket's 256 sub-buckets, then 128 for each further one.
const SLOTS: usize = ((BUCKETS as usize) + 1) << 7;

/// Decision durations in nanoseconds, counted by histogram bucket.
pub struct UpdateTimes {
    counts: Box<[u64; SLOTS]>,
    /// Durations too long for `counts`.
    long: Histogram<u64>,
}

impl Default for UpdateTimes {
    fn default() -> UpdateTimes {
        UpdateTimes {
            counts: vec![0; SLOTS].into_boxed_slice().try_into().expect("SLOTS counts"),
            long: new_histogram(),
        }
    }
}

/// The slot of `ns` in the histogram's counts, as `hdrhistogram` computes it for 2
/// significant figures and a unit of 1.
#[inline(always)]
fn slot(ns: u64) -> usize {
    // 56 = 64 bits less the 8 of a bucket's 256 sub-buckets; `| 255` puts every value
    // below 256 in bucket 0.
    let bucket = 56 - (ns | 255).leading_zeros();
    (((bucket + 1) << 7) as usize) + (ns >> bucket) as usize - 128
}

/// The lowest duration counted in `slot`: the inverse of [`slot`] on its bucket.
fn lowest_of(slot: usize) -> u64 {
    if slot < 256 {
        return slot as u64;
    }
    let bucket = (slot >> 7) - 1;
    (((slot & 127) + 128) as u64) << bucket
}

impl UpdateTimes {
    /// Counts one decision that took `ns` nanoseconds.
    #[inline(always)]
    pub fn record(&mut self, ns: u64) {
        if ns >> 32 == 0 {
            self.counts[slot(ns)] += 1;
        } else {
            // The histogram grows to fit any value.
            let _ = self.long.record(ns);
        }
    }

    /// The histogram of every duration counted.
    pub fn into_histogram(self) -> Histogram<u64> {
        let mut histogram = self.long;
        for (slot, &count) in self.counts.iter().enumerate() {
            if count != 0 {
                // The histogram grows to fit any value.
                let _ = histogram.record_n(lowest_of(slot), count);
            }
        }
        histogram
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every figure a result or a report reads, and every recorded value, as recording the
    /// durations one by one gives them.
    #[test]
    fn the_same_histogram_as_recording_each_duration() {
        let mut times = UpdateTimes::default();
        let mut direct = new_histogram();
        let mut x: u64 = 0x9e37_79b9_7f4a_7c15;
        let mut values = vec![
            0,
            1,
            127,
            128,
            255,
            256,
            257,
            511,
            512,
            1000,
            1_999,
            (1 << 32) - 1,
            1 << 32,
            5 << 33,
        ];
        for _ in 0..20_000 {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            values.push((x >> (x % 40 + 24)) >> 4);
        }
        for &ns in &values {
            times.record(ns);
            direct.record(ns).unwrap();
        }
        let ours = times.into_histogram();
        assert_eq!(ours.len(), direct.len());
        assert_eq!(ours.max(), direct.max());
        assert_eq!(ours.min(), direct.min());
        assert_eq!(ours.min_nz(), direct.min_nz());
        assert_eq!(ours.mean().to_bits(), direct.mean().to_bits());
        for q in [0.0, 0.5, 0.9, 0.99, 0.999, 1.0] {
            assert_eq!(ours.value_at_quantile(q), direct.value_at_quantile(q));
        }
        let recorded = |h: &Histogram<u64>| {
            h.iter_recorded()
                .map(|v| (v.value_iterated_to(), v.count_at_value()))
                .collect::<Vec<_>>()
        };
        assert_eq!(recorded(&ours), recorded(&direct));
        let mut merged = new_histogram();
        merged.add(&ours).unwrap();
        let mut merged_direct = new_histogram();
        merged_direct.add(&direct).unwrap();
        assert_eq!(merged.max(), merged_direct.max());
        assert_eq!(recorded(&merged), recorded(&merged_direct));
    }

    #[test]
    fn every_slot_is_its_lowest_values_slot() {
        for s in 0..SLOTS {
            assert_eq!(slot(lowest_of(s)), s, "slot {s}");
        }
    }
}
