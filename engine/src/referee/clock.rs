//! Time controls in the chess testers' grammar (cutechess-cli's `--tc` and `--st`), and the
//! clock the referee keeps for each seat under one.

use super::Budget;
use std::time::Duration;

/// How much time a seat has to decide.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TimeControl {
    /// `--st SECONDS`: a fixed time for each piece.
    PerMove(Duration),
    /// `--tc [MOVES/]SECONDS[+INCREMENT]`: a clock for the game, given `base` again every
    /// `moves` pieces (if set), and `increment` after every piece.
    Clock {
        /// Pieces per period; `None`: the whole game is one period.
        moves: Option<u32>,
        /// The time of a period.
        base: Duration,
        /// The time added after each piece.
        increment: Duration,
    },
}

/// Seconds as written: a finite number, positive (or `>= 0` when `zero` is allowed).
fn seconds(text: &str, zero: bool) -> Result<Duration, String> {
    let value: f64 = text
        .trim()
        .parse()
        .map_err(|_| format!("`{text}` is not a number of seconds"))?;
    if !value.is_finite() || value < 0.0 || (value == 0.0 && !zero) {
        return Err(format!("`{text}` is not a positive number of seconds"));
    }
    Duration::try_from_secs_f64(value).map_err(|_| format!("`{text}` seconds is too long"))
}

impl TimeControl {
    /// Parses `--tc`: `40/60+0.5` (40 pieces in 60 s, 0.5 s added per piece), `60+1`, `60`.
    pub fn parse_tc(text: &str) -> Result<TimeControl, String> {
        let bad = |why: String| format!("`{text}` is not MOVES/SECONDS+INCREMENT (for example 40/60+0.5): {why}");
        let (moves, rest) = match text.split_once('/') {
            Some((moves, rest)) => {
                let moves: u32 = moves
                    .trim()
                    .parse()
                    .ok()
                    .filter(|&m| m > 0)
                    .ok_or_else(|| bad(format!("`{moves}` is not a positive number of moves")))?;
                (Some(moves), rest)
            }
            None => (None, text),
        };
        let (base, increment) = match rest.split_once('+') {
            Some((base, increment)) => (base, Some(increment)),
            None => (rest, None),
        };
        let base = seconds(base, false).map_err(bad)?;
        let increment = match increment {
            Some(increment) => seconds(increment, true).map_err(bad)?,
            None => Duration::ZERO,
        };
        Ok(TimeControl::Clock { moves, base, increment })
    }

    /// Parses `--st`: the seconds each piece may take.
    pub fn parse_st(text: &str) -> Result<TimeControl, String> {
        seconds(text, false).map(TimeControl::PerMove)
    }

    /// As `--tc` writes it (`40/60+0.5`), or `None` for a time per piece.
    pub fn tc(&self) -> Option<String> {
        match *self {
            TimeControl::PerMove(_) => None,
            TimeControl::Clock { moves, base, increment } => {
                let moves = moves.map(|m| format!("{m}/")).unwrap_or_default();
                let increment = match increment.is_zero() {
                    true => String::new(),
                    false => format!("+{}", increment.as_secs_f64()),
                };
                Some(format!("{moves}{}{increment}", base.as_secs_f64()))
            }
        }
    }

    /// As `--st` writes it (`1.5`), or `None` for a clock.
    pub fn st(&self) -> Option<String> {
        match *self {
            TimeControl::PerMove(time) => Some(time.as_secs_f64().to_string()),
            TimeControl::Clock { .. } => None,
        }
    }
}

impl std::fmt::Display for TimeControl {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match (self.tc(), self.st()) {
            (Some(tc), _) => write!(f, "tc {tc}"),
            (_, Some(st)) => write!(f, "st {st}"),
            _ => Ok(()),
        }
    }
}

/// The pieces a clock without a period is shared over, as cutechess-cli assumes.
const MOVES_TO_GO: u32 = 30;

/// One seat's clock under a time control.
#[derive(Clone, Debug)]
pub struct SeatClock {
    control: TimeControl,
    /// Time left, in nanoseconds: on the clock, or for the piece under `PerMove`.
    left_ns: i128,
    /// Pieces locked so far.
    pieces: u64,
    /// Time used in all, in nanoseconds.
    used_ns: u64,
}

impl SeatClock {
    /// A full clock under `control`.
    pub fn new(control: TimeControl) -> SeatClock {
        let full = match control {
            TimeControl::PerMove(time) => time,
            TimeControl::Clock { base, .. } => base,
        };
        SeatClock {
            control,
            left_ns: full.as_nanos() as i128,
            pieces: 0,
            used_ns: 0,
        }
    }

