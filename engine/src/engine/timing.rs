//! The timing rules of a real-time game under `guideline`: gravity (a fixed rate in G, or
//! the guideline's curve by level) and lock delay with move reset. They are a value of the
//! setup, recorded with every game; the engine applies them from the times it is told (see
//! `clock`), never from a clock of its own.

use serde::{Deserialize, Serialize};
use std::fmt;
use std::str::FromStr;

/// Frames a second, the unit G counts in: 1G is one row a frame at 60 frames a second.
pub const FRAMES_PER_SECOND: f64 = 60.0;

/// The fastest gravity: 20G, a row every frame for each of the 20 visible rows, so a piece
/// reaches the floor within one frame.
pub const MAX_G: f64 = 20.0;

/// How fast a piece falls by itself.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Gravity {
    /// A fixed rate in G (rows per frame at 60 frames a second), above 0 and at most 20.
    Fixed(f64),
    /// The Tetris Guideline's curve: at level `L` (1 first, one more every 10 lines) a row
    /// takes `(0.8 - (L - 1) * 0.007)^(L - 1)` seconds, never less than 20G's.
    Guideline,
}

// The rate is finite (checked where it is read).
impl Eq for Gravity {}

impl Gravity {
    /// Microseconds a row takes at `level` (0 first, as the engine's [`super::Stats`]
    /// counts), rounded to the nearest, and never below 20G's 833 µs.
    pub fn row_us(self, level: u32) -> u64 {
        let seconds = match self {
            Gravity::Fixed(g) => 1.0 / (g * FRAMES_PER_SECOND),
            Gravity::Guideline => guideline_row_seconds(level.saturating_add(1)),
        };
        let fastest = 1.0 / (MAX_G * FRAMES_PER_SECOND);
        (seconds.max(fastest) * 1e6).round() as u64
    }
}

/// Seconds a row takes at guideline level `level` (1 first), by the Tetris Guideline's
/// formula `(0.8 - (level - 1) * 0.007)^(level - 1)`. Past level 20 the curve is beyond
/// 20G (and the base falls toward zero), so later levels play as level 20.
pub fn guideline_row_seconds(level: u32) -> f64 {
    let steps = f64::from(level.clamp(1, 20) - 1);
    (0.8 - steps * 0.007).powf(steps)
}

impl fmt::Display for Gravity {
    /// `0.02G` or `guideline`, as the command line writes it.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Gravity::Fixed(g) => write!(f, "{g}G"),
            Gravity::Guideline => f.write_str("guideline"),
        }
    }
}

impl FromStr for Gravity {
    type Err = TimingError;

    /// `guideline`, or a rate in G with or without its unit: `0.02G`, `1/60`, `20`.
    fn from_str(text: &str) -> Result<Gravity, TimingError> {
        if text == "guideline" {
            return Ok(Gravity::Guideline);
        }
        let bad = || TimingError::Gravity(text.to_string());
        let number = text.strip_suffix(['G', 'g']).unwrap_or(text);
        let g = match number.split_once('/') {
            Some((over, under)) => {
                let (over, under): (f64, f64) = (over.parse().map_err(|_| bad())?, under.parse().map_err(|_| bad())?);
                over / under
            }
            None => number.parse().map_err(|_| bad())?,
        };
        let gravity = Gravity::Fixed(g);
        gravity.check()?;
        Ok(gravity)
    }
}

impl Gravity {
    fn check(self) -> Result<(), TimingError> {
        match self {
            Gravity::Fixed(g) if !(g.is_finite() && g > 0.0 && g <= MAX_G) => Err(TimingError::Gravity(g.to_string())),
            _ => Ok(()),
        }
    }
}

/// The timing rules: gravity, and the lock delay with its move reset.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Timing {
    /// How fast a piece falls by itself.
    pub gravity: Gravity,
    /// Milliseconds a piece may rest before it locks.
    #[serde(default = "Timing::default_lock_delay")]
    pub lock_delay_ms: u32,
    /// Moves or turns of a resting piece that restart its lock delay, per piece and per
    /// lowest row reached (see `docs/rules.md`).
    #[serde(default = "Timing::default_move_resets")]
    pub move_reset_limit: u32,
}

impl Timing {
    /// The guideline's lock delay: half a second.
    pub const LOCK_DELAY_MS: u32 = 500;
    /// The guideline's move reset: 15 moves or turns.
    pub const MOVE_RESETS: u32 = 15;
    /// The longest lock delay accepted: a minute.
    pub const MAX_LOCK_DELAY_MS: u32 = 60_000;

    fn default_lock_delay() -> u32 {
        Timing::LOCK_DELAY_MS
    }

    fn default_move_resets() -> u32 {
        Timing::MOVE_RESETS
    }

