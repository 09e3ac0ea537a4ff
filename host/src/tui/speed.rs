//! How fast the screen plays: the level's pace by default, a chosen tick interval, or as
//! fast as possible; and the pieces-per-second meter.

use std::collections::VecDeque;
use std::fmt;
use std::time::Duration;

/// The tick interval at `level`, as in WinTetris: 500 ms at level 0, 40 ms less per
/// level, never below 50 ms.
pub fn level_interval(level: u32) -> Duration {
    Duration::from_millis(500u64.saturating_sub(40 * u64::from(level)).max(50))
}

/// The intervals the speed keys step through, slowest first, in milliseconds; faster
/// than the last is as fast as possible.
const LADDER_MS: [u64; 12] = [2000, 1000, 500, 250, 120, 60, 30, 15, 8, 4, 2, 1];

/// How fast ticks come.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Speed {
    /// The level decides ([`level_interval`]).
    Level,
    /// One tick per interval.
    Every(Duration),
    /// As many ticks as fit in a frame.
    Max,
}

impl Speed {
    /// The interval between ticks at `level`; `None` when as fast as possible.
    pub fn interval(self, level: u32) -> Option<Duration> {
        match self {
            Speed::Level => Some(level_interval(level)),
            Speed::Every(interval) => Some(interval),
            Speed::Max => None,
        }
    }

    /// One step faster than now.
    pub fn faster(self, level: u32) -> Speed {
        let Some(now) = self.interval(level) else {
            return Speed::Max;
        };
        LADDER_MS
            .iter()
            .map(|&ms| Duration::from_millis(ms))
            .find(|&rung| rung < now)
            .map_or(Speed::Max, Speed::Every)
    }

    /// One step slower than now.
    pub fn slower(self, level: u32) -> Speed {
        let Some(now) = self.interval(level) else {
            return Speed::Every(Duration::from_millis(LADDER_MS[LADDER_MS.len() - 1]));
        };
        LADDER_MS
            .iter()
            .rev()
            .map(|&ms| Duration::from_millis(ms))
            .find(|&rung| rung > now)
            .map_or(self, Speed::Every)
    }
}

impl fmt::Display for Speed {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Speed::Level => f.write_str("level"),
            Speed::Every(interval) => write!(f, "{} ms", interval.as_millis()),
            Speed::Max => f.write_str("max"),
        }
    }
}

/// Pieces per second over the last two seconds of play (pauses do not count).
#[derive(Clone, Debug, Default)]
pub struct Rate {
    clock: Duration,
    samples: VecDeque<(Duration, u64)>,
}

/// The window the rate is measured over.
const WINDOW: Duration = Duration::from_secs(2);

impl Rate {
    /// Notes that `played` of play time has passed and `pieces` have locked in all.
    pub fn sample(&mut self, played: Duration, pieces: u64) {
        self.clock += played;
        self.samples.push_back((self.clock, pieces));
        while self.samples.len() > 2 && self.samples[1].0 + WINDOW <= self.clock {
            self.samples.pop_front();
        }
    }

    /// Pieces per second, once some play time has passed.
    pub fn per_second(&self) -> Option<f64> {
        let (&(t0, p0), &(t1, p1)) = (self.samples.front()?, self.samples.back()?);
        let span = (t1 - t0).as_secs_f64();
        (span >= 0.2).then(|| p1.saturating_sub(p0) as f64 / span)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn level_pace_speeds_up_to_a_floor() {
        assert_eq!(level_interval(0), Duration::from_millis(500));
        assert_eq!(level_interval(5), Duration::from_millis(300));
        assert_eq!(level_interval(11), Duration::from_millis(60));
        assert_eq!(level_interval(12), Duration::from_millis(50));
        assert_eq!(level_interval(99), Duration::from_millis(50));
    }

    #[test]
    fn speed_keys_climb_the_ladder_to_max_and_back() {
        let ms = |n| Speed::Every(Duration::from_millis(n));
        assert_eq!(Speed::Level.faster(0), ms(250));
        assert_eq!(Speed::Level.slower(0), ms(1000));
        assert_eq!(Speed::Level.faster(5), ms(250), "level 5 is 300 ms");
        assert_eq!(ms(1).faster(0), Speed::Max);
        assert_eq!(Speed::Max.faster(0), Speed::Max);
        assert_eq!(Speed::Max.slower(0), ms(1));
        assert_eq!(ms(2000).slower(0), ms(2000));
        assert_eq!(Speed::Max.to_string(), "max");
    }

    #[test]
    fn rate_counts_pieces_over_the_window() {
        let mut rate = Rate::default();
        assert_eq!(rate.per_second(), None);
        for i in 0..=40 {
            rate.sample(Duration::from_millis(100), i * 3);
        }
        let pps = rate.per_second().unwrap();
        assert!((pps - 30.0).abs() < 1e-9, "{pps}");
    }
}
