//! What of a piece's share of the clock a TBP bot is left to answer `suggest`: learned from
//! how late its answers came, so that a bot whose answers are slow is asked earlier.
//!
//! A TBP bot thinks until it is asked, so the host chooses when to ask. Asked too late, a
//! bot loses on time; asked too early, it thinks less than its time. The rule: the host
//! notes, for every move, how long after the moment it meant to ask the answer came, less
//! what the machine took (the host woken late, the bot's threads kept from a CPU: not
//! charged, see `run_delay`), and leaves the bot twice the slowest of the last [`WINDOW`]
//! of these, or a tenth of the share if that is more, at least [`ANSWER_FLOOR`] and at
//! most half the share. The answers are remembered by plugin for the whole run, across
//! its games and its processes; before the plugin's first answer, half the share is left.
//! The bot's clock is charged from the move's first message to its answer, less the
//! host's check of the answer and the machine's part: a bot whose answers take more than
//! half its share loses on time as before.

use std::collections::{HashMap, VecDeque};
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex, OnceLock};
use std::time::Duration;

/// The least time left for an answer. A bot answers between steps of its search: Cold
/// Clear 2 answered in 0.3 ms at the median but took up to 5.4 ms now and then (60
/// decisions, two-core machine, load about 4.7).
const ANSWER_FLOOR: Duration = Duration::from_millis(10);

/// How many of the latest answers are remembered: the slowest of them is a running high
/// quantile (about the 99.8th percentile) that follows the machine's load as it changes.
/// A busy machine's slow answers are rare (Cold Clear 2 at a load of about 7: 0.25 ms at
/// the median, 13.7 ms at the 99th percentile, 25.7 ms at most in 240), so a short memory
/// would forget them between two.
pub(super) const WINDOW: usize = 500;

/// The times from the moment the host meant to ask to the move in hand, latest last.
#[derive(Debug, Default)]
pub(super) struct AnswerTimes {
    recent: VecDeque<Duration>,
}

/// The answer times of the plugin at `path`, shared by all its games in this run.
pub(super) fn of_plugin(path: &Path) -> Arc<Mutex<AnswerTimes>> {
    static BY_PLUGIN: OnceLock<Mutex<HashMap<PathBuf, Arc<Mutex<AnswerTimes>>>>> = OnceLock::new();
    let mut by_plugin = BY_PLUGIN
        .get_or_init(Default::default)
        .lock()
        .unwrap_or_else(|p| p.into_inner());
    by_plugin.entry(path.to_path_buf()).or_default().clone()
}

impl AnswerTimes {
    /// Notes one answer's time.
    pub(super) fn record(&mut self, took: Duration) {
        if self.recent.len() == WINDOW {
            self.recent.pop_front();
        }
        self.recent.push_back(took);
    }

    /// What of `share` is left for the answer: twice the slowest recent answer or a tenth
    /// of the share, whichever is more, at least [`ANSWER_FLOOR`], at most half the share;
    /// half before any answer.
    pub(super) fn reserve(&self, share: Duration) -> Duration {
        let cap = share / 2;
        match self.recent.iter().max() {
            Some(&slowest) => (slowest * 2).max(share / 10).max(ANSWER_FLOOR).min(cap),
            None => cap,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const fn ms(n: u64) -> Duration {
        Duration::from_millis(n)
    }

    #[test]
    fn before_any_answer_half_the_share_is_left() {
        let times = AnswerTimes::default();
        assert_eq!(times.reserve(ms(100)), ms(50));
        assert_eq!(times.reserve(Duration::ZERO), Duration::ZERO);
    }

    #[test]
    fn twice_the_slowest_answer_is_left_within_the_floor_and_half_the_share() {
        let mut times = AnswerTimes::default();
        times.record(Duration::from_micros(300));
        assert_eq!(times.reserve(ms(50)), ms(10), "the floor");
        assert_eq!(times.reserve(ms(1000)), ms(100), "a tenth of the share");
        times.record(ms(17));
        times.record(ms(2));
        assert_eq!(times.reserve(ms(200)), ms(34));
        assert_eq!(times.reserve(ms(100)), ms(34));
        assert_eq!(times.reserve(ms(50)), ms(25), "at most half");
        assert_eq!(
            times.reserve(ms(15)),
            Duration::from_micros(7500),
            "half even under the floor"
        );
    }

    #[test]
    fn a_plugin_s_answers_are_remembered_across_its_games() {
        let path = Path::new("/plugins/answer-time-test.toml");
        of_plugin(path).lock().unwrap().record(ms(30));
        assert_eq!(of_plugin(path).lock().unwrap().reserve(ms(200)), ms(60));
        let other = of_plugin(Path::new("/plugins/answer-time-other.toml"));
        assert_eq!(other.lock().unwrap().reserve(ms(1000)), ms(500));
    }

    #[test]
    fn a_slow_answer_is_forgotten_after_the_window() {
        let mut times = AnswerTimes::default();
        times.record(ms(40));
        for _ in 0..WINDOW - 1 {
            times.record(ms(6));
        }
        assert_eq!(times.reserve(ms(100)), ms(80).min(ms(50)));
        assert_eq!(times.reserve(ms(200)), ms(80));
        times.record(ms(6));
        assert_eq!(times.reserve(ms(100)), ms(12));
    }
}