    /// Charges a decision of `elapsed_ns`; returns what happened if the clock fell below zero.
    #[inline]
    pub fn charge(&mut self, elapsed_ns: u64) -> Option<String> {
        self.used_ns = self.used_ns.saturating_add(elapsed_ns);
        self.left_ns -= i128::from(elapsed_ns);
        (self.left_ns < 0).then(|| match self.control {
            TimeControl::PerMove(time) => format!(
                "piece {} took {} ms, time control st {} s",
                self.pieces + 1,
                (time.as_nanos() as i128 - self.left_ns) / 1_000_000,
                time.as_secs_f64()
            ),
            TimeControl::Clock { .. } => format!(
                "clock fell {} ms below zero at piece {} ({})",
                -self.left_ns / 1_000_000,
                self.pieces + 1,
                self.control
            ),
        })
    }

    /// Sees the seat's piece count after a tick: each piece locked adds the increment (and
    /// a period's time when it closes), or under `PerMove` gives the next piece its time.
    #[inline]
    pub fn after_tick(&mut self, pieces: u64) {
        while self.pieces < pieces {
            self.pieces += 1;
            match self.control {
                TimeControl::PerMove(time) => self.left_ns = time.as_nanos() as i128,
                TimeControl::Clock { moves, base, increment } => {
                    self.left_ns += increment.as_nanos() as i128;
                    if moves.is_some_and(|moves| self.pieces.is_multiple_of(u64::from(moves))) {
                        self.left_ns += base.as_nanos() as i128;
                    }
                }
            }
        }
    }

    /// What the next decision may spend: the time left, and the piece's share of it (the
    /// time left under `PerMove`; else the time left over the pieces to the end of the
    /// period, or over 30, plus the increment).
    pub fn budget(&self) -> Budget {
        let limit = Duration::from_nanos(self.left_ns.clamp(0, i128::from(u64::MAX)) as u64);
        let share = match self.control {
            TimeControl::PerMove(_) => limit,
            TimeControl::Clock { moves, increment, .. } => {
                let to_go = moves.map_or(MOVES_TO_GO, |m| m - (self.pieces % u64::from(m)) as u32);
                (limit / to_go + increment).min(limit)
            }
        };
        Budget { limit, share }
    }

    /// Time used in all, in nanoseconds.
    pub fn used_ns(&self) -> u64 {
        self.used_ns
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_testers_grammar_reads_and_writes_back() {
        for text in ["40/60+0.5", "60+1", "60", "0.25"] {
            assert_eq!(TimeControl::parse_tc(text).unwrap().tc().unwrap(), text);
        }
        assert_eq!(TimeControl::parse_st("1.5").unwrap().st().unwrap(), "1.5");
        for bad in [
            "", "x", "0", "-1", "40/0", "0/60", "60+-1", "60+x", "inf", "NaN", "40/60/1",
        ] {
            assert!(TimeControl::parse_tc(bad).is_err(), "{bad}");
        }
        for bad in ["0", "-0.5", "x", "inf"] {
            assert!(TimeControl::parse_st(bad).is_err(), "{bad}");
        }
    }

    #[test]
    fn a_clock_refills_each_period_and_gains_the_increment_per_piece() {
        let ms = |n: u64| n * 1_000_000;
        let control = TimeControl::parse_tc("2/0.1+0.01").unwrap();
        let mut clock = SeatClock::new(control);
        assert_eq!(clock.budget().share, Duration::from_millis(60));
        assert_eq!(clock.charge(ms(90)), None);
        clock.after_tick(1);
        assert_eq!(clock.budget().limit, Duration::from_millis(20));
        assert_eq!(clock.charge(ms(20)), None);
        clock.after_tick(2);
        // 0 + 10 ms increment + 100 ms for the new period.
        assert_eq!(clock.budget().limit, Duration::from_millis(110));
        assert!(clock.charge(ms(111)).unwrap().contains("below zero at piece 3"));
        assert_eq!(clock.used_ns(), ms(221));
    }

    #[test]
    fn a_time_per_piece_is_given_again_each_piece() {
        let mut clock = SeatClock::new(TimeControl::parse_st("0.05").unwrap());
        assert_eq!(clock.charge(30_000_000), None);
        assert_eq!(clock.charge(15_000_000), None);
        clock.after_tick(1);
        assert_eq!(clock.budget().limit, Duration::from_millis(50));
        assert!(clock.charge(51_000_000).unwrap().starts_with("piece 2 took 51 ms"));
    }
}
