//! A random number generator whose algorithm is fixed: ChaCha8, seeded from a `u64` by
//! SplitMix64, sampled without `rand`'s distributions (whose algorithms may change
//! between versions). The same seed gives the same numbers on every machine and version.

use rand_chacha::ChaCha8Rng;
use rand_core::{Rng, SeedableRng};

/// One step of SplitMix64: a good 64-bit mixer for deriving seeds from seeds.
pub fn splitmix64(x: u64) -> u64 {
    let mut z = x.wrapping_add(0x9e37_79b9_7f4a_7c15);
    z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    z ^ (z >> 31)
}

/// A seed derived from `seed` for stream `stream` (a game index, a playout number...).
pub fn derive_seed(seed: u64, stream: u64) -> u64 {
    splitmix64(seed ^ splitmix64(stream.wrapping_add(0x632b_e59b_d9b4_e019)))
}

/// ChaCha8 with fixed seeding and sampling.
#[derive(Clone, Debug)]
pub struct SeededRng(ChaCha8Rng);

impl SeededRng {
    /// A generator for `seed`: the 32-byte ChaCha key is four SplitMix64 outputs, little
    /// endian.
    pub fn new(seed: u64) -> SeededRng {
        let mut key = [0u8; 32];
        let mut state = seed;
        for chunk in key.chunks_exact_mut(8) {
            state = splitmix64(state);
            chunk.copy_from_slice(&state.to_le_bytes());
        }
        SeededRng(ChaCha8Rng::from_seed(key))
    }

    /// The next 32 random bits.
    pub fn next_u32(&mut self) -> u32 {
        self.0.next_u32()
    }

    /// The next 64 random bits.
    pub fn next_u64(&mut self) -> u64 {
        self.0.next_u64()
    }

    /// Uniform in `0..n` (`n > 0`), by rejection so that no value is favoured: a draw at
    /// or above the largest multiple of `n` is drawn again.
    pub fn below(&mut self, n: u32) -> u32 {
        debug_assert!(n > 0);
        loop {
            let x = self.next_u32();
            // That multiple leaves out fewer than `n` values at the top, so it is worked
            // out (a second division) only for a draw among the last `n`.
            if x <= u32::MAX - n || x < u32::MAX - u32::MAX % n {
                return x % n;
            }
        }
    }

    /// Uniform in `[0, 1)`, with 53 random bits.
    pub fn unit(&mut self) -> f64 {
        (self.next_u64() >> 11) as f64 * (1.0 / (1u64 << 53) as f64)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_stream_is_pinned() {
        // These numbers are part of the reproducibility promise: if they change, every
        // recorded seed plays different pieces. Never update them casually.
        let mut rng = SeededRng::new(1);
        let first: Vec<u32> = (0..4).map(|_| rng.below(7)).collect();
        let mut again = SeededRng::new(1);
        let second: Vec<u32> = (0..4).map(|_| again.below(7)).collect();
        assert_eq!(first, second);
        assert_eq!(splitmix64(0), 0xe220_a839_7b1d_cdaf);
        assert_eq!(first, PINNED_BELOW_7_SEED_1);
    }

    const PINNED_BELOW_7_SEED_1: [u32; 4] = [2, 4, 5, 3];

    proptest::proptest! {
        /// `below` draws what rejection above the largest multiple of `n` draws, the
        /// multiple worked out at every draw: the same numbers, so the same pieces.
        #[test]
        fn below_draws_what_plain_rejection_draws(seed in 0u64..1000, n in proptest::prop_oneof![
            1u32..=64,
            (u32::MAX / 2)..=u32::MAX,
            1u32..=u32::MAX,
        ]) {
            let (mut fast, mut plain) = (SeededRng::new(seed), SeededRng::new(seed));
            let zone = u32::MAX - u32::MAX % n;
            for _ in 0..64 {
                let expected = loop {
                    let x = plain.next_u32();
                    if x < zone {
                        break x % n;
                    }
                };
                proptest::prop_assert_eq!(fast.below(n), expected);
            }
        }
    }

    #[test]
    fn below_is_uniform_enough() {
        let mut rng = SeededRng::new(7);
        let mut counts = [0u32; 7];
        for _ in 0..70_000 {
            counts[rng.below(7) as usize] += 1;
        }
        assert!(counts.iter().all(|&c| (9_500..10_500).contains(&c)), "{counts:?}");
        assert!((0..1000).map(|_| rng.unit()).all(|u| (0.0..1.0).contains(&u)));
    }
}
