//! Progress on a terminal for long runs: games done, pieces played and pieces per
//! second, elapsed time. Drawn on stderr, and only when stderr is a terminal.

use indicatif::{ProgressBar, ProgressStyle};
use std::io::IsTerminal;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::Arc;
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

/// How often the pieces count is redrawn.
const REFRESH: Duration = Duration::from_millis(250);

/// A live progress bar over a run's games, with a pieces counter the game loop feeds.
pub struct LiveProgress {
    bar: ProgressBar,
    pieces: Arc<AtomicU64>,
    stop: Arc<AtomicBool>,
    ticker: Option<JoinHandle<()>>,
}

impl LiveProgress {
    /// A bar over `games` games, if stderr is a terminal.
    pub fn start(games: u64) -> Option<LiveProgress> {
        if !std::io::stderr().is_terminal() {
            return None;
        }
        let bar = ProgressBar::new(games);
        bar.set_style(
            ProgressStyle::with_template("{bar:30} {pos}/{len} games  {elapsed_precise}  {msg}")
                .expect("a valid template"),
        );
        let pieces = Arc::new(AtomicU64::new(0));
        let stop = Arc::new(AtomicBool::new(false));
        let ticker = {
            let (bar, pieces, stop) = (bar.clone(), pieces.clone(), stop.clone());
            std::thread::spawn(move || {
                let started = Instant::now();
                while !stop.load(Ordering::Relaxed) {
                    let played = pieces.load(Ordering::Relaxed);
                    let rate = played as f64 / started.elapsed().as_secs_f64().max(1e-3);
                    bar.set_message(format!("{} pieces, {}/s", count(played as f64), count(rate)));
                    std::thread::sleep(REFRESH);
                }
            })
        };
        Some(LiveProgress {
            bar,
            pieces,
            stop,
            ticker: Some(ticker),
        })
    }

    /// The counter the game loop adds each locked piece to.
    pub fn pieces(&self) -> Arc<AtomicU64> {
        self.pieces.clone()
    }

    /// One more game finished; `print` writes its line with the bar out of the way.
    pub fn game_done(&self, print: impl FnOnce()) {
        self.bar.suspend(print);
        self.bar.inc(1);
    }

    /// Removes the bar.
    pub fn finish(mut self) {
        self.stop.store(true, Ordering::Relaxed);
        if let Some(ticker) = self.ticker.take() {
            let _ = ticker.join();
        }
        self.bar.finish_and_clear();
    }
}

/// A count for people: 950, 12.3 k, 1.20 M.
fn count(n: f64) -> String {
    if n >= 1e6 {
        format!("{:.2} M", n / 1e6)
    } else if n >= 1e4 {
        format!("{:.1} k", n / 1e3)
    } else {
        format!("{n:.0}")
    }
}

#[cfg(test)]
mod tests {
    use super::count;

    #[test]
    fn counts_read_at_a_glance() {
        assert_eq!(count(950.0), "950");
        assert_eq!(count(12_345.0), "12.3 k");
        assert_eq!(count(1_204_000.0), "1.20 M");
    }
}