    /// The guideline's timing: its gravity curve, 500 ms of lock delay, 15 move resets.
    pub fn guideline() -> Timing {
        Timing {
            gravity: Gravity::Guideline,
            lock_delay_ms: Timing::LOCK_DELAY_MS,
            move_reset_limit: Timing::MOVE_RESETS,
        }
    }

    /// The lock delay in microseconds.
    pub fn lock_delay_us(&self) -> u64 {
        u64::from(self.lock_delay_ms) * 1000
    }

    /// Checks values read from a file or the command line.
    pub fn check(&self) -> Result<(), TimingError> {
        self.gravity.check()?;
        if self.lock_delay_ms > Timing::MAX_LOCK_DELAY_MS {
            return Err(TimingError::LockDelay(self.lock_delay_ms));
        }
        Ok(())
    }
}

impl fmt::Display for Timing {
    /// `gravity 0.02G, lock delay 500 ms, 15 move resets`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "gravity {}, lock delay {} ms, {} move resets",
            self.gravity, self.lock_delay_ms, self.move_reset_limit
        )
    }
}

/// Timing rules that cannot be played.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum TimingError {
    /// Not `guideline` nor a rate in G above 0 and at most 20.
    #[error("gravity `{0}` is not `guideline` nor a rate in G above 0 and at most 20 (such as 0.02G or 1/60)")]
    Gravity(String),
    /// A lock delay longer than a minute.
    #[error("a lock delay of {0} ms is longer than a minute")]
    LockDelay(u32),
    /// Timing rules under a preset that has no real-time play.
    #[error("timing rules (gravity, lock delay) are played under preset guideline only, not {0}")]
    Preset(String),
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_fixed_rate_takes_one_over_g_frames_a_row() {
        // 1/60 G: one row every 60 frames, a second.
        assert_eq!(Gravity::Fixed(1.0 / 60.0).row_us(0), 1_000_000);
        // 0.02G: 50 frames of 1/60 s, 833 333 µs (rounded).
        assert_eq!(Gravity::Fixed(0.02).row_us(7), 833_333);
        // 1G: one frame. 20G and faster: one frame for 20 rows.
        assert_eq!(Gravity::Fixed(1.0).row_us(0), 16_667);
        assert_eq!(Gravity::Fixed(20.0).row_us(0), 833);
    }

    #[test]
    fn the_guideline_curve_by_level() {
        // Level 1: 0.8^0 = 1 s. Level 2: 0.793 s. Level 5: 0.772^4 = 0.355197 s.
        assert_eq!(Gravity::Guideline.row_us(0), 1_000_000);
        assert_eq!(Gravity::Guideline.row_us(1), 793_000);
        assert_eq!(Gravity::Guideline.row_us(4), 355_197);
        // Level 15: 0.702^14 = 7.0586 ms. Level 19: 0.674^18 = 824 µs, below 20G's 833 µs.
        assert_eq!(Gravity::Guideline.row_us(14), 7_059);
        assert_eq!(Gravity::Guideline.row_us(18), 833);
        assert_eq!(Gravity::Guideline.row_us(500), 833);
    }

    #[test]
    fn gravity_reads_as_the_command_line_writes_it() {
        assert_eq!("guideline".parse::<Gravity>(), Ok(Gravity::Guideline));
        assert_eq!("0.02G".parse::<Gravity>(), Ok(Gravity::Fixed(0.02)));
        assert_eq!("1/60".parse::<Gravity>().map(|g| g.row_us(0)), Ok(1_000_000));
        assert_eq!("20".parse::<Gravity>(), Ok(Gravity::Fixed(20.0)));
        for bad in ["0", "-1G", "21G", "fast", "1/0", "NaN"] {
            assert!(bad.parse::<Gravity>().is_err(), "{bad}");
        }
        assert_eq!(Gravity::Fixed(0.02).to_string(), "0.02G");
    }

    #[test]
    fn timing_is_written_and_read_back_with_its_defaults() {
        let timing = Timing {
            gravity: Gravity::Fixed(0.5),
            ..Timing::guideline()
        };
        let text = serde_json::to_string(&timing).unwrap();
        assert_eq!(
            text,
            r#"{"gravity":{"fixed":0.5},"lock_delay_ms":500,"move_reset_limit":15}"#
        );
        assert_eq!(serde_json::from_str::<Timing>(&text).unwrap(), timing);
        let short: Timing = serde_json::from_str(r#"{"gravity":"guideline"}"#).unwrap();
        assert_eq!(short, Timing::guideline());
        assert!(Timing {
            lock_delay_ms: 60_001,
            ..Timing::guideline()
        }
        .check()
        .is_err());
    }
}
